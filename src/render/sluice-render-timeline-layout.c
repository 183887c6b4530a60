/* sluice-render-timeline-layout.c: where the lanes, their key and each
 * bar are: for drawing, for sizing a view and for hit testing
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-render-timeline.h"

#include <math.h>

#include "sluice-render-private.h"

#define MAX_LANE_HEIGHT  40.
#define MIN_LANE_HEIGHT  20.  /* a lane's name and its bars' labels still fit */
#define MIN_FULL_LANES   3    /* more lanes share the room of three: a projector at 1024×768 keeps its chart 200 pixels high above ten lanes */
#define MIN_VIEW_WIDTH   400. /* the narrowest view a minimum height answers for */
#define HIT_SLOP         3.   /* pixels: thin bars stay easy to hover */

static void
get_layout (double             width,
            double             height,
            guint              n_workers,
            guint              key_kinds,
            SluiceLanesLayout *layout)
{
  double available;

  layout->plot.x = SLUICE_RENDER_GUTTER;
  layout->plot.width = MAX (width - SLUICE_RENDER_GUTTER - SLUICE_RENDER_MARGIN, 1.);
  _sluice_lanes_layout_key (layout, key_kinds, layout->plot.x, layout->plot.x + layout->plot.width);

  available = MAX (height - layout->key_height - SLUICE_RENDER_AXIS_HEIGHT, 1.);
  layout->lane_height = MIN (MAX_LANE_HEIGHT, available / MAX (n_workers, 1));
  layout->plot.y = layout->key_height;
  layout->plot.height = layout->lane_height * MAX (n_workers, 1);
  layout->bar_inset = layout->lane_height >= 8. ? round (layout->lane_height * 0.15) : 0.;
}

/* The lanes' geometry in a view of @width × @height, for a run not known
 * (the key has its basic entries). */
void
_sluice_lanes_get_layout (double             width,
                          double             height,
                          guint              n_workers,
                          SluiceLanesLayout *layout)
{
  get_layout (width, height, n_workers, 0, layout);
}

/* The lanes' geometry for @model in a view of @width × @height: the one
 * drawing, hit testing and the tests all see. The key explains what the
 * run's lanes show. */
void
_sluice_lanes_get_model_layout (SluiceTimeline    *model,
                                double             width,
                                double             height,
                                SluiceLanesLayout *layout)
{
  get_layout (width, height, MAX (sluice_timeline_get_n_workers (model), 1), _sluice_lanes_get_key_kinds (model),
              layout);
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

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), 0.);

  _sluice_lanes_get_model_layout (model, width, 0., &lanes);

  return lanes.key_height + SLUICE_RENDER_AXIS_HEIGHT +
         MAX_LANE_HEIGHT * MAX (sluice_timeline_get_n_workers (model), 1);
}

/**
 * sluice_render_get_time_axis:
 * @view_width: the width of the chart or lanes view
 * @x: (out): where the time axis starts, in the view
 * @width: (out): how wide it is
 *
 * Where both views put the time axis: from the gutter to the margin,
 * whatever their height, so that a zoom or a pan by the pointer means
 * the same time in either.
 */
void
sluice_render_get_time_axis (double  view_width,
                             double *x,
                             double *width)
{
  SluiceLanesLayout layout;

  _sluice_lanes_get_layout (view_width, 100., 1, &layout);
  if (x != NULL)
    *x = layout.plot.x;
  if (width != NULL)
    *width = layout.plot.width;
}

/**
 * sluice_render_x_to_time:
 * @view_width: the width of the chart or lanes view
 * @t0: the time at the axis' left end, in clock microseconds
 * @t1: the time at its right end
 * @x: a position in the view
 *
 * Returns: the clock time drawn at @x (before @t0 or after @t1 off the axis)
 */
gint64
sluice_render_x_to_time (double view_width,
                         gint64 t0,
                         gint64 t1,
                         double x)
{
  SluiceRect plot = { 0 };

  sluice_render_get_time_axis (view_width, &plot.x, &plot.width);
  plot.height = 1.;
  return _sluice_render_x_to_time (&plot, t0, t1, x);
}

/**
 * sluice_render_timeline_get_plot:
 * @model: the run
 * @width: the view's width
 * @height: the view's height
 * @plot: (out): where sluice_render_timeline() draws the lanes
 *
 * For layers drawn over the lanes, such as sluice_render_draw_playhead().
 */
void
sluice_render_timeline_get_plot (SluiceTimeline    *model,
                                 double             width,
                                 double             height,
                                 cairo_rectangle_t *plot)
{
  SluiceLanesLayout lanes;

  g_return_if_fail (SLUICE_IS_TIMELINE (model));
  g_return_if_fail (plot != NULL);

  _sluice_lanes_get_model_layout (model, width, height, &lanes);
  *plot = (cairo_rectangle_t) { lanes.plot.x, lanes.plot.y, lanes.plot.width, lanes.plot.height };
}

/**
 * sluice_render_timeline_get_minimum_height_for_width:
 * @model: the run
 * @width: the view's width, or -1 for any width
 *
 * The least height a view should give the lanes at @width: the key as it
 * wraps there, the axis, and up to three lanes at a height where each is
 * named and its bars are labelled; more lanes share the room of three (and
 * are named every second, fourth… lane). Below it lanes lose their names
 * and the bars their labels. It is never more than at -1, which answers
 * for a view 400 pixels wide, so that a narrow window
 * does not ask for a taller one.
 *
 * Returns: the height, in the units of sluice_render_timeline()
 */
double
sluice_render_timeline_get_minimum_height_for_width (SluiceTimeline *model,
                                                     double          width)
{
  guint n_lanes;
  SluiceLanesLayout lanes, narrow;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), 0.);

  n_lanes = MIN (MAX (sluice_timeline_get_n_workers (model), 1), MIN_FULL_LANES);
  _sluice_lanes_get_model_layout (model, MIN_VIEW_WIDTH, 0., &narrow);
  if (width < 0)
    return narrow.key_height + SLUICE_RENDER_AXIS_HEIGHT + MIN_LANE_HEIGHT * n_lanes;

  _sluice_lanes_get_model_layout (model, width, 0., &lanes);
  return MIN (lanes.key_height, narrow.key_height) + SLUICE_RENDER_AXIS_HEIGHT + MIN_LANE_HEIGHT * n_lanes;
}

/* What is under a point of the lanes. */
typedef struct {
  SluiceLanesLayout lanes;
  gint64            t0, t1;   /* the span across, at least a microsecond */
  gint              worker;   /* the lane */
  gint64            time;     /* the time across */
  gint64            slop;     /* the time a few pixels span */
} Spot;

/* The lane and time under a point; FALSE outside the lanes. */
static gboolean
locate (SluiceTimeline          *model,
        const SluiceRenderFrame *frame,
        double                   x,
        double                   y,
        Spot                    *spot)
{
  SluiceLanesLayout *lanes = &spot->lanes;

  _sluice_lanes_get_model_layout (model, frame->width, frame->height, lanes);
  spot->t0 = frame->t0;
  spot->t1 = MAX (frame->t1, frame->t0 + 1);

  if (x < lanes->plot.x || x > lanes->plot.x + lanes->plot.width ||
      y < lanes->plot.y || y >= lanes->plot.y + lanes->plot.height)
    return FALSE;

  spot->worker = (gint) floor ((y - lanes->plot.y) / lanes->lane_height);
  spot->time = _sluice_render_x_to_time (&lanes->plot, spot->t0, spot->t1, x);
  spot->slop = _sluice_render_x_to_time (&lanes->plot, spot->t0, spot->t1, lanes->plot.x + HIT_SLOP) - spot->t0;
  return TRUE;
}

/**
 * sluice_render_timeline_hit:
 * @model: the run
 * @frame: the view, as given to sluice_render_timeline(); its clock and
 *   palette do not matter
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
sluice_render_timeline_hit (SluiceTimeline          *model,
                            const SluiceRenderFrame *frame,
                            double                   x,
                            double                   y,
                            guint                   *bar_index)
{
  Spot spot;
  guint n_bars, best = G_MAXUINT;
  gint64 best_distance = G_MAXINT64, latest;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);

  if (!locate (model, frame, x, y, &spot))
    return FALSE;
  latest = sluice_timeline_get_end_time (model);
  n_bars = sluice_timeline_get_n_bars (model);

  for (guint i = 0; i < n_bars; i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (model, i);
      gint64 end = _sluice_lanes_bar_end (bar, latest), distance;

      if (bar->start > spot.time + spot.slop)
        break;
      if (bar->worker != spot.worker || end < spot.time - spot.slop)
        continue;

      distance = spot.time < bar->start ? bar->start - spot.time : spot.time > end ? spot.time - end : 0;
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

/**
 * sluice_render_timeline_hit_mark:
 * @model: the run
 * @frame: the view, as given to sluice_render_timeline(); its clock and
 *   palette do not matter
 * @x: the pointer's x, in view coordinates
 * @y: the pointer's y
 * @mark_index: (out) (optional): the mark under the point
 *
 * Finds the retry-policy mark under a point: a backoff's bracket (the time
 * between the failed attempt and the next), or the sign of a skipped retry
 * (at the end of the failed attempt's bar) or of a shed item (at the top
 * of the lane). Marks sit on top of bars, so a view asks for a mark
 * first, then for a bar.
 *
 * Returns: whether a mark is under the point
 */
gboolean
sluice_render_timeline_hit_mark (SluiceTimeline          *model,
                                 const SluiceRenderFrame *frame,
                                 double                   x,
                                 double                   y,
                                 guint                   *mark_index)
{
  Spot spot;
  const SluiceRect *plot = &spot.lanes.plot;
  double r;

  g_return_val_if_fail (SLUICE_IS_TIMELINE (model), FALSE);
  g_return_val_if_fail (frame != NULL, FALSE);

  if (!locate (model, frame, x, y, &spot))
    return FALSE;
  r = _sluice_lanes_mark_radius (&spot.lanes);

  /* The latest mark under the point wins: it is drawn on top. */
  for (guint i = sluice_timeline_get_n_marks (model); i-- > 0;)
    {
      const SluiceTimelineMark *mark = sluice_timeline_get_mark (model, i);

      if (mark->worker != spot.worker)
        continue;
      if (mark->kind == SLUICE_TIMELINE_MARK_BACKOFF)
        {
          /* Inside the wait only: its ends touch the bars. */
          if (spot.time <= mark->start || spot.time >= mark->end)
            continue;
        }
      else
        {
          double cx, cy;

          _sluice_lanes_place_point_mark (&spot.lanes, mark,
                                          _sluice_render_time_to_x (plot, spot.t0, spot.t1, mark->start),
                                          mark->attempt_start >= 0
                                            ? _sluice_render_time_to_x (plot, spot.t0, spot.t1, mark->attempt_start)
                                            : -G_MAXDOUBLE,
                                          &cx, &cy);
          if (fabs (x - cx) > r + HIT_SLOP || fabs (y - cy) > r + HIT_SLOP)
            continue;
        }

      if (mark_index != NULL)
        *mark_index = i;
      return TRUE;
    }

  return FALSE;
}
