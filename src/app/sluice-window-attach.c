/* sluice-window-attach.c: Attach to a Running Pool…: the pool of another
 * program, watched live in the window's views
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

/* Attached, the window is a monitor: the run controller fills the views
 * from the pool's events (sluice_run_controller_attach()), and the sidebar
 * shows the pool's configuration, read-only (insensitive: it describes
 * what another program runs, nothing here changes it). The configuration
 * comes in as a new scenario, as a recording's does: the one shown before
 * is asked about first when it has unsaved changes (win.attach), and Save
 * asks where. Run, Reset, Cancel, the pause and the step are off while the
 * pool is attached; Request Stop goes to the program, when it exported
 * the pool with control allowed. Once the remote run ended, the program
 * exited or the window detached, the window is the playground again, with
 * what came in the views, to scrub, save and export. */

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

/* The configuration of the pool as the scenario shown: a new one, from no
 * file, under the program's name. */
static void
show_remote_scenario (SluiceWindow     *self,
                      SluiceRemotePool *pool)
{
  const char *text = sluice_run_controller_get_scenario_text (self->run);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *program = sluice_remote_pool_dup_program (pool);
  g_autofree char *title = sluice_remote_pool_dup_title (pool);
  g_autofree char *subtitle = NULL;

  scenario = text != NULL ? sluice_scenario_new_from_data (text, -1, sluice_remote_pool_get_bus_name (pool),
                                                           NULL, &error)
                          : NULL;
  /* The controller parsed the same text: it cannot fail here. */
  g_return_if_fail (scenario != NULL);

  g_clear_pointer (&self->file, g_free);
  g_free (self->file_text);
  self->file_text = g_strdup (text);
  g_clear_pointer (&self->title, g_free);
  sluice_config_panel_set_scenario (self->config_panel, scenario);

  /* The title is the pool's, its program's name unless it has its own. */
  if (title == NULL || *title == '\0' || g_strcmp0 (title, program) == 0)
    /* Translators: the window's subtitle while attached; %u is a process id */
    subtitle = g_strdup_printf (_("process %u"), sluice_remote_pool_get_pid (pool));
  else
    /* Translators: the window's subtitle while attached; %s is a program's
     * name, %u its process id */
    subtitle = g_strdup_printf (_("%s, process %u"), program != NULL ? program : "?",
                                sluice_remote_pool_get_pid (pool));
  gtk_label_set_text (self->subtitle_label, subtitle);
  _sluice_window_set_dirty (self, FALSE);
}

/**
 * sluice_window_attach:
 * @self: a #SluiceWindow
 * @pool: a pool another program exports (from a #SluicePoolBrowser)
 * @error: return location for why it cannot be attached
 *
 * What Attach in the attach dialog does: shows @pool live in the views,
 * and its configuration read-only in the sidebar, until its run ends, the
 * program exits or win.detach. The scenario shown before is replaced
 * without a question (win.attach asks first).
 *
 * Returns: whether it is attached (not while a run goes on)
 */
gboolean
sluice_window_attach (SluiceWindow      *self,
                      SluiceRemotePool  *pool,
                      GError           **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (pool), FALSE);

  if (!sluice_run_controller_attach (self->run, pool, error))
    return FALSE;
  show_remote_scenario (self, pool);
  _sluice_window_update_mode (self);
  _sluice_window_update_actions (self);
  return TRUE;
}

static void
on_pool_chosen (SluiceWindow     *self,
                SluiceRemotePool *pool)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (sluice_window_attach (self, pool, &error))
    return;
  /* Translators: %s says why */
  text = g_strdup_printf (_("Cannot attach: %s"), error->message);
  _sluice_window_set_banner (self, BANNER_ERROR, text);
}

/* Closed (Attach, Cancel, Escape): another win.attach opens a new one. */
static void
on_dialog_destroyed (SluiceWindow *self)
{
  g_clear_weak_pointer (&self->attach_dialog);
}

/**
 * _sluice_window_choose_pool:
 * @self: a #SluiceWindow
 *
 * Shows the attach dialog; Attach there attaches the pool chosen.
 */
void
_sluice_window_choose_pool (SluiceWindow *self)
{
  SluiceAttachDialog *dialog;

  if (self->attach_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->attach_dialog));
      return;
    }

  dialog = sluice_attach_dialog_new (GTK_WINDOW (self));
  g_set_weak_pointer (&self->attach_dialog, GTK_WIDGET (dialog));
  g_signal_connect_object (dialog, "pool-chosen", G_CALLBACK (on_pool_chosen), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "destroy", G_CALLBACK (on_dialog_destroyed), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * sluice_window_get_attach_dialog:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none) (nullable): the attach dialog while it is open
 */
SluiceAttachDialog *
sluice_window_get_attach_dialog (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return self->attach_dialog != NULL ? SLUICE_ATTACH_DIALOG (self->attach_dialog) : NULL;
}
