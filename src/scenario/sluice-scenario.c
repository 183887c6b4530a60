/* sluice-scenario.c: one experiment, loaded from a .pool key file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario.h"

#include <math.h>
#include <string.h>

/**
 * SluiceScenario:
 *
 * One experiment: the pool's options, the source, how the fault-injecting
 * handler behaves for each item and what the caller does. It is read from
 * a `.pool` key file (see `scenario-format.md`), validated as a whole, and
 * builds the clock, pool, source and handler of a run.
 *
 * Every error names the file, the group and key (with the line when it is
 * known, or the `--set` that gave the value) and the expected form.
 */

#define MAX_WORKERS     10000
#define MAX_QUEUE_SIZE  1000000
#define MAX_RETRIES     1000000
#define MAX_COUNT       10000000
#define MAX_SECONDS     1e9

struct _SluiceScenario
{
  GObject            parent_instance;

  char              *name;
  char              *title;
  char              *description;

  gint               workers;
  gint               queue_size;
  double             item_timeout;
  gint               max_retries;
  GStrv              retryable;
  SluiceMetricsMode  metrics;
  gboolean           keep_going;

  GPtrArray         *items;           /* GVariant* */
  gboolean           items_from_values;
  double             interval;
  SluiceSourceFault  fault;
  guint              fault_after;

  SluiceBehaviour   *default_behaviour;
  GHashTable        *item_behaviours; /* gint64* → SluiceBehaviour* */
  GPtrArray         *mix;             /* SluiceMixEntry*, or NULL */
  guint32            seed;
  gboolean           has_seed;

  gint64             stop_after;
  gint64             close_after;     /* 0: never */
  double             cancel_after;    /* < 0: never */
  SluiceClockKind    clock_kind;
};

G_DEFINE_FINAL_TYPE (SluiceScenario, sluice_scenario, G_TYPE_OBJECT)

G_DEFINE_QUARK (sluice-scenario-error-quark, sluice_scenario_error)

/* ---- the parser's context: where a value came from --------------------- */

typedef struct {
  const char *name;       /* the file, as shown to users */
  const char *text;       /* the file's text, for line numbers, or NULL */
  GHashTable *overridden; /* "group\nkey" set by --set */
} Parser;

static guint
find_line (const Parser *p,
           const char   *group,
           const char   *key)
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

static char *
describe_place (const Parser *p,
                const char   *group,
                const char   *key)
{
  g_autofree char *id = g_strdup_printf ("%s\n%s", group, key ? key : "");
  guint line;

  if (key != NULL && p->overridden != NULL && g_hash_table_contains (p->overridden, id))
    return g_strdup_printf ("%s: --set %s.%s", p->name, group, key);

  line = find_line (p, group, key);
  if (key == NULL)
    return line > 0 ? g_strdup_printf ("%s:%u: [%s]", p->name, line, group)
                    : g_strdup_printf ("%s: [%s]", p->name, group);

  return line > 0 ? g_strdup_printf ("%s:%u: [%s] %s", p->name, line, group, key)
                  : g_strdup_printf ("%s: [%s] %s", p->name, group, key);
}

G_GNUC_PRINTF (6, 7)
static void
set_error (const Parser  *p,
           GError       **error,
           gint           code,
           const char    *group,
           const char    *key,
           const char    *format,
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

/* ---- the format: groups and keys --------------------------------------- */

static const char * const scenario_keys[] = { "title", "description", NULL };
static const char * const pool_keys[] = {
  "workers", "queue-size", "item-timeout", "max-retries", "retryable", "metrics", "keep-going", NULL
};
static const char * const source_keys[] = {
  "count", "values", "interval", "raise-after", "cancel-after", "hang-after", NULL
};
static const char * const handler_keys[] = { "default", "mix", "seed", NULL };
static const char * const run_keys[] = {
  "stop-after", "close-after", "cancel-after-seconds", "clock", NULL
};

typedef struct {
  const char         *name;
  const char * const *keys;
} GroupSpec;

static const GroupSpec groups[] = {
  { "scenario", scenario_keys },
  { "pool", pool_keys },
  { "source", source_keys },
  { "handler", handler_keys },
  { "run", run_keys },
};

static const GroupSpec *
lookup_group (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    if (g_str_equal (groups[i].name, name))
      return &groups[i];

  return NULL;
}

/* item.N with N a canonical decimal integer. */
static gboolean
parse_item_key (const char *key,
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

/* title[fr] and description[fr] are translations. */
static gboolean
is_localized_key (const char *key)
{
  const char *bracket = strchr (key, '[');
  g_autofree char *base = NULL;

  if (bracket == NULL || !g_str_has_suffix (key, "]"))
    return FALSE;

  base = g_strndup (key, bracket - key);
  return g_str_equal (base, "title") || g_str_equal (base, "description");
}

static gboolean
check_key (const Parser     *p,
           const GroupSpec  *spec,
           const char       *key,
           GError          **error)
{
  gint64 index;
  g_autofree char *expected = NULL;

  if (g_strv_contains (spec->keys, key))
    return TRUE;

  if (g_str_equal (spec->name, "handler") && parse_item_key (key, &index))
    return TRUE;

  if (g_str_equal (spec->name, "scenario") && is_localized_key (key))
    return TRUE;

  expected = g_strjoinv (", ", (char **) spec->keys);
  set_error (p, error, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY, spec->name, key,
             "unknown key; expected one of: %s%s", expected,
             g_str_equal (spec->name, "handler") ? ", item.N" : "");
  return FALSE;
}

static gboolean
check_groups_and_keys (const Parser  *p,
                       GKeyFile      *keyfile,
                       GError       **error)
{
  g_auto(GStrv) names = g_key_file_get_groups (keyfile, NULL);

  for (guint i = 0; names[i] != NULL; i++)
    {
      const GroupSpec *spec = lookup_group (names[i]);
      g_auto(GStrv) keys = NULL;

      if (spec == NULL)
        {
          set_error (p, error, SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP, names[i], NULL,
                     "unknown group; expected [scenario], [pool], [source], [handler] or [run]");
          return FALSE;
        }

      keys = g_key_file_get_keys (keyfile, names[i], NULL, NULL);
      for (guint j = 0; keys != NULL && keys[j] != NULL; j++)
        if (!check_key (p, spec, keys[j], error))
          return FALSE;
    }

  return TRUE;
}

/* ---- values ------------------------------------------------------------ */

/* The raw value, stripped, or NULL when the key is absent. */
static char *
get_raw (GKeyFile   *keyfile,
         const char *group,
         const char *key)
{
  char *value = g_key_file_get_value (keyfile, group, key, NULL);

  return value ? g_strstrip (value) : NULL;
}

static gboolean
get_int (const Parser  *p,
         GKeyFile      *keyfile,
         const char    *group,
         const char    *key,
         gint64         min,
         gint64         max,
         gint64        *out,
         GError       **error)
{
  g_autofree char *raw = get_raw (keyfile, group, key);
  gint64 value;

  if (raw == NULL)
    return TRUE;

  if (!g_ascii_string_to_signed (raw, 10, G_MININT64, G_MAXINT64, &value, NULL))
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                 "“%s” is not an integer; expected an integer from %" G_GINT64_FORMAT
                 " to %" G_GINT64_FORMAT, raw, min, max);
      return FALSE;
    }

  if (value < min || value > max)
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                 "%s is out of range; expected an integer from %" G_GINT64_FORMAT
                 " to %" G_GINT64_FORMAT, raw, min, max);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

static gboolean
get_seconds (const Parser  *p,
             GKeyFile      *keyfile,
             const char    *group,
             const char    *key,
             gboolean       positive,
             double        *out,
             GError       **error)
{
  g_autofree char *raw = get_raw (keyfile, group, key);
  const char *expected = positive ? "seconds, a number > 0" : "seconds, a number ≥ 0";
  char *end = NULL;
  double value;

  if (raw == NULL)
    return TRUE;

  value = g_ascii_strtod (raw, &end);
  if (end == raw || *end != '\0' || !isfinite (value))
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                 "“%s” is not a number; expected %s", raw, expected);
      return FALSE;
    }

  if (value < 0 || (positive && value == 0) || value > MAX_SECONDS)
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                 "%s is out of range; expected %s (at most %g)", raw, expected, MAX_SECONDS);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

static gboolean
get_bool (const Parser  *p,
          GKeyFile      *keyfile,
          const char    *group,
          const char    *key,
          gboolean      *out,
          GError       **error)
{
  g_autofree char *raw = get_raw (keyfile, group, key);

  if (raw == NULL)
    return TRUE;

  if (g_str_equal (raw, "true"))
    *out = TRUE;
  else if (g_str_equal (raw, "false"))
    *out = FALSE;
  else
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
                 "“%s” is not a boolean; expected true or false", raw);
      return FALSE;
    }

  return TRUE;
}

/* One of @choices; *out is its index. */
static gboolean
get_choice (const Parser        *p,
            GKeyFile            *keyfile,
            const char          *group,
            const char          *key,
            const char * const  *choices,
            guint               *out,
            GError             **error)
{
  g_autofree char *raw = get_raw (keyfile, group, key);
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
  set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, group, key,
             "“%s” is not allowed; expected %s", raw, expected);
  return FALSE;
}

static GVariant *
parse_value_token (const char *token)
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

/* ---- the groups -------------------------------------------------------- */

static gboolean
load_scenario_group (SluiceScenario  *self,
                     GKeyFile        *keyfile)
{
  g_free (self->title);
  self->title = g_key_file_get_locale_string (keyfile, "scenario", "title", NULL, NULL);
  g_free (self->description);
  self->description = g_key_file_get_locale_string (keyfile, "scenario", "description", NULL, NULL);

  return TRUE;
}

static gboolean
require_key (const Parser  *p,
             GKeyFile      *keyfile,
             const char    *group,
             const char    *key,
             const char    *expected,
             GError       **error)
{
  if (g_key_file_has_key (keyfile, group, key, NULL))
    return TRUE;

  {
    g_auto(GStrv) names = g_key_file_get_groups (keyfile, NULL);

    /* Not even one group: say so rather than name one missing key. */
    if (names == NULL || names[0] == NULL)
      {
        g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                     "%s: the file has no scenario in it (empty); expected a key file with "
                     "at least a [pool] group with workers, queue-size and item-timeout", p->name);
        return FALSE;
      }
  }

  set_error (p, error, SLUICE_SCENARIO_ERROR_MISSING_KEY, group, key,
             "missing; this key is required, expected %s", expected);
  return FALSE;
}

static gboolean
load_retryable (SluiceScenario  *self,
                const Parser    *p,
                GKeyFile        *keyfile,
                GError         **error)
{
  g_autofree char *raw = get_raw (keyfile, "pool", "retryable");
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
          set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "pool", "retryable",
                     "“%s” is not an error type; expected ';'-separated type names such as "
                     "TimeoutError;ValueError (letters, digits and _, not starting with a digit)",
                     name);
          return FALSE;
        }

      g_strv_builder_add (builder, name);
    }

  g_strfreev (self->retryable);
  self->retryable = g_strv_builder_end (builder);
  return TRUE;
}

static gboolean
load_pool_group (SluiceScenario  *self,
                 const Parser    *p,
                 GKeyFile        *keyfile,
                 GError         **error)
{
  static const char * const metrics_choices[] = { "off", "on", "broken", NULL };
  gint64 workers = 0, queue_size = 0, max_retries = self->max_retries;
  guint metrics = self->metrics;

  if (!require_key (p, keyfile, "pool", "workers", "a positive integer", error) ||
      !require_key (p, keyfile, "pool", "queue-size", "a positive integer", error) ||
      !require_key (p, keyfile, "pool", "item-timeout", "seconds, a number > 0", error))
    return FALSE;

  if (!get_int (p, keyfile, "pool", "workers", 1, MAX_WORKERS, &workers, error) ||
      !get_int (p, keyfile, "pool", "queue-size", 1, MAX_QUEUE_SIZE, &queue_size, error) ||
      !get_seconds (p, keyfile, "pool", "item-timeout", TRUE, &self->item_timeout, error) ||
      !get_int (p, keyfile, "pool", "max-retries", 0, MAX_RETRIES, &max_retries, error) ||
      !load_retryable (self, p, keyfile, error) ||
      !get_choice (p, keyfile, "pool", "metrics", metrics_choices, &metrics, error) ||
      !get_bool (p, keyfile, "pool", "keep-going", &self->keep_going, error))
    return FALSE;

  self->workers = (gint) workers;
  self->queue_size = (gint) queue_size;
  self->max_retries = (gint) max_retries;
  self->metrics = (SluiceMetricsMode) metrics;

  return TRUE;
}

static gboolean
load_values (SluiceScenario  *self,
             const Parser    *p,
             GKeyFile        *keyfile,
             GError         **error)
{
  g_autofree char *text = g_key_file_get_string (keyfile, "source", "values", NULL);
  g_auto(GStrv) tokens = NULL;
  guint n;

  if (text == NULL)
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "source", "values",
                 "the value has a bad escape; expected ';'-separated items such as 3;1;4;\"a\"");
      return FALSE;
    }

  tokens = g_strsplit (text, ";", -1);
  n = g_strv_length (tokens);

  for (guint i = 0; i < n; i++)
    {
      char *token = g_strstrip (tokens[i]);

      /* "values=" is an empty source, and one trailing ';' is allowed. */
      if (*token == '\0' && i == n - 1)
        break;

      if (*token == '\0')
        {
          set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "source", "values",
                     "item %u is empty; expected ';'-separated items such as 3;1;4;\"a\"", i + 1);
          return FALSE;
        }

      g_ptr_array_add (self->items, parse_value_token (token));
    }

  self->items_from_values = TRUE;
  return TRUE;
}

static gboolean
load_source_fault (SluiceScenario  *self,
                   const Parser    *p,
                   GKeyFile        *keyfile,
                   GError         **error)
{
  static const struct { const char *key; SluiceSourceFault fault; } faults[] = {
    { "raise-after", SLUICE_SOURCE_FAULT_RAISE },
    { "cancel-after", SLUICE_SOURCE_FAULT_CANCEL },
    { "hang-after", SLUICE_SOURCE_FAULT_HANG },
  };
  const char *first = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    {
      gint64 after = -1;

      if (!get_int (p, keyfile, "source", faults[i].key, 0, G_MAXINT, &after, error))
        return FALSE;
      if (after < 0)
        continue;

      if (first != NULL)
        {
          set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "source", faults[i].key,
                     "the source already has %s; expected at most one of raise-after, "
                     "cancel-after, hang-after", first);
          return FALSE;
        }

      first = faults[i].key;
      self->fault = faults[i].fault;
      self->fault_after = (guint) after;
    }

  return TRUE;
}

static gboolean
load_source_group (SluiceScenario  *self,
                   const Parser    *p,
                   GKeyFile        *keyfile,
                   GError         **error)
{
  gboolean has_count = g_key_file_has_key (keyfile, "source", "count", NULL);
  gboolean has_values = g_key_file_has_key (keyfile, "source", "values", NULL);
  gint64 count = 0;

  if (has_count && has_values)
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "source", "values",
                 "the source already has count; expected either count or values, not both");
      return FALSE;
    }

  if (!get_int (p, keyfile, "source", "count", 0, MAX_COUNT, &count, error))
    return FALSE;

  for (gint64 n = 0; n < count; n++)
    g_ptr_array_add (self->items, g_variant_ref_sink (g_variant_new_int64 (n)));

  if (has_values && !load_values (self, p, keyfile, error))
    return FALSE;

  return get_seconds (p, keyfile, "source", "interval", FALSE, &self->interval, error) &&
         load_source_fault (self, p, keyfile, error);
}

static SluiceBehaviour *
get_behaviour (const Parser  *p,
               GKeyFile      *keyfile,
               const char    *key,
               GError       **error)
{
  g_autofree char *raw = get_raw (keyfile, "handler", key);
  g_autoptr(GError) local_error = NULL;
  SluiceBehaviour *behaviour;

  behaviour = sluice_behaviour_parse (raw, &local_error);
  if (behaviour == NULL)
    set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "handler", key,
               "%s", local_error->message);

  return behaviour;
}

static gboolean
load_item_behaviours (SluiceScenario  *self,
                      const Parser    *p,
                      GKeyFile        *keyfile,
                      GError         **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "handler", NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      SluiceBehaviour *behaviour;
      gint64 index;

      if (!parse_item_key (keys[i], &index))
        continue;

      if (index >= (gint64) self->items->len)
        {
          set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "handler", keys[i],
                     "the source has no item %" G_GINT64_FORMAT "; expected item.N with "
                     "N from 0 to %d (the source has %u items)",
                     index, (gint) self->items->len - 1, self->items->len);
          return FALSE;
        }

      behaviour = get_behaviour (p, keyfile, keys[i], error);
      if (behaviour == NULL)
        return FALSE;

      g_hash_table_replace (self->item_behaviours, g_memdup2 (&index, sizeof index), behaviour);
    }

  return TRUE;
}

static gboolean
load_mix (SluiceScenario  *self,
          const Parser    *p,
          GKeyFile        *keyfile,
          GError         **error)
{
  g_autofree char *raw = get_raw (keyfile, "handler", "mix");
  g_autoptr(GError) local_error = NULL;
  gint64 seed = -1;

  if (!get_int (p, keyfile, "handler", "seed", 0, G_MAXUINT32, &seed, error))
    return FALSE;
  self->has_seed = seed >= 0;
  self->seed = self->has_seed ? (guint32) seed : 0;

  if (raw == NULL || *raw == '\0')
    return TRUE;

  self->mix = sluice_mix_parse (raw, &local_error);
  if (self->mix == NULL)
    {
      set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "handler", "mix",
                 "%s", local_error->message);
      return FALSE;
    }

  return TRUE;
}

static gboolean
load_handler_group (SluiceScenario  *self,
                    const Parser    *p,
                    GKeyFile        *keyfile,
                    GError         **error)
{
  if (g_key_file_has_key (keyfile, "handler", "default", NULL))
    {
      SluiceBehaviour *behaviour = get_behaviour (p, keyfile, "default", error);

      if (behaviour == NULL)
        return FALSE;

      sluice_behaviour_free (self->default_behaviour);
      self->default_behaviour = behaviour;
    }

  return load_item_behaviours (self, p, keyfile, error) &&
         load_mix (self, p, keyfile, error);
}

static gboolean
load_run_group (SluiceScenario  *self,
                const Parser    *p,
                GKeyFile        *keyfile,
                GError         **error)
{
  static const char * const clock_choices[] = { "real", "virtual", NULL };
  guint clock = self->clock_kind == SLUICE_CLOCK_VIRTUAL ? 1 : 0;

  if (!get_int (p, keyfile, "run", "stop-after", -1, G_MAXINT, &self->stop_after, error) ||
      !get_int (p, keyfile, "run", "close-after", 1, G_MAXINT, &self->close_after, error) ||
      !get_seconds (p, keyfile, "run", "cancel-after-seconds", FALSE, &self->cancel_after, error) ||
      !get_choice (p, keyfile, "run", "clock", clock_choices, &clock, error))
    return FALSE;

  self->clock_kind = clock == 1 ? SLUICE_CLOCK_VIRTUAL : SLUICE_CLOCK_REAL;
  return TRUE;
}

/* block and thread spend real time: a virtual clock cannot run them. */
static gboolean
check_real_time (SluiceScenario  *self,
                 const Parser    *p,
                 GError         **error)
{
  const char *key = NULL;
  g_autofree char *item_key = NULL;
  GHashTableIter iter;
  gpointer index, behaviour;

  if (self->clock_kind != SLUICE_CLOCK_VIRTUAL)
    return TRUE;

  if (sluice_behaviour_needs_real_time (self->default_behaviour))
    key = "default";

  g_hash_table_iter_init (&iter, self->item_behaviours);
  while (key == NULL && g_hash_table_iter_next (&iter, &index, &behaviour))
    if (sluice_behaviour_needs_real_time (behaviour))
      key = item_key = g_strdup_printf ("item.%" G_GINT64_FORMAT, *(gint64 *) index);

  for (guint i = 0; key == NULL && self->mix != NULL && i < self->mix->len; i++)
    if (sluice_behaviour_needs_real_time (((SluiceMixEntry *) g_ptr_array_index (self->mix, i))->behaviour))
      key = "mix";

  if (key == NULL)
    return TRUE;

  set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "handler", key,
             "block and thread need real time; expected [run] clock=real with them "
             "(or another behaviour with clock=virtual)");
  return FALSE;
}

static gboolean
load_keyfile (SluiceScenario  *self,
              const Parser    *p,
              GKeyFile        *keyfile,
              GError         **error)
{
  return check_groups_and_keys (p, keyfile, error) &&
         load_scenario_group (self, keyfile) &&
         load_pool_group (self, p, keyfile, error) &&
         load_source_group (self, p, keyfile, error) &&
         load_handler_group (self, p, keyfile, error) &&
         load_run_group (self, p, keyfile, error) &&
         check_real_time (self, p, error);
}

/* ---- overrides --------------------------------------------------------- */

static gboolean
apply_overrides (GKeyFile            *keyfile,
                 const char * const  *overrides,
                 GHashTable          *overridden,
                 GError             **error)
{
  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++)
    {
      const char *text = overrides[i];
      const char *dot = strchr (text, '.');
      const char *eq = strchr (text, '=');
      g_autofree char *group = NULL;
      g_autofree char *key = NULL;
      g_autofree char *value = NULL;

      if (dot == NULL || eq == NULL || dot > eq || dot == text || eq == dot + 1)
        {
          g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_BAD_OVERRIDE,
                       "--set “%s”: expected group.key=value, such as pool.workers=8", text);
          return FALSE;
        }

      group = g_strndup (text, dot - text);
      key = g_strstrip (g_strndup (dot + 1, eq - dot - 1));
      value = g_strstrip (g_strdup (eq + 1));

      g_key_file_set_value (keyfile, group, key, value);
      g_hash_table_add (overridden, g_strdup_printf ("%s\n%s", group, key));
    }

  return TRUE;
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_scenario_finalize (GObject *object)
{
  SluiceScenario *self = SLUICE_SCENARIO (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->retryable, g_strfreev);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_clear_pointer (&self->default_behaviour, sluice_behaviour_free);
  g_clear_pointer (&self->item_behaviours, g_hash_table_unref);
  g_clear_pointer (&self->mix, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_scenario_parent_class)->finalize (object);
}

static void
sluice_scenario_class_init (SluiceScenarioClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_scenario_finalize;
}

static void
sluice_scenario_init (SluiceScenario *self)
{
  self->name = g_strdup ("(scenario)");
  self->workers = 3;
  self->queue_size = 3;
  self->item_timeout = 1.0;
  self->retryable = g_new0 (char *, 1);
  self->metrics = SLUICE_METRICS_OFF;
  self->items = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->default_behaviour = sluice_behaviour_new (SLUICE_BEHAVIOUR_OK, 0);
  self->item_behaviours = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                 g_free, (GDestroyNotify) sluice_behaviour_free);
  self->stop_after = -1;
  self->cancel_after = -1;
  self->clock_kind = SLUICE_CLOCK_REAL;
}

/* ---- loading ----------------------------------------------------------- */

/**
 * sluice_scenario_new:
 *
 * Creates the default scenario: 3 workers, a queue of 3, a timeout of one
 * second, an empty source and a handler that succeeds at once.
 *
 * Returns: (transfer full): a new #SluiceScenario
 */
SluiceScenario *
sluice_scenario_new (void)
{
  return g_object_new (SLUICE_TYPE_SCENARIO, NULL);
}

static SluiceScenario *
new_from_parser (GKeyFile            *keyfile,
                 Parser              *p,
                 const char * const  *overrides,
                 GError             **error)
{
  g_autoptr(SluiceScenario) self = sluice_scenario_new ();
  g_autoptr(GHashTable) overridden = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_free (self->name);
  self->name = g_strdup (p->name);
  p->overridden = overridden;

  if (!apply_overrides (keyfile, overrides, overridden, error) ||
      !load_keyfile (self, p, keyfile, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sluice_scenario_new_from_keyfile:
 * @keyfile: a loaded key file (modified by @overrides)
 * @name: (nullable): how error messages name the scenario
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Validates a scenario held in a #GKeyFile.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_keyfile (GKeyFile            *keyfile,
                                  const char          *name,
                                  const char * const  *overrides,
                                  GError             **error)
{
  Parser p = { name ? name : "(scenario)", NULL, NULL };

  g_return_val_if_fail (keyfile != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return new_from_parser (keyfile, &p, overrides, error);
}

static gboolean
check_text (const char  *name,
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
                   "%s:%u: not a text file (binary data or invalid UTF-8); expected a "
                   "scenario key file in UTF-8 with [group] headers and key=value lines",
                   name, line);
      return FALSE;
    }

  return TRUE;
}

/**
 * sluice_scenario_new_from_data:
 * @data: (array length=length): the text of a `.pool` file
 * @length: the length of @data, or -1 if it is nul-terminated
 * @name: (nullable): how error messages name the scenario (the file name)
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Parses and validates a scenario.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_data (const char          *data,
                               gssize               length,
                               const char          *name,
                               const char * const  *overrides,
                               GError             **error)
{
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = NULL;
  Parser p = { name ? name : "(scenario)", NULL, NULL };
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  len = length < 0 ? strlen (data) : (gsize) length;
  if (!check_text (p.name, data ? data : "", len, error))
    return NULL;

  text = g_strndup (data ? data : "", len);
  p.text = text;

  if (!g_key_file_load_from_data (keyfile, text, len, G_KEY_FILE_NONE, &local_error))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                   "%s: %s; expected [group] headers, key=value lines and # comments on "
                   "their own line", p.name, local_error->message);
      return NULL;
    }

  return new_from_parser (keyfile, &p, overrides, error);
}

/**
 * sluice_scenario_new_from_bytes:
 * @bytes: the contents of a `.pool` file
 * @name: (nullable): how error messages name the scenario
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Like sluice_scenario_new_from_data(), for a #GBytes (such as a resource).
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_bytes (GBytes              *bytes,
                                const char          *name,
                                const char * const  *overrides,
                                GError             **error)
{
  gsize length = 0;
  const char *data;

  g_return_val_if_fail (bytes != NULL, NULL);

  data = g_bytes_get_data (bytes, &length);
  return sluice_scenario_new_from_data (data ? data : "", (gssize) length, name, overrides, error);
}

/**
 * sluice_scenario_new_from_file:
 * @path: a `.pool` file
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Reads, parses and validates a scenario file. Messages name the file by
 * @path.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_file (const char          *path,
                               const char * const  *overrides,
                               GError             **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_file_get_contents (path, &data, &length, &local_error))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   "%s: cannot read the scenario: %s", path, local_error->message);
      return NULL;
    }

  return sluice_scenario_new_from_data (data, (gssize) length, path, overrides, error);
}

/* ---- saving ------------------------------------------------------------ */

static void
set_double (GKeyFile   *keyfile,
            const char *group,
            const char *key,
            double      value)
{
  g_autofree char *text = sluice_format_double (value);

  g_key_file_set_value (keyfile, group, key, text);
}

static char *
format_item (GVariant *item)
{
  if (g_variant_is_of_type (item, G_VARIANT_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (item));

  if (g_variant_is_of_type (item, G_VARIANT_TYPE_STRING))
    return g_strdup_printf ("\"%s\"", g_variant_get_string (item, NULL));

  return g_variant_print (item, FALSE);
}

static void
save_source (SluiceScenario *self,
             GKeyFile       *keyfile)
{
  static const char * const fault_keys[] = { NULL, "raise-after", "cancel-after", "hang-after" };
  gboolean is_range = !self->items_from_values;

  for (guint i = 0; is_range && i < self->items->len; i++)
    {
      GVariant *item = g_ptr_array_index (self->items, i);
      is_range = g_variant_is_of_type (item, G_VARIANT_TYPE_INT64) && g_variant_get_int64 (item) == i;
    }

  if (is_range)
    g_key_file_set_integer (keyfile, "source", "count", (gint) self->items->len);
  else
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) tokens = NULL;
      g_autofree char *values = NULL;

      for (guint i = 0; i < self->items->len; i++)
        {
          g_autofree char *token = format_item (g_ptr_array_index (self->items, i));
          g_strv_builder_add (builder, token);
        }
      tokens = g_strv_builder_end (builder);
      values = g_strjoinv (";", tokens);
      g_key_file_set_value (keyfile, "source", "values", values);
    }

  set_double (keyfile, "source", "interval", self->interval);
  if (self->fault != SLUICE_SOURCE_FAULT_NONE)
    g_key_file_set_integer (keyfile, "source", fault_keys[self->fault], (gint) self->fault_after);
}

/* The keys of @table (gint64*), borrowed. */
static GPtrArray *
index_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);

  return keys;
}

static gint
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = **(gint64 **) a, y = **(gint64 **) b;

  return x < y ? -1 : x > y;
}

static void
save_handler (SluiceScenario *self,
              GKeyFile       *keyfile)
{
  g_autofree char *text = sluice_behaviour_to_string (self->default_behaviour);
  g_autoptr(GPtrArray) indexes = index_keys (self->item_behaviours);

  g_key_file_set_value (keyfile, "handler", "default", text);

  g_ptr_array_sort (indexes, compare_int64);
  for (guint i = 0; i < indexes->len; i++)
    {
      gint64 *index = g_ptr_array_index (indexes, i);
      g_autofree char *key = g_strdup_printf ("item.%" G_GINT64_FORMAT, *index);
      g_autofree char *value = sluice_behaviour_to_string (g_hash_table_lookup (self->item_behaviours, index));

      g_key_file_set_value (keyfile, "handler", key, value);
    }

  if (self->mix != NULL)
    {
      g_autofree char *mix = sluice_mix_to_string (self->mix);
      g_key_file_set_value (keyfile, "handler", "mix", mix);
    }

  if (self->has_seed)
    {
      g_autofree char *seed = g_strdup_printf ("%u", self->seed);
      g_key_file_set_value (keyfile, "handler", "seed", seed);
    }
}

/**
 * sluice_scenario_to_keyfile:
 * @self: a #SluiceScenario
 *
 * Writes every setting of @self, defaults included, into a new key file
 * that sluice_scenario_new_from_keyfile() reads back as the same scenario.
 *
 * Returns: (transfer full): the key file
 */
GKeyFile *
sluice_scenario_to_keyfile (SluiceScenario *self)
{
  static const char * const metrics[] = { "off", "on", "broken" };
  GKeyFile *keyfile;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);

  keyfile = g_key_file_new ();

  if (self->title != NULL)
    g_key_file_set_string (keyfile, "scenario", "title", self->title);
  if (self->description != NULL)
    g_key_file_set_string (keyfile, "scenario", "description", self->description);

  g_key_file_set_integer (keyfile, "pool", "workers", self->workers);
  g_key_file_set_integer (keyfile, "pool", "queue-size", self->queue_size);
  set_double (keyfile, "pool", "item-timeout", self->item_timeout);
  g_key_file_set_integer (keyfile, "pool", "max-retries", self->max_retries);
  {
    g_autofree char *retryable = g_strjoinv (";", self->retryable);
    g_key_file_set_value (keyfile, "pool", "retryable", retryable);
  }
  g_key_file_set_value (keyfile, "pool", "metrics", metrics[self->metrics]);
  g_key_file_set_value (keyfile, "pool", "keep-going", self->keep_going ? "true" : "false");

  save_source (self, keyfile);
  save_handler (self, keyfile);

  g_key_file_set_int64 (keyfile, "run", "stop-after", self->stop_after);
  if (self->close_after > 0)
    g_key_file_set_int64 (keyfile, "run", "close-after", self->close_after);
  if (self->cancel_after >= 0)
    set_double (keyfile, "run", "cancel-after-seconds", self->cancel_after);
  g_key_file_set_value (keyfile, "run", "clock",
                        self->clock_kind == SLUICE_CLOCK_VIRTUAL ? "virtual" : "real");

  return keyfile;
}

/**
 * sluice_scenario_to_data:
 * @self: a #SluiceScenario
 * @length: (out) (optional): the length of the text
 *
 * Returns: (transfer full): @self as the text of a `.pool` file
 */
char *
sluice_scenario_to_data (SluiceScenario *self,
                         gsize          *length)
{
  g_autoptr(GKeyFile) keyfile = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);

  keyfile = sluice_scenario_to_keyfile (self);
  return g_key_file_to_data (keyfile, length, NULL);
}

/**
 * sluice_scenario_save_to_file:
 * @self: a #SluiceScenario
 * @path: where to write
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Writes @self as a `.pool` file.
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_scenario_save_to_file (SluiceScenario  *self,
                              const char      *path,
                              GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  data = sluice_scenario_to_data (self, &length);
  if (!g_file_set_contents (path, data, (gssize) length, &local_error))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   "%s: cannot write the scenario: %s", path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

/* ---- getters ----------------------------------------------------------- */

/**
 * sluice_scenario_get_name:
 * @self: a #SluiceScenario
 *
 * Returns: how messages name the scenario, usually its file
 */
const char *
sluice_scenario_get_name (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->name;
}

/**
 * sluice_scenario_get_title:
 * @self: a #SluiceScenario
 *
 * Returns: (nullable): the `[scenario] title`
 */
const char *
sluice_scenario_get_title (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->title;
}

/**
 * sluice_scenario_get_description:
 * @self: a #SluiceScenario
 *
 * Returns: (nullable): the `[scenario] description`
 */
const char *
sluice_scenario_get_description (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->description;
}

/**
 * sluice_scenario_get_workers:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] workers`
 */
gint
sluice_scenario_get_workers (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->workers;
}

/**
 * sluice_scenario_get_queue_size:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] queue-size`
 */
gint
sluice_scenario_get_queue_size (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->queue_size;
}

/**
 * sluice_scenario_get_item_timeout:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] item-timeout`, in seconds
 */
double
sluice_scenario_get_item_timeout (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->item_timeout;
}

/**
 * sluice_scenario_get_max_retries:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] max-retries`
 */
gint
sluice_scenario_get_max_retries (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->max_retries;
}

/**
 * sluice_scenario_get_retryable:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer none) (array zero-terminated=1): the retryable error
 *   type names
 */
const char * const *
sluice_scenario_get_retryable (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return (const char * const *) self->retryable;
}

/**
 * sluice_scenario_get_metrics:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] metrics`
 */
SluiceMetricsMode
sluice_scenario_get_metrics (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_METRICS_OFF);
  return self->metrics;
}

/**
 * sluice_scenario_get_keep_going:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] keep-going`
 */
gboolean
sluice_scenario_get_keep_going (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), FALSE);
  return self->keep_going;
}

/**
 * sluice_scenario_get_items:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer none) (element-type GVariant): the source's items
 */
GPtrArray *
sluice_scenario_get_items (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->items;
}

/**
 * sluice_scenario_get_interval:
 * @self: a #SluiceScenario
 *
 * Returns: `[source] interval`, in seconds
 */
double
sluice_scenario_get_interval (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->interval;
}

/**
 * sluice_scenario_get_source_fault:
 * @self: a #SluiceScenario
 * @after: (out) (optional): N, the items yielded before the fault
 *
 * Returns: the source's fault
 */
SluiceSourceFault
sluice_scenario_get_source_fault (SluiceScenario *self,
                                  guint          *after)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_SOURCE_FAULT_NONE);

  if (after != NULL)
    *after = self->fault_after;
  return self->fault;
}

/**
 * sluice_scenario_get_default_behaviour:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer none): `[handler] default`
 */
const SluiceBehaviour *
sluice_scenario_get_default_behaviour (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->default_behaviour;
}

/**
 * sluice_scenario_get_item_behaviour:
 * @self: a #SluiceScenario
 * @item_index: an item index
 *
 * Returns: (transfer none) (nullable): `[handler] item.N`, if set
 */
const SluiceBehaviour *
sluice_scenario_get_item_behaviour (SluiceScenario *self,
                                    gint64          item_index)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return g_hash_table_lookup (self->item_behaviours, &item_index);
}

/**
 * sluice_scenario_get_mix:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer none) (nullable) (element-type SluiceMixEntry):
 *   `[handler] mix`, if set
 */
GPtrArray *
sluice_scenario_get_mix (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return self->mix;
}

/**
 * sluice_scenario_get_seed:
 * @self: a #SluiceScenario
 *
 * Returns: `[handler] seed` (0 when unset)
 */
guint32
sluice_scenario_get_seed (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->seed;
}

/**
 * sluice_scenario_get_stop_after:
 * @self: a #SluiceScenario
 *
 * Returns: `[run] stop-after`: -1 never, 0 before iterating, K after K
 *   results
 */
gint64
sluice_scenario_get_stop_after (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), -1);
  return self->stop_after;
}

/**
 * sluice_scenario_get_close_after:
 * @self: a #SluiceScenario
 *
 * Returns: `[run] close-after`, or 0 when the caller never closes the run
 */
gint64
sluice_scenario_get_close_after (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->close_after;
}

/**
 * sluice_scenario_get_cancel_after:
 * @self: a #SluiceScenario
 *
 * Returns: `[run] cancel-after-seconds`, or a negative number when the
 *   caller never cancels the run
 */
double
sluice_scenario_get_cancel_after (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), -1);
  return self->cancel_after;
}

/**
 * sluice_scenario_get_clock_kind:
 * @self: a #SluiceScenario
 *
 * Returns: `[run] clock`
 */
SluiceClockKind
sluice_scenario_get_clock_kind (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_CLOCK_REAL);
  return self->clock_kind;
}

/* ---- building a run ---------------------------------------------------- */

/**
 * sluice_scenario_create_clock:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer full): a new clock of the scenario's kind, on the
 *   thread-default main context
 */
SluiceClock *
sluice_scenario_create_clock (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return sluice_clock_new (self->clock_kind);
}

/**
 * sluice_scenario_create_handler:
 * @self: a #SluiceScenario
 * @clock: the pool's clock
 *
 * Returns: (transfer full): the fault-injecting handler the scenario
 *   describes
 */
SluiceFaultHandler *
sluice_scenario_create_handler (SluiceScenario *self,
                                SluiceClock    *clock)
{
  SluiceFaultHandler *handler;
  GHashTableIter iter;
  gpointer index, behaviour;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);

  handler = sluice_fault_handler_new (clock, self->default_behaviour);

  g_hash_table_iter_init (&iter, self->item_behaviours);
  while (g_hash_table_iter_next (&iter, &index, &behaviour))
    sluice_fault_handler_set_item_behaviour (handler, *(gint64 *) index, behaviour);

  sluice_fault_handler_set_mix (handler, self->mix, self->seed);

  return handler;
}

/**
 * sluice_scenario_create_source:
 * @self: a #SluiceScenario
 * @clock: the pool's clock
 *
 * Returns: (transfer full): the source the scenario describes
 */
SluiceFaultSource *
sluice_scenario_create_source (SluiceScenario *self,
                               SluiceClock    *clock)
{
  SluiceFaultSource *source;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);

  source = sluice_fault_source_new (clock, self->items, self->interval);
  sluice_fault_source_set_fault (source, self->fault, self->fault_after);

  return source;
}

/**
 * sluice_scenario_create_pool:
 * @self: a #SluiceScenario
 * @handler: the handler, usually from sluice_scenario_create_handler()
 * @clock: the clock
 * @error: return location for an error
 *
 * Builds a pool with the scenario's options. No metrics callback is set.
 *
 * Returns: (transfer full) (nullable): the pool, or %NULL if the pool
 *   refused an option
 */
SluicePool *
sluice_scenario_create_pool (SluiceScenario  *self,
                             SluiceHandler   *handler,
                             SluiceClock     *clock,
                             GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (SLUICE_IS_HANDLER (handler), NULL);
  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);

  return g_initable_new (SLUICE_TYPE_POOL, NULL, error,
                         "handler", handler,
                         "clock", clock,
                         "workers", self->workers,
                         "queue-size", self->queue_size,
                         "item-timeout", self->item_timeout,
                         "max-retries", self->max_retries,
                         "keep-going", self->keep_going,
                         "retryable", self->retryable,
                         NULL);
}
