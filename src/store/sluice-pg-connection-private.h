/* sluice-pg-connection-private.h: SluicePgStore's connection to the server
 * (sluice-pg-connection.c, used on the store's own thread only) and its
 * URIs (sluice-pg-uri.c, from any thread)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-job-store.h"

G_BEGIN_DECLS

/* The schema version this program makes and knows (sluice_schema.version). */
#define SLUICE_PG_SCHEMA_VERSION 1

/* The channel of LISTEN/NOTIFY; a notification's payload is the tenant. */
#define SLUICE_PG_CHANNEL "sluice_jobs"

typedef struct _SluicePgConnection SluicePgConnection;

/*
 * SluicePgNotifyFunc:
 * @tenant: the tenant a NOTIFY named
 * @user_data: the data given to sluice_pg_connection_new()
 *
 * Called on the connection's thread for each notification that arrives.
 */
typedef void (*SluicePgNotifyFunc) (const char *tenant,
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

SluiceStoredJob    *sluice_pg_connection_enqueue (SluicePgConnection *self,
                                                 const char          *tenant,
                                                 const char          *operation_key,
                                                 const char          *payload,
                                                 guint                max_attempts,
                                                 gint64               now,
                                                 gboolean            *created,
                                                 GError             **error);
SluiceJobClaim     *sluice_pg_connection_claim_next (SluicePgConnection *self,
                                                 const char          *tenant,
                                                 const char          *owner,
                                                 gint64               lease,
                                                 gint64               now,
                                                 GError             **error);
gboolean            sluice_pg_connection_renew  (SluicePgConnection  *self,
                                                 const SluiceJobClaim *claim,
                                                 gint64               lease,
                                                 gint64               now,
                                                 GError             **error);
gboolean            sluice_pg_connection_complete (SluicePgConnection *self,
                                                 const SluiceJobClaim *claim,
                                                 const char          *result_json,
                                                 gint64               now,
                                                 GError             **error);
gboolean            sluice_pg_connection_fail   (SluicePgConnection  *self,
                                                 const SluiceJobClaim *claim,
                                                 const SluiceJobFailure *failure,
                                                 gint64               available_at,
                                                 gint64               now,
                                                 GError             **error);
gboolean            sluice_pg_connection_release (SluicePgConnection *self,
                                                 const SluiceJobClaim *claim,
                                                 gint64               now,
                                                 GError             **error);
gint64              sluice_pg_connection_release_expired (SluicePgConnection *self,
                                                 const char          *tenant,
                                                 gint64               now,
                                                 guint                limit,
                                                 GError             **error);
SluiceStoreStatus  *sluice_pg_connection_get_status (SluicePgConnection *self,
                                                 const char          *tenant,
                                                 guint                n_failures,
                                                 GError             **error);

G_END_DECLS
