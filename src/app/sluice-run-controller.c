/* sluice-run-controller.c: one run of the playground, from start to exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-jobs-view.h"
#include "sluice-recorder.h"
#include "sluice-render-export.h"
#include "sluice-run-controller.h"
#include "sluice-scenario-runner.h"
#include "sluice-timeline.h"

/**
 * SluiceRunController:
 *
 * Runs a scenario through #SluiceScenarioRunner on the default main
 * context, on a scaled clock (or a virtual one when the scenario asks for
 * it) that it speeds up, pauses and steps. The run's events go into a
 * #SluiceRecorder; a tick callback on the window reads the new ones once
 * per frame and updates the counters, the views and the shared
 * #SluiceViewport, so the pool never waits on drawing.
 *
 * It owns the run (runner, clock, recorder, timeline, results) and fills
 * views it does not own: the window that created it keeps them alive and
 * calls sluice_run_controller_reset() before letting them go. What the
 * window should say about the run comes as #SluiceRunController::status.
 */

#define RECORDER_CAPACITY 500000
#define MIN_SPAN_US (G_USEC_PER_SEC / 2)

struct _SluiceRunController
{
  GObject               parent_instance;

  /* not owned: the window's */
  GtkWidget            *frame_widget;
  SluiceCounters       *counters;
  SluiceChartView      *chart_view;
  SluiceTimelineView   *timeline_view;
  SluiceEventLog       *event_log;
  SluiceErrorGroupView *error_group_view;
  SluiceJobsView       *jobs_view;

  GtkStringList        *results;
  SluiceViewport       *viewport;
  double                speed;
  gboolean              paused;

  /* the run */
  SluiceScenarioRunner *runner;
  SluiceClock          *clock;
  SluiceRecorder       *recorder;
  SluiceTimeline       *timeline;
  guint                 queue_capacity;
  guint                 lead_bound;
  guint                 tick_id;
  guint64               n_seen;
  guint                 n_timeouts;
  guint                 n_skipped;  /* retries the policy refused */
  guint                 n_shed;     /* items shed from the queue */
  gboolean              can_skip;   /* the run has an item deadline or a retry budget */
  gboolean              can_shed;   /* the run has an item deadline */
  SluiceEvent           last;       /* the counters of the newest event */
  gint64                start_time;
  gboolean              running;
  gboolean              has_run;

  /* submit mode, the shutdown deadline and fatal errors */
  gboolean              submit_mode;
  gint64                shutdown_timeout;   /* µs, 0: none */
  gint64                shutdown_from;      /* when the shutdown clock started, or -1 */
  gint64                deadline_fired_at;  /* -1: it did not fire */
  gint64                fatal_at;           /* -1: no fatal error */
  char                 *fatal_type;
  char                 *countdown;          /* the banner's last countdown */
  guint                 busy, workers;      /* the last snapshot's */
  guint                 queue_depth;
  gboolean              has_snapshot;
};

G_DEFINE_FINAL_TYPE (SluiceRunController, sluice_run_controller, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

enum {
  STATUS,
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
emit_status (SluiceRunController *self,
             SluiceRunStatus      kind,
             const char          *text)
{
  g_signal_emit (self, signals[STATUS], 0, (guint) kind, text);
}

/* ---- the counters ------------------------------------------------------ */

static gint64
clock_now (SluiceRunController *self)
{
  gint64 now = self->clock ? sluice_clock_now (self->clock) : 0;

  return MAX (now, self->last.time);
}

static void
update_counters (SluiceRunController *self)
{
  SluiceCounters *c = self->counters;
  gint64 end = self->running ? clock_now (self) : self->last.time;
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

/* ---- the shutdown deadline --------------------------------------------- */

/* The shutdown clock starts at the first stop request (also one a failure
 * makes), or in a service run at the first close (the drain); a fatal stop
 * does not start it. */
static void
see_shutdown_event (SluiceRunController *self,
                    const SluiceEvent   *event)
{
  switch (event->kind)
    {
    case SLUICE_EVENT_STOP_REQUEST:
    case SLUICE_EVENT_DRAIN:
      if (self->shutdown_from < 0 && self->fatal_at < 0 &&
          (event->kind == SLUICE_EVENT_STOP_REQUEST || self->submit_mode))
        self->shutdown_from = event->time;
      break;
    case SLUICE_EVENT_SHUTDOWN_DEADLINE:
      self->deadline_fired_at = event->time;
      break;
    case SLUICE_EVENT_FATAL:
      if (self->fatal_at < 0)
        {
          self->fatal_at = event->time;
          self->fatal_type = g_strdup (event->error_type ? event->error_type : "Error");
        }
      break;
    default:
      break;
    }
}

/* While a bounded shutdown runs, the banner counts its deadline down. */
static void
update_countdown (SluiceRunController *self)
{
  g_autofree char *text = NULL;
  gint64 deadline, left;

  if (!self->running || self->shutdown_timeout <= 0 || self->shutdown_from < 0)
    return;

  deadline = self->shutdown_from + self->shutdown_timeout;
  if (self->fatal_at >= 0)
    return;
  if (self->deadline_fired_at >= 0)
    text = g_strdup_printf (_("The shutdown deadline fired at %.2f s: what was queued is dropped, "
                              "what still runs was asked once to stop and is awaited…"),
                            (double) (self->deadline_fired_at - self->start_time) / G_USEC_PER_SEC);
  else
    {
      left = MAX (0, deadline - clock_now (self));
      /* Translators: the banner while a stop or close drains under the
       * shutdown timeout; %.1f are seconds */
      text = g_strdup_printf (_("Shutting down: %.1f s left of the %.1f s shutdown timeout; then what is "
                                "queued is dropped and what runs is cancelled."),
                              (double) left / G_USEC_PER_SEC, (double) self->shutdown_timeout / G_USEC_PER_SEC);
    }

  if (g_strcmp0 (text, self->countdown) == 0)
    return;
  g_free (self->countdown);
  self->countdown = g_steal_pointer (&text);
  emit_status (self, SLUICE_RUN_STATUS_INFO, self->countdown);
}

/* ---- reading the recorder once per frame ------------------------------- */

static void
add_result (SluiceRunController *self,
            const SluiceEvent   *event)
{
  g_autofree char *value = event->value ? g_variant_print (event->value, FALSE) : g_strdup ("()");
  g_autofree char *line = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->results)) + 1;

  line = g_strdup_printf (_("%u.  %s  at %.3f s"), n, value, (double) event->time / G_USEC_PER_SEC);
  gtk_string_list_append (self->results, line);
}

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
  if (event->kind == SLUICE_EVENT_RESULT)
    add_result (self, event);
  see_shutdown_event (self, event);
  if (self->submit_mode)
    sluice_jobs_view_add_event (self->jobs_view, event);

  sluice_event_log_append (self->event_log, event, position);
  sluice_error_group_view_add_event (self->error_group_view, event, position);

  self->last = *event;
  self->last.error_type = NULL;
  self->last.error_message = NULL;
  self->last.value = NULL;
  self->last.reason = NULL;
}

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

  sluice_event_log_flush (self->event_log);
  sluice_jobs_view_flush (self->jobs_view);
}

static void
update_views (SluiceRunController *self)
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

  now = self->running ? clock_now (self) : MAX (self->last.time, sluice_timeline_get_end_time (self->timeline));
  /* A viewport that fits follows the run; a zoomed one stays put. */
  sluice_viewport_set_bounds (self->viewport, self->start_time, MAX (now, self->start_time + MIN_SPAN_US));
  sluice_chart_view_set_now (self->chart_view, now);
  sluice_timeline_view_set_now (self->timeline_view, now);
  take_snapshot (self);
  update_counters (self);
  update_countdown (self);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       user_data)
{
  update_views (SLUICE_RUN_CONTROLLER (user_data));
  return G_SOURCE_CONTINUE;
}

static void
remove_tick (SluiceRunController *self)
{
  if (self->tick_id != 0 && self->frame_widget != NULL)
    gtk_widget_remove_tick_callback (self->frame_widget, self->tick_id);
  self->tick_id = 0;
}

/* ---- the end of a run -------------------------------------------------- */

static char *
describe_jobs_end (SluiceRunController *self,
                   const char          *outcome,
                   double               seconds)
{
  SluiceJobsView *jobs = self->jobs_view;
  guint n = sluice_jobs_view_get_n_jobs (jobs);
  guint succeeded = sluice_jobs_view_count_state (jobs, SLUICE_JOB_SUCCEEDED);
  guint failed = sluice_jobs_view_count_state (jobs, SLUICE_JOB_FAILED);
  guint cancelled = sluice_jobs_view_count_state (jobs, SLUICE_JOB_CANCELLED);

  if (g_strcmp0 (outcome, "CancelledError") == 0)
    /* Translators: the banner after a submit-mode run the caller cancelled */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Cancelled at %.2f s: %u job, %u succeeded, %u failed, %u cancelled.",
                                         "Cancelled at %.2f s: %u jobs, %u succeeded, %u failed, %u cancelled.", n),
                            seconds, n, succeeded, failed, cancelled);
  /* Translators: the banner after a submit-mode (service) run */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The service closed after %.2f s: %u job, %u succeeded, %u failed, %u cancelled (see Jobs).",
                                       "The service closed after %.2f s: %u jobs, %u succeeded, %u failed, %u cancelled (see Jobs).", n),
                          seconds, n, succeeded, failed, cancelled);
}

/* What stopped the pool early, before the rest of the banner. */
static char *
describe_stop (SluiceRunController *self)
{
  if (self->fatal_at >= 0)
    /* Translators: the start of the banner after a fatal error; %s is the
     * error's type name, such as DiskFullError */
    return g_strdup_printf (_("A fatal %s stopped the pool at once at %.2f s. "), self->fatal_type,
                            (double) (self->fatal_at - self->start_time) / G_USEC_PER_SEC);
  if (self->deadline_fired_at >= 0)
    /* Translators: the start of the banner after the shutdown deadline fired */
    return g_strdup_printf (_("The shutdown deadline fired at %.2f s: the queue was dropped and the rest cancelled. "),
                            (double) (self->deadline_fired_at - self->start_time) / G_USEC_PER_SEC);
  return g_strdup ("");
}

static char *
describe_end (SluiceRunController *self,
              const char          *outcome)
{
  double seconds = (double) MAX (0, self->last.time - self->start_time) / G_USEC_PER_SEC;
  guint n_errors = sluice_error_group_view_get_n_errors (self->error_group_view);
  guint succeeded = self->last.succeeded, pulled = self->last.pulled;

  if (self->submit_mode && g_strcmp0 (outcome, "ExceptionGroup") != 0)
    return describe_jobs_end (self, outcome, seconds);

  if (g_strcmp0 (outcome, "ok") == 0 && succeeded == pulled)
    return g_strdup_printf (_("Finished: all %u items succeeded in %.2f s."), succeeded, seconds);
  if (g_strcmp0 (outcome, "ok") == 0)
    return g_strdup_printf (_("Finished after a stop: %u of %u pulled items succeeded in %.2f s."),
                            succeeded, pulled, seconds);
  if (g_strcmp0 (outcome, "ExceptionGroup") == 0)
    return g_strdup_printf (ngettext ("Ended with an ExceptionGroup of %u error after %.2f s; %u of %u pulled items succeeded (see Errors).",
                                      "Ended with an ExceptionGroup of %u errors after %.2f s; %u of %u pulled items succeeded (see Errors).",
                                      n_errors),
                            n_errors, seconds, succeeded, pulled);
  if (g_strcmp0 (outcome, "closed") == 0)
    return g_strdup_printf (_("The caller closed the run after %u results, at %.2f s."),
                            g_list_model_get_n_items (G_LIST_MODEL (self->results)), seconds);
  if (g_strcmp0 (outcome, "CancelledError") == 0)
    return g_strdup_printf (_("Cancelled at %.2f s; %u of %u pulled items had succeeded."),
                            seconds, succeeded, pulled);

  return g_strdup_printf (_("Ended with %s after %.2f s; %u of %u pulled items succeeded."),
                          outcome, seconds, succeeded, pulled);
}

static void
show_end (SluiceRunController *self,
          SluiceReport        *report,
          const GError        *error)
{
  const char *outcome = report ? sluice_report_get_outcome (report) : NULL;
  g_autofree char *text = NULL;

  if (report == NULL)
    {
      text = g_strdup_printf (_("The run failed: %s"), error ? error->message : _("unknown error"));
      emit_status (self, SLUICE_RUN_STATUS_ERROR, text);
      return;
    }

  sluice_error_group_view_set_outcome (self->error_group_view, outcome);
  {
    g_autofree char *stop = describe_stop (self);
    g_autofree char *end = describe_end (self, outcome);

    text = g_strconcat (stop, end, NULL);
  }
  emit_status (self, g_strcmp0 (outcome, "ok") == 0 ? SLUICE_RUN_STATUS_OK : SLUICE_RUN_STATUS_ERROR, text);
}

static void
set_running (SluiceRunController *self,
             gboolean             running)
{
  if (self->running == running)
    return;

  self->running = running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceRunController) self = user_data;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = sluice_scenario_runner_run_finish (SLUICE_SCENARIO_RUNNER (object), result, &error);

  /* A run the controller let go of (reset, or the window closed). */
  if (self->runner != SLUICE_SCENARIO_RUNNER (object))
    return;

  remove_tick (self);
  set_running (self, FALSE);
  update_views (self);
  show_end (self, report, error);
  g_signal_emit (self, signals[FINISHED], 0);
}

/* ---- starting and resetting -------------------------------------------- */

/**
 * sluice_run_controller_reset:
 * @self: a #SluiceRunController
 *
 * Cancels the run if one is going on, lets go of it and clears the views.
 */
void
sluice_run_controller_reset (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  remove_tick (self);
  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);

  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);

  self->n_seen = 0;
  self->n_timeouts = 0;
  self->n_skipped = 0;
  self->n_shed = 0;
  self->can_skip = FALSE;
  self->can_shed = FALSE;
  self->start_time = 0;
  memset (&self->last, 0, sizeof self->last);
  self->has_run = FALSE;
  self->queue_capacity = 0;
  self->lead_bound = 0;
  self->submit_mode = FALSE;
  self->shutdown_timeout = 0;
  self->shutdown_from = -1;
  self->deadline_fired_at = -1;
  self->fatal_at = -1;
  g_clear_pointer (&self->fatal_type, g_free);
  g_clear_pointer (&self->countdown, g_free);
  self->busy = 0;
  self->queue_depth = 0;
  self->has_snapshot = FALSE;

  if (self->chart_view != NULL)
    {
      sluice_chart_view_set_model (self->chart_view, NULL, 0, 0);
      sluice_timeline_view_set_model (self->timeline_view, NULL, 0);
      sluice_event_log_clear (self->event_log);
      sluice_error_group_view_clear (self->error_group_view);
      sluice_jobs_view_clear (self->jobs_view);
      update_counters (self);
    }
  gtk_string_list_splice (self->results, 0, g_list_model_get_n_items (G_LIST_MODEL (self->results)), NULL);
  sluice_viewport_set_bounds (self->viewport, 0, MIN_SPAN_US);
  sluice_viewport_fit (self->viewport);
  set_running (self, FALSE);
}

static void
create_run (SluiceRunController *self,
            SluiceScenario      *scenario)
{
  gboolean virtual = sluice_scenario_get_clock_kind (scenario) == SLUICE_CLOCK_VIRTUAL;
  guint workers = (guint) sluice_scenario_get_workers (scenario);
  guint queue_size = (guint) sluice_scenario_get_queue_size (scenario);
  gint64 timeout = (gint64) llround (sluice_scenario_get_item_timeout (scenario) * G_USEC_PER_SEC);

  self->clock = sluice_clock_new (virtual ? SLUICE_CLOCK_VIRTUAL : SLUICE_CLOCK_SCALED);
  sluice_clock_set_speed (self->clock, self->speed);
  sluice_clock_set_paused (self->clock, self->paused);

  self->recorder = sluice_recorder_new (RECORDER_CAPACITY);
  self->timeline = sluice_timeline_new (workers);
  sluice_timeline_set_item_timeout (self->timeline, timeout);
  self->runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_clock (self->runner, self->clock);
  sluice_scenario_runner_set_recorder (self->runner, self->recorder);

  self->queue_capacity = queue_size;
  self->lead_bound = queue_size + workers + 1;
  self->workers = workers;
  self->submit_mode = sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT;
  self->shutdown_timeout = (gint64) llround (sluice_scenario_get_shutdown_timeout (scenario) * G_USEC_PER_SEC);
  self->can_shed = sluice_scenario_get_item_deadline (scenario) > 0;
  self->can_skip = self->can_shed || sluice_scenario_get_retry_budget (scenario) > 0;
  sluice_chart_view_set_model (self->chart_view, self->timeline, self->queue_capacity, self->lead_bound);
  sluice_timeline_view_set_model (self->timeline_view, self->timeline, workers);
}

/**
 * sluice_run_controller_start:
 * @self: a #SluiceRunController
 * @scenario: what to run
 *
 * Clears the last run and starts @scenario; #SluiceRunController::finished
 * tells when it ended.
 *
 * Returns: whether a run started (not when one is going on)
 */
gboolean
sluice_run_controller_start (SluiceRunController *self,
                             SluiceScenario      *scenario)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_SCENARIO (scenario), FALSE);

  if (self->running || self->frame_widget == NULL)
    return FALSE;

  sluice_run_controller_reset (self);
  create_run (self, scenario);
  self->has_run = TRUE;
  set_running (self, TRUE);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
               sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL
                 ? _("Running on the virtual clock…")
                 : _("Running… Space pauses, → steps to the next timer, + and − change the speed."));

  self->tick_id = gtk_widget_add_tick_callback (self->frame_widget, on_tick, self, NULL);
  sluice_scenario_runner_run_async (self->runner, NULL, on_run_done, g_object_ref (self));
  return TRUE;
}

/**
 * sluice_run_controller_request_stop:
 * @self: a #SluiceRunController
 *
 * Asks the pool to pull nothing more and drain what it has.
 */
void
sluice_run_controller_request_stop (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (!self->running)
    return;

  sluice_scenario_runner_request_stop (self->runner);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
               self->submit_mode ? _("Closing: the service admits no more jobs and finishes those it has…")
                                 : _("Stop requested: the pool pulls nothing more and drains what it has…"));
}

/**
 * sluice_run_controller_close:
 * @self: a #SluiceRunController
 *
 * Closes a service run gracefully: no more jobs are admitted, the queued
 * and running ones finish.
 */
void
sluice_run_controller_close (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (!self->running || !self->submit_mode)
    return;

  sluice_scenario_runner_close (self->runner);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
               _("Closing: the service admits no more jobs and finishes those it has…"));
}

/**
 * sluice_run_controller_submit:
 * @self: a #SluiceRunController
 * @item: the job's item (a floating reference is sunk)
 * @behaviour: (nullable): what the handler does with it, or %NULL for the
 *   scenario's default
 * @error: return location for why it was refused
 *
 * Submits one more job to the running service; the jobs table shows it
 * once it is admitted.
 *
 * Returns: whether the submission was made
 */
gboolean
sluice_run_controller_submit (SluiceRunController    *self,
                              GVariant               *item,
                              const SluiceBehaviour  *behaviour,
                              GError                **error)
{
  g_autoptr(GVariant) owned = g_variant_ref_sink (item);

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);

  if (!self->running || !self->submit_mode)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                           _("No service is running: run a scenario in submit mode first."));
      return FALSE;
    }

  return sluice_scenario_runner_submit (self->runner, owned, behaviour, error);
}

/**
 * sluice_run_controller_give_up:
 * @self: a #SluiceRunController
 * @job_index: a job index
 *
 * Gives up on that job, as its caller.
 *
 * Returns: whether the running service has such a job
 */
gboolean
sluice_run_controller_give_up (SluiceRunController *self,
                               gint64               job_index)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);

  return self->running && self->submit_mode && sluice_scenario_runner_give_up (self->runner, job_index);
}

/**
 * sluice_run_controller_get_submit_mode:
 * @self: a #SluiceRunController
 *
 * Returns: whether the current or last run is a service run
 */
gboolean
sluice_run_controller_get_submit_mode (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  return self->submit_mode;
}

/**
 * sluice_run_controller_cancel:
 * @self: a #SluiceRunController
 *
 * Cancels the run as its caller would.
 */
void
sluice_run_controller_cancel (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (!self->running)
    return;

  sluice_scenario_runner_cancel (self->runner);
  emit_status (self, SLUICE_RUN_STATUS_INFO, _("Cancelling: every attempt is asked to stop and awaited…"));
}

/**
 * sluice_run_controller_set_speed:
 * @self: a #SluiceRunController
 * @speed: clock seconds per real second
 *
 * Sets the speed of the scaled clock, for this run and the next ones.
 */
void
sluice_run_controller_set_speed (SluiceRunController *self,
                                 double               speed)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  self->speed = speed;
  if (self->clock != NULL)
    sluice_clock_set_speed (self->clock, speed);
}

/**
 * sluice_run_controller_set_paused:
 * @self: a #SluiceRunController
 * @paused: whether the clock stands still
 *
 * Pauses or resumes the clock of the run.
 */
void
sluice_run_controller_set_paused (SluiceRunController *self,
                                  gboolean             paused)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  self->paused = paused;
  if (self->clock != NULL)
    sluice_clock_set_paused (self->clock, paused);
}

/**
 * sluice_run_controller_step:
 * @self: a #SluiceRunController
 *
 * Advances the clock to the next timer of the run.
 */
void
sluice_run_controller_step (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (self->clock != NULL && self->running)
    sluice_clock_step (self->clock);
}

/**
 * sluice_run_controller_get_running:
 * @self: a #SluiceRunController
 *
 * Returns: whether a run is going on
 */
gboolean
sluice_run_controller_get_running (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  return self->running;
}

/**
 * sluice_run_controller_get_has_events:
 * @self: a #SluiceRunController
 *
 * Returns: whether the last run recorded anything to export
 */
gboolean
sluice_run_controller_get_has_events (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  return self->recorder != NULL && sluice_recorder_get_n_events (self->recorder) > 0;
}

/**
 * sluice_run_controller_get_results:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none): the results as lines of text (#GtkStringObject),
 *   in the order they arrived
 */
GListModel *
sluice_run_controller_get_results (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return G_LIST_MODEL (self->results);
}

/**
 * sluice_run_controller_get_viewport:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none): the time span the chart and the lanes show
 */
SluiceViewport *
sluice_run_controller_get_viewport (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return self->viewport;
}

/* ---- exports ----------------------------------------------------------- */

static gboolean
check_has_events (SluiceRunController  *self,
                  GError              **error)
{
  if (sluice_run_controller_get_has_events (self))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("There is nothing to export yet: run the scenario first."));
  return FALSE;
}

/**
 * sluice_run_controller_export_image:
 * @self: a #SluiceRunController
 * @path: the file to write; `.png`, `.svg` or `.pdf` picks the format
 * @width: the width of the image, in pixels or points
 * @height: the height of the image
 * @dark: whether to use the dark palette
 * @error: return location for an error
 *
 * Draws the queue chart above the worker lanes of the last run, whole,
 * with its queue capacity and lead bound.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_run_controller_export_image (SluiceRunController  *self,
                                    const char           *path,
                                    double                width,
                                    double                height,
                                    gboolean              dark,
                                    GError              **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_has_events (self, error))
    return FALSE;

  sluice_timeline_update (self->timeline, self->recorder);
  return sluice_render_export (self->timeline, path, width, height,
                               self->queue_capacity, self->lead_bound, dark, error);
}

/**
 * sluice_run_controller_export_events:
 * @self: a #SluiceRunController
 * @path: the file to write; `.csv` writes CSV, `.jsonl`, `.ndjson` or
 *   `.json` JSON Lines
 * @error: return location for an error
 *
 * Writes the events the last run recorded.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_run_controller_export_events (SluiceRunController  *self,
                                     const char           *path,
                                     GError              **error)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_has_events (self, error))
    return FALSE;

  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".csv"))
    return sluice_recorder_save_csv (self->recorder, path, error);
  if (g_str_has_suffix (lower, ".jsonl") || g_str_has_suffix (lower, ".ndjson") || g_str_has_suffix (lower, ".json"))
    return sluice_recorder_save_jsonl (self->recorder, path, error);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("Cannot export “%s”: the name must end in .csv or .jsonl"), path);
  return FALSE;
}

/* ---- GObject ----------------------------------------------------------- */

static void
forget_widgets (SluiceRunController *self)
{
  remove_tick (self);
  g_clear_weak_pointer (&self->frame_widget);
  self->counters = NULL;
  self->chart_view = NULL;
  self->timeline_view = NULL;
  self->event_log = NULL;
  self->error_group_view = NULL;
  self->jobs_view = NULL;
}

static void
sluice_run_controller_dispose (GObject *object)
{
  SluiceRunController *self = SLUICE_RUN_CONTROLLER (object);

  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  forget_widgets (self);
  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);
  g_clear_object (&self->results);
  g_clear_object (&self->viewport);
  g_clear_pointer (&self->fatal_type, g_free);
  g_clear_pointer (&self->countdown, g_free);

  G_OBJECT_CLASS (sluice_run_controller_parent_class)->dispose (object);
}

static void
sluice_run_controller_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SluiceRunController *self = SLUICE_RUN_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_run_controller_class_init (SluiceRunControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_run_controller_dispose;
  object_class->get_property = sluice_run_controller_get_property;

  /**
   * SluiceRunController:running:
   *
   * Whether a run is going on.
   */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceRunController::status:
   * @self: the controller
   * @kind: a #SluiceRunStatus
   * @text: one line for the person watching
   *
   * The run started, was asked to stop, or ended, and how.
   */
  signals[STATUS] = g_signal_new ("status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * SluiceRunController::finished:
   * @self: the controller
   *
   * The run ended and the views show all of it.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sluice_run_controller_init (SluiceRunController *self)
{
  self->speed = 1.0;
  self->shutdown_from = -1;
  self->deadline_fired_at = -1;
  self->fatal_at = -1;
  self->results = gtk_string_list_new (NULL);
  self->viewport = sluice_viewport_new ();
}

/**
 * sluice_run_controller_new:
 * @frame_widget: the widget whose frame clock paces the updates (the window)
 * @counters: the live counters to update
 * @chart_view: the queue chart
 * @timeline_view: the worker lanes
 * @event_log: the event log
 * @error_group_view: the final error group
 * @jobs_view: the jobs of a service run
 *
 * The widgets belong to the caller, which must call
 * sluice_run_controller_reset() before it disposes of them.
 *
 * Returns: (transfer full): a controller with no run
 */
SluiceRunController *
sluice_run_controller_new (GtkWidget            *frame_widget,
                           SluiceCounters       *counters,
                           SluiceChartView      *chart_view,
                           SluiceTimelineView   *timeline_view,
                           SluiceEventLog       *event_log,
                           SluiceErrorGroupView *error_group_view,
                           SluiceJobsView       *jobs_view)
{
  SluiceRunController *self;

  g_return_val_if_fail (GTK_IS_WIDGET (frame_widget), NULL);
  g_return_val_if_fail (SLUICE_IS_COUNTERS (counters), NULL);
  g_return_val_if_fail (SLUICE_IS_CHART_VIEW (chart_view), NULL);
  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (timeline_view), NULL);
  g_return_val_if_fail (SLUICE_IS_EVENT_LOG (event_log), NULL);
  g_return_val_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (error_group_view), NULL);
  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (jobs_view), NULL);

  self = g_object_new (SLUICE_TYPE_RUN_CONTROLLER, NULL);
  g_set_weak_pointer (&self->frame_widget, frame_widget);
  self->counters = counters;
  self->chart_view = chart_view;
  self->timeline_view = timeline_view;
  self->event_log = event_log;
  self->error_group_view = error_group_view;
  self->jobs_view = jobs_view;

  sluice_chart_view_set_viewport (chart_view, self->viewport);
  sluice_timeline_view_set_viewport (timeline_view, self->viewport);
  sluice_run_controller_reset (self);
  return self;
}
