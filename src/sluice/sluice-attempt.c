/* sluice-attempt.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-attempt-private.h"
#include "sluice-clock-private.h"
#include "sluice-error.h"
#include "sluice-timebase-private.h"

#define MAX_CANCEL_ROUNDS 3

struct _SluiceAttempt
{
  GObject              parent_instance;

  GVariant            *item;
  gint64               item_index;
  guint                number;
  guint                worker;

  SluiceClock         *clock;
  GCancellable        *cancellable;
  gint64               started_at;
  gint64               deadline;
  gint64               timeout;
  /* One node on the clock's heap: the deadline, then each cancel round
   * (a round replaces a deadline that has not come, which would change
   * nothing: only a caller's cancel starts rounds before it). Two nodes
   * were 56 bytes more per attempt in flight, and two heap slots. */
  SluiceTimer          timer;

  gpointer             local;
  GDestroyNotify       local_destroy;

  SluiceAttemptNotify  notify;
  gpointer             notify_data;

  SluiceAttemptCancelFunc cancel_func;  /* the handler's, instead of a */
  gpointer             cancel_data;     /* connection to the cancellable */

  /* The value the handler returned: the result, or, when the outcome is a
   * timeout, what came too late and is kept only for the attempt-end
   * event. */
  GVariant            *result;
  GError              *error;

  guint                cancel_rounds;
  SluiceOutcome        outcome;
  guint                running : 1;
  guint                finished : 1;
  guint                stopping : 1;
  guint                timed_out : 1;
  guint                caller_cancelled : 1;
  guint                item_deadline_first : 1;
  guint                single_round : 1;
  guint                returned : 1;    /* the handler's value or error waits
                                         * in result or error for its finish */

  GError              *handler_error;  /* what a cancelled attempt's handler
                                        * returned instead, if anything */
};

enum {
  CANCEL_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * SluiceAttempt:
 *
 * One call of a handler on one item.
 *
 * One call of the handler: the item, its own #GCancellable, a deadline on
 * the pool's clock (the item timeout after its start, or the item's own
 * deadline when that comes first), and a slot for attempt-local data (the
 * seed's contextvars copy).
 *
 * Stopping a late attempt takes up to three rounds: each round requests
 * cancellation (the first cancels the cancellable; every round emits
 * #SluiceAttempt::cancel-requested with its number) and waits up to the
 * item timeout. After the third round the attempt is waited for however
 * long it takes: the pool never abandons a handler that is still running.
 *
 * Since: 1.0
 */
static void async_result_iface_init (GAsyncResultIface *iface);

/* An attempt is also the #GAsyncResult its handler may complete it with
 * (sluice_attempt_return_result()): a #GTask per attempt was the largest
 * cost of an attempt, an object made, locked and freed for each call. */
G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceAttempt, sluice_attempt, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_ASYNC_RESULT, async_result_iface_init))

/* The handler hands itself to its callback as the source object: the
 * attempt does not keep it, which would cost every attempt in flight a
 * pointer for a getter nobody in the pool calls. */
static GObject *
sluice_attempt_get_source_object (GAsyncResult *res)
{
  return NULL;
}

static gpointer
sluice_attempt_get_user_data (GAsyncResult *res)
{
  return NULL;
}

static gboolean
sluice_attempt_is_tagged (GAsyncResult *res,
                          gpointer      source_tag)
{
  return FALSE;
}

static void
async_result_iface_init (GAsyncResultIface *iface)
{
  iface->get_source_object = sluice_attempt_get_source_object;
  iface->get_user_data = sluice_attempt_get_user_data;
  iface->is_tagged = sluice_attempt_is_tagged;
}

static void
sluice_attempt_dispose (GObject *object)
{
  SluiceAttempt *self = SLUICE_ATTEMPT (object);

  if (self->local_destroy != NULL)
    g_clear_pointer (&self->local, self->local_destroy);
  self->local = NULL;

  G_OBJECT_CLASS (sluice_attempt_parent_class)->dispose (object);
}

static void
sluice_attempt_finalize (GObject *object)
{
  SluiceAttempt *self = SLUICE_ATTEMPT (object);

  g_assert (!_sluice_timer_is_pending (&self->timer));

  g_clear_pointer (&self->item, g_variant_unref);
  g_clear_pointer (&self->result, g_variant_unref);
  g_clear_error (&self->error);
  g_clear_error (&self->handler_error);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->clock);

  G_OBJECT_CLASS (sluice_attempt_parent_class)->finalize (object);
}

static void
sluice_attempt_class_init (SluiceAttemptClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_attempt_dispose;
  object_class->finalize = sluice_attempt_finalize;

  /**
   * SluiceAttempt::cancel-requested:
   * @self: the attempt
   * @round: 1, 2 or 3
   *
   * The pool asks the attempt to stop, because it ran past its deadline or
   * because the caller cancelled the run. Round 1 comes with the
   * cancellable being cancelled; a handler that ignored it sees rounds 2
   * and 3, one item timeout apart.
   *
   * Since: 1.0
   */
  signals[CANCEL_REQUESTED] =
    g_signal_new ("cancel-requested",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sluice_attempt_init (SluiceAttempt *self)
{
  self->cancellable = g_cancellable_new ();
}

/* Whether nothing but its run holds @object, and nothing is attached to it
 * that its next user must not see (data, weak references): only then may
 * it be used again. */
static void
note_attached (GQuark   key,
               gpointer data,
               gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
}

static gboolean
is_private (gpointer object)
{
  GObject *gobject = object;
  gboolean attached = FALSE;

  if (g_atomic_int_get (&gobject->ref_count) != 1)
    return FALSE;
  g_datalist_foreach (&gobject->qdata, note_attached, &attached);
  return !attached;
}

/* The cancellable of a finished attempt, if the next attempt may have it:
 * nobody else holds it and no handler is still connected to it (one that
 * forgot to disconnect must not hear the next attempt's cancellation). */
static gboolean
cancellable_is_reusable (GCancellable *cancellable)
{
  static guint cancelled_id;

  if (cancelled_id == 0)
    cancelled_id = g_signal_lookup ("cancelled", G_TYPE_CANCELLABLE);
  return is_private (cancellable) &&
         !g_signal_has_handler_pending (cancellable, cancelled_id, 0, TRUE);
}

/* Makes a finished attempt new again for another attempt (see
 * _sluice_attempt_recycle()). */
static void
reset (SluiceAttempt *self)
{
  g_assert (!_sluice_timer_is_pending (&self->timer));

  /* What finalize would have done: handlers, local data, values. */
  g_signal_handlers_destroy (self);
  if (self->local_destroy != NULL)
    g_clear_pointer (&self->local, self->local_destroy);
  self->local = NULL;
  self->local_destroy = NULL;
  g_clear_pointer (&self->item, g_variant_unref);
  g_clear_pointer (&self->result, g_variant_unref);
  g_clear_error (&self->error);
  g_clear_error (&self->handler_error);

  if (!cancellable_is_reusable (self->cancellable))
    {
      g_object_unref (self->cancellable);
      self->cancellable = g_cancellable_new ();
    }
  else if (g_cancellable_is_cancelled (self->cancellable))
    g_cancellable_reset (self->cancellable);

  self->cancel_rounds = 0;
  self->notify = NULL;
  self->notify_data = NULL;
  self->cancel_func = NULL;
  self->cancel_data = NULL;
  self->outcome = 0;
  self->running = FALSE;
  self->finished = FALSE;
  self->stopping = FALSE;
  self->timed_out = FALSE;
  self->caller_cancelled = FALSE;
  self->item_deadline_first = FALSE;
  self->single_round = FALSE;
  self->returned = FALSE;
}

static void
setup (SluiceAttempt *self,
       GVariant      *item,
       gint64         item_index,
       guint          number,
       guint          worker)
{
  self->item = g_variant_ref (item);
  self->item_index = item_index;
  self->number = number;
  self->worker = worker;
}

SluiceAttempt *
_sluice_attempt_new (GVariant *item,
                     gint64    item_index,
                     guint     number,
                     guint     worker)
{
  SluiceAttempt *self;

  g_return_val_if_fail (item != NULL, NULL);

  self = g_object_new (SLUICE_TYPE_ATTEMPT, NULL);
  setup (self, item, item_index, number, worker);

  return self;
}

/* Reuses @self, an attempt that has finished, for a new attempt (as
 * _sluice_attempt_new() would make it), if that cannot be seen: nothing
 * but the caller holds it (a handler's task lets go of it after its
 * callback) and nothing is attached to it. Gives %FALSE, changing
 * nothing, when it cannot be reused. An object per attempt, with its
 * cancellable, was a third of an item's allocations and the coldest
 * memory with many attempts in flight. */
gboolean
_sluice_attempt_recycle (SluiceAttempt *self,
                         GVariant      *item,
                         gint64         item_index,
                         guint          number,
                         guint          worker)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);

  if (!self->finished || !is_private (self))
    return FALSE;

  reset (self);
  setup (self, item, item_index, number, worker);
  return TRUE;
}

static void
remove_timer (SluiceAttempt *self,
              SluiceTimer   *timer)
{
  if (self->clock != NULL)
    _sluice_clock_remove_timer_node (self->clock, timer);
}

static void request_cancel_round (SluiceAttempt *self);

static void
on_round_elapsed (gpointer user_data)
{
  SluiceAttempt *self = user_data;

  if (self->cancel_rounds < MAX_CANCEL_ROUNDS)
    request_cancel_round (self);
  else
    self->notify (self, SLUICE_ATTEMPT_IGNORING_CANCEL, self->notify_data);
}

static void
request_cancel_round (SluiceAttempt *self)
{
  g_autoptr(SluiceAttempt) hold G_GNUC_UNUSED = g_object_ref (self);

  self->cancel_rounds++;
  self->notify (self, SLUICE_ATTEMPT_CANCEL_ROUND, self->notify_data);

  /* A handler that honours cancellation may finish right here, from inside
   * g_cancellable_cancel(): then there is nothing left to wait for. */
  if (self->cancel_rounds == 1)
    {
      g_cancellable_cancel (self->cancellable);
      if (self->cancel_func != NULL && !self->finished)
        self->cancel_func (self, self->cancel_data);
    }
  if (!self->finished)
    g_signal_emit (self, signals[CANCEL_REQUESTED], 0, self->cancel_rounds);
  if (!self->finished && !self->single_round)
    {
      /* Only a caller's cancel comes before the deadline, and then the
       * deadline would change nothing: the outcome is the cancel's. */
      remove_timer (self, &self->timer);
      _sluice_clock_add_timer_node (self->clock, &self->timer,
                                    _sluice_time_add (sluice_clock_now (self->clock), self->timeout),
                                    on_round_elapsed, self);
    }
}

static void
begin_stopping (SluiceAttempt *self)
{
  if (self->stopping || self->finished)
    return;

  self->stopping = TRUE;
  request_cancel_round (self);
}

static void
on_deadline (gpointer user_data)
{
  SluiceAttempt *self = user_data;

  self->timed_out = TRUE;
  begin_stopping (self);
}

static void
settle_outcome (SluiceAttempt *self,
                GVariant      *result,
                GError        *error)
{
  /* The deadline wins a tie: a handler that finishes at its deadline, or
   * returns a value while the pool is stopping it, has timed out. */
  gboolean late = self->timed_out || sluice_clock_now (self->clock) >= self->deadline;

  if (self->caller_cancelled)
    {
      self->outcome = SLUICE_OUTCOME_CANCELLED;
      self->error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                         "attempt cancelled by the caller");
      /* Kept for the run: a fatal error still counts when it comes back
       * from a cancelled attempt. */
      if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        self->handler_error = g_steal_pointer (&error);
    }
  else if (late)
    {
      self->outcome = SLUICE_OUTCOME_TIMED_OUT;
      self->error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_TIMEOUT,
                                         self->item_deadline_first ? "deadline exceeded"
                                                                   : "item timed out");
      /* Kept for the attempt-end event only: a view can then say the
       * value came, too late, and was thrown away. */
      self->result = g_steal_pointer (&result);
    }
  else if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->outcome = SLUICE_OUTCOME_FAILED;
      self->error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_HANDLER_CANCELLED,
                                         "handler cancelled itself");
    }
  else if (error != NULL)
    {
      self->outcome = SLUICE_OUTCOME_FAILED;
      self->error = g_steal_pointer (&error);
    }
  else
    {
      self->outcome = SLUICE_OUTCOME_OK;
      self->result = g_steal_pointer (&result);
    }

  /* Whatever the handler gave that the outcome did not keep is consumed
   * here, exactly once. */
  g_clear_pointer (&result, g_variant_unref);
  g_clear_error (&error);
}

static void
on_handled (GObject      *object,
            GAsyncResult *res,
            gpointer      user_data)
{
  g_autoptr(SluiceAttempt) self = user_data;
  GError *error = NULL;
  GVariant *result;

  /* The handler's own finish, without the public wrapper's interface
   * checks (two type lookups per attempt): it is the pool's handler, and
   * @res its own result. */
  result = SLUICE_HANDLER_GET_IFACE (object)->handle_finish ((SluiceHandler *) object, res, &error);
  if (result == NULL && error == NULL)
    error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_NO_RESULT,
                                 "handler returned neither a result nor an error");

  self->running = FALSE;
  self->finished = TRUE;
  self->cancel_func = NULL;
  self->cancel_data = NULL;
  remove_timer (self, &self->timer);

  settle_outcome (self, result, error);
  self->notify (self, SLUICE_ATTEMPT_ENDED, self->notify_data);
}

/* Fixes the attempt's start time (@now, on @clock) and deadline before it
 * starts, so that its attempt-start event can carry the very instant its
 * timer is set for. */
void
_sluice_attempt_set_deadline (SluiceAttempt *self,
                              SluiceClock   *clock,
                              gint64         now,
                              gint64         timeout,
                              gint64         item_deadline)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));
  g_return_if_fail (!self->running && !self->finished);
  g_return_if_fail (timeout > 0);

  /* A recycled attempt keeps its run's clock. */
  if (self->clock != clock)
    g_set_object (&self->clock, clock);
  self->timeout = timeout;
  self->started_at = now;
  self->deadline = self->started_at + timeout;
  /* The item's own deadline cuts the attempt short when it comes first. */
  if (item_deadline > 0 && item_deadline < self->deadline)
    {
      self->deadline = item_deadline;
      self->item_deadline_first = TRUE;
    }
}

void
_sluice_attempt_start (SluiceAttempt       *self,
                       SluiceHandler       *handler,
                       SluiceAttemptNotify  notify,
                       gpointer             user_data)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));
  g_return_if_fail (!self->running && !self->finished);
  g_return_if_fail (self->clock != NULL);
  g_return_if_fail (notify != NULL);

  /* A handler may complete inside handle_async(): on_handled() then runs
   * within the call, and the worker may drop the last reference to us
   * before the call returns. */
  g_autoptr(SluiceAttempt) hold G_GNUC_UNUSED = g_object_ref (self);

  self->notify = notify;
  self->notify_data = user_data;
  self->running = TRUE;

  /* Scheduled before the handler starts, so that on equal times the
   * deadline fires first. */
  _sluice_clock_add_timer_node (self->clock, &self->timer, self->deadline, on_deadline, self);

  /* As in on_handled(): the pool checked its handler once. */
  SLUICE_HANDLER_GET_IFACE (handler)->handle_async (handler, self, self->cancellable,
                                                    on_handled, g_object_ref (self));

  /* Cancelled between its creation and now (say, by a callback of the
   * attempt-start event): stop it like any attempt in flight. */
  if (self->caller_cancelled)
    begin_stopping (self);
}

void
_sluice_attempt_cancel (SluiceAttempt *self)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));

  if (self->finished)
    return;

  self->caller_cancelled = TRUE;

  /* Not started yet: there is nothing to stop, and no one to tell about
   * it; _sluice_attempt_start() begins stopping. */
  if (!self->running)
    return;

  begin_stopping (self);
}

/* The shutdown deadline's cancel: one more request, also for an attempt
 * already in its timeout rounds, whose rounds then stop; then the attempt
 * is waited for however long it takes. */
void
_sluice_attempt_cancel_once (SluiceAttempt *self)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));

  if (self->finished)
    return;

  self->caller_cancelled = TRUE;
  self->single_round = TRUE;

  /* Not started yet: _sluice_attempt_start() sends the request. */
  if (!self->running)
    return;

  /* The rounds, or the deadline not come yet, which the cancel's outcome
   * makes moot. */
  remove_timer (self, &self->timer);
  self->stopping = TRUE;
  request_cancel_round (self);
}

GError *
_sluice_attempt_steal_handler_error (SluiceAttempt *self)
{
  return g_steal_pointer (&self->handler_error);
}

gboolean
_sluice_attempt_is_finished (SluiceAttempt *self)
{
  return self->finished;
}

/* The attempt's part of its events: item, number, worker, cancel rounds
 * (without a getter's check for each: this is done for every event). */
void
_sluice_attempt_describe (SluiceAttempt *self,
                          SluiceEvent   *event)
{
  event->item = self->item_index;
  event->attempt = self->number;
  event->worker = (gint) self->worker;
  event->round = self->cancel_rounds;
}

SluiceOutcome
_sluice_attempt_get_outcome (SluiceAttempt *self)
{
  return self->outcome;
}

const GError *
_sluice_attempt_get_error (SluiceAttempt *self)
{
  return self->error;
}

GError *
_sluice_attempt_steal_error (SluiceAttempt *self)
{
  return g_steal_pointer (&self->error);
}

GVariant *
_sluice_attempt_steal_result (SluiceAttempt *self)
{
  return self->outcome == SLUICE_OUTCOME_TIMED_OUT ? NULL : g_steal_pointer (&self->result);
}

GVariant *
_sluice_attempt_get_late_result (SluiceAttempt *self)
{
  return self->outcome == SLUICE_OUTCOME_TIMED_OUT ? self->result : NULL;
}

guint
_sluice_attempt_get_n_timers (SluiceAttempt *self)
{
  return _sluice_timer_is_pending (&self->timer);
}

/**
 * sluice_attempt_get_item:
 * @self: a #SluiceAttempt
 *
 * Returns: (transfer none): the item this attempt works on
 *
 * Since: 1.0
 */
GVariant *
sluice_attempt_get_item (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), NULL);

  return self->item;
}

/**
 * sluice_attempt_get_item_index:
 * @self: a #SluiceAttempt
 *
 * Returns: the item's index in pull order, from 0
 *
 * Since: 1.0
 */
gint64
sluice_attempt_get_item_index (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), -1);

  return self->item_index;
}

/**
 * sluice_attempt_get_number:
 * @self: a #SluiceAttempt
 *
 * Returns: which attempt at the item this is, from 1
 *
 * Since: 1.0
 */
guint
sluice_attempt_get_number (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), 0);

  return self->number;
}

/**
 * sluice_attempt_get_worker:
 * @self: a #SluiceAttempt
 *
 * Returns: the index of the worker running this attempt, from 0
 *
 * Since: 1.0
 */
guint
sluice_attempt_get_worker (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), 0);

  return self->worker;
}

/**
 * sluice_attempt_get_started_at:
 * @self: a #SluiceAttempt
 *
 * Returns: when the attempt started, on the pool's clock (µs)
 *
 * Since: 1.0
 */
gint64
sluice_attempt_get_started_at (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), 0);

  return self->started_at;
}

/**
 * sluice_attempt_get_deadline:
 * @self: a #SluiceAttempt
 *
 * Returns: when the attempt times out, on the pool's clock (µs)
 *
 * Since: 1.0
 */
gint64
sluice_attempt_get_deadline (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), 0);

  return self->deadline;
}

/**
 * sluice_attempt_get_cancellable:
 * @self: a #SluiceAttempt
 *
 * Returns: (transfer none): the cancellable the pool cancels to stop this
 *   attempt
 *
 * Since: 1.0
 */
GCancellable *
sluice_attempt_get_cancellable (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), NULL);

  return self->cancellable;
}

/**
 * sluice_attempt_get_priority:
 * @self: a #SluiceAttempt
 *
 * Gets the main-loop priority of the pool's work, its clock's
 * #SluiceClock:priority: a handler gives it to what it schedules for the
 * attempt (g_task_set_priority() on its task, its own sources), so that
 * the attempt's completion does not overtake a window's frames.
 *
 * Returns: the priority, or %G_PRIORITY_DEFAULT before the attempt starts
 *
 * Since: 1.0
 */
gint
sluice_attempt_get_priority (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), G_PRIORITY_DEFAULT);

  return self->clock != NULL ? sluice_clock_get_priority (self->clock) : G_PRIORITY_DEFAULT;
}

/**
 * sluice_attempt_get_cancel_rounds:
 * @self: a #SluiceAttempt
 *
 * Returns: how many times the pool has asked this attempt to stop (0–3)
 *
 * Since: 1.0
 */
guint
sluice_attempt_get_cancel_rounds (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), 0);

  return self->cancel_rounds;
}

/**
 * sluice_attempt_get_local: (skip)
 * @self: a #SluiceAttempt
 *
 * Not for bindings, to which a raw pointer means nothing: they keep
 * attempt-local data in their own objects.
 *
 * Returns: (transfer none) (nullable): the data this attempt's handler
 *   stored with sluice_attempt_set_local()
 *
 * Since: 1.0
 */
gpointer
sluice_attempt_get_local (SluiceAttempt *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), NULL);

  return self->local;
}

/**
 * sluice_attempt_set_local: (skip)
 * @self: a #SluiceAttempt
 * @data: (nullable): attempt-local data
 * @destroy: (nullable): frees @data when replaced or when the attempt goes
 *
 * Stores data that belongs to this attempt only, like a context variable
 * set inside the seed's attempt task: other attempts never see it.
 *
 * Since: 1.0
 */
void
sluice_attempt_set_local (SluiceAttempt  *self,
                          gpointer        data,
                          GDestroyNotify  destroy)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));

  if (self->local_destroy != NULL && self->local != NULL)
    self->local_destroy (self->local);

  self->local = data;
  self->local_destroy = destroy;
}

/**
 * sluice_attempt_set_cancel_func: (skip)
 * @self: a #SluiceAttempt that has not finished
 * @func: (nullable): called when the pool cancels the attempt's
 *   cancellable, or %NULL to remove the function set
 * @user_data: data for @func
 *
 * A cheaper way for a handler written in C to hear that the pool asks the
 * attempt to stop than connecting to sluice_attempt_get_cancellable():
 * g_cancellable_connect() and g_cancellable_disconnect() take a lock and
 * make a closure for every attempt, and a cancellable something is still
 * connected to cannot be given to the next attempt. @func is called in the
 * pool's thread right after the pool cancelled that cancellable (the first
 * cancellation request), where a handler connected to it would have run.
 * Only the pool cancels an attempt's cancellable; @func does not hear
 * anyone else doing so.
 *
 * @func is never called for a request made before it was set (check
 * g_cancellable_is_cancelled() then), nor once the attempt has finished:
 * the attempt forgets it as its handler returns. An attempt keeps one
 * function: when another one is set already, nothing changes and this
 * returns %FALSE; connect to the cancellable instead.
 *
 * Returns: %TRUE if @func was set (always, for %NULL)
 *
 * Since: 1.0
 */
gboolean
sluice_attempt_set_cancel_func (SluiceAttempt           *self,
                                SluiceAttemptCancelFunc  func,
                                gpointer                 user_data)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), FALSE);

  if (func != NULL && (self->cancel_func != NULL || self->finished))
    return FALSE;

  self->cancel_func = func;
  self->cancel_data = func != NULL ? user_data : NULL;
  return TRUE;
}

/**
 * sluice_attempt_return_result:
 * @self: a #SluiceAttempt its handler is running
 * @result: (transfer full): the attempt's value (a floating reference is
 *   sunk)
 *
 * Completes the attempt without a #GTask: a handler keeps the callback
 * and data given to its handle_async, calls this (or
 * sluice_attempt_return_error()) once, then calls the callback with
 * itself as the source object and @self as the #GAsyncResult; its
 * handle_finish returns sluice_attempt_propagate_result(). As with a
 * #GTask, the callback must not be called from inside handle_async.
 *
 * Since: 1.0
 */
void
sluice_attempt_return_result (SluiceAttempt *self,
                              GVariant      *result)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));
  g_return_if_fail (result != NULL);
  g_return_if_fail (self->running && !self->returned);

  self->result = g_variant_take_ref (result);
  self->returned = TRUE;
}

/**
 * sluice_attempt_return_error:
 * @self: a #SluiceAttempt its handler is running
 * @error: (transfer full): why the attempt failed
 *
 * Completes the attempt with an error, as sluice_attempt_return_result()
 * does with a value.
 *
 * Since: 1.0
 */
void
sluice_attempt_return_error (SluiceAttempt *self,
                             GError        *error)
{
  g_return_if_fail (SLUICE_IS_ATTEMPT (self));
  g_return_if_fail (error != NULL);
  if (!self->running || self->returned)
    {
      g_critical ("%s: the attempt is not running or has its result already", G_STRFUNC);
      g_error_free (error);
      return;
    }

  self->error = error;
  self->returned = TRUE;
}

/**
 * sluice_attempt_propagate_result:
 * @self: an attempt whose handler called sluice_attempt_return_result()
 *   or sluice_attempt_return_error(), given to its callback as the
 *   #GAsyncResult
 * @error: return location for an error
 *
 * What a handler that completes its attempts with
 * sluice_attempt_return_result() returns from its handle_finish. Call it
 * once per attempt.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL with @error
 *   set
 *
 * Since: 1.0
 */
GVariant *
sluice_attempt_propagate_result (SluiceAttempt  *self,
                                 GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_ATTEMPT (self), NULL);
  g_return_val_if_fail (self->returned, NULL);

  self->returned = FALSE;
  if (self->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self->error));
      return NULL;
    }
  return g_steal_pointer (&self->result);
}
