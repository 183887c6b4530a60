/* sluice-sqlite-connection-admin.c: what an operator asks of a SQLite job
 * store (docs/store-admin.md), and the attempts' history the protocol
 * keeps for it
 *
 * Each query is one transaction: a read one for the lists, a write one
 * (BEGIN IMMEDIATE, as every write here) for the verbs, so that a verb's
 * count of the jobs it would touch and its change are of one moment. The
 * filters make their SQL as they go (a job list has up to six
 * conditions), so those statements are prepared for the call and not
 * cached.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-sqlite-connection-private.h"
#include "sluice-sqlite-store.h"
#include "sluice-store-admin-sql.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <unistd.h>

/* ---- the attempts' history (called inside the protocol's transactions) --- */

/* What the history of a job holds: how many attempts, the oldest, the
 * newest. */
static const char sql_history[] =
  "SELECT count(*), coalesce(min(attempt), 0), coalesce(max(attempt), 0) FROM sluice_attempts WHERE job_id = ?1";

/* Past the kept ones, the oldest goes and is counted. */
static const char sql_drop_oldest[] =
  "DELETE FROM sluice_attempts WHERE job_id = ?1 AND attempt = ?2";

static const char sql_count_dropped[] =
  "UPDATE sluice_jobs SET attempts_dropped = attempts_dropped + 1 WHERE id = ?1";

static const char sql_begin_attempt[] =
  "INSERT INTO sluice_attempts (job_id, attempt, worker, lease_token, started_at) VALUES (?1, ?2, ?3, ?4, ?5)";

/* The open attempt of a job ends; with no @outcome, a failure's: a job
 * an operator cancelled ends cancelled, a timeout timed out, a lost lease
 * lease_lost, the rest failed. */
static const char sql_end_attempt[] =
  "UPDATE sluice_attempts SET ended_at = ?2,"
  "  outcome = coalesce(?3, CASE WHEN (SELECT state FROM sluice_jobs WHERE id = ?1) = 'cancelled' THEN 'cancelled'"
  "                             WHEN ?6 = 'ATTEMPT_TIMEOUT' THEN 'timed_out'"
  "                             WHEN ?6 = 'LEASE_LOST' THEN 'lease_lost' ELSE 'failed' END),"
  "  error_type = ?4, error_message = ?5, error_code = ?6, error_retryable = ?7"
  " WHERE job_id = ?1 AND ended_at IS NULL";

static const char sql_forget_attempt[] =
  "DELETE FROM sluice_attempts WHERE job_id = ?1 AND ended_at IS NULL";

static gboolean
step_one (SluiceSqliteConnection  *self,
          const char              *sql,
          const char              *id,
          gint64                   number,
          GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql, error);

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, id);
  if (number >= 0)
    sqlite3_bind_int64 (stmt, 2, number);
  return sluice_sqlite_connection_step (self, stmt, error);
}

/* The history's count, oldest and newest attempt numbers. */
static gboolean
read_history (SluiceSqliteConnection  *self,
              const char              *id,
              gint64                   values[3],
              GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_history, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, id);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    for (int i = 0; i < 3; i++)
      values[i] = sqlite3_column_int64 (stmt, i);
  else
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  return rc == SQLITE_ROW;
}

/* A claim begins an attempt, numbered after the newest. (An empty history
 * has dropped none: once it dropped one it holds 24 or 25.) */
gboolean
sluice_sqlite_attempt_begin (SluiceSqliteConnection  *self,
                             const SluiceStoredJob   *job,
                             gint64                   now,
                             GError                 **error)
{
  gint64 history[3] = { 0, 0, 0 };
  sqlite3_stmt *stmt;

  if (!read_history (self, job->id, history, error))
    return FALSE;
  if (history[0] >= SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT &&
      (!step_one (self, sql_drop_oldest, job->id, history[1], error) ||
       !step_one (self, sql_count_dropped, job->id, -1, error)))
    return FALSE;
  stmt = sluice_sqlite_connection_prepare (self, sql_begin_attempt, error);
  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, job->id);
  sqlite3_bind_int64 (stmt, 2, history[2] + 1);
  sluice_sqlite_bind_text (stmt, 3, job->lease_owner);
  sluice_sqlite_bind_text (stmt, 4, job->lease_token);
  sqlite3_bind_int64 (stmt, 5, now);
  return sluice_sqlite_connection_step (self, stmt, error);
}

gboolean
sluice_sqlite_attempt_end (SluiceSqliteConnection  *self,
                           const char              *job_id,
                           const char              *outcome,
                           const SluiceJobFailure  *failure,
                           gint64                   now,
                           GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql_end_attempt, error);

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, job_id);
  sqlite3_bind_int64 (stmt, 2, now);
  sluice_sqlite_bind_text (stmt, 3, outcome);
  if (failure != NULL)
    {
      sluice_sqlite_bind_text (stmt, 4, failure->type_name != NULL ? failure->type_name : "");
      sluice_sqlite_bind_text (stmt, 5, failure->message != NULL ? failure->message : "");
      sluice_sqlite_bind_text (stmt, 6, failure->code != NULL ? failure->code : "");
      sqlite3_bind_int (stmt, 7, failure->retryable ? 1 : 0);
    }
  return sluice_sqlite_connection_step (self, stmt, error);
}

gboolean
sluice_sqlite_attempt_forget (SluiceSqliteConnection  *self,
                              const char              *job_id,
                              GError                 **error)
{
  return step_one (self, sql_forget_attempt, job_id, -1, error);
}

/* ---- statements made for one call ------------------------------------------ */

static sqlite3_stmt *
prepare_once (SluiceSqliteConnection  *self,
              const char              *sql,
              GError                 **error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (self->db, sql, -1, &stmt, NULL) != SQLITE_OK)
    {
      sluice_sqlite_connection_set_error (self, error);
      sqlite3_finalize (stmt);
      return NULL;
    }
  return stmt;
}

static void
bind_named_text (sqlite3_stmt *stmt,
                 const char   *name,
                 const char   *text)
{
  int index = sqlite3_bind_parameter_index (stmt, name);

  if (index > 0)
    sluice_sqlite_bind_text (stmt, index, text);
}

static void
bind_named_int (sqlite3_stmt *stmt,
                const char   *name,
                gint64        value)
{
  int index = sqlite3_bind_parameter_index (stmt, name);

  if (index > 0)
    sqlite3_bind_int64 (stmt, index, value);
}

/* A job's state as an operator sees it: a pending job whose time is
 * ahead of the query's now is scheduled (docs/store-admin.md). */
#define SHOWN_STATE "(CASE WHEN state = 'pending' AND attempts = 0 AND available_at > :now THEN 'scheduled' ELSE state END)"

/* The conditions of @q's filter, for a WHERE, with the states @states
 * (bits); parameters bound by bind_filter(). */
static void
append_filter (GString                     *sql,
               const SluiceStoreAdminQuery *q,
               guint                        states)
{
  g_string_append (sql, " WHERE 1");
  if (q->ids != NULL)
    g_string_append (sql, " AND id = :id");
  if (q->tenant != NULL)
    g_string_append (sql, " AND tenant = :tenant");
  if (states != 0)
    {
      g_string_append (sql, " AND " SHOWN_STATE " IN (");
      sluice_store_admin_append_states (sql, states);
      g_string_append (sql, ")");
    }
  if (q->key_prefix != NULL)
    g_string_append (sql, " AND operation_key LIKE :prefix ESCAPE '\\'");
  if (q->search != NULL)
    {
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;

      g_string_append (sql, " AND (operation_key LIKE :search ESCAPE '\\' OR payload LIKE :search ESCAPE '\\'");
      if (sluice_store_admin_split_field (q->search, &key, &value))
        g_string_append (sql, " OR (json_valid (payload) AND"
                              " CAST(json_extract (payload, '$.\"' || :field || '\"') AS TEXT) = :value)");
      g_string_append (sql, ")");
    }
  if (q->older_than > 0)
    g_string_append (sql, " AND updated_at < :older");
  if (q->after != NULL)
    g_string_append (sql, " AND created_seq < (SELECT created_seq FROM sluice_jobs WHERE id = :after)");
}

static void
bind_filter (sqlite3_stmt                *stmt,
             const SluiceStoreAdminQuery *q,
             const char                  *id)
{
  bind_named_text (stmt, ":id", id);
  bind_named_text (stmt, ":tenant", q->tenant);
  if (q->key_prefix != NULL)
    {
      g_autofree char *prefix = sluice_store_admin_like_pattern (q->key_prefix, TRUE);

      bind_named_text (stmt, ":prefix", prefix);
    }
  if (q->search != NULL)
    {
      g_autofree char *search = sluice_store_admin_like_pattern (q->search, FALSE);
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;

      bind_named_text (stmt, ":search", search);
      if (sluice_store_admin_split_field (q->search, &key, &value))
        {
          bind_named_text (stmt, ":field", key);
          bind_named_text (stmt, ":value", value);
        }
    }
  bind_named_int (stmt, ":older", q->older_than);
  bind_named_int (stmt, ":since", q->since);
  bind_named_text (stmt, ":after", q->after);
  bind_named_int (stmt, ":now", q->now);
  bind_named_int (stmt, ":limit", q->limit);
}

/* Runs @sql made for the call to its end; its rows each to @row. */
static gboolean
run_once (SluiceSqliteConnection       *self,
          const char                   *sql,
          const SluiceStoreAdminQuery  *q,
          const char                   *id,
          void                        (*row) (sqlite3_stmt *, gpointer),
          gpointer                      data,
          GError                      **error)
{
  sqlite3_stmt *stmt = prepare_once (self, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  bind_filter (stmt, q, id);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    if (row != NULL)
      row (stmt, data);
  if (rc != SQLITE_DONE)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_finalize (stmt);
  return rc == SQLITE_DONE;
}

static void
add_job_row (sqlite3_stmt *stmt,
             gpointer      data)
{
  g_ptr_array_add (data, sluice_sqlite_job_from_row (stmt));
}

static void
read_int_row (sqlite3_stmt *stmt,
              gpointer      data)
{
  *(gint64 *) data = sqlite3_column_int64 (stmt, 0);
}

/* A row of a statement, for the shared row mapping
 * (sluice-store-admin-sql.c). */
static gboolean
row_is_null (const SluiceStoreAdminRow *row,
             int                        column)
{
  return sqlite3_column_type ((sqlite3_stmt *) row->result, column) == SQLITE_NULL;
}

static gint64
row_int (const SluiceStoreAdminRow *row,
         int                        column)
{
  return sqlite3_column_int64 ((sqlite3_stmt *) row->result, column);
}

static gboolean
row_bool (const SluiceStoreAdminRow *row,
          int                        column)
{
  return sqlite3_column_int ((sqlite3_stmt *) row->result, column) != 0;
}

static const char *
row_text (const SluiceStoreAdminRow *row,
          int                        column)
{
  return (const char *) sqlite3_column_text ((sqlite3_stmt *) row->result, column);
}

/* The row @stmt stands on (a compound literal: it lives in the enclosing block). */
#define ROW(stmt) (&(SluiceStoreAdminRow) { row_is_null, row_int, row_bool, row_text, (stmt), 0 })

/* ---- the queries ------------------------------------------------------------ */

static gboolean
list_jobs (gpointer                      conn,
           const SluiceStoreAdminQuery  *q,
           SluiceStoreAdminReply        *reply,
           gpointer                      data,
           GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  g_autoptr(GString) sql = g_string_new ("SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs");
  gint64 found = 0;

  if (q->after != NULL)
    {
      SluiceStoreAdminQuery probe = { .ids = (char *[]) { q->after, NULL } };

      if (!run_once (self, "SELECT count(*) FROM sluice_jobs WHERE id = :id", &probe, q->after,
                     read_int_row, &found, error))
        return FALSE;
      if (found == 0)
        {
          sluice_store_admin_no_job_after (q, error);
          return FALSE;
        }
    }
  append_filter (sql, q, q->states);
  /* One more than the page: whether there is a next one. */
  g_string_append (sql, " ORDER BY created_seq DESC LIMIT :limit + 1");
  if (!run_once (self, sql->str, q, NULL, add_job_row, reply->jobs, error))
    return FALSE;
  sluice_store_admin_trim_page (q, reply);
  return TRUE;
}

static void
add_attempt_row (sqlite3_stmt *stmt,
                 gpointer      data)
{
  g_ptr_array_add (data, sluice_store_admin_attempt_of (ROW (stmt)));
}

static gboolean
show_job (gpointer                      conn,
          const SluiceStoreAdminQuery  *q,
          SluiceStoreAdminReply        *reply,
          gpointer                      data,
          GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  const char *id = q->ids != NULL ? q->ids[0] : NULL;
  gint64 dropped = 0;

  if (!run_once (self, "SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs WHERE id = :id", q, id,
                 add_job_row, reply->jobs, error))
    return FALSE;
  if (reply->jobs->len == 0)
    return TRUE;
  if (!run_once (self, "SELECT attempts_dropped FROM sluice_jobs WHERE id = :id", q, id,
                 read_int_row, &dropped, error) ||
      !run_once (self, "SELECT attempt, worker, started_at, ended_at, outcome, error_type, error_message,"
                       " error_code, error_retryable FROM sluice_attempts WHERE job_id = :id ORDER BY attempt",
                 q, id, add_attempt_row, reply->attempts, error))
    return FALSE;
  reply->attempts_dropped = (guint) dropped;
  return TRUE;
}

/* The change of a verb to the jobs its WHERE selects (@where: the filter
 * with the states it applies to). */
static gboolean
apply_verb (SluiceSqliteConnection       *self,
            const SluiceStoreAdminQuery  *q,
            const char                   *where,
            const char                   *id,
            GError                      **error)
{
  g_autofree char *sql = NULL;
  g_autofree char *attempts = NULL;

  switch (q->op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      sql = g_strdup_printf ("UPDATE sluice_jobs SET state = 'pending', available_at = :now, cancel_requested = 0,"
                             " attempts = %s, updated_at = :now%s",
                             q->reset_attempts ? "0" : "attempts", where);
      break;
    case SLUICE_STORE_ADMIN_CANCEL:
      /* Waiting jobs end at once; a running one's worker is told at its
       * next renew. */
      sql = g_strdup_printf ("UPDATE sluice_jobs SET"
                             " state = CASE WHEN state = 'running' THEN state ELSE 'cancelled' END,"
                             " cancel_requested = CASE WHEN state = 'running' THEN 1 ELSE 0 END,"
                             " updated_at = :now%s", where);
      break;
    case SLUICE_STORE_ADMIN_DISCARD:
      attempts = g_strdup_printf ("DELETE FROM sluice_attempts WHERE job_id IN (SELECT id FROM sluice_jobs%s)",
                                  where);
      if (!run_once (self, attempts, q, id, NULL, NULL, error))
        return FALSE;
      sql = g_strdup_printf ("DELETE FROM sluice_jobs%s", where);
      break;
    default:
      g_assert_not_reached ();
    }
  return run_once (self, sql, q, id, NULL, NULL, error);
}

typedef struct
{
  gboolean found;
  SluiceStoredJobState state;
  char *tenant;
} Found;

static void
read_state_row (sqlite3_stmt *stmt,
                gpointer      data)
{
  Found *found = data;

  found->found = sluice_stored_job_state_from_string ((const char *) sqlite3_column_text (stmt, 0), &found->state);
  found->tenant = sluice_sqlite_column_text (stmt, 1);
}

/* A verb on jobs by id: each id's report; nothing changes when more than
 * one would and the query is not confirmed. */
static gboolean
verb_by_ids (gpointer                      conn,
             const SluiceStoreAdminQuery  *q,
             SluiceStoreAdminReply        *reply,
             gpointer                      data,
             GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  guint states = sluice_store_admin_verb_states (q);
  g_autoptr(GString) where = g_string_new (NULL);

  for (guint i = 0; q->ids[i] != NULL; i++)
    {
      Found found = { FALSE };
      SluiceStoreAdminItem *item;

      if (!run_once (self, "SELECT " SHOWN_STATE ", tenant FROM sluice_jobs WHERE id = :id", q, q->ids[i],
                     read_state_row, &found, error))
        return FALSE;
      item = sluice_store_admin_add_item (q, reply, q->ids[i], found.found, found.state);
      if (sluice_store_admin_item_applies (item) && q->op == SLUICE_STORE_ADMIN_RETRY)
        g_hash_table_add (data, g_strdup (found.tenant));
      g_free (found.tenant);
    }
  if (reply->matched > 1 && !q->confirmed)
    return TRUE;

  g_string_append (where, " WHERE id = :id AND " SHOWN_STATE " IN (");
  sluice_store_admin_append_states (where, states);
  g_string_append (where, ")");
  for (guint i = 0; i < reply->items->len; i++)
    {
      SluiceStoreAdminItem *item = g_ptr_array_index (reply->items, i);

      if (!sluice_store_admin_item_applies (item))
        continue;
      if (!apply_verb (self, q, where->str, item->id, error))
        return FALSE;
      reply->changed += sqlite3_changes (self->db);
    }
  return TRUE;
}

static void
add_tenant_name (sqlite3_stmt *stmt,
                 gpointer      data)
{
  g_hash_table_add (data, sluice_sqlite_column_text (stmt, 0));
}

/* A verb on the jobs of a filter. */
static gboolean
verb_by_filter (gpointer                      conn,
                const SluiceStoreAdminQuery  *q,
                SluiceStoreAdminReply        *reply,
                gpointer                      data,
                GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  g_autoptr(GString) where = g_string_new (NULL);
  g_autofree char *count = NULL;
  g_autofree char *tenants = NULL;
  gint64 matched = 0;

  append_filter (where, q, sluice_store_admin_verb_states (q));
  count = g_strdup_printf ("SELECT count(*) FROM sluice_jobs%s", where->str);
  if (!run_once (self, count, q, NULL, read_int_row, &matched, error))
    return FALSE;
  reply->matched = (guint64) matched;
  if (reply->matched == 0 || (reply->matched > 1 && !q->confirmed))
    return TRUE;
  tenants = g_strdup_printf ("SELECT DISTINCT tenant FROM sluice_jobs%s", where->str);
  if (q->op == SLUICE_STORE_ADMIN_RETRY && !run_once (self, tenants, q, NULL, add_tenant_name, data, error))
    return FALSE;
  if (!apply_verb (self, q, where->str, NULL, error))
    return FALSE;
  reply->changed = (guint64) sqlite3_changes (self->db);
  return TRUE;
}

static gboolean
tenant_control (gpointer                      conn,
                const SluiceStoreAdminQuery  *q,
                SluiceStoreAdminReply        *reply,
                gpointer                      data,
                GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  const char *sql;

  /* Resumed, or more room: the tenant's idle workers claim again. */
  if (q->op != SLUICE_STORE_ADMIN_PAUSE)
    g_hash_table_add (data, g_strdup (q->tenant));
  switch (q->op)
    {
    case SLUICE_STORE_ADMIN_PAUSE:
    case SLUICE_STORE_ADMIN_RESUME:
      sql = q->op == SLUICE_STORE_ADMIN_PAUSE
              ? "INSERT INTO sluice_tenants (tenant, paused) VALUES (:tenant, 1)"
                " ON CONFLICT (tenant) DO UPDATE SET paused = 1"
              : "INSERT INTO sluice_tenants (tenant, paused) VALUES (:tenant, 0)"
                " ON CONFLICT (tenant) DO UPDATE SET paused = 0";
      return run_once (self, sql, q, NULL, NULL, NULL, error);
    default:
      {
        g_autofree char *limit = q->concurrency >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, q->concurrency)
                                                     : g_strdup ("NULL");
        g_autofree char *text = g_strdup_printf ("INSERT INTO sluice_tenants (tenant, concurrency_limit)"
                                                 " VALUES (:tenant, %s)"
                                                 " ON CONFLICT (tenant) DO UPDATE SET concurrency_limit = %s",
                                                 limit, limit);

        return run_once (self, text, q, NULL, NULL, NULL, error);
      }
    }
}

typedef struct
{
  GHashTable *by_name;
  GPtrArray  *list;
} Tenants;

static void
add_count_row (sqlite3_stmt *stmt,
               gpointer      data)
{
  Tenants *t = data;

  sluice_store_admin_add_count (t->by_name, t->list, ROW (stmt));
}

static void
add_control_row (sqlite3_stmt *stmt,
                 gpointer      data)
{
  Tenants *t = data;

  sluice_store_admin_add_control (t->by_name, t->list, ROW (stmt));
}

static gboolean
list_tenants (gpointer                      conn,
              const SluiceStoreAdminQuery  *q,
              SluiceStoreAdminReply        *reply,
              gpointer                      data,
              GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  Tenants t = { by_name, reply->tenants };

  if (!run_once (self, "SELECT tenant, " SHOWN_STATE " AS shown, count(*) FROM sluice_jobs"
                       " WHERE (:tenant IS NULL OR tenant = :tenant) GROUP BY tenant, shown",
                 q, NULL, add_count_row, &t, error) ||
      !run_once (self, "SELECT tenant, paused, concurrency_limit FROM sluice_tenants"
                       " WHERE (:tenant IS NULL OR tenant = :tenant)",
                 q, NULL, add_control_row, &t, error))
    return FALSE;
  sluice_store_admin_sort_tenants (reply->tenants);
  return TRUE;
}

static void
add_worker_row (sqlite3_stmt *stmt,
                gpointer      data)
{
  g_ptr_array_add (data, sluice_store_admin_worker_of (ROW (stmt)));
}

#define WORKER_COLUMNS \
  "id, host, pid, started_at, heartbeat_at, lease, tenants, done, failed, " \
  "heartbeat_at < :now - lease * 3"

G_STATIC_ASSERT (SLUICE_STORE_ADMIN_LOST_LEASES == 3);

static gboolean
list_workers (gpointer                      conn,
              const SluiceStoreAdminQuery  *q,
              SluiceStoreAdminReply        *reply,
              gpointer                      data,
              GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  gboolean prune = q->op == SLUICE_STORE_ADMIN_PRUNE_WORKERS;

  if (!run_once (self, prune ? "SELECT " WORKER_COLUMNS " FROM sluice_workers"
                               " WHERE heartbeat_at < :now - lease * 3 ORDER BY started_at, id"
                             : "SELECT " WORKER_COLUMNS " FROM sluice_workers ORDER BY started_at, id",
                 q, NULL, add_worker_row, reply->workers, error))
    return FALSE;
  if (prune)
    return run_once (self, "DELETE FROM sluice_workers WHERE heartbeat_at < :now - lease * 3",
                     q, NULL, NULL, NULL, error);
  for (guint i = 0; i < reply->workers->len; i++)
    {
      SluiceStoreWorker *worker = g_ptr_array_index (reply->workers, i);

      if (!run_once (self, "SELECT " SLUICE_SQLITE_JOB_COLUMNS " FROM sluice_jobs"
                           " WHERE state = 'running' AND lease_owner = :id ORDER BY lease_expires_at",
                     q, worker->id, add_job_row, worker->claims, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
beat_worker (gpointer                      conn,
             const SluiceStoreAdminQuery  *q,
             SluiceStoreAdminReply        *reply,
             gpointer                      data,
             GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  const SluiceStoreWorker *w = q->worker;
  sqlite3_stmt *stmt = prepare_once (self,
                                     "INSERT INTO sluice_workers (id, host, pid, started_at, heartbeat_at, lease,"
                                     "                            tenants, done, failed)"
                                     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
                                     " ON CONFLICT (id) DO UPDATE SET host = ?2, pid = ?3, heartbeat_at = ?5,"
                                     "   lease = ?6, tenants = ?7, done = ?8, failed = ?9", error);
  gboolean ok;

  if (stmt == NULL)
    return FALSE;
  sluice_sqlite_bind_text (stmt, 1, w->id);
  sluice_sqlite_bind_text (stmt, 2, w->host != NULL ? w->host : "");
  sqlite3_bind_int64 (stmt, 3, w->pid);
  sqlite3_bind_int64 (stmt, 4, w->started_at);
  sqlite3_bind_int64 (stmt, 5, q->now);
  sqlite3_bind_int64 (stmt, 6, w->lease);
  sluice_sqlite_bind_text (stmt, 7, w->tenants != NULL ? w->tenants : "");
  sqlite3_bind_int64 (stmt, 8, (gint64) w->done);
  sqlite3_bind_int64 (stmt, 9, (gint64) w->failed);
  ok = sqlite3_step (stmt) == SQLITE_DONE;
  if (!ok)
    sluice_sqlite_connection_set_error (self, error);
  sqlite3_finalize (stmt);
  return ok;
}

static void
add_completion_row (sqlite3_stmt *stmt,
                    gpointer      data)
{
  SluiceStoreCompletion c = sluice_store_admin_completion_of (ROW (stmt));

  g_array_append_val (data, c);
}

/* The attempts that ended after :since; a job discarded since keeps no
 * time of its own: its attempt then waited 0 (a first attempt) or from
 * its previous one. */
static gboolean
list_completions (gpointer                      conn,
                  const SluiceStoreAdminQuery  *q,
                  SluiceStoreAdminReply        *reply,
                  gpointer                      data,
                  GError                      **error)
{
  SluiceSqliteConnection *self = conn;

  return run_once (self, "SELECT a.ended_at, a.outcome,"
                         "       a.started_at - COALESCE (p.ended_at, j.created_at, a.started_at)"
                         " FROM sluice_attempts a"
                         " LEFT JOIN sluice_jobs j ON j.id = a.job_id"
                         " LEFT JOIN sluice_attempts p ON p.job_id = a.job_id AND p.attempt = a.attempt - 1"
                         " WHERE a.ended_at IS NOT NULL AND a.ended_at > :since"
                         " ORDER BY a.ended_at LIMIT :limit",
                   q, NULL, add_completion_row, reply->completions, error);
}

static gboolean
is_write (SluiceStoreAdminOp op)
{
  return op != SLUICE_STORE_ADMIN_LIST_JOBS && op != SLUICE_STORE_ADMIN_SHOW &&
         op != SLUICE_STORE_ADMIN_TENANTS && op != SLUICE_STORE_ADMIN_WORKERS &&
         op != SLUICE_STORE_ADMIN_COMPLETIONS &&
         op != SLUICE_STORE_ADMIN_WRITABLE;
}

/* Opened for writing (SQLite falls back to read-only, silently, for a
 * file it may not write), and the file and its folder (the journal's
 * files are made there) writable: access() also says EROFS for a
 * read-only file system. */
static gboolean
writable (gpointer                      conn,
          const SluiceStoreAdminQuery  *q,
          SluiceStoreAdminReply        *reply,
          gpointer                      data,
          GError                      **error)
{
  SluiceSqliteConnection *self = conn;
  g_autofree char *folder = g_path_get_dirname (self->path);

  reply->writable = sqlite3_db_readonly (self->db, "main") == 0 &&
                    g_access (self->path, W_OK) == 0 && g_access (folder, W_OK) == 0;
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

/* One query, one transaction; the tenants whose jobs it made claimable
 * (a retry, a resume, a higher limit) are woken in this process. */
static void
sqlite_admin (SluiceStoreBackend *backend,
              SluiceStoreRequest *r)
{
  SluiceSqliteConnection *self = sluice_sqlite_store_get_connection (SLUICE_SQLITE_STORE (backend));
  SluiceStoreAdminReply *reply = sluice_store_admin_reply_new ();
  g_autoptr(GHashTable) woken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GError *error = NULL;
  gboolean ok;

  r->value = reply;
  r->value_free = (GDestroyNotify) sluice_store_admin_reply_free;
  ok = sluice_sqlite_connection_exec (self, is_write (r->admin->op) ? "BEGIN IMMEDIATE" : "BEGIN", &error) &&
       sluice_store_admin_answer (&steps, self, r->admin, reply, woken, &error);
  /* A change that needed confirmation changed nothing: rolled back. */
  if (ok && reply->matched > 1 && !r->admin->confirmed && reply->changed == 0)
    sluice_sqlite_connection_end (self, FALSE, NULL);
  else if (!sluice_sqlite_connection_end (self, ok, &error))
    ok = FALSE;
  if (!ok)
    {
      r->error = error != NULL ? error : g_error_new_literal (SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND, "?");
      return;
    }
  g_clear_error (&error);
  if (reply->changed > 0 || r->admin->op == SLUICE_STORE_ADMIN_RESUME || r->admin->op == SLUICE_STORE_ADMIN_LIMIT)
    {
      GHashTableIter iter;
      gpointer name;

      g_hash_table_iter_init (&iter, woken);
      while (g_hash_table_iter_next (&iter, &name, NULL))
        sluice_store_backend_announce (backend, name);
    }
}

void
sluice_sqlite_admin_class_init (SluiceStoreBackendClass *klass)
{
  klass->admin = sqlite_admin;
}
