/* sluice-scrubber.c: the playhead of a finished run: a slider, replay and keys
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-scrubber.h"

/**
 * SluiceScrubber:
 *
 * Moves the #SluiceViewport:playhead of a finished run: a slider over the
 * run's span, a Play button that replays the run from the playhead at
 * #SluiceScrubber:speed (one second of the run's clock per second of
 * wall time at 1×), and the actions the window's keys use:
 * `scrub.start`, `scrub.end` (Home, End), `scrub.previous-event`,
 * `scrub.next-event` (←, →), `scrub.back`, `scrub.forward` (Shift+←,
 * Shift+→: a tenth of the run) and `scrub.play` (Space). The events come
 * from a #SluiceFold of the run; the views follow the playhead.
 *
 * It is active only while #SluiceScrubber:fold is set and the run is not
 * going on: a live run's moment is now.
 */

#define STEP_FRACTION 10   /* Shift+←/→ move a tenth of the run */

struct _SluiceScrubber
{
  GtkWidget        parent_instance;

  GtkToggleButton *play_button;
  GtkScale        *scale;
  GtkLabel        *time_label;

  SluiceViewport  *viewport;
  SluiceFold      *fold;
  double           speed;
  gboolean         updating;    /* setting the slider from the playhead */
  guint            tick_id;
  gint64           last_frame;  /* frame clock µs of the replay's last frame */
};

G_DEFINE_FINAL_TYPE (SluiceScrubber, sluice_scrubber, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_FOLD,
  PROP_SPEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- where the playhead is ------------------------------------------- */

/* The run's span: from its first event to its last (the viewport may show
 * more, at least half a second). */
static gint64
get_start (SluiceScrubber *self)
{
  const SluiceEvent *first = self->fold ? sluice_fold_get_event (self->fold, sluice_fold_get_first_position (self->fold))
                                        : NULL;

  return first != NULL ? first->time : sluice_viewport_get_start (self->viewport);
}

static gint64
get_end (SluiceScrubber *self)
{
  guint64 end = self->fold ? sluice_fold_get_end_position (self->fold) : 0;
  const SluiceEvent *last = end > 0 ? sluice_fold_get_event (self->fold, end - 1) : NULL;

  return last != NULL ? last->time : sluice_viewport_get_end (self->viewport);
}

/* The moment shown: the playhead, or the end of the run when it shows now. */
static gint64
get_moment (SluiceScrubber *self)
{
  gint64 playhead = sluice_viewport_get_playhead (self->viewport);

  return playhead >= 0 ? playhead : get_end (self);
}

static void
move_to (SluiceScrubber *self,
         gint64          time)
{
  sluice_viewport_set_playhead (self->viewport, CLAMP (time, get_start (self), get_end (self)));
}

static void
show_moment (SluiceScrubber *self)
{
  gint64 start = get_start (self);
  gint64 end = get_end (self);
  GtkAdjustment *adjustment = gtk_range_get_adjustment (GTK_RANGE (self->scale));
  gint64 moment = get_moment (self);
  g_autofree char *text = NULL;

  self->updating = TRUE;
  gtk_adjustment_configure (adjustment, (double) moment, (double) start, (double) MAX (end, start + 1),
                            (double) (end - start) / 100., (double) (end - start) / STEP_FRACTION, 0.);
  self->updating = FALSE;

  /* Translators: the scrubber's time, on the run's clock from its start */
  text = g_strdup_printf (_("%.3f s"), (double) MAX (0, moment - start) / G_USEC_PER_SEC);
  gtk_label_set_text (self->time_label, text);
}

static void
on_value_changed (SluiceScrubber *self)
{
  if (!self->updating)
    move_to (self, (gint64) gtk_range_get_value (GTK_RANGE (self->scale)));
}

/* ---- replay ------------------------------------------------------------ */

static void
stop_replay (SluiceScrubber *self)
{
  if (self->tick_id != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
  self->tick_id = 0;
  if (gtk_toggle_button_get_active (self->play_button))
    gtk_toggle_button_set_active (self->play_button, FALSE);
}

static gboolean
replay_tick (GtkWidget     *widget,
             GdkFrameClock *frame_clock,
             gpointer       user_data)
{
  SluiceScrubber *self = SLUICE_SCRUBBER (widget);
  gint64 frame = gdk_frame_clock_get_frame_time (frame_clock);
  gint64 end = get_end (self);
  gint64 moment = get_moment (self) + (gint64) ((double) (frame - self->last_frame) * self->speed);

  self->last_frame = frame;
  move_to (self, moment);
  if (moment < end)
    return G_SOURCE_CONTINUE;

  self->tick_id = 0;
  gtk_toggle_button_set_active (self->play_button, FALSE);
  return G_SOURCE_REMOVE;
}

/* Play from the playhead; from the start when it is at the end. */
static void
on_play_toggled (SluiceScrubber *self)
{
  GdkFrameClock *frame_clock;

  if (!gtk_toggle_button_get_active (self->play_button))
    {
      stop_replay (self);
      return;
    }
  if (self->tick_id != 0)
    return;

  if (get_moment (self) >= get_end (self))
    move_to (self, get_start (self));
  frame_clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));
  self->last_frame = frame_clock ? gdk_frame_clock_get_frame_time (frame_clock) : g_get_monotonic_time ();
  self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), replay_tick, NULL, NULL);
}

/* ---- the keys' actions ------------------------------------------------- */

/* The next event after the moment shown, or the end. */
static gint64
next_event_time (SluiceScrubber *self)
{
  guint64 position = sluice_fold_find_position (self->fold, get_moment (self));
  const SluiceEvent *event = sluice_fold_get_event (self->fold, position);

  return event != NULL ? event->time : get_end (self);
}

/* The latest event before the moment shown, or the start. */
static gint64
previous_event_time (SluiceScrubber *self)
{
  guint64 position = sluice_fold_find_position (self->fold, get_moment (self) - 1);
  const SluiceEvent *event = position > 0 ? sluice_fold_get_event (self->fold, position - 1) : NULL;

  return event != NULL ? event->time : get_start (self);
}

static void
scrub_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SluiceScrubber *self = SLUICE_SCRUBBER (widget);
  gint64 span = get_end (self) - get_start (self);

  if (g_str_equal (action_name, "scrub.play"))
    {
      gtk_toggle_button_set_active (self->play_button, !gtk_toggle_button_get_active (self->play_button));
      return;
    }

  stop_replay (self);
  if (g_str_equal (action_name, "scrub.start"))
    move_to (self, get_start (self));
  else if (g_str_equal (action_name, "scrub.end"))
    move_to (self, get_end (self));
  else if (g_str_equal (action_name, "scrub.next-event"))
    move_to (self, next_event_time (self));
  else if (g_str_equal (action_name, "scrub.previous-event"))
    move_to (self, previous_event_time (self));
  else if (g_str_equal (action_name, "scrub.forward"))
    move_to (self, get_moment (self) + span / STEP_FRACTION);
  else if (g_str_equal (action_name, "scrub.back"))
    move_to (self, get_moment (self) - span / STEP_FRACTION);
}

static const char * const scrub_actions[] = {
  "scrub.start", "scrub.end", "scrub.previous-event", "scrub.next-event", "scrub.back", "scrub.forward",
  "scrub.play",
};

static void
update_sensitivity (SluiceScrubber *self)
{
  gboolean active = self->fold != NULL && self->viewport != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (scrub_actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), scrub_actions[i], active);
  gtk_widget_set_sensitive (GTK_WIDGET (self->scale), active);
  gtk_widget_set_sensitive (GTK_WIDGET (self->play_button), active);
  if (!active)
    stop_replay (self);
}

/* ---- public ------------------------------------------------------------ */

/**
 * sluice_scrubber_set_viewport:
 * @self: a #SluiceScrubber
 * @viewport: the chart's and the lanes' viewport, whose playhead it moves
 *
 * Follows @viewport's bounds and playhead from now on.
 */
void
sluice_scrubber_set_viewport (SluiceScrubber *self,
                              SluiceViewport *viewport)
{
  g_return_if_fail (SLUICE_IS_SCRUBBER (self));
  g_return_if_fail (SLUICE_IS_VIEWPORT (viewport));
  g_return_if_fail (self->viewport == NULL);

  self->viewport = g_object_ref (viewport);
  g_signal_connect_object (viewport, "changed", G_CALLBACK (show_moment), self, G_CONNECT_SWAPPED);
  show_moment (self);
  update_sensitivity (self);
}

/**
 * sluice_scrubber_set_fold:
 * @self: a #SluiceScrubber
 * @fold: (nullable): the finished run's events, or %NULL while a run goes
 *   on or there is none
 *
 * Makes the scrubber active over the run of @fold, or inactive.
 */
void
sluice_scrubber_set_fold (SluiceScrubber *self,
                          SluiceFold     *fold)
{
  g_return_if_fail (SLUICE_IS_SCRUBBER (self));
  g_return_if_fail (fold == NULL || SLUICE_IS_FOLD (fold));

  if (!g_set_object (&self->fold, fold))
    return;
  update_sensitivity (self);
  show_moment (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLD]);
}

/**
 * sluice_scrubber_get_playing:
 * @self: a #SluiceScrubber
 *
 * Returns: whether it replays the run
 */
gboolean
sluice_scrubber_get_playing (SluiceScrubber *self)
{
  g_return_val_if_fail (SLUICE_IS_SCRUBBER (self), FALSE);
  return self->tick_id != 0;
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_scrubber_dispose (GObject *object)
{
  SluiceScrubber *self = SLUICE_SCRUBBER (object);

  stop_replay (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_SCRUBBER);
  g_clear_object (&self->fold);
  g_clear_object (&self->viewport);

  G_OBJECT_CLASS (sluice_scrubber_parent_class)->dispose (object);
}

static void
sluice_scrubber_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SluiceScrubber *self = SLUICE_SCRUBBER (object);

  switch (prop_id)
    {
    case PROP_FOLD:
      g_value_set_object (value, self->fold);
      break;
    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_scrubber_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SluiceScrubber *self = SLUICE_SCRUBBER (object);

  switch (prop_id)
    {
    case PROP_FOLD:
      sluice_scrubber_set_fold (self, g_value_get_object (value));
      break;
    case PROP_SPEED:
      self->speed = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_scrubber_class_init (SluiceScrubberClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_scrubber_dispose;
  object_class->get_property = sluice_scrubber_get_property;
  object_class->set_property = sluice_scrubber_set_property;

  /**
   * SluiceScrubber:fold: (nullable)
   *
   * The finished run it moves through, or %NULL.
   */
  properties[PROP_FOLD] =
    g_param_spec_object ("fold", NULL, NULL, SLUICE_TYPE_FOLD,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceScrubber:speed:
   *
   * How fast Play replays: seconds of the run's clock per second.
   */
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.001, 1000., 1.,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  for (guint i = 0; i < G_N_ELEMENTS (scrub_actions); i++)
    gtk_widget_class_install_action (widget_class, scrub_actions[i], NULL, scrub_activated);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-scrubber.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceScrubber, play_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceScrubber, scale);
  gtk_widget_class_bind_template_child (widget_class, SluiceScrubber, time_label);
  gtk_widget_class_bind_template_callback (widget_class, on_value_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_play_toggled);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "scrubber");
}

static void
sluice_scrubber_init (SluiceScrubber *self)
{
  self->speed = 1.;
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_HORIZONTAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);
  for (guint i = 0; i < G_N_ELEMENTS (scrub_actions); i++)
    gtk_widget_action_set_enabled (GTK_WIDGET (self), scrub_actions[i], FALSE);
}

/**
 * sluice_scrubber_new:
 *
 * Returns: (transfer full): a scrubber without a viewport
 */
GtkWidget *
sluice_scrubber_new (void)
{
  return g_object_new (SLUICE_TYPE_SCRUBBER, NULL);
}
