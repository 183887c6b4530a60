/* sluice-clock-private.h: what the engine alone asks of its clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-clock.h"

G_BEGIN_DECLS

guint64 _sluice_clock_add_timer_first (SluiceClock     *self,
                                       gint64           deadline,
                                       SluiceTimerFunc  func,
                                       gpointer         user_data);

G_END_DECLS
