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
#include "sluice-store-page.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_WORKERS_PAGE (sluice_store_workers_page_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreWorkersPage, sluice_store_workers_page, SLUICE, STORE_WORKERS_PAGE, SluiceStorePage)

/* How often the lanes' leases are redrawn while the page shows claims: a
 * few times a second, never every frame. */
#define SLUICE_STORE_WORKERS_TICK_MS 250

GtkWidget *sluice_store_workers_page_new (void);

G_END_DECLS
