/* sluice-run-controller-views.c: what each frame of a run moves: the
 * recorder's new events folded into the timeline, the results and the
 * stats, and the now line; the views read these models
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <string.h>

#include "sluice-run-controller-private.h"

/* ---- the stats --------------------------------------------------------- */

/**
 * _sluice_run_controller_now:
 * @self: a #SluiceRunController
 *
 * Returns: the run's clock, never behind its newest event
 */
gint64
_sluice_run_controller_now (SluiceRunController *self)
{
  gint64 now = self->clock ? sluice_clock_get_shown_time (self->clock) : 0;

  /* A paced clock's shown time runs ahead of its instant, up to its next
   * timer; a timer added later (work that came late, a job submitted by
   * hand) may be earlier than what was shown: time shown never goes back. */
  self->shown_now = MAX (self->shown_now, MAX (now, self->last.time));
  return self->shown_now;
}

/**
 * _sluice_run_controller_update_stats:
 * @self: a #SluiceRunController
 *
 * Sets the stats: the newest event's counts, the last snapshot and the
 * elapsed time.
 */
void
_sluice_run_controller_update_stats (SluiceRunController *self)
{
  gint64 playhead = sluice_viewport_get_playhead (self->viewport);
  gint64 end = playhead >= 0 ? playhead : self->running ? _sluice_run_controller_now (self) : self->last.time;
  gint64 elapsed = self->has_run ? MAX (0, end - self->start_time) : 0;
  guint counts[SLUICE_FOLD_N_COUNTS] = { 0 };
  guint values[SLUICE_LIVE_N_STATS] = { 0 };

  for (guint i = 0; self->fold != NULL && i < SLUICE_FOLD_N_COUNTS; i++)
    counts[i] = sluice_fold_get_count (self->fold, i);

  values[SLUICE_LIVE_STAT_PULLED] = self->last.pulled;
  values[SLUICE_LIVE_STAT_QUEUED] = self->has_snapshot ? self->queue_depth : self->last.queued;
  values[SLUICE_LIVE_STAT_IN_FLIGHT] = self->last.in_flight;
  /* Never more busy workers than the pool has, whatever events were lost. */
  values[SLUICE_LIVE_STAT_BUSY] = self->has_run && self->workers > 0 ? MIN (self->busy, self->workers) : self->busy;
  values[SLUICE_LIVE_STAT_WORKERS] = self->has_run ? self->workers : self->configured_workers;
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

/* The busy workers and the queue depth as the run sees them now; without
 * a run, the busy workers folded from the events. */
static void
take_snapshot (SluiceRunController *self)
{
  SluiceRun *run = self->runner ? sluice_scenario_runner_get_run (self->runner) : NULL;
  guint n = self->timeline ? sluice_timeline_get_n_samples (self->timeline) : 0;
  gint64 playhead = sluice_viewport_get_playhead (self->viewport);
  g_autoptr(SluiceSnapshot) snapshot = run && playhead < 0 ? sluice_run_get_snapshot (run) : NULL;

  self->has_snapshot = FALSE;
  if (playhead >= 0 && n > 0)
    self->busy = sluice_timeline_get_busy (self->timeline, sluice_timeline_find_sample (self->timeline, playhead));
  else if (snapshot != NULL)
    {
      self->busy = sluice_snapshot_get_busy_workers (snapshot);
      self->workers = sluice_snapshot_get_workers (snapshot);
      self->queue_depth = sluice_snapshot_get_queue_depth (snapshot);
      self->has_snapshot = TRUE;
    }
  else if (playhead < 0 && self->running && _sluice_run_controller_take_remote_snapshot (self))
    ;
  else if (n > 0)
    self->busy = sluice_timeline_get_busy (self->timeline, n - 1);
}

/* ---- reading the recorder once per frame ------------------------------- */

static void
consume_event (SluiceRunController *self,
               const SluiceEvent   *event)
{
  if (event->kind == SLUICE_EVENT_RESULT)
    sluice_result_list_add (self->results, event);
  _sluice_run_controller_see_shutdown_event (self, event);
}

/* The moment shown: now, or the playhead after a run. The counts are its
 * newest event's (pointers left out: the recorder owns them). */
static void
fold_moment (SluiceRunController *self)
{
  gint64 playhead = sluice_viewport_get_playhead (self->viewport);
  const SluiceEvent *last;

  if (playhead >= 0)
    sluice_fold_seek_time (self->fold, playhead);
  else
    sluice_fold_seek_end (self->fold);

  last = sluice_fold_get_last (self->fold);
  if (last != NULL)
    {
      self->last = *last;
      self->last.error_type = NULL;
      self->last.error_message = NULL;
      self->last.value = NULL;
      self->last.reason = NULL;
    }
  else
    memset (&self->last, 0, sizeof self->last);
  /* One origin for every view: the run's start, or, when it never came
   * (a program attached late), the first event that did, as the
   * timeline's. */
  if (sluice_fold_get_start_time (self->fold) >= 0)
    self->start_time = sluice_fold_get_start_time (self->fold);
  else if (sluice_timeline_get_n_bars (self->timeline) > 0 || sluice_timeline_get_n_samples (self->timeline) > 0)
    self->start_time = sluice_timeline_get_start_time (self->timeline);
  sluice_result_list_show (self->results, sluice_fold_get_count (self->fold, SLUICE_FOLD_RESULTS));
  _sluice_run_controller_set_position (self, playhead >= 0 ? sluice_fold_get_position (self->fold) : G_MAXUINT64);
}

/* The controller reads the new events for the results and the shutdown
 * banner only: the views (the event log, the error group, the jobs) read
 * the recorder themselves at #SluiceRunController::updated. The results
 * keep each value and time, and write a line only for what is shown. */
static void
consume_events (SluiceRunController *self)
{
  const SluiceEvent *event;

  /* Events the ring buffer dropped before we read them are gone: the
   * cursor skips them. */
  while ((event = sluice_recorder_next (self->recorder, &self->n_seen)) != NULL)
    consume_event (self, event);

  fold_moment (self);
}

/**
 * _sluice_run_controller_update_views:
 * @self: a #SluiceRunController
 *
 * Reads the events recorded since the last call into the timeline, the
 * fold and the results, moves the now line and the viewport, sets the
 * stats and the banner's countdown, then emits
 * #SluiceRunController::updated. Once per frame, and once more at the end
 * of the run.
 */
void
_sluice_run_controller_update_views (SluiceRunController *self)
{
  guint64 seen = self->n_seen;
  gint64 now;

  if (self->recorder == NULL)
    return;

  sluice_timeline_update (self->timeline, self->recorder);
  consume_events (self);

  now = self->running ? _sluice_run_controller_now (self)
                      : MAX (self->last.time, sluice_timeline_get_end_time (self->timeline));
  /* A viewport that fits follows the run; a zoomed one stays put. */
  sluice_viewport_set_bounds (self->viewport, self->start_time,
                              MAX (now, self->start_time + SLUICE_RUN_CONTROLLER_MIN_SPAN_US));
  _sluice_run_controller_set_now (self, now);
  _sluice_run_controller_set_moment (self, sluice_viewport_get_playhead (self->viewport) >= 0
                                             ? sluice_viewport_get_playhead (self->viewport) : now);
  take_snapshot (self);
  _sluice_run_controller_update_stats (self);
  _sluice_run_controller_update_countdown (self);
  _sluice_run_controller_emit_updated (self, self->n_seen != seen);
}

/**
 * _sluice_run_controller_show_playhead:
 * @self: a #SluiceRunController
 *
 * Moves the models to the viewport's playhead: the stats, the results
 * handed back by then, and #SluiceRunController::seeked for the event
 * log's row. A live run shows now: a playhead set while it runs is taken
 * back.
 */
void
_sluice_run_controller_show_playhead (SluiceRunController *self)
{
  if (self->fold == NULL)
    return;

  if (self->running)
    {
      sluice_viewport_set_playhead (self->viewport, -1);
      return;
    }

  fold_moment (self);
  take_snapshot (self);
  _sluice_run_controller_update_stats (self);
  _sluice_run_controller_emit_seeked (self, sluice_fold_get_position (self->fold));
  _sluice_run_controller_set_moment (self, sluice_viewport_get_playhead (self->viewport) >= 0
                                             ? sluice_viewport_get_playhead (self->viewport)
                                             : MAX (self->last.time, sluice_timeline_get_end_time (self->timeline)));
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       user_data)
{
  _sluice_run_controller_update_views (SLUICE_RUN_CONTROLLER (user_data));
  return G_SOURCE_CONTINUE;
}

/**
 * _sluice_run_controller_add_tick:
 * @self: a #SluiceRunController
 *
 * Moves the models at every frame of the frame widget from now on.
 */
void
_sluice_run_controller_add_tick (SluiceRunController *self)
{
  self->tick_id = gtk_widget_add_tick_callback (self->frame_widget, on_tick, self, NULL);
}

/**
 * _sluice_run_controller_remove_tick:
 * @self: a #SluiceRunController
 *
 * Stops the moves at every frame, if they were on.
 */
void
_sluice_run_controller_remove_tick (SluiceRunController *self)
{
  if (self->tick_id != 0 && self->frame_widget != NULL)
    gtk_widget_remove_tick_callback (self->frame_widget, self->tick_id);
  self->tick_id = 0;
}
