/* sluice-render-axis.c: the time axis, the "now" line and the text helpers
 * that the chart and the lanes share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-private.h"

#include <math.h>

double
_sluice_render_time_to_x (const SluiceRect *plot,
                          gint64            t0,
                          gint64            t1,
                          gint64            time)
{
  double span = MAX (t1 - t0, 1);

  return plot->x + (double) (time - t0) / span * plot->width;
}

gint64
_sluice_render_x_to_time (const SluiceRect *plot,
                          gint64            t0,
                          gint64            t1,
                          double            x)
{
  double span = MAX (t1 - t0, 1);

  return t0 + (gint64) llround ((x - plot->x) / MAX (plot->width, 1.) * span);
}

/**
 * _sluice_render_create_layout:
 * @cr: the context to draw on
 * @bold: whether the text is a heading
 *
 * A layout in the views' font, with tabular figures so that changing
 * numbers keep their width and columns of ticks line up.
 *
 * Returns: (transfer full): a #PangoLayout for @cr
 */
PangoLayout *
_sluice_render_create_layout (cairo_t  *cr,
                              gboolean  bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (SLUICE_RENDER_FONT);
  PangoAttrList *attrs = pango_attr_list_new ();

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum 1"));
  pango_layout_set_attributes (layout, attrs);

  pango_attr_list_unref (attrs);
  pango_font_description_free (font);

  return layout;
}

void
_sluice_render_get_text_size (PangoLayout *layout,
                              const char  *text,
                              double      *width,
                              double      *height)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  if (width != NULL)
    *width = w;
  if (height != NULL)
    *height = h;
}

/**
 * _sluice_render_draw_text:
 * @cr: the context, with the text colour as source
 * @layout: a layout from _sluice_render_create_layout()
 * @text: the text
 * @x: the anchor's x
 * @y: the anchor's y
 * @align_x: 0 puts the text's left edge at @x, 0.5 its centre, 1 its right
 * @align_y: the same, vertically
 *
 * Draws one line of text anchored at a point, on whole pixels so that it
 * stays crisp.
 */
void
_sluice_render_draw_text (cairo_t     *cr,
                          PangoLayout *layout,
                          const char  *text,
                          double       x,
                          double       y,
                          double       align_x,
                          double       align_y)
{
  double w, h;

  _sluice_render_get_text_size (layout, text, &w, &h);
  cairo_move_to (cr, round (x - w * align_x), round (y - h * align_y));
  pango_cairo_show_layout (cr, layout);
}

/**
 * _sluice_render_nice_step:
 * @range: the span the ticks cover
 * @n_ticks: about how many ticks fit
 *
 * Returns: a step of 1, 2 or 5 times a power of ten, so tick labels are
 *   round numbers
 */
double
_sluice_render_nice_step (double range,
                          double n_ticks)
{
  double raw = range / MAX (n_ticks, 1.);
  double magnitude = pow (10., floor (log10 (MAX (raw, 1e-9))));
  double fraction = raw / magnitude;

  if (fraction <= 1.)
    return magnitude;
  if (fraction <= 2.)
    return 2. * magnitude;
  if (fraction <= 5.)
    return 5. * magnitude;
  return 10. * magnitude;
}

/* "0.25 s": as many decimals as the step needs and no more. */
static char *
format_seconds (double seconds,
                double step)
{
  int decimals = (int) MAX (0., -floor (log10 (step) + 1e-9));

  /* Translators: a time axis tick label, in seconds */
  return g_strdup_printf ("%.*f s", decimals, seconds);
}

static gboolean
overlaps_any (double            x0,
              double            x1,
              const SluiceRect *keep_clear,
              guint             n_keep_clear)
{
  for (guint i = 0; i < n_keep_clear; i++)
    if (keep_clear[i].width > 0. && x0 < keep_clear[i].x + keep_clear[i].width && keep_clear[i].x < x1)
      return TRUE;
  return FALSE;
}

/**
 * _sluice_render_draw_time_axis:
 * @cr: the context
 * @layout: for the labels
 * @palette: the colours
 * @plot: the data area; the labels go just below it
 * @t0: the time at the plot's left edge, in microseconds
 * @t1: the time at the plot's right edge
 *
 * Draws vertical grid lines at round times across @plot and their labels
 * in seconds under it. Labels that would run past the plot's right edge
 * are left out rather than clipped.
 */
void
_sluice_render_draw_time_axis (cairo_t             *cr,
                               PangoLayout         *layout,
                               const SluicePalette *palette,
                               const SluiceRect    *plot,
                               gint64               t0,
                               gint64               t1)
{
  _sluice_render_draw_time_axis_clear_of (cr, layout, palette, plot, t0, t1, NULL, 0);
}

/**
 * _sluice_render_draw_time_axis_clear_of:
 * @cr: the context
 * @layout: for the labels
 * @palette: the colours
 * @plot: the data area; the labels go just below it
 * @t0: the time at the plot's left edge, in microseconds
 * @t1: the time at the plot's right edge
 * @keep_clear: (array length=n_keep_clear): spans of the label row that
 *   other labels take (only their x and width count)
 * @n_keep_clear: how many
 *
 * Like _sluice_render_draw_time_axis(), leaving out the tick labels that
 * would run into @keep_clear: the chart's moments have their labels in
 * the same row, and a tick's time can be read off its neighbours.
 */
void
_sluice_render_draw_time_axis_clear_of (cairo_t             *cr,
                                        PangoLayout         *layout,
                                        const SluicePalette *palette,
                                        const SluiceRect    *plot,
                                        gint64               t0,
                                        gint64               t1,
                                        const SluiceRect    *keep_clear,
                                        guint                n_keep_clear)
{
  double span = MAX (t1 - t0, 1) / (double) G_USEC_PER_SEC;
  double step = _sluice_render_nice_step (span, plot->width / 90.);
  double first = ceil (t0 / (double) G_USEC_PER_SEC / step) * step;
  double right = plot->x + plot->width;

  cairo_save (cr);
  cairo_set_line_width (cr, 1.);

  for (double s = first; s <= t1 / (double) G_USEC_PER_SEC + step * 1e-6; s += step)
    {
      double x = round (_sluice_render_time_to_x (plot, t0, t1, sluice_time_from_seconds (s))) + 0.5;
      g_autofree char *label = format_seconds (fabs (s) < step * 1e-6 ? 0. : s, step);
      double w, cx;

      sluice_palette_set_source (cr, &palette->grid);
      cairo_move_to (cr, x, plot->y);
      cairo_line_to (cr, x, plot->y + plot->height + 4.);
      cairo_stroke (cr);

      _sluice_render_get_text_size (layout, label, &w, NULL);
      if (x + w / 2. > right + SLUICE_RENDER_MARGIN)
        continue;
      cx = MAX (x, plot->x + w / 2.);
      if (overlaps_any (cx - w / 2. - 3., cx + w / 2. + 3., keep_clear, n_keep_clear))
        continue;
      sluice_palette_set_source (cr, &palette->muted);
      _sluice_render_draw_text (cr, layout, label, cx, plot->y + plot->height + 5., 0.5, 0.);
    }

  /* The baseline the bars and series stand on. */
  sluice_palette_set_source (cr, &palette->muted);
  cairo_move_to (cr, plot->x, round (plot->y + plot->height) + 0.5);
  cairo_line_to (cr, right, round (plot->y + plot->height) + 0.5);
  cairo_stroke (cr);

  cairo_restore (cr);
}

/**
 * _sluice_render_begin_view:
 * @cr: the context to draw on
 * @palette: the colours
 * @width: the view's width
 * @height: the view's height
 *
 * Saves @cr, clips it to the view and paints the background: the view owns
 * its rectangle and no more, as it may share a surface. The view ends with
 * cairo_restore().
 */
void
_sluice_render_begin_view (cairo_t             *cr,
                           const SluicePalette *palette,
                           double               width,
                           double               height)
{
  cairo_save (cr);
  cairo_rectangle (cr, 0., 0., width, height);
  cairo_clip (cr);
  sluice_palette_set_source (cr, &palette->background);
  cairo_paint (cr);
}

/**
 * _sluice_render_draw_now:
 * @cr: the context
 * @palette: the colours
 * @plot: the data area
 * @t0: the time at the plot's left edge
 * @t1: the time at the plot's right edge
 * @now: the clock's time, or a negative value for no line
 *
 * Draws the "now" line across @plot with a small notch above it, so it
 * reads as a cursor and not as one more grid line.
 */
void
_sluice_render_draw_now (cairo_t             *cr,
                         const SluicePalette *palette,
                         const SluiceRect    *plot,
                         gint64               t0,
                         gint64               t1,
                         gint64               now)
{
  double x;

  if (now < 0 || now < t0 || now > t1)
    return;

  x = round (_sluice_render_time_to_x (plot, t0, t1, now));

  cairo_save (cr);
  sluice_palette_set_source (cr, &palette->now);
  cairo_rectangle (cr, x - 1., plot->y, 2., plot->height);
  cairo_fill (cr);
  cairo_move_to (cr, x - 5., plot->y);
  cairo_line_to (cr, x + 5., plot->y);
  cairo_line_to (cr, x, plot->y + 6.);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_restore (cr);
}
