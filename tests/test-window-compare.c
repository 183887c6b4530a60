/* test-window-compare.c: Compare…: the current configuration and a
 * scenario file on one workload, in a window of their own (teaching.md,
 * A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>
#include <string.h>

#include "sluice-chart-view.h"
#include "sluice-compare-window.h"
#include "sluice-config-panel.h"
#include "sluice-timeline-view.h"
#include "window-fixture.h"

static char *
preset_path (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".pool", NULL);

  return g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
}

/* @path run alone, as the compare window runs it: on the virtual clock. */
static SluiceReport *
run_alone (const char *path)
{
  const char * const overrides[] = { "run.clock=virtual", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (path, overrides, &error);
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  SluiceReport *report;

  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  return report;
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
  g_autofree char *ea_text = g_strdup_printf ("%.6f s", ea);
  g_autofree char *eb_text = g_strdup_printf ("%.6f s", eb);
  g_autofree char *ed_text = g_strdup_printf ("%+.6f s", eb - ea);
  g_autofree char *ta_text = g_strdup_printf ("%.3f/s", sa->succeeded / ea);
  g_autofree char *tb_text = g_strdup_printf ("%.3f/s", sb->succeeded / eb);
  g_autofree char *ratio = g_strdup_printf ("×%.3f", (sb->succeeded / eb) / (sa->succeeded / ea));

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

      g_assert_true (sluice_chart_view_get_viewport (chart) == viewport);
      g_assert_true (sluice_timeline_view_get_viewport (lanes) == viewport);
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
  g_autoptr(SluiceReport) a = run_alone (a_path);
  g_autoptr(SluiceReport) b = run_alone (b_path);
  g_autoptr(GError) error = NULL;
  SluiceCompareWindow *compare;
  SluiceViewport *viewport;
  GtkWidget *scrubber;
  gint64 start;

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));
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

  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));
  sluice_config_panel_set_field_text (panel, "pool", "workers", "zero");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));
  g_assert_null (sluice_window_compare_with_file (window, b_path, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  sluice_config_panel_set_field_text (panel, "pool", "workers", "2");
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "compare"));

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

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/compare/two-presets", test_compare_two_presets);
  g_test_add_func ("/window/compare/action-enabled", test_compare_action_enabled);
  g_test_add_func ("/window/compare/closed-while-running", test_compare_closed_while_running);

  return g_test_run ();
}
