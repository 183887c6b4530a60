/* sluice-render-chart.c: queue depth, attempts in flight and lead over time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-chart.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-render-private.h"

#define LEGEND_HEIGHT   24.

typedef enum {
  SERIES_QUEUE,
  SERIES_IN_FLIGHT,
  SERIES_LEAD,
  N_SERIES
} Series;

/* Everything one drawing pass needs. */
typedef struct {
  cairo_t             *cr;
  PangoLayout         *layout;
  const SluicePalette *palette;
  SluiceTimeline      *model;
  SluiceChartLayout    chart;
  gint64               t0, t1;
  gint64               last;          /* the series end here */
} Pass;

/* A step line under construction. Samples that fall in one pixel column
 * collapse: the line goes through each column's last value only, so it
 * never turns back on itself (cairo tessellates such a wide, self-
 * overlapping stroke very slowly), and a column whose values went beyond
 * where the line enters and leaves it gets a vertical tick, drawn apart,
 * so that short peaks stay visible. */
typedef struct {
  cairo_t *cr;
  GArray  *ticks;          /* Tick: the columns' extremes */
  gboolean started;
  guint    n_steps;        /* columns where the value changed */
  double   column;
  double   x;
  double   y_enter, y_min, y_max, y_exit;
} StepPath;

typedef struct {
  double x, y_min, y_max;
} Tick;

void
_sluice_chart_get_layout (double             width,
                          double             height,
                          guint              y_max,
                          SluiceChartLayout *layout)
{
  layout->plot.x = SLUICE_RENDER_GUTTER;
  layout->plot.y = LEGEND_HEIGHT;
  layout->plot.width = MAX (width - SLUICE_RENDER_GUTTER - SLUICE_RENDER_MARGIN, 1.);
  layout->plot.height = MAX (height - LEGEND_HEIGHT - SLUICE_RENDER_AXIS_HEIGHT, 1.);
  layout->y_max = MAX (y_max, 1);
}

static double
count_to_y (const SluiceChartLayout *chart,
            double                   count)
{
  return chart->plot.y + chart->plot.height * (1. - count / chart->y_max);
}

static guint
sample_value (SluiceTimeline *model,
              guint           i,
              Series          series,
              gint64         *time)
{
  guint values[N_SERIES];

  sluice_timeline_get_sample (model, i, time, &values[SERIES_QUEUE],
                              &values[SERIES_IN_FLIGHT], &values[SERIES_LEAD]);
  return values[series];
}

static const SluiceColor *
series_color (const SluicePalette *palette,
              Series               series)
{
  switch (series)
    {
    case SERIES_QUEUE:     return &palette->queue;
    case SERIES_IN_FLIGHT: return &palette->in_flight;
    case SERIES_LEAD:
    default:               return &palette->lead;
    }
}

/* Besides colour, the series differ in form, so they stay apart in grey
 * scale and where they coincide: the lead is a wide translucent band under
 * the others, the queue a solid line, the attempts in flight a dashed one
 * drawn last, whose gaps let the queue show through. When the line steps
 * more often than a dash is long, dashes cannot be seen (and cairo dashes
 * such a path very slowly): it is drawn solid and thinner instead. */
static void
set_series_style (cairo_t             *cr,
                  const SluicePalette *palette,
                  Series               series,
                  gboolean             dense)
{
  static const double in_flight_dash[] = { 5., 3. };
  const SluiceColor *color = series_color (palette, series);

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_dash (cr, NULL, 0, 0.);
  switch (series)
    {
    case SERIES_LEAD:
      /* On a dark background a fainter band would turn to mud. */
      cairo_set_source_rgba (cr, color->red, color->green, color->blue,
                             sluice_color_get_luminance (&palette->background) < 0.2 ? 0.8 : 0.45);
      cairo_set_line_width (cr, 6.);
      break;
    case SERIES_QUEUE:
      sluice_palette_set_source (cr, color);
      cairo_set_line_width (cr, 2.5);
      break;
    case SERIES_IN_FLIGHT:
    default:
      sluice_palette_set_source (cr, color);
      if (dense)
        {
          cairo_set_line_width (cr, 1.25);
          break;
        }
      cairo_set_line_width (cr, 2.5);
      cairo_set_dash (cr, in_flight_dash, G_N_ELEMENTS (in_flight_dash), 0.);
      break;
    }
}

static const char *
series_label (Series series)
{
  switch (series)
    {
    case SERIES_QUEUE:     return _("queued");
    case SERIES_IN_FLIGHT: return _("in flight");
    case SERIES_LEAD:
    default:               return _("pulled, unfinished (lead)");
    }
}

static void
step_close_column (StepPath *path)
{
  cairo_line_to (path->cr, path->x, path->y_exit);
  path->n_steps += path->y_exit != path->y_enter;
  if (path->y_min < MIN (path->y_enter, path->y_exit) || path->y_max > MAX (path->y_enter, path->y_exit))
    {
      Tick tick = { path->x, path->y_min, path->y_max };

      g_array_append_val (path->ticks, tick);
    }
}

static void
step_add (StepPath *path,
          double    x,
          double    y)
{
  double column = floor (x);

  if (!path->started)
    {
      cairo_move_to (path->cr, x, y);
      path->started = TRUE;
      path->column = column;
      path->x = x;
      path->y_enter = path->y_min = path->y_max = path->y_exit = y;
      return;
    }

  if (column != path->column)
    {
      step_close_column (path);
      cairo_line_to (path->cr, x, path->y_exit);
      path->column = column;
      path->x = x;
      path->y_enter = path->y_min = path->y_max = path->y_exit;
    }

  path->y_min = MIN (path->y_min, y);
  path->y_max = MAX (path->y_max, y);
  path->y_exit = y;
}

static void
step_finish (StepPath *path,
             double    x_end)
{
  if (!path->started)
    return;
  step_close_column (path);
  cairo_line_to (path->cr, MAX (x_end, path->x), path->y_exit);
}

static void
stroke_ticks (cairo_t *cr,
              GArray  *ticks)
{
  if (ticks->len == 0)
    return;

  cairo_set_dash (cr, NULL, 0, 0.);
  for (guint i = 0; i < ticks->len; i++)
    {
      const Tick *tick = &g_array_index (ticks, Tick, i);

      cairo_move_to (cr, tick->x, tick->y_min);
      cairo_line_to (cr, tick->x, tick->y_max);
    }
  cairo_stroke (cr);
}

static void
draw_series (const Pass *pass,
             Series      series)
{
  guint n = sluice_timeline_get_n_samples (pass->model);
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (Tick));
  StepPath path = { pass->cr, ticks, FALSE };
  const SluiceRect *plot = &pass->chart.plot;
  gint64 end = MIN (pass->last, pass->t1);

  if (n == 0 || end < pass->t0)
    return;

  for (guint i = sluice_timeline_find_sample (pass->model, pass->t0); i < n; i++)
    {
      gint64 time;
      guint value = sample_value (pass->model, i, series, &time);

      if (time > end)
        break;
      step_add (&path, _sluice_render_time_to_x (plot, pass->t0, pass->t1, MAX (time, pass->t0)),
                count_to_y (&pass->chart, value));
    }
  step_finish (&path, _sluice_render_time_to_x (plot, pass->t0, pass->t1, end));

  set_series_style (pass->cr, pass->palette, series, path.n_steps * 8. > plot->width);
  cairo_stroke (pass->cr);
  stroke_ticks (pass->cr, ticks);
}

static double
limit_y (const Pass *pass,
         guint       value)
{
  return round (count_to_y (&pass->chart, value)) + 0.5;
}

/* A limit is a thin long-dashed reference line, drawn under the series:
 * it is the ceiling they must stay under, not data. */
static void
draw_limit_line (const Pass        *pass,
                 const SluiceColor *color,
                 guint              value)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  double y = limit_y (pass, value);

  sluice_palette_set_source (cr, color);
  cairo_set_line_width (cr, 1.);
  cairo_set_dash (cr, (double[]) { 12., 4. }, 2, 0.);
  cairo_move_to (cr, plot->x, y);
  cairo_line_to (cr, plot->x + plot->width, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.);
}

/* Its name goes at the right end, above the line, on a patch of
 * background so the series under it cannot garble the text. */
static void
draw_limit_label (const Pass *pass,
                  guint       value,
                  const char *label,
                  double      offset)
{
  cairo_t *cr = pass->cr;
  /* Clear of the right edge, where a live view's "now" line usually is. */
  double right = pass->chart.plot.x + pass->chart.plot.width - 12.;
  double y = limit_y (pass, value);
  double tw, th;

  _sluice_render_get_text_size (pass->layout, label, &tw, &th);
  sluice_palette_set_source (cr, &pass->palette->background);
  cairo_rectangle (cr, right - tw - 8. - offset, y - th - 1., tw + 6., th);
  cairo_fill (cr);
  sluice_palette_set_source (cr, &pass->palette->foreground);
  _sluice_render_draw_text (cr, pass->layout, label, right - 4. - offset, y - 1., 1., 1.);
}

static void
draw_limit_lines (const Pass *pass,
                  guint       queue_capacity,
                  guint       lead_bound)
{
  if (queue_capacity > 0)
    draw_limit_line (pass, &pass->palette->capacity, queue_capacity);
  if (lead_bound > 0)
    draw_limit_line (pass, &pass->palette->bound, lead_bound);
}

static void
draw_limit_labels (const Pass *pass,
                   guint       queue_capacity,
                   guint       lead_bound)
{
  /* TRANSLATORS: the chart's queue capacity line; %u is the queue size */
  g_autofree char *capacity = g_strdup_printf (_("queue capacity %u"), queue_capacity);
  /* TRANSLATORS: the chart's line at queue-size + workers + 1 */
  g_autofree char *bound = g_strdup_printf (_("lead bound %u"), lead_bound);
  double offset = 0.;

  /* When the two lines are close, their labels go side by side. */
  if (queue_capacity > 0 && lead_bound > 0 && fabs (limit_y (pass, queue_capacity) - limit_y (pass, lead_bound)) < 16.)
    {
      _sluice_render_get_text_size (pass->layout, capacity, &offset, NULL);
      offset += 12.;
    }

  if (queue_capacity > 0)
    draw_limit_label (pass, queue_capacity, capacity, 0.);
  if (lead_bound > 0)
    draw_limit_label (pass, lead_bound, bound, offset);
}

static void
draw_count_axis (const Pass *pass)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  double step = MAX (1., _sluice_render_nice_step (pass->chart.y_max, plot->height / 28.));

  cairo_set_dash (cr, NULL, 0, 0.);
  cairo_set_line_width (cr, 1.);
  for (double v = 0.; v <= pass->chart.y_max; v += step)
    {
      double y = round (count_to_y (&pass->chart, v)) + 0.5;
      g_autofree char *label = g_strdup_printf ("%.0f", v);

      sluice_palette_set_source (cr, &pass->palette->grid);
      cairo_move_to (cr, plot->x, y);
      cairo_line_to (cr, plot->x + plot->width, y);
      cairo_stroke (cr);
      sluice_palette_set_source (cr, &pass->palette->muted);
      _sluice_render_draw_text (cr, pass->layout, label, plot->x - 6., y, 1., 0.5);
    }
}

static void
draw_legend (const Pass *pass)
{
  cairo_t *cr = pass->cr;
  double x = pass->chart.plot.x;
  double y = LEGEND_HEIGHT / 2. - 1.;

  for (Series s = 0; s < N_SERIES; s++)
    {
      double tw;

      set_series_style (cr, pass->palette, s, FALSE);
      cairo_move_to (cr, x, y + 0.5);
      cairo_line_to (cr, x + 22., y + 0.5);
      cairo_stroke (cr);

      cairo_set_dash (cr, NULL, 0, 0.);
      sluice_palette_set_source (cr, &pass->palette->foreground);
      _sluice_render_get_text_size (pass->layout, series_label (s), &tw, NULL);
      _sluice_render_draw_text (cr, pass->layout, series_label (s), x + 28., y, 0., 0.5);
      x += 28. + tw + 18.;
    }
}

/* The scale fits the limits and the highest value in view, with room above
 * so that a series at its limit is not drawn on the plot's edge. */
static guint
compute_y_max (SluiceTimeline *model,
               gint64          t0,
               gint64          t1,
               guint           queue_capacity,
               guint           lead_bound)
{
  guint n = sluice_timeline_get_n_samples (model);
  guint top = MAX (queue_capacity, lead_bound);

  for (guint i = sluice_timeline_find_sample (model, t0); i < n; i++)
    {
      gint64 time;
      guint queued, in_flight, lead;

      sluice_timeline_get_sample (model, i, &time, &queued, &in_flight, &lead);
      if (time > t1)
        break;
      top = MAX (top, MAX (queued, MAX (in_flight, lead)));
    }

  return MAX (top + 1, 2);
}

/**
 * sluice_render_chart:
 * @cr: the context to draw on
 * @width: the view's width
 * @height: the view's height
 * @model: the run
 * @t0: the time at the left edge of the plot, in clock microseconds
 * @t1: the time at the right edge
 * @now: the clock's time: the series run up to it and the "now" line is
 *   drawn there; negative for neither (the series end at the last event)
 * @queue_capacity: the queue size, drawn as a line; 0 for none
 * @lead_bound: `queue-size + workers + 1`, drawn as a line; 0 for none
 * @dark: whether to use the dark palette
 *
 * Draws the queue depth, the attempts in flight and the items pulled but
 * not yet finished as step lines over time, with the two limits they must
 * stay under, a time axis in seconds, a count axis and a legend.
 */
void
sluice_render_chart (cairo_t        *cr,
                     double          width,
                     double          height,
                     SluiceTimeline *model,
                     gint64          t0,
                     gint64          t1,
                     gint64          now,
                     guint           queue_capacity,
                     guint           lead_bound,
                     gboolean        dark)
{
  g_autoptr(PangoLayout) layout = NULL;
  Pass pass;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (SLUICE_IS_TIMELINE (model));

  t1 = MAX (t1, t0 + 1);
  layout = _sluice_render_create_layout (cr, FALSE);
  pass = (Pass) {
    .cr = cr,
    .layout = layout,
    .palette = sluice_palette_get (dark),
    .model = model,
    .t0 = t0,
    .t1 = t1,
    .last = now >= 0 ? now : sluice_timeline_get_end_time (model),
  };
  _sluice_chart_get_layout (width, height,
                            compute_y_max (model, t0, t1, queue_capacity, lead_bound),
                            &pass.chart);

  /* The view owns its rectangle and no more: it may share a surface. */
  cairo_save (cr);
  cairo_rectangle (cr, 0., 0., width, height);
  cairo_clip (cr);
  sluice_palette_set_source (cr, &pass.palette->background);
  cairo_paint (cr);

  draw_count_axis (&pass);
  _sluice_render_draw_time_axis (cr, layout, pass.palette, &pass.chart.plot, t0, t1);
  draw_legend (&pass);

  cairo_save (cr);
  /* Room for half a line width outside the plot: a series at 0 sits on
   * the baseline and must not lose half its stroke. */
  cairo_rectangle (cr, pass.chart.plot.x, pass.chart.plot.y - 2.,
                   pass.chart.plot.width + 2., pass.chart.plot.height + 4.);
  cairo_clip (cr);
  draw_limit_lines (&pass, queue_capacity, lead_bound);
  draw_series (&pass, SERIES_LEAD);
  draw_series (&pass, SERIES_QUEUE);
  draw_series (&pass, SERIES_IN_FLIGHT);
  cairo_restore (cr);

  draw_limit_labels (&pass, queue_capacity, lead_bound);
  _sluice_render_draw_now (cr, pass.palette, &pass.chart.plot, t0, t1, now);
  cairo_restore (cr);
}
