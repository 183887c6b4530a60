/* sluice-config-panel.c: the sidebar that edits a scenario, field by field
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-config-panel.h"

/**
 * SluiceConfigPanel:
 *
 * Shows one field per key of a scenario, in four sections (pool, source,
 * handler, run). Whenever a field changes, the panel writes the fields into
 * a #GKeyFile and lets sluice_scenario_new_from_keyfile() judge them, so the
 * app accepts exactly what `sluice-run` accepts: the message of a
 * %SLUICE_SCENARIO_ERROR is shown under the field it names. Nothing is
 * clamped; an empty field leaves the key out (its default applies).
 */

#define VALIDATE_DELAY_MS 150
#define ITEMS_KEY "item.*"
#define FAULT_KEY "fault"
#define FAULT_AFTER_KEY "fault-after"

typedef enum {
  FIELD_ENTRY,
  FIELD_CHOICE,
  FIELD_SWITCH,
  FIELD_LINES,
} FieldKind;

typedef enum {
  SECTION_POOL,
  SECTION_SOURCE,
  SECTION_HANDLER,
  SECTION_RUN,
  N_SECTIONS
} Section;

typedef struct {
  Section             section;
  const char         *group;
  const char         *key;
  FieldKind           kind;
  const char         *label;
  const char         *tooltip;
  const char * const *choices;
  const char * const *choice_labels;  /* what the drop-down shows, by choice */
  const char         *choice_context; /* the labels' translation context */
} FieldSpec;

/* A drop-down shows the translated labels; the scenario keeps the keywords
 * of the file format, at the same positions. */
static const char * const metrics_choices[] = { "off", "on", "broken", NULL };
static const char * const metrics_labels[] = {
  /* Translators: metrics mode in the drop-down (the file keeps “off”). */
  NC_("metrics", "off"),
  /* Translators: metrics mode in the drop-down (the file keeps “on”). */
  NC_("metrics", "on"),
  /* Translators: metrics mode in the drop-down: a backend whose every call
   * fails (the file keeps “broken”). */
  NC_("metrics", "broken"),
  NULL
};
static const char * const fault_choices[] = { "none", "raise-after", "cancel-after", "hang-after", NULL };
static const char * const fault_labels[] = {
  /* Translators: source fault in the drop-down: the source has no fault. */
  NC_("source fault", "none"),
  /* Translators: source fault in the drop-down: the source raises an error
   * after some items (the file keeps the key “raise-after”). */
  NC_("source fault", "raise-after"),
  /* Translators: source fault in the drop-down: the source cancels itself
   * after some items (the file keeps the key “cancel-after”). */
  NC_("source fault", "cancel-after"),
  /* Translators: source fault in the drop-down: the source hangs after
   * some items (the file keeps the key “hang-after”). */
  NC_("source fault", "hang-after"),
  NULL
};
static const char * const clock_choices[] = { "real", "virtual", NULL };
static const char * const clock_labels[] = {
  /* Translators: clock in the drop-down: the real, scaled clock (the file
   * keeps “real”). */
  NC_("clock", "real"),
  /* Translators: clock in the drop-down: virtual time that jumps from timer
   * to timer (the file keeps “virtual”). */
  NC_("clock", "virtual"),
  NULL
};

static const FieldSpec fields[] = {
  { SECTION_POOL, "pool", "workers", FIELD_ENTRY, N_("_Workers"),
    N_("How many items the pool handles at the same time.") },
  { SECTION_POOL, "pool", "queue-size", FIELD_ENTRY, N_("_Queue size"),
    N_("How many pulled items may wait in the queue for a free worker.") },
  { SECTION_POOL, "pool", "item-timeout", FIELD_ENTRY, N_("Item _timeout (s)"),
    N_("Seconds one attempt may run before the pool cancels it as timed out.") },
  { SECTION_POOL, "pool", "max-retries", FIELD_ENTRY, N_("Max _retries"),
    N_("How many more attempts an item gets after a retryable failure.") },
  { SECTION_POOL, "pool", "retryable", FIELD_ENTRY, N_("Retr_yable types"),
    N_("Error type names, separated by “;”, whose failures are retried, such as ConnectionError;TimeoutError.") },
  { SECTION_POOL, "pool", "metrics", FIELD_CHOICE, N_("_Metrics"),
    N_("Whether the pool reports metrics: off, on, or broken (a backend whose every call fails)."),
    metrics_choices, metrics_labels, "metrics" },
  { SECTION_POOL, "pool", "keep-going", FIELD_SWITCH, N_("_Keep going"),
    N_("When on, an item that fails for good is recorded but does not stop the pool.") },

  { SECTION_SOURCE, "source", "count", FIELD_ENTRY, N_("Item _count"),
    N_("The source yields the integers 0 to count − 1; leave it empty to give values instead.") },
  { SECTION_SOURCE, "source", "values", FIELD_ENTRY, N_("_Values"),
    N_("The items, separated by “;”, such as 3;1;4;\"a\"; leave it empty to use a count.") },
  { SECTION_SOURCE, "source", "interval", FIELD_ENTRY, N_("_Interval (s)"),
    N_("Seconds the source waits between two items.") },
  { SECTION_SOURCE, "source", FAULT_KEY, FIELD_CHOICE, N_("Source _fault"),
    N_("What goes wrong in the source: it raises an error, cancels itself or hangs."),
    fault_choices, fault_labels, "source fault" },
  { SECTION_SOURCE, "source", FAULT_AFTER_KEY, FIELD_ENTRY, N_("Fault _after (items)"),
    N_("How many items the source yields before its fault.") },

  { SECTION_HANDLER, "handler", "default", FIELD_ENTRY, N_("_Default"),
    N_("What the handler does with every item not listed below, such as “ok 0.1”, “fail 1 ConnectionError 0.05” or “hang”.") },
  { SECTION_HANDLER, "handler", ITEMS_KEY, FIELD_LINES, N_("_Per item"),
    N_("One line per item: its index, “=”, and a behaviour, such as “3 = hang”.") },
  { SECTION_HANDLER, "handler", "mix", FIELD_ENTRY, N_("Random mi_x"),
    N_("Behaviours drawn at random with these weights, such as “80% ok 0.05, 20% hang”; leave it empty for none.") },
  { SECTION_HANDLER, "handler", "seed", FIELD_ENTRY, N_("_Seed"),
    N_("The random seed of the mix: the same seed gives the same behaviours.") },

  { SECTION_RUN, "run", "stop-after", FIELD_ENTRY, N_("_Stop after"),
    N_("Request a stop (drain) after this many results: -1 never, 0 before the first.") },
  { SECTION_RUN, "run", "close-after", FIELD_ENTRY, N_("C_lose after"),
    N_("Close the run after this many results, like a caller that stops reading; leave it empty for never.") },
  { SECTION_RUN, "run", "cancel-after-seconds", FIELD_ENTRY, N_("Ca_ncel after (s)"),
    N_("Cancel the run after this many seconds on the pool’s clock; leave it empty for never.") },
  { SECTION_RUN, "run", "clock", FIELD_CHOICE, N_("Cl_ock"),
    N_("Real runs on the scaled clock you can pause, step and speed up; virtual jumps from timer to timer at once."),
    clock_choices, clock_labels, "clock" },
};

#define N_FIELDS G_N_ELEMENTS (fields)

typedef struct {
  GtkWidget *widget;
  GtkWidget *error_label;
} Field;

struct _SluiceConfigPanel
{
  GtkWidget       parent_instance;

  GtkWidget      *scroller;
  GtkLabel       *title_label;
  GtkLabel       *description_label;
  GtkLabel       *error_label;
  GtkGrid        *grids[N_SECTIONS];
  /* The labels beside their fields, in every section: one width, so the
   * fields of all sections line up. */
  GtkSizeGroup   *label_group;

  Field           field[N_FIELDS];
  /* The [scenario] group as loaded, translations included: the panel does
   * not edit it, and Save must write it back whole. */
  GKeyFile       *texts;
  SluiceScenario *scenario;     /* the fields as a valid scenario, or NULL */
  char           *error;        /* why they are not, or NULL */
  guint           validate_id;
  gboolean        loading;
};

G_DEFINE_FINAL_TYPE (SluiceConfigPanel, sluice_config_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VALID,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ---- fields ------------------------------------------------------------ */

static gint
find_field (const char *group,
            const char *key)
{
  for (guint i = 0; i < N_FIELDS; i++)
    if (g_str_equal (fields[i].group, group) && g_str_equal (fields[i].key, key))
      return (gint) i;

  return -1;
}

static char *
get_lines_text (GtkWidget *widget)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The field as it would be written in the file, or NULL when empty. */
static char *
get_field_text (SluiceConfigPanel *self,
                guint              i)
{
  GtkWidget *widget = self->field[i].widget;
  g_autofree char *text = NULL;

  switch (fields[i].kind)
    {
    case FIELD_ENTRY:
      text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (widget))));
      break;
    case FIELD_CHOICE:
      text = g_strdup (fields[i].choices[gtk_drop_down_get_selected (GTK_DROP_DOWN (widget))]);
      break;
    case FIELD_SWITCH:
      text = g_strdup (gtk_switch_get_active (GTK_SWITCH (widget)) ? "true" : "false");
      break;
    case FIELD_LINES:
      text = g_strstrip (get_lines_text (widget));
      break;
    default:
      g_assert_not_reached ();
    }

  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

static void
set_field_text (SluiceConfigPanel *self,
                guint              i,
                const char        *text)
{
  GtkWidget *widget = self->field[i].widget;

  text = text ? text : "";

  switch (fields[i].kind)
    {
    case FIELD_ENTRY:
      gtk_editable_set_text (GTK_EDITABLE (widget), text);
      break;
    case FIELD_CHOICE:
      for (guint c = 0; fields[i].choices[c] != NULL; c++)
        if (g_str_equal (fields[i].choices[c], text))
          gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), c);
      break;
    case FIELD_SWITCH:
      gtk_switch_set_active (GTK_SWITCH (widget), g_str_equal (text, "true"));
      break;
    case FIELD_LINES:
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)), text, -1);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
show_field_error (SluiceConfigPanel *self,
                  gint               i,
                  const char        *message)
{
  GtkWidget *label = self->field[i].error_label;

  gtk_label_set_text (GTK_LABEL (label), message ? message : "");
  gtk_widget_set_visible (label, message != NULL);
  if (message != NULL)
    gtk_widget_add_css_class (self->field[i].widget, "error");
  else
    gtk_widget_remove_css_class (self->field[i].widget, "error");
}

static void
clear_errors (SluiceConfigPanel *self)
{
  for (guint i = 0; i < N_FIELDS; i++)
    show_field_error (self, (gint) i, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
}

/* ---- from the fields to a key file ------------------------------------- */

/* "3 = hang" lines into item.3=hang keys; FALSE with @error set on a bad line. */
static gboolean
add_item_lines (GKeyFile    *keyfile,
                const char  *text,
                char       **error)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint n = 0; lines[n] != NULL; n++)
    {
      char *line = g_strstrip (lines[n]);
      char *eq = strchr (line, '=');
      g_autofree char *key = NULL;
      char *index;

      if (*line == '\0' || *line == '#')
        continue;

      if (eq == NULL)
        {
          *error = g_strdup_printf (_("Line %u: “%s” has no “=”; expected an item index, “=” and a behaviour, such as “3 = hang”"),
                                    n + 1, line);
          return FALSE;
        }

      *eq = '\0';
      index = g_strstrip (line);
      if (g_str_has_prefix (index, "item."))
        index += strlen ("item.");
      key = g_strconcat ("item.", index, NULL);
      g_key_file_set_value (keyfile, "handler", key, g_strstrip (eq + 1));
    }

  return TRUE;
}

static void
add_field (SluiceConfigPanel *self,
           GKeyFile          *keyfile,
           guint              i,
           const char        *value)
{
  const FieldSpec *spec = &fields[i];

  if (g_str_equal (spec->key, FAULT_KEY))
    {
      g_autofree char *after = get_field_text (self, (guint) find_field ("source", FAULT_AFTER_KEY));

      if (!g_str_equal (value, "none"))
        g_key_file_set_value (keyfile, "source", value, after ? after : "");
      return;
    }

  if (g_str_equal (spec->key, FAULT_AFTER_KEY))
    return;

  g_key_file_set_value (keyfile, spec->group, spec->key, value);
}

static void
copy_group (GKeyFile   *from,
            GKeyFile   *to,
            const char *group)
{
  g_auto(GStrv) keys = NULL;

  if (from == NULL || (keys = g_key_file_get_keys (from, group, NULL, NULL)) == NULL)
    return;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *value = g_key_file_get_value (from, group, keys[i], NULL);
      g_key_file_set_value (to, group, keys[i], value);
    }
}

static GKeyFile *
build_keyfile (SluiceConfigPanel  *self,
               gint               *bad_field,
               char              **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();

  copy_group (self->texts, keyfile, "scenario");

  for (guint i = 0; i < N_FIELDS; i++)
    {
      g_autofree char *value = get_field_text (self, i);

      if (value == NULL)
        continue;

      if (fields[i].kind == FIELD_LINES)
        {
          if (!add_item_lines (keyfile, value, error))
            {
              *bad_field = (gint) i;
              return NULL;
            }
          continue;
        }

      add_field (self, keyfile, i, value);
    }

  return g_steal_pointer (&keyfile);
}

/* ---- from an error to its field ---------------------------------------- */

/* Messages read "NAME: [group] key: detail"; the field shows the detail. */
static gint
field_of_error (const char  *message,
                const char **detail)
{
  g_autoptr(GRegex) regex = g_regex_new ("\\[([a-z]+)\\] ([a-z0-9.-]+): ", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *group = NULL;
  g_autofree char *key = NULL;
  gint end = 0;
  gint i;

  *detail = message;
  if (!g_regex_match (regex, message, 0, &match))
    return -1;

  group = g_match_info_fetch (match, 1);
  key = g_match_info_fetch (match, 2);
  g_match_info_fetch_pos (match, 0, NULL, &end);

  if (g_str_has_prefix (key, "item."))
    i = find_field (group, ITEMS_KEY);
  else if (g_str_equal (group, "source") && g_str_has_suffix (key, "-after"))
    i = find_field (group, FAULT_AFTER_KEY);
  else
    i = find_field (group, key);

  if (i >= 0)
    *detail = message + end;
  return i;
}

static void
set_result (SluiceConfigPanel *self,
            SluiceScenario    *scenario,
            const char        *error)
{
  gboolean was_valid = self->scenario != NULL;

  g_set_object (&self->scenario, scenario);
  g_free (self->error);
  self->error = g_strdup (error);

  if (was_valid != (scenario != NULL))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
show_error (SluiceConfigPanel *self,
            gint               field,
            const char        *message)
{
  const char *detail = message;

  if (field < 0)
    field = field_of_error (message, &detail);

  if (field >= 0)
    show_field_error (self, field, detail);
  else
    {
      gtk_label_set_text (self->error_label, message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }
}

static void
validate (SluiceConfigPanel *self)
{
  g_autoptr(GKeyFile) keyfile = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line_error = NULL;
  gint bad_field = -1;

  g_clear_handle_id (&self->validate_id, g_source_remove);
  clear_errors (self);

  keyfile = build_keyfile (self, &bad_field, &line_error);
  if (keyfile == NULL)
    {
      show_error (self, bad_field, line_error);
      set_result (self, NULL, line_error);
      return;
    }

  scenario = sluice_scenario_new_from_keyfile (keyfile, _("configuration"), NULL, &error);
  if (scenario == NULL)
    {
      show_error (self, -1, error->message);
      set_result (self, NULL, error->message);
      return;
    }

  set_result (self, scenario, NULL);
}

static gboolean
validate_cb (gpointer user_data)
{
  SluiceConfigPanel *self = user_data;

  self->validate_id = 0;
  validate (self);
  return G_SOURCE_REMOVE;
}

static void
on_field_changed (SluiceConfigPanel *self)
{
  if (self->loading)
    return;

  g_clear_handle_id (&self->validate_id, g_source_remove);
  self->validate_id = g_timeout_add (VALIDATE_DELAY_MS, validate_cb, self);
}

/* ---- building the rows ------------------------------------------------- */

static GtkWidget *
create_field_widget (SluiceConfigPanel *self,
                     const FieldSpec   *spec)
{
  GtkWidget *widget;

  switch (spec->kind)
    {
    case FIELD_ENTRY:
      widget = gtk_entry_new ();
      gtk_editable_set_width_chars (GTK_EDITABLE (widget), 8);
      g_signal_connect_swapped (widget, "changed", G_CALLBACK (on_field_changed), self);
      return widget;

    case FIELD_CHOICE:
      {
        g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

        for (guint c = 0; spec->choices[c] != NULL; c++)
          gtk_string_list_append (labels, g_dpgettext2 (GETTEXT_PACKAGE, spec->choice_context,
                                                           spec->choice_labels[c]));
        widget = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&labels)), NULL);
      }
      g_signal_connect_swapped (widget, "notify::selected", G_CALLBACK (on_field_changed), self);
      return widget;

    case FIELD_SWITCH:
      widget = gtk_switch_new ();
      gtk_widget_set_halign (widget, GTK_ALIGN_START);
      g_signal_connect_swapped (widget, "notify::active", G_CALLBACK (on_field_changed), self);
      return widget;

    case FIELD_LINES:
      widget = gtk_text_view_new ();
      gtk_text_view_set_monospace (GTK_TEXT_VIEW (widget), TRUE);
      gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (widget), FALSE);
      gtk_widget_add_css_class (widget, "item-lines");
      g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)), "changed",
                                G_CALLBACK (on_field_changed), self);
      return widget;

    default:
      g_assert_not_reached ();
    }
}

static GtkWidget *
wrap_lines (GtkWidget *text_view)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 72);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), text_view);
  return scroller;
}

static void
add_row (SluiceConfigPanel *self,
         guint              i)
{
  const FieldSpec *spec = &fields[i];
  GtkGrid *grid = self->grids[spec->section];
  GtkWidget *label = gtk_label_new_with_mnemonic (_(spec->label));
  GtkWidget *widget = create_field_widget (self, spec);
  GtkWidget *error = gtk_label_new (NULL);
  GtkWidget *shown = spec->kind == FIELD_LINES ? wrap_lines (widget) : widget;
  gint row = 0;

  /* Rows go after those of the same grid. */
  while (gtk_grid_get_child_at (grid, 0, row) != NULL || gtk_grid_get_child_at (grid, 1, row) != NULL)
    row++;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_widget_set_tooltip_text (label, _(spec->tooltip));
  gtk_widget_set_tooltip_text (widget, _(spec->tooltip));
  gtk_widget_set_hexpand (shown, TRUE);

  gtk_label_set_xalign (GTK_LABEL (error), 0);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (error), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (error), 30);
  gtk_widget_add_css_class (error, "field-error");
  gtk_widget_set_visible (error, FALSE);

  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, error, NULL,
                                  -1);

  if (spec->kind == FIELD_LINES)
    {
      gtk_label_set_yalign (GTK_LABEL (label), 0);
      gtk_grid_attach (grid, label, 0, row, 2, 1);
      gtk_grid_attach (grid, shown, 0, row + 1, 2, 1);
      row++;
    }
  else
    {
      gtk_grid_attach (grid, label, 0, row, 1, 1);
      gtk_grid_attach (grid, shown, 1, row, 1, 1);
      gtk_size_group_add_widget (self->label_group, label);
    }
  gtk_grid_attach (grid, error, 0, row + 1, 2, 1);

  self->field[i].widget = widget;
  self->field[i].error_label = error;
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_config_panel_dispose (GObject *object)
{
  SluiceConfigPanel *self = SLUICE_CONFIG_PANEL (object);

  g_clear_handle_id (&self->validate_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_CONFIG_PANEL);
  g_clear_object (&self->label_group);
  g_clear_object (&self->scenario);

  G_OBJECT_CLASS (sluice_config_panel_parent_class)->dispose (object);
}

static void
sluice_config_panel_finalize (GObject *object)
{
  SluiceConfigPanel *self = SLUICE_CONFIG_PANEL (object);

  g_clear_pointer (&self->texts, g_key_file_unref);
  g_free (self->error);

  G_OBJECT_CLASS (sluice_config_panel_parent_class)->finalize (object);
}

static void
sluice_config_panel_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceConfigPanel *self = SLUICE_CONFIG_PANEL (object);

  switch (prop_id)
    {
    case PROP_VALID:
      g_value_set_boolean (value, sluice_config_panel_get_valid (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_config_panel_class_init (SluiceConfigPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_config_panel_dispose;
  object_class->finalize = sluice_config_panel_finalize;
  object_class->get_property = sluice_config_panel_get_property;

  /**
   * SluiceConfigPanel:valid:
   *
   * Whether the fields make a valid scenario.
   */
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceConfigPanel::changed:
   *
   * The fields were validated again after a change.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-config-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, title_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, description_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, error_label);
  gtk_widget_class_bind_template_child_full (widget_class, "pool_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SECTION_POOL]));
  gtk_widget_class_bind_template_child_full (widget_class, "source_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SECTION_SOURCE]));
  gtk_widget_class_bind_template_child_full (widget_class, "handler_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SECTION_HANDLER]));
  gtk_widget_class_bind_template_child_full (widget_class, "run_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SECTION_RUN]));

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sluice_config_panel_init (SluiceConfigPanel *self)
{
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->label_group = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  for (guint i = 0; i < N_FIELDS; i++)
    add_row (self, i);

  sluice_config_panel_set_scenario (self, scenario);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_config_panel_new:
 *
 * Returns: (transfer full): a new panel showing the default scenario
 */
GtkWidget *
sluice_config_panel_new (void)
{
  return g_object_new (SLUICE_TYPE_CONFIG_PANEL, NULL);
}

static char *
item_lines_of (GKeyFile *keyfile)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "handler", NULL, NULL);
  GString *text = g_string_new (NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = NULL;

      if (!g_str_has_prefix (keys[i], "item."))
        continue;
      value = g_key_file_get_value (keyfile, "handler", keys[i], NULL);
      g_string_append_printf (text, "%s%s = %s", text->len ? "\n" : "",
                              keys[i] + strlen ("item."), value);
    }

  return g_string_free (text, FALSE);
}

static void
load_fault (SluiceConfigPanel *self,
            GKeyFile          *keyfile)
{
  gint kind = find_field ("source", FAULT_KEY);
  gint after = find_field ("source", FAULT_AFTER_KEY);

  set_field_text (self, (guint) kind, "none");
  set_field_text (self, (guint) after, "");

  for (guint c = 1; fault_choices[c] != NULL; c++)
    {
      g_autofree char *value = g_key_file_get_value (keyfile, "source", fault_choices[c], NULL);

      if (value == NULL)
        continue;
      set_field_text (self, (guint) kind, fault_choices[c]);
      set_field_text (self, (guint) after, value);
    }
}

static void
load_fields (SluiceConfigPanel *self,
             GKeyFile          *keyfile)
{
  for (guint i = 0; i < N_FIELDS; i++)
    {
      g_autofree char *value = NULL;

      if (fields[i].kind == FIELD_LINES)
        value = item_lines_of (keyfile);
      else if (g_str_equal (fields[i].key, FAULT_KEY) || g_str_equal (fields[i].key, FAULT_AFTER_KEY))
        continue;
      else if (g_str_equal (fields[i].key, "values"))
        value = g_key_file_get_string (keyfile, fields[i].group, fields[i].key, NULL);
      else
        value = g_key_file_get_value (keyfile, fields[i].group, fields[i].key, NULL);

      set_field_text (self, i, value);
    }

  load_fault (self, keyfile);
}

/**
 * sluice_config_panel_set_scenario:
 * @self: a #SluiceConfigPanel
 * @scenario: the scenario to show
 *
 * Fills every field from @scenario.
 */
void
sluice_config_panel_set_scenario (SluiceConfigPanel *self,
                                  SluiceScenario    *scenario)
{
  g_autoptr(GKeyFile) keyfile = NULL;
  const char *title, *description;

  g_return_if_fail (SLUICE_IS_CONFIG_PANEL (self));
  g_return_if_fail (SLUICE_IS_SCENARIO (scenario));

  keyfile = sluice_scenario_to_keyfile (scenario);
  title = sluice_scenario_get_title (scenario);
  description = sluice_scenario_get_description (scenario);

  g_clear_pointer (&self->texts, g_key_file_unref);
  self->texts = g_key_file_new ();
  copy_group (keyfile, self->texts, "scenario");

  gtk_label_set_text (self->title_label, title ? title : _("Untitled scenario"));
  gtk_label_set_text (self->description_label, description ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL);

  self->loading = TRUE;
  load_fields (self, keyfile);
  self->loading = FALSE;

  validate (self);
}

/**
 * sluice_config_panel_get_scenario:
 * @self: a #SluiceConfigPanel
 *
 * Validates pending changes at once.
 *
 * Returns: (transfer none) (nullable): the fields as a scenario, or %NULL
 *   when a field is invalid
 */
SluiceScenario *
sluice_config_panel_get_scenario (SluiceConfigPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), NULL);

  if (self->validate_id != 0)
    validate (self);

  return self->scenario;
}

/**
 * sluice_config_panel_get_valid:
 * @self: a #SluiceConfigPanel
 *
 * Returns: whether the fields make a valid scenario
 */
gboolean
sluice_config_panel_get_valid (SluiceConfigPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), FALSE);

  if (self->validate_id != 0)
    validate (self);

  return self->scenario != NULL;
}

/**
 * sluice_config_panel_get_error:
 * @self: a #SluiceConfigPanel
 *
 * Returns: (nullable): the full message of what is wrong, or %NULL
 */
const char *
sluice_config_panel_get_error (SluiceConfigPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), NULL);

  if (self->validate_id != 0)
    validate (self);

  return self->error;
}

/**
 * sluice_config_panel_set_field_text:
 * @self: a #SluiceConfigPanel
 * @group: a group such as `pool`
 * @key: a key such as `workers`
 * @text: the text, as in a `.pool` file
 *
 * Types @text into the field of @key, as a person would.
 */
void
sluice_config_panel_set_field_text (SluiceConfigPanel *self,
                                    const char        *group,
                                    const char        *key,
                                    const char        *text)
{
  gint i;

  g_return_if_fail (SLUICE_IS_CONFIG_PANEL (self));

  i = find_field (group, key);
  g_return_if_fail (i >= 0);

  set_field_text (self, (guint) i, text);
}

/**
 * sluice_config_panel_get_field_widget:
 * @self: a #SluiceConfigPanel
 * @group: a group such as `pool`
 * @key: a key such as `workers`
 *
 * Returns: (transfer none): the widget that edits the field
 */
GtkWidget *
sluice_config_panel_get_field_widget (SluiceConfigPanel *self,
                                      const char        *group,
                                      const char        *key)
{
  gint i;

  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), NULL);

  i = find_field (group, key);
  g_return_val_if_fail (i >= 0, NULL);

  return self->field[i].widget;
}

/**
 * sluice_config_panel_get_field_error:
 * @self: a #SluiceConfigPanel
 * @group: a group such as `pool`
 * @key: a key such as `workers`
 *
 * Returns: (nullable): the error shown under the field, or %NULL
 */
const char *
sluice_config_panel_get_field_error (SluiceConfigPanel *self,
                                     const char        *group,
                                     const char        *key)
{
  gint i;

  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), NULL);

  i = find_field (group, key);
  g_return_val_if_fail (i >= 0, NULL);

  if (self->validate_id != 0)
    validate (self);

  if (!gtk_widget_get_visible (self->field[i].error_label))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->field[i].error_label));
}
