/* sluice-pg-connection-private.h: SluicePgStore's connection to the server
 * (sluice-pg-connection.c, used on the store's own thread only) and its
 * URIs (sluice-pg-uri.c, from any thread)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <libpq-fe.h>

#include "sluice-pg-store.h"

G_BEGIN_DECLS

/* The schema version this program makes and knows (sluice_schema.version). */
#define SLUICE_PG_SCHEMA_VERSION 2

/* The columns of a job, in the order sluice_pg_job_from_row() reads them. */
#define SLUICE_PG_JOB_COLUMNS \
  "id, tenant, operation_key, payload, state, attempts, max_attempts, " \
  "available_at, lease_owner, lease_token, lease_expires_at, " \
  "last_failure_type, last_failure_message, last_failure_code, " \
  "last_failure_retryable, result, updated_at, created_at, cancel_requested"

/* The channels of LISTEN/NOTIFY: jobs available (the payload is the
 * tenant), and operators' cancels of running jobs (the payload is the
 * job's id, docs/store-admin.md). Notifications are the database's, not
 * a schema's: each store's channels are its kind's name and its schema's
 * md5 (a schema's name may be too long for a channel's), so that a store
 * hears only its own jobs and cancels, never those of a store in another
 * schema of the same database. The SQL of a NOTIFY names them by
 * SLUICE_PG_CHANNEL_SQL (); SluicePgNotifyFunc is given the kind's name. */
#define SLUICE_PG_CHANNEL "sluice_jobs"
#define SLUICE_PG_CANCEL_CHANNEL "sluice_cancel"
#define SLUICE_PG_CHANNEL_SQL(kind) "('" kind "_' || md5 (current_schema ()))"

typedef struct _SluicePgConnection SluicePgConnection;

/*
 * SluicePgNotifyFunc:
 * @channel: the channel (SLUICE_PG_CHANNEL or SLUICE_PG_CANCEL_CHANNEL)
 * @payload: what the NOTIFY said: a tenant, or a job's id
 * @user_data: the data given to sluice_pg_connection_new()
 *
 * Called on the connection's thread for each notification that arrives.
 */
typedef void (*SluicePgNotifyFunc) (const char *channel,
                                    const char *payload,
                                    gpointer    user_data);

gboolean            sluice_pg_check_uri         (const char          *uri,
                                                 GError             **error);
char               *sluice_pg_scrub             (const char          *uri,
                                                 const char          *message);

SluicePgConnection *sluice_pg_connection_new    (const char          *uri,
                                                 SluiceJobStoreOpen   mode,
                                                 SluicePgNotifyFunc   notify,
                                                 gpointer             notify_data);
void                sluice_pg_connection_free   (SluicePgConnection  *self);
gboolean            sluice_pg_connection_open   (SluicePgConnection  *self,
                                                 GError             **error);

/* The protocol: SluiceStoreBackend's virtuals for SluicePgStore. */
void                sluice_pg_jobs_class_init   (SluiceStoreBackendClass *klass);

/* For the admin queries (sluice-pg-connection-admin.c), on the store's
 * thread, after sluice_pg_connection_open(). */
PGconn             *sluice_pg_connection_get_conn  (SluicePgConnection  *self);
void                sluice_pg_connection_plan_per_values (SluicePgConnection *self);
void                sluice_pg_connection_set_error (SluicePgConnection  *self,
                                                    const char          *libpq_message,
                                                    GError             **error);
SluiceStoredJob    *sluice_pg_job_from_row         (const PGresult      *result,
                                                    int                  row);
void                sluice_pg_admin_class_init     (SluiceStoreBackendClass *klass);

/* sluice-pg-store.c: the connection, for the store's thread */
SluicePgConnection *sluice_pg_store_get_connection (SluicePgStore *self,
                                                    guint          lane);

G_END_DECLS
