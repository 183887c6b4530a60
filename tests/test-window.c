/* test-window.c: the playground window under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "sluice-error-group-view.h"
#include "sluice-event-log.h"
#include "sluice-jobs-view.h"
#include "sluice-timeline.h"
#include "sluice-timeline-view.h"
#include "sluice-window.h"

#define RUN_TIMEOUT_S 60

static gboolean
on_timeout (gpointer user_data)
{
  g_error ("the run did not end within %d s", RUN_TIMEOUT_S);
  return G_SOURCE_REMOVE;
}

static SluiceWindow *
open_window (const char *preset)
{
  SluiceWindow *window = g_object_ref (sluice_window_new (NULL));

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sluice_window_open_preset (window, preset, NULL));
  return window;
}

static void
close_window (SluiceWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

/* Until the run ends, or the test fails. */
static void
wait_for_end (SluiceWindow *window)
{
  guint timeout_id = g_timeout_add_seconds (RUN_TIMEOUT_S, on_timeout, NULL);

  while (sluice_window_get_running (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

/* Runs the loaded scenario on the virtual clock through win.run. */
static void
run_virtual (SluiceWindow *window)
{
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));

  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  /* At once, not played on the paced clock (check-playback.sh plays). */
  sluice_run_controller_set_instant (sluice_window_get_run_controller (window), TRUE);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (sluice_window_get_running (window));
  wait_for_end (window);
}

static void
assert_counter (SluiceWindow  *window,
                SluiceCounter  counter,
                const char    *expected)
{
  g_assert_cmpstr (sluice_window_get_counter (window, counter), ==, expected);
}

static void
test_window_retries (void)
{
  SluiceWindow *window = open_window ("retries");
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  SluiceErrorGroupView *errors = SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window));
  guint n_events;

  run_virtual (window);

  /* As in tests/scenarios: 8 pulled, 6 ok, 3 retries, 3 timeouts, 2 failed. */
  assert_counter (window, SLUICE_COUNTER_PULLED, "8");
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "6");
  assert_counter (window, SLUICE_COUNTER_RETRIES, "3");
  assert_counter (window, SLUICE_COUNTER_TIMEOUTS, "3");
  assert_counter (window, SLUICE_COUNTER_FAILED, "2");
  assert_counter (window, SLUICE_COUNTER_QUEUED, "0");
  assert_counter (window, SLUICE_COUNTER_IN_FLIGHT, "0");
  assert_counter (window, SLUICE_COUNTER_ELAPSED, "1.00 s");

  g_assert_cmpuint (sluice_timeline_view_get_n_lanes (SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window))), ==, 3);
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 6);
  /* Numbered in the order they came, though the list takes a frame's at once. */
  for (guint i = 0; i < 6; i++)
    {
      GListModel *results = sluice_run_controller_get_results (sluice_window_get_run_controller (window));
      g_autofree char *number = g_strdup_printf ("%u.  ", i + 1);

      g_assert_true (g_str_has_prefix (gtk_string_list_get_string (GTK_STRING_LIST (results), i), number));
    }

  /* Every event is a row; the kind filter keeps the 11 handler calls. */
  n_events = sluice_event_log_get_n_events (log);
  g_assert_cmpuint (n_events, >, 50);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, n_events);
  sluice_event_log_set_filter (log, NULL, SLUICE_EVENT_ATTEMPT_START);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, 11);
  sluice_event_log_set_filter (log, "timeouterror", -1);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), >, 0);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), <, n_events);
  sluice_event_log_set_filter (log, NULL, -1);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, n_events);

  /* The group and its two errors, ValueError and TimeoutError. */
  g_assert_cmpuint (sluice_error_group_view_get_n_errors (errors), ==, 2);
  g_assert_cmpuint (sluice_error_group_view_get_n_rows (errors), ==, 3);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "ExceptionGroup"));

  close_window (window);
}

static void
test_window_first_look (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceErrorGroupView *errors = SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window));

  run_virtual (window);

  assert_counter (window, SLUICE_COUNTER_PULLED, "3");
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");
  assert_counter (window, SLUICE_COUNTER_FAILED, "0");
  g_assert_cmpuint (sluice_timeline_view_get_n_lanes (SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window))), ==, 3);
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 3);
  g_assert_cmpuint (sluice_error_group_view_get_n_rows (errors), ==, 0);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "all 3 items succeeded"));

  /* Reset clears the views; a second run gives the same counts. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "0");
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 0);
  run_virtual (window);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");

  close_window (window);
}

static void
test_window_invalid_field (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GActionGroup *actions = G_ACTION_GROUP (window);
  const char *error;

  g_assert_true (sluice_config_panel_get_valid (panel));
  g_assert_null (sluice_config_panel_get_field_error (panel, "pool", "workers"));

  /* Out of range: shown under the field, not clamped, and Run is off. */
  sluice_config_panel_set_field_text (panel, "pool", "workers", "0");
  error = sluice_config_panel_get_field_error (panel, "pool", "workers");
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "out of range"));
  g_assert_false (sluice_config_panel_get_valid (panel));
  g_assert_false (g_action_group_get_action_enabled (actions, "run"));

  sluice_config_panel_set_field_text (panel, "pool", "workers", "many");
  error = sluice_config_panel_get_field_error (panel, "pool", "workers");
  g_assert_nonnull (strstr (error, "not an integer"));

  sluice_config_panel_set_field_text (panel, "pool", "workers", "3");
  g_assert_null (sluice_config_panel_get_field_error (panel, "pool", "workers"));
  g_assert_true (g_action_group_get_action_enabled (actions, "run"));

  /* A bad behaviour names its own field. */
  sluice_config_panel_set_field_text (panel, "handler", "default", "explode");
  g_assert_nonnull (sluice_config_panel_get_field_error (panel, "handler", "default"));
  sluice_config_panel_set_field_text (panel, "handler", "default", "ok 0.1");

  /* Per-item lines: one without "=", then an item the source lacks. */
  sluice_config_panel_set_field_text (panel, "handler", "item.*", "0 = ok 0.3\nhang");
  error = sluice_config_panel_get_field_error (panel, "handler", "item.*");
  g_assert_nonnull (strstr (error, "Line 2"));
  sluice_config_panel_set_field_text (panel, "handler", "item.*", "7 = hang");
  error = sluice_config_panel_get_field_error (panel, "handler", "item.*");
  g_assert_nonnull (strstr (error, "no item 7"));
  sluice_config_panel_set_field_text (panel, "handler", "item.*", "");
  g_assert_true (sluice_config_panel_get_valid (panel));

  close_window (window);
}

/* Saving what the panel shows keeps the preset's translated title and
 * description, whatever language the window is in. */
static void
test_window_save_keeps_translations (void)
{
  SluiceWindow *window = open_window ("retries");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceScenario *scenario;
  g_autofree char *data = NULL;

  sluice_config_panel_set_field_text (panel, "pool", "workers", "4");
  scenario = sluice_config_panel_get_scenario (panel);
  g_assert_nonnull (scenario);
  data = sluice_scenario_to_data (scenario, NULL);

  g_assert_nonnull (strstr (data, "\ntitle[de]="));
  g_assert_nonnull (strstr (data, "\ndescription[id]="));
  g_assert_nonnull (strstr (data, "\nworkers=4"));

  close_window (window);
}

/* ---- exports ----------------------------------------------------------- */

static char *
read_export (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;
  gsize length = 0;

  g_assert_true (g_file_get_contents (path, &text, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 0);
  return text;
}

/* Counts the records of RFC 4180 text: CRLFs outside quotes. */
static guint
count_csv_records (const char *text)
{
  gboolean quoted = FALSE;
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        quoted = !quoted;
      else if (!quoted && p[0] == '\r' && p[1] == '\n')
        n++;
    }

  g_assert_false (quoted);
  return n;
}

static void
assert_png (const char *path,
            int         width,
            int         height)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkPixbuf) pixbuf = gdk_pixbuf_new_from_file (path, &error);

  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, width);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, height);
}

static void
assert_jsonl (const char *text,
              guint       n_events)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  guint n_lines = g_strv_length (lines);

  /* One object per line, and a final newline. */
  g_assert_cmpuint (n_lines, ==, n_events + 1);
  g_assert_cmpstr (lines[n_lines - 1], ==, "");
  for (guint i = 0; i + 1 < n_lines; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) node = json_from_string (lines[i], &error);

      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
    }
}

static void
test_window_export (void)
{
  SluiceWindow *window = open_window ("retries");
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  GActionGroup *actions = G_ACTION_GROUP (window);
  g_autofree char *dir = g_dir_make_tmp ("sluice-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "run.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "run.svg", NULL);
  g_autofree char *csv = g_build_filename (dir, "run.csv", NULL);
  g_autofree char *jsonl = g_build_filename (dir, "run.jsonl", NULL);
  g_autofree char *svg_text = NULL, *csv_text = NULL, *jsonl_text = NULL;
  g_autoptr(GError) error = NULL;
  guint n_events;

  /* Nothing to export before a run. */
  g_assert_false (g_action_group_get_action_enabled (actions, "export-image"));
  g_assert_false (g_action_group_get_action_enabled (actions, "export-events"));
  g_assert_false (sluice_window_export_events (window, csv, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  run_virtual (window);
  g_assert_true (g_action_group_get_action_enabled (actions, "export-image"));
  g_assert_true (g_action_group_get_action_enabled (actions, "export-events"));
  n_events = sluice_event_log_get_n_events (log);

  g_assert_true (sluice_window_export_image (window, png, 640, 360, &error));
  g_assert_no_error (error);
  assert_png (png, 640, 360);

  g_assert_true (sluice_window_export_image (window, svg, 640, 360, &error));
  g_assert_no_error (error);
  svg_text = read_export (svg);
  g_assert_nonnull (strstr (svg_text, "<svg"));

  g_assert_true (sluice_window_export_events (window, csv, &error));
  g_assert_no_error (error);
  csv_text = read_export (csv);
  g_assert_true (g_str_has_prefix (csv_text, "time,kind,item,attempt,worker,round,outcome,"));
  g_assert_cmpuint (count_csv_records (csv_text), ==, n_events + 1);

  g_assert_true (sluice_window_export_events (window, jsonl, &error));
  g_assert_no_error (error);
  jsonl_text = read_export (jsonl);
  assert_jsonl (jsonl_text, n_events);

  /* An unknown extension is an error, not a crash. */
  g_assert_false (sluice_window_export_events (window, "run.txt", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);

  /* A reset forgets the run: nothing to export again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_false (g_action_group_get_action_enabled (actions, "export-image"));

  g_unlink (png);
  g_unlink (svg);
  g_unlink (csv);
  g_unlink (jsonl);
  g_rmdir (dir);
  close_window (window);
}

/* ---- zoom and pan ------------------------------------------------------ */

static void
test_window_zoom (void)
{
  SluiceWindow *window = open_window ("retries");
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  SluiceViewport *viewport = sluice_timeline_view_get_viewport (lanes);
  GActionGroup *actions = G_ACTION_GROUP (window);
  gint64 start, end, t0, t1, pointer_time;
  double width, x;

  /* Both views show the same span. */
  g_assert_true (viewport == sluice_window_get_viewport (window));

  run_virtual (window);
  start = sluice_viewport_get_start (viewport);
  end = sluice_viewport_get_end (viewport);
  g_assert_cmpint (end, >, start);
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, start);
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, end);
  g_assert_false (g_action_group_get_action_enabled (actions, "zoom-fit"));

  /* Ctrl+scroll over the lanes: the span shrinks around the pointer's time. */
  width = MAX (gtk_widget_get_width (GTK_WIDGET (lanes)), 400);
  x = width * 0.7;
  pointer_time = sluice_viewport_x_to_time (viewport, width, x);
  sluice_viewport_zoom_at (viewport, width, x, 0.5);
  t0 = sluice_viewport_get_t0 (viewport);
  t1 = sluice_viewport_get_t1 (viewport);
  g_assert_cmpint (t1 - t0, <, end - start);
  g_assert_cmpint (llabs ((t1 - t0) - (end - start) / 2), <=, 2);
  g_assert_cmpint (t0, >, start);
  g_assert_cmpint (t1, <, end);
  g_assert_cmpint (t0, <=, pointer_time);
  g_assert_cmpint (pointer_time, <=, t1);
  g_assert_cmpint (llabs (sluice_viewport_x_to_time (viewport, width, x) - pointer_time), <=, 2);
  g_assert_false (sluice_viewport_get_fit (viewport));
  g_assert_true (g_action_group_get_action_enabled (actions, "zoom-fit"));

  /* Panning moves the span without changing its width, inside the run. */
  sluice_viewport_pan (viewport, -(end - start));
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, start);
  g_assert_cmpint (sluice_viewport_get_t1 (viewport) - start, ==, t1 - t0);

  /* Fit (Ctrl+0) restores the whole run. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-fit", NULL));
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, start);
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, end);

  /* Ctrl+plus zooms around the middle; zooming out past the run fits. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-in", NULL));
  g_assert_cmpint (sluice_viewport_get_t1 (viewport) - sluice_viewport_get_t0 (viewport), <, end - start);
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), <=, start + (end - start) / 2);
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), >=, start + (end - start) / 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-out", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.zoom-out", NULL));
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, end);

  /* A new run starts fitted, whatever the last one showed. */
  sluice_viewport_zoom (viewport, start, 0.25);
  run_virtual (window);
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, sluice_viewport_get_start (viewport));
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, sluice_viewport_get_end (viewport));

  close_window (window);
}

/* ---- the clock controls ---------------------------------------------------- */

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Speed steps through 0.1×–10×; pause and step only work during a run,
 * the pause button says what a press does next, and a run that ends
 * leaves the clock unpaused for the next one. */
static void
test_window_clock_controls (void)
{
  SluiceWindow *window = open_window ("mix");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *widget = find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  SluiceClockControls *controls = SLUICE_CLOCK_CONTROLS (widget);
  GtkWidget *pause = find_widget (widget, GTK_TYPE_TOGGLE_BUTTON);
  guint timeout_id;

  g_assert_nonnull (widget);
  g_assert_nonnull (pause);
  g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (controls), 1.0, 1e-9);
  g_assert_false (gtk_widget_is_sensitive (pause));

  g_assert_true (gtk_widget_activate_action (widget, "clock.faster", NULL));
  g_assert_true (gtk_widget_activate_action (widget, "clock.faster", NULL));
  g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (controls), 5.0, 1e-9);
  for (guint i = 0; i < 8; i++)
    g_assert_true (gtk_widget_activate_action (widget, "clock.slower", NULL));
  g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (controls), 0.1, 1e-9);

  /* A run on the real clock, at 0.1×: nine seconds, time to pause it. */
  sluice_config_panel_set_field_text (panel, "run", "clock", "real");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (sluice_window_get_running (window));
  g_assert_true (gtk_widget_is_sensitive (pause));
  g_assert_false (sluice_clock_controls_get_paused (controls));

  g_assert_true (gtk_widget_activate_action (widget, "clock.pause", NULL));
  g_assert_true (sluice_clock_controls_get_paused (controls));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (pause)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (pause), ==, "Resume the clock (Space)");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel", NULL));
  timeout_id = g_timeout_add_seconds (RUN_TIMEOUT_S, on_timeout, NULL);
  while (sluice_window_get_running (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);

  g_assert_false (sluice_clock_controls_get_paused (controls));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (pause)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (pause), ==, "Pause the clock (Space)");
  g_assert_false (gtk_widget_is_sensitive (pause));

  close_window (window);
}

/* ---- the configuration's columns ----------------------------------------- */

/* The fields of every section start at one x, however long the labels of
 * one section are (the handler's are short, the pool's long, and in German
 * longer still). */
static void
test_window_config_columns (void)
{
  static const char * const keys[][2] = {
    { "pool", "workers" }, { "pool", "metrics" }, { "pool", "keep-going" },
    { "source", "count" }, { "source", "interval" },
    { "handler", "default" }, { "handler", "mix" }, { "handler", "seed" },
    { "run", "stop-after" }, { "run", "clock" },
  };
  SluiceWindow *window = open_window ("mix");
  GtkWidget *panel = sluice_window_get_config_panel (window);
  double first_x = 0.;

  /* Until the window is laid out. */
  while (gtk_widget_get_width (sluice_config_panel_get_field_widget (SLUICE_CONFIG_PANEL (panel),
                                                                      "handler", "default")) == 0)
    g_main_context_iteration (NULL, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkWidget *field = sluice_config_panel_get_field_widget (SLUICE_CONFIG_PANEL (panel), keys[i][0], keys[i][1]);
      graphene_rect_t bounds;

      g_assert_true (gtk_widget_compute_bounds (field, panel, &bounds));
      g_test_message ("%s.%s starts at x = %.0f", keys[i][0], keys[i][1], bounds.origin.x);
      if (i == 0)
        first_x = bounds.origin.x;
      g_assert_cmpfloat (fabs (bounds.origin.x - first_x), <, 0.5);
    }

  close_window (window);
}

/* ---- accessibility ----------------------------------------------------- */

static gboolean
is_control (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget) || GTK_IS_EDITABLE (widget) ||
         GTK_IS_SCALE (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SWITCH (widget) ||
         GTK_IS_TEXT_VIEW (widget) || GTK_IS_CHECK_BUTTON (widget) || GTK_IS_DRAWING_AREA (widget);
}

/* Every control, not the parts of one (the text of an entry, the arrow of a
 * drop-down): those are named through it. */
static void
collect_controls (GtkWidget *widget,
                  GPtrArray *controls)
{
  if (!gtk_widget_get_visible (widget))
    return;

  if (is_control (widget))
    {
      g_ptr_array_add (controls, widget);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_controls (child, controls);
}

/* A stream preset, and a service one with its jobs tab and Close. */
static void
test_window_accessible_labels (gconstpointer data)
{
  SluiceWindow *window = open_window (data);
  g_autoptr(GPtrArray) controls = g_ptr_array_new ();
  guint n_buttons = 0, n_editables = 0;

  collect_controls (GTK_WIDGET (window), controls);

  for (guint i = 0; i < controls->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (controls, i);
      GtkAccessible *accessible = GTK_ACCESSIBLE (widget);
      gboolean named = gtk_test_accessible_has_property (accessible, GTK_ACCESSIBLE_PROPERTY_LABEL) ||
                       gtk_test_accessible_has_relation (accessible, GTK_ACCESSIBLE_RELATION_LABELLED_BY);

      if (!named)
        g_test_message ("no accessible name: %s (%s)", G_OBJECT_TYPE_NAME (widget),
                        gtk_widget_get_tooltip_text (widget) ? gtk_widget_get_tooltip_text (widget) : "no tooltip");
      g_assert_true (named);

      n_buttons += GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget);
      n_editables += GTK_IS_EDITABLE (widget);
    }

  /* The header bar, the zoom buttons and the configuration fields. */
  g_assert_cmpuint (n_buttons, >=, 10);
  g_assert_cmpuint (n_editables, >=, 10);

  close_window (window);
}

/* ---- the stop button --------------------------------------------------- */

/* The header bar has one button that stops a run. */
static GtkWidget *
find_stop_button (SluiceWindow *window)
{
  g_autoptr(GPtrArray) controls = g_ptr_array_new ();
  GtkWidget *found = NULL;

  collect_controls (gtk_window_get_titlebar (GTK_WINDOW (window)), controls);
  for (guint i = 0; i < controls->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (controls, i);
      const char *action = GTK_IS_ACTIONABLE (widget) ? gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)) : NULL;

      if (g_strcmp0 (action, "win.request-stop") == 0 || g_strcmp0 (action, "win.close-service") == 0)
        {
          g_assert_null (found);
          found = widget;
        }
    }

  g_assert_nonnull (found);
  return found;
}

static void
assert_stop_button (SluiceWindow *window,
                    const char   *action,
                    const char   *label,
                    const char   *tooltip)
{
  GtkWidget *button = find_stop_button (window);

  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (button)), ==, action);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, label);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), tooltip));
}

/* Request Stop in stream mode, Close in submit mode; a run keeps the
 * button of its own mode until it ends, and both actions stay. */
static void
test_window_stop_button (void)
{
  SluiceWindow *window = open_window ("retries");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *controls = find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  GActionGroup *actions = G_ACTION_GROUP (window);

  assert_stop_button (window, "win.request-stop", "Request _Stop", "drain");
  g_assert_false (gtk_widget_is_sensitive (find_stop_button (window)));

  g_assert_true (sluice_window_open_preset (window, "service-observed", NULL));
  assert_stop_button (window, "win.close-service", "C_lose", "Ctrl+L");
  g_assert_false (gtk_widget_is_sensitive (find_stop_button (window)));

  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  g_assert_true (gtk_widget_is_sensitive (find_stop_button (window)));
  g_assert_true (g_action_group_get_action_enabled (actions, "close-service"));
  g_assert_true (g_action_group_get_action_enabled (actions, "request-stop"));

  /* The panel's mode is the next run's: the service keeps its Close. */
  sluice_config_panel_set_field_text (panel, "run", "mode", "stream");
  assert_stop_button (window, "win.close-service", "C_lose", "Ctrl+L");

  g_signal_emit_by_name (find_stop_button (window), "clicked");
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "Closing"));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  wait_for_end (window);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "The service closed"));

  /* A stream run again: Request Stop, which drains it. */
  g_assert_true (sluice_window_open_preset (window, "first-look", NULL));
  assert_stop_button (window, "win.request-stop", "Request _Stop", "drain");
  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  g_assert_true (gtk_widget_is_sensitive (find_stop_button (window)));
  g_assert_false (g_action_group_get_action_enabled (actions, "close-service"));
  g_signal_emit_by_name (find_stop_button (window), "clicked");
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "Stop requested"));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  wait_for_end (window);

  close_window (window);
}

/* The last session's file is read at start-up: an endless file or a FIFO
 * nobody writes must be refused at once, not read or waited for. */
static void
test_window_refuses_unreadable_files_at_once (void)
{
  SluiceWindow *window = open_window ("first-look");
  g_autofree char *dir = g_dir_make_tmp ("sluice-window-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "last.pool", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (sluice_window_load_file (window, "/dev/zero", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/dev/zero"));
  g_clear_error (&error);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_false (sluice_window_load_file (window, fifo, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "last.pool"));
  g_unlink (fifo);
  g_rmdir (dir);

  close_window (window);
}

/* `sluice --preset NAME --screenshot FILE` of a preset that does not load
 * exits non-zero with the file's error and saves nothing. */
static void
test_app_screenshot_of_broken_preset_fails (void)
{
  const char *app = g_getenv ("SLUICE_APP");
  g_autofree char *presets = g_test_build_filename (G_TEST_DIST, "presets-broken", NULL);
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "sluice-broken-preset.png", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;

  if (app == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }

  g_unlink (png);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_PRESETS_DIR", presets, TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, app, "--preset", "broken",
                                         "--screenshot", png, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err);

  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 2);
  g_assert_nonnull (strstr (err, "broken.pool"));
  g_assert_nonnull (strstr (err, "workers"));
  g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
}

/* ---- the retry policy ---------------------------------------------------- */

static const char * const retry_keys[] = {
  "backoff", "base", "cap", "jitter", "seed", "deadline", "budget", "budget-ratio",
};

/* The Retries section has a field for every [retry] key, each named for
 * assistive technologies by its label and explained by a tooltip; the
 * drop-downs offer the file's keywords, shown translated. */
static void
test_window_retry_fields (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceScenario *scenario;
  g_autofree char *data = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (retry_keys); i++)
    {
      GtkWidget *field = sluice_config_panel_get_field_widget (panel, "retry", retry_keys[i]);

      g_assert_nonnull (field);
      g_assert_true (gtk_widget_get_visible (field));
      g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (field),
                                                       GTK_ACCESSIBLE_RELATION_LABELLED_BY));
      g_assert_nonnull (gtk_widget_get_tooltip_text (field));
      g_assert_cmpuint (strlen (gtk_widget_get_tooltip_text (field)), >, 40);
      g_assert_null (sluice_config_panel_get_field_error (panel, "retry", retry_keys[i]));
    }
  g_assert_true (GTK_IS_DROP_DOWN (sluice_config_panel_get_field_widget (panel, "retry", "backoff")));
  g_assert_true (GTK_IS_DROP_DOWN (sluice_config_panel_get_field_widget (panel, "retry", "jitter")));
  g_assert_true (GTK_IS_EDITABLE (sluice_config_panel_get_field_widget (panel, "retry", "deadline")));

  /* At their defaults the drop-downs write nothing: the capstone's
   * scenario stays as it was. */
  scenario = sluice_config_panel_get_scenario (panel);
  g_assert_nonnull (scenario);
  g_assert_cmpint (sluice_scenario_get_backoff (scenario), ==, SLUICE_BACKOFF_NONE);
  data = sluice_scenario_to_data (scenario, NULL);
  g_assert_null (strstr (data, "jitter="));

  sluice_config_panel_set_field_text (panel, "retry", "backoff", "exponential");
  sluice_config_panel_set_field_text (panel, "retry", "jitter", "none");
  sluice_config_panel_set_field_text (panel, "retry", "base", "0.25");
  sluice_config_panel_set_field_text (panel, "retry", "deadline", "2");
  sluice_config_panel_set_field_text (panel, "retry", "budget", "5");
  scenario = sluice_config_panel_get_scenario (panel);
  g_assert_nonnull (scenario);
  g_assert_cmpint (sluice_scenario_get_backoff (scenario), ==, SLUICE_BACKOFF_EXPONENTIAL);
  g_assert_cmpfloat_with_epsilon (sluice_scenario_get_backoff_base (scenario), 0.25, 1e-9);
  g_assert_cmpfloat_with_epsilon (sluice_scenario_get_item_deadline (scenario), 2., 1e-9);
  g_assert_cmpfloat_with_epsilon (sluice_scenario_get_retry_budget (scenario), 5., 1e-9);

  /* A scenario without [retry] puts the drop-downs back at their defaults. */
  g_assert_true (sluice_window_open_preset (window, "first-look", NULL));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (sluice_config_panel_get_field_widget (panel, "retry", "backoff"))), ==, 0);
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (sluice_config_panel_get_field_widget (panel, "retry", "jitter"))), ==, 0);
  g_assert_cmpint (sluice_scenario_get_backoff (sluice_config_panel_get_scenario (panel)), ==, SLUICE_BACKOFF_NONE);

  close_window (window);
}

/* Types @text into the [retry] field @key, which must then show an error. */
static const char *
set_bad_retry_field (SluiceConfigPanel *panel,
                     const char        *key,
                     const char        *text)
{
  const char *error;

  sluice_config_panel_set_field_text (panel, "retry", key, text);
  error = sluice_config_panel_get_field_error (panel, "retry", key);
  g_assert_nonnull (error);
  g_test_message ("%s=%s: %s", key, text, error);
  g_assert_false (sluice_config_panel_get_valid (panel));
  return error;
}

/* A [retry] value the loader refuses is shown under its own field, the
 * run is off, and a good value clears it. */
static void
test_window_invalid_retry_field (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GActionGroup *actions = G_ACTION_GROUP (window);

  /* A base delay without a backoff. */
  g_assert_nonnull (strstr (set_bad_retry_field (panel, "base", "0.5"), "backoff"));
  g_assert_false (g_action_group_get_action_enabled (actions, "run"));
  /* With one, it is fine. */
  sluice_config_panel_set_field_text (panel, "retry", "backoff", "exponential");
  g_assert_null (sluice_config_panel_get_field_error (panel, "retry", "base"));
  g_assert_true (g_action_group_get_action_enabled (actions, "run"));

  /* Not a number; out of range. */
  set_bad_retry_field (panel, "deadline", "soon");
  sluice_config_panel_set_field_text (panel, "retry", "deadline", "");
  set_bad_retry_field (panel, "budget", "-1");
  sluice_config_panel_set_field_text (panel, "retry", "budget", "");

  /* A refill without a budget. */
  set_bad_retry_field (panel, "budget-ratio", "0.2");
  sluice_config_panel_set_field_text (panel, "retry", "budget", "4");
  g_assert_null (sluice_config_panel_get_field_error (panel, "retry", "budget-ratio"));

  /* A seed that is not a 32-bit number. */
  set_bad_retry_field (panel, "seed", "4294967296");
  sluice_config_panel_set_field_text (panel, "retry", "seed", "7");
  g_assert_true (sluice_config_panel_get_valid (panel));

  close_window (window);
}

/* Every item fails once with a retryable ConnectionError, then waits
 * 0.2 s (exponential backoff, no jitter) before its second attempt: the
 * event log shows each wait, the lanes a bracket with its tooltip. */
static void
test_window_backoff_run (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  g_autoptr(SluiceTimeline) model = NULL;
  g_autofree char *tooltip = NULL;

  sluice_config_panel_set_field_text (panel, "pool", "max-retries", "1");
  sluice_config_panel_set_field_text (panel, "pool", "retryable", "ConnectionError");
  sluice_config_panel_set_field_text (panel, "handler", "item.*", "");
  sluice_config_panel_set_field_text (panel, "handler", "default", "fail 1 ConnectionError 0.05");
  sluice_config_panel_set_field_text (panel, "retry", "backoff", "exponential");
  sluice_config_panel_set_field_text (panel, "retry", "base", "0.2");
  sluice_config_panel_set_field_text (panel, "retry", "jitter", "none");
  run_virtual (window);

  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");
  assert_counter (window, SLUICE_COUNTER_RETRIES, "3");
  /* No deadline and no budget: nothing can be skipped or shed. */
  g_assert_false (sluice_window_get_counter_shown (window, SLUICE_COUNTER_RETRIES_SKIPPED));
  g_assert_false (sluice_window_get_counter_shown (window, SLUICE_COUNTER_SHED));

  sluice_event_log_set_filter (log, NULL, SLUICE_EVENT_BACKOFF);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, 3);
  sluice_event_log_set_filter (log, "waits 0.200 s before attempt 2", -1);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, 3);
  sluice_event_log_set_filter (log, NULL, -1);

  model = g_object_ref (sluice_timeline_view_get_model (lanes));
  g_assert_cmpuint (sluice_timeline_get_n_marks (model), ==, 3);
  g_assert_cmpint (sluice_timeline_get_mark (model, 0)->kind, ==, SLUICE_TIMELINE_MARK_BACKOFF);
  tooltip = sluice_timeline_view_describe_mark (lanes, 0);
  g_assert_nonnull (strstr (tooltip, "Backoff 0.200 s before attempt 2 of item "));

  close_window (window);
}

/* An item deadline of 0.6 s on one worker: item 1's attempt runs into it
 * and its retry is skipped, item 2 is shed from the queue. Both are in
 * the error group, with TimeoutError('deadline exceeded') and a note. */
static void
test_window_deadline_run (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  SluiceErrorGroupView *errors = SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window));
  g_autofree char *skipped = NULL, *shed = NULL;

  sluice_config_panel_set_field_text (panel, "pool", "workers", "1");
  sluice_config_panel_set_field_text (panel, "pool", "item-timeout", "5");
  sluice_config_panel_set_field_text (panel, "pool", "max-retries", "1");
  sluice_config_panel_set_field_text (panel, "pool", "retryable", "TimeoutError");
  sluice_config_panel_set_field_text (panel, "pool", "keep-going", "true");
  sluice_config_panel_set_field_text (panel, "handler", "item.*", "");
  sluice_config_panel_set_field_text (panel, "handler", "default", "ok 0.5");
  sluice_config_panel_set_field_text (panel, "retry", "deadline", "0.6");
  run_virtual (window);

  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "1");
  assert_counter (window, SLUICE_COUNTER_FAILED, "2");
  g_assert_true (sluice_window_get_counter_shown (window, SLUICE_COUNTER_RETRIES_SKIPPED));
  g_assert_true (sluice_window_get_counter_shown (window, SLUICE_COUNTER_SHED));
  assert_counter (window, SLUICE_COUNTER_RETRIES_SKIPPED, "1");
  assert_counter (window, SLUICE_COUNTER_SHED, "1");

  sluice_event_log_set_filter (log, "retry skipped: deadline", -1);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, 1);
  sluice_event_log_set_filter (log, "shed: its deadline passed in the queue", SLUICE_EVENT_DEADLINE_EXCEEDED);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, 1);
  sluice_event_log_set_filter (log, NULL, -1);

  g_assert_cmpuint (sluice_error_group_view_get_n_errors (errors), ==, 2);
  skipped = sluice_error_group_view_dup_note (errors, 0);
  shed = sluice_error_group_view_dup_note (errors, 1);
  g_assert_nonnull (strstr (skipped, "retry skipped: deadline"));
  g_assert_nonnull (strstr (shed, "shed"));

  close_window (window);
}

/* ---- submit mode --------------------------------------------------------- */

/* Two workers, a queue of 3 and four jobs of 0.5 s; job 1 fails with a
 * ValueError in its own slot, the caller gives up on job 3 right after
 * its submission, while it is queued: it is skipped. */
static void
set_service_fields (SluiceConfigPanel *panel)
{
  sluice_config_panel_set_field_text (panel, "run", "mode", "submit");
  sluice_config_panel_set_field_text (panel, "pool", "workers", "2");
  sluice_config_panel_set_field_text (panel, "pool", "queue-size", "3");
  sluice_config_panel_set_field_text (panel, "pool", "item-timeout", "5");
  sluice_config_panel_set_field_text (panel, "pool", "max-retries", "0");
  sluice_config_panel_set_field_text (panel, "pool", "shutdown-timeout", "5");
  sluice_config_panel_set_field_text (panel, "pool", "keep-going", "true");
  sluice_config_panel_set_field_text (panel, "source", "count", "4");
  sluice_config_panel_set_field_text (panel, "source", "interval", "0");
  sluice_config_panel_set_field_text (panel, "handler", "default", "ok 0.5");
  sluice_config_panel_set_field_text (panel, "handler", "item.*", "1 = fail-always ValueError 0.2");
  sluice_config_panel_set_field_text (panel, "run", "stop-after", "");
}

static gboolean
has_bar_of (SluiceTimeline *model,
            gint64          item)
{
  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    if (sluice_timeline_get_bar (model, i)->item == item)
      return TRUE;
  return FALSE;
}

static void
assert_job (SluiceJobsView   *jobs,
            gint64            index,
            SluiceJobsColumn  column,
            const char       *expected)
{
  g_autofree char *text = sluice_jobs_view_dup_text (jobs, index, column);

  g_assert_nonnull (text);
  if (strstr (text, expected) == NULL)
    g_error ("job %" G_GINT64_FORMAT ": “%s” does not contain “%s”", index, text, expected);
}

static void
test_window_submit_run (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceJobsView *jobs = SLUICE_JOBS_VIEW (sluice_window_get_jobs_view (window));
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  GActionGroup *actions = G_ACTION_GROUP (window);

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (jobs)));
  set_service_fields (panel);
  sluice_config_panel_set_field_text (panel, "submit", "give-up.*", "3 = 0.01");
  sluice_config_panel_set_field_text (panel, "submit", "snapshot-at", "0.1;3");
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (jobs)));
  g_assert_false (g_action_group_get_action_enabled (actions, "submit-job"));
  run_virtual (window);

  g_assert_cmpuint (sluice_jobs_view_get_n_jobs (jobs), ==, 4);
  /* The table lists them all (it takes a frame's new jobs at once). */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (
                      GTK_COLUMN_VIEW (find_widget (GTK_WIDGET (jobs), GTK_TYPE_COLUMN_VIEW))))), ==, 4);
  g_assert_cmpint (sluice_jobs_view_get_state (jobs, 0), ==, SLUICE_JOB_SUCCEEDED);
  g_assert_cmpint (sluice_jobs_view_get_state (jobs, 1), ==, SLUICE_JOB_FAILED);
  g_assert_cmpint (sluice_jobs_view_get_state (jobs, 2), ==, SLUICE_JOB_SUCCEEDED);
  g_assert_cmpint (sluice_jobs_view_get_state (jobs, 3), ==, SLUICE_JOB_CANCELLED);
  assert_job (jobs, 1, SLUICE_JOBS_COLUMN_OUTCOME, "ValueError");
  assert_job (jobs, 1, SLUICE_JOBS_COLUMN_ATTEMPTS, "1");
  assert_job (jobs, 2, SLUICE_JOBS_COLUMN_OUTCOME, "4");
  assert_job (jobs, 3, SLUICE_JOBS_COLUMN_STATE, "cancelled");
  assert_job (jobs, 3, SLUICE_JOBS_COLUMN_ATTEMPTS, "0");
  assert_job (jobs, 3, SLUICE_JOBS_COLUMN_OUTCOME, "never ran");
  /* The skipped job never had a lane bar; the others did. */
  g_assert_false (has_bar_of (sluice_timeline_view_get_model (lanes), 3));
  g_assert_true (has_bar_of (sluice_timeline_view_get_model (lanes), 2));
  /* A job's failure stays in its job: the service closed gracefully. */
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "4 jobs, 2 succeeded, 1 failed, 1 cancelled"));
  assert_counter (window, SLUICE_COUNTER_BUSY, "0 of 2");
  assert_counter (window, SLUICE_COUNTER_QUEUED, "0");

  close_window (window);
}

/* With the virtual clock paused at 0 s, a job submitted by hand and a
 * give-up on a queued job, through the window's actions. */
static void
test_window_submit_by_hand (void)
{
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceJobsView *jobs = SLUICE_JOBS_VIEW (sluice_window_get_jobs_view (window));
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  GtkWidget *controls = find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  GActionGroup *actions = G_ACTION_GROUP (window);
  guint timeout_id;

  set_service_fields (panel);
  sluice_config_panel_set_field_text (panel, "submit", "close-after-seconds", "1");
  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  /* At once, not played on the paced clock (check-playback.sh plays). */
  sluice_run_controller_set_instant (sluice_window_get_run_controller (window), TRUE);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  timeout_id = g_timeout_add_seconds (RUN_TIMEOUT_S, on_timeout, NULL);
  while (sluice_jobs_view_get_n_jobs (jobs) < 4)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_action_group_get_action_enabled (actions, "submit-job"));
  g_assert_true (g_action_group_get_action_enabled (actions, "close-service"));

  /* A behaviour that does not parse is refused under the entries. */
  sluice_jobs_view_set_submission (jobs, "100", "succeed eventually");
  g_assert_true (gtk_widget_has_css_class (sluice_jobs_view_get_behaviour_entry (jobs), "error"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.submit-job", NULL));
  sluice_jobs_view_set_submission (jobs, "100", "ok 0.1");
  g_assert_false (gtk_widget_has_css_class (sluice_jobs_view_get_behaviour_entry (jobs), "error"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.submit-job", NULL));

  /* Job 3 is queued behind two running ones: give up on it. */
  while (sluice_jobs_view_get_n_jobs (jobs) < 5)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (sluice_jobs_view_get_state (jobs, 3), ==, SLUICE_JOB_QUEUED);
  g_assert_false (g_action_group_get_action_enabled (actions, "give-up"));
  sluice_jobs_view_select_job (jobs, 3);
  g_assert_cmpint (sluice_jobs_view_get_selected_job (jobs), ==, 3);
  g_assert_true (g_action_group_get_action_enabled (actions, "give-up"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.give-up", NULL));
  while (sluice_jobs_view_get_state (jobs, 3) != SLUICE_JOB_CANCELLED)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  while (sluice_window_get_running (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);

  g_assert_cmpuint (sluice_jobs_view_get_n_jobs (jobs), ==, 5);
  assert_job (jobs, 4, SLUICE_JOBS_COLUMN_ITEM, "100");
  assert_job (jobs, 4, SLUICE_JOBS_COLUMN_STATE, "succeeded");
  assert_job (jobs, 4, SLUICE_JOBS_COLUMN_OUTCOME, "100");
  assert_job (jobs, 3, SLUICE_JOBS_COLUMN_OUTCOME, "never ran");
  g_assert_false (has_bar_of (sluice_timeline_view_get_model (lanes), 3));
  g_assert_false (g_action_group_get_action_enabled (actions, "submit-job"));

  close_window (window);
}

/* The new fields: labelled, shown by mode, judged by the loader. */
static void
test_window_submit_fields (void)
{
  static const struct { const char *group, *key; } keys[] = {
    { "run", "mode" }, { "pool", "fatal" }, { "pool", "shutdown-timeout" },
    { "submit", "snapshot-at" }, { "submit", "give-up-after" }, { "submit", "give-up.*" },
    { "submit", "close-after-seconds" },
  };
  SluiceWindow *window = open_window ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *give_up = sluice_config_panel_get_field_widget (panel, "submit", "give-up-after");
  GtkWidget *close_after = sluice_config_panel_get_field_widget (panel, "run", "close-after");
  SluiceJobsView *jobs = SLUICE_JOBS_VIEW (sluice_window_get_jobs_view (window));

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      GtkWidget *widget = sluice_config_panel_get_field_widget (panel, keys[i].group, keys[i].key);

      g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (widget),
                                                       GTK_ACCESSIBLE_RELATION_LABELLED_BY));
      g_assert_nonnull (gtk_widget_get_tooltip_text (widget));
    }

  /* Stream mode: the [submit] keys but snapshot-at step aside. */
  g_assert_false (gtk_widget_is_visible (give_up));
  g_assert_true (gtk_widget_is_visible (close_after));
  g_assert_true (gtk_widget_is_visible (sluice_config_panel_get_field_widget (panel, "submit", "snapshot-at")));
  sluice_config_panel_set_field_text (panel, "run", "mode", "submit");
  sluice_config_panel_set_field_text (panel, "pool", "keep-going", "true");
  g_assert_true (sluice_config_panel_get_valid (panel));
  g_assert_true (gtk_widget_is_visible (give_up));
  /* The jobs tab's entries are labelled too. */
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (sluice_jobs_view_get_item_entry (jobs)),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (sluice_jobs_view_get_behaviour_entry (jobs)),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_false (gtk_widget_is_visible (close_after));

  /* The loader's messages go under their fields. */
  sluice_config_panel_set_field_text (panel, "pool", "shutdown-timeout", "-1");
  g_assert_false (sluice_config_panel_get_valid (panel));
  g_assert_nonnull (sluice_config_panel_get_field_error (panel, "pool", "shutdown-timeout"));
  sluice_config_panel_set_field_text (panel, "pool", "shutdown-timeout", "2");
  sluice_config_panel_set_field_text (panel, "submit", "give-up-after", "soon");
  g_assert_nonnull (sluice_config_panel_get_field_error (panel, "submit", "give-up-after"));
  sluice_config_panel_set_field_text (panel, "submit", "give-up-after", "0.5");
  sluice_config_panel_set_field_text (panel, "submit", "give-up.*", "3 0.01");
  g_assert_nonnull (strstr (sluice_config_panel_get_field_error (panel, "submit", "give-up.*"), "job index"));
  sluice_config_panel_set_field_text (panel, "submit", "give-up.*", "3 = 0.01");
  sluice_config_panel_set_field_text (panel, "pool", "fatal", "DiskFullError");
  g_assert_true (sluice_config_panel_get_valid (panel));

  /* Back in stream mode, a [submit] key with a text stays, marked. */
  sluice_config_panel_set_field_text (panel, "run", "mode", "stream");
  g_assert_false (sluice_config_panel_get_valid (panel));
  g_assert_true (gtk_widget_is_visible (give_up));

  close_window (window);
}

int
main (int   argc,
      char *argv[])
{
  /* The test AT context keeps the accessible properties for checking. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/retries", test_window_retries);
  g_test_add_func ("/window/first-look", test_window_first_look);
  g_test_add_func ("/window/invalid-field", test_window_invalid_field);
  g_test_add_func ("/window/save-keeps-translations", test_window_save_keeps_translations);
  g_test_add_func ("/window/export", test_window_export);
  g_test_add_func ("/window/zoom", test_window_zoom);
  g_test_add_func ("/window/clock-controls", test_window_clock_controls);
  g_test_add_func ("/window/config-columns", test_window_config_columns);
  g_test_add_data_func ("/window/accessible-labels", "retries", test_window_accessible_labels);
  g_test_add_data_func ("/window/accessible-labels/service", "service-observed", test_window_accessible_labels);
  g_test_add_func ("/window/stop-button", test_window_stop_button);
  g_test_add_func ("/window/retry/fields", test_window_retry_fields);
  g_test_add_func ("/window/retry/invalid-field", test_window_invalid_retry_field);
  g_test_add_func ("/window/retry/backoff-run", test_window_backoff_run);
  g_test_add_func ("/window/retry/deadline-run", test_window_deadline_run);
  g_test_add_func ("/window/submit/run", test_window_submit_run);
  g_test_add_func ("/window/submit/by-hand", test_window_submit_by_hand);
  g_test_add_func ("/window/submit/fields", test_window_submit_fields);
  g_test_add_func ("/window/refuses-unreadable-files-at-once", test_window_refuses_unreadable_files_at_once);
  g_test_add_func ("/app/screenshot-of-broken-preset-fails", test_app_screenshot_of_broken_preset_fails);

  return g_test_run ();
}
