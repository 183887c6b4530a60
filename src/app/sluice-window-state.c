/* sluice-window-state.c: what the window enables and shows for the state
 * of its run and its document now
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

/* A leaf of the window's files (see sluice-window-private.h): it reads the
 * run controller, the configuration and the lesson, and sets what is
 * enabled and how the stop button reads; every flow calls it once its
 * state changed, and it calls no other window file. */

/**
 * _sluice_window_get_attached:
 * @self: a #SluiceWindow
 *
 * Returns: whether the window watches another program's pool live now
 */
gboolean
_sluice_window_get_attached (SluiceWindow *self)
{
  return sluice_run_controller_get_running (self->run) && sluice_run_controller_get_remote (self->run) != NULL;
}

/**
 * _sluice_window_lesson_allows_run:
 * @self: a #SluiceWindow
 *
 * Returns: whether the run may start: always, but for a lesson not
 *   answered yet ("Run to find out" needs a choice)
 */
gboolean
_sluice_window_lesson_allows_run (SluiceWindow *self)
{
  return sluice_lesson_panel_get_lesson (self->lesson_panel) == NULL ||
         sluice_lesson_panel_get_choice (self->lesson_panel) > 0;
}

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

/* ---- stream or submit mode -------------------------------------------- */

/* One button, so that the header bar leaves the title its room: in submit
 * mode a stop request and a close both drain the service, and the button
 * offers the service's own word, Close (win.close-service, Ctrl+L);
 * win.request-stop stays an action in both modes. */
static void
update_stop_button (SluiceWindow *self,
                    gboolean      submit)
{
  if (submit)
    {
      /* Translators: closes a running service (submit mode) gracefully */
      gtk_button_set_label (self->stop_button, _("C_lose"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button),
                                   _("Close the service: no more jobs are admitted, the queued and running ones still finish (Ctrl+L)"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->stop_button), "win.close-service");
    }
  else
    {
      SluiceRemotePool *remote = _sluice_window_get_attached (self) ? sluice_run_controller_get_remote (self->run)
                                                                    : NULL;

      gtk_button_set_label (self->stop_button, _("Request _Stop"));
      if (remote != NULL && !sluice_remote_pool_get_can_stop (remote))
        gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button),
                                     _("The program exported its pool read-only: it can be watched, not stopped "
                                       "from here. Started with SLUICE_MONITOR=session,control, it allows a stop."));
      else if (remote != NULL)
        gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button),
                                     _("Ask the program's pool to pull nothing more and drain what it has (Escape)"));
      else
        gtk_widget_set_tooltip_text (GTK_WIDGET (self->stop_button),
                                     _("Pull nothing more and let the workers drain what is queued"));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->stop_button), "win.request-stop");
    }
}

/**
 * _sluice_window_update_mode:
 * @self: a #SluiceWindow
 *
 * The jobs tab and the stop button's Close belong to service runs: they
 * show while the configuration is one, or the run on show is. A run that
 * goes on keeps the stop button of its own mode, whatever the panel says
 * now.
 */
void
_sluice_window_update_mode (SluiceWindow *self)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);
  gboolean service_run = sluice_run_controller_get_submit_mode (self->run);
  gboolean running = sluice_run_controller_get_running (self->run);
  gboolean submit = service_run ||
                    (scenario != NULL && sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT);

  gtk_widget_set_visible (GTK_WIDGET (self->jobs_view), submit);
  update_stop_button (self, running ? service_run : submit);
  sluice_run_controller_set_configured_workers (self->run,
                                                scenario != NULL ? (guint) sluice_scenario_get_workers (scenario) : 0);
}
