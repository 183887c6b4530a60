/* sluice-time-view.c: a view of a run over time (the chart, the lanes)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-render-playhead.h"
#include "sluice-render-projector.h"
#include "sluice-theme.h"
#include "sluice-time-view.h"

/**
 * SluiceTimeView:
 *
 * What the queue chart (#SluiceChartView) and the worker lanes
 * (#SluiceTimelineView) share: the run's #SluiceTimeline they draw
 * (#SluiceTimeView:model), the "now" line (#SluiceTimeView:now) and the
 * time span they show (#SluiceTimeView:viewport, shared by the views of a
 * window, which also gives them zoom and pan). It draws the playhead over
 * the subclass's plot, and a click puts the playhead at the time the
 * subclass picks there; a press that turns into a drag pans instead (the
 * viewport's gesture claims it).
 *
 * The views only draw: the window updates the model and the time range
 * once per frame.
 *
 * In projector mode (#SluiceTimeView:projector) a view draws everything
 * %SLUICE_RENDER_PROJECTOR_SCALE times larger, in the high-contrast
 * palette: the render layer lays the view out for a view that many times
 * smaller and the cairo context scales it up, as a HiDPI screen's scale
 * does. Text, lines, marks and the room between them grow together, so a
 * layout that keeps its labels apart at one size keeps them apart at any
 * other. The subclasses get sizes and points in those units.
 */

typedef struct
{
  SluiceTimeline *model;
  SluiceViewport *viewport;
  gint64          now;
  gboolean        projector;
} SluiceTimeViewPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (SluiceTimeView, sluice_time_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_NOW,
  PROP_VIEWPORT,
  PROP_PROJECTOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* As a GtkDrawingArea draws: one cairo node over the whole view. */
static void
sluice_time_view_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  SluiceTimeView *self = SLUICE_TIME_VIEW (widget);
  SluiceTimeViewPrivate *priv = sluice_time_view_get_instance_private (self);
  SluiceTimeViewClass *klass = SLUICE_TIME_VIEW_GET_CLASS (self);
  double scale = sluice_time_view_get_scale (self);
  cairo_rectangle_t plot;
  double width, height;
  gint64 playhead;
  cairo_t *cr;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                 gtk_widget_get_height (widget)));
  if (priv->model != NULL && priv->viewport != NULL)
    {
      sluice_time_view_get_size (self, &width, &height);
      cairo_scale (cr, scale, scale);
      klass->draw (self, cr, width, height);
      playhead = sluice_viewport_get_playhead (priv->viewport);
      if (playhead >= 0)
        {
          klass->get_plot (self, width, height, &plot);
          sluice_render_draw_playhead (cr, &plot, sluice_viewport_get_t0 (priv->viewport),
                                       sluice_viewport_get_t1 (priv->viewport), playhead,
                                       sluice_time_view_get_palette (self));
        }
    }
  cairo_destroy (cr);
}

/* On release: a press that turns into a drag pans instead. */
static void
on_released (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             SluiceTimeView  *self)
{
  SluiceTimeViewPrivate *priv = sluice_time_view_get_instance_private (self);
  SluiceTimeViewClass *klass = SLUICE_TIME_VIEW_GET_CLASS (self);
  double scale = sluice_time_view_get_scale (self);
  gint64 time;

  x /= scale;
  y /= scale;
  if (priv->viewport != NULL && klass->pick (self, x, y, &time))
    sluice_viewport_set_playhead (priv->viewport, time);
  if (klass->clicked != NULL)
    klass->clicked (self, x, y);
}

static void
sluice_time_view_dispose (GObject *object)
{
  SluiceTimeView *self = SLUICE_TIME_VIEW (object);
  SluiceTimeViewPrivate *priv = sluice_time_view_get_instance_private (self);

  if (priv->viewport != NULL)
    g_signal_handlers_disconnect_by_data (priv->viewport, self);
  g_clear_object (&priv->viewport);
  g_clear_object (&priv->model);

  G_OBJECT_CLASS (sluice_time_view_parent_class)->dispose (object);
}

static void
sluice_time_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SluiceTimeView *self = SLUICE_TIME_VIEW (object);
  SluiceTimeViewPrivate *priv = sluice_time_view_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, priv->model);
      break;
    case PROP_NOW:
      g_value_set_int64 (value, priv->now);
      break;
    case PROP_VIEWPORT:
      g_value_set_object (value, priv->viewport);
      break;
    case PROP_PROJECTOR:
      g_value_set_boolean (value, priv->projector);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_time_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SluiceTimeView *self = SLUICE_TIME_VIEW (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      sluice_time_view_set_model (self, g_value_get_object (value));
      break;
    case PROP_NOW:
      sluice_time_view_set_now (self, g_value_get_int64 (value));
      break;
    case PROP_VIEWPORT:
      /* Not set yet at construction: nothing to do. */
      if (g_value_get_object (value) != NULL)
        sluice_time_view_set_viewport (self, g_value_get_object (value));
      break;
    case PROP_PROJECTOR:
      sluice_time_view_set_projector (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_time_view_class_init (SluiceTimeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_time_view_dispose;
  object_class->get_property = sluice_time_view_get_property;
  object_class->set_property = sluice_time_view_set_property;
  widget_class->snapshot = sluice_time_view_snapshot;

  /**
   * SluiceTimeView:model: (nullable)
   *
   * The run's timeline it draws, or %NULL without a run.
   */
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, SLUICE_TYPE_TIMELINE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceTimeView:now:
   *
   * Where the "now" line is, in µs of the run's clock.
   */
  properties[PROP_NOW] =
    g_param_spec_int64 ("now", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceTimeView:viewport:
   *
   * The time span it shows, shared with the other views of the window;
   * zooming and panning the view change it. It is set once, at
   * construction or after, and stays.
   */
  properties[PROP_VIEWPORT] =
    g_param_spec_object ("viewport", NULL, NULL, SLUICE_TYPE_VIEWPORT,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceTimeView:projector:
   *
   * Whether the view is drawn for a projector:
   * %SLUICE_RENDER_PROJECTOR_SCALE times larger (text, lines, marks and
   * the room between them), in the high-contrast palette.
   */
  properties[PROP_PROJECTOR] =
    g_param_spec_boolean ("projector", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sluice_time_view_init (SluiceTimeView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

/**
 * sluice_time_view_get_model:
 * @self: a #SluiceTimeView
 *
 * Returns: (transfer none) (nullable): the run's timeline it draws
 */
SluiceTimeline *
sluice_time_view_get_model (SluiceTimeView *self)
{
  SluiceTimeViewPrivate *priv;

  g_return_val_if_fail (SLUICE_IS_TIME_VIEW (self), NULL);

  priv = sluice_time_view_get_instance_private (self);
  return priv->model;
}

/**
 * sluice_time_view_set_model:
 * @self: a #SluiceTimeView
 * @model: (nullable): the run's timeline
 *
 * Sets #SluiceTimeView:model and draws it from now on.
 */
void
sluice_time_view_set_model (SluiceTimeView *self,
                            SluiceTimeline *model)
{
  SluiceTimeViewPrivate *priv;
  SluiceTimeViewClass *klass;

  g_return_if_fail (SLUICE_IS_TIME_VIEW (self));
  g_return_if_fail (model == NULL || SLUICE_IS_TIMELINE (model));

  priv = sluice_time_view_get_instance_private (self);
  if (!g_set_object (&priv->model, model))
    return;

  klass = SLUICE_TIME_VIEW_GET_CLASS (self);
  if (klass->model_changed != NULL)
    klass->model_changed (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/**
 * sluice_time_view_get_now:
 * @self: a #SluiceTimeView
 *
 * Returns: the clock time of the "now" line, in µs
 */
gint64
sluice_time_view_get_now (SluiceTimeView *self)
{
  SluiceTimeViewPrivate *priv;

  g_return_val_if_fail (SLUICE_IS_TIME_VIEW (self), 0);

  priv = sluice_time_view_get_instance_private (self);
  return priv->now;
}

/**
 * sluice_time_view_set_now:
 * @self: a #SluiceTimeView
 * @now: the clock time of the "now" line, in µs
 *
 * Moves the "now" line and queues a redraw (at most once per frame).
 */
void
sluice_time_view_set_now (SluiceTimeView *self,
                          gint64          now)
{
  SluiceTimeViewPrivate *priv;

  g_return_if_fail (SLUICE_IS_TIME_VIEW (self));

  priv = sluice_time_view_get_instance_private (self);

  /* Nothing moved: no frame to draw, which leaves the main loop idle for
   * a virtual clock (it runs at low priority). */
  if (priv->now == now)
    return;

  priv->now = now;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOW]);
}

/**
 * sluice_time_view_get_viewport:
 * @self: a #SluiceTimeView
 *
 * Returns: (transfer none) (nullable): the time span it shows, shared with
 *   the other views of the window, or %NULL before it is set
 */
SluiceViewport *
sluice_time_view_get_viewport (SluiceTimeView *self)
{
  SluiceTimeViewPrivate *priv;

  g_return_val_if_fail (SLUICE_IS_TIME_VIEW (self), NULL);

  priv = sluice_time_view_get_instance_private (self);
  return priv->viewport;
}

/**
 * sluice_time_view_set_viewport:
 * @self: a #SluiceTimeView
 * @viewport: the time span to show; zooming and panning the view change it
 *
 * Shows @viewport and redraws when it changes. A view's viewport is set
 * once.
 */
void
sluice_time_view_set_viewport (SluiceTimeView *self,
                               SluiceViewport *viewport)
{
  SluiceTimeViewPrivate *priv;

  g_return_if_fail (SLUICE_IS_TIME_VIEW (self));
  g_return_if_fail (SLUICE_IS_VIEWPORT (viewport));

  priv = sluice_time_view_get_instance_private (self);
  g_return_if_fail (priv->viewport == NULL);

  priv->viewport = g_object_ref (viewport);
  sluice_viewport_attach_view (viewport, GTK_WIDGET (self), sluice_time_view_get_scale (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEWPORT]);
}

/**
 * sluice_time_view_get_projector:
 * @self: a #SluiceTimeView
 *
 * Returns: whether the view is drawn for a projector
 */
gboolean
sluice_time_view_get_projector (SluiceTimeView *self)
{
  SluiceTimeViewPrivate *priv;

  g_return_val_if_fail (SLUICE_IS_TIME_VIEW (self), FALSE);

  priv = sluice_time_view_get_instance_private (self);
  return priv->projector;
}

/**
 * sluice_time_view_set_projector:
 * @self: a #SluiceTimeView
 * @projector: whether to draw for a projector
 *
 * Sets #SluiceTimeView:projector: the view asks for a size that many
 * times larger and redraws.
 */
void
sluice_time_view_set_projector (SluiceTimeView *self,
                                gboolean        projector)
{
  SluiceTimeViewPrivate *priv;

  g_return_if_fail (SLUICE_IS_TIME_VIEW (self));

  priv = sluice_time_view_get_instance_private (self);
  projector = !!projector;
  if (priv->projector == projector)
    return;

  priv->projector = projector;
  if (priv->viewport != NULL)
    sluice_viewport_set_view_scale (priv->viewport, GTK_WIDGET (self), sluice_time_view_get_scale (self));
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECTOR]);
}

/**
 * sluice_time_view_get_scale:
 * @self: a #SluiceTimeView
 *
 * Returns: how many of the widget's pixels a unit of the render layer
 *   takes: %SLUICE_RENDER_PROJECTOR_SCALE in projector mode, else 1
 */
double
sluice_time_view_get_scale (SluiceTimeView *self)
{
  return sluice_time_view_get_projector (self) ? SLUICE_RENDER_PROJECTOR_SCALE : 1.;
}

/**
 * sluice_time_view_get_size:
 * @self: a #SluiceTimeView
 * @width: (out): the view's width in the render layer's units
 * @height: (out): its height
 *
 * Gives the size the render layer lays the view out for: the widget's
 * over sluice_time_view_get_scale().
 */
void
sluice_time_view_get_size (SluiceTimeView *self,
                           double         *width,
                           double         *height)
{
  double scale = sluice_time_view_get_scale (self);

  g_return_if_fail (width != NULL && height != NULL);

  *width = gtk_widget_get_width (GTK_WIDGET (self)) / scale;
  *height = gtk_widget_get_height (GTK_WIDGET (self)) / scale;
}

/**
 * sluice_time_view_get_palette:
 * @self: a #SluiceTimeView
 *
 * Returns: the palette the view is drawn in: dark in a dark theme, high
 *   contrast in projector mode and in a high-contrast theme
 */
SluicePaletteFlags
sluice_time_view_get_palette (SluiceTimeView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  SluicePaletteFlags flags = sluice_widget_is_dark (widget) ? SLUICE_PALETTE_DARK : SLUICE_PALETTE_LIGHT;

  if (sluice_time_view_get_projector (self) || sluice_widget_is_high_contrast (widget))
    flags |= SLUICE_PALETTE_HIGH_CONTRAST;
  return flags;
}

/**
 * sluice_time_view_get_render_frame:
 * @self: a #SluiceTimeView
 * @width: the drawing's width, in the render layer's units
 * @height: its height
 *
 * Returns: what a @width × @height drawing of the view shows now: the
 *   viewport's span, the now line and the palette
 */
SluiceRenderFrame
sluice_time_view_get_render_frame (SluiceTimeView *self,
                                   double          width,
                                   double          height)
{
  SluiceViewport *viewport = sluice_time_view_get_viewport (self);

  return (SluiceRenderFrame) {
    width, height, sluice_viewport_get_t0 (viewport), sluice_viewport_get_t1 (viewport),
    sluice_time_view_get_now (self), sluice_time_view_get_palette (self),
  };
}
