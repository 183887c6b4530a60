/* sluice-render-chart-readout.c: the chart's counts at the pointer's time,
 * with a guide line there
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>

#include "sluice-render-chart.h"
#include "sluice-render-chart-private.h"

#define BOX_PAD      4.   /* inside the readout's box */
#define BOX_OFFSET   8.   /* between the guide line and the box */

static void
append_part (GString    *text,
             const char *part)
{
  if (text->len > 0)
    g_string_append (text, " · ");
  g_string_append (text, part);
}

/**
 * sluice_render_chart_get_readout:
 * @model: the run
 * @time: a clock time, in microseconds
 *
 * The counts the chart shows at @time, as one line of text: the time,
 * the items queued, the attempts in flight, the lead (with its failed
 * items, if any), the busy workers, the results waiting for the caller
 * when the chart draws them (more waited at once than the pool has
 * workers) and, when the run has a retry budget, its tokens. The values
 * are the model's, as the events gave them.
 *
 * Returns: (transfer full) (nullable): the readout, or %NULL when @time
 *   is before the run's first event
 */
char *
sluice_render_chart_get_readout (SluiceTimeline *model,
                                 gint64          time)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *part = NULL;
  SluiceTimelineValues v;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), NULL);

  if (!sluice_timeline_get_values_at (model, time, &v))
    return NULL;

  /* Translators: the chart's readout under the pointer: the time, in
   * seconds */
  part = g_strdup_printf (C_("chart readout", "%.3f s"), v.time / (double) G_USEC_PER_SEC);
  append_part (text, part);
  g_clear_pointer (&part, g_free);
  /* Translators: the chart's readout: items in the queue */
  part = g_strdup_printf (C_("chart readout", "queued %u"), v.queued);
  append_part (text, part);
  g_clear_pointer (&part, g_free);
  /* Translators: the chart's readout: attempts running */
  part = g_strdup_printf (C_("chart readout", "in flight %u"), v.in_flight);
  append_part (text, part);
  g_clear_pointer (&part, g_free);
  if (v.failed > 0)
    /* Translators: the chart's readout: items pulled and not finished
     * successfully, and how many of them failed for good */
    part = g_strdup_printf (C_("chart readout", "lead %u, of which %u failed"), v.lead, v.failed);
  else
    /* Translators: the chart's readout: items pulled and not finished
     * successfully */
    part = g_strdup_printf (C_("chart readout", "lead %u"), v.lead);
  append_part (text, part);
  g_clear_pointer (&part, g_free);
  /* Translators: the chart's readout: workers holding an item */
  part = g_strdup_printf (C_("chart readout", "busy %u"), v.busy);
  append_part (text, part);
  g_clear_pointer (&part, g_free);
  if (_sluice_chart_shows_waiting (model))
    {
      /* Translators: the chart's readout: results handed back that the
       * caller has not read yet */
      part = g_strdup_printf (C_("chart readout", "waiting %u"), v.waiting);
      append_part (text, part);
      g_clear_pointer (&part, g_free);
    }
  if (v.tokens >= 0)
    {
      g_autofree char *tokens = _sluice_chart_format_tokens (v.tokens);

      /* Translators: the chart's readout: the tokens left in the retry
       * budget, a number such as 2.5 */
      part = g_strdup_printf (C_("chart readout", "tokens %s"), tokens);
      append_part (text, part);
      g_clear_pointer (&part, g_free);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

/**
 * sluice_render_chart_pointer_to_time:
 * @width: the chart's width
 * @t0: the time at the left edge of the plot
 * @t1: the time at the right edge
 * @x: the pointer's x in the chart
 * @time: (out): the time under @x
 *
 * Returns: whether @x is over the plot (the chart's layout across does
 *   not depend on the run)
 */
gboolean
sluice_render_chart_pointer_to_time (double  width,
                                     gint64  t0,
                                     gint64  t1,
                                     double  x,
                                     gint64 *time)
{
  SluiceChartLayout chart;

  _sluice_chart_get_layout (width, 100., 1, FALSE, &chart);
  if (x < chart.plot.x || x > chart.plot.x + chart.plot.width)
    return FALSE;
  *time = _sluice_render_x_to_time (&chart.plot, t0, MAX (t1, t0 + 1), x);
  return TRUE;
}

/* Measures @text in @layout wrapped at @max_width (no wrapping for -1). */
static void
measure (PangoLayout *layout,
         const char  *text,
         double       max_width,
         double      *w,
         double      *h)
{
  pango_layout_set_width (layout, max_width > 0. ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  _sluice_render_get_text_size (layout, text, w, h);
}

/* The readout's time for the pointer at @x (the series stop at the last
 * event, or now), its text and its box, with the layout set up to draw
 * it; FALSE for no readout. The box goes right of the guide line, else
 * left of it, on one line; when neither side has room for that, wrapped
 * on the wider side if the plot is tall enough, else on one line over
 * the guide's top. */
static gboolean
layout_readout (const SluiceChartPass *pass,
                double                 x,
                char                 **text,
                SluiceRect            *box)
{
  const SluiceRect *plot = &pass->chart.plot;
  double right = plot->x + plot->width - (x + BOX_OFFSET) - 2. * BOX_PAD;
  double left = x - BOX_OFFSET - plot->x - 2. * BOX_PAD;
  double w, h;
  gint64 time;

  if (x < plot->x || x > plot->x + plot->width)
    return FALSE;
  time = MIN (_sluice_render_x_to_time (plot, pass->t0, pass->t1, x), pass->last);
  *text = sluice_render_chart_get_readout (pass->model, time);
  if (*text == NULL)
    return FALSE;

  measure (pass->layout, *text, -1., &w, &h);
  if (w > right && w > left)
    {
      double one_line = h;

      measure (pass->layout, *text, MAX (right, left), &w, &h);
      if (h + 2. > plot->height / 2. || MAX (right, left) < 80.)
        {
          measure (pass->layout, *text, MAX (plot->width - 2. * BOX_PAD, 20.), &w, &h);
          h = MAX (h, one_line);
        }
    }
  box->width = w + 2. * BOX_PAD;
  box->height = h + 2.;
  box->y = plot->y + 2.;
  box->x = w <= right || (w > left && right >= left) ? x + BOX_OFFSET : x - BOX_OFFSET - box->width;
  box->x = CLAMP (box->x, plot->x, MAX (plot->x, plot->x + plot->width - box->width));
  return TRUE;
}

static void
reset_layout (PangoLayout *layout)
{
  pango_layout_set_width (layout, -1);
}

/* The guide line at the pointer's time and the readout's box. */
void
_sluice_chart_draw_readout (const SluiceChartPass *pass,
                            double                 x)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  g_autofree char *text = NULL;
  SluiceRect box;
  double gx = round (x) + 0.5;

  if (x < plot->x || x > plot->x + plot->width)
    return;

  cairo_save (cr);
  sluice_palette_set_source (cr, &pass->palette->foreground);
  cairo_set_line_width (cr, 1.);
  cairo_move_to (cr, gx, plot->y);
  cairo_line_to (cr, gx, plot->y + plot->height);
  cairo_stroke (cr);

  if (layout_readout (pass, x, &text, &box))
    {
      sluice_palette_set_source (cr, &pass->palette->background);
      cairo_rectangle (cr, box.x, box.y, box.width, box.height);
      cairo_fill_preserve (cr);
      sluice_palette_set_source (cr, &pass->palette->muted);
      cairo_rectangle (cr, round (box.x) + 0.5, round (box.y) + 0.5, round (box.width) - 1., round (box.height) - 1.);
      cairo_stroke (cr);
      sluice_palette_set_source (cr, &pass->palette->foreground);
      cairo_move_to (cr, round (box.x + BOX_PAD), round (box.y + 1.));
      pango_cairo_show_layout (cr, pass->layout);
    }
  reset_layout (pass->layout);
  cairo_restore (cr);
}

/* Where the readout's box goes for the pointer at @x, for tests. */
SluiceRect
_sluice_chart_get_readout_rect (SluiceTimeline          *model,
                                const SluiceRenderFrame *frame,
                                const SluiceChartLimits *limits,
                                double                   x)
{
  g_autofree char *text = NULL;
  SluiceRect box = { 0., 0., 0., 0. };
  SluiceChartPass pass;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  if (!layout_readout (&pass, x, &text, &box))
    box = (SluiceRect) { 0., 0., 0., 0. };
  _sluice_chart_end_offline_pass (&pass);
  return box;
}
