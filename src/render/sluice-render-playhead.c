/* sluice-render-playhead.c: the playhead, drawn over the chart or the lanes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-playhead.h"
#include "sluice-render-private.h"

#include <math.h>

/* Dashed, in the selection's colour: it must not read as the "now" line
 * (solid, the clock's colour) nor as a grid or limit line (thin, muted). */
static const double dashes[] = { 4., 3. };

/* What had not happened yet at the playhead stays readable, faded. */
#define FUTURE_DIM 0.6

/**
 * sluice_render_draw_playhead:
 * @cr: the context the chart or the lanes were drawn on
 * @plot: the plot's rectangle, from sluice_render_chart_get_plot() or
 *   sluice_render_timeline_get_plot()
 * @t0: the time at the plot's left edge, in clock microseconds
 * @t1: the time at its right edge
 * @time: the moment shown (the scrubber's, an event row's), or -1
 * @palette: the view's palette
 *
 * Draws the playhead as a layer over what the view drew: the part of
 * @plot after @time faded towards the background (it had not happened
 * yet), and a dashed line at @time with a notch below it. Nothing when
 * @time is -1; a @time before @t0 fades all of @plot, one after @t1
 * none of it.
 */
void
sluice_render_draw_playhead (cairo_t                 *cr,
                                const cairo_rectangle_t *plot,
                                gint64                   t0,
                                gint64                   t1,
                                gint64                   time,
                                SluicePaletteFlags       palette)
{
  const SluicePalette *colors;
  SluiceRect rect;
  double x;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (plot != NULL);

  if (time < 0 || time > t1)
    return;

  rect = (SluiceRect) { plot->x, plot->y, plot->width, plot->height };
  x = round (_sluice_render_time_to_x (&rect, t0, MAX (t1, t0 + 1), MAX (time, t0)));

  cairo_save (cr);
  colors = sluice_palette_get (palette);
  cairo_set_source_rgba (cr, colors->background.red, colors->background.green, colors->background.blue,
                         FUTURE_DIM);
  cairo_rectangle (cr, x + 1., rect.y, rect.x + rect.width - x - 1., rect.height);
  cairo_fill (cr);
  if (time < t0)
    {
      cairo_restore (cr);
      return;
    }

  sluice_palette_set_source (cr, &colors->selection);
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
