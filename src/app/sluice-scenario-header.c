/* sluice-scenario-header.c: the scenario's title and description at the
 * top of the configuration, shown or edited
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-scenario-header.h"

/**
 * SluiceScenarioHeader:
 *
 * The title and the description of the scenario, as wrapped labels; the
 * pencil beside the title turns them into an entry and a text view (Enter
 * in the title, or the pencil again, ends the edit). Under the
 * description a note says that it may no longer match the settings, once
 * they or the texts were edited. The note's line is kept while it is
 * hidden, so that the fields below never move when it appears: the first
 * keystroke in a field would otherwise shift the rows under the pointer.
 */

struct _SluiceScenarioHeader
{
  GtkWidget       parent_instance;

  GtkWidget      *box;
  GtkStack       *title_stack;
  GtkLabel       *title_label;
  GtkEntry       *title_entry;
  GtkToggleButton *edit_button;
  GtkStack       *description_stack;
  GtkLabel       *description_label;
  GtkTextView    *description_view;
  GtkWidget      *note;
  gboolean        loading;
};

G_DEFINE_FINAL_TYPE (SluiceScenarioHeader, sluice_scenario_header, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static char *
get_buffer_text (GtkTextView *view)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (view);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The labels show what the entries hold; without a description, and not
 * editing, its place and the note's are given back. */
static void
update_labels (SluiceScenarioHeader *self)
{
  g_autofree char *description = get_buffer_text (self->description_view);
  const char *title = gtk_editable_get_text (GTK_EDITABLE (self->title_entry));
  gboolean editing = gtk_toggle_button_get_active (self->edit_button);

  gtk_label_set_text (self->title_label, *title != '\0' ? title : _("Untitled scenario"));
  gtk_label_set_text (self->description_label, description);
  gtk_widget_set_visible (GTK_WIDGET (self->description_stack), editing || *description != '\0');
  gtk_widget_set_visible (self->note, editing || *description != '\0');
}

static void
on_text_changed (SluiceScenarioHeader *self)
{
  if (self->loading)
    return;

  update_labels (self);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_editing_changed (SluiceScenarioHeader *self)
{
  gboolean editing = gtk_toggle_button_get_active (self->edit_button);
  const char *page = editing ? "edit" : "shown";

  gtk_stack_set_visible_child_name (self->title_stack, page);
  gtk_stack_set_visible_child_name (self->description_stack, page);
  update_labels (self);
  if (editing)
    gtk_widget_grab_focus (GTK_WIDGET (self->title_entry));
}

static void
on_title_activate (SluiceScenarioHeader *self)
{
  gtk_toggle_button_set_active (self->edit_button, FALSE);
}

static GtkStack *
create_stack (GtkWidget *shown,
              GtkWidget *edit)
{
  GtkStack *stack = GTK_STACK (gtk_stack_new ());

  gtk_stack_set_vhomogeneous (stack, FALSE);
  gtk_stack_add_named (stack, shown, "shown");
  gtk_stack_add_named (stack, edit, "edit");
  gtk_widget_set_hexpand (GTK_WIDGET (stack), TRUE);
  return stack;
}

static GtkWidget *
create_title_row (SluiceScenarioHeader *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *entry = gtk_entry_new ();
  GtkWidget *button = gtk_toggle_button_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "title-3");
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Title of the scenario"), -1);
  g_signal_connect_swapped (entry, "changed", G_CALLBACK (on_text_changed), self);
  g_signal_connect_swapped (entry, "activate", G_CALLBACK (on_title_activate), self);

  gtk_button_set_icon_name (GTK_BUTTON (button), "document-edit-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (button, _("Edit the title and the description"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Edit the title and the description"), -1);
  g_signal_connect_swapped (button, "toggled", G_CALLBACK (on_editing_changed), self);

  self->title_label = GTK_LABEL (label);
  self->title_entry = GTK_ENTRY (entry);
  self->edit_button = GTK_TOGGLE_BUTTON (button);
  self->title_stack = create_stack (label, entry);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->title_stack));
  gtk_box_append (GTK_BOX (row), button);
  return row;
}

static GtkWidget *
create_description (SluiceScenarioHeader *self)
{
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *view = gtk_text_view_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
  gtk_widget_add_css_class (label, "scenario-description");

  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (view), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Description of the scenario"), -1);
  g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), "changed",
                            G_CALLBACK (on_text_changed), self);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 120);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);

  self->description_label = GTK_LABEL (label);
  self->description_view = GTK_TEXT_VIEW (view);
  self->description_stack = create_stack (label, scroller);
  return GTK_WIDGET (self->description_stack);
}

static void
sluice_scenario_header_dispose (GObject *object)
{
  SluiceScenarioHeader *self = SLUICE_SCENARIO_HEADER (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (sluice_scenario_header_parent_class)->dispose (object);
}

static void
sluice_scenario_header_class_init (SluiceScenarioHeaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_scenario_header_dispose;

  /**
   * SluiceScenarioHeader::changed:
   *
   * The title or the description was edited.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sluice_scenario_header_init (SluiceScenarioHeader *self)
{
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  gtk_box_append (GTK_BOX (self->box), create_title_row (self));
  gtk_box_append (GTK_BOX (self->box), create_description (self));

  self->note = gtk_label_new (_("Edited: this description may no longer match the settings."));
  gtk_label_set_xalign (GTK_LABEL (self->note), 0);
  gtk_label_set_wrap (GTK_LABEL (self->note), TRUE);
  gtk_widget_add_css_class (self->note, "scenario-note");
  gtk_widget_set_child_visible (self->note, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->note);
}

/**
 * sluice_scenario_header_new:
 *
 * Returns: (transfer full): a new header, without a title
 */
GtkWidget *
sluice_scenario_header_new (void)
{
  return g_object_new (SLUICE_TYPE_SCENARIO_HEADER, NULL);
}

/**
 * sluice_scenario_header_set_texts:
 * @self: a #SluiceScenarioHeader
 * @title: (nullable): the title
 * @description: (nullable): the description
 *
 * Shows a scenario's texts, not edited: the edit ends and the note hides.
 */
void
sluice_scenario_header_set_texts (SluiceScenarioHeader *self,
                                  const char           *title,
                                  const char           *description)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_HEADER (self));

  self->loading = TRUE;
  gtk_toggle_button_set_active (self->edit_button, FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->title_entry), title ? title : "");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->description_view), description ? description : "", -1);
  self->loading = FALSE;

  update_labels (self);
  sluice_scenario_header_set_edited (self, FALSE);
}

/**
 * sluice_scenario_header_get_title:
 * @self: a #SluiceScenarioHeader
 *
 * Returns: (transfer full) (nullable): the title, or %NULL when empty
 */
char *
sluice_scenario_header_get_title (SluiceScenarioHeader *self)
{
  const char *text;

  g_return_val_if_fail (SLUICE_IS_SCENARIO_HEADER (self), NULL);

  text = gtk_editable_get_text (GTK_EDITABLE (self->title_entry));
  return *text != '\0' ? g_strdup (text) : NULL;
}

/**
 * sluice_scenario_header_get_description:
 * @self: a #SluiceScenarioHeader
 *
 * Returns: (transfer full) (nullable): the description, or %NULL when empty
 */
char *
sluice_scenario_header_get_description (SluiceScenarioHeader *self)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO_HEADER (self), NULL);

  text = get_buffer_text (self->description_view);
  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

/**
 * sluice_scenario_header_set_title:
 * @self: a #SluiceScenarioHeader
 * @title: the new title
 *
 * Types @title into the title's entry, as a person would.
 */
void
sluice_scenario_header_set_title (SluiceScenarioHeader *self,
                                  const char           *title)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_HEADER (self));
  gtk_editable_set_text (GTK_EDITABLE (self->title_entry), title);
}

/**
 * sluice_scenario_header_set_description:
 * @self: a #SluiceScenarioHeader
 * @description: the new description
 *
 * Types @description into the description's text view, as a person would.
 */
void
sluice_scenario_header_set_description (SluiceScenarioHeader *self,
                                        const char           *description)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_HEADER (self));
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->description_view), description, -1);
}

/**
 * sluice_scenario_header_get_editing:
 * @self: a #SluiceScenarioHeader
 *
 * Returns: whether the entry and the text view are shown
 */
gboolean
sluice_scenario_header_get_editing (SluiceScenarioHeader *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_HEADER (self), FALSE);
  return gtk_toggle_button_get_active (self->edit_button);
}

/**
 * sluice_scenario_header_set_editing:
 * @self: a #SluiceScenarioHeader
 * @editing: whether to edit the texts
 *
 * Starts or ends the edit, as the pencil button does.
 */
void
sluice_scenario_header_set_editing (SluiceScenarioHeader *self,
                                    gboolean              editing)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_HEADER (self));
  gtk_toggle_button_set_active (self->edit_button, editing);
}

/**
 * sluice_scenario_header_set_edited:
 * @self: a #SluiceScenarioHeader
 * @edited: whether the settings or the texts were edited
 *
 * Shows or hides the note that the description may no longer match; its
 * line stays taken either way.
 */
void
sluice_scenario_header_set_edited (SluiceScenarioHeader *self,
                                   gboolean              edited)
{
  g_return_if_fail (SLUICE_IS_SCENARIO_HEADER (self));
  gtk_widget_set_child_visible (self->note, edited);
}

/**
 * sluice_scenario_header_get_note_shown:
 * @self: a #SluiceScenarioHeader
 *
 * Returns: whether the note that the description may no longer match is
 *   shown
 */
gboolean
sluice_scenario_header_get_note_shown (SluiceScenarioHeader *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_HEADER (self), FALSE);
  return gtk_widget_get_visible (self->note) && gtk_widget_get_child_visible (self->note);
}
