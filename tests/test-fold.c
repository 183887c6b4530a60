/* test-fold.c: a recorded run's state at any moment, folded incrementally
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "sluice-fold.h"
#include "sluice-fold-private.h"
#include "sluice-scenario-runner.h"

/* The state after each event, as the live run reported it: the event's own
 * counts, and the sums a fold keeps, counted here the plain way. */
typedef struct {
  SluiceEvent event;
  guint       counts[SLUICE_FOLD_N_COUNTS];
} LiveState;

typedef struct {
  GArray *states;
  guint   counts[SLUICE_FOLD_N_COUNTS];
} Live;

static void
on_live_event (const SluiceEvent *event,
               gpointer           user_data)
{
  Live *live = user_data;
  LiveState state = { .event = *event };

  live->counts[SLUICE_FOLD_TIMEOUTS] += event->kind == SLUICE_EVENT_ATTEMPT_END &&
                                        event->outcome == SLUICE_OUTCOME_TIMED_OUT;
  live->counts[SLUICE_FOLD_RETRIES_SKIPPED] += event->kind == SLUICE_EVENT_RETRY_SKIPPED;
  live->counts[SLUICE_FOLD_SHED] += event->kind == SLUICE_EVENT_DEADLINE_EXCEEDED;
  live->counts[SLUICE_FOLD_CANCELLED] += event->kind == SLUICE_EVENT_ITEM_CANCELLED;
  live->counts[SLUICE_FOLD_DROPPED] += event->kind == SLUICE_EVENT_ITEM_DROPPED;
  live->counts[SLUICE_FOLD_RESULTS] += event->kind == SLUICE_EVENT_RESULT;
  memcpy (state.counts, live->counts, sizeof state.counts);
  g_array_append_val (live->states, state);
}

/* Runs @preset on the virtual clock into a recorder, keeping the live
 * state after every event. */
static SluiceRecorder *
record_preset (const char *preset,
               Live       *live)
{
  const char *overrides[] = { "run.clock=virtual", NULL };
  g_autofree char *file = g_strconcat (preset, ".pool", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  SluiceRecorder *recorder = sluice_recorder_new (0);

  scenario = sluice_scenario_new_from_file (path, overrides, &error);
  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_recorder (runner, recorder);
  live->states = g_array_new (FALSE, FALSE, sizeof (LiveState));
  memset (live->counts, 0, sizeof live->counts);
  sluice_scenario_runner_set_event_func (runner, on_live_event, live, NULL);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  return recorder;
}

static void
assert_state (SluiceFold *fold,
              Live       *live)
{
  guint64 position = sluice_fold_get_position (fold);
  const SluiceEvent *last = sluice_fold_get_last (fold);

  if (position == 0)
    {
      g_assert_null (last);
      for (guint c = 0; c < SLUICE_FOLD_N_COUNTS; c++)
        g_assert_cmpuint (sluice_fold_get_count (fold, c), ==, 0);
      return;
    }

  {
    const LiveState *state = &g_array_index (live->states, LiveState, position - 1);

    g_assert_nonnull (last);
    g_assert_cmpint (last->kind, ==, state->event.kind);
    g_assert_cmpint (last->time, ==, state->event.time);
    g_assert_cmpuint (last->queued, ==, state->event.queued);
    g_assert_cmpuint (last->in_flight, ==, state->event.in_flight);
    g_assert_cmpuint (last->lead, ==, state->event.lead);
    g_assert_cmpuint (last->succeeded, ==, state->event.succeeded);
    for (guint c = 0; c < SLUICE_FOLD_N_COUNTS; c++)
      g_assert_cmpuint (sluice_fold_get_count (fold, c), ==, state->counts[c]);
  }
}

/* Forwards, backwards and in random jumps, the fold's state after N events
 * is the live run's after its N-th. */
static void
test_fold_equals_the_live_state (gconstpointer data)
{
  Live live;
  g_autoptr(SluiceRecorder) recorder = record_preset (data, &live);
  g_autoptr(SluiceFold) fold = sluice_fold_new (recorder);
  guint n = live.states->len;

  g_assert_cmpuint (sluice_fold_get_end_position (fold), ==, n);
  for (guint p = 0; p <= n; p++)
    {
      sluice_fold_seek (fold, p);
      assert_state (fold, &live);
    }
  for (guint p = n + 1; p-- > 0;)
    {
      sluice_fold_seek (fold, p);
      assert_state (fold, &live);
    }
  for (guint i = 0; i < 200; i++)
    {
      sluice_fold_seek (fold, g_test_rand_int_range (0, (gint32) n + 1));
      assert_state (fold, &live);
    }
  sluice_fold_seek (fold, n + 100);
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, n);

  g_array_unref (live.states);
}

/* The state at a time holds every event at or before it, those at that
 * very instant too; before the run nothing, after it everything. */
static void
test_fold_seek_time_includes_the_instant (void)
{
  Live live;
  g_autoptr(SluiceRecorder) recorder = record_preset ("first-look", &live);
  g_autoptr(SluiceFold) fold = sluice_fold_new (recorder);
  guint n = live.states->len;
  gint64 start = g_array_index (live.states, LiveState, 0).event.time;

  sluice_fold_seek_time (fold, start - 1);
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, 0);
  g_assert_cmpint (sluice_fold_get_start_time (fold), ==, -1);

  /* first-look: item 2 finishes at 0.1 s, item 1 at 0.2 s, item 0 at 0.3 s. */
  sluice_fold_seek_time (fold, start + 100000);
  g_assert_cmpint (sluice_fold_get_last (fold)->time, ==, start + 100000);
  g_assert_cmpuint (sluice_fold_get_count (fold, SLUICE_FOLD_RESULTS), ==, 1);
  g_assert_cmpint (sluice_fold_get_start_time (fold), ==, start);
  g_assert_true (sluice_fold_get_position (fold) == n ||
                 sluice_fold_get_event (fold, sluice_fold_get_position (fold))->time > start + 100000);

  sluice_fold_seek_time (fold, start + 199999);
  g_assert_cmpuint (sluice_fold_get_count (fold, SLUICE_FOLD_RESULTS), ==, 1);
  sluice_fold_seek_time (fold, start + 200000);
  g_assert_cmpuint (sluice_fold_get_count (fold, SLUICE_FOLD_RESULTS), ==, 2);

  sluice_fold_seek_time (fold, G_MAXINT64);
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, n);
  g_assert_cmpint (sluice_fold_get_last (fold)->kind, ==, SLUICE_EVENT_RUN_END);
  g_assert_cmpuint (sluice_fold_get_count (fold, SLUICE_FOLD_RESULTS), ==, 3);

  g_array_unref (live.states);
}

/* Ten results into a recorder of four, @fold reading the first two as
 * they come: it is left behind at position 2. */
static void
add_ten_results_reading_two (SluiceRecorder *recorder,
                             SluiceFold     *fold)
{
  for (guint i = 0; i < 10; i++)
    {
      SluiceEvent event = { .kind = SLUICE_EVENT_RESULT, .time = i, .item = i };

      sluice_recorder_add (recorder, &event);
      if (i == 1)
        sluice_fold_seek_end (fold);
    }
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, 2);
}

/* A bounded recorder drops its oldest events: the fold keeps its sums
 * and cannot move back over what is gone. */
static void
test_fold_stops_at_dropped_events (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);
  g_autoptr(SluiceFold) fold = sluice_fold_new (recorder);

  add_ten_results_reading_two (recorder, fold);
  sluice_fold_seek_end (fold);
  /* Events 2 to 5 were dropped before the fold read them: skipped. */
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, 10);
  g_assert_cmpuint (sluice_fold_get_first_position (fold), ==, 6);
  sluice_fold_seek (fold, 0);
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, 6);
  g_assert_null (sluice_fold_get_last (fold));
  g_assert_cmpuint (sluice_fold_find_position (fold, 7), ==, 8);
}

/* A fold left behind by the ring, sent forwards to a position the ring
 * has dropped, lands on the oldest event held: it can neither fold the
 * events that are gone nor move back over them. */
static void
test_fold_seek_into_dropped_events (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);
  g_autoptr(SluiceFold) fold = sluice_fold_new (recorder);

  add_ten_results_reading_two (recorder, fold);
  sluice_fold_seek (fold, 4);
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, 6);
  g_assert_cmpuint (sluice_fold_get_count (fold, SLUICE_FOLD_RESULTS), ==, 2);
  sluice_fold_seek (fold, 8);
  g_assert_cmpuint (sluice_fold_get_position (fold), ==, 8);
  g_assert_cmpint (sluice_fold_get_last (fold)->item, ==, 7);
  g_assert_cmpuint (sluice_fold_get_count (fold, SLUICE_FOLD_RESULTS), ==, 4);
}

/* A run of some 15,000 events (2,000 items: successes, retried failures,
 * failures for good and timeouts, keep-going), on the virtual clock. */
static SluiceRecorder *
record_long_run (void)
{
  static const char text[] =
    "[pool]\nworkers=8\nqueue-size=8\nitem-timeout=0.5\nmax-retries=1\nretryable=ConnectionError\n"
    "keep-going=true\n[source]\ncount=2000\n[handler]\n"
    "mix=83% ok 0.05, 12% fail 1 ConnectionError 0.01, 3% fail-always ValueError 0.02, 2% hang\n"
    "seed=7\n[run]\nclock=virtual\n";
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  SluiceRecorder *recorder = sluice_recorder_new (0);

  scenario = sluice_scenario_new_from_data (text, -1, "long-run", NULL, &error);
  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_recorder (runner, recorder);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  return recorder;
}

/* The reads a seek to @time makes, and the events it moves over. */
static guint64
seek_time_counting (SluiceFold *fold,
                    gint64      time,
                    guint64    *moved)
{
  guint64 reads = _sluice_fold_get_n_reads (fold);
  guint64 before = sluice_fold_get_position (fold);
  guint64 after;

  sluice_fold_seek_time (fold, time);
  after = sluice_fold_get_position (fold);
  *moved = after > before ? after - before : before - after;
  return _sluice_fold_get_n_reads (fold) - reads;
}

/* Scrubbing is incremental: a drag across the run in steps of 1% of its
 * time, from the end to the start and back, reads from the recorder the
 * events each step moves over, about 1% of them, and the few a bisection
 * for the step's time needs; never the run from its start. (Re-folding
 * from the first event at each move would read some fifty times as many.) */
static void
test_fold_moves_are_incremental (void)
{
  g_autoptr(SluiceRecorder) recorder = record_long_run ();
  g_autoptr(SluiceFold) fold = sluice_fold_new (recorder);
  guint64 n = sluice_fold_get_end_position (fold);
  gint64 start = sluice_fold_get_event (fold, 0)->time;
  gint64 span = sluice_fold_get_event (fold, n - 1)->time - start;
  guint64 bisect = g_bit_storage (n) + 1;
  guint64 total_reads = 0, total_moved = 0, reads, moved;

  g_assert_cmpuint (n, >, 10000);
  sluice_fold_seek_end (fold);

  for (int i = 199; i >= 0; i--)
    {
      int step = i >= 100 ? i - 100 : 100 - i;   /* 99 ... 0, then 1 ... 100 */
      gint64 time = start + span * step / 100;

      reads = seek_time_counting (fold, time, &moved);
      g_assert_cmpuint (moved, <=, n / 20);
      g_assert_cmpuint (reads, <=, moved + bisect);
      total_reads += reads;
      total_moved += moved;
      g_assert_cmpuint (sluice_fold_get_position (fold), ==, sluice_fold_find_position (fold, time));
    }
  /* Every event twice, less those at the run's first instant. */
  g_assert_cmpuint (total_moved, <=, 2 * n);
  g_assert_cmpuint (total_moved, >=, n);
  g_assert_cmpuint (total_reads, <=, total_moved + 200 * bisect);

  /* By position, one read per event moved over, either way. */
  sluice_fold_seek (fold, n / 2);
  reads = _sluice_fold_get_n_reads (fold);
  sluice_fold_seek (fold, n / 2 + 10);
  sluice_fold_seek (fold, n / 2 - 10);
  g_assert_cmpuint (_sluice_fold_get_n_reads (fold) - reads, ==, 30);
  /* A jump to the middle of the second half reads what is between. */
  reads = seek_time_counting (fold, start + span * 3 / 4, &moved);
  g_assert_cmpuint (reads, <=, moved + bisect);
  g_assert_cmpuint (moved, <, n / 2);
}

int
main (int   argc,
      char *argv[])
{
  static const char *presets[] = { "retries", "shutdown-deadline", "deadline-shed", "cancel-after-seconds",
                                   "service-abandoned-job", "stop-after" };

  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autofree char *name = g_strdup_printf ("/fold/state-after-n-events-is-the-live-runs/%s", presets[i]);

      g_test_add_data_func (name, presets[i], test_fold_equals_the_live_state);
    }
  g_test_add_func ("/fold/state-at-a-time-includes-its-instant", test_fold_seek_time_includes_the_instant);
  g_test_add_func ("/fold/cannot-move-back-over-dropped-events", test_fold_stops_at_dropped_events);
  g_test_add_func ("/fold/seek-into-dropped-events-lands-on-the-first-held", test_fold_seek_into_dropped_events);
  g_test_add_func ("/fold/moves-read-the-events-moved-over", test_fold_moves_are_incremental);

  return g_test_run ();
}
