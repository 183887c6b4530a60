/* sluice-lesson-plan.c: the workshop plan of data/lessons
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-lesson-plan.h"
#include "sluice-lessons.h"

/**
 * SluiceLessonPlan:
 *
 * The teacher's side of the Lessons page (docs/teaching.md: "a teacher must be
 * able to run 90 minutes from the app alone"): the blocks of a workshop
 * in order, each with its minutes, its lesson, its goal, what to ask the
 * room and notes. It is data, `workshop-plan.desktop` beside the lessons,
 * translated through the app's catalogue (po/ extracts its texts).
 */

#define PLAN_FILE "workshop-plan.desktop"
#define MAX_MINUTES (24 * 60)

struct _SluiceLessonPlan
{
  GObject  parent_instance;

  char    *title;
  char    *comment;
  GArray  *blocks;   /* SluiceLessonPlanBlock */
};

G_DEFINE_FINAL_TYPE (SluiceLessonPlan, sluice_lesson_plan, G_TYPE_OBJECT)

static void
block_clear (gpointer data)
{
  SluiceLessonPlanBlock *block = data;

  g_free (block->lesson);
  g_free (block->title);
  g_free (block->goal);
  g_free (block->ask);
  g_free (block->notes);
}

static void
sluice_lesson_plan_finalize (GObject *object)
{
  SluiceLessonPlan *self = SLUICE_LESSON_PLAN (object);

  g_free (self->title);
  g_free (self->comment);
  g_array_unref (self->blocks);
  G_OBJECT_CLASS (sluice_lesson_plan_parent_class)->finalize (object);
}

static void
sluice_lesson_plan_class_init (SluiceLessonPlanClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_lesson_plan_finalize;
}

static void
sluice_lesson_plan_init (SluiceLessonPlan *self)
{
  self->blocks = g_array_new (FALSE, TRUE, sizeof (SluiceLessonPlanBlock));
  g_array_set_clear_func (self->blocks, block_clear);
}

/* @key of @group in the catalogue's language, or NULL when absent. */
static char *
read_text (GKeyFile   *keyfile,
           const char *group,
           const char *key)
{
  g_autofree char *text = g_key_file_get_string (keyfile, group, key, NULL);

  if (text == NULL || *text == '\0')
    return NULL;
  return g_strdup (g_dgettext (GETTEXT_PACKAGE, text));
}

static gboolean
fail (GError    **error,
      const char *path,
      const char *group,
      const char *key,
      const char *expected)
{
  /* Translators: the first %s is a file, the second a group, the third a
   * key of it, the fourth what the key should hold. */
  g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE, _("%s: [%s] %s: expected %s"), path, group,
               key, expected);
  return FALSE;
}

/* Minutes=FROM-TO, from 0, not before the block before it. */
static gboolean
read_minutes (GKeyFile               *keyfile,
              const char             *path,
              const char             *group,
              guint                   after,
              SluiceLessonPlanBlock  *block,
              GError                **error)
{
  g_autofree char *text = g_key_file_get_string (keyfile, group, "Minutes", NULL);
  g_auto(GStrv) parts = g_strsplit (text != NULL ? text : "", "-", 3);
  guint64 from, to;

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (g_strstrip (parts[0]), 10, after, MAX_MINUTES, &from, NULL) ||
      !g_ascii_string_to_unsigned (g_strstrip (parts[1]), 10, from + 1, MAX_MINUTES, &to, NULL))
    return fail (error, path, group, "Minutes",
                 /* Translators: what Minutes of the workshop plan holds. */
                 _("FROM-TO in whole minutes, from where the block before ended"));

  block->from = (guint) from;
  block->to = (guint) to;
  return TRUE;
}

static gboolean
read_block (SluiceLessonPlan  *self,
            GKeyFile          *keyfile,
            const char        *path,
            const char        *group,
            GError           **error)
{
  SluiceLessonPlanBlock block = { 0 };
  guint after = self->blocks->len > 0 ?
    g_array_index (self->blocks, SluiceLessonPlanBlock, self->blocks->len - 1).to : 0;
  g_autofree char *lesson_path = sluice_lessons_find (group);

  if (!read_minutes (keyfile, path, group, after, &block, error))
    return FALSE;

  block.title = read_text (keyfile, group, "Title");
  block.goal = read_text (keyfile, group, "Goal");
  block.ask = read_text (keyfile, group, "Ask");
  block.notes = read_text (keyfile, group, "Notes");
  if (lesson_path != NULL)
    block.lesson = g_strdup (group);
  g_array_append_val (self->blocks, block);

  if (block.goal == NULL)
    /* Translators: what Goal of the workshop plan holds. */
    return fail (error, path, group, "Goal", _("what the room should take away"));
  if (block.lesson == NULL && block.title == NULL)
    /* Translators: about a block of the workshop plan. */
    return fail (error, path, group, "Title", _("a title, or a group named after a lesson"));
  return TRUE;
}

/**
 * sluice_lesson_plan_new_from_file:
 * @path: a workshop plan
 * @error: return location for a #GKeyFileError
 *
 * Returns: (transfer full) (nullable): the plan, its texts in the
 *   locale's language, or %NULL with @error naming the file, the group
 *   and the key
 */
SluiceLessonPlan *
sluice_lesson_plan_new_from_file (const char  *path,
                                  GError     **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(SluiceLessonPlan) self = NULL;
  g_auto(GStrv) groups = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_key_file_load_from_file (keyfile, path, G_KEY_FILE_NONE, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }

  self = g_object_new (SLUICE_TYPE_LESSON_PLAN, NULL);
  self->title = read_text (keyfile, "Workshop", "Name");
  self->comment = read_text (keyfile, "Workshop", "Comment");
  if (self->title == NULL)
    {
      /* Translators: what Name of the workshop plan holds. */
      fail (error, path, "Workshop", "Name", _("the workshop's title"));
      return NULL;
    }

  groups = g_key_file_get_groups (keyfile, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    if (!g_str_equal (groups[i], "Workshop") && !read_block (self, keyfile, path, groups[i], error))
      return NULL;

  return g_steal_pointer (&self);
}

/**
 * sluice_lesson_plan_load:
 * @error: return location for a #GKeyFileError
 *
 * Returns: (transfer full) (nullable): the plan beside the lessons
 *   (sluice_lessons_get_dir())
 */
SluiceLessonPlan *
sluice_lesson_plan_load (GError **error)
{
  const char *dir = sluice_lessons_get_dir ();
  g_autofree char *path = dir != NULL ? g_build_filename (dir, PLAN_FILE, NULL) : NULL;

  if (path == NULL)
    {
      g_set_error_literal (error, G_FILE_ERROR, G_FILE_ERROR_NOENT, _("The lessons are not installed"));
      return NULL;
    }
  return sluice_lesson_plan_new_from_file (path, error);
}

/**
 * sluice_lesson_plan_get_title:
 * @self: a #SluiceLessonPlan
 *
 * Returns: the workshop's title
 */
const char *
sluice_lesson_plan_get_title (SluiceLessonPlan *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN (self), NULL);
  return self->title;
}

/**
 * sluice_lesson_plan_get_comment:
 * @self: a #SluiceLessonPlan
 *
 * Returns: (nullable): how to prepare and run the session
 */
const char *
sluice_lesson_plan_get_comment (SluiceLessonPlan *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN (self), NULL);
  return self->comment;
}

/**
 * sluice_lesson_plan_get_n_blocks:
 * @self: a #SluiceLessonPlan
 *
 * Returns: how many blocks the session has
 */
guint
sluice_lesson_plan_get_n_blocks (SluiceLessonPlan *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN (self), 0);
  return self->blocks->len;
}

/**
 * sluice_lesson_plan_get_block:
 * @self: a #SluiceLessonPlan
 * @index: a block, from 0
 *
 * Returns: (transfer none): the block, in the session's order
 */
const SluiceLessonPlanBlock *
sluice_lesson_plan_get_block (SluiceLessonPlan *self,
                              guint             index)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN (self), NULL);
  g_return_val_if_fail (index < self->blocks->len, NULL);
  return &g_array_index (self->blocks, SluiceLessonPlanBlock, index);
}
