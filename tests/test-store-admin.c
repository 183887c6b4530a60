/* test-store-admin.c: operating a job store, `sluice-run store VERB`
 * (docs/store-admin.md; issue 28)
 *
 * Real `sluice-run` processes (SLUICE_RUN) on a real SQLite file, and on
 * the PostgreSQL server of SLUICE_TEST_PG_URI when it is set (each case a
 * schema of its own; skipped without it, unless CI=true or
 * SLUICE_REQUIRE_PG=1). The rules:
 * - a store of schema 1 (today's) opens and is migrated: its jobs stay;
 * - jobs: filters, search (key, payload text, K:V), newest first, pages
 *   by keyset that neither repeat nor skip a job while jobs are added;
 * - retry, cancel, discard: by id (each id reported; exit 1 for one that
 *   does not exist or is in another state) and by state; more than one
 *   job only with --yes (exit 2, nothing changed); bad arguments exit 2;
 * - a paused tenant's jobs are not claimed while another's are; a limit
 *   caps the running jobs; resume and no limit claim again;
 * - a running job cancelled from another process ends cancelled by its
 *   worker, within one heartbeat (PostgreSQL: at once, by a NOTIFY), its
 *   attempt recorded cancelled;
 * - a worker killed with SIGKILL: its attempt is recorded lease_lost when
 *   the lease is reclaimed; the worker is lost after 3 leases, and pruned;
 * - the history keeps the last 25 attempts and counts the older ones;
 * - export writes a scenario that replays the attempts on the virtual
 *   clock (their count, their errors, their timeouts and backoff).
 * - a scheduled job (enqueue --delay, --at) is `scheduled` until its time
 *   (listed, filtered, counted so), never claimed before it, claimed at
 *   it; bad --delay or --at values exit 2;
 * - a store says whether it may be written (opened read-only, or a
 *   PostgreSQL user without the privileges: not);
 * - the jobs model follows another process's changes: on PostgreSQL by
 *   NOTIFY with polling off, on SQLite by its poll.
 * Workers are waited for by their lines (ready, a job started, a job's
 * outcome), never by a sleep.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "sluice-job-store.h"
#include "sluice-store-admin.h"
#include "sluice-store-jobs-model.h"
#include "cli-fixture.h"
#include "store-fixture.h"
#include "test-helpers.h"

#define WATCHDOG_SECONDS 60
#define SECOND G_USEC_PER_SEC

/* ---- running sluice-run ------------------------------------------------------ */

/* Runs sluice-run with @args (NULL-terminated): its exit status; its
 * standard output parsed as JSON into @json when asked. */
static int
run_argv (const char * const *args,
          JsonObject        **json)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  g_ptr_array_add (argv, (gpointer) sluice_run_path ());
  for (const char * const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  g_ptr_array_add (argv, NULL);

  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("%s %s: exit %d; out: %.1500s; err: %.1500s", args[0], args[1],
                  g_subprocess_get_exit_status (process), out, err);
  g_assert_true (g_subprocess_get_if_exited (process));
  if (json != NULL)
    {
      g_autoptr(JsonNode) node = json_from_string (out, &error);

      g_assert_no_error (error);
      g_assert_nonnull (node);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      *json = json_object_ref (json_node_get_object (node));
    }
  return g_subprocess_get_exit_status (process);
}

#define RUN(json, ...) run_argv ((const char * const[]) { __VA_ARGS__, NULL }, json)

/* ---- the places: a SQLite file, or a schema on the server --------------------- */

/* A fresh store, opened by the test too. */
static StorePlace *
place_new (StoreKind kind)
{
  g_autoptr(GError) error = NULL;
  StorePlace *p = store_place_new (kind, "admin");

  p->store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  return p;
}

/* Skips a PostgreSQL case without a server (see store_fixture_pg_available()). */
#define PLACE_OR_SKIP(p, kind) \
  if ((kind) == STORE_PG && !store_fixture_pg_available ()) \
    return; \
  g_autoptr(StorePlace) p = place_new (kind)

/* ---- the store, in this process ------------------------------------------------ */

static SluiceStoredJob *
enqueue (StorePlace *p,
         const char *tenant,
         const char *key,
         const char *payload,
         guint       max_attempts,
         gint64      now)
{
  g_autoptr(GError) error = NULL;
  SluiceStoredJob *job = store_fixture_enqueue (p->store, tenant, key, payload, max_attempts, now, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

static SluiceJobClaim *
claim (StorePlace *p,
       const char *tenant,
       gint64      now)
{
  g_autoptr(GError) error = NULL;
  SluiceJobClaim *c = store_fixture_claim (p->store, tenant, "test-worker", 30 * SECOND, now, &error);

  g_assert_no_error (error);
  return c;
}

static SluiceStoreAdminReply *
admin (StorePlace            *p,
       SluiceStoreAdminQuery *query)
{
  g_autoptr(GError) error = NULL;
  SluiceStoreAdminReply *reply = store_fixture_admin (p->store, query, &error);

  g_assert_no_error (error);
  return reply;
}

/* The job @id as `store show --json` prints it (NULL: no such job). */
static JsonObject *
show (StorePlace *p,
      const char *id,
      int         expected_status)
{
  g_autoptr(JsonObject) out = NULL;

  g_assert_cmpint (RUN (&out, "store", "show", id, "--store", p->uri, "--json"), ==, expected_status);
  return json_object_ref (out);
}

static const char *
state_of (JsonObject *shown)
{
  return json_object_get_string_member (json_object_get_object_member (shown, "job"), "state");
}

/* The attempt @i of the history of `store show --json`. */
static JsonObject *
history_at (JsonObject *shown,
            guint       i)
{
  JsonArray *history = json_object_get_array_member (shown, "history");

  g_assert_cmpuint (json_array_get_length (history), >, i);
  return json_array_get_object_element (history, i);
}

/* ---- migration: a store of schema 1 opens ----------------------------------------------- */

/* Schema 1 as the stores made it before issue 28. */
static const char sqlite_schema_1[] =
  "CREATE TABLE sluice_schema (version INTEGER NOT NULL); INSERT INTO sluice_schema VALUES (1);"
  "CREATE TABLE sluice_jobs (created_seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,"
  "  tenant TEXT NOT NULL CHECK (tenant <> ''), operation_key TEXT NOT NULL CHECK (operation_key <> ''),"
  "  payload TEXT NOT NULL,"
  "  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'retry_wait', 'succeeded', 'dead')),"
  "  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0), max_attempts INTEGER NOT NULL CHECK (max_attempts >= 1),"
  "  available_at INTEGER NOT NULL, lease_owner TEXT, lease_token TEXT, lease_expires_at INTEGER,"
  "  last_failure_type TEXT, last_failure_message TEXT, last_failure_code TEXT, last_failure_retryable INTEGER,"
  "  result TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (tenant, operation_key));"
  "CREATE INDEX sluice_jobs_claimable ON sluice_jobs (tenant, available_at, created_seq)"
  "  WHERE state IN ('pending', 'retry_wait');"
  "CREATE INDEX sluice_jobs_leased ON sluice_jobs (lease_expires_at) WHERE state = 'running';"
  "CREATE INDEX sluice_jobs_states ON sluice_jobs (tenant, state);"
  "CREATE INDEX sluice_jobs_failed ON sluice_jobs (updated_at) WHERE last_failure_type IS NOT NULL;"
  "INSERT INTO sluice_jobs (id, tenant, operation_key, payload, state, attempts, max_attempts, available_at,"
  "  last_failure_type, last_failure_message, last_failure_code, last_failure_retryable, created_at, updated_at)"
  " VALUES ('00000000-0000-4000-8000-000000000001', 'old', 'dead-one', '{\"value\": 1}', 'dead', 3, 3, 1000,"
  "  'ValueError', 'boom', 'VALUE_ERROR', 0, 1000, 2000),"
  "  ('00000000-0000-4000-8000-000000000002', 'old', 'waiting', '{\"value\": 2}', 'pending', 0, 3, 1000,"
  "  NULL, NULL, NULL, NULL, 1001, 1001);";

static const char pg_schema_1[] =
  "CREATE TABLE sluice_schema (version integer NOT NULL); INSERT INTO sluice_schema VALUES (1);"
  "CREATE TABLE sluice_jobs (id uuid PRIMARY KEY, created_seq bigint GENERATED ALWAYS AS IDENTITY,"
  "  tenant text NOT NULL CHECK (tenant <> ''), operation_key text NOT NULL CHECK (operation_key <> ''),"
  "  payload json NOT NULL,"
  "  state text NOT NULL CHECK (state IN ('pending', 'running', 'retry_wait', 'succeeded', 'dead')),"
  "  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0), max_attempts integer NOT NULL CHECK (max_attempts > 0),"
  "  available_at bigint NOT NULL, lease_owner text, lease_token uuid, lease_expires_at bigint,"
  "  last_failure_type text, last_failure_message text, last_failure_code text, last_failure_retryable boolean,"
  "  result json, created_at bigint NOT NULL, updated_at bigint NOT NULL, UNIQUE (tenant, operation_key));"
  "CREATE INDEX sluice_jobs_claimable ON sluice_jobs (tenant, available_at, created_seq)"
  "  WHERE state IN ('pending', 'retry_wait');"
  "CREATE INDEX sluice_jobs_leased ON sluice_jobs (lease_expires_at) WHERE state = 'running';"
  "CREATE INDEX sluice_jobs_failed ON sluice_jobs (updated_at) WHERE last_failure_type IS NOT NULL;"
  "INSERT INTO sluice_jobs (id, tenant, operation_key, payload, state, attempts, max_attempts, available_at,"
  "  last_failure_type, last_failure_message, last_failure_code, last_failure_retryable, created_at, updated_at)"
  " VALUES ('00000000-0000-4000-8000-000000000001', 'old', 'dead-one', '{\"value\": 1}', 'dead', 3, 3, 1000,"
  "  'ValueError', 'boom', 'VALUE_ERROR', false, 1000, 2000),"
  "  ('00000000-0000-4000-8000-000000000002', 'old', 'waiting', '{\"value\": 2}', 'pending', 0, 3, 1000,"
  "  NULL, NULL, NULL, NULL, 1001, 1001);";

static void
make_schema_1 (StorePlace *p)
{
  if (p->kind == STORE_SQLITE)
    {
      sqlite3 *db = NULL;

      g_assert_cmpint (sqlite3_open (p->path, &db), ==, SQLITE_OK);
      g_assert_cmpint (sqlite3_exec (db, sqlite_schema_1, NULL, NULL, NULL), ==, SQLITE_OK);
      sqlite3_close (db);
    }
  else
    {
      g_autofree char *sql = g_strdup_printf ("SET search_path TO %s; %s", p->schema, pg_schema_1);

      store_fixture_pg_exec (sql);
    }
}

static void
schema_1_store_is_migrated (StoreKind kind)
{
  g_autoptr(StorePlace) p = NULL;
  g_autoptr(JsonObject) retried = NULL;
  g_autoptr(JsonObject) shown = NULL;
  g_autoptr(JsonObject) listed = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;

  if (kind == STORE_PG && !store_fixture_pg_available ())
    return;
  p = store_place_new (kind, "admin");
  make_schema_1 (p);

  /* A verb that writes opens it for writing: the migration. */
  g_assert_cmpint (RUN (&retried, "store", "retry", "00000000-0000-4000-8000-000000000001",
                        "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (retried, "changed"), ==, 1);

  shown = show (p, "00000000-0000-4000-8000-000000000001", 0);
  g_assert_cmpstr (state_of (shown), ==, "pending");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (shown, "job"), "attempts"), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (shown, "history")), ==, 0);
  g_assert_cmpint (RUN (&listed, "store", "jobs", "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (listed, "jobs")), ==, 2);

  /* The migrated store takes the new state and keeps the history. */
  p->store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  job = enqueue (p, "old", "new-one", "{}", 3, 5000);
  g_assert_cmpstr (sluice_stored_job_state_to_string (job->state), ==, "pending");
}

static void
test_sqlite_schema_1_store_is_migrated (void)
{
  schema_1_store_is_migrated (STORE_SQLITE);
}

static void
test_pg_schema_1_store_is_migrated (void)
{
  schema_1_store_is_migrated (STORE_PG);
}

/* ---- jobs: filters, search, pages ---------------------------------------------------- */

static JsonArray *
jobs_of (JsonObject *listed)
{
  return json_object_get_array_member (listed, "jobs");
}

static const char *
key_at (JsonObject *listed,
        guint       i)
{
  return json_object_get_string_member (json_array_get_object_element (jobs_of (listed), i), "operation_key");
}

static void
jobs_filter_search_and_pages_under_inserts (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(JsonObject) page1 = NULL;
  g_autoptr(JsonObject) page2 = NULL;
  g_autoptr(JsonObject) page3 = NULL;
  g_autoptr(JsonObject) found = NULL;
  g_autoptr(JsonObject) prefixed = NULL;
  g_autoptr(JsonObject) none = NULL;
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *next;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *key = g_strdup_printf ("a-%u", i);
      g_autofree char *payload = g_strdup_printf ("{\"value\": %u, \"note\": \"Order %u\"}", 40 + i, i);

      sluice_stored_job_free (enqueue (p, "a", key, payload, 3, 1000 + i));
    }
  sluice_stored_job_free (enqueue (p, "b", "b-0", "{\"value\": 42}", 3, 2000));

  g_assert_cmpint (RUN (&page1, "store", "jobs", "--store", p->uri, "--tenant", "a", "--limit", "2", "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (jobs_of (page1)), ==, 2);
  g_assert_cmpstr (key_at (page1, 0), ==, "a-4");  /* newest first */
  g_assert_cmpstr (key_at (page1, 1), ==, "a-3");
  next = json_object_get_string_member (page1, "next");
  g_assert_nonnull (next);

  /* Jobs added between two pages come before the first: the next pages
   * neither repeat nor skip one. */
  for (guint i = 5; i < 8; i++)
    {
      g_autofree char *key = g_strdup_printf ("a-%u", i);

      sluice_stored_job_free (enqueue (p, "a", key, "{}", 3, 3000 + i));
    }
  g_assert_cmpint (RUN (&page2, "store", "jobs", "--store", p->uri, "--tenant", "a", "--limit", "2",
                        "--after", next, "--json"), ==, 0);
  g_assert_cmpstr (key_at (page2, 0), ==, "a-2");
  g_assert_cmpstr (key_at (page2, 1), ==, "a-1");
  next = json_object_get_string_member (page2, "next");
  g_assert_cmpint (RUN (&page3, "store", "jobs", "--store", p->uri, "--tenant", "a", "--limit", "2",
                        "--after", next, "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (jobs_of (page3)), ==, 1);
  g_assert_cmpstr (key_at (page3, 0), ==, "a-0");
  g_assert_true (json_object_get_null_member (page3, "next"));
  for (JsonObject **page = (JsonObject *[]) { page1, page2, page3, NULL }; *page != NULL; page++)
    for (guint i = 0; i < json_array_get_length (jobs_of (*page)); i++)
      g_assert_true (g_hash_table_add (seen, g_strdup (key_at (*page, i))));
  g_assert_cmpuint (g_hash_table_size (seen), ==, 5);

  /* The search: a payload member (value:42 is a-2's and b-0's), free text
   * in the payload, the key. */
  g_assert_cmpint (RUN (&found, "store", "jobs", "--store", p->uri, "--search", "value:42", "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (jobs_of (found)), ==, 2);
  g_assert_cmpstr (key_at (found, 0), ==, "b-0");
  g_assert_cmpstr (key_at (found, 1), ==, "a-2");
  g_clear_pointer (&found, json_object_unref);
  g_assert_cmpint (RUN (&found, "store", "jobs", "--store", p->uri, "--search", "order 3", "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (jobs_of (found)), ==, 1);
  g_assert_cmpstr (key_at (found, 0), ==, "a-3");
  g_assert_cmpint (RUN (&prefixed, "store", "jobs", "--store", p->uri, "--key-prefix", "b-", "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (jobs_of (prefixed)), ==, 1);
  g_assert_cmpint (RUN (&none, "store", "jobs", "--store", p->uri, "--state", "dead", "--state", "cancelled",
                        "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (jobs_of (none)), ==, 0);

  /* Bad arguments. */
  g_assert_cmpint (RUN (NULL, "store", "jobs", "--store", p->uri, "--state", "sleeping"), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "jobs", "--store", p->uri, "--limit", "0"), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "jobs", "--store", p->uri, "--after", "00000000-0000-4000-8000-00000000dead"),
                   ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "frobnicate", "--store", p->uri), ==, 2);
}

static void
test_sqlite_jobs_filter_search_and_pages_under_inserts (void)
{
  jobs_filter_search_and_pages_under_inserts (STORE_SQLITE);
}

static void
test_pg_jobs_filter_search_and_pages_under_inserts (void)
{
  jobs_filter_search_and_pages_under_inserts (STORE_PG);
}

/* ---- retry, cancel, discard ---------------------------------------------------------- */

typedef struct {
  char *dead1, *dead2, *waiting, *pending, *running, *succeeded;
} Jobs;

static void
jobs_clear (Jobs *j)
{
  g_free (j->dead1);
  g_free (j->dead2);
  g_free (j->waiting);
  g_free (j->pending);
  g_free (j->running);
  g_free (j->succeeded);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Jobs, jobs_clear)

/* One job of each kind, by claims and outcomes of the test's own. */
static void
make_jobs (StorePlace *p,
           Jobs  *j)
{
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("ValueError", "boom", "VALUE_ERROR", FALSE);
  g_autoptr(GError) error = NULL;
  struct { char **id; const char *key; } order[] = {
    { &j->dead1, "dead-1" }, { &j->dead2, "dead-2" }, { &j->waiting, "waiting" },
    { &j->succeeded, "succeeded" }, { &j->running, "running" }, { &j->pending, "pending" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autoptr(SluiceStoredJob) job = enqueue (p, "t", order[i].key, "{}", 3, 1000 + i);

      *order[i].id = g_strdup (job->id);
    }
  /* Claimed in the order enqueued. */
  for (guint i = 0; i < 5; i++)
    {
      g_autoptr(SluiceJobClaim) c = claim (p, "t", 2000);

      g_assert_cmpstr (c->job->operation_key, ==, order[i].key);
      if (i < 2)
        store_fixture_fail (p->store, c, failure, -1, 2100, &error);
      else if (i == 2)
        store_fixture_fail (p->store, c, failure, G_GINT64_CONSTANT (4000000000000000), 2100, &error);
      else if (i == 3)
        store_fixture_complete (p->store, c, "{}", 2100, &error);
      g_assert_no_error (error);
    }
}

/* The "result" of @id in a verb's JSON. */
static const char *
result_of (JsonObject *out,
           const char *id)
{
  JsonArray *jobs = json_object_get_array_member (out, "jobs");

  for (guint i = 0; i < json_array_get_length (jobs); i++)
    {
      JsonObject *item = json_array_get_object_element (jobs, i);

      if (g_str_equal (json_object_get_string_member (item, "id"), id))
        return json_object_get_string_member (item, "result");
    }
  g_assert_not_reached ();
}

static void
verbs_change_jobs_by_id_and_by_state (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_auto(Jobs) j = { NULL };
  g_autoptr(JsonObject) out = NULL;
  g_autoptr(JsonObject) shown = NULL;

  make_jobs (p, &j);

  /* Two jobs need --yes: nothing changes without it. */
  g_assert_cmpint (RUN (&out, "store", "retry", j.dead1, j.dead2, "--store", p->uri, "--json"), ==, 2);
  g_assert_true (json_object_get_boolean_member (out, "needs_yes"));
  g_assert_cmpint (json_object_get_int_member (out, "changed"), ==, 0);
  g_clear_pointer (&out, json_object_unref);
  shown = show (p, j.dead1, 0);
  g_assert_cmpstr (state_of (shown), ==, "dead");
  g_clear_pointer (&shown, json_object_unref);

  /* retry: pending now, attempts kept; again it does not apply. */
  g_assert_cmpint (RUN (&out, "store", "retry", j.dead1, "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpstr (result_of (out, j.dead1), ==, "changed");
  g_clear_pointer (&out, json_object_unref);
  shown = show (p, j.dead1, 0);
  g_assert_cmpstr (state_of (shown), ==, "pending");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (shown, "job"), "attempts"), ==, 1);
  g_clear_pointer (&shown, json_object_unref);
  g_assert_cmpint (RUN (&out, "store", "retry", j.dead1, "no-such-job", "--store", p->uri, "--json"), ==, 1);
  g_assert_cmpstr (result_of (out, j.dead1), ==, "not_applicable");
  g_assert_cmpstr (result_of (out, "no-such-job"), ==, "not_found");
  g_clear_pointer (&out, json_object_unref);

  /* retry by state, with the attempts reset. */
  g_assert_cmpint (RUN (&out, "store", "retry", "--state", "dead", "--reset-attempts", "--store", p->uri,
                        "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (out, "changed"), ==, 1);
  g_clear_pointer (&out, json_object_unref);
  shown = show (p, j.dead2, 0);
  g_assert_cmpstr (state_of (shown), ==, "pending");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (shown, "job"), "attempts"), ==, 0);
  g_clear_pointer (&shown, json_object_unref);

  /* cancel: waiting jobs end at once (two: --yes); a running one is
   * asked of its worker. */
  g_assert_cmpint (RUN (NULL, "store", "cancel", j.pending, j.waiting, "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (&out, "store", "cancel", j.pending, j.waiting, "--yes", "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (out, "changed"), ==, 2);
  g_clear_pointer (&out, json_object_unref);
  shown = show (p, j.waiting, 0);
  g_assert_cmpstr (state_of (shown), ==, "cancelled");
  g_clear_pointer (&shown, json_object_unref);
  g_assert_cmpint (RUN (&out, "store", "cancel", j.running, "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpstr (result_of (out, j.running), ==, "requested");
  g_clear_pointer (&out, json_object_unref);
  shown = show (p, j.running, 0);
  g_assert_cmpstr (state_of (shown), ==, "running");
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (shown, "job"), "cancel_requested"));
  g_clear_pointer (&shown, json_object_unref);
  g_assert_cmpint (RUN (NULL, "store", "cancel", j.succeeded, "--store", p->uri), ==, 1);

  /* discard: deletes, never a running job; by state with --yes. */
  g_assert_cmpint (RUN (&out, "store", "discard", j.succeeded, "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (out, "changed"), ==, 1);
  g_clear_pointer (&out, json_object_unref);
  shown = show (p, j.succeeded, 1);
  g_assert_true (json_object_get_null_member (shown, "job"));
  g_clear_pointer (&shown, json_object_unref);
  g_assert_cmpint (RUN (&out, "store", "discard", j.running, "--store", p->uri, "--json"), ==, 1);
  g_assert_cmpstr (result_of (out, j.running), ==, "not_applicable");
  g_clear_pointer (&out, json_object_unref);
  g_assert_cmpint (RUN (NULL, "store", "discard", "--state", "cancelled", "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (&out, "store", "discard", "--state", "cancelled", "--older-than", "1h", "--yes",
                        "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (out, "changed"), ==, 0);  /* cancelled just now */
  g_clear_pointer (&out, json_object_unref);
  g_assert_cmpint (RUN (&out, "store", "discard", "--state", "cancelled", "--yes", "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (out, "changed"), ==, 2);
  g_clear_pointer (&out, json_object_unref);

  /* Bad arguments. */
  g_assert_cmpint (RUN (NULL, "store", "retry", "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "discard", "--state", "pending", "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "retry", j.dead1, "--state", "dead", "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "discard", "--state", "dead", "--older-than", "soon", "--store", p->uri), ==, 2);
}

static void
test_sqlite_verbs_change_jobs_by_id_and_by_state (void)
{
  verbs_change_jobs_by_id_and_by_state (STORE_SQLITE);
}

static void
test_pg_verbs_change_jobs_by_id_and_by_state (void)
{
  verbs_change_jobs_by_id_and_by_state (STORE_PG);
}

/* ---- pause, resume, limit ---------------------------------------------------------------- */

static void
paused_tenant_is_not_claimed_and_limit_caps_running (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(JsonObject) out = NULL;
  g_autoptr(JsonObject) status = NULL;
  g_autoptr(SluiceJobClaim) first = NULL;
  g_autoptr(SluiceJobClaim) second = NULL;
  g_autoptr(SluiceJobClaim) other = NULL;
  g_autoptr(SluiceJobClaim) none = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *key = g_strdup_printf ("a-%u", i);

      sluice_stored_job_free (enqueue (p, "a", key, "{}", 3, 1000));
      sluice_stored_job_free (enqueue (p, "b", key, "{}", 3, 1000));
    }

  g_assert_cmpint (RUN (&out, "store", "pause", "a", "--store", p->uri, "--json"), ==, 0);
  g_assert_true (json_object_get_boolean_member (out, "paused"));
  g_clear_pointer (&out, json_object_unref);
  none = claim (p, "a", 2000);
  g_assert_null (none);
  other = claim (p, "b", 2000);  /* another tenant's are claimed */
  g_assert_nonnull (other);
  g_assert_cmpint (RUN (&status, "store", "status", "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (status, "paused")), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (status, "paused"), 0), ==, "a");

  g_assert_cmpint (RUN (NULL, "store", "resume", "a", "--store", p->uri), ==, 0);
  first = claim (p, "a", 2000);
  g_assert_nonnull (first);

  /* At most one running: the second waits until the limit goes. */
  g_assert_cmpint (RUN (&out, "store", "limit", "a", "1", "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (out, "limit"), ==, 1);
  g_clear_pointer (&out, json_object_unref);
  second = claim (p, "a", 2000);
  g_assert_null (second);
  g_assert_cmpint (RUN (NULL, "store", "limit", "a", "none", "--store", p->uri), ==, 0);
  second = claim (p, "a", 2000);
  g_assert_nonnull (second);

  g_assert_cmpint (RUN (NULL, "store", "limit", "a", "-3", "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "pause", "--store", p->uri), ==, 2);
  g_assert_no_error (error);
}

static void
test_sqlite_paused_tenant_is_not_claimed_and_limit_caps_running (void)
{
  paused_tenant_is_not_claimed_and_limit_caps_running (STORE_SQLITE);
}

static void
test_pg_paused_tenant_is_not_claimed_and_limit_caps_running (void)
{
  paused_tenant_is_not_claimed_and_limit_caps_running (STORE_PG);
}

/* ---- a worker process ---------------------------------------------------------------------- */

typedef struct {
  StoreProcess      proc;
  gboolean          ready;
  gboolean          started;
  gboolean          cancelled;     /* its "… cancelled by an operator" line */
  gint64            cancelled_at;  /* monotonic */
} Worker;

static void
worker_free (Worker *w)
{
  store_process_clear (&w->proc);
  g_free (w);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Worker, worker_free)

static void
on_worker_line (const char *line,
                gpointer    data)
{
  Worker *w = data;

  g_test_message ("worker: %s", line);
  if (strstr (line, " ready") != NULL)
    w->ready = TRUE;
  else if (strstr (line, " started (") != NULL)
    w->started = TRUE;
  else if (strstr (line, " cancelled by an operator") != NULL)
    {
      w->cancelled = TRUE;
      w->cancelled_at = g_get_monotonic_time ();
    }
}

/* `sluice-run worker` for tenant t, one job at a time, with @lease and
 * @heartbeat (seconds, as text). */
static Worker *
worker_start (StorePlace *p,
              const char *name,
              const char *lease,
              const char *heartbeat)
{
  const char *argv[] = { sluice_run_path (), "worker", "--store", p->uri, "--tenant", "t", "--worker-id", name,
                         "--workers", "1", "--queue-size", "1", "--lease", lease, "--heartbeat", heartbeat,
                         "--verbose", "--json", NULL };
  Worker *w = g_new0 (Worker, 1);

  store_process_start (&w->proc, NULL, argv, on_worker_line, w);
  return w;
}

/* ---- cancel of a running job from another process ----------------------------------------- */

static void
running_job_cancelled_from_another_process (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoredJob) job = enqueue (p, "t", "slow", "{\"behaviour\": \"hang\"}", 3, g_get_real_time ());
  /* SQLite tells the worker at its next heartbeat (1 s); PostgreSQL by a
   * NOTIFY, long before its next one (5 s). */
  gboolean notify = kind == STORE_PG;
  g_autoptr(Worker) w = worker_start (p, "w-cancel", notify ? "11" : "6", notify ? "5" : "1");
  g_autoptr(JsonObject) workers = NULL;
  g_autoptr(JsonObject) out = NULL;
  g_autoptr(JsonObject) shown = NULL;
  JsonObject *worker;
  JsonObject *attempt;
  gint64 asked;

  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");
  store_fixture_wait_until (&w->started, WATCHDOG_SECONDS, "the job started");

  /* The fleet: the worker, alive, holding the job. */
  g_assert_cmpint (RUN (&workers, "store", "workers", "--store", p->uri, "--json"), ==, 0);
  worker = json_array_get_object_element (json_object_get_array_member (workers, "workers"), 0);
  g_assert_cmpstr (json_object_get_string_member (worker, "id"), ==, "w-cancel");
  g_assert_false (json_object_get_boolean_member (worker, "lost"));
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (worker, "claims"), 0), "id"), ==, job->id);

  g_assert_cmpint (RUN (&out, "store", "cancel", job->id, "--store", p->uri, "--json"), ==, 0);
  asked = g_get_monotonic_time ();
  g_assert_cmpstr (result_of (out, job->id), ==, "requested");
  store_fixture_wait_until (&w->cancelled, WATCHDOG_SECONDS, "the worker's cancel of the job");
  /* Within one heartbeat (SQLite: 1 s) of the ask, or at once (a NOTIFY),
   * with a second of slack for a loaded machine: well before the lease
   * would have run out, and on PostgreSQL before the next heartbeat. */
  g_assert_cmpint (w->cancelled_at - asked, <, 2 * SECOND);

  shown = show (p, job->id, 0);
  g_assert_cmpstr (state_of (shown), ==, "cancelled");
  attempt = history_at (shown, 0);
  g_assert_cmpint (json_object_get_int_member (attempt, "attempt"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (attempt, "worker"), ==, "w-cancel");
  g_assert_cmpstr (json_object_get_string_member (attempt, "outcome"), ==, "cancelled");
  g_assert_false (json_object_get_null_member (attempt, "ended_at"));
}

static void
test_sqlite_running_job_cancelled_from_another_process (void)
{
  running_job_cancelled_from_another_process (STORE_SQLITE);
}

static void
test_pg_running_job_cancelled_from_another_process (void)
{
  running_job_cancelled_from_another_process (STORE_PG);
}

/* ---- history across a kill -9 --------------------------------------------------------------- */

static void
history_survives_a_killed_worker (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoredJob) job = enqueue (p, "t", "slow", "{\"behaviour\": \"hang\"}", 3, g_get_real_time ());
  g_autoptr(Worker) w = worker_start (p, "w-killed", "2", "0.5");
  g_autoptr(SluiceStoreAdminQuery) workers = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKERS);
  g_autoptr(SluiceStoreAdminQuery) prune = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_PRUNE_WORKERS);
  g_autoptr(SluiceStoreAdminReply) fleet = NULL;
  g_autoptr(SluiceStoreAdminReply) pruned = NULL;
  g_autoptr(SluiceStoreAdminReply) after = NULL;
  g_autoptr(JsonObject) shown = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *attempt;
  JsonObject *failure;
  gint64 later;

  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");
  store_fixture_wait_until (&w->started, WATCHDOG_SECONDS, "the job started");
  g_subprocess_send_signal (w->proc.process, SIGKILL);
  store_fixture_wait_until (&w->proc.exited, WATCHDOG_SECONDS, "the killed worker's end");
  g_assert_true (g_subprocess_get_if_signaled (w->proc.process));

  /* Its attempt still runs, as far as the store knows. */
  shown = show (p, job->id, 0);
  g_assert_cmpstr (json_object_get_string_member (history_at (shown, 0), "outcome"), ==, "running");
  g_clear_pointer (&shown, json_object_unref);

  /* Past its lease (the store takes the time it is given: no wait), the
   * lease is reclaimed and the attempt recorded lost. */
  later = g_get_real_time () + 10 * SECOND;
  g_assert_cmpint (store_fixture_release (p->store, NULL, later, 100, &error), ==, 1);
  g_assert_no_error (error);
  shown = show (p, job->id, 0);
  g_assert_cmpstr (state_of (shown), ==, "pending");
  attempt = history_at (shown, 0);
  g_assert_cmpstr (json_object_get_string_member (attempt, "worker"), ==, "w-killed");
  g_assert_cmpstr (json_object_get_string_member (attempt, "outcome"), ==, "lease_lost");
  failure = json_object_get_object_member (attempt, "error");
  g_assert_cmpstr (json_object_get_string_member (failure, "code"), ==, "LEASE_EXPIRED");

  /* Three leases (6 s) without a heartbeat: lost, then pruned. */
  workers->now = later;
  fleet = admin (p, workers);
  g_assert_cmpuint (fleet->workers->len, ==, 1);
  g_assert_true (((SluiceStoreWorker *) g_ptr_array_index (fleet->workers, 0))->lost);
  prune->now = later;
  pruned = admin (p, prune);
  g_assert_cmpuint (pruned->workers->len, ==, 1);
  after = admin (p, workers);
  g_assert_cmpuint (after->workers->len, ==, 0);
}

static void
test_sqlite_history_survives_a_killed_worker (void)
{
  history_survives_a_killed_worker (STORE_SQLITE);
}

static void
test_pg_history_survives_a_killed_worker (void)
{
  history_survives_a_killed_worker (STORE_PG);
}

/* ---- the history keeps the last 25 ------------------------------------------------------------ */

static void
history_keeps_the_last_attempts (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoredJob) job = enqueue (p, "t", "flaky", "{}", 100, 1000);
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("TimeoutError", "slow", "ATTEMPT_TIMEOUT", TRUE);
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_SHOW);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  const guint n = SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT + 3;
  SluiceStoreAttempt *first;
  SluiceStoreAttempt *last;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SluiceJobClaim) c = claim (p, "t", 2000 + i);

      g_assert_nonnull (c);
      store_fixture_fail (p->store, c, failure, 2000 + i, 2000 + i, &error);
      g_assert_no_error (error);
    }
  query->ids = g_strdupv ((char *[]) { job->id, NULL });
  reply = admin (p, query);
  g_assert_cmpuint (reply->attempts->len, ==, SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT);
  g_assert_cmpuint (reply->attempts_dropped, ==, 3);
  first = g_ptr_array_index (reply->attempts, 0);
  last = g_ptr_array_index (reply->attempts, reply->attempts->len - 1);
  g_assert_cmpuint (first->number, ==, 4);
  g_assert_cmpuint (last->number, ==, n);
  g_assert_cmpint (last->outcome, ==, SLUICE_STORE_ATTEMPT_TIMED_OUT);
  g_assert_cmpstr (last->worker, ==, "test-worker");
}

static void
test_sqlite_history_keeps_the_last_attempts (void)
{
  history_keeps_the_last_attempts (STORE_SQLITE);
}

static void
test_pg_history_keeps_the_last_attempts (void)
{
  history_keeps_the_last_attempts (STORE_PG);
}

/* ---- completions: the attempts that ended, for the throughput charts ------------------------ */

/* Each ended attempt after `since`, oldest first, with how long its job
 * waited: from its enqueue (a first attempt) or its previous attempt's end. */
static void
completions_read_ended_attempts_with_their_wait (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoredJob) a = enqueue (p, "t", "a", "{}", 3, 1000);
  g_autoptr(SluiceStoredJob) b = NULL;
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("IOError", "down", NULL, TRUE);
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_COMPLETIONS);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(SluiceStoreAdminReply) later = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobClaim) c1 = claim (p, "t", 4000);    /* a, waited 3000 */
  g_autoptr(SluiceJobClaim) c2 = NULL;
  g_autoptr(SluiceJobClaim) c3 = NULL;
  SluiceStoreCompletion *e;

  g_assert_cmpstr (c1->job->id, ==, a->id);
  store_fixture_fail (p->store, c1, failure, 4100, 4500, &error);    /* ends 4500 */
  g_assert_no_error (error);
  c2 = claim (p, "t", 5000);                                      /* a again, 500 after its end */
  g_assert_cmpstr (c2->job->id, ==, a->id);
  store_fixture_complete (p->store, c2, NULL, 5200, &error);
  g_assert_no_error (error);
  b = enqueue (p, "t", "b", "{}", 3, 5300);
  c3 = claim (p, "t", 6000);                                      /* b, waited 700 */
  g_assert_cmpstr (c3->job->id, ==, b->id);
  store_fixture_complete (p->store, c3, NULL, 6100, &error);
  g_assert_no_error (error);

  query->since = 4500;    /* after: the failure at 4500 is not read again */
  query->limit = 10;
  reply = admin (p, query);
  g_assert_cmpuint (reply->completions->len, ==, 2);
  e = &g_array_index (reply->completions, SluiceStoreCompletion, 0);
  g_assert_cmpint (e->ended_at, ==, 5200);
  g_assert_cmpint (e->outcome, ==, SLUICE_STORE_ATTEMPT_SUCCEEDED);
  g_assert_cmpint (e->waited, ==, 500);
  e = &g_array_index (reply->completions, SluiceStoreCompletion, 1);
  g_assert_cmpint (e->ended_at, ==, 6100);
  g_assert_cmpint (e->waited, ==, 700);

  query->since = 0;
  query->limit = 1;
  later = admin (p, query);
  g_assert_cmpuint (later->completions->len, ==, 1);
  e = &g_array_index (later->completions, SluiceStoreCompletion, 0);
  g_assert_cmpint (e->ended_at, ==, 4500);
  g_assert_cmpint (e->outcome, ==, SLUICE_STORE_ATTEMPT_FAILED);
  g_assert_cmpint (e->waited, ==, 3000);
}

static void
test_sqlite_completions_read_ended_attempts_with_their_wait (void)
{
  completions_read_ended_attempts_with_their_wait (STORE_SQLITE);
}

static void
test_pg_completions_read_ended_attempts_with_their_wait (void)
{
  completions_read_ended_attempts_with_their_wait (STORE_PG);
}

/* ---- a cancel meets a claim handed back, or a completion ---------------------------------- */

static SluiceStoreAdminReply *
cancel_ids (StorePlace *p,
            const char *id)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_CANCEL);

  query->ids = g_strdupv ((char *[]) { (char *) id, NULL });
  query->now = 3000;
  return admin (p, query);
}

static void
cancel_ends_a_claim_handed_back_and_not_a_completed_job (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoredJob) unrun = enqueue (p, "t", "unrun", "{}", 3, 1000);
  g_autoptr(SluiceStoredJob) done = enqueue (p, "t", "done", "{}", 3, 1001);
  g_autoptr(SluiceJobClaim) first = claim (p, "t", 2000);
  g_autoptr(SluiceJobClaim) second = claim (p, "t", 2000);
  g_autoptr(SluiceStoreAdminReply) asked = NULL;
  g_autoptr(SluiceStoreAdminReply) asked_too = NULL;
  g_autoptr(JsonObject) shown = NULL;
  g_autoptr(JsonObject) history = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (first->job->id, ==, unrun->id);
  asked = cancel_ids (p, unrun->id);
  asked_too = cancel_ids (p, done->id);
  g_assert_cmpint (((SluiceStoreAdminItem *) g_ptr_array_index (asked->items, 0))->change, ==,
                   SLUICE_STORE_ADMIN_REQUESTED);

  /* Handed back unrun: cancelled, not claimable again, no attempt left. */
  g_assert_true (store_fixture_release_claim (p->store, first, 3100, &error));
  g_assert_no_error (error);
  shown = show (p, unrun->id, 0);
  g_assert_cmpstr (state_of (shown), ==, "cancelled");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (shown, "history")), ==, 0);
  g_assert_null (claim (p, "t", 4000));

  /* Completed before its worker heard: succeeded, the cancel moot. */
  g_assert_true (store_fixture_complete (p->store, second, "{}", 3200, &error));
  g_assert_no_error (error);
  history = show (p, done->id, 0);
  g_assert_cmpstr (state_of (history), ==, "succeeded");
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (history, "job"), "cancel_requested"));
  g_assert_cmpstr (json_object_get_string_member (history_at (history, 0), "outcome"), ==, "succeeded");
}

static void
test_sqlite_cancel_ends_a_claim_handed_back_and_not_a_completed_job (void)
{
  cancel_ends_a_claim_handed_back_and_not_a_completed_job (STORE_SQLITE);
}

static void
test_pg_cancel_ends_a_claim_handed_back_and_not_a_completed_job (void)
{
  cancel_ends_a_claim_handed_back_and_not_a_completed_job (STORE_PG);
}

/* ---- the jobs as a paginated list model --------------------------------------------------- */

static void
wait_loaded (SluiceStoreJobsModel *model)
{
  SLUICE_TEST_SPIN_WITHIN (WATCHDOG_SECONDS, "a page of the model",
                           !sluice_store_jobs_model_get_loading (model));
}

static const char *
model_key (SluiceStoreJobsModel *model,
           guint                 position)
{
  g_autoptr(SluiceStoreJobItem) item = g_list_model_get_item (G_LIST_MODEL (model), position);

  g_assert_nonnull (item);
  /* The item's job lives as long as the model holds the item. */
  return sluice_store_job_item_get_job (item)->operation_key;
}

static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  guint *counts = user_data;

  counts[0] += added;
  counts[1] += removed;
}

static void
jobs_model_reads_pages_on_demand (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoreAdminQuery) filter = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_LIST_JOBS);
  g_autoptr(SluiceStoreJobsModel) model = NULL;
  guint changed[2] = { 0, 0 };

  for (guint i = 0; i < 7; i++)
    {
      g_autofree char *key = g_strdup_printf ("m-%u", i);

      sluice_stored_job_free (enqueue (p, "m", key, "{}", 3, 1000 + i));
    }
  sluice_stored_job_free (enqueue (p, "other", "o-0", "{}", 3, 5000));
  filter->tenant = g_strdup ("m");

  model = sluice_store_jobs_model_new (p->store, filter, 3);
  /* Pages only: no refresh by a notification of the enqueues above, nor
   * by a poll (live: jobs_model_follows_...). */
  sluice_store_jobs_model_stop_live (model);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), changed);
  g_assert_true (sluice_store_jobs_model_get_loading (model));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 0);  /* never waits for the store */
  wait_loaded (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);
  g_assert_cmpstr (model_key (model, 0), ==, "m-6");
  g_assert_true (sluice_store_jobs_model_get_has_more (model));

  sluice_store_jobs_model_load_more (model);
  wait_loaded (model);
  sluice_store_jobs_model_load_more (model);
  wait_loaded (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 7);
  g_assert_cmpstr (model_key (model, 6), ==, "m-0");
  g_assert_false (sluice_store_jobs_model_get_has_more (model));
  g_assert_cmpuint (changed[0], ==, 7);

  /* A new job: a reload starts again from the newest. */
  sluice_stored_job_free (enqueue (p, "m", "m-7", "{}", 3, 9000));
  sluice_store_jobs_model_reload (model);
  g_assert_cmpuint (changed[1], ==, 7);
  wait_loaded (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 3);
  g_assert_cmpstr (model_key (model, 0), ==, "m-7");
}

static void
test_sqlite_jobs_model_reads_pages_on_demand (void)
{
  jobs_model_reads_pages_on_demand (STORE_SQLITE);
}

static void
test_pg_jobs_model_reads_pages_on_demand (void)
{
  jobs_model_reads_pages_on_demand (STORE_PG);
}

/* ---- scheduled jobs: enqueue --delay, --at ------------------------------------------------ */

static SluiceStoredJob *
enqueue_at (StorePlace *p,
            const char *tenant,
            const char *key,
            gint64      now,
            gint64      available_at)
{
  g_autoptr(GError) error = NULL;
  SluiceStoredJob *job = store_fixture_enqueue_at (p->store, tenant, key, "{}", 3, now, available_at, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
  return job;
}

/* The jobs of @tenant in @state at @now, by the admin query. */
static guint
count_listed (StorePlace           *p,
              const char           *tenant,
              SluiceStoredJobState  state,
              gint64                now)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_LIST_JOBS);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;

  query->tenant = g_strdup (tenant);
  query->states = 1u << state;
  query->now = now;
  reply = admin (p, query);
  for (guint i = 0; i < reply->jobs->len; i++)
    g_assert_cmpint (((SluiceStoredJob *) g_ptr_array_index (reply->jobs, i))->state, ==, state);
  return reply->jobs->len;
}

static guint64
tenant_count (StorePlace           *p,
              const char           *tenant,
              SluiceStoredJobState  state,
              gint64                now)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_TENANTS);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;

  query->tenant = g_strdup (tenant);
  query->now = now;
  reply = admin (p, query);
  g_assert_cmpuint (reply->tenants->len, ==, 1);
  return ((SluiceStoreTenant *) g_ptr_array_index (reply->tenants, 0))->counts[state];
}

/* On the store's own times (every call takes its now): scheduled until
 * its time, listed and counted so, not claimed; then pending and
 * claimed. */
static void
scheduled_job_is_not_claimed_before_its_time (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  const gint64 t0 = 1000 * SECOND;
  g_autoptr(SluiceStoredJob) later = enqueue_at (p, "s", "later", t0, t0 + 60 * SECOND);
  g_autoptr(SluiceStoredJob) again = enqueue_at (p, "s", "later", t0, t0 + 5 * SECOND);
  g_autoptr(SluiceStoredJob) now_one = enqueue_at (p, "s", "now", t0, t0);
  g_autoptr(SluiceJobClaim) first = NULL;
  g_autoptr(SluiceJobClaim) early = NULL;
  g_autoptr(SluiceJobClaim) due = NULL;

  g_assert_cmpstr (sluice_stored_job_state_to_string (later->state), ==, "scheduled");
  g_assert_cmpint (later->available_at, ==, t0 + 60 * SECOND);
  g_assert_cmpint (again->available_at, ==, t0 + 60 * SECOND);  /* idempotent: the time too */
  g_assert_cmpstr (sluice_stored_job_state_to_string (now_one->state), ==, "pending");

  g_assert_cmpuint (count_listed (p, "s", SLUICE_STORED_JOB_SCHEDULED, t0 + 10 * SECOND), ==, 1);
  g_assert_cmpuint (count_listed (p, "s", SLUICE_STORED_JOB_PENDING, t0 + 10 * SECOND), ==, 1);
  g_assert_cmpuint (tenant_count (p, "s", SLUICE_STORED_JOB_SCHEDULED, t0 + 10 * SECOND), ==, 1);
  g_assert_cmpuint (tenant_count (p, "s", SLUICE_STORED_JOB_PENDING, t0 + 10 * SECOND), ==, 1);

  first = claim (p, "s", t0 + 10 * SECOND);
  g_assert_nonnull (first);
  g_assert_cmpstr (first->job->operation_key, ==, "now");
  early = claim (p, "s", t0 + 59 * SECOND);
  g_assert_null (early);

  /* Its time: pending, and claimed. */
  g_assert_cmpuint (count_listed (p, "s", SLUICE_STORED_JOB_SCHEDULED, t0 + 60 * SECOND), ==, 0);
  g_assert_cmpuint (count_listed (p, "s", SLUICE_STORED_JOB_PENDING, t0 + 60 * SECOND), ==, 1);
  g_assert_cmpuint (tenant_count (p, "s", SLUICE_STORED_JOB_SCHEDULED, t0 + 60 * SECOND), ==, 0);
  due = claim (p, "s", t0 + 60 * SECOND);
  g_assert_nonnull (due);
  g_assert_cmpstr (due->job->id, ==, later->id);
}

static void
test_sqlite_scheduled_job_is_not_claimed_before_its_time (void)
{
  scheduled_job_is_not_claimed_before_its_time (STORE_SQLITE);
}

static void
test_pg_scheduled_job_is_not_claimed_before_its_time (void)
{
  scheduled_job_is_not_claimed_before_its_time (STORE_PG);
}

/* The command line: --delay and --at schedule, shown by status, jobs
 * --state scheduled and show; cancel takes a scheduled job; bad values
 * exit 2 naming the option. */
static void
enqueue_delay_and_at_schedule_jobs (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(JsonObject) listed = NULL;
  g_autoptr(JsonObject) status = NULL;
  g_autoptr(JsonObject) past = NULL;
  g_autoptr(JsonObject) cancelled = NULL;
  g_autoptr(SluiceJobClaim) none = NULL;
  JsonArray *jobs;
  JsonObject *counts;
  const char *id;

  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--tenant", "c", "--key-prefix", "later",
                        "--count", "2", "--delay", "3600"), ==, 0);
  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--tenant", "c", "--key-prefix", "xmas",
                        "--at", "2999-12-24T18:00:00+01:00"), ==, 0);
  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--tenant", "c", "--key-prefix", "past",
                        "--at", "2001-01-01T00:00:00"), ==, 0);

  g_assert_cmpint (RUN (&listed, "store", "jobs", "--store", p->uri, "--state", "scheduled", "--json"), ==, 0);
  jobs = json_object_get_array_member (listed, "jobs");
  g_assert_cmpuint (json_array_get_length (jobs), ==, 3);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, i), "state"), ==,
                     "scheduled");
  /* Newest first: the one --at, at its time (µs since the epoch). */
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (jobs, 0), "operation_key"), ==,
                   "xmas-0");
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (jobs, 0), "available_at"), ==,
                   G_GINT64_CONSTANT (32503050000) * SECOND);

  g_assert_cmpint (RUN (&status, "store", "status", "--store", p->uri, "--json"), ==, 0);
  counts = json_object_get_object_member (status, "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "scheduled"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (counts, "pending"), ==, 1);  /* the one in the past */

  none = claim (p, "c", g_get_real_time ());
  g_assert_nonnull (none);
  g_assert_cmpstr (none->job->operation_key, ==, "past-0");
  g_clear_pointer (&none, sluice_job_claim_free);
  none = claim (p, "c", g_get_real_time ());
  g_assert_null (none);

  id = json_object_get_string_member (json_array_get_object_element (jobs, 0), "id");
  g_assert_cmpint (RUN (&cancelled, "store", "cancel", id, "--store", p->uri, "--json"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (cancelled, "changed"), ==, 1);
  past = show (p, id, 0);
  g_assert_cmpstr (state_of (past), ==, "cancelled");

  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--delay", "soon"), ==, 2);
  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--delay", "-5"), ==, 2);
  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--at", "tomorrow"), ==, 2);
  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--at", "2999-01-01T00:00:00Z", "--delay", "5"), ==, 2);
}

static void
test_sqlite_enqueue_delay_and_at_schedule_jobs (void)
{
  enqueue_delay_and_at_schedule_jobs (STORE_SQLITE);
}

static void
test_pg_enqueue_delay_and_at_schedule_jobs (void)
{
  enqueue_delay_and_at_schedule_jobs (STORE_PG);
}

/* ---- read-only: may this store be written? ------------------------------------------- */

static gboolean
writable_of (SluiceJobStore *store)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WRITABLE);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = store_fixture_admin (store, query, &error);

  g_assert_no_error (error);
  return reply->writable;
}

/* @uri with its user= replaced by @user. */
static char *
uri_as_user (const char *uri,
             const char *user)
{
  g_autoptr(GRegex) regex = g_regex_new ("user=[^&]*", 0, 0, NULL);
  g_autofree char *replacement = g_strdup_printf ("user=%s", user);

  g_assert_nonnull (strstr (uri, "user="));
  return g_regex_replace_literal (regex, uri, -1, 0, replacement, 0, NULL);
}

/* The window asks before it shows its actions: a store opened for
 * writing may be written; one opened read-only may not; on PostgreSQL
 * neither may a user without the privileges on the jobs. */
static void
store_says_whether_it_may_be_written (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceJobStore) read_only = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (writable_of (p->store));
  read_only = sluice_job_store_open_for_uri (p->uri, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  g_assert_false (writable_of (read_only));

  if (kind == STORE_SQLITE && geteuid () != 0)
    {
      g_autoptr(SluiceJobStore) denied = NULL;

      /* (root may write a file whatever its mode: not checked then) */
      g_clear_object (&p->store);
      g_clear_object (&read_only);
      g_assert_cmpint (g_chmod (p->path, 0444), ==, 0);
      denied = sluice_job_store_open_for_uri (p->uri, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
      g_assert_no_error (error);
      g_assert_false (writable_of (denied));
      g_assert_cmpint (g_chmod (p->path, 0644), ==, 0);
    }
  if (kind == STORE_PG)
    {
      g_autofree char *role = g_strdup_printf ("sluice_reader_%d", (int) getpid ());
      g_autofree char *grant = g_strdup_printf ("CREATE ROLE %s LOGIN; GRANT USAGE ON SCHEMA %s TO %s;"
                                                " GRANT SELECT ON ALL TABLES IN SCHEMA %s TO %s",
                                                role, p->schema, role, p->schema, role);
      g_autofree char *drop = g_strdup_printf ("DROP OWNED BY %s; DROP ROLE %s", role, role);
      g_autofree char *uri = uri_as_user (p->uri, role);
      g_autoptr(SluiceJobStore) reader = NULL;

      store_fixture_pg_exec (grant);
      reader = sluice_job_store_open_for_uri (uri, SLUICE_JOB_STORE_OPEN_READ_WRITE, &error);
      g_assert_no_error (error);
      g_assert_false (writable_of (reader));
      g_clear_object (&reader);
      store_fixture_pg_exec (drop);
    }
}

static void
test_sqlite_store_says_whether_it_may_be_written (void)
{
  store_says_whether_it_may_be_written (STORE_SQLITE);
}

static void
test_pg_store_says_whether_it_may_be_written (void)
{
  store_says_whether_it_may_be_written (STORE_PG);
}

/* Live: another process's change reaches the model by itself. On
 * PostgreSQL by the NOTIFY of its enqueue, with polling off; on SQLite,
 * whose other processes tell nothing, by the poll (its interval a
 * property: a short one here, on the wall clock, since the change is made
 * by another process in real time). */
static void
jobs_model_follows_another_process (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceStoreAdminQuery) filter = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_LIST_JOBS);
  g_autoptr(SluiceStoreJobsModel) model = NULL;
  guint changed[2] = { 0, 0 };

  sluice_stored_job_free (enqueue (p, "live", "mine-0", "{}", 3, 1000));
  sluice_stored_job_free (enqueue (p, "live", "mine-1", "{}", 3, 1001));
  filter->tenant = g_strdup ("live");
  model = sluice_store_jobs_model_new (p->store, filter, 10);
  g_assert_cmpfloat (sluice_store_jobs_model_get_poll_interval (model), ==, kind == STORE_PG ? 10.0 : 1.0);
  sluice_store_jobs_model_set_poll_interval (model, kind == STORE_PG ? 0 : 0.05);
  wait_loaded (model);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
  g_signal_connect (model, "items-changed", G_CALLBACK (on_items_changed), changed);

  g_assert_cmpint (RUN (NULL, "enqueue", "--store", p->uri, "--tenant", "live", "--key-prefix", "theirs"), ==, 0);
  SLUICE_TEST_SPIN_WITHIN (10, "the model following another process's enqueue",
                           g_list_model_get_n_items (G_LIST_MODEL (model)) == 3);
  g_assert_cmpstr (model_key (model, 0), ==, "theirs-0");
  g_assert_cmpstr (model_key (model, 2), ==, "mine-0");
  g_assert_cmpuint (changed[0], >=, 3);  /* one change that replaced the items */
}

static void
test_sqlite_jobs_model_follows_another_process (void)
{
  jobs_model_follows_another_process (STORE_SQLITE);
}

static void
test_pg_jobs_model_follows_another_process (void)
{
  jobs_model_follows_another_process (STORE_PG);
}

/* ---- export: a scenario that replays the attempts --------------------------------------- */

/* Runs @scenario with sluice-run --json: its report. */
static JsonObject *
run_scenario (const char *scenario)
{
  g_autoptr(JsonObject) report = NULL;

  g_assert_cmpint (RUN (&report, scenario, "--json"), ==, 0);
  return json_object_ref (report);
}

static JsonObject *
export_and_run (StorePlace *p,
                const char *id,
                const char *name)
{
  g_autofree char *file = NULL;
  g_autofree char *scenario = NULL;
  JsonObject *report;

  file = g_strdup_printf ("%s-%d.pool", name, (int) getpid ());
  scenario = g_build_filename (p->dir != NULL ? p->dir : g_get_tmp_dir (), file, NULL);
  g_assert_cmpint (RUN (NULL, "store", "export", id, "--scenario", scenario, "--store", p->uri), ==, 0);
  report = run_scenario (scenario);
  g_unlink (scenario);
  return report;
}

static gint64
attempts_of_item (JsonObject *report)
{
  return json_object_get_int_member (json_object_get_object_member (report, "attempts"), "0");
}

static void
exported_scenario_replays_the_attempts (StoreKind kind)
{
  PLACE_OR_SKIP (p, kind);
  g_autoptr(SluiceJobFailure) retried = sluice_job_failure_new ("ValueError", "attempt 1 failed", "VALUE_ERROR", TRUE);
  g_autoptr(SluiceJobFailure) last = sluice_job_failure_new ("ValueError", "attempt 2 failed", "VALUE_ERROR", FALSE);
  g_autoptr(SluiceJobFailure) slow = sluice_job_failure_new ("TimeoutError", "item timed out", "ATTEMPT_TIMEOUT", TRUE);
  g_autoptr(SluiceJobFailure) slow_last = sluice_job_failure_new ("TimeoutError", "item timed out", "ATTEMPT_TIMEOUT",
                                                                  FALSE);
  g_autoptr(SluiceStoredJob) dead = enqueue (p, "t", "dead", "{}", 2, 1000);
  g_autoptr(SluiceStoredJob) lucky = enqueue (p, "u", "lucky", "{\"behaviour\": \"fail 1 ConnectionError\"}", 3, 1000);
  g_autoptr(SluiceStoredJob) hung = enqueue (p, "v", "hung", "{}", 2, 1000);
  g_autoptr(SluiceJobFailure) connection = sluice_job_failure_new ("ConnectionError", "attempt 1 failed",
                                                                   "CONNECTION_ERROR", TRUE);
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(GError) error = NULL;
  const gint64 t0 = 10 * SECOND;

  /* Dead after two ValueErrors (the first retried 0.2 s later). */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(SluiceJobClaim) c = claim (p, "t", t0 + i * SECOND / 5 * 2);

      store_fixture_fail (p->store, c, i == 0 ? retried : last, i == 0 ? t0 + SECOND / 5 * 2 : -1,
                          t0 + i * SECOND / 5 * 2 + SECOND / 10, &error);
      g_assert_no_error (error);
    }
  report = export_and_run (p, dead->id, "dead");
  g_assert_cmpint (attempts_of_item (report), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (report, "group_types"), 0), ==,
                   "ValueError");
  g_clear_pointer (&report, json_object_unref);

  /* One ConnectionError, then a success: its payload's behaviour. */
  {
    g_autoptr(SluiceJobClaim) first = claim (p, "u", t0);
    g_autoptr(SluiceJobClaim) second = NULL;

    store_fixture_fail (p->store, first, connection, t0 + SECOND, t0 + SECOND / 10, &error);
    g_assert_no_error (error);
    second = claim (p, "u", t0 + SECOND);
    store_fixture_complete (p->store, second, "{}", t0 + SECOND + SECOND / 10, &error);
    g_assert_no_error (error);
  }
  report = export_and_run (p, lucky->id, "lucky");
  g_assert_cmpint (attempts_of_item (report), ==, 2);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (report, "results")), ==, 1);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (report, "group_types")), ==, 0);
  g_clear_pointer (&report, json_object_unref);

  /* Two timeouts of 0.5 s: a hang, with that timeout. */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(SluiceJobClaim) c = claim (p, "v", t0 + i * SECOND);

      store_fixture_fail (p->store, c, i == 0 ? slow : slow_last, i == 0 ? t0 + SECOND : -1,
                          t0 + i * SECOND + SECOND / 2, &error);
      g_assert_no_error (error);
    }
  report = export_and_run (p, hung->id, "hung");
  g_assert_cmpint (attempts_of_item (report), ==, 2);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (report, "group_types"), 0), ==,
                   "TimeoutError");
  /* On the virtual clock: two timeouts of 0.5 s and a 0.5 s backoff. */
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (report, "elapsed"), 1.5, 1e-6);
  g_clear_pointer (&report, json_object_unref);

  g_assert_cmpint (RUN (NULL, "store", "export", dead->id, "--store", p->uri), ==, 2);
  g_assert_cmpint (RUN (NULL, "store", "export", "no-such-job", "--scenario", "/dev/null", "--store", p->uri), ==, 1);
}

static void
test_sqlite_exported_scenario_replays_the_attempts (void)
{
  exported_scenario_replays_the_attempts (STORE_SQLITE);
}

static void
test_pg_exported_scenario_replays_the_attempts (void)
{
  exported_scenario_replays_the_attempts (STORE_PG);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/admin/sqlite/schema-1-store-is-migrated", test_sqlite_schema_1_store_is_migrated);
  g_test_add_func ("/store/admin/pg/schema-1-store-is-migrated", test_pg_schema_1_store_is_migrated);
  g_test_add_func ("/store/admin/sqlite/jobs-filter-search-and-pages-under-inserts",
                   test_sqlite_jobs_filter_search_and_pages_under_inserts);
  g_test_add_func ("/store/admin/pg/jobs-filter-search-and-pages-under-inserts",
                   test_pg_jobs_filter_search_and_pages_under_inserts);
  g_test_add_func ("/store/admin/sqlite/verbs-change-jobs-by-id-and-by-state",
                   test_sqlite_verbs_change_jobs_by_id_and_by_state);
  g_test_add_func ("/store/admin/pg/verbs-change-jobs-by-id-and-by-state",
                   test_pg_verbs_change_jobs_by_id_and_by_state);
  g_test_add_func ("/store/admin/sqlite/paused-tenant-is-not-claimed-and-limit-caps-running",
                   test_sqlite_paused_tenant_is_not_claimed_and_limit_caps_running);
  g_test_add_func ("/store/admin/pg/paused-tenant-is-not-claimed-and-limit-caps-running",
                   test_pg_paused_tenant_is_not_claimed_and_limit_caps_running);
  g_test_add_func ("/store/admin/sqlite/running-job-cancelled-from-another-process",
                   test_sqlite_running_job_cancelled_from_another_process);
  g_test_add_func ("/store/admin/pg/running-job-cancelled-from-another-process",
                   test_pg_running_job_cancelled_from_another_process);
  g_test_add_func ("/store/admin/sqlite/history-survives-a-killed-worker",
                   test_sqlite_history_survives_a_killed_worker);
  g_test_add_func ("/store/admin/pg/history-survives-a-killed-worker", test_pg_history_survives_a_killed_worker);
  g_test_add_func ("/store/admin/sqlite/history-keeps-the-last-attempts",
                   test_sqlite_history_keeps_the_last_attempts);
  g_test_add_func ("/store/admin/pg/history-keeps-the-last-attempts", test_pg_history_keeps_the_last_attempts);
  g_test_add_func ("/store/admin/sqlite/cancel-ends-a-claim-handed-back-and-not-a-completed-job",
                   test_sqlite_cancel_ends_a_claim_handed_back_and_not_a_completed_job);
  g_test_add_func ("/store/admin/pg/cancel-ends-a-claim-handed-back-and-not-a-completed-job",
                   test_pg_cancel_ends_a_claim_handed_back_and_not_a_completed_job);
  g_test_add_func ("/store/admin/sqlite/completions-read-ended-attempts-with-their-wait",
                   test_sqlite_completions_read_ended_attempts_with_their_wait);
  g_test_add_func ("/store/admin/pg/completions-read-ended-attempts-with-their-wait",
                   test_pg_completions_read_ended_attempts_with_their_wait);
  g_test_add_func ("/store/admin/sqlite/scheduled-job-is-not-claimed-before-its-time",
                   test_sqlite_scheduled_job_is_not_claimed_before_its_time);
  g_test_add_func ("/store/admin/pg/scheduled-job-is-not-claimed-before-its-time",
                   test_pg_scheduled_job_is_not_claimed_before_its_time);
  g_test_add_func ("/store/admin/sqlite/enqueue-delay-and-at-schedule-jobs",
                   test_sqlite_enqueue_delay_and_at_schedule_jobs);
  g_test_add_func ("/store/admin/pg/enqueue-delay-and-at-schedule-jobs", test_pg_enqueue_delay_and_at_schedule_jobs);
  g_test_add_func ("/store/admin/sqlite/store-says-whether-it-may-be-written",
                   test_sqlite_store_says_whether_it_may_be_written);
  g_test_add_func ("/store/admin/pg/store-says-whether-it-may-be-written",
                   test_pg_store_says_whether_it_may_be_written);
  g_test_add_func ("/store/admin/sqlite/jobs-model-follows-another-process",
                   test_sqlite_jobs_model_follows_another_process);
  g_test_add_func ("/store/admin/pg/jobs-model-follows-another-process", test_pg_jobs_model_follows_another_process);
  g_test_add_func ("/store/admin/sqlite/jobs-model-reads-pages-on-demand", test_sqlite_jobs_model_reads_pages_on_demand);
  g_test_add_func ("/store/admin/pg/jobs-model-reads-pages-on-demand", test_pg_jobs_model_reads_pages_on_demand);
  g_test_add_func ("/store/admin/sqlite/exported-scenario-replays-the-attempts",
                   test_sqlite_exported_scenario_replays_the_attempts);
  g_test_add_func ("/store/admin/pg/exported-scenario-replays-the-attempts",
                   test_pg_exported_scenario_replays_the_attempts);
  return g_test_run ();
}
