/* store-fixture.h: the job store protocol's tests, for any SluiceJobStore
 * (docs/job-store.md, seed 002)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <libpq-fe.h>

#include "sluice-job-store.h"
#include "sluice-store-admin.h"

G_BEGIN_DECLS

/**
 * StoreFixtureFactory:
 * @uri: (out) (transfer full): set to a URI that opens the same store
 *   again through another connection, with sluice_job_store_new_for_uri()
 *   (the case of two stores claiming from one table uses it)
 * @error: set when the store cannot be made (the case then fails)
 *
 * Makes a fresh, empty store: no job in any tenant. SQLite: a new file in
 * a temporary folder; PostgreSQL: a fresh schema or the tables truncated.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 */
typedef SluiceJobStore *(*StoreFixtureFactory) (char   **uri,
                                                GError **error);

/**
 * store_fixture_add_tests:
 * @prefix: the test paths' prefix, such as `/store/sqlite`
 * @factory: makes a fresh store for each case
 *
 * Adds the protocol's cases (enqueue idempotency, claim order, fencing,
 * renew, complete, fail, release of a claim, release_expired, get_status,
 * invalid JSON, two connections claiming) under @prefix.
 */
void store_fixture_add_tests (const char          *prefix,
                              StoreFixtureFactory  factory);

/* Synchronous forms of the protocol for the tests: each starts the call
 * and iterates the thread-default main context until its callback ran
 * (never a sleep), then returns what the _finish returned. */
SluiceStoredJob   *store_fixture_enqueue  (SluiceJobStore         *store,
                                           const char             *tenant,
                                           const char             *operation_key,
                                           const char             *payload,
                                           guint                   max_attempts,
                                           gint64                  now,
                                           gboolean               *created,
                                           GError                **error);
SluiceJobClaim    *store_fixture_claim    (SluiceJobStore         *store,
                                           const char             *tenant,
                                           const char             *owner,
                                           gint64                  lease,
                                           gint64                  now,
                                           GError                **error);
gboolean           store_fixture_renew    (SluiceJobStore         *store,
                                           const SluiceJobClaim   *claim,
                                           gint64                  lease,
                                           gint64                  now,
                                           GError                **error);
gboolean           store_fixture_complete (SluiceJobStore         *store,
                                           const SluiceJobClaim   *claim,
                                           const char             *result_json,
                                           gint64                  now,
                                           GError                **error);
gboolean           store_fixture_fail     (SluiceJobStore         *store,
                                           const SluiceJobClaim   *claim,
                                           const SluiceJobFailure *failure,
                                           gint64                  available_at,
                                           gint64                  now,
                                           GError                **error);
gboolean           store_fixture_release_claim (SluiceJobStore    *store,
                                           const SluiceJobClaim   *claim,
                                           gint64                  now,
                                           GError                **error);
gint64             store_fixture_release  (SluiceJobStore         *store,
                                           const char             *tenant,
                                           gint64                  now,
                                           guint                   limit,
                                           GError                **error);
SluiceStoreStatus *store_fixture_status   (SluiceJobStore         *store,
                                           const char             *tenant,
                                           guint                   n_failures,
                                           GError                **error);

SluiceStoredJob   *store_fixture_enqueue_at (SluiceJobStore       *store,
                                             const char           *tenant,
                                             const char           *operation_key,
                                             const char           *payload,
                                             guint                 max_attempts,
                                             gint64                now,
                                             gint64                available_at,
                                             GError              **error);
SluiceStoreAdminReply *store_fixture_admin (SluiceJobStore        *store,
                                            SluiceStoreAdminQuery *query,
                                            GError               **error);

/* The job as the store keeps it now. The protocol has no read of one job:
 * enqueue of the same (tenant, operation key) is one, by the idempotency
 * rule (the existing job, unchanged). Fails the case if it was not there. */
SluiceStoredJob   *store_fixture_peek     (SluiceJobStore         *store,
                                           const char             *tenant,
                                           const char             *operation_key);

/* The first column of the first row of @sql's result on @conn, or NULL:
 * what a case reads of a PostgreSQL store's tables behind its back. A
 * failed query fails the case. */
char              *store_fixture_pg_value (PGconn                 *conn,
                                           const char             *sql);

/* The PostgreSQL server of the tests (SLUICE_TEST_PG_URI): whether it is
 * there. Without it a case is skipped, or fails under CI=true or
 * SLUICE_REQUIRE_PG=1 (scripts/test starts one: tests/pg-server.sh). */
gboolean           store_fixture_pg_available (void);
/* Runs @sql on the tests' server; a failure fails the case. */
void               store_fixture_pg_exec  (const char             *sql);
/* A fresh, empty place for a store, as a URI: a new SQLite file in a
 * temporary folder (@dir, @path), or a new schema on the tests' server
 * (@schema) named after @prefix. store_fixture_remove_place() takes it away. */
char              *store_fixture_new_place (gboolean               sqlite,
                                            const char            *prefix,
                                            char                 **dir,
                                            char                 **path,
                                            char                 **schema);
/* Removes a SQLite store's folder and its files, or drops a schema. */
void               store_fixture_remove_place (const char         *dir,
                                               const char         *schema);

/* A fresh, empty schema on the tests' server, made there, in @schema;
 * returns the URI whose connections use it. @prefix names it
 * (sluice_PREFIX_PID_N); @extra is more URI parameters, or NULL. */
char              *store_fixture_new_schema (const char           *prefix,
                                             const char           *extra,
                                             char                **schema);

/* ---- the store tests that run sluice-run (store-admin, -cli, -crash) ---- */

typedef enum {
  STORE_SQLITE,
  STORE_PG,
} StoreKind;

/* A place for a store of @kind (store_fixture_new_place()), and the
 * test's own connection to it when opened. */
typedef struct {
  StoreKind       kind;
  char           *dir;      /* SQLite: the file's folder */
  char           *path;     /* SQLite: the file */
  char           *schema;   /* PostgreSQL: the schema of the case */
  char           *uri;
  SluiceJobStore *store;    /* the test's own connection, or NULL */
} StorePlace;

StorePlace        *store_place_new        (StoreKind               kind,
                                           const char             *prefix);
void               store_place_free       (StorePlace             *place);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StorePlace, store_place_free)

/* A process (a `sluice-run worker`) whose standard error is read line by
 * line as it comes, so that it never blocks on a full pipe; each line goes
 * to @on_line. A test waits for its lines (readiness, a job's outcome),
 * never by a sleep. */
typedef void (*StoreProcessLineFunc) (const char *line,
                                      gpointer    data);

typedef struct {
  GSubprocess          *process;
  GDataInputStream     *err;
  GCancellable         *cancellable;
  gboolean              err_closed;  /* its standard error ended */
  gboolean              exited;
  StoreProcessLineFunc  on_line;
  gpointer              data;
} StoreProcess;

void               store_process_start    (StoreProcess           *proc,
                                           GSubprocessLauncher    *launcher,
                                           const char * const     *argv,
                                           StoreProcessLineFunc    on_line,
                                           gpointer                data);
void               store_process_clear    (StoreProcess           *proc);
/* Iterates the main context until *@flag is set (a process's state), at
 * most @seconds: then the watchdog fails the case. */
void               store_fixture_wait_until (const gboolean       *flag,
                                             guint                 seconds,
                                             const char           *what);

G_END_DECLS
