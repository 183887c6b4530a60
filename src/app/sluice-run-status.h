/* sluice-run-status.h: what the banner says about a run: how it goes, and
 * how it ended
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-report.h"
#include "sluice-run-model.h"
#include "sluice-scenario-runner.h"

G_BEGIN_DECLS

/**
 * SluiceRunStatus:
 * @SLUICE_RUN_STATUS_INFO: what is going on
 * @SLUICE_RUN_STATUS_OK: the run ended well
 * @SLUICE_RUN_STATUS_ERROR: the run ended with an error, or could not start
 *
 * The kind of a #SluiceRunController::status line.
 */
typedef enum {
  SLUICE_RUN_STATUS_INFO,
  SLUICE_RUN_STATUS_OK,
  SLUICE_RUN_STATUS_ERROR,
} SluiceRunStatus;

char *sluice_run_status_describe_countdown (SluiceRunModel       *model,
                                            gint64                now);
char *sluice_run_status_describe_end       (SluiceRunModel       *model,
                                            SluiceScenarioRunner *runner,
                                            SluiceClock          *clock,
                                            SluiceReport         *report,
                                            const GError         *error,
                                            SluiceRunStatus      *kind);
char *sluice_run_status_describe_recorded  (SluiceRunModel       *model);

G_END_DECLS
