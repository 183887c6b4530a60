/* sluice-lesson-panel.h: a lesson's question before its run, the answer after
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-lesson.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_LESSON_PANEL (sluice_lesson_panel_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLessonPanel, sluice_lesson_panel, SLUICE, LESSON_PANEL, GtkWidget)

GtkWidget    *sluice_lesson_panel_new             (void);
void          sluice_lesson_panel_set_lesson      (SluiceLessonPanel *self,
                                                   SluiceLesson      *lesson,
                                                   const char        *title,
                                                   const char        *description,
                                                   const char        *next_title);
SluiceLesson *sluice_lesson_panel_get_lesson      (SluiceLessonPanel *self);
guint         sluice_lesson_panel_get_choice      (SluiceLessonPanel *self);
void          sluice_lesson_panel_set_choice      (SluiceLessonPanel *self,
                                                   guint              choice);
void          sluice_lesson_panel_ask             (SluiceLessonPanel *self);
void          sluice_lesson_panel_reveal          (SluiceLessonPanel *self,
                                                   JsonNode          *report,
                                                   const char        *changes,
                                                   gboolean           real_clock,
                                                   const char        *pointed_at);
const char   *sluice_lesson_panel_get_heading     (SluiceLessonPanel *self);
gboolean      sluice_lesson_panel_get_revealed    (SluiceLessonPanel *self);
const char   *sluice_lesson_panel_get_verdict     (SluiceLessonPanel *self);
const char   *sluice_lesson_panel_get_evidence    (SluiceLessonPanel *self);

G_END_DECLS
