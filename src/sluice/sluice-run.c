/* sluice-run.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-attempt-private.h"
#include "sluice-channel.h"
#include "sluice-error.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"

/**
 * SECTION:sluice-run
 * @Title: SluiceRun
 *
 * One run of a #SluicePool, read like an async iterator: call
 * sluice_run_next_async() until it gives %NULL. The first call starts the
 * run's driver, which owns everything the run does:
 *
 * - a producer reads the #SluiceSource and puts each item into the input
 *   channel, which holds at most #SluicePool:queue-size items, so the
 *   producer is never more than `queue-size + workers + 1` items ahead;
 * - exactly #SluicePool:workers workers take items from the channel and
 *   call the handler, one #SluiceAttempt per call, retrying the failures the
 *   pool calls retryable;
 * - results go to an unbounded result channel, in the order they finish,
 *   and the caller reads them from there.
 *
 * The run ends when the producer and every worker have finished: then no
 * attempt, timer, source read or channel wait of the run is alive, and
 * sluice_run_get_live_operations() is 0. Errors recorded on the way (items
 * that failed for good, a failing source) end the run with
 * %SLUICE_ERROR_GROUP after the drain; sluice_run_get_errors() holds the
 * original #GErrors.
 *
 * Cancelling the cancellable of a pending sluice_run_next_async(), or
 * sluice_run_close_async(), cancels the driver: queued items are dropped,
 * running attempts are stopped like late ones, and the run still waits for
 * every one of them before it reports %G_IO_ERROR_CANCELLED.
 */

typedef enum {
  RUN_IDLE,
  RUN_ACTIVE,
  RUN_FINISHED,
} RunState;

typedef enum {
  PRODUCER_IDLE,
  PRODUCER_PULLING,
  PRODUCER_PUTTING,
  PRODUCER_DONE,
} ProducerState;

typedef enum {
  WORKER_IDLE,
  WORKER_GETTING,
  WORKER_RUNNING,
  WORKER_DONE,
} WorkerState;

typedef struct
{
  SluiceRun *run;
  gint64     index;
  GVariant  *value;
} PulledItem;

typedef struct
{
  SluiceRun     *run;
  guint          index;
  WorkerState    state;
  PulledItem    *item;
  guint          attempt_number;
  SluiceAttempt *attempt;
} Worker;

struct _SluiceRun
{
  GObject         parent_instance;

  SluicePool     *pool;
  SluiceSource   *source;
  SluiceClock    *clock;
  GMainContext   *context;
  gint64          timeout;

  SluiceChannel  *input;
  SluiceChannel  *results;
  GCancellable   *producer_cancellable;
  GCancellable   *driver_cancellable;

  /* The item the producer's put holds: still ours if the put fails, the
   * channel's once it succeeds (and maybe freed before on_put runs). */
  PulledItem     *held;
  gint64          held_index;

  Worker         *workers;
  guint           n_workers;
  guint           workers_alive;
  ProducerState   producer_state;

  RunState        state;
  guint           live_operations;
  GPtrArray      *errors;
  SluiceRunStats  stats;
  gint64          started_at;
  gint64          finished_at;

  GTask          *pending_next;
  GCancellable   *next_cancellable;
  gulong          next_cancel_id;
  GQueue          close_tasks;

  guint           cancelled : 1;
  guint           end_reported : 1;
};

G_DEFINE_FINAL_TYPE (SluiceRun, sluice_run, G_TYPE_OBJECT)

static void worker_next      (Worker    *worker);
static void producer_pull    (SluiceRun *self);
static void maybe_finish     (SluiceRun *self);

/* Events {{{ */

#define EVENT_INIT(k) { .kind = (k), .item = -1, .worker = -1 }

static void
emit (SluiceRun   *self,
      SluiceEvent *event)
{
  event->time = sluice_clock_now (self->clock);
  event->queued = sluice_channel_get_length (self->input);
  event->in_flight = self->stats.in_flight;
  event->pulled = self->stats.pulled;
  event->succeeded = self->stats.succeeded;
  event->failed = self->stats.failed;
  event->retries = self->stats.retries;
  event->lead = self->stats.pulled - self->stats.succeeded;

  _sluice_pool_emit_event (self->pool, event);
}

static gboolean
wants_events (SluiceRun *self)
{
  return _sluice_pool_has_event_func (self->pool);
}

static void
emit_simple (SluiceRun       *self,
             SluiceEventKind  kind)
{
  SluiceEvent event = EVENT_INIT (kind);

  if (wants_events (self))
    emit (self, &event);
}

static void
emit_index (SluiceRun       *self,
            SluiceEventKind  kind,
            gint64           index,
            gint             worker,
            GVariant        *value)
{
  SluiceEvent event = EVENT_INIT (kind);

  if (!wants_events (self))
    return;

  event.item = index;
  event.worker = worker;
  event.value = value;
  emit (self, &event);
}

static void
emit_item (SluiceRun        *self,
           SluiceEventKind   kind,
           const PulledItem *item,
           gint              worker,
           GVariant         *value)
{
  emit_index (self, kind, item->index, worker, value);
}

static void
emit_error (SluiceRun       *self,
            SluiceEventKind  kind,
            gint64           item,
            const GError    *error)
{
  SluiceEvent event = EVENT_INIT (kind);

  if (!wants_events (self))
    return;

  event.item = item;
  event.error_type = sluice_error_type_name (error);
  event.error_message = error->message;
  emit (self, &event);
}

static void
emit_attempt (SluiceRun       *self,
              SluiceEventKind  kind,
              SluiceAttempt   *attempt,
              gboolean         retried)
{
  SluiceEvent event = EVENT_INIT (kind);
  const GError *error;

  if (!wants_events (self))
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

  emit (self, &event);
}

/* }}} */
/* Items {{{ */

static PulledItem *
pulled_item_new (SluiceRun *self,
                 GVariant  *value)
{
  PulledItem *item = g_new0 (PulledItem, 1);

  item->run = self;
  item->index = self->stats.pulled;
  item->value = value;

  return item;
}

static void
pulled_item_free (PulledItem *item)
{
  g_variant_unref (item->value);
  g_free (item);
}

/* The input channel's item_free: an item it throws away on an immediate
 * shutdown was pulled and will never be handled. */
static void
pulled_item_drop (PulledItem *item)
{
  SluiceRun *self = item->run;

  self->stats.dropped++;
  emit_item (self, SLUICE_EVENT_ITEM_DROPPED, item, -1, item->value);
  pulled_item_free (item);
}

static void
record_error (SluiceRun *self,
              GError    *error)
{
  g_ptr_array_add (self->errors, error);
}

static void
emit_metrics_for_error (SluiceRun    *self,
                        const char   *event,
                        const GError *error)
{
  g_autofree char *repr = sluice_error_repr (error);

  _sluice_pool_emit_metrics (self->pool, event, repr);
}

/* }}} */
/* Results {{{ */

static void
disconnect_next_cancellable (SluiceRun *self)
{
  if (self->next_cancel_id != 0)
    g_cancellable_disconnect (self->next_cancellable, self->next_cancel_id);
  self->next_cancel_id = 0;
  g_clear_object (&self->next_cancellable);
}

static void
return_result (SluiceRun *self,
               GTask     *task,
               GVariant  *result)
{
  SluiceEvent event = EVENT_INIT (SLUICE_EVENT_RESULT);

  self->stats.yielded++;
  if (wants_events (self))
    {
      event.value = result;
      emit (self, &event);
    }

  g_task_return_pointer (task, result, (GDestroyNotify) g_variant_unref);
}

static GError *
make_group_error (SluiceRun *self)
{
  GString *message = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint i;

  g_string_append_printf (message,
                          self->errors->len == 1 ? "%u error recorded" : "%u errors recorded",
                          self->errors->len);
  for (i = 0; i < self->errors->len; i++)
    {
      g_autofree char *repr = sluice_error_repr (g_ptr_array_index (self->errors, i));
      g_string_append_printf (message, "%s%s", i == 0 ? ": " : "; ", repr);
    }

  return g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_GROUP,
                              (text = g_string_free (message, FALSE)));
}

/* The end of the iteration, reported once; later calls just give NULL. */
static void
return_end (SluiceRun *self,
            GTask     *task)
{
  gboolean first = !self->end_reported;

  self->end_reported = TRUE;

  if (first && self->cancelled)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "run was cancelled");
  else if (first && self->errors->len > 0)
    g_task_return_error (task, make_group_error (self));
  else
    g_task_return_pointer (task, NULL, NULL);
}

static void
deliver_result (SluiceRun *self,
                GVariant  *result)
{
  g_autoptr(GTask) task = NULL;

  if (self->pending_next == NULL || self->cancelled)
    {
      /* Unbounded: this never waits and never fails while the run is on. */
      if (!sluice_channel_try_put (self->results, result, NULL))
        g_variant_unref (result);
      return;
    }

  task = g_steal_pointer (&self->pending_next);
  disconnect_next_cancellable (self);
  return_result (self, task, result);
}

/* }}} */
/* Driver {{{ */

static void
cancel_driver (SluiceRun *self)
{
  g_autoptr(SluiceRun) hold = NULL;
  guint i;

  if (self->state != RUN_ACTIVE || self->cancelled)
    return;

  hold = g_object_ref (self);
  self->cancelled = TRUE;
  emit_simple (self, SLUICE_EVENT_CANCEL);

  g_cancellable_cancel (self->producer_cancellable);
  g_cancellable_cancel (self->driver_cancellable);
  sluice_channel_shutdown (self->input, TRUE);

  for (i = 0; i < self->n_workers; i++)
    if (self->workers[i].attempt != NULL)
      _sluice_attempt_cancel (self->workers[i].attempt);
}

static void
finish_driver (SluiceRun *self)
{
  g_autoptr(GTask) next = NULL;
  GTask *close;

  g_assert (self->state == RUN_ACTIVE);
  g_warn_if_fail (self->live_operations == 0);

  self->state = RUN_FINISHED;
  self->finished_at = sluice_clock_now (self->clock);
  sluice_channel_shutdown (self->input, TRUE);
  sluice_channel_shutdown (self->results, FALSE);
  emit_simple (self, SLUICE_EVENT_RUN_END);
  sluice_clock_release (self->clock);

  if (self->pending_next != NULL)
    {
      next = g_steal_pointer (&self->pending_next);
      disconnect_next_cancellable (self);
      return_end (self, next);
    }

  while ((close = g_queue_pop_head (&self->close_tasks)) != NULL)
    {
      self->end_reported = TRUE;
      g_task_return_boolean (close, TRUE);
      g_object_unref (close);
    }

  /* The driver's own reference, taken in start_driver(). */
  g_object_unref (self);
}

static void
maybe_finish (SluiceRun *self)
{
  if (self->state == RUN_ACTIVE &&
      self->producer_state == PRODUCER_DONE &&
      self->workers_alive == 0)
    finish_driver (self);
}

static void
start_driver (SluiceRun *self)
{
  guint i;

  self->state = RUN_ACTIVE;
  g_object_ref (self);
  sluice_clock_hold (self->clock);
  self->started_at = sluice_clock_now (self->clock);
  emit_simple (self, SLUICE_EVENT_RUN_START);

  self->workers_alive = self->n_workers;
  for (i = 0; i < self->n_workers; i++)
    worker_next (&self->workers[i]);

  producer_pull (self);
}

void
_sluice_run_stop_requested (SluiceRun *self)
{
  emit_simple (self, SLUICE_EVENT_STOP_REQUEST);

  /* Wakes the producer if it waits on the source or on a full channel. */
  if (self->state == RUN_ACTIVE)
    g_cancellable_cancel (self->producer_cancellable);
}

/* }}} */
/* Producer {{{ */

static void
producer_finish (SluiceRun *self)
{
  self->producer_state = PRODUCER_DONE;
  emit_simple (self, SLUICE_EVENT_DRAIN);

  /* End of input reaches the workers as a graceful shutdown: they drain
   * what is queued, then their get fails and they exit. */
  sluice_channel_shutdown (self->input, FALSE);
  maybe_finish (self);
}

static void
on_put (GObject      *object,
        GAsyncResult *res,
        gpointer      user_data)
{
  SluiceRun *self = user_data;
  PulledItem *item = g_steal_pointer (&self->held);
  g_autoptr(GError) error = NULL;

  self->live_operations--;

  if (!sluice_channel_put_finish (SLUICE_CHANNEL (object), res, &error))
    {
      /* A stop or a cancel woke the producer while it waited for room: the
       * item it held is never handled. */
      pulled_item_drop (item);
      producer_finish (self);
      return;
    }

  /* Accepted: a worker may already have taken @item, even dropped it. */
  emit_index (self, SLUICE_EVENT_QUEUE_PUT, self->held_index, -1, NULL);
  producer_pull (self);
}

static void
take_pulled_item (SluiceRun *self,
                  GVariant  *value)
{
  PulledItem *item = pulled_item_new (self, value);
  gint64 index;
  guint lead;

  self->stats.pulled++;
  lead = self->stats.pulled - self->stats.succeeded;
  self->stats.max_lead = MAX (self->stats.max_lead, lead);
  emit_item (self, SLUICE_EVENT_PULL, item, -1, value);

  if (sluice_pool_get_stop_requested (self->pool) || self->cancelled)
    {
      pulled_item_drop (item);
      producer_finish (self);
      return;
    }

  /* Room in the input channel: no main-loop turn to wait for. The next
   * read completes on a later turn, so this does not recurse. */
  index = item->index;
  if (sluice_channel_try_put (self->input, item, NULL))
    {
      emit_index (self, SLUICE_EVENT_QUEUE_PUT, index, -1, NULL);
      producer_pull (self);
      return;
    }

  self->producer_state = PRODUCER_PUTTING;
  self->live_operations++;
  self->held = item;
  self->held_index = item->index;
  sluice_channel_put_async (self->input, item, self->producer_cancellable, on_put, self);
}

static void
on_source_failed (SluiceRun *self,
                  GError    *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GError) own = error;

      /* We cancelled the read ourselves, for a stop or a cancel. */
      if (g_cancellable_is_cancelled (self->producer_cancellable))
        return;

      error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_SOURCE_CANCELLED,
                                   "source cancelled itself");
    }

  emit_error (self, SLUICE_EVENT_SOURCE_ERROR, -1, error);
  record_error (self, error);
  sluice_pool_request_stop (self->pool);
}

static void
on_pulled (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  SluiceRun *self = user_data;
  GError *error = NULL;
  GVariant *value;

  self->live_operations--;

  value = sluice_source_next_finish (SLUICE_SOURCE (object), res, &error);

  if (error != NULL)
    {
      g_clear_pointer (&value, g_variant_unref);
      on_source_failed (self, error);
      producer_finish (self);
    }
  else if (value == NULL)
    {
      emit_simple (self, SLUICE_EVENT_SOURCE_END);
      producer_finish (self);
    }
  else
    take_pulled_item (self, value);
}

static void
producer_pull (SluiceRun *self)
{
  if (sluice_pool_get_stop_requested (self->pool) || self->cancelled)
    {
      producer_finish (self);
      return;
    }

  self->producer_state = PRODUCER_PULLING;
  self->live_operations++;
  sluice_source_next_async (self->source, self->producer_cancellable, on_pulled, self);
}

/* }}} */
/* Workers {{{ */

static void
worker_exit (Worker *worker)
{
  SluiceRun *self = worker->run;

  worker->state = WORKER_DONE;
  self->workers_alive--;
  maybe_finish (self);
}

static void
worker_done_with_item (Worker *worker)
{
  g_clear_pointer (&worker->item, pulled_item_free);
  worker_next (worker);
}

static void on_attempt_notify (SluiceAttempt   *attempt,
                               SluiceEventKind  kind,
                               gpointer         user_data);

static void
worker_attempt (Worker *worker)
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
item_succeeded (Worker   *worker,
                GVariant *result)
{
  SluiceRun *self = worker->run;
  g_autofree char *repr = g_variant_print (worker->item->value, FALSE);

  self->stats.succeeded++;
  _sluice_pool_emit_metrics (self->pool, "ok", repr);
  emit_item (self, SLUICE_EVENT_ITEM_OK, worker->item, (gint) worker->index, result);
  deliver_result (self, result);
}

static void
item_failed (Worker *worker,
             GError *error)
{
  SluiceRun *self = worker->run;

  self->stats.failed++;
  emit_metrics_for_error (self, "failure", error);
  emit_error (self, SLUICE_EVENT_ITEM_FAILED, worker->item->index, error);
  record_error (self, error);

  if (!sluice_pool_get_keep_going (self->pool))
    sluice_pool_request_stop (self->pool);
}

static gboolean
should_retry (Worker       *worker,
              const GError *error)
{
  SluiceRun *self = worker->run;

  return !self->cancelled &&
         worker->attempt_number <= (guint) sluice_pool_get_max_retries (self->pool) &&
         sluice_pool_is_retryable (self->pool, error);
}

static void
on_attempt_end (Worker *worker)
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
      emit_item (self, SLUICE_EVENT_ITEM_CANCELLED, worker->item, (gint) worker->index, NULL);
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
          emit_error (self, SLUICE_EVENT_RETRY, worker->item->index, error);
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
          emit_item (self, SLUICE_EVENT_ITEM_CANCELLED, worker->item, (gint) worker->index, NULL);
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
  Worker *worker = user_data;

  if (kind == SLUICE_EVENT_ATTEMPT_END)
    on_attempt_end (worker);
  else
    emit_attempt (worker->run, kind, attempt, FALSE);
}

static void
on_worker_got (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  Worker *worker = user_data;
  SluiceRun *self = worker->run;
  PulledItem *item;

  self->live_operations--;

  /* CLOSED once the input is drained, or CANCELLED by the caller: either
   * way this worker is done. */
  item = sluice_channel_get_finish (SLUICE_CHANNEL (object), res, NULL);
  if (item == NULL)
    {
      worker_exit (worker);
      return;
    }

  if (self->cancelled)
    {
      pulled_item_drop (item);
      worker_exit (worker);
      return;
    }

  emit_item (self, SLUICE_EVENT_QUEUE_GET, item, (gint) worker->index, NULL);

  /* The event's callback may have cancelled the run: an attempt started
   * now would be cancelled by no one. */
  if (self->cancelled)
    {
      pulled_item_drop (item);
      worker_exit (worker);
      return;
    }

  worker->item = item;
  worker->attempt_number = 0;
  worker_attempt (worker);
}

static void
worker_next (Worker *worker)
{
  SluiceRun *self = worker->run;

  if (self->cancelled)
    {
      worker_exit (worker);
      return;
    }

  worker->state = WORKER_GETTING;
  self->live_operations++;
  sluice_channel_get_async (self->input, self->driver_cancellable, on_worker_got, worker);
}

/* }}} */
/* GObject {{{ */

static void
sluice_run_finalize (GObject *object)
{
  SluiceRun *self = SLUICE_RUN (object);

  g_assert (self->state != RUN_ACTIVE);
  g_assert (self->pending_next == NULL);

  g_clear_object (&self->input);
  g_clear_object (&self->results);
  g_clear_object (&self->producer_cancellable);
  g_clear_object (&self->driver_cancellable);
  g_clear_pointer (&self->workers, g_free);
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->source);
  g_clear_object (&self->clock);
  g_clear_object (&self->pool);

  G_OBJECT_CLASS (sluice_run_parent_class)->finalize (object);
}

static void
sluice_run_class_init (SluiceRunClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_run_finalize;
}

static void
sluice_run_init (SluiceRun *self)
{
  self->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  self->producer_cancellable = g_cancellable_new ();
  self->driver_cancellable = g_cancellable_new ();
  g_queue_init (&self->close_tasks);
}

SluiceRun *
_sluice_run_new (SluicePool   *pool,
                 SluiceSource *source)
{
  SluiceRun *self;
  guint i;

  self = g_object_new (SLUICE_TYPE_RUN, NULL);
  self->pool = g_object_ref (pool);
  self->source = g_object_ref (source);
  self->clock = g_object_ref (sluice_pool_get_clock (pool));
  self->context = g_main_context_ref_thread_default ();
  self->timeout = _sluice_pool_get_timeout_us (pool);

  self->input = sluice_channel_new ((guint) sluice_pool_get_queue_size (pool),
                                    (GDestroyNotify) pulled_item_drop);
  self->results = sluice_channel_new (0, (GDestroyNotify) g_variant_unref);

  self->n_workers = (guint) sluice_pool_get_workers (pool);
  self->workers = g_new0 (Worker, self->n_workers);
  for (i = 0; i < self->n_workers; i++)
    {
      self->workers[i].run = self;
      self->workers[i].index = i;
    }

  return self;
}

/* }}} */
/* Public API {{{ */

static gboolean
cancel_from_idle (gpointer user_data)
{
  cancel_driver (SLUICE_RUN (user_data));
  return G_SOURCE_REMOVE;
}

/* May run in any thread, and synchronously inside g_cancellable_cancel():
 * the driver is cancelled from the run's own context, later, so that the
 * pending next can disconnect from the cancellable safely. */
static void
on_next_cancelled (GCancellable *cancellable,
                   gpointer      user_data)
{
  SluiceRun *self = user_data;
  g_autoptr(GSource) idle = g_idle_source_new ();

  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (idle, cancel_from_idle, g_object_ref (self), g_object_unref);
  g_source_set_static_name (idle, "[sluice] cancel run");
  g_source_attach (idle, self->context);
}

/**
 * sluice_run_next_async:
 * @self: a #SluiceRun
 * @cancellable: (nullable): cancels the whole run, not just this call
 * @callback: called with the next result or the end
 * @user_data: data for @callback
 *
 * Asks for the next result, in the order results finish. The first call
 * starts the run. Cancelling @cancellable cancels the run: the call then
 * completes with %G_IO_ERROR_CANCELLED once every operation of the run has
 * finished; cancelling again does not cut that wait short. Only one call
 * may be pending at a time.
 */
void
sluice_run_next_async (SluiceRun           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GVariant *result;

  g_return_if_fail (SLUICE_IS_RUN (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, sluice_run_next_async);

  if (self->pending_next != NULL)
    {
      g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_PENDING,
                               "another next is already pending");
      return;
    }

  if (self->state == RUN_IDLE)
    {
      if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
        {
          self->state = RUN_FINISHED;
          self->cancelled = TRUE;
          return_end (self, task);
          return;
        }
      start_driver (self);
    }

  if (!self->cancelled &&
      (result = sluice_channel_try_get (self->results, NULL)) != NULL)
    {
      return_result (self, task, result);
      return;
    }

  if (self->state == RUN_FINISHED)
    {
      return_end (self, task);
      return;
    }

  self->pending_next = g_steal_pointer (&task);
  if (cancellable != NULL)
    {
      self->next_cancellable = g_object_ref (cancellable);
      self->next_cancel_id = g_cancellable_connect (cancellable,
                                                    G_CALLBACK (on_next_cancelled),
                                                    self, NULL);
    }
}

/**
 * sluice_run_next_finish:
 * @self: a #SluiceRun
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_run_next_async(). At the end of the run it returns
 * %NULL: without an error if nothing failed, with %SLUICE_ERROR_GROUP if
 * errors were recorded (see sluice_run_get_errors()), or with
 * %G_IO_ERROR_CANCELLED if the caller cancelled the run. After that it
 * returns %NULL without an error.
 *
 * Returns: (transfer full) (nullable): the next result, or %NULL
 */
GVariant *
sluice_run_next_finish (SluiceRun     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sluice_run_close_async:
 * @self: a #SluiceRun
 * @cancellable: (nullable): ignored: a close always waits for the run's
 *   operations to finish
 * @callback: called when the run has ended
 * @user_data: data for @callback
 *
 * Closes the run early, like aclose() on the seed's generator: cancels the
 * driver, waits for every operation of the run, and completes without an
 * error. Errors recorded so far stay in sluice_run_get_errors(). Closing an
 * ended run does nothing.
 */
void
sluice_run_close_async (SluiceRun           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (SLUICE_IS_RUN (self));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, sluice_run_close_async);

  switch (self->state)
    {
    case RUN_IDLE:
      self->state = RUN_FINISHED;
      self->end_reported = TRUE;
      G_GNUC_FALLTHROUGH;
    case RUN_FINISHED:
      g_task_return_boolean (task, TRUE);
      break;
    case RUN_ACTIVE:
    default:
      g_queue_push_tail (&self->close_tasks, g_steal_pointer (&task));
      cancel_driver (self);
      break;
    }
}

/**
 * sluice_run_close_finish:
 * @self: a #SluiceRun
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_run_close_async().
 *
 * Returns: %TRUE once the run has ended
 */
gboolean
sluice_run_close_finish (SluiceRun     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * sluice_run_get_errors:
 * @self: a #SluiceRun
 *
 * Gives the errors the run recorded, in the order it recorded them: the
 * final error of each item that failed for good, and a source's error.
 * These are the original #GError objects the handler or source returned.
 *
 * Returns: (transfer none) (element-type GError): the errors
 */
GPtrArray *
sluice_run_get_errors (SluiceRun *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);

  return self->errors;
}

/**
 * sluice_run_get_live_operations:
 * @self: a #SluiceRun
 *
 * Counts the operations the run started that have not finished: source
 * reads, channel waits and attempts (each attempt owns its timers). It is 0
 * once the run has ended.
 *
 * Returns: the count
 */
guint
sluice_run_get_live_operations (SluiceRun *self)
{
  guint n;
  guint i;

  g_return_val_if_fail (SLUICE_IS_RUN (self), 0);

  n = self->live_operations;
  for (i = 0; i < self->n_workers; i++)
    if (self->workers[i].attempt != NULL)
      n += _sluice_attempt_get_n_timers (self->workers[i].attempt);

  return n;
}

/**
 * sluice_run_is_finished:
 * @self: a #SluiceRun
 *
 * Returns: whether every operation of the run has finished
 */
gboolean
sluice_run_is_finished (SluiceRun *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), FALSE);

  return self->state == RUN_FINISHED;
}

/**
 * sluice_run_get_stats:
 * @self: a #SluiceRun
 * @stats: (out caller-allocates): where to write the counters
 *
 * Reads the run's counters.
 */
void
sluice_run_get_stats (SluiceRun      *self,
                      SluiceRunStats *stats)
{
  g_return_if_fail (SLUICE_IS_RUN (self));
  g_return_if_fail (stats != NULL);

  *stats = self->stats;
  stats->queued = sluice_channel_get_length (self->input);
  stats->lead = self->stats.pulled - self->stats.succeeded;
}

/**
 * sluice_run_get_started_at:
 * @self: a #SluiceRun
 *
 * Returns: the clock time just before the first pull (µs)
 */
gint64
sluice_run_get_started_at (SluiceRun *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), 0);

  return self->started_at;
}

/**
 * sluice_run_get_finished_at:
 * @self: a #SluiceRun
 *
 * Returns: the clock time when the run ended (µs), or 0 while it runs
 */
gint64
sluice_run_get_finished_at (SluiceRun *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), 0);

  return self->finished_at;
}

static const char *
describe_producer (ProducerState state)
{
  switch (state)
    {
    case PRODUCER_PULLING:
      return "producer: waiting for the source to yield an item";
    case PRODUCER_PUTTING:
      return "producer: waiting for room in the input queue";
    case PRODUCER_IDLE:
      return "producer: not started";
    case PRODUCER_DONE:
    default:
      return "producer: finished";
    }
}

/**
 * sluice_run_describe_waiting:
 * @self: a #SluiceRun
 *
 * Describes what the run waits for, one line per part: for the message of
 * a virtual clock's deadlock.
 *
 * Returns: (transfer full): the description
 */
char *
sluice_run_describe_waiting (SluiceRun *self)
{
  GString *text;
  guint i;

  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);

  text = g_string_new (describe_producer (self->producer_state));
  for (i = 0; i < self->n_workers; i++)
    {
      Worker *worker = &self->workers[i];

      if (worker->state == WORKER_GETTING)
        g_string_append_printf (text, "\nworker %u: waiting for an item", i);
      else if (worker->state == WORKER_RUNNING && worker->attempt != NULL)
        g_string_append_printf (text, "\nworker %u: waiting for attempt %u of item %" G_GINT64_FORMAT
                                " (cancel requests: %u)",
                                i, worker->attempt_number, worker->item->index,
                                sluice_attempt_get_cancel_rounds (worker->attempt));
    }
  if (self->pending_next == NULL)
    g_string_append (text, "\ncaller: not waiting for a result");

  return g_string_free (text, FALSE);
}

/* }}} */
