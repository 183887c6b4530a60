/* sluice-store-jobs-page.h: the store window's Jobs page: a store's jobs,
 * filtered and searched, retried, cancelled and discarded
 * (docs/store-admin.md, "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-store-job-detail.h"

G_BEGIN_DECLS

/**
 * SluiceStoreJobsColumn:
 * @SLUICE_STORE_JOBS_COLUMN_STATE: the job's state
 * @SLUICE_STORE_JOBS_COLUMN_TENANT: its tenant
 * @SLUICE_STORE_JOBS_COLUMN_KEY: its operation key
 * @SLUICE_STORE_JOBS_COLUMN_ATTEMPTS: attempts so far, of its most
 * @SLUICE_STORE_JOBS_COLUMN_AGE: how long ago it was enqueued
 * @SLUICE_STORE_JOBS_COLUMN_ID: its id, the first eight characters (wide only)
 * @SLUICE_STORE_JOBS_COLUMN_LEASE: the worker holding it (wide only)
 * @SLUICE_STORE_JOBS_COLUMN_FAILURE: its last failure (wide only)
 * @SLUICE_STORE_JOBS_N_COLUMNS: the number of columns
 *
 * The Jobs list's columns: the first five always fit 1024×768, the others
 * show when the page is wide enough.
 */
typedef enum {
  SLUICE_STORE_JOBS_COLUMN_STATE,
  SLUICE_STORE_JOBS_COLUMN_TENANT,
  SLUICE_STORE_JOBS_COLUMN_KEY,
  SLUICE_STORE_JOBS_COLUMN_ATTEMPTS,
  SLUICE_STORE_JOBS_COLUMN_AGE,
  SLUICE_STORE_JOBS_COLUMN_ID,
  SLUICE_STORE_JOBS_COLUMN_LEASE,
  SLUICE_STORE_JOBS_COLUMN_FAILURE,
  SLUICE_STORE_JOBS_N_COLUMNS
} SluiceStoreJobsColumn;

#define SLUICE_STORE_JOBS_N_ALWAYS (SLUICE_STORE_JOBS_COLUMN_AGE + 1)

#define SLUICE_TYPE_STORE_JOBS_PAGE (sluice_store_jobs_page_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreJobsPage, sluice_store_jobs_page, SLUICE, STORE_JOBS_PAGE, GtkWidget)

SluiceStoreJobsPage  *sluice_store_jobs_page_new            (void);
void                  sluice_store_jobs_page_set_store      (SluiceStoreJobsPage  *self,
                                                             SluiceJobStore       *store,
                                                             const char           *description);
void                  sluice_store_jobs_page_set_tenant     (SluiceStoreJobsPage  *self,
                                                             const char           *tenant);
gboolean              sluice_store_jobs_page_get_read_only  (SluiceStoreJobsPage  *self);
void                  sluice_store_jobs_page_set_read_only  (SluiceStoreJobsPage  *self,
                                                             gboolean              read_only);
gboolean              sluice_store_jobs_page_get_busy       (SluiceStoreJobsPage  *self);
GtkSelectionModel    *sluice_store_jobs_page_get_selection  (SluiceStoreJobsPage  *self);
char                 *sluice_store_jobs_page_dup_cell       (SluiceStoreJobsPage  *self,
                                                             guint                 row,
                                                             SluiceStoreJobsColumn column);
gboolean              sluice_store_jobs_page_get_column_visible (SluiceStoreJobsPage  *self,
                                                             SluiceStoreJobsColumn column);
const char           *sluice_store_jobs_page_get_message    (SluiceStoreJobsPage  *self);
SluiceStoreJobDetail *sluice_store_jobs_page_get_detail     (SluiceStoreJobsPage  *self);
void                  sluice_store_jobs_page_show_job       (SluiceStoreJobsPage  *self,
                                                             guint                 row);
void                  sluice_store_jobs_page_reload         (SluiceStoreJobsPage  *self);
void                  sluice_store_jobs_page_refresh        (SluiceStoreJobsPage  *self);

G_END_DECLS
