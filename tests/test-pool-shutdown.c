/* test-pool-shutdown.c: fatal errors, the shutdown deadline and snapshots
 * (docs/submit-and-shutdown.md; seeds 001 and 002), on the virtual clock
 *
 * Expected times are reasoned from the spec and written in seconds; the
 * fixture's scripted handler succeeds with n² after its delay, honours a
 * cancellation at once (DO_OK, DO_FAIL_ALWAYS), ignores it (DO_LATE) or
 * honours only the second request (DO_STUBBORN).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <string.h>

#include "pool-fixture.h"

static const char *disk_full[] = { "DiskFull", NULL };

/* Workers, queue size, item timeout, and the rest as property pairs. */
#define make_pool_with(f, w, q, t, ...) \
  make_pool_props ((f), (w), (q), (t), 0, NULL, __VA_ARGS__)

static const GError *
only_error (Fixture *f)
{
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 1);
  return recorded_error (f, 0);
}

/* Fatal errors {{{ */

static void
make_disk_full_scenario (Fixture  *f,
                         gboolean  keep_going)
{
  /* W=2, Q=3: items 0 and 1 run at 0, items 2, 3 and 4 wait in the queue,
   * item 5 is held by the producer. Item 0 fails with DiskFull at 0.2. */
  make_pool_props (f, 2, 3, 10.0, 3, "DiskFull",
                   "fatal", disk_full, "keep-going", keep_going, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");
  f->script->fallback.delay = S (1.0);
}

static void
assert_disk_full_stop (Fixture *f)
{
  SluiceRunStats s = run_stats (f);

  /* Everything stops at 0.2 s: no drain, no retry (DiskFull is even
   * retryable), the source is not pulled again. */
  assert_group (f, 1);
  g_assert_cmpstr (sluice_error_type_name (only_error (f)), ==, "DiskFull");
  g_assert_true (only_error (f) == script_call (f->script, 0, 1)->error);
  g_assert_cmpint (f->end_time, ==, S (0.2));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 1);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_RETRY), ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_FATAL), ==, 1);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_STOP_REQUEST), ==, 0);
  g_assert_cmpint (item_outcome (f, 1), ==, SLUICE_OUTCOME_CANCELLED);
  g_assert_cmpuint (s.failed, ==, 1);
  g_assert_cmpuint (s.fatal, ==, 1);
  g_assert_cmpuint (s.cancelled, ==, 1);
  g_assert_cmpuint (s.dropped, ==, 4);
  g_assert_cmpuint (s.pulled, ==, 6);
  g_assert_cmpuint (f->metrics[2], ==, 1);
  g_assert_false (s.deadline_hit);
  assert_accounted (f);
}

static void
test_fatal_stops_at_once (Fixture       *f,
                          gconstpointer  data)
{
  make_disk_full_scenario (f, FALSE);
  drive (f, SLUICE_SOURCE (test_source_new (20)));
  assert_disk_full_stop (f);
}

static void
test_fatal_stops_even_with_keep_going (Fixture       *f,
                                       gconstpointer  data)
{
  make_disk_full_scenario (f, TRUE);
  drive (f, SLUICE_SOURCE (test_source_new (20)));
  assert_disk_full_stop (f);
}

static void
test_fatal_awaits_attempts_that_ignore_cancellation (Fixture       *f,
                                                     gconstpointer  data)
{
  /* Item 1 ignores the cancellation (late 3.0): the usual rounds, one item
   * timeout (1 s) apart, then the run waits until it returns at 3.0. */
  make_pool_props (f, 2, 1, 1.0, 0, NULL, "fatal", disk_full, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");
  script_set (f->script, 1, DO_LATE, 3.0, 0, NULL);

  drive (f, SLUICE_SOURCE (test_source_new (5)));

  assert_group (f, 1);
  g_assert_cmpint (f->end_time, ==, S (3.0));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (script_call (f->script, 1, 1)->rounds_seen, ==, 3);
  g_assert_cmpint (item_outcome (f, 1), ==, SLUICE_OUTCOME_CANCELLED);
  assert_accounted (f);
}

static void
test_fatal_during_the_stop_adds_its_error (Fixture       *f,
                                           gconstpointer  data)
{
  /* Items 0 and 1 both fail with DiskFull at 0.2: the first stops the
   * pool, the second ends in the same instant while it is being stopped,
   * and its error is a fatal one too: the group holds both. */
  make_pool_props (f, 2, 1, 1.0, 0, NULL, "fatal", disk_full, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");

  drive (f, SLUICE_SOURCE (test_source_new (5)));

  assert_group (f, 2);
  g_assert_true (recorded_error (f, 0) == script_call (f->script, 0, 1)->error);
  g_assert_true (recorded_error (f, 1) == script_call (f->script, 1, 1)->error);
  g_assert_cmpuint (run_stats (f).fatal, ==, 2);
  g_assert_cmpint (f->end_time, ==, S (0.2));
  assert_accounted (f);
}

static void
test_fatal_keeps_what_was_recorded_before (Fixture       *f,
                                           gconstpointer  data)
{
  /* keep-going: item 0's ValueError at 0.1 is recorded; item 1's DiskFull
   * at 0.2 stops the pool; the group holds both, in that order. */
  make_pool_props (f, 2, 1, 1.0, 0, NULL, "fatal", disk_full, "keep-going", TRUE, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");
  f->script->fallback.delay = S (1.0);

  drive (f, SLUICE_SOURCE (test_source_new (5)));

  assert_group (f, 2);
  g_assert_cmpstr (sluice_error_type_name (recorded_error (f, 0)), ==, "ValueError");
  g_assert_cmpstr (sluice_error_type_name (recorded_error (f, 1)), ==, "DiskFull");
  g_assert_cmpint (f->end_time, ==, S (0.2));
  assert_accounted (f);
}

static void
test_fatal_takes_no_budget_token (Fixture       *f,
                                  gconstpointer  data)
{
  make_pool_props (f, 1, 1, 1.0, 2, "DiskFull",
                   "fatal", disk_full, "retry-budget", 2.0, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");

  drive (f, SLUICE_SOURCE (test_source_new (1)));

  g_assert_cmpint (nth_event (f, SLUICE_EVENT_FATAL, 0)->tokens, ==, 2000);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ITEM_FAILED, 0)->tokens, ==, 2000);
}

static void
test_fatal_does_not_start_the_shutdown_clock (Fixture       *f,
                                              gconstpointer  data)
{
  /* Item 1 ignores the cancellation until 3.0; a 0.5 s shutdown deadline
   * would have cut it, but a fatal stop is no stop request. */
  make_pool_props (f, 2, 1, 1.0, 0, NULL,
                   "fatal", disk_full, "shutdown-timeout", 0.5, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.2, 0, "DiskFull");
  script_set (f->script, 1, DO_LATE, 3.0, 0, NULL);

  drive (f, SLUICE_SOURCE (test_source_new (5)));

  g_assert_false (run_stats (f).deadline_hit);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_SHUTDOWN_DEADLINE), ==, 0);
  g_assert_cmpint (f->end_time, ==, S (3.0));
}

static void
test_fatal_is_checked_before_retryable (Fixture       *f,
                                        gconstpointer  data)
{
  g_autoptr(GError) disk = sluice_named_error_new ("DiskFull", "no space");
  g_autoptr(GError) value = sluice_named_error_new ("ValueError", "bad");
  g_autoptr(GError) cancelled = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "x");

  make_pool_props (f, 1, 1, 1.0, 3, "DiskFull", "fatal", disk_full, NULL);

  g_assert_true (sluice_pool_is_fatal (f->pool, disk));
  g_assert_false (sluice_pool_is_fatal (f->pool, value));
  g_assert_false (sluice_pool_is_fatal (f->pool, cancelled));
  g_assert_cmpstrv (sluice_pool_get_fatal (f->pool), disk_full);
}

/* }}} */
/* The shutdown deadline {{{ */

/* W=1, Q=5, every item ok 1.0: a stop at 0.5 leaves item 0 running and
 * items 1–5 queued; the drain would take until 6.0. */
static void
make_slow_drain (Fixture *f,
                 double   shutdown_timeout)
{
  make_pool_with (f, 1, 5, 10.0, "shutdown-timeout", shutdown_timeout, NULL);
  f->script->fallback.delay = S (1.0);
  at (f, 0.5, ACT_STOP);
}

static void
test_deadline_bounds_a_slow_drain (Fixture       *f,
                                   gconstpointer  data)
{
  SluiceRunStats s;

  /* Deadline at 0.5 + 1.7 = 2.2: items 0 (1.0) and 1 (2.0) succeed; item
   * 2 runs since 2.0 and is cancelled; items 3–5 are dropped. */
  make_slow_drain (f, 1.7);
  drive (f, SLUICE_SOURCE (test_source_new (20)));

  s = run_stats (f);
  g_assert_no_error (f->end_error);
  g_assert_cmpint (f->end_time, ==, S (2.2));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_true (s.deadline_hit);
  g_assert_cmpuint (s.dropped_queued, ==, 3);
  g_assert_cmpuint (s.cancelled_in_flight, ==, 1);
  g_assert_cmpuint (s.overrun, ==, 0);
  g_assert_cmpint (item_outcome (f, 2), ==, SLUICE_OUTCOME_CANCELLED);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_SHUTDOWN_DEADLINE, 0)->time, ==, S (2.2));
  /* One cancellation request, not the timeout's three rounds. */
  g_assert_cmpuint (script_call (f->script, 2, 1)->rounds_seen, ==, 1);
  assert_accounted (f);
}

static void
test_deadline_not_hit_by_a_short_drain (Fixture       *f,
                                        gconstpointer  data)
{
  /* Deadline at 0.5 + 10 = 10.5; the drain ends at 6.0. */
  make_slow_drain (f, 10.0);
  drive (f, SLUICE_SOURCE (test_source_new (20)));

  g_assert_cmpint (f->end_time, ==, S (6.0));
  g_assert_cmpuint (f->results->len, ==, 6);
  g_assert_false (run_stats (f).deadline_hit);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_SHUTDOWN_DEADLINE), ==, 0);
  /* Its timer went with the run. */
  g_assert_cmpuint (sluice_clock_get_n_pending (f->clock), ==, 0);
}

static void
test_deadline_wins_its_tie (Fixture       *f,
                            gconstpointer  data)
{
  /* Item 0 (ok 1.2) started at 0, so its timer for 1.2 was scheduled
   * before the stop at 0.5; the deadline, 0.5 + 0.7, falls on the same µs
   * and still wins: item 0 ends cancelled, nothing succeeds. */
  make_slow_drain (f, 0.7);
  script_set (f->script, 0, DO_OK, 1.2, 0, NULL);
  drive (f, SLUICE_SOURCE (test_source_new (20)));

  g_assert_cmpint (f->end_time, ==, S (1.2));
  g_assert_cmpuint (f->results->len, ==, 0);
  g_assert_cmpint (item_outcome (f, 0), ==, SLUICE_OUTCOME_CANCELLED);
  g_assert_cmpuint (run_stats (f).dropped_queued, ==, 5);
}

static void
test_deadline_overrun_is_awaited_and_reported (Fixture       *f,
                                               gconstpointer  data)
{
  SluiceRunStats s;

  /* Item 1 (late 5.0, from 1.0) ignores the deadline's request at 2.2:
   * the run waits for it until 6.0, and reports it as an overrun. */
  make_slow_drain (f, 1.7);
  script_set (f->script, 1, DO_LATE, 5.0, 0, NULL);
  drive (f, SLUICE_SOURCE (test_source_new (20)));

  s = run_stats (f);
  g_assert_cmpint (f->end_time, ==, S (6.0));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_true (s.deadline_hit);
  g_assert_cmpuint (s.overrun, ==, 1);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_OVERRUN), ==, 1);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_OVERRUN, 0)->item, ==, 1);
  g_assert_cmpint (item_outcome (f, 1), ==, SLUICE_OUTCOME_CANCELLED);
  g_assert_cmpuint (s.cancelled_in_flight, ==, 1);
  assert_accounted (f);
}

static void
test_deadline_stops_timeout_rounds (Fixture       *f,
                                    gconstpointer  data)
{
  /* Item 0 ignores every cancellation (late 8.0) with a 1 s item timeout:
   * it times out at 1.0 (round 1); rounds 2 and 3 would come at 2.0 and
   * 3.0. The stop at 0.5 with a 1.2 s deadline fires at 1.7, inside the
   * rounds: one more request then, and no further rounds; the run waits
   * until 8.0 and counts the overrun. */
  make_pool_with (f, 1, 1, 1.0, "shutdown-timeout", 1.2, NULL);
  script_set (f->script, 0, DO_LATE, 8.0, 0, NULL);
  at (f, 0.5, ACT_STOP);
  drive (f, SLUICE_SOURCE (test_source_new (3)));

  g_assert_cmpint (f->end_time, ==, S (8.0));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL_REQUEST), ==, 2);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_CANCEL_REQUEST, 0)->time, ==, S (1.0));
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_CANCEL_REQUEST, 1)->time, ==, S (1.7));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_IGNORING_CANCEL), ==, 0);
  g_assert_cmpint (item_outcome (f, 0), ==, SLUICE_OUTCOME_CANCELLED);
  g_assert_cmpuint (run_stats (f).overrun, ==, 1);
  g_assert_cmpuint (f->end_live, ==, 0);
}

static void
test_deadline_starts_at_a_failure_stop (Fixture       *f,
                                        gconstpointer  data)
{
  /* Item 0 fails for good at 0.3 and requests the stop: the deadline is at
   * 0.3 + 0.5 = 0.8; item 1 (ok 2.0) is cancelled then. The outcome is
   * what the drain would have given: the group of item 0's error. */
  make_pool_with (f, 2, 2, 10.0, "shutdown-timeout", 0.5, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.3, 0, "ValueError");
  f->script->fallback.delay = S (2.0);
  drive (f, SLUICE_SOURCE (test_source_new (10)));

  assert_group (f, 1);
  g_assert_cmpint (f->end_time, ==, S (0.8));
  g_assert_true (run_stats (f).deadline_hit);
  g_assert_cmpint (item_outcome (f, 1), ==, SLUICE_OUTCOME_CANCELLED);
  assert_accounted (f);
}

static void
test_deadline_not_started_by_the_source_end_or_a_cancel (Fixture       *f,
                                                         gconstpointer  data)
{
  /* The source ends at once (2 items); nothing stops the run; the 0.5 s
   * deadline never starts, and the 1.0 s items finish. Then a cancel at
   * 0.5 of a second run is no stop request either. */
  make_pool_with (f, 2, 2, 10.0, "shutdown-timeout", 0.5, NULL);
  f->script->fallback.delay = S (1.0);
  drive (f, SLUICE_SOURCE (test_source_new (2)));

  g_assert_cmpint (f->end_time, ==, S (1.0));
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_false (run_stats (f).deadline_hit);
}

static void
never_called (SluiceAttempt *attempt,
              GTask         *task,
              gpointer       user_data)
{
  g_assert_not_reached ();
}

static void
test_shutdown_timeout_validated (Fixture       *f,
                                 gconstpointer  data)
{
  static const double bad[] = { -1.0, NAN, INFINITY, 1e-9 };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceHandler) handler = sluice_func_handler_new (never_called, NULL, NULL);
      GObject *pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                                      "handler", handler, "shutdown-timeout", bad[i], NULL);

      g_assert_null (pool);
      g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
      g_assert_nonnull (strstr (error->message, "shutdown-timeout"));
    }
}

/* }}} */
/* Snapshots {{{ */

static SluiceSnapshot *snapshot_during;

static void
take_snapshot (gpointer data)
{
  Fixture *f = data;

  g_clear_pointer (&snapshot_during, sluice_snapshot_unref);
  snapshot_during = sluice_run_get_snapshot (f->run);
}

/* keep-errors off (a job store's worker, which records its failures in
 * the store): failures are counted and are events, but the run keeps no
 * error, so it ends without a group; a fatal error is still kept. */
static void
test_keep_errors_off_keeps_no_error (Fixture       *f,
                                     gconstpointer  data)
{
  SluiceRunStats stats;

  make_pool_props (f, 2, 2, 10.0, 0, NULL, "keep-going", TRUE, "keep-errors", FALSE, NULL);
  g_assert_false (sluice_pool_get_keep_errors (f->pool));
  f->script->fallback.delay = S (0.1);
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 3, DO_FAIL_ALWAYS, 0.1, 0, "ConnectionError");
  drive (f, SLUICE_SOURCE (test_source_new (6)));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 0);
  stats = run_stats (f);
  g_assert_cmpuint (stats.failed, ==, 2);
  g_assert_cmpuint (stats.succeeded, ==, 4);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_ITEM_FAILED), ==, 2);
}

/* By default every failure is kept for the group. */
static void
test_keep_errors_on_by_default (Fixture       *f,
                                gconstpointer  data)
{
  make_pool_props (f, 2, 2, 10.0, 0, NULL, "keep-going", TRUE, NULL);
  g_assert_true (sluice_pool_get_keep_errors (f->pool));
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  drive (f, SLUICE_SOURCE (test_source_new (3)));
  assert_group (f, 1);
}

static void
test_snapshot_during_and_after (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(SluiceSnapshot) after = NULL;

  /* Seed 001's observed pool: twelve items on three workers, queue 4, each
   * ok 0.3 but item 4 fails. At 0.1 s: three busy, four queued. */
  make_pool_props (f, 3, 4, 10.0, 0, NULL, "keep-going", TRUE, NULL);
  f->script->fallback.delay = S (0.3);
  script_set (f->script, 4, DO_FAIL_ALWAYS, 0.3, 0, "ValueError");
  sluice_clock_add_timer (f->clock, S (0.1), take_snapshot, f, NULL);
  drive (f, SLUICE_SOURCE (test_source_new (12)));

  g_assert_nonnull (snapshot_during);
  g_assert_cmpint (sluice_snapshot_get_time (snapshot_during), ==, S (0.1));
  g_assert_cmpuint (sluice_snapshot_get_queue_depth (snapshot_during), ==, 4);
  g_assert_cmpuint (sluice_snapshot_get_queue_capacity (snapshot_during), ==, 4);
  g_assert_cmpuint (sluice_snapshot_get_busy_workers (snapshot_during), ==, 3);
  g_assert_cmpuint (sluice_snapshot_get_workers (snapshot_during), ==, 3);
  g_assert_cmpuint (sluice_snapshot_get_in_flight (snapshot_during), ==, 3);
  g_assert_cmpuint (sluice_snapshot_get_n_durations (snapshot_during), ==, 0);
  g_assert_cmpstrv (sluice_snapshot_get_outcome_names (snapshot_during), ((const char *[]) { NULL }));

  after = sluice_run_get_snapshot (f->run);
  g_assert_cmpint (sluice_snapshot_get_time (after), ==, S (1.2));
  g_assert_cmpuint (sluice_snapshot_get_queue_depth (after), ==, 0);
  g_assert_cmpuint (sluice_snapshot_get_busy_workers (after), ==, 0);
  g_assert_cmpuint (sluice_snapshot_get_in_flight (after), ==, 0);
  g_assert_cmpstrv (sluice_snapshot_get_outcome_names (after), ((const char *[]) { "ValueError", "ok", NULL }));
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "ok"), ==, 11);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "ValueError"), ==, 1);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "cancelled"), ==, 0);
  g_assert_cmpuint (sluice_snapshot_get_n_durations (after), ==, 12);
  g_assert_cmpint (sluice_snapshot_get_duration_mean (after), ==, S (0.3));
  g_assert_cmpint (sluice_snapshot_get_duration_p50 (after), ==, S (0.3));
  g_assert_cmpint (sluice_snapshot_get_duration_p95 (after), ==, S (0.3));
  g_assert_cmpint (sluice_snapshot_get_duration_max (after), ==, S (0.3));

  g_clear_pointer (&snapshot_during, sluice_snapshot_unref);
}

static GPtrArray *snapshots_taken;

static void
keep_snapshot (gpointer data)
{
  Fixture *f = data;

  g_ptr_array_add (snapshots_taken, sluice_run_get_snapshot (f->run));
}

/* Each snapshot counts every success so far, those before an earlier
 * snapshot too: the same pool, three ok by 0.35 s, five (item 4 failed)
 * by 0.65 s, eleven at the end. */
static void
test_snapshot_counts_successes_since_the_last (Fixture       *f,
                                               gconstpointer  data)
{
  g_autoptr(SluiceSnapshot) after = NULL;
  static const guint expected[] = { 3, 5 };

  snapshots_taken = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_snapshot_unref);
  make_pool_props (f, 3, 4, 10.0, 0, NULL, "keep-going", TRUE, NULL);
  f->script->fallback.delay = S (0.3);
  script_set (f->script, 4, DO_FAIL_ALWAYS, 0.3, 0, "ValueError");
  sluice_clock_add_timer (f->clock, S (0.35), keep_snapshot, f, NULL);
  sluice_clock_add_timer (f->clock, S (0.65), keep_snapshot, f, NULL);
  drive (f, SLUICE_SOURCE (test_source_new (12)));

  g_assert_cmpuint (snapshots_taken->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (sluice_snapshot_get_outcome_count (g_ptr_array_index (snapshots_taken, i), "ok"), ==,
                      expected[i]);
  after = sluice_run_get_snapshot (f->run);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "ok"), ==, 11);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "ValueError"), ==, 1);

  g_clear_pointer (&snapshots_taken, g_ptr_array_unref);
}

static void
test_snapshot_counts_dropped_as_cancelled (Fixture       *f,
                                           gconstpointer  data)
{
  g_autoptr(SluiceSnapshot) after = NULL;

  /* The fatal stop: item 1 cancelled in flight and items 2–4 dropped from
   * the queue count as cancelled; item 5, held by the producer, does not. */
  make_disk_full_scenario (f, FALSE);
  drive (f, SLUICE_SOURCE (test_source_new (20)));

  after = sluice_run_get_snapshot (f->run);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "DiskFull"), ==, 1);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "cancelled"), ==, 4);
}

static void
test_snapshot_durations_past_the_window (Fixture       *f,
                                         gconstpointer  data)
{
  g_autoptr(SluiceSnapshot) after = NULL;

  /* More attempts than the percentile window keeps: the count, mean and
   * maximum still cover all of them (the memory does not grow). */
  make_pool (f, 50, 50, 10.0);
  f->script->fallback.delay = S (0.1);
  script_set (f->script, 0, DO_OK, 0.4, 0, NULL);
  drive (f, SLUICE_SOURCE (test_source_new (5000)));

  after = sluice_run_get_snapshot (f->run);
  g_assert_cmpuint (sluice_snapshot_get_n_durations (after), ==, 5000);
  g_assert_cmpint (sluice_snapshot_get_duration_max (after), ==, S (0.4));
  g_assert_cmpint (sluice_snapshot_get_duration_mean (after), ==, (S (0.1) * 4999 + S (0.4)) / 5000);
  g_assert_cmpint (sluice_snapshot_get_duration_p95 (after), ==, S (0.1));
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/pool-shutdown/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("fatal/stops-at-once", test_fatal_stops_at_once);
  ADD ("fatal/stops-even-with-keep-going", test_fatal_stops_even_with_keep_going);
  ADD ("fatal/awaits-attempts-that-ignore-cancellation", test_fatal_awaits_attempts_that_ignore_cancellation);
  ADD ("fatal/during-the-stop-adds-its-error", test_fatal_during_the_stop_adds_its_error);
  ADD ("fatal/keeps-what-was-recorded-before", test_fatal_keeps_what_was_recorded_before);
  ADD ("fatal/takes-no-budget-token", test_fatal_takes_no_budget_token);
  ADD ("fatal/does-not-start-the-shutdown-clock", test_fatal_does_not_start_the_shutdown_clock);
  ADD ("fatal/is-checked-before-retryable", test_fatal_is_checked_before_retryable);
  ADD ("deadline/bounds-a-slow-drain", test_deadline_bounds_a_slow_drain);
  ADD ("deadline/not-hit-by-a-short-drain", test_deadline_not_hit_by_a_short_drain);
  ADD ("deadline/wins-its-tie", test_deadline_wins_its_tie);
  ADD ("deadline/overrun-is-awaited-and-reported", test_deadline_overrun_is_awaited_and_reported);
  ADD ("deadline/stops-timeout-rounds", test_deadline_stops_timeout_rounds);
  ADD ("deadline/starts-at-a-failure-stop", test_deadline_starts_at_a_failure_stop);
  ADD ("deadline/not-started-by-the-source-end", test_deadline_not_started_by_the_source_end_or_a_cancel);
  ADD ("deadline/shutdown-timeout-validated", test_shutdown_timeout_validated);
  ADD ("keep-errors/off-keeps-no-error", test_keep_errors_off_keeps_no_error);
  ADD ("keep-errors/on-by-default", test_keep_errors_on_by_default);
  ADD ("snapshot/during-and-after", test_snapshot_during_and_after);
  ADD ("snapshot/counts-successes-since-the-last", test_snapshot_counts_successes_since_the_last);
  ADD ("snapshot/counts-dropped-as-cancelled", test_snapshot_counts_dropped_as_cancelled);
  ADD ("snapshot/durations-past-the-window", test_snapshot_durations_past_the_window);

  return g_test_run ();
}
