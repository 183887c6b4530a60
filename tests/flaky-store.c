/* flaky-store.c: a job store for the tests that passes every call on to a
 * real one, but can fail its claims as a full store would (SQLite's
 * "database or disk is full", a SLUICE_STORE_ERROR_BACKEND), and lets a
 * test act when a claim comes back (a stop while the claim is on its way)
 *
 * Every call but claim_next goes to the inner store as it is: the answer's
 * source object is the inner store, whose _finish this store's calls. The
 * inner store's "jobs-available" is this store's too.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "flaky-store.h"

struct _FlakyStore
{
  GObject         parent_instance;

  SluiceJobStore *inner;
  SluiceClock    *clock;
  gboolean        failing;
  FlakyClaimHook  hook;
  gpointer        hook_data;
  GArray         *failed;    /* gint64 clock times */
  GArray         *answered;
  gulong          wake_id;
  guint           hold;      /* completions held until this many are */
  GPtrArray      *held;      /* of Held */
  guint           most_held;
};

/* A completion held back: the call as it came. */
typedef struct {
  SluiceJobClaim      *claim;
  char                *result_json;
  gint64               now;
  GCancellable        *cancellable;
  GAsyncReadyCallback  callback;
  gpointer             user_data;
} Held;

static void
held_free (gpointer data)
{
  Held *h = data;

  sluice_job_claim_free (h->claim);
  g_free (h->result_json);
  g_clear_object (&h->cancellable);
  g_free (h);
}

static void job_store_iface_init (SluiceJobStoreInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FlakyStore, flaky_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_JOB_STORE, job_store_iface_init))

/* ---- claim_next: failing, or answered through the hook ----------------- */

static void
on_inner_claimed (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  FlakyStore *self = g_task_get_source_object (task);
  GError *error = NULL;
  SluiceJobClaim *claim = sluice_job_store_claim_next_finish (self->inner, result, &error);
  gint64 now = sluice_clock_now (self->clock);

  g_array_append_val (self->answered, now);
  if (self->hook != NULL && error == NULL)
    self->hook (claim, self->hook_data);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, claim, (GDestroyNotify) sluice_job_claim_free);
}

static void
flaky_claim_next_async (SluiceJobStore      *store,
                        const char          *tenant,
                        const char          *owner,
                        gint64               lease,
                        gint64               now,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  FlakyStore *self = FLAKY_STORE (store);
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  if (self->failing)
    {
      gint64 at = sluice_clock_now (self->clock);

      g_array_append_val (self->failed, at);
      g_task_return_new_error (task, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND,
                               "Job store flaky: database or disk is full");
      g_object_unref (task);
      return;
    }
  sluice_job_store_claim_next_async (self->inner, tenant, owner, lease, now, cancellable,
                                     on_inner_claimed, task);
}

static SluiceJobClaim *
flaky_claim_next_finish (SluiceJobStore  *store,
                         GAsyncResult    *result,
                         GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- everything else: the inner store's --------------------------------- */

static void
flaky_enqueue_async (SluiceJobStore *store, const char *tenant, const char *operation_key,
                     const char *payload, guint max_attempts, gint64 now, GCancellable *cancellable,
                     GAsyncReadyCallback callback, gpointer user_data)
{
  sluice_job_store_enqueue_async (FLAKY_STORE (store)->inner, tenant, operation_key, payload,
                                  max_attempts, now, cancellable, callback, user_data);
}

static SluiceStoredJob *
flaky_enqueue_finish (SluiceJobStore *store, GAsyncResult *result, gboolean *created, GError **error)
{
  return sluice_job_store_enqueue_finish (FLAKY_STORE (store)->inner, result, created, error);
}

static void
flaky_renew_async (SluiceJobStore *store, const SluiceJobClaim *claim, gint64 lease, gint64 now,
                   GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  sluice_job_store_renew_async (FLAKY_STORE (store)->inner, claim, lease, now, cancellable,
                                callback, user_data);
}

static gboolean
flaky_renew_finish (SluiceJobStore *store, GAsyncResult *result, GError **error)
{
  return sluice_job_store_renew_finish (FLAKY_STORE (store)->inner, result, error);
}

/* Held (flaky_store_hold_completions()) until the last one comes, then
 * all passed on, in the order they came. */
static void
flaky_complete_async (SluiceJobStore *store, const SluiceJobClaim *claim, const char *result_json,
                      gint64 now, GCancellable *cancellable, GAsyncReadyCallback callback,
                      gpointer user_data)
{
  FlakyStore *self = FLAKY_STORE (store);
  g_autoptr(GPtrArray) held = NULL;
  Held *h;

  if (self->hold == 0)
    {
      sluice_job_store_complete_async (self->inner, claim, result_json, now, cancellable,
                                       callback, user_data);
      return;
    }
  h = g_new0 (Held, 1);
  h->claim = sluice_job_claim_copy (claim);
  h->result_json = g_strdup (result_json);
  h->now = now;
  h->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  h->callback = callback;
  h->user_data = user_data;
  g_ptr_array_add (self->held, h);
  self->most_held = MAX (self->most_held, self->held->len);
  if (self->held->len < self->hold)
    return;

  self->hold = 0;
  held = g_steal_pointer (&self->held);
  self->held = g_ptr_array_new_with_free_func (held_free);
  for (guint i = 0; i < held->len; i++)
    {
      h = g_ptr_array_index (held, i);
      sluice_job_store_complete_async (self->inner, h->claim, h->result_json, h->now, h->cancellable,
                                       h->callback, h->user_data);
    }
}

static gboolean
flaky_complete_finish (SluiceJobStore *store, GAsyncResult *result, GError **error)
{
  return sluice_job_store_complete_finish (FLAKY_STORE (store)->inner, result, error);
}

static void
flaky_fail_async (SluiceJobStore *store, const SluiceJobClaim *claim, const SluiceJobFailure *failure,
                  gint64 available_at, gint64 now, GCancellable *cancellable,
                  GAsyncReadyCallback callback, gpointer user_data)
{
  sluice_job_store_fail_async (FLAKY_STORE (store)->inner, claim, failure, available_at, now,
                               cancellable, callback, user_data);
}

static gboolean
flaky_fail_finish (SluiceJobStore *store, GAsyncResult *result, GError **error)
{
  return sluice_job_store_fail_finish (FLAKY_STORE (store)->inner, result, error);
}

static void
flaky_release_async (SluiceJobStore *store, const SluiceJobClaim *claim, gint64 now,
                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  sluice_job_store_release_async (FLAKY_STORE (store)->inner, claim, now, cancellable, callback, user_data);
}

static gboolean
flaky_release_finish (SluiceJobStore *store, GAsyncResult *result, GError **error)
{
  return sluice_job_store_release_finish (FLAKY_STORE (store)->inner, result, error);
}

static void
flaky_release_expired_async (SluiceJobStore *store, const char *tenant, gint64 now, guint limit,
                             GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  sluice_job_store_release_expired_async (FLAKY_STORE (store)->inner, tenant, now, limit, cancellable,
                                          callback, user_data);
}

static gint64
flaky_release_expired_finish (SluiceJobStore *store, GAsyncResult *result, GError **error)
{
  return sluice_job_store_release_expired_finish (FLAKY_STORE (store)->inner, result, error);
}

static void
flaky_get_status_async (SluiceJobStore *store, const char *tenant, guint n_failures,
                        GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  sluice_job_store_get_status_async (FLAKY_STORE (store)->inner, tenant, n_failures, cancellable,
                                     callback, user_data);
}

static SluiceStoreStatus *
flaky_get_status_finish (SluiceJobStore *store, GAsyncResult *result, GError **error)
{
  return sluice_job_store_get_status_finish (FLAKY_STORE (store)->inner, result, error);
}

static void
job_store_iface_init (SluiceJobStoreInterface *iface)
{
  iface->enqueue_async = flaky_enqueue_async;
  iface->enqueue_finish = flaky_enqueue_finish;
  iface->claim_next_async = flaky_claim_next_async;
  iface->claim_next_finish = flaky_claim_next_finish;
  iface->renew_async = flaky_renew_async;
  iface->renew_finish = flaky_renew_finish;
  iface->complete_async = flaky_complete_async;
  iface->complete_finish = flaky_complete_finish;
  iface->fail_async = flaky_fail_async;
  iface->fail_finish = flaky_fail_finish;
  iface->release_async = flaky_release_async;
  iface->release_finish = flaky_release_finish;
  iface->release_expired_async = flaky_release_expired_async;
  iface->release_expired_finish = flaky_release_expired_finish;
  iface->get_status_async = flaky_get_status_async;
  iface->get_status_finish = flaky_get_status_finish;
}

/* ---- the object ----------------------------------------------------------- */

static void
on_inner_jobs_available (SluiceJobStore *inner,
                         const char     *tenant,
                         gpointer        user_data)
{
  g_signal_emit_by_name (user_data, "jobs-available", tenant);
}

static void
flaky_store_finalize (GObject *object)
{
  FlakyStore *self = FLAKY_STORE (object);

  g_clear_signal_handler (&self->wake_id, self->inner);
  g_clear_object (&self->inner);
  g_clear_object (&self->clock);
  g_array_unref (self->failed);
  g_array_unref (self->answered);
  g_ptr_array_unref (self->held);
  G_OBJECT_CLASS (flaky_store_parent_class)->finalize (object);
}

static void
flaky_store_class_init (FlakyStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = flaky_store_finalize;
}

static void
flaky_store_init (FlakyStore *self)
{
  self->failed = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->answered = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->held = g_ptr_array_new_with_free_func (held_free);
}

/* The clock: whose times the calls are recorded at. */
FlakyStore *
flaky_store_new (SluiceJobStore *inner,
                 SluiceClock    *clock)
{
  FlakyStore *self = g_object_new (FLAKY_TYPE_STORE, NULL);

  self->inner = g_object_ref (inner);
  self->clock = g_object_ref (clock);
  self->wake_id = g_signal_connect (inner, "jobs-available", G_CALLBACK (on_inner_jobs_available), self);
  return self;
}

void
flaky_store_set_failing (FlakyStore *self,
                         gboolean    failing)
{
  self->failing = failing;
}

void
flaky_store_set_claim_hook (FlakyStore     *self,
                            FlakyClaimHook  hook,
                            gpointer        user_data)
{
  self->hook = hook;
  self->hook_data = user_data;
}

GArray *
flaky_store_get_failed (FlakyStore *self)
{
  return self->failed;
}

GArray *
flaky_store_get_answered (FlakyStore *self)
{
  return self->answered;
}

void
flaky_store_hold_completions (FlakyStore *self,
                              guint       n)
{
  self->hold = n;
}

guint
flaky_store_get_most_held (FlakyStore *self)
{
  return self->most_held;
}
