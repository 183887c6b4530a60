/* sluice.h: the umbrella header of libsluice
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#define SLUICE_INSIDE
# include "sluice-array-source.h"
# include "sluice-attempt.h"
# include "sluice-clock.h"
# include "sluice-error.h"
# include "sluice-event.h"
# include "sluice-func-handler.h"
# include "sluice-handler.h"
# include "sluice-job.h"
# include "sluice-monitor.h"
# include "sluice-pool.h"
# include "sluice-retry-policy.h"
# include "sluice-run.h"
# include "sluice-snapshot.h"
# include "sluice-source.h"
# include "sluice-thread-handler.h"
# include "sluice-time.h"
# include "sluice-version.h"
# include "sluice-version-macros.h"
#undef SLUICE_INSIDE
