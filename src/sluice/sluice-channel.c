/* sluice-channel.c: a FIFO on GAsyncQueue with async put/get and a shutdown lifecycle
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-channel-waiter-private.h"
#include "sluice-error.h"

/**
 * SluiceChannel:
 *
 * A first-in first-out channel of items, modelled on Python's
 * `asyncio.Queue` with `shutdown()`.
 *
 * Items are non-%NULL pointers kept in a #GAsyncQueue. A channel has a
 * capacity (0 means unbounded); sluice_channel_put_async() waits while the
 * channel is full and sluice_channel_get_async() waits while it is empty.
 * Waiting getters and waiting putters are each served in the order they
 * started waiting.
 *
 * Every accepted item counts as unfinished until sluice_channel_task_done()
 * is called for it; sluice_channel_join_async() waits for that count to
 * reach zero.
 *
 * sluice_channel_shutdown() stops new puts. A graceful shutdown lets getters
 * drain the stored items first; an immediate one drops them.
 *
 * A channel belongs to the thread-default #GMainContext of the thread that
 * created it, and all its asynchronous operations complete there. Apart from
 * sluice_channel_push(), which may be called from any thread, every function
 * must be called from the thread that owns that context.
 *
 * Since: 0.1
 */

G_DEFINE_FINAL_TYPE (SluiceChannel, sluice_channel, G_TYPE_OBJECT)

static gboolean
wake_for_push_cb (gpointer user_data)
{
  SluiceChannel *self = user_data;

  /* Cleared before balancing: an item pushed from now on schedules
   * another wake, and one pushed earlier is seen below. */
  g_atomic_int_set (&self->wake_pending, FALSE);
  _sluice_channel_balance (self);

  return G_SOURCE_REMOVE;
}

static void
sluice_channel_finalize (GObject *object)
{
  SluiceChannel *self = SLUICE_CHANNEL (object);

  _sluice_channel_waiters_finalize (self);

  /* Frees the items left over with item_free. */
  g_clear_pointer (&self->queue, g_async_queue_unref);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (sluice_channel_parent_class)->finalize (object);
}

static void
sluice_channel_class_init (SluiceChannelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_channel_finalize;
}

static void
sluice_channel_init (SluiceChannel *self)
{
  self->context = g_main_context_ref_thread_default ();
  self->priority = G_PRIORITY_DEFAULT;
  _sluice_channel_waiters_init (self);
}

/**
 * sluice_channel_new:
 * @capacity: the most items the channel stores, or 0 for no limit; at
 *   most %G_MAXINT
 * @item_free: (nullable): frees an item the channel drops itself, on an
 *   immediate shutdown or when finalized with items left
 *
 * Creates a channel that belongs to the thread-default main context of
 * the calling thread.
 *
 * Returns: (transfer full): a new #SluiceChannel
 *
 * Since: 0.1
 */
SluiceChannel *
sluice_channel_new (guint          capacity,
                    GDestroyNotify item_free)
{
  SluiceChannel *self;

  /* The queue's length is a gint. */
  g_return_val_if_fail (capacity <= G_MAXINT, NULL);

  self = g_object_new (SLUICE_TYPE_CHANNEL, NULL);
  self->capacity = capacity;
  self->item_free = item_free;
  self->queue = g_async_queue_new_full (item_free);

  return self;
}

/**
 * sluice_channel_get_capacity:
 * @self: a #SluiceChannel
 *
 * Gets the capacity the channel was created with.
 *
 * Returns: the most items @self stores, or 0 if unbounded
 *
 * Since: 0.1
 */
guint
sluice_channel_get_capacity (SluiceChannel *self)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), 0);

  return self->capacity;
}

/**
 * sluice_channel_get_length:
 * @self: a #SluiceChannel
 *
 * Gets the number of items stored in the channel. Items handed straight
 * to a waiting getter are never stored.
 *
 * Returns: the number of stored items
 *
 * Since: 0.1
 */
guint
sluice_channel_get_length (SluiceChannel *self)
{
  gint length;

  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), 0);

  length = g_atomic_int_get (&self->n_stored);

  return MAX (length, 0);
}

/**
 * sluice_channel_get_n_waiting:
 * @self: a #SluiceChannel
 *
 * Gets the number of operations waiting on the channel: getters waiting
 * for an item plus putters waiting for room. Operations whose cancellable
 * has been cancelled are not counted.
 *
 * Returns: the number of waiting getters and putters
 *
 * Since: 0.1
 */
guint
sluice_channel_get_n_waiting (SluiceChannel *self)
{
  GQueue *queues[2];
  guint n = 0;

  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), 0);

  queues[0] = &self->getters;
  queues[1] = &self->putters;

  for (guint i = 0; i < G_N_ELEMENTS (queues); i++)
    for (GList *l = queues[i]->head; l != NULL; l = l->next)
      if (!_sluice_waiter_is_cancelled (l->data))
        n++;

  return n;
}

/**
 * sluice_channel_is_shutdown:
 * @self: a #SluiceChannel
 *
 * Gets whether sluice_channel_shutdown() has been called. Safe to call
 * from any thread.
 *
 * Returns: %TRUE if @self is shut down
 *
 * Since: 0.1
 */
gboolean
sluice_channel_is_shutdown (SluiceChannel *self)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), FALSE);

  return g_atomic_int_get (&self->shutdown);
}

/**
 * sluice_channel_put_async:
 * @self: a #SluiceChannel
 * @item: (not nullable) (transfer full): the item to put
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the put is done
 * @user_data: data for @callback
 *
 * Puts @item at the tail of the channel. If a getter is waiting, @item
 * goes straight to the oldest one; otherwise it is stored if there is
 * room, or the put waits for room behind any earlier waiting putters.
 *
 * The put fails with %SLUICE_ERROR_CLOSED if the channel is or becomes
 * shut down before @item is accepted, and with %G_IO_ERROR_CANCELLED if
 * @cancellable is cancelled first. On failure @item is not taken and
 * still belongs to the caller.
 *
 * Each accepted item adds one to the unfinished count.
 *
 * Since: 0.1
 */
static void
put_start (SluiceChannel *self,
           SluiceWaiter  *w,
           gpointer       item,
           GCancellable  *cancellable)
{
  GError *error = NULL;

  /* Given back on failure, to a put func. */
  w->item = item;

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      _sluice_waiter_complete (self, w, error);
      return;
    }

  if (g_atomic_int_get (&self->shutdown))
    {
      _sluice_waiter_fail_closed (self, w);
      return;
    }

  if (_sluice_channel_offer (self, item))
    {
      w->item = NULL;
      _sluice_waiter_complete (self, w, NULL);
      _sluice_waiter_accepted (self, w);
      return;
    }

  _sluice_waiter_wait (self, w, &self->putters);
}

void
sluice_channel_put_async (SluiceChannel       *self,
                          gpointer             item,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  g_return_if_fail (item != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  w = _sluice_waiter_new_task (self, WAITER_PUT, cancellable,
                               sluice_channel_put_async, "[sluice] channel put",
                               callback, user_data);
  put_start (self, w, item, cancellable);
}

/*
 * _sluice_channel_put_with_func:
 * @self: a #SluiceChannel
 * @item: the item
 * @cancellable: (nullable): a #GCancellable
 * @accepted: called at the moment the channel takes @item
 * @accepted_data: data for @accepted
 * @done: called where a put's task would have been returned: with %NULL
 *   and no error once @item was accepted, or with @item given back and the
 *   error
 * @user_data: data for @done
 *
 * Like sluice_channel_put_async(), with the same order and the same
 * outcomes, without a #GTask; and tells @accepted when @item goes in: a
 * run's producer reports its queue-put then, in order with the get that
 * made room, rather than a main-loop turn later.
 */
void
_sluice_channel_put_with_func (SluiceChannel           *self,
                               gpointer                 item,
                               GCancellable            *cancellable,
                               SluiceChannelAcceptFunc  accepted,
                               gpointer                 accepted_data,
                               SluiceChannelGetFunc     done,
                               gpointer                 user_data)
{
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  g_return_if_fail (item != NULL);
  g_return_if_fail (accepted != NULL);
  g_return_if_fail (done != NULL);

  /* Dropped once @done has been called, as a task's ref would be. */
  g_object_ref (self);
  w = _sluice_waiter_new (self, WAITER_PUT, cancellable);
  w->func = done;
  w->func_data = user_data;
  w->accepted = accepted;
  w->accepted_data = accepted_data;
  put_start (self, w, item, cancellable);
}

/**
 * sluice_channel_put_finish:
 * @self: a #SluiceChannel
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Finishes a sluice_channel_put_async().
 *
 * Returns: %TRUE if the item was accepted, %FALSE with @error set if not
 *   (the item then still belongs to the caller)
 *
 * Since: 0.1
 */
gboolean
sluice_channel_put_finish (SluiceChannel  *self,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sluice_channel_put_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * sluice_channel_try_put:
 * @self: a #SluiceChannel
 * @item: (not nullable): the item to put; taken only on success
 * @error: return location for a #GError, or %NULL
 *
 * Puts @item without waiting: it goes to the oldest waiting getter, or is
 * stored if there is room and no putter is waiting.
 *
 * Fails with %G_IO_ERROR_WOULD_BLOCK if the channel is full, or with
 * %SLUICE_ERROR_CLOSED if it is shut down.
 *
 * Returns: %TRUE if @item was accepted (ownership passes to the channel),
 *   %FALSE with @error set if not
 *
 * Since: 0.1
 */
gboolean
sluice_channel_try_put (SluiceChannel  *self,
                        gpointer        item,
                        GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_atomic_int_get (&self->shutdown))
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                           "channel is shut down");
      return FALSE;
    }

  if (_sluice_channel_offer (self, item))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK,
                       "channel is full");
  return FALSE;
}

/**
 * sluice_channel_push:
 * @self: a #SluiceChannel
 * @item: (not nullable): the item to push; taken only on success
 *
 * Stores @item if the channel is open and has room, without waiting.
 * Unlike the other functions this one may be called from any thread;
 * waiting getters receive the item on the channel's main context.
 *
 * A push does not queue behind putters waiting in
 * sluice_channel_put_async(): it only needs a free slot.
 *
 * Returns: %TRUE if @item was accepted (ownership passes to the channel),
 *   %FALSE if the channel is shut down or full
 *
 * Since: 0.1
 */
gboolean
sluice_channel_push (SluiceChannel *self,
                     gpointer       item)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);

  if (!_sluice_channel_try_enqueue (self, item))
    return FALSE;

  /* One wake at a time is enough: it hands over everything stored. */
  if (g_atomic_int_compare_and_exchange (&self->wake_pending, FALSE, TRUE))
    {
      GSource *source = g_idle_source_new ();

      g_source_set_priority (source, self->priority);
      g_source_set_static_name (source, "[sluice] channel push");
      g_source_set_callback (source, wake_for_push_cb,
                             g_object_ref (self), g_object_unref);
      g_source_attach (source, self->context);
      g_source_unref (source);
    }

  return TRUE;
}

/* The part of a get that does not depend on how @w is completed. */
static void
get_start (SluiceChannel *self,
           SluiceWaiter  *w)
{
  GError *error = NULL;
  gpointer item;

  if (g_cancellable_set_error_if_cancelled (w->cancellable, &error))
    {
      _sluice_waiter_complete (self, w, error);
      return;
    }

  if ((item = _sluice_channel_take (self)) != NULL)
    {
      w->item = item;
      _sluice_waiter_complete (self, w, NULL);
      _sluice_channel_balance (self);
      return;
    }

  if (g_atomic_int_get (&self->shutdown))
    {
      _sluice_waiter_fail_closed (self, w);
      return;
    }

  _sluice_waiter_wait (self, w, &self->getters);
}

/**
 * sluice_channel_get_async:
 * @self: a #SluiceChannel
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the get is done
 * @user_data: data for @callback
 *
 * Takes the item at the head of the channel. If the channel is empty the
 * get waits, behind any earlier waiting getters, for an item.
 *
 * Once the channel is shut down, gets still receive the stored items and
 * then fail with %SLUICE_ERROR_CLOSED. A get fails with
 * %G_IO_ERROR_CANCELLED if @cancellable is cancelled before it receives an
 * item; no item is lost then.
 *
 * Since: 0.1
 */
void
sluice_channel_get_async (SluiceChannel       *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  w = _sluice_waiter_new_task (self, WAITER_GET, cancellable,
                               sluice_channel_get_async, "[sluice] channel get",
                               callback, user_data);
  get_start (self, w);
}

/*
 * _sluice_channel_get_with_func:
 * @self: a #SluiceChannel
 * @cancellable: (nullable): a #GCancellable
 * @func: called with the item or the error
 * @user_data: data for @func
 *
 * Like sluice_channel_get_async(), with the same order and the same
 * outcomes, but @func is called where the task would have been returned:
 * a run's workers get every item this way, and a #GTask per item was a
 * large part of an item's cost.
 */
void
_sluice_channel_get_with_func (SluiceChannel        *self,
                               GCancellable         *cancellable,
                               SluiceChannelGetFunc  func,
                               gpointer              user_data)
{
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (func != NULL);

  /* Dropped once @func has been called, as a task's ref would be. */
  g_object_ref (self);
  w = _sluice_waiter_new (self, WAITER_GET, cancellable);
  w->func = func;
  w->func_data = user_data;
  get_start (self, w);
}

/**
 * sluice_channel_get_finish:
 * @self: a #SluiceChannel
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Finishes a sluice_channel_get_async().
 *
 * Returns: (transfer full) (nullable): the item, or %NULL with @error set
 *
 * Since: 0.1
 */
gpointer
sluice_channel_get_finish (SluiceChannel  *self,
                           GAsyncResult   *result,
                           GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sluice_channel_get_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sluice_channel_try_get:
 * @self: a #SluiceChannel
 * @error: return location for a #GError, or %NULL
 *
 * Takes the item at the head of the channel without waiting.
 *
 * Fails with %G_IO_ERROR_WOULD_BLOCK if the channel is empty, or with
 * %SLUICE_ERROR_CLOSED if it is empty and shut down.
 *
 * Returns: (transfer full) (nullable): the item, or %NULL with @error set
 *
 * Since: 0.1
 */
gpointer
sluice_channel_try_get (SluiceChannel  *self,
                        GError        **error)
{
  gpointer item;

  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((item = _sluice_channel_take (self)) != NULL)
    {
      _sluice_channel_balance (self);
      return item;
    }

  if (g_atomic_int_get (&self->shutdown))
    g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                         "channel is shut down");
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK,
                         "channel is empty");

  return NULL;
}

/**
 * sluice_channel_shutdown:
 * @self: a #SluiceChannel
 * @immediate: whether to drop the stored items
 *
 * Shuts the channel down. From now on every put and push fails, and
 * putters that are waiting fail with %SLUICE_ERROR_CLOSED, keeping their
 * items. Getters receive the stored items and then fail with
 * %SLUICE_ERROR_CLOSED.
 *
 * If @immediate is %TRUE the stored items are dropped instead (freed with
 * the channel's item_free), and the unfinished count is lowered by their
 * number, which may complete sluice_channel_join_async().
 *
 * A graceful shutdown may be followed by an immediate one; shutting down
 * again otherwise does nothing.
 *
 * Since: 0.1
 */
void
sluice_channel_shutdown (SluiceChannel *self,
                         gboolean       immediate)
{
  g_autoptr(GPtrArray) dropped = NULL;
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));

  if (immediate)
    dropped = g_ptr_array_new_with_free_func (self->item_free);

  /* Under the lock so that no push lands after the flag is seen set. */
  g_async_queue_lock (self->queue);
  g_atomic_int_set (&self->shutdown, TRUE);

  if (immediate)
    {
      gpointer item;

      while ((item = g_async_queue_try_pop_unlocked (self->queue)) != NULL)
        g_ptr_array_add (dropped, item);
      g_atomic_int_set (&self->n_stored, 0);
    }

  g_async_queue_unlock (self->queue);

  while ((w = g_queue_peek_head (&self->putters)) != NULL)
    _sluice_waiter_fail_closed (self, w);

  /* Hand over what a push stored but no wake delivered yet; after this
   * the queue is empty if any getter is left. */
  _sluice_channel_balance (self);

  while ((w = g_queue_peek_head (&self->getters)) != NULL)
    {
      if (_sluice_waiter_is_cancelled (w))
        _sluice_waiter_fail_cancelled (self, w);
      else
        _sluice_waiter_fail_closed (self, w);
    }

  if (dropped != NULL && dropped->len > 0)
    {
      gint n = (gint) dropped->len;

      /* Freed outside the lock: item_free may do anything. */
      g_clear_pointer (&dropped, g_ptr_array_unref);

      if (g_atomic_int_add (&self->unfinished, -n) == n)
        _sluice_channel_wake_joiners (self);
    }
}

/**
 * sluice_channel_task_done:
 * @self: a #SluiceChannel
 *
 * Tells the channel that the work on one item taken from it is done,
 * lowering the unfinished count. When it reaches zero, every pending
 * sluice_channel_join_async() completes.
 *
 * It is a programming error to call this more often than items were
 * accepted.
 *
 * Since: 0.1
 */
void
sluice_channel_task_done (SluiceChannel *self)
{
  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  /* Only this thread lowers the count, so it cannot drop between the
   * check and the decrement. */
  g_return_if_fail (g_atomic_int_get (&self->unfinished) > 0);

  if (g_atomic_int_dec_and_test (&self->unfinished))
    _sluice_channel_wake_joiners (self);
}

/**
 * sluice_channel_get_unfinished:
 * @self: a #SluiceChannel
 *
 * Gets the number of accepted items for which sluice_channel_task_done()
 * has not been called yet (minus the items an immediate shutdown dropped).
 *
 * Returns: the unfinished count
 *
 * Since: 0.1
 */
guint
sluice_channel_get_unfinished (SluiceChannel *self)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), 0);

  return (guint) g_atomic_int_get (&self->unfinished);
}

/**
 * sluice_channel_join_async:
 * @self: a #SluiceChannel
 * @cancellable: (nullable): a #GCancellable
 * @callback: (scope async): called when the unfinished count is zero
 * @user_data: data for @callback
 *
 * Waits until every accepted item has been marked done with
 * sluice_channel_task_done() (or dropped by an immediate shutdown).
 * Completes at once if the unfinished count is already zero, and fails
 * with %G_IO_ERROR_CANCELLED if @cancellable is cancelled first.
 *
 * Since: 0.1
 */
void
sluice_channel_join_async (SluiceChannel       *self,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GError *error = NULL;
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  w = _sluice_waiter_new_task (self, WAITER_JOIN, cancellable,
                               sluice_channel_join_async, "[sluice] channel join",
                               callback, user_data);

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    _sluice_waiter_complete (self, w, error);
  else if (g_atomic_int_get (&self->unfinished) == 0)
    _sluice_waiter_complete (self, w, NULL);
  else
    _sluice_waiter_wait (self, w, &self->joiners);
}

/**
 * sluice_channel_join_finish:
 * @self: a #SluiceChannel
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError, or %NULL
 *
 * Finishes a sluice_channel_join_async().
 *
 * Returns: %TRUE once the unfinished count reached zero, %FALSE with
 *   @error set if the join was cancelled
 *
 * Since: 0.1
 */
gboolean
sluice_channel_join_finish (SluiceChannel  *self,
                            GAsyncResult   *result,
                            GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sluice_channel_join_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/*
 * _sluice_channel_set_priority:
 *
 * Sets the main-loop priority of the channel's completions, cancellation
 * watches and wake-ups: a run's, from its clock.
 */
void
_sluice_channel_set_priority (SluiceChannel *self,
                              gint           priority)
{
  self->priority = priority;
  g_source_set_priority (self->flush_source, priority);
}
