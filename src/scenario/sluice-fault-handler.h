/* sluice-fault-handler.h: a handler that injects the faults a scenario describes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-behaviour.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_FAULT_HANDLER (sluice_fault_handler_get_type ())
G_DECLARE_FINAL_TYPE (SluiceFaultHandler, sluice_fault_handler, SLUICE, FAULT_HANDLER, GObject)

SluiceFaultHandler    *sluice_fault_handler_new                (SluiceClock           *clock,
                                                                const SluiceBehaviour *default_behaviour);
SluiceClock           *sluice_fault_handler_get_clock          (SluiceFaultHandler    *self);
void                   sluice_fault_handler_set_item_behaviour (SluiceFaultHandler    *self,
                                                                gint64                 item_index,
                                                                const SluiceBehaviour *behaviour);
void                   sluice_fault_handler_set_mix            (SluiceFaultHandler    *self,
                                                                GPtrArray             *entries,
                                                                guint32                seed);
const SluiceBehaviour *sluice_fault_handler_get_behaviour      (SluiceFaultHandler    *self,
                                                                gint64                 item_index);
gboolean               sluice_fault_handler_get_ctx_ok         (SluiceFaultHandler    *self);
guint                  sluice_fault_handler_get_n_calls        (SluiceFaultHandler    *self);
guint                  sluice_fault_handler_get_n_active       (SluiceFaultHandler    *self);
GVariant              *sluice_fault_handler_compute_result     (GVariant              *item);

G_END_DECLS
