/* sluice-application.h: the playground's GtkApplication
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_APPLICATION (sluice_application_get_type ())
G_DECLARE_FINAL_TYPE (SluiceApplication, sluice_application, SLUICE, APPLICATION, GtkApplication)

SluiceApplication *sluice_application_new             (void);
GSettings         *sluice_application_get_settings    (SluiceApplication *self);
int                sluice_application_get_exit_status (SluiceApplication *self);
GtkWindow         *sluice_application_show_about      (GtkWindow         *parent);

G_END_DECLS
