/* sluice-sqlite-connection-jobs.c: the job store protocol in SQL, each
 * call one transaction on SluiceSqliteStore's connection
 *
 * Every write begins with BEGIN IMMEDIATE (sluice-sqlite-store.c says
 * why); a claim is one UPDATE of the first claimable row, so that two
 * connections never take the same job; renew, complete, fail and release
 * are fenced: their UPDATE names the claim's token, and no row changed means
 * the lease is lost.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-sqlite-connection-private.h"

#include <glib/gi18n-lib.h>

static const char sql_insert[] =
  "INSERT INTO sluice_jobs (id, tenant, operation_key, payload, state, attempts,"
  "                         max_attempts, available_at, created_at, updated_at)"
  " VALUES (?1, ?2, ?3, ?4, 'pending', 0, ?5, ?6, ?6, ?6)"
  " ON CONFLICT (tenant, operation_key) DO NOTHING";

static const char sql_find[] =
  "SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs WHERE tenant = ?1 AND operation_key = ?2";

static const char sql_claim[] =
  "UPDATE sluice_jobs SET state = 'running', attempts = attempts + 1,"
  "  lease_owner = ?3, lease_token = ?4, lease_expires_at = ?5, updated_at = ?2"
  " WHERE created_seq = (SELECT created_seq FROM sluice_jobs"
  "              WHERE tenant = ?1 AND state IN ('pending', 'retry_wait') AND available_at <= ?2"
  "              ORDER BY available_at, created_seq LIMIT 1)"
  " RETURNING " SLUICE_SQLITE_JOB_COLUMNS;

static const char sql_renew[] =
  "UPDATE sluice_jobs SET lease_expires_at = ?3, updated_at = ?4"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2";

static const char sql_complete[] =
  "UPDATE sluice_jobs SET state = 'succeeded', result = ?3,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?4"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2";

static const char sql_fail[] =
  "UPDATE sluice_jobs SET state = ?3,"
  "  available_at = CASE WHEN ?4 >= 0 THEN ?4 ELSE available_at END,"
  "  last_failure_type = ?5, last_failure_message = ?6, last_failure_code = ?7, last_failure_retryable = ?8,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?9"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2";

/* A claim handed back unrun: as before the claim, but available_at (not
 * touched by the claim, so it keeps the job's place among the others) and
 * updated_at. */
static const char sql_release_claim[] =
  "UPDATE sluice_jobs SET state = 'pending', attempts = attempts - 1,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?3"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2 AND attempts > 0";

/* Out of attempts (attempts ≥ max_attempts): dead, with the failure the
 * seed's Worker would have recorded had it lived. */
static const char sql_release[] =
  "UPDATE sluice_jobs SET"
  "  state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END,"
  "  available_at = CASE WHEN attempts >= max_attempts THEN available_at ELSE ?1 END,"
  "  last_failure_type = CASE WHEN attempts >= max_attempts THEN 'LeaseExpired' ELSE last_failure_type END,"
  "  last_failure_message = CASE WHEN attempts >= max_attempts THEN 'the lease expired' ELSE last_failure_message END,"
  "  last_failure_code = CASE WHEN attempts >= max_attempts THEN 'LEASE_EXPIRED' ELSE last_failure_code END,"
  "  last_failure_retryable = CASE WHEN attempts >= max_attempts THEN 0 ELSE last_failure_retryable END,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?1"
  " WHERE created_seq IN (SELECT created_seq FROM sluice_jobs"
  "               WHERE state = 'running' AND lease_expires_at <= ?1"
  "                 AND (?2 IS NULL OR tenant = ?2)"
  "               ORDER BY lease_expires_at, created_seq LIMIT ?3)"
  " RETURNING tenant, state";

static const char sql_count[] =
  "SELECT state, count(*) FROM sluice_jobs WHERE (?1 IS NULL OR tenant = ?1) GROUP BY state";

static const char sql_failures[] =
  "SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs"
  " WHERE last_failure_type IS NOT NULL AND (?1 IS NULL OR tenant = ?1)"
  " ORDER BY updated_at DESC, created_seq DESC LIMIT ?2";

static void
set_lease_lost (const char  *job_id,
                GError     **error)
{
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST,
               /* Translators: %s is a job's id */
               _("Job %s: its lease is no longer this claim's (it expired and "
                 "was released, or the job ended)"), job_id);
}

static SluiceStoredJob *
find_job (SluiceSqliteConnection  *self,
          const char              *tenant,
          const char              *operation_key,
          GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_find, error);
  SluiceStoredJob *job = NULL;
  int rc;

  if (stmt == NULL)
    return NULL;
  sluice_sqlite_bind_text (stmt, 1, tenant);
  sluice_sqlite_bind_text (stmt, 2, operation_key);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    job = sluice_sqlite_job_from_row (stmt);
  else if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  else
    /* Inside the transaction that inserted it: cannot happen. */
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND,
                 "Job store %s: the job just enqueued is not there", self->path);
  sqlite3_reset (stmt);
  return job;
}

/* The new job, or the one the tenant has with @operation_key already
 * (then @created is FALSE and nothing changes). */
SluiceStoredJob *
sluice_sqlite_connection_enqueue (SluiceSqliteConnection  *self,
                                  const char              *tenant,
                                  const char              *operation_key,
                                  const char              *payload,
                                  guint                    max_attempts,
                                  gint64                   now,
                                  gboolean                *created,
                                  GError                 **error)
{
  g_autofree char *id = g_uuid_string_random ();
  g_autoptr(SluiceStoredJob) job = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  *created = FALSE;
  ok = sluice_sqlite_connection_exec (self, "BEGIN IMMEDIATE", error) &&
       (stmt = sluice_sqlite_connection_prepare (self, sql_insert, error)) != NULL;
  if (ok)
    {
      sluice_sqlite_bind_text (stmt, 1, id);
      sluice_sqlite_bind_text (stmt, 2, tenant);
      sluice_sqlite_bind_text (stmt, 3, operation_key);
      sluice_sqlite_bind_text (stmt, 4, payload);
      sqlite3_bind_int64 (stmt, 5, max_attempts);
      sqlite3_bind_int64 (stmt, 6, now);
      ok = sluice_sqlite_connection_step (self, stmt, error);
      *created = ok && sqlite3_changes (self->db) == 1;
      ok = ok && (job = find_job (self, tenant, operation_key, error)) != NULL;
    }
  if (!sluice_sqlite_connection_end (self, ok, error))
    {
      *created = FALSE;
      return NULL;
    }
  return g_steal_pointer (&job);
}

static SluiceJobClaim *
claim_new (SluiceStoredJob *job,
           const char      *owner,
           const char      *token)
{
  SluiceJobClaim *claim = g_new0 (SluiceJobClaim, 1);

  claim->job = job;
  claim->owner = g_strdup (owner);
  claim->token = g_strdup (token);
  return claim;
}

SluiceJobClaim *
sluice_sqlite_connection_claim_next (SluiceSqliteConnection  *self,
                                     const char              *tenant,
                                     const char              *owner,
                                     gint64                   lease,
                                     gint64                   now,
                                     GError                 **error)
{
  g_autofree char *token = g_uuid_string_random ();
  g_autoptr(SluiceStoredJob) job = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean ok;
  int rc;

  ok = sluice_sqlite_connection_exec (self, "BEGIN IMMEDIATE", error) &&
       (stmt = sluice_sqlite_connection_prepare (self, sql_claim, error)) != NULL;
  if (ok)
    {
      sluice_sqlite_bind_text (stmt, 1, tenant);
      sqlite3_bind_int64 (stmt, 2, now);
      sluice_sqlite_bind_text (stmt, 3, owner);
      sluice_sqlite_bind_text (stmt, 4, token);
      sqlite3_bind_int64 (stmt, 5, now + lease);
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        job = sluice_sqlite_job_from_row (stmt);
      else if (rc != SQLITE_DONE)
        {
          sluice_sqlite_connection_set_error (self, error);
          ok = FALSE;
        }
      sqlite3_reset (stmt);
    }
  if (!sluice_sqlite_connection_end (self, ok, error) || job == NULL)
    return NULL;
  return claim_new (g_steal_pointer (&job), owner, token);
}

/* BEGIN IMMEDIATE, then @sql prepared with the fencing parameters bound:
 * ?1 the job's id, ?2 the claim's token. */
static sqlite3_stmt *
begin_fenced (SluiceSqliteConnection  *self,
              const char              *sql,
              const char              *job_id,
              const char              *token,
              GError                 **error)
{
  sqlite3_stmt *stmt;

  if (!sluice_sqlite_connection_exec (self, "BEGIN IMMEDIATE", error))
    return NULL;
  stmt = sluice_sqlite_connection_prepare (self, sql, error);
  if (stmt == NULL)
    return NULL;
  sluice_sqlite_bind_text (stmt, 1, job_id);
  sluice_sqlite_bind_text (stmt, 2, token);
  return stmt;
}

/* Runs the fenced UPDATE @stmt (NULL: begin_fenced failed) and ends its
 * transaction; no row changed is a lost lease. */
static gboolean
end_fenced (SluiceSqliteConnection  *self,
            sqlite3_stmt            *stmt,
            const char              *job_id,
            GError                 **error)
{
  gboolean ok = stmt != NULL && sluice_sqlite_connection_step (self, stmt, error);
  gboolean changed = ok && sqlite3_changes (self->db) == 1;

  if (!sluice_sqlite_connection_end (self, ok, error))
    return FALSE;
  if (!changed)
    set_lease_lost (job_id, error);
  return changed;
}

gboolean
sluice_sqlite_connection_renew (SluiceSqliteConnection  *self,
                                const char              *job_id,
                                const char              *token,
                                gint64                   lease,
                                gint64                   now,
                                GError                 **error)
{
  sqlite3_stmt *stmt = begin_fenced (self, sql_renew, job_id, token, error);

  if (stmt != NULL)
    {
      sqlite3_bind_int64 (stmt, 3, now + lease);
      sqlite3_bind_int64 (stmt, 4, now);
    }
  return end_fenced (self, stmt, job_id, error);
}

gboolean
sluice_sqlite_connection_complete (SluiceSqliteConnection  *self,
                                   const char              *job_id,
                                   const char              *token,
                                   const char              *result_json,
                                   gint64                   now,
                                   GError                 **error)
{
  sqlite3_stmt *stmt = begin_fenced (self, sql_complete, job_id, token, error);

  if (stmt != NULL)
    {
      sluice_sqlite_bind_text (stmt, 3, result_json);
      sqlite3_bind_int64 (stmt, 4, now);
    }
  return end_fenced (self, stmt, job_id, error);
}

/* @available_at ≥ 0: retry_wait until then; -1: dead. */
gboolean
sluice_sqlite_connection_fail (SluiceSqliteConnection  *self,
                               const char              *job_id,
                               const char              *token,
                               const SluiceJobFailure  *failure,
                               gint64                   available_at,
                               gint64                   now,
                               GError                 **error)
{
  sqlite3_stmt *stmt = begin_fenced (self, sql_fail, job_id, token, error);
  SluiceStoredJobState state = available_at >= 0 ? SLUICE_STORED_JOB_RETRY_WAIT : SLUICE_STORED_JOB_DEAD;

  if (stmt != NULL)
    {
      sluice_sqlite_bind_text (stmt, 3, sluice_stored_job_state_to_string (state));
      sqlite3_bind_int64 (stmt, 4, available_at);
      sluice_sqlite_bind_text (stmt, 5, failure->type_name != NULL ? failure->type_name : "");
      sluice_sqlite_bind_text (stmt, 6, failure->message != NULL ? failure->message : "");
      sluice_sqlite_bind_text (stmt, 7, failure->code != NULL ? failure->code : "");
      sqlite3_bind_int (stmt, 8, failure->retryable ? 1 : 0);
      sqlite3_bind_int64 (stmt, 9, now);
    }
  return end_fenced (self, stmt, job_id, error);
}

gboolean
sluice_sqlite_connection_release (SluiceSqliteConnection  *self,
                                  const char              *job_id,
                                  const char              *token,
                                  gint64                   now,
                                  GError                 **error)
{
  sqlite3_stmt *stmt = begin_fenced (self, sql_release_claim, job_id, token, error);

  if (stmt != NULL)
    sqlite3_bind_int64 (stmt, 3, now);
  return end_fenced (self, stmt, job_id, error);
}

/* Steps the release's UPDATE … RETURNING: the jobs released, the tenants
 * of those put back to pending into @woken. */
static gboolean
step_release (SluiceSqliteConnection  *self,
              sqlite3_stmt            *stmt,
              gint64                  *released,
              GHashTable              *woken,
              GError                 **error)
{
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *state = (const char *) sqlite3_column_text (stmt, 1);

      ++*released;
      if (g_strcmp0 (state, "pending") == 0)
        g_hash_table_add (woken, sluice_sqlite_column_text (stmt, 0));
    }
  if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE;
}

/* @tenant NULL: every tenant's. */
gint64
sluice_sqlite_connection_release_expired (SluiceSqliteConnection  *self,
                                          const char              *tenant,
                                          gint64                   now,
                                          guint                    limit,
                                          GPtrArray              **woken,
                                          GError                 **error)
{
  g_autoptr(GHashTable) tenants = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  sqlite3_stmt *stmt = NULL;
  gint64 released = 0;
  gboolean ok;

  *woken = NULL;
  ok = sluice_sqlite_connection_exec (self, "BEGIN IMMEDIATE", error) &&
       (stmt = sluice_sqlite_connection_prepare (self, sql_release, error)) != NULL;
  if (ok)
    {
      sqlite3_bind_int64 (stmt, 1, now);
      sluice_sqlite_bind_text (stmt, 2, tenant);
      sqlite3_bind_int64 (stmt, 3, limit);
      ok = step_release (self, stmt, &released, tenants, error);
    }
  if (!sluice_sqlite_connection_end (self, ok, error))
    return -1;
  if (g_hash_table_size (tenants) > 0)
    {
      GHashTableIter iter;
      gpointer name;

      *woken = g_ptr_array_new_with_free_func (g_free);
      g_hash_table_iter_init (&iter, tenants);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        g_ptr_array_add (*woken, g_strdup (name));
    }
  return released;
}

static gboolean
read_counts (SluiceSqliteConnection  *self,
             const char              *tenant,
             SluiceStoreStatus       *status,
             GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_count, error);
  SluiceStoredJobState state;
  int rc;

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, tenant);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (sluice_stored_job_state_from_string ((const char *) sqlite3_column_text (stmt, 0), &state))
      status->counts[state] = (guint64) sqlite3_column_int64 (stmt, 1);
  if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE;
}

static gboolean
read_failures (SluiceSqliteConnection  *self,
               const char              *tenant,
               guint                    n_failures,
               SluiceStoreStatus       *status,
               GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_failures, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, tenant);
  sqlite3_bind_int64 (stmt, 2, n_failures);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (status->failures, sluice_sqlite_job_from_row (stmt));
  if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE;
}

/* @tenant NULL: every tenant. */
SluiceStoreStatus *
sluice_sqlite_connection_get_status (SluiceSqliteConnection  *self,
                                     const char              *tenant,
                                     guint                    n_failures,
                                     GError                 **error)
{
  g_autoptr(SluiceStoreStatus) status = g_new0 (SluiceStoreStatus, 1);
  gboolean ok;

  status->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_stored_job_free);
  /* One read transaction: the counts and the failures of one moment. */
  ok = sluice_sqlite_connection_exec (self, "BEGIN", error) &&
       read_counts (self, tenant, status, error) &&
       read_failures (self, tenant, n_failures, status, error);
  if (!sluice_sqlite_connection_end (self, ok, error))
    return NULL;
  return g_steal_pointer (&status);
}
