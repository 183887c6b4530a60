/* sluice-job-store.h: durable jobs with leases (docs/job-store.md, seed 002)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * SLUICE_STORE_ERROR:
 *
 * The error domain of job stores. Codes are in #SluiceStoreError.
 */
#define SLUICE_STORE_ERROR (sluice_store_error_quark ())

/**
 * SluiceStoreError:
 * @SLUICE_STORE_ERROR_LEASE_LOST: the claim's lease token is no longer the
 *   job's (it expired and was reclaimed, or the job ended): fencing refused
 *   a renew, complete or fail
 * @SLUICE_STORE_ERROR_INVALID_URI: a store URI that is neither
 *   `sqlite:FILE` nor `postgresql://…`
 * @SLUICE_STORE_ERROR_BACKEND: SQLite or PostgreSQL failed (busy past its
 *   timeout, the server gone, a constraint); the message names the store
 *   without secrets
 * @SLUICE_STORE_ERROR_SCHEMA: the store's schema is newer than this program
 *   knows (or older, opened read-only), or not a job store's (a table
 *   `sluice_jobs` without `sluice_schema`)
 * @SLUICE_STORE_ERROR_INVALID_ARGUMENT: a payload or result that is not
 *   JSON or is too large or deeply nested, a tenant, operation key or
 *   owner that is empty, too long or not UTF-8, max attempts of 0
 * @SLUICE_STORE_ERROR_NOT_A_STORE: the database holds no job store: opened
 *   read-only, a file that does not exist or a database without
 *   `sluice_schema`; opened for writing without
 *   %SLUICE_JOB_STORE_OPEN_INIT, a database that has other tables and no
 *   job store
 * @SLUICE_STORE_ERROR_CANCEL_REQUESTED: a renew that kept the lease, of a
 *   job an operator cancelled (docs/store-admin.md): the worker cancels the
 *   attempt and fails it, and the store records it `cancelled`
 *
 * Error codes in the %SLUICE_STORE_ERROR domain.
 */
typedef enum {
  SLUICE_STORE_ERROR_LEASE_LOST,
  SLUICE_STORE_ERROR_INVALID_URI,
  SLUICE_STORE_ERROR_BACKEND,
  SLUICE_STORE_ERROR_SCHEMA,
  SLUICE_STORE_ERROR_INVALID_ARGUMENT,
  SLUICE_STORE_ERROR_NOT_A_STORE,
  SLUICE_STORE_ERROR_CANCEL_REQUESTED,
} SluiceStoreError;

/**
 * SluiceJobStoreOpen:
 * @SLUICE_JOB_STORE_OPEN_READ_WRITE: a database without any table (a new
 *   SQLite file, an empty schema) gets the job store's schema; an older
 *   schema version is migrated; a database with other tables and no job
 *   store is refused with %SLUICE_STORE_ERROR_NOT_A_STORE and left as it
 *   was
 * @SLUICE_JOB_STORE_OPEN_READ_ONLY: nothing is ever created, migrated or
 *   converted (SQLite: the file is opened read-only and keeps its journal
 *   mode; PostgreSQL: the session's transactions are read-only); a store
 *   that does not exist yet is %SLUICE_STORE_ERROR_NOT_A_STORE; the store's
 *   writing calls fail with %SLUICE_STORE_ERROR_BACKEND
 * @SLUICE_JOB_STORE_OPEN_INIT: as read-write, and the job store is made
 *   beside the other tables of a database that has some (`--init`)
 *
 * How a store is opened (docs/job-store.md, "Opening a store"). A database
 * "is a job store" when it has the table `sluice_schema`.
 */
typedef enum {
  SLUICE_JOB_STORE_OPEN_READ_WRITE,
  SLUICE_JOB_STORE_OPEN_READ_ONLY,
  SLUICE_JOB_STORE_OPEN_INIT,
} SluiceJobStoreOpen;

/**
 * SLUICE_JOB_STORE_MAX_NAME_BYTES:
 *
 * The longest tenant, operation key or lease owner, in bytes of UTF-8: the
 * same on every store, checked before a store sees the call. (PostgreSQL
 * sends the tenant in a NOTIFY, whose payload must stay under 8,000
 * bytes, and indexes (tenant, operation key), whose entries must stay
 * under 2,704 bytes.)
 */
#define SLUICE_JOB_STORE_MAX_NAME_BYTES 255

/**
 * SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES:
 *
 * The largest payload of a job, in bytes of JSON text (1 MiB): a worker
 * holds its payload several times over while the job runs.
 */
#define SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES (1024 * 1024)

/**
 * SLUICE_JOB_STORE_MAX_JSON_DEPTH:
 *
 * The deepest nesting of arrays and objects in a payload or result: a
 * JSON parser descends once per level, and a megabyte of `[` would
 * overflow its stack.
 */
#define SLUICE_JOB_STORE_MAX_JSON_DEPTH 64

/**
 * SluiceStoredJobState:
 * @SLUICE_STORED_JOB_PENDING: waiting to be claimed (available now or at
 *   its available_at)
 * @SLUICE_STORED_JOB_RUNNING: claimed, with a lease
 * @SLUICE_STORED_JOB_RETRY_WAIT: failed, to be retried at available_at
 * @SLUICE_STORED_JOB_SUCCEEDED: completed, with its result
 * @SLUICE_STORED_JOB_DEAD: failed for good (not retryable, or out of
 *   attempts)
 * @SLUICE_STORED_JOB_CANCELLED: cancelled by an operator (final): at once
 *   when it was waiting, at the end of its attempt when it was running
 * @SLUICE_STORED_JOB_SCHEDULED: enqueued to be available later (`enqueue
 *   --delay`, `--at`) and not available yet: the store keeps it pending,
 *   never claimed, with its available_at ahead, and reports it scheduled
 *   while available_at is after the query's now (docs/store-admin.md)
 *
 * A stored job's state; the names in the stores and in `store-status` are
 * `pending`, `running`, `retry_wait`, `succeeded`, `dead`, `cancelled` and
 * `scheduled`.
 */
typedef enum {
  SLUICE_STORED_JOB_PENDING,
  SLUICE_STORED_JOB_RUNNING,
  SLUICE_STORED_JOB_RETRY_WAIT,
  SLUICE_STORED_JOB_SUCCEEDED,
  SLUICE_STORED_JOB_DEAD,
  SLUICE_STORED_JOB_CANCELLED,
  SLUICE_STORED_JOB_SCHEDULED,
} SluiceStoredJobState;

#define SLUICE_STORED_JOB_N_STATES 7

/**
 * SluiceJobFailure:
 * @type_name: the error's type, such as `TimeoutError`
 * @message: its message
 * @code: a stable code, such as `ATTEMPT_TIMEOUT` or `LEASE_LOST`
 * @retryable: whether the failure may be retried
 *
 * A recorded failure (the seed's `Failure`).
 */
typedef struct {
  char     *type_name;
  char     *message;
  char     *code;
  gboolean  retryable;
} SluiceJobFailure;

/**
 * SluiceStoredJob:
 * @id: a UUID, as text
 * @tenant: the tenant (queue) it belongs to
 * @operation_key: the key enqueue is idempotent by, per tenant
 * @payload: its payload, JSON text
 * @state: its state
 * @attempts: claims so far (a claim counts as an attempt)
 * @max_attempts: the most attempts it may have
 * @available_at: when it may be claimed, µs since the Unix epoch
 * @lease_owner: (nullable): the worker holding it
 * @lease_token: (nullable): the current lease's token (a UUID), which
 *   fencing checks
 * @lease_expires_at: when the lease ends, µs since the epoch, or 0
 * @last_failure: (nullable): the last failure recorded
 * @result: (nullable): the result of a succeeded job, JSON text
 * @updated_at: when it last changed, µs since the epoch
 * @created_at: when it was enqueued, µs since the epoch
 * @cancel_requested: an operator cancelled it while it ran: its worker
 *   is told at its next renew
 *
 * A job as the store keeps it (the seed's `Job`). Times are the wall
 * clock's (µs since the Unix epoch): workers in several processes and on
 * several machines share them; every call takes its `now`, so tests give
 * their own.
 */
typedef struct {
  char                 *id;
  char                 *tenant;
  char                 *operation_key;
  char                 *payload;
  SluiceStoredJobState  state;
  guint                 attempts;
  guint                 max_attempts;
  gint64                available_at;
  char                 *lease_owner;
  char                 *lease_token;
  gint64                lease_expires_at;
  SluiceJobFailure     *last_failure;
  char                 *result;
  gint64                updated_at;
  gint64                created_at;
  gboolean              cancel_requested;
} SluiceStoredJob;

/**
 * SluiceJobClaim:
 * @job: the job as claimed (state running, attempts counted)
 * @owner: the worker that claimed it
 * @token: the lease token of this claim
 *
 * A claim (the seed's `Claim`): renew, complete and fail succeed only
 * while @token is the job's lease token.
 */
typedef struct {
  SluiceStoredJob *job;
  char            *owner;
  char            *token;
} SluiceJobClaim;

/**
 * SluiceStoreStatus:
 * @counts: jobs by #SluiceStoredJobState
 * @failures: (element-type SluiceStoredJob): the jobs whose last failure
 *   is the most recent, newest first
 *
 * What `store-status` and the app's Store view show.
 */
typedef struct {
  guint64    counts[SLUICE_STORED_JOB_N_STATES];
  GPtrArray *failures;
} SluiceStoreStatus;

#define SLUICE_TYPE_JOB_FAILURE (sluice_job_failure_get_type ())
#define SLUICE_TYPE_STORED_JOB (sluice_stored_job_get_type ())
#define SLUICE_TYPE_JOB_CLAIM (sluice_job_claim_get_type ())
#define SLUICE_TYPE_STORE_STATUS (sluice_store_status_get_type ())

GType              sluice_job_failure_get_type   (void) G_GNUC_CONST;
SluiceJobFailure  *sluice_job_failure_new        (const char             *type_name,
                                                  const char             *message,
                                                  const char             *code,
                                                  gboolean                retryable);
SluiceJobFailure  *sluice_job_failure_copy       (const SluiceJobFailure *failure);
void               sluice_job_failure_free       (SluiceJobFailure       *failure);

GType              sluice_stored_job_get_type    (void) G_GNUC_CONST;
SluiceStoredJob   *sluice_stored_job_copy        (const SluiceStoredJob  *job);
void               sluice_stored_job_free        (SluiceStoredJob        *job);
const char        *sluice_stored_job_state_to_string (SluiceStoredJobState state);
gboolean           sluice_stored_job_state_from_string (const char       *name,
                                                  SluiceStoredJobState   *state);

GType              sluice_job_claim_get_type     (void) G_GNUC_CONST;
SluiceJobClaim    *sluice_job_claim_copy         (const SluiceJobClaim   *claim);
void               sluice_job_claim_free         (SluiceJobClaim         *claim);

GType              sluice_store_status_get_type  (void) G_GNUC_CONST;
SluiceStoreStatus *sluice_store_status_copy      (const SluiceStoreStatus *status);
void               sluice_store_status_free      (SluiceStoreStatus      *status);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceJobFailure, sluice_job_failure_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoredJob, sluice_stored_job_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceJobClaim, sluice_job_claim_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreStatus, sluice_store_status_free)

#define SLUICE_TYPE_JOB_STORE (sluice_job_store_get_type ())
G_DECLARE_INTERFACE (SluiceJobStore, sluice_job_store, SLUICE, JOB_STORE, GObject)

/**
 * SluiceJobStoreInterface:
 *
 * The seed's `JobStore` protocol in GIO form. Every call is asynchronous
 * and never blocks the caller's main context: the callback runs on the
 * thread-default main context of the call. Times (@now, @available_at)
 * are µs since the Unix epoch; @lease is µs. Every `_finish` that returns
 * %FALSE, %NULL (but claim_next's "no job") or -1 sets @error.
 */
struct _SluiceJobStoreInterface
{
  GTypeInterface g_iface;

  void               (*enqueue_async)         (SluiceJobStore          *self,
                                               const char              *tenant,
                                               const char              *operation_key,
                                               const char              *payload,
                                               guint                    max_attempts,
                                               gint64                   now,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  SluiceStoredJob   *(*enqueue_finish)        (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               gboolean                *created,
                                               GError                 **error);
  void               (*claim_next_async)      (SluiceJobStore          *self,
                                               const char              *tenant,
                                               const char              *owner,
                                               gint64                   lease,
                                               gint64                   now,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  SluiceJobClaim    *(*claim_next_finish)     (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  void               (*renew_async)           (SluiceJobStore          *self,
                                               const SluiceJobClaim    *claim,
                                               gint64                   lease,
                                               gint64                   now,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  gboolean           (*renew_finish)          (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  void               (*complete_async)        (SluiceJobStore          *self,
                                               const SluiceJobClaim    *claim,
                                               const char              *result_json,
                                               gint64                   now,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  gboolean           (*complete_finish)       (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  void               (*fail_async)            (SluiceJobStore          *self,
                                               const SluiceJobClaim    *claim,
                                               const SluiceJobFailure  *failure,
                                               gint64                   available_at,
                                               gint64                   now,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  gboolean           (*fail_finish)           (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  void               (*release_async)         (SluiceJobStore          *self,
                                               const SluiceJobClaim    *claim,
                                               gint64                   now,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  gboolean           (*release_finish)        (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  void               (*release_expired_async) (SluiceJobStore          *self,
                                               const char              *tenant,
                                               gint64                   now,
                                               guint                    limit,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  gint64             (*release_expired_finish) (SluiceJobStore         *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  void               (*get_status_async)      (SluiceJobStore          *self,
                                               const char              *tenant,
                                               guint                    n_failures,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  SluiceStoreStatus *(*get_status_finish)     (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
  /* Optional: without them, claim_async() is one claim_next. */
  void               (*claim_async)           (SluiceJobStore          *self,
                                               const char              *tenant,
                                               const char              *owner,
                                               gint64                   lease,
                                               gint64                   now,
                                               guint                    max_jobs,
                                               GCancellable            *cancellable,
                                               GAsyncReadyCallback      callback,
                                               gpointer                 user_data);
  GPtrArray         *(*claim_finish)          (SluiceJobStore          *self,
                                               GAsyncResult            *result,
                                               GError                 **error);
};

/*
 * Signals of the interface:
 * - "jobs-available" (SluiceJobStore *store, const char *tenant): jobs may
 *   be waiting to be claimed (PostgreSQL: a NOTIFY from any process's
 *   enqueue, failure with a retry or release; SQLite: this process's own), emitted
 *   on the main context the store was made on. Idle workers wake on it and
 *   poll slowly otherwise.
 */

GQuark             sluice_store_error_quark      (void);

SluiceJobStore    *sluice_job_store_new_for_uri  (const char             *uri,
                                                  GError                **error);
SluiceJobStore    *sluice_job_store_open_for_uri (const char             *uri,
                                                  SluiceJobStoreOpen      mode,
                                                  GError                **error);
gboolean           sluice_job_store_check_tenant (const char             *tenant,
                                                  GError                **error);
gboolean           sluice_job_store_check_operation_key (const char      *operation_key,
                                                  GError                **error);
char              *sluice_job_store_describe_uri (const char             *uri);

void               sluice_job_store_enqueue_async (SluiceJobStore        *self,
                                                  const char             *tenant,
                                                  const char             *operation_key,
                                                  const char             *payload,
                                                  guint                   max_attempts,
                                                  gint64                  now,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
SluiceStoredJob   *sluice_job_store_enqueue_finish (SluiceJobStore       *self,
                                                  GAsyncResult           *result,
                                                  gboolean               *created,
                                                  GError                **error);
void               sluice_job_store_claim_next_async (SluiceJobStore     *self,
                                                  const char             *tenant,
                                                  const char             *owner,
                                                  gint64                  lease,
                                                  gint64                  now,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
SluiceJobClaim    *sluice_job_store_claim_next_finish (SluiceJobStore    *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_claim_async  (SluiceJobStore         *self,
                                                  const char             *tenant,
                                                  const char             *owner,
                                                  gint64                  lease,
                                                  gint64                  now,
                                                  guint                   max_jobs,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
GPtrArray         *sluice_job_store_claim_finish (SluiceJobStore         *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_renew_async  (SluiceJobStore         *self,
                                                  const SluiceJobClaim   *claim,
                                                  gint64                  lease,
                                                  gint64                  now,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
gboolean           sluice_job_store_renew_finish (SluiceJobStore         *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_complete_async (SluiceJobStore       *self,
                                                  const SluiceJobClaim   *claim,
                                                  const char             *result_json,
                                                  gint64                  now,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
gboolean           sluice_job_store_complete_finish (SluiceJobStore      *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_fail_async   (SluiceJobStore         *self,
                                                  const SluiceJobClaim   *claim,
                                                  const SluiceJobFailure *failure,
                                                  gint64                  available_at,
                                                  gint64                  now,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
gboolean           sluice_job_store_fail_finish  (SluiceJobStore         *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_release_async (SluiceJobStore        *self,
                                                  const SluiceJobClaim   *claim,
                                                  gint64                  now,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
gboolean           sluice_job_store_release_finish (SluiceJobStore       *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_release_expired_async (SluiceJobStore *self,
                                                  const char             *tenant,
                                                  gint64                  now,
                                                  guint                   limit,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
gint64             sluice_job_store_release_expired_finish (SluiceJobStore *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);
void               sluice_job_store_get_status_async (SluiceJobStore     *self,
                                                  const char             *tenant,
                                                  guint                   n_failures,
                                                  GCancellable           *cancellable,
                                                  GAsyncReadyCallback     callback,
                                                  gpointer                user_data);
SluiceStoreStatus *sluice_job_store_get_status_finish (SluiceJobStore    *self,
                                                  GAsyncResult           *result,
                                                  GError                **error);

G_END_DECLS
