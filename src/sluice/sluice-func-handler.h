/* sluice-func-handler.h: a handler made from one C function
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include "sluice-handler.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceHandlerFunc:
 * @attempt: the attempt; its item, number and cancellable
 * @task: (transfer full): complete it once, with
 *   sluice_func_handler_return_result() (or, in C, g_task_return_pointer
 *   (task, result, (GDestroyNotify) g_variant_unref)) or
 *   g_task_return_error(), then drop the reference
 * @user_data: the data given to sluice_func_handler_new()
 *
 * Starts one attempt. The task's cancellable is the attempt's.
 *
 * Since: 1.0
 */
typedef void (*SluiceHandlerFunc) (SluiceAttempt *attempt,
                                   GTask         *task,
                                   gpointer       user_data);

#define SLUICE_TYPE_FUNC_HANDLER (sluice_func_handler_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceFuncHandler, sluice_func_handler, SLUICE, FUNC_HANDLER, GObject)

SLUICE_AVAILABLE_IN_1_0
SluiceHandler *sluice_func_handler_new           (SluiceHandlerFunc  func,
                                                  gpointer           user_data,
                                                  GDestroyNotify     destroy);
SLUICE_AVAILABLE_IN_1_0
void           sluice_func_handler_return_result (GTask             *task,
                                                  GVariant          *result);

G_END_DECLS
