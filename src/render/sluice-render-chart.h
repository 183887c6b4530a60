/* sluice-render-chart.h: queue depth, attempts in flight and lead over time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>

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
                          gboolean        dark);

G_END_DECLS
