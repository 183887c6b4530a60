/* test-run-model.c: a run's events folded once, by its model, agree with
 * the headless report; what a model shows at a moment is a seek
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <json-glib/json-glib.h>

#include "run-fixture.h"
#include "sluice-run-model.h"
#include "sluice-scenario-runner.h"

typedef struct {
  SluiceScenario *scenario;
  SluiceRecorder *recorder;
  SluiceReport   *report;
  SluiceRunModel *model;
} Run;

static void
run_clear (Run *run)
{
  g_clear_object (&run->model);
  g_clear_object (&run->report);
  g_clear_object (&run->recorder);
  g_clear_object (&run->scenario);
}

/* @scenario run headless on the virtual clock, and its model once the
 * run has ended, as the window makes it. */
static void
run_scenario (Run            *run,
              SluiceScenario *scenario)
{
  g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (scenario);
  g_autoptr(GError) error = NULL;

  run->scenario = g_object_ref (scenario);
  run->recorder = sluice_recorder_new (0);
  sluice_scenario_runner_set_recorder (runner, run->recorder);
  run->model = sluice_run_model_new (scenario, run->recorder);
  sluice_run_model_set_live (run->model, TRUE);
  run->report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  sluice_run_model_set_live (run->model, FALSE);
  sluice_run_model_update (run->model, 0);
}

static char *
describe_lints (SluiceLinter *linter)
{
  GPtrArray *lints = sluice_linter_get_lints (linter);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < lints->len; i++)
    {
      const SluiceLint *lint = g_ptr_array_index (lints, i);
      g_autofree char *message = sluice_lint_dup_message (lint, FALSE);

      g_string_append_printf (text, "%s on %" G_GINT64_FORMAT " off %" G_GINT64_FORMAT ": %s\n",
                              sluice_lint_kind_to_string (sluice_lint_get_kind (lint)),
                              sluice_lint_get_on (lint), sluice_lint_get_off (lint), message);
    }
  return g_string_free (text, FALSE);
}

/* A service's job table: every job the report lists, in the state its
 * ending says ("ok", "cancelled", or the error's type name). */
static void
assert_jobs_agree (Run        *run,
                   JsonObject *report)
{
  SluiceJobTable *table = sluice_run_model_get_jobs (run->model);
  JsonObject *jobs;
  g_autoptr(GList) members = NULL;

  if (sluice_scenario_get_mode (run->scenario) != SLUICE_SCENARIO_MODE_SUBMIT)
    {
      g_assert_null (table);
      return;
    }

  jobs = json_object_get_object_member (report, "jobs");
  members = json_object_get_members (jobs);
  g_assert_cmpuint (sluice_job_table_get_n_rows (table), ==, g_list_length (members));
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *ending = json_object_get_string_member (jobs, l->data);
      gint position = sluice_job_table_find (table, g_ascii_strtoll (l->data, NULL, 10));
      SluiceJobState expected = g_str_equal (ending, "ok") ? SLUICE_JOB_SUCCEEDED
                                : g_str_equal (ending, "cancelled") ? SLUICE_JOB_CANCELLED
                                : SLUICE_JOB_FAILED;

      g_assert_cmpint (position, >=, 0);
      g_assert_cmpint (sluice_job_table_get_row (table, position)->state, ==, expected);
    }
}

/* The model's figures against the report's: the lints the same, the
 * counters' final numbers those of the report. */
static void
assert_model_agrees (Run        *run,
                     const char *name,
                     gboolean    only_items_fail)
{
  g_autofree char *model_lints = describe_lints (sluice_run_model_get_linter (run->model));
  g_autofree char *report_lints = describe_lints (sluice_report_get_linter (run->report));
  g_autoptr(JsonNode) node = sluice_report_to_json (run->report);
  JsonObject *report = json_node_get_object (node);
  SluiceLiveStats *stats = sluice_run_model_get_stats (run->model);
  guint results = json_array_get_length (json_object_get_array_member (report, "results"));

  g_test_message ("%s", name);
  g_assert_cmpstr (model_lints, ==, report_lints);
  assert_jobs_agree (run, report);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_PULLED), ==,
                    json_object_get_int_member (report, "pulled"));
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SHED), ==,
                    json_object_get_int_member (report, "shed"));
  /* The error group's errors are the report's recorded errors (a
   * service's failed jobs go to their callers, not to a group). */
  if (sluice_scenario_get_mode (run->scenario) == SLUICE_SCENARIO_MODE_STREAM)
    g_assert_cmpuint (g_list_model_get_n_items (sluice_error_list_get_errors (sluice_run_model_get_errors (run->model))), ==,
                    json_object_get_int_member (report, "group_size"));
  /* Each failed item is one error of the group, when nothing else (the
   * source, a fatal error) adds one. */
  if (only_items_fail)
    g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_FAILED), ==,
                      json_object_get_int_member (report, "group_size"));
  if (sluice_scenario_get_mode (run->scenario) == SLUICE_SCENARIO_MODE_STREAM)
    g_assert_cmpuint (sluice_run_model_get_n_results_shown (run->model), ==, results);
  /* The report rounds its seconds to the millisecond. */
  g_assert_cmpfloat_with_epsilon ((double) sluice_live_stats_get_elapsed (stats) / G_USEC_PER_SEC,
                                  json_object_get_double_member (report, "elapsed"), 0.0006);
}

static void
test_run_model_agrees_with_report_on_presets (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *file;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, file, NULL);
      const char *sets[] = { "run.clock=virtual", NULL };
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = NULL;
      Run run = { 0 };

      if (!g_str_has_suffix (file, ".pool"))
        continue;
      scenario = sluice_scenario_new_from_file (path, NULL, &error);
      g_assert_no_error (error);
      /* Blocking handlers spend real time: not on the virtual clock. */
      if (sluice_scenario_needs_real_time (scenario))
        continue;
      g_clear_object (&scenario);
      scenario = sluice_scenario_new_from_file (path, sets, &error);
      g_assert_no_error (error);
      run_scenario (&run, scenario);
      assert_model_agrees (&run, file, FALSE);
      run_clear (&run);
      n++;
    }
  g_assert_cmpuint (n, >=, 10);
}

static void
test_run_model_agrees_with_report_on_random_scenarios (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *text = run_fixture_random_scenario (rand);
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_data (text, -1, "random.pool", NULL, &error);
      Run run = { 0 };

      g_assert_no_error (error);
      run_scenario (&run, scenario);
      assert_model_agrees (&run, text, TRUE);
      run_clear (&run);
    }
}

/* A seek shows the run at the playhead, and a seek back to the end shows
 * the end again: the state at a moment is a seek, never a replay that
 * leaves something of another moment behind. */
static void
test_run_model_seek_shows_the_moment (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset ("retry-storm", NULL, &scenario);
  g_autoptr(SluiceRunModel) model = sluice_run_model_new (scenario, recorder);
  SluiceLiveStats *stats = sluice_run_model_get_stats (model);
  guint end_succeeded, end_results;
  gint64 end, middle;

  sluice_run_model_update (model, 0);
  end = sluice_run_model_get_now (model);
  end_succeeded = sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED);
  end_results = sluice_run_model_get_n_results_shown (model);
  g_assert_cmpuint (end_succeeded, >, 0);
  g_assert_cmpint (sluice_run_model_get_moment (model), ==, end);
  g_assert_cmpuint (sluice_run_model_get_position (model), ==, G_MAXUINT64);

  sluice_run_model_seek (model, sluice_run_model_get_end (model)->start_time);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED), ==, 0);
  g_assert_cmpuint (sluice_run_model_get_n_results_shown (model), ==, 0);

  middle = (sluice_run_model_get_end (model)->start_time + end) / 2;
  sluice_run_model_seek (model, middle);
  g_assert_cmpint (sluice_run_model_get_moment (model), ==, middle);
  g_assert_cmpuint (sluice_run_model_get_last (model)->time, <=, middle);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED), <=, end_succeeded);
  g_assert_cmpuint (sluice_run_model_get_position (model), <, sluice_recorder_get_end_position (recorder));

  sluice_run_model_seek (model, -1);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_SUCCEEDED), ==, end_succeeded);
  g_assert_cmpuint (sluice_run_model_get_n_results_shown (model), ==, end_results);
  g_assert_cmpint (sluice_run_model_get_moment (model), ==, end);
}

/* A live run shows now: a playhead waits for its end. */
static void
test_run_model_live_run_ignores_the_playhead (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset ("first-look", NULL, &scenario);
  g_autoptr(SluiceRunModel) model = sluice_run_model_new (scenario, recorder);

  sluice_run_model_set_live (model, TRUE);
  sluice_run_model_update (model, 0);
  g_assert_null (sluice_run_model_get_finished_fold (model));
  sluice_run_model_seek (model, 0);
  g_assert_cmpuint (sluice_run_model_get_position (model), ==, G_MAXUINT64);
  g_assert_cmpuint (sluice_live_stats_get (sluice_run_model_get_stats (model), SLUICE_LIVE_STAT_SUCCEEDED), ==, 3);

  sluice_run_model_set_live (model, FALSE);
  g_assert_nonnull (sluice_run_model_get_finished_fold (model));
}

/* A pool's own snapshot bounds what the counters say while it runs, and
 * busy never exceeds the workers, whatever events were lost. */
static void
test_run_model_snapshot_bounds_busy (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset ("first-look", NULL, &scenario);
  g_autoptr(SluiceRunModel) model = sluice_run_model_new (scenario, recorder);
  SluiceLiveStats *stats = sluice_run_model_get_stats (model);

  sluice_run_model_set_live (model, TRUE);
  sluice_run_model_set_snapshot (model, 16, 2, 7);
  sluice_run_model_update (model, 0);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_WORKERS), ==, 2);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_BUSY), ==, 2);
  g_assert_cmpuint (sluice_live_stats_get (stats, SLUICE_LIVE_STAT_QUEUED), ==, 7);
}

/* How @timeline's bars look now, read from every bar. */
static guint
scan_bar_looks (SluiceTimeline *timeline)
{
  guint looks = 0;

  for (guint i = 0; i < sluice_timeline_get_n_bars (timeline); i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (timeline, i);

      switch (bar->outcome)
        {
        case SLUICE_OUTCOME_OK:        looks |= 1u << SLUICE_TIMELINE_BAR_OK; break;
        case SLUICE_OUTCOME_FAILED:    looks |= 1u << (bar->retried ? SLUICE_TIMELINE_BAR_RETRIED
                                                                    : SLUICE_TIMELINE_BAR_FAILED); break;
        case SLUICE_OUTCOME_TIMED_OUT: looks |= 1u << SLUICE_TIMELINE_BAR_TIMED_OUT; break;
        case SLUICE_OUTCOME_CANCELLED: looks |= 1u << SLUICE_TIMELINE_BAR_CANCELLED; break;
        case SLUICE_OUTCOME_NONE:
        default:                       looks |= 1u << SLUICE_TIMELINE_BAR_RUNNING; break;
        }
      if (bar->deadline >= 0 && (bar->end < 0 || bar->deadline <= bar->end))
        looks |= 1u << SLUICE_TIMELINE_BAR_DEADLINE;
      if (bar->n_rounds > 0)
        looks |= 1u << SLUICE_TIMELINE_BAR_CANCEL_REQUEST;
    }
  return looks;
}

/* @all's events handed to a timeline a few at a time, as frames do: after
 * each handful, the looks it kept are those of its bars. Returns the
 * looks at the end. */
static guint
assert_bar_looks_kept (SluiceRecorder *all,
                       guint           workers)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceTimeline) timeline = sluice_timeline_new (workers);
  guint n = sluice_recorder_get_n_events (all);

  for (guint i = 0; i < n; i++)
    {
      sluice_recorder_add (recorder, sluice_recorder_get_event (all, i));
      if (i % 3 != 2 && i + 1 < n)
        continue;
      sluice_timeline_update (timeline, recorder);
      g_assert_cmphex (sluice_timeline_get_bar_looks (timeline), ==, scan_bar_looks (timeline));
    }
  return sluice_timeline_get_bar_looks (timeline);
}

/* The lanes' key says how the bars look at every frame: the timeline keeps
 * it as its bars change (a bar starts, is asked to stop, ends, is cut by
 * lost events), so that no frame reads every bar for it (issue 24, item
 * 7). On every preset and on random scenarios, after every few events,
 * the looks it kept are those read from every bar. */
static void
test_run_model_bar_looks_kept_as_bars_change (void)
{
  const char *presets[] = { "first-look", "retry-storm", "fail", "mix", "hang", "deadline-shed",
                            "shutdown-deadline", "cancel-after-seconds", "late", "retries", NULL };
  g_autoptr(GRand) rand = g_rand_new_with_seed (g_test_rand_int ());
  guint seen = 0;

  for (guint i = 0; presets[i] != NULL; i++)
    {
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(SluiceRecorder) all = run_fixture_record_preset (presets[i], NULL, &scenario);

      g_test_message ("%s", presets[i]);
      seen |= assert_bar_looks_kept (all, (guint) sluice_scenario_get_workers (scenario));
    }
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *text = run_fixture_random_scenario (rand);
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_data (text, -1, "random.pool", NULL, &error);
      Run run = { 0 };

      g_assert_no_error (error);
      run_scenario (&run, scenario);
      seen |= assert_bar_looks_kept (run.recorder, (guint) sluice_scenario_get_workers (scenario));
      run_clear (&run);
    }
  /* The runs showed more than successes. */
  g_assert_true (seen & (1u << SLUICE_TIMELINE_BAR_OK));
  g_assert_true (seen & (1u << SLUICE_TIMELINE_BAR_FAILED));
  g_assert_true (seen & (1u << SLUICE_TIMELINE_BAR_TIMED_OUT));
  g_assert_true (seen & (1u << SLUICE_TIMELINE_BAR_DEADLINE));
}

/* A local run's events are linted once (issue 24, item 7): its report
 * lints them as they happen, and a model that shows the report's linter
 * feeds it none of the events it reads, so that linter saw each event of
 * the run once and the model's lints are the report's. */
static void
test_run_model_lints_each_event_once (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) unused = run_fixture_record_preset ("retry-storm", NULL, &scenario);
  g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (scenario);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceRunModel) model = sluice_run_model_new (scenario, recorder);
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  SluiceLinter *linter;

  sluice_scenario_runner_set_recorder (runner, recorder);
  sluice_run_model_set_live (model, TRUE);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  linter = sluice_report_get_linter (report);
  sluice_run_model_share_linter (model, linter);
  sluice_run_model_set_live (model, FALSE);
  sluice_run_model_update (model, 0);

  g_assert_true (sluice_run_model_get_linter (model) == linter);
  g_assert_cmpuint (sluice_recorder_get_n_events (recorder), >, 0);
  g_assert_cmpuint (sluice_linter_get_n_events (linter), ==, sluice_recorder_get_n_events (recorder));
  g_assert_cmpuint (sluice_linter_get_lints (linter)->len, >, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-model/agrees-with-report/presets", test_run_model_agrees_with_report_on_presets);
  g_test_add_func ("/run-model/agrees-with-report/random-scenarios",
                   test_run_model_agrees_with_report_on_random_scenarios);
  g_test_add_func ("/run-model/seek-shows-the-moment", test_run_model_seek_shows_the_moment);
  g_test_add_func ("/run-model/live-run-ignores-the-playhead", test_run_model_live_run_ignores_the_playhead);
  g_test_add_func ("/run-model/snapshot-bounds-busy", test_run_model_snapshot_bounds_busy);
  g_test_add_func ("/run-model/lints-each-event-once", test_run_model_lints_each_event_once);
  g_test_add_func ("/run-model/bar-looks-kept-as-bars-change", test_run_model_bar_looks_kept_as_bars_change);
  return g_test_run ();
}
