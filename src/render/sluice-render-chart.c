/* sluice-render-chart.c: queue depth, attempts in flight, lead and busy
 * workers over time, and the retry budget's token level
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-chart.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-render-private.h"

#define LEGEND_SWATCH_SPACE 28.  /* a line sample and the gap before its label */
#define LABEL_GAP           3.   /* between a limit line and its label */
#define LABEL_GAP_WIDE      5.   /* the same, clear of a series along the line */
#define LABEL_PAD_X         3.   /* the label's patch of background, either side */

typedef enum {
  SERIES_QUEUE,
  SERIES_IN_FLIGHT,
  SERIES_LEAD,
  SERIES_BUSY,
  N_SERIES,
  /* Not a count: the retry budget's tokens, scaled so that a full bucket
   * is at the top of the plot; only when the run has a budget. */
  SERIES_BUDGET = N_SERIES,
  N_LEGEND
} Series;

G_STATIC_ASSERT (N_SERIES == SLUICE_CHART_N_SERIES);
G_STATIC_ASSERT (N_LEGEND == SLUICE_CHART_N_LEGEND);

/* Everything one drawing pass needs. */
typedef struct {
  cairo_t             *cr;
  PangoLayout         *layout;
  const SluicePalette *palette;
  SluiceTimeline      *model;
  SluiceChartLayout    chart;
  gint64               t0, t1;
  gint64               last;          /* the series end here */
  gint64               max_tokens;    /* the budget's size in thousandths, or -1 */
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

static void get_series_labels (const char *labels[N_LEGEND],
                               gboolean    budget);

/* The chart's geometry; @budget: whether the legend has the retry
 * budget's entry. */
void
_sluice_chart_get_layout (double             width,
                          double             height,
                          guint              y_max,
                          gboolean           budget,
                          SluiceChartLayout *layout)
{
  const char *labels[N_LEGEND];

  layout->plot.x = SLUICE_RENDER_GUTTER;
  layout->plot.width = MAX (width - SLUICE_RENDER_GUTTER - SLUICE_RENDER_MARGIN, 1.);

  get_series_labels (labels, budget);
  layout->legend_height = _sluice_render_layout_key (labels, N_LEGEND, LEGEND_SWATCH_SPACE, layout->plot.x,
                                                     layout->plot.x + layout->plot.width,
                                                     layout->legend, &layout->legend_rows);

  layout->plot.y = layout->legend_height;
  layout->plot.height = MAX (height - layout->legend_height - SLUICE_RENDER_AXIS_HEIGHT, 1.);
  layout->y_max = MAX (y_max, 1);
}

static double
count_to_y (const SluiceChartLayout *chart,
            double                   count)
{
  return chart->plot.y + chart->plot.height * (1. - count / chart->y_max);
}

/* The budget's level as a count on the chart's scale: a full bucket at
 * the top of the plot. */
static double
tokens_to_count (const Pass *pass,
                 gint64      tokens)
{
  return (double) tokens / MAX (pass->max_tokens, 1) * pass->chart.y_max;
}

static guint
n_samples (const Pass *pass,
           Series      series)
{
  if (series == SERIES_BUDGET)
    return sluice_timeline_get_n_token_samples (pass->model);
  return sluice_timeline_get_n_samples (pass->model);
}

static guint
find_sample (const Pass *pass,
             Series      series,
             gint64      time)
{
  if (series == SERIES_BUDGET)
    return sluice_timeline_find_token_sample (pass->model, time);
  return sluice_timeline_find_sample (pass->model, time);
}

/* Sample @i of @series, as a count on the chart's scale. */
static double
sample_value (const Pass *pass,
              guint       i,
              Series      series,
              gint64     *time)
{
  guint values[N_SERIES];
  gint64 tokens;

  if (series == SERIES_BUDGET)
    {
      sluice_timeline_get_token_sample (pass->model, i, time, &tokens);
      return tokens_to_count (pass, tokens);
    }

  sluice_timeline_get_sample (pass->model, i, time, &values[SERIES_QUEUE],
                              &values[SERIES_IN_FLIGHT], &values[SERIES_LEAD]);
  values[SERIES_BUSY] = sluice_timeline_get_busy (pass->model, i);
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
    case SERIES_BUDGET:    return &palette->budget;
    case SERIES_BUSY:      return &palette->busy;
    case SERIES_LEAD:
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
 * a dash-dotted line. When the line steps
 * more often than a dash is long, dashes cannot be seen (and cairo dashes
 * such a path very slowly): it is drawn solid and thinner instead. */
static void
set_series_style (cairo_t             *cr,
                  const SluicePalette *palette,
                  Series               series,
                  gboolean             dense)
{
  static const double in_flight_dash[] = { 5., 3. };
  static const double budget_dash[] = { 9., 3., 2., 3. };
  static const double busy_dots[] = { 0., 5. };
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
    case SERIES_BUSY:
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
    case SERIES_IN_FLIGHT:
    case SERIES_BUDGET:
    default:
      sluice_palette_set_source (cr, color);
      if (dense)
        {
          cairo_set_line_width (cr, 1.25);
          break;
        }
      cairo_set_line_width (cr, series == SERIES_BUDGET ? 2. : 2.5);
      if (series == SERIES_BUDGET)
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
static double
series_reach (Series series)
{
  return series == SERIES_LEAD ? 3.5 : series == SERIES_BUSY ? 2.25 : 1.75;
}

static const char *
series_label (Series series)
{
  switch (series)
    {
    case SERIES_QUEUE:     return _("queued");
    case SERIES_IN_FLIGHT: return _("in flight");
    /* Translators: the chart's legend: the tokens left in the retry
     * budget, drawn with a full budget at the top of the chart */
    case SERIES_BUDGET:    return _("retry budget");
    /* Translators: the chart's legend: workers holding an item (an
     * attempt, its stop rounds or a backoff) */
    case SERIES_BUSY:      return _("busy workers");
    case SERIES_LEAD:
    default:               return _("pulled, unfinished (lead)");
    }
}

/* The legend's labels; the budget's only with @budget, else NULL. */
static void
get_series_labels (const char *labels[N_LEGEND],
                   gboolean    budget)
{
  for (Series s = 0; s < N_LEGEND; s++)
    labels[s] = s != SERIES_BUDGET || budget ? series_label (s) : NULL;
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
  guint n = n_samples (pass, series);
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (Tick));
  StepPath path = { pass->cr, ticks, FALSE };
  const SluiceRect *plot = &pass->chart.plot;
  gint64 end = MIN (pass->last, pass->t1);

  if (n == 0 || end < pass->t0)
    return;

  for (guint i = find_sample (pass, series, pass->t0); i < n; i++)
    {
      gint64 time;
      double value = sample_value (pass, i, series, &time);

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

/* ---- the lines' labels ---------------------------------------------------
 *
 * A limit's name goes next to its line, on a patch of background, where no
 * series is drawn: at the right end or the left end of the line, above it
 * or below it, else further along it; failing all that, where it hides the
 * least. The retry budget's level gets a label the same way, by where its
 * line ends. */

typedef enum {
  LABEL_CAPACITY,
  LABEL_BOUND,
  LABEL_BUDGET,
  N_LABELS
} Label;

/* The labels of one chart: their texts (NULL for a line not drawn), the y
 * of their lines, and where they go once placed (width 0: nowhere). */
typedef struct {
  char       *texts[N_LABELS];
  double      line_y[N_LABELS];
  SluiceRect  rects[N_LABELS];
} Labels;

/* Whether a series draws anything in @rect. A step line covers, over a
 * span of x, every value between its lowest and highest there. */
static gboolean
series_in_rect (const Pass       *pass,
                Series            series,
                const SluiceRect *rect)
{
  const SluiceRect *plot = &pass->chart.plot;
  guint n = n_samples (pass, series);
  gint64 end = MIN (pass->last, pass->t1);
  gint64 ta, tb, time;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  double reach = series_reach (series);

  if (n == 0 || end < pass->t0)
    return FALSE;

  /* A stroke reaches a little past the span's ends too. */
  ta = MAX (_sluice_render_x_to_time (plot, pass->t0, pass->t1, rect->x - reach), pass->t0);
  tb = MIN (_sluice_render_x_to_time (plot, pass->t0, pass->t1, rect->x + rect->width + reach), end);
  if (tb < ta)
    return FALSE;

  for (guint i = find_sample (pass, series, ta); i < n; i++)
    {
      double value = sample_value (pass, i, series, &time);

      if (time > tb)
        break;
      lo = MIN (lo, value);
      hi = MAX (hi, value);
    }
  if (lo > hi)
    return FALSE;

  return count_to_y (&pass->chart, hi) - reach < rect->y + rect->height &&
         count_to_y (&pass->chart, lo) + reach > rect->y;
}

static gboolean
rects_overlap (const SluiceRect *a,
               const SluiceRect *b)
{
  return a->width > 0. && b->width > 0. &&
         a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* What a label at @rect would hide: a series costs most, then another
 * label or the legend, then another labelled line. */
static double
label_cost (const Pass       *pass,
            const SluiceRect *rect,
            const Labels     *labels,
            Label             self)
{
  double cost = 0.;

  for (Series s = 0; s < N_LEGEND; s++)
    if (s != SERIES_BUDGET || pass->max_tokens >= 0)
      cost += series_in_rect (pass, s, rect) ? 100. : 0.;
  for (Label l = 0; l < N_LABELS; l++)
    {
      double y = labels->line_y[l];

      if (l == self || labels->texts[l] == NULL)
        continue;
      cost += rects_overlap (rect, &labels->rects[l]) ? 10. : 0.;
      cost += y >= rect->y && y < rect->y + rect->height ? 1. : 0.;
    }
  for (Series s = 0; s < N_LEGEND; s++)
    cost += rects_overlap (rect, &pass->chart.legend[s]) ? 10. : 0.;
  return cost;
}

/* The first place in order of preference that hides nothing, or the one
 * that hides least. A series that runs along the line itself (the lead's
 * wide band, say) pushes the label a little further off it. */
static void
place_label (const Pass *pass,
             Labels     *labels,
             Label       label)
{
  static const double gaps[] = { LABEL_GAP, LABEL_GAP_WIDE };
  const SluiceRect *plot = &pass->chart.plot;
  double line_y = labels->line_y[label];
  double text_width, text_height, w, right, left;
  double best_cost = G_MAXDOUBLE;
  SluiceRect *out = &labels->rects[label];
  guint n_slides = 8;

  _sluice_render_get_text_size (pass->layout, labels->texts[label], &text_width, &text_height);
  w = text_width + 2. * LABEL_PAD_X;
  /* Clear of the right edge, where a live view's "now" line usually is. */
  right = plot->x + plot->width - 14. - w;
  left = plot->x + 4.;

  *out = (SluiceRect) { MAX (right, left), line_y - LABEL_GAP - text_height, w, text_height };

  for (guint g = 0; g < G_N_ELEMENTS (gaps); g++)
    for (guint i = 0; i < n_slides + 2; i++)
      {
        /* The right end, the left end, then steps from right to left. */
        double x = i == 0 ? right : i == 1 ? left : right - (right - left) * (i - 1) / (n_slides + 1.);

        if (x < left && i > 0)
          break;
        for (guint below = 0; below < 2; below++)
          {
            SluiceRect rect = {
              x, below ? line_y + gaps[g] : line_y - gaps[g] - text_height, w, text_height,
            };
            double cost;

            /* Up into the legend's row if it is clear there, not past the
             * baseline. */
            if (rect.y < 0. || rect.y + rect.height > plot->y + plot->height)
              continue;
            /* Further off the line only to get clear of everything. */
            cost = label_cost (pass, &rect, labels, label) + g * 0.5;
            if (cost < best_cost)
              {
                best_cost = cost;
                *out = rect;
              }
            if (cost == 0.)
              return;
          }
      }
}

/* "3.5", "0.1": a number of tokens from thousandths, without trailing
 * zeros. */
static char *
format_tokens (gint64 thousandths)
{
  g_autofree char *text = g_strdup_printf ("%.3f", thousandths / 1000.);
  char *end = text + strlen (text);

  while (end > text && end[-1] == '0')
    *--end = '\0';
  if (end > text && !g_ascii_isdigit (end[-1]))
    *--end = '\0';
  return g_steal_pointer (&text);
}

/* The budget's level where its line ends: at the end of the series or of
 * the view. */
static gint64
budget_level (const Pass *pass)
{
  gint64 time, tokens;

  sluice_timeline_get_token_sample (pass->model,
                                    find_sample (pass, SERIES_BUDGET, MIN (pass->last, pass->t1)),
                                    &time, &tokens);
  return tokens;
}

static char *
budget_label_text (const Pass *pass,
                   gint64      tokens)
{
  g_autofree char *left = format_tokens (tokens);
  g_autofree char *size = format_tokens (pass->max_tokens);
  /* A whole number of tokens picks its plural form; a fraction takes the
   * form of 2, as "1.5 tokens" does. */
  gulong n = pass->max_tokens % 1000 == 0 ? (gulong) (pass->max_tokens / 1000) : 2;

  /* Translators: the label of the retry budget's line in the chart: the
   * tokens left, then the budget's size, both numbers such as 2.4 and 5 */
  return g_strdup_printf (ngettext ("retry budget: %s of %s token left",
                                     "retry budget: %s of %s tokens left", n),
                          left, size);
}

/* The labels of the limits and of the budget's level, placed. The lead
 * bound is the top line, usually in the clear; the capacity's label then
 * finds room around it, and the budget's around both. */
static void
place_labels (const Pass *pass,
              guint       queue_capacity,
              guint       lead_bound,
              Labels     *labels)
{
  static const Label order[] = { LABEL_BOUND, LABEL_CAPACITY, LABEL_BUDGET };
  gboolean budget = pass->max_tokens >= 0 && sluice_timeline_get_n_token_samples (pass->model) > 0 &&
                    MIN (pass->last, pass->t1) >= pass->t0;

  *labels = (Labels) { { NULL }, { -1., -1., -1. } };
  if (queue_capacity > 0)
    {
      /* Translators: the chart's queue capacity line; %u is the queue size */
      labels->texts[LABEL_CAPACITY] = g_strdup_printf (_("queue capacity %u"), queue_capacity);
      labels->line_y[LABEL_CAPACITY] = limit_y (pass, queue_capacity);
    }
  if (lead_bound > 0)
    {
      /* Translators: the chart's line at queue-size + workers + 1 */
      labels->texts[LABEL_BOUND] = g_strdup_printf (_("lead bound %u"), lead_bound);
      labels->line_y[LABEL_BOUND] = limit_y (pass, lead_bound);
    }
  if (budget)
    {
      gint64 tokens = budget_level (pass);

      labels->texts[LABEL_BUDGET] = budget_label_text (pass, tokens);
      labels->line_y[LABEL_BUDGET] = count_to_y (&pass->chart, tokens_to_count (pass, tokens));
    }

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (labels->texts[order[i]] != NULL)
      place_label (pass, labels, order[i]);
}

static void
clear_labels (Labels *labels)
{
  for (Label l = 0; l < N_LABELS; l++)
    g_clear_pointer (&labels->texts[l], g_free);
}

static void
draw_labels (const Pass *pass,
             guint       queue_capacity,
             guint       lead_bound)
{
  cairo_t *cr = pass->cr;
  Labels labels;

  place_labels (pass, queue_capacity, lead_bound, &labels);
  for (Label l = 0; l < N_LABELS; l++)
    {
      const SluiceRect *rect = &labels.rects[l];

      if (labels.texts[l] == NULL || rect->width <= 0.)
        continue;
      sluice_palette_set_source (cr, &pass->palette->background);
      cairo_rectangle (cr, rect->x, rect->y, rect->width, rect->height);
      cairo_fill (cr);
      sluice_palette_set_source (cr, &pass->palette->foreground);
      _sluice_render_draw_text (cr, pass->layout, labels.texts[l], rect->x + LABEL_PAD_X, rect->y, 0., 0.);
    }
  clear_labels (&labels);
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

/* A legend entry's swatch: a sample of its series' line. */
static void
draw_legend_swatch (cairo_t             *cr,
                    const SluicePalette *palette,
                    guint                series,
                    double               x,
                    double               y)
{
  set_series_style (cr, palette, series, FALSE);
  cairo_move_to (cr, x, y + 0.5);
  cairo_line_to (cr, x + 22., y + 0.5);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.);
}

/* The legend along the top, where _sluice_chart_get_layout() placed it: on
 * one row, or wrapped when the view is narrow or the labels long. */
static void
draw_legend (const Pass *pass)
{
  const char *labels[N_LEGEND];

  get_series_labels (labels, pass->max_tokens >= 0);
  _sluice_render_draw_key (pass->cr, pass->layout, pass->palette, labels, pass->chart.legend,
                           N_LEGEND, LEGEND_SWATCH_SPACE, draw_legend_swatch);
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
      guint queued, in_flight, lead, busy;

      sluice_timeline_get_sample (model, i, &time, &queued, &in_flight, &lead);
      if (time > t1)
        break;
      busy = sluice_timeline_get_busy (model, i);
      top = MAX (top, MAX (MAX (queued, busy), MAX (in_flight, lead)));
    }

  return MAX (top + 1, 2);
}

static void
init_pass (Pass           *pass,
           cairo_t        *cr,
           PangoLayout    *layout,
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
  *pass = (Pass) {
    .cr = cr,
    .layout = layout,
    .palette = sluice_palette_get (dark),
    .model = model,
    .t0 = t0,
    .t1 = t1,
    .last = now >= 0 ? now : sluice_timeline_get_end_time (model),
    .max_tokens = sluice_timeline_get_max_tokens (model),
  };
  _sluice_chart_get_layout (width, height,
                            compute_y_max (model, t0, t1, queue_capacity, lead_bound),
                            pass->max_tokens >= 0, &pass->chart);
}

/* Where sluice_render_chart() puts the labels (their patches of
 * background), for tests; width 0 for a limit of 0 or no budget. */
void
_sluice_chart_get_labels (double          width,
                          double          height,
                          SluiceTimeline *model,
                          gint64          t0,
                          gint64          t1,
                          gint64          now,
                          guint           queue_capacity,
                          guint           lead_bound,
                          SluiceRect     *capacity_rect,
                          SluiceRect     *bound_rect,
                          SluiceRect     *budget_rect)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autoptr(PangoLayout) layout = _sluice_render_create_layout (cr, FALSE);
  SluiceRect *outs[N_LABELS] = { capacity_rect, bound_rect, budget_rect };
  Labels labels;
  Pass pass;

  t1 = MAX (t1, t0 + 1);
  init_pass (&pass, cr, layout, width, height, model, t0, t1, now, queue_capacity, lead_bound, FALSE);
  place_labels (&pass, queue_capacity, lead_bound, &labels);
  for (Label l = 0; l < N_LABELS; l++)
    if (outs[l] != NULL)
      *outs[l] = labels.texts[l] != NULL ? labels.rects[l] : (SluiceRect) { 0., 0., 0., 0. };
  clear_labels (&labels);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
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
 * Draws the queue depth, the attempts in flight, the items pulled but
 * not yet finished and the busy workers (holding an item) as step lines
 * over time, with the two limits they must
 * stay under, a time axis in seconds, a count axis and a legend. When the
 * run's events carry a retry budget, its token level is drawn too, on its
 * own scale (a full budget at the top of the plot), with a label that
 * gives the tokens left and the budget's size.
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
  init_pass (&pass, cr, layout, width, height, model, t0, t1, now, queue_capacity, lead_bound, dark);

  _sluice_render_begin_view (cr, pass.palette, width, height);

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
  draw_series (&pass, SERIES_BUSY);
  draw_series (&pass, SERIES_IN_FLIGHT);
  if (pass.max_tokens >= 0)
    draw_series (&pass, SERIES_BUDGET);
  cairo_restore (cr);

  draw_labels (&pass, queue_capacity, lead_bound);
  _sluice_render_draw_now (cr, pass.palette, &pass.chart.plot, t0, t1, now);
  cairo_restore (cr);
}
