/* sluice-fault-handler-private.h: what the fault handler's attempts
 * (sluice-fault-handler.c) and its watch on their cancellables
 * (sluice-fault-handler-watch.c) share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-fault-handler.h"

G_BEGIN_DECLS

struct _SluiceFaultHandler
{
  GObject          parent_instance;

  SluiceClock     *clock;
  SluiceBehaviour *default_behaviour;
  GHashTable      *items;        /* gint64* → SluiceBehaviour* */
  GPtrArray       *mix;          /* SluiceMixEntry*, or NULL */
  double           mix_total;
  GRand           *rand;
  GArray          *draws;        /* guint: the mix entry of each item index */
  GThreadPool     *threads;

  guint            next_token;
  guint            n_calls;
  guint            n_active;
  gboolean         ctx_ok;

  /* The watch on the attempts' cancellables (sluice-fault-handler-watch.c):
   * one source for them all, and the calls whose cancellable fired, queued
   * from any thread under the lock. */
  GMainContext    *context;      /* of the first attempt: the calls complete there */
  GSource         *cancel_source;
  GMutex           cancel_lock;
  GQueue           cancelled;    /* SluiceFaultCall*, in the order their cancellables fired */
  gint             n_cancelled;  /* its length, read without the lock */
  GPtrArray       *due;          /* SluiceFaultCall* (references): the calls taken for the next dispatch */

  /* Calls that ended, kept for the next attempts (linked by next_free):
   * a call allocated and freed per attempt was a tenth of its cost. */
  gpointer         free_calls;
  guint            n_free_calls;
};

/* One attempt in progress. It completes its attempt with
 * sluice_attempt_return_result() instead of a #GTask (a task made, locked
 * and freed per attempt was a fifth of the runner's instructions).
 * Counted references, all in the handler's main context: one from
 * handle_async until the call completes, and one for each thing that
 * may still come back to it after that (a queued cancellation, an idle,
 * a thread's job). */
typedef struct {
  SluiceFaultHandler    *self;         /* a reference */
  SluiceAttempt         *attempt;      /* a reference */
  GAsyncReadyCallback    callback;
  gpointer               user_data;
  gint                   priority;
  guint                  ref_count;
  const SluiceBehaviour *behaviour;    /* owned by the handler */
  gpointer               token;        /* also the order the attempts started in */
  guint64                timer_id;
  GCancellable          *cancellable;  /* watched, with cancel_id, or NULL */
  gulong                 cancel_id;
  gboolean               hooked;       /* watched with the attempt's cancel function */
  GList                  cancel_link;  /* in self->cancelled while queued */
  gboolean               queued;
  GSource               *idle_source;
  gulong                 cancel_requested_id;
  gboolean               done;
  gpointer               next_free;    /* in self->free_calls once it ended */
} SluiceFaultCall;

typedef enum {
  SLUICE_FAULT_HANDLER_END_RESULT,      /* the behaviour's own end: a result or its error */
  SLUICE_FAULT_HANDLER_END_CANCELLED,   /* honoured a cancellation request */
} SluiceFaultHandlerEnd;

SluiceFaultCall *_sluice_fault_call_ref          (SluiceFaultCall       *call);
void             _sluice_fault_call_unref        (SluiceFaultCall       *call);
void             _sluice_fault_handler_call_finish (SluiceFaultCall     *call,
                                                    SluiceFaultHandlerEnd  end);

/* sluice-fault-handler-watch.c */
void _sluice_fault_handler_init_watches  (SluiceFaultHandler    *self);
void _sluice_fault_handler_clear_watches (SluiceFaultHandler    *self);
void _sluice_fault_handler_watch         (SluiceFaultCall       *call,
                                          GCancellable          *cancellable);
void _sluice_fault_handler_unwatch       (SluiceFaultCall       *call);

G_END_DECLS
