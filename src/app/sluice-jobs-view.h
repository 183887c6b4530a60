/* sluice-jobs-view.h: the jobs of a submit-mode run, live, and the hand
 * controls that submit one more or give up on one
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <sluice.h>

#include "sluice-behaviour.h"
#include "sluice-job-table.h"

G_BEGIN_DECLS

typedef enum {
  SLUICE_JOBS_COLUMN_INDEX,
  SLUICE_JOBS_COLUMN_ITEM,
  SLUICE_JOBS_COLUMN_STATE,
  SLUICE_JOBS_COLUMN_ATTEMPTS,
  SLUICE_JOBS_COLUMN_OUTCOME,
  SLUICE_JOBS_N_COLUMNS
} SluiceJobsColumn;

#define SLUICE_TYPE_JOBS_VIEW (sluice_jobs_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceJobsView, sluice_jobs_view, SLUICE, JOBS_VIEW, GtkWidget)

GtkWidget      *sluice_jobs_view_new               (void);
void            sluice_jobs_view_set_table         (SluiceJobsView    *self,
                                                    SluiceJobTable    *table);
void            sluice_jobs_view_update            (SluiceJobsView    *self);
guint           sluice_jobs_view_get_n_jobs        (SluiceJobsView    *self);
guint           sluice_jobs_view_count_state       (SluiceJobsView    *self,
                                                    SluiceJobState     state);
SluiceJobState  sluice_jobs_view_get_state         (SluiceJobsView    *self,
                                                    gint64             job_index);
char           *sluice_jobs_view_dup_text          (SluiceJobsView    *self,
                                                    gint64             job_index,
                                                    SluiceJobsColumn   column);
gint64          sluice_jobs_view_get_selected_job  (SluiceJobsView    *self);
void            sluice_jobs_view_select_job        (SluiceJobsView    *self,
                                                    gint64             job_index);
void            sluice_jobs_view_set_submission    (SluiceJobsView    *self,
                                                    const char        *item,
                                                    const char        *behaviour);
gboolean        sluice_jobs_view_get_submission    (SluiceJobsView    *self,
                                                    GVariant         **item,
                                                    SluiceBehaviour  **behaviour);
void            sluice_jobs_view_show_submit_error (SluiceJobsView    *self,
                                                    const char        *message);
GtkWidget      *sluice_jobs_view_get_item_entry    (SluiceJobsView    *self);
GtkWidget      *sluice_jobs_view_get_behaviour_entry (SluiceJobsView  *self);

G_END_DECLS
