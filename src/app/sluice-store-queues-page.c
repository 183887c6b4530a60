/* sluice-store-queues-page.c: the store window's Queues page (see the
 * header)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One row per tenant, updated in place at each refresh (a person may be
 * turning its limit's spin button). The rates come from the page's own
 * successive reads: a tenant's succeeded and dead counts, sampled at each
 * answer, over the last SLUICE_STORE_QUEUES_RATE_SPAN.
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-page-read.h"
#include "sluice-store-queues-page.h"

/* The most a limit's spin button goes to. */
#define MAX_LIMIT 10000

typedef struct {
  gint64  at;
  guint64 done;
  guint64 failed;
} Sample;

typedef struct {
  SluiceStoreQueuesPage *page;
  char          *tenant;
  GtkWidget     *box;
  GtkWidget     *name;
  GtkWidget     *state;
  GtkWidget     *counts;
  GtkWidget     *rates;
  GtkWidget     *toggle;
  GtkWidget     *limit_label;
  GtkWidget     *limit;
  gulong         limit_handler;
  gboolean       paused;
  GArray        *samples;  /* Sample, oldest first, within the rate span */
} Row;

struct _SluiceStoreQueuesPage
{
  SluiceStorePage      parent_instance;

  GtkWidget           *box;
  GtkWidget           *status;
  GtkWidget           *rows_box;
  GHashTable          *rows;      /* tenant → Row */
};

G_DEFINE_FINAL_TYPE (SluiceStoreQueuesPage, sluice_store_queues_page, SLUICE_TYPE_STORE_PAGE)

enum {
  READ,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
row_free (Row *row)
{
  g_free (row->tenant);
  g_array_unref (row->samples);
  g_free (row);
}

/* ---- showing a tenant ------------------------------------------------------------- */

static char *
format_counts (const SluiceStoreTenant *tenant)
{
  GString *text = g_string_new (NULL);

  for (guint s = 0; s < SLUICE_STORED_JOB_N_STATES; s++)
    {
      if (s > 0)
        g_string_append (text, " · ");
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, tenant->counts[s]);

      /* Translators: a tenant's count of jobs in one state, such as
       * "3 pending" */
      g_string_append_printf (text, C_("tenant count", "%s %s"), n, sluice_store_page_state_name (s));
    }
  return g_string_free (text, FALSE);
}

/* Jobs/s from the oldest to the newest sample kept; a count that fell
 * (jobs discarded) counts as none done. */
static char *
format_rates (GArray *samples)
{
  const Sample *first;
  const Sample *last;
  double span;

  if (samples->len < 2)
    /* Translators: the rates of a tenant before the page has read it twice */
    return g_strdup (_("done and failed per second: measuring…"));
  first = &g_array_index (samples, Sample, 0);
  last = &g_array_index (samples, Sample, samples->len - 1);
  span = MAX ((double) (last->at - first->at) / G_USEC_PER_SEC, 1e-6);
  /* Translators: a tenant's rates: jobs that succeeded and jobs that
   * died per second, over the last minutes */
  return g_strdup_printf (_("done %.2f/s · failed %.2f/s over the last %d min"),
                          last->done > first->done ? (double) (last->done - first->done) / span : 0.0,
                          last->failed > first->failed ? (double) (last->failed - first->failed) / span : 0.0,
                          (int) ((last->at - first->at + 59 * G_USEC_PER_SEC) / (60 * G_USEC_PER_SEC)));
}

static void
add_sample (Row                     *row,
            const SluiceStoreTenant *tenant,
            gint64                   now)
{
  Sample sample = { now, tenant->counts[SLUICE_STORED_JOB_SUCCEEDED], tenant->counts[SLUICE_STORED_JOB_DEAD] };

  g_array_append_val (row->samples, sample);
  /* The oldest kept is the first within the span: the rates cover it. */
  while (row->samples->len > 2 &&
         g_array_index (row->samples, Sample, 1).at <= now - SLUICE_STORE_QUEUES_RATE_SPAN)
    g_array_remove_index (row->samples, 0);
}

static void
show_tenant (Row                     *row,
             const SluiceStoreTenant *tenant,
             gint64                   now)
{
  g_autofree char *counts = format_counts (tenant);
  g_autofree char *rates = NULL;
  g_autofree char *state = NULL;

  add_sample (row, tenant, now);
  rates = format_rates (row->samples);
  row->paused = tenant->paused;
  if (tenant->concurrency >= 0)
    /* Translators: a tenant's state and its concurrency limit */
    state = g_strdup_printf (_("%s · at most %d running"), tenant->paused ? _("Paused") : _("Active"),
                             (int) tenant->concurrency);
  else
    state = g_strdup (tenant->paused ? _("Paused") : _("Active"));
  gtk_label_set_text (GTK_LABEL (row->state), state);
  gtk_label_set_text (GTK_LABEL (row->counts), counts);
  gtk_label_set_text (GTK_LABEL (row->rates), rates);
  gtk_button_set_label (GTK_BUTTON (row->toggle), tenant->paused ? _("Resume") : _("Pause"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (row->toggle), tenant->paused ? "queues.resume" : "queues.pause");
  /* Not heard as a change of the person's: no LIMIT sent back. */
  g_signal_handler_block (row->limit, row->limit_handler);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (row->limit), tenant->concurrency >= 0 ? (double) tenant->concurrency : 0);
  g_signal_handler_unblock (row->limit, row->limit_handler);
}

/* ---- a tenant's row ------------------------------------------------------------------ */

static void
on_limit_changed (GtkSpinButton *spin,
                  Row           *row)
{
  int limit = gtk_spin_button_get_value_as_int (spin);

  gtk_widget_activate_action (GTK_WIDGET (row->page), "queues.limit", "(sx)", row->tenant,
                              (gint64) (limit > 0 ? limit : -1));
}

/* 0 reads "none": no limit. */
static gboolean
on_limit_output (GtkSpinButton *spin,
                 gpointer       user_data)
{
  int limit = gtk_spin_button_get_value_as_int (spin);
  g_autofree char *text = limit > 0 ? g_strdup_printf ("%d", limit) : g_strdup (C_("concurrency limit", "none"));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (spin)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin), text);
  return TRUE;
}

static int
on_limit_input (GtkSpinButton *spin,
                double        *value,
                gpointer       user_data)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin));

  *value = g_strcmp0 (text, C_("concurrency limit", "none")) == 0 ? 0 : g_ascii_strtod (text, NULL);
  return TRUE;
}

static GtkWidget *
new_label (const char *css_class,
           gboolean    wrap)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), wrap);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
new_limit (SluiceStoreQueuesPage *self,
           Row                   *row)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (0, MAX_LIMIT, 1);
  g_autofree char *name = g_strdup_printf (_("Concurrency limit of %s"), row->tenant);

  gtk_spin_button_set_numeric (GTK_SPIN_BUTTON (spin), FALSE);
  gtk_editable_set_width_chars (GTK_EDITABLE (spin), 5);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_set_tooltip_text (spin, _("The most of this tenant's jobs running at once across all workers; none: no limit."));
  g_signal_connect (spin, "output", G_CALLBACK (on_limit_output), NULL);
  g_signal_connect (spin, "input", G_CALLBACK (on_limit_input), NULL);
  row->limit_handler = g_signal_connect (spin, "value-changed", G_CALLBACK (on_limit_changed), row);
  return spin;
}

static GtkWidget *
new_header (SluiceStoreQueuesPage *self,
            Row                   *row)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  g_autofree char *description = g_strdup_printf (_("Pauses or resumes the claims of tenant %s"), row->tenant);

  row->name = new_label ("heading", FALSE);
  gtk_label_set_text (GTK_LABEL (row->name), row->tenant);
  gtk_label_set_ellipsize (GTK_LABEL (row->name), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (row->name), 24);
  gtk_label_set_selectable (GTK_LABEL (row->name), TRUE);
  row->state = new_label (NULL, FALSE);
  gtk_widget_set_hexpand (row->state, TRUE);
  row->toggle = gtk_button_new_with_label (_("Pause"));
  gtk_actionable_set_action_target (GTK_ACTIONABLE (row->toggle), "s", row->tenant);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row->toggle), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  /* Translators: the label of a tenant's concurrency limit spin button */
  row->limit_label = gtk_label_new (_("Limit"));
  row->limit = new_limit (self, row);
  gtk_box_append (GTK_BOX (header), row->name);
  gtk_box_append (GTK_BOX (header), row->state);
  gtk_box_append (GTK_BOX (header), row->toggle);
  gtk_box_append (GTK_BOX (header), row->limit_label);
  gtk_box_append (GTK_BOX (header), row->limit);
  sluice_store_page_add_control (SLUICE_STORE_PAGE (self), row->toggle);
  sluice_store_page_add_control (SLUICE_STORE_PAGE (self), row->limit_label);
  sluice_store_page_add_control (SLUICE_STORE_PAGE (self), row->limit);
  return header;
}

static void
fit_row (SluiceStoreQueuesPage *self,
         Row                   *row)
{
  /* Wrapped text is as wide as these many characters at most: at the
   * projector's size the page still fits 1024 pixels. */
  gboolean projector = sluice_store_page_get_projector (SLUICE_STORE_PAGE (self));
  int chars = projector ? 48 : 80;

  gtk_label_set_max_width_chars (GTK_LABEL (row->counts), chars);
  gtk_label_set_max_width_chars (GTK_LABEL (row->rates), chars);
  gtk_label_set_max_width_chars (GTK_LABEL (row->name), projector ? 14 : 24);
}

static Row *
add_row (SluiceStoreQueuesPage *self,
         const char            *tenant)
{
  Row *row = g_new0 (Row, 1);

  row->page = self;
  row->tenant = g_strdup (tenant);
  row->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  row->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_add_css_class (row->box, "store-queue");
  gtk_box_append (GTK_BOX (row->box), new_header (self, row));
  row->counts = new_label (NULL, TRUE);
  row->rates = new_label ("dim-label", TRUE);
  gtk_box_append (GTK_BOX (row->box), row->counts);
  gtk_box_append (GTK_BOX (row->box), row->rates);
  fit_row (self, row);
  gtk_box_append (GTK_BOX (self->rows_box), row->box);
  g_hash_table_insert (self->rows, row->tenant, row);
  return row;
}

static void
remove_row (SluiceStoreQueuesPage *self,
            Row                   *row)
{
  sluice_store_page_remove_control (SLUICE_STORE_PAGE (self), row->toggle);
  sluice_store_page_remove_control (SLUICE_STORE_PAGE (self), row->limit_label);
  sluice_store_page_remove_control (SLUICE_STORE_PAGE (self), row->limit);
  /* The spin button may outlive the row (a reference elsewhere). */
  g_clear_signal_handler (&row->limit_handler, row->limit);
  gtk_box_remove (GTK_BOX (self->rows_box), row->box);
  g_hash_table_remove (self->rows, row->tenant);
}

/* ---- reads and actions -------------------------------------------------------------- */

static void
show_error (SluiceStoreQueuesPage *self,
            const GError          *error)
{
  g_autofree char *text = g_strdup_printf (_("Could not read the store: %s"), error->message);

  gtk_label_set_text (GTK_LABEL (self->status), text);
  gtk_widget_set_visible (self->status, TRUE);
}

static void
apply_tenants (SluiceStorePage             *page,
               const SluiceStoreAdminReply *reply,
               const GError                *error)
{
  SluiceStoreQueuesPage *self = SLUICE_STORE_QUEUES_PAGE (page);
  gint64 now = sluice_store_page_get_now (page);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  if (reply == NULL)
    {
      show_error (self, error);
      return;
    }
  for (guint i = 0; i < reply->tenants->len; i++)
    {
      SluiceStoreTenant *tenant = g_ptr_array_index (reply->tenants, i);
      Row *row = g_hash_table_lookup (self->rows, tenant->name);

      if (row == NULL)
        row = add_row (self, tenant->name);
      show_tenant (row, tenant, now);
      g_hash_table_add (seen, tenant->name);
    }
  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (!g_hash_table_contains (seen, ((Row *) value)->tenant))
      g_ptr_array_add (gone, value);
  for (guint i = 0; i < gone->len; i++)
    remove_row (self, g_ptr_array_index (gone, i));
  gtk_label_set_text (GTK_LABEL (self->status), _("No tenant has jobs in this store yet."));
  gtk_widget_set_visible (self->status, reply->tenants->len == 0);
  g_signal_emit (self, signals[READ], 0, reply->tenants);
}

/* A refresh reads the tenants. */
static SluiceStoreAdminQuery *
make_tenants_query (SluiceStorePage *page,
                    gint64           now)
{
  SluiceStoreAdminQuery *query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_TENANTS);

  query->now = now;
  return query;
}

typedef struct {
  SluiceStoreQueuesPage *page;
  guint                  generation;
} Change;

static void
on_changed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Change *change = user_data;
  SluiceStoreQueuesPage *self = change->page;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = sluice_store_admin_finish (SLUICE_JOB_STORE (source), result, &error);

  if (change->generation == sluice_store_page_get_generation (SLUICE_STORE_PAGE (self)))
    {
      if (reply == NULL)
        show_error (self, error);
      else
        sluice_store_page_refresh (SLUICE_STORE_PAGE (self));
    }
  g_object_unref (self);
  g_free (change);
}

/* Pause, resume and limit: a write, then a read to show it. */
static void
change_tenant (SluiceStoreQueuesPage *self,
               SluiceStoreAdminOp     op,
               const char            *tenant,
               gint64                 concurrency)
{
  SluiceStorePage *page = SLUICE_STORE_PAGE (self);
  SluiceJobStore *store = sluice_store_page_get_store (page);
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (op);
  Change *change;

  if (store == NULL || sluice_store_page_get_read_only (page))
    return;
  query->tenant = g_strdup (tenant);
  query->concurrency = concurrency;
  query->now = sluice_store_page_get_now (page);
  change = g_new0 (Change, 1);
  change->page = g_object_ref (self);
  change->generation = sluice_store_page_get_generation (page);
  sluice_store_admin_async (store, query, NULL, on_changed, change);
}

static void
pause_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  change_tenant (SLUICE_STORE_QUEUES_PAGE (widget), SLUICE_STORE_ADMIN_PAUSE, g_variant_get_string (parameter, NULL), -1);
}

static void
resume_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  change_tenant (SLUICE_STORE_QUEUES_PAGE (widget), SLUICE_STORE_ADMIN_RESUME, g_variant_get_string (parameter, NULL), -1);
}

static void
limit_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  const char *tenant;
  gint64 limit;

  g_variant_get (parameter, "(&sx)", &tenant, &limit);
  change_tenant (SLUICE_STORE_QUEUES_PAGE (widget), SLUICE_STORE_ADMIN_LIMIT, tenant, limit);
}

/* Another store: its rows and rates start again. */
static void
show_store (SluiceStorePage *page,
            SluiceJobStore  *store)
{
  SluiceStoreQueuesPage *self = SLUICE_STORE_QUEUES_PAGE (page);
  GList *rows = g_hash_table_get_values (self->rows);

  for (GList *l = rows; l != NULL; l = l->next)
    remove_row (self, l->data);
  g_list_free (rows);
  gtk_label_set_text (GTK_LABEL (self->status), store != NULL ? _("Reading the store…") : _("No store is open."));
  gtk_widget_set_visible (self->status, TRUE);
}

static void
show_projector (SluiceStorePage *page,
                gboolean         projector)
{
  SluiceStoreQueuesPage *self = SLUICE_STORE_QUEUES_PAGE (page);
  GHashTableIter iter;
  gpointer row;

  g_hash_table_iter_init (&iter, self->rows);
  while (g_hash_table_iter_next (&iter, NULL, &row))
    fit_row (self, row);
}

/* ---- the object --------------------------------------------------------------------- */

static void
sluice_store_queues_page_dispose (GObject *object)
{
  SluiceStoreQueuesPage *self = SLUICE_STORE_QUEUES_PAGE (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->rows, g_hash_table_unref);
  G_OBJECT_CLASS (sluice_store_queues_page_parent_class)->dispose (object);
}

static void
sluice_store_queues_page_class_init (SluiceStoreQueuesPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SluiceStorePageClass *page_class = SLUICE_STORE_PAGE_CLASS (klass);

  object_class->dispose = sluice_store_queues_page_dispose;
  page_class->show_store = show_store;
  page_class->make_query = make_tenants_query;
  page_class->apply = apply_tenants;
  page_class->show_projector = show_projector;

  /**
   * SluiceStoreQueuesPage::read:
   * @self: the page
   * @tenants: (element-type SluiceStoreTenant): what a read of the store gave
   *
   * The page read the store's tenants and shows them: the store window's
   * alerts compare each read with the one before.
   */
  signals[READ] = g_signal_new ("read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  gtk_widget_class_install_action (widget_class, "queues.pause", "s", pause_activated);
  gtk_widget_class_install_action (widget_class, "queues.resume", "s", resume_activated);
  gtk_widget_class_install_action (widget_class, "queues.limit", "(sx)", limit_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sluice_store_queues_page_init (SluiceStoreQueuesPage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->rows = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) row_free);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->status = new_label ("dim-label", TRUE);
  gtk_label_set_text (GTK_LABEL (self->status), _("No store is open."));
  self->rows_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_widget_set_margin_start (self->rows_box, 12);
  gtk_widget_set_margin_end (self->rows_box, 12);
  gtk_widget_set_margin_top (self->rows_box, 12);
  gtk_widget_set_margin_bottom (self->rows_box, 12);
  gtk_box_append (GTK_BOX (self->rows_box), self->status);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->rows_box);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);
}

GtkWidget *
sluice_store_queues_page_new (void)
{
  return g_object_new (SLUICE_TYPE_STORE_QUEUES_PAGE, NULL);
}
