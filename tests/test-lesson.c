/* test-lesson.c: the [lesson] group (docs/teaching.md): reading it, its errors,
 * reveal against a report, saving it back, and every lesson of
 * data/lessons showing its answer in a run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>
#include <string.h>

#include "lesson-fixture.h"
#include "sluice-report.h"
#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

#define POOL \
  "[scenario]\n" \
  "title=Completion order\n" \
  "\n" \
  "[pool]\n" \
  "workers=3\n" \
  "queue-size=3\n" \
  "item-timeout=1\n" \
  "\n" \
  "[source]\n" \
  "values=0;1;2\n" \
  "\n" \
  "[handler]\n" \
  "item.0=ok 0.3\n" \
  "item.1=ok 0.2\n" \
  "item.2=ok 0.1\n" \
  "\n" \
  "[run]\n" \
  "clock=virtual\n" \
  "\n"

#define LESSON \
  "[lesson]\n" \
  "# order in the gallery, and the lesson that follows\n" \
  "order=1\n" \
  "next=backpressure\n" \
  "question=In what order do they print?\n" \
  "question[de]=In welcher Reihenfolge?\n" \
  "choices=0, 1, 4;4, 1, 0;It changes from run to run\n" \
  "choices[de]=0, 1, 4;4, 1, 0;Es ändert sich\n" \
  "answer=2\n" \
  "reveal=result_order=[4,1,0]\n" \
  "moment=0.3 item 0\n" \
  "explain=The calls overlap.\n" \
  "explain[de]=Die Aufrufe überlappen sich.\n"

static SluiceScenario *
load (const char  *text,
      GError     **error)
{
  return sluice_scenario_new_from_data (text, -1, "lesson.pool", NULL, error);
}

/* POOL with LESSON, @key's line replaced by @line (or removed for NULL),
 * or @line added when @key is not in it. */
static char *
lesson_with (const char *key,
             const char *line)
{
  g_auto(GStrv) lines = g_strsplit (LESSON, "\n", -1);
  g_autoptr(GString) text = g_string_new (POOL);
  g_autofree char *prefix = g_strconcat (key, "=", NULL);
  gboolean replaced = FALSE;

  for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
    {
      if (g_str_has_prefix (lines[i], prefix))
        {
          replaced = TRUE;
          if (line != NULL)
            g_string_append_printf (text, "%s\n", line);
          continue;
        }
      g_string_append_printf (text, "%s\n", lines[i]);
    }
  if (!replaced && line != NULL)
    g_string_append_printf (text, "%s\n", line);

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_lesson_group_is_read (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = load (POOL LESSON, &error);
  SluiceLesson *lesson;

  g_assert_no_error (error);
  lesson = sluice_scenario_get_lesson (scenario);
  g_assert_nonnull (lesson);
  g_assert_cmpuint (sluice_lesson_get_order (lesson), ==, 1);
  g_assert_cmpstr (sluice_lesson_get_next (lesson), ==, "backpressure");
  g_assert_cmpstr (sluice_lesson_get_question (lesson), ==, "In what order do they print?");
  g_assert_cmpuint (sluice_lesson_get_n_choices (lesson), ==, 3);
  g_assert_cmpstr (sluice_lesson_get_choices (lesson)[1], ==, "4, 1, 0");
  g_assert_cmpstr (sluice_lesson_get_choices (lesson)[2], ==, "It changes from run to run");
  g_assert_cmpuint (sluice_lesson_get_answer (lesson), ==, 2);
  g_assert_cmpstr (sluice_lesson_get_reveal (lesson), ==, "result_order=[4,1,0]");
  g_assert_cmpint (sluice_lesson_get_moment (lesson), ==, 300000);
  g_assert_cmpint (sluice_lesson_get_target (lesson), ==, SLUICE_LESSON_TARGET_ITEM);
  g_assert_cmpint (sluice_lesson_get_target_index (lesson), ==, 0);
  g_assert_cmpstr (sluice_lesson_get_explain (lesson), ==, "The calls overlap.");
}

static void
test_lesson_scenario_without_group_has_no_lesson (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = load (POOL, &error);

  g_assert_no_error (error);
  g_assert_null (sluice_scenario_get_lesson (scenario));
}

static void
test_lesson_texts_follow_the_locale (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  SluiceLesson *lesson;

  g_setenv ("LANGUAGE", "de", TRUE);
  setlocale (LC_ALL, "");
  scenario = load (POOL LESSON, &error);
  g_setenv ("LANGUAGE", "", TRUE);
  setlocale (LC_ALL, "");

  g_assert_no_error (error);
  lesson = sluice_scenario_get_lesson (scenario);
  g_assert_cmpstr (sluice_lesson_get_question (lesson), ==, "In welcher Reihenfolge?");
  g_assert_cmpstr (sluice_lesson_get_choices (lesson)[2], ==, "Es ändert sich");
  g_assert_cmpstr (sluice_lesson_get_explain (lesson), ==, "Die Aufrufe überlappen sich.");
}

static void
test_lesson_moment_targets (void)
{
  static const struct { const char *line; SluiceLessonTarget target; gint64 index; gint64 moment; } cases[] = {
    { "moment=1.25", SLUICE_LESSON_TARGET_NONE, -1, 1250000 },
    { "moment=0.3  worker 2", SLUICE_LESSON_TARGET_WORKER, 2, 300000 },
    { "moment=0 lead", SLUICE_LESSON_TARGET_LEAD, -1, 0 },
    { "moment=2 queue", SLUICE_LESSON_TARGET_QUEUE, -1, 2000000 },
    { NULL, SLUICE_LESSON_TARGET_NONE, -1, -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = lesson_with ("moment", cases[i].line);
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = load (text, &error);
      SluiceLesson *lesson;

      g_assert_no_error (error);
      lesson = sluice_scenario_get_lesson (scenario);
      g_assert_cmpint (sluice_lesson_get_target (lesson), ==, cases[i].target);
      g_assert_cmpint (sluice_lesson_get_target_index (lesson), ==, cases[i].index);
      g_assert_cmpint (sluice_lesson_get_moment (lesson), ==, cases[i].moment);
    }
}

/* Each malformed [lesson] is refused with a message that names the file,
 * the line, the key and the expected form. */
static void
test_lesson_malformed_groups_are_refused (void)
{
  static const struct { const char *key, *line, *message; } cases[] = {
    { "order", NULL, "lesson.pool: [lesson] order: missing; a lesson needs order, question, choices" },
    { "question", NULL, "[lesson] question: missing" },
    { "reveal", NULL, "[lesson] reveal: missing" },
    { "order", "order=0", "lesson.pool:22: [lesson] order: 0 is out of range; expected an integer from 1" },
    { "answer", "answer=4", "[lesson] answer: 4 is out of range; expected an integer from 1 to 3" },
    { "answer", "answer=two", "[lesson] answer:" },
    { "choices", "choices=only one", "[lesson] choices: expected 2 to 9 choices separated by “;”" },
    { "choices", "choices=a;;c", "[lesson] choices: expected 2 to 9 choices separated by “;”, none of them empty" },
    { "choices[de]", "choices[de]=a;b", "[lesson] choices[de]: expected 3 choices, as many as choices has" },
    { "reveal", "reveal=result_order", "[lesson] reveal: “result_order” has no “=”; expected PATH=JSON" },
    { "reveal", "reveal=result_order=[4,1", "[lesson] reveal: the value of “result_order” is not JSON" },
    { "reveal", "reveal=a..b=1", "[lesson] reveal: “a..b” is not a report key" },
    { "reveal", "reveal=pulled=3;", "[lesson] reveal: a condition is empty" },
    { "moment", "moment=soon", "[lesson] moment: “soon” is not a moment; expected seconds" },
    { "moment", "moment=-1", "[lesson] moment: “-1” is not a moment" },
    { "moment", "moment=0.3 item", "[lesson] moment: “0.3 item” is not a moment" },
    { "moment", "moment=0.3 lead 2", "[lesson] moment: “0.3 lead 2” is not a moment" },
    { "moment", "moment=0.3 thing 2", "[lesson] moment: “0.3 thing 2” is not a moment" },
    { "next", "next=../up", "[lesson] next: “../up” is not a lesson's name" },
    { "hint", "hint=x", "[lesson] hint: unknown key; expected one of: order, next, question, choices, answer, "
                        "reveal, moment, explain, result, evidence, mute-lints, question[LANG], choices[LANG], "
                        "explain[LANG], result[LANG], evidence[LANG]" },
    { "title[de]", "title[de]=x", "[lesson] title[de]: unknown key" },
    { "explain", "explain=bad \\q escape", "[lesson] explain: “\\q” is a bad escape" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = lesson_with (cases[i].key, cases[i].line);
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = load (text, &error);

      g_test_message ("%s", cases[i].line != NULL ? cases[i].line : cases[i].key);
      g_assert_null (scenario);
      g_assert_error (error, SLUICE_SCENARIO_ERROR, error->code);
      if (strstr (error->message, cases[i].message) == NULL)
        g_error ("“%s” does not contain “%s”", error->message, cases[i].message);
    }
}

/* @depth arrays, one inside the other, around 0, after `reveal=PATH=`. */
static char *
deep_reveal (const char *path,
             guint       depth)
{
  GString *line = g_string_new ("reveal=");

  g_string_append_printf (line, "%s=", path);
  for (guint i = 0; i < depth; i++)
    g_string_append_c (line, '[');
  g_string_append_c (line, '0');
  for (guint i = 0; i < depth; i++)
    g_string_append_c (line, ']');
  return g_string_free (line, FALSE);
}

/* A reveal value nested 200,000 deep overflowed json-glib's recursion: it
 * is refused before it is parsed, with the limit and where it is. */
static void
test_lesson_reveal_too_deep_is_refused (void)
{
  g_autofree char *line = deep_reveal ("results", 200000);
  g_autofree char *text = lesson_with ("reveal", line);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = load (text, &error);

  g_assert_null (scenario);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "lesson.pool:"));
  g_assert_nonnull (strstr (error->message, "[lesson] reveal: the value of “results” is refused: the JSON "
                                            "text nests arrays and objects deeper than 64 levels (at byte 65)"));
}

/* 64 levels, the limit, are a value like any other (the run's results
 * nest less deep: not held). */
static void
test_lesson_reveal_at_the_depth_limit_is_read (void)
{
  g_autofree char *line = deep_reveal ("results", 64);
  g_autofree char *text = lesson_with ("reveal", line);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = load (text, &error);
  g_autoptr(JsonNode) report = NULL;

  g_assert_no_error (error);
  report = lesson_fixture_report (scenario);
  g_assert_false (sluice_lesson_check_reveal (sluice_scenario_get_lesson (scenario), report, NULL));
}

static void
test_lesson_reveal_holds_in_a_run_that_shows_it (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = load (POOL LESSON, &error);
  g_autoptr(JsonNode) report = lesson_fixture_report (scenario);
  g_autofree char *shown = NULL;
  JsonObject *lesson;

  g_assert_true (sluice_lesson_check_reveal (sluice_scenario_get_lesson (scenario), report, &shown));
  g_assert_cmpstr (shown, ==, "result_order=[4,1,0]");

  /* The report's own `lesson`, last of its keys. */
  lesson = json_object_get_object_member (json_node_get_object (report), "lesson");
  g_assert_nonnull (lesson);
  g_assert_cmpint (json_object_get_int_member (lesson, "answer"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (lesson, "reveal"), ==, "result_order=[4,1,0]");
  g_assert_true (json_object_get_boolean_member (lesson, "held"));
  {
    g_autoptr(GList) members = json_object_get_members (json_node_get_object (report));
    g_assert_cmpstr (g_list_last (members)->data, ==, "lesson");
  }
}

/* Paths into objects and arrays, several conditions, numbers equal as
 * numbers; one condition that fails or names no key makes it not held, and
 * `shown` says what the run had. */
static void
test_lesson_reveal_conditions (void)
{
  static const struct { const char *reveal; gboolean held; const char *shown; } cases[] = {
    { "reveal=result_order=[4,1,0]; metrics.ok=0", TRUE, "result_order=[4,1,0]; metrics.ok=0" },
    { "reveal=results.2=4.0", TRUE, "results.2=4" },
    { "reveal=attempts.1=1;pulled=3;lead_ok=true;outcome=\"ok\"", TRUE,
      "attempts.1=1; pulled=3; lead_ok=true; outcome=\"ok\"" },
    { "reveal=group_types=[]", TRUE, "group_types=[]" },
    { "reveal=result_order=[0,1,4]", FALSE, "result_order=[4,1,0]" },
    { "reveal=pulled=3; outcome=\"failed\"", FALSE, "pulled=3; outcome=\"ok\"" },
    { "reveal=no_such_key=1", FALSE, "no_such_key=(absent)" },
    { "reveal=results.9=1", FALSE, "results.9=(absent)" },
    { "reveal=pulled.0=1", FALSE, "pulled.0=(absent)" },
    { "reveal=pulled=\"3\"", FALSE, "pulled=3" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = lesson_with ("reveal", cases[i].reveal);
      g_autoptr(GError) error = NULL;
      g_autoptr(SluiceScenario) scenario = load (text, &error);
      g_autoptr(JsonNode) report = NULL;
      g_autofree char *shown = NULL;
      gboolean held;

      g_assert_no_error (error);
      report = lesson_fixture_report (scenario);
      held = sluice_lesson_check_reveal (sluice_scenario_get_lesson (scenario), report, &shown);
      g_test_message ("%s", cases[i].reveal);
      g_assert_cmpint (held, ==, cases[i].held);
      g_assert_cmpstr (shown, ==, cases[i].shown);
      g_assert_cmpint (json_object_get_boolean_member (
                         json_object_get_object_member (json_node_get_object (report), "lesson"), "held"),
                       ==, cases[i].held);
    }
}

/* Saving a lesson writes its [lesson] back with every translation. */
static void
test_lesson_is_kept_when_saved (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = load (POOL LESSON, &error);
  g_autofree char *written = sluice_scenario_to_data (scenario, NULL);
  g_autofree char *updated = sluice_scenario_update_data (scenario, POOL LESSON);
  g_autoptr(SluiceScenario) again = load (written, &error);

  g_assert_no_error (error);
  g_assert_nonnull (strstr (written, "[lesson]\norder=1\nnext=backpressure\n"));
  g_assert_nonnull (strstr (written, "choices[de]=0, 1, 4;4, 1, 0;Es ändert sich\n"));
  g_assert_cmpstr (sluice_lesson_get_reveal (sluice_scenario_get_lesson (again)), ==, "result_order=[4,1,0]");
  g_assert_cmpstr (updated, ==, POOL LESSON);
}

/* ---- data/lessons ------------------------------------------------------ */

/* Every lesson's reveal holds: on the virtual clock, or, for the lessons
 * whose story needs real time (a handler that blocks the loop or uses a
 * thread cannot run on a virtual clock), on the real clock — short runs. */
static void
test_lesson_every_reveal_holds (gconstpointer data)
{
  const char *name = data;
  g_autoptr(SluiceScenario) probe = lesson_fixture_load (name, FALSE);
  gboolean virtual_clock = !sluice_scenario_needs_real_time (probe);
  g_autoptr(SluiceScenario) scenario = lesson_fixture_load (name, virtual_clock);
  g_autoptr(JsonNode) report = lesson_fixture_report (scenario);
  g_autofree char *shown = NULL;

  g_assert_nonnull (sluice_scenario_get_lesson (scenario));
  if (!sluice_lesson_check_reveal (sluice_scenario_get_lesson (scenario), report, &shown))
    g_error ("%s: the run showed %s, the lesson expects %s", name, shown,
             sluice_lesson_get_reveal (sluice_scenario_get_lesson (scenario)));
}

/* At least twelve, in order 1…n, each `next` another lesson, one chain
 * through all of them. */
static void
test_lesson_gallery_is_one_chain (void)
{
  g_autoptr(GPtrArray) names = lesson_fixture_list ();
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *first = NULL;
  guint visited = 0;

  g_assert_cmpuint (names->len, >=, 12);
  for (guint i = 0; i < names->len; i++)
    {
      SluiceScenario *scenario = lesson_fixture_load (g_ptr_array_index (names, i), FALSE);
      SluiceLesson *lesson = sluice_scenario_get_lesson (scenario);

      g_assert_nonnull (lesson);
      g_assert_cmpuint (sluice_lesson_get_order (lesson), >=, 1);
      g_assert_cmpuint (sluice_lesson_get_order (lesson), <=, names->len);
      if (sluice_lesson_get_order (lesson) == 1)
        first = g_ptr_array_index (names, i);
      g_hash_table_insert (by_name, g_ptr_array_index (names, i), scenario);
    }

  g_assert_nonnull (first);
  for (const char *name = first; name != NULL; visited++)
    {
      SluiceScenario *scenario = g_hash_table_lookup (by_name, name);
      SluiceLesson *lesson;

      g_assert_nonnull (scenario);
      g_assert_false (g_hash_table_contains (seen, name));
      g_hash_table_add (seen, (gpointer) name);
      lesson = sluice_scenario_get_lesson (scenario);
      g_assert_cmpuint (sluice_lesson_get_order (lesson), ==, visited + 1);
      name = sluice_lesson_get_next (lesson);
    }
  g_assert_cmpuint (visited, ==, names->len);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) names = NULL;

  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/lesson/group-is-read", test_lesson_group_is_read);
  g_test_add_func ("/lesson/scenario-without-group-has-no-lesson", test_lesson_scenario_without_group_has_no_lesson);
  g_test_add_func ("/lesson/texts-follow-the-locale", test_lesson_texts_follow_the_locale);
  g_test_add_func ("/lesson/moment-targets", test_lesson_moment_targets);
  g_test_add_func ("/lesson/malformed-groups-are-refused", test_lesson_malformed_groups_are_refused);
  g_test_add_func ("/lesson/reveal-holds-in-a-run-that-shows-it", test_lesson_reveal_holds_in_a_run_that_shows_it);
  g_test_add_func ("/lesson/reveal-conditions", test_lesson_reveal_conditions);
  g_test_add_func ("/lesson/reveal-too-deep-is-refused", test_lesson_reveal_too_deep_is_refused);
  g_test_add_func ("/lesson/reveal-at-the-depth-limit-is-read", test_lesson_reveal_at_the_depth_limit_is_read);
  g_test_add_func ("/lesson/is-kept-when-saved", test_lesson_is_kept_when_saved);
  g_test_add_func ("/lesson/gallery-is-one-chain", test_lesson_gallery_is_one_chain);

  names = lesson_fixture_list ();
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_strdup_printf ("/lesson/every-reveal-holds/%s",
                                               (const char *) g_ptr_array_index (names, i));
      g_test_add_data_func (path, g_ptr_array_index (names, i), test_lesson_every_reveal_holds);
    }

  return g_test_run ();
}
