/* test-window-compare.c: Compare…: the current configuration and a
 * scenario file on one workload, in a window of their own (docs/teaching.md,
 * A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "sluice-chart-view.h"
#include "sluice-compare-window.h"
#include "sluice-config-panel.h"
#include "sluice-timeline-view.h"
#include "window-fixture.h"
#include "run-fixture.h"
#include "test-helpers.h"
#include "sluice-time-view.h"

static char *
preset_path (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".pool", NULL);

  return g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
}

static void
wait_for_comparison (SluiceCompareWindow *compare)
{
  guint timeout_id = window_fixture_add_timeout ();

  while (sluice_compare_window_get_running (compare))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

static void
assert_cells (SluiceCompareWindow     *compare,
              SluiceComparisonRowKind  row,
              const char              *name,
              const char              *a,
              const char              *b,
              const char              *difference)
{
  g_assert_cmpstr (sluice_compare_window_get_cell (compare, row, SLUICE_COMPARE_COLUMN_NAME), ==, name);
  g_assert_cmpstr (sluice_compare_window_get_cell (compare, row, SLUICE_COMPARE_COLUMN_A), ==, a);
  g_assert_cmpstr (sluice_compare_window_get_cell (compare, row, SLUICE_COMPARE_COLUMN_B), ==, b);
  g_assert_cmpstr (sluice_compare_window_get_cell (compare, row, SLUICE_COMPARE_COLUMN_DIFFERENCE), ==, difference);
}

static void
assert_count_cells (SluiceCompareWindow     *compare,
                    SluiceComparisonRowKind  row,
                    const char              *name,
                    guint                    a,
                    guint                    b)
{
  g_autofree char *a_text = g_strdup_printf ("%u", a);
  g_autofree char *b_text = g_strdup_printf ("%u", b);
  g_autofree char *d_text = g_strdup_printf ("%+d", (int) b - (int) a);

  assert_cells (compare, row, name, a_text, b_text, d_text);
}

/* The table's cells are each run's own report. */
static void
assert_table (SluiceCompareWindow *compare,
              SluiceReport        *a,
              SluiceReport        *b)
{
  const SluiceRunStats *sa = sluice_report_get_stats (a), *sb = sluice_report_get_stats (b);
  double ea = (double) sluice_report_get_elapsed (a) / G_USEC_PER_SEC;
  double eb = (double) sluice_report_get_elapsed (b) / G_USEC_PER_SEC;
  /* Units and a precision a room reads: ms for times, a tenth of an item
   * per second (no "0.850000 s"). */
  g_autofree char *ea_text = g_strdup_printf ("%.3f s", ea);
  g_autofree char *eb_text = g_strdup_printf ("%.3f s", eb);
  g_autofree char *ed_text = g_strdup_printf ("%+.3f s", eb - ea);
  g_autofree char *ta_text = g_strdup_printf ("%.1f items/s", sa->succeeded / ea);
  g_autofree char *tb_text = g_strdup_printf ("%.1f items/s", sb->succeeded / eb);
  g_autofree char *ratio = g_strdup_printf ("×%.2f", (sb->succeeded / eb) / (sa->succeeded / ea));

  assert_cells (compare, SLUICE_COMPARISON_ELAPSED, "Elapsed", ea_text, eb_text, ed_text);
  assert_cells (compare, SLUICE_COMPARISON_THROUGHPUT, "Throughput", ta_text, tb_text, ratio);
  assert_count_cells (compare, SLUICE_COMPARISON_SUCCEEDED, "Succeeded", sa->succeeded, sb->succeeded);
  assert_count_cells (compare, SLUICE_COMPARISON_FAILED, "Failed", sa->failed, sb->failed);
  assert_count_cells (compare, SLUICE_COMPARISON_RETRIES, "Retries", sa->retries, sb->retries);
  assert_count_cells (compare, SLUICE_COMPARISON_TIMEOUTS, "Timeouts", sa->timeouts, sb->timeouts);
  assert_count_cells (compare, SLUICE_COMPARISON_MAX_LEAD, "Max lead", sa->max_lead, sb->max_lead);
  assert_cells (compare, SLUICE_COMPARISON_OUTCOME, "Outcome", sluice_report_get_outcome (a),
                sluice_report_get_outcome (b), "same");
}

/* The four views show one viewport, so they show one playhead. */
static void
assert_views_share (SluiceCompareWindow *compare)
{
  SluiceViewport *viewport = sluice_compare_window_get_viewport (compare);

  for (SluiceComparisonSide side = SLUICE_COMPARISON_A; side <= SLUICE_COMPARISON_B; side++)
    {
      SluiceChartView *chart = SLUICE_CHART_VIEW (sluice_compare_window_get_chart_view (compare, side));
      SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_compare_window_get_timeline_view (compare, side));

      g_assert_true (sluice_time_view_get_viewport (SLUICE_TIME_VIEW (chart)) == viewport);
      g_assert_true (sluice_time_view_get_viewport (SLUICE_TIME_VIEW (lanes)) == viewport);
      g_assert_cmpuint (sluice_timeline_get_n_bars (sluice_timeline_view_get_model (lanes)), >, 0);
    }
}

/* retry-storm as A, retry-storm-jitter as B: headings, the table against
 * each run alone, one scrubber moving both runs' playhead, one time axis
 * as long as the longer run (A's 0.9 s); closed, nothing is left alive. */
static void
test_compare_two_presets (void)
{
  SluiceWindow *window = window_fixture_open ("retry-storm");
  g_autofree char *a_path = preset_path ("retry-storm");
  g_autofree char *b_path = preset_path ("retry-storm-jitter");
  g_autoptr(SluiceReport) a = run_fixture_run_file (a_path);
  g_autoptr(SluiceReport) b = run_fixture_run_file (b_path);
  g_autoptr(GError) error = NULL;
  SluiceCompareWindow *compare;
  SluiceViewport *viewport;
  GtkWidget *scrubber;
  gint64 start;

  g_assert_true (window_fixture_action_enabled (window, "win.compare"));
  compare = sluice_window_compare_with_file (window, b_path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (compare);
  g_object_ref (compare);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (compare)) == GTK_WINDOW (window));
  g_assert_cmpstr (sluice_compare_window_get_heading (compare, SLUICE_COMPARISON_A), ==,
                   "A: Retry storm: synchronised waves (backoff, jitter=none)");
  g_assert_cmpstr (sluice_compare_window_get_heading (compare, SLUICE_COMPARISON_B), ==,
                   "B: Retry storm spread out (backoff, full jitter) (on A's workload)");
  /* Nothing to show before both ran. */
  g_assert_true (sluice_compare_window_get_running (compare));
  g_assert_cmpstr (sluice_compare_window_get_cell (compare, SLUICE_COMPARISON_ELAPSED, SLUICE_COMPARE_COLUMN_A), ==,
                   "");

  wait_for_comparison (compare);
  assert_table (compare, a, b);
  assert_views_share (compare);

  viewport = sluice_compare_window_get_viewport (compare);
  start = sluice_viewport_get_start (viewport);
  g_assert_cmpint (sluice_viewport_get_end (viewport) - start, ==, sluice_report_get_elapsed (a));

  scrubber = sluice_compare_window_get_scrubber (compare);
  g_assert_true (gtk_widget_activate_action (scrubber, "scrub.start", NULL));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start);
  g_assert_true (gtk_widget_activate_action (scrubber, "scrub.forward", NULL));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start + sluice_report_get_elapsed (a) / 10);
  g_assert_true (gtk_widget_activate_action (scrubber, "scrub.next-event", NULL));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), >, start + sluice_report_get_elapsed (a) / 10);
  g_assert_true (gtk_widget_activate_action (scrubber, "scrub.end", NULL));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, start + sluice_report_get_elapsed (a));
  /* A draw with the playhead shown, then the window goes. */
  for (guint i = 0; i < 5; i++)
    g_main_context_iteration (NULL, FALSE);

  gtk_window_destroy (GTK_WINDOW (compare));
  g_assert_finalize_object (compare);
  window_fixture_close (window);
}

/* Compare… is there when the configuration is valid and nothing runs. */
static void
test_compare_action_enabled (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  g_autofree char *b_path = preset_path ("retry-storm");
  g_autoptr(GError) error = NULL;

  g_assert_true (window_fixture_action_enabled (window, "win.compare"));
  sluice_config_panel_set_field_text (panel, "pool", "workers", "zero");
  g_assert_false (window_fixture_action_enabled (window, "win.compare"));
  g_assert_null (sluice_window_compare_with_file (window, b_path, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  sluice_config_panel_set_field_text (panel, "pool", "workers", "2");
  g_assert_true (window_fixture_action_enabled (window, "win.compare"));

  /* A B that is not a scenario: no window, an error. */
  g_assert_null (sluice_window_compare_with_file (window, "/nonexistent/b.pool", &error));
  g_assert_nonnull (error);

  window_fixture_close (window);
}

/* Closed while A runs: the run is cancelled, nothing is left alive. */
static void
test_compare_closed_while_running (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  g_autofree char *b_path = preset_path ("retry-storm");
  g_autoptr(GError) error = NULL;
  SluiceCompareWindow *compare = sluice_window_compare_with_file (window, b_path, &error);
  SluiceComparison *comparison;
  guint timeout_id;

  g_assert_no_error (error);
  comparison = sluice_compare_window_get_comparison (compare);
  g_object_add_weak_pointer (G_OBJECT (comparison), (gpointer *) &comparison);
  g_object_ref (compare);
  g_assert_true (sluice_compare_window_get_running (compare));
  gtk_window_destroy (GTK_WINDOW (compare));
  g_assert_finalize_object (compare);

  /* The comparison lives until its cancelled run has ended. */
  timeout_id = window_fixture_add_timeout ();
  while (comparison != NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
  window_fixture_close (window);
}

/* ---- at a projector's size ---------------------------------------------- */

/* The difference table: the grid with its style class (the window has
 * no getter for it; the tests read its cells' texts). */
static GtkGrid *
find_table (GtkWidget *widget)
{
  if (GTK_IS_GRID (widget) && gtk_widget_has_css_class (widget, "compare-table"))
    return GTK_GRID (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkGrid *table = find_table (child);

      if (table != NULL)
        return table;
    }
  return NULL;
}

/* retry-storm (10 workers) against retry-storm-jitter, ended, in a
 * window of @width × @height. */
static SluiceCompareWindow *
open_storms (SluiceWindow *window,
             int           width,
             int           height)
{
  g_autofree char *b_path = preset_path ("retry-storm-jitter");
  g_autoptr(GError) error = NULL;
  SluiceCompareWindow *compare = sluice_window_compare_with_file (window, b_path, &error);

  g_assert_no_error (error);
  g_object_ref (compare);
  gtk_window_set_default_size (GTK_WINDOW (compare), width, height);
  wait_for_comparison (compare);
  window_fixture_wait_for_frames (GTK_WIDGET (compare), 5);
  return compare;
}

/* @widget is shown whole: inside the window's @width × @height and inside
 * each of its parents, so no scrolled window or viewport hides a part. */
static void
assert_shown_whole (GtkWidget *widget,
                    GtkWidget *window,
                    int        width,
                    int        height)
{
  graphene_rect_t bounds;
  const char *text = GTK_IS_LABEL (widget) ? gtk_label_get_text (GTK_LABEL (widget)) : G_OBJECT_TYPE_NAME (widget);

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, window, &bounds));
  g_test_message ("%s: %.0f,%.0f %.0f×%.0f in %d×%d", text, bounds.origin.x, bounds.origin.y,
                  bounds.size.width, bounds.size.height, width, height);
  g_assert_cmpfloat (bounds.size.width, >, 0.);
  g_assert_cmpfloat (bounds.size.height, >, 0.);
  g_assert_true (graphene_rect_contains_rect (&GRAPHENE_RECT_INIT (0, 0, width, height), &bounds));

  for (GtkWidget *parent = gtk_widget_get_parent (widget);
       parent != NULL && parent != window;
       parent = gtk_widget_get_parent (parent))
    {
      graphene_rect_t box;

      g_assert_true (gtk_widget_compute_bounds (parent, window, &box));
      if (!graphene_rect_contains_rect (&box, &bounds))
        g_error ("%s: %.0f,%.0f %.0f×%.0f is cut by its %s at %.0f,%.0f %.0f×%.0f", text, bounds.origin.x,
                 bounds.origin.y, bounds.size.width, bounds.size.height, G_OBJECT_TYPE_NAME (parent),
                 box.origin.x, box.origin.y, box.size.width, box.size.height);
    }
}

/* On a 1024×768 projector, with the ten workers of two retry storms:
 * the window keeps that size, every row of the difference table (its
 * heading, and each cell of each row) and the scrubber are inside what
 * the window shows, in English and German; the lanes scroll instead. */
static void
test_compare_table_visible_at_1024x768 (gconstpointer data)
{
  const SluiceTestLanguage *language = data;
  GtkCssProvider *css;
  SluiceWindow *window;
  SluiceCompareWindow *compare;
  GtkGrid *table;
  int width, height;

  if (!sluice_test_try_language (language->language))
    return;
  css = window_fixture_add_app_style ();
  window = window_fixture_open ("retry-storm");
  compare = open_storms (window, 1024, 768);

  width = gtk_widget_get_width (GTK_WIDGET (compare));
  height = gtk_widget_get_height (GTK_WIDGET (compare));
  g_test_message ("the window: %d×%d", width, height);
  g_assert_cmpint (width, <=, 1024);
  g_assert_cmpint (height, <=, 768);
  /* It did not shrink either (GTK keeps a client-side frame's border). */
  g_assert_cmpint (width, >=, 1024 - 24);
  g_assert_cmpint (height, >=, 768 - 24);

  table = find_table (GTK_WIDGET (compare));
  g_assert_nonnull (table);
  for (int row = 0; row <= SLUICE_COMPARISON_N_ROWS; row++)
    for (int column = SLUICE_COMPARE_COLUMN_NAME; column <= SLUICE_COMPARE_COLUMN_DIFFERENCE; column++)
      assert_shown_whole (gtk_grid_get_child_at (table, column, row), GTK_WIDGET (compare), width, height);
  assert_shown_whole (sluice_compare_window_get_scrubber (compare), GTK_WIDGET (compare), width, height);

  gtk_window_destroy (GTK_WINDOW (compare));
  g_assert_finalize_object (compare);
  window_fixture_close (window);
  window_fixture_remove_app_style (css);
  sluice_test_set_language ("");
}

static double
font_size (GtkWidget *widget)
{
  const PangoFontDescription *font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));

  return (double) pango_font_description_get_size (font) / PANGO_SCALE;
}

static gboolean
has_tabular_figures (GtkLabel *label)
{
  PangoAttrList *attributes = pango_layout_get_attributes (gtk_label_get_layout (label));
  GSList *list = attributes != NULL ? pango_attr_list_get_attributes (attributes) : NULL;
  gboolean tabular = FALSE;

  for (GSList *l = list; l != NULL; l = l->next)
    {
      PangoAttribute *attribute = l->data;

      if (attribute->klass->type == PANGO_ATTR_FONT_FEATURES &&
          strstr (((PangoAttrFontFeatures *) attribute)->features, "tnum") != NULL)
        tabular = TRUE;
    }
  g_slist_free_full (list, (GDestroyNotify) pango_attribute_destroy);
  return tabular;
}

/* Read from the back of a room: the difference table's text is larger
 * than the window's body text; the numbers are right-aligned in tabular
 * figures, so that digits line up; a difference below zero starts with a
 * minus sign (−), as wide as the plus sign, not with a short hyphen (the
 * cell's text is still the comparison's, the one sluice-run prints). */
static void
test_compare_table_larger_than_body_tabular (void)
{
  GtkCssProvider *css = window_fixture_add_app_style ();
  SluiceWindow *window = window_fixture_open ("retry-storm");
  SluiceCompareWindow *compare = open_storms (window, 1024, 768);
  GtkGrid *table;
  GtkLabel *elapsed;
  double body;

  g_assert_nonnull (compare);
  table = find_table (GTK_WIDGET (compare));
  g_assert_nonnull (table);
  body = font_size (GTK_WIDGET (compare));
  g_test_message ("body text: %.1f", body);
  for (int row = 0; row <= SLUICE_COMPARISON_N_ROWS; row++)
    for (int column = SLUICE_COMPARE_COLUMN_NAME; column <= SLUICE_COMPARE_COLUMN_DIFFERENCE; column++)
      {
        GtkLabel *cell = GTK_LABEL (gtk_grid_get_child_at (table, column, row));

        g_test_message ("%s: %.1f", gtk_label_get_text (cell), font_size (GTK_WIDGET (cell)));
        g_assert_cmpfloat (font_size (GTK_WIDGET (cell)), >=, body * 1.15);
        if (column != SLUICE_COMPARE_COLUMN_NAME)
          {
            g_assert_cmpfloat (gtk_label_get_xalign (cell), ==, 1.f);
            g_assert_true (has_tabular_figures (cell));
          }
      }

  /* B, with jitter, ends sooner than A. */
  elapsed = GTK_LABEL (gtk_grid_get_child_at (table, SLUICE_COMPARE_COLUMN_DIFFERENCE, SLUICE_COMPARISON_ELAPSED + 1));
  g_assert_true (g_str_has_prefix (sluice_compare_window_get_cell (compare, SLUICE_COMPARISON_ELAPSED,
                                                                    SLUICE_COMPARE_COLUMN_DIFFERENCE), "-0."));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (elapsed), "−0."));
  g_assert_cmpstr (gtk_label_get_text (elapsed) + strlen ("−"), ==,
                   sluice_compare_window_get_cell (compare, SLUICE_COMPARISON_ELAPSED,
                                                   SLUICE_COMPARE_COLUMN_DIFFERENCE) + 1);

  gtk_window_destroy (GTK_WINDOW (compare));
  g_assert_finalize_object (compare);
  window_fixture_close (window);
  window_fixture_remove_app_style (css);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/compare/two-presets", test_compare_two_presets);
  g_test_add_func ("/window/compare/action-enabled", test_compare_action_enabled);
  g_test_add_func ("/window/compare/closed-while-running", test_compare_closed_while_running);
  g_test_add_data_func ("/window/compare/table-visible-at-1024x768/en", &sluice_test_languages[0],
                        test_compare_table_visible_at_1024x768);
  g_test_add_data_func ("/window/compare/table-visible-at-1024x768/de", &sluice_test_languages[1],
                        test_compare_table_visible_at_1024x768);
  g_test_add_func ("/window/compare/table-larger-than-body-tabular", test_compare_table_larger_than_body_tabular);

  return g_test_run ();
}
