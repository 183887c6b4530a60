/* sluice-scenario-writer.c: a scenario saved back as a .pool key file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"
#include "sluice-index-keys-private.h"

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

/* The groups of texts, kept as written with their translations. */
const char * const _sluice_scenario_text_groups[] = { "scenario", "lesson", NULL };

/**
 * _sluice_scenario_keep_texts:
 * @self: a #SluiceScenario being loaded
 * @keyfile: the key file it is loaded from
 *
 * Keeps the `[scenario]` and `[lesson]` groups of @keyfile as they are
 * written, untranslated texts and every translation (`title[LANG]`,
 * `question[LANG]` …), so that saving @self writes them all back; the
 * texts that @self shows are the ones for the current locale.
 */
void
_sluice_scenario_keep_texts (SluiceScenario *self,
                             GKeyFile       *keyfile)
{
  g_clear_pointer (&self->texts, g_key_file_unref);

  for (guint g = 0; _sluice_scenario_text_groups[g] != NULL; g++)
    {
      const char *group = _sluice_scenario_text_groups[g];
      g_auto(GStrv) keys = g_key_file_get_keys (keyfile, group, NULL, NULL);

      for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
        {
          g_autofree char *value = g_key_file_get_value (keyfile, group, keys[i], NULL);

          if (value == NULL)
            continue;
          if (self->texts == NULL)
            self->texts = g_key_file_new ();
          g_key_file_set_value (self->texts, group, keys[i], value);
        }
    }
}

/* @group of the texts as it was read, in its order. */
static void
save_texts (SluiceScenario *self,
            const char     *group,
            GKeyFile       *keyfile)
{
  g_auto(GStrv) keys = g_key_file_get_keys (self->texts, group, NULL, NULL);

  for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
    {
      g_autofree char *value = g_key_file_get_value (self->texts, group, keys[i], NULL);

      g_key_file_set_value (keyfile, group, keys[i], value);
    }
}

/* The texts as they were read, in their order; without them (a scenario
 * not read from a file) the title and description alone. */
static void
save_scenario (SluiceScenario *self,
               GKeyFile       *keyfile)
{
  if (self->texts != NULL)
    {
      save_texts (self, "scenario", keyfile);
      return;
    }

  if (self->title != NULL)
    g_key_file_set_string (keyfile, "scenario", "title", self->title);
  if (self->description != NULL)
    g_key_file_set_string (keyfile, "scenario", "description", self->description);
}

static void
save_pool (SluiceScenario *self,
           GKeyFile       *keyfile)
{
  g_autofree char *retryable = g_strjoinv (";", self->retryable);

  g_key_file_set_integer (keyfile, "pool", "workers", self->workers);
  g_key_file_set_integer (keyfile, "pool", "queue-size", self->queue_size);
  set_double (keyfile, "pool", "item-timeout", self->item_timeout);
  g_key_file_set_integer (keyfile, "pool", "max-retries", self->max_retries);
  g_key_file_set_value (keyfile, "pool", "retryable", retryable);
  g_key_file_set_value (keyfile, "pool", "metrics", _sluice_scenario_metrics_names[self->metrics]);
  g_key_file_set_value (keyfile, "pool", "keep-going", self->keep_going ? "true" : "false");

  /* The keys of docs/submit-and-shutdown.md only when they are used: a
   * capstone scenario saves as it did. */
  if (self->fatal[0] != NULL)
    {
      g_autofree char *fatal = g_strjoinv (";", self->fatal);
      g_key_file_set_value (keyfile, "pool", "fatal", fatal);
    }
  if (self->shutdown_timeout > 0)
    set_double (keyfile, "pool", "shutdown-timeout", self->shutdown_timeout);
}

/* A string item is written quoted and escaped (g_key_file_set_string), as
 * the loader reads `values` with g_key_file_get_string: `C:\\new` stays a
 * backslash and an n, a new line stays a new line. */
static void
save_source (SluiceScenario *self,
             GKeyFile       *keyfile)
{
  if (self->values == NULL)
    g_key_file_set_integer (keyfile, "source", "count", (gint) self->count);
  else
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) tokens = NULL;
      g_autofree char *values = NULL;

      for (guint i = 0; i < self->values->len; i++)
        {
          g_autofree char *token = format_item (g_ptr_array_index (self->values, i));
          g_strv_builder_add (builder, token);
        }
      tokens = g_strv_builder_end (builder);
      values = g_strjoinv (";", tokens);
      g_key_file_set_string (keyfile, "source", "values", values);
    }

  set_double (keyfile, "source", "interval", self->interval);
  if (self->fault != SLUICE_SOURCE_FAULT_NONE)
    g_key_file_set_integer (keyfile, "source", _sluice_scenario_fault_keys[self->fault],
                            (gint) self->fault_after);
}

static void
save_handler (SluiceScenario *self,
              GKeyFile       *keyfile)
{
  g_autofree char *text = sluice_behaviour_to_string (self->default_behaviour);
  g_autoptr(GPtrArray) indexes = _sluice_sorted_index_keys (self->item_behaviours);

  g_key_file_set_value (keyfile, "handler", "default", text);

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

static void
save_run (SluiceScenario *self,
          GKeyFile       *keyfile)
{
  g_key_file_set_int64 (keyfile, "run", "stop-after", self->stop_after);
  if (self->close_after > 0)
    g_key_file_set_int64 (keyfile, "run", "close-after", self->close_after);
  if (self->cancel_after >= 0)
    set_double (keyfile, "run", "cancel-after-seconds", self->cancel_after);
  if (self->caller_delay > 0)
    set_double (keyfile, "run", "caller-delay", self->caller_delay);
  g_key_file_set_value (keyfile, "run", "clock",
                        _sluice_scenario_clock_names[self->clock_kind == SLUICE_CLOCK_VIRTUAL]);
  /* Only submit mode: a stream scenario saves as it did. */
  if (self->mode != SLUICE_SCENARIO_MODE_STREAM)
    g_key_file_set_value (keyfile, "run", "mode", _sluice_scenario_mode_names[self->mode]);
}

/* Only the keys that were given: base, cap or jitter written for
 * backoff=none, or budget-ratio without a budget, would not load back. */
static void
save_retry (SluiceScenario *self,
            GKeyFile       *keyfile)
{
  for (SluiceRetryKey k = 0; k < SLUICE_RETRY_N_KEYS; k++)
    {
      const char *key = _sluice_scenario_retry_keys[k];
      g_autofree char *text = NULL;

      if ((self->retry_given & (1u << k)) == 0)
        continue;

      switch (k)
        {
        case SLUICE_RETRY_KEY_BACKOFF:
          text = g_strdup (_sluice_scenario_backoff_names[self->backoff]);
          break;
        case SLUICE_RETRY_KEY_BASE:
          text = sluice_format_double (self->backoff_base);
          break;
        case SLUICE_RETRY_KEY_CAP:
          text = sluice_format_double (self->backoff_cap);
          break;
        case SLUICE_RETRY_KEY_JITTER:
          text = g_strdup (_sluice_scenario_jitter_names[self->jitter]);
          break;
        case SLUICE_RETRY_KEY_SEED:
          text = g_strdup_printf ("%u", self->retry_seed);
          break;
        case SLUICE_RETRY_KEY_DEADLINE:
          text = sluice_format_double (self->item_deadline);
          break;
        case SLUICE_RETRY_KEY_BUDGET:
          text = sluice_format_double (self->retry_budget);
          break;
        case SLUICE_RETRY_KEY_BUDGET_RATIO:
        case SLUICE_RETRY_N_KEYS:
        default:
          text = sluice_format_double (self->retry_budget_ratio);
          break;
        }

      g_key_file_set_value (keyfile, "retry", key, text);
    }
}

/* [submit], the keys that are used. */
static void
save_submit (SluiceScenario *self,
             GKeyFile       *keyfile)
{
  g_autoptr(GString) times = NULL;
  g_autoptr(GPtrArray) give_up = _sluice_sorted_index_keys (self->give_up);

  if (self->give_up_after >= 0)
    set_double (keyfile, "submit", "give-up-after", self->give_up_after);
  for (guint i = 0; i < give_up->len; i++)
    {
      gint64 *index = g_ptr_array_index (give_up, i);
      g_autofree char *key = g_strdup_printf ("give-up.%" G_GINT64_FORMAT, *index);

      set_double (keyfile, "submit", key, *(double *) g_hash_table_lookup (self->give_up, index));
    }
  if (self->close_after_seconds >= 0)
    set_double (keyfile, "submit", "close-after-seconds", self->close_after_seconds);

  if (self->snapshot_at == NULL || self->snapshot_at->len == 0)
    return;

  times = g_string_new (NULL);
  for (guint i = 0; i < self->snapshot_at->len; i++)
    {
      g_autofree char *text = sluice_format_double (g_array_index (self->snapshot_at, double, i));
      g_string_append_printf (times, "%s%s", i > 0 ? ";" : "", text);
    }
  g_key_file_set_value (keyfile, "submit", "snapshot-at", times->str);
}

/**
 * sluice_scenario_to_keyfile:
 * @self: a #SluiceScenario
 *
 * Writes every setting of @self, defaults included (in `[retry]`, the keys
 * that were given; `[pool] fatal` and `shutdown-timeout` and `[submit]`
 * only when they are used), into a new key file that
 * sluice_scenario_new_from_keyfile() reads back as the same scenario.
 *
 * Returns: (transfer full): the key file
 */
GKeyFile *
sluice_scenario_to_keyfile (SluiceScenario *self)
{
  GKeyFile *keyfile;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);

  keyfile = g_key_file_new ();

  save_scenario (self, keyfile);
  save_pool (self, keyfile);
  save_source (self, keyfile);
  save_handler (self, keyfile);
  save_run (self, keyfile);
  save_retry (self, keyfile);
  save_submit (self, keyfile);
  if (self->texts != NULL)
    save_texts (self, "lesson", keyfile);

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
                   /* Translators: the first %s is the file, the second why it cannot be written. */
                   _("%s: cannot write the scenario: %s"), path, local_error->message);
      return FALSE;
    }

  return TRUE;
}
