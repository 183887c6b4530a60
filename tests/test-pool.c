/* test-pool.c: the capstone's contract, rule by rule, on the virtual clock:
 * construction, the queue, results, deadlines, retries and metrics.
 * Stopping, draining and finishing are in test-pool-stop.c.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>

#include "pool-fixture.h"

/* Helpers {{{ */

G_GNUC_UNUSED static EventRecord *
item_event (Fixture         *f,
            SluiceEventKind  kind,
            gint64           item,
            guint            n)
{
  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);
      if (r->kind == kind && r->item == item && n-- == 0)
        return r;
    }
  g_assert_not_reached ();
}

G_GNUC_UNUSED static guint
count_item_events (Fixture         *f,
                   SluiceEventKind  kind,
                   gint64           item)
{
  guint n = 0;

  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);
      if (r->kind == kind && r->item == item)
        n++;
    }
  return n;
}

static void
assert_metric_details (Fixture            *f,
                       const char * const *expected)
{
  guint n = g_strv_length ((char **) expected);

  for (guint i = 0; i < MIN (n, f->metric_details->len); i++)
    g_assert_cmpstr (g_ptr_array_index (f->metric_details, i), ==, expected[i]);
  g_assert_cmpuint (f->metric_details->len, ==, n);
}

static void
assert_recorded_repr (Fixture    *f,
                      guint       i,
                      const char *expected)
{
  g_autofree char *repr = recorded_repr (f, i);

  g_assert_cmpstr (repr, ==, expected);
}

/* }}} */
/* The seed's example {{{ */

static void
test_seed_example (Fixture       *f,
                   gconstpointer  data)
{
  make_pool (f, 3, 3, 1.0);
  script_set (f->script, 0, DO_OK, 0.3, 0, NULL);
  script_set (f->script, 1, DO_OK, 0.2, 0, NULL);
  script_set (f->script, 2, DO_OK, 0.1, 0, NULL);

  drive (f, range (3));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 3);
  g_assert_cmpint (result_at (f, 0), ==, 4);
  g_assert_cmpint (result_at (f, 1), ==, 1);
  g_assert_cmpint (result_at (f, 2), ==, 0);
  /* The three calls overlap: 0.3 s in all, not 0.6 s. */
  g_assert_cmpint (sluice_run_get_finished_at (f->run) - sluice_run_get_started_at (f->run), ==, S (0.3));
  g_assert_cmpuint (f->script->max_concurrent, ==, 3);
}

/* }}} */
/* Construction {{{ */

static void
never_called (SluiceAttempt *attempt,
              GTask         *task,
              gpointer       user_data)
{
  g_assert_not_reached ();
}

/* Builds a pool with these options and checks it fails, naming the option
 * and the value. */
static void
assert_invalid (gint        workers,
                gint        queue_size,
                double      item_timeout,
                gint        max_retries,
                const char *option,
                const char *value)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (never_called, NULL, NULL);
  g_autoptr(GError) error = NULL;
  GObject *pool;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                         "handler", handler,
                         "workers", workers,
                         "queue-size", queue_size,
                         "item-timeout", item_timeout,
                         "max-retries", max_retries,
                         NULL);
  g_assert_null (pool);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, option));
  g_assert_nonnull (strstr (error->message, value));
  g_assert_cmpstr (sluice_error_type_name (error), ==, "ValueError");
}

static void
test_init_rejects_zero_workers (Fixture       *f,
                                gconstpointer  data)
{
  assert_invalid (0, 1, 1.0, 0, "workers", "not 0");
}

static void
test_init_rejects_negative_workers (Fixture       *f,
                                    gconstpointer  data)
{
  assert_invalid (-7, 1, 1.0, 0, "workers", "-7");
}

static void
test_init_rejects_workers_above_maximum (Fixture       *f,
                                         gconstpointer  data)
{
  /* G_MAXINT workers once tried to allocate 103 GB at the run's start. */
  assert_invalid (G_MAXINT, 1, 1.0, 0, "workers", "2147483647");
  assert_invalid (SLUICE_POOL_MAX_WORKERS + 1, 1, 1.0, 0, "workers", "1000001");
}

static void
test_init_accepts_maximum_workers (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (never_called, NULL, NULL);
  g_autoptr(GError) error = NULL;
  SluicePool *pool = sluice_pool_new (handler, SLUICE_POOL_MAX_WORKERS, 1, 1.0, &error);

  g_assert_no_error (error);
  g_assert_cmpint (sluice_pool_get_workers (pool), ==, SLUICE_POOL_MAX_WORKERS);
  g_assert_finalize_object (pool);
}

static void
test_init_rejects_zero_queue_size (Fixture       *f,
                                   gconstpointer  data)
{
  assert_invalid (1, 0, 1.0, 0, "queue-size", "not 0");
}

static void
test_init_rejects_negative_queue_size (Fixture       *f,
                                       gconstpointer  data)
{
  assert_invalid (1, -3, 1.0, 0, "queue-size", "-3");
}

static void
test_init_rejects_zero_item_timeout (Fixture       *f,
                                     gconstpointer  data)
{
  assert_invalid (1, 1, 0.0, 0, "item-timeout", "not 0");
}

static void
test_init_rejects_negative_item_timeout (Fixture       *f,
                                         gconstpointer  data)
{
  assert_invalid (1, 1, -2.5, 0, "item-timeout", "-2.5");
}

static void
test_init_rejects_non_finite_item_timeout (Fixture       *f,
                                           gconstpointer  data)
{
  assert_invalid (1, 1, NAN, 0, "item-timeout", "nan");
  assert_invalid (1, 1, INFINITY, 0, "item-timeout", "inf");
  assert_invalid (1, 1, -INFINITY, 0, "item-timeout", "-inf");
}

static void
test_init_rejects_negative_max_retries (Fixture       *f,
                                        gconstpointer  data)
{
  assert_invalid (1, 1, 1.0, -4, "max-retries", "-4");
}

static void
test_init_accepts_smallest_valid_options (Fixture       *f,
                                          gconstpointer  data)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (never_called, NULL, NULL);
  g_autoptr(GError) error = NULL;
  SluicePool *pool;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                         "handler", handler,
                         "workers", 1,
                         "queue-size", 1,
                         "item-timeout", 0.001,
                         "max-retries", 0,
                         NULL);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_pool_get_workers (pool), ==, 1);
  g_assert_cmpint (sluice_pool_get_queue_size (pool), ==, 1);
  g_assert_cmpfloat (sluice_pool_get_item_timeout (pool), ==, 0.001);
  g_assert_cmpint (sluice_pool_get_max_retries (pool), ==, 0);
  g_assert_finalize_object (pool);

  /* The short constructor validates the same way. */
  g_assert_null (sluice_pool_new (handler, 0, 1, 1.0, &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
}

static void
test_single_use (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceSource) other = range (3);

  make_pool (f, 1, 1, 1.0);
  start_run (f, range (2));

  /* While the first run is on … */
  g_assert_null (sluice_pool_run (f->pool, other, &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_SINGLE_USE);
  g_assert_cmpstr (error->message, ==, "pool is single-use");
  g_assert_cmpstr (sluice_error_type_name (error), ==, "RuntimeError");
  g_clear_error (&error);

  spin_until (f, &f->ended);
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);

  /* … and after it ended. */
  g_assert_null (sluice_pool_run (f->pool, other, &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_SINGLE_USE);
  g_assert_cmpstr (error->message, ==, "pool is single-use");
  g_assert_cmpuint (sluice_array_source_get_position (SLUICE_ARRAY_SOURCE (other)), ==, 0);
}

/* }}} */
/* Taking in work through a bounded queue {{{ */

static void
test_queue_bounded_with_exactly_workers_consumers (Fixture       *f,
                                                   gconstpointer  data)
{
  gboolean seen[3] = { FALSE, FALSE, FALSE };
  guint max_queued = 0;

  make_pool (f, 3, 2, 10.0);
  f->script->fallback.delay = S (1.0);

  drive (f, range (12));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 12);
  /* Exactly three at a time: 12 items of 1 s take 4 s. */
  g_assert_cmpuint (f->script->max_concurrent, ==, 3);
  g_assert_cmpint (sluice_run_get_finished_at (f->run), ==, S (4.0));

  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);

      if (r->kind == SLUICE_EVENT_ATTEMPT_START)
        {
          g_assert_cmpint (r->worker, >=, 0);
          g_assert_cmpint (r->worker, <, 3);
          seen[r->worker] = TRUE;
        }
      g_assert_cmpuint (r->queued, <=, 2);
      max_queued = MAX (max_queued, r->queued);
    }
  g_assert_true (seen[0] && seen[1] && seen[2]);
  g_assert_cmpuint (max_queued, ==, 2);
}

static void
test_queue_lead_bounded (Fixture       *f,
                         gconstpointer  data)
{
  TestSource *source = test_source_new (40);
  SluiceRunStats s;

  make_pool (f, 2, 3, 10.0);
  f->script->fallback.delay = S (1.0);
  source->script = f->script;

  drive (f, SLUICE_SOURCE (source));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 40);
  s = run_stats (f);
  /* queue-size 3 + workers 2 + the one the producer holds: reached, never
   * passed. */
  g_assert_cmpuint (s.max_lead, ==, 3 + 2 + 1);
  g_assert_cmpuint (source->max_lead, <=, 3 + 2 + 1);
  for (guint i = 0; i < f->events->len; i++)
    g_assert_cmpuint (g_array_index (f->events, EventRecord, i).lead, <=, 3 + 2 + 1);
}

static void
test_queue_equal_items_are_separate_work (Fixture       *f,
                                          gconstpointer  data)
{
  GVariant *items[] = {
    g_variant_new_int64 (7),
    g_variant_new_int64 (7),
    g_variant_new_int64 (7),
  };

  make_pool (f, 3, 3, 1.0);
  f->script->fallback.delay = S (0.5);

  drive (f, sluice_array_source_new (items, G_N_ELEMENTS (items)));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (result_at (f, i), ==, 49);
      g_assert_cmpuint (script_attempts (f->script, i), ==, 1);
    }
  g_assert_cmpuint (run_stats (f).pulled, ==, 3);
  g_assert_cmpuint (f->metrics[0], ==, 3);
  g_assert_cmpstr (g_ptr_array_index (f->metric_details, 2), ==, "ok 7");
}

static void
test_queue_none_like_values_are_work (Fixture       *f,
                                      gconstpointer  data)
{
  GVariant *items[] = {
    g_variant_ref_sink (g_variant_new_tuple (NULL, 0)),
    g_variant_ref_sink (g_variant_new_maybe (G_VARIANT_TYPE_INT64, NULL)),
    g_variant_ref_sink (g_variant_new_string ("")),
    g_variant_ref_sink (g_variant_new_array (G_VARIANT_TYPE_INT64, NULL, 0)),
    g_variant_ref_sink (g_variant_new_boolean (FALSE)),
  };
  const char *details[] = { "ok ()", "ok nothing", "ok ''", "ok []", "ok false" };

  make_pool (f, 1, 1, 1.0);
  f->script->fallback.delay = S (0.1);

  drive (f, sluice_array_source_new (items, G_N_ELEMENTS (items)));

  /* Each empty value is an item like any other, handled in turn. */
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, G_N_ELEMENTS (items));
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_assert_true (g_variant_equal (g_ptr_array_index (f->results, i), items[i]));
      g_assert_cmpuint (script_attempts (f->script, i), ==, 1);
      g_assert_cmpstr (g_ptr_array_index (f->metric_details, i), ==, details[i]);
      g_variant_unref (items[i]);
    }
  g_assert_cmpuint (run_stats (f).pulled, ==, G_N_ELEMENTS (items));
}

/* }}} */
/* Yielding results as they finish {{{ */

static void
test_results_in_finish_order (Fixture       *f,
                              gconstpointer  data)
{
  const double delays[] = { 0.5, 0.2, 0.4, 0.1, 0.3 };
  const gint64 expected[] = { 9, 1, 16, 4, 0 };

  make_pool (f, 5, 5, 1.0);
  for (guint i = 0; i < G_N_ELEMENTS (delays); i++)
    script_set (f->script, i, DO_OK, delays[i], 0, NULL);

  drive (f, range (5));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpint (result_at (f, i), ==, expected[i]);
      g_assert_cmpint (result_time (f, i), ==, S (0.1 * (i + 1)));
    }
}

static void
test_results_workers_keep_going_while_caller_pauses (Fixture       *f,
                                                     gconstpointer  data)
{
  SluiceRunStats s;

  make_pool (f, 2, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  f->pause_after = 1;

  start_run (f, range (6));
  while (!sluice_run_is_finished (f->run) && g_main_context_iteration (NULL, FALSE))
    ;

  /* The caller took one result and asked for no more, yet every item was
   * handled: 6 items on 2 workers end at 3 s. */
  g_assert_true (f->paused);
  g_assert_true (sluice_run_is_finished (f->run));
  g_assert_cmpuint (f->results->len, ==, 1);
  s = run_stats (f);
  g_assert_cmpuint (s.succeeded, ==, 6);
  g_assert_cmpuint (s.yielded, ==, 1);
  g_assert_cmpint (sluice_run_get_finished_at (f->run), ==, S (3.0));

  /* The rest are waiting, and come at once. */
  ask_next (f);
  spin_until (f, &f->ended);
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 6);
  for (guint i = 1; i < 6; i++)
    g_assert_cmpint (result_time (f, i), ==, S (3.0));
}

/* }}} */
/* Deadlines {{{ */

static void
test_deadline_times_out (Fixture       *f,
                         gconstpointer  data)
{
  EventRecord *end;
  CallRecord *call;

  make_pool (f, 1, 1, 2.0);
  script_set (f->script, 0, DO_HANG, 0, 0, NULL);

  drive (f, range (1));

  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  assert_recorded_repr (f, 0, "TimeoutError('item timed out')");

  /* Cancelled at exactly item-timeout, and it honoured that at once. */
  call = script_call (f->script, 0, 1);
  g_assert_true (call->cancel_seen);
  g_assert_cmpint (call->ended, ==, S (2.0));
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_CANCEL_REQUEST, 0)->time, ==, S (2.0));
  end = nth_event (f, SLUICE_EVENT_ATTEMPT_END, 0);
  g_assert_cmpint (end->time, ==, S (2.0));
  g_assert_cmpint (end->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
  g_assert_cmpuint (run_stats (f).timeouts, ==, 1);
  g_assert_cmpint (f->end_time, ==, S (2.0));
}

static void
test_deadline_late_return_still_times_out (Fixture       *f,
                                           gconstpointer  data)
{
  CallRecord *call;

  make_pool (f, 1, 1, 1.0);
  script_set (f->script, 0, DO_LATE, 1.5, 0, NULL);

  drive (f, range (1));

  /* The handler returned a value at 1.5 s, while the pool was stopping it. */
  call = script_call (f->script, 0, 1);
  g_assert_true (call->returned_ok);
  g_assert_cmpint (call->ended, ==, S (1.5));
  g_assert_cmpuint (f->results->len, ==, 0);
  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  g_assert_cmpstr (recorded_error (f, 0)->message, ==, "item timed out");
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL_REQUEST), ==, 1);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ATTEMPT_END, 0)->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ATTEMPT_END, 0)->time, ==, S (1.5));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_ITEM_OK), ==, 0);
}

static void
test_deadline_three_cancel_rounds_then_wait (Fixture       *f,
                                             gconstpointer  data)
{
  EventRecord *ignoring;

  make_pool (f, 1, 1, 1.0);
  script_set (f->script, 0, DO_LATE, 10.0, 0, NULL);

  drive (f, range (1));

  /* Rounds at the deadline and one item-timeout apart, then a plain wait. */
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL_REQUEST), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      EventRecord *round = nth_event (f, SLUICE_EVENT_CANCEL_REQUEST, i);
      g_assert_cmpuint (round->round, ==, i + 1);
      g_assert_cmpint (round->time, ==, S (1.0 + i));
    }
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_IGNORING_CANCEL), ==, 1);
  ignoring = nth_event (f, SLUICE_EVENT_IGNORING_CANCEL, 0);
  g_assert_cmpint (ignoring->time, ==, S (4.0));
  g_assert_cmpuint (ignoring->round, ==, 3);

  /* The handler saw every round, and the pool waited for it. */
  g_assert_cmpuint (script_call (f->script, 0, 1)->rounds_seen, ==, 3);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ATTEMPT_END, 0)->time, ==, S (10.0));
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_ATTEMPT_END, 0)->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
  g_assert_cmpint (f->end_time, ==, S (10.0));
  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
}

static void
test_deadline_stubborn_stops_at_second_round (Fixture       *f,
                                              gconstpointer  data)
{
  CallRecord *call;

  make_pool (f, 1, 1, 1.0);
  script_set (f->script, 0, DO_STUBBORN, 10.0, 0, NULL);

  drive (f, range (1));

  call = script_call (f->script, 0, 1);
  g_assert_cmpuint (call->rounds_seen, ==, 2);
  g_assert_cmpint (call->ended, ==, S (2.0));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL_REQUEST), ==, 2);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_CANCEL_REQUEST, 1)->time, ==, S (2.0));
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_IGNORING_CANCEL), ==, 0);
  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  g_assert_cmpint (f->end_time, ==, S (2.0));
}

static void
finish_item_1 (gpointer data)
{
  Fixture *f = data;

  script_finish_now (f->script, 1);
}

static void
test_deadline_tie_goes_to_deadline (Fixture       *f,
                                    gconstpointer  data)
{
  make_pool (f, 3, 1, 1.0);
  /* Item 0 returns from a timer due with its deadline, fired after it;
   * item 1 from one fired before it (scheduled before the run); item 2 a
   * microsecond early. */
  script_set (f->script, 0, DO_OK, 1.0, 0, NULL);
  script_set (f->script, 1, DO_HANG, 0, 0, NULL);
  script_set (f->script, 2, DO_OK, 0.999999, 0, NULL);
  sluice_clock_add_timer (f->clock, S (1.0), finish_item_1, f, NULL);

  drive (f, range (3));

  /* Items 0 and 1 returned their value at exactly the deadline: too late
   * either way. Item 2 is in time. */
  for (gint64 i = 0; i < 2; i++)
    {
      g_assert_true (script_call (f->script, i, 1)->returned_ok);
      g_assert_cmpint (script_call (f->script, i, 1)->ended, ==, S (1.0));
      g_assert_cmpint (item_outcome (f, i), ==, SLUICE_OUTCOME_TIMED_OUT);
    }
  g_assert_false (script_call (f->script, 1, 1)->cancel_seen);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_at (f, 0), ==, 4);
  assert_group (f, 2);
  assert_recorded_repr (f, 0, "TimeoutError('item timed out')");
  assert_recorded_repr (f, 1, "TimeoutError('item timed out')");
}

static void
test_deadline_handler_cancelled_itself (Fixture       *f,
                                        gconstpointer  data)
{
  EventRecord *end;

  make_pool (f, 1, 1, 1.0);
  script_set (f->script, 0, DO_CANCEL_SELF, 0.5, 0, NULL);

  drive (f, range (1));

  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_HANDLER_CANCELLED);
  assert_recorded_repr (f, 0, "RuntimeError('handler cancelled itself')");
  /* Before its deadline, and nobody asked it to stop. */
  end = nth_event (f, SLUICE_EVENT_ATTEMPT_END, 0);
  g_assert_cmpint (end->time, ==, S (0.5));
  g_assert_cmpint (end->outcome, ==, SLUICE_OUTCOME_FAILED);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_CANCEL_REQUEST), ==, 0);
  g_assert_false (script_call (f->script, 0, 1)->cancel_seen);
  g_assert_cmpint (f->end_time, ==, S (0.5));
}

static void
test_deadline_attempt_local_data (Fixture       *f,
                                  gconstpointer  data)
{
  SluiceRunStats s;

  make_pool_full (f, 8, 4, 1.0, 2, "ValueError,TimeoutError", FALSE);
  for (gint64 i = 0; i < 60; i++)
    {
      double delay = 0.1 + 0.1 * (i % 4);

      if (i % 7 == 0)
        script_set (f->script, i, DO_HANG, delay, 1, NULL);
      else if (i % 5 == 0)
        script_set (f->script, i, DO_FAIL, delay, 1, "ValueError");
      else
        script_set (f->script, i, DO_OK, delay, 0, NULL);
    }

  drive (f, range (60));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 60);
  s = run_stats (f);
  /* Items 0, 5, …, 55 and 7, …, 56 (0 and 35 counted once) retried once. */
  g_assert_cmpuint (s.retries, ==, 19);
  g_assert_cmpuint (f->script->calls->len, ==, 79);
  g_assert_cmpuint (f->script->max_concurrent, ==, 8);
  /* Every call read back its own value, and no attempt started with
   * another's. */
  g_assert_cmpuint (f->script->ctx_failures, ==, 0);
}

/* }}} */
/* Retries {{{ */

static void
test_retry_only_retryable_types (Fixture       *f,
                                 gconstpointer  data)
{
  make_pool_full (f, 2, 1, 1.0, 3, "ValueError", FALSE);
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.3, 0, "KeyError");

  drive (f, range (2));

  g_assert_cmpuint (script_attempts (f->script, 0), ==, 2);
  g_assert_cmpuint (script_attempts (f->script, 1), ==, 1);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_at (f, 0), ==, 0);
  g_assert_cmpint (result_time (f, 0), ==, S (0.2));
  assert_group (f, 1);
  assert_recorded_repr (f, 0, "KeyError('attempt 1 failed')");
  g_assert_cmpuint (run_stats (f).retries, ==, 1);
}

static void
test_retry_up_to_max_retries (Fixture       *f,
                              gconstpointer  data)
{
  make_pool_full (f, 2, 1, 1.0, 2, "ValueError", FALSE);
  script_set (f->script, 0, DO_FAIL, 0.1, 2, "ValueError");
  script_set (f->script, 1, DO_FAIL, 0.1, 3, "ValueError");

  drive (f, range (2));

  /* Two more attempts each: item 0 makes it on its third, item 1 does not. */
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 3);
  g_assert_cmpuint (script_attempts (f->script, 1), ==, 3);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_at (f, 0), ==, 0);
  g_assert_cmpint (result_time (f, 0), ==, S (0.3));
  assert_group (f, 1);
  assert_recorded_repr (f, 0, "ValueError('attempt 3 failed')");
  g_assert_cmpuint (f->metrics[1], ==, 4);
}

static void
test_retry_timeout_only_if_timeout_retryable (Fixture       *f,
                                              gconstpointer  data)
{
  make_pool_full (f, 1, 1, 1.0, 3, "ValueError", FALSE);
  script_set (f->script, 0, DO_HANG, 0.5, 1, NULL);

  drive (f, range (1));

  /* TimeoutError is not in retryable: one attempt. */
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 1);
  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  g_assert_cmpuint (run_stats (f).retries, ==, 0);
}

static void
test_retry_timeout_retried_when_listed (Fixture       *f,
                                        gconstpointer  data)
{
  const char *details[] = { "retry TimeoutError('item timed out')", "ok 0", NULL };

  make_pool_full (f, 1, 1, 1.0, 3, "TimeoutError", FALSE);
  script_set (f->script, 0, DO_HANG, 0.5, 1, NULL);

  drive (f, range (1));

  /* Timed out at 1 s, retried at once, done half a second later. */
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 2);
  g_assert_cmpint (script_call (f->script, 0, 2)->started, ==, S (1.0));
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_time (f, 0), ==, S (1.5));
  assert_metric_details (f, details);
}

static void
test_retry_after_previous_finished (Fixture       *f,
                                    gconstpointer  data)
{
  CallRecord *first;
  CallRecord *second;

  make_pool_full (f, 1, 1, 1.0, 1, "TimeoutError", FALSE);
  script_set (f->script, 0, DO_LATE, 1.5, 1, NULL);
  script_then (f->script, 0, 0.5);

  drive (f, range (1));

  /* The first attempt timed out at 1 s but ran until 1.5 s: the retry
   * waited for it, and took half a second. */
  first = script_call (f->script, 0, 1);
  second = script_call (f->script, 0, 2);
  g_assert_cmpint (first->ended, ==, S (1.5));
  g_assert_cmpint (second->started, ==, S (1.5));
  g_assert_cmpuint (f->script->overlaps, ==, 0);
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_time (f, 0), ==, S (2.0));
}

static void
test_retry_exhausted_keeps_last_error_object (Fixture       *f,
                                              gconstpointer  data)
{
  const GError *error;

  make_pool_full (f, 1, 1, 1.0, 2, "ValueError", FALSE);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");

  drive (f, range (1));

  g_assert_cmpuint (script_attempts (f->script, 0), ==, 3);
  assert_group (f, 1);
  /* The very GError the third attempt returned, not a copy. */
  error = recorded_error (f, 0);
  g_assert_true (error == script_call (f->script, 0, 3)->error);
  g_assert_error (error, SLUICE_NAMED_ERROR, sluice_named_error_code ("ValueError"));
  g_assert_cmpstr (error->message, ==, "attempt 3 failed");
}

static void
test_retry_cancellation_never_retried (Fixture       *f,
                                       gconstpointer  data)
{
  make_pool_full (f, 1, 1, 10.0, 5, "CancelledError,RuntimeError,TimeoutError", FALSE);
  script_set (f->script, 0, DO_HANG, 0, 0, NULL);
  f->cancel = g_cancellable_new ();
  at (f, 1.0, ACT_CANCEL);

  drive (f, range (1));

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (1.0));
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 1);
  g_assert_cmpuint (run_stats (f).retries, ==, 0);
  g_assert_cmpuint (run_stats (f).cancelled, ==, 1);
  assert_accounted (f);
}

/* }}} */
/* Metrics {{{ */

/* Four workers: item 0 ok at 0.1 s; item 1 fails once at 0.2 s and is ok
 * at 0.4 s; item 3 ok at 0.3 s; item 2 hangs and times out at 1 s. */
static void
drive_metrics_scenario (Fixture *f)
{
  make_pool_full (f, 4, 1, 1.0, 1, "ValueError", FALSE);
  script_set (f->script, 0, DO_OK, 0.1, 0, NULL);
  script_set (f->script, 1, DO_FAIL, 0.2, 1, "ValueError");
  script_set (f->script, 2, DO_HANG, 0, 0, NULL);
  script_set (f->script, 3, DO_OK, 0.3, 0, NULL);

  drive (f, range (4));
}

static void
assert_metrics_scenario (Fixture *f)
{
  const char *details[] = {
    "ok 0",
    "retry ValueError('attempt 1 failed')",
    "ok 3",
    "ok 1",
    "failure TimeoutError('item timed out')",
    NULL
  };

  g_assert_cmpuint (f->metrics[0], ==, 3);
  g_assert_cmpuint (f->metrics[1], ==, 1);
  g_assert_cmpuint (f->metrics[2], ==, 1);
  assert_metric_details (f, details);

  g_assert_cmpuint (f->results->len, ==, 3);
  g_assert_cmpint (result_at (f, 0), ==, 0);
  g_assert_cmpint (result_at (f, 1), ==, 9);
  g_assert_cmpint (result_at (f, 2), ==, 1);
  assert_group (f, 1);
  assert_recorded_repr (f, 0, "TimeoutError('item timed out')");
  g_assert_cmpint (f->end_time, ==, S (1.0));
}

static void
test_metrics_once_per_event (Fixture       *f,
                             gconstpointer  data)
{
  drive_metrics_scenario (f);
  assert_metrics_scenario (f);
}

static void
test_metrics_broken_backend_ignored (Fixture       *f,
                                     gconstpointer  data)
{
  f->broken_metrics = TRUE;
  drive_metrics_scenario (f);
  /* Every call failed, and the run is the same as with a working one. */
  assert_metrics_scenario (f);
}

static void
test_metrics_callback_may_request_stop (Fixture       *f,
                                        gconstpointer  data)
{
  g_autoptr(SluicePool) pool = NULL;
  SluiceRunStats s;

  make_pool (f, 1, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  /* The first `ok` requests a stop and drops the caller's pool. */
  f->stop_on_metric = "ok";
  f->drop_pool_on_metric = TRUE;
  pool = g_object_ref (f->pool);

  drive (f, range (10));

  g_assert_null (f->pool);
  g_assert_true (sluice_pool_get_stop_requested (pool));
  /* At 1 s: item 1 queued is drained, item 2 held by the producer is not. */
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (f->end_time, ==, S (2.0));
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 3);
  g_assert_cmpuint (s.dropped, ==, 1);
  assert_accounted (f);
}

static void
test_metrics_callback_may_close_run (Fixture       *f,
                                     gconstpointer  data)
{
  /* Item 0 fails at 0.1 s and would be retried for 5 s; the `retry`
   * callback closes the run instead. */
  make_pool_full (f, 1, 1, 10.0, 3, "ValueError", FALSE);
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");
  script_then (f->script, 0, 5.0);
  f->close_on_metric = "retry";

  drive (f, range (5));

  /* A cancelled run starts no retry: the close completes at once. */
  g_assert_cmpuint (f->metrics[1], ==, 1);
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 1);
  g_assert_cmpuint (f->n_closed, ==, 1);
  g_assert_cmpint (f->close_time, ==, S (0.1));
  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, S (0.1));
  g_assert_cmpuint (run_stats (f).cancelled, ==, 1);
  assert_accounted (f);
}

static void
test_metrics_callback_may_drop_references (Fixture       *f,
                                           gconstpointer  data)
{
  TestSource *source = test_source_new (6);
  SluiceRun *run;

  /* The first `ok` drops the caller's run and pool; the caller asks for
   * nothing more. The run still finishes everything, then goes. */
  make_pool (f, 2, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  f->stop_on_metric = "ok";
  f->drop_pool_on_metric = TRUE;
  f->drop_run_on_metric = TRUE;
  f->pause_after = 1;

  start_run (f, SLUICE_SOURCE (source));
  run = f->run;
  g_object_add_weak_pointer (G_OBJECT (run), (gpointer *) &run);
  while (run != NULL && g_main_context_iteration (NULL, FALSE))
    ;

  g_assert_null (run);
  g_assert_null (f->pool);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpuint (G_OBJECT (source)->ref_count, ==, 1);
  g_assert_cmpuint (source->pending, ==, 0);
  g_assert_cmpuint (f->script->concurrent, ==, 0);
  /* Items 0 and 1 ran, item 2 queued was drained. */
  g_assert_cmpuint (f->script->calls->len, ==, 3);
  g_assert_cmpint (sluice_clock_now (f->clock), ==, S (2.0));
}

/* }}} */
/* The func handler's result helper (bindings) {{{ */

static void
count_freed (gpointer data)
{
  (*(gint *) data)++;
}

static void
return_with_helper (SluiceAttempt *attempt,
                    GTask         *task,
                    gpointer       user_data)
{
  static const gint64 watched = 7;
  gint64 n = g_variant_get_int64 (sluice_attempt_get_item (attempt));

  if (n == 0)
    {
      /* A reference the caller keeps and drops, as a binding's. */
      g_autoptr(GBytes) bytes = g_bytes_new_with_free_func (&watched, sizeof watched,
                                                            count_freed, user_data);
      g_autoptr(GVariant) owned = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE_INT64,
                                                                                bytes, TRUE));
      sluice_func_handler_return_result (task, owned);
    }
  else
    sluice_func_handler_return_result (task, g_variant_new_int64 (n * 10));  /* floating */
  g_object_unref (task);
}

typedef struct {
  GPtrArray *results;
  gboolean   ended;
} HelperRun;

static void
on_helper_next (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  HelperRun *h = user_data;
  g_autoptr(GError) error = NULL;
  GVariant *result = sluice_run_next_finish (SLUICE_RUN (object), res, &error);

  g_assert_no_error (error);
  if (result == NULL)
    {
      h->ended = TRUE;
      return;
    }
  g_ptr_array_add (h->results, result);
  sluice_run_next_async (SLUICE_RUN (object), NULL, on_helper_next, h);
}

/* sluice_func_handler_return_result() completes an attempt with a floating
 * result or with one its caller still holds, and keeps no reference once
 * the result is dropped. */
static void
test_func_handler_return_result (void)
{
  gint freed = 0;
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (return_with_helper, &freed, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluicePool) pool = sluice_pool_new (handler, 1, 1, 5.0, &error);
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (3);
  g_autoptr(SluiceRun) run = NULL;
  HelperRun h = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref), FALSE };

  g_assert_no_error (error);
  run = sluice_pool_run (pool, source, &error);
  g_assert_no_error (error);
  sluice_run_next_async (run, NULL, on_helper_next, &h);
  while (!h.ended)
    g_main_context_iteration (NULL, TRUE);

  /* One worker: the results come in item order. */
  g_assert_cmpuint (h.results->len, ==, 3);
  g_assert_cmpint (g_variant_get_int64 (g_ptr_array_index (h.results, 0)), ==, 7);
  g_assert_cmpint (g_variant_get_int64 (g_ptr_array_index (h.results, 1)), ==, 10);
  g_assert_cmpint (g_variant_get_int64 (g_ptr_array_index (h.results, 2)), ==, 20);
  g_assert_cmpint (freed, ==, 0);

  g_clear_pointer (&h.results, g_ptr_array_unref);
  g_clear_object (&run);
  g_clear_object (&pool);
  g_assert_cmpint (freed, ==, 1);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/pool/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("seed-example", test_seed_example);

  ADD ("init/rejects-zero-workers", test_init_rejects_zero_workers);
  ADD ("init/rejects-negative-workers", test_init_rejects_negative_workers);
  ADD ("init/rejects-workers-above-maximum", test_init_rejects_workers_above_maximum);
  ADD ("init/accepts-maximum-workers", test_init_accepts_maximum_workers);
  ADD ("init/rejects-zero-queue-size", test_init_rejects_zero_queue_size);
  ADD ("init/rejects-negative-queue-size", test_init_rejects_negative_queue_size);
  ADD ("init/rejects-zero-item-timeout", test_init_rejects_zero_item_timeout);
  ADD ("init/rejects-negative-item-timeout", test_init_rejects_negative_item_timeout);
  ADD ("init/rejects-non-finite-item-timeout", test_init_rejects_non_finite_item_timeout);
  ADD ("init/rejects-negative-max-retries", test_init_rejects_negative_max_retries);
  ADD ("init/accepts-smallest-valid-options", test_init_accepts_smallest_valid_options);
  ADD ("single-use", test_single_use);

  ADD ("queue/bounded-with-exactly-workers-consumers", test_queue_bounded_with_exactly_workers_consumers);
  ADD ("queue/lead-bounded-by-queue-size-plus-workers-plus-one", test_queue_lead_bounded);
  ADD ("queue/equal-items-are-separate-work", test_queue_equal_items_are_separate_work);
  ADD ("queue/none-like-values-are-work", test_queue_none_like_values_are_work);

  ADD ("results/in-finish-order", test_results_in_finish_order);
  ADD ("results/workers-keep-going-while-caller-pauses", test_results_workers_keep_going_while_caller_pauses);

  ADD ("deadline/times-out-with-item-timed-out", test_deadline_times_out);
  ADD ("deadline/late-return-still-times-out", test_deadline_late_return_still_times_out);
  ADD ("deadline/three-cancel-rounds-then-wait", test_deadline_three_cancel_rounds_then_wait);
  ADD ("deadline/stubborn-stops-at-second-round", test_deadline_stubborn_stops_at_second_round);
  ADD ("deadline/tie-goes-to-deadline", test_deadline_tie_goes_to_deadline);
  ADD ("deadline/handler-cancelled-itself", test_deadline_handler_cancelled_itself);
  ADD ("deadline/attempt-local-data", test_deadline_attempt_local_data);

  ADD ("retry/only-retryable-types", test_retry_only_retryable_types);
  ADD ("retry/up-to-max-retries", test_retry_up_to_max_retries);
  ADD ("retry/timeout-only-if-timeout-retryable", test_retry_timeout_only_if_timeout_retryable);
  ADD ("retry/timeout-retried-when-listed", test_retry_timeout_retried_when_listed);
  ADD ("retry/after-previous-finished", test_retry_after_previous_finished);
  ADD ("retry/exhausted-keeps-last-error-object", test_retry_exhausted_keeps_last_error_object);
  ADD ("retry/cancellation-never-retried", test_retry_cancellation_never_retried);

  ADD ("metrics/once-per-event", test_metrics_once_per_event);
  ADD ("metrics/broken-backend-ignored", test_metrics_broken_backend_ignored);
  ADD ("metrics/callback-may-request-stop", test_metrics_callback_may_request_stop);
  ADD ("metrics/callback-may-close-run", test_metrics_callback_may_close_run);
  ADD ("metrics/callback-may-drop-references", test_metrics_callback_may_drop_references);

  g_test_add_func ("/pool/func-handler/return-result", test_func_handler_return_result);

  return g_test_run ();
}
