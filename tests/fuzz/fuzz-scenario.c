/* fuzz-scenario.c: a libFuzzer target for the scenario loader
 *
 * Any input either is refused with a SLUICE_SCENARIO_ERROR, or loads; a
 * scenario that loads is saved, and the saved text loads back as the same
 * scenario (every setting, compared by _sluice_scenario_equal()) and saves
 * to the same text. A difference, a crash, a sanitizer report or any GLib
 * warning or critical aborts.
 *
 * Built with -Dfuzzing=true and clang (see tests/fuzz/meson.build);
 * scripts/fuzz runs it over the seed corpus tests/fuzz/corpus, tests/scenarios,
 * data/presets and data/lessons.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>

#include "fuzz-common.h"
#include "sluice-scenario.h"
#include "sluice-scenario-private.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

G_GNUC_NORETURN static void
fail (const char *what,
      const char *text,
      const char *saved)
{
  fprintf (stderr, "fuzz-scenario: %s\n--- saved text ---\n%s\n--- input ---\n%s\n", what, saved, text);
  abort ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_autofree char *saved = NULL;
  g_autofree char *saved_again = NULL;
  const char *difference = NULL;
  gsize length = 0;

  scenario = sluice_scenario_new_from_data ((const char *) data, (gssize) size, "fuzz.pool", NULL, &error);
  if (scenario == NULL)
    {
      /* Refused: with a message of the scenario domain that names the file. */
      if (error == NULL || error->domain != SLUICE_SCENARIO_ERROR ||
          !g_str_has_prefix (error->message, "fuzz.pool"))
        fail ("refused without a scenario error naming the file", text, "");
      return 0;
    }
  g_assert_no_error (error);

  saved = sluice_scenario_to_data (scenario, &length);
  again = sluice_scenario_new_from_data (saved, (gssize) length, "fuzz.pool", NULL, &error);
  if (again == NULL)
    {
      g_autofree char *what = g_strdup_printf ("the saved scenario does not load: %s", error->message);
      fail (what, text, saved);
    }

  if (!_sluice_scenario_equal (scenario, again, &difference))
    {
      g_autofree char *what = g_strdup_printf ("%s differs after a round trip", difference);
      fail (what, text, saved);
    }

  saved_again = sluice_scenario_to_data (again, NULL);
  if (g_strcmp0 (saved, saved_again) != 0)
    fail ("saving the reloaded scenario gives another text", text, saved);

  return 0;
}
