/* sluice-snapshot-private.h: how a run makes its snapshots
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-snapshot.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 time;
  guint  queue_depth;
  guint  queue_capacity;
  guint  busy_workers;
  guint  workers;
  guint  in_flight;
} SluiceSnapshotCounts;

SluiceSnapshot *_sluice_snapshot_new (const SluiceSnapshotCounts *fields,
                                      GHashTable                 *outcomes,
                                      GArray                     *durations);

G_END_DECLS
