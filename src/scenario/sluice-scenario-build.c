/* sluice-scenario-build.c: what a scenario builds for a run: its clock,
 * fault-injecting handler, source and pool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-private.h"

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
