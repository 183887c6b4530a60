/* sluice-clock-private.h: what the engine alone asks of its clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-clock.h"
#include "sluice-timer-heap-private.h"

G_BEGIN_DECLS

guint64 _sluice_clock_add_timer_first (SluiceClock     *self,
                                       gint64           deadline,
                                       SluiceTimerFunc  func,
                                       gpointer         user_data);

void     _sluice_clock_add_timer_node    (SluiceClock     *self,
                                         SluiceTimer     *node,
                                         gint64           deadline,
                                         SluiceTimerFunc  func,
                                         gpointer         user_data);
gboolean _sluice_clock_remove_timer_node (SluiceClock     *self,
                                         SluiceTimer     *node);

/* Whether @node is scheduled and has not fired yet. */
static inline gboolean
_sluice_timer_is_pending (const SluiceTimer *node)
{
  return node->pending;
}

G_END_DECLS
