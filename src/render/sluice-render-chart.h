/* sluice-render-chart.h: queue depth, attempts in flight and lead over time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>

#include "sluice-palette.h"
#include "sluice-render-frame.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

/**
 * SluiceChartLimits:
 * @queue_capacity: the queue size, drawn as a line; 0 for none
 * @lead_bound: `queue-size + workers + 1`, the most items a run can hold
 *   at once, drawn as a line; 0 for none
 *
 * The pool's limits the chart draws its series against. They also set
 * the top of the count axis, so laying the chart out needs them too.
 */
typedef struct {
  guint queue_capacity;
  guint lead_bound;
} SluiceChartLimits;

SluiceChartLimits sluice_render_chart_get_limits (SluiceTimeline *model);

void     sluice_render_chart                 (cairo_t                 *cr,
                                              SluiceTimeline          *model,
                                              const SluiceRenderFrame *frame,
                                              const SluiceChartLimits *limits);
void     sluice_render_chart_with_pointer    (cairo_t                 *cr,
                                              SluiceTimeline          *model,
                                              const SluiceRenderFrame *frame,
                                              const SluiceChartLimits *limits,
                                              double                   pointer_x);
char    *sluice_render_chart_get_readout     (SluiceTimeline          *model,
                                              gint64                   time);
gboolean sluice_render_chart_pointer_to_time (double                   width,
                                              gint64                   t0,
                                              gint64                   t1,
                                              double                   x,
                                              gint64                  *time);

void     sluice_render_chart_get_plot        (SluiceTimeline          *model,
                                              const SluiceRenderFrame *frame,
                                              const SluiceChartLimits *limits,
                                              cairo_rectangle_t       *plot);
void     sluice_render_chart_get_readout_rect (SluiceTimeline          *model,
                                               const SluiceRenderFrame *frame,
                                               const SluiceChartLimits *limits,
                                               double                   pointer_x,
                                               cairo_rectangle_t       *readout);

G_END_DECLS
