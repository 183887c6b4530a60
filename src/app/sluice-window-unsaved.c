/* sluice-window-unsaved.c: the window's unsaved changes: the mark in the
 * title, and the question before they would be lost
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

/* "• " before the title while there are unsaved changes, as GNOME Text
 * Editor marks a changed document. */
#define MODIFIED_MARK "• "

static const char *
scenario_title (SluiceWindow *self)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);
  const char *title = scenario ? sluice_scenario_get_title (scenario) : NULL;

  if (title == NULL && self->title != NULL)
    return self->title;   /* the last valid one, while a field is invalid */
  return title;
}

/**
 * _sluice_window_update_title:
 * @self: a #SluiceWindow
 *
 * The window's and the header's title: the scenario's (as edited), else
 * its file's name, after "• " while there are unsaved changes.
 */
void
_sluice_window_update_title (SluiceWindow *self)
{
  const char *title = scenario_title (self);
  g_autofree char *base = self->file ? g_path_get_basename (self->file) : NULL;
  g_autofree char *shown = NULL;

  if (title != NULL && title != self->title)
    {
      g_free (self->title);
      self->title = g_strdup (title);
    }
  if (title == NULL)
    title = base ? base : _("Untitled scenario");

  shown = g_strconcat (self->dirty ? MODIFIED_MARK : "", title, NULL);
  gtk_label_set_text (self->title_label, shown);
  gtk_window_set_title (GTK_WINDOW (self), shown);
}

/**
 * _sluice_window_set_dirty:
 * @self: a #SluiceWindow
 * @dirty: whether there are changes that are not saved
 */
void
_sluice_window_set_dirty (SluiceWindow *self,
                          gboolean      dirty)
{
  self->dirty = dirty;
  _sluice_window_update_title (self);
}

/**
 * _sluice_window_on_edited:
 * @self: a #SluiceWindow
 *
 * A person changed the configuration: it has unsaved changes.
 */
void
_sluice_window_on_edited (SluiceWindow *self)
{
  _sluice_window_set_dirty (self, TRUE);
}

/**
 * _sluice_window_do_pending:
 * @self: a #SluiceWindow
 *
 * Does what waited for the question, once it is answered with Discard or
 * the changes are saved.
 */
void
_sluice_window_do_pending (SluiceWindow *self)
{
  PendingKind kind = self->pending;
  g_autofree char *arg = g_steal_pointer (&self->pending_arg);

  self->pending = PENDING_NONE;
  switch (kind)
    {
    case PENDING_CLOSE:
      self->closing = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    case PENDING_OPEN_DIALOG:
      _sluice_window_choose_file (self, SLUICE_FILE_DIALOG_OPEN);
      break;
    case PENDING_OPEN_PRESET:
      sluice_window_open_preset (self, arg, NULL);
      break;
    case PENDING_OPEN_FILE:
      sluice_window_open_file (self, arg, NULL);
      break;
    case PENDING_ATTACH_DIALOG:
      _sluice_window_choose_pool (self);
      break;
    case PENDING_NONE:
    default:
      break;
    }
}

static void
on_answer (GtkDialog    *dialog,
           int           response,
           SluiceWindow *self)
{
  self->question = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == GTK_RESPONSE_ACCEPT)
    _sluice_window_save_then_go_on (self);
  else if (response == GTK_RESPONSE_REJECT)
    /* Still changed: an Open that is cancelled keeps them; a file that
     * opens, or the window closing, lets go of them. */
    _sluice_window_do_pending (self);
  else
    {
      self->pending = PENDING_NONE;
      g_clear_pointer (&self->pending_arg, g_free);
    }
}

static GtkWidget *
create_question (SluiceWindow *self)
{
  const char *title = scenario_title (self);
  GtkWidget *dialog;
  GtkWidget *button;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: %s is the scenario's title */
                                   _("Save the changes to “%s”?"), title ? title : _("Untitled scenario"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("Changes that are not saved are lost."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Cancel"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Discard"), GTK_RESPONSE_REJECT);
  gtk_widget_add_css_class (button, "destructive-action");
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Save"), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_answer), self, 0);
  return dialog;
}

/**
 * _sluice_window_ask_first:
 * @self: a #SluiceWindow
 * @kind: what to do
 * @arg: (nullable): the preset's name or the file's path
 *
 * Does @kind now when there are no unsaved changes; else asks "Save the
 * changes?" first, and does it after Save (once saved) or Discard, not
 * after Cancel.
 */
void
_sluice_window_ask_first (SluiceWindow *self,
                          PendingKind   kind,
                          const char   *arg)
{
  g_free (self->pending_arg);
  self->pending = kind;
  self->pending_arg = g_strdup (arg);

  if (!self->dirty)
    {
      _sluice_window_do_pending (self);
      return;
    }

  if (self->question == NULL)
    self->question = create_question (self);
  gtk_window_present (GTK_WINDOW (self->question));
}

/**
 * _sluice_window_on_close_request:
 * @self: a #SluiceWindow
 *
 * Closing the window (its close button, Ctrl+W, app.quit) asks first while
 * there are unsaved changes.
 *
 * Returns: %TRUE to keep the window open for now
 */
gboolean
_sluice_window_on_close_request (SluiceWindow *self)
{
  if (self->closing || !self->dirty)
    return FALSE;

  _sluice_window_ask_first (self, PENDING_CLOSE, NULL);
  return TRUE;
}

/**
 * sluice_window_get_modified:
 * @self: a #SluiceWindow
 *
 * Returns: whether the configuration has changes that are not saved
 */
gboolean
sluice_window_get_modified (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  return self->dirty;
}

/**
 * sluice_window_get_question:
 * @self: a #SluiceWindow
 *
 * The "Save the changes?" dialog is a #GtkDialog whose responses are
 * %GTK_RESPONSE_ACCEPT (Save), %GTK_RESPONSE_REJECT (Discard) and
 * %GTK_RESPONSE_CANCEL; tests answer it with gtk_dialog_response().
 *
 * Returns: (transfer none) (nullable): the dialog while it asks, or %NULL
 */
GtkWidget *
sluice_window_get_question (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return self->question;
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
  return self->file;
}
