/* test-scenario.c: scenario files, the fault handler and source, reports, sluice-run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "cli-fixture.h"
#include "sluice-scenario.h"
#include "sluice-fault-handler-private.h"
#define GETTEXT_PACKAGE "sluice"   /* for the private header's gi18n-lib.h */
#include "sluice-scenario-private.h"
#include "sluice-scenario-runner.h"
#include "sluice-json-writer-private.h"

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
assert_item_int (SluiceScenario *scenario,
                 guint           index,
                 gint64          value)
{
  g_autoptr(GVariant) item = sluice_scenario_get_item (scenario, index);

  g_assert_true (g_variant_is_of_type (item, G_VARIANT_TYPE_INT64));
  g_assert_cmpint (g_variant_get_int64 (item), ==, value);
}

static void
assert_item_string (SluiceScenario *scenario,
                    guint           index,
                    const char     *value)
{
  g_autoptr(GVariant) item = sluice_scenario_get_item (scenario, index);

  g_assert_true (g_variant_is_of_type (item, G_VARIANT_TYPE_STRING));
  g_assert_cmpstr (g_variant_get_string (item, NULL), ==, value);
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
  g_assert_true (sluice_scenario_is_range (scenario));
  g_assert_cmpuint (sluice_scenario_get_n_items (scenario), ==, 0);
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
  GPtrArray *mix;
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

  g_assert_false (sluice_scenario_is_range (scenario));
  g_assert_cmpuint (sluice_scenario_get_n_items (scenario), ==, 4);
  assert_item_int (scenario, 0, 3);
  assert_item_int (scenario, 1, -1);
  assert_item_string (scenario, 2, "7");
  assert_item_string (scenario, 3, "x");
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

/* The scaling targets run 100,000 workers: the scenario takes up to the
 * pool's own limit, and the pool builds. */
static void
test_parse_many_workers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceClock) clock = NULL;
  g_autoptr(SluiceFaultHandler) handler = NULL;
  g_autoptr(SluicePool) pool = NULL;

  scenario = parse ("[pool]\nworkers=100000\nqueue-size=100000\nitem-timeout=1\n[run]\nclock=virtual\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, 100000);

  clock = sluice_scenario_create_clock (scenario);
  handler = sluice_scenario_create_handler (scenario, clock);
  pool = sluice_scenario_create_pool (scenario, SLUICE_HANDLER (handler), clock, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pool);
  g_clear_object (&scenario);

  scenario = parse ("[pool]\nworkers=1000000\nqueue-size=2\nitem-timeout=1\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, SLUICE_POOL_MAX_WORKERS);
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
  /* As many workers as the pool takes, SLUICE_POOL_MAX_WORKERS, and no more. */
  assert_refused ("[pool]\nworkers=1000001\nqueue-size=2\nitem-timeout=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] workers", "1000001", "out of range",
                  "from 1 to 1000000", NULL);
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
on_runner_done (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static gboolean
cancel_from_idle (gpointer user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
  return G_SOURCE_REMOVE;
}

/* The cancellable given to run_async cancels the run as its caller: the
 * run still ends with a report, every hanging attempt awaited. */
static void
test_runner_cancellable_cancels_the_run (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GError) error = NULL;

  scenario = sluice_scenario_new_from_data ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=100\n"
                                            "[source]\ncount=4\n[handler]\ndefault=hang\n"
                                            "[run]\nclock=virtual\n", -1, "test.pool", NULL, &error);
  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_run_async (runner, cancellable, on_runner_done, &result);
  /* Without the cancel, the hanging attempts would time out after 100 s of
   * virtual time and the run would end with an ExceptionGroup. */
  g_idle_add (cancel_from_idle, cancellable);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);

  report = sluice_scenario_runner_run_finish (runner, result, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_report_get_outcome (report), ==, "CancelledError");
  json = sluice_report_to_json (report);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json), "live_operations"), ==, 0);
}

/* Whether @got is @expected, as assert_same_member() judges. */
static gboolean
is_same_member (JsonNode *expected,
                JsonNode *got)
{
  if (got == NULL)
    return FALSE;
  if (json_node_get_value_type (expected) == G_TYPE_DOUBLE)
    return fabs (json_node_get_double (expected) - json_node_get_double (got)) <= 1e-6;
  return json_node_equal (expected, got);
}

/* Whether every key of @expected the report has is the same. */
static gboolean
is_same_report (JsonObject *expected,
                JsonNode   *report)
{
  g_autoptr(GList) members = json_object_get_members (expected);

  for (GList *l = members; l != NULL; l = l->next)
    if (((const char *) l->data)[0] != '_' &&
        !is_same_member (json_object_get_member (expected, l->data),
                         json_object_get_member (json_node_get_object (report), l->data)))
      return FALSE;
  return TRUE;
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

  /* "_timing_sensitive": real time measured to the millisecond, which a
   * run under valgrind (SLUICE_SLOW_RUNS=1) cannot keep. */
  if (json_object_get_boolean_member_with_default (expected, "_timing_sensitive", FALSE) &&
      g_strcmp0 (g_getenv ("SLUICE_SLOW_RUNS"), "1") == 0)
    {
      g_test_skip ("timing-sensitive, and runs are slow here");
      return;
    }

  /* "_exit_status": what sluice-run exits with (a deadlock, a bad file). */
  if (json_object_has_member (expected, "_exit_status"))
    {
      gint64 status = json_object_get_int_member (expected, "_exit_status");
      const char *argv[] = { sluice_run_path (), pool_path, "--json", NULL };
      g_autofree char *out = NULL, *err = NULL;

      if (argv[0] == NULL)
        return;

      g_assert_cmpint (sluice_test_run_to_end (argv, &out, &err), ==, status);
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
  /* A timing-sensitive run on a loaded machine may miss its millisecond
   * (a cancelled attempt's end a little late): it gets two more tries. A
   * run that differs three times is a failure. */
  for (int again = 0;
       again < 2 && json_object_get_boolean_member_with_default (expected, "_timing_sensitive", FALSE) &&
       !is_same_report (expected, report);
       again++)
    {
      g_test_message ("%s: another try, the last one differs", name);
      g_clear_pointer (&report, json_node_unref);
      report = run_scenario (scenario);
    }
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

static gint
run_cli (const char  *text,
         const char  *extra,
         char       **out,
         char       **err)
{
  g_autofree char *path = write_temp (text);
  const char *argv[] = { sluice_run_path (), path, "--json", extra, NULL };
  gint status = sluice_test_run_to_end (argv, out, err);

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
    g_autofree char *clock_out = NULL, *clock_err = NULL;

    g_assert_cmpint (run_cli (MINIMAL, "--set=pool", &out, &err), ==, 2);
    g_assert_cmpint (run_cli (MINIMAL, "--clock=sideways", &clock_out, &clock_err), ==, 2);
  }
}

/* Signals: tests/test-cli.c, which waits for the lines sluice-run prints
 * rather than sleeping. */

/* ---- the recorder as JSON Lines ----------------------------------------- */

/* Events with every optional field, strings that need escaping and
 * values of each kind. */
static void
add_jsonl_events (SluiceRecorder *recorder)
{
  g_autoptr(GVariant) negative = g_variant_ref_sink (g_variant_new_int64 (-42));
  g_autoptr(GVariant) text = g_variant_ref_sink (g_variant_new_string ("tab\there \"quoted\" \\ é"));
  g_autoptr(GVariant) tuple = g_variant_ref_sink (g_variant_new_parsed ("(1, 'two')"));
  SluiceEvent events[] = {
    { .kind = SLUICE_EVENT_RUN_START, .item = -1, .worker = -1, .delay = -1, .tokens = -1 },
    { .kind = SLUICE_EVENT_PULL, .time = 1234567, .item = 0, .worker = -1, .value = negative, .delay = -1,
      .tokens = -1, .pulled = 1, .lead = 1 },
    { .kind = SLUICE_EVENT_ATTEMPT_END, .time = 2000001, .item = 0, .attempt = 2, .worker = 3,
      .outcome = SLUICE_OUTCOME_TIMED_OUT, .retried = TRUE, .error_type = "TimeoutError",
      .error_message = "line\nbreak\r\x01\x1f\x7f\b\f", .delay = -1, .tokens = 1500, .queued = 4,
      .in_flight = 2, .pulled = 7, .succeeded = 1, .failed = 1, .retries = 2, .lead = 6 },
    { .kind = SLUICE_EVENT_CANCEL_REQUEST, .time = 3, .item = 5, .attempt = 1, .worker = 0, .round = 2,
      .delay = -1, .tokens = -1 },
    { .kind = SLUICE_EVENT_BACKOFF, .time = G_GINT64_CONSTANT (1000000000000001), .item = 5, .attempt = 1,
      .worker = 0, .delay = 250000, .tokens = -1 },
    { .kind = SLUICE_EVENT_RETRY_SKIPPED, .time = 7, .item = 5, .attempt = 1, .worker = 0, .delay = 0,
      .reason = "deadline", .tokens = 0 },
    { .kind = SLUICE_EVENT_ITEM_OK, .time = 8, .item = 6, .worker = 1, .value = text, .delay = -1,
      .tokens = -1 },
    { .kind = SLUICE_EVENT_RESULT, .time = 9, .item = -1, .worker = -1, .value = tuple, .delay = -1,
      .tokens = -1, .succeeded = G_MAXUINT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    sluice_recorder_add (recorder, &events[i]);
}

/* Written directly, each line is what json-glib's generator writes for
 * the event's tree, and the stream holds the lines in order. */
static void
test_recorder_jsonl (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GString) expected = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  add_jsonl_events (recorder);
  for (guint i = 0; i < sluice_recorder_get_n_events (recorder); i++)
    {
      const SluiceEvent *event = sluice_recorder_get_event (recorder, i);
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) node = sluice_recorder_event_to_json (event);
      g_autofree char *tree = NULL;
      g_autofree char *line = sluice_recorder_event_to_line (event);

      json_generator_set_root (generator, node);
      tree = json_generator_to_data (generator, NULL);
      g_string_append_printf (expected, "%s\n", tree);
      g_assert_true (g_str_has_suffix (line, "\n"));
      line[strlen (line) - 1] = '\0';
      g_assert_cmpstr (line, ==, tree);
    }

  g_assert_true (sluice_recorder_write_jsonl (recorder, stream, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (stream, NULL, &error));
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                   g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)),
                   expected->str, expected->len);
}

/* What the engine knows goes into the lines: the bounds and item timeout
 * on the run start, the deadline (µs and seconds) on an attempt start, the
 * attempt on an item failure; nothing of them elsewhere, nor a deadline an
 * attempt start does not have. */
static void
test_recorder_jsonl_carries_what_the_engine_knows (void)
{
  static const SluiceEvent events[] = {
    { .kind = SLUICE_EVENT_RUN_START, .item = -1, .worker = -1, .delay = -1, .tokens = -1, .deadline = -1,
      .queue_capacity = 4, .lead_bound = 8, .item_timeout = 250000 },
    { .kind = SLUICE_EVENT_ATTEMPT_START, .time = 1000000, .item = 2, .attempt = 1, .worker = 0, .delay = -1,
      .tokens = -1, .deadline = 1250000, .item_timeout = -1 },
    { .kind = SLUICE_EVENT_ITEM_FAILED, .time = 1250000, .item = 2, .attempt = 3, .worker = -1, .delay = -1,
      .tokens = -1, .deadline = -1, .item_timeout = -1, .error_type = "TimeoutError" },
    { .kind = SLUICE_EVENT_ATTEMPT_START, .time = 5, .item = 3, .attempt = 1, .worker = 1, .delay = -1,
      .tokens = -1, .deadline = -1, .item_timeout = -1 },
    { .kind = SLUICE_EVENT_QUEUE_PUT, .time = 5, .item = 4, .worker = -1, .delay = -1, .tokens = -1,
      .deadline = 99, .queue_capacity = 4, .lead_bound = 8, .item_timeout = 1 },
  };
  /* Parenthesised: each line is one literal split over lines, not a
   * missing comma (clang's -Wstring-concatenation). */
  static const char * const expected[] = {
    ("{\"kind\":\"run-start\",\"time_us\":0,\"time\":0.0,\"queue_capacity\":4,\"lead_bound\":8,"
     "\"item_timeout_us\":250000,\"queued\":0,\"in_flight\":0,\"pulled\":0,\"succeeded\":0,\"failed\":0,"
     "\"retries\":0,\"lead\":0}\n"),
    ("{\"kind\":\"attempt-start\",\"time_us\":1000000,\"time\":1.0,\"item\":2,\"attempt\":1,\"worker\":0,"
     "\"deadline_us\":1250000,\"deadline\":1.25,\"queued\":0,\"in_flight\":0,\"pulled\":0,\"succeeded\":0,"
     "\"failed\":0,\"retries\":0,\"lead\":0}\n"),
    ("{\"kind\":\"item-failed\",\"time_us\":1250000,\"time\":1.25,\"item\":2,\"attempt\":3,"
     "\"error_type\":\"TimeoutError\",\"queued\":0,\"in_flight\":0,\"pulled\":0,\"succeeded\":0,\"failed\":0,"
     "\"retries\":0,\"lead\":0}\n"),
    ("{\"kind\":\"attempt-start\",\"time_us\":5,\"time\":5.0000000000000004e-06,\"item\":3,\"attempt\":1,"
     "\"worker\":1,\"queued\":0,\"in_flight\":0,\"pulled\":0,\"succeeded\":0,\"failed\":0,\"retries\":0,"
     "\"lead\":0}\n"),
    ("{\"kind\":\"queue-put\",\"time_us\":5,\"time\":5.0000000000000004e-06,\"item\":4,\"queued\":0,"
     "\"in_flight\":0,\"pulled\":0,\"succeeded\":0,\"failed\":0,\"retries\":0,\"lead\":0}\n"),
  };

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_autofree char *line = sluice_recorder_event_to_line (&events[i]);

      g_assert_cmpstr (line, ==, expected[i]);
    }
}

/* The CSV's seconds are "%.6f" of the microseconds, however written. */
static void
test_recorder_csv_times (void)
{
  const gint64 times[] = { 0, 1, 999999, 1000000, 1234567, G_GINT64_CONSTANT (999999999999999),
                           G_GINT64_CONSTANT (1000000000000000), G_GINT64_CONSTANT (123456789012345678),
                           -1, -1500000 };

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
      g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
      SluiceEvent event = { .kind = SLUICE_EVENT_RUN_START, .time = times[i], .item = -1, .worker = -1 };
      char expected[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *text = NULL;
      const char *row;

      sluice_recorder_add (recorder, &event);
      g_assert_true (sluice_recorder_write_csv (recorder, stream, NULL, NULL));
      g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL));
      g_assert_true (g_output_stream_close (stream, NULL, NULL));
      text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
      row = strstr (text, "\r\n") + 2;
      g_ascii_formatd (expected, sizeof expected, "%.6f", (double) times[i] / G_USEC_PER_SEC);
      g_assert_true (g_str_has_prefix (row, expected));
      g_assert_cmpint (row[strlen (expected)], ==, ',');
    }
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
                                 "queued,in_flight,pulled,succeeded,failed,retries,lead,delay_us,reason,tokens");
  g_assert_cmpstr (lines[1], ==, "0.000000,run-start,,,,,,,,0,0,0,0,0,0,0,,,0");
  g_assert_cmpstr (lines[2], ==, "1.500000,attempt-end,3,2,1,,failed,ValueError,"
                                 "\"bad \"\"item\"\", again\nand again\",4,2,7,1,1,2,6,,,0");
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

/* ---- the rules of issue 8 ---------------------------------------------- */

/* Loads @text, saves it and loads the saved text: both scenarios are
 * equal, and saving the second gives the same text. Returns the first. */
static SluiceScenario *
assert_round_trip (const char *text)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *data2 = NULL;
  const char *difference = NULL;

  scenario = parse (text, &error);
  g_assert_no_error (error);
  data = sluice_scenario_to_data (scenario, NULL);
  again = parse (data, &error);
  if (error != NULL)
    g_error ("the saved scenario does not load: %s\n%s", error->message, data);
  if (!_sluice_scenario_equal (scenario, again, &difference))
    g_error ("%s differs after a round trip:\n%s", difference, data);
  data2 = sluice_scenario_to_data (again, NULL);
  g_assert_cmpstr (data, ==, data2);

  return g_steal_pointer (&scenario);
}

/* A string item or text with a backslash escape is saved escaped, so
 * that it loads back as the same string. */
static void
test_save_round_trip_keeps_escapes (void)
{
  g_autoptr(SluiceScenario) lines = assert_round_trip (MINIMAL "[source]\nvalues=a\\nb;c\\\\d;\"\\sx\\ty\\r\"\n");
  g_autoptr(SluiceScenario) path = assert_round_trip (MINIMAL "[source]\nvalues=C:\\\\new\n");
  g_autoptr(SluiceScenario) texts = NULL;

  g_assert_cmpuint (sluice_scenario_get_n_items (lines), ==, 3);
  assert_item_string (lines, 0, "a\nb");
  assert_item_string (lines, 1, "c\\d");
  assert_item_string (lines, 2, " x\ty\r");
  assert_item_string (path, 0, "C:\\new");

  texts = assert_round_trip ("[scenario]\ntitle=Two\\nlines \\\\ one\ntitle[de]=Zwei\\tZeilen\n"
                             "description=\\sC:\\\\new\n" MINIMAL);
  g_assert_cmpstr (sluice_scenario_get_title (texts), ==, "Two\nlines \\ one");
  g_assert_cmpstr (sluice_scenario_get_description (texts), ==, " C:\\new");
}

/* The paths of the .pool files in @dirs, folders of the tests' source
 * (G_TEST_DIST). */
static GPtrArray *
pool_files (const char * const *dirs,
            gsize               n_dirs)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  for (gsize d = 0; d < n_dirs; d++)
    {
      g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, dirs[d], NULL);
      g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
      const char *file;

      g_assert_nonnull (dir);
      while ((file = g_dir_read_name (dir)) != NULL)
        if (g_str_has_suffix (file, ".pool"))
          g_ptr_array_add (paths, g_build_filename (dir_path, file, NULL));
    }
  return paths;
}

/* Every scenario of the tests and every preset loads back equal from what
 * it saves. */
static void
test_save_round_trip_every_file (void)
{
  const char * const dirs[] = { "scenarios", "scenarios/bad", "../data/presets" };
  g_autoptr(GPtrArray) paths = pool_files (dirs, G_N_ELEMENTS (dirs));
  guint n = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *text = NULL;
      g_autoptr(SluiceScenario) loaded = NULL;
      g_autoptr(SluiceScenario) scenario = NULL;

      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      loaded = parse (text, NULL);
      if (loaded == NULL)
        continue;   /* a bad file: refused, nothing to save */

      g_test_message ("%s", path);
      scenario = assert_round_trip (text);
      n++;
    }

  g_assert_cmpuint (n, >, 20);
}

/* An escape other than \s \n \t \r \\ in a string key is refused, and so
 * is a backslash at the end, before GLib reads the value. */
/* Found by the fuzzer: a raw carriage return in a text lost one of itself
 * at every save (GKeyFile takes one at a line's end for CRLF). */
static void
test_parse_raw_control_character_refused (void)
{
  assert_refused ("[scenario]\ndescription=x\r\r\r\n" MINIMAL, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[scenario] description", "U+000D", NULL);
  assert_refused (MINIMAL "[source]\nvalues=a\001b\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[source] values", "U+0001", NULL);
}

static void
test_parse_bad_escape_refused (void)
{
  const struct { const char *text, *key, *escape; } cases[] = {
    { MINIMAL "[source]\nvalues=ab\\\n", "[source] values", "“\\”" },
    { MINIMAL "[source]\nvalues=a\\qb\n", "[source] values", "“\\q”" },
    { MINIMAL "[source]\nvalues=a\\qb\\\n", "[source] values", "“\\q”" },
    { MINIMAL "[source]\nvalues=1;\\;2\n", "[source] values", "“\\;”" },
    { MINIMAL "[source]\nvalues=a\\éb\n", "[source] values", "“\\é”" },
    { "[scenario]\ntitle=a\\qb\\\n" MINIMAL, "[scenario] title", "“\\q”" },
    { "[scenario]\ntitle=ab\\\n" MINIMAL, "[scenario] title", "“\\”" },
    { "[scenario]\ntitle=x\ntitle[de]=ab\\\n" MINIMAL, "[scenario] title[de]", "“\\”" },
    { "[scenario]\ndescription=\\x41\n" MINIMAL, "[scenario] description", "“\\x”" },
    { "[scenario]\ndescription[id]=\\\n" MINIMAL, "[scenario] description[id]", "“\\”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_refused (cases[i].text, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                    cases[i].key, cases[i].escape, "bad escape", "\\s", NULL);

  /* The good ones, and backslashes in keys that are not strings. */
  g_object_unref (assert_round_trip (MINIMAL "[source]\nvalues=\\s\\n\\t\\r\\\\\n"));
  assert_refused (MINIMAL "[source]\ncount=\\q\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[source] count", "integer", NULL);
}

/* A key twice in a group, or a group twice, is refused at the second,
 * naming the first; title and title[de] are different keys, and a
 * commented key is no key. */
static void
test_parse_duplicate_refused (void)
{
  assert_refused (MINIMAL "workers=4\n", -1, SLUICE_SCENARIO_ERROR_PARSE,
                  "test.pool:5: [pool] workers", "line 2", "once", NULL);
  assert_refused ("[pool]\n workers = 2\nqueue-size=2\nitem-timeout=1\nworkers =2\n", -1,
                  SLUICE_SCENARIO_ERROR_PARSE, "test.pool:5: [pool] workers", "line 2", NULL);
  assert_refused (MINIMAL "[source]\ncount=1\n[pool]\nmax-retries=1\n", -1, SLUICE_SCENARIO_ERROR_PARSE,
                  "test.pool:7: [pool]", "line 1", "once", NULL);
  assert_refused ("[scenario]\ntitle[de]=a\ntitle=b\ntitle[de]=c\n" MINIMAL, -1,
                  SLUICE_SCENARIO_ERROR_PARSE, "test.pool:4: [scenario] title[de]", "line 2", NULL);
  assert_refused (MINIMAL "[handler]\nitem.0=ok\n[source]\ncount=2\n[handler]\nitem.1=ok\n", -1,
                  SLUICE_SCENARIO_ERROR_PARSE, "test.pool:9: [handler]", "line 5", NULL);

  g_object_unref (assert_round_trip ("[scenario]\ntitle=a\ntitle[de]=b\ntitle[de_AT]=c\n" MINIMAL
                                     "#workers=3\n# workers=4\n[source]\ncount=1\n"
                                     "[handler]\ndefault=ok\nitem.0=hang\n"));
}

/* ---- docs/scenario-format.md ------------------------------------------- */

/* The keys of the document's tables, as "group\nkey": a `### [group]`
 * heading starts a group's table, whose rows begin with the key in
 * backquotes; any other heading ends it. */
static GHashTable *
read_documented_keys (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "docs", "scenario-format.md", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *group = NULL;
  GHashTable *keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];

      if (g_str_has_prefix (line, "#"))
        {
          g_clear_pointer (&group, g_free);
          if (g_str_has_prefix (line, "### [") && strchr (line, ']') != NULL)
            group = g_strndup (line + 5, strchr (line, ']') - (line + 5));
        }
      else if (group != NULL && g_str_has_prefix (line, "| `"))
        {
          const char *end = strchr (line + 3, '`');
          g_autofree char *key = NULL;

          g_assert_nonnull (end);
          key = g_strndup (line + 3, end - (line + 3));
          if (!g_hash_table_add (keys, g_strdup_printf ("%s\n%s", group, key)))
            g_error ("docs/scenario-format.md lists [%s] %s twice", group, key);
        }
    }

  return keys;
}

/* A documented key as a file writes it: item.N as item.0, title[LANG] as
 * title[de]. */
static char *
concrete_key (const char *key)
{
  g_autoptr(GString) text = g_string_new (key);

  g_string_replace (text, ".N", ".0", 0);
  g_string_replace (text, "[LANG]", "[de]", 0);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The document lists every group and key the loader accepts, and only
 * those: each one listed is taken (a scenario that sets it may be wrong
 * in its value, never in its key), and each in the loader's tables is
 * listed. */
static void
test_format_documented (void)
{
  g_autoptr(GHashTable) documented = read_documented_keys ();
  g_autoptr(GHashTable) accepted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char * const *groups = _sluice_scenario_format_groups ();
  GHashTableIter iter;
  gpointer id;

  g_assert_cmpuint (g_hash_table_size (documented), >, 20);  /* the tables were found */

  for (guint g = 0; groups[g] != NULL; g++)
    {
      const char * const *lists[] = {
        _sluice_scenario_format_keys (groups[g]), _sluice_scenario_format_patterns (groups[g]),
      };

      for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
        for (guint k = 0; lists[l][k] != NULL; k++)
          {
            char *entry = g_strdup_printf ("%s\n%s", groups[g], lists[l][k]);

            if (!g_hash_table_contains (documented, entry))
              g_error ("the loader takes [%s] %s, which docs/scenario-format.md does not list",
                       groups[g], lists[l][k]);
            g_hash_table_add (accepted, entry);
          }
    }

  g_hash_table_iter_init (&iter, documented);
  while (g_hash_table_iter_next (&iter, &id, NULL))
    {
      g_auto(GStrv) parts = g_strsplit (id, "\n", 2);
      g_autoptr(GKeyFile) keyfile = g_key_file_new ();
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *key = concrete_key (parts[1]);

      if (!g_hash_table_contains (accepted, id))
        g_error ("docs/scenario-format.md lists [%s] %s, which the loader's tables do not have",
                 parts[0], parts[1]);

      g_assert_true (g_key_file_load_from_data (keyfile, MINIMAL "[source]\ncount=1\n", -1,
                                                G_KEY_FILE_KEEP_TRANSLATIONS, NULL));
      g_key_file_set_value (keyfile, parts[0], key, "1");
      scenario = sluice_scenario_new_from_keyfile (keyfile, "test.pool", NULL, &error);
      if (error != NULL)
        g_test_message ("[%s] %s=1: %s", parts[0], key, error->message);
      g_assert_false (g_error_matches (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY));
      g_assert_false (g_error_matches (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP));
    }
}

/* retryable is ';'-separated names: empty (none) or with one trailing ';',
 * but no empty name between two. */
static void
test_parse_empty_error_type_refused (void)
{
  g_autoptr(SluiceScenario) trailing = parse (MINIMAL "retryable=ValueError;\n", NULL);
  g_autoptr(SluiceScenario) none = parse (MINIMAL "retryable= \n", NULL);

  g_assert_cmpstrv (sluice_scenario_get_retryable (trailing), ((const char *[]) { "ValueError", NULL }));
  g_assert_cmpstrv (sluice_scenario_get_retryable (none), ((const char *[]) { NULL }));

  assert_refused (MINIMAL "retryable=A;;B\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:5: [pool] retryable", "type name 2 is empty", "TimeoutError;ValueError", NULL);
  assert_refused (MINIMAL "retryable=;A\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[pool] retryable", "type name 1 is empty", NULL);
  assert_refused (MINIMAL "retryable=A; ;\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "[pool] retryable", "type name 2 is empty", NULL);
}

/* Seconds are plain decimals, with an exponent or not: no hexadecimal,
 * inf or nan. */
static void
test_parse_seconds_decimal_only (void)
{
  const char *bad[] = { "0x1p-3", "0x10", "inf", "-inf", "infinity", "nan", "1e", "1.5s", ".", "e3", "1e+" };
  const char *good[] = { "2", "0.5", ".5", "5.", "1e-3", "2E+1", "+1.5" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *text = g_strdup_printf ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=%s\n", bad[i]);
      g_autofree char *interval = g_strdup_printf (MINIMAL "[source]\ninterval=%s\n", bad[i]);

      assert_refused (text, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                      "test.pool:4: [pool] item-timeout", bad[i], "decimal", "1e-3", NULL);
      assert_refused (interval, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                      "test.pool:6: [source] interval", "decimal", NULL);
    }

  /* Behaviour delays and mix weights are plain decimals too. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *delay = g_strdup_printf (MINIMAL "[handler]\ndefault=ok %s\n", bad[i]);
      g_autofree char *weight = g_strdup_printf (MINIMAL "[handler]\nmix=%s%% ok, 5%% ok 1\n", bad[i]);

      assert_refused (delay, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                      "test.pool:6: [handler] default", "not a delay", NULL);
      assert_refused (weight, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                      "test.pool:6: [handler] mix", "bad weight", NULL);
    }

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autofree char *text = g_strdup_printf ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=%s\n"
                                               "[run]\ncancel-after-seconds=%s\n", good[i], good[i]);
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(GError) error = NULL;

      scenario = parse (text, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (sluice_scenario_get_item_timeout (scenario), ==, g_ascii_strtod (good[i], NULL));
    }
}

/* The pool counts whole microseconds: an item-timeout below one is refused
 * by the loader, naming the file, line and key, not by the pool. */
static void
test_parse_timeout_at_least_1us (void)
{
  g_autoptr(SluiceScenario) one = parse ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=0.000001\n", NULL);
  g_autoptr(SluiceScenario) interval = parse (MINIMAL "[source]\ninterval=1e-7\n", NULL);

  g_assert_nonnull (one);
  g_assert_nonnull (interval);
  assert_refused ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=1e-7\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:4: [pool] item-timeout", "1e-7", "microsecond", "0.000001", NULL);
  assert_refused ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=0.0000009\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[pool] item-timeout", "0.000001", NULL);
}

/* count=N is a range, made as it is pulled: ten million items cost no
 * memory up front, and a run stopped at once pulls nothing. */
static void
test_source_range_made_when_pulled (void)
{
  const char *text = MINIMAL "[source]\ncount=10000000\n[run]\nstop-after=0\nclock=virtual\n";
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) values = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autoptr(GError) error = NULL;
#if defined(__GLIBC__)
  struct mallinfo2 before = mallinfo2 (), after;
#endif

  scenario = parse (text, &error);
  g_assert_no_error (error);
  report = run_scenario (scenario);

#if defined(__GLIBC__)
  after = mallinfo2 ();
  g_test_message ("allocated: %zu bytes", (after.uordblks + after.hblkhd) - (before.uordblks + before.hblkhd));
  g_assert_cmpuint (after.uordblks + after.hblkhd, <, before.uordblks + before.hblkhd + 16 * 1024 * 1024);
#endif
  g_assert_true (sluice_scenario_is_range (scenario));
  g_assert_null (scenario->values);
  g_assert_cmpuint (sluice_scenario_get_n_items (scenario), ==, 10000000);
  assert_item_int (scenario, 9999999, 9999999);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (report), "pulled"), ==, 0);

  /* A range and values stay what they are through a save. */
  g_clear_object (&scenario);
  scenario = assert_round_trip (MINIMAL "[source]\ncount=3\n");
  g_assert_true (sluice_scenario_is_range (scenario));
  values = assert_round_trip (MINIMAL "[source]\nvalues=0;1;2\n");
  g_assert_false (sluice_scenario_is_range (values));
  g_assert_cmpuint (sluice_scenario_get_n_items (values), ==, 3);
  assert_item_int (values, 2, 2);
}

static void
assert_file_refused (const char *path,
                     const char *word)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  scenario = sluice_scenario_new_from_file (path, NULL, &error);
  g_assert_null (scenario);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  if (strstr (error->message, word) == NULL)
    g_error ("“%s” is not in the message “%s”", word, error->message);
}

/* A scenario is a regular file: a directory, a device such as /dev/zero
 * or a FIFO is refused at once, without reading it or blocking on it. */
static void
test_file_only_regular (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *fifo = sluice_test_temp_path ("fifo.pool");
      g_autofree char *dir = g_path_get_dirname (fifo);
#if !defined(SLUICE_TEST_UNDER_ASAN)
      struct rlimit limit = { 1024 * 1024 * 1024, 1024 * 1024 * 1024 };

      /* Without the check, /dev/zero is read until memory runs out. */
      setrlimit (RLIMIT_AS, &limit);
#endif
      assert_file_refused (dir, "not a regular file");
      assert_file_refused ("/dev/zero", "not a regular file");
      g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
      assert_file_refused (fifo, "not a regular file");
      sluice_test_remove_temp (fifo);
      return;
    }

  g_test_trap_subprocess (NULL, 10 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A file of SLUICE_SCENARIO_MAX_SIZE bytes is read, one byte more is
 * refused naming the file and the limit. */
static void
test_file_at_most_max_size (void)
{
  g_autofree char *path = sluice_test_temp_path ("large.pool");
  GString *text = g_string_new (MINIMAL "#");
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  while (text->len < SLUICE_SCENARIO_MAX_SIZE - 1)
    g_string_append_c (text, 'x');
  g_string_append_c (text, '\n');
  g_assert_cmpuint (text->len, ==, SLUICE_SCENARIO_MAX_SIZE);

  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  scenario = sluice_scenario_new_from_file (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, 2);

  g_string_append_c (text, '\n');
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  assert_file_refused (path, "1048576 bytes");
  assert_file_refused (path, "limit");

  sluice_test_remove_temp (path);
  g_string_free (text, TRUE);
}

/* Data and bytes above SLUICE_SCENARIO_MAX_SIZE are refused too, with or
 * without a length. */
static void
test_parse_data_at_most_max_size (void)
{
  gsize size = SLUICE_SCENARIO_MAX_SIZE + 1;
  char *text = g_malloc (size + 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  memset (text, '#', size);
  text[size] = '\0';
  assert_refused (text, (gssize) size, SLUICE_SCENARIO_ERROR_IO, "limit", "1048576 bytes", NULL);
  assert_refused (text, -1, SLUICE_SCENARIO_ERROR_IO, "limit", NULL);

  bytes = g_bytes_new_take (text, size);
  scenario = sluice_scenario_new_from_bytes (bytes, "test.pool", NULL, &error);
  g_assert_null (scenario);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO);
}

/* ---- the [retry] group (docs/retry-policy.md, issue 9) ---------------------- */

#define EXPONENTIAL MINIMAL "[retry]\nbackoff=exponential\n"

static void
test_retry_parse_every_key (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  scenario = parse (MINIMAL "[retry]\nbackoff=exponential\nbase=0.25\ncap=30\njitter=none\n"
                    "seed=4294967295\ndeadline=2.5\nbudget=12.125\nbudget-ratio=0.001\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_backoff (scenario), ==, SLUICE_BACKOFF_EXPONENTIAL);
  g_assert_cmpfloat (sluice_scenario_get_backoff_base (scenario), ==, 0.25);
  g_assert_cmpfloat (sluice_scenario_get_backoff_cap (scenario), ==, 30);
  g_assert_cmpint (sluice_scenario_get_jitter (scenario), ==, SLUICE_JITTER_NONE);
  g_assert_cmpuint (sluice_scenario_get_retry_seed (scenario), ==, G_MAXUINT32);
  g_assert_cmpfloat (sluice_scenario_get_item_deadline (scenario), ==, 2.5);
  g_assert_cmpfloat (sluice_scenario_get_retry_budget (scenario), ==, 12.125);
  g_assert_cmpfloat (sluice_scenario_get_retry_budget_ratio (scenario), ==, 0.001);
  /* [retry] seed is the pool's generator, not the mix's [handler] seed. */
  g_assert_cmpuint (sluice_scenario_get_seed (scenario), ==, 0);
  for (guint k = 0; k < SLUICE_RETRY_N_KEYS; k++)
    g_assert_true (sluice_scenario_has_retry_key (scenario, _sluice_scenario_retry_keys[k]));
  g_assert_false (sluice_scenario_has_retry_key (scenario, "retries"));
  g_clear_object (&scenario);

  /* The other words, and the edges of each range. */
  scenario = parse (MINIMAL "[retry]\nbackoff=exponential\nbase=0.000001\ncap=3600\njitter=full\n"
                    "seed=0\ndeadline=0.000001\nbudget=1000000\nbudget-ratio=1e-3\n", &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_jitter (scenario), ==, SLUICE_JITTER_FULL);
  g_assert_cmpfloat (sluice_scenario_get_backoff_base (scenario), ==, 0.000001);
  g_assert_cmpfloat (sluice_scenario_get_backoff_cap (scenario), ==, 3600);
  g_assert_cmpfloat (sluice_scenario_get_item_deadline (scenario), ==, 0.000001);
  g_assert_cmpfloat (sluice_scenario_get_retry_budget (scenario), ==, 1000000);
  g_assert_cmpfloat (sluice_scenario_get_retry_budget_ratio (scenario), ==, 0.001);
  g_clear_object (&scenario);

  /* A cap equal to the base, a base up to the default cap without a cap. */
  g_object_unref (assert_round_trip (EXPONENTIAL "base=2\ncap=2\n"));
  scenario = assert_round_trip (EXPONENTIAL "base=10\n");
  g_assert_cmpfloat (sluice_scenario_get_backoff_cap (scenario), ==, 10);
}

static void
test_retry_defaults (void)
{
  g_autoptr(SluiceScenario) scenario = parse (MINIMAL, NULL);
  g_autoptr(SluiceScenario) empty = parse (MINIMAL "[retry]\n", NULL);
  g_autoptr(SluiceScenario) fresh = sluice_scenario_new ();
  SluiceScenario *all[] = { scenario, empty, fresh };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autofree char *data = sluice_scenario_to_data (all[i], NULL);

      g_assert_cmpint (sluice_scenario_get_backoff (all[i]), ==, SLUICE_BACKOFF_NONE);
      g_assert_cmpfloat (sluice_scenario_get_backoff_base (all[i]), ==, 0.1);
      g_assert_cmpfloat (sluice_scenario_get_backoff_cap (all[i]), ==, 10);
      g_assert_cmpint (sluice_scenario_get_jitter (all[i]), ==, SLUICE_JITTER_FULL);
      g_assert_cmpuint (sluice_scenario_get_retry_seed (all[i]), ==, 0);
      g_assert_cmpfloat (sluice_scenario_get_item_deadline (all[i]), ==, 0);
      g_assert_cmpfloat (sluice_scenario_get_retry_budget (all[i]), ==, 0);
      g_assert_cmpfloat (sluice_scenario_get_retry_budget_ratio (all[i]), ==, 0.1);
      for (guint k = 0; k < SLUICE_RETRY_N_KEYS; k++)
        g_assert_false (sluice_scenario_has_retry_key (all[i], _sluice_scenario_retry_keys[k]));
      /* Nothing given, nothing saved. */
      g_assert_null (strstr (data, "[retry]"));
    }

  /* The defaults written out are accepted, and so are the pool's. */
  {
    g_autoptr(SluiceScenario) written = parse (MINIMAL "[retry]\nbackoff=none\nseed=0\ndeadline=0\nbudget=0\n", NULL);
    g_autoptr(SluiceScenario) exponential = parse (EXPONENTIAL "base=0.1\ncap=10\njitter=full\n"
                                                   "budget=1\nbudget-ratio=0.1\n", NULL);

    g_assert_nonnull (written);
    g_assert_nonnull (exponential);
  }
}

/* Every malformed value names the file, the line, [retry] and the key, and
 * says what it expected. */
static void
test_retry_malformed_refused (void)
{
  const struct { const char *line, *key, *words[3]; } cases[] = {
    { "backoff=Exponential", "backoff", { "none | exponential", "Exponential" } },
    { "backoff=", "backoff", { "none | exponential" } },
    { "backoff=linear", "backoff", { "none | exponential", "linear" } },
    { "base=0", "base", { "out of range", "> 0" } },
    { "base=-0.1", "base", { "out of range" } },
    { "base=fast", "base", { "not a decimal", "fast" } },
    { "base=0x1p-3", "base", { "not a decimal" } },
    { "base=inf", "base", { "not a decimal" } },
    { "base=", "base", { "not a decimal" } },
    { "base=1e-7", "base", { "microsecond", "0.000001" } },
    { "cap=3601", "cap", { "out of range", "3600" } },
    { "cap=0", "cap", { "out of range" } },
    { "cap=nan", "cap", { "not a decimal" } },
    { "jitter=half", "jitter", { "full | none", "half" } },
    { "jitter=None", "jitter", { "full | none" } },
    { "seed=-1", "seed", { "0 to 4294967295" } },
    { "seed=4294967296", "seed", { "out of range", "0 to 4294967295" } },
    { "seed=1.5", "seed", { "not an integer" } },
    { "seed=0x10", "seed", { "not an integer" } },
    { "deadline=-1", "deadline", { "out of range", "0 for none" } },
    { "deadline=soon", "deadline", { "not a decimal" } },
    { "deadline=1e-7", "deadline", { "microsecond" } },
    { "deadline=2e9", "deadline", { "out of range" } },
    { "budget=-1", "budget", { "out of range", "1000000" } },
    { "budget=1000001", "budget", { "out of range", "1000000" } },
    { "budget=1.0005", "budget", { "3 decimals", "1.0005" } },
    { "budget=1e-4", "budget", { "3 decimals" } },
    { "budget=lots", "budget", { "not a decimal" } },
    { "budget-ratio=0", "budget-ratio", { "out of range", "> 0" } },
    { "budget-ratio=-0.5", "budget-ratio", { "out of range" } },
    { "budget-ratio=0.0005", "budget-ratio", { "3 decimals" } },
    { "budget-ratio=1.2345", "budget-ratio", { "3 decimals" } },
    { "budget-ratio=2000000", "budget-ratio", { "out of range" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      /* A first line that keeps conflicts away: the value alone is wrong. */
      const char *key = cases[i].key;
      const char *first = g_str_equal (key, "budget-ratio") ? "budget=1" : "backoff=none";
      g_autofree char *text = NULL;
      g_autofree char *place = NULL;

      if (g_str_equal (key, "base") || g_str_equal (key, "cap") || g_str_equal (key, "jitter"))
        first = "backoff=exponential";
      else if (g_str_equal (key, "backoff"))
        first = "seed=1";
      text = g_strdup_printf (MINIMAL "[retry]\n%s\n%s\n", first, cases[i].line);
      place = g_strdup_printf ("test.pool:7: [retry] %s:", cases[i].key);
      assert_refused (text, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, place,
                      cases[i].words[0], cases[i].words[1] ? cases[i].words[1] : place, NULL);
    }

  /* Unknown keys are still refused, naming the group's keys; a key twice too. */
  assert_refused (EXPONENTIAL "retries=3\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "test.pool:7: [retry] retries", "backoff, base, cap, jitter, seed, deadline, budget, "
                  "budget-ratio", NULL);
  assert_refused (EXPONENTIAL "base[de]=1\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY, "[retry] base[de]", NULL);
  assert_refused (EXPONENTIAL "base=1\nbase=2\n", -1, SLUICE_SCENARIO_ERROR_PARSE,
                  "test.pool:8: [retry] base", "line 7", NULL);
  assert_refused (EXPONENTIAL "[source]\ncount=1\n[retry]\nseed=1\n", -1, SLUICE_SCENARIO_ERROR_PARSE,
                  "test.pool:9: [retry]", "line 5", NULL);
  assert_refused (MINIMAL "[retries]\nbase=1\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP,
                  "test.pool:5: [retries]", "[retry]", "[pool]", NULL);
}

/* The conflicts of docs/retry-policy.md: exit 2 like any bad value, naming the
 * key and the expected form. */
static void
test_retry_conflicts_refused (void)
{
  const struct { const char *text, *place, *word; } cases[] = {
    /* base, cap or jitter with backoff=none, by default or written */
    { MINIMAL "[retry]\nbase=0.2\n", "test.pool:6: [retry] base:", "backoff=exponential" },
    { MINIMAL "[retry]\ncap=5\n", "test.pool:6: [retry] cap:", "backoff=none" },
    { MINIMAL "[retry]\njitter=full\n", "test.pool:6: [retry] jitter:", "backoff=exponential" },
    { MINIMAL "[retry]\nbackoff=none\njitter=none\nseed=1\n", "test.pool:7: [retry] jitter:", "backoff=none" },
    /* budget-ratio without a budget, absent or 0 */
    { MINIMAL "[retry]\nbudget-ratio=0.5\n", "test.pool:6: [retry] budget-ratio:", "budget above 0" },
    { MINIMAL "[retry]\nbudget=0\nbudget-ratio=0.5\n", "test.pool:7: [retry] budget-ratio:", "budget" },
    /* a cap below the base, given or by default */
    { EXPONENTIAL "base=2\ncap=1\n", "test.pool:8: [retry] cap:", "1 is below base (2)" },
    { EXPONENTIAL "cap=0.05\n", "test.pool:7: [retry] cap:", "below base (0.1)" },
    /* a base above the default cap, with no cap: the message names base */
    { EXPONENTIAL "base=10.5\n", "test.pool:7: [retry] base:", "default cap of 10" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    assert_refused (cases[i].text, -1, SLUICE_SCENARIO_ERROR_CONFLICT, cases[i].place, cases[i].word, NULL);

  /* seed, deadline and budget go with any backoff. */
  g_object_unref (assert_round_trip (MINIMAL "[retry]\nseed=5\ndeadline=1\nbudget=2\n"));
  g_object_unref (assert_round_trip (EXPONENTIAL "jitter=none\nseed=5\n"));
}

/* Load, save, load: the same scenario and the same text; only the keys
 * given are saved, in the order of the spec's table. */
static void
test_retry_round_trip (void)
{
  const char *texts[] = {
    MINIMAL "[retry]\nbackoff=exponential\nbase=0.25\ncap=30\njitter=none\nseed=4294967295\n"
    "deadline=2.5\nbudget=12.125\nbudget-ratio=0.001\n",
    MINIMAL "[retry]\nbudget-ratio=0.3\nbudget=7\ndeadline=0.1\n",
    MINIMAL "[retry]\nbackoff=none\n",
    EXPONENTIAL,
    MINIMAL "[retry]\ndeadline=0\nbudget=0\nseed=0\n",
    MINIMAL "[retry]\nbackoff=exponential\nbase=1e-3\ncap=3600\n",
    MINIMAL "[retry]\ndeadline=0.000001\nbudget=1000000\nbudget-ratio=999999.999\n",
  };
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) other = NULL;
  g_autofree char *data = NULL;
  const char *difference = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_object_unref (assert_round_trip (texts[i]));

  scenario = assert_round_trip (texts[1]);
  data = sluice_scenario_to_data (scenario, NULL);
  g_test_message ("%s", data);
  g_assert_nonnull (strstr (data, "\n[retry]\ndeadline=0.1\nbudget=7\nbudget-ratio=0.3\n"));
  g_assert_null (strstr (data, "backoff="));
  g_clear_pointer (&data, g_free);
  g_clear_object (&scenario);

  scenario = assert_round_trip (texts[5]);
  data = sluice_scenario_to_data (scenario, NULL);
  g_assert_nonnull (strstr (data, "\n[retry]\nbackoff=exponential\nbase=0.001\ncap=3600\n"));

  /* The comparison the fuzz target relies on sees every [retry] field. */
  {
    const struct { const char *a, *b, *what; } pairs[] = {
      { EXPONENTIAL, MINIMAL, "[retry] keys given" },
      { MINIMAL "[retry]\nbackoff=none\n", EXPONENTIAL, "[retry] backoff" },
      { EXPONENTIAL "base=0.2\n", EXPONENTIAL "base=0.3\n", "[retry] base" },
      { EXPONENTIAL "cap=2\n", EXPONENTIAL "cap=3\n", "[retry] cap" },
      { EXPONENTIAL "jitter=none\n", EXPONENTIAL "jitter=full\n", "[retry] jitter" },
      { MINIMAL "[retry]\nseed=1\n", MINIMAL "[retry]\nseed=2\n", "[retry] seed" },
      { MINIMAL "[retry]\ndeadline=1\n", MINIMAL "[retry]\ndeadline=2\n", "[retry] deadline" },
      { MINIMAL "[retry]\nbudget=1\n", MINIMAL "[retry]\nbudget=2\n", "[retry] budget" },
      { MINIMAL "[retry]\nbudget=1\nbudget-ratio=1\n", MINIMAL "[retry]\nbudget=1\nbudget-ratio=2\n",
        "[retry] budget-ratio" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
      {
        g_autoptr(SluiceScenario) a = parse (pairs[i].a, NULL);
        g_autoptr(SluiceScenario) b = parse (pairs[i].b, NULL);

        g_assert_false (_sluice_scenario_equal (a, b, &difference));
        g_assert_cmpstr (difference, ==, pairs[i].what);
      }
  }

  other = parse (texts[0], NULL);
  g_assert_true (_sluice_scenario_equal (other, other, &difference));
  g_assert_null (difference);
}

/* --set retry.KEY=VALUE goes through the same loader: checked the same
 * way, and named as the --set it came from. */
static void
test_retry_overrides (void)
{
  const char *sets[] = { "retry.backoff=exponential", "retry.base=0.2", "retry.seed=9", NULL };
  const char *bad_value[] = { "retry.base=0", NULL };
  const char *bad_key[] = { "retry.bases=1", NULL };
  const char *conflict[] = { "retry.backoff=none", NULL };
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;

  scenario = sluice_scenario_new_from_data (MINIMAL, -1, "test.pool", sets, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_backoff (scenario), ==, SLUICE_BACKOFF_EXPONENTIAL);
  g_assert_cmpfloat (sluice_scenario_get_backoff_base (scenario), ==, 0.2);
  g_assert_cmpuint (sluice_scenario_get_retry_seed (scenario), ==, 9);
  data = sluice_scenario_to_data (scenario, NULL);
  g_assert_nonnull (strstr (data, "[retry]\nbackoff=exponential\nbase=0.2\nseed=9\n"));
  g_clear_object (&scenario);

  /* A --set replaces the file's value. */
  scenario = sluice_scenario_new_from_data (EXPONENTIAL "base=0.5\n", -1, "test.pool", sets + 1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (sluice_scenario_get_backoff_base (scenario), ==, 0.2);
  g_clear_object (&scenario);

  scenario = sluice_scenario_new_from_data (EXPONENTIAL, -1, "test.pool", bad_value, &error);
  g_assert_null (scenario);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "test.pool: --set retry.base: 0 is out of range"));
  g_clear_error (&error);

  scenario = sluice_scenario_new_from_data (MINIMAL, -1, "test.pool", bad_key, &error);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY);
  g_assert_nonnull (strstr (error->message, "--set retry.bases"));
  g_clear_error (&error);

  /* A --set can make a conflict with what the file says: named where it is. */
  scenario = sluice_scenario_new_from_data (EXPONENTIAL "cap=4\n", -1, "test.pool", conflict, &error);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_CONFLICT);
  g_assert_nonnull (strstr (error->message, "test.pool:7: [retry] cap:"));
  g_clear_error (&error);

  /* sluice-run --set retry.base=0.2: the pool gets it. */
  if (sluice_run_path () != NULL)
    {
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr(JsonNode) report = NULL;
      JsonObject *delays;

      g_assert_cmpint (run_cli (MINIMAL "max-retries=1\nretryable=ValueError\n[source]\ncount=1\n"
                                "[handler]\ndefault=fail 1 ValueError 0.1\n"
                                "[retry]\nbackoff=exponential\njitter=none\n[run]\nclock=virtual\n",
                                "--set=retry.base=0.2", &out, &err), ==, 0);
      report = json_from_string (out, NULL);
      delays = json_object_get_object_member (json_node_get_object (report), "backoff_us");
      g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (delays, "0"), 0), ==, 200000);

      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (run_cli (EXPONENTIAL, "--set=retry.cap=0.01", &out, &err), ==, 2);
      g_assert_nonnull (strstr (err, "--set retry.cap"));
    }
}

/* The pool @scenario builds has these retry-policy properties. */
static void
assert_pool_retry_policy (SluiceScenario *scenario,
                          SluiceBackoff   backoff,
                          double          base,
                          double          cap,
                          SluiceJitter    jitter,
                          guint           seed,
                          double          deadline,
                          double          budget,
                          double          ratio)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceFaultHandler) handler = sluice_scenario_create_handler (scenario, clock);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(GError) error = NULL;
  SluiceBackoff got_backoff;
  SluiceJitter got_jitter;
  double got_base, got_cap, got_deadline, got_budget, got_ratio;
  guint got_seed;

  pool = sluice_scenario_create_pool (scenario, SLUICE_HANDLER (handler), clock, &error);
  g_assert_no_error (error);
  g_object_get (pool, "backoff", &got_backoff, "backoff-base", &got_base, "backoff-cap", &got_cap,
                "jitter", &got_jitter, "seed", &got_seed, "item-deadline", &got_deadline,
                "retry-budget", &got_budget, "retry-budget-ratio", &got_ratio, NULL);
  g_assert_cmpint (got_backoff, ==, backoff);
  g_assert_cmpfloat (got_base, ==, base);
  g_assert_cmpfloat (got_cap, ==, cap);
  g_assert_cmpint (got_jitter, ==, jitter);
  g_assert_cmpuint (got_seed, ==, seed);
  g_assert_cmpfloat (got_deadline, ==, deadline);
  g_assert_cmpfloat (got_budget, ==, budget);
  g_assert_cmpfloat (got_ratio, ==, ratio);
}

/* The runner builds the pool with the [retry] options as its properties;
 * without [retry], the pool's own defaults: the capstone. */
static void
test_retry_pool_properties (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) plain = parse (MINIMAL, NULL);
  g_autoptr(GError) error = NULL;

  scenario = parse (MINIMAL "[retry]\nbackoff=exponential\nbase=0.25\ncap=30\njitter=none\nseed=77\n"
                    "deadline=2.5\nbudget=12.125\nbudget-ratio=0.5\n", &error);
  g_assert_no_error (error);
  assert_pool_retry_policy (scenario, SLUICE_BACKOFF_EXPONENTIAL, 0.25, 30, SLUICE_JITTER_NONE, 77,
                            2.5, 12.125, 0.5);
  assert_pool_retry_policy (plain, SLUICE_BACKOFF_NONE, 0.1, 10, SLUICE_JITTER_FULL, 0, 0, 0, 0.1);
}

/* The same seed gives the same delays twice; another seed others. */
static void
test_retry_same_seed_same_delays (void)
{
#define SEEDED(seed) MINIMAL "max-retries=4\nretryable=ValueError\nkeep-going=true\n[source]\ncount=8\n" \
                     "[handler]\ndefault=fail 3 ValueError 0.05\n[retry]\nbackoff=exponential\nseed=" seed "\n" \
                     "[run]\nclock=virtual\n"
  g_autoptr(SluiceScenario) a = parse (SEEDED ("5"), NULL);
  g_autoptr(SluiceScenario) b = parse (SEEDED ("6"), NULL);
  g_autoptr(JsonNode) first = run_scenario (a);
  g_autoptr(JsonNode) second = run_scenario (a);
  g_autoptr(JsonNode) other = run_scenario (b);
  JsonObject *delays = json_object_get_object_member (json_node_get_object (first), "backoff_us");
  JsonNode *first_delays = json_object_get_member (json_node_get_object (first), "backoff_us");
  JsonNode *other_delays = json_object_get_member (json_node_get_object (other), "backoff_us");

  g_assert_true (json_node_equal (first, second));
  g_assert_false (json_node_equal (first_delays, other_delays));

  /* Three retries per item, each within [0, min(cap, base * 2^(r-1))]. */
  g_assert_cmpuint (json_object_get_size (delays), ==, 8);
  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *key = g_strdup_printf ("%u", i);
      JsonArray *list = json_object_get_array_member (delays, key);

      g_assert_cmpuint (json_array_get_length (list), ==, 3);
      for (guint r = 0; r < 3; r++)
        {
          gint64 d = json_array_get_int_element (list, r);

          g_assert_cmpint (d, >=, 0);
          g_assert_cmpint (d, <=, 100000 << r);
        }
    }
}

/* Runs @check on every scenario of the tests that runs on the virtual
 * clock and ends with a report (not a deadlock: "_exit_status"); gives how
 * many @check compared. */
typedef gboolean (*ScenarioCheck) (const char     *file,
                                   const char     *path,
                                   SluiceScenario *plain);

static guint
for_each_virtual_scenario (ScenarioCheck check)
{
  g_autofree char *dir_path = g_test_build_filename (G_TEST_DIST, "scenarios", NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *file;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((file = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, file, NULL);
      g_autoptr(SluiceScenario) plain = NULL;
      g_autofree char *expected_path = NULL;
      g_autofree char *expected_text = NULL;

      if (!g_str_has_suffix (file, ".pool"))
        continue;

      expected_path = g_strdup_printf ("%.*s.expected.json", (int) (strlen (path) - strlen (".pool")), path);
      if (g_file_get_contents (expected_path, &expected_text, NULL, NULL) &&
          strstr (expected_text, "\"_exit_status\"") != NULL)
        continue;
      plain = sluice_scenario_new_from_file (path, NULL, NULL);
      if (plain != NULL && sluice_scenario_get_clock_kind (plain) == SLUICE_CLOCK_VIRTUAL &&
          check (file, path, plain))
        n++;
    }

  return n;
}

/* The reports of @plain and of the scenario at @path with @overrides,
 * which must load. */
static void
run_both (const char          *path,
          SluiceScenario      *plain,
          const char * const  *overrides,
          JsonNode           **expected,
          JsonNode           **got)
{
  g_autoptr(SluiceScenario) overridden = sluice_scenario_new_from_file (path, overrides, NULL);

  g_assert_nonnull (overridden);
  *expected = run_scenario (plain);
  *got = run_scenario (overridden);
}

static void
assert_same_reports (const char *file,
                     JsonNode   *expected,
                     JsonNode   *got,
                     const char *what)
{
  if (!json_node_equal (expected, got))
    {
      g_autofree char *e = json_to_string (expected, FALSE);
      g_autofree char *g = json_to_string (got, FALSE);
      g_error ("%s: the report changed with %s:\n%s\n%s", file, what, e, g);
    }
}

/* A scenario whose [retry] is not at its defaults is not compared. */
static gboolean
check_retry_defaults (const char     *file,
                      const char     *path,
                      SluiceScenario *plain)
{
  const char *defaults[] = { "retry.backoff=none", "retry.seed=0", "retry.deadline=0", "retry.budget=0", NULL };
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(JsonNode) got = NULL;

  if (plain->retry_given != 0)
    return FALSE;

  run_both (path, plain, defaults, &expected, &got);
  assert_same_reports (file, expected, got, "the [retry] defaults");
  return TRUE;
}

/* With every [retry] key at its default, every scenario of the tests on the
 * virtual clock gives the very report it gave without them. */
static void
test_retry_defaults_keep_reports (void)
{
  g_assert_cmpuint (for_each_virtual_scenario (check_retry_defaults), >, 20);
}

/* The seed folders of fuzz-scenario (tests/fuzz/meson.build): its own
 * corpus, and the scenarios, presets and lessons it reads in place. */
static const char * const fuzz_seed_folders[] = {
  "fuzz/corpus", "scenarios", "scenarios/bad", "../data/presets", "../data/lessons",
};

/* The fuzz target's property on the .pool inputs of its seed folders that
 * have one of the words of @data (a NULL-terminated array), without the
 * fuzzer: refused with a scenario error naming the file, or loaded, saved
 * and loaded back equal to the same text. */
static void
test_fuzz_corpus_round_trip (gconstpointer data)
{
  const char * const *words = data;
  g_autoptr(GPtrArray) paths = pool_files (fuzz_seed_folders, G_N_ELEMENTS (fuzz_seed_folders));
  guint loaded = 0, refused = 0;

  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *text = NULL;
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(GError) error = NULL;
      gsize length = 0;
      gboolean has_word = FALSE;

      g_assert_true (g_file_get_contents (path, &text, &length, NULL));
      for (guint w = 0; words[w] != NULL; w++)
        has_word |= strstr (text, words[w]) != NULL;
      if (!has_word)
        continue;

      g_test_message ("%s", path);
      scenario = sluice_scenario_new_from_data (text, (gssize) length, "fuzz.pool", NULL, &error);
      if (scenario == NULL)
        {
          g_assert_nonnull (error);
          g_assert_true (error->domain == SLUICE_SCENARIO_ERROR);
          g_assert_true (g_str_has_prefix (error->message, "fuzz.pool:"));
          refused++;
          continue;
        }

      g_object_unref (assert_round_trip (text));
      loaded++;
    }

  g_assert_cmpuint (loaded, >=, 5);
  g_assert_cmpuint (refused, >=, 3);
}

/* ---- fatal errors, the shutdown deadline, snapshots (issue 10) --------- */

static void
assert_snapshot_times (SluiceScenario *scenario,
                       guint           n,
                       ...)
{
  guint got = G_MAXUINT;
  const double *times = sluice_scenario_get_snapshot_times (scenario, &got);
  va_list args;

  g_assert_cmpuint (got, ==, n);
  g_assert_true ((times == NULL) == (n == 0));
  va_start (args, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat (times[i], ==, va_arg (args, double));
  va_end (args);
}

/* [pool] fatal and shutdown-timeout, [submit] snapshot-at: their values,
 * edges and defaults. */
static void
test_shutdown_parse_keys (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) plain = parse (MINIMAL, NULL);
  g_autoptr(SluiceScenario) fresh = sluice_scenario_new ();
  g_autoptr(GError) error = NULL;

  scenario = parse (MINIMAL "fatal=DiskFullError; AuthError ;\nshutdown-timeout=2.5\n"
                    "[submit]\nsnapshot-at=0.5;0.005;0;1e3;0.5\n", &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (sluice_scenario_get_fatal (scenario), ((const char *[]) { "DiskFullError", "AuthError", NULL }));
  g_assert_cmpfloat (sluice_scenario_get_shutdown_timeout (scenario), ==, 2.5);
  /* In the order written, a time twice too. */
  assert_snapshot_times (scenario, 5, 0.5, 0.005, 0.0, 1000.0, 0.5);
  /* fatal does not change retryable. */
  g_assert_cmpstrv (sluice_scenario_get_retryable (scenario), ((const char *[]) { NULL }));
  g_clear_object (&scenario);

  /* The edges, and empty lists. */
  scenario = parse (MINIMAL "fatal=\nshutdown-timeout=0.000001\n[submit]\nsnapshot-at=\n", &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (sluice_scenario_get_fatal (scenario), ((const char *[]) { NULL }));
  g_assert_cmpfloat (sluice_scenario_get_shutdown_timeout (scenario), ==, 0.000001);
  assert_snapshot_times (scenario, 0);
  g_clear_object (&scenario);

  scenario = parse (MINIMAL "shutdown-timeout=1e9\n[submit]\nsnapshot-at=1000000000;0.000001;\n", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (sluice_scenario_get_shutdown_timeout (scenario), ==, 1e9);
  assert_snapshot_times (scenario, 2, 1e9, 0.000001);
  g_clear_object (&scenario);

  /* The defaults: no fatal type, no deadline (0), no snapshot; an empty
   * [submit] is allowed. */
  scenario = parse (MINIMAL "shutdown-timeout=0\n[submit]\n", &error);
  g_assert_no_error (error);
  {
    SluiceScenario *all[] = { plain, fresh, scenario };

    for (guint i = 0; i < G_N_ELEMENTS (all); i++)
      {
        g_assert_cmpstrv (sluice_scenario_get_fatal (all[i]), ((const char *[]) { NULL }));
        g_assert_cmpfloat (sluice_scenario_get_shutdown_timeout (all[i]), ==, 0);
        assert_snapshot_times (all[i], 0);
      }
  }
}

/* Every malformed value names the file, the line, the group and key, and
 * says what it expected; [submit] has no other key in stream mode. */
static void
test_shutdown_malformed_refused (void)
{
  const struct { const char *line, *place, *words[2]; } pool_cases[] = {
    { "fatal=Disk Full", "test.pool:5: [pool] fatal:", { "“Disk Full” is not an error type", "TimeoutError;ValueError" } },
    { "fatal=9Lives", "test.pool:5: [pool] fatal:", { "not an error type", "not starting with a digit" } },
    { "fatal=DiskFullError;;AuthError", "test.pool:5: [pool] fatal:", { "type name 2 is empty", "';'-separated" } },
    { "fatal=;DiskFullError", "test.pool:5: [pool] fatal:", { "type name 1 is empty" } },
    { "shutdown-timeout=-1", "test.pool:5: [pool] shutdown-timeout:", { "-1 is out of range", "0 for none" } },
    { "shutdown-timeout=5s", "test.pool:5: [pool] shutdown-timeout:", { "“5s” is not a decimal number", "seconds" } },
    { "shutdown-timeout=0x1p3", "test.pool:5: [pool] shutdown-timeout:", { "not a decimal number" } },
    { "shutdown-timeout=inf", "test.pool:5: [pool] shutdown-timeout:", { "not a decimal number" } },
    { "shutdown-timeout=", "test.pool:5: [pool] shutdown-timeout:", { "not a decimal number" } },
    { "shutdown-timeout=1e-7", "test.pool:5: [pool] shutdown-timeout:", { "microsecond", "0.000001" } },
    { "shutdown-timeout=2e9", "test.pool:5: [pool] shutdown-timeout:", { "out of range", "at most 1e+09" } },
  };
  const struct { const char *line, *words[2]; } submit_cases[] = {
    { "snapshot-at=0.1;-0.5", { "-0.5 is out of range", "';'-separated times in seconds" } },
    { "snapshot-at=0.1;later", { "“later” is not a decimal number", "';'-separated times" } },
    { "snapshot-at=0.1;;0.2", { "time 2 is empty", "0.005;0.5" } },
    { "snapshot-at=;", { "time 1 is empty" } },
    { "snapshot-at=1e-7", { "microsecond" } },
    { "snapshot-at=0.5 s", { "not a decimal number" } },
    { "snapshot-at=0,5", { "not a decimal number" } },
    { "snapshot-at=2e9", { "out of range" } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (pool_cases); i++)
    {
      g_autofree char *text = g_strdup_printf (MINIMAL "%s\n", pool_cases[i].line);

      assert_refused (text, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, pool_cases[i].place,
                      pool_cases[i].words[0], pool_cases[i].words[1] ? pool_cases[i].words[1] : "expected", NULL);
    }

  for (guint i = 0; i < G_N_ELEMENTS (submit_cases); i++)
    {
      g_autofree char *text = g_strdup_printf (MINIMAL "[submit]\n%s\n", submit_cases[i].line);

      assert_refused (text, -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "test.pool:6: [submit] snapshot-at:",
                      submit_cases[i].words[0], submit_cases[i].words[1] ? submit_cases[i].words[1] : "expected",
                      NULL);
    }

  /* In stream mode the submitter's keys are a conflict (docs/submit-and-shutdown.md). */
  assert_refused (MINIMAL "[submit]\nsnapshot-at=1\ngive-up-after=0.01\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "test.pool:7: [submit] give-up-after", "mode=submit", NULL);
  assert_refused (MINIMAL "[submit]\ngive-up.3=0.01\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "test.pool:6: [submit] give-up.3", "stream", NULL);
  assert_refused (MINIMAL "[submit]\nclose-after-seconds=1\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "[submit] close-after-seconds", NULL);
  assert_refused (MINIMAL "[run]\nmode=service\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "[run] mode",
                  "stream | submit", NULL);
  assert_refused (MINIMAL "[submit]\nsnapshot-at=1\nsnapshot-at=2\n", -1, SLUICE_SCENARIO_ERROR_PARSE,
                  "test.pool:7: [submit] snapshot-at", "line 6", NULL);
  /* The unknown-group message names [submit] among the groups. */
  assert_refused (MINIMAL "[submits]\nsnapshot-at=1\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP,
                  "[submits]", "[submit]", NULL);
}

/* Saved and loaded back equal; written only when used, so a capstone
 * scenario saves as it did. */
static void
test_shutdown_round_trip (void)
{
  const char *texts[] = {
    MINIMAL "fatal=DiskFullError;AuthError\nshutdown-timeout=2.5\n[submit]\nsnapshot-at=0.5;0.005;0;0.5\n",
    MINIMAL "fatal=DiskFullError\n",
    MINIMAL "shutdown-timeout=0.000001\n",
    MINIMAL "[submit]\nsnapshot-at=1e3;0.000001\n",
    MINIMAL "fatal=\nshutdown-timeout=0\n[submit]\nsnapshot-at=\n",
  };
  const struct { const char *a, *b, *what; } pairs[] = {
    { MINIMAL "fatal=A\n", MINIMAL "fatal=B\n", "[pool] fatal" },
    { MINIMAL "fatal=A;B\n", MINIMAL "fatal=B;A\n", "[pool] fatal" },
    { MINIMAL "fatal=A\n", MINIMAL, "[pool] fatal" },
    { MINIMAL "shutdown-timeout=1\n", MINIMAL, "[pool] shutdown-timeout" },
    { MINIMAL "[submit]\nsnapshot-at=1\n", MINIMAL, "[submit] snapshot-at" },
    { MINIMAL "[submit]\nsnapshot-at=1;2\n", MINIMAL "[submit]\nsnapshot-at=2;1\n", "[submit] snapshot-at" },
    { MINIMAL "[submit]\nsnapshot-at=1;1\n", MINIMAL "[submit]\nsnapshot-at=1\n", "[submit] snapshot-at" },
  };
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenario) empty = NULL;
  g_autoptr(SluiceScenario) plain = parse (MINIMAL, NULL);
  g_autofree char *data = NULL;
  g_autofree char *empty_data = NULL;
  g_autofree char *plain_data = NULL;
  const char *difference = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_object_unref (assert_round_trip (texts[i]));

  scenario = assert_round_trip (texts[0]);
  data = sluice_scenario_to_data (scenario, NULL);
  g_test_message ("%s", data);
  g_assert_nonnull (strstr (data, "\nkeep-going=false\nfatal=DiskFullError;AuthError\nshutdown-timeout=2.5\n"));
  g_assert_nonnull (strstr (data, "\n[submit]\nsnapshot-at=0.5;0.005;0;0.5\n"));

  /* At their defaults nothing is written: the same text as without them. */
  empty = assert_round_trip (texts[4]);
  empty_data = sluice_scenario_to_data (empty, NULL);
  plain_data = sluice_scenario_to_data (plain, NULL);
  g_assert_cmpstr (empty_data, ==, plain_data);
  g_assert_null (strstr (plain_data, "fatal="));
  g_assert_null (strstr (plain_data, "shutdown-timeout="));
  g_assert_null (strstr (plain_data, "[submit]"));

  /* The comparison the fuzz target relies on sees every new field. */
  g_assert_true (_sluice_scenario_equal (empty, plain, &difference));
  g_assert_null (difference);
  for (guint i = 0; i < G_N_ELEMENTS (pairs); i++)
    {
      g_autoptr(SluiceScenario) a = parse (pairs[i].a, NULL);
      g_autoptr(SluiceScenario) b = parse (pairs[i].b, NULL);

      g_assert_false (_sluice_scenario_equal (a, b, &difference));
      g_assert_cmpstr (difference, ==, pairs[i].what);
      g_assert_false (_sluice_scenario_equal (b, a, &difference));
    }
}

/* --set pool.fatal=…, pool.shutdown-timeout=… and submit.snapshot-at=…
 * go through the same checks, named as the --set they came from. */
static void
test_shutdown_overrides (void)
{
  const char *sets[] = { "pool.fatal=DiskFullError;AuthError", "pool.shutdown-timeout=0.25",
                         "submit.snapshot-at=0.1;0.05", NULL };
  const struct { const char *set, *place, *word; gint code; } bad[] = {
    { "pool.fatal=Disk Full", "test.pool: --set pool.fatal: ", "not an error type", SLUICE_SCENARIO_ERROR_INVALID_VALUE },
    { "pool.shutdown-timeout=-2", "test.pool: --set pool.shutdown-timeout: ", "out of range",
      SLUICE_SCENARIO_ERROR_INVALID_VALUE },
    { "submit.snapshot-at=soon", "test.pool: --set submit.snapshot-at: ", "not a decimal",
      SLUICE_SCENARIO_ERROR_INVALID_VALUE },
    { "submit.give-up-after=1", "test.pool: --set submit.give-up-after: ", "snapshot-at",
      SLUICE_SCENARIO_ERROR_CONFLICT },
  };
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  scenario = sluice_scenario_new_from_data (MINIMAL "fatal=ValueError\nshutdown-timeout=9\n", -1, "test.pool",
                                            sets, &error);
  g_assert_no_error (error);
  g_assert_cmpstrv (sluice_scenario_get_fatal (scenario), ((const char *[]) { "DiskFullError", "AuthError", NULL }));
  g_assert_cmpfloat (sluice_scenario_get_shutdown_timeout (scenario), ==, 0.25);
  assert_snapshot_times (scenario, 2, 0.1, 0.05);
  g_clear_object (&scenario);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *one[] = { bad[i].set, NULL };

      scenario = sluice_scenario_new_from_data (MINIMAL, -1, "test.pool", one, &error);
      g_assert_null (scenario);
      g_assert_error (error, SLUICE_SCENARIO_ERROR, bad[i].code);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, bad[i].place));
      g_assert_nonnull (strstr (error->message, bad[i].word));
      g_clear_error (&error);
    }

  /* sluice-run --set pool.fatal=ValueError: the pool gets it; a retryable
   * ValueError is then never retried and stops the pool at once. */
  if (sluice_run_path () != NULL)
    {
      g_autofree char *out = NULL, *err = NULL;
      g_autoptr(JsonNode) report = NULL;
      JsonObject *object;
      JsonArray *snapshots;

      g_assert_cmpint (run_cli (MINIMAL "max-retries=3\nretryable=ValueError\nmetrics=on\n[source]\ncount=4\n"
                                "[handler]\ndefault=ok 1\nitem.0=fail-always ValueError 0.1\n"
                                "[submit]\nsnapshot-at=0.05\n[run]\nclock=virtual\n",
                                "--set=pool.fatal=ValueError", &out, &err), ==, 0);
      report = json_from_string (out, NULL);
      object = json_node_get_object (report);
      g_assert_cmpstr (json_object_get_string_member (object, "outcome"), ==, "ExceptionGroup");
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (object, "attempts"), "0"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (object, "metrics"), "retry"), ==, 0);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (object, "elapsed"), 0.1, 1e-9);
      snapshots = json_object_get_array_member (object, "snapshots");
      g_assert_cmpuint (json_array_get_length (snapshots), ==, 1);
      g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (snapshots, 0), "queue_depth"), ==, 2);

      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_cmpint (run_cli (MINIMAL, "--set=pool.shutdown-timeout=soon", &out, &err), ==, 2);
      g_assert_nonnull (strstr (err, "--set pool.shutdown-timeout"));
    }
}

/* The pool the runner builds has the fatal types and the shutdown timeout
 * as its properties; without them, the pool's own defaults. */
static void
assert_pool_shutdown (SluiceScenario      *scenario,
                      const char * const  *fatal,
                      double               timeout)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceFaultHandler) handler = sluice_scenario_create_handler (scenario, clock);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) got_fatal = NULL;
  double got_timeout = -1;

  pool = sluice_scenario_create_pool (scenario, SLUICE_HANDLER (handler), clock, &error);
  g_assert_no_error (error);
  g_object_get (pool, "fatal", &got_fatal, "shutdown-timeout", &got_timeout, NULL);
  g_assert_cmpstrv (got_fatal, fatal);
  g_assert_cmpfloat (got_timeout, ==, timeout);
}

static void
test_shutdown_pool_properties (void)
{
  g_autoptr(SluiceScenario) scenario = parse (MINIMAL "fatal=DiskFullError;AuthError\nshutdown-timeout=1.25\n", NULL);
  g_autoptr(SluiceScenario) plain = parse (MINIMAL, NULL);

  assert_pool_shutdown (scenario, (const char * const[]) { "DiskFullError", "AuthError", NULL }, 1.25);
  assert_pool_shutdown (plain, (const char * const[]) { NULL }, 0);
}

/* A scenario that uses none of the new keys is not compared. */
static gboolean
check_unused_shutdown_keys (const char     *file,
                            const char     *path,
                            SluiceScenario *plain)
{
  const char *unused[] = { "pool.fatal=NoSuchError", "pool.shutdown-timeout=1000000",
                           "submit.snapshot-at=1000000;999999", NULL };
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(JsonNode) got = NULL;
  JsonObject *object;
  JsonArray *snapshots;
  guint n;

  if (plain->fatal[0] != NULL || plain->shutdown_timeout > 0 || sluice_scenario_get_snapshot_times (plain, &n) != NULL)
    return FALSE;

  run_both (path, plain, unused, &expected, &got);
  object = json_node_get_object (got);
  snapshots = json_object_get_array_member (object, "snapshots");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (expected),
                                                                         "snapshots")), ==, 0);

  /* Both after the end, taken then, in the order written: the end. */
  g_assert_cmpuint (json_array_get_length (snapshots), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      JsonObject *snapshot = json_array_get_object_element (snapshots, i);
      JsonObject *outcomes = json_object_get_object_member (snapshot, "outcomes");
      gint64 ended = 0;
      g_autoptr(GList) names = json_object_get_members (outcomes);

      g_assert_cmpfloat (json_object_get_double_member (snapshot, "t"), ==, i == 0 ? 1000000 : 999999);
      g_assert_cmpint (json_object_get_int_member (snapshot, "queue_depth"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (snapshot, "busy_workers"), ==, 0);
      g_assert_cmpint (json_object_get_int_member (snapshot, "in_flight"), ==, 0);
      for (GList *l = names; l != NULL; l = l->next)
        ended += json_object_get_int_member (outcomes, l->data);
      g_assert_cmpint (ended, <=, json_object_get_int_member (object, "pulled"));
      if (json_object_has_member (outcomes, "ok"))
        g_assert_cmpint (json_object_get_int_member (outcomes, "ok"), >=,
                         json_array_get_length (json_object_get_array_member (object, "results")));
    }

  json_object_set_array_member (object, "snapshots", json_array_new ());
  assert_same_reports (file, expected, got, "a fatal type never raised, a deadline never reached and "
                                            "snapshots after the end");
  return TRUE;
}

/* With a fatal type no handler raises, a shutdown deadline no run reaches
 * and snapshots after the end, every scenario of the tests on the virtual
 * clock gives the report it gave without them, and elapsed stays the
 * run's: only `snapshots` differs, showing the end. */
static void
test_shutdown_unused_keys_keep_reports (void)
{
  g_assert_cmpuint (for_each_virtual_scenario (check_unused_shutdown_keys), >, 20);
}

/* The summary says what the fatal error and the deadline did, which
 * attempts overran it, and what each snapshot saw. */
static void
test_shutdown_summary (void)
{
  const struct { const char *text; const char *lines[3]; } cases[] = {
    { "[pool]\nworkers=2\nqueue-size=3\nitem-timeout=5\nfatal=DiskFullError\n[source]\ncount=6\n"
      "[handler]\ndefault=ok 1\nitem.1=fail-always DiskFullError 0.01\n[submit]\nsnapshot-at=0.005;1\n"
      "[run]\nclock=virtual\n",
      { "fatal       DiskFullError('attempt 1 failed'): the pool stopped at once, without a drain\n",
        "snapshot    0.005000 s: queue 3/3, busy 2/2, 2 in flight, outcomes none\n",
        "snapshot    1.000000 s: queue 0/3, busy 0/2, 0 in flight, outcomes DiskFullError=1 cancelled=4\n" } },
    { "[pool]\nworkers=3\nqueue-size=1\nitem-timeout=1.0\nshutdown-timeout=0.7\n[source]\ncount=3\n"
      "[handler]\nitem.0=stubborn 5\nitem.1=late 2.5\nitem.2=fail-always ValueError 0.8\n[run]\nclock=virtual\n",
      { "shutdown    the deadline cut the drain at 1.500000 s: dropped_queued 0, cancelled_in_flight 2, overrun 1\n",
        "overrun     item 1, attempt 1 ended 1.000000 s after the deadline: its handler ignores cancellation\n" } },
    { MINIMAL "[source]\ncount=2\n[run]\nclock=virtual\n", { NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(SluiceScenario) scenario = parse (cases[i].text, NULL);
      g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (scenario);
      g_autoptr(SluiceReport) report = sluice_scenario_runner_run (runner, NULL);
      g_autofree char *summary = sluice_report_format_summary (report);

      g_test_message ("%s", summary);
      for (guint l = 0; l < G_N_ELEMENTS (cases[i].lines) && cases[i].lines[l] != NULL; l++)
        if (strstr (summary, cases[i].lines[l]) == NULL)
          g_error ("“%s” is not in the summary:\n%s", cases[i].lines[l], summary);
      if (cases[i].lines[0] == NULL)
        {
          g_assert_null (strstr (summary, "fatal "));
          g_assert_null (strstr (summary, "shutdown "));
          g_assert_null (strstr (summary, "snapshot "));
        }
    }
}

/* ---- the streaming report ---------------------------------------------- */

/* json-glib 1.6's text of the tree the writer's builder mode builds. */
static char *
generate (JsonNode *root,
          gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, NULL);
}

/* The calls of one document, for both of the writer's modes. */
static void
write_tricky_document (SluiceJsonWriter *w)
{
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_member (w, "quote \" backslash \\ \x01 \x1f \x7f \t ü");
  _sluice_json_writer_string (w, "x\n\r\b\f\"y\x02€");
  _sluice_json_writer_int_member (w, "min", G_MININT64);
  _sluice_json_writer_int_member (w, "max", G_MAXINT64);
  _sluice_json_writer_int_member (w, "zero", 0);
  _sluice_json_writer_member (w, "doubles");
  _sluice_json_writer_begin_array (w);
  _sluice_json_writer_double (w, 0.0);
  _sluice_json_writer_double (w, 0.1);
  _sluice_json_writer_double (w, -2.5);
  _sluice_json_writer_double (w, 1e9);
  _sluice_json_writer_double (w, 1e20);
  _sluice_json_writer_double (w, 0.30082);
  _sluice_json_writer_end_array (w);
  _sluice_json_writer_member (w, "empty object");
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_end_object (w);
  _sluice_json_writer_member (w, "empty array");
  _sluice_json_writer_begin_array (w);
  _sluice_json_writer_end_array (w);
  _sluice_json_writer_member (w, "nested");
  _sluice_json_writer_begin_array (w);
  _sluice_json_writer_boolean (w, TRUE);
  _sluice_json_writer_boolean (w, FALSE);
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_end_object (w);
  _sluice_json_writer_begin_array (w);
  _sluice_json_writer_begin_array (w);
  _sluice_json_writer_end_array (w);
  _sluice_json_writer_end_array (w);
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_member (w, "k");
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_int_member (w, "deep", -7);
  _sluice_json_writer_end_object (w);
  _sluice_json_writer_end_object (w);
  _sluice_json_writer_end_array (w);
  _sluice_json_writer_end_object (w);
}

static gboolean
append_chunk (const char  *data,
              gsize        length,
              gpointer     user_data,
              GError     **error)
{
  g_string_append_len (user_data, data, (gssize) length);
  return TRUE;
}

static gboolean
refuse_chunk (const char  *data,
              gsize        length,
              gpointer     user_data,
              GError     **error)
{
  (*(guint *) user_data)++;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "full");
  return FALSE;
}

/* The writer's text is json-glib 1.6's for the same tree, byte for byte:
 * escapes (0x1f left as it is), `.0` after every double without a point,
 * `{  }` for an empty object inside another, and the same through a sink
 * that takes it a chunk at a time. */
static void
test_json_writer_matches_json_glib (void)
{
  for (guint pretty = 0; pretty < 2; pretty++)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *expected = NULL;
      g_autoptr(GString) streamed = g_string_new (NULL);
      SluiceJsonWriter w;
      char *text;

      _sluice_json_writer_init_builder (&w, builder);
      write_tricky_document (&w);
      g_assert_true (_sluice_json_writer_finish (&w, NULL));
      root = json_builder_get_root (builder);
      expected = generate (root, pretty);

      _sluice_json_writer_init_text (&w, pretty, NULL, NULL);
      write_tricky_document (&w);
      g_assert_true (_sluice_json_writer_finish (&w, NULL));
      text = g_string_free (w.buffer, FALSE);
      g_assert_cmpstr (text, ==, expected);
      g_free (text);

      _sluice_json_writer_init_text (&w, pretty, append_chunk, streamed);
      write_tricky_document (&w);
      g_assert_true (_sluice_json_writer_finish (&w, NULL));
      g_assert_cmpstr (streamed->str, ==, expected);
    }

  /* 1.6's quirks, spelt out. */
  {
    SluiceJsonWriter w;
    g_autofree char *text = NULL;

    _sluice_json_writer_init_text (&w, FALSE, NULL, NULL);
    _sluice_json_writer_begin_array (&w);
    _sluice_json_writer_double (&w, 1e20);
    _sluice_json_writer_string (&w, "\x1f\x7f");
    _sluice_json_writer_end_array (&w);
    _sluice_json_writer_finish (&w, NULL);
    text = g_string_free (w.buffer, FALSE);
    g_assert_cmpstr (text, ==, "[1e+20.0,\"\x1f\\u007f\"]");
  }

  /* A sink's error stops the writing: nothing is handed over after it. */
  {
    SluiceJsonWriter w;
    g_autoptr(GError) error = NULL;
    guint calls = 0;

    _sluice_json_writer_init_text (&w, TRUE, refuse_chunk, &calls);
    _sluice_json_writer_begin_array (&w);
    for (guint i = 0; i < 100000; i++)
      _sluice_json_writer_int (&w, i);
    _sluice_json_writer_end_array (&w);
    g_assert_false (_sluice_json_writer_finish (&w, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
    g_assert_cmpuint (calls, ==, 1);
  }
}

static gboolean
check_streamed_report (const char     *file,
                       const char     *path,
                       SluiceScenario *plain)
{
  g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (plain);
  g_autoptr(SluiceScenarioRunner) summary_runner = sluice_scenario_runner_new (plain);
  g_autoptr(SluiceReport) report = sluice_scenario_runner_run (runner, NULL);
  g_autoptr(SluiceReport) summary_report = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *short_summary = NULL;

  if (report == NULL)
    return FALSE;

  root = sluice_report_to_json (report);
  for (guint pretty = 0; pretty < 2; pretty++)
    {
      g_autofree char *expected = generate (root, pretty);
      g_autofree char *text = sluice_report_to_json_string (report, pretty);
      g_autoptr(GString) streamed = g_string_new (NULL);

      if (g_strcmp0 (text, expected) != 0)
        g_error ("%s: the written report is not json-glib's:\n%s\n%s", file, text, expected);
      g_assert_true (sluice_report_write_json (report, pretty, append_chunk, streamed, NULL));
      g_assert_cmpstr (streamed->str, ==, expected);
    }

  /* Without the details the summary is the same, on the virtual clock. */
  sluice_scenario_runner_set_keep_details (summary_runner, FALSE);
  summary_report = sluice_scenario_runner_run (summary_runner, NULL);
  g_assert_nonnull (summary_report);
  summary = sluice_report_format_summary (report);
  short_summary = sluice_report_format_summary (summary_report);
  g_assert_cmpstr (short_summary, ==, summary);
  g_assert_cmpuint (sluice_report_get_n_results (summary_report), ==, sluice_report_get_n_results (report));
  g_assert_cmpuint (sluice_report_get_attempts (summary_report, 0), ==, 0);

  return TRUE;
}

/* Every scenario's report, written as it is made, has the bytes json-glib
 * gives for the same tree; and a report kept without its details
 * summarises the run alike. */
static void
test_report_streamed_as_json_glib (void)
{
  g_assert_cmpuint (for_each_virtual_scenario (check_streamed_report), >, 50);
}

/* An item's attempts are counted in a byte until 254, then on: 301 calls
 * are 301. Results of every kind keep their order. */
static void
test_report_counts_and_results (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(SluiceReport) by_hand = sluice_report_new (1, 1, FALSE);
  g_autofree char *json = NULL;
  g_autofree char *summary = NULL;

  scenario = parse ("[pool]\nworkers=2\nqueue-size=2\nitem-timeout=1\nmax-retries=300\nretryable=ValueError\n"
                    "[source]\ncount=3\n[handler]\nitem.1=fail 300 ValueError 0.001\n[run]\nclock=virtual\n",
                    &error);
  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sluice_report_get_attempts (report, 0), ==, 1);
  g_assert_cmpuint (sluice_report_get_attempts (report, 1), ==, 301);
  g_assert_cmpuint (sluice_report_get_attempts (report, 2), ==, 1);
  g_assert_cmpuint (sluice_report_get_attempts (report, 3), ==, 0);
  root = sluice_report_to_json (report);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (root), "attempts"),
                                               "1"), ==, 301);
  summary = sluice_report_format_summary (report);
  g_assert_nonnull (strstr (summary, "attempts    303 handler calls, 300 retries"));

  /* Integers, strings and other values, in yield order and sorted. */
  sluice_report_add_result (by_hand, g_variant_new_int64 (5));
  sluice_report_add_result (by_hand, g_variant_new_string ("b"));
  for (gint64 i = 0; i < 20; i++)
    sluice_report_add_result (by_hand, g_variant_new_int64 (20 - i));
  sluice_report_add_result (by_hand, g_variant_new_string ("a"));
  sluice_report_add_result (by_hand, g_variant_new_boolean (TRUE));
  sluice_report_add_result (by_hand, g_variant_new_int64 (-3));
  g_assert_cmpuint (sluice_report_get_n_results (by_hand), ==, 25);
  sluice_report_finish (by_hand, sluice_scenario_runner_get_run (runner), NULL, FALSE, TRUE);
  json = sluice_report_to_json_string (by_hand, FALSE);
  g_assert_nonnull (strstr (json, "\"results\":[-3,1,2,3,4,5,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
                                  "\"a\",\"b\",\"true\"],"));
  g_assert_nonnull (strstr (json, "\"result_order\":[5,\"b\",20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,"
                                  "2,1,\"a\",\"true\",-3],"));
}

/* ---- the fault handler's cancellation ---------------------------------- */

typedef struct {
  SluiceHandler *faults;
  GCancellable  *cancellable;   /* given to every attempt, cancelled by a thread */
  GThread       *thread;
  guint          started;
  guint          cancelled;
  gboolean       in_call;
  gboolean       completed_in_call;
} Forwarder;

typedef struct {
  Forwarder *forwarder;
  GTask     *task;
} Forwarded;

static gpointer
cancel_from_thread (gpointer data)
{
  /* Real time on purpose: the cancel must come from another thread while
   * the main context is (most likely) inside the run, which no clock of
   * the run can arrange; the test holds either way. */
  g_usleep (G_USEC_PER_SEC / 100);
  g_cancellable_cancel (data);
  return NULL;
}

static void
on_forwarded (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Forwarded *forwarded = user_data;
  Forwarder *forwarder = forwarded->forwarder;
  GError *error = NULL;
  GVariant *value = sluice_handler_handle_finish (SLUICE_HANDLER (object), result, &error);

  if (forwarder->in_call)
    forwarder->completed_in_call = TRUE;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    forwarder->cancelled++;

  if (value != NULL)
    g_task_return_pointer (forwarded->task, value, (GDestroyNotify) g_variant_unref);
  else
    g_task_return_error (forwarded->task, error);
  g_object_unref (forwarded->task);
  g_free (forwarded);
}

/* Each attempt goes to the fault handler with the one cancellable; the
 * third starts the thread that cancels it. */
static void
forward_attempt (SluiceAttempt *attempt,
                 GTask         *task,
                 gpointer       user_data)
{
  Forwarder *forwarder = user_data;
  Forwarded *forwarded = g_new (Forwarded, 1);

  forwarded->forwarder = forwarder;
  forwarded->task = task;
  forwarder->started++;
  forwarder->in_call = TRUE;
  sluice_handler_handle_async (forwarder->faults, attempt, forwarder->cancellable, on_forwarded, forwarded);
  forwarder->in_call = FALSE;

  if (forwarder->started == 3)
    forwarder->thread = g_thread_new ("cancel", cancel_from_thread, forwarder->cancellable);
}

static void
on_pool_next (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) value = sluice_run_next_finish (SLUICE_RUN (object), result, &error);

  if (value != NULL)
    sluice_run_next_async (SLUICE_RUN (object), NULL, on_pool_next, user_data);
  else
    *(gboolean *) user_data = TRUE;
}

/* Runs six items (0 to 5, from a fault source) through @handler on three
 * workers, a queue of one, keep-going, to the run's end. */
static SluiceRun *
run_six_items_on_three (SluiceClock   *clock,
                        SluiceHandler *handler,
                        double         item_timeout)
{
  g_autoptr(SluiceFaultSource) source = sluice_fault_source_new_range (clock, 6, 0);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(GError) error = NULL;
  SluiceRun *run;
  gboolean ended = FALSE;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error, "handler", handler, "clock", clock,
                         "workers", 3, "queue-size", 1, "item-timeout", item_timeout, "keep-going", TRUE, NULL);
  g_assert_no_error (error);
  run = sluice_pool_run (pool, SLUICE_SOURCE (source), &error);
  g_assert_no_error (error);

  sluice_run_next_async (run, NULL, on_pool_next, &ended);
  while (!ended)
    g_main_context_iteration (NULL, TRUE);
  return run;
}

/* A cancellable that fires in another thread ends the attempts that
 * honour it (hang) from the main context, never inside the call that
 * started them, also those started once it had fired. */
static void
test_fault_handler_cancelled_from_thread (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_REAL);
  g_autoptr(SluiceBehaviour) hang = sluice_behaviour_new (SLUICE_BEHAVIOUR_HANG, 0);
  g_autoptr(SluiceFaultHandler) faults = sluice_fault_handler_new (clock, hang);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Forwarder forwarder = { SLUICE_HANDLER (faults), cancellable, NULL, 0, 0, FALSE, FALSE };
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (forward_attempt, &forwarder, NULL);
  g_autoptr(SluiceRun) run = run_six_items_on_three (clock, handler, 100.0);

  g_thread_join (forwarder.thread);

  g_assert_cmpuint (forwarder.started, ==, 6);
  g_assert_cmpuint (forwarder.cancelled, ==, 6);
  g_assert_false (forwarder.completed_in_call);
  g_assert_cmpuint (sluice_fault_handler_get_n_active (faults), ==, 0);
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
}

/* Forwards each attempt to the fault handler with the attempt's own
 * cancellable and counts the attempts during which something is connected
 * to that cancellable. */
typedef struct {
  SluiceHandler *faults;
  guint          started;
  guint          connected;
} Watched;

static void
on_watched_done (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;
  GVariant *value = sluice_handler_handle_finish (SLUICE_HANDLER (object), result, &error);

  if (value != NULL)
    g_task_return_pointer (task, value, (GDestroyNotify) g_variant_unref);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

static void
watch_attempt (SluiceAttempt *attempt,
               GTask         *task,
               gpointer       user_data)
{
  Watched *watched = user_data;
  GCancellable *cancellable = sluice_attempt_get_cancellable (attempt);

  sluice_handler_handle_async (watched->faults, attempt, cancellable, on_watched_done, task);
  watched->started++;
  if (g_signal_has_handler_pending (cancellable, g_signal_lookup ("cancelled", G_TYPE_CANCELLABLE), 0, TRUE))
    watched->connected++;
}

/* The fault handler hears the pool's cancellation of an attempt without
 * connecting to the attempt's cancellable (issue 29: a connection made and
 * dropped per attempt was a tenth of the runner's time): hangs still end at
 * their first cancellation request, so six hangs on three workers with a
 * timeout of 1 s end after 2 s, not after their three rounds. */
static void
test_fault_handler_hears_cancel_without_connecting (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceBehaviour) hang = sluice_behaviour_new (SLUICE_BEHAVIOUR_HANG, 0);
  g_autoptr(SluiceFaultHandler) faults = sluice_fault_handler_new (clock, hang);
  Watched watched = { SLUICE_HANDLER (faults), 0, 0 };
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (watch_attempt, &watched, NULL);
  gint64 start = sluice_clock_now (clock);
  g_autoptr(SluiceRun) run = run_six_items_on_three (clock, handler, 1.0);

  g_assert_cmpuint (watched.started, ==, 6);
  g_assert_cmpuint (watched.connected, ==, 0);
  g_assert_cmpint (sluice_clock_now (clock) - start, ==, 2 * G_USEC_PER_SEC);
  g_assert_cmpuint (sluice_run_get_errors (run)->len, ==, 6);
  g_assert_cmpuint (sluice_fault_handler_get_n_active (faults), ==, 0);
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
}

/* Forwards each attempt to the fault handler and counts the results the
 * fault handler's callback gets that are the attempt itself. */
static guint returned_through_attempt;

static void
on_returned_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GTask *task = user_data;

  if (result == G_ASYNC_RESULT (g_task_get_task_data (task)))
    returned_through_attempt++;
  on_watched_done (object, result, task);
}

static void
forward_counting_returns (SluiceAttempt *attempt,
                          GTask         *task,
                          gpointer       user_data)
{
  sluice_handler_handle_async (SLUICE_HANDLER (user_data), attempt, NULL, on_returned_done, task);
}

/* The rule (issue 29): the fault handler completes each attempt through
 * the attempt (sluice_attempt_return_result()), not a GTask of its own,
 * a fifth of the runner's instructions per item: the result its callback
 * gets is the attempt. Values, a handler's errors and a timeout still come
 * through: items 0, 2 and 4 succeed, 1 fails, 3 cancels itself and 5
 * hangs into its timeout. */
static void
test_fault_handler_returns_through_attempt (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceFaultHandler) faults = sluice_fault_handler_new (clock, NULL);
  g_autoptr(SluiceBehaviour) fail = sluice_behaviour_parse ("fail-always KeyError", NULL);
  g_autoptr(SluiceBehaviour) cancel = sluice_behaviour_parse ("cancel-self", NULL);
  g_autoptr(SluiceBehaviour) hang = sluice_behaviour_parse ("hang", NULL);
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (forward_counting_returns, faults, NULL);
  g_autoptr(SluiceRun) run = NULL;
  GPtrArray *errors;

  sluice_fault_handler_set_item_behaviour (faults, 1, fail);
  sluice_fault_handler_set_item_behaviour (faults, 3, cancel);
  sluice_fault_handler_set_item_behaviour (faults, 5, hang);
  returned_through_attempt = 0;
  run = run_six_items_on_three (clock, handler, 1.0);

  g_assert_cmpuint (returned_through_attempt, ==, 6);
  errors = sluice_run_get_errors (run);
  g_assert_cmpuint (errors->len, ==, 3);
  for (guint i = 0; i < errors->len; i++)
    {
      const GError *error = errors->pdata[i];

      g_assert_true (strstr (error->message, "attempt 1 failed") != NULL ||
                     g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_HANDLER_CANCELLED) ||
                     g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_TIMEOUT));
    }
  g_assert_cmpuint (sluice_fault_handler_get_n_active (faults), ==, 0);
  g_assert_true (sluice_fault_handler_get_ctx_ok (faults));
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
}

/* The rule (issue 29): the fault handler keeps its ended calls for the
 * next attempts instead of allocating and freeing one per attempt (about
 * 300 of sluice-run's instructions per item): after six items on three
 * workers it keeps as many as were alive at once (a worker's next attempt
 * starts inside the last one's callback: one more than the workers), and
 * a second run takes every call from them, keeping the same ones. */
static void
test_fault_handler_keeps_ended_calls (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceFaultHandler) faults = sluice_fault_handler_new (clock, NULL);
  g_autoptr(SluiceRun) first = NULL;
  g_autoptr(SluiceRun) second = NULL;
  g_autoptr(GHashTable) kept = g_hash_table_new (NULL, NULL);
  guint n_kept;

  first = run_six_items_on_three (clock, SLUICE_HANDLER (faults), 1.0);
  n_kept = faults->n_free_calls;
  g_assert_cmpuint (n_kept, >=, 3);
  g_assert_cmpuint (n_kept, <, 6);
  for (SluiceFaultCall *call = faults->free_calls; call != NULL; call = call->next_free)
    g_hash_table_add (kept, call);

  second = run_six_items_on_three (clock, SLUICE_HANDLER (faults), 1.0);
  g_assert_cmpuint (sluice_fault_handler_get_n_calls (faults), ==, 12);
  g_assert_cmpuint (faults->n_free_calls, ==, n_kept);
  for (SluiceFaultCall *call = faults->free_calls; call != NULL; call = call->next_free)
    g_assert_true (g_hash_table_contains (kept, call));
  g_assert_true (sluice_fault_handler_get_ctx_ok (faults));
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

/* ---- submit mode ------------------------------------------------------- */

#define SUBMIT MINIMAL "[source]\ncount=5\n[run]\nmode=submit\n"

/* [run] mode and the [submit] keys: getters, give-up.N over give-up-after,
 * keep-going implied, and a round trip that keeps them. */
static void
test_submit_parse_keys (void)
{
  g_autoptr(SluiceScenario) stream = assert_round_trip (MINIMAL);
  g_autoptr(SluiceScenario) scenario = assert_round_trip (SUBMIT "[submit]\ngive-up.3=0.01\ngive-up.0=0\n"
                                                          "give-up-after=2.5\nclose-after-seconds=0.75\n"
                                                          "snapshot-at=0.5\n");
  g_autoptr(SluiceScenario) plain = assert_round_trip (SUBMIT);
  g_autofree char *data = sluice_scenario_to_data (stream, NULL);

  g_assert_cmpint (sluice_scenario_get_mode (stream), ==, SLUICE_SCENARIO_MODE_STREAM);
  g_assert_null (strstr (data, "mode="));
  g_assert_cmpfloat (sluice_scenario_get_give_up (stream, 0), ==, -1);
  g_assert_cmpfloat (sluice_scenario_get_close_after_seconds (stream), ==, -1);

  g_assert_cmpint (sluice_scenario_get_mode (scenario), ==, SLUICE_SCENARIO_MODE_SUBMIT);
  g_assert_cmpfloat (sluice_scenario_get_give_up (scenario, 3), ==, 0.01);
  g_assert_cmpfloat (sluice_scenario_get_give_up (scenario, 0), ==, 0);
  g_assert_cmpfloat (sluice_scenario_get_give_up (scenario, 1), ==, 2.5);
  g_assert_cmpfloat (sluice_scenario_get_give_up_after (scenario), ==, 2.5);
  g_assert_cmpfloat (sluice_scenario_get_close_after_seconds (scenario), ==, 0.75);
  g_assert_true (sluice_scenario_get_keep_going (scenario));

  g_assert_cmpfloat (sluice_scenario_get_give_up (plain, 2), ==, -1);
  g_assert_true (sluice_scenario_get_keep_going (plain));
}

/* Malformed values name file:line, group, key and the expected form. */
static void
test_submit_malformed_refused (void)
{
  assert_refused (SUBMIT "[submit]\ngive-up.1=-1\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:10: [submit] give-up.1", "out of range", NULL);
  assert_refused (SUBMIT "[submit]\ngive-up-after=soon\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:10: [submit] give-up-after", "not a decimal", NULL);
  assert_refused (SUBMIT "[submit]\nclose-after-seconds=1s\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:10: [submit] close-after-seconds", "seconds", NULL);
  assert_refused (SUBMIT "[submit]\ngive-up.01=1\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[submit] give-up.01", "give-up.N", NULL);
  assert_refused (SUBMIT "[submit]\ngive-up.x=1\n", -1, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
                  "[submit] give-up.x", NULL);
  assert_refused (MINIMAL "[run]\nmode=Submit\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:6: [run] mode", "stream | submit", NULL);
}

/* A give-up.N whose N names no job of the source (N >= count) is a
 * scenario error (docs/submit-and-shutdown.md): a typo would otherwise be
 * silently ignored. The last job is accepted; values count too; an
 * override names the --set. */
static void
test_submit_give_up_naming_no_job_refused (void)
{
  const char *sets[] = { "submit.give-up.7=0.5", NULL };
  g_autoptr(SluiceScenario) last = NULL;
  g_autoptr(GError) error = NULL;

  assert_refused (SUBMIT "[submit]\ngive-up.5=0.01\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:10: [submit] give-up.5", "no job 5", "give-up.N with N from 0 to 4", NULL);
  assert_refused (SUBMIT "[submit]\ngive-up-after=1\ngive-up.99=0.01\n", -1, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                  "test.pool:11: [submit] give-up.99", "give-up.N", NULL);
  assert_refused (MINIMAL "[source]\nvalues=1;2\n[run]\nmode=submit\n[submit]\ngive-up.2=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "test.pool:10: [submit] give-up.2", "from 0 to 1", NULL);
  assert_refused (MINIMAL "[source]\ncount=0\n[run]\nmode=submit\n[submit]\ngive-up.0=1\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, "test.pool:10: [submit] give-up.0", "no give-up.N", NULL);

  last = sluice_scenario_new_from_data (SUBMIT "[submit]\ngive-up.4=0.01\n", -1, "test.pool", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (sluice_scenario_get_give_up (last, 4), ==, 0.01);
  g_clear_object (&last);

  last = sluice_scenario_new_from_data (SUBMIT, -1, "test.pool", sets, &error);
  g_assert_null (last);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "--set submit.give-up.7"));
  g_assert_nonnull (strstr (error->message, "expected give-up.N"));
}

/* The conflicts of docs/submit-and-shutdown.md. */
static void
test_submit_conflicts_refused (void)
{
  assert_refused (SUBMIT "close-after=2\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "test.pool:9: [run] close-after", "close-after-seconds", NULL);
  assert_refused (MINIMAL "[source]\ncount=5\nraise-after=2\n[run]\nmode=submit\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "test.pool:7: [source] raise-after", "submit mode", NULL);
  assert_refused (MINIMAL "[source]\ncount=5\nhang-after=2\n[run]\nmode=submit\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "[source] hang-after", NULL);
  assert_refused (MINIMAL "keep-going=false\n[source]\ncount=5\n[run]\nmode=submit\n", -1,
                  SLUICE_SCENARIO_ERROR_CONFLICT, "test.pool:5: [pool] keep-going", "keep-going=true", NULL);
  assert_refused (MINIMAL "[run]\nmode=stream\n[submit]\ngive-up-after=1\n", -1, SLUICE_SCENARIO_ERROR_CONFLICT,
                  "test.pool:8: [submit] give-up-after", "mode=submit", NULL);
}

/* --set reaches the new keys, and their conflicts, named as the --set. */
static void
test_submit_overrides (void)
{
  const char *sets[] = { "run.mode=submit", "submit.give-up.2=0.5", "submit.close-after-seconds=3", NULL };
  const char *bad[] = { "run.close-after=1", NULL };
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  scenario = sluice_scenario_new_from_data (MINIMAL "[source]\ncount=5\n", -1, "test.pool", sets, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_mode (scenario), ==, SLUICE_SCENARIO_MODE_SUBMIT);
  g_assert_cmpfloat (sluice_scenario_get_give_up (scenario, 2), ==, 0.5);
  g_assert_cmpfloat (sluice_scenario_get_close_after_seconds (scenario), ==, 3);
  g_clear_object (&scenario);

  scenario = sluice_scenario_new_from_data (SUBMIT, -1, "test.pool", bad, &error);
  g_assert_null (scenario);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_CONFLICT);
  g_assert_nonnull (strstr (error->message, "--set run.close-after"));
}

static void
on_hand_run_done (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The app's hand controls on a virtual clock: one job submitted by hand
 * with its own behaviour, a job given up, the close. */
static void
test_submit_runner_hand_controls (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceBehaviour) fail = sluice_behaviour_parse ("fail-always ValueError 0.1", NULL);
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;

  /* W=1 Q=3, 2 source jobs of 1 s, no close of its own (close-after-seconds far away). */
  scenario = parse ("[pool]\nworkers=1\nqueue-size=3\nitem-timeout=5\n[source]\ncount=2\n"
                    "[handler]\ndefault=ok 1\n[run]\nmode=submit\nclock=virtual\n"
                    "[submit]\nclose-after-seconds=100\n", &error);
  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);

  g_assert_false (sluice_scenario_runner_submit (runner, g_variant_new_int64 (7), NULL, &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_clear_error (&error);

  sluice_scenario_runner_run_async (runner, NULL, on_hand_run_done, &result);
  /* Until both source jobs are admitted. */
  while (sluice_scenario_runner_get_job (runner, 1) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (sluice_scenario_runner_submit (runner, g_variant_new_int64 (7), fail, &error));
  g_assert_no_error (error);
  while (sluice_scenario_runner_get_job (runner, 2) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (sluice_job_get_index (sluice_scenario_runner_get_job (runner, 2)), ==, 2);
  g_assert_true (sluice_scenario_runner_give_up (runner, 1));
  g_assert_false (sluice_scenario_runner_give_up (runner, 9));
  g_assert_null (sluice_scenario_runner_get_job (runner, 9));
  sluice_scenario_runner_close (runner);
  g_assert_false (sluice_scenario_runner_submit (runner, g_variant_new_int64 (8), NULL, &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_clear_error (&error);

  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  report = sluice_scenario_runner_run_finish (runner, result, &error);
  g_assert_no_error (error);
  json = sluice_report_to_json_string (report, FALSE);
  g_test_message ("%s", json);
  /* Job 0 ran 1 s, job 1 was given up while queued, job 2 (by hand) failed after 0.1 s. */
  g_assert_nonnull (strstr (json, "\"jobs\":{\"0\":\"ok\",\"1\":\"cancelled\",\"2\":\"ValueError\"},"
                                  "\"ran\":[0,2],\"submit_refused\":0,"));
  g_assert_nonnull (strstr (json, "\"outcome\":\"ok\""));
  g_assert_nonnull (strstr (json, "\"elapsed\":1.1"));
}

static void
keep_last_event (const SluiceEvent *event,
                 gpointer           user_data)
{
  SluiceEvent *last = user_data;

  last->kind = event->kind;
  last->pulled = event->pulled;
  last->lead = event->lead;
}

/* Runs @text and checks that the report's pulled, max_lead and lead_ok
 * are @pulled, @max_lead and @lead_ok, and that they are the run's own
 * counters (the live ones the app shows) and its last event's. */
static void
assert_submit_lead (const char *text,
                    gint64      pulled,
                    gint64      max_lead,
                    gboolean    lead_ok,
                    gint64      last_lead)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = parse (text, &error);
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(JsonNode) node = NULL;
  SluiceEvent last = { .kind = SLUICE_EVENT_RUN_START, .lead = G_MAXUINT };
  SluiceRunStats stats;
  JsonObject *object;

  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_event_func (runner, keep_last_event, &last, NULL);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  node = sluice_report_to_json (report);
  object = json_node_get_object (node);
  sluice_run_get_stats (sluice_scenario_runner_get_run (runner), &stats);

  g_assert_cmpint (json_object_get_int_member (object, "pulled"), ==, pulled);
  g_assert_cmpint (json_object_get_int_member (object, "max_lead"), ==, max_lead);
  g_assert_true (json_object_get_boolean_member (object, "lead_ok") == lead_ok);
  g_assert_cmpint (stats.pulled, ==, pulled);
  g_assert_cmpint (stats.max_lead, ==, max_lead);
  if (last_lead >= 0)
    {
      g_assert_cmpint (last.kind, ==, SLUICE_EVENT_RUN_END);
      g_assert_cmpint (last.lead, ==, last_lead);
    }
}

/* Max lead in submit mode is computed as in stream mode
 * (docs/submit-and-shutdown.md): sampled each time the source yields to the
 * submitter, its item counted at once, even while its submission waits
 * for room. Seed 001's ten images: W=4, Q=2, ten jobs of 0.1 s, job 3
 * fails after 0.05 and stays in the lead. t=0: items 0-6 (6 waits), lead
 * 7; t=0.05: job 3 fails, 6 is admitted and the source yields item 7 with
 * 8 pulled and none succeeded: max_lead 8 > Q + W + 1 = 7. Items 8 and 9
 * yield at 0.1, after jobs 0-2 succeeded: at most 10 - 3. The end: 10 - 9
 * (the failed job stays). Sampled at admission it said 7. */
static void
test_submit_max_lead_sampled_when_the_source_yields (void)
{
  assert_submit_lead ("[pool]\nworkers=4\nqueue-size=2\nitem-timeout=5\n[source]\ncount=10\n"
                      "[handler]\ndefault=ok 0.1\nitem.3=fail-always ValueError 0.05\n"
                      "[run]\nmode=submit\nclock=virtual\n", 10, 8, FALSE, 10 - 9);
}

/* Refused submissions stay in the lead (docs/submit-and-shutdown.md): W=1, Q=1,
 * four jobs of 1 s, the close at 0.5. t=0: items 0, 1, 2 yield with lead 1,
 * 2, 3 (2 waits); t=0.5: 2 is refused and item 3 yields with 4 pulled,
 * none succeeded: max_lead 4 > 3, refused at once. The end at 2.0 (jobs 0
 * and 1 succeeded) sees 4 - 2. With stop-after=0 all three submissions
 * are refused after the run ended (no event at all): 1, 2, 3. */
static void
test_submit_refused_submissions_stay_in_max_lead (void)
{
  assert_submit_lead ("[pool]\nworkers=1\nqueue-size=1\nitem-timeout=5\n[source]\ncount=4\n"
                      "[handler]\ndefault=ok 1\n[submit]\nclose-after-seconds=0.5\n"
                      "[run]\nmode=submit\nclock=virtual\n", 4, 4, FALSE, 4 - 2);
  assert_submit_lead ("[pool]\nworkers=1\nqueue-size=1\nitem-timeout=5\n[source]\ncount=3\n"
                      "[handler]\ndefault=ok 0.1\n[run]\nmode=submit\nstop-after=0\nclock=virtual\n",
                      3, 3, TRUE, -1);
}

/* The submitter goes on to its next item as soon as a submission with
 * room has completed, as a stream's producer does, so the source's
 * interval timer is scheduled before the handler's, and timers due at the
 * same instant fire in the order they were scheduled (docs/scenario-format.md):
 * W=1, Q=1, two jobs of 0.1 s, interval=0.1. Item 1 yields at 0.1 before
 * job 0's end in that instant: 2 pulled, none succeeded, max_lead 2 (as a
 * stream run gives). Waiting for the submission's answer (a main-loop
 * turn) scheduled the source's timer after the handler's: 1. Job 1 is
 * submitted at 0.1 and ends at 0.2. */
static void
test_submit_next_item_before_a_job_end_in_the_same_instant (void)
{
  assert_submit_lead ("[pool]\nworkers=1\nqueue-size=1\nitem-timeout=5\n[source]\ncount=2\ninterval=0.1\n"
                      "[handler]\ndefault=ok 0.1\n[run]\nmode=submit\nclock=virtual\n", 2, 2, TRUE, 0);
}

static void
give_up_on_job_2_when_admitted (const SluiceEvent *event,
                                gpointer           user_data)
{
  SluiceScenarioRunner *runner = user_data;

  if (event->kind != SLUICE_EVENT_PULL || event->item != 2)
    return;

  /* Its submission has not answered yet: that takes a main-loop turn. */
  g_assert_null (sluice_scenario_runner_get_job (runner, 2));
  g_assert_true (sluice_scenario_runner_give_up (runner, 2));
  g_assert_false (sluice_scenario_runner_give_up (runner, 3));
}

/* Giving up on a job admitted before its submission's answer came (the
 * submitter does not wait for it any more): the job exists, and is given
 * up on when the answer brings it, in the same instant, while queued, so
 * it never runs. W=1, Q=3, three jobs of 1 s admitted at 0. */
static void
test_submit_give_up_before_the_answer (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = parse ("[pool]\nworkers=1\nqueue-size=3\nitem-timeout=5\n"
                                              "[source]\ncount=3\n[handler]\ndefault=ok 1\n"
                                              "[run]\nmode=submit\nclock=virtual\n", &error);
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autofree char *json = NULL;

  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_event_func (runner, give_up_on_job_2_when_admitted, runner, NULL);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);
  json = sluice_report_to_json_string (report, FALSE);
  g_test_message ("%s", json);
  g_assert_nonnull (strstr (json, "\"jobs\":{\"0\":\"ok\",\"1\":\"ok\",\"2\":\"cancelled\"},\"ran\":[0,1],"));
  g_assert_nonnull (strstr (json, "\"elapsed\":2.0,"));
}

/* A stream report keeps its keys: no jobs, ran or submit_refused (and
 * `lints` last, empty for two quick items). */
static void
test_submit_stream_report_unchanged (void)
{
  g_autoptr(SluiceScenario) scenario = parse (MINIMAL "[source]\ncount=2\n[run]\nclock=virtual\n", NULL);
  g_autoptr(SluiceScenarioRunner) runner = sluice_scenario_runner_new (scenario);
  g_autoptr(SluiceReport) report = sluice_scenario_runner_run (runner, NULL);
  g_autofree char *json = sluice_report_to_json_string (report, FALSE);

  g_assert_true (g_str_has_suffix (json, "\"lints\":[]}"));
  g_assert_null (strstr (json, "\"jobs\""));
  g_assert_false (sluice_scenario_runner_give_up (runner, 0));
  g_assert_null (sluice_scenario_runner_get_job (runner, 0));
}

int
main (int   argc,
      char *argv[])
{
  static const char * const retry_words[] = { "[retry]", NULL };
  static const char * const shutdown_words[] = { "fatal", "shutdown-timeout", "[submit]", NULL };
  int status;

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/scenario/format-double", test_format_double);
  g_test_add_func ("/scenario/parse/minimal", test_parse_minimal);
  g_test_add_func ("/scenario/parse/full", test_parse_full);
  g_test_add_func ("/scenario/parse/malformed", test_parse_malformed);
  g_test_add_func ("/scenario/parse/many-workers", test_parse_many_workers);
  g_test_add_func ("/scenario/json-writer/matches-json-glib", test_json_writer_matches_json_glib);
  g_test_add_func ("/scenario/report/streamed-as-json-glib", test_report_streamed_as_json_glib);
  g_test_add_func ("/scenario/report/counts-and-results", test_report_counts_and_results);
  g_test_add_func ("/scenario/fault-handler/cancelled-from-thread", test_fault_handler_cancelled_from_thread);
  g_test_add_func ("/scenario/fault-handler/returns-through-attempt", test_fault_handler_returns_through_attempt);
  g_test_add_func ("/scenario/fault-handler/keeps-ended-calls", test_fault_handler_keeps_ended_calls);
  g_test_add_func ("/scenario/fault-handler/hears-cancel-without-connecting",
                   test_fault_handler_hears_cancel_without_connecting);
  g_test_add_func ("/scenario/parse/overrides", test_parse_overrides);
  g_test_add_func ("/scenario/parse/translations", test_parse_translations);
  g_test_add_func ("/scenario/parse/bad-escape-refused", test_parse_bad_escape_refused);
  g_test_add_func ("/scenario/parse/raw-control-character-refused", test_parse_raw_control_character_refused);
  g_test_add_func ("/scenario/parse/duplicate-key-or-group-refused", test_parse_duplicate_refused);
  g_test_add_func ("/scenario/format/documented", test_format_documented);
  g_test_add_func ("/scenario/parse/empty-error-type-refused", test_parse_empty_error_type_refused);
  g_test_add_func ("/scenario/parse/seconds-decimal-only", test_parse_seconds_decimal_only);
  g_test_add_func ("/scenario/parse/timeout-at-least-1us", test_parse_timeout_at_least_1us);
  g_test_add_func ("/scenario/parse/data-at-most-max-size", test_parse_data_at_most_max_size);
  g_test_add_func ("/scenario/file/only-regular", test_file_only_regular);
  g_test_add_func ("/scenario/file/at-most-max-size", test_file_at_most_max_size);
  g_test_add_func ("/scenario/source/range-made-when-pulled", test_source_range_made_when_pulled);
  g_test_add_func ("/scenario/save/round-trip", test_save_round_trip);
  g_test_add_func ("/scenario/save/translations", test_save_translations);
  g_test_add_func ("/scenario/save/round-trip-keeps-escapes", test_save_round_trip_keeps_escapes);
  g_test_add_func ("/scenario/save/round-trip-every-file", test_save_round_trip_every_file);
  g_test_add_func ("/scenario/presets/translated", test_presets_translated);
  g_test_add_func ("/scenario/behaviour/strings", test_behaviour_strings);
  g_test_add_func ("/scenario/handler/mix-draws", test_fault_handler_behaviour_draws);
  g_test_add_func ("/scenario/report/mix-reproducible", test_mix_reproducible);
  g_test_add_func ("/scenario/runner/cancellable-cancels-the-run", test_runner_cancellable_cancels_the_run);
  add_report_tests ();
  g_test_add_func ("/scenario/recorder/csv", test_recorder_csv);
  g_test_add_func ("/scenario/recorder/csv-times", test_recorder_csv_times);
  g_test_add_func ("/scenario/recorder/jsonl", test_recorder_jsonl);
  g_test_add_func ("/scenario/recorder/jsonl-carries-what-the-engine-knows",
                   test_recorder_jsonl_carries_what_the_engine_knows);
  g_test_add_func ("/scenario/cli/exit-codes", test_cli_exit_codes);
  g_test_add_func ("/scenario/retry/parse-every-key", test_retry_parse_every_key);
  g_test_add_func ("/scenario/retry/defaults", test_retry_defaults);
  g_test_add_func ("/scenario/retry/malformed-refused", test_retry_malformed_refused);
  g_test_add_func ("/scenario/retry/conflicts-refused", test_retry_conflicts_refused);
  g_test_add_func ("/scenario/retry/round-trip", test_retry_round_trip);
  g_test_add_func ("/scenario/retry/overrides", test_retry_overrides);
  g_test_add_func ("/scenario/retry/pool-properties", test_retry_pool_properties);
  g_test_add_func ("/scenario/retry/same-seed-same-delays", test_retry_same_seed_same_delays);
  g_test_add_func ("/scenario/retry/defaults-keep-reports", test_retry_defaults_keep_reports);
  g_test_add_data_func ("/scenario/retry/fuzz-corpus-round-trip", retry_words, test_fuzz_corpus_round_trip);
  g_test_add_func ("/scenario/shutdown/parse-keys", test_shutdown_parse_keys);
  g_test_add_func ("/scenario/shutdown/malformed-refused", test_shutdown_malformed_refused);
  g_test_add_func ("/scenario/shutdown/round-trip", test_shutdown_round_trip);
  g_test_add_func ("/scenario/submit/parse-keys", test_submit_parse_keys);
  g_test_add_func ("/scenario/submit/malformed-refused", test_submit_malformed_refused);
  g_test_add_func ("/scenario/submit/conflicts-refused", test_submit_conflicts_refused);
  g_test_add_func ("/scenario/submit/give-up-naming-no-job-refused", test_submit_give_up_naming_no_job_refused);
  g_test_add_func ("/scenario/submit/overrides", test_submit_overrides);
  g_test_add_func ("/scenario/submit/runner-hand-controls", test_submit_runner_hand_controls);
  g_test_add_func ("/scenario/submit/stream-report-unchanged", test_submit_stream_report_unchanged);
  g_test_add_func ("/scenario/submit/max-lead-sampled-when-the-source-yields",
                   test_submit_max_lead_sampled_when_the_source_yields);
  g_test_add_func ("/scenario/submit/refused-submissions-stay-in-max-lead",
                   test_submit_refused_submissions_stay_in_max_lead);
  g_test_add_func ("/scenario/submit/next-item-before-a-job-end-in-the-same-instant",
                   test_submit_next_item_before_a_job_end_in_the_same_instant);
  g_test_add_func ("/scenario/submit/give-up-before-the-answer", test_submit_give_up_before_the_answer);
  g_test_add_func ("/scenario/shutdown/overrides", test_shutdown_overrides);
  g_test_add_func ("/scenario/shutdown/pool-properties", test_shutdown_pool_properties);
  g_test_add_func ("/scenario/shutdown/unused-keys-keep-reports", test_shutdown_unused_keys_keep_reports);
  g_test_add_func ("/scenario/shutdown/summary", test_shutdown_summary);
  g_test_add_data_func ("/scenario/shutdown/fuzz-corpus-round-trip", shutdown_words, test_fuzz_corpus_round_trip);

  status = g_test_run ();
  g_clear_pointer (&scenario_names, g_ptr_array_unref);

  return status;
}
