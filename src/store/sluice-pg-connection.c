/* sluice-pg-connection.c: SluicePgStore's connection to the server
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Everything here runs on the store's own thread (sluice-pg-store.c), with
 * libpq's blocking calls: one request at a time, in the order they came.
 * The connection also LISTENs: while it is idle, its socket is watched on
 * the thread's main context, and notifications that arrive with a result
 * are read after it.
 *
 * The SQL keeps the protocol's rules in the statements themselves, so that
 * any number of processes may share the tables: a claim picks its row with
 * FOR UPDATE SKIP LOCKED (two claims never wait for each other nor take
 * the same row), and renew, complete, fail and release match the lease
 * token in their WHERE (fencing: no row changed means the lease was lost). Times
 * are bigint µs since the Unix epoch, exactly what the interface passes.
 */

#include "sluice-pg-connection-private.h"
#include "sluice-pg-store.h"

#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

/* How the server plans a prepared statement's executions (its
 * plan_cache_mode). PostgreSQL plans each of the first executions for
 * its parameters, then keeps the generic plan only when that looks no
 * dearer, which the protocol's statements (CTEs, a LIMIT from a
 * parameter, arrays) never do: the claim and the batch of completions
 * were planned again at every call, more CPU than running them
 * (issue 27). So the protocol's statements run with generic plans. A
 * generic plan is made once, at the first call, from the statistics of
 * that moment: those of a store just made (no rows, never analyzed) made
 * it scan sluice_attempts whole for every job, and the plan stayed. Every
 * row these statements touch has an index to it, so they run with
 * enable_seqscan off: their generic plan takes the indexes whatever the
 * statistics say. A statement whose plan
 * depends on a parameter (`$1 IS NULL OR tenant = $1`: every tenant or
 * one) and the admin queries keep being planned for their values. */
typedef enum {
  PLAN_UNKNOWN,  /* a new session (the server's default), or after an error */
  PLAN_AUTO,
  PLAN_GENERIC,
} PlanMode;

struct _SluicePgConnection
{
  char               *uri;
  char               *description;
  SluiceJobStoreOpen  mode;
  SluicePgNotifyFunc  notify;
  gpointer            notify_data;

  PGconn             *conn;
  GSource            *watch;
  char               *jobs_channel;    /* SLUICE_PG_CHANNEL_SQL's, of this session's schema */
  char               *cancel_channel;
  PlanMode            plan_mode;  /* the session's plan_cache_mode, as far as we know */
};

/* The columns of a job, in the order job_from_row() reads them. */
#define JOB_COLUMNS SLUICE_PG_JOB_COLUMNS

/* The schema, version 1. created_seq orders jobs that became available at
 * the same µs by their creation. The partial indexes serve the claim
 * (pending and retry_wait by tenant and available_at), release_expired
 * (running by lease expiry) and the last failures of get_status. */
static const char *const schema_v1[] = {
  "CREATE TABLE sluice_jobs ("
  "  id uuid PRIMARY KEY,"
  "  created_seq bigint GENERATED ALWAYS AS IDENTITY,"
  "  tenant text NOT NULL CHECK (tenant <> ''),"
  "  operation_key text NOT NULL CHECK (operation_key <> ''),"
  "  payload json NOT NULL,"
  "  state text NOT NULL CHECK (state IN ('pending', 'running', 'retry_wait', 'succeeded', 'dead')),"
  "  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),"
  "  max_attempts integer NOT NULL CHECK (max_attempts > 0),"
  "  available_at bigint NOT NULL,"
  "  lease_owner text,"
  "  lease_token uuid,"
  "  lease_expires_at bigint,"
  "  last_failure_type text,"
  "  last_failure_message text,"
  "  last_failure_code text,"
  "  last_failure_retryable boolean,"
  "  result json,"
  "  created_at bigint NOT NULL,"
  "  updated_at bigint NOT NULL,"
  "  UNIQUE (tenant, operation_key))",
  "CREATE INDEX sluice_jobs_claimable ON sluice_jobs (tenant, available_at, created_seq)"
  "  WHERE state IN ('pending', 'retry_wait')",
  "CREATE INDEX sluice_jobs_leased ON sluice_jobs (lease_expires_at)"
  "  WHERE state = 'running'",
  "CREATE INDEX sluice_jobs_failed ON sluice_jobs (updated_at)"
  "  WHERE last_failure_type IS NOT NULL",
  NULL
};

/* The migrations, in order: migrations[i] makes version i + 1 from
 * version i. A later version adds its statements here and raises
 * SLUICE_PG_SCHEMA_VERSION. */
/* Version 2 (docs/store-admin.md): the state cancelled, a cancel asked
 * of a running job, the attempts' history (the last 25 of each job, the
 * older ones counted), the workers with their heartbeats, and the
 * tenants' pause and concurrency limit. */
static const char *const schema_v2[] = {
  "ALTER TABLE sluice_jobs DROP CONSTRAINT sluice_jobs_state_check",
  "ALTER TABLE sluice_jobs ADD CONSTRAINT sluice_jobs_state_check"
  "  CHECK (state IN ('pending', 'running', 'retry_wait', 'succeeded', 'dead', 'cancelled'))",
  "ALTER TABLE sluice_jobs ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false",
  "ALTER TABLE sluice_jobs ADD COLUMN attempts_dropped integer NOT NULL DEFAULT 0",
  /* The job lists' order (keyset pages). One index more for every update
   * of a job's state: the workers' claims are found through
   * sluice_jobs_leased, the counts by tenant by a scan, as before. */
  "CREATE INDEX sluice_jobs_newest ON sluice_jobs (created_seq)",
  "CREATE TABLE sluice_attempts ("
  "  job_id uuid NOT NULL REFERENCES sluice_jobs (id) ON DELETE CASCADE,"
  "  attempt integer NOT NULL,"
  "  worker text,"
  "  lease_token uuid,"
  "  started_at bigint NOT NULL,"
  "  ended_at bigint,"
  "  outcome text CHECK (outcome IN ('succeeded', 'failed', 'timed_out', 'lease_lost', 'cancelled')),"
  "  error_type text,"
  "  error_message text,"
  "  error_code text,"
  "  error_retryable boolean,"
  "  PRIMARY KEY (job_id, attempt))",
  /* The attempts running, which complete, fail and release_expired end:
   * without it the planner scans the whole history (its statistics lag
   * behind a table that grows by a row a claim). */
  "CREATE INDEX sluice_attempts_open ON sluice_attempts (job_id) WHERE ended_at IS NULL",
  "CREATE TABLE sluice_workers ("
  "  id text PRIMARY KEY,"
  "  host text NOT NULL,"
  "  pid bigint NOT NULL,"
  "  started_at bigint NOT NULL,"
  "  heartbeat_at bigint NOT NULL,"
  "  lease bigint NOT NULL,"
  "  tenants text NOT NULL,"
  "  done bigint NOT NULL DEFAULT 0,"
  "  failed bigint NOT NULL DEFAULT 0)",
  "CREATE TABLE sluice_tenants ("
  "  tenant text PRIMARY KEY,"
  "  paused boolean NOT NULL DEFAULT false,"
  "  concurrency_limit integer)",
  NULL
};

static const char *const *const migrations[] = {
  schema_v1,
  schema_v2,
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == SLUICE_PG_SCHEMA_VERSION);

typedef struct
{
  const char *name;
  const char *sql;
  gboolean    per_values;  /* planned for its parameters' values (see PlanMode) */
} Statement;

/* Prepared once per connection. */
static const Statement statements[] = {
  { "sluice_enqueue",
    "WITH inserted AS ("
    "  INSERT INTO sluice_jobs (id, tenant, operation_key, payload, state, attempts,"
    "                           max_attempts, available_at, created_at, updated_at)"
    "  VALUES ($1::uuid, $2::text, $3::text, $4::json, 'pending', 0,"
    "          $5::integer, $7::bigint, $6::bigint, $6::bigint)"
    "  ON CONFLICT (tenant, operation_key) DO NOTHING"
    "  RETURNING " JOB_COLUMNS ")"
    " SELECT inserted.*, pg_notify(" SLUICE_PG_CHANNEL_SQL (SLUICE_PG_CHANNEL) ", inserted.tenant) FROM inserted" },
  { "sluice_find",
    "SELECT " JOB_COLUMNS " FROM sluice_jobs WHERE tenant = $1::text AND operation_key = $2::text" },
  /* Up to $5 jobs at once, each with a lease token of its own; the rows
   * come back in no order, and are sorted as the claim would take them. */
  /* A paused tenant's jobs are not claimed, nor more than its limit
   * (counted as the statement starts: claims of other workers at the
   * same moment may each see room for the last one). Each claim begins an
   * attempt in the history, which keeps the last 25 (the oldest goes, and
   * is counted, when there are 25 already). */
  { "sluice_claim_batch",
    "WITH control AS ("
    "  SELECT coalesce(bool_or(paused), false) AS paused,"
    "         min(concurrency_limit) AS most FROM sluice_tenants WHERE tenant = $1::text),"
    " room AS ("
    "  SELECT CASE WHEN control.paused THEN 0"
    "              WHEN control.most IS NULL THEN $5::bigint"
    "              ELSE greatest(0, least($5::bigint, control.most - (SELECT count(*) FROM sluice_jobs"
    "                     WHERE tenant = $1::text AND state = 'running'))) END AS n FROM control),"
    " claimed AS ("
    "  UPDATE sluice_jobs SET state = 'running', attempts = attempts + 1,"
    "    lease_owner = $2::text, lease_token = gen_random_uuid(),"
    "    lease_expires_at = $3::bigint + $4::bigint, updated_at = $3::bigint,"
    "    attempts_dropped = attempts_dropped + CASE WHEN (SELECT count(*) FROM sluice_attempts a"
    "      WHERE a.job_id = sluice_jobs.id) >= " G_STRINGIFY (SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT) " THEN 1 ELSE 0 END"
    "  WHERE id IN (SELECT id FROM sluice_jobs"
    "               WHERE tenant = $1::text AND state IN ('pending', 'retry_wait')"
    "                 AND available_at <= $3::bigint"
    "               ORDER BY available_at, created_seq"
    "               LIMIT (SELECT n FROM room) FOR UPDATE SKIP LOCKED)"
    "  RETURNING " JOB_COLUMNS ", created_seq, attempts_dropped),"
    " trimmed AS ("
    "  DELETE FROM sluice_attempts a USING claimed c"
    "  WHERE a.job_id = c.id"
    "    AND a.attempt = (SELECT min(b.attempt) FROM sluice_attempts b WHERE b.job_id = c.id)"
    "    AND (SELECT count(*) FROM sluice_attempts b WHERE b.job_id = c.id) >= "
    G_STRINGIFY (SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT) "),"
    " begun AS ("
    "  INSERT INTO sluice_attempts (job_id, attempt, worker, lease_token, started_at)"
    "  SELECT c.id, coalesce((SELECT max(b.attempt) FROM sluice_attempts b WHERE b.job_id = c.id), c.attempts_dropped) + 1,"
    "         c.lease_owner, c.lease_token, $3::bigint FROM claimed c)"
    " SELECT " JOB_COLUMNS ", created_seq FROM claimed" },
  /* Completions of one batch, one statement: the rows that come back are
   * the claims whose token was still the job's. */
  { "sluice_complete_batch",
    "WITH done AS ("
    " UPDATE sluice_jobs AS j SET state = 'succeeded', result = r.result::json, cancel_requested = false,"
    "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = r.now"
    " FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[]) AS r (id, token, result, now)"
    " WHERE j.id = r.id AND j.lease_token = r.token AND j.state = 'running'"
    " RETURNING r.id, r.token, r.now),"
    " ended AS ("
    "  UPDATE sluice_attempts AS a SET ended_at = done.now, outcome = 'succeeded'"
    "  FROM done WHERE a.job_id = done.id AND a.ended_at IS NULL)"
    " SELECT id, token FROM done" },
  /* A renew says whether an operator cancelled the job. */
  { "sluice_renew",
    "UPDATE sluice_jobs SET lease_expires_at = $3::bigint + $4::bigint, updated_at = $3::bigint"
    " WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running'"
    " RETURNING cancel_requested" },
  { "sluice_complete",
    "WITH done AS ("
    " UPDATE sluice_jobs SET state = 'succeeded', result = $3::json, cancel_requested = false,"
    "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = $4::bigint"
    " WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running' RETURNING id),"
    " ended AS ("
    "  UPDATE sluice_attempts SET ended_at = $4::bigint, outcome = 'succeeded'"
    "  WHERE job_id IN (SELECT id FROM done) AND ended_at IS NULL)"
    " SELECT id FROM done" },
  /* A job an operator cancelled while it ran ends cancelled, whatever its
   * failure; its attempt too. */
  { "sluice_fail",
    "WITH failed AS ("
    " UPDATE sluice_jobs SET"
    "  state = CASE WHEN cancel_requested THEN 'cancelled' WHEN $3::bigint >= 0 THEN 'retry_wait' ELSE 'dead' END,"
    "  available_at = CASE WHEN $3::bigint >= 0 THEN $3::bigint ELSE available_at END,"
    "  last_failure_type = $4::text, last_failure_message = $5::text,"
    "  last_failure_code = $6::text, last_failure_retryable = $7::boolean,"
    "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = $8::bigint"
    " WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running'"
    " RETURNING id, tenant, state),"
    " ended AS ("
    "  UPDATE sluice_attempts AS a SET ended_at = $8::bigint,"
    "   outcome = CASE WHEN f.state = 'cancelled' THEN 'cancelled'"
    "                  WHEN $6::text = 'ATTEMPT_TIMEOUT' THEN 'timed_out'"
    "                  WHEN $6::text = 'LEASE_LOST' THEN 'lease_lost' ELSE 'failed' END,"
    "   error_type = $4::text, error_message = $5::text, error_code = $6::text, error_retryable = $7::boolean"
    "  FROM failed f WHERE a.job_id = f.id AND a.ended_at IS NULL)"
    " SELECT tenant, state FROM failed" },
  /* A claim handed back unrun: pending again, its attempt not counted,
   * available_at untouched (the claim did not change it either), and
   * the other workers told. */
  { "sluice_release_claim",
    "WITH released AS ("
    " UPDATE sluice_jobs SET state = CASE WHEN cancel_requested THEN 'cancelled' ELSE 'pending' END,"
    "  attempts = attempts - 1,"
    "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = $3::bigint"
    " WHERE id = $1::uuid AND lease_token = $2::uuid AND state = 'running' AND attempts > 0"
    " RETURNING id, tenant),"
    " forgotten AS ("
    "  DELETE FROM sluice_attempts WHERE job_id IN (SELECT id FROM released) AND ended_at IS NULL)"
    " SELECT pg_notify(" SLUICE_PG_CHANNEL_SQL (SLUICE_PG_CHANNEL) ", tenant) FROM released" },
  { "sluice_notify",
    "SELECT pg_notify(" SLUICE_PG_CHANNEL_SQL (SLUICE_PG_CHANNEL) ", $1::text)" },
  /* A job out of attempts becomes dead with a LeaseExpired failure; one
   * with attempts left is available again at once. Its lease is cleared
   * either way, which fences the old owner out. */
  { "sluice_release",
    "WITH expired AS ("
    "  SELECT id FROM sluice_jobs"
    "  WHERE state = 'running' AND lease_expires_at <= $2::bigint"
    "    AND ($1::text IS NULL OR tenant = $1::text)"
    "  ORDER BY lease_expires_at, created_seq"
    "  LIMIT $3::bigint FOR UPDATE SKIP LOCKED),"
    " released AS ("
    " UPDATE sluice_jobs AS j SET"
    "  state = CASE WHEN j.cancel_requested THEN 'cancelled'"
    "               WHEN j.attempts >= j.max_attempts THEN 'dead' ELSE 'pending' END,"
    "  available_at = CASE WHEN j.attempts >= j.max_attempts THEN j.available_at ELSE $2::bigint END,"
    "  last_failure_type = CASE WHEN j.attempts >= j.max_attempts"
    "                      THEN 'LeaseExpired' ELSE j.last_failure_type END,"
    "  last_failure_message = CASE WHEN j.attempts >= j.max_attempts"
    "                         THEN 'the lease expired' ELSE j.last_failure_message END,"
    "  last_failure_code = CASE WHEN j.attempts >= j.max_attempts"
    "                      THEN 'LEASE_EXPIRED' ELSE j.last_failure_code END,"
    "  last_failure_retryable = CASE WHEN j.attempts >= j.max_attempts"
    "                           THEN false ELSE j.last_failure_retryable END,"
    "  lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL, updated_at = $2::bigint"
    " FROM expired WHERE j.id = expired.id RETURNING j.id),"
    /* The attempts of the released jobs were lost with their leases. */
    " ended AS ("
    "  UPDATE sluice_attempts AS a SET ended_at = $2::bigint, outcome = 'lease_lost',"
    "   error_type = 'LeaseExpired', error_message = 'the lease expired', error_code = 'LEASE_EXPIRED',"
    "   error_retryable = true"
    "  FROM released r WHERE a.job_id = r.id AND a.ended_at IS NULL)"
    " SELECT id FROM released", TRUE },
  /* A pending job whose time is ahead is counted scheduled. */
  { "sluice_counts",
    "SELECT CASE WHEN state = 'pending' AND attempts = 0 AND available_at > $2::bigint THEN 'scheduled' ELSE state END AS shown,"
    "  count(*) FROM sluice_jobs"
    " WHERE $1::text IS NULL OR tenant = $1::text GROUP BY shown", TRUE },
  { "sluice_failures",
    "SELECT " JOB_COLUMNS " FROM sluice_jobs"
    " WHERE last_failure_type IS NOT NULL AND ($1::text IS NULL OR tenant = $1::text)"
    " ORDER BY updated_at DESC, created_seq DESC LIMIT $2::bigint", TRUE },
};

/* ---- the connection ------------------------------------------------------- */

SluicePgConnection *
sluice_pg_connection_new (const char         *uri,
                          SluiceJobStoreOpen  mode,
                          SluicePgNotifyFunc  notify,
                          gpointer            notify_data)
{
  SluicePgConnection *self = g_new0 (SluicePgConnection, 1);

  self->uri = g_strdup (uri);
  self->mode = mode;
  self->description = sluice_job_store_describe_uri (uri);
  self->notify = notify;
  self->notify_data = notify_data;
  return self;
}

static void
connection_close (SluicePgConnection *self)
{
  if (self->watch != NULL)
    {
      g_source_destroy (self->watch);
      g_clear_pointer (&self->watch, g_source_unref);
    }
  g_clear_pointer (&self->conn, PQfinish);
  self->plan_mode = PLAN_UNKNOWN;
}

void
sluice_pg_connection_free (SluicePgConnection *self)
{
  connection_close (self);
  g_free (self->uri);
  g_free (self->description);
  g_free (self->jobs_channel);
  g_free (self->cancel_channel);
  g_free (self);
}

static void
set_error (SluicePgConnection  *self,
           GError             **error,
           int                  code,
           const char          *libpq_message)
{
  g_autofree char *scrubbed = sluice_pg_scrub (self->uri, libpq_message);

  if (code == SLUICE_STORE_ERROR_SCHEMA)
    g_set_error (error, SLUICE_STORE_ERROR, code,
                 /* Translators: the first %s is the store's URI without its
                  * password, the second the server's message. */
                 _("The job store %s has a schema that is not a job store’s: %s"),
                 self->description, scrubbed);
  else
    g_set_error (error, SLUICE_STORE_ERROR, code,
                 /* Translators: the first %s is the store's URI without its
                  * password, the second the server's or libpq's message. */
                 _("The job store %s failed: %s"),
                 self->description, scrubbed);
}

/* After a failed call: a connection that broke is closed, and the next
 * request opens a new one. */
static void
forget_if_broken (SluicePgConnection *self)
{
  if (self->conn != NULL && PQstatus (self->conn) == CONNECTION_BAD)
    {
      g_debug ("%s: the connection broke; the next request reconnects", self->description);
      connection_close (self);
    }
}

static void
deliver_notifications (SluicePgConnection *self)
{
  PGnotify *notification;

  while ((notification = PQnotifies (self->conn)) != NULL)
    {
      const char *kind = g_strcmp0 (notification->relname, self->jobs_channel) == 0 ? SLUICE_PG_CHANNEL
                         : g_strcmp0 (notification->relname, self->cancel_channel) == 0 ? SLUICE_PG_CANCEL_CHANNEL
                         : NULL;

      if (kind != NULL && notification->extra != NULL && notification->extra[0] != '\0')
        self->notify (kind, notification->extra, self->notify_data);
      PQfreemem (notification);
    }
}

static gboolean
on_socket_ready (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  SluicePgConnection *self = user_data;

  if (!PQconsumeInput (self->conn) || PQstatus (self->conn) == CONNECTION_BAD)
    {
      g_debug ("%s: the listening connection was lost: %s", self->description,
               PQerrorMessage (self->conn));
      /* Returning G_SOURCE_REMOVE destroys the watch. */
      g_clear_pointer (&self->watch, g_source_unref);
      g_clear_pointer (&self->conn, PQfinish);
      return G_SOURCE_REMOVE;
    }
  deliver_notifications (self);
  return G_SOURCE_CONTINUE;
}

static void
on_notice (void       *arg,
           const char *message)
{
  /* "relation already exists, skipping" of the schema's IF NOT EXISTS and
   * the like: not for stderr. */
  g_debug ("PostgreSQL: %s", message);
}

/* A statement without parameters or results (DDL, BEGIN, LISTEN). */
static gboolean
run (SluicePgConnection  *self,
     const char          *sql,
     GError             **error)
{
  PGresult *result = PQexec (self->conn, sql);
  gboolean ok = PQresultStatus (result) == PGRES_COMMAND_OK ||
                PQresultStatus (result) == PGRES_TUPLES_OK;

  if (!ok)
    set_error (self, error,
               g_strcmp0 (PQresultErrorField (result, PG_DIAG_SQLSTATE), "42P07") == 0
                 ? SLUICE_STORE_ERROR_SCHEMA : SLUICE_STORE_ERROR_BACKEND,
               PQresultErrorMessage (result));
  PQclear (result);
  return ok;
}

/* The first value of @sql's first row (NULL for SQL NULL) into @value;
 * FALSE with @error set when it failed. */
static gboolean
query_text (SluicePgConnection  *self,
            const char          *sql,
            char               **value,
            GError             **error)
{
  PGresult *result = PQexec (self->conn, sql);
  gboolean ok = PQresultStatus (result) == PGRES_TUPLES_OK;

  if (!ok)
    set_error (self, error, SLUICE_STORE_ERROR_BACKEND, PQresultErrorMessage (result));
  else
    *value = PQntuples (result) > 0 && !PQgetisnull (result, 0, 0)
               ? g_strdup (PQgetvalue (result, 0, 0)) : NULL;
  PQclear (result);
  return ok;
}

/* The first relations (tables, views, sequences) of the schema where the
 * store would make its tables, such as "orders, users, …"; NULL when it
 * has none. */
static gboolean
other_relations (SluicePgConnection  *self,
                 char               **names,
                 GError             **error)
{
  return query_text (self,
                     "SELECT string_agg(CASE WHEN n < 4 THEN relname ELSE '…' END, ', ' ORDER BY n)"
                     " FROM (SELECT c.relname, row_number() OVER (ORDER BY c.relname) AS n"
                     "       FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace"
                     "       WHERE s.nspname = current_schema()"
                     "         AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')"
                     "       ORDER BY c.relname LIMIT 4) AS first",
                     names, error);
}

/* A database without sluice_schema: a job store may be made in it when
 * the schema has no relations at all, or when the mode says init; never
 * when read-only. A sluice_jobs without sluice_schema is another
 * program's, whatever the mode. */
static gboolean
may_make_store (SluicePgConnection  *self,
                GError             **error)
{
  g_autofree char *jobs = NULL;
  g_autofree char *others = NULL;
  g_autofree char *schema = NULL;

  if (!query_text (self, "SELECT to_regclass('sluice_jobs')::text", &jobs, error) ||
      !other_relations (self, &others, error) ||
      !query_text (self, "SELECT current_schema()", &schema, error))
    return FALSE;
  if (jobs != NULL)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA,
                 /* Translators: %s is the store's URI without its password */
                 _("The job store %s has a table sluice_jobs but no sluice_schema: it is not a Sluice job store"),
                 self->description);
  else if (self->mode == SLUICE_JOB_STORE_OPEN_READ_ONLY && others == NULL)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                 /* Translators: the store's URI without its password, then a schema's name */
                 _("The job store %s has no job store yet in schema %s "
                   "(a worker or sluice-run enqueue makes it)"),
                 self->description, schema != NULL ? schema : "?");
  else if (self->mode == SLUICE_JOB_STORE_OPEN_READ_ONLY)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                 /* Translators: the store's URI without its password, a schema's name, then the
                  * names of its first tables */
                 _("The job store %s is not a Sluice job store: schema %s has other tables (%s) "
                   "and no sluice_schema"),
                 self->description, schema != NULL ? schema : "?", others);
  else if (self->mode == SLUICE_JOB_STORE_OPEN_READ_WRITE && others != NULL)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE,
                 /* Translators: the store's URI without its password, a schema's name, then the
                  * names of its first tables */
                 _("The job store %s is not a Sluice job store: schema %s has other tables (%s) "
                   "and no sluice_schema; a job store is made beside them only when asked "
                   "(sluice-run enqueue or worker with --init)"),
                 self->description, schema != NULL ? schema : "?", others);
  else
    return TRUE;
  return FALSE;
}

/* The schema's version, 0 when there is no sluice_schema yet and one may
 * be made (@exists then FALSE), or -1 with @error set. */
static int
schema_version (SluicePgConnection  *self,
                gboolean            *exists,
                GError             **error)
{
  g_autofree char *table = NULL;
  g_autofree char *version = NULL;

  if (!query_text (self, "SELECT to_regclass('sluice_schema')::text", &table, error))
    return -1;
  *exists = table != NULL;
  if (!*exists)
    return may_make_store (self, error) ? 0 : -1;
  if (!query_text (self, "SELECT max(version) FROM sluice_schema", &version, error))
    return -1;
  return version != NULL ? atoi (version) : 0;
}

static void
set_version_error (SluicePgConnection  *self,
                   int                  version,
                   GError             **error)
{
  if (version > SLUICE_PG_SCHEMA_VERSION)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA,
                 /* Translators: the first %s is the store's URI without
                  * its password; then two version numbers. */
                 _("The job store %s has schema version %d, newer than this program’s %d"),
                 self->description, version, SLUICE_PG_SCHEMA_VERSION);
  else
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA,
                 /* Translators: the first %s is the store's URI without
                  * its password; then two version numbers. */
                 _("The job store %s has schema version %d, older than this program’s %d, and it is "
                   "open read-only; a worker or sluice-run enqueue brings it up to date"),
                 self->description, version, SLUICE_PG_SCHEMA_VERSION);
}

/* Read-only: the session's transactions cannot write, and the schema is
 * only checked, never made or migrated. */
static gboolean
check_read_only (SluicePgConnection  *self,
                 GError             **error)
{
  gboolean exists = FALSE;
  int version;

  if (!run (self, "SET default_transaction_read_only = on", error))
    return FALSE;
  version = schema_version (self, &exists, error);
  if (version < 0)
    return FALSE;
  if (version == SLUICE_PG_SCHEMA_VERSION)
    return TRUE;
  set_version_error (self, version, error);
  return FALSE;
}

/* LISTENs on this schema's channels (SLUICE_PG_CHANNEL_SQL). */
static gboolean
listen (SluicePgConnection  *self,
        GError             **error)
{
  g_autofree char *schema_md5 = NULL;
  g_autofree char *listen_jobs = NULL;
  g_autofree char *listen_cancel = NULL;

  if (!query_text (self, "SELECT md5 (current_schema ())", &schema_md5, error))
    return FALSE;
  g_free (self->jobs_channel);
  g_free (self->cancel_channel);
  self->jobs_channel = g_strconcat (SLUICE_PG_CHANNEL "_", schema_md5 != NULL ? schema_md5 : "", NULL);
  self->cancel_channel = g_strconcat (SLUICE_PG_CANCEL_CHANNEL "_", schema_md5 != NULL ? schema_md5 : "", NULL);
  listen_jobs = g_strdup_printf ("LISTEN \"%s\"", self->jobs_channel);
  listen_cancel = g_strdup_printf ("LISTEN \"%s\"", self->cancel_channel);
  return run (self, listen_jobs, error) && run (self, listen_cancel, error);
}

/* Reads the schema's version in a transaction that holds an advisory lock,
 * so that two workers starting at once on an empty database do not both
 * make the tables; runs the migrations it lacks, and refuses a version
 * newer than this program's. */
static gboolean
migrate (SluicePgConnection  *self,
         GError             **error)
{
  gboolean exists = FALSE;
  int version;

  if (!run (self, "BEGIN", error) ||
      !run (self, "SELECT pg_advisory_xact_lock(hashtext('sluice_schema'))", error))
    goto failed;
  version = schema_version (self, &exists, error);
  if (version < 0)
    goto failed;
  if (version > SLUICE_PG_SCHEMA_VERSION)
    {
      set_version_error (self, version, error);
      goto failed;
    }
  /* Made only when missing: CREATE TABLE IF NOT EXISTS would need the
   * right to create tables even when they are there, which a worker's
   * role may well not have. */
  if (!exists && !run (self, "CREATE TABLE sluice_schema (version integer NOT NULL)", error))
    goto failed;
  for (; version < SLUICE_PG_SCHEMA_VERSION; version++)
    {
      g_autofree char *record = g_strdup_printf ("INSERT INTO sluice_schema (version) VALUES (%d)",
                                                 version + 1);

      for (const char *const *sql = migrations[version]; *sql != NULL; sql++)
        if (!run (self, *sql, error))
          goto failed;
      if (!run (self, record, error))
        goto failed;
    }
  return run (self, "COMMIT", error);


failed:
  if (PQstatus (self->conn) == CONNECTION_OK)
    PQclear (PQexec (self->conn, "ROLLBACK"));
  return FALSE;
}

static gboolean
prepare_statements (SluicePgConnection  *self,
                    GError             **error)
{
  for (gsize i = 0; i < G_N_ELEMENTS (statements); i++)
    {
      PGresult *result = PQprepare (self->conn, statements[i].name, statements[i].sql, 0, NULL);
      gboolean ok = PQresultStatus (result) == PGRES_COMMAND_OK;

      if (!ok)
        set_error (self, error, SLUICE_STORE_ERROR_BACKEND, PQresultErrorMessage (result));
      PQclear (result);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

/**
 * sluice_pg_connection_open:
 * @self: a connection
 * @error: set when the server cannot be reached or its schema is newer
 *
 * Connects if not connected: makes or checks the schema (as the mode
 * says: SluiceJobStoreOpen), prepares the
 * statements, LISTENs and watches the socket on the thread-default main
 * context. Every request calls it first; it does nothing when connected.
 *
 * Returns: whether the connection is open
 */
gboolean
sluice_pg_connection_open (SluicePgConnection  *self,
                           GError             **error)
{
  /* Earlier keywords are overridden by what the URI (dbname, expanded)
   * says: a URI's connect_timeout wins over ours. */
  static const char *const keywords[] = { "connect_timeout", "dbname", "fallback_application_name", NULL };
  const char *values[] = { "10", self->uri, "sluice", NULL };

  if (self->conn != NULL)
    return TRUE;

  self->conn = PQconnectdbParams (keywords, values, 1);
  if (PQstatus (self->conn) != CONNECTION_OK)
    {
      g_autofree char *scrubbed = sluice_pg_scrub (self->uri, PQerrorMessage (self->conn));

      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND,
                   /* Translators: the first %s is the store's URI without
                    * its password, the second libpq's message. */
                   _("Could not connect to the job store %s: %s"), self->description, scrubbed);
      g_clear_pointer (&self->conn, PQfinish);
      return FALSE;
    }
  PQsetNoticeProcessor (self->conn, on_notice, NULL);

  if (!(self->mode == SLUICE_JOB_STORE_OPEN_READ_ONLY ? check_read_only (self, error) : migrate (self, error)) ||
      !prepare_statements (self, error) ||
      !listen (self, error))
    {
      g_clear_pointer (&self->conn, PQfinish);
      return FALSE;
    }

  self->watch = g_unix_fd_source_new (PQsocket (self->conn), G_IO_IN | G_IO_HUP | G_IO_ERR);
  g_source_set_callback (self->watch, G_SOURCE_FUNC (on_socket_ready), self, NULL);
  g_source_set_static_name (self->watch, "[sluice] PostgreSQL notifications");
  g_source_attach (self->watch, g_main_context_get_thread_default ());
  return TRUE;
}

/* Sets the session's plan_cache_mode to @mode, if it is not that already
 * and no transaction is open (a SET in a transaction that rolls back
 * would be undone behind our back). A failure only costs speed: the
 * mode is then unknown, and set again next time. */
static void
use_plans (SluicePgConnection *self,
           PlanMode            mode)
{
  PGresult *result;

  if (self->plan_mode == mode || PQtransactionStatus (self->conn) != PQTRANS_IDLE)
    return;
  result = PQexec (self->conn, mode == PLAN_GENERIC
                                ? "SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off"
                                : "SET plan_cache_mode = auto; RESET enable_seqscan");
  self->plan_mode = PQresultStatus (result) == PGRES_COMMAND_OK ? mode : PLAN_UNKNOWN;
  PQclear (result);
}

static gboolean
planned_per_values (const char *name)
{
  for (gsize i = 0; i < G_N_ELEMENTS (statements); i++)
    if (strcmp (statements[i].name, name) == 0)
      return statements[i].per_values;
  g_return_val_if_reached (TRUE);
}

/* Runs a prepared statement; on a result other than @expected sets @error
 * and returns %NULL. Notifications that came with the result are
 * delivered. */
static PGresult *
exec_prepared (SluicePgConnection  *self,
               const char          *name,
               int                  n_params,
               const char *const   *params,
               ExecStatusType       expected,
               GError             **error)
{
  PGresult *result;

  use_plans (self, planned_per_values (name) ? PLAN_AUTO : PLAN_GENERIC);
  result = PQexecPrepared (self->conn, name, n_params, params, NULL, NULL, 0);

  if (PQresultStatus (result) != expected)
    {
      set_error (self, error, SLUICE_STORE_ERROR_BACKEND, PQresultErrorMessage (result));
      PQclear (result);
      self->plan_mode = PLAN_UNKNOWN;
      forget_if_broken (self);
      return NULL;
    }
  deliver_notifications (self);
  return result;
}

/* ---- rows ----------------------------------------------------------------- */

static char *
text_at (const PGresult *result,
         int             row,
         int             column)
{
  if (PQgetisnull (result, row, column))
    return NULL;
  return g_strdup (PQgetvalue (result, row, column));
}

static gint64
int_at (const PGresult *result,
        int             row,
        int             column)
{
  if (PQgetisnull (result, row, column))
    return 0;
  return g_ascii_strtoll (PQgetvalue (result, row, column), NULL, 10);
}

SluiceStoredJob *
sluice_pg_job_from_row (const PGresult *result,
                        int             row)
{
  SluiceStoredJob *job = g_new0 (SluiceStoredJob, 1);
  g_autofree char *state = text_at (result, row, 4);

  job->id = text_at (result, row, 0);
  job->tenant = text_at (result, row, 1);
  job->operation_key = text_at (result, row, 2);
  job->payload = text_at (result, row, 3);
  if (!sluice_stored_job_state_from_string (state, &job->state))
    g_warning ("A job in the state “%s”, which is none of this program’s", state);
  job->attempts = (guint) int_at (result, row, 5);
  job->max_attempts = (guint) int_at (result, row, 6);
  job->available_at = int_at (result, row, 7);
  job->lease_owner = text_at (result, row, 8);
  job->lease_token = text_at (result, row, 9);
  job->lease_expires_at = int_at (result, row, 10);
  if (!PQgetisnull (result, row, 11))
    job->last_failure = sluice_job_failure_new (PQgetvalue (result, row, 11),
                                                PQgetvalue (result, row, 12),
                                                PQgetvalue (result, row, 13),
                                                g_strcmp0 (PQgetvalue (result, row, 14), "t") == 0);
  job->result = text_at (result, row, 15);
  job->updated_at = int_at (result, row, 16);
  job->created_at = int_at (result, row, 17);
  job->cancel_requested = g_strcmp0 (PQgetvalue (result, row, 18), "t") == 0;
  return job;
}

typedef struct
{
  char text[24];
} Number;

static const char *
number (Number *buffer,
        gint64  value)
{
  g_snprintf (buffer->text, sizeof buffer->text, "%" G_GINT64_FORMAT, value);
  return buffer->text;
}

/* ---- the protocol ----------------------------------------------------------- */

/**
 * sluice_pg_connection_enqueue:
 *
 * INSERT … ON CONFLICT DO NOTHING: a new job is returned by the insert
 * (and NOTIFYs its tenant); an existing one is read after it, unchanged.
 * A concurrent insert of the same key makes ours wait for its commit, so
 * the read after it finds the row.
 */
static SluiceStoredJob *
sluice_pg_connection_enqueue (SluicePgConnection  *self,
                              const char          *tenant,
                              const char          *operation_key,
                              const char          *payload,
                              guint                max_attempts,
                              gint64               now,
                              gint64               available_at,
                              gboolean            *created,
                              GError             **error)
{
  g_autofree char *id = g_uuid_string_random ();
  Number attempts, at, available;
  /* available_at later than now: a scheduled job */
  const char *params[] = { id, tenant, operation_key, payload,
                           number (&attempts, max_attempts), number (&at, now),
                           number (&available, available_at) };
  const char *find_params[] = { tenant, operation_key };
  SluiceStoredJob *job = NULL;
  PGresult *result;

  if (!sluice_pg_connection_open (self, error))
    return NULL;

  result = exec_prepared (self, "sluice_enqueue", G_N_ELEMENTS (params), params, PGRES_TUPLES_OK, error);
  if (result == NULL)
    return NULL;
  *created = PQntuples (result) == 1;
  if (*created)
    job = sluice_pg_job_from_row (result, 0);
  PQclear (result);
  if (job != NULL)
    return job;

  result = exec_prepared (self, "sluice_find", G_N_ELEMENTS (find_params), find_params,
                          PGRES_TUPLES_OK, error);
  if (result == NULL)
    return NULL;
  if (PQntuples (result) == 1)
    job = sluice_pg_job_from_row (result, 0);
  else
    /* Translators: follows "The job store %s failed: ". */
    set_error (self, error, SLUICE_STORE_ERROR_BACKEND, _("the job that enqueue found is gone"));
  PQclear (result);
  return job;
}

/* Fencing: the claim's token must be a UUID to be the job's (the column's
 * type); one that is not cannot match, and is refused as a lost lease
 * rather than as the server's cast error. */
static gboolean
check_claim (SluicePgConnection    *self,
             const SluiceJobClaim  *claim,
             GError               **error)
{
  if (claim->token != NULL && g_uuid_string_is_valid (claim->token) &&
      claim->job != NULL && claim->job->id != NULL && g_uuid_string_is_valid (claim->job->id))
    return TRUE;
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST,
               /* Translators: %s is a job's id (a UUID). */
               _("The lease of job %s is not this claim’s"),
               claim->job != NULL && claim->job->id != NULL ? claim->job->id : "?");
  return FALSE;
}

/* Ends a fenced UPDATE: no row changed means the token is not the job's. */
static gboolean
fenced (const SluiceJobClaim  *claim,
        PGresult              *result,
        GError               **error)
{
  gboolean changed;

  if (result == NULL)
    return FALSE;
  changed = g_strcmp0 (PQcmdTuples (result), "1") == 0;
  PQclear (result);
  if (!changed)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST,
                 /* Translators: %s is a job's id (a UUID). */
                 _("The lease of job %s was lost: it expired and was released, or the job ended"),
                 claim->job->id);
  return changed;
}

static gboolean
sluice_pg_connection_renew (SluicePgConnection    *self,
                            const SluiceJobClaim  *claim,
                            gint64                 lease,
                            gint64                 now,
                            GError               **error)
{
  Number at, length;
  const char *params[] = { NULL, NULL, number (&at, now), number (&length, lease) };

  if (!check_claim (self, claim, error) || !sluice_pg_connection_open (self, error))
    return FALSE;
  PGresult *result;
  gboolean cancel;

  params[0] = claim->job->id;
  params[1] = claim->token;
  result = exec_prepared (self, "sluice_renew", G_N_ELEMENTS (params), params, PGRES_TUPLES_OK, error);
  cancel = result != NULL && PQntuples (result) == 1 && g_strcmp0 (PQgetvalue (result, 0, 0), "t") == 0;
  if (!fenced (claim, result, error))
    return FALSE;
  if (cancel)
    g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_CANCEL_REQUESTED,
                 /* Translators: %s is a job's id (a UUID) */
                 _("Job %s was cancelled by an operator: its attempt is to be cancelled"), claim->job->id);
  return !cancel;
}

static gboolean
sluice_pg_connection_complete (SluicePgConnection    *self,
                               const SluiceJobClaim  *claim,
                               const char            *result_json,
                               gint64                 now,
                               GError               **error)
{
  Number at;
  const char *params[] = { NULL, NULL, result_json, number (&at, now) };

  if (!check_claim (self, claim, error) || !sluice_pg_connection_open (self, error))
    return FALSE;
  params[0] = claim->job->id;
  params[1] = claim->token;
  return fenced (claim, exec_prepared (self, "sluice_complete", G_N_ELEMENTS (params), params,
                                       PGRES_TUPLES_OK, error), error);
}

static gboolean
sluice_pg_connection_fail (SluicePgConnection      *self,
                           const SluiceJobClaim    *claim,
                           const SluiceJobFailure  *failure,
                           gint64                   available_at,
                           gint64                   now,
                           GError                 **error)
{
  Number at, when;
  const char *params[] = {
    NULL, NULL, number (&when, available_at < 0 ? -1 : available_at),
    failure != NULL ? failure->type_name : NULL,
    failure != NULL ? failure->message : NULL,
    failure != NULL ? failure->code : NULL,
    failure != NULL ? (failure->retryable ? "true" : "false") : NULL,
    number (&at, now),
  };
  g_autofree char *tenant = NULL;
  gboolean retry = FALSE;
  PGresult *result;

  if (!check_claim (self, claim, error) || !sluice_pg_connection_open (self, error))
    return FALSE;
  params[0] = claim->job->id;
  params[1] = claim->token;
  result = exec_prepared (self, "sluice_fail", G_N_ELEMENTS (params), params, PGRES_TUPLES_OK, error);
  if (result != NULL && PQntuples (result) == 1)
    {
      tenant = text_at (result, 0, 0);
      retry = g_strcmp0 (PQgetvalue (result, 0, 1), "retry_wait") == 0;
    }
  if (!fenced (claim, result, error))
    return FALSE;

  /* The failure is recorded; a lost NOTIFY only delays the retry until the
   * workers' next poll, so its error is not the call's. */
  if (retry)
    {
      const char *notify_params[] = { tenant };
      g_autoptr (GError) notify_error = NULL;

      result = exec_prepared (self, "sluice_notify", 1, notify_params, PGRES_TUPLES_OK, &notify_error);
      if (result != NULL)
        PQclear (result);
      else
        g_debug ("%s", notify_error->message);
    }
  return TRUE;
}

/* The UPDATE's RETURNING sends the NOTIFY, in the same transaction: the
 * other workers hear of the job only once it is claimable. */
static gboolean
sluice_pg_connection_release (SluicePgConnection    *self,
                              const SluiceJobClaim  *claim,
                              gint64                 now,
                              GError               **error)
{
  Number at;
  const char *params[] = { NULL, NULL, number (&at, now) };
  PGresult *result;

  if (!check_claim (self, claim, error) || !sluice_pg_connection_open (self, error))
    return FALSE;
  params[0] = claim->job->id;
  params[1] = claim->token;
  result = exec_prepared (self, "sluice_release_claim", G_N_ELEMENTS (params), params, PGRES_TUPLES_OK, error);
  return fenced (claim, result, error);
}

static gint64
sluice_pg_connection_release_expired (SluicePgConnection  *self,
                                      const char          *tenant,
                                      gint64               now,
                                      guint                limit,
                                      GError             **error)
{
  Number at, most;
  const char *params[] = {
    tenant != NULL && tenant[0] != '\0' ? tenant : NULL,
    number (&at, now),
    number (&most, limit),
  };
  PGresult *result;
  gint64 released;

  if (!sluice_pg_connection_open (self, error))
    return -1;
  result = exec_prepared (self, "sluice_release", G_N_ELEMENTS (params), params, PGRES_TUPLES_OK, error);
  if (result == NULL)
    return -1;
  released = PQntuples (result);
  PQclear (result);
  return released;
}

static SluiceStoreStatus *
sluice_pg_connection_get_status (SluicePgConnection  *self,
                                 const char          *tenant,
                                 guint                n_failures,
                                 gint64               now,
                                 GError             **error)
{
  Number most, at;
  const char *params[] = { tenant != NULL && tenant[0] != '\0' ? tenant : NULL,
                           number (&most, n_failures) };
  const char *count_params[] = { params[0], number (&at, now) };
  g_autoptr (SluiceStoreStatus) status = NULL;
  PGresult *result;

  if (!sluice_pg_connection_open (self, error))
    return NULL;

  result = exec_prepared (self, "sluice_counts", G_N_ELEMENTS (count_params), count_params,
                          PGRES_TUPLES_OK, error);
  if (result == NULL)
    return NULL;
  status = g_new0 (SluiceStoreStatus, 1);
  status->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_stored_job_free);
  for (int row = 0; row < PQntuples (result); row++)
    {
      SluiceStoredJobState state;

      if (sluice_stored_job_state_from_string (PQgetvalue (result, row, 0), &state))
        status->counts[state] = (guint64) int_at (result, row, 1);
    }
  PQclear (result);

  if (n_failures == 0)
    return g_steal_pointer (&status);
  result = exec_prepared (self, "sluice_failures", G_N_ELEMENTS (params), params, PGRES_TUPLES_OK, error);
  if (result == NULL)
    return NULL;
  for (int row = 0; row < PQntuples (result); row++)
    g_ptr_array_add (status->failures, sluice_pg_job_from_row (result, row));
  PQclear (result);
  return g_steal_pointer (&status);
}

/* ---- for sluice-pg-connection-admin.c -------------------------------------- */

PGconn *
sluice_pg_connection_get_conn (SluicePgConnection *self)
{
  return self->conn;
}

/* Before a query whose plan should fit its values (the admin queries,
 * written for each call): see PlanMode. */
void
sluice_pg_connection_plan_per_values (SluicePgConnection *self)
{
  if (self->conn != NULL)
    use_plans (self, PLAN_AUTO);
}

void
sluice_pg_connection_set_error (SluicePgConnection  *self,
                                const char          *libpq_message,
                                GError             **error)
{
  set_error (self, error, SLUICE_STORE_ERROR_BACKEND, libpq_message);
  forget_if_broken (self);
}

/* ---- batches: SluiceStoreBackend's virtuals ----------------------------------- */

/* The connection of the lane a request runs on. */
static SluicePgConnection *
connection_of (SluiceStoreBackend       *backend,
               const SluiceStoreRequest *request)
{
  return sluice_pg_store_get_connection (SLUICE_PG_STORE (backend), request->lane);
}

static gboolean
pg_open (SluiceStoreBackend  *backend,
         guint                lane,
         GError             **error)
{
  return sluice_pg_connection_open (sluice_pg_store_get_connection (SLUICE_PG_STORE (backend), lane), error);
}

/* Each enqueue on its own (a commit each): one that fails, as on a full
 * disk, fails alone. */
static void
pg_enqueue (SluiceStoreBackend  *backend,
            SluiceStoreRequest **requests,
            guint                n)
{
  for (guint i = 0; i < n; i++)
    {
      SluiceStoreRequest *r = requests[i];

      r->value = sluice_pg_connection_enqueue (connection_of (backend, r), r->tenant, r->operation_key,
                                               r->text, r->count, r->now, r->available_at,
                                               &r->created, &r->error);
      r->value_free = (GDestroyNotify) sluice_stored_job_free;
    }
}

/* Up to r->count claims in one statement. */
static void
pg_claim (SluiceStoreBackend *backend,
          SluiceStoreRequest *r)
{
  SluicePgConnection *self = connection_of (backend, r);
  Number at, length, most;
  const char *params[] = { r->tenant, r->owner, number (&at, r->now), number (&length, r->lease),
                           number (&most, MAX (r->count, 1)) };
  g_autoptr(GArray) order = NULL;
  GPtrArray *claims;
  PGresult *result;
  int n_rows;

  result = exec_prepared (self, "sluice_claim_batch", G_N_ELEMENTS (params), params,
                          PGRES_TUPLES_OK, &r->error);
  if (result == NULL)
    return;
  n_rows = PQntuples (result);
  /* Sorted by (available_at, created_seq): the rows as the claim took them. */
  order = g_array_sized_new (FALSE, FALSE, sizeof (int), n_rows);
  for (int row = 0; row < n_rows; row++)
    {
      int j = (int) order->len;

      while (j > 0)
        {
          int other = g_array_index (order, int, j - 1);
          gint64 a = int_at (result, other, 7), b = int_at (result, row, 7);

          if (a < b || (a == b && int_at (result, other, 19) < int_at (result, row, 19)))
            break;
          j--;
        }
      g_array_insert_val (order, j, row);
    }
  claims = g_ptr_array_new_full (n_rows, (GDestroyNotify) sluice_job_claim_free);
  for (guint i = 0; i < order->len; i++)
    {
      SluiceJobClaim *claim = g_new0 (SluiceJobClaim, 1);

      claim->job = sluice_pg_job_from_row (result, g_array_index (order, int, i));
      claim->owner = g_strdup (r->owner);
      claim->token = g_strdup (claim->job->lease_token);
      g_ptr_array_add (claims, claim);
    }
  PQclear (result);
  r->value = claims;
  r->value_free = (GDestroyNotify) g_ptr_array_unref;
}

static void
pg_renew (SluiceStoreBackend  *backend,
          SluiceStoreRequest **requests,
          guint                n)
{
  for (guint i = 0; i < n; i++)
    sluice_pg_connection_renew (connection_of (backend, requests[i]), requests[i]->claim, requests[i]->lease,
                                requests[i]->now, &requests[i]->error);
}

/* An element of a PostgreSQL array literal: quoted, or NULL. */
static void
append_element (GString    *array,
                const char *text)
{
  if (array->len > 1)
    g_string_append_c (array, ',');
  if (text == NULL)
    {
      g_string_append (array, "NULL");
      return;
    }
  g_string_append_c (array, '"');
  for (const char *c = text; *c != '\0'; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_c (array, '\\');
      g_string_append_c (array, *c);
    }
  g_string_append_c (array, '"');
}

/* The completions of a batch in one statement: one round trip, one
 * commit. Those whose token is not a UUID are fenced out before. */
static void
complete_batch (SluicePgConnection  *self,
                SluiceStoreRequest **requests,
                guint                n)
{
  g_autoptr(GString) ids = g_string_new ("{");
  g_autoptr(GString) tokens = g_string_new ("{");
  g_autoptr(GString) results = g_string_new ("{");
  g_autoptr(GString) times = g_string_new ("{");
  g_autoptr(GHashTable) done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *params[4];
  GError *error = NULL;
  PGresult *result;

  for (guint i = 0; i < n; i++)
    {
      Number at;

      if (!check_claim (self, requests[i]->claim, &requests[i]->error))
        continue;
      append_element (ids, requests[i]->claim->job->id);
      append_element (tokens, requests[i]->claim->token);
      append_element (results, requests[i]->text);
      append_element (times, number (&at, requests[i]->now));
    }
  g_string_append_c (ids, '}');
  g_string_append_c (tokens, '}');
  g_string_append_c (results, '}');
  g_string_append_c (times, '}');
  params[0] = ids->str;
  params[1] = tokens->str;
  params[2] = results->str;
  params[3] = times->str;
  result = exec_prepared (self, "sluice_complete_batch", 4, params, PGRES_TUPLES_OK, &error);
  if (result == NULL)
    {
      for (guint i = 0; i < n; i++)
        if (requests[i]->error == NULL)
          requests[i]->error = g_error_copy (error);
      g_error_free (error);
      return;
    }
  for (int row = 0; row < PQntuples (result); row++)
    g_hash_table_add (done, g_strconcat (PQgetvalue (result, row, 0), "#", PQgetvalue (result, row, 1), NULL));
  PQclear (result);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *key = NULL;

      if (requests[i]->error != NULL)
        continue;
      key = g_strconcat (requests[i]->claim->job->id, "#", requests[i]->claim->token, NULL);
      if (!g_hash_table_contains (done, key))
        sluice_store_request_lease_lost (requests[i]);
    }
}

/* Completions together; failures and releases (rare) one by one. */
static void
pg_finish (SluiceStoreBackend  *backend,
           SluiceStoreRequest **requests,
           guint                n)
{
  SluicePgConnection *self = connection_of (backend, requests[0]);
  g_autoptr(GPtrArray) completions = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    {
      SluiceStoreRequest *r = requests[i];

      if (r->op == SLUICE_STORE_OP_COMPLETE)
        g_ptr_array_add (completions, r);
      else if (r->op == SLUICE_STORE_OP_FAIL)
        sluice_pg_connection_fail (self, r->claim, r->failure, r->available_at, r->now, &r->error);
      else
        sluice_pg_connection_release (self, r->claim, r->now, &r->error);
    }
  if (completions->len == 1)
    {
      SluiceStoreRequest *r = g_ptr_array_index (completions, 0);

      sluice_pg_connection_complete (self, r->claim, r->text, r->now, &r->error);
    }
  else if (completions->len > 1)
    complete_batch (self, (SluiceStoreRequest **) completions->pdata, completions->len);
}

static void
pg_release_expired (SluiceStoreBackend *backend,
                    SluiceStoreRequest *r)
{
  r->number = sluice_pg_connection_release_expired (connection_of (backend, r), r->tenant, r->now,
                                                    r->count, &r->error);
}

static void
pg_get_status (SluiceStoreBackend *backend,
               SluiceStoreRequest *r)
{
  r->value = sluice_pg_connection_get_status (connection_of (backend, r), r->tenant, r->count, r->now,
                                              &r->error);
  r->value_free = (GDestroyNotify) sluice_store_status_free;
}

void
sluice_pg_jobs_class_init (SluiceStoreBackendClass *klass)
{
  klass->open = pg_open;
  klass->enqueue = pg_enqueue;
  klass->claim = pg_claim;
  klass->renew = pg_renew;
  klass->finish = pg_finish;
  klass->release_expired = pg_release_expired;
  klass->get_status = pg_get_status;
  sluice_pg_admin_class_init (klass);
}
