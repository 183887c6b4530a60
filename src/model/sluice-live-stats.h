/* sluice-live-stats.h: the figures the counters show of a run, at the
 * moment shown
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * SluiceLiveStat:
 * @SLUICE_LIVE_STAT_PULLED: items pulled from the source
 * @SLUICE_LIVE_STAT_QUEUED: items or jobs in the queue
 * @SLUICE_LIVE_STAT_IN_FLIGHT: attempts running
 * @SLUICE_LIVE_STAT_BUSY: workers holding an item
 * @SLUICE_LIVE_STAT_WORKERS: all workers
 * @SLUICE_LIVE_STAT_SUCCEEDED: items that succeeded
 * @SLUICE_LIVE_STAT_RETRIES: retries started
 * @SLUICE_LIVE_STAT_TIMEOUTS: attempts past the item timeout
 * @SLUICE_LIVE_STAT_FAILED: items that failed for good
 * @SLUICE_LIVE_STAT_CANCELLED: items cancelled
 * @SLUICE_LIVE_STAT_DROPPED: items pulled but never handled
 * @SLUICE_LIVE_STAT_RETRIES_SKIPPED: retries the retry policy refused
 * @SLUICE_LIVE_STAT_SHED: items shed from the queue
 * @SLUICE_LIVE_N_STATS: the number of figures
 *
 * One figure of #SluiceLiveStats.
 */
typedef enum {
  SLUICE_LIVE_STAT_PULLED,
  SLUICE_LIVE_STAT_QUEUED,
  SLUICE_LIVE_STAT_IN_FLIGHT,
  SLUICE_LIVE_STAT_BUSY,
  SLUICE_LIVE_STAT_WORKERS,
  SLUICE_LIVE_STAT_SUCCEEDED,
  SLUICE_LIVE_STAT_RETRIES,
  SLUICE_LIVE_STAT_TIMEOUTS,
  SLUICE_LIVE_STAT_FAILED,
  SLUICE_LIVE_STAT_CANCELLED,
  SLUICE_LIVE_STAT_DROPPED,
  SLUICE_LIVE_STAT_RETRIES_SKIPPED,
  SLUICE_LIVE_STAT_SHED,
  SLUICE_LIVE_N_STATS
} SluiceLiveStat;

#define SLUICE_TYPE_LIVE_STATS (sluice_live_stats_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLiveStats, sluice_live_stats, SLUICE, LIVE_STATS, GObject)

SluiceLiveStats *sluice_live_stats_new              (void);
void             sluice_live_stats_set              (SluiceLiveStats *self,
                                                     const guint      values[SLUICE_LIVE_N_STATS],
                                                     gint64           elapsed,
                                                     gboolean         skipped_shown,
                                                     gboolean         shed_shown);
guint            sluice_live_stats_get              (SluiceLiveStats *self,
                                                     SluiceLiveStat   stat);
gint64           sluice_live_stats_get_elapsed      (SluiceLiveStats *self);
double           sluice_live_stats_get_throughput   (SluiceLiveStats *self);
gboolean         sluice_live_stats_get_skipped_shown (SluiceLiveStats *self);
gboolean         sluice_live_stats_get_shed_shown   (SluiceLiveStats *self);

G_END_DECLS
