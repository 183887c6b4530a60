/* sluice-run-compare.c: `sluice-run --compare B.pool A.pool`: two
 * configurations on one workload, and their difference (docs/teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What runs and how the difference is computed is SluiceComparison's
 * (src/scenario, shared with the app's compare window); this file keeps
 * the command line: the arguments, the signals and the printing.
 */

#include "sluice-run-compare.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdio.h>

#include "sluice-comparison.h"
#include "sluice-run-exit.h"

/* Column width of the table, in characters. */
#define COLUMN 16

/**
 * sluice_run_compare_describe:
 *
 * Returns: the text `sluice-run --help` ends with: what --compare runs and
 *   prints
 */
const char *
sluice_run_compare_describe (void)
{
  return _("--compare B.pool A.pool runs two scenarios on one workload: A.pool as it is, then "
           "B.pool with A's [source] and [handler] groups in place of its own (the same items, "
           "per-item behaviours, mix and mix seed), so that only B's [pool], [retry] (its seed "
           "too), [run] and [submit] options differ. Each runs on its own clock; --set and "
           "--clock apply to both. It prints a table of elapsed time, throughput (items "
           "succeeded per second), succeeded, failed, retries, timeouts, max lead, lints (how "
           "many each raised; B − A names the kinds only one raised) and outcome in columns A, B "
           "and B − A (B / A for throughput); with --json, one object "
           "{\"a\": …, \"b\": …, \"difference\": …}. Exit status 0 when both ran, whatever "
           "their outcomes; 2 for bad files or arguments.");
}

/**
 * sluice_run_compare_check_arguments:
 * @files: the file arguments
 * @events_path: (nullable): --events
 * @record_path: (nullable): --record
 * @error: return location for a %G_OPTION_ERROR
 *
 * Returns: whether the arguments are those of a comparison
 */
gboolean
sluice_run_compare_check_arguments (const char * const  *files,
                                    const char          *events_path,
                                    const char          *record_path,
                                    GError             **error)
{
  if (files == NULL || g_strv_length ((char **) files) != 2)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep “--compare B.pool A.pool”: it is command syntax. */
                   _("--compare: expected two scenario files, --compare B.pool A.pool"));
      return FALSE;
    }
  if (events_path != NULL || record_path != NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep the options: they are command syntax. */
                   _("--compare runs two scenarios, and --events and --record write one run; "
                     "expected --compare without them"));
      return FALSE;
    }
  return TRUE;
}

/* ---- running ------------------------------------------------------------ */

typedef struct {
  SluiceComparison *comparison;
  GAsyncResult     *result;
  guint             n_signals;
} Compare;

/* A signal stops the run going on as it would stop one run (a second one
 * cancels it), and the comparison then ends without its table. */
static gboolean
on_signal (gpointer user_data)
{
  Compare *compare = user_data;
  SluiceScenarioRunner *runner = sluice_comparison_get_runner (compare->comparison);

  compare->n_signals++;
  sluice_comparison_stop (compare->comparison);
  if (runner == NULL || compare->result != NULL)
    return G_SOURCE_CONTINUE;

  if (compare->n_signals > 1)
    sluice_scenario_runner_cancel (runner);
  else if (sluice_scenario_get_mode (sluice_scenario_runner_get_scenario (runner)) == SLUICE_SCENARIO_MODE_SUBMIT)
    sluice_scenario_runner_close (runner);
  else
    sluice_scenario_runner_request_stop (runner);
  return G_SOURCE_CONTINUE;
}

static void
on_run_started (SluiceComparison *comparison,
                guint             side,
                gpointer          user_data)
{
  fprintf (stderr,
           /* Translators: the first %s is A or B, the second the scenario's title or file. */
           _("sluice-run: running %s: %s\n"), side == SLUICE_COMPARISON_A ? "A" : "B",
           sluice_comparison_get_title (comparison, side));
  fflush (stderr);
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Compare *compare = user_data;

  compare->result = g_object_ref (result);
}

static int
run_both (Compare  *compare,
          gboolean  keep_details)
{
  g_autoptr(GError) error = NULL;

  sluice_comparison_set_keep_details (compare->comparison, keep_details);
  g_signal_connect (compare->comparison, "run-started", G_CALLBACK (on_run_started), NULL);
  sluice_comparison_run_async (compare->comparison, NULL, on_run_done, compare);
  while (compare->result == NULL)
    g_main_context_iteration (NULL, TRUE);

  if (!sluice_comparison_run_finish (compare->comparison, compare->result, &error))
    {
      g_printerr ("sluice-run: %s\n", error->message);
      return sluice_run_exit_status_for (error);
    }
  return SLUICE_RUN_EXIT_OK;
}

/* ---- printing ----------------------------------------------------------- */

/* Right-aligned in COLUMN characters (not bytes: “−” and “×” are two);
 * a longer text (the lints' difference) after one space. */
static void
append_cell (GString    *row,
             const char *text)
{
  glong n = g_utf8_strlen (text, -1);

  for (glong i = n; i < MAX (COLUMN, n + 1); i++)
    g_string_append_c (row, ' ');
  g_string_append (row, text);
}

static void
append_row (GString    *table,
            const char *label,
            const char *a,
            const char *b,
            const char *difference)
{
  g_string_append_printf (table, "%-12s", label);
  append_cell (table, a);
  append_cell (table, b);
  append_cell (table, difference);
  g_string_append_c (table, '\n');
}

/* The table's words are sluice-run's fixed ones, for scripts. */
static char *
format_table (SluiceComparison *comparison)
{
  g_autoptr(GPtrArray) rows = sluice_comparison_dup_rows (comparison, FALSE);
  GString *table = g_string_new (NULL);

  g_string_append_printf (table, "A  %s: %s\n", sluice_comparison_get_file (comparison, SLUICE_COMPARISON_A),
                          sluice_comparison_get_title (comparison, SLUICE_COMPARISON_A));
  g_string_append_printf (table, "B  %s, on the workload of A: %s\n\n",
                          sluice_comparison_get_file (comparison, SLUICE_COMPARISON_B),
                          sluice_comparison_get_title (comparison, SLUICE_COMPARISON_B));
  append_row (table, "", "A", "B", "B − A");
  for (guint i = 0; i < rows->len; i++)
    {
      const SluiceComparisonRow *row = g_ptr_array_index (rows, i);

      append_row (table, row->name, row->a, row->b, row->difference);
    }
  return g_string_free (table, FALSE);
}

static char *
format_json (SluiceComparison *comparison)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = sluice_comparison_to_json (comparison);

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static int
print_difference (SluiceComparison *comparison,
                  gboolean          json)
{
  g_autofree char *text = json ? format_json (comparison) : format_table (comparison);

  if (fputs (text, stdout) == EOF || (json && fputs ("\n", stdout) == EOF) ||
      fflush (stdout) == EOF || ferror (stdout))
    {
      g_printerr (_("sluice-run: cannot write the comparison to standard output\n"));
      return SLUICE_RUN_EXIT_INTERNAL;
    }
  return SLUICE_RUN_EXIT_OK;
}

/**
 * sluice_run_compare:
 * @b_path: the variant, B
 * @a_path: the scenario whose workload both run, A
 * @overrides: (array zero-terminated=1): --set and --clock, for both
 * @json: print JSON instead of the table
 *
 * Runs A, then B on A's workload, and prints their difference.
 *
 * Returns: the exit status: 0 when both ran, 2 for a bad file, 1 for an
 *   internal error (a deadlock, output that cannot be written) or a signal
 */
int
sluice_run_compare (const char         *b_path,
                    const char         *a_path,
                    const char * const *overrides,
                    gboolean            json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceComparison) comparison = sluice_comparison_new_from_files (a_path, b_path, overrides, &error);
  Compare compare = { comparison, NULL, 0 };
  guint sigint_id, sigterm_id;
  int status;

  if (comparison == NULL)
    {
      g_printerr ("sluice-run: %s\n", error->message);
      return SLUICE_RUN_EXIT_USAGE;
    }

  sigint_id = g_unix_signal_add (SIGINT, on_signal, &compare);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &compare);

  status = run_both (&compare, json);
  if (status == SLUICE_RUN_EXIT_OK && compare.n_signals > 0)
    {
      g_printerr (_("sluice-run: the comparison was interrupted by a signal\n"));
      status = SLUICE_RUN_EXIT_INTERNAL;
    }
  if (status == SLUICE_RUN_EXIT_OK)
    status = print_difference (comparison, json);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  g_clear_object (&compare.result);
  return status;
}
