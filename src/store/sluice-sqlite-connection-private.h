/* sluice-sqlite-connection-private.h: SluiceSqliteStore's connection to its
 * file, used on the store's own thread only
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sqlite3.h>

#include "sluice-sqlite-store.h"

G_BEGIN_DECLS

typedef struct
{
  char       *path;
  sqlite3    *db;
  GHashTable *statements;  /* SQL text → its prepared sqlite3_stmt */
} SluiceSqliteConnection;

/* sluice-sqlite-connection.c: opening, settings, schema, the SQL helpers */
SluiceSqliteConnection *sluice_sqlite_connection_open      (const char              *path,
                                                            SluiceJobStoreOpen       mode,
                                                            GError                 **error);
void                    sluice_sqlite_connection_free      (SluiceSqliteConnection  *self);
void                    sluice_sqlite_connection_set_error (SluiceSqliteConnection  *self,
                                                            GError                 **error);
sqlite3_stmt           *sluice_sqlite_connection_prepare   (SluiceSqliteConnection  *self,
                                                            const char              *sql,
                                                            GError                 **error);
gboolean                sluice_sqlite_connection_exec      (SluiceSqliteConnection  *self,
                                                            const char              *sql,
                                                            GError                 **error);
gboolean                sluice_sqlite_connection_step      (SluiceSqliteConnection  *self,
                                                            sqlite3_stmt            *stmt,
                                                            GError                 **error);
gboolean                sluice_sqlite_connection_end       (SluiceSqliteConnection  *self,
                                                            gboolean                 ok,
                                                            GError                 **error);
void                    sluice_sqlite_bind_text            (sqlite3_stmt            *stmt,
                                                            int                      index,
                                                            const char              *text);
char                   *sluice_sqlite_column_text          (sqlite3_stmt            *stmt,
                                                            int                      column);
SluiceStoredJob        *sluice_sqlite_job_from_row         (sqlite3_stmt            *stmt);

/* The columns sluice_sqlite_job_from_row() reads, in this order. */
#define SLUICE_SQLITE_JOB_COLUMNS \
  "id, tenant, operation_key, payload, state, attempts, max_attempts, available_at, " \
  "lease_owner, lease_token, lease_expires_at, " \
  "last_failure_type, last_failure_message, last_failure_code, last_failure_retryable, " \
  "result, updated_at, created_at, cancel_requested"

/* sluice-sqlite-connection-jobs.c: the protocol, SluiceStoreBackend's
 * virtuals for SluiceSqliteStore, one transaction per batch. */
void                    sluice_sqlite_jobs_class_init      (SluiceStoreBackendClass *klass);

/* sluice-sqlite-connection-admin.c: the admin queries (docs/store-admin.md)
 * and the attempts' history the protocol keeps. */
void                    sluice_sqlite_admin_class_init     (SluiceStoreBackendClass *klass);
gboolean                sluice_sqlite_attempt_begin        (SluiceSqliteConnection  *self,
                                                            const SluiceStoredJob   *job,
                                                            gint64                   now,
                                                            GError                 **error);
gboolean                sluice_sqlite_attempt_end          (SluiceSqliteConnection  *self,
                                                            const char              *job_id,
                                                            const char              *outcome,
                                                            const SluiceJobFailure  *failure,
                                                            gint64                   now,
                                                            GError                 **error);
gboolean                sluice_sqlite_attempt_forget       (SluiceSqliteConnection  *self,
                                                            const char              *job_id,
                                                            GError                 **error);

/* sluice-sqlite-store.c */
SluiceSqliteConnection *sluice_sqlite_store_get_connection (SluiceSqliteStore       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceSqliteConnection, sluice_sqlite_connection_free)

G_END_DECLS
