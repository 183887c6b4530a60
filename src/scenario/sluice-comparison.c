/* sluice-comparison.c: two configurations run on one workload, and their
 * difference (docs/teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-comparison.h"

#include <glib/gi18n-lib.h>

/**
 * SluiceComparison:
 *
 * A and B on A's workload: its [source] and [handler] groups (the items,
 * each item's behaviour, the mix and the mix's seed, whose draws are one
 * per item index and so do not depend on the order the pool calls the
 * handler). B runs with those groups in place of its own; everything else
 * of B stays B's: [pool], [retry] (its seed too: the backoff draws belong
 * to the retry policy being compared), [run] (its clock too) and [submit].
 *
 * sluice_comparison_run_async() runs A, then B, one after the other, each
 * on its own clock, each recorded into its own #SluiceRecorder; then
 * sluice_comparison_dup_rows() gives the difference table that
 * `sluice-run --compare` prints and the app's compare window shows.
 */

/* The groups that make the workload. */
static const char * const workload_groups[] = { "source", "handler" };

/* As many events as the app's recorder keeps of one run. */
#define RECORDER_CAPACITY 500000

typedef struct {
  SluiceScenario       *scenario;
  char                 *file;      /* the file it came from, or its name */
  SluiceScenarioRunner *runner;    /* once it started */
  SluiceRecorder       *recorder;
  SluiceReport         *report;    /* once it ended with one */
} Side;

struct _SluiceComparison
{
  GObject       parent_instance;

  Side          sides[2];
  gboolean      instant;
  gboolean      keep_details;
  gboolean      stopped;    /* sluice_comparison_stop(): start nothing more */
  gboolean      running;
  SluiceComparisonSide current;
};

G_DEFINE_FINAL_TYPE (SluiceComparison, sluice_comparison, G_TYPE_OBJECT)

enum {
  RUN_STARTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

/**
 * sluice_comparison_new:
 * @a: the scenario whose workload both run
 * @a_file: (nullable): @a's file, for the messages and the JSON; %NULL
 *   for its name
 * @b: the variant, whose [source] and [handler] are replaced by @a's
 * @b_file: (nullable): @b's file, or %NULL for its name
 * @error: return location for why B cannot run on A's workload, in the
 *   %SLUICE_SCENARIO_ERROR domain
 *
 * Returns: (transfer full) (nullable): a comparison that has not run, or
 *   %NULL with @error set
 */
SluiceComparison *
sluice_comparison_new (SluiceScenario  *a,
                       const char      *a_file,
                       SluiceScenario  *b,
                       const char      *b_file,
                       GError         **error)
{
  g_autoptr(SluiceComparison) self = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO (a), NULL);
  g_return_val_if_fail (SLUICE_IS_SCENARIO (b), NULL);

  self = g_object_new (SLUICE_TYPE_COMPARISON, NULL);
  self->sides[SLUICE_COMPARISON_A].scenario = g_object_ref (a);
  self->sides[SLUICE_COMPARISON_A].file = g_strdup (a_file != NULL ? a_file : sluice_scenario_get_name (a));
  self->sides[SLUICE_COMPARISON_B].file = g_strdup (b_file != NULL ? b_file : sluice_scenario_get_name (b));

  /* Translators: how messages name B run on A's workload; the %s are the files. */
  name = g_strdup_printf (_("%s (on the workload of %s)"), self->sides[SLUICE_COMPARISON_B].file,
                          self->sides[SLUICE_COMPARISON_A].file);
  self->sides[SLUICE_COMPARISON_B].scenario = with_workload (b, a, name, error);
  if (self->sides[SLUICE_COMPARISON_B].scenario == NULL)
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * sluice_comparison_new_from_files:
 * @a_path: the scenario whose workload both run, A
 * @b_path: the variant, B
 * @overrides: (nullable) (array zero-terminated=1): `group.key=value`
 *   settings (sluice-run's --set and --clock), for both
 * @error: return location for an error reading either file
 *
 * Returns: (transfer full) (nullable): a comparison that has not run, or
 *   %NULL with @error set
 */
SluiceComparison *
sluice_comparison_new_from_files (const char          *a_path,
                                  const char          *b_path,
                                  const char * const  *overrides,
                                  GError             **error)
{
  g_autoptr(SluiceScenario) a = NULL;
  g_autoptr(SluiceScenario) b = NULL;

  g_return_val_if_fail (a_path != NULL, NULL);
  g_return_val_if_fail (b_path != NULL, NULL);

  a = sluice_scenario_new_from_file (a_path, overrides, error);
  if (a == NULL)
    return NULL;
  b = sluice_scenario_new_from_file (b_path, overrides, error);
  if (b == NULL)
    return NULL;

  return sluice_comparison_new (a, a_path, b, b_path, error);
}

/**
 * sluice_comparison_set_instant:
 * @self: a #SluiceComparison that has not run
 * @instant: whether simulated runs jump through time
 *
 * By default each run has the clock its [run] group gives. An instant
 * comparison (the app's) runs a scenario that needs no real time on the
 * virtual clock, below the redraw priority, whatever its [run] clock: the
 * same outcome, at once.
 */
void
sluice_comparison_set_instant (SluiceComparison *self,
                               gboolean          instant)
{
  g_return_if_fail (SLUICE_IS_COMPARISON (self));
  self->instant = !!instant;
}

/**
 * sluice_comparison_set_keep_details:
 * @self: a #SluiceComparison that has not run
 * @keep: whether the reports keep every result and event count (for the
 *   JSON)
 *
 * Passed on to each run's sluice_scenario_runner_set_keep_details().
 */
void
sluice_comparison_set_keep_details (SluiceComparison *self,
                                    gboolean          keep)
{
  g_return_if_fail (SLUICE_IS_COMPARISON (self));
  self->keep_details = !!keep;
}

static Side *
get_side (SluiceComparison     *self,
          SluiceComparisonSide  side)
{
  g_return_val_if_fail (side == SLUICE_COMPARISON_A || side == SLUICE_COMPARISON_B, &self->sides[0]);
  return &self->sides[side];
}

/**
 * sluice_comparison_get_scenario:
 * @self: a #SluiceComparison
 * @side: which run
 *
 * Returns: (transfer none): A as given, or B with A's workload
 */
SluiceScenario *
sluice_comparison_get_scenario (SluiceComparison     *self,
                                SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  return get_side (self, side)->scenario;
}

/**
 * sluice_comparison_get_file:
 * @self: a #SluiceComparison
 * @side: which run
 *
 * Returns: the file the side's scenario came from, or its name
 */
const char *
sluice_comparison_get_file (SluiceComparison     *self,
                            SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  return get_side (self, side)->file;
}

/**
 * sluice_comparison_get_title:
 * @self: a #SluiceComparison
 * @side: which run
 *
 * Returns: the side's [scenario] title, or its name without one
 */
const char *
sluice_comparison_get_title (SluiceComparison     *self,
                             SluiceComparisonSide  side)
{
  SluiceScenario *scenario;
  const char *title;

  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);

  scenario = get_side (self, side)->scenario;
  title = sluice_scenario_get_title (scenario);
  return title != NULL ? title : sluice_scenario_get_name (scenario);
}

/**
 * sluice_comparison_get_recorder:
 * @self: a #SluiceComparison
 * @side: which run
 *
 * Returns: (transfer none) (nullable): the side's events, once its run
 *   started
 */
SluiceRecorder *
sluice_comparison_get_recorder (SluiceComparison     *self,
                                SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  return get_side (self, side)->recorder;
}

/**
 * sluice_comparison_get_report:
 * @self: a #SluiceComparison
 * @side: which run
 *
 * Returns: (transfer none) (nullable): the side's report, once its run
 *   ended with one
 */
SluiceReport *
sluice_comparison_get_report (SluiceComparison     *self,
                              SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  return get_side (self, side)->report;
}

/**
 * sluice_comparison_get_handler:
 * @self: a #SluiceComparison
 * @side: which run
 *
 * Returns: (transfer none) (nullable): the handler of the side's run (it
 *   tells each item's behaviour), once the run started
 */
SluiceFaultHandler *
sluice_comparison_get_handler (SluiceComparison     *self,
                               SluiceComparisonSide  side)
{
  Side *s;

  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);

  s = get_side (self, side);
  return s->runner != NULL ? sluice_scenario_runner_get_handler (s->runner) : NULL;
}

/**
 * sluice_comparison_get_runner:
 * @self: a #SluiceComparison
 *
 * Returns: (transfer none) (nullable): the run going on, for a caller
 *   that stops or cancels it as it would one run; %NULL between and after
 *   the runs
 */
SluiceScenarioRunner *
sluice_comparison_get_runner (SluiceComparison *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  return self->running ? self->sides[self->current].runner : NULL;
}

/**
 * sluice_comparison_get_complete:
 * @self: a #SluiceComparison
 *
 * Returns: whether both runs ended with a report, so that the difference
 *   table can be made
 */
gboolean
sluice_comparison_get_complete (SluiceComparison *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), FALSE);
  return self->sides[SLUICE_COMPARISON_A].report != NULL && self->sides[SLUICE_COMPARISON_B].report != NULL;
}

/* ---- running ------------------------------------------------------------ */

static void run_side (GTask *task);

/**
 * sluice_comparison_stop:
 * @self: a #SluiceComparison
 *
 * Lets the run going on end (it is not stopped here: the caller stops or
 * cancels sluice_comparison_get_runner()) and starts no further one; the
 * comparison then finishes without being complete.
 */
void
sluice_comparison_stop (SluiceComparison *self)
{
  g_return_if_fail (SLUICE_IS_COMPARISON (self));
  self->stopped = TRUE;
}

static void
on_side_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SluiceComparison *self = g_task_get_source_object (task);
  Side *side = &self->sides[self->current];
  GError *error = NULL;

  side->report = sluice_scenario_runner_run_finish (SLUICE_SCENARIO_RUNNER (object), result, &error);
  self->running = FALSE;
  if (side->report == NULL)
    {
      /* The messages name the file, as one run's messages do. */
      g_prefix_error (&error, "%s: ", side->file);
      g_task_return_error (task, error);
      return;
    }

  if (self->current == SLUICE_COMPARISON_B || self->stopped ||
      g_cancellable_is_cancelled (g_task_get_cancellable (task)))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  self->current = SLUICE_COMPARISON_B;
  run_side (g_steal_pointer (&task));
}

static SluiceClock *
create_clock (SluiceComparison *self,
              SluiceScenario   *scenario)
{
  if (!self->instant || sluice_scenario_needs_real_time (scenario))
    return NULL;
  /* The window that shows the comparison draws while the pool runs. */
  return sluice_clock_new_interactive (SLUICE_CLOCK_VIRTUAL);
}

/* Takes @task, and runs the current side. */
static void
run_side (GTask *task)
{
  SluiceComparison *self = g_task_get_source_object (task);
  Side *side = &self->sides[self->current];
  g_autoptr(SluiceClock) clock = create_clock (self, side->scenario);

  side->recorder = sluice_recorder_new (RECORDER_CAPACITY);
  side->runner = sluice_scenario_runner_new (side->scenario);
  sluice_scenario_runner_set_keep_details (side->runner, self->keep_details);
  sluice_scenario_runner_set_recorder (side->runner, side->recorder);
  if (clock != NULL)
    sluice_scenario_runner_set_clock (side->runner, clock);

  self->running = TRUE;
  sluice_scenario_runner_run_async (side->runner, g_task_get_cancellable (task), on_side_done, task);
  /* After: the handler exists once the run started. */
  g_signal_emit (self, signals[RUN_STARTED], 0, (guint) self->current);
}

/**
 * sluice_comparison_run_async:
 * @self: a #SluiceComparison that has not run
 * @cancellable: (nullable): cancels the run going on (it still ends with
 *   its report, its outcome `CancelledError`) and starts no further one
 * @callback: called when both runs ended, or one could not
 * @user_data: data for @callback
 *
 * Runs A, then B, on the thread-default main context;
 * #SluiceComparison::run-started tells when each starts.
 */
void
sluice_comparison_run_async (SluiceComparison    *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SLUICE_IS_COMPARISON (self));
  g_return_if_fail (self->sides[SLUICE_COMPARISON_A].runner == NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_comparison_run_async);
  /* A cancelled comparison still gives what it ran. */
  g_task_set_check_cancellable (task, FALSE);
  self->current = SLUICE_COMPARISON_A;
  run_side (task);
}

/**
 * sluice_comparison_run_finish:
 * @self: a #SluiceComparison
 * @result: the result given to the callback
 * @error: return location for why a run had no report (a deadlock, an
 *   invalid configuration), its message starting with the run's file
 *
 * Returns: whether every run that started ended with a report; see
 *   sluice_comparison_get_complete() for whether both ran
 */
gboolean
sluice_comparison_run_finish (SluiceComparison  *self,
                              GAsyncResult      *result,
                              GError           **error)
{
  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- the difference ----------------------------------------------------- */

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

static gboolean
same_outcome (SluiceReport *a,
              SluiceReport *b)
{
  return g_strcmp0 (sluice_report_get_outcome (a), sluice_report_get_outcome (b)) == 0;
}

/* The rows as sluice-run prints them: words a script can look for. */
static const char * const row_names[SLUICE_COMPARISON_N_ROWS] = {
  "elapsed", "throughput", "succeeded", "failed", "retries", "timeouts", "max lead", "lints", "outcome",
};

/* The same rows, for people. */
static const char * const row_labels[SLUICE_COMPARISON_N_ROWS] = {
  N_("Elapsed"), N_("Throughput"), N_("Succeeded"), N_("Failed"), N_("Retries"), N_("Timeouts"),
  N_("Max lead"),
  /* Translators: a row of the comparison: the warnings each run raised */
  N_("Lints"),
  N_("Outcome"),
};

/**
 * sluice_comparison_row_free:
 * @row: (nullable): a row of sluice_comparison_dup_rows()
 *
 * Frees @row.
 */
void
sluice_comparison_row_free (SluiceComparisonRow *row)
{
  if (row == NULL)
    return;
  g_free (row->a);
  g_free (row->b);
  g_free (row->difference);
  g_free (row);
}

static SluiceComparisonRow *
row_new (const char *name,
         char       *a,
         char       *b,
         char       *difference)
{
  SluiceComparisonRow *row = g_new0 (SluiceComparisonRow, 1);

  row->name = name;
  row->a = a;
  row->b = b;
  row->difference = difference;
  return row;
}

static SluiceComparisonRow *
count_row (const char *name,
           guint       a,
           guint       b)
{
  return row_new (name, g_strdup_printf ("%u", a), g_strdup_printf ("%u", b),
                  g_strdup_printf ("%+" G_GINT64_FORMAT, (gint64) b - (gint64) a));
}

static char *
format_throughput (double   value,
                   gboolean translated)
{
  if (value < 0)
    return g_strdup ("-");
  if (!translated)
    return g_strdup_printf ("%.3f/s", value);
  /* Translators: a throughput in the comparison table, such as “12.5 items/s”. */
  return g_strdup_printf (_("%.1f items/s"), value);
}

/* Elapsed time: to the µs for scripts, to the ms for people (a projector's
 * "0.850000 s" is noise), as the narration writes times. */
static char *
format_elapsed (double   value,
                gboolean sign,
                gboolean translated)
{
  if (!translated)
    return g_strdup_printf (sign ? "%+.6f s" : "%.6f s", value);
  /* Translators: a time in the comparison table, in seconds, such as “0.850 s”;
   * the second form is a difference, such as “+0.120 s”. */
  return g_strdup_printf (sign ? _("%+.3f s") : _("%.3f s"), value);
}

static char *
format_ratio (double   value,
              gboolean translated)
{
  return g_strdup_printf (translated ? "×%.2f" : "×%.3f", value);
}

static double
seconds (gint64 time)
{
  return (double) time / G_USEC_PER_SEC;
}

/* The kinds of lint @a raised that @b did not, each after @sign. */
static void
append_missing_kinds (GString      *text,
                      SluiceReport *a,
                      SluiceReport *b,
                      char          sign)
{
  g_autofree char *kinds_a = sluice_linter_dup_kinds (sluice_report_get_linter (a));
  g_autofree char *kinds_b = sluice_linter_dup_kinds (sluice_report_get_linter (b));
  g_auto(GStrv) names = g_strsplit (kinds_a, ", ", -1);
  g_auto(GStrv) others = g_strsplit (kinds_b, ", ", -1);

  for (guint i = 0; names[i] != NULL; i++)
    if (names[i][0] != '\0' && !g_strv_contains ((const char * const *) others, names[i]))
      g_string_append_printf (text, "%s%c%s", text->len > 0 ? " " : "", sign, names[i]);
}

/* How many lints B raised beside A's, and the kinds only one of them
 * raised: "+1 (+retry-storm)". The words are the kinds' machine names,
 * for people too. */
static SluiceComparisonRow *
lints_row (const char   *name,
           SluiceReport *a,
           SluiceReport *b)
{
  guint na = sluice_linter_get_lints (sluice_report_get_linter (a))->len;
  guint nb = sluice_linter_get_lints (sluice_report_get_linter (b))->len;
  g_autoptr(GString) kinds = g_string_new (NULL);
  char *difference;

  append_missing_kinds (kinds, b, a, '+');
  append_missing_kinds (kinds, a, b, '-');
  if (kinds->len > 0)
    difference = g_strdup_printf ("%+" G_GINT64_FORMAT " (%s)", (gint64) nb - (gint64) na, kinds->str);
  else
    difference = g_strdup_printf ("%+" G_GINT64_FORMAT, (gint64) nb - (gint64) na);
  return row_new (name, g_strdup_printf ("%u", na), g_strdup_printf ("%u", nb), difference);
}

static const char *
outcome_difference (gboolean same,
                    gboolean translated)
{
  if (!translated)
    return same ? "same" : "differs";
  /* Translators: the outcome row of the comparison: A and B ended alike */
  return same ? C_("comparison", "same")
  /* Translators: the outcome row of the comparison: A and B ended differently */
              : C_("comparison", "differs");
}

/**
 * sluice_comparison_dup_rows:
 * @self: a complete #SluiceComparison
 * @translated: whether the names (and the outcome's `same` or `differs`)
 *   are for people, in their language, and the figures rounded for them
 *   (elapsed to the ms, throughput in items/s to a tenth), rather than
 *   the fixed words and full precision sluice-run prints for scripts
 *
 * The difference table, one row per #SluiceComparisonRowKind in its
 * order: elapsed, throughput, succeeded, failed, retries, timeouts, max
 * lead, lints, outcome; columns A, B and B − A (B / A for throughput).
 *
 * Returns: (transfer full) (element-type SluiceComparisonRow): the rows
 */
GPtrArray *
sluice_comparison_dup_rows (SluiceComparison *self,
                            gboolean          translated)
{
  SluiceReport *a, *b;
  const SluiceRunStats *sa, *sb;
  double ta, tb;
  gint64 ea, eb;
  const char *names[SLUICE_COMPARISON_N_ROWS];
  GPtrArray *rows;

  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (sluice_comparison_get_complete (self), NULL);

  a = self->sides[SLUICE_COMPARISON_A].report;
  b = self->sides[SLUICE_COMPARISON_B].report;
  sa = sluice_report_get_stats (a);
  sb = sluice_report_get_stats (b);
  ta = throughput (a);
  tb = throughput (b);
  ea = sluice_report_get_elapsed (a);
  eb = sluice_report_get_elapsed (b);
  for (guint i = 0; i < SLUICE_COMPARISON_N_ROWS; i++)
    names[i] = translated ? _(row_labels[i]) : row_names[i];

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_comparison_row_free);
  g_ptr_array_add (rows, row_new (names[SLUICE_COMPARISON_ELAPSED], format_elapsed (seconds (ea), FALSE, translated),
                                  format_elapsed (seconds (eb), FALSE, translated),
                                  format_elapsed (seconds (eb - ea), TRUE, translated)));
  g_ptr_array_add (rows, row_new (names[SLUICE_COMPARISON_THROUGHPUT], format_throughput (ta, translated),
                                  format_throughput (tb, translated),
                                  ta > 0 && tb >= 0 ? format_ratio (tb / ta, translated) : g_strdup ("-")));
  g_ptr_array_add (rows, count_row (names[SLUICE_COMPARISON_SUCCEEDED], sa->succeeded, sb->succeeded));
  g_ptr_array_add (rows, count_row (names[SLUICE_COMPARISON_FAILED], sa->failed, sb->failed));
  g_ptr_array_add (rows, count_row (names[SLUICE_COMPARISON_RETRIES], sa->retries, sb->retries));
  g_ptr_array_add (rows, count_row (names[SLUICE_COMPARISON_TIMEOUTS], sa->timeouts, sb->timeouts));
  g_ptr_array_add (rows, count_row (names[SLUICE_COMPARISON_MAX_LEAD], sa->max_lead, sb->max_lead));
  g_ptr_array_add (rows, lints_row (names[SLUICE_COMPARISON_LINTS], a, b));
  g_ptr_array_add (rows, row_new (names[SLUICE_COMPARISON_OUTCOME], g_strdup (sluice_report_get_outcome (a)),
                                  g_strdup (sluice_report_get_outcome (b)),
                                  g_strdup (outcome_difference (same_outcome (a, b), translated))));
  return rows;
}

/* ---- as JSON ------------------------------------------------------------ */

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
  json_builder_add_string_value (builder, side->file);
  json_builder_set_member_name (builder, "outcome");
  json_builder_add_string_value (builder, sluice_report_get_outcome (side->report));
  json_builder_set_member_name (builder, "elapsed");
  json_builder_add_double_value (builder, seconds (sluice_report_get_elapsed (side->report)));
  json_builder_set_member_name (builder, "throughput");
  add_throughput (builder, throughput (side->report));
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      json_builder_set_member_name (builder, counts[i].name);
      json_builder_add_int_value (builder, counts[i].value);
    }
  json_builder_set_member_name (builder, "lints");
  json_builder_add_int_value (builder, sluice_linter_get_lints (sluice_report_get_linter (side->report))->len);
  json_builder_set_member_name (builder, "report");
  json_builder_add_value (builder, sluice_report_to_json (side->report));
  json_builder_end_object (builder);
}

static void
add_difference (JsonBuilder  *builder,
                SluiceReport *a,
                SluiceReport *b)
{
  const SluiceRunStats *sa = sluice_report_get_stats (a);
  const SluiceRunStats *sb = sluice_report_get_stats (b);
  double ta = throughput (a), tb = throughput (b);
  const struct { const char *name; guint a, b; } counts[] = {
    { "succeeded", sa->succeeded, sb->succeeded }, { "failed", sa->failed, sb->failed },
    { "retries", sa->retries, sb->retries }, { "timeouts", sa->timeouts, sb->timeouts },
    { "max_lead", sa->max_lead, sb->max_lead },
  };

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "elapsed");
  json_builder_add_double_value (builder, seconds (sluice_report_get_elapsed (b) - sluice_report_get_elapsed (a)));
  json_builder_set_member_name (builder, "throughput_ratio");
  add_throughput (builder, ta > 0 && tb >= 0 ? tb / ta : -1);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      json_builder_set_member_name (builder, counts[i].name);
      json_builder_add_int_value (builder, (gint64) counts[i].b - (gint64) counts[i].a);
    }
  json_builder_set_member_name (builder, "lints");
  json_builder_add_int_value (builder, (gint64) sluice_linter_get_lints (sluice_report_get_linter (b))->len -
                                       (gint64) sluice_linter_get_lints (sluice_report_get_linter (a))->len);
  json_builder_set_member_name (builder, "same_outcome");
  json_builder_add_boolean_value (builder, same_outcome (a, b));
  json_builder_end_object (builder);
}

/**
 * sluice_comparison_to_json:
 * @self: a complete #SluiceComparison
 *
 * The comparison as `sluice-run --compare --json` prints it: one object
 * `{"a": …, "b": …, "difference": …}`, each side with its file, outcome,
 * elapsed seconds, throughput, counts (`lints` the lints it raised) and
 * whole report (its `lints` names them).
 *
 * Returns: (transfer full): the object
 */
JsonNode *
sluice_comparison_to_json (SluiceComparison *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (SLUICE_IS_COMPARISON (self), NULL);
  g_return_val_if_fail (sluice_comparison_get_complete (self), NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "a");
  add_side (builder, &self->sides[SLUICE_COMPARISON_A]);
  json_builder_set_member_name (builder, "b");
  add_side (builder, &self->sides[SLUICE_COMPARISON_B]);
  json_builder_set_member_name (builder, "difference");
  add_difference (builder, self->sides[SLUICE_COMPARISON_A].report, self->sides[SLUICE_COMPARISON_B].report);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* ---- GObject ------------------------------------------------------------ */

static void
side_clear (Side *side)
{
  g_clear_object (&side->scenario);
  g_clear_pointer (&side->file, g_free);
  g_clear_object (&side->runner);
  g_clear_object (&side->recorder);
  g_clear_object (&side->report);
}

static void
sluice_comparison_finalize (GObject *object)
{
  SluiceComparison *self = SLUICE_COMPARISON (object);

  side_clear (&self->sides[SLUICE_COMPARISON_A]);
  side_clear (&self->sides[SLUICE_COMPARISON_B]);

  G_OBJECT_CLASS (sluice_comparison_parent_class)->finalize (object);
}

static void
sluice_comparison_class_init (SluiceComparisonClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_comparison_finalize;

  /**
   * SluiceComparison::run-started:
   * @self: the comparison
   * @side: the #SluiceComparisonSide whose run started
   *
   * A run started: sluice_comparison_get_runner() and the side's recorder
   * and handler are set.
   */
  signals[RUN_STARTED] = g_signal_new ("run-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                       NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sluice_comparison_init (SluiceComparison *self)
{
}
