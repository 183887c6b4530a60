/* sluice-render-timeline.c: the worker lanes, one bar per attempt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-timeline.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-render-private.h"

#define MAX_LANE_HEIGHT  40.
#define KEY_SWATCH_SPACE 24.  /* a swatch and the gap before its label */
#define MIN_BAR_WIDTH    2.   /* narrower bars are merged per lane */
#define HATCH_SPACING    6.
#define HIT_SLOP         3.   /* pixels: thin bars stay easy to hover */

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

typedef enum {
  KEY_OK,
  KEY_RETRIED,
  KEY_FAILED,
  KEY_TIMED_OUT,
  KEY_CANCELLED,
  KEY_RUNNING,
  KEY_DEADLINE,
  KEY_CANCEL_REQUEST,
  N_KEYS
} Key;

G_STATIC_ASSERT (N_KEYS == SLUICE_LANES_N_KEYS);

static const char *
key_label (Key key)
{
  switch (key)
    {
    case KEY_OK:             return _("ok");
    case KEY_RETRIED:        return _("failed, retried");
    case KEY_FAILED:         return _("failed for good");
    case KEY_TIMED_OUT:      return _("timed out");
    case KEY_CANCELLED:      return _("cancelled");
    case KEY_RUNNING:        return _("running");
    case KEY_DEADLINE:       return _("deadline");
    case KEY_CANCEL_REQUEST:
    default:                 return _("cancel request");
    }
}

/* Places the key's entries from @left to @right, wrapped if need be. */
static void
layout_key (SluiceLanesLayout *layout,
            double             left,
            double             right)
{
  const char *labels[N_KEYS];
  double widths[N_KEYS];

  for (Key key = 0; key < N_KEYS; key++)
    labels[key] = key_label (key);
  _sluice_render_measure_texts (labels, N_KEYS, widths);
  for (Key key = 0; key < N_KEYS; key++)
    widths[key] += KEY_SWATCH_SPACE;

  layout->key_height = _sluice_render_layout_key (widths, N_KEYS, left, right,
                                                  layout->key, &layout->key_rows);
}

void
_sluice_lanes_get_layout (double             width,
                          double             height,
                          guint              n_workers,
                          SluiceLanesLayout *layout)
{
  double available;

  layout->plot.x = SLUICE_RENDER_GUTTER;
  layout->plot.width = MAX (width - SLUICE_RENDER_GUTTER - SLUICE_RENDER_MARGIN, 1.);
  layout_key (layout, layout->plot.x, layout->plot.x + layout->plot.width);

  available = MAX (height - layout->key_height - SLUICE_RENDER_AXIS_HEIGHT, 1.);
  layout->lane_height = MIN (MAX_LANE_HEIGHT, available / MAX (n_workers, 1));
  layout->plot.y = layout->key_height;
  layout->plot.height = layout->lane_height * MAX (n_workers, 1);
  layout->bar_inset = layout->lane_height >= 8. ? round (layout->lane_height * 0.15) : 0.;
}

/* A running attempt is drawn up to "now" (or the latest event when the
 * view has no clock). */
static gint64
bar_end (const SluiceTimelineBar *bar,
         gint64                   now)
{
  if (bar->end >= 0)
    return bar->end;
  return MAX (bar->start, now);
}

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

static void
set_source_dimmed (cairo_t           *cr,
                   const SluiceColor *color,
                   double             alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha * alpha);
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
      set_source_dimmed (cr, &pass->palette->grid, 0.45);
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

static void draw_hatching   (cairo_t *cr, double x, double y, double w, double h);
static void draw_clock_mark (cairo_t *cr, double cx, double cy, double r);
static void draw_cross_mark (cairo_t *cr, double cx, double cy, double r);
static void draw_cancel_mark (cairo_t *cr, const SluicePalette *palette,
                              double x, double y, double size, double alpha);
static void draw_deadline_mark (cairo_t *cr, const SluicePalette *palette,
                                double x, double top, double bottom, double alpha);

/* A swatch in the key looks like what it explains: the same colours,
 * hatching and marks as the bars, at a small size. */
static void
draw_key_swatch (cairo_t             *cr,
                 const SluicePalette *palette,
                 Key                  key,
                 double               x,
                 double               y)
{
  const SluiceColor *colors[] = {
    &palette->ok, &palette->retried, &palette->failed,
    &palette->timed_out, &palette->cancelled, &palette->running,
  };
  double w = 18., h = 12.;

  if (key == KEY_DEADLINE)
    {
      draw_deadline_mark (cr, palette, x + w / 2., y - 1., y + h + 1., 1.);
      return;
    }
  if (key == KEY_CANCEL_REQUEST)
    {
      draw_cancel_mark (cr, palette, x + w / 2., y + h / 2., 5., 1.);
      return;
    }

  sluice_palette_set_source (cr, colors[key]);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
  if (key == KEY_RETRIED)
    draw_hatching (cr, x, y, w, h);
  else if (key == KEY_FAILED)
    draw_cross_mark (cr, x + w / 2., y + h / 2., 4.5);
  else if (key == KEY_TIMED_OUT)
    draw_clock_mark (cr, x + w / 2., y + h / 2., 4.5);
}

/* The key along the top, where _sluice_lanes_get_layout() placed it: on
 * one row, or wrapped when the labels (German ones, say) are too long. */
static void
draw_key (const Pass *pass)
{
  for (Key key = 0; key < N_KEYS; key++)
    {
      const SluiceRect *rect = &pass->lanes.key[key];
      double y = rect->y + rect->height / 2. - 1.;

      if (rect->width <= 0.)
        continue;
      draw_key_swatch (pass->cr, pass->palette, key, rect->x, y - 6.);
      sluice_palette_set_source (pass->cr, &pass->palette->foreground);
      _sluice_render_draw_text (pass->cr, pass->layout, key_label (key),
                                rect->x + KEY_SWATCH_SPACE, y, 0., 0.5);
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

  set_source_dimmed (pass->cr, severity_color (pass->palette, pending->run_severity), alpha);
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

      set_source_dimmed (pass->cr, severity_color (pass->palette, problem->severity), alpha);
      cairo_rectangle (pass->cr, round (problem->x0 - grow),
                       lane_top (pass, problem->worker) + pass->lanes.bar_inset,
                       round (problem->x1 - problem->x0 + 2. * grow), h);
      cairo_fill (pass->cr);
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
  x1 = MAX (pending->column + 1., ceil (pending->column_x1));
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

/* Hatching marks a retried attempt without relying on its colour. */
static void
draw_hatching (cairo_t *cr,
               double   x,
               double   y,
               double   w,
               double   h)
{
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w, h);
  cairo_clip (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.38);
  cairo_set_line_width (cr, 1.5);
  for (double d = x - h; d < x + w; d += HATCH_SPACING)
    {
      cairo_move_to (cr, d, y + h);
      cairo_line_to (cr, d + h, y);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A small clock face: this attempt ran out of time. */
static void
draw_clock_mark (cairo_t *cr,
                 double   cx,
                 double   cy,
                 double   r)
{
  cairo_save (cr);
  cairo_new_sub_path (cr);
  cairo_arc (cr, cx, cy, r, 0., 2. * G_PI);
  cairo_set_source_rgba (cr, 1., 1., 1., 0.92);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.87);
  cairo_set_line_width (cr, 1.25);
  cairo_stroke (cr);
  cairo_move_to (cr, cx, cy - r * 0.65);
  cairo_line_to (cr, cx, cy);
  cairo_line_to (cr, cx + r * 0.5, cy);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A cross: the item failed for good with this attempt. */
static void
draw_cross_mark (cairo_t *cr,
                 double   cx,
                 double   cy,
                 double   r)
{
  cairo_save (cr);
  cairo_set_source_rgba (cr, 0., 0., 0., 0.87);
  cairo_set_line_width (cr, 2.);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  cairo_move_to (cr, cx - r * 0.7, cy - r * 0.7);
  cairo_line_to (cr, cx + r * 0.7, cy + r * 0.7);
  cairo_move_to (cr, cx + r * 0.7, cy - r * 0.7);
  cairo_line_to (cr, cx - r * 0.7, cy + r * 0.7);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A diamond on the bar's top edge, ringed in the background colour so it
 * stands out on any bar: the pool asked the attempt to stop. */
static void
draw_cancel_mark (cairo_t             *cr,
                  const SluicePalette *palette,
                  double               x,
                  double               y,
                  double               size,
                  double               alpha)
{
  cairo_move_to (cr, x, y - size);
  cairo_line_to (cr, x + size, y);
  cairo_line_to (cr, x, y + size);
  cairo_line_to (cr, x - size, y);
  cairo_close_path (cr);
  set_source_dimmed (cr, &palette->background, alpha);
  cairo_set_line_width (cr, 1.5);
  cairo_stroke_preserve (cr);
  set_source_dimmed (cr, &palette->cancel_round, alpha);
  cairo_fill (cr);
}

static void
draw_deadline_mark (cairo_t             *cr,
                    const SluicePalette *palette,
                    double               x,
                    double               top,
                    double               bottom,
                    double               alpha)
{
  /* A halo in the background colour parts the dashes from the bar. */
  cairo_move_to (cr, x, top);
  cairo_line_to (cr, x, bottom);
  set_source_dimmed (cr, &palette->background, alpha * 0.8);
  cairo_set_line_width (cr, 4.);
  cairo_stroke_preserve (cr);
  set_source_dimmed (cr, &palette->deadline, alpha);
  cairo_set_line_width (cr, 2.);
  cairo_set_dash (cr, (double[]) { 3., 2. }, 2, 0.);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.);
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

      draw_deadline_mark (cr, pass->palette, x, top + 1., top + h - 1., alpha);
    }

  for (guint r = 0; r < bar->n_rounds; r++)
    {
      double x = _sluice_render_time_to_x (&pass->lanes.plot, pass->t0, pass->t1, bar->round_times[r]);

      draw_cancel_mark (cr, pass->palette, x, top + pass->lanes.bar_inset,
                        MIN (5., MAX (pass->lanes.bar_inset, 3.)), alpha);
    }
}

/* "item 3 · attempt 2", or shorter forms, or nothing: whichever fits. */
static void
draw_bar_label (const Pass              *pass,
                const SluiceTimelineBar *bar,
                double                   x,
                double                   y,
                double                   w,
                double                   h,
                double                   reserved)
{
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
          /* Dark text: every outcome colour is light enough for it. */
          cairo_set_source_rgba (pass->cr, 0., 0., 0., 0.87);
          _sluice_render_draw_text (pass->cr, pass->layout, labels[i],
                                    MAX (x, pass->lanes.plot.x) + 4., y + h / 2., 0., 0.5);
          return;
        }
    }
}

static void
draw_marks (const Pass              *pass,
            const SluiceTimelineBar *bar,
            double                   x,
            double                   y,
            double                   w,
            double                   h,
            double                  *reserved)
{
  double r = MIN (h * 0.36, 6.5);
  double cx = x + w - r - 3.;

  *reserved = 0.;
  if (w < 2. * r + 6.)
    return;

  if (bar->outcome == SLUICE_OUTCOME_TIMED_OUT)
    {
      draw_clock_mark (pass->cr, cx, y + h / 2., r);
      cx -= 2. * r + 4.;
      *reserved += 2. * r + 4.;
    }
  if (bar->final_failure && w >= *reserved + 2. * r + 6.)
    {
      draw_cross_mark (pass->cr, cx, y + h / 2., r);
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
  double reserved;

  /* A one-pixel gap between back-to-back attempts keeps them apart. */
  if (w >= 4.)
    w -= 1.;

  set_source_dimmed (cr, bar_color (pass->palette, bar), alpha);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);

  if (bar->retried)
    draw_hatching (cr, x, y, w, h);

  draw_marks (pass, bar, x, y, w, h, &reserved);
  draw_bar_label (pass, bar, x, y, w, h, reserved);

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
  guint n_bars = sluice_timeline_get_n_bars (model);
  const SluiceRect *plot = &pass->lanes.plot;
  double alpha = pass->selected_item >= 0 ? 0.35 : 1.;

  for (guint i = 0; i < n_bars; i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (model, i);
      gint64 end = bar_end (bar, pass->now);
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

/**
 * sluice_render_timeline:
 * @cr: the context to draw on
 * @width: the view's width
 * @height: the view's height
 * @model: the run
 * @t0: the time at the left edge of the lanes, in clock microseconds
 * @t1: the time at the right edge
 * @now: the clock's time: running attempts end there and the "now" line is
 *   drawn there; negative for neither (a finished run)
 * @selected_item: the item whose attempts are highlighted, or -1
 * @dark: whether to use the dark palette
 *
 * Draws one lane per worker and one bar per attempt, from start to end,
 * coloured by outcome, with hatching on retried attempts, a clock on timed
 * out ones, a cross where an item failed for good, the deadline as a
 * dashed line and each cancel request as a notch. Bars outside [@t0, @t1]
 * are skipped and bars narrower than two pixels are merged per lane, so
 * thousands of attempts draw quickly.
 */
void
sluice_render_timeline (cairo_t        *cr,
                        double          width,
                        double          height,
                        SluiceTimeline *model,
                        gint64          t0,
                        gint64          t1,
                        gint64          now,
                        gint64          selected_item,
                        gboolean        dark)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autoptr(GArray) problems = NULL;
  guint n_workers;
  Pass pass;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (SLUICE_IS_TIMELINE (model));

  n_workers = MAX (sluice_timeline_get_n_workers (model), 1);
  layout = _sluice_render_create_layout (cr, FALSE);
  problems = g_array_new (FALSE, FALSE, sizeof (Problem));
  pass = (Pass) {
    .cr = cr,
    .layout = layout,
    .palette = sluice_palette_get (dark),
    .t0 = t0,
    .t1 = MAX (t1, t0 + 1),
    .now = now >= 0 ? now : sluice_timeline_get_end_time (model),
    .selected_item = selected_item,
    .problems = problems,
  };
  _sluice_lanes_get_layout (width, height, n_workers, &pass.lanes);

  /* The view owns its rectangle and no more: it may share a surface. */
  cairo_save (cr);
  cairo_rectangle (cr, 0., 0., width, height);
  cairo_clip (cr);
  sluice_palette_set_source (cr, &pass.palette->background);
  cairo_paint (cr);

  draw_key (&pass);
  draw_lanes (&pass, n_workers);
  _sluice_render_draw_time_axis (cr, layout, pass.palette, &pass.lanes.plot, pass.t0, pass.t1);

  cairo_save (cr);
  cairo_rectangle (cr, pass.lanes.plot.x, pass.lanes.plot.y,
                   pass.lanes.plot.width, pass.lanes.plot.height);
  cairo_clip (cr);
  draw_bars (&pass, model, n_workers);
  cairo_restore (cr);

  _sluice_render_draw_now (cr, pass.palette, &pass.lanes.plot, pass.t0, pass.t1, now);
  cairo_restore (cr);
}

/**
 * sluice_render_timeline_get_natural_height:
 * @model: the run
 *
 * The height at which every lane gets its full size, so a view or an
 * export can ask for no more than it needs.
 *
 * Returns: the height, in the units of sluice_render_timeline()
 */
double
sluice_render_timeline_get_natural_height (SluiceTimeline *model)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), 0.);

  return SLUICE_RENDER_KEY_HEIGHT + SLUICE_RENDER_AXIS_HEIGHT +
         MAX_LANE_HEIGHT * MAX (sluice_timeline_get_n_workers (model), 1);
}

/**
 * sluice_render_timeline_get_natural_height_for_width:
 * @model: the run
 * @width: the view's width
 *
 * Like sluice_render_timeline_get_natural_height(), with room for the key
 * as it wraps at @width: long labels (in German, say) take a second row.
 *
 * Returns: the height, in the units of sluice_render_timeline()
 */
double
sluice_render_timeline_get_natural_height_for_width (SluiceTimeline *model,
                                                     double          width)
{
  SluiceLanesLayout lanes;
  guint n_workers;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), 0.);

  n_workers = MAX (sluice_timeline_get_n_workers (model), 1);
  _sluice_lanes_get_layout (width, 0., n_workers, &lanes);

  return lanes.key_height + SLUICE_RENDER_AXIS_HEIGHT + MAX_LANE_HEIGHT * n_workers;
}

/**
 * sluice_render_timeline_hit:
 * @model: the run
 * @width: the view's width, as given to sluice_render_timeline()
 * @height: the view's height
 * @t0: the time at the left edge
 * @t1: the time at the right edge
 * @x: the pointer's x, in view coordinates
 * @y: the pointer's y
 * @bar_index: (out) (optional): the bar under the point
 *
 * Finds the attempt under a point, for tooltips and selection. The whole
 * height of a lane counts, and a few pixels either side of a bar, so thin
 * bars can be hit.
 *
 * Returns: whether a bar is under the point
 */
gboolean
sluice_render_timeline_hit (SluiceTimeline *model,
                            double          width,
                            double          height,
                            gint64          t0,
                            gint64          t1,
                            double          x,
                            double          y,
                            guint          *bar_index)
{
  SluiceLanesLayout lanes;
  guint n_workers, n_bars, best = G_MAXUINT;
  gint64 time, slop, best_distance = G_MAXINT64, latest;
  gint worker;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), FALSE);

  t1 = MAX (t1, t0 + 1);
  n_workers = MAX (sluice_timeline_get_n_workers (model), 1);
  _sluice_lanes_get_layout (width, height, n_workers, &lanes);

  if (x < lanes.plot.x || x > lanes.plot.x + lanes.plot.width ||
      y < lanes.plot.y || y >= lanes.plot.y + lanes.plot.height)
    return FALSE;

  worker = (gint) floor ((y - lanes.plot.y) / lanes.lane_height);
  time = _sluice_render_x_to_time (&lanes.plot, t0, t1, x);
  slop = _sluice_render_x_to_time (&lanes.plot, t0, t1, lanes.plot.x + HIT_SLOP) - t0;
  latest = sluice_timeline_get_end_time (model);
  n_bars = sluice_timeline_get_n_bars (model);

  for (guint i = 0; i < n_bars; i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (model, i);
      gint64 end = bar_end (bar, latest), distance;

      if (bar->start > time + slop)
        break;
      if (bar->worker != worker || end < time - slop)
        continue;

      distance = time < bar->start ? bar->start - time : time > end ? time - end : 0;
      /* On a tie (back-to-back bars) the later one wins: it is on top. */
      if (distance <= best_distance)
        {
          best_distance = distance;
          best = i;
        }
    }

  if (best == G_MAXUINT)
    return FALSE;
  if (bar_index != NULL)
    *bar_index = best;
  return TRUE;
}
