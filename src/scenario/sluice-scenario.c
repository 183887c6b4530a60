/* sluice-scenario.c: one experiment, loaded from a .pool key file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

/**
 * SluiceScenario:
 *
 * One experiment: the pool's options, the source, how the fault-injecting
 * handler behaves for each item and what the caller does. It is read from
 * a `.pool` key file (see `docs/scenario-format.md`), validated as a whole, and
 * builds the clock, pool, source and handler of a run.
 *
 * Every error names the file, the group and key (with the line when it is
 * known, or the `--set` that gave the value) and the expected form.
 *
 * This file holds the object and its getters; sluice-scenario-file.c reads
 * a scenario's text and sluice-scenario-loader.c validates it (with the
 * value readers of sluice-scenario-reader.c), sluice-scenario-writer.c
 * saves one, sluice-scenario-build.c builds the parts of a run and
 * sluice-scenario-compare.c compares two.
 */

G_DEFINE_FINAL_TYPE (SluiceScenario, sluice_scenario, G_TYPE_OBJECT)

G_DEFINE_QUARK (sluice-scenario-error-quark, sluice_scenario_error)

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_scenario_finalize (GObject *object)
{
  SluiceScenario *self = SLUICE_SCENARIO (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->texts, g_key_file_unref);
  g_clear_pointer (&self->retryable, g_strfreev);
  g_clear_pointer (&self->fatal, g_strfreev);
  g_clear_pointer (&self->snapshot_at, g_array_unref);
  g_clear_pointer (&self->give_up, g_hash_table_unref);
  g_clear_pointer (&self->values, g_ptr_array_unref);
  g_clear_pointer (&self->default_behaviour, sluice_behaviour_free);
  g_clear_pointer (&self->item_behaviours, g_hash_table_unref);
  g_clear_pointer (&self->mix, g_ptr_array_unref);
  g_clear_object (&self->lesson);

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
  self->fatal = g_new0 (char *, 1);
  self->metrics = SLUICE_METRICS_OFF;
  self->default_behaviour = sluice_behaviour_new (SLUICE_BEHAVIOUR_OK, 0);
  self->item_behaviours = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                 g_free, (GDestroyNotify) sluice_behaviour_free);
  self->stop_after = -1;
  self->cancel_after = -1;
  self->give_up = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->give_up_after = -1;
  self->close_after_seconds = -1;
  self->clock_kind = SLUICE_CLOCK_REAL;
  self->backoff = SLUICE_BACKOFF_NONE;
  self->backoff_base = SLUICE_SCENARIO_DEFAULT_BASE;
  self->backoff_cap = SLUICE_SCENARIO_DEFAULT_CAP;
  self->jitter = SLUICE_JITTER_FULL;
  self->retry_budget_ratio = SLUICE_SCENARIO_DEFAULT_RATIO;
}

/* ---- construction ------------------------------------------------------ */

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
 * sluice_scenario_get_fatal:
 * @self: a #SluiceScenario
 *
 * Returns: (transfer none) (array zero-terminated=1): `[pool] fatal`, the
 *   type names of errors that stop the whole pool at once
 */
const char * const *
sluice_scenario_get_fatal (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  return (const char * const *) self->fatal;
}

/**
 * sluice_scenario_get_shutdown_timeout:
 * @self: a #SluiceScenario
 *
 * Returns: `[pool] shutdown-timeout`, the seconds a shutdown may take, or
 *   0 for no limit
 */
double
sluice_scenario_get_shutdown_timeout (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->shutdown_timeout;
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
 * sluice_scenario_is_range:
 * @self: a #SluiceScenario
 *
 * Whether the source is a range, `[source] count=N` (or no source key at
 * all): the integers 0..N-1, made one at a time as the source yields them,
 * so that a large count costs no memory up front. Otherwise the source
 * holds the items of `[source] values`.
 *
 * Returns: %TRUE for a range
 */
gboolean
sluice_scenario_is_range (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), FALSE);
  return self->values == NULL;
}

/**
 * sluice_scenario_get_n_items:
 * @self: a #SluiceScenario
 *
 * Returns: how many items the source yields (without a fault)
 */
guint
sluice_scenario_get_n_items (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->values != NULL ? self->values->len : self->count;
}

/**
 * sluice_scenario_get_item:
 * @self: a #SluiceScenario
 * @index: an item index, below sluice_scenario_get_n_items()
 *
 * The item the source yields at @index: an `int64` for a range or an
 * integer of `values`, else a string.
 *
 * Returns: (transfer full): the item
 */
GVariant *
sluice_scenario_get_item (SluiceScenario *self,
                          guint           index)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (index < sluice_scenario_get_n_items (self), NULL);

  if (self->values != NULL)
    return g_variant_ref (g_ptr_array_index (self->values, index));

  return g_variant_ref_sink (g_variant_new_int64 (index));
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
 * sluice_scenario_get_caller_delay:
 * @self: a #SluiceScenario
 *
 * Returns: `[run] caller-delay`: the seconds the caller spends with each
 *   result before it reads the next (a slow caller), or 0
 */
double
sluice_scenario_get_caller_delay (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->caller_delay;
}

/* The first [handler] key whose behaviour spends real time (block,
 * thread), or %NULL. */
char *
_sluice_scenario_real_time_key (SluiceScenario *self)
{
  GHashTableIter iter;
  gpointer index, behaviour;

  if (sluice_behaviour_needs_real_time (self->default_behaviour))
    return g_strdup ("default");

  g_hash_table_iter_init (&iter, self->item_behaviours);
  while (g_hash_table_iter_next (&iter, &index, &behaviour))
    if (sluice_behaviour_needs_real_time (behaviour))
      return g_strdup_printf ("item.%" G_GINT64_FORMAT, *(gint64 *) index);

  for (guint i = 0; self->mix != NULL && i < self->mix->len; i++)
    if (sluice_behaviour_needs_real_time (((SluiceMixEntry *) g_ptr_array_index (self->mix, i))->behaviour))
      return g_strdup ("mix");

  return NULL;
}

/**
 * sluice_scenario_needs_real_time:
 * @self: a #SluiceScenario
 *
 * Whether a behaviour of @self spends real time (`block`, `thread`):
 * then only a real or scaled clock runs it. Every other scenario is
 * simulated, and gives the same outcome on a virtual or paced clock.
 *
 * Returns: %TRUE if @self needs real time
 */
gboolean
sluice_scenario_needs_real_time (SluiceScenario *self)
{
  g_autofree char *key = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), FALSE);

  key = _sluice_scenario_real_time_key (self);
  return key != NULL;
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

/**
 * sluice_scenario_get_backoff:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] backoff` (%SLUICE_BACKOFF_NONE when unset)
 */
SluiceBackoff
sluice_scenario_get_backoff (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_BACKOFF_NONE);
  return self->backoff;
}

/**
 * sluice_scenario_get_backoff_base:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] base`, in seconds (0.1 when unset)
 */
double
sluice_scenario_get_backoff_base (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_SCENARIO_DEFAULT_BASE);
  return self->backoff_base;
}

/**
 * sluice_scenario_get_backoff_cap:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] cap`, in seconds (10 when unset)
 */
double
sluice_scenario_get_backoff_cap (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_SCENARIO_DEFAULT_CAP);
  return self->backoff_cap;
}

/**
 * sluice_scenario_get_jitter:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] jitter` (%SLUICE_JITTER_FULL when unset)
 */
SluiceJitter
sluice_scenario_get_jitter (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_JITTER_FULL);
  return self->jitter;
}

/**
 * sluice_scenario_get_retry_seed:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] seed`, the seed of the pool's random generator (0 when
 *   unset); not the mix's `[handler] seed`
 */
guint32
sluice_scenario_get_retry_seed (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->retry_seed;
}

/**
 * sluice_scenario_get_item_deadline:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] deadline`, in seconds, or 0 for no per-item deadline
 */
double
sluice_scenario_get_item_deadline (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->item_deadline;
}

/**
 * sluice_scenario_get_retry_budget:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] budget`, in tokens, or 0 for no retry budget
 */
double
sluice_scenario_get_retry_budget (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), 0);
  return self->retry_budget;
}

/**
 * sluice_scenario_get_retry_budget_ratio:
 * @self: a #SluiceScenario
 *
 * Returns: `[retry] budget-ratio`, the tokens a successful attempt gives
 *   back (0.1 when unset)
 */
double
sluice_scenario_get_retry_budget_ratio (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_SCENARIO_DEFAULT_RATIO);
  return self->retry_budget_ratio;
}

/**
 * sluice_scenario_has_retry_key:
 * @self: a #SluiceScenario
 * @key: a key of `[retry]`, such as `cap`
 *
 * Whether the scenario file gave @key (the getters give the default when
 * it did not); saving writes exactly these keys.
 *
 * Returns: %TRUE when `[retry] @key` was given
 */
gboolean
sluice_scenario_has_retry_key (SluiceScenario *self,
                               const char     *key)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  for (guint k = 0; k < SLUICE_RETRY_N_KEYS; k++)
    if (g_str_equal (key, _sluice_scenario_retry_keys[k]))
      return (self->retry_given & (1u << k)) != 0;

  return FALSE;
}

/**
 * sluice_scenario_get_snapshot_times:
 * @self: a #SluiceScenario
 * @n_times: (out): how many times there are
 *
 * Gives `[submit] snapshot-at`: when the runner takes a snapshot of the
 * run, in seconds from its start, in the order written (not sorted; a
 * time may come twice).
 *
 * Returns: (transfer none) (array length=n_times) (nullable): the times,
 *   or %NULL when there are none
 */
const double *
sluice_scenario_get_snapshot_times (SluiceScenario *self,
                                    guint          *n_times)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), NULL);
  g_return_val_if_fail (n_times != NULL, NULL);

  *n_times = self->snapshot_at != NULL ? self->snapshot_at->len : 0;
  return *n_times > 0 ? &g_array_index (self->snapshot_at, double, 0) : NULL;
}

/**
 * sluice_scenario_get_mode:
 * @self: a #SluiceScenario
 *
 * Returns: `[run] mode`: a stream run (the default) or a service run
 */
SluiceScenarioMode
sluice_scenario_get_mode (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), SLUICE_SCENARIO_MODE_STREAM);
  return self->mode;
}

/**
 * sluice_scenario_get_give_up:
 * @self: a #SluiceScenario
 * @job_index: a job index, in submission order from 0
 *
 * Returns: after how many seconds from its submission the submitter gives
 *   up on that job: `[submit] give-up.N`, else `give-up-after`; or -1 for
 *   never
 */
double
sluice_scenario_get_give_up (SluiceScenario *self,
                             gint64          job_index)
{
  const double *seconds;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), -1);

  seconds = g_hash_table_lookup (self->give_up, &job_index);
  return seconds != NULL ? *seconds : self->give_up_after;
}

/**
 * sluice_scenario_get_give_up_after:
 * @self: a #SluiceScenario
 *
 * Returns: `[submit] give-up-after` in seconds, or -1 when not set
 */
double
sluice_scenario_get_give_up_after (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), -1);
  return self->give_up_after;
}

/**
 * sluice_scenario_get_close_after_seconds:
 * @self: a #SluiceScenario
 *
 * Returns: `[submit] close-after-seconds`: when the runner closes a service
 *   run, in seconds from its start; or -1 to close it when the source ends
 */
double
sluice_scenario_get_close_after_seconds (SluiceScenario *self)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO (self), -1);
  return self->close_after_seconds;
}
