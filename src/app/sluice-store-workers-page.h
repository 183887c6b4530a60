/* sluice-store-workers-page.h: the store window's Workers page, the fleet
 * at a glance: one row per worker, its heartbeat, lost ones marked, and a
 * live lane of the claims it holds, leases counting down
 * (docs/store-admin.md, "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice.h"
#include "sluice-job-store.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_WORKERS_PAGE (sluice_store_workers_page_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreWorkersPage, sluice_store_workers_page, SLUICE, STORE_WORKERS_PAGE, GtkWidget)

/* How often the lanes' leases are redrawn while the page shows claims: a
 * few times a second, never every frame. */
#define SLUICE_STORE_WORKERS_TICK_MS 250

GtkWidget *sluice_store_workers_page_new       (void);
void       sluice_store_workers_page_set_store (SluiceStoreWorkersPage *self,
                                               SluiceJobStore        *store);
void       sluice_store_workers_page_refresh   (SluiceStoreWorkersPage *self);
void       sluice_store_workers_page_set_clock (SluiceStoreWorkersPage *self,
                                               SluiceClock           *clock,
                                               gint64                 origin);
gboolean   sluice_store_workers_page_get_read_only (SluiceStoreWorkersPage *self);
void       sluice_store_workers_page_set_read_only (SluiceStoreWorkersPage *self,
                                                   gboolean               read_only);
gboolean   sluice_store_workers_page_get_projector (SluiceStoreWorkersPage *self);
void       sluice_store_workers_page_set_projector (SluiceStoreWorkersPage *self,
                                                   gboolean               projector);

G_END_DECLS
