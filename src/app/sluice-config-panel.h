/* sluice-config-panel.h: the sidebar that edits a scenario, field by field
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-scenario.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_CONFIG_PANEL (sluice_config_panel_get_type ())
G_DECLARE_FINAL_TYPE (SluiceConfigPanel, sluice_config_panel, SLUICE, CONFIG_PANEL, GtkWidget)

GtkWidget      *sluice_config_panel_new             (void);
void            sluice_config_panel_set_scenario    (SluiceConfigPanel *self,
                                                     SluiceScenario    *scenario);
SluiceScenario *sluice_config_panel_get_scenario    (SluiceConfigPanel *self);
gboolean        sluice_config_panel_get_valid       (SluiceConfigPanel *self);
const char     *sluice_config_panel_get_error       (SluiceConfigPanel *self);
void            sluice_config_panel_set_field_text  (SluiceConfigPanel *self,
                                                     const char        *group,
                                                     const char        *key,
                                                     const char        *text);
const char     *sluice_config_panel_get_field_error (SluiceConfigPanel *self,
                                                     const char        *group,
                                                     const char        *key);
GtkWidget      *sluice_config_panel_get_field_widget (SluiceConfigPanel *self,
                                                      const char        *group,
                                                      const char        *key);
gboolean        sluice_config_panel_get_edited      (SluiceConfigPanel *self);
GtkWidget      *sluice_config_panel_get_header      (SluiceConfigPanel *self);
GtkWidget      *sluice_config_panel_get_error_line  (SluiceConfigPanel *self);

G_END_DECLS
