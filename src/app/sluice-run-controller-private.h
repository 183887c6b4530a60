/* sluice-run-controller-private.h: what the parts of a run controller share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-fold.h"
#include "sluice-narrator.h"
#include "sluice-recorder.h"
#include "sluice-remote-pool.h"
#include "sluice-result-list.h"
#include "sluice-run-controller.h"
#include "sluice-scenario-runner.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

/* A run controller is one object in five units: sluice-run-controller.c
 * (the object and its properties: starting and resetting a run),
 * sluice-run-controller-steering.c (stopping, closing, submitting,
 * cancelling; the speed, the pause, the step),
 * sluice-run-controller-views.c (what each frame moves: the timeline, the
 * fold, the results, the stats and the now line),
 * sluice-run-controller-status.c (what the banner says: the shutdown
 * countdown, and how the run ended), sluice-run-controller-exports.c
 * (the models' getters, the recording and the exports) and
 * sluice-run-controller-remote.c (a pool of another program, attached on
 * D-Bus). They share the struct and the functions below. */

/* The shortest span the chart and the lanes show. */
#define SLUICE_RUN_CONTROLLER_MIN_SPAN_US (G_USEC_PER_SEC / 2)

struct _SluiceRunController
{
  GObject               parent_instance;

  GtkWidget            *frame_widget; /* weak: its frame clock paces the updates */

  SluiceResultList     *results;
  SluiceLiveStats      *stats;      /* what the counters show */
  SluiceFaultHandler   *handler;    /* the running scenario's, or NULL */
  gint64                now;        /* where the now line is */
  guint64               position;   /* the events shown, or G_MAXUINT64: all */
  SluiceViewport       *viewport;
  double                speed;
  gboolean              paused;

  /* the run */
  SluiceScenarioRunner *runner;
  SluiceClock          *clock;
  SluiceRecorder       *recorder;
  SluiceTimeline       *timeline;
  JsonNode             *report;     /* the finished run's JSON object, or NULL */
  GCancellable         *replay;     /* a recording run again for its report */
  char                 *report_note; /* why there is no report, or NULL */
  guint                 tick_id;
  guint64               n_seen;
  SluiceFold           *fold;       /* the run at the moment shown */
  SluiceFold           *finished_fold; /* the same, once the run has ended */
  SluiceNarrator       *narrator;
  char                 *scenario_text; /* the run's scenario as it ran */
  gint64                moment;     /* the clock time the views show, or -1 */
  gboolean              can_skip;   /* the run has an item deadline or a retry budget */
  gboolean              can_shed;   /* the run has an item deadline */
  SluiceEvent           last;       /* the counts of the moment shown (its newest event) */
  gint64                start_time;
  gint64                shown_now;  /* the latest "now" shown: it never goes back */
  gboolean              running;
  gboolean              has_run;
  gboolean              instant;    /* simulated runs jump through time */
  SluiceRemotePool     *remote;     /* the attached pool, or NULL */
  guint64               remote_lost; /* the events of the last attached pool that never came */

  /* submit mode, the shutdown deadline and fatal errors */
  gboolean              submit_mode;
  gint64                shutdown_timeout;   /* µs, 0: none */
  gint64                shutdown_from;      /* when the shutdown clock started, or -1 */
  gint64                deadline_fired_at;  /* -1: it did not fire */
  gint64                fatal_at;           /* -1: no fatal error */
  gint64                run_end_at;         /* -1: the run has not ended */
  char                 *fatal_type;
  char                 *countdown;          /* the banner's last countdown */
  guint                 busy, workers;      /* the last snapshot's */
  guint                 configured_workers; /* shown without a run */
  guint                 queue_depth;
  gboolean              has_snapshot;
};

/* sluice-run-controller.c */
void   _sluice_run_controller_create_models     (SluiceRunController *self,
                                                 SluiceScenario      *scenario,
                                                 SluiceRecorder      *recorder);
void   _sluice_run_controller_set_running       (SluiceRunController *self,
                                                 gboolean             running);
void   _sluice_run_controller_emit_finished     (SluiceRunController *self);
void   _sluice_run_controller_notify_remote     (SluiceRunController *self);
void   _sluice_run_controller_set_report_note   (SluiceRunController *self,
                                                 const char          *note);
void   _sluice_run_controller_set_moment        (SluiceRunController *self,
                                                 gint64               moment);
void   _sluice_run_controller_emit_status       (SluiceRunController *self,
                                                 SluiceRunStatus      kind,
                                                 const char          *text);
void   _sluice_run_controller_set_now           (SluiceRunController *self,
                                                 gint64               now);
void   _sluice_run_controller_set_position      (SluiceRunController *self,
                                                 guint64              position);
void   _sluice_run_controller_emit_updated      (SluiceRunController *self,
                                                 gboolean             new_events);
void   _sluice_run_controller_emit_seeked       (SluiceRunController *self,
                                                 guint64              position);

/* sluice-run-controller-views.c */
gint64 _sluice_run_controller_now               (SluiceRunController *self);
void   _sluice_run_controller_update_stats      (SluiceRunController *self);
void   _sluice_run_controller_update_views      (SluiceRunController *self);
void   _sluice_run_controller_show_playhead     (SluiceRunController *self);
void   _sluice_run_controller_add_tick          (SluiceRunController *self);
void   _sluice_run_controller_remove_tick       (SluiceRunController *self);

/* sluice-run-controller-remote.c */
void   _sluice_run_controller_let_go_of_remote  (SluiceRunController *self);
void   _sluice_run_controller_request_remote_stop (SluiceRunController *self);
gboolean _sluice_run_controller_take_remote_snapshot (SluiceRunController *self);

/* sluice-run-controller-status.c */
void   _sluice_run_controller_see_shutdown_event (SluiceRunController *self,
                                                  const SluiceEvent   *event);
void   _sluice_run_controller_update_countdown  (SluiceRunController *self);
void   _sluice_run_controller_show_recorded_end (SluiceRunController *self);
void   _sluice_run_controller_show_end          (SluiceRunController *self,
                                                 SluiceReport        *report,
                                                 const GError        *error);

G_END_DECLS
