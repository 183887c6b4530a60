/* test-timeline-gap.c: events that never came (an attached program's ring
 * dropped them) in the recorder and the timeline model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * docs/monitoring.md: a monitor that falls behind gets a lost count and carries
 * on. The recorder keeps where the gap is (sluice_recorder_add_gap()); the
 * timeline resynchronises there: attempts still open end at the gap (an end
 * that comes later still counts), which items the workers hold is learnt
 * again from the next events, and the moment is marked on the time axis. So
 * nothing outlives what the model cannot know: no phantom bars, and never
 * more busy workers than the pool has. The run is the retries preset on the
 * virtual clock, with a stretch of its events left out.
 */

#include "sluice-scenario-runner.h"
#include "sluice-timeline.h"

typedef struct {
  SluiceScenario *scenario;
  SluiceRecorder *recorder;
} Recorded;

static void
recorded_clear (Recorded *run)
{
  g_clear_object (&run->scenario);
  g_clear_object (&run->recorder);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Recorded, recorded_clear)

static void
record_preset (const char *name,
               Recorded   *run)
{
  g_autofree char *file = g_strconcat (name, ".pool", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
  const char *sets[] = { "run.clock=virtual", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;

  run->scenario = sluice_scenario_new_from_file (path, sets, &error);
  g_assert_no_error (error);
  run->recorder = sluice_recorder_new (0);
  runner = sluice_scenario_runner_new (run->scenario);
  sluice_scenario_runner_set_recorder (runner, run->recorder);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
}

/* The index of the first attempt-end at or after @from. */
static guint
find_attempt_end (SluiceRecorder *recorder,
                  guint           from)
{
  for (guint i = from; i < sluice_recorder_get_n_events (recorder); i++)
    if (sluice_recorder_get_event (recorder, i)->kind == SLUICE_EVENT_ATTEMPT_END)
      return i;
  g_assert_not_reached ();
  return 0;
}

/* @source's events without those from @first to @last, with the gap
 * noted where they were. */
static SluiceRecorder *
copy_with_gap (SluiceRecorder *source,
               guint           first,
               guint           last)
{
  SluiceRecorder *copy = sluice_recorder_new (0);

  for (guint i = 0; i < sluice_recorder_get_n_events (source); i++)
    {
      if (i == first)
        sluice_recorder_add_gap (copy, last - first + 1);
      if (i >= first && i <= last)
        continue;
      sluice_recorder_add (copy, sluice_recorder_get_event (source, i));
    }
  return copy;
}

static guint
n_open_bars (SluiceTimeline *model)
{
  guint open = 0;

  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    if (sluice_timeline_get_bar (model, i)->end < 0)
      open++;
  return open;
}

/* An attempt's end lost: its bar ends at the gap, not never. */
static void
test_gap_ends_the_attempts_it_hid (void)
{
  g_auto(Recorded) run = { 0 };
  g_autoptr(SluiceRecorder) gapped = NULL;
  g_autoptr(SluiceTimeline) model = NULL;
  guint end, workers;
  const SluiceEvent *after;

  record_preset ("retries", &run);
  workers = (guint) sluice_scenario_get_workers (run.scenario);
  end = find_attempt_end (run.recorder, 10);
  gapped = copy_with_gap (run.recorder, end, end + 3);
  after = sluice_recorder_get_event (run.recorder, end + 4);

  g_assert_cmpuint (sluice_recorder_get_n_lost (gapped), ==, 4);
  g_assert_cmpuint (sluice_recorder_get_lost_before (gapped, end), ==, 4);
  g_assert_cmpuint (sluice_recorder_get_lost_before (gapped, end + 1), ==, 0);

  model = sluice_timeline_new (workers);
  sluice_timeline_update (model, gapped);

  g_assert_cmpuint (n_open_bars (model), ==, 0);
  g_assert_true (sluice_timeline_has_moment_kind (model, SLUICE_TIMELINE_MOMENT_EVENTS_LOST));
  for (guint i = 0; i < sluice_timeline_get_n_moments (model); i++)
    if (sluice_timeline_get_moment (model, i)->kind == SLUICE_TIMELINE_MOMENT_EVENTS_LOST)
      g_assert_cmpint (sluice_timeline_get_moment (model, i)->time, ==, after->time);
  /* Never more busy workers than the pool has. */
  for (guint i = 0; i < sluice_timeline_get_n_samples (model); i++)
    g_assert_cmpuint (sluice_timeline_get_busy (model, i), <=, workers);
  g_assert_cmpuint (sluice_timeline_get_busy (model, sluice_timeline_get_n_samples (model) - 1), ==, 0);
}

/* Lost events anywhere in the run: whatever is left out, the model never
 * shows more busy workers than there are, and nothing stays open once the
 * run has ended. */
static void
test_any_gap_keeps_the_counts_in_bounds (void)
{
  g_auto(Recorded) run = { 0 };
  guint n, workers;

  record_preset ("retries", &run);
  workers = (guint) sluice_scenario_get_workers (run.scenario);
  n = sluice_recorder_get_n_events (run.recorder);
  /* Every gap of 1 to 5 events that keeps the run's end. */
  for (guint first = 1; first + 1 < n; first++)
    for (guint length = 1; length <= 5 && first + length < n - 1; length++)
      {
        g_autoptr(SluiceRecorder) gapped = copy_with_gap (run.recorder, first, first + length - 1);
        g_autoptr(SluiceTimeline) model = sluice_timeline_new (workers);

        sluice_timeline_update (model, gapped);
        g_assert_cmpuint (n_open_bars (model), ==, 0);
        for (guint i = 0; i < sluice_timeline_get_n_samples (model); i++)
          g_assert_cmpuint (sluice_timeline_get_busy (model, i), <=, workers);
      }
}

/* No gap: the recorder says nothing was lost, and the model marks nothing. */
static void
test_no_gap_marks_nothing (void)
{
  g_auto(Recorded) run = { 0 };
  g_autoptr(SluiceTimeline) model = NULL;

  record_preset ("retries", &run);
  model = sluice_timeline_new ((guint) sluice_scenario_get_workers (run.scenario));
  sluice_timeline_update (model, run.recorder);

  g_assert_cmpuint (sluice_recorder_get_n_lost (run.recorder), ==, 0);
  g_assert_false (sluice_timeline_has_moment_kind (model, SLUICE_TIMELINE_MOMENT_EVENTS_LOST));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline/gap/ends-the-attempts-it-hid", test_gap_ends_the_attempts_it_hid);
  g_test_add_func ("/timeline/gap/any-gap-keeps-the-counts-in-bounds", test_any_gap_keeps_the_counts_in_bounds);
  g_test_add_func ("/timeline/gap/none-marks-nothing", test_no_gap_marks_nothing);

  return g_test_run ();
}
