/* sluice-live-stats.c: the figures the counters show of a run, at the
 * moment shown
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "sluice-live-stats.h"

/**
 * SluiceLiveStats:
 *
 * What the live counters show of a run at the moment shown (now during
 * the run, the playhead after it): the newest event's counts, the fold's
 * tallies, the busy workers and the queue depth, the elapsed time on the
 * pool's clock and the throughput, and whether the retry policy's figures
 * (retries skipped, items shed) are worth showing. The run controller
 * sets them once per frame and emits #SluiceLiveStats::changed once; the
 * counters widget formats them.
 */

struct _SluiceLiveStats
{
  GObject  parent_instance;

  guint    values[SLUICE_LIVE_N_STATS];
  gint64   elapsed;
  gboolean skipped_shown;
  gboolean shed_shown;
};

G_DEFINE_FINAL_TYPE (SluiceLiveStats, sluice_live_stats, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
sluice_live_stats_class_init (SluiceLiveStatsClass *klass)
{
  /**
   * SluiceLiveStats::changed:
   * @self: the figures
   *
   * The figures were set (once per frame of a run, and at a reset).
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sluice_live_stats_init (SluiceLiveStats *self)
{
}

/**
 * sluice_live_stats_new:
 *
 * Returns: (transfer full): figures all 0
 */
SluiceLiveStats *
sluice_live_stats_new (void)
{
  return g_object_new (SLUICE_TYPE_LIVE_STATS, NULL);
}

/**
 * sluice_live_stats_set:
 * @self: a #SluiceLiveStats
 * @values: every figure, indexed by #SluiceLiveStat
 * @elapsed: the clock time since the run started, in µs
 * @skipped_shown: whether the retries skipped are worth showing
 * @shed_shown: whether the items shed are worth showing
 *
 * Sets every figure and emits #SluiceLiveStats::changed.
 */
void
sluice_live_stats_set (SluiceLiveStats *self,
                       const guint      values[SLUICE_LIVE_N_STATS],
                       gint64           elapsed,
                       gboolean         skipped_shown,
                       gboolean         shed_shown)
{
  g_return_if_fail (SLUICE_IS_LIVE_STATS (self));
  g_return_if_fail (values != NULL);

  memcpy (self->values, values, sizeof self->values);
  self->elapsed = MAX (0, elapsed);
  self->skipped_shown = !!skipped_shown;
  self->shed_shown = !!shed_shown;
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * sluice_live_stats_get:
 * @self: a #SluiceLiveStats
 * @stat: which figure
 *
 * Returns: that figure
 */
guint
sluice_live_stats_get (SluiceLiveStats *self,
                       SluiceLiveStat   stat)
{
  g_return_val_if_fail (SLUICE_IS_LIVE_STATS (self), 0);
  g_return_val_if_fail (stat < SLUICE_LIVE_N_STATS, 0);
  return self->values[stat];
}

/**
 * sluice_live_stats_get_elapsed:
 * @self: a #SluiceLiveStats
 *
 * Returns: the clock time since the run started, in µs
 */
gint64
sluice_live_stats_get_elapsed (SluiceLiveStats *self)
{
  g_return_val_if_fail (SLUICE_IS_LIVE_STATS (self), 0);
  return self->elapsed;
}

/**
 * sluice_live_stats_get_throughput:
 * @self: a #SluiceLiveStats
 *
 * Returns: the items that succeeded per second of the clock, or a
 *   negative number before any time passed
 */
double
sluice_live_stats_get_throughput (SluiceLiveStats *self)
{
  double seconds;

  g_return_val_if_fail (SLUICE_IS_LIVE_STATS (self), -1);

  seconds = (double) self->elapsed / G_USEC_PER_SEC;
  return seconds > 0 ? self->values[SLUICE_LIVE_STAT_SUCCEEDED] / seconds : -1;
}

/**
 * sluice_live_stats_get_skipped_shown:
 * @self: a #SluiceLiveStats
 *
 * Returns: whether the run can skip retries (or did)
 */
gboolean
sluice_live_stats_get_skipped_shown (SluiceLiveStats *self)
{
  g_return_val_if_fail (SLUICE_IS_LIVE_STATS (self), FALSE);
  return self->skipped_shown;
}

/**
 * sluice_live_stats_get_shed_shown:
 * @self: a #SluiceLiveStats
 *
 * Returns: whether the run can shed items (or did)
 */
gboolean
sluice_live_stats_get_shed_shown (SluiceLiveStats *self)
{
  g_return_val_if_fail (SLUICE_IS_LIVE_STATS (self), FALSE);
  return self->shed_shown;
}
