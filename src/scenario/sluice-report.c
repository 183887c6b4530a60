/* sluice-report.c: what a scenario run did, as the JSON report of the spec
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-report-private.h"

#include <string.h>

/**
 * SluiceReport:
 *
 * Collects one run of a scenario — the results in the order they were
 * yielded, the handler calls per item (from the %SLUICE_EVENT_ATTEMPT_START
 * events), the metrics calls, the recorded errors and the run's counters —
 * and builds the report of `docs/scenario-format.md`, key for key: `outcome`,
 * `results`, `result_order`, `attempts`, `pulled`, `max_lead`, `lead_ok`,
 * `group_size`, `group_types`, `group_messages`, `ctx_ok`, `metrics`,
 * `metrics_raised`, `unfinished`, `live_operations`, `elapsed`; then the
 * keys later parts of the spec add, at their empty values where a run does
 * not use them: `mode`, `backoff_us`, `retries_skipped`, `shed` (the retry
 * policy), `shutdown` (what the shutdown deadline did, from the run's
 * counters) and `snapshots` (those sluice_report_add_snapshot() gave).
 * A submit-mode report (sluice_report_set_submit_mode()) adds `jobs`, `ran`
 * and `submit_refused`, from sluice_report_finish_jobs(). Last comes `lints`
 * (docs/lints.md), from the events.
 *
 * Feed it with sluice_report_add_event(), sluice_report_add_result() and
 * sluice_report_add_snapshot(),
 * give sluice_report_metrics_func() to the pool, then call
 * sluice_report_finish() once the run ended.
 *
 * This file collects; sluice-report-json.c writes the JSON report and
 * sluice-report-summary.c the summary for a person.
 */

G_DEFINE_FINAL_TYPE (SluiceReport, sluice_report, G_TYPE_OBJECT)

static void
report_snapshot_free (SluiceReportSnapshot *entry)
{
  sluice_snapshot_unref (entry->snapshot);
  g_free (entry);
}

static void
sluice_report_finalize (GObject *object)
{
  SluiceReport *self = SLUICE_REPORT (object);

  g_clear_pointer (&self->ints, g_array_unref);
  g_clear_pointer (&self->others, g_ptr_array_unref);
  g_clear_pointer (&self->other_bits, g_byte_array_unref);
  g_clear_pointer (&self->first_results, g_ptr_array_unref);
  g_clear_pointer (&self->attempts, g_free);
  g_clear_pointer (&self->overflow, g_hash_table_unref);
  g_clear_pointer (&self->backoffs, g_hash_table_unref);
  g_clear_pointer (&self->outcome, g_free);
  g_clear_object (&self->lesson);
  g_clear_pointer (&self->error_types, g_ptr_array_unref);
  g_clear_pointer (&self->error_messages, g_ptr_array_unref);
  g_clear_pointer (&self->error_reprs, g_ptr_array_unref);
  g_clear_pointer (&self->snapshots, g_ptr_array_unref);
  g_clear_pointer (&self->fatal_reprs, g_ptr_array_unref);
  g_clear_pointer (&self->overruns, g_ptr_array_unref);
  g_clear_pointer (&self->job_outcomes, g_ptr_array_unref);
  g_clear_pointer (&self->outcome_names, g_hash_table_unref);
  g_clear_object (&self->linter);

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
  self->keep_details = TRUE;
  self->ints = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->others = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->first_results = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  self->backoffs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                          (GDestroyNotify) g_array_unref);
  self->error_types = g_ptr_array_new_with_free_func (g_free);
  self->error_messages = g_ptr_array_new_with_free_func (g_free);
  self->error_reprs = g_ptr_array_new_with_free_func (g_free);
  self->snapshots = g_ptr_array_new_with_free_func ((GDestroyNotify) report_snapshot_free);
  self->fatal_reprs = g_ptr_array_new_with_free_func (g_free);
  self->overruns = g_ptr_array_new_with_free_func (g_free);
  self->job_outcomes = g_ptr_array_new ();
  self->outcome_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->deadline_at = -1;
  self->ctx_ok = TRUE;
  self->linter = sluice_linter_new ();
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

/**
 * sluice_report_set_keep_details:
 * @self: a #SluiceReport that has no results yet
 * @keep: whether to keep every result and every item's attempt count
 *
 * By default the report keeps every result and counts each item's
 * attempts: the JSON report lists them. A report only summarised
 * (sluice_report_format_summary()) needs their counts and the first
 * results alone; without the details, a run of a million items keeps no
 * more than one of a thousand. sluice_report_get_attempts() then says 0,
 * and the report cannot be written as JSON.
 */
void
sluice_report_set_keep_details (SluiceReport *self,
                                gboolean      keep)
{
  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (self->n_results == 0 && self->n_calls == 0);

  self->keep_details = !!keep;
}

/* One more handler call for @item: a byte per item index, in an array
 * that doubles, rather than a hash table entry per item. */
static void
count_attempt (SluiceReport *self,
               gint64        item)
{
  self->n_calls++;
  if (!self->keep_details)
    return;

  if ((guint64) item >= self->n_attempts)
    {
      gsize n = MAX (self->n_attempts * 2, 1024);

      while ((guint64) item >= n)
        n *= 2;
      self->attempts = g_realloc (self->attempts, n);
      memset (self->attempts + self->n_attempts, 0, n - self->n_attempts);
      self->n_attempts = n;
    }

  if (self->attempts[item] < SLUICE_REPORT_COUNT_OVERFLOW - 1)
    self->attempts[item]++;
  else
    {
      guint count;

      if (self->overflow == NULL)
        self->overflow = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      count = self->attempts[item] == SLUICE_REPORT_COUNT_OVERFLOW
              ? GPOINTER_TO_UINT (g_hash_table_lookup (self->overflow, &item))
              : SLUICE_REPORT_COUNT_OVERFLOW - 1;
      self->attempts[item] = SLUICE_REPORT_COUNT_OVERFLOW;
      g_hash_table_replace (self->overflow, g_memdup2 (&item, sizeof item), GUINT_TO_POINTER (count + 1));
    }
}

/* The handler calls for @item_index. */
guint
_sluice_report_get_count (SluiceReport *self,
                          gint64        item_index)
{
  guint8 count;

  if (item_index < 0 || (guint64) item_index >= self->n_attempts)
    return 0;

  count = self->attempts[item_index];
  if (count < SLUICE_REPORT_COUNT_OVERFLOW)
    return count;
  return GPOINTER_TO_UINT (g_hash_table_lookup (self->overflow, &item_index));
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
 * attempts overran it; and gives every event to its #SluiceLinter, for
 * `lints`.
 */
void
sluice_report_add_event (SluiceReport      *self,
                         const SluiceEvent *event)
{
  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (event != NULL);

  sluice_linter_add_event (self->linter, event);
  if (event->kind == SLUICE_EVENT_SHUTDOWN_DEADLINE)
    self->deadline_at = event->time;

  /* The results the pool handed back that the caller has not read yet:
   * only the input queue is bounded, so a slow caller lets them pile up. */
  if (event->kind == SLUICE_EVENT_ITEM_OK && !self->submit_mode)
    {
      self->buffered++;
      self->max_buffered = MAX (self->max_buffered, self->buffered);
    }
  else if (event->kind == SLUICE_EVENT_RESULT && self->buffered > 0)
    self->buffered--;

  if (event->item < 0)
    return;

  switch (event->kind)
    {
    case SLUICE_EVENT_ATTEMPT_START:
      count_attempt (self, event->item);
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
  g_autoptr(GVariant) owned = NULL;
  guint index;

  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (result != NULL);

  /* Only a floating reference is taken (and sunk): an integer is kept
   * as its value alone. */
  if (g_variant_is_floating (result))
    owned = g_variant_ref_sink (result);
  index = self->n_results++;

  if (self->first_results->len < SLUICE_REPORT_SHOWN_RESULTS)
    g_ptr_array_add (self->first_results, g_variant_ref (result));
  if (!self->keep_details)
    return;

  if (g_variant_is_of_type (result, G_VARIANT_TYPE_INT64))
    {
      gint64 value = g_variant_get_int64 (result);

      g_array_append_val (self->ints, value);
      if (self->other_bits != NULL && index / 8 >= self->other_bits->len)
        g_byte_array_append (self->other_bits, (const guint8 *) "", 1);
      return;
    }

  /* The first other result: the bits of the integers before it, all 0. */
  if (self->other_bits == NULL)
    {
      self->other_bits = g_byte_array_new ();
      g_byte_array_set_size (self->other_bits, index / 8 + 1);
      memset (self->other_bits->data, 0, self->other_bits->len);
    }
  else if (index / 8 >= self->other_bits->len)
    g_byte_array_append (self->other_bits, (const guint8 *) "", 1);

  self->other_bits->data[index / 8] |= 1u << (index % 8);
  g_ptr_array_add (self->others, g_variant_ref (result));
}

/* Whether result @index (in yield order) is in ints rather than others. */
gboolean
_sluice_report_result_is_int (SluiceReport *self,
                              guint         index)
{
  return self->other_bits == NULL || (self->other_bits->data[index / 8] & (1u << (index % 8))) == 0;
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
  SluiceReportSnapshot *entry;

  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (snapshot != NULL);

  entry = g_new (SluiceReportSnapshot, 1);
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

/**
 * sluice_report_set_lesson:
 * @self: a #SluiceReport not finished yet
 * @lesson: (nullable): the lesson of the run's scenario
 *
 * Makes the JSON report end with `lesson`: the right answer, `reveal` and
 * whether this run showed it (docs/teaching.md).
 */
void
sluice_report_set_lesson (SluiceReport *self,
                          SluiceLesson *lesson)
{
  g_return_if_fail (SLUICE_IS_REPORT (self));
  g_return_if_fail (lesson == NULL || SLUICE_IS_LESSON (lesson));

  g_set_object (&self->lesson, lesson);
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
 * Takes the jobs' outcomes and the refusals: `unfinished` counts the
 * cancelled jobs and the refused submissions (`pulled` and `max_lead`
 * already count the refused ones: the run counts each submission from its
 * call, see #SluiceRunStats), `elapsed` runs until the submitter ended
 * too, and `outcome` is
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
      char *name = g_hash_table_lookup (self->outcome_names, outcome);

      /* One copy of each outcome, not one per job. */
      if (name == NULL)
        {
          name = g_strdup (outcome);
          g_hash_table_add (self->outcome_names, name);
        }
      if (g_str_equal (name, "cancelled"))
        self->jobs_cancelled++;
      g_ptr_array_add (self->job_outcomes, name);
    }

  self->submit_refused = submit_refused;
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
 * sluice_report_get_stats:
 * @self: a finished #SluiceReport
 *
 * Returns: (transfer none): the run's counters when it ended (succeeded,
 *   failed, retries, timeouts, max lead, …)
 */
const SluiceRunStats *
sluice_report_get_stats (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  return &self->stats;
}

/**
 * sluice_report_get_linter:
 * @self: a #SluiceReport
 *
 * Returns: (transfer none): the lints of the events given so far (the
 *   report's `lints`)
 */
SluiceLinter *
sluice_report_get_linter (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  return self->linter;
}

/**
 * sluice_report_get_elapsed:
 * @self: a finished #SluiceReport
 *
 * Returns: the run's duration on its clock, in microseconds: the report's
 *   `elapsed`
 */
gint64
sluice_report_get_elapsed (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), 0);
  return self->elapsed_us;
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
  return self->n_results;
}

/**
 * sluice_report_get_attempts:
 * @self: a #SluiceReport
 * @item_index: an item index
 *
 * Returns: how many times the handler was called for that item (0 for
 *   every item of a report without details, see
 *   sluice_report_set_keep_details())
 */
guint
sluice_report_get_attempts (SluiceReport *self,
                            gint64        item_index)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), 0);
  return _sluice_report_get_count (self, item_index);
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

/* The items pulled that ended with neither a result nor a failure; in a
 * service run the cancelled jobs and the refused submissions. */
gint64
_sluice_report_unfinished (SluiceReport *self)
{
  gint64 unfinished;

  if (self->submit_mode)
    return (gint64) self->jobs_cancelled + self->submit_refused;

  unfinished = (gint64) self->stats.pulled - self->stats.succeeded - self->stats.failed;

  return MAX (unfinished, 0);
}

gint
_sluice_report_compare_strings (gconstpointer a,
                                gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}
