/* sluice-handler.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-handler-private.h"

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

/* What nearly every handler's finish is: the attempt ran as a #GTask whose
 * source object is the handler and which returns a #GVariant it owns, so
 * an implementation need only write handle_async. */
static GVariant *
sluice_handler_real_handle_finish (SluiceHandler  *self,
                                   GAsyncResult   *result,
                                   GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sluice_handler_default_init (SluiceHandlerInterface *iface)
{
  iface->handle_finish = sluice_handler_real_handle_finish;
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

/*
 * _sluice_handler_task_new:
 * @source_tag: the handler's handle_async, which its completion functions
 *   check
 *
 * The task of one attempt, as the func and the thread handler run it:
 * at the attempt's priority, holding the attempt as its task data, and
 * not checking @cancellable, because the pool decides what a cancelled
 * attempt means and the handler's own result must reach it unchanged.
 *
 * Returns: (transfer full): the task, completed by the handler
 */
GTask *
_sluice_handler_task_new (SluiceHandler       *self,
                          SluiceAttempt       *attempt,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data,
                          gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  /* The function, not GLib's macro, which also copies the tag's name into
   * the task: a string allocated for every attempt. */
  (g_task_set_source_tag) (task, source_tag);
  g_task_set_priority (task, sluice_attempt_get_priority (attempt));
  g_task_set_task_data (task, g_object_ref (attempt), g_object_unref);
  g_task_set_check_cancellable (task, FALSE);

  return task;
}
