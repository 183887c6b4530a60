/* window-fixture.h: opening, running and closing the playground window in
 * the window tests (under Xvfb)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-window.h"

G_BEGIN_DECLS

guint         window_fixture_add_timeout  (void);
SluiceWindow *window_fixture_new          (void);
SluiceWindow *window_fixture_open         (const char    *preset);
void          window_fixture_close        (SluiceWindow  *window);
gboolean      window_fixture_action_enabled (SluiceWindow *window,
                                             const char   *name);
void          window_fixture_wait_for_end (SluiceWindow  *window);
void          window_fixture_run_virtual  (SluiceWindow  *window);
GtkWidget    *window_fixture_find_widget  (GtkWidget     *widget,
                                           GType          type);
GtkWidget    *window_fixture_find_actionable (GtkWidget  *widget,
                                           const char    *action_name);
SluiceWindow *window_fixture_new_projector (GSettings    *settings);
GtkCssProvider *window_fixture_add_app_style (void);
void          window_fixture_remove_app_style (GtkCssProvider *css);
void          window_fixture_wait_for_frames (GtkWidget    *widget,
                                           guint          n);
GdkTexture   *window_fixture_draw_widget  (GtkWidget     *widget);
void          window_fixture_screenshot   (SluiceWindow  *window,
                                           const char    *png);
void          window_fixture_assert_not_clipped (GtkWidget *widget);
int           window_fixture_run_app      (const char * const *args,
                                           char         **err);

G_END_DECLS
