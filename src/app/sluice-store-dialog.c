/* sluice-store-dialog.c: Open Job Store…: the URI of a store to watch, typed
 * or a SQLite file chosen
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-job-store.h"
#include "sluice-store-dialog.h"
#include "sluice-accessible.h"

/**
 * SluiceStoreDialog:
 *
 * Asks for a job store: `sqlite:FILE` or `postgresql://…` typed into its
 * entry, or a SQLite file picked with Choose File… (a
 * #GtkFileChooserNative: GTK 4.8 has no GtkFileDialog). A plain file name
 * is taken for `sqlite:` and that name. Open (or Enter) checks the kind of
 * URI and emits #SluiceStoreDialog::uri-chosen, then closes; whether the
 * store opens is the store window's to tell, since a server may come
 * back. Cancel and Escape close it.
 */

struct _SluiceStoreDialog
{
  GtkWindow             parent_instance;

  /* template */
  GtkEntry             *uri_entry;
  GtkLabel             *error_label;

  GtkFileChooserNative *chooser;    /* while it is shown */
  char                 *error_text;
};

G_DEFINE_FINAL_TYPE (SluiceStoreDialog, sluice_store_dialog, GTK_TYPE_WINDOW)

enum {
  URI_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
has_scheme (const char *text,
            const char *scheme)
{
  return g_ascii_strncasecmp (text, scheme, strlen (scheme)) == 0;
}

/* "name:" before any '/': a URI of some kind, not a file name. */
static gboolean
looks_like_uri (const char *text)
{
  const char *colon = strchr (text, ':');

  if (colon == NULL || colon == text)
    return FALSE;
  for (const char *p = text; p < colon; p++)
    if (!g_ascii_isalnum (*p) && *p != '+' && *p != '-' && *p != '.')
      return FALSE;
  return TRUE;
}

/**
 * sluice_store_dialog_parse_uri:
 * @text: what was typed
 * @error: return location for why @text names no kind of store
 *
 * The store @text names: `sqlite:FILE` and `postgresql://…` (or
 * `postgres://…`) as they are, a file name (no `scheme:`) as `sqlite:` and
 * the name; surrounding white space dropped.
 *
 * Returns: (transfer full) (nullable): the URI, or %NULL with @error set
 */
char *
sluice_store_dialog_parse_uri (const char  *text,
                               GError     **error)
{
  g_autofree char *uri = g_strstrip (g_strdup (text != NULL ? text : ""));
  g_autofree char *described = NULL;

  if (*uri == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("Type the store's URI, or choose a SQLite file."));
      return NULL;
    }
  if (has_scheme (uri, "sqlite:"))
    {
      if (uri[strlen ("sqlite:")] != '\0' && strcmp (uri + strlen ("sqlite:"), "//") != 0)
        return g_steal_pointer (&uri);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("sqlite: names no file: expected sqlite:FILE"));
      return NULL;
    }
  if (has_scheme (uri, "postgresql://") || has_scheme (uri, "postgres://"))
    return g_steal_pointer (&uri);
  if (!looks_like_uri (uri))
    return g_strconcat ("sqlite:", uri, NULL);

  described = sluice_job_store_describe_uri (uri);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               /* Translators: %s is what was typed, without a password */
               _("“%s” is not a job store: expected sqlite:FILE or postgresql://…"), described);
  return NULL;
}

static void
set_error (SluiceStoreDialog *self,
           const char        *text)
{
  g_free (self->error_text);
  self->error_text = g_strdup (text);
  gtk_label_set_text (self->error_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), text != NULL);
  if (text != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->uri_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->uri_entry), "error");
}

static void
open_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SluiceStoreDialog *self = SLUICE_STORE_DIALOG (widget);
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = sluice_store_dialog_parse_uri (gtk_editable_get_text (GTK_EDITABLE (self->uri_entry)),
                                                        &error);

  if (uri == NULL)
    {
      set_error (self, error->message);
      gtk_widget_grab_focus (GTK_WIDGET (self->uri_entry));
      return;
    }

  g_signal_emit (self, signals[URI_CHOSEN], 0, uri);
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
cancel_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  gtk_window_destroy (GTK_WINDOW (widget));
}

/* ---- Choose File… -------------------------------------------------------- */

static void
on_file_chosen (GtkNativeDialog   *native,
                int                response,
                SluiceStoreDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);

          sluice_store_dialog_set_text (self, uri);
          set_error (self, NULL);
        }
      else
        set_error (self, _("Only a local file can be a SQLite job store."));
    }
  gtk_native_dialog_destroy (native);
  g_clear_object (&self->chooser);
}

static GtkFileFilter *
create_filter (const char         *name,
               const char * const *patterns)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  return filter;
}

static void
choose_file_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  static const char * const sqlite_patterns[] = { "*.db", "*.sqlite", "*.sqlite3", NULL };
  static const char * const all_patterns[] = { "*", NULL };
  SluiceStoreDialog *self = SLUICE_STORE_DIALOG (widget);
  GtkFileChooser *chooser;

  if (self->chooser != NULL)
    return;

  self->chooser = gtk_file_chooser_native_new (_("Choose a SQLite Job Store"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Choose"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (self->chooser);
  gtk_file_chooser_add_filter (chooser, create_filter (_("SQLite files (*.db, *.sqlite, *.sqlite3)"),
                                                       sqlite_patterns));
  gtk_file_chooser_add_filter (chooser, create_filter (_("All files"), all_patterns));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_file_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- GObject ------------------------------------------------------------- */

static void
on_text_changed (SluiceStoreDialog *self)
{
  if (self->error_text != NULL)
    set_error (self, NULL);
}

static void
sluice_store_dialog_dispose (GObject *object)
{
  SluiceStoreDialog *self = SLUICE_STORE_DIALOG (object);

  if (self->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->chooser, self);
      gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
      g_clear_object (&self->chooser);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_STORE_DIALOG);

  G_OBJECT_CLASS (sluice_store_dialog_parent_class)->dispose (object);
}

static void
sluice_store_dialog_finalize (GObject *object)
{
  g_free (SLUICE_STORE_DIALOG (object)->error_text);

  G_OBJECT_CLASS (sluice_store_dialog_parent_class)->finalize (object);
}

static void
sluice_store_dialog_class_init (SluiceStoreDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_store_dialog_dispose;
  object_class->finalize = sluice_store_dialog_finalize;

  /**
   * SluiceStoreDialog::uri-chosen:
   * @self: the dialog
   * @uri: the store's URI: `sqlite:FILE` or `postgresql://…`
   *
   * Open was pressed on a URI of a kind of store; the dialog closes right
   * after.
   */
  signals[URI_CHOSEN] = g_signal_new ("uri-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                      NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "store.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "store.cancel", NULL, cancel_activated);
  gtk_widget_class_install_action (widget_class, "store.choose-file", NULL, choose_file_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "store.cancel", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-store-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreDialog, uri_entry);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreDialog, error_label);
}

static void
sluice_store_dialog_init (SluiceStoreDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
  g_signal_connect_swapped (self->uri_entry, "changed", G_CALLBACK (on_text_changed), self);
}

/**
 * sluice_store_dialog_new:
 * @parent: (nullable): the window it is modal for
 *
 * Returns: (transfer none): the dialog, not shown yet
 */
SluiceStoreDialog *
sluice_store_dialog_new (GtkWindow *parent)
{
  SluiceStoreDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  self = g_object_new (SLUICE_TYPE_STORE_DIALOG,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  /* Projector mode's larger text, as its window has it. */
  if (parent != NULL && gtk_widget_has_css_class (GTK_WIDGET (parent), "projector"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "projector");
  return self;
}

/**
 * sluice_store_dialog_get_text:
 * @self: a #SluiceStoreDialog
 *
 * Returns: what the entry holds
 */
const char *
sluice_store_dialog_get_text (SluiceStoreDialog *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->uri_entry));
}

/**
 * sluice_store_dialog_set_text:
 * @self: a #SluiceStoreDialog
 * @text: a store's URI, or a file name
 *
 * Puts @text into the entry, as typing it would.
 */
void
sluice_store_dialog_set_text (SluiceStoreDialog *self,
                              const char        *text)
{
  g_return_if_fail (SLUICE_IS_STORE_DIALOG (self));
  g_return_if_fail (text != NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->uri_entry), text);
  gtk_editable_set_position (GTK_EDITABLE (self->uri_entry), -1);
}

/**
 * sluice_store_dialog_get_error:
 * @self: a #SluiceStoreDialog
 *
 * Returns: (nullable): why Open refused what the entry holds, until it is
 *   changed
 */
const char *
sluice_store_dialog_get_error (SluiceStoreDialog *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_DIALOG (self), NULL);
  return self->error_text;
}
