/* sluice-monitor-job.c: the D-Bus messages of the export, made in a thread
 * of their own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Building an aa{sv} and GDBus's marshalling of it cost several
 * microseconds per event, which the pool's main loop would otherwise pay
 * for every event a monitor reads. The main loop only copies the events a
 * job takes (as the ring does), or hands over an array made before. One
 * thread for the process, so that batches, PropertiesChanged, replies and
 * the final batches of an unexport leave in the order they were made.
 */

#include "config-engine.h"

#include "sluice-monitor-job-private.h"
#include "sluice-monitor.h"

/* The farewell {{{ */

struct _SluiceMonitorFarewell
{
  GMutex           lock;
  GCond            cond;
  GDBusConnection *connection;
  gboolean         flushed;
};

static void
farewell_clear (gpointer data)
{
  SluiceMonitorFarewell *farewell = data;

  g_mutex_clear (&farewell->lock);
  g_cond_clear (&farewell->cond);
  g_clear_object (&farewell->connection);
}

SluiceMonitorFarewell *
_sluice_monitor_farewell_new (GDBusConnection *connection)
{
  SluiceMonitorFarewell *farewell = g_atomic_rc_box_new0 (SluiceMonitorFarewell);

  g_mutex_init (&farewell->lock);
  g_cond_init (&farewell->cond);
  farewell->connection = g_object_ref (connection);
  return farewell;
}

SluiceMonitorFarewell *
_sluice_monitor_farewell_acquire (SluiceMonitorFarewell *farewell)
{
  return g_atomic_rc_box_acquire (farewell);
}

void
_sluice_monitor_farewell_release (SluiceMonitorFarewell *farewell)
{
  g_atomic_rc_box_release_full (farewell, farewell_clear);
}

/* In a thread of the flushes, not the jobs': a flush waits for as long as
 * the peer does not read, and the other exports' batches must not wait
 * with it. It ends when the connection is closed at the latest. */
static void
run_flush (gpointer data,
           gpointer user_data)
{
  SluiceMonitorFarewell *farewell = data;

  /* An error is a closed connection: nothing more can be written. */
  g_dbus_connection_flush_sync (farewell->connection, NULL, NULL);
  g_mutex_lock (&farewell->lock);
  farewell->flushed = TRUE;
  g_cond_broadcast (&farewell->cond);
  g_mutex_unlock (&farewell->lock);
  _sluice_monitor_farewell_release (farewell);
}

static void
push_flush (SluiceMonitorFarewell *farewell)
{
  static GThreadPool *pool = NULL;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (run_flush, NULL, -1, FALSE, NULL));

  g_thread_pool_push (pool, farewell, NULL);
}

/* Until the farewell's flush completed, or @limit_us passed. */
gboolean
_sluice_monitor_farewell_wait (SluiceMonitorFarewell *farewell,
                               gint64                 limit_us)
{
  gint64 deadline = g_get_monotonic_time () + limit_us;
  gboolean flushed;

  g_mutex_lock (&farewell->lock);
  while (!farewell->flushed)
    if (!g_cond_wait_until (&farewell->cond, &farewell->lock, deadline))
      break;
  flushed = farewell->flushed;
  g_mutex_unlock (&farewell->lock);
  return flushed;
}

/* }}} */
/* Jobs {{{ */

static void
job_clear_events (SluiceMonitorJob *job)
{
  for (guint i = 0; i < job->n_events; i++)
    _sluice_event_clear (&job->events[i]);
  g_clear_pointer (&job->events, g_free);
  job->n_events = 0;
}

void
_sluice_monitor_job_free (SluiceMonitorJob *job)
{
  job_clear_events (job);
  g_clear_object (&job->connection);
  g_clear_object (&job->invocation);
  g_clear_object (&job->owner);
  g_clear_pointer (&job->context, g_main_context_unref);
  g_clear_pointer (&job->array, g_variant_unref);
  g_clear_pointer (&job->properties, g_variant_unref);
  g_clear_pointer (&job->farewell, _sluice_monitor_farewell_release);
  g_free (job->object_path);
  g_free (job);
}

/* A job with copies of the events of @ring from @from to @to (not
 * included). */
SluiceMonitorJob *
_sluice_monitor_job_new (GDBusConnection       *connection,
                         const char            *object_path,
                         const SluiceEventRing *ring,
                         guint64                from,
                         guint64                to)
{
  SluiceMonitorJob *job = g_new0 (SluiceMonitorJob, 1);

  job->connection = g_object_ref (connection);
  job->object_path = g_strdup (object_path);
  job->from = from;
  job->n_events = (guint) (to - from);
  job->events = _sluice_event_ring_copy (ring, from, to);
  return job;
}

void
_sluice_monitor_job_set_sent (SluiceMonitorJob *job,
                              GMainContext     *context,
                              GSourceFunc       sent,
                              gpointer          owner)
{
  job->context = g_main_context_ref (context);
  job->sent = sent;
  job->owner = g_object_ref (owner);
}

static GVariant *
make_array (SluiceMonitorJob *job)
{
  SluiceEventArray events;

  _sluice_event_array_init (&events);
  for (guint i = 0; i < job->n_events; i++)
    _sluice_event_array_add (&events, &job->events[i]);
  return g_variant_ref_sink (_sluice_event_array_end (&events));
}

static void
send_messages (SluiceMonitorJob *job)
{
  if (job->invocation != NULL)
    {
      gsize n = g_variant_n_children (job->array);

      /* The reply takes the invocation over. */
      g_dbus_method_invocation_return_value (g_steal_pointer (&job->invocation),
                                             g_variant_new ("(t@aa{sv}t)", job->from + n, job->array, job->lost));
      return;
    }

  /* A closed connection is the only failure: nobody is left to tell. */
  if (job->array != NULL)
    g_dbus_connection_emit_signal (job->connection, NULL, job->object_path,
                                   SLUICE_MONITOR_INTERFACE, "Events",
                                   g_variant_new ("(t@aa{sv})", job->from, job->array), NULL);
  if (job->properties != NULL)
    g_dbus_connection_emit_signal (job->connection, NULL, job->object_path,
                                   "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                   job->properties, NULL);
}

static void
run_job (gpointer data,
         gpointer user_data)
{
  SluiceMonitorJob *job = data;
  gint64 start = g_get_monotonic_time ();

  if (job->array == NULL && (job->n_events > 0 || job->invocation != NULL))
    job->array = make_array (job);
  job_clear_events (job);
  send_messages (job);

  /* Handed to the connection: now to see it written out. */
  if (job->farewell != NULL)
    push_flush (g_steal_pointer (&job->farewell));
  if (job->sent == NULL)
    {
      _sluice_monitor_job_free (job);
      return;
    }

  job->cost = g_get_monotonic_time () - start;
  g_main_context_invoke_full (job->context, G_PRIORITY_DEFAULT, job->sent, job,
                              (GDestroyNotify) _sluice_monitor_job_free);
}

void
_sluice_monitor_job_push (SluiceMonitorJob *job)
{
  static GThreadPool *pool = NULL;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (run_job, NULL, 1, FALSE, NULL));

  g_thread_pool_push (pool, job, NULL);
}

/* }}} */
