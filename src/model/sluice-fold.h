/* sluice-fold.h: the state of a recorded run at a moment, folded from its
 * recorder one event at a time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-recorder.h"

G_BEGIN_DECLS

/**
 * SluiceFoldCount:
 * @SLUICE_FOLD_TIMEOUTS: attempts that timed out
 * @SLUICE_FOLD_RETRIES_SKIPPED: retries the retry policy refused
 * @SLUICE_FOLD_SHED: items a worker failed past their deadline, unhandled
 * @SLUICE_FOLD_CANCELLED: items that ended cancelled
 * @SLUICE_FOLD_DROPPED: items pulled but never handled
 * @SLUICE_FOLD_RESULTS: results handed to the caller
 * @SLUICE_FOLD_N_COUNTS: how many there are
 *
 * What a #SluiceFold counts beside the live counts every event carries.
 */
typedef enum {
  SLUICE_FOLD_TIMEOUTS,
  SLUICE_FOLD_RETRIES_SKIPPED,
  SLUICE_FOLD_SHED,
  SLUICE_FOLD_CANCELLED,
  SLUICE_FOLD_DROPPED,
  SLUICE_FOLD_RESULTS,
  SLUICE_FOLD_N_COUNTS
} SluiceFoldCount;

#define SLUICE_TYPE_FOLD (sluice_fold_get_type ())
G_DECLARE_FINAL_TYPE (SluiceFold, sluice_fold, SLUICE, FOLD, GObject)

SluiceFold        *sluice_fold_new               (SluiceRecorder  *recorder);
SluiceRecorder    *sluice_fold_get_recorder      (SluiceFold      *self);
void               sluice_fold_seek              (SluiceFold      *self,
                                                  guint64          position);
void               sluice_fold_seek_time         (SluiceFold      *self,
                                                  gint64           time);
void               sluice_fold_seek_end          (SluiceFold      *self);
guint64            sluice_fold_get_position      (SluiceFold      *self);
guint64            sluice_fold_get_first_position (SluiceFold     *self);
guint64            sluice_fold_get_end_position  (SluiceFold      *self);
guint64            sluice_fold_find_position     (SluiceFold      *self,
                                                  gint64           time);
const SluiceEvent *sluice_fold_get_event         (SluiceFold      *self,
                                                  guint64          position);
const SluiceEvent *sluice_fold_get_last          (SluiceFold      *self);
gint64             sluice_fold_get_start_time    (SluiceFold      *self);
guint              sluice_fold_get_count         (SluiceFold      *self,
                                                  SluiceFoldCount  count);

G_END_DECLS
