/* sluice-store-jobs-model.h: a store's jobs as a paginated GListModel
 * (docs/store-admin.md, "The store window": never the whole table in
 * memory)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-admin.h"
#include "sluice-store-job-item.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_JOBS_MODEL (sluice_store_jobs_model_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreJobsModel, sluice_store_jobs_model, SLUICE, STORE_JOBS_MODEL, GObject)

SluiceStoreJobsModel *sluice_store_jobs_model_new            (SluiceJobStore              *store,
                                                              const SluiceStoreAdminQuery *filter,
                                                              guint                        page_size);
gboolean              sluice_store_jobs_model_get_has_more   (SluiceStoreJobsModel        *self);
gboolean              sluice_store_jobs_model_get_loading    (SluiceStoreJobsModel        *self);
void                  sluice_store_jobs_model_load_more      (SluiceStoreJobsModel        *self);
void                  sluice_store_jobs_model_reload         (SluiceStoreJobsModel        *self);
void                  sluice_store_jobs_model_refresh        (SluiceStoreJobsModel        *self);
void                  sluice_store_jobs_model_stop_live      (SluiceStoreJobsModel        *self);
double                sluice_store_jobs_model_get_poll_interval (SluiceStoreJobsModel     *self);
void                  sluice_store_jobs_model_set_poll_interval (SluiceStoreJobsModel     *self,
                                                              double                       seconds);

G_END_DECLS
