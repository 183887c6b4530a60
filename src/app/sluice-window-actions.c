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
run_activated (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  SluiceWindow *self = user_data;
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
request_stop_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  sluice_run_controller_request_stop (SLUICE_WINDOW (user_data)->run);
}

static void
close_service_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  sluice_run_controller_close (SLUICE_WINDOW (user_data)->run);
}

static void
submit_job_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  SluiceWindow *self = user_data;
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
give_up_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  SluiceWindow *self = user_data;

  sluice_run_controller_give_up (self->run, sluice_jobs_view_get_selected_job (self->jobs_view));
}

static void
cancel_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  sluice_run_controller_cancel (SLUICE_WINDOW (user_data)->run);
}

static void
reset_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  SluiceWindow *self = user_data;

  _sluice_window_reset_run (self);
  _sluice_window_show_ready (self);
}

/* ---- scenarios and exports --------------------------------------------- */

/* Opening another scenario asks first while this one has unsaved
 * changes. */
static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  _sluice_window_ask_first (SLUICE_WINDOW (user_data), PENDING_OPEN_DIALOG, NULL);
}

static void
save_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  _sluice_window_save (SLUICE_WINDOW (user_data));
}

static void
save_as_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  _sluice_window_save_as (SLUICE_WINDOW (user_data));
}

static void
export_image_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  _sluice_window_choose_file (SLUICE_WINDOW (user_data), SLUICE_FILE_DIALOG_EXPORT_IMAGE);
}

static void
export_events_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  _sluice_window_choose_file (SLUICE_WINDOW (user_data), SLUICE_FILE_DIALOG_EXPORT_EVENTS);
}

static void
save_run_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  _sluice_window_choose_file (SLUICE_WINDOW (user_data), SLUICE_FILE_DIALOG_SAVE_RUN);
}

/* Attaching replaces the scenario shown: asked first while it has unsaved
 * changes, as opening another one is. */
static void
attach_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  SluiceWindow *self = user_data;

  if (!sluice_run_controller_get_running (self->run))
    _sluice_window_ask_first (self, PENDING_ATTACH_DIALOG, NULL);
}

static void
detach_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  sluice_run_controller_detach (SLUICE_WINDOW (user_data)->run);
}

static void
compare_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  _sluice_window_choose_comparison (SLUICE_WINDOW (user_data));
}

static void
open_store_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  _sluice_window_choose_store (SLUICE_WINDOW (user_data));
}

static void
open_preset_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  _sluice_window_ask_first (SLUICE_WINDOW (user_data), PENDING_OPEN_PRESET,
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
zoom_in_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  zoom_by (SLUICE_WINDOW (user_data), 1. / KEY_ZOOM);
}

static void
zoom_out_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  zoom_by (SLUICE_WINDOW (user_data), KEY_ZOOM);
}

static void
zoom_fit_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  sluice_viewport_fit (sluice_run_controller_get_viewport (SLUICE_WINDOW (user_data)->run));
}

/* ---- projector mode ------------------------------------------------------ */

/* F5, as a presentation starts: the back row reads the lanes. Toggled by
 * activating it (a boolean state without a parameter); the window sets
 * the state back whenever projector mode changes (sluice-window-projector.c).
 * Not a GPropertyAction on the window: it would keep the window alive. */
static void
projector_change_state (GSimpleAction *action,
                        GVariant      *value,
                        gpointer       user_data)
{
  sluice_window_set_projector (SLUICE_WINDOW (user_data), g_variant_get_boolean (value));
}

/* ---- the action map ---------------------------------------------------- */

static const GActionEntry win_actions[] = {
  { "run", run_activated },
  { "request-stop", request_stop_activated },
  { "close-service", close_service_activated },
  { "submit-job", submit_job_activated },
  { "give-up", give_up_activated },
  { "cancel", cancel_activated },
  { "reset", reset_activated },
  { "open", open_activated },
  { "save", save_activated },
  { "save-as", save_as_activated },
  { "export-image", export_image_activated },
  { "export-events", export_events_activated },
  { "save-run", save_run_activated },
  { "compare", compare_activated },
  { "attach", attach_activated },
  { "detach", detach_activated },
  { "open-store", open_store_activated },
  { "open-preset", open_preset_activated, "s" },
  { "zoom-in", zoom_in_activated },
  { "zoom-out", zoom_out_activated },
  { "zoom-fit", zoom_fit_activated },
  { "projector", NULL, NULL, "false", projector_change_state },
};

static void
enable (SluiceWindow *self,
        const char   *name,
        gboolean      enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
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

  enable (self, "run", !running && valid && _sluice_window_lesson_allows_run (self));
  enable (self, "request-stop", running && (!attached || sluice_remote_pool_get_can_stop (remote)));
  enable (self, "close-service", service);
  enable (self, "submit-job", service);
  enable (self, "give-up", service && selected >= 0 &&
                           sluice_jobs_view_get_state (self->jobs_view, selected) <= SLUICE_JOB_RUNNING);
  enable (self, "cancel", running && !attached);
  enable (self, "reset", !running);
  enable (self, "save", valid);
  enable (self, "save-as", valid);
  enable (self, "export-image", !running && has_events);
  enable (self, "export-events", !running && has_events);
  enable (self, "save-run", !running && has_events);
  enable (self, "compare", !running && valid);
  enable (self, "attach", !running);
  enable (self, "detach", attached);
  /* The sidebar shows the attached pool's configuration until it ends. */
  enable (self, "open", !attached);
  enable (self, "open-preset", !attached);
  enable (self, "zoom-in", running || has_events);
  enable (self, "zoom-out", !fit);
  enable (self, "zoom-fit", !fit);
  gtk_widget_set_sensitive (GTK_WIDGET (self->config_panel), !attached);
}

/**
 * _sluice_window_add_actions:
 * @self: a #SluiceWindow
 *
 * Adds the `win.` actions, `win.show-sidebar`, the configuration
 * panel's visibility, and `win.projector`, projector mode.
 */
void
_sluice_window_add_actions (SluiceWindow *self)
{
  g_autoptr(GPropertyAction) sidebar = g_property_action_new ("show-sidebar", self->sidebar, "visible");

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);
  _sluice_window_add_lesson_actions (self);
  /* The header's toggle and F9: the chart and the lanes get the whole
   * width of a small screen. */
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (sidebar));
}
