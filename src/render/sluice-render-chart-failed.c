/* sluice-render-chart-failed.c: the part of the chart's lead that failed
 * for good, drawn apart from the items still in progress
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>

#include "sluice-render-chart-private.h"

#define HATCH_SPACING 5.

/* The engine's lead is pulled minus succeeded: an item that failed for
 * good stays in it for the rest of the run. With keep-going the pool goes
 * on pulling while they stay, so the lead passes `queue-size + workers +
 * 1` by as many. The events count them (the model keeps it per sample):
 * the band hangs from the lead's line down by that count, so that what is
 * left under it, the items in progress, is seen to keep to the bound. It
 * is drawn over the lead's wide line, striped with the background: on a
 * short chart one item is about the line's width, and the stripes show
 * through the line as well as under it, in grey scale too. */

/**
 * _sluice_chart_find_failed:
 * @model: the run
 * @t0: the start of the span in view
 * @t1: its end (where the series end)
 * @lead_bound: the bound drawn, or 0
 *
 * Returns: whether the span has failed items in the lead, and whether
 *   they are what takes the lead past @lead_bound
 */
SluiceChartFailed
_sluice_chart_find_failed (SluiceTimeline *model,
                           gint64          t0,
                           gint64          t1,
                           guint           lead_bound)
{
  guint n = sluice_timeline_get_n_samples (model);
  SluiceChartFailed found = SLUICE_CHART_FAILED_NONE;

  for (guint i = sluice_timeline_find_sample (model, t0); i < n; i++)
    {
      gint64 time;
      guint lead, failed = sluice_timeline_get_failed (model, i);

      sluice_timeline_get_sample (model, i, &time, NULL, NULL, &lead);
      if (time > t1)
        break;
      if (failed == 0)
        continue;
      found = SLUICE_CHART_FAILED_SHOWN;
      if (lead_bound > 0 && lead > lead_bound && lead - failed <= lead_bound)
        return SLUICE_CHART_FAILED_PAST_BOUND;
    }
  return found;
}

/* The legend's entry for the band: what it is, or, when the band is what
 * takes the lead past its bound, the one line that says so. */
const char *
_sluice_chart_failed_label (SluiceChartFailed failed)
{
  switch (failed)
    {
    /* Translators: the chart's legend: the hatched part of the lead
     * (pulled, unfinished) that is items which failed for good */
    case SLUICE_CHART_FAILED_SHOWN:      return _("of which failed");
    /* Translators: the chart's legend for the hatched part of the lead,
     * when the lead is above its bound (queue-size + workers + 1) only
     * because items that failed for good are counted in it, as with
     * keep-going; keep it short */
    case SLUICE_CHART_FAILED_PAST_BOUND: return _("failed items stay in the lead: past its bound");
    case SLUICE_CHART_FAILED_NONE:
    default:                             return NULL;
    }
}

static void
stroke_hatching (cairo_t             *cr,
                 const SluicePalette *palette,
                 double               x0,
                 double               y0,
                 double               x1,
                 double               y1)
{
  double h = y1 - y0;

  sluice_palette_set_source (cr, &palette->background);
  cairo_set_line_width (cr, 1.5);
  cairo_set_dash (cr, NULL, 0, 0.);
  /* "\", the other way from the lanes' hatching of retried attempts. */
  for (double d = floor (x0 / HATCH_SPACING) * HATCH_SPACING - h; d < x1 + h; d += HATCH_SPACING)
    {
      cairo_move_to (cr, d, y0);
      cairo_line_to (cr, d + h, y1);
    }
  cairo_stroke (cr);
}

/* Fills the path on @cr, translucent, and hatches it. */
static void
fill_hatched (cairo_t             *cr,
              const SluicePalette *palette,
              double               x0,
              double               y0,
              double               x1,
              double               y1)
{
  const SluiceColor *lead = &palette->lead;

  cairo_save (cr);
  cairo_set_source_rgba (cr, lead->red, lead->green, lead->blue, 0.6);
  cairo_fill_preserve (cr);
  cairo_clip (cr);
  stroke_hatching (cr, palette, x0, y0, x1, y1);
  cairo_restore (cr);
}

/* The span of sample @i in view, and its band's top and bottom; FALSE when
 * it has no failed items or is out of view. */
static gboolean
sample_band (const SluiceChartPass *pass,
             guint                  i,
             guint                  n,
             gint64                 end,
             SluiceRect            *band)
{
  const SluiceRect *plot = &pass->chart.plot;
  gint64 time, next = end;
  guint lead, failed = sluice_timeline_get_failed (pass->model, i);
  double x0, x1;

  sluice_timeline_get_sample (pass->model, i, &time, NULL, NULL, &lead);
  if (i + 1 < n)
    sluice_timeline_get_sample (pass->model, i + 1, &next, NULL, NULL, NULL);
  if (failed == 0 || time > end || MIN (next, end) < pass->t0)
    return FALSE;

  x0 = _sluice_render_time_to_x (plot, pass->t0, pass->t1, MAX (time, pass->t0));
  x1 = _sluice_render_time_to_x (plot, pass->t0, pass->t1, MIN (next, end));
  band->x = x0;
  band->width = MAX (x1 - x0, 0.);
  band->y = _sluice_chart_count_to_y (&pass->chart, lead);
  band->height = _sluice_chart_count_to_y (&pass->chart, lead - failed) - band->y;
  return TRUE;
}

/* Draws the band, over the lead's line and under the other series. */
void
_sluice_chart_draw_failed (const SluiceChartPass *pass)
{
  cairo_t *cr = pass->cr;
  guint n = sluice_timeline_get_n_samples (pass->model);
  gint64 end = MIN (pass->last, pass->t1);
  double x0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  SluiceRect band;

  if (pass->failed == SLUICE_CHART_FAILED_NONE)
    return;

  cairo_new_path (cr);
  for (guint i = sluice_timeline_find_sample (pass->model, pass->t0); i < n; i++)
    {
      if (!sample_band (pass, i, n, end, &band))
        {
          gint64 time;

          sluice_timeline_get_sample (pass->model, i, &time, NULL, NULL, NULL);
          if (time > end)
            break;
          continue;
        }
      cairo_rectangle (cr, band.x, band.y, band.width, band.height);
      x0 = MIN (x0, band.x);
      x1 = MAX (x1, band.x + band.width);
      y0 = MIN (y0, band.y);
      y1 = MAX (y1, band.y + band.height);
    }
  if (x0 < x1)
    fill_hatched (cr, pass->palette, x0, y0, x1, y1);
  cairo_new_path (cr);
}

/* Whether the band draws anything in @rect, for placing labels. */
gboolean
_sluice_chart_failed_in_rect (const SluiceChartPass *pass,
                              const SluiceRect      *rect)
{
  const SluiceRect *plot = &pass->chart.plot;
  guint n = sluice_timeline_get_n_samples (pass->model);
  gint64 end = MIN (pass->last, pass->t1);
  gint64 ta = _sluice_render_x_to_time (plot, pass->t0, pass->t1, rect->x);
  SluiceRect band;

  if (pass->failed == SLUICE_CHART_FAILED_NONE)
    return FALSE;

  for (guint i = sluice_timeline_find_sample (pass->model, MAX (ta, pass->t0)); i < n; i++)
    {
      if (!sample_band (pass, i, n, end, &band))
        {
          gint64 time;

          sluice_timeline_get_sample (pass->model, i, &time, NULL, NULL, NULL);
          if (time > end)
            break;
          continue;
        }
      if (band.x > rect->x + rect->width)
        break;
      if (band.x + band.width > rect->x && band.y < rect->y + rect->height && band.y + band.height > rect->y)
        return TRUE;
    }
  return FALSE;
}

/* The legend's swatch: a piece of the band. */
void
_sluice_chart_draw_failed_swatch (cairo_t             *cr,
                                  const SluicePalette *palette,
                                  double               x,
                                  double               y)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y - 4.5, 22., 10.);
  fill_hatched (cr, palette, x, y - 4.5, x + 22., y + 5.5);
  cairo_restore (cr);
}
