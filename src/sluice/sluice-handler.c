/* sluice-handler.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-handler.h"

/**
 * SluiceHandler:
 *
 * The interface of what handles an item: one asynchronous call per
 * attempt.
 *
 * What the pool calls for each attempt. A handler runs on the pool's main
 * context, finishes when it is done, and should finish promptly with
 * %G_IO_ERROR_CANCELLED when the attempt's cancellable is cancelled. One
 * that does not is waited for: the pool never abandons an attempt.
 *
 * Since: 1.0
 */
G_DEFINE_INTERFACE (SluiceHandler, sluice_handler, G_TYPE_OBJECT)

static void
sluice_handler_default_init (SluiceHandlerInterface *iface)
{
}

/**
 * sluice_handler_handle_async:
 * @self: a #SluiceHandler
 * @attempt: the attempt to run
 * @cancellable: (nullable): the attempt's cancellable
 * @callback: called once when the attempt ends
 * @user_data: data for @callback
 *
 * Starts one attempt on sluice_attempt_get_item() of @attempt.
 *
 * Since: 1.0
 */
void
sluice_handler_handle_async (SluiceHandler       *self,
                             SluiceAttempt       *attempt,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (SLUICE_IS_HANDLER (self));
  g_return_if_fail (SLUICE_IS_ATTEMPT (attempt));

  SLUICE_HANDLER_GET_IFACE (self)->handle_async (self, attempt, cancellable, callback, user_data);
}

/**
 * sluice_handler_handle_finish:
 * @self: a #SluiceHandler
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes an attempt started with sluice_handler_handle_async().
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 *
 * Since: 1.0
 */
GVariant *
sluice_handler_handle_finish (SluiceHandler  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_HANDLER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return SLUICE_HANDLER_GET_IFACE (self)->handle_finish (self, result, error);
}
