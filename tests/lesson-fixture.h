/* lesson-fixture.h: the lessons of data/lessons, for the tests of lessons
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-scenario.h"

G_BEGIN_DECLS

GPtrArray      *lesson_fixture_list              (void);
SluiceScenario *lesson_fixture_load              (const char     *name,
                                                  gboolean        virtual_clock);
JsonNode       *lesson_fixture_report            (SluiceScenario *scenario);
gboolean        lesson_fixture_has_decimal_point (const char     *text);

G_END_DECLS
