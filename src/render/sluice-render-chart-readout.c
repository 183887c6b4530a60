/* sluice-render-chart-readout.c: the chart's counts at the pointer's time,
 * with a guide line there
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-render-chart.h"
#include "sluice-render-chart-private.h"

#define TIME_SPACING 12.  /* between the readout's time and its first entry */

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

/* The readout at one time: on the legend's row, in its place, the time
 * and each entry of the legend with its value there. */
typedef struct {
  char                 *time;                          /* "0.300 s" */
  SluiceRect            time_rect;
  char                 *entries[SLUICE_CHART_N_LEGEND]; /* NULL: not in this run */
  SluiceRect            rects[SLUICE_CHART_N_LEGEND];
  SluiceChartLegendForm form;
  SluiceRect            box;                           /* all of it */
} Readout;

static void
readout_clear (Readout *readout)
{
  g_clear_pointer (&readout->time, g_free);
  for (guint i = 0; i < SLUICE_CHART_N_LEGEND; i++)
    g_clear_pointer (&readout->entries[i], g_free);
}

/* The value of the legend's entry @entry in @v. */
static char *
format_value (const SluiceTimelineValues *v,
              guint                       entry)
{
  switch (entry)
    {
    case SLUICE_CHART_SERIES_QUEUE:     return g_strdup_printf ("%u", v->queued);
    case SLUICE_CHART_SERIES_IN_FLIGHT: return g_strdup_printf ("%u", v->in_flight);
    case SLUICE_CHART_SERIES_LEAD:      return g_strdup_printf ("%u", v->lead);
    case SLUICE_CHART_SERIES_BUSY:      return g_strdup_printf ("%u", v->busy);
    case SLUICE_CHART_SERIES_BUDGET:    return _sluice_chart_format_tokens (MAX (v->tokens, 0));
    case SLUICE_CHART_SERIES_WAITING:   return g_strdup_printf ("%u", v->waiting);
    case SLUICE_CHART_LEGEND_FAILED:
    default:                            return g_strdup_printf ("%u", v->failed);
    }
}

/* The entries' texts in @form: the legend's label and the value, or the
 * value alone. */
static void
format_entries (const SluiceChartPass      *pass,
                const SluiceTimelineValues *v,
                SluiceChartLegendForm       form,
                char                       *entries[SLUICE_CHART_N_LEGEND])
{
  const char *labels[SLUICE_CHART_N_LEGEND];

  _sluice_chart_get_legend_labels (labels, &(SluiceChartExtras) { pass->max_tokens >= 0, pass->waiting, pass->failed },
                                   form == SLUICE_CHART_LEGEND_FULL ? SLUICE_CHART_LEGEND_FULL
                                                                    : SLUICE_CHART_LEGEND_SHORT);
  /* The failed items' full entry explains the hatching; with a number,
   * the short one says it. */
  if (labels[SLUICE_CHART_LEGEND_FAILED] != NULL)
    labels[SLUICE_CHART_LEGEND_FAILED] = C_("chart legend, short", "failed");
  for (guint i = 0; i < SLUICE_CHART_N_LEGEND; i++)
    {
      g_autofree char *value = NULL;

      g_clear_pointer (&entries[i], g_free);
      if (labels[i] == NULL)
        continue;
      value = format_value (v, i);
      /* Translators: the chart's readout, in the legend's place: a
       * legend's entry and its value at the pointer's time, such as
       * "queued 3" */
      entries[i] = form == SLUICE_CHART_LEGEND_VALUES ? g_steal_pointer (&value)
                                                      : g_strdup_printf (C_("chart readout", "%s %s"), labels[i], value);
    }
}

/* The ways the readout tries to fit its row, from the most it says: the
 * time and the entries in full, the time and short entries, short entries
 * without the time (the time axis and a lesson's playhead give it), the
 * time and the values by their swatches alone. */
static const struct {
  SluiceChartLegendForm form;
  gboolean              time;
} attempts[] = {
  { SLUICE_CHART_LEGEND_FULL, TRUE },
  { SLUICE_CHART_LEGEND_SHORT, TRUE },
  { SLUICE_CHART_LEGEND_SHORT, FALSE },
  { SLUICE_CHART_LEGEND_VALUES, TRUE },
};

/* The readout for the pointer at @x (the series stop at the last event,
 * or now), laid out on the legend's row in the first of attempts[] that
 * fits it (in the last, entries that do not fit are left out); FALSE for
 * none. */
static gboolean
layout_readout (const SluiceChartPass *pass,
                double                 x,
                Readout               *readout)
{
  const SluiceRect *plot = &pass->chart.plot;
  double right = plot->x + plot->width;
  SluiceTimelineValues v;
  double time_width;
  gint64 time;

  *readout = (Readout) { NULL, };
  if (x < plot->x || x > plot->x + plot->width)
    return FALSE;
  time = MIN (_sluice_render_x_to_time (plot, pass->t0, pass->t1, x), pass->last);
  if (!sluice_timeline_get_values_at (pass->model, time, &v))
    return FALSE;

  readout->time = g_strdup_printf (C_("chart readout", "%.3f s"), v.time / (double) G_USEC_PER_SEC);
  _sluice_render_get_text_size (pass->layout, readout->time, &time_width, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (attempts); i++)
    {
      double left = SLUICE_CHART_STRIP_LEFT + (attempts[i].time ? time_width + TIME_SPACING : 0.);

      readout->form = attempts[i].form;
      readout->time_rect = (SluiceRect) { SLUICE_CHART_STRIP_LEFT, pass->chart.legend[0].y,
                                          attempts[i].time ? time_width : 0., SLUICE_RENDER_KEY_ROW_HEIGHT };
      format_entries (pass, &v, readout->form, readout->entries);
      if (_sluice_chart_layout_strip ((const char * const *) readout->entries,
                                      _sluice_chart_swatch_space (readout->form), left, right, readout->rects, NULL))
        break;
    }

  readout->box = (SluiceRect) { 0., 0., readout->time_rect.x + readout->time_rect.width, pass->chart.legend_height };
  for (guint i = 0; i < SLUICE_CHART_N_LEGEND; i++)
    if (readout->rects[i].width > 0.)
      readout->box.width = MAX (readout->box.width, readout->rects[i].x + readout->rects[i].width);
  return TRUE;
}

/* The readout in the legend's place, for the pointer at @x: the legend's
 * entries with their values at the pointer's time. Returns FALSE, drawing
 * nothing, when there is none (the legend is drawn instead). */
gboolean
_sluice_chart_draw_readout_strip (const SluiceChartPass *pass,
                                  double                 x)
{
  Readout readout;

  if (!layout_readout (pass, x, &readout))
    return FALSE;

  sluice_palette_set_source (pass->cr, &pass->palette->foreground);
  if (readout.time_rect.width > 0.)
    _sluice_render_draw_text (pass->cr, pass->layout, readout.time, readout.time_rect.x,
                              readout.time_rect.y + readout.time_rect.height / 2. - 1., 0., 0.5);
  _sluice_chart_draw_strip (pass, (const char * const *) readout.entries, readout.form, readout.rects);
  readout_clear (&readout);
  return TRUE;
}

/* The guide line at the pointer's time, over the plot; the readout is on
 * the legend's row (_sluice_chart_draw_readout_strip()), so it never
 * covers the series. */
void
_sluice_chart_draw_readout (const SluiceChartPass *pass,
                            double                 x)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->chart.plot;
  double gx = round (x) + 0.5;

  if (x < plot->x || x > plot->x + plot->width)
    return;

  cairo_save (cr);
  sluice_palette_set_source (cr, &pass->palette->foreground);
  cairo_set_line_width (cr, 1.);
  cairo_move_to (cr, gx, plot->y);
  cairo_line_to (cr, gx, plot->y + plot->height);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/**
 * sluice_render_chart_get_readout_rect:
 * @model: the run
 * @frame: as for sluice_render_chart(); its palette does not matter
 * @limits: as for sluice_render_chart()
 * @pointer_x: where the pointer is, as for sluice_render_chart_with_pointer()
 * @readout: (out): where the readout goes; width 0 for none
 *
 * Where sluice_render_chart_with_pointer() puts the readout for the
 * pointer at @pointer_x: on the legend's row, above the plot
 * (sluice_render_chart_get_plot()), never over it.
 */
void
sluice_render_chart_get_readout_rect (SluiceTimeline          *model,
                                      const SluiceRenderFrame *frame,
                                      const SluiceChartLimits *limits,
                                      double                   pointer_x,
                                      cairo_rectangle_t       *readout)
{
  SluiceRect box = _sluice_chart_get_readout_rect (model, frame, limits, pointer_x);

  g_return_if_fail (readout != NULL);
  *readout = (cairo_rectangle_t) { box.x, box.y, box.width, box.height };
}

/* Where the readout goes for the pointer at @x, for tests. */
SluiceRect
_sluice_chart_get_readout_rect (SluiceTimeline          *model,
                                const SluiceRenderFrame *frame,
                                const SluiceChartLimits *limits,
                                double                   x)
{
  SluiceRect box = { 0., 0., 0., 0. };
  SluiceChartPass pass;
  Readout readout;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  if (layout_readout (&pass, x, &readout))
    box = readout.box;
  readout_clear (&readout);
  _sluice_chart_end_offline_pass (&pass);
  return box;
}

/* The form the readout takes for the pointer at @x, and its entries'
 * places, for tests. */
SluiceChartLegendForm
_sluice_chart_get_readout_layout (SluiceTimeline          *model,
                                  const SluiceRenderFrame *frame,
                                  const SluiceChartLimits *limits,
                                  double                   x,
                                  SluiceRect               rects[SLUICE_CHART_N_LEGEND])
{
  SluiceChartLegendForm form = SLUICE_CHART_LEGEND_VALUES;
  SluiceChartPass pass;
  Readout readout;

  _sluice_chart_begin_offline_pass (&pass, model, frame, limits);
  if (layout_readout (&pass, x, &readout))
    {
      form = readout.form;
      memcpy (rects, readout.rects, sizeof readout.rects);
    }
  readout_clear (&readout);
  _sluice_chart_end_offline_pass (&pass);
  return form;
}
