/* test-comparison.c: SluiceComparison, A and B on A's workload and the
 * difference table sluice-run and the app print (docs/teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>
#include <string.h>

#include "sluice-comparison.h"
#include "run-fixture.h"

static char *
preset_path (const char *name)
{
  g_autofree char *file = g_strconcat (name, ".pool", NULL);

  return g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
}

static const char * const virtual_clock[] = { "run.clock=virtual", NULL };

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Runs @comparison to its end; whether every run had a report. */
static gboolean
run_comparison (SluiceComparison  *comparison,
                GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_comparison_run_async (comparison, NULL, on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return sluice_comparison_run_finish (comparison, result, error);
}

static void
assert_row (GPtrArray               *rows,
            SluiceComparisonRowKind  kind,
            const char              *name,
            const char              *a,
            const char              *b,
            const char              *difference)
{
  const SluiceComparisonRow *row = g_ptr_array_index (rows, kind);

  g_assert_cmpstr (row->name, ==, name);
  g_assert_cmpstr (row->a, ==, a);
  g_assert_cmpstr (row->b, ==, b);
  g_assert_cmpstr (row->difference, ==, difference);
}

static void
assert_count_row (GPtrArray               *rows,
                  SluiceComparisonRowKind  kind,
                  const char              *name,
                  guint                    a,
                  guint                    b)
{
  g_autofree char *a_text = g_strdup_printf ("%u", a);
  g_autofree char *b_text = g_strdup_printf ("%u", b);
  g_autofree char *d_text = g_strdup_printf ("%+d", (int) b - (int) a);

  assert_row (rows, kind, name, a_text, b_text, d_text);
}

/* retry-storm against retry-storm-jitter: the same workload, so B on A's
 * is B itself, and every row is that of each run's own report. */
static void
test_rows_are_each_runs_report (void)
{
  g_autofree char *a_path = preset_path ("retry-storm");
  g_autofree char *b_path = preset_path ("retry-storm-jitter");
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceComparison) comparison = sluice_comparison_new_from_files (a_path, b_path, virtual_clock, &error);
  g_autoptr(SluiceReport) a = run_fixture_run_file (a_path);
  g_autoptr(SluiceReport) b = run_fixture_run_file (b_path);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) labelled = NULL;
  const SluiceRunStats *sa = sluice_report_get_stats (a), *sb = sluice_report_get_stats (b);
  double ea = (double) sluice_report_get_elapsed (a) / G_USEC_PER_SEC;
  double eb = (double) sluice_report_get_elapsed (b) / G_USEC_PER_SEC;
  g_autofree char *ea_text = g_strdup_printf ("%.6f s", ea);
  g_autofree char *eb_text = g_strdup_printf ("%.6f s", eb);
  g_autofree char *ed_text = g_strdup_printf ("%+.6f s", eb - ea);
  g_autofree char *ta_text = g_strdup_printf ("%.3f/s", sa->succeeded / ea);
  g_autofree char *tb_text = g_strdup_printf ("%.3f/s", sb->succeeded / eb);
  g_autofree char *ratio = g_strdup_printf ("×%.3f", (sb->succeeded / eb) / (sa->succeeded / ea));

  g_assert_no_error (error);
  g_assert_false (sluice_comparison_get_complete (comparison));
  g_assert_true (run_comparison (comparison, &error));
  g_assert_no_error (error);
  g_assert_true (sluice_comparison_get_complete (comparison));
  g_assert_null (sluice_comparison_get_runner (comparison));

  rows = sluice_comparison_dup_rows (comparison, FALSE);
  g_assert_cmpuint (rows->len, ==, SLUICE_COMPARISON_N_ROWS);
  assert_row (rows, SLUICE_COMPARISON_ELAPSED, "elapsed", ea_text, eb_text, ed_text);
  assert_row (rows, SLUICE_COMPARISON_THROUGHPUT, "throughput", ta_text, tb_text, ratio);
  assert_count_row (rows, SLUICE_COMPARISON_SUCCEEDED, "succeeded", sa->succeeded, sb->succeeded);
  assert_count_row (rows, SLUICE_COMPARISON_FAILED, "failed", sa->failed, sb->failed);
  assert_count_row (rows, SLUICE_COMPARISON_RETRIES, "retries", sa->retries, sb->retries);
  assert_count_row (rows, SLUICE_COMPARISON_TIMEOUTS, "timeouts", sa->timeouts, sb->timeouts);
  assert_count_row (rows, SLUICE_COMPARISON_MAX_LEAD, "max lead", sa->max_lead, sb->max_lead);
  assert_row (rows, SLUICE_COMPARISON_OUTCOME, "outcome", sluice_report_get_outcome (a),
              sluice_report_get_outcome (b), "same");

  /* The known differences: jitter spreads the 30 retries out, and the
   * storm ends sooner (0.75 s rather than 0.9 s). */
  g_assert_cmpuint (sa->retries, ==, 30);
  g_assert_cmpuint (sb->retries, ==, 30);
  g_assert_cmpfloat (eb, <, ea);
  g_assert_cmpstr (ea_text, ==, "0.900000 s");

  /* For people, the same values under names for people, the figures with
   * units and a precision a room reads: no "0.900000 s". */
  labelled = sluice_comparison_dup_rows (comparison, TRUE);
  for (guint i = SLUICE_COMPARISON_SUCCEEDED; i < SLUICE_COMPARISON_N_ROWS; i++)
    {
      const SluiceComparisonRow *x = g_ptr_array_index (rows, i), *y = g_ptr_array_index (labelled, i);

      g_assert_cmpstr (x->a, ==, y->a);
      g_assert_cmpstr (x->b, ==, y->b);
      if (i != SLUICE_COMPARISON_OUTCOME)
        g_assert_cmpstr (x->difference, ==, y->difference);
    }
  {
    const SluiceComparisonRow *elapsed = g_ptr_array_index (labelled, SLUICE_COMPARISON_ELAPSED);
    const SluiceComparisonRow *throughput = g_ptr_array_index (labelled, SLUICE_COMPARISON_THROUGHPUT);
    g_autofree char *ta_people = g_strdup_printf ("%.1f items/s", sa->succeeded / ea);
    g_autofree char *people_ratio = g_strdup_printf ("×%.2f", (sb->succeeded / eb) / (sa->succeeded / ea));

    g_assert_cmpstr (elapsed->a, ==, "0.900 s");
    g_assert_cmpstr (throughput->a, ==, ta_people);
    g_assert_cmpstr (throughput->difference, ==, people_ratio);
  }
  g_assert_cmpstr (((SluiceComparisonRow *) g_ptr_array_index (labelled, SLUICE_COMPARISON_MAX_LEAD))->name, ==,
                   "Max lead");
  g_assert_cmpstr (sluice_comparison_get_title (comparison, SLUICE_COMPARISON_B), ==,
                   "Retry storm spread out (backoff, full jitter)");
  g_assert_cmpstr (sluice_comparison_get_file (comparison, SLUICE_COMPARISON_A), ==, a_path);
}

/* The items each run pulled, by index, as GVariant text. */
static GPtrArray *
pulled_values (SluiceRecorder *recorder)
{
  GPtrArray *values = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < sluice_recorder_get_n_events (recorder); i++)
    {
      const SluiceEvent *event = sluice_recorder_get_event (recorder, i);

      if (event->kind != SLUICE_EVENT_PULL)
        continue;
      g_assert_cmpint (event->item, ==, (gint64) values->len);
      g_ptr_array_add (values, g_variant_print (event->value, TRUE));
    }
  return values;
}

/* A: five items of its own values, a behaviour for one of them and a
 * seeded mix for the rest. B: its own pool (one worker) and its own
 * workload (seven items of another kind), which B does not run. */
#define WORKLOAD_A \
  "[pool]\nworkers=3\nqueue-size=2\nitem-timeout=1\nmax-retries=1\nretryable=ConnectionError\nkeep-going=true\n" \
  "[source]\nvalues=\"ant\";\"bee\";\"cat\";\"dog\";\"eel\"\n" \
  "[handler]\nmix=60% ok 0.05, 30% fail 1 ConnectionError 0.02, 10% fail-always ValueError 0.01\nseed=7\n" \
  "item.2=ok 0.3\n" \
  "[run]\nclock=virtual\n"
#define WORKLOAD_B \
  "[pool]\nworkers=1\nqueue-size=1\nitem-timeout=1\nmax-retries=2\nretryable=ConnectionError\nkeep-going=true\n" \
  "[source]\ncount=7\n" \
  "[handler]\ndefault=fail-always ValueError 0.5\n" \
  "[run]\nclock=virtual\n"

/* B handles A's items with A's behaviours and A's random draws, with B's
 * own pool: the pulls are the same values, and the handler gives every
 * item the same behaviour. */
static void
test_b_runs_a_workload (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) a = sluice_scenario_new_from_data (WORKLOAD_A, -1, "a.pool", NULL, &error);
  g_autoptr(SluiceScenario) b = sluice_scenario_new_from_data (WORKLOAD_B, -1, "b.pool", NULL, &error);
  g_autoptr(SluiceComparison) comparison = NULL;
  g_autoptr(GPtrArray) a_values = NULL;
  g_autoptr(GPtrArray) b_values = NULL;
  g_autoptr(GHashTable) behaviours = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  SluiceFaultHandler *a_handler, *b_handler;

  g_assert_no_error (error);
  comparison = sluice_comparison_new (a, NULL, b, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sluice_scenario_get_workers (sluice_comparison_get_scenario (comparison, SLUICE_COMPARISON_B)),
                   ==, 1);
  g_assert_true (run_comparison (comparison, &error));
  g_assert_no_error (error);

  a_values = pulled_values (sluice_comparison_get_recorder (comparison, SLUICE_COMPARISON_A));
  b_values = pulled_values (sluice_comparison_get_recorder (comparison, SLUICE_COMPARISON_B));
  g_assert_cmpuint (a_values->len, ==, 5);
  g_assert_cmpuint (b_values->len, ==, a_values->len);
  for (guint i = 0; i < a_values->len; i++)
    g_assert_cmpstr (g_ptr_array_index (b_values, i), ==, g_ptr_array_index (a_values, i));
  g_assert_cmpstr (g_ptr_array_index (a_values, 0), ==, "'ant'");

  a_handler = sluice_comparison_get_handler (comparison, SLUICE_COMPARISON_A);
  b_handler = sluice_comparison_get_handler (comparison, SLUICE_COMPARISON_B);
  g_assert_nonnull (a_handler);
  g_assert_true (a_handler != b_handler);
  for (gint64 i = 0; i < 5; i++)
    {
      g_autofree char *x = sluice_behaviour_to_string (sluice_fault_handler_get_behaviour (a_handler, i));
      g_autofree char *y = sluice_behaviour_to_string (sluice_fault_handler_get_behaviour (b_handler, i));

      g_assert_cmpstr (x, ==, y);
      g_hash_table_add (behaviours, g_steal_pointer (&x));
    }
  /* item.2 is A's own, and the mix drew more than one behaviour: the
   * check above compares draws, not one default. */
  {
    g_autofree char *item2 = sluice_behaviour_to_string (sluice_fault_handler_get_behaviour (b_handler, 2));

    g_assert_cmpstr (item2, ==, "ok 0.3");
  }
  g_assert_cmpuint (g_hash_table_size (behaviours), >=, 3);

  /* The same work, B one item at a time: B takes longer. */
  g_assert_cmpint (sluice_report_get_elapsed (sluice_comparison_get_report (comparison, SLUICE_COMPARISON_B)), >,
                   sluice_report_get_elapsed (sluice_comparison_get_report (comparison, SLUICE_COMPARISON_A)));
}

/* A run fails: the comparison says which file, in the error's own domain. */
#define MINIMAL_POOL "[pool]\nworkers=1\nqueue-size=1\nitem-timeout=1\n"

/* B cannot run A's workload: the error names B on A's workload, in the
 * scenario's own domain. */
static void
test_b_that_cannot_run_a_workload (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) a = NULL;
  g_autoptr(SluiceScenario) b = NULL;
  g_autoptr(SluiceComparison) comparison = NULL;

  a = sluice_scenario_new_from_data (MINIMAL_POOL "[source]\ncount=2\n[handler]\ndefault=block 0.1\n"
                                     "[run]\nclock=real\n", -1, "a.pool", NULL, &error);
  g_assert_no_error (error);
  b = sluice_scenario_new_from_data (MINIMAL_POOL "[source]\ncount=1\n[run]\nclock=virtual\n", -1, "b.pool",
                                     NULL, &error);
  g_assert_no_error (error);
  /* A's block needs the real clock, and B runs on the virtual one. */
  comparison = sluice_comparison_new (a, NULL, b, NULL, &error);
  g_assert_null (comparison);
  g_assert_true (error != NULL && error->domain == SLUICE_SCENARIO_ERROR);
  g_assert_nonnull (strstr (error->message, "b.pool (on the workload of a.pool)"));
}

static void
on_run_started (SluiceComparison *comparison,
                guint             side,
                gpointer          user_data)
{
  GArray *started = user_data;

  g_array_append_val (started, side);
  g_assert_nonnull (sluice_comparison_get_runner (comparison));
  g_assert_nonnull (sluice_comparison_get_recorder (comparison, side));
  /* A stop during A: it ends, and B does not start. */
  if (side == SLUICE_COMPARISON_A)
    {
      sluice_comparison_stop (comparison);
      sluice_scenario_runner_request_stop (sluice_comparison_get_runner (comparison));
    }
}

static void
test_stop_runs_no_further (void)
{
  g_autofree char *a_path = preset_path ("retries");
  g_autofree char *b_path = preset_path ("retry-storm");
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceComparison) comparison = sluice_comparison_new_from_files (a_path, b_path, NULL, &error);
  g_autoptr(GArray) started = g_array_new (FALSE, FALSE, sizeof (guint));

  g_assert_no_error (error);
  /* Instant: the presets' real clock becomes the virtual one. */
  sluice_comparison_set_instant (comparison, TRUE);
  g_signal_connect (comparison, "run-started", G_CALLBACK (on_run_started), started);
  g_assert_true (run_comparison (comparison, &error));
  g_assert_no_error (error);

  g_assert_cmpuint (started->len, ==, 1);
  g_assert_nonnull (sluice_comparison_get_report (comparison, SLUICE_COMPARISON_A));
  g_assert_null (sluice_comparison_get_report (comparison, SLUICE_COMPARISON_B));
  g_assert_null (sluice_comparison_get_recorder (comparison, SLUICE_COMPARISON_B));
  g_assert_false (sluice_comparison_get_complete (comparison));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/comparison/rows-are-each-runs-report", test_rows_are_each_runs_report);
  g_test_add_func ("/comparison/b-runs-a-workload", test_b_runs_a_workload);
  g_test_add_func ("/comparison/b-that-cannot-run-a-workload", test_b_that_cannot_run_a_workload);
  g_test_add_func ("/comparison/stop-runs-no-further", test_stop_runs_no_further);

  return g_test_run ();
}
