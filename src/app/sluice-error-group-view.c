/* sluice-error-group-view.c: the run's final error group as a tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-error-group-view.h"
#include "sluice-theme.h"
#include "sluice-event-item.h"

/**
 * SluiceErrorGroupView:
 *
 * The errors the run recorded — items that failed for good and source
 * errors, in the order the pool recorded them — under one group row, as
 * the caller receives them in the final error group. Each error shows its
 * type, message, item and the attempt that failed for good, and a note
 * when the retry policy ended the item: a retry it skipped, or the item
 * shed from the queue past its deadline (`TimeoutError('deadline
 * exceeded')`, with no attempt).
 *
 * The view shows the run model's #SluiceErrorList
 * (sluice_error_group_view_set_group()), which the model fills once per
 * frame: a run that fails item after item shows its new errors in one
 * change.
 */

typedef enum {
  COLUMN_ERROR,
  COLUMN_MESSAGE,
  COLUMN_ITEM,
  COLUMN_ATTEMPT,
  COLUMN_NOTE,
  N_COLUMNS
} Column;

static const char * const column_titles[N_COLUMNS] = {
  N_("Error"), N_("Message"), N_("Item"), N_("Attempt"),
  /* Translators: a column of the error group: why the retry policy ended
   * an item, such as “retry skipped: budget” */
  N_("Note"),
};

struct _SluiceErrorGroupView
{
  GtkWidget          parent_instance;

  GtkLabel          *summary_label;
  GtkColumnView     *column_view;

  GListStore        *groups;     /* GtkStringObject: zero or one group */
  SluiceErrorList  *group;      /* the run model's errors */
  GtkFilterListModel *shown;     /* the errors up to the moment shown */
  GtkCustomFilter   *filter;
  guint64            limit;      /* run positions below it are shown */
  GtkTreeListModel  *tree;
  char              *outcome;
  guint              group_n_errors;  /* what the group row shows: */
  gboolean           group_exception; /* see update_group() */
};

G_DEFINE_FINAL_TYPE (SluiceErrorGroupView, sluice_error_group_view, GTK_TYPE_WIDGET)

/* ---- the tree ---------------------------------------------------------- */

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  SluiceErrorGroupView *self = user_data;

  if (GTK_IS_STRING_OBJECT (item))
    return G_LIST_MODEL (g_object_ref (self->shown));

  return NULL;
}

static char *
format_group (SluiceErrorGroupView *self,
              Column                column)
{
  guint n = g_list_model_get_n_items (sluice_error_list_get_errors (self->group));

  switch (column)
    {
    case COLUMN_ERROR:
      return g_strdup (g_strcmp0 (self->outcome, "ExceptionGroup") == 0 ? "ExceptionGroup" : _("Recorded errors"));
    case COLUMN_MESSAGE:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u error", "%u errors", n), n);
    case COLUMN_ITEM:
    case COLUMN_ATTEMPT:
    case COLUMN_NOTE:
      return g_strdup ("");
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static char *
format_error (SluiceErrorGroupView *self,
              SluiceEventItem      *item,
              Column                column)
{
  const SluiceEvent *e = sluice_event_item_get_event (item);
  SluiceEventItem *ending;

  switch (column)
    {
    case COLUMN_ERROR:
      return g_strdup (e->error_type ? e->error_type : "Error");
    case COLUMN_MESSAGE:
      return g_strdup (e->error_message ? e->error_message : "");
    case COLUMN_ITEM:
      return e->item >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, e->item) : g_strdup (_("source"));
    case COLUMN_ATTEMPT:
      return e->attempt > 0 ? g_strdup_printf ("%u", e->attempt) : g_strdup ("");
    case COLUMN_NOTE:
      /* The event log's words for the policy's event. */
      ending = sluice_error_list_get_ending (self->group, e->item);
      return ending != NULL ? sluice_event_item_dup_detail (ending) : g_strdup ("");
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = sluice_cell_label_new (column == COLUMN_ITEM || column == COLUMN_ATTEMPT);

  if (column == COLUMN_MESSAGE || column == COLUMN_NOTE)
    sluice_cell_label_show_text_as_tooltip (label);

  if (column == COLUMN_ERROR)
    {
      GtkWidget *expander = gtk_tree_expander_new ();

      gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  gpointer item = gtk_tree_list_row_get_item (row);
  SluiceErrorGroupView *self = g_object_get_data (G_OBJECT (factory), "view");
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  text = GTK_IS_STRING_OBJECT (item) ? format_group (self, column) : format_error (self, item, column);

  if (column == COLUMN_ERROR)
    {
      gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (child), row);
      child = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (child));
    }

  gtk_label_set_text (GTK_LABEL (child), text);
  g_object_unref (item);
}

static void
add_columns (SluiceErrorGroupView *self)
{
  sluice_column_view_add_columns (self->column_view, column_titles, N_COLUMNS, COLUMN_MESSAGE,
                                  G_CALLBACK (setup_cell), G_CALLBACK (bind_cell), self);
}

/* Rebinds the group row, whose text depends on the count of all errors
 * and the outcome, when that text changes: replacing the row makes the
 * tree collapse it and expand it again, every error row with it, which a
 * scrubber moving the shown position each frame must not pay for. */
static void
update_group (SluiceErrorGroupView *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->shown));
  guint n_errors = g_list_model_get_n_items (sluice_error_list_get_errors (self->group));
  gboolean exception_group = g_strcmp0 (self->outcome, "ExceptionGroup") == 0;
  g_autoptr(GtkStringObject) group = NULL;
  g_autofree char *summary = NULL;

  if (n == 0)
    {
      g_list_store_remove_all (self->groups);
      gtk_label_set_text (self->summary_label, _("No errors recorded."));
      return;
    }

  if (g_list_model_get_n_items (G_LIST_MODEL (self->groups)) == 0 ||
      self->group_n_errors != n_errors || self->group_exception != exception_group)
    {
      group = gtk_string_object_new ("group");
      g_list_store_splice (self->groups, 0, g_list_model_get_n_items (G_LIST_MODEL (self->groups)),
                           (gpointer *) &group, 1);
      self->group_n_errors = n_errors;
      self->group_exception = exception_group;
    }

  if (exception_group)
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "The run raised an ExceptionGroup with %u error.",
                                            "The run raised an ExceptionGroup with %u errors.", n), n);
  else
    summary = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "%u error recorded.", "%u errors recorded.", n), n);
  gtk_label_set_text (self->summary_label, summary);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_error_group_view_dispose (GObject *object)
{
  SluiceErrorGroupView *self = SLUICE_ERROR_GROUP_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_ERROR_GROUP_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->tree);
  g_clear_object (&self->groups);
  g_clear_object (&self->shown);
  g_clear_object (&self->filter);
  g_clear_object (&self->group);
  g_clear_pointer (&self->outcome, g_free);

  G_OBJECT_CLASS (sluice_error_group_view_parent_class)->dispose (object);
}

static void
sluice_error_group_view_class_init (SluiceErrorGroupViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_error_group_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/sluicepool/Sluice/sluice-error-group-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceErrorGroupView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceErrorGroupView, column_view);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static gboolean
happened_by_limit (gpointer item,
                   gpointer user_data)
{
  SluiceErrorGroupView *self = user_data;

  return sluice_event_item_get_position (item) < self->limit;
}

static void
sluice_error_group_view_init (SluiceErrorGroupView *self)
{
  g_autoptr(GtkNoSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->groups = g_list_store_new (GTK_TYPE_STRING_OBJECT);
  self->group = sluice_error_list_new ();
  self->limit = G_MAXUINT64;
  self->filter = gtk_custom_filter_new (happened_by_limit, self, NULL);
  self->shown = gtk_filter_list_model_new (g_object_ref (sluice_error_list_get_errors (self->group)),
                                           GTK_FILTER (g_object_ref (self->filter)));
  self->tree = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->groups)), FALSE, TRUE,
                                        create_children, self, NULL);
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->tree)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));

  add_columns (self);
  update_group (self);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_error_group_view_new:
 *
 * Returns: (transfer full): a new, empty view
 */
GtkWidget *
sluice_error_group_view_new (void)
{
  return g_object_new (SLUICE_TYPE_ERROR_GROUP_VIEW, NULL);
}

/**
 * sluice_error_group_view_set_group:
 * @self: a #SluiceErrorGroupView
 * @group: the errors of the run shown (its model's)
 *
 * Shows @group's errors, and forgets the outcome of the run before.
 */
void
sluice_error_group_view_set_group (SluiceErrorGroupView *self,
                                   SluiceErrorList     *group)
{
  g_return_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self));
  g_return_if_fail (SLUICE_IS_ERROR_LIST (group));

  g_set_object (&self->group, group);
  gtk_filter_list_model_set_model (self->shown, sluice_error_list_get_errors (group));
  g_clear_pointer (&self->outcome, g_free);
  update_group (self);
}

/**
 * sluice_error_group_view_update:
 * @self: a #SluiceErrorGroupView
 *
 * Shows the group as its errors are now. Call it once per frame.
 */
void
sluice_error_group_view_update (SluiceErrorGroupView *self)
{
  g_return_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self));

  update_group (self);
}

/**
 * sluice_error_group_view_show_position:
 * @self: a #SluiceErrorGroupView
 * @position: how many of the run's events have happened at the moment
 *   shown, or %G_MAXUINT64 for all of them
 *
 * Shows the errors recorded by then (the scrubber's moment).
 */
void
sluice_error_group_view_show_position (SluiceErrorGroupView *self,
                                       guint64               position)
{
  GtkFilterChange change;

  g_return_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self));

  if (self->limit == position)
    return;
  change = position > self->limit ? GTK_FILTER_CHANGE_LESS_STRICT : GTK_FILTER_CHANGE_MORE_STRICT;
  self->limit = position;
  gtk_filter_changed (GTK_FILTER (self->filter), change);
  update_group (self);
}

/**
 * sluice_error_group_view_set_outcome:
 * @self: a #SluiceErrorGroupView
 * @outcome: (nullable): how the run ended, as in the report
 *
 * Names the group after the run's outcome.
 */
void
sluice_error_group_view_set_outcome (SluiceErrorGroupView *self,
                                     const char           *outcome)
{
  g_return_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self));

  g_free (self->outcome);
  self->outcome = g_strdup (outcome);
  update_group (self);
}

/**
 * sluice_error_group_view_get_n_errors:
 * @self: a #SluiceErrorGroupView
 *
 * Returns: how many errors the group holds
 */
guint
sluice_error_group_view_get_n_errors (SluiceErrorGroupView *self)
{
  g_return_val_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->shown));
}

/**
 * sluice_error_group_view_get_n_rows:
 * @self: a #SluiceErrorGroupView
 *
 * Returns: how many rows the tree shows: the group and its expanded errors
 */
guint
sluice_error_group_view_get_n_rows (SluiceErrorGroupView *self)
{
  g_return_val_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->tree));
}

/**
 * sluice_error_group_view_dup_note:
 * @self: a #SluiceErrorGroupView
 * @index: an error, from 0 to the number of errors
 *
 * Returns: (transfer full): the error's note, as the Note column shows it:
 *   why the retry policy ended its item, or ""
 */
char *
sluice_error_group_view_dup_note (SluiceErrorGroupView *self,
                                  guint                 index)
{
  g_autoptr(SluiceEventItem) item = NULL;

  g_return_val_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (self), NULL);
  g_return_val_if_fail (index < g_list_model_get_n_items (sluice_error_list_get_errors (self->group)), NULL);

  item = g_list_model_get_item (sluice_error_list_get_errors (self->group), index);
  return format_error (self, item, COLUMN_NOTE);
}
