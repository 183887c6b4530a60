/* sluice-config-panel.c: the sidebar that edits a scenario, field by field
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-config-panel.h"
#include "sluice-config-field-widget-private.h"
#include "sluice-config-fields-private.h"
#include "sluice-scenario-header.h"

/**
 * SluiceConfigPanel:
 *
 * Shows one field per key of a scenario, in six sections (pool, retries,
 * source, handler, run, and the jobs of a submit-mode run). The fields of
 * one mode show only in that mode, or while they hold a text. Whenever a field changes, the panel writes the fields into
 * a #GKeyFile and lets sluice_scenario_new_from_keyfile() judge them, so the
 * app accepts exactly what `sluice-run` accepts: the message of a
 * %SLUICE_SCENARIO_ERROR is shown under the field it names. Nothing is
 * clamped; an empty field leaves the key out (its default applies).
 *
 * The fields are judged at every change, and an invalid one shows it at
 * once: the field turns red, its tooltip says why, and so does the line
 * at the bottom of the panel, a place of its own outside the scroller. No
 * message is put between the rows: one that came and went there moved
 * the fields under the pointer while a person typed.
 *
 * The title and the description are edited in the #SluiceScenarioHeader
 * at the top; they go into the `[scenario]` texts under the key the
 * current language reads (`title[de]` in German when the file has it).
 */

typedef struct {
  GtkWidget *label;
  GtkWidget *widget;
  GtkWidget *shown;        /* the widget, or the scroller around its lines */
  char      *error;        /* what is wrong with it, or NULL */
} Field;

struct _SluiceConfigPanel
{
  GtkWidget       parent_instance;

  GtkWidget      *box;          /* the scroller above the error line */
  GtkWidget      *scroller;
  SluiceScenarioHeader *header;
  GtkLabel       *error_label;
  GtkGrid        *grids[SLUICE_N_SECTIONS];
  GtkWidget      *submit_heading;
  /* The labels beside their fields, in every section: one width, so the
   * fields of all sections line up. */
  GtkSizeGroup   *label_group;

  Field           field[SLUICE_CONFIG_N_FIELDS];
  /* The [scenario] group as loaded, translations included: the panel does
   * not edit it, and Save must write it back whole. */
  GKeyFile       *texts;
  SluiceScenario *scenario;     /* the fields as a valid scenario, or NULL */
  char           *error;        /* why they are not, or NULL */
  gboolean        loading;
  gboolean        edited;       /* by a person, since set_scenario() */
};

G_DEFINE_FINAL_TYPE (SluiceConfigPanel, sluice_config_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VALID,
  N_PROPS
};

enum {
  CHANGED,
  EDITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* ---- fields ------------------------------------------------------------ */

/* The field as it would be written in the file, or NULL when empty. */
static char *
get_field_text (SluiceConfigPanel *self,
                guint              i)
{
  return _sluice_config_field_widget_get_text (&_sluice_config_fields[i], self->field[i].widget);
}

static void
set_field_text (SluiceConfigPanel *self,
                guint              i,
                const char        *text)
{
  _sluice_config_field_widget_set_text (&_sluice_config_fields[i], self->field[i].widget, text);
}

/* The panel's line for errors; its tooltip holds the whole message when
 * three lines cut it short. */
static void
show_panel_error (SluiceConfigPanel *self,
                  const char        *message)
{
  gtk_label_set_text (self->error_label, message ? message : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->error_label), message);
}

static void
show_field_error (SluiceConfigPanel *self,
                  gint               i,
                  const char        *message)
{
  const SluiceConfigFieldSpec *spec = &_sluice_config_fields[i];
  Field *field = &self->field[i];
  g_autofree char *line = NULL;

  if (message == NULL && field->error == NULL)
    return;

  g_free (field->error);
  field->error = g_strdup (message);
  gtk_widget_set_tooltip_text (field->widget, message ? message : _(spec->tooltip));
  gtk_accessible_update_state (GTK_ACCESSIBLE (field->widget), GTK_ACCESSIBLE_STATE_INVALID,
                               message ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
  if (message == NULL)
    {
      gtk_widget_remove_css_class (field->widget, "error");
      return;
    }

  gtk_widget_add_css_class (field->widget, "error");
  /* Translators: the line under the configuration for an invalid field:
   * the field's name, then what is wrong with its value */
  line = g_strdup_printf (_("%s: %s"), gtk_label_get_text (GTK_LABEL (field->label)), message);
  show_panel_error (self, line);
}

static void
clear_errors (SluiceConfigPanel *self)
{
  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    show_field_error (self, (gint) i, NULL);
  show_panel_error (self, NULL);
}

/* ---- from the fields to a key file ------------------------------------- */

static GKeyFile *
build_keyfile (SluiceConfigPanel  *self,
               gint               *bad_field,
               char              **error)
{
  char *texts[SLUICE_CONFIG_N_FIELDS];
  GKeyFile *keyfile;

  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    texts[i] = get_field_text (self, i);

  keyfile = _sluice_config_fields_to_keyfile (texts, self->texts, bad_field, error);

  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    g_free (texts[i]);
  return keyfile;
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
    field = _sluice_config_field_of_error (message, &detail);

  if (field >= 0)
    show_field_error (self, field, detail);
  else
    show_panel_error (self, message);
}

static void
validate (SluiceConfigPanel *self)
{
  g_autoptr(GKeyFile) keyfile = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line_error = NULL;
  gint bad_field = -1;

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

/* The fields of the other mode step aside, unless they hold a text: the
 * loader refuses that, and its message goes under the field. */
static void
show_mode_fields (SluiceConfigPanel *self)
{
  gint mode = _sluice_config_find_field ("run", "mode");
  g_autofree char *text = get_field_text (self, (guint) mode);
  gboolean submit = g_strcmp0 (text, "submit") == 0;
  gboolean jobs_shown = FALSE;

  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    {
      g_autofree char *value = NULL;
      gboolean shown = _sluice_config_field_applies (&_sluice_config_fields[i], submit);

      if (!shown && _sluice_config_fields[i].kind != SLUICE_FIELD_SWITCH)
        shown = (value = get_field_text (self, i)) != NULL &&
                (_sluice_config_fields[i].kind != SLUICE_FIELD_CHOICE ||
                 !g_str_equal (value, _sluice_config_fields[i].choices[0]));
      gtk_widget_set_visible (self->field[i].label, shown);
      gtk_widget_set_visible (self->field[i].shown, shown);
      jobs_shown |= shown && _sluice_config_fields[i].section == SLUICE_SECTION_SUBMIT;
    }

  gtk_widget_set_visible (self->submit_heading, jobs_shown);
  gtk_widget_set_visible (GTK_WIDGET (self->grids[SLUICE_SECTION_SUBMIT]), jobs_shown);
}

static void
mark_edited (SluiceConfigPanel *self)
{
  self->edited = TRUE;
  sluice_scenario_header_set_edited (self->header, TRUE);
  g_signal_emit (self, signals[EDITED], 0);
}

/* At every keystroke: judging the fields takes well under a millisecond,
 * and an error shown later than the key that caused it is missed. */
static void
on_field_changed (SluiceConfigPanel *self)
{
  if (self->loading)
    return;

  show_mode_fields (self);
  validate (self);
  mark_edited (self);
}

/* The key the current language reads for @base (`title` or
 * `description`) gets @text; an empty text removes it. */
static void
set_text_key (SluiceConfigPanel *self,
              const char        *base,
              const char        *text)
{
  g_autofree char *locale = g_key_file_get_locale_for_key (self->texts, "scenario", base, NULL);
  g_autofree char *key = locale ? g_strdup_printf ("%s[%s]", base, locale) : g_strdup (base);

  if (text == NULL)
    g_key_file_remove_key (self->texts, "scenario", key, NULL);
  else if (locale != NULL)
    g_key_file_set_locale_string (self->texts, "scenario", base, locale, text);
  else
    g_key_file_set_string (self->texts, "scenario", base, text);
}

static void
on_texts_changed (SluiceConfigPanel *self)
{
  g_autofree char *title = sluice_scenario_header_get_title (self->header);
  g_autofree char *description = sluice_scenario_header_get_description (self->header);

  set_text_key (self, "title", title);
  set_text_key (self, "description", description);
  validate (self);
  mark_edited (self);
}

/* ---- building the rows ------------------------------------------------- */

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
  const SluiceConfigFieldSpec *spec = &_sluice_config_fields[i];
  GtkGrid *grid = self->grids[spec->section];
  GtkWidget *label = gtk_label_new_with_mnemonic (_(spec->label));
  GtkWidget *widget = _sluice_config_field_widget_new (spec, G_CALLBACK (on_field_changed), self);
  GtkWidget *shown = spec->kind == SLUICE_FIELD_LINES ? wrap_lines (widget) : widget;
  gint row = 0;

  /* Rows go after those of the same grid. */
  while (gtk_grid_get_child_at (grid, 0, row) != NULL || gtk_grid_get_child_at (grid, 1, row) != NULL)
    row++;

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  /* A narrow panel (projector mode's large text at 1024 pixels) wraps
   * its labels rather than cut its fields. */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), widget);
  gtk_widget_set_tooltip_text (label, _(spec->tooltip));
  gtk_widget_set_tooltip_text (widget, _(spec->tooltip));
  gtk_widget_set_hexpand (shown, TRUE);

  gtk_accessible_update_relation (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL,
                                  GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, self->error_label, NULL,
                                  -1);

  if (spec->kind == SLUICE_FIELD_LINES)
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

  self->field[i].label = label;
  self->field[i].widget = widget;
  self->field[i].shown = shown;
}

/* Three lines of the label's font, whatever the theme's CSS says: the
 * error line keeps that height with or without a message (its text has
 * at most three lines, the whole of it is in the tooltip). */
static void
reserve_error_line (SluiceConfigPanel *self)
{
  PangoContext *context = gtk_widget_get_pango_context (GTK_WIDGET (self->error_label));
  PangoFontMetrics *metrics = pango_context_get_metrics (context, NULL, NULL);
  int line = PANGO_PIXELS_CEIL (pango_font_metrics_get_height (metrics));

  gtk_widget_set_size_request (GTK_WIDGET (self->error_label), -1, 3 * MAX (line, 1));
  pango_font_metrics_unref (metrics);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_config_panel_dispose (GObject *object)
{
  SluiceConfigPanel *self = SLUICE_CONFIG_PANEL (object);

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
  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    g_free (self->field[i].error);

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

  /**
   * SluiceConfigPanel::edited:
   *
   * A person changed a field, the title or the description (not
   * sluice_config_panel_set_scenario()).
   */
  signals[EDITED] = g_signal_new ("edited", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (SLUICE_TYPE_SCENARIO_HEADER);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-config-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, box);
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, header);
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, error_label);
  gtk_widget_class_bind_template_child_full (widget_class, "pool_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SLUICE_SECTION_POOL]));
  gtk_widget_class_bind_template_child_full (widget_class, "retry_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SLUICE_SECTION_RETRY]));
  gtk_widget_class_bind_template_child_full (widget_class, "source_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SLUICE_SECTION_SOURCE]));
  gtk_widget_class_bind_template_child_full (widget_class, "handler_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SLUICE_SECTION_HANDLER]));
  gtk_widget_class_bind_template_child_full (widget_class, "run_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SLUICE_SECTION_RUN]));
  gtk_widget_class_bind_template_child_full (widget_class, "submit_grid", FALSE,
                                             G_STRUCT_OFFSET (SluiceConfigPanel, grids[SLUICE_SECTION_SUBMIT]));
  gtk_widget_class_bind_template_child (widget_class, SluiceConfigPanel, submit_heading);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sluice_config_panel_init (SluiceConfigPanel *self)
{
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->label_group = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    add_row (self, i);
  g_signal_connect_swapped (self->header, "changed", G_CALLBACK (on_texts_changed), self);
  reserve_error_line (self);
  g_signal_connect_swapped (self->error_label, "notify::scale-factor", G_CALLBACK (reserve_error_line), self);

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

static void
load_fields (SluiceConfigPanel *self,
             GKeyFile          *keyfile)
{
  char *texts[SLUICE_CONFIG_N_FIELDS];

  _sluice_config_fields_from_keyfile (keyfile, texts);
  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    {
      set_field_text (self, i, texts[i]);
      g_free (texts[i]);
    }
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
  _sluice_config_copy_group (keyfile, self->texts, "scenario");
  /* A lesson stays one through edits and saves: no field shows [lesson]. */
  _sluice_config_copy_group (keyfile, self->texts, "lesson");

  sluice_scenario_header_set_texts (self->header, title, description);
  self->edited = FALSE;

  self->loading = TRUE;
  load_fields (self, keyfile);
  self->loading = FALSE;
  show_mode_fields (self);

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

  i = _sluice_config_find_field (group, key);
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

  i = _sluice_config_find_field (group, key);
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

  i = _sluice_config_find_field (group, key);
  g_return_val_if_fail (i >= 0, NULL);

  return self->field[i].error;
}

/**
 * sluice_config_panel_get_edited:
 * @self: a #SluiceConfigPanel
 *
 * Returns: whether a person changed a field, the title or the description
 *   since the scenario was set
 */
gboolean
sluice_config_panel_get_edited (SluiceConfigPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), FALSE);
  return self->edited;
}

/**
 * sluice_config_panel_get_header:
 * @self: a #SluiceConfigPanel
 *
 * Returns: (transfer none): the #SluiceScenarioHeader with the title and
 *   the description
 */
GtkWidget *
sluice_config_panel_get_header (SluiceConfigPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), NULL);
  return GTK_WIDGET (self->header);
}

/**
 * sluice_config_panel_get_error_line:
 * @self: a #SluiceConfigPanel
 *
 * Returns: (transfer none): the label at the bottom of the panel that says
 *   what is wrong
 */
GtkWidget *
sluice_config_panel_get_error_line (SluiceConfigPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_CONFIG_PANEL (self), NULL);
  return GTK_WIDGET (self->error_label);
}
