/* test-store-cli.c: sluice-run's job store commands under bad input
 * (docs/job-store.md, "Opening a store" and "Limits"; issue 25)
 *
 * Real `sluice-run` processes (SLUICE_RUN) on a real SQLite file, and on
 * the PostgreSQL server of SLUICE_TEST_PG_URI when it is set (each case a
 * schema of its own; skipped without it, unless CI=true or
 * SLUICE_REQUIRE_PG=1). The rules:
 * - store-status only reads: a file that does not exist is an error and is
 *   not made; another program's database gets neither our tables nor WAL.
 * - enqueue and worker make a store in a new or empty database, and in one
 *   with other tables only with --init.
 * - a tenant or key over the limit is a bad argument (exit 2).
 * - an enqueue that fails part-way says how many jobs were stored and
 *   which were not, and exits 1. The failure is injected with a trigger
 *   that refuses every insert past the 46th, as a full disk would: the
 *   same on both stores, and nothing in the program knows of it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "sluice-job-store.h"
#include "cli-fixture.h"
#include "store-fixture.h"
#include "test-helpers.h"

/* ---- running sluice-run ---------------------------------------------------- */

#define RUN(out, err, ...) cli_run_to_end ((const char * const[]) { __VA_ARGS__, NULL }, out, err)

/* ---- the places: a SQLite file, or a schema on the server ------------------- */

/* The first value of @sql, run with @schema as the search path. */
static char *
pg_value (const char *schema,
          const char *sql)
{
  PGconn *conn = PQconnectdb (g_getenv ("SLUICE_TEST_PG_URI"));
  g_autofree char *path = g_strdup_printf ("SET search_path TO %s", schema);
  char *value;

  g_assert_cmpint (PQstatus (conn), ==, CONNECTION_OK);
  PQclear (PQexec (conn, path));
  value = store_fixture_pg_value (conn, sql);
  PQfinish (conn);
  return value;
}

static void
sqlite_exec (const char *path,
             const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static char *
sqlite_value (const char *path,
              const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *value = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    value = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return value;
}


/* Another program's table, with a row, in the place. */
static void
add_foreign_table (StorePlace *p)
{
  if (p->kind == STORE_SQLITE)
    sqlite_exec (p->path, "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT);"
                          "INSERT INTO orders (item) VALUES ('tea')");
  else
    {
      g_autofree char *sql = g_strdup_printf ("CREATE TABLE %s.orders (id serial PRIMARY KEY, item text);"
                                              "INSERT INTO %s.orders (item) VALUES ('tea')",
                                              p->schema, p->schema);

      store_fixture_pg_exec (sql);
    }
}

/* The first value of @sql, in the place. */
static char *
place_value (StorePlace *p,
             const char *sql)
{
  if (p->kind == STORE_SQLITE)
    return sqlite_value (p->path, sql);
  return pg_value (p->schema, sql);
}

/* Whether the place has our schema table (and so is a store). */
static gboolean
has_store (StorePlace *p)
{
  g_autofree char *value = NULL;

  if (p->kind == STORE_SQLITE && !g_file_test (p->path, G_FILE_TEST_EXISTS))
    return FALSE;
  value = place_value (p, p->kind == STORE_SQLITE
                            ? "SELECT count(*) FROM sqlite_master WHERE name = 'sluice_schema'"
                            : "SELECT count(*) FROM pg_tables"
                              " WHERE schemaname = current_schema() AND tablename = 'sluice_schema'");
  return g_strcmp0 (value, "0") != 0;
}

/* The other program's table is as it was; SQLite: so is the journal mode. */
static void
assert_foreign_untouched (StorePlace *p)
{
  g_autofree char *item = place_value (p, "SELECT item FROM orders");

  g_assert_cmpstr (item, ==, "tea");
  g_assert_false (has_store (p));
  if (p->kind == STORE_SQLITE)
    {
      g_autofree char *mode = sqlite_value (p->path, "PRAGMA journal_mode");

      g_assert_cmpstr (mode, ==, "delete");
    }
}

static guint
count_jobs (StorePlace *p)
{
  g_autofree char *n = place_value (p, "SELECT count(*) FROM sluice_jobs");

  return (guint) g_ascii_strtoull (n, NULL, 10);
}

/* ---- store-status reads, and only reads -------------------------------------- */

static void
status_never_makes_or_converts_a_store (StoreKind kind)
{
  g_autoptr(StorePlace) missing = store_place_new (kind, "cli");
  g_autoptr(StorePlace) foreign = store_place_new (kind, "cli");
  g_autofree char *out = NULL, *err = NULL;

  /* A typo: nothing there. SQLite: no file is made; PostgreSQL: no table. */
  g_assert_cmpint (RUN (&out, &err, "store-status", "--store", missing->uri), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, kind == STORE_SQLITE ? "does not exist" : "no job store yet"));
  g_assert_false (has_store (missing));
  if (kind == STORE_SQLITE)
    g_assert_false (g_file_test (missing->path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  add_foreign_table (foreign);
  g_assert_cmpint (RUN (&out, &err, "store-status", "--store", foreign->uri, "--json"), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "not a Sluice job store"));
  g_assert_nonnull (strstr (err, "orders"));
  assert_foreign_untouched (foreign);
}

static void
test_sqlite_status_never_makes_or_converts_a_store (void)
{
  g_autoptr(StorePlace) empty = store_place_new (STORE_SQLITE, "cli");
  g_autofree char *out = NULL, *err = NULL;
  GStatBuf st;

  status_never_makes_or_converts_a_store (STORE_SQLITE);

  /* An empty file stays empty. */
  g_assert_true (g_file_set_contents (empty->path, "", 0, NULL));
  g_assert_cmpint (RUN (&out, &err, "store-status", "--store", empty->uri), ==, 1);
  g_assert_nonnull (strstr (err, empty->path));
  g_assert_cmpint (g_stat (empty->path, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 0);
}

static void
test_pg_status_never_makes_a_store (void)
{
  if (store_fixture_pg_available ())
    status_never_makes_or_converts_a_store (STORE_PG);
}

/* ---- enqueue and worker make a store only where they may --------------------- */

static void
writers_need_init_for_a_foreign_database (StoreKind kind)
{
  g_autoptr(StorePlace) p = store_place_new (kind, "cli");
  g_autoptr(StorePlace) fresh = store_place_new (kind, "cli");
  g_autofree char *out = NULL, *err = NULL;

  add_foreign_table (p);
  g_assert_cmpint (RUN (&out, &err, "enqueue", "--store", p->uri, "--count", "3"), ==, 1);
  g_assert_nonnull (strstr (err, "not a Sluice job store"));
  g_assert_nonnull (strstr (err, "--init"));
  assert_foreign_untouched (p);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (RUN (&out, &err, "worker", "--store", p->uri, "--until-empty"), ==, 1);
  g_assert_nonnull (strstr (err, "--init"));
  assert_foreign_untouched (p);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Asked for, the store is made beside the other table. */
  g_assert_cmpint (RUN (&out, &err, "enqueue", "--store", p->uri, "--count", "3", "--init"), ==, 0);
  g_assert_nonnull (strstr (out, "created 3, existing 0"));
  g_assert_true (has_store (p));
  g_assert_cmpuint (count_jobs (p), ==, 3);
  {
    g_autofree char *item = place_value (p, "SELECT item FROM orders");

    g_assert_cmpstr (item, ==, "tea");
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A store from then on: the worker needs no --init for it. */
  g_assert_cmpint (RUN (&out, &err, "worker", "--store", p->uri, "--until-empty"), ==, 0);
  g_assert_nonnull (strstr (out, "completed 3"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* A worker with --init on another program's database, and one on a new
   * place, which is made a store without asking. */
  add_foreign_table (fresh);
  g_assert_cmpint (RUN (&out, &err, "worker", "--store", fresh->uri, "--until-empty", "--init"), ==, 0);
  g_assert_true (has_store (fresh));
}

static void
test_sqlite_writers_need_init_for_a_foreign_database (void)
{
  g_autoptr(StorePlace) fresh = store_place_new (STORE_SQLITE, "cli");
  g_autofree char *out = NULL, *err = NULL;

  writers_need_init_for_a_foreign_database (STORE_SQLITE);

  g_assert_cmpint (RUN (&out, &err, "enqueue", "--store", fresh->uri, "--count", "2"), ==, 0);
  g_assert_true (has_store (fresh));
}

static void
test_pg_writers_need_init_for_a_foreign_database (void)
{
  if (store_fixture_pg_available ())
    writers_need_init_for_a_foreign_database (STORE_PG);
}

/* ---- limits ---------------------------------------------------------------------- */

static void
names_over_the_limit_are_bad_arguments (StoreKind kind)
{
  g_autoptr(StorePlace) p = store_place_new (kind, "cli");
  g_autofree char *huge = g_strnfill (8000, 't');
  g_autofree char *long_prefix = g_strnfill (SLUICE_JOB_STORE_MAX_NAME_BYTES - 2, 'k');
  g_autofree char *longest_tenant = g_strnfill (SLUICE_JOB_STORE_MAX_NAME_BYTES, 't');
  const char *cases[][8] = {
    { "enqueue", "--store", p->uri, "--tenant", huge, NULL },
    /* The key of the 11th job is the prefix, "-" and "10": 256 bytes. */
    { "enqueue", "--store", p->uri, "--key-prefix", long_prefix, "--count", "11", NULL },
    { "store-status", "--store", p->uri, "--tenant", huge, NULL },
  };
  g_autofree char *out = NULL, *err = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpint (cli_run_to_end (cases[i], &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, "at most 255 bytes"));
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
    }
  g_assert_cmpuint (has_store (p) ? count_jobs (p) : 0, ==, 0);

  /* At the limit: 10 jobs whose keys have up to 255 bytes, in a tenant of 255. */
  g_assert_cmpint (RUN (&out, &err, "enqueue", "--store", p->uri, "--tenant", longest_tenant,
                        "--key-prefix", long_prefix, "--count", "10"), ==, 0);
  g_assert_cmpuint (count_jobs (p), ==, 10);
}

static void
test_sqlite_names_over_the_limit_are_bad_arguments (void)
{
  names_over_the_limit_are_bad_arguments (STORE_SQLITE);
}

static void
test_pg_names_over_the_limit_are_bad_arguments (void)
{
  if (store_fixture_pg_available ())
    names_over_the_limit_are_bad_arguments (STORE_PG);
}

/* ---- a failure part-way ------------------------------------------------------------ */

/* Makes the place a store, then lets only its first @room jobs in: every
 * later new job fails as on a full disk (one that exists needs no room). */
static void
fill_up_after (StorePlace *p,
               guint  room)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (p->uri, &error);
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autofree char *sql = NULL;

  g_assert_no_error (error);
  status = store_fixture_status (store, NULL, 0, &error);
  g_assert_no_error (error);
  if (p->kind == STORE_SQLITE)
    sql = g_strdup_printf ("CREATE TRIGGER test_full BEFORE INSERT ON sluice_jobs"
                           " WHEN (SELECT count(*) FROM sluice_jobs) >= %u"
                           "  AND NOT EXISTS (SELECT 1 FROM sluice_jobs"
                           "                  WHERE tenant = NEW.tenant AND operation_key = NEW.operation_key)"
                           " BEGIN SELECT RAISE(ABORT, 'database or disk is full (the test''s)'); END",
                           room);
  else
    sql = g_strdup_printf ("CREATE FUNCTION %s.test_full() RETURNS trigger LANGUAGE plpgsql AS $$"
                           " BEGIN IF (SELECT count(*) FROM %s.sluice_jobs) >= %u AND NOT EXISTS"
                           "  (SELECT 1 FROM %s.sluice_jobs"
                           "   WHERE tenant = NEW.tenant AND operation_key = NEW.operation_key) THEN"
                           "  RAISE EXCEPTION 'could not extend file: No space left on device (the test''s)'"
                           "  USING ERRCODE = 'disk_full'; END IF; RETURN NEW; END $$;"
                           "CREATE TRIGGER test_full BEFORE INSERT ON %s.sluice_jobs"
                           " FOR EACH ROW EXECUTE FUNCTION %s.test_full()",
                           p->schema, p->schema, room, p->schema, p->schema, p->schema);
  if (p->kind == STORE_SQLITE)
    sqlite_exec (p->path, sql);
  else
    store_fixture_pg_exec (sql);
}

static void
enqueue_failing_part_way_says_what_was_stored (StoreKind kind)
{
  g_autoptr(StorePlace) p = store_place_new (kind, "cli");
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *report;
  JsonArray *runs, *run;

  fill_up_after (p, 46);
  g_assert_cmpint (RUN (&out, &err, "enqueue", "--store", p->uri, "--count", "100"), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "(the test's)"));
  g_assert_nonnull (strstr (err, "stored 46 of 100 jobs (created 46, existing 0)"));
  g_assert_nonnull (strstr (err, "not stored: job-46 … job-99 (54 jobs)"));
  g_assert_cmpuint (count_jobs (p), ==, 46);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* Again, as the message says: the 46 exist, the rest still fail. */
  g_assert_cmpint (RUN (&out, &err, "enqueue", "--store", p->uri, "--count", "100", "--json"), ==, 1);
  g_assert_nonnull (strstr (err, "stored 46 of 100 jobs (created 0, existing 46)"));
  root = json_from_string (out, &error);
  g_assert_no_error (error);
  report = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (report, "created"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (report, "existing"), ==, 46);
  g_assert_cmpint (json_object_get_int_member (report, "not_stored"), ==, 54);
  g_assert_nonnull (strstr (json_object_get_string_member (report, "error"), "(the test's)"));
  runs = json_object_get_array_member (report, "not_stored_keys");
  g_assert_cmpuint (json_array_get_length (runs), ==, 1);
  run = json_array_get_array_element (runs, 0);
  g_assert_cmpstr (json_array_get_string_element (run, 0), ==, "job-46");
  g_assert_cmpstr (json_array_get_string_element (run, 1), ==, "job-99");
  g_assert_cmpuint (count_jobs (p), ==, 46);
}

static void
test_sqlite_enqueue_failing_part_way_says_what_was_stored (void)
{
  enqueue_failing_part_way_says_what_was_stored (STORE_SQLITE);
}

static void
test_pg_enqueue_failing_part_way_says_what_was_stored (void)
{
  if (store_fixture_pg_available ())
    enqueue_failing_part_way_says_what_was_stored (STORE_PG);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/cli/sqlite/status-never-makes-or-converts-a-store",
                   test_sqlite_status_never_makes_or_converts_a_store);
  g_test_add_func ("/store/cli/pg/status-never-makes-a-store", test_pg_status_never_makes_a_store);
  g_test_add_func ("/store/cli/sqlite/writers-need-init-for-a-foreign-database",
                   test_sqlite_writers_need_init_for_a_foreign_database);
  g_test_add_func ("/store/cli/pg/writers-need-init-for-a-foreign-database",
                   test_pg_writers_need_init_for_a_foreign_database);
  g_test_add_func ("/store/cli/sqlite/names-over-the-limit-are-bad-arguments",
                   test_sqlite_names_over_the_limit_are_bad_arguments);
  g_test_add_func ("/store/cli/pg/names-over-the-limit-are-bad-arguments",
                   test_pg_names_over_the_limit_are_bad_arguments);
  g_test_add_func ("/store/cli/sqlite/enqueue-failing-part-way-says-what-was-stored",
                   test_sqlite_enqueue_failing_part_way_says_what_was_stored);
  g_test_add_func ("/store/cli/pg/enqueue-failing-part-way-says-what-was-stored",
                   test_pg_enqueue_failing_part_way_says_what_was_stored);

  return g_test_run ();
}
