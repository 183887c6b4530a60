/* sluice-channel-waiter.c: a channel's pending operations: parking, cancelling, serving, completing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-channel-waiter-private.h"
#include "sluice-error.h"

#include <string.h>

/* One cancellable source per (channel, cancellable), shared by every waiter
 * with that cancellable: a source per waiter made every main-loop turn cost
 * O(waiting workers). */
struct _SluiceCancelWatch
{
  SluiceChannel *self;
  GCancellable  *cancellable;   /* owned */
  GSource       *source;        /* owned */
  guint          n_waiters;
};

/* ---- completion -------------------------------------------------------- */

typedef struct
{
  GSource        parent;
  SluiceChannel *channel;       /* unowned: the channel destroys the source */
} SluiceFlushSource;

/* How many completed waiters a channel keeps: as many as wait at once in
 * the usual run (a worker each), within reason. */
#define SPARE_WAITERS 256

/* Keeps a completed waiter for a later wait, or frees it. */
static void
release_waiter (SluiceChannel *self,
                SluiceWaiter  *w)
{
  if (self->n_spare_waiters >= SPARE_WAITERS)
    {
      g_free (w);
      return;
    }
  w->link.next = (GList *) self->spare_waiters;
  self->spare_waiters = w;
  self->n_spare_waiters++;
}

static gboolean
flush_completed_cb (gpointer user_data)
{
  g_autoptr(SluiceChannel) self = g_object_ref (user_data);
  GList *link;

  /* Callbacks run here may start or complete more operations; the loop
   * picks those up too, in order. */
  while ((link = g_queue_pop_head_link (&self->completed)) != NULL)
    {
      SluiceWaiter *w = link->data;

      w->func (g_steal_pointer (&w->item), w->error, w->func_data);
      g_clear_error (&w->error);
      g_clear_object (&w->cancellable);
      release_waiter (self, w);
      /* The waiter's own ref. */
      g_object_unref (self);
    }

  return G_SOURCE_CONTINUE;
}

static gboolean
flush_source_dispatch (GSource     *source,
                       GSourceFunc  callback,
                       gpointer     user_data)
{
  return callback (user_data);
}

/* Ready while operations wait to be completed. Completions are queued
 * only from the thread that iterates the channel's context, before this
 * iteration's prepare or check, so no wake-up is needed: a ready time
 * would write to the context's eventfd at every completion. One source for
 * the channel's life, because a new idle per main-loop turn cost as much
 * as the rest of a get. */
static gboolean
flush_source_check (GSource *source)
{
  SluiceChannel *self = ((SluiceFlushSource *) source)->channel;

  return !g_queue_is_empty (&self->completed);
}

static gboolean
flush_source_prepare (GSource *source,
                      gint    *timeout)
{
  *timeout = -1;
  return flush_source_check (source);
}

static GSourceFuncs flush_source_funcs = {
  flush_source_prepare, flush_source_check, flush_source_dispatch, NULL, NULL, NULL,
};

void
_sluice_channel_waiters_init (SluiceChannel *self)
{
  g_queue_init (&self->getters);
  g_queue_init (&self->putters);
  g_queue_init (&self->completed);
  self->watches = g_hash_table_new (NULL, NULL);

  /* The source's data is the channel, unowned: the source goes with the
   * channel, in finalize, and holds a ref only while it dispatches. */
  self->flush_source = g_source_new (&flush_source_funcs, sizeof (SluiceFlushSource));
  ((SluiceFlushSource *) self->flush_source)->channel = self;
  g_source_set_priority (self->flush_source, self->priority);
  g_source_set_static_name (self->flush_source, "[sluice] channel completion");
  g_source_set_callback (self->flush_source, flush_completed_cb, self, NULL);
  g_source_attach (self->flush_source, self->context);
}

void
_sluice_channel_waiters_finalize (SluiceChannel *self)
{
  /* Every pending operation holds a ref on the channel. */
  g_assert (g_queue_is_empty (&self->getters));
  g_assert (g_queue_is_empty (&self->putters));
  g_assert (g_queue_is_empty (&self->completed));

  g_source_destroy (self->flush_source);
  g_clear_pointer (&self->flush_source, g_source_unref);

  g_assert (g_hash_table_size (self->watches) == 0);
  g_clear_pointer (&self->watches, g_hash_table_unref);

  while (self->spare_waiters != NULL)
    {
      SluiceWaiter *w = self->spare_waiters;

      self->spare_waiters = (SluiceWaiter *) w->link.next;
      g_free (w);
    }
  self->n_spare_waiters = 0;
}

/* ---- waiters ----------------------------------------------------------- */

/* A waiter calls @func once, from the flush source, with its outcome:
 * what the channel returns is final, so an item handed to a getter whose
 * cancellable fires afterwards still reaches it (or it would be lost).
 * It holds a ref on @self until then. */
SluiceWaiter *
_sluice_waiter_new (SluiceChannel        *self,
                    GCancellable         *cancellable,
                    SluiceChannelGetFunc  func,
                    gpointer              func_data)
{
  SluiceWaiter *w = self->spare_waiters;

  if (w != NULL)
    {
      self->spare_waiters = (SluiceWaiter *) w->link.next;
      self->n_spare_waiters--;
      memset (w, 0, sizeof *w);
    }
  else
    w = g_new0 (SluiceWaiter, 1);

  g_object_ref (self);
  w->link.data = w;
  w->func = func;
  w->func_data = func_data;
  if (cancellable != NULL)
    w->cancellable = g_object_ref (cancellable);

  return w;
}

gboolean
_sluice_waiter_is_cancelled (SluiceWaiter *w)
{
  return g_cancellable_is_cancelled (w->cancellable);
}

static void
watch_release (SluiceChannel     *self,
               SluiceCancelWatch *watch)
{
  if (--watch->n_waiters > 0)
    return;
  g_hash_table_remove (self->watches, watch->cancellable);
  g_source_destroy (watch->source);
  g_source_unref (watch->source);
  g_object_unref (watch->cancellable);
  g_free (watch);
}

/* Ends @w with @error (taken), or with success. Its func is called from
 * the flush source on the channel's context, never from inside a channel
 * call, so a callback can never re-enter the channel while its state is
 * half updated, and callbacks run in the order the operations ended. */
void
_sluice_waiter_complete (SluiceChannel *self,
                         SluiceWaiter  *w,
                         GError        *error)
{
  if (w->queue != NULL)
    {
      g_queue_unlink (w->queue, &w->link);
      w->queue = NULL;
    }

  if (w->watch != NULL)
    {
      SluiceCancelWatch *watch = w->watch;

      w->watch = NULL;
      watch_release (self, watch);
    }

  w->error = error;
  g_queue_push_tail_link (&self->completed, &w->link);
}

void
_sluice_waiter_fail_closed (SluiceChannel *self,
                            SluiceWaiter  *w)
{
  _sluice_waiter_complete (self, w,
                           g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                                                "channel is shut down"));
}

void
_sluice_waiter_fail_cancelled (SluiceChannel *self,
                               SluiceWaiter  *w)
{
  GError *error = NULL;

  /* Only NULL if the cancellable was reset meanwhile, which its docs
   * forbid while an operation is pending; the operation ends anyway. */
  if (!g_cancellable_set_error_if_cancelled (w->cancellable, &error))
    error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 "Operation was cancelled");

  _sluice_waiter_complete (self, w, error);
}

/* ---- cancel watches ---------------------------------------------------- */

static gboolean
watch_cancelled_cb (GCancellable *cancellable G_GNUC_UNUSED,
                    gpointer      user_data)
{
  SluiceCancelWatch *watch = user_data;
  SluiceChannel *self = watch->self;
  GQueue *queues[] = { &self->getters, &self->putters };

  /* Every waiter of this cancellable ends, in queue order; the hold keeps
   * the watch alive meanwhile. */
  watch->n_waiters++;
  for (guint i = 0; i < G_N_ELEMENTS (queues); i++)
    {
      GList *l = queues[i]->head;

      while (l != NULL)
        {
          GList *next = l->next;
          SluiceWaiter *w = l->data;

          if (w->watch == watch)
            _sluice_waiter_fail_cancelled (self, w);
          l = next;
        }
    }
  watch_release (self, watch);

  return G_SOURCE_CONTINUE;
}

static SluiceCancelWatch *
watch_acquire (SluiceChannel *self,
               GCancellable  *cancellable)
{
  SluiceCancelWatch *watch = g_hash_table_lookup (self->watches, cancellable);

  if (watch == NULL)
    {
      watch = g_new0 (SluiceCancelWatch, 1);
      watch->self = self;
      watch->cancellable = g_object_ref (cancellable);
      watch->source = g_cancellable_source_new (cancellable);
      g_source_set_priority (watch->source, self->priority);
      g_source_set_static_name (watch->source, "[sluice] channel cancel");
      g_source_set_callback (watch->source, G_SOURCE_FUNC (watch_cancelled_cb), watch, NULL);
      g_source_attach (watch->source, self->context);
      g_hash_table_insert (self->watches, cancellable, watch);
    }
  watch->n_waiters++;

  return watch;
}

/* Parks @w at the tail of @queue until it is served, the channel shuts
 * down or its cancellable fires. A cancellable source is used rather than
 * g_cancellable_connect() because the cancellable may be cancelled from any
 * thread, while the wait queues belong to the channel's context; it also
 * never runs inside g_cancellable_cancel(), so nothing needs disconnecting
 * from inside a handler. */
void
_sluice_waiter_wait (SluiceChannel *self,
                     SluiceWaiter  *w,
                     GQueue        *queue)
{
  g_queue_push_tail_link (queue, &w->link);
  w->queue = queue;

  if (w->cancellable != NULL)
    w->watch = watch_acquire (self, w->cancellable);
}

/* ---- serving ----------------------------------------------------------- */

/* The oldest waiter of @queue that is not cancelled, or NULL. Waiters
 * whose cancellable fired but whose cancel source has not run yet are
 * ended now, so that nothing is handed to an operation already given up. */
static SluiceWaiter *
peek_live (SluiceChannel *self,
           GQueue        *queue)
{
  SluiceWaiter *w;

  while ((w = g_queue_peek_head (queue)) != NULL && _sluice_waiter_is_cancelled (w))
    _sluice_waiter_fail_cancelled (self, w);

  return w;
}

/* Doubles the ring, its items kept in order from index 0. */
static void
grow_ring (SluiceChannel *self)
{
  guint size = MAX (self->ring_size * 2, 16);
  gpointer *ring = g_new (gpointer, size);

  for (guint i = 0; i < self->n_stored; i++)
    ring[i] = self->ring[(self->head + i) & (self->ring_size - 1)];
  g_free (self->ring);
  self->ring = ring;
  self->ring_size = size;
  self->head = 0;
}

/* Takes the oldest stored item; there must be one. */
gpointer
_sluice_channel_pop_stored (SluiceChannel *self)
{
  gpointer item = self->ring[self->head];

  self->head = (self->head + 1) & (self->ring_size - 1);
  self->n_stored--;
  return item;
}

/* Stores @item if the channel is open and has room. */
gboolean
_sluice_channel_try_enqueue (SluiceChannel *self,
                             gpointer       item)
{
  if (self->shutdown ||
      (self->capacity != 0 && self->n_stored >= self->capacity))
    return FALSE;

  if (self->n_stored == self->ring_size)
    grow_ring (self);
  self->ring[(self->head + self->n_stored) & (self->ring_size - 1)] = item;
  self->n_stored++;
  return TRUE;
}

/* Takes the oldest stored item, or NULL. */
static gpointer
pop_item (SluiceChannel *self)
{
  if (self->n_stored == 0)
    return NULL;

  return _sluice_channel_pop_stored (self);
}

/* Tells a put's accept func, once, that its item went in. The func may
 * call back into the channel: the loop that called this re-reads every
 * queue afterwards. */
void
_sluice_waiter_accepted (SluiceChannel *self,
                         SluiceWaiter  *w)
{
  g_autoptr(SluiceChannel) hold = NULL;
  SluiceChannelAcceptFunc accepted = g_steal_pointer (&w->accepted);

  if (accepted == NULL)
    return;

  hold = g_object_ref (self);
  accepted (w->accepted_data);
}

/* Moves stored items to waiting getters and waiting putters' items into
 * free room, until neither can progress: after anything that frees room,
 * and first in every operation that could otherwise overtake a waiter. */
void
_sluice_channel_balance (SluiceChannel *self)
{
  for (;;)
    {
      SluiceWaiter *w;

      if ((w = peek_live (self, &self->getters)) != NULL)
        {
          gpointer item = pop_item (self);

          if (item != NULL)
            {
              w->item = item;
              _sluice_waiter_complete (self, w, NULL);
              continue;
            }
        }

      if ((w = peek_live (self, &self->putters)) != NULL &&
          _sluice_channel_try_enqueue (self, w->item))
        {
          w->item = NULL;
          _sluice_waiter_complete (self, w, NULL);
          _sluice_waiter_accepted (self, w);
          continue;
        }

      break;
    }
}

/* Accepts @item for a put without waiting: it goes to the oldest waiting
 * getter, or is stored if there is room and no putter waits ahead of it. */
gboolean
_sluice_channel_offer (SluiceChannel *self,
                       gpointer       item)
{
  SluiceWaiter *getter;

  _sluice_channel_balance (self);

  if ((getter = peek_live (self, &self->getters)) != NULL)
    {
      getter->item = item;
      _sluice_waiter_complete (self, getter, NULL);
      return TRUE;
    }

  /* Not ahead of earlier putters, even if room appeared. */
  return peek_live (self, &self->putters) == NULL &&
         _sluice_channel_try_enqueue (self, item);
}

/* Takes a stored item for a get without waiting, or returns NULL. The
 * caller balances again once it has used the item: the slot just freed
 * goes to the oldest waiting putter. */
gpointer
_sluice_channel_take (SluiceChannel *self)
{
  _sluice_channel_balance (self);

  /* Earlier getters come first. */
  if (peek_live (self, &self->getters) != NULL)
    return NULL;

  return pop_item (self);
}
