/* test-pool-stop.c: the capstone's contract, rule by rule, on the virtual
 * clock: stopping, draining, reporting failures, and finishing every
 * operation the pool starts, whatever ends the run.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "pool-fixture.h"

/* Helpers {{{ */

static void
on_next_after_end (GObject      *object,
                   GAsyncResult *res,
                   gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) result = sluice_run_next_finish (SLUICE_RUN (object), res, &error);

  g_assert_no_error (error);
  g_assert_null (result);
  *done = TRUE;
}

/* Once the end was reported, next gives NULL without an error. */
static void
assert_next_after_end (Fixture *f)
{
  gboolean done = FALSE;

  sluice_run_next_async (f->run, NULL, on_next_after_end, &done);
  spin_until (f, &done);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

typedef struct {
  Fixture        *f;
  guint           live;
  SluiceRunStats  stats;
  gboolean        done;
} Snapshot;

static void
on_snapshot (gpointer data)
{
  Snapshot *snap = data;

  snap->live = sluice_run_get_live_operations (snap->f->run);
  sluice_run_get_stats (snap->f->run, &snap->stats);
  snap->done = TRUE;
}

/* Reads the run's live operations and counters at @seconds. */
static void
snapshot_at (Fixture  *f,
             Snapshot *snap,
             double    seconds)
{
  snap->f = f;
  sluice_clock_add_timer (f->clock, S (seconds), on_snapshot, snap, NULL);
}

/* Item 0 ignores cancellation and returns at 2.5 s; every other item takes
 * 0.4 s and honours it. Two workers, queue of two, 20 items. */
static void
make_late_scenario (Fixture *f)
{
  make_pool (f, 2, 2, 10.0);
  script_set (f->script, 0, DO_LATE, 2.5, 0, NULL);
  f->script->fallback.delay = S (0.4);
  f->cancel = g_cancellable_new ();
}

/* }}} */
/* Stop {{{ */

static void
test_stop_idempotent (Fixture       *f,
                      gconstpointer  data)
{
  guint notified = 0;

  make_pool (f, 1, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  g_signal_connect (f->pool, "notify::stop-requested", G_CALLBACK (count_notify), &notified);
  at (f, 0.5, ACT_STOP);
  at (f, 0.5, ACT_STOP);
  at (f, 1.5, ACT_STOP);

  drive (f, range (10));
  sluice_pool_request_stop (f->pool);

  /* The same run as with one stop at 0.5 s: item 1 queued is drained, item
   * 2 held by the producer is dropped. */
  g_assert_true (sluice_pool_get_stop_requested (f->pool));
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_STOP_REQUEST), ==, 1);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_STOP_REQUEST, 0)->time, ==, S (0.5));
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (f->end_time, ==, S (2.0));
  g_assert_cmpuint (run_stats (f).dropped, ==, 1);
  assert_accounted (f);
}

static void
assert_pulled_nothing (Fixture    *f,
                       TestSource *source)
{
  g_assert_no_error (f->end_error);
  g_assert_true (f->ended);
  g_assert_cmpuint (f->results->len, ==, 0);
  g_assert_cmpuint (source->reads, ==, 0);
  g_assert_cmpuint (run_stats (f).pulled, ==, 0);
  g_assert_cmpuint (f->script->calls->len, ==, 0);
  /* At once: no time passed. */
  g_assert_cmpint (sluice_run_get_started_at (f->run), ==, 0);
  g_assert_cmpint (sluice_run_get_finished_at (f->run), ==, 0);
  assert_accounted (f);
}

static void
test_stop_before_run_pulls_nothing (Fixture       *f,
                                    gconstpointer  data)
{
  TestSource *source = test_source_new (10);

  make_pool (f, 2, 2, 1.0);
  sluice_pool_request_stop (f->pool);

  drive (f, SLUICE_SOURCE (source));

  assert_pulled_nothing (f, source);
}

static void
test_stop_before_first_next_pulls_nothing (Fixture       *f,
                                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TestSource *source = test_source_new (10);

  make_pool (f, 2, 2, 1.0);
  f->source = SLUICE_SOURCE (source);
  f->run = sluice_pool_run (f->pool, f->source, &error);
  g_assert_no_error (error);
  sluice_pool_request_stop (f->pool);

  ask_next (f);
  spin_until (f, &f->ended);

  assert_pulled_nothing (f, source);
}

static void
test_stop_wakes_producer_on_source (Fixture       *f,
                                    gconstpointer  data)
{
  TestSource *source = test_source_new (-1);

  /* Three items, then the source waits for ever. */
  make_pool (f, 3, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  source->hang_at = 3;
  at (f, 0.5, ACT_STOP);

  drive (f, SLUICE_SOURCE (source));

  /* Woken at 0.5 s; the three items it had are handled. */
  g_assert_cmpuint (source->reads, ==, 4);
  g_assert_cmpuint (source->cancelled_reads, ==, 1);
  g_assert_cmpuint (source->pending, ==, 0);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_DRAIN, 0)->time, ==, S (0.5));
  /* The read the stop cancelled is no error of the source's. */
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 3);
  g_assert_cmpint (f->end_time, ==, S (1.0));
  assert_accounted (f);
}

static void
test_stop_wakes_producer_on_full_queue (Fixture       *f,
                                        gconstpointer  data)
{
  TestSource *source = test_source_new (10);
  SluiceRunStats s;

  /* Item 0 keeps the only worker for 5 s: item 1 fills the queue and the
   * producer waits for room with item 2. */
  make_pool (f, 1, 1, 10.0);
  script_set (f->script, 0, DO_OK, 5.0, 0, NULL);
  f->script->fallback.delay = S (1.0);
  at (f, 1.0, ACT_STOP);

  drive (f, SLUICE_SOURCE (source));

  /* Woken at 1 s: item 2 is dropped; item 1 is drained. */
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ITEM_DROPPED, 0)->time, ==, S (1.0));
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ITEM_DROPPED, 0)->item, ==, 2);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_DRAIN, 0)->time, ==, S (1.0));
  g_assert_cmpuint (source->reads, ==, 3);
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (result_at (f, 0), ==, 0);
  g_assert_cmpint (result_at (f, 1), ==, 1);
  g_assert_cmpint (f->end_time, ==, S (6.0));
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 3);
  g_assert_cmpuint (s.dropped, ==, 1);
  assert_accounted (f);
}

static void
test_stop_item_pulled_after_stop_is_dropped (Fixture       *f,
                                             gconstpointer  data)
{
  TestSource *source = test_source_new (10);

  /* The read of item 2 ignores the stop at 0.5 s and yields at 1 s. */
  make_pool (f, 2, 1, 10.0);
  f->script->fallback.delay = S (2.0);
  source->slow_at = 2;
  source->slow_delay = S (1.0);
  source->clock = f->clock;
  at (f, 0.5, ACT_STOP);

  drive (f, SLUICE_SOURCE (source));

  /* Pulled, but not queued before the stop: never handled. */
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ITEM_DROPPED, 0)->item, ==, 2);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ITEM_DROPPED, 0)->time, ==, S (1.0));
  g_assert_cmpuint (script_attempts (f->script, 2), ==, 0);
  g_assert_cmpuint (source->reads, ==, 3);
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (f->end_time, ==, S (2.0));
  assert_accounted (f);
}

static void
test_stop_drains_queue_and_yields (Fixture       *f,
                                   gconstpointer  data)
{
  const gint64 expected[] = { 0, 1, 4, 9 };

  /* One worker on item 0, items 1–3 queued, item 4 held, when the stop
   * comes. */
  make_pool (f, 1, 3, 10.0);
  f->script->fallback.delay = S (1.0);
  at (f, 0.5, ACT_STOP);

  drive (f, range (10));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpint (result_at (f, i), ==, expected[i]);
      g_assert_cmpint (result_time (f, i), ==, S (i + 1));
    }
  g_assert_cmpuint (run_stats (f).pulled, ==, 5);
  g_assert_cmpuint (run_stats (f).dropped, ==, 1);
  g_assert_cmpint (f->end_time, ==, S (4.0));
  assert_accounted (f);
}

static void
test_stop_drain_still_retries (Fixture       *f,
                               gconstpointer  data)
{
  make_pool_full (f, 1, 1, 10.0, 1, "ValueError", FALSE);
  script_set (f->script, 0, DO_FAIL, 1.0, 1, "ValueError");
  at (f, 0.5, ACT_STOP);

  drive (f, range (1));

  /* The item in progress is finished, retry included. */
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 2);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_time (f, 0), ==, S (2.0));
  assert_accounted (f);
}

/* One worker, queue of one, items of 1 s; item 2 always fails. */
static void
drive_failing_item_2 (Fixture  *f,
                      gboolean  keep_going)
{
  make_pool_full (f, 1, 1, 10.0, 0, NULL, keep_going);
  f->script->fallback.delay = S (1.0);
  script_set (f->script, 2, DO_FAIL_ALWAYS, 1.0, 0, "ValueError");

  drive (f, range (10));
}

static void
test_stop_failure_requests_stop (Fixture       *f,
                                 gconstpointer  data)
{
  const gint64 expected[] = { 0, 1, 9 };
  SluiceRunStats s;

  drive_failing_item_2 (f, FALSE);

  /* At 3 s item 2 fails: item 3 is queued and drained, item 4 held by the
   * producer is dropped. */
  g_assert_true (sluice_pool_get_stop_requested (f->pool));
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_STOP_REQUEST, 0)->time, ==, S (3.0));
  g_assert_cmpuint (f->results->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (result_at (f, i), ==, expected[i]);
  assert_group (f, 1);
  g_assert_true (recorded_error (f, 0) == script_call (f->script, 2, 1)->error);
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 5);
  g_assert_cmpuint (s.failed, ==, 1);
  g_assert_cmpuint (s.dropped, ==, 1);
  g_assert_cmpint (f->end_time, ==, S (4.0));
  assert_accounted (f);
}

static void
test_stop_keep_going_does_not_stop (Fixture       *f,
                                    gconstpointer  data)
{
  SluiceRunStats s;

  drive_failing_item_2 (f, TRUE);

  g_assert_false (sluice_pool_get_stop_requested (f->pool));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_STOP_REQUEST), ==, 0);
  g_assert_cmpuint (f->results->len, ==, 9);
  assert_group (f, 1);
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 10);
  g_assert_cmpuint (s.failed, ==, 1);
  g_assert_cmpuint (s.dropped, ==, 0);
  g_assert_cmpint (f->end_time, ==, S (10.0));
  assert_accounted (f);
}

/* Two workers on items 0 and 1, item 2 queued, and the read of item 3
 * fails at once. */
static TestSource *
drive_failing_source (Fixture    *f,
                      const char *retryable)
{
  TestSource *source = test_source_new (10);

  make_pool_full (f, 2, 1, 10.0, 5, retryable, FALSE);
  f->script->fallback.delay = S (1.0);
  source->fail_at = 3;

  drive (f, SLUICE_SOURCE (source));
  return source;
}

static void
assert_failing_source (Fixture    *f,
                       TestSource *source)
{
  const GError *error;

  /* Recorded as it is, a stop, no more reads, and a drain. */
  assert_group (f, 1);
  error = recorded_error (f, 0);
  g_assert_true (error == source->last_error);
  g_assert_cmpstr (sluice_error_type_name (error), ==, "SourceError");
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_SOURCE_ERROR), ==, 1);
  g_assert_true (sluice_pool_get_stop_requested (f->pool));
  g_assert_cmpuint (source->reads, ==, 4);
  g_assert_cmpuint (f->results->len, ==, 3);
  g_assert_cmpint (f->end_time, ==, S (2.0));
  g_assert_cmpuint (run_stats (f).retries, ==, 0);
  assert_accounted (f);
}

static void
test_stop_source_error_recorded_and_stops (Fixture       *f,
                                           gconstpointer  data)
{
  assert_failing_source (f, drive_failing_source (f, NULL));
}

static void
test_stop_source_error_not_retried (Fixture       *f,
                                    gconstpointer  data)
{
  /* Retries apply only to the handler, even for a listed type. */
  assert_failing_source (f, drive_failing_source (f, "SourceError"));
}

static void
test_stop_source_cancelled_itself (Fixture       *f,
                                   gconstpointer  data)
{
  TestSource *source = test_source_new (10);
  g_autofree char *repr = NULL;

  make_pool (f, 2, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  source->cancel_self_at = 2;

  drive (f, SLUICE_SOURCE (source));

  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_SOURCE_CANCELLED);
  repr = recorded_repr (f, 0);
  g_assert_cmpstr (repr, ==, "RuntimeError('source cancelled itself')");
  g_assert_true (sluice_pool_get_stop_requested (f->pool));
  g_assert_cmpuint (source->reads, ==, 3);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (f->end_time, ==, S (1.0));
  assert_accounted (f);
}

static void
test_stop_group_holds_original_errors_in_order (Fixture       *f,
                                                gconstpointer  data)
{
  g_autofree char *repr0 = NULL;
  g_autofree char *repr1 = NULL;
  g_autofree char *repr2 = NULL;

  /* Item 1 fails first (0.1 s), item 0 next (0.3 s), item 2 times out
   * last (1 s): the first failure's stop lets the others finish. */
  make_pool (f, 3, 1, 1.0);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.3, 0, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "KeyError");
  script_set (f->script, 2, DO_HANG, 0, 0, NULL);

  drive (f, range (3));

  assert_group (f, 3);
  g_assert_true (recorded_error (f, 0) == script_call (f->script, 1, 1)->error);
  g_assert_true (recorded_error (f, 1) == script_call (f->script, 0, 1)->error);
  g_assert_error (recorded_error (f, 2), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  repr0 = recorded_repr (f, 0);
  repr1 = recorded_repr (f, 1);
  repr2 = recorded_repr (f, 2);
  g_assert_cmpstr (repr0, ==, "KeyError('attempt 1 failed')");
  g_assert_cmpstr (repr1, ==, "ValueError('attempt 1 failed')");
  g_assert_cmpstr (repr2, ==, "TimeoutError('item timed out')");
  g_assert_cmpstr (sluice_error_type_name (f->end_error), ==, "ExceptionGroup");
  g_assert_cmpint (f->end_time, ==, S (1.0));
  assert_accounted (f);
}

/* Item 0 ok, item 1 retried, item 2 stopped late through every round,
 * item 3 failing for good at 0.2 s, which stops the run. */
static void
make_eventful_scenario (Fixture *f)
{
  make_pool_full (f, 2, 1, 1.0, 1, "ValueError", FALSE);
  f->script->fallback.delay = S (0.5);
  script_set (f->script, 1, DO_FAIL, 0.3, 1, "ValueError");
  script_set (f->script, 2, DO_LATE, 4.5, 0, NULL);
  script_set (f->script, 3, DO_FAIL_ALWAYS, 0.2, 0, "KeyError");
}

/* The kinds make_eventful_scenario() emits. */
static const SluiceEventKind eventful_kinds[] = {
  SLUICE_EVENT_RUN_START, SLUICE_EVENT_PULL, SLUICE_EVENT_QUEUE_PUT,
  SLUICE_EVENT_QUEUE_GET, SLUICE_EVENT_ATTEMPT_START, SLUICE_EVENT_ATTEMPT_END,
  SLUICE_EVENT_CANCEL_REQUEST, SLUICE_EVENT_IGNORING_CANCEL, SLUICE_EVENT_RETRY,
  SLUICE_EVENT_ITEM_OK, SLUICE_EVENT_ITEM_FAILED, SLUICE_EVENT_ITEM_DROPPED,
  SLUICE_EVENT_STOP_REQUEST, SLUICE_EVENT_DRAIN, SLUICE_EVENT_RESULT,
  SLUICE_EVENT_RUN_END,
};

static void
test_stop_from_any_event (Fixture       *f,
                          gconstpointer  data)
{
  SluiceEventKind kind = GPOINTER_TO_INT (data);

  make_eventful_scenario (f);
  f->stop_on_event = kind;

  drive (f, SLUICE_SOURCE (test_source_new (8)));

  g_assert_cmpuint (count_events (f, kind), >, 0);
  g_assert_true (sluice_pool_get_stop_requested (f->pool));
  g_assert_true (f->end_finished);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

/* After the cancel, the run pulls nothing and starts no attempt. */
static void
assert_nothing_started_after_cancel (Fixture *f)
{
  gboolean cancelled = FALSE;

  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);

      if (r->kind == SLUICE_EVENT_CANCEL)
        cancelled = TRUE;
      else if (cancelled)
        g_assert_true (r->kind != SLUICE_EVENT_PULL && r->kind != SLUICE_EVENT_ATTEMPT_START);
    }
}

static void
test_finish_close_from_any_event (Fixture       *f,
                                  gconstpointer  data)
{
  SluiceEventKind kind = GPOINTER_TO_INT (data);

  make_eventful_scenario (f);
  f->close_on_event = kind;

  start_run (f, SLUICE_SOURCE (test_source_new (8)));
  spin_until (f, &f->closed);
  spin_until (f, &f->ended);

  g_assert_cmpuint (count_events (f, kind), >, 0);
  assert_nothing_started_after_cancel (f);
  g_assert_true (f->close_finished);
  g_assert_cmpuint (f->close_live, ==, 0);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

/* }}} */
/* Finishing every operation {{{ */

static void
test_finish_caller_cancel_waits_for_everything (Fixture       *f,
                                                gconstpointer  data)
{
  CallRecord *late;
  SluiceRunStats s;

  make_late_scenario (f);
  at (f, 1.0, ACT_CANCEL);

  drive (f, range (20));

  /* Items 1 and 2 came out; at 1 s item 3 (honours) and item 0 (ignores)
   * were running. The next reports the cancel only once item 0 returned. */
  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_CANCEL, 0)->time, ==, S (1.0));
  g_assert_cmpint (f->end_time, ==, S (2.5));
  g_assert_true (f->end_finished);
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (result_at (f, 0), ==, 1);
  g_assert_cmpint (result_at (f, 1), ==, 4);

  late = script_call (f->script, 0, 1);
  g_assert_true (late->cancel_seen);
  g_assert_true (late->returned_ok);
  g_assert_cmpint (late->ended, ==, S (2.5));
  g_assert_cmpint (script_call (f->script, 3, 1)->ended, ==, S (1.0));
  g_assert_cmpint (item_outcome (f, 0), ==, SLUICE_OUTCOME_CANCELLED);

  s = run_stats (f);
  g_assert_cmpuint (s.succeeded, ==, 2);
  g_assert_cmpuint (s.cancelled, ==, 2);
  g_assert_cmpuint (s.failed, ==, 0);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 0);
  assert_accounted (f);
  assert_next_after_end (f);
}

static void
test_finish_second_cancel_does_not_cut_wait (Fixture       *f,
                                             gconstpointer  data)
{
  make_late_scenario (f);
  at (f, 1.0, ACT_CANCEL);
  at (f, 1.5, ACT_CLOSE);
  at (f, 1.5, ACT_CANCEL);
  at (f, 2.0, ACT_CLOSE);

  drive (f, range (20));

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (2.5));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (f->n_closed, ==, 2);
  g_assert_cmpint (f->close_time, ==, S (2.5));
  g_assert_cmpuint (f->close_live, ==, 0);
  g_assert_true (f->close_finished);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL), ==, 1);
  assert_accounted (f);
}

static void
test_finish_run_cancel_waits_like_a_cancelled_next (Fixture       *f,
                                                    gconstpointer  data)
{
  make_late_scenario (f);
  at (f, 1.0, ACT_RUN_CANCEL);
  at (f, 1.5, ACT_RUN_CANCEL);

  drive (f, range (20));

  /* Item 0 ignores the cancellation and returns at 2.5 s: the run waits. */
  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (2.5));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_true (f->end_finished);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL), ==, 1);
  assert_accounted (f);
}

static void
test_finish_run_cancel_before_start_ends_at_once (Fixture       *f,
                                                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  make_pool (f, 2, 2, 1.0);
  f->source = SLUICE_SOURCE (test_source_new (5));
  f->run = sluice_pool_run (f->pool, f->source, &error);
  g_assert_no_error (error);

  sluice_run_cancel (f->run);
  g_assert_true (sluice_run_is_finished (f->run));
  ask_next (f);
  spin_until (f, &f->ended);

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (TEST_SOURCE (f->source)->reads, ==, 0);
  g_assert_cmpuint (f->script->calls->len, ==, 0);
}

static void
test_finish_close_then_cancel_does_not_cut_wait (Fixture       *f,
                                                 gconstpointer  data)
{
  make_late_scenario (f);
  at (f, 1.0, ACT_CLOSE);
  at (f, 1.5, ACT_CANCEL);

  drive (f, range (20));

  /* The close cancelled the pending next, which still waited for item 0. */
  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (2.5));
  g_assert_cmpuint (f->n_closed, ==, 1);
  g_assert_cmpint (f->close_time, ==, S (2.5));
  assert_accounted (f);
}

static void
test_finish_cancel_during_close_is_reraised_after_wait (Fixture       *f,
                                                        gconstpointer  data)
{
  /* The caller closes with its own cancellable and is cancelled while the
   * close waits for the late item 0: the wait still completes, then the
   * close reports the cancellation (the seed's aclose() re-raises). */
  make_late_scenario (f);
  f->pause_after = 1;
  f->close_with_cancel = TRUE;
  at (f, 1.0, ACT_CLOSE);
  at (f, 1.5, ACT_CANCEL);

  start_run (f, range (20));
  spin_until (f, &f->closed);

  g_assert_error (f->close_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->close_time, ==, S (2.5));
  g_assert_cmpuint (f->close_live, ==, 0);
  g_assert_true (f->close_finished);
  assert_accounted (f);
}

static void
test_finish_close_with_uncancelled_cancellable_succeeds (Fixture       *f,
                                                         gconstpointer  data)
{
  make_late_scenario (f);
  f->pause_after = 1;
  f->close_with_cancel = TRUE;
  at (f, 1.0, ACT_CLOSE);

  start_run (f, range (20));
  spin_until (f, &f->closed);

  g_assert_no_error (f->close_error);
  g_assert_cmpint (f->close_time, ==, S (2.5));
  g_assert_true (f->close_finished);
  assert_accounted (f);
}

static void
test_finish_close_waits_and_completes (Fixture       *f,
                                       gconstpointer  data)
{
  SluiceRunStats s;

  /* The caller takes one result, stops asking, and closes at 1 s. */
  make_late_scenario (f);
  f->pause_after = 1;
  at (f, 1.0, ACT_CLOSE);

  start_run (f, range (20));
  spin_until (f, &f->closed);

  g_assert_cmpint (f->close_time, ==, S (2.5));
  g_assert_cmpuint (f->close_live, ==, 0);
  g_assert_true (f->close_finished);
  g_assert_false (f->ended);
  g_assert_cmpuint (f->results->len, ==, 1);
  s = run_stats (f);
  /* At 1 s: items 1 and 2 done, 3 and 0 running, 4 and 5 queued, 6 held. */
  g_assert_cmpuint (s.pulled, ==, 7);
  g_assert_cmpuint (s.succeeded, ==, 2);
  g_assert_cmpuint (s.cancelled, ==, 2);
  g_assert_cmpuint (s.dropped, ==, 3);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 0);
  assert_accounted (f);

  /* A closed run is over: no result, no error. */
  assert_next_after_end (f);
}

static void
test_finish_errors_survive_cancel (Fixture       *f,
                                   gconstpointer  data)
{
  make_late_scenario (f);
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.2, 0, "ValueError");
  at (f, 1.0, ACT_CANCEL);

  drive (f, range (20));

  /* The failure at 0.2 s requested a stop; the cancel at 1 s wins the
   * report, but the recorded error stays readable. */
  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (2.5));
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 1);
  g_assert_true (recorded_error (f, 0) == script_call (f->script, 1, 1)->error);
  assert_accounted (f);
}

static void
on_source_read (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  GVariant **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = sluice_source_next_finish (SLUICE_SOURCE (object), res, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*out);
}

static void
test_finish_source_left_open (Fixture       *f,
                              gconstpointer  data)
{
  TestSource *source = test_source_new (10);
  g_autoptr(GVariant) next = NULL;
  SluiceRunStats s;

  /* The run stops while the producer waits on the source. */
  make_pool (f, 2, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  source->hang_at = 4;
  at (f, 0.5, ACT_STOP);

  drive (f, SLUICE_SOURCE (source));
  g_assert_no_error (f->end_error);
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 4);

  /* The pool lets go of the source without ending it … */
  g_assert_finalize_object (g_steal_pointer (&f->run));
  g_assert_finalize_object (g_steal_pointer (&f->pool));
  g_assert_cmpuint (G_OBJECT (source)->ref_count, ==, 1);
  g_assert_cmpuint (source->pending, ==, 0);

  /* … and the caller reads on from where the pool stopped. */
  source->hang_at = -1;
  sluice_source_next_async (SLUICE_SOURCE (source), NULL, on_source_read, &next);
  while (next == NULL && g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_nonnull (next);
  g_assert_cmpint (g_variant_get_int64 (next), ==, 4);
}

static void
test_finish_no_live_operations (Fixture       *f,
                                gconstpointer  data)
{
  TestSource *source = test_source_new (6);
  Snapshot mid = { 0 };

  make_pool (f, 2, 2, 1.0);
  f->script->fallback.delay = S (0.4);
  script_set (f->script, 3, DO_LATE, 5.0, 0, NULL);
  snapshot_at (f, &mid, 2.0);

  drive (f, SLUICE_SOURCE (source));

  /* At 2 s item 3 (started at 0.4 s, returns at 5.4 s) was still being
   * stopped: alive, with a timer. */
  g_assert_true (mid.done);
  g_assert_cmpuint (mid.live, >=, 2);
  g_assert_cmpuint (mid.stats.in_flight, ==, 1);

  /* When the end was reported, nothing was. */
  assert_group (f, 1);
  g_assert_cmpint (f->end_time, ==, S (5.4));
  g_assert_true (f->end_finished);
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (sluice_clock_get_n_pending (f->clock), ==, 0);
  g_assert_cmpuint (source->pending, ==, 0);
  g_assert_cmpuint (f->script->concurrent, ==, 0);
  assert_accounted (f);
}

/* }}} */
/* Going further {{{ */

static void
test_further_result_order (Fixture       *f,
                           gconstpointer  data)
{
  gint64 tail[4];

  /* Items 0–3 finish in reverse at 0.5–0.8 s; items 4–7 then all finish
   * together at 0.9 s, in an order the test does not fix. */
  make_pool (f, 4, 4, 1.0);
  for (gint64 i = 0; i < 8; i++)
    script_set (f->script, i, DO_OK, (8 - i) * 0.1, 0, NULL);

  drive (f, range (8));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 8);
  for (guint i = 0; i < 4; i++)
    {
      g_assert_cmpint (result_at (f, i), ==, (3 - i) * (3 - i));
      g_assert_cmpint (result_time (f, i), ==, S (0.5 + 0.1 * i));
    }
  for (guint i = 4; i < 8; i++)
    {
      g_assert_cmpint (result_time (f, i), ==, S (0.9));
      tail[i - 4] = result_at (f, i);
    }
  for (gint64 n = 4; n < 8; n++)
    g_assert_true (tail[0] == n * n || tail[1] == n * n || tail[2] == n * n || tail[3] == n * n);
}

static void
test_further_close_before_start (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TestSource *source = test_source_new (10);

  make_pool (f, 2, 2, 1.0);
  f->source = SLUICE_SOURCE (source);
  f->run = sluice_pool_run (f->pool, f->source, &error);
  g_assert_no_error (error);

  close_run (f);
  spin_until (f, &f->closed);

  g_assert_true (f->close_finished);
  g_assert_cmpuint (source->reads, ==, 0);
  g_assert_cmpuint (f->script->calls->len, ==, 0);
  assert_next_after_end (f);
}

static void
test_further_cancel_before_start (Fixture       *f,
                                  gconstpointer  data)
{
  TestSource *source = test_source_new (10);

  make_pool (f, 2, 2, 1.0);
  f->cancel = g_cancellable_new ();
  g_cancellable_cancel (f->cancel);

  drive (f, SLUICE_SOURCE (source));

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (source->reads, ==, 0);
  g_assert_cmpuint (f->script->calls->len, ==, 0);
  assert_next_after_end (f);
}

static void
test_further_early_close (Fixture       *f,
                          gconstpointer  data)
{
  /* Close from the callback of the first result, while the other worker
   * finishes at the same instant and items wait in the queue. */
  make_pool (f, 2, 2, 10.0);
  f->script->fallback.delay = S (0.4);
  f->close_after = 1;

  start_run (f, range (20));
  spin_until (f, &f->closed);

  g_assert_cmpint (f->close_time, ==, S (0.4));
  g_assert_cmpuint (f->close_live, ==, 0);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpuint (run_stats (f).dropped, >=, 2);
  assert_accounted (f);
  assert_next_after_end (f);
}

static void
test_further_producer_stuck_on_full_queue (Fixture       *f,
                                           gconstpointer  data)
{
  TestSource *source = test_source_new (-1);
  Snapshot stuck = { 0 };
  SluiceRunStats s;

  /* Item 0 hangs on the only worker, item 1 fills the queue, the producer
   * holds item 2; the caller gives up at 3 s. */
  make_pool (f, 1, 1, 100.0);
  script_set (f->script, 0, DO_HANG, 0, 0, NULL);
  f->cancel = g_cancellable_new ();
  snapshot_at (f, &stuck, 2.0);
  at (f, 3.0, ACT_CANCEL);

  drive (f, SLUICE_SOURCE (source));

  g_assert_cmpuint (stuck.stats.pulled, ==, 3);
  g_assert_cmpuint (stuck.stats.queued, ==, 1);
  g_assert_cmpuint (source->reads, ==, 3);

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (3.0));
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 3);
  g_assert_cmpuint (s.dropped, ==, 2);
  g_assert_cmpuint (s.cancelled, ==, 1);
  g_assert_cmpuint (source->pending, ==, 0);
  assert_accounted (f);
}

static void
test_further_repeated_cancellation (Fixture       *f,
                                    gconstpointer  data)
{
  EventRecord *ignoring;

  /* The caller cancels at 0.5 s and keeps at it; the handler ignores
   * every request and returns at 10 s. */
  make_pool (f, 1, 1, 1.0);
  script_set (f->script, 0, DO_LATE, 10.0, 0, NULL);
  f->cancel = g_cancellable_new ();
  at (f, 0.5, ACT_CANCEL);
  at (f, 1.0, ACT_CLOSE);
  at (f, 2.0, ACT_CANCEL);
  at (f, 3.0, ACT_CLOSE);

  drive (f, range (1));

  /* Stopped like a late attempt: three rounds one timeout apart, then a
   * plain wait. */
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL_REQUEST), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpint (nth_event (f, SLUICE_EVENT_CANCEL_REQUEST, i)->time, ==, S (0.5 + i));
  ignoring = nth_event (f, SLUICE_EVENT_IGNORING_CANCEL, 0);
  g_assert_cmpint (ignoring->time, ==, S (3.5));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL), ==, 1);

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (10.0));
  g_assert_cmpuint (f->n_closed, ==, 2);
  g_assert_cmpint (f->close_time, ==, S (10.0));
  g_assert_cmpint (item_outcome (f, 0), ==, SLUICE_OUTCOME_CANCELLED);
  g_assert_cmpuint (run_stats (f).cancelled, ==, 1);
  assert_accounted (f);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/pool/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("stop/idempotent", test_stop_idempotent);
  ADD ("stop/before-run-pulls-nothing", test_stop_before_run_pulls_nothing);
  ADD ("stop/before-first-next-pulls-nothing", test_stop_before_first_next_pulls_nothing);
  ADD ("stop/wakes-producer-on-source", test_stop_wakes_producer_on_source);
  ADD ("stop/wakes-producer-on-full-queue", test_stop_wakes_producer_on_full_queue);
  ADD ("stop/item-pulled-after-stop-is-dropped", test_stop_item_pulled_after_stop_is_dropped);
  ADD ("stop/drains-queue-and-yields", test_stop_drains_queue_and_yields);
  ADD ("stop/drain-still-retries", test_stop_drain_still_retries);
  ADD ("stop/failure-requests-stop", test_stop_failure_requests_stop);
  ADD ("stop/keep-going-does-not-stop", test_stop_keep_going_does_not_stop);
  ADD ("stop/source-error-recorded-and-stops", test_stop_source_error_recorded_and_stops);
  ADD ("stop/source-error-not-retried", test_stop_source_error_not_retried);
  ADD ("stop/source-cancelled-itself", test_stop_source_cancelled_itself);
  ADD ("stop/group-holds-original-errors-in-order", test_stop_group_holds_original_errors_in_order);

  ADD ("finish/caller-cancel-waits-for-everything", test_finish_caller_cancel_waits_for_everything);
  ADD ("finish/second-cancel-does-not-cut-wait", test_finish_second_cancel_does_not_cut_wait);
  ADD ("finish/close-then-cancel-does-not-cut-wait", test_finish_close_then_cancel_does_not_cut_wait);
  ADD ("finish/run-cancel-waits-like-a-cancelled-next", test_finish_run_cancel_waits_like_a_cancelled_next);
  ADD ("finish/run-cancel-before-start-ends-at-once", test_finish_run_cancel_before_start_ends_at_once);
  ADD ("finish/cancel-during-close-is-reraised-after-wait", test_finish_cancel_during_close_is_reraised_after_wait);
  ADD ("finish/close-with-uncancelled-cancellable-succeeds", test_finish_close_with_uncancelled_cancellable_succeeds);
  ADD ("finish/close-waits-and-completes", test_finish_close_waits_and_completes);
  ADD ("finish/errors-survive-cancel", test_finish_errors_survive_cancel);
  ADD ("finish/source-left-open", test_finish_source_left_open);
  ADD ("finish/no-live-operations", test_finish_no_live_operations);

  ADD ("further/result-order", test_further_result_order);
  ADD ("further/close-before-start", test_further_close_before_start);
  ADD ("further/cancel-before-start", test_further_cancel_before_start);
  ADD ("further/early-close", test_further_early_close);
  ADD ("further/producer-stuck-on-full-queue", test_further_producer_stuck_on_full_queue);
  ADD ("further/repeated-cancellation", test_further_repeated_cancellation);

  for (guint i = 0; i < G_N_ELEMENTS (eventful_kinds); i++)
    {
      const char *name = sluice_event_kind_to_string (eventful_kinds[i]);
      g_autofree char *stop = g_strdup_printf ("/pool/stop/from-event/%s", name);
      g_autofree char *close = g_strdup_printf ("/pool/finish/close-from-event/%s", name);

      g_test_add (stop, Fixture, GINT_TO_POINTER (eventful_kinds[i]),
                  fixture_setup, test_stop_from_any_event, fixture_teardown);
      g_test_add (close, Fixture, GINT_TO_POINTER (eventful_kinds[i]),
                  fixture_setup, test_finish_close_from_any_event, fixture_teardown);
    }

  return g_test_run ();
}
