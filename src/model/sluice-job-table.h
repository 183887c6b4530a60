/* sluice-job-table.h: the jobs of a service run, folded from its events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

/**
 * SluiceJobRow:
 * @index: the job's index, in submission order from 0
 * @item: the job's item (GVariant text), owned by the table
 * @state: where the job is
 * @attempts: how many handler calls it had
 * @outcome: (nullable): its result, its error, or why it was cancelled
 * @changed: the table's serial when the row last changed (see
 *   sluice_job_table_get_serial())
 *
 * One admitted job, as the jobs table lists it.
 */
typedef struct {
  gint64          index;
  char           *item;
  SluiceJobState  state;
  guint           attempts;
  char           *outcome;
  guint64         changed;
} SluiceJobRow;

#define SLUICE_TYPE_JOB_TABLE (sluice_job_table_get_type ())
G_DECLARE_FINAL_TYPE (SluiceJobTable, sluice_job_table, SLUICE, JOB_TABLE, GObject)

SluiceJobTable     *sluice_job_table_new         (void);
void                sluice_job_table_add_event   (SluiceJobTable    *self,
                                                  const SluiceEvent *event);
guint64             sluice_job_table_commit      (SluiceJobTable    *self);
guint64             sluice_job_table_get_serial  (SluiceJobTable    *self);
guint               sluice_job_table_get_n_rows  (SluiceJobTable    *self);
const SluiceJobRow *sluice_job_table_get_row     (SluiceJobTable    *self,
                                                  guint              position);
gint                sluice_job_table_find        (SluiceJobTable    *self,
                                                  gint64             job_index);
guint               sluice_job_table_count_state (SluiceJobTable    *self,
                                                  SluiceJobState     state);

G_END_DECLS
