/* sluice-pool-options.c: reading a pool's options
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-error.h"
#include "sluice-pool-private.h"

/**
 * sluice_pool_get_handler:
 * @self: a #SluicePool
 *
 * Returns: (transfer none): the handler
 *
 * Since: 1.0
 */
SluiceHandler *
sluice_pool_get_handler (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);

  return self->handler;
}

/**
 * sluice_pool_get_clock:
 * @self: a #SluicePool
 *
 * Returns: (transfer none): the clock of the pool's timers
 *
 * Since: 1.0
 */
SluiceClock *
sluice_pool_get_clock (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);

  return self->clock;
}

/**
 * sluice_pool_get_workers:
 * @self: a #SluicePool
 *
 * Returns: the number of workers
 *
 * Since: 1.0
 */
gint
sluice_pool_get_workers (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->workers;
}

/**
 * sluice_pool_get_queue_size:
 * @self: a #SluicePool
 *
 * Returns: the capacity of the input channel
 *
 * Since: 1.0
 */
gint
sluice_pool_get_queue_size (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->queue_size;
}

/**
 * sluice_pool_get_item_timeout:
 * @self: a #SluicePool
 *
 * Returns: the seconds each attempt may run
 *
 * Since: 1.0
 */
double
sluice_pool_get_item_timeout (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->item_timeout;
}

/**
 * sluice_pool_get_max_retries:
 * @self: a #SluicePool
 *
 * Returns: how many retries an item gets at most
 *
 * Since: 1.0
 */
gint
sluice_pool_get_max_retries (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->max_retries;
}

/**
 * sluice_pool_get_keep_going:
 * @self: a #SluicePool
 *
 * Returns: whether a failed item leaves the pool running
 *
 * Since: 1.0
 */
gboolean
sluice_pool_get_keep_going (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), FALSE);

  return self->keep_going;
}

/**
 * sluice_pool_get_keep_errors:
 * @self: a #SluicePool
 *
 * Returns: whether a failed item's error is kept for the final error group
 *   (#SluicePool:keep-errors)
 *
 * Since: 1.0
 */
gboolean
sluice_pool_get_keep_errors (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), TRUE);

  return self->keep_errors;
}

/**
 * sluice_pool_get_retryable:
 * @self: a #SluicePool
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the type
 *   names of retryable errors
 *
 * Since: 1.0
 */
const char * const *
sluice_pool_get_retryable (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);

  return (const char * const *) self->retryable;
}

/**
 * sluice_pool_is_retryable:
 * @self: a #SluicePool
 * @error: an attempt's error
 *
 * Tells whether an attempt that failed with @error is worth another
 * attempt: its type name is in #SluicePool:retryable. Cancellation never
 * is.
 *
 * Returns: %TRUE if @error is retryable
 *
 * Since: 1.0
 */
gboolean
sluice_pool_is_retryable (SluicePool   *self,
                          const GError *error)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), FALSE);
  g_return_val_if_fail (error != NULL, FALSE);

  if (self->retryable == NULL ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  return g_strv_contains ((const char * const *) self->retryable,
                          sluice_error_type_name (error));
}

/**
 * sluice_pool_get_fatal:
 * @self: a #SluicePool
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the type
 *   names of fatal errors
 *
 * Since: 1.0
 */
const char * const *
sluice_pool_get_fatal (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);

  return (const char * const *) self->fatal;
}

/**
 * sluice_pool_is_fatal:
 * @self: a #SluicePool
 * @error: an attempt's error
 *
 * Tells whether an attempt that failed with @error stops the whole pool:
 * its type name is in #SluicePool:fatal. Cancellation never is.
 *
 * Returns: %TRUE if @error is fatal
 *
 * Since: 1.0
 */
gboolean
sluice_pool_is_fatal (SluicePool   *self,
                      const GError *error)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), FALSE);
  g_return_val_if_fail (error != NULL, FALSE);

  if (self->fatal == NULL ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  return g_strv_contains ((const char * const *) self->fatal, sluice_error_type_name (error));
}

/**
 * sluice_pool_get_shutdown_timeout:
 * @self: a #SluicePool
 *
 * Returns: the seconds a shutdown may take, or 0 for no limit
 *
 * Since: 1.0
 */
double
sluice_pool_get_shutdown_timeout (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->shutdown_timeout;
}

/**
 * sluice_pool_get_backoff:
 * @self: a #SluicePool
 *
 * Returns: whether and how a retry waits
 *
 * Since: 1.0
 */
SluiceBackoff
sluice_pool_get_backoff (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), SLUICE_BACKOFF_NONE);

  return self->retry_policy.backoff;
}

/**
 * sluice_pool_get_item_deadline:
 * @self: a #SluicePool
 *
 * Returns: the seconds each item has from its pull, or 0 for no deadline
 *
 * Since: 1.0
 */
double
sluice_pool_get_item_deadline (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->retry_policy.item_deadline;
}

/**
 * sluice_pool_get_retry_budget:
 * @self: a #SluicePool
 *
 * Returns: the tokens of the retry budget, or 0 for no budget
 *
 * Since: 1.0
 */
double
sluice_pool_get_retry_budget (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), 0);

  return self->retry_policy.budget;
}
