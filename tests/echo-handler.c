/* echo-handler.c: a handler's body that answers each item with itself
 * (echo-handler.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "echo-handler.h"

static gboolean
finish_item (gpointer user_data)
{
  GTask *task = user_data;

  g_task_return_pointer (task, g_variant_ref (g_task_get_task_data (task)), (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* Ends @task, which takes over the handler's reference, with @attempt's
 * item after @delay_ms of the main context's (real) time, or at its next
 * idle turn when @delay_ms is 0. */
void
echo_item_later (SluiceAttempt *attempt,
                 GTask         *task,
                 guint          delay_ms)
{
  g_task_set_task_data (task, g_variant_ref (sluice_attempt_get_item (attempt)), (GDestroyNotify) g_variant_unref);
  if (delay_ms == 0)
    g_idle_add (finish_item, task);
  else
    g_timeout_add (delay_ms, finish_item, task);
}
