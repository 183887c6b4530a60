/* sluice-job-store.c: the job store interface and its argument checks
 * (sluice-job-store-types.c: its boxed types; sluice-job-store-uri.c:
 * opening a store by URI)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-job-store.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "sluice-json-limits-private.h"
#include "sluice-pg-store.h"
#include "sluice-sqlite-store.h"
#include "sluice-store-backend.h"

/**
 * sluice_store_error_quark:
 *
 * The error domain of job stores; use %SLUICE_STORE_ERROR.
 *
 * Returns: the quark of the %SLUICE_STORE_ERROR domain
 */
G_DEFINE_QUARK (sluice-store-error-quark, sluice_store_error)

/* ---- the interface ------------------------------------------------------- */

/**
 * SluiceJobStore:
 *
 * The interface of a durable job store (the seed's `JobStore`).
 *
 * Durable jobs with leases (docs/job-store.md, the seed's `JobStore`): a worker
 * claims a job with a lease, renews it while it works, and completes or
 * fails it; a crashed worker's lease expires and release_expired() puts
 * its job back.
 *
 * The rules every store keeps:
 * - enqueue is idempotent by (tenant, operation key): the second time, the
 *   existing job comes back unchanged (its payload too), created %FALSE.
 * - claim_next takes the tenant's job in state pending or retry_wait whose
 *   available_at ≤ now, the oldest available_at first (ties in the order
 *   the jobs were made); it counts the attempt and gives a fresh lease
 *   token. An expired lease is not claimable: only release_expired() puts
 *   a job back, so that every store behaves alike.
 * - Fencing: renew, complete, fail and release succeed only while the job is
 *   running with the claim's lease token; otherwise they change nothing
 *   and fail with %SLUICE_STORE_ERROR_LEASE_LOST. A lease past its expiry
 *   that nobody has released yet is still the claim's.
 * - Times are µs since the Unix epoch, passed in by the caller: a store
 *   never reads the clock (a job's updated_at is the @now of the call that
 *   changed it).
 *
 * The wrappers below check the arguments every store would check, with
 * the same limits for every store (a tenant, owner or operation key that
 * is empty, longer than %SLUICE_JOB_STORE_MAX_NAME_BYTES or not UTF-8; max
 * attempts of 0; a lease of 0; a payload larger than
 * %SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES; a payload or result that is not
 * JSON or nests deeper than %SLUICE_JOB_STORE_MAX_JSON_DEPTH) and report
 * %SLUICE_STORE_ERROR_INVALID_ARGUMENT through the callback without calling
 * the store. A failure's texts are made valid UTF-8 on the way in. An implementation
 * therefore never sees them, and must not tag its own tasks with the
 * wrappers' functions (the _finish wrappers take such a task for theirs).
 */
G_DEFINE_INTERFACE (SluiceJobStore, sluice_job_store, G_TYPE_OBJECT)

static void
sluice_job_store_default_init (SluiceJobStoreInterface *iface)
{
  /**
   * SluiceJobStore::jobs-available:
   * @store: the store
   * @tenant: the tenant whose jobs may be waiting
   *
   * Jobs of @tenant may be waiting to be claimed: emitted after an enqueue
   * that made a job, after a fail that scheduled a retry and after a
   * release (PostgreSQL: any process's, through NOTIFY; SQLite: this
   * process's own), on the main context the store was made on. Idle
   * workers wake on it and poll slowly otherwise; a wake-up without a
   * claimable job is harmless.
   */
  g_signal_new ("jobs-available",
                G_TYPE_FROM_INTERFACE (iface),
                G_SIGNAL_RUN_LAST,
                0,
                NULL, NULL,
                NULL,
                G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * SluiceJobStore::cancel-requested:
   * @store: the store
   * @job_id: the job an operator cancelled while it runs
   *
   * An operator cancelled a running job (docs/store-admin.md): its worker
   * renews the claim at once rather than at its next heartbeat, and the
   * renew says to cancel. PostgreSQL: any process's cancel, through
   * NOTIFY; SQLite has none (the next heartbeat tells the worker).
   */
  g_signal_new ("cancel-requested",
                G_TYPE_FROM_INTERFACE (iface),
                G_SIGNAL_RUN_LAST,
                0,
                NULL, NULL,
                NULL,
                G_TYPE_NONE, 1, G_TYPE_STRING);
}

/* ---- argument checks shared by every store ---------------------------- */

/* What is wrong with @text as JSON text of any kind (an object, an array,
 * a scalar), or NULL if nothing is. */
static char *
json_problem (const char *text)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;

  /* Checked before json-glib recurses into it (64 levels:
   * SLUICE_JOB_STORE_MAX_JSON_DEPTH is SLUICE_JSON_MAX_DEPTH). */
  if (!_sluice_json_check_limits (text, -1, G_MAXSIZE, &local_error))
    return g_strdup (local_error->message);
  parser = json_parser_new_immutable ();
  if (json_parser_load_from_data (parser, text, -1, &local_error) &&
      json_parser_get_root (parser) != NULL)
    return NULL;
  return g_strdup (local_error != NULL ? local_error->message
                                       /* Translators: what is wrong with a JSON text */
                                       : _("empty text"));
}

/* A payload: not larger than the limit, checked before it is parsed. */
static gboolean
check_payload (const char  *payload,
               GError     **error)
{
  gsize length = strlen (payload);
  g_autofree char *problem = NULL;

  if (length > SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES)
    {
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                   /* Translators: the payload's size, then the limit, in bytes */
                   _("The payload is %lu bytes long: at most %d bytes (1 MiB) are allowed"),
                   (gulong) length, SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES);
      return FALSE;
    }
  problem = json_problem (payload);
  if (problem == NULL)
    return TRUE;
  g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
               /* Translators: %s is what the JSON parser said */
               _("The payload is not JSON: %s"), problem);
  return FALSE;
}

typedef enum {
  NAME_TENANT,
  NAME_OPERATION_KEY,
  NAME_OWNER,
} NameKind;

static gboolean
name_is_empty (NameKind     kind,
               GError     **error)
{
  const char *message = NULL;

  switch (kind)
    {
    case NAME_TENANT:
      message = _("The tenant must not be empty");
      break;
    case NAME_OPERATION_KEY:
      message = _("The operation key must not be empty");
      break;
    case NAME_OWNER:
      message = _("The lease owner must not be empty");
      break;
    default:
      g_assert_not_reached ();
    }
  g_set_error_literal (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT, message);
  return FALSE;
}

static gboolean
name_is_too_long (NameKind     kind,
                  gsize        length,
                  GError     **error)
{
  switch (kind)
    {
    case NAME_TENANT:
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                   /* Translators: the tenant's length, then the limit, in bytes */
                   _("The tenant is %lu bytes long: at most %d bytes are allowed"),
                   (gulong) length, SLUICE_JOB_STORE_MAX_NAME_BYTES);
      break;
    case NAME_OPERATION_KEY:
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                   /* Translators: the operation key's length, then the limit, in bytes */
                   _("The operation key is %lu bytes long: at most %d bytes are allowed"),
                   (gulong) length, SLUICE_JOB_STORE_MAX_NAME_BYTES);
      break;
    case NAME_OWNER:
      g_set_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                   /* Translators: the lease owner's length, then the limit, in bytes */
                   _("The lease owner is %lu bytes long: at most %d bytes are allowed"),
                   (gulong) length, SLUICE_JOB_STORE_MAX_NAME_BYTES);
      break;
    default:
      g_assert_not_reached ();
    }
  return FALSE;
}

static gboolean
name_is_not_utf8 (NameKind     kind,
                  GError     **error)
{
  const char *message = NULL;

  switch (kind)
    {
    case NAME_TENANT:
      message = _("The tenant is not valid UTF-8");
      break;
    case NAME_OPERATION_KEY:
      message = _("The operation key is not valid UTF-8");
      break;
    case NAME_OWNER:
      message = _("The lease owner is not valid UTF-8");
      break;
    default:
      g_assert_not_reached ();
    }
  g_set_error_literal (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT, message);
  return FALSE;
}

/* A tenant, operation key or owner: not empty, at most
 * SLUICE_JOB_STORE_MAX_NAME_BYTES, UTF-8 (PostgreSQL refuses text that is
 * not, where SQLite would take it: one rule for both). */
static gboolean
check_name (NameKind     kind,
            const char  *name,
            GError     **error)
{
  gsize length;

  if (name == NULL || *name == '\0')
    return name_is_empty (kind, error);
  length = strlen (name);
  if (length > SLUICE_JOB_STORE_MAX_NAME_BYTES)
    return name_is_too_long (kind, length, error);
  if (!g_utf8_validate (name, length, NULL))
    return name_is_not_utf8 (kind, error);
  return TRUE;
}

/* A tenant that may be NULL or empty for "every tenant". */
static gboolean
check_tenant_filter (const char  *tenant,
                     GError     **error)
{
  return tenant == NULL || *tenant == '\0' || check_name (NAME_TENANT, tenant, error);
}

/**
 * sluice_job_store_check_tenant:
 * @tenant: (nullable): a tenant
 * @error: set to %SLUICE_STORE_ERROR_INVALID_ARGUMENT, naming the rule
 *   @tenant breaks
 *
 * The check every store's calls make of a tenant, for a program that
 * wants to refuse it before it calls a store: not empty, at most
 * %SLUICE_JOB_STORE_MAX_NAME_BYTES bytes, valid UTF-8.
 *
 * Returns: whether @tenant is one
 */
gboolean
sluice_job_store_check_tenant (const char  *tenant,
                               GError     **error)
{
  return check_name (NAME_TENANT, tenant, error);
}

/**
 * sluice_job_store_check_operation_key:
 * @operation_key: (nullable): an operation key
 * @error: set to %SLUICE_STORE_ERROR_INVALID_ARGUMENT, naming the rule
 *   @operation_key breaks
 *
 * As sluice_job_store_check_tenant(), for an operation key.
 *
 * Returns: whether @operation_key is one
 */
gboolean
sluice_job_store_check_operation_key (const char  *operation_key,
                                      GError     **error)
{
  return check_name (NAME_OPERATION_KEY, operation_key, error);
}

static gboolean
check_lease (gint64   lease,
             GError **error)
{
  if (lease > 0)
    return TRUE;
  g_set_error_literal (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                       _("A lease must last longer than 0 µs"));
  return FALSE;
}

static gboolean
check_claim (const SluiceJobClaim *claim)
{
  return claim != NULL && claim->job != NULL && claim->job->id != NULL && claim->token != NULL;
}

/* A refused call answers through its callback, as a store would. */
static void
report_invalid (SluiceJobStore      *self,
                gpointer             source_tag,
                GAsyncReadyCallback  callback,
                gpointer             user_data,
                GError              *error)
{
  g_task_report_error (self, callback, user_data, source_tag, error);
}

/* A tenant filter a call was given: a bad one is refused through the
 * callback (FALSE); an empty one becomes NULL, "every tenant", the one
 * form a store is given. */
static gboolean
take_tenant_filter (SluiceJobStore       *self,
                    gpointer              source_tag,
                    const char          **tenant,
                    GAsyncReadyCallback   callback,
                    gpointer              user_data)
{
  GError *error = NULL;

  if (!check_tenant_filter (*tenant, &error))
    {
      report_invalid (self, source_tag, callback, user_data, error);
      return FALSE;
    }
  if (*tenant != NULL && **tenant == '\0')
    *tenant = NULL;
  return TRUE;
}

/* The checks of an enqueue's arguments, before a store sees them (also
 * sluice_store_enqueue_at_async()'s). */
gboolean
sluice_job_store_check_enqueue (const char  *tenant,
                                const char  *operation_key,
                                const char  *payload,
                                guint        max_attempts,
                                GError     **error)
{
  if (!check_name (NAME_TENANT, tenant, error) ||
      !check_name (NAME_OPERATION_KEY, operation_key, error) ||
      !check_payload (payload, error))
    return FALSE;
  if (max_attempts == 0)
    {
      g_set_error_literal (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                           _("A job needs at least one attempt"));
      return FALSE;
    }
  return TRUE;
}

/**
 * sluice_job_store_enqueue_async:
 * @self: a store
 * @tenant: the tenant (queue): 1 to %SLUICE_JOB_STORE_MAX_NAME_BYTES bytes
 *   of UTF-8
 * @operation_key: the key enqueue is idempotent by, per tenant: 1 to
 *   %SLUICE_JOB_STORE_MAX_NAME_BYTES bytes of UTF-8
 * @payload: the job's payload, JSON text of at most
 *   %SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES bytes
 * @max_attempts: the most attempts the job may have, at least 1
 * @now: the time of the call, µs since the Unix epoch: the new job's
 *   available_at and updated_at
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called with the job
 * @user_data: data for @callback
 *
 * Adds a job in state pending, or finds the one @tenant already has with
 * @operation_key (then nothing changes, not even its payload).
 */
void
sluice_job_store_enqueue_async (SluiceJobStore      *self,
                                const char          *tenant,
                                const char          *operation_key,
                                const char          *payload,
                                guint                max_attempts,
                                gint64               now,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (payload != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!sluice_job_store_check_enqueue (tenant, operation_key, payload, max_attempts, &error))
    {
      report_invalid (self, sluice_job_store_enqueue_async, callback, user_data, error);
      return;
    }
  SLUICE_JOB_STORE_GET_IFACE (self)->enqueue_async (self, tenant, operation_key, payload,
                                                    max_attempts, now, cancellable,
                                                    callback, user_data);
}

/**
 * sluice_job_store_enqueue_finish:
 * @self: a store
 * @result: the result given to the callback
 * @created: (out) (optional): %TRUE if the job was made by this call,
 *   %FALSE if @tenant had one with the operation key already
 * @error: set on failure
 *
 * Returns: (transfer full): the job (the existing one if not @created), or
 *   %NULL with @error set
 */
SluiceStoredJob *
sluice_job_store_enqueue_finish (SluiceJobStore  *self,
                                 GAsyncResult    *result,
                                 gboolean        *created,
                                 GError         **error)
{
  gboolean made = FALSE;
  SluiceStoredJob *job;

  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), NULL);

  if (g_async_result_is_tagged (result, sluice_job_store_enqueue_async))
    job = g_task_propagate_pointer (G_TASK (result), error);
  else
    job = SLUICE_JOB_STORE_GET_IFACE (self)->enqueue_finish (self, result, &made, error);
  if (created != NULL)
    *created = job != NULL && made;
  return job;
}

/**
 * sluice_job_store_claim_next_async:
 * @self: a store
 * @tenant: the tenant to claim from, not empty
 * @owner: the claiming worker, not empty
 * @lease: how long the lease lasts, µs (more than 0)
 * @now: the time of the call, µs since the Unix epoch
 * @cancellable: (nullable): cancels the call before the store starts it
 *   (a claim the store made is never reported as cancelled)
 * @callback: called with the claim or none
 * @user_data: data for @callback
 *
 * Claims the job of @tenant in state pending or retry_wait with the
 * oldest available_at ≤ @now (ties: the first made), atomically: state
 * running, attempts + 1, lease owner @owner, a fresh lease token, lease
 * expiry @now + @lease.
 */
void
sluice_job_store_claim_next_async (SluiceJobStore      *self,
                                   const char          *tenant,
                                   const char          *owner,
                                   gint64               lease,
                                   gint64               now,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  GError *error = NULL;

  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!check_name (NAME_TENANT, tenant, &error) ||
      !check_name (NAME_OWNER, owner, &error) ||
      !check_lease (lease, &error))
    {
      report_invalid (self, sluice_job_store_claim_next_async, callback, user_data, error);
      return;
    }
  SLUICE_JOB_STORE_GET_IFACE (self)->claim_next_async (self, tenant, owner, lease, now,
                                                       cancellable, callback, user_data);
}

/**
 * sluice_job_store_claim_next_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure
 *
 * Returns: (transfer full) (nullable): the claim; %NULL without @error set
 *   if no job was claimable, %NULL with @error set on failure
 */
SluiceJobClaim *
sluice_job_store_claim_next_finish (SluiceJobStore  *self,
                                    GAsyncResult    *result,
                                    GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), NULL);

  if (g_async_result_is_tagged (result, sluice_job_store_claim_next_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return SLUICE_JOB_STORE_GET_IFACE (self)->claim_next_finish (self, result, error);
}

static void
on_claimed_one (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  SluiceJobClaim *claim = sluice_job_store_claim_next_finish (SLUICE_JOB_STORE (object), result, &error);
  GPtrArray *claims;

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  claims = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_job_claim_free);
  if (claim != NULL)
    g_ptr_array_add (claims, claim);
  g_task_return_pointer (task, claims, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * sluice_job_store_claim_async:
 * @self: a store
 * @tenant: the tenant whose jobs to claim
 * @owner: the worker that claims them
 * @lease: the length of the leases, µs (more than 0)
 * @now: the time of the call, µs since the Unix epoch
 * @max_jobs: the most jobs to claim in this one round trip (0 counts as 1)
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called with the claims
 * @user_data: data for @callback
 *
 * Claims up to @max_jobs jobs at once, each as claim_next() would, in
 * the order claim_next() would take them: a worker with several free
 * slots fills them with one round trip to the store. A store that cannot
 * claim several at once claims one.
 */
void
sluice_job_store_claim_async (SluiceJobStore      *self,
                              const char          *tenant,
                              const char          *owner,
                              gint64               lease,
                              gint64               now,
                              guint                max_jobs,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  SluiceJobStoreInterface *iface;
  GError *error = NULL;
  GTask *task;

  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!check_name (NAME_TENANT, tenant, &error) ||
      !check_name (NAME_OWNER, owner, &error) ||
      !check_lease (lease, &error))
    {
      report_invalid (self, sluice_job_store_claim_async, callback, user_data, error);
      return;
    }
  iface = SLUICE_JOB_STORE_GET_IFACE (self);
  if (iface->claim_async != NULL)
    {
      iface->claim_async (self, tenant, owner, lease, now, MAX (max_jobs, 1), cancellable,
                          callback, user_data);
      return;
    }
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_job_store_claim_async);
  g_task_set_check_cancellable (task, FALSE);
  iface->claim_next_async (self, tenant, owner, lease, now, cancellable, on_claimed_one, task);
}

/**
 * sluice_job_store_claim_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure
 *
 * Returns: (transfer full) (element-type SluiceJobClaim): the claims,
 *   oldest available_at first, empty if no job was claimable; %NULL with
 *   @error set on failure
 */
GPtrArray *
sluice_job_store_claim_finish (SluiceJobStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), NULL);

  if (g_async_result_is_tagged (result, sluice_job_store_claim_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return SLUICE_JOB_STORE_GET_IFACE (self)->claim_finish (self, result, error);
}

/**
 * sluice_job_store_renew_async:
 * @self: a store
 * @claim: the claim whose lease to extend
 * @lease: the new lease, µs from @now (more than 0)
 * @now: the time of the call, µs since the Unix epoch
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called when the lease was extended or refused
 * @user_data: data for @callback
 *
 * Extends the lease to @now + @lease, if the job is running with
 * @claim's token (fencing).
 */
void
sluice_job_store_renew_async (SluiceJobStore       *self,
                              const SluiceJobClaim *claim,
                              gint64                lease,
                              gint64                now,
                              GCancellable         *cancellable,
                              GAsyncReadyCallback   callback,
                              gpointer              user_data)
{
  GError *error = NULL;

  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (check_claim (claim));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!check_lease (lease, &error))
    {
      report_invalid (self, sluice_job_store_renew_async, callback, user_data, error);
      return;
    }
  SLUICE_JOB_STORE_GET_IFACE (self)->renew_async (self, claim, lease, now, cancellable,
                                                  callback, user_data);
}

/**
 * sluice_job_store_renew_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure: %SLUICE_STORE_ERROR_LEASE_LOST if the claim's
 *   token is no longer the job's
 *
 * Returns: %TRUE if the lease is still the claim's and was extended
 */
gboolean
sluice_job_store_renew_finish (SluiceJobStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), FALSE);

  if (g_async_result_is_tagged (result, sluice_job_store_renew_async))
    return g_task_propagate_boolean (G_TASK (result), error);
  return SLUICE_JOB_STORE_GET_IFACE (self)->renew_finish (self, result, error);
}

/**
 * sluice_job_store_complete_async:
 * @self: a store
 * @claim: the claim of the job that succeeded
 * @result_json: (nullable): its result, JSON text (%NULL: `null`)
 * @now: the time of the call, µs since the Unix epoch
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called when the job was completed or the claim refused
 * @user_data: data for @callback
 *
 * Marks the job succeeded with @result_json and clears its lease, if it is
 * running with @claim's token (fencing). Its last failure, if any, stays.
 */
void
sluice_job_store_complete_async (SluiceJobStore       *self,
                                 const SluiceJobClaim *claim,
                                 const char           *result_json,
                                 gint64                now,
                                 GCancellable         *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data)
{
  g_autofree char *problem = NULL;
  GError *error = NULL;

  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (check_claim (claim));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (result_json == NULL)
    result_json = "null";
  problem = json_problem (result_json);
  if (problem != NULL)
    {
      error = g_error_new (SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT,
                           /* Translators: %s is what the JSON parser said */
                           _("The result is not JSON: %s"), problem);
      report_invalid (self, sluice_job_store_complete_async, callback, user_data, error);
      return;
    }
  SLUICE_JOB_STORE_GET_IFACE (self)->complete_async (self, claim, result_json, now,
                                                     cancellable, callback, user_data);
}

/**
 * sluice_job_store_complete_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure: %SLUICE_STORE_ERROR_LEASE_LOST if the claim's
 *   token is no longer the job's (then the job is not completed)
 *
 * Returns: %TRUE if the job was completed
 */
gboolean
sluice_job_store_complete_finish (SluiceJobStore  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), FALSE);

  if (g_async_result_is_tagged (result, sluice_job_store_complete_async))
    return g_task_propagate_boolean (G_TASK (result), error);
  return SLUICE_JOB_STORE_GET_IFACE (self)->complete_finish (self, result, error);
}

static char *
make_valid (const char *text)
{
  return text != NULL ? g_utf8_make_valid (text, -1) : NULL;
}

/* A failure's texts come from any handler's errors (a file name's bytes,
 * say): PostgreSQL refuses text that is not UTF-8 where SQLite would keep
 * it, so both keep it made valid. NULL when @failure is valid already. */
static SluiceJobFailure *
valid_failure (const SluiceJobFailure *failure)
{
  g_autofree char *type_name = NULL;
  g_autofree char *message = NULL;
  g_autofree char *code = NULL;

  if ((failure->type_name == NULL || g_utf8_validate (failure->type_name, -1, NULL)) &&
      (failure->message == NULL || g_utf8_validate (failure->message, -1, NULL)) &&
      (failure->code == NULL || g_utf8_validate (failure->code, -1, NULL)))
    return NULL;
  type_name = make_valid (failure->type_name);
  message = make_valid (failure->message);
  code = make_valid (failure->code);
  return sluice_job_failure_new (type_name, message, code, failure->retryable);
}

/**
 * sluice_job_store_fail_async:
 * @self: a store
 * @claim: the claim of the job that failed
 * @failure: what failed, kept as the job's last failure
 * @available_at: when to retry, µs since the Unix epoch (state
 *   retry_wait), or -1 for no retry (state dead)
 * @now: the time of the call, µs since the Unix epoch
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called when the failure was recorded or the claim refused
 * @user_data: data for @callback
 *
 * Records a failed attempt and clears the lease, if the job is running
 * with @claim's token (fencing). The worker decides with its retry policy
 * whether and when to retry; the store only records.
 */
void
sluice_job_store_fail_async (SluiceJobStore         *self,
                             const SluiceJobClaim   *claim,
                             const SluiceJobFailure *failure,
                             gint64                  available_at,
                             gint64                  now,
                             GCancellable           *cancellable,
                             GAsyncReadyCallback     callback,
                             gpointer                user_data)
{
  g_autoptr(SluiceJobFailure) valid = NULL;

  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (check_claim (claim));
  g_return_if_fail (failure != NULL);
  g_return_if_fail (available_at >= -1);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  valid = valid_failure (failure);
  SLUICE_JOB_STORE_GET_IFACE (self)->fail_async (self, claim, valid != NULL ? valid : failure,
                                                 available_at, now, cancellable, callback, user_data);
}

/**
 * sluice_job_store_fail_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure: %SLUICE_STORE_ERROR_LEASE_LOST if the claim's
 *   token is no longer the job's (then nothing is recorded)
 *
 * Returns: %TRUE if the failure was recorded
 */
gboolean
sluice_job_store_fail_finish (SluiceJobStore  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), FALSE);

  return SLUICE_JOB_STORE_GET_IFACE (self)->fail_finish (self, result, error);
}

/**
 * sluice_job_store_release_async:
 * @self: a store
 * @claim: a claim whose attempt never ran (a worker stopped before it
 *   handed the job to a handler)
 * @now: the time of the call, µs since the Unix epoch
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called when the job was put back or the claim refused
 * @user_data: data for @callback
 *
 * Hands the job of @claim back, if it is running with @claim's token
 * (fencing): state pending, its lease cleared (the token is fenced out
 * from then on), the claim's attempt not counted (attempts − 1), its
 * available_at and last failure as they were, so that the next claim of
 * the tenant may take it at once. A claim whose attempt ran is never
 * released: that attempt may have done its work, and its end is a
 * complete or a fail (or, after a shutdown's cancel, its lease's expiry).
 */
void
sluice_job_store_release_async (SluiceJobStore       *self,
                                const SluiceJobClaim *claim,
                                gint64                now,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data)
{
  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (check_claim (claim));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  SLUICE_JOB_STORE_GET_IFACE (self)->release_async (self, claim, now, cancellable, callback, user_data);
}

/**
 * sluice_job_store_release_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure: %SLUICE_STORE_ERROR_LEASE_LOST if the claim's
 *   token is no longer the job's (then nothing changed)
 *
 * Returns: %TRUE if the job was put back
 */
gboolean
sluice_job_store_release_finish (SluiceJobStore  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), FALSE);

  return SLUICE_JOB_STORE_GET_IFACE (self)->release_finish (self, result, error);
}

/**
 * sluice_job_store_release_expired_async:
 * @self: a store
 * @tenant: (nullable): the tenant whose expired leases to release; %NULL
 *   or empty: every tenant's
 * @now: the time of the call, µs since the Unix epoch
 * @limit: the most jobs to release in this call (the earliest expired
 *   first); 0 releases none
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called with how many jobs were released
 * @user_data: data for @callback
 *
 * Puts back the running jobs whose lease expired (lease expiry ≤ @now),
 * clearing the lease so that the old token is fenced out: a job with
 * attempts left becomes pending, available at @now; a job out of attempts
 * (attempts ≥ max attempts) becomes dead with the last failure
 * `LeaseExpired` / "the lease expired" / `LEASE_EXPIRED`, not retryable.
 */
void
sluice_job_store_release_expired_async (SluiceJobStore      *self,
                                        const char          *tenant,
                                        gint64               now,
                                        guint                limit,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!take_tenant_filter (self, sluice_job_store_release_expired_async, &tenant, callback, user_data))
    return;
  SLUICE_JOB_STORE_GET_IFACE (self)->release_expired_async (self, tenant, now, limit,
                                                            cancellable, callback, user_data);
}

/**
 * sluice_job_store_release_expired_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure
 *
 * Returns: how many jobs were released, or -1 with @error set
 */
gint64
sluice_job_store_release_expired_finish (SluiceJobStore  *self,
                                         GAsyncResult    *result,
                                         GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), -1);

  if (g_async_result_is_tagged (result, sluice_job_store_release_expired_async))
    return g_task_propagate_int (G_TASK (result), error);
  return SLUICE_JOB_STORE_GET_IFACE (self)->release_expired_finish (self, result, error);
}

/**
 * sluice_job_store_get_status_async:
 * @self: a store
 * @tenant: (nullable): the tenant to count; %NULL or empty: every tenant
 * @n_failures: how many of the latest failed jobs to include
 * @cancellable: (nullable): cancels the call before the store starts it
 * @callback: called with the status
 * @user_data: data for @callback
 *
 * Counts the jobs by state, and gives the @n_failures jobs with a last
 * failure that changed most recently (updated_at, newest first).
 */
void
sluice_job_store_get_status_async (SluiceJobStore      *self,
                                   const char          *tenant,
                                   guint                n_failures,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (SLUICE_IS_JOB_STORE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (!take_tenant_filter (self, sluice_job_store_get_status_async, &tenant, callback, user_data))
    return;
  SLUICE_JOB_STORE_GET_IFACE (self)->get_status_async (self, tenant, n_failures,
                                                       cancellable, callback, user_data);
}

/**
 * sluice_job_store_get_status_finish:
 * @self: a store
 * @result: the result given to the callback
 * @error: set on failure
 *
 * Returns: (transfer full): the status, or %NULL with @error set
 */
SluiceStoreStatus *
sluice_job_store_get_status_finish (SluiceJobStore  *self,
                                    GAsyncResult    *result,
                                    GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB_STORE (self), NULL);

  if (g_async_result_is_tagged (result, sluice_job_store_get_status_async))
    return g_task_propagate_pointer (G_TASK (result), error);
  return SLUICE_JOB_STORE_GET_IFACE (self)->get_status_finish (self, result, error);
}
