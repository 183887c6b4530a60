/* sluice-scenario-runner-private.h: what the runner's stream driver
 * (sluice-scenario-runner.c) and its service submitter
 * (sluice-scenario-runner-submit.c) share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-scenario-runner.h"

G_BEGIN_DECLS

struct _SluiceScenarioRunner
{
  GObject               parent_instance;

  SluiceScenario       *scenario;
  SluiceRecorder       *recorder;
  SluiceEventFunc       event_func;
  gpointer              event_data;
  GDestroyNotify        event_destroy;

  SluiceClock          *clock;
  SluiceFaultHandler   *handler;
  SluiceFaultSource    *source;
  SluicePool           *pool;
  SluiceRun            *run;
  SluiceReport         *report;
  GCancellable         *cancellable;          /* the run's: cancels it as its caller */
  GCancellable         *caller_cancellable;   /* the one given to run_async, or NULL */
  gulong                caller_cancel_id;
  GTask                *task;

  guint64               cancel_timer;
  guint64               caller_timer;         /* a slow caller's wait before its next read */
  GArray               *snapshot_timers;      /* guint64 per snapshot-at time, 0 once fired */
  GPtrArray            *snapshots;            /* SluiceSnapshot* per time, NULL until taken */
  gulong                stalled_id;
  gint64                n_results;
  gboolean              started;
  gboolean              summary_only;         /* the report keeps no details */
  gboolean              closing;

  /* Submit mode. */
  gboolean              submit_mode;
  GPtrArray            *jobs;                 /* SluiceJob* by index, NULL until its submission returned */
  GHashTable           *give_up_timers;       /* gint64* job index → guint64* timer */
  GHashTable           *give_up_due;          /* gint64* jobs whose give-up came before their job */
  GByteArray           *ended;                /* bit per job index: it ended */
  guint                 n_ended;
  GHashTable           *hand_items;           /* GVariant* (not yet admitted) → SluiceBehaviour* */
  GHashTable           *source_items;         /* GVariant* (not yet admitted) → source index */
  GHashTable           *originals;            /* gint64* → SluiceBehaviour*: item.N before a shift */
  gint64                n_source_items;       /* the source's items taken by the submitter */
  gint64                n_admitted;           /* jobs admitted (pull events), answered or not */
  guint                 submit_refused;
  guint                 pending_submits;      /* the submitter's and the hand ones */
  GVariant             *submitting;           /* the item of the submitter's call under way, or NULL */
  gboolean              admitted_at_call;     /* that call admitted its job at once */
  guint64               close_timer;
  guint                 stop_idle;
  gboolean              submitter_done;
  gboolean              run_ended;
  GError               *end_error;
  gint64                submitter_ended_at;
};
/* A timer about one snapshot or one job. */
typedef struct {
  SluiceScenarioRunner *self;  /* not a reference: the timer goes first */
  gint64                index;
} SluiceIndexTimer;

SluiceIndexTimer *_sluice_scenario_runner_index_timer_new (SluiceScenarioRunner *self,
                                                           gint64                index);
void              _sluice_scenario_runner_finish          (SluiceScenarioRunner *self,
                                                           const GError         *end_error,
                                                           gboolean              closed);

/* The submitter's side (sluice-scenario-runner-submit.c). */
void              _sluice_scenario_runner_init_service    (SluiceScenarioRunner *self);
void              _sluice_scenario_runner_clear_service   (SluiceScenarioRunner *self);
void              _sluice_scenario_runner_remove_give_up_timers (SluiceScenarioRunner *self);
void              _sluice_scenario_runner_start_service   (SluiceScenarioRunner *self);
void              _sluice_scenario_runner_close_service   (SluiceScenarioRunner *self);
void              _sluice_scenario_runner_on_service_event (SluiceScenarioRunner *self,
                                                            const SluiceEvent    *event);

G_END_DECLS
