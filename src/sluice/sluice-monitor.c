/* sluice-monitor.c: a pool exported on D-Bus (io.github.sluicepool.Sluice.Pool1)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include <string.h>
#include <unistd.h>

#include "sluice-event-ring-private.h"
#include "sluice-monitor-gate-private.h"
#include "sluice-monitor-job-private.h"
#include "sluice-monitor-private.h"
#include "sluice-monitor-requests-private.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"
#include "sluice-snapshot.h"

/* How the export works, and what it promises a monitor and the pool:
 * docs/monitoring.md. */

#define INTERFACE_XML "/io/github/sluicepool/libsluice/io.github.sluicepool.Sluice.Pool1.xml"

struct _SluiceMonitor
{
  GObject             parent_instance;

  /* Not owned: the pool owns its monitor. NULL once unexported; what the
   * bus still calls then gets an error. */
  SluicePool         *pool;
  GDBusConnection    *connection;
  GMainContext       *context;
  SluiceExportFlags   flags;
  char               *object_path;
  guint               registration_id;
  SluiceMonitorGate  *gate;           /* while exported */
  gboolean            holds_name;

  SluiceEventRing     ring;

  /* GetEvents: the calls waiting for their reply, and the events of the
   * last reply made, for the next call that asks for the same (a monitor
   * that starts from 0 while the ring is not full). */
  SluiceMonitorRequests *requests;
  GVariant           *last_reply;     /* aa{sv}, or NULL */
  guint64             last_reply_from;
  gint64              reply_cost;     /* µs the thread spent on it */

  /* The Events signal. */
  GHashTable         *subscribers;    /* unique name → name watch id */
  guint               n_subscribers;  /* its size, read for every event */
  guint64             batch_from;     /* the first event no signal carried yet */
  GSource            *batch_timer;
  gint64              timer_due;      /* when it fires (monotonic µs) */
  gint64              next_emission_at; /* the thread rests until then */
  GCancellable       *cancellable;    /* of the flush in flight */
  gboolean            flushing;       /* an emission is not yet written out */
  gboolean            held_back;      /* events waited for that flush */
  gboolean            urgent;         /* the run ended: what waits goes at once */
  const char         *state;          /* as last announced */
  gboolean            state_dirty;
  gboolean            title_dirty;
  GVariant           *final_snapshot; /* taken at the run's end */

  guint64             n_batches;
  guint64             n_skipped;
  guint64             n_held_back;
};

enum {
  PROP_0,
  PROP_EVENT_CAPACITY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SluiceMonitor, _sluice_monitor, G_TYPE_OBJECT)

G_DEFINE_FLAGS_TYPE (SluiceExportFlags, sluice_export_flags,
  G_DEFINE_ENUM_VALUE (SLUICE_EXPORT_READ_ONLY, "read-only"),
  G_DEFINE_ENUM_VALUE (SLUICE_EXPORT_ALLOW_CONTROL, "allow-control"))

static void flush    (SluiceMonitor *self);
static void schedule (SluiceMonitor *self);

/* The interface {{{ */

GDBusInterfaceInfo *
_sluice_monitor_get_interface_info (void)
{
  static GDBusInterfaceInfo *info = NULL;

  if (g_once_init_enter (&info))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GBytes) xml = NULL;
      g_autoptr(GDBusNodeInfo) node = NULL;
      GDBusInterfaceInfo *interface;

      /* Both are part of the library: a failure is a broken build. The
       * resource is loaded only for this, and only for as long as it takes
       * (the XML is copied out). */
      _sluice_monitor_register_resource ();
      xml = g_resource_lookup_data (_sluice_monitor_get_resource (), INTERFACE_XML,
                                    G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
      if (xml == NULL)
        g_error ("%s: %s", INTERFACE_XML, error->message);
      node = g_dbus_node_info_new_for_xml (g_bytes_get_data (xml, NULL), &error);
      if (node == NULL)
        g_error ("%s: %s", INTERFACE_XML, error->message);
      g_clear_pointer (&xml, g_bytes_unref);
      _sluice_monitor_unregister_resource ();
      interface = g_dbus_node_info_lookup_interface (node, SLUICE_MONITOR_INTERFACE);
      g_assert (interface != NULL);
      g_dbus_interface_info_cache_build (interface);

      g_once_init_leave (&info, g_dbus_interface_info_ref (interface));
    }

  return info;
}

/* }}} */
/* The bus name: one per process and connection {{{ */

typedef struct
{
  GDBusConnection *connection;
  guint            owner_id;
  guint            n_exports;
} BusName;

static GMutex  bus_names_lock;
static GSList *bus_names;
static gint    last_pool_number;

static void
hold_bus_name (GDBusConnection *connection)
{
  BusName *entry = NULL;

  g_mutex_lock (&bus_names_lock);
  for (GSList *l = bus_names; l != NULL && entry == NULL; l = l->next)
    if (((BusName *) l->data)->connection == connection)
      entry = l->data;

  if (entry == NULL)
    {
      g_autofree char *name = g_strdup_printf (SLUICE_MONITOR_BUS_NAME_PREFIX "p%ld", (long) getpid ());

      entry = g_new0 (BusName, 1);
      entry->connection = g_object_ref (connection);
      /* No handlers: the name has the process id in it, nobody else asks
       * for it, and the pools are reachable by the unique name anyway. */
      entry->owner_id = g_bus_own_name_on_connection (connection, name, G_BUS_NAME_OWNER_FLAGS_NONE,
                                                      NULL, NULL, NULL, NULL);
      bus_names = g_slist_prepend (bus_names, entry);
    }
  entry->n_exports++;
  g_mutex_unlock (&bus_names_lock);
}

/* The last export on @connection gives the name up: a process with no
 * exported pool is not listed. */
static void
release_bus_name (GDBusConnection *connection)
{
  g_mutex_lock (&bus_names_lock);
  for (GSList *l = bus_names; l != NULL; l = l->next)
    {
      BusName *entry = l->data;

      if (entry->connection != connection)
        continue;
      if (--entry->n_exports == 0)
        {
          g_bus_unown_name (entry->owner_id);
          g_object_unref (entry->connection);
          bus_names = g_slist_delete_link (bus_names, l);
          g_free (entry);
        }
      break;
    }
  g_mutex_unlock (&bus_names_lock);
}

/* }}} */
/* Properties {{{ */

static const char * const config_properties[] = {
  "workers", "queue-size", "item-timeout", "max-retries", "retryable", "keep-going", "fatal",
  "shutdown-timeout", "backoff", "backoff-base", "backoff-cap", "jitter", "seed",
  "item-deadline", "retry-budget", "retry-budget-ratio", "event-capacity",
};

static GVariant *
enum_nick (GType type,
           gint  value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (type);
  GEnumValue *entry = g_enum_get_value (klass, value);

  return g_variant_new_string (entry != NULL ? entry->value_nick : "");
}

static GVariant *
option_to_variant (const GValue *value)
{
  GType type = G_VALUE_TYPE (value);

  if (type == G_TYPE_INT)
    return g_variant_new_int32 (g_value_get_int (value));
  if (type == G_TYPE_UINT)
    return g_variant_new_uint32 (g_value_get_uint (value));
  if (type == G_TYPE_DOUBLE)
    return g_variant_new_double (g_value_get_double (value));
  if (type == G_TYPE_BOOLEAN)
    return g_variant_new_boolean (g_value_get_boolean (value));
  if (type == G_TYPE_STRV)
    {
      const char * const *strv = g_value_get_boxed (value);
      const char * const none[] = { NULL };

      return g_variant_new_strv (strv != NULL ? strv : none, -1);
    }
  if (G_TYPE_IS_ENUM (type))
    return enum_nick (type, g_value_get_enum (value));

  g_assert_not_reached ();
}

/* The pool's options by their property names, and its clock's kind. */
static GVariant *
config_to_variant (SluicePool *pool)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  for (guint i = 0; i < G_N_ELEMENTS (config_properties); i++)
    {
      g_auto(GValue) value = G_VALUE_INIT;

      g_object_get_property (G_OBJECT (pool), config_properties[i], &value);
      g_variant_builder_add (&builder, "{sv}", config_properties[i], option_to_variant (&value));
    }
  g_variant_builder_add (&builder, "{sv}", "clock",
                         enum_nick (SLUICE_TYPE_CLOCK_KIND, sluice_clock_get_kind (sluice_pool_get_clock (pool))));

  return g_variant_builder_end (&builder);
}

static void
add_snapshot_counts (GVariantBuilder *builder,
                     gint64           time,
                     double           t,
                     guint            queue_depth,
                     guint            queue_capacity,
                     guint            busy_workers,
                     guint            workers,
                     guint            in_flight)
{
  g_variant_builder_add (builder, "{sv}", "time_us", g_variant_new_int64 (time));
  g_variant_builder_add (builder, "{sv}", "t", g_variant_new_double (t));
  g_variant_builder_add (builder, "{sv}", "queue_depth", g_variant_new_uint32 (queue_depth));
  g_variant_builder_add (builder, "{sv}", "queue_capacity", g_variant_new_uint32 (queue_capacity));
  g_variant_builder_add (builder, "{sv}", "busy_workers", g_variant_new_uint32 (busy_workers));
  g_variant_builder_add (builder, "{sv}", "workers", g_variant_new_uint32 (workers));
  g_variant_builder_add (builder, "{sv}", "in_flight", g_variant_new_uint32 (in_flight));
}

static void
add_durations (GVariantBuilder *builder,
               guint64          count,
               gint64           mean,
               gint64           p50,
               gint64           p95,
               gint64           max)
{
  g_variant_builder_add (builder, "{sv}", "durations", g_variant_new_uint64 (count));
  g_variant_builder_add (builder, "{sv}", "duration_mean_us", g_variant_new_int64 (mean));
  g_variant_builder_add (builder, "{sv}", "duration_p50_us", g_variant_new_int64 (p50));
  g_variant_builder_add (builder, "{sv}", "duration_p95_us", g_variant_new_int64 (p95));
  g_variant_builder_add (builder, "{sv}", "duration_max_us", g_variant_new_int64 (max));
}

/* The snapshot of docs/submit-and-shutdown.md: the run's now, or the pool's
 * before it runs; the one taken at the end once it has ended. */
static GVariant *
snapshot_to_variant (SluiceMonitor *self)
{
  SluicePool *pool = self->pool;
  SluiceRun *run = pool->run;
  g_autoptr(SluiceSnapshot) snapshot = NULL;
  GVariantBuilder builder;
  GVariantBuilder outcomes;

  if (self->final_snapshot != NULL)
    return g_variant_ref (self->final_snapshot);

  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_init (&outcomes, G_VARIANT_TYPE ("a{su}"));

  if (run != NULL)
    {
      const char * const *names;
      gint64 time;

      snapshot = sluice_run_get_snapshot (run);
      time = sluice_snapshot_get_time (snapshot);
      add_snapshot_counts (&builder, time,
                           run->state != RUN_IDLE ? (double) (time - run->started_at) / G_USEC_PER_SEC : 0.0,
                           sluice_snapshot_get_queue_depth (snapshot),
                           sluice_snapshot_get_queue_capacity (snapshot),
                           sluice_snapshot_get_busy_workers (snapshot),
                           sluice_snapshot_get_workers (snapshot),
                           sluice_snapshot_get_in_flight (snapshot));
      names = sluice_snapshot_get_outcome_names (snapshot);
      for (guint i = 0; names[i] != NULL; i++)
        g_variant_builder_add (&outcomes, "{su}", names[i], sluice_snapshot_get_outcome_count (snapshot, names[i]));
      g_variant_builder_add (&builder, "{sv}", "outcomes", g_variant_builder_end (&outcomes));
      add_durations (&builder,
                     sluice_snapshot_get_n_durations (snapshot),
                     sluice_snapshot_get_duration_mean (snapshot),
                     sluice_snapshot_get_duration_p50 (snapshot),
                     sluice_snapshot_get_duration_p95 (snapshot),
                     sluice_snapshot_get_duration_max (snapshot));
    }
  else
    {
      add_snapshot_counts (&builder, sluice_clock_now (sluice_pool_get_clock (pool)), 0.0,
                           0, (guint) pool->queue_size, 0, (guint) pool->workers, 0);
      g_variant_builder_add (&builder, "{sv}", "outcomes", g_variant_builder_end (&outcomes));
      add_durations (&builder, 0, 0, 0, 0, 0);
    }

  return g_variant_ref_sink (g_variant_builder_end (&builder));
}

static const char *
program_name (void)
{
  const char *name = g_get_prgname ();

  return name != NULL ? name : "";
}

/* SluicePool:labels, key=value each, as the a{ss} of Labels; an entry
 * without '=' is a key with an empty value. */
static GVariant *
labels_to_variant (SluicePool *pool)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  for (guint i = 0; pool->labels != NULL && pool->labels[i] != NULL; i++)
    {
      const char *equals = strchr (pool->labels[i], '=');
      g_autofree char *key = equals != NULL ? g_strndup (pool->labels[i], (gsize) (equals - pool->labels[i]))
                                            : g_strdup (pool->labels[i]);

      g_variant_builder_add (&builder, "{ss}", key, equals != NULL ? equals + 1 : "");
    }
  return g_variant_builder_end (&builder);
}

static GVariant *
get_property (GDBusConnection  *connection,
              const char       *sender,
              const char       *object_path,
              const char       *interface_name,
              const char       *property_name,
              GError          **error,
              gpointer          user_data)
{
  SluiceMonitor *self = user_data;

  if (self->pool == NULL)
    {
      g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT, "%s is no longer exported", object_path);
      return NULL;
    }

  if (g_str_equal (property_name, "Title"))
    return g_variant_new_string (sluice_pool_get_title (self->pool));
  if (g_str_equal (property_name, "Program"))
    return g_variant_new_string (program_name ());
  if (g_str_equal (property_name, "Labels"))
    return labels_to_variant (self->pool);
  if (g_str_equal (property_name, "Control"))
    return g_variant_new_boolean ((self->flags & SLUICE_EXPORT_ALLOW_CONTROL) != 0);
  if (g_str_equal (property_name, "Config"))
    return config_to_variant (self->pool);
  if (g_str_equal (property_name, "State"))
    return g_variant_new_string (_sluice_pool_get_state_nick (self->pool));
  if (g_str_equal (property_name, "Snapshot"))
    return snapshot_to_variant (self);

  /* GDBus only lets through the properties of the interface. */
  g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_PROPERTY, "no property %s", property_name);
  return NULL;
}

/* }}} */
/* Emissions {{{ */

/* A job of the export's thread with copies of the events from @from to @to
 * (not included). */
static SluiceMonitorJob *
job_new (SluiceMonitor *self,
         guint64        from,
         guint64        to)
{
  return _sluice_monitor_job_new (self->connection, self->object_path, &self->ring, from, to);
}

static void
note_state (SluiceMonitor *self)
{
  const char *state = _sluice_pool_get_state_nick (self->pool);

  if (state != self->state && !g_str_equal (state, self->state))
    {
      self->state = state;
      self->state_dirty = TRUE;
    }
}

static gboolean
events_pending (SluiceMonitor *self)
{
  return self->n_subscribers > 0 && self->ring.next_seq > self->batch_from;
}

static void
count_subscribers (SluiceMonitor *self)
{
  self->n_subscribers = g_hash_table_size (self->subscribers);
}

/* The next batch: at most SLUICE_MONITOR_BATCH_MAX of the events no signal
 * carried yet. Those the ring dropped before their turn are skipped:
 * first_seq tells the monitors. */
static SluiceMonitorJob *
take_batch (SluiceMonitor *self)
{
  guint64 from = MAX (self->batch_from, self->ring.first_seq);
  guint64 to = MIN (self->ring.next_seq, from + SLUICE_MONITOR_BATCH_MAX);

  self->n_skipped += from - self->batch_from;
  self->batch_from = to;
  self->n_batches++;
  return job_new (self, from, to);
}

/* Every event no signal carried yet, in as many batches as that takes (at
 * most the ring): all but the last are pushed to the thread; the last is
 * given back, to be completed and pushed, or NULL if none waited. */
static SluiceMonitorJob *
take_all_batches (SluiceMonitor *self)
{
  SluiceMonitorJob *job = NULL;

  while (events_pending (self))
    {
      if (job != NULL)
        _sluice_monitor_job_push (job);
      job = take_batch (self);
    }
  return job;
}

/* What changed of Title and State, and the Snapshot with it, as the body
 * of a PropertiesChanged. */
static GVariant *
take_properties_changed (SluiceMonitor *self)
{
  const char * const invalidated[] = { NULL };
  g_autoptr(GVariant) snapshot = snapshot_to_variant (self);
  GVariantBuilder changed;

  g_variant_builder_init (&changed, G_VARIANT_TYPE_VARDICT);
  if (self->title_dirty)
    g_variant_builder_add (&changed, "{sv}", "Title", g_variant_new_string (sluice_pool_get_title (self->pool)));
  if (self->state_dirty)
    g_variant_builder_add (&changed, "{sv}", "State", g_variant_new_string (self->state));
  g_variant_builder_add (&changed, "{sv}", "Snapshot", snapshot);
  self->title_dirty = FALSE;
  self->state_dirty = FALSE;

  return g_variant_ref_sink (g_variant_new ("(sa{sv}^as)", SLUICE_MONITOR_INTERFACE, &changed, invalidated));
}

static void
cancel_timer (SluiceMonitor *self)
{
  if (self->batch_timer != NULL)
    {
      g_source_destroy (self->batch_timer);
      g_clear_pointer (&self->batch_timer, g_source_unref);
    }
}

static gboolean
on_batch_timer (gpointer user_data)
{
  SluiceMonitor *self = user_data;

  g_clear_pointer (&self->batch_timer, g_source_unref);
  flush (self);
  return G_SOURCE_REMOVE;
}

static void
on_flushed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SluiceMonitor) self = user_data;

  /* An error is a closed connection or an unexport: either way nothing
   * more is sent. */
  g_dbus_connection_flush_finish (G_DBUS_CONNECTION (source), result, NULL);
  self->flushing = FALSE;
  if (self->held_back)
    self->n_held_back++;
  self->held_back = FALSE;

  if (self->pool != NULL)
    schedule (self);
}

/* Back on the monitor's context: the job has handed its messages to the
 * connection; the next waits until they are written out, and until the
 * thread has rested SLUICE_MONITOR_REST_FACTOR times as long as the job
 * took. However fast events come, making messages of them then takes at
 * most a share of a processor (with the bus and the monitors, which read
 * what it writes, a few times that): a monitor that cannot keep up is
 * told what it lost rather than slowing the pool down. */
static gboolean
on_batch_sent (gpointer user_data)
{
  SluiceMonitorJob *job = user_data;
  SluiceMonitor *self = SLUICE_MONITOR (job->owner);

  self->next_emission_at = g_get_monotonic_time () + job->cost * SLUICE_MONITOR_REST_FACTOR;
  if (self->pool != NULL)
    g_dbus_connection_flush (self->connection, self->cancellable, on_flushed, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* Sends what waits: a batch of events for the subscribers, then the
 * properties that changed (Snapshot with every batch). Then nothing more
 * until the connection has written it out: the bus or a monitor that does
 * not keep up makes the batches wait and merge in the ring, never pile up
 * as messages. Once the run has ended, each batch goes as soon as the one
 * before is written out, with no timer and no rest, until none waits: a
 * program may exit soon after its run's end. */
static void
flush (SluiceMonitor *self)
{
  SluiceMonitorJob *job;

  cancel_timer (self);
  if (self->pool == NULL || self->flushing || g_dbus_connection_is_closed (self->connection))
    return;

  note_state (self);
  job = events_pending (self) ? take_batch (self) : NULL;
  if (!events_pending (self))
    self->urgent = FALSE;
  if (job == NULL && (self->state_dirty || self->title_dirty))
    job = job_new (self, 0, 0);
  if (job == NULL)
    return;

  job->properties = take_properties_changed (self);
  _sluice_monitor_job_set_sent (job, self->context, on_batch_sent, self);
  self->flushing = TRUE;
  _sluice_monitor_job_push (job);
}

/* A full batch goes as soon as the thread has rested; anything else
 * within SLUICE_MONITOR_BATCH_MS. */
static void
schedule (SluiceMonitor *self)
{
  gboolean pending = events_pending (self);
  gboolean full;
  gint64 now;
  gint64 due;

  if (!pending && !self->state_dirty && !self->title_dirty)
    return;

  if (self->flushing)
    {
      self->held_back |= pending;
      return;
    }

  /* The run's end waits for no timer, nor for the thread's rest; only
   * for the batch before it to be written out, as any batch does. */
  if (self->urgent)
    {
      flush (self);
      return;
    }

  /* An armed timer is soon enough, unless a full batch may go sooner:
   * then it is moved once (no clock read for every event). */
  full = pending && self->ring.next_seq - MAX (self->batch_from, self->ring.first_seq) >= SLUICE_MONITOR_BATCH_MAX;
  if (self->batch_timer != NULL && (!full || self->timer_due <= self->next_emission_at))
    return;

  now = g_get_monotonic_time ();
  due = full ? self->next_emission_at
             : MAX (now + SLUICE_MONITOR_BATCH_MS * 1000, self->next_emission_at);
  if (due <= now)
    {
      flush (self);
      return;
    }

  cancel_timer (self);
  self->timer_due = due;
  self->batch_timer = g_timeout_source_new ((guint) ((due - now + 999) / 1000));
  g_source_set_static_name (self->batch_timer, "[sluice] monitor batch");
  g_source_set_callback (self->batch_timer, on_batch_timer, self, NULL);
  g_source_attach (self->batch_timer, self->context);
}

/* The pool's second listener: every event of the run, on its context. */
static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  SluiceMonitor *self = user_data;

  _sluice_event_ring_push (&self->ring, event);
  note_state (self);
  if (event->kind == SLUICE_EVENT_RUN_END)
    {
      g_clear_pointer (&self->final_snapshot, g_variant_unref);
      self->final_snapshot = snapshot_to_variant (self);
    }
  if (event->kind == SLUICE_EVENT_RUN_END || (self->state_dirty && g_str_equal (self->state, "ended")))
    self->urgent = TRUE;

  if (self->state_dirty || self->n_subscribers > 0)
    schedule (self);
}

/* }}} */
/* Methods {{{ */

static void
on_reply_flushed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(SluiceMonitor) self = user_data;
  gint64 cost = self->reply_cost;

  /* An error is a closed connection or an unexport: either way the
   * reply is as far as it will go. */
  g_dbus_connection_flush_finish (G_DBUS_CONNECTION (source), result, NULL);
  _sluice_monitor_requests_answered (self->requests, cost);
}

/* Back on the monitor's context: the reply is handed to the connection.
 * Its events are kept for a next call that asks for the same; the next
 * call is answered once the reply is written out, so that replies never
 * pile up in the connection's buffer. */
static gboolean
on_reply_sent (gpointer user_data)
{
  SluiceMonitorJob *job = user_data;
  SluiceMonitor *self = SLUICE_MONITOR (job->owner);

  if (self->pool != NULL)
    {
      g_clear_pointer (&self->last_reply, g_variant_unref);
      self->last_reply = g_steal_pointer (&job->array);
      self->last_reply_from = job->from;
    }
  self->reply_cost = job->cost;
  g_dbus_connection_flush (self->connection, self->cancellable, on_reply_flushed, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* The last reply's events, if they are those from @from to @to. */
static GVariant *
reuse_reply (SluiceMonitor *self,
             guint64        from,
             guint64        to)
{
  if (self->last_reply == NULL || self->last_reply_from != from ||
      g_variant_n_children (self->last_reply) != to - from)
    return NULL;
  return g_variant_ref (self->last_reply);
}

/* A GetEvents call's turn (SluiceMonitorRequests): the events the ring
 * holds from @from on, now, at most SLUICE_MONITOR_REPLY_MAX of them. The
 * reply is made where the batches are. */
static void
answer (GDBusMethodInvocation *invocation,
        guint64                from,
        gpointer               user_data)
{
  SluiceMonitor *self = user_data;
  guint64 lost = 0;
  guint64 to;
  GVariant *array;
  SluiceMonitorJob *job;

  if (from < self->ring.first_seq)
    {
      lost = self->ring.first_seq - from;
      from = self->ring.first_seq;
    }
  to = MIN (self->ring.next_seq, from + SLUICE_MONITOR_REPLY_MAX);

  array = reuse_reply (self, from, to);
  job = array != NULL ? job_new (self, from, from) : job_new (self, from, to);
  job->array = array;
  job->lost = lost;
  job->invocation = invocation;
  _sluice_monitor_job_set_sent (job, self->context, on_reply_sent, self);
  _sluice_monitor_job_push (job);
}

/* Checked at once; answered in its turn, or refused when too many wait. */
static void
get_events (SluiceMonitor         *self,
            GVariant              *parameters,
            GDBusMethodInvocation *invocation)
{
  guint64 from;

  g_variant_get (parameters, "(t)", &from);
  if (from > self->ring.next_seq)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "from_seq %" G_GUINT64_FORMAT " is past the newest event: "
                                             "the next event is %" G_GUINT64_FORMAT,
                                             from, self->ring.next_seq);
      return;
    }

  /* The queue takes the invocation over, as the handler was given it. */
  _sluice_monitor_requests_add (self->requests, invocation, from);
}

typedef struct
{
  SluiceMonitor *monitor;
  char          *name;
} Watch;

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_object_unref (watch->monitor);
  g_free (watch->name);
  g_free (watch);
}

static void
on_subscriber_vanished (GDBusConnection *connection,
                        const char      *name,
                        gpointer         user_data)
{
  Watch *watch = user_data;

  g_hash_table_remove (watch->monitor->subscribers, watch->name);
  count_subscribers (watch->monitor);
}

static void
unwatch (gpointer data)
{
  guint id = GPOINTER_TO_UINT (data);

  if (id != 0)
    g_bus_unwatch_name (id);
}

/* A peer on a bus is known by its unique name; the one peer of a
 * peer-to-peer connection has none, and leaves with the connection. */
static void
subscribe (SluiceMonitor *self,
           const char    *sender)
{
  const char *key = sender != NULL ? sender : "";
  guint id = 0;

  if (g_hash_table_contains (self->subscribers, key))
    return;

  /* Signals carry the events from now on; those before are GetEvents's. */
  if (self->n_subscribers == 0)
    self->batch_from = self->ring.next_seq;

  if (sender != NULL)
    {
      Watch *watch = g_new0 (Watch, 1);

      watch->monitor = g_object_ref (self);
      watch->name = g_strdup (sender);
      id = g_bus_watch_name_on_connection (self->connection, sender, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                           NULL, on_subscriber_vanished, watch, watch_free);
    }
  g_hash_table_insert (self->subscribers, g_strdup (key), GUINT_TO_POINTER (id));
  count_subscribers (self);
}

static void
method_call (GDBusConnection       *connection,
             const char            *sender,
             const char            *object_path,
             const char            *interface_name,
             const char            *method_name,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation,
             gpointer               user_data)
{
  SluiceMonitor *self = user_data;
  g_autoptr(SluicePool) hold = NULL;

  /* GDBus has checked the method and its signature against the
   * interface: what comes here is well-formed. */
  if (self->pool == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT,
                                             "%s is no longer exported", object_path);
      return;
    }
  hold = g_object_ref (self->pool);

  if (g_str_equal (method_name, "GetEvents"))
    get_events (self, parameters, invocation);
  else if (g_str_equal (method_name, "Subscribe"))
    {
      subscribe (self, sender);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "Unsubscribe"))
    {
      g_hash_table_remove (self->subscribers, sender != NULL ? sender : "");
      count_subscribers (self);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "RequestStop"))
    {
      if (!(self->flags & SLUICE_EXPORT_ALLOW_CONTROL))
        {
          g_dbus_method_invocation_return_error_literal (invocation, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                                                         "the pool is exported read-only: RequestStop is not allowed");
          return;
        }
      sluice_pool_request_stop (self->pool);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD,
                                           "no method %s", method_name);
}

static const GDBusInterfaceVTable vtable = {
  .method_call = method_call,
  .get_property = get_property,
};

/* }}} */
/* GObject {{{ */

static void
_sluice_monitor_finalize (GObject *object)
{
  SluiceMonitor *self = SLUICE_MONITOR (object);

  g_assert (self->pool == NULL);

  g_clear_pointer (&self->gate, _sluice_monitor_gate_close);
  _sluice_event_ring_clear (&self->ring);
  g_clear_pointer (&self->requests, _sluice_monitor_requests_free);
  g_clear_pointer (&self->last_reply, g_variant_unref);
  g_clear_pointer (&self->subscribers, g_hash_table_unref);
  g_clear_pointer (&self->final_snapshot, g_variant_unref);
  g_clear_pointer (&self->object_path, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (_sluice_monitor_parent_class)->finalize (object);
}

static void
_sluice_monitor_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SluiceMonitor *self = SLUICE_MONITOR (object);

  switch (prop_id)
    {
    case PROP_EVENT_CAPACITY:
      g_value_set_uint (value, self->ring.capacity);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
_sluice_monitor_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SluiceMonitor *self = SLUICE_MONITOR (object);

  switch (prop_id)
    {
    case PROP_EVENT_CAPACITY:
      self->ring.capacity = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
_sluice_monitor_class_init (SluiceMonitorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = _sluice_monitor_finalize;
  object_class->get_property = _sluice_monitor_get_property;
  object_class->set_property = _sluice_monitor_set_property;

  /* How many events the ring holds (the pool's SluicePool:event-capacity). */
  properties[PROP_EVENT_CAPACITY] =
    g_param_spec_uint ("event-capacity", NULL, NULL, 1, SLUICE_POOL_MAX_EVENT_CAPACITY,
                       SLUICE_POOL_DEFAULT_EVENT_CAPACITY,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
_sluice_monitor_init (SluiceMonitor *self)
{
  self->subscribers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unwatch);
  self->cancellable = g_cancellable_new ();
  self->ring.capacity = SLUICE_POOL_DEFAULT_EVENT_CAPACITY;
}

/* }}} */
/* Private API {{{ */

SluiceMonitor *
_sluice_monitor_new (SluicePool         *pool,
                     GDBusConnection    *connection,
                     SluiceExportFlags   flags,
                     GError            **error)
{
  g_autoptr(SluiceMonitor) self = NULL;

  if (g_dbus_connection_is_closed (connection))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, "the D-Bus connection is closed");
      return NULL;
    }

  self = g_object_new (SLUICE_TYPE_MONITOR, "event-capacity", pool->event_capacity, NULL);
  self->connection = g_object_ref (connection);
  self->context = g_main_context_ref_thread_default ();
  self->requests = _sluice_monitor_requests_new (self->context, answer, self);
  self->flags = flags;
  self->object_path = g_strdup_printf (SLUICE_MONITOR_OBJECT_PATH_PREFIX "%d",
                                       g_atomic_int_add (&last_pool_number, 1) + 1);
  self->registration_id = g_dbus_connection_register_object (connection, self->object_path,
                                                             _sluice_monitor_get_interface_info (),
                                                             &vtable, g_object_ref (self), g_object_unref,
                                                             error);
  /* The path is this process's own and new: registering fails only if
   * the program took it itself. (Whether GDBus then frees the reference
   * it was given depends on the GLib version: at worst one is leaked.) */
  if (self->registration_id == 0)
    return NULL;
  self->gate = _sluice_monitor_gate_new (connection, self->object_path);

  self->pool = pool;
  self->state = _sluice_pool_get_state_nick (pool);
  if (g_dbus_connection_get_unique_name (connection) != NULL)
    {
      hold_bus_name (connection);
      self->holds_name = TRUE;
    }
  _sluice_pool_set_monitor_func (pool, on_event, self);

  return g_steal_pointer (&self);
}

/* Withdraws the export. What the subscribers were not sent yet goes
 * first, however many batches that takes (at most the ring), with the
 * properties that changed; then the export waits until the thread has
 * handed it all to the connection and the connection has written it out,
 * at most SLUICE_MONITOR_FAREWELL_WAIT_US: a program that ends its run
 * and exits has its last events seen. The bus name goes after them, so
 * that a monitor sees them before it sees the name leave. */
void
_sluice_monitor_unexport (SluiceMonitor *self)
{
  SluiceMonitorFarewell *farewell = NULL;

  if (self->pool == NULL)
    return;

  cancel_timer (self);
  if (!g_dbus_connection_is_closed (self->connection))
    {
      SluiceMonitorJob *job;

      note_state (self);
      job = take_all_batches (self);
      if (job == NULL && (self->state_dirty || self->title_dirty))
        job = job_new (self, 0, 0);
      if (job != NULL)
        job->properties = take_properties_changed (self);
      /* A batch still in flight is waited for as well: the thread takes
       * the jobs in order. */
      else if (self->flushing)
        job = job_new (self, 0, 0);
      if (job != NULL)
        {
          farewell = _sluice_monitor_farewell_new (self->connection);
          job->farewell = _sluice_monitor_farewell_acquire (farewell);
          _sluice_monitor_job_push (job);
        }
    }

  g_dbus_connection_unregister_object (self->connection, self->registration_id);
  self->registration_id = 0;
  g_clear_pointer (&self->gate, _sluice_monitor_gate_close);
  _sluice_pool_set_monitor_func (self->pool, NULL, NULL);
  self->pool = NULL;

  g_cancellable_cancel (self->cancellable);
  g_hash_table_remove_all (self->subscribers);
  count_subscribers (self);
  _sluice_monitor_requests_refuse_all (self->requests, self->object_path);
  g_clear_pointer (&self->last_reply, g_variant_unref);
  _sluice_event_ring_clear (&self->ring);

  if (farewell != NULL)
    {
      if (!_sluice_monitor_farewell_wait (farewell, SLUICE_MONITOR_FAREWELL_WAIT_US))
        g_debug ("sluice: %s: the last events were not written out within %d ms; unexported all the same",
                 self->object_path, (int) (SLUICE_MONITOR_FAREWELL_WAIT_US / 1000));
      _sluice_monitor_farewell_release (farewell);
    }

  if (self->holds_name)
    release_bus_name (self->connection);
  self->holds_name = FALSE;
}

const char *
_sluice_monitor_get_object_path (SluiceMonitor *self)
{
  return self->object_path;
}

void
_sluice_monitor_title_changed (SluiceMonitor *self)
{
  if (self->pool == NULL)
    return;

  self->title_dirty = TRUE;
  schedule (self);
}

void
_sluice_monitor_get_stats (SluiceMonitor      *self,
                           SluiceMonitorStats *stats)
{
  SluiceMonitorRequestsStats requests;

  stats->first_seq = self->ring.first_seq;
  stats->next_seq = self->ring.next_seq;
  stats->n_held = (guint) (self->ring.next_seq - self->ring.first_seq);
  stats->n_allocated = self->ring.n_allocated;
  stats->n_subscribers = self->n_subscribers;
  stats->n_batches = self->n_batches;
  stats->n_skipped = self->n_skipped;
  stats->n_held_back = self->n_held_back;
  stats->batch_from = self->batch_from;
  stats->flushing = self->flushing;
  stats->urgent = self->urgent;
  stats->timer_armed = self->batch_timer != NULL;
  _sluice_monitor_requests_get_stats (self->requests, &requests);
  stats->n_calls_waiting = requests.n_waiting;
  stats->n_calls_answered = requests.n_answered;
  stats->n_calls_refused = requests.n_refused;
  stats->n_calls_gated = self->gate != NULL ? _sluice_monitor_gate_get_n_refused (self->gate) : 0;
}

/* SLUICE_MONITOR, read once per process: `session` or `session,control`.
 * The export gets a connection of its own to the session bus, not the
 * process's shared one: it must not change how that one behaves (it
 * would exit the program when the bus goes away). */
static GDBusConnection *
environment_connection (SluiceExportFlags *flags)
{
  static gsize once = 0;
  static GDBusConnection *connection = NULL;
  static SluiceExportFlags environment_flags;

  if (g_once_init_enter (&once))
    {
      const char *value = g_getenv ("SLUICE_MONITOR");
      gboolean wanted = FALSE;

      if (g_strcmp0 (value, "session") == 0)
        wanted = TRUE;
      else if (g_strcmp0 (value, "session,control") == 0)
        {
          wanted = TRUE;
          environment_flags = SLUICE_EXPORT_ALLOW_CONTROL;
        }
      else if (value != NULL && *value != '\0')
        g_warning ("SLUICE_MONITOR=%s is not understood: expected SLUICE_MONITOR=session (export "
                   "every pool on the session bus, read-only) or SLUICE_MONITOR=session,control "
                   "(and allow RequestStop); no pool is exported", value);

      if (wanted)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);

          if (address != NULL)
            connection = g_dbus_connection_new_for_address_sync (address,
                                                                 G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                                 G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                                 NULL, NULL, &error);
          if (connection == NULL)
            g_warning ("SLUICE_MONITOR=%s: no pool is exported: cannot connect to the session bus: %s",
                       value, error->message);
        }

      g_once_init_leave (&once, 1);
    }

  *flags = environment_flags;
  return connection;
}

void
_sluice_monitor_export_from_environment (SluicePool *pool)
{
  g_autoptr(GError) error = NULL;
  SluiceExportFlags flags;
  GDBusConnection *connection = environment_connection (&flags);

  if (connection == NULL || pool->monitor != NULL)
    return;

  if (!sluice_pool_export (pool, connection, flags, &error))
    g_warning ("SLUICE_MONITOR: cannot export a pool: %s", error->message);
}

/* }}} */
/* Public API {{{ */

/**
 * sluice_pool_export:
 * @pool: a #SluicePool
 * @connection: where to export it: the session bus, or a peer-to-peer
 *   connection
 * @flags: what monitors may do; %SLUICE_EXPORT_READ_ONLY to only watch
 * @error: return location for an error
 *
 * Publishes @pool and its run on @connection, for monitors in other
 * processes: the object `/io/github/sluicepool/Sluice/Pool/<N>` with the
 * interface `io.github.sluicepool.Sluice.Pool1`, and on a message bus the
 * process's name `io.github.sluicepool.Sluice.Pool.p<PID>`. From now on
 * the pool keeps its latest events (#SluicePool:event-capacity of them)
 * for `GetEvents` and the `Events` signal, beside the function of
 * sluice_pool_set_event_func(), which still gets every event.
 *
 * Call it in the thread whose thread-default main context runs the pool;
 * the export never blocks that main loop while the pool is exported. With
 * `SLUICE_MONITOR=session` in the environment every pool is exported on
 * the session bus when it is made, without this call.
 *
 * Unexport the pool, or drop the last reference to it, before the program
 * exits: that sends the events its monitors were not sent yet and waits
 * (at most 1 s) until they are written out. A program that exits with the
 * pool still exported, returning from main() without unreferencing it,
 * may lose the last events of its run, the run's end among them.
 *
 * Returns: %TRUE if the pool is exported; %FALSE with @error set if it was
 *   already (%G_IO_ERROR_EXISTS), or @connection is closed
 *
 * Since: 1.0
 */
gboolean
sluice_pool_export (SluicePool         *pool,
                    GDBusConnection    *connection,
                    SluiceExportFlags   flags,
                    GError            **error)
{
  SluiceMonitor *monitor;

  g_return_val_if_fail (SLUICE_IS_POOL (pool), FALSE);
  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (pool->monitor != NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "the pool is already exported at %s",
                   pool->monitor->object_path);
      return FALSE;
    }

  monitor = _sluice_monitor_new (pool, connection, flags, error);
  if (monitor == NULL)
    return FALSE;

  pool->monitor = monitor;
  return TRUE;
}

/**
 * sluice_pool_unexport:
 * @pool: a #SluicePool
 *
 * Withdraws the export of @pool, if any: the events not yet sent to the
 * subscribed monitors go first, then the object goes, and with the
 * process's last export its bus name. A pool unexports itself when it is
 * finalized.
 *
 * When something was still to be sent, this waits until it is written to
 * the connection (g_dbus_connection_flush()), at most 1 s: a monitor that
 * does not read, on a peer-to-peer connection, delays the call by no
 * more. The pool's main loop does not turn meanwhile.
 *
 * Since: 1.0
 */
void
sluice_pool_unexport (SluicePool *pool)
{
  g_return_if_fail (SLUICE_IS_POOL (pool));

  if (pool->monitor == NULL)
    return;

  _sluice_monitor_unexport (pool->monitor);
  g_clear_object (&pool->monitor);
}

/**
 * sluice_pool_get_object_path:
 * @pool: a #SluicePool
 *
 * Gives where @pool is exported, such as `/io/github/sluicepool/Sluice/Pool/1`.
 *
 * Returns: (transfer none) (nullable): the object path, or %NULL when the
 *   pool is not exported
 *
 * Since: 1.0
 */
const char *
sluice_pool_get_object_path (SluicePool *pool)
{
  g_return_val_if_fail (SLUICE_IS_POOL (pool), NULL);

  return pool->monitor != NULL ? pool->monitor->object_path : NULL;
}

/* }}} */
