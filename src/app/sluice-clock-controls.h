/* sluice-clock-controls.h: pause, step and speed of the run's clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-run-controller.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_CLOCK_CONTROLS (sluice_clock_controls_get_type ())
G_DECLARE_FINAL_TYPE (SluiceClockControls, sluice_clock_controls, SLUICE, CLOCK_CONTROLS, GtkWidget)

GtkWidget *sluice_clock_controls_new                (void);
void       sluice_clock_controls_set_run_controller (SluiceClockControls *self,
                                                     SluiceRunController *run);
double     sluice_clock_controls_get_speed          (SluiceClockControls *self);
void       sluice_clock_controls_set_speed          (SluiceClockControls *self,
                                                     double               speed);
gboolean   sluice_clock_controls_get_paused         (SluiceClockControls *self);

G_END_DECLS
