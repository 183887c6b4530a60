/* sluice-chart-view.c: the queue chart, drawn by src/render
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-chart-view.h"
#include "sluice-theme.h"
#include "sluice-viewport.h"
#include "sluice-render-chart.h"
#include "sluice-render-playhead.h"

/**
 * SluiceChartView:
 *
 * Queue depth, attempts in flight and pulled-but-unfinished items over
 * time, with the queue capacity and the lead bound as lines (the model
 * has them from the run's run-start event). It only
 * draws: the window updates the shared #SluiceTimeline and the time range
 * once per frame. With the pointer over it, it asks the render layer for
 * the readout at the pointer's time.
 */

struct _SluiceChartView
{
  GtkDrawingArea  parent_instance;

  SluiceTimeline *model;
  SluiceViewport *viewport;
  gint64          now;
  double          pointer_x;  /* -1: the pointer is not over the chart */
};

G_DEFINE_FINAL_TYPE (SluiceChartView, sluice_chart_view, GTK_TYPE_DRAWING_AREA)

static void
draw (GtkDrawingArea *area,
      cairo_t        *cr,
      int             width,
      int             height,
      gpointer        user_data)
{
  SluiceChartView *self = SLUICE_CHART_VIEW (area);
  gint64 t0, t1;
  gboolean dark;
  cairo_rectangle_t plot;
  guint capacity, bound;

  if (self->model == NULL || self->viewport == NULL)
    return;

  capacity = sluice_timeline_get_queue_capacity (self->model);
  bound = sluice_timeline_get_lead_bound (self->model);

  t0 = sluice_viewport_get_t0 (self->viewport);
  t1 = sluice_viewport_get_t1 (self->viewport);
  dark = sluice_widget_is_dark (GTK_WIDGET (area));

  sluice_render_chart_with_pointer (cr, width, height, self->model, t0, t1, self->now,
                                    capacity, bound, dark, self->pointer_x);
  if (sluice_viewport_get_playhead (self->viewport) < 0)
    return;

  sluice_render_chart_get_plot (width, height, self->model, t0, t1, self->now,
                                capacity, bound, &plot);
  sluice_render_draw_playhead (cr, &plot, t0, t1, sluice_viewport_get_playhead (self->viewport), dark);
}

/* The readout follows the pointer; the render layer finds the values. */
static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           SluiceChartView          *self)
{
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

/* A click puts the playhead at its time; a press that turns into a drag
 * pans instead (the viewport's gesture). */
static void
on_released (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             SluiceChartView *self)
{
  gint64 time;

  if (self->viewport != NULL &&
      sluice_render_chart_pointer_to_time (gtk_widget_get_width (GTK_WIDGET (self)),
                                           sluice_viewport_get_t0 (self->viewport),
                                           sluice_viewport_get_t1 (self->viewport), x, &time))
    sluice_viewport_set_playhead (self->viewport, time);
}

static void
sluice_chart_view_dispose (GObject *object)
{
  SluiceChartView *self = SLUICE_CHART_VIEW (object);

  if (self->viewport != NULL)
    g_signal_handlers_disconnect_by_data (self->viewport, self);
  g_clear_object (&self->viewport);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (sluice_chart_view_parent_class)->dispose (object);
}

/* The chart would like twice its minimum: on a short screen it and the
 * lanes share what is left, rather than the lanes taking all of it. */
#define NATURAL_HEIGHT 200

static void
sluice_chart_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  GTK_WIDGET_CLASS (sluice_chart_view_parent_class)->measure (widget, orientation, for_size, minimum, natural,
                                                              minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *natural = MAX (*natural, NATURAL_HEIGHT);
}

static void
sluice_chart_view_class_init (SluiceChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_chart_view_dispose;
  widget_class->measure = sluice_chart_view_measure;
  gtk_widget_class_set_css_name (widget_class, "chartview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sluice_chart_view_init (SluiceChartView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  self->pointer_x = -1.;
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw, NULL, NULL);
  /* Low enough that at 1024×768 the tabs keep six rows below the chart and
   * lanes with their labels; the window gives it more as it grows. */
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self), 100);
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
 * run-start event gave as lines.
 */
void
sluice_chart_view_set_model (SluiceChartView *self,
                             SluiceTimeline  *model)
{
  g_return_if_fail (SLUICE_IS_CHART_VIEW (self));

  g_set_object (&self->model, model);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sluice_chart_view_set_now:
 * @self: a #SluiceChartView
 * @now: the clock time of the "now" line, in µs
 *
 * Moves the "now" line and queues a redraw (at most once per frame).
 */
void
sluice_chart_view_set_now (SluiceChartView *self,
                           gint64 now)
{
  g_return_if_fail (SLUICE_IS_CHART_VIEW (self));

  /* Nothing moved: no frame to draw, which leaves the main loop idle for
   * a virtual clock (it runs at low priority). */
  if (self->now == now)
    return;

  self->now = now;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sluice_chart_view_get_viewport:
 * @self: a #SluiceChartView
 *
 * Returns: (transfer none): the time span it shows, shared with the other
 *   view of the window
 */
SluiceViewport *
sluice_chart_view_get_viewport (SluiceChartView *self)
{
  g_return_val_if_fail (SLUICE_IS_CHART_VIEW (self), NULL);
  return self->viewport;
}

/**
 * sluice_chart_view_set_viewport:
 * @self: a #SluiceChartView
 * @viewport: the time span to show; zooming and panning the view change it
 *
 * Shows @viewport and redraws when it changes.
 */
void
sluice_chart_view_set_viewport (SluiceChartView *self,
                                SluiceViewport *viewport)
{
  g_return_if_fail (SLUICE_IS_CHART_VIEW (self));
  g_return_if_fail (SLUICE_IS_VIEWPORT (viewport));
  g_return_if_fail (self->viewport == NULL);

  self->viewport = g_object_ref (viewport);
  sluice_viewport_attach_view (viewport, GTK_WIDGET (self));
}
