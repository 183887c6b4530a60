/* test-scenario.c: scenario files, the fault handler and source, reports, sluice-run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

#define MINIMAL "[pool]\nworkers=2\nqueue-size=2\nitem-timeout=1\n"

/* ---- parsing ----------------------------------------------------------- */

static SluiceScenario *
parse (const char  *text,
       GError     **error)
{
  return sluice_scenario_new_from_data (text, -1, "test.pool", NULL, error);
}

/* Asserts that @text is refused with @code and a message naming the file
 * and each of the words given. */
static void
assert_refused (const char *text,
                gssize      length,
                gint        code,
                ...)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  const char *word;
  va_list args;

  scenario = sluice_scenario_new_from_data (text, length, "test.pool", NULL, &error);
  g_assert_null (scenario);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "test.pool"));
  g_assert_nonnull (strstr (error->message, "expected"));

  va_start (args, code);
  while ((word = va_arg (args, const char *)) != NULL)
    if (strstr (error->message, word) == NULL)
      g_error ("“%s” is not in the message “%s”", word, error->message);
  va_end (args);
}

static void
test_parse_minimal (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  scenario = parse (MINIMAL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, 2);
  g_assert_cmpint (sluice_scenario_get_queue_size (scenario), ==, 2);
  g_assert_cmpfloat (sluice_scenario_get_item_timeout (scenario), ==, 1.0);
  /* The defaults of the spec. */
  g_assert_cmpint (sluice_scenario_get_max_retries (scenario), ==, 0);
  g_assert_cmpstrv (sluice_scenario_get_retryable (scenario), ((const char *[]) { NULL }));
  g_assert_cmpint (sluice_scenario_get_metrics (scenario), ==, SLUICE_METRICS_OFF);
  g_assert_false (sluice_scenario_get_keep_going (scenario));
  g_assert_cmpint (sluice_scenario_get_default_behaviour (scenario)->kind, ==, SLUICE_BEHAVIOUR_OK);
  g_assert_cmpuint (sluice_scenario_get_items (scenario)->len, ==, 0);
  g_assert_cmpfloat (sluice_scenario_get_interval (scenario), ==, 0);
  g_assert_cmpint (sluice_scenario_get_stop_after (scenario), ==, -1);
  g_assert_cmpint (sluice_scenario_get_close_after (scenario), ==, 0);
  g_assert_cmpfloat (sluice_scenario_get_cancel_after (scenario), <, 0);
  g_assert_cmpint (sluice_scenario_get_clock_kind (scenario), ==, SLUICE_CLOCK_REAL);
}

static void
test_parse_full (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  const SluiceBehaviour *b;
  GPtrArray *items, *mix;
  guint after = 0;

  scenario = parse ("# a comment\n[scenario]\ntitle=T\ndescription=D\n"
                    "[pool]\nworkers=3\nqueue-size=4\nitem-timeout=0.5\nmax-retries=2\n"
                    "retryable=TimeoutError;ValueError\nmetrics=broken\nkeep-going=true\n"
                    "[source]\nvalues=3;-1;\"7\";x\ninterval=0.25\nraise-after=2\n"
                    "[handler]\ndefault=fail 2 ValueError 0.1\nitem.3=stubborn 4\n"
                    "mix=80% ok 0.05, 15% fail 1 ConnectionError 0.01, 5% hang\nseed=42\n"
                    "[run]\nstop-after=3\nclose-after=2\ncancel-after-seconds=1.5\nclock=virtual\n",
                    &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_scenario_get_title (scenario), ==, "T");
  g_assert_cmpstrv (sluice_scenario_get_retryable (scenario),
                    ((const char *[]) { "TimeoutError", "ValueError", NULL }));
  g_assert_cmpint (sluice_scenario_get_metrics (scenario), ==, SLUICE_METRICS_BROKEN);
  g_assert_true (sluice_scenario_get_keep_going (scenario));

  items = sluice_scenario_get_items (scenario);
  g_assert_cmpuint (items->len, ==, 4);
  g_assert_cmpint (g_variant_get_int64 (g_ptr_array_index (items, 0)), ==, 3);
  g_assert_cmpint (g_variant_get_int64 (g_ptr_array_index (items, 1)), ==, -1);
  g_assert_cmpstr (g_variant_get_string (g_ptr_array_index (items, 2), NULL), ==, "7");
  g_assert_cmpstr (g_variant_get_string (g_ptr_array_index (items, 3), NULL), ==, "x");
  g_assert_cmpint (sluice_scenario_get_source_fault (scenario, &after), ==, SLUICE_SOURCE_FAULT_RAISE);
  g_assert_cmpuint (after, ==, 2);

  b = sluice_scenario_get_default_behaviour (scenario);
  g_assert_cmpint (b->kind, ==, SLUICE_BEHAVIOUR_FAIL);
  g_assert_cmpuint (b->failures, ==, 2);
  g_assert_cmpstr (b->error_type, ==, "ValueError");
  g_assert_cmpfloat (b->delay, ==, 0.1);
  b = sluice_scenario_get_item_behaviour (scenario, 3);
  g_assert_cmpint (b->kind, ==, SLUICE_BEHAVIOUR_STUBBORN);
  mix = sluice_scenario_get_mix (scenario);
  g_assert_cmpuint (mix->len, ==, 3);
  g_assert_cmpuint (sluice_scenario_get_seed (scenario), ==, 42);

  g_assert_cmpint (sluice_scenario_get_close_after (scenario), ==, 2);
  g_assert_cmpfloat (sluice_scenario_get_cancel_after (scenario), ==, 1.5);
  g_assert_cmpint (sluice_scenario_get_clock_kind (scenario), ==, SLUICE_CLOCK_VIRTUAL);
}

static void
test_parse_malformed (void)
{
  static const char garbage[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00\xff\xfe\n\x89PNG";

  /* unknown key, unknown group */
  assert_refused (MINIMAL "wrokers=3\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[pool] wrokers", ":5:", "queue-size", NULL);
  assert_refused (MINIMAL "[pools]\nx=1\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP, "[pools]", NULL);
  /* bad numbers, out of range */
  assert_refused ("[pool]\nworkers=three\nqueue-size=2\nitem-timeout=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, ":2:", "[pool] workers", "three", "integer", NULL);
  assert_refused ("[pool]\nworkers=-1\nqueue-size=2\nitem-timeout=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] workers", "-1", "out of range", NULL);
  assert_refused ("[pool]\nworkers=0\nqueue-size=2\nitem-timeout=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] workers", NULL);
  assert_refused ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=0\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] item-timeout", "> 0", NULL);
  assert_refused ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=nan\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] item-timeout", NULL);
  assert_refused ("[pool]\nworkers=2 # two\nqueue-size=2\nitem-timeout=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] workers", NULL);
  assert_refused (MINIMAL "max-retries=-2\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "max-retries", NULL);
  assert_refused (MINIMAL "metrics=yes\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "off | on | broken", NULL);
  assert_refused (MINIMAL "keep-going=maybe\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "true or false", NULL);
  assert_refused (MINIMAL "[source]\ncount=2.5\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[source] count", NULL);
  assert_refused (MINIMAL "[source]\ninterval=-1\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "interval", NULL);
  /* required keys */
  assert_refused ("[pool]\nworkers=2\nitem-timeout=1\n", -1, SLUICE_SCENARIO_ERROR_MISSING_KEY,
                  "[pool] queue-size", NULL);
  assert_refused ("[scenario]\ntitle=x\n", -1, SLUICE_SCENARIO_ERROR_MISSING_KEY, "[pool] workers", NULL);
  /* behaviours and error types */
  assert_refused (MINIMAL "[handler]\ndefault=explode\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[handler] default", "explode", "fail K TYPE", NULL);
  assert_refused (MINIMAL "[handler]\ndefault=late\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "late", NULL);
  assert_refused (MINIMAL "[handler]\ndefault=ok soon\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "soon", NULL);
  assert_refused (MINIMAL "[handler]\ndefault=fail x ValueError\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "x", NULL);
  assert_refused (MINIMAL "[handler]\ndefault=fail 1 9Lives\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "9Lives", "error type", NULL);
  assert_refused (MINIMAL "[handler]\ndefault=fail-always Value-Error\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "Value-Error", NULL);
  assert_refused (MINIMAL "retryable=ValueError;not a type\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[pool] retryable", "not a type", NULL);
  assert_refused (MINIMAL "[handler]\nmix=80 ok, 20% hang\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "mix", NULL);
  assert_refused (MINIMAL "[handler]\nmix=0% ok\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "mix", NULL);
  assert_refused (MINIMAL "[handler]\nitem.x=ok\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY, "item.x", NULL);
  /* cross-checks */
  assert_refused (MINIMAL "[source]\ncount=2\nvalues=1;2\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "count", "values", NULL);
  assert_refused (MINIMAL "[source]\ncount=2\n[handler]\nitem.2=hang\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[handler] item.2", NULL);
  assert_refused (MINIMAL "[run]\nclose-after=0\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "close-after", NULL);
  assert_refused (MINIMAL "[run]\nstop-after=-2\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "stop-after", NULL);
  assert_refused (MINIMAL "[run]\nclock=fast\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "real | virtual", NULL);
  assert_refused (MINIMAL "[source]\ncount=3\nraise-after=1\nhang-after=2\n", -1,
                  SLUICE_SCENARIO_ERROR_CONFLICT, "at most one", NULL);
  assert_refused (MINIMAL "[handler]\ndefault=block 0.1\n[run]\nclock=virtual\n", -1,
                  SLUICE_SCENARIO_ERROR_CONFLICT, "[handler] default", "real", NULL);
  assert_refused (MINIMAL "[source]\ncount=1\n[handler]\nitem.0=thread 1\n[run]\nclock=virtual\n", -1,
                  SLUICE_SCENARIO_ERROR_CONFLICT, "item.0", NULL);
  /* not a scenario at all */
  assert_refused ("", -1, SLUICE_SCENARIO_ERROR_PARSE, "empty", NULL);
  assert_refused ("# only a comment\n", -1, SLUICE_SCENARIO_ERROR_PARSE, NULL);
  assert_refused (garbage, sizeof garbage - 1, SLUICE_SCENARIO_ERROR_PARSE, "not a text file", NULL);
  assert_refused ("workers=3\n", -1, SLUICE_SCENARIO_ERROR_PARSE, NULL);
  assert_refused ("[pool\nworkers=3\n", -1, SLUICE_SCENARIO_ERROR_PARSE, NULL);
}

static void
test_parse_overrides (void)
{
  const char *sets[] = { "pool.workers=8", "handler.item.0=hang", "run.clock=virtual", NULL };
  const char *bad_set[] = { "workers=8", NULL };
  const char *bad_value[] = { "pool.workers=-8", NULL };
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  scenario = sluice_scenario_new_from_data (MINIMAL "[source]\ncount=1\n", -1, "test.pool", sets, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, 8);
  g_assert_cmpint (sluice_scenario_get_item_behaviour (scenario, 0)->kind, ==, SLUICE_BEHAVIOUR_HANG);
  g_assert_cmpint (sluice_scenario_get_clock_kind (scenario), ==, SLUICE_CLOCK_VIRTUAL);
  g_clear_object (&scenario);

  scenario = sluice_scenario_new_from_data (MINIMAL, -1, "test.pool", bad_set, &error);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_BAD_OVERRIDE);
  g_assert_nonnull (strstr (error->message, "group.key=value"));
  g_clear_error (&error);

  scenario = sluice_scenario_new_from_data (MINIMAL, -1, "test.pool", bad_value, &error);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "--set pool.workers"));
}

/* [scenario] title[LANG] and description[LANG] are translations, read for
 * the language of the messages (LANGUAGE first, as gettext does); no other
 * key takes a locale. */
#define TRANSLATED "[scenario]\ntitle=Round trip\ntitle[de]=Hin und zurück\ntitle[id]=Pulang pergi\n" \
                   "description=There; and back.\ndescription[de]=Hin; und zurück.\n" \
                   "description[id]=Pergi; lalu pulang.\n"

static char *
set_language (const char *language)
{
  char *old = g_strdup (g_getenv ("LANGUAGE"));

  g_setenv ("LANGUAGE", language, TRUE);
  return old;
}

static void
restore_language (char *old)
{
  if (old != NULL)
    g_setenv ("LANGUAGE", old, TRUE);
  else
    g_unsetenv ("LANGUAGE");
  g_free (old);
}

static void
test_parse_translations (void)
{
  const struct { const char *language, *title, *description; } cases[] = {
    { "C", "Round trip", "There; and back." },
    { "de", "Hin und zurück", "Hin; und zurück." },
    { "de_AT.UTF-8", "Hin und zurück", "Hin; und zurück." },
    { "id:de", "Pulang pergi", "Pergi; lalu pulang." },
    { "fr", "Round trip", "There; and back." },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      char *old = set_language (cases[i].language);
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(GError) error = NULL;

      scenario = parse (TRANSLATED MINIMAL, &error);
      restore_language (old);
      g_assert_no_error (error);
      g_assert_cmpstr (sluice_scenario_get_title (scenario), ==, cases[i].title);
      g_assert_cmpstr (sluice_scenario_get_description (scenario), ==, cases[i].description);
    }

  /* Only title and description take a locale, and only in [scenario]. */
  assert_refused ("[scenario]\nsubtitle[de]=x\n" MINIMAL, -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[scenario] subtitle[de]", "title, description", NULL);
  assert_refused ("[scenario]\ntitles[de]=x\n" MINIMAL, -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "titles[de]", NULL);
  assert_refused (MINIMAL "workers[de]=3\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[pool] workers[de]", NULL);
  assert_refused (MINIMAL "[run]\nstop-after[de]=3\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[run] stop-after[de]", NULL);
  assert_refused (MINIMAL "[handler]\ndefault[de]=ok\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[handler] default[de]", NULL);
  assert_refused ("[scenario]\nsubtitle=x\n" MINIMAL, -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[scenario] subtitle", NULL);
  assert_refused ("[scenario]\ntitle[]=x\n" MINIMAL, -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[scenario] title[]", NULL);
  /* Refused whatever the language: a key for another locale is not skipped. */
  {
    char *old = set_language ("fr");

    assert_refused (MINIMAL "workers[de]=3\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                    "[pool] workers[de]", NULL);
    assert_refused (MINIMAL "workers[fr]=3\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                    "[pool] workers[fr]", NULL);
    restore_language (old);
  }
}

static void
test_save_round_trip (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *data2 = NULL;

  scenario = parse ("[scenario]\ntitle=Round trip\n"
                    "[pool]\nworkers=3\nqueue-size=4\nitem-timeout=0.1\nretryable=ValueError\n"
                    "[source]\nvalues=1;\"two\";3\nhang-after=2\n"
                    "[handler]\ndefault=ok 0.1\nitem.1=fail 1 ValueError 0.2\nmix=1% hang, 3% late 0.5\nseed=7\n"
                    "[run]\nclose-after=2\nclock=virtual\n", &error);
  g_assert_no_error (error);

  data = sluice_scenario_to_data (scenario, NULL);
  again = parse (data, &error);
  g_assert_no_error (error);
  data2 = sluice_scenario_to_data (again, NULL);
  g_assert_cmpstr (data, ==, data2);
  g_assert_nonnull (strstr (data, "item-timeout=0.1\n"));
  g_assert_nonnull (strstr (data, "values=1;\"two\";3\n"));
}

/* Saving keeps every translation, and writes the untranslated title and
 * description as title= and description= whatever the language it was
 * read in. */
static void
test_save_translations (void)
{
  char *old = set_language ("de");
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *data2 = NULL;

  scenario = parse (TRANSLATED MINIMAL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_scenario_get_title (scenario), ==, "Hin und zurück");

  data = sluice_scenario_to_data (scenario, NULL);
  g_test_message ("%s", data);
  g_assert_true (g_str_has_prefix (data, TRANSLATED "\n[pool]\n"));

  again = parse (data, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_scenario_get_title (again), ==, "Hin und zurück");
  g_assert_cmpstr (sluice_scenario_get_description (again), ==, "Hin; und zurück.");
  data2 = sluice_scenario_to_data (again, NULL);
  g_assert_cmpstr (data, ==, data2);
  restore_language (old);

  g_clear_object (&again);
  again = parse (data, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_scenario_get_title (again), ==, "Round trip");

  /* --set replaces the untranslated text and keeps the translations. */
  {
    const char *overrides[] = { "scenario.title=Changed", NULL };
    g_autoptr(SluiceScenario) changed = NULL;
    g_autofree char *data3 = NULL;

    changed = sluice_scenario_new_from_data (TRANSLATED MINIMAL, -1, "test.pool", overrides, &error);
    g_assert_no_error (error);
    data3 = sluice_scenario_to_data (changed, NULL);
    g_assert_true (g_str_has_prefix (data3, "[scenario]\ntitle=Changed\ntitle[de]=Hin und zurück\n"));
  }

  /* A scenario with no [scenario] group is saved without one. */
  {
    g_autoptr(SluiceScenario) bare = parse (MINIMAL, &error);
    g_autofree char *data4 = NULL;

    g_assert_no_error (error);
    data4 = sluice_scenario_to_data (bare, NULL);
    g_assert_null (strstr (data4, "[scenario]"));
  }
}

/* ---- reports ----------------------------------------------------------- */

static const char *sluice_run_path (void);
static GSubprocess *spawn (const char * const *argv);
static gint finish_process (GSubprocess *process, char **out, char **err);

static JsonNode *
run_scenario (SluiceScenario *scenario)
{
  g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (scenario);
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  return sluice_report_to_json (report);
}

static void
assert_same_member (const char *name,
                    JsonNode   *expected,
                    JsonNode   *got)
{
  g_assert_nonnull (got);

  if (json_node_get_value_type (expected) == G_TYPE_DOUBLE)
    {
      g_assert_cmpfloat_with_epsilon (json_node_get_double (expected), json_node_get_double (got), 1e-6);
      return;
    }

  if (!json_node_equal (expected, got))
    {
      g_autofree char *e = json_to_string (expected, FALSE);
      g_autofree char *g = json_to_string (got, FALSE);
      g_error ("%s: expected %s, got %s", name, e, g);
    }
}

static void
test_report (gconstpointer data)
{
  const char *name = data;
  g_autofree char *pool = g_strdup_printf ("%s.pool", name);
  g_autofree char *json = g_strdup_printf ("%s.expected.json", name);
  g_autofree char *pool_path = g_test_build_filename (G_TEST_DIST, "scenarios", pool, NULL);
  g_autofree char *json_path = g_test_build_filename (G_TEST_DIST, "scenarios", json, NULL);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GList) members = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *expected;

  json_parser_load_from_file (parser, json_path, &error);
  g_assert_no_error (error);
  expected = json_node_get_object (json_parser_get_root (parser));

  /* "_exit_status": what sluice-run exits with (a deadlock, a bad file). */
  if (json_object_has_member (expected, "_exit_status"))
    {
      gint64 status = json_object_get_int_member (expected, "_exit_status");
      const char *argv[] = { sluice_run_path (), pool_path, "--json", NULL };
      g_autoptr(GSubprocess) process = NULL;
      g_autofree char *out = NULL, *err = NULL;

      if (argv[0] == NULL)
        return;

      process = spawn (argv);
      g_assert_cmpint (finish_process (process, &out, &err), ==, status);
      if (status != 0)
        {
          g_assert_cmpstr (out, ==, "");
          g_assert_cmpstr (err, !=, "");
          return;
        }
    }

  scenario = sluice_scenario_new_from_file (pool_path, NULL, &error);
  g_assert_no_error (error);

  report = run_scenario (scenario);
  members = json_object_get_members (expected);

  /* Keys starting with '_' are for the checker, not in the report. */
  for (GList *l = members; l != NULL; l = l->next)
    if (((const char *) l->data)[0] != '_')
      assert_same_member (l->data, json_object_get_member (expected, l->data),
                          json_object_get_member (json_node_get_object (report), l->data));

  /* Every key of the spec is there. */
  {
    static const char *keys[] = {
      "outcome", "results", "result_order", "attempts", "pulled", "max_lead", "lead_ok",
      "group_size", "group_types", "group_messages", "ctx_ok", "metrics", "metrics_raised",
      "unfinished", "live_operations", "elapsed",
    };
    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      g_assert_true (json_object_has_member (json_node_get_object (report), keys[i]));
  }
}

static void
test_mix_reproducible (void)
{
  const char *text = "[pool]\nworkers=3\nqueue-size=3\nitem-timeout=1\nmetrics=on\nkeep-going=true\n"
                     "[source]\ncount=40\n[handler]\nitem.0=ok 0.3\n"
                     "mix=60% ok 0.1, 20% fail 1 ValueError 0.05, 10% hang, 10% late 2\nseed=7\n"
                     "[run]\nclock=virtual\n";
  g_autoptr(SluiceScenario) scenario = parse (text, NULL);
  g_autoptr(JsonNode) first = run_scenario (scenario);
  g_autoptr(JsonNode) second = run_scenario (scenario);
  JsonObject *report = json_node_get_object (first);

  g_assert_true (json_node_equal (first, second));
  g_assert_cmpint (json_object_get_int_member (report, "pulled"), ==, 40);
  g_assert_cmpint (json_object_get_int_member (report, "live_operations"), ==, 0);
  g_assert_true (json_object_get_boolean_member (report, "ctx_ok"));
  /* A mix of 40 draws holds more than one behaviour. */
  g_assert_cmpint (json_object_get_int_member (report, "group_size"), >, 0);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (report, "results")), >, 0);
}

static void
test_fault_handler_behaviour_draws (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceFaultHandler) a = sluice_fault_handler_new (clock, NULL);
  g_autoptr(SluiceFaultHandler) b = sluice_fault_handler_new (clock, NULL);
  g_autoptr(GPtrArray) mix = sluice_mix_parse ("50% ok, 50% hang", NULL);
  g_autoptr(SluiceBehaviour) late = sluice_behaviour_parse ("late 1", NULL);

  sluice_fault_handler_set_mix (a, mix, 3);
  sluice_fault_handler_set_mix (b, mix, 3);
  sluice_fault_handler_set_item_behaviour (b, 5, late);

  /* Named items take their draw too: the other items agree. */
  for (gint64 i = 30; i >= 0; i--)
    if (i != 5)
      g_assert_cmpint (sluice_fault_handler_get_behaviour (a, i)->kind, ==,
                       sluice_fault_handler_get_behaviour (b, i)->kind);
  g_assert_cmpint (sluice_fault_handler_get_behaviour (b, 5)->kind, ==, SLUICE_BEHAVIOUR_LATE);
}

static void
test_behaviour_strings (void)
{
  const char *forms[] = {
    "ok", "ok 0.5", "fail 2 ValueError", "fail 1 ConnectionError 0.01", "fail-always KeyError 3",
    "hang", "late 1.5", "cancel-self", "cancel-self 0.2", "stubborn 4", "block 0.1", "thread 0.25",
  };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceBehaviour) b = sluice_behaviour_parse (forms[i], &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      text = sluice_behaviour_to_string (b);
      g_assert_cmpstr (text, ==, forms[i]);
    }
}

/* ---- sluice-run -------------------------------------------------------- */

static const char *
sluice_run_path (void)
{
  const char *path = g_getenv ("SLUICE_RUN");

  if (path == NULL)
    g_test_skip ("SLUICE_RUN is not set");
  return path;
}

static char *
write_temp (const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("sluice-XXXXXX.pool", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static GSubprocess *
spawn (const char * const *argv)
{
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  return process;
}

static gint
finish_process (GSubprocess  *process,
                char        **out,
                char        **err)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}

static gint
run_cli (const char  *text,
         const char  *extra,
         char       **out,
         char       **err)
{
  g_autofree char *path = write_temp (text);
  const char *argv[] = { sluice_run_path (), path, "--json", extra, NULL };
  g_autoptr(GSubprocess) process = spawn (argv);
  gint status = finish_process (process, out, err);

  g_unlink (path);
  return status;
}

static void
test_cli_exit_codes (void)
{
  static const char *bad[] = {
    MINIMAL "wrokers=3\n",
    "[pool]\nworkers=three\nqueue-size=2\nitem-timeout=1\n",
    "[pool]\nworkers=-1\nqueue-size=2\nitem-timeout=1\n",
    MINIMAL "[handler]\ndefault=explode\n",
    MINIMAL "[handler]\ndefault=fail 1 9Lives\n",
    "",
    "\x7f" "ELF\xff\xfe garbage",
    MINIMAL "[handler]\ndefault=block 1\n[run]\nclock=virtual\n",
  };

  if (sluice_run_path () == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_cli (bad[i], NULL, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, "expected"));
    }

  {
    g_autofree char *out = NULL, *err = NULL;
    g_autoptr(JsonNode) report = NULL;

    g_assert_cmpint (run_cli (MINIMAL "[source]\ncount=2\n[run]\nclock=virtual\n", NULL, &out, &err), ==, 0);
    report = json_from_string (out, NULL);
    g_assert_nonnull (report);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (report), "outcome"), ==, "ok");
  }

  {
    /* A virtual deadlock: exit 1, naming what waits. */
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_cli (MINIMAL "[source]\ncount=3\nhang-after=1\n[run]\nclock=virtual\n", NULL, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, "deadlock"));
    g_assert_nonnull (strstr (err, "source"));
  }

  {
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (run_cli (MINIMAL, "--set=pool", &out, &err), ==, 2);
    g_assert_cmpint (run_cli (MINIMAL, "--clock=sideways", &out, &err), ==, 2);
  }
}

static JsonObject *
signal_run (const char *text,
            guint       n_signals,
            int         signum)
{
  g_autofree char *path = write_temp (text);
  const char *argv[] = { sluice_run_path (), path, "--json", NULL };
  g_autoptr(GSubprocess) process = spawn (argv);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonNode) report = NULL;

  /* A separate process runs on real time, so this waits on the wall clock:
   * let it start and reach its steady state (a hang). */
  g_usleep (300 * 1000);
  for (guint i = 0; i < n_signals; i++)
    {
      g_subprocess_send_signal (process, signum);
      g_usleep (100 * 1000);
    }

  g_assert_cmpint (finish_process (process, &out, &err), ==, 0);
  g_unlink (path);

  report = json_from_string (out, NULL);
  g_assert_nonnull (report);
  return json_object_ref (json_node_get_object (report));
}

static void
test_cli_signals (void)
{
  g_autoptr(JsonObject) drained = NULL;
  g_autoptr(JsonObject) cancelled = NULL;

  if (sluice_run_path () == NULL)
    return;

  /* One SIGTERM: the hanging source is woken and the pool drains. */
  drained = signal_run (MINIMAL "[source]\ncount=4\nhang-after=2\n", 1, SIGTERM);
  g_assert_cmpstr (json_object_get_string_member (drained, "outcome"), ==, "ok");
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (drained, "results")), ==, 2);
  g_assert_cmpint (json_object_get_int_member (drained, "live_operations"), ==, 0);

  /* Two SIGINTs: the hanging handlers are cancelled and awaited. */
  cancelled = signal_run ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=60\n"
                          "[source]\ncount=4\n[handler]\ndefault=hang\n", 2, SIGINT);
  g_assert_cmpstr (json_object_get_string_member (cancelled, "outcome"), ==, "CancelledError");
  g_assert_cmpint (json_object_get_int_member (cancelled, "pulled"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (cancelled, "unfinished"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (cancelled, "live_operations"), ==, 0);
}

/* ---- the recorder as CSV ----------------------------------------------- */

static void
test_recorder_csv (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sluice-test-XXXXXX.csv", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  SluiceEvent start = { .kind = SLUICE_EVENT_RUN_START, .item = -1, .worker = -1 };
  SluiceEvent end = {
    .kind = SLUICE_EVENT_ATTEMPT_END, .time = 1500000, .item = 3, .attempt = 2, .worker = 1,
    .outcome = SLUICE_OUTCOME_FAILED, .error_type = "ValueError",
    .error_message = "bad \"item\", again\nand again", .queued = 4, .in_flight = 2,
    .pulled = 7, .succeeded = 1, .failed = 1, .retries = 2, .lead = 6,
  };
  int fd;

  sluice_recorder_add (recorder, &start);
  sluice_recorder_add (recorder, &end);

  fd = g_mkstemp (path);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (sluice_recorder_save_csv (recorder, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_unlink (path);

  /* A header and one row per event; the message is quoted, its quotes
   * doubled and its line break kept inside the quotes. */
  lines = g_strsplit (text, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_cmpstr (lines[0], ==, "time,kind,item,attempt,worker,round,outcome,error_type,error_message,"
                                 "queued,in_flight,pulled,succeeded,failed,retries,lead");
  g_assert_cmpstr (lines[1], ==, "0.000000,run-start,,,,,,,,0,0,0,0,0,0,0");
  g_assert_cmpstr (lines[2], ==, "1.500000,attempt-end,3,2,1,,failed,ValueError,"
                                 "\"bad \"\"item\"\", again\nand again\",4,2,7,1,1,2,6");
  g_assert_cmpstr (lines[3], ==, "");
}

/* ---- presets ----------------------------------------------------------- */

/* Every preset has a title and a description in English, German and
 * Indonesian; the translations differ from the English, keep its technical
 * words (error types, keys, identifiers and numbers), and are what the
 * loader shows in that language. */
static void
test_presets_translated (void)
{
  static const char * const languages[] = { "de", "id" };
  static const char * const keys[] = { "title", "description" };
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  g_autoptr(GRegex) tokens = g_regex_new ("[A-Za-z]*Error|ExceptionGroup|[a-z]+(?:[-_][a-z]+)+|"
                                          "[0-9]+(?:\\.[0-9]+)?", 0, 0, NULL);
  const char *file;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(GKeyFile) keyfile = g_key_file_new ();
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (file, ".pool"))
        continue;

      n++;
      path = g_build_filename (dir_path, file, NULL);
      g_assert_true (g_key_file_load_from_file (keyfile, path, G_KEY_FILE_KEEP_TRANSLATIONS, &error));
      g_assert_no_error (error);

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          g_autofree char *english = g_key_file_get_string (keyfile, "scenario", keys[k], NULL);

          if (english == NULL || *english == '\0')
            g_error ("%s: [scenario] %s is missing or empty", file, keys[k]);

          for (guint l = 0; l < G_N_ELEMENTS (languages); l++)
            {
              g_autofree char *key = g_strdup_printf ("%s[%s]", keys[k], languages[l]);
              g_autofree char *text = g_key_file_get_string (keyfile, "scenario", key, NULL);
              g_autoptr(GMatchInfo) match = NULL;
              char *old;
              g_autoptr(SluiceScenario) scenario = NULL;
              const char *shown;

              if (text == NULL || *text == '\0')
                g_error ("%s: [scenario] %s is missing or empty", file, key);
              if (g_str_equal (text, english))
                g_error ("%s: [scenario] %s is the English text", file, key);

              for (g_regex_match (tokens, english, 0, &match); g_match_info_matches (match);
                   g_match_info_next (match, NULL))
                {
                  g_autofree char *token = g_match_info_fetch (match, 0);

                  if (strstr (text, token) == NULL)
                    g_error ("%s: [scenario] %s lacks “%s” of the English text", file, key, token);
                }

              old = set_language (languages[l]);
              scenario = sluice_scenario_new_from_file (path, NULL, &error);
              restore_language (old);
              g_assert_no_error (error);
              shown = k == 0 ? sluice_scenario_get_title (scenario)
                             : sluice_scenario_get_description (scenario);
              g_assert_cmpstr (shown, ==, text);
            }
        }
    }

  g_assert_cmpuint (n, >, 0);
}

/* ---- main -------------------------------------------------------------- */

/* The names of the scenario tests, alive until the tests ran. */
static GPtrArray *scenario_names;

static void
add_report_tests (void)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "scenarios", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  GPtrArray *names = scenario_names = g_ptr_array_new_with_free_func (g_free);
  const char *file;

  g_assert_nonnull (dir);
  while ((file = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (file, ".pool"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - strlen (".pool")));

  g_ptr_array_sort (names, (GCompareFunc) (void (*) (void)) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/scenario/report/%s", (char *) g_ptr_array_index (names, i));
      g_test_add_data_func (path, g_ptr_array_index (names, i), test_report);
    }
}

/* Numbers written back to a .pool file read like the ones people type. */
static void
test_format_double (void)
{
  const struct { double value; const char *text; } cases[] = {
    { 60, "60" }, { 0.1, "0.1" }, { 0.3, "0.3" }, { 2.5, "2.5" },
    { 0, "0" }, { 1e-7, "0.0000001" }, { 3600, "3600" }, { 1e20, "1e+20" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = sluice_format_double (cases[i].value);
      g_assert_cmpstr (text, ==, cases[i].text);
      g_assert_cmpfloat (g_ascii_strtod (text, NULL), ==, cases[i].value);
    }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scenario/format-double", test_format_double);
  g_test_add_func ("/scenario/parse/minimal", test_parse_minimal);
  g_test_add_func ("/scenario/parse/full", test_parse_full);
  g_test_add_func ("/scenario/parse/malformed", test_parse_malformed);
  g_test_add_func ("/scenario/parse/overrides", test_parse_overrides);
  g_test_add_func ("/scenario/parse/translations", test_parse_translations);
  g_test_add_func ("/scenario/save/round-trip", test_save_round_trip);
  g_test_add_func ("/scenario/save/translations", test_save_translations);
  g_test_add_func ("/scenario/presets/translated", test_presets_translated);
  g_test_add_func ("/scenario/behaviour/strings", test_behaviour_strings);
  g_test_add_func ("/scenario/handler/mix-draws", test_fault_handler_behaviour_draws);
  g_test_add_func ("/scenario/report/mix-reproducible", test_mix_reproducible);
  add_report_tests ();
  g_test_add_func ("/scenario/recorder/csv", test_recorder_csv);
  g_test_add_func ("/scenario/cli/exit-codes", test_cli_exit_codes);
  g_test_add_func ("/scenario/cli/signals", test_cli_signals);

  status = g_test_run ();
  g_clear_pointer (&scenario_names, g_ptr_array_unref);

  return status;
}
