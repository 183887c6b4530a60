/* sluice-run-worker.c: the workers of a run, which take items from the input
 * channel, run attempts, retry them and settle each item's outcome
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-attempt-private.h"
#include "sluice-channel-private.h"
#include "sluice-error.h"
#include "sluice-job-private.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"

/* Events and metrics {{{ */

static void
emit_attempt (SluiceRun       *self,
              SluiceEventKind  kind,
              SluiceAttempt   *attempt,
              gboolean         retried)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (kind);
  const GError *error;

  if (!_sluice_run_wants_events (self))
    return;

  _sluice_attempt_describe (attempt, &event);
  event.retried = retried;
  if (kind == SLUICE_EVENT_ATTEMPT_START)
    event.deadline = sluice_attempt_get_deadline (attempt);

  if (kind == SLUICE_EVENT_ATTEMPT_END)
    {
      event.outcome = _sluice_attempt_get_outcome (attempt);
      error = _sluice_attempt_get_error (attempt);
      if (error != NULL)
        {
          event.error_type = sluice_error_type_name (error);
          event.error_message = error->message;
        }
      event.value = _sluice_attempt_get_late_result (attempt);
    }

  _sluice_run_emit (self, &event);
}

static void
emit_metrics_for_error (SluiceRun    *self,
                        const char   *event,
                        const GError *error)
{
  g_autofree char *repr = NULL;

  /* The repr costs more than the rest of an item's bookkeeping. */
  if (!_sluice_pool_has_metrics_func (self->pool))
    return;

  repr = sluice_error_repr (error);
  _sluice_pool_emit_metrics (self->pool, event, repr);
}

/* }}} */
/* Attempts kept for reuse {{{ */

/* Puts a finished attempt in the run's ring, the oldest going when it is
 * full: someone else still holds it (its last holder frees it), or it has
 * data attached. */
static void
keep_in_ring (SluiceRun     *self,
              SluiceAttempt *attempt)
{
  guint slot;

  if (self->n_spare_attempts == SLUICE_RUN_SPARE_ATTEMPTS)
    {
      g_object_unref (self->spare_attempts[self->spare_first]);
      self->spare_attempts[self->spare_first] = NULL;
      self->spare_first = (self->spare_first + 1) % SLUICE_RUN_SPARE_ATTEMPTS;
      self->n_spare_attempts--;
    }
  slot = (self->spare_first + self->n_spare_attempts) % SLUICE_RUN_SPARE_ATTEMPTS;
  self->spare_attempts[slot] = attempt;
  self->n_spare_attempts++;
}

/* A new attempt for @worker, made from a finished one when that can be
 * reused: the worker's own last one, else the oldest of the run's ring.
 * An attempt then costs no object of its own. The worker's last one, not
 * free yet (its handler's task still holds it while the next attempt
 * starts from inside its callback), goes to the ring. */
static SluiceAttempt *
take_attempt (SluiceRun        *self,
              SluiceWorker     *worker,
              SluicePulledItem *item,
              guint             number)
{
  SluiceAttempt *spare = g_steal_pointer (&worker->spare);
  SluiceAttempt *attempt = NULL;

  if (spare != NULL && _sluice_attempt_recycle (spare, item->value, item->index, number, worker->index))
    return spare;

  if (self->n_spare_attempts > 0)
    {
      SluiceAttempt *oldest = self->spare_attempts[self->spare_first];

      if (_sluice_attempt_recycle (oldest, item->value, item->index, number, worker->index))
        {
          self->spare_attempts[self->spare_first] = NULL;
          self->spare_first = (self->spare_first + 1) % SLUICE_RUN_SPARE_ATTEMPTS;
          self->n_spare_attempts--;
          attempt = oldest;
        }
    }
  if (spare != NULL)
    keep_in_ring (self, spare);
  if (attempt == NULL)
    attempt = _sluice_attempt_new (item->value, item->index, number, worker->index);
  return attempt;
}

/* Keeps @worker's finished attempt for its next one (the one it kept
 * before goes to the run's ring), or lets it go once the run has ended. */
static void
retire_attempt (SluiceRun     *self,
                SluiceWorker  *worker,
                SluiceAttempt *attempt)
{
  if (self->state == RUN_FINISHED)
    {
      g_object_unref (attempt);
      return;
    }
  if (worker->spare != NULL)
    keep_in_ring (self, g_steal_pointer (&worker->spare));
  /* A worker that has exited takes no more items. */
  if (worker->state == WORKER_DONE)
    keep_in_ring (self, attempt);
  else
    worker->spare = attempt;
}

void
_sluice_run_free_spare_attempts (SluiceRun *self)
{
  for (guint i = 0; i < self->n_workers; i++)
    {
      /* Unlinked first: the last unref may run a handler's code. */
      SluiceAttempt *attempt = g_steal_pointer (&self->workers[i].spare);

      g_clear_object (&attempt);
    }
  while (self->n_spare_attempts > 0)
    {
      /* Unlinked first: the last unref may run a handler's code. */
      SluiceAttempt *attempt = g_steal_pointer (&self->spare_attempts[self->spare_first]);

      self->spare_first = (self->spare_first + 1) % SLUICE_RUN_SPARE_ATTEMPTS;
      self->n_spare_attempts--;
      g_object_unref (attempt);
    }
}

/* }}} */
/* Workers {{{ */

static void
worker_exit (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;

  worker->state = WORKER_DONE;
  /* Its last attempt goes where the other workers can have it, and is let
   * go with the ring's oldest: held by each worker, the attempts of a run
   * with many workers would outlast their work. */
  if (worker->spare != NULL)
    keep_in_ring (self, g_steal_pointer (&worker->spare));
  self->workers_alive--;
  _sluice_run_maybe_finish (self);
}

static void
worker_done_with_item (SluiceWorker *worker)
{
  g_clear_pointer (&worker->item, _sluice_pulled_item_free);
  _sluice_worker_next (worker);
}

static void on_attempt_notify (SluiceAttempt       *attempt,
                               SluiceAttemptChange  change,
                               gpointer             user_data);

/* A step (continuing the caller's, if any) up to the handler's call: the
 * attempt's start time is its attempt-start event's. */
static void
worker_attempt (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;

  _sluice_run_step_begin (self);
  worker->state = WORKER_RUNNING;
  worker->attempt_number++;
  worker->attempt = take_attempt (self, worker, worker->item, worker->attempt_number);
  self->stats.attempts++;
  self->stats.in_flight++;
  self->live_operations++;
  if (worker->item->job != NULL)
    {
      /* Its notifications are the caller's code. */
      _sluice_run_step_end (self);
      _sluice_job_start (worker->item->job);
      _sluice_run_step_begin (self);
    }
  _sluice_attempt_set_deadline (worker->attempt, self->clock, _sluice_run_now (self), self->timeout,
                                worker->item->deadline);
  emit_attempt (self, SLUICE_EVENT_ATTEMPT_START, worker->attempt, FALSE);
  _sluice_run_step_end (self);

  _sluice_attempt_start (worker->attempt, sluice_pool_get_handler (self->pool),
                         on_attempt_notify, worker);
}

/* Ends the attempt's step (see on_attempt_end()): at the latest before
 * the caller's code runs. */
static void
item_succeeded (SluiceWorker *worker,
                GVariant     *result)
{
  SluiceRun *self = worker->run;

  self->stats.succeeded++;
  self->ok_pending++;
  if (_sluice_pool_has_metrics_func (self->pool))
    {
      g_autofree char *repr = g_variant_print (worker->item->value, FALSE);

      _sluice_run_step_end (self);
      _sluice_pool_emit_metrics (self->pool, "ok", repr);
    }
  _sluice_run_emit_item (self, SLUICE_EVENT_ITEM_OK, worker->item, (gint) worker->index, result);

  /* A job's result goes to its job; a stream's to the caller (its result
   * event still in the step, when it joins a batch). */
  if (worker->item->job != NULL)
    {
      _sluice_run_step_end (self);
      _sluice_job_succeed (worker->item->job, result);
    }
  else
    _sluice_run_deliver_result (self, result);
  _sluice_run_step_end (self);
}

/* With the number of the attempt that failed for good: 0 when the item
 * was shed before its first one. */
static void
emit_item_failed (SluiceWorker *worker,
                  const GError *error)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (SLUICE_EVENT_ITEM_FAILED);

  if (!_sluice_run_wants_events (worker->run))
    return;

  event.item = worker->item->index;
  event.attempt = worker->attempt_number;
  event.error_type = sluice_error_type_name (error);
  event.error_message = error->message;
  _sluice_run_emit (worker->run, &event);
}

/* The item fails for good with @error. */
static void
count_failure (SluiceWorker *worker,
               const GError *error)
{
  SluiceRun *self = worker->run;

  self->stats.failed++;
  _sluice_run_count_outcome (self, sluice_error_type_name (error));
  emit_metrics_for_error (self, "failure", error);
  emit_item_failed (worker, error);
}

/* An ordinary failure: a stream records it (and, without keep-going,
 * stops); a job keeps it to itself and the service goes on. */
static void
item_failed (SluiceWorker *worker,
             GError       *error)
{
  SluiceRun *self = worker->run;

  count_failure (worker, error);

  if (worker->item->job != NULL)
    {
      _sluice_job_fail (worker->item->job, error, FALSE);
      return;
    }

  /* A long-lived pool that records its failures elsewhere keeps none. */
  if (sluice_pool_get_keep_errors (self->pool))
    _sluice_run_record_error (self, error);
  else
    g_error_free (error);
  if (!sluice_pool_get_keep_going (self->pool))
    sluice_pool_request_stop (self->pool);
}

/* A fatal error: never retried, no budget token; the item fails with it
 * and the whole pool stops at once. */
static void
item_failed_fatally (SluiceWorker *worker,
                     GError       *error)
{
  SluiceRun *self = worker->run;

  self->stats.fatal++;
  _sluice_run_emit_error (self, SLUICE_EVENT_FATAL, worker->item->index, error);
  count_failure (worker, error);
  _sluice_run_record_error (self, error);
  /* The job's error is the very object the group holds. */
  if (worker->item->job != NULL)
    _sluice_job_fail (worker->item->job, error, TRUE);
  _sluice_run_fatal_stop (self);
}

/* }}} */
/* Retries {{{ */

/* The caller gave up on the worker's job. */
static gboolean
given_up (SluiceWorker *worker)
{
  return worker->item->job != NULL && _sluice_job_is_given_up (worker->item->job);
}

/* Decides what follows an attempt that failed with @error. A retryable
 * error takes its token from the budget first, also when the item has no
 * retries left. @delay_us is the backoff drawn, or -1. */
static SluiceRetryDecision
decide_retry (SluiceWorker *worker,
              const GError *error,
              gint64       *delay_us)
{
  SluiceRun *self = worker->run;
  SluiceRetryPolicy *policy = _sluice_pool_get_retry_policy (self->pool);

  *delay_us = -1;

  if (!sluice_pool_is_retryable (self->pool, error))
    return SLUICE_RETRY_USED_UP;

  _sluice_retry_policy_attempt_failed (policy);

  /* Cancellation (of any kind, a job's give-up too) is never retried. */
  if (self->halted || given_up (worker))
    return SLUICE_RETRY_USED_UP;

  return _sluice_retry_policy_decide (policy, worker->attempt_number,
                                      (guint) sluice_pool_get_max_retries (self->pool),
                                      sluice_clock_now (self->clock),
                                      worker->item->deadline, delay_us);
}

static void
item_cancelled (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;

  self->stats.cancelled++;
  _sluice_run_count_outcome (self, "cancelled");
  _sluice_run_emit_item (self, SLUICE_EVENT_ITEM_CANCELLED, worker->item, (gint) worker->index, NULL);
  if (worker->item->job != NULL)
    _sluice_job_end_cancelled (worker->item->job);
  worker_done_with_item (worker);
}

/* The retry happens now: its metric and event, then the next attempt. */
static void
retry_now (SluiceWorker *worker,
           GError       *error)
{
  SluiceRun *self = worker->run;

  self->stats.retries++;
  emit_metrics_for_error (self, "retry", error);
  _sluice_run_emit_error (self, SLUICE_EVENT_RETRY, worker->item->index, error);
  g_error_free (error);

  /* The metrics or event callback may have closed or cancelled the run,
   * after the decision: cancellation is never retried, so the item ends
   * here, cancelled between attempts. */
  if (self->halted || given_up (worker))
    item_cancelled (worker);
  else
    worker_attempt (worker);
}

static void
on_backoff_elapsed (gpointer user_data)
{
  SluiceWorker *worker = user_data;

  worker->backoff_timer = 0;
  worker->run->live_operations--;
  worker->state = WORKER_RUNNING;
  retry_now (worker, g_steal_pointer (&worker->backoff_error));
}

static void
start_backoff (SluiceWorker *worker,
               GError       *error,
               gint64        delay_us)
{
  SluiceRun *self = worker->run;
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (SLUICE_EVENT_BACKOFF);

  /* A timer even for 0 µs: it fires after what is ready at this instant. */
  worker->state = WORKER_BACKOFF;
  worker->backoff_error = error;
  worker->backoff_timer = sluice_clock_add_timeout (self->clock, delay_us,
                                                    on_backoff_elapsed, worker, NULL);
  self->live_operations++;

  if (_sluice_run_wants_events (self))
    {
      event.item = worker->item->index;
      event.attempt = worker->attempt_number;
      event.worker = (gint) worker->index;
      event.delay = delay_us;
      _sluice_run_emit (self, &event);
    }
}

static void
retry_skipped (SluiceWorker        *worker,
               SluiceRetryDecision  decision,
               gint64               delay_us)
{
  SluiceRun *self = worker->run;
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (SLUICE_EVENT_RETRY_SKIPPED);
  gboolean deadline = decision == SLUICE_RETRY_SKIP_DEADLINE;

  if (deadline)
    self->stats.skipped_deadline++;
  else
    self->stats.skipped_budget++;

  if (_sluice_run_wants_events (self))
    {
      event.item = worker->item->index;
      event.attempt = worker->attempt_number;
      event.worker = (gint) worker->index;
      event.reason = deadline ? "deadline" : "budget";
      event.delay = deadline ? delay_us : -1;
      _sluice_run_emit (self, &event);
    }
}

/* Stops what the worker is doing for a halted run: its attempt is stopped
 * like a late one (or, @once, asked once and then waited for), and a
 * backoff ends at once with no later attempt (the item ends cancelled). */
void
_sluice_worker_cancel (SluiceWorker *worker,
                       gboolean      once)
{
  SluiceRun *self = worker->run;

  if (worker->attempt != NULL && once)
    _sluice_attempt_cancel_once (worker->attempt);
  else if (worker->attempt != NULL)
    _sluice_attempt_cancel (worker->attempt);

  if (worker->backoff_timer != 0)
    {
      sluice_clock_remove_timer (self->clock, worker->backoff_timer);
      worker->backoff_timer = 0;
      self->live_operations--;
      g_clear_error (&worker->backoff_error);
      worker->state = WORKER_RUNNING;
      item_cancelled (worker);
    }
}

/* }}} */
/* Attempts {{{ */

static void
on_attempt_failed (SluiceWorker  *worker,
                   SluiceAttempt *attempt)
{
  SluiceRetryDecision decision;
  gint64 delay_us;
  GError *error;

  if (sluice_pool_is_fatal (worker->run->pool, _sluice_attempt_get_error (attempt)))
    {
      emit_attempt (worker->run, SLUICE_EVENT_ATTEMPT_END, attempt, FALSE);
      item_failed_fatally (worker, _sluice_attempt_steal_error (attempt));
      worker_done_with_item (worker);
      return;
    }

  decision = decide_retry (worker, _sluice_attempt_get_error (attempt), &delay_us);
  emit_attempt (worker->run, SLUICE_EVENT_ATTEMPT_END, attempt, decision == SLUICE_RETRY_GO);
  error = _sluice_attempt_steal_error (attempt);

  switch (decision)
    {
    case SLUICE_RETRY_GO:
      if (delay_us < 0)
        retry_now (worker, error);
      else
        start_backoff (worker, error, delay_us);
      return;

    case SLUICE_RETRY_SKIP_BUDGET:
    case SLUICE_RETRY_SKIP_DEADLINE:
      retry_skipped (worker, decision, delay_us);
      break;

    case SLUICE_RETRY_USED_UP:
    default:
      break;
    }

  /* The item fails for good with the very error of its last attempt. */
  item_failed (worker, error);
  worker_done_with_item (worker);
}

static void on_attempt_outcome (SluiceWorker  *worker,
                                SluiceAttempt *attempt);

static void
on_attempt_end (SluiceWorker *worker)
{
  /* The outcome may end the run and drop the driver's reference. */
  g_autoptr(SluiceRun) self = g_object_ref (worker->run);
  SluiceAttempt *attempt = g_steal_pointer (&worker->attempt);

  on_attempt_outcome (worker, attempt);
  retire_attempt (self, worker, attempt);
}

/* What follows an attempt's end: its item's outcome or its retry. */
static void
on_attempt_outcome (SluiceWorker  *worker,
                    SluiceAttempt *attempt)
{
  SluiceRun *self = worker->run;
  SluiceOutcome outcome = _sluice_attempt_get_outcome (attempt);

  /* A step: the attempt's duration, its end and, when it succeeded, its
   * item's outcome and result are one instant. */
  _sluice_run_step_begin (self);
  self->live_operations--;
  self->stats.in_flight--;
  _sluice_run_add_duration (self, _sluice_run_now (self) - sluice_attempt_get_started_at (attempt));
  if (outcome == SLUICE_OUTCOME_TIMED_OUT)
    self->stats.timeouts++;
  if (_sluice_run_is_overrun (self))
    {
      self->stats.overrun++;
      emit_attempt (self, SLUICE_EVENT_OVERRUN, attempt, FALSE);
    }

  if (outcome == SLUICE_OUTCOME_OK)
    {
      _sluice_retry_policy_attempt_ok (_sluice_pool_get_retry_policy (self->pool));
      emit_attempt (self, SLUICE_EVENT_ATTEMPT_END, attempt, FALSE);
      item_succeeded (worker, _sluice_attempt_steal_result (attempt));
      worker_done_with_item (worker);
      return;
    }

  _sluice_run_step_end (self);
  if (outcome == SLUICE_OUTCOME_CANCELLED)
    {
      g_autoptr(GError) returned = _sluice_attempt_steal_handler_error (attempt);

      emit_attempt (self, SLUICE_EVENT_ATTEMPT_END, attempt, FALSE);
      /* One that fails fatally while it is being stopped adds its error. */
      if (returned != NULL && sluice_pool_is_fatal (self->pool, returned))
        {
          item_failed_fatally (worker, g_steal_pointer (&returned));
          worker_done_with_item (worker);
        }
      else
        item_cancelled (worker);
    }
  else
    on_attempt_failed (worker, attempt);
}

static void
on_attempt_notify (SluiceAttempt       *attempt,
                   SluiceAttemptChange  change,
                   gpointer             user_data)
{
  SluiceWorker *worker = user_data;

  switch (change)
    {
    case SLUICE_ATTEMPT_CANCEL_ROUND:
      emit_attempt (worker->run, SLUICE_EVENT_CANCEL_REQUEST, attempt, FALSE);
      break;
    case SLUICE_ATTEMPT_IGNORING_CANCEL:
      emit_attempt (worker->run, SLUICE_EVENT_IGNORING_CANCEL, attempt, FALSE);
      break;
    case SLUICE_ATTEMPT_ENDED:
    default:
      on_attempt_end (worker);
      break;
    }
}

/* }}} */
/* Taking items {{{ */

/* Load shedding: an item taken past its deadline fails for good without
 * a handler call; the worker goes on to the next item. */
static void
shed_item (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;

  self->stats.shed++;
  _sluice_run_emit_item (self, SLUICE_EVENT_DEADLINE_EXCEEDED, worker->item, (gint) worker->index, NULL);
  item_failed (worker, g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_TIMEOUT, "deadline exceeded"));
  worker_done_with_item (worker);
}

/* Starts the first attempt at @item. Gives %FALSE, with @item dropped,
 * if the run was cancelled: then the worker must exit. */
static gboolean
worker_take_item (SluiceWorker     *worker,
                  SluicePulledItem *item)
{
  SluiceRun *self = worker->run;

  /* A step: the take and the attempt's start (worker_attempt() ends it). */
  _sluice_run_step_begin (self);
  if (!self->halted)
    _sluice_run_emit_item (self, SLUICE_EVENT_QUEUE_GET, item, (gint) worker->index, NULL);

  /* The event's callback may have cancelled the run: an attempt started
   * now would be cancelled by no one. */
  if (self->halted)
    {
      _sluice_run_step_end (self);
      _sluice_pulled_item_drop (item);
      return FALSE;
    }

  worker->item = item;
  worker->attempt_number = 0;

  /* A job its caller gave up on while it was queued costs no worker: it
   * ended already, and is skipped. */
  if (given_up (worker))
    {
      _sluice_run_step_end (self);
      worker_done_with_item (worker);
    }
  else if (item->deadline > 0 && _sluice_run_now (self) >= item->deadline)
    {
      _sluice_run_step_end (self);
      shed_item (worker);
    }
  else
    worker_attempt (worker);

  return TRUE;
}

static void
on_worker_got (gpointer      item,
               const GError *error,
               gpointer      user_data)
{
  SluiceWorker *worker = user_data;

  worker->run->live_operations--;

  /* No item: CLOSED once the input is drained, or CANCELLED by the
   * caller; either way this worker is done. */
  if (item == NULL || !worker_take_item (worker, item))
    worker_exit (worker);
}

void
_sluice_worker_next (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;
  SluicePulledItem *item;
  gboolean busy;

  /* An attempt that ended before _sluice_attempt_start() returned brings
   * the worker back here from inside the loop below: the loop takes the
   * next item, so that handlers which complete at once cannot grow the
   * stack item after item. */
  if (worker->taking)
    {
      worker->take_again = TRUE;
      return;
    }

  worker->taking = TRUE;
  do
    {
      worker->take_again = FALSE;
      busy = FALSE;

      if (self->halted)
        break;

      /* An item already queued needs no main-loop turn. */
      item = sluice_channel_try_get (self->input, NULL);
      if (item == NULL)
        {
          worker->state = WORKER_GETTING;
          self->live_operations++;
          _sluice_channel_get_with_func (self->input, self->driver_cancellable,
                                         on_worker_got, worker);
          busy = TRUE;
          break;
        }

      busy = worker_take_item (worker, item);
    }
  while (busy && worker->take_again);
  worker->taking = FALSE;

  if (!busy)
    worker_exit (worker);
}

/* }}} */
