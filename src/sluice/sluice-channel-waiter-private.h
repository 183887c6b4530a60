/* sluice-channel-waiter-private.h: what the two units of a channel share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-channel-private.h"

G_BEGIN_DECLS

/* A channel is one object in two units: sluice-channel.c (the object and
 * its operations) and sluice-channel-waiter.c (the operations that wait:
 * parking, cancelling, serving and completing them). They share the struct
 * and the functions below. Everything happens on the channel's context. */

typedef struct _SluiceCancelWatch SluiceCancelWatch;

/* One pending operation. The same link sits first in a wait queue
 * (getters or putters) and then in the queue of completed operations
 * whose func has yet to be called. It holds a ref on the channel until
 * then. */
typedef struct
{
  GList                   link;
  GQueue                 *queue;         /* the wait queue holding link, or NULL */
  SluiceChannelGetFunc    func;
  gpointer                func_data;
  SluiceChannelAcceptFunc accepted;      /* put: told when the item goes in */
  gpointer                accepted_data;
  GCancellable           *cancellable;   /* owned */
  gpointer                item;          /* put: the caller's item; get: the result */
  GError                 *error;         /* the failure to return, if any */
  SluiceCancelWatch      *watch;         /* NULL when there is no cancellable */
} SluiceWaiter;

struct _SluiceChannel
{
  GObject         parent_instance;

  GMainContext   *context;
  gint            priority;      /* of its completions and cancel watches */
  /* The stored items, oldest first, in a ring that grows by doubling:
   * ring[head], ring[head + 1], … modulo ring_size (a power of two, or 0).
   * Only the channel's context touches it. It was a GAsyncQueue, whose
   * lock nobody contended and whose list node, made and freed for every
   * item, was two allocations per item of a run (input and results). */
  gpointer       *ring;
  guint           ring_size;
  guint           head;
  guint           n_stored;      /* how many items it holds */
  guint           capacity;      /* 0: unbounded */
  GDestroyNotify  item_free;
  gboolean        shutdown;

  GQueue          getters;       /* of SluiceWaiter, oldest first */
  GQueue          putters;

  GQueue          completed;     /* of SluiceWaiter, to be returned in this order */
  /* Completed waiters kept for the next waits (linked by link.next): a
   * wait cost an allocation and a free of its own. */
  SluiceWaiter   *spare_waiters;
  guint           n_spare_waiters;
  GSource        *flush_source;  /* owned: calls the completed operations' funcs */
  GHashTable     *watches;       /* GCancellable* → SluiceCancelWatch* */
};

G_GNUC_INTERNAL gpointer      _sluice_channel_pop_stored       (SluiceChannel       *self);
G_GNUC_INTERNAL void          _sluice_channel_waiters_init     (SluiceChannel       *self);
G_GNUC_INTERNAL void          _sluice_channel_waiters_finalize (SluiceChannel       *self);

G_GNUC_INTERNAL SluiceWaiter *_sluice_waiter_new               (SluiceChannel       *self,
                                                                GCancellable        *cancellable,
                                                                SluiceChannelGetFunc func,
                                                                gpointer             func_data);
G_GNUC_INTERNAL gboolean      _sluice_waiter_is_cancelled      (SluiceWaiter        *w);
G_GNUC_INTERNAL void          _sluice_waiter_accepted          (SluiceChannel       *self,
                                                                SluiceWaiter        *w);
G_GNUC_INTERNAL void          _sluice_waiter_complete          (SluiceChannel       *self,
                                                                SluiceWaiter        *w,
                                                                GError              *error);
G_GNUC_INTERNAL void          _sluice_waiter_fail_closed       (SluiceChannel       *self,
                                                                SluiceWaiter        *w);
G_GNUC_INTERNAL void          _sluice_waiter_fail_cancelled    (SluiceChannel       *self,
                                                                SluiceWaiter        *w);
G_GNUC_INTERNAL void          _sluice_waiter_wait              (SluiceChannel       *self,
                                                                SluiceWaiter        *w,
                                                                GQueue              *queue);

G_GNUC_INTERNAL gboolean      _sluice_channel_try_enqueue      (SluiceChannel       *self,
                                                                gpointer             item);
G_GNUC_INTERNAL void          _sluice_channel_balance          (SluiceChannel       *self);
G_GNUC_INTERNAL gboolean      _sluice_channel_offer            (SluiceChannel       *self,
                                                                gpointer             item);
G_GNUC_INTERNAL gpointer      _sluice_channel_take             (SluiceChannel       *self);

G_END_DECLS
