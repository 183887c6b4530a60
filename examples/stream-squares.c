/* Squares five numbers, several at a time; later numbers finish sooner.
 * Build: cc stream-squares.c $(pkg-config --cflags --libs sluice-1) */
#include <sluice.h>

static gboolean
finish (gpointer data)
{
  GTask *task = data;  /* its task data is the attempt */
  gint64 n = g_variant_get_int64 (sluice_attempt_get_item (g_task_get_task_data (task)));

  if (n == 2)
    g_task_return_error (task, sluice_named_error_new ("ValueError", "no twos"));
  else
    g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (n * n)),
                           (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
square (SluiceAttempt *attempt, GTask *task, gpointer data)
{
  g_timeout_add (50 * (5 - g_variant_get_int64 (sluice_attempt_get_item (attempt))), finish, task);
}

static void
on_next (GObject *run, GAsyncResult *res, gpointer loop)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) result = sluice_run_next_finish (SLUICE_RUN (run), res, &error);

  if (result != NULL)
    {
      g_print ("%" G_GINT64_FORMAT "\n", g_variant_get_int64 (result));
      sluice_run_next_async (SLUICE_RUN (run), NULL, on_next, loop);
      return;
    }
  if (g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_GROUP))
    for (guint i = 0; i < sluice_run_get_errors (SLUICE_RUN (run))->len; i++)
      {
        g_autofree char *repr = sluice_error_repr (g_ptr_array_index (sluice_run_get_errors (SLUICE_RUN (run)), i));
        g_print ("failed for good: %s\n", repr);
      }
  g_main_loop_quit (loop);
}

int
main (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (square, NULL, NULL);
  g_autoptr(SluicePool) pool = sluice_pool_new (handler, 5, 5, 1.0, NULL);
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (5);
  g_autoptr(SluiceRun) run = sluice_pool_run (pool, source, NULL);

  sluice_run_next_async (run, NULL, on_next, loop);
  g_main_loop_run (loop);
  return 0;
}
