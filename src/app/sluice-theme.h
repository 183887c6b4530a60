/* sluice-theme.h: how the app looks: the theme, and the cells of its tables
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean   sluice_widget_is_dark (GtkWidget *widget);
gboolean   sluice_widget_is_high_contrast (GtkWidget *widget);
gboolean   sluice_window_switch_projector (GtkWidget *window,
                                           gboolean  *current,
                                           gboolean   projector);
GtkWidget *sluice_cell_label_new (gboolean   numeric);
void       sluice_cell_label_show_text_as_tooltip (GtkWidget *label);
void       sluice_column_view_add_columns (GtkColumnView      *column_view,
                                           const char * const *titles,
                                           guint               n_columns,
                                           guint               expand_column,
                                           GCallback           setup,
                                           GCallback           bind,
                                           gpointer            view);

G_END_DECLS
