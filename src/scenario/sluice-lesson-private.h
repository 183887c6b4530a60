/* sluice-lesson-private.h: what the scenario loader fills in
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-lesson.h"

G_BEGIN_DECLS

/* One `PATH=JSON` of `reveal`: the report's value at @path equals @value. */
typedef struct {
  GStrv     path;     /* the keys and indices between the dots */
  char     *text;     /* PATH as written */
  JsonNode *value;
} SluiceRevealCondition;

struct _SluiceLesson
{
  GObject             parent_instance;

  guint               order;
  char               *next;         /* or NULL: the last lesson */
  char               *question;     /* in the locale's language */
  GStrv               choices;
  guint               answer;       /* 1-based, as written */
  char               *reveal;       /* as written */
  GPtrArray          *conditions;   /* SluiceRevealCondition* */
  gint64              moment;       /* µs on the run's clock; -1: the end */
  SluiceLessonTarget  target;
  gint64              target_index;
  char               *explain;
};

SluiceLesson *_sluice_lesson_new             (void);
GPtrArray    *_sluice_lesson_parse_reveal    (const char  *text,
                                              char       **problem);

G_END_DECLS
