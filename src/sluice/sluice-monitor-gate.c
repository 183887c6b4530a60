/* sluice-monitor-gate.c: how many calls an export lets through to the
 * pool's main loop, per caller and in all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GDBus reads every message in its worker thread and hands each method
 * call to the main context of the exported object: the pool's. A process
 * that calls faster than that main loop answers (any process of the user
 * may call) would make the calls queue up there without bound, and the
 * main loop answer calls instead of running the pool. A filter on the
 * connection counts the calls to the export's object as they come, in
 * the worker thread, with a token bucket per caller and one for all:
 * those past the rate get org.freedesktop.DBus.Error.LimitsExceeded from
 * there, and never reach the main loop. A monitor calls a few times a
 * second; only a flood is refused.
 */

#include "config-engine.h"

#include "sluice-monitor-gate-private.h"

typedef struct
{
  double tokens;
  gint64 at;         /* when tokens was right (monotonic µs) */
} Bucket;

/* Shared by the export and the filter (an atomic reference-counted box):
 * the filter may still run once after it was removed, and GDBus frees its
 * reference when it no longer can. Everything but the count of refusals
 * is touched in the worker thread only. */
struct _SluiceMonitorGate
{
  GDBusConnection *connection;
  char            *object_path;
  guint            filter_id;
  GHashTable      *peers;      /* unique name → Bucket */
  Bucket           total;
  gsize            n_refused;  /* atomic */
};

static void
gate_clear (gpointer data)
{
  SluiceMonitorGate *gate = data;

  g_clear_pointer (&gate->peers, g_hash_table_unref);
  g_clear_pointer (&gate->object_path, g_free);
  g_clear_object (&gate->connection);
}

static void
gate_release (gpointer data)
{
  g_atomic_rc_box_release_full (data, gate_clear);
}

/* Whether a call may go through now, taking a token if so. */
static gboolean
bucket_take (Bucket *bucket,
             gint64  now,
             double  per_s,
             double  depth)
{
  bucket->tokens = MIN (depth, bucket->tokens + (double) (now - bucket->at) * per_s / G_USEC_PER_SEC);
  bucket->at = now;
  if (bucket->tokens < 1.0)
    return FALSE;
  bucket->tokens -= 1.0;
  return TRUE;
}

static gboolean
bucket_is_full (Bucket *bucket,
                gint64  now)
{
  return bucket->tokens + (double) (now - bucket->at) * SLUICE_MONITOR_PEER_CALLS_PER_S / G_USEC_PER_SEC
         >= SLUICE_MONITOR_PEER_BURST;
}

static gboolean
forget_idle (gpointer key,
             gpointer value,
             gpointer user_data)
{
  return bucket_is_full (value, *(gint64 *) user_data);
}

/* @sender's bucket, new and full the first time; NULL when the gate
 * already remembers as many peers, all of them busy. */
static Bucket *
peer_bucket (SluiceMonitorGate *gate,
             const char        *sender,
             gint64             now)
{
  Bucket *bucket = g_hash_table_lookup (gate->peers, sender);

  if (bucket != NULL)
    return bucket;

  /* Those whose bucket has filled up again are as good as new. */
  if (g_hash_table_size (gate->peers) >= SLUICE_MONITOR_GATE_PEERS)
    g_hash_table_foreach_remove (gate->peers, forget_idle, &now);
  if (g_hash_table_size (gate->peers) >= SLUICE_MONITOR_GATE_PEERS)
    return NULL;

  bucket = g_new (Bucket, 1);
  bucket->tokens = SLUICE_MONITOR_PEER_BURST;
  bucket->at = now;
  g_hash_table_insert (gate->peers, g_strdup (sender), bucket);
  return bucket;
}

static gboolean
admit (SluiceMonitorGate *gate,
       const char        *sender)
{
  gint64 now = g_get_monotonic_time ();
  Bucket *peer = peer_bucket (gate, sender != NULL ? sender : "", now);

  /* The peer's own first: a flooder spends its own tokens, not everyone's. */
  if (peer != NULL && !bucket_take (peer, now, SLUICE_MONITOR_PEER_CALLS_PER_S, SLUICE_MONITOR_PEER_BURST))
    return FALSE;
  return bucket_take (&gate->total, now, SLUICE_MONITOR_CALLS_PER_S, SLUICE_MONITOR_BURST);
}

static void
refuse (SluiceMonitorGate *gate,
        GDBusMessage      *message)
{
  g_autoptr(GDBusMessage) reply = NULL;

  g_atomic_pointer_add (&gate->n_refused, 1);
  if (g_dbus_message_get_flags (message) & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED)
    return;
  reply = g_dbus_message_new_method_error (message, "org.freedesktop.DBus.Error.LimitsExceeded",
                                           "too many calls to %s: at most %d a second from a caller, %d "
                                           "from all; call again later",
                                           gate->object_path, SLUICE_MONITOR_PEER_CALLS_PER_S,
                                           SLUICE_MONITOR_CALLS_PER_S);
  /* A closed connection is the only failure: nobody is left to tell. */
  g_dbus_connection_send_message (gate->connection, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, NULL, NULL);
}

/* In GDBus's worker thread, for every message of the connection. */
static GDBusMessage *
filter (GDBusConnection *connection,
        GDBusMessage    *message,
        gboolean         incoming,
        gpointer         user_data)
{
  SluiceMonitorGate *gate = user_data;

  if (!incoming || g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_METHOD_CALL ||
      g_strcmp0 (g_dbus_message_get_path (message), gate->object_path) != 0 ||
      admit (gate, g_dbus_message_get_sender (message)))
    return message;

  refuse (gate, message);
  g_object_unref (message);
  return NULL;
}

/* Starts counting the calls to @object_path on @connection. */
SluiceMonitorGate *
_sluice_monitor_gate_new (GDBusConnection *connection,
                          const char      *object_path)
{
  SluiceMonitorGate *gate = g_atomic_rc_box_new0 (SluiceMonitorGate);

  gate->connection = g_object_ref (connection);
  gate->object_path = g_strdup (object_path);
  gate->peers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gate->total.tokens = SLUICE_MONITOR_BURST;
  gate->total.at = g_get_monotonic_time ();
  gate->filter_id = g_dbus_connection_add_filter (connection, filter, g_atomic_rc_box_acquire (gate),
                                                  gate_release);
  return gate;
}

/* Stops it, and lets go of @gate. */
void
_sluice_monitor_gate_close (SluiceMonitorGate *gate)
{
  g_dbus_connection_remove_filter (gate->connection, gate->filter_id);
  gate_release (gate);
}

guint64
_sluice_monitor_gate_get_n_refused (SluiceMonitorGate *gate)
{
  return (guint64) (gsize) g_atomic_pointer_get (&gate->n_refused);
}
