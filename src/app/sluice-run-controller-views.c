/* sluice-run-controller-views.c: what each frame of a run shows: the
 * recorder's new events folded into the counters, the views and the results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-run-controller-private.h"

/* ---- the counters ------------------------------------------------------ */

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

  return MAX (now, self->last.time);
}

/**
 * _sluice_run_controller_update_counters:
 * @self: a #SluiceRunController
 *
 * Shows the newest event's counts, the last snapshot and the elapsed time.
 */
void
_sluice_run_controller_update_counters (SluiceRunController *self)
{
  SluiceCounters *c = self->counters;
  gint64 end = self->running ? _sluice_run_controller_now (self) : self->last.time;
  gint64 elapsed = self->has_run ? MAX (0, end - self->start_time) : 0;
  double seconds = (double) elapsed / G_USEC_PER_SEC;

  sluice_counters_set (c, SLUICE_COUNTER_PULLED, g_strdup_printf ("%u", self->last.pulled));
  sluice_counters_set (c, SLUICE_COUNTER_QUEUED,
                       g_strdup_printf ("%u", self->has_snapshot ? self->queue_depth : self->last.queued));
  /* Translators: the busy-workers counter: workers holding an item, of
   * all workers, such as “3 of 4” */
  sluice_counters_set (c, SLUICE_COUNTER_BUSY, g_strdup_printf (_("%u of %u"), self->busy, self->workers));
  sluice_counters_set (c, SLUICE_COUNTER_IN_FLIGHT, g_strdup_printf ("%u", self->last.in_flight));
  sluice_counters_set (c, SLUICE_COUNTER_SUCCEEDED, g_strdup_printf ("%u", self->last.succeeded));
  sluice_counters_set (c, SLUICE_COUNTER_RETRIES, g_strdup_printf ("%u", self->last.retries));
  sluice_counters_set (c, SLUICE_COUNTER_TIMEOUTS, g_strdup_printf ("%u", self->n_timeouts));
  sluice_counters_set (c, SLUICE_COUNTER_FAILED, g_strdup_printf ("%u", self->last.failed));
  sluice_counters_set (c, SLUICE_COUNTER_CANCELLED, g_strdup_printf ("%u", self->n_cancelled));
  sluice_counters_set (c, SLUICE_COUNTER_DROPPED, g_strdup_printf ("%u", self->n_dropped));
  /* The retry policy's counters only where they can count something. */
  sluice_counters_set_shown (c, SLUICE_COUNTER_RETRIES_SKIPPED, self->can_skip || self->n_skipped > 0);
  sluice_counters_set (c, SLUICE_COUNTER_RETRIES_SKIPPED, g_strdup_printf ("%u", self->n_skipped));
  sluice_counters_set_shown (c, SLUICE_COUNTER_SHED, self->can_shed || self->n_shed > 0);
  sluice_counters_set (c, SLUICE_COUNTER_SHED, g_strdup_printf ("%u", self->n_shed));
  sluice_counters_set (c, SLUICE_COUNTER_ELAPSED, g_strdup_printf (_("%.2f s"), seconds));
  sluice_counters_set (c, SLUICE_COUNTER_THROUGHPUT,
                       seconds > 0 ? g_strdup_printf (_("%.1f/s"), self->last.succeeded / seconds)
                                   : g_strdup ("–"));
}

/* The busy workers and the queue depth as the run sees them now; without
 * a run, the busy workers folded from the events. */
static void
take_snapshot (SluiceRunController *self)
{
  SluiceRun *run = self->runner ? sluice_scenario_runner_get_run (self->runner) : NULL;
  guint n = self->timeline ? sluice_timeline_get_n_samples (self->timeline) : 0;
  g_autoptr(SluiceSnapshot) snapshot = run ? sluice_run_get_snapshot (run) : NULL;

  if (snapshot != NULL)
    {
      self->busy = sluice_snapshot_get_busy_workers (snapshot);
      self->workers = sluice_snapshot_get_workers (snapshot);
      self->queue_depth = sluice_snapshot_get_queue_depth (snapshot);
      self->has_snapshot = TRUE;
    }
  else if (n > 0)
    self->busy = sluice_timeline_get_busy (self->timeline, n - 1);
}

/* ---- reading the recorder once per frame ------------------------------- */

static void
consume_event (SluiceRunController *self,
               const SluiceEvent   *event,
               guint64              position)
{
  if (event->kind == SLUICE_EVENT_RUN_START)
    self->start_time = event->time;
  if (event->kind == SLUICE_EVENT_ATTEMPT_END && event->outcome == SLUICE_OUTCOME_TIMED_OUT)
    self->n_timeouts++;
  if (event->kind == SLUICE_EVENT_RETRY_SKIPPED)
    self->n_skipped++;
  if (event->kind == SLUICE_EVENT_DEADLINE_EXCEEDED)
    self->n_shed++;
  /* The run's events count successes and failures, not these: one event
   * each, counted here. */
  if (event->kind == SLUICE_EVENT_ITEM_CANCELLED)
    self->n_cancelled++;
  if (event->kind == SLUICE_EVENT_ITEM_DROPPED)
    self->n_dropped++;
  if (event->kind == SLUICE_EVENT_RESULT)
    sluice_result_list_add (self->results, event);
  _sluice_run_controller_see_shutdown_event (self, event);
  if (self->submit_mode)
    sluice_jobs_view_add_event (self->jobs_view, event);

  sluice_error_group_view_add_event (self->error_group_view, event, position);

  self->last = *event;
  self->last.error_type = NULL;
  self->last.error_message = NULL;
  self->last.value = NULL;
  self->last.reason = NULL;
}

/* The views fold each event as it is read, and show what changed once,
 * after the last one. The event log reads the recorder itself, and makes
 * rows only for what it shows; the results keep each value and time, and
 * write a line only for what is shown. */
static void
consume_events (SluiceRunController *self)
{
  guint64 dropped = sluice_recorder_get_n_dropped (self->recorder);
  guint64 total = dropped + sluice_recorder_get_n_events (self->recorder);

  /* Events the ring buffer dropped before we read them are gone. */
  self->n_seen = MAX (self->n_seen, dropped);

  for (; self->n_seen < total; self->n_seen++)
    consume_event (self, sluice_recorder_get_event (self->recorder, (guint) (self->n_seen - dropped)),
                   self->n_seen);

  sluice_result_list_flush (self->results);
  sluice_event_log_update (self->event_log, self->running);
  sluice_error_group_view_flush (self->error_group_view);
  sluice_jobs_view_flush (self->jobs_view);
}

/**
 * _sluice_run_controller_update_views:
 * @self: a #SluiceRunController
 *
 * Reads the events recorded since the last call into the views, moves the
 * "now" line and the viewport, and updates the counters and the banner's
 * countdown. Once per frame, and once more at the end of the run.
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

  if (self->n_seen != seen)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self->chart_view));
      gtk_widget_queue_draw (GTK_WIDGET (self->timeline_view));
    }

  now = self->running ? _sluice_run_controller_now (self)
                      : MAX (self->last.time, sluice_timeline_get_end_time (self->timeline));
  /* A viewport that fits follows the run; a zoomed one stays put. */
  sluice_viewport_set_bounds (self->viewport, self->start_time,
                              MAX (now, self->start_time + SLUICE_RUN_CONTROLLER_MIN_SPAN_US));
  sluice_chart_view_set_now (self->chart_view, now);
  sluice_timeline_view_set_now (self->timeline_view, now);
  take_snapshot (self);
  _sluice_run_controller_update_counters (self);
  _sluice_run_controller_update_countdown (self);
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
 * Updates the views at every frame of the window from now on.
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
 * Stops the updates at every frame, if they were on.
 */
void
_sluice_run_controller_remove_tick (SluiceRunController *self)
{
  if (self->tick_id != 0 && self->frame_widget != NULL)
    gtk_widget_remove_tick_callback (self->frame_widget, self->tick_id);
  self->tick_id = 0;
}
