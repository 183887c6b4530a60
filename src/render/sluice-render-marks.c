/* sluice-render-marks.c: the marks the lanes draw on bars and in their key
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-private.h"

#include <math.h>

#define HATCH_SPACING 6.

/* Each mark says what happened without relying on colour alone, and looks
 * the same on a bar as in the key that explains it. */

/* @color, fainter by @alpha: the bars of items not selected are dimmed. */
void
_sluice_render_set_source_dimmed (cairo_t           *cr,
                                  const SluiceColor *color,
                                  double             alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
}

/* Hatching marks a retried attempt without relying on its colour. */
void
_sluice_render_draw_hatching (cairo_t *cr,
                              double   x,
                              double   y,
                              double   w,
                              double   h)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.38);
  cairo_set_line_width (cr, 1.5);
  for (double d = x - h; d < x + w; d += HATCH_SPACING)
    {
      cairo_move_to (cr, d, y + h);
      cairo_line_to (cr, d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A small clock face: this attempt ran out of time. */
void
_sluice_render_draw_clock_mark (cairo_t *cr,
                                double   cx,
                                double   cy,
                                double   r)
{
  cairo_save (cr);
  cairo_new_sub_path (cr);
  cairo_arc (cr, cx, cy, r, 0., 2. * G_PI);
  cairo_set_source_rgba (cr, 1., 1., 1., 0.92);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.87);
  cairo_set_line_width (cr, 1.25);
  cairo_stroke (cr);
  cairo_move_to (cr, cx, cy - r * 0.65);
  cairo_line_to (cr, cx, cy);
  cairo_line_to (cr, cx + r * 0.5, cy);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A cross: the item failed for good with this attempt. */
void
_sluice_render_draw_cross_mark (cairo_t *cr,
                                double   cx,
                                double   cy,
                                double   r)
{
  cairo_save (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.87);
  cairo_set_line_width (cr, 2.);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_move_to (cr, cx - r * 0.7, cy - r * 0.7);
  cairo_line_to (cr, cx + r * 0.7, cy + r * 0.7);
  cairo_move_to (cr, cx + r * 0.7, cy - r * 0.7);
  cairo_line_to (cr, cx - r * 0.7, cy + r * 0.7);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A diamond on the bar's top edge, ringed in the background colour so it
 * stands out on any bar: the pool asked the attempt to stop. */
void
_sluice_render_draw_cancel_mark (cairo_t             *cr,
                                 const SluicePalette *palette,
                                 double               x,
                                 double               y,
                                 double               size,
                                 double               alpha)
{
  cairo_move_to (cr, x, y - size);
  cairo_line_to (cr, x + size, y);
  cairo_line_to (cr, x, y + size);
  cairo_line_to (cr, x - size, y);
  cairo_close_path (cr);
  _sluice_render_set_source_dimmed (cr, &palette->background, alpha);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke_preserve (cr);
  _sluice_render_set_source_dimmed (cr, &palette->cancel_round, alpha);
  cairo_fill (cr);
}

/* A dashed line across the lane: the attempt's deadline. */
void
_sluice_render_draw_deadline_mark (cairo_t             *cr,
                                   const SluicePalette *palette,
                                   double               x,
                                   double               top,
                                   double               bottom,
                                   double               alpha)
{
  /* A halo in the background colour parts the dashes from the bar. */
  cairo_move_to (cr, x, top);
  cairo_line_to (cr, x, bottom);
  _sluice_render_set_source_dimmed (cr, &palette->background, alpha * 0.8);
  cairo_set_line_width (cr, 4.);
  cairo_stroke_preserve (cr);
  _sluice_render_set_source_dimmed (cr, &palette->deadline, alpha);
  cairo_set_line_width (cr, 2.);
  cairo_set_dash (cr, (double[]) { 3., 2. }, 2, 0.);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.);
}

/* A bracket lying along the lane, from @x0 (the failed attempt's end) to
 * @x1 (the next attempt's start): upright ends and a dotted line between,
 * the wait before a retry. Its shape, not only its colour, tells it from
 * the bars either side. */
void
_sluice_render_draw_backoff_mark (cairo_t             *cr,
                                  const SluicePalette *palette,
                                  double               x0,
                                  double               x1,
                                  double               top,
                                  double               bottom,
                                  double               alpha)
{
  double h = bottom - top;
  double cy = round (top + h / 2.) + 0.5;
  double tick = MAX (h * 0.35, 2.);

  /* Inside the gaps the bars leave, and on whole pixels. */
  x0 = round (x0) + 0.5;
  x1 = MAX (round (x1) - 1.5, x0);

  cairo_save (cr);
  _sluice_render_set_source_dimmed (cr, &palette->backoff, alpha);
  cairo_set_line_width (cr, 2.);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_move_to (cr, x0, cy - tick);
  cairo_line_to (cr, x0, cy + tick);
  cairo_move_to (cr, x1, cy - tick);
  cairo_line_to (cr, x1, cy + tick);
  cairo_stroke (cr);

  if (x1 - x0 > 4.)
    {
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, (double[]) { 3., 2. }, 2, 0.);
      cairo_move_to (cr, x0 + 2., cy);
      cairo_line_to (cr, x1 - 1., cy);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/* A "no entry" sign right after a failed attempt: the retry policy refused
 * the retry (the deadline would pass, or the budget ran low). */
void
_sluice_render_draw_skip_mark (cairo_t             *cr,
                               const SluicePalette *palette,
                               double               cx,
                               double               cy,
                               double               r,
                               double               alpha)
{
  double d = r * 0.7;

  cairo_save (cr);
  cairo_new_sub_path (cr);
  cairo_arc (cr, cx, cy, r, 0., 2. * G_PI);
  _sluice_render_set_source_dimmed (cr, &palette->background, alpha);
  cairo_fill_preserve (cr);
  _sluice_render_set_source_dimmed (cr, &palette->foreground, alpha);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke (cr);
  cairo_move_to (cr, cx - d, cy - d);
  cairo_line_to (cr, cx + d, cy + d);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A triangle pointing down, in the colour of a final failure: a worker
 * took the item past its deadline and dropped it without a handler call. */
void
_sluice_render_draw_shed_mark (cairo_t             *cr,
                               const SluicePalette *palette,
                               double               cx,
                               double               cy,
                               double               r,
                               double               alpha)
{
  cairo_save (cr);
  cairo_move_to (cr, cx - r, cy - r * 0.8);
  cairo_line_to (cr, cx + r, cy - r * 0.8);
  cairo_line_to (cr, cx, cy + r);
  cairo_close_path (cr);
  _sluice_render_set_source_dimmed (cr, &palette->failed, alpha);
  cairo_fill_preserve (cr);
  _sluice_render_set_source_dimmed (cr, &palette->foreground, alpha);
  cairo_set_line_width (cr, 1.25);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_stroke (cr);
  cairo_restore (cr);
}
