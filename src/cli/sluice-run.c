/* sluice-run.c: runs a scenario file and prints its report
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sluice-run FILE.pool [--json] [--events FILE.jsonl] [--clock real|virtual]
 *            [--set group.key=value …]
 *
 * Exit status: 0 when the run ended, whatever its outcome; 2 for a bad
 * scenario or bad arguments; 1 for an internal error (including a deadlock
 * on the virtual clock). The first SIGINT or SIGTERM requests a stop (the
 * pool drains), the second cancels the run; the report is printed either way.
 */

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sluice-recorder.h"
#include "sluice-report.h"
#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

enum {
  EXIT_RAN = 0,
  EXIT_INTERNAL = 1,
  EXIT_USAGE = 2,
};

typedef struct {
  /* options */
  gboolean              json;
  char                 *events_path;
  char                 *clock;
  GStrv                 sets;
  GStrv                 files;

  /* the run */
  SluiceScenarioRunner *runner;
  GAsyncResult         *result;
  guint                 n_signals;

  /* the progress line */
  gboolean              progress;
  gboolean              progress_shown;
  gint64                last_draw;
  gint64                first_time;
  gboolean              have_first_time;
  SluiceEvent           last;
} App;

static void
app_clear (App *app)
{
  g_clear_pointer (&app->events_path, g_free);
  g_clear_pointer (&app->clock, g_free);
  g_clear_pointer (&app->sets, g_strfreev);
  g_clear_pointer (&app->files, g_strfreev);
  g_clear_object (&app->runner);
  g_clear_object (&app->result);
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

static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  App *app = user_data;
  gint64 now = g_get_monotonic_time ();

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
  clear_progress (app);

  if (app->n_signals == 1)
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
      N_("Write every event of the run to FILE as JSON Lines"), N_("FILE.jsonl") },
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
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, error))
    return FALSE;

  if (app->files == NULL || g_strv_length (app->files) != 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("expected exactly one scenario file (FILE.pool)"));
      return FALSE;
    }

  if (app->clock != NULL && !g_str_equal (app->clock, "real") && !g_str_equal (app->clock, "virtual"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--clock “%s”: expected real or virtual"), app->clock);
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

static void
print_report (App            *app,
              SluiceScenario *scenario,
              SluiceReport   *report)
{
  if (app->json)
    {
      g_autofree char *json = sluice_report_to_json_string (report, TRUE);
      g_print ("%s\n", json);
    }
  else
    {
      g_autofree char *summary = sluice_report_format_summary (report);
      const char *title = sluice_scenario_get_title (scenario);

      g_print ("%s\n%s", title ? title : sluice_scenario_get_name (scenario), summary);
    }
}

static int
exit_status_for (const GError *error)
{
  if (error->domain == SLUICE_SCENARIO_ERROR || error->domain == G_OPTION_ERROR ||
      g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG))
    return EXIT_USAGE;

  return EXIT_INTERNAL;
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  App *app = user_data;

  app->result = g_object_ref (result);
}

static int
run_scenario (App            *app,
              SluiceScenario *scenario)
{
  g_autoptr(SluiceRecorder) recorder = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  guint sigint_id, sigterm_id;

  app->runner = sluice_scenario_runner_new (scenario);
  app->progress = isatty (STDERR_FILENO);
  if (app->progress)
    sluice_scenario_runner_set_event_func (app->runner, on_event, app, NULL);

  if (app->events_path != NULL)
    {
      recorder = sluice_recorder_new (0);
      sluice_scenario_runner_set_recorder (app->runner, recorder);
    }

  sigint_id = g_unix_signal_add (SIGINT, on_signal, app);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, app);

  sluice_scenario_runner_run_async (app->runner, on_run_done, app);
  while (app->result == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);
  clear_progress (app);

  report = sluice_scenario_runner_run_finish (app->runner, app->result, &error);

  if (recorder != NULL)
    {
      g_autoptr(GError) write_error = NULL;

      if (!sluice_recorder_save_jsonl (recorder, app->events_path, &write_error))
        {
          g_printerr ("sluice-run: %s: %s\n", app->events_path, write_error->message);
          if (error == NULL)
            return EXIT_INTERNAL;
        }
    }

  if (report == NULL)
    {
      g_printerr ("sluice-run: %s\n", error->message);
      return exit_status_for (error);
    }

  print_report (app, scenario, report);
  return EXIT_RAN;
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
  int status;

  setlocale (LC_ALL, "");
  /* SLUICE_LOCALEDIR: the build tree's catalogues, for an uninstalled run
   * (scripts/run and the tests set it to build/po). */
  localedir = g_getenv ("SLUICE_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (!parse_arguments (&app, &argc, &argv, &error))
    {
      g_printerr ("sluice-run: %s\n", error->message);
      g_printerr (_("Try “sluice-run --help” for more information.\n"));
      app_clear (&app);
      return EXIT_USAGE;
    }

  overrides = collect_overrides (&app);
  scenario = sluice_scenario_new_from_file (app.files[0], (const char * const *) overrides, &error);
  if (scenario == NULL)
    {
      g_printerr ("sluice-run: %s\n", error->message);
      app_clear (&app);
      return EXIT_USAGE;
    }

  status = run_scenario (&app, scenario);
  app_clear (&app);

  return status;
}
