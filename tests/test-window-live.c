/* test-window-live.c: the live window as a person uses it, under Xvfb:
 * Run, let it end, Reset, Run again; Next Lesson; Pause, Resume, Cancel;
 * the window hidden during a run. Through the actions the buttons and
 * shortcuts call, on the paced clock with a real frame clock (not the
 * batch options, not an instant run). meson runs it under
 * GSK_RENDERER=cairo and under the default renderer (GL on Xvfb, where
 * frames are slow: runs used to stall there).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "sluice-error-group-view.h"
#include "sluice-explain-view.h"
#include "sluice-lesson-panel.h"
#include "sluice-report-view.h"
#include "sluice-timeline.h"
#include "sluice-viewport.h"
#include "run-fixture.h"
#include "window-fixture.h"
#include "test-helpers.h"

/* A run that does not end within this much wall time has stalled: the
 * presets below play in well under a second at their speed. */
#define RUN_LIMIT_S 20

static gboolean
on_limit (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates until @window's run ended or @limit_us of wall time passed (a
 * person's patience: the wall clock is the point). Returns whether it
 * ended. */
static gboolean
wait_for_end_within (SluiceWindow *window,
                     gint64        limit_us)
{
  gboolean late = FALSE;
  guint id = g_timeout_add ((guint) (limit_us / 1000), on_limit, &late);

  while (sluice_window_get_running (window) && !late)
    g_main_context_iteration (NULL, TRUE);
  if (!late)
    g_source_remove (id);
  return !sluice_window_get_running (window);
}

static void
activate (SluiceWindow *window,
          const char   *action)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
}

/* As the pause button does: its action is the clock controls'. */
static void
toggle_pause (SluiceWindow *window)
{
  GtkWidget *controls = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);

  g_assert_nonnull (controls);
  g_assert_true (gtk_widget_activate_action (controls, "clock.pause", NULL));
}

static const char *
counter (SluiceWindow  *window,
         SluiceCounter  which)
{
  return sluice_window_get_counter (window, which);
}

static const char *
explain_text (SluiceWindow *window)
{
  return sluice_explain_view_get_text (SLUICE_EXPLAIN_VIEW (sluice_window_get_explain_view (window)));
}

/* What a person reads at the end of a run: the numbers that must be the
 * same on every run of a deterministic scenario. */
static char *
end_state (SluiceWindow *window)
{
  return g_strdup_printf ("pulled %s, succeeded %s, failed %s, retries %s, busy %s, elapsed %s",
                          counter (window, SLUICE_COUNTER_PULLED),
                          counter (window, SLUICE_COUNTER_SUCCEEDED),
                          counter (window, SLUICE_COUNTER_FAILED),
                          counter (window, SLUICE_COUNTER_RETRIES),
                          counter (window, SLUICE_COUNTER_BUSY),
                          counter (window, SLUICE_COUNTER_ELAPSED));
}

static void
run_to_the_end (SluiceWindow *window)
{
  activate (window, "win.run");
  g_assert_true (sluice_window_get_running (window));
  if (!wait_for_end_within (window, RUN_LIMIT_S * G_USEC_PER_SEC))
    g_error ("the run stalled: %s", end_state (window));
}

/* Run → end → Reset → Run again, twenty times: every run ends, every run
 * shows the same end, and a reset clears what the last one showed. */
static void
test_window_live_run_reset_run_again (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  g_autofree char *first = NULL;
  g_autofree char *first_explain = NULL;

  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  for (guint i = 0; i < 20; i++)
    {
      g_autofree char *state = NULL;

      run_to_the_end (window);
      window_fixture_wait_for_frames (GTK_WIDGET (window), 1);
      state = end_state (window);
      if (first == NULL)
        {
          first = g_strdup (state);
          first_explain = g_strdup (explain_text (window));
          g_test_message ("end of the run: %s", first);
        }
      g_assert_cmpstr (state, ==, first);
      g_assert_cmpstr (explain_text (window), ==, first_explain);

      activate (window, "win.reset");
      window_fixture_wait_for_frames (GTK_WIDGET (window), 1);
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_SUCCEEDED), ==, "0");
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_PULLED), ==, "0");
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_ELAPSED), ==, "0.00 s");
      g_assert_cmpstr (explain_text (window), !=, first_explain);
    }
  /* The retries preset: 8 pulled, 6 succeeded, 2 failed, 3 retries. */
  g_assert_true (g_str_has_prefix (first, "pulled 8, succeeded 6, failed 2, retries 3, busy 0 of 3"));
  window_fixture_close (window);
}

/* Run again without a reset: the second run starts from nothing. */
static void
test_window_live_run_again_without_reset (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  g_autofree char *first = NULL;

  run_to_the_end (window);
  first = end_state (window);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *state = NULL;

      run_to_the_end (window);
      state = end_state (window);
      g_assert_cmpstr (state, ==, first);
    }
  window_fixture_close (window);
}

static SluiceLessonPanel *
lesson_panel (SluiceWindow *window)
{
  return SLUICE_LESSON_PANEL (sluice_window_get_lesson_panel (window));
}

/* The end of the run in the banner is the report's elapsed time. */
static void
assert_banner_says_elapsed (SluiceWindow *window)
{
  JsonNode *report = sluice_run_model_get_report (sluice_run_controller_get_model (sluice_window_get_run_controller (window)));
  g_autofree char *elapsed = NULL;
  char *banner_end = NULL;

  g_assert_nonnull (report);
  elapsed = g_strdup_printf ("%.2f s", json_object_get_double_member (json_node_get_object (report), "elapsed"));
  g_test_message ("banner: %s; the report's elapsed: %s", sluice_window_get_banner (window), elapsed);
  banner_end = strstr (sluice_window_get_banner (window), elapsed);
  g_assert_nonnull (banner_end);
}

static void
wait_for_reveal (SluiceWindow *window)
{
  guint timeout_id = window_fixture_add_timeout ();

  while (!sluice_lesson_panel_get_revealed (lesson_panel (window)))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

/* Next Lesson three times: each lesson's run ends, and before it runs no
 * view shows the lesson before's run (its moment, its workers). */
static void
test_window_live_next_lesson (void)
{
  SluiceWindow *window = window_fixture_new ();

  g_assert_true (sluice_window_open_lesson (window, "completion-order"));
  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *busy = NULL;
      g_autofree char *of_workers = NULL;
      g_autofree char *moment = NULL;
      SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
      SluiceScenario *scenario = sluice_config_panel_get_scenario (panel);
      gint64 playhead;

      /* Nothing of a run before this lesson's. */
      busy = g_strdup_printf ("0 of %d", sluice_scenario_get_workers (scenario));
      of_workers = g_strdup_printf (" of %d", sluice_scenario_get_workers (scenario));
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_BUSY), ==, busy);
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_PULLED), ==, "0");
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_ELAPSED), ==, "0.00 s");
      g_assert_cmpint (sluice_viewport_get_playhead (sluice_window_get_viewport (window)), <, 0);
      g_assert_false (g_str_has_prefix (explain_text (window), "0."));

      g_assert_true (sluice_window_choose (window, 1));
      run_to_the_end (window);
      wait_for_reveal (window);
      /* The reveal shows this run at the lesson's moment: its workers, and
       * Explain at the playhead. */
      g_assert_true (g_str_has_suffix (counter (window, SLUICE_COUNTER_BUSY), of_workers));
      g_assert_cmpstr (counter (window, SLUICE_COUNTER_PULLED), !=, "0");
      playhead = sluice_viewport_get_playhead (sluice_window_get_viewport (window));
      moment = g_strdup_printf ("%.3f s", (double) playhead / G_USEC_PER_SEC);
      g_test_message ("lesson %u: busy %s, banner: %s, Explain: %s", i + 1, counter (window, SLUICE_COUNTER_BUSY),
                      sluice_window_get_banner (window), explain_text (window));
      g_assert_true (g_str_has_prefix (explain_text (window), moment));
      assert_banner_says_elapsed (window);

      if (i < 3)
        activate (window, "win.next-lesson");
      window_fixture_wait_for_frames (GTK_WIDGET (window), 1);
    }
  window_fixture_close (window);
}

static double
elapsed_s (SluiceWindow *window)
{
  return g_ascii_strtod (counter (window, SLUICE_COUNTER_ELAPSED), NULL);
}

/* Pause holds the run and its time (Elapsed never goes back), Resume goes
 * on, Cancel ends the run within a second. */
static void
test_window_live_pause_resume_cancel (void)
{
  SluiceWindow *window = window_fixture_open ("hang");
  double before, paused_at;
  gint64 cancelled_at;

  activate (window, "win.run");
  window_fixture_wait_for_frames (GTK_WIDGET (window), 5);
  g_assert_true (sluice_window_get_running (window));

  before = elapsed_s (window);
  toggle_pause (window);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 1);
  paused_at = elapsed_s (window);
  g_assert_cmpfloat (paused_at, >=, before);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 5);
  g_assert_cmpfloat (elapsed_s (window), ==, paused_at);
  g_assert_true (sluice_window_get_running (window));

  toggle_pause (window);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 5);
  g_assert_cmpfloat (elapsed_s (window), >=, paused_at);

  cancelled_at = g_get_monotonic_time ();
  activate (window, "win.cancel");
  g_assert_true (wait_for_end_within (window, G_USEC_PER_SEC));
  g_test_message ("cancel ended the run after %.3f s", (g_get_monotonic_time () - cancelled_at) / 1e6);
  window_fixture_close (window);
}

/* Cancel while paused also ends the run. */
static void
test_window_live_cancel_while_paused (void)
{
  SluiceWindow *window = window_fixture_open ("hang");

  activate (window, "win.run");
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  toggle_pause (window);
  activate (window, "win.cancel");
  g_assert_true (wait_for_end_within (window, G_USEC_PER_SEC));
  window_fixture_close (window);
}

/* A hidden window draws no frames: the run still ends, with the same end
 * as a shown one. */
static void
test_window_live_hidden_window (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  g_autofree char *shown = NULL;
  g_autofree char *hidden = NULL;

  run_to_the_end (window);
  shown = end_state (window);
  activate (window, "win.reset");

  activate (window, "win.run");
  gtk_widget_set_visible (GTK_WIDGET (window), FALSE);
  if (!wait_for_end_within (window, RUN_LIMIT_S * G_USEC_PER_SEC))
    g_error ("the run stalled while the window was hidden");
  gtk_widget_set_visible (GTK_WIDGET (window), TRUE);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 1);
  hidden = end_state (window);
  g_assert_cmpstr (hidden, ==, shown);
  window_fixture_close (window);
}

/* ---- what a screen reader (and a check through it) finds -------------- */

/* A button named by what it shows: no raw label ("_Run", read before the
 * shown "Run"), and the shown text without the mnemonic. */
static void
assert_named_by_label (SluiceWindow *window,
                       const char   *action_name,
                       const char   *shown)
{
  GtkWidget *button = window_fixture_find_actionable (GTK_WIDGET (window), action_name);
  GtkWidget *label;

  g_assert_nonnull (button);
  g_assert_false (gtk_test_accessible_has_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL));
  label = window_fixture_find_widget (button, GTK_TYPE_LABEL);
  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, shown);
}

static void
test_window_live_accessible_names_read_as_the_labels (void)
{
  SluiceWindow *window = window_fixture_open ("retries");
  GtkWidget *panel;
  GtkWidget *drop_down;
  guint radios = 0;

  assert_named_by_label (window, "win.run", "Run");
  assert_named_by_label (window, "win.reset", "Reset");
  assert_named_by_label (window, "win.cancel", "Cancel");

  g_assert_true (sluice_window_open_lesson (window, "completion-order"));
  assert_named_by_label (window, "win.run", "Run to Find Out");

  /* The choices are one of several: radio buttons. */
  panel = sluice_window_get_lesson_panel (window);
  for (GtkWidget *w = window_fixture_find_widget (panel, GTK_TYPE_CHECK_BUTTON); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_CHECK_BUTTON (w))
      {
        gtk_test_accessible_assert_role (GTK_ACCESSIBLE (w), GTK_ACCESSIBLE_ROLE_RADIO);
        radios++;
      }
  g_assert_cmpuint (radios, ==, 3);

  /* A drop-down's button is named by its row, not by its type. */
  drop_down = window_fixture_find_widget (sluice_window_get_config_panel (window), GTK_TYPE_DROP_DOWN);
  g_assert_nonnull (drop_down);
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (window_fixture_find_widget (drop_down, GTK_TYPE_TOGGLE_BUTTON)),
                                       GTK_ACCESSIBLE_PROPERTY_LABEL, "Metrics");
  window_fixture_close (window);
}

/* ---- every view agrees with the headless report ----------------------- */

static JsonObject *
headless_report (const char *path)
{
  const char *argv[] = { g_getenv ("SLUICE_RUN"), path, "--json", NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  gint status;

  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static guint
sum_attempts (JsonObject *report,
              gboolean    retries_only)
{
  JsonObject *attempts = json_object_get_object_member (report, "attempts");
  g_autoptr(GList) members = json_object_get_members (attempts);
  guint sum = 0;

  for (GList *l = members; l != NULL; l = l->next)
    {
      guint n = (guint) json_object_get_int_member (attempts, l->data);

      sum += retries_only ? (n > 0 ? n - 1 : 0) : n;
    }
  return sum;
}

static void
assert_counter_is (SluiceWindow  *window,
                   SluiceCounter  which,
                   guint          expected)
{
  g_autofree char *text = g_strdup_printf ("%u", expected);

  g_assert_cmpstr (counter (window, which), ==, text);
}

static void
assert_views_agree (SluiceWindow *window,
                    JsonObject   *report,
                    guint         workers)
{
  guint pulled = (guint) json_object_get_int_member (report, "pulled");
  guint succeeded = json_array_get_length (json_object_get_array_member (report, "results"));
  guint failed = (guint) json_object_get_int_member (report, "group_size");
  SluiceTimeline *timeline = sluice_run_model_get_timeline (sluice_run_controller_get_model (sluice_window_get_run_controller (window)));
  SluiceReportView *report_view = SLUICE_REPORT_VIEW (sluice_window_get_report_view (window));
  g_autofree char *busy = g_strdup_printf ("0 of %u", workers);
  g_autofree char *told = g_strdup_printf ("%u of %u item", succeeded, pulled);

  /* The counters. */
  assert_counter_is (window, SLUICE_COUNTER_PULLED, pulled);
  assert_counter_is (window, SLUICE_COUNTER_SUCCEEDED, succeeded);
  assert_counter_is (window, SLUICE_COUNTER_FAILED, failed);
  assert_counter_is (window, SLUICE_COUNTER_RETRIES, sum_attempts (report, TRUE));
  assert_counter_is (window, SLUICE_COUNTER_IN_FLIGHT, 0);
  g_assert_cmpstr (counter (window, SLUICE_COUNTER_BUSY), ==, busy);
  /* The results, the error group, the lanes' bars (one per attempt). */
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, succeeded);
  g_assert_cmpuint (sluice_error_group_view_get_n_errors (SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window))),
                    ==, failed);
  g_assert_cmpuint (sluice_timeline_get_n_bars (timeline), ==, sum_attempts (report, FALSE));
  /* Explain at the end, and the Report tab. */
  g_assert_nonnull (strstr (explain_text (window), told));
  g_assert_cmpstr (sluice_report_view_get_value (report_view, "outcome"), ==,
                   json_object_get_string_member (report, "outcome"));
  assert_banner_says_elapsed (window);
}

/* For random scenarios, what every view shows at the end of a live run is
 * what sluice-run reports for the same file. */
static void
test_window_live_views_agree_with_the_report (void)
{
  SluiceWindow *window = window_fixture_new ();
  GtkWidget *controls = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  g_autofree char *dir = g_dir_make_tmp ("sluice-live-XXXXXX", NULL);

  sluice_clock_controls_set_speed (SLUICE_CLOCK_CONTROLS (controls), 10.0);
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *text = run_fixture_random_scenario (rand);
      g_autofree char *path = g_build_filename (dir, "random.pool", NULL);
      g_autoptr(JsonObject) report = NULL;
      g_autoptr(GError) error = NULL;
      SluiceScenario *scenario;

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      g_test_message ("scenario %u:\n%s", i, text);
      sluice_window_load_file (window, path, &error);
      g_assert_no_error (error);
      report = headless_report (path);
      scenario = sluice_config_panel_get_scenario (SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window)));

      run_to_the_end (window);
      window_fixture_wait_for_frames (GTK_WIDGET (window), 1);
      assert_views_agree (window, report, (guint) sluice_scenario_get_workers (scenario));
      g_unlink (path);
    }
  g_rmdir (dir);
  window_fixture_close (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  sluice_test_set_language ("");

  g_test_add_func ("/window-live/run-reset-run-again", test_window_live_run_reset_run_again);
  g_test_add_func ("/window-live/run-again-without-reset", test_window_live_run_again_without_reset);
  g_test_add_func ("/window-live/next-lesson", test_window_live_next_lesson);
  g_test_add_func ("/window-live/pause-resume-cancel", test_window_live_pause_resume_cancel);
  g_test_add_func ("/window-live/cancel-while-paused", test_window_live_cancel_while_paused);
  g_test_add_func ("/window-live/hidden-window", test_window_live_hidden_window);
  g_test_add_func ("/window-live/accessible-names-read-as-the-labels",
                   test_window_live_accessible_names_read_as_the_labels);
  g_test_add_func ("/window-live/views-agree-with-the-report", test_window_live_views_agree_with_the_report);

  return g_test_run ();
}
