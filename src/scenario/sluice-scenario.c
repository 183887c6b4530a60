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
