/* test-lesson-reveal.c: honest lessons (docs/teaching.md, issue 26): a title
 * that names the topic until the reveal, a reveal in sentences with the
 * language's numbers and never a report key, German numbers in German
 * texts, the real-clock lessons saying what real time does
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "lesson-fixture.h"
#include "sluice-lint.h"

static GPtrArray *
list_lessons (void)
{
  GPtrArray *names = lesson_fixture_list ();

  g_assert_cmpuint (names->len, >=, 12);
  return names;
}

static SluiceScenario *
load_lesson (const char *name)
{
  SluiceScenario *scenario = lesson_fixture_load (name, FALSE);

  g_assert_nonnull (sluice_scenario_get_lesson (scenario));
  return scenario;
}

/* The build tree's catalogue in @language ("" for English), as an
 * uninstalled app finds it; texts read after this are in it. */
static gboolean
speak (const char *language)
{
  const char *localedir = g_getenv ("SLUICE_LOCALEDIR");

  if (localedir == NULL)
    {
      g_test_skip ("SLUICE_LOCALEDIR is not set");
      return FALSE;
    }
  g_setenv ("LANGUAGE", language, TRUE);
  setlocale (LC_MESSAGES, *language != '\0' ? "C.UTF-8" : "C");
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  return TRUE;
}

/* Every report key a reveal of data/lessons names, as a word of text. */
static void
assert_no_report_key (const char *name,
                      const char *text)
{
  static const char * const keys[] = {
    "result_order", "max_lead", "lead_ok", "max_buffered", "elapsed", "backoff_us", "metrics.", "retries_skipped",
    "group_types", "group_messages", "deadline_hit", "live_operations", "shutdown.", "jobs.", "attempts.",
    "(absent)", "=", "{", "}", "[", "]",
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strstr (text, keys[i]) != NULL)
      g_error ("%s: the reveal names “%s”: %s", name, keys[i], text);
}

/* Before the reveal, the title names the topic: it is not the lesson's
 * finding, which is shown after it. */
static void
test_lesson_title_names_the_topic_not_the_result (void)
{
  g_autoptr(GPtrArray) names = list_lessons ();

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(SluiceScenario) scenario = load_lesson (g_ptr_array_index (names, i));
      SluiceLesson *lesson = sluice_scenario_get_lesson (scenario);
      const char *result = sluice_lesson_get_result (lesson);

      g_assert_nonnull (result);
      g_assert_cmpstr (sluice_scenario_get_title (scenario), !=, result);
    }

  /* The lesson that gave its answer away in its title. */
  {
    g_autoptr(SluiceScenario) scenario = load_lesson ("completion-order");

    g_assert_null (strstr (sluice_scenario_get_title (scenario), "order they finish"));
    g_assert_cmpstr (sluice_lesson_get_result (sluice_scenario_get_lesson (scenario)), ==,
                     "Results come in the order they finish");
  }
}

/* The reveal of a run, and what the lesson expects, in sentences: no
 * report key, for every lesson, in English and German. */
static void
test_lesson_reveal_speaks_in_sentences (gconstpointer data)
{
  const char *language = data;
  g_autoptr(GPtrArray) names = list_lessons ();

  if (!speak (language))
    return;

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autoptr(SluiceScenario) probe = load_lesson (name);
      /* A blocking handler needs real time: those two run on the real
       * clock, short runs. */
      g_autoptr(SluiceScenario) scenario = lesson_fixture_load (name, !sluice_scenario_needs_real_time (probe));
      SluiceLesson *lesson = sluice_scenario_get_lesson (scenario);
      g_autoptr(JsonNode) report = lesson_fixture_report (scenario);
      g_autofree char *shown = sluice_lesson_describe (lesson, report);
      g_autofree char *expected = sluice_lesson_describe (lesson, NULL);

      g_assert_nonnull (shown);
      g_assert_nonnull (expected);
      assert_no_report_key (name, shown);
      assert_no_report_key (name, expected);
      if (*language != '\0' && lesson_fixture_has_decimal_point (shown))
        g_error ("%s: a number with a decimal point in German: %s", name, shown);
    }
  speak ("");
}

/* German numbers: 1.8 s is "1,800 s", with one precision for every time
 * of the run's clock; English keeps the point. */
static void
test_lesson_reveal_numbers_follow_the_language (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(JsonNode) report = NULL;
  g_autofree char *german = NULL;
  g_autofree char *english = NULL;
  g_autofree char *moment = NULL;

  if (!speak ("de"))
    return;
  scenario = load_lesson ("slow-caller");
  report = lesson_fixture_report (scenario);
  german = sluice_lesson_describe (sluice_scenario_get_lesson (scenario), report);
  moment = sluice_lesson_format_seconds (100000);
  speak ("");
  g_clear_object (&scenario);
  scenario = load_lesson ("slow-caller");
  english = sluice_lesson_describe (sluice_scenario_get_lesson (scenario), report);

  g_assert_nonnull (strstr (german, "1,800 s"));
  g_assert_nonnull (strstr (german, "Bis zu 10 fertige Ergebnisse"));
  g_assert_cmpstr (moment, ==, "0,100 s");
  g_assert_nonnull (strstr (english, "1.800 s"));
  g_assert_nonnull (strstr (english, "within its bound"));
}

/* The texts a German reader reads: every number with a decimal comma
 * (but the scenario file's own syntax, such as item-timeout=0.3). */
static void
test_lesson_german_texts_use_decimal_commas (void)
{
  g_autoptr(GPtrArray) names = list_lessons ();

  if (!speak ("de"))
    return;
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autoptr(SluiceScenario) scenario = load_lesson (name);
      SluiceLesson *lesson = sluice_scenario_get_lesson (scenario);
      g_autofree char *choices = g_strjoinv ("; ", (char **) sluice_lesson_get_choices (lesson));
      const char *texts[] = {
        sluice_scenario_get_title (scenario), sluice_scenario_get_description (scenario),
        sluice_lesson_get_question (lesson), choices, sluice_lesson_get_explain (lesson),
        sluice_lesson_get_result (lesson),
      };

      for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
        {
          g_auto(GStrv) words = g_strsplit (texts[t] != NULL ? texts[t] : "", " ", -1);

          for (guint w = 0; words[w] != NULL; w++)
            if (strchr (words[w], '=') == NULL && lesson_fixture_has_decimal_point (words[w]))
              g_error ("%s: “%s” in German: %s", name, words[w], texts[t]);
        }
    }
  speak ("");
}

/* The lessons on the real clock say what the real clock does. */
static void
test_lesson_real_clock_lessons_say_real_time (void)
{
  g_autoptr(GPtrArray) names = list_lessons ();
  guint real = 0;

  for (guint i = 0; i < names->len; i++)
    {
      g_autoptr(SluiceScenario) scenario = load_lesson (g_ptr_array_index (names, i));

      if (!sluice_scenario_needs_real_time (scenario))
        continue;
      real++;
      g_assert_nonnull (strstr (sluice_scenario_get_description (scenario), "real clock at normal speed (1×)"));
    }
  g_assert_cmpuint (real, ==, 2);
}

/* `evidence` may name only values of `reveal`; `mute-lints` only lints. */
static void
test_lesson_evidence_and_mutes_are_checked (void)
{
  static const char pool[] =
    "[scenario]\ntitle=T\n[pool]\nworkers=1\nqueue-size=1\nitem-timeout=1\n[source]\ncount=1\n[run]\nclock=virtual\n"
    "[lesson]\norder=1\nquestion=Q\nchoices=a;b\nanswer=1\nreveal=elapsed=1\nexplain=E\n";
  static const struct { const char *line; const char *message; } bad[] = {
    { "evidence=It took {elapsed:3} s and {pulled} items.", "[lesson] evidence: “{pulled}” names no condition" },
    { "evidence[de]=Es dauerte {elapsed s.", "[lesson] evidence[de]: a “{” is not closed" },
    { "mute-lints=saturated;noisy", "[lesson] mute-lints: “noisy” is not a lint" },
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *good = g_strconcat (pool, "evidence=It took {elapsed:3} s.\nmute-lints=saturated; retry-storm\n",
                                       NULL);
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_data (good, -1, "good.pool", NULL, &error);
  g_autoptr(JsonNode) report = json_from_string ("{\"elapsed\": 0.25}", NULL);
  g_autofree char *shown = NULL;

  g_assert_no_error (error);
  shown = sluice_lesson_describe (sluice_scenario_get_lesson (scenario), report);
  g_assert_cmpstr (shown, ==, "It took 0.250 s.");
  g_assert_true (sluice_lesson_mutes_lint (sluice_scenario_get_lesson (scenario), SLUICE_LINT_SATURATED));
  g_assert_true (sluice_lesson_mutes_lint (sluice_scenario_get_lesson (scenario), SLUICE_LINT_RETRY_STORM));
  g_assert_false (sluice_lesson_mutes_lint (sluice_scenario_get_lesson (scenario), SLUICE_LINT_BLOCKED_LOOP));

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) bad_error = NULL;
      g_autofree char *text = g_strconcat (pool, bad[i].line, "\n", NULL);
      g_autoptr(SluiceScenario) refused = sluice_scenario_new_from_data (text, -1, "bad.pool", NULL, &bad_error);

      g_assert_null (refused);
      g_assert_nonnull (bad_error);
      if (strstr (bad_error->message, bad[i].message) == NULL)
        g_error ("“%s”: “%s” has no “%s”", bad[i].line, bad_error->message, bad[i].message);
    }
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lesson-reveal/title-names-the-topic-not-the-result",
                   test_lesson_title_names_the_topic_not_the_result);
  g_test_add_data_func ("/lesson-reveal/speaks-in-sentences/en", "", test_lesson_reveal_speaks_in_sentences);
  g_test_add_data_func ("/lesson-reveal/speaks-in-sentences/de", "de", test_lesson_reveal_speaks_in_sentences);
  g_test_add_func ("/lesson-reveal/numbers-follow-the-language", test_lesson_reveal_numbers_follow_the_language);
  g_test_add_func ("/lesson-reveal/german-texts-use-decimal-commas", test_lesson_german_texts_use_decimal_commas);
  g_test_add_func ("/lesson-reveal/real-clock-lessons-say-real-time", test_lesson_real_clock_lessons_say_real_time);
  g_test_add_func ("/lesson-reveal/evidence-and-mutes-are-checked", test_lesson_evidence_and_mutes_are_checked);

  return g_test_run ();
}
