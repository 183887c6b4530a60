/* sluice-document.c: what the playground window shows: a scenario, its
 * file, and the model of its current run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-document.h"

/**
 * SluiceDocument:
 *
 * The document of a playground window, as GNOME Text Editor's window has
 * its documents: the scenario (as last valid: a field being typed into
 * does not take the title away), the file it came from and its text as
 * loaded or last saved (Save edits that text, so that its comments and
 * order stay), a title and a subtitle to show, whether there are unsaved
 * changes, and the #SluiceRunModel of the run on show.
 *
 * It knows no widget: the window's actions load, save and edit it, and
 * the window's views follow its properties (#SluiceDocument:title,
 * #SluiceDocument:dirty, #SluiceDocument:model …) and its
 * #SluiceDocument::loaded signal. The model is the one the run
 * controller publishes for each run (the window binds the controller's
 * model to it): the document holds the run's result, not the machinery
 * that paces a run on a widget's clock.
 */

struct _SluiceDocument
{
  GObject         parent_instance;

  SluiceScenario *scenario;   /* the last valid one */
  GFile          *file;       /* nullable: a new scenario, a recording's */
  char           *path;       /* the file's path, when it has one */
  char           *text;       /* the file's text as loaded or last saved */
  char           *title;      /* derived: see update_title() */
  char           *subtitle;   /* the file's name, or where a scenario without
                               * one came from */
  gboolean        dirty;
  guint           edits;      /* scenarios set: a save keeps the mark of an
                               * edit made while it wrote */
  SluiceRunModel *model;
};

G_DEFINE_FINAL_TYPE (SluiceDocument, sluice_document, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SCENARIO,
  PROP_FILE,
  PROP_TEXT,
  PROP_TITLE,
  PROP_SUBTITLE,
  PROP_DIRTY,
  PROP_MODEL,
  N_PROPS
};

enum {
  LOADED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ---- what is shown ---------------------------------------------------- */

/* The scenario's title, else its file's name, else "Untitled scenario". */
static void
update_title (SluiceDocument *self)
{
  const char *title = self->scenario != NULL ? sluice_scenario_get_title (self->scenario) : NULL;
  g_autofree char *base = self->file != NULL ? g_file_get_basename (self->file) : NULL;

  if (title == NULL || *title == '\0')
    title = base != NULL ? base : _("Untitled scenario");
  if (g_strcmp0 (title, self->title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
take_scenario (SluiceDocument *self,
               SluiceScenario *scenario)
{
  self->edits++;
  if (g_set_object (&self->scenario, scenario))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
}

static void
take_file (SluiceDocument *self,
           GFile          *file)
{
  if (self->file == file || (self->file != NULL && file != NULL && g_file_equal (self->file, file)))
    return;

  g_set_object (&self->file, file);
  g_free (self->path);
  self->path = file != NULL ? g_file_get_path (file) : NULL;
  g_free (self->subtitle);
  self->subtitle = file != NULL ? g_file_get_basename (file) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
}

static void
take_text (SluiceDocument *self,
           char           *text)
{
  g_free (self->text);
  self->text = text;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
}

/* A new scenario, from a file or not: clean, and said to the views. */
static void
show_new (SluiceDocument *self,
          SluiceScenario *scenario,
          GFile          *file,
          char           *text)
{
  g_object_freeze_notify (G_OBJECT (self));
  take_file (self, file);
  take_text (self, text);
  take_scenario (self, scenario);
  update_title (self);
  sluice_document_set_dirty (self, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
  g_signal_emit (self, signals[LOADED], 0);
}

/* ---- loading ----------------------------------------------------------- */

typedef struct {
  GFile          *file;
  char           *text;
  SluiceScenario *scenario;
} Load;

static void
load_free (Load *load)
{
  g_clear_object (&load->file);
  g_free (load->text);
  g_clear_object (&load->scenario);
  g_free (load);
}

/* Reads and parses @load's file; the errors name it (by its path, as
 * sluice_scenario_new_from_file() does). Only a local file: the
 * scenario's reader refuses a FIFO or a device without blocking on it. */
static gboolean
read_scenario (Load    *load,
               GError **error)
{
  g_autofree char *path = g_file_get_path (load->file);
  gsize length = 0;

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (load->file);

      /* The file dialog's own message, after the file's address. */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s: %s", uri, _("Choose a local file."));
      return FALSE;
    }

  load->text = sluice_scenario_read_text (path, &length, error);
  if (load->text == NULL)
    return FALSE;
  load->scenario = sluice_scenario_new_from_data (load->text, (gssize) length, path, NULL, error);
  return load->scenario != NULL;
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;

  if (read_scenario (task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
apply_load (SluiceDocument *self,
            Load           *load)
{
  show_new (self, load->scenario, load->file, g_steal_pointer (&load->text));
}

/**
 * sluice_document_load:
 * @self: a #SluiceDocument
 * @file: a `.pool` file
 * @cancellable: (nullable): not used yet
 * @error: return location for a %SLUICE_SCENARIO_ERROR naming @file
 *
 * Reads @file as sluice_document_load_async() does, blocking: for what
 * must show the scenario before it returns (the command line, tests).
 *
 * Returns: whether @file was a valid scenario; else @self is as it was
 */
gboolean
sluice_document_load (SluiceDocument  *self,
                      GFile           *file,
                      GCancellable    *cancellable,
                      GError         **error)
{
  Load load = { file, NULL, NULL };
  gboolean ok;

  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  ok = read_scenario (&load, error);
  if (ok)
    apply_load (self, &load);
  g_free (load.text);
  g_clear_object (&load.scenario);
  return ok;
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SluiceDocument *self = SLUICE_DOCUMENT (source);
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  apply_load (self, g_task_get_task_data (G_TASK (result)));
  g_task_return_boolean (task, TRUE);
}

/**
 * sluice_document_load_async:
 * @self: a #SluiceDocument
 * @file: a `.pool` file
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once @self shows @file, or it could not
 * @user_data: data for @callback
 *
 * Reads and parses @file on a thread; then, on the thread-default main
 * context, takes its scenario, its text and @file, is clean and emits
 * #SluiceDocument::loaded before @callback is called. A file that does
 * not load leaves @self as it was.
 */
void
sluice_document_load_async (SluiceDocument      *self,
                            GFile               *file,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  g_autoptr(GTask) read = NULL;
  Load *load;

  g_return_if_fail (SLUICE_IS_DOCUMENT (self));
  g_return_if_fail (G_IS_FILE (file));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_document_load_async);

  /* The read's own task, so that the document changes on this thread,
   * before @callback, as a GIO loader's would. */
  load = g_new0 (Load, 1);
  load->file = g_object_ref (file);
  read = g_task_new (self, cancellable, on_loaded, task);
  g_task_set_task_data (read, load, (GDestroyNotify) load_free);
  g_task_run_in_thread (read, load_in_thread);
}

/**
 * sluice_document_load_finish:
 * @self: a #SluiceDocument
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a %SLUICE_SCENARIO_ERROR (or a %G_IO_ERROR)
 *   whose message names the file
 *
 * Returns: whether the file was a valid scenario, now shown
 */
gboolean
sluice_document_load_finish (SluiceDocument  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * sluice_document_replace:
 * @self: a #SluiceDocument
 * @scenario: a scenario from elsewhere than a file of its own
 * @text: (nullable): its text, which Save edits
 * @subtitle: (nullable): where it came from: a recording's file name, an
 *   attached program
 *
 * Shows @scenario as a new one, from no file (Save asks where), clean,
 * and emits #SluiceDocument::loaded: a recording's scenario, or the
 * configuration of another program's pool.
 */
void
sluice_document_replace (SluiceDocument *self,
                         SluiceScenario *scenario,
                         const char     *text,
                         const char     *subtitle)
{
  g_return_if_fail (SLUICE_IS_DOCUMENT (self));
  g_return_if_fail (SLUICE_IS_SCENARIO (scenario));

  take_file (self, NULL);
  g_free (self->subtitle);
  self->subtitle = g_strdup (subtitle);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SUBTITLE]);
  show_new (self, scenario, NULL, g_strdup (text));
}

/* ---- saving ------------------------------------------------------------ */

typedef struct {
  GFile *file;
  char  *text;
  guint  edits;   /* self->edits when the save began */
} Save;

static void
save_free (Save *save)
{
  g_clear_object (&save->file);
  g_free (save->text);
  g_free (save);
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SluiceDocument *self = g_task_get_source_object (task);
  Save *save = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (source), result, NULL, &error))
    {
      g_autofree char *name = g_file_get_parse_name (save->file);

      g_task_return_new_error (task, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                               /* Translators: the first %s is the file, the second why it cannot be written. */
                               _("%s: cannot write the scenario: %s"), name, error->message);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));
  take_file (self, save->file);
  take_text (self, g_steal_pointer (&save->text));
  update_title (self);
  /* An edit made while it wrote is not in the file. */
  if (self->edits == save->edits)
    sluice_document_set_dirty (self, FALSE);
  g_object_thaw_notify (G_OBJECT (self));
  g_task_return_boolean (task, TRUE);
}

/**
 * sluice_document_save_async:
 * @self: a #SluiceDocument with a scenario
 * @file: (nullable): where to save (Save As), or %NULL for the document's
 *   own file
 * @cancellable: (nullable): a #GCancellable
 * @callback: called once written, or when it could not be
 * @user_data: data for @callback
 *
 * Writes the scenario over the text of the file it came from (a preset's
 * too, for Save As): only the values that changed are rewritten, the
 * comments, blank lines and order of keys stay. Once written, @file is the
 * document's file, its text the one written, and the document is clean
 * (unless it was edited meanwhile).
 */
void
sluice_document_save_async (SluiceDocument      *self,
                            GFile               *file,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GBytes) bytes = NULL;
  GTask *task;
  Save *save;

  g_return_if_fail (SLUICE_IS_DOCUMENT (self));
  g_return_if_fail (file != NULL || self->file != NULL);
  g_return_if_fail (self->scenario != NULL);

  save = g_new0 (Save, 1);
  save->file = g_object_ref (file != NULL ? file : self->file);
  save->text = self->text != NULL ? sluice_scenario_update_data (self->scenario, self->text)
                                  : sluice_scenario_to_data (self->scenario, NULL);
  save->edits = self->edits;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_document_save_async);
  g_task_set_task_data (task, save, (GDestroyNotify) save_free);

  bytes = g_bytes_new (save->text, strlen (save->text));
  g_file_replace_contents_bytes_async (save->file, bytes, NULL, FALSE, G_FILE_CREATE_NONE, cancellable, on_saved,
                                       task);
}

/**
 * sluice_document_save_finish:
 * @self: a #SluiceDocument
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a %SLUICE_SCENARIO_ERROR whose message
 *   names the file
 *
 * Returns: whether the scenario was written
 */
gboolean
sluice_document_save_finish (SluiceDocument  *self,
                             GAsyncResult    *result,
                             GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- properties -------------------------------------------------------- */

/**
 * sluice_document_new:
 *
 * Returns: (transfer full): an untitled document without a scenario
 */
SluiceDocument *
sluice_document_new (void)
{
  return g_object_new (SLUICE_TYPE_DOCUMENT, NULL);
}

/**
 * sluice_document_get_scenario:
 * @self: a #SluiceDocument
 *
 * Returns: (transfer none) (nullable): the scenario as last valid
 */
SluiceScenario *
sluice_document_get_scenario (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->scenario;
}

/**
 * sluice_document_set_scenario:
 * @self: a #SluiceDocument
 * @scenario: (nullable): the scenario as edited now, or %NULL while it is
 *   not valid (then the last valid one stays, and the title with it)
 *
 * Follows an edit; whether it is unsaved is sluice_document_set_dirty()'s
 * (setting the scenario a file was just loaded with is no change).
 */
void
sluice_document_set_scenario (SluiceDocument *self,
                              SluiceScenario *scenario)
{
  g_return_if_fail (SLUICE_IS_DOCUMENT (self));
  g_return_if_fail (scenario == NULL || SLUICE_IS_SCENARIO (scenario));

  if (scenario == NULL)
    return;
  take_scenario (self, scenario);
  update_title (self);
}

/**
 * sluice_document_get_file:
 * @self: a #SluiceDocument
 *
 * Returns: (transfer none) (nullable): the scenario's file (a preset's
 *   too), or %NULL for a new one
 */
GFile *
sluice_document_get_file (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->file;
}

/**
 * sluice_document_get_path:
 * @self: a #SluiceDocument
 *
 * Returns: (nullable) (type filename): the path of the scenario's file
 */
const char *
sluice_document_get_path (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->path;
}

/**
 * sluice_document_get_text:
 * @self: a #SluiceDocument
 *
 * Returns: (nullable): the file's text as loaded or last saved
 */
const char *
sluice_document_get_text (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->text;
}

/**
 * sluice_document_get_title:
 * @self: a #SluiceDocument
 *
 * Returns: the scenario's title (a lesson's name), else its file's name,
 *   else "Untitled scenario"
 */
const char *
sluice_document_get_title (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->title;
}

/**
 * sluice_document_get_subtitle:
 * @self: a #SluiceDocument
 *
 * Returns: the file's name, or where a scenario without a file came from,
 *   or ""
 */
const char *
sluice_document_get_subtitle (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->subtitle != NULL ? self->subtitle : "";
}

/**
 * sluice_document_get_dirty:
 * @self: a #SluiceDocument
 *
 * Returns: whether there are changes that are not saved
 */
gboolean
sluice_document_get_dirty (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), FALSE);
  return self->dirty;
}

/**
 * sluice_document_set_dirty:
 * @self: a #SluiceDocument
 * @dirty: whether there are changes that are not saved
 */
void
sluice_document_set_dirty (SluiceDocument *self,
                           gboolean        dirty)
{
  g_return_if_fail (SLUICE_IS_DOCUMENT (self));

  dirty = !!dirty;
  if (self->dirty == dirty)
    return;
  self->dirty = dirty;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRTY]);
}

/**
 * sluice_document_get_model:
 * @self: a #SluiceDocument
 *
 * Returns: (transfer none) (nullable): the model of the run on show
 */
SluiceRunModel *
sluice_document_get_model (SluiceDocument *self)
{
  g_return_val_if_fail (SLUICE_IS_DOCUMENT (self), NULL);
  return self->model;
}

/**
 * sluice_document_set_model:
 * @self: a #SluiceDocument
 * @model: (nullable): the model of the run on show: a new one for each
 *   run, reset, lesson, recording or attach
 */
void
sluice_document_set_model (SluiceDocument *self,
                           SluiceRunModel *model)
{
  g_return_if_fail (SLUICE_IS_DOCUMENT (self));
  g_return_if_fail (model == NULL || SLUICE_IS_RUN_MODEL (model));

  if (g_set_object (&self->model, model))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

static void
sluice_document_finalize (GObject *object)
{
  SluiceDocument *self = SLUICE_DOCUMENT (object);

  g_clear_object (&self->scenario);
  g_clear_object (&self->file);
  g_clear_object (&self->model);
  g_free (self->path);
  g_free (self->text);
  g_free (self->title);
  g_free (self->subtitle);

  G_OBJECT_CLASS (sluice_document_parent_class)->finalize (object);
}

static void
sluice_document_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  SluiceDocument *self = SLUICE_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_object (value, self->scenario);
      break;
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_SUBTITLE:
      g_value_set_string (value, sluice_document_get_subtitle (self));
      break;
    case PROP_DIRTY:
      g_value_set_boolean (value, self->dirty);
      break;
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_document_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  SluiceDocument *self = SLUICE_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_DIRTY:
      sluice_document_set_dirty (self, g_value_get_boolean (value));
      break;
    case PROP_MODEL:
      sluice_document_set_model (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_document_class_init (SluiceDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_document_finalize;
  object_class->get_property = sluice_document_get_property;
  object_class->set_property = sluice_document_set_property;

  /**
   * SluiceDocument:scenario:
   *
   * The scenario as last valid.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_object ("scenario", NULL, NULL, SLUICE_TYPE_SCENARIO,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceDocument:file:
   *
   * The scenario's file, or %NULL.
   */
  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL, G_TYPE_FILE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceDocument:text:
   *
   * The file's text as loaded or last saved.
   */
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceDocument:title:
   *
   * See sluice_document_get_title().
   */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceDocument:subtitle:
   *
   * See sluice_document_get_subtitle().
   */
  properties[PROP_SUBTITLE] =
    g_param_spec_string ("subtitle", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceDocument:dirty:
   *
   * Whether there are changes that are not saved.
   */
  properties[PROP_DIRTY] =
    g_param_spec_boolean ("dirty", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceDocument:model:
   *
   * The model of the run on show.
   */
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, SLUICE_TYPE_RUN_MODEL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceDocument::loaded:
   *
   * A new scenario is shown: loaded from a file, or replaced by one from
   * elsewhere (sluice_document_replace()). Not emitted for edits.
   */
  signals[LOADED] = g_signal_new ("loaded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sluice_document_init (SluiceDocument *self)
{
  update_title (self);
}
