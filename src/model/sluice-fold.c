/* sluice-fold.c: the state of a recorded run at a moment, folded from its
 * recorder one event at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-fold.h"
#include "sluice-fold-private.h"

/**
 * SluiceFold:
 *
 * A cursor over a #SluiceRecorder: the state of the run after its first
 * `position` events (positions count from the run's first event, those a
 * bounded recorder dropped included). Every event carries the live counts
 * (queued, in flight, pulled, succeeded, failed, retries, lead), so the
 * state is the last folded event's counts plus the few counts events do
 * not carry (#SluiceFoldCount), kept as sums.
 *
 * Moving costs one step per event moved over, forwards or backwards, so
 * a view that follows a live run or a scrubber that moves a little each
 * frame never re-reads the whole run; a jump to a time finds its event by
 * binary search, as the events are in clock order. A fold cannot move
 * back over events the recorder has dropped, and skips those it dropped
 * before the fold read them (their sums are lost: give a live view's
 * fold a recorder that keeps what it needs, or read it every frame).
 */

struct _SluiceFold
{
  GObject         parent_instance;

  SluiceRecorder *recorder;
  guint64         position;     /* events folded */
  gint64          start_time;   /* the run-start's, or -1 */
  guint           counts[SLUICE_FOLD_N_COUNTS];
  guint64         n_reads;      /* events read from the recorder, for tests */
};

G_DEFINE_FINAL_TYPE (SluiceFold, sluice_fold, G_TYPE_OBJECT)

static void
sluice_fold_finalize (GObject *object)
{
  SluiceFold *self = SLUICE_FOLD (object);

  g_clear_object (&self->recorder);

  G_OBJECT_CLASS (sluice_fold_parent_class)->finalize (object);
}

static void
sluice_fold_class_init (SluiceFoldClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_fold_finalize;
}

static void
sluice_fold_init (SluiceFold *self)
{
  self->start_time = -1;
}

/**
 * sluice_fold_new:
 * @recorder: the run's events
 *
 * Returns: (transfer full): a fold before the first event
 */
SluiceFold *
sluice_fold_new (SluiceRecorder *recorder)
{
  SluiceFold *self;

  g_return_val_if_fail (SLUICE_IS_RECORDER (recorder), NULL);

  self = g_object_new (SLUICE_TYPE_FOLD, NULL);
  self->recorder = g_object_ref (recorder);
  return self;
}

/**
 * sluice_fold_get_recorder:
 * @self: a #SluiceFold
 *
 * Returns: (transfer none): the recorder it folds
 */
SluiceRecorder *
sluice_fold_get_recorder (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), NULL);
  return self->recorder;
}

/**
 * sluice_fold_get_first_position:
 * @self: a #SluiceFold
 *
 * Returns: the position of the oldest event the recorder still holds
 */
guint64
sluice_fold_get_first_position (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), 0);
  return sluice_recorder_get_first_position (self->recorder);
}

/**
 * sluice_fold_get_end_position:
 * @self: a #SluiceFold
 *
 * Returns: how many events the run has recorded so far
 */
guint64
sluice_fold_get_end_position (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), 0);
  return sluice_recorder_get_end_position (self->recorder);
}

/**
 * sluice_fold_get_event:
 * @self: a #SluiceFold
 * @position: an event's position in the run
 *
 * Returns: (transfer none) (nullable): the event, or %NULL if the
 *   recorder dropped it or does not have it yet
 */
const SluiceEvent *
sluice_fold_get_event (SluiceFold *self,
                       guint64     position)
{
  const SluiceEvent *event;

  g_return_val_if_fail (SLUICE_IS_FOLD (self), NULL);

  event = sluice_recorder_lookup (self->recorder, position);
  if (event != NULL)
    self->n_reads++;
  return event;
}

/**
 * _sluice_fold_get_n_reads:
 * @self: a #SluiceFold
 *
 * Every event a fold steps over goes through sluice_fold_get_event():
 * tests count them to see that a move costs the events moved over, not
 * the run (finding a time is sluice_recorder_find_time()'s bisection, a
 * logarithm of the run, not counted).
 *
 * Returns: how many events the fold has read from its recorder
 */
guint64
_sluice_fold_get_n_reads (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), 0);
  return self->n_reads;
}

/* What an event adds to the sums: +1 going forwards, -1 backwards. */
static void
count_event (SluiceFold        *self,
             const SluiceEvent *event,
             int                sign)
{
  SluiceFoldCount count;

  switch (event->kind)
    {
    case SLUICE_EVENT_ATTEMPT_END:
      if (event->outcome != SLUICE_OUTCOME_TIMED_OUT)
        return;
      count = SLUICE_FOLD_TIMEOUTS;
      break;
    case SLUICE_EVENT_RETRY_SKIPPED:
      count = SLUICE_FOLD_RETRIES_SKIPPED;
      break;
    case SLUICE_EVENT_DEADLINE_EXCEEDED:
      count = SLUICE_FOLD_SHED;
      break;
    case SLUICE_EVENT_ITEM_CANCELLED:
      count = SLUICE_FOLD_CANCELLED;
      break;
    case SLUICE_EVENT_ITEM_DROPPED:
      count = SLUICE_FOLD_DROPPED;
      break;
    case SLUICE_EVENT_RESULT:
      count = SLUICE_FOLD_RESULTS;
      break;
    case SLUICE_EVENT_RUN_START:
      self->start_time = sign > 0 ? event->time : -1;
      return;
    default:
      return;
    }
  self->counts[count] += sign;
}

/**
 * sluice_fold_seek:
 * @self: a #SluiceFold
 * @position: how many of the run's events to fold
 *
 * Moves to the state after the first @position events, one step per event
 * between here and there. @position is kept within what the recorder
 * holds: not before the oldest event it still has (if the fold is not
 * already there), not after its newest.
 */
void
sluice_fold_seek (SluiceFold *self,
                  guint64     position)
{
  guint64 first;

  g_return_if_fail (SLUICE_IS_FOLD (self));

  first = sluice_fold_get_first_position (self);
  position = MIN (position, sluice_fold_get_end_position (self));
  position = MAX (position, MIN (self->position, first));

  /* Events dropped before the fold read them are gone, sums and all: a
   * move forwards from before them starts at the oldest event held, and
   * ends there at least. */
  if (position > self->position)
    {
      self->position = MAX (self->position, first);
      position = MAX (position, first);
    }
  for (; self->position < position; self->position++)
    count_event (self, sluice_fold_get_event (self, self->position), +1);
  for (; self->position > position; self->position--)
    count_event (self, sluice_fold_get_event (self, self->position - 1), -1);
}

/**
 * sluice_fold_find_position:
 * @self: a #SluiceFold
 * @time: a clock time, in µs
 *
 * Returns: how many of the recorded events happened at or before @time
 *   (counting those the recorder dropped), found by binary search
 */
guint64
sluice_fold_find_position (SluiceFold *self,
                           gint64      time)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), 0);

  return sluice_recorder_find_time (self->recorder, time);
}

/**
 * sluice_fold_seek_time:
 * @self: a #SluiceFold
 * @time: a clock time, in µs
 *
 * Moves to the state at @time: every event at or before it folded, the
 * ones at @time included.
 */
void
sluice_fold_seek_time (SluiceFold *self,
                       gint64      time)
{
  g_return_if_fail (SLUICE_IS_FOLD (self));
  sluice_fold_seek (self, sluice_fold_find_position (self, time));
}

/**
 * sluice_fold_seek_end:
 * @self: a #SluiceFold
 *
 * Folds every event recorded so far: a live run's state now.
 */
void
sluice_fold_seek_end (SluiceFold *self)
{
  g_return_if_fail (SLUICE_IS_FOLD (self));
  sluice_fold_seek (self, sluice_fold_get_end_position (self));
}

/**
 * sluice_fold_get_position:
 * @self: a #SluiceFold
 *
 * Returns: how many events are folded
 */
guint64
sluice_fold_get_position (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), 0);
  return self->position;
}

/**
 * sluice_fold_get_last:
 * @self: a #SluiceFold
 *
 * The newest folded event, whose live counts are the run's at this point.
 *
 * Returns: (transfer none) (nullable): the event, or %NULL before the
 *   first (or if the recorder dropped it)
 */
const SluiceEvent *
sluice_fold_get_last (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), NULL);
  return self->position > 0 ? sluice_fold_get_event (self, self->position - 1) : NULL;
}

/**
 * sluice_fold_get_start_time:
 * @self: a #SluiceFold
 *
 * Returns: the clock time the run started, or -1 before its run-start
 */
gint64
sluice_fold_get_start_time (SluiceFold *self)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), -1);
  return self->start_time;
}

/**
 * sluice_fold_get_count:
 * @self: a #SluiceFold
 * @count: which
 *
 * Returns: how many such events the folded ones hold
 */
guint
sluice_fold_get_count (SluiceFold      *self,
                       SluiceFoldCount  count)
{
  g_return_val_if_fail (SLUICE_IS_FOLD (self), 0);
  g_return_val_if_fail (count < SLUICE_FOLD_N_COUNTS, 0);
  return self->counts[count];
}
