/* sluice-channel.c: a run's FIFO of items with waiting put/get and a shutdown lifecycle
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-channel-waiter-private.h"
#include "sluice-error.h"

/*
 * SluiceChannel:
 *
 * A first-in first-out channel of items (a ring of pointers), modelled on
 * Python's `asyncio.Queue` with `shutdown()`: a run's input (its producer puts the
 * items it pulls, its workers get them) and its results. Private to the
 * engine: see sluice-channel-private.h.
 *
 * Items are non-%NULL pointers. A channel has a capacity (0 means
 * unbounded); _sluice_channel_put_with_func() waits while the channel is
 * full and _sluice_channel_get_with_func() waits while it is empty.
 * Waiting getters and waiting putters are each served in the order they
 * started waiting. sluice_channel_try_put() and sluice_channel_try_get()
 * never wait.
 *
 * sluice_channel_shutdown() stops new puts. A graceful shutdown lets getters
 * drain the stored items first; an immediate one drops them.
 *
 * A channel belongs to the thread-default #GMainContext of the thread that
 * created it: every function must be called from the thread that owns that
 * context, and waiting operations complete there.
 */

G_DEFINE_FINAL_TYPE (SluiceChannel, sluice_channel, G_TYPE_OBJECT)

static void
sluice_channel_finalize (GObject *object)
{
  SluiceChannel *self = SLUICE_CHANNEL (object);

  _sluice_channel_waiters_finalize (self);

  /* Frees the items left over with item_free. */
  while (self->n_stored > 0)
    {
      gpointer item = _sluice_channel_pop_stored (self);

      if (self->item_free != NULL)
        self->item_free (item);
    }
  g_clear_pointer (&self->ring, g_free);
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

/*
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

  return self;
}

/*
 * sluice_channel_get_capacity:
 * @self: a #SluiceChannel
 *
 * Returns: the most items @self stores, or 0 if unbounded
 */
guint
sluice_channel_get_capacity (SluiceChannel *self)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), 0);

  return self->capacity;
}

/*
 * sluice_channel_get_length:
 * @self: a #SluiceChannel
 *
 * Gets the number of items stored in the channel. Items handed straight
 * to a waiting getter are never stored.
 *
 * Returns: the number of stored items
 */
guint
sluice_channel_get_length (SluiceChannel *self)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), 0);

  return self->n_stored;
}

guint
_sluice_channel_get_length (SluiceChannel *self)
{
  return self->n_stored;
}

/* The part of a put that does not depend on how @w is completed. */
static void
put_start (SluiceChannel *self,
           SluiceWaiter  *w,
           gpointer       item,
           GCancellable  *cancellable)
{
  GError *error = NULL;

  /* Given back on failure, to the put's func. */
  w->item = item;

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      _sluice_waiter_complete (self, w, error);
      return;
    }

  if (self->shutdown)
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

/*
 * _sluice_channel_put_with_func:
 * @self: a #SluiceChannel
 * @item: (not nullable): the item
 * @cancellable: (nullable): a #GCancellable
 * @accepted: called at the moment the channel takes @item
 * @accepted_data: data for @accepted
 * @done: called with %NULL and no error once @item was accepted, or with
 *   @item given back and the error
 * @user_data: data for @done
 *
 * Puts @item at the tail of the channel. If a getter is waiting, @item
 * goes straight to the oldest one; otherwise it is stored if there is
 * room, or the put waits for room behind any earlier waiting putters.
 *
 * The put fails with %SLUICE_ERROR_CLOSED if the channel is or becomes
 * shut down before @item is accepted, and with %G_IO_ERROR_CANCELLED if
 * @cancellable is cancelled first. On failure @item is not taken: @done
 * gives it back.
 *
 * @done is called from the channel's context, never from inside this
 * call; @accepted is called when @item goes in, which may be inside this
 * call or inside the get that made room: a run's producer reports its
 * queue-put then, in order with that get, rather than a main-loop turn
 * later.
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
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (accepted != NULL);
  g_return_if_fail (done != NULL);

  w = _sluice_waiter_new (self, cancellable, done, user_data);
  w->accepted = accepted;
  w->accepted_data = accepted_data;
  put_start (self, w, item, cancellable);
}

/*
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
 */
gboolean
sluice_channel_try_put (SluiceChannel  *self,
                        gpointer        item,
                        GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_CHANNEL (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->shutdown)
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

/*
 * _sluice_channel_get_with_func:
 * @self: a #SluiceChannel
 * @cancellable: (nullable): a #GCancellable
 * @func: called with the item or the error
 * @user_data: data for @func
 *
 * Takes the item at the head of the channel. If the channel is empty the
 * get waits, behind any earlier waiting getters, for an item.
 *
 * Once the channel is shut down, gets still receive the stored items and
 * then fail with %SLUICE_ERROR_CLOSED. A get fails with
 * %G_IO_ERROR_CANCELLED if @cancellable is cancelled before it receives an
 * item; no item is lost then.
 *
 * @func is called from the channel's context, never from inside this call.
 * A run's workers get every item this way: a #GTask per item was a large
 * part of an item's cost.
 */
void
_sluice_channel_get_with_func (SluiceChannel        *self,
                               GCancellable         *cancellable,
                               SluiceChannelGetFunc  func,
                               gpointer              user_data)
{
  GError *error = NULL;
  SluiceWaiter *w;
  gpointer item;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (func != NULL);

  w = _sluice_waiter_new (self, cancellable, func, user_data);

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
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

  if (self->shutdown)
    {
      _sluice_waiter_fail_closed (self, w);
      return;
    }

  _sluice_waiter_wait (self, w, &self->getters);
}

/*
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

  if (self->shutdown)
    g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                         "channel is shut down");
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK,
                         "channel is empty");

  return NULL;
}

/*
 * sluice_channel_shutdown:
 * @self: a #SluiceChannel
 * @immediate: whether to drop the stored items
 *
 * Shuts the channel down. From now on every put fails, and putters that
 * are waiting fail with %SLUICE_ERROR_CLOSED, keeping their items.
 * Getters receive the stored items and then fail with
 * %SLUICE_ERROR_CLOSED.
 *
 * If @immediate is %TRUE the stored items are dropped instead (freed with
 * the channel's item_free).
 *
 * A graceful shutdown may be followed by an immediate one; shutting down
 * again otherwise does nothing.
 */
void
sluice_channel_shutdown (SluiceChannel *self,
                         gboolean       immediate)
{
  g_autoptr(GPtrArray) dropped = NULL;
  SluiceWaiter *w;

  g_return_if_fail (SLUICE_IS_CHANNEL (self));

  self->shutdown = TRUE;

  /* Set aside, and freed last: item_free may do anything, the channel's
   * state is settled by then. */
  if (immediate)
    {
      dropped = g_ptr_array_new_with_free_func (self->item_free);
      while (self->n_stored > 0)
        g_ptr_array_add (dropped, _sluice_channel_pop_stored (self));
    }

  while ((w = g_queue_peek_head (&self->putters)) != NULL)
    _sluice_waiter_fail_closed (self, w);

  /* Hand over what is stored to the getters that can take it; after this
   * the channel is empty if any getter is left. */
  _sluice_channel_balance (self);

  while ((w = g_queue_peek_head (&self->getters)) != NULL)
    {
      if (_sluice_waiter_is_cancelled (w))
        _sluice_waiter_fail_cancelled (self, w);
      else
        _sluice_waiter_fail_closed (self, w);
    }

  g_clear_pointer (&dropped, g_ptr_array_unref);
}

/*
 * _sluice_channel_set_priority:
 *
 * Sets the main-loop priority of the channel's completions and
 * cancellation watches: a run's, from its clock.
 */
void
_sluice_channel_set_priority (SluiceChannel *self,
                              gint           priority)
{
  self->priority = priority;
  g_source_set_priority (self->flush_source, priority);
}
