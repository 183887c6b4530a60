/* test-pool-paced.c: a run on a paced clock has the outcome of the same run
 * on a virtual clock, event for event, at any speed and however late the
 * main loop is (issue 12's deterministic playback)
 *
 * These tests take wall time on purpose: a paced clock follows it. The
 * speeds keep each run to a few milliseconds.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "pool-fixture.h"

typedef void (*SetupFunc) (Fixture *f);

/* What one run did, to compare across clocks. */
typedef struct {
  GArray    *events;   /* EventRecord */
  GPtrArray *results;  /* GVariant */
  GError    *end_error;
} Outcome;

static void
outcome_clear (Outcome *o)
{
  g_clear_pointer (&o->events, g_array_unref);
  g_clear_pointer (&o->results, g_ptr_array_unref);
  g_clear_error (&o->end_error);
}

/* A slow frame: a timeout that keeps the main loop busy for a while. */
static gboolean
slow_frame (gpointer user_data)
{
  /* A wall-clock wait on purpose: it is the lateness under test. */
  g_usleep (3000);
  return G_SOURCE_CONTINUE;
}

/* A teacher pressing → : a step from the main loop's default priority,
 * while the pool may still have work of the last instant queued. */
static gboolean
step_now (gpointer user_data)
{
  sluice_clock_step (user_data);
  return G_SOURCE_CONTINUE;
}

static void
run_to_end (Fixture *f)
{
  /* Blocking iterations: a paced clock waits for wall time in poll(). */
  for (guint i = 0; i < 100000 && !f->ended && !f->stalled; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (f->stalled);
  g_assert_true (f->ended);
}

typedef enum {
  PLAIN,
  SLOW_FRAMES,
  STEPS,
} Disturbance;

static void
run_once (SetupFunc    setup,
          double       pace,
          Disturbance  disturbance,
          Outcome     *out)
{
  Fixture f = { 0 };
  guint frames = 0;

  if (pace > 0)
    fixture_setup_paced (&f, &pace);
  else
    fixture_setup (&f, NULL);

  setup (&f);
  if (disturbance == SLOW_FRAMES)
    frames = g_timeout_add (5, slow_frame, NULL);
  else if (disturbance == STEPS)
    frames = g_timeout_add (1, step_now, f.clock);

  start_run (&f, range (12));
  run_to_end (&f);
  if (frames != 0)
    g_source_remove (frames);

  g_assert_cmpuint (f.end_live, ==, 0);
  assert_accounted (&f);
  out->events = g_array_ref (f.events);
  out->results = g_ptr_array_ref (f.results);
  out->end_error = g_steal_pointer (&f.end_error);
  fixture_teardown (&f, NULL);
}

static void
assert_same_outcome (const Outcome *a,
                     const Outcome *b)
{
  g_assert_cmpuint (a->events->len, ==, b->events->len);
  for (guint i = 0; i < a->events->len; i++)
    {
      const EventRecord *x = &g_array_index (a->events, EventRecord, i);
      const EventRecord *y = &g_array_index (b->events, EventRecord, i);

      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpint (x->time, ==, y->time);
      g_assert_cmpint (x->item, ==, y->item);
      g_assert_cmpuint (x->attempt, ==, y->attempt);
      g_assert_cmpint (x->worker, ==, y->worker);
      g_assert_cmpuint (x->round, ==, y->round);
      g_assert_cmpint (x->outcome, ==, y->outcome);
      g_assert_cmpint (x->delay, ==, y->delay);
      g_assert_cmpuint (x->queued, ==, y->queued);
      g_assert_cmpuint (x->in_flight, ==, y->in_flight);
    }

  g_assert_cmpuint (a->results->len, ==, b->results->len);
  for (guint i = 0; i < a->results->len; i++)
    g_assert_true (g_variant_equal (a->results->pdata[i], b->results->pdata[i]));

  if (a->end_error == NULL)
    g_assert_no_error (b->end_error);
  else
    g_assert_error (b->end_error, a->end_error->domain, a->end_error->code);
}

static void
check_paced_matches_virtual (gconstpointer data)
{
  SetupFunc setup = (SetupFunc) data;
  Outcome virtual = { 0 }, fast = { 0 }, slow = { 0 }, stepped = { 0 };

  run_once (setup, 0, PLAIN, &virtual);
  /* Ten thousand virtual seconds per wall second, and then ten with
   * a main loop that is busy for 3 ms of every 5. */
  run_once (setup, 10000.0, PLAIN, &fast);
  run_once (setup, 10.0, SLOW_FRAMES, &slow);
  /* Nearly stopped, and driven by a step every millisecond. */
  run_once (setup, 0.001, STEPS, &stepped);

  g_assert_cmpuint (virtual.events->len, >, 12);
  assert_same_outcome (&virtual, &fast);
  assert_same_outcome (&virtual, &slow);
  assert_same_outcome (&virtual, &stepped);

  outcome_clear (&virtual);
  outcome_clear (&fast);
  outcome_clear (&slow);
  outcome_clear (&stepped);
}

/* Scenarios {{{ */

static void
mixed_delays (Fixture *f)
{
  for (gint64 n = 0; n < 12; n++)
    script_set (f->script, n, DO_OK, 0.01 * (double) (n % 3 + 1), 0, NULL);
  make_pool (f, 4, 2, 1.0);
}

static void
retries_with_backoff (Fixture *f)
{
  f->script->fallback.delay = S (0.01);
  script_set (f->script, 1, DO_FAIL, 0.01, 2, "ConnectionError");
  script_set (f->script, 5, DO_FAIL, 0.02, 1, "ConnectionError");
  make_pool_props (f, 3, 2, 1.0, 3, "ConnectionError",
                   "backoff", SLUICE_BACKOFF_EXPONENTIAL, "backoff-base", 0.01,
                   "jitter", SLUICE_JITTER_FULL, "seed", 7, NULL);
}

static void
timeouts_and_cancel_rounds (Fixture *f)
{
  f->script->fallback.delay = S (0.01);
  script_set (f->script, 1, DO_HANG, 0.0, 0, NULL);
  script_set (f->script, 2, DO_STUBBORN, 0.05, 0, NULL);
  script_set (f->script, 4, DO_LATE, 0.2, 0, NULL);
  make_pool_full (f, 3, 2, 0.03, 0, NULL, TRUE);
}

static void
stop_after_results (Fixture *f)
{
  f->stop_after = 3;
  for (gint64 n = 0; n < 12; n++)
    script_set (f->script, n, DO_OK, 0.01 * (double) (n % 4 + 1), 0, NULL);
  make_pool (f, 2, 3, 1.0);
}

/* }}} */
/* The clock alone {{{ */

typedef struct {
  SluiceClock *clock;
  GArray      *at;  /* gint64: now() inside each callback */
} Fired;

static void
record_now (gpointer user_data)
{
  Fired *fired = user_data;
  gint64 now = sluice_clock_now (fired->clock);

  g_array_append_val (fired->at, now);
}

static void
test_paced_fires_each_timer_at_its_instant_when_late (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_PACED);
  Fired fired = { clock, g_array_new (FALSE, FALSE, sizeof (gint64)) };

  sluice_clock_set_speed (clock, 10.0);
  sluice_clock_add_timer (clock, S (0.01), record_now, &fired, NULL);
  sluice_clock_add_timer (clock, S (0.02), record_now, &fired, NULL);
  sluice_clock_add_timer (clock, S (0.03), record_now, &fired, NULL);

  /* The main loop is late by 20 ms of wall time, 0.2 s of the clock's:
   * every timer is overdue when it finally runs. A wall-clock wait on
   * purpose: the lateness is what is tested. */
  g_usleep (20000);
  while (fired.at->len < 3)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (g_array_index (fired.at, gint64, 0), ==, S (0.01));
  g_assert_cmpint (g_array_index (fired.at, gint64, 1), ==, S (0.02));
  g_assert_cmpint (g_array_index (fired.at, gint64, 2), ==, S (0.03));
  /* Time stays at the last instant, however far the pace has gone. */
  g_assert_cmpint (sluice_clock_now (clock), ==, S (0.03));
  g_array_unref (fired.at);
}

static void
test_paced_never_runs_ahead_of_its_pace (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_PACED);
  Fired fired = { clock, g_array_new (FALSE, FALSE, sizeof (gint64)) };

  /* An hour away at 1×: nothing due, whatever the main loop does. */
  sluice_clock_add_timer (clock, S (3600.0), record_now, &fired, NULL);
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (fired.at->len, ==, 0);
  g_assert_cmpint (sluice_clock_now (clock), ==, 0);

  /* A step jumps there at the next turn with nothing else to do. */
  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpuint (fired.at->len, ==, 0);
  while (fired.at->len < 1)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (g_array_index (fired.at, gint64, 0), ==, S (3600.0));
  g_array_unref (fired.at);
}

static void
test_paced_paused_does_not_move (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_PACED);
  Fired fired = { clock, g_array_new (FALSE, FALSE, sizeof (gint64)) };

  sluice_clock_set_speed (clock, 1000.0);
  sluice_clock_set_paused (clock, TRUE);
  sluice_clock_add_timer (clock, S (0.001), record_now, &fired, NULL);
  /* 5 ms of wall time would be 5 s of the clock's if it ran. A wall-clock
   * wait on purpose. */
  g_usleep (5000);
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (fired.at->len, ==, 0);

  sluice_clock_set_paused (clock, FALSE);
  while (fired.at->len < 1)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (g_array_index (fired.at, gint64, 0), ==, S (0.001));
  g_array_unref (fired.at);
}

static void
test_real_clock_measures_its_lateness (void)
{
  g_autoptr(SluiceClock) real = sluice_clock_new (SLUICE_CLOCK_REAL);
  g_autoptr(SluiceClock) paced = sluice_clock_new (SLUICE_CLOCK_PACED);
  Fired on_real = { real, g_array_new (FALSE, FALSE, sizeof (gint64)) };
  Fired on_paced = { paced, g_array_new (FALSE, FALSE, sizeof (gint64)) };

  sluice_clock_set_speed (paced, 1000.0);
  sluice_clock_add_timer (real, S (0.001), record_now, &on_real, NULL);
  sluice_clock_add_timer (paced, S (0.001), record_now, &on_paced, NULL);
  g_assert_cmpint (sluice_clock_get_max_lateness (real), ==, 0);

  /* A main loop busy for 20 ms: the real timer fires ~19 ms late, the
   * paced one at its instant. A wall-clock wait on purpose. */
  g_usleep (20000);
  while (on_real.at->len < 1 || on_paced.at->len < 1)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpint (sluice_clock_get_max_lateness (real), >=, S (0.018));
  g_assert_cmpint (g_array_index (on_real.at, gint64, 0), >=, S (0.019));
  g_assert_cmpint (sluice_clock_get_max_lateness (paced), ==, 0);
  g_assert_cmpint (g_array_index (on_paced.at, gint64, 0), ==, S (0.001));
  g_array_unref (on_real.at);
  g_array_unref (on_paced.at);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/paced/fires-each-timer-at-its-instant-when-late",
                   test_paced_fires_each_timer_at_its_instant_when_late);
  g_test_add_func ("/paced/never-runs-ahead-of-its-pace", test_paced_never_runs_ahead_of_its_pace);
  g_test_add_func ("/paced/paused-does-not-move", test_paced_paused_does_not_move);
  g_test_add_func ("/paced/real-clock-measures-its-lateness", test_real_clock_measures_its_lateness);

  g_test_add_data_func ("/paced/same-outcome-as-virtual/mixed-delays",
                        mixed_delays, check_paced_matches_virtual);
  g_test_add_data_func ("/paced/same-outcome-as-virtual/retries-with-backoff",
                        retries_with_backoff, check_paced_matches_virtual);
  g_test_add_data_func ("/paced/same-outcome-as-virtual/timeouts-and-cancel-rounds",
                        timeouts_and_cancel_rounds, check_paced_matches_virtual);
  g_test_add_data_func ("/paced/same-outcome-as-virtual/stop-after-results",
                        stop_after_results, check_paced_matches_virtual);

  return g_test_run ();
}
