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

/* The attempt durations of a run in constant memory: the count, sum and
 * maximum of all of them, and the latest SLUICE_DURATION_WINDOW for the
 * percentiles. */
#define SLUICE_DURATION_WINDOW 4096

typedef struct
{
  guint64 count;
  gint64  sum;
  gint64  max;
  guint   next;                            /* where the next one goes */
  gint64  latest[SLUICE_DURATION_WINDOW];
} SluiceDurations;

void            _sluice_durations_add (SluiceDurations *self,
                                       gint64           duration);

SluiceSnapshot *_sluice_snapshot_new (const SluiceSnapshotCounts *fields,
                                      GHashTable                 *outcomes,
                                      const SluiceDurations      *durations);

G_END_DECLS
