/* test-window-recording.c: a run saved as a .sluicerun and opened again,
 * in the window and from the command line, without an engine (issue 13)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

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
    SluiceReport *report = sluice_report_view_get_report (SLUICE_REPORT_VIEW (sluice_window_get_report_view (window)));

    shown->report = report ? sluice_report_to_json_string (report, TRUE) : NULL;
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

  window_fixture_run_virtual (window);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "save-run"));
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
 * engine; the same report, from the scenario run again on the virtual
 * clock once its events are the recording's. */
static void
test_recording_opens_with_the_same_views (void)
{
  Shown live, opened;
  g_autofree char *explained = NULL;
  g_autofree char *path = record_in_window ("retries", &live, &explained);
  SluiceWindow *window = window_fixture_new ();
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *scrubber = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (sluice_window_open_file (window, path, &error));
  g_assert_no_error (error);
  g_assert_false (sluice_window_get_running (window));
  wait_for_report (window);
  take_shown (window, &opened);
  g_assert_nonnull (opened.report);
  assert_same_shown (&live, &opened);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "A recorded run"));

  for (GtkWidget *w = sluice_window_get_timeline_view (window); w != NULL && scrubber == NULL; w = gtk_widget_get_parent (w))
    for (GtkWidget *c = gtk_widget_get_first_child (w); c != NULL; c = gtk_widget_get_next_sibling (c))
      for (GtkWidget *g = gtk_widget_get_first_child (c); g != NULL; g = gtk_widget_get_next_sibling (g))
        if (SLUICE_IS_SCRUBBER (g))
          scrubber = g;
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

/* A recording cut short opens what it holds and says what was not valid. */
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
  /* Run again, the scenario gives more events than the cut file holds:
   * no report, and the Report tab says why. */
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
  g_test_add_func ("/window/recording/truncated-opens-what-is-valid", test_truncated_recording_opens_what_is_valid);
  g_test_add_func ("/app/opens-recording-argument", test_app_opens_recording_argument);

  return g_test_run ();
}
