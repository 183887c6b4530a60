/* sluice-sqlite-store.c: the job store in a SQLite file, on a thread of its own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-sqlite-store.h"

#include <glib/gi18n-lib.h>

#include "sluice-sqlite-connection-private.h"

/**
 * SluiceSqliteStore:
 *
 * A #SluiceJobStore in one SQLite file, for one machine: several
 * processes (each with its own stores) may share the file.
 *
 * The connection belongs to a thread of the store's own: every call is a
 * request on its queue, run there in the order made, its result returned
 * with g_task_return_*() on the caller's thread-default main context
 * (where the callback runs, and where the task is let go of: the store is
 * never finalized on its own thread). A request whose cancellable is
 * cancelled before its turn does nothing and fails with
 * %G_IO_ERROR_CANCELLED; once its SQL has started it finishes and reports
 * what it did (a claim the file holds is never reported as cancelled:
 * nobody would hold its lease). The SQL is sluice-sqlite-connection*.c's.
 *
 * Settings and why (docs/job-store.md): WAL journal mode, so that readers
 * (store-status, the app) never wait for a writer and a writer does not
 * wait for readers; `synchronous=FULL`, so that an enqueue that was
 * answered survives a power cut; `busy_timeout` of 5 s, so that writers of
 * several processes queue on the file's lock instead of failing; and
 * `BEGIN IMMEDIATE` for every write, so that a transaction takes the write
 * lock before it reads (a deferred transaction that reads, then writes,
 * fails at once with `SQLITE_BUSY` when another process wrote in
 * between, and its busy handler is not called).
 *
 * "jobs-available" is emitted, on the main context the store was made on,
 * after this process's enqueue that made a job, fail that scheduled a
 * retry, release of a claim, and release_expired that put jobs back to
 * pending: SQLite tells no other process.
 */

/* ---- the thread and what it shares with the store --------------------- */

/* The store's thread owns the connection; the store keeps a reference so
 * that dispose can stop the thread and let go of the file. */
typedef struct
{
  SluiceSqliteConnection *conn;
  GAsyncQueue            *requests;  /* GTask, or &quit_marker */
  GMainContext           *context;   /* the store's: where "jobs-available" is emitted */
  GWeakRef               *store;     /* an atomic rc box, shared with pending wake-ups */
} Backend;

static const int quit_marker;

static void
backend_clear (Backend *b)
{
  g_clear_pointer (&b->conn, sluice_sqlite_connection_free);
  g_clear_pointer (&b->requests, g_async_queue_unref);
  g_clear_pointer (&b->context, g_main_context_unref);
  if (b->store != NULL)
    g_atomic_rc_box_release_full (b->store, (GDestroyNotify) g_weak_ref_clear);
  b->store = NULL;
}

static Backend *
backend_ref (Backend *b)
{
  return g_atomic_rc_box_acquire (b);
}

static void
backend_unref (Backend *b)
{
  g_atomic_rc_box_release_full (b, (GDestroyNotify) backend_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Backend, backend_unref)

typedef struct
{
  GWeakRef *store;
  char     *tenant;
} Wake;

static void
wake_free (gpointer data)
{
  Wake *w = data;

  g_atomic_rc_box_release_full (w->store, (GDestroyNotify) g_weak_ref_clear);
  g_free (w->tenant);
  g_free (w);
}

static gboolean
wake_emit (gpointer data)
{
  Wake *w = data;
  g_autoptr(GObject) store = g_weak_ref_get (w->store);

  if (store != NULL)
    g_signal_emit_by_name (store, "jobs-available", w->tenant);
  return G_SOURCE_REMOVE;
}

/* "jobs-available" for @tenant, on the store's main context, if the store
 * is still alive then. */
static void
backend_announce (Backend    *b,
                  const char *tenant)
{
  Wake *w = g_new0 (Wake, 1);

  w->store = g_atomic_rc_box_acquire (b->store);
  w->tenant = g_strdup (tenant);
  g_main_context_invoke_full (b->context, G_PRIORITY_DEFAULT, wake_emit, w, wake_free);
}

/* ---- requests ------------------------------------------------------------- */

typedef enum {
  OP_ENQUEUE,
  OP_CLAIM,
  OP_RENEW,
  OP_COMPLETE,
  OP_FAIL,
  OP_RELEASE_CLAIM,
  OP_RELEASE_EXPIRED,
  OP_STATUS,
} Op;

typedef enum {
  ANSWER_POINTER,
  ANSWER_BOOLEAN,
  ANSWER_INT,
} AnswerKind;

/* A call's arguments (the task's data), and its answer, made on the
 * store's thread and given on the caller's. */
typedef struct
{
  Op                op;
  char             *tenant;
  char             *operation_key;  /* enqueue */
  char             *text;           /* enqueue: payload; complete: result */
  char             *owner;          /* claim */
  char             *job_id;         /* renew, complete, fail, release */
  char             *token;          /* renew, complete, fail, release */
  SluiceJobFailure *failure;        /* fail */
  guint             count;          /* enqueue: max attempts; release_expired: limit; status: failures */
  gint64            lease;
  gint64            now;
  gint64            available_at;   /* fail */

  AnswerKind        answer_kind;
  GError           *error;
  gpointer          pointer;
  GDestroyNotify    pointer_free;
  gint64            number;
  gboolean          created;        /* enqueue's, read by its _finish */
  GPtrArray        *wake;           /* tenants for "jobs-available" */
} Request;

static void
request_free (gpointer data)
{
  Request *r = data;

  g_free (r->tenant);
  g_free (r->operation_key);
  g_free (r->text);
  g_free (r->owner);
  g_free (r->job_id);
  g_free (r->token);
  sluice_job_failure_free (r->failure);
  g_clear_error (&r->error);
  if (r->pointer != NULL && r->pointer_free != NULL)
    r->pointer_free (r->pointer);
  g_clear_pointer (&r->wake, g_ptr_array_unref);
  g_free (r);
}

static Request *
request_new (Op op)
{
  Request *r = g_new0 (Request, 1);

  r->op = op;
  return r;
}

static Request *
request_for_claim (Op                    op,
                   const SluiceJobClaim *claim,
                   gint64                now)
{
  Request *r = request_new (op);

  r->tenant = g_strdup (claim->job->tenant);
  r->job_id = g_strdup (claim->job->id);
  r->token = g_strdup (claim->token);
  r->now = now;
  return r;
}

static void
request_wake (Request    *r,
              const char *tenant)
{
  if (r->wake == NULL)
    r->wake = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (r->wake, g_strdup (tenant));
}

static void
answer_pointer (Request        *r,
                gpointer        pointer,
                GDestroyNotify  pointer_free)
{
  r->answer_kind = ANSWER_POINTER;
  r->pointer = pointer;
  r->pointer_free = pointer_free;
}

static void
answer_number (Request    *r,
               AnswerKind  kind,
               gint64      number)
{
  r->answer_kind = kind;
  r->number = number;
}

/* On the store's thread: runs @r's SQL and keeps its answer in @r. */
static void
request_run (Request                *r,
             SluiceSqliteConnection *conn)
{
  GError **error = &r->error;

  switch (r->op)
    {
    case OP_ENQUEUE:
      answer_pointer (r, sluice_sqlite_connection_enqueue (conn, r->tenant, r->operation_key, r->text,
                                                           r->count, r->now, &r->created, error),
                      (GDestroyNotify) sluice_stored_job_free);
      if (r->created)
        request_wake (r, r->tenant);
      break;
    case OP_CLAIM:
      answer_pointer (r, sluice_sqlite_connection_claim_next (conn, r->tenant, r->owner, r->lease,
                                                              r->now, error),
                      (GDestroyNotify) sluice_job_claim_free);
      break;
    case OP_RENEW:
      answer_number (r, ANSWER_BOOLEAN,
                     sluice_sqlite_connection_renew (conn, r->job_id, r->token, r->lease, r->now, error));
      break;
    case OP_COMPLETE:
      answer_number (r, ANSWER_BOOLEAN,
                     sluice_sqlite_connection_complete (conn, r->job_id, r->token, r->text, r->now, error));
      break;
    case OP_FAIL:
      answer_number (r, ANSWER_BOOLEAN,
                     sluice_sqlite_connection_fail (conn, r->job_id, r->token, r->failure,
                                                    r->available_at, r->now, error));
      if (r->number && r->available_at >= 0)
        request_wake (r, r->tenant);
      break;
    case OP_RELEASE_CLAIM:
      answer_number (r, ANSWER_BOOLEAN,
                     sluice_sqlite_connection_release (conn, r->job_id, r->token, r->now, error));
      if (r->number)
        request_wake (r, r->tenant);
      break;
    case OP_RELEASE_EXPIRED:
      answer_number (r, ANSWER_INT,
                     sluice_sqlite_connection_release_expired (conn, r->tenant, r->now, r->count,
                                                               &r->wake, error));
      break;
    case OP_STATUS:
      answer_pointer (r, sluice_sqlite_connection_get_status (conn, r->tenant, r->count, error),
                      (GDestroyNotify) sluice_store_status_free);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* On the caller's main context: the callback runs from here, and the
 * reference to the task that the store's thread had (and with it one to
 * the store) is dropped here, never on the store's thread. */
static gboolean
deliver_answer (gpointer data)
{
  GTask *task = data;
  Request *r = g_task_get_task_data (task);

  if (r->error != NULL)
    g_task_return_error (task, g_steal_pointer (&r->error));
  else if (r->answer_kind == ANSWER_POINTER)
    g_task_return_pointer (task, g_steal_pointer (&r->pointer), r->pointer_free);
  else if (r->answer_kind == ANSWER_BOOLEAN)
    g_task_return_boolean (task, r->number != 0);
  else
    g_task_return_int (task, r->number);
  return G_SOURCE_REMOVE;
}

/* The store's thread: the requests in the order made, until the marker
 * that dispose pushes; everything queued before it is done. */
static gpointer
backend_thread (gpointer data)
{
  g_autoptr(Backend) b = data;

  for (;;)
    {
      gpointer item = g_async_queue_pop (b->requests);
      g_autoptr(GPtrArray) wake = NULL;
      GTask *task;
      Request *r;

      if (item == &quit_marker)
        break;
      task = item;
      r = g_task_get_task_data (task);
      if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (task), &r->error))
        request_run (r, b->conn);
      /* The wake-ups come before the answer: whoever waits for the
       * answer (and then for what the wake-up caused, on a virtual clock)
       * finds them already queued. The task's reference goes with the
       * answer: from here on, @r may be gone. */
      wake = g_steal_pointer (&r->wake);
      for (guint i = 0; wake != NULL && i < wake->len; i++)
        backend_announce (b, g_ptr_array_index (wake, i));
      g_main_context_invoke_full (g_task_get_context (task), g_task_get_priority (task),
                                  deliver_answer, task, g_object_unref);
    }
  return NULL;
}

/* ---- the GObject ------------------------------------------------------- */

struct _SluiceSqliteStore
{
  GObject   parent_instance;

  char     *path;
  SluiceJobStoreOpen mode;  /* set before init */
  Backend  *backend;  /* NULL before init and after dispose */
  GThread  *thread;
};

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void sluice_sqlite_store_initable_init (GInitableIface *iface);
static void sluice_sqlite_store_job_store_init (SluiceJobStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceSqliteStore, sluice_sqlite_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, sluice_sqlite_store_initable_init)
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_JOB_STORE, sluice_sqlite_store_job_store_init))

static gboolean
sluice_sqlite_store_init_backend (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (initable);
  SluiceSqliteConnection *conn;
  Backend *b;

  g_return_val_if_fail (self->path != NULL, FALSE);
  if (self->backend != NULL)
    return TRUE;
  conn = sluice_sqlite_connection_open (self->path, self->mode, error);
  if (conn == NULL)
    return FALSE;
  b = g_atomic_rc_box_new0 (Backend);
  b->conn = conn;
  b->requests = g_async_queue_new ();
  b->context = g_main_context_ref_thread_default ();
  b->store = g_atomic_rc_box_new0 (GWeakRef);
  g_weak_ref_init (b->store, self);
  self->thread = g_thread_try_new ("sluice-sqlite", backend_thread, backend_ref (b), error);
  if (self->thread == NULL)
    {
      backend_unref (b);  /* the thread's */
      backend_unref (b);
      return FALSE;
    }
  self->backend = b;
  return TRUE;
}

static void
sluice_sqlite_store_initable_init (GInitableIface *iface)
{
  iface->init = sluice_sqlite_store_init_backend;
}

static void
sluice_sqlite_store_dispose (GObject *object)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  if (self->backend != NULL)
    {
      g_async_queue_push (self->backend->requests, (gpointer) &quit_marker);
      /* Never on the store's thread: it holds no reference to the store
       * (its tasks' go back to the callers' contexts with the answers). */
      g_thread_join (g_steal_pointer (&self->thread));
      g_clear_pointer (&self->backend, backend_unref);
    }
  G_OBJECT_CLASS (sluice_sqlite_store_parent_class)->dispose (object);
}

static void
sluice_sqlite_store_finalize (GObject *object)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  g_free (self->path);
  G_OBJECT_CLASS (sluice_sqlite_store_parent_class)->finalize (object);
}

static void
sluice_sqlite_store_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_sqlite_store_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_free (self->path);
      self->path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_sqlite_store_class_init (SluiceSqliteStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_sqlite_store_dispose;
  object_class->finalize = sluice_sqlite_store_finalize;
  object_class->get_property = sluice_sqlite_store_get_property;
  object_class->set_property = sluice_sqlite_store_set_property;

  /**
   * SluiceSqliteStore:path:
   *
   * The SQLite file (sluice_sqlite_store_open() says when it is created).
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_sqlite_store_init (SluiceSqliteStore *self)
{
}

/* ---- the interface: requests onto the thread -------------------------- */

/* Queues @r (owned) as a task for the store's thread. */
static void
submit (SluiceSqliteStore   *self,
        Request             *r,
        gpointer             source_tag,
        GCancellable        *cancellable,
        GAsyncReadyCallback  callback,
        gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, r, request_free);
  /* Cancelled during its SQL, a request still reports what it did. */
  g_task_set_check_cancellable (task, FALSE);
  if (self->backend == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                               /* Translators: %s is the store's file */
                               _("Job store %s: it is closed"), self->path);
      g_object_unref (task);
      return;
    }
  g_async_queue_push (self->backend->requests, task);
}

static void
sqlite_enqueue_async (SluiceJobStore      *store,
                      const char          *tenant,
                      const char          *operation_key,
                      const char          *payload,
                      guint                max_attempts,
                      gint64               now,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  Request *r = request_new (OP_ENQUEUE);

  r->tenant = g_strdup (tenant);
  r->operation_key = g_strdup (operation_key);
  r->text = g_strdup (payload);
  r->count = max_attempts;
  r->now = now;
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_enqueue_async, cancellable, callback, user_data);
}

static SluiceStoredJob *
sqlite_enqueue_finish (SluiceJobStore  *store,
                       GAsyncResult    *result,
                       gboolean        *created,
                       GError         **error)
{
  SluiceStoredJob *job;

  g_return_val_if_fail (g_task_is_valid (result, store), NULL);

  job = g_task_propagate_pointer (G_TASK (result), error);
  *created = job != NULL && ((Request *) g_task_get_task_data (G_TASK (result)))->created;
  return job;
}

static void
sqlite_claim_next_async (SluiceJobStore      *store,
                         const char          *tenant,
                         const char          *owner,
                         gint64               lease,
                         gint64               now,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Request *r = request_new (OP_CLAIM);

  r->tenant = g_strdup (tenant);
  r->owner = g_strdup (owner);
  r->lease = lease;
  r->now = now;
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_claim_next_async, cancellable, callback, user_data);
}

static gpointer
sqlite_propagate_pointer (SluiceJobStore  *store,
                          GAsyncResult    *result,
                          GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static SluiceJobClaim *
sqlite_claim_next_finish (SluiceJobStore  *store,
                          GAsyncResult    *result,
                          GError         **error)
{
  return sqlite_propagate_pointer (store, result, error);
}

static void
sqlite_renew_async (SluiceJobStore       *store,
                    const SluiceJobClaim *claim,
                    gint64                lease,
                    gint64                now,
                    GCancellable         *cancellable,
                    GAsyncReadyCallback   callback,
                    gpointer              user_data)
{
  Request *r = request_for_claim (OP_RENEW, claim, now);

  r->lease = lease;
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_renew_async, cancellable, callback, user_data);
}

static gboolean
sqlite_propagate_boolean (SluiceJobStore  *store,
                          GAsyncResult    *result,
                          GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
sqlite_complete_async (SluiceJobStore       *store,
                       const SluiceJobClaim *claim,
                       const char           *result_json,
                       gint64                now,
                       GCancellable         *cancellable,
                       GAsyncReadyCallback   callback,
                       gpointer              user_data)
{
  Request *r = request_for_claim (OP_COMPLETE, claim, now);

  r->text = g_strdup (result_json);
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_complete_async, cancellable, callback, user_data);
}

static void
sqlite_fail_async (SluiceJobStore         *store,
                   const SluiceJobClaim   *claim,
                   const SluiceJobFailure *failure,
                   gint64                  available_at,
                   gint64                  now,
                   GCancellable           *cancellable,
                   GAsyncReadyCallback     callback,
                   gpointer                user_data)
{
  Request *r = request_for_claim (OP_FAIL, claim, now);

  r->failure = sluice_job_failure_copy (failure);
  r->available_at = available_at;
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_fail_async, cancellable, callback, user_data);
}

static void
sqlite_release_async (SluiceJobStore       *store,
                      const SluiceJobClaim *claim,
                      gint64                now,
                      GCancellable         *cancellable,
                      GAsyncReadyCallback   callback,
                      gpointer              user_data)
{
  Request *r = request_for_claim (OP_RELEASE_CLAIM, claim, now);

  submit (SLUICE_SQLITE_STORE (store), r, sqlite_release_async, cancellable, callback, user_data);
}

static void
sqlite_release_expired_async (SluiceJobStore      *store,
                              const char          *tenant,
                              gint64               now,
                              guint                limit,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  Request *r = request_new (OP_RELEASE_EXPIRED);

  r->tenant = g_strdup (tenant);
  r->now = now;
  r->count = limit;
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_release_expired_async, cancellable, callback, user_data);
}

static gint64
sqlite_release_expired_finish (SluiceJobStore  *store,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), -1);

  return g_task_propagate_int (G_TASK (result), error);
}

static void
sqlite_get_status_async (SluiceJobStore      *store,
                         const char          *tenant,
                         guint                n_failures,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  Request *r = request_new (OP_STATUS);

  r->tenant = g_strdup (tenant);
  r->count = n_failures;
  submit (SLUICE_SQLITE_STORE (store), r, sqlite_get_status_async, cancellable, callback, user_data);
}

static SluiceStoreStatus *
sqlite_get_status_finish (SluiceJobStore  *store,
                          GAsyncResult    *result,
                          GError         **error)
{
  return sqlite_propagate_pointer (store, result, error);
}

static void
sluice_sqlite_store_job_store_init (SluiceJobStoreInterface *iface)
{
  iface->enqueue_async = sqlite_enqueue_async;
  iface->enqueue_finish = sqlite_enqueue_finish;
  iface->claim_next_async = sqlite_claim_next_async;
  iface->claim_next_finish = sqlite_claim_next_finish;
  iface->renew_async = sqlite_renew_async;
  iface->renew_finish = sqlite_propagate_boolean;
  iface->complete_async = sqlite_complete_async;
  iface->complete_finish = sqlite_propagate_boolean;
  iface->fail_async = sqlite_fail_async;
  iface->fail_finish = sqlite_propagate_boolean;
  iface->release_async = sqlite_release_async;
  iface->release_finish = sqlite_propagate_boolean;
  iface->release_expired_async = sqlite_release_expired_async;
  iface->release_expired_finish = sqlite_release_expired_finish;
  iface->get_status_async = sqlite_get_status_async;
  iface->get_status_finish = sqlite_get_status_finish;
}

/**
 * sluice_sqlite_store_open:
 * @path: the SQLite file
 * @mode: what opening may do to the file: read-write makes the job store
 *   in a new file or one without tables, init also in one with other
 *   tables; read-only opens it with `SQLITE_OPEN_READONLY` and never
 *   creates, converts (to WAL) or migrates it
 * @error: set on failure: %SLUICE_STORE_ERROR_BACKEND naming the file
 *   (it cannot be opened, is not a database, cannot use WAL, is locked past
 *   the busy timeout), %SLUICE_STORE_ERROR_SCHEMA (a newer schema, or not a
 *   job store's), %SLUICE_STORE_ERROR_NOT_A_STORE (no job store, and @mode
 *   does not let it make one; read-only: no such file)
 *
 * Opens the store in @path on the caller's thread (this may wait up to the
 * busy timeout for another process's write), then hands the connection to
 * the store's thread.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_sqlite_store_open (const char          *path,
                          SluiceJobStoreOpen   mode,
                          GError             **error)
{
  g_autoptr(SluiceSqliteStore) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (mode <= SLUICE_JOB_STORE_OPEN_INIT, NULL);

  self = g_object_new (SLUICE_TYPE_SQLITE_STORE, "path", path, NULL);
  /* Not a property: a store is opened in one mode for its life. */
  self->mode = mode;
  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return NULL;
  return SLUICE_JOB_STORE (g_steal_pointer (&self));
}

/**
 * sluice_sqlite_store_new:
 * @path: the SQLite file; made with the schema if it does not exist
 * @error: set on failure, as sluice_sqlite_store_open() says
 *
 * Opens the store in @path for reading and writing
 * (%SLUICE_JOB_STORE_OPEN_READ_WRITE).
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_sqlite_store_new (const char  *path,
                         GError     **error)
{
  return sluice_sqlite_store_open (path, SLUICE_JOB_STORE_OPEN_READ_WRITE, error);
}

/**
 * sluice_sqlite_store_get_path:
 * @self: a store
 *
 * Returns: its SQLite file
 */
const char *
sluice_sqlite_store_get_path (SluiceSqliteStore *self)
{
  g_return_val_if_fail (SLUICE_IS_SQLITE_STORE (self), NULL);

  return self->path;
}
