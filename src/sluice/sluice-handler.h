/* sluice-handler.h: what the pool calls for each attempt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include "sluice-attempt.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_HANDLER (sluice_handler_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_INTERFACE (SluiceHandler, sluice_handler, SLUICE, HANDLER, GObject)

/**
 * SluiceHandlerInterface:
 * @handle_async: start one attempt on sluice_attempt_get_item(); finish it
 *   when done or when @cancellable is cancelled (a handler may ignore
 *   cancellation, and the pool then waits for it)
 * @handle_finish: return the result (transfer full), or %NULL and an error;
 *   the default, for a handler that completes a #GTask of its own (source
 *   object the handler) with g_task_return_pointer() of a #GVariant, is
 *   g_task_propagate_pointer()
 *
 * The interface of everything the pool can call for an item.
 *
 * Since: 1.0
 */
struct _SluiceHandlerInterface
{
  GTypeInterface g_iface;

  void      (*handle_async)  (SluiceHandler        *self,
                              SluiceAttempt        *attempt,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data);
  GVariant *(*handle_finish) (SluiceHandler        *self,
                              GAsyncResult         *result,
                              GError              **error);
};

SLUICE_AVAILABLE_IN_1_0
void      sluice_handler_handle_async  (SluiceHandler        *self,
                                        SluiceAttempt        *attempt,
                                        GCancellable         *cancellable,
                                        GAsyncReadyCallback   callback,
                                        gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
GVariant *sluice_handler_handle_finish (SluiceHandler        *self,
                                        GAsyncResult         *result,
                                        GError              **error);

G_END_DECLS
