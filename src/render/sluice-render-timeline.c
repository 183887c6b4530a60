/* sluice-render-timeline.c: the worker lanes, one bar per attempt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-timeline.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-render-bar-private.h"
#include "sluice-render-private.h"

#define MIN_BAR_WIDTH    2.   /* narrower bars are merged per lane */

/* Everything one drawing pass needs, so the helpers take one argument. */
typedef struct {
  cairo_t             *cr;
  PangoLayout         *layout;
  const SluicePalette *palette;
  SluiceLanesLayout    lanes;
  gint64               t0, t1;
  gint64               now;          /* where running bars end */
  gint64               selected_item;
  GArray              *problems;     /* Problem: merged marks drawn last */
} Pass;

/* A merged mark with a failure, timeout or cancellation in it. */
typedef struct {
  double x0, x1;
  gint   worker;
  int    severity;
} Problem;

#define PROBLEM_MIN_WIDTH 3.

/* Thin bars of one lane, not drawn yet. They are collected per pixel
 * column, the column taking the worst outcome in it; neighbouring columns
 * of the same outcome are then joined into one rectangle. A failure thus
 * colours one column, not the whole run of work around it. */
typedef struct {
  gboolean   run_active;
  double     run_x0, run_x1;
  int        run_severity;
  gboolean   column_active;
  double     column, column_x1;
  int        column_severity;
} Pending;

static const SluiceColor *
bar_color (const SluicePalette     *palette,
           const SluiceTimelineBar *bar)
{
  switch (bar->outcome)
    {
    case SLUICE_OUTCOME_OK:
      return &palette->ok;
    case SLUICE_OUTCOME_FAILED:
      return bar->retried ? &palette->retried : &palette->failed;
    case SLUICE_OUTCOME_TIMED_OUT:
      return &palette->timed_out;
    case SLUICE_OUTCOME_CANCELLED:
      return &palette->cancelled;
    case SLUICE_OUTCOME_NONE:
    default:
      return &palette->running;
    }
}

/* When bars merge, the merged mark takes the colour of the worst outcome
 * in it: a failure must not vanish among a thousand successes. */
typedef enum {
  SEVERITY_OK,
  SEVERITY_RUNNING,
  SEVERITY_CANCELLED,
  SEVERITY_RETRIED,
  SEVERITY_TIMED_OUT,
  SEVERITY_FAILED,
} Severity;

static int
bar_severity (const SluiceTimelineBar *bar)
{
  if (bar->final_failure)
    return SEVERITY_FAILED;
  switch (bar->outcome)
    {
    case SLUICE_OUTCOME_TIMED_OUT: return SEVERITY_TIMED_OUT;
    case SLUICE_OUTCOME_FAILED:    return bar->retried ? SEVERITY_RETRIED : SEVERITY_FAILED;
    case SLUICE_OUTCOME_CANCELLED: return SEVERITY_CANCELLED;
    case SLUICE_OUTCOME_NONE:      return SEVERITY_RUNNING;
    case SLUICE_OUTCOME_OK:
    default:                       return SEVERITY_OK;
    }
}

static const SluiceColor *
severity_color (const SluicePalette *palette,
                int                  severity)
{
  const SluiceColor *colors[] = {
    [SEVERITY_OK] = &palette->ok,
    [SEVERITY_RUNNING] = &palette->running,
    [SEVERITY_CANCELLED] = &palette->cancelled,
    [SEVERITY_RETRIED] = &palette->retried,
    [SEVERITY_TIMED_OUT] = &palette->timed_out,
    [SEVERITY_FAILED] = &palette->failed,
  };

  return colors[CLAMP (severity, SEVERITY_OK, SEVERITY_FAILED)];
}

static double
lane_top (const Pass *pass,
          gint        worker)
{
  return pass->lanes.plot.y + worker * pass->lanes.lane_height;
}

static void
draw_lanes (const Pass *pass,
            guint       n_workers)
{
  cairo_t *cr = pass->cr;
  const SluiceRect *plot = &pass->lanes.plot;
  double text_height;
  guint every;

  /* Every other lane is shaded, so a bar's lane is clear without lines. */
  for (guint w = 1; w < n_workers; w += 2)
    {
      _sluice_render_set_source_dimmed (cr, &pass->palette->grid, 0.45);
      cairo_rectangle (cr, plot->x, lane_top (pass, w), plot->width, pass->lanes.lane_height);
      cairo_fill (cr);
    }

  /* Name as many lanes as there is room for: every lane, or every second,
   * fourth… when there are many workers. */
  _sluice_render_get_text_size (pass->layout, "0", NULL, &text_height);
  every = 1;
  while (every * pass->lanes.lane_height < text_height && every < n_workers)
    every *= 2;

  sluice_palette_set_source (cr, &pass->palette->muted);
  for (guint w = 0; w < n_workers; w += every)
    {
      /* Translators: the name of a worker's lane; %u is its index */
      g_autofree char *label = g_strdup_printf (_("worker %u"), w);

      _sluice_render_draw_text (cr, pass->layout, label, plot->x - 8.,
                                lane_top (pass, w) + pass->lanes.lane_height / 2., 1., 0.5);
    }
}

static void
flush_run (const Pass *pass,
           Pending    *pending,
           gint        worker,
           double      alpha)
{
  double top = lane_top (pass, worker) + pass->lanes.bar_inset;

  if (!pending->run_active)
    return;
  pending->run_active = FALSE;

  /* Anything but success goes on top, wide enough to be seen, after the
   * lanes' ordinary work is drawn: one failure among thousands of
   * successes must not vanish into a one-pixel line. */
  if (pending->run_severity >= SEVERITY_CANCELLED)
    {
      Problem problem = { pending->run_x0, pending->run_x1, worker, pending->run_severity };

      g_array_append_val (pass->problems, problem);
      return;
    }

  _sluice_render_set_source_dimmed (pass->cr, severity_color (pass->palette, pending->run_severity), alpha);
  cairo_rectangle (pass->cr, pending->run_x0, top, pending->run_x1 - pending->run_x0,
                   pass->lanes.lane_height - 2. * pass->lanes.bar_inset);
  cairo_fill (pass->cr);
}

static void
draw_problems (const Pass *pass,
               double      alpha)
{
  double h = pass->lanes.lane_height - 2. * pass->lanes.bar_inset;

  for (guint i = 0; i < pass->problems->len; i++)
    {
      const Problem *problem = &g_array_index (pass->problems, Problem, i);
      double grow = MAX (0., PROBLEM_MIN_WIDTH - (problem->x1 - problem->x0)) / 2.;

      SluiceRect rect = {
        round (problem->x0 - grow), lane_top (pass, problem->worker) + pass->lanes.bar_inset,
        round (problem->x1 - problem->x0 + 2. * grow), h,
      };

      _sluice_render_fill_bar (pass->cr, severity_color (pass->palette, problem->severity),
                               problem->severity == SEVERITY_CANCELLED ? SLUICE_BAR_FILL_DOTTED
                                                                       : SLUICE_BAR_FILL_FLAT,
                               &rect, alpha);
    }
}

static void
close_column (const Pass *pass,
              Pending    *pending,
              gint        worker,
              double      alpha)
{
  double x1;

  if (!pending->column_active)
    return;

  pending->column_active = FALSE;
  /* From the column on: an attempt that took no time is still seen. */
  x1 = MAX (pending->column + SLUICE_RENDER_BAR_MIN_WIDTH, ceil (pending->column_x1));
  if (pending->run_active && pending->run_severity == pending->column_severity &&
      pending->column <= pending->run_x1)
    {
      pending->run_x1 = MAX (pending->run_x1, x1);
      return;
    }

  flush_run (pass, pending, worker, alpha);
  pending->run_active = TRUE;
  pending->run_x0 = pending->column;
  pending->run_x1 = x1;
  pending->run_severity = pending->column_severity;
}

static void
add_thin_bar (const Pass              *pass,
              Pending                 *pending,
              const SluiceTimelineBar *bar,
              double                   x0,
              double                   x1,
              double                   alpha)
{
  double column = floor (x0);

  if (pending->column_active && column == pending->column)
    {
      pending->column_x1 = MAX (pending->column_x1, x1);
      pending->column_severity = MAX (pending->column_severity, bar_severity (bar));
      return;
    }

  close_column (pass, pending, bar->worker, alpha);
  pending->column_active = TRUE;
  pending->column = column;
  pending->column_x1 = x1;
  pending->column_severity = bar_severity (bar);
}

static void
flush_pending (const Pass *pass,
               Pending    *pending,
               gint        worker,
               double      alpha)
{
  close_column (pass, pending, worker, alpha);
  flush_run (pass, pending, worker, alpha);
}

/* The deadline spans the whole lane, so it stays visible where the bar
 * ends at it. */
static void
draw_deadline_and_rounds (const Pass              *pass,
                          const SluiceTimelineBar *bar,
                          gint64                   end,
                          double                   alpha)
{
  cairo_t *cr = pass->cr;
  double top = lane_top (pass, bar->worker);
  double h = pass->lanes.lane_height;

  /* Only where it matters: a running attempt (its deadline ahead) or one
   * that reached it. Deadlines of quick successes would be clutter. */
  if (bar->deadline >= 0 && (bar->end < 0 || bar->deadline <= end) &&
      bar->deadline >= pass->t0 && bar->deadline <= pass->t1)
    {
      double x = round (_sluice_render_time_to_x (&pass->lanes.plot, pass->t0, pass->t1, bar->deadline));

      _sluice_render_draw_deadline_mark (cr, pass->palette, x, top + 1., top + h - 1., alpha);
    }

  for (guint r = 0; r < bar->n_rounds; r++)
    {
      double x = _sluice_render_time_to_x (&pass->lanes.plot, pass->t0, pass->t1, bar->round_times[r]);

      _sluice_render_draw_cancel_mark (cr, pass->palette, x, top + pass->lanes.bar_inset,
                        MIN (5., MAX (pass->lanes.bar_inset, 3.)), alpha);
    }
}

/* "item 3 · attempt 2", or shorter forms, or nothing: whichever fits in
 * @rect, filled as @fill says, left of the @reserved room of its marks. */
static void
draw_bar_label (const Pass              *pass,
                const SluiceTimelineBar *bar,
                const SluiceRect        *rect,
                double                   reserved,
                SluiceBarFill            fill,
                double                   alpha)
{
  double x = rect->x, y = rect->y, w = rect->width, h = rect->height;
  const SluiceColor *color = _sluice_render_bar_label_color (pass->palette, fill);
  /* A patterned bar gets a plain patch behind its label: text on dots is
   * hard to read from the back of a room. */
  const SluiceColor *backing = fill == SLUICE_BAR_FILL_DOTTED ? bar_color (pass->palette, bar) : NULL;
  g_autofree char *item = NULL;
  g_autofree char *long_label = NULL;
  g_autofree char *short_label = NULL;
  const char *labels[2];
  double tw, th;

  if (w - reserved < 12. || h < 10.)
    return;

  /* The index is formatted first: xgettext cannot read a msgid with
   * G_GINT64_FORMAT in it. */
  item = g_strdup_printf ("%" G_GINT64_FORMAT, bar->item);
  if (bar->attempt > 1)
    {
      /* Translators: inside an attempt's bar: %s is the item's index, %u the attempt's number */
      long_label = g_strdup_printf (_("item %s · attempt %u"), item, bar->attempt);
      short_label = g_strdup_printf ("%s·%u", item, bar->attempt);
    }
  else
    {
      /* Translators: inside an attempt's bar: %s is the item's index */
      long_label = g_strdup_printf (_("item %s"), item);
      short_label = g_strdup (item);
    }
  labels[0] = long_label;
  labels[1] = short_label;

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      _sluice_render_get_text_size (pass->layout, labels[i], &tw, &th);
      if (tw + 8. <= w - reserved && th <= h + 2.)
        {
          if (backing != NULL)
            {
              _sluice_render_set_source_dimmed (pass->cr, backing, alpha);
              cairo_rectangle (pass->cr, MAX (x, pass->lanes.plot.x) + 2., y + 2., tw + 4., MAX (h - 4., 0.));
              cairo_fill (pass->cr);
            }
          sluice_palette_set_source (pass->cr, color);
          _sluice_render_draw_text (pass->cr, pass->layout, labels[i],
                                    MAX (x, pass->lanes.plot.x) + 4., y + h / 2., 0., 0.5);
          return;
        }
    }
}

static void
draw_marks (const Pass              *pass,
            const SluiceTimelineBar *bar,
            const SluiceRect        *rect,
            double                  *reserved)
{
  double x = rect->x, y = rect->y, w = rect->width, h = rect->height;
  double r = _sluice_lanes_mark_radius (&pass->lanes);
  double cx = x + w - r - 3.;

  *reserved = 0.;
  if (w < 2. * r + 6.)
    return;

  if (bar->outcome == SLUICE_OUTCOME_TIMED_OUT)
    {
      _sluice_render_draw_clock_mark (pass->cr, cx, y + h / 2., r);
      cx -= 2. * r + 4.;
      *reserved += 2. * r + 4.;
    }
  /* A skipped retry's sign takes the cross's place (draw_policy_marks()). */
  if (bar->final_failure && w >= *reserved + 2. * r + 6.)
    {
      if (!bar->retry_skipped)
        _sluice_render_draw_cross_mark (pass->cr, cx, y + h / 2., r);
      *reserved += 2. * r + 4.;
    }
}

static void
draw_full_bar (const Pass              *pass,
               const SluiceTimelineBar *bar,
               double                   x0,
               double                   x1,
               double                   alpha)
{
  cairo_t *cr = pass->cr;
  double y = lane_top (pass, bar->worker) + pass->lanes.bar_inset;
  double h = pass->lanes.lane_height - 2. * pass->lanes.bar_inset;
  double x = round (x0), w = round (x1) - round (x0);
  SluiceBarFill fill = _sluice_render_bar_fill_for_outcome (bar->outcome, bar->end < 0);
  SluiceRect rect;
  double reserved;

  /* A one-pixel gap between back-to-back attempts keeps them apart; an
   * attempt that took no time (the selected item's) is still seen. */
  if (w >= 4.)
    w -= 1.;
  w = MAX (w, SLUICE_RENDER_BAR_MIN_WIDTH);

  rect = (SluiceRect) { x, y, w, h };
  _sluice_render_fill_bar (cr, bar_color (pass->palette, bar), fill, &rect, alpha);

  if (bar->retried)
    _sluice_render_draw_hatching (cr, x, y, w, h);

  draw_marks (pass, bar, &rect, &reserved);
  draw_bar_label (pass, bar, &rect, reserved, fill, alpha);

  if (bar->item == pass->selected_item)
    {
      sluice_palette_set_source (cr, &pass->palette->selection);
      cairo_set_line_width (cr, 2.);
      cairo_rectangle (cr, x - 1., y - 1., w + 2., h + 2.);
      cairo_stroke (cr);
    }
}

static void
draw_bars (const Pass     *pass,
           SluiceTimeline *model,
           guint           n_workers)
{
  g_autofree Pending *pending = g_new0 (Pending, n_workers);
  guint n_bars;
  const SluiceTimelineBar *bars = sluice_timeline_get_bars (model, &n_bars);
  const SluiceRect *plot = &pass->lanes.plot;
  double alpha = pass->selected_item >= 0 ? 0.35 : 1.;

  for (guint i = 0; i < n_bars; i++)
    {
      const SluiceTimelineBar *bar = &bars[i];
      gint64 end = _sluice_lanes_bar_end (bar, pass->now);
      double a = bar->item == pass->selected_item ? 1. : alpha;
      double x0, x1;

      if (bar->worker < 0 || (guint) bar->worker >= n_workers)
        continue;
      /* Bars are in start order: nothing after t1 can show. */
      if (bar->start > pass->t1)
        break;
      if (end < pass->t0)
        continue;

      x0 = MAX (_sluice_render_time_to_x (plot, pass->t0, pass->t1, bar->start), plot->x - 2.);
      x1 = MIN (_sluice_render_time_to_x (plot, pass->t0, pass->t1, end), plot->x + plot->width + 2.);

      /* Thousands of attempts: thin bars of one lane become one mark. */
      if (x1 - x0 < MIN_BAR_WIDTH && bar->item != pass->selected_item)
        {
          add_thin_bar (pass, &pending[bar->worker], bar, x0, x1, alpha);
          continue;
        }

      flush_pending (pass, &pending[bar->worker], bar->worker, alpha);
      draw_full_bar (pass, bar, x0, x1, a);
      draw_deadline_and_rounds (pass, bar, end, a);
    }

  for (guint w = 0; w < n_workers; w++)
    flush_pending (pass, &pending[w], w, alpha);
  draw_problems (pass, alpha);
}

static double
mark_attempt_x (const Pass               *pass,
                const SluiceTimelineMark *mark)
{
  if (mark->attempt_start < 0)
    return -G_MAXDOUBLE;
  return _sluice_render_time_to_x (&pass->lanes.plot, pass->t0, pass->t1, mark->attempt_start);
}

/* The retry policy's marks, on top of the bars: each backoff as a bracket
 * from the failed attempt to the next (up to "now" while it lasts), each
 * skipped retry and shed item as a sign by its time. */
static void
draw_policy_marks (const Pass     *pass,
                   SluiceTimeline *model,
                   guint           n_workers)
{
  const SluiceRect *plot = &pass->lanes.plot;
  guint n_marks = sluice_timeline_get_n_marks (model);
  double r = _sluice_lanes_mark_radius (&pass->lanes);
  double dimmed = pass->selected_item >= 0 ? 0.35 : 1.;

  for (guint i = 0; i < n_marks; i++)
    {
      const SluiceTimelineMark *mark = sluice_timeline_get_mark (model, i);
      double alpha = mark->item == pass->selected_item ? 1. : dimmed;
      double top = lane_top (pass, mark->worker);
      gint64 end = MIN (mark->end, MAX (pass->now, mark->start));
      double x0, x1;

      if (mark->worker < 0 || (guint) mark->worker >= n_workers)
        continue;
      /* Marks are in time order: nothing after t1 can show. */
      if (mark->start > pass->t1)
        break;
      if (end < pass->t0 - (pass->t1 - pass->t0) / 50)
        continue;

      x0 = _sluice_render_time_to_x (plot, pass->t0, pass->t1, mark->start);
      if (mark->kind != SLUICE_TIMELINE_MARK_BACKOFF)
        {
          double cx, cy;

          _sluice_lanes_place_point_mark (&pass->lanes, mark, x0, mark_attempt_x (pass, mark), &cx, &cy);
          if (mark->kind == SLUICE_TIMELINE_MARK_SHED)
            _sluice_render_draw_shed_mark (pass->cr, pass->palette, cx, cy, r, alpha);
          else
            _sluice_render_draw_skip_mark (pass->cr, pass->palette, cx, cy, r, alpha);
          continue;
        }

      x1 = _sluice_render_time_to_x (plot, pass->t0, pass->t1, end);
      /* Too short to tell from the bars' gap. */
      if (x1 - x0 < 3.)
        continue;
      _sluice_render_draw_backoff_mark (pass->cr, pass->palette, MAX (x0, plot->x - 2.),
                                        MIN (x1, plot->x + plot->width + 2.),
                                        top + pass->lanes.bar_inset,
                                        top + pass->lanes.lane_height - pass->lanes.bar_inset, alpha);
    }
}

/**
 * sluice_render_timeline:
 * @cr: the context to draw on
 * @model: the run
 * @frame: the view's size, the span of time across the lanes, the clock
 *   (running attempts end there and the "now" line is drawn there;
 *   negative for neither: a finished run) and the palette
 * @selected_item: the item whose attempts are highlighted, or -1
 *
 * Draws one lane per worker and one bar per attempt, from start to end,
 * coloured by outcome, open (a pale inside, a bold border) while they run,
 * dotted when cancelled, with hatching on retried attempts, a clock on timed
 * out ones, a cross where an item failed for good, the deadline as a
 * dashed line and each cancel request as a notch. The retry policy's
 * marks go on top: a bracket for each backoff, from the failed attempt to
 * the next, a "no entry" sign in place of the cross where a retry was
 * skipped and a triangle where an item was shed; the key explains those
 * the run has. Bars outside [@t0, @t1]
 * are skipped and bars narrower than two pixels are merged per lane, so
 * thousands of attempts draw quickly; every bar or merged mark is at least
 * %SLUICE_RENDER_BAR_MIN_WIDTH pixels wide, from its start.
 */
void
sluice_render_timeline (cairo_t                 *cr,
                        SluiceTimeline          *model,
                        const SluiceRenderFrame *frame,
                        gint64                   selected_item)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autoptr(GArray) problems = NULL;
  guint n_workers;
  Pass pass;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (SLUICE_IS_TIMELINE (model));
  g_return_if_fail (frame != NULL);

  n_workers = MAX (sluice_timeline_get_n_workers (model), 1);
  layout = _sluice_render_create_layout (cr, FALSE);
  problems = g_array_new (FALSE, FALSE, sizeof (Problem));
  pass = (Pass) {
    .cr = cr,
    .layout = layout,
    .palette = sluice_palette_get (frame->palette),
    .t0 = frame->t0,
    .t1 = MAX (frame->t1, frame->t0 + 1),
    .now = frame->now >= 0 ? frame->now : sluice_timeline_get_end_time (model),
    .selected_item = selected_item,
    .problems = problems,
  };
  _sluice_lanes_get_model_layout (model, frame->width, frame->height, &pass.lanes);

  _sluice_render_begin_view (cr, pass.palette, frame->width, frame->height);

  _sluice_lanes_draw_key (cr, layout, pass.palette, &pass.lanes);
  draw_lanes (&pass, n_workers);
  _sluice_render_draw_time_axis (cr, layout, pass.palette, &pass.lanes.plot, pass.t0, pass.t1);

  cairo_save (cr);
  cairo_rectangle (cr, pass.lanes.plot.x, pass.lanes.plot.y,
                   pass.lanes.plot.width, pass.lanes.plot.height);
  cairo_clip (cr);
  draw_bars (&pass, model, n_workers);
  draw_policy_marks (&pass, model, n_workers);
  cairo_restore (cr);

  _sluice_render_draw_now (cr, pass.palette, &pass.lanes.plot, pass.t0, pass.t1, frame->now);
  cairo_restore (cr);
}
