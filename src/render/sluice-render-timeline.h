/* sluice-render-timeline.h: the worker lanes, one bar per attempt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>

#include "sluice-palette.h"
#include "sluice-render-frame.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

void     sluice_render_timeline     (cairo_t                 *cr,
                                     SluiceTimeline          *model,
                                     const SluiceRenderFrame *frame,
                                     gint64                   selected_item);
double   sluice_render_timeline_get_natural_height (SluiceTimeline *model);
void     sluice_render_get_time_axis (double          view_width,
                                      double         *x,
                                      double         *width);
gint64   sluice_render_x_to_time     (double          view_width,
                                      gint64          t0,
                                      gint64          t1,
                                      double          x);
void     sluice_render_timeline_get_plot (SluiceTimeline    *model,
                                          double             width,
                                          double             height,
                                          cairo_rectangle_t *plot);
double   sluice_render_timeline_get_natural_height_for_width (SluiceTimeline *model,
                                                              double          width);
double   sluice_render_timeline_get_minimum_height_for_width (SluiceTimeline *model,
                                                              double          width);
gboolean sluice_render_timeline_hit (SluiceTimeline          *model,
                                     const SluiceRenderFrame *frame,
                                     double                   x,
                                     double                   y,
                                     guint                   *bar_index);
gboolean sluice_render_timeline_hit_mark (SluiceTimeline          *model,
                                          const SluiceRenderFrame *frame,
                                          double                   x,
                                          double                   y,
                                          guint                   *mark_index);

G_END_DECLS
