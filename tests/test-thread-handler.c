/* test-thread-handler.c: blocking handlers in the pool's own thread pool
 *
 * These tests use real threads, so they wait on the real clock: a thread's
 * work cannot be driven by a virtual clock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <sluice.h>

#define N_BLOCKING 12

typedef struct {
  gint      running;
  gint      max_running;
  gboolean  wait_for_all;
  gulong    sleep_us;
} Blocking;

static void
note_running (Blocking *b,
              gint      delta)
{
  gint now = g_atomic_int_add (&b->running, delta) + delta;
  gint max;

  while ((max = g_atomic_int_get (&b->max_running)) < now &&
         !g_atomic_int_compare_and_exchange (&b->max_running, max, now))
    ;
}

static GVariant *
block_in_thread (GVariant      *item,
                 GCancellable  *cancellable,
                 gpointer       user_data,
                 GError       **error)
{
  Blocking *b = user_data;
  gint64 give_up = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  gint64 n = g_variant_get_int64 (item);

  note_running (b, +1);

  /* A rendezvous: every attempt blocks until all of them run at once,
   * which a pool of 10 threads (GTask's) could never reach. */
  while (b->wait_for_all && g_atomic_int_get (&b->max_running) < N_BLOCKING &&
         g_get_monotonic_time () < give_up)
    g_usleep (1000);

  if (b->sleep_us > 0)
    g_usleep (b->sleep_us);

  note_running (b, -1);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return g_variant_new_int64 (n * n);
}

typedef struct {
  GPtrArray *results;
  GError    *error;
  gboolean   ended;
} Outcome;

static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Outcome *outcome = user_data;
  GVariant *result = sluice_run_next_finish (SLUICE_RUN (object), res, &outcome->error);

  if (result == NULL)
    {
      outcome->ended = TRUE;
      return;
    }
  g_ptr_array_add (outcome->results, result);
  sluice_run_next_async (SLUICE_RUN (object), NULL, on_next, outcome);
}

static SluiceRun *
run_to_end (SluicePool *pool,
            gint64      n_items,
            Outcome    *outcome)
{
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (n_items);
  g_autoptr(GError) error = NULL;
  SluiceRun *run = sluice_pool_run (pool, source, &error);
  gint64 give_up = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  g_assert_no_error (error);
  outcome->results = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  sluice_run_next_async (run, NULL, on_next, outcome);
  while (!outcome->ended && g_get_monotonic_time () < give_up)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (outcome->ended);
  g_assert_true (sluice_run_is_finished (run));
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
  return run;
}

static void
test_more_blocked_threads_than_gtask_allows (void)
{
  Blocking b = { .wait_for_all = TRUE };
  g_autoptr(SluiceHandler) handler = sluice_thread_handler_new (block_in_thread, &b, NULL, N_BLOCKING);
  g_autoptr(SluicePool) pool = sluice_pool_new (handler, N_BLOCKING, N_BLOCKING, 10.0, NULL);
  g_autoptr(SluiceRun) run = NULL;
  Outcome outcome = { 0 };

  run = run_to_end (pool, N_BLOCKING, &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpuint (outcome.results->len, ==, N_BLOCKING);
  g_assert_cmpint (g_atomic_int_get (&b.max_running), ==, N_BLOCKING);
  g_ptr_array_unref (outcome.results);
}

static void
test_timed_out_thread_is_waited_for (void)
{
  Blocking b = { .sleep_us = 200 * 1000 };
  g_autoptr(SluiceHandler) handler = sluice_thread_handler_new (block_in_thread, &b, NULL, 2);
  g_autoptr(SluicePool) pool = sluice_pool_new (handler, 1, 1, 0.02, NULL);
  g_autoptr(SluiceRun) run = NULL;
  Outcome outcome = { 0 };
  const GError *recorded;

  run = run_to_end (pool, 1, &outcome);

  /* The thread cannot be killed: the run ended only after it returned. */
  g_assert_cmpint (g_atomic_int_get (&b.running), ==, 0);
  g_assert_error (outcome.error, SLUICE_ERROR, SLUICE_ERROR_GROUP);
  g_assert_cmpuint (sluice_run_get_errors (run)->len, ==, 1);
  recorded = g_ptr_array_index (sluice_run_get_errors (run), 0);
  g_assert_error (recorded, SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  g_assert_cmpuint (outcome.results->len, ==, 0);
  g_clear_error (&outcome.error);
  g_ptr_array_unref (outcome.results);
}

static GVariant *
return_nothing (GVariant      *item,
                GCancellable  *cancellable,
                gpointer       user_data,
                GError       **error)
{
  return NULL;
}

/* A function that gives neither a result nor an error fails its item with
 * the same error as an async handler that does so. */
static void
test_no_result_is_one_error (void)
{
  g_autoptr(SluiceHandler) handler = sluice_thread_handler_new (return_nothing, NULL, NULL, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluicePool) pool = sluice_pool_new (handler, 1, 1, 5.0, &error);
  g_autoptr(SluiceRun) run = NULL;
  Outcome outcome = { 0 };
  const GError *recorded;

  g_assert_no_error (error);
  run = run_to_end (pool, 1, &outcome);

  g_assert_error (outcome.error, SLUICE_ERROR, SLUICE_ERROR_GROUP);
  g_assert_cmpuint (sluice_run_get_errors (run)->len, ==, 1);
  recorded = g_ptr_array_index (sluice_run_get_errors (run), 0);
  g_assert_error (recorded, SLUICE_ERROR, SLUICE_ERROR_NO_RESULT);
  g_assert_cmpstr (recorded->message, ==, "handler returned neither a result nor an error");
  g_assert_cmpstr (sluice_error_type_name (recorded), ==, "RuntimeError");

  g_clear_error (&outcome.error);
  g_ptr_array_unref (outcome.results);
}

static void
count_freed (gpointer data)
{
  g_atomic_int_inc ((gint *) data);
}

/* A result whose bytes tell when the last reference to it is gone. */
static GVariant *
watched_int64 (gint *freed)
{
  static const gint64 value = 42;
  g_autoptr(GBytes) bytes = g_bytes_new_with_free_func (&value, sizeof value, count_freed, freed);

  return g_variant_new_from_bytes (G_VARIANT_TYPE_INT64, bytes, TRUE);
}

static GVariant *
return_owned_reference (GVariant      *item,
                        GCancellable  *cancellable,
                        gpointer       user_data,
                        GError       **error)
{
  /* A full reference that is not floating, as a binding returns it. */
  return g_variant_ref_sink (watched_int64 (user_data));
}

/* The function's full reference is taken whether it is floating (C's
 * g_variant_new ()) or not (PyGObject's): once the caller drops the
 * results, nothing holds them. */
static void
test_owned_result_is_taken (void)
{
  gint freed = 0;
  g_autoptr(SluiceHandler) handler = sluice_thread_handler_new (return_owned_reference, &freed, NULL, 2);
  g_autoptr(SluicePool) pool = sluice_pool_new (handler, 2, 2, 5.0, NULL);
  g_autoptr(SluiceRun) run = NULL;
  Outcome outcome = { 0 };

  run = run_to_end (pool, 3, &outcome);

  g_assert_no_error (outcome.error);
  g_assert_cmpuint (outcome.results->len, ==, 3);
  for (guint i = 0; i < outcome.results->len; i++)
    g_assert_cmpint (g_variant_get_int64 (g_ptr_array_index (outcome.results, i)), ==, 42);
  g_assert_cmpint (g_atomic_int_get (&freed), ==, 0);

  g_ptr_array_unref (outcome.results);
  g_clear_object (&run);
  g_clear_object (&pool);
  g_assert_cmpint (g_atomic_int_get (&freed), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/thread-handler/more-blocked-threads-than-gtask-allows",
                   test_more_blocked_threads_than_gtask_allows);
  g_test_add_func ("/thread-handler/no-result-is-one-error", test_no_result_is_one_error);
  g_test_add_func ("/thread-handler/owned-result-is-taken", test_owned_result_is_taken);
  g_test_add_func ("/thread-handler/timed-out-thread-is-waited-for",
                   test_timed_out_thread_is_waited_for);

  return g_test_run ();
}
