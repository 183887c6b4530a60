/* sluice-fault-source.h: a source of scenario items, with optional faults
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

/**
 * SluiceSourceFault:
 * @SLUICE_SOURCE_FAULT_NONE: the source yields its items, then ends
 * @SLUICE_SOURCE_FAULT_RAISE: after N items it fails with
 *   `SourceError('source failed after N items')`
 * @SLUICE_SOURCE_FAULT_CANCEL: after N items it ends cancelled by itself
 * @SLUICE_SOURCE_FAULT_HANG: after N items it never yields again, until the
 *   read is cancelled
 *
 * A fault of a #SluiceFaultSource.
 */
typedef enum {
  SLUICE_SOURCE_FAULT_NONE,
  SLUICE_SOURCE_FAULT_RAISE,
  SLUICE_SOURCE_FAULT_CANCEL,
  SLUICE_SOURCE_FAULT_HANG,
} SluiceSourceFault;

#define SLUICE_TYPE_FAULT_SOURCE (sluice_fault_source_get_type ())
G_DECLARE_FINAL_TYPE (SluiceFaultSource, sluice_fault_source, SLUICE, FAULT_SOURCE, GObject)

SluiceFaultSource *sluice_fault_source_new          (SluiceClock       *clock,
                                                     GPtrArray         *items,
                                                     double             interval);
SluiceFaultSource *sluice_fault_source_new_range    (SluiceClock       *clock,
                                                     guint              count,
                                                     double             interval);
void               sluice_fault_source_set_fault    (SluiceFaultSource *self,
                                                     SluiceSourceFault  fault,
                                                     guint              after);
guint              sluice_fault_source_get_position (SluiceFaultSource *self);
guint              sluice_fault_source_get_n_items  (SluiceFaultSource *self);

G_END_DECLS
