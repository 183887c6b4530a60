/* sluice-window-actions.c: the window's `win.` actions and when they are
 * enabled
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

#define KEY_ZOOM 1.5

/* ---- the run ----------------------------------------------------------- */

static void
run_activated (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);

  if (sluice_run_controller_get_running (self->run))
    return;

  if (scenario == NULL)
    {
      _sluice_window_set_banner (self, BANNER_ERROR,
                                 _("The configuration has an error: fix the field marked in red, then run again."));
      return;
    }

  sluice_run_controller_start (self->run, scenario);
}

static void
request_stop_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  sluice_run_controller_request_stop (SLUICE_WINDOW (widget)->run);
}

static void
close_service_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  sluice_run_controller_close (SLUICE_WINDOW (widget)->run);
}

static void
submit_job_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  g_autoptr(GVariant) item = NULL;
  g_autoptr(SluiceBehaviour) behaviour = NULL;
  g_autoptr(GError) error = NULL;

  if (!sluice_jobs_view_get_submission (self->jobs_view, &item, &behaviour))
    return;

  if (!sluice_run_controller_submit (self->run, g_variant_ref (item), behaviour, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The job was refused: %s"), error->message);

      sluice_jobs_view_show_submit_error (self->jobs_view, text);
    }
}

static void
give_up_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);

  sluice_run_controller_give_up (self->run, sluice_jobs_view_get_selected_job (self->jobs_view));
}

static void
cancel_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  sluice_run_controller_cancel (SLUICE_WINDOW (widget)->run);
}

static void
reset_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);

  _sluice_window_reset_run (self);
  _sluice_window_show_ready (self);
}

/* ---- scenarios and exports --------------------------------------------- */

/* Opening another scenario asks first while this one has unsaved
 * changes. */
static void
open_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _sluice_window_ask_first (SLUICE_WINDOW (widget), PENDING_OPEN_DIALOG, NULL);
}

static void
save_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _sluice_window_save (SLUICE_WINDOW (widget));
}

static void
save_as_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _sluice_window_save_as (SLUICE_WINDOW (widget));
}

static void
export_image_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  _sluice_window_choose_file (SLUICE_WINDOW (widget), SLUICE_FILE_DIALOG_EXPORT_IMAGE);
}

static void
export_events_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  _sluice_window_choose_file (SLUICE_WINDOW (widget), SLUICE_FILE_DIALOG_EXPORT_EVENTS);
}

static void
save_run_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  _sluice_window_choose_file (SLUICE_WINDOW (widget), SLUICE_FILE_DIALOG_SAVE_RUN);
}

/* Attaching replaces the scenario shown: asked first while it has unsaved
 * changes, as opening another one is. */
static void
attach_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);

  if (!sluice_run_controller_get_running (self->run))
    _sluice_window_ask_first (self, PENDING_ATTACH_DIALOG, NULL);
}

static void
detach_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  sluice_run_controller_detach (SLUICE_WINDOW (widget)->run);
}

static void
compare_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  _sluice_window_choose_comparison (SLUICE_WINDOW (widget));
}

static void
open_store_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  _sluice_window_choose_store (SLUICE_WINDOW (widget));
}

static void
open_preset_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  _sluice_window_ask_first (SLUICE_WINDOW (widget), PENDING_OPEN_PRESET,
                            g_variant_get_string (parameter, NULL));
}

/* ---- zoom -------------------------------------------------------------- */

/* From the keyboard or the buttons, around the middle of what is shown. */
static void
zoom_by (SluiceWindow *self,
         double        factor)
{
  SluiceViewport *viewport = sluice_run_controller_get_viewport (self->run);
  gint64 t0 = sluice_viewport_get_t0 (viewport);
  gint64 t1 = sluice_viewport_get_t1 (viewport);

  sluice_viewport_zoom (viewport, t0 + (t1 - t0) / 2, factor);
}

static void
zoom_in_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  zoom_by (SLUICE_WINDOW (widget), 1. / KEY_ZOOM);
}

static void
zoom_out_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  zoom_by (SLUICE_WINDOW (widget), KEY_ZOOM);
}

static void
zoom_fit_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  sluice_viewport_fit (sluice_run_controller_get_viewport (SLUICE_WINDOW (widget)->run));
}

/* ---- the actions ------------------------------------------------------ */

static const struct {
  const char *name;
  const char *parameter_type;
  GtkWidgetActionActivateFunc activate;
} win_actions[] = {
  { "win.run", NULL, run_activated },
  { "win.request-stop", NULL, request_stop_activated },
  { "win.close-service", NULL, close_service_activated },
  { "win.submit-job", NULL, submit_job_activated },
  { "win.give-up", NULL, give_up_activated },
  { "win.cancel", NULL, cancel_activated },
  { "win.reset", NULL, reset_activated },
  { "win.open", NULL, open_activated },
  { "win.save", NULL, save_activated },
  { "win.save-as", NULL, save_as_activated },
  { "win.export-image", NULL, export_image_activated },
  { "win.export-events", NULL, export_events_activated },
  { "win.save-run", NULL, save_run_activated },
  { "win.compare", NULL, compare_activated },
  { "win.attach", NULL, attach_activated },
  { "win.detach", NULL, detach_activated },
  { "win.open-store", NULL, open_store_activated },
  { "win.open-preset", "s", open_preset_activated },
  { "win.zoom-in", NULL, zoom_in_activated },
  { "win.zoom-out", NULL, zoom_out_activated },
  { "win.zoom-fit", NULL, zoom_fit_activated },
};

static void
enable (SluiceWindow *self,
        const char   *name,
        gboolean      enabled)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), name, enabled);
}

/**
 * _sluice_window_update_actions:
 * @self: a #SluiceWindow
 *
 * Enables the actions that make sense now: those of the run while it
 * goes on, the exports once it recorded something, and so on. Attached to
 * another program's pool, the run is that program's: it cannot be
 * cancelled from here, and stopped only when the program allows it; the
 * configuration is shown read-only, and no other scenario is opened over
 * it.
 */
void
_sluice_window_update_actions (SluiceWindow *self)
{
  gboolean valid = sluice_config_panel_get_valid (self->config_panel);
  gboolean running = sluice_run_controller_get_running (self->run);
  gboolean has_events = sluice_run_controller_get_has_events (self->run);
  gboolean fit = sluice_viewport_get_fit (sluice_run_controller_get_viewport (self->run));
  gboolean service = running && sluice_run_controller_get_submit_mode (self->run);
  gint64 selected = sluice_jobs_view_get_selected_job (self->jobs_view);
  gboolean attached = _sluice_window_get_attached (self);
  SluiceRemotePool *remote = sluice_run_controller_get_remote (self->run);

  enable (self, "win.run", !running && valid && _sluice_window_lesson_allows_run (self));
  enable (self, "win.request-stop", running && (!attached || sluice_remote_pool_get_can_stop (remote)));
  enable (self, "win.close-service", service);
  enable (self, "win.submit-job", service);
  enable (self, "win.give-up", service && selected >= 0 &&
                           sluice_jobs_view_get_state (self->jobs_view, selected) <= SLUICE_JOB_RUNNING);
  enable (self, "win.cancel", running && !attached);
  enable (self, "win.reset", !running);
  enable (self, "win.save", valid);
  enable (self, "win.save-as", valid);
  enable (self, "win.export-image", !running && has_events);
  enable (self, "win.export-events", !running && has_events);
  enable (self, "win.save-run", !running && has_events);
  enable (self, "win.compare", !running && valid);
  enable (self, "win.attach", !running);
  enable (self, "win.detach", attached);
  /* The sidebar shows the attached pool's configuration until it ends. */
  enable (self, "win.open", !attached);
  enable (self, "win.open-preset", !attached);
  enable (self, "win.zoom-in", running || has_events);
  enable (self, "win.zoom-out", !fit);
  enable (self, "win.zoom-fit", !fit);
  gtk_widget_set_sensitive (GTK_WIDGET (self->config_panel), !attached);
}

/**
 * _sluice_window_class_install_actions:
 * @widget_class: the window's class
 *
 * Installs the `win.` actions on the class, as GNOME Text Editor does:
 * the run's, the scenario's and the exports', the zoom, and as property
 * actions `win.projector` (projector mode, F5) and `win.show-sidebar`
 * (the configuration panel, F9), and the lessons' actions.
 */
void
_sluice_window_class_install_actions (GtkWidgetClass *widget_class)
{
  for (guint i = 0; i < G_N_ELEMENTS (win_actions); i++)
    gtk_widget_class_install_action (widget_class, win_actions[i].name, win_actions[i].parameter_type,
                                     win_actions[i].activate);
  /* F5, as a presentation starts: the back row reads the lanes. */
  gtk_widget_class_install_property_action (widget_class, "win.projector", "projector");
  /* The header's toggle and F9: the chart and the lanes get the whole
   * width of a small screen. */
  gtk_widget_class_install_property_action (widget_class, "win.show-sidebar", "show-sidebar");
  _sluice_window_class_install_lesson_actions (widget_class);
}
