/* sluice-report-view.c: the finished run's report, key by key
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-report-view.h"

/**
 * SluiceReportView:
 *
 * Shows every key of the run's report, as `sluice-run --json` writes it and
 * in its order: a name people read, the key itself (the presets'
 * descriptions name keys such as `unfinished` or `metrics_raised`) and its
 * value. The view formats what the report says and decides nothing: a key
 * the report gains later shows under its own name.
 */

/* Long lists (results, attempts per item) show their first values. */
#define MAX_SHOWN_VALUES 12

struct _SluiceReportView
{
  GtkWidget     parent_instance;

  GtkWidget    *scrolled;
  GtkGrid      *grid;
  GtkWidget    *placeholder;
  JsonNode     *report;     /* a JSON object, or NULL */
  GHashTable   *values;   /* key → the text shown, for tests and a11y */
  guint         n_rows;
};

G_DEFINE_FINAL_TYPE (SluiceReportView, sluice_report_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_REPORT,
  PROP_NOTE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The report's keys (docs/scenario-format.md, "The report"), named for people. */
static const struct {
  const char *key;
  const char *name;
} key_names[] = {
  { "outcome",         N_("How the run ended") },
  { "results",         N_("Results, in input order") },
  { "result_order",    N_("Results, in the order they came") },
  { "attempts",        N_("Attempts per item") },
  { "pulled",          N_("Items pulled from the source") },
  { "max_lead",        N_("Largest lead (pulled, unfinished)") },
  { "lead_ok",         N_("Lead stayed within queue size + workers + 1") },
  { "group_size",      N_("Errors in the final group") },
  { "group_types",     N_("Their types") },
  { "group_messages",  N_("Their messages") },
  { "ctx_ok",          N_("Context kept across the handler") },
  { "metrics",         N_("Metrics calls by event") },
  { "metrics_raised",  N_("Metrics calls that raised") },
  { "unfinished",      N_("Pulled items never finished") },
  { "live_operations", N_("Operations still alive after the end") },
  { "elapsed",         N_("Elapsed seconds") },
  { "mode",            N_("Mode") },
  { "backoff_us",      N_("Backoff waits drawn (µs)") },
  { "retries_skipped", N_("Retries the policy refused") },
  { "shed",            N_("Items shed past their deadline") },
  { "shutdown",        N_("What the shutdown deadline did") },
  { "snapshots",       N_("Snapshots") },
  { "jobs",            N_("Jobs and how each ended") },
  { "ran",             N_("Jobs the handler ran") },
  { "submit_refused",  N_("Submissions refused") },
};

static const char *
name_of_key (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (key_names); i++)
    if (g_str_equal (key_names[i].key, key))
      return _(key_names[i].name);
  return key;
}

static char *
format_scalar (JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? _("yes") : _("no"));
  if (type == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (type == G_TYPE_DOUBLE)
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.6g", json_node_get_double (node)));
    }
  return g_strdup (json_node_get_string (node));
}

static void
append_more (GString *text,
             guint    shown,
             guint    n)
{
  if (shown < n)
    /* Translators: after the first values of a long list; %u is how many it has. */
    g_string_append_printf (text, ngettext (", … (%u in all)", ", … (%u in all)", n), n);
}

static char *
format_array (JsonArray *array)
{
  guint n = json_array_get_length (array);
  guint shown = MIN (n, MAX_SHOWN_VALUES);
  GString *text = g_string_new (NULL);

  if (n == 0)
    return g_string_free (g_string_append (text, _("none")), FALSE);

  for (guint i = 0; i < shown; i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *value = sluice_report_view_format_value (element);

      /* A list of objects (snapshots) gets a line for each. */
      if (i > 0)
        g_string_append (text, JSON_NODE_HOLDS_OBJECT (element) ? "\n" : ", ");
      g_string_append (text, value);
    }
  append_more (text, shown, n);
  return g_string_free (text, FALSE);
}

static char *
format_object (JsonObject *object)
{
  g_autoptr(GList) members = json_object_get_members (object);
  guint n = g_list_length (members), shown = 0;
  GString *text = g_string_new (NULL);

  if (n == 0)
    return g_string_free (g_string_append (text, _("none")), FALSE);

  for (GList *l = members; l != NULL && shown < MAX_SHOWN_VALUES; l = l->next, shown++)
    {
      g_autofree char *value = sluice_report_view_format_value (json_object_get_member (object, l->data));

      g_string_append_printf (text, "%s%s: %s", shown > 0 ? ", " : "", (const char *) l->data, value);
    }
  append_more (text, shown, n);
  return g_string_free (text, FALSE);
}

/**
 * sluice_report_view_format_value:
 * @node: a value of the report
 *
 * Formats one value for a person: numbers as JSON writes them (with "."),
 * true and false as yes and no, a list by its values and an object by its
 * keys and values, each cut after its first 12.
 *
 * Returns: (transfer full): the text
 */
char *
sluice_report_view_format_value (JsonNode *node)
{
  g_return_val_if_fail (node != NULL, NULL);

  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("—");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return format_array (json_node_get_array (node));
  if (JSON_NODE_HOLDS_OBJECT (node))
    return format_object (json_node_get_object (node));
  return format_scalar (node);
}

static GtkWidget *
make_cell (const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
add_row (SluiceReportView *self,
         const char       *key,
         JsonNode         *node)
{
  g_autofree char *value = sluice_report_view_format_value (node);
  GtkWidget *name = make_cell (name_of_key (key), "report-name");
  GtkWidget *key_label = make_cell (key, "report-key");
  GtkWidget *value_label = make_cell (value, "report-value");

  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (value_label),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, name, NULL, -1);
  gtk_grid_attach (self->grid, name, 0, (int) self->n_rows, 1, 1);
  gtk_grid_attach (self->grid, key_label, 1, (int) self->n_rows, 1, 1);
  gtk_grid_attach (self->grid, value_label, 2, (int) self->n_rows, 1, 1);
  g_hash_table_insert (self->values, g_strdup (key), g_steal_pointer (&value));
  self->n_rows++;
}

static void
clear_rows (SluiceReportView *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))) != NULL)
    gtk_grid_remove (self->grid, child);
  g_hash_table_remove_all (self->values);
  self->n_rows = 0;
}

static void
fill_rows (SluiceReportView *self)
{
  JsonObject *object = json_node_get_object (self->report);
  g_autoptr(GList) members = json_object_get_members (object);

  for (GList *l = members; l != NULL; l = l->next)
    add_row (self, l->data, json_object_get_member (object, l->data));
}

/**
 * sluice_report_view_set_report:
 * @self: a #SluiceReportView
 * @report: (nullable): a finished run's report, the JSON object
 *   sluice_report_to_json() builds (or a recording carries), or %NULL
 *
 * Shows @report's keys in its order, or says that the report comes at the
 * end.
 */
void
sluice_report_view_set_report (SluiceReportView *self,
                               JsonNode         *report)
{
  g_return_if_fail (SLUICE_IS_REPORT_VIEW (self));
  g_return_if_fail (report == NULL || JSON_NODE_HOLDS_OBJECT (report));

  if (self->report == report)
    return;
  g_clear_pointer (&self->report, json_node_unref);
  self->report = report != NULL ? json_node_ref (report) : NULL;

  clear_rows (self);
  if (report != NULL)
    fill_rows (self);
  gtk_widget_set_visible (self->placeholder, report == NULL);
  gtk_widget_set_visible (self->scrolled, report != NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
}

/**
 * sluice_report_view_set_note:
 * @self: a #SluiceReportView
 * @note: (nullable): what to say while there is no report, or %NULL for
 *   the usual words
 */
void
sluice_report_view_set_note (SluiceReportView *self,
                             const char       *note)
{
  g_return_if_fail (SLUICE_IS_REPORT_VIEW (self));

  gtk_label_set_text (GTK_LABEL (self->placeholder),
                      note ? note : _("The report appears here when the run ends: "
                                      "every key sluice-run --json writes, with its value."));
}

/**
 * sluice_report_view_get_report:
 * @self: a #SluiceReportView
 *
 * Returns: (transfer none) (nullable): the report shown, a JSON object
 */
JsonNode *
sluice_report_view_get_report (SluiceReportView *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT_VIEW (self), NULL);

  return self->report;
}

/**
 * sluice_report_view_get_n_rows:
 * @self: a #SluiceReportView
 *
 * Returns: how many keys it shows
 */
guint
sluice_report_view_get_n_rows (SluiceReportView *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT_VIEW (self), 0);

  return self->n_rows;
}

/**
 * sluice_report_view_get_value:
 * @self: a #SluiceReportView
 * @key: a report key, like `unfinished`
 *
 * Returns: (nullable): the text shown for @key, or %NULL if it shows none
 */
const char *
sluice_report_view_get_value (SluiceReportView *self,
                              const char       *key)
{
  g_return_val_if_fail (SLUICE_IS_REPORT_VIEW (self), NULL);

  return g_hash_table_lookup (self->values, key);
}

static void
sluice_report_view_dispose (GObject *object)
{
  SluiceReportView *self = SLUICE_REPORT_VIEW (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->report, json_node_unref);
  g_clear_pointer (&self->values, g_hash_table_unref);

  G_OBJECT_CLASS (sluice_report_view_parent_class)->dispose (object);
}

static void
sluice_report_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  SluiceReportView *self = SLUICE_REPORT_VIEW (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      g_value_set_boxed (value, self->report);
      break;
    case PROP_NOTE:
      g_value_set_string (value, gtk_label_get_text (GTK_LABEL (self->placeholder)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_report_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  SluiceReportView *self = SLUICE_REPORT_VIEW (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      sluice_report_view_set_report (self, g_value_get_boxed (value));
      break;
    case PROP_NOTE:
      sluice_report_view_set_note (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_report_view_class_init (SluiceReportViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_report_view_dispose;
  object_class->get_property = sluice_report_view_get_property;
  object_class->set_property = sluice_report_view_set_property;

  /**
   * SluiceReportView:report: (nullable)
   *
   * The finished report shown.
   */
  properties[PROP_REPORT] =
    g_param_spec_boxed ("report", NULL, NULL, JSON_TYPE_NODE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceReportView:note: (nullable)
   *
   * What it says while it has no report; %NULL for the usual words.
   */
  properties[PROP_NOTE] =
    g_param_spec_string ("note", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "reportview");
}

static void
sluice_report_view_init (SluiceReportView *self)
{
  self->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  self->placeholder = gtk_label_new (NULL);
  sluice_report_view_set_note (self, NULL);
  gtk_label_set_wrap (GTK_LABEL (self->placeholder), TRUE);
  gtk_widget_add_css_class (self->placeholder, "dim-label");
  gtk_widget_set_parent (self->placeholder, GTK_WIDGET (self));

  self->grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->grid, 12);
  gtk_grid_set_row_spacing (self->grid, 2);
  gtk_widget_set_margin_start (GTK_WIDGET (self->grid), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->grid), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->grid), 4);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->grid), 4);

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->grid));
  gtk_widget_set_visible (self->scrolled, FALSE);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
}

/**
 * sluice_report_view_new:
 *
 * Returns: (transfer full): a view with no report
 */
GtkWidget *
sluice_report_view_new (void)
{
  return g_object_new (SLUICE_TYPE_REPORT_VIEW, NULL);
}
