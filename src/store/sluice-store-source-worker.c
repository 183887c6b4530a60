/* sluice-store-source-worker.c: the worker's row of a store source
 * (docs/store-admin.md, "Workers")
 *
 * Every program that works off a store through a #SluiceStoreSource is a
 * worker of the store, not only `sluice-run worker`: the source registers
 * a row (its owner as the worker's id, the host, the process, its tenant
 * and lease) at its first read, and keeps it alive with a heartbeat on the
 * real clock, a third of a lease apart (the row is lost after three
 * leases without one). A program that must have its row before it says it
 * is ready registers first, waiting, with
 * sluice_store_source_register_worker(). The source's handler counts the
 * jobs done and failed, which the next beat writes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-source-private.h"

/* The least time between two beats: a test's lease of a few milliseconds
 * does not make the store write a row hundreds of times a second. */
#define MIN_BEAT_MS 100

static SluiceStoreWorkerBeat *
new_beat (SluiceStoreSource *self,
          double             heartbeat)
{
  return sluice_store_worker_beat_new (self->store, self->owner, self->tenant, self->lease_us,
                                       (guint) MAX (heartbeat * 1000, MIN_BEAT_MS));
}

/**
 * sluice_store_source_register_worker:
 * @self: a #SluiceStoreSource
 * @heartbeat: the seconds between two beats
 * @error: set when the store could not register it
 *
 * Registers the worker's row now, waiting for the store (iterating the
 * thread-default main context), then beats every @heartbeat seconds: for
 * a program whose row must be there before it says it is ready. Without
 * it, the source registers at its first read, beating every third of its
 * lease. Nothing to do for a store that answers no admin queries.
 *
 * Returns: %TRUE when the row is registered (or there is none to have)
 */
gboolean
sluice_store_source_register_worker (SluiceStoreSource  *self,
                                     double              heartbeat,
                                     GError            **error)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), FALSE);
  g_return_val_if_fail (heartbeat > 0, FALSE);

  if (!sluice_store_admin_supported (self->store))
    return TRUE;
  /* (A first read may have started the beats already: this one is still
   * waited for.) */
  if (self->beat == NULL)
    self->beat = new_beat (self, heartbeat);
  return sluice_store_worker_beat_register (self->beat, error);
}

void
_sluice_store_source_start_worker (SluiceStoreSource *self)
{
  if (self->beat != NULL || self->closed || !sluice_store_admin_supported (self->store))
    return;
  self->beat = new_beat (self, self->lease / 3);
  sluice_store_worker_beat_start (self->beat);
}

void
_sluice_store_source_count_job (SluiceStoreSource *self,
                                gboolean           done)
{
  if (self->beat != NULL)
    sluice_store_worker_beat_count (self->beat, done);
}

static void
on_last_beat (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SluiceStoreSource) self = user_data;
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = sluice_store_admin_finish (SLUICE_JOB_STORE (object), result, &error);
  if (reply == NULL)
    g_debug ("a worker's last heartbeat failed: %s", error->message);
  _sluice_store_source_end_call (self);
}

/* The row stays (lost after three leases, until `store workers --prune`);
 * only the beats end. With @last (the source is closed), one last beat
 * writes the final counts; the close waits for it as for any call of the
 * source's. */
void
_sluice_store_source_stop_worker (SluiceStoreSource *self,
                                  gboolean           last)
{
  if (self->beat != NULL && last)
    {
      g_autoptr(SluiceStoreAdminQuery) query = sluice_store_worker_beat_query (self->beat);

      _sluice_store_source_begin_call (self);
      sluice_store_admin_async (self->store, query, NULL, on_last_beat, g_object_ref (self));
    }
  g_clear_pointer (&self->beat, sluice_store_worker_beat_free);
}
