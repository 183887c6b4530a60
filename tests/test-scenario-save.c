/* test-scenario-save.c: saving a scenario over the file it came from keeps
 * the file's comments, blank lines, key order and the values that read the
 * same (sluice_scenario_update_data(), issue 12)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "sluice-scenario.h"
#define GETTEXT_PACKAGE "sluice"   /* for the private header's gi18n-lib.h */
#include "sluice-scenario-private.h"

static SluiceScenario *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  SluiceScenario *scenario = sluice_scenario_new_from_data (text, -1, "test.pool", NULL, &error);

  g_assert_no_error (error);
  return scenario;
}

/* Saves the scenario of @edited over @original: the text is @expected,
 * and it reads back as the scenario of @edited. */
static void
assert_saved_over (const char *original,
                   const char *edited,
                   const char *expected)
{
  g_autoptr(SluiceScenario) scenario = parse (edited);
  g_autoptr(SluiceScenario) again = NULL;
  g_autofree char *text = sluice_scenario_update_data (scenario, original);
  const char *difference = NULL;

  g_assert_cmpstr (text, ==, expected);
  again = parse (text);
  if (!_sluice_scenario_equal (scenario, again, &difference))
    g_error ("%s differs after saving over the file:\n%s", difference, text);
}

#define COMMENTED \
  "# A scenario written by hand.\n" \
  "[scenario]\n" \
  "title=Two workers\n" \
  "title[de]=Zwei Worker\n" \
  "\n" \
  "[pool]\n" \
  "# how many run at once\n" \
  "workers = 2\n" \
  "queue-size=1\n" \
  "item-timeout=0.50\n" \
  "keep-going=false\n" \
  "\n" \
  "# the items\n" \
  "[source]\n" \
  "count=4\n" \
  "raise-after=3\n" \
  "\n" \
  "[handler]\n" \
  "default=ok 0.1\n" \
  "\n" \
  "[run]\n" \
  "clock=virtual\n"

static void
test_unchanged_saves_the_same_text (void)
{
  assert_saved_over (COMMENTED, COMMENTED, COMMENTED);
}

/* A changed value goes on its own line, with the key's spacing; every
 * comment and blank line and the order stay. */
static void
test_changed_value_keeps_comments_and_order (void)
{
  g_autofree char *edited = g_strdup (COMMENTED);
  g_autofree char *expected = NULL;
  char *at = strstr (edited, "workers = 2");

  at[strlen ("workers = ")] = '5';
  expected = g_strdup (edited);
  assert_saved_over (COMMENTED, edited, expected);
}

/* A key the file lacks goes after the last key of its group, above the
 * comment of the next group; a new group goes at the end. */
static void
test_new_keys_go_to_the_end_of_their_group (void)
{
  const char *edited =
    "[scenario]\ntitle=Two workers\ntitle[de]=Zwei Worker\n"
    "[pool]\nworkers=2\nqueue-size=1\nitem-timeout=0.5\nkeep-going=false\nmax-retries=7\n"
    "[source]\ncount=4\nraise-after=3\ninterval=0.25\n"
    "[handler]\ndefault=ok 0.1\n[run]\nclock=virtual\n"
    "[retry]\nbackoff=exponential\nbase=0.2\n";
  const char *expected =
    "# A scenario written by hand.\n"
    "[scenario]\n"
    "title=Two workers\n"
    "title[de]=Zwei Worker\n"
    "\n"
    "[pool]\n"
    "# how many run at once\n"
    "workers = 2\n"
    "queue-size=1\n"
    "item-timeout=0.50\n"
    "keep-going=false\n"
    "max-retries=7\n"
    "\n"
    "# the items\n"
    "[source]\n"
    "count=4\n"
    "raise-after=3\n"
    "interval=0.25\n"
    "\n"
    "[handler]\n"
    "default=ok 0.1\n"
    "\n"
    "[run]\n"
    "clock=virtual\n"
    "\n"
    "[retry]\n"
    "backoff=exponential\n"
    "base=0.2\n";

  assert_saved_over (COMMENTED, edited, expected);
}

/* A key the scenario no longer has (no source fault) goes; the comment
 * above its group stays. */
static void
test_keys_no_longer_needed_go (void)
{
  const char *edited =
    "[scenario]\ntitle=Two workers\ntitle[de]=Zwei Worker\n"
    "[pool]\nworkers=2\nqueue-size=1\nitem-timeout=0.5\n"
    "[source]\ncount=4\n[handler]\ndefault=ok 0.1\n[run]\nclock=virtual\n";
  g_autoptr(GString) expected = g_string_new (COMMENTED);

  g_string_replace (expected, "raise-after=3\n", "", 1);
  assert_saved_over (COMMENTED, edited, expected->str);
}

/* The title edited in German: title[de] changes where it stands, the
 * other languages stay. */
static void
test_edited_title_keeps_the_other_languages (void)
{
  g_autoptr(GString) edited = g_string_new (COMMENTED);

  g_string_replace (edited, "title[de]=Zwei Worker", "title[de]=Zwei fleißige Worker", 1);
  assert_saved_over (COMMENTED, edited->str, edited->str);
}

/* Whatever LC_NUMERIC says, the saved numbers have a ".". */
static void
test_numbers_are_saved_with_a_decimal_point (void)
{
  g_autofree char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autoptr(GString) edited = g_string_new (COMMENTED);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autofree char *text = NULL;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_test_skip ("the de_DE.UTF-8 locale is not installed (scripts/setup-deps generates it)");
      return;
    }

  g_string_replace (edited, "item-timeout=0.50", "item-timeout=0.75", 1);
  g_string_replace (edited, "count=4\n", "count=4\ninterval=0.125\n", 1);
  scenario = parse (edited->str);
  text = sluice_scenario_update_data (scenario, COMMENTED);
  setlocale (LC_NUMERIC, old);

  g_assert_nonnull (strstr (text, "\nitem-timeout=0.75\n"));
  g_assert_nonnull (strstr (text, "\ninterval=0.125\n"));
  g_assert_null (strstr (text, "0,"));
}

/* Every preset and every valid test scenario, saved unchanged over its
 * own file, is the same text. */
static void
test_every_file_saved_unchanged_is_the_same (void)
{
  const char *dirs[] = { "../data/presets", "scenarios" };
  guint n = 0;

  for (guint d = 0; d < G_N_ELEMENTS (dirs); d++)
    {
      g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, dirs[d], NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *name;

      g_assert_nonnull (dir);
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir_path, name, NULL);
          g_autofree char *data = NULL;
          g_autofree char *text = NULL;
          g_autoptr(SluiceScenario) scenario = NULL;

          if (!g_str_has_suffix (name, ".pool"))
            continue;
          scenario = sluice_scenario_new_from_file (path, NULL, NULL);
          if (scenario == NULL)
            continue;   /* a bad file: refused, nothing to save */

          g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
          text = sluice_scenario_update_data (scenario, data);
          /* The one change: a last line gets its end. */
          if (!g_str_has_suffix (data, "\n"))
            {
              g_autofree char *ended = g_strconcat (data, "\n", NULL);
              g_assert_cmpstr (text, ==, ended);
            }
          else
            g_assert_cmpstr (text, ==, data);
          n++;
        }
    }

  g_assert_cmpuint (n, >, 30);
}

/* The whole way, through a file: loaded, edited, saved over itself and
 * loaded again, with its comments. */
static void
test_save_over_file_keeps_comments (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sluice-save-over.pool", NULL);
  g_autoptr(GString) edited = g_string_new (COMMENTED);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  g_autofree char *data = NULL;

  g_assert_true (g_file_set_contents (path, COMMENTED, -1, NULL));
  g_string_replace (edited, "queue-size=1", "queue-size=6", 1);
  scenario = parse (edited->str);

  written = sluice_scenario_save_over_data (scenario, COMMENTED, path, &error);
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, NULL, NULL));
  g_assert_cmpstr (data, ==, written);
  g_assert_cmpstr (data, ==, edited->str);
  g_assert_nonnull (strstr (data, "# how many run at once\nworkers = 2\n"));

  again = sluice_scenario_new_from_file (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_queue_size (again), ==, 6);
  g_assert_true (_sluice_scenario_equal (scenario, again, NULL));
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scenario/save/in-place/unchanged-saves-the-same-text",
                   test_unchanged_saves_the_same_text);
  g_test_add_func ("/scenario/save/in-place/changed-value-keeps-comments-and-order",
                   test_changed_value_keeps_comments_and_order);
  g_test_add_func ("/scenario/save/in-place/new-keys-go-to-the-end-of-their-group",
                   test_new_keys_go_to_the_end_of_their_group);
  g_test_add_func ("/scenario/save/in-place/keys-no-longer-needed-go",
                   test_keys_no_longer_needed_go);
  g_test_add_func ("/scenario/save/in-place/edited-title-keeps-the-other-languages",
                   test_edited_title_keeps_the_other_languages);
  g_test_add_func ("/scenario/save/in-place/numbers-are-saved-with-a-decimal-point",
                   test_numbers_are_saved_with_a_decimal_point);
  g_test_add_func ("/scenario/save/in-place/every-file-saved-unchanged-is-the-same",
                   test_every_file_saved_unchanged_is_the_same);
  g_test_add_func ("/scenario/save/in-place/round-trip-through-a-file-keeps-comments",
                   test_save_over_file_keeps_comments);

  return g_test_run ();
}
