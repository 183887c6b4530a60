/* test-window.c: the playground window under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <epoxy/gl.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <libintl.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sluice-chart-view.h"
#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "sluice-error-group-view.h"
#include "sluice-event-item.h"
#include "sluice-event-log.h"
#include "sluice-explain-view.h"
#include "sluice-jobs-view.h"
#include "sluice-presets.h"
#include "sluice-renderer.h"
#include "sluice-render-timeline.h"
#include "sluice-scrubber.h"
#include "sluice-report-view.h"
#include "sluice-timeline.h"
#include "sluice-timeline-view.h"
#include "sluice-window.h"
#include "window-fixture.h"
#include "test-helpers.h"
#include "sluice-time-view.h"

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
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  SluiceErrorGroupView *errors = SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window));
  guint n_events;

  window_fixture_run_virtual (window);

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
      GListModel *results = sluice_window_get_results (window);
      g_autofree char *number = g_strdup_printf ("%u.  ", i + 1);
      g_autoptr(GtkStringObject) line = g_list_model_get_item (results, i);

      g_assert_true (g_str_has_prefix (gtk_string_object_get_string (line), number));
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

  window_fixture_close (window);
}

static void
test_window_first_look (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceErrorGroupView *errors = SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window));

  window_fixture_run_virtual (window);

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
  window_fixture_run_virtual (window);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");

  window_fixture_close (window);
}

static void
test_window_invalid_field (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  const char *error;

  g_assert_true (sluice_config_panel_get_valid (panel));
  g_assert_null (sluice_config_panel_get_field_error (panel, "pool", "workers"));

  /* Out of range: shown under the field, not clamped, and Run is off. */
  sluice_config_panel_set_field_text (panel, "pool", "workers", "0");
  error = sluice_config_panel_get_field_error (panel, "pool", "workers");
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "out of range"));
  g_assert_false (sluice_config_panel_get_valid (panel));
  g_assert_false (window_fixture_action_enabled (window, "win.run"));

  sluice_config_panel_set_field_text (panel, "pool", "workers", "many");
  error = sluice_config_panel_get_field_error (panel, "pool", "workers");
  g_assert_nonnull (strstr (error, "not an integer"));

  sluice_config_panel_set_field_text (panel, "pool", "workers", "3");
  g_assert_null (sluice_config_panel_get_field_error (panel, "pool", "workers"));
  g_assert_true (window_fixture_action_enabled (window, "win.run"));

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

  window_fixture_close (window);
}

/* Saving what the panel shows keeps the preset's translated title and
 * description, whatever language the window is in. */
static void
test_window_save_keeps_translations (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
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

  window_fixture_close (window);
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
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  g_autofree char *dir = g_dir_make_tmp ("sluice-export-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "run.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "run.svg", NULL);
  g_autofree char *csv = g_build_filename (dir, "run.csv", NULL);
  g_autofree char *jsonl = g_build_filename (dir, "run.jsonl", NULL);
  g_autofree char *svg_text = NULL, *csv_text = NULL, *jsonl_text = NULL;
  g_autoptr(GError) error = NULL;
  guint n_events;

  /* Nothing to export before a run. */
  g_assert_false (window_fixture_action_enabled (window, "win.export-image"));
  g_assert_false (window_fixture_action_enabled (window, "win.export-events"));
  g_assert_false (sluice_window_export_events (window, csv, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  window_fixture_run_virtual (window);
  g_assert_true (window_fixture_action_enabled (window, "win.export-image"));
  g_assert_true (window_fixture_action_enabled (window, "win.export-events"));
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
  g_assert_false (window_fixture_action_enabled (window, "win.export-image"));

  g_unlink (png);
  g_unlink (svg);
  g_unlink (csv);
  g_unlink (jsonl);
  g_rmdir (dir);
  window_fixture_close (window);
}

/* ---- zoom and pan ------------------------------------------------------ */

static void
test_window_zoom (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  SluiceViewport *viewport = sluice_time_view_get_viewport (SLUICE_TIME_VIEW (lanes));
  gint64 start, end, t0, t1, pointer_time;
  double width, x;

  /* Both views show the same span. */
  g_assert_true (viewport == sluice_window_get_viewport (window));

  window_fixture_run_virtual (window);
  start = sluice_viewport_get_start (viewport);
  end = sluice_viewport_get_end (viewport);
  g_assert_cmpint (end, >, start);
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, start);
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, end);
  g_assert_false (window_fixture_action_enabled (window, "win.zoom-fit"));

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
  g_assert_true (window_fixture_action_enabled (window, "win.zoom-fit"));

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
  window_fixture_run_virtual (window);
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, sluice_viewport_get_start (viewport));
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, sluice_viewport_get_end (viewport));

  window_fixture_close (window);
}

/* ---- the clock controls ---------------------------------------------------- */

/* Speed steps through 0.1×–10×; pause and step only work during a run,
 * the pause button says what a press does next, and a run that ends
 * leaves the clock unpaused for the next one. */
static void
test_window_clock_controls (void)
{
  SluiceWindow *window = window_fixture_open ("mix");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *widget = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  SluiceClockControls *controls = SLUICE_CLOCK_CONTROLS (widget);
  GtkWidget *pause = window_fixture_find_widget (widget, GTK_TYPE_TOGGLE_BUTTON);
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
  timeout_id = window_fixture_add_timeout ();
  while (sluice_window_get_running (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);

  g_assert_false (sluice_clock_controls_get_paused (controls));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (pause)));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (pause), ==, "Pause the clock (Space)");
  g_assert_false (gtk_widget_is_sensitive (pause));

  window_fixture_close (window);
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
  SluiceWindow *window = window_fixture_open ("mix");
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

  window_fixture_close (window);
}

/* ---- accessibility ----------------------------------------------------- */

static gboolean
is_control (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget) || GTK_IS_EDITABLE (widget) ||
         GTK_IS_SCALE (widget) || GTK_IS_DROP_DOWN (widget) || GTK_IS_SWITCH (widget) ||
         GTK_IS_TEXT_VIEW (widget) || GTK_IS_CHECK_BUTTON (widget) || SLUICE_IS_TIME_VIEW (widget);
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
  SluiceWindow *window = window_fixture_open (data);
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

  window_fixture_close (window);
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
  /* Named by what it shows ("Request Stop"), not by the raw label read
   * before it ("Request _Stop Request Stop"). */
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (button), tooltip));
}

/* Request Stop in stream mode, Close in submit mode; a run keeps the
 * button of its own mode until it ends, and both actions stay. */
static void
test_window_stop_button (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *controls = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);

  assert_stop_button (window, "win.request-stop", "Request _Stop", "drain");
  g_assert_false (gtk_widget_is_sensitive (find_stop_button (window)));

  g_assert_true (sluice_window_open_preset (window, "service-observed", NULL));
  assert_stop_button (window, "win.close-service", "C_lose", "Ctrl+L");
  g_assert_false (gtk_widget_is_sensitive (find_stop_button (window)));

  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  g_assert_true (gtk_widget_is_sensitive (find_stop_button (window)));
  g_assert_true (window_fixture_action_enabled (window, "win.close-service"));
  g_assert_true (window_fixture_action_enabled (window, "win.request-stop"));

  /* The panel's mode is the next run's: the service keeps its Close. */
  sluice_config_panel_set_field_text (panel, "run", "mode", "stream");
  assert_stop_button (window, "win.close-service", "C_lose", "Ctrl+L");

  g_signal_emit_by_name (find_stop_button (window), "clicked");
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "Closing"));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  window_fixture_wait_for_end (window);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "The service closed"));

  /* A stream run again: Request Stop, which drains it. */
  g_assert_true (sluice_window_open_preset (window, "first-look", NULL));
  assert_stop_button (window, "win.request-stop", "Request _Stop", "drain");
  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  g_assert_true (gtk_widget_is_sensitive (find_stop_button (window)));
  g_assert_false (window_fixture_action_enabled (window, "win.close-service"));
  g_signal_emit_by_name (find_stop_button (window), "clicked");
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "Stop requested"));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  window_fixture_wait_for_end (window);

  window_fixture_close (window);
}

/* The last session's file is read at start-up: an endless file or a FIFO
 * nobody writes must be refused at once, not read or waited for. */
static void
test_window_refuses_unreadable_files_at_once (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
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

  window_fixture_close (window);
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
  SluiceWindow *window = window_fixture_open ("first-look");
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

  window_fixture_close (window);
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
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));

  /* A base delay without a backoff. */
  g_assert_nonnull (strstr (set_bad_retry_field (panel, "base", "0.5"), "backoff"));
  g_assert_false (window_fixture_action_enabled (window, "win.run"));
  /* With one, it is fine. */
  sluice_config_panel_set_field_text (panel, "retry", "backoff", "exponential");
  g_assert_null (sluice_config_panel_get_field_error (panel, "retry", "base"));
  g_assert_true (window_fixture_action_enabled (window, "win.run"));

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

  window_fixture_close (window);
}

/* Every item fails once with a retryable ConnectionError, then waits
 * 0.2 s (exponential backoff, no jitter) before its second attempt: the
 * event log shows each wait, the lanes a bracket with its tooltip. */
static void
test_window_backoff_run (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
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
  window_fixture_run_virtual (window);

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

  window_fixture_close (window);
}

/* An item deadline of 0.6 s on one worker: item 1's attempt runs into it
 * and its retry is skipped, item 2 is shed from the queue. Both are in
 * the error group, with TimeoutError('deadline exceeded') and a note. */
static void
test_window_deadline_run (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
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
  window_fixture_run_virtual (window);

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

  window_fixture_close (window);
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
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceJobsView *jobs = SLUICE_JOBS_VIEW (sluice_window_get_jobs_view (window));
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (jobs)));
  set_service_fields (panel);
  sluice_config_panel_set_field_text (panel, "submit", "give-up.*", "3 = 0.01");
  sluice_config_panel_set_field_text (panel, "submit", "snapshot-at", "0.1;3");
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (jobs)));
  g_assert_false (window_fixture_action_enabled (window, "win.submit-job"));
  window_fixture_run_virtual (window);

  g_assert_cmpuint (sluice_jobs_view_get_n_jobs (jobs), ==, 4);
  /* The table lists them all (it takes a frame's new jobs at once). */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (
                      GTK_COLUMN_VIEW (window_fixture_find_widget (GTK_WIDGET (jobs), GTK_TYPE_COLUMN_VIEW))))), ==, 4);
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

  window_fixture_close (window);
}

/* With the virtual clock paused at 0 s, a job submitted by hand and a
 * give-up on a queued job, through the window's actions. */
static void
test_window_submit_by_hand (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceJobsView *jobs = SLUICE_JOBS_VIEW (sluice_window_get_jobs_view (window));
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  GtkWidget *controls = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  guint timeout_id;

  set_service_fields (panel);
  sluice_config_panel_set_field_text (panel, "submit", "close-after-seconds", "1");
  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  /* At once, not played on the paced clock (check-playback.sh plays). */
  sluice_run_controller_set_instant (sluice_window_get_run_controller (window), TRUE);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
  timeout_id = window_fixture_add_timeout ();
  while (sluice_jobs_view_get_n_jobs (jobs) < 4)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (window_fixture_action_enabled (window, "win.submit-job"));
  g_assert_true (window_fixture_action_enabled (window, "win.close-service"));

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
  g_assert_false (window_fixture_action_enabled (window, "win.give-up"));
  sluice_jobs_view_select_job (jobs, 3);
  g_assert_cmpint (sluice_jobs_view_get_selected_job (jobs), ==, 3);
  g_assert_true (window_fixture_action_enabled (window, "win.give-up"));
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
  g_assert_false (window_fixture_action_enabled (window, "win.submit-job"));

  window_fixture_close (window);
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
  SluiceWindow *window = window_fixture_open ("first-look");
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
  /* The source has 3 items: job 3 does not exist (docs/submit-and-shutdown.md). */
  sluice_config_panel_set_field_text (panel, "submit", "give-up.*", "3 = 0.01");
  g_assert_false (sluice_config_panel_get_valid (panel));
  g_assert_nonnull (strstr (sluice_config_panel_get_field_error (panel, "submit", "give-up.*"), "no job 3"));
  sluice_config_panel_set_field_text (panel, "submit", "give-up.*", "2 = 0.01");
  sluice_config_panel_set_field_text (panel, "pool", "fatal", "DiskFullError");
  g_assert_true (sluice_config_panel_get_valid (panel));

  /* Back in stream mode, a [submit] key with a text stays, marked. */
  sluice_config_panel_set_field_text (panel, "run", "mode", "stream");
  g_assert_false (sluice_config_panel_get_valid (panel));
  g_assert_true (gtk_widget_is_visible (give_up));

  window_fixture_close (window);
}

/* ---- opening a file: File → Open and `sluice FILE.pool` ----------------- */

#define TWO_ITEMS "[scenario]\ntitle=Two items\n[pool]\nworkers=1\nqueue-size=1\nitem-timeout=1\n" \
                  "[source]\ncount=2\n[handler]\ndefault=ok 0.25\n[run]\nclock=virtual\n"

static char *
write_pool (const char *name,
            const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* What File → Open and `sluice FILE.pool` do: the file's scenario is in the
 * panel and the title; a bad one stays out, its error in the banner. */
static void
test_window_open_file (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  g_autofree char *good = write_pool ("sluice-open-two.pool", TWO_ITEMS);
  g_autofree char *bad = write_pool ("sluice-open-bad.pool", "[pool]\nworkers=0\n");
  g_autoptr(GError) error = NULL;
  SluiceScenario *scenario;

  g_assert_true (sluice_window_open_file (window, good, &error));
  g_assert_no_error (error);
  scenario = sluice_config_panel_get_scenario (panel);
  g_assert_nonnull (scenario);
  g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, 1);
  g_assert_cmpuint (sluice_scenario_get_n_items (scenario), ==, 2);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Two items");

  g_assert_false (sluice_window_open_file (window, bad, &error));
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_MISSING_KEY);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "sluice-open-bad.pool"));
  /* The scenario before stays. */
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Two items");

  g_unlink (good);
  g_unlink (bad);
  window_fixture_close (window);
}

/* Under a German LC_NUMERIC a field takes “0,5” as well as “0.5”, and
 * the scenario (what Save writes) has 0.5. */
static void
test_window_decimal_comma (void)
{
  g_autofree char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  SluiceWindow *window = NULL;
  SluiceConfigPanel *panel;
  SluiceScenario *scenario;
  g_autofree char *data = NULL;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("the de_DE.UTF-8 locale is not installed (scripts/setup-deps generates it)");
      return;
    }

  window = window_fixture_open ("first-look");
  panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  sluice_config_panel_set_field_text (panel, "pool", "item-timeout", "0,5");
  sluice_config_panel_set_field_text (panel, "handler", "default", "ok 0,25");
  scenario = sluice_config_panel_get_scenario (panel);
  g_assert_nonnull (scenario);
  g_assert_cmpfloat (sluice_scenario_get_item_timeout (scenario), ==, 0.5);
  g_assert_cmpfloat (sluice_scenario_get_default_behaviour (scenario)->delay, ==, 0.25);
  data = sluice_scenario_to_data (scenario, NULL);
  g_assert_nonnull (strstr (data, "item-timeout=0.5\n"));
  g_assert_nonnull (strstr (data, "default=ok 0.25\n"));

  sluice_config_panel_set_field_text (panel, "pool", "item-timeout", "0.75");
  g_assert_cmpfloat (sluice_scenario_get_item_timeout (sluice_config_panel_get_scenario (panel)), ==, 0.75);

  setlocale (LC_NUMERIC, old);
  window_fixture_close (window);
}

/* `sluice FILE.pool` (G_APPLICATION_HANDLES_OPEN) runs that file, not a
 * preset: its events are the file's; with --preset too, or a file that
 * does not load, it exits 2 and saves nothing. */
static void
test_app_opens_file_argument (void)
{
  g_autofree char *good = write_pool ("sluice-app-two.pool", TWO_ITEMS);
  g_autofree char *bad = write_pool ("sluice-app-bad.pool", "[pool]\nworkers=0\n");
  g_autofree char *events = g_build_filename (g_get_tmp_dir (), "sluice-app-two.jsonl", NULL);
  g_autofree char *err = NULL, *err_both = NULL, *err_bad = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  const char *last;

  if (g_getenv ("SLUICE_APP") == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }

  g_unlink (events);
  g_assert_cmpint (window_fixture_run_app ((const char *[]) { good, "--export-events", events, NULL }, &err), ==, 0);
  g_file_get_contents (events, &text, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (text);
  last = strrchr (text, '\n');
  g_assert_nonnull (last);
  /* Two items of 0.25 s on one worker: the file's, not first-look's. */
  g_assert_nonnull (strstr (last, "\"run-end\""));
  g_assert_nonnull (strstr (last, "\"pulled\":2,"));
  g_assert_nonnull (strstr (last, "\"time_us\":500000,"));
  g_unlink (events);

  g_assert_cmpint (window_fixture_run_app ((const char *[]) { "--preset", "retries", good, "--export-events", events, NULL }, &err_both), ==, 2);
  g_assert_nonnull (strstr (err_both, "--preset"));
  g_assert_cmpint (window_fixture_run_app ((const char *[]) { bad, "--export-events", events, NULL }, &err_bad), ==, 2);
  g_assert_nonnull (strstr (err_bad, "sluice-app-bad.pool"));
  g_assert_false (g_file_test (events, G_FILE_TEST_EXISTS));

  g_unlink (good);
  g_unlink (bad);
}

/* ---- deterministic playback (issue 12) --------------------------------- */

typedef struct {
  GtkWidget *controls;
  guint      pauses;
  guint      steps;
} Fiddler;

/* Every few milliseconds, at random: pause, step while paused, resume. */
static gboolean
fiddle_with_the_clock (gpointer user_data)
{
  Fiddler *f = user_data;
  gboolean paused = sluice_clock_controls_get_paused (SLUICE_CLOCK_CONTROLS (f->controls));

  switch (g_test_rand_int_range (0, 3))
    {
    case 0:
      gtk_widget_activate_action (f->controls, "clock.pause", NULL);
      f->pauses += !paused;
      break;
    case 1:
      if (paused && gtk_widget_activate_action (f->controls, "clock.step", NULL))
        f->steps++;
      break;
    default:
      break;
    }
  return G_SOURCE_CONTINUE;
}

static char *
virtual_events_of (const char *preset)
{
  const char *run = g_getenv ("SLUICE_RUN");
  g_autofree char *path = g_build_filename (g_getenv ("SLUICE_PRESETS_DIR"), preset, NULL);
  g_autofree char *file = g_strconcat (path, ".pool", NULL);
  g_autofree char *events = g_build_filename (g_get_tmp_dir (), "sluice-playback-want.jsonl", NULL);
  const char *argv[] = { run, file, "--clock", "virtual", "--events", events, NULL };
  g_autoptr(GError) error = NULL;
  char *text = NULL;
  gint status;

  g_assert_nonnull (run);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (events, &text, NULL, NULL));
  g_unlink (events);
  return text;
}

/* Played on the paced clock, paused, stepped and resumed at random
 * through the clock controls' actions: the events are the virtual
 * clock's, byte for byte. */
static void
test_window_playback_with_pauses_and_steps (gconstpointer data)
{
  const char *preset = data;
  SluiceWindow *window = window_fixture_open (preset);
  GtkWidget *controls = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  Fiddler fiddler = { controls, 0, 0 };
  g_autofree char *got_path = g_build_filename (g_get_tmp_dir (), "sluice-playback-got.jsonl", NULL);
  g_autofree char *want = virtual_events_of (preset);
  g_autofree char *got = NULL;
  g_autoptr(GError) error = NULL;
  guint fiddle_id;

  /* The long one at 10×, the short one at 1×: about a second each. */
  if (g_str_equal (preset, "stubborn"))
    {
      for (guint i = 0; i < 3; i++)
        g_assert_true (gtk_widget_activate_action (controls, "clock.faster", NULL));
      g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (SLUICE_CLOCK_CONTROLS (controls)), 10.0, 1e-9);
    }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  /* Wall-clock ticks on purpose: the pauses and steps land wherever the
   * run happens to be, which is what must not matter. */
  fiddle_id = g_timeout_add (7, fiddle_with_the_clock, &fiddler);
  while (sluice_window_get_running (window) && fiddler.pauses < 200)
    {
      g_main_context_iteration (NULL, TRUE);
      /* Never stuck paused: resume after a while. */
      if (sluice_clock_controls_get_paused (SLUICE_CLOCK_CONTROLS (controls)) && g_test_rand_int_range (0, 8) == 0)
        gtk_widget_activate_action (controls, "clock.pause", NULL);
    }
  g_source_remove (fiddle_id);
  if (sluice_clock_controls_get_paused (SLUICE_CLOCK_CONTROLS (controls)))
    gtk_widget_activate_action (controls, "clock.pause", NULL);
  window_fixture_wait_for_end (window);

  g_assert_true (sluice_window_export_events (window, got_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (got_path, &got, NULL, NULL));
  g_unlink (got_path);
  g_test_message ("%s: %u pauses, %u steps", preset, fiddler.pauses, fiddler.steps);
  g_assert_cmpstr (got, ==, want);
  window_fixture_close (window);
}

/* Every preset is in one group of the menu, in teaching order, first-look
 * first. */
static void
test_presets_are_grouped_in_teaching_order (void)
{
  g_auto(GStrv) names = sluice_presets_list_names ();
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuModel) first_section = NULL;
  g_autoptr(GVariant) first = NULL;
  guint n_items = 0;

  g_assert_cmpuint (g_strv_length (names), >, 20);
  for (guint i = 0; names[i] != NULL; i++)
    if (sluice_presets_get_group (names[i]) < 0)
      g_error ("the preset %s is in no group of the presets menu", names[i]);

  sluice_presets_fill_menu (menu, "win.open-preset");
  /* Five groups, no "More". */
  g_assert_cmpint (g_menu_model_get_n_items (G_MENU_MODEL (menu)), ==, 5);
  for (gint s = 0; s < 5; s++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (G_MENU_MODEL (menu), s, G_MENU_LINK_SECTION);

      n_items += (guint) g_menu_model_get_n_items (section);
    }
  g_assert_cmpuint (n_items, ==, g_strv_length (names));

  first_section = g_menu_model_get_item_link (G_MENU_MODEL (menu), 0, G_MENU_LINK_SECTION);
  first = g_menu_model_get_item_attribute_value (first_section, 0, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
  g_assert_cmpstr (g_variant_get_string (first, NULL), ==, "first-look");
}

/* ---- keys that always work, small screens (issue 12) ---------------------- */

/* The window's controller of the run's keys. */
static GtkShortcutController *
find_run_keys (SluiceWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (g_strcmp0 (gtk_event_controller_get_name (controller), "sluice-run-keys") == 0)
        return GTK_SHORTCUT_CONTROLLER (controller);   /* the window keeps it */
    }
  return NULL;
}

static gboolean
trigger_has_key (GtkShortcutTrigger *trigger,
                 guint               keyval,
                 GdkModifierType     modifiers)
{
  if (GTK_IS_ALTERNATIVE_TRIGGER (trigger))
    return trigger_has_key (gtk_alternative_trigger_get_first (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval, modifiers) ||
           trigger_has_key (gtk_alternative_trigger_get_second (GTK_ALTERNATIVE_TRIGGER (trigger)), keyval, modifiers);
  return GTK_IS_KEYVAL_TRIGGER (trigger) &&
         gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval &&
         gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers;
}

/* A key press as the window's controller handles it (GTK 4.8 tests cannot
 * synthesize key events): each shortcut whose trigger has the key, in
 * order, until one's action takes it (GtkShortcutController does the
 * same: Space pauses the clock during a run, replays after it). Returns
 * whether the window took the key; if not, GTK hands it on to the focus
 * widget. */
static gboolean
press_key (SluiceWindow    *window,
           guint            keyval,
           GdkModifierType  modifiers)
{
  GtkShortcutController *keys = find_run_keys (window);
  GListModel *shortcuts = G_LIST_MODEL (keys);
  gboolean found = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (shortcuts); i++)
    {
      g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (shortcuts, i);

      if (!trigger_has_key (gtk_shortcut_get_trigger (shortcut), keyval, modifiers))
        continue;
      found = TRUE;
      if (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                        gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (keys)),
                                        gtk_shortcut_get_arguments (shortcut)))
        return TRUE;
    }

  if (!found)
    g_error ("no shortcut for %s", gtk_accelerator_name (keyval, modifiers));
  return FALSE;
}

/* The header bar's button for @action. */
static GtkWidget *
find_header_button (SluiceWindow *window,
                    const char   *action)
{
  g_autoptr(GPtrArray) controls = g_ptr_array_new ();

  collect_controls (gtk_window_get_titlebar (GTK_WINDOW (window)), controls);
  for (guint i = 0; i < controls->len; i++)
    {
      GtkWidget *widget = g_ptr_array_index (controls, i);

      if (GTK_IS_ACTIONABLE (widget) &&
          g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action) == 0)
        return widget;
    }
  g_error ("no header button for %s", action);
  return NULL;
}

static void
iterate_until (gboolean (*done) (SluiceWindow *window),
               SluiceWindow *window)
{
  guint timeout_id = window_fixture_add_timeout ();

  while (!done (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

static gboolean
has_events (SluiceWindow *window)
{
  return sluice_event_log_get_n_events (SLUICE_EVENT_LOG (sluice_window_get_event_log (window))) > 0;
}

static gboolean
has_results (SluiceWindow *window)
{
  return sluice_window_get_n_results (window) > 0;
}

/* Where the focus is when the keys are pressed: in a field of the
 * configuration, on the menu button after a preset was picked from the
 * menu, or on a header button that was clicked. */
static void
put_focus (SluiceWindow *window,
           const char   *where)
{
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *focus;

  if (g_str_equal (where, "text-field"))
    {
      g_assert_true (gtk_widget_grab_focus (sluice_config_panel_get_field_widget (panel, "pool", "workers")));
      g_assert_true (GTK_IS_TEXT (gtk_root_get_focus (GTK_ROOT (window))));
    }
  else if (g_str_equal (where, "menu"))
    {
      GtkMenuButton *menu = GTK_MENU_BUTTON (window_fixture_find_widget (gtk_window_get_titlebar (GTK_WINDOW (window)),
                                                          GTK_TYPE_MENU_BUTTON));

      /* Picked from the menu: while it is open, its keys are its own. */
      GtkWidget *popover = GTK_WIDGET (gtk_menu_button_get_popover (menu));

      gtk_menu_button_popup (menu);
      while (!gtk_widget_get_mapped (popover))
        g_main_context_iteration (NULL, TRUE);
      if (gtk_root_get_focus (GTK_ROOT (window)) == NULL ||
          gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_TYPE_POPOVER) == NULL)
        g_assert_true (gtk_widget_child_focus (popover, GTK_DIR_TAB_FORWARD));
      g_test_message ("in the menu, focus on %s", G_OBJECT_TYPE_NAME (gtk_root_get_focus (GTK_ROOT (window))));
      g_assert_false (press_key (window, GDK_KEY_space, 0));
      g_assert_false (press_key (window, GDK_KEY_Escape, 0));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-preset", "s", "first-look"));
      gtk_menu_button_popdown (menu);
      /* The focus goes back to the menu button, as GTK does once the
       * menu closes. */
      gtk_widget_grab_focus (GTK_WIDGET (menu));
    }
  else
    {
      GtkWidget *reset = find_header_button (window, "win.reset");

      g_assert_true (gtk_widget_grab_focus (reset));
      g_signal_emit_by_name (reset, "clicked");
    }

  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_nonnull (focus);
  g_test_message ("focus on %s", G_OBJECT_TYPE_NAME (focus));
  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  if (g_str_equal (where, "text-field"))
    g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == focus);
}

static gboolean
hold_screen_shown (SluiceWindow *window)
{
  GtkStack *stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (window)));
  gboolean held = FALSE;

  g_object_get (window, "hold-screen", &held, NULL);
  g_assert_cmpint (held, ==, g_strcmp0 (gtk_stack_get_visible_child_name (stack), "hold") == 0);
  return held;
}

/* B holds the screen, as a presentation blanks it while the room talks:
 * the window shows its title only, the run goes on behind it and ends; B
 * again (or the hold screen's button) shows the page it covered; Ctrl+L
 * ends the hold too. In an edited text field B is typed. */
static void
test_window_b_holds_the_screen_while_the_run_goes_on (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkStack *stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (window)));
  GtkLabel *title;

  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_false (hold_screen_shown (window));

  /* Typed into a field, B is the field's. */
  g_assert_true (gtk_widget_grab_focus (sluice_config_panel_get_field_widget (panel, "pool", "workers")));
  g_assert_false (press_key (window, GDK_KEY_b, 0));
  g_assert_false (hold_screen_shown (window));

  /* Anywhere else, B is the window's. */
  g_assert_true (gtk_widget_grab_focus (sluice_window_get_timeline_view (window)));
  g_assert_true (press_key (window, GDK_KEY_r, GDK_CONTROL_MASK));
  g_assert_true (sluice_window_get_running (window));
  g_assert_true (press_key (window, GDK_KEY_b, 0));
  g_assert_true (hold_screen_shown (window));
  window_fixture_wait_for_end (window);
  g_assert_true (hold_screen_shown (window));
  g_assert_cmpuint (sluice_window_get_n_results (window), >, 0);
  /* The scenario's title, without the window title's unsaved mark. */
  title = GTK_LABEL (gtk_widget_get_first_child (gtk_stack_get_child_by_name (stack, "hold")));
  g_assert_cmpstr (gtk_label_get_text (title), ==, "First look");
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "First look"));

  g_assert_true (press_key (window, GDK_KEY_b, 0));
  g_assert_false (hold_screen_shown (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "playground");

  /* Held over the Lessons page, it comes back to the Lessons page. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lessons", NULL));
  g_assert_true (press_key (window, GDK_KEY_b, 0));
  g_assert_true (hold_screen_shown (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.hold-screen", NULL));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "lessons");

  /* Ctrl+L from the hold screen shows the page asked for. */
  g_assert_true (press_key (window, GDK_KEY_b, 0));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lessons", NULL));
  g_assert_false (hold_screen_shown (window));

  window_fixture_close (window);
}

/* Ctrl+R, Space, →, + and −, Escape, Ctrl+., Ctrl+Backspace and F9 through
 * the window's controller, with the focus in @data's place: Space, →, +
 * and − are a text field's own while it is edited; every other key is the
 * window's wherever the focus is. */
static void
test_window_keys (gconstpointer data)
{
  const char *where = data;
  gboolean typing = g_str_equal (where, "text-field");
  SluiceWindow *window = window_fixture_open ("first-look");
  GtkWidget *widget = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  SluiceClockControls *controls = SLUICE_CLOCK_CONTROLS (widget);
  GtkShortcutController *keys = find_run_keys (window);
  /* The sidebar: a lesson's question above the configuration. */
  GtkWidget *panel = gtk_widget_get_parent (sluice_window_get_config_panel (window));

  /* On the window, before the focus widget sees the key. */
  g_assert_nonnull (keys);
  g_assert_true (gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (keys)) == GTK_WIDGET (window));
  g_assert_cmpint (gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (keys)), ==, GTK_PHASE_CAPTURE);
  g_assert_cmpint (gtk_shortcut_controller_get_scope (keys), ==, GTK_SHORTCUT_SCOPE_GLOBAL);

  put_focus (window, where);

  /* Ctrl+R runs; the virtual clock has not moved yet. */
  g_assert_true (press_key (window, GDK_KEY_r, GDK_CONTROL_MASK));
  g_assert_true (sluice_window_get_running (window));

  /* Space pauses, and the banner says so. */
  g_assert_cmpint (press_key (window, GDK_KEY_space, 0), !=, typing);
  g_assert_cmpint (sluice_clock_controls_get_paused (controls), !=, typing);
  if (typing)
    g_assert_true (gtk_widget_activate_action (widget, "clock.pause", NULL));
  g_assert_true (sluice_clock_controls_get_paused (controls));
  g_assert_true (g_str_has_prefix (sluice_window_get_banner (window), "Paused"));

  /* Paused at 0 s: the items are pulled, nothing has finished; → steps to
   * the first timer. */
  iterate_until (has_events, window);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 0);
  g_assert_cmpint (press_key (window, GDK_KEY_Right, 0), !=, typing);
  if (!typing)
    iterate_until (has_results, window);
  else
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_cmpuint (sluice_window_get_n_results (window), ==, 0);
    }

  /* + and − step the speed. */
  g_assert_cmpint (press_key (window, GDK_KEY_plus, 0), !=, typing);
  g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (controls), typing ? 1.0 : 2.0, 1e-9);
  g_assert_cmpint (press_key (window, GDK_KEY_minus, 0), !=, typing);
  g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (controls), 1.0, 1e-9);

  /* Escape asks for a stop; the banner still says the clock is paused. */
  g_assert_true (press_key (window, GDK_KEY_Escape, 0));
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "Stop requested"));
  g_assert_true (g_str_has_prefix (sluice_window_get_banner (window), "Paused — "));

  /* Ctrl+. cancels: the run ends, unpaused, whatever it was doing. */
  g_assert_true (press_key (window, GDK_KEY_period, GDK_CONTROL_MASK));
  if (sluice_window_get_running (window) && sluice_clock_controls_get_paused (controls))
    g_assert_true (gtk_widget_activate_action (widget, "clock.pause", NULL));
  window_fixture_wait_for_end (window);
  g_assert_false (sluice_clock_controls_get_paused (controls));
  g_assert_false (g_str_has_prefix (sluice_window_get_banner (window), "Paused"));

  /* Escape between runs is not the window's: it goes on to the focus. */
  g_assert_false (press_key (window, GDK_KEY_Escape, 0));

  /* Ctrl+Backspace resets the views. */
  g_assert_true (has_events (window));
  g_assert_true (press_key (window, GDK_KEY_BackSpace, GDK_CONTROL_MASK));
  g_assert_false (has_events (window));
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 0);
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_PULLED), ==, "0");
  g_assert_true (g_str_has_prefix (sluice_window_get_banner (window), "Ready"));

  /* F9 hides the configuration, and shows it again. */
  g_assert_true (press_key (window, GDK_KEY_F9, 0));
  g_assert_false (gtk_widget_get_visible (panel));
  g_assert_true (press_key (window, GDK_KEY_F9, 0));
  g_assert_true (gtk_widget_get_visible (panel));

  window_fixture_close (window);
}

/* The window's size and maximised state, the sidebar and the clock's
 * speed come from the settings and go back to them. */
static void
test_window_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  SluiceWindow *window;
  SluiceClockControls *controls;
  GtkWidget *panel;
  int width, height;

  g_settings_set_int (settings, "window-width", 1024);
  g_settings_set_int (settings, "window-height", 768);
  g_settings_set_boolean (settings, "show-sidebar", FALSE);
  g_settings_set_double (settings, "speed", 2.0);

  window = g_object_ref (sluice_window_new (NULL));
  sluice_window_bind_settings (window, settings);
  controls = SLUICE_CLOCK_CONTROLS (window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS));
  /* The sidebar: a lesson's question above the configuration. */
  panel = gtk_widget_get_parent (sluice_window_get_config_panel (window));

  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 1024);
  g_assert_cmpint (height, ==, 768);
  g_assert_false (gtk_widget_get_visible (panel));
  g_assert_cmpfloat_with_epsilon (sluice_clock_controls_get_speed (controls), 2.0, 1e-6);
  /* The header's toggle shows the state. */
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (find_header_button (window, "win.show-sidebar"))));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-sidebar", NULL));
  g_assert_true (gtk_widget_get_visible (panel));
  g_assert_true (g_settings_get_boolean (settings, "show-sidebar"));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (find_header_button (window, "win.show-sidebar"))));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (controls), "clock.faster", NULL));
  g_assert_cmpfloat_with_epsilon (g_settings_get_double (settings, "speed"), 5.0, 1e-6);

  /* A resized window (GTK updates its default size) is remembered. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 720);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1280);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 720);

  window_fixture_close (window);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "show-sidebar");
  g_settings_reset (settings, "speed");
}

/* ---- screenshots at 1024×768 and 1280×720, German and Indonesian --------- */

typedef struct {
  const char *language;
  int         width, height;
  gboolean    dark;
} Screen;

static const Screen screens[] = {
  { "de", 1024, 768, FALSE },
  { "id", 1024, 768, FALSE },
  { "de", 1280, 720, FALSE },
  { "id", 1024, 768, TRUE },
};


static double
luminance (GdkPixbuf *pixbuf,
           int        x,
           int        y)
{
  const guchar *p = gdk_pixbuf_read_pixels (pixbuf) + y * gdk_pixbuf_get_rowstride (pixbuf) +
                    x * gdk_pixbuf_get_n_channels (pixbuf);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, gdk_pixbuf_get_width (pixbuf));
  g_assert_cmpint (y, <, gdk_pixbuf_get_height (pixbuf));
  return (0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]) / 255.;
}

/* The spread of luminance in a rectangle of the screenshot: text or lines
 * drawn there, or an even background. */
static double
contrast_in (GdkPixbuf             *pixbuf,
             const graphene_rect_t *rect)
{
  double lo = 1., hi = 0.;

  for (int y = (int) rect->origin.y; y < (int) (rect->origin.y + rect->size.height); y++)
    for (int x = (int) rect->origin.x; x < (int) (rect->origin.x + rect->size.width); x++)
      {
        double l = luminance (pixbuf, x, y);

        lo = MIN (lo, l);
        hi = MAX (hi, l);
      }
  return hi - lo;
}

/* Where a point of the window is in its screenshot: the screenshot is the
 * window's content at its own size, without the client-side frame, so a
 * point is its own pixel (sluice-batch.c; it was squeezed by the frame). */
static graphene_point_t
to_png (SluiceWindow *window,
        double        x,
        double        y)
{
  g_assert_true (SLUICE_IS_WINDOW (window));
  return GRAPHENE_POINT_INIT (x, y);
}

/* @widget's place in the screenshot of @window. */
static graphene_rect_t
bounds_in_window (GtkWidget    *widget,
                  SluiceWindow *window)
{
  graphene_rect_t bounds;
  graphene_point_t top_left, bottom_right;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &bounds));
  top_left = to_png (window, bounds.origin.x, bounds.origin.y);
  bottom_right = to_png (window, bounds.origin.x + bounds.size.width, bounds.origin.y + bounds.size.height);
  return GRAPHENE_RECT_INIT (top_left.x, top_left.y, bottom_right.x - top_left.x, bottom_right.y - top_left.y);
}

/* The x, in @view, where @time is drawn. */
static int
time_x (GtkWidget      *view,
        SluiceViewport *viewport,
        gint64          time)
{
  int width = gtk_widget_get_width (view);
  int x = width - 1;

  while (x > 0 && sluice_viewport_x_to_time (viewport, width, x) > time)
    x--;
  return x;
}

/* The chart's or the lanes' end is in the picture: the time span shown
 * ends inside the window, and the run's end is drawn there (the "now"
 * line), apart from the view's margin beside it. */
static void
assert_end_shown (GdkPixbuf    *pixbuf,
                  SluiceWindow *window,
                  GtkWidget    *view,
                  double        top_part,
                  double        bottom_part)
{
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  graphene_rect_t bounds = bounds_in_window (view, window);
  SluiceTimeline *run = sluice_timeline_view_get_model (SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window)));
  int margin_x = (int) (bounds.origin.x + bounds.size.width) - 3;
  int top = (int) (bounds.origin.y + bounds.size.height * top_part);
  int bottom = (int) (bounds.origin.y + bounds.size.height * bottom_part);
  guint inked = 0, rows = 0;
  graphene_point_t origin;
  int x, span_x;

  g_assert_true (gtk_widget_compute_point (view, GTK_WIDGET (window), &GRAPHENE_POINT_INIT (0, 0), &origin));
  x = (int) round (to_png (window, origin.x + time_x (view, viewport, sluice_timeline_get_end_time (run)), 0).x);
  span_x = (int) round (to_png (window, origin.x + time_x (view, viewport, sluice_viewport_get_t1 (viewport)), 0).x);

  g_test_message ("%s: x %.0f to %.0f, the span shown ends at %d, the run at %d, the window %d wide",
                  G_OBJECT_TYPE_NAME (view), bounds.origin.x, bounds.origin.x + bounds.size.width, span_x, x,
                  gdk_pixbuf_get_width (pixbuf));
  g_assert_true (sluice_viewport_get_fit (viewport));
  g_assert_cmpfloat (bounds.origin.x, >=, 0.);
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gdk_pixbuf_get_width (pixbuf));
  g_assert_cmpint (x, <=, span_x);
  g_assert_cmpint (span_x, <, margin_x);

  for (int y = top; y < bottom; y++, rows++)
    {
      double background = luminance (pixbuf, margin_x, y);
      double ink = 0.;

      for (int dx = -1; dx <= 1; dx++)
        ink = MAX (ink, fabs (luminance (pixbuf, x + dx, y) - background));
      inked += ink > 0.3;
    }
  g_assert_cmpuint (inked, >=, rows * 3 / 4);
}

/* Labels whose text does not fit: ellipsized, except where a shortened
 * text is the design (the header bar's title, a table's cells). */
static void
collect_cut_labels (GtkWidget *widget,
                    GPtrArray *cut)
{
  if (!gtk_widget_get_mapped (widget) || GTK_IS_HEADER_BAR (widget) || GTK_IS_COLUMN_VIEW (widget) ||
      GTK_IS_LIST_VIEW (widget) || GTK_IS_POPOVER (widget))
    return;

  if (GTK_IS_LABEL (widget) && pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (widget))))
    g_ptr_array_add (cut, (gpointer) gtk_label_get_text (GTK_LABEL (widget)));

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_cut_labels (child, cut);
}


/* `sluice --screenshot` of the preset with the most counters, in a window
 * of the size in the settings, the configuration shown: the window keeps
 * that size, the counters wrap with the last one whole inside the right
 * edge, the chart and the lanes fit the width with their ends drawn, and
 * no label is cut. The PNGs stay in the build directory to look at. */
static void
test_window_screenshot (gconstpointer data)
{
  const Screen *screen = data;
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  GtkCssProvider *css;
  g_autofree char *name = g_strdup_printf ("screenshot-%dx%d-%s%s.png", screen->width, screen->height,
                                           screen->language, screen->dark ? "-dark" : "");
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, name, NULL);
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GPtrArray) cut = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *counters, *flow, *last = NULL;
  SluiceWindow *window;
  int rows = 0;
  double last_y = -1.;

  if (!sluice_test_try_language (screen->language))
    return;

  /* As the app looks: its style sheet, the theme it is asked for. */
  css = window_fixture_add_app_style ();
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", screen->dark, NULL);
  g_settings_set_int (settings, "window-width", screen->width);
  g_settings_set_int (settings, "window-height", screen->height);

  window = g_object_ref (sluice_window_new (NULL));
  sluice_window_bind_settings (window, settings);
  g_assert_true (sluice_window_open_preset (window, "deadline-shed", NULL));
  window_fixture_screenshot (window, png);

  pixbuf = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  /* The window is the size it was given (less its client-side frame): the
   * layout asked for no more. */
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, gtk_widget_get_width (GTK_WIDGET (window)));
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), ==, gtk_widget_get_height (GTK_WIDGET (window)));
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), <=, screen->width);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), >=, screen->width - 20);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), <=, screen->height);
  g_assert_cmpint (gdk_pixbuf_get_height (pixbuf), >=, screen->height - 20);
  g_assert_true (gtk_widget_get_visible (sluice_window_get_config_panel (window)));

  /* Every counter whole inside the window, with its figure drawn; in more
   * than one row at 1024 pixels with the configuration beside them. */
  counters = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_COUNTERS);
  flow = window_fixture_find_widget (counters, GTK_TYPE_FLOW_BOX);
  for (GtkWidget *child = gtk_widget_get_first_child (flow); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (!gtk_widget_get_visible (child))
        continue;
      bounds = bounds_in_window (child, window);
      g_assert_cmpfloat (bounds.origin.x, >=, 0.);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gdk_pixbuf_get_width (pixbuf));
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gdk_pixbuf_get_height (pixbuf));
      g_assert_cmpfloat (contrast_in (pixbuf, &bounds), >, 0.4);
      if (bounds.origin.y > last_y)
        rows++;
      last_y = bounds.origin.y;
      last = child;
    }
  g_assert_nonnull (last);
  g_test_message ("%d rows of counters", rows);
  g_assert_cmpint (rows, >=, screen->width <= 1024 ? 2 : 1);
  g_assert_cmpint (rows, <=, 2);
  /* The last counter, the throughput, is there. */
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (gtk_widget_get_first_child (last)))), ==,
                   sluice_window_get_counter (window, SLUICE_COUNTER_THROUGHPUT));
  /* Nothing runs into the right edge beside the counters (the last pixels
   * of the picture are the window's client-side frame). */
  {
    graphene_rect_t row = bounds_in_window (counters, window);
    graphene_rect_t edge = GRAPHENE_RECT_INIT (gdk_pixbuf_get_width (pixbuf) - 14, row.origin.y, 8, row.size.height);

    g_assert_cmpfloat (contrast_in (pixbuf, &edge), <, 0.1);
  }

  /* Between the chart's legend and its axis; between the lanes' key and
   * their axis. */
  assert_end_shown (pixbuf, window, window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW), 0.4, 0.75);
  assert_end_shown (pixbuf, window, sluice_window_get_timeline_view (window), 0.6, 0.8);
  window_fixture_assert_not_clipped (window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW));
  window_fixture_assert_not_clipped (sluice_window_get_timeline_view (window));
  window_fixture_assert_not_clipped (window_fixture_find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK));

  collect_cut_labels (GTK_WIDGET (window), cut);
  for (guint i = 0; i < cut->len; i++)
    g_test_message ("cut off: “%s”", (const char *) g_ptr_array_index (cut, i));
  g_assert_cmpuint (cut->len, ==, 0);

  window_fixture_close (window);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  window_fixture_remove_app_style (css);
  sluice_test_set_language ("");
}

/* Every key the report has is a row with the report's own value, so what a
 * preset's description names (unfinished, live_operations, metrics_raised)
 * can be read in the window; a reset takes the report away. */
static void
assert_report_shows_every_key (SluiceReportView *view)
{
  JsonNode *report = sluice_report_view_get_report (view);
  g_autoptr(GList) members = NULL;
  JsonObject *object;

  g_assert_nonnull (report);
  object = json_node_get_object (report);
  members = json_object_get_members (object);
  g_assert_cmpuint (sluice_report_view_get_n_rows (view), ==, g_list_length (members));
  for (GList *l = members; l != NULL; l = l->next)
    {
      g_autofree char *expected = sluice_report_view_format_value (json_object_get_member (object, l->data));

      g_assert_cmpstr (sluice_report_view_get_value (view, l->data), ==, expected);
    }
}

static void
test_window_report_shows_every_key (void)
{
  SluiceWindow *window = window_fixture_open ("close-after");
  SluiceReportView *view = SLUICE_REPORT_VIEW (sluice_window_get_report_view (window));

  g_assert_null (sluice_report_view_get_report (view));
  g_assert_cmpuint (sluice_report_view_get_n_rows (view), ==, 0);
  window_fixture_run_virtual (window);

  assert_report_shows_every_key (view);
  g_assert_cmpstr (sluice_report_view_get_value (view, "outcome"), ==, "closed");
  g_assert_cmpstr (sluice_report_view_get_value (view, "unfinished"), ==, "4");
  g_assert_cmpstr (sluice_report_view_get_value (view, "live_operations"), ==, "0");
  g_assert_cmpstr (sluice_report_view_get_value (view, "lead_ok"), ==, "yes");
  g_assert_cmpstr (sluice_report_view_get_value (view, "metrics"), ==, "ok: 2, retry: 0, failure: 0");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_null (sluice_report_view_get_report (view));
  g_assert_cmpuint (sluice_report_view_get_n_rows (view), ==, 0);

  /* The broken backend's count, which the preset's description talks about. */
  g_assert_true (sluice_window_open_preset (window, "broken-metrics", NULL));
  window_fixture_run_virtual (window);
  assert_report_shows_every_key (view);
  g_assert_cmpstr (sluice_report_view_get_value (view, "metrics_raised"), ==, "9");

  window_fixture_close (window);
}

static void
test_report_view_cuts_long_lists (void)
{
  g_autoptr(JsonNode) list = json_from_string ("[0,1,2,3,4,5,6,7,8,9,10,11,12,13]", NULL);
  g_autoptr(JsonNode) empty = json_from_string ("{}", NULL);
  g_autoptr(JsonNode) number = json_from_string ("0.402179", NULL);
  g_autofree char *list_text = sluice_report_view_format_value (list);
  g_autofree char *empty_text = sluice_report_view_format_value (empty);
  g_autofree char *number_text = sluice_report_view_format_value (number);

  g_assert_cmpstr (list_text, ==, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … (14 in all)");
  g_assert_cmpstr (empty_text, ==, "none");
  g_assert_cmpstr (number_text, ==, "0.402179");
}

/* What @widget draws now (its own snapshot, without CSS), in 8-bit RGBA. */
static guchar *
draw_widget (GtkWidget *widget,
             int       *width,
             int       *height)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  guchar *pixels;

  *width = gtk_widget_get_width (widget);
  *height = gtk_widget_get_height (widget);
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, *width, *height));
  pixels = g_malloc ((gsize) *width * *height * 4);
  gdk_texture_download (texture, pixels, (gsize) *width * 4);
  return pixels;
}

/* Pixels that differ between two drawings, in columns [x0, x1). */
static guint
count_changed_columns (const guchar *a,
                       const guchar *b,
                       int           width,
                       int           height,
                       int           x0,
                       int           x1)
{
  guint n = 0;

  for (int y = 0; y < height; y++)
    for (int x = MAX (x0, 0); x < MIN (x1, width); x++)
      n += memcmp (a + ((gsize) y * width + x) * 4, b + ((gsize) y * width + x) * 4, 4) != 0;
  return n;
}

/* Clicking an event row moves the playhead to its time in the chart and
 * the lanes, which share the viewport: the first attempt-end of
 * first-look is item 2's, at 0.1 s. A filter that hides the row keeps
 * the playhead; a reset clears it. */
static void
test_window_event_row_marks_its_time (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *lanes = sluice_window_get_timeline_view (window);
  g_autofree guchar *before = NULL;
  g_autofree guchar *after = NULL;
  cairo_rectangle_t plot;
  int width, height, x;
  SluiceTimeline *run;

  window_fixture_run_virtual (window);
  run = sluice_timeline_view_get_model (SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window)));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, -1);

  sluice_event_log_set_filter (log, NULL, SLUICE_EVENT_ATTEMPT_END);
  before = draw_widget (lanes, &width, &height);
  sluice_event_log_select_row (log, 0);
  g_assert_cmpint (sluice_event_log_get_marked_time (log), ==, sluice_timeline_get_start_time (run) + 100000);
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, sluice_event_log_get_marked_time (log));

  /* The lanes draw it: a dashed line down the plot at its time, what
   * came later faded, and nothing before it changed. */
  after = draw_widget (lanes, &width, &height);
  sluice_render_timeline_get_plot (run, width, height, &plot);
  x = (int) round (plot.x + plot.width * (double) (sluice_viewport_get_playhead (viewport) - sluice_viewport_get_t0 (viewport)) /
                                (double) (sluice_viewport_get_t1 (viewport) - sluice_viewport_get_t0 (viewport)));
  g_assert_cmpuint (count_changed_columns (before, after, width, height, x - 1, x + 1), >=, (guint) (plot.height * 0.4));
  g_assert_cmpuint (count_changed_columns (before, after, width, height, 0, x - 6), ==, 0);
  g_assert_cmpuint (count_changed_columns (before, after, width, height, x + 6, width), >, 0);

  sluice_event_log_select_row (log, 2);
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, sluice_timeline_get_start_time (run) + 300000);
  sluice_event_log_set_filter (log, NULL, SLUICE_EVENT_PULL);
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, sluice_timeline_get_start_time (run) + 300000);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, -1);

  window_fixture_close (window);
}

static guint
count_children (GtkWidget *widget)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* A log that follows a run lists, and keeps widgets for, the rows that
 * fit it and a few more, not the two hundred a GtkListView keeps around
 * the row it shows: a fast run moved the tail by thousands of rows a
 * time, and the list bound them all anew each time (tens of ms, the
 * frames waiting). Once the user scrolls up, every row is listed, and the
 * view stays at the rows it showed. */
static void
test_window_event_log_follows_with_the_rows_it_shows (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  GtkColumnView *column_view = GTK_COLUMN_VIEW (window_fixture_find_widget (GTK_WIDGET (log), GTK_TYPE_COLUMN_VIEW));
  GtkWidget *list_view = window_fixture_find_widget (GTK_WIDGET (column_view), GTK_TYPE_LIST_VIEW);
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (gtk_widget_get_parent (GTK_WIDGET (column_view)));
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (scroller);
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (column_view));
  g_autoptr(SluiceEventItem) newest = NULL;
  guint n_events, fit, timeout_id;
  int row_height;

  sluice_config_panel_set_field_text (panel, "source", "count", "300");
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  window_fixture_run_virtual (window);
  /* Laid out, and the tail fit to the view it got. */
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);

  n_events = sluice_event_log_get_n_events (log);
  g_assert_cmpuint (n_events, >, 1000);
  g_assert_cmpuint (sluice_event_log_get_n_rows (log), ==, n_events);

  /* The newest rows, as many as fit and three more, the newest last. */
  row_height = 0;
  for (GtkWidget *row = gtk_widget_get_first_child (list_view); row != NULL && row_height <= 0;
       row = gtk_widget_get_next_sibling (row))
    row_height = gtk_widget_get_height (row);
  g_assert_cmpint (row_height, >, 0);
  fit = (guint) ceil (gtk_adjustment_get_page_size (vadj) / row_height);
  g_test_message ("%u events, %u rows fit, %u listed, %u row widgets", n_events, fit,
                  g_list_model_get_n_items (rows), count_children (list_view));
  g_assert_cmpuint (g_list_model_get_n_items (rows), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), <=, fit + 3);
  g_assert_cmpuint (count_children (list_view), <=, fit + 3);
  newest = g_list_model_get_item (rows, g_list_model_get_n_items (rows) - 1);
  g_assert_cmpuint (sluice_event_item_get_position (newest), ==, n_events - 1);

  /* A scroll up lists every row, the view where it was. */
  gtk_adjustment_set_value (vadj, gtk_adjustment_get_value (vadj) - row_height);
  timeout_id = window_fixture_add_timeout ();
  while (g_list_model_get_n_items (rows) < n_events)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, n_events);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj) - gtk_adjustment_get_value (vadj) -
                       gtk_adjustment_get_page_size (vadj), <, 5.0 * row_height);

  window_fixture_close (window);
}

/* The results view makes rows only while its tab is shown: a GtkListView
 * makes a row for each item that comes (up to two hundred) whether it is
 * shown or not, and a fast run on another tab paid for them in its first
 * frames. Shown, it lists every result, the first at the top. */
static void
test_window_results_rows_made_only_while_shown (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *log = sluice_window_get_event_log (window);
  GtkNotebook *notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (log, GTK_TYPE_NOTEBOOK));
  GtkWidget *results_page = gtk_notebook_get_nth_page (notebook, 1);
  GtkListView *results = GTK_LIST_VIEW (window_fixture_find_widget (results_page, GTK_TYPE_LIST_VIEW));
  GListModel *model;
  g_autoptr(GtkStringObject) first = NULL;

  sluice_config_panel_set_field_text (panel, "source", "count", "300");
  g_assert_cmpint (gtk_notebook_get_current_page (notebook), ==, gtk_notebook_page_num (notebook, log));
  window_fixture_run_virtual (window);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 300);
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (results)));
  g_assert_null (gtk_widget_get_first_child (GTK_WIDGET (results)));

  gtk_notebook_set_current_page (notebook, 1);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (results)));
  model = G_LIST_MODEL (gtk_list_view_get_model (results));
  g_assert_nonnull (model);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 300);
  g_assert_nonnull (gtk_widget_get_first_child (GTK_WIDGET (results)));
  first = g_list_model_get_item (model, 0);
  g_assert_true (g_str_has_prefix (gtk_string_object_get_string (first), "1.  "));

  /* Hidden again, no model and no rows. */
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, log));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_null (gtk_list_view_get_model (results));
  g_assert_null (gtk_widget_get_first_child (GTK_WIDGET (results)));

  window_fixture_close (window);
}

static gboolean
is_replaying (SluiceWindow *window)
{
  return !sluice_scrubber_get_playing (SLUICE_SCRUBBER (window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_SCRUBBER)));
}

/* After a run the keys move the playhead, and every view shows the run at
 * it: first-look's items end at 0.1, 0.2 and 0.3 s (items 2, 1, 0). */
static void
test_window_scrub_shows_the_run_at_the_playhead (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *scrubber = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_SCRUBBER);
  SluiceEventLog *log = SLUICE_EVENT_LOG (sluice_window_get_event_log (window));
  SluiceExplainView *explain = SLUICE_EXPLAIN_VIEW (sluice_window_get_explain_view (window));
  gint64 start;
  guint timeout_id;

  /* Before a run the scrubber is off: Home goes to the focus widget. */
  g_assert_false (press_key (window, GDK_KEY_Home, 0));
  window_fixture_run_virtual (window);
  start = sluice_viewport_get_start (viewport);
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, -1);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");

  /* Home: the start, nothing done yet. */
  g_assert_true (press_key (window, GDK_KEY_Home, 0));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "0");
  assert_counter (window, SLUICE_COUNTER_IN_FLIGHT, "3");
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 0);

  /* →, event by event, to item 2's end at 0.1 s. */
  while (sluice_viewport_get_playhead (viewport) < start + 100000)
    g_assert_true (press_key (window, GDK_KEY_Right, 0));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start + 100000);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "1");
  assert_counter (window, SLUICE_COUNTER_IN_FLIGHT, "2");
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 1);
  assert_counter (window, SLUICE_COUNTER_ELAPSED, "0.10 s");
  /* The event log's selected row is the newest event by then, without
   * moving the playhead to it. */
  g_assert_cmpint (sluice_event_log_get_marked_time (log), ==, -1);
  /* Explain this moment: the narrator's sentences for it. */
  g_assert_true (g_str_has_prefix (sluice_explain_view_get_text (explain), "0.100 s — "));
  g_assert_nonnull (strstr (sluice_explain_view_get_text (explain), "Item 2 has just succeeded."));

  /* ←, back over the events at 0.1 s to the one before. */
  g_assert_true (press_key (window, GDK_KEY_Left, 0));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), <, start + 100000);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "0");

  /* Shift+→: a tenth of the run (0.03 s) at a time. */
  g_assert_true (press_key (window, GDK_KEY_Home, 0));
  g_assert_true (press_key (window, GDK_KEY_Right, GDK_SHIFT_MASK));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start + 30000);
  g_assert_true (press_key (window, GDK_KEY_Left, GDK_SHIFT_MASK));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start);

  /* End: all of it. */
  g_assert_true (press_key (window, GDK_KEY_End, 0));
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, 3);

  /* Space replays from the start (the playhead was at the end) to the end,
   * at the clock's speed; 10×, so that it takes 0.03 s of wall time. */
  sluice_clock_controls_set_speed (SLUICE_CLOCK_CONTROLS (window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS)),
                                   10.0);
  g_assert_true (press_key (window, GDK_KEY_space, 0));
  g_assert_true (sluice_scrubber_get_playing (SLUICE_SCRUBBER (scrubber)));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), <, start + 300000);
  timeout_id = window_fixture_add_timeout ();
  while (!is_replaying (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start + 300000);
  assert_counter (window, SLUICE_COUNTER_SUCCEEDED, "3");

  /* A new run shows now again. */
  window_fixture_run_virtual (window);
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, -1);

  window_fixture_close (window);
}

/* The error group at the playhead holds the errors recorded by then:
 * retries' ValueError comes at 0.15 s, its TimeoutError at the end. */
static void
test_window_scrub_error_group (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceErrorGroupView *errors = SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window));
  SluiceViewport *viewport = sluice_window_get_viewport (window);

  window_fixture_run_virtual (window);
  g_assert_cmpuint (sluice_error_group_view_get_n_errors (errors), ==, 2);
  g_assert_true (press_key (window, GDK_KEY_Home, 0));
  g_assert_cmpuint (sluice_error_group_view_get_n_errors (errors), ==, 0);
  sluice_viewport_set_playhead (viewport, sluice_viewport_get_start (viewport) + 500000);
  g_assert_cmpuint (sluice_error_group_view_get_n_errors (errors), ==, 1);
  g_assert_true (press_key (window, GDK_KEY_End, 0));
  g_assert_cmpuint (sluice_error_group_view_get_n_errors (errors), ==, 2);

  window_fixture_close (window);
}

/* GTK 4.8's GL renderer draws the whole window at each frame: in software
 * (llvmpipe, as under Xvfb) 50-150 ms a frame, too slow for a live run.
 * Unless GSK_RENDERER says otherwise, the app draws with cairo there. */
static void
test_window_software_gl_draws_with_cairo (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autofree char *chosen = g_strdup (g_getenv ("GSK_RENDERER"));
  g_autoptr(GdkGLContext) context = NULL;
  const char *gl_renderer;

  g_assert_true (sluice_renderer_gl_is_software ("llvmpipe (LLVM 15.0.6, 256 bits)"));
  g_assert_true (sluice_renderer_gl_is_software ("softpipe"));
  g_assert_true (sluice_renderer_gl_is_software ("Software Rasterizer"));
  g_assert_false (sluice_renderer_gl_is_software ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (sluice_renderer_gl_is_software ("AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49)"));
  g_assert_false (sluice_renderer_gl_is_software (NULL));

  /* A person's choice stands. */
  g_setenv ("GSK_RENDERER", "gl", TRUE);
  g_assert_null (sluice_renderer_choose (display));
  g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "gl");

  /* Without one: cairo exactly where this display's GL is software. */
  g_unsetenv ("GSK_RENDERER");
  if (!gdk_display_prepare_gl (display, NULL))
    {
      g_assert_null (sluice_renderer_choose (display));
      g_test_skip ("no OpenGL on this display");
    }
  else
    {
      context = gdk_display_create_gl_context (display, NULL);
      g_assert_nonnull (context);
      g_assert_true (gdk_gl_context_realize (context, NULL));
      gdk_gl_context_make_current (context);
      gl_renderer = (const char *) glGetString (GL_RENDERER);
      if (sluice_renderer_gl_is_software (gl_renderer))
        {
          g_assert_cmpstr (sluice_renderer_choose (display), ==, "cairo");
          g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
        }
      else
        {
          g_assert_null (sluice_renderer_choose (display));
          g_assert_null (g_getenv ("GSK_RENDERER"));
        }
      gdk_gl_context_clear_current ();
    }

  if (chosen != NULL)
    g_setenv ("GSK_RENDERER", chosen, TRUE);
  else
    g_unsetenv ("GSK_RENDERER");
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
  g_test_add_func ("/window/presets/grouped-in-teaching-order", test_presets_are_grouped_in_teaching_order);
  g_test_add_data_func ("/window/playback/pauses-and-steps/retries", "retries",
                        test_window_playback_with_pauses_and_steps);
  g_test_add_data_func ("/window/playback/pauses-and-steps/stubborn", "stubborn",
                        test_window_playback_with_pauses_and_steps);
  g_test_add_func ("/window/open-file", test_window_open_file);
  g_test_add_func ("/window/decimal-comma", test_window_decimal_comma);
  g_test_add_func ("/app/opens-file-argument", test_app_opens_file_argument);
  g_test_add_data_func ("/window/keys/text-field", "text-field", test_window_keys);
  g_test_add_func ("/window/keys/b-holds-the-screen-while-the-run-goes-on",
                   test_window_b_holds_the_screen_while_the_run_goes_on);
  g_test_add_data_func ("/window/keys/after-menu", "menu", test_window_keys);
  g_test_add_data_func ("/window/keys/after-header-button", "header-button", test_window_keys);
  g_test_add_func ("/window/settings", test_window_settings);
  g_test_add_func ("/window/report/shows-every-key-of-the-report", test_window_report_shows_every_key);
  g_test_add_func ("/window/scrub/views-show-the-run-at-the-playhead", test_window_scrub_shows_the_run_at_the_playhead);
  g_test_add_func ("/window/scrub/error-group-holds-the-errors-by-then", test_window_scrub_error_group);
  g_test_add_func ("/window/event-log/follows-with-the-rows-it-shows", test_window_event_log_follows_with_the_rows_it_shows);
  g_test_add_func ("/window/results/rows-made-only-while-shown", test_window_results_rows_made_only_while_shown);
  g_test_add_func ("/window/event-log/clicked-row-marks-its-time-in-chart-and-lanes",
                   test_window_event_row_marks_its_time);
  g_test_add_func ("/window/report/cuts-long-lists-and-says-how-long", test_report_view_cuts_long_lists);
  g_test_add_func ("/window/software-gl-draws-with-cairo", test_window_software_gl_draws_with_cairo);
  g_test_add_data_func ("/window/screenshot/1024x768/de", &screens[0], test_window_screenshot);
  g_test_add_data_func ("/window/screenshot/1024x768/id", &screens[1], test_window_screenshot);
  g_test_add_data_func ("/window/screenshot/1280x720/de", &screens[2], test_window_screenshot);
  g_test_add_data_func ("/window/screenshot/1024x768/id/dark", &screens[3], test_window_screenshot);

  return g_test_run ();
}
