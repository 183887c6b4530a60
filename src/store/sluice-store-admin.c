/* sluice-store-admin.c: the admin queries' types (the queries themselves
 * run through SluiceStoreBackend, once for every backend)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-admin.h"

#include <string.h>

SluiceStoreAdminQuery *
sluice_store_admin_query_new (SluiceStoreAdminOp op)
{
  SluiceStoreAdminQuery *query = g_new0 (SluiceStoreAdminQuery, 1);

  query->op = op;
  query->concurrency = -1;
  query->limit = 50;
  /* Whether a pending job is still scheduled depends on it. */
  query->now = g_get_real_time ();
  return query;
}

SluiceStoreAdminQuery *
sluice_store_admin_query_copy (const SluiceStoreAdminQuery *query)
{
  SluiceStoreAdminQuery *copy = g_memdup2 (query, sizeof *query);

  copy->tenant = g_strdup (query->tenant);
  copy->key_prefix = g_strdup (query->key_prefix);
  copy->search = g_strdup (query->search);
  copy->after = g_strdup (query->after);
  copy->ids = g_strdupv (query->ids);
  copy->worker = query->worker != NULL ? sluice_store_worker_copy (query->worker) : NULL;
  return copy;
}

void
sluice_store_admin_query_free (SluiceStoreAdminQuery *query)
{
  if (query == NULL)
    return;
  g_free (query->tenant);
  g_free (query->key_prefix);
  g_free (query->search);
  g_free (query->after);
  g_strfreev (query->ids);
  sluice_store_worker_free (query->worker);
  g_free (query);
}

SluiceStoreAdminReply *
sluice_store_admin_reply_new (void)
{
  SluiceStoreAdminReply *reply = g_new0 (SluiceStoreAdminReply, 1);

  reply->jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_stored_job_free);
  reply->attempts = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_attempt_free);
  reply->items = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_admin_item_free);
  reply->tenants = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_tenant_free);
  reply->workers = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_worker_free);
  reply->completions = g_array_new (FALSE, FALSE, sizeof (SluiceStoreCompletion));
  return reply;
}

void
sluice_store_admin_reply_free (SluiceStoreAdminReply *reply)
{
  if (reply == NULL)
    return;
  g_ptr_array_unref (reply->jobs);
  g_free (reply->next);
  g_ptr_array_unref (reply->attempts);
  g_ptr_array_unref (reply->items);
  g_ptr_array_unref (reply->tenants);
  g_ptr_array_unref (reply->workers);
  g_array_unref (reply->completions);
  g_free (reply);
}

SluiceStoreWorker *
sluice_store_worker_copy (const SluiceStoreWorker *worker)
{
  SluiceStoreWorker *copy = g_memdup2 (worker, sizeof *worker);

  copy->id = g_strdup (worker->id);
  copy->host = g_strdup (worker->host);
  copy->tenants = g_strdup (worker->tenants);
  copy->claims = worker->claims != NULL ? g_ptr_array_ref (worker->claims) : NULL;
  return copy;
}

void
sluice_store_worker_free (SluiceStoreWorker *worker)
{
  if (worker == NULL)
    return;
  g_free (worker->id);
  g_free (worker->host);
  g_free (worker->tenants);
  g_clear_pointer (&worker->claims, g_ptr_array_unref);
  g_free (worker);
}

void
sluice_store_attempt_free (SluiceStoreAttempt *attempt)
{
  if (attempt == NULL)
    return;
  g_free (attempt->worker);
  sluice_job_failure_free (attempt->error);
  g_free (attempt);
}

void
sluice_store_tenant_free (SluiceStoreTenant *tenant)
{
  if (tenant == NULL)
    return;
  g_free (tenant->name);
  g_free (tenant);
}

void
sluice_store_admin_item_free (SluiceStoreAdminItem *item)
{
  if (item == NULL)
    return;
  g_free (item->id);
  g_free (item);
}

static const char *const outcome_names[] = {
  [SLUICE_STORE_ATTEMPT_RUNNING] = "running",
  [SLUICE_STORE_ATTEMPT_SUCCEEDED] = "succeeded",
  [SLUICE_STORE_ATTEMPT_FAILED] = "failed",
  [SLUICE_STORE_ATTEMPT_TIMED_OUT] = "timed_out",
  [SLUICE_STORE_ATTEMPT_LEASE_LOST] = "lease_lost",
  [SLUICE_STORE_ATTEMPT_CANCELLED] = "cancelled",
};

const char *
sluice_store_attempt_outcome_to_string (SluiceStoreAttemptOutcome outcome)
{
  if ((guint) outcome >= G_N_ELEMENTS (outcome_names))
    return NULL;
  return outcome_names[outcome];
}

/* The outcome a store's column names; NULL (an attempt not ended) is
 * running. */
SluiceStoreAttemptOutcome
sluice_store_attempt_outcome_from_string (const char *name)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (outcome_names); i++)
    if (strcmp (name, outcome_names[i]) == 0)
      return (SluiceStoreAttemptOutcome) i;
  return SLUICE_STORE_ATTEMPT_RUNNING;
}

const char *
sluice_store_admin_change_to_string (SluiceStoreAdminChange change)
{
  switch (change)
    {
    case SLUICE_STORE_ADMIN_CHANGED: return "changed";
    case SLUICE_STORE_ADMIN_NOT_FOUND: return "not_found";
    case SLUICE_STORE_ADMIN_NOT_APPLICABLE: return "not_applicable";
    case SLUICE_STORE_ADMIN_REQUESTED: return "requested";
    default: return NULL;
    }
}
