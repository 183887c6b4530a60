/* sluice-run-controller.h: one run of the playground, from start to exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-fault-handler.h"
#include "sluice-recorder.h"
#include "sluice-recording.h"
#include "sluice-remote-pool.h"
#include "sluice-scenario.h"
#include "sluice-run-model.h"
#include "sluice-run-status.h"
#include "sluice-viewport.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_RUN_CONTROLLER (sluice_run_controller_get_type ())
G_DECLARE_FINAL_TYPE (SluiceRunController, sluice_run_controller, SLUICE, RUN_CONTROLLER, GObject)

SluiceRunController *sluice_run_controller_new            (GtkWidget            *frame_widget);
gboolean             sluice_run_controller_start          (SluiceRunController  *self,
                                                           SluiceScenario       *scenario);
gboolean             sluice_run_controller_show_recording (SluiceRunController  *self,
                                                           SluiceRecording      *recording);
gboolean             sluice_run_controller_attach         (SluiceRunController  *self,
                                                           SluiceRemotePool     *pool,
                                                           GError              **error);
void                 sluice_run_controller_detach         (SluiceRunController  *self);
SluiceRemotePool    *sluice_run_controller_get_remote     (SluiceRunController  *self);
guint64              sluice_run_controller_get_remote_lost (SluiceRunController *self);
const char          *sluice_run_controller_get_scenario_text (SluiceRunController *self);
gboolean             sluice_run_controller_save_recording (SluiceRunController  *self,
                                                           const char           *path,
                                                           GError              **error);
void                 sluice_run_controller_request_stop   (SluiceRunController  *self);
void                 sluice_run_controller_close          (SluiceRunController  *self);
gboolean             sluice_run_controller_submit         (SluiceRunController  *self,
                                                           GVariant             *item,
                                                           const SluiceBehaviour *behaviour,
                                                           GError              **error);
gboolean             sluice_run_controller_give_up        (SluiceRunController  *self,
                                                           gint64                job_index);
gboolean             sluice_run_controller_get_submit_mode (SluiceRunController *self);
void                 sluice_run_controller_cancel         (SluiceRunController  *self);
void                 sluice_run_controller_reset          (SluiceRunController  *self);
void                 sluice_run_controller_set_configured_workers (SluiceRunController *self,
                                                                   guint                workers);
void                 sluice_run_controller_set_speed      (SluiceRunController  *self,
                                                           double                speed);
void                 sluice_run_controller_set_paused     (SluiceRunController  *self,
                                                           gboolean              paused);
void                 sluice_run_controller_step           (SluiceRunController  *self);
void                 sluice_run_controller_set_instant    (SluiceRunController  *self,
                                                           gboolean              instant);
gboolean             sluice_run_controller_get_running    (SluiceRunController  *self);
gboolean             sluice_run_controller_get_has_events (SluiceRunController  *self);
SluiceRunModel      *sluice_run_controller_get_model      (SluiceRunController  *self);
SluiceViewport      *sluice_run_controller_get_viewport   (SluiceRunController  *self);
SluiceFaultHandler  *sluice_run_controller_get_handler    (SluiceRunController  *self);
gboolean             sluice_run_controller_export_image   (SluiceRunController  *self,
                                                           const char           *path,
                                                           double                width,
                                                           double                height,
                                                           gboolean              dark,
                                                           GError              **error);
gboolean             sluice_run_controller_export_events  (SluiceRunController  *self,
                                                           const char           *path,
                                                           GError              **error);

G_END_DECLS
