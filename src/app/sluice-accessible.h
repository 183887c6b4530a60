/* sluice-accessible.h: accessible names that read as the labels do
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sluice_accessible_name_buttons_by_label (GtkWidget   *root);
void sluice_accessible_name_drop_down        (GtkDropDown *drop_down,
                                              const char  *name);

G_END_DECLS
