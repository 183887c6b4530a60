/* sluice-config-fields.c: the config panel's fields, as data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "sluice-behaviour.h"
#include "sluice-config-fields-private.h"

/* What SluiceConfigPanel edits, one field per key of a scenario, and how
 * the fields' texts become a #GKeyFile and back: data and pure functions,
 * no widgets. */

/* A drop-down shows the translated labels; the scenario keeps the keywords
 * of the file format, at the same positions. */
static const char * const metrics_choices[] = { "off", "on", "broken", NULL };
static const char * const metrics_labels[] = {
  /* Translators: metrics mode in the drop-down (the file keeps “off”). */
  NC_("metrics", "off"),
  /* Translators: metrics mode in the drop-down (the file keeps “on”). */
  NC_("metrics", "on"),
  /* Translators: metrics mode in the drop-down: a backend whose every call
   * fails (the file keeps “broken”). */
  NC_("metrics", "broken"),
  NULL
};
static const char * const fault_choices[] = { "none", "raise-after", "cancel-after", "hang-after", NULL };
static const char * const fault_labels[] = {
  /* Translators: source fault in the drop-down: the source has no fault. */
  NC_("source fault", "none"),
  /* Translators: source fault in the drop-down: the source raises an error
   * after some items (the file keeps the key “raise-after”). */
  NC_("source fault", "raise-after"),
  /* Translators: source fault in the drop-down: the source cancels itself
   * after some items (the file keeps the key “cancel-after”). */
  NC_("source fault", "cancel-after"),
  /* Translators: source fault in the drop-down: the source hangs after
   * some items (the file keeps the key “hang-after”). */
  NC_("source fault", "hang-after"),
  NULL
};
static const char * const clock_choices[] = { "real", "virtual", NULL };
static const char * const clock_labels[] = {
  /* Translators: clock in the drop-down: the real, scaled clock (the file
   * keeps “real”). */
  NC_("clock", "real"),
  /* Translators: clock in the drop-down: virtual time that jumps from timer
   * to timer (the file keeps “virtual”). */
  NC_("clock", "virtual"),
  NULL
};

static const char * const mode_choices[] = { "stream", "submit", NULL };
static const char * const mode_labels[] = {
  /* Translators: run mode in the drop-down: the pool pulls the source's
   * items and streams their results (the file keeps “stream”). */
  NC_("run mode", "stream"),
  /* Translators: run mode in the drop-down: a service run, where the items
   * are submitted one by one as jobs, each with its own result (the file
   * keeps “submit”). */
  NC_("run mode", "submit"),
  NULL
};

static const char * const backoff_choices[] = { "none", "exponential", NULL };
static const char * const backoff_labels[] = {
  /* Translators: backoff in the drop-down: a retry starts as soon as the
   * failed attempt ended (the file keeps “none”). */
  NC_("backoff", "none"),
  /* Translators: backoff in the drop-down: each retry waits up to twice as
   * long as the one before (the file keeps “exponential”). */
  NC_("backoff", "exponential"),
  NULL
};
static const char * const jitter_choices[] = { "full", "none", NULL };
static const char * const jitter_labels[] = {
  /* Translators: jitter in the drop-down: each wait is drawn at random
   * between 0 and its limit (the file keeps “full”). */
  NC_("jitter", "full"),
  /* Translators: jitter in the drop-down: each wait is exactly its limit
   * (the file keeps “none”). */
  NC_("jitter", "none"),
  NULL
};

const SluiceConfigFieldSpec _sluice_config_fields[] = {
  { SLUICE_SECTION_POOL, "pool", "workers", SLUICE_FIELD_ENTRY, N_("_Workers"),
    N_("How many items the pool handles at the same time.") },
  { SLUICE_SECTION_POOL, "pool", "queue-size", SLUICE_FIELD_ENTRY, N_("_Queue size"),
    N_("How many pulled items may wait in the queue for a free worker.") },
  { SLUICE_SECTION_POOL, "pool", "item-timeout", SLUICE_FIELD_ENTRY, N_("Item _timeout (s)"),
    N_("Seconds one attempt may run before the pool cancels it as timed out.") },
  { SLUICE_SECTION_POOL, "pool", "max-retries", SLUICE_FIELD_ENTRY, N_("Max _retries"),
    N_("How many more attempts an item gets after a retryable failure.") },
  { SLUICE_SECTION_POOL, "pool", "retryable", SLUICE_FIELD_ENTRY, N_("Retr_yable types"),
    N_("Error type names, separated by “;”, whose failures are retried, such as ConnectionError;TimeoutError.") },
  { SLUICE_SECTION_POOL, "pool", "metrics", SLUICE_FIELD_CHOICE, N_("_Metrics"),
    N_("Whether the pool reports metrics: off, on, or broken (a backend whose every call fails)."),
    metrics_choices, metrics_labels, "metrics" },
  { SLUICE_SECTION_POOL, "pool", "keep-going", SLUICE_FIELD_SWITCH, N_("_Keep going"),
    N_("When on, an item that fails for good is recorded but does not stop the pool.") },
  { SLUICE_SECTION_POOL, "pool", "fatal", SLUICE_FIELD_ENTRY, N_("F_atal types"),
    N_("Error type names, separated by “;”, that mean the pool itself is broken, such as "
       "DiskFullError: the first one stops the whole pool at once, and it is never retried.") },
  { SLUICE_SECTION_POOL, "pool", "shutdown-timeout", SLUICE_FIELD_ENTRY, N_("S_hutdown timeout (s)"),
    N_("Seconds a stop or a close may take to drain. When they are up, what is still queued is "
       "dropped and what still runs is cancelled. Empty or 0: wait as long as it takes.") },

  { SLUICE_SECTION_RETRY, "retry", "backoff", SLUICE_FIELD_CHOICE, N_("_Backoff"),
    N_("How long a retry waits after a failure. None: it starts at once. Exponential: each retry may "
       "wait twice as long as the one before, from the base delay up to the cap."),
    backoff_choices, backoff_labels, "backoff", TRUE },
  { SLUICE_SECTION_RETRY, "retry", "base", SLUICE_FIELD_ENTRY, N_("Bas_e delay (s)"),
    N_("Seconds the first retry waits at most, such as 0.1; the next may wait 0.2, then 0.4… "
       "Only with exponential backoff; empty for 0.1.") },
  { SLUICE_SECTION_RETRY, "retry", "cap", SLUICE_FIELD_ENTRY, N_("Delay ca_p (s)"),
    N_("The longest any retry waits, in seconds, however many retries came before. "
       "Only with exponential backoff; empty for 10.") },
  { SLUICE_SECTION_RETRY, "retry", "jitter", SLUICE_FIELD_CHOICE, N_("_Jitter"),
    N_("Full: each wait is drawn at random between 0 and its limit, so items that failed together "
       "do not all retry at the same moment. None: each waits exactly its limit. "
       "Only with exponential backoff."),
    jitter_choices, jitter_labels, "jitter", TRUE },
  { SLUICE_SECTION_RETRY, "retry", "seed", SLUICE_FIELD_ENTRY, N_("Jitter see_d"),
    N_("The seed of the jitter’s random draws, 0 to 4294967295: the same seed gives the same waits "
       "run after run.") },
  { SLUICE_SECTION_RETRY, "retry", "deadline", SLUICE_FIELD_ENTRY, N_("Item dead_line (s)"),
    N_("Seconds each item may take in all, from when it is pulled: its wait in the queue, every attempt "
       "and every backoff count. An item still queued past it is dropped (shed); a retry that would "
       "start past it is skipped. Empty or 0: no deadline.") },
  { SLUICE_SECTION_RETRY, "retry", "budget", SLUICE_FIELD_ENTRY, N_("Bud_get (tokens)"),
    N_("Tokens the whole pool shares for retries: each retryable failure takes one, and retries stop "
       "while half the budget or less is left, so a failing service is not flooded with retries. "
       "Empty or 0: no budget.") },
  { SLUICE_SECTION_RETRY, "retry", "budget-ratio", SLUICE_FIELD_ENTRY, N_("Refill per s_uccess"),
    N_("How much of a token each successful attempt gives back to the retry budget, such as 0.1. "
       "Only with a budget.") },

  { SLUICE_SECTION_SOURCE, "source", "count", SLUICE_FIELD_ENTRY, N_("Item _count"),
    N_("The source yields the integers 0 to count − 1; leave it empty to give values instead.") },
  { SLUICE_SECTION_SOURCE, "source", "values", SLUICE_FIELD_ENTRY, N_("_Values"),
    N_("The items, separated by “;”, such as 3;1;4;\"a\"; leave it empty to use a count.") },
  { SLUICE_SECTION_SOURCE, "source", "interval", SLUICE_FIELD_ENTRY, N_("_Interval (s)"),
    N_("Seconds the source waits between two items.") },
  { SLUICE_SECTION_SOURCE, "source", SLUICE_CONFIG_FAULT_KEY, SLUICE_FIELD_CHOICE, N_("Source _fault"),
    N_("What goes wrong in the source: it raises an error, cancels itself or hangs."),
    fault_choices, fault_labels, "source fault" },
  { SLUICE_SECTION_SOURCE, "source", SLUICE_CONFIG_FAULT_AFTER_KEY, SLUICE_FIELD_ENTRY, N_("Fault _after (items)"),
    N_("How many items the source yields before its fault.") },

  { SLUICE_SECTION_HANDLER, "handler", "default", SLUICE_FIELD_ENTRY, N_("_Default"),
    N_("What the handler does with every item not listed below, such as “ok 0.1”, “fail 1 ConnectionError 0.05” or “hang”.") },
  { SLUICE_SECTION_HANDLER, "handler", SLUICE_CONFIG_ITEMS_KEY, SLUICE_FIELD_LINES, N_("_Per item"),
    N_("One line per item: its index, “=”, and a behaviour, such as “3 = hang”.") },
  { SLUICE_SECTION_HANDLER, "handler", "mix", SLUICE_FIELD_ENTRY, N_("Random mi_x"),
    N_("Behaviours drawn at random with these weights, such as “80% ok 0.05, 20% hang”; leave it empty for none.") },
  { SLUICE_SECTION_HANDLER, "handler", "seed", SLUICE_FIELD_ENTRY, N_("_Seed"),
    N_("The random seed of the mix: the same seed gives the same behaviours.") },

  { SLUICE_SECTION_RUN, "run", "mode", SLUICE_FIELD_CHOICE, N_("M_ode"),
    N_("Stream: the pool pulls the source’s items and hands back their results. Submit: a service, "
       "where each item is submitted as a job that has its own result, and you can add jobs by hand."),
    mode_choices, mode_labels, "run mode", TRUE },
  { SLUICE_SECTION_RUN, "run", "stop-after", SLUICE_FIELD_ENTRY, N_("_Stop after"),
    N_("Request a stop (drain) after this many results, or in submit mode close after this many "
       "jobs have ended: -1 never, 0 before the first.") },
  { SLUICE_SECTION_RUN, "run", "close-after", SLUICE_FIELD_ENTRY, N_("C_lose after"),
    N_("Close the run after this many results, like a caller that stops reading; leave it empty for never."),
    NULL, NULL, NULL, FALSE, SLUICE_CONFIG_MODE_STREAM },
  { SLUICE_SECTION_RUN, "run", "cancel-after-seconds", SLUICE_FIELD_ENTRY, N_("Ca_ncel after (s)"),
    N_("Cancel the run after this many seconds on the pool’s clock; leave it empty for never.") },
  { SLUICE_SECTION_RUN, "run", "caller-delay", SLUICE_FIELD_ENTRY, N_("Caller _delay (s)"),
    N_("A slow caller: the seconds it spends with each result before it reads the next. Only the input "
       "queue is bounded, so results wait for it in memory; leave it empty for a caller that reads at once."),
    NULL, NULL, NULL, FALSE, SLUICE_CONFIG_MODE_STREAM },
  { SLUICE_SECTION_RUN, "run", "clock", SLUICE_FIELD_CHOICE, N_("Cl_ock"),
    N_("Real runs on the scaled clock you can pause, step and speed up; virtual jumps from timer to timer at once."),
    clock_choices, clock_labels, "clock" },
  { SLUICE_SECTION_RUN, "submit", "snapshot-at", SLUICE_FIELD_ENTRY, N_("Snapshots _at (s)"),
    N_("Times in seconds from the start, separated by “;”, such as 0.005;0.5, at which the report "
       "notes how full the queue is and how many workers are busy.") },

  { SLUICE_SECTION_SUBMIT, "submit", "give-up-after", SLUICE_FIELD_ENTRY, N_("_Give up after (s)"),
    N_("Seconds after its submission at which the caller gives up on a job that has no result yet: "
       "a queued job is skipped, a running one is cancelled. Empty: never."),
    NULL, NULL, NULL, FALSE, SLUICE_CONFIG_MODE_SUBMIT },
  { SLUICE_SECTION_SUBMIT, "submit", SLUICE_CONFIG_GIVE_UPS_KEY, SLUICE_FIELD_LINES, N_("Give up _per job"),
    N_("One line per job: its index, “=”, and the seconds after which the caller gives up on it, "
       "such as “3 = 0.01”."),
    NULL, NULL, NULL, FALSE, SLUICE_CONFIG_MODE_SUBMIT },
  { SLUICE_SECTION_SUBMIT, "submit", "close-after-seconds", SLUICE_FIELD_ENTRY, N_("Close a_fter (s)"),
    N_("Seconds after which the service closes: no new jobs, the queued ones still run. "
       "Empty: it closes after the last item of the source."),
    NULL, NULL, NULL, FALSE, SLUICE_CONFIG_MODE_SUBMIT },
};

G_STATIC_ASSERT (G_N_ELEMENTS (_sluice_config_fields) == SLUICE_CONFIG_N_FIELDS);

/* The index of the field of @group and @key, or -1. */
gint
_sluice_config_find_field (const char *group,
                           const char *key)
{
  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    {
      const SluiceConfigFieldSpec *spec = &_sluice_config_fields[i];

      if (g_str_equal (spec->group, group) && g_str_equal (spec->key, key))
        return (gint) i;
    }

  return -1;
}

/* The position of @text among the keywords of a choice field, or -1. */
gint
_sluice_config_field_find_choice (const SluiceConfigFieldSpec *spec,
                                  const char                  *text)
{
  for (guint c = 0; spec->choices[c] != NULL; c++)
    if (g_str_equal (spec->choices[c], text))
      return (gint) c;

  return -1;
}

/* What the drop-down shows for the keyword at @choice, translated. */
const char *
_sluice_config_field_choice_label (const SluiceConfigFieldSpec *spec,
                                   guint                        choice)
{
  return g_dpgettext2 (GETTEXT_PACKAGE, spec->choice_context, spec->choice_labels[choice]);
}

/* ---- numbers in the locale's way ---------------------------------------- */

/* What separates the words of a field: a number is a whole word. */
static gboolean
is_word_end (char c)
{
  return c == '\0' || g_ascii_isspace (c) || c == ';' || c == '=';
}

/**
 * _sluice_config_delocalize_numbers:
 * @text: what a person typed in a field
 * @decimal_point: (nullable): the decimal separator to accept besides “.”;
 *   %NULL for the locale's (LC_NUMERIC)
 *
 * @text as a scenario file writes it: each word that is a decimal number
 * written with @decimal_point, such as “0,5” in German, with “.” instead
 * (“0.5”). Words are separated by spaces, “;” and “=”, so that “ok 0,25”,
 * “0,005;0,5” and “3 = late 1,5” are read too. Anything else, “.” numbers
 * included, is left as it is, for the loader to judge.
 *
 * Returns: (transfer full): the text for the file
 */
char *
_sluice_config_delocalize_numbers (const char *text,
                                   const char *decimal_point)
{
  g_autoptr(GString) out = NULL;
  gsize point_len;

  if (decimal_point == NULL)
    decimal_point = localeconv ()->decimal_point;
  if (decimal_point == NULL || *decimal_point == '\0' || g_str_equal (decimal_point, "."))
    return g_strdup (text);

  point_len = strlen (decimal_point);
  out = g_string_sized_new (strlen (text));
  for (const char *c = text; *c != '\0';)
    {
      const char *start = c;
      const char *point;
      gsize length;

      if (is_word_end (*c))
        {
          g_string_append_c (out, *c++);
          continue;
        }

      while (!is_word_end (*c))
        c++;
      length = c - start;

      /* One separator, and with “.” for it the word is a plain decimal. */
      point = g_strstr_len (start, length, decimal_point);
      if (point != NULL && g_strstr_len (point + point_len, c - point - point_len, decimal_point) == NULL)
        {
          g_autoptr(GString) word = g_string_new_len (start, point - start);

          g_string_append_c (word, '.');
          g_string_append_len (word, point + point_len, c - point - point_len);
          if (_sluice_is_plain_decimal (word->str, word->len))
            {
              g_string_append_len (out, word->str, word->len);
              continue;
            }
        }

      g_string_append_len (out, start, length);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Whether the numbers of @spec's field may be typed the locale's way: not
 * in the source's values (where “1,5” is a string item) nor in the mix
 * (whose entries “,” separates), nor in a drop-down or a switch. */
gboolean
_sluice_config_field_takes_local_numbers (const SluiceConfigFieldSpec *spec)
{
  return (spec->kind == SLUICE_FIELD_ENTRY || spec->kind == SLUICE_FIELD_LINES) &&
         !g_str_equal (spec->key, "values") && !g_str_equal (spec->key, "mix");
}

/* ---- from the fields to a key file ------------------------------------- */

/* The prefix of the keys of a lines field: "item." of "item.*". */
static char *
lines_prefix (const SluiceConfigFieldSpec *spec)
{
  return g_strndup (spec->key, strlen (spec->key) - 1);
}

/* "3 = hang" lines into item.3=hang keys (or "3 = 0.01" into
 * give-up.3=0.01); FALSE with @error set on a bad line. */
static gboolean
add_index_lines (GKeyFile                    *keyfile,
                 const SluiceConfigFieldSpec *spec,
                 const char                  *text,
                 char                       **error)
{
  g_autofree char *prefix = lines_prefix (spec);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint n = 0; lines[n] != NULL; n++)
    {
      char *line = g_strstrip (lines[n]);
      char *eq = strchr (line, '=');
      g_autofree char *key = NULL;
      char *index;

      if (*line == '\0' || *line == '#')
        continue;

      if (eq == NULL && g_str_equal (spec->group, "submit"))
        {
          /* Translators: %u is a line number, %s the line a person typed. */
          *error = g_strdup_printf (_("Line %u: “%s” has no “=”; expected a job index, “=” and seconds, such as “3 = 0.01”"),
                                    n + 1, line);
          return FALSE;
        }
      if (eq == NULL)
        {
          *error = g_strdup_printf (_("Line %u: “%s” has no “=”; expected an item index, “=” and a behaviour, such as “3 = hang”"),
                                    n + 1, line);
          return FALSE;
        }

      *eq = '\0';
      index = g_strstrip (line);
      if (g_str_has_prefix (index, prefix))
        index += strlen (prefix);
      key = g_strconcat (prefix, index, NULL);
      g_key_file_set_value (keyfile, spec->group, key, g_strstrip (eq + 1));
    }

  return TRUE;
}

static void
add_field (GKeyFile     *keyfile,
           char * const *texts,
           guint         i)
{
  const SluiceConfigFieldSpec *spec = &_sluice_config_fields[i];
  const char *value = texts[i];

  if (g_str_equal (spec->key, SLUICE_CONFIG_FAULT_KEY))
    {
      const char *after = texts[_sluice_config_find_field ("source", SLUICE_CONFIG_FAULT_AFTER_KEY)];

      if (!g_str_equal (value, "none"))
        g_key_file_set_value (keyfile, "source", value, after ? after : "");
      return;
    }

  if (g_str_equal (spec->key, SLUICE_CONFIG_FAULT_AFTER_KEY))
    return;

  if (spec->omit_default && g_str_equal (value, spec->choices[0]))
    return;

  g_key_file_set_value (keyfile, spec->group, spec->key, value);
}

void
_sluice_config_copy_group (GKeyFile   *from,
                           GKeyFile   *to,
                           const char *group)
{
  g_auto(GStrv) keys = NULL;

  if (from == NULL || (keys = g_key_file_get_keys (from, group, NULL, NULL)) == NULL)
    return;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *value = g_key_file_get_value (from, group, keys[i], NULL);
      g_key_file_set_value (to, group, keys[i], value);
    }
}

/* The fields' @texts (as in the file, NULL for an empty field) as a key
 * file, with the [scenario] and [lesson] groups of @scenario_texts; or NULL with
 * @bad_field and @error set when a field cannot even be written. */
GKeyFile *
_sluice_config_fields_to_keyfile (char * const  *texts,
                                  GKeyFile      *scenario_texts,
                                  gint          *bad_field,
                                  char         **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();

  _sluice_config_copy_group (scenario_texts, keyfile, "scenario");
  _sluice_config_copy_group (scenario_texts, keyfile, "lesson");

  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    {
      if (texts[i] == NULL)
        continue;

      if (_sluice_config_fields[i].kind == SLUICE_FIELD_LINES)
        {
          if (!add_index_lines (keyfile, &_sluice_config_fields[i], texts[i], error))
            {
              *bad_field = (gint) i;
              return NULL;
            }
          continue;
        }

      add_field (keyfile, texts, i);
    }

  return g_steal_pointer (&keyfile);
}

/* ---- from a key file to the fields ------------------------------------- */

static char *
index_lines_of (GKeyFile                    *keyfile,
                const SluiceConfigFieldSpec *spec)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, spec->group, NULL, NULL);
  g_autofree char *prefix = lines_prefix (spec);
  GString *text = g_string_new (NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = NULL;

      if (!g_str_has_prefix (keys[i], prefix))
        continue;
      value = g_key_file_get_value (keyfile, spec->group, keys[i], NULL);
      g_string_append_printf (text, "%s%s = %s", text->len ? "\n" : "",
                              keys[i] + strlen (prefix), value);
    }

  return g_string_free (text, FALSE);
}

/* The source fault is one key named after it, such as raise-after=3. */
static void
fault_of (GKeyFile  *keyfile,
          char     **texts)
{
  gint kind = _sluice_config_find_field ("source", SLUICE_CONFIG_FAULT_KEY);
  gint after = _sluice_config_find_field ("source", SLUICE_CONFIG_FAULT_AFTER_KEY);
  const char * const *choices = _sluice_config_fields[kind].choices;

  g_free (texts[kind]);
  texts[kind] = g_strdup ("none");
  g_clear_pointer (&texts[after], g_free);

  for (guint c = 1; choices[c] != NULL; c++)
    {
      g_autofree char *value = g_key_file_get_value (keyfile, "source", choices[c], NULL);

      if (value == NULL)
        continue;
      g_free (texts[kind]);
      texts[kind] = g_strdup (choices[c]);
      g_free (texts[after]);
      texts[after] = g_steal_pointer (&value);
    }
}

/* Fills @texts (SLUICE_CONFIG_N_FIELDS of them, to free) with what each
 * field shows of @keyfile; NULL for an empty field. */
void
_sluice_config_fields_from_keyfile (GKeyFile  *keyfile,
                                    char     **texts)
{
  for (guint i = 0; i < SLUICE_CONFIG_N_FIELDS; i++)
    {
      const SluiceConfigFieldSpec *spec = &_sluice_config_fields[i];

      if (spec->kind == SLUICE_FIELD_LINES)
        texts[i] = index_lines_of (keyfile, spec);
      else if (g_str_equal (spec->key, SLUICE_CONFIG_FAULT_KEY) ||
               g_str_equal (spec->key, SLUICE_CONFIG_FAULT_AFTER_KEY))
        texts[i] = NULL;  /* see fault_of() */
      else if (g_str_equal (spec->key, "values"))
        texts[i] = g_key_file_get_string (keyfile, spec->group, spec->key, NULL);
      else
        texts[i] = g_key_file_get_value (keyfile, spec->group, spec->key, NULL);
    }

  fault_of (keyfile, texts);
}

/* Whether @spec's key has a meaning in a run of the mode: a key of the
 * other mode is an error there. */
gboolean
_sluice_config_field_applies (const SluiceConfigFieldSpec *spec,
                              gboolean                     submit)
{
  return spec->mode == SLUICE_CONFIG_MODE_ANY ||
         (spec->mode == SLUICE_CONFIG_MODE_SUBMIT) == submit;
}

/* ---- from an error to its field ---------------------------------------- */

/* Messages read "NAME: [group] key: detail"; the field shows the detail.
 * Returns the field's index, or -1 with @detail the whole message. */
gint
_sluice_config_field_of_error (const char  *message,
                               const char **detail)
{
  g_autoptr(GRegex) regex = g_regex_new ("\\[([a-z]+)\\] ([a-z0-9.-]+): ", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  g_autofree char *group = NULL;
  g_autofree char *key = NULL;
  gint end = 0;
  gint i;

  *detail = message;
  if (!g_regex_match (regex, message, 0, &match))
    return -1;

  group = g_match_info_fetch (match, 1);
  key = g_match_info_fetch (match, 2);
  g_match_info_fetch_pos (match, 0, NULL, &end);

  if (g_str_has_prefix (key, "item."))
    i = _sluice_config_find_field (group, SLUICE_CONFIG_ITEMS_KEY);
  else if (g_str_has_prefix (key, "give-up."))
    i = _sluice_config_find_field (group, SLUICE_CONFIG_GIVE_UPS_KEY);
  else if (g_str_equal (group, "source") && g_str_has_suffix (key, "-after"))
    i = _sluice_config_find_field (group, SLUICE_CONFIG_FAULT_AFTER_KEY);
  else
    i = _sluice_config_find_field (group, key);

  if (i >= 0)
    *detail = message + end;
  return i;
}
