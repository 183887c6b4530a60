/* sluice-thread-handler.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-error.h"
#include "sluice-handler-private.h"
#include "sluice-thread-handler.h"

struct _SluiceThreadHandler
{
  GObject           parent_instance;
  GThreadPool      *threads;
  SluiceThreadFunc  func;
  gpointer          user_data;
  GDestroyNotify    destroy;
};

static void handler_iface_init (SluiceHandlerInterface *iface);

/**
 * SluiceThreadHandler:
 *
 * A #SluiceHandler that calls a #SluiceThreadFunc in a worker thread.
 *
 * The fix for a handler that blocks: run it in a thread. The handler owns
 * its own #GThreadPool rather than using GTask's shared one, which stalls
 * once ten of its threads block. A thread cannot be killed, so a cancelled
 * attempt is waited for like any other; the function should check its
 * cancellable where it can.
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceThreadHandler, sluice_thread_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, handler_iface_init))

static void
run_in_thread (gpointer data,
               gpointer pool_data)
{
  g_autoptr(GTask) task = data;
  SluiceThreadHandler *self = g_task_get_source_object (task);
  SluiceAttempt *attempt = g_task_get_task_data (task);
  GError *error = NULL;
  GVariant *result;

  result = self->func (sluice_attempt_get_item (attempt),
                       g_task_get_cancellable (task),
                       self->user_data,
                       &error);

  /* The function returns a full reference, maybe floating (C's
   * g_variant_new ()), maybe not (a binding's): take it either way. */
  if (result != NULL)
    g_task_return_pointer (task, g_variant_take_ref (result), (GDestroyNotify) g_variant_unref);
  else if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_NO_RESULT,
                             "handler returned neither a result nor an error");
}

static void
sluice_thread_handler_handle_async (SluiceHandler       *handler,
                                    SluiceAttempt       *attempt,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  SluiceThreadHandler *self = SLUICE_THREAD_HANDLER (handler);
  GTask *task = _sluice_handler_task_new (handler, attempt, cancellable, callback, user_data,
                                          sluice_thread_handler_handle_async);

  g_thread_pool_push (self->threads, task, NULL);
}

static void
handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = sluice_thread_handler_handle_async;
}

static void
sluice_thread_handler_finalize (GObject *object)
{
  SluiceThreadHandler *self = SLUICE_THREAD_HANDLER (object);

  /* Every queued job holds a reference on us through its task, so no job is
   * left; and finalize may run in one of our own threads, where waiting for
   * the pool would deadlock. */
  g_thread_pool_free (self->threads, FALSE, FALSE);

  if (self->destroy != NULL)
    self->destroy (self->user_data);

  G_OBJECT_CLASS (sluice_thread_handler_parent_class)->finalize (object);
}

static void
sluice_thread_handler_class_init (SluiceThreadHandlerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_thread_handler_finalize;
}

static void
sluice_thread_handler_init (SluiceThreadHandler *self)
{
}

/**
 * sluice_thread_handler_new:
 * @func: (scope notified) (closure user_data) (destroy destroy): runs one
 *   attempt in a worker thread
 * @user_data: data for @func, shared by all threads
 * @destroy: (nullable): frees @user_data with the handler
 * @max_threads: how many attempts may run at once; 0 for the number of
 *   processors
 *
 * Makes a handler that runs a blocking function in a thread pool of its own.
 *
 * Returns: (transfer full): a new #SluiceHandler
 *
 * Since: 1.0
 */
SluiceHandler *
sluice_thread_handler_new (SluiceThreadFunc func,
                           gpointer         user_data,
                           GDestroyNotify   destroy,
                           guint            max_threads)
{
  SluiceThreadHandler *self;

  g_return_val_if_fail (func != NULL, NULL);

  if (max_threads == 0)
    max_threads = g_get_num_processors ();

  self = g_object_new (SLUICE_TYPE_THREAD_HANDLER, NULL);
  self->func = func;
  self->user_data = user_data;
  self->destroy = destroy;
  self->threads = g_thread_pool_new (run_in_thread, self, (gint) max_threads, FALSE, NULL);

  return SLUICE_HANDLER (self);
}
