/* sluice-viewport.c: the time span the chart and the lanes share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <math.h>

#include "sluice-render-timeline.h"
#include "sluice-viewport.h"

/**
 * SluiceViewport:
 *
 * The span of clock time, [t0, t1], that the queue chart and the worker
 * lanes both show, inside the bounds of the run, [start, end]. While it
 * "fits" it is the whole run and follows it as the run grows; zooming or
 * panning leaves that mode until sluice_viewport_fit().
 *
 * sluice_viewport_attach_view() makes a view follow it (a redraw at each
 * change) and gives the view the gestures: Ctrl+scroll zooms around the
 * pointer, horizontal (or Shift+) scroll and dragging pan. The views draw
 * from src/render with t0, t1 and the playhead as they are.
 */

/* The narrowest span a zoom reaches: a millisecond of clock time. */
#define MIN_ZOOM_SPAN 1000
#define WHEEL_ZOOM 1.25
#define WHEEL_PAN 0.1       /* of the span, per wheel step */
#define DRAG_THRESHOLD 4.

struct _SluiceViewport
{
  GObject  parent_instance;

  gint64   start, end;
  gint64   t0, t1;
  gint64   playhead; /* the moment shown after a run (scrubber, event row, click), or -1 */
  gboolean fit;
};

G_DEFINE_FINAL_TYPE (SluiceViewport, sluice_viewport, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FIT,
  PROP_PLAYHEAD,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_fit (SluiceViewport *self,
         gboolean        fit)
{
  if (self->fit == fit)
    return;

  self->fit = fit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIT]);
}

static void
set_span (SluiceViewport *self,
          gint64          t0,
          gint64          t1)
{
  if (self->t0 == t0 && self->t1 == t1)
    return;

  self->t0 = t0;
  self->t1 = t1;
  g_signal_emit (self, signals[CHANGED], 0);
}

/* Keeps [t0, t0 + span] inside the bounds, moving rather than shrinking. */
static void
set_clamped (SluiceViewport *self,
             gint64          t0,
             gint64          span)
{
  span = MIN (span, self->end - self->start);
  t0 = CLAMP (t0, self->start, self->end - span);
  set_span (self, t0, t0 + span);
}

static void
sluice_viewport_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SluiceViewport *self = SLUICE_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_FIT:
      g_value_set_boolean (value, self->fit);
      break;
    case PROP_PLAYHEAD:
      g_value_set_int64 (value, self->playhead);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_viewport_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SluiceViewport *self = SLUICE_VIEWPORT (object);

  switch (prop_id)
    {
    case PROP_PLAYHEAD:
      sluice_viewport_set_playhead (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_viewport_class_init (SluiceViewportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = sluice_viewport_get_property;
  object_class->set_property = sluice_viewport_set_property;

  /**
   * SluiceViewport:fit:
   *
   * Whether the span is the whole run, following it while it grows.
   */
  properties[PROP_FIT] =
    g_param_spec_boolean ("fit", NULL, NULL, TRUE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceViewport:playhead:
   *
   * The moment `t`, a clock time in µs, that the views show after a run
   * (the scrubber, an event row or a click in the chart or the lanes set
   * it), or -1 for now. The chart and the lanes draw a line there and dim
   * what had not happened yet. Setting it emits #SluiceViewport::changed
   * too, so that the views draw it.
   */
  properties[PROP_PLAYHEAD] =
    g_param_spec_int64 ("playhead", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceViewport::changed:
   *
   * The span moved or changed its width.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sluice_viewport_init (SluiceViewport *self)
{
  self->fit = TRUE;
  self->end = self->t1 = 1;
  self->playhead = -1;
}

/**
 * sluice_viewport_new:
 *
 * Returns: (transfer full): a viewport that fits [0, 1 µs]
 */
SluiceViewport *
sluice_viewport_new (void)
{
  return g_object_new (SLUICE_TYPE_VIEWPORT, NULL);
}

/**
 * sluice_viewport_set_bounds:
 * @self: a #SluiceViewport
 * @start: the clock time the run started, in µs
 * @end: the latest clock time to show, in µs
 *
 * Sets the extent of the run. A viewport that fits shows all of it; one
 * zoomed in stays where it is, moved back inside the bounds if need be.
 */
void
sluice_viewport_set_bounds (SluiceViewport *self,
                            gint64          start,
                            gint64          end)
{
  g_return_if_fail (SLUICE_IS_VIEWPORT (self));

  end = MAX (end, start + 1);
  self->start = start;
  self->end = end;

  if (self->fit)
    set_span (self, start, end);
  else
    set_clamped (self, self->t0, self->t1 - self->t0);
}

/**
 * sluice_viewport_get_start:
 * @self: a #SluiceViewport
 *
 * Returns: the start of the bounds, in µs
 */
gint64
sluice_viewport_get_start (SluiceViewport *self)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), 0);
  return self->start;
}

/**
 * sluice_viewport_get_end:
 * @self: a #SluiceViewport
 *
 * Returns: the end of the bounds, in µs
 */
gint64
sluice_viewport_get_end (SluiceViewport *self)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), 0);
  return self->end;
}

/**
 * sluice_viewport_get_t0:
 * @self: a #SluiceViewport
 *
 * Returns: the clock time at the left edge of the views, in µs
 */
gint64
sluice_viewport_get_t0 (SluiceViewport *self)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), 0);
  return self->t0;
}

/**
 * sluice_viewport_get_t1:
 * @self: a #SluiceViewport
 *
 * Returns: the clock time at the right edge of the views, in µs
 */
gint64
sluice_viewport_get_t1 (SluiceViewport *self)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), 0);
  return self->t1;
}

/**
 * sluice_viewport_set_playhead:
 * @self: a #SluiceViewport
 * @playhead: a clock time in µs, or -1 for now
 *
 * Sets #SluiceViewport:playhead; the span stays where it is.
 */
void
sluice_viewport_set_playhead (SluiceViewport *self,
                              gint64          playhead)
{
  g_return_if_fail (SLUICE_IS_VIEWPORT (self));
  g_return_if_fail (playhead >= -1);

  if (self->playhead == playhead)
    return;

  self->playhead = playhead;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAYHEAD]);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * sluice_viewport_get_playhead:
 * @self: a #SluiceViewport
 *
 * Returns: the moment shown, a clock time in µs, or -1 for now
 */
gint64
sluice_viewport_get_playhead (SluiceViewport *self)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), -1);
  return self->playhead;
}

/**
 * sluice_viewport_get_fit:
 * @self: a #SluiceViewport
 *
 * Returns: whether the views show the whole run
 */
gboolean
sluice_viewport_get_fit (SluiceViewport *self)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), TRUE);
  return self->fit;
}

/**
 * sluice_viewport_fit:
 * @self: a #SluiceViewport
 *
 * Shows the whole run, [start, end], and follows it from now on.
 */
void
sluice_viewport_fit (SluiceViewport *self)
{
  g_return_if_fail (SLUICE_IS_VIEWPORT (self));

  set_span (self, self->start, self->end);
  set_fit (self, TRUE);
}

/**
 * sluice_viewport_zoom:
 * @self: a #SluiceViewport
 * @center: the clock time that stays where it is on screen
 * @factor: the new span over the old one: below 1 zooms in
 *
 * Zooming out to the whole run or beyond fits again.
 */
void
sluice_viewport_zoom (SluiceViewport *self,
                      gint64          center,
                      double          factor)
{
  gint64 span, whole;
  double ratio;

  g_return_if_fail (SLUICE_IS_VIEWPORT (self));
  g_return_if_fail (factor > 0);

  whole = self->end - self->start;
  span = (gint64) llround ((double) (self->t1 - self->t0) * factor);
  span = MAX (span, MIN (MIN_ZOOM_SPAN, whole));
  if (span >= whole)
    {
      sluice_viewport_fit (self);
      return;
    }

  center = CLAMP (center, self->t0, self->t1);
  ratio = (double) span / MAX (self->t1 - self->t0, 1);
  set_fit (self, FALSE);
  set_clamped (self, center - (gint64) llround ((double) (center - self->t0) * ratio), span);
}

/**
 * sluice_viewport_pan:
 * @self: a #SluiceViewport
 * @delta: how far to move, in µs; positive moves later
 *
 * Moves the span inside the bounds. A viewport that fits has nowhere to go.
 */
void
sluice_viewport_pan (SluiceViewport *self,
                     gint64          delta)
{
  g_return_if_fail (SLUICE_IS_VIEWPORT (self));

  if (self->fit || delta == 0)
    return;

  set_clamped (self, self->t0 + delta, self->t1 - self->t0);
}

/**
 * sluice_viewport_set_range:
 * @self: a #SluiceViewport
 * @t0: the clock time at the left edge, in µs
 * @t1: the clock time at the right edge, in µs
 *
 * Shows [@t0, @t1], inside the bounds; the whole run fits again.
 */
void
sluice_viewport_set_range (SluiceViewport *self,
                           gint64          t0,
                           gint64          t1)
{
  g_return_if_fail (SLUICE_IS_VIEWPORT (self));
  g_return_if_fail (t1 > t0);

  if (t1 - t0 >= self->end - self->start)
    {
      sluice_viewport_fit (self);
      return;
    }

  set_fit (self, FALSE);
  set_clamped (self, t0, MAX (t1 - t0, MIN (MIN_ZOOM_SPAN, self->end - self->start)));
}

/**
 * sluice_viewport_x_to_time:
 * @self: a #SluiceViewport
 * @view_width: the width of the chart or lanes view, in the render
 *   layer's units (SluiceTimeView's size)
 * @x: a position in the view, in the same units
 *
 * Returns: the clock time drawn at @x, in µs
 */
gint64
sluice_viewport_x_to_time (SluiceViewport *self,
                           double          view_width,
                           double          x)
{
  g_return_val_if_fail (SLUICE_IS_VIEWPORT (self), 0);

  return sluice_render_x_to_time (view_width, self->t0, self->t1, x);
}

/**
 * sluice_viewport_zoom_at:
 * @self: a #SluiceViewport
 * @view_width: the width of the chart or lanes view, in the render
 *   layer's units (SluiceTimeView's size)
 * @x: the pointer's position in the view, in the same units
 * @factor: the new span over the old one: below 1 zooms in
 *
 * Zooms around the time under the pointer, which stays under it.
 */
void
sluice_viewport_zoom_at (SluiceViewport *self,
                         double          view_width,
                         double          x,
                         double          factor)
{
  g_return_if_fail (SLUICE_IS_VIEWPORT (self));

  sluice_viewport_zoom (self, sluice_viewport_x_to_time (self, view_width, x), factor);
}

/* ---- the gestures of a view -------------------------------------------- */

typedef struct {
  SluiceViewport *viewport;
  GtkWidget      *view;       /* not owned: the state lives on it */
  double          scale;      /* the view's pixels per unit of the render layer */
  double          pointer_x;
  gint64          drag_t0;
  gboolean        dragging;
} ViewState;

static void
view_state_free (gpointer data)
{
  ViewState *state = data;

  g_object_unref (state->viewport);
  g_free (state);
}

/* How many of the view's pixels a unit of the render layer takes: more
 * than one in projector mode. The view says so (attach_view and
 * set_view_scale), so that the viewport needs to know nothing of it. */
static double
view_scale (ViewState *state)
{
  return state->scale;
}

/* The time axis' width, in the view's pixels. */
static double
plot_width (ViewState *state)
{
  double scale = view_scale (state);
  double width;

  sluice_render_get_time_axis (gtk_widget_get_width (state->view) / scale, NULL, &width);
  return width * scale;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           ViewState                *state)
{
  state->pointer_x = x;
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           ViewState                *state)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  gboolean wheel = gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL;
  SluiceViewport *self = state->viewport;
  gint64 span = self->t1 - self->t0;

  if (mods & GDK_CONTROL_MASK)
    {
      /* Pixels from a touchpad zoom as smoothly as wheel steps. */
      double steps = wheel ? dy : dy / 20.;

      if (steps == 0)
        return FALSE;
      sluice_viewport_zoom_at (self, gtk_widget_get_width (state->view) / view_scale (state),
                               state->pointer_x / view_scale (state), pow (WHEEL_ZOOM, steps));
      return TRUE;
    }

  if ((mods & GDK_SHIFT_MASK) && dx == 0)
    dx = dy;
  if (dx == 0)
    return FALSE;

  sluice_viewport_pan (self, wheel ? (gint64) llround (dx * WHEEL_PAN * span)
                                   : (gint64) llround (dx / plot_width (state) * span));
  return TRUE;
}

static void
on_drag_begin (GtkGestureDrag *drag,
               double          x,
               double          y,
               ViewState      *state)
{
  state->drag_t0 = state->viewport->t0;
  state->dragging = FALSE;
}

static void
on_drag_update (GtkGestureDrag *drag,
                double          offset_x,
                double          offset_y,
                ViewState      *state)
{
  SluiceViewport *self = state->viewport;
  GtkGesture *gesture = GTK_GESTURE (drag);
  gint64 span = self->t1 - self->t0;

  /* Past the threshold the drag is a pan, not a click. */
  if (self->fit || (!state->dragging && fabs (offset_x) < DRAG_THRESHOLD))
    return;

  if (!state->dragging)
    gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_CLAIMED);
  state->dragging = TRUE;
  set_clamped (self, state->drag_t0 - (gint64) llround (offset_x / plot_width (state) * span), span);
}

/**
 * sluice_viewport_attach_view:
 * @self: a #SluiceViewport
 * @view: the chart or lanes view that shows @self
 * @scale: how many of @view's pixels a unit of the render layer takes
 *   (sluice_viewport_set_view_scale() changes it)
 *
 * Redraws @view whenever @self changes (its span or its playhead), and
 * lets @view zoom and pan @self: Ctrl+scroll zooms around the pointer,
 * horizontal or Shift+scroll and dragging pan.
 */
void
sluice_viewport_attach_view (SluiceViewport *self,
                             GtkWidget      *view,
                             double          scale)
{
  ViewState *state;
  GtkEventController *motion, *scroll;
  GtkGesture *drag;

  g_return_if_fail (SLUICE_IS_VIEWPORT (self));
  g_return_if_fail (GTK_IS_WIDGET (view));

  state = g_new0 (ViewState, 1);
  state->viewport = g_object_ref (self);
  state->view = view;
  state->scale = scale;
  g_object_set_data_full (G_OBJECT (view), "sluice-viewport-state", state, view_state_free);
  g_signal_connect_object (self, "changed", G_CALLBACK (gtk_widget_queue_draw), view, G_CONNECT_SWAPPED);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), state);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), state);
  gtk_widget_add_controller (view, motion);

  scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), state);
  gtk_widget_add_controller (view, scroll);

  drag = gtk_gesture_drag_new ();
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), state);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), state);
  gtk_widget_add_controller (view, GTK_EVENT_CONTROLLER (drag));
}

/**
 * sluice_viewport_set_view_scale:
 * @self: a #SluiceViewport
 * @view: a view attached to @self (sluice_viewport_attach_view())
 * @scale: how many of @view's pixels a unit of the render layer takes now
 *
 * Tells @self that @view is drawn at another scale (projector mode on or
 * off), so that its gestures keep the time under the pointer.
 */
void
sluice_viewport_set_view_scale (SluiceViewport *self,
                                GtkWidget      *view,
                                double          scale)
{
  ViewState *state;

  g_return_if_fail (SLUICE_IS_VIEWPORT (self));
  g_return_if_fail (GTK_IS_WIDGET (view));
  g_return_if_fail (scale > 0);

  state = g_object_get_data (G_OBJECT (view), "sluice-viewport-state");
  g_return_if_fail (state != NULL && state->viewport == self);
  state->scale = scale;
}
