/* sluice-run-submit.c: a service run's front door: jobs submitted one at a
 * time, their admission, giving up on them, and the graceful close
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-attempt-private.h"
#include "sluice-channel-private.h"
#include "sluice-error.h"
#include "sluice-job-private.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"

/* A service run is the same run as a stream's — the same workers,
 * attempts, retries, clock, events and live-operation count — with the
 * source's producer replaced by its callers: each sluice_run_submit_async()
 * puts one item, with its job, into the input channel. */

typedef struct
{
  SluiceRun        *run;
  GTask            *task;
  SluicePulledItem *item;  /* owned until the channel takes it */
  SluiceJob        *job;   /* once admitted */
} Submission;

static void
submission_free (Submission *submission)
{
  if (submission->item != NULL)
    _sluice_pulled_item_free (submission->item);
  g_clear_object (&submission->job);
  g_free (submission);
}

/* Admission {{{ */

/* A submission is a service run's pull: its item counts as pulled from
 * the call on, and the lead is sampled then, as a stream's is each time
 * its source yields (docs/submit-and-shutdown.md: max_lead is computed as in
 * stream mode). A submission waiting for room is the item a producer
 * holds; one refused with %SLUICE_ERROR_CLOSED stays pulled and never
 * succeeds, so it stays in the lead. Counted at admission instead, the
 * lead missed the refused items and the item a submitter held while the
 * queue was full. */
static void
count_submission (SluiceRun *self)
{
  guint lead;

  self->stats.pulled++;
  lead = self->stats.pulled - self->stats.succeeded;
  self->stats.max_lead = MAX (self->stats.max_lead, lead);
}

/* The channel has taken the item: the job exists from now on, with the
 * next index. */
static void
admit (gpointer user_data)
{
  Submission *submission = user_data;
  SluiceRun *self = submission->run;
  SluicePulledItem *item = g_steal_pointer (&submission->item);

  item->index = self->n_submitted++;
  item->job = _sluice_job_new (self, item->value, item->index);
  submission->job = g_object_ref (item->job);

  _sluice_run_step_begin (self);
  _sluice_run_emit_item (self, SLUICE_EVENT_PULL, item, -1, item->value);
  _sluice_run_emit_index (self, SLUICE_EVENT_QUEUE_PUT, item->index, -1, NULL);
  _sluice_run_step_end (self);
}

/* A submission the channel did not take: refused by a close, or withdrawn
 * by its own cancellable. Nothing was queued. A withdrawn submission is
 * taken back out of `pulled` (its caller took the item back: it is no
 * job and no refusal), though the lead sampled at its call stays. */
static void
return_refusal (SluiceRun    *self,
                GTask        *task,
                const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      self->stats.pulled--;
      g_task_return_error (task, g_error_copy (error));
    }
  else
    g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_CLOSED, "pool is closed");
}

/* @item is the submission's own, given back when the channel refused it
 * (and still freed with the submission). */
static void
on_put (gpointer      item,
        const GError *error,
        gpointer      user_data)
{
  Submission *submission = user_data;
  SluiceRun *self = submission->run;
  GTask *task = g_steal_pointer (&submission->task);

  self->live_operations--;
  self->submits_waiting--;

  if (error == NULL)
    g_task_return_pointer (task, g_steal_pointer (&submission->job), g_object_unref);
  else
    return_refusal (self, task, error);

  submission_free (submission);
  _sluice_run_complete_now (task);
  _sluice_run_maybe_finish (self);
  g_object_unref (self);
}

/* }}} */
/* Public API {{{ */

/**
 * sluice_run_submit_async:
 * @self: a service run, from sluice_pool_open()
 * @item: the job's item (a floating reference is sunk)
 * @cancellable: (nullable): withdraws the submission while it waits
 * @callback: called once the job is queued, or refused
 * @user_data: data for @callback
 *
 * Submits one job. The call completes as soon as the job is in the input
 * queue; while the queue is full it waits (backpressure at the front
 * door). Once the run is closing or closed it fails with
 * %SLUICE_ERROR_CLOSED (`pool is closed`), also for a submission that was
 * waiting when the close came. Cancelling @cancellable while it waits
 * withdraws it (%G_IO_ERROR_CANCELLED): nothing is queued.
 *
 * The submission is the service run's pull: it counts in
 * #SluiceRunStats.pulled and the lead from this call on, also when it is
 * refused; a withdrawn one is taken back out of the pulled items.
 *
 * Since: 1.0
 */
void
sluice_run_submit_async (SluiceRun           *self,
                         GVariant            *item,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Submission *submission;
  GTask *task;

  g_return_if_fail (SLUICE_IS_RUN (self));
  g_return_if_fail (self->service);
  g_return_if_fail (item != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  g_variant_ref_sink (item);
  task = _sluice_run_caller_task_new (self, NULL, callback, user_data, sluice_run_submit_async);
  count_submission (self);

  if (self->state != RUN_ACTIVE || self->producer_state == PRODUCER_DONE)
    {
      g_variant_unref (item);
      g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_CLOSED, "pool is closed");
      _sluice_run_complete_later (self, task);
      return;
    }

  submission = g_new0 (Submission, 1);
  submission->run = self;
  submission->task = task;
  submission->item = _sluice_pulled_item_new (self, -1, item);
  /* The deadline counts from the call: a wait at the front door spends it. */
  submission->item->deadline = _sluice_retry_policy_item_deadline (_sluice_pool_get_retry_policy (self->pool),
                                                                   sluice_clock_now (self->clock));

  if (sluice_channel_try_put (self->input, submission->item, NULL))
    {
      admit (submission);
      g_task_return_pointer (task, g_steal_pointer (&submission->job), g_object_unref);
      submission->task = NULL;
      submission_free (submission);
      _sluice_run_complete_later (self, task);
      return;
    }

  self->live_operations++;
  self->submits_waiting++;
  g_object_ref (self);
  _sluice_channel_put_with_func (self->input, submission->item, cancellable,
                                 admit, submission, on_put, submission);
}

/**
 * sluice_run_submit_finish:
 * @self: a #SluiceRun
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_run_submit_async().
 *
 * Returns: (transfer full) (nullable): the queued job, or %NULL with @error
 *   set
 *
 * Since: 1.0
 */
SluiceJob *
sluice_run_submit_finish (SluiceRun     *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * sluice_run_is_service:
 * @self: a #SluiceRun
 *
 * Returns: whether the run takes submitted jobs (sluice_pool_open()) rather
 *   than a source's items
 *
 * Since: 1.0
 */
gboolean
sluice_run_is_service (SluiceRun *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN (self), FALSE);
  return self->service;
}

/* }}} */
/* The run's side {{{ */

SluiceRun *
_sluice_run_new_service (SluicePool *pool)
{
  SluiceRun *self = _sluice_run_new (pool, NULL);

  self->service = TRUE;
  return self;
}

/* Once the pool knows its run: the workers start waiting for jobs. */
void
_sluice_run_start_service (SluiceRun *self)
{
  /* A stop before the open: the run is over before it began. */
  if (self->stop_requested)
    {
      self->state = RUN_FINISHED;
      self->producer_state = PRODUCER_DONE;
      return;
    }

  _sluice_run_start (self);
}

/* The graceful close (seed 001's `async with` exit): admission closes,
 * waiting submitters are refused, queued jobs still run, in-flight jobs
 * finish, then the run ends. It starts the shutdown clock. */
void
_sluice_run_close_admission (SluiceRun *self)
{
  g_autoptr(SluiceRun) hold = NULL;

  if (self->state != RUN_ACTIVE || self->producer_state == PRODUCER_DONE)
    return;

  hold = g_object_ref (self);
  _sluice_run_start_shutdown_clock (self);
  _sluice_run_close_input (self);
}

/* The caller gave up on @job. A queued one ends cancelled now and is
 * skipped later; a running one has its attempt stopped or its backoff
 * cancelled, and ends cancelled when that is over. */
void
_sluice_run_give_up_job (SluiceRun *self,
                         SluiceJob *job)
{
  g_autoptr(SluiceRun) hold G_GNUC_UNUSED = g_object_ref (self);

  if (sluice_job_get_state (job) == SLUICE_JOB_QUEUED)
    {
      self->stats.cancelled++;
      _sluice_run_count_outcome (self, "cancelled");
      _sluice_run_emit_index (self, SLUICE_EVENT_ITEM_CANCELLED, sluice_job_get_index (job), -1, NULL);
      _sluice_job_end_cancelled (job);
      return;
    }

  for (guint i = 0; i < self->n_workers; i++)
    {
      SluiceWorker *worker = &self->workers[i];

      if (worker->item != NULL && worker->item->job == job)
        {
          _sluice_worker_cancel (worker, FALSE);
          return;
        }
    }
}

/* }}} */
