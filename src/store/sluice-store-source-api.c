/* sluice-store-source-api.c: SluiceStoreSource's public API: its
 * settings, the time it gives the store, and the claims it holds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-source-private.h"
#include <glib/gi18n-lib.h>
#include <math.h>

/* ---- public API --------------------------------------------------------- */

/**
 * sluice_store_source_new:
 * @store: the store to claim from
 * @clock: the clock of the pool the source is for
 * @tenant: the tenant whose jobs to claim
 * @owner: the worker's name, each claim's lease owner
 * @lease: the lease of a claim, in seconds
 * @poll_interval: the wait after a claim that found nothing, in seconds
 * @error: set to a %SLUICE_ERROR_INVALID_CONFIG error that names the
 *   option when one is out of range
 *
 * Returns: (transfer full) (nullable): the source, or %NULL with @error set
 */
SluiceStoreSource *
sluice_store_source_new (SluiceJobStore  *store,
                         SluiceClock     *clock,
                         const char      *tenant,
                         const char      *owner,
                         double           lease,
                         double           poll_interval,
                         GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (store), NULL);
  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);

  return g_initable_new (SLUICE_TYPE_STORE_SOURCE, NULL, error,
                         "store", store,
                         "clock", clock,
                         "tenant", tenant,
                         "owner", owner,
                         "lease", lease,
                         "poll-interval", poll_interval,
                         NULL);
}

/**
 * sluice_store_source_get_store:
 * @self: a #SluiceStoreSource
 *
 * Returns: (transfer none): the store it claims from
 */
SluiceJobStore *
sluice_store_source_get_store (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), NULL);
  return self->store;
}

/**
 * sluice_store_source_get_clock:
 * @self: a #SluiceStoreSource
 *
 * Returns: (transfer none): the pool's clock
 */
SluiceClock *
sluice_store_source_get_clock (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), NULL);
  return self->clock;
}

/**
 * sluice_store_source_get_tenant:
 * @self: a #SluiceStoreSource
 *
 * Returns: the tenant whose jobs it claims
 */
const char *
sluice_store_source_get_tenant (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), NULL);
  return self->tenant;
}

/**
 * sluice_store_source_get_owner:
 * @self: a #SluiceStoreSource
 *
 * Returns: the worker's name, its claims' lease owner
 */
const char *
sluice_store_source_get_owner (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), NULL);
  return self->owner;
}

/**
 * sluice_store_source_get_lease:
 * @self: a #SluiceStoreSource
 *
 * Returns: the lease of a claim, in seconds
 */
double
sluice_store_source_get_lease (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->lease;
}

/**
 * sluice_store_source_get_poll_interval:
 * @self: a #SluiceStoreSource
 *
 * Returns: the wait after a claim that found nothing, in seconds
 */
double
sluice_store_source_get_poll_interval (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->poll_interval;
}

/**
 * sluice_store_source_get_until_empty:
 * @self: a #SluiceStoreSource
 *
 * Returns: whether the source ends when the tenant has nothing left to do
 */
gboolean
sluice_store_source_get_until_empty (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), FALSE);
  return self->until_empty;
}

/**
 * sluice_store_source_get_store_error_timeout:
 * @self: a #SluiceStoreSource
 *
 * Returns: with until-empty, the most seconds the store may keep failing
 *   before the source gives up (#SluiceStoreSource:store-error-timeout)
 */
double
sluice_store_source_get_store_error_timeout (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->store_error_timeout;
}

/**
 * sluice_store_source_set_until_empty:
 * @self: a #SluiceStoreSource
 * @until_empty: whether to end when the tenant has nothing left to do
 *
 * Sets #SluiceStoreSource:until-empty.
 */
void
sluice_store_source_set_until_empty (SluiceStoreSource *self,
                                     gboolean           until_empty)
{
  g_return_if_fail (SLUICE_IS_STORE_SOURCE (self));

  until_empty = !!until_empty;
  if (self->until_empty == until_empty)
    return;
  self->until_empty = until_empty;
  g_object_notify (G_OBJECT (self), "until-empty");
}

/**
 * sluice_store_source_set_claim_ahead:
 * @self: a #SluiceStoreSource
 * @claim_ahead: the most unfinished claims the source may hold (its pool's
 *   lead bound, `queue-size + workers + 1`); 0 or 1: one claim per read
 *
 * Lets one round trip to the store claim several jobs: a claim asks for
 * as many as the source may still hold, keeps those the read does not
 * take for the next reads, and once they are taken the next claim goes
 * out while the jobs run. The claims held never exceed @claim_ahead.
 */
void
sluice_store_source_set_claim_ahead (SluiceStoreSource *self,
                                     guint              claim_ahead)
{
  g_return_if_fail (SLUICE_IS_STORE_SOURCE (self));
  self->claim_ahead = MAX (claim_ahead, 1);
}

/**
 * sluice_store_source_set_epoch:
 * @self: a #SluiceStoreSource
 * @epoch: the wall-clock time, µs since the Unix epoch, of the clock's
 *   time 0
 *
 * Maps a clock that is not real onto the store's wall-clock times: the
 * store's `now` is @epoch plus the clock's time. By default @epoch is the
 * wall clock when the source was made, less the clock's time then. A real
 * clock ignores it: the store's `now` is g_get_real_time().
 */
void
sluice_store_source_set_epoch (SluiceStoreSource *self,
                               gint64             epoch)
{
  g_return_if_fail (SLUICE_IS_STORE_SOURCE (self));
  self->epoch = epoch;
}

/**
 * sluice_store_source_now:
 * @self: a #SluiceStoreSource
 *
 * The time to give the store's calls: the wall clock on a real clock, the
 * epoch plus the clock's time on any other (sluice_store_source_set_epoch()).
 *
 * Returns: µs since the Unix epoch
 */
gint64
sluice_store_source_now (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);

  if (sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_REAL)
    return g_get_real_time ();
  return self->epoch + sluice_clock_now (self->clock);
}

/**
 * sluice_store_source_lookup_claim:
 * @self: a #SluiceStoreSource
 * @item: an item the source yielded (%SLUICE_STORE_ITEM_TYPE)
 *
 * Returns: (transfer none) (nullable): the claim @item carries, while it is
 *   unfinished (until sluice_store_source_forget_claim()); %NULL for an
 *   item that is no unfinished claim of the source
 */
const SluiceJobClaim *
sluice_store_source_lookup_claim (SluiceStoreSource *self,
                                  GVariant          *item)
{
  g_autofree char *key = NULL;
  const char *job_id;
  guint attempt;

  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), NULL);
  g_return_val_if_fail (item != NULL, NULL);

  if (!g_variant_is_of_type (item, SLUICE_STORE_ITEM_TYPE))
    return NULL;
  g_variant_get (item, "(&s&su&s)", &job_id, NULL, &attempt, NULL);
  key = _sluice_store_source_claim_key (job_id, attempt);
  return g_hash_table_lookup (self->claims, key);
}

/**
 * sluice_store_source_forget_claim:
 * @self: a #SluiceStoreSource
 * @claim: a claim the source yielded
 *
 * Says that @claim is finished (completed, failed, lost or left to its
 * lease): it no longer counts as unfinished. Another claim of the same job
 * stays. The handler calls it when an attempt of the claim ends.
 */
void
sluice_store_source_forget_claim (SluiceStoreSource    *self,
                                  const SluiceJobClaim *claim)
{
  g_autofree char *key = NULL;

  g_return_if_fail (SLUICE_IS_STORE_SOURCE (self));
  g_return_if_fail (claim != NULL && claim->job != NULL);

  key = _sluice_store_source_claim_key (claim->job->id, claim->job->attempts);
  g_hash_table_remove (self->claims, key);
  g_hash_table_remove (self->running, key);
  _sluice_store_source_room_freed (self);
}

/**
 * sluice_store_source_get_n_claims:
 * @self: a #SluiceStoreSource
 *
 * Returns: how many claims the source yielded that are unfinished now
 */
guint
sluice_store_source_get_n_claims (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return g_hash_table_size (self->claims);
}

/**
 * sluice_store_source_get_max_claims:
 * @self: a #SluiceStoreSource
 *
 * Returns: the most claims that were unfinished at once, which the pool's
 *   lead bound (`queue-size + workers + 1`) bounds
 */
guint
sluice_store_source_get_max_claims (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->max_claims;
}

/**
 * sluice_store_source_get_n_claimed:
 * @self: a #SluiceStoreSource
 *
 * Returns: how many claims the store gave the source so far: those it
 *   yielded, and those that came back for a read that was cancelled
 *   meanwhile (handed back at once)
 */
guint
sluice_store_source_get_n_claimed (SluiceStoreSource *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (self), 0);
  return self->n_claimed;
}
