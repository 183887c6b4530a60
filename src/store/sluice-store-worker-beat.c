/* sluice-store-worker-beat.c: a worker's row in its store, kept alive by
 * a heartbeat (docs/store-admin.md, "Workers")
 *
 * A worker registers (id, host, pid, started at, tenants, lease) before
 * it says it is ready, then beats every interval on the real clock with
 * its counts of jobs done and failed. A worker whose last beat is older
 * than three of its leases is lost; its row stays until `store workers
 * --prune`. A beat that fails is not fatal: the next one tries again.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-worker-beat.h"

#include <unistd.h>

struct _SluiceStoreWorkerBeat
{
  SluiceJobStore    *store;
  SluiceStoreWorker  worker;
  guint              interval_ms;
  guint              timer;
  gboolean           beating;   /* a beat in flight: no second one */
  GCancellable      *cancellable;
};

/* The query of a beat now: the row with the counts so far. */
SluiceStoreAdminQuery *
sluice_store_worker_beat_query (SluiceStoreWorkerBeat *self)
{
  SluiceStoreAdminQuery *query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKER_BEAT);

  query->worker = sluice_store_worker_copy (&self->worker);
  query->now = g_get_real_time ();
  return query;
}

SluiceStoreWorkerBeat *
sluice_store_worker_beat_new (SluiceJobStore *store,
                              const char     *worker_id,
                              const char     *tenants,
                              gint64          lease_us,
                              guint           interval_ms)
{
  SluiceStoreWorkerBeat *self = g_new0 (SluiceStoreWorkerBeat, 1);

  g_return_val_if_fail (sluice_store_admin_supported (store), NULL);

  self->store = g_object_ref (store);
  self->worker.id = g_strdup (worker_id);
  self->worker.host = g_strdup (g_get_host_name ());
  self->worker.pid = (gint64) getpid ();
  self->worker.started_at = g_get_real_time ();
  self->worker.lease = lease_us;
  self->worker.tenants = g_strdup (tenants);
  self->cancellable = g_cancellable_new ();
  self->interval_ms = MAX (interval_ms, 1);
  return self;
}

typedef struct
{
  GAsyncResult *result;
} Wait;

static void
on_registered (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

/* A beat in flight: the beat, valid while the cancellable is not
 * cancelled (the free cancels it, on this thread). */
typedef struct
{
  SluiceStoreWorkerBeat *self;
  GCancellable          *cancellable;
} Beat;

static void
on_beaten (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autofree Beat *beat = user_data;
  g_autoptr(GCancellable) cancellable = beat->cancellable;
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = sluice_store_admin_finish (SLUICE_JOB_STORE (object), result, &error);
  if (g_cancellable_is_cancelled (cancellable))
    return;
  if (reply == NULL)
    g_debug ("a worker's heartbeat failed: %s", error->message);
  beat->self->beating = FALSE;
}

static gboolean
on_timer (gpointer user_data)
{
  SluiceStoreWorkerBeat *self = user_data;
  g_autoptr(SluiceStoreAdminQuery) query = NULL;
  Beat *beat;

  if (self->beating)
    return G_SOURCE_CONTINUE;
  beat = g_new0 (Beat, 1);
  beat->self = self;
  beat->cancellable = g_object_ref (self->cancellable);
  self->beating = TRUE;
  query = sluice_store_worker_beat_query (self);
  sluice_store_admin_async (self->store, query, self->cancellable, on_beaten, beat);
  return G_SOURCE_CONTINUE;
}

/* A beat, waited for (iterating the thread-default main context): the
 * row is there when the worker says it is ready. Then the timer, unless
 * it runs already. */
gboolean
sluice_store_worker_beat_register (SluiceStoreWorkerBeat  *self,
                                   GError                **error)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_worker_beat_query (self);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  Wait wait = { NULL };

  sluice_store_admin_async (self->store, query, NULL, on_registered, &wait);
  while (wait.result == NULL)
    g_main_context_iteration (g_main_context_get_thread_default (), TRUE);
  reply = sluice_store_admin_finish (self->store, wait.result, error);
  g_object_unref (wait.result);
  if (reply == NULL)
    return FALSE;
  if (self->timer == 0)
    self->timer = g_timeout_add (self->interval_ms, on_timer, self);
  return TRUE;
}

/* The first beat without waiting for it, then the timer: for a program
 * that has no "ready" to say (the store source's own registration). A
 * failed first beat is retried by the timer. */
void
sluice_store_worker_beat_start (SluiceStoreWorkerBeat *self)
{
  g_return_if_fail (self->timer == 0);

  on_timer (self);
  self->timer = g_timeout_add (self->interval_ms, on_timer, self);
}

void
sluice_store_worker_beat_count (SluiceStoreWorkerBeat *self,
                                gboolean               done)
{
  if (done)
    self->worker.done++;
  else
    self->worker.failed++;
}

/* Stops beating; a beat in flight is cancelled if it has not run (its
 * callback then touches nothing of ours). */
void
sluice_store_worker_beat_free (SluiceStoreWorkerBeat *self)
{
  if (self == NULL)
    return;
  g_clear_handle_id (&self->timer, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_object_unref (self->cancellable);
  g_object_unref (self->store);
  g_free (self->worker.id);
  g_free (self->worker.host);
  g_free (self->worker.tenants);
  g_free (self);
}
