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
 * a `.pool` key file (see `scenario-format.md`), validated as a whole, and
 * builds the clock, pool, source and handler of a run.
 *
 * Every error names the file, the group and key (with the line when it is
 * known, or the `--set` that gave the value) and the expected form.
 *
 * This file holds the object, its getters and the builders of a run;
 * sluice-scenario-loader.c reads a scenario (with the value readers of
 * sluice-scenario-reader.c) and sluice-scenario-writer.c saves one.
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

  source = self->values != NULL ? sluice_fault_source_new (clock, self->values, self->interval)
                                : sluice_fault_source_new_range (clock, self->count, self->interval);
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
 * Builds a pool with the scenario's options, the `[retry]` policy, the
 * fatal error types and the shutdown timeout included. No metrics callback is set.
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
                         "fatal", self->fatal,
                         "shutdown-timeout", self->shutdown_timeout,
                         "backoff", self->backoff,
                         "backoff-base", self->backoff_base,
                         "backoff-cap", self->backoff_cap,
                         "jitter", self->jitter,
                         "seed", (guint) self->retry_seed,
                         "item-deadline", self->item_deadline,
                         "retry-budget", self->retry_budget,
                         "retry-budget-ratio", self->retry_budget_ratio,
                         NULL);
}

/* ---- comparing --------------------------------------------------------- */

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

/* The [scenario] texts as written: the same keys with the same raw values. */
static gboolean
texts_equal (GKeyFile *a,
             GKeyFile *b)
{
  g_auto(GStrv) keys = NULL;
  g_auto(GStrv) other_keys = NULL;

  if (a == NULL || b == NULL)
    return a == b;

  keys = g_key_file_get_keys (a, "scenario", NULL, NULL);
  other_keys = g_key_file_get_keys (b, "scenario", NULL, NULL);
  if (keys == NULL || other_keys == NULL)
    return keys == other_keys;
  if (!g_strv_equal ((const char * const *) keys, (const char * const *) other_keys))
    return FALSE;

  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *x = g_key_file_get_value (a, "scenario", keys[i], NULL);
      g_autofree char *y = g_key_file_get_value (b, "scenario", keys[i], NULL);

      if (g_strcmp0 (x, y) != 0)
        return FALSE;
    }

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
    what = "[scenario] texts";
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
