/* sluice-store-job-item.h: one stored job as a list item (the items of
 * SluiceStoreJobsModel)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-job-store.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_JOB_ITEM (sluice_store_job_item_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreJobItem, sluice_store_job_item, SLUICE, STORE_JOB_ITEM, GObject)

SluiceStoreJobItem    *sluice_store_job_item_new     (const SluiceStoredJob *job);
const SluiceStoredJob *sluice_store_job_item_get_job (SluiceStoreJobItem    *self);

G_END_DECLS
