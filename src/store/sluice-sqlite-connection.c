/* sluice-sqlite-connection.c: SluiceSqliteStore's connection: opening,
 * settings, the versioned schema, and the helpers its SQL uses
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-sqlite-connection-private.h"

#include <glib/gi18n-lib.h>

#include "sluice-sqlite-store.h"

/* Writers of other processes queue on the file's lock this long. */
#define BUSY_TIMEOUT_MS 5000

/* ---- schema ------------------------------------------------------------ */

/* Migration N (1-based) brings a file from schema version N - 1 to N. */
static const char *const migrations[] = {
  "CREATE TABLE sluice_jobs ("
  "  created_seq INTEGER PRIMARY KEY,"
  "  id TEXT NOT NULL UNIQUE,"
  "  tenant TEXT NOT NULL CHECK (tenant <> ''),"
  "  operation_key TEXT NOT NULL CHECK (operation_key <> ''),"
  "  payload TEXT NOT NULL,"
  "  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'retry_wait', 'succeeded', 'dead')),"
  "  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),"
  "  max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),"
  "  available_at INTEGER NOT NULL,"
  "  lease_owner TEXT,"
  "  lease_token TEXT,"
  "  lease_expires_at INTEGER,"
  "  last_failure_type TEXT,"
  "  last_failure_message TEXT,"
  "  last_failure_code TEXT,"
  "  last_failure_retryable INTEGER,"
  "  result TEXT,"
  "  created_at INTEGER NOT NULL,"
  "  updated_at INTEGER NOT NULL,"
  "  UNIQUE (tenant, operation_key)"
  ");"
  "CREATE INDEX sluice_jobs_claimable ON sluice_jobs (tenant, available_at, created_seq)"
  "  WHERE state IN ('pending', 'retry_wait');"
  "CREATE INDEX sluice_jobs_leased ON sluice_jobs (lease_expires_at)"
  "  WHERE state = 'running';"
  "CREATE INDEX sluice_jobs_states ON sluice_jobs (tenant, state);"
  "CREATE INDEX sluice_jobs_failed ON sluice_jobs (updated_at)"
  "  WHERE last_failure_type IS NOT NULL;",

  /* 2 (docs/store-admin.md): the state cancelled (SQLite changes a CHECK
   * only by making the table again), a cancel asked of a running job, the
   * count of attempts older than the history keeps; the attempts'
   * history, the workers and the tenants' controls. */
  "CREATE TABLE sluice_jobs_2 ("
  "  created_seq INTEGER PRIMARY KEY,"
  "  id TEXT NOT NULL UNIQUE,"
  "  tenant TEXT NOT NULL CHECK (tenant <> ''),"
  "  operation_key TEXT NOT NULL CHECK (operation_key <> ''),"
  "  payload TEXT NOT NULL,"
  "  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'retry_wait', 'succeeded', 'dead', 'cancelled')),"
  "  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),"
  "  max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),"
  "  available_at INTEGER NOT NULL,"
  "  lease_owner TEXT,"
  "  lease_token TEXT,"
  "  lease_expires_at INTEGER,"
  "  last_failure_type TEXT,"
  "  last_failure_message TEXT,"
  "  last_failure_code TEXT,"
  "  last_failure_retryable INTEGER,"
  "  result TEXT,"
  "  created_at INTEGER NOT NULL,"
  "  updated_at INTEGER NOT NULL,"
  "  cancel_requested INTEGER NOT NULL DEFAULT 0,"
  "  attempts_dropped INTEGER NOT NULL DEFAULT 0,"
  "  UNIQUE (tenant, operation_key)"
  ");"
  "INSERT INTO sluice_jobs_2 (created_seq, id, tenant, operation_key, payload, state, attempts, max_attempts,"
  "  available_at, lease_owner, lease_token, lease_expires_at, last_failure_type, last_failure_message,"
  "  last_failure_code, last_failure_retryable, result, created_at, updated_at)"
  " SELECT created_seq, id, tenant, operation_key, payload, state, attempts, max_attempts,"
  "  available_at, lease_owner, lease_token, lease_expires_at, last_failure_type, last_failure_message,"
  "  last_failure_code, last_failure_retryable, result, created_at, updated_at FROM sluice_jobs;"
  "DROP TABLE sluice_jobs;"
  "ALTER TABLE sluice_jobs_2 RENAME TO sluice_jobs;"
  "CREATE INDEX sluice_jobs_claimable ON sluice_jobs (tenant, available_at, created_seq)"
  "  WHERE state IN ('pending', 'retry_wait');"
  "CREATE INDEX sluice_jobs_leased ON sluice_jobs (lease_expires_at)"
  "  WHERE state = 'running';"
  "CREATE INDEX sluice_jobs_states ON sluice_jobs (tenant, state);"
  "CREATE INDEX sluice_jobs_failed ON sluice_jobs (updated_at)"
  "  WHERE last_failure_type IS NOT NULL;"
  "CREATE TABLE sluice_attempts ("
  "  job_id TEXT NOT NULL,"
  "  attempt INTEGER NOT NULL,"
  "  worker TEXT,"
  "  lease_token TEXT,"
  "  started_at INTEGER NOT NULL,"
  "  ended_at INTEGER,"
  "  outcome TEXT CHECK (outcome IN ('succeeded', 'failed', 'timed_out', 'lease_lost', 'cancelled')),"
  "  error_type TEXT,"
  "  error_message TEXT,"
  "  error_code TEXT,"
  "  error_retryable INTEGER,"
  "  PRIMARY KEY (job_id, attempt)"
  ") WITHOUT ROWID;"
  "CREATE TABLE sluice_workers ("
  "  id TEXT PRIMARY KEY,"
  "  host TEXT NOT NULL,"
  "  pid INTEGER NOT NULL,"
  "  started_at INTEGER NOT NULL,"
  "  heartbeat_at INTEGER NOT NULL,"
  "  lease INTEGER NOT NULL,"
  "  tenants TEXT NOT NULL,"
  "  done INTEGER NOT NULL DEFAULT 0,"
  "  failed INTEGER NOT NULL DEFAULT 0"
  ");"
  "CREATE TABLE sluice_tenants ("
  "  tenant TEXT PRIMARY KEY,"
  "  paused INTEGER NOT NULL DEFAULT 0,"
  "  concurrency_limit INTEGER"
  ");",
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == SLUICE_SQLITE_STORE_SCHEMA_VERSION);

/* The columns of SLUICE_SQLITE_JOB_COLUMNS. */
enum {
  COL_ID, COL_TENANT, COL_OPERATION_KEY, COL_PAYLOAD, COL_STATE, COL_ATTEMPTS,
  COL_MAX_ATTEMPTS, COL_AVAILABLE_AT, COL_LEASE_OWNER, COL_LEASE_TOKEN,
  COL_LEASE_EXPIRES_AT, COL_FAILURE_TYPE, COL_FAILURE_MESSAGE, COL_FAILURE_CODE,
  COL_FAILURE_RETRYABLE, COL_RESULT, COL_UPDATED_AT, COL_CREATED_AT, COL_CANCEL_REQUESTED,
};

static void
finalize_statement (gpointer stmt)
{
  sqlite3_finalize (stmt);
}

/* ---- helpers ------------------------------------------------------------- */

/* SQLite's own message, of the call that just failed on @self. */
void
sluice_sqlite_connection_set_error (SluiceSqliteConnection  *self,
                                    GError                 **error)
{
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND,
               /* Translators: the first %s is the store's file, the second SQLite's message */
               _("Job store %s: %s"), self->path, sqlite3_errmsg (self->db));
}

/* A cached statement, reset and unbound. */
sqlite3_stmt *
sluice_sqlite_connection_prepare (SluiceSqliteConnection  *self,
                                  const char              *sql,
                                  GError                 **error)
{
  sqlite3_stmt *stmt = g_hash_table_lookup (self->statements, sql);

  if (stmt != NULL)
    {
      sqlite3_reset (stmt);
      sqlite3_clear_bindings (stmt);
      return stmt;
    }
  if (sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL) != SQLITE_OK)
    {
      sluice_sqlite_connection_set_error (self, error);
      sqlite3_finalize (stmt);
      return NULL;
    }
  g_hash_table_insert (self->statements, (gpointer) sql, stmt);
  return stmt;
}

void
sluice_sqlite_bind_text (sqlite3_stmt *stmt,
                         int           index,
                         const char   *text)
{
  if (text != NULL)
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, index);
}

/* Runs SQL without results (several statements, no parameters). */
gboolean
sluice_sqlite_connection_exec (SluiceSqliteConnection  *self,
                               const char              *sql,
                               GError                 **error)
{
  if (sqlite3_exec (self->db, sql, NULL, NULL, NULL) == SQLITE_OK)
    return TRUE;
  sluice_sqlite_connection_set_error (self, error);
  return FALSE;
}

/* A statement run to its end; its changes counted by sqlite3_changes(). */
gboolean
sluice_sqlite_connection_step (SluiceSqliteConnection  *self,
                               sqlite3_stmt            *stmt,
                               GError                 **error)
{
  int rc = sqlite3_step (stmt);

  if (rc == SQLITE_ROW || rc == SQLITE_DONE)
    {
      sqlite3_reset (stmt);
      return TRUE;
    }
  sluice_sqlite_connection_set_error (self, error);
  sqlite3_reset (stmt);
  return FALSE;
}

static void
rollback (SluiceSqliteConnection *self)
{
  if (!sqlite3_get_autocommit (self->db))
    sqlite3_exec (self->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Ends a transaction: COMMIT if @ok, else ROLLBACK. */
gboolean
sluice_sqlite_connection_end (SluiceSqliteConnection  *self,
                              gboolean                 ok,
                              GError                 **error)
{
  if (ok && sluice_sqlite_connection_exec (self, "COMMIT", error))
    return TRUE;
  rollback (self);
  return FALSE;
}

char *
sluice_sqlite_column_text (sqlite3_stmt *stmt,
                           int           column)
{
  return g_strdup ((const char *) sqlite3_column_text (stmt, column));
}

SluiceStoredJob *
sluice_sqlite_job_from_row (sqlite3_stmt *stmt)
{
  SluiceStoredJob *job = g_new0 (SluiceStoredJob, 1);

  job->id = sluice_sqlite_column_text (stmt, COL_ID);
  job->tenant = sluice_sqlite_column_text (stmt, COL_TENANT);
  job->operation_key = sluice_sqlite_column_text (stmt, COL_OPERATION_KEY);
  job->payload = sluice_sqlite_column_text (stmt, COL_PAYLOAD);
  if (!sluice_stored_job_state_from_string ((const char *) sqlite3_column_text (stmt, COL_STATE),
                                            &job->state))
    job->state = SLUICE_STORED_JOB_DEAD;  /* cannot be: the table's CHECK */
  job->attempts = (guint) sqlite3_column_int64 (stmt, COL_ATTEMPTS);
  job->max_attempts = (guint) sqlite3_column_int64 (stmt, COL_MAX_ATTEMPTS);
  job->available_at = sqlite3_column_int64 (stmt, COL_AVAILABLE_AT);
  job->lease_owner = sluice_sqlite_column_text (stmt, COL_LEASE_OWNER);
  job->lease_token = sluice_sqlite_column_text (stmt, COL_LEASE_TOKEN);
  job->lease_expires_at = sqlite3_column_int64 (stmt, COL_LEASE_EXPIRES_AT);
  if (sqlite3_column_type (stmt, COL_FAILURE_TYPE) != SQLITE_NULL)
    job->last_failure = sluice_job_failure_new ((const char *) sqlite3_column_text (stmt, COL_FAILURE_TYPE),
                                                (const char *) sqlite3_column_text (stmt, COL_FAILURE_MESSAGE),
                                                (const char *) sqlite3_column_text (stmt, COL_FAILURE_CODE),
                                                sqlite3_column_int (stmt, COL_FAILURE_RETRYABLE) != 0);
  job->result = sluice_sqlite_column_text (stmt, COL_RESULT);
  job->updated_at = sqlite3_column_int64 (stmt, COL_UPDATED_AT);
  job->created_at = sqlite3_column_int64 (stmt, COL_CREATED_AT);
  job->cancel_requested = sqlite3_column_int (stmt, COL_CANCEL_REQUESTED) != 0;
  return job;
}

/* ---- opening: settings and schema --------------------------------------- */

static gboolean
use_wal (SluiceSqliteConnection  *self,
         GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, "PRAGMA journal_mode = WAL", error);
  const char *mode;

  if (stmt == NULL)
    return FALSE;
  if (sqlite3_step (stmt) != SQLITE_ROW)
    {
      sluice_sqlite_connection_set_error (self, error);
      sqlite3_reset (stmt);
      return FALSE;
    }
  mode = (const char *) sqlite3_column_text (stmt, 0);
  if (mode != NULL && g_ascii_strcasecmp (mode, "wal") == 0)
    {
      sqlite3_reset (stmt);
      return TRUE;
    }
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND,
               /* Translators: %s is the store's file; WAL is SQLite's journal mode */
               _("Job store %s: SQLite cannot use WAL mode for it"), self->path);
  sqlite3_reset (stmt);
  return FALSE;
}

static gboolean
query_int (SluiceSqliteConnection  *self,
           const char              *sql,
           gint64                  *value,
           gboolean                *is_null,
           GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self, sql, error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  rc = sqlite3_step (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      sluice_sqlite_connection_set_error (self, error);
      sqlite3_reset (stmt);
      return FALSE;
    }
  *is_null = rc == SQLITE_DONE || sqlite3_column_type (stmt, 0) == SQLITE_NULL;
  *value = *is_null ? 0 : sqlite3_column_int64 (stmt, 0);
  sqlite3_reset (stmt);
  return TRUE;
}

/* The first names of the file's own tables, views, indexes and triggers
 * (not SQLite's), such as "orders, users, …"; NULL for a file that has
 * none. */
static gboolean
other_objects (SluiceSqliteConnection  *self,
               char                   **names,
               GError                 **error)
{
  sqlite3_stmt *stmt = sluice_sqlite_connection_prepare (self,
                                                         "SELECT name FROM sqlite_master"
                                                         " WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
                                                         " ORDER BY name LIMIT 4", error);
  g_autoptr(GString) list = NULL;
  guint n = 0;
  int rc;

  if (stmt == NULL)
    return FALSE;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      if (list == NULL)
        list = g_string_new (NULL);
      else
        g_string_append (list, ", ");
      g_string_append (list, ++n < 4 ? (const char *) sqlite3_column_text (stmt, 0) : "…");
    }
  if (rc != SQLITE_DONE)
    {
      sluice_sqlite_connection_set_error (self, error);
      sqlite3_reset (stmt);
      return FALSE;
    }
  sqlite3_reset (stmt);
  *names = list != NULL ? g_string_free (g_steal_pointer (&list), FALSE) : NULL;
  return TRUE;
}

/* A file without sluice_schema: a job store may be made in it when it has
 * no tables at all (a new file), or when @mode says init; never when it is
 * read-only. */
static gboolean
may_make_store (SluiceSqliteConnection  *self,
                SluiceJobStoreOpen       mode,
                GError                 **error)
{
  g_autofree char *others = NULL;

  if (!other_objects (self, &others, error))
    return FALSE;
  if (mode == SLUICE_JOB_STORE_OPEN_READ_ONLY && others == NULL)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                 /* Translators: %s is the store's file */
                 _("Job store %s: the file has no job store yet (a worker or sluice-run enqueue makes it)"),
                 self->path);
  else if (mode == SLUICE_JOB_STORE_OPEN_READ_ONLY)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                 /* Translators: the store's file, then the names of its first tables */
                 _("Job store %s: it is not a Sluice job store: it has other tables (%s) and no sluice_schema"),
                 self->path, others);
  else if (mode == SLUICE_JOB_STORE_OPEN_READ_WRITE && others != NULL)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                 /* Translators: the store's file, then the names of its first tables */
                 _("Job store %s: it is not a Sluice job store: it has other tables (%s) and no sluice_schema; "
                   "a job store is made beside them only when asked (sluice-run enqueue or worker with --init)"),
                 self->path, others);
  else
    return TRUE;
  return FALSE;
}

/* Inside the schema transaction: the file's version, 0 for a file without
 * a job store that may get one (may_make_store()); a table of ours
 * without a version is not a job store. */
static gboolean
schema_version (SluiceSqliteConnection  *self,
                SluiceJobStoreOpen       mode,
                gint64                  *version,
                GError                 **error)
{
  gboolean is_null;
  gint64 n_tables;

  if (!query_int (self, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'sluice_schema'",
                  &n_tables, &is_null, error))
    return FALSE;
  if (n_tables > 0)
    return query_int (self, "SELECT max(version) FROM sluice_schema", version, &is_null, error);
  *version = 0;
  if (!query_int (self, "SELECT count(*) FROM sqlite_master WHERE name = 'sluice_jobs'",
                  &n_tables, &is_null, error))
    return FALSE;
  if (n_tables == 0)
    return may_make_store (self, mode, error);
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA,
               _("Job store %s: it has a table sluice_jobs but no schema version; "
                 "it is not a Sluice job store"), self->path);
  return FALSE;
}

static gboolean
migrate (SluiceSqliteConnection  *self,
         gint64                   from,
         GError                 **error)
{
  g_autofree char *record = NULL;

  if (!sluice_sqlite_connection_exec (self, "CREATE TABLE IF NOT EXISTS sluice_schema (version INTEGER NOT NULL)",
                                      error))
    return FALSE;
  for (gint64 v = from; v < SLUICE_SQLITE_STORE_SCHEMA_VERSION; v++)
    if (!sluice_sqlite_connection_exec (self, migrations[v], error))
      return FALSE;
  record = g_strdup_printf ("DELETE FROM sluice_schema; INSERT INTO sluice_schema (version) VALUES (%d)",
                            SLUICE_SQLITE_STORE_SCHEMA_VERSION);
  return sluice_sqlite_connection_exec (self, record, error);
}

static void
set_version_error (SluiceSqliteConnection  *self,
                   gint64                   version,
                   GError                 **error)
{
  g_autofree char *found = g_strdup_printf ("%" G_GINT64_FORMAT, version);
  g_autofree char *known = g_strdup_printf ("%d", SLUICE_SQLITE_STORE_SCHEMA_VERSION);

  if (version > SLUICE_SQLITE_STORE_SCHEMA_VERSION)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA,
                 /* Translators: the first %s is the store's file, then two version numbers */
                 _("Job store %s: its schema version %s is newer than this program's (%s); "
                   "use a newer Sluice"), self->path, found, known);
  else
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA,
                 /* Translators: the first %s is the store's file, then two version numbers */
                 _("Job store %s: its schema version %s is older than this program's (%s), and it is "
                   "open read-only; a worker or sluice-run enqueue brings it up to date"),
                 self->path, found, known);
}

/* Checks the file's schema, and makes or migrates it when @mode lets it,
 * in one transaction: a write transaction (BEGIN IMMEDIATE), so that two
 * processes opening a new file at once do not both make the tables; a
 * read transaction when read-only. */
static gboolean
check_schema (SluiceSqliteConnection  *self,
              SluiceJobStoreOpen       mode,
              GError                 **error)
{
  gboolean read_only = mode == SLUICE_JOB_STORE_OPEN_READ_ONLY;
  gint64 version = 0;
  gboolean ok;

  if (!sluice_sqlite_connection_exec (self, read_only ? "BEGIN" : "BEGIN IMMEDIATE", error))
    return FALSE;
  ok = schema_version (self, mode, &version, error);
  if (ok && (version > SLUICE_SQLITE_STORE_SCHEMA_VERSION ||
             (read_only && version < SLUICE_SQLITE_STORE_SCHEMA_VERSION)))
    {
      set_version_error (self, version, error);
      ok = FALSE;
    }
  else if (ok && version < SLUICE_SQLITE_STORE_SCHEMA_VERSION)
    ok = migrate (self, version, error);
  return sluice_sqlite_connection_end (self, ok, error);
}

static SluiceSqliteConnection *
connection_new (const char          *path,
                SluiceJobStoreOpen   mode,
                GError             **error)
{
  g_autoptr(SluiceSqliteConnection) self = g_new0 (SluiceSqliteConnection, 1);
  int flags = SQLITE_OPEN_NOMUTEX;
  int rc;

  if (mode == SLUICE_JOB_STORE_OPEN_READ_ONLY)
    flags |= SQLITE_OPEN_READONLY;
  else
    flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  self->path = g_strdup (path);
  self->statements = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, finalize_statement);
  rc = sqlite3_open_v2 (path, &self->db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND,
                   /* Translators: the first %s is the file, the second SQLite's message */
                   _("Cannot open the job store %s: %s"), path,
                   self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      return NULL;
    }
  sqlite3_busy_timeout (self->db, BUSY_TIMEOUT_MS);
  return g_steal_pointer (&self);
}

/* Opens @path as a job store (see sluice-sqlite-store.c for the settings,
 * and SluiceJobStoreOpen for what each mode may do). The schema is checked
 * before anything is changed, so a file that is refused is left as it was:
 * its journal mode too, since WAL is set only once the file is a job
 * store. Read-only, the file is neither created nor set to WAL. Errors
 * name the file. */
SluiceSqliteConnection *
sluice_sqlite_connection_open (const char          *path,
                               SluiceJobStoreOpen   mode,
                               GError             **error)
{
  g_autoptr(SluiceSqliteConnection) self = NULL;

  if (mode == SLUICE_JOB_STORE_OPEN_READ_ONLY && !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                   /* Translators: %s is a file */
                   _("There is no job store %s: the file does not exist"), path);
      return NULL;
    }
  self = connection_new (path, mode, error);
  if (self == NULL || !check_schema (self, mode, error))
    return NULL;
  if (mode != SLUICE_JOB_STORE_OPEN_READ_ONLY &&
      (!use_wal (self, error) || !sluice_sqlite_connection_exec (self, "PRAGMA synchronous = NORMAL", error)))
    return NULL;
  return g_steal_pointer (&self);
}

/* Closes the file; the statements first, as SQLite wants. */
void
sluice_sqlite_connection_free (SluiceSqliteConnection *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->statements, g_hash_table_unref);
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  g_free (self->path);
  g_free (self);
}
