/* sluice-job-store-types.c: the job store's boxed types: a job, a claim,
 * a failure, a status
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-job-store.h"

#include <string.h>

/* ---- boxed types --------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (SluiceJobFailure, sluice_job_failure,
                     sluice_job_failure_copy, sluice_job_failure_free)
G_DEFINE_BOXED_TYPE (SluiceStoredJob, sluice_stored_job,
                     sluice_stored_job_copy, sluice_stored_job_free)
G_DEFINE_BOXED_TYPE (SluiceJobClaim, sluice_job_claim,
                     sluice_job_claim_copy, sluice_job_claim_free)
G_DEFINE_BOXED_TYPE (SluiceStoreStatus, sluice_store_status,
                     sluice_store_status_copy, sluice_store_status_free)

/**
 * sluice_job_failure_new:
 * @type_name: the error's type, such as `TimeoutError`
 * @message: its message
 * @code: a stable code, such as `ATTEMPT_TIMEOUT`
 * @retryable: whether it may be retried
 *
 * Returns: (transfer full): a new failure
 */
SluiceJobFailure *
sluice_job_failure_new (const char *type_name,
                        const char *message,
                        const char *code,
                        gboolean    retryable)
{
  SluiceJobFailure *failure = g_new0 (SluiceJobFailure, 1);

  failure->type_name = g_strdup (type_name != NULL ? type_name : "");
  failure->message = g_strdup (message != NULL ? message : "");
  failure->code = g_strdup (code != NULL ? code : "");
  failure->retryable = !!retryable;
  return failure;
}

/**
 * sluice_job_failure_copy:
 * @failure: a failure
 *
 * Returns: (transfer full): a copy of @failure
 */
SluiceJobFailure *
sluice_job_failure_copy (const SluiceJobFailure *failure)
{
  g_return_val_if_fail (failure != NULL, NULL);

  return sluice_job_failure_new (failure->type_name, failure->message,
                                 failure->code, failure->retryable);
}

/**
 * sluice_job_failure_free:
 * @failure: (nullable): a failure
 *
 * Frees @failure.
 */
void
sluice_job_failure_free (SluiceJobFailure *failure)
{
  if (failure == NULL)
    return;
  g_free (failure->type_name);
  g_free (failure->message);
  g_free (failure->code);
  g_free (failure);
}

/**
 * sluice_stored_job_copy:
 * @job: a job
 *
 * Returns: (transfer full): a deep copy of @job
 */
SluiceStoredJob *
sluice_stored_job_copy (const SluiceStoredJob *job)
{
  SluiceStoredJob *copy;

  g_return_val_if_fail (job != NULL, NULL);

  copy = g_memdup2 (job, sizeof *job);
  copy->id = g_strdup (job->id);
  copy->tenant = g_strdup (job->tenant);
  copy->operation_key = g_strdup (job->operation_key);
  copy->payload = g_strdup (job->payload);
  copy->lease_owner = g_strdup (job->lease_owner);
  copy->lease_token = g_strdup (job->lease_token);
  copy->last_failure = job->last_failure != NULL ? sluice_job_failure_copy (job->last_failure) : NULL;
  copy->result = g_strdup (job->result);
  return copy;
}

/**
 * sluice_stored_job_free:
 * @job: (nullable): a job
 *
 * Frees @job and everything it holds.
 */
void
sluice_stored_job_free (SluiceStoredJob *job)
{
  if (job == NULL)
    return;
  g_free (job->id);
  g_free (job->tenant);
  g_free (job->operation_key);
  g_free (job->payload);
  g_free (job->lease_owner);
  g_free (job->lease_token);
  sluice_job_failure_free (job->last_failure);
  g_free (job->result);
  g_free (job);
}

static const char *const state_names[SLUICE_STORED_JOB_N_STATES] = {
  [SLUICE_STORED_JOB_PENDING] = "pending",
  [SLUICE_STORED_JOB_RUNNING] = "running",
  [SLUICE_STORED_JOB_RETRY_WAIT] = "retry_wait",
  [SLUICE_STORED_JOB_SUCCEEDED] = "succeeded",
  [SLUICE_STORED_JOB_DEAD] = "dead",
  [SLUICE_STORED_JOB_CANCELLED] = "cancelled",
  [SLUICE_STORED_JOB_SCHEDULED] = "scheduled",
};

/**
 * sluice_stored_job_state_to_string:
 * @state: a state
 *
 * Returns: the state's name in the stores and in `store-status`, such as
 *   `retry_wait`; %NULL for a value that is no state
 */
const char *
sluice_stored_job_state_to_string (SluiceStoredJobState state)
{
  if ((guint) state >= SLUICE_STORED_JOB_N_STATES)
    return NULL;
  return state_names[state];
}

/**
 * sluice_stored_job_state_from_string:
 * @name: a state's name, such as `pending`
 * @state: (out): set to the state @name names
 *
 * Returns: %TRUE if @name is a state's name
 */
gboolean
sluice_stored_job_state_from_string (const char           *name,
                                     SluiceStoredJobState *state)
{
  g_return_val_if_fail (state != NULL, FALSE);

  for (guint i = 0; name != NULL && i < SLUICE_STORED_JOB_N_STATES; i++)
    if (strcmp (name, state_names[i]) == 0)
      {
        *state = (SluiceStoredJobState) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * sluice_job_claim_copy:
 * @claim: a claim
 *
 * Returns: (transfer full): a deep copy of @claim
 */
SluiceJobClaim *
sluice_job_claim_copy (const SluiceJobClaim *claim)
{
  SluiceJobClaim *copy;

  g_return_val_if_fail (claim != NULL, NULL);

  copy = g_new0 (SluiceJobClaim, 1);
  copy->job = claim->job != NULL ? sluice_stored_job_copy (claim->job) : NULL;
  copy->owner = g_strdup (claim->owner);
  copy->token = g_strdup (claim->token);
  return copy;
}

/**
 * sluice_job_claim_free:
 * @claim: (nullable): a claim
 *
 * Frees @claim and its job.
 */
void
sluice_job_claim_free (SluiceJobClaim *claim)
{
  if (claim == NULL)
    return;
  sluice_stored_job_free (claim->job);
  g_free (claim->owner);
  g_free (claim->token);
  g_free (claim);
}

/**
 * sluice_store_status_copy:
 * @status: a status
 *
 * Returns: (transfer full): a deep copy of @status
 */
SluiceStoreStatus *
sluice_store_status_copy (const SluiceStoreStatus *status)
{
  SluiceStoreStatus *copy;

  g_return_val_if_fail (status != NULL, NULL);

  copy = g_new0 (SluiceStoreStatus, 1);
  memcpy (copy->counts, status->counts, sizeof copy->counts);
  copy->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_stored_job_free);
  for (guint i = 0; status->failures != NULL && i < status->failures->len; i++)
    g_ptr_array_add (copy->failures, sluice_stored_job_copy (g_ptr_array_index (status->failures, i)));
  return copy;
}

/**
 * sluice_store_status_free:
 * @status: (nullable): a status
 *
 * Frees @status and its jobs.
 */
void
sluice_store_status_free (SluiceStoreStatus *status)
{
  if (status == NULL)
    return;
  g_clear_pointer (&status->failures, g_ptr_array_unref);
  g_free (status);
}
