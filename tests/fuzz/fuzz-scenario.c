/* fuzz-scenario.c: a libFuzzer target for the scenario loader
 *
 * Any input either is refused with a SLUICE_SCENARIO_ERROR, or loads; a
 * scenario that loads is saved, and the saved text loads back as the same
 * scenario (every setting, compared by _sluice_scenario_equal()) and saves
 * to the same text. A difference, a crash, a sanitizer report or any GLib
 * warning or critical aborts.
 *
 * Built with -Dfuzzing=true and clang (see tests/fuzz/meson.build);
 * scripts/fuzz runs it over the seed corpus tests/fuzz/corpus.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "sluice-scenario.h"
#include "sluice-scenario-private.h"

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

/* Every message of GLib or of Sluice at warning level or above is a bug
 * here, as under G_DEBUG=fatal-warnings: print it and abort, so that
 * libFuzzer keeps the input. */
static GLogWriterOutput
fatal_writer (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  GLogWriterOutput output = g_log_writer_standard_streams (log_level, fields, n_fields, user_data);

  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_FLAG_FATAL))
    abort ();

  return output;
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  g_log_set_writer_func (fatal_writer, NULL, NULL);
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
