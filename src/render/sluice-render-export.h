/* sluice-render-export.h: the chart above the lanes, as a PNG, SVG or PDF file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>

#include "sluice-render-chart.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

void     sluice_render_run    (cairo_t                 *cr,
                               SluiceTimeline          *model,
                               double                   width,
                               double                   height,
                               const SluiceChartLimits *limits,
                               gboolean                 dark);
gboolean sluice_render_export (SluiceTimeline  *model,
                               const char      *path,
                               double           width,
                               double           height,
                               guint            queue_capacity,
                               guint            lead_bound,
                               gboolean         dark,
                               GError         **error);

G_END_DECLS
