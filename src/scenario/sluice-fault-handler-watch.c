/* sluice-fault-handler-watch.c: the fault handler's watch on its attempts'
 * cancellables, without a source per attempt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-fault-handler-private.h"

/* An attempt that honours cancellation (ok, fail, hang, cancel-self) ends
 * cancelled once its cancellable fires. A g_cancellable_source_new() per
 * attempt did that, but every main-loop turn walks every attached source:
 * at 10,000 attempts in flight each turn cost 10,000 checks. Instead each
 * attempt hears its cancellation; the handler, which may run in any thread
 * (and at once for a cancellable already cancelled), queues the call; one
 * source of the handler's takes the queue when the main loop prepares or
 * checks it, exactly when the attempts' own sources would have been found
 * ready, and ends those calls in the order the attempts started, the order
 * their sources had.
 *
 * The attempt's own cancellable, which only the pool cancels, is heard
 * through the attempt's cancel function (sluice_attempt_set_cancel_func()):
 * two stores per attempt. A connection to it, its lock and closure made and
 * dropped for every attempt, was a tenth of the runner's time, and left the
 * cancellable unfit for the next attempt. Any other cancellable a caller
 * gives is connected to. */

void
_sluice_fault_handler_init_watches (SluiceFaultHandler *self)
{
  g_mutex_init (&self->cancel_lock);
  g_queue_init (&self->cancelled);
  self->due = g_ptr_array_new_with_free_func ((GDestroyNotify) _sluice_fault_call_unref);
}

void
_sluice_fault_handler_clear_watches (SluiceFaultHandler *self)
{
  /* Every call holds the handler: none is left, nor queued. */
  g_assert (g_queue_is_empty (&self->cancelled));
  if (self->cancel_source != NULL)
    g_source_destroy (self->cancel_source);
  g_clear_pointer (&self->cancel_source, g_source_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->due, g_ptr_array_unref);
  g_mutex_clear (&self->cancel_lock);
}

/* Stops watching the cancellable: after this its handler cannot run, and
 * a cancellation that came meanwhile no longer ends the call. Never from
 * inside the cancellable's handler, where g_cancellable_disconnect() would
 * wait for itself. */
void
_sluice_fault_handler_unwatch (SluiceFaultCall *call)
{
  SluiceFaultHandler *self = call->self;

  if (call->hooked)
    {
      sluice_attempt_set_cancel_func (call->attempt, NULL, NULL);
      call->hooked = FALSE;
      /* Only this thread queues a hooked call: no lock to see it is not. */
      if (!call->queued)
        return;
    }
  else if (call->cancellable != NULL)
    {
      /* Waits for a handler running in another thread; the lock is not
       * held, so that handler can finish. */
      g_cancellable_disconnect (call->cancellable, call->cancel_id);
      call->cancel_id = 0;
      g_clear_object (&call->cancellable);
    }
  else
    return;

  g_mutex_lock (&self->cancel_lock);
  if (call->queued)
    {
      g_queue_unlink (&self->cancelled, &call->cancel_link);
      g_atomic_int_add (&self->n_cancelled, -1);
      call->queued = FALSE;
    }
  g_mutex_unlock (&self->cancel_lock);
}

/* Queues @call to end cancelled: in any thread, also inside the pool's
 * own g_cancellable_cancel(), where ending it would complete its attempt. */
static void
queue_cancelled (SluiceFaultCall *call)
{
  SluiceFaultHandler *self = call->self;

  g_mutex_lock (&self->cancel_lock);
  if (!call->queued)
    {
      g_queue_push_tail_link (&self->cancelled, &call->cancel_link);
      g_atomic_int_inc (&self->n_cancelled);
      call->queued = TRUE;
    }
  g_mutex_unlock (&self->cancel_lock);

  /* The main loop checks the queue at its next turn; only a loop asleep in
   * poll needs waking, which the owner thread's never is while it runs. */
  if (!g_main_context_is_owner (self->context))
    g_main_context_wakeup (self->context);
}

/* A foreign cancellable's handler: in any thread, and at once inside
 * g_cancellable_connect() when it is already cancelled. */
static void
on_cancellable_cancelled (GCancellable *cancellable,
                          gpointer      user_data)
{
  queue_cancelled (user_data);
}

/* The attempt's cancel function: in the pool's thread, right after the
 * pool cancelled the attempt's own cancellable. */
static void
on_attempt_cancelled (SluiceAttempt *attempt,
                      gpointer       user_data)
{
  queue_cancelled (user_data);
}

/* Takes the queued calls for this turn's dispatch, as the attempts' own
 * sources would have been found ready (at prepare or check, not later). */
static gboolean
take_cancelled (SluiceFaultHandler *self)
{
  GList *link;

  if (self->due->len > 0)
    return TRUE;
  if (g_atomic_int_get (&self->n_cancelled) == 0)
    return FALSE;

  g_mutex_lock (&self->cancel_lock);
  while ((link = g_queue_pop_head_link (&self->cancelled)) != NULL)
    {
      SluiceFaultCall *call = link->data;

      call->queued = FALSE;
      /* In the main context, as every reference to a call. */
      g_ptr_array_add (self->due, _sluice_fault_call_ref (call));
    }
  g_atomic_int_set (&self->n_cancelled, 0);
  g_mutex_unlock (&self->cancel_lock);

  return self->due->len > 0;
}

typedef struct {
  GSource             source;
  SluiceFaultHandler *self;   /* not a reference: the handler destroys it */
} CancelSource;

static gboolean
cancel_source_prepare (GSource *source,
                       gint    *timeout)
{
  SluiceFaultHandler *self = ((CancelSource *) source)->self;

  *timeout = -1;
  return take_cancelled (self);
}

static gboolean
cancel_source_check (GSource *source)
{
  SluiceFaultHandler *self = ((CancelSource *) source)->self;

  return take_cancelled (self);
}

/* In the order the attempts started: the order their own sources had. */
static gint
compare_start_order (gconstpointer a,
                     gconstpointer b)
{
  const SluiceFaultCall *x = *(SluiceFaultCall **) a;
  const SluiceFaultCall *y = *(SluiceFaultCall **) b;

  return GPOINTER_TO_UINT (x->token) < GPOINTER_TO_UINT (y->token) ? -1
         : GPOINTER_TO_UINT (x->token) > GPOINTER_TO_UINT (y->token);
}

static gboolean
cancel_source_dispatch (GSource     *source,
                        GSourceFunc  callback,
                        gpointer     user_data)
{
  g_autoptr(SluiceFaultHandler) self = g_object_ref (((CancelSource *) source)->self);
  g_autoptr(GPtrArray) due = g_steal_pointer (&self->due);

  self->due = g_ptr_array_new_with_free_func ((GDestroyNotify) _sluice_fault_call_unref);
  g_ptr_array_sort (due, compare_start_order);

  /* A call that ended otherwise meanwhile is done, and stays as it is. */
  for (guint i = 0; i < due->len; i++)
    _sluice_fault_handler_call_finish (g_ptr_array_index (due, i), SLUICE_FAULT_HANDLER_END_CANCELLED);

  return G_SOURCE_CONTINUE;
}

static GSourceFuncs cancel_source_funcs = {
  cancel_source_prepare, cancel_source_check, cancel_source_dispatch, NULL, NULL, NULL,
};

/* The handler's one source, attached with its first watch: after the
 * pool's own long-lived sources, as the first attempt's source was. */
static void
ensure_cancel_source (SluiceFaultHandler *self,
                      gint                priority)
{
  if (self->cancel_source != NULL)
    return;

  self->cancel_source = g_source_new (&cancel_source_funcs, sizeof (CancelSource));
  ((CancelSource *) self->cancel_source)->self = self;
  /* The pool's priority: its work keeps one order whatever it is. */
  g_source_set_priority (self->cancel_source, priority);
  g_source_set_static_name (self->cancel_source, "[sluice] fault handler cancelled");
  g_source_attach (self->cancel_source, self->context);
}

/* Ends the attempt of @call cancelled, from the main context, once
 * @cancellable fires (at once if it has). The watch holds no reference:
 * a call is not completed without being unwatched first. */
void
_sluice_fault_handler_watch (SluiceFaultCall *call,
                             GCancellable    *cancellable)
{
  SluiceFaultHandler *self = call->self;

  if (cancellable == NULL)
    return;

  ensure_cancel_source (self, call->priority);

  if (cancellable == sluice_attempt_get_cancellable (call->attempt) &&
      sluice_attempt_set_cancel_func (call->attempt, on_attempt_cancelled, call))
    {
      call->hooked = TRUE;
      /* A request made before the watch, as g_cancellable_connect() would
       * have heard it at once. */
      if (g_cancellable_is_cancelled (cancellable))
        queue_cancelled (call);
      return;
    }

  call->cancellable = g_object_ref (cancellable);
  /* No destroy notify: call_unwatch() disconnects before the call goes. */
  call->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_cancellable_cancelled), call, NULL);
}
