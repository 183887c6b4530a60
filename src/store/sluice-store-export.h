/* sluice-store-export.h: a scenario that replays a stored job's attempts
 * (docs/store-admin.md, "Open in Playground"), shared by `sluice-run store
 * export` and the store window
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-admin.h"

G_BEGIN_DECLS

/**
 * SluiceStoreBehaviourCheck:
 * @text: a behaviour, such as `fail 2 TimeoutError 0.5`
 *
 * Returns: whether @text is a behaviour a scenario takes
 */
typedef gboolean (*SluiceStoreBehaviourCheck) (const char *text);

char *sluice_store_export_scenario (const SluiceStoredJob     *job,
                                    const GPtrArray           *attempts,
                                    const char                *described,
                                    SluiceStoreBehaviourCheck  is_valid);

G_END_DECLS
