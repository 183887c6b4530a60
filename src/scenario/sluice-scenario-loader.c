/* sluice-scenario-loader.c: a scenario from a .pool key file, validated
 * group by group (sluice-scenario-file.c reads the text and applies the
 * `--set` overrides first)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

#include <math.h>
#include <string.h>

/* As many workers as the pool takes: the scaling targets are measured at
 * 100,000 of them. */
#define MAX_WORKERS     SLUICE_POOL_MAX_WORKERS
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
  "stop-after", "close-after", "cancel-after-seconds", "caller-delay", "clock", "mode", NULL
};
/* [submit] (docs/submit-and-shutdown.md), and give-up.N; in stream mode only
 * snapshot-at. */
static const char * const submit_keys[] = { "snapshot-at", "give-up-after", "close-after-seconds", NULL };

/* Keys that name something: an item, a job, a language (check_key()). */
static const char * const scenario_patterns[] = { "title[LANG]", "description[LANG]", NULL };
static const char * const handler_patterns[] = { "item.N", NULL };
static const char * const submit_patterns[] = { "give-up.N", NULL };
static const char * const no_patterns[] = { NULL };

typedef struct {
  const char         *name;
  const char * const *keys;
  const char * const *patterns;
} GroupSpec;

static const GroupSpec groups[] = {
  { "scenario", scenario_keys, scenario_patterns },
  { "pool", pool_keys, no_patterns },
  { "source", source_keys, no_patterns },
  { "handler", handler_keys, handler_patterns },
  { "run", run_keys, no_patterns },
  { "retry", _sluice_scenario_retry_keys, no_patterns }, /* shared with the writer */
  { "submit", submit_keys, submit_patterns },
  { "lesson", _sluice_scenario_lesson_keys, _sluice_scenario_lesson_patterns }, /* docs/teaching.md */
};

static const GroupSpec *
lookup_group (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    if (g_str_equal (groups[i].name, name))
      return &groups[i];

  return NULL;
}

/* The format's groups, in the order of the file (docs/scenario-format.md
 * lists them, and tests/test-scenario.c checks that it lists them all). */
const char * const *
_sluice_scenario_format_groups (void)
{
  static const char *names[G_N_ELEMENTS (groups) + 1];
  static gsize done = 0;

  if (g_once_init_enter (&done))
    {
      for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
        names[i] = groups[i].name;
      g_once_init_leave (&done, 1);
    }

  return names;
}

/* The keys @group takes as they are written, or NULL for no such group. */
const char * const *
_sluice_scenario_format_keys (const char *group)
{
  const GroupSpec *spec = lookup_group (group);

  return spec != NULL ? spec->keys : NULL;
}

/* The keys @group takes that name an item, a job or a language, as the
 * messages write them (item.N, give-up.N, title[LANG]); NULL for no such
 * group. */
const char * const *
_sluice_scenario_format_patterns (const char *group)
{
  const GroupSpec *spec = lookup_group (group);

  return spec != NULL ? spec->patterns : NULL;
}

/* title[fr] and description[fr] are translations, and in a lesson
 * question[fr], choices[fr] and explain[fr]: the group's patterns. */
static gboolean
is_localized_key (const GroupSpec *spec,
                  const char      *key)
{
  const char *bracket = strchr (key, '[');
  g_autofree char *pattern = NULL;

  if (bracket == NULL || bracket[1] == ']' || !g_str_has_suffix (key, "]"))
    return FALSE;

  pattern = g_strdup_printf ("%.*s[LANG]", (int) (bracket - key), key);
  return g_strv_contains (spec->patterns, pattern);
}

static gboolean
check_key (const Parser     *p,
           const GroupSpec  *spec,
           const char       *key,
           GError          **error)
{
  gint64 index;
  g_autofree char *expected = NULL;
  g_autofree char *patterns = NULL;
  g_autofree char *extra = NULL;

  if (g_strv_contains (spec->keys, key))
    return TRUE;

  if (g_str_equal (spec->name, "handler") && _sluice_scenario_parse_item_key (key, &index))
    return TRUE;

  if (g_str_equal (spec->name, "submit") && _sluice_scenario_parse_index_key (key, "give-up.", &index))
    return TRUE;

  if (is_localized_key (spec, key))
    return TRUE;

  expected = g_strjoinv (", ", (char **) spec->keys);
  patterns = g_strjoinv (", ", (char **) spec->patterns);
  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_UNKNOWN_KEY, spec->name, key,
                              /* Translators: follows “FILE: [group] key: ”; %s%s is the list of the
                               * group's keys, such as “default, mix, seed, item.N”: keep it as it is. */
                              _("unknown key; expected one of: %s%s"), expected,
                              *patterns != '\0' ? (extra = g_strconcat (", ", patterns, NULL)) : "");
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
      !_sluice_scenario_read_seconds (p, keyfile, "run", "caller-delay", FALSE, &self->caller_delay, error) ||
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

/* The conflicts of docs/submit-and-shutdown.md: in submit mode close-after (K
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

  if (g_key_file_has_key (keyfile, "run", "caller-delay", NULL))
    {
      _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "run", "caller-delay",
                                  /* Translators: follows “FILE: [run] caller-delay: ”. Keep “mode=submit”:
                                   * it is what users type. */
                                  _("a service run's caller reads no stream of results (mode=submit); "
                                    "expected no caller-delay in submit mode"));
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

/* A give-up.N names job N, and in sluice-run the jobs are the source's
 * items: an N the source does not have is a typo that would otherwise be
 * silently ignored (docs/submit-and-shutdown.md). Checked in submit mode only:
 * a stream run refuses every give-up.N already. */
static gboolean
check_give_up_jobs (SluiceScenario  *self,
                    const Parser    *p,
                    GKeyFile        *keyfile,
                    GError         **error)
{
  g_auto(GStrv) keys = g_key_file_get_keys (keyfile, "submit", NULL, NULL);
  guint n_items = sluice_scenario_get_n_items (self);

  if (self->mode != SLUICE_SCENARIO_MODE_SUBMIT)
    return TRUE;

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      gint64 index;

      if (!_sluice_scenario_parse_index_key (keys[i], "give-up.", &index) || index < (gint64) n_items)
        continue;

      if (n_items == 0)
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "submit", keys[i],
                                    /* Translators: follows “FILE: [submit] give-up.N: ”; keep
                                     * “give-up.N”. */
                                    _("the source has no items, so there are no jobs to give up on; "
                                      "expected no give-up.N"));
      else
        _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_INVALID_VALUE, "submit", keys[i],
                                    /* Translators: follows “FILE: [submit] give-up.N: ”; keep
                                     * “give-up.N”. %lld is the job asked for, %d the last job and %u
                                     * the number of items. */
                                    _("the source has no item %lld, so there is no job %lld to give up "
                                      "on; expected give-up.N with N from 0 to %d (the source has "
                                      "%u items)"),
                                    (long long) index, (long long) index, (gint) n_items - 1, n_items);
      return FALSE;
    }

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

/* The conflicts of docs/retry-policy.md: what only an exponential backoff or a
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
  g_autofree char *key = NULL;

  if (self->clock_kind != SLUICE_CLOCK_VIRTUAL)
    return TRUE;

  key = _sluice_scenario_real_time_key (self);
  if (key == NULL)
    return TRUE;

  _sluice_scenario_set_error (p, error, SLUICE_SCENARIO_ERROR_CONFLICT, "handler", key,
                              /* Translators: follows “FILE: [handler] key: ”. Keep “block”, “thread”,
                               * “[run] clock=real” and “clock=virtual”: they are what users type. */
                              _("block and thread need real time; expected [run] clock=real with them "
                                "(or another behaviour with clock=virtual)"));
  return FALSE;
}

/* Validates every group of @keyfile, overrides applied, into @self. */
gboolean
_sluice_scenario_load_keyfile (SluiceScenario              *self,
                               const SluiceScenarioParser  *p,
                               GKeyFile                    *keyfile,
                               GError                     **error)
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
         check_give_up_jobs (self, p, keyfile, error) &&
         check_real_time (self, p, error) &&
         check_retry_conflicts (self, p, error) &&
         _sluice_scenario_load_lesson (self, p, keyfile, error);
}
