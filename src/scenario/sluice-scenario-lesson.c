/* sluice-scenario-lesson.c: reading a scenario's [lesson] group
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"
#include "sluice-lesson-private.h"

#include <string.h>

#include "sluice-lint.h"

#define MAX_ORDER   10000
#define MAX_CHOICES 9

typedef SluiceScenarioParser Parser;

/* The keys of [lesson] (docs/teaching.md); question, choices and explain may be
 * translated (`question[de]`). */
const char * const _sluice_scenario_lesson_keys[] = {
  "order", "next", "question", "choices", "answer", "reveal", "moment", "explain", "result", "evidence",
  "mute-lints", NULL
};
const char * const _sluice_scenario_lesson_patterns[] = {
  "question[LANG]", "choices[LANG]", "explain[LANG]", "result[LANG]", "evidence[LANG]", NULL
};

static const char * const required_keys[] = { "order", "question", "choices", "answer", "reveal", "explain" };

static gboolean
require_keys (const Parser  *p,
              GKeyFile      *keyfile,
              GError       **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (required_keys); i++)
    if (!g_key_file_has_key (keyfile, "lesson", required_keys[i], NULL))
      {
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_MISSING_KEY, "lesson", required_keys[i],
                                    /* Translators: follows “FILE: [lesson] key: ”. Keep the key names:
                                     * they are what users type. */
                                    _("missing; a lesson needs order, question, choices, answer, reveal "
                                      "and explain"));
        return FALSE;
      }

  return TRUE;
}

/* `choices` (or a translation of it): the parts between `;`, each one
 * trimmed and none empty. */
static GStrv
read_choices (const Parser  *p,
              GKeyFile      *keyfile,
              const char    *key,
              GError       **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, "lesson", key);
  g_auto(GStrv) parts = g_strsplit (raw != NULL ? raw : "", ";", -1);
  guint n = g_strv_length (parts);

  /* A `;` at the end of the list is GKeyFile's own habit, not a choice. */
  if (n > 0 && *g_strstrip (parts[n - 1]) == '\0')
    g_clear_pointer (&parts[--n], g_free);

  for (guint i = 0; i < n; i++)
    if (*g_strstrip (parts[i]) == '\0' || n < 2 || n > MAX_CHOICES)
      {
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", key,
                                    /* Translators: follows “FILE: [lesson] key: ”; %d is the most
                                     * choices a lesson may have. */
                                    _("expected 2 to %d choices separated by “;”, none of them empty"),
                                    MAX_CHOICES);
        return NULL;
      }

  return g_steal_pointer (&parts);
}

/* Every `choices[LANG]` has as many choices as `choices`, in the same
 * order: answer counts them. */
static gboolean
check_translated_choices (const Parser  *p,
                          GKeyFile      *keyfile,
                          guint          n_choices,
                          GError       **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "lesson", NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_auto(GStrv) translated = NULL;

      if (!g_str_has_prefix (keys[i], "choices["))
        continue;

      translated = read_choices (p, keyfile, keys[i], error);
      if (translated == NULL)
        return FALSE;
      if (g_strv_length (translated) != n_choices)
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", keys[i],
                                      /* Translators: follows “FILE: [lesson] choices[LANG]: ”; %u is
                                       * how many choices the untranslated key has. */
                                      ngettext ("expected %u choice, as many as choices has, in its order",
                                                "expected %u choices, as many as choices has, in their order",
                                                n_choices),
                                      n_choices);
          return FALSE;
        }
    }

  return TRUE;
}

static gboolean
read_next (SluiceLesson  *lesson,
           const Parser  *p,
           GKeyFile      *keyfile,
           GError       **error)
{
  g_autofree char *next = _sluice_scenario_read_raw (keyfile, "lesson", "next");

  if (next == NULL)
    return TRUE;

  for (const char *c = next; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '_')
      {
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", "next",
                                    /* Translators: follows “FILE: [lesson] next: ”; %s is the value. */
                                    _("“%s” is not a lesson's name; expected the file name of the next "
                                      "lesson without “.pool”, in letters, digits, “-” and “_”"), next);
        return FALSE;
      }

  if (*next != '\0')
    lesson->next = g_steal_pointer (&next);
  return TRUE;
}

static gboolean
read_reveal (SluiceLesson  *lesson,
             const Parser  *p,
             GKeyFile      *keyfile,
             GError       **error)
{
  g_autofree char *problem = NULL;

  lesson->reveal = _sluice_scenario_read_raw (keyfile, "lesson", "reveal");
  lesson->conditions = _sluice_lesson_parse_reveal (lesson->reveal, &problem);
  if (lesson->conditions != NULL)
    return TRUE;

  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", "reveal", "%s", problem);
  return FALSE;
}

static gboolean
parse_target (SluiceLesson  *lesson,
              GStrv          words)
{
  static const struct { const char *word; SluiceLessonTarget target; gboolean indexed; } targets[] = {
    { "item", SLUICE_LESSON_TARGET_ITEM, TRUE },
    { "worker", SLUICE_LESSON_TARGET_WORKER, TRUE },
    { "lead", SLUICE_LESSON_TARGET_LEAD, FALSE },
    { "queue", SLUICE_LESSON_TARGET_QUEUE, FALSE },
  };
  guint n = g_strv_length (words);

  if (n == 1)
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    {
      guint64 index = 0;

      if (!g_str_equal (words[1], targets[i].word))
        continue;
      if (n != (targets[i].indexed ? 3u : 2u) ||
          (targets[i].indexed &&
           !g_ascii_string_to_unsigned (words[2], 10, 0, G_MAXINT32, &index, NULL)))
        return FALSE;

      lesson->target = targets[i].target;
      lesson->target_index = targets[i].indexed ? (gint64) index : -1;
      return TRUE;
    }

  return FALSE;
}

/* `moment=SECONDS [item N|worker N|lead|queue]` */
static gboolean
read_moment (SluiceLesson  *lesson,
             const Parser  *p,
             GKeyFile      *keyfile,
             GError       **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, "lesson", "moment");
  g_auto(GStrv) words = NULL;
  double seconds = 0;
  char *end = NULL;

  if (raw == NULL)
    return TRUE;

  words = g_strsplit_set (raw, " \t", -1);
  /* Several spaces between the words split into empty ones. */
  for (guint i = 0, j = 0;; i++)
    if (words[i] == NULL || *words[i] != '\0')
      {
        char *word = words[i];

        words[i] = NULL;
        words[j++] = word;
        if (word == NULL)
          break;
      }
    else
      g_clear_pointer (&words[i], g_free);

  if (words[0] != NULL)
    seconds = g_ascii_strtod (words[0], &end);

  if (words[0] == NULL || end == words[0] || *end != '\0' || !(seconds >= 0) ||
      seconds > SLUICE_SCENARIO_MAX_SECONDS || !parse_target (lesson, words))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", "moment",
                                  /* Translators: follows “FILE: [lesson] moment: ”; %s is the value.
                                   * Keep “item N”, “worker N”, “lead” and “queue”: they are what
                                   * users type. */
                                  _("“%s” is not a moment; expected seconds on the run's clock (a "
                                    "number ≥ 0 with “.”), then optionally item N, worker N, lead or "
                                    "queue, such as 0.3 item 2"), raw);
      return FALSE;
    }

  lesson->moment = sluice_time_from_seconds (seconds);
  return TRUE;
}

static gboolean
read_texts (SluiceLesson  *lesson,
            const Parser  *p,
            GKeyFile      *keyfile,
            GError       **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "lesson", NULL, NULL);
  g_auto(GStrv) choices = NULL;

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    if ((g_str_has_prefix (keys[i], "question") || g_str_has_prefix (keys[i], "explain")) &&
        !_sluice_scenario_check_escapes (p, keyfile, "lesson", keys[i], error))
      return FALSE;

  lesson->question = g_key_file_get_locale_string (keyfile, "lesson", "question", NULL, NULL);
  lesson->explain = g_key_file_get_locale_string (keyfile, "lesson", "explain", NULL, NULL);

  lesson->choices = read_choices (p, keyfile, "choices", error);
  if (lesson->choices == NULL || !check_translated_choices (p, keyfile, g_strv_length (lesson->choices), error))
    return FALSE;

  /* The locale's translation of the choices, if there is one. */
  {
    g_autofree char *locale = g_key_file_get_locale_for_key (keyfile, "lesson", "choices", NULL);
    g_autofree char *key = locale != NULL ? g_strdup_printf ("choices[%s]", locale) : NULL;

    choices = key != NULL ? read_choices (p, keyfile, key, NULL) : NULL;
    if (choices != NULL)
      {
        g_strfreev (lesson->choices);
        lesson->choices = g_steal_pointer (&choices);
      }
  }

  return TRUE;
}

/* `evidence` and each translation of it name only values of `reveal`;
 * the locale's translation is the lesson's. */
static gboolean
read_evidence (SluiceLesson  *lesson,
               const Parser  *p,
               GKeyFile      *keyfile,
               GError       **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "lesson", NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *text = NULL;
      g_autofree char *problem = NULL;

      if (!g_str_equal (keys[i], "evidence") && !g_str_has_prefix (keys[i], "evidence["))
        continue;
      if (!_sluice_scenario_check_escapes (p, keyfile, "lesson", keys[i], error))
        return FALSE;
      text = g_key_file_get_string (keyfile, "lesson", keys[i], NULL);
      if (text != NULL && !_sluice_lesson_check_evidence (lesson, text, &problem))
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", keys[i], "%s",
                                      problem);
          return FALSE;
        }
    }

  lesson->evidence = g_key_file_get_locale_string (keyfile, "lesson", "evidence", NULL, NULL);
  lesson->result = g_key_file_get_locale_string (keyfile, "lesson", "result", NULL, NULL);
  return TRUE;
}

/* `mute-lints`: the lints the lesson teaches, by name. */
static gboolean
read_muted (SluiceLesson  *lesson,
            const Parser  *p,
            GKeyFile      *keyfile,
            GError       **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, "lesson", "mute-lints");
  g_auto(GStrv) names = g_strsplit (raw != NULL ? raw : "", ";", -1);

  for (guint i = 0; names[i] != NULL; i++)
    {
      SluiceLintKind kind;

      if (*g_strstrip (names[i]) == '\0')
        continue;
      if (!sluice_lint_kind_from_string (names[i], &kind))
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "lesson", "mute-lints",
                                      /* Translators: follows “FILE: [lesson] mute-lints: ”; %s is a
                                       * word of it. Keep the lint names: they are what users type. */
                                      _("“%s” is not a lint; expected names separated by “;” from "
                                        "timeout-below-typical, retry-storm, ignoring-cancel, blocked-loop, "
                                        "saturated and dominant-error"), names[i]);
          return FALSE;
        }
      lesson->muted |= 1u << kind;
    }

  return TRUE;
}

/* Reads and validates [lesson] into @self's lesson; no group, no lesson. */
gboolean
_sluice_scenario_load_lesson (SluiceScenario  *self,
                              const Parser    *p,
                              GKeyFile        *keyfile,
                              GError         **error)
{
  g_autoptr(SluiceLesson) lesson = NULL;
  gint64 order = 0, answer = 0;

  g_clear_object (&self->lesson);
  if (!g_key_file_has_group (keyfile, "lesson"))
    return TRUE;

  lesson = _sluice_lesson_new ();
  if (!require_keys (p, keyfile, error) ||
      !_sluice_scenario_read_int (p, keyfile, "lesson", "order", 1, MAX_ORDER, &order, error) ||
      !read_next (lesson, p, keyfile, error) ||
      !read_texts (lesson, p, keyfile, error) ||
      !_sluice_scenario_read_int (p, keyfile, "lesson", "answer", 1, g_strv_length (lesson->choices),
                                  &answer, error) ||
      !read_reveal (lesson, p, keyfile, error) ||
      !read_moment (lesson, p, keyfile, error) ||
      !read_evidence (lesson, p, keyfile, error) ||
      !read_muted (lesson, p, keyfile, error))
    return FALSE;

  lesson->order = (guint) order;
  lesson->answer = (guint) answer;
  self->lesson = g_steal_pointer (&lesson);
  return TRUE;
}

/**
 * sluice_scenario_get_lesson:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer none) (nullable): its `[lesson]`, or %NULL for a
 *   scenario that is not a lesson
 */
SluiceLesson *
sluice_scenario_get_lesson (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->lesson;
}
