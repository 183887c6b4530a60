/* sluice-sqlite-store.h: the job store in a SQLite file (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-backend.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_SQLITE_STORE (sluice_sqlite_store_get_type ())
G_DECLARE_FINAL_TYPE (SluiceSqliteStore, sluice_sqlite_store, SLUICE, SQLITE_STORE, SluiceStoreBackend)

/**
 * SLUICE_SQLITE_STORE_SCHEMA_VERSION:
 *
 * The schema version this program writes into `sluice_schema`; a file with
 * a newer one is refused with %SLUICE_STORE_ERROR_SCHEMA.
 */
#define SLUICE_SQLITE_STORE_SCHEMA_VERSION 2

SluiceJobStore *sluice_sqlite_store_new      (const char        *path,
                                              GError           **error);
SluiceJobStore *sluice_sqlite_store_open     (const char        *path,
                                              SluiceJobStoreOpen mode,
                                              GError           **error);
const char     *sluice_sqlite_store_get_path (SluiceSqliteStore *self);

G_END_DECLS
