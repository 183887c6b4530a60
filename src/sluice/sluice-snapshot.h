/* sluice-snapshot.h: what a run looks like at one moment (seed 001)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <glib-object.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

typedef struct _SluiceSnapshot SluiceSnapshot;

#define SLUICE_TYPE_SNAPSHOT (sluice_snapshot_get_type ())

SLUICE_AVAILABLE_IN_1_0
GType               sluice_snapshot_get_type            (void) G_GNUC_CONST;
SLUICE_AVAILABLE_IN_1_0
SluiceSnapshot     *sluice_snapshot_ref                 (SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
void                sluice_snapshot_unref               (SluiceSnapshot *self);

SLUICE_AVAILABLE_IN_1_0
gint64              sluice_snapshot_get_time            (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_queue_depth     (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_queue_capacity  (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_busy_workers    (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_workers         (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_in_flight       (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
const char * const *sluice_snapshot_get_outcome_names   (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_outcome_count   (const SluiceSnapshot *self,
                                                         const char           *name);
SLUICE_AVAILABLE_IN_1_0
guint               sluice_snapshot_get_n_durations     (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
gint64              sluice_snapshot_get_duration_mean   (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
gint64              sluice_snapshot_get_duration_p50    (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
gint64              sluice_snapshot_get_duration_p95    (const SluiceSnapshot *self);
SLUICE_AVAILABLE_IN_1_0
gint64              sluice_snapshot_get_duration_max    (const SluiceSnapshot *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceSnapshot, sluice_snapshot_unref)

G_END_DECLS
