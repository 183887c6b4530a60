/* sluice-fault-handler.c: a handler that injects the faults a scenario describes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-fault-handler-private.h"

#include <math.h>
#include <string.h>

/* How many ended calls a handler keeps for its next attempts: as many as
 * a run of 1,024 workers has in flight. */
#define MAX_FREE_CALLS 1024

/**
 * SluiceFaultHandler:
 *
 * A #SluiceHandler that behaves, for each item, as a scenario says: it
 * succeeds, fails, hangs, returns late, cancels itself, ignores a first
 * cancellation request, blocks the main loop or sleeps in a thread (see
 * #SluiceBehaviourKind).
 *
 * Every delay is a timer on the handler's #SluiceClock, so a run on a
 * virtual clock is deterministic; every behaviour yields to the main loop
 * at least once. A successful attempt returns `n*n` for an `int64` item `n`
 * and the item itself otherwise.
 *
 * Each attempt stores a value of its own with sluice_attempt_set_local()
 * when it starts and checks it when it completes;
 * sluice_fault_handler_get_ctx_ok() tells whether every attempt read back
 * its own value.
 *
 * A handler serves the main context of its first attempt: an attempt that
 * honours cancellation ends cancelled from one source of the handler's on
 * that context (sluice-fault-handler-watch.c).
 */

static void handler_iface_init (SluiceHandlerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceFaultHandler, sluice_fault_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, handler_iface_init))

enum {
  PROP_0,
  PROP_CLOCK,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/* ---- attempt bookkeeping ----------------------------------------------- */

static void
call_detach (SluiceFaultCall *call,
             SluiceClock     *clock)
{
  if (call->timer_id != 0)
    sluice_clock_remove_timer (clock, call->timer_id);
  call->timer_id = 0;

  _sluice_fault_handler_unwatch (call);

  if (call->idle_source != NULL)
    g_source_destroy (call->idle_source);
  g_clear_pointer (&call->idle_source, g_source_unref);

  g_clear_signal_handler (&call->cancel_requested_id, call->attempt);
}

SluiceFaultCall *
_sluice_fault_call_ref (SluiceFaultCall *call)
{
  call->ref_count++;
  return call;
}

void
_sluice_fault_call_unref (SluiceFaultCall *call)
{
  SluiceFaultHandler *self = call->self;

  g_assert (call->ref_count > 0);
  if (--call->ref_count > 0)
    return;

  g_assert (call->cancellable == NULL && !call->hooked && !call->queued);
  g_clear_object (&call->attempt);
  if (self->n_free_calls < MAX_FREE_CALLS)
    {
      memset (call, 0, sizeof *call);
      call->next_free = self->free_calls;
      self->free_calls = call;
      self->n_free_calls++;
    }
  else
    g_free (call);
  /* Last: the call held the handler, as a task holds its source object. */
  g_object_unref (self);
}

/* A zeroed call: a kept one, or a new one. */
static SluiceFaultCall *
call_new (SluiceFaultHandler *self)
{
  SluiceFaultCall *call = self->free_calls;

  if (call == NULL)
    return g_new0 (SluiceFaultCall, 1);

  self->free_calls = call->next_free;
  self->n_free_calls--;
  call->next_free = NULL;
  return call;
}

static void
free_calls_clear (SluiceFaultHandler *self)
{
  SluiceFaultCall *call;

  while ((call = self->free_calls) != NULL)
    {
      self->free_calls = call->next_free;
      g_free (call);
    }
  self->n_free_calls = 0;
}

/**
 * sluice_fault_handler_compute_result:
 * @item: an item
 *
 * The result of a successful attempt on @item: `n*n` for an `int64` item
 * `n` (wrapping around on overflow), the item itself otherwise.
 *
 * Returns: (transfer full): the result
 */
GVariant *
sluice_fault_handler_compute_result (GVariant *item)
{
  g_return_val_if_fail (item != NULL, NULL);

  if (g_variant_is_of_type (item, G_VARIANT_TYPE_INT64))
    {
      guint64 n = (guint64) g_variant_get_int64 (item);
      return g_variant_ref_sink (g_variant_new_int64 ((gint64) (n * n)));
    }

  return g_variant_ref (item);
}

/* Completes the attempt of @call once: checks its attempt-local value,
 * drops every timer and watch, returns the result or the error into the
 * attempt and calls the pool back. */
void
_sluice_fault_handler_call_finish (SluiceFaultCall       *call,
                                   SluiceFaultHandlerEnd  end)
{
  SluiceFaultHandler *self = call->self;
  SluiceAttempt *attempt = call->attempt;
  const SluiceBehaviour *behaviour = call->behaviour;
  guint number = sluice_attempt_get_number (attempt);

  if (call->done)
    return;
  call->done = TRUE;
  self->n_active--;

  if (sluice_attempt_get_local (attempt) != call->token)
    self->ctx_ok = FALSE;

  call_detach (call, self->clock);

  if (end == SLUICE_FAULT_HANDLER_END_CANCELLED || behaviour->kind == SLUICE_BEHAVIOUR_CANCEL_SELF)
    sluice_attempt_return_error (attempt, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                                               "Operation was cancelled"));
  else if (behaviour->kind == SLUICE_BEHAVIOUR_FAIL_ALWAYS ||
           (behaviour->kind == SLUICE_BEHAVIOUR_FAIL && number <= behaviour->failures))
    sluice_attempt_return_error (attempt, sluice_named_error_new (behaviour->error_type,
                                                                  "attempt %u failed", number));
  else
    sluice_attempt_return_result (attempt,
                                  sluice_fault_handler_compute_result (sluice_attempt_get_item (attempt)));

  /* The call's own reference keeps the handler and the attempt through
   * the callback, which may drop the pool's. */
  call->callback (G_OBJECT (self), G_ASYNC_RESULT (attempt), call->user_data);
  _sluice_fault_call_unref (call);
}

/* ---- the ways an attempt ends ------------------------------------------ */

static void
on_timer (gpointer user_data)
{
  SluiceFaultCall *call = user_data;

  call->timer_id = 0;
  _sluice_fault_handler_call_finish (call, SLUICE_FAULT_HANDLER_END_RESULT);
}

static void
on_block_timer (gpointer user_data)
{
  SluiceFaultCall *call = user_data;

  call->timer_id = 0;

  /* The lesson of `block`: nothing else on this main loop runs meanwhile. */
  g_usleep ((gulong) sluice_time_from_seconds (call->behaviour->delay));

  _sluice_fault_handler_call_finish (call, SLUICE_FAULT_HANDLER_END_RESULT);
}

static gboolean
on_idle_cancel (gpointer user_data)
{
  _sluice_fault_handler_call_finish (user_data, SLUICE_FAULT_HANDLER_END_CANCELLED);
  return G_SOURCE_REMOVE;
}

static void
on_cancel_requested (SluiceAttempt *attempt,
                     guint          round,
                     gpointer       user_data)
{
  SluiceFaultCall *call = user_data;

  /* `stubborn`: ignore the first request, honour the second. The pool
   * emits this signal in the middle of its own work: finish from an idle. */
  if (round < 2 || call->idle_source != NULL || call->done)
    return;

  call->idle_source = g_idle_source_new ();
  g_source_set_priority (call->idle_source, call->priority);
  g_source_set_static_name (call->idle_source, "[sluice] stubborn gives up");
  g_source_set_callback (call->idle_source, on_idle_cancel, _sluice_fault_call_ref (call),
                         (GDestroyNotify) _sluice_fault_call_unref);
  g_source_attach (call->idle_source, call->self->context);
}

/* ---- starting each kind of attempt ------------------------------------- */

/* The timer holds no reference: every way the call ends removes it. */
static void
add_timer_at (SluiceFaultCall *call,
              gint64           deadline,
              SluiceTimerFunc  func)
{
  call->timer_id = sluice_clock_add_timer (call->self->clock, deadline, func, call, NULL);
}

static void
add_timer_in (SluiceFaultCall *call,
              double           seconds)
{
  add_timer_at (call, sluice_clock_now (call->self->clock) + sluice_time_from_seconds (seconds), on_timer);
}

typedef struct {
  SluiceFaultCall *call;   /* a reference, dropped in the main context */
  double           delay;
} ThreadJob;

static gboolean
on_thread_done (gpointer user_data)
{
  SluiceFaultCall *call = user_data;
  GCancellable *cancellable = sluice_attempt_get_cancellable (call->attempt);

  /* The thread could not be stopped; if someone asked, end cancelled now. */
  if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
    _sluice_fault_handler_call_finish (call, SLUICE_FAULT_HANDLER_END_CANCELLED);
  else
    _sluice_fault_handler_call_finish (call, SLUICE_FAULT_HANDLER_END_RESULT);

  return G_SOURCE_REMOVE;
}

static void
run_thread_job (gpointer data,
                gpointer pool_data)
{
  ThreadJob *job = data;
  SluiceFaultHandler *self = pool_data;

  g_usleep ((gulong) sluice_time_from_seconds (job->delay));

  /* Hand the call back to its main context, which completes it and drops
   * the job's reference there (the count is the main context's alone). */
  g_main_context_invoke_full (self->context, job->call->priority, on_thread_done,
                              job->call, (GDestroyNotify) _sluice_fault_call_unref);
  g_free (job);
}

static void
start_thread (SluiceFaultHandler *self,
              SluiceFaultCall    *call,
              double              delay)
{
  ThreadJob *job = g_new0 (ThreadJob, 1);

  if (self->threads == NULL)
    self->threads = g_thread_pool_new (run_thread_job, self, -1, FALSE, NULL);

  job->call = _sluice_fault_call_ref (call);
  job->delay = delay;
  g_thread_pool_push (self->threads, job, NULL);
}

static void
start_behaviour (SluiceFaultHandler *self,
                 SluiceFaultCall    *call,
                 GCancellable       *cancellable)
{
  const SluiceBehaviour *behaviour = call->behaviour;
  gint64 started_at = sluice_attempt_get_started_at (call->attempt);

  switch (behaviour->kind)
    {
    case SLUICE_BEHAVIOUR_OK:
    case SLUICE_BEHAVIOUR_FAIL:
    case SLUICE_BEHAVIOUR_FAIL_ALWAYS:
    case SLUICE_BEHAVIOUR_CANCEL_SELF:
      add_timer_in (call, behaviour->delay);
      _sluice_fault_handler_watch (call, cancellable);
      break;

    case SLUICE_BEHAVIOUR_HANG:
      _sluice_fault_handler_watch (call, cancellable);
      break;

    case SLUICE_BEHAVIOUR_LATE:
      add_timer_at (call, started_at + sluice_time_from_seconds (behaviour->delay), on_timer);
      break;

    case SLUICE_BEHAVIOUR_STUBBORN:
      add_timer_at (call, started_at + sluice_time_from_seconds (behaviour->delay), on_timer);
      call->cancel_requested_id =
        g_signal_connect_data (call->attempt, "cancel-requested",
                               G_CALLBACK (on_cancel_requested),
                               _sluice_fault_call_ref (call),
                               (GClosureNotify) (void (*) (void)) _sluice_fault_call_unref,
                               G_CONNECT_DEFAULT);
      break;

    case SLUICE_BEHAVIOUR_BLOCK:
      add_timer_at (call, sluice_clock_now (self->clock), on_block_timer);
      break;

    case SLUICE_BEHAVIOUR_THREAD:
      start_thread (self, call, behaviour->delay);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
sluice_fault_handler_handle_async (SluiceHandler       *handler,
                                   SluiceAttempt       *attempt,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  SluiceFaultHandler *self = SLUICE_FAULT_HANDLER (handler);
  SluiceFaultCall *call;

  /* The context of the first attempt is the handler's (as a task's is
   * that of its creation): its calls complete there. */
  if (self->context == NULL)
    self->context = g_main_context_ref_thread_default ();

  call = call_new (self);
  call->ref_count = 1;
  call->self = g_object_ref (self);
  call->callback = callback;
  call->user_data = user_data;
  call->priority = sluice_attempt_get_priority (attempt);
  call->cancel_link.data = call;
  call->attempt = g_object_ref (attempt);
  call->behaviour = sluice_fault_handler_get_behaviour (self, sluice_attempt_get_item_index (attempt));
  call->token = GUINT_TO_POINTER (++self->next_token);

  sluice_attempt_set_local (attempt, call->token, NULL);
  self->n_calls++;
  self->n_active++;

  /* `late` and `stubborn` return results even after a cancellation
   * request, and the pool decides what they mean. */
  if (cancellable == NULL)
    cancellable = sluice_attempt_get_cancellable (attempt);

  start_behaviour (self, call, cancellable);
}

/* Every call completed with sluice_attempt_return_result() or _error(). */
static GVariant *
sluice_fault_handler_handle_finish (SluiceHandler  *handler,
                                    GAsyncResult   *result,
                                    GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (result), NULL);

  return sluice_attempt_propagate_result (SLUICE_ATTEMPT (result), error);
}

static void
handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = sluice_fault_handler_handle_async;
  iface->handle_finish = sluice_fault_handler_handle_finish;
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_fault_handler_finalize (GObject *object)
{
  SluiceFaultHandler *self = SLUICE_FAULT_HANDLER (object);

  /* Every job holds a reference on us through its call: none is left. */
  if (self->threads != NULL)
    g_thread_pool_free (self->threads, FALSE, TRUE);

  _sluice_fault_handler_clear_watches (self);
  free_calls_clear (self);

  g_clear_object (&self->clock);
  g_clear_pointer (&self->default_behaviour, sluice_behaviour_free);
  g_clear_pointer (&self->items, g_hash_table_unref);
  g_clear_pointer (&self->mix, g_ptr_array_unref);
  g_clear_pointer (&self->rand, g_rand_free);
  g_clear_pointer (&self->draws, g_array_unref);

  G_OBJECT_CLASS (sluice_fault_handler_parent_class)->finalize (object);
}

static void
sluice_fault_handler_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SluiceFaultHandler *self = SLUICE_FAULT_HANDLER (object);

  switch (prop_id)
    {
    case PROP_CLOCK:
      g_value_set_object (value, self->clock);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_fault_handler_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  SluiceFaultHandler *self = SLUICE_FAULT_HANDLER (object);

  switch (prop_id)
    {
    case PROP_CLOCK:
      self->clock = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_fault_handler_class_init (SluiceFaultHandlerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_fault_handler_finalize;
  object_class->get_property = sluice_fault_handler_get_property;
  object_class->set_property = sluice_fault_handler_set_property;

  /**
   * SluiceFaultHandler:clock:
   *
   * The clock every delay of the handler runs on: give it the pool's.
   */
  properties [PROP_CLOCK] =
    g_param_spec_object ("clock", NULL, NULL,
                         SLUICE_TYPE_CLOCK,
                         (G_PARAM_READWRITE |
                          G_PARAM_CONSTRUCT_ONLY |
                          G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_fault_handler_init (SluiceFaultHandler *self)
{
  self->default_behaviour = sluice_behaviour_new (SLUICE_BEHAVIOUR_OK, 0);
  self->items = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                       g_free, (GDestroyNotify) sluice_behaviour_free);
  self->draws = g_array_new (FALSE, FALSE, sizeof (guint));
  self->ctx_ok = TRUE;
  _sluice_fault_handler_init_watches (self);
}

/* ---- public API -------------------------------------------------------- */

/**
 * sluice_fault_handler_new:
 * @clock: the clock of the pool that will call the handler
 * @default_behaviour: (nullable): the behaviour of every item not named
 *   otherwise; %NULL for `ok`
 *
 * Creates a fault-injecting handler.
 *
 * Returns: (transfer full): a new #SluiceFaultHandler
 */
SluiceFaultHandler *
sluice_fault_handler_new (SluiceClock           *clock,
                          const SluiceBehaviour *default_behaviour)
{
  SluiceFaultHandler *self;

  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);

  self = g_object_new (SLUICE_TYPE_FAULT_HANDLER, "clock", clock, NULL);
  if (default_behaviour != NULL)
    {
      sluice_behaviour_free (self->default_behaviour);
      self->default_behaviour = sluice_behaviour_copy (default_behaviour);
    }

  return self;
}

/**
 * sluice_fault_handler_get_clock:
 * @self: a #SluiceFaultHandler
 *
 * Returns: (transfer none): the clock of the handler's delays
 */
SluiceClock *
sluice_fault_handler_get_clock (SluiceFaultHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_FAULT_HANDLER (self), NULL);

  return self->clock;
}

/**
 * sluice_fault_handler_set_item_behaviour:
 * @self: a #SluiceFaultHandler
 * @item_index: an item index, in pull order
 * @behaviour: the behaviour of that item (copied)
 *
 * Gives one item a behaviour of its own (the scenario's `item.N`).
 */
void
sluice_fault_handler_set_item_behaviour (SluiceFaultHandler    *self,
                                         gint64                 item_index,
                                         const SluiceBehaviour *behaviour)
{
  g_return_if_fail (SLUICE_IS_FAULT_HANDLER (self));
  g_return_if_fail (item_index >= 0);
  g_return_if_fail (behaviour != NULL);

  g_hash_table_replace (self->items, g_memdup2 (&item_index, sizeof item_index),
                        sluice_behaviour_copy (behaviour));
}

/**
 * sluice_fault_handler_set_mix:
 * @self: a #SluiceFaultHandler
 * @entries: (element-type SluiceMixEntry) (nullable): the weighted
 *   behaviours, or %NULL for no mix
 * @seed: the seed of the random generator
 *
 * Draws the behaviour of every item not named by
 * sluice_fault_handler_set_item_behaviour() from @entries, with
 * probabilities proportional to their weights. There is one draw per item
 * index, in index order, named items included, so a run is reproducible.
 */
void
sluice_fault_handler_set_mix (SluiceFaultHandler *self,
                              GPtrArray          *entries,
                              guint32             seed)
{
  g_return_if_fail (SLUICE_IS_FAULT_HANDLER (self));

  g_clear_pointer (&self->mix, g_ptr_array_unref);
  g_clear_pointer (&self->rand, g_rand_free);
  g_array_set_size (self->draws, 0);
  self->mix_total = 0;

  if (entries == NULL || entries->len == 0)
    return;

  self->mix = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_mix_entry_free);
  for (guint i = 0; i < entries->len; i++)
    {
      const SluiceMixEntry *entry = g_ptr_array_index (entries, i);
      SluiceMixEntry *copy = g_new0 (SluiceMixEntry, 1);

      g_return_if_fail (entry->weight > 0);
      copy->weight = entry->weight;
      copy->behaviour = sluice_behaviour_copy (entry->behaviour);
      self->mix_total += entry->weight;
      g_ptr_array_add (self->mix, copy);
    }

  /* MT19937 with init_by_array ({seed}), as docs/scenario-format.md specifies:
   * the same stream as Python's random.Random (seed). */
  self->rand = g_rand_new_with_seed_array (&seed, 1);
}

/* One 32-bit draw u; r = u · total / 2³², in doubles; the first entry
 * whose running weight sum exceeds r. */
static guint
draw_mix_entry (SluiceFaultHandler *self)
{
  double x = (double) g_rand_int (self->rand) * self->mix_total / 4294967296.0;
  double sum = 0;

  for (guint i = 0; i < self->mix->len; i++)
    {
      const SluiceMixEntry *entry = g_ptr_array_index (self->mix, i);

      sum += entry->weight;
      if (x < sum)
        return i;
    }

  return self->mix->len - 1;
}

/**
 * sluice_fault_handler_get_behaviour:
 * @self: a #SluiceFaultHandler
 * @item_index: an item index, in pull order
 *
 * The behaviour of an item: its own, else one drawn from the mix, else the
 * default.
 *
 * Returns: (transfer none): the behaviour
 */
const SluiceBehaviour *
sluice_fault_handler_get_behaviour (SluiceFaultHandler *self,
                                    gint64              item_index)
{
  const SluiceBehaviour *own;

  g_return_val_if_fail (SLUICE_IS_FAULT_HANDLER (self), NULL);
  g_return_val_if_fail (item_index >= 0, NULL);

  if (self->mix != NULL)
    while ((gint64) self->draws->len <= item_index)
      {
        guint entry = draw_mix_entry (self);
        g_array_append_val (self->draws, entry);
      }

  /* Most scenarios name no item: no hash and lookup per attempt then. */
  own = g_hash_table_size (self->items) > 0 ? g_hash_table_lookup (self->items, &item_index) : NULL;
  if (own != NULL)
    return own;

  if (self->mix != NULL)
    {
      guint entry = g_array_index (self->draws, guint, item_index);
      return ((SluiceMixEntry *) g_ptr_array_index (self->mix, entry))->behaviour;
    }

  return self->default_behaviour;
}

/**
 * sluice_fault_handler_get_ctx_ok:
 * @self: a #SluiceFaultHandler
 *
 * Returns: %TRUE if every finished attempt read back its own attempt-local
 *   value
 */
gboolean
sluice_fault_handler_get_ctx_ok (SluiceFaultHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_FAULT_HANDLER (self), FALSE);

  return self->ctx_ok;
}

/**
 * sluice_fault_handler_get_n_calls:
 * @self: a #SluiceFaultHandler
 *
 * Returns: how many attempts the handler started
 */
guint
sluice_fault_handler_get_n_calls (SluiceFaultHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_FAULT_HANDLER (self), 0);

  return self->n_calls;
}

/**
 * sluice_fault_handler_get_n_active:
 * @self: a #SluiceFaultHandler
 *
 * Returns: how many attempts started and have not completed yet
 */
guint
sluice_fault_handler_get_n_active (SluiceFaultHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_FAULT_HANDLER (self), 0);

  return self->n_active;
}
