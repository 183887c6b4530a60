/* sluice-lesson-evidence.c: what a run showed, said in a sentence
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-lesson-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

/*
 * A lesson's `evidence` is a sentence in the lesson's language with
 * placeholders for the values its `reveal` names (docs/teaching.md: the reveal
 * speaks in sentences, never in report keys):
 *
 *   {PATH}          the value, numbers in the language's format
 *   {PATH:N}        a number with N decimals (one precision per figure)
 *   {PATH:ms}       microseconds as whole milliseconds
 *   {PATH|yes|no}   one text or the other, for a true/false value
 *
 * Filled from a run's report it says what this run did; filled from the
 * reveal's own values, what the lesson expects.
 */

#define MAX_DIGITS 6

/* The decimal separator of the language the texts are in (not of
 * LC_NUMERIC, which may be another language's): German text, German
 * numbers. */
static const char *
decimal_separator (void)
{
  /* Translators: the decimal separator of numbers in your language, such
   * as “,” in German (0,5 s). */
  return C_("decimal separator", ".");
}

/**
 * sluice_lesson_format_number:
 * @value: a number
 * @digits: how many decimals, 0 to 6
 *
 * Returns: (transfer full): @value with @digits decimals and the decimal
 *   separator of the translation's language (“0,25” in German)
 */
char *
sluice_lesson_format_number (double value,
                             int    digits)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];
  GString *text;

  digits = CLAMP (digits, 0, MAX_DIGITS);
  g_snprintf (format, sizeof format, "%%.%df", digits);
  g_ascii_formatd (buffer, sizeof buffer, format, value);

  text = g_string_new (buffer);
  if (digits > 0)
    g_string_replace (text, ".", decimal_separator (), 1);
  return g_string_free (text, FALSE);
}

/**
 * sluice_lesson_format_seconds:
 * @us: a time on the run's clock, in µs
 *
 * Returns: (transfer full): the time in seconds as the lesson's reveal
 *   writes every time on the run's clock: three decimals, as the Explain
 *   tab does (“0,100 s” in German)
 */
char *
sluice_lesson_format_seconds (gint64 us)
{
  g_autofree char *number = sluice_lesson_format_number ((double) us / G_USEC_PER_SEC, 3);

  /* Translators: a time on the run's clock; %s is the number of seconds,
   * already in your language's format. */
  return g_strdup_printf (_("%s s"), number);
}

/* The digits a number is shown with when the template does not say: as
 * few as say it exactly, up to three. */
static int
natural_digits (double value)
{
  for (int digits = 0; digits < 3; digits++)
    {
      double scale = pow (10, digits);

      if (fabs (value * scale - round (value * scale)) < 1e-9)
        return digits;
    }
  return 3;
}

static void append_value (GString *out, JsonNode *node, const char *format);

static void
append_number (GString    *out,
               JsonNode   *node,
               const char *format)
{
  double value = json_node_get_double (node);
  g_autofree char *text = NULL;
  guint64 digits;

  if (g_strcmp0 (format, "ms") == 0)
    text = sluice_lesson_format_number (value / 1000.0, 0);
  else if (format != NULL && g_ascii_string_to_unsigned (format, 10, 0, MAX_DIGITS, &digits, NULL))
    text = sluice_lesson_format_number (value, (int) digits);
  else if (json_node_get_value_type (node) == G_TYPE_INT64)
    text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  else
    text = sluice_lesson_format_number (value, natural_digits (value));

  g_string_append (out, text);
}

static void
append_array (GString    *out,
              JsonArray  *array,
              const char *format)
{
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        /* Translators: between the values of a list, such as the results
         * “4, 1, 0”. */
        g_string_append (out, C_("list", ", "));
      append_value (out, json_array_get_element (array, i), format);
    }
}

static void
append_value (GString    *out,
              JsonNode   *node,
              const char *format)
{
  GType type;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      /* Translators: a value the run did not report at all. */
      g_string_append (out, C_("value", "nothing"));
      return;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      append_array (out, json_node_get_array (node), format);
      return;
    }
  if (!JSON_NODE_HOLDS_VALUE (node))
    {
      g_autofree char *text = json_to_string (node, FALSE);

      g_string_append (out, text);
      return;
    }

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64 || type == G_TYPE_DOUBLE)
    append_number (out, node, format);
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? C_("value", "yes") : C_("value", "no"));
  else
    g_string_append (out, json_node_get_string (node));
}

/* The condition of `reveal` whose path is @path, or NULL. */
static SluiceRevealCondition *
find_condition (SluiceLesson *self,
                const char   *path)
{
  for (guint i = 0; i < self->conditions->len; i++)
    {
      SluiceRevealCondition *condition = g_ptr_array_index (self->conditions, i);

      if (g_str_equal (condition->text, path))
        return condition;
    }
  return NULL;
}

/* Fills one placeholder's text (between the braces) into @out; with
 * @report NULL, from the reveal's own value. */
static gboolean
fill_placeholder (SluiceLesson *self,
                  const char   *inside,
                  JsonNode     *report,
                  GString      *out)
{
  g_auto(GStrv) alternatives = g_strsplit (inside, "|", 3);
  g_auto(GStrv) path_format = g_strsplit (alternatives[0], ":", 2);
  SluiceRevealCondition *condition = find_condition (self, path_format[0]);
  JsonNode *value;

  if (condition == NULL)
    return FALSE;

  if (report != NULL)
    value = _sluice_lesson_lookup_path (report, (const char * const *) condition->path);
  else
    value = condition->value;
  if (alternatives[1] != NULL)
    {
      gboolean yes = value != NULL && JSON_NODE_HOLDS_VALUE (value) &&
                     json_node_get_value_type (value) == G_TYPE_BOOLEAN && json_node_get_boolean (value);

      g_string_append (out, yes ? alternatives[1] : (alternatives[2] != NULL ? alternatives[2] : ""));
      return TRUE;
    }

  append_value (out, value, path_format[1]);
  return TRUE;
}

/* @text with its placeholders filled, or NULL with *problem set when a
 * placeholder names no condition of `reveal` or a brace is not closed. */
static char *
fill (SluiceLesson  *self,
      const char    *text,
      JsonNode      *report,
      char         **problem)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *c = text;

  while (*c != '\0')
    {
      const char *open = strchr (c, '{');
      const char *close;
      g_autofree char *inside = NULL;

      if (open == NULL)
        {
          g_string_append (out, c);
          break;
        }
      g_string_append_len (out, c, open - c);
      close = strchr (open, '}');
      if (close == NULL)
        {
          /* Translators: about a lesson's evidence key; keep the braces. */
          *problem = g_strdup (_("a “{” is not closed by “}”; expected {PATH} of a reveal condition"));
          return NULL;
        }
      inside = g_strndup (open + 1, close - open - 1);
      if (!fill_placeholder (self, inside, report, out))
        {
          /* Translators: %s is a placeholder of a lesson's evidence key. */
          *problem = g_strdup_printf (_("“{%s}” names no condition of reveal; expected {PATH}, {PATH:N}, "
                                        "{PATH:ms} or {PATH|TEXT IF TRUE|TEXT IF FALSE} with a PATH of reveal"),
                                      inside);
          return NULL;
        }
      c = close + 1;
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Whether every placeholder of @text names a condition of `reveal`: the
 * scenario loader's check of `evidence` and each translation of it. */
gboolean
_sluice_lesson_check_evidence (SluiceLesson  *self,
                               const char    *text,
                               char         **problem)
{
  g_autofree char *filled = fill (self, text, NULL, problem);

  return filled != NULL;
}

/**
 * sluice_lesson_describe:
 * @self: a #SluiceLesson
 * @report: (nullable): a run's JSON report, or %NULL for what the lesson
 *   expects
 *
 * Says in the lesson's sentence (`evidence`) what a run showed of the
 * values `reveal` checks, numbers in the language's format; never a
 * report key.
 *
 * Returns: (transfer full) (nullable): the sentence, or %NULL when the
 *   lesson has no `evidence`
 */
char *
sluice_lesson_describe (SluiceLesson *self,
                        JsonNode     *report)
{
  g_autofree char *problem = NULL;

  g_return_val_if_fail (SLUICE_IS_LESSON (self), NULL);

  if (self->evidence == NULL)
    return NULL;
  /* The loader checked the placeholders: this cannot fail. */
  return fill (self, self->evidence, report, &problem);
}
