/* sluice-window.h: the playground window: configure, run, watch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-application.h"
#include "sluice-attach-dialog.h"
#include "sluice-compare-window.h"
#include "sluice-counters.h"
#include "sluice-document.h"
#include "sluice-run-controller.h"
#include "sluice-viewport.h"
#include "sluice-scenario.h"
#include "sluice-store-window.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_WINDOW (sluice_window_get_type ())
G_DECLARE_FINAL_TYPE (SluiceWindow, sluice_window, SLUICE, WINDOW, GtkApplicationWindow)

/**
 * SluiceScreenshotFunc:
 * @window: the window
 * @ok: whether the PNG and the exports were saved
 * @user_data: the data given to sluice_window_run_and_export()
 *
 * Called once the screenshot and the exports are saved or one failed.
 */
typedef void (*SluiceScreenshotFunc) (SluiceWindow *window,
                                      gboolean      ok,
                                      gpointer      user_data);


SluiceWindow *sluice_window_new                (SluiceApplication    *app);
gboolean      sluice_window_load_file          (SluiceWindow         *self,
                                                const char           *path,
                                                GError              **error);
gboolean      sluice_window_open_file          (SluiceWindow         *self,
                                                const char           *path,
                                                GError              **error);
gboolean      sluice_window_open_preset        (SluiceWindow         *self,
                                                const char           *name,
                                                GError              **error);
void          sluice_window_open_last          (SluiceWindow         *self);
void          sluice_window_bind_settings      (SluiceWindow         *self,
                                                GSettings            *settings);
gboolean      sluice_window_get_running        (SluiceWindow         *self);
void          sluice_window_run_and_export     (SluiceWindow         *self,
                                                const char           *screenshot,
                                                const char           *image,
                                                const char           *events,
                                                SluiceScreenshotFunc  func,
                                                gpointer              user_data);
gboolean      sluice_window_export_image       (SluiceWindow         *self,
                                                const char           *path,
                                                double                width,
                                                double                height,
                                                GError              **error);
gboolean      sluice_window_export_events      (SluiceWindow         *self,
                                                const char           *path,
                                                GError              **error);
GtkWidget    *sluice_window_get_config_panel   (SluiceWindow         *self);
GtkWidget    *sluice_window_get_timeline_view  (SluiceWindow         *self);
GtkWidget    *sluice_window_get_event_log      (SluiceWindow         *self);
GtkWidget    *sluice_window_get_error_group    (SluiceWindow         *self);
GtkWidget    *sluice_window_get_jobs_view      (SluiceWindow         *self);
GtkWidget    *sluice_window_get_report_view    (SluiceWindow         *self);
GtkWidget    *sluice_window_get_explain_view   (SluiceWindow         *self);
const char   *sluice_window_get_counter        (SluiceWindow         *self,
                                                SluiceCounter         counter);
gboolean      sluice_window_get_counter_shown  (SluiceWindow         *self,
                                                SluiceCounter         counter);
const char   *sluice_window_get_banner         (SluiceWindow         *self);
gboolean      sluice_window_get_modified       (SluiceWindow         *self);
GtkWidget    *sluice_window_get_question       (SluiceWindow         *self);
const char   *sluice_window_get_file           (SluiceWindow         *self);
void          sluice_window_open_file_asking   (SluiceWindow         *self,
                                                const char           *path);
guint         sluice_window_get_n_results      (SluiceWindow         *self);
GListModel   *sluice_window_get_results        (SluiceWindow         *self);
SluiceRunController *sluice_window_get_run_controller (SluiceWindow  *self);
SluiceViewport *sluice_window_get_viewport     (SluiceWindow         *self);
SluiceDocument *sluice_window_get_document     (SluiceWindow         *self);
SluiceCompareWindow *sluice_window_compare_with_file (SluiceWindow   *self,
                                                const char           *path,
                                                GError              **error);
gboolean      sluice_window_get_projector      (SluiceWindow         *self);
void          sluice_window_set_projector      (SluiceWindow         *self,
                                                gboolean              projector);
gboolean      sluice_window_attach             (SluiceWindow         *self,
                                                SluiceRemotePool     *pool,
                                                GError              **error);
SluiceAttachDialog *sluice_window_get_attach_dialog (SluiceWindow    *self);
gboolean      sluice_window_open_lesson        (SluiceWindow         *self,
                                                const char           *name);
GtkWidget    *sluice_window_get_lesson_panel   (SluiceWindow         *self);
GtkWidget    *sluice_window_get_lesson_gallery (SluiceWindow         *self);
gboolean      sluice_window_get_showing_lessons (SluiceWindow        *self);
gboolean      sluice_window_choose             (SluiceWindow         *self,
                                                guint                 choice);
gboolean      sluice_window_get_asking         (SluiceWindow         *self);
void          sluice_window_attach_to_async    (SluiceWindow         *self,
                                                const char           *target,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
gboolean      sluice_window_attach_to_finish   (SluiceWindow         *self,
                                                GAsyncResult         *result,
                                                GError              **error);
SluiceStoreWindow *sluice_window_open_store    (SluiceWindow         *self,
                                                const char           *uri);
void          sluice_window_open_scenario_text (SluiceWindow         *self,
                                                const char           *text);

G_END_DECLS
