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
 * and the functions below, which are hidden from the library's users. */

typedef enum {
  WAITER_GET,
  WAITER_PUT,
  WAITER_JOIN,
} SluiceWaiterKind;

typedef struct _SluiceCancelWatch SluiceCancelWatch;

/* One pending operation. The same link sits first in a wait queue
 * (getters, putters or joiners) and then in the queue of completed
 * operations whose GTask (or get func) has yet to be called. */
typedef struct
{
  GList                 link;
  GQueue               *queue;        /* the wait queue holding link, or NULL */
  SluiceChannel        *self;         /* ref held by the task, or by the waiter
                                       * itself when there is a func instead */
  GTask                *task;         /* owned; NULL for a get func */
  SluiceChannelGetFunc  func;
  gpointer              func_data;
  SluiceChannelAcceptFunc accepted;   /* put: told when the item goes in */
  gpointer              accepted_data;
  GCancellable         *cancellable;  /* owned */
  SluiceWaiterKind      kind;
  gpointer              item;         /* put: the caller's item; get: the result */
  GError               *error;        /* the failure to return, if any */
  SluiceCancelWatch    *watch;        /* NULL when there is no cancellable */
} SluiceWaiter;

struct _SluiceChannel
{
  GObject         parent_instance;

  GMainContext   *context;
  gint            priority;      /* of its completions and wake-ups */
  GAsyncQueue    *queue;         /* the stored items; its lock guards push */
  guint           capacity;      /* 0: unbounded */
  GDestroyNotify  item_free;

  gint            shutdown;      /* atomic: read by sluice_channel_push() */
  gint            n_stored;      /* atomic: the queue's length, read without its lock
                                  * (every event reports it) */
  gint            unfinished;    /* atomic: sluice_channel_push() adds to it */
  gint            wake_pending;  /* atomic: a wake source for pushed items is queued */

  GQueue          getters;       /* of SluiceWaiter, oldest first */
  GQueue          putters;
  GQueue          joiners;

  GQueue          completed;     /* of SluiceWaiter, to be returned in this order */
  GSource        *flush_source;  /* owned: returns the completed tasks */
  GHashTable     *watches;       /* GCancellable* → SluiceCancelWatch* */
};

G_GNUC_INTERNAL void          _sluice_channel_waiters_init     (SluiceChannel       *self);
G_GNUC_INTERNAL void          _sluice_channel_waiters_finalize (SluiceChannel       *self);

G_GNUC_INTERNAL SluiceWaiter *_sluice_waiter_new               (SluiceChannel       *self,
                                                                SluiceWaiterKind     kind,
                                                                GCancellable        *cancellable);
G_GNUC_INTERNAL SluiceWaiter *_sluice_waiter_new_task          (SluiceChannel       *self,
                                                                SluiceWaiterKind     kind,
                                                                GCancellable        *cancellable,
                                                                gpointer             source_tag,
                                                                const char          *name,
                                                                GAsyncReadyCallback  callback,
                                                                gpointer             user_data);
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
G_GNUC_INTERNAL void          _sluice_channel_wake_joiners     (SluiceChannel       *self);

G_GNUC_INTERNAL gpointer      _sluice_channel_pop              (SluiceChannel       *self);

G_END_DECLS
