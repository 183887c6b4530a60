/* echo-handler.h: a handler's body that answers each item with itself,
 * for the pools the D-Bus tests export (monitor-child.c,
 * test-remote-pool.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

void echo_item_later (SluiceAttempt *attempt,
                      GTask         *task,
                      guint          delay_ms);

G_END_DECLS
