/* test-window-attach-worker.c: from a store job to its live lane
 * (docs/store-admin.md, "From a row to the live lane"): win.attach-worker
 * with a running job's lease owner attaches the window to that worker's
 * exported pool and selects the job's item in the lanes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On a private message bus of the test's own (GTestDBus), `sluice-run
 * worker` with SLUICE_MONITOR=session runs two jobs of a SQLite store that
 * hang, so both stay running; the test waits for the lines the worker
 * prints (ready, then each job started), never sleeps. The wall clock only
 * bounds the waits (SLUICE_TEST_SPIN_UNTIL), so that a broken case fails
 * instead of hanging.
 */

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include "sluice-remote-pool.h"
#include "sluice-store-job-detail.h"
#include "sluice-store-jobs-page.h"
#include "sluice-store-source.h"
#include "sluice-store-window.h"
#include "sluice-timeline-view.h"
#include "test-helpers.h"
#include "window-fixture.h"

#define WORKER_ID "w-lane"

static GTestDBus *test_bus;

/* ---- the worker ----------------------------------------------------------- */

typedef struct {
  char             *dir;
  char             *uri;
  GSubprocess      *process;
  GDataInputStream *err;
  GCancellable     *cancellable;
  gboolean          ready;
  guint             n_started;
  char             *started_key;  /* of the last job it started */
} Worker;

static void read_line (Worker *w);

static void
on_line (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Worker *w = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                                     NULL, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_assert_no_error (error);
  if (line == NULL)
    return;
  g_test_message ("worker: %s", line);
  if (strstr (line, " ready") != NULL)
    w->ready = TRUE;
  else if (strstr (line, " started (") != NULL)
    {
      /* "sluice-run: job KEY attempt N started (ID)" */
      const char *key = strstr (line, "job ");
      const char *end = key != NULL ? strstr (key, " attempt ") : NULL;

      g_assert_nonnull (end);
      g_free (w->started_key);
      w->started_key = g_strndup (key + strlen ("job "), (gsize) (end - key - strlen ("job ")));
      w->n_started++;
    }
  read_line (w);
}

static void
read_line (Worker *w)
{
  g_data_input_stream_read_line_async (w->err, G_PRIORITY_DEFAULT, w->cancellable, on_line, w);
}

static void
run_enqueue (const char *uri,
             const char *tenant,
             const char *count,
             const char *key_prefix)
{
  const char *argv[] = { g_getenv ("SLUICE_RUN"), "enqueue", "--store", uri, "--init", "--tenant", tenant,
                         "--count", count, "--key-prefix", key_prefix, "--behaviour", "hang", NULL };
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (argv[0]);
  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (process, NULL, &error));
  g_assert_no_error (error);
}

/* A worker's jobs hang: a case that fails (g_error() ends this process)
 * must not leave it running. */
static void
die_with_the_test (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* `sluice-run worker --worker-id @worker_id` with @n_workers on the store
 * @uri, exporting its pool on the test's bus: it runs until @n_jobs of its
 * jobs started (they hang: they stay running). */
static void
worker_spawn (Worker     *w,
              const char *uri,
              const char *tenant,
              const char *worker_id,
              const char *n_workers,
              guint       n_jobs)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_MONITOR", "session", TRUE);
  g_subprocess_launcher_set_child_setup (launcher, die_with_the_test, NULL, NULL);
  w->process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SLUICE_RUN"), "worker", "--store",
                                            uri, "--tenant", tenant, "--worker-id", worker_id, "--workers", n_workers,
                                            "--queue-size", "1", "--lease", "30", "--verbose", NULL);
  g_assert_no_error (error);
  w->cancellable = g_cancellable_new ();
  w->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (w->process));
  read_line (w);
  SLUICE_TEST_SPIN_UNTIL (w->ready && w->n_started == n_jobs);
}

/* Two hanging jobs, lane-0 and lane-1, both running in a worker of two
 * that exports its pool on the test's bus. */
static void
worker_start (Worker *w)
{
  g_autoptr(GError) error = NULL;

  memset (w, 0, sizeof *w);
  w->dir = g_dir_make_tmp ("sluice-attach-worker-XXXXXX", &error);
  g_assert_no_error (error);
  w->uri = g_strconcat ("sqlite:", w->dir, "/jobs.db", NULL);
  run_enqueue (w->uri, "t", "2", "lane");
  worker_spawn (w, w->uri, "t", WORKER_ID, "2", 2);
}

/* A second worker on @first's store, for another tenant (u), so that it
 * and no other takes its job: other-0, which hangs. */
static void
worker_start_beside (Worker       *w,
                     const Worker *first,
                     const char   *worker_id)
{
  memset (w, 0, sizeof *w);
  run_enqueue (first->uri, "u", "1", "other");
  worker_spawn (w, first->uri, "u", worker_id, "1", 1);
}

static void
worker_stop (Worker *w)
{
  g_cancellable_cancel (w->cancellable);
  g_subprocess_force_exit (w->process);
  g_subprocess_wait (w->process, NULL, NULL);
  g_clear_object (&w->cancellable);
  g_clear_object (&w->err);
  g_clear_object (&w->process);
  g_clear_pointer (&w->started_key, g_free);
}

static void
worker_clear (Worker *w)
{
  g_autofree char *db = g_strconcat (w->dir, "/jobs.db", NULL);

  worker_stop (w);
  g_remove (db);
  for (const char *suffix = "-wal"; suffix != NULL; suffix = g_str_equal (suffix, "-wal") ? "-shm" : NULL)
    {
      g_autofree char *side = g_strconcat (db, suffix, NULL);

      g_remove (side);
    }
  g_rmdir (w->dir);
  g_free (w->dir);
  g_free (w->uri);
}

/* ---- the window ----------------------------------------------------------- */

static void
activate_attach_worker (SluiceWindow *window,
                        const char   *worker_id,
                        const char   *job_key)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.attach-worker", "(ss)",
                                             worker_id, job_key));
}

static gint64
selected_item (SluiceWindow *window)
{
  return sluice_timeline_view_get_selected_item (SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window)));
}

/* The operation key of the job the window's recorder saw pulled as @item. */
static char *
operation_key_of_item (SluiceWindow *window,
                       gint64        item)
{
  SluiceRunModel *model = sluice_run_controller_get_model (sluice_window_get_run_controller (window));
  SluiceRecorder *recorder = sluice_run_model_get_recorder (model);

  for (guint i = 0; i < sluice_recorder_get_n_events (recorder); i++)
    {
      const SluiceEvent *event = sluice_recorder_get_event (recorder, i);
      const char *key;

      if (event->kind != SLUICE_EVENT_PULL || event->item != item)
        continue;
      g_assert_true (g_variant_is_of_type (event->value, SLUICE_STORE_ITEM_TYPE));
      g_variant_get (event->value, "(&s&su&s)", NULL, &key, NULL, NULL);
      return g_strdup (key);
    }
  return NULL;
}

/* Whether the window watches the pool labelled worker-id=@worker_id. */
static gboolean
attached_to_worker (SluiceWindow *window,
                    const char   *worker_id)
{
  SluiceRemotePool *remote = sluice_run_controller_get_remote (sluice_window_get_run_controller (window));
  g_autofree char *label = remote != NULL ? sluice_remote_pool_dup_label (remote, "worker-id") : NULL;

  return g_strcmp0 (label, worker_id) == 0;
}

/* The running job lane-1's row (its lease owner, its key) opens the
 * worker's pool in the window's lanes, the job's item selected: of the
 * worker's two running jobs, that one. */
static void
test_running_job_opens_in_its_workers_lanes (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  g_autofree char *label = NULL;
  g_autofree char *key = NULL;
  Worker w;

  worker_start (&w);
  g_assert_cmpint (selected_item (window), ==, -1);

  activate_attach_worker (window, WORKER_ID, "lane-1");
  SLUICE_TEST_SPIN_UNTIL (selected_item (window) >= 0);

  g_assert_nonnull (sluice_run_controller_get_remote (run));
  label = sluice_remote_pool_dup_label (sluice_run_controller_get_remote (run), "worker-id");
  g_assert_cmpstr (label, ==, WORKER_ID);
  g_assert_true (sluice_window_get_running (window));
  key = operation_key_of_item (window, selected_item (window));
  g_assert_cmpstr (key, ==, "lane-1");

  worker_clear (&w);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (run) == NULL);
  window_fixture_close (window);
}

/* Watching one worker's lanes, a row of another worker's running job
 * moves the window to that worker's pool, its job selected. */
static void
test_another_workers_job_moves_the_window (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  g_autofree char *key = NULL;
  Worker first, second;

  worker_start (&first);
  worker_start_beside (&second, &first, "w-other");
  g_assert_cmpstr (second.started_key, ==, "other-0");

  activate_attach_worker (window, WORKER_ID, "lane-0");
  SLUICE_TEST_SPIN_UNTIL (selected_item (window) >= 0);
  key = operation_key_of_item (window, selected_item (window));
  g_assert_cmpstr (key, ==, "lane-0");
  g_clear_pointer (&key, g_free);

  activate_attach_worker (window, "w-other", "other-0");
  SLUICE_TEST_SPIN_UNTIL (attached_to_worker (window, "w-other") && selected_item (window) >= 0);
  key = operation_key_of_item (window, selected_item (window));
  g_assert_cmpstr (key, ==, "other-0");
  g_assert_true (sluice_window_get_running (window));

  worker_stop (&second);
  worker_clear (&first);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (run) == NULL);
  window_fixture_close (window);
}

/* A lease owner no pool on the bus is labelled with: the banner says so,
 * and the window stays the playground. */
static void
test_unknown_worker_says_so_in_the_banner (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceRunController *run = sluice_window_get_run_controller (window);
  const char *before = sluice_window_get_banner (window);
  g_autofree char *first = g_strdup (before);
  Worker w;

  worker_start (&w);
  activate_attach_worker (window, "w-nobody", "lane-0");
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (sluice_window_get_banner (window), first) != 0);

  g_assert_nonnull (strstr (sluice_window_get_banner (window), "w-nobody"));
  g_assert_nonnull (strstr (sluice_window_get_banner (window), "SLUICE_MONITOR=session"));
  g_assert_null (sluice_run_controller_get_remote (run));
  g_assert_false (sluice_window_get_running (window));
  g_assert_cmpint (selected_item (window), ==, -1);

  worker_clear (&w);
  window_fixture_close (window);
}

/* The worker's pool is there, but its events never pulled the job (it
 * finished, or another worker has it): attached, nothing selected, and the
 * banner says so. */
static void
test_job_the_worker_never_ran_says_so (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  Worker w;

  worker_start (&w);
  activate_attach_worker (window, WORKER_ID, "lane-9");
  SLUICE_TEST_SPIN_UNTIL (strstr (sluice_window_get_banner (window), "lane-9") != NULL);

  g_assert_true (attached_to_worker (window, WORKER_ID));
  g_assert_nonnull (strstr (sluice_window_get_banner (window), WORKER_ID));
  g_assert_cmpint (selected_item (window), ==, -1);

  worker_clear (&w);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (sluice_window_get_run_controller (window)) == NULL);
  window_fixture_close (window);
}

/* The row of @key in @page's list, or -1 while it is not read. */
static int
row_of_key (SluiceStoreJobsPage *page,
            const char          *key)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (sluice_store_jobs_page_get_selection (page)));

  for (guint row = 0; row < n; row++)
    {
      g_autofree char *cell = sluice_store_jobs_page_dup_cell (page, row, SLUICE_STORE_JOBS_COLUMN_KEY);

      if (g_strcmp0 (cell, key) == 0)
        return (int) row;
    }
  return -1;
}

/* As a person does it: the store window opened from the playground, the
 * running job's detail, "Watch Live": the playground attaches to the
 * job's worker and selects its attempt. */
static void
test_watch_live_from_the_store_window (void)
{
  SluiceWindow *window = window_fixture_open ("first-look");
  SluiceStoreWindow *store;
  SluiceStoreJobsPage *page;
  SluiceStoreJobDetail *detail;
  g_autofree char *key = NULL;
  Worker w;

  worker_start (&w);
  store = sluice_window_open_store (window, w.uri);
  page = SLUICE_STORE_JOBS_PAGE (sluice_store_window_get_jobs_page (store));
  SLUICE_TEST_SPIN_UNTIL (row_of_key (page, "lane-1") >= 0 && !sluice_store_jobs_page_get_busy (page));
  sluice_store_jobs_page_show_job (page, (guint) row_of_key (page, "lane-1"));
  detail = sluice_store_jobs_page_get_detail (page);
  SLUICE_TEST_SPIN_UNTIL (!sluice_store_job_detail_get_loading (detail));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (detail), "job.watch-live", NULL));

  SLUICE_TEST_SPIN_UNTIL (selected_item (window) >= 0);
  g_assert_true (attached_to_worker (window, WORKER_ID));
  key = operation_key_of_item (window, selected_item (window));
  g_assert_cmpstr (key, ==, "lane-1");

  gtk_window_destroy (GTK_WINDOW (store));
  worker_clear (&w);
  SLUICE_TEST_SPIN_UNTIL (sluice_run_controller_get_remote (sluice_window_get_run_controller (window)) == NULL);
  window_fixture_close (window);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *daemon = g_find_program_in_path ("dbus-daemon");
  int status;

  g_setenv ("SLUICE_MONITOR", "", TRUE);
  if (daemon != NULL)
    {
      /* Before GTK: nothing may take the session bus before it is ours.
       * GTestDBus unsets DISPLAY: the window needs Xvfb's back. */
      g_autofree char *display = g_strdup (g_getenv ("DISPLAY"));

      test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
      g_test_dbus_up (test_bus);
      if (display != NULL)
        g_setenv ("DISPLAY", display, TRUE);
    }

  gtk_test_init (&argc, &argv, NULL);

  if (daemon != NULL)
    {
      g_test_add_func ("/window/attach-worker/running-job-opens-in-its-workers-lanes",
                       test_running_job_opens_in_its_workers_lanes);
      g_test_add_func ("/window/attach-worker/another-workers-job-moves-the-window",
                       test_another_workers_job_moves_the_window);
      g_test_add_func ("/window/attach-worker/job-the-worker-never-ran-says-so",
                       test_job_the_worker_never_ran_says_so);
      g_test_add_func ("/window/attach-worker/watch-live-from-the-store-window", test_watch_live_from_the_store_window);
      g_test_add_func ("/window/attach-worker/unknown-worker-says-so-in-the-banner",
                       test_unknown_worker_says_so_in_the_banner);
    }
  else
    g_test_message ("no dbus-daemon: nothing runs");

  status = g_test_run ();

  if (test_bus != NULL)
    {
      g_test_dbus_down (test_bus);
      g_clear_object (&test_bus);
    }
  return status;
}
