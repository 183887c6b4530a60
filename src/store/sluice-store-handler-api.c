/* sluice-store-handler-api.c: SluiceStoreHandler's public API: making
 * one, its settings, and the retry policy's delay
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-handler-private.h"
#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include "sluice-store-source-private.h"

/* ---- public API --------------------------------------------------------- */

/**
 * sluice_store_outcome_to_string:
 * @outcome: an outcome
 *
 * Returns: its name: `succeeded`, `retry`, `dead`, `lease-lost`,
 *   `abandoned` or `store-error`; %NULL for a value that is none
 */
const char *
sluice_store_outcome_to_string (SluiceStoreOutcome outcome)
{
  GEnumClass *klass = g_type_class_ref (SLUICE_TYPE_STORE_OUTCOME);
  GEnumValue *value = g_enum_get_value (klass, outcome);

  g_type_class_unref (klass);
  return value != NULL ? value->value_nick : NULL;
}

/**
 * sluice_store_handler_new:
 * @source: the source whose claims it works on
 * @inner: the handler that does the work
 * @heartbeat: seconds between two renewals of a lease, less than half the
 *   source's lease
 * @error: set to a %SLUICE_ERROR_INVALID_CONFIG error that names the
 *   option when one is out of range
 *
 * Makes a handler with the default retry policy (see the properties); use
 * g_initable_new() to set the others.
 *
 * Returns: (transfer full) (nullable): the handler, or %NULL with @error set
 */
SluiceStoreHandler *
sluice_store_handler_new (SluiceStoreSource  *source,
                          SluiceHandler      *inner,
                          double              heartbeat,
                          GError            **error)
{
  g_return_val_if_fail (SLUICE_IS_STORE_SOURCE (source), NULL);
  g_return_val_if_fail (SLUICE_IS_HANDLER (inner), NULL);

  return g_initable_new (SLUICE_TYPE_STORE_HANDLER, NULL, error,
                         "source", source,
                         "inner", inner,
                         "heartbeat", heartbeat,
                         NULL);
}

/**
 * sluice_store_handler_get_source:
 * @self: a #SluiceStoreHandler
 *
 * Returns: (transfer none): the source whose claims it works on
 */
SluiceStoreSource *
sluice_store_handler_get_source (SluiceStoreHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_HANDLER (self), NULL);
  return self->source;
}

/**
 * sluice_store_handler_get_inner:
 * @self: a #SluiceStoreHandler
 *
 * Returns: (transfer none): the handler that does the work
 */
SluiceHandler *
sluice_store_handler_get_inner (SluiceStoreHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_HANDLER (self), NULL);
  return self->inner;
}

/**
 * sluice_store_handler_get_heartbeat:
 * @self: a #SluiceStoreHandler
 *
 * Returns: the seconds between two renewals of a lease
 */
double
sluice_store_handler_get_heartbeat (SluiceStoreHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_HANDLER (self), 0);
  return self->heartbeat;
}

/**
 * sluice_store_handler_get_retryable:
 * @self: a #SluiceStoreHandler
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the type
 *   names of the failures it retries
 */
const char * const *
sluice_store_handler_get_retryable (SluiceStoreHandler *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_HANDLER (self), NULL);
  return (const char * const *) self->retryable;
}

static guint32
next_random (SluiceStoreHandler *self)
{
  if (self->random_func != NULL)
    return self->random_func (self->random_data);
  return g_rand_int (self->rand);
}

/**
 * sluice_store_handler_retry_delay:
 * @self: a #SluiceStoreHandler
 * @attempt: the attempt that failed, from 1
 *
 * Draws the wait before the retry that follows attempt @attempt: 0 without
 * a backoff; min(backoff-cap, backoff-base · 2^(@attempt − 1)) without
 * jitter; a uniform draw below it with full jitter (one random number).
 *
 * Returns: the wait in µs
 */
gint64
sluice_store_handler_retry_delay (SluiceStoreHandler *self,
                                  guint               attempt)
{
  gint64 bound;

  g_return_val_if_fail (SLUICE_IS_STORE_HANDLER (self), 0);

  if (self->backoff == SLUICE_BACKOFF_NONE)
    return 0;
  bound = sluice_backoff_bound_us (self->backoff_base, self->backoff_cap, MAX (attempt, 1));
  if (self->jitter == SLUICE_JITTER_NONE)
    return bound;
  return sluice_backoff_jitter_us (bound, next_random (self));
}

/**
 * sluice_store_handler_set_random_func:
 * @self: a #SluiceStoreHandler
 * @func: (nullable): the jitter's source of 32-bit numbers, or %NULL for
 *   MT19937 seeded with #SluiceStoreHandler:seed
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Replaces the jitter's random numbers, as sluice_pool_set_random_func()
 * does the pool's.
 */
void
sluice_store_handler_set_random_func (SluiceStoreHandler *self,
                                      SluiceRandomFunc    func,
                                      gpointer            user_data,
                                      GDestroyNotify      destroy)
{
  g_return_if_fail (SLUICE_IS_STORE_HANDLER (self));

  if (self->random_destroy != NULL)
    self->random_destroy (self->random_data);
  self->random_func = func;
  self->random_data = user_data;
  self->random_destroy = destroy;
}

void
_sluice_store_handler_set_heartbeat_enabled (SluiceStoreHandler *self,
                                             gboolean            enabled)
{
  g_return_if_fail (SLUICE_IS_STORE_HANDLER (self));
  self->heartbeat_enabled = !!enabled;
}
