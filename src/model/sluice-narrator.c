/* sluice-narrator.c: plain sentences that explain a recorded run at one moment
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-narrator.h"
#include "sluice-narrator-private.h"

/**
 * SluiceNarrator:
 *
 * Explains a recorded run at a time `t` in a few plain, translated
 * sentences, for the "Explain this moment" panel: what each worker does
 * and why, what the producer waits on, the deadlines and cancel rounds in
 * progress, what a stop, a drain or the shutdown deadline is doing, and
 * how the run ended. The events at `t` itself count as having happened.
 *
 * It reads two models and copies neither: the recorder, for the live
 * counts (the latest event at or before `t`, found by binary search), and
 * the #SluiceTimeline folded from the same recorder, for the attempts
 * (bars) and backoffs (marks) of each worker. What neither keeps in a form
 * it can search by time it indexes once, incrementally, as events arrive:
 * the first time of each run-level event (source end, stop, drain,
 * shutdown deadline…), when the producer held each item it pulled, which
 * attempts ignored cancellation, and each worker's bars and backoffs in
 * time order. A narration then costs O(log n) per worker, however long
 * the run, so a scrubber may ask for one every frame.
 *
 * Update the timeline from the recorder before each narration
 * (sluice_timeline_update()); the narrator reads what is new in both.
 */

typedef struct {
  gint64 item;
  gint64 from, to;   /* pulled at @from; put or dropped at @to, or -1 */
} Held;

typedef struct {
  gint64 item;
  guint  attempt;
  gint64 time;
} Ignoring;

struct _SluiceNarrator
{
  GObject         parent_instance;

  SluiceRecorder *recorder;
  SluiceTimeline *timeline;

  guint64         consumed;           /* cursor into the recorder: the next event to read */
  gint64          facts[NARRATOR_N_FACTS];
  char           *source_error_type;
  char           *fatal_error_type;
  gint64          stop_failed_item;
  guint           shutdown_dropped, shutdown_cancelled;
  SluiceEventKind previous_kind;      /* the event before the one read */
  gint64          previous_item;
  GArray         *held;               /* Held, in pull order */
  GArray         *ignoring;           /* Ignoring, in time order */

  GPtrArray      *lane_bars;          /* per worker: GArray of guint bar indices */
  GPtrArray      *lane_backoffs;      /* per worker: GArray of guint mark indices */
  guint           n_bars_read, n_marks_read;

  guint           queue_capacity, lead_bound;
  gint64          shutdown_timeout;
};

G_DEFINE_FINAL_TYPE (SluiceNarrator, sluice_narrator, G_TYPE_OBJECT)

static void
sluice_narrator_finalize (GObject *object)
{
  SluiceNarrator *self = SLUICE_NARRATOR (object);

  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);
  g_clear_pointer (&self->source_error_type, g_free);
  g_clear_pointer (&self->fatal_error_type, g_free);
  g_clear_pointer (&self->held, g_array_unref);
  g_clear_pointer (&self->ignoring, g_array_unref);
  g_clear_pointer (&self->lane_bars, g_ptr_array_unref);
  g_clear_pointer (&self->lane_backoffs, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_narrator_parent_class)->finalize (object);
}

static void
sluice_narrator_class_init (SluiceNarratorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_narrator_finalize;
}

static void
forget_events (SluiceNarrator *self)
{
  self->consumed = 0;
  for (guint i = 0; i < NARRATOR_N_FACTS; i++)
    self->facts[i] = -1;
  g_clear_pointer (&self->source_error_type, g_free);
  g_clear_pointer (&self->fatal_error_type, g_free);
  self->stop_failed_item = -1;
  self->shutdown_dropped = 0;
  self->shutdown_cancelled = 0;
  self->previous_kind = SLUICE_EVENT_RUN_START;
  self->previous_item = -1;
  g_array_set_size (self->held, 0);
  g_array_set_size (self->ignoring, 0);
}

static void
forget_lanes (SluiceNarrator *self)
{
  g_ptr_array_set_size (self->lane_bars, 0);
  g_ptr_array_set_size (self->lane_backoffs, 0);
  self->n_bars_read = 0;
  self->n_marks_read = 0;
}

static void
sluice_narrator_init (SluiceNarrator *self)
{
  self->held = g_array_new (FALSE, FALSE, sizeof (Held));
  self->ignoring = g_array_new (FALSE, FALSE, sizeof (Ignoring));
  self->lane_bars = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->lane_backoffs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  self->shutdown_timeout = -1;
  forget_events (self);
}

/**
 * sluice_narrator_new:
 * @recorder: the run's events
 * @timeline: the model folded from @recorder (the caller keeps it updated)
 *
 * Returns: (transfer full): a narrator for the run
 */
SluiceNarrator *
sluice_narrator_new (SluiceRecorder *recorder,
                     SluiceTimeline *timeline)
{
  SluiceNarrator *self;

  g_return_val_if_fail (SLUICE_IS_RECORDER (recorder), NULL);
  g_return_val_if_fail (SLUICE_IS_TIMELINE (timeline), NULL);

  self = g_object_new (SLUICE_TYPE_NARRATOR, NULL);
  self->recorder = g_object_ref (recorder);
  self->timeline = g_object_ref (timeline);
  return self;
}

/**
 * sluice_narrator_set_limits:
 * @self: a #SluiceNarrator
 * @queue_capacity: the input queue's capacity, or 0 when not known
 * @lead_bound: the most items pulled and not yet handled (queue + workers
 *   + 1), or 0 when not known
 *
 * Tells the narrator the pool's limits, so that it can say that the queue
 * is full and the lead at its bound, for a recording whose run-start event
 * does not carry them (#SluiceEvent.queue_capacity and lead_bound, which
 * the timeline keeps and which win over these).
 */
void
sluice_narrator_set_limits (SluiceNarrator *self,
                            guint           queue_capacity,
                            guint           lead_bound)
{
  g_return_if_fail (SLUICE_IS_NARRATOR (self));

  self->queue_capacity = queue_capacity;
  self->lead_bound = lead_bound;
}

/**
 * sluice_narrator_set_shutdown_timeout:
 * @self: a #SluiceNarrator
 * @timeout: the pool's shutdown timeout in microseconds, or 0 or -1 for
 *   none
 *
 * Lets the narration of a drain after a stop request say when the
 * shutdown deadline will fire (the events do not carry the timeout).
 */
void
sluice_narrator_set_shutdown_timeout (SluiceNarrator *self,
                                      gint64          timeout)
{
  g_return_if_fail (SLUICE_IS_NARRATOR (self));

  self->shutdown_timeout = timeout > 0 ? timeout : -1;
}

/* ---- the index over the recorder ----------------------------------------- */

static void
see_fact (SluiceNarrator    *self,
          NarratorFact       fact,
          const SluiceEvent *event)
{
  if (self->facts[fact] < 0)
    self->facts[fact] = event->time;
}

static void
see_pull (SluiceNarrator    *self,
          const SluiceEvent *event)
{
  Held held = { event->item, event->time, -1 };

  g_array_append_val (self->held, held);
}

/* The producer holds one item at a time: the latest it pulled, until it
 * puts it into the queue or a stop drops it. */
static void
see_release (SluiceNarrator    *self,
             const SluiceEvent *event)
{
  Held *last;

  if (self->held->len == 0)
    return;
  last = &g_array_index (self->held, Held, self->held->len - 1);
  if (last->item == event->item && last->to < 0)
    last->to = event->time;
}

static void
see_stop (SluiceNarrator    *self,
          const SluiceEvent *event)
{
  if (self->facts[NARRATOR_FACT_STOP] >= 0)
    return;
  see_fact (self, NARRATOR_FACT_STOP, event);
  /* Without keep-going the pool requests the stop right after an item
   * fails for good: say so, it is the lesson. */
  if (self->previous_kind == SLUICE_EVENT_ITEM_FAILED)
    self->stop_failed_item = self->previous_item;
}

static gboolean
at_shutdown (SluiceNarrator    *self,
             const SluiceEvent *event)
{
  return self->facts[NARRATOR_FACT_SHUTDOWN] >= 0 && event->time == self->facts[NARRATOR_FACT_SHUTDOWN];
}

static void
see_ignoring (SluiceNarrator    *self,
              const SluiceEvent *event)
{
  Ignoring ignoring = { event->item, event->attempt, event->time };

  g_array_append_val (self->ignoring, ignoring);
}

static void
see_event (SluiceNarrator    *self,
           const SluiceEvent *event)
{
  switch (event->kind)
    {
    case SLUICE_EVENT_PULL:               see_pull (self, event); break;
    case SLUICE_EVENT_QUEUE_PUT:          see_release (self, event); break;
    case SLUICE_EVENT_SOURCE_END:         see_fact (self, NARRATOR_FACT_SOURCE_END, event); break;
    case SLUICE_EVENT_STOP_REQUEST:       see_stop (self, event); break;
    case SLUICE_EVENT_DRAIN:              see_fact (self, NARRATOR_FACT_DRAIN, event); break;
    case SLUICE_EVENT_CANCEL:             see_fact (self, NARRATOR_FACT_CANCEL, event); break;
    case SLUICE_EVENT_SHUTDOWN_DEADLINE:  see_fact (self, NARRATOR_FACT_SHUTDOWN, event); break;
    case SLUICE_EVENT_RUN_END:            see_fact (self, NARRATOR_FACT_RUN_END, event); break;
    case SLUICE_EVENT_IGNORING_CANCEL:    see_ignoring (self, event); break;
    case SLUICE_EVENT_SOURCE_ERROR:
      if (self->facts[NARRATOR_FACT_SOURCE_ERROR] < 0)
        self->source_error_type = g_strdup (event->error_type);
      see_fact (self, NARRATOR_FACT_SOURCE_ERROR, event);
      break;
    case SLUICE_EVENT_FATAL:
      if (self->facts[NARRATOR_FACT_FATAL] < 0)
        self->fatal_error_type = g_strdup (event->error_type);
      see_fact (self, NARRATOR_FACT_FATAL, event);
      break;
    case SLUICE_EVENT_ITEM_DROPPED:
      see_release (self, event);
      if (at_shutdown (self, event))
        self->shutdown_dropped++;
      break;
    case SLUICE_EVENT_CANCEL_REQUEST:
      if (at_shutdown (self, event))
        self->shutdown_cancelled++;
      break;
    default:
      break;
    }

  self->previous_kind = event->kind;
  self->previous_item = event->item;
}

/* Reads the events recorded since the last narration, as
 * sluice_timeline_update() does. */
static void
read_recorder (SluiceNarrator *self)
{
  const SluiceEvent *event;

  /* The recorder was cleared (its positions start at 0 again). */
  if (sluice_recorder_get_end_position (self->recorder) < self->consumed)
    forget_events (self);

  while ((event = sluice_recorder_next (self->recorder, &self->consumed)) != NULL)
    see_event (self, event);
}

static GArray *
lane (GPtrArray *lanes,
      gint       worker)
{
  while (lanes->len <= (guint) worker)
    g_ptr_array_add (lanes, g_array_new (FALSE, FALSE, sizeof (guint)));
  return g_ptr_array_index (lanes, worker);
}

/* Bars and marks are appended in start order, and a worker runs one
 * attempt or backoff at a time, so each lane's list is in time order too
 * and can be searched by time. */
static void
read_timeline (SluiceNarrator *self)
{
  guint n_bars = sluice_timeline_get_n_bars (self->timeline);
  guint n_marks = sluice_timeline_get_n_marks (self->timeline);

  if (n_bars < self->n_bars_read || n_marks < self->n_marks_read)
    forget_lanes (self);

  for (guint i = self->n_bars_read; i < n_bars; i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (self->timeline, i);

      if (bar->worker >= 0)
        g_array_append_val (lane (self->lane_bars, bar->worker), i);
    }
  for (guint i = self->n_marks_read; i < n_marks; i++)
    {
      const SluiceTimelineMark *mark = sluice_timeline_get_mark (self->timeline, i);

      if (mark->kind == SLUICE_TIMELINE_MARK_BACKOFF && mark->worker >= 0)
        g_array_append_val (lane (self->lane_backoffs, mark->worker), i);
    }
  self->n_bars_read = n_bars;
  self->n_marks_read = n_marks;
}

/* ---- the moment ----------------------------------------------------------- */

static gint64
held_item_at (SluiceNarrator *self,
              gint64          time)
{
  guint low = 0, high = self->held->len;
  const Held *held;

  /* The last pull at or before @time. */
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (g_array_index (self->held, Held, mid).from <= time)
        low = mid + 1;
      else
        high = mid;
    }
  if (low == 0)
    return -1;
  held = &g_array_index (self->held, Held, low - 1);
  return held->to < 0 || held->to > time ? held->item : -1;
}

typedef gint64 (*StartFunc) (SluiceTimeline *timeline, guint index);

static gint64
bar_start (SluiceTimeline *timeline,
           guint           index)
{
  return sluice_timeline_get_bar (timeline, index)->start;
}

static gint64
mark_start (SluiceTimeline *timeline,
            guint           index)
{
  return sluice_timeline_get_mark (timeline, index)->start;
}

/* The index (into the timeline) of the lane's last bar or mark that
 * started at or before @time, or -1. */
static gint
last_started (SluiceTimeline *timeline,
              GPtrArray      *lanes,
              guint           worker,
              StartFunc       start,
              gint64          time)
{
  GArray *indices;
  guint low = 0, high;

  if (worker >= lanes->len)
    return -1;
  indices = g_ptr_array_index (lanes, worker);
  high = indices->len;
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (start (timeline, g_array_index (indices, guint, mid)) <= time)
        low = mid + 1;
      else
        high = mid;
    }
  return low > 0 ? (gint) g_array_index (indices, guint, low - 1) : -1;
}

static gint64
ignoring_since (SluiceNarrator          *self,
                const SluiceTimelineBar *bar,
                gint64                   time)
{
  for (guint i = 0; i < self->ignoring->len; i++)
    {
      const Ignoring *ignoring = &g_array_index (self->ignoring, Ignoring, i);

      if (ignoring->time > time)
        break;
      if (ignoring->item == bar->item && ignoring->attempt == bar->attempt)
        return ignoring->time;
    }
  return -1;
}

static gint64
fact_at (const NarratorMoment *moment,
         NarratorFact          fact)
{
  return moment->facts[fact];
}

/* A cancel request is the deadline's unless the shutdown deadline, a
 * cancellation or a fatal error made it. */
static NarratorAsked
why_asked (const NarratorMoment    *moment,
           const SluiceTimelineBar *bar)
{
  gint64 first = bar->round_times[0];
  gint64 shutdown = fact_at (moment, NARRATOR_FACT_SHUTDOWN);
  gint64 cancel = fact_at (moment, NARRATOR_FACT_CANCEL);
  gint64 fatal = fact_at (moment, NARRATOR_FACT_FATAL);

  if (shutdown >= 0 && first >= shutdown)
    return NARRATOR_ASKED_SHUTDOWN;
  if ((cancel >= 0 && first >= cancel) || (fatal >= 0 && first >= fatal))
    return NARRATOR_ASKED_CANCEL;
  return NARRATOR_ASKED_DEADLINE;
}

static void
find_worker (SluiceNarrator *self,
             NarratorMoment *moment,
             guint           worker)
{
  NarratorWorker *w = &moment->workers[worker];
  gint64 time = moment->time;
  gint b = last_started (self->timeline, self->lane_bars, worker, bar_start, time);
  gint m = last_started (self->timeline, self->lane_backoffs, worker, mark_start, time);
  const SluiceTimelineBar *bar = b >= 0 ? sluice_timeline_get_bar (self->timeline, b) : NULL;
  const SluiceTimelineMark *mark = m >= 0 ? sluice_timeline_get_mark (self->timeline, m) : NULL;

  *w = (NarratorWorker) { .state = NARRATOR_WORKER_IDLE, .ignoring_since = -1 };

  if (bar != NULL && (bar->end < 0 || bar->end > time))
    {
      w->state = NARRATOR_WORKER_RUNNING;
      w->bar = bar;
      while (w->rounds < bar->n_rounds && bar->round_times[w->rounds] <= time)
        w->rounds++;
      if (w->rounds > 0)
        w->asked = why_asked (moment, bar);
      w->ignoring_since = ignoring_since (self, bar, time);
    }
  else if (mark != NULL && mark->end > time)
    {
      w->state = NARRATOR_WORKER_BACKOFF;
      w->backoff = mark;
    }
}

static void
find_facts (SluiceNarrator *self,
            NarratorMoment *moment)
{
  for (guint i = 0; i < NARRATOR_N_FACTS; i++)
    moment->facts[i] = self->facts[i] >= 0 && self->facts[i] <= moment->time ? self->facts[i] : -1;

  moment->source_error_type = self->source_error_type;
  moment->fatal_error_type = self->fatal_error_type;
  moment->stop_failed_item = moment->facts[NARRATOR_FACT_STOP] >= 0 ? self->stop_failed_item : -1;
  if (moment->facts[NARRATOR_FACT_SHUTDOWN] >= 0)
    {
      moment->shutdown_dropped = self->shutdown_dropped;
      moment->shutdown_cancelled = self->shutdown_cancelled;
    }
}

static void
add_item (GArray            *items,
          const SluiceEvent *event)
{
  g_array_append_val (items, event->item);
}

/* The items that the events at exactly the moment's time finished: what
 * the teacher clicked on. A handful in practice; bounded all the same. */
static void
find_just_now (SluiceNarrator *self,
               NarratorMoment *moment,
               guint64         until)
{
  const SluiceEvent *event;

  /* Back from the newest event at the moment, as far as the recorder holds. */
  for (guint64 p = until, seen = 0;
       p > 0 && seen < 256 && (event = sluice_recorder_lookup (self->recorder, p - 1)) != NULL;
       p--, seen++)
    {
      if (event->time != moment->time)
        break;
      if (event->kind == SLUICE_EVENT_ITEM_OK)
        add_item (moment->just_now.succeeded, event);
      else if (event->kind == SLUICE_EVENT_ITEM_FAILED)
        add_item (moment->just_now.failed, event);
      else if (event->kind == SLUICE_EVENT_ITEM_DROPPED)
        add_item (moment->just_now.dropped, event);
    }
}

static void
find_counts (SluiceNarrator *self,
             NarratorMoment *moment,
             guint64         until)
{
  const SluiceEvent *last = sluice_recorder_lookup (self->recorder, until - 1);

  moment->queued = last->queued;
  moment->in_flight = last->in_flight;
  moment->pulled = last->pulled;
  moment->succeeded = last->succeeded;
  moment->failed = last->failed;
  moment->lead = last->lead;
}

static void
moment_init (SluiceNarrator *self,
             NarratorMoment *moment,
             gint64          time)
{
  guint n_workers = sluice_timeline_get_n_workers (self->timeline);
  guint capacity = sluice_timeline_get_queue_capacity (self->timeline);
  guint bound = sluice_timeline_get_lead_bound (self->timeline);

  *moment = (NarratorMoment) {
    .time = time,
    .stop_failed_item = -1,
    .held_item = -1,
    .queue_capacity = capacity > 0 ? capacity : self->queue_capacity,
    .lead_bound = bound > 0 ? bound : self->lead_bound,
    .item_timeout = sluice_timeline_get_item_timeout (self->timeline),
    .shutdown_timeout = self->shutdown_timeout,
    .n_workers = n_workers,
    .workers = g_new0 (NarratorWorker, MAX (n_workers, 1)),
    .just_now = {
      g_array_new (FALSE, FALSE, sizeof (gint64)),
      g_array_new (FALSE, FALSE, sizeof (gint64)),
      g_array_new (FALSE, FALSE, sizeof (gint64)),
    },
  };
}

static void
moment_clear (NarratorMoment *moment)
{
  g_free (moment->workers);
  g_array_unref (moment->just_now.succeeded);
  g_array_unref (moment->just_now.failed);
  g_array_unref (moment->just_now.dropped);
}

static void
find_moment (SluiceNarrator *self,
             NarratorMoment *moment)
{
  guint64 first = sluice_recorder_get_first_position (self->recorder);
  guint64 until;

  if (sluice_recorder_get_end_position (self->recorder) == first)
    {
      moment->empty = TRUE;
      return;
    }
  moment->start = sluice_recorder_lookup (self->recorder, first)->time;
  /* After the newest event at or before the moment; first if none held is. */
  until = sluice_recorder_find_time (self->recorder, moment->time);
  if (until == first)
    return;

  find_facts (self, moment);
  find_counts (self, moment, until);
  find_just_now (self, moment, until);
  moment->held_item = held_item_at (self, moment->time);
  for (guint w = 0; w < moment->n_workers; w++)
    find_worker (self, moment, w);
}

/**
 * sluice_narrator_narrate:
 * @self: a #SluiceNarrator
 * @time: the moment, in clock microseconds; the events at @time count as
 *   having happened
 *
 * Explains the run at @time: one sentence or a few per line, the first
 * line starting with the time. Before the first event it says that the
 * run has not started; at or after the run's end, how it ended.
 *
 * Returns: (transfer full): the narration, in the user's language
 */
char *
sluice_narrator_narrate (SluiceNarrator *self,
                         gint64          time)
{
  NarratorMoment moment;
  char *text;

  g_return_val_if_fail (SLUICE_IS_NARRATOR (self), NULL);

  read_recorder (self);
  read_timeline (self);

  moment_init (self, &moment, time);
  find_moment (self, &moment);
  text = _sluice_narrator_tell (&moment);
  moment_clear (&moment);
  return text;
}

/**
 * sluice_narrate_moment:
 * @recorder: a run's events
 * @timeline: (nullable): the model folded from @recorder, up to date, or
 *   %NULL to fold one here
 * @time: the moment, in clock microseconds; the events at @time count
 *
 * Explains the run at @time once, as sluice_narrator_narrate() does. It
 * indexes the whole run for this one call (O(n)): a view that narrates
 * often keeps a #SluiceNarrator instead.
 *
 * Returns: (transfer full): the narration
 */
char *
sluice_narrate_moment (SluiceRecorder *recorder,
                       SluiceTimeline *timeline,
                       gint64          time)
{
  g_autoptr(SluiceTimeline) own = NULL;
  g_autoptr(SluiceNarrator) narrator = NULL;

  g_return_val_if_fail (SLUICE_IS_RECORDER (recorder), NULL);
  g_return_val_if_fail (timeline == NULL || SLUICE_IS_TIMELINE (timeline), NULL);

  if (timeline == NULL)
    {
      own = sluice_timeline_new (1);
      sluice_timeline_update (own, recorder);
      timeline = own;
    }
  narrator = sluice_narrator_new (recorder, timeline);
  return sluice_narrator_narrate (narrator, time);
}
