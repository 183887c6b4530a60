/* sluice-store-source-release.c: SluiceStoreSource's claims that no attempt
 * ran, handed back to the store, and the source's close
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A worker that stops holds claims it will never run: the one that comes
 * back for a read the stop cancelled, the item the pool's producer held
 * when the stop came, the claims still queued in the pool's input at the
 * shutdown deadline or at a cancel. Left to their leases, those jobs would
 * wait a whole lease for nobody; handed back with release, another worker
 * claims them at once, and their attempts are not counted since none ran.
 * A claim whose attempt started is never handed back: the attempt may have
 * done its work, and its end is the handler's (finding 03: a shutdown's
 * cancel leaves the job to its lease).
 *
 * The counts add up: every claim the store gave the source is, in the
 * end, one of the handler's outcomes (its attempt started), released, or
 * a release that failed (left to its lease).
 */

#include "sluice-store-source-private.h"

#include <glib/gi18n-lib.h>

typedef struct {
  SluiceStoreSource *self;
  SluiceJobClaim    *claim;
} Release;

static void
on_claim_released (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Release *r = user_data;
  SluiceStoreSource *self = r->self;
  g_autoptr(GError) error = NULL;

  if (sluice_job_store_release_finish (self->store, result, &error))
    self->n_released++;
  else
    {
      /* Refused (its lease had expired and gone to another claim) or not
       * reached: either way the job is left to its lease. */
      self->n_release_failed++;
      g_debug ("The claim of job %s attempt %u was not handed back: %s", r->claim->job->id,
               r->claim->job->attempts, error->message);
    }
  sluice_job_claim_free (r->claim);
  g_free (r);
  _sluice_store_source_end_call (self);
  g_object_unref (self);
}

void
_sluice_store_source_release_claim (SluiceStoreSource *self,
                                    SluiceJobClaim    *claim)
{
  Release *r = g_new0 (Release, 1);

  r->self = g_object_ref (self);
  r->claim = claim;
  _sluice_store_source_begin_call (self);
  sluice_job_store_release_async (self->store, claim, sluice_store_source_now (self), NULL,
                                  on_claim_released, r);
}

void
_sluice_store_source_claim_started (SluiceStoreSource    *self,
                                    const SluiceJobClaim *claim)
{
  g_hash_table_add (self->running, _sluice_store_source_claim_key (claim->job->id, claim->job->attempts));
}

/* Takes the claim @key names out of the table and hands it back, unless
 * an attempt of it started. */
static gboolean
release_unstarted (SluiceStoreSource *self,
                   const char        *key)
{
  gpointer stolen_key = NULL;
  gpointer claim = NULL;

  if (g_hash_table_contains (self->running, key) ||
      !g_hash_table_steal_extended (self->claims, key, &stolen_key, &claim))
    return FALSE;
  g_free (stolen_key);
  _sluice_store_source_release_claim (self, claim);
  _sluice_store_source_room_freed (self);
  return TRUE;
}

/**
 * sluice_store_source_item_dropped:
 * @self: a #SluiceStoreSource
 * @item: an item of the source that the pool dropped: it was pulled but
 *   never handled (%SLUICE_EVENT_ITEM_DROPPED's value)
 *
 * Hands the claim @item carries back to the store at once (release), so
 * that another worker may claim the job without waiting for its lease. A
 * pool's owner calls it from the pool's event function; what is left when
 * the run has ended, sluice_store_source_close_async() hands back. An item
 * that is no unfinished claim of the source, or whose attempt started,
 * changes nothing.
 */
void
sluice_store_source_item_dropped (SluiceStoreSource *self,
                                  GVariant          *item)
{
  g_autofree char *key = NULL;
  const char *job_id;
  guint attempt;

  g_return_if_fail (SLUICE_IS_STORE_SOURCE (self));
  g_return_if_fail (item != NULL);

  if (!g_variant_is_of_type (item, SLUICE_STORE_ITEM_TYPE))
    return;
  g_variant_get (item, "(&s&su&s)", &job_id, NULL, &attempt, NULL);
  key = _sluice_store_source_claim_key (job_id, attempt);
  release_unstarted (self, key);
}

/* Every call has come back: the close is done. From an idle, never from
 * inside the callback of the call that was last. */
static gboolean
return_close (gpointer user_data)
{
  SluiceStoreSource *self = user_data;
  g_autoptr(GTask) task = g_steal_pointer (&self->close);

  if (task != NULL)
    g_task_return_boolean (task, TRUE);
  return G_SOURCE_REMOVE;
}

void
_sluice_store_source_maybe_closed (SluiceStoreSource *self)
{
  g_autoptr(GSource) idle = NULL;

  if (self->close == NULL || self->n_calls > 0 || self->n_background > 0)
    return;
  idle = g_idle_source_new ();
  g_source_set_callback (idle, return_close, g_object_ref (self), g_object_unref);
  g_source_set_static_name (idle, "[sluice] store source closed");
  g_source_attach (idle, g_task_get_context (self->close));
}

/**
 * sluice_store_source_close_async:
 * @self: a #SluiceStoreSource
 * @cancellable: (nullable): not used: the close always waits for the
 *   store's answers, which are bounded by the store's own timeouts
 * @callback: called once every store call of the source and of its
 *   handler has come back
 * @user_data: data for @callback
 *
 * Ends the source after the pool's run has ended: it hands back every
 * claim it still holds whose attempt never started (queued in the pool
 * when the run ended), makes no more store calls (a read fails), and
 * calls @callback once every call in flight (the releases among them) has
 * come back, so that a worker may exit without leaving a claim behind
 * whose job nobody runs. Then sluice_store_source_get_n_claimed() equals
 * the attempts the handler reported plus
 * sluice_store_source_get_n_released() plus
 * sluice_store_source_get_n_release_failed().
 */
void
sluice_store_source_close_async (SluiceStoreSource   *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  GHashTableIter iter;
  gpointer key;

  g_return_if_fail (SLUICE_IS_STORE_SOURCE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_store_source_close_async);
  g_task_set_check_cancellable (task, FALSE);
  if (self->close != NULL || self->closed)
    {
      g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_PENDING,
                               _("The store source is closed already"));
      return;
    }

  _sluice_store_source_shut (self);
  /* Copies of the keys: each release takes its claim out of the table. */
  keys = g_ptr_array_new_with_free_func (g_free);
  g_hash_table_iter_init (&iter, self->claims);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_strdup (key));
  for (guint i = 0; i < keys->len; i++)
    release_unstarted (self, g_ptr_array_index (keys, i));

  self->close = g_steal_pointer (&task);
  _sluice_store_source_maybe_closed (self);
}

/**
 * sluice_store_source_close_finish:
 * @self: a #SluiceStoreSource
 * @result: the result given to the callback
 * @error: set if the source was closed already
 *
 * Returns: %TRUE once every store call has come back
 */
gboolean
sluice_store_source_close_finish (SluiceStoreSource  *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * sluice_store_source_get_n_released:
 * @self: a #SluiceStoreSource
 *
 * Returns: how many claims the source handed back to the store unrun (a
 *   stop kept them from running), whose jobs other workers claim at once
 */
guint
sluice_store_source_get_n_released (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->n_released;
}

/**
 * sluice_store_source_get_n_release_failed:
 * @self: a #SluiceStoreSource
 *
 * Returns: how many unrun claims the store did not take back (it failed,
 *   or the lease was no longer the claim's): their jobs are left to their
 *   leases
 */
guint
sluice_store_source_get_n_release_failed (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->n_release_failed;
}
