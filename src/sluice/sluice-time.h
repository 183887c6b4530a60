/* sluice-time.h: the one conversion from seconds to the clock's microseconds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <glib.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

SLUICE_AVAILABLE_IN_1_0
gint64 sluice_time_from_seconds (double seconds);

G_END_DECLS
