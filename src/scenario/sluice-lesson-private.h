/* sluice-lesson-private.h: what the scenario loader fills in
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-lesson.h"

G_BEGIN_DECLS

/* The longest JSON value of one reveal condition: they are short, such as
 * [4,1,0] or "ok"; the lesson's file is bounded too. */
#define SLUICE_LESSON_MAX_REVEAL_VALUE (64 * 1024)

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
  char               *result;       /* the finding, for the title after the reveal; or NULL */
  char               *evidence;     /* a sentence with {PATH} of reveal; or NULL */
  guint               muted;        /* 1 << SluiceLintKind of the lints it teaches */
};

SluiceLesson *_sluice_lesson_new             (void);
GPtrArray    *_sluice_lesson_parse_reveal    (const char  *text,
                                              char       **problem);
JsonNode     *_sluice_lesson_lookup_path     (JsonNode           *node,
                                              const char * const *path);
gboolean      _sluice_lesson_check_evidence  (SluiceLesson *self,
                                              const char   *text,
                                              char        **problem);

G_END_DECLS
