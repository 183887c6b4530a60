/* sluice-run-compare.c: `sluice-run --compare B.pool A.pool`: two
 * configurations on one workload, and their difference (teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The workload is A's: its [source] and [handler] groups (the items, each
 * item's behaviour, the mix and the mix's seed, whose draws are one per
 * item index and so do not depend on the order the pool calls the
 * handler). B runs with those groups in place of its own; everything else
 * of B stays B's: [pool], [retry] (its seed too: the backoff draws belong
 * to the retry policy being compared), [run] (its clock too) and [submit].
 * A runs first, then B, one after the other, each on its own clock.
 */

#include "sluice-run-compare.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdio.h>

#include "sluice-report.h"
#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

enum {
  EXIT_RAN = 0,
  EXIT_INTERNAL = 1,
  EXIT_USAGE = 2,
};

/* The groups that make the workload. */
static const char * const workload_groups[] = { "source", "handler" };

/* Column width of the table, in characters. */
#define COLUMN 16

typedef struct {
  const char     *label;     /* "A" or "B" */
  const char     *path;
  SluiceScenario *scenario;
  SluiceReport   *report;
} Side;

typedef struct {
  SluiceScenarioRunner *runner;   /* the run in progress, or NULL */
  GAsyncResult         *result;
  guint                 n_signals;
} Compare;

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
           "succeeded per second), succeeded, failed, retries, timeouts, max lead and outcome "
           "in columns A, B and B − A (B / A for throughput); with --json, one object "
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

/* ---- the workload ------------------------------------------------------- */

/* B with A's [source] and [handler], checked as a scenario of its own (a
 * behaviour that needs the real clock meets B's clock here). */
static SluiceScenario *
with_workload (SluiceScenario  *b,
               SluiceScenario  *a,
               const char      *name,
               GError         **error)
{
  g_autoptr(GKeyFile) keyfile = sluice_scenario_to_keyfile (b);
  g_autoptr(GKeyFile) workload = sluice_scenario_to_keyfile (a);

  for (guint i = 0; i < G_N_ELEMENTS (workload_groups); i++)
    {
      const char *group = workload_groups[i];
      g_auto(GStrv) keys = g_key_file_get_keys (workload, group, NULL, NULL);

      g_key_file_remove_group (keyfile, group, NULL);
      for (guint k = 0; keys != NULL && keys[k] != NULL; k++)
        {
          g_autofree char *value = g_key_file_get_value (workload, group, keys[k], NULL);
          g_key_file_set_value (keyfile, group, keys[k], value);
        }
    }

  return sluice_scenario_new_from_keyfile (keyfile, name, NULL, error);
}

static gboolean
load_sides (Side                *a,
            Side                *b,
            const char * const  *overrides,
            GError             **error)
{
  g_autoptr(SluiceScenario) b_own = NULL;
  g_autofree char *name = NULL;

  a->scenario = sluice_scenario_new_from_file (a->path, overrides, error);
  if (a->scenario == NULL)
    return FALSE;
  b_own = sluice_scenario_new_from_file (b->path, overrides, error);
  if (b_own == NULL)
    return FALSE;

  /* Translators: how messages name B run on A's workload; the %s are the files. */
  name = g_strdup_printf (_("%s (on the workload of %s)"), b->path, a->path);
  b->scenario = with_workload (b_own, a->scenario, name, error);
  return b->scenario != NULL;
}

/* ---- running ------------------------------------------------------------ */

static const char *title_of (Side *side);

static gboolean
on_signal (gpointer user_data)
{
  Compare *compare = user_data;

  compare->n_signals++;
  if (compare->runner == NULL || compare->result != NULL)
    return G_SOURCE_CONTINUE;

  if (compare->n_signals > 1)
    sluice_scenario_runner_cancel (compare->runner);
  else if (sluice_scenario_get_mode (sluice_scenario_runner_get_scenario (compare->runner)) ==
           SLUICE_SCENARIO_MODE_SUBMIT)
    sluice_scenario_runner_close (compare->runner);
  else
    sluice_scenario_runner_request_stop (compare->runner);
  return G_SOURCE_CONTINUE;
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
exit_status_for (const GError *error)
{
  if (error->domain == SLUICE_SCENARIO_ERROR ||
      g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG))
    return EXIT_USAGE;
  return EXIT_INTERNAL;
}

static int
run_side (Compare  *compare,
          Side     *side,
          gboolean  keep_details)
{
  g_autoptr(GError) error = NULL;

  fprintf (stderr,
           /* Translators: the first %s is A or B, the second the scenario's title or file. */
           _("sluice-run: running %s: %s\n"), side->label, title_of (side));
  fflush (stderr);

  compare->runner = sluice_scenario_runner_new (side->scenario);
  sluice_scenario_runner_set_keep_details (compare->runner, keep_details);
  sluice_scenario_runner_run_async (compare->runner, NULL, on_run_done, compare);
  while (compare->result == NULL)
    g_main_context_iteration (NULL, TRUE);

  side->report = sluice_scenario_runner_run_finish (compare->runner, compare->result, &error);
  g_clear_object (&compare->result);
  g_clear_object (&compare->runner);
  if (side->report == NULL)
    {
      g_printerr ("sluice-run: %s: %s\n", side->path, error->message);
      return exit_status_for (error);
    }
  return EXIT_RAN;
}

/* ---- the difference ----------------------------------------------------- */

static const char *
title_of (Side *side)
{
  const char *title = sluice_scenario_get_title (side->scenario);

  return title != NULL ? title : sluice_scenario_get_name (side->scenario);
}

/* Items succeeded per second of the run's clock; negative when the run
 * took no time (a virtual run whose handler never waits). */
static double
throughput (SluiceReport *report)
{
  gint64 elapsed = sluice_report_get_elapsed (report);

  if (elapsed <= 0)
    return -1;
  return sluice_report_get_stats (report)->succeeded / ((double) elapsed / G_USEC_PER_SEC);
}

/* Right-aligned in COLUMN characters (not bytes: “−” and “×” are two). */
static void
append_cell (GString    *row,
             const char *text)
{
  glong n = g_utf8_strlen (text, -1);

  for (glong i = n; i < COLUMN; i++)
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

static void
append_count_row (GString    *table,
                  const char *label,
                  guint       a,
                  guint       b)
{
  g_autofree char *a_text = g_strdup_printf ("%u", a);
  g_autofree char *b_text = g_strdup_printf ("%u", b);
  g_autofree char *difference = g_strdup_printf ("%+" G_GINT64_FORMAT, (gint64) b - (gint64) a);

  append_row (table, label, a_text, b_text, difference);
}

static char *
format_throughput (double value)
{
  return value < 0 ? g_strdup ("-") : g_strdup_printf ("%.3f/s", value);
}

static char *
format_table (Side *a,
              Side *b)
{
  const SluiceRunStats *sa = sluice_report_get_stats (a->report);
  const SluiceRunStats *sb = sluice_report_get_stats (b->report);
  gint64 ea = sluice_report_get_elapsed (a->report), eb = sluice_report_get_elapsed (b->report);
  double ta = throughput (a->report), tb = throughput (b->report);
  g_autofree char *ea_text = g_strdup_printf ("%.6f s", (double) ea / G_USEC_PER_SEC);
  g_autofree char *eb_text = g_strdup_printf ("%.6f s", (double) eb / G_USEC_PER_SEC);
  g_autofree char *ed_text = g_strdup_printf ("%+.6f s", (double) (eb - ea) / G_USEC_PER_SEC);
  g_autofree char *ta_text = format_throughput (ta);
  g_autofree char *tb_text = format_throughput (tb);
  g_autofree char *ratio = ta > 0 && tb >= 0 ? g_strdup_printf ("×%.3f", tb / ta) : g_strdup ("-");
  GString *table = g_string_new (NULL);

  g_string_append_printf (table, "A  %s: %s\n", a->path, title_of (a));
  g_string_append_printf (table, "B  %s, on the workload of A: %s\n\n", b->path, title_of (b));
  append_row (table, "", "A", "B", "B − A");
  append_row (table, "elapsed", ea_text, eb_text, ed_text);
  append_row (table, "throughput", ta_text, tb_text, ratio);
  append_count_row (table, "succeeded", sa->succeeded, sb->succeeded);
  append_count_row (table, "failed", sa->failed, sb->failed);
  append_count_row (table, "retries", sa->retries, sb->retries);
  append_count_row (table, "timeouts", sa->timeouts, sb->timeouts);
  append_count_row (table, "max lead", sa->max_lead, sb->max_lead);
  append_row (table, "outcome", sluice_report_get_outcome (a->report),
              sluice_report_get_outcome (b->report),
              g_strcmp0 (sluice_report_get_outcome (a->report),
                         sluice_report_get_outcome (b->report)) == 0 ? "same" : "differs");
  return g_string_free (table, FALSE);
}

static void
add_throughput (JsonBuilder *builder,
                double       value)
{
  if (value < 0)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, value);
}

static void
add_side (JsonBuilder *builder,
          Side        *side)
{
  const SluiceRunStats *stats = sluice_report_get_stats (side->report);
  const struct { const char *name; guint value; } counts[] = {
    { "succeeded", stats->succeeded }, { "failed", stats->failed }, { "retries", stats->retries },
    { "timeouts", stats->timeouts }, { "max_lead", stats->max_lead },
  };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, side->path);
  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, sluice_report_get_outcome (side->report));
  json_builder_set_member_name (builder, "elapsed");
  json_builder_add_double_value (builder, (double) sluice_report_get_elapsed (side->report) / G_USEC_PER_SEC);
  json_builder_set_member_name (builder, "throughput");
  add_throughput (builder, throughput (side->report));
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      json_builder_set_member_name (builder, counts[i].name);
      json_builder_add_int_value (builder, counts[i].value);
    }
  json_builder_set_member_name (builder, "report");
  json_builder_add_value (builder, sluice_report_to_json (side->report));
  json_builder_end_object (builder);
}

static void
add_difference (JsonBuilder *builder,
                Side        *a,
                Side        *b)
{
  const SluiceRunStats *sa = sluice_report_get_stats (a->report);
  const SluiceRunStats *sb = sluice_report_get_stats (b->report);
  double ta = throughput (a->report), tb = throughput (b->report);
  const struct { const char *name; guint a, b; } counts[] = {
    { "succeeded", sa->succeeded, sb->succeeded }, { "failed", sa->failed, sb->failed },
    { "retries", sa->retries, sb->retries }, { "timeouts", sa->timeouts, sb->timeouts },
    { "max_lead", sa->max_lead, sb->max_lead },
  };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "elapsed");
  json_builder_add_double_value (builder, (double) (sluice_report_get_elapsed (b->report) -
                                                    sluice_report_get_elapsed (a->report)) / G_USEC_PER_SEC);
  json_builder_set_member_name (builder, "throughput_ratio");
  add_throughput (builder, ta > 0 && tb >= 0 ? tb / ta : -1);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      json_builder_set_member_name (builder, counts[i].name);
      json_builder_add_int_value (builder, (gint64) counts[i].b - (gint64) counts[i].a);
    }
  json_builder_set_member_name (builder, "same_outcome");
  json_builder_add_boolean_value (builder, g_strcmp0 (sluice_report_get_outcome (a->report),
                                                      sluice_report_get_outcome (b->report)) == 0);
  json_builder_end_object (builder);
}

static char *
format_json (Side *a,
             Side *b)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  add_side (builder, a);
  json_builder_set_member_name (builder, "b");
  add_side (builder, b);
  json_builder_set_member_name (builder, "difference");
  add_difference (builder, a, b);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}

static int
print_difference (Side     *a,
                  Side     *b,
                  gboolean  json)
{
  g_autofree char *text = json ? format_json (a, b) : format_table (a, b);

  if (fputs (text, stdout) == EOF || (json && fputs ("\n", stdout) == EOF) ||
      fflush (stdout) == EOF || ferror (stdout))
    {
      g_printerr (_("sluice-run: cannot write the comparison to standard output\n"));
      return EXIT_INTERNAL;
    }
  return EXIT_RAN;
}

static void
side_clear (Side *side)
{
  g_clear_object (&side->scenario);
  g_clear_object (&side->report);
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
  Side a = { "A", a_path, NULL, NULL }, b = { "B", b_path, NULL, NULL };
  Compare compare = { NULL, NULL, 0 };
  guint sigint_id, sigterm_id;
  int status;

  if (!load_sides (&a, &b, overrides, &error))
    {
      g_printerr ("sluice-run: %s\n", error->message);
      side_clear (&a);
      side_clear (&b);
      return EXIT_USAGE;
    }

  /* A signal stops the run in progress as it would stop one run; the
   * comparison then ends without its table. */
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &compare);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &compare);

  status = run_side (&compare, &a, json);
  if (status == EXIT_RAN && compare.n_signals == 0)
    status = run_side (&compare, &b, json);
  if (status == EXIT_RAN && compare.n_signals > 0)
    {
      g_printerr (_("sluice-run: the comparison was interrupted by a signal\n"));
      status = EXIT_INTERNAL;
    }
  if (status == EXIT_RAN)
    status = print_difference (&a, &b, json);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  side_clear (&a);
  side_clear (&b);
  return status;
}
