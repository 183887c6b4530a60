/* sluice-store-queues-page.h: the store window's Queues page: tenants
 * with their counts per state, jobs/s done and failed, pause/resume and a
 * concurrency limit (docs/store-admin.md, "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice.h"
#include "sluice-store-page.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_QUEUES_PAGE (sluice_store_queues_page_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreQueuesPage, sluice_store_queues_page, SLUICE, STORE_QUEUES_PAGE, SluiceStorePage)

/* The span the rates are measured over: the last five minutes. */
#define SLUICE_STORE_QUEUES_RATE_SPAN (5 * 60 * G_USEC_PER_SEC)

GtkWidget *sluice_store_queues_page_new (void);

G_END_DECLS
