/* run-fixture.h: a preset run on the virtual clock into a recorder, for the
 * tests of what is drawn and said from a recorded run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-recorder.h"
#include "sluice-report.h"
#include "sluice-scenario.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

SluiceRecorder *run_fixture_record_preset (const char          *name,
                                           const char * const  *sets,
                                           SluiceScenario     **scenario_out);
SluiceTimeline *run_fixture_timeline_of   (const char          *name,
                                           SluiceScenario     **scenario_out);
char           *run_fixture_random_scenario (GRand              *rand);
SluiceReport   *run_fixture_run_file        (const char         *path);

G_END_DECLS
