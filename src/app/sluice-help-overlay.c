/* sluice-help-overlay.c: the Shortcuts window in projector mode
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-help-overlay.h"

/**
 * sluice_help_overlay_set_projector:
 * @overlay: the Shortcuts window (ui/gtk/help-overlay.ui), as
 *   #GtkApplication gives it to each window
 * @projector: whether its window is in projector mode
 *
 * Gives @overlay projector mode's larger text while its window is in
 * projector mode: a window of its own, it does not take the window's
 * style class. Its short titles, two columns to a page
 * (ui/gtk/help-overlay.ui), fit a 1024×768 screen at that size.
 */
void
sluice_help_overlay_set_projector (GtkWindow *overlay,
                         gboolean   projector)
{
  g_return_if_fail (GTK_IS_WINDOW (overlay));

  if (projector)
    gtk_widget_add_css_class (GTK_WIDGET (overlay), "projector");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (overlay), "projector");
}
