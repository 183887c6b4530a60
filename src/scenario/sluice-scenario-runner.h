/* sluice-scenario-runner.h: runs a scenario the way its [run] group says
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-recorder.h"
#include "sluice-report.h"
#include "sluice-scenario.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_SCENARIO_RUNNER (sluice_scenario_runner_get_type ())
G_DECLARE_FINAL_TYPE (SluiceScenarioRunner, sluice_scenario_runner, SLUICE, SCENARIO_RUNNER, GObject)

SluiceScenarioRunner *sluice_scenario_runner_new            (SluiceScenario        *scenario);
SluiceScenario       *sluice_scenario_runner_get_scenario   (SluiceScenarioRunner  *self);
void                  sluice_scenario_runner_set_recorder   (SluiceScenarioRunner  *self,
                                                             SluiceRecorder        *recorder);
void                  sluice_scenario_runner_set_clock      (SluiceScenarioRunner  *self,
                                                             SluiceClock           *clock);
void                  sluice_scenario_runner_set_event_func (SluiceScenarioRunner  *self,
                                                             SluiceEventFunc        func,
                                                             gpointer               user_data,
                                                             GDestroyNotify         destroy);
void                  sluice_scenario_runner_set_keep_details (SluiceScenarioRunner *self,
                                                             gboolean               keep);
SluicePool           *sluice_scenario_runner_get_pool       (SluiceScenarioRunner  *self);
SluiceRun            *sluice_scenario_runner_get_run        (SluiceScenarioRunner  *self);
SluiceFaultHandler   *sluice_scenario_runner_get_handler    (SluiceScenarioRunner  *self);
SluiceClock          *sluice_scenario_runner_get_clock      (SluiceScenarioRunner  *self);
SluiceReport         *sluice_scenario_runner_get_report     (SluiceScenarioRunner  *self);
void                  sluice_scenario_runner_run_async      (SluiceScenarioRunner  *self,
                                                             GCancellable          *cancellable,
                                                             GAsyncReadyCallback    callback,
                                                             gpointer               user_data);
SluiceReport         *sluice_scenario_runner_run_finish     (SluiceScenarioRunner  *self,
                                                             GAsyncResult          *result,
                                                             GError               **error);
SluiceReport         *sluice_scenario_runner_run            (SluiceScenarioRunner  *self,
                                                             GError               **error);
void                  sluice_scenario_runner_request_stop   (SluiceScenarioRunner  *self);
void                  sluice_scenario_runner_cancel         (SluiceScenarioRunner  *self);

/* Submit mode ([run] mode=submit): the app's hand controls. */
gboolean              sluice_scenario_runner_submit         (SluiceScenarioRunner  *self,
                                                             GVariant              *item,
                                                             const SluiceBehaviour *behaviour,
                                                             GError               **error);
gboolean              sluice_scenario_runner_give_up        (SluiceScenarioRunner  *self,
                                                             gint64                 job_index);
void                  sluice_scenario_runner_close          (SluiceScenarioRunner  *self);
SluiceJob            *sluice_scenario_runner_get_job        (SluiceScenarioRunner  *self,
                                                             gint64                 job_index);

G_END_DECLS
