/* sluice-render-marks.c: the marks the lanes draw on bars and in their key
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-private.h"

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
