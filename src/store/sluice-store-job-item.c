/* sluice-store-job-item.c: one stored job as a list item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-job-item.h"

/**
 * SluiceStoreJobItem:
 *
 * A copy of one #SluiceStoredJob as the store had it when its page was
 * read, for a #GListModel (SluiceStoreJobsModel) and its views.
 */
struct _SluiceStoreJobItem
{
  GObject          parent_instance;
  SluiceStoredJob *job;
};

G_DEFINE_FINAL_TYPE (SluiceStoreJobItem, sluice_store_job_item, G_TYPE_OBJECT)

static void
sluice_store_job_item_finalize (GObject *object)
{
  g_clear_pointer (&SLUICE_STORE_JOB_ITEM (object)->job, sluice_stored_job_free);
  G_OBJECT_CLASS (sluice_store_job_item_parent_class)->finalize (object);
}

static void
sluice_store_job_item_class_init (SluiceStoreJobItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_store_job_item_finalize;
}

static void
sluice_store_job_item_init (SluiceStoreJobItem *self)
{
}

/**
 * sluice_store_job_item_new:
 * @job: the job (copied)
 *
 * Returns: (transfer full): the item
 */
SluiceStoreJobItem *
sluice_store_job_item_new (const SluiceStoredJob *job)
{
  SluiceStoreJobItem *self = g_object_new (SLUICE_TYPE_STORE_JOB_ITEM, NULL);

  self->job = sluice_stored_job_copy (job);
  return self;
}

/**
 * sluice_store_job_item_get_job:
 *
 * Returns: (transfer none): the job
 */
const SluiceStoredJob *
sluice_store_job_item_get_job (SluiceStoreJobItem *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_ITEM (self), NULL);

  return self->job;
}
