/* sluice-scenario-compare.c: whether two scenarios describe the same
 * experiment (a scenario saved and loaded again must be equal to itself)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

static gboolean
behaviour_equal (const SluiceBehaviour *a,
                 const SluiceBehaviour *b)
{
  return a->kind == b->kind && a->delay == b->delay && a->failures == b->failures &&
         g_strcmp0 (a->error_type, b->error_type) == 0;
}

/* Two arrays, both NULL or of equal elements in the same order. */
static gboolean
arrays_equal (GPtrArray  *a,
              GPtrArray  *b,
              GEqualFunc  equal)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (a->len != b->len)
    return FALSE;

  for (guint i = 0; i < a->len; i++)
    if (!equal (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
      return FALSE;

  return TRUE;
}

static gboolean
mix_entry_equal (gconstpointer a,
                 gconstpointer b)
{
  const SluiceMixEntry *x = a, *y = b;

  return x->weight == y->weight && behaviour_equal (x->behaviour, y->behaviour);
}

static gboolean
item_behaviours_equal (GHashTable *a,
                       GHashTable *b)
{
  GHashTableIter iter;
  gpointer index, behaviour;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &index, &behaviour))
    {
      const SluiceBehaviour *other = g_hash_table_lookup (b, index);

      if (other == NULL || !behaviour_equal (behaviour, other))
        return FALSE;
    }

  return TRUE;
}

/* Two give-up tables: the same jobs with the same seconds. */
static gboolean
give_ups_equal (GHashTable *a,
                GHashTable *b)
{
  GHashTableIter iter;
  gpointer index, seconds;

  if (g_hash_table_size (a) != g_hash_table_size (b))
    return FALSE;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &index, &seconds))
    {
      const double *other = g_hash_table_lookup (b, index);

      if (other == NULL || *other != *(double *) seconds)
        return FALSE;
    }

  return TRUE;
}

/* Two lists of times, NULL being none. */
static gboolean
times_equal (GArray *a,
             GArray *b)
{
  guint n = a != NULL ? a->len : 0;

  if (n != (b != NULL ? b->len : 0))
    return FALSE;

  for (guint i = 0; i < n; i++)
    if (g_array_index (a, double, i) != g_array_index (b, double, i))
      return FALSE;

  return TRUE;
}

/* @group of the texts as written: the same keys with the same raw values. */
static gboolean
group_texts_equal (GKeyFile   *a,
                   GKeyFile   *b,
                   const char *group)
{
  g_auto(GStrv) keys = g_key_file_get_keys (a, group, NULL, NULL);
  g_auto(GStrv) other_keys = g_key_file_get_keys (b, group, NULL, NULL);

  if (keys == NULL || other_keys == NULL)
    return keys == other_keys;
  if (!g_strv_equal ((const char * const *) keys, (const char * const *) other_keys))
    return FALSE;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *x = g_key_file_get_value (a, group, keys[i], NULL);
      g_autofree char *y = g_key_file_get_value (b, group, keys[i], NULL);

      if (g_strcmp0 (x, y) != 0)
        return FALSE;
    }

  return TRUE;
}

/* The [scenario] and [lesson] texts as written. */
static gboolean
texts_equal (GKeyFile *a,
             GKeyFile *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  for (guint g = 0; _sluice_scenario_text_groups[g] != NULL; g++)
    if (!group_texts_equal (a, b, _sluice_scenario_text_groups[g]))
      return FALSE;

  return TRUE;
}

/**
 * _sluice_scenario_equal:
 * @a: a #SluiceScenario
 * @b: another
 * @difference: (out) (optional): the first setting that differs, such as
 *   `[source] values`, for a message; or %NULL when they are equal
 *
 * Compares every setting of two scenarios (not their names): a scenario
 * saved and loaded again must be equal to itself.
 *
 * Returns: %TRUE when @a and @b describe the same experiment
 */
gboolean
_sluice_scenario_equal (SluiceScenario  *a,
                        SluiceScenario  *b,
                        const char     **difference)
{
  const char *what = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (a), FALSE);
  g_return_val_if_fail (SLUICE_IS_SCENARIO (b), FALSE);

  if (g_strcmp0 (a->title, b->title) != 0)
    what = "[scenario] title";
  else if (g_strcmp0 (a->description, b->description) != 0)
    what = "[scenario] description";
  else if (!texts_equal (a->texts, b->texts))
    what = "[scenario] and [lesson] texts";
  else if (a->workers != b->workers)
    what = "[pool] workers";
  else if (a->queue_size != b->queue_size)
    what = "[pool] queue-size";
  else if (a->item_timeout != b->item_timeout)
    what = "[pool] item-timeout";
  else if (a->max_retries != b->max_retries)
    what = "[pool] max-retries";
  else if (!g_strv_equal ((const char * const *) a->retryable, (const char * const *) b->retryable))
    what = "[pool] retryable";
  else if (a->metrics != b->metrics)
    what = "[pool] metrics";
  else if (a->keep_going != b->keep_going)
    what = "[pool] keep-going";
  else if (!g_strv_equal ((const char * const *) a->fatal, (const char * const *) b->fatal))
    what = "[pool] fatal";
  else if (a->shutdown_timeout != b->shutdown_timeout)
    what = "[pool] shutdown-timeout";
  else if (a->count != b->count)
    what = "[source] count";
  else if (!arrays_equal (a->values, b->values, g_variant_equal))
    what = "[source] values";
  else if (a->interval != b->interval)
    what = "[source] interval";
  else if (a->fault != b->fault || a->fault_after != b->fault_after)
    what = "[source] fault";
  else if (!behaviour_equal (a->default_behaviour, b->default_behaviour))
    what = "[handler] default";
  else if (!item_behaviours_equal (a->item_behaviours, b->item_behaviours))
    what = "[handler] item.N";
  else if (!arrays_equal (a->mix, b->mix, mix_entry_equal))
    what = "[handler] mix";
  else if (a->has_seed != b->has_seed || a->seed != b->seed)
    what = "[handler] seed";
  else if (a->stop_after != b->stop_after)
    what = "[run] stop-after";
  else if (a->close_after != b->close_after)
    what = "[run] close-after";
  else if (a->cancel_after != b->cancel_after)
    what = "[run] cancel-after-seconds";
  else if (a->caller_delay != b->caller_delay)
    what = "[run] caller-delay";
  else if (a->clock_kind != b->clock_kind)
    what = "[run] clock";
  else if (a->retry_given != b->retry_given)
    what = "[retry] keys given";
  else if (a->backoff != b->backoff)
    what = "[retry] backoff";
  else if (a->backoff_base != b->backoff_base)
    what = "[retry] base";
  else if (a->backoff_cap != b->backoff_cap)
    what = "[retry] cap";
  else if (a->jitter != b->jitter)
    what = "[retry] jitter";
  else if (a->retry_seed != b->retry_seed)
    what = "[retry] seed";
  else if (a->item_deadline != b->item_deadline)
    what = "[retry] deadline";
  else if (a->retry_budget != b->retry_budget)
    what = "[retry] budget";
  else if (a->retry_budget_ratio != b->retry_budget_ratio)
    what = "[retry] budget-ratio";
  else if (!times_equal (a->snapshot_at, b->snapshot_at))
    what = "[submit] snapshot-at";
  else if (a->mode != b->mode)
    what = "[run] mode";
  else if (!give_ups_equal (a->give_up, b->give_up))
    what = "[submit] give-up.N";
  else if (a->give_up_after != b->give_up_after)
    what = "[submit] give-up-after";
  else if (a->close_after_seconds != b->close_after_seconds)
    what = "[submit] close-after-seconds";

  if (difference != NULL)
    *difference = what;
  return what == NULL;
}
