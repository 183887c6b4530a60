/* sluice-timeline-series.c: the chart's part of the timeline model: the
 * counts over time, the retry budget's level and the run-level moments
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-timeline-series-private.h"

typedef struct {
  gint64 time;
  guint  queued;
  guint  in_flight;
  guint  lead;
  guint  failed;
  guint  busy;
  guint  waiting;   /* item-ok events so far minus result events so far */
} Sample;

typedef struct {
  gint64 time;
  gint64 tokens;
} TokenSample;

struct _SluiceTimelineSeries
{
  GArray *samples;       /* Sample, in time order, one per change */
  GArray *token_samples; /* TokenSample, in time order, one per change */
  gint64  max_tokens;    /* -1: the pool has no retry budget */
  GArray *moments;       /* SluiceTimelineMoment, in time order */
  guint   waiting;       /* results handed back and not read yet, now */
  guint   max_waiting;   /* the most of them in a sample before the last */
  gboolean has_results;  /* a result event was seen: a caller reads them */
};

SluiceTimelineSeries *
_sluice_timeline_series_new (void)
{
  SluiceTimelineSeries *series = g_new0 (SluiceTimelineSeries, 1);

  series->samples = g_array_new (FALSE, TRUE, sizeof (Sample));
  series->token_samples = g_array_new (FALSE, TRUE, sizeof (TokenSample));
  series->max_tokens = -1;
  series->moments = g_array_new (FALSE, TRUE, sizeof (SluiceTimelineMoment));
  return series;
}

void
_sluice_timeline_series_free (SluiceTimelineSeries *series)
{
  if (series == NULL)
    return;

  g_array_unref (series->samples);
  g_array_unref (series->token_samples);
  g_array_unref (series->moments);
  g_free (series);
}

void
_sluice_timeline_series_clear (SluiceTimelineSeries *series)
{
  g_array_set_size (series->samples, 0);
  g_array_set_size (series->token_samples, 0);
  series->max_tokens = -1;
  g_array_set_size (series->moments, 0);
  series->waiting = 0;
  series->max_waiting = 0;
  series->has_results = FALSE;
}

/* The budget's level after each instant, one sample per change. */
static void
add_token_sample (SluiceTimelineSeries *series,
                  const SluiceEvent    *event)
{
  TokenSample sample = { event->time, event->tokens };
  GArray *samples = series->token_samples;
  TokenSample *last;

  /* A budget starts full, above 0: events that carry 0 from the start
   * (made by hand, or read from where the field is missing) have none. */
  if (event->tokens < 0 || (event->tokens == 0 && series->max_tokens <= 0))
    return;

  series->max_tokens = MAX (series->max_tokens, event->tokens);
  last = samples->len > 0 ? &g_array_index (samples, TokenSample, samples->len - 1) : NULL;
  if (last != NULL && last->time == sample.time)
    {
      last->tokens = sample.tokens;
      if (samples->len > 1 && (last - 1)->tokens == last->tokens)
        g_array_set_size (samples, samples->len - 1);
      return;
    }
  if (last != NULL && last->tokens == sample.tokens)
    return;

  g_array_append_val (samples, sample);
}

/* A sample is the state after all the events of one instant: the steps in
 * between last no time and would draw as spikes. Only changes are kept: a
 * run of events with the same counts draws the same step line as its first
 * one. */
static gboolean
same_counts (const Sample *a,
             const Sample *b)
{
  return a->queued == b->queued && a->in_flight == b->in_flight && a->lead == b->lead &&
         a->failed == b->failed && a->busy == b->busy && a->waiting == b->waiting;
}

/* The results the pool handed back that the caller has not read yet, as
 * the report's max_buffered counts them: an item-ok event hands one back,
 * a result event is the caller reading one. Only the input queue is
 * bounded, so behind a slow caller they pile up. */
static void
count_waiting (SluiceTimelineSeries *series,
               const SluiceEvent    *event)
{
  if (event->kind == SLUICE_EVENT_ITEM_OK)
    series->waiting++;
  else if (event->kind == SLUICE_EVENT_RESULT)
    {
      series->has_results = TRUE;
      if (series->waiting > 0)
        series->waiting--;
    }
}

static void
add_sample (SluiceTimelineSeries *series,
            const SluiceEvent    *event,
            guint                 busy)
{
  /* The engine's lead is pulled minus succeeded: an item that failed for
   * good stays in it. The event's own count of them says how many. */
  Sample sample = { event->time, event->queued, event->in_flight, event->lead,
                    MIN (event->failed, event->lead), busy, series->waiting };
  GArray *samples = series->samples;
  Sample *last = samples->len > 0 ? &g_array_index (samples, Sample, samples->len - 1) : NULL;

  if (last != NULL && last->time == sample.time)
    {
      *last = sample;
      if (samples->len > 1 && same_counts (last - 1, last))
        g_array_set_size (samples, samples->len - 1);
      return;
    }

  if (last != NULL && same_counts (last, &sample))
    return;

  /* The last sample is final once a later instant begins. */
  if (last != NULL)
    series->max_waiting = MAX (series->max_waiting, last->waiting);
  g_array_append_val (samples, sample);
}

/* The moments that concern the whole run, not one item. A second stop
 * request at the same instant adds nothing to the picture. */
static void
add_moment (SluiceTimelineSeries *series,
            const SluiceEvent    *event)
{
  SluiceTimelineMoment moment = { 0, event->time };

  switch (event->kind)
    {
    case SLUICE_EVENT_STOP_REQUEST:      moment.kind = SLUICE_TIMELINE_MOMENT_STOP_REQUEST; break;
    case SLUICE_EVENT_DRAIN:             moment.kind = SLUICE_TIMELINE_MOMENT_DRAIN; break;
    case SLUICE_EVENT_CANCEL:            moment.kind = SLUICE_TIMELINE_MOMENT_CANCEL; break;
    case SLUICE_EVENT_FATAL:             moment.kind = SLUICE_TIMELINE_MOMENT_FATAL; break;
    case SLUICE_EVENT_SHUTDOWN_DEADLINE: moment.kind = SLUICE_TIMELINE_MOMENT_SHUTDOWN_DEADLINE; break;
    case SLUICE_EVENT_RUN_END:           moment.kind = SLUICE_TIMELINE_MOMENT_RUN_END; break;
    default:
      return;
    }

  _sluice_timeline_series_add_moment (series, moment.kind, moment.time);
}

/* Marks a moment on the time axis, once per kind and instant. */
void
_sluice_timeline_series_add_moment (SluiceTimelineSeries     *series,
                                    SluiceTimelineMomentKind  kind,
                                    gint64                    time)
{
  SluiceTimelineMoment moment = { kind, time };
  GArray *moments = series->moments;

  for (guint i = moments->len; i > 0; i--)
    {
      const SluiceTimelineMoment *seen = &g_array_index (moments, SluiceTimelineMoment, i - 1);

      if (seen->time != moment.time)
        break;
      if (seen->kind == moment.kind)
        return;
    }
  g_array_append_val (moments, moment);
}

void
_sluice_timeline_series_add_event (SluiceTimelineSeries *series,
                                   const SluiceEvent    *event,
                                   guint                 busy)
{
  count_waiting (series, event);
  add_sample (series, event, busy);
  add_token_sample (series, event);
  add_moment (series, event);
}

static SluiceTimelineSeries *
get_series (SluiceTimeline *self)
{
  return _sluice_timeline_get_series (self);
}

/**
 * sluice_timeline_get_n_samples:
 * @self: a #SluiceTimeline
 *
 * Returns: the number of chart samples
 */
guint
sluice_timeline_get_n_samples (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return get_series (self)->samples->len;
}

static const Sample *
get_sample (SluiceTimeline *self,
            guint           i)
{
  return &g_array_index (get_series (self)->samples, Sample, i);
}

/**
 * sluice_timeline_get_sample:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of samples; samples are in time order
 * @time: (out) (optional): when the counts changed to these values
 * @queued: (out) (optional): items in the input queue
 * @in_flight: (out) (optional): attempts running
 * @lead: (out) (optional): items pulled and not yet handled successfully
 *
 * Gets one step of the chart series. The values hold from @time until the
 * next sample's time.
 */
void
sluice_timeline_get_sample (SluiceTimeline *self,
                            guint           i,
                            gint64         *time,
                            guint          *queued,
                            guint          *in_flight,
                            guint          *lead)
{
  const Sample *sample;

  g_return_if_fail (SLUICE_IS_TIMELINE (self));
  g_return_if_fail (i < get_series (self)->samples->len);

  sample = get_sample (self, i);
  if (time != NULL)
    *time = sample->time;
  if (queued != NULL)
    *queued = sample->queued;
  if (in_flight != NULL)
    *in_flight = sample->in_flight;
  if (lead != NULL)
    *lead = sample->lead;
}

/**
 * sluice_timeline_get_busy:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of samples
 *
 * The busy workers of sample @i: workers holding an item (an attempt, its
 * stop rounds or a backoff), folded from the events: a worker is busy from
 * its queue-get or attempt-start until the item's ok, failed, cancelled or
 * dropped event. A job given up while queued is never counted.
 *
 * Returns: the workers holding an item from the sample's time on
 */
guint
sluice_timeline_get_busy (SluiceTimeline *self,
                          guint           i)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  g_return_val_if_fail (i < get_series (self)->samples->len, 0);

  return get_sample (self, i)->busy;
}

/**
 * sluice_timeline_get_failed:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of samples
 *
 * The items of sample @i's lead that failed for good: the lead counts
 * every item pulled and not handled successfully, so these stay in it
 * (with keep-going, they take it past `queue-size + workers + 1`). The
 * count is the events' own.
 *
 * Returns: the items failed for good so far, at most the sample's lead
 */
guint
sluice_timeline_get_failed (SluiceTimeline *self,
                            guint           i)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  g_return_val_if_fail (i < get_series (self)->samples->len, 0);

  return get_sample (self, i)->failed;
}

/* A run without result events has no caller reading results one by one:
 * a service run's jobs give theirs to their submitters. Its item-ok events
 * leave nothing waiting. */
static guint
waiting_of (SluiceTimelineSeries *series,
            const Sample         *sample)
{
  return series->has_results ? sample->waiting : 0;
}

/**
 * sluice_timeline_get_waiting:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of samples
 *
 * The results waiting for the caller in sample @i: the item-ok events so
 * far (the pool handed a result back) minus the result events so far (the
 * caller read one), as the report's `max_buffered` counts them. Only the
 * input queue is bounded, so behind a slow caller they pile up, also after
 * the pool's end, until the caller has read them all. A run without
 * result events (a service run, whose jobs give their results to their
 * submitters) has none.
 *
 * Returns: the results handed back and not read yet from the sample's
 *   time on
 */
guint
sluice_timeline_get_waiting (SluiceTimeline *self,
                             guint           i)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  g_return_val_if_fail (i < get_series (self)->samples->len, 0);

  return waiting_of (get_series (self), get_sample (self, i));
}

/**
 * sluice_timeline_get_max_waiting:
 * @self: a #SluiceTimeline
 *
 * The most results that waited for the caller at once, over every sample
 * (see sluice_timeline_get_waiting()), so that a view can tell whether the
 * caller kept up without scanning the run.
 *
 * Returns: the highest number of results waiting in a sample, or 0
 */
guint
sluice_timeline_get_max_waiting (SluiceTimeline *self)
{
  SluiceTimelineSeries *series;
  GArray *samples;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);

  series = get_series (self);
  samples = series->samples;
  if (!series->has_results || samples->len == 0)
    return 0;
  /* The last sample may still change within its instant. */
  return MAX (series->max_waiting, g_array_index (samples, Sample, samples->len - 1).waiting);
}

/* Bisects an array of Sample or TokenSample, both of which start with
 * their time: the index of the last one at or before @time, or 0. */
static guint
find_at_or_before (GArray *samples,
                   gint64  time)
{
  guint size = g_array_get_element_size (samples);
  guint lo = 0, hi = samples->len;

  G_STATIC_ASSERT (G_STRUCT_OFFSET (Sample, time) == 0 && G_STRUCT_OFFSET (TokenSample, time) == 0);

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const gint64 *t = (const gint64 *) (gpointer) (samples->data + (gsize) mid * size);

      if (*t <= time)
        lo = mid + 1;
      else
        hi = mid;
    }

  return lo > 0 ? lo - 1 : 0;
}

/**
 * sluice_timeline_find_sample:
 * @self: a #SluiceTimeline
 * @time: a clock time
 *
 * Finds the sample in effect at @time, by bisection, so a view can start
 * drawing at the left edge of a zoomed window without scanning the run.
 *
 * Returns: the index of the last sample at or before @time, or 0 if every
 *   sample is later
 */
guint
sluice_timeline_find_sample (SluiceTimeline *self,
                             gint64          time)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return find_at_or_before (get_series (self)->samples, time);
}

/**
 * sluice_timeline_get_values_at:
 * @self: a #SluiceTimeline
 * @time: a clock time
 * @values: (out caller-allocates): the counts in effect at @time
 *
 * Gets what the chart shows at @time: the sample in effect then (the last
 * one at or before it), with its results waiting for the caller (see
 * sluice_timeline_get_waiting()), and the retry budget's level, for a
 * readout under the pointer.
 *
 * Returns: %FALSE, leaving @values alone, when @time is before the first
 *   sample or there is none
 */
gboolean
sluice_timeline_get_values_at (SluiceTimeline       *self,
                               gint64                time,
                               SluiceTimelineValues *values)
{
  SluiceTimelineSeries *series;
  const Sample *sample;
  const TokenSample *tokens;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), FALSE);
  g_return_val_if_fail (values != NULL, FALSE);

  series = get_series (self);
  if (series->samples->len == 0 || g_array_index (series->samples, Sample, 0).time > time)
    return FALSE;

  sample = get_sample (self, find_at_or_before (series->samples, time));
  *values = (SluiceTimelineValues) {
    .time = time,
    .queued = sample->queued,
    .in_flight = sample->in_flight,
    .lead = sample->lead,
    .failed = sample->failed,
    .busy = sample->busy,
    .waiting = waiting_of (series, sample),
    .tokens = -1,
  };

  if (series->token_samples->len > 0)
    {
      tokens = &g_array_index (series->token_samples, TokenSample,
                               find_at_or_before (series->token_samples, time));
      /* Before the first change the bucket is full. */
      values->tokens = tokens->time <= time ? tokens->tokens : series->max_tokens;
    }

  return TRUE;
}

/**
 * sluice_timeline_get_max_tokens:
 * @self: a #SluiceTimeline
 *
 * The retry budget's size, as the highest level seen (the bucket starts
 * full), in thousandths of a token.
 *
 * Returns: the highest token level, or -1 when no event had a budget
 */
gint64
sluice_timeline_get_max_tokens (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), -1);
  return get_series (self)->max_tokens;
}

/**
 * sluice_timeline_get_n_token_samples:
 * @self: a #SluiceTimeline
 *
 * Returns: the number of steps of the retry budget's level; 0 without a
 *   budget
 */
guint
sluice_timeline_get_n_token_samples (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return get_series (self)->token_samples->len;
}

/**
 * sluice_timeline_get_token_sample:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of token samples, in time order
 * @time: (out) (optional): when the level changed to @tokens
 * @tokens: (out) (optional): the tokens left, in thousandths
 *
 * Gets one step of the retry budget's level, which holds until the next
 * sample's time.
 */
void
sluice_timeline_get_token_sample (SluiceTimeline *self,
                                  guint           i,
                                  gint64         *time,
                                  gint64         *tokens)
{
  const TokenSample *sample;

  g_return_if_fail (SLUICE_IS_TIMELINE (self));
  g_return_if_fail (i < get_series (self)->token_samples->len);

  sample = &g_array_index (get_series (self)->token_samples, TokenSample, i);
  if (time != NULL)
    *time = sample->time;
  if (tokens != NULL)
    *tokens = sample->tokens;
}

/**
 * sluice_timeline_find_token_sample:
 * @self: a #SluiceTimeline
 * @time: a clock time
 *
 * Like sluice_timeline_find_sample(), for the retry budget's level.
 *
 * Returns: the index of the last token sample at or before @time, or 0
 */
guint
sluice_timeline_find_token_sample (SluiceTimeline *self,
                                   gint64          time)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return find_at_or_before (get_series (self)->token_samples, time);
}

/**
 * sluice_timeline_get_n_moments:
 * @self: a #SluiceTimeline
 *
 * Returns: the number of run-level moments seen: stop requests, drains,
 *   cancellations, fatal errors, shutdown deadlines and the run's end
 */
guint
sluice_timeline_get_n_moments (SluiceTimeline *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), 0);
  return get_series (self)->moments->len;
}

/**
 * sluice_timeline_get_moment:
 * @self: a #SluiceTimeline
 * @i: from 0 to the number of moments; they are in time order
 *
 * Returns: (transfer none): the moment, valid until the next update or
 *   clear
 */
const SluiceTimelineMoment *
sluice_timeline_get_moment (SluiceTimeline *self,
                            guint           i)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (i < get_series (self)->moments->len, NULL);

  return &g_array_index (get_series (self)->moments, SluiceTimelineMoment, i);
}
