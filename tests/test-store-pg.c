/* test-store-pg.c: SluicePgStore against a real PostgreSQL (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The server is SLUICE_TEST_PG_URI's: scripts/test starts a throw-away
 * PostgreSQL 15 (tests/pg-server.sh) and exports it. Every case gets a
 * schema of its own in that database (the URI's options=-csearch_path=…),
 * dropped at the end. Without the variable the cases that need a server
 * are skipped, unless CI=true or SLUICE_REQUIRE_PG=1 says they must run.
 */

#include <libpq-fe.h>
#include <string.h>
#include <unistd.h>

#include "sluice-pg-store.h"
#include "store-fixture.h"
#include "test-helpers.h"

/* The most a case waits for the server or a notification: a watchdog that
 * fails the case, not a sleep. */
#define WATCHDOG_SECONDS 20

static const char *base_uri;
static GPtrArray *schemas;

/* ---- the server, directly ---------------------------------------------------- */

static void
ignore_notice (void       *arg,
               const char *message)
{
}

static PGconn *
connect_to (const char *uri)
{
  PGconn *conn = PQconnectdb (uri);

  if (PQstatus (conn) != CONNECTION_OK)
    g_error ("cannot connect to %s: %s", uri, PQerrorMessage (conn));
  /* DROP SCHEMA … CASCADE says what it dropped. */
  PQsetNoticeProcessor (conn, ignore_notice, NULL);
  return conn;
}

static void
exec_on (PGconn     *conn,
         const char *sql)
{
  PGresult *result = PQexec (conn, sql);

  if (PQresultStatus (result) != PGRES_COMMAND_OK && PQresultStatus (result) != PGRES_TUPLES_OK)
    g_error ("%s: %s", sql, PQresultErrorMessage (result));
  PQclear (result);
}

static void
exec_sql (const char *uri,
          const char *sql)
{
  PGconn *conn = connect_to (uri);

  exec_on (conn, sql);
  PQfinish (conn);
}

/* The first column of the first row of @sql's result, or NULL. */
static char *
query_value (const char *uri,
             const char *sql)
{
  PGconn *conn = connect_to (uri);
  char *value = store_fixture_pg_value (conn, sql);

  PQfinish (conn);
  return value;
}

/* A new, empty schema, dropped when the program ends; returns the URI
 * whose connections use it. @extra is more URI parameters, or NULL. */
static char *
schema_uri (const char **schema_out,
            const char  *extra)
{
  char *schema = NULL;
  char *uri = store_fixture_new_schema ("test", extra, &schema);

  g_ptr_array_add (schemas, schema);
  if (schema_out != NULL)
    *schema_out = schema;
  return uri;
}

static void
drop_schemas (void)
{
  for (guint i = 0; i < schemas->len; i++)
    {
      g_autofree char *drop = g_strdup_printf ("DROP SCHEMA %s CASCADE",
                                               (char *) g_ptr_array_index (schemas, i));

      exec_sql (base_uri, drop);
    }
}

/* The shared protocol suite's factory: a store on a fresh schema. */
static SluiceJobStore *
make_store (char   **uri,
            GError **error)
{
  g_autofree char *store_uri = schema_uri (NULL, NULL);
  SluiceJobStore *store = sluice_job_store_new_for_uri (store_uri, error);

  if (uri != NULL)
    *uri = g_steal_pointer (&store_uri);
  return store;
}

static SluiceJobStore *
store_on (const char *uri)
{
  g_autoptr (GError) error = NULL;
  SluiceJobStore *store = sluice_job_store_new_for_uri (uri, &error);

  g_assert_no_error (error);
  g_assert_true (SLUICE_IS_PG_STORE (store));
  return store;
}

/* Waits until @count is 0, iterating the main context; a watchdog fails
 * the case instead of waiting for ever. */
static void
wait_for_zero (const guint *count,
               const char  *what)
{
  SLUICE_TEST_SPIN_WITHIN (WATCHDOG_SECONDS, what, *count == 0);
}

/* Waits until @flag is set, iterating the main context; a watchdog fails
 * the case instead of waiting for ever. */
static void
wait_for (const gboolean *flag,
          const char     *what)
{
  SLUICE_TEST_SPIN_WITHIN (WATCHDOG_SECONDS, what, *flag);
}

static void
assert_status_ok (SluiceJobStore *store)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SluiceStoreStatus) status = store_fixture_status (store, NULL, 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (status);
}

/* ---- LISTEN/NOTIFY -------------------------------------------------------------- */

typedef struct
{
  GPtrArray *tenants;
  gboolean   woken;
} Wakeups;

static void
on_jobs_available (SluiceJobStore *store,
                   const char     *tenant,
                   gpointer        user_data)
{
  Wakeups *wakeups = user_data;

  g_ptr_array_add (wakeups->tenants, g_strdup (tenant));
  wakeups->woken = TRUE;
}

static void
test_notify_enqueue_wakes_another_store (void)
{
  g_autofree char *uri = schema_uri (NULL, NULL);
  g_autoptr (SluiceJobStore) producer = store_on (uri);
  g_autoptr (SluiceJobStore) worker = store_on (uri);
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (GError) error = NULL;
  Wakeups wakeups = { g_ptr_array_new_with_free_func (g_free), FALSE };
  gboolean created;

  /* A first call connects the worker's store, which LISTENs from then on. */
  assert_status_ok (worker);
  g_signal_connect (worker, "jobs-available", G_CALLBACK (on_jobs_available), &wakeups);

  job = store_fixture_enqueue (producer, "tenant-n", "op-1", "{}", 3, 1000, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);

  wait_for (&wakeups.woken, "jobs-available after an enqueue");
  g_assert_cmpstr (g_ptr_array_index (wakeups.tenants, 0), ==, "tenant-n");
  g_ptr_array_unref (wakeups.tenants);
}

/* NOTIFY is the database's: a store in another schema of the same
 * database (another application, another suite's tests) must not wake
 * this one, nor have its tenants reported here. The other schema's
 * enqueue commits first, so a notification that crossed would arrive
 * before this schema's own. */
static void
test_notify_stays_within_its_schema (void)
{
  g_autofree char *uri = schema_uri (NULL, NULL);
  g_autofree char *other_uri = schema_uri (NULL, NULL);
  g_autoptr (SluiceJobStore) producer = store_on (uri);
  g_autoptr (SluiceJobStore) other_producer = store_on (other_uri);
  g_autoptr (SluiceJobStore) worker = store_on (uri);
  g_autoptr (SluiceStoredJob) other_job = NULL;
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (GError) error = NULL;
  Wakeups wakeups = { g_ptr_array_new_with_free_func (g_free), FALSE };
  gboolean created;

  assert_status_ok (worker);
  g_signal_connect (worker, "jobs-available", G_CALLBACK (on_jobs_available), &wakeups);

  other_job = store_fixture_enqueue (other_producer, "tenant-elsewhere", "op-1", "{}", 3, 1000, &created, &error);
  g_assert_no_error (error);
  job = store_fixture_enqueue (producer, "tenant-here", "op-1", "{}", 3, 1000, &created, &error);
  g_assert_no_error (error);

  wait_for (&wakeups.woken, "jobs-available after an enqueue");
  g_assert_cmpuint (wakeups.tenants->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (wakeups.tenants, 0), ==, "tenant-here");
  g_ptr_array_unref (wakeups.tenants);
}

static void
test_notify_retry_wakes_another_store (void)
{
  g_autofree char *uri = schema_uri (NULL, NULL);
  g_autoptr (SluiceJobStore) producer = store_on (uri);
  g_autoptr (SluiceJobStore) worker = store_on (uri);
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (SluiceJobClaim) claim = NULL;
  g_autoptr (SluiceJobFailure) failure = sluice_job_failure_new ("OSError", "flaky", "IO", TRUE);
  g_autoptr (GError) error = NULL;
  Wakeups wakeups = { g_ptr_array_new_with_free_func (g_free), FALSE };
  gboolean created;

  job = store_fixture_enqueue (producer, "tenant-r", "op-1", "{}", 3, 1000, &created, &error);
  g_assert_no_error (error);
  claim = store_fixture_claim (producer, "tenant-r", "w1", 30000000, 2000, &error);
  g_assert_no_error (error);
  g_assert_nonnull (claim);

  assert_status_ok (worker);
  g_signal_connect (worker, "jobs-available", G_CALLBACK (on_jobs_available), &wakeups);
  g_assert_true (store_fixture_fail (producer, claim, failure, 5000, 3000, &error));
  g_assert_no_error (error);

  wait_for (&wakeups.woken, "jobs-available after a fail with a retry");
  g_assert_cmpstr (g_ptr_array_index (wakeups.tenants, 0), ==, "tenant-r");
  g_ptr_array_unref (wakeups.tenants);
}

/* ---- concurrent claims ------------------------------------------------------------ */

#define N_JOBS 40
#define N_CLAIMS_EACH 30

typedef struct
{
  GHashTable *ids;
  guint       answered;
  guint       claimed;
  guint       duplicates;
  gboolean    all_answered;
} Claims;

static void
on_claimed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Claims *claims = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (SluiceJobClaim) claim =
    sluice_job_store_claim_next_finish (SLUICE_JOB_STORE (source), result, &error);

  g_assert_no_error (error);
  if (claim != NULL)
    {
      claims->claimed++;
      if (!g_hash_table_add (claims->ids, g_strdup (claim->job->id)))
        claims->duplicates++;
    }
  claims->all_answered = ++claims->answered == 2 * N_CLAIMS_EACH;
}

static void
test_concurrent_claims_never_share_a_job (void)
{
  g_autofree char *uri = schema_uri (NULL, NULL);
  g_autoptr (SluiceJobStore) first = store_on (uri);
  g_autoptr (SluiceJobStore) second = store_on (uri);
  Claims claims = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL) };

  for (guint i = 0; i < N_JOBS; i++)
    {
      g_autofree char *key = g_strdup_printf ("op-%u", i);
      g_autoptr (GError) error = NULL;
      gboolean created;
      g_autoptr (SluiceStoredJob) G_GNUC_UNUSED job =
        store_fixture_enqueue (first, "tenant-c", key, "{}", 3, 1000 + i, &created, &error);

      g_assert_no_error (error);
    }
  assert_status_ok (second);

  /* Both stores' threads claim at once, each on its own connection: more
   * claims than jobs, so the last ones find the table empty. */
  for (guint i = 0; i < N_CLAIMS_EACH; i++)
    {
      sluice_job_store_claim_next_async (first, "tenant-c", "first", 30000000, 5000, NULL,
                                         on_claimed, &claims);
      sluice_job_store_claim_next_async (second, "tenant-c", "second", 30000000, 5000, NULL,
                                         on_claimed, &claims);
    }
  wait_for (&claims.all_answered, "the claims");

  g_assert_cmpuint (claims.duplicates, ==, 0);
  /* SKIP LOCKED: a claim that meets a row locked by the other takes the
   * next one instead of finding none, so every job is claimed. */
  g_assert_cmpuint (claims.claimed, ==, N_JOBS);
  g_assert_cmpuint (g_hash_table_size (claims.ids), ==, N_JOBS);
  g_hash_table_unref (claims.ids);
}

/* ---- the protocol's plans ------------------------------------------------ */

typedef struct
{
  GPtrArray *claims;
  guint      pending;
} Batch;

static void
on_batch_claimed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Batch *batch = user_data;
  g_autoptr (GError) error = NULL;

  batch->claims = sluice_job_store_claim_finish (SLUICE_JOB_STORE (source), result, &error);
  g_assert_no_error (error);
  batch->pending--;
}

static void
on_batch_completed (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Batch *batch = user_data;
  g_autoptr (GError) error = NULL;

  g_assert_true (sluice_job_store_complete_finish (SLUICE_JOB_STORE (source), result, &error));
  g_assert_no_error (error);
  batch->pending--;
}

/* A counter of pg_stat_user_tables for @table of @schema. */
static gint64
table_counter (PGconn     *conn,
               const char *schema,
               const char *table,
               const char *counter)
{
  g_autofree char *sql = g_strdup_printf ("SELECT coalesce (sum (%s), 0) FROM pg_stat_user_tables"
                                          " WHERE schemaname = '%s' AND relname = '%s'",
                                          counter, schema, table);
  g_autofree char *value = store_fixture_pg_value (conn, sql);

  return g_ascii_strtoll (value, NULL, 10);
}

/* The server counts a backend's work when the backend flushes its
 * statistics, at the latest when it exits, after the store let go of its
 * connections, and nothing tells a client when: so the case polls the
 * counter until it shows the work (a wall-clock wait, bounded). */
static void
wait_for_counter (PGconn     *conn,
                  const char *schema,
                  const char *table,
                  const char *counter,
                  gint64      at_least)
{
  for (guint tries = 0; table_counter (conn, schema, table, counter) < at_least; tries++)
    {
      if (tries == WATCHDOG_SECONDS * 20)
        g_error ("the server's %s of %s never showed the store's work", counter, table);
      g_usleep (G_USEC_PER_SEC / 20);
    }
}

#define N_PLANNED 40
#define PLANNED_BATCH 4

/* The rule (docs/job-store.md, PostgreSQL): the protocol's statements
 * reach their rows through indexes, whatever the statistics say. On a
 * store just made and vacuumed (no attempts yet), claims and batches of completions of
 * N_PLANNED jobs scan neither sluice_jobs nor sluice_attempts whole: a
 * generic plan made from those statistics did, for every job, and kept
 * doing so. (Making the schema scans them, to build its indexes: those
 * scans are counted before.) */
static void
test_protocol_never_scans_a_table_whole (void)
{
  const char *schema = NULL;
  g_autofree char *uri = schema_uri (&schema, NULL);
  SluiceJobStore *store = store_on (uri);
  PGconn *conn = connect_to (base_uri);
  g_autofree char *vacuum = NULL;
  gint64 jobs_scans, attempts_scans;
  guint done = 0;

  for (guint i = 0; i < N_PLANNED; i++)
    {
      g_autofree char *key = g_strdup_printf ("op-%u", i);
      g_autoptr (GError) error = NULL;
      gboolean created;
      g_autoptr (SluiceStoredJob) G_GNUC_UNUSED job =
        store_fixture_enqueue (store, "tenant-p", key, "{}", 3, 1000 + i, &created, &error);

      g_assert_no_error (error);
    }
  /* The connections go with the store. */
  g_clear_object (&store);
  wait_for_counter (conn, schema, "sluice_schema", "n_tup_ins", 1);
  wait_for_counter (conn, schema, "sluice_jobs", "n_tup_ins", N_PLANNED);
  /* As autovacuum would (and the benchmark does before each drain): the
   * statistics say sluice_attempts is empty, which it is until the first
   * claim. */
  vacuum = g_strdup_printf ("VACUUM %s.sluice_jobs, %s.sluice_attempts", schema, schema);
  exec_on (conn, vacuum);
  jobs_scans = table_counter (conn, schema, "sluice_jobs", "seq_scan");
  attempts_scans = table_counter (conn, schema, "sluice_attempts", "seq_scan");

  store = store_on (uri);
  while (done < N_PLANNED)
    {
      Batch batch = { NULL, 1 };

      sluice_job_store_claim_async (store, "tenant-p", "planner", 30000000, 5000, PLANNED_BATCH, NULL,
                                    on_batch_claimed, &batch);
      wait_for_zero (&batch.pending, "a claim");
      g_assert_cmpuint (batch.claims->len, ==, PLANNED_BATCH);
      batch.pending = batch.claims->len;
      for (guint i = 0; i < batch.claims->len; i++)
        sluice_job_store_complete_async (store, g_ptr_array_index (batch.claims, i), "{}", 6000, NULL,
                                         on_batch_completed, &batch);
      wait_for_zero (&batch.pending, "the completions");
      done += batch.claims->len;
      g_ptr_array_unref (batch.claims);
    }
  g_clear_object (&store);

  /* Both connections' work: the attempts the claims began and the
   * completions ended. */
  wait_for_counter (conn, schema, "sluice_attempts", "n_tup_ins", N_PLANNED);
  wait_for_counter (conn, schema, "sluice_attempts", "n_tup_upd", N_PLANNED);
  g_assert_cmpint (table_counter (conn, schema, "sluice_jobs", "seq_scan"), ==, jobs_scans);
  g_assert_cmpint (table_counter (conn, schema, "sluice_attempts", "seq_scan"), ==, attempts_scans);
  PQfinish (conn);
}

typedef struct
{
  SluiceJobClaim *claim;
  GError         *error;
  gboolean        done;
} Answer;

static void
on_claim (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Answer *answer = user_data;

  answer->claim = sluice_job_store_claim_next_finish (SLUICE_JOB_STORE (source), result, &answer->error);
  answer->done = TRUE;
}

/* A claim does not wait for a row that another transaction holds (a
 * claim in flight elsewhere): it takes the next one (SKIP LOCKED). Were it
 * to wait, the watchdog would end the case. */
static void
test_claim_skips_a_job_another_transaction_holds (void)
{
  const char *schema;
  g_autofree char *uri = schema_uri (&schema, NULL);
  g_autoptr (SluiceJobStore) store = store_on (uri);
  g_autofree char *hold = g_strdup_printf ("SELECT id FROM %s.sluice_jobs WHERE operation_key = 'first'"
                                           " FOR UPDATE", schema);
  g_autoptr (SluiceJobClaim) claim = NULL;
  g_autoptr (SluiceJobClaim) after = NULL;
  g_autoptr (GError) error = NULL;
  Answer answer = { NULL, NULL, FALSE };
  PGconn *holder;

  for (guint i = 0; i < 2; i++)
    {
      gboolean created;
      g_autoptr (SluiceStoredJob) G_GNUC_UNUSED job =
        store_fixture_enqueue (store, "tenant-s", i == 0 ? "first" : "second", "{}", 3, 1000 + i,
                               &created, &error);

      g_assert_no_error (error);
    }

  holder = connect_to (base_uri);
  exec_on (holder, "BEGIN");
  exec_on (holder, hold);

  /* The fixture's synchronous form has no watchdog. */
  sluice_job_store_claim_next_async (store, "tenant-s", "w1", 30000000, 5000, NULL, on_claim, &answer);
  wait_for (&answer.done, "a claim while another transaction holds the oldest job");
  g_assert_no_error (answer.error);
  claim = g_steal_pointer (&answer.claim);
  g_assert_nonnull (claim);
  g_assert_cmpstr (claim->job->operation_key, ==, "second");

  exec_on (holder, "COMMIT");
  PQfinish (holder);
  after = store_fixture_claim (store, "tenant-s", "w1", 30000000, 5000, &error);
  g_assert_no_error (error);
  g_assert_nonnull (after);
  g_assert_cmpstr (after->job->operation_key, ==, "first");
}

/* ---- secrets --------------------------------------------------------------------- */

static void
assert_secret_hidden (const GError *error)
{
  g_test_message ("%s", error->message);
  g_assert_null (strstr (error->message, "secret"));
  g_assert_null (strstr (error->message, "zzcret"));
}

static void
test_password_not_in_connection_errors (void)
{
  static const char *const uris[] = {
    "postgresql://u:secret@/x?host=/nonexistent",
    "postgresql:///x?host=/nonexistent&password=secret",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (uris); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (SluiceJobStore) store = sluice_job_store_new_for_uri (uris[i], &error);
      g_autoptr (SluiceStoreStatus) status = NULL;

      /* Nothing connects before the first request. */
      g_assert_no_error (error);
      status = store_fixture_status (store, NULL, 0, &error);
      g_assert_null (status);
      g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND);
      assert_secret_hidden (error);
      g_assert_nonnull (strstr (error->message, "/nonexistent"));
    }
}

static void
test_password_not_in_uri_errors (void)
{
  static const char *const uris[] = {
    "postgresql://u:secret@[bad/x",
    "postgresql://u:se%zzcret@h/x",
    "postgresql://u:secret@h/x?nonsense=1",
    "postgresql://[bad/x?sslpassword=secret",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (uris); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (SluiceJobStore) store = sluice_job_store_new_for_uri (uris[i], &error);

      g_assert_null (store);
      g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI);
      assert_secret_hidden (error);
    }
}

/* ---- the schema ------------------------------------------------------------------ */

static void
test_schema_newer_version_refused (void)
{
  const char *schema;
  g_autofree char *uri = schema_uri (&schema, NULL);
  g_autofree char *create = g_strdup_printf ("CREATE TABLE %s.sluice_schema (version integer NOT NULL);"
                                             "INSERT INTO %s.sluice_schema VALUES (99)",
                                             schema, schema);
  g_autofree char *jobs_table = g_strdup_printf ("SELECT to_regclass('%s.sluice_jobs')", schema);
  g_autoptr (SluiceJobStore) store = NULL;
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *table = NULL;
  gboolean created;

  exec_sql (base_uri, create);
  store = store_on (uri);
  job = store_fixture_enqueue (store, "tenant", "op", "{}", 3, 1000, &created, &error);
  g_assert_null (job);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, "99"));

  /* Nothing was made beside the newer schema. */
  table = query_value (base_uri, jobs_table);
  g_assert_null (table);
}

/* ---- opening: what is a store, and who may make one ------------------------------ */

static char *
table_in (const char *schema,
          const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT to_regclass('%s.%s')", schema, table);

  return query_value (base_uri, sql);
}

/* A schema with another program's table is refused for writing and left
 * as it was; with init, the store is made beside the table. */
static void
test_foreign_schema_is_made_a_store_only_with_init (void)
{
  const char *schema;
  g_autofree char *uri = schema_uri (&schema, NULL);
  g_autofree char *create = g_strdup_printf ("CREATE TABLE %s.orders (id serial PRIMARY KEY, item text);"
                                             "INSERT INTO %s.orders (item) VALUES ('tea')", schema, schema);
  g_autofree char *select = g_strdup_printf ("SELECT item FROM %s.orders", schema);
  g_autoptr (SluiceJobStore) store = NULL;
  g_autoptr (SluiceJobStore) init = NULL;
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *ours = NULL;
  g_autofree char *item = NULL;
  gboolean created;

  exec_sql (base_uri, create);
  store = store_on (uri);
  job = store_fixture_enqueue (store, "tenant", "op", "{}", 3, 1000, &created, &error);
  g_assert_null (job);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE);
  g_assert_nonnull (strstr (error->message, "orders"));
  g_assert_nonnull (strstr (error->message, "--init"));
  g_clear_error (&error);
  ours = table_in (schema, "sluice_schema");
  g_assert_null (ours);

  init = sluice_job_store_open_for_uri (uri, SLUICE_JOB_STORE_OPEN_INIT, &error);
  g_assert_no_error (error);
  job = store_fixture_enqueue (init, "tenant", "op", "{}", 3, 1000, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  item = query_value (base_uri, select);
  g_assert_cmpstr (item, ==, "tea");
}

/* store-status's way: a schema without a store gets none; a store is read
 * and never written. */
static void
test_read_only_never_makes_a_store (void)
{
  const char *schema;
  g_autofree char *uri = schema_uri (&schema, NULL);
  g_autoptr (SluiceJobStore) reader = NULL;
  g_autoptr (SluiceJobStore) writer = NULL;
  g_autoptr (SluiceStoreStatus) none = NULL;
  g_autoptr (SluiceStoreStatus) status = NULL;
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (SluiceStoredJob) refused = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *ours = NULL;
  gboolean created;

  reader = sluice_job_store_open_for_uri (uri, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  none = store_fixture_status (reader, NULL, 0, &error);
  g_assert_null (none);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE);
  g_assert_nonnull (strstr (error->message, schema));
  g_clear_error (&error);
  ours = table_in (schema, "sluice_schema");
  g_assert_null (ours);

  writer = store_on (uri);
  job = store_fixture_enqueue (writer, "tenant", "op", "{}", 3, 1000, &created, &error);
  g_assert_no_error (error);
  /* The reader tries again at its next call. */
  status = store_fixture_status (reader, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 1);
  refused = store_fixture_enqueue (reader, "tenant", "op-2", "{}", 3, 1000, &created, &error);
  g_assert_null (refused);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, "read-only"));
}

typedef struct
{
  guint    answered;
  guint    failed;
  gboolean both;
} Starts;

static void
on_started (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Starts *starts = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (SluiceStoreStatus) G_GNUC_UNUSED status =
    sluice_job_store_get_status_finish (SLUICE_JOB_STORE (source), result, &error);

  if (error != NULL)
    {
      g_test_message ("%s", error->message);
      starts->failed++;
    }
  starts->both = ++starts->answered == 2;
}

static void
test_schema_made_once_by_two_stores_at_once (void)
{
  const char *schema;
  g_autofree char *uri = schema_uri (&schema, NULL);
  g_autofree char *versions = g_strdup_printf ("SELECT string_agg(version::text, ',' ORDER BY version) FROM %s.sluice_schema",
                                               schema);
  g_autoptr (SluiceJobStore) first = store_on (uri);
  g_autoptr (SluiceJobStore) second = store_on (uri);
  g_autofree char *recorded = NULL;
  Starts starts = { 0 };

  sluice_job_store_get_status_async (first, NULL, 0, NULL, on_started, &starts);
  sluice_job_store_get_status_async (second, NULL, 0, NULL, on_started, &starts);
  wait_for (&starts.both, "the two stores' first calls");

  g_assert_cmpuint (starts.failed, ==, 0);
  recorded = query_value (base_uri, versions);
  /* Each migration recorded once (version 2: docs/store-admin.md). */
  g_assert_cmpstr (recorded, ==, "1,2");
}

/* ---- connections ------------------------------------------------------------------ */

static void
test_reconnects_after_the_server_ends_the_session (void)
{
  g_autofree char *name = g_strdup_printf ("sluice-test-%d", (int) getpid ());
  g_autofree char *extra = g_strdup_printf ("application_name=%s", name);
  g_autofree char *uri = schema_uri (NULL, extra);
  g_autofree char *terminate = g_strdup_printf ("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                                                " WHERE application_name = '%s'", name);
  g_autoptr (SluiceJobStore) store = store_on (uri);
  g_autoptr (SluiceStoredJob) job = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *terminated = NULL;
  guint failures = 0;
  gboolean created;

  assert_status_ok (store);
  terminated = query_value (base_uri, terminate);
  g_assert_cmpstr (terminated, ==, "1");

  /* The first call after it may meet the dead connection; the next one
   * connects again. */
  for (guint i = 0; i < 2 && job == NULL; i++)
    {
      g_clear_error (&error);
      job = store_fixture_enqueue (store, "tenant", "op", "{}", 3, 1000, &created, &error);
      if (job == NULL)
        {
          g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND);
          failures++;
        }
    }
  g_assert_no_error (error);
  g_assert_nonnull (job);
  g_assert_cmpuint (failures, <=, 1);
}

typedef struct
{
  GError  *error;
  gboolean done;
} Cancelled;

static void
on_cancelled_enqueue (GObject      *source,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  Cancelled *cancelled = user_data;
  g_autoptr (SluiceStoredJob) job =
    sluice_job_store_enqueue_finish (SLUICE_JOB_STORE (source), result, NULL, &cancelled->error);

  g_assert_null (job);
  cancelled->done = TRUE;
}

static void
test_cancelled_request_does_not_run (void)
{
  g_autofree char *uri = schema_uri (NULL, NULL);
  g_autoptr (SluiceJobStore) store = store_on (uri);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (SluiceStoreStatus) status = NULL;
  g_autoptr (GError) error = NULL;
  Cancelled cancelled = { NULL, FALSE };

  g_cancellable_cancel (cancellable);
  sluice_job_store_enqueue_async (store, "tenant", "op", "{}", 3, 1000, cancellable,
                                  on_cancelled_enqueue, &cancelled);
  wait_for (&cancelled.done, "the cancelled enqueue");
  g_assert_error (cancelled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&cancelled.error);

  status = store_fixture_status (store, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 0);
}

/* ---- without a server ---------------------------------------------------------------- */

static void
test_without_server (void)
{
  if (g_strcmp0 (g_getenv ("CI"), "true") == 0 || g_strcmp0 (g_getenv ("SLUICE_REQUIRE_PG"), "1") == 0)
    g_test_fail_printf ("SLUICE_TEST_PG_URI is not set, and CI=true or SLUICE_REQUIRE_PG=1 needs "
                        "the PostgreSQL tests: scripts/test starts the server (tests/pg-server.sh)");
  else
    g_test_skip ("SLUICE_TEST_PG_URI is not set: scripts/test starts a server (tests/pg-server.sh)");
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/pg/uri/password-not-in-connection-errors",
                   test_password_not_in_connection_errors);
  g_test_add_func ("/store/pg/uri/password-not-in-uri-errors", test_password_not_in_uri_errors);

  base_uri = g_getenv ("SLUICE_TEST_PG_URI");
  if (base_uri == NULL || base_uri[0] == '\0')
    {
      g_test_add_func ("/store/pg/server", test_without_server);
      return g_test_run ();
    }

  schemas = g_ptr_array_new_with_free_func (g_free);
  store_fixture_add_tests ("/store/pg", make_store);
  g_test_add_func ("/store/pg/notify/enqueue-wakes-another-store",
                   test_notify_enqueue_wakes_another_store);
  g_test_add_func ("/store/pg/notify/stays-within-its-schema", test_notify_stays_within_its_schema);
  g_test_add_func ("/store/pg/notify/retry-wakes-another-store",
                   test_notify_retry_wakes_another_store);
  g_test_add_func ("/store/pg/claim/concurrent-claims-never-share-a-job",
                   test_concurrent_claims_never_share_a_job);
  g_test_add_func ("/store/pg/claim/skips-a-job-another-transaction-holds",
                   test_claim_skips_a_job_another_transaction_holds);
  g_test_add_func ("/store/pg/schema/newer-version-refused", test_schema_newer_version_refused);
  g_test_add_func ("/store/pg/open/foreign-schema-is-made-a-store-only-with-init",
                   test_foreign_schema_is_made_a_store_only_with_init);
  g_test_add_func ("/store/pg/open/read-only-never-makes-a-store", test_read_only_never_makes_a_store);
  g_test_add_func ("/store/pg/schema/made-once-by-two-stores-at-once",
                   test_schema_made_once_by_two_stores_at_once);
  g_test_add_func ("/store/pg/connection/reconnects-after-the-server-ends-the-session",
                   test_reconnects_after_the_server_ends_the_session);
  g_test_add_func ("/store/pg/cancelled-request-does-not-run", test_cancelled_request_does_not_run);
  g_test_add_func ("/store/pg/plans/protocol-never-scans-a-table-whole",
                   test_protocol_never_scans_a_table_whole);

  status = g_test_run ();
  drop_schemas ();
  g_ptr_array_unref (schemas);
  return status;
}
