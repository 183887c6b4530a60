/* sluice-file-dialog.c: choose a file to open, save or export to
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-file-dialog.h"
#include "sluice-presets.h"

/**
 * SluiceFileDialog:
 *
 * A #GtkFileChooserNative (GTK 4.8 has no GtkFileDialog) set up for one of
 * the window's files: the filters, a name to start from, and for exports
 * the extension of the chosen filter when the name has none. It keeps
 * itself alive until the user answers.
 */

struct _SluiceFileDialog
{
  GObject               parent_instance;

  GtkFileChooserNative *native;
  GtkWindow            *parent;     /* weak */
  SluiceFileDialogKind  kind;
  SluiceFileDialogFunc  func;
  gpointer              user_data;
};

G_DEFINE_FINAL_TYPE (SluiceFileDialog, sluice_file_dialog, G_TYPE_OBJECT)

static const char * const image_extensions[] = { ".png", ".svg", ".pdf", NULL };
static const char * const event_extensions[] = { ".csv", ".jsonl", ".ndjson", ".json", NULL };
static const char * const run_extensions[] = { ".sluicerun", NULL };

/* The extensions a file of @kind may already end with. */
static const char * const *
known_extensions (SluiceFileDialogKind kind)
{
  switch (kind)
    {
    case SLUICE_FILE_DIALOG_EXPORT_IMAGE:
      return image_extensions;
    case SLUICE_FILE_DIALOG_SAVE_RUN:
      return run_extensions;
    default:
      return event_extensions;
    }
}

static GtkFileFilter *
create_filter (const char *name,
               const char *extension)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  g_autofree char *pattern = g_strconcat ("*.", extension, NULL);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_pattern (filter, pattern);
  g_object_set_data_full (G_OBJECT (filter), "extension", g_strdup (extension), g_free);
  return filter;
}

/* Open shows both kinds of file at first. */
static GtkFileFilter *
create_open_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, _("Sluice scenarios and recorded runs"));
  gtk_file_filter_add_pattern (filter, "*.pool");
  gtk_file_filter_add_pattern (filter, "*.sluicerun");
  return filter;
}

/**
 * sluice_file_dialog_complete_name:
 * @kind: what the file is for
 * @path: the path chosen
 * @filter_extension: (nullable): the extension of the filter chosen, without
 *   the dot
 *
 * A file saved or exported without a known extension takes the one of the
 * chosen filter; one that has it keeps its name as it is (the suggested
 * "first-look.sluicerun" was written as "first-look.sluicerun.sluicerun").
 *
 * Returns: (transfer full): the path to write
 */
char *
sluice_file_dialog_complete_name (SluiceFileDialogKind  kind,
                                  const char           *path,
                                  const char           *filter_extension)
{
  const char * const *known = known_extensions (kind);
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (kind == SLUICE_FILE_DIALOG_OPEN || kind == SLUICE_FILE_DIALOG_SAVE || kind == SLUICE_FILE_DIALOG_COMPARE)
    return g_strdup (path);

  for (guint i = 0; known[i] != NULL; i++)
    if (g_str_has_suffix (lower, known[i]))
      return g_strdup (path);

  if (filter_extension == NULL)
    filter_extension = known[0] + 1;

  return g_strconcat (path, ".", filter_extension, NULL);
}

static char *
add_extension (SluiceFileDialog *self,
               const char       *path)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (self->native));

  return sluice_file_dialog_complete_name (self->kind, path,
                                           filter ? g_object_get_data (G_OBJECT (filter), "extension") : NULL);
}

static void
on_response (GtkNativeDialog  *native,
             int               response,
             SluiceFileDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->parent != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;
      g_autofree char *full = path ? add_extension (self, path) : NULL;

      self->func (self->parent, self->kind, full, self->user_data);
    }

  gtk_native_dialog_destroy (native);
  g_object_unref (self);
}

/* The scenario's name with another extension. */
static char *
suggest_name (const char *current_file,
              const char *fallback,
              const char *extension)
{
  g_autofree char *base = current_file ? g_path_get_basename (current_file) : g_strdup (fallback);
  char *dot = strrchr (base, '.');

  if (dot != NULL && dot != base)
    *dot = '\0';

  return g_strconcat (base, ".", extension, NULL);
}

static gboolean
is_presets_folder (GFile *folder)
{
  const char *dir = sluice_presets_get_dir ();
  g_autoptr(GFile) presets = dir ? g_file_new_for_path (dir) : NULL;

  return presets != NULL && g_file_equal (folder, presets);
}

/**
 * sluice_file_dialog_get_folder:
 * @kind: what the file is for
 * @current_file: (nullable): the scenario's file
 *
 * Where the dialog starts: the folder of @current_file; for Open and
 * Compare without one, the presets' folder (the documents folder when no
 * presets are installed). A file is not saved among the
 * presets (shared and often read-only): saving or exporting a preset
 * starts in the documents folder.
 *
 * Returns: (transfer full): the folder
 */
GFile *
sluice_file_dialog_get_folder (SluiceFileDialogKind  kind,
                               const char           *current_file)
{
  g_autofree char *dir = current_file ? g_path_get_dirname (current_file) : NULL;
  const char *start = dir ? dir : sluice_presets_get_dir ();
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autoptr(GFile) folder = start ? g_file_new_for_path (start) : NULL;

  if (folder != NULL &&
      (kind == SLUICE_FILE_DIALOG_OPEN || kind == SLUICE_FILE_DIALOG_COMPARE || !is_presets_folder (folder)))
    return g_steal_pointer (&folder);

  /* Also where Open starts when there is no file and no presets folder. */
  return g_file_new_for_path (documents ? documents : g_get_home_dir ());
}

static void
sluice_file_dialog_dispose (GObject *object)
{
  SluiceFileDialog *self = SLUICE_FILE_DIALOG (object);

  g_clear_object (&self->native);
  g_clear_weak_pointer (&self->parent);

  G_OBJECT_CLASS (sluice_file_dialog_parent_class)->dispose (object);
}

static void
sluice_file_dialog_class_init (SluiceFileDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sluice_file_dialog_dispose;
}

static void
sluice_file_dialog_init (SluiceFileDialog *self)
{
}

#define PROJECTOR_DIALOG_WIDTH  980
#define PROJECTOR_DIALOG_HEIGHT 640

/* Without a file chooser portal, GtkFileChooserNative shows GTK's own
 * dialog, a window of the app's: it takes projector mode's larger text as
 * the app's dialogs do. A portal's dialog is the desktop's. */
static void
style_fallback_dialog (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_window_get_transient_for (window) == parent)
        {
          gtk_widget_add_css_class (GTK_WIDGET (window), "projector");
          /* Room for its larger text, within a 1024×768 screen. */
          gtk_window_set_default_size (window, PROJECTOR_DIALOG_WIDTH, PROJECTOR_DIALOG_HEIGHT);
        }
    }
}

/**
 * sluice_file_dialog_show:
 * @parent: the window the dialog is modal for
 * @kind: what the file is for
 * @current_file: (nullable): the scenario's file, to start in its folder and
 *   suggest a name from
 * @func: called with the chosen file
 * @user_data: data for @func
 *
 * Shows a native file chooser for @kind.
 */
void
sluice_file_dialog_show (GtkWindow            *parent,
                         SluiceFileDialogKind  kind,
                         const char           *current_file,
                         SluiceFileDialogFunc  func,
                         gpointer              user_data)
{
  SluiceFileDialog *self;
  GtkFileChooser *chooser = NULL;
  g_autofree char *name = NULL;
  gboolean open = kind == SLUICE_FILE_DIALOG_OPEN;

  g_return_if_fail (GTK_IS_WINDOW (parent));
  g_return_if_fail (func != NULL);

  self = g_object_new (SLUICE_TYPE_FILE_DIALOG, NULL);
  g_set_weak_pointer (&self->parent, parent);
  self->kind = kind;
  self->func = func;
  self->user_data = user_data;

  switch (kind)
    {
    case SLUICE_FILE_DIALOG_OPEN:
    case SLUICE_FILE_DIALOG_SAVE:
      self->native = gtk_file_chooser_native_new (open ? _("Open a Scenario") : _("Save the Scenario"), parent,
                                                  open ? GTK_FILE_CHOOSER_ACTION_OPEN : GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  open ? _("_Open") : _("_Save"), _("_Cancel"));
      chooser = GTK_FILE_CHOOSER (self->native);
      if (open)
        gtk_file_chooser_add_filter (chooser, create_open_filter ());
      gtk_file_chooser_add_filter (chooser, create_filter (_("Sluice scenarios (*.pool)"), "pool"));
      if (open)
        gtk_file_chooser_add_filter (chooser, create_filter (_("Sluice recorded runs (*.sluicerun)"), "sluicerun"));
      else
        name = current_file ? g_path_get_basename (current_file) : g_strdup ("scenario.pool");
      break;

    case SLUICE_FILE_DIALOG_COMPARE:
      /* Translators: the file chooser of Compare…: B, run on the current scenario's workload */
      self->native = gtk_file_chooser_native_new (_("Compare with a Scenario"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                                  _("_Compare"), _("_Cancel"));
      chooser = GTK_FILE_CHOOSER (self->native);
      gtk_file_chooser_add_filter (chooser, create_filter (_("Sluice scenarios (*.pool)"), "pool"));
      break;

    case SLUICE_FILE_DIALOG_SAVE_RUN:
      self->native = gtk_file_chooser_native_new (_("Save the Run"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  _("_Save"), _("_Cancel"));
      chooser = GTK_FILE_CHOOSER (self->native);
      gtk_file_chooser_add_filter (chooser, create_filter (_("Sluice recorded runs (*.sluicerun)"), "sluicerun"));
      name = suggest_name (current_file, "run.pool", "sluicerun");
      break;

    case SLUICE_FILE_DIALOG_EXPORT_IMAGE:
      self->native = gtk_file_chooser_native_new (_("Export the Image"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  _("_Export"), _("_Cancel"));
      chooser = GTK_FILE_CHOOSER (self->native);
      gtk_file_chooser_add_filter (chooser, create_filter (_("PNG images (*.png)"), "png"));
      gtk_file_chooser_add_filter (chooser, create_filter (_("SVG images (*.svg)"), "svg"));
      name = suggest_name (current_file, "run.pool", "png");
      break;

    case SLUICE_FILE_DIALOG_EXPORT_EVENTS:
    default:
      self->native = gtk_file_chooser_native_new (_("Export the Events"), parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                                  _("_Export"), _("_Cancel"));
      chooser = GTK_FILE_CHOOSER (self->native);
      gtk_file_chooser_add_filter (chooser, create_filter (_("CSV files (*.csv)"), "csv"));
      gtk_file_chooser_add_filter (chooser, create_filter (_("JSON Lines files (*.jsonl)"), "jsonl"));
      name = suggest_name (current_file, "run.pool", "csv");
      break;
    }

  {
    g_autoptr(GFile) folder = sluice_file_dialog_get_folder (kind, current_file);

    gtk_file_chooser_set_current_folder (chooser, folder, NULL);
  }
  if (name != NULL)
    gtk_file_chooser_set_current_name (chooser, name);
  g_signal_connect (self->native, "response", G_CALLBACK (on_response), self);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->native), TRUE);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->native));
  if (parent != NULL && gtk_widget_has_css_class (GTK_WIDGET (parent), "projector"))
    style_fallback_dialog (parent);
}
