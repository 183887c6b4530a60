/* sluice-theme.c: how the app looks: the theme, and the cells of its tables
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-theme.h"

/**
 * sluice_widget_is_dark:
 * @widget: a widget
 *
 * Tells whether @widget is drawn in a dark theme, so that drawing done by
 * the render layer picks the matching palette. GTK 4.8 has no public
 * "prefers dark" state per widget; the theme's text colour is what every
 * theme (Adwaita, Adwaita:dark, high contrast) sets, and light text means
 * a dark background.
 *
 * Returns: %TRUE if the theme is dark
 */
gboolean
sluice_widget_is_dark (GtkWidget *widget)
{
  GdkRGBA color;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS

  return 0.299 * color.red + 0.587 * color.green + 0.114 * color.blue > 0.5;
}

/**
 * sluice_widget_is_high_contrast:
 * @widget: a widget
 *
 * Tells whether @widget is drawn in a high-contrast theme (GTK's
 * HighContrast or HighContrastInverse), so that the render layer's
 * drawings use the high-contrast palette as the widgets around them do.
 *
 * Returns: %TRUE if the theme is a high-contrast one
 */
gboolean
sluice_widget_is_high_contrast (GtkWidget *widget)
{
  const char *forced = g_getenv ("GTK_THEME");
  g_autofree char *theme = NULL;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  /* GTK_THEME=name[:variant] wins over the setting, as in GTK itself. */
  if (forced != NULL && *forced != '\0')
    return g_str_has_prefix (forced, "HighContrast");
  g_object_get (gtk_widget_get_settings (widget), "gtk-theme-name", &theme, NULL);
  return theme != NULL && g_str_has_prefix (theme, "HighContrast");
}

/**
 * sluice_cell_label_new:
 * @numeric: whether the column holds numbers
 *
 * A label for a cell of the app's column views: numbers right-aligned in
 * tabular figures and never shortened (a number cut to "…" says nothing;
 * a narrow table scrolls sideways instead), text left-aligned and
 * ellipsized at the end.
 *
 * Returns: (transfer floating): the label
 */
GtkWidget *
sluice_cell_label_new (gboolean numeric)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  else
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  return label;
}

static gboolean
on_query_tooltip (GtkWidget  *label,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *text = gtk_label_get_text (GTK_LABEL (label));

  if (text == NULL || *text == '\0')
    return FALSE;

  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/**
 * sluice_cell_label_show_text_as_tooltip:
 * @label: a label from sluice_cell_label_new()
 *
 * Makes the label's own text its tooltip, for a column whose text is often
 * cut. The tooltip is asked for when the pointer rests on the label:
 * setting one at every bind (thousands of rows a second while a log
 * follows a fast run or a scrubber moves) makes GTK look for the pointer
 * each time.
 */
void
sluice_cell_label_show_text_as_tooltip (GtkWidget *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  gtk_widget_set_has_tooltip (label, TRUE);
  g_signal_connect (label, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
}

/**
 * sluice_column_view_add_columns:
 * @column_view: a table
 * @titles: (array length=n_columns): the columns' titles, untranslated
 *   (`N_()`)
 * @n_columns: how many columns
 * @expand_column: the column that takes the width left over
 * @setup: the factories' `setup` handler
 * @bind: the factories' `bind` handler
 * @view: the table's owner, the factories' `view` data for the handlers
 *
 * Appends @n_columns resizable columns, each with a signal factory whose
 * handlers get the column's number as their user data and find @view
 * with `g_object_get_data (factory, "view")`.
 */
void
sluice_column_view_add_columns (GtkColumnView      *column_view,
                                const char * const *titles,
                                guint               n_columns,
                                guint               expand_column,
                                GCallback           setup,
                                GCallback           bind,
                                gpointer            view)
{
  g_return_if_fail (GTK_IS_COLUMN_VIEW (column_view));

  for (guint c = 0; c < n_columns; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "view", view);
      g_signal_connect (factory, "setup", setup, GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", bind, GUINT_TO_POINTER (c));

      column = gtk_column_view_column_new (_(titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == expand_column);
      gtk_column_view_append_column (column_view, column);
      g_object_unref (column);
    }
}

/**
 * sluice_window_switch_projector:
 * @window: the playground's, the comparison's or the job store's window
 * @current: (inout): the window's projector flag
 * @projector: whether the window is to be shown for a projector
 *
 * The part of projector mode that every window shares: the flag, and the
 * `projector` CSS class that makes its text %SLUICE_RENDER_PROJECTOR_SCALE
 * times larger (ui/style.css). The window fits the rest of itself, and
 * notifies its property, only when this returns %TRUE.
 *
 * Returns: whether @projector changed the mode
 */
gboolean
sluice_window_switch_projector (GtkWidget *window,
                                gboolean  *current,
                                gboolean   projector)
{
  g_return_val_if_fail (GTK_IS_WINDOW (window), FALSE);

  projector = !!projector;
  if (*current == projector)
    return FALSE;

  *current = projector;
  if (projector)
    gtk_widget_add_css_class (window, "projector");
  else
    gtk_widget_remove_css_class (window, "projector");
  return TRUE;
}
