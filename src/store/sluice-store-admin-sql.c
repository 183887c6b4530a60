/* sluice-store-admin-sql.c: what both stores' admin queries share
 * (docs/store-admin.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-admin-sql.h"
#include "sluice-job-store.h"
#include "sluice-store-backend.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Which of @steps answers @q. */
gboolean
sluice_store_admin_answer (const SluiceStoreAdminSteps  *steps,
                           gpointer                      conn,
                           const SluiceStoreAdminQuery  *q,
                           SluiceStoreAdminReply        *reply,
                           gpointer                      data,
                           GError                      **error)
{
  SluiceStoreAdminStep step;

  switch (q->op)
    {
    case SLUICE_STORE_ADMIN_LIST_JOBS:
      step = steps->list_jobs;
      break;
    case SLUICE_STORE_ADMIN_SHOW:
      step = steps->show_job;
      break;
    case SLUICE_STORE_ADMIN_RETRY:
    case SLUICE_STORE_ADMIN_CANCEL:
    case SLUICE_STORE_ADMIN_DISCARD:
      step = q->ids != NULL ? steps->verb_by_ids : steps->verb_by_filter;
      break;
    case SLUICE_STORE_ADMIN_PAUSE:
    case SLUICE_STORE_ADMIN_RESUME:
    case SLUICE_STORE_ADMIN_LIMIT:
      step = steps->tenant_control;
      break;
    case SLUICE_STORE_ADMIN_TENANTS:
      step = steps->list_tenants;
      break;
    case SLUICE_STORE_ADMIN_WORKERS:
    case SLUICE_STORE_ADMIN_PRUNE_WORKERS:
      step = steps->list_workers;
      break;
    case SLUICE_STORE_ADMIN_WORKER_BEAT:
      step = steps->beat_worker;
      break;
    case SLUICE_STORE_ADMIN_COMPLETIONS:
      step = steps->list_completions;
      break;
    case SLUICE_STORE_ADMIN_WRITABLE:
      step = steps->writable;
      break;
    default:
      g_assert_not_reached ();
    }
  return step (conn, q, reply, data, error);
}

/* A LIKE pattern that matches @text literally (escaped with \), with
 * @prefix_only: at the start, else anywhere. */
char *
sluice_store_admin_like_pattern (const char *text,
                                 gboolean    prefix_only)
{
  GString *pattern = g_string_new (prefix_only ? "" : "%");

  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '%' || *c == '_' || *c == '\\')
        g_string_append_c (pattern, '\\');
      g_string_append_c (pattern, *c);
    }
  g_string_append_c (pattern, '%');
  return g_string_free (pattern, FALSE);
}

/* `K:V` of a search: the payload's member K is V, as text. */
gboolean
sluice_store_admin_split_field (const char  *search,
                                char       **key,
                                char       **value)
{
  const char *colon = strchr (search, ':');

  if (colon == NULL || colon == search || colon[1] == '\0')
    return FALSE;
  for (const char *c = search; c < colon; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-')
      return FALSE;
  *key = g_strndup (search, colon - search);
  *value = g_strdup (colon + 1);
  return TRUE;
}

/* The names of @states (bits) as SQL strings, for an IN (…): 'a', 'b'. */
void
sluice_store_admin_append_states (GString *sql,
                                  guint    states)
{
  gboolean first = TRUE;

  for (guint s = 0; s < SLUICE_STORED_JOB_N_STATES; s++)
    if (states & (1u << s))
      {
        g_string_append_printf (sql, "%s'%s'", first ? "" : ", ", sluice_stored_job_state_to_string (s));
        first = FALSE;
      }
}

/* The error of a list whose page starts after a job that is not there. */
void
sluice_store_admin_no_job_after (const SluiceStoreAdminQuery  *q,
                                 GError                      **error)
{
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
               /* Translators: %s is a job's id, given as the page to list after */
               _("There is no job %s to list the jobs after"), q->after);
}

/* A list read one more job than its page, to know whether there is a
 * next one: that one goes, and the page's last job is where the next
 * page starts. */
void
sluice_store_admin_trim_page (const SluiceStoreAdminQuery *q,
                              SluiceStoreAdminReply       *reply)
{
  if (reply->jobs->len <= q->limit)
    return;
  g_ptr_array_set_size (reply->jobs, q->limit);
  if (q->limit > 0)
    reply->next = g_strdup (((SluiceStoredJob *) g_ptr_array_index (reply->jobs, q->limit - 1))->id);
}

/* The report of a verb on the job @id (@found, in @state): not found, not
 * in a state the verb applies to, or changed (a running job's cancel is
 * requested of its worker); a job it changes counts as matched. */
SluiceStoreAdminItem *
sluice_store_admin_add_item (const SluiceStoreAdminQuery *q,
                             SluiceStoreAdminReply       *reply,
                             const char                  *id,
                             gboolean                     found,
                             SluiceStoredJobState         state)
{
  SluiceStoreAdminItem *item = g_new0 (SluiceStoreAdminItem, 1);

  item->id = g_strdup (id);
  item->state = state;
  g_ptr_array_add (reply->items, item);
  if (!found)
    item->change = SLUICE_STORE_ADMIN_NOT_FOUND;
  else if (!(sluice_store_admin_verb_states (q) & (1u << state)))
    item->change = SLUICE_STORE_ADMIN_NOT_APPLICABLE;
  else
    {
      item->change = q->op == SLUICE_STORE_ADMIN_CANCEL && state == SLUICE_STORED_JOB_RUNNING
                       ? SLUICE_STORE_ADMIN_REQUESTED : SLUICE_STORE_ADMIN_CHANGED;
      reply->matched++;
    }
  return item;
}

/* Whether the verb changes @item's job. */
gboolean
sluice_store_admin_item_applies (const SluiceStoreAdminItem *item)
{
  return item->change == SLUICE_STORE_ADMIN_CHANGED || item->change == SLUICE_STORE_ADMIN_REQUESTED;
}

/* The tenant @name of a list being read: the one met already, or a new
 * one (no limit) added to @list. */
SluiceStoreTenant *
sluice_store_admin_tenant_of (GHashTable *by_name,
                              GPtrArray  *list,
                              const char *name)
{
  SluiceStoreTenant *tenant = g_hash_table_lookup (by_name, name);

  if (tenant != NULL)
    return tenant;
  tenant = g_new0 (SluiceStoreTenant, 1);
  tenant->name = g_strdup (name);
  tenant->concurrency = -1;
  g_hash_table_insert (by_name, tenant->name, tenant);
  g_ptr_array_add (list, tenant);
  return tenant;
}

static gint
compare_tenants (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 ((*(SluiceStoreTenant **) a)->name, (*(SluiceStoreTenant **) b)->name);
}

/* The tenants by name, as every store lists them. */
void
sluice_store_admin_sort_tenants (GPtrArray *tenants)
{
  g_ptr_array_sort (tenants, compare_tenants);
}

/* ---- rows ------------------------------------------------------------------ */

/* A worker of `id, host, pid, started_at, heartbeat_at, lease, tenants,
 * done, failed, lost`, holding no claims yet. */
SluiceStoreWorker *
sluice_store_admin_worker_of (const SluiceStoreAdminRow *row)
{
  SluiceStoreWorker *worker = g_new0 (SluiceStoreWorker, 1);

  worker->id = g_strdup (row->text_at (row, 0));
  worker->host = g_strdup (row->text_at (row, 1));
  worker->pid = row->int_at (row, 2);
  worker->started_at = row->int_at (row, 3);
  worker->heartbeat_at = row->int_at (row, 4);
  worker->lease = row->int_at (row, 5);
  worker->tenants = g_strdup (row->text_at (row, 6));
  worker->done = (guint64) row->int_at (row, 7);
  worker->failed = (guint64) row->int_at (row, 8);
  worker->lost = row->bool_at (row, 9);
  worker->claims = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_stored_job_free);
  return worker;
}

/* An attempt of `attempt, worker, started_at, ended_at, outcome,
 * error_type, error_message, error_code, error_retryable`. */
SluiceStoreAttempt *
sluice_store_admin_attempt_of (const SluiceStoreAdminRow *row)
{
  SluiceStoreAttempt *attempt = g_new0 (SluiceStoreAttempt, 1);

  attempt->number = (guint) row->int_at (row, 0);
  attempt->worker = g_strdup (row->text_at (row, 1));
  attempt->started_at = row->int_at (row, 2);
  attempt->ended_at = row->int_at (row, 3);
  attempt->outcome = sluice_store_attempt_outcome_from_string (row->text_at (row, 4));
  if (!row->is_null (row, 5))
    attempt->error = sluice_job_failure_new (row->text_at (row, 5), row->text_at (row, 6),
                                             row->text_at (row, 7), row->bool_at (row, 8));
  return attempt;
}

/* A completion of `ended_at, outcome, waited`. */
SluiceStoreCompletion
sluice_store_admin_completion_of (const SluiceStoreAdminRow *row)
{
  SluiceStoreCompletion c;

  c.ended_at = row->int_at (row, 0);
  c.outcome = sluice_store_attempt_outcome_from_string (row->text_at (row, 1));
  c.waited = row->int_at (row, 2);
  return c;
}

/* `tenant, state (as shown), count`: the tenant's count of that state. */
void
sluice_store_admin_add_count (GHashTable                *by_name,
                              GPtrArray                 *list,
                              const SluiceStoreAdminRow *row)
{
  SluiceStoreTenant *tenant = sluice_store_admin_tenant_of (by_name, list, row->text_at (row, 0));
  SluiceStoredJobState state;

  if (sluice_stored_job_state_from_string (row->text_at (row, 1), &state))
    tenant->counts[state] = (guint64) row->int_at (row, 2);
}

/* `tenant, paused, concurrency_limit` (NULL: no limit). */
void
sluice_store_admin_add_control (GHashTable                *by_name,
                                GPtrArray                 *list,
                                const SluiceStoreAdminRow *row)
{
  SluiceStoreTenant *tenant = sluice_store_admin_tenant_of (by_name, list, row->text_at (row, 0));

  tenant->paused = row->bool_at (row, 1);
  tenant->concurrency = row->is_null (row, 2) ? -1 : row->int_at (row, 2);
}
