/* sluice-help-overlay.h: the Shortcuts window in projector mode
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void sluice_help_overlay_set_projector (GtkWindow *overlay,
                                        gboolean   projector);

G_END_DECLS
