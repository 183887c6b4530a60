/* sluice-report.c: what a scenario run did, as the JSON report of the spec
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-report.h"
#include "sluice-index-keys-private.h"

#include <math.h>
#include <string.h>

/**
 * SluiceReport:
 *
 * Collects one run of a scenario — the results in the order they were
 * yielded, the handler calls per item (from the %SLUICE_EVENT_ATTEMPT_START
 * events), the metrics calls, the recorded errors and the run's counters —
 * and builds the report of `scenario-format.md`, key for key: `outcome`,
 * `results`, `result_order`, `attempts`, `pulled`, `max_lead`, `lead_ok`,
 * `group_size`, `group_types`, `group_messages`, `ctx_ok`, `metrics`,
 * `metrics_raised`, `unfinished`, `live_operations`, `elapsed`; then the
 * keys later parts of the spec add, at their empty values where a run does
 * not use them: `mode`, `backoff_us`, `retries_skipped`, `shed` (the retry
 * policy), `shutdown` (what the shutdown deadline did, from the run's
 * counters) and `snapshots` (those sluice_report_add_snapshot() gave).
 * A submit-mode report (sluice_report_set_submit_mode()) adds `jobs`, `ran`
 * and `submit_refused` at the end, from sluice_report_finish_jobs().
 *
 * Feed it with sluice_report_add_event(), sluice_report_add_result() and
 * sluice_report_add_snapshot(),
 * give sluice_report_metrics_func() to the pool, then call
 * sluice_report_finish() once the run ended.
 */

struct _SluiceReport
{
  GObject     parent_instance;

  gint        queue_size;
  gint        workers;
  gboolean    metrics_broken;

  GPtrArray  *results;          /* GVariant*, in yield order */
  GHashTable *attempts;         /* gint64* → guint */
  GHashTable *backoffs;         /* gint64* → GArray of gint64 µs, in order */
  guint       metrics_ok;
  guint       metrics_retry;
  guint       metrics_failure;
  guint       metrics_raised;
  GPtrArray  *snapshots;        /* ReportSnapshot*, in the order given */
  GPtrArray  *fatal_reprs;      /* char*: the fatal errors, as they came */
  GPtrArray  *overruns;         /* char*: "item N, attempt A" and how late */
  gint64      deadline_at;      /* when the shutdown deadline fired, or -1 */

  gboolean    finished;
  char       *outcome;
  GPtrArray  *error_types;      /* char*, in record order */
  GPtrArray  *error_messages;
  GPtrArray  *error_reprs;
  SluiceRunStats stats;
  guint       live_operations;
  gint64      elapsed_us;
  gint64      started_at;
  gboolean    ctx_ok;

  gboolean    submit_mode;
  GPtrArray  *job_outcomes;     /* char*: each job's, by index */
  guint       submit_refused;
  guint       jobs_cancelled;
};

G_DEFINE_FINAL_TYPE (SluiceReport, sluice_report, G_TYPE_OBJECT)

typedef struct {
  double          t;            /* seconds from the run's start, as asked */
  SluiceSnapshot *snapshot;
} ReportSnapshot;

static void
report_snapshot_free (ReportSnapshot *entry)
{
  sluice_snapshot_unref (entry->snapshot);
  g_free (entry);
}

static void
sluice_report_finalize (GObject *object)
{
  SluiceReport *self = SLUICE_REPORT (object);

  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->attempts, g_hash_table_unref);
  g_clear_pointer (&self->backoffs, g_hash_table_unref);
  g_clear_pointer (&self->outcome, g_free);
  g_clear_pointer (&self->error_types, g_ptr_array_unref);
  g_clear_pointer (&self->error_messages, g_ptr_array_unref);
  g_clear_pointer (&self->error_reprs, g_ptr_array_unref);
  g_clear_pointer (&self->snapshots, g_ptr_array_unref);
  g_clear_pointer (&self->fatal_reprs, g_ptr_array_unref);
  g_clear_pointer (&self->overruns, g_ptr_array_unref);
  g_clear_pointer (&self->job_outcomes, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_report_parent_class)->finalize (object);
}

static void
sluice_report_class_init (SluiceReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_report_finalize;
}

static void
sluice_report_init (SluiceReport *self)
{
  self->results = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->attempts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->backoffs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                          (GDestroyNotify) g_array_unref);
  self->error_types = g_ptr_array_new_with_free_func (g_free);
  self->error_messages = g_ptr_array_new_with_free_func (g_free);
  self->error_reprs = g_ptr_array_new_with_free_func (g_free);
  self->snapshots = g_ptr_array_new_with_free_func ((GDestroyNotify) report_snapshot_free);
  self->fatal_reprs = g_ptr_array_new_with_free_func (g_free);
  self->overruns = g_ptr_array_new_with_free_func (g_free);
  self->job_outcomes = g_ptr_array_new_with_free_func (g_free);
  self->deadline_at = -1;
  self->ctx_ok = TRUE;
}

/**
 * sluice_report_new:
 * @queue_size: the pool's queue size, for `lead_ok`
 * @workers: the pool's workers, for `lead_ok`
 * @metrics_broken: whether sluice_report_metrics_func() behaves as a broken
 *   backend (counts its calls in `metrics_raised` and fails each one)
 *
 * Returns: (transfer full): a new, empty report
 */
SluiceReport *
sluice_report_new (gint     queue_size,
                   gint     workers,
                   gboolean metrics_broken)
{
  SluiceReport *self = g_object_new (SLUICE_TYPE_REPORT, NULL);

  self->queue_size = queue_size;
  self->workers = workers;
  self->metrics_broken = !!metrics_broken;

  return self;
}

/* Every backoff delay computed for an item: those that were waited, and
 * one drawn for a retry the deadline then skipped. */
static void
add_backoff (SluiceReport *self,
             gint64        item,
             gint64        delay_us)
{
  GArray *delays = g_hash_table_lookup (self->backoffs, &item);

  if (delays == NULL)
    {
      delays = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_hash_table_insert (self->backoffs, g_memdup2 (&item, sizeof item), delays);
    }
  g_array_append_val (delays, delay_us);
}

/**
 * sluice_report_add_event:
 * @self: a #SluiceReport
 * @event: an event of the run
 *
 * Counts the handler calls per item from the attempt-start events, keeps
 * the backoff delays of the backoff and retry-skipped events, and, for the
 * summary, the fatal errors, when the shutdown deadline fired and which
 * attempts overran it.
 */
void
sluice_report_add_event (SluiceReport      *self,
                         const SluiceEvent *event)
{
  guint count;

  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (event != NULL);

  if (event->kind == SLUICE_EVENT_SHUTDOWN_DEADLINE)
    self->deadline_at = event->time;

  if (event->item < 0)
    return;

  switch (event->kind)
    {
    case SLUICE_EVENT_ATTEMPT_START:
      count = GPOINTER_TO_UINT (g_hash_table_lookup (self->attempts, &event->item));
      g_hash_table_replace (self->attempts, g_memdup2 (&event->item, sizeof event->item),
                            GUINT_TO_POINTER (count + 1));
      break;

    case SLUICE_EVENT_BACKOFF:
    case SLUICE_EVENT_RETRY_SKIPPED:
      if (event->delay >= 0)
        add_backoff (self, event->item, event->delay);
      break;

    case SLUICE_EVENT_FATAL:
      {
        g_autofree char *quoted = sluice_repr_string (event->error_message ? event->error_message : "");

        g_ptr_array_add (self->fatal_reprs, g_strdup_printf ("%s(%s)", event->error_type ? event->error_type
                                                                                          : "Error", quoted));
      }
      break;

    case SLUICE_EVENT_OVERRUN:
      g_ptr_array_add (self->overruns,
                       g_strdup_printf ("item %" G_GINT64_FORMAT ", attempt %u ended %.6f s after the deadline",
                                        event->item, event->attempt,
                                        self->deadline_at >= 0 ? (double) (event->time - self->deadline_at) / G_USEC_PER_SEC
                                                               : 0.0));
      break;

    default:
      break;
    }
}

/**
 * sluice_report_add_result:
 * @self: a #SluiceReport
 * @result: a result the run yielded
 *
 * Appends @result to the results, in yield order.
 */
void
sluice_report_add_result (SluiceReport *self,
                          GVariant     *result)
{
  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (result != NULL);

  g_ptr_array_add (self->results, g_variant_ref_sink (result));
}

/**
 * sluice_report_add_snapshot:
 * @self: a #SluiceReport
 * @t: when it was asked for, in seconds from the run's start
 * @snapshot: the snapshot of the run taken then (or at its end, when @t
 *   came after it)
 *
 * Appends one entry to `snapshots`, in the order given.
 */
void
sluice_report_add_snapshot (SluiceReport   *self,
                            double          t,
                            SluiceSnapshot *snapshot)
{
  ReportSnapshot *entry;

  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (snapshot != NULL);

  entry = g_new (ReportSnapshot, 1);
  entry->t = t;
  entry->snapshot = sluice_snapshot_ref (snapshot);
  g_ptr_array_add (self->snapshots, entry);
}

/**
 * sluice_report_metrics_func:
 * @event: `ok`, `retry` or `failure`
 * @detail: the repr of the item or error
 * @user_data: a #SluiceReport
 * @error: set when the report plays a broken backend
 *
 * A #SluiceMetricsFunc that counts the calls of each event. Give it to
 * sluice_pool_set_metrics_func() with the report as data.
 *
 * Returns: %FALSE with @error set when the report plays a broken backend
 */
gboolean
sluice_report_metrics_func (const char  *event,
                            const char  *detail,
                            gpointer     user_data,
                            GError     **error)
{
  SluiceReport *self = user_data;

  g_return_val_if_fail (SLUICE_IS_REPORT (self), FALSE);

  if (g_strcmp0 (event, "ok") == 0)
    self->metrics_ok++;
  else if (g_strcmp0 (event, "retry") == 0)
    self->metrics_retry++;
  else if (g_strcmp0 (event, "failure") == 0)
    self->metrics_failure++;

  if (!self->metrics_broken)
    return TRUE;

  self->metrics_raised++;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "metrics backend is broken");
  return FALSE;
}

static const char *
outcome_of (const GError *end_error,
            gboolean      closed)
{
  if (closed)
    return "closed";
  if (end_error == NULL)
    return "ok";
  if (g_error_matches (end_error, SLUICE_ERROR, SLUICE_ERROR_GROUP))
    return "ExceptionGroup";
  if (g_error_matches (end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return "CancelledError";

  return sluice_error_type_name (end_error);
}

/**
 * sluice_report_finish:
 * @self: a #SluiceReport
 * @run: the run, which has ended
 * @end_error: (nullable): how the run ended: %NULL normally, a
 *   %SLUICE_ERROR_GROUP, %G_IO_ERROR_CANCELLED after the caller cancelled,
 *   or another error
 * @closed: whether the caller closed the run
 * @ctx_ok: whether every attempt read back its own attempt-local value
 *
 * Takes the outcome, the recorded errors and the counters of @run.
 */
void
sluice_report_finish (SluiceReport *self,
                      SluiceRun    *run,
                      const GError *end_error,
                      gboolean      closed,
                      gboolean      ctx_ok)
{
  GPtrArray *errors;

  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (SLUICE_IS_RUN (run));
  g_return_if_fail (!self->finished);

  self->finished = TRUE;
  self->outcome = g_strdup (outcome_of (end_error, closed));
  self->ctx_ok = !!ctx_ok;

  errors = sluice_run_get_errors (run);
  for (guint i = 0; errors != NULL && i < errors->len; i++)
    {
      const GError *error = g_ptr_array_index (errors, i);

      g_ptr_array_add (self->error_types, g_strdup (sluice_error_type_name (error)));
      g_ptr_array_add (self->error_messages, g_strdup (error->message));
      g_ptr_array_add (self->error_reprs, sluice_error_repr (error));
    }

  sluice_run_get_stats (run, &self->stats);
  self->live_operations = sluice_run_get_live_operations (run);
  self->started_at = sluice_run_get_started_at (run);
  self->elapsed_us = MAX (0, sluice_run_get_finished_at (run) - self->started_at);
}

/**
 * sluice_report_set_submit_mode:
 * @self: a #SluiceReport that has not finished
 *
 * Makes it the report of a service run (`mode` `submit`): the results are
 * the successful jobs' (given with sluice_report_add_result() in the order
 * the jobs ended), and sluice_report_finish_jobs() gives the jobs.
 */
void
sluice_report_set_submit_mode (SluiceReport *self)
{
  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (!self->finished);

  self->submit_mode = TRUE;
}

/* What a job came to, as `jobs` says it. */
static const char *
job_outcome (SluiceJob *job)
{
  switch (sluice_job_get_state (job))
    {
    case SLUICE_JOB_SUCCEEDED:
      return "ok";
    case SLUICE_JOB_FAILED:
      return sluice_error_type_name (sluice_job_get_error (job));
    case SLUICE_JOB_QUEUED:
    case SLUICE_JOB_RUNNING:
    case SLUICE_JOB_CANCELLED:
    default:
      return "cancelled";
    }
}

/**
 * sluice_report_finish_jobs:
 * @self: a submit-mode #SluiceReport, just finished
 * @jobs: (element-type SluiceJob): every admitted job, by index
 * @submit_refused: the submissions refused with %SLUICE_ERROR_CLOSED
 * @submitter_ended_at: when the submitter ended, on the pool's clock
 * @cancelled: whether the caller cancelled the run
 *
 * Takes the jobs' outcomes and the refusals: `pulled` counts the jobs and
 * the refused submissions, `unfinished` the cancelled jobs and the refused
 * ones, `elapsed` runs until the submitter ended too, and `outcome` is
 * `ok` for a graceful end however the jobs did (`ExceptionGroup` for fatal
 * errors, `CancelledError` when the caller cancelled).
 */
void
sluice_report_finish_jobs (SluiceReport *self,
                           GPtrArray    *jobs,
                           guint         submit_refused,
                           gint64        submitter_ended_at,
                           gboolean      cancelled)
{
  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (self->finished && self->submit_mode);
  g_return_if_fail (jobs != NULL);

  for (guint i = 0; i < jobs->len; i++)
    {
      SluiceJob *job = g_ptr_array_index (jobs, i);
      const char *outcome = job != NULL ? job_outcome (job) : "cancelled";

      if (g_str_equal (outcome, "cancelled"))
        self->jobs_cancelled++;
      g_ptr_array_add (self->job_outcomes, g_strdup (outcome));
    }

  self->submit_refused = submit_refused;
  self->stats.pulled += submit_refused;
  self->elapsed_us = MAX (self->elapsed_us, submitter_ended_at - self->started_at);

  if (cancelled)
    {
      g_free (self->outcome);
      self->outcome = g_strdup ("CancelledError");
    }
}

/**
 * sluice_report_is_finished:
 * @self: a #SluiceReport
 *
 * Returns: whether sluice_report_finish() was called
 */
gboolean
sluice_report_is_finished (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), FALSE);
  return self->finished;
}

/**
 * sluice_report_get_outcome:
 * @self: a finished #SluiceReport
 *
 * Returns: (nullable): `ok`, `ExceptionGroup`, `closed`, `CancelledError`
 *   or another error type name; %NULL before sluice_report_finish()
 */
const char *
sluice_report_get_outcome (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  return self->outcome;
}

/**
 * sluice_report_get_n_results:
 * @self: a #SluiceReport
 *
 * Returns: how many results the run yielded so far
 */
guint
sluice_report_get_n_results (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), 0);
  return self->results->len;
}

/**
 * sluice_report_get_attempts:
 * @self: a #SluiceReport
 * @item_index: an item index
 *
 * Returns: how many times the handler was called for that item
 */
guint
sluice_report_get_attempts (SluiceReport *self,
                            gint64        item_index)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), 0);
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->attempts, &item_index));
}

/**
 * sluice_report_get_metrics_calls:
 * @self: a #SluiceReport
 * @event: `ok`, `retry` or `failure`
 *
 * Returns: how many metrics calls of @event the report received
 */
guint
sluice_report_get_metrics_calls (SluiceReport *self,
                                 const char   *event)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), 0);

  if (g_strcmp0 (event, "ok") == 0)
    return self->metrics_ok;
  if (g_strcmp0 (event, "retry") == 0)
    return self->metrics_retry;
  if (g_strcmp0 (event, "failure") == 0)
    return self->metrics_failure;
  return 0;
}

/* ---- JSON -------------------------------------------------------------- */

static void
add_value (JsonBuilder *builder,
           GVariant    *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    json_builder_add_int_value (builder, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    json_builder_add_string_value (builder, g_variant_get_string (value, NULL));
  else
    {
      g_autofree char *text = g_variant_print (value, FALSE);
      json_builder_add_string_value (builder, text);
    }
}

/* A copy that borrows the elements (g_ptr_array_copy() would free them). */
static GPtrArray *
shallow_copy (GPtrArray *array)
{
  GPtrArray *copy = g_ptr_array_sized_new (array->len);

  for (guint i = 0; i < array->len; i++)
    g_ptr_array_add (copy, g_ptr_array_index (array, i));

  return copy;
}

/* Integers first, in numeric order, then everything else by text. */
static gint
compare_results (gconstpointer a,
                 gconstpointer b)
{
  GVariant *x = *(GVariant **) a, *y = *(GVariant **) b;
  gboolean x_int = g_variant_is_of_type (x, G_VARIANT_TYPE_INT64);
  gboolean y_int = g_variant_is_of_type (y, G_VARIANT_TYPE_INT64);

  if (x_int && y_int)
    {
      gint64 i = g_variant_get_int64 (x), j = g_variant_get_int64 (y);
      return i < j ? -1 : i > j;
    }

  if (x_int != y_int)
    return x_int ? -1 : 1;

  if (g_variant_is_of_type (x, G_VARIANT_TYPE_STRING) && g_variant_is_of_type (y, G_VARIANT_TYPE_STRING))
    return strcmp (g_variant_get_string (x, NULL), g_variant_get_string (y, NULL));

  {
    g_autofree char *s = g_variant_print (x, FALSE);
    g_autofree char *t = g_variant_print (y, FALSE);
    return strcmp (s, t);
  }
}

static void
add_results (JsonBuilder *builder,
             GPtrArray   *results,
             gboolean     sorted)
{
  g_autoptr(GPtrArray) order = shallow_copy (results);

  if (sorted)
    g_ptr_array_sort (order, compare_results);

  json_builder_begin_array (builder);
  for (guint i = 0; i < order->len; i++)
    add_value (builder, g_ptr_array_index (order, i));
  json_builder_end_array (builder);
}

static void
add_attempts (JsonBuilder *builder,
              GHashTable  *attempts)
{
  g_autoptr(GPtrArray) indexes = _sluice_sorted_index_keys (attempts);

  json_builder_begin_object (builder);
  for (guint i = 0; i < indexes->len; i++)
    {
      gint64 *index = g_ptr_array_index (indexes, i);
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT, *index);

      json_builder_set_member_name (builder, key);
      json_builder_add_int_value (builder, GPOINTER_TO_UINT (g_hash_table_lookup (attempts, index)));
    }
  json_builder_end_object (builder);
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static void
add_sorted_strings (JsonBuilder *builder,
                    GPtrArray   *strings)
{
  g_autoptr(GPtrArray) sorted = shallow_copy (strings);

  g_ptr_array_sort (sorted, compare_strings);

  json_builder_begin_array (builder);
  for (guint i = 0; i < sorted->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (sorted, i));
  json_builder_end_array (builder);
}

static void
add_metrics (SluiceReport *self,
             JsonBuilder  *builder)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "ok");
  json_builder_add_int_value (builder, self->metrics_ok);
  json_builder_set_member_name (builder, "retry");
  json_builder_add_int_value (builder, self->metrics_retry);
  json_builder_set_member_name (builder, "failure");
  json_builder_add_int_value (builder, self->metrics_failure);
  json_builder_end_object (builder);
}

static void
add_int_member (JsonBuilder *builder,
                const char  *name,
                gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_backoffs (JsonBuilder *builder,
              GHashTable  *backoffs)
{
  g_autoptr(GPtrArray) indexes = _sluice_sorted_index_keys (backoffs);

  json_builder_begin_object (builder);
  for (guint i = 0; i < indexes->len; i++)
    {
      gint64 *index = g_ptr_array_index (indexes, i);
      GArray *delays = g_hash_table_lookup (backoffs, index);
      g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT, *index);

      json_builder_set_member_name (builder, key);
      json_builder_begin_array (builder);
      for (guint j = 0; j < delays->len; j++)
        json_builder_add_int_value (builder, g_array_index (delays, gint64, j));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

/* What the shutdown deadline did: all 0 and false when it did not fire. */
static void
add_shutdown (SluiceReport *self,
              JsonBuilder  *builder)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "deadline_hit");
  json_builder_add_boolean_value (builder, self->stats.deadline_hit != 0);
  add_int_member (builder, "dropped_queued", self->stats.dropped_queued);
  add_int_member (builder, "cancelled_in_flight", self->stats.cancelled_in_flight);
  add_int_member (builder, "overrun", self->stats.overrun);
  json_builder_end_object (builder);
}

/* One entry per snapshot-at time: when, the queue, the busy workers, the
 * attempts in flight and the outcomes by name, sorted. */
static void
add_snapshots (SluiceReport *self,
               JsonBuilder  *builder)
{
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->snapshots->len; i++)
    {
      const ReportSnapshot *entry = g_ptr_array_index (self->snapshots, i);
      const SluiceSnapshot *snapshot = entry->snapshot;
      const char * const *names = sluice_snapshot_get_outcome_names (snapshot); /* sorted */

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "t");
      json_builder_add_double_value (builder, entry->t);
      add_int_member (builder, "queue_depth", sluice_snapshot_get_queue_depth (snapshot));
      add_int_member (builder, "busy_workers", sluice_snapshot_get_busy_workers (snapshot));
      add_int_member (builder, "in_flight", sluice_snapshot_get_in_flight (snapshot));
      json_builder_set_member_name (builder, "outcomes");
      json_builder_begin_object (builder);
      for (guint j = 0; names[j] != NULL; j++)
        add_int_member (builder, names[j], sluice_snapshot_get_outcome_count (snapshot, names[j]));
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
add_retry_policy_keys (SluiceReport *self,
                       JsonBuilder  *builder)
{
  json_builder_set_member_name (builder, "backoff_us");
  add_backoffs (builder, self->backoffs);
  json_builder_set_member_name (builder, "retries_skipped");
  json_builder_begin_object (builder);
  add_int_member (builder, "deadline", self->stats.skipped_deadline);
  add_int_member (builder, "budget", self->stats.skipped_budget);
  json_builder_end_object (builder);
  add_int_member (builder, "shed", self->stats.shed);
}

/* `jobs`, `ran` (the jobs whose handler was called) and `submit_refused`. */
static void
add_jobs (SluiceReport *self,
          JsonBuilder  *builder)
{
  g_autoptr(GPtrArray) ran = _sluice_sorted_index_keys (self->attempts);

  json_builder_set_member_name (builder, "jobs");
  json_builder_begin_object (builder);
  for (guint i = 0; i < self->job_outcomes->len; i++)
    {
      char key[24];

      g_snprintf (key, sizeof key, "%u", i);
      json_builder_set_member_name (builder, key);
      json_builder_add_string_value (builder, g_ptr_array_index (self->job_outcomes, i));
    }
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "ran");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ran->len; i++)
    json_builder_add_int_value (builder, *(gint64 *) g_ptr_array_index (ran, i));
  json_builder_end_array (builder);

  add_int_member (builder, "submit_refused", self->submit_refused);
}

static gint64
unfinished_items (SluiceReport *self)
{
  gint64 unfinished;

  if (self->submit_mode)
    return (gint64) self->jobs_cancelled + self->submit_refused;

  unfinished = (gint64) self->stats.pulled - self->stats.succeeded - self->stats.failed;

  return MAX (unfinished, 0);
}

/**
 * sluice_report_to_json:
 * @self: a finished #SluiceReport
 *
 * Builds the report object with every key of the spec, in the spec's order.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
sluice_report_to_json (SluiceReport *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  json_builder_begin_object (builder);

  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, self->outcome);
  json_builder_set_member_name (builder, "results");
  add_results (builder, self->results, TRUE);
  json_builder_set_member_name (builder, "result_order");
  add_results (builder, self->results, FALSE);
  json_builder_set_member_name (builder, "attempts");
  add_attempts (builder, self->attempts);
  add_int_member (builder, "pulled", self->stats.pulled);
  add_int_member (builder, "max_lead", self->stats.max_lead);
  json_builder_set_member_name (builder, "lead_ok");
  json_builder_add_boolean_value (builder,
                                  (gint64) self->stats.max_lead <= (gint64) self->queue_size + self->workers + 1);
  add_int_member (builder, "group_size", self->error_types->len);
  json_builder_set_member_name (builder, "group_types");
  add_sorted_strings (builder, self->error_types);
  json_builder_set_member_name (builder, "group_messages");
  add_sorted_strings (builder, self->error_messages);
  json_builder_set_member_name (builder, "ctx_ok");
  json_builder_add_boolean_value (builder, self->ctx_ok);
  json_builder_set_member_name (builder, "metrics");
  add_metrics (self, builder);
  add_int_member (builder, "metrics_raised", self->metrics_raised);
  add_int_member (builder, "unfinished", unfinished_items (self));
  add_int_member (builder, "live_operations", self->live_operations);
  json_builder_set_member_name (builder, "elapsed");
  json_builder_add_double_value (builder, (double) self->elapsed_us / G_USEC_PER_SEC);

  json_builder_set_member_name (builder, "mode");
  json_builder_add_string_value (builder, self->submit_mode ? "submit" : "stream");
  add_retry_policy_keys (self, builder);
  json_builder_set_member_name (builder, "shutdown");
  add_shutdown (self, builder);
  json_builder_set_member_name (builder, "snapshots");
  add_snapshots (self, builder);

  if (self->submit_mode)
    add_jobs (self, builder);

  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * sluice_report_to_json_string:
 * @self: a finished #SluiceReport
 * @pretty: whether to indent the output
 *
 * Returns: (transfer full): the report as JSON text
 */
char *
sluice_report_to_json_string (SluiceReport *self,
                              gboolean      pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);

  root = sluice_report_to_json (self);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);

  return json_generator_to_data (generator, NULL);
}

/* The first results in the order they arrived: the seed's lesson is that
 * this is finish order, not input order. */
static void
append_result_order (GString   *text,
                     GPtrArray *results)
{
  const guint shown = MIN (results->len, 12);
  guint i;

  if (shown == 0)
    return;

  g_string_append (text, " in this order: ");
  for (i = 0; i < shown; i++)
    {
      g_autofree char *repr = g_variant_print (g_ptr_array_index (results, i), FALSE);
      g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", repr);
    }
  if (shown < results->len)
    g_string_append (text, ", …");
}

/* The recorded errors, each different one once, in the order they were
 * first recorded, with how many times it was. */
static void
append_errors (SluiceReport *self,
               GString      *text)
{
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) order = g_ptr_array_new ();
  guint i;

  if (self->error_reprs->len == 0)
    {
      g_string_append (text, "errors      none\n");
      return;
    }

  for (i = 0; i < self->error_reprs->len; i++)
    {
      const char *repr = g_ptr_array_index (self->error_reprs, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, repr));

      if (count == 0)
        g_ptr_array_add (order, (gpointer) repr);
      g_hash_table_insert (counts, (gpointer) repr, GUINT_TO_POINTER (count + 1));
    }

  for (i = 0; i < order->len; i++)
    {
      const char *repr = g_ptr_array_index (order, i);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, repr));

      g_string_append (text, i == 0 ? "errors      " : "            ");
      if (count > 1)
        g_string_append_printf (text, "%u × ", count);
      g_string_append_printf (text, "%s\n", repr);
    }
}

/* Backoff waits, skipped retries and shed items, when there were any. */
static void
append_retry_policy (SluiceReport *self,
                     GString      *text)
{
  GHashTableIter iter;
  gpointer value;
  guint waits = 0;
  gint64 total_us = 0;

  g_hash_table_iter_init (&iter, self->backoffs);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *delays = value;

      for (guint i = 0; i < delays->len; i++, waits++)
        total_us += g_array_index (delays, gint64, i);
    }

  if (waits > 0)
    g_string_append_printf (text, "backoff     %u waits, %.6f s in all\n",
                            waits, (double) total_us / G_USEC_PER_SEC);
  if (self->stats.skipped_deadline + self->stats.skipped_budget > 0)
    g_string_append_printf (text, "skipped     %u retries (deadline %u, budget %u)\n",
                            self->stats.skipped_deadline + self->stats.skipped_budget,
                            self->stats.skipped_deadline, self->stats.skipped_budget);
  if (self->stats.shed > 0)
    g_string_append_printf (text, "shed        %u items past their deadline, never handled\n",
                            self->stats.shed);
}

/* A fatal stop, what the shutdown deadline did and which attempts overran
 * it, when they happened. */
static void
append_shutdown (SluiceReport *self,
                 GString      *text)
{
  for (guint i = 0; i < self->fatal_reprs->len; i++)
    g_string_append_printf (text, "fatal       %s: the pool stopped at once, without a drain\n",
                            (char *) g_ptr_array_index (self->fatal_reprs, i));

  if (self->stats.deadline_hit)
    {
      g_string_append (text, "shutdown    the deadline cut the drain");
      if (self->deadline_at >= 0)
        g_string_append_printf (text, " at %.6f s", (double) (self->deadline_at - self->started_at) / G_USEC_PER_SEC);
      g_string_append_printf (text, ": dropped_queued %u, cancelled_in_flight %u, overrun %u\n",
                              self->stats.dropped_queued, self->stats.cancelled_in_flight, self->stats.overrun);
    }

  for (guint i = 0; i < self->overruns->len; i++)
    g_string_append_printf (text, "overrun     %s: its handler ignores cancellation\n",
                            (char *) g_ptr_array_index (self->overruns, i));
}

/* Submit mode: the jobs by outcome (ok first, then the others sorted),
 * with their first indices, and the refused submissions. */
static void
append_jobs (SluiceReport *self,
             GString      *text)
{
  g_autoptr(GHashTable) by_outcome = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                            (GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_string_append_printf (text, "jobs        %u admitted, %u submissions refused\n",
                          self->job_outcomes->len, self->submit_refused);

  for (guint i = 0; i < self->job_outcomes->len; i++)
    {
      char *name = g_ptr_array_index (self->job_outcomes, i);
      GArray *indices = g_hash_table_lookup (by_outcome, name);

      if (indices == NULL)
        {
          indices = g_array_new (FALSE, FALSE, sizeof (guint));
          g_hash_table_insert (by_outcome, name, indices);
          g_ptr_array_add (names, name);
        }
      g_array_append_val (indices, i);
    }

  g_ptr_array_sort (names, compare_strings);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < names->len; i++)
      {
        const char *name = g_ptr_array_index (names, i);
        GArray *indices = g_hash_table_lookup (by_outcome, name);
        const guint shown = MIN (indices->len, 12);

        if (g_str_equal (name, "ok") != (pass == 0))
          continue;

        g_string_append_printf (text, "            %s %u:", name, indices->len);
        for (guint j = 0; j < shown; j++)
          g_string_append_printf (text, " %u", g_array_index (indices, guint, j));
        g_string_append (text, shown < indices->len ? " …\n" : "\n");
      }
}

/* Each snapshot on one line: the queue, the workers and the outcomes. */
static void
append_snapshots (SluiceReport *self,
                  GString      *text)
{
  for (guint i = 0; i < self->snapshots->len; i++)
    {
      const ReportSnapshot *entry = g_ptr_array_index (self->snapshots, i);
      const SluiceSnapshot *snapshot = entry->snapshot;
      const char * const *names = sluice_snapshot_get_outcome_names (snapshot); /* sorted */

      g_string_append_printf (text, "snapshot    %.6f s: queue %u/%u, busy %u/%u, %u in flight, outcomes",
                              entry->t, sluice_snapshot_get_queue_depth (snapshot),
                              sluice_snapshot_get_queue_capacity (snapshot),
                              sluice_snapshot_get_busy_workers (snapshot),
                              sluice_snapshot_get_workers (snapshot),
                              sluice_snapshot_get_in_flight (snapshot));
      for (guint j = 0; names[j] != NULL; j++)
        g_string_append_printf (text, " %s=%u", names[j], sluice_snapshot_get_outcome_count (snapshot, names[j]));
      if (names[0] == NULL)
        g_string_append (text, " none");
      g_string_append_c (text, '\n');
    }
}

/**
 * sluice_report_format_summary:
 * @self: a finished #SluiceReport
 *
 * Returns: (transfer full): a few lines for a person to read
 */
char *
sluice_report_format_summary (SluiceReport *self)
{
  GString *text;
  guint calls = 0;
  GHashTableIter iter;
  gpointer value;

  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  g_hash_table_iter_init (&iter, self->attempts);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    calls += GPOINTER_TO_UINT (value);

  text = g_string_new (NULL);
  g_string_append_printf (text, "outcome     %s\n", self->outcome);
  g_string_append_printf (text, "items       %u pulled, %u ok, %u failed, %" G_GINT64_FORMAT " unfinished\n",
                          self->stats.pulled, self->stats.succeeded, self->stats.failed,
                          unfinished_items (self));
  g_string_append_printf (text, "results     %u yielded", self->results->len);
  append_result_order (text, self->results);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, "attempts    %u handler calls, %u retries, %u timeouts\n",
                          calls, self->stats.retries, self->stats.timeouts);
  append_retry_policy (self, text);
  g_string_append_printf (text, "max lead    %u (limit %d)\n", self->stats.max_lead,
                          self->queue_size + self->workers + 1);
  g_string_append_printf (text, "metrics     ok=%u retry=%u failure=%u",
                          self->metrics_ok, self->metrics_retry, self->metrics_failure);
  if (self->metrics_broken)
    g_string_append_printf (text, " (broken backend: %u calls failed)", self->metrics_raised);
  g_string_append_c (text, '\n');

  append_errors (self, text);
  if (self->submit_mode)
    append_jobs (self, text);
  append_shutdown (self, text);
  append_snapshots (self, text);

  if (!self->ctx_ok)
    g_string_append (text, "context     an attempt read another attempt's local value!\n");
  if (self->live_operations != 0)
    g_string_append_printf (text, "leak        %u operations still alive!\n", self->live_operations);

  g_string_append_printf (text, "elapsed     %.6f s\n", (double) self->elapsed_us / G_USEC_PER_SEC);

  return g_string_free (text, FALSE);
}
