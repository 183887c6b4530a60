/* sluice-config-field-widget-private.h: the widget that edits one field of
 * the config panel, by the field's kind
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-config-fields-private.h"

G_BEGIN_DECLS

GtkWidget *_sluice_config_field_widget_new      (const SluiceConfigFieldSpec *spec,
                                                 GCallback                    on_changed,
                                                 gpointer                     data);
char      *_sluice_config_field_widget_get_text (const SluiceConfigFieldSpec *spec,
                                                 GtkWidget                   *widget);
void       _sluice_config_field_widget_set_text (const SluiceConfigFieldSpec *spec,
                                                 GtkWidget                   *widget,
                                                 const char                  *text);

G_END_DECLS
