/* sluice-run-results.c: the caller's side of a run: the results it reads with
 * sluice_run_next_async(), the end of the iteration, and closing early
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-error.h"
#include "sluice-run-private.h"

/* Caller tasks {{{ */

/* The caller's next and close are GTasks whose callback the run invokes
 * itself. GTask completes a task at once or from an idle depending on
 * whether a microsecond of real time passed since the task was made; on
 * the virtual clock that made two runs of one scenario differ in where the
 * caller's reaction (a stop after K results, say) landed. Here a result
 * for a waiting next is handed over at once, in the flow of the worker
 * that produced it, and every other completion (whatever an _async call
 * could complete inside itself) goes through one idle of the run, in
 * order. */

typedef struct
{
  GAsyncReadyCallback callback;
  gpointer            user_data;
} CallerCallback;

GTask *
_sluice_run_caller_task_new (SluiceRun           *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data,
                             gpointer             source_tag)
{
  GTask *task = g_task_new (self, cancellable, NULL, NULL);
  CallerCallback *caller = g_new (CallerCallback, 1);

  caller->callback = callback;
  caller->user_data = user_data;
  g_task_set_task_data (task, caller, g_free);
  g_task_set_source_tag (task, source_tag);

  return task;
}

/* Takes @task, which has its return value. */
void
_sluice_run_complete_now (GTask *task)
{
  CallerCallback *caller = g_task_get_task_data (task);

  if (caller->callback != NULL)
    caller->callback (g_task_get_source_object (task), G_ASYNC_RESULT (task), caller->user_data);
  g_object_unref (task);
}

static gboolean
flush_completions (gpointer user_data)
{
  SluiceRun *self = user_data;
  GTask *task;

  self->completion_source = NULL;
  while ((task = g_queue_pop_head (&self->completions)) != NULL)
    {
      /* Its caller sees the batch now: later results wait for the next. */
      if (task == self->filling_task)
        {
          self->filling_task = NULL;
          self->filling_batch = NULL;
        }
      _sluice_run_complete_now (task);
    }

  return G_SOURCE_REMOVE;
}

/* Takes @task, which has its return value, and completes it from the
 * run's idle. */
void
_sluice_run_complete_later (SluiceRun *self,
                            GTask     *task)
{
  g_queue_push_tail (&self->completions, task);
  if (self->completion_source != NULL)
    return;

  self->completion_source = g_idle_source_new ();
  g_source_set_priority (self->completion_source, self->priority);
  g_source_set_callback (self->completion_source, flush_completions,
                         g_object_ref (self), g_object_unref);
  g_source_set_static_name (self->completion_source, "[sluice] complete caller");
  g_source_attach (self->completion_source, self->context);
  g_source_unref (self->completion_source);
}

/* }}} */
/* Results {{{ */

static void
disconnect_next_cancellable (SluiceRun *self)
{
  if (self->next_cancel_id != 0)
    g_cancellable_disconnect (self->next_cancellable, self->next_cancel_id);
  self->next_cancel_id = 0;
  g_clear_object (&self->next_cancellable);
}

static void on_next_cancelled (GCancellable *cancellable,
                               gpointer      user_data);

/* The caller's cancellable stays connected while the same one comes back
 * with every call: connecting and disconnecting for each result cost more
 * than the rest of handing it over. */
static void
watch_next_cancellable (SluiceRun    *self,
                        GCancellable *cancellable)
{
  if (cancellable == self->next_cancellable)
    return;

  disconnect_next_cancellable (self);
  if (cancellable == NULL)
    return;

  self->next_cancellable = g_object_ref (cancellable);
  self->next_cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_next_cancelled),
                                                self, NULL);
}

/* The caller takes @result now. */
static void
yield_result (SluiceRun *self,
              GVariant  *result)
{
  SluiceEvent event = SLUICE_RUN_EVENT_INIT (SLUICE_EVENT_RESULT);

  self->stats.yielded++;
  if (_sluice_run_wants_events (self))
    {
      event.value = result;
      _sluice_run_emit (self, &event);
    }
}

static void
return_result (SluiceRun *self,
               GTask     *task,
               GVariant  *result)
{
  yield_result (self, result);
  _sluice_run_step_end (self);
  g_task_return_pointer (task, result, (GDestroyNotify) g_variant_unref);
}

static gboolean
batch_is_full (SluiceRun *self,
               GPtrArray *batch)
{
  return self->batch_max > 0 && batch->len >= self->batch_max;
}

static void
add_to_batch (SluiceRun *self,
              GPtrArray *batch,
              GVariant  *result)
{
  yield_result (self, result);
  g_ptr_array_add (batch, result);
}

/* The results buffered so far, at most the batch's limit, or %NULL if
 * none is. */
static GPtrArray *
take_buffered_batch (SluiceRun *self)
{
  GPtrArray *batch = NULL;
  GVariant *result;

  /* A step: the caller takes them all at once. */
  _sluice_run_step_begin (self);
  while ((batch == NULL || !batch_is_full (self, batch)) &&
         (result = sluice_channel_try_get (self->results, NULL)) != NULL)
    {
      if (batch == NULL)
        batch = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
      add_to_batch (self, batch, result);
    }
  _sluice_run_step_end (self);

  return batch;
}

static GError *
make_group_error (SluiceRun *self)
{
  GString *message = g_string_new (NULL);
  g_autofree char *text = NULL;
  guint i;

  g_string_append_printf (message,
                          self->errors->len == 1 ? "%u error recorded" : "%u errors recorded",
                          self->errors->len);
  for (i = 0; i < self->errors->len; i++)
    {
      g_autofree char *repr = sluice_error_repr (g_ptr_array_index (self->errors, i));
      g_string_append_printf (message, "%s%s", i == 0 ? ": " : "; ", repr);
    }

  return g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_GROUP,
                              (text = g_string_free (message, FALSE)));
}

/* The end of the iteration, reported once; later calls just give NULL. */
static void
return_end (SluiceRun *self,
            GTask     *task)
{
  gboolean first = !self->end_reported;

  self->end_reported = TRUE;

  if (first && self->cancelled)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "run was cancelled");
  else if (first && self->errors->len > 0)
    g_task_return_error (task, make_group_error (self));
  else
    g_task_return_pointer (task, NULL, NULL);
}

/* A waiting batch takes @result and completes from the run's idle, so
 * that every result that comes before that idle joins it: one GTask per
 * batch. */
static void
start_batch (SluiceRun *self,
             GTask     *task,
             GVariant  *result)
{
  GPtrArray *batch = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);

  add_to_batch (self, batch, result);
  _sluice_run_step_end (self);
  g_task_return_pointer (task, batch, (GDestroyNotify) g_ptr_array_unref);
  if (!batch_is_full (self, batch))
    {
      /* Still filled until flush_completions() hands it over. */
      self->filling_task = task;
      self->filling_batch = batch;
    }
  _sluice_run_complete_later (self, task);
}

void
_sluice_run_deliver_result (SluiceRun *self,
                            GVariant  *result)
{
  GTask *task;

  if (self->filling_batch != NULL && !self->halted)
    {
      add_to_batch (self, self->filling_batch, result);
      if (batch_is_full (self, self->filling_batch))
        self->filling_batch = NULL;
      return;
    }

  if (self->pending_next == NULL || self->halted)
    {
      /* Unbounded: this never waits and never fails while the run is on. */
      if (!sluice_channel_try_put (self->results, result, NULL))
        g_variant_unref (result);
      return;
    }

  task = g_steal_pointer (&self->pending_next);
  if (self->pending_is_batch)
    {
      start_batch (self, task, result);
      return;
    }

  /* One at a time: handed over at once, in the flow of the worker that
   * finished it, so that the caller's reaction lands right here. */
  return_result (self, task, result);
  _sluice_run_complete_now (task);
}

/* Completes the pending next and every close once the driver finished. */
void
_sluice_run_report_end (SluiceRun *self)
{
  GTask *next;
  GTask *close;

  disconnect_next_cancellable (self);
  if (self->pending_next != NULL)
    {
      next = g_steal_pointer (&self->pending_next);
      return_end (self, next);
      _sluice_run_complete_later (self, next);
    }

  while ((close = g_queue_pop_head (&self->close_tasks)) != NULL)
    {
      GCancellable *cancellable = g_task_get_cancellable (close);

      self->end_reported = TRUE;
      /* The seed's aclose() re-raises a cancellation that came while it
       * waited, once the wait is over. */
      if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
        g_task_return_new_error (close, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 "the run was cancelled while it closed");
      else
        g_task_return_boolean (close, TRUE);
      _sluice_run_complete_later (self, close);
    }
}

/* }}} */
/* Public API {{{ */

static gboolean
cancel_from_idle (gpointer user_data)
{
  _sluice_run_cancel (SLUICE_RUN (user_data));
  return G_SOURCE_REMOVE;
}

/* May run in any thread, and synchronously inside g_cancellable_cancel():
 * the driver is cancelled from the run's own context, later, so that the
 * pending next can disconnect from the cancellable safely. */
static void
on_next_cancelled (GCancellable *cancellable,
                   gpointer      user_data)
{
  SluiceRun *self = user_data;
  g_autoptr(GSource) idle = g_idle_source_new ();

  g_source_set_priority (idle, self->priority);
  g_source_set_callback (idle, cancel_from_idle, g_object_ref (self), g_object_unref);
  g_source_set_static_name (idle, "[sluice] cancel run");
  g_source_attach (idle, self->context);
}

/* What next and next-batch share: the first call starts the run; a call
 * answers from the buffered results or the end, or waits. Gives %TRUE
 * when @task waits. */
static gboolean
begin_next (SluiceRun    *self,
            GTask        *task,
            gboolean      batch,
            guint         batch_max,
            GCancellable *cancellable)
{
  if (self->pending_next != NULL || self->filling_task != NULL)
    {
      g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_PENDING,
                               "another next is already pending");
      _sluice_run_complete_later (self, task);
      return FALSE;
    }

  self->pending_is_batch = batch;
  self->batch_max = batch_max;

  if (self->state == RUN_IDLE)
    {
      if (cancellable != NULL && g_cancellable_is_cancelled (cancellable))
        {
          self->state = RUN_FINISHED;
          self->cancelled = TRUE;
          return_end (self, task);
          _sluice_run_complete_later (self, task);
          return FALSE;
        }
      _sluice_run_start (self);
    }

  if (!self->cancelled && sluice_channel_get_length (self->results) > 0)
    {
      if (self->pending_is_batch)
        g_task_return_pointer (task, take_buffered_batch (self), (GDestroyNotify) g_ptr_array_unref);
      else
        return_result (self, task, sluice_channel_try_get (self->results, NULL));
      _sluice_run_complete_later (self, task);
      return FALSE;
    }

  if (self->state == RUN_FINISHED)
    {
      return_end (self, task);
      _sluice_run_complete_later (self, task);
      return FALSE;
    }

  self->pending_next = task;
  watch_next_cancellable (self, cancellable);
  return TRUE;
}

/**
 * sluice_run_next_async:
 * @self: a #SluiceRun
 * @cancellable: (nullable): cancels the whole run, not just this call
 * @callback: called with the next result or the end
 * @user_data: data for @callback
 *
 * Asks for the next result, in the order results finish. The first call
 * starts the run. Only one call may be pending at a time.
 *
 * Unlike most GIO calls, cancelling @cancellable does not abandon just this
 * call: it cancels the whole run, as cancelling the task that iterates the
 * seed's `run()` does — the same as sluice_run_cancel(). The call then
 * completes with %G_IO_ERROR_CANCELLED once every operation of the run has
 * finished; cancelling again does not cut that wait short.
 *
 * Since: 1.0
 */
void
sluice_run_next_async (SluiceRun           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SLUICE_IS_RUN (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = _sluice_run_caller_task_new (self, NULL, callback, user_data, sluice_run_next_async);
  begin_next (self, task, FALSE, 0, cancellable);
}

/**
 * sluice_run_next_batch_async:
 * @self: a #SluiceRun
 * @max_results: the most results to take, or 0 for no limit
 * @cancellable: (nullable): cancels the whole run, not just this call, as
 *   for sluice_run_next_async()
 * @callback: called with the next results or the end
 * @user_data: data for @callback
 *
 * Asks for the next results, in the order they finish, as one batch: what
 * is ready now, or, if nothing is, the first result to come together with
 * every other result that finishes before the run's main context turns
 * once more. One call and one #GTask per batch instead of per result, for
 * callers that read many results and do not react to each one at once.
 *
 * A caller that must react to a particular result before anything else
 * happens (request a stop after K results, say) reads with
 * sluice_run_next_async(), which hands each result over the moment it
 * finishes. Both may be used on one run, one call pending at a time. The
 * first call starts the run; cancelling @cancellable cancels the run, as
 * with sluice_run_next_async().
 *
 * Since: 1.0
 */
void
sluice_run_next_batch_async (SluiceRun           *self,
                             guint                max_results,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SLUICE_IS_RUN (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = _sluice_run_caller_task_new (self, NULL, callback, user_data, sluice_run_next_batch_async);
  begin_next (self, task, TRUE, max_results, cancellable);
}

/**
 * sluice_run_next_batch_finish:
 * @self: a #SluiceRun
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_run_next_batch_async(). At the end of the run it
 * returns %NULL, with the same error or none as sluice_run_next_finish().
 * A batch is never empty, so a binding that hands %NULL over as an empty
 * list (PyGObject does) still tells the end apart.
 *
 * Returns: (transfer container) (element-type GVariant) (nullable): the
 *   results, at least one, in the order they finished, or %NULL at the end
 *
 * Since: 1.0
 */
GPtrArray *
sluice_run_next_batch_finish (SluiceRun     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == sluice_run_next_batch_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sluice_run_cancel:
 * @self: a #SluiceRun
 *
 * Cancels the run, like cancelling the cancellable of a pending
 * sluice_run_next_async(): queued items are dropped, running attempts are
 * stopped like late ones (cancel, then up to three rounds, then a wait) and
 * every backoff is cancelled. The run still waits for every operation it
 * started; then a pending or later sluice_run_next_async() reports
 * %G_IO_ERROR_CANCELLED. Cancelling a run that has not started ends it at
 * once; cancelling an ended run, or again, does nothing. Call it from the
 * run's main context.
 *
 * Since: 1.0
 */
void
sluice_run_cancel (SluiceRun *self)
{
  g_return_if_fail (SLUICE_IS_RUN (self));

  if (self->state == RUN_IDLE)
    {
      self->state = RUN_FINISHED;
      self->cancelled = TRUE;
      return;
    }

  _sluice_run_cancel (self);
}

/**
 * sluice_run_next_finish:
 * @self: a #SluiceRun
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_run_next_async(). At the end of the run it returns
 * %NULL: without an error if nothing failed, with %SLUICE_ERROR_GROUP if
 * errors were recorded (see sluice_run_get_errors()), or with
 * %G_IO_ERROR_CANCELLED if the caller cancelled the run. After that it
 * returns %NULL without an error.
 *
 * Returns: (transfer full) (nullable): the next result, or %NULL
 *
 * Since: 1.0
 */
GVariant *
sluice_run_next_finish (SluiceRun     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sluice_run_close_async:
 * @self: a #SluiceRun
 * @cancellable: (nullable): cancelling it does not cut the wait short, but
 *   makes the close report %G_IO_ERROR_CANCELLED once the wait is over
 * @callback: called when the run has ended
 * @user_data: data for @callback
 *
 * Closes the run early, like aclose() on the seed's generator: cancels the
 * driver, waits for every operation of the run, and completes without an
 * error. If @cancellable is cancelled before the run has ended (the caller
 * was cancelled while it closed), the close still waits for every
 * operation, then fails with %G_IO_ERROR_CANCELLED. Errors recorded so far
 * stay in sluice_run_get_errors(). Closing an ended run does nothing.
 *
 * Since: 1.0
 */
void
sluice_run_close_async (SluiceRun           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SLUICE_IS_RUN (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = _sluice_run_caller_task_new (self, cancellable, callback, user_data, sluice_run_close_async);
  /* The close reports the cancellation itself, and only after the wait. */
  g_task_set_check_cancellable (task, FALSE);

  switch (self->state)
    {
    case RUN_IDLE:
      self->state = RUN_FINISHED;
      self->end_reported = TRUE;
      G_GNUC_FALLTHROUGH;
    case RUN_FINISHED:
      g_task_return_boolean (task, TRUE);
      _sluice_run_complete_later (self, task);
      break;
    case RUN_ACTIVE:
    default:
      g_queue_push_tail (&self->close_tasks, task);
      /* A stream's close is the seed's aclose(): a cancel. A service's is
       * its graceful exit. */
      if (self->service)
        _sluice_run_close_admission (self);
      else
        _sluice_run_cancel (self);
      break;
    }
}

/**
 * sluice_run_close_finish:
 * @self: a #SluiceRun
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_run_close_async().
 *
 * Returns: %TRUE once the run has ended
 *
 * Since: 1.0
 */
gboolean
sluice_run_close_finish (SluiceRun     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* }}} */
