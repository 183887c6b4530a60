/* sluice-store-window.h: one job store, live: its jobs by state and its
 * last failures (docs/job-store.md, the app's Store view)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-job-store.h"

G_BEGIN_DECLS

/**
 * SluiceStoreColumn:
 * @SLUICE_STORE_COLUMN_JOB: the job's id, its first eight characters
 * @SLUICE_STORE_COLUMN_TENANT: its tenant (shown when every tenant is)
 * @SLUICE_STORE_COLUMN_OPERATION: its operation key
 * @SLUICE_STORE_COLUMN_STATE: its state now
 * @SLUICE_STORE_COLUMN_ATTEMPTS: attempts so far, of its most
 * @SLUICE_STORE_COLUMN_TYPE: the failure's type, such as `TimeoutError`
 * @SLUICE_STORE_COLUMN_CODE: the failure's code, such as `ATTEMPT_TIMEOUT`
 * @SLUICE_STORE_COLUMN_MESSAGE: the failure's message
 * @SLUICE_STORE_COLUMN_WHEN: when the job last changed (its updated_at)
 * @SLUICE_STORE_N_COLUMNS: the number of columns
 *
 * The columns of the last failures.
 */
typedef enum {
  SLUICE_STORE_COLUMN_JOB,
  SLUICE_STORE_COLUMN_TENANT,
  SLUICE_STORE_COLUMN_OPERATION,
  SLUICE_STORE_COLUMN_STATE,
  SLUICE_STORE_COLUMN_ATTEMPTS,
  SLUICE_STORE_COLUMN_TYPE,
  SLUICE_STORE_COLUMN_CODE,
  SLUICE_STORE_COLUMN_MESSAGE,
  SLUICE_STORE_COLUMN_WHEN,
  SLUICE_STORE_N_COLUMNS
} SluiceStoreColumn;

#define SLUICE_TYPE_STORE_WINDOW (sluice_store_window_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreWindow, sluice_store_window, SLUICE, STORE_WINDOW, GtkWindow)

SluiceStoreWindow *sluice_store_window_new            (GtkWindow           *parent,
                                                       GtkApplication      *application,
                                                       const char          *uri);
SluiceStoreWindow *sluice_store_window_new_full       (GtkWindow           *parent,
                                                       GtkApplication      *application,
                                                       const char          *uri,
                                                       gboolean             read_only);
gboolean           sluice_store_window_get_read_only  (SluiceStoreWindow   *self);
GtkStack          *sluice_store_window_get_pages      (SluiceStoreWindow   *self);
GtkWidget         *sluice_store_window_get_jobs_page  (SluiceStoreWindow   *self);
guint              sluice_store_window_get_n_alerts   (SluiceStoreWindow   *self);
gboolean           sluice_store_window_is_page_name   (const char          *name);
const char        *sluice_store_window_get_description (SluiceStoreWindow  *self);
const char        *sluice_store_window_get_tenant     (SluiceStoreWindow   *self);
void               sluice_store_window_set_tenant     (SluiceStoreWindow   *self,
                                                       const char          *tenant);
guint              sluice_store_window_get_n_updates  (SluiceStoreWindow   *self);
gboolean           sluice_store_window_get_has_status (SluiceStoreWindow   *self);
const char        *sluice_store_window_get_count_text (SluiceStoreWindow   *self,
                                                       SluiceStoredJobState state);
const char        *sluice_store_window_get_error      (SluiceStoreWindow   *self);
guint              sluice_store_window_get_n_failures (SluiceStoreWindow   *self);
char              *sluice_store_window_dup_cell       (SluiceStoreWindow   *self,
                                                       guint                row,
                                                       SluiceStoreColumn    column);
gboolean           sluice_store_window_get_projector  (SluiceStoreWindow   *self);
void               sluice_store_window_set_projector  (SluiceStoreWindow   *self,
                                                       gboolean             projector);
void               sluice_store_window_screenshot_async (SluiceStoreWindow *self,
                                                       const char          *path,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean           sluice_store_window_screenshot_finish (SluiceStoreWindow *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

G_END_DECLS
