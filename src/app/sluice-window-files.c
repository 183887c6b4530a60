/* sluice-window-files.c: the window's scenarios: files, presets, the last
 * session's scenario, and the files it saves and exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-presets.h"
#include "sluice-theme.h"
#include "sluice-window-private.h"

static void
remember (SluiceWindow *self,
          const char   *path)
{
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "last-scenario", path);
}

/* What was not valid in a recording: the first problems, and how many. */
#define PROBLEMS_SHOWN 3

static void
show_problems (SluiceWindow    *self,
               SluiceRecording *recording)
{
  const char * const *problems = sluice_recording_get_problems (recording);
  guint n = g_strv_length ((char **) problems);
  g_autoptr(GString) text = NULL;

  if (n == 0)
    return;

  text = g_string_new (NULL);
  g_string_printf (text, g_dngettext (GETTEXT_PACKAGE, "Opened what was valid; %u problem:",
                                      "Opened what was valid; %u problems:", n), n);
  for (guint i = 0; i < MIN (n, PROBLEMS_SHOWN); i++)
    g_string_append_printf (text, "\n%s", problems[i]);
  _sluice_window_set_banner (self, BANNER_ERROR, text->str);
}

/* A recorded run: its scenario in the panel, as a new one (Save asks
 * where: the .sluicerun stays as it is), and its run in the views, as if
 * it had just ended here. */
static gboolean
load_recording (SluiceWindow  *self,
                const char    *path,
                GError       **error)
{
  g_autoptr(SluiceRecording) recording = NULL;
  g_autofree char *base = NULL;

  if (sluice_run_controller_get_running (self->run))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("%s: stop the run before you open a recorded one"), path);
      return FALSE;
    }

  recording = sluice_recording_new_from_file (path, error);
  if (recording == NULL)
    return FALSE;

  base = g_path_get_basename (path);
  sluice_document_replace (self->document, sluice_recording_get_scenario (recording),
                           sluice_recording_get_scenario_text (recording), base);
  sluice_run_controller_show_recording (self->run, recording);
  show_problems (self, recording);
  remember (self, path);
  return TRUE;
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
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (g_str_has_suffix (path, ".sluicerun"))
    return load_recording (self, path, error);

  /* The views follow the document's SluiceDocument::loaded. */
  file = g_file_new_for_path (path);
  if (!sluice_document_load (self->document, file, NULL, error))
    return FALSE;
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
  g_autofree char *last = self->settings ? g_settings_get_string (self->settings, "last-scenario") : NULL;

  g_return_if_fail (SLUICE_IS_WINDOW (self));

  if (last != NULL && *last != '\0' && sluice_window_load_file (self, last, NULL))
    return;

  sluice_window_open_preset (self, "first-look", NULL);
}

/* A save under way: what waits for it (a #SluiceWindowGoOn) goes with
 * it, so that a second Ctrl+S meanwhile takes nothing from the first. */
typedef struct {
  SluiceWindow     *window;
  SluiceWindowGoOn  then;
} Saving;

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  Saving *saving = user_data;
  g_autoptr(SluiceWindow) self = saving->window;
  SluiceWindowGoOn then = saving->then;
  g_autoptr(GError) error = NULL;
  g_autofree char *base = NULL;
  g_autofree char *text = NULL;
  gboolean ok = sluice_document_save_finish (SLUICE_DOCUMENT (source), result, &error);

  g_free (saving);
  /* A window closed meanwhile (destroyed, so disposed) says nothing. */
  if (self->document == NULL)
    return;
  if (!ok)
    {
      _sluice_window_set_banner (self, BANNER_ERROR, error->message);
      return;
    }

  base = g_path_get_basename (sluice_document_get_path (self->document));
  text = g_strdup_printf (_("Saved as %s."), base);
  remember (self, sluice_document_get_path (self->document));
  _sluice_window_set_banner (self, BANNER_INFO, text);
  if (then != NULL)
    then (self, NULL);
}

/* Over the text of the file the scenario came from (a preset's too, for
 * Save As): the comments, blank lines and order of keys stay. @then
 * waits for it, once written. */
static void
save_to (SluiceWindow     *self,
         const char       *path,
         SluiceWindowGoOn  then)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);
  g_autoptr(GFile) file = path != NULL ? g_file_new_for_path (path) : NULL;
  Saving *saving;

  /* A field may have turned invalid while Save As asked where. */
  if (scenario == NULL)
    {
      _sluice_window_set_banner (self, BANNER_ERROR,
                                 _("The configuration has an error: fix the field marked in red, then save."));
      return;
    }
  /* The document follows the panel (SluiceConfigPanel::changed): this
   * only makes sure. */
  sluice_document_set_scenario (self->document, scenario);
  saving = g_new0 (Saving, 1);
  saving->window = g_object_ref (self);
  saving->then = then;
  sluice_document_save_async (self->document, file, NULL, on_saved, saving);
}

/* ---- exports ---------------------------------------------------------- */

/**
 * sluice_window_export_image:
 * @self: a #SluiceWindow
 * @path: the file to write; `.png`, `.svg` or `.pdf` picks the format
 * @width: the width of the image, in pixels or points
 * @height: the height of the image
 * @error: return location for an error
 *
 * Draws the queue chart above the worker lanes of the last run, with the
 * run's queue capacity and lead bound and the window's dark or light look.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_window_export_image (SluiceWindow  *self,
                            const char    *path,
                            double         width,
                            double         height,
                            GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  return sluice_run_controller_export_image (self->run, path, width, height,
                                             sluice_widget_is_dark (GTK_WIDGET (self->chart_view)), error);
}

/**
 * sluice_window_export_events:
 * @self: a #SluiceWindow
 * @path: the file to write; `.csv` writes CSV, `.jsonl`, `.ndjson` or
 *   `.json` JSON Lines
 * @error: return location for an error
 *
 * Writes the events the last run recorded.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_window_export_events (SluiceWindow  *self,
                             const char    *path,
                             GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  return sluice_run_controller_export_events (self->run, path, error);
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
save_run_to (SluiceWindow *self,
             const char   *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;

  if (!sluice_run_controller_save_recording (self->run, path, &error))
    text = g_strdup_printf (_("Cannot save the run: %s"), error->message);
  else
    text = g_strdup_printf (_("Saved the run as %s: File → Open replays it, here or elsewhere."), base);
  _sluice_window_set_banner (self, error ? BANNER_ERROR : BANNER_INFO, text);
}

static void
on_opened (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SluiceWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean ok = sluice_document_load_finish (SLUICE_DOCUMENT (source), result, &error);

  if (self->document == NULL)
    return;   /* the window was closed meanwhile */
  if (ok)
    {
      remember (self, sluice_document_get_path (self->document));
      return;
    }
  text = g_strdup_printf (_("Cannot open the scenario: %s"), error->message);
  _sluice_window_set_banner (self, BANNER_ERROR, text);
}

/* File → Open: a scenario is read without blocking the window (a slow
 * disk, a network folder); a recording as sluice_window_open_file() does. */
static void
open_chosen (SluiceWindow *self,
             const char   *path)
{
  g_autoptr(GFile) file = NULL;

  if (g_str_has_suffix (path, ".sluicerun"))
    {
      sluice_window_open_file (self, path, NULL);
      return;
    }
  file = g_file_new_for_path (path);
  sluice_document_load_async (self->document, file, NULL, on_opened, g_object_ref (self));
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
                               kind != SLUICE_FILE_DIALOG_EXPORT_IMAGE && kind != SLUICE_FILE_DIALOG_EXPORT_EVENTS
                                 ? _("Choose a local file.") : _("Cannot export: choose a local file."));
  else if (kind == SLUICE_FILE_DIALOG_OPEN)
    open_chosen (self, path);
  else if (kind == SLUICE_FILE_DIALOG_SAVE_RUN)
    save_run_to (self, path);
  else if (kind == SLUICE_FILE_DIALOG_SAVE)
    /* Saved from "Save the changes?": then what waited for it. */
    save_to (self, path, g_steal_pointer (&self->after_save));
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
  sluice_file_dialog_show (GTK_WINDOW (self), kind, sluice_document_get_path (self->document), on_file_chosen, NULL);
}

static gboolean
check_valid (SluiceWindow *self)
{
  if (sluice_config_panel_get_scenario (self->config_panel) != NULL)
    return TRUE;

  _sluice_window_set_banner (self, BANNER_ERROR,
                             _("The configuration has an error: fix the field marked in red, then save."));
  return FALSE;
}

/* A file of the user's own is saved where it is; a preset (shared by
 * every session, often not writable) is saved under a new name. */
static gboolean
is_own_file (SluiceWindow *self)
{
  const char *path = sluice_document_get_path (self->document);
  g_autofree char *dir = path != NULL ? g_path_get_dirname (path) : NULL;
  g_autoptr(GFile) folder = dir ? g_file_new_for_path (dir) : NULL;
  const char *presets_dir = sluice_presets_get_dir ();
  g_autoptr(GFile) presets = presets_dir ? g_file_new_for_path (presets_dir) : NULL;

  return folder != NULL && (presets == NULL || !g_file_equal (folder, presets));
}

/**
 * _sluice_window_save:
 * @self: a #SluiceWindow
 * @then: (nullable): what waits for it: called once saved, not when the
 *   save fails or its file dialog is cancelled
 *
 * Saves the configuration over its file, or asks where for a preset or a
 * new scenario; unless it has an error.
 */
void
_sluice_window_save (SluiceWindow     *self,
                     SluiceWindowGoOn  then)
{
  if (!check_valid (self))
    return;

  self->after_save = NULL;
  if (is_own_file (self))
    save_to (self, NULL, then);
  else
    {
      self->after_save = then;
      sluice_file_dialog_show (GTK_WINDOW (self), SLUICE_FILE_DIALOG_SAVE, sluice_document_get_path (self->document),
                               on_file_chosen, NULL);
    }
}

/**
 * _sluice_window_save_as:
 * @self: a #SluiceWindow
 *
 * Asks where to save the configuration, unless it has an error.
 */
void
_sluice_window_save_as (SluiceWindow *self)
{
  if (!check_valid (self))
    return;
  self->after_save = NULL;
  _sluice_window_choose_file (self, SLUICE_FILE_DIALOG_SAVE);
}

/**
 * sluice_window_get_file:
 * @self: a #SluiceWindow
 *
 * Returns: (nullable): the file of the scenario shown (a preset's too), or
 *   %NULL
 */
const char *
sluice_window_get_file (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return sluice_document_get_path (self->document);
}
