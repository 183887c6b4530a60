/* sluice-window-png.h: a toplevel window saved as a PNG
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean sluice_window_save_png (GtkWidget   *window,
                                 const char  *path,
                                 GError     **error);

G_END_DECLS
