/* sluice-job-private.h: how a service run drives its jobs
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-job.h"
#include "sluice-run.h"

G_BEGIN_DECLS

SluiceJob *_sluice_job_new            (SluiceRun *run,
                                       GVariant  *item,
                                       gint64     index);
void       _sluice_job_start          (SluiceJob *self);
void       _sluice_job_succeed        (SluiceJob *self,
                                       GVariant  *result);
void       _sluice_job_fail           (SluiceJob *self,
                                       GError    *error,
                                       gboolean   borrowed);
void       _sluice_job_end_cancelled  (SluiceJob *self);
gboolean   _sluice_job_is_given_up    (SluiceJob *self);

G_END_DECLS
