/* sluice-counters.h: the live counters of a run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-live-stats.h"

G_BEGIN_DECLS

typedef enum {
  SLUICE_COUNTER_PULLED,
  SLUICE_COUNTER_QUEUED,
  SLUICE_COUNTER_IN_FLIGHT,
  SLUICE_COUNTER_BUSY,
  SLUICE_COUNTER_SUCCEEDED,
  SLUICE_COUNTER_RETRIES,
  SLUICE_COUNTER_TIMEOUTS,
  SLUICE_COUNTER_FAILED,
  SLUICE_COUNTER_CANCELLED,
  SLUICE_COUNTER_DROPPED,
  SLUICE_COUNTER_RETRIES_SKIPPED,
  SLUICE_COUNTER_SHED,
  SLUICE_COUNTER_ELAPSED,
  SLUICE_COUNTER_THROUGHPUT,
  SLUICE_N_COUNTERS
} SluiceCounter;

#define SLUICE_TYPE_COUNTERS (sluice_counters_get_type ())
G_DECLARE_FINAL_TYPE (SluiceCounters, sluice_counters, SLUICE, COUNTERS, GtkWidget)

GtkWidget  *sluice_counters_new  (void);
void        sluice_counters_set  (SluiceCounters *self,
                                  SluiceCounter   counter,
                                  char           *text);
const char *sluice_counters_get  (SluiceCounters *self,
                                  SluiceCounter   counter);
void        sluice_counters_set_shown (SluiceCounters *self,
                                       SluiceCounter   counter,
                                       gboolean        shown);
gboolean    sluice_counters_get_shown (SluiceCounters *self,
                                       SluiceCounter   counter);

void        sluice_counters_set_stats (SluiceCounters  *self,
                                       SluiceLiveStats *stats);

G_END_DECLS
