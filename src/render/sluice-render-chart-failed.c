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

/* The stripes, "\" (the other way from the lanes' hatching of retried
 * attempts): lines of 1.5 px in the background's colour, HATCH_SPACING
 * apart along x, through x - y = -@y1 (mod HATCH_SPACING), as the
 * strokes from the band's bottom edge would run. A repeating gradient
 * across them, with a pixel's ramp at each edge for antialiasing, so
 * that the band takes one fill: stroking lines clipped to a band of a
 * rectangle per pixel column has cairo intersect every line with every
 * rectangle, which costs as much as the run is long. */
static cairo_pattern_t *
hatching_pattern (const SluicePalette *palette,
                  double               y1)
{
  const SluiceColor *bg = &palette->background;
  /* Across the stripes, one period is HATCH_SPACING / sqrt 2 px. */
  double period = HATCH_SPACING / G_SQRT2;
  double half = 0.75 / period, ramp = 0.5 / period;
  double stops[][2] = {
    { 0., 1. }, { half - ramp, 1. }, { half + ramp, 0. },
    { 1. - half - ramp, 0. }, { 1. - half + ramp, 1. }, { 1., 1. },
  };
  cairo_pattern_t *pattern = cairo_pattern_create_linear (-y1, 0., -y1 + HATCH_SPACING / 2., -HATCH_SPACING / 2.);

  for (guint i = 0; i < G_N_ELEMENTS (stops); i++)
    cairo_pattern_add_color_stop_rgba (pattern, stops[i][0], bg->red, bg->green, bg->blue, stops[i][1]);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_REPEAT);
  return pattern;
}

/* Fills the path on @cr, translucent, and hatches it; @x0, @y0, @x1, @y1
 * bound it. */
static void
fill_hatched (cairo_t             *cr,
              const SluicePalette *palette,
              double               x0,
              double               y0,
              double               x1,
              double               y1)
{
  const SluiceColor *lead = &palette->lead;
  cairo_pattern_t *hatching = hatching_pattern (palette, y1);

  cairo_save (cr);
  cairo_set_source_rgba (cr, lead->red, lead->green, lead->blue, 0.6);
  cairo_fill_preserve (cr);
  cairo_set_source (cr, hatching);
  cairo_fill (cr);
  cairo_restore (cr);
  cairo_pattern_destroy (hatching);
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

/* The bands of the samples that fall within one pixel column, merged:
 * a long run has thousands of samples per column, and a path of one
 * rectangle each makes the fill and the hatching clipped to it cost as
 * much as the run is long. */
typedef struct {
  gboolean has;
  double   column;
  double   x0, x1, y0, y1;
} Column;

static void
column_flush (cairo_t *cr,
              Column  *column)
{
  if (column->has)
    cairo_rectangle (cr, column->x0, column->y0, column->x1 - column->x0, column->y1 - column->y0);
  column->has = FALSE;
}

static void
column_add (cairo_t          *cr,
            Column           *column,
            const SluiceRect *band)
{
  double x1 = band->x + band->width, y1 = band->y + band->height;
  double first = floor (band->x);

  /* Wider than its column: drawn as it is. */
  if (floor (MAX (x1 - 1e-9, band->x)) != first)
    {
      column_flush (cr, column);
      cairo_rectangle (cr, band->x, band->y, band->width, band->height);
      return;
    }
  if (column->has && column->column == first)
    {
      column->x0 = MIN (column->x0, band->x);
      column->x1 = MAX (column->x1, x1);
      column->y0 = MIN (column->y0, band->y);
      column->y1 = MAX (column->y1, y1);
      return;
    }
  column_flush (cr, column);
  *column = (Column) { TRUE, first, band->x, x1, band->y, y1 };
}

/* Draws the band, over the lead's line and under the other series. */
void
_sluice_chart_draw_failed (const SluiceChartPass *pass)
{
  cairo_t *cr = pass->cr;
  guint n = sluice_timeline_get_n_samples (pass->model);
  gint64 end = MIN (pass->last, pass->t1);
  double x0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  Column column = { FALSE };
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
      column_add (cr, &column, &band);
      x0 = MIN (x0, band.x);
      x1 = MAX (x1, band.x + band.width);
      y0 = MIN (y0, band.y);
      y1 = MAX (y1, band.y + band.height);
    }
  column_flush (cr, &column);
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
                                  double               y,
                                  double               length)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y - 4.5, length, 10.);
  fill_hatched (cr, palette, x, y - 4.5, x + length, y + 5.5);
  cairo_restore (cr);
}
