/* test-store-sqlite.c: the job store protocol on a real SQLite file, and
 * what only SQLite has (WAL, a file that is not a database, the schema's
 * version, the store's thread); the store URIs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <sqlite3.h>

#include "sluice-sqlite-store.h"
#include "store-fixture.h"

#define T0 G_GINT64_CONSTANT (1700000000000000)

static char *scratch;  /* a temporary folder for the whole run */

static char *
new_path (void)
{
  static guint n;

  return g_strdup_printf ("%s/store-%u.db", scratch, ++n);
}

static SluiceJobStore *
make_sqlite_store (char   **uri,
                   GError **error)
{
  g_autofree char *path = new_path ();

  *uri = g_strconcat ("sqlite:", path, NULL);
  return sluice_sqlite_store_new (path, error);
}

/* A query's first column of its first row, on a connection of the test's
 * own (not the store's). */
static char *
query_text (const char *path,
            const char *sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  char *text = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL), ==, SQLITE_OK);
  if (sqlite3_step (stmt) == SQLITE_ROW)
    text = g_strdup ((const char *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return text;
}

static void
exec_sql (const char *path,
          const char *sql)
{
  sqlite3 *db = NULL;

  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, sql, NULL, NULL, NULL), ==, SQLITE_OK);
  sqlite3_close (db);
}

static void
assert_counts_pending (SluiceJobStore *store,
                       guint64         pending)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreStatus) status = store_fixture_status (store, NULL, 0, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, pending);
}

static void
test_file_is_in_wal_mode (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store = sluice_sqlite_store_new (path, &error);
  g_autofree char *mode = NULL;
  g_autofree char *version = NULL;

  g_assert_no_error (error);
  g_assert_true (SLUICE_IS_SQLITE_STORE (store));
  g_assert_cmpstr (sluice_sqlite_store_get_path (SLUICE_SQLITE_STORE (store)), ==, path);
  /* WAL is a property of the file: another connection sees it. */
  mode = query_text (path, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");
  version = query_text (path, "SELECT version FROM sluice_schema");
  g_assert_cmpstr (version, ==, G_STRINGIFY (SLUICE_SQLITE_STORE_SCHEMA_VERSION));
  g_assert_finalize_object (store);
}

static void
test_not_a_database_is_backend_error_naming_file (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;

  for (guint i = 0; i < 200; i++)
    g_string_append (text, "This is a text file, not a database.\n");
  g_assert_true (g_file_set_contents (path, text->str, text->len, NULL));
  store = sluice_sqlite_store_new (path, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, path));
  g_test_message ("%s", error->message);
}

static void
test_unopenable_file_is_backend_error_naming_file (void)
{
  g_autofree char *path = g_strdup_printf ("%s/no-such-folder/store.db", scratch);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_sqlite_store_new (path, &error);

  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_newer_schema_version_is_refused (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autofree char *tables = NULL;

  exec_sql (path, "CREATE TABLE sluice_schema (version INTEGER NOT NULL);"
                  "INSERT INTO sluice_schema VALUES (99)");
  store = sluice_sqlite_store_new (path, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_nonnull (strstr (error->message, "99"));
  /* Refused, the file is left as it was. */
  tables = query_text (path, "SELECT count(*) FROM sqlite_master WHERE name = 'sluice_jobs'");
  g_assert_cmpstr (tables, ==, "0");
}

static void
test_foreign_jobs_table_is_refused (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;

  exec_sql (path, "CREATE TABLE sluice_jobs (name TEXT)");
  store = sluice_sqlite_store_new (path, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA);
  g_clear_error (&error);
  /* Not even with init: its table would be taken for ours. */
  store = sluice_sqlite_store_open (path, SLUICE_JOB_STORE_OPEN_INIT, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA);
}

/* ---- opening: what is a store, and who may make one -------------------------- */

/* Another program's database: a table with a row, in the default
 * (rollback) journal mode. */
static char *
foreign_database (void)
{
  char *path = new_path ();

  exec_sql (path, "CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT);"
                  "INSERT INTO orders (item) VALUES ('tea')");
  return path;
}

/* Left as it was: no table of ours, its journal mode, its row. */
static void
assert_foreign_untouched (const char *path)
{
  g_autofree char *ours = query_text (path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'sluice%'");
  g_autofree char *mode = query_text (path, "PRAGMA journal_mode");
  g_autofree char *item = query_text (path, "SELECT item FROM orders");

  g_assert_cmpstr (ours, ==, "0");
  g_assert_cmpstr (mode, ==, "delete");
  g_assert_cmpstr (item, ==, "tea");
}

static void
test_read_only_never_makes_a_store (void)
{
  g_autofree char *missing = new_path ();
  g_autofree char *empty = new_path ();
  g_autofree char *foreign = foreign_database ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  GStatBuf st;

  /* A typo names no file: an error naming it, and no file made. */
  store = sluice_sqlite_store_open (missing, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* An empty file stays empty. */
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  store = sluice_sqlite_store_open (empty, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE);
  g_assert_cmpint (g_stat (empty, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, 0);
  g_clear_error (&error);

  /* Another program's database gets neither our tables nor WAL. */
  store = sluice_sqlite_store_open (foreign, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE);
  g_assert_nonnull (strstr (error->message, "orders"));
  assert_foreign_untouched (foreign);
}

static void
test_read_only_reads_a_store_and_writes_nothing (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store = sluice_sqlite_store_new (path, &error);
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceStoredJob) refused = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  gboolean created = FALSE;

  g_assert_no_error (error);
  job = store_fixture_enqueue (store, "tenant-a", "op-1", "{}", 3, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_finalize_object (store);

  store = sluice_sqlite_store_open (path, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_assert_no_error (error);
  status = store_fixture_status (store, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 1);
  refused = store_fixture_enqueue (store, "tenant-a", "op-2", "{}", 3, T0, &created, &error);
  g_assert_null (refused);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND);
  g_assert_nonnull (strstr (error->message, path));
  g_assert_finalize_object (store);
}

/* A database with other tables and no job store is refused for writing,
 * and left as it was; with init, the store is made beside its tables. A
 * file without tables (new, or empty) is made a store without asking. */
static void
test_foreign_database_is_made_a_store_only_with_init (void)
{
  g_autofree char *foreign = foreign_database ();
  g_autofree char *empty = new_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) refused = NULL;
  g_autofree char *item = NULL;
  g_autofree char *mode = NULL;
  SluiceJobStore *store;

  refused = sluice_sqlite_store_open (foreign, SLUICE_JOB_STORE_OPEN_READ_WRITE, &error);
  g_assert_null (refused);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_NOT_A_STORE);
  g_assert_nonnull (strstr (error->message, foreign));
  g_assert_nonnull (strstr (error->message, "orders"));
  g_assert_nonnull (strstr (error->message, "--init"));
  g_clear_error (&error);
  assert_foreign_untouched (foreign);

  store = sluice_sqlite_store_open (foreign, SLUICE_JOB_STORE_OPEN_INIT, &error);
  g_assert_no_error (error);
  assert_counts_pending (store, 0);
  g_assert_finalize_object (store);
  item = query_text (foreign, "SELECT item FROM orders");
  g_assert_cmpstr (item, ==, "tea");
  /* Made a store, it is one from then on: no init needed. */
  store = sluice_sqlite_store_open (foreign, SLUICE_JOB_STORE_OPEN_READ_WRITE, &error);
  g_assert_no_error (error);
  g_assert_finalize_object (store);

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  store = sluice_sqlite_store_open (empty, SLUICE_JOB_STORE_OPEN_READ_WRITE, &error);
  g_assert_no_error (error);
  assert_counts_pending (store, 0);
  g_assert_finalize_object (store);
  mode = query_text (empty, "PRAGMA journal_mode");
  g_assert_cmpstr (mode, ==, "wal");
}

static void
test_reopened_file_keeps_its_jobs (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store = sluice_sqlite_store_new (path, &error);
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceStoredJob) again = NULL;
  gboolean created = FALSE;

  g_assert_no_error (error);
  job = store_fixture_enqueue (store, "tenant-a", "op-1", "[1, 2, 3]", 2, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_assert_finalize_object (store);

  store = sluice_sqlite_store_new (path, &error);
  g_assert_no_error (error);
  again = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpstr (again->id, ==, job->id);
  g_assert_cmpstr (again->payload, ==, "[1, 2, 3]");
  g_assert_cmpuint (again->max_attempts, ==, 2);
  g_assert_finalize_object (store);
}

static void
on_ready (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  *slot = g_object_ref (result);
}

static void
test_cancelled_before_its_turn_does_nothing (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store = sluice_sqlite_store_new (path, &error);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  gboolean created = TRUE;

  g_assert_no_error (error);
  g_cancellable_cancel (cancellable);
  sluice_job_store_enqueue_async (store, "tenant-a", "op-1", "{}", 3, T0, cancellable, on_ready, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  job = sluice_job_store_enqueue_finish (store, result, &created, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (job);
  g_assert_false (created);
  g_clear_error (&error);
  g_clear_object (&result);  /* it holds the store */
  status = store_fixture_status (store, NULL, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 0);
  g_assert_finalize_object (store);
}

/* Callbacks run on the thread-default main context of the call, here one
 * that is not the global default: iterating only it must suffice. */
static void
test_answers_on_callers_thread_default_context (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  SluiceJobStore *store;

  g_main_context_push_thread_default (context);
  store = sluice_sqlite_store_new (path, &error);
  g_assert_no_error (error);
  sluice_job_store_enqueue_async (store, "tenant-a", "op-1", "{}", 3, T0, NULL, on_ready, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  job = sluice_job_store_enqueue_finish (store, result, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (job);
  g_clear_object (&result);
  g_assert_false (g_main_context_pending (NULL));
  while (g_main_context_iteration (context, FALSE))
    ;
  g_assert_finalize_object (store);
  g_main_context_pop_thread_default (context);
}

/* Disposed with requests queued, the store's thread does them first; a
 * call after dispose fails at once. */
static void
test_dispose_answers_queued_requests (void)
{
  g_autofree char *path = new_path ();
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store = sluice_sqlite_store_new (path, &error);
  GAsyncResult *results[8] = { NULL };
  g_autoptr(GAsyncResult) late = NULL;
  g_autoptr(SluiceStoredJob) after = NULL;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *key = g_strdup_printf ("op-%u", i);

      sluice_job_store_enqueue_async (store, "tenant-a", key, "{}", 3, T0, NULL, on_ready, &results[i]);
    }
  g_object_run_dispose (G_OBJECT (store));
  sluice_job_store_enqueue_async (store, "tenant-a", "late", "{}", 3, T0, NULL, on_ready, &late);
  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autoptr(SluiceStoredJob) job = NULL;

      while (results[i] == NULL)
        g_main_context_iteration (NULL, TRUE);
      job = sluice_job_store_enqueue_finish (store, results[i], NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (job);
      g_clear_object (&results[i]);
    }
  while (late == NULL)
    g_main_context_iteration (NULL, TRUE);
  after = sluice_job_store_enqueue_finish (store, late, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CLOSED);
  g_assert_null (after);
  g_clear_error (&error);
  g_clear_object (&late);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_finalize_object (store);

  /* Everything queued before dispose is in the file. */
  store = sluice_sqlite_store_new (path, &error);
  g_assert_no_error (error);
  {
    g_autoptr(SluiceStoreStatus) status = store_fixture_status (store, NULL, 0, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, G_N_ELEMENTS (results));
  }
  g_assert_finalize_object (store);
}

/* ---- URIs ------------------------------------------------------------------- */

static void
test_uri_describe_hides_passwords (void)
{
  static const struct { const char *uri, *shown; } cases[] = {
    { "postgresql://sluice:s3cret@db.example:5432/jobs", "postgresql://sluice:***@db.example:5432/jobs" },
    { "postgres://sluice@db/jobs", "postgres://sluice@db/jobs" },
    { "postgresql://u:p%40ss@h/db?sslmode=require", "postgresql://u:***@h/db?sslmode=require" },
    { "postgresql://u:pa/ss@h/db", "postgresql://u:***@h/db" },
    { "postgresql:///jobs?host=/tmp/pg&password=hunter2&user=u", "postgresql:///jobs?host=/tmp/pg&password=***&user=u" },
    { "host=/tmp user=u password='a b\\'c' dbname=jobs", "host=/tmp user=u password=*** dbname=jobs" },
    { "host=h PASSWORD=x sslpassword=y", "host=h PASSWORD=*** sslpassword=***" },
    { "sqlite:/var/lib/jobs.db", "sqlite:/var/lib/jobs.db" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = sluice_job_store_describe_uri (cases[i].uri);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
}

static void
test_uri_sqlite_opens_sqlite_store (void)
{
  g_autofree char *path = new_path ();
  g_autofree char *uri = g_strconcat ("sqlite://", path, NULL);
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store = sluice_job_store_new_for_uri (uri, &error);

  g_assert_no_error (error);
  g_assert_true (SLUICE_IS_SQLITE_STORE (store));
  g_assert_cmpstr (sluice_sqlite_store_get_path (SLUICE_SQLITE_STORE (store)), ==, path);
  g_assert_finalize_object (store);
}

static void
test_uri_of_another_kind_is_invalid_without_secrets (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri ("mysql://root:topsecret@db/jobs", &error);
  g_autoptr(SluiceJobStore) empty = NULL;

  g_assert_null (store);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI);
  g_assert_null (strstr (error->message, "topsecret"));
  g_assert_nonnull (strstr (error->message, "mysql://root:***@db/jobs"));
  g_clear_error (&error);

  empty = sluice_job_store_new_for_uri ("sqlite:", &error);
  g_assert_null (empty);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI);
}

static void
test_state_names (void)
{
  static const char *names[] = { "pending", "running", "retry_wait", "succeeded", "dead" };
  SluiceStoredJobState state;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_cmpstr (sluice_stored_job_state_to_string (i), ==, names[i]);
      g_assert_true (sluice_stored_job_state_from_string (names[i], &state));
      g_assert_cmpint (state, ==, i);
    }
  g_assert_null (sluice_stored_job_state_to_string (SLUICE_STORED_JOB_N_STATES));
  g_assert_false (sluice_stored_job_state_from_string ("retry-wait", &state));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  scratch = g_dir_make_tmp ("sluice-store-XXXXXX", &error);
  g_assert_no_error (error);

  store_fixture_add_tests ("/store/sqlite", make_sqlite_store);
  g_test_add_func ("/store/sqlite/file/wal-mode-and-schema-version", test_file_is_in_wal_mode);
  g_test_add_func ("/store/sqlite/file/not-a-database-is-backend-error-naming-it",
                   test_not_a_database_is_backend_error_naming_file);
  g_test_add_func ("/store/sqlite/file/unopenable-is-backend-error-naming-it",
                   test_unopenable_file_is_backend_error_naming_file);
  g_test_add_func ("/store/sqlite/file/newer-schema-version-is-refused", test_newer_schema_version_is_refused);
  g_test_add_func ("/store/sqlite/file/foreign-jobs-table-is-refused", test_foreign_jobs_table_is_refused);
  g_test_add_func ("/store/sqlite/file/reopened-keeps-its-jobs", test_reopened_file_keeps_its_jobs);
  g_test_add_func ("/store/sqlite/open/read-only-never-makes-a-store", test_read_only_never_makes_a_store);
  g_test_add_func ("/store/sqlite/open/read-only-reads-a-store-and-writes-nothing",
                   test_read_only_reads_a_store_and_writes_nothing);
  g_test_add_func ("/store/sqlite/open/foreign-database-is-made-a-store-only-with-init",
                   test_foreign_database_is_made_a_store_only_with_init);
  g_test_add_func ("/store/sqlite/thread/cancelled-before-its-turn-does-nothing",
                   test_cancelled_before_its_turn_does_nothing);
  g_test_add_func ("/store/sqlite/thread/answers-on-callers-thread-default-context",
                   test_answers_on_callers_thread_default_context);
  g_test_add_func ("/store/sqlite/thread/dispose-answers-queued-requests", test_dispose_answers_queued_requests);
  g_test_add_func ("/store/uri/describe-hides-passwords", test_uri_describe_hides_passwords);
  g_test_add_func ("/store/uri/sqlite-opens-sqlite-store", test_uri_sqlite_opens_sqlite_store);
  g_test_add_func ("/store/uri/another-kind-is-invalid-without-secrets",
                   test_uri_of_another_kind_is_invalid_without_secrets);
  g_test_add_func ("/store/job/state-names", test_state_names);

  status = g_test_run ();

  /* The run's files, the WAL and shared-memory files beside them too. */
  {
    g_autoptr(GDir) dir = g_dir_open (scratch, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *file = g_build_filename (scratch, name, NULL);

        g_unlink (file);
      }
    g_rmdir (scratch);
  }
  g_free (scratch);
  return status;
}
