/* test-window-attach.c: Attach to a Running Pool…: another program's pool,
 * found on the session bus and watched live in the window (docs/monitoring.md,
 * "Attach (the app)")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On a private message bus of the test's own (GTestDBus starts a
 * dbus-daemon and points the session bus at it), each case spawns
 * monitor-child, a program whose one pool SLUICE_MONITOR exports, and
 * waits for the lines it prints: `ready BUS-NAME OBJECT-PATH` once its
 * name is on the bus, `done EVENTS SUCCEEDED` at its run's end. The window
 * finds it through the attach dialog and attaches to it the way the
 * dialog's Attach does.
 *
 * The child is another process: its items take 5 ms each on the real
 * clock and nothing here can make its time pass faster. So the waits turn
 * the main context until a condition holds (a line came, an event
 * arrived), never sleep; the wall clock only bounds them, so that a broken
 * case fails instead of hanging (window_fixture_add_timeout()).
 */

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "sluice-attach-dialog.h"
#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "test-helpers.h"
#include "window-fixture.h"

static GTestDBus *test_bus;

/* ---- the child ------------------------------------------------------------ */

typedef struct {
  GSubprocess      *process;
  GDataInputStream *out;
  char             *pid;
  char             *name;       /* its bus name */
  char             *path;       /* its pool's object path */
  guint64           n_events;   /* from its `done` line */
  guint             n_succeeded;
  gboolean          exited;
} Child;

typedef struct {
  gboolean  done;
  char     *line;
} LineRead;

static void
on_line (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  LineRead *read = user_data;
  g_autoptr(GError) error = NULL;

  read->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL, &error);
  g_assert_no_error (error);
  read->done = TRUE;
}

/* The child's next line, split at its spaces; the main context turns
 * meanwhile, so that the window takes the events that come. */
static char **
child_read_words (Child      *child,
                  const char *first_word,
                  guint       n_words)
{
  LineRead read = { 0 };
  char **words;

  g_data_input_stream_read_line_async (child->out, G_PRIORITY_DEFAULT, NULL, on_line, &read);
  SLUICE_TEST_SPIN_UNTIL (read.done);
  g_assert_nonnull (read.line);
  words = g_strsplit (read.line, " ", -1);
  g_free (read.line);
  g_assert_cmpuint (g_strv_length (words), ==, n_words);
  g_assert_cmpstr (words[0], ==, first_word);
  return words;
}

/* Spawns monitor-child with SLUICE_MONITOR=@mode and waits until its name
 * is on the bus. */
static void
child_start_with (Child      *child,
                  const char *mode,
                  const char *argument)
{
  g_autofree char *helper = g_test_build_filename (G_TEST_BUILT, "monitor-child", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) words = NULL;

  memset (child, 0, sizeof *child);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_MONITOR", mode, TRUE);
  child->process = g_subprocess_launcher_spawn (launcher, &error, helper, argument, NULL);
  g_assert_no_error (error);
  child->pid = g_strdup (g_subprocess_get_identifier (child->process));
  child->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child->process));

  words = child_read_words (child, "ready", 3);
  child->name = g_strdup (words[1]);
  child->path = g_strdup (words[2]);
}

static void
child_start (Child      *child,
             const char *mode)
{
  child_start_with (child, mode, NULL);
}

static void
child_write (Child      *child,
             const char *line)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_output_stream_write_all (g_subprocess_get_stdin_pipe (child->process), line, strlen (line),
                                            NULL, NULL, &error));
  g_assert_no_error (error);
}

/* Its `done EVENTS SUCCEEDED` line, after a stop. */
static void
child_wait_for_done (Child *child)
{
  g_auto(GStrv) words = child_read_words (child, "done", 3);

  child->n_events = g_ascii_strtoull (words[1], NULL, 10);
  child->n_succeeded = (guint) g_ascii_strtoull (words[2], NULL, 10);
  g_assert_cmpuint (child->n_events, >, 0);
}

static void
on_exited (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Child *child = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error));
  g_assert_no_error (error);
  child->exited = TRUE;
}

/* The end of its input ends it; after its `done` line, well. */
static void
child_exit (Child *child)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (g_output_stream_close (g_subprocess_get_stdin_pipe (child->process), NULL, &error));
  g_assert_no_error (error);
  g_subprocess_wait_async (child->process, NULL, on_exited, child);
  SLUICE_TEST_SPIN_UNTIL (child->exited);
  if (child->n_events > 0)
    g_assert_true (g_subprocess_get_successful (child->process));
}

static void
child_clear (Child *child)
{
  if (child->process != NULL && !child->exited)
    {
      g_subprocess_force_exit (child->process);
      g_subprocess_wait (child->process, NULL, NULL);
    }
  g_clear_object (&child->out);
  g_clear_object (&child->process);
  g_clear_pointer (&child->pid, g_free);
  g_clear_pointer (&child->name, g_free);
  g_clear_pointer (&child->path, g_free);
}

/* ---- the window ----------------------------------------------------------- */

/* The row of the dialog's list that is @child's pool, or -1. */
static int
find_row (SluiceAttachDialog *dialog,
          Child              *child)
{
  GListModel *pools = sluice_attach_dialog_get_pools (dialog);

  for (guint i = 0; pools != NULL && i < g_list_model_get_n_items (pools); i++)
    {
      g_autoptr(SluiceRemotePool) pool = g_list_model_get_item (pools, i);

      if (g_str_equal (sluice_remote_pool_get_bus_name (pool), child->name) &&
          g_str_equal (sluice_remote_pool_get_object_path (pool), child->path))
        return (int) i;
    }
  return -1;
}

/* win.attach, as the menu and Ctrl+Shift+A do: the dialog, once it lists
 * @child's pool. */
static SluiceAttachDialog *
open_dialog (SluiceWindow *window,
             Child        *child)
{
  SluiceAttachDialog *dialog;

  g_assert_true (window_fixture_action_enabled (window, "win.attach"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.attach", NULL));
  dialog = sluice_window_get_attach_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));
  SLUICE_TEST_SPIN_UNTIL (find_row (dialog, child) >= 0);
  g_assert_cmpstr (sluice_attach_dialog_get_page (dialog), ==, "list");
  return dialog;
}

/* The dialog's Attach on @child's row; the dialog closes. */
static void
attach_through_dialog (SluiceWindow *window,
                       Child        *child)
{
  SluiceAttachDialog *dialog = open_dialog (window, child);

  sluice_attach_dialog_select (dialog, (guint) find_row (dialog, child));
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "attach.attach", NULL));
  /* Closed, and nothing keeps it. */
  g_assert_null (dialog);
  g_assert_null (sluice_window_get_attach_dialog (window));

  /* Else the banner says why. */
  if (!sluice_window_get_running (window))
    g_error ("not attached: %s", sluice_window_get_banner (window));
  g_assert_nonnull (sluice_run_controller_get_remote (sluice_window_get_run_controller (window)));
}

static guint
n_recorded (SluiceWindow *window)
{
  SluiceRecorder *recorder = sluice_run_model_get_recorder (sluice_run_controller_get_model (sluice_window_get_run_controller (window)));

  return recorder != NULL ? sluice_recorder_get_n_events (recorder) : 0;
}

static guint
counter_value (SluiceWindow  *window,
               SluiceCounter  counter)
{
  return (guint) g_ascii_strtoull (sluice_window_get_counter (window, counter), NULL, 10);
}

static gboolean
action_enabled (SluiceWindow *window,
                const char   *name)
{
  g_autofree char *action = g_strconcat ("win.", name, NULL);

  return window_fixture_action_enabled (window, action);
}

/* The clock's pause button, the first of the clock controls. */
static GtkWidget *
pause_button (SluiceWindow *window)
{
  GtkWidget *controls = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CLOCK_CONTROLS);

  g_assert_nonnull (controls);
  return gtk_widget_get_first_child (controls);
}

/* What a window attached live offers: the program's run, watched, not
 * steered from here; its configuration shown, not edited. */
static void
assert_attached_controls (SluiceWindow *window)
{
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));

  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (panel)));
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  g_assert_cmpint (sluice_scenario_get_workers (sluice_config_panel_get_scenario (panel)), ==, 2);
  g_assert_false (action_enabled (window, "run"));
  g_assert_false (action_enabled (window, "reset"));
  g_assert_false (action_enabled (window, "cancel"));
  g_assert_false (action_enabled (window, "attach"));
  g_assert_false (action_enabled (window, "save-run"));
  g_assert_false (action_enabled (window, "open"));
  g_assert_false (action_enabled (window, "open-preset"));
  g_assert_true (action_enabled (window, "detach"));
  g_assert_false (gtk_widget_is_sensitive (pause_button (window)));
  g_assert_false (sluice_window_get_modified (window));
}

/* Back to the playground: the configuration can be edited and run. */
static void
assert_playground_controls (SluiceWindow *window)
{
  g_assert_false (sluice_window_get_running (window));
  g_assert_true (gtk_widget_get_sensitive (sluice_window_get_config_panel (window)));
  g_assert_true (action_enabled (window, "run"));
  g_assert_true (action_enabled (window, "reset"));
  g_assert_true (action_enabled (window, "attach"));
  g_assert_false (action_enabled (window, "detach"));
  g_assert_true (action_enabled (window, "open"));
  g_assert_true (action_enabled (window, "save-run"));
}

/* ---- the cases ------------------------------------------------------------ */

/* The dialog lists the child's pool (its program, its process, what it
 * does), and loses it when the child exits; then it says how to export
 * one. */
static void
test_dialog_lists_the_child_until_it_exits (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceAttachDialog *dialog;
  Child child;
  g_autofree char *row = NULL;
  g_autofree char *process = NULL;

  child_start (&child, "session");
  dialog = open_dialog (window, &child);

  row = sluice_attach_dialog_dup_row_text (dialog, (guint) find_row (dialog, &child));
  process = g_strdup_printf ("process %s", child.pid);
  g_assert_nonnull (strstr (row, "sluice-monitor-child"));
  g_assert_nonnull (strstr (row, process));
  g_assert_nonnull (strstr (row, "workers busy"));
  /* Selected at once: Enter attaches. */
  g_assert_nonnull (sluice_attach_dialog_get_selected (dialog));

  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  child_exit (&child);
  SLUICE_TEST_SPIN_UNTIL (find_row (dialog, &child) < 0);
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (sluice_attach_dialog_get_page (dialog), "empty") == 0);
  g_assert_nonnull (strstr (sluice_attach_dialog_get_message (dialog), "SLUICE_MONITOR=session PROGRAM"));
  g_assert_nonnull (strstr (sluice_attach_dialog_get_message (dialog), "sluice_pool_export()"));
  g_assert_null (sluice_attach_dialog_get_selected (dialog));

  /* Cancel closes it, and nothing keeps it; the window stays as it was. */
  g_object_add_weak_pointer (G_OBJECT (dialog), (gpointer *) &dialog);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "attach.cancel", NULL));
  g_assert_null (dialog);
  g_assert_null (sluice_window_get_attach_dialog (window));
  g_assert_false (sluice_window_get_running (window));
  g_assert_null (sluice_run_controller_get_remote (sluice_window_get_run_controller (window)));

  child_clear (&child);
  window_fixture_close (window);
}

/* Attached, the window's counters follow the child; after its stop they
 * end at its own counts, the recorder holds every event it emitted, and
 * the window runs no more. */
static void
test_counts_reach_the_childs (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  Child child;

  child_start (&child, "session");
  attach_through_dialog (window, &child);
  assert_attached_controls (window);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "sluice-monitor-child"));

  /* Live: some items succeed while it runs. */
  SLUICE_TEST_SPIN_UNTIL (counter_value (window, SLUICE_COUNTER_SUCCEEDED) >= 10);
  g_assert_true (sluice_window_get_running (window));

  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  SLUICE_TEST_SPIN_UNTIL (!sluice_window_get_running (window));
  /* Results the child read after its run's end still come. */
  SLUICE_TEST_SPIN_UNTIL (n_recorded (window) + sluice_run_controller_get_remote_lost (run) >= child.n_events);

  g_assert_cmpuint (sluice_run_controller_get_remote_lost (run), ==, 0);
  g_assert_cmpuint (n_recorded (window), ==, child.n_events);
  g_assert_cmpuint (counter_value (window, SLUICE_COUNTER_SUCCEEDED), ==, child.n_succeeded);
  g_assert_cmpuint (sluice_window_get_n_results (window), ==, child.n_succeeded);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "The attached run ended"));
  assert_playground_controls (window);

  child_exit (&child);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (run) == NULL);
  g_assert_cmpuint (n_recorded (window), ==, child.n_events);

  child_clear (&child);
  window_fixture_close (window);
}


/* The timeline's bars that have no end: attempts still running. */
static guint
n_open_bars (SluiceWindow *window)
{
  SluiceTimeline *timeline = sluice_run_model_get_timeline (sluice_run_controller_get_model (sluice_window_get_run_controller (window)));
  guint open = 0;

  for (guint i = 0; timeline != NULL && i < sluice_timeline_get_n_bars (timeline); i++)
    if (sluice_timeline_get_bar (timeline, i)->end < 0)
      open++;
  return open;
}

static guint
busy_workers (SluiceWindow *window)
{
  return counter_value (window, SLUICE_COUNTER_BUSY);
}

/* Attached late to a program whose ring is small: the first events are
 * gone. The banner says so while the run goes on, the timeline marks
 * where, the counters never exceed the pool's limits (busy <= workers),
 * no bar stays open after the end, and every view counts time from one
 * origin. */
static void
test_lost_events_shown_live (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  SluiceTimeline *timeline;
  Child child;

  child_start_with (&child, "session", "--event-capacity=64");
  attach_through_dialog (window, &child);

  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote_lost (run) > 0 &&
                          counter_value (window, SLUICE_COUNTER_SUCCEEDED) >= 10);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_true (sluice_window_get_running (window));
  g_test_message ("banner while running: %s", sluice_window_get_banner (window));
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "did not arrive"));
  g_assert_cmpuint (busy_workers (window), <=, 2);
  timeline = sluice_run_model_get_timeline (sluice_run_controller_get_model (run));
  g_assert_true (sluice_timeline_has_moment_kind (timeline, SLUICE_TIMELINE_MOMENT_EVENTS_LOST));
  g_assert_cmpuint (n_open_bars (window), <=, 2);
  /* One origin: the chart and the counters start where the first event
   * that came is (the run's own start was lost). */
  g_assert_cmpint (sluice_viewport_get_start (sluice_window_get_viewport (window)), ==,
                   sluice_timeline_get_start_time (timeline));

  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  SLUICE_TEST_SPIN_UNTIL (!sluice_window_get_running (window));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 2);
  g_assert_cmpuint (busy_workers (window), <=, 2);
  g_assert_cmpuint (n_open_bars (window), ==, 0);

  child_exit (&child);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (run) == NULL);
  child_clear (&child);
  window_fixture_close (window);
}

/* A read-only export: Request Stop is off, and its tooltip says why. */
static void
test_request_stop_off_when_read_only (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  GtkWidget *stop_button;
  Child child;

  child_start (&child, "session");
  attach_through_dialog (window, &child);

  g_assert_false (action_enabled (window, "request-stop"));
  stop_button = window_fixture_find_actionable (GTK_WIDGET (window), "win.request-stop");
  g_assert_nonnull (stop_button);
  g_assert_false (gtk_widget_is_sensitive (stop_button));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (stop_button), "read-only"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (stop_button), "SLUICE_MONITOR=session,control"));

  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  SLUICE_TEST_SPIN_UNTIL (!sluice_window_get_running (window));
  child_exit (&child);

  child_clear (&child);
  window_fixture_close (window);
}

/* Exported with control allowed: Request Stop stops the child (its
 * `done` line comes without a `stop` on its input). */
static void
test_request_stop_stops_the_child_with_control (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  Child child;

  child_start (&child, "session,control");
  attach_through_dialog (window, &child);
  SLUICE_TEST_SPIN_UNTIL (counter_value (window, SLUICE_COUNTER_SUCCEEDED) >= 1);

  g_assert_true (action_enabled (window, "request-stop"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.request-stop", NULL));
  child_wait_for_done (&child);
  SLUICE_TEST_SPIN_UNTIL (!sluice_window_get_running (window));
  SLUICE_TEST_SPIN_UNTIL (n_recorded (window) >= child.n_events);
  g_assert_cmpuint (counter_value (window, SLUICE_COUNTER_SUCCEEDED), ==, child.n_succeeded);
  child_exit (&child);

  child_clear (&child);
  window_fixture_close (window);
}

/* Detach: the program goes on, what came stays in the views. */
static void
test_detach_keeps_what_came (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  Child child;
  guint kept;

  child_start (&child, "session");
  attach_through_dialog (window, &child);
  SLUICE_TEST_SPIN_UNTIL (counter_value (window, SLUICE_COUNTER_SUCCEEDED) >= 5);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.detach", NULL));
  g_assert_null (sluice_run_controller_get_remote (run));
  assert_playground_controls (window);
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "Detached"));
  kept = n_recorded (window);
  g_assert_cmpuint (kept, >, 0);

  /* The child goes on working; nothing more comes here. */
  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  g_assert_cmpuint (n_recorded (window), ==, kept);
  g_assert_cmpuint (child.n_events, >, kept);
  child_exit (&child);

  child_clear (&child);
  window_fixture_close (window);
}

/* A program that exits in the middle of its run: the window says so,
 * runs no more, and keeps what came. */
static void
test_exit_mid_run_keeps_what_came (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  Child child;

  child_start (&child, "session");
  attach_through_dialog (window, &child);
  SLUICE_TEST_SPIN_UNTIL (counter_value (window, SLUICE_COUNTER_SUCCEEDED) >= 5);

  /* No stop: the end of its input ends it at once (how it exits, with
   * its run going on, is its own business: a crash is the same here). */
  child_exit (&child);
  SLUICE_TEST_SPIN_UNTIL (!sluice_window_get_running (window));
  g_assert_null (sluice_run_controller_get_remote (run));
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "sluice-monitor-child exited before its run ended"));
  g_assert_cmpuint (n_recorded (window), >, 0);
  g_assert_cmpuint (counter_value (window, SLUICE_COUNTER_SUCCEEDED), >=, 5);
  assert_playground_controls (window);

  child_clear (&child);
  window_fixture_close (window);
}

/* After the child exited, Save Run writes a recording that opens again
 * with the same events and counts. */
static void
test_saved_after_exit_opens_again (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sluice-window-attach-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "attached.sluicerun", NULL);
  SluiceWindow *again;
  g_autofree char *succeeded = NULL;
  Child child;

  g_assert_no_error (error);
  child_start (&child, "session");
  attach_through_dialog (window, &child);
  SLUICE_TEST_SPIN_UNTIL (counter_value (window, SLUICE_COUNTER_SUCCEEDED) >= 5);
  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  /* Its last batch of events first: the exporter sends one at most every
   * 50 ms, and a program that exits sooner takes the rest with it. */
  SLUICE_TEST_SPIN_UNTIL (n_recorded (window) >= child.n_events);
  child_exit (&child);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (run) == NULL);
  g_assert_false (sluice_window_get_running (window));
  g_assert_cmpuint (n_recorded (window), ==, child.n_events);

  /* What win.save-run writes once a file is chosen. */
  g_assert_true (action_enabled (window, "save-run"));
  g_assert_true (sluice_run_controller_save_recording (run, path, &error));
  g_assert_no_error (error);
  succeeded = g_strdup (sluice_window_get_counter (window, SLUICE_COUNTER_SUCCEEDED));

  again = window_fixture_new ();
  g_assert_true (sluice_window_open_file (again, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_recorded (again), ==, child.n_events);
  g_assert_cmpstr (sluice_window_get_counter (again, SLUICE_COUNTER_SUCCEEDED), ==, succeeded);
  g_assert_cmpuint (sluice_window_get_n_results (again), ==, child.n_succeeded);
  {
    SluiceScenario *scenario = sluice_config_panel_get_scenario (SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (again)));

    g_assert_nonnull (scenario);
    g_assert_cmpint (sluice_scenario_get_workers (scenario), ==, 2);
  }

  window_fixture_close (again);
  g_unlink (path);
  g_rmdir (dir);
  child_clear (&child);
  window_fixture_close (window);
}

/* Without a session bus the dialog says so, instead of an empty list. */
static void
test_dialog_without_bus_says_why (void)
{
  if (g_test_subprocess ())
    {
      SluiceWindow *window = window_fixture_new ();
      SluiceAttachDialog *dialog;

      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.attach", NULL));
      dialog = sluice_window_get_attach_dialog (window);
      SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (sluice_attach_dialog_get_page (dialog), "no-bus") == 0);
      g_assert_nonnull (strstr (sluice_attach_dialog_get_message (dialog), "session bus"));
      g_assert_null (sluice_attach_dialog_get_pools (dialog));
      g_assert_false (window_fixture_action_enabled (window, "win.detach"));
      window_fixture_close (window);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* `sluice --attach PID --export-events F`: the app attaches to the child
 * (it says so on standard error), and once the child's run ended it
 * writes the events it got, from the run's start to its end, and exits. */
static void
test_app_attach_argument_exports_the_run (void)
{
  g_autofree char *events = g_build_filename (g_get_tmp_dir (), "sluice-attach-events.jsonl", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) app = NULL;
  g_autoptr(GDataInputStream) err = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *first, *last;
  guint n = 0;
  Child child;

  if (g_getenv ("SLUICE_APP") == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }

  child_start (&child, "session");
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  app = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SLUICE_APP"), "--attach", child.pid,
                                     "--export-events", events, NULL);
  g_assert_no_error (error);
  err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (app));
  /* Its readiness line; whatever GTK says before it is passed over. */
  for (;;)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (err, NULL, NULL, &error);

      g_assert_no_error (error);
      g_assert_nonnull (line);
      g_test_message ("sluice: %s", line);
      if (strstr (line, "attached to process") != NULL)
        break;
    }

  child_write (&child, "stop\n");
  child_wait_for_done (&child);
  g_assert_true (g_subprocess_wait (app, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (app));
  g_assert_cmpint (g_subprocess_get_exit_status (app), ==, 0);

  g_assert_true (g_file_get_contents (events, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (g_strchomp (text), "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >, 2);
  g_assert_true (json_parser_load_from_data (parser, lines[0], -1, &error));
  first = json_object_ref (json_node_get_object (json_parser_get_root (parser)));
  g_assert_cmpstr (json_object_get_string_member (first, "kind"), ==, "run-start");
  /* The run's end is there, with the child's count of successes. */
  last = NULL;
  for (guint i = n; i-- > 0 && last == NULL; )
    {
      JsonObject *object;

      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, &error));
      object = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member (object, "kind"), "run-end") == 0)
        last = json_object_ref (object);
    }
  g_assert_nonnull (last);
  g_assert_cmpint (json_object_get_int_member (last, "succeeded"), ==, child.n_succeeded);
  g_assert_cmpuint (n, <=, child.n_events);

  json_object_unref (first);
  json_object_unref (last);
  child_exit (&child);
  child_clear (&child);
  g_unlink (events);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *daemon = g_find_program_in_path ("dbus-daemon");
  int status;

  g_setenv ("SLUICE_MONITOR", "", TRUE);
  /* The no-bus case runs in a subprocess whose session bus is nowhere. */
  if (argc > 1 && g_strv_contains ((const char * const *) argv, "--GTestSubprocess"))
    g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/sluice-test-bus", TRUE);
  else if (daemon != NULL)
    {
      /* Before GTK: nothing may take the session bus before it is ours.
       * GTestDBus unsets DISPLAY (so that no X session's bus is found):
       * the window needs Xvfb's back. */
      g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));

      test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (test_bus);
      if (display != NULL)
        g_setenv ("DISPLAY", display, TRUE);
    }

  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/attach/dialog-without-bus-says-why", test_dialog_without_bus_says_why);
  if (daemon != NULL)
    {
      g_test_add_func ("/window/attach/dialog-lists-the-child-until-it-exits",
                       test_dialog_lists_the_child_until_it_exits);
      g_test_add_func ("/window/attach/counts-reach-the-childs", test_counts_reach_the_childs);
      g_test_add_func ("/window/attach/lost-events-shown-live", test_lost_events_shown_live);
      g_test_add_func ("/window/attach/request-stop-off-when-read-only", test_request_stop_off_when_read_only);
      g_test_add_func ("/window/attach/request-stop-stops-the-child-with-control",
                       test_request_stop_stops_the_child_with_control);
      g_test_add_func ("/window/attach/detach-keeps-what-came", test_detach_keeps_what_came);
      g_test_add_func ("/window/attach/exit-mid-run-keeps-what-came", test_exit_mid_run_keeps_what_came);
      g_test_add_func ("/window/attach/saved-after-exit-opens-again", test_saved_after_exit_opens_again);
      g_test_add_func ("/app/attach-argument-exports-the-run", test_app_attach_argument_exports_the_run);
    }
  else
    g_test_message ("no dbus-daemon: only the case without a bus runs");

  status = g_test_run ();

  if (test_bus != NULL)
    {
      g_test_dbus_down (test_bus);
      g_clear_object (&test_bus);
    }
  return status;
}
