/* sluice-lessons.h: where the lessons are, in their order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "sluice-scenario.h"

G_BEGIN_DECLS

const char *sluice_lessons_get_dir (void);
GPtrArray  *sluice_lessons_list    (void);
char       *sluice_lessons_find    (const char *name);
char       *sluice_lessons_get_name (SluiceScenario *lesson);

G_END_DECLS
