/* sluice-config-field-widget.c: the widget that edits one field of the
 * config panel, by the field's kind
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-config-field-widget-private.h"

#include <glib/gi18n.h>

#include "sluice-accessible.h"

/* An entry, a drop-down, a switch or a text view of lines: what each kind
 * of field is edited with, and how its text (as in a `.pool` file) is read
 * from it and written to it. SluiceConfigPanel places the widgets and
 * judges the texts. */

/* A new widget for a field like @spec; @on_changed is called with @data
 * (swapped) whenever a person edits it. */
GtkWidget *
_sluice_config_field_widget_new (const SluiceConfigFieldSpec *spec,
                                 GCallback                    on_changed,
                                 gpointer                     data)
{
  GtkWidget *widget;

  switch (spec->kind)
    {
    case SLUICE_FIELD_ENTRY:
      widget = gtk_entry_new ();
      gtk_editable_set_width_chars (GTK_EDITABLE (widget), 8);
      g_signal_connect_swapped (widget, "changed", on_changed, data);
      return widget;

    case SLUICE_FIELD_CHOICE:
      {
        g_autoptr(GtkStringList) labels = gtk_string_list_new (NULL);

        for (guint c = 0; spec->choices[c] != NULL; c++)
          gtk_string_list_append (labels, _sluice_config_field_choice_label (spec, c));
        widget = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&labels)), NULL);
        sluice_accessible_name_drop_down (GTK_DROP_DOWN (widget), _(spec->label));
      }
      g_signal_connect_swapped (widget, "notify::selected", on_changed, data);
      return widget;

    case SLUICE_FIELD_SWITCH:
      widget = gtk_switch_new ();
      gtk_widget_set_halign (widget, GTK_ALIGN_START);
      g_signal_connect_swapped (widget, "notify::active", on_changed, data);
      return widget;

    case SLUICE_FIELD_LINES:
      widget = gtk_text_view_new ();
      gtk_text_view_set_monospace (GTK_TEXT_VIEW (widget), TRUE);
      gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (widget), FALSE);
      gtk_widget_add_css_class (widget, "item-lines");
      g_signal_connect_swapped (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)), "changed",
                                on_changed, data);
      return widget;

    default:
      g_assert_not_reached ();
    }
}

static char *
get_lines_text (GtkWidget *widget)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

/* The field as it would be written in the file (numbers with “.”, though
 * typed the locale's way), or NULL when empty. */
char *
_sluice_config_field_widget_get_text (const SluiceConfigFieldSpec *spec,
                                      GtkWidget                   *widget)
{
  g_autofree char *text = NULL;

  switch (spec->kind)
    {
    case SLUICE_FIELD_ENTRY:
      text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (widget))));
      break;
    case SLUICE_FIELD_CHOICE:
      text = g_strdup (spec->choices[gtk_drop_down_get_selected (GTK_DROP_DOWN (widget))]);
      break;
    case SLUICE_FIELD_SWITCH:
      text = g_strdup (gtk_switch_get_active (GTK_SWITCH (widget)) ? "true" : "false");
      break;
    case SLUICE_FIELD_LINES:
      text = g_strstrip (get_lines_text (widget));
      break;
    default:
      g_assert_not_reached ();
    }

  /* “0,5” in German is 0.5, and the file always says so. */
  if (_sluice_config_field_takes_local_numbers (spec))
    {
      char *file_text = _sluice_config_delocalize_numbers (text, NULL);

      g_free (text);
      text = file_text;
    }

  return *text != '\0' ? g_steal_pointer (&text) : NULL;
}

/* Shows @text (as in the file; NULL for empty) in @widget, as a person
 * would type or pick it. */
void
_sluice_config_field_widget_set_text (const SluiceConfigFieldSpec *spec,
                                      GtkWidget                   *widget,
                                      const char                  *text)
{
  gint choice;

  text = text ? text : "";

  switch (spec->kind)
    {
    case SLUICE_FIELD_ENTRY:
      gtk_editable_set_text (GTK_EDITABLE (widget), text);
      break;
    case SLUICE_FIELD_CHOICE:
      /* A key left out is at its default, the first choice; an unknown
       * keyword leaves the selection as it is. */
      if (*text == '\0')
        gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), 0);
      else if ((choice = _sluice_config_field_find_choice (spec, text)) >= 0)
        gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), (guint) choice);
      break;
    case SLUICE_FIELD_SWITCH:
      gtk_switch_set_active (GTK_SWITCH (widget), g_str_equal (text, "true"));
      break;
    case SLUICE_FIELD_LINES:
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (widget)), text, -1);
      break;
    default:
      g_assert_not_reached ();
    }
}
