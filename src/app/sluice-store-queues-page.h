/* sluice-store-queues-page.h: the store window's Queues page: tenants
 * with their counts per state, jobs/s done and failed, pause/resume and a
 * concurrency limit (docs/store-admin.md, "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice.h"
#include "sluice-job-store.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_QUEUES_PAGE (sluice_store_queues_page_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreQueuesPage, sluice_store_queues_page, SLUICE, STORE_QUEUES_PAGE, GtkWidget)

/* The span the rates are measured over: the last five minutes. */
#define SLUICE_STORE_QUEUES_RATE_SPAN (5 * 60 * G_USEC_PER_SEC)

GtkWidget *sluice_store_queues_page_new       (void);
void       sluice_store_queues_page_set_store (SluiceStoreQueuesPage *self,
                                               SluiceJobStore        *store);
void       sluice_store_queues_page_refresh   (SluiceStoreQueuesPage *self);
void       sluice_store_queues_page_set_clock (SluiceStoreQueuesPage *self,
                                               SluiceClock           *clock,
                                               gint64                 origin);
gboolean   sluice_store_queues_page_get_read_only (SluiceStoreQueuesPage *self);
void       sluice_store_queues_page_set_read_only (SluiceStoreQueuesPage *self,
                                                   gboolean               read_only);
gboolean   sluice_store_queues_page_get_projector (SluiceStoreQueuesPage *self);
void       sluice_store_queues_page_set_projector (SluiceStoreQueuesPage *self,
                                                   gboolean               projector);

G_END_DECLS
