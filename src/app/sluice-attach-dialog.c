/* sluice-attach-dialog.c: "Attach to a Running Pool": the pools other
 * programs export on the session bus, to pick one
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-attach-dialog.h"
#include "sluice-accessible.h"
#include "sluice-pool-browser.h"

/**
 * SluiceAttachDialog:
 *
 * A modal window over the playground that lists the pools exported on the
 * session bus (sluice_pool_export(), `SLUICE_MONITOR=session`), from a
 * #SluicePoolBrowser: each program's name, process id and pool title, and
 * what its pool does now (sluice_remote_pool_describe(), again at each
 * #SluiceRemotePool::changed). Programs that start exporting come into the
 * list and those that exit leave it while it is open. Without any, it says
 * how to export a pool; without a session bus, why there is no list.
 *
 * Attach (the default button, or a row activated) emits
 * #SluiceAttachDialog::pool-chosen and closes the dialog; Cancel and
 * Escape close it. The window does the attaching: the dialog only picks.
 * The session bus is taken asynchronously (g_bus_get()): the dialog shows
 * at once and the list fills when the bus answers.
 */

/* The pages of the stack, also what sluice_attach_dialog_get_page() says. */
#define PAGE_LOADING "loading"
#define PAGE_EMPTY   "empty"
#define PAGE_LIST    "list"
#define PAGE_NO_BUS  "no-bus"

struct _SluiceAttachDialog
{
  GtkWindow           parent_instance;

  /* template */
  GtkStack           *stack;
  GtkListView        *list_view;
  GtkLabel           *empty_label;
  GtkLabel           *error_label;

  GCancellable       *cancellable;
  SluicePoolBrowser  *browser;     /* once the bus answered */
  guint               refresh_id;
  gboolean            listed_once; /* the first answer came: no more "loading" */
  GtkSingleSelection *selection;
  char               *bus_error;   /* why there is no bus, or NULL */
};

enum {
  POOL_CHOSEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* How often the list asks the bus again for the pools of the programs. */
#define REFRESH_SECONDS 2

G_DEFINE_FINAL_TYPE (SluiceAttachDialog, sluice_attach_dialog, GTK_TYPE_WINDOW)

/* ---- a row -------------------------------------------------------------- */

/* What a row says of @pool: the program, its process and the pool's title
 * (when it is not just the program's name again), and what it does now. */
static void
row_texts (SluiceRemotePool  *pool,
           char             **heading,
           char             **details,
           char             **state)
{
  g_autofree char *program = sluice_remote_pool_dup_program (pool);
  g_autofree char *title = sluice_remote_pool_dup_title (pool);
  guint pid = sluice_remote_pool_get_pid (pool);

  *heading = program != NULL && *program != '\0' ? g_strdup (program)
                                                 /* Translators: a program that gave no name */
                                                 : g_strdup (_("Unnamed program"));
  if (title != NULL && *title != '\0' && g_strcmp0 (title, program) != 0)
    /* Translators: %u is a process id, %s the title of a pool in it */
    *details = g_strdup_printf (_("process %u · “%s”"), pid, title);
  else
    /* Translators: %u is a process id */
    *details = g_strdup_printf (_("process %u"), pid);
  *state = sluice_remote_pool_describe (pool);
}

static void
update_row (GtkListItem *item)
{
  SluiceRemotePool *pool = gtk_list_item_get_item (item);
  GtkWidget *row = gtk_list_item_get_child (item);
  g_autofree char *heading = NULL, *details = NULL, *state = NULL;

  if (pool == NULL || row == NULL)
    return;
  row_texts (pool, &heading, &details, &state);
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "heading"), heading);
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "details"), details);
  gtk_label_set_text (g_object_get_data (G_OBJECT (row), "state"), state);
}

static GtkWidget *
add_label (GtkWidget  *box,
           const char *css_class,
           gboolean    expand)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), expand ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, expand);
  gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (box), label);
  return label;
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label;

  gtk_widget_add_css_class (row, "pool-row");
  gtk_box_append (GTK_BOX (row), top);

  /* The labels, found again by name at each update. */
  label = add_label (top, "heading", TRUE);
  g_object_set_data (G_OBJECT (row), "heading", label);
  label = add_label (top, "dim-label", FALSE);
  g_object_set_data (G_OBJECT (row), "details", label);
  label = add_label (row, "numeric", TRUE);
  g_object_set_data (G_OBJECT (row), "state", label);
  gtk_list_item_set_child (item, row);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item)
{
  SluiceRemotePool *pool = gtk_list_item_get_item (item);

  /* Its counts move while the dialog is open. */
  g_signal_connect_object (pool, "changed", G_CALLBACK (update_row), item, G_CONNECT_SWAPPED);
  update_row (item);
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  SluiceRemotePool *pool = gtk_list_item_get_item (item);

  if (pool != NULL)
    g_signal_handlers_disconnect_by_func (pool, update_row, item);
}

/* ---- the pages ---------------------------------------------------------- */

static void
update_page (SluiceAttachDialog *self)
{
  SluiceRemotePool *selected = sluice_attach_dialog_get_selected (self);
  const char *page;

  if (self->bus_error != NULL)
    page = PAGE_NO_BUS;
  else if (self->browser == NULL)
    page = PAGE_LOADING;
  else if (g_list_model_get_n_items (G_LIST_MODEL (self->browser)) > 0)
    page = PAGE_LIST;
  else if (sluice_pool_browser_get_loading (self->browser) && !self->listed_once)
    page = PAGE_LOADING;
  else
    page = PAGE_EMPTY;

  if (self->browser != NULL && !sluice_pool_browser_get_loading (self->browser))
    self->listed_once = TRUE;
  gtk_stack_set_visible_child_name (self->stack, page);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "attach.attach",
                                 selected != NULL && !sluice_remote_pool_get_vanished (selected));
}

static gboolean
refresh_pools (gpointer user_data)
{
  SluiceAttachDialog *self = user_data;

  sluice_pool_browser_refresh (self->browser);
  return G_SOURCE_CONTINUE;
}

static void
on_bus (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = g_bus_get_finish (result, &error);
  SluiceAttachDialog *self;

  /* The dialog closed meanwhile. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = SLUICE_ATTACH_DIALOG (user_data);

  if (bus == NULL)
    {
      g_autofree char *text = NULL;

      self->bus_error = g_strdup (error->message);
      /* Translators: %s says why, as GLib puts it */
      text = g_strdup_printf (_("Sluice cannot reach the session bus: %s\n\n"
                                "Programs export their pools on the session bus of the desktop session "
                                "they run in: start Sluice in that session."),
                              error->message);
      gtk_label_set_text (self->error_label, text);
      update_page (self);
      return;
    }

  self->browser = sluice_pool_browser_new (bus);
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->browser)));
  g_signal_connect_object (self->browser, "items-changed", G_CALLBACK (update_page), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->browser, "notify::loading", G_CALLBACK (update_page), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (update_page), self,
                           G_CONNECT_SWAPPED);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));
  /* A program that starts exporting is seen by its bus name at once; a
   * second pool of a program already listed only when asked again. */
  self->refresh_id = g_timeout_add_seconds (REFRESH_SECONDS, refresh_pools, self);
  update_page (self);
}

/* ---- the actions -------------------------------------------------------- */

static void
attach_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SluiceAttachDialog *self = SLUICE_ATTACH_DIALOG (widget);
  SluiceRemotePool *selected = sluice_attach_dialog_get_selected (self);
  g_autoptr(SluiceRemotePool) pool = NULL;

  if (selected == NULL || sluice_remote_pool_get_vanished (selected))
    return;

  /* The list goes with the dialog: the pool stays for the handler. */
  pool = g_object_ref (selected);
  g_object_ref (self);
  g_signal_emit (self, signals[POOL_CHOSEN], 0, pool);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}

static void
cancel_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  gtk_window_destroy (GTK_WINDOW (widget));
}

static void
on_row_activated (SluiceAttachDialog *self,
                  guint               position)
{
  sluice_attach_dialog_select (self, position);
  gtk_widget_activate_action (GTK_WIDGET (self), "attach.attach", NULL);
}

/* ---- GObject ------------------------------------------------------------ */

static void
sluice_attach_dialog_dispose (GObject *object)
{
  SluiceAttachDialog *self = SLUICE_ATTACH_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  g_clear_object (&self->selection);
  g_clear_object (&self->browser);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_ATTACH_DIALOG);

  G_OBJECT_CLASS (sluice_attach_dialog_parent_class)->dispose (object);
}

static void
sluice_attach_dialog_finalize (GObject *object)
{
  SluiceAttachDialog *self = SLUICE_ATTACH_DIALOG (object);

  g_free (self->bus_error);

  G_OBJECT_CLASS (sluice_attach_dialog_parent_class)->finalize (object);
}

static void
sluice_attach_dialog_class_init (SluiceAttachDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_attach_dialog_dispose;
  object_class->finalize = sluice_attach_dialog_finalize;

  /**
   * SluiceAttachDialog::pool-chosen:
   * @self: the dialog
   * @pool: the pool to attach to
   *
   * Attach was pressed (or a row activated) on a pool that is still
   * there; the dialog closes right after.
   */
  signals[POOL_CHOSEN] = g_signal_new ("pool-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 1, SLUICE_TYPE_REMOTE_POOL);

  gtk_widget_class_install_action (widget_class, "attach.attach", NULL, attach_activated);
  gtk_widget_class_install_action (widget_class, "attach.cancel", NULL, cancel_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "attach.cancel", NULL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-attach-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceAttachDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, SluiceAttachDialog, list_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceAttachDialog, empty_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceAttachDialog, error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
}

static void
sluice_attach_dialog_init (SluiceAttachDialog *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autofree char *empty = NULL;
  g_autofree char *command = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));

  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), NULL);
  gtk_list_view_set_factory (self->list_view, factory);

  /* Markup with the commands in a monospace font; the translation keeps
   * the <tt> tags and the commands as they are. */
  /* Translators: a command line; PROGRAM stands for the program's own
   * command, translate it, keep the rest */
  command = g_markup_escape_text (_("SLUICE_MONITOR=session PROGRAM"), -1);
  empty = g_strdup_printf ("%s\n\n<tt>%s</tt>\n\n%s",
                           _("A program's pools show here while it exports them on the session bus. "
                             "Start it with"),
                           command,
                           _("(<tt>SLUICE_MONITOR=session,control</tt> also lets Sluice request a stop), "
                             "or call <tt>sluice_pool_export()</tt> in it. The list follows programs "
                             "as they start and exit."));
  gtk_label_set_markup (self->empty_label, empty);

  update_page (self);
  self->cancellable = g_cancellable_new ();
  g_bus_get (G_BUS_TYPE_SESSION, self->cancellable, on_bus, self);
}

/* ---- API ---------------------------------------------------------------- */

/**
 * sluice_attach_dialog_new:
 * @parent: (nullable): the window it is for
 *
 * Returns: (transfer none): a new dialog, modal over @parent; present it
 */
SluiceAttachDialog *
sluice_attach_dialog_new (GtkWindow *parent)
{
  SluiceAttachDialog *self = g_object_new (SLUICE_TYPE_ATTACH_DIALOG,
                                           "transient-for", parent,
                                           "modal", TRUE,
                                           "destroy-with-parent", TRUE,
                                           NULL);

  /* Projector mode's larger text, as its window has it. */
  if (parent != NULL && gtk_widget_has_css_class (GTK_WIDGET (parent), "projector"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "projector");
  return self;
}

/**
 * sluice_attach_dialog_get_pools:
 * @self: a #SluiceAttachDialog
 *
 * Returns: (transfer none) (nullable): the list of #SluiceRemotePool, or
 *   %NULL until the session bus answered (or without one)
 */
GListModel *
sluice_attach_dialog_get_pools (SluiceAttachDialog *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTACH_DIALOG (self), NULL);
  return self->browser != NULL ? G_LIST_MODEL (self->browser) : NULL;
}

/**
 * sluice_attach_dialog_get_page:
 * @self: a #SluiceAttachDialog
 *
 * Returns: what the dialog shows: `loading` (it is asking the bus),
 *   `list`, `empty` (how to export a pool) or `no-bus`
 */
const char *
sluice_attach_dialog_get_page (SluiceAttachDialog *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTACH_DIALOG (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * sluice_attach_dialog_get_message:
 * @self: a #SluiceAttachDialog
 *
 * Returns: (nullable): the text of the empty or the no-bus page while it
 *   shows, else %NULL
 */
const char *
sluice_attach_dialog_get_message (SluiceAttachDialog *self)
{
  const char *page;

  g_return_val_if_fail (SLUICE_IS_ATTACH_DIALOG (self), NULL);

  page = sluice_attach_dialog_get_page (self);
  if (g_strcmp0 (page, PAGE_EMPTY) == 0)
    return gtk_label_get_text (self->empty_label);
  if (g_strcmp0 (page, PAGE_NO_BUS) == 0)
    return gtk_label_get_text (self->error_label);
  return NULL;
}

/**
 * sluice_attach_dialog_dup_row_text:
 * @self: a #SluiceAttachDialog
 * @position: a row of the list
 *
 * Returns: (transfer full) (nullable): the lines the row at @position
 *   shows (the program; its process and the pool's title; what the pool
 *   does now), or %NULL past the end
 */
char *
sluice_attach_dialog_dup_row_text (SluiceAttachDialog *self,
                                   guint               position)
{
  g_autoptr(SluiceRemotePool) pool = NULL;
  g_autofree char *heading = NULL, *details = NULL, *state = NULL;

  g_return_val_if_fail (SLUICE_IS_ATTACH_DIALOG (self), NULL);

  if (self->browser == NULL)
    return NULL;
  pool = g_list_model_get_item (G_LIST_MODEL (self->browser), position);
  if (pool == NULL)
    return NULL;
  row_texts (pool, &heading, &details, &state);
  return g_strjoin ("\n", heading, details, state, NULL);
}

/**
 * sluice_attach_dialog_get_selected:
 * @self: a #SluiceAttachDialog
 *
 * Returns: (transfer none) (nullable): the pool Attach attaches to
 */
SluiceRemotePool *
sluice_attach_dialog_get_selected (SluiceAttachDialog *self)
{
  g_return_val_if_fail (SLUICE_IS_ATTACH_DIALOG (self), NULL);
  return self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
}

/**
 * sluice_attach_dialog_select:
 * @self: a #SluiceAttachDialog
 * @position: a row of the list
 *
 * Selects the row at @position, as a click does.
 */
void
sluice_attach_dialog_select (SluiceAttachDialog *self,
                             guint               position)
{
  g_return_if_fail (SLUICE_IS_ATTACH_DIALOG (self));

  if (self->selection != NULL)
    gtk_single_selection_set_selected (self->selection, position);
}
