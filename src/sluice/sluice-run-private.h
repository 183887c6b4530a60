/* sluice-run-private.h: how a pool makes and steers its run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-pool.h"
#include "sluice-run.h"

G_BEGIN_DECLS

SluiceRun *_sluice_run_new            (SluicePool   *pool,
                                       SluiceSource *source);
void       _sluice_run_stop_requested (SluiceRun    *self);

G_END_DECLS
