/* sluice-window.c: the playground window: configure, run, watch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-chart-view.h"
#include "sluice-config-panel.h"
#include "sluice-error-group-view.h"
#include "sluice-event-log.h"
#include "sluice-presets.h"
#include "sluice-recorder.h"
#include "sluice-render-export.h"
#include "sluice-scenario-runner.h"
#include "sluice-timeline-view.h"
#include "sluice-timeline.h"
#include "sluice-window.h"
#include "sluice-theme.h"

/**
 * SluiceWindow:
 *
 * The configuration panel on the left; on the right the run: a banner,
 * the live counters, the queue chart, the worker lanes, and the event log,
 * results and error group in tabs.
 *
 * A run goes through #SluiceScenarioRunner on the default main context, on
 * a scaled clock (or a virtual one when the scenario asks for it) that the
 * header bar speeds up, pauses and steps. Its events go into a
 * #SluiceRecorder; a tick callback reads the new ones once per frame and
 * updates the views, so the pool never waits on drawing.
 */

#define RECORDER_CAPACITY 500000
#define MIN_SPAN_US (G_USEC_PER_SEC / 2)
#define SCREENSHOT_FRAMES 5
#define EXPORT_WIDTH 1200
#define EXPORT_HEIGHT 800

static const double speeds[] = { 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0 };

static const char * const counter_titles[SLUICE_N_COUNTERS] = {
  [SLUICE_COUNTER_PULLED] = N_("Pulled"),
  [SLUICE_COUNTER_QUEUED] = N_("Queued"),
  [SLUICE_COUNTER_IN_FLIGHT] = N_("In flight"),
  [SLUICE_COUNTER_SUCCEEDED] = N_("Succeeded"),
  [SLUICE_COUNTER_RETRIES] = N_("Retries"),
  [SLUICE_COUNTER_TIMEOUTS] = N_("Timeouts"),
  [SLUICE_COUNTER_FAILED] = N_("Failed"),
  [SLUICE_COUNTER_ELAPSED] = N_("Elapsed"),
  [SLUICE_COUNTER_THROUGHPUT] = N_("Throughput"),
};

static const char * const counter_tooltips[SLUICE_N_COUNTERS] = {
  [SLUICE_COUNTER_PULLED] = N_("Items the pool pulled from the source."),
  [SLUICE_COUNTER_QUEUED] = N_("Items waiting in the queue for a worker."),
  [SLUICE_COUNTER_IN_FLIGHT] = N_("Attempts running now."),
  [SLUICE_COUNTER_SUCCEEDED] = N_("Items that succeeded."),
  [SLUICE_COUNTER_RETRIES] = N_("Retries started after retryable failures."),
  [SLUICE_COUNTER_TIMEOUTS] = N_("Attempts that ran past the item timeout."),
  [SLUICE_COUNTER_FAILED] = N_("Items that failed for good."),
  [SLUICE_COUNTER_ELAPSED] = N_("Time since the run started, on the pool’s clock."),
  [SLUICE_COUNTER_THROUGHPUT] = N_("Items that succeeded per second of the pool’s clock."),
};

struct _SluiceWindow
{
  GtkApplicationWindow  parent_instance;

  /* template */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkScale             *speed_scale;
  GtkMenuButton        *menu_button;
  GMenu                *presets_menu;
  SluiceConfigPanel    *config_panel;
  GtkLabel             *banner_label;
  GtkBox               *counters_box;
  SluiceChartView      *chart_view;
  SluiceTimelineView   *timeline_view;
  SluiceEventLog       *event_log;
  GtkListView          *results_view;
  SluiceErrorGroupView *error_group_view;

  GtkLabel             *counter_labels[SLUICE_N_COUNTERS];
  char                 *counter_texts[SLUICE_N_COUNTERS];
  GtkStringList        *results;

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
  SluiceEvent           last;       /* the counters of the newest event */
  gint64                start_time;
  gboolean              running;
  gboolean              has_run;

  char                 *file;       /* the scenario's file, or NULL */

  char                 *screenshot;
  char                 *export_image;
  char                 *export_events;
  gboolean              batch_ok;
  SluiceScreenshotFunc  screenshot_func;
  gpointer              screenshot_data;
  guint                 screenshot_frames;
};

G_DEFINE_FINAL_TYPE (SluiceWindow, sluice_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_actions (SluiceWindow *self);

/* ---- the banner and the counters --------------------------------------- */

typedef enum {
  BANNER_INFO,
  BANNER_OK,
  BANNER_ERROR,
} BannerKind;

static void
set_banner (SluiceWindow *self,
            BannerKind    kind,
            const char   *text)
{
  GtkWidget *banner = GTK_WIDGET (self->banner_label);

  gtk_label_set_text (self->banner_label, text);
  gtk_widget_remove_css_class (banner, "banner-ok");
  gtk_widget_remove_css_class (banner, "banner-error");
  if (kind == BANNER_OK)
    gtk_widget_add_css_class (banner, "banner-ok");
  else if (kind == BANNER_ERROR)
    gtk_widget_add_css_class (banner, "banner-error");
}

static void
set_counter (SluiceWindow  *self,
             SluiceCounter  counter,
             char          *text)
{
  if (g_strcmp0 (self->counter_texts[counter], text) != 0)
    gtk_label_set_text (self->counter_labels[counter], text);

  g_free (self->counter_texts[counter]);
  self->counter_texts[counter] = text;
}

static void
create_counters (SluiceWindow *self)
{
  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *value = gtk_label_new ("0");
      GtkWidget *title = gtk_label_new (_(counter_titles[c]));

      gtk_widget_add_css_class (value, "counter-value");
      gtk_widget_add_css_class (title, "counter-title");
      gtk_widget_set_tooltip_text (box, _(counter_tooltips[c]));
      gtk_accessible_update_relation (GTK_ACCESSIBLE (value),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL, -1);
      gtk_box_append (GTK_BOX (box), value);
      gtk_box_append (GTK_BOX (box), title);
      gtk_box_append (self->counters_box, box);

      self->counter_labels[c] = GTK_LABEL (value);
    }
}

static gint64
clock_now (SluiceWindow *self)
{
  gint64 now = self->clock ? sluice_clock_now (self->clock) : 0;

  return MAX (now, self->last.time);
}

static void
update_counters (SluiceWindow *self)
{
  gint64 elapsed = self->has_run ? MAX (0, (self->running ? clock_now (self) : self->last.time) - self->start_time) : 0;
  double seconds = (double) elapsed / G_USEC_PER_SEC;

  set_counter (self, SLUICE_COUNTER_PULLED, g_strdup_printf ("%u", self->last.pulled));
  set_counter (self, SLUICE_COUNTER_QUEUED, g_strdup_printf ("%u", self->last.queued));
  set_counter (self, SLUICE_COUNTER_IN_FLIGHT, g_strdup_printf ("%u", self->last.in_flight));
  set_counter (self, SLUICE_COUNTER_SUCCEEDED, g_strdup_printf ("%u", self->last.succeeded));
  set_counter (self, SLUICE_COUNTER_RETRIES, g_strdup_printf ("%u", self->last.retries));
  set_counter (self, SLUICE_COUNTER_TIMEOUTS, g_strdup_printf ("%u", self->n_timeouts));
  set_counter (self, SLUICE_COUNTER_FAILED, g_strdup_printf ("%u", self->last.failed));
  set_counter (self, SLUICE_COUNTER_ELAPSED, g_strdup_printf (_("%.2f s"), seconds));
  set_counter (self, SLUICE_COUNTER_THROUGHPUT,
               seconds > 0 ? g_strdup_printf (_("%.1f/s"), self->last.succeeded / seconds) : g_strdup ("–"));
}

/* ---- reading the recorder once per frame ------------------------------- */

static void
add_result (SluiceWindow      *self,
            const SluiceEvent *event)
{
  g_autofree char *value = event->value ? g_variant_print (event->value, FALSE) : g_strdup ("()");
  g_autofree char *line = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->results)) + 1;

  line = g_strdup_printf (_("%u.  %s  at %.3f s"), n, value, (double) event->time / G_USEC_PER_SEC);
  gtk_string_list_append (self->results, line);
}

static void
consume_event (SluiceWindow      *self,
               const SluiceEvent *event,
               guint64            position)
{
  if (event->kind == SLUICE_EVENT_RUN_START)
    self->start_time = event->time;
  if (event->kind == SLUICE_EVENT_ATTEMPT_END && event->outcome == SLUICE_OUTCOME_TIMED_OUT)
    self->n_timeouts++;
  if (event->kind == SLUICE_EVENT_RESULT)
    add_result (self, event);

  sluice_event_log_append (self->event_log, event, position);
  sluice_error_group_view_add_event (self->error_group_view, event, position);

  self->last = *event;
  self->last.error_type = NULL;
  self->last.error_message = NULL;
  self->last.value = NULL;
}

static void
consume_events (SluiceWindow *self)
{
  guint64 dropped = sluice_recorder_get_n_dropped (self->recorder);
  guint64 total = dropped + sluice_recorder_get_n_events (self->recorder);

  /* Events the ring buffer dropped before we read them are gone. */
  self->n_seen = MAX (self->n_seen, dropped);

  for (; self->n_seen < total; self->n_seen++)
    consume_event (self, sluice_recorder_get_event (self->recorder, (guint) (self->n_seen - dropped)),
                   self->n_seen);

  sluice_event_log_flush (self->event_log);
}

static void
update_views (SluiceWindow *self)
{
  guint64 seen = self->n_seen;
  gint64 now, t1;

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
  t1 = MAX (now, self->start_time + MIN_SPAN_US);
  sluice_chart_view_set_range (self->chart_view, self->start_time, t1, now);
  sluice_timeline_view_set_range (self->timeline_view, self->start_time, t1, now);
  update_counters (self);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       user_data)
{
  update_views (SLUICE_WINDOW (widget));
  return G_SOURCE_CONTINUE;
}

/* ---- the screenshot ---------------------------------------------------- */

static gboolean
save_screenshot (SluiceWindow  *self,
                 GError       **error)
{
  GtkWidget *widget = GTK_WIDGET (self);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (self));

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the window drew nothing");
      return FALSE;
    }

  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, self->screenshot))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot write %s", self->screenshot);
      return FALSE;
    }

  return TRUE;
}

static void
on_after_paint (GdkFrameClock *frame_clock,
                SluiceWindow  *self)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_signal_handlers_disconnect_by_func (frame_clock, on_after_paint, self);

  ok = save_screenshot (self, &error);
  if (!ok)
    g_printerr ("sluice: %s\n", error->message);
  ok = ok && self->batch_ok;

  if (self->screenshot_func != NULL)
    self->screenshot_func (self, ok, self->screenshot_data);
}

/* Waits a few frames after the run, then shoots right after a paint, when
 * the layout is done. */
static gboolean
on_screenshot_tick (GtkWidget     *widget,
                    GdkFrameClock *frame_clock,
                    gpointer       user_data)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);

  if (!gtk_widget_get_mapped (widget) || ++self->screenshot_frames < SCREENSHOT_FRAMES)
    return G_SOURCE_CONTINUE;

  g_signal_connect (frame_clock, "after-paint", G_CALLBACK (on_after_paint), self);
  gtk_widget_queue_draw (widget);
  return G_SOURCE_REMOVE;
}

/* ---- exports ---------------------------------------------------------- */

static gboolean
has_events (SluiceWindow *self)
{
  return self->recorder != NULL && sluice_recorder_get_n_events (self->recorder) > 0;
}

static gboolean
check_has_events (SluiceWindow  *self,
                  GError       **error)
{
  if (has_events (self))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("There is nothing to export yet: run the scenario first."));
  return FALSE;
}

/**
 * sluice_window_export_image:
 * @self: a #SluiceWindow
 * @path: the file to write; `.png`, `.svg` or `.pdf` picks the format
 * @width: the width of the image, in pixels or points
 * @height: the height of the image
 * @error: return location for an error
 *
 * Draws the queue chart above the worker lanes of the last run, with the
 * run's queue capacity and lead bound and the window's dark or light look.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_window_export_image (SluiceWindow  *self,
                            const char    *path,
                            double         width,
                            double         height,
                            GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_has_events (self, error))
    return FALSE;

  sluice_timeline_update (self->timeline, self->recorder);
  return sluice_render_export (self->timeline, path, width, height,
                               self->queue_capacity, self->lead_bound,
                               sluice_widget_is_dark (GTK_WIDGET (self->chart_view)), error);
}

/**
 * sluice_window_export_events:
 * @self: a #SluiceWindow
 * @path: the file to write; `.csv` writes CSV, `.jsonl`, `.ndjson` or
 *   `.json` JSON Lines
 * @error: return location for an error
 *
 * Writes the events the last run recorded.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_window_export_events (SluiceWindow  *self,
                             const char    *path,
                             GError       **error)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
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

static gboolean
export_batch_file (SluiceWindow *self,
                   const char   *path,
                   gboolean      image)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (path == NULL)
    return TRUE;

  ok = image ? sluice_window_export_image (self, path, EXPORT_WIDTH, EXPORT_HEIGHT, &error)
             : sluice_window_export_events (self, path, &error);
  if (!ok)
    g_printerr ("sluice: %s\n", error->message);

  return ok;
}

/* After a run started by sluice_window_run_and_export(): the exports, then
 * the screenshot a few frames later, or the callback now. */
static void
finish_batch (SluiceWindow *self)
{
  gboolean image_ok = export_batch_file (self, self->export_image, TRUE);
  gboolean events_ok = export_batch_file (self, self->export_events, FALSE);

  self->batch_ok = image_ok && events_ok;

  if (self->screenshot != NULL)
    gtk_widget_add_tick_callback (GTK_WIDGET (self), on_screenshot_tick, NULL, NULL);
  else if (self->screenshot_func != NULL)
    self->screenshot_func (self, self->batch_ok, self->screenshot_data);
}

/* ---- the end of a run -------------------------------------------------- */

static char *
describe_end (SluiceWindow *self,
              const char   *outcome)
{
  double seconds = (double) MAX (0, self->last.time - self->start_time) / G_USEC_PER_SEC;
  guint n_errors = sluice_error_group_view_get_n_errors (self->error_group_view);

  if (g_strcmp0 (outcome, "ok") == 0 && self->last.succeeded == self->last.pulled)
    return g_strdup_printf (_("Finished: all %u items succeeded in %.2f s."), self->last.succeeded, seconds);
  if (g_strcmp0 (outcome, "ok") == 0)
    return g_strdup_printf (_("Finished after a stop: %u of %u pulled items succeeded in %.2f s."),
                            self->last.succeeded, self->last.pulled, seconds);
  if (g_strcmp0 (outcome, "ExceptionGroup") == 0)
    return g_strdup_printf (_("Ended with an ExceptionGroup of %u errors after %.2f s; %u of %u pulled items succeeded (see Errors)."),
                            n_errors, seconds, self->last.succeeded, self->last.pulled);
  if (g_strcmp0 (outcome, "closed") == 0)
    return g_strdup_printf (_("The caller closed the run after %u results, at %.2f s."),
                            g_list_model_get_n_items (G_LIST_MODEL (self->results)), seconds);
  if (g_strcmp0 (outcome, "CancelledError") == 0)
    return g_strdup_printf (_("Cancelled at %.2f s; %u of %u pulled items had succeeded."),
                            seconds, self->last.succeeded, self->last.pulled);

  return g_strdup_printf (_("Ended with %s after %.2f s; %u of %u pulled items succeeded."),
                          outcome, seconds, self->last.succeeded, self->last.pulled);
}

static void
show_end (SluiceWindow *self,
          SluiceReport *report,
          const GError *error)
{
  const char *outcome = report ? sluice_report_get_outcome (report) : NULL;
  g_autofree char *text = NULL;

  if (report == NULL)
    {
      text = g_strdup_printf (_("The run failed: %s"), error ? error->message : _("unknown error"));
      set_banner (self, BANNER_ERROR, text);
      return;
    }

  sluice_error_group_view_set_outcome (self->error_group_view, outcome);
  text = describe_end (self, outcome);
  set_banner (self, g_strcmp0 (outcome, "ok") == 0 ? BANNER_OK : BANNER_ERROR, text);
}

static void
set_running (SluiceWindow *self,
             gboolean      running)
{
  if (self->running == running)
    return;

  self->running = running;
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceWindow) self = user_data;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = sluice_scenario_runner_run_finish (SLUICE_SCENARIO_RUNNER (object), result, &error);

  /* A run the window let go of (reset, or the window closed). */
  if (self->runner != SLUICE_SCENARIO_RUNNER (object))
    return;

  if (self->tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
  self->tick_id = 0;

  set_running (self, FALSE);
  update_views (self);
  show_end (self, report, error);

  if (self->screenshot_func != NULL)
    finish_batch (self);
}

/* ---- starting and resetting -------------------------------------------- */

static void
clear_run (SluiceWindow *self)
{
  if (self->tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
  self->tick_id = 0;

  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);

  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);

  self->n_seen = 0;
  self->n_timeouts = 0;
  self->start_time = 0;
  memset (&self->last, 0, sizeof self->last);
  self->has_run = FALSE;
  self->queue_capacity = 0;
  self->lead_bound = 0;

  sluice_chart_view_set_model (self->chart_view, NULL, 0, 0);
  sluice_timeline_view_set_model (self->timeline_view, NULL, 0);
  sluice_event_log_clear (self->event_log);
  sluice_error_group_view_clear (self->error_group_view);
  gtk_string_list_splice (self->results, 0, g_list_model_get_n_items (G_LIST_MODEL (self->results)), NULL);
  update_counters (self);
  set_running (self, FALSE);
  update_actions (self);
}

static double
get_speed (SluiceWindow *self)
{
  return pow (10.0, gtk_range_get_value (GTK_RANGE (self->speed_scale)));
}

static gboolean
get_paused (SluiceWindow *self)
{
  g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), "pause");

  return state != NULL && g_variant_get_boolean (state);
}

static void
create_run (SluiceWindow   *self,
            SluiceScenario *scenario)
{
  gboolean virtual = sluice_scenario_get_clock_kind (scenario) == SLUICE_CLOCK_VIRTUAL;
  guint workers = (guint) sluice_scenario_get_workers (scenario);
  guint queue_size = (guint) sluice_scenario_get_queue_size (scenario);

  self->clock = sluice_clock_new (virtual ? SLUICE_CLOCK_VIRTUAL : SLUICE_CLOCK_SCALED);
  sluice_clock_set_speed (self->clock, get_speed (self));
  sluice_clock_set_paused (self->clock, get_paused (self));

  self->recorder = sluice_recorder_new (RECORDER_CAPACITY);
  self->timeline = sluice_timeline_new (workers);
  sluice_timeline_set_item_timeout (self->timeline,
                                    (gint64) llround (sluice_scenario_get_item_timeout (scenario) * G_USEC_PER_SEC));
  self->runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_clock (self->runner, self->clock);
  sluice_scenario_runner_set_recorder (self->runner, self->recorder);

  self->queue_capacity = queue_size;
  self->lead_bound = queue_size + workers + 1;
  sluice_chart_view_set_model (self->chart_view, self->timeline, self->queue_capacity, self->lead_bound);
  sluice_timeline_view_set_model (self->timeline_view, self->timeline, workers);
}

static void
start_run (SluiceWindow *self)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);

  if (self->running)
    return;

  if (scenario == NULL)
    {
      set_banner (self, BANNER_ERROR, _("The configuration has an error: fix the field marked in red, then run again."));
      return;
    }

  clear_run (self);
  create_run (self, scenario);
  self->has_run = TRUE;
  set_running (self, TRUE);
  set_banner (self, BANNER_INFO,
              sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL
                ? _("Running on the virtual clock…")
                : _("Running… Space pauses, → steps to the next timer, + and − change the speed."));

  self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, NULL, NULL);
  sluice_scenario_runner_run_async (self->runner, on_run_done, g_object_ref (self));
}

/* ---- scenarios: files, presets, settings ------------------------------- */

static void
remember (SluiceWindow *self,
          const char   *path)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? sluice_application_get_settings (SLUICE_APPLICATION (app)) : NULL;

  if (settings != NULL)
    g_settings_set_string (settings, "last-scenario", path);
}

static void
show_scenario (SluiceWindow   *self,
               SluiceScenario *scenario,
               const char     *path)
{
  const char *title = sluice_scenario_get_title (scenario);
  g_autofree char *base = g_path_get_basename (path);

  if (!self->running)
    clear_run (self);

  sluice_config_panel_set_scenario (self->config_panel, scenario);
  gtk_label_set_text (self->title_label, title ? title : base);
  gtk_label_set_text (self->subtitle_label, base);
  gtk_window_set_title (GTK_WINDOW (self), title ? title : base);

  g_free (self->file);
  self->file = g_strdup (path);
  set_banner (self, BANNER_INFO, _("Ready: press Run (Ctrl+R) to start, or change the configuration on the left."));
}

/**
 * sluice_window_load_file:
 * @self: a #SluiceWindow
 * @path: a `.pool` file
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Loads the scenario of @path into the configuration panel and remembers it
 * as the last scenario.
 *
 * Returns: whether the file was a valid scenario
 */
gboolean
sluice_window_load_file (SluiceWindow  *self,
                         const char    *path,
                         GError       **error)
{
  g_autoptr(SluiceScenario) scenario = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  scenario = sluice_scenario_new_from_file (path, NULL, error);
  if (scenario == NULL)
    return FALSE;

  show_scenario (self, scenario, path);
  remember (self, path);
  return TRUE;
}

static void
load_or_complain (SluiceWindow *self,
                  const char   *path)
{
  g_autoptr(GError) error = NULL;

  if (!sluice_window_load_file (self, path, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Cannot open the scenario: %s"), error->message);
      set_banner (self, BANNER_ERROR, text);
    }
}

/**
 * sluice_window_open_preset:
 * @self: a #SluiceWindow
 * @name: a preset name such as `retries`
 *
 * Returns: whether the preset exists and loaded
 */
gboolean
sluice_window_open_preset (SluiceWindow *self,
                           const char   *name)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  path = sluice_presets_find (name);
  if (path == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("There is no preset named “%s”."), name);
      set_banner (self, BANNER_ERROR, text);
      return FALSE;
    }

  if (!sluice_window_load_file (self, path, &error))
    {
      set_banner (self, BANNER_ERROR, error->message);
      return FALSE;
    }

  return TRUE;
}

/**
 * sluice_window_open_last:
 * @self: a #SluiceWindow
 *
 * Opens the scenario of the last session, or the first-look preset.
 */
void
sluice_window_open_last (SluiceWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? sluice_application_get_settings (SLUICE_APPLICATION (app)) : NULL;
  g_autofree char *last = settings ? g_settings_get_string (settings, "last-scenario") : NULL;

  g_return_if_fail (SLUICE_IS_WINDOW (self));

  if (last != NULL && *last != '\0' && sluice_window_load_file (self, last, NULL))
    return;

  sluice_window_open_preset (self, "first-look");
}

static GtkFileFilter *
pool_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Sluice scenarios (*.pool)"));
  gtk_file_filter_add_pattern (filter, "*.pool");
  return filter;
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  SluiceWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        load_or_complain (self, path);
    }

  g_object_unref (dialog);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  gpointer         user_data)
{
  SluiceWindow *self = user_data;
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);

  if (response == GTK_RESPONSE_ACCEPT && scenario != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;

      if (path != NULL && sluice_scenario_save_to_file (scenario, path, &error))
        {
          g_autofree char *base = g_path_get_basename (path);
          g_autofree char *text = g_strdup_printf (_("Saved as %s."), base);

          g_free (self->file);
          self->file = g_strdup (path);
          gtk_label_set_text (self->subtitle_label, base);
          remember (self, path);
          set_banner (self, BANNER_INFO, text);
        }
      else if (error != NULL)
        set_banner (self, BANNER_ERROR, error->message);
    }

  g_object_unref (dialog);
}

/* ---- export dialogs ---------------------------------------------------- */

typedef enum {
  EXPORT_IMAGE,
  EXPORT_EVENTS,
} ExportKind;

static GtkFileFilter *
export_filter (const char *name,
               const char *extension)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*.", extension, NULL);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  g_object_set_data_full (G_OBJECT (filter), "extension", g_strdup (extension), g_free);
  return filter;
}

/* A name without a known extension takes the one of the chosen filter. */
static char *
add_extension (GtkFileChooser *chooser,
               const char     *path,
               ExportKind      kind)
{
  static const char * const image_extensions[] = { ".png", ".svg", ".pdf", NULL };
  static const char * const event_extensions[] = { ".csv", ".jsonl", ".ndjson", ".json", NULL };
  const char * const *known = kind == EXPORT_IMAGE ? image_extensions : event_extensions;
  g_autofree char *lower = g_ascii_strdown (path, -1);
  g_autoptr(GtkFileFilter) filter = gtk_file_chooser_get_filter (chooser);
  const char *extension = filter ? g_object_get_data (G_OBJECT (filter), "extension") : NULL;

  for (guint i = 0; known[i] != NULL; i++)
    if (g_str_has_suffix (lower, known[i]))
      return g_strdup (path);

  if (extension == NULL)
    extension = kind == EXPORT_IMAGE ? "png" : "csv";

  return g_strconcat (path, ".", extension, NULL);
}

static void
export_to (SluiceWindow *self,
           const char   *path,
           ExportKind    kind)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;
  int width = MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline_view)), 640);
  int height = gtk_widget_get_height (GTK_WIDGET (self->chart_view)) +
               gtk_widget_get_height (GTK_WIDGET (self->timeline_view));
  gboolean ok;

  if (kind == EXPORT_IMAGE)
    ok = sluice_window_export_image (self, path, width, MAX (height, 480), &error);
  else
    ok = sluice_window_export_events (self, path, &error);

  if (!ok)
    {
      text = g_strdup_printf (_("Cannot export: %s"), error->message);
      set_banner (self, BANNER_ERROR, text);
      return;
    }

  text = g_strdup_printf (_("Exported %s."), base);
  set_banner (self, BANNER_INFO, text);
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  SluiceWindow *self = user_data;
  ExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "export-kind"));

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          g_autofree char *full = add_extension (GTK_FILE_CHOOSER (dialog), path, kind);
          export_to (self, full, kind);
        }
      else
        set_banner (self, BANNER_ERROR, _("Cannot export: choose a local file."));
    }

  g_object_unref (dialog);
}

static char *
export_name (SluiceWindow *self,
             const char   *extension)
{
  g_autofree char *base = self->file ? g_path_get_basename (self->file) : g_strdup ("run.pool");
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';

  return g_strconcat (base, ".", extension, NULL);
}

static void
show_export_dialog (SluiceWindow *self,
                    ExportKind    kind)
{
  GtkFileChooserNative *dialog;
  GtkFileChooser *chooser;
  g_autofree char *name = export_name (self, kind == EXPORT_IMAGE ? "png" : "csv");

  dialog = gtk_file_chooser_native_new (kind == EXPORT_IMAGE ? _("Export the Image") : _("Export the Events"),
                                        GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (dialog);
  if (kind == EXPORT_IMAGE)
    {
      gtk_file_chooser_add_filter (chooser, export_filter (_("PNG images (*.png)"), "png"));
      gtk_file_chooser_add_filter (chooser, export_filter (_("SVG images (*.svg)"), "svg"));
    }
  else
    {
      gtk_file_chooser_add_filter (chooser, export_filter (_("CSV files (*.csv)"), "csv"));
      gtk_file_chooser_add_filter (chooser, export_filter (_("JSON Lines files (*.jsonl)"), "jsonl"));
    }
  gtk_file_chooser_set_current_name (chooser, name);
  g_object_set_data (G_OBJECT (dialog), "export-kind", GINT_TO_POINTER (kind));
  g_signal_connect (dialog, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ---- actions ----------------------------------------------------------- */

static void
run_activated (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  start_run (SLUICE_WINDOW (user_data));
}

static void
request_stop_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  SluiceWindow *self = user_data;

  if (self->running)
    {
      sluice_scenario_runner_request_stop (self->runner);
      set_banner (self, BANNER_INFO, _("Stop requested: the pool pulls nothing more and drains what it has…"));
    }
}

static void
cancel_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  SluiceWindow *self = user_data;

  if (self->running)
    {
      sluice_scenario_runner_cancel (self->runner);
      set_banner (self, BANNER_INFO, _("Cancelling: every attempt is asked to stop and awaited…"));
    }
}

static void
reset_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  SluiceWindow *self = user_data;

  clear_run (self);
  set_banner (self, BANNER_INFO, _("Ready: press Run (Ctrl+R) to start, or change the configuration on the left."));
}

static void
pause_changed (GSimpleAction *action,
               GVariant      *state,
               gpointer       user_data)
{
  SluiceWindow *self = user_data;

  g_simple_action_set_state (action, state);
  if (self->clock != NULL)
    sluice_clock_set_paused (self->clock, g_variant_get_boolean (state));
}

static void
step_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  SluiceWindow *self = user_data;

  if (self->clock != NULL && self->running)
    sluice_clock_step (self->clock);
}

static void
change_speed (SluiceWindow *self,
              gint          direction)
{
  double speed = get_speed (self);
  gint i;

  /* The next preset speed up or down, from wherever the slider is. */
  if (direction > 0)
    for (i = 0; i < (gint) G_N_ELEMENTS (speeds) - 1 && speeds[i] <= speed * 1.001; i++)
      ;
  else
    for (i = G_N_ELEMENTS (speeds) - 1; i > 0 && speeds[i] >= speed * 0.999; i--)
      ;

  gtk_range_set_value (GTK_RANGE (self->speed_scale), log10 (speeds[i]));
}

static void
faster_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  change_speed (SLUICE_WINDOW (user_data), +1);
}

static void
slower_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  change_speed (SLUICE_WINDOW (user_data), -1);
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  SluiceWindow *self = user_data;
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Open a Scenario"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), pool_filter ());
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  SluiceWindow *self = user_data;
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;

  if (sluice_config_panel_get_scenario (self->config_panel) == NULL)
    {
      set_banner (self, BANNER_ERROR, _("The configuration has an error: fix the field marked in red, then save."));
      return;
    }

  dialog = gtk_file_chooser_native_new (_("Save the Scenario"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), pool_filter ());
  name = self->file ? g_path_get_basename (self->file) : g_strdup ("scenario.pool");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_image_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  show_export_dialog (SLUICE_WINDOW (user_data), EXPORT_IMAGE);
}

static void
export_events_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  show_export_dialog (SLUICE_WINDOW (user_data), EXPORT_EVENTS);
}

static void
open_preset_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  sluice_window_open_preset (SLUICE_WINDOW (user_data), g_variant_get_string (parameter, NULL));
}

static const GActionEntry win_actions[] = {
  { "run", run_activated },
  { "request-stop", request_stop_activated },
  { "cancel", cancel_activated },
  { "reset", reset_activated },
  { "pause", NULL, NULL, "false", pause_changed },
  { "step", step_activated },
  { "faster", faster_activated },
  { "slower", slower_activated },
  { "open", open_activated },
  { "save", save_activated },
  { "export-image", export_image_activated },
  { "export-events", export_events_activated },
  { "open-preset", open_preset_activated, "s" },
};

static void
enable (SluiceWindow *self,
        const char   *name,
        gboolean      enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static void
update_actions (SluiceWindow *self)
{
  gboolean valid = sluice_config_panel_get_valid (self->config_panel);

  enable (self, "run", !self->running && valid);
  enable (self, "request-stop", self->running);
  enable (self, "cancel", self->running);
  enable (self, "reset", !self->running);
  enable (self, "step", self->running);
  enable (self, "save", valid);
  enable (self, "export-image", !self->running && has_events (self));
  enable (self, "export-events", !self->running && has_events (self));
}

/* ---- the presets menu -------------------------------------------------- */

static char *
preset_label (const char *name)
{
  g_autofree char *path = sluice_presets_find (name);
  g_autoptr(SluiceScenario) scenario = path ? sluice_scenario_new_from_file (path, NULL, NULL) : NULL;
  const char *title = scenario ? sluice_scenario_get_title (scenario) : NULL;

  return g_strdup (title ? title : name);
}

static void
fill_presets_menu (SluiceWindow *self)
{
  g_auto(GStrv) names = sluice_presets_list_names ();

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *label = preset_label (names[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, "win.open-preset", "s", names[i]);
      g_menu_append_item (self->presets_menu, item);
    }
}

/* ---- speed ------------------------------------------------------------- */

static char *
format_speed (GtkScale *scale,
              double    value,
              gpointer  user_data)
{
  return g_strdup_printf (_("%.1f×"), pow (10.0, value));
}

static void
on_speed_changed (SluiceWindow *self)
{
  if (self->clock != NULL)
    sluice_clock_set_speed (self->clock, get_speed (self));
}

static void
add_shortcut (GtkShortcutController *controller,
              const char            *accel,
              const char            *action)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string (accel),
                                                          gtk_named_action_new (action)));
}

/* Space, → and +/− only when no entry or button takes them first. */
static void
add_run_shortcuts (SluiceWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  add_shortcut (shortcuts, "space", "win.pause");
  add_shortcut (shortcuts, "Right", "win.step");
  add_shortcut (shortcuts, "plus|equal|KP_Add", "win.faster");
  add_shortcut (shortcuts, "minus|KP_Subtract", "win.slower");
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_window_dispose (GObject *object)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);
  g_clear_object (&self->results);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_WINDOW);

  G_OBJECT_CLASS (sluice_window_parent_class)->dispose (object);
}

static void
sluice_window_finalize (GObject *object)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    g_free (self->counter_texts[c]);
  g_free (self->file);
  g_free (self->screenshot);
  g_free (self->export_image);
  g_free (self->export_events);

  G_OBJECT_CLASS (sluice_window_parent_class)->finalize (object);
}

static void
sluice_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

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
sluice_window_class_init (SluiceWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_window_dispose;
  object_class->finalize = sluice_window_finalize;
  object_class->get_property = sluice_window_get_property;

  /**
   * SluiceWindow:running:
   *
   * Whether a run is going on.
   */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SLUICE_TYPE_CONFIG_PANEL);
  g_type_ensure (SLUICE_TYPE_CHART_VIEW);
  g_type_ensure (SLUICE_TYPE_TIMELINE_VIEW);
  g_type_ensure (SLUICE_TYPE_EVENT_LOG);
  g_type_ensure (SLUICE_TYPE_ERROR_GROUP_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, speed_scale);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, presets_menu);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, config_panel);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, counters_box);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, chart_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, event_log);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, results_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, error_group_view);
  gtk_widget_class_bind_template_callback (widget_class, on_speed_changed);
  gtk_widget_class_bind_template_callback (widget_class, update_actions);
}

static void
setup_results (SluiceWindow *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;
  g_autoptr(GtkBuilderScope) scope = gtk_builder_cscope_new ();
  g_autoptr(GtkListItemFactory) factory = NULL;
  static const char *item_ui =
    "<interface><template class=\"GtkListItem\"><property name=\"child\">"
    "<object class=\"GtkLabel\"><property name=\"xalign\">0</property>"
    "<binding name=\"label\"><lookup name=\"string\" type=\"GtkStringObject\">"
    "<lookup name=\"item\">GtkListItem</lookup></lookup></binding>"
    "<style><class name=\"numeric\"/></style>"
    "</object></property></template></interface>";
  g_autoptr(GBytes) bytes = g_bytes_new_static (item_ui, strlen (item_ui));

  self->results = gtk_string_list_new (NULL);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->results)));
  factory = gtk_builder_list_item_factory_new_from_bytes (scope, bytes);
  gtk_list_view_set_factory (self->results_view, factory);
  gtk_list_view_set_model (self->results_view, GTK_SELECTION_MODEL (selection));
}

static void
sluice_window_init (SluiceWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);
  add_run_shortcuts (self);

  gtk_scale_set_format_value_func (self->speed_scale, format_speed, NULL, NULL);
  create_counters (self);
  setup_results (self);
  fill_presets_menu (self);

  clear_run (self);
  update_actions (self);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_window_new:
 * @app: the application
 *
 * Returns: (transfer full): a new window showing the default scenario
 */
SluiceWindow *
sluice_window_new (SluiceApplication *app)
{
  return g_object_new (SLUICE_TYPE_WINDOW, "application", app, NULL);
}

/**
 * sluice_window_get_running:
 * @self: a #SluiceWindow
 *
 * Returns: whether a run is going on
 */
gboolean
sluice_window_get_running (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  return self->running;
}

/* A screenshot runs on the virtual clock, unless the scenario needs real time. */
static gboolean
prefer_virtual_clock (SluiceWindow *self)
{
  sluice_config_panel_set_field_text (self->config_panel, "run", "clock", "virtual");
  if (sluice_config_panel_get_scenario (self->config_panel) != NULL)
    return TRUE;

  sluice_config_panel_set_field_text (self->config_panel, "run", "clock", "real");
  return FALSE;
}

/* Starts once the window is shown: the first frames of a new window can
 * hold the main loop long enough to matter on a scaled clock. */
static gboolean
on_screenshot_start_tick (GtkWidget     *widget,
                          GdkFrameClock *frame_clock,
                          gpointer       user_data)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);

  if (!gtk_widget_get_mapped (widget) || ++self->screenshot_frames < SCREENSHOT_FRAMES)
    return G_SOURCE_CONTINUE;

  self->screenshot_frames = 0;
  start_run (self);
  if (!self->running && self->screenshot_func != NULL)
    self->screenshot_func (self, FALSE, self->screenshot_data);

  return G_SOURCE_REMOVE;
}

/**
 * sluice_window_run_and_export:
 * @self: a #SluiceWindow
 * @screenshot: (nullable): the PNG file of the window to write
 * @image: (nullable): the image of the chart and lanes to write (PNG, SVG
 *   or PDF by its extension)
 * @events: (nullable): the events to write (CSV or JSON Lines by its
 *   extension)
 * @func: called when every file is written or one failed
 * @user_data: data for @func
 *
 * Once the window is shown, runs the scenario on the virtual clock (or on
 * the scaled clock when it needs real time), then writes the exports and
 * the screenshot of the window as it is drawn after the run.
 */
void
sluice_window_run_and_export (SluiceWindow         *self,
                              const char           *screenshot,
                              const char           *image,
                              const char           *events,
                              SluiceScreenshotFunc  func,
                              gpointer              user_data)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (func != NULL);

  g_free (self->screenshot);
  g_free (self->export_image);
  g_free (self->export_events);
  self->screenshot = g_strdup (screenshot);
  self->export_image = g_strdup (image);
  self->export_events = g_strdup (events);
  self->screenshot_func = func;
  self->screenshot_data = user_data;
  self->screenshot_frames = 0;
  self->batch_ok = FALSE;

  prefer_virtual_clock (self);
  gtk_widget_add_tick_callback (GTK_WIDGET (self), on_screenshot_start_tick, NULL, NULL);
}

/**
 * sluice_window_run_and_screenshot:
 * @self: a #SluiceWindow
 * @path: the PNG file to write
 * @func: called when the PNG is written or failed
 * @user_data: data for @func
 *
 * Once the window is shown, runs the scenario on the virtual clock (or on
 * the scaled clock when it needs real time), then saves the window as it is
 * drawn after the run.
 */
void
sluice_window_run_and_screenshot (SluiceWindow         *self,
                                  const char           *path,
                                  SluiceScreenshotFunc  func,
                                  gpointer              user_data)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  sluice_window_run_and_export (self, path, NULL, NULL, func, user_data);
}

/**
 * sluice_window_get_config_panel:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceConfigPanel
 */
GtkWidget *
sluice_window_get_config_panel (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->config_panel);
}

/**
 * sluice_window_get_timeline_view:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceTimelineView
 */
GtkWidget *
sluice_window_get_timeline_view (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->timeline_view);
}

/**
 * sluice_window_get_event_log:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceEventLog
 */
GtkWidget *
sluice_window_get_event_log (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->event_log);
}

/**
 * sluice_window_get_error_group:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceErrorGroupView
 */
GtkWidget *
sluice_window_get_error_group (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->error_group_view);
}

/**
 * sluice_window_get_counter:
 * @self: a #SluiceWindow
 * @counter: a #SluiceCounter
 *
 * Returns: the text the counter shows
 */
const char *
sluice_window_get_counter (SluiceWindow  *self,
                           SluiceCounter  counter)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (counter < SLUICE_N_COUNTERS, NULL);
  return gtk_label_get_text (self->counter_labels[counter]);
}

/**
 * sluice_window_get_banner:
 * @self: a #SluiceWindow
 *
 * Returns: the one line that says what is going on or how the run ended
 */
const char *
sluice_window_get_banner (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->banner_label);
}

/**
 * sluice_window_get_n_results:
 * @self: a #SluiceWindow
 *
 * Returns: how many results the run handed back so far
 */
guint
sluice_window_get_n_results (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->results));
}
