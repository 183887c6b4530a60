/* sluice-render-chart-labels.c: the chart's labels on its limit lines and
 * on the retry budget's level, placed where they hide nothing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-render-chart-private.h"

#define LABEL_GAP           3.   /* between a limit line and its label */
#define LABEL_GAP_WIDE      5.   /* the same, clear of a series along the line */
#define LABEL_PAD_X         3.   /* the label's patch of background, either side */

/* What a label's place costs: text over text (another label, the legend,
 * a moment's marker) cannot be read at all, so it is worse than hiding
 * any series; a series, or the lead's failed items, costs more than a
 * moment's line, which costs more than another labelled line. */
#define COST_TEXT           1000.
#define COST_SERIES         100.
#define COST_MOMENT_LINE    50.
#define COST_LINE           1.

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

/* The labels of one chart: their texts (NULL for a line not drawn), the
 * shorter ones tried where the full ones would cover a series (NULL: none),
 * the y of their lines, and where they go once placed (width 0: nowhere). */
typedef struct {
  char       *texts[N_LABELS];
  char       *short_texts[N_LABELS];
  double      line_y[N_LABELS];
  SluiceRect  rects[N_LABELS];
} Labels;

/* Whether a series draws anything in @rect. A step line covers, over a
 * span of x, every value between its lowest and highest there. */
gboolean
_sluice_chart_series_in_rect (const SluiceChartPass *pass,
                              SluiceChartSeries      series,
                              const SluiceRect      *rect)
{
  const SluiceRect *plot = &pass->chart.plot;
  guint n = _sluice_chart_n_samples (pass, series);
  gint64 end = MIN (pass->last, pass->t1);
  gint64 ta, tb, time;
  double lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
  double reach = _sluice_chart_series_reach (series);

  if (n == 0 || end < pass->t0)
    return FALSE;

  /* A stroke reaches a little past the span's ends too. */
  ta = MAX (_sluice_render_x_to_time (plot, pass->t0, pass->t1, rect->x - reach), pass->t0);
  tb = MIN (_sluice_render_x_to_time (plot, pass->t0, pass->t1, rect->x + rect->width + reach), end);
  if (tb < ta)
    return FALSE;

  for (guint i = _sluice_chart_find_sample (pass, series, ta); i < n; i++)
    {
      double value = _sluice_chart_sample_value (pass, i, series, &time);

      if (time > tb)
        break;
      lo = MIN (lo, value);
      hi = MAX (hi, value);
    }
  if (lo > hi)
    return FALSE;

  return _sluice_chart_count_to_y (&pass->chart, hi) - reach < rect->y + rect->height &&
         _sluice_chart_count_to_y (&pass->chart, lo) + reach > rect->y;
}

static gboolean
rects_overlap (const SluiceRect *a,
               const SluiceRect *b)
{
  return a->width > 0. && b->width > 0. &&
         a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* Whether a moment's dashed line crosses @rect. */
static gboolean
moment_line_in_rect (const SluiceChartPass *pass,
                     const SluiceRect      *rect)
{
  for (guint i = 0; i < pass->moments->len; i++)
    {
      double x = g_array_index (pass->moments, SluiceChartMoment, i).x;

      if (x + 1. > rect->x && x - 1. < rect->x + rect->width)
        return TRUE;
    }
  return FALSE;
}

/* Whether @rect covers text or a marker: another label, an entry of the
 * legend, a moment's marker. */
static gboolean
text_in_rect (const SluiceChartPass *pass,
              const SluiceRect      *rect,
              const Labels          *labels,
              Label                  self)
{
  for (Label l = 0; l < N_LABELS; l++)
    if (l != self && labels->texts[l] != NULL && rects_overlap (rect, &labels->rects[l]))
      return TRUE;
  for (guint s = 0; s < SLUICE_CHART_N_LEGEND; s++)
    if (rects_overlap (rect, &pass->chart.legend[s]))
      return TRUE;
  for (guint i = 0; i < pass->moments->len; i++)
    if (rects_overlap (rect, &g_array_index (pass->moments, SluiceChartMoment, i).marker))
      return TRUE;
  return FALSE;
}

/* What a label at @rect would hide (see COST_TEXT). */
static double
label_cost (const SluiceChartPass *pass,
            const SluiceRect      *rect,
            const Labels          *labels,
            Label                  self)
{
  double cost = text_in_rect (pass, rect, labels, self) ? COST_TEXT : 0.;

  for (SluiceChartSeries s = 0; s <= SLUICE_CHART_SERIES_WAITING; s++)
    if (_sluice_chart_series_shown (pass, s))
      cost += _sluice_chart_series_in_rect (pass, s, rect) ? COST_SERIES : 0.;
  cost += _sluice_chart_failed_in_rect (pass, rect) ? COST_SERIES : 0.;
  cost += moment_line_in_rect (pass, rect) ? COST_MOMENT_LINE : 0.;
  for (Label l = 0; l < N_LABELS; l++)
    {
      double y = labels->line_y[l];

      if (l != self && labels->texts[l] != NULL && y >= rect->y && y < rect->y + rect->height)
        cost += COST_LINE;
    }
  return cost;
}

/* The first place in order of preference that hides nothing for @text,
 * or the one that hides least, in @out; what it hides (see COST_TEXT). A
 * series that runs along the line itself (the lead's wide band, say)
 * pushes the label a little further off it. */
static double
find_place (const SluiceChartPass *pass,
            const Labels          *labels,
            Label                  label,
            const char            *text,
            SluiceRect            *out)
{
  static const double gaps[] = { LABEL_GAP, LABEL_GAP_WIDE };
  const SluiceRect *plot = &pass->chart.plot;
  double line_y = labels->line_y[label];
  double text_width, text_height, w, right, left;
  double best_cost = G_MAXDOUBLE;
  guint n_slides = 16;

  _sluice_render_get_text_size (pass->layout, text, &text_width, &text_height);
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
              return 0.;
          }
      }
  return best_cost;
}

/* Places a label where it covers no series and no text: its full text if
 * there is such a place, else its short one ("Grenze 6" for "Vorlaufgrenze
 * 6" on a projector's short German chart), else nowhere. Issue 26: the
 * readouts never cover the data; a label over the lead line hid the very
 * line a lesson asks the room to look at. */
static void
place_label (const SluiceChartPass *pass,
             Labels                *labels,
             Label                  label)
{
  SluiceRect *out = &labels->rects[label];

  double cost = find_place (pass, labels, label, labels->texts[label], out);

  if (cost < COST_SERIES)
    return;
  if (labels->short_texts[label] != NULL &&
      find_place (pass, labels, label, labels->short_texts[label], out) < COST_SERIES)
    {
      g_free (labels->texts[label]);
      labels->texts[label] = g_steal_pointer (&labels->short_texts[label]);
      return;
    }
  /* The budget's label, which has no short form, says the level the line
   * shows and keeps the place that hides least; only text over text is
   * left out. */
  if (labels->short_texts[label] != NULL || cost >= COST_TEXT)
    out->width = 0.;
}

/* "3.5", "0.1": a number of tokens from thousandths, without trailing
 * zeros. */
char *
_sluice_chart_format_tokens (gint64 thousandths)
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
budget_level (const SluiceChartPass *pass)
{
  gint64 time, tokens;

  sluice_timeline_get_token_sample (pass->model,
                                    _sluice_chart_find_sample (pass, SLUICE_CHART_SERIES_BUDGET, MIN (pass->last, pass->t1)),
                                    &time, &tokens);
  return tokens;
}

static char *
budget_label_text (const SluiceChartPass *pass,
                   gint64      tokens)
{
  g_autofree char *left = _sluice_chart_format_tokens (tokens);
  g_autofree char *size = _sluice_chart_format_tokens (pass->max_tokens);
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
place_labels (const SluiceChartPass *pass,
              Labels                *labels)
{
  static const Label order[] = { LABEL_BOUND, LABEL_CAPACITY, LABEL_BUDGET };
  guint queue_capacity = pass->queue_capacity;
  guint lead_bound = pass->lead_bound;
  gboolean budget = pass->max_tokens >= 0 && sluice_timeline_get_n_token_samples (pass->model) > 0 &&
                    MIN (pass->last, pass->t1) >= pass->t0;

  *labels = (Labels) { { NULL }, { NULL }, { -1., -1., -1. } };
  if (queue_capacity > 0)
    {
      /* Translators: the chart's queue capacity line; %u is the queue size */
      labels->texts[LABEL_CAPACITY] = g_strdup_printf (_("queue capacity %u"), queue_capacity);
      /* Translators: the same, short, for a chart with no room for the
       * full label clear of its lines: one short word if you can */
      labels->short_texts[LABEL_CAPACITY] = g_strdup_printf (C_("chart limit, short", "capacity %u"), queue_capacity);
      labels->line_y[LABEL_CAPACITY] = _sluice_chart_limit_y (pass, queue_capacity);
    }
  if (lead_bound > 0)
    {
      /* Translators: the chart's line at queue-size + workers + 1 */
      labels->texts[LABEL_BOUND] = g_strdup_printf (_("lead bound %u"), lead_bound);
      /* Translators: the same, short, for a chart with no room for the
       * full label clear of its lines: one short word if you can */
      labels->short_texts[LABEL_BOUND] = g_strdup_printf (C_("chart limit, short", "bound %u"), lead_bound);
      labels->line_y[LABEL_BOUND] = _sluice_chart_limit_y (pass, lead_bound);
    }
  if (budget)
    {
      gint64 tokens = budget_level (pass);

      labels->texts[LABEL_BUDGET] = budget_label_text (pass, tokens);
      labels->line_y[LABEL_BUDGET] = _sluice_chart_count_to_y (&pass->chart, _sluice_chart_tokens_to_count (pass, tokens));
    }

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (labels->texts[order[i]] != NULL)
      place_label (pass, labels, order[i]);
}

static void
clear_labels (Labels *labels)
{
  for (Label l = 0; l < N_LABELS; l++)
    {
      g_clear_pointer (&labels->texts[l], g_free);
      g_clear_pointer (&labels->short_texts[l], g_free);
    }
}

void
_sluice_chart_draw_labels (const SluiceChartPass *pass)
{
  cairo_t *cr = pass->cr;
  Labels labels;

  place_labels (pass, &labels);
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

/* Where sluice_render_chart() puts the labels (their patches of
 * background), for tests; width 0 for a limit of 0 or no budget. */
void
_sluice_chart_get_labels (SluiceTimeline          *model,
                          const SluiceRenderFrame *frame,
                          const SluiceChartLimits *limits,
                          SluiceRect              *capacity_rect,
                          SluiceRect              *bound_rect,
                          SluiceRect              *budget_rect)
{
  SluiceRect *outs[N_LABELS] = { capacity_rect, bound_rect, budget_rect };
  Labels labels;
  SluiceChartPass pass;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  place_labels (&pass, &labels);
  for (Label l = 0; l < N_LABELS; l++)
    if (outs[l] != NULL)
      *outs[l] = labels.texts[l] != NULL ? labels.rects[l] : (SluiceRect) { 0., 0., 0., 0. };
  clear_labels (&labels);
  _sluice_chart_end_offline_pass (&pass);
}


/* The series drawn in @rect (1 << SluiceChartSeries each; 1 <<
 * SLUICE_CHART_N_LEGEND for the lead's failed items), for tests. */
guint
_sluice_chart_get_series_in_rect (SluiceTimeline          *model,
                                  const SluiceRenderFrame *frame,
                                  const SluiceChartLimits *limits,
                                  const SluiceRect        *rect)
{
  SluiceChartPass pass;
  guint in_rect = 0;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  for (SluiceChartSeries s = 0; s <= SLUICE_CHART_SERIES_WAITING; s++)
    if (_sluice_chart_series_shown (&pass, s) && _sluice_chart_series_in_rect (&pass, s, rect))
      in_rect |= 1u << s;
  if (_sluice_chart_failed_in_rect (&pass, rect))
    in_rect |= 1u << SLUICE_CHART_N_LEGEND;
  _sluice_chart_end_offline_pass (&pass);
  return in_rect;
}
