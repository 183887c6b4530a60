/* sluice-store-job-detail.h: one stored job: its payload, state, live
 * lease, attempt timeline and "Open in Playground" (docs/store-admin.md,
 * "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-store-admin.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_JOB_DETAIL (sluice_store_job_detail_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreJobDetail, sluice_store_job_detail, SLUICE, STORE_JOB_DETAIL, GtkWidget)

SluiceStoreJobDetail *sluice_store_job_detail_new          (void);
void                  sluice_store_job_detail_show         (SluiceStoreJobDetail *self,
                                                            SluiceJobStore       *store,
                                                            const char           *description,
                                                            const char           *id);
gboolean              sluice_store_job_detail_get_loading  (SluiceStoreJobDetail *self);
const char           *sluice_store_job_detail_get_job_id   (SluiceStoreJobDetail *self);
const char           *sluice_store_job_detail_get_payload_text (SluiceStoreJobDetail *self);
const char           *sluice_store_job_detail_get_lease_text   (SluiceStoreJobDetail *self);
guint                 sluice_store_job_detail_get_n_attempts   (SluiceStoreJobDetail *self);
GtkWidget            *sluice_store_job_detail_get_attempt_bar  (SluiceStoreJobDetail *self,
                                                                guint                 index);
char                 *sluice_store_job_detail_dup_scenario     (SluiceStoreJobDetail *self);

G_END_DECLS
