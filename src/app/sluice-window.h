/* sluice-window.h: the playground window: configure, run, watch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-application.h"
#include "sluice-scenario.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_WINDOW (sluice_window_get_type ())
G_DECLARE_FINAL_TYPE (SluiceWindow, sluice_window, SLUICE, WINDOW, GtkApplicationWindow)

/**
 * SluiceScreenshotFunc:
 * @window: the window
 * @ok: whether the PNG was saved
 * @user_data: the data given to sluice_window_run_and_screenshot()
 *
 * Called once the screenshot is saved or failed.
 */
typedef void (*SluiceScreenshotFunc) (SluiceWindow *window,
                                      gboolean      ok,
                                      gpointer      user_data);

typedef enum {
  SLUICE_COUNTER_PULLED,
  SLUICE_COUNTER_QUEUED,
  SLUICE_COUNTER_IN_FLIGHT,
  SLUICE_COUNTER_SUCCEEDED,
  SLUICE_COUNTER_RETRIES,
  SLUICE_COUNTER_TIMEOUTS,
  SLUICE_COUNTER_FAILED,
  SLUICE_COUNTER_ELAPSED,
  SLUICE_COUNTER_THROUGHPUT,
  SLUICE_N_COUNTERS
} SluiceCounter;

SluiceWindow *sluice_window_new                (SluiceApplication    *app);
gboolean      sluice_window_load_file          (SluiceWindow         *self,
                                                const char           *path,
                                                GError              **error);
gboolean      sluice_window_open_preset        (SluiceWindow         *self,
                                                const char           *name);
void          sluice_window_open_last          (SluiceWindow         *self);
gboolean      sluice_window_get_running        (SluiceWindow         *self);
void          sluice_window_run_and_screenshot (SluiceWindow         *self,
                                                const char           *path,
                                                SluiceScreenshotFunc  func,
                                                gpointer              user_data);
GtkWidget    *sluice_window_get_config_panel   (SluiceWindow         *self);
GtkWidget    *sluice_window_get_timeline_view  (SluiceWindow         *self);
GtkWidget    *sluice_window_get_event_log      (SluiceWindow         *self);
GtkWidget    *sluice_window_get_error_group    (SluiceWindow         *self);
const char   *sluice_window_get_counter        (SluiceWindow         *self,
                                                SluiceCounter         counter);
const char   *sluice_window_get_banner         (SluiceWindow         *self);
guint         sluice_window_get_n_results      (SluiceWindow         *self);

G_END_DECLS
