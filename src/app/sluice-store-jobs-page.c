/* sluice-store-jobs-page.c: the store window's Jobs page
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-accessible.h"
#include "sluice-store-jobs-model.h"
#include "sluice-store-jobs-page.h"
#include "sluice-store-page-read.h"

/**
 * SluiceStoreJobsPage:
 *
 * A store's jobs (docs/store-admin.md, "The store window"): a
 * #GtkColumnView over a #SluiceStoreJobsModel, which holds only the pages
 * read so far (the next is read when the list is scrolled near its end),
 * filtered by the window's tenant, a state (a drop-down) and a search
 * (the operation key and the payload's text, `value:42`). Rows are
 * selected several at a time; the actions `jobs.retry`, `jobs.cancel` and
 * `jobs.discard` work on the selection, or with `jobs.all-matching` on
 * every job of the filter, not only the rows read. A change of more than
 * one job is asked first: the verb is sent unconfirmed (the store then
 * changes nothing and says how many it matched), and confirmed after the
 * person says yes. Keys: Delete discards, Ctrl+R retries, Ctrl+F searches.
 * Activating a row shows its #SluiceStoreJobDetail in place of the list.
 *
 * Every store call is asynchronous; an answer after the page was disposed
 * is dropped. Read-only (the window's `--read-only`, or a store that
 * refuses writes): the action buttons are hidden and the actions off.
 */

#define PAGE_SIZE 100
/* Below this width (×1.6 in projector mode) only the columns that matter
 * show: state, tenant, key, attempts and age fit 1024×768. */
#define NARROW_WIDTH 1100
#define SHORT_ID_CHARS 8

struct _SluiceStoreJobsPage
{
  GtkWidget             parent_instance;

  GtkStack             *stack;       /* "list" and "detail" */
  GtkDropDown          *state_drop_down;
  GtkSearchEntry       *search_entry;
  GtkWidget            *actions_box;
  GtkLabel             *message_label;
  GtkColumnView        *view;
  GtkColumnViewColumn  *columns[SLUICE_STORE_JOBS_N_COLUMNS];
  GtkMultiSelection    *selection;
  SluiceStoreJobDetail *detail;

  SluiceJobStore       *store;       /* NULL until the window opened it */
  char                 *description;
  SluiceStoreJobsModel *model;       /* NULL without a store */
  char                 *tenant;
  char                 *message;
  GCancellable         *cancellable;
  gboolean              read_only;
  gboolean              all_matching;
  gboolean              narrow;
  guint                 verbs_in_flight;
  guint                 narrow_idle;
  GtkWidget            *question;    /* the dialog asking, or NULL */
};

enum {
  PROP_0,
  PROP_ALL_MATCHING,
  PROP_READ_ONLY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SluiceStoreJobsPage, sluice_store_jobs_page, GTK_TYPE_WIDGET)

static const char * const column_titles[SLUICE_STORE_JOBS_N_COLUMNS] = {
  [SLUICE_STORE_JOBS_COLUMN_STATE] = N_("State"),
  [SLUICE_STORE_JOBS_COLUMN_TENANT] = N_("Tenant"),
  /* Translators: a column of the Jobs list: the job's operation key */
  [SLUICE_STORE_JOBS_COLUMN_KEY] = N_("Key"),
  [SLUICE_STORE_JOBS_COLUMN_ATTEMPTS] = N_("Attempts"),
  /* Translators: a column of the Jobs list: how long ago the job was enqueued */
  [SLUICE_STORE_JOBS_COLUMN_AGE] = N_("Age"),
  /* Translators: a column of the Jobs list: the job's id, shortened */
  [SLUICE_STORE_JOBS_COLUMN_ID] = N_("Job"),
  /* Translators: a column of the Jobs list: the worker holding the job's lease */
  [SLUICE_STORE_JOBS_COLUMN_LEASE] = N_("Lease owner"),
  /* Translators: a column of the Jobs list: the job's last failure */
  [SLUICE_STORE_JOBS_COLUMN_FAILURE] = N_("Last failure"),
};

/* ---- cells ------------------------------------------------------------------ */

static char *
format_age (gint64 created_at,
            gint64 now)
{
  gint64 s = MAX (now - created_at, 0) / G_USEC_PER_SEC;

  if (s < 60)
    /* Translators: an age in seconds, short */
    return g_strdup_printf (_("%d s"), (int) s);
  if (s < 3600)
    /* Translators: an age in minutes, short */
    return g_strdup_printf (_("%d min"), (int) (s / 60));
  if (s < 86400)
    /* Translators: an age in hours, short */
    return g_strdup_printf (_("%d h"), (int) (s / 3600));
  /* Translators: an age in days, short */
  return g_strdup_printf (_("%d d"), (int) (s / 86400));
}

static char *
format_cell (const SluiceStoredJob *job,
             SluiceStoreJobsColumn  column)
{
  switch (column)
    {
    case SLUICE_STORE_JOBS_COLUMN_STATE:
      return g_strdup (sluice_store_page_state_name (job->state));
    case SLUICE_STORE_JOBS_COLUMN_TENANT:
      return g_strdup (job->tenant);
    case SLUICE_STORE_JOBS_COLUMN_KEY:
      return g_strdup (job->operation_key);
    case SLUICE_STORE_JOBS_COLUMN_ATTEMPTS:
      return g_strdup_printf ("%u/%u", job->attempts, job->max_attempts);
    case SLUICE_STORE_JOBS_COLUMN_AGE:
      return format_age (job->created_at, g_get_real_time ());
    case SLUICE_STORE_JOBS_COLUMN_ID:
      return g_strndup (job->id, SHORT_ID_CHARS);
    case SLUICE_STORE_JOBS_COLUMN_LEASE:
      return g_strdup (job->lease_owner != NULL ? job->lease_owner : "");
    case SLUICE_STORE_JOBS_COLUMN_FAILURE:
    default:
      if (job->last_failure == NULL)
        return g_strdup ("");
      return g_strdup_printf ("%s: %s", job->last_failure->type_name, job->last_failure->message);
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  SluiceStoreJobItem *job_item = gtk_list_item_get_item (item);
  g_autofree char *text = format_cell (sluice_store_job_item_get_job (job_item), GPOINTER_TO_UINT (user_data));

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static void
create_columns (SluiceStoreJobsPage *self)
{
  for (guint c = 0; c < SLUICE_STORE_JOBS_N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (c));
      self->columns[c] = gtk_column_view_column_new (_(column_titles[c]), factory);
      gtk_column_view_column_set_resizable (self->columns[c], TRUE);
      gtk_column_view_column_set_expand (self->columns[c], c == SLUICE_STORE_JOBS_COLUMN_KEY ||
                                                           c == SLUICE_STORE_JOBS_COLUMN_FAILURE);
      /* Narrow until allocated wider: the hidden columns never widen the
       * window past a small screen. */
      gtk_column_view_column_set_visible (self->columns[c], c < SLUICE_STORE_JOBS_N_ALWAYS);
      gtk_column_view_append_column (self->view, self->columns[c]);
      g_object_unref (self->columns[c]);  /* the view holds it */
    }
}

/* ---- the model ----------------------------------------------------------------- */

static SluiceStoreAdminQuery *
current_filter (SluiceStoreJobsPage *self)
{
  SluiceStoreAdminQuery *q = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_LIST_JOBS);
  guint state = gtk_drop_down_get_selected (self->state_drop_down);
  const char *search = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  q->tenant = g_strdup (self->tenant);
  /* The first entry is "every state"; the others are the states in order. */
  if (state != GTK_INVALID_LIST_POSITION && state > 0)
    q->states = 1u << (state - 1);
  if (search != NULL && *search != '\0')
    q->search = g_strdup (search);
  return q;
}

/* The list scrolled near its end: the next page. */
static void
on_scrolled (GtkAdjustment       *adjustment,
             SluiceStoreJobsPage *self)
{
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (self->model != NULL && gtk_adjustment_get_value (adjustment) >= end - gtk_adjustment_get_page_size (adjustment))
    sluice_store_jobs_model_load_more (self->model);
}

static void
make_model (SluiceStoreJobsPage *self)
{
  g_autoptr(SluiceStoreAdminQuery) filter = NULL;

  g_clear_object (&self->model);
  if (self->store == NULL)
    {
      gtk_multi_selection_set_model (self->selection, NULL);
      return;
    }
  filter = current_filter (self);
  self->model = sluice_store_jobs_model_new (self->store, filter, PAGE_SIZE);
  /* The page says when the list is read again (the window's reads, unless
   * rows are selected, a detail is shown or a change is on its way): a
   * list that moved under the person's selection would lose it. */
  sluice_store_jobs_model_stop_live (self->model);
  gtk_multi_selection_set_model (self->selection, G_LIST_MODEL (self->model));
}

/**
 * sluice_store_jobs_page_reload:
 * @self: a page
 *
 * Reads the jobs of the filter again, from the newest.
 */
void
sluice_store_jobs_page_reload (SluiceStoreJobsPage *self)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self));

  if (self->model != NULL)
    sluice_store_jobs_model_reload (self->model);
}

/**
 * sluice_store_jobs_page_refresh:
 * @self: a page
 *
 * The store changed (the window's poll or NOTIFY saw other counts): the
 * list is read again, unless the person is working on it (rows selected,
 * a job's detail shown, a change asked or on its way), whose rows must not
 * move under them.
 */
void
sluice_store_jobs_page_refresh (SluiceStoreJobsPage *self)
{
  g_autoptr(GtkBitset) selected = NULL;

  g_return_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self));

  if (self->model == NULL || self->verbs_in_flight > 0 || self->question != NULL ||
      g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "list") != 0)
    return;
  selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  if (gtk_bitset_is_empty (selected))
    sluice_store_jobs_model_reload (self->model);
}

static void
on_filter_changed (SluiceStoreJobsPage *self)
{
  make_model (self);
}

/* ---- what the page says ----------------------------------------------------- */

static void
set_message (SluiceStoreJobsPage *self,
             const char          *text)
{
  g_free (self->message);
  self->message = g_strdup (text);
  gtk_label_set_text (self->message_label, text != NULL ? text : "");
}

/* ---- verbs ---------------------------------------------------------------------- */

typedef struct {
  SluiceStoreJobsPage   *self;   /* a reference until the answer */
  SluiceStoreAdminQuery *query;
} Verb;

static void
verb_free (Verb *v)
{
  g_object_unref (v->self);
  sluice_store_admin_query_free (v->query);
  g_free (v);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Verb, verb_free)

static void send_verb (SluiceStoreJobsPage *self, Verb *v);

static char *
verb_done_text (SluiceStoreAdminOp op,
                guint64            n)
{
  switch (op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      /* Translators: %lu is a number of jobs */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Retried %lu job", "Retried %lu jobs", (gulong) n), (gulong) n);
    case SLUICE_STORE_ADMIN_CANCEL:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Cancelled %lu job", "Cancelled %lu jobs", (gulong) n), (gulong) n);
    case SLUICE_STORE_ADMIN_DISCARD:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Discarded %lu job", "Discarded %lu jobs", (gulong) n), (gulong) n);
    }
}

static const char *
verb_button_label (SluiceStoreAdminOp op)
{
  switch (op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      return _("_Retry");
    case SLUICE_STORE_ADMIN_CANCEL:
      return _("_Cancel Jobs");
    case SLUICE_STORE_ADMIN_DISCARD:
    default:
      return _("_Discard");
    }
}

static char *
verb_question (SluiceStoreAdminOp op,
               guint64            n)
{
  switch (op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      /* Translators: %lu is a number of jobs, more than one */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Retry %lu job?", "Retry %lu jobs?", (gulong) n), (gulong) n);
    case SLUICE_STORE_ADMIN_CANCEL:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Cancel %lu job?", "Cancel %lu jobs?", (gulong) n), (gulong) n);
    case SLUICE_STORE_ADMIN_DISCARD:
    default:
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Discard %lu job?", "Discard %lu jobs?", (gulong) n), (gulong) n);
    }
}

static void
on_answer (GtkDialog           *dialog,
           int                  response,
           SluiceStoreJobsPage *self)
{
  /* The dialog holds the verb until it is answered or destroyed. */
  Verb *v = g_object_steal_data (G_OBJECT (dialog), "verb");

  if (self->question == GTK_WIDGET (dialog))
    self->question = NULL;
  gtk_window_destroy (GTK_WINDOW (dialog));
  if (v == NULL)
    return;
  if (response != GTK_RESPONSE_ACCEPT || self->store == NULL)
    {
      verb_free (v);
      return;
    }
  v->query->confirmed = TRUE;
  send_verb (self, v);
}

/* More than one job would change: asked first (nothing changed yet). */
static void
ask_first (SluiceStoreJobsPage *self,
           Verb                *v,
           guint64              matched)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  g_autofree char *question = verb_question (v->query->op, matched);
  GtkWidget *dialog;
  GtkWidget *button;

  dialog = gtk_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "%s", question);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            v->query->ids == NULL
                                            ? _("Every job matching the filter, not only the ones in view.")
                                            : _("The selected jobs."));
  gtk_dialog_add_button (GTK_DIALOG (dialog), _("_Keep Them"), GTK_RESPONSE_CANCEL);
  button = gtk_dialog_add_button (GTK_DIALOG (dialog), verb_button_label (v->query->op), GTK_RESPONSE_ACCEPT);
  gtk_widget_add_css_class (button, v->query->op == SLUICE_STORE_ADMIN_RETRY ? "suggested-action"
                                                                               : "destructive-action");
  sluice_accessible_name_buttons_by_label (dialog);
  g_object_set_data_full (G_OBJECT (dialog), "verb", v, (GDestroyNotify) verb_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_answer), self);
  if (self->question != NULL)
    gtk_window_destroy (GTK_WINDOW (self->question));
  self->question = dialog;
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_verb_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Verb) v = user_data;
  SluiceStoreJobsPage *self = v->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = sluice_store_admin_finish (SLUICE_JOB_STORE (object), result, &error);
  g_autofree char *text = NULL;

  self->verbs_in_flight--;
  if (self->store == NULL)
    return;  /* disposed meanwhile */
  if (reply == NULL)
    {
      /* Translators: %s says why the store refused the change */
      text = g_strdup_printf (_("The store did not change the jobs: %s"), error->message);
      set_message (self, text);
      return;
    }
  if (reply->matched > 1 && !v->query->confirmed)
    {
      ask_first (self, g_steal_pointer (&v), reply->matched);
      return;
    }
  if (reply->matched == 0)
    text = g_strdup (_("No job here is in a state this applies to."));
  else
    text = verb_done_text (v->query->op, reply->changed);
  set_message (self, text);
  sluice_store_jobs_page_reload (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
send_verb (SluiceStoreJobsPage *self,
           Verb                *v)
{
  self->verbs_in_flight++;
  v->query->now = g_get_real_time ();
  sluice_store_admin_async (self->store, v->query, self->cancellable, on_verb_done, v);
}

/* The ids of the selected rows, NULL-terminated. */
static char **
selected_ids (SluiceStoreJobsPage *self)
{
  g_autoptr(GtkBitset) selected = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  g_autoptr(GStrvBuilder) ids = g_strv_builder_new ();
  GtkBitsetIter iter;
  guint position;

  for (gboolean ok = gtk_bitset_iter_init_first (&iter, selected, &position); ok;
       ok = gtk_bitset_iter_next (&iter, &position))
    {
      g_autoptr(SluiceStoreJobItem) item = g_list_model_get_item (G_LIST_MODEL (self->selection), position);

      if (item != NULL)
        g_strv_builder_add (ids, sluice_store_job_item_get_job (item)->id);
    }
  return g_strv_builder_end (ids);
}

/* The verb on the selection, or on every job of the filter: sent
 * unconfirmed, so that the store changes one job at once and only says how
 * many it would change when there are more (then asked). */
static void
start_verb (SluiceStoreJobsPage *self,
            SluiceStoreAdminOp   op)
{
  Verb *v;
  g_auto(GStrv) ids = NULL;

  if (self->store == NULL || self->read_only)
    return;
  if (!self->all_matching)
    {
      ids = selected_ids (self);
      if (ids[0] == NULL)
        {
          set_message (self, _("Select the jobs first, or choose all matching the filter."));
          return;
        }
    }
  v = g_new0 (Verb, 1);
  v->self = g_object_ref (self);
  v->query = current_filter (self);
  v->query->op = op;
  v->query->ids = g_steal_pointer (&ids);
  send_verb (self, v);
}

static void
retry_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  start_verb (SLUICE_STORE_JOBS_PAGE (widget), SLUICE_STORE_ADMIN_RETRY);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  start_verb (SLUICE_STORE_JOBS_PAGE (widget), SLUICE_STORE_ADMIN_CANCEL);
}

static void
discard_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  start_verb (SLUICE_STORE_JOBS_PAGE (widget), SLUICE_STORE_ADMIN_DISCARD);
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SluiceStoreJobsPage *self = SLUICE_STORE_JOBS_PAGE (widget);

  gtk_stack_set_visible_child_name (self->stack, "list");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gtk_stack_set_visible_child_name (SLUICE_STORE_JOBS_PAGE (widget)->stack, "list");
}

/* ---- the detail ----------------------------------------------------------------- */

/**
 * sluice_store_jobs_page_show_job:
 * @self: a page
 * @row: a row of the list
 *
 * Shows the job of @row in the detail, in place of the list (as
 * activating the row does).
 */
void
sluice_store_jobs_page_show_job (SluiceStoreJobsPage *self,
                                 guint                row)
{
  g_autoptr(SluiceStoreJobItem) item = NULL;

  g_return_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self));

  item = g_list_model_get_item (G_LIST_MODEL (self->selection), row);
  if (item == NULL || self->store == NULL)
    return;
  sluice_store_job_detail_show (self->detail, self->store, self->description,
                                sluice_store_job_item_get_job (item)->id);
  gtk_stack_set_visible_child_name (self->stack, "detail");
}

static void
on_activate (GtkColumnView       *view,
             guint                position,
             SluiceStoreJobsPage *self)
{
  sluice_store_jobs_page_show_job (self, position);
}

/* ---- narrow or wide ------------------------------------------------------------- */

static gboolean
fit_columns (gpointer user_data)
{
  SluiceStoreJobsPage *self = user_data;

  self->narrow_idle = 0;
  for (guint c = SLUICE_STORE_JOBS_N_ALWAYS; c < SLUICE_STORE_JOBS_N_COLUMNS; c++)
    gtk_column_view_column_set_visible (self->columns[c], !self->narrow);
  return G_SOURCE_REMOVE;
}

static void
sluice_store_jobs_page_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  gtk_widget_measure (GTK_WIDGET (SLUICE_STORE_JOBS_PAGE (widget)->stack), orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
}

/* The page is allocated here, not by a layout manager (which would bypass
 * this), to see its width: the columns are shown or hidden after the
 * allocation, never during it. */
static void
sluice_store_jobs_page_size_allocate (GtkWidget *widget,
                                      int        width,
                                      int        height,
                                      int        baseline)
{
  SluiceStoreJobsPage *self = SLUICE_STORE_JOBS_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  double scale = root != NULL && gtk_widget_has_css_class (GTK_WIDGET (root), "projector") ? 1.6 : 1.0;
  gboolean narrow = width < NARROW_WIDTH * scale;

  gtk_widget_allocate (GTK_WIDGET (self->stack), width, height, baseline, NULL);
  if (narrow != self->narrow)
    {
      self->narrow = narrow;
      if (self->narrow_idle == 0)
        self->narrow_idle = g_idle_add (fit_columns, self);
    }
}

/* ---- building ---------------------------------------------------------------------- */

static GtkWidget *
action_button (const char *label,
               const char *action,
               const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

/* Two rows: the filter, then what to do with what it shows. One row did
 * not fit 1024 pixels in projector mode in German or Indonesian, and the
 * search field was squeezed to nothing first. */
static GtkWidget *
create_toolbar (SluiceStoreJobsPage *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *filter_row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_autoptr(GtkStringList) states = gtk_string_list_new (NULL);
  GtkWidget *all;

  /* Translators: the state filter's first entry */
  gtk_string_list_append (states, _("All states"));
  for (guint s = 0; s < SLUICE_STORED_JOB_N_STATES; s++)
    gtk_string_list_append (states, sluice_store_page_state_name (s));
  self->state_drop_down = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&states)), NULL));
  sluice_accessible_name_drop_down (self->state_drop_down, _("State"));
  g_signal_connect_swapped (self->state_drop_down, "notify::selected", G_CALLBACK (on_filter_changed), self);
  gtk_box_append (GTK_BOX (filter_row), GTK_WIDGET (self->state_drop_down));

  self->search_entry = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_hexpand (GTK_WIDGET (self->search_entry), TRUE);
  g_object_set (self->search_entry, "placeholder-text", _("Search keys and payloads (value:42)"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->search_entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Search"), -1);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (on_filter_changed), self);
  gtk_box_append (GTK_BOX (filter_row), GTK_WIDGET (self->search_entry));
  gtk_box_append (GTK_BOX (bar), filter_row);

  self->actions_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  all = gtk_check_button_new_with_mnemonic (_("All _matching the filter"));
  gtk_widget_set_hexpand (all, TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (all), "jobs.all-matching");
  gtk_widget_set_tooltip_text (all, _("Act on every job the filter matches, not only the selected rows"));
  gtk_box_append (GTK_BOX (self->actions_box), all);
  gtk_box_append (GTK_BOX (self->actions_box),
                  action_button (_("_Retry"), "jobs.retry", _("Make the jobs pending now (Ctrl+R)")));
  gtk_box_append (GTK_BOX (self->actions_box),
                  action_button (_("_Cancel Jobs"), "jobs.cancel", _("Cancel the jobs; a running one's worker is told")));
  gtk_box_append (GTK_BOX (self->actions_box),
                  action_button (_("_Discard"), "jobs.discard", _("Delete the jobs (Delete)")));
  gtk_box_append (GTK_BOX (bar), self->actions_box);
  return bar;
}

static GtkWidget *
create_list (SluiceStoreJobsPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_box_append (GTK_BOX (box), create_toolbar (self));
  self->selection = gtk_multi_selection_new (NULL);
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection))));
  gtk_widget_add_css_class (GTK_WIDGET (self->view), "data-table");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Jobs"), -1);
  create_columns (self);
  g_signal_connect (self->view, "activate", G_CALLBACK (on_activate), self);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->view));
  g_signal_connect (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), "value-changed",
                    G_CALLBACK (on_scrolled), self);
  gtk_box_append (GTK_BOX (box), scrolled);

  self->message_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->message_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "dim-label");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->message_label));
  return box;
}

static GtkWidget *
create_detail (SluiceStoreJobsPage *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *back = gtk_button_new_with_mnemonic (_("_Back to Jobs"));

  gtk_widget_set_halign (back, GTK_ALIGN_START);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (back), "jobs.back");
  gtk_box_append (GTK_BOX (box), back);
  self->detail = sluice_store_job_detail_new ();
  gtk_widget_set_vexpand (GTK_WIDGET (self->detail), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->detail));
  return box;
}

/* ---- GObject ------------------------------------------------------------------- */

static void
sluice_store_jobs_page_dispose (GObject *object)
{
  SluiceStoreJobsPage *self = SLUICE_STORE_JOBS_PAGE (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->narrow_idle, g_source_remove);
  if (self->question != NULL)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&self->question)));
  g_clear_object (&self->store);
  g_clear_object (&self->model);
  if (self->stack != NULL)
    gtk_widget_unparent (GTK_WIDGET (g_steal_pointer (&self->stack)));
  g_clear_object (&self->selection);
  G_OBJECT_CLASS (sluice_store_jobs_page_parent_class)->dispose (object);
}

static void
sluice_store_jobs_page_finalize (GObject *object)
{
  SluiceStoreJobsPage *self = SLUICE_STORE_JOBS_PAGE (object);

  g_clear_object (&self->cancellable);
  g_free (self->description);
  g_free (self->tenant);
  g_free (self->message);
  G_OBJECT_CLASS (sluice_store_jobs_page_parent_class)->finalize (object);
}

static void
sluice_store_jobs_page_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  SluiceStoreJobsPage *self = SLUICE_STORE_JOBS_PAGE (object);

  switch (prop_id)
    {
    case PROP_ALL_MATCHING:
      g_value_set_boolean (value, self->all_matching);
      break;
    case PROP_READ_ONLY:
      g_value_set_boolean (value, self->read_only);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_jobs_page_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  SluiceStoreJobsPage *self = SLUICE_STORE_JOBS_PAGE (object);

  switch (prop_id)
    {
    case PROP_ALL_MATCHING:
      if (self->all_matching != g_value_get_boolean (value))
        {
          self->all_matching = g_value_get_boolean (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_READ_ONLY:
      sluice_store_jobs_page_set_read_only (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_jobs_page_class_init (SluiceStoreJobsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_store_jobs_page_dispose;
  object_class->finalize = sluice_store_jobs_page_finalize;
  object_class->get_property = sluice_store_jobs_page_get_property;
  object_class->set_property = sluice_store_jobs_page_set_property;
  widget_class->measure = sluice_store_jobs_page_measure;
  widget_class->size_allocate = sluice_store_jobs_page_size_allocate;

  /** SluiceStoreJobsPage:all-matching: the actions work on every job of the filter, not the selection. */
  properties[PROP_ALL_MATCHING] =
    g_param_spec_boolean ("all-matching", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /** SluiceStoreJobsPage:read-only: the actions are hidden and off. */
  properties[PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceStoreJobsPage::changed:
   *
   * An action changed jobs in the store (the window reads its counts).
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "jobs.retry", NULL, retry_action);
  gtk_widget_class_install_action (widget_class, "jobs.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "jobs.discard", NULL, discard_action);
  gtk_widget_class_install_action (widget_class, "jobs.search", NULL, search_action);
  gtk_widget_class_install_action (widget_class, "jobs.back", NULL, back_action);
  gtk_widget_class_install_property_action (widget_class, "jobs.all-matching", "all-matching");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "jobs.discard", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "jobs.retry", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "jobs.search", NULL);
}

static void
sluice_store_jobs_page_init (SluiceStoreJobsPage *self)
{
  self->cancellable = g_cancellable_new ();
  self->narrow = TRUE;
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->stack, create_list (self), "list");
  gtk_stack_add_named (self->stack, create_detail (self), "detail");
  gtk_widget_set_parent (GTK_WIDGET (self->stack), GTK_WIDGET (self));
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
}

/* ---- public ------------------------------------------------------------------- */

/**
 * sluice_store_jobs_page_new:
 *
 * Returns: (transfer floating): a page without a store, empty
 */
SluiceStoreJobsPage *
sluice_store_jobs_page_new (void)
{
  return g_object_new (SLUICE_TYPE_STORE_JOBS_PAGE, NULL);
}

/**
 * sluice_store_jobs_page_set_store:
 * @self: a page
 * @store: the store, opened (it must answer admin queries)
 * @description: the store's URI without its password
 *
 * Lists @store's jobs.
 */
void
sluice_store_jobs_page_set_store (SluiceStoreJobsPage *self,
                                  SluiceJobStore      *store,
                                  const char          *description)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self));
  g_return_if_fail (store == NULL || sluice_store_admin_supported (store));

  g_set_object (&self->store, store);
  g_free (self->description);
  self->description = g_strdup (description);
  make_model (self);
}

/**
 * sluice_store_jobs_page_set_tenant:
 * @self: a page
 * @tenant: (nullable): the tenant, or %NULL for every tenant
 *
 * Lists the jobs of @tenant only (the window's tenant).
 */
void
sluice_store_jobs_page_set_tenant (SluiceStoreJobsPage *self,
                                   const char          *tenant)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self));

  if (g_strcmp0 (self->tenant, tenant) == 0)
    return;
  g_free (self->tenant);
  self->tenant = g_strdup (tenant);
  make_model (self);
}

gboolean
sluice_store_jobs_page_get_read_only (SluiceStoreJobsPage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), FALSE);
  return self->read_only;
}

/**
 * sluice_store_jobs_page_set_read_only:
 * @self: a page
 * @read_only: whether the store may not be changed
 *
 * Read-only: the action buttons are hidden and the actions (and their
 * keys) off, so that nothing offers a change that would fail.
 */
void
sluice_store_jobs_page_set_read_only (SluiceStoreJobsPage *self,
                                      gboolean             read_only)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self));

  read_only = !!read_only;
  if (self->read_only == read_only)
    return;
  self->read_only = read_only;
  gtk_widget_set_visible (self->actions_box, !read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "jobs.retry", !read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "jobs.cancel", !read_only);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "jobs.discard", !read_only);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READ_ONLY]);
}

/**
 * sluice_store_jobs_page_get_busy:
 * @self: a page
 *
 * Returns: whether a page of jobs is being read or a change is on its way
 */
gboolean
sluice_store_jobs_page_get_busy (SluiceStoreJobsPage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), FALSE);
  return self->verbs_in_flight > 0 || (self->model != NULL && sluice_store_jobs_model_get_loading (self->model));
}

/**
 * sluice_store_jobs_page_get_selection:
 * @self: a page
 *
 * Returns: (transfer none): the list's rows (#SluiceStoreJobItem) and
 *   which are selected
 */
GtkSelectionModel *
sluice_store_jobs_page_get_selection (SluiceStoreJobsPage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), NULL);
  return GTK_SELECTION_MODEL (self->selection);
}

/**
 * sluice_store_jobs_page_dup_cell:
 * @self: a page
 * @row: a row, from 0 (the newest job)
 * @column: a column
 *
 * Returns: (transfer full) (nullable): the cell's text as the list shows
 *   it, or %NULL for a row it does not have
 */
char *
sluice_store_jobs_page_dup_cell (SluiceStoreJobsPage   *self,
                                 guint                  row,
                                 SluiceStoreJobsColumn  column)
{
  g_autoptr(SluiceStoreJobItem) item = NULL;

  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), NULL);
  g_return_val_if_fail (column < SLUICE_STORE_JOBS_N_COLUMNS, NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->selection), row);
  return item != NULL ? format_cell (sluice_store_job_item_get_job (item), column) : NULL;
}

gboolean
sluice_store_jobs_page_get_column_visible (SluiceStoreJobsPage   *self,
                                           SluiceStoreJobsColumn  column)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), FALSE);
  g_return_val_if_fail (column < SLUICE_STORE_JOBS_N_COLUMNS, FALSE);
  return gtk_column_view_column_get_visible (self->columns[column]);
}

/**
 * sluice_store_jobs_page_get_message:
 * @self: a page
 *
 * Returns: (nullable): what the last action did, as the page says it
 */
const char *
sluice_store_jobs_page_get_message (SluiceStoreJobsPage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), NULL);
  return self->message;
}

/**
 * sluice_store_jobs_page_get_detail:
 * @self: a page
 *
 * Returns: (transfer none): the job detail shown on activating a row
 */
SluiceStoreJobDetail *
sluice_store_jobs_page_get_detail (SluiceStoreJobsPage *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_PAGE (self), NULL);
  return self->detail;
}
