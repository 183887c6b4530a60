/* sluice-run-status.c: what the banner says about a run: the countdown of
 * a bounded shutdown, and how the run ended
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-run-status.h"

/* The lines of #SluiceRunController::status, from the run's model, and
 * its runner and clock while it has them: functions of what they are
 * given, which call back into nothing. */

/* ---- the shutdown deadline --------------------------------------------- */

/**
 * sluice_run_status_describe_countdown:
 * @model: the model of a running run
 * @now: the run's clock now
 *
 * While a bounded shutdown runs, the banner counts its deadline down.
 *
 * Returns: (transfer full) (nullable): the countdown's line, or %NULL when
 *   no bounded shutdown runs
 */
char *
sluice_run_status_describe_countdown (SluiceRunModel *model,
                                      gint64          now)
{
  const SluiceRunEnd *end = sluice_run_model_get_end (model);
  gint64 deadline, left;

  if (end->shutdown_timeout <= 0 || end->shutdown_from < 0)
    return NULL;

  deadline = end->shutdown_from + end->shutdown_timeout;
  if (end->fatal_at >= 0)
    return NULL;
  if (end->deadline_fired_at >= 0)
    return g_strdup_printf (_("The shutdown deadline fired at %.2f s: what was queued is dropped, "
                              "what still runs was asked once to stop and is awaited…"),
                            (double) (end->deadline_fired_at - end->start_time) / G_USEC_PER_SEC);

  left = MAX (0, deadline - now);
  /* Translators: the banner while a stop or close drains under the
   * shutdown timeout; %.1f are seconds */
  return g_strdup_printf (_("Shutting down: %.1f s left of the %.1f s shutdown timeout; then what is "
                            "queued is dropped and what runs is cancelled."),
                          (double) left / G_USEC_PER_SEC, (double) end->shutdown_timeout / G_USEC_PER_SEC);
}

/* ---- the end of a run -------------------------------------------------- */

static char *
describe_jobs_end (SluiceRunModel       *model,
                   SluiceScenarioRunner *runner,
                   const char           *outcome,
                   double                seconds)
{
  guint n = 0, succeeded = 0, failed = 0, cancelled = 0;

  /* The engine's jobs, as it decided them: no more than were pulled. */
  guint pulled = sluice_run_model_get_last (model)->pulled;

  for (gint64 i = 0; runner != NULL && i < (gint64) pulled; i++)
    {
      SluiceJob *job = sluice_scenario_runner_get_job (runner, i);
      SluiceJobState state;

      if (job == NULL)
        continue;
      state = sluice_job_get_state (job);
      succeeded += state == SLUICE_JOB_SUCCEEDED;
      failed += state == SLUICE_JOB_FAILED;
      cancelled += state == SLUICE_JOB_CANCELLED;
      n++;
    }

  if (g_strcmp0 (outcome, "CancelledError") == 0)
    /* Translators: the banner after a submit-mode run the caller cancelled */
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                         "Cancelled at %.2f s: %u job, %u succeeded, %u failed, %u cancelled.",
                                         "Cancelled at %.2f s: %u jobs, %u succeeded, %u failed, %u cancelled.", n),
                            seconds, n, succeeded, failed, cancelled);
  /* Translators: the banner after a submit-mode (service) run */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "The service closed after %.2f s: %u job, %u succeeded, %u failed, %u cancelled (see Jobs).",
                                       "The service closed after %.2f s: %u jobs, %u succeeded, %u failed, %u cancelled (see Jobs).", n),
                          seconds, n, succeeded, failed, cancelled);
}

/* What stopped the pool early, before the rest of the banner. */
static char *
describe_stop (SluiceRunModel *model)
{
  const SluiceRunEnd *end = sluice_run_model_get_end (model);

  if (end->fatal_at >= 0)
    /* Translators: the start of the banner after a fatal error; %s is the
     * error's type name, such as DiskFullError */
    return g_strdup_printf (_("A fatal %s stopped the pool at once at %.2f s. "), end->fatal_type,
                            (double) (end->fatal_at - end->start_time) / G_USEC_PER_SEC);
  if (end->deadline_fired_at >= 0)
    /* Translators: the start of the banner after the shutdown deadline fired */
    return g_strdup_printf (_("The shutdown deadline fired at %.2f s: the queue was dropped and the rest cancelled. "),
                            (double) (end->deadline_fired_at - end->start_time) / G_USEC_PER_SEC);
  return g_strdup ("");
}

static char *
describe_end (SluiceRunModel       *model,
              SluiceScenarioRunner *runner,
              const char           *outcome)
{
  /* The run's end, as the report's elapsed: a slow caller may read its
   * results long after. */
  const SluiceRunEnd *run_end = sluice_run_model_get_end (model);
  const SluiceEvent *last = sluice_run_model_get_last (model);
  gint64 end = run_end->run_end_at >= 0 ? run_end->run_end_at : last->time;
  double seconds = (double) MAX (0, end - run_end->start_time) / G_USEC_PER_SEC;
  SluiceRun *run = runner ? sluice_scenario_runner_get_run (runner) : NULL;
  GPtrArray *errors = run ? sluice_run_get_errors (run) : NULL;
  /* The errors the run recorded: those of its final error group. */
  guint n_errors = errors ? errors->len : 0;
  guint succeeded = last->succeeded, pulled = last->pulled;

  if (sluice_run_model_get_submit_mode (model) && g_strcmp0 (outcome, "ExceptionGroup") != 0)
    return describe_jobs_end (model, runner, outcome, seconds);

  if (g_strcmp0 (outcome, "ok") == 0 && succeeded == pulled)
    return g_strdup_printf (_("Finished: all %u items succeeded in %.2f s."), succeeded, seconds);
  if (g_strcmp0 (outcome, "ok") == 0)
    return g_strdup_printf (_("Finished after a stop: %u of %u pulled items succeeded in %.2f s."),
                            succeeded, pulled, seconds);
  if (g_strcmp0 (outcome, "ExceptionGroup") == 0)
    return g_strdup_printf (ngettext ("Ended with an ExceptionGroup of %u error after %.2f s; %u of %u pulled items succeeded (see Errors).",
                                      "Ended with an ExceptionGroup of %u errors after %.2f s; %u of %u pulled items succeeded (see Errors).",
                                      n_errors),
                            n_errors, seconds, succeeded, pulled);
  if (g_strcmp0 (outcome, "closed") == 0)
    return g_strdup_printf (_("The caller closed the run after %u results, at %.2f s."),
                            sluice_run_model_get_n_results_shown (model), seconds);
  if (g_strcmp0 (outcome, "CancelledError") == 0)
    return g_strdup_printf (_("Cancelled at %.2f s; %u of %u pulled items had succeeded."),
                            seconds, succeeded, pulled);

  return g_strdup_printf (_("Ended with %s after %.2f s; %u of %u pulled items succeeded."),
                          outcome, seconds, succeeded, pulled);
}

/* Timers that fired late on real time changed the outcome: say so. A
 * simulated run plays on a paced clock, where none is ever late. */
#define LATENESS_WORTH_SAYING_US 5000

static char *
describe_lateness (SluiceClock *clock)
{
  gint64 late = clock != NULL ? sluice_clock_get_max_lateness (clock) : 0;
  char seconds[G_ASCII_DTOSTR_BUF_SIZE];

  if (late < LATENESS_WORTH_SAYING_US)
    return g_strdup ("");

  g_snprintf (seconds, sizeof seconds, "%.3f", (double) late / G_USEC_PER_SEC);
  /* Translators: appended to the end-of-run line; %s is seconds, like 0.031. */
  return g_strdup_printf (_(" Real-time timers ran up to %s s late (the machine was busy): block and thread "
                            "spend real time, so this run's timings may differ from run to run."), seconds);
}

/**
 * sluice_run_status_describe_end:
 * @model: the model of the run that ended
 * @runner: (nullable): its runner, for its jobs and its errors
 * @clock: (nullable): its clock, for how late its timers fired
 * @report: (nullable): the run's report, or %NULL if it failed
 * @error: (nullable): why it failed
 * @kind: (out): the kind of the line
 *
 * Says how the run ended.
 *
 * Returns: (transfer full): the line for the banner
 */
char *
sluice_run_status_describe_end (SluiceRunModel       *model,
                                SluiceScenarioRunner *runner,
                                SluiceClock          *clock,
                                SluiceReport         *report,
                                const GError         *error,
                                SluiceRunStatus      *kind)
{
  const char *outcome = report ? sluice_report_get_outcome (report) : NULL;
  g_autofree char *stop = NULL;
  g_autofree char *end = NULL;
  g_autofree char *late = NULL;

  if (report == NULL)
    {
      *kind = SLUICE_RUN_STATUS_ERROR;
      return g_strdup_printf (_("The run failed: %s"), error ? error->message : _("unknown error"));
    }

  stop = describe_stop (model);
  end = describe_end (model, runner, outcome);
  late = describe_lateness (clock);
  *kind = g_strcmp0 (outcome, "ok") == 0 ? SLUICE_RUN_STATUS_OK : SLUICE_RUN_STATUS_ERROR;
  return g_strconcat (stop, end, late, NULL);
}

/**
 * sluice_run_status_describe_recorded:
 * @model: the model of a recorded run
 *
 * Says what a recorded run shows (there is no report without the engine).
 *
 * Returns: (transfer full): the line for the banner
 */
char *
sluice_run_status_describe_recorded (SluiceRunModel *model)
{
  const SluiceEvent *last = sluice_run_model_get_last (model);
  double seconds = (double) MAX (0, last->time - sluice_run_model_get_end (model)->start_time) / G_USEC_PER_SEC;

  /* Translators: the banner of a recorded run opened from a .sluicerun file */
  return g_strdup_printf (_("A recorded run: it ends at %.2f s, %u of %u pulled items succeeded and %u failed. "
                            "Drag the slider under the chart, or press Home, then → event by event."),
                          seconds, last->succeeded, last->pulled, last->failed);
}
