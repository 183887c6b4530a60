/* sluice-report-summary.c: the report as a few lines for a person to read
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-report-private.h"

/* The first results in the order they arrived: the seed's lesson is that
 * this is finish order, not input order. */
static void
append_result_order (SluiceReport *self,
                     GString      *text)
{
  GPtrArray *first = self->first_results;
  guint i;

  if (first->len == 0)
    return;

  g_string_append (text, " in this order: ");
  for (i = 0; i < first->len; i++)
    {
      g_autofree char *repr = g_variant_print (g_ptr_array_index (first, i), FALSE);
      g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", repr);
    }
  if (first->len < self->n_results)
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

  g_ptr_array_sort (names, _sluice_report_compare_strings);
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
      const SluiceReportSnapshot *entry = g_ptr_array_index (self->snapshots, i);
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

  g_return_val_if_fail (SLUICE_IS_REPORT (self), NULL);
  g_return_val_if_fail (self->finished, NULL);

  text = g_string_new (NULL);
  g_string_append_printf (text, "outcome     %s\n", self->outcome);
  g_string_append_printf (text, "items       %u pulled, %u ok, %u failed, %" G_GINT64_FORMAT " unfinished\n",
                          self->stats.pulled, self->stats.succeeded, self->stats.failed,
                          _sluice_report_unfinished (self));
  g_string_append_printf (text, "results     %u yielded", self->n_results);
  append_result_order (self, text);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, "attempts    %u handler calls, %u retries, %u timeouts\n",
                          self->n_calls, self->stats.retries, self->stats.timeouts);
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
