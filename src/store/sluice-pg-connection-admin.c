/* sluice-pg-connection-admin.c: what an operator asks of a PostgreSQL job
 * store (docs/store-admin.md)
 *
 * Each query is one transaction on the connection of the store's first
 * lane (SluiceStoreBackend). The filters make their SQL as they go, with
 * their values always as parameters ($1 …), never in the text. A verb
 * locks the rows it counts (FOR UPDATE) so that its count and its change
 * are of one moment; a retry or a resume NOTIFYs the tenants it made jobs
 * claimable for, so idle workers of every process wake.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-pg-connection-private.h"
#include "sluice-store-admin-sql.h"

#include <glib/gi18n-lib.h>

/* The parameters of a statement made for one call. */
typedef struct
{
  GPtrArray *values;  /* char*, owned */
} Params;

static void
params_clear (Params *p)
{
  g_clear_pointer (&p->values, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Params, params_clear)

static void
params_init (Params *p)
{
  p->values = g_ptr_array_new_with_free_func (g_free);
}

/* Adds @value (copied; NULL is SQL NULL) and appends its placeholder,
 * cast to @type, to @sql. */
static void
param (GString    *sql,
       Params     *p,
       const char *value,
       const char *type)
{
  g_ptr_array_add (p->values, g_strdup (value));
  g_string_append_printf (sql, "$%u::%s", p->values->len, type);
}

static void
param_int (GString *sql,
           Params  *p,
           gint64   value)
{
  g_autofree char *text = g_strdup_printf ("%" G_GINT64_FORMAT, value);

  param (sql, p, text, "bigint");
}

/* Runs @sql with @p; the result when it is @expected, else NULL with
 * @error set. */
static PGresult *
exec (SluicePgConnection  *self,
      const char          *sql,
      Params              *p,
      GError             **error)
{
  PGresult *result = PQexecParams (sluice_pg_connection_get_conn (self), sql,
                                   p != NULL ? (int) p->values->len : 0, NULL,
                                   p != NULL ? (const char *const *) p->values->pdata : NULL,
                                   NULL, NULL, 0);
  ExecStatusType status = PQresultStatus (result);

  if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK)
    return result;
  sluice_pg_connection_set_error (self, PQresultErrorMessage (result), error);
  PQclear (result);
  return NULL;
}

static gboolean
exec_done (SluicePgConnection  *self,
           const char          *sql,
           Params              *p,
           GError             **error)
{
  PGresult *result = exec (self, sql, p, error);

  PQclear (result);
  return result != NULL;
}

static gint64
int_of (const PGresult *result,
        int             row,
        int             column)
{
  return PQgetisnull (result, row, column) ? 0 : g_ascii_strtoll (PQgetvalue (result, row, column), NULL, 10);
}

static gboolean
bool_of (const PGresult *result,
         int             row,
         int             column)
{
  return g_strcmp0 (PQgetvalue (result, row, column), "t") == 0;
}

/* A row of a result, for the shared row mapping (sluice-store-admin-sql.c). */
static gboolean
row_is_null (const SluiceStoreAdminRow *row,
             int                        column)
{
  return PQgetisnull (row->result, row->index, column);
}

static gint64
row_int (const SluiceStoreAdminRow *row,
         int                        column)
{
  return int_of (row->result, row->index, column);
}

static gboolean
row_bool (const SluiceStoreAdminRow *row,
          int                        column)
{
  return bool_of (row->result, row->index, column);
}

static const char *
row_text (const SluiceStoreAdminRow *row,
          int                        column)
{
  return PQgetisnull (row->result, row->index, column) ? NULL : PQgetvalue (row->result, row->index, column);
}

/* Row @index of @result (a compound literal: it lives in the enclosing block). */
#define ROW(result, index) (&(SluiceStoreAdminRow) { row_is_null, row_int, row_bool, row_text, (result), (index) })

/* ---- filters ------------------------------------------------------------------ */

/* The states of @states (bits), as an operator sees them: a pending job
 * whose time is ahead of @now is scheduled (docs/store-admin.md). */
static void
append_states (GString *sql,
               Params  *p,
               guint    states,
               gint64   now)
{
  g_string_append (sql, " AND (CASE WHEN state = 'pending' AND attempts = 0 AND available_at > ");
  param_int (sql, p, now);
  g_string_append (sql, " THEN 'scheduled' ELSE state END) IN (");
  sluice_store_admin_append_states (sql, states);
  g_string_append (sql, ")");
}

/* The WHERE of @q's filter over sluice_jobs, with the states @states;
 * @id: one job's. The search is case-blind (ILIKE), as SQLite's LIKE is
 * for ASCII. */
static void
append_filter (GString                     *sql,
               Params                      *p,
               const SluiceStoreAdminQuery *q,
               guint                        states,
               const char                  *id)
{
  g_string_append (sql, " WHERE true");
  if (id != NULL)
    {
      g_string_append (sql, " AND id::text = ");
      param (sql, p, id, "text");
    }
  if (q->tenant != NULL)
    {
      g_string_append (sql, " AND tenant = ");
      param (sql, p, q->tenant, "text");
    }
  if (states != 0)
    append_states (sql, p, states, q->now);
  if (q->key_prefix != NULL)
    {
      g_autofree char *prefix = sluice_store_admin_like_pattern (q->key_prefix, TRUE);

      g_string_append (sql, " AND operation_key LIKE ");
      param (sql, p, prefix, "text");
    }
  if (q->search != NULL)
    {
      g_autofree char *pattern = sluice_store_admin_like_pattern (q->search, FALSE);
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;

      g_string_append (sql, " AND (operation_key ILIKE ");
      param (sql, p, pattern, "text");
      g_string_append (sql, " OR payload::text ILIKE ");
      param (sql, p, pattern, "text");
      if (sluice_store_admin_split_field (q->search, &key, &value))
        {
          g_string_append (sql, " OR (json_typeof (payload) = 'object' AND payload ->> ");
          param (sql, p, key, "text");
          g_string_append (sql, " = ");
          param (sql, p, value, "text");
          g_string_append (sql, ")");
        }
      g_string_append (sql, ")");
    }
  if (q->older_than > 0)
    {
      g_string_append (sql, " AND updated_at < ");
      param_int (sql, p, q->older_than);
    }
  if (q->after != NULL)
    {
      g_string_append (sql, " AND created_seq < (SELECT created_seq FROM sluice_jobs WHERE id::text = ");
      param (sql, p, q->after, "text");
      g_string_append (sql, ")");
    }
}

/* ---- the queries ----------------------------------------------------------------- */

static gboolean
job_exists (SluicePgConnection  *self,
            const char          *id,
            gboolean            *exists,
            GError             **error)
{
  g_auto(Params) p = { NULL };
  g_autoptr(GString) sql = g_string_new ("SELECT 1 FROM sluice_jobs WHERE id::text = ");
  PGresult *result;

  params_init (&p);
  param (sql, &p, id, "text");
  result = exec (self, sql->str, &p, error);
  if (result == NULL)
    return FALSE;
  *exists = PQntuples (result) > 0;
  PQclear (result);
  return TRUE;
}

static gboolean
add_jobs (SluicePgConnection  *self,
          const char          *sql,
          Params              *p,
          GPtrArray           *jobs,
          GError             **error)
{
  PGresult *result = exec (self, sql, p, error);

  if (result == NULL)
    return FALSE;
  for (int row = 0; row < PQntuples (result); row++)
    g_ptr_array_add (jobs, sluice_pg_job_from_row (result, row));
  PQclear (result);
  return TRUE;
}

static gboolean
list_jobs (gpointer                      self,
           const SluiceStoreAdminQuery  *q,
           SluiceStoreAdminReply        *reply,
           gpointer                      data,
           GError                      **error)
{
  g_auto(Params) p = { NULL };
  g_autoptr(GString) sql = g_string_new ("SELECT " SLUICE_PG_JOB_COLUMNS " FROM sluice_jobs");
  gboolean exists = TRUE;

  params_init (&p);
  if (q->after != NULL && !job_exists (self, q->after, &exists, error))
    return FALSE;
  if (!exists)
    {
      sluice_store_admin_no_job_after (q, error);
      return FALSE;
    }
  append_filter (sql, &p, q, q->states, NULL);
  /* One more than the page: whether there is a next one. */
  g_string_append (sql, " ORDER BY created_seq DESC LIMIT ");
  param_int (sql, &p, (gint64) q->limit + 1);
  if (!add_jobs (self, sql->str, &p, reply->jobs, error))
    return FALSE;
  sluice_store_admin_trim_page (q, reply);
  return TRUE;
}

static gboolean
show_job (gpointer                      self,
          const SluiceStoreAdminQuery  *q,
          SluiceStoreAdminReply        *reply,
          gpointer                      data,
          GError                      **error)
{
  g_auto(Params) p = { NULL };
  g_autoptr(GString) sql = g_string_new ("SELECT " SLUICE_PG_JOB_COLUMNS ", attempts_dropped"
                                         " FROM sluice_jobs WHERE id::text = ");
  PGresult *result;

  params_init (&p);
  param (sql, &p, q->ids[0], "text");
  result = exec (self, sql->str, &p, error);
  if (result == NULL)
    return FALSE;
  if (PQntuples (result) == 1)
    {
      g_ptr_array_add (reply->jobs, sluice_pg_job_from_row (result, 0));
      reply->attempts_dropped = (guint) int_of (result, 0, 19);
    }
  PQclear (result);
  if (reply->jobs->len == 0)
    return TRUE;

  result = exec (self, "SELECT attempt, worker, started_at, ended_at, outcome, error_type, error_message,"
                       " error_code, error_retryable FROM sluice_attempts WHERE job_id::text = $1::text"
                       " ORDER BY attempt", &p, error);
  if (result == NULL)
    return FALSE;
  for (int row = 0; row < PQntuples (result); row++)
    g_ptr_array_add (reply->attempts, sluice_store_admin_attempt_of (ROW (result, row)));
  PQclear (result);
  return TRUE;
}

/* The change of a verb to the jobs that @where (with its @p) selects;
 * the tenants it woke are NOTIFYed (a retry's). How many it changed
 * into @changed. */
static gboolean
apply_verb (SluicePgConnection           *self,
            const SluiceStoreAdminQuery  *q,
            const char                   *where,
            Params                       *p,
            guint64                      *changed,
            GError                      **error)
{
  g_autofree char *sql = NULL;
  g_autofree char *now = g_strdup_printf ("%" G_GINT64_FORMAT "::bigint", q->now);
  PGresult *result;

  switch (q->op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      sql = g_strdup_printf ("WITH changed AS ("
                             " UPDATE sluice_jobs SET state = 'pending', available_at = %s, cancel_requested = false,"
                             "  attempts = %s, updated_at = %s%s RETURNING tenant)"
                             " SELECT count(*), (SELECT count(pg_notify(" SLUICE_PG_CHANNEL_SQL (SLUICE_PG_CHANNEL) ", t.tenant))"
                             "   FROM (SELECT DISTINCT tenant FROM changed) AS t) FROM changed",
                             now, q->reset_attempts ? "0" : "attempts", now, where);
      break;
    case SLUICE_STORE_ADMIN_CANCEL:
      /* Waiting jobs end at once; a running one's worker is told at its
       * next renew. */
      sql = g_strdup_printf ("WITH changed AS ("
                             " UPDATE sluice_jobs SET"
                             "  state = CASE WHEN state = 'running' THEN state ELSE 'cancelled' END,"
                             "  cancel_requested = state = 'running', updated_at = %s%s"
                             " RETURNING id, cancel_requested)"
                             /* The running ones' workers hear it now (docs/store-admin.md). */
                             " SELECT count(*), (SELECT count(pg_notify(" SLUICE_PG_CHANNEL_SQL (SLUICE_PG_CANCEL_CHANNEL) ", c.id::text))"
                             "   FROM changed AS c WHERE c.cancel_requested) FROM changed", now, where);
      break;
    case SLUICE_STORE_ADMIN_DISCARD:
      /* The attempts go with their job (ON DELETE CASCADE). */
      sql = g_strdup_printf ("WITH changed AS (DELETE FROM sluice_jobs%s RETURNING id)"
                             " SELECT count(*) FROM changed", where);
      break;
    default:
      g_assert_not_reached ();
    }
  result = exec (self, sql, p, error);
  if (result == NULL)
    return FALSE;
  *changed += (guint64) int_of (result, 0, 0);
  PQclear (result);
  return TRUE;
}

static gboolean
verb_by_ids (gpointer                      self,
             const SluiceStoreAdminQuery  *q,
             SluiceStoreAdminReply        *reply,
             gpointer                      data,
             GError                      **error)
{
  guint states = sluice_store_admin_verb_states (q);

  for (guint i = 0; q->ids[i] != NULL; i++)
    {
      g_auto(Params) p = { NULL };
      g_autoptr(GString) sql = g_string_new ("SELECT CASE WHEN state = 'pending' AND attempts = 0 AND available_at > ");
      PGresult *result;
      SluiceStoredJobState state = SLUICE_STORED_JOB_PENDING;
      gboolean found;

      params_init (&p);
      param_int (sql, &p, q->now);
      g_string_append (sql, " THEN 'scheduled' ELSE state END FROM sluice_jobs WHERE id::text = ");
      param (sql, &p, q->ids[i], "text");
      g_string_append (sql, " FOR UPDATE");
      result = exec (self, sql->str, &p, error);
      if (result == NULL)
        return FALSE;
      found = PQntuples (result) == 1 && sluice_stored_job_state_from_string (PQgetvalue (result, 0, 0), &state);
      PQclear (result);
      sluice_store_admin_add_item (q, reply, q->ids[i], found, state);
    }
  if (reply->matched > 1 && !q->confirmed)
    return TRUE;
  for (guint i = 0; i < reply->items->len; i++)
    {
      SluiceStoreAdminItem *item = g_ptr_array_index (reply->items, i);
      g_auto(Params) p = { NULL };
      g_autoptr(GString) where = g_string_new (NULL);

      if (!sluice_store_admin_item_applies (item))
        continue;
      params_init (&p);
      append_filter (where, &p, &(SluiceStoreAdminQuery) { .op = q->op, .now = q->now }, states, item->id);
      if (!apply_verb (self, q, where->str, &p, &reply->changed, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
verb_by_filter (gpointer                      self,
                const SluiceStoreAdminQuery  *q,
                SluiceStoreAdminReply        *reply,
                gpointer                      data,
                GError                      **error)
{
  g_auto(Params) p = { NULL };
  g_autoptr(GString) where = g_string_new (NULL);
  g_autofree char *count = NULL;
  PGresult *result;

  params_init (&p);
  append_filter (where, &p, q, sluice_store_admin_verb_states (q), NULL);
  count = g_strdup_printf ("SELECT count(*) FROM (SELECT id FROM sluice_jobs%s FOR UPDATE) AS locked", where->str);
  result = exec (self, count, &p, error);
  if (result == NULL)
    return FALSE;
  reply->matched = (guint64) int_of (result, 0, 0);
  PQclear (result);
  if (reply->matched == 0 || (reply->matched > 1 && !q->confirmed))
    return TRUE;
  return apply_verb (self, q, where->str, &p, &reply->changed, error);
}

static gboolean
tenant_control (gpointer                      self,
                const SluiceStoreAdminQuery  *q,
                SluiceStoreAdminReply        *reply,
                gpointer                      data,
                GError                      **error)
{
  g_auto(Params) p = { NULL };
  g_autoptr(GString) sql = g_string_new (NULL);

  params_init (&p);
  if (q->op == SLUICE_STORE_ADMIN_LIMIT)
    {
      g_string_append (sql, "INSERT INTO sluice_tenants (tenant, concurrency_limit) VALUES (");
      param (sql, &p, q->tenant, "text");
      g_string_append (sql, ", ");
      if (q->concurrency >= 0)
        param_int (sql, &p, q->concurrency);
      else
        g_string_append (sql, "NULL");
      g_string_append (sql, ") ON CONFLICT (tenant) DO UPDATE SET concurrency_limit = excluded.concurrency_limit");
    }
  else
    {
      g_string_append (sql, "INSERT INTO sluice_tenants (tenant, paused) VALUES (");
      param (sql, &p, q->tenant, "text");
      g_string_append_printf (sql, ", %s) ON CONFLICT (tenant) DO UPDATE SET paused = excluded.paused",
                              q->op == SLUICE_STORE_ADMIN_PAUSE ? "true" : "false");
    }
  if (!exec_done (self, sql->str, &p, error))
    return FALSE;
  if (q->op == SLUICE_STORE_ADMIN_PAUSE)
    return TRUE;
  /* Resumed, or more room: the tenant's idle workers claim again. */
  g_ptr_array_set_size (p.values, 1);
  return exec_done (self, "SELECT pg_notify(" SLUICE_PG_CHANNEL_SQL (SLUICE_PG_CHANNEL) ", $1::text)", &p, error);
}

static gboolean
list_tenants (gpointer                      self,
              const SluiceStoreAdminQuery  *q,
              SluiceStoreAdminReply        *reply,
              gpointer                      data,
              GError                      **error)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(Params) p = { NULL };
  PGresult *result;

  params_init (&p);
  g_ptr_array_add (p.values, g_strdup (q->tenant));
  g_ptr_array_add (p.values, g_strdup_printf ("%" G_GINT64_FORMAT, q->now));
  /* A pending job whose time is ahead is counted scheduled. */
  result = exec (self, "SELECT tenant, CASE WHEN state = 'pending' AND attempts = 0 AND available_at > $2::bigint"
                       " THEN 'scheduled' ELSE state END AS shown, count(*) FROM sluice_jobs"
                       " WHERE $1::text IS NULL OR tenant = $1::text GROUP BY tenant, shown", &p, error);
  if (result == NULL)
    return FALSE;
  for (int row = 0; row < PQntuples (result); row++)
    sluice_store_admin_add_count (by_name, reply->tenants, ROW (result, row));
  PQclear (result);
  g_ptr_array_set_size (p.values, 1);  /* the tenant only: a parameter unused is an error */
  result = exec (self, "SELECT tenant, paused, concurrency_limit FROM sluice_tenants"
                       " WHERE $1::text IS NULL OR tenant = $1::text", &p, error);
  if (result == NULL)
    return FALSE;
  for (int row = 0; row < PQntuples (result); row++)
    sluice_store_admin_add_control (by_name, reply->tenants, ROW (result, row));
  PQclear (result);
  sluice_store_admin_sort_tenants (reply->tenants);
  return TRUE;
}

G_STATIC_ASSERT (SLUICE_STORE_ADMIN_LOST_LEASES == 3);

static gboolean
list_workers (gpointer                      self,
              const SluiceStoreAdminQuery  *q,
              SluiceStoreAdminReply        *reply,
              gpointer                      data,
              GError                      **error)
{
  gboolean prune = q->op == SLUICE_STORE_ADMIN_PRUNE_WORKERS;
  g_auto(Params) p = { NULL };
  g_autofree char *now = g_strdup_printf ("%" G_GINT64_FORMAT, q->now);
  PGresult *result;

  params_init (&p);
  g_ptr_array_add (p.values, g_strdup (now));
  result = exec (self, prune ? "DELETE FROM sluice_workers WHERE heartbeat_at < $1::bigint - lease * 3"
                               " RETURNING id, host, pid, started_at, heartbeat_at, lease, tenants, done, failed, true"
                             : "SELECT id, host, pid, started_at, heartbeat_at, lease, tenants, done, failed,"
                               " heartbeat_at < $1::bigint - lease * 3 FROM sluice_workers ORDER BY started_at, id",
                 &p, error);
  if (result == NULL)
    return FALSE;
  for (int row = 0; row < PQntuples (result); row++)
    g_ptr_array_add (reply->workers, sluice_store_admin_worker_of (ROW (result, row)));
  PQclear (result);
  for (guint i = 0; !prune && i < reply->workers->len; i++)
    {
      SluiceStoreWorker *worker = g_ptr_array_index (reply->workers, i);
      g_auto(Params) owner = { NULL };

      params_init (&owner);
      g_ptr_array_add (owner.values, g_strdup (worker->id));
      if (!add_jobs (self, "SELECT " SLUICE_PG_JOB_COLUMNS " FROM sluice_jobs"
                           " WHERE state = 'running' AND lease_owner = $1::text ORDER BY lease_expires_at",
                     &owner, worker->claims, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
beat_worker (gpointer                      self,
             const SluiceStoreAdminQuery  *q,
             SluiceStoreAdminReply        *reply,
             gpointer                      data,
             GError                      **error)
{
  const SluiceStoreWorker *w = q->worker;
  g_auto(Params) p = { NULL };
  g_autoptr(GString) sql = g_string_new ("INSERT INTO sluice_workers (id, host, pid, started_at, heartbeat_at,"
                                         " lease, tenants, done, failed) VALUES (");

  params_init (&p);
  param (sql, &p, w->id, "text");
  g_string_append (sql, ", ");
  param (sql, &p, w->host != NULL ? w->host : "", "text");
  g_string_append (sql, ", ");
  param_int (sql, &p, w->pid);
  g_string_append (sql, ", ");
  param_int (sql, &p, w->started_at);
  g_string_append (sql, ", ");
  param_int (sql, &p, q->now);
  g_string_append (sql, ", ");
  param_int (sql, &p, w->lease);
  g_string_append (sql, ", ");
  param (sql, &p, w->tenants != NULL ? w->tenants : "", "text");
  g_string_append (sql, ", ");
  param_int (sql, &p, (gint64) w->done);
  g_string_append (sql, ", ");
  param_int (sql, &p, (gint64) w->failed);
  g_string_append (sql, ") ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid,"
                        " heartbeat_at = excluded.heartbeat_at, lease = excluded.lease,"
                        " tenants = excluded.tenants, done = excluded.done, failed = excluded.failed");
  return exec_done (self, sql->str, &p, error);
}

/* The attempts that ended after @since (see the SQLite store's). */
static gboolean
list_completions (gpointer                      self,
                  const SluiceStoreAdminQuery  *q,
                  SluiceStoreAdminReply        *reply,
                  gpointer                      data,
                  GError                      **error)
{
  g_auto(Params) p = { NULL };
  g_autoptr(GString) sql = g_string_new ("SELECT a.ended_at, a.outcome,"
                                         "       a.started_at - COALESCE (p.ended_at, j.created_at, a.started_at)"
                                         " FROM sluice_attempts a"
                                         " LEFT JOIN sluice_jobs j ON j.id = a.job_id"
                                         " LEFT JOIN sluice_attempts p ON p.job_id = a.job_id"
                                         "   AND p.attempt = a.attempt - 1"
                                         " WHERE a.ended_at IS NOT NULL AND a.ended_at > ");
  PGresult *result;

  params_init (&p);
  param_int (sql, &p, q->since);
  g_string_append (sql, " ORDER BY a.ended_at LIMIT ");
  param_int (sql, &p, q->limit);
  result = exec (self, sql->str, &p, error);
  if (result == NULL)
    return FALSE;
  for (int row = 0; row < PQntuples (result); row++)
    {
      SluiceStoreCompletion c = sluice_store_admin_completion_of (ROW (result, row));

      g_array_append_val (reply->completions, c);
    }
  PQclear (result);
  return TRUE;
}

/* The session may write (not read-only, as a store opened read-only
 * makes it, nor on a standby) and the user holds the privileges that the
 * verbs need on the jobs (has_table_privilege() of a list is "any of"). */
static gboolean
writable (gpointer                      self,
          const SluiceStoreAdminQuery  *q,
          SluiceStoreAdminReply        *reply,
          gpointer                      data,
          GError                      **error)
{
  PGresult *result = exec (self, "SELECT current_setting ('transaction_read_only') = 'off'"
                                 " AND NOT pg_is_in_recovery ()"
                                 " AND has_table_privilege ('sluice_jobs', 'INSERT')"
                                 " AND has_table_privilege ('sluice_jobs', 'UPDATE')"
                                 " AND has_table_privilege ('sluice_jobs', 'DELETE')", NULL, error);

  if (result == NULL)
    return FALSE;
  reply->writable = PQntuples (result) == 1 && g_str_equal (PQgetvalue (result, 0, 0), "t");
  PQclear (result);
  return TRUE;
}

static const SluiceStoreAdminSteps steps = {
  .list_jobs = list_jobs,
  .show_job = show_job,
  .verb_by_ids = verb_by_ids,
  .verb_by_filter = verb_by_filter,
  .tenant_control = tenant_control,
  .list_tenants = list_tenants,
  .list_workers = list_workers,
  .beat_worker = beat_worker,
  .list_completions = list_completions,
  .writable = writable,
};

/* One query, one transaction; a change that needed confirmation is
 * rolled back (it changed nothing). */
static void
pg_admin (SluiceStoreBackend *backend,
          SluiceStoreRequest *r)
{
  SluicePgConnection *self = sluice_pg_store_get_connection (SLUICE_PG_STORE (backend), r->lane);
  SluiceStoreAdminReply *reply = sluice_store_admin_reply_new ();
  gboolean ok;
  gboolean keep;

  r->value = reply;
  r->value_free = (GDestroyNotify) sluice_store_admin_reply_free;
  sluice_pg_connection_plan_per_values (self);
  ok = exec_done (self, "BEGIN", NULL, &r->error) && sluice_store_admin_answer (&steps, self, r->admin, reply, NULL, &r->error);
  keep = ok && !(reply->matched > 1 && !r->admin->confirmed);
  if (sluice_pg_connection_get_conn (self) == NULL)
    return;
  if (keep)
    exec_done (self, "COMMIT", NULL, &r->error);
  else
    PQclear (PQexec (sluice_pg_connection_get_conn (self), "ROLLBACK"));
}

void
sluice_pg_admin_class_init (SluiceStoreBackendClass *klass)
{
  klass->admin = pg_admin;
}
