/* sluice-func-handler.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-func-handler.h"
#include "sluice-handler-private.h"

struct _SluiceFuncHandler
{
  GObject            parent_instance;
  SluiceHandlerFunc  func;
  gpointer           user_data;
  GDestroyNotify     destroy;
};

static void handler_iface_init (SluiceHandlerInterface *iface);

/**
 * SluiceFuncHandler:
 *
 * A #SluiceHandler that calls a #SluiceHandlerFunc for each attempt, which
 * completes the attempt's #GTask when it is done.
 *
 * The quickest way to give a pool its work: a function that receives the
 * attempt and a #GTask, and completes the task when the attempt is done.
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceFuncHandler, sluice_func_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, handler_iface_init))

static void
sluice_func_handler_handle_async (SluiceHandler       *handler,
                                  SluiceAttempt       *attempt,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  SluiceFuncHandler *self = SLUICE_FUNC_HANDLER (handler);
  GTask *task = _sluice_handler_task_new (handler, attempt, cancellable, callback, user_data,
                                          sluice_func_handler_handle_async);

  self->func (attempt, task, self->user_data);
}

static void
handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = sluice_func_handler_handle_async;
}

static void
sluice_func_handler_finalize (GObject *object)
{
  SluiceFuncHandler *self = SLUICE_FUNC_HANDLER (object);

  if (self->destroy != NULL)
    self->destroy (self->user_data);

  G_OBJECT_CLASS (sluice_func_handler_parent_class)->finalize (object);
}

static void
sluice_func_handler_class_init (SluiceFuncHandlerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_func_handler_finalize;
}

static void
sluice_func_handler_init (SluiceFuncHandler *self)
{
}

/**
 * sluice_func_handler_new:
 * @func: (scope notified) (closure user_data) (destroy destroy): starts one
 *   attempt
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data with the handler
 *
 * Makes a handler from a function.
 *
 * Returns: (transfer full): a new #SluiceHandler
 *
 * Since: 1.0
 */
SluiceHandler *
sluice_func_handler_new (SluiceHandlerFunc func,
                         gpointer          user_data,
                         GDestroyNotify    destroy)
{
  SluiceFuncHandler *self;

  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (SLUICE_TYPE_FUNC_HANDLER, NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;

  return SLUICE_HANDLER (self);
}

/**
 * sluice_func_handler_return_result:
 * @task: the task a #SluiceHandlerFunc was given
 * @result: the attempt's result; a floating reference is sunk
 *
 * Completes an attempt with @result: the same as
 * g_task_return_pointer (task, g_variant_ref_sink (result),
 * (GDestroyNotify) g_variant_unref), in one call that bindings can make
 * (they cannot pass a pointer with its destroy function). An attempt that
 * fails is completed with g_task_return_error().
 *
 * Since: 1.0
 */
void
sluice_func_handler_return_result (GTask    *task,
                                   GVariant *result)
{
  g_return_if_fail (G_IS_TASK (task));
  g_return_if_fail (g_task_get_source_tag (task) == sluice_func_handler_handle_async);
  g_return_if_fail (result != NULL);

  g_task_return_pointer (task, g_variant_ref_sink (result), (GDestroyNotify) g_variant_unref);
}
