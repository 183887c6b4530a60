/* test-window-recording.c: a run saved as a .sluicerun and opened again,
 * in the window and from the command line, without an engine (issue 13)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "sluice-config-panel.h"
#include "sluice-error-group-view.h"
#include "sluice-event-log.h"
#include "sluice-explain-view.h"
#include "sluice-report-view.h"
#include "sluice-scrubber.h"
#include "sluice-timeline-view.h"
#include "window-fixture.h"

/* What a window shows of its run: every counter, the rows of the event
 * log, the results, the errors and the attempts. */
typedef struct {
  char  *counters[SLUICE_N_COUNTERS];
  guint  n_events, n_results, n_errors, n_bars;
  char  *report;   /* the Report tab's report as JSON, or NULL */
} Shown;

static void
take_shown (SluiceWindow *window,
            Shown        *shown)
{
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));

  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    shown->counters[c] = g_strdup (sluice_window_get_counter (window, c));
  shown->n_events = sluice_event_log_get_n_events (SLUICE_EVENT_LOG (sluice_window_get_event_log (window)));
  shown->n_results = sluice_window_get_n_results (window);
  shown->n_errors = sluice_error_group_view_get_n_errors (SLUICE_ERROR_GROUP_VIEW (sluice_window_get_error_group (window)));
  shown->n_bars = sluice_timeline_get_n_bars (sluice_timeline_view_get_model (lanes));
  {
    JsonNode *report = sluice_report_view_get_report (SLUICE_REPORT_VIEW (sluice_window_get_report_view (window)));

    shown->report = report ? json_to_string (report, TRUE) : NULL;
  }
}

static void
assert_same_shown (const Shown *a,
                   const Shown *b)
{
  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    g_assert_cmpstr (a->counters[c], ==, b->counters[c]);
  g_assert_cmpuint (a->n_events, ==, b->n_events);
  g_assert_cmpuint (a->n_results, ==, b->n_results);
  g_assert_cmpuint (a->n_errors, ==, b->n_errors);
  g_assert_cmpuint (a->n_bars, ==, b->n_bars);
  g_assert_cmpstr (a->report, ==, b->report);
}

static void
clear_shown (Shown *shown)
{
  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    g_free (shown->counters[c]);
  g_free (shown->report);
}

/* Until the report of an opened recording came back (its scenario run
 * again on the virtual clock), or the test fails. */
static void
wait_for_report (SluiceWindow *window)
{
  SluiceReportView *view = SLUICE_REPORT_VIEW (sluice_window_get_report_view (window));
  guint timeout_id = window_fixture_add_timeout ();

  while (sluice_report_view_get_report (view) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

static char *
temp_path (const char *name)
{
  return g_build_filename (g_get_tmp_dir (), name, NULL);
}

/* Saves @preset's run from a window; the window's views in @shown, and
 * what it explains at 0.5 s in @explained. */
static char *
record_in_window (const char  *preset,
                  Shown       *shown,
                  char       **explained)
{
  SluiceWindow *window = window_fixture_open (preset);
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  g_autofree char *name = g_strconcat ("sluice-window-", preset, ".sluicerun", NULL);
  char *path = temp_path (name);
  g_autoptr(GError) error = NULL;

  if (sluice_scenario_needs_real_time (sluice_config_panel_get_scenario (SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window)))))
    {
      /* block and thread spend real time: no virtual clock for them. */
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
      window_fixture_wait_for_end (window);
    }
  else
    window_fixture_run_virtual (window);
  g_assert_true (window_fixture_action_enabled (window, "win.save-run"));
  g_assert_true (sluice_run_controller_save_recording (sluice_window_get_run_controller (window), path, &error));
  g_assert_no_error (error);
  take_shown (window, shown);
  sluice_viewport_set_playhead (viewport, sluice_viewport_get_start (viewport) + 500000);
  *explained = g_strdup (sluice_explain_view_get_text (SLUICE_EXPLAIN_VIEW (sluice_window_get_explain_view (window))));
  window_fixture_close (window);
  return path;
}

/* Save run, then Open: the same views, a scrubber that moves through the
 * recorded run, the same explanation at the same moment, without an
 * engine; the same report, the one the recording carries. */
static void
test_recording_opens_with_the_same_views (void)
{
  Shown live, opened;
  g_autofree char *explained = NULL;
  g_autofree char *path = record_in_window ("retries", &live, &explained);
  SluiceWindow *window = window_fixture_new ();
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *scrubber;
  g_autoptr(GError) error = NULL;

  g_assert_true (sluice_window_open_file (window, path, &error));
  g_assert_no_error (error);
  g_assert_false (sluice_window_get_running (window));
  wait_for_report (window);
  take_shown (window, &opened);
  g_assert_nonnull (opened.report);
  assert_same_shown (&live, &opened);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "A recorded run"));

  scrubber = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_SCRUBBER);
  g_assert_nonnull (scrubber);
  g_assert_true (gtk_widget_activate_action (scrubber, "scrub.start", NULL));
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_SUCCEEDED), ==, "0");
  sluice_viewport_set_playhead (viewport, sluice_viewport_get_start (viewport) + 500000);
  g_assert_cmpstr (sluice_explain_view_get_text (SLUICE_EXPLAIN_VIEW (sluice_window_get_explain_view (window))), ==,
                   explained);

  /* Saved again from here, it is the same file. */
  {
    g_autofree char *again = temp_path ("sluice-window-again.sluicerun");
    g_autofree char *a = NULL, *b = NULL;

    g_assert_true (sluice_run_controller_save_recording (sluice_window_get_run_controller (window), again, &error));
    g_assert_no_error (error);
    g_file_get_contents (path, &a, NULL, NULL);
    g_file_get_contents (again, &b, NULL, NULL);
    g_assert_cmpstr (a, ==, b);
    g_unlink (again);
  }

  clear_shown (&live);
  clear_shown (&opened);
  window_fixture_close (window);
  g_unlink (path);
}

/* @text (a recording) without the report its first line carries, as
 * another program writes it. */
static char *
strip_report (const char *text)
{
  const char *newline = strchr (text, '\n');
  g_autofree char *first = g_strndup (text, (gsize) (newline - text));
  g_autoptr(JsonNode) header = json_from_string (first, NULL);
  g_autofree char *stripped = NULL;

  g_assert_nonnull (header);
  g_assert_true (json_object_has_member (json_node_get_object (header), "report"));
  json_object_remove_member (json_node_get_object (header), "report");
  stripped = json_to_string (header, FALSE);
  return g_strconcat (stripped, newline, NULL);
}

/* Saves @text as @name in the temporary folder; returns its path. */
static char *
save_temp (const char *name,
           const char *text,
           gssize      length)
{
  char *path = temp_path (name);

  g_assert_true (g_file_set_contents (path, text, length, NULL));
  return path;
}

/* A recording without a report: the scenario is run again on the virtual
 * clock, and since it gives the recorded events, that run's report is the
 * recorded run's. */
static void
test_recording_without_report_runs_again (void)
{
  Shown live, opened;
  g_autofree char *explained = NULL;
  g_autofree char *path = record_in_window ("retries", &live, &explained);
  g_autofree char *text = NULL, *stripped = NULL, *plain = NULL;
  SluiceWindow *window;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  stripped = strip_report (text);
  plain = save_temp ("sluice-window-plain.sluicerun", stripped, -1);

  window = window_fixture_new ();
  g_assert_true (sluice_window_open_file (window, plain, &error));
  g_assert_no_error (error);
  wait_for_report (window);
  take_shown (window, &opened);
  assert_same_shown (&live, &opened);

  clear_shown (&live);
  clear_shown (&opened);
  window_fixture_close (window);
  g_unlink (plain);
  g_unlink (path);
}

/* A run on the real clock (block: its handler sleeps in a thread) cannot
 * be run again to the same events: its recording carries its report, and
 * the Report tab shows it. The run takes 0.4 s of wall-clock time: block
 * is what real time is for. */
static void
test_real_clock_recording_shows_its_report (void)
{
  Shown live, opened;
  g_autofree char *explained = NULL;
  g_autofree char *path = record_in_window ("block", &live, &explained);
  SluiceWindow *window = window_fixture_new ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (live.report);
  g_assert_true (sluice_window_open_file (window, path, &error));
  g_assert_no_error (error);
  take_shown (window, &opened);
  assert_same_shown (&live, &opened);

  clear_shown (&live);
  clear_shown (&opened);
  window_fixture_close (window);
  g_unlink (path);
}

/* A recording cut short opens what it holds and says what was not valid;
 * its report is on the first line, so it still has it. */
static void
test_truncated_recording_opens_what_is_valid (void)
{
  Shown live, opened;
  g_autofree char *explained = NULL;
  g_autofree char *path = record_in_window ("first-look", &live, &explained);
  g_autofree char *cut = temp_path ("sluice-window-cut.sluicerun");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  SluiceWindow *window;

  g_assert_true (g_file_get_contents (path, &text, &length, NULL));
  g_assert_true (g_file_set_contents (cut, text, (gssize) (length * 2 / 3), NULL));

  window = window_fixture_new ();
  g_assert_true (sluice_window_open_file (window, cut, &error));
  g_assert_no_error (error);
  take_shown (window, &opened);
  g_assert_cmpuint (opened.n_events, >, 0);
  g_assert_cmpuint (opened.n_events, <, live.n_events);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "problem"));
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "sluice-window-cut.sluicerun"));
  g_assert_cmpstr (opened.report, ==, live.report);

  /* Without its report, run again: the scenario gives more events than
   * the cut file holds, so no report, and the Report tab says why. */
  {
    g_autofree char *stripped = strip_report (text);

    g_assert_true (g_file_set_contents (cut, stripped, (gssize) (strlen (stripped) * 2 / 3), NULL));
    g_assert_true (sluice_window_open_file (window, cut, &error));
    g_assert_no_error (error);
  }
  {
    SluiceReportView *view = SLUICE_REPORT_VIEW (sluice_window_get_report_view (window));
    g_autofree char *note = NULL;
    guint timeout_id = window_fixture_add_timeout ();

    do
      {
        g_clear_pointer (&note, g_free);
        g_main_context_iteration (NULL, TRUE);
        g_object_get (view, "note", &note, NULL);
      }
    while (strstr (note, "other events") == NULL);
    g_source_remove (timeout_id);
    g_assert_null (sluice_report_view_get_report (view));
  }

  /* Garbage is not a recording: refused, the file named. */
  g_assert_true (g_file_set_contents (cut, "garbage\n", -1, NULL));
  g_assert_false (sluice_window_open_file (window, cut, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "sluice-window-cut.sluicerun"));

  clear_shown (&live);
  clear_shown (&opened);
  window_fixture_close (window);
  g_unlink (cut);
  g_unlink (path);
}

/* `sluice FILE.sluicerun --export-events F` shows the recorded run and
 * exports its events as they were recorded: the run is not run again. */
static void
test_app_opens_recording_argument (void)
{
  Shown live;
  g_autofree char *explained = NULL;
  g_autofree char *path = record_in_window ("first-look", &live, &explained);
  g_autofree char *events = temp_path ("sluice-window-recording.jsonl");
  g_autofree char *recorded = NULL, *exported = NULL, *err = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  if (g_getenv ("SLUICE_APP") == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              g_getenv ("SLUICE_APP"), path, "--export-events", events, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_test_message ("%s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);

  g_assert_true (g_file_get_contents (path, &recorded, NULL, NULL));
  g_assert_true (g_file_get_contents (events, &exported, NULL, NULL));
  /* The recording is its header line, then the events. */
  g_assert_cmpstr (strchr (recorded, '\n') + 1, ==, exported);

  clear_shown (&live);
  g_unlink (events);
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/recording/opens-with-the-same-views", test_recording_opens_with_the_same_views);
  g_test_add_func ("/window/recording/without-report-runs-again", test_recording_without_report_runs_again);
  g_test_add_func ("/window/recording/real-clock-shows-its-report", test_real_clock_recording_shows_its_report);
  g_test_add_func ("/window/recording/truncated-opens-what-is-valid", test_truncated_recording_opens_what_is_valid);
  g_test_add_func ("/app/opens-recording-argument", test_app_opens_recording_argument);

  return g_test_run ();
}
