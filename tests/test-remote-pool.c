/* test-remote-pool.c: the attach client (SluiceRemotePool) against a pool
 * exported in this process (docs/monitoring.md, "Attach (the app)")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On a private message bus of the test's own (GTestDBus starts a
 * dbus-daemon), a pool is exported on one connection and attached to
 * from a second one, through the same SluiceRemotePool the app uses. The
 * pool's items end at once; its run is over before the monitor attaches,
 * so everything the monitor gets comes from GetEvents.
 *
 * Every wait turns the main context until a condition holds; the wall
 * clock only bounds those waits (SLUICE_TEST_SPIN_UNTIL, test-helpers.h), so that a broken test
 * fails instead of hanging.
 */

#include <unistd.h>

#include "echo-handler.h"
#include "sluice-monitor-private.h"
#include "sluice-monitor-requests-private.h"
#include "sluice-pool-browser.h"
#include "sluice-remote-pool.h"
#include "test-helpers.h"

static GTestDBus *test_bus;

/* The exported pool {{{ */

static void
handle (SluiceAttempt *attempt,
        GTask         *task,
        gpointer       user_data)
{
  echo_item_later (attempt, task, 0);
}

static void
count_event (const SluiceEvent *event,
             gpointer           user_data)
{
  (*(guint64 *) user_data)++;
}

typedef struct
{
  SluiceRun *run;
  gboolean   ended;
} Reader;

static void
on_next (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Reader *reader = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) value = sluice_run_next_finish (reader->run, result, &error);

  g_assert_no_error (error);
  if (value != NULL)
    sluice_run_next_async (reader->run, NULL, on_next, reader);
  else
    reader->ended = TRUE;
}

typedef struct
{
  gboolean present;
} Name;

static void
on_name_appeared (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  ((Name *) user_data)->present = TRUE;
}

/* A pool exported on @exporter that has run @n_items to the end; @n_events
 * gets the events its own event function got. */
static SluicePool *
ended_pool_new (GDBusConnection *exporter,
                GDBusConnection *watcher,
                guint            n_items,
                guint64         *n_events)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (handle, NULL, NULL);
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (n_items);
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf (SLUICE_MONITOR_BUS_NAME_PREFIX "p%ld", (long) getpid ());
  SluicePool *pool;
  Reader reader = { 0 };
  Name present = { 0 };
  guint watch;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error, "handler", handler, "workers", 2, "queue-size", 4,
                         "event-capacity", 4u * SLUICE_MONITOR_REPLY_MAX, NULL);
  g_assert_no_error (error);
  sluice_pool_set_event_func (pool, count_event, n_events, NULL);
  g_assert_true (sluice_pool_export (pool, exporter, SLUICE_EXPORT_READ_ONLY, &error));
  g_assert_no_error (error);
  watch = g_bus_watch_name_on_connection (watcher, name, G_BUS_NAME_WATCHER_FLAGS_NONE, on_name_appeared, NULL,
                                          &present, NULL);
  SLUICE_TEST_SPIN_UNTIL (present.present);
  g_bus_unwatch_name (watch);

  reader.run = sluice_pool_run (pool, source, &error);
  g_assert_no_error (error);
  sluice_run_next_async (reader.run, NULL, on_next, &reader);
  SLUICE_TEST_SPIN_UNTIL (reader.ended);
  g_object_unref (reader.run);
  return pool;
}

/* }}} */
/* The monitor {{{ */

static void
on_remote_pool (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  *(SluiceRemotePool **) user_data = sluice_remote_pool_new_finish (result, &error);
  g_assert_no_error (error);
}

static SluiceRemotePool *
remote_pool_new (GDBusConnection *connection,
                 SluicePool      *pool)
{
  g_autofree char *name = g_strdup_printf (SLUICE_MONITOR_BUS_NAME_PREFIX "p%ld", (long) getpid ());
  SluiceRemotePool *remote = NULL;

  sluice_remote_pool_new_async (connection, name, sluice_pool_get_object_path (pool), NULL, on_remote_pool,
                                &remote);
  SLUICE_TEST_SPIN_UNTIL (remote != NULL);
  return remote;
}

static void
on_get_events (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);

  g_assert_no_error (error);
  (*(guint *) user_data)++;
}

/* }}} */
/* Tests {{{ */

/* A ring of several pages: the client pages until a reply is short, and
 * has every event, none lost. */
static void
test_attach_pages_through_the_ring (void)
{
  g_autoptr(GDBusConnection) exporter = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GDBusConnection) monitor = sluice_test_bus_connection_new (test_bus);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (8 * SLUICE_MONITOR_REPLY_MAX);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(SluiceRemotePool) remote = NULL;
  guint64 n_events = 0;

  pool = ended_pool_new (exporter, monitor, 1200, &n_events);
  g_assert_cmpuint (n_events, >, 2 * SLUICE_MONITOR_REPLY_MAX);

  remote = remote_pool_new (monitor, pool);
  sluice_remote_pool_attach (remote, recorder);
  SLUICE_TEST_SPIN_UNTIL (sluice_remote_pool_get_caught_up (remote));
  g_assert_cmpuint (sluice_recorder_get_n_events (recorder), ==, n_events);
  g_assert_cmpuint (sluice_remote_pool_get_n_lost (remote), ==, 0);

  sluice_remote_pool_detach (remote);
  sluice_pool_unexport (pool);
  g_dbus_connection_close_sync (monitor, NULL, NULL);
  g_dbus_connection_close_sync (exporter, NULL, NULL);
}

/* A GetEvents the exporter refuses for now (LimitsExceeded: the monitor's
 * connection already has as many calls waiting as it may) is asked again
 * later: the recorder still gets every event, none counted lost. */
static void
test_attach_asks_again_when_refused (void)
{
  g_autoptr(GDBusConnection) exporter = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GDBusConnection) monitor = sluice_test_bus_connection_new (test_bus);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (8 * SLUICE_MONITOR_REPLY_MAX);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(SluiceRemotePool) remote = NULL;
  SluiceMonitorStats stats;
  guint64 n_events = 0;
  guint n_answered = 0;

  pool = ended_pool_new (exporter, monitor, 1200, &n_events);
  remote = remote_pool_new (monitor, pool);

  /* Other calls of the same connection take every place it has; the
   * client's, sent after them on it, comes after them. */
  for (guint i = 0; i < SLUICE_MONITOR_PEER_CALLS_MAX; i++)
    g_dbus_connection_call (monitor, sluice_remote_pool_get_bus_name (remote), sluice_pool_get_object_path (pool),
                            SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(t)", (guint64) 0),
                            G_VARIANT_TYPE ("(taa{sv}t)"), G_DBUS_CALL_FLAGS_NONE, -1, NULL, on_get_events,
                            &n_answered);
  sluice_remote_pool_attach (remote, recorder);
  SLUICE_TEST_SPIN_UNTIL (sluice_remote_pool_get_caught_up (remote));
  SLUICE_TEST_SPIN_UNTIL (n_answered == SLUICE_MONITOR_PEER_CALLS_MAX);

  _sluice_monitor_get_stats (pool->monitor, &stats);
  g_assert_cmpuint (stats.n_calls_refused, >=, 1);
  g_assert_cmpuint (sluice_recorder_get_n_events (recorder), ==, n_events);
  g_assert_cmpuint (sluice_remote_pool_get_n_lost (remote), ==, 0);

  sluice_remote_pool_detach (remote);
  sluice_pool_unexport (pool);
  g_dbus_connection_close_sync (monitor, NULL, NULL);
  g_dbus_connection_close_sync (exporter, NULL, NULL);
}

/* A pool exported on @exporter, not run, with @labels. */
static SluicePool *
labelled_pool_new (GDBusConnection   *exporter,
                   const char * const *labels)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (handle, NULL, NULL);
  g_autoptr(GError) error = NULL;
  SluicePool *pool;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error, "handler", handler, "labels", labels, NULL);
  g_assert_no_error (error);
  g_assert_true (sluice_pool_export (pool, exporter, SLUICE_EXPORT_READ_ONLY, &error));
  g_assert_no_error (error);
  return pool;
}

/* A pool says which worker it is as data (its Labels, SluicePool:labels),
 * and the browser finds the pool of a worker id among those on the bus; a
 * pool without labels has none, and a worker id nobody has finds none. */
static void
test_browser_finds_the_pool_by_worker_id (void)
{
  g_autoptr(GDBusConnection) exporter = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GDBusConnection) monitor = sluice_test_bus_connection_new (test_bus);
  const char * const worker_labels[] = { "worker-id=w-7", "host=h", NULL };
  g_autoptr(SluicePool) plain = labelled_pool_new (exporter, NULL);
  g_autoptr(SluicePool) worker = labelled_pool_new (exporter, worker_labels);
  g_autoptr(SluicePoolBrowser) browser = NULL;
  g_autoptr(SluiceRemotePool) found = NULL;
  g_autoptr(SluiceRemotePool) none = NULL;
  g_autoptr(SluiceRemotePool) remote_plain = NULL;
  g_autofree char *host = NULL;
  g_autofree char *plain_label = NULL;

  g_assert_cmpstr (sluice_pool_get_label (worker, "worker-id"), ==, "w-7");
  g_assert_null (sluice_pool_get_label (worker, "worker"));
  g_assert_null (sluice_pool_get_label (plain, "worker-id"));

  browser = sluice_pool_browser_new (monitor);
  SLUICE_TEST_SPIN_UNTIL (!sluice_pool_browser_get_loading (browser) &&
                          g_list_model_get_n_items (G_LIST_MODEL (browser)) == 2);

  found = sluice_pool_browser_find_label (browser, "worker-id", "w-7");
  g_assert_nonnull (found);
  g_assert_cmpstr (sluice_remote_pool_get_object_path (found), ==, sluice_pool_get_object_path (worker));
  host = sluice_remote_pool_dup_label (found, "host");
  g_assert_cmpstr (host, ==, "h");
  none = sluice_pool_browser_find_label (browser, "worker-id", "w-8");
  g_assert_null (none);

  remote_plain = remote_pool_new (monitor, plain);
  plain_label = sluice_remote_pool_dup_label (remote_plain, "worker-id");
  g_assert_null (plain_label);

  g_clear_object (&browser);
  sluice_pool_unexport (worker);
  sluice_pool_unexport (plain);
  g_dbus_connection_close_sync (monitor, NULL, NULL);
  g_dbus_connection_close_sync (exporter, NULL, NULL);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_autofree char *daemon = NULL;
  int status;

  g_unsetenv ("SLUICE_MONITOR");
  g_test_init (&argc, &argv, NULL);

  daemon = g_find_program_in_path ("dbus-daemon");
  if (daemon == NULL)
    {
      g_test_skip ("no dbus-daemon");
      return g_test_run ();
    }

  g_test_add_func ("/remote-pool/attach-pages-through-the-ring", test_attach_pages_through_the_ring);
  g_test_add_func ("/remote-pool/attach-asks-again-when-refused", test_attach_asks_again_when_refused);
  g_test_add_func ("/remote-pool/browser-finds-the-pool-by-worker-id", test_browser_finds_the_pool_by_worker_id);

  test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (test_bus);
  status = g_test_run ();
  g_test_dbus_down (test_bus);
  g_clear_object (&test_bus);
  return status;
}
