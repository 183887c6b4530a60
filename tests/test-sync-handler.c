/* test-sync-handler.c: a handler that completes inside handle_async()
 *
 * GIO asks async operations never to call back before they return, but a
 * handler from outside may do it anyway. The pool must neither recurse once
 * per item (the stack would overflow on a long run) nor lose an item.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <sluice.h>

#define N_ITEMS 50000

struct _TestSyncHandler
{
  GObject      parent_instance;
  SluiceClock *clock;
  guint        calls;
};

#define TEST_TYPE_SYNC_HANDLER (test_sync_handler_get_type ())
G_DECLARE_FINAL_TYPE (TestSyncHandler, test_sync_handler, TEST, SYNC_HANDLER, GObject)

static void handler_iface_init (SluiceHandlerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestSyncHandler, test_sync_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, handler_iface_init))

static void
complete_later (gpointer data)
{
  GTask *task = data;
  GAsyncReadyCallback callback = g_object_get_data (G_OBJECT (task), "callback");

  g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (1)),
                         (GDestroyNotify) g_variant_unref);
  callback (g_task_get_source_object (task), G_ASYNC_RESULT (task),
            g_object_get_data (G_OBJECT (task), "user-data"));
}

static void
sync_handle_async (SluiceHandler       *handler,
                   SluiceAttempt       *attempt,
                   GCancellable        *cancellable,
                   GAsyncReadyCallback  callback,
                   gpointer             user_data)
{
  TestSyncHandler *self = TEST_SYNC_HANDLER (handler);
  g_autoptr(GTask) task = g_task_new (self, cancellable, NULL, NULL);
  gint64 n = g_variant_get_int64 (sluice_attempt_get_item (attempt));

  self->calls++;

  /* Item 0 takes a while, so that the queue fills behind it; then every
   * queued item completes at once, one after the other. */
  if (n == 0)
    {
      g_task_set_task_data (task, g_object_ref (attempt), g_object_unref);
      g_object_set_data (G_OBJECT (task), "callback", callback);
      g_object_set_data (G_OBJECT (task), "user-data", user_data);
      sluice_clock_add_timeout (self->clock, G_USEC_PER_SEC, complete_later,
                                g_object_ref (task), g_object_unref);
      return;
    }

  g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (n + 1)),
                         (GDestroyNotify) g_variant_unref);
  /* The task has no callback of its own: this is the only completion. */
  callback (G_OBJECT (self), G_ASYNC_RESULT (task), user_data);
}

static void
handler_iface_init (SluiceHandlerInterface *iface)
{
  /* No handle_finish: the interface's default propagates the task's
   * pointer, which is what this handler returns. */
  iface->handle_async = sync_handle_async;
}

static void
test_sync_handler_class_init (TestSyncHandlerClass *klass)
{
}

static void
test_sync_handler_init (TestSyncHandler *self)
{
}

typedef struct {
  guint   n_results;
  gint64  sum;
  GError *error;
  gboolean ended;
} Outcome;

static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Outcome *outcome = user_data;
  g_autoptr(GVariant) result = sluice_run_next_finish (SLUICE_RUN (object), res, &outcome->error);

  if (result == NULL)
    {
      outcome->ended = TRUE;
      return;
    }
  outcome->n_results++;
  outcome->sum += g_variant_get_int64 (result);
  sluice_run_next_async (SLUICE_RUN (object), NULL, on_next, outcome);
}

static void
test_completes_inside_handle_async (void)
{
  g_autoptr(TestSyncHandler) handler = g_object_new (TEST_TYPE_SYNC_HANDLER, NULL);
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (N_ITEMS);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(SluiceRun) run = NULL;
  g_autoptr(GError) error = NULL;
  Outcome outcome = { 0 };
  SluiceRunStats stats;
  guint i;

  handler->clock = clock;
  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                         "handler", handler, "clock", clock,
                         "workers", 1, "queue-size", N_ITEMS, "item-timeout", 10.0,
                         NULL);
  g_assert_no_error (error);
  run = sluice_pool_run (pool, source, &error);
  g_assert_no_error (error);

  sluice_run_next_async (run, NULL, on_next, &outcome);
  for (i = 0; i < 10 * N_ITEMS && !outcome.ended; i++)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (outcome.ended);
  g_assert_no_error (outcome.error);
  g_assert_cmpuint (handler->calls, ==, N_ITEMS);
  g_assert_cmpuint (outcome.n_results, ==, N_ITEMS);
  /* Every item exactly once: the sum of n + 1 over 0 … N−1. */
  g_assert_cmpint (outcome.sum, ==, (gint64) N_ITEMS * (N_ITEMS + 1) / 2);
  sluice_run_get_stats (run, &stats);
  g_assert_cmpuint (stats.succeeded, ==, N_ITEMS);
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
}

/* A handler that completes a GTask of its own needs no handle_finish: the
 * interface's default hands back the task's value, or its error. */
static void
test_default_finish_propagates_task (void)
{
  g_autoptr(TestSyncHandler) handler = g_object_new (TEST_TYPE_SYNC_HANDLER, NULL);
  g_autoptr(GTask) ok = g_task_new (handler, NULL, NULL, NULL);
  g_autoptr(GTask) failed = g_task_new (handler, NULL, NULL, NULL);
  g_autoptr(GVariant) value = NULL;
  g_autoptr(GError) error = NULL;

  g_task_return_pointer (ok, g_variant_ref_sink (g_variant_new_int64 (42)),
                         (GDestroyNotify) g_variant_unref);
  value = sluice_handler_handle_finish (SLUICE_HANDLER (handler), G_ASYNC_RESULT (ok), &error);
  g_assert_no_error (error);
  g_assert_nonnull (value);
  g_assert_cmpint (g_variant_get_int64 (value), ==, 42);

  g_task_return_new_error (failed, G_IO_ERROR, G_IO_ERROR_TIMED_OUT, "too slow");
  g_assert_null (sluice_handler_handle_finish (SLUICE_HANDLER (handler),
                                               G_ASYNC_RESULT (failed), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pool/handler/completes-inside-handle-async",
                   test_completes_inside_handle_async);
  g_test_add_func ("/handler/default-finish-propagates-task",
                   test_default_finish_propagates_task);

  return g_test_run ();
}
