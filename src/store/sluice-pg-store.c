/* sluice-pg-store.c: the job store on PostgreSQL (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SluicePgStore:
 *
 * A #SluiceJobStore in a PostgreSQL database, for workers on several
 * machines (libpq; PostgreSQL 15 is what the tests run). Claims take a row
 * with `FOR UPDATE SKIP LOCKED`, fencing is in the WHERE of every renew,
 * complete and fail, enqueue is idempotent by `INSERT … ON CONFLICT DO
 * NOTHING`. Enqueue, a fail that schedules a retry and a release send
 * `NOTIFY sluice_jobs, 'TENANT'`; the store LISTENs and emits "jobs-available" on
 * the main context it was made on, for a notification from any process,
 * itself included.
 *
 * The store makes its schema (tables `sluice_schema` and `sluice_jobs`) on
 * its first connection, in a transaction that holds an advisory lock, and
 * refuses a schema version newer than its own with
 * %SLUICE_STORE_ERROR_SCHEMA. It makes it only in a schema without tables
 * unless opened with %SLUICE_JOB_STORE_OPEN_INIT, and never when opened
 * read-only (SluiceJobStoreOpen). A URI's `options=-csearch_path=S` puts the
 * tables into schema S.
 *
 * Threads: all of libpq runs on one thread of the store's own, one request
 * after the other on one connection, with libpq's blocking calls; the
 * results come back through #GTask on the caller's thread-default main
 * context. A thread rather than libpq's non-blocking calls on the caller's
 * main context because connecting is not asynchronous all the way in
 * libpq (a host name is resolved with a blocking getaddrinfo() inside
 * PQconnectPoll()), because the schema's transaction and the statements'
 * preparation are plain sequences this way, and because the SQLite store
 * works the same way. The connection doubles as the listener: while it is
 * idle its socket is watched on the thread's own main context.
 *
 * Nothing connects in sluice_pg_store_new(): the first request does, and
 * its error (the server unreachable, a newer schema) is that request's. A
 * connection that breaks is closed with the failing request's error and
 * the next request opens a new one (and LISTENs again: notifications in
 * between are lost, which costs idle workers a poll interval). A request
 * that was cancelled before it ran does not run; one that runs is not
 * interrupted, and GTask reports it cancelled if it was cancelled by then
 * (a claim made so is lost to its caller until its lease expires and
 * release_expired puts the job back: delivery is at least once).
 *
 * release_expired with a %NULL or empty tenant releases the expired leases
 * of every tenant; a limit of 0 releases none, as the limit says.
 */

#include "sluice-pg-store.h"

#include "sluice-pg-connection-private.h"

typedef enum {
  REQUEST_ENQUEUE,
  REQUEST_CLAIM_NEXT,
  REQUEST_RENEW,
  REQUEST_COMPLETE,
  REQUEST_FAIL,
  REQUEST_RELEASE,
  REQUEST_RELEASE_EXPIRED,
  REQUEST_GET_STATUS,
} RequestKind;

/* What a request takes and gives: the task's data, filled in on the
 * store's thread, returned on the caller's context. */
typedef struct
{
  RequestKind         kind;
  SluicePgConnection *connection;

  char               *tenant;
  char               *operation_key;
  char               *payload;
  char               *owner;
  char               *result_json;
  SluiceJobClaim     *claim;
  SluiceJobFailure   *failure;
  guint               max_attempts;
  guint               limit;
  guint               n_failures;
  gint64              lease;
  gint64              now;
  gint64              available_at;

  gpointer            value;
  GDestroyNotify      value_free;
  gboolean            created;
  gint64              count;
  GError             *error;
} Request;

/* What the store's thread may reach of the store: a weak reference, for
 * the notifications, the context to emit them on, and the tenants whose
 * emission is on its way there (under the lock): a burst of NOTIFYs for
 * one tenant, such as a thousand enqueues, wakes the store's workers
 * once, not a thousand times. */
typedef struct
{
  GWeakRef      store;
  GMainContext *context;
  GMutex        lock;
  GHashTable   *pending;
} Shared;

struct _SluicePgStore
{
  GObject             parent_instance;

  char               *description;
  Shared             *shared;
  SluicePgConnection *connection;
  GMainContext       *worker_context;
  GMainLoop          *worker_loop;
  GThread            *thread;
};

static void sluice_pg_store_job_store_init (SluiceJobStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluicePgStore, sluice_pg_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_JOB_STORE,
                                                      sluice_pg_store_job_store_init))

/* ---- notifications ---------------------------------------------------------- */

static void
shared_clear (gpointer data)
{
  Shared *shared = data;

  g_weak_ref_clear (&shared->store);
  g_main_context_unref (shared->context);
  g_mutex_clear (&shared->lock);
  g_hash_table_unref (shared->pending);
}

static void
shared_unref (Shared *shared)
{
  g_atomic_rc_box_release_full (shared, shared_clear);
}

typedef struct
{
  Shared *shared;
  char   *tenant;
} Emission;

static void
emission_free (gpointer data)
{
  Emission *emission = data;

  shared_unref (emission->shared);
  g_free (emission->tenant);
  g_free (emission);
}

static gboolean
emit_jobs_available (gpointer data)
{
  Emission *emission = data;
  g_autoptr (GObject) store = g_weak_ref_get (&emission->shared->store);

  /* A NOTIFY from now on is a new emission, also during this one. */
  g_mutex_lock (&emission->shared->lock);
  g_hash_table_remove (emission->shared->pending, emission->tenant);
  g_mutex_unlock (&emission->shared->lock);
  if (store != NULL)
    g_signal_emit_by_name (store, "jobs-available", emission->tenant);
  return G_SOURCE_REMOVE;
}

/* An idle source rather than g_main_context_invoke(): that would run the
 * function on this thread when no thread iterates the context. */
static void
attach_idle (GMainContext   *context,
             GSourceFunc     function,
             gpointer        data,
             GDestroyNotify  destroy,
             const char     *name)
{
  g_autoptr (GSource) source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, function, data, destroy);
  g_source_set_static_name (source, name);
  g_source_attach (source, context);
}

/* On the store's thread. */
static void
on_notification (const char *tenant,
                 gpointer    user_data)
{
  Shared *shared = user_data;
  Emission *emission;
  gboolean pending;

  g_mutex_lock (&shared->lock);
  pending = !g_hash_table_add (shared->pending, g_strdup (tenant));
  g_mutex_unlock (&shared->lock);
  if (pending)
    return;

  emission = g_new0 (Emission, 1);
  emission->shared = g_atomic_rc_box_acquire (shared);
  emission->tenant = g_strdup (tenant);
  attach_idle (shared->context, emit_jobs_available, emission, emission_free,
               "[sluice] jobs-available");
}

/* ---- requests --------------------------------------------------------------- */

static void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->tenant);
  g_free (request->operation_key);
  g_free (request->payload);
  g_free (request->owner);
  g_free (request->result_json);
  g_clear_pointer (&request->claim, sluice_job_claim_free);
  g_clear_pointer (&request->failure, sluice_job_failure_free);
  if (request->value != NULL && request->value_free != NULL)
    request->value_free (request->value);
  g_clear_error (&request->error);
  g_free (request);
}

/* On the caller's context: the task is returned and let go of here, never
 * on the store's thread, so that the store (the task's source object) is
 * never finalized there. */
static gboolean
return_request (gpointer data)
{
  GTask *task = data;
  Request *request = g_task_get_task_data (task);

  if (request->error != NULL)
    g_task_return_error (task, g_steal_pointer (&request->error));
  else if (request->kind == REQUEST_RELEASE_EXPIRED)
    g_task_return_int (task, request->count);
  else if (request->kind == REQUEST_RENEW || request->kind == REQUEST_COMPLETE ||
           request->kind == REQUEST_FAIL || request->kind == REQUEST_RELEASE)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_pointer (task, g_steal_pointer (&request->value), request->value_free);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

static void
request_run (Request *request)
{
  SluicePgConnection *connection = request->connection;
  GError **error = &request->error;

  switch (request->kind)
    {
    case REQUEST_ENQUEUE:
      request->value = sluice_pg_connection_enqueue (connection, request->tenant,
                                                     request->operation_key, request->payload,
                                                     request->max_attempts, request->now,
                                                     &request->created, error);
      request->value_free = (GDestroyNotify) sluice_stored_job_free;
      break;
    case REQUEST_CLAIM_NEXT:
      request->value = sluice_pg_connection_claim_next (connection, request->tenant, request->owner,
                                                        request->lease, request->now, error);
      request->value_free = (GDestroyNotify) sluice_job_claim_free;
      break;
    case REQUEST_RENEW:
      sluice_pg_connection_renew (connection, request->claim, request->lease, request->now, error);
      break;
    case REQUEST_COMPLETE:
      sluice_pg_connection_complete (connection, request->claim, request->result_json,
                                     request->now, error);
      break;
    case REQUEST_FAIL:
      sluice_pg_connection_fail (connection, request->claim, request->failure,
                                 request->available_at, request->now, error);
      break;
    case REQUEST_RELEASE:
      sluice_pg_connection_release (connection, request->claim, request->now, error);
      break;
    case REQUEST_RELEASE_EXPIRED:
      request->count = sluice_pg_connection_release_expired (connection, request->tenant,
                                                             request->now, request->limit, error);
      break;
    case REQUEST_GET_STATUS:
      request->value = sluice_pg_connection_get_status (connection, request->tenant,
                                                        request->n_failures, error);
      request->value_free = (GDestroyNotify) sluice_store_status_free;
      break;
    default:
      g_assert_not_reached ();
    }
}

/* On the store's thread, one request at a time in the order they came. */
static gboolean
run_request (gpointer data)
{
  GTask *task = data;
  Request *request = g_task_get_task_data (task);

  if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &request->error))
    request_run (request);
  attach_idle (g_task_get_context (task), return_request, task, NULL, "[sluice] job store result");
  return G_SOURCE_REMOVE;
}

static Request *
request_new (SluicePgStore *self,
             RequestKind    kind)
{
  Request *request = g_new0 (Request, 1);

  request->kind = kind;
  request->connection = self->connection;
  return request;
}

/* Hands the task to the store's thread; the task's reference goes with it
 * and comes back with the result. */
static void
submit (SluicePgStore *self,
        GTask         *task,
        Request       *request,
        gpointer       source_tag)
{
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, request, request_free);
  attach_idle (self->worker_context, run_request, task, NULL, "[sluice] job store request");
}

/* ---- the interface ------------------------------------------------------------ */

static void
sluice_pg_store_enqueue_async (SluiceJobStore      *store,
                               const char          *tenant,
                               const char          *operation_key,
                               const char          *payload,
                               guint                max_attempts,
                               gint64               now,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_ENQUEUE);

  request->tenant = g_strdup (tenant);
  request->operation_key = g_strdup (operation_key);
  request->payload = g_strdup (payload);
  request->max_attempts = max_attempts;
  request->now = now;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_enqueue_async);
}

static SluiceStoredJob *
sluice_pg_store_enqueue_finish (SluiceJobStore  *store,
                                GAsyncResult    *result,
                                gboolean        *created,
                                GError         **error)
{
  Request *request = g_task_get_task_data (G_TASK (result));
  SluiceStoredJob *job = g_task_propagate_pointer (G_TASK (result), error);

  if (created != NULL)
    *created = job != NULL && request->created;
  return job;
}

static void
sluice_pg_store_claim_next_async (SluiceJobStore      *store,
                                  const char          *tenant,
                                  const char          *owner,
                                  gint64               lease,
                                  gint64               now,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_CLAIM_NEXT);

  request->tenant = g_strdup (tenant);
  request->owner = g_strdup (owner);
  request->lease = lease;
  request->now = now;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_claim_next_async);
}

static SluiceJobClaim *
sluice_pg_store_claim_next_finish (SluiceJobStore  *store,
                                   GAsyncResult    *result,
                                   GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sluice_pg_store_renew_async (SluiceJobStore       *store,
                             const SluiceJobClaim *claim,
                             gint64                lease,
                             gint64                now,
                             GCancellable         *cancellable,
                             GAsyncReadyCallback   callback,
                             gpointer              user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_RENEW);

  request->claim = sluice_job_claim_copy (claim);
  request->lease = lease;
  request->now = now;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_renew_async);
}

static gboolean
sluice_pg_store_boolean_finish (SluiceJobStore  *store,
                                GAsyncResult    *result,
                                GError         **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
sluice_pg_store_complete_async (SluiceJobStore       *store,
                                const SluiceJobClaim *claim,
                                const char           *result_json,
                                gint64                now,
                                GCancellable         *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_COMPLETE);

  request->claim = sluice_job_claim_copy (claim);
  request->result_json = g_strdup (result_json);
  request->now = now;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_complete_async);
}

static void
sluice_pg_store_fail_async (SluiceJobStore         *store,
                            const SluiceJobClaim   *claim,
                            const SluiceJobFailure *failure,
                            gint64                  available_at,
                            gint64                  now,
                            GCancellable           *cancellable,
                            GAsyncReadyCallback     callback,
                            gpointer                user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_FAIL);

  request->claim = sluice_job_claim_copy (claim);
  request->failure = failure != NULL ? sluice_job_failure_copy (failure) : NULL;
  request->available_at = available_at;
  request->now = now;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_fail_async);
}

static void
sluice_pg_store_release_async (SluiceJobStore       *store,
                               const SluiceJobClaim *claim,
                               gint64                now,
                               GCancellable         *cancellable,
                               GAsyncReadyCallback   callback,
                               gpointer              user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_RELEASE);

  request->claim = sluice_job_claim_copy (claim);
  request->now = now;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_release_async);
}

static void
sluice_pg_store_release_expired_async (SluiceJobStore      *store,
                                       const char          *tenant,
                                       gint64               now,
                                       guint                limit,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_RELEASE_EXPIRED);

  request->tenant = g_strdup (tenant);
  request->now = now;
  request->limit = limit;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_release_expired_async);
}

static gint64
sluice_pg_store_release_expired_finish (SluiceJobStore  *store,
                                        GAsyncResult    *result,
                                        GError         **error)
{
  return g_task_propagate_int (G_TASK (result), error);
}

static void
sluice_pg_store_get_status_async (SluiceJobStore      *store,
                                  const char          *tenant,
                                  guint                n_failures,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  SluicePgStore *self = SLUICE_PG_STORE (store);
  Request *request = request_new (self, REQUEST_GET_STATUS);

  request->tenant = g_strdup (tenant);
  request->n_failures = n_failures;
  submit (self, g_task_new (self, cancellable, callback, user_data), request,
          sluice_pg_store_get_status_async);
}

static SluiceStoreStatus *
sluice_pg_store_get_status_finish (SluiceJobStore  *store,
                                   GAsyncResult    *result,
                                   GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sluice_pg_store_job_store_init (SluiceJobStoreInterface *iface)
{
  iface->enqueue_async = sluice_pg_store_enqueue_async;
  iface->enqueue_finish = sluice_pg_store_enqueue_finish;
  iface->claim_next_async = sluice_pg_store_claim_next_async;
  iface->claim_next_finish = sluice_pg_store_claim_next_finish;
  iface->renew_async = sluice_pg_store_renew_async;
  iface->renew_finish = sluice_pg_store_boolean_finish;
  iface->complete_async = sluice_pg_store_complete_async;
  iface->complete_finish = sluice_pg_store_boolean_finish;
  iface->fail_async = sluice_pg_store_fail_async;
  iface->fail_finish = sluice_pg_store_boolean_finish;
  iface->release_async = sluice_pg_store_release_async;
  iface->release_finish = sluice_pg_store_boolean_finish;
  iface->release_expired_async = sluice_pg_store_release_expired_async;
  iface->release_expired_finish = sluice_pg_store_release_expired_finish;
  iface->get_status_async = sluice_pg_store_get_status_async;
  iface->get_status_finish = sluice_pg_store_get_status_finish;
}

/* ---- the thread and the object -------------------------------------------------- */

typedef struct
{
  GMainContext       *context;
  GMainLoop          *loop;
  SluicePgConnection *connection;
  Shared             *shared;
} ThreadData;

static gpointer
thread_main (gpointer data)
{
  ThreadData *thread = data;

  g_main_context_push_thread_default (thread->context);
  g_main_loop_run (thread->loop);
  /* The connection's watch is a source of this context: gone before it. */
  sluice_pg_connection_free (thread->connection);
  shared_unref (thread->shared);
  g_main_context_pop_thread_default (thread->context);
  g_main_loop_unref (thread->loop);
  g_main_context_unref (thread->context);
  g_free (thread);
  return NULL;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
sluice_pg_store_finalize (GObject *object)
{
  SluicePgStore *self = SLUICE_PG_STORE (object);

  /* An idle source, not g_main_loop_quit() here: a loop that has not
   * started running yet would miss the quit and run forever. */
  attach_idle (self->worker_context, quit_loop, g_main_loop_ref (self->worker_loop),
               (GDestroyNotify) g_main_loop_unref, "[sluice] job store quit");
  if (g_thread_self () != self->thread)
    g_thread_join (self->thread);
  else
    g_thread_unref (self->thread);

  g_main_loop_unref (self->worker_loop);
  g_main_context_unref (self->worker_context);
  shared_unref (self->shared);
  g_free (self->description);

  G_OBJECT_CLASS (sluice_pg_store_parent_class)->finalize (object);
}

static void
sluice_pg_store_class_init (SluicePgStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_pg_store_finalize;
}

static void
sluice_pg_store_init (SluicePgStore *self)
{
}

/**
 * sluice_pg_store_open:
 * @uri: a `postgresql://` (or `postgres://`) URI, as libpq reads it
 * @mode: what connecting may do to the database: read-write makes the job
 *   store in a schema without tables, init also in one with other tables;
 *   read-only never makes or migrates anything, and the session's
 *   transactions are read-only
 * @error: set to %SLUICE_STORE_ERROR_INVALID_URI when @uri is not one
 *
 * Makes a store on the database @uri names. Nothing connects yet (the
 * call never blocks): the first request connects, makes or checks the
 * schema and LISTENs, and fails with %SLUICE_STORE_ERROR_BACKEND when the
 * server cannot be reached, %SLUICE_STORE_ERROR_SCHEMA when its schema
 * is newer, or %SLUICE_STORE_ERROR_NOT_A_STORE when there is no job store
 * and @mode does not let it make one. Notifications ("jobs-available") are emitted on the
 * thread-default main context of this call, from the first request's
 * connection on. Messages name the store with
 * sluice_job_store_describe_uri(), never with its password.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_pg_store_open (const char          *uri,
                      SluiceJobStoreOpen   mode,
                      GError             **error)
{
  SluicePgStore *self;
  ThreadData *thread;

  g_return_val_if_fail (uri != NULL, NULL);
  g_return_val_if_fail (mode <= SLUICE_JOB_STORE_OPEN_INIT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!sluice_pg_check_uri (uri, error))
    return NULL;

  self = g_object_new (SLUICE_TYPE_PG_STORE, NULL);
  self->description = sluice_job_store_describe_uri (uri);
  self->shared = g_atomic_rc_box_new0 (Shared);
  g_weak_ref_init (&self->shared->store, self);
  self->shared->context = g_main_context_ref_thread_default ();
  g_mutex_init (&self->shared->lock);
  self->shared->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->connection = sluice_pg_connection_new (uri, mode, on_notification, self->shared);
  self->worker_context = g_main_context_new ();
  self->worker_loop = g_main_loop_new (self->worker_context, FALSE);

  /* The thread owns the connection (and frees it) and holds the shared
   * part that the connection's notifications use. */
  thread = g_new0 (ThreadData, 1);
  thread->context = g_main_context_ref (self->worker_context);
  thread->loop = g_main_loop_ref (self->worker_loop);
  thread->connection = self->connection;
  thread->shared = g_atomic_rc_box_acquire (self->shared);
  self->thread = g_thread_new ("sluice-pg-store", thread_main, thread);
  return SLUICE_JOB_STORE (self);
}

/**
 * sluice_pg_store_new:
 * @uri: a `postgresql://` (or `postgres://`) URI, as libpq reads it
 * @error: set to %SLUICE_STORE_ERROR_INVALID_URI when @uri is not one
 *
 * sluice_pg_store_open() for reading and writing
 * (%SLUICE_JOB_STORE_OPEN_READ_WRITE).
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_pg_store_new (const char  *uri,
                     GError     **error)
{
  return sluice_pg_store_open (uri, SLUICE_JOB_STORE_OPEN_READ_WRITE, error);
}

/**
 * sluice_pg_store_get_description:
 * @self: a store
 *
 * The store's URI without its password (sluice_job_store_describe_uri()).
 *
 * Returns: (transfer none): the description
 */
const char *
sluice_pg_store_get_description (SluicePgStore *self)
{
  g_return_val_if_fail (SLUICE_IS_PG_STORE (self), NULL);

  return self->description;
}
