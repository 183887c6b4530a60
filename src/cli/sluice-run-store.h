/* sluice-run-store.h: sluice-run's job store commands: worker, enqueue,
 * store-status (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sluice.h>

#include "sluice-job-store.h"
#include "sluice-run-exit.h"

G_BEGIN_DECLS

gboolean        sluice_run_store_is_command (const char  *name);
int             sluice_run_store_main       (int          argc,
                                             char       **argv);
const char     *sluice_run_store_describe   (void);

/* Shared by the commands (sluice-run-store.c, sluice-run-store-worker.c). */
int             sluice_run_worker_main      (int          argc,
                                             char       **argv);
SluiceJobStore *sluice_run_store_open       (const char  *uri,
                                             SluiceJobStoreOpen mode,
                                             int         *status);
int             sluice_run_store_status_for (const GError *error);
gboolean        sluice_run_store_print_json (JsonNode    *node);
/* A store's async call, waited for: sluice_run_store_on_ready() stores
 * its result in the GAsyncResult* slot of its user data, and
 * sluice_run_store_wait() iterates the main context until it is there. */
void            sluice_run_store_on_ready   (GObject      *object,
                                             GAsyncResult *result,
                                             gpointer      slot);
GAsyncResult   *sluice_run_store_wait       (GAsyncResult **slot);

/* sluice-run-store-admin.c: `sluice-run store VERB` (docs/store-admin.md). */
int             sluice_run_store_admin_main (int          argc,
                                             char       **argv);
gboolean        sluice_run_store_admin_add_status (SluiceJobStore *store,
                                             const char  *tenant,
                                             JsonBuilder *builder,
                                             GError     **error);

G_END_DECLS
