/* sluice-timeline.c: the attempts and counts of a recorded run, ready to draw
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "sluice-timeline.h"
#include "sluice-timeline-items-private.h"
#include "sluice-item-key-private.h"
#include "sluice-timeline-series-private.h"

/**
 * SluiceTimeline:
 *
 * The normalised model the views draw: one #SluiceTimelineBar per attempt
 * (its worker, start, end, outcome, cancel rounds and error) and the chart
 * series (queue depth, attempts in flight, pulled-but-unfinished items,
 * busy workers, results waiting for the caller) sampled at every event, one
 * sample per instant at which they changed;
 * the retry policy's marks on the lanes (#SluiceTimelineMark: backoffs,
 * skipped retries, shed items) and the retry budget's token level, when
 * the pool has a budget; the run-level moments (stop, drain, end…) as
 * #SluiceTimelineMoment. The chart's part lives in sluice-timeline-series.c.
 *
 * It is built incrementally: each sluice_timeline_update() consumes only
 * the events recorded since the previous one, so a view can call it once
 * per frame during a long run. Like Sysprof's charts, the data is
 * normalised once here and the drawing code only reads it.
 */

struct _SluiceTimeline
{
  GObject       parent_instance;

  guint         n_workers;
  GArray       *bars;          /* SluiceTimelineBar, in start order */
  GHashTable   *last_bar;      /* item (gint64 *) → index + 1 of its latest bar */
  GStringChunk *strings;       /* the bars' error types and messages */
  GArray       *marks;         /* SluiceTimelineMark, in time order */
  GHashTable   *backoff_mark;  /* item (gint64 *) → index + 1 of its backoff under way */
  guint         mark_kinds;    /* 1 << SluiceTimelineMarkKind, for each kind seen */
  guint         n_looking[SLUICE_TIMELINE_N_BAR_LOOKS]; /* the bars that look so now */
  SluiceTimelineSeries *series; /* the chart's counts, budget level, moments */
  SluiceTimelineItems *items; /* the items held now (busy workers), their values */

  guint64       consumed;      /* cursor into the recorder: the next event to read */
  gint64        start_time;
  gint64        end_time;
  guint         queue_capacity; /* from the run-start event; 0 until then */
  guint         lead_bound;
  gint64        item_timeout;   /* -1 until then */
  gboolean      empty;
};

G_DEFINE_FINAL_TYPE (SluiceTimeline, sluice_timeline, G_TYPE_OBJECT)

static void
sluice_timeline_finalize (GObject *object)
{
  SluiceTimeline *self = SLUICE_TIMELINE (object);

  g_clear_pointer (&self->bars, g_array_unref);
  g_clear_pointer (&self->last_bar, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->marks, g_array_unref);
  g_clear_pointer (&self->backoff_mark, g_hash_table_unref);
  g_clear_pointer (&self->series, _sluice_timeline_series_free);
  g_clear_pointer (&self->items, _sluice_timeline_items_free);

  G_OBJECT_CLASS (sluice_timeline_parent_class)->finalize (object);
}

static void
sluice_timeline_class_init (SluiceTimelineClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_timeline_finalize;
}

static void
sluice_timeline_init (SluiceTimeline *self)
{
  self->bars = g_array_new (FALSE, TRUE, sizeof (SluiceTimelineBar));
  self->last_bar = ITEM_TABLE_NEW (NULL);
  self->strings = g_string_chunk_new (1024);
  self->marks = g_array_new (FALSE, TRUE, sizeof (SluiceTimelineMark));
  self->backoff_mark = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->series = _sluice_timeline_series_new ();
  self->items = _sluice_timeline_items_new ();
  self->item_timeout = -1;
  self->empty = TRUE;
}

/**
 * sluice_timeline_new:
 * @n_workers: the pool's workers: the number of lanes, at least
 *
 * Creates an empty model. It grows to more lanes if the events name more
 * workers.
 *
 * Returns: (transfer full): a new #SluiceTimeline
 */
SluiceTimeline *
sluice_timeline_new (guint n_workers)
{
  SluiceTimeline *self = g_object_new (SLUICE_TYPE_TIMELINE, NULL);

  self->n_workers = n_workers;

  return self;
}

/* 1 << SluiceTimelineBarLook, for each way @bar looks now. */
static guint
bar_looks (const SluiceTimelineBar *bar)
{
  guint looks = 0;

  switch (bar->outcome)
    {
    case SLUICE_OUTCOME_OK:        looks = 1u << SLUICE_TIMELINE_BAR_OK; break;
    case SLUICE_OUTCOME_FAILED:    looks = 1u << (bar->retried ? SLUICE_TIMELINE_BAR_RETRIED : SLUICE_TIMELINE_BAR_FAILED); break;
    case SLUICE_OUTCOME_TIMED_OUT: looks = 1u << SLUICE_TIMELINE_BAR_TIMED_OUT; break;
    case SLUICE_OUTCOME_CANCELLED: looks = 1u << SLUICE_TIMELINE_BAR_CANCELLED; break;
    case SLUICE_OUTCOME_NONE:
    default:                       looks = 1u << SLUICE_TIMELINE_BAR_RUNNING; break;
    }
  if (bar->deadline >= 0 && (bar->end < 0 || bar->deadline <= bar->end))
    looks |= 1u << SLUICE_TIMELINE_BAR_DEADLINE;
  if (bar->n_rounds > 0)
    looks |= 1u << SLUICE_TIMELINE_BAR_CANCEL_REQUEST;
  return looks;
}

/* Counts @bar's looks in (@delta 1) or out (-1): around every change of a
 * bar, so that what the lanes show is known without reading every bar
 * at every frame. */
static void
count_looks (SluiceTimeline          *self,
             const SluiceTimelineBar *bar,
             int                      delta)
{
  guint looks = bar_looks (bar);

  for (guint look = 0; look < SLUICE_TIMELINE_N_BAR_LOOKS; look++)
    if (looks & (1u << look))
      self->n_looking[look] += delta;
}

static SluiceTimelineBar *
find_last_bar (SluiceTimeline *self,
               gint64          item)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->last_bar, ITEM_KEY (item)));

  if (index == 0)
    return NULL;

  return &g_array_index (self->bars, SluiceTimelineBar, index - 1);
}

/* Finds the bar of this attempt of this item. A worker may only hold one
 * attempt of an item at a time, so the item's latest bar is the one, unless
 * its start was dropped from a bounded recorder. */
static SluiceTimelineBar *
find_bar (SluiceTimeline    *self,
          const SluiceEvent *event)
{
  SluiceTimelineBar *bar = find_last_bar (self, event->item);

  if (bar == NULL || bar->attempt != event->attempt)
    return NULL;

  return bar;
}

static const char *
intern (SluiceTimeline *self,
        const char     *text)
{
  return text != NULL ? g_string_chunk_insert_const (self->strings, text) : NULL;
}

static void
see_worker (SluiceTimeline    *self,
            const SluiceEvent *event)
{
  if (event->worker >= 0)
    self->n_workers = MAX (self->n_workers, (guint) event->worker + 1);
}

/* The item's backoff under way, if any, taken out of the index: it ends
 * with the event at hand. */
static SluiceTimelineMark *
take_backoff_mark (SluiceTimeline *self,
                   gint64          item)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->backoff_mark, &item));

  if (index == 0)
    return NULL;

  g_hash_table_remove (self->backoff_mark, &item);
  return &g_array_index (self->marks, SluiceTimelineMark, index - 1);
}

static void
on_attempt_start (SluiceTimeline    *self,
                  const SluiceEvent *event)
{
  SluiceTimelineBar bar = {
    .item = event->item,
    .attempt = event->attempt,
    .worker = event->worker,
    .start = event->time,
    .end = -1,
    .deadline = event->deadline,
    .outcome = SLUICE_OUTCOME_NONE,
    .value = _sluice_timeline_items_get_value (self->items, event->item),
  };
  gint64 item = event->item;
  SluiceTimelineMark *backoff = take_backoff_mark (self, event->item);

  g_array_append_val (self->bars, bar);
  count_looks (self, &bar, 1);
  g_hash_table_replace (self->last_bar, ITEM_KEY_NEW (item), GUINT_TO_POINTER (self->bars->len));
  see_worker (self, event);

  /* The backoff ends where the next attempt starts, exactly. */
  if (backoff != NULL)
    backoff->end = event->time;
}

static void
on_cancel_request (SluiceTimeline    *self,
                   const SluiceEvent *event)
{
  SluiceTimelineBar *bar = find_bar (self, event);

  if (bar != NULL && bar->n_rounds < SLUICE_TIMELINE_MAX_ROUNDS)
    {
      count_looks (self, bar, -1);
      bar->round_times[bar->n_rounds++] = event->time;
      count_looks (self, bar, 1);
    }
}

static void
on_attempt_end (SluiceTimeline    *self,
                const SluiceEvent *event)
{
  SluiceTimelineBar *bar = find_bar (self, event);

  if (bar == NULL)
    return;

  count_looks (self, bar, -1);
  bar->end = event->time;
  bar->outcome = event->outcome;
  bar->retried = event->retried;
  count_looks (self, bar, 1);
  bar->error_type = intern (self, event->error_type);
  bar->error_message = intern (self, event->error_message);
  bar->late_result = event->outcome == SLUICE_OUTCOME_TIMED_OUT && event->value != NULL;
}

static void
on_item_failed (SluiceTimeline    *self,
                const SluiceEvent *event)
{
  SluiceTimelineBar *bar = find_last_bar (self, event->item);

  if (bar != NULL)
    bar->final_failure = TRUE;
}

static SluiceTimelineMark *
add_mark (SluiceTimeline         *self,
          SluiceTimelineMarkKind  kind,
          const SluiceEvent      *event)
{
  SluiceTimelineMark mark = {
    .kind = kind,
    .item = event->item,
    .attempt = event->attempt,
    .worker = event->worker,
    .start = event->time,
    .end = event->time,
    .delay = event->delay,
    .attempt_start = -1,
    .reason = event->reason != NULL ? g_intern_string (event->reason) : NULL,
  };

  g_array_append_val (self->marks, mark);
  self->mark_kinds |= 1u << kind;
  see_worker (self, event);
  return &g_array_index (self->marks, SluiceTimelineMark, self->marks->len - 1);
}

static void
on_backoff (SluiceTimeline    *self,
            const SluiceEvent *event)
{
  SluiceTimelineMark *mark = add_mark (self, SLUICE_TIMELINE_MARK_BACKOFF, event);
  gint64 *key = g_new (gint64, 1);

  mark->end = event->time + MAX (event->delay, 0);
  *key = event->item;
  g_hash_table_replace (self->backoff_mark, key, GUINT_TO_POINTER (self->marks->len));
}

/* The mark goes on the failed attempt's bar, in place of its cross. */
static void
on_retry_skipped (SluiceTimeline    *self,
                  const SluiceEvent *event)
{
  SluiceTimelineMark *mark = add_mark (self, SLUICE_TIMELINE_MARK_RETRY_SKIPPED, event);
  SluiceTimelineBar *bar = find_bar (self, event);

  if (bar == NULL)
    return;
  bar->retry_skipped = TRUE;
  mark->outcome = bar->outcome;
  mark->attempt_start = bar->start;
}

/* A cancellation removes the backoff's timer: the wait ends here, and no
 * attempt follows. */
static void
on_item_cancelled (SluiceTimeline    *self,
                   const SluiceEvent *event)
{
  SluiceTimelineMark *backoff = take_backoff_mark (self, event->item);

  if (backoff != NULL && backoff->end > event->time)
    {
      backoff->end = MAX (event->time, backoff->start);
      backoff->cut_short = TRUE;
    }
}

/**
 * sluice_timeline_add_event:
 * @self: a #SluiceTimeline
 * @event: the next event of the run
 *
 * Adds one event to the model. sluice_timeline_update() calls this for
 * each new event of a recorder; tests and other sources of events may call
 * it directly.
 */
void
sluice_timeline_add_event (SluiceTimeline    *self,
                           const SluiceEvent *event)
{
  g_return_if_fail (SLUICE_IS_TIMELINE (self));
  g_return_if_fail (event != NULL);

  if (self->empty)
    {
      self->start_time = event->time;
      self->end_time = event->time;
      self->empty = FALSE;
    }
  self->end_time = MAX (self->end_time, event->time);

  switch (event->kind)
    {
    case SLUICE_EVENT_RUN_START:
      self->queue_capacity = event->queue_capacity;
      self->lead_bound = event->lead_bound;
      self->item_timeout = event->item_timeout;
      break;
    case SLUICE_EVENT_ATTEMPT_START:
      on_attempt_start (self, event);
      break;
    case SLUICE_EVENT_CANCEL_REQUEST:
      on_cancel_request (self, event);
      break;
    case SLUICE_EVENT_ATTEMPT_END:
      on_attempt_end (self, event);
      break;
    case SLUICE_EVENT_ITEM_FAILED:
      on_item_failed (self, event);
      break;
    case SLUICE_EVENT_BACKOFF:
      on_backoff (self, event);
      break;
    case SLUICE_EVENT_RETRY_SKIPPED:
      on_retry_skipped (self, event);
      break;
    case SLUICE_EVENT_DEADLINE_EXCEEDED:
      add_mark (self, SLUICE_TIMELINE_MARK_SHED, event)->delay = -1;
      break;
    case SLUICE_EVENT_ITEM_CANCELLED:
      on_item_cancelled (self, event);
      break;
    default:
      break;
    }

  _sluice_timeline_items_add_event (self->items, event);
  _sluice_timeline_series_add_event (self->series, event, _sluice_timeline_items_get_busy (self->items));
}

/**
 * sluice_timeline_add_gap:
 * @self: a #SluiceTimeline
 * @time: the time of the first event after the gap
 *
 * Events never came before the next one (an attached program's ring
 * dropped them): the model cannot know how the attempts under way ended,
 * nor which items the workers hold. It ends the attempts still open at
 * @time (an end that comes later still counts), forgets which items are
 * held (the next events say it again), and marks the moment, so that
 * nothing it shows outlives what it cannot know: no phantom bars, no more
 * busy workers than the pool has.
 */
void
sluice_timeline_add_gap (SluiceTimeline *self,
                         gint64          time)
{
  g_return_if_fail (SLUICE_IS_TIMELINE (self));

  for (guint i = 0; i < self->bars->len; i++)
    {
      SluiceTimelineBar *bar = &g_array_index (self->bars, SluiceTimelineBar, i);

      if (bar->end >= 0)
        continue;
      count_looks (self, bar, -1);
      bar->end = MAX (time, bar->start);
      count_looks (self, bar, 1);
    }
  _sluice_timeline_items_forget_held (self->items);
  _sluice_timeline_series_add_moment (self->series, SLUICE_TIMELINE_MOMENT_EVENTS_LOST, time);
}

/**
 * sluice_timeline_has_moment_kind:
 * @self: a #SluiceTimeline
 * @kind: a kind of moment
 *
 * Returns: whether a moment of @kind is marked
 */
gboolean
sluice_timeline_has_moment_kind (SluiceTimeline           *self,
                                 SluiceTimelineMomentKind  kind)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), FALSE);

  for (guint i = 0; i < sluice_timeline_get_n_moments (self); i++)
    if (sluice_timeline_get_moment (self, i)->kind == kind)
      return TRUE;
  return FALSE;
}

/**
 * sluice_timeline_update:
 * @self: a #SluiceTimeline
 * @recorder: the recorder of the run
 *
 * Consumes the events recorded since the last update, from the model's
 * cursor into the recorder (sluice_recorder_next()), so a bounded recorder
 * works as long as the model is updated before the ring buffer wraps past
 * what it has not read (those events are skipped). If the recorder was
 * cleared (its end position went below the cursor), the model starts again
 * from its first event.
 */
void
sluice_timeline_update (SluiceTimeline *self,
                        SluiceRecorder *recorder)
{
  const SluiceEvent *event;

  g_return_if_fail (SLUICE_IS_TIMELINE (self));
  g_return_if_fail (SLUICE_IS_RECORDER (recorder));

  if (sluice_recorder_get_end_position (recorder) < self->consumed)
    sluice_timeline_clear (self);

  while ((event = sluice_recorder_next (recorder, &self->consumed)) != NULL)
    {
      /* The event was at consumed - 1: a gap just before it ends what
       * was open. */
      if (sluice_recorder_get_lost_before (recorder, self->consumed - 1) > 0)
        sluice_timeline_add_gap (self, event->time);
      sluice_timeline_add_event (self, event);
    }
}

/**
 * sluice_timeline_clear:
 * @self: a #SluiceTimeline
 *
 * Forgets every bar, mark and sample, and the run's bounds, for a new run.
 * The number of workers stays.
 */
void
sluice_timeline_clear (SluiceTimeline *self)
{
  g_return_if_fail (SLUICE_IS_TIMELINE (self));

  g_array_set_size (self->bars, 0);
  memset (self->n_looking, 0, sizeof self->n_looking);
  g_hash_table_remove_all (self->last_bar);
  g_string_chunk_clear (self->strings);
  g_array_set_size (self->marks, 0);
  g_hash_table_remove_all (self->backoff_mark);
  self->mark_kinds = 0;
  _sluice_timeline_series_clear (self->series);
  _sluice_timeline_items_clear (self->items);
  self->consumed = 0;
  self->start_time = 0;
  self->end_time = 0;
  self->queue_capacity = 0;
  self->lead_bound = 0;
  self->item_timeout = -1;
  self->empty = TRUE;
}

/**
 * sluice_timeline_get_bar_looks:
 * @self: a #SluiceTimeline
 *
 * What its bars look like now, kept as they change: the lanes' key
 * explains these, at every frame, without reading every bar.
 *
 * Returns: 1 << #SluiceTimelineBarLook, for each look some bar has
 */
guint
sluice_timeline_get_bar_looks (SluiceTimeline *self)
{
  guint looks = 0;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);

  for (guint look = 0; look < SLUICE_TIMELINE_N_BAR_LOOKS; look++)
    if (self->n_looking[look] > 0)
      looks |= 1u << look;
  return looks;
}

/**
 * sluice_timeline_get_queue_capacity:
 * @self: a #SluiceTimeline
 *
 * Returns: the run's queue capacity, as its run-start event gave it, or 0
 *   before that event
 */
guint
sluice_timeline_get_queue_capacity (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->queue_capacity;
}

/**
 * sluice_timeline_get_lead_bound:
 * @self: a #SluiceTimeline
 *
 * Returns: the most items the run's producer pulls ahead (see
 *   #SluiceEvent.lead_bound), as its run-start event gave it, or 0 before
 *   that event
 */
guint
sluice_timeline_get_lead_bound (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->lead_bound;
}

/**
 * sluice_timeline_get_item_timeout:
 * @self: a #SluiceTimeline
 *
 * Returns: the pool's item timeout in microseconds, as the run-start event
 *   gave it, or -1 before that event
 */
gint64
sluice_timeline_get_item_timeout (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), -1);
  return self->item_timeout;
}

/**
 * sluice_timeline_get_n_workers:
 * @self: a #SluiceTimeline
 *
 * Returns: the number of lanes: the workers given at creation, or more if
 *   the events named more
 */
guint
sluice_timeline_get_n_workers (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->n_workers;
}

/**
 * sluice_timeline_get_n_bars:
 * @self: a #SluiceTimeline
 *
 * Returns: the number of attempts seen
 */
guint
sluice_timeline_get_n_bars (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->bars->len;
}

/**
 * sluice_timeline_get_bar:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of bars; bars are in start order
 *
 * Returns: (transfer none): the bar, valid until the next update or clear
 */
const SluiceTimelineBar *
sluice_timeline_get_bar (SluiceTimeline *self,
                         guint           i)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (i < self->bars->len, NULL);

  return &g_array_index (self->bars, SluiceTimelineBar, i);
}

/**
 * sluice_timeline_get_bars:
 * @self: a #SluiceTimeline
 * @n_bars: (out): the number of bars
 *
 * The bars side by side, for a reader that goes through all of them (the
 * lanes, at every frame: a call and two checks per bar of a long run
 * were a quarter of their drawing).
 *
 * Returns: (transfer none) (array length=n_bars) (nullable): the bars, in
 *   start order, valid until the next update or clear
 */
const SluiceTimelineBar *
sluice_timeline_get_bars (SluiceTimeline *self,
                          guint          *n_bars)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (n_bars != NULL, NULL);

  *n_bars = self->bars->len;
  return self->bars->len > 0 ? &g_array_index (self->bars, SluiceTimelineBar, 0) : NULL;
}

/**
 * sluice_timeline_get_start_time:
 * @self: a #SluiceTimeline
 *
 * Returns: the time of the first event, in clock microseconds, or 0
 */
gint64
sluice_timeline_get_start_time (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->start_time;
}

/**
 * sluice_timeline_get_end_time:
 * @self: a #SluiceTimeline
 *
 * Returns: the time of the latest event, in clock microseconds, or 0
 */
gint64
sluice_timeline_get_end_time (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->end_time;
}

/* The chart's part of the model, for its getters in
 * sluice-timeline-series.c. */
SluiceTimelineSeries *
_sluice_timeline_get_series (SluiceTimeline *self)
{
  return self->series;
}

/**
 * sluice_timeline_get_n_marks:
 * @self: a #SluiceTimeline
 *
 * Returns: the number of retry-policy marks seen: backoffs, skipped
 *   retries and shed items
 */
guint
sluice_timeline_get_n_marks (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return self->marks->len;
}

/**
 * sluice_timeline_get_mark:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of marks; marks are in order of their start
 *
 * Returns: (transfer none): the mark, valid until the next update or clear
 */
const SluiceTimelineMark *
sluice_timeline_get_mark (SluiceTimeline *self,
                          guint           i)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (i < self->marks->len, NULL);

  return &g_array_index (self->marks, SluiceTimelineMark, i);
}

/**
 * sluice_timeline_has_mark_kind:
 * @self: a #SluiceTimeline
 * @kind: a kind of mark
 *
 * Returns: whether the run has a mark of @kind, so that a key explains
 *   only what is drawn
 */
gboolean
sluice_timeline_has_mark_kind (SluiceTimeline         *self,
                               SluiceTimelineMarkKind  kind)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), FALSE);
  return (self->mark_kinds & (1u << kind)) != 0;
}
