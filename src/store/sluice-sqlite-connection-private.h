/* sluice-sqlite-connection-private.h: SluiceSqliteStore's connection to its
 * file, used on the store's own thread only
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sqlite3.h>

#include "sluice-job-store.h"

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
  "result, updated_at"

/* sluice-sqlite-connection-jobs.c: the protocol, one transaction each. A
 * fenced call that finds the claim's token gone fails with
 * SLUICE_STORE_ERROR_LEASE_LOST and changes nothing. */
SluiceStoredJob        *sluice_sqlite_connection_enqueue   (SluiceSqliteConnection  *self,
                                                            const char              *tenant,
                                                            const char              *operation_key,
                                                            const char              *payload,
                                                            guint                    max_attempts,
                                                            gint64                   now,
                                                            gboolean                *created,
                                                            GError                 **error);
/* %NULL without @error set: no job to claim. */
SluiceJobClaim         *sluice_sqlite_connection_claim_next (SluiceSqliteConnection *self,
                                                            const char              *tenant,
                                                            const char              *owner,
                                                            gint64                   lease,
                                                            gint64                   now,
                                                            GError                 **error);
gboolean                sluice_sqlite_connection_renew     (SluiceSqliteConnection  *self,
                                                            const char              *job_id,
                                                            const char              *token,
                                                            gint64                   lease,
                                                            gint64                   now,
                                                            GError                 **error);
gboolean                sluice_sqlite_connection_complete  (SluiceSqliteConnection  *self,
                                                            const char              *job_id,
                                                            const char              *token,
                                                            const char              *result_json,
                                                            gint64                   now,
                                                            GError                 **error);
gboolean                sluice_sqlite_connection_fail      (SluiceSqliteConnection  *self,
                                                            const char              *job_id,
                                                            const char              *token,
                                                            const SluiceJobFailure  *failure,
                                                            gint64                   available_at,
                                                            gint64                   now,
                                                            GError                 **error);
/* Fenced: pending again, the claim's attempt not counted. */
gboolean                sluice_sqlite_connection_release   (SluiceSqliteConnection  *self,
                                                            const char              *job_id,
                                                            const char              *token,
                                                            gint64                   now,
                                                            GError                 **error);
/* @woken: (out): the tenants of the jobs put back to pending, each once */
gint64                  sluice_sqlite_connection_release_expired (SluiceSqliteConnection *self,
                                                            const char              *tenant,
                                                            gint64                   now,
                                                            guint                    limit,
                                                            GPtrArray              **woken,
                                                            GError                 **error);
SluiceStoreStatus      *sluice_sqlite_connection_get_status (SluiceSqliteConnection *self,
                                                            const char              *tenant,
                                                            guint                    n_failures,
                                                            GError                 **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceSqliteConnection, sluice_sqlite_connection_free)

G_END_DECLS
