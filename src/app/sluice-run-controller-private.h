/* sluice-run-controller-private.h: what the parts of a run controller share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-recorder.h"
#include "sluice-remote-pool.h"
#include "sluice-run-controller.h"
#include "sluice-scenario-runner.h"
#include "sluice-run-model.h"

G_BEGIN_DECLS

/* A run controller is one object in five units: sluice-run-controller.c
 * (the object and its properties: starting and resetting a run),
 * sluice-run-controller-steering.c (stopping, closing, submitting,
 * cancelling; the speed, the pause, the step),
 * sluice-run-controller-views.c (what each frame moves: the run model
 * reads its new events, the viewport follows),
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

  SluiceRunModel       *model;      /* the run shown: a new one for each run, never NULL */
  SluiceFaultHandler   *handler;    /* the running scenario's, or NULL */
  SluiceViewport       *viewport;
  double                speed;
  gboolean              paused;

  /* the run */
  SluiceScenarioRunner *runner;
  SluiceClock          *clock;
  GCancellable         *replay;     /* a recording run again for its report */
  guint                 tick_id;
  gint64                shown_now;  /* the latest "now" shown: it never goes back */
  gboolean              running;
  gboolean              instant;    /* simulated runs jump through time */
  SluiceRemotePool     *remote;     /* the attached pool, or NULL */
  guint64               remote_lost; /* the events of the last attached pool that never came */
  char                 *countdown;  /* the banner's last countdown */
  guint                 configured_workers; /* shown without a run */
};

/* sluice-run-controller.c */
void   _sluice_run_controller_set_model         (SluiceRunController *self,
                                                 SluiceRunModel      *model);
void   _sluice_run_controller_set_running       (SluiceRunController *self,
                                                 gboolean             running);
void   _sluice_run_controller_emit_finished     (SluiceRunController *self);
void   _sluice_run_controller_notify_remote     (SluiceRunController *self);
void   _sluice_run_controller_emit_status       (SluiceRunController *self,
                                                 SluiceRunStatus      kind,
                                                 const char          *text);

/* sluice-run-controller-views.c */
gint64 _sluice_run_controller_now               (SluiceRunController *self);
void   _sluice_run_controller_update_views      (SluiceRunController *self);
void   _sluice_run_controller_show_playhead     (SluiceRunController *self);
void   _sluice_run_controller_add_tick          (SluiceRunController *self);
void   _sluice_run_controller_remove_tick       (SluiceRunController *self);

/* sluice-run-controller-remote.c */
void   _sluice_run_controller_let_go_of_remote  (SluiceRunController *self);
void   _sluice_run_controller_request_remote_stop (SluiceRunController *self);
gboolean _sluice_run_controller_take_remote_snapshot (SluiceRunController *self);

/* sluice-run-controller-status.c */
void   _sluice_run_controller_update_countdown  (SluiceRunController *self);
void   _sluice_run_controller_show_recorded_end (SluiceRunController *self);
void   _sluice_run_controller_show_end          (SluiceRunController *self,
                                                 SluiceReport        *report,
                                                 const GError        *error);

G_END_DECLS
