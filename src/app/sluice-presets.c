/* sluice-presets.c: where the preset scenarios are
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-presets.h"
#include "sluice-scenario.h"

/*
 * The presets are the .pool files of data/presets. They are found in $SLUICE_PRESETS_DIR
 * (an uninstalled run sets it to the source tree's data/presets), else where
 * `meson install` put them. The build and source trees are never compiled in.
 */

/* The first of @env's folder and @installed that exists: how the presets
 * and the lessons are found (sluice-lessons.c). */
const char *
_sluice_find_data_dir (const char *env,
                       const char *installed)
{
  const char *candidates[] = { g_getenv (env), installed };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    if (candidates[i] != NULL && *candidates[i] != '\0' &&
        g_file_test (candidates[i], G_FILE_TEST_IS_DIR))
      return candidates[i];

  return NULL;
}

/* @name's .pool file in @dir (with or without `.pool`), or NULL: a name
 * with a folder in it is refused. */
char *
_sluice_find_pool_file (const char *dir,
                        const char *name)
{
  g_autofree char *file = NULL;
  char *path;

  if (dir == NULL || *name == '\0' || strchr (name, G_DIR_SEPARATOR) != NULL)
    return NULL;

  file = g_str_has_suffix (name, ".pool") ? g_strdup (name) : g_strconcat (name, ".pool", NULL);
  path = g_build_filename (dir, file, NULL);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&path, g_free);

  return path;
}

/**
 * sluice_presets_get_dir:
 *
 * Returns: (nullable): the folder of the presets, or %NULL if none exists
 */
const char *
sluice_presets_get_dir (void)
{
  return _sluice_find_data_dir ("SLUICE_PRESETS_DIR", SLUICE_INSTALLED_PRESETS_DIR);
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
  g_return_val_if_fail (name != NULL, NULL);

  return _sluice_find_pool_file (sluice_presets_get_dir (), name);
}

static char *
preset_label (const char *name)
{
  g_autofree char *path = sluice_presets_find (name);
  g_autoptr(SluiceScenario) scenario = path ? sluice_scenario_new_from_file (path, NULL, NULL) : NULL;
  const char *title = scenario ? sluice_scenario_get_title (scenario) : NULL;

  return g_strdup (title ? title : name);
}

/* The presets in teaching order: what a workshop shows first comes first.
 * A preset that is in no group (one a user added) goes under "More". */
static const struct {
  const char *title;
  const char *names[12];
} groups[] = {
  { N_("Basics"),
    { "first-look", "ok", "mix", "duplicates", "broken-metrics", "block", "thread",
      "service-ten-images", "service-observed", NULL } },
  { N_("Failures and retries"),
    { "fail", "fail-always", "keep-going", "retries", "retry-storm", "retry-storm-jitter",
      "retry-budget", "disk-full", "service-disk-full", NULL } },
  { N_("Cancellation and deadlines"),
    { "hang", "late", "stubborn", "cancel-self", "cancel-after-seconds", "deadline-shed",
      "service-abandoned-job", NULL } },
  { N_("Shutdown"),
    { "stop-after", "close-after", "shutdown-deadline", "shutdown-overrun", NULL } },
  { N_("Source faults"),
    { "source-raise", "source-cancel", "source-hang", "source-interval", NULL } },
};

/**
 * sluice_presets_get_group:
 * @name: a preset name
 *
 * Returns: the index of the group @name is in, in teaching
 *   order, or -1 when it is in none
 */
gint
sluice_presets_get_group (const char *name)
{
  g_return_val_if_fail (name != NULL, -1);

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    for (guint i = 0; groups[g].names[i] != NULL; i++)
      if (g_str_equal (groups[g].names[i], name))
        return (gint) g;

  return -1;
}

static void
append_preset (GMenu      *section,
               const char *name,
               const char *action)
{
  g_autofree char *label = preset_label (name);
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target (item, action, "s", name);
  g_menu_append_item (section, item);
}

/**
 * sluice_presets_fill_menu:
 * @menu: the menu to append to
 * @action: the detailed action name to call with the preset's name, such
 *   as `win.open-preset`
 *
 * Appends one section per group of presets, in teaching order, with one
 * item per preset labelled with the title of its scenario; presets in no
 * group come last, under "More".
 */
void
sluice_presets_fill_menu (GMenu      *menu,
                          const char *action)
{
  g_auto(GStrv) names = sluice_presets_list_names ();
  g_autoptr(GMenu) more = g_menu_new ();

  g_return_if_fail (G_IS_MENU (menu));

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      g_autoptr(GMenu) section = g_menu_new ();

      for (guint i = 0; groups[g].names[i] != NULL; i++)
        if (g_strv_contains ((const char * const *) names, groups[g].names[i]))
          append_preset (section, groups[g].names[i], action);
      if (g_menu_model_get_n_items (G_MENU_MODEL (section)) > 0)
        g_menu_append_section (menu, _(groups[g].title), G_MENU_MODEL (section));
    }

  for (guint i = 0; names[i] != NULL; i++)
    if (sluice_presets_get_group (names[i]) < 0)
      append_preset (more, names[i], action);
  if (g_menu_model_get_n_items (G_MENU_MODEL (more)) > 0)
    /* Translators: the presets menu's last section, of presets in no group. */
    g_menu_append_section (menu, _("More"), G_MENU_MODEL (more));
}
