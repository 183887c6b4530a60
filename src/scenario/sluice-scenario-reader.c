/* sluice-scenario-reader.c: a scenario file's values, read and checked one
 * at a time, and the messages that say where a bad one is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

#include <math.h>
#include <string.h>

#define MIN_POSITIVE_SECONDS  1e-6

const char * const _sluice_scenario_metrics_names[] = { "off", "on", "broken", NULL };
const char * const _sluice_scenario_clock_names[] = { "real", "virtual", NULL };
const char * const _sluice_scenario_mode_names[] = {
  [SLUICE_SCENARIO_MODE_STREAM] = "stream",
  [SLUICE_SCENARIO_MODE_SUBMIT] = "submit",
  NULL,
};
const char * const _sluice_scenario_fault_keys[] = {
  [SLUICE_SOURCE_FAULT_NONE] = NULL,
  [SLUICE_SOURCE_FAULT_RAISE] = "raise-after",
  [SLUICE_SOURCE_FAULT_CANCEL] = "cancel-after",
  [SLUICE_SOURCE_FAULT_HANG] = "hang-after",
};
const char * const _sluice_scenario_retry_keys[] = {
  [SLUICE_RETRY_KEY_BACKOFF] = "backoff",
  [SLUICE_RETRY_KEY_BASE] = "base",
  [SLUICE_RETRY_KEY_CAP] = "cap",
  [SLUICE_RETRY_KEY_JITTER] = "jitter",
  [SLUICE_RETRY_KEY_SEED] = "seed",
  [SLUICE_RETRY_KEY_DEADLINE] = "deadline",
  [SLUICE_RETRY_KEY_BUDGET] = "budget",
  [SLUICE_RETRY_KEY_BUDGET_RATIO] = "budget-ratio",
  [SLUICE_RETRY_N_KEYS] = NULL,
};
const char * const _sluice_scenario_backoff_names[] = {
  [SLUICE_BACKOFF_NONE] = "none",
  [SLUICE_BACKOFF_EXPONENTIAL] = "exponential",
  NULL,
};
const char * const _sluice_scenario_jitter_names[] = {
  [SLUICE_JITTER_FULL] = "full",
  [SLUICE_JITTER_NONE] = "none",
  NULL,
};

/* ---- messages: where a value came from --------------------------------- */

/* How the overridden set names a key that `--set` gave. */
char *
_sluice_scenario_override_id (const char *group,
                              const char *key)
{
  return g_strdup_printf ("%s\n%s", group, key);
}

/* What one line of a key file is, as GKeyFile reads it: a `[group]`
 * header, a `key=value` line, or anything else (a comment, a blank line).
 * Strips @line in place; *name is the group or the key, inside @line. */
typedef enum { LINE_OTHER, LINE_GROUP, LINE_KEY } LineKind;

static LineKind
classify_line (char  *line,
               char **name)
{
  char *end;

  line = g_strstrip (line);
  if (line[0] == '#' || line[0] == '\0')
    return LINE_OTHER;

  if (line[0] == '[')
    {
      end = strchr (line, ']');
      if (end == NULL)
        return LINE_OTHER;
      *end = '\0';
      *name = line + 1;
      return LINE_GROUP;
    }

  end = strchr (line, '=');
  if (end == NULL)
    return LINE_OTHER;
  *end = '\0';
  *name = g_strchomp (line);
  return LINE_KEY;
}

/* The line of [group] (its first header), or of the key in it (its last
 * line); 0 when unknown. */
static guint
find_line (const SluiceScenarioParser *p,
           const char                 *group,
           const char                 *key)
{
  g_auto(GStrv) lines = NULL;
  g_autofree char *current = NULL;
  guint found = 0;

  if (p->text == NULL)
    return 0;

  lines = g_strsplit (p->text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *name = NULL;

      switch (classify_line (lines[i], &name))
        {
        case LINE_GROUP:
          g_free (current);
          current = g_strdup (name);
          if (key == NULL && g_str_equal (current, group))
            return i + 1;
          break;

        case LINE_KEY:
          if (key != NULL && g_strcmp0 (current, group) == 0 && g_str_equal (name, key))
            found = i + 1;
          break;

        case LINE_OTHER:
        default:
          break;
        }
    }

  return found;
}

static gboolean
is_overridden (const SluiceScenarioParser *p,
               const char                 *group,
               const char                 *key)
{
  g_autofree char *id = NULL;

  if (key == NULL || p->overridden == NULL)
    return FALSE;

  id = _sluice_scenario_override_id (group, key);
  return g_hash_table_contains (p->overridden, id);
}

static char *
describe_place (const SluiceScenarioParser *p,
                guint                       line,
                const char                 *group,
                const char                 *key)
{
  if (line == 0 && is_overridden (p, group, key))
    return g_strdup_printf ("%s: --set %s.%s", p->name, group, key);

  if (line == 0)
    line = find_line (p, group, key);
  if (key == NULL)
    return line > 0 ? g_strdup_printf ("%s:%u: [%s]", p->name, line, group)
                    : g_strdup_printf ("%s: [%s]", p->name, group);

  return line > 0 ? g_strdup_printf ("%s:%u: [%s] %s", p->name, line, group, key)
                  : g_strdup_printf ("%s: [%s] %s", p->name, group, key);
}

static void
set_error_at_line (const SluiceScenarioParser  *p,
                   GError                     **error,
                   gint                         code,
                   guint                        line,
                   const char                  *group,
                   const char                  *key,
                   const char                  *detail)
{
  g_autofree char *place = describe_place (p, line, group, key);

  g_set_error (error, SLUICE_SCENARIO_ERROR, code, "%s: %s", place, detail);
}

/* An error that names the file, the line of the key (or group) and the
 * key, or the --set that gave it. */
void
_sluice_scenario_set_error (const SluiceScenarioParser  *p,
                            GError                     **error,
                            gint                         code,
                            const char                  *group,
                            const char                  *key,
                            const char                  *format,
                            ...)
{
  g_autofree char *detail = NULL;
  va_list args;

  va_start (args, format);
  detail = g_strdup_vprintf (format, args);
  va_end (args);

  set_error_at_line (p, error, code, 0, group, key, detail);
}

/* GKeyFile merges a group written twice and keeps the last of a key
 * written twice in a group, silently: the text is read again here so that
 * both are errors. `title[de]` and `title` are different keys. */
gboolean
_sluice_scenario_check_duplicates (const SluiceScenarioParser  *p,
                                   GError                     **error)
{
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) seen = NULL; /* "[group" or "group\nkey" → line */
  const char *group = NULL;

  if (p->text == NULL)
    return TRUE;

  seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  lines = g_strsplit (p->text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *name = NULL;
      g_autofree char *id = NULL;
      g_autofree char *detail = NULL;
      LineKind kind = classify_line (lines[i], &name);
      guint first;

      if (kind == LINE_OTHER || (kind == LINE_KEY && group == NULL))
        continue;

      id = kind == LINE_GROUP ? g_strconcat ("[", name, NULL) : _sluice_scenario_override_id (group, name);
      first = GPOINTER_TO_UINT (g_hash_table_lookup (seen, id));
      if (first == 0)
        {
          g_hash_table_insert (seen, g_steal_pointer (&id), GUINT_TO_POINTER (i + 1));
          if (kind == LINE_GROUP)
            group = name;
          continue;
        }

      if (kind == LINE_GROUP)
        detail = g_strdup_printf (/* Translators: follows “FILE:LINE: [group]: ”; %u is the line of
                                   * the group's first header. */
                                  _("the group is already at line %u; expected each group once, "
                                    "with all its keys under one header"), first);
      else
        detail = g_strdup_printf (/* Translators: follows “FILE:LINE: [group] key: ”; %u is the line
                                   * where the group first sets the key. */
                                  _("the key is already set at line %u; expected each key once in "
                                    "its group"), first);
      set_error_at_line (p, error, SLUICE_SCENARIO_ERROR_PARSE, i + 1,
                         kind == LINE_GROUP ? name : group, kind == LINE_GROUP ? NULL : name, detail);
      return FALSE;
    }

  return TRUE;
}

/* ---- text and tokens --------------------------------------------------- */

/* UTF-8 without NUL bytes, or an error on the line of the first bad byte. */
gboolean
_sluice_scenario_check_text (const char  *name,
                             const char  *data,
                             gsize        length,
                             GError     **error)
{
  const char *end = NULL;
  guint line = 1;

  if (!g_utf8_validate_len (data, length, &end) || memchr (data, '\0', length) != NULL)
    {
      const char *stop = end ? end : data + length;
      const char *nul = memchr (data, '\0', length);

      if (nul != NULL && nul < stop)
        stop = nul;
      for (const char *c = data; c < stop; c++)
        line += *c == '\n';

      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                   /* Translators: %s:%u is the file and line. Keep “[group]” and
                    * “key=value” as they are: they show the syntax of the file. */
                   _("%s:%u: not a text file (binary data or invalid UTF-8); expected a "
                     "scenario key file in UTF-8 with [group] headers and key=value lines"),
                   name, line);
      return FALSE;
    }

  return TRUE;
}

/* item.N with N a canonical decimal integer. */
gboolean
_sluice_scenario_parse_item_key (const char *key,
                                 gint64     *index)
{
  return _sluice_scenario_parse_index_key (key, "item.", index);
}

/* PREFIX then an index without leading zeros: item.3, give-up.3. */
gboolean
_sluice_scenario_parse_index_key (const char *key,
                                  const char *prefix,
                                  gint64     *index)
{
  guint64 value;

  if (!g_str_has_prefix (key, prefix))
    return FALSE;

  key += strlen (prefix);
  if (key[0] == '\0' || (key[0] == '0' && key[1] != '\0'))
    return FALSE;

  if (!g_ascii_string_to_unsigned (key, 10, 0, G_MAXINT64, &value, NULL))
    return FALSE;

  *index = (gint64) value;
  return TRUE;
}

/* One item of `[source] values`: an integer, a quoted string or a bare word. */
GVariant *
_sluice_scenario_parse_value (const char *token)
{
  gint64 number;
  gsize len = strlen (token);

  if (g_ascii_string_to_signed (token, 10, G_MININT64, G_MAXINT64, &number, NULL))
    return g_variant_ref_sink (g_variant_new_int64 (number));

  if (len >= 2 && (token[0] == '"' || token[0] == '\'') && token[len - 1] == token[0])
    {
      g_autofree char *inner = g_strndup (token + 1, len - 2);
      return g_variant_ref_sink (g_variant_new_string (inner));
    }

  return g_variant_ref_sink (g_variant_new_string (token));
}

/* ---- values ------------------------------------------------------------ */

/* The raw value, stripped, or NULL when the key is absent. */
char *
_sluice_scenario_read_raw (GKeyFile   *keyfile,
                           const char *group,
                           const char *key)
{
  char *value = g_key_file_get_value (keyfile, group, key, NULL);

  return value ? g_strstrip (value) : NULL;
}

/* GKeyFile's escapes in a string: \s \n \t \r and \\. g_key_file_get_string()
 * keeps any other one as it is and drops a backslash at the end (and
 * sets a GError over another one for `a\qb\`), so they are checked on the
 * raw value first. */
gboolean
_sluice_scenario_check_escapes (const SluiceScenarioParser  *p,
                                GKeyFile                    *keyfile,
                                const char                  *group,
                                const char                  *key,
                                GError                     **error)
{
  g_autofree char *raw = g_key_file_get_value (keyfile, group, key, NULL);

  for (const char *c = raw; c != NULL && *c != '\0'; c++)
    {
      g_autofree char *escape = NULL;

      /* A raw carriage return (or another control character) does not
       * survive a save: GKeyFile takes one at a line's end for CRLF. */
      if ((guchar) *c < 0x20 && *c != '\t')
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                      /* Translators: follows “FILE: [group] key: ”; %04X is the
                                       * character's code. Keep \r and \n as they are. */
                                      _("a control character (U+%04X) in the text; expected printable "
                                        "text, with \\r or \\n for a carriage return or a new line"),
                                      (guint) (guchar) *c);
          return FALSE;
        }

      if (*c != '\\')
        continue;

      c++;
      if (*c != '\0' && strchr ("sntr\\", *c) != NULL)
        continue;

      if (*c == '\0')
        escape = g_strdup ("\\");
      else
        {
          gsize len = 1;

          if ((guchar) *c >= 0x80 && g_utf8_get_char_validated (c, -1) < (gunichar) -2)
            len = g_utf8_next_char (c) - c;
          escape = g_strndup (c - 1, 1 + len);
        }
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; %s is the escape as
                                   * typed, such as “\q”. Keep \s, \n, \t, \r and \\ as they are. */
                                  _("“%s” is a bad escape; expected a backslash only in \\s (space), "
                                    "\\n (new line), \\t (tab), \\r (carriage return) or \\\\ "
                                    "(backslash)"), escape);
      return FALSE;
    }

  return TRUE;
}

/* A string value with its escapes undone; NULL with @error set for a bad
 * escape. The key must be there. */
char *
_sluice_scenario_read_string (const SluiceScenarioParser  *p,
                              GKeyFile                    *keyfile,
                              const char                  *group,
                              const char                  *key,
                              GError                     **error)
{
  if (!_sluice_scenario_check_escapes (p, keyfile, group, key, error))
    return NULL;

  return g_key_file_get_string (keyfile, group, key, NULL);
}

gboolean
_sluice_scenario_require_key (const SluiceScenarioParser  *p,
                              GKeyFile                    *keyfile,
                              const char                  *group,
                              const char                  *key,
                              const char                  *expected,
                              GError                     **error)
{
  if (g_key_file_has_key (keyfile, group, key, NULL))
    return TRUE;

  {
    g_auto(GStrv) names = g_key_file_get_groups (keyfile, NULL);

    /* Not even one group: say so rather than name one missing key. */
    if (names == NULL || names[0] == NULL)
      {
        g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                     /* Translators: %s is the file. Keep “[pool]”, “workers”, “queue-size”
                      * and “item-timeout”: they are the group and keys users must type. */
                     _("%s: the file has no scenario in it (empty); expected a key file with "
                       "at least a [pool] group with workers, queue-size and item-timeout"), p->name);
        return FALSE;
      }
  }

  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_MISSING_KEY, group, key,
                              /* Translators: follows “FILE: [group] key: ”; %s says what the key takes,
                               * such as “a positive integer”. */
                              _("missing; this key is required, expected %s"), expected);
  return FALSE;
}

/* The readers below leave *out alone when the key is absent. */

gboolean
_sluice_scenario_read_int (const SluiceScenarioParser  *p,
                           GKeyFile                    *keyfile,
                           const char                  *group,
                           const char                  *key,
                           gint64                       min,
                           gint64                       max,
                           gint64                      *out,
                           GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);
  g_autofree char *min_text = NULL;
  g_autofree char *max_text = NULL;
  gint64 value;

  if (raw == NULL)
    return TRUE;

  /* The bounds as text, so that the messages need no G_GINT64_FORMAT. */
  min_text = g_strdup_printf ("%" G_GINT64_FORMAT, min);
  max_text = g_strdup_printf ("%" G_GINT64_FORMAT, max);

  if (!g_ascii_string_to_signed (raw, 10, G_MININT64, G_MAXINT64, &value, NULL))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, then the smallest and the largest integer allowed. */
                                  _("“%s” is not an integer; expected an integer from %s to %s"),
                                  raw, min_text, max_text);
      return FALSE;
    }

  if (value < min || value > max)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, then the smallest and the largest integer allowed. */
                                  _("%s is out of range; expected an integer from %s to %s"),
                                  raw, min_text, max_text);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* Whole thousandths, as the pool counts tokens (the same test as its own). */
static gboolean
has_three_decimals (double value)
{
  double milli = value * 1000;

  return fabs (milli - nearbyint (milli)) < 1e-6;
}

static const char *
describe_number (SluiceNumberKind kind)
{
  switch (kind)
    {
    case SLUICE_NUMBER_POSITIVE_SECONDS:
      return _("seconds, a number > 0");
    case SLUICE_NUMBER_SECONDS_OR_NONE:
      /* Translators: what a per-item deadline or a shutdown timeout takes; keep the 0. */
      return _("seconds, 0 for none or a number > 0");
    case SLUICE_NUMBER_TOKENS:
      /* Translators: what a retry budget takes; keep the numbers. */
      return _("tokens, 0 for none or a number up to 1000000 with at most 3 decimals");
    case SLUICE_NUMBER_POSITIVE_TOKENS:
      /* Translators: what a retry budget's ratio takes; keep the numbers. */
      return _("tokens, a number > 0 up to 1000000 with at most 3 decimals");
    case SLUICE_NUMBER_TIMES:
      /* Translators: what [submit] snapshot-at takes; keep the numbers. */
      return _("';'-separated times in seconds, each 0 or at least 0.000001");
    case SLUICE_NUMBER_SECONDS:
    default:
      return _("seconds, a number ≥ 0");
    }
}

/* @raw, a plain decimal of @kind, at most @max, into *out; or @error. */
static gboolean
check_number (const SluiceScenarioParser  *p,
              const char                  *group,
              const char                  *key,
              const char                  *raw,
              SluiceNumberKind             kind,
              double                       max,
              double                      *out,
              GError                     **error)
{
  const char *expected = describe_number (kind);
  gboolean positive = kind == SLUICE_NUMBER_POSITIVE_SECONDS || kind == SLUICE_NUMBER_POSITIVE_TOKENS;
  gboolean tokens = kind == SLUICE_NUMBER_TOKENS || kind == SLUICE_NUMBER_POSITIVE_TOKENS;
  double value;

  /* A plain decimal: g_ascii_strtod() reads all of it; too large is inf. */
  value = _sluice_is_plain_decimal (raw, -1) ? g_ascii_strtod (raw, NULL) : NAN;
  if (!isfinite (value))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, the second “seconds, a number > 0” or “… ≥ 0”. Keep the
                                   * examples 0.5 and 1e-3 as they are. */
                                  _("“%s” is not a decimal number; expected %s, such as 0.5 or 1e-3"),
                                  raw, expected);
      return FALSE;
    }

  if (value < 0 || (positive && value == 0) || value > max)
    {
      if (tokens)
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                    /* Translators: follows “FILE: [group] key: ”; the first %s is the
                                     * value as typed, the second says what the key takes, such as
                                     * “tokens, a number > 0 up to 1000000 with at most 3 decimals”. */
                                    _("%s is out of range; expected %s"), raw, expected);
      else
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                    /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                     * as typed, the second “seconds, a number > 0” or “… ≥ 0”, %g the
                                     * largest number of seconds allowed. */
                                    _("%s is out of range; expected %s (at most %g)"),
                                    raw, expected, max);
      return FALSE;
    }

  /* The pool counts whole microseconds: less is no time at all. */
  if ((kind == SLUICE_NUMBER_POSITIVE_SECONDS || kind == SLUICE_NUMBER_SECONDS_OR_NONE ||
       kind == SLUICE_NUMBER_TIMES) &&
      value > 0 && value < MIN_POSITIVE_SECONDS)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, the second “seconds, a number > 0”. Keep 0.000001. */
                                  _("%s is less than a microsecond, the clock's resolution; expected %s, "
                                    "at least 0.000001"), raw, expected);
      return FALSE;
    }

  /* The pool counts tokens in whole thousandths. */
  if (tokens && !has_three_decimals (value))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, the second says what the key takes, such as “tokens, a
                                   * number > 0 up to 1000000 with at most 3 decimals”. Keep 0.001. */
                                  _("%s has more than 3 decimals (tokens are counted in thousandths, "
                                    "0.001); expected %s"), raw, expected);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* A plain decimal of @kind, at most @max. */
gboolean
_sluice_scenario_read_number (const SluiceScenarioParser  *p,
                              GKeyFile                    *keyfile,
                              const char                  *group,
                              const char                  *key,
                              SluiceNumberKind             kind,
                              double                       max,
                              double                      *out,
                              GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);

  return raw == NULL || check_number (p, group, key, raw, kind, max, out, error);
}

/* ';'-separated times in seconds, each 0 or at least 1 µs, in the order
 * written; none when empty. *out is a new array of doubles. */
gboolean
_sluice_scenario_read_times (const SluiceScenarioParser  *p,
                             GKeyFile                    *keyfile,
                             const char                  *group,
                             const char                  *key,
                             GArray                     **out,
                             GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(GStrv) tokens = NULL;

  if (raw == NULL || !_sluice_scenario_split_list (p, group, key, raw, SLUICE_LIST_TIMES, &tokens, error))
    return raw == NULL;

  for (guint i = 0; tokens[i] != NULL; i++)
    {
      double value = 0;

      if (!check_number (p, group, key, tokens[i], SLUICE_NUMBER_TIMES, SLUICE_SCENARIO_MAX_SECONDS,
                         &value, error))
        return FALSE;
      g_array_append_val (times, value);
    }

  g_clear_pointer (out, g_array_unref);
  *out = g_steal_pointer (&times);
  return TRUE;
}

gboolean
_sluice_scenario_read_seconds (const SluiceScenarioParser  *p,
                               GKeyFile                    *keyfile,
                               const char                  *group,
                               const char                  *key,
                               gboolean                     positive,
                               double                      *out,
                               GError                     **error)
{
  return _sluice_scenario_read_number (p, keyfile, group, key,
                                       positive ? SLUICE_NUMBER_POSITIVE_SECONDS : SLUICE_NUMBER_SECONDS,
                                       SLUICE_SCENARIO_MAX_SECONDS, out, error);
}

gboolean
_sluice_scenario_read_bool (const SluiceScenarioParser  *p,
                            GKeyFile                    *keyfile,
                            const char                  *group,
                            const char                  *key,
                            gboolean                    *out,
                            GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);

  if (raw == NULL)
    return TRUE;

  if (g_str_equal (raw, "true"))
    *out = TRUE;
  else if (g_str_equal (raw, "false"))
    *out = FALSE;
  else
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; %s is the value as typed.
                                   * Do not translate “true” and “false”: they are what users must type. */
                                  _("“%s” is not a boolean; expected true or false"), raw);
      return FALSE;
    }

  return TRUE;
}

/* One of @choices; *out is its index. */
gboolean
_sluice_scenario_read_choice (const SluiceScenarioParser  *p,
                              GKeyFile                    *keyfile,
                              const char                  *group,
                              const char                  *key,
                              const char * const          *choices,
                              guint                       *out,
                              GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);
  g_autofree char *expected = NULL;

  if (raw == NULL)
    return TRUE;

  for (guint i = 0; choices[i] != NULL; i++)
    if (g_str_equal (raw, choices[i]))
      {
        *out = i;
        return TRUE;
      }

  expected = g_strjoinv (" | ", (char **) choices);
  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                              /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                               * as typed, the second the words allowed, such as “off | on | broken”. */
                              _("“%s” is not allowed; expected %s"), raw, expected);
  return FALSE;
}

/* Says that token @position (from 1) of a list of @kind is empty. */
static void
set_empty_token_error (const SluiceScenarioParser  *p,
                       const char                  *group,
                       const char                  *key,
                       SluiceListKind               kind,
                       guint                        position,
                       GError                     **error)
{
  switch (kind)
    {
    case SLUICE_LIST_ITEMS:
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [source] values: ”; %u counts from 1.
                                   * Keep the example 3;1;4;"a" as it is. */
                                  _("item %u is empty; expected ';'-separated items such as "
                                    "3;1;4;\"a\""), position);
      break;
    case SLUICE_LIST_TIMES:
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; %u counts from 1.
                                   * Keep “0.005;0.5” as it is. */
                                  _("time %u is empty; expected ';'-separated times in seconds such "
                                    "as 0.005;0.5"), position);
      break;
    case SLUICE_LIST_TYPE_NAMES:
    default:
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; %u counts from 1.
                                   * Keep “TimeoutError;ValueError” as it is. */
                                  _("type name %u is empty; expected ';'-separated type names "
                                    "such as TimeoutError;ValueError"), position);
      break;
    }
}

/* Splits the ';'-separated list @text into its stripped tokens: an empty
 * list has none, and one trailing ';' is allowed; an empty token is an
 * error that names its position. */
gboolean
_sluice_scenario_split_list (const SluiceScenarioParser  *p,
                             const char                  *group,
                             const char                  *key,
                             const char                  *text,
                             SluiceListKind               kind,
                             GStrv                       *tokens,
                             GError                     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) parts = g_strsplit (text, ";", -1);
  guint n = g_strv_length (parts);

  for (guint i = 0; i < n; i++)
    {
      char *token = g_strstrip (parts[i]);

      if (*token == '\0' && i == n - 1)
        break;
      if (*token == '\0')
        {
          set_empty_token_error (p, group, key, kind, i + 1, error);
          return FALSE;
        }

      g_strv_builder_add (builder, token);
    }

  *tokens = g_strv_builder_end (builder);
  return TRUE;
}

/* ';'-separated error type names, none when empty. */
gboolean
_sluice_scenario_read_error_types (const SluiceScenarioParser  *p,
                                   GKeyFile                    *keyfile,
                                   const char                  *group,
                                   const char                  *key,
                                   GStrv                       *out,
                                   GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);
  g_auto(GStrv) names = NULL;

  if (raw == NULL || !_sluice_scenario_split_list (p, group, key, raw, SLUICE_LIST_TYPE_NAMES, &names, error))
    return raw == NULL;

  for (guint i = 0; names[i] != NULL; i++)
    if (!sluice_is_error_type_name (names[i]))
      {
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                    /* Translators: follows “FILE: [group] key: ”; %s is the name as
                                     * typed. Keep “TimeoutError;ValueError” as it is: an example of
                                     * what users type. */
                                    _("“%s” is not an error type; expected ';'-separated type "
                                      "names such as TimeoutError;ValueError (letters, digits "
                                      "and _, not starting with a digit)"), names[i]);
        return FALSE;
      }

  g_strfreev (*out);
  *out = g_steal_pointer (&names);
  return TRUE;
}

/* A `[handler]` behaviour; NULL with @error set when it is malformed. */
SluiceBehaviour *
_sluice_scenario_read_behaviour (const SluiceScenarioParser  *p,
                                 GKeyFile                    *keyfile,
                                 const char                  *key,
                                 GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, "handler", key);
  g_autoptr(GError) local_error = NULL;
  SluiceBehaviour *behaviour;

  behaviour = sluice_behaviour_parse (raw, &local_error);
  if (behaviour == NULL)
    _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "handler", key,
                                "%s", local_error->message);

  return behaviour;
}
