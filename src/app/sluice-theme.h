/* sluice-theme.h: what the app needs to know about the current theme
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean sluice_widget_is_dark (GtkWidget *widget);

G_END_DECLS
