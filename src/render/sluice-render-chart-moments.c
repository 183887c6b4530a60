/* sluice-render-chart-moments.c: the run's moments (stop requests, drains,
 * cancellations, fatal errors, shutdown deadlines, the end) on the chart's
 * time axis
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>

#include "sluice-render-chart-private.h"

#define MARKER_HALF_WIDTH 4.5   /* the triangle under the baseline */
#define MARKER_HEIGHT     7.
#define MARKER_LABEL_GAP  2.    /* between the triangle and its label */
#define LABEL_SPACING     4.    /* between two moments' labels */
#define CLUSTER_WIDTH     3.    /* moments closer than this share a marker */

static const char *
moment_label (SluiceTimelineMomentKind kind)
{
  switch (kind)
    {
    /* Translators: a short mark on the chart's time axis: a stop was
     * requested here */
    case SLUICE_TIMELINE_MOMENT_STOP_REQUEST:      return C_("chart moment", "stop");
    /* Translators: a short mark on the chart's time axis: the input
     * closed and the workers drain the queue from here */
    case SLUICE_TIMELINE_MOMENT_DRAIN:             return C_("chart moment", "drain");
    /* Translators: a short mark on the chart's time axis: the caller
     * cancelled the run here */
    case SLUICE_TIMELINE_MOMENT_CANCEL:            return C_("chart moment", "cancel");
    /* Translators: a short mark on the chart's time axis: a fatal error
     * stopped the pool here */
    case SLUICE_TIMELINE_MOMENT_FATAL:             return C_("chart moment", "fatal");
    /* Translators: a short mark on the chart's time axis: the shutdown
     * deadline fired here */
    case SLUICE_TIMELINE_MOMENT_SHUTDOWN_DEADLINE: return C_("chart moment", "deadline");
    /* Translators: a short mark on the chart's time axis: events of the
     * attached program never came here (they were lost) */
    case SLUICE_TIMELINE_MOMENT_EVENTS_LOST:       return C_("chart moment", "events lost");
    /* Translators: a short mark on the chart's time axis: the run ended
     * here */
    case SLUICE_TIMELINE_MOMENT_RUN_END:
    default:                                       return C_("chart moment", "end");
    }
}

/* Which label keeps its place when two would collide: the end of the run,
 * then what ended it abruptly, then what began its ending. */
static guint
moment_rank (SluiceTimelineMomentKind kind)
{
  switch (kind)
    {
    case SLUICE_TIMELINE_MOMENT_EVENTS_LOST:       return 6;
    case SLUICE_TIMELINE_MOMENT_RUN_END:           return 5;
    case SLUICE_TIMELINE_MOMENT_FATAL:             return 4;
    case SLUICE_TIMELINE_MOMENT_SHUTDOWN_DEADLINE: return 3;
    case SLUICE_TIMELINE_MOMENT_CANCEL:            return 2;
    case SLUICE_TIMELINE_MOMENT_STOP_REQUEST:      return 1;
    case SLUICE_TIMELINE_MOMENT_DRAIN:
    default:                                       return 0;
    }
}

static void
clear_moment (gpointer data)
{
  SluiceChartMoment *moment = data;

  g_free (moment->text);
}

/* Moments in view, one per marker: those closer than CLUSTER_WIDTH (a stop
 * and its drain, usually at the same instant) share one, and its label
 * names them all, in time order. */
static GArray *
collect_moments (SluiceTimeline   *model,
                 const SluiceRect *plot,
                 gint64            t0,
                 gint64            t1)
{
  GArray *moments = g_array_new (FALSE, TRUE, sizeof (SluiceChartMoment));
  guint n = sluice_timeline_get_n_moments (model);
  SluiceChartMoment *last = NULL;
  guint seen = 0;      /* 1 << kind, of the kinds @last names */

  g_array_set_clear_func (moments, clear_moment);
  for (guint i = 0; i < n; i++)
    {
      const SluiceTimelineMoment *m = sluice_timeline_get_moment (model, i);
      double x = _sluice_render_time_to_x (plot, t0, t1, m->time);
      SluiceChartMoment moment = { m->kind, x };

      if (m->time < t0 || m->time > t1)
        continue;
      if (last != NULL && x - last->x < CLUSTER_WIDTH)
        {
          if (!(seen & (1u << m->kind)))
            {
              g_autofree char *joined = last->text;

              /* Translators: two moments at one place on the chart's
               * time axis, such as "stop, drain" */
              last->text = g_strdup_printf (C_("chart moment", "%s, %s"), joined, moment_label (m->kind));
              seen |= 1u << m->kind;
            }
          if (moment_rank (m->kind) > moment_rank (last->kind))
            last->kind = m->kind;
          continue;
        }

      moment.text = g_strdup (moment_label (m->kind));
      g_array_append_val (moments, moment);
      last = &g_array_index (moments, SluiceChartMoment, moments->len - 1);
      seen = 1u << m->kind;
    }
  return moments;
}

static gboolean
spans_overlap (const SluiceRect *a,
               const SluiceRect *b,
               double            spacing)
{
  return a->width > 0. && b->width > 0. &&
         a->x < b->x + b->width + spacing && b->x < a->x + a->width + spacing;
}

/* Whether @rect runs into a label placed before it or another marker. */
static gboolean
label_collides (GArray           *moments,
                guint             self,
                const SluiceRect *rect)
{
  for (guint i = 0; i < moments->len; i++)
    {
      const SluiceChartMoment *other = &g_array_index (moments, SluiceChartMoment, i);

      if (i != self && (spans_overlap (rect, &other->label, LABEL_SPACING) ||
                        spans_overlap (rect, &other->marker, 0.)))
        return TRUE;
    }
  return FALSE;
}

/* A label goes right of its marker, or left of it when that runs past the
 * view or into another; one that fits on neither side is left out (the
 * marker stays). */
static void
place_label (GArray      *moments,
             guint        i,
             PangoLayout *layout,
             double       left,
             double       right)
{
  SluiceChartMoment *moment = &g_array_index (moments, SluiceChartMoment, i);
  double w, h;

  _sluice_render_get_text_size (layout, moment->text, &w, &h);
  for (guint side = 0; side < 2; side++)
    {
      double x = side == 0 ? moment->x + MARKER_HALF_WIDTH + MARKER_LABEL_GAP
                           : moment->x - MARKER_HALF_WIDTH - MARKER_LABEL_GAP - w;
      SluiceRect rect = { x, moment->marker.y, w, h };

      if (x < left || x + w > right || label_collides (moments, i, &rect))
        continue;
      moment->label = rect;
      return;
    }
}

static gint
compare_rank (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  GArray *moments = user_data;
  const SluiceChartMoment *ma = &g_array_index (moments, SluiceChartMoment, *(const guint *) a);
  const SluiceChartMoment *mb = &g_array_index (moments, SluiceChartMoment, *(const guint *) b);
  gint by_rank = (gint) moment_rank (mb->kind) - (gint) moment_rank (ma->kind);

  /* Of equal rank, the earlier keeps its label. */
  return by_rank != 0 ? by_rank : (ma->x > mb->x) - (ma->x < mb->x);
}

/**
 * _sluice_chart_place_moments:
 * @model: the run
 * @layout: the chart's text layout
 * @plot: the chart's plot
 * @width: the view's width
 * @t0: the time at the plot's left edge
 * @t1: the time at the plot's right edge
 *
 * Places the markers of the run's moments in view, triangles under the
 * baseline, and their labels beside them in the time axis' row, the more
 * important first: a label that would run into another is left out.
 *
 * Returns: (transfer full): the #SluiceChartMoment array, in time order
 */
GArray *
_sluice_chart_place_moments (SluiceTimeline   *model,
                             PangoLayout      *layout,
                             const SluiceRect *plot,
                             double            width,
                             gint64            t0,
                             gint64            t1)
{
  GArray *moments = collect_moments (model, plot, t0, t1);
  g_autofree guint *order = g_new (guint, moments->len + 1);
  double base = round (plot->y + plot->height) + 1.;

  for (guint i = 0; i < moments->len; i++)
    {
      SluiceChartMoment *moment = &g_array_index (moments, SluiceChartMoment, i);

      moment->marker = (SluiceRect) { moment->x - MARKER_HALF_WIDTH, base, 2. * MARKER_HALF_WIDTH, MARKER_HEIGHT };
      order[i] = i;
    }
  g_qsort_with_data (order, (gint) moments->len, sizeof (guint), compare_rank, moments);
  for (guint i = 0; i < moments->len; i++)
    place_label (moments, order[i], layout, plot->x - SLUICE_RENDER_GUTTER / 2., width - 2.);

  return moments;
}

/* The time axis, its tick labels clear of the moments' markers and
 * labels. */
void
_sluice_chart_draw_time_axis (const SluiceChartPass *pass)
{
  g_autoptr(GArray) keep_clear = g_array_new (FALSE, FALSE, sizeof (SluiceRect));

  for (guint i = 0; i < pass->moments->len; i++)
    {
      const SluiceChartMoment *moment = &g_array_index (pass->moments, SluiceChartMoment, i);

      g_array_append_val (keep_clear, moment->marker);
      if (moment->label.width > 0.)
        g_array_append_val (keep_clear, moment->label);
    }
  _sluice_render_draw_time_axis_clear_of (pass->cr, pass->layout, pass->palette, &pass->chart.plot,
                                          pass->t0, pass->t1, (const SluiceRect *) (gpointer) keep_clear->data,
                                          keep_clear->len);
}

/* A thin dashed line up the plot from each marker, under the series: it
 * says when, without hiding what the counts did then. */
void
_sluice_chart_draw_moment_lines (const SluiceChartPass *pass)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  const SluiceColor *fg = &pass->palette->foreground;

  if (pass->moments->len == 0)
    return;

  cairo_save (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.55);
  cairo_set_line_width (cr, 1.);
  cairo_set_dash (cr, (double[]) { 2., 3. }, 2, 0.);
  for (guint i = 0; i < pass->moments->len; i++)
    {
      double x = round (g_array_index (pass->moments, SluiceChartMoment, i).x) + 0.5;

      cairo_move_to (cr, x, plot->y);
      cairo_line_to (cr, x, plot->y + plot->height);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* The triangles on the baseline, pointing up at their time, and the
 * labels placed for them. */
void
_sluice_chart_draw_moment_marks (const SluiceChartPass *pass)
{
  cairo_t *cr = pass->cr;

  cairo_save (cr);
  for (guint i = 0; i < pass->moments->len; i++)
    {
      const SluiceChartMoment *moment = &g_array_index (pass->moments, SluiceChartMoment, i);
      double x = round (moment->x) + 0.5;

      sluice_palette_set_source (cr, &pass->palette->foreground);
      cairo_move_to (cr, x, moment->marker.y);
      cairo_line_to (cr, x + MARKER_HALF_WIDTH, moment->marker.y + moment->marker.height);
      cairo_line_to (cr, x - MARKER_HALF_WIDTH, moment->marker.y + moment->marker.height);
      cairo_close_path (cr);
      cairo_fill (cr);

      if (moment->label.width <= 0.)
        continue;
      sluice_palette_set_source (cr, &pass->palette->background);
      cairo_rectangle (cr, moment->label.x, moment->label.y, moment->label.width, moment->label.height);
      cairo_fill (cr);
      sluice_palette_set_source (cr, &pass->palette->foreground);
      _sluice_render_draw_text (cr, pass->layout, moment->text, moment->label.x, moment->label.y, 0., 0.);
    }
  cairo_restore (cr);
}
