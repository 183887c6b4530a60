/* test-run-controller.c: the run controller without any view (under Xvfb)
 *
 * It makes a run model per run and includes no view header: this file
 * includes none either.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>

#include "sluice-run-controller.h"

typedef struct {
  guint           n_updated;
  guint           n_models;
  gboolean        ended;
} Watch;

static void
on_updated (SluiceRunModel *model,
            gboolean        new_events,
            Watch          *watch)
{
  watch->n_updated++;
}

static void
on_model (SluiceRunController *run,
          GParamSpec          *pspec,
          Watch               *watch)
{
  watch->n_models++;
  g_signal_connect (sluice_run_controller_get_model (run), "updated", G_CALLBACK (on_updated), watch);
}

static void
on_running (SluiceRunController *run,
            GParamSpec          *pspec,
            Watch               *watch)
{
  if (!sluice_run_controller_get_running (run))
    watch->ended = TRUE;
}

static gboolean
on_timeout (gpointer user_data)
{
  g_error ("the run did not end within 60 s");
  return G_SOURCE_REMOVE;
}

static void
run_to_end (SluiceRunController *run,
            SluiceScenario      *scenario,
            Watch               *watch)
{
  guint timeout;

  watch->ended = FALSE;
  g_assert_true (sluice_run_controller_start (run, scenario));
  g_assert_true (sluice_run_controller_get_running (run));
  g_assert_true (sluice_run_model_get_live (sluice_run_controller_get_model (run)));
  g_assert_nonnull (sluice_run_controller_get_handler (run));

  timeout = g_timeout_add_seconds (60, on_timeout, NULL);
  while (!watch->ended)
    g_main_context_iteration (NULL, TRUE);
  /* The last update comes right after the run ends. */
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_source_remove (timeout);
}

/* The controller makes a model per run and knows no view; the model folds
 * the run's events once, and a reset or a new run is a new model: the one
 * a view held keeps what it showed, and the controller's shows the new run
 * only. */
static void
test_run_controller_new_model_per_run (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "first-look.pool", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (path, NULL, &error);
  GtkWidget *window = gtk_window_new ();
  SluiceRunController *run;
  g_autoptr(SluiceRunModel) first = NULL;
  SluiceRunModel *model;
  SluiceLiveStats *stats;
  SluiceTimeline *timeline;
  Watch watch = { 0 };

  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (window));

  run = sluice_run_controller_new (window);
  model = sluice_run_controller_get_model (run);
  g_assert_true (SLUICE_IS_RUN_MODEL (model));
  g_assert_false (sluice_run_model_get_has_run (model));
  g_assert_null (sluice_run_model_get_timeline (model));
  g_assert_null (sluice_run_model_get_recorder (model));

  g_signal_connect (run, "notify::model", G_CALLBACK (on_model), &watch);
  g_signal_connect (run, "notify::running", G_CALLBACK (on_running), &watch);

  sluice_run_controller_set_instant (run, TRUE);
  run_to_end (run, scenario, &watch);
  g_assert_cmpuint (watch.n_models, ==, 2);   /* the reset's idle one, then the run's */
  g_assert_cmpuint (watch.n_updated, >, 0);

  first = g_object_ref (sluice_run_controller_get_model (run));
  g_assert_false (sluice_run_model_get_live (first));
  stats = sluice_run_model_get_stats (first);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED), ==, 3);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_PULLED), ==, 3);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_FAILED), ==, 0);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_WORKERS), ==, 3);
  g_assert_cmpint (sluice_live_stats_get_elapsed (stats), >, 0);
  timeline = sluice_run_model_get_timeline (first);
  g_assert_cmpuint (sluice_timeline_get_n_bars (timeline), ==, 3);
  g_assert_cmpint (sluice_run_model_get_now (first), >=, sluice_timeline_get_end_time (timeline));
  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_run_model_get_recorder (first)), >, 0);
  g_assert_cmpuint (sluice_run_model_get_n_results_shown (first), ==, 3);
  g_assert_nonnull (sluice_run_model_get_report (first));
  g_assert_nonnull (sluice_run_model_get_finished_fold (first));

  /* A reset is a new model without a run; the old one keeps its run. */
  sluice_run_controller_set_configured_workers (run, 5);
  sluice_run_controller_reset (run);
  model = sluice_run_controller_get_model (run);
  g_assert_true (model != first);
  g_assert_false (sluice_run_model_get_has_run (model));
  g_assert_cmpuint (sluice_live_stats_get (sluice_run_model_get_stats (model), SLUICE_LIVE_STAT_SUCCEEDED), ==, 0);
  g_assert_cmpuint (sluice_live_stats_get (sluice_run_model_get_stats (model), SLUICE_LIVE_STAT_WORKERS), ==, 5);
  g_assert_cmpint (sluice_run_model_get_moment (model), ==, -1);
  g_assert_cmpuint (sluice_timeline_get_n_bars (timeline), ==, 3);

  /* Run again: another model, which starts from nothing. */
  run_to_end (run, scenario, &watch);
  model = sluice_run_controller_get_model (run);
  g_assert_true (model != first);
  g_assert_cmpuint (sluice_live_stats_get (sluice_run_model_get_stats (model), SLUICE_LIVE_STAT_SUCCEEDED), ==, 3);
  g_assert_cmpuint (sluice_run_model_get_n_results_shown (model), ==, 3);
  g_assert_cmpuint (sluice_run_model_get_n_results_shown (first), ==, 3);

  g_signal_handlers_disconnect_by_data (run, &watch);
  g_signal_handlers_disconnect_by_data (first, &watch);
  g_signal_handlers_disconnect_by_data (model, &watch);
  g_assert_finalize_object (run);
  g_assert_finalize_object (g_steal_pointer (&first));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-controller/new-model-per-run", test_run_controller_new_model_per_run);
  return g_test_run ();
}
