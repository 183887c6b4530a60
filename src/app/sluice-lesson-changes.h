/* sluice-lesson-changes.h: how a run's settings differ from its lesson's
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-scenario.h"

G_BEGIN_DECLS

char *sluice_lesson_changes_describe (SluiceScenario *lesson,
                                      SluiceScenario *ran);

G_END_DECLS
