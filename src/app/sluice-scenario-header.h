/* sluice-scenario-header.h: the scenario's title and description at the
 * top of the configuration, shown or edited
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_SCENARIO_HEADER (sluice_scenario_header_get_type ())
G_DECLARE_FINAL_TYPE (SluiceScenarioHeader, sluice_scenario_header, SLUICE, SCENARIO_HEADER, GtkWidget)

GtkWidget  *sluice_scenario_header_new             (void);
void        sluice_scenario_header_set_texts       (SluiceScenarioHeader *self,
                                                    const char           *title,
                                                    const char           *description);
char       *sluice_scenario_header_get_title       (SluiceScenarioHeader *self);
char       *sluice_scenario_header_get_description (SluiceScenarioHeader *self);
void        sluice_scenario_header_set_title       (SluiceScenarioHeader *self,
                                                    const char           *title);
void        sluice_scenario_header_set_description (SluiceScenarioHeader *self,
                                                    const char           *description);
gboolean    sluice_scenario_header_get_editing     (SluiceScenarioHeader *self);
void        sluice_scenario_header_set_editing     (SluiceScenarioHeader *self,
                                                    gboolean              editing);
void        sluice_scenario_header_set_edited      (SluiceScenarioHeader *self,
                                                    gboolean              edited);
gboolean    sluice_scenario_header_get_note_shown  (SluiceScenarioHeader *self);

G_END_DECLS
