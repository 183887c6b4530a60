/* test-run-controller.c: the run controller without any view (under Xvfb)
 *
 * It publishes models (the recorder, the timeline, the stats, the now
 * line) and includes no view header: this file includes none either.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>

#include "sluice-run-controller.h"

typedef struct {
  guint    n_updated;
  guint    n_stats_changed;
  gboolean saw_live;
  gboolean ended;
} Watch;

static void
on_updated (SluiceRunController *run,
            gboolean             live,
            gboolean             new_events,
            Watch               *watch)
{
  watch->n_updated++;
  watch->saw_live |= live;
}

static void
on_stats_changed (SluiceLiveStats *stats,
                  Watch           *watch)
{
  watch->n_stats_changed++;
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
test_run_controller_without_views (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "first-look.pool", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (path, NULL, &error);
  GtkWidget *window = gtk_window_new ();
  SluiceRunController *run;
  SluiceLiveStats *stats;
  SluiceTimeline *timeline = NULL;
  SluiceRecorder *recorder = NULL;
  Watch watch = { 0 };
  guint timeout;

  g_assert_no_error (error);
  gtk_window_present (GTK_WINDOW (window));

  run = sluice_run_controller_new (window);
  g_object_get (run, "stats", &stats, NULL);
  g_assert_true (SLUICE_IS_LIVE_STATS (stats));
  g_object_unref (stats);   /* the controller keeps it */
  g_object_get (run, "timeline", &timeline, "recorder", &recorder, NULL);
  g_assert_null (timeline);
  g_assert_null (recorder);

  g_signal_connect (run, "updated", G_CALLBACK (on_updated), &watch);
  g_signal_connect (stats, "changed", G_CALLBACK (on_stats_changed), &watch);
  g_signal_connect (run, "notify::running", G_CALLBACK (on_running), &watch);

  sluice_run_controller_set_instant (run, TRUE);
  g_assert_true (sluice_run_controller_start (run, scenario));
  g_assert_true (sluice_run_controller_get_running (run));
  g_assert_nonnull (sluice_run_controller_get_recorder (run));
  g_assert_nonnull (sluice_run_controller_get_timeline (run));
  g_assert_nonnull (sluice_run_controller_get_handler (run));

  timeout = g_timeout_add_seconds (60, on_timeout, NULL);
  while (!watch.ended)
    g_main_context_iteration (NULL, TRUE);
  /* The last update comes right after the run ends. */
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_source_remove (timeout);

  g_assert_cmpuint (watch.n_updated, >, 0);
  g_assert_cmpuint (watch.n_stats_changed, >, 0);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED), ==, 3);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_PULLED), ==, 3);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_FAILED), ==, 0);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_WORKERS), ==, 3);
  g_assert_cmpint (sluice_live_stats_get_elapsed (stats), >, 0);

  g_object_get (run, "timeline", &timeline, "recorder", &recorder, NULL);
  g_assert_true (SLUICE_IS_TIMELINE (timeline));
  g_assert_cmpuint (sluice_timeline_get_n_bars (timeline), ==, 3);
  g_assert_cmpint (sluice_run_controller_get_now (run), >=, sluice_timeline_get_end_time (timeline));
  g_assert_true (SLUICE_IS_RECORDER (recorder));
  g_assert_cmpuint (sluice_recorder_get_n_events (recorder), >, 0);
  g_assert_cmpuint (g_list_model_get_n_items (sluice_run_controller_get_results (run)), ==, 3);

  /* A reset lets go of the models; a view holding them keeps them. */
  sluice_run_controller_reset (run);
  g_assert_null (sluice_run_controller_get_timeline (run));
  g_assert_null (sluice_run_controller_get_recorder (run));
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED), ==, 0);
  g_assert_cmpuint (sluice_timeline_get_n_bars (timeline), ==, 3);
  g_clear_object (&timeline);
  g_clear_object (&recorder);

  g_signal_handlers_disconnect_by_data (stats, &watch);
  g_assert_finalize_object (run);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-controller/without-views", test_run_controller_without_views);
  return g_test_run ();
}
