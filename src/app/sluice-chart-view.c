/* sluice-chart-view.c: the queue chart, drawn by src/render
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-chart-view.h"
#include "sluice-render-chart.h"

/**
 * SluiceChartView:
 *
 * Queue depth, attempts in flight and pulled-but-unfinished items over
 * time, with the queue capacity and the lead bound as lines (the model
 * has them from the run's run-start event). It only
 * draws: the window updates the shared #SluiceTimeline and the time range
 * once per frame. With the pointer over it, it asks the render layer for
 * the readout at the pointer's time, which takes the legend's row above
 * the plot, never covering the series. The model, the "now" line, the
 * viewport, the playhead and clicks are #SluiceTimeView's.
 */

struct _SluiceChartView
{
  SluiceTimeView  parent_instance;

  double          pointer_x;  /* -1: the pointer is not over the chart */
  gint64          pinned;     /* the readout's time without a pointer, or -1 */
  double          frame;      /* the legend and the axis, as last drawn */
};

G_DEFINE_FINAL_TYPE (SluiceChartView, sluice_chart_view, SLUICE_TYPE_TIME_VIEW)

/* Low enough that at 1024×768 the tabs keep six rows below the chart and
 * lanes with their labels; the window gives it more as it grows. In the
 * render layer's units: projector mode asks for its scale times more. */
#define MINIMUM_HEIGHT 100
/* The chart would like twice its minimum: on a short screen it and the
 * lanes share what is left, rather than the lanes taking all of it. */
#define NATURAL_HEIGHT 200
/* In projector mode the plot keeps at least this much under the legend
 * (which keeps one row, in short labels if need be). */
#define MINIMUM_PLOT_HEIGHT 40

/* What of a @width-wide chart the plot does not get: the legend's rows
 * and the time axis (0 without a run). */
static double
get_frame_height (SluiceChartView *self,
                  double           width)
{
  SluiceTimeView *view = SLUICE_TIME_VIEW (self);
  SluiceTimeline *model = sluice_time_view_get_model (view);
  SluiceViewport *viewport = sluice_time_view_get_viewport (view);
  const double height = 1000.;
  SluiceRenderFrame frame;
  SluiceChartLimits limits;
  cairo_rectangle_t plot;

  if (model == NULL || viewport == NULL || width <= 0)
    return 0.;

  frame = sluice_time_view_get_render_frame (SLUICE_TIME_VIEW (self), width, height);
  limits = sluice_render_chart_get_limits (model);
  sluice_render_chart_get_plot (model, &frame, &limits, &plot);
  return height - plot.height;
}

/* Where the pinned readout's time is across, or -1 for none or out of
 * view. */
static double
pinned_x (SluiceChartView *self,
          double           width,
          double           height)
{
  SluiceTimeView *view = SLUICE_TIME_VIEW (self);
  SluiceTimeline *model = sluice_time_view_get_model (view);
  SluiceViewport *viewport = sluice_time_view_get_viewport (view);
  SluiceRenderFrame frame;
  SluiceChartLimits limits;
  gint64 t0, t1;
  cairo_rectangle_t plot;

  if (self->pinned < 0 || model == NULL || viewport == NULL)
    return -1.;

  t0 = sluice_viewport_get_t0 (viewport);
  t1 = MAX (sluice_viewport_get_t1 (viewport), t0 + 1);
  if (self->pinned < t0 || self->pinned > t1)
    return -1.;

  frame = sluice_time_view_get_render_frame (SLUICE_TIME_VIEW (self), width, height);
  limits = sluice_render_chart_get_limits (model);
  sluice_render_chart_get_plot (model, &frame, &limits, &plot);
  return plot.x + (double) (self->pinned - t0) / (double) (t1 - t0) * plot.width;
}

static void
sluice_chart_view_draw (SluiceTimeView *view,
                        cairo_t        *cr,
                        double          width,
                        double          height)
{
  SluiceChartView *self = SLUICE_CHART_VIEW (view);
  SluiceTimeline *model = sluice_time_view_get_model (view);
  double frame = sluice_time_view_get_projector (view) ? get_frame_height (self, width) : self->frame;
  SluiceRenderFrame shown;
  SluiceChartLimits limits;

  /* The legend took another row (the failed items came into view): the
   * projector's minimum changes with it, from the next frame on. */
  if (frame != self->frame)
    {
      self->frame = frame;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }

  shown = sluice_time_view_get_render_frame (SLUICE_TIME_VIEW (self), width, height);
  limits = sluice_render_chart_get_limits (model);
  sluice_render_chart_with_pointer (cr, model, &shown, &limits,
                                    self->pointer_x >= 0 ? self->pointer_x : pinned_x (self, width, height));
}

static void
sluice_chart_view_get_plot (SluiceTimeView    *view,
                            double             width,
                            double             height,
                            cairo_rectangle_t *plot)
{
  SluiceTimeline *model = sluice_time_view_get_model (view);
  SluiceRenderFrame frame = sluice_time_view_get_render_frame (view, width, height);
  SluiceChartLimits limits = sluice_render_chart_get_limits (model);

  sluice_render_chart_get_plot (model, &frame, &limits, plot);
}

/* A click puts the playhead at its time (the chart's layout across does
 * not depend on the run). */
static gboolean
sluice_chart_view_pick (SluiceTimeView *view,
                        double          x,
                        double          y,
                        gint64         *time)
{
  SluiceViewport *viewport = sluice_time_view_get_viewport (view);
  double width, height;

  sluice_time_view_get_size (view, &width, &height);
  return sluice_render_chart_pointer_to_time (width, sluice_viewport_get_t0 (viewport),
                                              sluice_viewport_get_t1 (viewport), x, time);
}

/* The readout follows the pointer; the render layer finds the values. */
static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           SluiceChartView          *self)
{
  x /= sluice_time_view_get_scale (SLUICE_TIME_VIEW (self));
  if (self->pointer_x == x)
    return;
  self->pointer_x = x;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *motion,
          SluiceChartView          *self)
{
  self->pointer_x = -1.;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static GtkSizeRequestMode
sluice_chart_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
sluice_chart_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  SluiceChartView *self = SLUICE_CHART_VIEW (widget);
  double scale = sluice_time_view_get_scale (SLUICE_TIME_VIEW (widget));
  double least = MINIMUM_HEIGHT;

  GTK_WIDGET_CLASS (sluice_chart_view_parent_class)->measure (widget, orientation, for_size, minimum, natural,
                                                              minimum_baseline, natural_baseline);
  if (orientation != GTK_ORIENTATION_VERTICAL)
    return;

  /* At the projector's scale the legend wraps to more rows than a window
   * of normal text ever has it: the plot keeps its room under them. Asked
   * for any width, the answer is for the width it was drawn at. */
  if (sluice_time_view_get_projector (SLUICE_TIME_VIEW (self)))
    least = MAX (least, (for_size > 0 ? get_frame_height (self, for_size / scale) : self->frame) +
                        MINIMUM_PLOT_HEIGHT);
  *minimum = MAX (*minimum, (int) ceil (least * scale));
  *natural = MAX (*natural, MAX (*minimum, (int) ceil (NATURAL_HEIGHT * scale)));
}

static void
sluice_chart_view_class_init (SluiceChartViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SluiceTimeViewClass *view_class = SLUICE_TIME_VIEW_CLASS (klass);

  widget_class->get_request_mode = sluice_chart_view_get_request_mode;
  widget_class->measure = sluice_chart_view_measure;
  view_class->draw = sluice_chart_view_draw;
  view_class->get_plot = sluice_chart_view_get_plot;
  view_class->pick = sluice_chart_view_pick;
  gtk_widget_class_set_css_name (widget_class, "chartview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sluice_chart_view_init (SluiceChartView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->pointer_x = -1.;
  self->pinned = -1;
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Queue chart"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("Queue depth, attempts in flight and items pulled but not finished, over time. "
                                    "Ctrl+scroll zooms, dragging pans, Ctrl+0 shows the whole run."),
                                  -1);
}

/**
 * sluice_chart_view_new:
 *
 * Returns: (transfer full): a new chart view
 */
GtkWidget *
sluice_chart_view_new (void)
{
  return g_object_new (SLUICE_TYPE_CHART_VIEW, NULL);
}

/**
 * sluice_chart_view_set_model:
 * @self: a #SluiceChartView
 * @model: (nullable): the run's timeline
 *
 * Draws @model from now on, with the queue capacity and lead bound its
 * run-start event gave as lines: sets #SluiceTimeView:model.
 */
void
sluice_chart_view_set_model (SluiceChartView *self,
                             SluiceTimeline  *model)
{
  g_return_if_fail (SLUICE_IS_CHART_VIEW (self));

  sluice_time_view_set_model (SLUICE_TIME_VIEW (self), model);
}

/**
 * sluice_chart_view_pin_readout:
 * @self: a #SluiceChartView
 * @time: a time on the run's clock, or -1 for none
 *
 * Shows the readout (queued, in flight, lead, busy) at @time while the
 * pointer is not over the chart: a lesson points at the lead or the queue
 * there.
 */
void
sluice_chart_view_pin_readout (SluiceChartView *self,
                               gint64           time)
{
  g_return_if_fail (SLUICE_IS_CHART_VIEW (self));

  if (self->pinned == time)
    return;
  self->pinned = time;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sluice_chart_view_get_pinned_readout:
 * @self: a #SluiceChartView
 *
 * Returns: the time of the pinned readout, or -1
 */
gint64
sluice_chart_view_get_pinned_readout (SluiceChartView *self)
{
  g_return_val_if_fail (SLUICE_IS_CHART_VIEW (self), -1);
  return self->pinned;
}
