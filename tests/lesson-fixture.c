/* lesson-fixture.c: the lessons of data/lessons, for the tests of lessons
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "lesson-fixture.h"
#include "sluice-report.h"
#include "sluice-scenario-runner.h"

static char *
lessons_dir (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", "data", "lessons", NULL);
}

/* The names of the lessons (their files without .pool), in no order. */
GPtrArray *
lesson_fixture_list (void)
{
  g_autofree char *dir = lessons_dir ();
  g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *file;

  while (folder != NULL && (file = g_dir_read_name (folder)) != NULL)
    if (g_str_has_suffix (file, ".pool"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - strlen (".pool")));

  return names;
}

/* A lesson, on the virtual clock if asked. */
SluiceScenario *
lesson_fixture_load (const char *name,
                     gboolean    virtual_clock)
{
  g_autofree char *dir = lessons_dir ();
  g_autofree char *file = g_strconcat (name, ".pool", NULL);
  g_autofree char *path = g_build_filename (dir, file, NULL);
  const char *virtual[] = { "run.clock=virtual", NULL };
  g_autoptr(GError) error = NULL;
  SluiceScenario *scenario = sluice_scenario_new_from_file (path, virtual_clock ? virtual : NULL, &error);

  g_assert_no_error (error);
  return scenario;
}

/* The JSON report of a run of @scenario. */
JsonNode *
lesson_fixture_report (SluiceScenario *scenario)
{
  g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (scenario);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceReport) report = sluice_scenario_runner_run (runner, &error);

  g_assert_no_error (error);
  return sluice_report_to_json (report);
}

/* A number with a decimal point between digits ("0.3", not "q + 1."):
 * what German text must not have. */
gboolean
lesson_fixture_has_decimal_point (const char *text)
{
  for (const char *c = text; c[0] != '\0' && c[1] != '\0'; c++)
    if (c > text && g_ascii_isdigit (c[-1]) && c[0] == '.' && g_ascii_isdigit (c[1]))
      return TRUE;
  return FALSE;
}
