/* sluice-clock-controls.c: pause, step and speed of the run's clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-clock-controls.h"

/**
 * SluiceClockControls:
 *
 * The header bar's clock controls: Pause/Resume, Step (to the next timer)
 * and the speed of the scaled clock, from 0.1× to 10×.
 *
 * They drive a #SluiceRunController through the `clock.pause`,
 * `clock.step`, `clock.faster` and `clock.slower` actions: pause and step
 * only mean something during a run, and a run starts unpaused. The speed
 * holds for this run and the next ones (the window keeps it in its
 * settings). Their keys (Space, →, + and −) are the window's, which
 * handles them wherever the focus is (see #SluiceWindow).
 */

static const double speeds[] = { 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0 };

struct _SluiceClockControls
{
  GtkWidget            parent_instance;

  /* template */
  GtkToggleButton     *pause_button;
  GtkScale            *speed_scale;

  SluiceRunController *run;        /* weak: the window owns it */
  gboolean             paused;
};

G_DEFINE_FINAL_TYPE (SluiceClockControls, sluice_clock_controls, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PAUSED,
  PROP_SPEED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The button shows what a press does next. */
static void
set_paused (SluiceClockControls *self,
            gboolean             paused)
{
  if (self->run != NULL)
    sluice_run_controller_set_paused (self->run, paused);
  if (self->paused == paused)
    return;

  self->paused = paused;
  gtk_button_set_icon_name (GTK_BUTTON (self->pause_button),
                            paused ? "media-playback-start-symbolic" : "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->pause_button),
                               paused ? _("Resume the clock (Space)") : _("Pause the clock (Space)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->pause_button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, paused ? _("Resume") : _("Pause"), -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

static void
on_running_changed (SluiceClockControls *self)
{
  gboolean running = self->run != NULL && sluice_run_controller_get_running (self->run);
  /* An attached pool runs on its program's clock: nothing here paces it. */
  gboolean own = running && sluice_run_controller_get_remote (self->run) == NULL;

  if (!own)
    set_paused (self, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "clock.pause", own);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "clock.step", own);
  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_scale), !running || own);
}

static void
step_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SluiceClockControls *self = SLUICE_CLOCK_CONTROLS (widget);

  if (self->run != NULL)
    sluice_run_controller_step (self->run);
}

/* The next preset speed up or down, from wherever the slider is. */
static void
change_speed_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  SluiceClockControls *self = SLUICE_CLOCK_CONTROLS (widget);
  double speed = sluice_clock_controls_get_speed (self);
  gint i;

  if (g_str_equal (action_name, "clock.faster"))
    for (i = 0; i < (gint) G_N_ELEMENTS (speeds) - 1 && speeds[i] <= speed * 1.001; i++)
      ;
  else
    for (i = G_N_ELEMENTS (speeds) - 1; i > 0 && speeds[i] >= speed * 0.999; i--)
      ;

  gtk_range_set_value (GTK_RANGE (self->speed_scale), log10 (speeds[i]));
}

static char *
format_speed (GtkScale *scale,
              double    value,
              gpointer  user_data)
{
  return g_strdup_printf (_("%.1f×"), pow (10.0, value));
}

static void
on_speed_changed (SluiceClockControls *self)
{
  if (self->run != NULL)
    sluice_run_controller_set_speed (self->run, sluice_clock_controls_get_speed (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPEED]);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_clock_controls_dispose (GObject *object)
{
  SluiceClockControls *self = SLUICE_CLOCK_CONTROLS (object);

  sluice_clock_controls_set_run_controller (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_CLOCK_CONTROLS);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (sluice_clock_controls_parent_class)->dispose (object);
}

static void
sluice_clock_controls_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SluiceClockControls *self = SLUICE_CLOCK_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
      break;
    case PROP_SPEED:
      g_value_set_double (value, sluice_clock_controls_get_speed (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_clock_controls_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  SluiceClockControls *self = SLUICE_CLOCK_CONTROLS (object);

  switch (prop_id)
    {
    case PROP_PAUSED:
      set_paused (self, g_value_get_boolean (value));
      break;
    case PROP_SPEED:
      sluice_clock_controls_set_speed (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_clock_controls_class_init (SluiceClockControlsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_clock_controls_dispose;
  object_class->get_property = sluice_clock_controls_get_property;
  object_class->set_property = sluice_clock_controls_set_property;

  /**
   * SluiceClockControls:paused:
   *
   * Whether the run's clock is paused; always %FALSE between runs.
   */
  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceClockControls:speed:
   *
   * Clock seconds per real second, from 0.1 to 10.
   */
  properties[PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL, 0.1, 10.0, 1.0,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_property_action (widget_class, "clock.pause", "paused");
  gtk_widget_class_install_action (widget_class, "clock.step", NULL, step_activated);
  gtk_widget_class_install_action (widget_class, "clock.faster", NULL, change_speed_activated);
  gtk_widget_class_install_action (widget_class, "clock.slower", NULL, change_speed_activated);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-clock-controls.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceClockControls, pause_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceClockControls, speed_scale);
  gtk_widget_class_bind_template_callback (widget_class, on_speed_changed);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "clockcontrols");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sluice_clock_controls_init (SluiceClockControls *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);
  gtk_scale_set_format_value_func (self->speed_scale, format_speed, NULL, NULL);

  on_running_changed (self);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_clock_controls_new:
 *
 * Returns: (transfer full): new clock controls, driving no run yet
 */
GtkWidget *
sluice_clock_controls_new (void)
{
  return g_object_new (SLUICE_TYPE_CLOCK_CONTROLS, NULL);
}

/**
 * sluice_clock_controls_set_run_controller:
 * @self: a #SluiceClockControls
 * @run: (nullable) (transfer none): the runs to drive
 *
 * Drives @run's clock from now on, starting with the speed shown. The
 * controls do not keep @run alive: its owner sets %NULL before dropping it.
 */
void
sluice_clock_controls_set_run_controller (SluiceClockControls *self,
                                          SluiceRunController *run)
{
  g_return_if_fail (SLUICE_IS_CLOCK_CONTROLS (self));
  g_return_if_fail (run == NULL || SLUICE_IS_RUN_CONTROLLER (run));

  if (self->run == run)
    return;

  if (self->run != NULL)
    g_signal_handlers_disconnect_by_data (self->run, self);
  g_set_weak_pointer (&self->run, run);
  if (run != NULL)
    {
      g_signal_connect_swapped (run, "notify::running", G_CALLBACK (on_running_changed), self);
      sluice_run_controller_set_speed (run, sluice_clock_controls_get_speed (self));
    }
  on_running_changed (self);
}

/**
 * sluice_clock_controls_get_speed:
 * @self: a #SluiceClockControls
 *
 * Returns: the speed shown: clock seconds per real second
 */
double
sluice_clock_controls_get_speed (SluiceClockControls *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK_CONTROLS (self), 1.0);

  return pow (10.0, gtk_range_get_value (GTK_RANGE (self->speed_scale)));
}

/**
 * sluice_clock_controls_set_speed:
 * @self: a #SluiceClockControls
 * @speed: clock seconds per real second, clamped to 0.1–10
 *
 * Moves the slider to @speed, for this run and the next ones.
 */
void
sluice_clock_controls_set_speed (SluiceClockControls *self,
                                 double               speed)
{
  g_return_if_fail (SLUICE_IS_CLOCK_CONTROLS (self));

  gtk_range_set_value (GTK_RANGE (self->speed_scale),
                       log10 (CLAMP (speed, speeds[0], speeds[G_N_ELEMENTS (speeds) - 1])));
}

/**
 * sluice_clock_controls_get_paused:
 * @self: a #SluiceClockControls
 *
 * Returns: whether the run's clock is paused
 */
gboolean
sluice_clock_controls_get_paused (SluiceClockControls *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK_CONTROLS (self), FALSE);

  return self->paused;
}
