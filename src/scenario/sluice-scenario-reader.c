/* sluice-scenario-reader.c: a scenario file's values, read and checked one
 * at a time, and the messages that say where a bad one is
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

#include <math.h>
#include <string.h>

#define MAX_SECONDS     1e9

const char * const _sluice_scenario_metrics_names[] = { "off", "on", "broken", NULL };
const char * const _sluice_scenario_clock_names[] = { "real", "virtual", NULL };
const char * const _sluice_scenario_fault_keys[] = {
  [SLUICE_SOURCE_FAULT_NONE] = NULL,
  [SLUICE_SOURCE_FAULT_RAISE] = "raise-after",
  [SLUICE_SOURCE_FAULT_CANCEL] = "cancel-after",
  [SLUICE_SOURCE_FAULT_HANG] = "hang-after",
};

/* ---- messages: where a value came from --------------------------------- */

/* How the overridden set names a key that `--set` gave. */
char *
_sluice_scenario_override_id (const char *group,
                              const char *key)
{
  return g_strdup_printf ("%s\n%s", group, key);
}

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
      char *line = g_strstrip (lines[i]);
      char *eq;

      if (line[0] == '[')
        {
          char *end = strchr (line, ']');
          g_free (current);
          current = end ? g_strndup (line + 1, end - line - 1) : NULL;
          if (key == NULL && g_strcmp0 (current, group) == 0)
            return i + 1;
          continue;
        }

      if (key == NULL || g_strcmp0 (current, group) != 0 || (eq = strchr (line, '=')) == NULL)
        continue;

      *eq = '\0';
      if (g_str_equal (g_strstrip (line), key))
        found = i + 1;
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
                const char                 *group,
                const char                 *key)
{
  guint line;

  if (is_overridden (p, group, key))
    return g_strdup_printf ("%s: --set %s.%s", p->name, group, key);

  line = find_line (p, group, key);
  if (key == NULL)
    return line > 0 ? g_strdup_printf ("%s:%u: [%s]", p->name, line, group)
                    : g_strdup_printf ("%s: [%s]", p->name, group);

  return line > 0 ? g_strdup_printf ("%s:%u: [%s] %s", p->name, line, group, key)
                  : g_strdup_printf ("%s: [%s] %s", p->name, group, key);
}

void
_sluice_scenario_set_error (const SluiceScenarioParser  *p,
                            GError                     **error,
                            gint                         code,
                            const char                  *group,
                            const char                  *key,
                            const char                  *format,
                            ...)
{
  g_autofree char *place = describe_place (p, group, key);
  g_autofree char *detail = NULL;
  va_list args;

  va_start (args, format);
  detail = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, SLUICE_SCENARIO_ERROR, code, "%s: %s", place, detail);
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
  guint64 value;

  if (!g_str_has_prefix (key, "item."))
    return FALSE;

  key += strlen ("item.");
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

gboolean
_sluice_scenario_read_seconds (const SluiceScenarioParser  *p,
                               GKeyFile                    *keyfile,
                               const char                  *group,
                               const char                  *key,
                               gboolean                     positive,
                               double                      *out,
                               GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);
  const char *expected = positive ? _("seconds, a number > 0") : _("seconds, a number ≥ 0");
  char *end = NULL;
  double value;

  if (raw == NULL)
    return TRUE;

  value = g_ascii_strtod (raw, &end);
  if (end == raw || *end != '\0' || !isfinite (value))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, the second “seconds, a number > 0” or “… ≥ 0”. */
                                  _("“%s” is not a number; expected %s"), raw, expected);
      return FALSE;
    }

  if (value < 0 || (positive && value == 0) || value > MAX_SECONDS)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                  /* Translators: follows “FILE: [group] key: ”; the first %s is the value
                                   * as typed, the second “seconds, a number > 0” or “… ≥ 0”, %g the
                                   * largest number of seconds allowed. */
                                  _("%s is out of range; expected %s (at most %g)"),
                                  raw, expected, MAX_SECONDS);
      return FALSE;
    }

  *out = value;
  return TRUE;
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

/* ';'-separated error type names; empty names are skipped. */
gboolean
_sluice_scenario_read_error_types (const SluiceScenarioParser  *p,
                                   GKeyFile                    *keyfile,
                                   const char                  *group,
                                   const char                  *key,
                                   GStrv                       *out,
                                   GError                     **error)
{
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, group, key);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;

  if (raw == NULL)
    return TRUE;

  names = g_strsplit (raw, ";", -1);
  for (guint i = 0; names[i] != NULL; i++)
    {
      char *name = g_strstrip (names[i]);

      if (*name == '\0')
        continue;

      if (!sluice_is_error_type_name (name))
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                                      /* Translators: follows “FILE: [group] key: ”; %s is the name as
                                       * typed. Keep “TimeoutError;ValueError” as it is: an example of
                                       * what users type. */
                                      _("“%s” is not an error type; expected ';'-separated type "
                                        "names such as TimeoutError;ValueError (letters, digits "
                                        "and _, not starting with a digit)"), name);
          return FALSE;
        }

      g_strv_builder_add (builder, name);
    }

  g_strfreev (*out);
  *out = g_strv_builder_end (builder);
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
