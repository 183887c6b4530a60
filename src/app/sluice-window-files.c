/* sluice-window-files.c: the window's scenarios: files, presets, the last
 * session's scenario, and the files it saves and exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-presets.h"
#include "sluice-window-private.h"

static void
remember (SluiceWindow *self,
          const char   *path)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? sluice_application_get_settings (SLUICE_APPLICATION (app)) : NULL;

  if (settings != NULL)
    g_settings_set_string (settings, "last-scenario", path);
}

static void
show_scenario (SluiceWindow   *self,
               SluiceScenario *scenario,
               const char     *path)
{
  const char *title = sluice_scenario_get_title (scenario);
  g_autofree char *base = g_path_get_basename (path);

  if (!sluice_run_controller_get_running (self->run))
    _sluice_window_reset_run (self);

  sluice_config_panel_set_scenario (self->config_panel, scenario);
  gtk_label_set_text (self->title_label, title ? title : base);
  gtk_label_set_text (self->subtitle_label, base);
  gtk_window_set_title (GTK_WINDOW (self), title ? title : base);

  g_free (self->file);
  self->file = g_strdup (path);
  _sluice_window_show_ready (self);
}

/**
 * sluice_window_load_file:
 * @self: a #SluiceWindow
 * @path: a `.pool` file
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Loads the scenario of @path into the configuration panel and remembers it
 * as the last scenario.
 *
 * Returns: whether the file was a valid scenario
 */
gboolean
sluice_window_load_file (SluiceWindow  *self,
                         const char    *path,
                         GError       **error)
{
  g_autoptr(SluiceScenario) scenario = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  scenario = sluice_scenario_new_from_file (path, NULL, error);
  if (scenario == NULL)
    return FALSE;

  show_scenario (self, scenario, path);
  remember (self, path);
  return TRUE;
}

/**
 * sluice_window_open_file:
 * @self: a #SluiceWindow
 * @path: a `.pool` file
 * @error: (nullable): return location for why it did not open
 *
 * Opens @path as File → Open does (and `sluice FILE.pool`): as
 * sluice_window_load_file(), and a file that does not load also shows its
 * error in the window's banner.
 *
 * Returns: whether the file was a valid scenario
 */
gboolean
sluice_window_open_file (SluiceWindow  *self,
                         const char    *path,
                         GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = NULL;

  if (sluice_window_load_file (self, path, &local_error))
    return TRUE;

  text = g_strdup_printf (_("Cannot open the scenario: %s"), local_error->message);
  _sluice_window_set_banner (self, BANNER_ERROR, text);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/**
 * sluice_window_open_preset:
 * @self: a #SluiceWindow
 * @name: a preset name such as `retries`
 * @error: (nullable): return location for why it did not open
 *
 * Opens a preset; one that is missing or does not load also shows its
 * error in the window's banner.
 *
 * Returns: whether the preset exists and loaded
 */
gboolean
sluice_window_open_preset (SluiceWindow  *self,
                           const char    *name,
                           GError       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  path = sluice_presets_find (name);
  if (path == NULL)
    g_set_error (&local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("There is no preset named “%s”."), name);
  else if (sluice_window_load_file (self, path, &local_error))
    return TRUE;

  _sluice_window_set_banner (self, BANNER_ERROR, local_error->message);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/**
 * sluice_window_open_last:
 * @self: a #SluiceWindow
 *
 * Opens the scenario of the last session, or the first-look preset.
 */
void
sluice_window_open_last (SluiceWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? sluice_application_get_settings (SLUICE_APPLICATION (app)) : NULL;
  g_autofree char *last = settings ? g_settings_get_string (settings, "last-scenario") : NULL;

  g_return_if_fail (SLUICE_IS_WINDOW (self));

  if (last != NULL && *last != '\0' && sluice_window_load_file (self, last, NULL))
    return;

  sluice_window_open_preset (self, "first-look", NULL);
}

static void
save_to (SluiceWindow *self,
         const char   *path)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;

  if (scenario == NULL || !sluice_scenario_save_to_file (scenario, path, &error))
    {
      _sluice_window_set_banner (self, BANNER_ERROR,
                                 error ? error->message
                                       : _("The configuration has an error: fix the field marked in red, then save."));
      return;
    }

  text = g_strdup_printf (_("Saved as %s."), base);
  g_free (self->file);
  self->file = g_strdup (path);
  gtk_label_set_text (self->subtitle_label, base);
  remember (self, path);
  _sluice_window_set_banner (self, BANNER_INFO, text);
}

static void
export_to (SluiceWindow *self,
           const char   *path,
           gboolean      image)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;
  int width = MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline_view)), 640);
  int height = gtk_widget_get_height (GTK_WIDGET (self->chart_view)) +
               gtk_widget_get_height (GTK_WIDGET (self->timeline_view));
  gboolean ok;

  if (image)
    ok = sluice_window_export_image (self, path, width, MAX (height, 480), &error);
  else
    ok = sluice_window_export_events (self, path, &error);

  if (!ok)
    {
      text = g_strdup_printf (_("Cannot export: %s"), error->message);
      _sluice_window_set_banner (self, BANNER_ERROR, text);
      return;
    }

  text = g_strdup_printf (_("Exported %s."), base);
  _sluice_window_set_banner (self, BANNER_INFO, text);
}

static void
on_file_chosen (GtkWindow            *parent,
                SluiceFileDialogKind  kind,
                const char           *path,
                gpointer              user_data)
{
  SluiceWindow *self = SLUICE_WINDOW (parent);

  if (path == NULL)
    _sluice_window_set_banner (self, BANNER_ERROR,
                               kind == SLUICE_FILE_DIALOG_OPEN || kind == SLUICE_FILE_DIALOG_SAVE
                                 ? _("Choose a local file.") : _("Cannot export: choose a local file."));
  else if (kind == SLUICE_FILE_DIALOG_OPEN)
    sluice_window_open_file (self, path, NULL);
  else if (kind == SLUICE_FILE_DIALOG_SAVE)
    save_to (self, path);
  else
    export_to (self, path, kind == SLUICE_FILE_DIALOG_EXPORT_IMAGE);
}

/**
 * _sluice_window_choose_file:
 * @self: a #SluiceWindow
 * @kind: what the file is for
 *
 * Asks for a file to open, save or export to, near the scenario's file,
 * and does that with it.
 */
void
_sluice_window_choose_file (SluiceWindow         *self,
                            SluiceFileDialogKind  kind)
{
  sluice_file_dialog_show (GTK_WINDOW (self), kind, self->file, on_file_chosen, NULL);
}

/**
 * _sluice_window_save:
 * @self: a #SluiceWindow
 *
 * Asks where to save the configuration, unless it has an error.
 */
void
_sluice_window_save (SluiceWindow *self)
{
  if (sluice_config_panel_get_scenario (self->config_panel) == NULL)
    {
      _sluice_window_set_banner (self, BANNER_ERROR,
                                 _("The configuration has an error: fix the field marked in red, then save."));
      return;
    }

  _sluice_window_choose_file (self, SLUICE_FILE_DIALOG_SAVE);
}
