/* test-config-fields.c: the config panel's fields as data, without a
 * display: numbers typed the locale's way
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>
#include <string.h>

#include "sluice-config-fields-private.h"
#include "sluice-scenario.h"

static void
assert_delocalized (const char *typed,
                    const char *decimal_point,
                    const char *expected)
{
  g_autofree char *text = _sluice_config_delocalize_numbers (typed, decimal_point);

  g_assert_cmpstr (text, ==, expected);
}

/* With an explicit separator: every word that is a number written with it
 * gets “.”; “.” numbers and everything else stay as typed. */
static void
test_delocalize_with_separator (void)
{
  assert_delocalized ("0,5", ",", "0.5");
  assert_delocalized ("0.5", ",", "0.5");
  assert_delocalized (",5", ",", ".5");
  assert_delocalized ("1,", ",", "1.");  /* as the loader reads “1.” */
  assert_delocalized ("-1,5e-3", ",", "-1.5e-3");
  assert_delocalized (" 2,25 ", ",", " 2.25 ");
  assert_delocalized ("ok 0,25", ",", "ok 0.25");
  assert_delocalized ("fail 2 ConnectionError 0,05", ",", "fail 2 ConnectionError 0.05");
  assert_delocalized ("0,005;0,5", ",", "0.005;0.5");
  assert_delocalized ("3 = late 1,5\n4=ok 0,1", ",", "3 = late 1.5\n4=ok 0.1");
  /* Not numbers: left for the loader to refuse as typed. */
  assert_delocalized ("1,2,3", ",", "1,2,3");
  assert_delocalized ("0,5x", ",", "0,5x");
  assert_delocalized ("a,5", ",", "a,5");
  assert_delocalized (",", ",", ",");
  assert_delocalized ("", ",", "");
  assert_delocalized ("ValueError;TimeoutError", ",", "ValueError;TimeoutError");
  /* A separator of more than one byte (U+066B, Arabic), and “.” itself. */
  assert_delocalized ("0\xd9\xab" "5", "\xd9\xab", "0.5");
  assert_delocalized ("0,5", ".", "0,5");
  assert_delocalized ("0,5", "", "0,5");
}

/* Which fields take them: not the source's values (“1,5” is a string
 * item), not the mix (“,” separates its entries), not the drop-downs. */
static void
test_fields_that_take_local_numbers (void)
{
  static const struct { const char *group, *key; gboolean takes; } cases[] = {
    { "pool", "item-timeout", TRUE },
    { "pool", "shutdown-timeout", TRUE },
    { "retry", "base", TRUE },
    { "retry", "budget-ratio", TRUE },
    { "source", "interval", TRUE },
    { "handler", "default", TRUE },
    { "handler", "item.*", TRUE },
    { "submit", "snapshot-at", TRUE },
    { "submit", "give-up.*", TRUE },
    { "run", "cancel-after-seconds", TRUE },
    { "source", "values", FALSE },
    { "handler", "mix", FALSE },
    { "pool", "metrics", FALSE },
    { "pool", "keep-going", FALSE },
    { "run", "clock", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gint field = _sluice_config_find_field (cases[i].group, cases[i].key);

      g_assert_cmpint (field, >=, 0);
      g_assert_cmpint (_sluice_config_field_takes_local_numbers (&_sluice_config_fields[field]), ==,
                       cases[i].takes);
    }
}

/* Under a German LC_NUMERIC (the separator is “,”), the locale's
 * separator is taken by default, and what the fields give the file loads
 * and saves with “.”. */
static void
test_delocalize_german_locale (void)
{
  g_autofree char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *timeout = NULL, *item = NULL, *data = NULL;
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale (LC_NUMERIC, "de_DE.utf8") == NULL)
    {
      g_test_skip ("the de_DE.UTF-8 locale is not installed (scripts/setup-deps generates it)");
      return;
    }
  g_assert_cmpstr (localeconv ()->decimal_point, ==, ",");

  assert_delocalized ("0,5", NULL, "0.5");
  assert_delocalized ("0.5", NULL, "0.5");
  timeout = _sluice_config_delocalize_numbers ("0,75", NULL);
  item = _sluice_config_delocalize_numbers ("ok 0,25", NULL);

  g_key_file_set_value (keyfile, "pool", "workers", "1");
  g_key_file_set_value (keyfile, "pool", "queue-size", "1");
  g_key_file_set_value (keyfile, "pool", "item-timeout", timeout);
  g_key_file_set_value (keyfile, "source", "count", "1");
  g_key_file_set_value (keyfile, "handler", "item.0", item);
  scenario = sluice_scenario_new_from_keyfile (keyfile, "test.pool", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (sluice_scenario_get_item_timeout (scenario), ==, 0.75);

  /* Saved as the format says, whatever the locale. */
  data = sluice_scenario_to_data (scenario, NULL);
  g_test_message ("%s", data);
  g_assert_nonnull (strstr (data, "item-timeout=0.75\n"));
  g_assert_nonnull (strstr (data, "item.0=ok 0.25\n"));
  g_assert_null (strstr (data, "0,"));

  setlocale (LC_NUMERIC, old);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/config-fields/delocalize/with-separator", test_delocalize_with_separator);
  g_test_add_func ("/config-fields/delocalize/fields", test_fields_that_take_local_numbers);
  g_test_add_func ("/config-fields/delocalize/german-locale", test_delocalize_german_locale);

  return g_test_run ();
}
