/* run-fixture.c: a preset run on the virtual clock into a recorder, for the
 * tests of what is drawn and said from a recorded run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "run-fixture.h"
#include "sluice-scenario-runner.h"

/* Runs data/presets/@name.pool on the virtual clock, its settings
 * overridden by @sets ("group.key=value", NULL-terminated, may be NULL),
 * and returns what it recorded; the scenario that ran in @scenario_out. */
SluiceRecorder *
run_fixture_record_preset (const char          *name,
                           const char * const  *sets,
                           SluiceScenario     **scenario_out)
{
  g_autoptr(GPtrArray) overrides = g_ptr_array_new ();
  g_autofree char *file = g_strconcat (name, ".pool", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  SluiceRecorder *recorder = sluice_recorder_new (0);

  g_ptr_array_add (overrides, (gpointer) "run.clock=virtual");
  for (guint i = 0; sets != NULL && sets[i] != NULL; i++)
    g_ptr_array_add (overrides, (gpointer) sets[i]);
  g_ptr_array_add (overrides, NULL);

  scenario = sluice_scenario_new_from_file (path, (const char **) overrides->pdata, &error);
  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_recorder (runner, recorder);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);

  if (scenario_out != NULL)
    *scenario_out = g_steal_pointer (&scenario);
  return recorder;
}

/* The timeline of @name's run on the virtual clock. */
SluiceTimeline *
run_fixture_timeline_of (const char      *name,
                         SluiceScenario **scenario_out)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset (name, NULL, &scenario);
  SluiceTimeline *model = sluice_timeline_new (sluice_scenario_get_workers (scenario));

  sluice_timeline_update (model, recorder);
  if (scenario_out != NULL)
    *scenario_out = g_steal_pointer (&scenario);
  return model;
}

static const char *
random_delay (GRand *rand)
{
  static const char * const delays[] = { "0", "0.01", "0.05", "0.1", "0.2" };

  return delays[g_rand_int_range (rand, 0, G_N_ELEMENTS (delays))];
}

static char *
random_behaviour (GRand *rand)
{
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      return g_strdup_printf ("fail %d ValueError %s", g_rand_int_range (rand, 1, 3), random_delay (rand));
    case 1:
      return g_strdup_printf ("fail-always ValueError %s", random_delay (rand));
    case 2:
      return g_strdup_printf ("fail 1 TypeError %s", random_delay (rand));
    case 3:
      return g_strdup ("hang");
    default:
      return g_strdup_printf ("ok %s", random_delay (rand));
    }
}

/* A small random stream scenario on the virtual clock, as `.pool` text:
 * workers, queue, timeout, retries, keep-going and a behaviour for some
 * items. */
char *
run_fixture_random_scenario (GRand *rand)
{
  GString *text = g_string_new ("[scenario]\ntitle=Random\n\n[pool]\n");
  guint count = (guint) g_rand_int_range (rand, 1, 16);

  g_string_append_printf (text, "workers=%d\nqueue-size=%d\nitem-timeout=0.3\nmax-retries=%d\n",
                          g_rand_int_range (rand, 1, 5), g_rand_int_range (rand, 1, 5),
                          g_rand_int_range (rand, 0, 3));
  g_string_append_printf (text, "retryable=%s\nkeep-going=%s\n\n[source]\ncount=%u\n\n[handler]\ndefault=ok %s\n",
                          g_rand_boolean (rand) ? "ValueError;TimeoutError" : "ValueError",
                          g_rand_boolean (rand) ? "true" : "false", count, random_delay (rand));
  for (guint i = 0; i < count; i++)
    if (g_rand_int_range (rand, 0, 3) == 0)
      {
        g_autofree char *behaviour = random_behaviour (rand);

        g_string_append_printf (text, "item.%u=%s\n", i, behaviour);
      }
  g_string_append (text, "\n[run]\nclock=virtual\n");
  return g_string_free (text, FALSE);
}

/* The scenario file at @path run alone on the virtual clock, as
 * `sluice-run --clock virtual` and the compare window run it. */
SluiceReport *
run_fixture_run_file (const char *path)
{
  const char * const overrides[] = { "run.clock=virtual", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (path, overrides, &error);
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  SluiceReport *report;

  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  return report;
}
