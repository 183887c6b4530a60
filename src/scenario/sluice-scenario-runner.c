/* sluice-scenario-runner.c: runs a scenario the way its [run] group says
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-runner-private.h"

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
 * In submit mode (`[run] mode=submit`, docs/submit-and-shutdown.md) the runner
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
 *
 * This file drives a stream and holds what both modes share; the service
 * submitter is sluice-scenario-runner-submit.c.
 */

G_DEFINE_FINAL_TYPE (SluiceScenarioRunner, sluice_scenario_runner, G_TYPE_OBJECT)

static void next (SluiceScenarioRunner *self);

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
  if (self->caller_timer != 0)
    sluice_clock_remove_timer (self->clock, self->caller_timer);
  self->caller_timer = 0;

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

  _sluice_scenario_runner_remove_give_up_timers (self);

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
  _sluice_scenario_runner_clear_service (self);
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
  _sluice_scenario_runner_init_service (self);
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
 * sluice_scenario_runner_set_keep_details:
 * @self: a #SluiceScenarioRunner that has not started
 * @keep: whether the report keeps every result and attempt count
 *
 * The report keeps them by default; a run whose report is only summarised
 * can do without them (sluice_report_set_keep_details()).
 */
void
sluice_scenario_runner_set_keep_details (SluiceScenarioRunner *self,
                                         gboolean              keep)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_RUNNER (self));
  g_return_if_fail (!self->started);

  self->summary_only = !keep;
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
 * sluice_scenario_runner_get_handler:
 * @self: a #SluiceScenarioRunner
 *
 * The scenario's handler, which decides each item's behaviour (its own,
 * one drawn from the mix, a submitted job's, or the default).
 *
 * Returns: (transfer none) (nullable): the handler, once the run started
 */
SluiceFaultHandler *
sluice_scenario_runner_get_handler (SluiceScenarioRunner *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);
  return self->handler;
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

SluiceIndexTimer *
_sluice_scenario_runner_index_timer_new (SluiceScenarioRunner *self,
                                        gint64                index)
{
  SluiceIndexTimer *timer = g_new (SluiceIndexTimer, 1);

  timer->self = self;
  timer->index = index;
  return timer;
}

static void
on_snapshot_timer (gpointer user_data)
{
  SluiceIndexTimer *timer = user_data;
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
      SluiceIndexTimer *timer = _sluice_scenario_runner_index_timer_new (self, i);

      g_array_index (self->snapshot_timers, guint64, i) =
        sluice_clock_add_timer (self->clock, start + sluice_time_from_seconds (times[i]),
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

void
_sluice_scenario_runner_finish (SluiceScenarioRunner *self,
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
    _sluice_scenario_runner_finish (self, error, FALSE);
  else
    _sluice_scenario_runner_finish (self, NULL, TRUE);
}

/* Takes one result; gives whether to read on. */
static gboolean
take_result (SluiceScenarioRunner *self,
             GVariant             *result)
{
  gint64 stop_after = sluice_scenario_get_stop_after (self->scenario);
  gint64 close_after = sluice_scenario_get_close_after (self->scenario);

  sluice_report_add_result (self->report, result);
  self->n_results++;

  /* sluice_scenario_runner_close() came meanwhile: its callback ends. */
  if (self->closing)
    return FALSE;

  if (stop_after > 0 && self->n_results == stop_after)
    sluice_pool_request_stop (self->pool);

  if (close_after > 0 && self->n_results == close_after)
    {
      self->closing = TRUE;
      sluice_run_close_async (self->run, self->cancellable, on_closed, g_object_ref (self));
      return FALSE;
    }

  return TRUE;
}

static void
on_caller_ready (gpointer user_data)
{
  SluiceScenarioRunner *self = user_data;

  self->caller_timer = 0;
  next (self);
}

/* A slow caller (`[run] caller-delay`) spends its time with each result
 * before it reads the next; meanwhile the pool's results wait for it. */
static void
read_on (SluiceScenarioRunner *self)
{
  double delay = sluice_scenario_get_caller_delay (self->scenario);

  if (delay <= 0)
    {
      next (self);
      return;
    }

  self->caller_timer = sluice_clock_add_timeout (self->clock, sluice_time_from_seconds (delay),
                                                 on_caller_ready, g_object_ref (self), g_object_unref);
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
    {
      if (take_result (self, value))
        read_on (self);
    }
  else if (!self->closing)
    _sluice_scenario_runner_finish (self, error, FALSE);
}

static void
on_next_batch (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;

  batch = sluice_run_next_batch_finish (SLUICE_RUN (object), result, &error);

  if (batch == NULL)
    {
      if (!self->closing)
        _sluice_scenario_runner_finish (self, error, FALSE);
      return;
    }

  for (guint i = 0; i < batch->len; i++)
    if (!take_result (self, batch->pdata[i]))
      return;
  next (self);
}

/* A scenario that reacts to its K-th result (stop-after, close-after)
 * reads one at a time, so that the reaction lands the moment that result
 * finishes, as in the seed, and so does a slow caller; any other reads in
 * batches, one GTask per batch. Both give the same report. */
static void
next (SluiceScenarioRunner *self)
{
  if (sluice_scenario_get_stop_after (self->scenario) > 0 ||
      sluice_scenario_get_close_after (self->scenario) > 0 ||
      sluice_scenario_get_caller_delay (self->scenario) > 0)
    sluice_run_next_async (self->run, self->cancellable, on_next, g_object_ref (self));
  else
    sluice_run_next_batch_async (self->run, 0, self->cancellable, on_next_batch, g_object_ref (self));
}

/* ---- starting ---------------------------------------------------------- */

static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  SluiceScenarioRunner *self = user_data;

  sluice_report_add_event (self->report, event);
  if (self->submit_mode)
    _sluice_scenario_runner_on_service_event (self, event);
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
  /* A lesson checks its reveal against the whole report. */
  sluice_report_set_keep_details (self->report,
                                  !self->summary_only || sluice_scenario_get_lesson (scenario) != NULL);
  sluice_report_set_lesson (self->report, sluice_scenario_get_lesson (scenario));
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
                                                   sluice_time_from_seconds (cancel_after),
                                                   on_cancel_timer, self, NULL);

  if (self->submit_mode)
    _sluice_scenario_runner_start_service (self);
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
      _sluice_scenario_runner_close_service (self);
      return;
    }

  self->closing = TRUE;
  sluice_run_close_async (self->run, self->cancellable, on_closed, g_object_ref (self));
}