/* sluice-jobs-view.c: the jobs of a submit-mode run, live, and the hand
 * controls that submit one more or give up on one
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-jobs-view.h"
#include "sluice-theme.h"

/**
 * SluiceJobsView:
 *
 * One row per admitted job of a service run: its index, item, state,
 * attempts and its result or error, as the run model's #SluiceJobTable
 * folds them (sluice_jobs_view_set_table()). Each
 * sluice_jobs_view_update() (once per frame) lists the new rows in one
 * change and rebinds the rows that changed since the table's serial it
 * showed.
 *
 * Above the table, an item and a behaviour entry feed the window's
 * `win.submit-job` action, and `win.give-up` gives up on the selected job.
 */

static const char * const column_titles[SLUICE_JOBS_N_COLUMNS] = {
  /* Translators: a column of the jobs table: the job's index, in
   * submission order from 0 */
  N_("Job"),
  N_("Item"),
  /* Translators: a column of the jobs table: queued, running, succeeded,
   * failed or cancelled */
  N_("State"),
  /* Translators: a column of the jobs table: how many handler calls the
   * job had */
  N_("Attempts"),
  N_("Result or error"),
};

static const char * const state_names[] = {
  /* Translators: a job's state in the jobs table: waiting in the queue */
  [SLUICE_JOB_QUEUED] = NC_("job state", "queued"),
  /* Translators: a job's state: a worker holds it */
  [SLUICE_JOB_RUNNING] = NC_("job state", "running"),
  /* Translators: a job's state: it has its result */
  [SLUICE_JOB_SUCCEEDED] = NC_("job state", "succeeded"),
  /* Translators: a job's state: it failed for good */
  [SLUICE_JOB_FAILED] = NC_("job state", "failed"),
  /* Translators: a job's state: its caller gave up on it, or the pool
   * stopped first */
  [SLUICE_JOB_CANCELLED] = NC_("job state", "cancelled"),
};

static const char * const state_classes[] = {
  [SLUICE_JOB_QUEUED] = "job-queued",
  [SLUICE_JOB_RUNNING] = "job-running",
  [SLUICE_JOB_SUCCEEDED] = "job-succeeded",
  [SLUICE_JOB_FAILED] = "job-failed",
  [SLUICE_JOB_CANCELLED] = "job-cancelled",
};

struct _SluiceJobsView
{
  GtkWidget           parent_instance;

  GtkEntry           *item_entry;
  GtkEntry           *behaviour_entry;
  GtkLabel           *submit_error;
  GtkLabel           *summary_label;
  GtkColumnView      *column_view;

  SluiceJobTable     *table;      /* the run model's, or NULL */
  guint64             shown;      /* the table's serial the rows show */
  GtkStringList      *model;      /* one string per row: what the view lists */
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (SluiceJobsView, sluice_jobs_view, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char *
state_name (SluiceJobState state)
{
  return g_dpgettext2 (GETTEXT_PACKAGE, "job state", state_names[state]);
}

static guint
n_rows (SluiceJobsView *self)
{
  return self->table != NULL ? sluice_job_table_get_n_rows (self->table) : 0;
}

static const SluiceJobRow *
find_row (SluiceJobsView *self,
          gint64          index)
{
  gint position = self->table != NULL ? sluice_job_table_find (self->table, index) : -1;

  return position >= 0 ? sluice_job_table_get_row (self->table, position) : NULL;
}

/* ---- the cells --------------------------------------------------------- */

static char *
format_cell (const SluiceJobRow *row,
             SluiceJobsColumn  column)
{
  switch (column)
    {
    case SLUICE_JOBS_COLUMN_INDEX:
      return g_strdup_printf ("%" G_GINT64_FORMAT, row->index);
    case SLUICE_JOBS_COLUMN_ITEM:
      return g_strdup (row->item ? row->item : "");
    case SLUICE_JOBS_COLUMN_STATE:
      return g_strdup (state_name (row->state));
    case SLUICE_JOBS_COLUMN_ATTEMPTS:
      return g_strdup_printf ("%u", row->attempts);
    case SLUICE_JOBS_COLUMN_OUTCOME:
      return g_strdup (row->outcome ? row->outcome : "");
    case SLUICE_JOBS_N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  SluiceJobsColumn column = GPOINTER_TO_UINT (user_data);
  gboolean numeric = column == SLUICE_JOBS_COLUMN_INDEX || column == SLUICE_JOBS_COLUMN_ATTEMPTS;

  gtk_list_item_set_child (list_item, sluice_cell_label_new (numeric));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  SluiceJobsColumn column = GPOINTER_TO_UINT (user_data);
  SluiceJobsView *self = g_object_get_data (G_OBJECT (factory), "view");
  guint position = gtk_list_item_get_position (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;
  const SluiceJobRow *row;

  if (position >= n_rows (self))
    return;

  row = sluice_job_table_get_row (self->table, position);
  text = format_cell (row, column);
  gtk_label_set_text (GTK_LABEL (label), text);
  gtk_widget_set_tooltip_text (label, column == SLUICE_JOBS_COLUMN_OUTCOME && *text ? text : NULL);

  if (column == SLUICE_JOBS_COLUMN_STATE)
    {
      for (guint s = 0; s < G_N_ELEMENTS (state_classes); s++)
        gtk_widget_remove_css_class (label, state_classes[s]);
      gtk_widget_add_css_class (label, state_classes[row->state]);
    }
}

static void
add_columns (SluiceJobsView *self)
{
  sluice_column_view_add_columns (self->column_view, column_titles,
                                  SLUICE_JOBS_N_COLUMNS, SLUICE_JOBS_COLUMN_OUTCOME,
                                  G_CALLBACK (setup_cell), G_CALLBACK (bind_cell), self);
}

/* ---- showing the table's changes ------------------------------------- */

static void
update_summary (SluiceJobsView *self)
{
  g_autofree char *text = NULL;
  guint n = n_rows (self);

  if (n == 0)
    {
      gtk_label_set_text (self->summary_label, _("No jobs yet. Run a scenario in submit mode, then add jobs here."));
      return;
    }

  /* Translators: the jobs table's summary; the first %u is the number of
   * jobs, the others how many are in each state */
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u job: %u queued, %u running, %u succeeded, %u failed, %u cancelled",
                                       "%u jobs: %u queued, %u running, %u succeeded, %u failed, %u cancelled", n),
                          n,
                          sluice_jobs_view_count_state (self, SLUICE_JOB_QUEUED),
                          sluice_jobs_view_count_state (self, SLUICE_JOB_RUNNING),
                          sluice_jobs_view_count_state (self, SLUICE_JOB_SUCCEEDED),
                          sluice_jobs_view_count_state (self, SLUICE_JOB_FAILED),
                          sluice_jobs_view_count_state (self, SLUICE_JOB_CANCELLED));
  gtk_label_set_text (self->summary_label, text);
}

/* One string per new row (its position: the rows are bound from
 * the table), in one splice. */
static void
list_new_rows (SluiceJobsView *self,
               guint           listed)
{
  g_autoptr(GPtrArray) strings = g_ptr_array_new_full (n_rows (self) - listed + 1, g_free);

  for (guint i = listed; i < n_rows (self); i++)
    g_ptr_array_add (strings, g_strdup_printf ("%u", i));
  g_ptr_array_add (strings, NULL);
  gtk_string_list_splice (self->model, listed, 0, (const char * const *) strings->pdata);
}

static gboolean
changed_since_shown (SluiceJobsView *self,
                     guint           position)
{
  return sluice_job_table_get_row (self->table, position)->changed > self->shown;
}

/* Shows what changed since the serial shown: the rows listed already that
 * changed are bound again, in runs of consecutive rows, and the new rows
 * are listed in one change. */
static void
flush (SluiceJobsView *self)
{
  guint listed;

  if (self->table == NULL || sluice_job_table_get_serial (self->table) == self->shown)
    return;

  listed = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  for (guint i = 0; i < listed;)
    {
      guint start = i;

      if (!changed_since_shown (self, i))
        {
          i++;
          continue;
        }
      while (i < listed && changed_since_shown (self, i))
        i++;
      g_list_model_items_changed (G_LIST_MODEL (self->model), start, i - start, i - start);
    }
  if (n_rows (self) > listed)
    list_new_rows (self, listed);

  self->shown = sluice_job_table_get_serial (self->table);
  update_summary (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- the hand controls ------------------------------------------------- */

/* A behaviour that does not parse is marked as the config panel marks a
 * field, while the person types. */
static void
on_behaviour_changed (SluiceJobsView *self)
{
  g_autoptr(SluiceBehaviour) behaviour = NULL;
  g_autoptr(GError) error = NULL;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->behaviour_entry));

  if (*text == '\0' || (behaviour = sluice_behaviour_parse (text, &error)) != NULL)
    sluice_jobs_view_show_submit_error (self, NULL);
  else
    sluice_jobs_view_show_submit_error (self, error->message);
}

static void
on_entry_activate (SluiceJobsView *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.submit-job", NULL);
}

static void
on_selection_changed (SluiceJobsView *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_jobs_view_dispose (GObject *object)
{
  SluiceJobsView *self = SLUICE_JOBS_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_JOBS_VIEW);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->model);
  g_clear_object (&self->table);

  G_OBJECT_CLASS (sluice_jobs_view_parent_class)->dispose (object);
}

static void
sluice_jobs_view_class_init (SluiceJobsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_jobs_view_dispose;

  /**
   * SluiceJobsView::changed:
   *
   * The rows were updated, or another job was selected.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-jobs-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceJobsView, item_entry);
  gtk_widget_class_bind_template_child (widget_class, SluiceJobsView, behaviour_entry);
  gtk_widget_class_bind_template_child (widget_class, SluiceJobsView, submit_error);
  gtk_widget_class_bind_template_child (widget_class, SluiceJobsView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceJobsView, column_view);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sluice_jobs_view_init (SluiceJobsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->model = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->model)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (on_selection_changed), self);

  g_signal_connect_swapped (self->behaviour_entry, "changed", G_CALLBACK (on_behaviour_changed), self);
  g_signal_connect_swapped (self->behaviour_entry, "activate", G_CALLBACK (on_entry_activate), self);
  g_signal_connect_swapped (self->item_entry, "activate", G_CALLBACK (on_entry_activate), self);

  add_columns (self);
  update_summary (self);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_jobs_view_new:
 *
 * Returns: (transfer full): a new, empty table
 */
GtkWidget *
sluice_jobs_view_new (void)
{
  return g_object_new (SLUICE_TYPE_JOBS_VIEW, NULL);
}

/* Forgets every job, for a new run; the entries keep their texts. */
static void
clear (SluiceJobsView *self)
{
  gtk_string_list_splice (self->model, 0, g_list_model_get_n_items (G_LIST_MODEL (self->model)), NULL);
  self->shown = 0;
  update_summary (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * sluice_jobs_view_get_n_jobs:
 * @self: a #SluiceJobsView
 *
 * Returns: the jobs admitted so far
 */
guint
sluice_jobs_view_get_n_jobs (SluiceJobsView *self)
{
  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), 0);
  return n_rows (self);
}

/**
 * sluice_jobs_view_count_state:
 * @self: a #SluiceJobsView
 * @state: a job state
 *
 * Returns: how many jobs are in @state
 */
guint
sluice_jobs_view_count_state (SluiceJobsView *self,
                              SluiceJobState  state)
{
  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), 0);

  return self->table != NULL ? sluice_job_table_count_state (self->table, state) : 0;
}

/**
 * sluice_jobs_view_get_state:
 * @self: a #SluiceJobsView
 * @job_index: a job index
 *
 * Returns: the state the table shows for that job (%SLUICE_JOB_QUEUED for
 *   a job it does not have)
 */
SluiceJobState
sluice_jobs_view_get_state (SluiceJobsView *self,
                            gint64          job_index)
{
  const SluiceJobRow *row;

  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), SLUICE_JOB_QUEUED);

  row = find_row (self, job_index);
  return row ? row->state : SLUICE_JOB_QUEUED;
}

/**
 * sluice_jobs_view_dup_text:
 * @self: a #SluiceJobsView
 * @job_index: a job index
 * @column: a column
 *
 * Returns: (transfer full) (nullable): the text of the job's cell, or
 *   %NULL for a job the table does not have
 */
char *
sluice_jobs_view_dup_text (SluiceJobsView   *self,
                           gint64            job_index,
                           SluiceJobsColumn  column)
{
  const SluiceJobRow *row;

  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), NULL);
  g_return_val_if_fail (column < SLUICE_JOBS_N_COLUMNS, NULL);

  row = find_row (self, job_index);
  return row ? format_cell (row, column) : NULL;
}

/**
 * sluice_jobs_view_get_selected_job:
 * @self: a #SluiceJobsView
 *
 * Returns: the index of the selected job, or -1
 */
gint64
sluice_jobs_view_get_selected_job (SluiceJobsView *self)
{
  guint position;

  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), -1);

  position = gtk_single_selection_get_selected (self->selection);
  if (position == GTK_INVALID_LIST_POSITION || position >= n_rows (self))
    return -1;
  return sluice_job_table_get_row (self->table, position)->index;
}

/**
 * sluice_jobs_view_select_job:
 * @self: a #SluiceJobsView
 * @job_index: a job index, or -1 for none
 *
 * Selects that job's row, as a click would.
 */
void
sluice_jobs_view_select_job (SluiceJobsView *self,
                             gint64          job_index)
{
  gint position;

  g_return_if_fail (SLUICE_IS_JOBS_VIEW (self));

  position = self->table != NULL ? sluice_job_table_find (self->table, job_index) : -1;
  gtk_single_selection_set_selected (self->selection, position >= 0 ? (guint) position : GTK_INVALID_LIST_POSITION);
}

/**
 * sluice_jobs_view_set_submission:
 * @self: a #SluiceJobsView
 * @item: (nullable): the item's text
 * @behaviour: (nullable): the behaviour's text
 *
 * Types into the entries, as a person would.
 */
void
sluice_jobs_view_set_submission (SluiceJobsView *self,
                                 const char     *item,
                                 const char     *behaviour)
{
  g_return_if_fail (SLUICE_IS_JOBS_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->item_entry), item ? item : "");
  gtk_editable_set_text (GTK_EDITABLE (self->behaviour_entry), behaviour ? behaviour : "");
}

/**
 * sluice_jobs_view_get_submission:
 * @self: a #SluiceJobsView
 * @item: (out) (transfer full): the item: the entry's text as a #GVariant
 *   (a number, or a text in quotes), a plain text as a string
 * @behaviour: (out) (transfer full) (nullable): the behaviour, or %NULL
 *   for the handler's default (an empty entry)
 *
 * Reads the entries; a behaviour that does not parse, or an empty item,
 * is shown under them.
 *
 * Returns: whether the entries make a job
 */
gboolean
sluice_jobs_view_get_submission (SluiceJobsView   *self,
                                 GVariant        **item,
                                 SluiceBehaviour **behaviour)
{
  g_autofree char *item_text = NULL;
  const char *behaviour_text;
  g_autoptr(GError) error = NULL;
  GVariant *value;

  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), FALSE);

  *item = NULL;
  *behaviour = NULL;
  item_text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->item_entry))));
  behaviour_text = gtk_editable_get_text (GTK_EDITABLE (self->behaviour_entry));

  if (*item_text == '\0')
    {
      sluice_jobs_view_show_submit_error (self, _("Type the job’s item first, such as 42 or \"cat.jpg\"."));
      return FALSE;
    }

  if (*behaviour_text != '\0' && (*behaviour = sluice_behaviour_parse (behaviour_text, &error)) == NULL)
    {
      sluice_jobs_view_show_submit_error (self, error->message);
      return FALSE;
    }

  value = g_variant_parse (NULL, item_text, NULL, NULL, NULL);
  *item = value != NULL ? value : g_variant_ref_sink (g_variant_new_string (item_text));
  sluice_jobs_view_show_submit_error (self, NULL);
  return TRUE;
}

/**
 * sluice_jobs_view_show_submit_error:
 * @self: a #SluiceJobsView
 * @message: (nullable): why the job cannot be submitted, or %NULL
 *
 * Shows @message under the entries, or hides it.
 */
void
sluice_jobs_view_show_submit_error (SluiceJobsView *self,
                                    const char     *message)
{
  g_return_if_fail (SLUICE_IS_JOBS_VIEW (self));

  gtk_label_set_text (self->submit_error, message ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->submit_error), message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->behaviour_entry), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->behaviour_entry), "error");
}

/**
 * sluice_jobs_view_get_item_entry:
 * @self: a #SluiceJobsView
 *
 * Returns: (transfer none): the entry of the item to submit
 */
GtkWidget *
sluice_jobs_view_get_item_entry (SluiceJobsView *self)
{
  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), NULL);
  return GTK_WIDGET (self->item_entry);
}

/**
 * sluice_jobs_view_get_behaviour_entry:
 * @self: a #SluiceJobsView
 *
 * Returns: (transfer none): the entry of the behaviour to submit
 */
GtkWidget *
sluice_jobs_view_get_behaviour_entry (SluiceJobsView *self)
{
  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (self), NULL);
  return GTK_WIDGET (self->behaviour_entry);
}

/**
 * sluice_jobs_view_set_table:
 * @self: a #SluiceJobsView
 * @table: (nullable): the jobs of a service run (its model's), or %NULL
 *
 * Lists @table's jobs; the entries keep their texts.
 */
void
sluice_jobs_view_set_table (SluiceJobsView *self,
                            SluiceJobTable *table)
{
  g_return_if_fail (SLUICE_IS_JOBS_VIEW (self));
  g_return_if_fail (table == NULL || SLUICE_IS_JOB_TABLE (table));

  g_set_object (&self->table, table);
  clear (self);
  flush (self);
}

/**
 * sluice_jobs_view_update:
 * @self: a #SluiceJobsView
 *
 * Shows what changed in the table since the last update, in one change.
 * Call it once per frame.
 */
void
sluice_jobs_view_update (SluiceJobsView *self)
{
  g_return_if_fail (SLUICE_IS_JOBS_VIEW (self));

  flush (self);
}
