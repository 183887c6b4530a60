/* sluice-lesson-plan-window.h: the workshop plan, for the teacher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-lesson-plan.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_LESSON_PLAN_WINDOW (sluice_lesson_plan_window_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLessonPlanWindow, sluice_lesson_plan_window, SLUICE, LESSON_PLAN_WINDOW, GtkWindow)

GtkWidget        *sluice_lesson_plan_window_new       (GtkWindow              *parent,
                                                       SluiceLessonPlan       *plan);
SluiceLessonPlan *sluice_lesson_plan_window_get_plan  (SluiceLessonPlanWindow *self);
guint             sluice_lesson_plan_window_get_n_rows (SluiceLessonPlanWindow *self);
GtkWidget        *sluice_lesson_plan_window_get_open_button (SluiceLessonPlanWindow *self,
                                                             const char             *lesson);

G_END_DECLS
