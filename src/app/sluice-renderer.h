/* sluice-renderer.h: which GSK renderer the app's windows draw with
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean    sluice_renderer_gl_is_software (const char *gl_renderer);
const char *sluice_renderer_choose         (GdkDisplay *display);

G_END_DECLS
