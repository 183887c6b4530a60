/* sluice-presets.c: where the preset scenarios are
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <string.h>

#include "sluice-presets.h"
#include "sluice-scenario.h"

/*
 * The presets are the .pool files of data/presets. They are found in $SLUICE_PRESETS_DIR,
 * then in the source tree (running from the build tree), then where
 * `meson install` put them.
 */

/**
 * sluice_presets_get_dir:
 *
 * Returns: (nullable): the folder of the presets, or %NULL if none exists
 */
const char *
sluice_presets_get_dir (void)
{
  const char *candidates[] = {
    g_getenv ("SLUICE_PRESETS_DIR"),
    SLUICE_SOURCE_PRESETS_DIR,
    SLUICE_INSTALLED_PRESETS_DIR,
  };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL && *candidates[i] != '\0' &&
        g_file_test (candidates[i], G_FILE_TEST_IS_DIR))
      return candidates[i];

  return NULL;
}

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * sluice_presets_list_names:
 *
 * Returns: (transfer full): the names of the presets (file names without
 *   `.pool`), sorted; empty if there is no preset folder
 */
GStrv
sluice_presets_list_names (void)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *path = sluice_presets_get_dir ();
  g_autoptr(GDir) dir = path ? g_dir_open (path, 0, NULL) : NULL;
  const char *file;

  while (dir != NULL && (file = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (file, ".pool"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - strlen (".pool")));

  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return (GStrv) g_ptr_array_free (g_steal_pointer (&names), FALSE);
}

/**
 * sluice_presets_find:
 * @name: a preset name such as `retries`, with or without `.pool`
 *
 * Returns: (transfer full) (nullable): the path of the preset, or %NULL
 */
char *
sluice_presets_find (const char *name)
{
  const char *dir = sluice_presets_get_dir ();
  g_autofree char *file = NULL;
  char *path;

  g_return_val_if_fail (name != NULL, NULL);

  if (dir == NULL || *name == '\0' || strchr (name, G_DIR_SEPARATOR) != NULL)
    return NULL;

  file = g_str_has_suffix (name, ".pool") ? g_strdup (name) : g_strconcat (name, ".pool", NULL);
  path = g_build_filename (dir, file, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&path, g_free);

  return path;
}

static char *
preset_label (const char *name)
{
  g_autofree char *path = sluice_presets_find (name);
  g_autoptr(SluiceScenario) scenario = path ? sluice_scenario_new_from_file (path, NULL, NULL) : NULL;
  const char *title = scenario ? sluice_scenario_get_title (scenario) : NULL;

  return g_strdup (title ? title : name);
}

/**
 * sluice_presets_fill_menu:
 * @menu: the menu to append to
 * @action: the detailed action name to call with the preset's name, such
 *   as `win.open-preset`
 *
 * Appends one item per preset, labelled with the title of its scenario.
 */
void
sluice_presets_fill_menu (GMenu      *menu,
                          const char *action)
{
  g_auto(GStrv) names = sluice_presets_list_names ();

  g_return_if_fail (G_IS_MENU (menu));

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *label = preset_label (names[i]);
      g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

      g_menu_item_set_action_and_target (item, action, "s", names[i]);
      g_menu_append_item (menu, item);
    }
}
