/* sluice-pg-store.h: the job store on PostgreSQL (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-backend.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_PG_STORE (sluice_pg_store_get_type ())
G_DECLARE_FINAL_TYPE (SluicePgStore, sluice_pg_store, SLUICE, PG_STORE, SluiceStoreBackend)

SluiceJobStore *sluice_pg_store_new             (const char    *uri,
                                                 GError       **error);
SluiceJobStore *sluice_pg_store_open            (const char    *uri,
                                                 SluiceJobStoreOpen mode,
                                                 GError       **error);
const char     *sluice_pg_store_get_description (SluicePgStore *self);

G_END_DECLS
