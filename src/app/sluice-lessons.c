/* sluice-lessons.c: where the lessons are, in their order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <string.h>

#include "sluice-lessons.h"
#include "sluice-presets.h"

/*
 * The lessons are the .pool files of data/lessons, scenarios with a
 * [lesson] group (docs/teaching.md). They are found in $SLUICE_LESSONS_DIR (an
 * uninstalled run sets it to the source tree's data/lessons), else where
 * `meson install` put them, like the presets.
 */

/**
 * sluice_lessons_get_dir:
 *
 * Returns: (nullable): the folder of the lessons, or %NULL if none exists
 */
const char *
sluice_lessons_get_dir (void)
{
  return _sluice_find_data_dir ("SLUICE_LESSONS_DIR", SLUICE_INSTALLED_LESSONS_DIR);
}

static gint
compare_order (gconstpointer a,
               gconstpointer b)
{
  SluiceScenario *x = *(SluiceScenario **) a, *y = *(SluiceScenario **) b;
  guint i = sluice_lesson_get_order (sluice_scenario_get_lesson (x));
  guint j = sluice_lesson_get_order (sluice_scenario_get_lesson (y));

  return i != j ? (i < j ? -1 : 1) : g_strcmp0 (sluice_scenario_get_name (x), sluice_scenario_get_name (y));
}

/**
 * sluice_lessons_list:
 *
 * Reads every lesson, in the locale's language. A file that does not load
 * or has no [lesson] group is left out with a warning: the gallery shows
 * the others.
 *
 * Returns: (transfer full) (element-type SluiceScenario): the lessons in
 *   their order; empty if there is no lesson folder
 */
GPtrArray *
sluice_lessons_list (void)
{
  GPtrArray *lessons = g_ptr_array_new_with_free_func (g_object_unref);
  const char *path = sluice_lessons_get_dir ();
  g_autoptr(GDir) dir = path ? g_dir_open (path, 0, NULL) : NULL;
  const char *file;

  while (dir != NULL && (file = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *full = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = NULL;

      if (!g_str_has_suffix (file, ".pool"))
        continue;

      full = g_build_filename (path, file, NULL);
      scenario = sluice_scenario_new_from_file (full, NULL, &error);
      if (scenario == NULL)
        g_warning ("%s", error->message);
      else if (sluice_scenario_get_lesson (scenario) == NULL)
        g_warning ("%s: no [lesson] group; expected every file of the lessons folder to be a lesson", full);
      else
        g_ptr_array_add (lessons, g_steal_pointer (&scenario));
    }

  g_ptr_array_sort (lessons, compare_order);
  return lessons;
}

/**
 * sluice_lessons_get_name:
 * @lesson: a lesson read from its file
 *
 * Returns: (transfer full): its name: the file name without `.pool`, as
 *   `next` names a lesson
 */
char *
sluice_lessons_get_name (SluiceScenario *lesson)
{
  char *name = g_path_get_basename (sluice_scenario_get_name (lesson));

  if (g_str_has_suffix (name, ".pool"))
    name[strlen (name) - strlen (".pool")] = '\0';
  return name;
}

/**
 * sluice_lessons_find:
 * @name: a lesson's name, its file name without `.pool`
 *
 * Returns: (transfer full) (nullable): the path of the lesson, or %NULL
 */
char *
sluice_lessons_find (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  return _sluice_find_pool_file (sluice_lessons_get_dir (), name);
}
