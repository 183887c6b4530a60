/* sluice-text-label.h: a paragraph of text in a box
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkLabel *sluice_text_label_append (GtkBox     *box,
                                    const char *text,
                                    const char *style);

G_END_DECLS
