/* sluice-sqlite-connection-jobs.c: the job store protocol in SQL, each
 * batch of requests one transaction on SluiceSqliteStore's connection
 *
 * Every write begins with BEGIN IMMEDIATE (sluice-sqlite-store.c says
 * why); a claim is one UPDATE of the first claimable row, repeated in one
 * transaction for a claim of several, so that two connections never take
 * the same job; renew, complete, fail and release are fenced: their
 * UPDATE names the claim's token, and no row changed means the lease is
 * lost. A batch is one transaction: one commit, one write of the WAL.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-sqlite-connection-private.h"
#include "sluice-sqlite-store.h"

#include <glib/gi18n-lib.h>

static const char sql_insert[] =
  "INSERT INTO sluice_jobs (id, tenant, operation_key, payload, state, attempts,"
  "                         max_attempts, available_at, created_at, updated_at)"
  " VALUES (?1, ?2, ?3, ?4, 'pending', 0, ?5, ?7, ?6, ?6)"
  " ON CONFLICT (tenant, operation_key) DO NOTHING";

static const char sql_find[] =
  "SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs WHERE tenant = ?1 AND operation_key = ?2";

static const char sql_claim[] =
  "UPDATE sluice_jobs SET state = 'running', attempts = attempts + 1,"
  "  lease_owner = ?3, lease_token = ?4, lease_expires_at = ?5, updated_at = ?2"
  " WHERE created_seq = (SELECT created_seq FROM sluice_jobs"
  "              WHERE tenant = ?1 AND state IN ('pending', 'retry_wait') AND available_at <= ?2"
  "                AND NOT EXISTS (SELECT 1 FROM sluice_tenants t WHERE t.tenant = ?1"
  "                  AND (t.paused <> 0 OR (t.concurrency_limit IS NOT NULL AND t.concurrency_limit <="
  "                       (SELECT count(*) FROM sluice_jobs r WHERE r.tenant = ?1 AND r.state = 'running'))))"
  "              ORDER BY available_at, created_seq LIMIT 1)"
  " RETURNING " SLUICE_SQLITE_JOB_COLUMNS;

static const char sql_renew[] =
  "UPDATE sluice_jobs SET lease_expires_at = ?3, updated_at = ?4"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2"
  " RETURNING cancel_requested";

/* A cancel asked of a job that completed anyway is moot. */
static const char sql_complete[] =
  "UPDATE sluice_jobs SET state = 'succeeded', result = ?3, cancel_requested = 0,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?4"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2";

/* A job an operator cancelled while it ran ends cancelled, whatever its
 * failure. */
static const char sql_fail[] =
  "UPDATE sluice_jobs SET state = CASE WHEN cancel_requested <> 0 THEN 'cancelled' ELSE ?3 END,"
  "  available_at = CASE WHEN ?4 >= 0 THEN ?4 ELSE available_at END,"
  "  last_failure_type = ?5, last_failure_message = ?6, last_failure_code = ?7, last_failure_retryable = ?8,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?9"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2";

/* A claim handed back unrun: as before the claim, but available_at (not
 * touched by the claim, so it keeps the job's place among the others) and
 * updated_at; cancelled if an operator cancelled it meanwhile. */
static const char sql_release_claim[] =
  "UPDATE sluice_jobs SET state = CASE WHEN cancel_requested <> 0 THEN 'cancelled' ELSE 'pending' END,"
  "  attempts = attempts - 1,"
  "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = ?3"
  " WHERE id = ?1 AND state = 'running' AND lease_token = ?2 AND attempts > 0";

/* Out of attempts (attempts ≥ max_attempts): dead, with the failure the
 * seed's Worker would have recorded had it lived. */
static const char sql_release[] =
  "UPDATE sluice_jobs SET"
  "  state = CASE WHEN cancel_requested <> 0 THEN 'cancelled'"
  "               WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END,"
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
  " RETURNING tenant, state, id";

static const char sql_count[] =
  "SELECT state, count(*) FROM sluice_jobs WHERE (?1 IS NULL OR tenant = ?1) GROUP BY state";

/* Of the pending jobs, those never claimed whose time is ahead are
 * scheduled: counted apart, so that the counts by state stay the index's
 * alone (sluice_jobs_states) and these come from the claim's index (its
 * WHERE repeated, for SQLite to take the partial index). */
static const char sql_count_scheduled[] =
  "SELECT count(*) FROM sluice_jobs WHERE (?1 IS NULL OR tenant = ?1)"
  "  AND state IN ('pending', 'retry_wait') AND state = 'pending' AND attempts = 0 AND available_at > ?2";

static const char sql_failures[] =
  "SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs"
  " WHERE last_failure_type IS NOT NULL AND (?1 IS NULL OR tenant = ?1)"
  " ORDER BY updated_at DESC, created_seq DESC LIMIT ?2";


/* ---- transactions ---------------------------------------------------------- */

/* A statement without parameters, prepared once (BEGIN, COMMIT, …). */
static gboolean
run_cached (SluiceSqliteConnection  *self,
            const char              *sql,
            GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql, error);

  return stmt != NULL && sluice_sqlite_connection_step (self, stmt, error);
}

static gboolean
begin_write (SluiceSqliteConnection  *self,
             GError                 **error)
{
  return run_cached (self, "BEGIN IMMEDIATE", error);
}

/* Ends a batch's transaction: COMMIT if @ok, else ROLLBACK; when the
 * batch is not committed, every request of it fails with the error. */
static void
end_batch (SluiceSqliteConnection  *self,
           gboolean                 ok,
           GError                  *error,
           SluiceStoreRequest     **requests,
           guint                    n)
{
  g_autoptr(GError) local_error = error;

  if (ok && run_cached (self, "COMMIT", &local_error))
    return;
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
  if (local_error == NULL)
    sluice_sqlite_connection_set_error (self, &local_error);
  sluice_store_requests_fail_all (requests, n, local_error);
}

/* ---- enqueue ------------------------------------------------------------------- */

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

/* One enqueue inside the batch's transaction. */
static gboolean
enqueue_one (SluiceSqliteConnection  *self,
             SluiceStoreRequest      *r,
             GError                 **error)
{
  g_autofree char *id = g_uuid_string_random ();
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_insert, error);
  gboolean created;

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, id);
  sluice_sqlite_bind_text (stmt, 2, r->tenant);
  sluice_sqlite_bind_text (stmt, 3, r->operation_key);
  sluice_sqlite_bind_text (stmt, 4, r->text);
  sqlite3_bind_int64 (stmt, 5, r->count);
  sqlite3_bind_int64 (stmt, 6, r->now);
  sqlite3_bind_int64 (stmt, 7, r->available_at);  /* later than now: scheduled */
  if (!sluice_sqlite_connection_step (self, stmt, error))
    return FALSE;
  created = sqlite3_changes (self->db) == 1;
  r->value = find_job (self, r->tenant, r->operation_key, error);
  r->value_free = (GDestroyNotify) sluice_stored_job_free;
  r->created = created && r->value != NULL;
  r->wake = r->created;
  return r->value != NULL;
}

/* The new jobs, or those the tenants have with the keys already (created
 * FALSE, nothing changed). Each enqueue has a savepoint of its own: one
 * that fails (a full disk) is undone alone and the others are committed,
 * with one fsync for all (synchronous=FULL while an enqueue commits: an
 * answered enqueue survives a power cut). */
static void
sqlite_enqueue (SluiceStoreBackend  *backend,
                SluiceStoreRequest **requests,
                guint                n)
{
  SluiceSqliteConnection *self = sluice_sqlite_store_get_connection (SLUICE_SQLITE_STORE (backend));
  GError *error = NULL;
  /* Outside a transaction: SQLite refuses to change it inside one. */
  gboolean ok = run_cached (self, "PRAGMA synchronous = FULL", &error) && begin_write (self, &error);

  for (guint i = 0; ok && i < n; i++)
    {
      SluiceStoreRequest *r = requests[i];

      ok = run_cached (self, "SAVEPOINT sluice_enqueue", &error);
      if (ok && !enqueue_one (self, r, &r->error))
        {
          r->created = r->wake = FALSE;
          if (sqlite3_get_autocommit (self->db))
            ok = FALSE;  /* SQLite undid the whole transaction */
          else
            ok = run_cached (self, "ROLLBACK TO sluice_enqueue", &error);
        }
      ok = ok && run_cached (self, "RELEASE sluice_enqueue", &error);
      if (!ok && error == NULL && r->error != NULL)
        error = g_error_copy (r->error);
    }
  end_batch (self, ok, error, requests, n);
  run_cached (self, "PRAGMA synchronous = NORMAL", NULL);
}

/* ---- claim ----------------------------------------------------------------------- */

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

/* One claim inside the transaction: the claim, or NULL (with @error set
 * when it failed). */
static SluiceJobClaim *
claim_one (SluiceSqliteConnection  *self,
           SluiceStoreRequest      *r,
           GError                 **error)
{
  g_autofree char *token = g_uuid_string_random ();
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_claim, error);
  SluiceStoredJob *job = NULL;
  int rc;

  if (stmt == NULL)
    return NULL;
  sluice_sqlite_bind_text (stmt, 1, r->tenant);
  sqlite3_bind_int64 (stmt, 2, r->now);
  sluice_sqlite_bind_text (stmt, 3, r->owner);
  sluice_sqlite_bind_text (stmt, 4, token);
  sqlite3_bind_int64 (stmt, 5, r->now + r->lease);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    job = sluice_sqlite_job_from_row (stmt);
  else if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  if (job != NULL && !sluice_sqlite_attempt_begin (self, job, r->now, error))
    g_clear_pointer (&job, sluice_stored_job_free);
  return job != NULL ? claim_new (job, r->owner, token) : NULL;
}

/* Up to r->count claims, in one transaction. */
static void
sqlite_claim (SluiceStoreBackend *backend,
              SluiceStoreRequest *r)
{
  SluiceSqliteConnection *self = sluice_sqlite_store_get_connection (SLUICE_SQLITE_STORE (backend));
  GPtrArray *claims = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_job_claim_free);
  GError *error = NULL;
  gboolean ok = begin_write (self, &error);

  r->value = claims;
  r->value_free = (GDestroyNotify) g_ptr_array_unref;
  while (ok && claims->len < r->count)
    {
      SluiceJobClaim *claim = claim_one (self, r, &error);

      if (claim == NULL)
        {
          ok = error == NULL;
          break;
        }
      g_ptr_array_add (claims, claim);
    }
  end_batch (self, ok, error, &r, 1);
}

/* ---- renew, complete, fail, release ----------------------------------------- */

/* Binds a fenced statement's ?1 (the job's id) and ?2 (the token) and the
 * rest of @r's arguments. */
static sqlite3_stmt *
prepare_fenced (SluiceSqliteConnection  *self,
                SluiceStoreRequest      *r,
                GError                 **error)
{
  const char *sql = NULL;
  sqlite3_stmt *stmt;

  switch (r->op)
    {
    case SLUICE_STORE_OP_RENEW: sql = sql_renew; break;
    case SLUICE_STORE_OP_COMPLETE: sql = sql_complete; break;
    case SLUICE_STORE_OP_FAIL: sql = sql_fail; break;
    case SLUICE_STORE_OP_RELEASE: sql = sql_release_claim; break;
    default: g_assert_not_reached ();
    }
  stmt = sluice_sqlite_connection_prepare (self, sql, error);
  if (stmt == NULL)
    return NULL;
  sluice_sqlite_bind_text (stmt, 1, r->claim->job->id);
  sluice_sqlite_bind_text (stmt, 2, r->claim->token);
  switch (r->op)
    {
    case SLUICE_STORE_OP_RENEW:
      sqlite3_bind_int64 (stmt, 3, r->now + r->lease);
      sqlite3_bind_int64 (stmt, 4, r->now);
      break;
    case SLUICE_STORE_OP_COMPLETE:
      sluice_sqlite_bind_text (stmt, 3, r->text);
      sqlite3_bind_int64 (stmt, 4, r->now);
      break;
    case SLUICE_STORE_OP_FAIL:
      sluice_sqlite_bind_text (stmt, 3, sluice_stored_job_state_to_string (
                                 r->available_at >= 0 ? SLUICE_STORED_JOB_RETRY_WAIT : SLUICE_STORED_JOB_DEAD));
      sqlite3_bind_int64 (stmt, 4, r->available_at);
      sluice_sqlite_bind_text (stmt, 5, r->failure->type_name != NULL ? r->failure->type_name : "");
      sluice_sqlite_bind_text (stmt, 6, r->failure->message != NULL ? r->failure->message : "");
      sluice_sqlite_bind_text (stmt, 7, r->failure->code != NULL ? r->failure->code : "");
      sqlite3_bind_int (stmt, 8, r->failure->retryable ? 1 : 0);
      sqlite3_bind_int64 (stmt, 9, r->now);
      break;
    default:
      sqlite3_bind_int64 (stmt, 3, r->now);
      break;
    }
  return stmt;
}

/* The attempt's history follows its job: ended, or forgotten when the
 * claim was handed back unrun. */
static gboolean
record_attempt (SluiceSqliteConnection  *self,
                SluiceStoreRequest      *r,
                GError                 **error)
{
  const char *id = r->claim->job->id;

  switch (r->op)
    {
    case SLUICE_STORE_OP_COMPLETE:
      return sluice_sqlite_attempt_end (self, id, "succeeded", NULL, r->now, error);
    case SLUICE_STORE_OP_FAIL:
      return sluice_sqlite_attempt_end (self, id, NULL, r->failure, r->now, error);
    case SLUICE_STORE_OP_RELEASE:
      return sluice_sqlite_attempt_forget (self, id, error);
    default:
      return TRUE;
    }
}

/* Steps a fenced statement: no row changed is a lost lease; a renew of a
 * job an operator cancelled keeps the lease and says so. */
static gboolean
step_fenced (SluiceSqliteConnection  *self,
             sqlite3_stmt            *stmt,
             SluiceStoreRequest      *r,
             GError                 **error)
{
  int rc = sqlite3_step (stmt);
  gboolean cancel = FALSE;
  int changes;

  if (rc == SQLITE_ROW && r->op == SLUICE_STORE_OP_RENEW)
    cancel = sqlite3_column_int (stmt, 0) != 0;
  if (rc == SQLITE_ROW)
    rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    {
      sluice_sqlite_connection_set_error (self, error);
      sqlite3_reset (stmt);
      return FALSE;
    }
  changes = sqlite3_changes (self->db);
  sqlite3_reset (stmt);
  if (changes != 1)
    sluice_store_request_lease_lost (r);
  else if (cancel)
    sluice_store_request_cancel_requested (r);
  else
    r->wake = r->op == SLUICE_STORE_OP_RELEASE || (r->op == SLUICE_STORE_OP_FAIL && r->available_at >= 0);
  return TRUE;
}

/* Renews, completes, fails and releases, in one transaction: each request
 * whose token is not its job's any more fails alone with a lost lease. */
static void
sqlite_fenced (SluiceStoreBackend  *backend,
               SluiceStoreRequest **requests,
               guint                n)
{
  SluiceSqliteConnection *self = sluice_sqlite_store_get_connection (SLUICE_SQLITE_STORE (backend));
  GError *error = NULL;
  gboolean ok = begin_write (self, &error);

  for (guint i = 0; ok && i < n; i++)
    {
      SluiceStoreRequest *r = requests[i];
      sqlite3_stmt *stmt = prepare_fenced (self, r, &error);

      ok = stmt != NULL && step_fenced (self, stmt, r, &error);
      if (ok && r->error == NULL)
        ok = record_attempt (self, r, &error);
    }
  end_batch (self, ok, error, requests, n);
}

/* ---- release_expired, status --------------------------------------------------- */

/* Steps the release's UPDATE … RETURNING: the jobs released, the tenants
 * of those put back to pending into @woken. */
static gboolean
step_release (SluiceSqliteConnection  *self,
              sqlite3_stmt            *stmt,
              gint64                  *released,
              GHashTable              *woken,
              GPtrArray               *ids,
              GError                 **error)
{
  int rc;

  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      const char *state = (const char *) sqlite3_column_text (stmt, 1);

      ++*released;
      g_ptr_array_add (ids, sluice_sqlite_column_text (stmt, 2));
      if (g_strcmp0 (state, "pending") == 0)
        g_hash_table_add (woken, sluice_sqlite_column_text (stmt, 0));
    }
  if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE;
}

/* r->tenant NULL: every tenant's. The tenants of the jobs put back to
 * pending are told, each once. */
static void
sqlite_release_expired (SluiceStoreBackend *backend,
                        SluiceStoreRequest *r)
{
  SluiceStoreBackend *store = backend;
  SluiceSqliteConnection *self = sluice_sqlite_store_get_connection (SLUICE_SQLITE_STORE (backend));
  g_autoptr(GHashTable) tenants = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SluiceJobFailure) lost = sluice_job_failure_new ("LeaseExpired", "the lease expired",
                                                              "LEASE_EXPIRED", TRUE);
  sqlite3_stmt *stmt = NULL;
  GError *error = NULL;
  gboolean ok;

  ok = begin_write (self, &error) &&
       (stmt = sluice_sqlite_connection_prepare (self, sql_release, &error)) != NULL;
  if (ok)
    {
      sqlite3_bind_int64 (stmt, 1, r->now);
      sluice_sqlite_bind_text (stmt, 2, r->tenant);
      sqlite3_bind_int64 (stmt, 3, r->count);
      ok = step_release (self, stmt, &r->number, tenants, ids, &error);
    }
  /* The attempts of the released jobs were lost with their workers' leases. */
  for (guint i = 0; ok && i < ids->len; i++)
    ok = sluice_sqlite_attempt_end (self, g_ptr_array_index (ids, i), "lease_lost", lost, r->now, &error);
  end_batch (self, ok, error, &r, 1);
  if (r->error == NULL)
    {
      GHashTableIter iter;
      gpointer name;

      g_hash_table_iter_init (&iter, tenants);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        sluice_store_backend_announce (store, name);
    }
}

static gboolean
read_counts (SluiceSqliteConnection  *self,
             const char              *tenant,
             gint64                   now,
             SluiceStoreStatus       *status,
             GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_count, error);
  SluiceStoredJobState state;
  guint64 scheduled = 0;
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
  if (rc != SQLITE_DONE)
    return FALSE;

  stmt = sluice_sqlite_connection_prepare (self, sql_count_scheduled, error);
  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, tenant);
  sqlite3_bind_int64 (stmt, 2, now);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    scheduled = (guint64) sqlite3_column_int64 (stmt, 0);
  else
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW)
    return FALSE;
  scheduled = MIN (scheduled, status->counts[SLUICE_STORED_JOB_PENDING]);
  status->counts[SLUICE_STORED_JOB_PENDING] -= scheduled;
  status->counts[SLUICE_STORED_JOB_SCHEDULED] = scheduled;
  return TRUE;
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

/* r->tenant NULL: every tenant. One read transaction: the counts and the
 * failures of one moment. */
static void
sqlite_get_status (SluiceStoreBackend *backend,
                   SluiceStoreRequest *r)
{
  SluiceSqliteConnection *self = sluice_sqlite_store_get_connection (SLUICE_SQLITE_STORE (backend));
  SluiceStoreStatus *status = g_new0 (SluiceStoreStatus, 1);
  GError *error = NULL;
  gboolean ok;

  status->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_stored_job_free);
  r->value = status;
  r->value_free = (GDestroyNotify) sluice_store_status_free;
  ok = run_cached (self, "BEGIN", &error) &&
       read_counts (self, r->tenant, r->now, status, &error) &&
       read_failures (self, r->tenant, r->count, status, &error);
  end_batch (self, ok, error, &r, 1);
}

void
sluice_sqlite_jobs_class_init (SluiceStoreBackendClass *klass)
{
  klass->enqueue = sqlite_enqueue;
  klass->claim = sqlite_claim;
  klass->renew = sqlite_fenced;
  klass->finish = sqlite_fenced;
  klass->release_expired = sqlite_release_expired;
  klass->get_status = sqlite_get_status;
  sluice_sqlite_admin_class_init (klass);
}
