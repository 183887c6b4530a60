/* sluice-job.h: one job of a service run, and its future (seed 001)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <gio/gio.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceJobState:
 * @SLUICE_JOB_QUEUED: admitted, waiting in the input queue
 * @SLUICE_JOB_RUNNING: a worker holds it: an attempt, its stop rounds or a
 *   backoff before a retry
 * @SLUICE_JOB_SUCCEEDED: it has its result
 * @SLUICE_JOB_FAILED: it failed for good; sluice_job_get_error() says why
 * @SLUICE_JOB_CANCELLED: its caller gave up on it, or the pool stopped
 *   before it could finish
 *
 * Where a #SluiceJob is. Every job ends in exactly one of the last three.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_JOB_QUEUED,
  SLUICE_JOB_RUNNING,
  SLUICE_JOB_SUCCEEDED,
  SLUICE_JOB_FAILED,
  SLUICE_JOB_CANCELLED,
} SluiceJobState;

SLUICE_AVAILABLE_IN_1_0
GType sluice_job_state_get_type (void) G_GNUC_CONST;
#define SLUICE_TYPE_JOB_STATE (sluice_job_state_get_type ())

#define SLUICE_TYPE_JOB (sluice_job_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceJob, sluice_job, SLUICE, JOB, GObject)

SLUICE_AVAILABLE_IN_1_0
SluiceJobState  sluice_job_get_state     (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
gboolean        sluice_job_is_finished   (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
GVariant       *sluice_job_get_item      (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
gint64          sluice_job_get_index     (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
GVariant       *sluice_job_get_result    (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
const GError   *sluice_job_get_error     (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
void            sluice_job_cancel        (SluiceJob            *self);
SLUICE_AVAILABLE_IN_1_0
void            sluice_job_wait_async    (SluiceJob            *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
GVariant       *sluice_job_wait_finish   (SluiceJob            *self,
                                          GAsyncResult         *result,
                                          GError              **error);

G_END_DECLS
