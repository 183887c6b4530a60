/* sluice-report-json.c: the report as the JSON object of docs/scenario-format.md
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-report-private.h"
#include "sluice-index-keys-private.h"
#include "sluice-json-writer-private.h"

#include <stdlib.h>
#include <string.h>

/* The keys are written in the spec's order, straight to the writer: a
 * json-glib tree of every result and attempt count cost more than the run
 * (sluice_report_to_json() still builds one, through the same calls). */

static int
compare_ints (const void *a,
              const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Strings by their text, other values by their printed text. */
static gint
compare_others (gconstpointer a,
                gconstpointer b)
{
  GVariant *x = *(GVariant **) a, *y = *(GVariant **) b;

  if (g_variant_is_of_type (x, G_VARIANT_TYPE_STRING) && g_variant_is_of_type (y, G_VARIANT_TYPE_STRING))
    return strcmp (g_variant_get_string (x, NULL), g_variant_get_string (y, NULL));

  {
    g_autofree char *s = g_variant_print (x, FALSE);
    g_autofree char *t = g_variant_print (y, FALSE);
    return strcmp (s, t);
  }
}

/* `results`: integers first, in numeric order, then everything else by
 * text (a stable sort, so equal texts keep their yield order). */
static void
write_sorted_results (SluiceReport     *self,
                      SluiceJsonWriter *w)
{
  g_autofree gint64 *ints = g_memdup2 (self->ints->data, (gsize) self->ints->len * sizeof (gint64));
  g_autoptr(GPtrArray) others = g_ptr_array_sized_new (self->others->len);

  /* qsort() of no elements may still not be given NULL. */
  if (ints != NULL)
    qsort (ints, self->ints->len, sizeof (gint64), compare_ints);
  for (guint i = 0; i < self->others->len; i++)
    g_ptr_array_add (others, g_ptr_array_index (self->others, i));
  g_ptr_array_sort (others, compare_others);

  _sluice_json_writer_begin_array (w);
  for (guint i = 0; i < self->ints->len; i++)
    _sluice_json_writer_int (w, ints[i]);
  for (guint i = 0; i < others->len; i++)
    _sluice_json_writer_variant (w, g_ptr_array_index (others, i));
  _sluice_json_writer_end_array (w);
}

/* `result_order`: as they were yielded. */
static void
write_result_order (SluiceReport     *self,
                    SluiceJsonWriter *w)
{
  guint next_int = 0, next_other = 0;

  _sluice_json_writer_begin_array (w);
  for (guint i = 0; i < self->n_results; i++)
    {
      if (_sluice_report_result_is_int (self, i))
        _sluice_json_writer_int (w, g_array_index (self->ints, gint64, next_int++));
      else
        _sluice_json_writer_variant (w, g_ptr_array_index (self->others, next_other++));
    }
  _sluice_json_writer_end_array (w);
}

/* `attempts`: the items the handler was called for, by index. */
static void
write_attempts (SluiceReport     *self,
                SluiceJsonWriter *w)
{
  _sluice_json_writer_begin_object (w);
  for (gsize i = 0; i < self->n_attempts; i++)
    if (self->attempts[i] != 0)
      {
        char key[SLUICE_JSON_INT_BUF_SIZE];

        _sluice_json_writer_int_member (w, _sluice_json_writer_format_int ((gint64) i, key),
                                        _sluice_report_get_count (self, (gint64) i));
      }
  _sluice_json_writer_end_object (w);
}

static void
write_sorted_strings (SluiceJsonWriter *w,
                      GPtrArray        *strings)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_sized_new (strings->len);

  for (guint i = 0; i < strings->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (strings, i));
  g_ptr_array_sort (sorted, _sluice_report_compare_strings);

  _sluice_json_writer_begin_array (w);
  for (guint i = 0; i < sorted->len; i++)
    _sluice_json_writer_string (w, g_ptr_array_index (sorted, i));
  _sluice_json_writer_end_array (w);
}

static void
write_metrics (SluiceReport     *self,
               SluiceJsonWriter *w)
{
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_int_member (w, "ok", self->metrics_ok);
  _sluice_json_writer_int_member (w, "retry", self->metrics_retry);
  _sluice_json_writer_int_member (w, "failure", self->metrics_failure);
  _sluice_json_writer_end_object (w);
}

static void
write_backoffs (SluiceReport     *self,
                SluiceJsonWriter *w)
{
  g_autoptr(GPtrArray) indexes = _sluice_sorted_index_keys (self->backoffs);

  _sluice_json_writer_begin_object (w);
  for (guint i = 0; i < indexes->len; i++)
    {
      gint64 *index = g_ptr_array_index (indexes, i);
      GArray *delays = g_hash_table_lookup (self->backoffs, index);
      char key[24];

      g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT, *index);
      _sluice_json_writer_member (w, key);
      _sluice_json_writer_begin_array (w);
      for (guint j = 0; j < delays->len; j++)
        _sluice_json_writer_int (w, g_array_index (delays, gint64, j));
      _sluice_json_writer_end_array (w);
    }
  _sluice_json_writer_end_object (w);
}

static void
write_retry_policy_keys (SluiceReport     *self,
                         SluiceJsonWriter *w)
{
  _sluice_json_writer_member (w, "backoff_us");
  write_backoffs (self, w);
  _sluice_json_writer_member (w, "retries_skipped");
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_int_member (w, "deadline", self->stats.skipped_deadline);
  _sluice_json_writer_int_member (w, "budget", self->stats.skipped_budget);
  _sluice_json_writer_end_object (w);
  _sluice_json_writer_int_member (w, "shed", self->stats.shed);
}

/* What the shutdown deadline did: all 0 and false when it did not fire. */
static void
write_shutdown (SluiceReport     *self,
                SluiceJsonWriter *w)
{
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_member (w, "deadline_hit");
  _sluice_json_writer_boolean (w, self->stats.deadline_hit != 0);
  _sluice_json_writer_int_member (w, "dropped_queued", self->stats.dropped_queued);
  _sluice_json_writer_int_member (w, "cancelled_in_flight", self->stats.cancelled_in_flight);
  _sluice_json_writer_int_member (w, "overrun", self->stats.overrun);
  _sluice_json_writer_end_object (w);
}

/* One entry per snapshot-at time: when, the queue, the busy workers, the
 * attempts in flight and the outcomes by name, sorted. */
static void
write_snapshots (SluiceReport     *self,
                 SluiceJsonWriter *w)
{
  _sluice_json_writer_begin_array (w);
  for (guint i = 0; i < self->snapshots->len; i++)
    {
      const SluiceReportSnapshot *entry = g_ptr_array_index (self->snapshots, i);
      const SluiceSnapshot *snapshot = entry->snapshot;
      const char * const *names = sluice_snapshot_get_outcome_names (snapshot); /* sorted */

      _sluice_json_writer_begin_object (w);
      _sluice_json_writer_member (w, "t");
      _sluice_json_writer_double (w, entry->t);
      _sluice_json_writer_int_member (w, "queue_depth", sluice_snapshot_get_queue_depth (snapshot));
      _sluice_json_writer_int_member (w, "busy_workers", sluice_snapshot_get_busy_workers (snapshot));
      _sluice_json_writer_int_member (w, "in_flight", sluice_snapshot_get_in_flight (snapshot));
      _sluice_json_writer_member (w, "outcomes");
      _sluice_json_writer_begin_object (w);
      for (guint j = 0; names[j] != NULL; j++)
        _sluice_json_writer_int_member (w, names[j], sluice_snapshot_get_outcome_count (snapshot, names[j]));
      _sluice_json_writer_end_object (w);
      _sluice_json_writer_end_object (w);
    }
  _sluice_json_writer_end_array (w);
}

/* `jobs`, `ran` (the jobs whose handler was called) and `submit_refused`. */
static void
write_jobs (SluiceReport     *self,
            SluiceJsonWriter *w)
{
  _sluice_json_writer_member (w, "jobs");
  _sluice_json_writer_begin_object (w);
  for (guint i = 0; i < self->job_outcomes->len; i++)
    {
      char key[24];

      g_snprintf (key, sizeof key, "%u", i);
      _sluice_json_writer_member (w, key);
      _sluice_json_writer_string (w, g_ptr_array_index (self->job_outcomes, i));
    }
  _sluice_json_writer_end_object (w);

  _sluice_json_writer_member (w, "ran");
  _sluice_json_writer_begin_array (w);
  for (gsize i = 0; i < self->n_attempts; i++)
    if (self->attempts[i] != 0)
      _sluice_json_writer_int (w, (gint64) i);
  _sluice_json_writer_end_array (w);

  _sluice_json_writer_int_member (w, "submit_refused", self->submit_refused);
}

static void write_lesson (SluiceReport *self, SluiceJsonWriter *w);

/* `lints`: each interval a lint was on, in the order they turned on, in
 * seconds from the run's start (`off` null for one still on at the end),
 * the items and workers it names and its message and advice in English:
 * the report is read by scripts, whatever the user's language. */
static void
write_lints (SluiceReport     *self,
             SluiceJsonWriter *w)
{
  GPtrArray *lints = sluice_linter_get_lints (self->linter);
  gint64 start = MAX (sluice_linter_get_start_time (self->linter), 0);

  _sluice_json_writer_begin_array (w);
  for (guint i = 0; i < lints->len; i++)
    {
      const SluiceLint *lint = g_ptr_array_index (lints, i);
      g_autofree char *message = sluice_lint_dup_message (lint, FALSE);
      g_autofree char *advice = sluice_lint_dup_advice (lint, FALSE);
      guint n_items, n_workers;
      const gint64 *items = sluice_lint_get_items (lint, &n_items);
      const gint *workers = sluice_lint_get_workers (lint, &n_workers);

      _sluice_json_writer_begin_object (w);
      _sluice_json_writer_member (w, "kind");
      _sluice_json_writer_string (w, sluice_lint_kind_to_string (sluice_lint_get_kind (lint)));
      _sluice_json_writer_member (w, "on");
      _sluice_json_writer_double (w, (double) (sluice_lint_get_on (lint) - start) / G_USEC_PER_SEC);
      _sluice_json_writer_member (w, "off");
      if (sluice_lint_get_off (lint) >= 0)
        _sluice_json_writer_double (w, (double) (sluice_lint_get_off (lint) - start) / G_USEC_PER_SEC);
      else
        _sluice_json_writer_null (w);
      _sluice_json_writer_member (w, "items");
      _sluice_json_writer_begin_array (w);
      for (guint j = 0; j < n_items; j++)
        _sluice_json_writer_int (w, items[j]);
      _sluice_json_writer_end_array (w);
      _sluice_json_writer_member (w, "workers");
      _sluice_json_writer_begin_array (w);
      for (guint j = 0; j < n_workers; j++)
        _sluice_json_writer_int (w, workers[j]);
      _sluice_json_writer_end_array (w);
      _sluice_json_writer_member (w, "message");
      _sluice_json_writer_string (w, message);
      _sluice_json_writer_member (w, "advice");
      _sluice_json_writer_string (w, advice);
      _sluice_json_writer_end_object (w);
    }
  _sluice_json_writer_end_array (w);
}

/* Every key of the spec, in the spec's order; `lesson` last, since it
 * says what the rest showed. */
static void
write_report (SluiceReport     *self,
              SluiceJsonWriter *w,
              gboolean          with_lesson)
{
  _sluice_json_writer_begin_object (w);

  _sluice_json_writer_member (w, "outcome");
  _sluice_json_writer_string (w, self->outcome);
  _sluice_json_writer_member (w, "results");
  write_sorted_results (self, w);
  _sluice_json_writer_member (w, "result_order");
  write_result_order (self, w);
  _sluice_json_writer_member (w, "attempts");
  write_attempts (self, w);
  _sluice_json_writer_int_member (w, "pulled", self->stats.pulled);
  _sluice_json_writer_int_member (w, "max_lead", self->stats.max_lead);
  _sluice_json_writer_member (w, "lead_ok");
  _sluice_json_writer_boolean (w, (gint64) self->stats.max_lead <= (gint64) self->queue_size + self->workers + 1);
  _sluice_json_writer_int_member (w, "group_size", self->error_types->len);
  _sluice_json_writer_member (w, "group_types");
  write_sorted_strings (w, self->error_types);
  _sluice_json_writer_member (w, "group_messages");
  write_sorted_strings (w, self->error_messages);
  _sluice_json_writer_member (w, "ctx_ok");
  _sluice_json_writer_boolean (w, self->ctx_ok);
  _sluice_json_writer_member (w, "metrics");
  write_metrics (self, w);
  _sluice_json_writer_int_member (w, "metrics_raised", self->metrics_raised);
  _sluice_json_writer_int_member (w, "unfinished", _sluice_report_unfinished (self));
  _sluice_json_writer_int_member (w, "live_operations", self->live_operations);
  _sluice_json_writer_member (w, "elapsed");
  _sluice_json_writer_double (w, (double) self->elapsed_us / G_USEC_PER_SEC);

  _sluice_json_writer_member (w, "mode");
  _sluice_json_writer_string (w, self->submit_mode ? "submit" : "stream");
  write_retry_policy_keys (self, w);
  _sluice_json_writer_member (w, "shutdown");
  write_shutdown (self, w);
  _sluice_json_writer_member (w, "snapshots");
  write_snapshots (self, w);
  /* Ours (docs/teaching.md's slow caller): the most results waiting at once. */
  if (!self->submit_mode)
    _sluice_json_writer_int_member (w, "max_buffered", self->max_buffered);

  if (self->submit_mode)
    write_jobs (self, w);

  _sluice_json_writer_member (w, "lints");
  write_lints (self, w);

  if (with_lesson && self->lesson != NULL)
    write_lesson (self, w);

  _sluice_json_writer_end_object (w);
}

/* The report without `lesson`, as a tree to look keys up in. */
static JsonNode *
build_report (SluiceReport *self,
              gboolean      with_lesson)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  SluiceJsonWriter w;

  _sluice_json_writer_init_builder (&w, builder);
  write_report (self, &w, with_lesson);
  _sluice_json_writer_finish (&w, NULL);

  return json_builder_get_root (builder);
}

/* `lesson`: { "answer": n, "reveal": "…", "held": true|false } */
static void
write_lesson (SluiceReport     *self,
              SluiceJsonWriter *w)
{
  g_autoptr(JsonNode) report = build_report (self, FALSE);

  _sluice_json_writer_member (w, "lesson");
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_int_member (w, "answer", sluice_lesson_get_answer (self->lesson));
  _sluice_json_writer_member (w, "reveal");
  _sluice_json_writer_string (w, sluice_lesson_get_reveal (self->lesson));
  _sluice_json_writer_member (w, "held");
  _sluice_json_writer_boolean (w, sluice_lesson_check_reveal (self->lesson, report, NULL));
  _sluice_json_writer_end_object (w);
}

/**
 * sluice_report_check_lesson:
 * @self: a finished #SluiceReport that kept its details, with a lesson
 *   (sluice_report_set_lesson())
 * @shown: (out) (optional) (transfer full): what this run showed of the
 *   values `reveal` names, as sluice_lesson_check_reveal() gives it
 *
 * Returns: whether this run showed the lesson's answer come true
 */
gboolean
sluice_report_check_lesson (SluiceReport  *self,
                            char         **shown)
{
  g_autoptr(JsonNode) report = NULL;

  g_return_val_if_fail (SLUICE_IS_REPORT (self), FALSE);
  g_return_val_if_fail (self->finished && self->keep_details, FALSE);
  g_return_val_if_fail (self->lesson != NULL, FALSE);

  report = build_report (self, FALSE);
  return sluice_lesson_check_reveal (self->lesson, report, shown);
}

/**
 * sluice_report_to_json:
 * @self: a finished #SluiceReport that kept its details
 *
 * Builds the report object with every key of the spec, in the spec's order.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
sluice_report_to_json (SluiceReport *self)
{
  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  g_return_val_if_fail (self->finished, NULL);
  g_return_val_if_fail (self->keep_details, NULL);

  return build_report (self, TRUE);
}

/**
 * sluice_report_write_json:
 * @self: a finished #SluiceReport that kept its details
 * @pretty: whether to indent the output
 * @func: (scope call): called with each chunk of the text, in order
 * @user_data: data for @func
 * @error: return location for the error of @func
 *
 * Writes the report as JSON text, a chunk at a time, without building it
 * whole in memory: the same bytes as sluice_report_to_json_string().
 *
 * Returns: %TRUE if @func took every chunk; %FALSE with @error set as
 *   @func set it (no chunk follows a failed one)
 */
gboolean
sluice_report_write_json (SluiceReport         *self,
                          gboolean              pretty,
                          SluiceReportWriteFunc func,
                          gpointer              user_data,
                          GError              **error)
{
  SluiceJsonWriter w;

  g_return_val_if_fail (SLUICE_IS_REPORT (self), FALSE);
  g_return_val_if_fail (self->finished, FALSE);
  g_return_val_if_fail (self->keep_details, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  _sluice_json_writer_init_text (&w, pretty, func, user_data);
  write_report (self, &w, TRUE);

  return _sluice_json_writer_finish (&w, error);
}

/**
 * sluice_report_to_json_string:
 * @self: a finished #SluiceReport that kept its details
 * @pretty: whether to indent the output
 *
 * Returns: (transfer full): the report as JSON text
 */
char *
sluice_report_to_json_string (SluiceReport *self,
                              gboolean      pretty)
{
  SluiceJsonWriter w;

  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  g_return_val_if_fail (self->finished, NULL);
  g_return_val_if_fail (self->keep_details, NULL);

  _sluice_json_writer_init_text (&w, pretty, NULL, NULL);
  write_report (self, &w, TRUE);
  _sluice_json_writer_finish (&w, NULL);

  return g_string_free (w.buffer, FALSE);
}
