/* sluice-run-main.c: runs a scenario file and prints its report
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sluice-run FILE.pool [--json] [--events FILE.jsonl] [--record FILE.sluicerun]
 *            [--clock real|virtual] [--set group.key=value …]
 * sluice-run --compare B.pool A.pool [--json] [--clock …] [--set …]
 *   (sluice-run-compare.c)
 * sluice-run worker|enqueue|store-status --store URI …
 *   the job store's commands (sluice-run-store.c, sluice-run-store-worker.c)
 *
 * `--events -` writes the events to standard output; the summary then goes
 * to standard error, and --json (which needs standard output) is refused.
 *
 * Exit status: 0 when the run ended, whatever its outcome; 2 for a bad
 * scenario or bad arguments (an --events or --record file that cannot be
 * created is found before the run); 1 for an internal error (a deadlock on the virtual
 * clock, a report or events file that could not be written). The first
 * SIGINT or SIGTERM is the graceful shutdown, bounded by shutdown-timeout
 * (a stream requests a stop and drains; a service closes), the second
 * cancels the run; on a terminal the progress line says how much of the
 * shutdown deadline is left; the report is printed either way, and a signal that comes while
 * it is written changes nothing.
 */

#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>
#include <locale.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sluice-file-part-private.h"
#include "sluice-recorder.h"
#include "sluice-recording.h"
#include "sluice-report.h"
#include "sluice-run-compare.h"
#include "sluice-run-exit.h"
#include "sluice-run-store.h"
#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

typedef struct {
  /* options */
  gboolean              json;
  char                 *events_path;
  char                 *record_path;
  gboolean              compare;
  char                 *clock;
  GStrv                 sets;
  GStrv                 files;

  /* the run */
  SluiceScenarioRunner *runner;
  GAsyncResult         *result;
  GOutputStream        *events;
  gboolean              events_to_stdout; /* --events - */
  SluiceFilePart       *events_file;      /* the --events file, or NULL */
  SluiceFilePart       *record_file;      /* the --record file, or NULL */
  char                 *scenario_text;    /* the file's text, as read */
  gboolean              overridden;       /* --set or --clock changed it */
  guint                 n_signals;
  guint                 sigint_id;
  guint                 sigterm_id;

  /* the progress line */
  const char           *title;
  gboolean              announced;
  gboolean              progress;
  gboolean              progress_shown;
  gint64                last_draw;
  gint64                first_time;
  gboolean              have_first_time;
  SluiceEvent           last;
  gint64                deadline;       /* the shutdown deadline on the pool's clock, or -1 */
  gboolean              draining;       /* a stop was requested, or a service closes */
} App;

static void
app_clear (App *app)
{
  g_clear_pointer (&app->events_path, g_free);
  g_clear_pointer (&app->record_path, g_free);
  g_clear_pointer (&app->scenario_text, g_free);
  g_clear_pointer (&app->clock, g_free);
  g_clear_pointer (&app->sets, g_strfreev);
  g_clear_pointer (&app->files, g_strfreev);
  g_clear_object (&app->runner);
  g_clear_object (&app->result);
  g_clear_object (&app->events);
  /* A file not written whole leaves no FILE.part behind. */
  g_clear_pointer (&app->events_file, _sluice_file_part_free);
  g_clear_pointer (&app->record_file, _sluice_file_part_free);
  g_clear_handle_id (&app->sigint_id, g_source_remove);
  g_clear_handle_id (&app->sigterm_id, g_source_remove);
}

/* ---- progress ---------------------------------------------------------- */

static void
draw_progress (App *app)
{
  const SluiceEvent *e = &app->last;
  double elapsed = (double) (e->time - app->first_time) / G_USEC_PER_SEC;

  fprintf (stderr, "\r\033[K");
  fprintf (stderr, _("pulled %u · queued %u · in flight %u · ok %u · retries %u · failed %u · %.3f s"),
           e->pulled, e->queued, e->in_flight, e->succeeded, e->retries, e->failed, elapsed);
  if (app->draining && app->deadline >= 0)
    {
      SluiceClock *clock = sluice_scenario_runner_get_clock (app->runner);
      gint64 left = app->deadline - (clock != NULL ? sluice_clock_now (clock) : e->time);

      /* Translators: the progress line's end while the pool drains; %.1f is in seconds. */
      fprintf (stderr, _(" · draining, %.1f s left of the shutdown deadline"),
               (double) MAX (left, 0) / G_USEC_PER_SEC);
    }
  else if (app->draining)
    fprintf (stderr, _(" · draining, no shutdown deadline"));
  fflush (stderr);
  app->progress_shown = TRUE;
}

static void
clear_progress (App *app)
{
  if (!app->progress_shown)
    return;

  fprintf (stderr, "\r\033[K");
  fflush (stderr);
  app->progress_shown = FALSE;
}

static void announce_busy (App *app);

static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  App *app = user_data;
  gint64 now;

  if (event->kind == SLUICE_EVENT_ATTEMPT_START && !app->announced)
    announce_busy (app);

  /* The shutdown clock starts at the first stop request (a service's
   * close requests one too). */
  if ((event->kind == SLUICE_EVENT_STOP_REQUEST || event->kind == SLUICE_EVENT_DRAIN) && !app->draining)
    {
      double timeout = sluice_scenario_get_shutdown_timeout (sluice_scenario_runner_get_scenario (app->runner));

      app->draining = TRUE;
      app->deadline = timeout > 0 ? event->time + sluice_time_from_seconds (timeout) : -1;
    }

  if (!app->progress)
    return;

  now = g_get_monotonic_time ();

  if (!app->have_first_time)
    {
      app->first_time = event->time;
      app->have_first_time = TRUE;
    }

  /* Only the counts are kept: the strings of @event are borrowed. */
  app->last = *event;
  app->last.error_type = NULL;
  app->last.error_message = NULL;
  app->last.value = NULL;

  if (now - app->last_draw >= G_USEC_PER_SEC / 10 || event->kind == SLUICE_EVENT_RUN_END)
    {
      app->last_draw = now;
      draw_progress (app);
    }
}

/* ---- signals ----------------------------------------------------------- */

static gboolean
on_signal (gpointer user_data)
{
  App *app = user_data;

  app->n_signals++;
  /* After the run, a signal only finds the report being written: the
   * handler stays installed so that it cannot cut the output short. */
  if (app->runner == NULL || app->result != NULL)
    return G_SOURCE_CONTINUE;

  clear_progress (app);

  if (app->n_signals == 1 &&
      sluice_scenario_get_mode (sluice_scenario_runner_get_scenario (app->runner)) == SLUICE_SCENARIO_MODE_SUBMIT)
    {
      /* A service's graceful shutdown is its close: admission closes, the
       * queued and running jobs finish (within shutdown-timeout). */
      fprintf (stderr, _("sluice-run: stopping: closing the service, its jobs finish "
                         "(signal again to cancel)\n"));
      sluice_scenario_runner_close (app->runner);
    }
  else if (app->n_signals == 1)
    {
      fprintf (stderr, _("sluice-run: stopping: draining what the pool holds "
                         "(signal again to cancel)\n"));
      sluice_scenario_runner_request_stop (app->runner);
    }
  else
    {
      fprintf (stderr, _("sluice-run: cancelling: waiting for every operation to finish\n"));
      sluice_scenario_runner_cancel (app->runner);
    }

  return G_SOURCE_CONTINUE;
}

/* ---- arguments --------------------------------------------------------- */

static gboolean
parse_arguments (App    *app,
                 int    *argc,
                 char ***argv,
                 GError **error)
{
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &app->json,
      N_("Print the JSON report instead of a summary"), NULL },
    { "events", 0, 0, G_OPTION_ARG_FILENAME, &app->events_path,
      N_("Write every event of the run to FILE as JSON Lines (- for standard output: the summary "
         "then goes to standard error)"), N_("FILE.jsonl") },
    { "record", 0, 0, G_OPTION_ARG_FILENAME, &app->record_path,
      N_("Write a recording of the run to FILE: the scenario as it ran, every event and the report, "
         "to open in the playground"), N_("FILE.sluicerun") },
    { "compare", 0, 0, G_OPTION_ARG_NONE, &app->compare,
      N_("Run B.pool and A.pool on A's workload and print their difference (see below): "
         "sluice-run --compare B.pool A.pool"), NULL },
    { "clock", 0, 0, G_OPTION_ARG_STRING, &app->clock,
      N_("Run on real or virtual time (overrides [run] clock)"), N_("real|virtual") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &app->sets,
      N_("Override a key of the scenario (repeatable)"), N_("GROUP.KEY=VALUE") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &app->files, NULL, N_("FILE.pool") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;

  /* The usage line already names FILE.pool, from the G_OPTION_REMAINING entry. */
  context = g_option_context_new (_("— run a Sluice scenario"));
  g_option_context_set_summary (context,
                                _("Runs the scenario, shows its progress on standard error and "
                                  "prints a summary, or the JSON report with --json.\n"
                                  "Exit status: 0 when the run ended, 2 for a bad scenario or bad "
                                  "arguments, 1 for an internal error."));
  {
    g_autofree char *description = g_strdup_printf ("%s\n\n%s", sluice_run_compare_describe (),
                                                     sluice_run_store_describe ());

    g_option_context_set_description (context, description);
  }
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, error))
    return FALSE;

  if (app->clock != NULL && !g_str_equal (app->clock, "real") && !g_str_equal (app->clock, "virtual"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--clock “%s”: expected real or virtual"), app->clock);
      return FALSE;
    }

  if (app->compare)
    return sluice_run_compare_check_arguments ((const char * const *) app->files, app->events_path,
                                               app->record_path, error);

  if (app->files == NULL || g_strv_length (app->files) != 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("expected exactly one scenario file (FILE.pool)"));
      return FALSE;
    }

  /* `--events -`: the events take standard output, the summary moves to
   * standard error; a JSON report there would be mixed with the progress. */
  app->events_to_stdout = g_strcmp0 (app->events_path, "-") == 0;
  if (app->events_to_stdout && app->json)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep “--events -”, “--json” and “--events FILE.jsonl”: they are
                    * command syntax. */
                   _("--events - and --json both write to standard output; expected --events "
                     "FILE.jsonl with --json, or --events - without --json"));
      return FALSE;
    }

  if (g_strcmp0 (app->record_path, "-") == 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: keep “--record -” and “--record FILE.sluicerun”: they are
                    * command syntax. */
                   _("--record -: a recording is written to a file; expected --record "
                     "FILE.sluicerun (a file really named - is ./-)"));
      return FALSE;
    }

  return TRUE;
}

/* --set overrides, then --clock as one more. */
static GStrv
collect_overrides (App *app)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (app->sets != NULL)
    g_strv_builder_addv (builder, (const char **) app->sets);

  if (app->clock != NULL)
    {
      g_autofree char *clock = g_strdup_printf ("run.clock=%s", app->clock);
      g_strv_builder_add (builder, clock);
    }

  return g_strv_builder_end (builder);
}

/* ---- output ------------------------------------------------------------ */

/* Standard output must be open before the run: a report that has nowhere
 * to go would be lost, and a file opened later could take its descriptor. */
static gboolean
check_stdout (App     *app,
              GError **error)
{
  if (fcntl (STDOUT_FILENO, F_GETFL) == -1)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno), "%s",
                   app->events_to_stdout
                     ? _("standard output is closed: there is nowhere to write the events (--events -)")
                     : _("standard output is closed: there is nowhere to write the report"));
      return FALSE;
    }
  return TRUE;
}

/* --events is opened before the run, so that a path that cannot be written
 * is found before the run rather than after it. It is written as FILE.part
 * and renamed to FILE once whole: a run killed before that leaves FILE as
 * it was. */
static gboolean
open_events (App     *app,
             GError **error)
{
  g_autoptr(GError) local_error = NULL;

  if (app->events_path == NULL)
    return TRUE;

  if (app->events_to_stdout)
    {
      /* Closing the stream flushes it and leaves the descriptor open. */
      app->events = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
      return TRUE;
    }

  app->events_file = _sluice_file_part_new (app->events_path, &local_error);
  if (app->events_file == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   /* Translators: %s is the file given to --events, then the system's reason. */
                   _("--events %s: %s"), app->events_path, local_error->message);
      return FALSE;
    }
  app->events = g_object_ref (_sluice_file_part_get_stream (app->events_file));
  return TRUE;
}

/* --record, like --events: opened before the run, renamed when whole. */
static gboolean
open_record (App     *app,
             GError **error)
{
  g_autoptr(GError) local_error = NULL;

  if (app->record_path == NULL)
    return TRUE;

  app->record_file = _sluice_file_part_new (app->record_path, &local_error);
  if (app->record_file == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   /* Translators: %s is the file given to --record, then the system's reason. */
                   _("--record %s: %s"), app->record_path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Closes @stream: standard output's, or a file's, which it then renames
 * to its name. */
static gboolean
finish_output (GOutputStream   *stream,
               SluiceFilePart  *file,
               GError         **error)
{
  if (file != NULL)
    return _sluice_file_part_commit (file, error);
  return g_output_stream_close (stream, NULL, error);
}

/* The recording holds the scenario as it ran: the file's text itself, or
 * with --set or --clock that text edited to say what they changed
 * (comments and key order kept), so that it replays what ran; and the
 * run's report, which a real-clock run could not give again. */
static gboolean
write_record (App             *app,
              SluiceScenario  *scenario,
              SluiceReport    *report,
              SluiceRecorder  *recorder,
              GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *effective = NULL;
  g_autoptr(JsonNode) report_node = report != NULL ? sluice_report_to_json (report) : NULL;

  if (app->overridden)
    effective = sluice_scenario_update_data (scenario, app->scenario_text);

  if (!sluice_recording_write (effective != NULL ? effective : app->scenario_text, report_node, recorder,
                               _sluice_file_part_get_stream (app->record_file), NULL, &local_error) ||
      !finish_output (NULL, app->record_file, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("--record %s: %s"), app->record_path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
write_events (App             *app,
              SluiceRecorder  *recorder,
              GError         **error)
{
  g_autoptr(GError) local_error = NULL;
  GOutputStream *stream = app->events;

  if (!sluice_recorder_write_jsonl (recorder, stream, NULL, &local_error) ||
      !finish_output (stream, app->events_file, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("--events %s: %s"), app->events_path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* A chunk of the JSON report; the errno of a failed write stays for
 * print_report() to name. */
static gboolean
write_chunk (const char  *data,
             gsize        length,
             gpointer     user_data,
             GError     **error)
{
  if (fwrite (data, 1, length, stdout) == length)
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "short write");
  return FALSE;
}

static gboolean
print_report (App             *app,
              SluiceScenario  *scenario,
              SluiceReport    *report,
              GError         **error)
{
  /* With `--events -` the events take standard output (no --json then). */
  FILE *out = app->events_to_stdout ? stderr : stdout;
  gboolean written;

  /* A full disk or a closed pipe must not pass for a written report. */
  if (app->json)
    {
      /* Written as it is made: the report of a million items is tens of
       * megabytes of text. */
      errno = 0;
      written = sluice_report_write_json (report, TRUE, write_chunk, NULL, NULL) &&
                fputs ("\n", stdout) != EOF;
    }
  else
    {
      g_autofree char *summary = sluice_report_format_summary (report);
      const char *title = sluice_scenario_get_title (scenario);

      errno = 0;
      written = fprintf (out, "%s\n%s", title ? title : sluice_scenario_get_name (scenario), summary) >= 0;
    }

  if (!written || fflush (out) == EOF || ferror (out))
    {
      int saved = errno != 0 ? errno : EIO;

      if (out == stdout)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     _("cannot write the report to standard output: %s"), g_strerror (saved));
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                     _("cannot write the report to standard error: %s"), g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

/* Where a lesson's question and reveal go: beside the summary, or to
 * standard error when standard output carries JSON or events. */
static FILE *
lesson_stream (App *app)
{
  return app->json || app->events_to_stdout ? stderr : stdout;
}

/* A lesson asks before it runs (docs/teaching.md). */
static void
print_lesson_question (App          *app,
                       SluiceLesson *lesson)
{
  FILE *out = lesson_stream (app);
  const char * const *choices = sluice_lesson_get_choices (lesson);

  /* Translators: %u is the lesson's place in the gallery, %s its title. */
  fprintf (out, _("Lesson %u: %s\n"), sluice_lesson_get_order (lesson), app->title);
  fprintf (out, "%s\n", sluice_lesson_get_question (lesson));
  for (guint i = 0; choices[i] != NULL; i++)
    fprintf (out, "  %u. %s\n", i + 1, choices[i]);
  fputs ("\n", out);
  fflush (out);
}

/* The answer, whether this very run showed it, and why. */
static void
print_lesson_reveal (App            *app,
                     SluiceScenario *scenario,
                     SluiceReport   *report,
                     SluiceLesson   *lesson)
{
  FILE *out = lesson_stream (app);
  guint answer = sluice_lesson_get_answer (lesson);
  g_autofree char *shown = NULL;
  gboolean held = sluice_report_check_lesson (report, &shown);

  /* Translators: %u is the number of the right choice, %s its text. */
  fprintf (out, _("\nAnswer: %u. %s\n"), answer, sluice_lesson_get_choices (lesson)[answer - 1]);
  if (held)
    /* Translators: %s is what the report showed, such as “result_order=[4,1,0]”. */
    fprintf (out, _("This run showed it: %s\n"), shown);
  else if (sluice_scenario_get_clock_kind (scenario) == SLUICE_CLOCK_REAL)
    /* Translators: the first %s is what the report showed, the second what the lesson
     * expected, both such as “result_order=[4,1,0]”. Keep “--clock virtual”. */
    fprintf (out, _("This run did not show it: %s, where the lesson expects %s (a busy machine can "
                    "change a run on the real clock; try --clock virtual)\n"),
             shown, sluice_lesson_get_reveal (lesson));
  else
    /* Translators: the first %s is what the report showed, the second what the lesson
     * expected, both such as “result_order=[4,1,0]”. */
    fprintf (out, _("This run did not show it: %s, where the lesson expects %s\n"),
             shown, sluice_lesson_get_reveal (lesson));
  fprintf (out, "%s\n", sluice_lesson_get_explain (lesson));
  fflush (out);
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  App *app = user_data;

  app->result = g_object_ref (result);
}

/* One line on standard error once the handler is first called: a person
 * learns what a signal does, and a program that drives sluice-run knows
 * that the pool holds work and that a signal will be handled. */
static void
announce_busy (App *app)
{
  app->announced = TRUE;
  clear_progress (app);
  fprintf (stderr,
           /* Translators: %s is the scenario's title or file name. */
           _("sluice-run: running %s (a signal stops it, a second one cancels it)\n"),
           app->title);
  fflush (stderr);
}

static int
run_scenario (App            *app,
              SluiceScenario *scenario)
{
  g_autoptr(SluiceRecorder) recorder = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) output_error = NULL;
  int status;

  app->runner = sluice_scenario_runner_new (scenario);
  app->deadline = -1;
  app->progress = isatty (STDERR_FILENO);
  app->title = sluice_scenario_get_title (scenario);
  if (app->title == NULL)
    app->title = sluice_scenario_get_name (scenario);
  sluice_scenario_runner_set_event_func (app->runner, on_event, app, NULL);
  /* The summary shows counts and the first results: a run of a million
   * items need not keep the rest. The report of a recording is whole. */
  sluice_scenario_runner_set_keep_details (app->runner, app->json || app->record_file != NULL);

  if (app->events != NULL || app->record_file != NULL)
    {
      recorder = sluice_recorder_new (0);
      sluice_scenario_runner_set_recorder (app->runner, recorder);
    }

  if (sluice_scenario_get_lesson (scenario) != NULL)
    print_lesson_question (app, sluice_scenario_get_lesson (scenario));

  sluice_scenario_runner_run_async (app->runner, NULL, on_run_done, app);
  while (app->result == NULL)
    g_main_context_iteration (NULL, TRUE);

  clear_progress (app);

  /* The signal handlers stay installed until everything is written. */
  report = sluice_scenario_runner_run_finish (app->runner, app->result, &error);

  if (report != NULL)
    {
      status = print_report (app, scenario, report, &output_error) ? SLUICE_RUN_EXIT_OK : SLUICE_RUN_EXIT_INTERNAL;
      if (status == SLUICE_RUN_EXIT_OK && sluice_scenario_get_lesson (scenario) != NULL)
        print_lesson_reveal (app, scenario, report, sluice_scenario_get_lesson (scenario));
    }
  else
    {
      g_printerr ("sluice-run: %s\n", error->message);
      status = sluice_run_exit_status_for (error);
    }

  if (output_error != NULL)
    {
      g_printerr ("sluice-run: %s\n", output_error->message);
      g_clear_error (&output_error);
    }

  if (app->events != NULL && !write_events (app, recorder, &output_error))
    {
      g_printerr ("sluice-run: %s\n", output_error->message);
      g_clear_error (&output_error);
      if (status == SLUICE_RUN_EXIT_OK)
        status = SLUICE_RUN_EXIT_INTERNAL;
    }

  if (app->record_file != NULL && !write_record (app, scenario, report, recorder, &output_error))
    {
      g_printerr ("sluice-run: %s\n", output_error->message);
      if (status == SLUICE_RUN_EXIT_OK)
        status = SLUICE_RUN_EXIT_INTERNAL;
    }

  return status;
}

int
main (int   argc,
      char *argv[])
{
  g_auto(GStrv) overrides = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  App app = { 0 };
  const char *localedir;
  gsize length = 0;
  int status;

  setlocale (LC_ALL, "");
  /* SLUICE_LOCALEDIR: the build tree's catalogues, for an uninstalled run
   * (scripts/run and the tests set it to build/po). */
  localedir = g_getenv ("SLUICE_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  /* `sluice-run worker …`, `enqueue …`, `store-status …`: the job store's. */
  if (argc > 1 && sluice_run_store_is_command (argv[1]))
    return sluice_run_store_main (argc, argv);

  if (!parse_arguments (&app, &argc, &argv, &error))
    {
      g_printerr ("sluice-run: %s\n", error->message);
      g_printerr (_("Try “sluice-run --help” for more information.\n"));
      app_clear (&app);
      return SLUICE_RUN_EXIT_USAGE;
    }

  /* Two runs, with their own signal handling. */
  if (app.compare)
    {
      g_auto(GStrv) compare_overrides = collect_overrides (&app);

      status = sluice_run_compare (app.files[0], app.files[1], (const char * const *) compare_overrides,
                                   app.json);
      app_clear (&app);
      return status;
    }

  /* From here on a signal never kills sluice-run: it stops or cancels the
   * run, and once the run has ended it changes nothing. */
  app.sigint_id = g_unix_signal_add (SIGINT, on_signal, &app);
  app.sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &app);

  overrides = collect_overrides (&app);

  /* The text is kept for --record; the scenario loads from it as
   * sluice_scenario_new_from_file() would load it. */
  app.overridden = overrides[0] != NULL;
  app.scenario_text = sluice_scenario_read_text (app.files[0], &length, &error);
  if (app.scenario_text != NULL)
    scenario = sluice_scenario_new_from_data (app.scenario_text, (gssize) length, app.files[0],
                                              (const char * const *) overrides, &error);
  if (scenario == NULL)
    {
      g_printerr ("sluice-run: %s\n", error->message);
      app_clear (&app);
      return SLUICE_RUN_EXIT_USAGE;
    }

  if (!check_stdout (&app, &error))
    {
      g_printerr ("sluice-run: %s\n", error->message);
      app_clear (&app);
      return SLUICE_RUN_EXIT_INTERNAL;
    }

  if (!open_events (&app, &error) || !open_record (&app, &error))
    {
      g_printerr ("sluice-run: %s\n", error->message);
      app_clear (&app);
      return SLUICE_RUN_EXIT_USAGE;
    }

  status = run_scenario (&app, scenario);
  app_clear (&app);

  return status;
}
