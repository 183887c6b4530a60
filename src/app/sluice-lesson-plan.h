/* sluice-lesson-plan.h: the workshop plan of data/lessons
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * SluiceLessonPlanBlock:
 * @from: the minute it starts at
 * @to: the minute it ends at
 * @lesson: (nullable): the lesson's name, or %NULL for a block without one
 * @title: (nullable): the block's title when it has no lesson
 * @goal: what the room should take away, in the locale's language
 * @ask: (nullable): what to ask the room after the reveal
 * @notes: (nullable): the teacher's notes
 *
 * One block of the plan.
 */
typedef struct {
  guint  from;
  guint  to;
  char  *lesson;
  char  *title;
  char  *goal;
  char  *ask;
  char  *notes;
} SluiceLessonPlanBlock;

#define SLUICE_TYPE_LESSON_PLAN (sluice_lesson_plan_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLessonPlan, sluice_lesson_plan, SLUICE, LESSON_PLAN, GObject)

SluiceLessonPlan            *sluice_lesson_plan_new_from_file (const char       *path,
                                                               GError          **error);
SluiceLessonPlan            *sluice_lesson_plan_load          (GError          **error);
const char                  *sluice_lesson_plan_get_title     (SluiceLessonPlan *self);
const char                  *sluice_lesson_plan_get_comment   (SluiceLessonPlan *self);
guint                        sluice_lesson_plan_get_n_blocks  (SluiceLessonPlan *self);
const SluiceLessonPlanBlock *sluice_lesson_plan_get_block     (SluiceLessonPlan *self,
                                                               guint             index);

G_END_DECLS
