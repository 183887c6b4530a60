/* sluice-store-backend.c: the adaptor that runs any store backend on a
 * thread of its own and gives #SluiceJobStore's asynchronous API, once
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-backend.h"

#include <glib/gi18n-lib.h>

/**
 * SluiceStoreBackend:
 *
 * The base of the job stores (#SluiceSqliteStore, #SluicePgStore), in the
 * pattern of GIO's GInputStream: a subclass implements the protocol with
 * synchronous virtuals (#SluiceStoreBackendClass), and this class runs
 * them on a thread of the store's own and implements #SluiceJobStore once.
 *
 * Every call is a request on the thread's queue. The thread takes all the
 * requests queued when it wakes and runs them in the order made, a run of
 * consecutive requests of one group (enqueues; renews; completes, fails
 * and releases) as one batch: one transaction, one round trip, one fsync
 * where the backend can. While the thread works on one batch, the next
 * gathers, so the busier the store, the larger its batches; an idle store
 * answers one request at once. Answers return with g_task_return_*() on
 * each caller's thread-default main context, where the task (and with it
 * its reference to the store) is let go of: the store is never finalized
 * on its own thread.
 *
 * A request whose cancellable is cancelled before its batch runs does
 * nothing and fails with %G_IO_ERROR_CANCELLED; one that has run reports
 * what it did (a claim the store holds is never reported as cancelled:
 * nobody would hold its lease).
 *
 * The thread iterates a main context of its own (a backend may watch a
 * socket on it: PostgreSQL's LISTEN). "jobs-available" is emitted on the
 * main context the store was made on; the emissions for one tenant
 * queued there and not yet run are one.
 */

/* The most requests in one batch. */
#define MAX_BATCH 256

/* What the thread's emissions share with the store: a weak reference, the
 * context to emit on, and the tenants whose emission is on its way. */
typedef struct
{
  GWeakRef      store;
  GMainContext *context;
  GMutex        lock;
  GHashTable   *pending;
} Shared;

/* A thread of the store's, with its queue. */
typedef struct
{
  SluiceStoreBackend *owner;
  guint               index;
  GMainContext       *context;
  GMainLoop          *loop;
  GThread            *thread;

  GMutex              lock;
  GQueue              queue;      /* GTask, under the lock */
  gboolean            scheduled;  /* a run of the queue is on its way to the thread */
  gboolean            flushing;   /* a flush is on its way to a caller's context */
} Lane;

typedef struct
{
  char         *description;
  Shared       *shared;
  Lane          lanes[SLUICE_STORE_BACKEND_MAX_LANES];
  guint         n_lanes;    /* started */
} SluiceStoreBackendPrivate;

static void sluice_store_backend_job_store_init (SluiceJobStoreInterface *iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (SluiceStoreBackend, sluice_store_backend, G_TYPE_OBJECT,
                                  G_ADD_PRIVATE (SluiceStoreBackend)
                                  G_IMPLEMENT_INTERFACE (SLUICE_TYPE_JOB_STORE,
                                                         sluice_store_backend_job_store_init))

/* An idle source rather than g_main_context_invoke(): that would run the
 * function on this thread when no thread iterates the context. */
static void
attach_idle (GMainContext   *context,
             GSourceFunc     function,
             gpointer        data,
             GDestroyNotify  destroy,
             const char     *name)
{
  g_autoptr(GSource) source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, function, data, destroy);
  g_source_set_static_name (source, name);
  g_source_attach (source, context);
}

/* ---- requests ------------------------------------------------------------ */

static void
request_free (gpointer data)
{
  SluiceStoreRequest *r = data;

  g_free (r->tenant);
  g_free (r->operation_key);
  g_free (r->text);
  g_free (r->owner);
  g_clear_pointer (&r->claim, sluice_job_claim_free);
  g_clear_pointer (&r->failure, sluice_job_failure_free);
  g_clear_pointer (&r->admin, sluice_store_admin_query_free);
  if (r->value != NULL && r->value_free != NULL)
    r->value_free (r->value);
  g_clear_error (&r->error);
  g_free (r);
}

static SluiceStoreRequest *
request_new (SluiceStoreOp op,
             gint64        now)
{
  SluiceStoreRequest *r = g_new0 (SluiceStoreRequest, 1);

  r->op = op;
  r->now = now;
  return r;
}

static SluiceStoreRequest *
request_for_claim (SluiceStoreOp         op,
                   const SluiceJobClaim *claim,
                   gint64                now)
{
  SluiceStoreRequest *r = request_new (op, now);

  r->claim = sluice_job_claim_copy (claim);
  r->tenant = g_strdup (claim->job->tenant);
  return r;
}

void
sluice_store_requests_fail_all (SluiceStoreRequest **requests,
                                guint                n,
                                const GError        *error)
{
  for (guint i = 0; i < n; i++)
    {
      g_clear_error (&requests[i]->error);
      requests[i]->error = g_error_copy (error);
      requests[i]->wake = FALSE;
    }
}

void
sluice_store_request_lease_lost (SluiceStoreRequest *request)
{
  g_clear_error (&request->error);
  g_set_error (&request->error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST,
               /* Translators: %s is a job's id (a UUID) */
               _("The lease of job %s was lost: it expired and was released, or the job ended"),
               request->claim->job->id);
}

void
sluice_store_request_cancel_requested (SluiceStoreRequest *request)
{
  g_clear_error (&request->error);
  g_set_error (&request->error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_CANCEL_REQUESTED,
               /* Translators: %s is a job's id (a UUID) */
               _("Job %s was cancelled by an operator: its attempt is to be cancelled"),
               request->claim->job->id);
}

#define STATE_BIT(s) (1u << (SLUICE_STORED_JOB_ ## s))

guint
sluice_store_admin_verb_states (const SluiceStoreAdminQuery *query)
{
  guint applicable;

  switch (query->op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      applicable = STATE_BIT (DEAD) | STATE_BIT (RETRY_WAIT) | STATE_BIT (CANCELLED);
      break;
    case SLUICE_STORE_ADMIN_CANCEL:
      applicable = STATE_BIT (PENDING) | STATE_BIT (SCHEDULED) | STATE_BIT (RETRY_WAIT) | STATE_BIT (RUNNING);
      break;
    case SLUICE_STORE_ADMIN_DISCARD:
      applicable = STATE_BIT (PENDING) | STATE_BIT (SCHEDULED) | STATE_BIT (RETRY_WAIT) | STATE_BIT (DEAD) |
                   STATE_BIT (CANCELLED) | STATE_BIT (SUCCEEDED);
      break;
    default:
      return query->states;
    }
  return query->states != 0 ? query->states & applicable : applicable;
}

/* The group a request is batched with its neighbours in; -1: alone. */
static int
request_group (const SluiceStoreRequest *r)
{
  switch (r->op)
    {
    case SLUICE_STORE_OP_ENQUEUE:
      return 0;
    case SLUICE_STORE_OP_RENEW:
      return 1;
    case SLUICE_STORE_OP_COMPLETE:
    case SLUICE_STORE_OP_FAIL:
    case SLUICE_STORE_OP_RELEASE:
      return 2;
    default:
      return -1;
    }
}

/* ---- notifications --------------------------------------------------------- */

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
  g_autoptr(GObject) store = g_weak_ref_get (&emission->shared->store);

  /* A wake-up from now on is a new emission, also during this one. */
  g_mutex_lock (&emission->shared->lock);
  g_hash_table_remove (emission->shared->pending, emission->tenant);
  g_mutex_unlock (&emission->shared->lock);
  if (store != NULL)
    g_signal_emit_by_name (store, "jobs-available", emission->tenant);
  return G_SOURCE_REMOVE;
}

void
sluice_store_backend_announce (SluiceStoreBackend *self,
                               const char         *tenant)
{
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);
  Shared *shared = priv->shared;
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

static gboolean
emit_cancel_requested (gpointer data)
{
  Emission *emission = data;
  g_autoptr(GObject) store = g_weak_ref_get (&emission->shared->store);

  if (store != NULL)
    g_signal_emit_by_name (store, "cancel-requested", emission->tenant);
  return G_SOURCE_REMOVE;
}

void
sluice_store_backend_announce_cancel (SluiceStoreBackend *self,
                                      const char         *job_id)
{
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);
  Emission *emission = g_new0 (Emission, 1);

  /* Rare: one emission each (the tenant field holds the job's id). */
  emission->shared = g_atomic_rc_box_acquire (priv->shared);
  emission->tenant = g_strdup (job_id);
  attach_idle (priv->shared->context, emit_cancel_requested, emission, emission_free,
               "[sluice] cancel-requested");
}

/* ---- the thread ------------------------------------------------------------- */

/* On the caller's context: the callback runs from here. */
static void
return_answer (GTask *task)
{
  SluiceStoreRequest *r = g_task_get_task_data (task);

  if (r->error != NULL)
    g_task_return_error (task, g_steal_pointer (&r->error));
  else if (r->op == SLUICE_STORE_OP_RELEASE_EXPIRED)
    g_task_return_int (task, r->number);
  else if (r->op == SLUICE_STORE_OP_RENEW || r->op == SLUICE_STORE_OP_COMPLETE ||
           r->op == SLUICE_STORE_OP_FAIL || r->op == SLUICE_STORE_OP_RELEASE)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_pointer (task, g_steal_pointer (&r->value), r->value_free);
}

/* The answers of one batch for one main context, in order: one wake-up
 * of that context for all of them. */
static gboolean
return_answers (gpointer data)
{
  GPtrArray *tasks = data;

  for (guint i = 0; i < tasks->len; i++)
    return_answer (g_ptr_array_index (tasks, i));
  /* The tasks' references, let go of here. */
  g_ptr_array_set_size (tasks, 0);
  return G_SOURCE_REMOVE;
}

/* Sends the answers of @tasks back, one idle source per run of tasks of
 * one main context. */
static void
send_answers (GTask **tasks,
              guint   n)
{
  for (guint i = 0; i < n;)
    {
      GMainContext *context = g_task_get_context (tasks[i]);
      /* Tasks not answered (a quit before the idle ran) are let go of. */
      GPtrArray *run = g_ptr_array_new_with_free_func (g_object_unref);

      for (; i < n && g_task_get_context (tasks[i]) == context; i++)
        g_ptr_array_add (run, tasks[i]);
      attach_idle (context, return_answers, run, (GDestroyNotify) g_ptr_array_unref,
                   "[sluice] job store answers");
    }
}

/* Runs one batch of @n requests of one group (or one request alone). */
static void
run_batch (SluiceStoreBackend  *self,
           SluiceStoreRequest **requests,
           guint                n)
{
  SluiceStoreBackendClass *klass = SLUICE_STORE_BACKEND_GET_CLASS (self);
  g_autoptr(GError) error = NULL;

  if (klass->open != NULL && !klass->open (self, requests[0]->lane, &error))
    {
      sluice_store_requests_fail_all (requests, n, error);
      return;
    }
  switch (requests[0]->op)
    {
    case SLUICE_STORE_OP_ENQUEUE:
      klass->enqueue (self, requests, n);
      break;
    case SLUICE_STORE_OP_RENEW:
      klass->renew (self, requests, n);
      break;
    case SLUICE_STORE_OP_COMPLETE:
    case SLUICE_STORE_OP_FAIL:
    case SLUICE_STORE_OP_RELEASE:
      klass->finish (self, requests, n);
      break;
    case SLUICE_STORE_OP_CLAIM:
      klass->claim (self, requests[0]);
      break;
    case SLUICE_STORE_OP_RELEASE_EXPIRED:
      klass->release_expired (self, requests[0]);
      break;
    case SLUICE_STORE_OP_STATUS:
      klass->get_status (self, requests[0]);
      break;
    case SLUICE_STORE_OP_ADMIN:
      klass->admin (self, requests[0]);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* The requests of @tasks (from @first, @n of them) that are still wanted
 * run as one batch; then the wake-ups, then the answers, in order (who
 * waits for an answer, and then for what its wake-up caused, finds the
 * wake-up queued already). */
static void
run_tasks (SluiceStoreBackend  *self,
           GTask              **tasks,
           guint                n)
{
  SluiceStoreRequest *requests[MAX_BATCH];
  guint n_run = 0;

  for (guint i = 0; i < n; i++)
    {
      SluiceStoreRequest *r = g_task_get_task_data (tasks[i]);

      if (!g_cancellable_set_error_if_cancelled (g_task_get_cancellable (tasks[i]), &r->error))
        requests[n_run++] = r;
    }
  if (n_run > 0)
    run_batch (self, requests, n_run);
  for (guint i = 0; i < n_run; i++)
    if (requests[i]->wake && requests[i]->error == NULL)
      sluice_store_backend_announce (self, requests[i]->tenant);
  send_answers (tasks, n);
}

/* On a thread of the store's: everything queued there so far, in batches. */
static gboolean
run_queue (gpointer data)
{
  Lane *lane = data;
  GQueue queue = G_QUEUE_INIT;
  GTask *batch[MAX_BATCH];

  g_mutex_lock (&lane->lock);
  queue = lane->queue;
  g_queue_init (&lane->queue);
  lane->scheduled = FALSE;
  g_mutex_unlock (&lane->lock);

  while (!g_queue_is_empty (&queue))
    {
      GTask *task = g_queue_pop_head (&queue);
      int group = request_group (g_task_get_task_data (task));
      guint n = 0;

      batch[n++] = task;
      while (group >= 0 && n < MAX_BATCH && !g_queue_is_empty (&queue) &&
             request_group (g_task_get_task_data (g_queue_peek_head (&queue))) == group)
        batch[n++] = g_queue_pop_head (&queue);
      run_tasks (lane->owner, batch, n);
    }
  return G_SOURCE_REMOVE;
}

static gpointer
thread_main (gpointer data)
{
  Lane *lane = data;

  g_main_context_push_thread_default (lane->context);
  g_main_loop_run (lane->loop);
  g_main_context_pop_thread_default (lane->context);
  return NULL;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/* On a caller's context, at the end of the turn of its loop that made a
 * request: the requests made in that turn (the completions of the jobs
 * that ended together) go to the lane's thread together, one batch. */
static void
send_lane (Lane *lane)
{
  gboolean schedule;

  g_mutex_lock (&lane->lock);
  schedule = !lane->scheduled && !g_queue_is_empty (&lane->queue);
  lane->scheduled = lane->scheduled || schedule;
  g_mutex_unlock (&lane->lock);
  if (schedule)
    attach_idle (lane->context, run_queue, lane, NULL, "[sluice] job store requests");
}

static gboolean
flush_lane (gpointer data)
{
  Lane *lane = data;

  g_mutex_lock (&lane->lock);
  lane->flushing = FALSE;
  g_mutex_unlock (&lane->lock);
  /* Disposed meanwhile: the dispose sent the queue already. */
  if (lane->thread != NULL)
    send_lane (lane);
  return G_SOURCE_REMOVE;
}

static void
unref_owner (gpointer data)
{
  g_object_unref (((Lane *) data)->owner);
}

/* The lane of a request: with two, claims (and the reads of the store)
 * go on the first and everything else on the second, so that the next
 * claim is in flight while completions commit. */
static guint
request_lane (SluiceStoreBackendPrivate *priv,
              const SluiceStoreRequest  *r)
{
  if (priv->n_lanes < 2)
    return 0;
  return r->op == SLUICE_STORE_OP_CLAIM || r->op == SLUICE_STORE_OP_RELEASE_EXPIRED ||
         r->op == SLUICE_STORE_OP_STATUS || r->op == SLUICE_STORE_OP_ADMIN ? 0 : 1;
}

/* Hands @r (taken) to a thread of the store's as a task; the task's
 * reference goes with it and comes back with the answer. */
static void
submit (SluiceStoreBackend  *self,
        SluiceStoreRequest  *r,
        gpointer             source_tag,
        GCancellable        *cancellable,
        GAsyncReadyCallback  callback,
        gpointer             user_data)
{
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  gboolean schedule;
  Lane *lane;

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, r, request_free);
  /* Cancelled while its batch runs, a request still reports what it did. */
  g_task_set_check_cancellable (task, FALSE);
  if (priv->n_lanes == 0)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED,
                               /* Translators: %s names the store */
                               _("Job store %s: it is closed"),
                               priv->description != NULL ? priv->description : "?");
      g_object_unref (task);
      return;
    }
  r->lane = request_lane (priv, r);
  lane = &priv->lanes[r->lane];
  g_mutex_lock (&lane->lock);
  g_queue_push_tail (&lane->queue, task);
  schedule = !lane->scheduled && !lane->flushing;
  lane->flushing = lane->flushing || schedule;
  g_mutex_unlock (&lane->lock);
  if (schedule)
    {
      g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();

      /* The flush keeps the store (and its lanes) until it has run. */
      g_object_ref (self);
      attach_idle (context, flush_lane, lane, unref_owner, "[sluice] job store flush");
    }
}

/**
 * sluice_store_backend_start: (skip)
 *
 * Starts the store's threads (@n_lanes, at most
 * %SLUICE_STORE_BACKEND_MAX_LANES, each with its own connection of the
 * backend: SluiceStoreRequest's lane); the main context of the call is
 * where "jobs-available" is emitted.
 */
gboolean
sluice_store_backend_start (SluiceStoreBackend  *self,
                            const char          *description,
                            guint                n_lanes,
                            GError             **error)
{
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);

  g_return_val_if_fail (priv->n_lanes == 0, FALSE);
  g_return_val_if_fail (n_lanes >= 1 && n_lanes <= SLUICE_STORE_BACKEND_MAX_LANES, FALSE);

  g_free (priv->description);
  priv->description = g_strdup (description);
  for (guint i = 0; i < n_lanes; i++)
    {
      Lane *lane = &priv->lanes[i];

      lane->owner = self;
      lane->index = i;
      lane->context = g_main_context_new ();
      lane->loop = g_main_loop_new (lane->context, FALSE);
      lane->thread = g_thread_try_new ("sluice-store", thread_main, lane, error);
      if (lane->thread == NULL)
        break;
      priv->n_lanes = i + 1;
    }
  return priv->n_lanes == n_lanes;
}

/* ---- the GObject -------------------------------------------------------------- */

static void
sluice_store_backend_dispose (GObject *object)
{
  SluiceStoreBackend *self = SLUICE_STORE_BACKEND (object);
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);

  for (guint i = 0; i < priv->n_lanes; i++)
    {
      Lane *lane = &priv->lanes[i];

      /* What is queued and not flushed yet runs first; then the quit. An
       * idle source, not g_main_loop_quit() here: a loop that has not
       * started running yet would miss the quit and run forever. */
      send_lane (lane);
      attach_idle (lane->context, quit_loop, g_main_loop_ref (lane->loop),
                   (GDestroyNotify) g_main_loop_unref, "[sluice] job store quit");
      if (g_thread_self () != lane->thread)
        g_thread_join (g_steal_pointer (&lane->thread));
      else
        g_clear_pointer (&lane->thread, g_thread_unref);
    }
  priv->n_lanes = 0;
  G_OBJECT_CLASS (sluice_store_backend_parent_class)->dispose (object);
}

static void
sluice_store_backend_finalize (GObject *object)
{
  SluiceStoreBackend *self = SLUICE_STORE_BACKEND (object);
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);

  for (guint i = 0; i < SLUICE_STORE_BACKEND_MAX_LANES; i++)
    {
      g_clear_pointer (&priv->lanes[i].loop, g_main_loop_unref);
      g_clear_pointer (&priv->lanes[i].context, g_main_context_unref);
      g_mutex_clear (&priv->lanes[i].lock);
    }
  shared_unref (priv->shared);
  g_free (priv->description);
  G_OBJECT_CLASS (sluice_store_backend_parent_class)->finalize (object);
}

static void
sluice_store_backend_class_init (SluiceStoreBackendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_store_backend_dispose;
  object_class->finalize = sluice_store_backend_finalize;
}

static void
sluice_store_backend_init (SluiceStoreBackend *self)
{
  SluiceStoreBackendPrivate *priv = sluice_store_backend_get_instance_private (self);

  for (guint i = 0; i < SLUICE_STORE_BACKEND_MAX_LANES; i++)
    {
      g_mutex_init (&priv->lanes[i].lock);
      g_queue_init (&priv->lanes[i].queue);
    }
  priv->shared = g_atomic_rc_box_new0 (Shared);
  g_weak_ref_init (&priv->shared->store, self);
  priv->shared->context = g_main_context_ref_thread_default ();
  g_mutex_init (&priv->shared->lock);
  priv->shared->pending = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* ---- SluiceJobStore, once ------------------------------------------------------ */

static void
backend_enqueue_async (SluiceJobStore      *store,
                       const char          *tenant,
                       const char          *operation_key,
                       const char          *payload,
                       guint                max_attempts,
                       gint64               now,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  SluiceStoreRequest *r = request_new (SLUICE_STORE_OP_ENQUEUE, now);

  r->tenant = g_strdup (tenant);
  r->operation_key = g_strdup (operation_key);
  r->text = g_strdup (payload);
  r->count = max_attempts;
  r->available_at = now;
  submit (SLUICE_STORE_BACKEND (store), r, backend_enqueue_async, cancellable, callback, user_data);
}

/**
 * sluice_store_enqueue_at_async:
 * @store: a job store (sluice_store_admin_supported())
 * @available_at: when the job may be claimed first, µs since the epoch;
 *   until then it is `scheduled` (at or before @now: at once, as
 *   sluice_job_store_enqueue_async())
 *
 * sluice_job_store_enqueue_async() of a scheduled job (`enqueue --delay`,
 * `--at`; docs/store-admin.md); finished by
 * sluice_job_store_enqueue_finish(). An existing job of the operation key
 * is returned unchanged, its time too.
 */
void
sluice_store_enqueue_at_async (SluiceJobStore      *store,
                               const char          *tenant,
                               const char          *operation_key,
                               const char          *payload,
                               guint                max_attempts,
                               gint64               now,
                               gint64               available_at,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  SluiceStoreRequest *r;
  GError *error = NULL;

  g_return_if_fail (sluice_store_admin_supported (store));
  g_return_if_fail (payload != NULL);

  /* The checks of the interface's enqueue (names, payload) first. */
  if (!sluice_job_store_check_enqueue (tenant, operation_key, payload, max_attempts, &error))
    {
      g_task_report_error (store, callback, user_data, backend_enqueue_async, error);
      return;
    }
  r = request_new (SLUICE_STORE_OP_ENQUEUE, now);
  r->tenant = g_strdup (tenant);
  r->operation_key = g_strdup (operation_key);
  r->text = g_strdup (payload);
  r->count = max_attempts;
  r->available_at = MAX (available_at, now);
  submit (SLUICE_STORE_BACKEND (store), r, backend_enqueue_async, cancellable, callback, user_data);
}

/* A scheduled job is kept pending, never claimed yet, its time ahead:
 * shown scheduled until @now reaches that time (docs/store-admin.md). A
 * job put back (its lease expired, or handed back) has had a claim, and
 * is not scheduled whatever the time it was put back at. */
static void
sluice_stored_job_show_state (SluiceStoredJob *job,
                              gint64           now)
{
  if (job->state == SLUICE_STORED_JOB_PENDING && job->attempts == 0 && job->available_at > now)
    job->state = SLUICE_STORED_JOB_SCHEDULED;
}

static SluiceStoredJob *
backend_enqueue_finish (SluiceJobStore  *store,
                        GAsyncResult    *result,
                        gboolean        *created,
                        GError         **error)
{
  SluiceStoreRequest *r;
  SluiceStoredJob *job;

  g_return_val_if_fail (g_task_is_valid (result, store), NULL);

  r = g_task_get_task_data (G_TASK (result));
  job = g_task_propagate_pointer (G_TASK (result), error);
  if (created != NULL)
    *created = job != NULL && r != NULL && r->created;  /* r: none for a refused call */
  /* (only a scheduling enqueue: one with available_at past its now) */
  if (job != NULL && r != NULL && r->available_at > r->now)
    sluice_stored_job_show_state (job, r->now);
  return job;
}

static void
backend_claim_async (SluiceJobStore      *store,
                     const char          *tenant,
                     const char          *owner,
                     gint64               lease,
                     gint64               now,
                     guint                max_jobs,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  SluiceStoreRequest *r = request_new (SLUICE_STORE_OP_CLAIM, now);

  r->tenant = g_strdup (tenant);
  r->owner = g_strdup (owner);
  r->lease = lease;
  r->count = MAX (max_jobs, 1);
  submit (SLUICE_STORE_BACKEND (store), r, backend_claim_async, cancellable, callback, user_data);
}

static gpointer
backend_propagate_pointer (SluiceJobStore  *store,
                           GAsyncResult    *result,
                           GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static GPtrArray *
backend_claim_finish (SluiceJobStore  *store,
                      GAsyncResult    *result,
                      GError         **error)
{
  return backend_propagate_pointer (store, result, error);
}

static void
backend_claim_next_async (SluiceJobStore      *store,
                          const char          *tenant,
                          const char          *owner,
                          gint64               lease,
                          gint64               now,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  backend_claim_async (store, tenant, owner, lease, now, 1, cancellable, callback, user_data);
}

static SluiceJobClaim *
backend_claim_next_finish (SluiceJobStore  *store,
                           GAsyncResult    *result,
                           GError         **error)
{
  g_autoptr(GPtrArray) claims = backend_propagate_pointer (store, result, error);

  if (claims == NULL || claims->len == 0)
    return NULL;
  return g_ptr_array_steal_index (claims, 0);
}

static void
backend_renew_async (SluiceJobStore       *store,
                     const SluiceJobClaim *claim,
                     gint64                lease,
                     gint64                now,
                     GCancellable         *cancellable,
                     GAsyncReadyCallback   callback,
                     gpointer              user_data)
{
  SluiceStoreRequest *r = request_for_claim (SLUICE_STORE_OP_RENEW, claim, now);

  r->lease = lease;
  submit (SLUICE_STORE_BACKEND (store), r, backend_renew_async, cancellable, callback, user_data);
}

static gboolean
backend_propagate_boolean (SluiceJobStore  *store,
                           GAsyncResult    *result,
                           GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
backend_complete_async (SluiceJobStore       *store,
                        const SluiceJobClaim *claim,
                        const char           *result_json,
                        gint64                now,
                        GCancellable         *cancellable,
                        GAsyncReadyCallback   callback,
                        gpointer              user_data)
{
  SluiceStoreRequest *r = request_for_claim (SLUICE_STORE_OP_COMPLETE, claim, now);

  r->text = g_strdup (result_json);
  submit (SLUICE_STORE_BACKEND (store), r, backend_complete_async, cancellable, callback, user_data);
}

static void
backend_fail_async (SluiceJobStore         *store,
                    const SluiceJobClaim   *claim,
                    const SluiceJobFailure *failure,
                    gint64                  available_at,
                    gint64                  now,
                    GCancellable           *cancellable,
                    GAsyncReadyCallback     callback,
                    gpointer                user_data)
{
  SluiceStoreRequest *r = request_for_claim (SLUICE_STORE_OP_FAIL, claim, now);

  r->failure = sluice_job_failure_copy (failure);
  r->available_at = available_at < 0 ? -1 : available_at;
  submit (SLUICE_STORE_BACKEND (store), r, backend_fail_async, cancellable, callback, user_data);
}

static void
backend_release_async (SluiceJobStore       *store,
                       const SluiceJobClaim *claim,
                       gint64                now,
                       GCancellable         *cancellable,
                       GAsyncReadyCallback   callback,
                       gpointer              user_data)
{
  SluiceStoreRequest *r = request_for_claim (SLUICE_STORE_OP_RELEASE, claim, now);

  submit (SLUICE_STORE_BACKEND (store), r, backend_release_async, cancellable, callback, user_data);
}

static void
backend_release_expired_async (SluiceJobStore      *store,
                               const char          *tenant,
                               gint64               now,
                               guint                limit,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  SluiceStoreRequest *r = request_new (SLUICE_STORE_OP_RELEASE_EXPIRED, now);

  r->tenant = tenant != NULL && tenant[0] != '\0' ? g_strdup (tenant) : NULL;
  r->count = limit;
  submit (SLUICE_STORE_BACKEND (store), r, backend_release_expired_async, cancellable, callback,
          user_data);
}

static gint64
backend_release_expired_finish (SluiceJobStore  *store,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, store), -1);

  return g_task_propagate_int (G_TASK (result), error);
}

static void
backend_get_status_async (SluiceJobStore      *store,
                          const char          *tenant,
                          guint                n_failures,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  /* The counts tell scheduled jobs from pending ones by the wall clock
   * (the call takes no now). */
  SluiceStoreRequest *r = request_new (SLUICE_STORE_OP_STATUS, g_get_real_time ());

  r->tenant = tenant != NULL && tenant[0] != '\0' ? g_strdup (tenant) : NULL;
  r->count = n_failures;
  submit (SLUICE_STORE_BACKEND (store), r, backend_get_status_async, cancellable, callback, user_data);
}

static SluiceStoreStatus *
backend_get_status_finish (SluiceJobStore  *store,
                           GAsyncResult    *result,
                           GError         **error)
{
  return backend_propagate_pointer (store, result, error);
}

/* ---- admin queries, once for every backend ------------------------------------- */

/**
 * sluice_store_admin_supported:
 * @store: a job store
 *
 * Returns: whether @store answers admin queries (the SQLite and
 *   PostgreSQL stores do)
 */
gboolean
sluice_store_admin_supported (SluiceJobStore *store)
{
  return SLUICE_IS_STORE_BACKEND (store) && SLUICE_STORE_BACKEND_GET_CLASS (store)->admin != NULL;
}

/**
 * sluice_store_admin_async:
 * @store: a job store (sluice_store_admin_supported())
 * @query: what is asked (copied)
 *
 * Runs @query on the store's thread, in one transaction
 * (docs/store-admin.md).
 */
void
sluice_store_admin_async (SluiceJobStore              *store,
                          const SluiceStoreAdminQuery *query,
                          GCancellable                *cancellable,
                          GAsyncReadyCallback          callback,
                          gpointer                     user_data)
{
  SluiceStoreRequest *r;

  g_return_if_fail (sluice_store_admin_supported (store));
  g_return_if_fail (query != NULL);

  r = request_new (SLUICE_STORE_OP_ADMIN, query->now);
  r->admin = sluice_store_admin_query_copy (query);
  r->tenant = g_strdup (query->tenant);
  submit (SLUICE_STORE_BACKEND (store), r, sluice_store_admin_async, cancellable, callback, user_data);
}

/**
 * sluice_store_admin_finish:
 *
 * Returns: (transfer full): the reply, or %NULL with @error set
 */
SluiceStoreAdminReply *
sluice_store_admin_finish (SluiceJobStore  *store,
                           GAsyncResult    *result,
                           GError         **error)
{
  SluiceStoreRequest *r;
  SluiceStoreAdminReply *reply;

  g_return_val_if_fail (g_task_is_valid (result, store), NULL);

  r = g_task_get_task_data (G_TASK (result));
  reply = backend_propagate_pointer (store, result, error);
  /* A store keeps a scheduled job pending, its time ahead (see
   * sluice_stored_job_show_state()). */
  for (guint i = 0; reply != NULL && reply->jobs != NULL && i < reply->jobs->len; i++)
    sluice_stored_job_show_state (g_ptr_array_index (reply->jobs, i), r->admin->now);
  return reply;
}

static void
sluice_store_backend_job_store_init (SluiceJobStoreInterface *iface)
{
  iface->enqueue_async = backend_enqueue_async;
  iface->enqueue_finish = backend_enqueue_finish;
  iface->claim_next_async = backend_claim_next_async;
  iface->claim_next_finish = backend_claim_next_finish;
  iface->claim_async = backend_claim_async;
  iface->claim_finish = backend_claim_finish;
  iface->renew_async = backend_renew_async;
  iface->renew_finish = backend_propagate_boolean;
  iface->complete_async = backend_complete_async;
  iface->complete_finish = backend_propagate_boolean;
  iface->fail_async = backend_fail_async;
  iface->fail_finish = backend_propagate_boolean;
  iface->release_async = backend_release_async;
  iface->release_finish = backend_propagate_boolean;
  iface->release_expired_async = backend_release_expired_async;
  iface->release_expired_finish = backend_release_expired_finish;
  iface->get_status_async = backend_get_status_async;
  iface->get_status_finish = backend_get_status_finish;
}
