/* sluice-store-handler.c: the attempt of a stored job: heartbeat, lease,
 * outcome back to the store (docs/job-store.md, the seed's Worker._execute)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-handler-private.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "sluice-store-source-private.h"

/**
 * SluiceStoreHandler:
 *
 * The handler of a pool that works off a job store.
 *
 * The #SluiceHandler of a pool whose source is a #SluiceStoreSource: it
 * wraps the handler that does the work (#SluiceStoreHandler:inner), which
 * gets the very #SluiceAttempt, and owns what a claim asks of a worker
 * (the seed's `Worker._execute` and `LeaseHeartbeat`):
 *
 * - While the inner attempt runs, a heartbeat renews the claim's lease
 *   every #SluiceStoreHandler:heartbeat seconds on the pool's clock
 *   (validated: less than half the lease, as the seed's
 *   `WorkerPolicy.validate`). A renew the store refuses (the lease was
 *   lost: it expired and was released, maybe claimed by another worker)
 *   races the attempt and wins: the inner attempt is cancelled and awaited,
 *   then the attempt fails with `LeaseLostError` and writes nothing, since
 *   the job is another claim's now. Every participant is awaited before the
 *   attempt ends, a renew in flight too (the seed's finding 02).
 * - The outcome goes back to the store: a result is completed (a complete
 *   the store refuses is a `LeaseLostError`, never a success); a failure
 *   whose type is one of #SluiceStoreHandler:retryable, with attempts left,
 *   is failed with available_at = now + the backoff of that attempt (capped
 *   exponential, full jitter or none, as the pool's `[retry]` policy); any
 *   other failure is failed with no retry, so the job is dead. The pool
 *   itself must not retry (`max-retries` 0): the store retries, across
 *   workers and processes.
 * - The attempt's own timeout (the pool's item timeout: its cancellable is
 *   cancelled at its deadline) is a retryable failure, `TimeoutError`, when
 *   that type is retryable. A cancel before the deadline is a shutdown's
 *   (the shutdown deadline, or a cancelled run): then nothing is written
 *   (the seed's finding 03): the lease expires and another worker, or the
 *   next start, claims the job again. Delivery is at least once.
 *
 * A completed job's result, in the store, is `{"result": R, "worker": W,
 * "token": T, "attempt": N}`: R is the inner handler's result as JSON, and
 * the rest says which claim completed it, for the audit of a crash.
 *
 * #SluiceStoreHandler::job-started and #SluiceStoreHandler::job-finished
 * tell a worker's caller about each claim; the pool's own events tell the
 * rest (the error it sees is the inner one, `LeaseLostError`, or the
 * cancel).
 */


static void handler_iface_init  (SluiceHandlerInterface *iface);
static void initable_iface_init (GInitableIface         *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceStoreHandler, sluice_store_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, handler_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, initable_iface_init))

G_DEFINE_ENUM_TYPE (SluiceStoreOutcome, sluice_store_outcome,
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_SUCCEEDED, "succeeded"),
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_RETRY, "retry"),
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_DEAD, "dead"),
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_LEASE_LOST, "lease-lost"),
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_ABANDONED, "abandoned"),
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_STORE_ERROR, "store-error"),
                    G_DEFINE_ENUM_VALUE (SLUICE_STORE_OUTCOME_CANCELLED, "cancelled"))

enum {
  PROP_0,
  PROP_SOURCE,
  PROP_INNER,
  PROP_HEARTBEAT,
  PROP_RETRYABLE,
  PROP_BACKOFF,
  PROP_BACKOFF_BASE,
  PROP_BACKOFF_CAP,
  PROP_JITTER,
  PROP_SEED,
  PROP_PIPELINED_COMPLETIONS,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  JOB_STARTED,
  JOB_FINISHED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* The largest backoff cap, as the pool's. */
#define MAX_CAP_S 3600.0

/* ---- one attempt -------------------------------------------------------- */

typedef enum {
  STOP_NONE,
  STOP_TIMEOUT,   /* the attempt's own deadline */
  STOP_SHUTDOWN,  /* the shutdown deadline, or a cancelled run */
} StopReason;

typedef struct {
  SluiceStoreHandler *self;
  SluiceAttempt      *attempt;
  SluiceJobClaim     *claim;
  GCancellable       *attempt_cancellable;
  gulong              cancelled_id;
  GCancellable       *inner_cancellable;
  guint64             heartbeat_timer;
  gboolean            renewing;
  gint64              renew_now;
  gint64              lease_expires_at;
  gboolean            lost;
  gboolean            cancel_requested;  /* an operator cancelled the job */
  StopReason          stop;
  gboolean            inner_done;
  GVariant           *result;
  GError             *error;
  gboolean            settling;
  gint64              available_at;
  gboolean            returned;  /* the pool has the attempt's result already */
} Call;

static void
call_free (Call *call)
{
  SluiceClock *clock = sluice_store_source_get_clock (call->self->source);

  if (call->heartbeat_timer != 0)
    sluice_clock_remove_timer (clock, call->heartbeat_timer);
  g_clear_signal_handler (&call->cancelled_id, call->attempt_cancellable);
  g_clear_object (&call->attempt_cancellable);
  g_clear_object (&call->inner_cancellable);
  g_clear_object (&call->attempt);
  g_clear_pointer (&call->claim, sluice_job_claim_free);
  g_clear_pointer (&call->result, g_variant_unref);
  g_clear_error (&call->error);
  g_clear_object (&call->self);
  g_free (call);
}

static gint64
call_now (Call *call)
{
  return sluice_store_source_now (call->self->source);
}

static GError *
lease_lost_error (Call       *call,
                  const char *why)
{
  /* Translators: the first %s is a job's id, the second why, such as “the store refused its completion”. */
  return sluice_named_error_new (SLUICE_LEASE_LOST_ERROR, _("The lease of job %s was lost: %s"),
                                 call->claim->job->id, why);
}

/* The end of the claim: the source forgets it and the caller hears of
 * it. */
static void
settle_claim (GTask              *task,
              SluiceStoreOutcome  outcome,
              const GError       *error)
{
  Call *call = g_task_get_task_data (task);
  SluiceStoreHandler *self = call->self;

  g_clear_signal_handler (&call->cancelled_id, call->attempt_cancellable);
  if (g_hash_table_lookup (self->calls, call->claim->job->id) == task)
    g_hash_table_remove (self->calls, call->claim->job->id);
  sluice_store_source_forget_claim (self->source, call->claim);
  /* The worker's row counts what the store took as done or failed. */
  if (outcome == SLUICE_STORE_OUTCOME_SUCCEEDED)
    _sluice_store_source_count_job (self->source, TRUE);
  else if (outcome == SLUICE_STORE_OUTCOME_RETRY || outcome == SLUICE_STORE_OUTCOME_DEAD ||
           outcome == SLUICE_STORE_OUTCOME_CANCELLED)
    _sluice_store_source_count_job (self->source, FALSE);
  g_signal_emit (self, signals[JOB_FINISHED], 0, call->claim, outcome, error, call->available_at);
}

/* The end of the claim (settle_claim()), then the pool gets @result or
 * @error (both taken), unless it has the result already (a pipelined
 * completion: then the outcome was only told, late). */
static void
finish (GTask              *task,
        SluiceStoreOutcome  outcome,
        GVariant           *result,
        GError             *error)
{
  Call *call = g_task_get_task_data (task);

  settle_claim (task, outcome, error);

  if (call->returned)
    {
      g_clear_pointer (&result, g_variant_unref);
      g_clear_error (&error);
    }
  else if (error != NULL)
    {
      g_clear_pointer (&result, g_variant_unref);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, result, (GDestroyNotify) g_variant_unref);
}

/* ---- outcomes back to the store ----------------------------------------- */

/* ConnectionError → CONNECTION_ERROR; a timeout has the seed's code. */
static char *
failure_code (const char *type_name)
{
  GString *code;

  if (g_strcmp0 (type_name, "TimeoutError") == 0)
    return g_strdup ("ATTEMPT_TIMEOUT");

  code = g_string_new (NULL);
  for (const char *p = type_name; *p != '\0'; p++)
    {
      if (g_ascii_isupper (*p) && p != type_name && (g_ascii_islower (p[-1]) || g_ascii_isdigit (p[-1])))
        g_string_append_c (code, '_');
      g_string_append_c (code, g_ascii_isalnum (*p) ? g_ascii_toupper (*p) : '_');
    }
  return g_string_free (code, FALSE);
}

static char *
result_json (Call *call)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "result");
  if (call->result != NULL)
    json_builder_add_value (builder, json_gvariant_serialize (call->result));
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "worker");
  json_builder_add_string_value (builder, call->claim->owner);
  json_builder_set_member_name (builder, "token");
  json_builder_add_string_value (builder, call->claim->token);
  json_builder_set_member_name (builder, "attempt");
  json_builder_add_int_value (builder, call->claim->job->attempts);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return json_to_string (root, FALSE);
}

static void
on_completed (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  GError *error = NULL;

  sluice_job_store_complete_finish (SLUICE_JOB_STORE (object), res, &error);
  if (call->returned)
    _sluice_store_source_end_background_call (call->self->source);
  else
    _sluice_store_source_end_call (call->self->source);

  if (error == NULL)
    finish (task, SLUICE_STORE_OUTCOME_SUCCEEDED, g_steal_pointer (&call->result), NULL);
  else if (g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST))
    {
      g_clear_error (&error);
      finish (task, SLUICE_STORE_OUTCOME_LEASE_LOST, NULL,
              lease_lost_error (call, _("the store refused its completion")));
    }
  else
    finish (task, SLUICE_STORE_OUTCOME_STORE_ERROR, NULL, error);
}

/* Pipelined (SluiceStoreHandler:pipelined-completions), the pool has the
 * result as soon as the completion is on its way: the worker takes its
 * next job while the store commits this one with the next batch. The
 * claim stays the source's until the store answered, and job-finished
 * says then what became of it (a refused completion: lease lost). */
static void
write_completion (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  g_autofree char *json = result_json (call);

  call->returned = call->self->pipelined_completions;
  if (call->returned)
    _sluice_store_source_begin_background_call (call->self->source);
  else
    _sluice_store_source_begin_call (call->self->source);
  sluice_job_store_complete_async (sluice_store_source_get_store (call->self->source), call->claim,
                                   json, call_now (call), NULL, on_completed, g_object_ref (task));
  if (call->returned)
    {
      g_clear_signal_handler (&call->cancelled_id, call->attempt_cancellable);
      g_task_return_pointer (task, g_variant_ref (call->result), (GDestroyNotify) g_variant_unref);
    }
}

static void
on_failed (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  GError *error = NULL;

  sluice_job_store_fail_finish (SLUICE_JOB_STORE (object), res, &error);
  _sluice_store_source_end_call (call->self->source);

  if (error == NULL)
    finish (task, call->cancel_requested ? SLUICE_STORE_OUTCOME_CANCELLED
                  : call->available_at >= 0 ? SLUICE_STORE_OUTCOME_RETRY : SLUICE_STORE_OUTCOME_DEAD,
            NULL, g_steal_pointer (&call->error));
  else if (g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST))
    {
      g_clear_error (&error);
      finish (task, SLUICE_STORE_OUTCOME_LEASE_LOST, NULL,
              lease_lost_error (call, _("the store refused its failure")));
    }
  else
    finish (task, SLUICE_STORE_OUTCOME_STORE_ERROR, NULL, error);
}

/* Retried when its type is retryable and the job has attempts left. */
static void
write_failure (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  SluiceStoreHandler *self = call->self;
  const SluiceStoredJob *job = call->claim->job;
  const char *type_name = sluice_error_type_name (call->error);
  g_autofree char *code = failure_code (type_name);
  g_autoptr(SluiceJobFailure) failure = NULL;
  gboolean retry;
  gint64 now = call_now (call);

  retry = self->retryable != NULL && !call->cancel_requested &&
          !g_error_matches (call->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) &&
          g_strv_contains ((const char * const *) self->retryable, type_name) &&
          job->attempts < job->max_attempts;
  call->available_at = retry ? now + sluice_store_handler_retry_delay (self, job->attempts) : -1;
  failure = sluice_job_failure_new (type_name, call->error->message, code, retry);

  _sluice_store_source_begin_call (self->source);
  sluice_job_store_fail_async (sluice_store_source_get_store (self->source), call->claim, failure,
                               call->available_at, now, NULL, on_failed, g_object_ref (task));
}

/* Every participant has ended (the inner attempt, any renew): what the
 * attempt means for the store. */
static void
maybe_settle (GTask *task)
{
  Call *call = g_task_get_task_data (task);

  if (!call->inner_done || call->renewing || call->settling)
    return;
  call->settling = TRUE;
  g_clear_signal_handler (&call->cancelled_id, call->attempt_cancellable);

  if (call->lost)
    finish (task, SLUICE_STORE_OUTCOME_LEASE_LOST, NULL,
            lease_lost_error (call, _("a renew of its lease was refused")));
  else if (call->cancel_requested)
    {
      /* Cancelled by an operator: the failure says so, and the store
       * records the job (and the attempt) cancelled. */
      g_clear_pointer (&call->result, g_variant_unref);
      g_clear_error (&call->error);
      call->error = sluice_named_error_new (SLUICE_CANCELLED_ERROR,
                                            /* Translators: %s is a job's id */
                                            _("Job %s was cancelled by an operator"), call->claim->job->id);
      write_failure (task);
    }
  else if (call->stop == STOP_SHUTDOWN && call->error != NULL)
    {
      /* Finding 03: no failure is written on a shutdown; the lease expires. */
      g_clear_error (&call->error);
      finish (task, SLUICE_STORE_OUTCOME_ABANDONED, NULL,
              g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                   _("The attempt was cancelled by a shutdown: the job is left to its lease")));
    }
  else if (call->stop == STOP_TIMEOUT)
    {
      g_clear_pointer (&call->result, g_variant_unref);
      g_clear_error (&call->error);
      call->error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_TIMEOUT, "item timed out");
      write_failure (task);
    }
  else if (call->error == NULL)
    write_completion (task);
  else
    write_failure (task);
}

/* ---- the race: the inner attempt, the heartbeat, the pool's cancel ------ */

static void
on_inner_done (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);

  call->result = sluice_handler_handle_finish (SLUICE_HANDLER (object), res, &call->error);
  if (call->result == NULL && call->error == NULL)
    call->error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_NO_RESULT,
                                       "handler returned neither a result nor an error");
  call->inner_done = TRUE;

  if (call->heartbeat_timer != 0)
    sluice_clock_remove_timer (sluice_store_source_get_clock (call->self->source), call->heartbeat_timer);
  call->heartbeat_timer = 0;

  maybe_settle (task);
}

static void start_heartbeat (GTask *task);

static void
lose_lease (Call *call)
{
  call->lost = TRUE;
  if (!call->inner_done)
    g_cancellable_cancel (call->inner_cancellable);
}

static void
on_renewed (GObject      *object,
            GAsyncResult *res,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  sluice_job_store_renew_finish (SLUICE_JOB_STORE (object), res, &error);
  _sluice_store_source_end_call (call->self->source);
  call->renewing = FALSE;

  if (error == NULL)
    call->lease_expires_at = call->renew_now + _sluice_store_source_get_lease_us (call->self->source);
  else if (g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST))
    lose_lease (call);
  else if (g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_CANCEL_REQUESTED))
    {
      /* The renew kept the lease: the attempt is cancelled, awaited, and
       * its failure written as ours. */
      call->lease_expires_at = call->renew_now + _sluice_store_source_get_lease_us (call->self->source);
      call->cancel_requested = TRUE;
      if (!call->inner_done)
        g_cancellable_cancel (call->inner_cancellable);
    }
  else
    {
      /* The store could not say: try again at the next beat, while the
       * lease we know of lasts. */
      g_signal_emit_by_name (call->self->source, "store-error", error);
      if (call_now (call) >= call->lease_expires_at)
        lose_lease (call);
    }

  if (!call->inner_done && !call->lost && !call->cancel_requested)
    start_heartbeat (task);
  maybe_settle (task);
}

static void
on_heartbeat (gpointer user_data)
{
  GTask *task = user_data;
  Call *call = g_task_get_task_data (task);

  call->heartbeat_timer = 0;
  if (call->inner_done || call->lost)
    return;

  call->renewing = TRUE;
  call->renew_now = call_now (call);
  _sluice_store_source_begin_call (call->self->source);
  sluice_job_store_renew_async (sluice_store_source_get_store (call->self->source), call->claim,
                                _sluice_store_source_get_lease_us (call->self->source), call->renew_now,
                                NULL, on_renewed, g_object_ref (task));
}

static void
start_heartbeat (GTask *task)
{
  Call *call = g_task_get_task_data (task);

  if (!call->self->heartbeat_enabled)
    return;
  call->heartbeat_timer = sluice_clock_add_timeout (sluice_store_source_get_clock (call->self->source),
                                                    call->self->heartbeat_us, on_heartbeat,
                                                    g_object_ref (task), g_object_unref);
}

/* An operator cancelled a running job (a NOTIFY, on PostgreSQL): the
 * claim is renewed now, and the renew's answer cancels the attempt. */
static void
on_cancel_requested (SluiceJobStore *store,
                     const char     *job_id,
                     gpointer        user_data)
{
  SluiceStoreHandler *self = user_data;
  GTask *task = g_hash_table_lookup (self->calls, job_id);
  Call *call;

  if (task == NULL)
    return;
  call = g_task_get_task_data (task);
  if (call->inner_done || call->lost || call->cancel_requested || call->renewing || !self->heartbeat_enabled)
    return;
  /* The timer's reference goes; the inner attempt's keeps the task. */
  if (call->heartbeat_timer != 0)
    sluice_clock_remove_timer (sluice_store_source_get_clock (self->source), call->heartbeat_timer);
  call->heartbeat_timer = 0;
  on_heartbeat (task);
}

/* The pool cancels an attempt at its deadline, or for a shutdown. A plain
 * signal handler, not g_cancellable_connect(): the attempt may end, and
 * this handler be disconnected, from inside the emission. */
static void
on_attempt_cancelled (GCancellable *cancellable,
                      gpointer      user_data)
{
  Call *call = user_data;
  SluiceClock *clock = sluice_store_source_get_clock (call->self->source);

  if (call->inner_done || call->stop != STOP_NONE)
    return;
  call->stop = sluice_clock_now (clock) >= sluice_attempt_get_deadline (call->attempt)
                 ? STOP_TIMEOUT : STOP_SHUTDOWN;
  g_cancellable_cancel (call->inner_cancellable);
}

static void
sluice_store_handler_handle_async (SluiceHandler       *handler,
                                   SluiceAttempt       *attempt,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  SluiceStoreHandler *self = SLUICE_STORE_HANDLER (handler);
  g_autoptr(GTask) task = NULL;
  GVariant *item = sluice_attempt_get_item (attempt);
  const SluiceJobClaim *claim;
  Call *call;

  /* No cancellable on the task: the pool's cancel is one of the races'
   * participants, and the attempt ends only when all have. */
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, sluice_store_handler_handle_async);
  g_task_set_priority (task, sluice_attempt_get_priority (attempt));

  claim = sluice_store_source_lookup_claim (self->source, item);
  if (claim == NULL)
    {
      g_autofree char *repr = g_variant_print (item, FALSE);

      g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_FAILED,
                               /* Translators: %s is the item, such as ('a1b2…', 'job-0', 1, '{}'). */
                               _("The item %s is no claim of the handler's source"), repr);
      return;
    }

  /* From here on the claim is this attempt's to end, never handed back. */
  _sluice_store_source_claim_started (self->source, claim);
  call = g_new0 (Call, 1);
  call->self = g_object_ref (self);
  call->attempt = g_object_ref (attempt);
  call->claim = sluice_job_claim_copy (claim);
  call->lease_expires_at = claim->job->lease_expires_at;
  call->inner_cancellable = g_cancellable_new ();
  call->attempt_cancellable = g_object_ref (cancellable != NULL ? cancellable
                                                                : sluice_attempt_get_cancellable (attempt));
  call->available_at = -1;
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);

  g_hash_table_replace (self->calls, g_strdup (call->claim->job->id), task);
  g_signal_emit (self, signals[JOB_STARTED], 0, call->claim);

  if (g_cancellable_is_cancelled (call->attempt_cancellable))
    on_attempt_cancelled (call->attempt_cancellable, call);
  else
    call->cancelled_id = g_signal_connect (call->attempt_cancellable, "cancelled",
                                           G_CALLBACK (on_attempt_cancelled), call);

  start_heartbeat (task);
  sluice_handler_handle_async (self->inner, attempt, call->inner_cancellable,
                               on_inner_done, g_object_ref (task));
}

static void
handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = sluice_store_handler_handle_async;
}

/* ---- GInitable ---------------------------------------------------------- */

static char *
format_seconds (double seconds)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (text, sizeof text, "%g", seconds));
}

static gboolean
invalid (GError     **error,
         const char  *format,
         ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid (GError     **error,
         const char  *format,
         ...)
{
  va_list args;

  if (error == NULL)
    return FALSE;
  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG, format, args));
  va_end (args);
  return FALSE;
}

static gboolean
check_heartbeat (SluiceStoreHandler  *self,
                 GError             **error)
{
  double lease = sluice_store_source_get_lease (self->source);
  g_autofree char *heartbeat = format_seconds (self->heartbeat);
  g_autofree char *half = format_seconds (lease / 2);

  /* The seed's WorkerPolicy.validate: a heartbeat must come at least twice
   * within a lease, so that one late renew does not lose it. */
  if (!isfinite (self->heartbeat) || self->heartbeat <= 0 || !(self->heartbeat < lease / 2) ||
      sluice_time_from_seconds (self->heartbeat) <= 0)
    /* Translators: keep “heartbeat” and “lease”, the options' names; %s are seconds. */
    return invalid (error, _("heartbeat must be above 0 and less than half of lease (%s s), not %s s"),
                    half, heartbeat);
  return TRUE;
}

static gboolean
check_backoff (SluiceStoreHandler  *self,
               GError             **error)
{
  g_autofree char *base = format_seconds (self->backoff_base);
  g_autofree char *cap = format_seconds (self->backoff_cap);

  if (!isfinite (self->backoff_base) || self->backoff_base <= 0)
    return invalid (error, _("backoff-base must be a finite number of seconds above 0, not %s"), base);
  if (!isfinite (self->backoff_cap) || self->backoff_cap > MAX_CAP_S || self->backoff_cap < self->backoff_base)
    /* Translators: keep “backoff-cap” and “backoff-base”, the options' names; %s are seconds. */
    return invalid (error, _("backoff-cap must be at least backoff-base (%s s) and at most 3600 s, not %s s"),
                    base, cap);
  return TRUE;
}

static gboolean
sluice_store_handler_initable_init (GInitable     *initable,
                                    GCancellable  *cancellable,
                                    GError       **error)
{
  SluiceStoreHandler *self = SLUICE_STORE_HANDLER (initable);

  if (self->source == NULL || self->inner == NULL)
    return invalid (error, "%s", _("A store handler needs a store source and an inner handler"));
  if (!check_heartbeat (self, error) || !check_backoff (self, error))
    return FALSE;

  self->heartbeat_us = sluice_time_from_seconds (self->heartbeat);
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->store = g_object_ref (sluice_store_source_get_store (self->source));
  self->cancel_requested_id = g_signal_connect (self->store, "cancel-requested",
                                                G_CALLBACK (on_cancel_requested), self);
  self->rand = g_rand_new_with_seed_array ((const guint32 *) &self->seed, 1);
  return TRUE;
}

static void
initable_iface_init (GInitableIface *iface)
{
  iface->init = sluice_store_handler_initable_init;
}

/* ---- GObject ------------------------------------------------------------ */

static void
sluice_store_handler_finalize (GObject *object)
{
  SluiceStoreHandler *self = SLUICE_STORE_HANDLER (object);

  if (self->random_destroy != NULL)
    self->random_destroy (self->random_data);
  g_clear_pointer (&self->rand, g_rand_free);
  if (self->store != NULL)
    g_clear_signal_handler (&self->cancel_requested_id, self->store);
  g_clear_object (&self->store);
  g_clear_pointer (&self->calls, g_hash_table_unref);
  g_clear_object (&self->source);
  g_clear_object (&self->inner);
  g_clear_pointer (&self->retryable, g_strfreev);

  G_OBJECT_CLASS (sluice_store_handler_parent_class)->finalize (object);
}

static void
sluice_store_handler_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SluiceStoreHandler *self = SLUICE_STORE_HANDLER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      g_value_set_object (value, self->source);
      break;
    case PROP_INNER:
      g_value_set_object (value, self->inner);
      break;
    case PROP_HEARTBEAT:
      g_value_set_double (value, self->heartbeat);
      break;
    case PROP_RETRYABLE:
      g_value_set_boxed (value, self->retryable);
      break;
    case PROP_BACKOFF:
      g_value_set_enum (value, self->backoff);
      break;
    case PROP_BACKOFF_BASE:
      g_value_set_double (value, self->backoff_base);
      break;
    case PROP_BACKOFF_CAP:
      g_value_set_double (value, self->backoff_cap);
      break;
    case PROP_JITTER:
      g_value_set_enum (value, self->jitter);
      break;
    case PROP_SEED:
      g_value_set_uint (value, self->seed);
      break;
    case PROP_PIPELINED_COMPLETIONS:
      g_value_set_boolean (value, self->pipelined_completions);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_handler_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  SluiceStoreHandler *self = SLUICE_STORE_HANDLER (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      self->source = g_value_dup_object (value);
      break;
    case PROP_INNER:
      self->inner = g_value_dup_object (value);
      break;
    case PROP_HEARTBEAT:
      self->heartbeat = g_value_get_double (value);
      break;
    case PROP_RETRYABLE:
      g_strfreev (self->retryable);
      self->retryable = g_value_dup_boxed (value);
      break;
    case PROP_BACKOFF:
      self->backoff = g_value_get_enum (value);
      break;
    case PROP_BACKOFF_BASE:
      self->backoff_base = g_value_get_double (value);
      break;
    case PROP_BACKOFF_CAP:
      self->backoff_cap = g_value_get_double (value);
      break;
    case PROP_JITTER:
      self->jitter = g_value_get_enum (value);
      break;
    case PROP_SEED:
      self->seed = g_value_get_uint (value);
      break;
    case PROP_PIPELINED_COMPLETIONS:
      self->pipelined_completions = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_handler_class_init (SluiceStoreHandlerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;
  object_class->finalize = sluice_store_handler_finalize;
  object_class->get_property = sluice_store_handler_get_property;
  object_class->set_property = sluice_store_handler_set_property;

  /**
   * SluiceStoreHandler:source:
   *
   * The source whose claims the handler works on: the store, the clock,
   * the lease and the claims come from it.
   */
  properties [PROP_SOURCE] =
    g_param_spec_object ("source", NULL, NULL, SLUICE_TYPE_STORE_SOURCE, construct);

  /**
   * SluiceStoreHandler:inner:
   *
   * The handler that does the work; it gets the pool's attempt, whose item
   * is of type %SLUICE_STORE_ITEM_TYPE, and a cancellable of the handler's
   * own (cancelled by the pool's cancel or by a lost lease).
   */
  properties [PROP_INNER] =
    g_param_spec_object ("inner", NULL, NULL, SLUICE_TYPE_HANDLER, construct);

  /**
   * SluiceStoreHandler:heartbeat:
   *
   * Seconds between two renewals of a claim's lease while its attempt
   * runs: above 0 and less than half the source's lease.
   */
  properties [PROP_HEARTBEAT] =
    g_param_spec_double ("heartbeat", NULL, NULL, -INFINITY, INFINITY, 10.0,
                         construct | G_PARAM_LAX_VALIDATION);

  /**
   * SluiceStoreHandler:retryable:
   *
   * The error type names whose failures are retried while the job has
   * attempts left (`TimeoutError` for the attempt's own timeout). The
   * default: `ConnectionError` and `TimeoutError`.
   */
  properties [PROP_RETRYABLE] =
    g_param_spec_boxed ("retryable", NULL, NULL, G_TYPE_STRV, construct);

  /**
   * SluiceStoreHandler:backoff:
   *
   * Whether a retry waits (exponential, the default) or is available at
   * once.
   */
  properties [PROP_BACKOFF] =
    g_param_spec_enum ("backoff", NULL, NULL, SLUICE_TYPE_BACKOFF, SLUICE_BACKOFF_EXPONENTIAL, construct);

  /**
   * SluiceStoreHandler:backoff-base:
   *
   * The bound of the first retry's wait, in seconds: retry r waits up to
   * min(backoff-cap, backoff-base · 2^(r−1)).
   */
  properties [PROP_BACKOFF_BASE] =
    g_param_spec_double ("backoff-base", NULL, NULL, -INFINITY, INFINITY, 1.0,
                         construct | G_PARAM_LAX_VALIDATION);

  /**
   * SluiceStoreHandler:backoff-cap:
   *
   * The largest bound of a retry's wait, in seconds (at most 3600).
   */
  properties [PROP_BACKOFF_CAP] =
    g_param_spec_double ("backoff-cap", NULL, NULL, -INFINITY, INFINITY, 60.0,
                         construct | G_PARAM_LAX_VALIDATION);

  /**
   * SluiceStoreHandler:jitter:
   *
   * How the wait is drawn under its bound: full jitter (the default) or
   * the bound itself.
   */
  properties [PROP_JITTER] =
    g_param_spec_enum ("jitter", NULL, NULL, SLUICE_TYPE_JITTER, SLUICE_JITTER_FULL, construct);

  /**
   * SluiceStoreHandler:seed:
   *
   * The seed of the jitter's random numbers (MT19937, as the pool's); a
   * fleet of workers gives each its own.
   */
  properties [PROP_SEED] =
    g_param_spec_uint ("seed", NULL, NULL, 0, G_MAXUINT32, 0, construct);

  /**
   * SluiceStoreHandler:pipelined-completions:
   *
   * Whether a succeeded attempt ends, for the pool, once its completion
   * is sent to the store (the worker takes its next job while the store
   * commits it) rather than once the store has committed it (the
   * default). The claim stays the source's until the store answered, and
   * #SluiceStoreHandler::job-finished comes then, with what the store
   * did: a refused completion is %SLUICE_STORE_OUTCOME_LEASE_LOST with a
   * `LeaseLostError` there, after the pool counted the attempt's result
   * (docs/job-store.md, "The completion path").
   */
  properties [PROP_PIPELINED_COMPLETIONS] =
    g_param_spec_boolean ("pipelined-completions", NULL, NULL, FALSE, construct);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceStoreHandler::job-started:
   * @self: the handler
   * @claim: the claim whose attempt starts
   *
   * An attempt of a claimed job starts.
   */
  signals [JOB_STARTED] =
    g_signal_new ("job-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  SLUICE_TYPE_JOB_CLAIM | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * SluiceStoreHandler::job-finished:
   * @self: the handler
   * @claim: the claim
   * @outcome: a #SluiceStoreOutcome: what became of it
   * @error: (nullable): the attempt's error, for every outcome but
   *   %SLUICE_STORE_OUTCOME_SUCCEEDED
   * @available_at: when the job is offered again (µs since the epoch) for
   *   %SLUICE_STORE_OUTCOME_RETRY, or -1
   *
   * The attempt of a claim ended and the store has its outcome (or, for a
   * shutdown, lost lease or store error, was told nothing).
   */
  signals [JOB_FINISHED] =
    g_signal_new ("job-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  SLUICE_TYPE_JOB_CLAIM | G_SIGNAL_TYPE_STATIC_SCOPE,
                  SLUICE_TYPE_STORE_OUTCOME,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE,
                  G_TYPE_INT64);
}

static void
sluice_store_handler_init (SluiceStoreHandler *self)
{
  const char * const default_retryable[] = { "ConnectionError", "TimeoutError", NULL };

  self->heartbeat = 10.0;
  self->heartbeat_enabled = TRUE;
  self->retryable = g_strdupv ((char **) default_retryable);
  self->backoff = SLUICE_BACKOFF_EXPONENTIAL;
  self->backoff_base = 1.0;
  self->backoff_cap = 60.0;
  self->jitter = SLUICE_JITTER_FULL;
}
