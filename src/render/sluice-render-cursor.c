/* sluice-render-cursor.c: a marked moment, drawn over the chart or the lanes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-cursor.h"
#include "sluice-render-private.h"

#include <math.h>

/* Dashed, in the selection's colour: it must not read as the "now" line
 * (solid, the clock's colour) nor as a grid or limit line (thin, muted). */
static const double dashes[] = { 4., 3. };

/**
 * sluice_render_draw_marked_time:
 * @cr: the context the chart or the lanes were drawn on
 * @plot: the plot's rectangle, from sluice_render_chart_get_plot() or
 *   sluice_render_timeline_get_plot()
 * @t0: the time at the plot's left edge, in clock microseconds
 * @t1: the time at its right edge
 * @time: the moment to mark (an event row clicked), or -1
 * @dark: whether the view uses the dark palette
 *
 * Draws a dashed line across @plot at @time, with a notch below it, as a
 * layer over what the view drew; nothing when @time is outside [@t0, @t1].
 */
void
sluice_render_draw_marked_time (cairo_t                 *cr,
                                const cairo_rectangle_t *plot,
                                gint64                   t0,
                                gint64                   t1,
                                gint64                   time,
                                gboolean                 dark)
{
  SluiceRect rect;
  double x;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  if (time < 0 || time < t0 || time > t1)
    return;

  rect = (SluiceRect) { plot->x, plot->y, plot->width, plot->height };
  x = round (_sluice_render_time_to_x (&rect, t0, MAX (t1, t0 + 1), time));

  cairo_save (cr);
  sluice_palette_set_source (cr, &sluice_palette_get (dark)->selection);
  cairo_set_line_width (cr, 2.);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0.);
  cairo_move_to (cr, x, rect.y);
  cairo_line_to (cr, x, rect.y + rect.height);
  cairo_stroke (cr);
  cairo_move_to (cr, x - 5., rect.y + rect.height);
  cairo_line_to (cr, x + 5., rect.y + rect.height);
  cairo_line_to (cr, x, rect.y + rect.height - 6.);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_restore (cr);
}
