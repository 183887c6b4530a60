/* monitor-child.c: a program whose pool SLUICE_MONITOR exports, for
 * test-monitor
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * It makes one pool through the public API only, and SLUICE_MONITOR=session
 * (or session,control) exports it on the session bus without a call of its
 * own. Once the process's bus name is on the bus it prints
 *
 *   ready BUS-NAME OBJECT-PATH
 *
 * Its items take 5 ms each on the real clock: the parent watches it live
 * from another process, so here time passes by itself. It works until a
 * stop, asked for over D-Bus (RequestStop) or by the line `stop` on its
 * standard input; at the run's end it prints
 *
 *   done EVENTS SUCCEEDED
 *
 * (the events its own event function received, the items that succeeded)
 * and keeps the pool exported until its standard input ends, then exits
 * once its name has left the bus. The end of its input before the run's
 * end makes it exit at once, its run unfinished, as a killed program does.
 *
 * With --exit-at-end it exits as soon as its run has ended instead: it
 * drops its pool, which unexports it, and returns from main() at once,
 * without waiting for anything: what the export had not sent yet must
 * still reach its subscribers.
 *
 * The flood test shapes the run: --items=N ends it by itself after N
 * items, --item-ms=MS makes each take MS ms, --item-timeout=S and
 * --event-capacity=N set the pool's options of those names. With
 * --items its report at the end is
 *
 *   done EVENTS SUCCEEDED FAILED TIMED-OUT
 *
 * so that the flood test sees every item accounted for.
 */

#include <stdio.h>
#include <unistd.h>

#include <gio/gunixinputstream.h>
#include <sluice.h>

#include "echo-handler.h"

typedef struct
{
  GMainLoop        *loop;
  SluicePool       *pool;
  SluiceRun        *run;
  GDataInputStream *input;
  guint64           n_events;
  gboolean          exit_at_end;
  gboolean          long_report;
  guint             item_ms;
  gboolean          ended;
  gboolean          name_gone;
} Child;

static void
count_event (const SluiceEvent *event,
             gpointer           user_data)
{
  Child *child = user_data;

  child->n_events++;
}

static void
handle (SluiceAttempt *attempt,
        GTask         *task,
        gpointer       user_data)
{
  Child *child = user_data;

  echo_item_later (attempt, task, child->item_ms);
}

static void
on_next (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Child *child = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) value = sluice_run_next_finish (SLUICE_RUN (object), result, &error);
  SluiceRunStats stats;

  /* One read at a time, and none once the run has ended or the child
   * has let go of it. */
  if (value != NULL && !child->ended && child->run != NULL)
    {
      sluice_run_next_async (child->run, NULL, on_next, child);
      return;
    }
  if (value != NULL || child->ended)
    return;

  g_assert_no_error (error);
  sluice_run_get_stats (SLUICE_RUN (object), &stats);
  if (child->long_report)
    printf ("done %" G_GUINT64_FORMAT " %u %u %u\n", child->n_events, stats.succeeded, stats.failed,
            stats.timeouts);
  else
    printf ("done %" G_GUINT64_FORMAT " %u\n", child->n_events, stats.succeeded);
  fflush (stdout);
  child->ended = TRUE;
  if (child->exit_at_end)
    g_main_loop_quit (child->loop);
}

static void
on_line (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Child *child = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (child->input, result, NULL, &error);

  if (line == NULL)
    {
      /* Before the run's end, the end of the input ends the program at
       * once, as a program that is killed ends: its name goes with its
       * connection, its run unfinished. Nothing of it runs any more: the
       * pending read of results is never answered. */
      if (!child->ended)
        {
          fflush (stdout);
          _exit (0);
        }
      if (!child->exit_at_end)
        g_main_loop_quit (child->loop);
      return;
    }

  if (g_str_equal (line, "stop"))
    sluice_pool_request_stop (child->pool);
  g_data_input_stream_read_line_async (child->input, G_PRIORITY_DEFAULT, NULL, on_line, child);
}

static void
on_name_vanished (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  Child *child = user_data;

  child->name_gone = TRUE;
}

static void
on_name_appeared (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  Child *child = user_data;

  child->name_gone = FALSE;
  printf ("ready %s %s\n", name, sluice_pool_get_object_path (child->pool));
  fflush (stdout);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SluiceHandler) handler = NULL;
  g_autoptr(SluiceSource) source = NULL;
  g_autoptr(GInputStream) stdin_stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GOptionContext) options = NULL;
  Child child = { 0 };
  gint64 n_items = G_MAXINT64;
  int item_ms = 5;
  double item_timeout = 60.0;
  int event_capacity = 200000;
  guint watch;
  const GOptionEntry entries[] = {
    { "exit-at-end", 0, 0, G_OPTION_ARG_NONE, &child.exit_at_end, "Exit as soon as the run has ended", NULL },
    { "items", 0, 0, G_OPTION_ARG_INT64, &n_items, "Items of the run (endless without)", "N" },
    { "item-ms", 0, 0, G_OPTION_ARG_INT, &item_ms, "How long an item takes", "MS" },
    { "item-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &item_timeout, "The pool's item-timeout", "S" },
    { "event-capacity", 0, 0, G_OPTION_ARG_INT, &event_capacity, "The pool's event-capacity", "N" },
    G_OPTION_ENTRY_NULL
  };

  g_set_prgname ("sluice-monitor-child");
  options = g_option_context_new (NULL);
  g_option_context_add_main_entries (options, entries, NULL);
  if (!g_option_context_parse (options, &argc, &argv, &error))
    {
      fprintf (stderr, "monitor-child: %s\n", error->message);
      return 2;
    }
  child.long_report = n_items != G_MAXINT64;
  child.item_ms = (guint) MAX (item_ms, 0);

  handler = sluice_func_handler_new (handle, &child, NULL);
  child.pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                               "handler", handler,
                               "workers", 2,
                               "queue-size", 4,
                               "item-timeout", item_timeout,
                               "event-capacity", (guint) MAX (event_capacity, 1),
                               NULL);
  g_assert_no_error (error);
  if (sluice_pool_get_object_path (child.pool) == NULL)
    {
      fprintf (stderr, "monitor-child: the pool is not exported (SLUICE_MONITOR=%s)\n", g_getenv ("SLUICE_MONITOR"));
      return 1;
    }
  sluice_pool_set_event_func (child.pool, count_event, &child, NULL);

  source = sluice_array_source_new_range (n_items);
  child.run = sluice_pool_run (child.pool, source, &error);
  g_assert_no_error (error);
  sluice_run_next_async (child.run, NULL, on_next, &child);

  stdin_stream = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  child.input = g_data_input_stream_new (stdin_stream);
  g_data_input_stream_read_line_async (child.input, G_PRIORITY_DEFAULT, NULL, on_line, &child);

  name = g_strdup_printf (SLUICE_MONITOR_BUS_NAME_PREFIX "p%ld", (long) getpid ());
  watch = g_bus_watch_name (G_BUS_TYPE_SESSION, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
                            on_name_appeared, on_name_vanished, &child, NULL);

  child.loop = g_main_loop_new (NULL, FALSE);
  g_main_loop_run (child.loop);

  /* The last pool unexported, the name goes; then the process (at once
   * with --exit-at-end: the unexport alone sees its events out). */
  g_clear_object (&child.input);
  g_clear_object (&child.run);
  g_clear_object (&child.pool);
  while (!child.name_gone && !child.exit_at_end)
    g_main_context_iteration (NULL, TRUE);
  g_bus_unwatch_name (watch);
  g_main_loop_unref (child.loop);
  return 0;
}
