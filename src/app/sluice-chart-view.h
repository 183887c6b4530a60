/* sluice-chart-view.h: the queue chart, drawn by src/render
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-time-view.h"
#include "sluice-timeline.h"
#include "sluice-viewport.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_CHART_VIEW (sluice_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceChartView, sluice_chart_view, SLUICE, CHART_VIEW, SluiceTimeView)

GtkWidget *sluice_chart_view_new       (void);
void       sluice_chart_view_set_model (SluiceChartView *self,
                                        SluiceTimeline  *model);
void       sluice_chart_view_pin_readout (SluiceChartView *self,
                                          gint64           time);
gint64     sluice_chart_view_get_pinned_readout (SluiceChartView *self);

G_END_DECLS
