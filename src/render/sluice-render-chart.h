/* sluice-render-chart.h: queue depth, attempts in flight and lead over time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>

#include "sluice-palette.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

void sluice_render_chart (cairo_t        *cr,
                          double          width,
                          double          height,
                          SluiceTimeline *model,
                          gint64          t0,
                          gint64          t1,
                          gint64          now,
                          guint           queue_capacity,
                          guint           lead_bound,
                          SluicePaletteFlags palette);
void sluice_render_chart_with_pointer (cairo_t        *cr,
                                       double          width,
                                       double          height,
                                       SluiceTimeline *model,
                                       gint64          t0,
                                       gint64          t1,
                                       gint64          now,
                                       guint           queue_capacity,
                                       guint           lead_bound,
                                       SluicePaletteFlags palette,
                                       double          pointer_x);
char    *sluice_render_chart_get_readout     (SluiceTimeline *model,
                                              gint64          time);
gboolean sluice_render_chart_pointer_to_time (double          width,
                                              gint64          t0,
                                              gint64          t1,
                                              double          x,
                                              gint64         *time);

void     sluice_render_chart_get_plot        (double             width,
                                              double             height,
                                              SluiceTimeline    *model,
                                              gint64             t0,
                                              gint64             t1,
                                              gint64             now,
                                              guint              queue_capacity,
                                              guint              lead_bound,
                                              cairo_rectangle_t *plot);

G_END_DECLS
