/* sluice-window-unsaved.c: the question before unsaved changes would be
 * lost
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

/* Whether there are unsaved changes is the document's
 * (SluiceDocument:dirty, which the title shows, sluice-window.c); this file
 * asks about them before what would lose them: it is given what to do
 * next (a #SluiceWindowGoOn), so it knows none of the flows that ask. */

static void
close_now (SluiceWindow *self,
           const char   *arg)
{
  self->closing = TRUE;
  gtk_window_close (GTK_WINDOW (self));
}

/* Does what waited for the question, once it is answered with Discard or
 * the changes are saved. */
static void
do_pending (SluiceWindow *self,
            const char   *unused)
{
  SluiceWindowGoOn go_on = g_steal_pointer (&self->pending);
  g_autofree char *arg = g_steal_pointer (&self->pending_arg);

  if (go_on != NULL)
    go_on (self, arg);
}

static void
on_answer (GtkDialog    *dialog,
           int           response,
           SluiceWindow *self)
{
  self->question = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));

  if (response == GTK_RESPONSE_ACCEPT)
    /* Once saved; nothing more when the save fails or its file dialog
     * is cancelled. */
    _sluice_window_save (self, do_pending);
  else if (response == GTK_RESPONSE_REJECT)
    /* Still changed: an Open that is cancelled keeps them; a file that
     * opens, or the window closing, lets go of them. */
    do_pending (self, NULL);
  else
    {
      self->pending = NULL;
      g_clear_pointer (&self->pending_arg, g_free);
    }
}

static GtkWidget *
create_question (SluiceWindow *self)
{
  GtkWidget *dialog;
  GtkWidget *button;

  dialog = gtk_message_dialog_new (GTK_WINDOW (self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   /* Translators: %s is the scenario's title */
                                   _("Save the changes to “%s”?"), sluice_document_get_title (self->document));
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
 * @go_on: what to do
 * @arg: (nullable): the preset's name or the file's path, for @go_on
 *
 * Does @go_on now when there are no unsaved changes; else asks "Save the
 * changes?" first, and does it after Save (once saved) or Discard, not
 * after Cancel.
 */
void
_sluice_window_ask_first (SluiceWindow     *self,
                          SluiceWindowGoOn  go_on,
                          const char       *arg)
{
  g_free (self->pending_arg);
  self->pending = go_on;
  self->pending_arg = g_strdup (arg);

  if (!sluice_document_get_dirty (self->document))
    {
      do_pending (self, NULL);
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
  if (self->closing || !sluice_document_get_dirty (self->document))
    return FALSE;

  _sluice_window_ask_first (self, close_now, NULL);
  return TRUE;
}

static void
open_file_now (SluiceWindow *self,
               const char   *path)
{
  sluice_window_open_file (self, path, NULL);
}

/**
 * sluice_window_open_file_asking:
 * @self: a #SluiceWindow
 * @path: a `.pool` file
 *
 * Opens @path as sluice_window_open_file() does, once "Save the changes?"
 * is answered when the scenario shown has unsaved changes (`sluice
 * FILE.pool` while the window is open, a lesson's card).
 */
void
sluice_window_open_file_asking (SluiceWindow *self,
                                const char   *path)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  _sluice_window_ask_first (self, open_file_now, path);
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
  return sluice_document_get_dirty (self->document);
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
