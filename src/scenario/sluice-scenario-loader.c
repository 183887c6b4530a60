/* sluice-scenario-loader.c: a scenario from a .pool key file, with its
 * `--set` overrides, validated group by group
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_WORKERS     10000
#define MAX_QUEUE_SIZE  1000000
#define MAX_RETRIES     1000000
#define MAX_COUNT       10000000

typedef SluiceScenarioParser Parser;

/* ---- the format: groups and keys --------------------------------------- */

static const char * const scenario_keys[] = { "title", "description", NULL };
static const char * const pool_keys[] = {
  "workers", "queue-size", "item-timeout", "max-retries", "retryable", "metrics", "keep-going",
  "fatal", "shutdown-timeout", NULL
};
static const char * const source_keys[] = {
  "count", "values", "interval", "raise-after", "cancel-after", "hang-after", NULL
};
static const char * const handler_keys[] = { "default", "mix", "seed", NULL };
static const char * const run_keys[] = {
  "stop-after", "close-after", "cancel-after-seconds", "clock", "mode", NULL
};
/* [submit] (submit-and-shutdown.md), and give-up.N; in stream mode only
 * snapshot-at. */
static const char * const submit_keys[] = { "snapshot-at", "give-up-after", "close-after-seconds", NULL };

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
  { "retry", _sluice_scenario_retry_keys }, /* shared with the writer */
  { "submit", submit_keys },
};

static const GroupSpec *
lookup_group (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    if (g_str_equal (groups[i].name, name))
      return &groups[i];

  return NULL;
}

/* title[fr] and description[fr] are translations. */
static gboolean
is_localized_key (const char *key)
{
  const char *bracket = strchr (key, '[');
  g_autofree char *base = NULL;

  if (bracket == NULL || bracket[1] == ']' || !g_str_has_suffix (key, "]"))
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

  if (g_str_equal (spec->name, "handler") && _sluice_scenario_parse_item_key (key, &index))
    return TRUE;

  if (g_str_equal (spec->name, "submit") && _sluice_scenario_parse_index_key (key, "give-up.", &index))
    return TRUE;

  if (g_str_equal (spec->name, "scenario") && is_localized_key (key))
    return TRUE;

  expected = g_strjoinv (", ", (char **) spec->keys);
  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY, spec->name, key,
                              /* Translators: follows “FILE: [group] key: ”; %s%s is the list of the
                               * group's keys, such as “default, mix, seed, item.N”: keep it as it is. */
                              _("unknown key; expected one of: %s%s"), expected,
                              g_str_equal (spec->name, "handler") ? ", item.N" :
                              g_str_equal (spec->name, "submit") ? ", give-up.N" : "");
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
          g_autoptr(GString) expected = g_string_new (NULL);

          for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
            g_string_append_printf (expected, "%s[%s]", g > 0 ? ", " : "", groups[g].name);
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP, names[i], NULL,
                                      /* Translators: follows “FILE: [group]: ”; %s is the list of the
                                       * groups, such as “[scenario], [pool], [run]”: keep it as it is. */
                                      _("unknown group; expected one of: %s"), expected->str);
          return FALSE;
        }

      keys = g_key_file_get_keys (keyfile, names[i], NULL, NULL);
      for (guint j = 0; keys != NULL && keys[j] != NULL; j++)
        if (!check_key (p, spec, keys[j], error))
          return FALSE;
    }

  return TRUE;
}

/* ---- the groups -------------------------------------------------------- */

static gboolean
load_scenario_group (SluiceScenario  *self,
                     const Parser    *p,
                     GKeyFile        *keyfile,
                     GError         **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "scenario", NULL, NULL);

  /* Every title[LANG] and description[LANG], whichever the locale picks. */
  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    if (!_sluice_scenario_check_escapes (p, keyfile, "scenario", keys[i], error))
      return FALSE;

  g_free (self->title);
  self->title = g_key_file_get_locale_string (keyfile, "scenario", "title", NULL, NULL);
  g_free (self->description);
  self->description = g_key_file_get_locale_string (keyfile, "scenario", "description", NULL, NULL);
  _sluice_scenario_keep_texts (self, keyfile);

  return TRUE;
}

static gboolean
load_pool_group (SluiceScenario  *self,
                 const Parser    *p,
                 GKeyFile        *keyfile,
                 GError         **error)
{
  gint64 workers = 0, queue_size = 0, max_retries = self->max_retries;
  guint metrics = self->metrics;

  if (!_sluice_scenario_require_key (p, keyfile, "pool", "workers", _("a positive integer"), error) ||
      !_sluice_scenario_require_key (p, keyfile, "pool", "queue-size", _("a positive integer"), error) ||
      !_sluice_scenario_require_key (p, keyfile, "pool", "item-timeout", _("seconds, a number > 0"), error))
    return FALSE;

  if (!_sluice_scenario_read_int (p, keyfile, "pool", "workers", 1, MAX_WORKERS, &workers, error) ||
      !_sluice_scenario_read_int (p, keyfile, "pool", "queue-size", 1, MAX_QUEUE_SIZE, &queue_size, error) ||
      !_sluice_scenario_read_seconds (p, keyfile, "pool", "item-timeout", TRUE, &self->item_timeout, error) ||
      !_sluice_scenario_read_int (p, keyfile, "pool", "max-retries", 0, MAX_RETRIES, &max_retries, error) ||
      !_sluice_scenario_read_error_types (p, keyfile, "pool", "retryable", &self->retryable, error) ||
      !_sluice_scenario_read_choice (p, keyfile, "pool", "metrics", _sluice_scenario_metrics_names,
                                     &metrics, error) ||
      !_sluice_scenario_read_bool (p, keyfile, "pool", "keep-going", &self->keep_going, error) ||
      !_sluice_scenario_read_error_types (p, keyfile, "pool", "fatal", &self->fatal, error) ||
      !_sluice_scenario_read_number (p, keyfile, "pool", "shutdown-timeout", SLUICE_NUMBER_SECONDS_OR_NONE,
                                     SLUICE_SCENARIO_MAX_SECONDS, &self->shutdown_timeout, error))
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
  g_autofree char *text = _sluice_scenario_read_string (p, keyfile, "source", "values", error);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  g_auto(GStrv) tokens = NULL;

  /* "values=" is an empty source, and one trailing ';' is allowed. */
  if (text == NULL ||
      !_sluice_scenario_split_list (p, "source", "values", text, SLUICE_LIST_ITEMS, &tokens, error))
    return FALSE;

  for (guint i = 0; tokens[i] != NULL; i++)
    g_ptr_array_add (values, _sluice_scenario_parse_value (tokens[i]));

  g_clear_pointer (&self->values, g_ptr_array_unref);
  self->values = g_steal_pointer (&values);
  return TRUE;
}

static gboolean
load_source_fault (SluiceScenario  *self,
                   const Parser    *p,
                   GKeyFile        *keyfile,
                   GError         **error)
{
  const char *first = NULL;

  for (SluiceSourceFault fault = SLUICE_SOURCE_FAULT_RAISE; fault <= SLUICE_SOURCE_FAULT_HANG; fault++)
    {
      const char *key = _sluice_scenario_fault_keys[fault];
      gint64 after = -1;

      if (!_sluice_scenario_read_int (p, keyfile, "source", key, 0, G_MAXINT, &after, error))
        return FALSE;
      if (after < 0)
        continue;

      if (first != NULL)
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "source", key,
                                      /* Translators: follows “FILE: [source] key: ”; %s is one of the
                                       * keys raise-after, cancel-after, hang-after: keep those as they are. */
                                      _("the source already has %s; expected at most one of "
                                        "raise-after, cancel-after, hang-after"), first);
          return FALSE;
        }

      first = key;
      self->fault = fault;
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
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "source", "values",
                                  /* Translators: follows “FILE: [source] values: ”. Keep the keys
                                   * “count” and “values” as they are. */
                                  _("the source already has count; expected either count or "
                                    "values, not both"));
      return FALSE;
    }

  /* A range is made as it is pulled: count=10000000 costs nothing here. */
  if (!_sluice_scenario_read_int (p, keyfile, "source", "count", 0, MAX_COUNT, &count, error))
    return FALSE;
  self->count = (guint) count;

  if (has_values && !load_values (self, p, keyfile, error))
    return FALSE;

  return _sluice_scenario_read_seconds (p, keyfile, "source", "interval", FALSE, &self->interval, error) &&
         load_source_fault (self, p, keyfile, error);
}

static gboolean
load_item_behaviours (SluiceScenario  *self,
                      const Parser    *p,
                      GKeyFile        *keyfile,
                      GError         **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "handler", NULL, NULL);
  guint n_items = sluice_scenario_get_n_items (self);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      SluiceBehaviour *behaviour;
      gint64 index;

      if (!_sluice_scenario_parse_item_key (keys[i], &index))
        continue;

      if (index >= (gint64) n_items)
        {
          _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "handler", keys[i],
                                      /* Translators: follows “FILE: [handler] item.N: ”; keep “item.N”.
                                       * %lld is the item asked for, %d the last and %u the number of items. */
                                      _("the source has no item %lld; expected item.N with "
                                        "N from 0 to %d (the source has %u items)"),
                                      (long long) index, (gint) n_items - 1, n_items);
          return FALSE;
        }

      behaviour = _sluice_scenario_read_behaviour (p, keyfile, keys[i], error);
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
  g_autofree char *raw = _sluice_scenario_read_raw (keyfile, "handler", "mix");
  g_autoptr(GError) local_error = NULL;
  gint64 seed = -1;

  if (!_sluice_scenario_read_int (p, keyfile, "handler", "seed", 0, G_MAXUINT32, &seed, error))
    return FALSE;
  self->has_seed = seed >= 0;
  self->seed = self->has_seed ? (guint32) seed : 0;

  if (raw == NULL || *raw == '\0')
    return TRUE;

  self->mix = sluice_mix_parse (raw, &local_error);
  if (self->mix == NULL)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "handler", "mix",
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
      SluiceBehaviour *behaviour = _sluice_scenario_read_behaviour (p, keyfile, "default", error);

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
  guint clock = self->clock_kind == SLUICE_CLOCK_VIRTUAL ? 1 : 0;
  guint mode = self->mode;

  if (!_sluice_scenario_read_choice (p, keyfile, "run", "mode", _sluice_scenario_mode_names, &mode, error) ||
      !_sluice_scenario_read_int (p, keyfile, "run", "stop-after", -1, G_MAXINT, &self->stop_after, error) ||
      !_sluice_scenario_read_int (p, keyfile, "run", "close-after", 1, G_MAXINT, &self->close_after, error) ||
      !_sluice_scenario_read_seconds (p, keyfile, "run", "cancel-after-seconds", FALSE,
                                      &self->cancel_after, error) ||
      !_sluice_scenario_read_choice (p, keyfile, "run", "clock", _sluice_scenario_clock_names,
                                     &clock, error))
    return FALSE;

  self->clock_kind = clock == 1 ? SLUICE_CLOCK_VIRTUAL : SLUICE_CLOCK_REAL;
  self->mode = (SluiceScenarioMode) mode;
  return TRUE;
}

/* [submit]: snapshot-at, and the submitter's give-up.N, give-up-after and
 * close-after-seconds. */
static gboolean
load_submit_group (SluiceScenario  *self,
                   const Parser    *p,
                   GKeyFile        *keyfile,
                   GError         **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "submit", NULL, NULL);

  if (!_sluice_scenario_read_times (p, keyfile, "submit", "snapshot-at", &self->snapshot_at, error) ||
      !_sluice_scenario_read_seconds (p, keyfile, "submit", "give-up-after", FALSE, &self->give_up_after, error) ||
      !_sluice_scenario_read_seconds (p, keyfile, "submit", "close-after-seconds", FALSE,
                                      &self->close_after_seconds, error))
    return FALSE;

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      double seconds = -1;
      gint64 index;

      if (!_sluice_scenario_parse_index_key (keys[i], "give-up.", &index))
        continue;
      if (!_sluice_scenario_read_seconds (p, keyfile, "submit", keys[i], FALSE, &seconds, error))
        return FALSE;
      g_hash_table_replace (self->give_up, g_memdup2 (&index, sizeof index), g_memdup2 (&seconds, sizeof seconds));
    }

  return TRUE;
}

/* The first [submit] key a stream run cannot use: all but snapshot-at. */
static char *
first_submit_only_key (GKeyFile *keyfile)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "submit", NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    if (!g_str_equal (keys[i], "snapshot-at"))
      return g_strdup (keys[i]);

  return NULL;
}

/* The conflicts of submit-and-shutdown.md: in submit mode close-after (K
 * results), source faults and keep-going=false; in stream mode any [submit]
 * key but snapshot-at. In submit mode keep-going is implied. */
static gboolean
check_mode_conflicts (SluiceScenario  *self,
                      const Parser    *p,
                      GKeyFile        *keyfile,
                      GError         **error)
{
  g_autofree char *key = NULL;

  if (self->mode == SLUICE_SCENARIO_MODE_STREAM)
    {
      key = first_submit_only_key (keyfile);
      if (key == NULL)
        return TRUE;

      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "submit", key,
                                  /* Translators: follows “FILE: [submit] key: ”. Keep “[run] mode=submit”
                                   * and “snapshot-at”: they are what users type. */
                                  _("only submit mode uses it, and this is a stream run; expected "
                                    "[run] mode=submit, or no [submit] key but snapshot-at"));
      return FALSE;
    }

  if (g_key_file_has_key (keyfile, "run", "close-after", NULL))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "run", "close-after",
                                  /* Translators: follows “FILE: [run] close-after: ”. Keep “mode=submit”,
                                   * “[submit] close-after-seconds” and “stop-after”: they are what users
                                   * type. */
                                  _("a service run yields no results to count (mode=submit); expected "
                                    "[submit] close-after-seconds=T or [run] stop-after=K instead"));
      return FALSE;
    }

  if (self->fault != SLUICE_SOURCE_FAULT_NONE)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "source",
                                  _sluice_scenario_fault_keys[self->fault],
                                  /* Translators: follows “FILE: [source] key: ”. Keep “mode=submit”,
                                   * raise-after, cancel-after and hang-after: they are what users type. */
                                  _("the submitter takes the source's items, and a source fault is a "
                                    "stream's (mode=submit); expected no raise-after, cancel-after or "
                                    "hang-after in submit mode"));
      return FALSE;
    }

  if (g_key_file_has_key (keyfile, "pool", "keep-going", NULL) && !self->keep_going)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "pool", "keep-going",
                                  /* Translators: follows “FILE: [pool] keep-going: ”. Keep “mode=submit”
                                   * and “keep-going=true”: they are what users type. */
                                  _("a failed job fails only its job in a service run (mode=submit); "
                                    "expected keep-going=true, or no keep-going"));
      return FALSE;
    }

  self->keep_going = TRUE;
  return TRUE;
}

/* [retry]: the values one by one; how they go together is checked by
 * check_retry_conflicts(). */
static gboolean
load_retry_values (SluiceScenario  *self,
                   const Parser    *p,
                   GKeyFile        *keyfile,
                   GError         **error)
{
  guint backoff = self->backoff, jitter = self->jitter;
  gint64 seed = self->retry_seed;

  if (!_sluice_scenario_read_choice (p, keyfile, "retry", "backoff", _sluice_scenario_backoff_names,
                                     &backoff, error) ||
      !_sluice_scenario_read_number (p, keyfile, "retry", "base", SLUICE_NUMBER_POSITIVE_SECONDS,
                                     SLUICE_SCENARIO_MAX_CAP, &self->backoff_base, error) ||
      !_sluice_scenario_read_number (p, keyfile, "retry", "cap", SLUICE_NUMBER_POSITIVE_SECONDS,
                                     SLUICE_SCENARIO_MAX_CAP, &self->backoff_cap, error) ||
      !_sluice_scenario_read_choice (p, keyfile, "retry", "jitter", _sluice_scenario_jitter_names,
                                     &jitter, error) ||
      !_sluice_scenario_read_int (p, keyfile, "retry", "seed", 0, G_MAXUINT32, &seed, error) ||
      !_sluice_scenario_read_number (p, keyfile, "retry", "deadline", SLUICE_NUMBER_SECONDS_OR_NONE,
                                     SLUICE_SCENARIO_MAX_SECONDS, &self->item_deadline, error) ||
      !_sluice_scenario_read_number (p, keyfile, "retry", "budget", SLUICE_NUMBER_TOKENS,
                                     SLUICE_SCENARIO_MAX_BUDGET, &self->retry_budget, error) ||
      !_sluice_scenario_read_number (p, keyfile, "retry", "budget-ratio", SLUICE_NUMBER_POSITIVE_TOKENS,
                                     SLUICE_SCENARIO_MAX_BUDGET, &self->retry_budget_ratio, error))
    return FALSE;

  self->backoff = (SluiceBackoff) backoff;
  self->jitter = (SluiceJitter) jitter;
  self->retry_seed = (guint32) seed;

  self->retry_given = 0;
  for (guint k = 0; k < SLUICE_RETRY_N_KEYS; k++)
    if (g_key_file_has_key (keyfile, "retry", _sluice_scenario_retry_keys[k], NULL))
      self->retry_given |= 1u << k;

  return TRUE;
}

static gboolean
retry_has (SluiceScenario *self,
           SluiceRetryKey  key)
{
  return (self->retry_given & (1u << key)) != 0;
}

/* The conflicts of retry-policy.md: what only an exponential backoff or a
 * budget uses, given without it, and a cap below the base. */
static gboolean
check_retry_conflicts (SluiceScenario  *self,
                       const Parser    *p,
                       GError         **error)
{
  static const SluiceRetryKey backoff_only[] = {
    SLUICE_RETRY_KEY_BASE, SLUICE_RETRY_KEY_CAP, SLUICE_RETRY_KEY_JITTER,
  };
  g_autofree char *base = sluice_format_double (self->backoff_base);
  g_autofree char *cap = sluice_format_double (self->backoff_cap);

  for (guint i = 0; self->backoff == SLUICE_BACKOFF_NONE && i < G_N_ELEMENTS (backoff_only); i++)
    if (retry_has (self, backoff_only[i]))
      {
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "retry",
                                    _sluice_scenario_retry_keys[backoff_only[i]],
                                    /* Translators: follows “FILE: [retry] key: ”. Keep “backoff=none”,
                                     * “backoff=exponential”, base, cap and jitter: they are what users
                                     * type. */
                                    _("only an exponential backoff uses it, and backoff=none (written "
                                      "or by default); expected backoff=exponential with base, cap and "
                                      "jitter, or none of them"));
        return FALSE;
      }

  /* No budget is what the pool sees: 0 whole thousandths. */
  if (retry_has (self, SLUICE_RETRY_KEY_BUDGET_RATIO) && llround (self->retry_budget * 1000) == 0)
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "retry", "budget-ratio",
                                  /* Translators: follows “FILE: [retry] budget-ratio: ”. Keep “budget”
                                   * and “budget-ratio”: they are what users type. */
                                  _("only a retry budget uses it, and there is none (budget is absent "
                                    "or 0); expected a budget above 0 with budget-ratio, or no "
                                    "budget-ratio"));
      return FALSE;
    }

  if (self->backoff_cap >= self->backoff_base)
    return TRUE;

  if (retry_has (self, SLUICE_RETRY_KEY_CAP))
    _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "retry", "cap",
                                /* Translators: follows “FILE: [retry] cap: ”; the first %s is the
                                 * cap, the second the base, in seconds. Keep “cap” and “base”. */
                                _("%s is below base (%s); expected a cap of at least base"), cap, base);
  else
    _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "retry", "base",
                                /* Translators: follows “FILE: [retry] base: ”; the first %s is the
                                 * base, the second the default cap, in seconds. Keep “base” and
                                 * “cap”. */
                                _("%s is above the default cap of %s seconds; expected a base of at "
                                  "most %s, or a cap of at least base"), base, cap, cap);
  return FALSE;
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

  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "handler", key,
                              /* Translators: follows “FILE: [handler] key: ”. Keep “block”, “thread”,
                               * “[run] clock=real” and “clock=virtual”: they are what users type. */
                              _("block and thread need real time; expected [run] clock=real with them "
                                "(or another behaviour with clock=virtual)"));
  return FALSE;
}

static gboolean
load_keyfile (SluiceScenario  *self,
              const Parser    *p,
              GKeyFile        *keyfile,
              GError         **error)
{
  return check_groups_and_keys (p, keyfile, error) &&
         load_scenario_group (self, p, keyfile, error) &&
         load_pool_group (self, p, keyfile, error) &&
         load_source_group (self, p, keyfile, error) &&
         load_handler_group (self, p, keyfile, error) &&
         load_run_group (self, p, keyfile, error) &&
         load_retry_values (self, p, keyfile, error) &&
         load_submit_group (self, p, keyfile, error) &&
         check_mode_conflicts (self, p, keyfile, error) &&
         check_real_time (self, p, error) &&
         check_retry_conflicts (self, p, error);
}

/* ---- overrides --------------------------------------------------------- */

/* Group and key names in the format are ASCII words with '-' and '.'
 * (item.3); anything else would reach GKeyFile, which refuses it with a
 * critical and drops the override. */
static gboolean
is_override_name (const char *name)
{
  if (*name == '\0')
    return FALSE;

  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '.')
      return FALSE;

  return TRUE;
}

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

      if (dot != NULL && eq != NULL && dot < eq)
        {
          group = g_strstrip (g_strndup (text, dot - text));
          key = g_strstrip (g_strndup (dot + 1, eq - dot - 1));
          value = g_strstrip (g_strdup (eq + 1));
        }

      if (group == NULL || !is_override_name (group) || !is_override_name (key) ||
          strpbrk (value, "\r\n") != NULL)
        {
          g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_BAD_OVERRIDE,
                       /* Translators: %s is the argument of --set as typed. Keep “--set”,
                        * “group.key=value” and “pool.workers=8”: they are command syntax. */
                       _("--set “%s”: expected group.key=value, such as pool.workers=8"), text);
          return FALSE;
        }

      g_key_file_set_value (keyfile, group, key, value);
      g_hash_table_add (overridden, _sluice_scenario_override_id (group, key));
    }

  return TRUE;
}

/* ---- loading ----------------------------------------------------------- */

static void
set_too_large_error (GError     **error,
                     const char  *name)
{
  g_autofree char *size = g_format_size_full (SLUICE_SCENARIO_MAX_SIZE, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
               /* Translators: the first %s is the file, the second the limit, such as
                * “1.0 MiB”, and %d the same in bytes. */
               _("%s: the scenario is larger than the limit of %s (%d bytes); expected a "
                 "smaller scenario file"), name, size, SLUICE_SCENARIO_MAX_SIZE);
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

/**
 * sluice_scenario_new_from_data:
 * @data: (array length=length): the text of a `.pool` file
 * @length: the length of @data, or -1 if it is nul-terminated
 * @name: (nullable): how error messages name the scenario (the file name)
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Parses and validates a scenario. Data larger than
 * %SLUICE_SCENARIO_MAX_SIZE is refused with %SLUICE_SCENARIO_ERROR_IO.
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

  /* strnlen: a text without its end is not read past the limit. */
  len = length < 0 ? strnlen (data, SLUICE_SCENARIO_MAX_SIZE + 1) : (gsize) length;
  if (len > SLUICE_SCENARIO_MAX_SIZE)
    {
      set_too_large_error (error, p.name);
      return NULL;
    }

  if (!_sluice_scenario_check_text (p.name, data ? data : "", len, error))
    return NULL;

  text = g_strndup (data ? data : "", len);
  p.text = text;

  /* Every title[LANG] and description[LANG], not only the current
   * locale's: check_key() sees them all, and a saved scenario keeps them. */
  if (!g_key_file_load_from_data (keyfile, text, len, G_KEY_FILE_KEEP_TRANSLATIONS, &local_error))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                   /* Translators: the first %s is the file, the second what GLib found
                    * wrong. Keep “[group]”, “key=value” and “#”: they show the syntax. */
                   _("%s: %s; expected [group] headers, key=value lines and # comments on "
                     "their own line"), p.name, local_error->message);
      return NULL;
    }

  if (!_sluice_scenario_check_duplicates (&p, error))
    return NULL;

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

static void
set_read_error (GError     **error,
                const char  *path,
                int          errsv)
{
  g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
               /* Translators: the first %s is the file, the second why it cannot be read. */
               _("%s: cannot read the scenario: %s"), path, g_strerror (errsv));
}

/* The whole of the regular file open on @fd, at most
 * SLUICE_SCENARIO_MAX_SIZE bytes whatever its size says (it may grow while
 * it is read, or be a /proc file of size 0). */
static char *
read_regular_file (int          fd,
                   const char  *path,
                   gsize       *length,
                   GError     **error)
{
  g_autofree char *data = NULL;
  gsize size = 0, allocated;
  struct stat st;

  if (fstat (fd, &st) != 0)
    {
      set_read_error (error, path, errno);
      return NULL;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   /* Translators: %s is the file. */
                   _("%s: cannot read the scenario: not a regular file (a directory, a device or "
                     "a pipe); expected a scenario file"), path);
      return NULL;
    }

  /* Room for one byte more than the limit: reading it means too large. */
  allocated = (gsize) CLAMP (st.st_size, 0, SLUICE_SCENARIO_MAX_SIZE) + 1;
  data = g_malloc (allocated);
  for (;;)
    {
      gssize n;

      if (size == allocated)
        {
          if (allocated > SLUICE_SCENARIO_MAX_SIZE)
            {
              set_too_large_error (error, path);
              return NULL;
            }
          allocated = MIN (allocated * 2, (gsize) SLUICE_SCENARIO_MAX_SIZE + 1);
          data = g_realloc (data, allocated);
        }

      n = read (fd, data + size, allocated - size);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_read_error (error, path, errno);
          return NULL;
        }
      if (n == 0)
        break;
      size += (gsize) n;
    }

  *length = size;
  return g_steal_pointer (&data);
}

/* A FIFO is opened without blocking (no writer is waited for), then
 * refused like any other file that is not regular (a directory, /dev/zero). */
static char *
read_scenario_file (const char  *path,
                    gsize       *length,
                    GError     **error)
{
  char *data;
  int fd;

  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      set_read_error (error, path, errno);
      return NULL;
    }

  data = read_regular_file (fd, path, length, error);
  close (fd);
  return data;
}

/**
 * sluice_scenario_new_from_file:
 * @path: a `.pool` file
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   overrides, applied before validation
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Reads, parses and validates a scenario file. Messages name the file by
 * @path. A file that is not a regular file (a directory, a device, a FIFO)
 * or is larger than %SLUICE_SCENARIO_MAX_SIZE is refused with
 * %SLUICE_SCENARIO_ERROR_IO, without blocking and without reading more
 * than the limit.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL on error
 */
SluiceScenario *
sluice_scenario_new_from_file (const char          *path,
                               const char * const  *overrides,
                               GError             **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  data = read_scenario_file (path, &length, error);
  if (data == NULL)
    return NULL;

  return sluice_scenario_new_from_data (data, (gssize) length, path, overrides, error);
}
