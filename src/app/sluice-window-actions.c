/* sluice-window-actions.c: the window's `win.` actions: each goes to the
 * document (through the files and the question before unsaved changes are
 * lost) or to the run controller; when they are enabled is
 * sluice-window-state.c's
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

  if (sluice_run_controller_get_running (self->run))
    return;

  /* The document keeps the last valid scenario: a field in red is not
   * run with the values before it. */
  if (!sluice_config_panel_get_valid (self->config_panel))
    {
      _sluice_window_set_banner (self, BANNER_ERROR,
                                 _("The configuration has an error: fix the field marked in red, then run again."));
      return;
    }

  /* action → document → controller → a new model → the views */
  sluice_run_controller_start (self->run, sluice_document_get_scenario (self->document));
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

/**
 * _sluice_window_reset_run:
 * @self: a #SluiceWindow
 *
 * Lets go of the run on show (the controller publishes a new, empty
 * model, which the views follow through the document) and asks a
 * lesson's question again.
 */
void
_sluice_window_reset_run (SluiceWindow *self)
{
  sluice_run_controller_reset (self->run);
  _sluice_window_ask_lesson_again (self);
  _sluice_window_update_mode (self);
  _sluice_window_update_actions (self);
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

/* What waits for "Save the changes?": each a #SluiceWindowGoOn. */
static void
choose_file_to_open (SluiceWindow *self,
                     const char   *arg)
{
  _sluice_window_choose_file (self, SLUICE_FILE_DIALOG_OPEN);
}

static void
open_preset_now (SluiceWindow *self,
                 const char   *name)
{
  sluice_window_open_preset (self, name, NULL);
}

static void
choose_pool_now (SluiceWindow *self,
                 const char   *arg)
{
  _sluice_window_choose_pool (self);
}

/* Opening another scenario asks first while this one has unsaved
 * changes. */
static void
open_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _sluice_window_ask_first (SLUICE_WINDOW (widget), choose_file_to_open, NULL);
}

static void
save_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  _sluice_window_save (SLUICE_WINDOW (widget), NULL);
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
    _sluice_window_ask_first (self, choose_pool_now, NULL);
}

/* The store window's way from a running job to its live lane: (worker
 * id, job id or operation key). Asked first, as win.attach is, while the
 * scenario shown has unsaved changes; the parameter goes through as text. */
static void
attach_worker_now (SluiceWindow *self,
                   const char   *arg)
{
  g_autoptr(GVariant) parameter = g_variant_parse (G_VARIANT_TYPE ("(ss)"), arg, NULL, NULL, NULL);
  const char *worker_id, *job_key;

  g_return_if_fail (parameter != NULL);
  g_variant_get (parameter, "(&s&s)", &worker_id, &job_key);
  _sluice_window_attach_worker (self, worker_id, job_key);
}

static void
attach_worker_activated (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  g_autofree char *arg = g_variant_print (parameter, FALSE);

  _sluice_window_ask_first (SLUICE_WINDOW (widget), attach_worker_now, arg);
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
  _sluice_window_ask_first (SLUICE_WINDOW (widget), open_preset_now, g_variant_get_string (parameter, NULL));
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
  { "win.attach-worker", "(ss)", attach_worker_activated },
  { "win.detach", NULL, detach_activated },
  { "win.open-store", NULL, open_store_activated },
  { "win.open-preset", "s", open_preset_activated },
  { "win.zoom-in", NULL, zoom_in_activated },
  { "win.zoom-out", NULL, zoom_out_activated },
  { "win.zoom-fit", NULL, zoom_fit_activated },
};

/**
 * _sluice_window_class_install_actions:
 * @widget_class: the window's class
 *
 * Installs the `win.` actions on the class, as GNOME Text Editor does:
 * the run's, the scenario's and the exports', the zoom, and as property
 * actions `win.projector` (projector mode, F5), `win.show-sidebar`
 * (the configuration panel, F9) and `win.hold-screen` (B), and the
 * lessons' actions.
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
  /* B, as a presentation blanks the screen while the room talks. */
  gtk_widget_class_install_property_action (widget_class, "win.hold-screen", "hold-screen");
  _sluice_window_class_install_lesson_actions (widget_class);
}
