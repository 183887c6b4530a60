/* sluice-render-chart.c: queue depth, attempts in flight, lead and busy
 * workers over time, the results waiting for the caller and the retry
 * budget's token level
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-chart.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-render-chart-private.h"

#define LEGEND_SWATCH_SPACE  28.  /* a line sample and the gap before its label */
#define COMPACT_SWATCH_SPACE 15.  /* the same with short labels */
#define COMPACT_SPACING       6.  /* between entries with short labels */

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

/* Lays out @labels on the legend's one row from @left; whether every
 * entry that has a label got its place. */
gboolean
_sluice_chart_layout_strip (const char * const *labels,
                            double              swatch_space,
                            double              left,
                            double              right,
                            SluiceRect         *rects,
                            double             *height)
{
  SluiceKey key = {
    labels, SLUICE_CHART_N_LEGEND, swatch_space, NULL, 1, swatch_space < LEGEND_SWATCH_SPACE ? COMPACT_SPACING : 0.,
  };
  guint n_rows;
  double h = _sluice_render_layout_key (&key, left, right, rects, &n_rows);

  if (height != NULL)
    *height = h;
  for (guint i = 0; i < SLUICE_CHART_N_LEGEND; i++)
    if (labels[i] != NULL && rects[i].width <= 0.)
      return FALSE;
  return TRUE;
}

/* The chart's geometry, with the legend's entries for @extras: on one
 * row, in full from the plot's left edge when that is wide enough, else
 * in short labels and smaller swatches from the view's (those that still
 * do not fit are left out, the run's extras first). */
void
_sluice_chart_get_layout_full (double                   width,
                               double                   height,
                               guint                    y_max,
                               const SluiceChartExtras *extras,
                               SluiceChartLayout       *layout)
{
  const char *labels[SLUICE_CHART_N_LEGEND];
  double right;

  layout->plot.x = SLUICE_RENDER_GUTTER;
  layout->plot.width = MAX (width - SLUICE_RENDER_GUTTER - SLUICE_RENDER_MARGIN, 1.);
  right = layout->plot.x + layout->plot.width;

  layout->legend_form = SLUICE_CHART_LEGEND_FULL;
  _sluice_chart_get_legend_labels (labels, extras, layout->legend_form);
  if (!_sluice_chart_layout_strip (labels, _sluice_chart_swatch_space (layout->legend_form), layout->plot.x, right,
                                   layout->legend, &layout->legend_height))
    {
      layout->legend_form = SLUICE_CHART_LEGEND_SHORT;
      _sluice_chart_get_legend_labels (labels, extras, layout->legend_form);
      _sluice_chart_layout_strip (labels, _sluice_chart_swatch_space (layout->legend_form), SLUICE_CHART_STRIP_LEFT, right,
                                  layout->legend, &layout->legend_height);
    }
  layout->legend_rows = 1;

  layout->plot.y = layout->legend_height;
  layout->plot.height = MAX (height - layout->legend_height - SLUICE_RENDER_AXIS_HEIGHT, 1.);
  layout->y_max = MAX (y_max, 1);
}

/* The geometry of a chart without failed items in view. */
void
_sluice_chart_get_layout (double             width,
                          double             height,
                          guint              y_max,
                          gboolean           budget,
                          SluiceChartLayout *layout)
{
  SluiceChartExtras extras = { budget, FALSE, SLUICE_CHART_FAILED_NONE };

  _sluice_chart_get_layout_full (width, height, y_max, &extras, layout);
}

/* Whether the chart draws the results waiting for the caller: only when
 * more waited at once than the pool has workers. A caller that keeps up
 * reads each result in the instant it is handed back, or, when several
 * workers finish at once, soon after; only a slow caller lets more pile
 * up than the workers can finish together. So the charts of runs whose
 * caller keeps up look as they did, and the render layer, which knows
 * only the events, needs nothing but them to tell. */
gboolean
_sluice_chart_shows_waiting (SluiceTimeline *model)
{
  return sluice_timeline_get_max_waiting (model) > MAX (sluice_timeline_get_n_workers (model), 1);
}

/* Whether @series is drawn in this pass: the counts always, the budget's
 * level and the results waiting only when the run has them. */
gboolean
_sluice_chart_series_shown (const SluiceChartPass *pass,
                            SluiceChartSeries      series)
{
  switch (series)
    {
    case SLUICE_CHART_SERIES_BUDGET:  return pass->max_tokens >= 0;
    case SLUICE_CHART_SERIES_WAITING: return pass->waiting;
    default:                          return series < SLUICE_CHART_N_SERIES;
    }
}

double
_sluice_chart_count_to_y (const SluiceChartLayout *chart,
            double                   count)
{
  return chart->plot.y + chart->plot.height * (1. - count / chart->y_max);
}

/* The budget's level as a count on the chart's scale: a full bucket at
 * the top of the plot. */
double
_sluice_chart_tokens_to_count (const SluiceChartPass *pass,
                 gint64      tokens)
{
  return (double) tokens / MAX (pass->max_tokens, 1) * pass->chart.y_max;
}

guint
_sluice_chart_n_samples (const SluiceChartPass *pass,
           SluiceChartSeries      series)
{
  if (series == SLUICE_CHART_SERIES_BUDGET)
    return sluice_timeline_get_n_token_samples (pass->model);
  return sluice_timeline_get_n_samples (pass->model);
}

guint
_sluice_chart_find_sample (const SluiceChartPass *pass,
             SluiceChartSeries      series,
             gint64      time)
{
  if (series == SLUICE_CHART_SERIES_BUDGET)
    return sluice_timeline_find_token_sample (pass->model, time);
  return sluice_timeline_find_sample (pass->model, time);
}

/* Sample @i of @series, as a count on the chart's scale. */
double
_sluice_chart_sample_value (const SluiceChartPass *pass,
              guint       i,
              SluiceChartSeries      series,
              gint64     *time)
{
  guint values[SLUICE_CHART_N_SERIES];
  gint64 tokens;

  if (series == SLUICE_CHART_SERIES_BUDGET)
    {
      sluice_timeline_get_token_sample (pass->model, i, time, &tokens);
      return _sluice_chart_tokens_to_count (pass, tokens);
    }

  if (series == SLUICE_CHART_SERIES_WAITING)
    {
      sluice_timeline_get_sample (pass->model, i, time, NULL, NULL, NULL);
      return sluice_timeline_get_waiting (pass->model, i);
    }

  sluice_timeline_get_sample (pass->model, i, time, &values[SLUICE_CHART_SERIES_QUEUE],
                              &values[SLUICE_CHART_SERIES_IN_FLIGHT], &values[SLUICE_CHART_SERIES_LEAD]);
  values[SLUICE_CHART_SERIES_BUSY] = sluice_timeline_get_busy (pass->model, i);
  return values[series];
}

static const SluiceColor *
series_color (const SluicePalette *palette,
              SluiceChartSeries               series)
{
  switch (series)
    {
    case SLUICE_CHART_SERIES_QUEUE:     return &palette->queue;
    case SLUICE_CHART_SERIES_IN_FLIGHT: return &palette->in_flight;
    case SLUICE_CHART_SERIES_BUDGET:    return &palette->budget;
    case SLUICE_CHART_SERIES_BUSY:      return &palette->busy;
    case SLUICE_CHART_SERIES_WAITING:   return &palette->waiting;
    case SLUICE_CHART_SERIES_LEAD:
    default:               return &palette->lead;
    }
}

/* Besides colour, the series differ in form, so they stay apart in grey
 * scale and where they coincide: the lead is a wide translucent band under
 * the others, the queue a solid line, the attempts in flight a dashed one
 * drawn last, whose gaps let the queue show through; the busy workers a
 * dotted line of round dots under it, which shows in those gaps where the
 * two coincide and on its own where a worker holds an item between
 * attempts (a backoff, stop rounds); the retry budget is
 * a dash-dotted line; the results waiting for the caller a thick line of
 * long dashes over a faint tint of its colour down to the baseline
 * (draw_waiting_area()), the pile they make. When the line steps
 * more often than a dash is long, dashes cannot be seen (and cairo dashes
 * such a path very slowly): it is drawn solid and thinner instead. */
static void
set_series_style (cairo_t             *cr,
                  const SluicePalette *palette,
                  SluiceChartSeries               series,
                  gboolean             dense)
{
  static const double in_flight_dash[] = { 5., 3. };
  static const double budget_dash[] = { 9., 3., 2., 3. };
  static const double busy_dots[] = { 0., 5. };
  static const double waiting_dash[] = { 14., 4. };
  const SluiceColor *color = series_color (palette, series);

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  cairo_set_dash (cr, NULL, 0, 0.);
  switch (series)
    {
    case SLUICE_CHART_SERIES_LEAD:
      /* On a dark background a fainter band would turn to mud. */
      cairo_set_source_rgba (cr, color->red, color->green, color->blue,
                             sluice_color_get_luminance (&palette->background) < 0.2 ? 0.8 : 0.45);
      cairo_set_line_width (cr, 6.);
      break;
    case SLUICE_CHART_SERIES_QUEUE:
      sluice_palette_set_source (cr, color);
      cairo_set_line_width (cr, 2.5);
      break;
    case SLUICE_CHART_SERIES_BUSY:
      sluice_palette_set_source (cr, color);
      if (dense)
        {
          cairo_set_line_width (cr, 1.25);
          break;
        }
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
      cairo_set_line_width (cr, 3.5);
      cairo_set_dash (cr, busy_dots, G_N_ELEMENTS (busy_dots), 0.);
      break;
    case SLUICE_CHART_SERIES_WAITING:
      sluice_palette_set_source (cr, color);
      if (dense)
        {
          cairo_set_line_width (cr, 1.5);
          break;
        }
      cairo_set_line_width (cr, 3.);
      cairo_set_dash (cr, waiting_dash, G_N_ELEMENTS (waiting_dash), 0.);
      break;
    case SLUICE_CHART_SERIES_IN_FLIGHT:
    case SLUICE_CHART_SERIES_BUDGET:
    default:
      sluice_palette_set_source (cr, color);
      if (dense)
        {
          cairo_set_line_width (cr, 1.25);
          break;
        }
      cairo_set_line_width (cr, series == SLUICE_CHART_SERIES_BUDGET ? 2. : 2.5);
      if (series == SLUICE_CHART_SERIES_BUDGET)
        cairo_set_dash (cr, budget_dash, G_N_ELEMENTS (budget_dash), 0.);
      else
        cairo_set_dash (cr, in_flight_dash, G_N_ELEMENTS (in_flight_dash), 0.);
      break;
    }
}

/* How far a series' stroke reaches either side of its value: half its
 * width, and half a pixel for where the line falls on the pixel grid. A
 * thin line on a limit's value thus leaves room for the label right above
 * or below the limit line; the lead's band does not. */
double
_sluice_chart_series_reach (SluiceChartSeries series)
{
  switch (series)
    {
    case SLUICE_CHART_SERIES_LEAD:    return 3.5;
    case SLUICE_CHART_SERIES_BUSY:    return 2.25;
    case SLUICE_CHART_SERIES_WAITING: return 2.;
    default:                          return 1.75;
    }
}

const char *
_sluice_chart_series_label (SluiceChartSeries series)
{
  switch (series)
    {
    case SLUICE_CHART_SERIES_QUEUE:     return _("queued");
    case SLUICE_CHART_SERIES_IN_FLIGHT: return _("in flight");
    /* Translators: the chart's legend: the tokens left in the retry
     * budget, drawn with a full budget at the top of the chart */
    case SLUICE_CHART_SERIES_BUDGET:    return _("retry budget");
    /* Translators: the chart's legend: workers holding an item (an
     * attempt, its stop rounds or a backoff) */
    case SLUICE_CHART_SERIES_BUSY:      return _("busy workers");
    /* Translators: the chart's legend: results the pool finished and
     * handed back that the caller has not read yet */
    case SLUICE_CHART_SERIES_WAITING:   return _("results waiting for the caller");
    case SLUICE_CHART_SERIES_LEAD:
    default:               return _("pulled, unfinished (lead)");
    }
}

/* The legend's short labels, for a chart too narrow for the full ones. */
static const char *
series_short_label (SluiceChartSeries series)
{
  switch (series)
    {
    /* Translators: the chart's legend when it is narrow (a projector's
     * large text): as short as you can, one word if possible */
    case SLUICE_CHART_SERIES_QUEUE:     return C_("chart legend, short", "queued");
    /* Translators: the chart's legend when it is narrow: attempts running */
    case SLUICE_CHART_SERIES_IN_FLIGHT: return C_("chart legend, short", "in flight");
    /* Translators: the chart's legend when it is narrow: the retry
     * budget's tokens */
    case SLUICE_CHART_SERIES_BUDGET:    return C_("chart legend, short", "budget");
    /* Translators: the chart's legend when it is narrow: busy workers */
    case SLUICE_CHART_SERIES_BUSY:      return C_("chart legend, short", "busy");
    /* Translators: the chart's legend when it is narrow: results waiting
     * for the caller */
    case SLUICE_CHART_SERIES_WAITING:   return C_("chart legend, short", "waiting");
    /* Translators: the chart's legend when it is narrow: the items pulled
     * and not finished (the lead) */
    case SLUICE_CHART_SERIES_LEAD:
    default:                            return C_("chart legend, short", "lead");
    }
}

static const char *
legend_label (SluiceChartSeries     series,
              SluiceChartLegendForm form)
{
  return form == SLUICE_CHART_LEGEND_FULL ? _sluice_chart_series_label (series) : series_short_label (series);
}

/* The legend's labels in @form: the series', then those of @extras the
 * run has, NULL for the others. In SLUICE_CHART_LEGEND_VALUES, the short
 * ones (the readout replaces them by its values). */
void
_sluice_chart_get_legend_labels (const char              *labels[SLUICE_CHART_N_LEGEND],
                                 const SluiceChartExtras *extras,
                                 SluiceChartLegendForm    form)
{
  for (SluiceChartSeries s = 0; s < SLUICE_CHART_N_SERIES; s++)
    labels[s] = legend_label (s, form);
  labels[SLUICE_CHART_SERIES_BUDGET] = extras->budget ? legend_label (SLUICE_CHART_SERIES_BUDGET, form) : NULL;
  labels[SLUICE_CHART_SERIES_WAITING] = extras->waiting ? legend_label (SLUICE_CHART_SERIES_WAITING, form) : NULL;
  labels[SLUICE_CHART_LEGEND_FAILED] = form == SLUICE_CHART_LEGEND_FULL || extras->failed == SLUICE_CHART_FAILED_NONE
                                         ? _sluice_chart_failed_label (extras->failed)
                                         /* Translators: the chart's legend when it is narrow: the
                                          * lead's items that failed for good */
                                         : C_("chart legend, short", "failed");
}

/* The room a legend entry in @form gives its swatch and the gap after it:
 * a shorter sample of the line when the labels are short. */
double
_sluice_chart_swatch_space (SluiceChartLegendForm form)
{
  return form == SLUICE_CHART_LEGEND_FULL ? LEGEND_SWATCH_SPACE : COMPACT_SWATCH_SPACE;
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

/* Adds @series' step line in view to the current path; @x_start gets
 * where it starts. FALSE when nothing of it is in view. */
static gboolean
add_series_path (const SluiceChartPass *pass,
                 SluiceChartSeries      series,
                 StepPath              *path,
                 double                *x_start)
{
  guint n = _sluice_chart_n_samples (pass, series);
  const SluiceRect *plot = &pass->chart.plot;
  gint64 end = MIN (pass->last, pass->t1);

  if (n == 0 || end < pass->t0)
    return FALSE;

  for (guint i = _sluice_chart_find_sample (pass, series, pass->t0); i < n; i++)
    {
      gint64 time;
      double value = _sluice_chart_sample_value (pass, i, series, &time);
      double x = _sluice_render_time_to_x (plot, pass->t0, pass->t1, MAX (time, pass->t0));

      if (time > end)
        break;
      if (!path->started)
        *x_start = x;
      step_add (path, x, _sluice_chart_count_to_y (&pass->chart, value));
    }
  step_finish (path, _sluice_render_time_to_x (plot, pass->t0, pass->t1, end));
  return path->started;
}

static void
draw_series (const SluiceChartPass *pass,
             SluiceChartSeries      series)
{
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (Tick));
  StepPath path = { pass->cr, ticks, FALSE };
  double x_start;

  if (!add_series_path (pass, series, &path, &x_start))
    return;

  set_series_style (pass->cr, pass->palette, series, path.n_steps * 8. > pass->chart.plot.width);
  cairo_stroke (pass->cr);
  stroke_ticks (pass->cr, ticks);
}

/* The faint tint under the results waiting's line; stronger on a dark
 * background, where a faint one would not show. */
static void
set_waiting_tint (cairo_t             *cr,
                  const SluicePalette *palette)
{
  const SluiceColor *color = &palette->waiting;

  cairo_set_source_rgba (cr, color->red, color->green, color->blue,
                         sluice_color_get_luminance (&palette->background) < 0.2 ? 0.22 : 0.16);
}

/* The results waiting for the caller are a pile: a faint tint of their
 * colour under their line, down to the baseline, so that results that
 * wait long after the pool's lines have fallen to 0 fill the picture as
 * they fill memory, in colour and in grey alike. */
static void
draw_waiting_area (const SluiceChartPass *pass)
{
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (Tick));
  StepPath path = { pass->cr, ticks, FALSE };
  double base = _sluice_chart_count_to_y (&pass->chart, 0.);
  double x_start, x, y;

  if (!add_series_path (pass, SLUICE_CHART_SERIES_WAITING, &path, &x_start))
    return;

  cairo_get_current_point (pass->cr, &x, &y);
  cairo_line_to (pass->cr, x, base);
  cairo_line_to (pass->cr, x_start, base);
  cairo_close_path (pass->cr);
  set_waiting_tint (pass->cr, pass->palette);
  cairo_fill (pass->cr);
}

double
_sluice_chart_limit_y (const SluiceChartPass *pass,
         guint       value)
{
  return round (_sluice_chart_count_to_y (&pass->chart, value)) + 0.5;
}

/* A limit is a thin long-dashed reference line, drawn under the series:
 * it is the ceiling they must stay under, not data. */
static void
draw_limit_line (const SluiceChartPass        *pass,
                 const SluiceColor *color,
                 guint              value)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  double y = _sluice_chart_limit_y (pass, value);

  sluice_palette_set_source (cr, color);
  cairo_set_line_width (cr, 1.);
  cairo_set_dash (cr, (double[]) { 12., 4. }, 2, 0.);
  cairo_move_to (cr, plot->x, y);
  cairo_line_to (cr, plot->x + plot->width, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.);
}

static void
draw_limit_lines (const SluiceChartPass *pass)
{
  if (pass->queue_capacity > 0)
    draw_limit_line (pass, &pass->palette->capacity, pass->queue_capacity);
  if (pass->lead_bound > 0)
    draw_limit_line (pass, &pass->palette->bound, pass->lead_bound);
}

static void
draw_count_axis (const SluiceChartPass *pass)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  double step = MAX (1., _sluice_render_nice_step (pass->chart.y_max, plot->height / 28.));

  cairo_set_dash (cr, NULL, 0, 0.);
  cairo_set_line_width (cr, 1.);
  for (double v = 0.; v <= pass->chart.y_max; v += step)
    {
      double y = round (_sluice_chart_count_to_y (&pass->chart, v)) + 0.5;
      g_autofree char *label = g_strdup_printf ("%.0f", v);

      sluice_palette_set_source (cr, &pass->palette->grid);
      cairo_move_to (cr, plot->x, y);
      cairo_line_to (cr, plot->x + plot->width, y);
      cairo_stroke (cr);
      sluice_palette_set_source (cr, &pass->palette->muted);
      _sluice_render_draw_text (cr, pass->layout, label, plot->x - 6., y, 1., 0.5);
    }
}

/* A legend entry's swatch, @length long: a sample of its series' line,
 * or of the failed items' band. */
static void
draw_swatch (cairo_t             *cr,
             const SluicePalette *palette,
             guint                series,
             double               x,
             double               y,
             double               length)
{
  if (series == SLUICE_CHART_LEGEND_FAILED)
    {
      _sluice_chart_draw_failed_swatch (cr, palette, x, y, length);
      return;
    }
  if (series == SLUICE_CHART_SERIES_WAITING)
    {
      /* The tint under the line, as in the plot. */
      set_waiting_tint (cr, palette);
      cairo_rectangle (cr, x, y + 0.5, length, 5.);
      cairo_fill (cr);
    }
  set_series_style (cr, palette, series, FALSE);
  cairo_move_to (cr, x, y + 0.5);
  cairo_line_to (cr, x + length, y + 0.5);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.);
}

static void
draw_legend_swatch (cairo_t             *cr,
                    const SluicePalette *palette,
                    guint                series,
                    double               x,
                    double               y)
{
  draw_swatch (cr, palette, series, x, y, LEGEND_SWATCH_SPACE - 6.);
}

static void
draw_compact_swatch (cairo_t             *cr,
                     const SluicePalette *palette,
                     guint                series,
                     double               x,
                     double               y)
{
  draw_swatch (cr, palette, series, x, y, COMPACT_SWATCH_SPACE - 4.);
}

/* Draws the legend's (or the readout's) entries in @labels where @rects
 * places them, with the swatches of @form. */
void
_sluice_chart_draw_strip (const SluiceChartPass *pass,
                          const char * const    *labels,
                          SluiceChartLegendForm  form,
                          const SluiceRect      *rects)
{
  SluiceKey key = {
    labels, SLUICE_CHART_N_LEGEND, _sluice_chart_swatch_space (form),
    form == SLUICE_CHART_LEGEND_FULL ? draw_legend_swatch : draw_compact_swatch, 1,
  };

  _sluice_render_draw_key (pass->cr, pass->layout, pass->palette, &key, rects);
}

/* The legend along the top, where _sluice_chart_get_layout() placed it. */
static void
draw_legend (const SluiceChartPass *pass)
{
  const char *labels[SLUICE_CHART_N_LEGEND];

  _sluice_chart_get_legend_labels (labels, &(SluiceChartExtras) { pass->max_tokens >= 0, pass->waiting, pass->failed },
                                   pass->chart.legend_form);
  _sluice_chart_draw_strip (pass, labels, pass->chart.legend_form, pass->chart.legend);
}

/* The scale fits the limits and the highest value in view (of the
 * results waiting too, when they are drawn), with room above so that a
 * series at its limit is not drawn on the plot's edge. */
static guint
compute_y_max (SluiceTimeline          *model,
               gint64                   t0,
               gint64                   t1,
               const SluiceChartLimits *limits,
               gboolean                 waiting)
{
  guint n = sluice_timeline_get_n_samples (model);
  guint top = MAX (limits->queue_capacity, limits->lead_bound);

  for (guint i = sluice_timeline_find_sample (model, t0); i < n; i++)
    {
      gint64 time;
      guint queued, in_flight, lead, busy;

      sluice_timeline_get_sample (model, i, &time, &queued, &in_flight, &lead);
      if (time > t1)
        break;
      busy = sluice_timeline_get_busy (model, i);
      top = MAX (top, MAX (MAX (queued, busy), MAX (in_flight, lead)));
      if (waiting)
        top = MAX (top, sluice_timeline_get_waiting (model, i));
    }

  return MAX (top + 1, 2);
}

/* Lays the chart out for @frame, with its span at least a microsecond
 * long. */
void
_sluice_chart_init_pass (SluiceChartPass         *pass,
                         cairo_t                 *cr,
                         PangoLayout             *layout,
                         SluiceTimeline          *model,
                         const SluiceRenderFrame *frame,
                         const SluiceChartLimits *limits)
{
  gint64 t0 = frame->t0;
  gint64 t1 = MAX (frame->t1, t0 + 1);

  *pass = (SluiceChartPass) {
    .cr = cr,
    .layout = layout,
    .palette = sluice_palette_get (frame->palette),
    .model = model,
    .t0 = t0,
    .t1 = t1,
    .last = frame->now >= 0 ? frame->now : sluice_timeline_get_end_time (model),
    .max_tokens = sluice_timeline_get_max_tokens (model),
    .waiting = _sluice_chart_shows_waiting (model),
    .queue_capacity = limits->queue_capacity,
    .lead_bound = limits->lead_bound,
  };
  pass->failed = _sluice_chart_find_failed (model, t0, MIN (pass->last, t1), limits->lead_bound);
  _sluice_chart_get_layout_full (frame->width, frame->height, compute_y_max (model, t0, t1, limits, pass->waiting),
                                 &(SluiceChartExtras) { pass->max_tokens >= 0, pass->waiting, pass->failed },
                                 &pass->chart);
  pass->moments = _sluice_chart_place_moments (model, layout, &pass->chart.plot, frame->width, t0, t1);
}

void
_sluice_chart_clear_pass (SluiceChartPass *pass)
{
  g_clear_pointer (&pass->moments, g_array_unref);
}

/* A pass without a view's cairo_t, for hit testing and tests: its layout
 * measures text as drawing does, in the light palette (the layout does
 * not depend on it). Ends with _sluice_chart_end_offline_pass(). */
void
_sluice_chart_begin_offline_pass (SluiceChartPass         *pass,
                                  SluiceTimeline          *model,
                                  const SluiceRenderFrame *frame,
                                  const SluiceChartLimits *limits)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  SluiceRenderFrame light = *frame;

  cairo_surface_destroy (surface);
  light.palette = SLUICE_PALETTE_LIGHT;
  _sluice_chart_init_pass (pass, cr, _sluice_render_create_layout (cr, FALSE), model, &light, limits);
}

void
_sluice_chart_end_offline_pass (SluiceChartPass *pass)
{
  g_object_unref (pass->layout);
  cairo_destroy (pass->cr);
  _sluice_chart_clear_pass (pass);
}

/* The chart's geometry as sluice_render_chart() lays it out for @model. */
void
_sluice_chart_get_model_layout (SluiceTimeline          *model,
                                const SluiceRenderFrame *frame,
                                const SluiceChartLimits *limits,
                                SluiceChartLayout       *layout)
{
  SluiceChartPass pass;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  *layout = pass.chart;
  _sluice_chart_end_offline_pass (&pass);
}

/* Where the moments' markers and labels go. */
GArray *
_sluice_chart_get_moments (SluiceTimeline          *model,
                           const SluiceRenderFrame *frame,
                           const SluiceChartLimits *limits)
{
  SluiceChartPass pass;
  GArray *moments;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  moments = g_steal_pointer (&pass.moments);
  _sluice_chart_end_offline_pass (&pass);
  return moments;
}

/**
 * sluice_render_chart_get_limits:
 * @model: the run
 *
 * The limits @model's run started with (from its run-start event), as
 * the chart view draws them.
 *
 * Returns: the queue capacity and the lead bound, 0 for those not known
 */
SluiceChartLimits
sluice_render_chart_get_limits (SluiceTimeline *model)
{
  static const SluiceChartLimits none = { 0, 0 };

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), none);

  return (SluiceChartLimits) {
    sluice_timeline_get_queue_capacity (model), sluice_timeline_get_lead_bound (model),
  };
}

/**
 * sluice_render_chart:
 * @cr: the context to draw on
 * @model: the run
 * @frame: the view's size, the span of time across the plot, the clock
 *   (the series run up to it and the "now" line is drawn there; negative
 *   for neither: the series end at the last event) and the palette
 * @limits: the pool's limits, drawn as lines
 *
 * Draws the queue depth, the attempts in flight, the items pulled but
 * not yet finished and the busy workers (holding an item) as step lines
 * over time, with the two limits they must stay under, a time axis in
 * seconds, a count axis and a legend. When more results waited for the
 * caller at once than the pool has workers (a slow caller, see
 * sluice_timeline_get_waiting()), those are drawn too, as a line over a
 * tint, with their own legend entry, and the count axis reaches their
 * peak. When the run's events carry a retry budget, its token level is drawn too, on its
 * own scale (a full budget at the top of the plot), with a label that
 * gives the tokens left and the budget's size. The part of the lead that
 * failed for good is hatched (and the legend says when it is what takes
 * the lead past its bound), and the run's moments (stop requests, drains,
 * cancellations, fatal errors, shutdown deadlines, the end) are marked on
 * the time axis.
 */
void
sluice_render_chart (cairo_t                 *cr,
                     SluiceTimeline          *model,
                     const SluiceRenderFrame *frame,
                     const SluiceChartLimits *limits)
{
  sluice_render_chart_with_pointer (cr, model, frame, limits, -1.);
}

/**
 * sluice_render_chart_with_pointer:
 * @cr: the context to draw on
 * @model: the run
 * @frame: as for sluice_render_chart()
 * @limits: as for sluice_render_chart()
 * @pointer_x: where the pointer is, in view coordinates; negative for
 *   nowhere
 *
 * Draws the chart as sluice_render_chart() does and, with the pointer
 * over the plot, a guide line at the pointer's time and, in the legend's
 * place on its row above the plot, the legend's entries with their counts
 * there and the time (see sluice_render_chart_get_readout_rect()): the
 * readout never covers the series.
 */
void
sluice_render_chart_with_pointer (cairo_t                 *cr,
                                  SluiceTimeline          *model,
                                  const SluiceRenderFrame *frame,
                                  const SluiceChartLimits *limits,
                                  double                   pointer_x)
{
  g_autoptr(PangoLayout) layout = NULL;
  SluiceChartPass pass;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (SLUICE_IS_TIMELINE (model));
  g_return_if_fail (frame != NULL && limits != NULL);

  layout = _sluice_render_create_layout (cr, FALSE);
  _sluice_chart_init_pass (&pass, cr, layout, model, frame, limits);

  _sluice_render_begin_view (cr, pass.palette, frame->width, frame->height);

  draw_count_axis (&pass);
  _sluice_chart_draw_time_axis (&pass);
  /* With the pointer over the plot, the readout takes the legend's row. */
  if (!_sluice_chart_draw_readout_strip (&pass, pointer_x))
    draw_legend (&pass);

  cairo_save (cr);
  /* Room for half a line width outside the plot: a series at 0 sits on
   * the baseline and must not lose half its stroke. */
  cairo_rectangle (cr, pass.chart.plot.x, pass.chart.plot.y - 2.,
                   pass.chart.plot.width + 2., pass.chart.plot.height + 4.);
  cairo_clip (cr);
  draw_limit_lines (&pass);
  _sluice_chart_draw_moment_lines (&pass);
  if (pass.waiting)
    draw_waiting_area (&pass);
  draw_series (&pass, SLUICE_CHART_SERIES_LEAD);
  _sluice_chart_draw_failed (&pass);
  if (pass.waiting)
    draw_series (&pass, SLUICE_CHART_SERIES_WAITING);
  draw_series (&pass, SLUICE_CHART_SERIES_QUEUE);
  draw_series (&pass, SLUICE_CHART_SERIES_BUSY);
  draw_series (&pass, SLUICE_CHART_SERIES_IN_FLIGHT);
  if (pass.max_tokens >= 0)
    draw_series (&pass, SLUICE_CHART_SERIES_BUDGET);
  cairo_restore (cr);

  _sluice_chart_draw_moment_marks (&pass);
  _sluice_chart_draw_labels (&pass);
  _sluice_render_draw_now (cr, pass.palette, &pass.chart.plot, pass.t0, pass.t1, frame->now);
  _sluice_chart_draw_readout (&pass, pointer_x);
  cairo_restore (cr);
  _sluice_chart_clear_pass (&pass);
}

/**
 * sluice_render_chart_get_plot:
 * @model: the run
 * @frame: as for sluice_render_chart(); its palette does not matter
 * @limits: as for sluice_render_chart()
 * @plot: (out): where sluice_render_chart() draws the series
 *
 * For layers drawn over the chart, such as sluice_render_draw_playhead().
 */
void
sluice_render_chart_get_plot (SluiceTimeline          *model,
                              const SluiceRenderFrame *frame,
                              const SluiceChartLimits *limits,
                              cairo_rectangle_t       *plot)
{
  SluiceChartLayout layout;

  g_return_if_fail (SLUICE_IS_TIMELINE (model));
  g_return_if_fail (frame != NULL && limits != NULL);
  g_return_if_fail (plot != NULL);

  _sluice_chart_get_model_layout (model, frame, limits, &layout);
  *plot = (cairo_rectangle_t) { layout.plot.x, layout.plot.y, layout.plot.width, layout.plot.height };
}
