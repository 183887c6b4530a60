/* sluice-worker.c: the workers of a run, which take items from the input
 * channel, run attempts, retry them and settle each item's outcome
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-attempt-private.h"
#include "sluice-channel-private.h"
#include "sluice-error.h"
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

  event.item = sluice_attempt_get_item_index (attempt);
  event.attempt = sluice_attempt_get_number (attempt);
  event.worker = (gint) sluice_attempt_get_worker (attempt);
  event.round = sluice_attempt_get_cancel_rounds (attempt);
  event.retried = retried;

  if (kind == SLUICE_EVENT_ATTEMPT_END)
    {
      event.outcome = _sluice_attempt_get_outcome (attempt);
      error = _sluice_attempt_get_error (attempt);
      if (error != NULL)
        {
          event.error_type = sluice_error_type_name (error);
          event.error_message = error->message;
        }
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
/* Workers {{{ */

static void
worker_exit (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;

  worker->state = WORKER_DONE;
  self->workers_alive--;
  _sluice_run_maybe_finish (self);
}

static void
worker_done_with_item (SluiceWorker *worker)
{
  g_clear_pointer (&worker->item, _sluice_pulled_item_free);
  _sluice_worker_next (worker);
}

static void on_attempt_notify (SluiceAttempt   *attempt,
                               SluiceEventKind  kind,
                               gpointer         user_data);

static void
worker_attempt (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;

  worker->state = WORKER_RUNNING;
  worker->attempt_number++;
  worker->attempt = _sluice_attempt_new (worker->item->value, worker->item->index,
                                         worker->attempt_number, worker->index);
  self->stats.attempts++;
  self->stats.in_flight++;
  self->live_operations++;
  emit_attempt (self, SLUICE_EVENT_ATTEMPT_START, worker->attempt, FALSE);

  _sluice_attempt_start (worker->attempt, sluice_pool_get_handler (self->pool),
                         self->clock, self->timeout, on_attempt_notify, worker);
}

static void
item_succeeded (SluiceWorker *worker,
                GVariant     *result)
{
  SluiceRun *self = worker->run;

  self->stats.succeeded++;
  if (_sluice_pool_has_metrics_func (self->pool))
    {
      g_autofree char *repr = g_variant_print (worker->item->value, FALSE);

      _sluice_pool_emit_metrics (self->pool, "ok", repr);
    }
  _sluice_run_emit_item (self, SLUICE_EVENT_ITEM_OK, worker->item, (gint) worker->index, result);
  _sluice_run_deliver_result (self, result);
}

static void
item_failed (SluiceWorker *worker,
             GError       *error)
{
  SluiceRun *self = worker->run;

  self->stats.failed++;
  emit_metrics_for_error (self, "failure", error);
  _sluice_run_emit_error (self, SLUICE_EVENT_ITEM_FAILED, worker->item->index, error);
  _sluice_run_record_error (self, error);

  if (!sluice_pool_get_keep_going (self->pool))
    sluice_pool_request_stop (self->pool);
}

static gboolean
should_retry (SluiceWorker *worker,
              const GError *error)
{
  SluiceRun *self = worker->run;

  return !self->cancelled &&
         worker->attempt_number <= (guint) sluice_pool_get_max_retries (self->pool) &&
         sluice_pool_is_retryable (self->pool, error);
}

static void
on_attempt_end (SluiceWorker *worker)
{
  SluiceRun *self = worker->run;
  g_autoptr(SluiceAttempt) attempt = g_steal_pointer (&worker->attempt);
  SluiceOutcome outcome = _sluice_attempt_get_outcome (attempt);
  GError *error;
  gboolean retry;

  self->live_operations--;
  self->stats.in_flight--;
  if (outcome == SLUICE_OUTCOME_TIMED_OUT)
    self->stats.timeouts++;

  if (outcome == SLUICE_OUTCOME_OK)
    {
      emit_attempt (self, SLUICE_EVENT_ATTEMPT_END, attempt, FALSE);
      item_succeeded (worker, _sluice_attempt_steal_result (attempt));
    }
  else if (outcome == SLUICE_OUTCOME_CANCELLED)
    {
      emit_attempt (self, SLUICE_EVENT_ATTEMPT_END, attempt, FALSE);
      self->stats.cancelled++;
      _sluice_run_emit_item (self, SLUICE_EVENT_ITEM_CANCELLED, worker->item, (gint) worker->index, NULL);
    }
  else
    {
      retry = should_retry (worker, _sluice_attempt_get_error (attempt));
      emit_attempt (self, SLUICE_EVENT_ATTEMPT_END, attempt, retry);
      error = _sluice_attempt_steal_error (attempt);

      if (retry)
        {
          self->stats.retries++;
          emit_metrics_for_error (self, "retry", error);
          _sluice_run_emit_error (self, SLUICE_EVENT_RETRY, worker->item->index, error);
          g_error_free (error);

          /* The metrics or event callback may have closed or cancelled the
           * run, after should_retry() said yes: cancellation is never
           * retried, so the item ends here, cancelled between attempts. */
          if (!self->cancelled)
            {
              worker_attempt (worker);
              return;
            }

          self->stats.cancelled++;
          _sluice_run_emit_item (self, SLUICE_EVENT_ITEM_CANCELLED, worker->item, (gint) worker->index, NULL);
        }
      else
        item_failed (worker, error);
    }

  worker_done_with_item (worker);
}

static void
on_attempt_notify (SluiceAttempt   *attempt,
                   SluiceEventKind  kind,
                   gpointer         user_data)
{
  SluiceWorker *worker = user_data;

  if (kind == SLUICE_EVENT_ATTEMPT_END)
    on_attempt_end (worker);
  else
    emit_attempt (worker->run, kind, attempt, FALSE);
}

/* Starts the first attempt at @item. Gives %FALSE, with @item dropped,
 * if the run was cancelled: then the worker must exit. */
static gboolean
worker_take_item (SluiceWorker     *worker,
                  SluicePulledItem *item)
{
  SluiceRun *self = worker->run;

  if (!self->cancelled)
    _sluice_run_emit_item (self, SLUICE_EVENT_QUEUE_GET, item, (gint) worker->index, NULL);

  /* The event's callback may have cancelled the run: an attempt started
   * now would be cancelled by no one. */
  if (self->cancelled)
    {
      _sluice_pulled_item_drop (item);
      return FALSE;
    }

  worker->item = item;
  worker->attempt_number = 0;
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

      if (self->cancelled)
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
