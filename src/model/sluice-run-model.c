/* sluice-run-model.c: one run, its events folded once for every view
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "sluice-run-model.h"

/**
 * SluiceRunModel:
 *
 * One run of a scenario as the views see it: a local run, a recorded one
 * or a pool of another program. Its events come into one
 * #SluiceRecorder; sluice_run_model_update() reads the new ones once (a
 * frame calls it) into every fold of the run: the #SluiceTimeline (lanes,
 * queue and lead series, moments), the #SluiceFold of the moment shown,
 * the results handed back, the #SluiceLinter, the #SluiceErrorList, a
 * service's #SluiceJobTable, how the run stops and ends
 * (#SluiceRunEnd), and the #SluiceLiveStats the counters show. The
 * #SluiceNarrator explains any moment from them. sluice_run_model_seek()
 * moves what is shown to the playhead: a seek, not a replay.
 *
 * A model is one run: a new run, a reset, the next lesson, an opened
 * recording or an attach makes a new one, so nothing a view shows can
 * belong to a run before it. Views observe it (its properties, its
 * #SluiceRunModel::updated and #SluiceRunModel::seeked) and fold nothing
 * themselves. A model without a run (sluice_run_model_new_idle()) shows
 * the pool as configured: no events, none of its workers busy.
 */

typedef struct {
  GVariant *value;  /* nullable */
  gint64    time;
} Result;

struct _SluiceRunModel
{
  GObject          parent_instance;

  /* what the run is */
  SluiceRecorder  *recorder;     /* NULL: no run */
  SluiceTimeline  *timeline;
  SluiceFold      *fold;         /* the run at the moment shown */
  SluiceNarrator  *narrator;
  SluiceLinter    *linter;
  gboolean         linter_shared; /* fed by the run's report, not by the model */
  SluiceErrorList *errors;
  SluiceJobTable  *jobs;         /* a service run's, or NULL */
  SluiceLiveStats *stats;
  char            *scenario_text;
  guint            workers;
  gboolean         submit_mode;
  gboolean         can_skip;     /* an item deadline or a retry budget */
  gboolean         can_shed;     /* an item deadline */

  /* what its events said */
  guint64          n_seen;       /* the recorder's next event to read */
  GArray          *results;      /* Result, in the order handed back */
  SluiceRunEnd     end;
  SluiceEvent      last;         /* the counts of the moment shown (no pointers) */

  /* what is shown */
  gboolean         live;
  gint64           now;
  gint64           playhead;     /* -1: now */
  gint64           moment;
  guint64          position;
  guint            busy;
  guint            queue_depth;
  gboolean         has_snapshot;

  JsonNode        *report;
  char            *report_note;
};

G_DEFINE_FINAL_TYPE (SluiceRunModel, sluice_run_model, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_HAS_RUN,
  PROP_RECORDER,
  PROP_TIMELINE,
  PROP_NARRATOR,
  PROP_LINTER,
  PROP_STATS,
  PROP_FINISHED_FOLD,
  PROP_LIVE,
  PROP_NOW,
  PROP_MOMENT,
  PROP_POSITION,
  PROP_REPORT,
  PROP_REPORT_NOTE,
  N_PROPS
};

enum {
  UPDATED,
  SEEKED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ---- reading the events once ------------------------------------------- */

/* The shutdown clock starts at the first stop request (also one a failure
 * makes), or in a service run at the first close (the drain); a fatal
 * stop does not start it. */
static void
see_end_event (SluiceRunModel    *self,
               const SluiceEvent *event)
{
  SluiceRunEnd *end = &self->end;

  switch (event->kind)
    {
    case SLUICE_EVENT_STOP_REQUEST:
    case SLUICE_EVENT_DRAIN:
      if (end->shutdown_from < 0 && end->fatal_at < 0 &&
          (event->kind == SLUICE_EVENT_STOP_REQUEST || self->submit_mode))
        end->shutdown_from = event->time;
      break;
    case SLUICE_EVENT_SHUTDOWN_DEADLINE:
      end->deadline_fired_at = event->time;
      break;
    case SLUICE_EVENT_RUN_END:
      end->run_end_at = event->time;
      break;
    case SLUICE_EVENT_FATAL:
      if (end->fatal_at < 0)
        {
          end->fatal_at = event->time;
          end->fatal_type = g_intern_string (event->error_type ? event->error_type : "Error");
        }
      break;
    default:
      break;
    }
}

static void
see_event (SluiceRunModel    *self,
           const SluiceEvent *event)
{
  if (event->kind == SLUICE_EVENT_RESULT)
    {
      Result result = { event->value ? g_variant_ref (event->value) : NULL, event->time };

      g_array_append_val (self->results, result);
    }
  see_end_event (self, event);
  /* A shared linter already read the event, from the run's report. */
  if (!self->linter_shared)
    sluice_linter_add_event (self->linter, event);
}

/* The cursor is past the event read: its position is one less. */

/* Events the ring buffer dropped before they were read are gone: the
 * cursor skips them. */
static gboolean
read_new_events (SluiceRunModel *self)
{
  guint64 seen = self->n_seen;
  const SluiceEvent *event;

  sluice_timeline_update (self->timeline, self->recorder);
  while ((event = sluice_recorder_next (self->recorder, &self->n_seen)) != NULL)
    {
      see_event (self, event);
      sluice_error_list_add_event (self->errors, event, self->n_seen - 1);
      if (self->jobs != NULL)
        sluice_job_table_add_event (self->jobs, event);
    }
  sluice_error_list_flush (self->errors);
  if (self->jobs != NULL)
    sluice_job_table_commit (self->jobs);
  return self->n_seen != seen;
}

/* ---- the moment shown -------------------------------------------------- */

static void
set_position (SluiceRunModel *self,
              guint64         position)
{
  if (self->position == position)
    return;
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

static void
set_moment (SluiceRunModel *self,
            gint64          moment)
{
  if (self->moment == moment)
    return;
  self->moment = moment;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MOMENT]);
}

static void
set_now (SluiceRunModel *self,
         gint64          now)
{
  if (self->now == now)
    return;
  self->now = now;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOW]);
}

/* The counts of the moment shown are its newest event's (pointers left
 * out: the recorder owns them). One origin for every view: the run's
 * start, or, when it never came (a program attached late), the first
 * event that did, as the timeline's. */
static void
fold_moment (SluiceRunModel *self)
{
  const SluiceEvent *last;

  if (self->playhead >= 0)
    sluice_fold_seek_time (self->fold, self->playhead);
  else
    sluice_fold_seek_end (self->fold);

  last = sluice_fold_get_last (self->fold);
  memset (&self->last, 0, sizeof self->last);
  if (last != NULL)
    {
      self->last = *last;
      self->last.error_type = NULL;
      self->last.error_message = NULL;
      self->last.value = NULL;
      self->last.reason = NULL;
    }
  if (sluice_fold_get_start_time (self->fold) >= 0)
    self->end.start_time = sluice_fold_get_start_time (self->fold);
  else if (sluice_timeline_get_n_bars (self->timeline) > 0 || sluice_timeline_get_n_samples (self->timeline) > 0)
    self->end.start_time = sluice_timeline_get_start_time (self->timeline);
  set_position (self, self->playhead >= 0 ? sluice_fold_get_position (self->fold) : G_MAXUINT64);
}

/* The busy workers of the moment shown: the timeline's at the playhead,
 * the pool's own snapshot while it runs, else the newest sample's. */
static guint
busy_shown (SluiceRunModel *self)
{
  guint n = self->timeline != NULL ? sluice_timeline_get_n_samples (self->timeline) : 0;

  if (self->playhead >= 0 && n > 0)
    return sluice_timeline_get_busy (self->timeline, sluice_timeline_find_sample (self->timeline, self->playhead));
  if (self->has_snapshot)
    return self->busy;
  return n > 0 ? sluice_timeline_get_busy (self->timeline, n - 1) : 0;
}

/* The queue of the moment shown: the pool's own snapshot while it runs,
 * else the newest event's count, never more than the queue holds. */
static guint
queued_shown (SluiceRunModel *self)
{
  guint capacity = self->timeline != NULL ? sluice_timeline_get_queue_capacity (self->timeline) : 0;

  if (self->has_snapshot && self->playhead < 0)
    return self->queue_depth;
  return capacity > 0 ? MIN (self->last.queued, capacity) : self->last.queued;
}

static void
update_stats (SluiceRunModel *self)
{
  gboolean has_run = self->recorder != NULL;
  gint64 end = self->playhead >= 0 ? self->playhead : self->live ? self->now : self->last.time;
  gint64 elapsed = has_run ? MAX (0, end - self->end.start_time) : 0;
  guint counts[SLUICE_FOLD_N_COUNTS] = { 0 };
  guint values[SLUICE_LIVE_N_STATS] = { 0 };

  for (guint i = 0; has_run && i < SLUICE_FOLD_N_COUNTS; i++)
    counts[i] = sluice_fold_get_count (self->fold, i);

  values[SLUICE_LIVE_STAT_PULLED] = self->last.pulled;
  values[SLUICE_LIVE_STAT_QUEUED] = queued_shown (self);
  values[SLUICE_LIVE_STAT_IN_FLIGHT] = self->last.in_flight;
  /* Never more busy workers than the pool has, whatever events were lost. */
  values[SLUICE_LIVE_STAT_BUSY] = self->workers > 0 ? MIN (busy_shown (self), self->workers) : busy_shown (self);
  values[SLUICE_LIVE_STAT_WORKERS] = self->workers;
  values[SLUICE_LIVE_STAT_SUCCEEDED] = self->last.succeeded;
  values[SLUICE_LIVE_STAT_RETRIES] = self->last.retries;
  values[SLUICE_LIVE_STAT_TIMEOUTS] = counts[SLUICE_FOLD_TIMEOUTS];
  values[SLUICE_LIVE_STAT_FAILED] = self->last.failed;
  values[SLUICE_LIVE_STAT_CANCELLED] = counts[SLUICE_FOLD_CANCELLED];
  values[SLUICE_LIVE_STAT_DROPPED] = counts[SLUICE_FOLD_DROPPED];
  values[SLUICE_LIVE_STAT_RETRIES_SKIPPED] = counts[SLUICE_FOLD_RETRIES_SKIPPED];
  values[SLUICE_LIVE_STAT_SHED] = counts[SLUICE_FOLD_SHED];
  /* The retry policy's figures only where they can count something. */
  sluice_live_stats_set (self->stats, values, elapsed,
                         self->can_skip || counts[SLUICE_FOLD_RETRIES_SKIPPED] > 0,
                         self->can_shed || counts[SLUICE_FOLD_SHED] > 0);
}

/**
 * sluice_run_model_update:
 * @self: a #SluiceRunModel
 * @now: the run's clock (ignored once the run is over)
 *
 * Reads the events recorded since the last update into every fold of the
 * run, moves the now line (it never goes back during a run; after it, it
 * is the run's end) and what is shown, then emits
 * #SluiceRunModel::updated. Once per frame of a run, and once more when
 * it ends.
 */
void
sluice_run_model_update (SluiceRunModel *self,
                         gint64          now)
{
  gboolean new_events;

  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  if (self->recorder == NULL)
    return;

  new_events = read_new_events (self);
  fold_moment (self);
  if (self->live)
    now = MAX (self->now, MAX (now, self->last.time));
  else
    now = MAX (self->last.time, sluice_timeline_get_end_time (self->timeline));
  set_now (self, now);
  set_moment (self, self->playhead >= 0 ? self->playhead : now);
  update_stats (self);
  g_signal_emit (self, signals[UPDATED], 0, new_events);
}

/**
 * sluice_run_model_seek:
 * @self: a #SluiceRunModel
 * @playhead: a clock time in µs, or -1 for the end
 *
 * Shows the run at @playhead: the fold, the stats and the results handed
 * back by then, and emits #SluiceRunModel::seeked. A live run always
 * shows now: the playhead waits for its end.
 */
void
sluice_run_model_seek (SluiceRunModel *self,
                       gint64          playhead)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  if (self->recorder == NULL || self->live)
    return;

  self->playhead = playhead;
  fold_moment (self);
  update_stats (self);
  set_moment (self, playhead >= 0 ? playhead : MAX (self->last.time, sluice_timeline_get_end_time (self->timeline)));
  g_signal_emit (self, signals[SEEKED], 0, sluice_fold_get_position (self->fold));
}

/**
 * sluice_run_model_set_live:
 * @self: a #SluiceRunModel
 * @live: whether the run still goes on
 *
 * A run is live from its start until it ended (or, attached, until the
 * window lets go of it); after that the scrubber may move through it
 * (#SluiceRunModel:finished-fold).
 */
void
sluice_run_model_set_live (SluiceRunModel *self,
                           gboolean        live)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  live = !!live;
  if (self->live == live)
    return;
  self->live = live;
  if (!live)
    self->has_snapshot = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FINISHED_FOLD]);
}

/**
 * sluice_run_model_set_snapshot:
 * @self: a #SluiceRunModel
 * @busy: the workers holding an item
 * @workers: the workers of the pool
 * @queue_depth: the items or jobs in its queue
 *
 * The pool's own figures of now, taken from the live pool (a snapshot):
 * the counters show them until the run ends, rather than those folded
 * from events, some of which may have been lost.
 */
void
sluice_run_model_set_snapshot (SluiceRunModel *self,
                               guint           busy,
                               guint           workers,
                               guint           queue_depth)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  if (!self->live)
    return;
  self->busy = busy;
  self->workers = workers;
  self->queue_depth = queue_depth;
  self->has_snapshot = TRUE;
}

/**
 * sluice_run_model_share_linter:
 * @self: a #SluiceRunModel of a run, before its first update
 * @linter: the linter the run's report feeds (sluice_report_get_linter())
 *
 * Shows @linter's lints and feeds it no event: a local run's report
 * already lints every event as it happens, and the model reading them
 * again into a linter of its own linted the run twice (issue 24: a
 * twentieth of the window's run). Emits notify for
 * #SluiceRunModel:linter.
 */
void
sluice_run_model_share_linter (SluiceRunModel *self,
                               SluiceLinter   *linter)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));
  g_return_if_fail (SLUICE_IS_LINTER (linter));
  g_return_if_fail (self->n_seen == 0);

  self->linter_shared = TRUE;
  if (g_set_object (&self->linter, linter))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LINTER]);
}

/**
 * sluice_run_model_set_report:
 * @self: a #SluiceRunModel
 * @report: (nullable): the finished run's report, as `sluice-run --json`
 *   writes it
 */
void
sluice_run_model_set_report (SluiceRunModel *self,
                             JsonNode       *report)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  if (self->report == report)
    return;
  g_clear_pointer (&self->report, json_node_unref);
  self->report = report != NULL ? json_node_ref (report) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
}

/**
 * sluice_run_model_set_report_note:
 * @self: a #SluiceRunModel
 * @note: (nullable): why there is no report (yet)
 */
void
sluice_run_model_set_report_note (SluiceRunModel *self,
                                  const char     *note)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  if (g_strcmp0 (self->report_note, note) == 0)
    return;
  g_free (self->report_note);
  self->report_note = g_strdup (note);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT_NOTE]);
}

/**
 * sluice_run_model_set_scenario_text:
 * @self: a #SluiceRunModel
 * @text: the scenario as it ran, in the `.pool` format (a recording's own)
 *
 * A recording keeps the scenario's text as it was written: that, rather
 * than the scenario written anew, is what saving the run again writes.
 */
void
sluice_run_model_set_scenario_text (SluiceRunModel *self,
                                    const char     *text)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  g_free (self->scenario_text);
  self->scenario_text = g_strdup (text);
}

/**
 * sluice_run_model_set_configured_workers:
 * @self: a #SluiceRunModel without a run
 * @workers: the workers of the scenario a run would start
 *
 * An idle model shows the pool as configured; a run's model keeps its
 * run's workers.
 */
void
sluice_run_model_set_configured_workers (SluiceRunModel *self,
                                         guint           workers)
{
  g_return_if_fail (SLUICE_IS_RUN_MODEL (self));

  if (self->recorder != NULL || self->workers == workers)
    return;
  self->workers = workers;
  update_stats (self);
}

/* ---- getters ----------------------------------------------------------- */

/**
 * sluice_run_model_get_has_run:
 * @self: a #SluiceRunModel
 *
 * Returns: whether it is a run's (not an idle model's)
 */
gboolean
sluice_run_model_get_has_run (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), FALSE);
  return self->recorder != NULL;
}

/**
 * sluice_run_model_get_recorder:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): the run's events, or %NULL
 */
SluiceRecorder *
sluice_run_model_get_recorder (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->recorder;
}

/**
 * sluice_run_model_get_timeline:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): the lanes, series and moments, or
 *   %NULL without a run
 */
SluiceTimeline *
sluice_run_model_get_timeline (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->timeline;
}

/**
 * sluice_run_model_get_narrator:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): what explains a moment, or %NULL
 */
SluiceNarrator *
sluice_run_model_get_narrator (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->narrator;
}

/**
 * sluice_run_model_get_linter:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none): the run's lints, as read so far
 */
SluiceLinter *
sluice_run_model_get_linter (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->linter;
}

/**
 * sluice_run_model_get_errors:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none): the errors of the run's final error group, as
 *   read so far
 */
SluiceErrorList *
sluice_run_model_get_errors (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->errors;
}

/**
 * sluice_run_model_get_jobs:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): a service run's jobs, as read so
 *   far, or %NULL for a stream run
 */
SluiceJobTable *
sluice_run_model_get_jobs (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->jobs;
}

/**
 * sluice_run_model_get_stats:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none): what the counters show at the moment shown
 */
SluiceLiveStats *
sluice_run_model_get_stats (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->stats;
}

/**
 * sluice_run_model_get_fold:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): the run at the moment shown, or
 *   %NULL without a run
 */
SluiceFold *
sluice_run_model_get_fold (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->fold;
}

/**
 * sluice_run_model_get_finished_fold:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): #SluiceRunModel:finished-fold
 */
SluiceFold *
sluice_run_model_get_finished_fold (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->live ? NULL : self->fold;
}

/**
 * sluice_run_model_get_scenario_text:
 * @self: a #SluiceRunModel
 *
 * Returns: (nullable): the scenario as it ran, in the `.pool` format
 */
const char *
sluice_run_model_get_scenario_text (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->scenario_text;
}

/**
 * sluice_run_model_get_workers:
 * @self: a #SluiceRunModel
 *
 * Returns: the pool's workers (its last snapshot's, once one came)
 */
guint
sluice_run_model_get_workers (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), 0);
  return self->workers;
}

/**
 * sluice_run_model_get_submit_mode:
 * @self: a #SluiceRunModel
 *
 * Returns: whether the run is a service (submit mode)
 */
gboolean
sluice_run_model_get_submit_mode (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), FALSE);
  return self->submit_mode;
}

/**
 * sluice_run_model_get_has_events:
 * @self: a #SluiceRunModel
 *
 * Returns: whether any event was recorded
 */
gboolean
sluice_run_model_get_has_events (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), FALSE);
  return self->recorder != NULL && sluice_recorder_get_n_events (self->recorder) > 0;
}

/**
 * sluice_run_model_get_last:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none): the counts of the moment shown: its newest
 *   event's, without the event's strings and value
 */
const SluiceEvent *
sluice_run_model_get_last (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return &self->last;
}

/**
 * sluice_run_model_get_end:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none): how the run stops and ends, as read so far
 */
const SluiceRunEnd *
sluice_run_model_get_end (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return &self->end;
}

/**
 * sluice_run_model_get_now:
 * @self: a #SluiceRunModel
 *
 * Returns: where the now line is, in clock µs
 */
gint64
sluice_run_model_get_now (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), 0);
  return self->now;
}

/**
 * sluice_run_model_get_moment:
 * @self: a #SluiceRunModel
 *
 * Returns: the clock time the views show (now, or the playhead), or -1
 *   without a run
 */
gint64
sluice_run_model_get_moment (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), -1);
  return self->moment;
}

/**
 * sluice_run_model_get_position:
 * @self: a #SluiceRunModel
 *
 * Returns: how many events have happened at the playhead, or
 *   %G_MAXUINT64 when every event is shown
 */
guint64
sluice_run_model_get_position (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), G_MAXUINT64);
  return self->position;
}

/**
 * sluice_run_model_get_live:
 * @self: a #SluiceRunModel
 *
 * Returns: whether the run still goes on
 */
gboolean
sluice_run_model_get_live (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), FALSE);
  return self->live;
}

/**
 * sluice_run_model_get_n_results:
 * @self: a #SluiceRunModel
 *
 * Returns: the results handed back, as read so far
 */
guint
sluice_run_model_get_n_results (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), 0);
  return self->results->len;
}

/**
 * sluice_run_model_get_n_results_shown:
 * @self: a #SluiceRunModel
 *
 * Returns: the results handed back by the moment shown
 */
guint
sluice_run_model_get_n_results_shown (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), 0);

  if (self->recorder == NULL)
    return 0;
  return MIN (self->results->len, sluice_fold_get_count (self->fold, SLUICE_FOLD_RESULTS));
}

/**
 * sluice_run_model_get_result:
 * @self: a #SluiceRunModel
 * @i: a result's index, in the order handed back
 * @time: (out) (optional): when it was handed back
 *
 * Returns: (transfer none) (nullable): its value
 */
GVariant *
sluice_run_model_get_result (SluiceRunModel *self,
                             guint           i,
                             gint64         *time)
{
  const Result *result;

  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  g_return_val_if_fail (i < self->results->len, NULL);

  result = &g_array_index (self->results, Result, i);
  if (time != NULL)
    *time = result->time;
  return result->value;
}

/**
 * sluice_run_model_get_report:
 * @self: a #SluiceRunModel
 *
 * Returns: (transfer none) (nullable): the finished run's report
 */
JsonNode *
sluice_run_model_get_report (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->report;
}

/**
 * sluice_run_model_get_report_note:
 * @self: a #SluiceRunModel
 *
 * Returns: (nullable): why there is no report (yet)
 */
const char *
sluice_run_model_get_report_note (SluiceRunModel *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_MODEL (self), NULL);
  return self->report_note;
}

/* ---- GObject ----------------------------------------------------------- */

static void
result_clear (gpointer data)
{
  Result *result = data;

  g_clear_pointer (&result->value, g_variant_unref);
}

static void
sluice_run_model_finalize (GObject *object)
{
  SluiceRunModel *self = SLUICE_RUN_MODEL (object);

  g_clear_object (&self->narrator);
  g_clear_object (&self->fold);
  g_clear_object (&self->timeline);
  g_clear_object (&self->recorder);
  g_clear_object (&self->linter);
  g_clear_object (&self->errors);
  g_clear_object (&self->jobs);
  g_clear_object (&self->stats);
  g_clear_pointer (&self->scenario_text, g_free);
  g_clear_pointer (&self->results, g_array_unref);
  g_clear_pointer (&self->report, json_node_unref);
  g_clear_pointer (&self->report_note, g_free);

  G_OBJECT_CLASS (sluice_run_model_parent_class)->finalize (object);
}

static void
sluice_run_model_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SluiceRunModel *self = SLUICE_RUN_MODEL (object);

  switch (prop_id)
    {
    case PROP_HAS_RUN:
      g_value_set_boolean (value, self->recorder != NULL);
      break;
    case PROP_RECORDER:
      g_value_set_object (value, self->recorder);
      break;
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    case PROP_NARRATOR:
      g_value_set_object (value, self->narrator);
      break;
    case PROP_LINTER:
      g_value_set_object (value, self->linter);
      break;
    case PROP_STATS:
      g_value_set_object (value, self->stats);
      break;
    case PROP_FINISHED_FOLD:
      g_value_set_object (value, self->live ? NULL : self->fold);
      break;
    case PROP_LIVE:
      g_value_set_boolean (value, self->live);
      break;
    case PROP_NOW:
      g_value_set_int64 (value, self->now);
      break;
    case PROP_MOMENT:
      g_value_set_int64 (value, self->moment);
      break;
    case PROP_POSITION:
      g_value_set_uint64 (value, self->position);
      break;
    case PROP_REPORT:
      g_value_set_boxed (value, self->report);
      break;
    case PROP_REPORT_NOTE:
      g_value_set_string (value, self->report_note);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
object_property (const char *name,
                 GType       type)
{
  return g_param_spec_object (name, NULL, NULL, type,
                              G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
}

static void
sluice_run_model_class_init (SluiceRunModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;

  object_class->finalize = sluice_run_model_finalize;
  object_class->get_property = sluice_run_model_get_property;

  /** SluiceRunModel:has-run: whether it is a run's, not an idle model's */
  properties[PROP_HAS_RUN] = g_param_spec_boolean ("has-run", NULL, NULL, FALSE, flags);
  /** SluiceRunModel:recorder: (nullable): the run's events */
  properties[PROP_RECORDER] = object_property ("recorder", SLUICE_TYPE_RECORDER);
  /** SluiceRunModel:timeline: (nullable): lanes, series and moments */
  properties[PROP_TIMELINE] = object_property ("timeline", SLUICE_TYPE_TIMELINE);
  /** SluiceRunModel:narrator: (nullable): explains a moment */
  properties[PROP_NARRATOR] = object_property ("narrator", SLUICE_TYPE_NARRATOR);
  /** SluiceRunModel:linter: the run's lints */
  properties[PROP_LINTER] = object_property ("linter", SLUICE_TYPE_LINTER);
  /** SluiceRunModel:stats: what the counters show */
  properties[PROP_STATS] = object_property ("stats", SLUICE_TYPE_LIVE_STATS);
  /**
   * SluiceRunModel:finished-fold: (nullable)
   *
   * The run at the moment shown, for the scrubber to move through once
   * the run is over; %NULL while it is live and without a run.
   */
  properties[PROP_FINISHED_FOLD] = object_property ("finished-fold", SLUICE_TYPE_FOLD);
  /** SluiceRunModel:live: whether the run still goes on */
  properties[PROP_LIVE] = g_param_spec_boolean ("live", NULL, NULL, FALSE, flags);
  /** SluiceRunModel:now: where the now line is, in clock µs */
  properties[PROP_NOW] = g_param_spec_int64 ("now", NULL, NULL, G_MININT64, G_MAXINT64, 0, flags);
  /**
   * SluiceRunModel:moment:
   *
   * The clock time, in µs, that the views show: now during a run, the
   * playhead (or the end) after it; -1 without a run.
   */
  properties[PROP_MOMENT] = g_param_spec_int64 ("moment", NULL, NULL, -1, G_MAXINT64, -1, flags);
  /**
   * SluiceRunModel:position:
   *
   * How many events have happened at the playhead, or %G_MAXUINT64 when
   * the views show every event.
   */
  properties[PROP_POSITION] = g_param_spec_uint64 ("position", NULL, NULL, 0, G_MAXUINT64, G_MAXUINT64, flags);
  /** SluiceRunModel:report: (nullable): the finished run's report */
  properties[PROP_REPORT] = g_param_spec_boxed ("report", NULL, NULL, JSON_TYPE_NODE, flags);
  /** SluiceRunModel:report-note: (nullable): why there is no report */
  properties[PROP_REPORT_NOTE] = g_param_spec_string ("report-note", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceRunModel::updated:
   * @self: the model
   * @new_events: whether events came since the last one
   *
   * The model read the run's new events and moved what it shows.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /**
   * SluiceRunModel::seeked:
   * @self: the model
   * @position: how many events have happened at the playhead
   *
   * After the run, what is shown moved to another moment.
   */
  signals[SEEKED] = g_signal_new ("seeked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);
}

static void
sluice_run_model_init (SluiceRunModel *self)
{
  self->linter = sluice_linter_new ();
  self->errors = sluice_error_list_new ();
  self->stats = sluice_live_stats_new ();
  self->results = g_array_new (FALSE, FALSE, sizeof (Result));
  g_array_set_clear_func (self->results, result_clear);
  self->end.run_end_at = -1;
  self->end.fatal_at = -1;
  self->end.deadline_fired_at = -1;
  self->end.shutdown_from = -1;
  self->playhead = -1;
  self->moment = -1;
  self->position = G_MAXUINT64;
}

/**
 * sluice_run_model_new:
 * @scenario: the scenario that runs (or ran, or that another program's
 *   pool is said to run)
 * @recorder: where its events come (or came)
 *
 * Returns: (transfer full): the model of that run, which reads @recorder
 *   at each sluice_run_model_update()
 */
SluiceRunModel *
sluice_run_model_new (SluiceScenario *scenario,
                      SluiceRecorder *recorder)
{
  SluiceRunModel *self;
  gint64 shutdown_timeout;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (scenario), NULL);
  g_return_val_if_fail (SLUICE_IS_RECORDER (recorder), NULL);

  self = g_object_new (SLUICE_TYPE_RUN_MODEL, NULL);
  self->workers = (guint) sluice_scenario_get_workers (scenario);
  self->recorder = g_object_ref (recorder);
  self->timeline = sluice_timeline_new (self->workers);
  self->fold = sluice_fold_new (recorder);
  self->scenario_text = sluice_scenario_to_data (scenario, NULL);
  self->submit_mode = sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT;
  if (self->submit_mode)
    self->jobs = sluice_job_table_new ();
  self->can_shed = sluice_scenario_get_item_deadline (scenario) > 0;
  self->can_skip = self->can_shed || sluice_scenario_get_retry_budget (scenario) > 0;
  shutdown_timeout = sluice_time_from_seconds (sluice_scenario_get_shutdown_timeout (scenario));
  self->end.shutdown_timeout = shutdown_timeout;
  self->narrator = sluice_narrator_new (recorder, self->timeline);
  sluice_narrator_set_shutdown_timeout (self->narrator, shutdown_timeout);
  update_stats (self);
  return self;
}

/**
 * sluice_run_model_new_idle:
 * @workers: the workers of the scenario a run would start
 *
 * Returns: (transfer full): a model without a run: no events, none of
 *   @workers busy
 */
SluiceRunModel *
sluice_run_model_new_idle (guint workers)
{
  SluiceRunModel *self = g_object_new (SLUICE_TYPE_RUN_MODEL, NULL);

  self->workers = workers;
  update_stats (self);
  return self;
}
