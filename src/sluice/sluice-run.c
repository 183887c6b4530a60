/* sluice-run.c: one run of a pool: the object, its driver and its events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-attempt-private.h"
#include "sluice-channel-private.h"
#include "sluice-clock-private.h"
#include "sluice-error.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"
#include "sluice-snapshot-private.h"

/**
 * SluiceRun:
 *
 * One run of a #SluicePool: its results, its errors and its statistics.
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
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE (SluiceRun, sluice_run, G_TYPE_OBJECT)

/* Events {{{ */

/* Every event of the run goes out here, and this is the one rule for
 * whoever emits one: the callback may re-enter the run (request a stop,
 * cancel or close it) and drop the caller's references to it. The run is
 * held for the call; after it, the emitter re-reads any state it acts on
 * (self->cancelled, the worker's item) and touches no object it does not
 * hold a reference to. */
void
_sluice_run_emit (SluiceRun   *self,
                  SluiceEvent *event)
{
  if (self->event_func == NULL && self->monitor_func == NULL)
    return;

  event->time = _sluice_run_now (self);
  event->queued = _sluice_channel_get_length (self->input);
  event->in_flight = self->stats.in_flight;
  event->pulled = self->stats.pulled;
  event->succeeded = self->stats.succeeded;
  event->failed = self->stats.failed;
  event->retries = self->stats.retries;
  event->lead = self->stats.pulled - self->stats.succeeded;
  event->tokens = _sluice_retry_policy_get_tokens (&self->pool->retry_policy);

  /* The export first: it never re-enters the run, nor drops it, so an
   * event that the user's function emits from inside its call (a stop
   * request) reaches both receivers in the same order. */
  if (self->monitor_func != NULL)
    self->monitor_func (event, self->monitor_data);
  if (self->event_func != NULL)
    {
      /* While the run is driven, the driver's reference keeps it through
       * the call: finish_driver() leaves it to the last event function to
       * return. A reference per event was 7 of sluice-run's 12 reference
       * pairs per item. */
      gboolean driven = self->state == RUN_ACTIVE;
      g_autoptr(SluiceRun) hold G_GNUC_UNUSED = driven ? NULL : g_object_ref (self);
      gboolean in_step = self->in_step;

      /* The user's function takes time of its own: outside of the step,
       * which reads the clock again after it. */
      _sluice_run_step_end (self);
      self->emitting += driven;
      self->event_func (event, self->event_data);
      self->in_step = in_step;
      if (driven && --self->emitting == 0 && self->release_pending)
        {
          self->release_pending = FALSE;
          g_object_unref (self);
        }
    }
}

gboolean
_sluice_run_wants_events (SluiceRun *self)
{
  return self->event_func != NULL || self->monitor_func != NULL;
}

void
_sluice_run_set_monitor_func (SluiceRun       *self,
                              SluiceEventFunc  func,
                              gpointer         user_data)
{
  self->monitor_func = func;
  self->monitor_data = user_data;
}

/* The run's state as the D-Bus export names it: idle, running, draining
 * (no more work is taken: a stop, a cancel, a fatal error or the end of
 * the input) or ended. */
const char *
_sluice_run_get_state_nick (SluiceRun *self)
{
  switch (self->state)
    {
    case RUN_IDLE:
      return "idle";
    case RUN_FINISHED:
      return "ended";
    case RUN_ACTIVE:
    default:
      if (self->stop_requested || self->halted || self->cancelled ||
          self->producer_state == PRODUCER_DONE)
        return "draining";
      return "running";
    }
}

void
_sluice_run_set_event_func (SluiceRun       *self,
                            SluiceEventFunc  func,
                            gpointer         user_data,
                            GDestroyNotify   destroy)
{
  if (self->event_destroy != NULL)
    self->event_destroy (self->event_data);

  self->event_func = func;
  self->event_data = user_data;
  self->event_destroy = destroy;
}

void
_sluice_run_emit_simple (SluiceRun       *self,
                         SluiceEventKind  kind)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (kind);

  if (_sluice_run_wants_events (self))
    _sluice_run_emit (self, &event);
}

void
_sluice_run_emit_index (SluiceRun       *self,
                        SluiceEventKind  kind,
                        gint64           index,
                        gint             worker,
                        GVariant        *value)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (kind);

  if (!_sluice_run_wants_events (self))
    return;

  event.item = index;
  event.worker = worker;
  event.value = value;
  _sluice_run_emit (self, &event);
}

void
_sluice_run_emit_item (SluiceRun              *self,
                       SluiceEventKind         kind,
                       const SluicePulledItem *item,
                       gint                    worker,
                       GVariant               *value)
{
  _sluice_run_emit_index (self, kind, item->index, worker, value);
}

void
_sluice_run_emit_error (SluiceRun       *self,
                        SluiceEventKind  kind,
                        gint64           item,
                        const GError    *error)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (kind);

  if (!_sluice_run_wants_events (self))
    return;

  event.item = item;
  event.error_type = sluice_error_type_name (error);
  event.error_message = error->message;
  _sluice_run_emit (self, &event);
}

void
_sluice_run_record_error (SluiceRun *self,
                          GError    *error)
{
  g_ptr_array_add (self->errors, error);
}

/* }}} */
/* Driver {{{ */

/* Stops everything at once, without a drain: the source is not read
 * again, the input channel drops what it holds, every attempt is stopped
 * (with the usual rounds, or with @once a single request) and awaited,
 * every backoff is cancelled. A caller's cancel, a fatal error and the
 * shutdown deadline all end this way. */
static void
halt (SluiceRun *self,
      gboolean   once)
{
  self->halted = TRUE;
  /* A service run's admission closes with it; a stream's producer stops
   * when its cancellable wakes it. */
  if (self->service)
    self->producer_state = PRODUCER_DONE;

  g_cancellable_cancel (self->producer_cancellable);
  g_cancellable_cancel (self->driver_cancellable);
  sluice_channel_shutdown (self->input, TRUE);

  for (guint i = 0; i < self->n_workers; i++)
    _sluice_worker_cancel (&self->workers[i], once);
}

void
_sluice_run_cancel (SluiceRun *self)
{
  g_autoptr(SluiceRun) hold = NULL;

  if (self->state != RUN_ACTIVE || self->cancelled)
    return;

  hold = g_object_ref (self);
  self->cancelled = TRUE;
  _sluice_run_emit_simple (self, SLUICE_EVENT_CANCEL);
  halt (self, FALSE);
}

/* An attempt failed with a fatal error (its item already failed with it):
 * the pool stops at once. This is no stop request: the shutdown clock does
 * not start. */
void
_sluice_run_fatal_stop (SluiceRun *self)
{
  g_autoptr(SluiceRun) hold = NULL;

  if (self->state != RUN_ACTIVE || self->fatal_stopped)
    return;

  hold = g_object_ref (self);
  self->fatal_stopped = TRUE;
  halt (self, FALSE);
}

static void
on_shutdown_deadline (gpointer user_data)
{
  SluiceRun *self = user_data;
  g_autoptr(SluiceRun) hold G_GNUC_UNUSED = g_object_ref (self);

  self->shutdown_timer = 0;
  if (self->state != RUN_ACTIVE)
    return;

  self->stats.deadline_hit = TRUE;
  self->stats.dropped_queued = sluice_channel_get_length (self->input);
  for (guint i = 0; i < self->n_workers; i++)
    self->stats.cancelled_in_flight += self->workers[i].item != NULL;

  _sluice_run_emit_simple (self, SLUICE_EVENT_SHUTDOWN_DEADLINE);
  halt (self, TRUE);
}

/* The first stop request of a running run starts the shutdown clock. Its
 * timer fires before anything else due at that instant: the deadline wins
 * its ties. */
void
_sluice_run_start_shutdown_clock (SluiceRun *self)
{
  gint64 timeout = _sluice_pool_get_shutdown_timeout_us (self->pool);

  if (timeout <= 0 || self->shutdown_deadline > 0 || self->state != RUN_ACTIVE || self->halted)
    return;

  self->shutdown_deadline = sluice_clock_now (self->clock) + timeout;
  self->shutdown_timer = _sluice_clock_add_timer_first (self->clock, self->shutdown_deadline,
                                                        on_shutdown_deadline, self);
}

/* An attempt that ends after the shutdown deadline ignored its
 * cancellation: the report counts it. On the virtual clock that is any
 * later µs; on real time an attempt that honours the cancellation still
 * takes a little while, so only more than 1 ms later counts. */
gboolean
_sluice_run_is_overrun (SluiceRun *self)
{
  gint64 slack = sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL ? 0 : 1000;

  return self->stats.deadline_hit &&
         _sluice_run_now (self) > self->shutdown_deadline + slack;
}

static void
finish_driver (SluiceRun *self)
{
  g_assert (self->state == RUN_ACTIVE);
  g_warn_if_fail (self->live_operations == 0);

  self->state = RUN_FINISHED;
  self->finished_at = sluice_clock_now (self->clock);
  /* Nothing of the run's attempts outlives it: their local data goes now,
   * as it would have with the last of them. */
  _sluice_run_free_spare_attempts (self);
  if (self->shutdown_timer != 0)
    sluice_clock_remove_timer (self->clock, self->shutdown_timer);
  self->shutdown_timer = 0;
  sluice_channel_shutdown (self->input, TRUE);
  sluice_channel_shutdown (self->results, FALSE);
  _sluice_run_emit_simple (self, SLUICE_EVENT_RUN_END);
  sluice_clock_release (self->clock);

  _sluice_run_report_end (self);

  /* The driver's own reference, taken in _sluice_run_start(); an event
   * function running now (this end came from inside it) lets go of it
   * when it returns. */
  if (self->emitting > 0)
    self->release_pending = TRUE;
  else
    g_object_unref (self);
}

void
_sluice_run_maybe_finish (SluiceRun *self)
{
  if (self->state == RUN_ACTIVE &&
      self->producer_state == PRODUCER_DONE &&
      self->workers_alive == 0 &&
      self->submits_waiting == 0)
    finish_driver (self);
}

/* The bounds the run keeps to, so that views read them instead of
 * working them out again from the pool's options. */
static void
emit_run_start (SluiceRun *self)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (SLUICE_EVENT_RUN_START);

  if (!_sluice_run_wants_events (self))
    return;

  event.queue_capacity = sluice_channel_get_capacity (self->input);
  /* The producer's own item is the + 1; a service run, which has none,
   * keeps the same bound (see #SluiceEvent.lead_bound). */
  event.lead_bound = event.queue_capacity + self->n_workers + 1;
  event.item_timeout = self->timeout;
  _sluice_run_emit (self, &event);
}

void
_sluice_run_start (SluiceRun *self)
{
  guint i;

  self->state = RUN_ACTIVE;
  g_object_ref (self);
  sluice_clock_hold (self->clock);
  self->started_at = sluice_clock_now (self->clock);
  emit_run_start (self);

  self->workers_alive = self->n_workers;
  for (i = 0; i < self->n_workers; i++)
    _sluice_worker_next (&self->workers[i]);

  /* A service run's items come from its callers. */
  if (!self->service)
    _sluice_producer_pull (self);
}

/* }}} */
/* GObject {{{ */

static void
sluice_run_finalize (GObject *object)
{
  SluiceRun *self = SLUICE_RUN (object);

  g_assert (self->state != RUN_ACTIVE);
  g_assert (self->pending_next == NULL && self->filling_task == NULL);
  g_assert (g_queue_is_empty (&self->completions));
  g_assert (self->next_cancel_id == 0);

  g_clear_object (&self->input);
  g_clear_object (&self->results);
  _sluice_run_free_spare_items (self);
  _sluice_run_free_spare_attempts (self);
  g_clear_object (&self->producer_cancellable);
  g_clear_object (&self->driver_cancellable);
  g_clear_pointer (&self->workers, g_free);
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  g_clear_pointer (&self->outcomes, g_hash_table_unref);
  g_clear_pointer (&self->durations, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->source);
  g_clear_object (&self->clock);
  g_clear_object (&self->pool);
  _sluice_run_set_event_func (self, NULL, NULL, NULL);

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
  g_queue_init (&self->completions);
  self->outcomes = g_hash_table_new (g_str_hash, g_str_equal);
  self->durations = g_new0 (SluiceDurations, 1);
}

SluiceRun *
_sluice_run_new (SluicePool   *pool,
                 SluiceSource *source)
{
  SluiceRun *self;
  guint i;

  self = g_object_new (SLUICE_TYPE_RUN, NULL);
  self->pool = g_object_ref (pool);
  self->source = source != NULL ? g_object_ref (source) : NULL;
  self->source_try_next = source != NULL ? SLUICE_SOURCE_GET_IFACE (source)->try_next : NULL;
  self->source_has_try_next = self->source_try_next != NULL;
  self->clock = g_object_ref (sluice_pool_get_clock (pool));
  self->context = g_main_context_ref_thread_default ();
  self->timeout = _sluice_pool_get_timeout_us (pool);
  self->stop_requested = sluice_pool_get_stop_requested (pool);
  _sluice_pool_take_event_func (pool, &self->event_func, &self->event_data, &self->event_destroy);
  _sluice_pool_get_monitor_func (pool, &self->monitor_func, &self->monitor_data);

  self->input = sluice_channel_new ((guint) sluice_pool_get_queue_size (pool),
                                    (GDestroyNotify) _sluice_pulled_item_drop);
  self->results = sluice_channel_new (0, (GDestroyNotify) g_variant_unref);
  /* All of the run's work runs at its clock's priority. */
  self->priority = sluice_clock_get_priority (self->clock);
  _sluice_channel_set_priority (self->input, self->priority);
  _sluice_channel_set_priority (self->results, self->priority);

  self->n_workers = (guint) sluice_pool_get_workers (pool);
  self->workers = g_new0 (SluiceWorker, self->n_workers);
  for (i = 0; i < self->n_workers; i++)
    {
      self->workers[i].run = self;
      self->workers[i].index = i;
    }

  return self;
}

/* }}} */
/* Public API {{{ */

/**
 * sluice_run_get_errors:
 * @self: a #SluiceRun
 *
 * Gives the errors the run recorded, in the order it recorded them: the
 * final error of each item that failed for good, and a source's error.
 * These are the original #GError objects the handler or source returned.
 *
 * Returns: (transfer none) (element-type GError): the errors
 *
 * Since: 1.0
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
 *
 * Since: 1.0
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
 *
 * Since: 1.0
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
 *
 * Since: 1.0
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

/* Snapshots {{{ */

/* @name lives as long as the process: a literal, or a type name from
 * sluice_error_type_name(), which are static or interned. No copy, no
 * interning: this runs once per item. */
void
_sluice_run_count_outcome (SluiceRun  *self,
                           const char *name)
{
  guint count = GPOINTER_TO_UINT (g_hash_table_lookup (self->outcomes, name));

  g_hash_table_insert (self->outcomes, (gpointer) name, GUINT_TO_POINTER (count + 1));
}

void
_sluice_run_add_duration (SluiceRun *self,
                          gint64     duration)
{
  _sluice_durations_add (self->durations, duration);
}

/**
 * sluice_run_get_snapshot:
 * @self: a #SluiceRun
 *
 * Takes a snapshot of the run now: the queue, the busy workers, the
 * attempts in flight, the outcomes and the attempt durations so far. It
 * can be taken at any time, before the run starts and after it ended.
 *
 * Returns: (transfer full): the snapshot
 *
 * Since: 1.0
 */
SluiceSnapshot *
sluice_run_get_snapshot (SluiceRun *self)
{
  SluiceSnapshotCounts counts = { 0 };

  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);

  counts.time = sluice_clock_now (self->clock);
  counts.queue_depth = sluice_channel_get_length (self->input);
  counts.queue_capacity = sluice_channel_get_capacity (self->input);
  counts.workers = self->n_workers;
  counts.in_flight = self->stats.in_flight;
  for (guint i = 0; i < self->n_workers; i++)
    counts.busy_workers += self->workers[i].item != NULL;

  if (self->ok_pending > 0)
    {
      guint ok = GPOINTER_TO_UINT (g_hash_table_lookup (self->outcomes, "ok"));

      g_hash_table_insert (self->outcomes, (gpointer) "ok", GUINT_TO_POINTER (ok + self->ok_pending));
      self->ok_pending = 0;
    }

  return _sluice_snapshot_new (&counts, self->outcomes, self->durations);
}

/* }}} */

/**
 * sluice_run_get_started_at:
 * @self: a #SluiceRun
 *
 * Returns: the clock time just before the first pull (µs)
 *
 * Since: 1.0
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
 *
 * Since: 1.0
 */
gint64
sluice_run_get_finished_at (SluiceRun *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), 0);

  return self->finished_at;
}

/**
 * sluice_run_describe_waiting:
 * @self: a #SluiceRun
 *
 * Describes what the run waits for, one line per part: for the message of
 * a virtual clock's deadlock.
 *
 * Returns: (transfer full): the description
 *
 * Since: 1.0
 */
char *
sluice_run_describe_waiting (SluiceRun *self)
{
  GString *text;
  guint i;

  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);

  text = g_string_new (_sluice_producer_describe (self->producer_state));
  for (i = 0; i < self->n_workers; i++)
    {
      SluiceWorker *worker = &self->workers[i];

      if (worker->state == WORKER_GETTING)
        g_string_append_printf (text, "\nworker %u: waiting for an item", i);
      else if (worker->state == WORKER_RUNNING && worker->attempt != NULL)
        g_string_append_printf (text, "\nworker %u: waiting for attempt %u of item %" G_GINT64_FORMAT
                                " (cancel requests: %u)",
                                i, worker->attempt_number, worker->item->index,
                                sluice_attempt_get_cancel_rounds (worker->attempt));
    }
  if (self->pending_next == NULL && self->filling_task == NULL)
    g_string_append (text, "\ncaller: not waiting for a result");

  return g_string_free (text, FALSE);
}

/* }}} */
