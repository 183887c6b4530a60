/* sluice-scenario-runner.c: runs a scenario the way its [run] group says
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-runner.h"

#include <glib/gi18n-lib.h>

#include <math.h>

/**
 * SluiceScenarioRunner:
 *
 * Runs one #SluiceScenario as the caller of the pool: it builds the clock,
 * handler, source and pool, iterates the run, requests a stop after
 * `stop-after` results, closes the run after `close-after` results, cancels
 * it after `cancel-after-seconds` on the pool's clock, takes a snapshot
 * of the run at each `[submit] snapshot-at` time, and collects a
 * #SluiceReport. The command-line runner, the app and the tests share it.
 *
 * sluice_scenario_runner_request_stop() and sluice_scenario_runner_cancel()
 * are what the first and second SIGINT do.
 *
 * In submit mode (`[run] mode=submit`, submit-and-shutdown.md) the runner
 * opens a service run instead (sluice_pool_open()) and one submitter
 * submits the source's items as jobs, in order, each after the previous
 * submission completed; it gives up on a job after `[submit] give-up.N`
 * or `give-up-after` seconds from its submission, closes the run when the
 * source ends (or at `close-after-seconds`), after `[run] stop-after` jobs
 * have ended, and cancels it at `cancel-after-seconds`. The app adds jobs
 * by hand with sluice_scenario_runner_submit() and gives up on one with
 * sluice_scenario_runner_give_up().
 *
 * On a virtual clock, a run that can make no progress (nothing ready, no
 * timer pending) fails with %SLUICE_ERROR_DEADLOCK and a message naming
 * what still waits; the runner cancels the run in the background.
 */

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
  GArray               *snapshot_timers;      /* guint64 per snapshot-at time, 0 once fired */
  GPtrArray            *snapshots;            /* SluiceSnapshot* per time, NULL until taken */
  gulong                stalled_id;
  gint64                n_results;
  gboolean              started;
  gboolean              closing;

  /* Submit mode. */
  gboolean              submit_mode;
  GPtrArray            *jobs;                 /* SluiceJob* by index, NULL until its submission returned */
  GHashTable           *give_up_timers;       /* gint64* job index → guint64* timer */
  GHashTable           *give_up_due;          /* gint64* jobs whose give-up came before their job */
  GHashTable           *ended;                /* gint64* jobs that ended */
  GHashTable           *hand_items;           /* GVariant* (not yet admitted) → SluiceBehaviour* */
  GHashTable           *source_items;         /* GVariant* (not yet admitted) → source index */
  GHashTable           *originals;            /* gint64* → SluiceBehaviour*: item.N before a shift */
  gint64                n_source_items;       /* the source's items taken by the submitter */
  guint                 submit_refused;
  guint                 pending_submits;      /* the submitter's and the hand ones */
  guint64               close_timer;
  guint                 stop_idle;
  gboolean              submitter_done;
  gboolean              run_ended;
  GError               *end_error;
  gint64                submitter_ended_at;
};

G_DEFINE_FINAL_TYPE (SluiceScenarioRunner, sluice_scenario_runner, G_TYPE_OBJECT)

static void next (SluiceScenarioRunner *self);
static void on_event (const SluiceEvent *event, gpointer user_data);

static void
clear_job (gpointer job)
{
  if (job != NULL)
    g_object_unref (job);
}

static void
disconnect_caller (SluiceScenarioRunner *self)
{
  if (self->caller_cancel_id != 0)
    g_cancellable_disconnect (self->caller_cancellable, self->caller_cancel_id);
  self->caller_cancel_id = 0;
  g_clear_object (&self->caller_cancellable);
}

static void
disconnect_clock (SluiceScenarioRunner *self)
{
  if (self->clock == NULL)
    return;

  if (self->cancel_timer != 0)
    sluice_clock_remove_timer (self->clock, self->cancel_timer);
  self->cancel_timer = 0;

  for (guint i = 0; self->snapshot_timers != NULL && i < self->snapshot_timers->len; i++)
    {
      guint64 *timer = &g_array_index (self->snapshot_timers, guint64, i);

      if (*timer != 0)
        sluice_clock_remove_timer (self->clock, *timer);
      *timer = 0;
    }

  if (self->close_timer != 0)
    sluice_clock_remove_timer (self->clock, self->close_timer);
  self->close_timer = 0;

  if (self->give_up_timers != NULL)
    {
      GHashTableIter iter;
      gpointer timer;

      g_hash_table_iter_init (&iter, self->give_up_timers);
      while (g_hash_table_iter_next (&iter, NULL, &timer))
        sluice_clock_remove_timer (self->clock, *(guint64 *) timer);
      g_hash_table_remove_all (self->give_up_timers);
    }

  g_clear_signal_handler (&self->stalled_id, self->clock);
}

static void
sluice_scenario_runner_dispose (GObject *object)
{
  SluiceScenarioRunner *self = SLUICE_SCENARIO_RUNNER (object);

  disconnect_clock (self);
  g_clear_handle_id (&self->stop_idle, g_source_remove);

  if (self->event_destroy != NULL)
    self->event_destroy (self->event_data);
  self->event_destroy = NULL;
  self->event_func = NULL;

  G_OBJECT_CLASS (sluice_scenario_runner_parent_class)->dispose (object);
}

static void
sluice_scenario_runner_finalize (GObject *object)
{
  SluiceScenarioRunner *self = SLUICE_SCENARIO_RUNNER (object);

  g_clear_object (&self->run);
  g_clear_object (&self->pool);
  g_clear_object (&self->source);
  g_clear_object (&self->handler);
  g_clear_object (&self->clock);
  g_clear_object (&self->report);
  g_clear_object (&self->recorder);
  g_clear_pointer (&self->snapshot_timers, g_array_unref);
  g_clear_pointer (&self->snapshots, g_ptr_array_unref);
  g_clear_pointer (&self->jobs, g_ptr_array_unref);
  g_clear_pointer (&self->give_up_timers, g_hash_table_unref);
  g_clear_pointer (&self->give_up_due, g_hash_table_unref);
  g_clear_pointer (&self->ended, g_hash_table_unref);
  g_clear_pointer (&self->hand_items, g_hash_table_unref);
  g_clear_pointer (&self->source_items, g_hash_table_unref);
  g_clear_pointer (&self->originals, g_hash_table_unref);
  g_clear_error (&self->end_error);
  disconnect_caller (self);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->scenario);

  G_OBJECT_CLASS (sluice_scenario_runner_parent_class)->finalize (object);
}

static void
sluice_scenario_runner_class_init (SluiceScenarioRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_scenario_runner_dispose;
  object_class->finalize = sluice_scenario_runner_finalize;
}

static void
sluice_scenario_runner_init (SluiceScenarioRunner *self)
{
  self->cancellable = g_cancellable_new ();
  self->jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) clear_job);
  self->give_up_timers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->give_up_due = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->ended = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->hand_items = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) g_variant_unref,
                                            (GDestroyNotify) sluice_behaviour_free);
  self->source_items = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) g_variant_unref, g_free);
  self->originals = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify) sluice_behaviour_free);
}

/**
 * sluice_scenario_runner_new:
 * @scenario: the scenario to run
 *
 * Returns: (transfer full): a runner for one run of @scenario
 */
SluiceScenarioRunner *
sluice_scenario_runner_new (SluiceScenario *scenario)
{
  SluiceScenarioRunner *self;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (scenario), NULL);

  self = g_object_new (SLUICE_TYPE_SCENARIO_RUNNER, NULL);
  self->scenario = g_object_ref (scenario);

  return self;
}

/**
 * sluice_scenario_runner_get_scenario:
 * @self: a #SluiceScenarioRunner
 *
 * Returns: (transfer none): the scenario
 */
SluiceScenario *
sluice_scenario_runner_get_scenario (SluiceScenarioRunner *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);
  return self->scenario;
}

/**
 * sluice_scenario_runner_set_recorder:
 * @self: a #SluiceScenarioRunner that has not started
 * @recorder: (nullable): where to record the event stream
 *
 * Records every event of the run in @recorder.
 */
void
sluice_scenario_runner_set_recorder (SluiceScenarioRunner *self,
                                     SluiceRecorder       *recorder)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));
  g_return_if_fail (!self->started);

  g_set_object (&self->recorder, recorder);
}

/**
 * sluice_scenario_runner_set_clock:
 * @self: a #SluiceScenarioRunner that has not started
 * @clock: (nullable): the clock to run on, on the thread-default main
 *   context, or %NULL for a new clock of the scenario's kind
 *
 * Runs the pool on @clock instead of the clock the scenario asks for: the
 * app gives a scaled clock, so that it can change the speed, pause and step.
 */
void
sluice_scenario_runner_set_clock (SluiceScenarioRunner *self,
                                  SluiceClock          *clock)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));
  g_return_if_fail (clock == NULL || SLUICE_IS_CLOCK (clock));
  g_return_if_fail (!self->started);

  g_set_object (&self->clock, clock);
}

/**
 * sluice_scenario_runner_set_event_func:
 * @self: a #SluiceScenarioRunner that has not started
 * @func: (nullable): called for every event, after the report and recorder
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Also sends the event stream to @func (for a live progress line).
 */
void
sluice_scenario_runner_set_event_func (SluiceScenarioRunner *self,
                                       SluiceEventFunc       func,
                                       gpointer              user_data,
                                       GDestroyNotify        destroy)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));
  g_return_if_fail (!self->started);

  if (self->event_destroy != NULL)
    self->event_destroy (self->event_data);

  self->event_func = func;
  self->event_data = user_data;
  self->event_destroy = destroy;
}

/**
 * sluice_scenario_runner_get_pool:
 * @self: a #SluiceScenarioRunner
 *
 * Returns: (transfer none) (nullable): the pool, once the run started
 */
SluicePool *
sluice_scenario_runner_get_pool (SluiceScenarioRunner *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);
  return self->pool;
}

/**
 * sluice_scenario_runner_get_run:
 * @self: a #SluiceScenarioRunner
 *
 * Returns: (transfer none) (nullable): the pool's run, once it started
 */
SluiceRun *
sluice_scenario_runner_get_run (SluiceScenarioRunner *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);
  return self->run;
}

/**
 * sluice_scenario_runner_get_clock:
 * @self: a #SluiceScenarioRunner
 *
 * Returns: (transfer none) (nullable): the clock, once the run started
 */
SluiceClock *
sluice_scenario_runner_get_clock (SluiceScenarioRunner *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);
  return self->clock;
}

/**
 * sluice_scenario_runner_get_report:
 * @self: a #SluiceScenarioRunner
 *
 * Returns: (transfer none) (nullable): the report being collected, once the
 *   run started
 */
SluiceReport *
sluice_scenario_runner_get_report (SluiceScenarioRunner *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);
  return self->report;
}

/* ---- snapshots --------------------------------------------------------- */

/* A timer about one snapshot or one job. */
typedef struct {
  SluiceScenarioRunner *self;  /* not a reference: the timer goes first */
  gint64                index;
} IndexTimer;

static IndexTimer *
index_timer_new (SluiceScenarioRunner *self,
                 gint64                index)
{
  IndexTimer *timer = g_new (IndexTimer, 1);

  timer->self = self;
  timer->index = index;
  return timer;
}

static void
on_snapshot_timer (gpointer user_data)
{
  IndexTimer *timer = user_data;
  SluiceScenarioRunner *self = timer->self;

  g_array_index (self->snapshot_timers, guint64, timer->index) = 0;
  g_ptr_array_index (self->snapshots, timer->index) = sluice_run_get_snapshot (self->run);
}

/* One timer per time, counted from now, the run's start. They are
 * scheduled before anything of the run, so a snapshot at t shows the run
 * as it was when t came: after all that was due before, before what is
 * due at t itself (but for the shutdown deadline, which the pool puts
 * first at its instant). */
static void
schedule_snapshots (SluiceScenarioRunner *self)
{
  guint n = 0;
  const double *times = sluice_scenario_get_snapshot_times (self->scenario, &n);
  gint64 start = sluice_clock_now (self->clock);

  self->snapshots = g_ptr_array_new_full (n, (GDestroyNotify) sluice_snapshot_unref);
  g_ptr_array_set_size (self->snapshots, (gint) n);
  self->snapshot_timers = g_array_sized_new (FALSE, TRUE, sizeof (guint64), n);
  g_array_set_size (self->snapshot_timers, n);

  for (guint i = 0; i < n; i++)
    {
      IndexTimer *timer = index_timer_new (self, i);

      g_array_index (self->snapshot_timers, guint64, i) =
        sluice_clock_add_timer (self->clock, start + (gint64) llround (times[i] * G_USEC_PER_SEC),
                                on_snapshot_timer, timer, g_free);
    }
}

/* The snapshots, in the order of their times as written; one whose time
 * had not come when the run ended shows the end. */
static void
add_snapshots (SluiceScenarioRunner *self)
{
  guint n = 0;
  const double *times = sluice_scenario_get_snapshot_times (self->scenario, &n);

  for (guint i = 0; i < n && i < self->snapshots->len; i++)
    {
      SluiceSnapshot **snapshot = (SluiceSnapshot **) &g_ptr_array_index (self->snapshots, i);

      if (*snapshot == NULL)
        *snapshot = sluice_run_get_snapshot (self->run);
      sluice_report_add_snapshot (self->report, times[i], *snapshot);
    }
}

/* ---- the end ----------------------------------------------------------- */

static void
finish (SluiceScenarioRunner *self,
        const GError         *end_error,
        gboolean              closed)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->task);

  if (task == NULL)
    return;  /* already ended with a deadlock */

  disconnect_clock (self);
  disconnect_caller (self);
  g_clear_handle_id (&self->stop_idle, g_source_remove);
  add_snapshots (self);
  sluice_report_finish (self->report, self->run, end_error, closed,
                        sluice_fault_handler_get_ctx_ok (self->handler));
  if (self->submit_mode)
    sluice_report_finish_jobs (self->report, self->jobs, self->submit_refused,
                               self->submitter_ended_at,
                               g_cancellable_is_cancelled (self->cancellable));
  g_task_return_pointer (task, g_object_ref (self->report), g_object_unref);
}

static void
on_stalled (SluiceClock *clock,
            gpointer     user_data)
{
  SluiceScenarioRunner *self = user_data;
  g_autoptr(GTask) task = NULL;
  g_autofree char *waiting = NULL;

  if (self->task == NULL || self->run == NULL || sluice_run_is_finished (self->run))
    return;

  task = g_steal_pointer (&self->task);
  waiting = sluice_run_describe_waiting (self->run);
  g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_DEADLOCK,
                           /* Translators: the first %s is the scenario, %.6f the time in seconds,
                            * the last %s what the run still waits for (in English, from the engine). */
                           _("%s: deadlock at %.6f s on the virtual clock: nothing is ready and "
                             "no timer is pending, but the run has not ended; still waiting: %s"),
                           sluice_scenario_get_name (self->scenario),
                           (double) sluice_clock_now (clock) / G_USEC_PER_SEC,
                           waiting ? waiting : _("(unknown)"));

  /* Let the pool wind down if the main loop keeps running. */
  disconnect_clock (self);
  g_cancellable_cancel (self->cancellable);
}

static void
on_cancel_timer (gpointer user_data)
{
  SluiceScenarioRunner *self = user_data;

  self->cancel_timer = 0;
  g_cancellable_cancel (self->cancellable);
}

/* ---- iterating --------------------------------------------------------- */

static void
on_closed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!sluice_run_close_finish (SLUICE_RUN (object), result, &error))
    finish (self, error, FALSE);
  else
    finish (self, NULL, TRUE);
}

static void
on_result (SluiceScenarioRunner *self,
           GVariant             *result)
{
  gint64 stop_after = sluice_scenario_get_stop_after (self->scenario);
  gint64 close_after = sluice_scenario_get_close_after (self->scenario);

  sluice_report_add_result (self->report, result);
  self->n_results++;

  /* sluice_scenario_runner_close() came meanwhile: its callback ends. */
  if (self->closing)
    return;

  if (stop_after > 0 && self->n_results == stop_after)
    sluice_pool_request_stop (self->pool);

  if (close_after > 0 && self->n_results == close_after)
    {
      self->closing = TRUE;
      sluice_run_close_async (self->run, self->cancellable, on_closed, g_object_ref (self));
      return;
    }

  next (self);
}

static void
on_next (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) value = NULL;

  value = sluice_run_next_finish (SLUICE_RUN (object), result, &error);

  if (value != NULL)
    on_result (self, value);
  else if (!self->closing)
    finish (self, error, FALSE);
}

static void
next (SluiceScenarioRunner *self)
{
  sluice_run_next_async (self->run, self->cancellable, on_next, g_object_ref (self));
}


/* ---- submit mode ------------------------------------------------------- */

/* The end of a service run comes when the run has ended (its next
 * completed), the submitter has ended and no submission is pending. */
static void
maybe_finish_service (SluiceScenarioRunner *self)
{
  if (self->run_ended && self->submitter_done && self->pending_submits == 0)
    finish (self, self->end_error, FALSE);
}

static void
on_service_end (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GVariant) value = NULL;

  value = sluice_run_next_finish (SLUICE_RUN (object), result, &self->end_error);
  g_warn_if_fail (value == NULL);
  self->run_ended = TRUE;
  maybe_finish_service (self);
}

static void
on_service_closed (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  /* The reference the close took. */
  g_autoptr(SluiceScenarioRunner) self G_GNUC_UNUSED = user_data;

  /* The end itself comes from the run's next. */
  sluice_run_close_finish (SLUICE_RUN (object), result, NULL);
}

/* The graceful close of a service run: admission closes, queued and
 * running jobs finish. */
static void
close_service (SluiceScenarioRunner *self)
{
  if (self->closing || self->run == NULL)
    return;

  self->closing = TRUE;
  sluice_run_close_async (self->run, NULL, on_service_closed, g_object_ref (self));
}

static void
on_close_timer (gpointer user_data)
{
  SluiceScenarioRunner *self = user_data;

  self->close_timer = 0;
  close_service (self);
}

static gboolean
on_stop_after_idle (gpointer user_data)
{
  SluiceScenarioRunner *self = user_data;

  self->stop_idle = 0;
  close_service (self);
  return G_SOURCE_REMOVE;
}

/* A job ended (any state): `stop-after=K` closes after the K-th, from an
 * idle in the same instant, because the engine is still ending the job. */
static void
job_ended (SluiceScenarioRunner *self,
           gint64                index)
{
  gint64 stop_after = sluice_scenario_get_stop_after (self->scenario);

  if (g_hash_table_contains (self->ended, &index))
    return;

  g_hash_table_add (self->ended, g_memdup2 (&index, sizeof index));
  if (stop_after > 0 && g_hash_table_size (self->ended) == (guint) stop_after && self->stop_idle == 0)
    self->stop_idle = g_idle_add_full (G_PRIORITY_DEFAULT, on_stop_after_idle, self, NULL);
}

static void
on_give_up_timer (gpointer user_data)
{
  IndexTimer *timer = user_data;
  SluiceScenarioRunner *self = timer->self;
  gint64 index = timer->index;

  g_hash_table_remove (self->give_up_timers, &index);

  if (!sluice_scenario_runner_give_up (self, index))
    g_hash_table_add (self->give_up_due, g_memdup2 (&index, sizeof index));
}

/* The behaviour of source item @index as the scenario gave it, also after
 * a hand submission shifted the job indices past it. */
static SluiceBehaviour *
copy_source_behaviour (SluiceScenarioRunner *self,
                       gint64                index)
{
  const SluiceBehaviour *behaviour = g_hash_table_lookup (self->originals, &index);

  if (behaviour == NULL)
    behaviour = sluice_fault_handler_get_behaviour (self->handler, index);
  return sluice_behaviour_copy (behaviour);
}

static void
set_job_behaviour (SluiceScenarioRunner  *self,
                   gint64                 index,
                   const SluiceBehaviour *behaviour)
{
  if (!g_hash_table_contains (self->originals, &index))
    g_hash_table_insert (self->originals, g_memdup2 (&index, sizeof index),
                         sluice_behaviour_copy (sluice_fault_handler_get_behaviour (self->handler, index)));
  sluice_fault_handler_set_item_behaviour (self->handler, index, behaviour);
}

/* A job was admitted (its pull event, before any worker can take it):
 * it gets its behaviour and its give-up timer, counted from now. */
static void
job_admitted (SluiceScenarioRunner *self,
              const SluiceEvent    *event)
{
  const SluiceBehaviour *hand = g_hash_table_lookup (self->hand_items, event->value);
  const gint64 *source_index = g_hash_table_lookup (self->source_items, event->value);
  double give_up;

  if (hand != NULL)
    set_job_behaviour (self, event->item, hand);
  else if (source_index != NULL && *source_index != event->item)
    {
      g_autoptr(SluiceBehaviour) behaviour = copy_source_behaviour (self, *source_index);

      set_job_behaviour (self, event->item, behaviour);
    }

  give_up = sluice_scenario_get_give_up (self->scenario, event->item);
  if (give_up >= 0)
    {
      guint64 timer = sluice_clock_add_timer (self->clock,
                                              event->time + (gint64) llround (give_up * G_USEC_PER_SEC),
                                              on_give_up_timer, index_timer_new (self, event->item), g_free);

      g_hash_table_insert (self->give_up_timers, g_memdup2 (&event->item, sizeof event->item),
                           g_memdup2 (&timer, sizeof timer));
    }
}

/* What the runner follows in a service run's events. */
static void
on_service_event (SluiceScenarioRunner *self,
                  const SluiceEvent    *event)
{
  if (event->item < 0)
    return;

  switch (event->kind)
    {
    case SLUICE_EVENT_PULL:
      job_admitted (self, event);
      break;
    case SLUICE_EVENT_ITEM_OK:
      /* The successful jobs' results, in the order the jobs ended. */
      if (event->value != NULL)
        sluice_report_add_result (self->report, event->value);
      job_ended (self, event->item);
      break;
    case SLUICE_EVENT_ITEM_FAILED:
    case SLUICE_EVENT_ITEM_CANCELLED:
    case SLUICE_EVENT_ITEM_DROPPED:
      job_ended (self, event->item);
      break;
    default:
      break;
    }
}

typedef struct {
  SluiceScenarioRunner *self;       /* a reference */
  GVariant             *item;       /* a reference */
  gboolean              submitter;  /* the submitter's, or one by hand */
} Submission;

static void
submission_free (Submission *submission)
{
  g_object_unref (submission->self);
  g_variant_unref (submission->item);
  g_free (submission);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Submission, submission_free)

static void submitter_pull (SluiceScenarioRunner *self);

/* The submitter is done: the source ended (the default close comes now,
 * unless close-after-seconds closes), or it was cancelled. */
static void
submitter_end (SluiceScenarioRunner *self,
               gboolean              source_ended)
{
  self->submitter_done = TRUE;
  self->submitter_ended_at = sluice_clock_now (self->clock);

  if (source_ended && sluice_scenario_get_close_after_seconds (self->scenario) < 0)
    close_service (self);

  maybe_finish_service (self);
}

static void
keep_job (SluiceScenarioRunner *self,
          SluiceJob            *job)
{
  gint64 index = sluice_job_get_index (job);

  if ((gint64) self->jobs->len <= index)
    g_ptr_array_set_size (self->jobs, (guint) index + 1);
  g_ptr_array_index (self->jobs, index) = job;

  if (sluice_job_is_finished (job))
    job_ended (self, index);
  if (g_hash_table_remove (self->give_up_due, &index))
    sluice_job_cancel (job);
}

static void
on_submitted (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Submission) submission = user_data;
  SluiceScenarioRunner *self = submission->self;
  g_autoptr(GError) error = NULL;
  SluiceJob *job;

  job = sluice_run_submit_finish (SLUICE_RUN (object), result, &error);
  g_hash_table_remove (self->hand_items, submission->item);
  g_hash_table_remove (self->source_items, submission->item);
  self->pending_submits--;

  if (job != NULL)
    keep_job (self, job);
  else if (g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED))
    self->submit_refused++;

  if (!submission->submitter)
    maybe_finish_service (self);
  else if (job == NULL && !g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED))
    submitter_end (self, FALSE);  /* withdrawn: the caller cancelled */
  else
    submitter_pull (self);
}

static void
submit (SluiceScenarioRunner *self,
        GVariant             *item,
        gboolean              submitter)
{
  Submission *submission = g_new (Submission, 1);

  submission->self = g_object_ref (self);
  submission->item = g_variant_ref_sink (item);
  submission->submitter = submitter;
  self->pending_submits++;
  /* The run takes its own reference. */
  sluice_run_submit_async (self->run, submission->item, self->cancellable,
                           on_submitted, submission);
}

static void
on_source_next (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) item = NULL;
  gint64 index;

  item = sluice_source_next_finish (SLUICE_SOURCE (object), result, &error);
  if (item == NULL)
    {
      submitter_end (self, error == NULL);
      return;
    }

  index = self->n_source_items++;
  g_hash_table_insert (self->source_items, g_variant_ref (item), g_memdup2 (&index, sizeof index));
  submit (self, item, TRUE);
}

/* The submitter takes the source's next item (the source's interval
 * spaces them) once the previous submission completed. */
static void
submitter_pull (SluiceScenarioRunner *self)
{
  if (g_cancellable_is_cancelled (self->cancellable))
    {
      submitter_end (self, FALSE);
      return;
    }

  sluice_source_next_async (SLUICE_SOURCE (self->source), self->cancellable, on_source_next,
                            g_object_ref (self));
}

static void
start_service (SluiceScenarioRunner *self)
{
  double close_after = sluice_scenario_get_close_after_seconds (self->scenario);

  if (close_after >= 0)
    self->close_timer = sluice_clock_add_timeout (self->clock, (gint64) llround (close_after * G_USEC_PER_SEC),
                                                  on_close_timer, self, NULL);

  /* Its next completes when the run has ended; its cancellable is the
   * caller's cancel. */
  sluice_run_next_async (self->run, self->cancellable, on_service_end, g_object_ref (self));
  submitter_pull (self);
}

/* ---- starting ---------------------------------------------------------- */

static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  SluiceScenarioRunner *self = user_data;

  sluice_report_add_event (self->report, event);
  if (self->submit_mode)
    on_service_event (self, event);
  if (self->recorder != NULL)
    sluice_recorder_add (self->recorder, event);
  if (self->event_func != NULL)
    self->event_func (event, self->event_data);
}

static gboolean
build (SluiceScenarioRunner  *self,
       GError               **error)
{
  SluiceScenario *scenario = self->scenario;
  SluiceMetricsMode metrics = sluice_scenario_get_metrics (scenario);

  if (self->clock == NULL)
    self->clock = sluice_scenario_create_clock (scenario);
  self->handler = sluice_scenario_create_handler (scenario, self->clock);
  self->source = sluice_scenario_create_source (scenario, self->clock);
  self->pool = sluice_scenario_create_pool (scenario, SLUICE_HANDLER (self->handler), self->clock, error);
  if (self->pool == NULL)
    return FALSE;

  self->report = sluice_report_new (sluice_scenario_get_queue_size (scenario),
                                    sluice_scenario_get_workers (scenario),
                                    metrics == SLUICE_METRICS_BROKEN);
  self->submit_mode = sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT;
  if (self->submit_mode)
    sluice_report_set_submit_mode (self->report);

  if (metrics != SLUICE_METRICS_OFF)
    sluice_pool_set_metrics_func (self->pool, sluice_report_metrics_func,
                                  g_object_ref (self->report), g_object_unref);

  /* The pool keeps the function until it is finalized: a weak pointer
   * would do, but the runner outlives the pool anyway. */
  sluice_pool_set_event_func (self->pool, on_event, self, NULL);

  return TRUE;
}

/* May run in any thread: the run's own cancellable takes it from there. */
static void
on_caller_cancelled (GCancellable *cancellable,
                     gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

/**
 * sluice_scenario_runner_run_async:
 * @self: a #SluiceScenarioRunner that has not started
 * @cancellable: (nullable): cancels the run as sluice_scenario_runner_cancel()
 *   does: the run still ends with a report, its outcome `CancelledError`
 * @callback: called when the run ended
 * @user_data: data for @callback
 *
 * Builds the pool and runs the scenario on the thread-default main context.
 */
void
sluice_scenario_runner_run_async (SluiceScenarioRunner *self,
                                  GCancellable         *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  double cancel_after;

  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  /* Not the task's cancellable: a cancelled run still gives its report. */
  task = g_task_new (self, NULL, callback, user_data);
  if (cancellable != NULL)
    {
      self->caller_cancellable = g_object_ref (cancellable);
      self->caller_cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_caller_cancelled),
                                                      g_object_ref (self->cancellable),
                                                      g_object_unref);
    }
  g_task_set_source_tag (task, sluice_scenario_runner_run_async);

  if (!build (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (sluice_scenario_get_stop_after (self->scenario) == 0)
    sluice_pool_request_stop (self->pool);

  if (self->submit_mode)
    self->run = sluice_pool_open (self->pool, &error);
  else
    self->run = sluice_pool_run (self->pool, SLUICE_SOURCE (self->source), &error);
  if (self->run == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  self->task = g_steal_pointer (&task);
  self->stalled_id = g_signal_connect (self->clock, "stalled", G_CALLBACK (on_stalled), self);
  schedule_snapshots (self);

  cancel_after = sluice_scenario_get_cancel_after (self->scenario);
  if (cancel_after >= 0)
    self->cancel_timer = sluice_clock_add_timeout (self->clock,
                                                   (gint64) llround (cancel_after * G_USEC_PER_SEC),
                                                   on_cancel_timer, self, NULL);

  if (self->submit_mode)
    start_service (self);
  else
    next (self);
}

/**
 * sluice_scenario_runner_run_finish:
 * @self: a #SluiceScenarioRunner
 * @result: the result given to the callback
 * @error: return location for an error: the pool refused the scenario, or
 *   %SLUICE_ERROR_DEADLOCK
 *
 * Returns: (transfer full) (nullable): the finished report, whatever the
 *   run's outcome
 */
SluiceReport *
sluice_scenario_runner_run_finish (SluiceScenarioRunner  *self,
                                   GAsyncResult          *result,
                                   GError               **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/**
 * sluice_scenario_runner_run:
 * @self: a #SluiceScenarioRunner that has not started
 * @error: return location for an error
 *
 * Runs the scenario to its end, iterating the thread-default main context.
 *
 * Returns: (transfer full) (nullable): the finished report
 */
SluiceReport *
sluice_scenario_runner_run (SluiceScenarioRunner  *self,
                            GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  GMainContext *context = g_main_context_ref_thread_default ();

  sluice_scenario_runner_run_async (self, NULL, on_run_done, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_unref (context);

  return sluice_scenario_runner_run_finish (self, result, error);
}

/**
 * sluice_scenario_runner_request_stop:
 * @self: a #SluiceScenarioRunner
 *
 * Requests a stop: the pool pulls nothing more and drains what it has.
 */
void
sluice_scenario_runner_request_stop (SluiceScenarioRunner *self)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));

  if (self->pool != NULL)
    sluice_pool_request_stop (self->pool);
}

/**
 * sluice_scenario_runner_cancel:
 * @self: a #SluiceScenarioRunner
 *
 * Cancels the run as its caller: every operation is stopped and awaited,
 * then the run ends with the outcome `CancelledError`.
 */
void
sluice_scenario_runner_cancel (SluiceScenarioRunner *self)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));

  g_cancellable_cancel (self->cancellable);
}

/**
 * sluice_scenario_runner_submit:
 * @self: a #SluiceScenarioRunner running a submit-mode scenario
 * @item: the job's item (a floating reference is sunk)
 * @behaviour: (nullable): what the handler does for this job, or %NULL for
 *   the scenario's default behaviour
 * @error: return location for an error
 *
 * Submits one more job by hand, besides the submitter's: it waits for room
 * in the queue like any submission, and its job gets the next index
 * when it is admitted (the source's later items keep their own `item.N`
 * behaviours). The run's end waits for it. A submission refused later (it
 * waited for room when the close came) counts in `submit_refused`.
 *
 * Returns: %TRUE if the submission was made; %FALSE with @error set
 *   (%SLUICE_ERROR_CLOSED, `pool is closed`) if @self is not running a
 *   service run, or the run is closing or has ended
 */
gboolean
sluice_scenario_runner_submit (SluiceScenarioRunner   *self,
                               GVariant               *item,
                               const SluiceBehaviour  *behaviour,
                               GError                **error)
{
  g_autoptr(GVariant) owned = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  owned = g_variant_ref_sink (item);

  if (!self->submit_mode || self->run == NULL || self->task == NULL)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                           /* Translators: the app's Submit when no service run is running. */
                           _("no service run is running: submitting needs a scenario with "
                             "[run] mode=submit that has started and not ended"));
      return FALSE;
    }

  if (self->closing || sluice_run_is_finished (self->run) || sluice_pool_get_stop_requested (self->pool) ||
      g_cancellable_is_cancelled (self->cancellable))
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED, "pool is closed");
      return FALSE;
    }

  g_hash_table_insert (self->hand_items, g_variant_ref (owned),
                       sluice_behaviour_copy (behaviour != NULL ? behaviour
                                              : sluice_scenario_get_default_behaviour (self->scenario)));
  submit (self, owned, FALSE);
  return TRUE;
}

/**
 * sluice_scenario_runner_give_up:
 * @self: a #SluiceScenarioRunner
 * @job_index: a job index, in submission order from 0
 *
 * Gives up on that job, as its caller: sluice_job_cancel(). A queued job
 * ends cancelled at once and never runs; a running one is stopped and ends
 * cancelled; a finished one is left as it is.
 *
 * Returns: whether there is such a job (always %FALSE in stream mode)
 */
gboolean
sluice_scenario_runner_give_up (SluiceScenarioRunner *self,
                                gint64                job_index)
{
  SluiceJob *job;

  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), FALSE);

  job = sluice_scenario_runner_get_job (self, job_index);
  if (job == NULL)
    return FALSE;

  sluice_job_cancel (job);
  return TRUE;
}

/**
 * sluice_scenario_runner_close:
 * @self: a #SluiceScenarioRunner
 *
 * Closes the run now. In submit mode this is the graceful close (the
 * seed's `async with` exit): admission closes, the submitter's further
 * submissions are refused, queued and running jobs finish; it starts the
 * shutdown clock. In stream mode it is what `[run] close-after` does, the
 * seed's aclose(): the run is cancelled and ends `closed` (for a graceful
 * stop of a stream, use sluice_scenario_runner_request_stop()). Before the
 * run started, or after it ended, it does nothing.
 */
void
sluice_scenario_runner_close (SluiceScenarioRunner *self)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));

  if (self->run == NULL || self->task == NULL || self->closing)
    return;

  if (self->submit_mode)
    {
      close_service (self);
      return;
    }

  self->closing = TRUE;
  sluice_run_close_async (self->run, self->cancellable, on_closed, g_object_ref (self));
}

/**
 * sluice_scenario_runner_get_job:
 * @self: a #SluiceScenarioRunner
 * @job_index: a job index, in submission order from 0
 *
 * Returns: (transfer none) (nullable): that job of a submit-mode run, once
 *   its submission has returned; %NULL if there is none (always in stream
 *   mode)
 */
SluiceJob *
sluice_scenario_runner_get_job (SluiceScenarioRunner *self,
                                gint64                job_index)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);

  if (job_index < 0 || job_index >= (gint64) self->jobs->len)
    return NULL;
  return g_ptr_array_index (self->jobs, job_index);
}
