/* sluice-lesson.h: the [lesson] group of a scenario (docs/teaching.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * SluiceLessonTarget:
 * @SLUICE_LESSON_TARGET_NONE: the moment points at no part of the picture
 * @SLUICE_LESSON_TARGET_ITEM: an item's attempts (`moment=0.3 item 2`)
 * @SLUICE_LESSON_TARGET_WORKER: a worker's lane (`moment=0.3 worker 1`)
 * @SLUICE_LESSON_TARGET_LEAD: the lead in the queue chart (`moment=0.3 lead`)
 * @SLUICE_LESSON_TARGET_QUEUE: the queue depth in the chart (`moment=0.3 queue`)
 *
 * What a lesson's `moment` highlights.
 */
typedef enum {
  SLUICE_LESSON_TARGET_NONE,
  SLUICE_LESSON_TARGET_ITEM,
  SLUICE_LESSON_TARGET_WORKER,
  SLUICE_LESSON_TARGET_LEAD,
  SLUICE_LESSON_TARGET_QUEUE,
} SluiceLessonTarget;

#define SLUICE_TYPE_LESSON (sluice_lesson_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLesson, sluice_lesson, SLUICE, LESSON, GObject)

guint               sluice_lesson_get_order         (SluiceLesson  *self);
const char         *sluice_lesson_get_next          (SluiceLesson  *self);
const char         *sluice_lesson_get_question      (SluiceLesson  *self);
const char * const *sluice_lesson_get_choices       (SluiceLesson  *self);
guint               sluice_lesson_get_n_choices     (SluiceLesson  *self);
guint               sluice_lesson_get_answer        (SluiceLesson  *self);
const char         *sluice_lesson_get_reveal        (SluiceLesson  *self);
gint64              sluice_lesson_get_moment        (SluiceLesson  *self);
SluiceLessonTarget  sluice_lesson_get_target        (SluiceLesson  *self);
gint64              sluice_lesson_get_target_index  (SluiceLesson  *self);
const char         *sluice_lesson_get_explain       (SluiceLesson  *self);

const char         *sluice_lesson_get_result        (SluiceLesson  *self);
gboolean            sluice_lesson_mutes_lint        (SluiceLesson  *self,
                                                     guint          kind);

gboolean            sluice_lesson_check_reveal      (SluiceLesson  *self,
                                                     JsonNode      *report,
                                                     char         **shown);
char               *sluice_lesson_describe          (SluiceLesson  *self,
                                                     JsonNode      *report);
char               *sluice_lesson_format_number     (double         value,
                                                     int            digits);
char               *sluice_lesson_format_seconds    (gint64         us);

G_END_DECLS
