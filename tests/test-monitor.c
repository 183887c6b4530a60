/* test-monitor.c: a pool exported on D-Bus (io.github.sluicepool.Sluice.Pool1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On a private message bus of its own (GTestDBus, which starts a
 * dbus-daemon), a pool of this process is exported on one connection and
 * watched from a second one, as a monitor in another process would; some
 * cases spawn a real second process (monitor-child.c) that SLUICE_MONITOR
 * exports, one of them to flood it with calls from several connections
 * and measure its memory. A monitor that stops reading is played by a
 * peer-to-peer connection whose reads are paused. Pools run on the
 * virtual clock.
 *
 * Every wait turns the main context until a condition holds; the wall
 * clock only bounds those waits, so that a broken test fails instead of
 * hanging (SLUICE_TEST_SPIN_UNTIL, test-helpers.h).
 */

#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gio/gio.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>

#include "pool-fixture.h"
#include "test-helpers.h"
#include "sluice-monitor-gate-private.h"
#include "sluice-monitor-private.h"
#include "sluice-monitor-requests-private.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"

static GTestDBus *test_bus;

/* D-Bus helpers {{{ */

static char *
process_bus_name (pid_t pid)
{
  return g_strdup_printf (SLUICE_MONITOR_BUS_NAME_PREFIX "p%ld", (long) pid);
}

typedef struct
{
  gboolean  done;
  GVariant *reply;
  GError   *error;
} Call;

static void
on_call_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Call *call = user_data;

  call->reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &call->error);
  call->done = TRUE;
}

/* A call made as a monitor makes it: asynchronously, while the main
 * context, which also runs the exported pool, goes on turning. */
static GVariant *
call (GDBusConnection     *connection,
      const char          *destination,
      const char          *path,
      const char          *interface,
      const char          *method,
      GVariant            *parameters,
      const GVariantType  *reply_type,
      GError             **error)
{
  Call c = { 0 };

  g_dbus_connection_call (connection, destination, path, interface, method, parameters, reply_type,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, on_call_done, &c);
  SLUICE_TEST_SPIN_UNTIL (c.done);
  if (c.error != NULL)
    g_propagate_error (error, c.error);
  return c.reply;
}

static GVariant *
call_monitor (GDBusConnection    *connection,
              const char         *destination,
              const char         *path,
              const char         *method,
              GVariant           *parameters,
              const GVariantType *reply_type)
{
  g_autoptr(GError) error = NULL;
  GVariant *reply = call (connection, destination, path, SLUICE_MONITOR_INTERFACE, method,
                          parameters, reply_type, &error);

  g_assert_no_error (error);
  return reply;
}

static GVariant *
get_property (GDBusConnection *connection,
              const char      *destination,
              const char      *path,
              const char      *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = call (connection, destination, path, "org.freedesktop.DBus.Properties", "Get",
                                    g_variant_new ("(ss)", SLUICE_MONITOR_INTERFACE, name),
                                    G_VARIANT_TYPE ("(v)"), &error);
  GVariant *value;

  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &value);
  return value;
}

static char *
get_string_property (GDBusConnection *connection,
                     const char      *destination,
                     const char      *path,
                     const char      *name)
{
  g_autoptr(GVariant) value = get_property (connection, destination, path, name);

  g_assert_true (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING));
  return g_variant_dup_string (value, NULL);
}

/* The D-Bus error name of @error, which must be a remote error. */
static void
assert_dbus_error (const GError *error,
                   const char   *name)
{
  g_autofree char *remote = NULL;

  g_assert_nonnull (error);
  g_assert_true (g_dbus_error_is_remote_error (error));
  remote = g_dbus_error_get_remote_error (error);
  if (name != NULL)
    g_assert_cmpstr (remote, ==, name);
  else
    g_assert_true (g_str_has_prefix (remote, "org.freedesktop.DBus.Error."));
}

typedef struct
{
  gboolean present;
  gboolean known;
} NameState;

static void
on_name_appeared (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  NameState *state = user_data;

  state->present = TRUE;
  state->known = TRUE;
}

static void
on_name_vanished (GDBusConnection *connection,
                  const char      *name,
                  gpointer         user_data)
{
  NameState *state = user_data;

  state->present = FALSE;
  state->known = TRUE;
}

static void
wait_for_name (GDBusConnection *connection,
               const char      *name,
               gboolean         present)
{
  NameState state = { 0 };
  guint watch = g_bus_watch_name_on_connection (connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                on_name_appeared, on_name_vanished, &state, NULL);

  SLUICE_TEST_SPIN_UNTIL (state.known && state.present == present);
  g_bus_unwatch_name (watch);
}

/* The events of GetEvents from @from on, page by page; @lost_out gets
 * what the first reply said was lost. */
static GPtrArray *
get_all_events (GDBusConnection *connection,
                const char      *destination,
                const char      *path,
                guint64          from,
                guint64         *lost_out)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  gboolean first = TRUE;

  for (;;)
    {
      g_autoptr(GVariant) reply = call_monitor (connection, destination, path, "GetEvents",
                                                g_variant_new ("(t)", from), G_VARIANT_TYPE ("(taa{sv}t)"));
      g_autoptr(GVariant) page = NULL;
      guint64 next, lost;
      gsize n;

      g_variant_get (reply, "(t@aa{sv}t)", &next, &page, &lost);
      n = g_variant_n_children (page);
      g_assert_cmpuint (n, <=, SLUICE_MONITOR_REPLY_MAX);
      if (first && lost_out != NULL)
        *lost_out = lost;
      else
        g_assert_cmpuint (lost, ==, 0);
      /* The numbers go on without a gap: next is just after the page. */
      g_assert_cmpuint (next, ==, from + lost + n);
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (events, g_variant_get_child_value (page, i));
      first = FALSE;
      from = next;
      if (n == 0)
        break;
    }

  return events;
}

/* }}} */
/* What a monitor receives {{{ */

typedef struct
{
  guint      n_batches;
  guint64    first;       /* first_seq of the first batch */
  guint64    end;         /* the number after the last event received */
  guint64    gaps;        /* events between batches that no batch carried */
  gsize      max_batch;
  GPtrArray *events;      /* GVariant a{sv} of every batch, in order */
  GPtrArray *states;      /* char *: State in each PropertiesChanged that has it */
  char      *title;       /* the last Title in a PropertiesChanged */
  guint      n_snapshots;
  guint      ids[2];
  GDBusConnection *connection;
} Receiver;

static void
on_events (GDBusConnection *connection,
           const char      *sender,
           const char      *path,
           const char      *interface,
           const char      *signal,
           GVariant        *parameters,
           gpointer         user_data)
{
  Receiver *r = user_data;
  g_autoptr(GVariant) events = NULL;
  guint64 first;
  gsize n;

  g_variant_get (parameters, "(t@aa{sv})", &first, &events);
  n = g_variant_n_children (events);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (n, <=, SLUICE_MONITOR_BATCH_MAX);
  if (r->n_batches == 0)
    r->first = first;
  else
    {
      /* Batches come in order; a jump forward is what the ring dropped. */
      g_assert_cmpuint (first, >=, r->end);
      r->gaps += first - r->end;
    }
  r->end = first + n;
  r->max_batch = MAX (r->max_batch, n);
  r->n_batches++;
  for (gsize i = 0; i < n; i++)
    g_ptr_array_add (r->events, g_variant_get_child_value (events, i));
}

static void
on_properties_changed (GDBusConnection *connection,
                       const char      *sender,
                       const char      *path,
                       const char      *interface,
                       const char      *signal,
                       GVariant        *parameters,
                       gpointer         user_data)
{
  Receiver *r = user_data;
  g_autoptr(GVariant) changed = NULL;
  g_autoptr(GVariant) snapshot = NULL;
  const char *iface;
  const char *value;

  g_variant_get (parameters, "(&s@a{sv}@as)", &iface, &changed, NULL);
  g_assert_cmpstr (iface, ==, SLUICE_MONITOR_INTERFACE);
  if (g_variant_lookup (changed, "State", "&s", &value))
    g_ptr_array_add (r->states, g_strdup (value));
  if (g_variant_lookup (changed, "Title", "&s", &value))
    {
      g_free (r->title);
      r->title = g_strdup (value);
    }
  snapshot = g_variant_lookup_value (changed, "Snapshot", G_VARIANT_TYPE_VARDICT);
  r->n_snapshots += snapshot != NULL;
}

static void
receiver_init (Receiver        *r,
               GDBusConnection *connection,
               const char      *sender,
               const char      *path)
{
  memset (r, 0, sizeof *r);
  r->events = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  r->states = g_ptr_array_new_with_free_func (g_free);
  r->connection = g_object_ref (connection);
  r->ids[0] = g_dbus_connection_signal_subscribe (connection, sender, SLUICE_MONITOR_INTERFACE, "Events", path,
                                                  NULL, G_DBUS_SIGNAL_FLAGS_NONE, on_events, r, NULL);
  r->ids[1] = g_dbus_connection_signal_subscribe (connection, sender, "org.freedesktop.DBus.Properties",
                                                  "PropertiesChanged", path, NULL, G_DBUS_SIGNAL_FLAGS_NONE,
                                                  on_properties_changed, r, NULL);
}

static void
receiver_clear (Receiver *r)
{
  g_dbus_connection_signal_unsubscribe (r->connection, r->ids[0]);
  g_dbus_connection_signal_unsubscribe (r->connection, r->ids[1]);
  g_clear_object (&r->connection);
  g_clear_pointer (&r->events, g_ptr_array_unref);
  g_clear_pointer (&r->states, g_ptr_array_unref);
  g_clear_pointer (&r->title, g_free);
}

static const char *
last_state (Receiver *r)
{
  return r->states->len > 0 ? g_ptr_array_index (r->states, r->states->len - 1) : NULL;
}

/* }}} */
/* The fixture: a pool, the connection it is exported on, a monitor's {{{ */

typedef struct
{
  Fixture          f;
  GDBusConnection *exporter;
  GDBusConnection *peer;
  char            *name;       /* this process's bus name */
  GPtrArray       *own;        /* copies of the events the pool's own event function got */
  GPtrArray       *jobs;
} MonitorFixture;

static void
monitor_setup (MonitorFixture *m,
               gconstpointer   data)
{
  fixture_setup (&m->f, data);
  m->exporter = sluice_test_bus_connection_new (test_bus);
  m->peer = sluice_test_bus_connection_new (test_bus);
  m->name = process_bus_name (getpid ());
  m->own = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_event_free);
  m->jobs = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
monitor_teardown (MonitorFixture *m,
                  gconstpointer   data)
{
  g_clear_pointer (&m->jobs, g_ptr_array_unref);
  fixture_teardown (&m->f, data);
  g_dbus_connection_close_sync (m->peer, NULL, NULL);
  g_dbus_connection_close_sync (m->exporter, NULL, NULL);
  g_clear_object (&m->peer);
  g_clear_object (&m->exporter);
  g_clear_pointer (&m->own, g_ptr_array_unref);
  g_clear_pointer (&m->name, g_free);
}

static void
keep_copy (const SluiceEvent *event,
           gpointer           user_data)
{
  g_ptr_array_add (user_data, sluice_event_copy (event));
}

/* The pool's own event function keeps every event, to compare with what
 * the export sends. */
static void
keep_own_events (MonitorFixture *m)
{
  sluice_pool_set_event_func (m->f.pool, keep_copy, m->own, NULL);
}

static void
export (MonitorFixture    *m,
        SluiceExportFlags  flags)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sluice_pool_export (m->f.pool, m->exporter, flags, &error));
  g_assert_no_error (error);
  wait_for_name (m->peer, m->name, TRUE);
}

static const char *
path_of (MonitorFixture *m)
{
  const char *path = sluice_pool_get_object_path (m->f.pool);

  g_assert_nonnull (path);
  return path;
}

static SluiceMonitorStats
monitor_stats (SluicePool *pool)
{
  SluiceMonitorStats stats;

  g_assert_nonnull (pool->monitor);
  _sluice_monitor_get_stats (pool->monitor, &stats);
  return stats;
}

static void
assert_event_equals_own (MonitorFixture *m,
                         GVariant       *event,
                         guint64         seq)
{
  g_autoptr(GVariant) own = NULL;

  g_assert_cmpuint (seq, <, m->own->len);
  own = g_variant_ref_sink (sluice_event_to_variant (g_ptr_array_index (m->own, seq)));
  if (!g_variant_equal (event, own))
    {
      g_autofree char *a = g_variant_print (event, FALSE);
      g_autofree char *b = g_variant_print (own, FALSE);

      g_error ("event %" G_GUINT64_FORMAT ": %s, the pool's own: %s", seq, a, b);
    }
}

static void
on_submitted (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  MonitorFixture *m = user_data;
  g_autoptr(GError) error = NULL;
  SluiceJob *job = sluice_run_submit_finish (SLUICE_RUN (object), result, &error);

  g_assert_no_error (error);
  g_ptr_array_add (m->jobs, job);
}

static guint
succeeded (MonitorFixture *m)
{
  SluiceRunStats stats;

  sluice_run_get_stats (m->f.run, &stats);
  return stats.succeeded;
}

/* Submits @n jobs to the service run and waits until they succeeded. */
static void
run_jobs (MonitorFixture *m,
          guint           n)
{
  guint target = succeeded (m) + n;

  for (guint i = 0; i < n; i++)
    sluice_run_submit_async (m->f.run, g_variant_new_int64 (i), NULL, on_submitted, m);
  SLUICE_TEST_SPIN_UNTIL (succeeded (m) == target);
}

/* }}} */
/* Tests {{{ */

/* The process owns io.github.sluicepool.Sluice.Pool.p<PID>, once for all
 * its pools; each pool has the next number; the name goes with the last
 * export. */
static void
test_bus_name_and_object_path (MonitorFixture *m,
                               gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluicePool) second = NULL;
  g_autoptr(GVariant) owner = NULL;
  g_autoptr(GVariant) xml = NULL;
  g_autofree char *second_path = NULL;
  const char *path;
  const char *text;
  guint64 number;

  make_pool (&m->f, 2, 2, 1.0);
  g_assert_null (sluice_pool_get_object_path (m->f.pool));
  export (m, SLUICE_EXPORT_READ_ONLY);

  path = path_of (m);
  g_assert_true (g_str_has_prefix (path, SLUICE_MONITOR_OBJECT_PATH_PREFIX));
  g_assert_true (g_ascii_string_to_unsigned (path + strlen (SLUICE_MONITOR_OBJECT_PATH_PREFIX), 10,
                                             1, G_MAXUINT, &number, NULL));
  g_assert_true (g_variant_is_object_path (path));

  /* The name belongs to the exporting connection. */
  owner = call (m->peer, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetNameOwner", g_variant_new ("(s)", m->name), G_VARIANT_TYPE ("(s)"), &error);
  g_assert_no_error (error);
  g_variant_get (owner, "(&s)", &text);
  g_assert_cmpstr (text, ==, g_dbus_connection_get_unique_name (m->exporter));

  /* The object has the interface, as the XML describes it. */
  xml = call (m->peer, m->name, path, "org.freedesktop.DBus.Introspectable", "Introspect",
              NULL, G_VARIANT_TYPE ("(s)"), &error);
  g_assert_no_error (error);
  g_variant_get (xml, "(&s)", &text);
  g_assert_nonnull (strstr (text, "<interface name=\"" SLUICE_MONITOR_INTERFACE "\">"));
  g_assert_nonnull (strstr (text, "<method name=\"GetEvents\">"));
  g_assert_nonnull (strstr (text, "<signal name=\"Events\">"));

  /* A second pool: the next number, under the same name. */
  second = try_make_pool (&m->f, &error, "workers", 1, NULL);
  g_assert_no_error (error);
  g_assert_true (sluice_pool_export (second, m->exporter, SLUICE_EXPORT_READ_ONLY, &error));
  second_path = g_strdup_printf (SLUICE_MONITOR_OBJECT_PATH_PREFIX "%" G_GUINT64_FORMAT, number + 1);
  g_assert_cmpstr (sluice_pool_get_object_path (second), ==, second_path);

  /* Exported once at a time. */
  g_assert_false (sluice_pool_export (m->f.pool, m->exporter, SLUICE_EXPORT_READ_ONLY, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_clear_error (&error);

  /* The name stays while a pool is exported, and goes with the last. */
  sluice_pool_unexport (m->f.pool);
  g_assert_null (sluice_pool_get_object_path (m->f.pool));
  wait_for_name (m->peer, m->name, TRUE);
  sluice_pool_unexport (second);
  wait_for_name (m->peer, m->name, FALSE);

  /* Exported again: a new number, the name is back. */
  export (m, SLUICE_EXPORT_READ_ONLY);
  g_assert_true (g_str_has_prefix (path_of (m), SLUICE_MONITOR_OBJECT_PATH_PREFIX));
  g_assert_cmpstr (path_of (m), !=, second_path);
}

static void
assert_config (GVariant   *config,
               const char *key,
               const char *expected)
{
  g_autoptr(GVariant) value = g_variant_lookup_value (config, key, NULL);
  g_autofree char *text = NULL;

  if (value == NULL)
    g_error ("Config has no “%s”", key);
  text = g_variant_print (value, TRUE);
  g_assert_cmpstr (text, ==, expected);
}

/* Title, Program, Config, State and Snapshot, and what PropertiesChanged
 * says of them as the run goes. */
static void
test_properties (MonitorFixture *m,
                 gconstpointer   data)
{
  g_autoptr(GVariant) config = NULL;
  g_autoptr(GVariant) snapshot = NULL;
  g_autoptr(GVariant) outcomes = NULL;
  g_autofree char *title = NULL;
  g_autofree char *program = NULL;
  g_autofree char *state = NULL;
  const char *path;
  Receiver r;
  guint32 count;
  guint64 durations;

  make_pool_props (&m->f, 3, 2, 0.5, 2, "ValueError,TimeoutError",
                   "backoff", SLUICE_BACKOFF_EXPONENTIAL,
                   "keep-going", TRUE,
                   "shutdown-timeout", 2.5,
                   "event-capacity", 500u,
                   NULL);
  export (m, SLUICE_EXPORT_READ_ONLY);
  path = path_of (m);
  receiver_init (&r, m->peer, m->name, path);

  title = get_string_property (m->peer, m->name, path, "Title");
  program = get_string_property (m->peer, m->name, path, "Program");
  g_assert_cmpstr (title, ==, g_get_prgname ());
  g_assert_cmpstr (program, ==, g_get_prgname ());

  config = get_property (m->peer, m->name, path, "Config");
  assert_config (config, "workers", "3");
  assert_config (config, "queue-size", "2");
  assert_config (config, "item-timeout", "0.5");
  assert_config (config, "max-retries", "2");
  assert_config (config, "retryable", "['ValueError', 'TimeoutError']");
  assert_config (config, "keep-going", "true");
  assert_config (config, "fatal", "@as []");
  assert_config (config, "shutdown-timeout", "2.5");
  assert_config (config, "backoff", "'exponential'");
  assert_config (config, "backoff-base", "0.10000000000000001");
  assert_config (config, "backoff-cap", "10.0");
  assert_config (config, "jitter", "'full'");
  assert_config (config, "seed", "uint32 0");
  assert_config (config, "item-deadline", "0.0");
  assert_config (config, "retry-budget", "0.0");
  assert_config (config, "retry-budget-ratio", "0.10000000000000001");
  assert_config (config, "event-capacity", "uint32 500");
  assert_config (config, "clock", "'virtual'");

  state = get_string_property (m->peer, m->name, path, "State");
  g_assert_cmpstr (state, ==, "idle");
  snapshot = get_property (m->peer, m->name, path, "Snapshot");
  g_assert_true (g_variant_lookup (snapshot, "workers", "u", &count));
  g_assert_cmpuint (count, ==, 3);
  g_assert_true (g_variant_lookup (snapshot, "queue_capacity", "u", &count));
  g_assert_cmpuint (count, ==, 2);
  g_clear_pointer (&snapshot, g_variant_unref);

  /* A new title is announced. */
  sluice_pool_set_title (m->f.pool, "thumbnails");
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (r.title, "thumbnails") == 0);
  g_clear_pointer (&title, g_free);
  title = get_string_property (m->peer, m->name, path, "Title");
  g_assert_cmpstr (title, ==, "thumbnails");

  drive (&m->f, range (10));

  /* Each change of State once, in order, ending with ended. */
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (last_state (&r), "ended") == 0);
  for (guint i = 0; i < r.states->len; i++)
    {
      const char *s = g_ptr_array_index (r.states, i);

      g_assert_true (g_str_equal (s, "running") || g_str_equal (s, "draining") || g_str_equal (s, "ended"));
      if (i > 0)
        g_assert_cmpstr (s, !=, g_ptr_array_index (r.states, i - 1));
    }
  g_assert_cmpuint (r.n_snapshots, >, 0);
  g_clear_pointer (&state, g_free);
  state = get_string_property (m->peer, m->name, path, "State");
  g_assert_cmpstr (state, ==, "ended");

  /* The snapshot after the end: every item ok, nothing queued or busy. */
  snapshot = get_property (m->peer, m->name, path, "Snapshot");
  g_assert_true (g_variant_lookup (snapshot, "queue_depth", "u", &count));
  g_assert_cmpuint (count, ==, 0);
  g_assert_true (g_variant_lookup (snapshot, "busy_workers", "u", &count));
  g_assert_cmpuint (count, ==, 0);
  g_assert_true (g_variant_lookup (snapshot, "in_flight", "u", &count));
  g_assert_cmpuint (count, ==, 0);
  g_assert_true (g_variant_lookup (snapshot, "durations", "t", &durations));
  g_assert_cmpuint (durations, ==, 10);
  outcomes = g_variant_lookup_value (snapshot, "outcomes", G_VARIANT_TYPE ("a{su}"));
  g_assert_nonnull (outcomes);
  g_assert_true (g_variant_lookup (outcomes, "ok", "u", &count));
  g_assert_cmpuint (count, ==, 10);

  /* No title of its own: the program's name again. */
  sluice_pool_set_title (m->f.pool, NULL);
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (r.title, g_get_prgname ()) == 0);

  receiver_clear (&r);
}

/* GetEvents from 0 gives every event the pool's own event function got,
 * the same, numbered without a gap, page by page. */
static void
test_get_events_equal_the_pools_own (MonitorFixture *m,
                                     gconstpointer   data)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) page = NULL;
  guint64 lost = G_MAXUINT64;
  guint64 next;

  make_pool_full (&m->f, 3, 4, 1.0, 2, "ValueError", TRUE);
  script_set (m->f.script, 2, DO_FAIL, 0.1, 1, "ValueError");
  script_set (m->f.script, 7, DO_FAIL_ALWAYS, 0.2, 0, "KeyError");
  script_set (m->f.script, 9, DO_HANG, 0, 0, NULL);
  keep_own_events (m);
  export (m, SLUICE_EXPORT_READ_ONLY);

  drive (&m->f, range (800));
  /* Enough events for two pages. */
  g_assert_cmpuint (m->own->len, >, SLUICE_MONITOR_REPLY_MAX);

  events = get_all_events (m->peer, m->name, path_of (m), 0, &lost);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (events->len, ==, m->own->len);
  for (guint i = 0; i < events->len; i++)
    assert_event_equals_own (m, g_ptr_array_index (events, i), i);

  /* From the newest on: nothing, and nothing lost. */
  reply = call_monitor (m->peer, m->name, path_of (m), "GetEvents",
                        g_variant_new ("(t)", (guint64) m->own->len), G_VARIANT_TYPE ("(taa{sv}t)"));
  g_variant_get (reply, "(t@aa{sv}t)", &next, &page, &lost);
  g_assert_cmpuint (next, ==, m->own->len);
  g_assert_cmpuint (g_variant_n_children (page), ==, 0);
  g_assert_cmpuint (lost, ==, 0);
}

/* A ring of 100: GetEvents gives the latest 100 and says how many before
 * them it asked for; memory stays at the ring. */
static void
test_ring_keeps_the_latest (MonitorFixture *m,
                            gconstpointer   data)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  SluiceMonitorStats stats;
  guint64 lost = 0;
  guint n;

  make_pool_props (&m->f, 2, 2, 1.0, 0, NULL, "event-capacity", 100u, NULL);
  keep_own_events (m);
  export (m, SLUICE_EXPORT_READ_ONLY);
  drive (&m->f, range (50));
  n = m->own->len;
  g_assert_cmpuint (n, >, 200);

  stats = monitor_stats (m->f.pool);
  g_assert_cmpuint (stats.n_held, ==, 100);
  g_assert_cmpuint (stats.n_allocated, ==, 100);
  g_assert_cmpuint (stats.first_seq, ==, n - 100);
  g_assert_cmpuint (stats.next_seq, ==, n);

  events = get_all_events (m->peer, m->name, path_of (m), 0, &lost);
  g_assert_cmpuint (lost, ==, n - 100);
  g_assert_cmpuint (events->len, ==, 100);
  for (guint i = 0; i < events->len; i++)
    assert_event_equals_own (m, g_ptr_array_index (events, i), n - 100 + i);
  g_clear_pointer (&events, g_ptr_array_unref);

  /* From one still held: nothing lost. */
  events = get_all_events (m->peer, m->name, path_of (m), n - 10, &lost);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (events->len, ==, 10);

  /* Past the newest: an error. */
  reply = call (m->peer, m->name, path_of (m), SLUICE_MONITOR_INTERFACE, "GetEvents",
                g_variant_new ("(t)", (guint64) n + 1), NULL, &error);
  g_assert_null (reply);
  assert_dbus_error (error, "org.freedesktop.DBus.Error.InvalidArgs");
}

/* No Events before Subscribe; then every new event, in batches of at most
 * 256, numbered from the Subscribe on; none after Unsubscribe. */
static void
test_events_only_while_subscribed (MonitorFixture *m,
                                   gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  guint64 subscribed_at;
  guint64 end_before;
  guint batches_before;
  const char *path;
  Receiver r;

  make_pool (&m->f, 2, 4, 1.0);
  script_set (m->f.script, 0, DO_OK, 0.01, 0, NULL);
  keep_own_events (m);
  export (m, SLUICE_EXPORT_READ_ONLY);
  path = path_of (m);
  receiver_init (&r, m->peer, g_dbus_connection_get_unique_name (m->exporter), path);

  m->f.run = sluice_pool_open (m->f.pool, &error);
  g_assert_no_error (error);

  /* Not subscribed: events happen, no signal carries them. A call's reply
   * comes after every signal sent before it. */
  run_jobs (m, 5);
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (last_state (&r), "running") == 0);
  reply = call_monitor (m->peer, m->name, path, "GetEvents", g_variant_new ("(t)", (guint64) 0), NULL);
  g_clear_pointer (&reply, g_variant_unref);
  g_assert_cmpuint (r.n_batches, ==, 0);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_batches, ==, 0);

  /* Subscribed: the events from then on, all of them. */
  reply = call_monitor (m->peer, m->name, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_subscribers, ==, 1);
  subscribed_at = monitor_stats (m->f.pool).next_seq;
  g_assert_cmpuint (subscribed_at, ==, m->own->len);

  run_jobs (m, 300);
  SLUICE_TEST_SPIN_UNTIL (r.end == m->own->len);
  g_assert_cmpuint (r.first, ==, subscribed_at);
  g_assert_cmpuint (r.gaps, ==, 0);
  g_assert_cmpuint (r.events->len, ==, m->own->len - subscribed_at);
  /* 300 jobs make more events than a batch holds. */
  g_assert_cmpuint (r.n_batches, >, 1);
  g_assert_cmpuint (r.max_batch, <=, SLUICE_MONITOR_BATCH_MAX);
  for (guint i = 0; i < r.events->len; i++)
    assert_event_equals_own (m, g_ptr_array_index (r.events, i), subscribed_at + i);

  /* Unsubscribed: no more batches. The end of the run is announced through
   * the same path as a batch, so once State says ended, any batch would
   * have come. */
  reply = call_monitor (m->peer, m->name, path, "Unsubscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_subscribers, ==, 0);
  end_before = r.end;
  batches_before = r.n_batches;
  run_jobs (m, 5);
  sluice_run_close_async (m->f.run, NULL, assert_closed, NULL);
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (last_state (&r), "ended") == 0);
  g_assert_cmpuint (r.end, ==, end_before);
  g_assert_cmpuint (r.n_batches, ==, batches_before);

  receiver_clear (&r);
}

/* A subscriber is one per peer, and a peer that leaves the bus is
 * forgotten. */
static void
test_subscriber_that_leaves_is_dropped (MonitorFixture *m,
                                        gconstpointer   data)
{
  g_autoptr(GDBusConnection) leaving = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  const char *path;

  make_pool (&m->f, 1, 1, 1.0);
  export (m, SLUICE_EXPORT_READ_ONLY);
  path = path_of (m);
  m->f.run = sluice_pool_open (m->f.pool, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 2; i++)
    {
      reply = call_monitor (leaving, m->name, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
      g_clear_pointer (&reply, g_variant_unref);
    }
  reply = call_monitor (m->peer, m->name, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_subscribers, ==, 2);

  g_dbus_connection_close_sync (leaving, NULL, &error);
  g_assert_no_error (error);
  SLUICE_TEST_SPIN_UNTIL (monitor_stats (m->f.pool).n_subscribers == 1);

  /* Its batches stop; the other subscriber's go on. */
  run_jobs (m, 3);
  SLUICE_TEST_SPIN_UNTIL (monitor_stats (m->f.pool).n_batches > 0);

  sluice_run_close_async (m->f.run, NULL, assert_closed, NULL);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_is_finished (m->f.run));
}

/* A stream whose reads can be held: the monitor that stops reading. {{{ */

#define TEST_TYPE_PAUSABLE_STREAM (test_pausable_stream_get_type ())
G_DECLARE_FINAL_TYPE (TestPausableStream, test_pausable_stream, TEST, PAUSABLE_STREAM, GFilterInputStream)

struct _TestPausableStream
{
  GFilterInputStream parent_instance;

  GMutex             lock;
  GCond              cond;
  gboolean           paused;
};

G_DEFINE_FINAL_TYPE (TestPausableStream, test_pausable_stream, G_TYPE_FILTER_INPUT_STREAM)

static gssize
test_pausable_stream_read (GInputStream  *stream,
                           void          *buffer,
                           gsize          count,
                           GCancellable  *cancellable,
                           GError       **error)
{
  TestPausableStream *self = TEST_PAUSABLE_STREAM (stream);

  /* GDBus's reader runs this in a thread of its own: holding it here is a
   * monitor that stops reading its socket. */
  g_mutex_lock (&self->lock);
  while (self->paused)
    g_cond_wait (&self->cond, &self->lock);
  g_mutex_unlock (&self->lock);

  return g_input_stream_read (g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream)),
                              buffer, count, cancellable, error);
}

static void
test_pausable_stream_finalize (GObject *object)
{
  TestPausableStream *self = TEST_PAUSABLE_STREAM (object);

  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (test_pausable_stream_parent_class)->finalize (object);
}

static void
test_pausable_stream_class_init (TestPausableStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_pausable_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = test_pausable_stream_read;
}

static void
test_pausable_stream_init (TestPausableStream *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
}

static void
pausable_set_paused (TestPausableStream *self,
                     gboolean            paused)
{
  g_mutex_lock (&self->lock);
  self->paused = paused;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static void
on_connection_ready (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  GDBusConnection **connection = user_data;
  g_autoptr(GError) error = NULL;

  *connection = g_dbus_connection_new_finish (result, &error);
  g_assert_no_error (error);
}

/* A peer-to-peer connection: @server for the export, @client for the
 * subscriber, whose reads @paused_input can hold. */
static void
peer_pair_new (GDBusConnection **server,
               GDBusConnection **client,
               GInputStream    **paused_input)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSocket) server_socket = NULL;
  g_autoptr(GSocketConnection) server_stream = NULL;
  g_autoptr(GInputStream) client_input = NULL;
  g_autoptr(GOutputStream) client_output = NULL;
  g_autoptr(GIOStream) client_stream = NULL;
  g_autofree char *guid = g_dbus_generate_guid ();
  int fds[2];

  g_assert_cmpint (socketpair (AF_UNIX, SOCK_STREAM, 0, fds), ==, 0);
  server_socket = g_socket_new_from_fd (fds[0], &error);
  g_assert_no_error (error);
  server_stream = g_socket_connection_factory_create_connection (server_socket);
  /* The client's end as plain file streams: GDBus (2.74) takes any socket
   * output stream for its own socket, which a wrapped stream has not. */
  client_input = g_unix_input_stream_new (fds[1], TRUE);
  client_output = g_unix_output_stream_new (dup (fds[1]), TRUE);
  *paused_input = g_object_new (TEST_TYPE_PAUSABLE_STREAM, "base-stream", client_input, NULL);
  client_stream = g_simple_io_stream_new (*paused_input, client_output);

  g_dbus_connection_new (G_IO_STREAM (server_stream), guid,
                         G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_SERVER |
                         G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_ALLOW_ANONYMOUS,
                         NULL, NULL, on_connection_ready, server);
  g_dbus_connection_new (client_stream, NULL, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT,
                         NULL, NULL, on_connection_ready, client);
  SLUICE_TEST_SPIN_UNTIL (*server != NULL && *client != NULL);
}

/* }}} */

/* A subscriber that stops reading: the pool finishes all the same, the
 * export holds at most its ring and sends nothing while its last batch is
 * unwritten; the subscriber, reading again, sees the gap in the numbers,
 * and GetEvents says how many are lost. A peer-to-peer connection, so that
 * nothing but the subscriber's socket stands between it and the pool. */
static void
test_stuck_subscriber_costs_at_most_the_ring (MonitorFixture *m,
                                              gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) paused_input = NULL;
  g_autoptr(GDBusConnection) server = NULL;
  g_autoptr(GDBusConnection) client = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GPtrArray) events = NULL;
  SluiceMonitorStats stats;
  const guint capacity = 1000;
  guint64 lost = 0;
  const char *path;
  Receiver r;

  peer_pair_new (&server, &client, &paused_input);
  make_pool_props (&m->f, 4, 8, 1.0, 0, NULL, "event-capacity", capacity, NULL);
  keep_own_events (m);
  g_assert_true (sluice_pool_export (m->f.pool, server, SLUICE_EXPORT_READ_ONLY, &error));
  g_assert_no_error (error);
  path = path_of (m);

  receiver_init (&r, client, NULL, path);
  reply = call_monitor (client, NULL, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_subscribers, ==, 1);

  /* The subscriber stops reading; the run goes to its end regardless. */
  pausable_set_paused (TEST_PAUSABLE_STREAM (paused_input), TRUE);
  drive (&m->f, range (4000));
  g_assert_true (sluice_run_is_finished (m->f.run));

  stats = monitor_stats (m->f.pool);
  g_assert_cmpuint (stats.next_seq, ==, m->own->len);
  g_assert_cmpuint (stats.n_held, ==, capacity);
  g_assert_cmpuint (stats.n_allocated, ==, capacity);
  /* What no batch carried yet waits in the ring, never as messages: more
   * than the ring holds, so some is lost for the signals (skipped already,
   * if the run's end sent a batch at once, or when the next is taken). */
  g_assert_cmpuint (stats.n_skipped + (stats.next_seq - stats.batch_from), >, capacity);

  /* Reading again, it catches up with a gap where the ring dropped. */
  pausable_set_paused (TEST_PAUSABLE_STREAM (paused_input), FALSE);
  SLUICE_TEST_SPIN_UNTIL (r.end == m->own->len);
  stats = monitor_stats (m->f.pool);
  g_assert_cmpuint (r.gaps, >, 0);
  g_assert_cmpuint (r.gaps, ==, stats.n_skipped);
  g_assert_cmpuint (r.events->len + r.gaps, ==, m->own->len - r.first);
  g_assert_cmpuint (stats.n_held_back, >, 0);
  g_test_message ("%" G_GUINT64_FORMAT " events, %u batches received, %" G_GUINT64_FORMAT
                  " events skipped, %" G_GUINT64_FORMAT " flushes waited for",
                  stats.next_seq, r.n_batches, stats.n_skipped, stats.n_held_back);

  /* GetEvents tells it the same. */
  events = get_all_events (client, NULL, path, r.first, &lost);
  g_assert_cmpuint (lost, ==, m->own->len - capacity - r.first);
  g_assert_cmpuint (lost, >, 0);
  g_assert_cmpuint (events->len, ==, capacity);

  receiver_clear (&r);
  sluice_pool_unexport (m->f.pool);
  g_dbus_connection_close_sync (client, NULL, NULL);
  g_dbus_connection_close_sync (server, NULL, NULL);
}

/* An unexport whose last events cannot be written out, as the subscriber
 * does not read, waits for them at most SLUICE_MONITOR_FAREWELL_WAIT_US,
 * then goes all the same. */
static void
test_unexport_waits_at_most_a_second (MonitorFixture *m,
                                      gconstpointer   data)
{
  g_autoptr(GInputStream) paused_input = NULL;
  g_autoptr(GDBusConnection) server = NULL;
  g_autoptr(GDBusConnection) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  gint64 start, took;
  const char *path;

  peer_pair_new (&server, &client, &paused_input);
  make_pool_props (&m->f, 4, 8, 1.0, 0, NULL, "event-capacity", 1000u, NULL);
  g_assert_true (sluice_pool_export (m->f.pool, server, SLUICE_EXPORT_READ_ONLY, &error));
  g_assert_no_error (error);
  path = path_of (m);
  reply = call_monitor (client, NULL, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);

  /* Stuck long enough for the socket to fill: a batch stays unwritten. */
  pausable_set_paused (TEST_PAUSABLE_STREAM (paused_input), TRUE);
  drive (&m->f, range (4000));
  g_assert_true (monitor_stats (m->f.pool).flushing);

  start = g_get_monotonic_time ();
  sluice_pool_unexport (m->f.pool);
  took = g_get_monotonic_time () - start;
  g_assert_null (sluice_pool_get_object_path (m->f.pool));
  g_assert_cmpint (took, >=, SLUICE_MONITOR_FAREWELL_WAIT_US);
  g_assert_cmpint (took, <, 3 * SLUICE_MONITOR_FAREWELL_WAIT_US);

  pausable_set_paused (TEST_PAUSABLE_STREAM (paused_input), FALSE);
  g_dbus_connection_close_sync (client, NULL, NULL);
  g_dbus_connection_close_sync (server, NULL, NULL);
}

/* RequestStop is refused unless control was allowed. */
static void
test_request_stop (MonitorFixture *m,
                   gconstpointer   data)
{
  gboolean control = GPOINTER_TO_INT (data);
  TestSource *source = test_source_new (10);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) control_property = NULL;
  g_autofree char *state = NULL;
  const char *path;

  /* The fourth read waits until a stop wakes it: the run is running. */
  source->hang_at = 3;
  make_pool (&m->f, 2, 2, 1.0);
  export (m, control ? SLUICE_EXPORT_ALLOW_CONTROL : SLUICE_EXPORT_READ_ONLY);
  path = path_of (m);
  start_run (&m->f, SLUICE_SOURCE (source));
  SLUICE_TEST_SPIN_UNTIL (succeeded (m) == 3);
  state = get_string_property (m->peer, m->name, path, "State");
  g_assert_cmpstr (state, ==, "running");

  control_property = get_property (m->peer, m->name, path, "Control");
  g_assert_cmpint (g_variant_get_boolean (control_property), ==, control);

  reply = call (m->peer, m->name, path, SLUICE_MONITOR_INTERFACE, "RequestStop", NULL,
                G_VARIANT_TYPE_UNIT, &error);
  if (control)
    {
      g_assert_no_error (error);
      g_assert_true (sluice_pool_get_stop_requested (m->f.pool));
    }
  else
    {
      g_assert_null (reply);
      assert_dbus_error (error, "org.freedesktop.DBus.Error.AccessDenied");
      g_assert_false (sluice_pool_get_stop_requested (m->f.pool));
      g_clear_pointer (&state, g_free);
      state = get_string_property (m->peer, m->name, path, "State");
      g_assert_cmpstr (state, ==, "running");
      sluice_pool_request_stop (m->f.pool);
    }

  SLUICE_TEST_SPIN_UNTIL (m->f.ended);
  g_assert_no_error (m->f.end_error);
  g_clear_pointer (&state, g_free);
  state = get_string_property (m->peer, m->name, path, "State");
  g_assert_cmpstr (state, ==, "ended");
}

static void
assert_call_fails (MonitorFixture *m,
                   const char     *interface,
                   const char     *method,
                   GVariant       *parameters,
                   const char     *error_name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = call (m->peer, m->name, path_of (m), interface, method, parameters, NULL, &error);

  g_assert_null (reply);
  assert_dbus_error (error, error_name);
}

/* Bad calls get D-Bus errors, and the export goes on working. */
static void
test_bad_calls_get_errors (MonitorFixture *m,
                           gconstpointer   data)
{
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *title = NULL;
  guint64 lost = 0;
  guint64 n;

  make_pool (&m->f, 2, 2, 1.0);
  keep_own_events (m);
  export (m, SLUICE_EXPORT_ALLOW_CONTROL);
  drive (&m->f, range (3));
  n = m->own->len;

  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(t)", n + 1),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(t)", G_MAXUINT64),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(s)", "0"),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(i)", 0),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(tt)", 0, 0),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "GetEvents", NULL,
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "Subscribe", g_variant_new ("(s)", "me"),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "RequestStop", g_variant_new ("(b)", TRUE),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, SLUICE_MONITOR_INTERFACE, "Frobnicate", NULL,
                     "org.freedesktop.DBus.Error.UnknownMethod");
  assert_call_fails (m, "io.github.sluicepool.Sluice.Pool2", "GetEvents", g_variant_new ("(t)", 0), NULL);
  assert_call_fails (m, "org.freedesktop.DBus.Properties", "Get",
                     g_variant_new ("(ss)", SLUICE_MONITOR_INTERFACE, "Colour"),
                     "org.freedesktop.DBus.Error.InvalidArgs");
  assert_call_fails (m, "org.freedesktop.DBus.Properties", "Set",
                     g_variant_new ("(ssv)", SLUICE_MONITOR_INTERFACE, "Title", g_variant_new_string ("x")),
                     NULL);
  assert_call_fails (m, "org.freedesktop.DBus.Properties", "Set",
                     g_variant_new ("(ssv)", SLUICE_MONITOR_INTERFACE, "State", g_variant_new_string ("idle")),
                     NULL);

  /* Still there, unchanged. */
  events = get_all_events (m->peer, m->name, path_of (m), 0, &lost);
  g_assert_cmpuint (events->len, ==, n);
  g_assert_cmpuint (lost, ==, 0);
  title = get_string_property (m->peer, m->name, path_of (m), "Title");
  g_assert_cmpstr (title, ==, g_get_prgname ());
}

/* What waits when the run ends goes at once: at the run-end event the
 * export has taken every event into a batch, or, if a batch is still being
 * written, goes on as soon as it is (no 50 ms timer, no rest). */
typedef struct
{
  MonitorFixture     *m;
  gboolean            ended;
  SluiceMonitorStats  at_end;
} EndWatch;

static void
keep_copy_and_watch_end (const SluiceEvent *event,
                         gpointer           user_data)
{
  EndWatch *w = user_data;

  /* The export hears of every event before the pool's own function. */
  keep_copy (event, w->m->own);
  if (event->kind == SLUICE_EVENT_RUN_END)
    {
      w->ended = TRUE;
      w->at_end = monitor_stats (w->m->f.pool);
    }
}

static gboolean
has_run_end (GPtrArray *events)
{
  for (guint i = 0; i < events->len; i++)
    {
      const char *kind = NULL;

      if (g_variant_lookup (g_ptr_array_index (events, i), "kind", "&s", &kind) && g_str_equal (kind, "run-end"))
        return TRUE;
    }
  return FALSE;
}

static void
test_run_end_goes_at_once (MonitorFixture *m,
                           gconstpointer   data)
{
  g_autoptr(GVariant) reply = NULL;
  EndWatch w = { .m = m };
  const char *path;
  Receiver r;

  make_pool (&m->f, 2, 4, 1.0);
  sluice_pool_set_event_func (m->f.pool, keep_copy_and_watch_end, &w, NULL);
  export (m, SLUICE_EXPORT_READ_ONLY);
  path = path_of (m);
  receiver_init (&r, m->peer, g_dbus_connection_get_unique_name (m->exporter), path);
  reply = call_monitor (m->peer, m->name, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);

  drive (&m->f, range (20));
  g_assert_true (w.ended);
  g_assert_cmpuint (w.at_end.next_seq, >, 0);
  if (w.at_end.batch_from != w.at_end.next_seq)
    {
      /* Held back by the batch being written: it goes when that is. */
      g_assert_true (w.at_end.flushing);
      g_assert_true (w.at_end.urgent);
    }
  g_assert_false (w.at_end.timer_armed);
  SLUICE_TEST_SPIN_UNTIL (has_run_end (r.events));
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (last_state (&r), "ended") == 0);

  receiver_clear (&r);
}

/* An unexport with a subscriber sends what the subscriber was not sent
 * yet, and is done only once that is written out: a connection closed
 * right after it (as at a program's exit) loses none of it. */
static void
test_unexport_delivers_the_pending_events (MonitorFixture *m,
                                           gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *unique = g_strdup (g_dbus_connection_get_unique_name (m->exporter));
  SluiceMonitorStats stats;
  guint64 subscribed_at;
  guint64 n;
  const char *path;
  Receiver r;

  make_pool (&m->f, 2, 1000, 1.0);
  keep_own_events (m);
  export (m, SLUICE_EXPORT_READ_ONLY);
  path = path_of (m);
  receiver_init (&r, m->peer, unique, path);
  m->f.run = sluice_pool_open (m->f.pool, &error);
  g_assert_no_error (error);
  reply = call_monitor (m->peer, m->name, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);
  subscribed_at = monitor_stats (m->f.pool).next_seq;

  /* Two events per job, all in this one turn of the main loop: a batch
   * goes, the rest waits for it. */
  for (guint i = 0; i < 500; i++)
    sluice_run_submit_async (m->f.run, g_variant_new_int64 (i), NULL, on_submitted, m);
  stats = monitor_stats (m->f.pool);
  n = stats.next_seq;
  g_assert_cmpuint (n, ==, m->own->len);
  g_assert_cmpuint (n - stats.batch_from, >, SLUICE_MONITOR_BATCH_MAX);

  sluice_pool_unexport (m->f.pool);
  g_dbus_connection_close_sync (m->exporter, NULL, &error);
  g_assert_no_error (error);

  /* Everything the exporter wrote comes before its name leaves the bus. */
  wait_for_name (m->peer, unique, FALSE);
  g_assert_cmpuint (r.end, ==, n);
  g_assert_cmpuint (r.first, ==, subscribed_at);
  g_assert_cmpuint (r.gaps, ==, 0);
  for (guint i = 0; i < r.events->len; i++)
    assert_event_equals_own (m, g_ptr_array_index (r.events, i), subscribed_at + i);

  receiver_clear (&r);
  sluice_run_close_async (m->f.run, NULL, assert_closed, NULL);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_is_finished (m->f.run));
}

/* A pool that is finalized withdraws its export, and the name goes with
 * the process's last. */
static void
test_finalize_unexports (MonitorFixture *m,
                         gconstpointer   data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *path = NULL;
  SluicePool *pool;

  pool = try_make_pool (&m->f, &error, "workers", 1, NULL);
  g_assert_no_error (error);
  g_assert_true (sluice_pool_export (pool, m->exporter, SLUICE_EXPORT_READ_ONLY, &error));
  path = g_strdup (sluice_pool_get_object_path (pool));
  wait_for_name (m->peer, m->name, TRUE);

  g_assert_finalize_object (pool);
  wait_for_name (m->peer, m->name, FALSE);
  reply = call (m->peer, g_dbus_connection_get_unique_name (m->exporter), path, "org.freedesktop.DBus.Properties",
                "Get", g_variant_new ("(ss)", SLUICE_MONITOR_INTERFACE, "State"), NULL, &error);
  g_assert_null (reply);
  assert_dbus_error (error, NULL);
}

/* The interface comes from the installed XML, compiled in: every member
 * the spec names, with its signature. */
static void
test_interface_from_xml (void)
{
  GDBusInterfaceInfo *info = _sluice_monitor_get_interface_info ();
  const struct { const char *name; const char *in; const char *out; } methods[] = {
    { "GetEvents", "t", "taa{sv}t" },
    { "Subscribe", "", "" },
    { "Unsubscribe", "", "" },
    { "RequestStop", "", "" },
  };
  const struct { const char *name; const char *type; } props[] = {
    { "Title", "s" }, { "Program", "s" }, { "Labels", "a{ss}" }, { "Control", "b" }, { "Config", "a{sv}" },
    { "State", "s" }, { "Snapshot", "a{sv}" },
  };
  GDBusSignalInfo *signal;

  g_assert_cmpstr (info->name, ==, SLUICE_MONITOR_INTERFACE);
  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      GDBusMethodInfo *method = g_dbus_interface_info_lookup_method (info, methods[i].name);
      GString *in = g_string_new (NULL);
      GString *out = g_string_new (NULL);

      g_assert_nonnull (method);
      for (guint j = 0; method->in_args != NULL && method->in_args[j] != NULL; j++)
        g_string_append (in, method->in_args[j]->signature);
      for (guint j = 0; method->out_args != NULL && method->out_args[j] != NULL; j++)
        g_string_append (out, method->out_args[j]->signature);
      g_assert_cmpstr (in->str, ==, methods[i].in);
      g_assert_cmpstr (out->str, ==, methods[i].out);
      g_string_free (in, TRUE);
      g_string_free (out, TRUE);
    }
  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    {
      GDBusPropertyInfo *prop = g_dbus_interface_info_lookup_property (info, props[i].name);

      g_assert_nonnull (prop);
      g_assert_cmpstr (prop->signature, ==, props[i].type);
      g_assert_cmpint (prop->flags, ==, G_DBUS_PROPERTY_INFO_FLAGS_READABLE);
    }
  signal = g_dbus_interface_info_lookup_signal (info, "Events");
  g_assert_nonnull (signal);
  g_assert_cmpstr (signal->args[0]->signature, ==, "t");
  g_assert_cmpstr (signal->args[1]->signature, ==, "aa{sv}");
  g_assert_null (signal->args[2]);
}

/* The ring's size is an option of the pool, checked like the others. */
static void
test_event_capacity_is_checked (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluicePool) pool = NULL;
  Fixture f = { 0 };
  guint capacity;

  fixture_setup (&f, NULL);
  pool = try_make_pool (&f, &error, "event-capacity", 0u, NULL);
  g_assert_null (pool);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
  g_assert_cmpstr (error->message, ==, "event-capacity must be a positive integer up to 1000000, not 0");
  g_clear_error (&error);

  pool = try_make_pool (&f, &error, "event-capacity", SLUICE_POOL_MAX_EVENT_CAPACITY + 1, NULL);
  g_assert_null (pool);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
  g_clear_error (&error);

  pool = try_make_pool (&f, &error, "workers", 1, NULL);
  g_assert_no_error (error);
  g_object_get (pool, "event-capacity", &capacity, NULL);
  g_assert_cmpuint (capacity, ==, SLUICE_POOL_DEFAULT_EVENT_CAPACITY);
  g_clear_object (&pool);
  fixture_teardown (&f, NULL);
}

/* Without an export, nothing of D-Bus is touched: the session bus's
 * address leads to a socket of the test's, which nobody connects to, and
 * the run builds no event for nobody. Also with SLUICE_MONITOR empty. */
static void
test_no_export_touches_no_bus (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *dir = g_dir_make_tmp ("sluice-monitor-XXXXXX", NULL);
      g_autofree char *socket_path = g_build_filename (dir, "bus", NULL);
      g_autofree char *address = g_strdup_printf ("unix:path=%s", socket_path);
      g_autoptr(GSocketAddress) socket_address = g_unix_socket_address_new (socket_path);
      g_autoptr(GSocket) listener = NULL;
      g_autoptr(GSocket) accepted = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) own = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_event_free);
      g_autoptr(SluiceSource) unread = range (5);
      Fixture f = { 0 };

      listener = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT, &error);
      g_assert_no_error (error);
      g_assert_true (g_socket_bind (listener, socket_address, TRUE, &error));
      g_assert_true (g_socket_listen (listener, &error));
      g_socket_set_blocking (listener, FALSE);
      g_setenv ("DBUS_SESSION_BUS_ADDRESS", address, TRUE);
      g_setenv ("SLUICE_MONITOR", "", TRUE);

      /* One pool with nobody listening: the fast path, no event built. */
      fixture_setup (&f, NULL);
      make_pool (&f, 2, 2, 1.0);
      sluice_pool_set_event_func (f.pool, NULL, NULL, NULL);
      f.run = sluice_pool_run (f.pool, unread, &error);
      g_assert_no_error (error);
      g_assert_false (_sluice_run_wants_events (f.run));
      g_assert_null (f.pool->monitor);
      g_clear_object (&f.run);
      g_clear_object (&f.pool);

      /* One with an event function, run to its end. */
      make_pool (&f, 2, 2, 1.0);
      sluice_pool_set_event_func (f.pool, keep_copy, own, NULL);
      drive (&f, range (20));
      g_assert_cmpuint (own->len, >, 0);
      g_assert_null (f.pool->monitor);
      g_assert_null (f.run->monitor_func);
      g_assert_null (sluice_pool_get_object_path (f.pool));
      fixture_teardown (&f, NULL);

      accepted = g_socket_accept (listener, NULL, &error);
      g_assert_null (accepted);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);

      g_unlink (socket_path);
      g_rmdir (dir);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* Any other SLUICE_MONITOR than session or session,control is a warning
 * that names the variable and the forms it takes, and exports nothing. */
static void
test_environment_bad_value_warns (void)
{
  if (g_test_subprocess ())
    {
      Fixture f = { 0 };

      g_setenv ("SLUICE_MONITOR", "system", TRUE);
      g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
      fixture_setup (&f, NULL);
      make_pool (&f, 1, 1, 1.0);
      g_assert_null (sluice_pool_get_object_path (f.pool));
      fixture_teardown (&f, NULL);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*SLUICE_MONITOR=system*SLUICE_MONITOR=session *SLUICE_MONITOR=session,control *");
}

/* A second process, exported by SLUICE_MONITOR alone: found by its bus
 * name, watched live, stopped (over D-Bus with control, else by itself),
 * its events all read, its name gone when it exits. @data: the value of
 * SLUICE_MONITOR. */
static void
test_child_process (gconstpointer data)
{
  const char *mode = data;
  gboolean control = g_str_equal (mode, "session,control");
  g_autofree char *helper = g_test_build_filename (G_TEST_BUILT, "monitor-child", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GDBusConnection) monitor = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) config = NULL;
  g_autoptr(GVariant) control_property = NULL;
  g_autoptr(GVariant) snapshot = NULL;
  g_autoptr(GVariant) outcomes = NULL;
  g_autoptr(GPtrArray) events = NULL;
  g_autofree char *expected_name = NULL;
  g_autofree char *title = NULL;
  g_autofree char *program = NULL;
  g_autofree char *state = NULL;
  g_auto(GStrv) words = NULL;
  g_autoptr(SluiceEvent) last = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  guint64 n_events;
  guint64 n_succeeded;
  guint64 lost = 0;
  guint32 ok;
  Receiver r;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_MONITOR", mode, TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, helper, NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));

  /* Its readiness line, once its name is on the bus. */
  words = sluice_test_read_words (out, "ready", 3);
  name = g_strdup (words[1]);
  path = g_strdup (words[2]);
  expected_name = g_strdup_printf (SLUICE_MONITOR_BUS_NAME_PREFIX "p%s", g_subprocess_get_identifier (child));
  g_assert_cmpstr (name, ==, expected_name);
  g_assert_cmpstr (path, ==, SLUICE_MONITOR_OBJECT_PATH_PREFIX "1");

  title = get_string_property (monitor, name, path, "Title");
  program = get_string_property (monitor, name, path, "Program");
  state = get_string_property (monitor, name, path, "State");
  g_assert_cmpstr (title, ==, "sluice-monitor-child");
  g_assert_cmpstr (program, ==, "sluice-monitor-child");
  g_assert_cmpstr (state, ==, "running");
  config = get_property (monitor, name, path, "Config");
  assert_config (config, "workers", "2");
  assert_config (config, "clock", "'real'");
  control_property = get_property (monitor, name, path, "Control");
  g_assert_cmpint (g_variant_get_boolean (control_property), ==, control);

  receiver_init (&r, monitor, name, path);
  reply = call_monitor (monitor, name, path, "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);

  /* Stopped from here, or refused and stopped by itself. */
  reply = call (monitor, name, path, SLUICE_MONITOR_INTERFACE, "RequestStop", NULL, G_VARIANT_TYPE_UNIT, &error);
  if (control)
    g_assert_no_error (error);
  else
    {
      g_assert_null (reply);
      assert_dbus_error (error, "org.freedesktop.DBus.Error.AccessDenied");
      g_clear_error (&error);
      g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (child), "stop\n", 5,
                                                NULL, NULL, &error));
      g_assert_no_error (error);
    }

  /* Its report at the run's end. */
  g_clear_pointer (&words, g_strfreev);
  words = sluice_test_read_words (out, "done", 3);
  n_events = g_ascii_strtoull (words[1], NULL, 10);
  n_succeeded = g_ascii_strtoull (words[2], NULL, 10);
  g_assert_cmpuint (n_events, >, 0);

  /* Every event it emitted, from GetEvents and from the signals, the same;
   * the last counts are its own. */
  events = get_all_events (monitor, name, path, 0, &lost);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (events->len, ==, n_events);
  SLUICE_TEST_SPIN_UNTIL (r.end == n_events);
  g_assert_cmpuint (r.gaps, ==, 0);
  for (guint i = 0; i < r.events->len; i++)
    g_assert_true (g_variant_equal (g_ptr_array_index (r.events, i), g_ptr_array_index (events, r.first + i)));
  /* The run's end (results the caller read after it may follow). */
  for (guint i = events->len; i-- > 0 && last == NULL; )
    {
      g_autoptr(SluiceEvent) event = sluice_event_new_from_variant (g_ptr_array_index (events, i), &error);

      g_assert_no_error (error);
      if (event->kind == SLUICE_EVENT_RUN_END)
        last = g_steal_pointer (&event);
    }
  g_assert_nonnull (last);
  g_assert_cmpuint (last->succeeded, ==, n_succeeded);

  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (last_state (&r), "ended") == 0);
  snapshot = get_property (monitor, name, path, "Snapshot");
  outcomes = g_variant_lookup_value (snapshot, "outcomes", G_VARIANT_TYPE ("a{su}"));
  ok = 0;
  g_variant_lookup (outcomes, "ok", "u", &ok);
  g_assert_cmpuint (ok, ==, n_succeeded);

  /* The end of its input ends it; its name goes with it. */
  g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (child), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (child, NULL, &error));
  g_assert_no_error (error);
  wait_for_name (monitor, name, FALSE);

  receiver_clear (&r);
  g_dbus_connection_close_sync (monitor, NULL, NULL);
}

typedef struct
{
  Receiver *receiver;
  gboolean  known;
  gboolean  present;
  gboolean  run_end_before_vanished;
  guint64   received_before_vanished;
} Departure;

static void
on_child_name_appeared (GDBusConnection *connection,
                        const char      *name,
                        const char      *owner,
                        gpointer         user_data)
{
  Departure *d = user_data;

  d->known = TRUE;
  d->present = TRUE;
}

/* What had come when the name went: signals and the name's change arrive
 * on this one connection in the order the bus routed them. */
static void
on_child_name_vanished (GDBusConnection *connection,
                        const char      *name,
                        gpointer         user_data)
{
  Departure *d = user_data;

  if (d->present)
    {
      d->run_end_before_vanished = has_run_end (d->receiver->events);
      d->received_before_vanished = d->receiver->end;
    }
  d->known = TRUE;
  d->present = FALSE;
}

/* A second process that exits as soon as its run has ended, with no
 * delay: its subscriber still gets every event, the run's end among them,
 * before the process's name leaves the bus. */
static void
test_child_exits_at_run_end (void)
{
  g_autofree char *helper = g_test_build_filename (G_TEST_BUILT, "monitor-child", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GDBusConnection) monitor = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_auto(GStrv) words = NULL;
  Departure d = { 0 };
  guint64 n_events;
  guint watch;
  Receiver r;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_MONITOR", "session", TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, helper, "--exit-at-end", NULL);
  g_assert_no_error (error);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));

  words = sluice_test_read_words (out, "ready", 3);

  receiver_init (&r, monitor, words[1], words[2]);
  d.receiver = &r;
  watch = g_bus_watch_name_on_connection (monitor, words[1], G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          on_child_name_appeared, on_child_name_vanished, &d, NULL);
  SLUICE_TEST_SPIN_UNTIL (d.known);
  g_assert_true (d.present);
  reply = call_monitor (monitor, words[1], words[2], "Subscribe", NULL, G_VARIANT_TYPE_UNIT);
  g_clear_pointer (&reply, g_variant_unref);

  /* Stopped, it ends its run and exits at once. */
  g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (child), "stop\n", 5, NULL, NULL, &error));
  g_assert_no_error (error);
  g_clear_pointer (&words, g_strfreev);
  words = sluice_test_read_words (out, "done", 3);
  n_events = g_ascii_strtoull (words[1], NULL, 10);
  g_assert_cmpuint (n_events, >, 0);
  g_assert_true (g_subprocess_wait_check (child, NULL, &error));
  g_assert_no_error (error);

  SLUICE_TEST_SPIN_UNTIL (d.known && !d.present);
  g_assert_true (d.run_end_before_vanished);
  /* All of them, the results read after the end too. */
  g_assert_cmpuint (d.received_before_vanished, ==, n_events);
  g_assert_cmpuint (r.gaps, ==, 0);

  g_bus_unwatch_name (watch);
  receiver_clear (&r);
  g_dbus_connection_close_sync (monitor, NULL, NULL);
}

/* }}} */
/* GetEvents calls waiting, and calls too many a second {{{ */

/* The outcomes of calls made without waiting for each other. */
typedef struct
{
  guint      n_sent;
  guint      n_done;
  guint      n_refused;    /* LimitsExceeded */
  GPtrArray *replies;      /* GVariant (taa{sv}t) of those answered, in the order they came */
  GArray    *order;        /* guint: the caller's tag of each answer, in the order they came */
  char      *unexpected;   /* the first other error */
} Tally;

typedef struct
{
  Tally *tally;
  guint  tag;
} TallyCall;

static void
tally_init (Tally *t)
{
  memset (t, 0, sizeof *t);
  t->replies = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  t->order = g_array_new (FALSE, FALSE, sizeof (guint));
}

static void
tally_clear (Tally *t)
{
  g_clear_pointer (&t->replies, g_ptr_array_unref);
  g_clear_pointer (&t->order, g_array_unref);
  g_clear_pointer (&t->unexpected, g_free);
}

static void
on_tally_reply (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree TallyCall *call = user_data;
  Tally *t = call->tally;
  g_autoptr(GError) error = NULL;
  GVariant *reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);

  t->n_done++;
  if (reply != NULL)
    {
      g_ptr_array_add (t->replies, reply);
      g_array_append_val (t->order, call->tag);
    }
  else if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED))
    t->n_refused++;
  else if (t->unexpected == NULL)
    t->unexpected = g_strdup (error->message);
}

static void
tally_call (Tally           *t,
            GDBusConnection *connection,
            const char      *destination,
            const char      *path,
            const char      *interface,
            const char      *method,
            GVariant        *parameters,
            guint            tag)
{
  TallyCall *call = g_new0 (TallyCall, 1);

  call->tally = t;
  call->tag = tag;
  t->n_sent++;
  g_dbus_connection_call (connection, destination, path, interface, method, parameters, NULL,
                          G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, on_tally_reply, call);
}

static void
tally_get_events (Tally           *t,
                  GDBusConnection *connection,
                  MonitorFixture  *m,
                  guint64          from,
                  guint            tag)
{
  tally_call (t, connection, m->name, path_of (m), SLUICE_MONITOR_INTERFACE, "GetEvents",
              g_variant_new ("(t)", from), tag);
}

/* A round trip on @connection: what it sent before has reached the
 * exporter's main loop (a connection's calls are dispatched in order). */
static void
round_trip (MonitorFixture  *m,
            GDBusConnection *connection)
{
  g_autofree char *title = get_string_property (connection, m->name, path_of (m), "Title");

  g_assert_nonnull (title);
}

/* A pool whose run has ended with a thousand events or so in its ring:
 * a reply takes a while to make (the calls made at once come meanwhile). */
static void
export_ended_run (MonitorFixture *m)
{
  make_pool (&m->f, 3, 4, 1.0);
  keep_own_events (m);
  export (m, SLUICE_EXPORT_READ_ONLY);
  drive (&m->f, range (150));
  g_assert_cmpuint (m->own->len, >, 1000);
  g_assert_cmpuint (m->own->len, <, SLUICE_MONITOR_REPLY_MAX);
}

/* Every reply answered holds every event of the run, the pool's own (a
 * reply made once and given again is the same). */
static void
assert_whole_runs (MonitorFixture *m,
                   Tally          *t)
{
  for (guint i = 0; i < t->replies->len; i++)
    {
      g_autoptr(GVariant) page = NULL;
      guint64 next, lost;

      g_variant_get (g_ptr_array_index (t->replies, i), "(t@aa{sv}t)", &next, &page, &lost);
      g_assert_cmpuint (next, ==, m->own->len);
      g_assert_cmpuint (lost, ==, 0);
      g_assert_cmpuint (g_variant_n_children (page), ==, m->own->len);
      for (guint j = 0; j < m->own->len; j += 97)
        {
          g_autoptr(GVariant) event = g_variant_get_child_value (page, j);

          assert_event_equals_own (m, event, j);
        }
    }
}

/* A caller with SLUICE_MONITOR_PEER_CALLS_MAX GetEvents waiting for their
 * reply gets LimitsExceeded for more, at once; those waiting are answered,
 * one at a time (a reply takes a while: the others come meanwhile). */
static void
test_callers_calls_past_its_limit_are_refused (MonitorFixture *m,
                                               gconstpointer   data)
{
  guint n = 3 * SLUICE_MONITOR_PEER_CALLS_MAX;
  SluiceMonitorStats stats;
  Tally t;

  export_ended_run (m);
  tally_init (&t);
  for (guint i = 0; i < n; i++)
    tally_get_events (&t, m->peer, m, 0, i);
  SLUICE_TEST_SPIN_UNTIL (t.n_done == n);

  g_assert_cmpstr (t.unexpected, ==, NULL);
  g_assert_cmpuint (t.replies->len + t.n_refused, ==, n);
  g_assert_cmpuint (t.n_refused, >, 0);
  g_assert_cmpuint (t.replies->len, >=, SLUICE_MONITOR_PEER_CALLS_MAX);
  assert_whole_runs (m, &t);
  /* The last reply counts as waiting until the monitor hears it was
   * written out, which may come after the caller read it. */
  SLUICE_TEST_SPIN_UNTIL (monitor_stats (m->f.pool).n_calls_waiting == 0);
  stats = monitor_stats (m->f.pool);
  g_assert_cmpuint (stats.n_calls_refused, ==, t.n_refused);
  g_assert_cmpuint (stats.n_calls_waiting, ==, 0);
  tally_clear (&t);
}

/* Past SLUICE_MONITOR_CALLS_MAX GetEvents waiting from all callers, more
 * are refused, though no caller is past its own limit; a caller with
 * fewer waiting takes the place of one with the most, so every caller is
 * answered. */
static void
test_calls_past_the_total_are_refused (MonitorFixture *m,
                                       gconstpointer   data)
{
  guint n_callers = SLUICE_MONITOR_CALLS_MAX / SLUICE_MONITOR_PEER_CALLS_MAX + 4;
  g_autoptr(GPtrArray) callers = g_ptr_array_new_with_free_func (g_object_unref);
  guint *answered = g_new0 (guint, n_callers);
  Tally t;

  export_ended_run (m);
  tally_init (&t);
  for (guint c = 0; c < n_callers; c++)
    g_ptr_array_add (callers, sluice_test_bus_connection_new (test_bus));
  for (guint c = 0; c < n_callers; c++)
    for (guint i = 0; i < SLUICE_MONITOR_PEER_CALLS_MAX; i++)
      tally_get_events (&t, g_ptr_array_index (callers, c), m, 0, c);
  SLUICE_TEST_SPIN_UNTIL (t.n_done == t.n_sent);

  g_assert_cmpstr (t.unexpected, ==, NULL);
  g_assert_cmpuint (t.n_refused, >, 0);
  g_assert_cmpuint (t.replies->len + t.n_refused, ==, t.n_sent);
  assert_whole_runs (m, &t);
  for (guint i = 0; i < t.order->len; i++)
    answered[g_array_index (t.order, guint, i)]++;
  for (guint c = 0; c < n_callers; c++)
    g_assert_cmpuint (answered[c], >, 0);

  for (guint c = 0; c < n_callers; c++)
    g_dbus_connection_close_sync (g_ptr_array_index (callers, c), NULL, NULL);
  g_free (answered);
  tally_clear (&t);
}

/* Callers take turns: one that asks while another has calls waiting is
 * answered after at most the reply being made and one more of the other,
 * not after all of them. */
static void
test_callers_take_turns (MonitorFixture *m,
                         gconstpointer   data)
{
  g_autoptr(GDBusConnection) second = sluice_test_bus_connection_new (test_bus);
  guint position = G_MAXUINT;
  Tally t;

  export_ended_run (m);
  tally_init (&t);
  for (guint i = 0; i < SLUICE_MONITOR_PEER_CALLS_MAX; i++)
    tally_get_events (&t, m->peer, m, 0, 1);
  round_trip (m, m->peer);
  tally_get_events (&t, second, m, 0, 2);
  SLUICE_TEST_SPIN_UNTIL (t.n_done == t.n_sent);

  g_assert_cmpstr (t.unexpected, ==, NULL);
  g_assert_cmpuint (t.n_refused, ==, 0);
  for (guint i = 0; i < t.order->len; i++)
    if (g_array_index (t.order, guint, i) == 2)
      position = i;
  g_assert_cmpuint (position, <=, 2);
  assert_whole_runs (m, &t);

  g_dbus_connection_close_sync (second, NULL, NULL);
  tally_clear (&t);
}

/* The GetEvents calls still waiting when the pool is unexported get an
 * error; none is left without an answer. */
static void
test_unexport_answers_the_waiting_calls (MonitorFixture *m,
                                         gconstpointer   data)
{
  Tally t;

  export_ended_run (m);
  tally_init (&t);
  for (guint i = 0; i < SLUICE_MONITOR_PEER_CALLS_MAX; i++)
    tally_get_events (&t, m->peer, m, 0, i);
  round_trip (m, m->peer);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_calls_waiting, >, 1);
  sluice_pool_unexport (m->f.pool);
  SLUICE_TEST_SPIN_UNTIL (t.n_done == t.n_sent);

  /* The one being made was sent; the others were told why not. */
  g_assert_cmpuint (t.replies->len, >=, 1);
  g_assert_cmpuint (t.replies->len, <, t.n_sent);
  g_assert_nonnull (t.unexpected);
  g_assert_nonnull (strstr (t.unexpected, "no longer exported"));
  tally_clear (&t);
}

/* Calls from a thread of their own, on a context of their own, while the
 * exporter's main loop (this thread's) does not turn. */
typedef struct
{
  GDBusConnection *connection;
  const char      *name;
  const char      *path;
  guint            n;
  Tally            tally;
  GMutex           lock;
  GCond            cond;
  guint            n_refused;   /* under lock */
  gint             finished;    /* atomic: every call answered */
} Flood;

static gpointer
flood_thread (gpointer data)
{
  Flood *f = data;
  g_autoptr(GMainContext) context = g_main_context_new ();

  g_main_context_push_thread_default (context);
  for (guint i = 0; i < f->n; i++)
    tally_call (&f->tally, f->connection, f->name, f->path, "org.freedesktop.DBus.Properties", "Get",
                g_variant_new ("(ss)", SLUICE_MONITOR_INTERFACE, "Title"), i);
  while (f->tally.n_done < f->n)
    {
      g_main_context_iteration (context, TRUE);
      g_mutex_lock (&f->lock);
      f->n_refused = f->tally.n_refused;
      g_cond_signal (&f->cond);
      g_mutex_unlock (&f->lock);
    }
  g_main_context_pop_thread_default (context);
  g_atomic_int_set (&f->finished, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* A caller that calls faster than SLUICE_MONITOR_PEER_CALLS_PER_S is
 * refused with LimitsExceeded past its burst, and the refusals come while
 * the pool's main loop does not turn: they never reach it. */
static void
test_calls_past_a_callers_rate_are_refused (MonitorFixture *m,
                                            gconstpointer   data)
{
  Flood f = { 0 };
  GThread *thread;
  gint64 start, limit, took;
  guint expected;

  make_pool (&m->f, 2, 2, 1.0);
  export (m, SLUICE_EXPORT_READ_ONLY);
  f.connection = m->peer;
  f.name = m->name;
  f.path = path_of (m);
  /* Fewer than the bus lets wait for a reply on one connection (128). */
  f.n = 2 * SLUICE_MONITOR_PEER_BURST;
  tally_init (&f.tally);
  g_mutex_init (&f.lock);
  g_cond_init (&f.cond);

  /* The wall clock: the gate's rate is per second of it. The refusals
   * expected are those past the burst, less what the rate lets through
   * while the calls come (they come in far less than a second). */
  start = g_get_monotonic_time ();
  limit = start + SLUICE_TEST_WAIT_LIMIT_US;
  expected = f.n - SLUICE_MONITOR_PEER_BURST - SLUICE_MONITOR_PEER_CALLS_PER_S / 2;
  thread = g_thread_new ("flood", flood_thread, &f);
  g_mutex_lock (&f.lock);
  while (f.n_refused < expected)
    if (!g_cond_wait_until (&f.cond, &f.lock, limit))
      g_error ("%u calls refused while the main loop did not turn, %u expected", f.n_refused, expected);
  g_mutex_unlock (&f.lock);

  /* Then the others are answered, by the main loop. */
  SLUICE_TEST_SPIN_UNTIL (g_atomic_int_get (&f.finished));
  g_thread_join (thread);
  took = g_get_monotonic_time () - start;
  g_assert_cmpstr (f.tally.unexpected, ==, NULL);
  g_assert_cmpuint (f.tally.replies->len + f.tally.n_refused, ==, f.n);
  g_assert_cmpuint (f.tally.replies->len, >=, SLUICE_MONITOR_PEER_BURST);
  g_assert_cmpuint (f.tally.replies->len, <=,
                    SLUICE_MONITOR_PEER_BURST + 1 + SLUICE_MONITOR_PEER_CALLS_PER_S * took / G_USEC_PER_SEC);
  g_assert_cmpuint (monitor_stats (m->f.pool).n_calls_gated, ==, f.tally.n_refused);

  g_mutex_clear (&f.lock);
  g_cond_clear (&f.cond);
  tally_clear (&f.tally);
}

/* }}} */
/* A flood of calls {{{ */

/* The flood: connections of their own, each keeping FLOOD_IN_FLIGHT calls
 * on their way, a mix of GetEvents from 0 (a whole page of the ring, the
 * costliest) and from elsewhere, the Snapshot, all the properties,
 * Subscribe and Unsubscribe: each call answered is followed by another at
 * once, for as long as the child's run goes on. */
#define FLOOD_CONNECTIONS 4
#define FLOOD_IN_FLIGHT   64
#define FLOOD_ITEMS       4000
/* How much more memory the flooded child may use than it did when it was
 * ready: its ring (FLOOD_ITEMS × 7 events, a few MB), a reply kept for the
 * next caller and one in the making. (Before the calls were bounded, each
 * call waiting held a copy of a page of the ring: over 80 MB here, and
 * calls that timed out.) */
#define FLOOD_GROWTH_LIMIT_KB (48 * 1024)

typedef struct
{
  GDBusConnection *connection;
  const char      *name;
  const char      *path;
  const gboolean  *stop;
  guint            in_flight;
  guint            n_sent;
  guint64          n_answered;
  guint64          n_refused;
  guint64          n_full_pages;
  char            *unexpected;    /* the first error that is not a refusal */
} Flooder;

typedef struct
{
  Flooder  *flooder;
  gboolean  get_events;
  gboolean  from_zero;
} FloodCall;

static void flood_one (Flooder *flooder,
                       guint    i);

/* A refusal (LimitsExceeded) is the export defending itself, and a
 * from_seq past the newest event is a bad call; anything else fails the
 * test. */
static void
on_flood_reply (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree FloodCall *call = user_data;
  Flooder *flooder = call->flooder;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);

  flooder->in_flight--;
  if (reply != NULL)
    {
      flooder->n_answered++;
      if (call->get_events)
        {
          g_autoptr(GVariant) page = g_variant_get_child_value (reply, 1);

          flooder->n_full_pages += g_variant_n_children (page) == SLUICE_MONITOR_REPLY_MAX;
        }
    }
  else
    {
      g_autofree char *remote = g_dbus_error_get_remote_error (error);

      if (g_strcmp0 (remote, "org.freedesktop.DBus.Error.LimitsExceeded") == 0)
        flooder->n_refused++;
      else if (!(call->get_events && !call->from_zero &&
                 g_strcmp0 (remote, "org.freedesktop.DBus.Error.InvalidArgs") == 0) &&
               flooder->unexpected == NULL)
        flooder->unexpected = g_strdup (error->message);
    }

  /* Another in its place, at once. */
  if (!*flooder->stop)
    flood_one (flooder, flooder->n_sent++);
}

static void
flood_call (Flooder            *flooder,
            const char         *interface,
            const char         *method,
            GVariant           *parameters,
            const GVariantType *reply_type)
{
  FloodCall *call = g_new0 (FloodCall, 1);

  call->flooder = flooder;
  call->get_events = g_str_equal (method, "GetEvents");
  if (call->get_events)
    {
      guint64 from;

      g_variant_get (parameters, "(t)", &from);
      call->from_zero = from == 0;
    }
  flooder->in_flight++;
  g_dbus_connection_call (flooder->connection, flooder->name, flooder->path, interface, method, parameters,
                          reply_type, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, NULL, on_flood_reply, call);
}

/* The @i-th call of @flooder. */
static void
flood_one (Flooder *flooder,
           guint    i)
{
  switch (i % 8)
    {
    case 5:
      flood_call (flooder, "org.freedesktop.DBus.Properties", "Get",
                  g_variant_new ("(ss)", SLUICE_MONITOR_INTERFACE, "Snapshot"), G_VARIANT_TYPE ("(v)"));
      break;
    case 6:
      flood_call (flooder, "org.freedesktop.DBus.Properties", "GetAll",
                  g_variant_new ("(s)", SLUICE_MONITOR_INTERFACE), G_VARIANT_TYPE ("(a{sv})"));
      break;
    case 7:
      flood_call (flooder, SLUICE_MONITOR_INTERFACE, i % 16 == 7 ? "Subscribe" : "Unsubscribe",
                  NULL, G_VARIANT_TYPE_UNIT);
      break;
    case 4:
      /* Somewhere in the ring, or past its newest event. */
      flood_call (flooder, SLUICE_MONITOR_INTERFACE, "GetEvents",
                  g_variant_new ("(t)", (guint64) i * 131 % (FLOOD_ITEMS * 7)),
                  G_VARIANT_TYPE ("(taa{sv}t)"));
      break;
    default:
      flood_call (flooder, SLUICE_MONITOR_INTERFACE, "GetEvents", g_variant_new ("(t)", (guint64) 0),
                  G_VARIANT_TYPE ("(taa{sv}t)"));
    }
}

/* A line of /proc/PID/status in kB, such as VmHWM (the peak of the
 * resident set) or VmRSS. */
static guint64
process_memory_kb (const char *pid,
                   const char *key)
{
  g_autofree char *file = g_strdup_printf ("/proc/%s/status", pid);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;

  g_file_get_contents (file, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], key) && lines[i][strlen (key)] == ':')
      return g_ascii_strtoull (lines[i] + strlen (key) + 1, NULL, 10);
  g_error ("%s has no %s", file, key);
}

typedef struct
{
  char     *line;
  gboolean  done;
} ChildLine;

static void
on_child_line (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ChildLine *line = user_data;
  g_autoptr(GError) error = NULL;

  line->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  g_assert_no_error (error);
  line->done = TRUE;
}

/* A second process whose pool several connections flood with calls for
 * its whole run: its memory grows by a bounded amount however many calls
 * come (the work is bounded per caller and in total, the excess refused),
 * its run ends with every item succeeded and none timed out (its main
 * loop was never blocked for a second), and a monitor then still reads
 * every event of the run. */
static void
test_flood_is_bounded (void)
{
  g_autofree char *helper = g_test_build_filename (G_TEST_BUILT, "monitor-child", NULL);
  g_autofree char *items = g_strdup_printf ("--items=%d", FLOOD_ITEMS);
  g_autofree char *capacity = g_strdup_printf ("--event-capacity=%d", FLOOD_ITEMS * 8);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GDBusConnection) monitor = sluice_test_bus_connection_new (test_bus);
  g_autoptr(GPtrArray) events = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *unexpected = NULL;
  g_auto(GStrv) words = NULL;
  g_auto(GStrv) report = NULL;
  Flooder flooders[FLOOD_CONNECTIONS] = { 0 };
  ChildLine done = { 0 };
  gboolean stop = FALSE;
  const char *pid;
  guint64 ready_kb, peak_kb;
  gint64 started, ended;
  guint64 n_answered = 0, n_refused = 0, n_full_pages = 0, lost = 0;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_MONITOR", "session", TRUE);
  /* Items of 1 ms that time out after 2 s: a main loop blocked that long
   * shows as timeouts. */
  child = g_subprocess_launcher_spawn (launcher, &error, helper, items, "--item-ms=1", "--item-timeout=2",
                                       capacity, NULL);
  g_assert_no_error (error);
  pid = g_subprocess_get_identifier (child);
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));

  words = sluice_test_read_words (out, "ready", 3);
  ready_kb = process_memory_kb (pid, "VmRSS");
  started = g_get_monotonic_time ();

  g_data_input_stream_read_line_async (out, G_PRIORITY_DEFAULT, NULL, on_child_line, &done);
  for (guint i = 0; i < FLOOD_CONNECTIONS; i++)
    {
      flooders[i].connection = sluice_test_bus_connection_new (test_bus);
      flooders[i].name = words[1];
      flooders[i].path = words[2];
      flooders[i].stop = &stop;
      while (flooders[i].n_sent < FLOOD_IN_FLIGHT)
        flood_one (&flooders[i], flooders[i].n_sent++);
    }

  /* Until the run's end, then until every call is answered. */
  SLUICE_TEST_SPIN_UNTIL (done.done);
  ended = g_get_monotonic_time ();
  stop = TRUE;
  for (guint i = 0; i < FLOOD_CONNECTIONS; i++)
    SLUICE_TEST_SPIN_UNTIL (flooders[i].in_flight == 0);
  peak_kb = process_memory_kb (pid, "VmHWM");

  for (guint i = 0; i < FLOOD_CONNECTIONS; i++)
    {
      if (unexpected == NULL)
        unexpected = g_steal_pointer (&flooders[i].unexpected);
      g_free (flooders[i].unexpected);
      n_answered += flooders[i].n_answered;
      n_refused += flooders[i].n_refused;
      n_full_pages += flooders[i].n_full_pages;
      g_dbus_connection_close_sync (flooders[i].connection, NULL, NULL);
      g_clear_object (&flooders[i].connection);
    }
  g_test_message ("flood: %" G_GUINT64_FORMAT " calls answered (%" G_GUINT64_FORMAT " whole pages), %"
                  G_GUINT64_FORMAT " refused; the child's memory %" G_GUINT64_FORMAT " kB when ready, at most %"
                  G_GUINT64_FORMAT " kB; its run took %.1f s", n_answered, n_full_pages, n_refused, ready_kb, peak_kb,
                  (double) (ended - started) / G_USEC_PER_SEC);
  g_assert_cmpstr (unexpected, ==, NULL);
  /* The flood reached the costliest replies. */
  g_assert_cmpuint (n_full_pages, >, 0);

  /* Every item accounted for, none timed out. */
  g_assert_nonnull (done.line);
  report = g_strsplit (done.line, " ", -1);
  g_assert_cmpuint (g_strv_length (report), ==, 5);
  g_assert_cmpstr (report[0], ==, "done");
  g_assert_cmpstr (report[2], ==, G_STRINGIFY (FLOOD_ITEMS));
  g_assert_cmpstr (report[3], ==, "0");
  g_assert_cmpstr (report[4], ==, "0");

#if defined(SLUICE_TEST_UNDER_ASAN)
  /* Its quarantine keeps what is freed: the peak says nothing here. */
  g_test_message ("under AddressSanitizer: the memory bound is not checked");
#else
  g_assert_cmpuint (peak_kb, <, ready_kb + FLOOD_GROWTH_LIMIT_KB);
#endif

  /* The export still answers a monitor, every event of the run. */
  events = get_all_events (monitor, words[1], words[2], 0, &lost);
  g_assert_cmpuint (lost, ==, 0);
  g_assert_cmpuint (events->len, ==, g_ascii_strtoull (report[1], NULL, 10));

  g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (child), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (child, NULL, &error));
  g_assert_no_error (error);
  g_free (done.line);
  g_dbus_connection_close_sync (monitor, NULL, NULL);
}

/* }}} */

static void
add (const char *path,
     gconstpointer data,
     void (*test) (MonitorFixture *, gconstpointer))
{
  g_test_add (path, MonitorFixture, data, monitor_setup, test, monitor_teardown);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *daemon = NULL;
  gboolean have_daemon;
  int status;

  g_unsetenv ("SLUICE_MONITOR");
  g_test_init (&argc, &argv, NULL);
  g_set_prgname ("test-monitor");

  g_test_add_func ("/monitor/interface-from-xml", test_interface_from_xml);
  g_test_add_func ("/monitor/event-capacity-is-checked", test_event_capacity_is_checked);
  g_test_add_func ("/monitor/no-export-touches-no-bus", test_no_export_touches_no_bus);
  g_test_add_func ("/monitor/environment/bad-value-warns", test_environment_bad_value_warns);

  /* The rest needs a message bus: GTestDBus runs a dbus-daemon. */
  daemon = g_find_program_in_path ("dbus-daemon");
  have_daemon = daemon != NULL;
  if (have_daemon)
    {
      add ("/monitor/bus-name-and-object-path", NULL, test_bus_name_and_object_path);
      add ("/monitor/properties", NULL, test_properties);
      add ("/monitor/get-events/equal-the-pools-own", NULL, test_get_events_equal_the_pools_own);
      add ("/monitor/get-events/ring-keeps-the-latest", NULL, test_ring_keeps_the_latest);
      add ("/monitor/events/only-while-subscribed", NULL, test_events_only_while_subscribed);
      add ("/monitor/events/subscriber-that-leaves-is-dropped", NULL, test_subscriber_that_leaves_is_dropped);
      add ("/monitor/events/stuck-subscriber-costs-at-most-the-ring", NULL,
           test_stuck_subscriber_costs_at_most_the_ring);
      add ("/monitor/request-stop/refused-read-only", GINT_TO_POINTER (FALSE), test_request_stop);
      add ("/monitor/request-stop/allowed-with-control", GINT_TO_POINTER (TRUE), test_request_stop);
      add ("/monitor/bad-calls-get-errors", NULL, test_bad_calls_get_errors);
      add ("/monitor/finalize-unexports", NULL, test_finalize_unexports);
      add ("/monitor/events/run-end-goes-at-once", NULL, test_run_end_goes_at_once);
      add ("/monitor/unexport/delivers-the-pending-events", NULL, test_unexport_delivers_the_pending_events);
      add ("/monitor/unexport/waits-at-most-a-second", NULL, test_unexport_waits_at_most_a_second);
      add ("/monitor/get-events/a-callers-calls-past-its-limit-are-refused", NULL,
           test_callers_calls_past_its_limit_are_refused);
      add ("/monitor/get-events/calls-past-the-total-are-refused", NULL, test_calls_past_the_total_are_refused);
      add ("/monitor/get-events/callers-take-turns", NULL, test_callers_take_turns);
      add ("/monitor/get-events/unexport-answers-the-waiting-calls", NULL, test_unexport_answers_the_waiting_calls);
      add ("/monitor/calls-past-a-callers-rate-are-refused", NULL, test_calls_past_a_callers_rate_are_refused);
      g_test_add_data_func ("/monitor/child-process/read-only", "session", test_child_process);
      g_test_add_data_func ("/monitor/child-process/control", "session,control", test_child_process);
      g_test_add_func ("/monitor/child-process/exits-at-run-end", test_child_exits_at_run_end);
      g_test_add_func ("/monitor/child-process/flood-is-bounded", test_flood_is_bounded);
    }
  else
    g_test_message ("no dbus-daemon: the tests on a bus are left out");

  /* A subprocess runs one test that needs no bus. */
  if (have_daemon && !g_test_subprocess ())
    {
      test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (test_bus);
    }

  status = g_test_run ();

  if (test_bus != NULL)
    {
      g_test_dbus_down (test_bus);
      g_clear_object (&test_bus);
    }
  return status;
}
