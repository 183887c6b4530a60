/* sluice-render-bar.c: how an attempt's bar is filled, for its outcome
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-bar-private.h"

#define DOT_SPACING       4.    /* the cancelled bars' dot grid */
#define DOT_RADIUS        1.1
#define OPEN_BORDER       2.    /* a running bar's border */
#define OPEN_INSIDE_ALPHA 0.28  /* a running bar's pale inside */

/* Running while it has no end yet; every other bar by how it ended. */
SluiceBarFill
_sluice_render_bar_fill_for_outcome (SluiceOutcome outcome,
                                     gboolean      running)
{
  if (running || outcome == SLUICE_OUTCOME_NONE)
    return SLUICE_BAR_FILL_OPEN;
  if (outcome == SLUICE_OUTCOME_CANCELLED)
    return SLUICE_BAR_FILL_DOTTED;
  return SLUICE_BAR_FILL_FLAT;
}

/* Dark dots on the bar's colour, on a grid that does not move with the
 * bar (so neighbouring cancelled bars read as one texture), in staggered
 * rows: unlike the diagonal hatching of a retried bar. */
static void
draw_dots (cairo_t *cr,
           double   x,
           double   y,
           double   w,
           double   h,
           double   alpha)
{
  guint row = 0;

  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.55 * alpha);
  for (double dy = floor (y / DOT_SPACING) * DOT_SPACING + DOT_SPACING / 2.; dy < y + h; dy += DOT_SPACING, row++)
    for (double dx = floor (x / DOT_SPACING) * DOT_SPACING + (row % 2) * DOT_SPACING / 2.; dx < x + w + DOT_SPACING;
         dx += DOT_SPACING)
      {
        cairo_new_sub_path (cr);
        cairo_arc (cr, dx, dy, DOT_RADIUS, 0., 2. * G_PI);
      }
  cairo_fill (cr);
  cairo_restore (cr);
}

/* A pale inside and a bold border: the attempt is not over, its bar is
 * still open. Too narrow for a border, it is filled. */
static void
draw_open (cairo_t           *cr,
           const SluiceColor *color,
           const SluiceRect  *bar,
           double             alpha)
{
  double x = bar->x, y = bar->y, w = bar->width, h = bar->height;

  if (w < 3. * OPEN_BORDER)
    {
      _sluice_render_set_source_dimmed (cr, color, alpha);
      cairo_rectangle (cr, x, y, w, h);
      cairo_fill (cr);
      return;
    }

  _sluice_render_set_source_dimmed (cr, color, OPEN_INSIDE_ALPHA * alpha);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
  _sluice_render_set_source_dimmed (cr, color, alpha);
  cairo_set_line_width (cr, OPEN_BORDER);
  cairo_rectangle (cr, x + OPEN_BORDER / 2., y + OPEN_BORDER / 2., w - OPEN_BORDER, h - OPEN_BORDER);
  cairo_stroke (cr);
}

/* Fills @bar (or a key's swatch) in @color, the way @fill says, at @alpha
 * (dimmed when another item is selected). */
void
_sluice_render_fill_bar (cairo_t             *cr,
                         const SluiceColor   *color,
                         SluiceBarFill        fill,
                         const SluiceRect    *bar,
                         double               alpha)
{
  if (fill == SLUICE_BAR_FILL_OPEN)
    {
      draw_open (cr, color, bar, alpha);
      return;
    }

  _sluice_render_set_source_dimmed (cr, color, alpha);
  cairo_rectangle (cr, bar->x, bar->y, bar->width, bar->height);
  cairo_fill (cr);
  if (fill == SLUICE_BAR_FILL_DOTTED)
    draw_dots (cr, bar->x, bar->y, bar->width, bar->height, alpha);
}

/* Text inside a bar: dark on the flat and dotted fills, whose colours are
 * all light enough for it; the view's own text colour on an open bar,
 * whose inside is nearly the background. */
const SluiceColor *
_sluice_render_bar_label_color (const SluicePalette *palette,
                                SluiceBarFill        fill)
{
  static const SluiceColor dark_text = { 0., 0., 0., 0.87 };

  return fill == SLUICE_BAR_FILL_OPEN ? &palette->foreground : &dark_text;
}
