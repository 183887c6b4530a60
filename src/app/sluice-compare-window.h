/* sluice-compare-window.h: A and B on one workload, side by side on one
 * time axis, and their difference (docs/teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-comparison.h"
#include "sluice-viewport.h"

G_BEGIN_DECLS

/**
 * SluiceCompareColumn:
 * @SLUICE_COMPARE_COLUMN_NAME: what the row shows
 * @SLUICE_COMPARE_COLUMN_A: A's value
 * @SLUICE_COMPARE_COLUMN_B: B's value
 * @SLUICE_COMPARE_COLUMN_DIFFERENCE: B − A
 *
 * The columns of the difference table.
 */
typedef enum {
  SLUICE_COMPARE_COLUMN_NAME,
  SLUICE_COMPARE_COLUMN_A,
  SLUICE_COMPARE_COLUMN_B,
  SLUICE_COMPARE_COLUMN_DIFFERENCE,
} SluiceCompareColumn;

#define SLUICE_TYPE_COMPARE_WINDOW (sluice_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (SluiceCompareWindow, sluice_compare_window, SLUICE, COMPARE_WINDOW, GtkWindow)

SluiceCompareWindow *sluice_compare_window_new            (GtkWindow            *parent,
                                                           SluiceComparison     *comparison);
SluiceComparison    *sluice_compare_window_get_comparison (SluiceCompareWindow  *self);
gboolean             sluice_compare_window_get_running    (SluiceCompareWindow  *self);
const char          *sluice_compare_window_get_status     (SluiceCompareWindow  *self);
const char          *sluice_compare_window_get_cell       (SluiceCompareWindow  *self,
                                                           SluiceComparisonRowKind row,
                                                           SluiceCompareColumn  column);
const char          *sluice_compare_window_get_heading    (SluiceCompareWindow  *self,
                                                           SluiceComparisonSide side);
SluiceViewport      *sluice_compare_window_get_viewport   (SluiceCompareWindow  *self);
GtkWidget           *sluice_compare_window_get_scrubber   (SluiceCompareWindow  *self);
GtkWidget           *sluice_compare_window_get_chart_view (SluiceCompareWindow  *self,
                                                           SluiceComparisonSide side);
GtkWidget           *sluice_compare_window_get_timeline_view (SluiceCompareWindow *self,
                                                           SluiceComparisonSide side);
gboolean             sluice_compare_window_get_projector  (SluiceCompareWindow  *self);
void                 sluice_compare_window_set_projector  (SluiceCompareWindow  *self,
                                                           gboolean              projector);

G_END_DECLS
