/* sluice-job.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-job-private.h"
#include "sluice-run-private.h"

typedef struct
{
  SluiceJob           *job;          /* owned while pending */
  GTask               *task;
  GAsyncReadyCallback  callback;
  gpointer             user_data;
  GCancellable        *cancellable;
  gulong               cancel_id;
} Waiter;

struct _SluiceJob
{
  GObject         parent_instance;

  SluiceRun      *run;        /* owned: a job keeps its run's errors alive */
  GVariant       *item;
  gint64          index;
  SluiceJobState  state;
  GVariant       *result;
  GError         *error;      /* owned, unless borrowed from the run's group */
  gboolean        error_borrowed;
  gboolean        given_up;

  GMainContext   *context;
  GQueue          waiters;    /* Waiter*, in the order they asked */
  GSource        *flush;      /* completes the waiters of a finished job */
};

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_ENUM_TYPE (SluiceJobState, sluice_job_state,
  G_DEFINE_ENUM_VALUE (SLUICE_JOB_QUEUED, "queued"),
  G_DEFINE_ENUM_VALUE (SLUICE_JOB_RUNNING, "running"),
  G_DEFINE_ENUM_VALUE (SLUICE_JOB_SUCCEEDED, "succeeded"),
  G_DEFINE_ENUM_VALUE (SLUICE_JOB_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (SLUICE_JOB_CANCELLED, "cancelled"))

/**
 * SluiceJob:
 *
 * One job of a service run and its future: its state, then its result or
 * error.
 *
 * One job of a service run (sluice_pool_open()), and the future of its
 * result: sluice_run_submit_async() gives it once the job is queued, and
 * sluice_job_wait_async() waits for its end. A job that fails keeps its
 * error to itself (the pool goes on), except a fatal one, which stops the
 * pool. sluice_job_cancel() gives up on a job: a queued one never reaches
 * a worker, a running one has its attempt stopped.
 *
 * Every job ends exactly once, as %SLUICE_JOB_SUCCEEDED,
 * %SLUICE_JOB_FAILED or %SLUICE_JOB_CANCELLED, also when the pool stops
 * early; #SluiceJob:state says so with a notify.
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE (SluiceJob, sluice_job, G_TYPE_OBJECT)

static void
sluice_job_finalize (GObject *object)
{
  SluiceJob *self = SLUICE_JOB (object);

  g_assert (g_queue_is_empty (&self->waiters));
  g_assert (self->flush == NULL);

  g_clear_pointer (&self->item, g_variant_unref);
  g_clear_pointer (&self->result, g_variant_unref);
  if (!self->error_borrowed)
    g_clear_error (&self->error);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_object (&self->run);

  G_OBJECT_CLASS (sluice_job_parent_class)->finalize (object);
}

static void
sluice_job_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  SluiceJob *self = SLUICE_JOB (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_enum (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_job_class_init (SluiceJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_job_finalize;
  object_class->get_property = sluice_job_get_property;

  /**
   * SluiceJob:state:
   *
   * Where the job is: queued, running, or how it ended.
   *
   * Since: 1.0
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, SLUICE_TYPE_JOB_STATE, SLUICE_JOB_QUEUED,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_job_init (SluiceJob *self)
{
  g_queue_init (&self->waiters);
}

SluiceJob *
_sluice_job_new (SluiceRun *run,
                 GVariant  *item,
                 gint64     index)
{
  SluiceJob *self = g_object_new (SLUICE_TYPE_JOB, NULL);

  self->run = g_object_ref (run);
  self->item = g_variant_ref (item);
  self->index = index;
  self->context = g_main_context_ref_thread_default ();

  return self;
}

/* Waiters {{{ */

static void
waiter_free (Waiter *w)
{
  if (w->cancel_id != 0)
    g_cancellable_disconnect (w->cancellable, w->cancel_id);
  g_clear_object (&w->cancellable);
  g_clear_object (&w->job);
  g_free (w);
}

/* Gives @w its answer and calls its callback. */
static void
waiter_complete (Waiter *w)
{
  SluiceJob *self = w->job;
  GTask *task = g_steal_pointer (&w->task);

  if (w->cancellable != NULL && g_cancellable_is_cancelled (w->cancellable))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the wait was cancelled");
  else if (self->state == SLUICE_JOB_SUCCEEDED)
    g_task_return_pointer (task, g_variant_ref (self->result), (GDestroyNotify) g_variant_unref);
  else if (self->state == SLUICE_JOB_FAILED)
    g_task_return_error (task, g_error_copy (self->error));
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the job was cancelled");

  if (w->callback != NULL)
    w->callback (G_OBJECT (self), G_ASYNC_RESULT (task), w->user_data);
  g_object_unref (task);
}

/* Like the run's caller tasks, the waiters are answered from an idle of
 * their own, in order, so that a virtual-clock run does not depend on the
 * wall clock (GTask's choice between now and an idle does). A waiter whose
 * cancellable fired is answered here too. */
static gboolean
flush_waiters (gpointer user_data)
{
  SluiceJob *self = user_data;
  GList *link = self->waiters.head;

  self->flush = NULL;
  while (link != NULL)
    {
      Waiter *w = link->data;
      GList *next = link->next;

      if (sluice_job_is_finished (self) ||
          (w->cancellable != NULL && g_cancellable_is_cancelled (w->cancellable)))
        {
          g_queue_delete_link (&self->waiters, link);
          waiter_complete (w);
          waiter_free (w);
        }
      link = next;
    }

  return G_SOURCE_REMOVE;
}

static void
schedule_flush (SluiceJob *self)
{
  if (self->flush != NULL)
    return;

  self->flush = g_idle_source_new ();
  g_source_set_priority (self->flush, self->run->priority);
  g_source_set_callback (self->flush, flush_waiters, g_object_ref (self), g_object_unref);
  g_source_set_static_name (self->flush, "[sluice] job waiters");
  g_source_attach (self->flush, self->context);
  g_source_unref (self->flush);
}

static gboolean
flush_from_cancel (gpointer user_data)
{
  schedule_flush (SLUICE_JOB (user_data));
  return G_SOURCE_REMOVE;
}

/* May run in any thread: the job's own context takes it from there. */
static void
on_wait_cancelled (GCancellable *cancellable,
                   gpointer      user_data)
{
  SluiceJob *self = user_data;
  g_autoptr(GSource) idle = g_idle_source_new ();

  /* At the pool's priority, as all of its work: before time moves on. */
  g_source_set_priority (idle, self->run->priority);
  g_source_set_callback (idle, flush_from_cancel, g_object_ref (self), g_object_unref);
  g_source_attach (idle, self->context);
}

/* }}} */
/* The run's side {{{ */

static void
set_state (SluiceJob      *self,
           SluiceJobState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  if (sluice_job_is_finished (self))
    schedule_flush (self);
}

void
_sluice_job_start (SluiceJob *self)
{
  if (self->state == SLUICE_JOB_QUEUED)
    set_state (self, SLUICE_JOB_RUNNING);
}

/* Takes @result. */
void
_sluice_job_succeed (SluiceJob *self,
                     GVariant  *result)
{
  g_return_if_fail (!sluice_job_is_finished (self));

  self->result = result;
  set_state (self, SLUICE_JOB_SUCCEEDED);
}

/* Takes @error, or with @borrowed keeps a pointer to the error the run's
 * group holds (the job keeps the run, and so the group, alive). */
void
_sluice_job_fail (SluiceJob *self,
                  GError    *error,
                  gboolean   borrowed)
{
  g_return_if_fail (!sluice_job_is_finished (self));

  self->error = error;
  self->error_borrowed = borrowed;
  set_state (self, SLUICE_JOB_FAILED);
}

void
_sluice_job_end_cancelled (SluiceJob *self)
{
  if (!sluice_job_is_finished (self))
    set_state (self, SLUICE_JOB_CANCELLED);
}

gboolean
_sluice_job_is_given_up (SluiceJob *self)
{
  return self->given_up;
}

/* }}} */
/* Public API {{{ */

/**
 * sluice_job_get_state:
 * @self: a #SluiceJob
 *
 * Returns: where the job is
 *
 * Since: 1.0
 */
SluiceJobState
sluice_job_get_state (SluiceJob *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), SLUICE_JOB_QUEUED);
  return self->state;
}

/**
 * sluice_job_is_finished:
 * @self: a #SluiceJob
 *
 * Returns: whether the job succeeded, failed or was cancelled
 *
 * Since: 1.0
 */
gboolean
sluice_job_is_finished (SluiceJob *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), FALSE);
  return self->state >= SLUICE_JOB_SUCCEEDED;
}

/**
 * sluice_job_get_item:
 * @self: a #SluiceJob
 *
 * Returns: (transfer none): the submitted item
 *
 * Since: 1.0
 */
GVariant *
sluice_job_get_item (SluiceJob *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), NULL);
  return self->item;
}

/**
 * sluice_job_get_index:
 * @self: a #SluiceJob
 *
 * Returns: the job's place in submission order, from 0
 *
 * Since: 1.0
 */
gint64
sluice_job_get_index (SluiceJob *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), -1);
  return self->index;
}

/**
 * sluice_job_get_result:
 * @self: a #SluiceJob
 *
 * Returns: (transfer none) (nullable): the result of a job that succeeded
 *
 * Since: 1.0
 */
GVariant *
sluice_job_get_result (SluiceJob *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), NULL);
  return self->result;
}

/**
 * sluice_job_get_error:
 * @self: a #SluiceJob
 *
 * Returns: (transfer none) (nullable): the error of a job that failed: the
 *   original #GError of its last attempt (for a fatal error, the very object
 *   the run's error group holds)
 *
 * Since: 1.0
 */
const GError *
sluice_job_get_error (SluiceJob *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), NULL);
  return self->error;
}

/**
 * sluice_job_cancel:
 * @self: a #SluiceJob
 *
 * Gives up on the job, as a caller whose request timed out would. A queued
 * job ends cancelled at once and is skipped later: the handler is never
 * called for it and no worker spends time on it. A running job's attempt
 * is stopped like a caller's cancel (cancel, up to three rounds, then a
 * wait), or its backoff cancelled, and the job ends cancelled when that is
 * over; it is never retried. A finished job ignores the call.
 *
 * Since: 1.0
 */
void
sluice_job_cancel (SluiceJob *self)
{
  g_return_if_fail (SLUICE_IS_JOB (self));

  if (sluice_job_is_finished (self) || self->given_up)
    return;

  self->given_up = TRUE;
  _sluice_run_give_up_job (self->run, self);
}

/**
 * sluice_job_wait_async:
 * @self: a #SluiceJob
 * @cancellable: (nullable): abandons this wait (not the job: see
 *   sluice_job_cancel())
 * @callback: called when the job has ended
 * @user_data: data for @callback
 *
 * Waits for the job's end. Any number of waits may be pending.
 *
 * Since: 1.0
 */
void
sluice_job_wait_async (SluiceJob           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  Waiter *w;

  g_return_if_fail (SLUICE_IS_JOB (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  w = g_new0 (Waiter, 1);
  w->job = g_object_ref (self);
  w->task = g_task_new (self, NULL, NULL, NULL);
  g_task_set_source_tag (w->task, sluice_job_wait_async);
  w->callback = callback;
  w->user_data = user_data;
  g_queue_push_tail (&self->waiters, w);

  if (cancellable != NULL)
    {
      w->cancellable = g_object_ref (cancellable);
      w->cancel_id = g_cancellable_connect (cancellable, G_CALLBACK (on_wait_cancelled), self, NULL);
    }

  if (sluice_job_is_finished (self))
    schedule_flush (self);
}

/**
 * sluice_job_wait_finish:
 * @self: a #SluiceJob
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes sluice_job_wait_async(): the job's result, or its error — a
 * copy of sluice_job_get_error() when it failed, %G_IO_ERROR_CANCELLED when
 * it was cancelled (or the wait was).
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 *
 * Since: 1.0
 */
GVariant *
sluice_job_wait_finish (SluiceJob     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_JOB (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* }}} */
