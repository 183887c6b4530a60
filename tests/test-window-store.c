/* test-window-store.c: the app's Store view: one job store's jobs by state
 * and its last failures, live (docs/job-store.md, "The app")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The stores are real: a SQLite file in a temporary folder, and with
 * SLUICE_TEST_PG_URI set (scripts/test starts a throw-away server with
 * tests/pg-server.sh) the PostgreSQL server it names. The jobs are made
 * through the store API with the tests' own times. The window reads its
 * store once a second of the wall clock: it watches other processes'
 * work. So the waits turn the main context until the window shows what
 * they wait for, never sleep; the wall clock only bounds them
 * (window_fixture_add_timeout()), so that a broken case fails instead of
 * hanging.
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "sluice-store-dialog.h"
#include "sluice-store-window.h"
#include "store-fixture.h"
#include "test-helpers.h"
#include "window-fixture.h"

/* 2023-11-14 22:13:20 UTC: the jobs' times, in µs. */
#define T0 G_GINT64_CONSTANT (1700000000000000)
#define SECOND G_GINT64_CONSTANT (1000000)
#define LEASE (3600 * SECOND)

/* ---- the store, synchronously -------------------------------------------- */

typedef struct {
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
}

static GAsyncResult *
wait_for (Wait *wait)
{
  SLUICE_TEST_SPIN_UNTIL (wait->result != NULL);
  return wait->result;
}

static void
enqueue (SluiceJobStore *store,
         const char     *tenant,
         const char     *key,
         guint           max_attempts,
         gint64          now)
{
  Wait wait = { NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  gboolean created = FALSE;

  sluice_job_store_enqueue_async (store, tenant, key, "{\"n\": 1}", max_attempts, now, NULL, on_done, &wait);
  job = sluice_job_store_enqueue_finish (store, wait_for (&wait), &created, &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_true (created);
}

static SluiceJobClaim *
claim (SluiceJobStore *store,
       const char     *tenant,
       const char     *key,
       gint64          now)
{
  Wait wait = { NULL };
  g_autoptr(GError) error = NULL;
  SluiceJobClaim *c;

  sluice_job_store_claim_next_async (store, tenant, "test-worker", LEASE, now, NULL, on_done, &wait);
  c = sluice_job_store_claim_next_finish (store, wait_for (&wait), &error);
  g_clear_object (&wait.result);
  g_assert_no_error (error);
  g_assert_nonnull (c);
  /* The fixture claims a job right after making it: the one claimable. */
  g_assert_cmpstr (c->job->operation_key, ==, key);
  return c;
}

static void
complete (SluiceJobStore       *store,
          const SluiceJobClaim *c,
          gint64                now)
{
  Wait wait = { NULL };
  g_autoptr(GError) error = NULL;

  sluice_job_store_complete_async (store, c, "{\"ok\": true}", now, NULL, on_done, &wait);
  g_assert_true (sluice_job_store_complete_finish (store, wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_no_error (error);
}

static void
fail (SluiceJobStore       *store,
      const SluiceJobClaim *c,
      const char           *type_name,
      const char           *message,
      const char           *code,
      gint64                available_at,
      gint64                now)
{
  Wait wait = { NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new (type_name, message, code, available_at >= 0);

  sluice_job_store_fail_async (store, c, failure, available_at, now, NULL, on_done, &wait);
  g_assert_true (sluice_job_store_fail_finish (store, wait_for (&wait), &error));
  g_clear_object (&wait.result);
  g_assert_no_error (error);
}

/* Jobs of @tenant in every state: 2 pending, 1 running, 1 retry_wait, 3
 * succeeded (one after a failure), 2 dead; the failures, newest first:
 * flaky (succeeded at T0+28 after a failure), dead-2 (T0+20), dead-1
 * (T0+12), retry-1 (T0+9). */
static void
fill_store (SluiceJobStore *store,
            const char     *tenant)
{
  g_autoptr(SluiceJobClaim) ok1 = NULL, ok2 = NULL, retry1 = NULL, dead1 = NULL, dead2 = NULL;
  g_autoptr(SluiceJobClaim) flaky1 = NULL, flaky2 = NULL, run1 = NULL;

  enqueue (store, tenant, "ok-1", 3, T0 + 1 * SECOND);
  ok1 = claim (store, tenant, "ok-1", T0 + 2 * SECOND);
  complete (store, ok1, T0 + 3 * SECOND);

  enqueue (store, tenant, "ok-2", 3, T0 + 4 * SECOND);
  ok2 = claim (store, tenant, "ok-2", T0 + 5 * SECOND);
  complete (store, ok2, T0 + 6 * SECOND);

  /* Its retry is due far later than any claim here. */
  enqueue (store, tenant, "retry-1", 3, T0 + 7 * SECOND);
  retry1 = claim (store, tenant, "retry-1", T0 + 8 * SECOND);
  fail (store, retry1, "TimeoutError", "attempt 1 timed out", "ATTEMPT_TIMEOUT", T0 + 3600 * SECOND, T0 + 9 * SECOND);

  enqueue (store, tenant, "dead-1", 3, T0 + 10 * SECOND);
  dead1 = claim (store, tenant, "dead-1", T0 + 11 * SECOND);
  fail (store, dead1, "ValueError", "bad input", "BAD_INPUT", -1, T0 + 12 * SECOND);

  enqueue (store, tenant, "dead-2", 1, T0 + 13 * SECOND);
  dead2 = claim (store, tenant, "dead-2", T0 + 14 * SECOND);
  fail (store, dead2, "TimeoutError", "out of attempts", "ATTEMPT_TIMEOUT", -1, T0 + 20 * SECOND);

  /* Failed, retried at once, then succeeded: its failure stays. */
  enqueue (store, tenant, "flaky", 3, T0 + 21 * SECOND);
  flaky1 = claim (store, tenant, "flaky", T0 + 22 * SECOND);
  fail (store, flaky1, "ConnectionError", "the peer reset the connection", "CONNECTION_RESET",
        T0 + 25 * SECOND, T0 + 23 * SECOND);
  flaky2 = claim (store, tenant, "flaky", T0 + 26 * SECOND);
  complete (store, flaky2, T0 + 28 * SECOND);

  enqueue (store, tenant, "run-1", 3, T0 + 30 * SECOND);
  run1 = claim (store, tenant, "run-1", T0 + 31 * SECOND);

  enqueue (store, tenant, "wait-1", 3, T0 + 32 * SECOND);
  enqueue (store, tenant, "wait-2", 3, T0 + 33 * SECOND);
}

static char *
temp_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("sluice-store-window-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

/* ---- the window ---------------------------------------------------------- */

/* A window of its own on @uri, shown, with a reference the test gives
 * back to close_window(). */
static SluiceStoreWindow *
open_window (const char *uri,
             const char *tenant)
{
  SluiceStoreWindow *window = g_object_ref (sluice_store_window_new (NULL, NULL, uri));

  if (tenant != NULL)
    sluice_store_window_set_tenant (window, tenant);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* Destroys @window and checks that nothing (a read in flight, the store,
 * its timeout) kept it alive. */
static void
close_window (SluiceStoreWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

static void
wait_for_update_after (SluiceStoreWindow *window,
                       guint              n_updates)
{
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_n_updates (window) > n_updates);
}

static void
assert_counts (SluiceStoreWindow *window,
               const char        *pending,
               const char        *running,
               const char        *retry_wait,
               const char        *succeeded,
               const char        *dead)
{
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_PENDING), ==, pending);
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_RUNNING), ==, running);
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_RETRY_WAIT), ==, retry_wait);
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_SUCCEEDED), ==, succeeded);
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_DEAD), ==, dead);
}

static void
assert_cell (SluiceStoreWindow *window,
             guint              row,
             SluiceStoreColumn  column,
             const char        *expected)
{
  g_autofree char *text = sluice_store_window_dup_cell (window, row, column);

  g_assert_cmpstr (text, ==, expected);
}

/* The failures of fill_store(), newest first, with what each row says. */
static void
assert_failures (SluiceStoreWindow *window,
                 const char        *tenant)
{
  g_autofree char *short_id = NULL;

  g_assert_cmpuint (sluice_store_window_get_n_failures (window), ==, 4);
  assert_cell (window, 0, SLUICE_STORE_COLUMN_OPERATION, "flaky");
  assert_cell (window, 1, SLUICE_STORE_COLUMN_OPERATION, "dead-2");
  assert_cell (window, 2, SLUICE_STORE_COLUMN_OPERATION, "dead-1");
  assert_cell (window, 3, SLUICE_STORE_COLUMN_OPERATION, "retry-1");
  g_assert_null (sluice_store_window_dup_cell (window, 4, SLUICE_STORE_COLUMN_OPERATION));

  assert_cell (window, 0, SLUICE_STORE_COLUMN_STATE, "succeeded");
  assert_cell (window, 0, SLUICE_STORE_COLUMN_ATTEMPTS, "2/3");
  assert_cell (window, 0, SLUICE_STORE_COLUMN_TYPE, "ConnectionError");
  assert_cell (window, 0, SLUICE_STORE_COLUMN_CODE, "CONNECTION_RESET");
  assert_cell (window, 0, SLUICE_STORE_COLUMN_MESSAGE, "the peer reset the connection");
  assert_cell (window, 0, SLUICE_STORE_COLUMN_TENANT, tenant);
  assert_cell (window, 1, SLUICE_STORE_COLUMN_STATE, "dead");
  assert_cell (window, 1, SLUICE_STORE_COLUMN_ATTEMPTS, "1/1");
  assert_cell (window, 1, SLUICE_STORE_COLUMN_MESSAGE, "out of attempts");
  assert_cell (window, 2, SLUICE_STORE_COLUMN_CODE, "BAD_INPUT");
  assert_cell (window, 3, SLUICE_STORE_COLUMN_STATE, "retry wait");
  assert_cell (window, 3, SLUICE_STORE_COLUMN_TYPE, "TimeoutError");

  /* The id, cut to eight characters of its UUID. */
  short_id = sluice_store_window_dup_cell (window, 0, SLUICE_STORE_COLUMN_JOB);
  g_assert_cmpuint (strlen (short_id), ==, 8);
  g_assert_cmpuint (strspn (short_id, "0123456789abcdef"), ==, 8);
}

/* Every text the window shows or would show on hovering: labels, entries,
 * tooltips, and its title. */
static void
collect_texts (GtkWidget *widget,
               GString   *texts)
{
  const char *tooltip = gtk_widget_get_tooltip_text (widget);

  if (GTK_IS_LABEL (widget))
    g_string_append_printf (texts, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  if (GTK_IS_EDITABLE (widget))
    g_string_append_printf (texts, "%s\n", gtk_editable_get_text (GTK_EDITABLE (widget)));
  if (tooltip != NULL)
    g_string_append_printf (texts, "%s\n", tooltip);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_texts (child, texts);
}

/* Whether @text is in a label, field or tooltip in @widget. */
static gboolean
shows_text (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(GString) texts = g_string_new (NULL);

  collect_texts (widget, texts);
  return strstr (texts->str, text) != NULL;
}

static char *
window_texts (GtkWindow *window)
{
  GString *texts = g_string_new (gtk_window_get_title (window));

  g_string_append_c (texts, '\n');
  collect_texts (GTK_WIDGET (window), texts);
  if (gtk_window_get_titlebar (window) != NULL)
    collect_texts (gtk_window_get_titlebar (window), texts);
  return g_string_free (texts, FALSE);
}

/* ---- SQLite -------------------------------------------------------------- */

static void
test_counts_and_failures_newest_first (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "jobs.db", NULL);
  g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (uri, &error);
  g_autofree char *texts = NULL;
  SluiceStoreWindow *window;
  guint n;

  g_assert_no_error (error);
  fill_store (store, "images");
  enqueue (store, "mail", "send-1", 3, T0 + 40 * SECOND);

  window = open_window (uri, NULL);
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_PENDING), ==, "–");
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  g_assert_null (sluice_store_window_get_error (window));
  /* Every tenant: the mail tenant's pending job too. */
  assert_counts (window, "3", "1", "1", "3", "2");
  assert_failures (window, "images");
  g_assert_cmpstr (sluice_store_window_get_description (window), ==, uri);
  texts = window_texts (GTK_WINDOW (window));
  g_assert_nonnull (strstr (texts, path));

  /* One tenant: its jobs only. The answer for every tenant that may be on
   * its way is not shown for it. */
  n = sluice_store_window_get_n_updates (window);
  sluice_store_window_set_tenant (window, "images");
  wait_for_update_after (window, n);
  assert_counts (window, "2", "1", "1", "3", "2");
  assert_failures (window, "images");

  n = sluice_store_window_get_n_updates (window);
  sluice_store_window_set_tenant (window, "mail");
  wait_for_update_after (window, n);
  assert_counts (window, "1", "0", "0", "0", "0");
  g_assert_cmpuint (sluice_store_window_get_n_failures (window), ==, 0);

  close_window (window);
  g_clear_object (&store);
  remove_dir (dir);
}

/* The window's pages are its stack's: Queues, Workers and Throughput read
 * the store at the window's pace (a tenant enqueued by another store
 * object shows on the Queues page at a refresh of the window) and follow
 * its projector mode; their reads feed the window's alerts. */
static void
test_fleet_pages_follow_the_window (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "jobs.db", NULL);
  g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) made = sluice_job_store_new_for_uri (uri, &error);
  g_autoptr(SluiceJobStore) other = NULL;
  const char * const names[] = { "queues", "workers", "throughput" };
  GtkStack *pages;
  GtkWidget *queues;
  SluiceStoreWindow *window;

  g_assert_no_error (error);
  window = open_window (uri, NULL);
  pages = sluice_store_window_get_pages (window);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GtkWidget *page = gtk_stack_get_child_by_name (pages, names[i]);
      gboolean projector = TRUE;

      g_assert_nonnull (page);
      g_object_get (page, "projector", &projector, NULL);
      g_assert_false (projector);
    }
  queues = gtk_stack_get_child_by_name (pages, "queues");
  gtk_stack_set_visible_child (pages, queues);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));

  other = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  enqueue (other, "billing-elsewhere", "late-1", 3, T0);
  SLUICE_TEST_SPIN_UNTIL (shows_text (queues, "billing-elsewhere"));

  /* A dead job more than at the read before is an alert (the first read
   * is the baseline: the window opened on no dead job). */
  g_assert_cmpuint (sluice_store_window_get_n_alerts (window), ==, 0);
  {
    g_autoptr(SluiceJobClaim) doomed = NULL;

    enqueue (other, "dead-letters", "doomed-1", 1, T0 + SECOND);
    doomed = claim (other, "dead-letters", "doomed-1", T0 + 2 * SECOND);
    fail (other, doomed, "ValueError", "bad input", "BAD_INPUT", -1, T0 + 3 * SECOND);
  }
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_n_alerts (window) == 1);

  sluice_store_window_set_projector (window, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      gboolean projector = FALSE;

      g_object_get (gtk_stack_get_child_by_name (pages, names[i]), "projector", &projector, NULL);
      g_assert_true (projector);
    }

  close_window (window);
  g_clear_object (&other);
  g_clear_object (&made);
  remove_dir (dir);
}

/* In projector mode, in every language, no page would have more than 1024
 * pixels: the Jobs page's toolbar in one row asked 1194 in German and
 * 1207 in Indonesian, and the window grew past a projector's screen. */
static void
test_pages_fit_1024_in_projector_mode (gconstpointer data)
{
  const SluiceTestLanguage *language = data;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) made = NULL;
  SluiceStoreWindow *window;
  GtkStack *pages;
  GtkCssProvider *css;

  if (!sluice_test_try_language (language->language))
    return;
  dir = temp_dir ();
  path = g_build_filename (dir, "jobs.db", NULL);
  uri = g_strconcat ("sqlite:", path, NULL);
  made = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  css = window_fixture_add_app_style ();
  window = open_window (uri, NULL);
  sluice_store_window_set_projector (window, TRUE);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  pages = sluice_store_window_get_pages (window);
  for (GtkWidget *page = gtk_widget_get_first_child (GTK_WIDGET (pages)); page != NULL;
       page = gtk_widget_get_next_sibling (page))
    {
      gtk_stack_set_visible_child (pages, page);
      window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
      g_test_message ("%s shown: the window %d pixels wide", G_OBJECT_TYPE_NAME (page),
                      gtk_widget_get_width (GTK_WIDGET (window)));
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1024);
    }

  close_window (window);
  window_fixture_remove_app_style (css);
  g_clear_object (&made);
  remove_dir (dir);
  sluice_test_set_language ("");
}

static void
test_enqueue_elsewhere_shows_at_next_refresh (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "jobs.db", NULL);
  g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) made = sluice_job_store_new_for_uri (uri, &error);
  g_autoptr(SluiceJobStore) other = NULL;
  SluiceStoreWindow *window;
  guint n;

  g_assert_no_error (error);
  window = open_window (uri, NULL);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  assert_counts (window, "0", "0", "0", "0", "0");
  g_assert_cmpuint (sluice_store_window_get_n_failures (window), ==, 0);

  /* Another store object on the file, as another process would have: its
   * "jobs-available" does not reach the window's store, the next read
   * shows the job. */
  other = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  n = sluice_store_window_get_n_updates (window);
  enqueue (other, "images", "late-1", 3, T0);
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_PENDING), "1") == 0);
  g_assert_cmpuint (sluice_store_window_get_n_updates (window), >, n);

  close_window (window);
  g_clear_object (&other);
  g_clear_object (&made);
  remove_dir (dir);
}

static void
test_not_a_store_names_the_file (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *texts = NULL;
  g_autofree char *before = NULL, *after = NULL;
  SluiceStoreWindow *window;

  g_file_set_contents (path, "These are my notes, not a database.\nLine two.\n" "0123456789abcdef\n"
                             "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", -1, &error);
  g_assert_no_error (error);
  g_file_get_contents (path, &before, NULL, NULL);

  window = open_window (uri, NULL);
  wait_for_update_after (window, 0);
  g_assert_false (sluice_store_window_get_has_status (window));
  g_assert_nonnull (sluice_store_window_get_error (window));
  g_test_message ("the banner: %s", sluice_store_window_get_error (window));
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), path));
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_DEAD), ==, "–");
  /* In the banner, shown. */
  texts = window_texts (GTK_WINDOW (window));
  g_assert_nonnull (strstr (texts, sluice_store_window_get_error (window)));

  /* It keeps trying, and says so each time. */
  wait_for_update_after (window, 1);
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), path));

  close_window (window);
  g_file_get_contents (path, &after, NULL, NULL);
  g_assert_cmpstr (after, ==, before);
  remove_dir (dir);
}

static void
test_missing_file_not_made_then_found (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "later.db", NULL);
  g_autofree char *uri = g_strconcat ("sqlite://", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  SluiceStoreWindow *window;

  window = open_window (uri, NULL);
  wait_for_update_after (window, 0);
  g_assert_false (sluice_store_window_get_has_status (window));
  g_test_message ("the banner: %s", sluice_store_window_get_error (window));
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), path));
  /* A viewer makes no store. */
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* A worker makes it: the window opens it at its next try. */
  store = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  enqueue (store, "images", "first", 3, T0);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  g_assert_null (sluice_store_window_get_error (window));
  assert_counts (window, "1", "0", "0", "0", "0");

  close_window (window);
  g_clear_object (&store);
  remove_dir (dir);
}

static void
test_no_kind_of_store_is_not_tried_again (void)
{
  SluiceStoreWindow *window = open_window ("mysql://root:hunter2@localhost/jobs", NULL);
  g_autofree char *texts = NULL;

  wait_for_update_after (window, 0);
  g_test_message ("the banner: %s", sluice_store_window_get_error (window));
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), "sqlite:FILE"));
  g_assert_null (strstr (sluice_store_window_get_error (window), "trying again"));
  texts = window_texts (GTK_WINDOW (window));
  g_assert_null (strstr (texts, "hunter2"));
  close_window (window);
}

/* ---- secrets ------------------------------------------------------------- */

/* A server that refuses the connection at once (port 1 of this machine):
 * the store's error, with the URI's passwords, must not reach the
 * window's texts. */
static void
test_password_never_shown (void)
{
  const char *uri = "postgresql://watcher:s3cr3t-pw@127.0.0.1:1/jobs?password=other-s3cr3t&connect_timeout=5";
  SluiceStoreWindow *window = open_window (uri, NULL);
  g_autofree char *texts = NULL;

  g_assert_null (strstr (sluice_store_window_get_description (window), "s3cr3t"));
  g_assert_nonnull (strstr (sluice_store_window_get_description (window), "***"));
  wait_for_update_after (window, 0);
  g_assert_false (sluice_store_window_get_has_status (window));
  g_assert_nonnull (sluice_store_window_get_error (window));
  g_test_message ("the banner: %s", sluice_store_window_get_error (window));

  texts = window_texts (GTK_WINDOW (window));
  g_assert_nonnull (strstr (texts, "watcher"));
  g_assert_nonnull (strstr (texts, sluice_store_window_get_error (window)));
  g_assert_null (strstr (texts, "s3cr3t"));

  close_window (window);
}

/* A server that takes the connection and never answers: after 5 s of
 * the wall clock the banner says the store has not answered (the counts
 * shown would be older than they look); once the connection breaks, the
 * store's error replaces it. */
static gboolean
on_incoming (GSocketService    *service,
             GSocketConnection *connection,
             GObject           *source_object,
             gpointer           user_data)
{
  g_ptr_array_add (user_data, g_object_ref (connection));
  return TRUE;
}

static void
test_silent_server_said_in_banner (void)
{
  g_autoptr(GSocketService) service = g_socket_service_new ();
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GPtrArray) connections = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;
  SluiceStoreWindow *window;

  g_socket_listener_add_address (G_SOCKET_LISTENER (service), address, G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_TCP, NULL, &bound, &error);
  g_assert_no_error (error);
  g_signal_connect (service, "incoming", G_CALLBACK (on_incoming), connections);
  g_socket_service_start (service);
  uri = g_strdup_printf ("postgresql://watcher@127.0.0.1:%u/jobs",
                         g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));

  window = open_window (uri, NULL);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_error (window) != NULL);
  g_test_message ("the banner: %s", sluice_store_window_get_error (window));
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), "has not answered"));
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), uri));
  g_assert_false (sluice_store_window_get_has_status (window));
  g_assert_cmpuint (connections->len, >, 0);

  /* The server goes: the store's own error. */
  g_socket_service_stop (service);
  g_socket_listener_close (G_SOCKET_LISTENER (service));
  for (guint i = 0; i < connections->len; i++)
    g_io_stream_close (g_ptr_array_index (connections, i), NULL, NULL);
  SLUICE_TEST_SPIN_UNTIL (strstr (sluice_store_window_get_error (window), "has not answered") == NULL);
  g_test_message ("then: %s", sluice_store_window_get_error (window));
  g_assert_nonnull (strstr (sluice_store_window_get_error (window), "trying again"));

  close_window (window);
}

/* ---- PostgreSQL ---------------------------------------------------------- */

static void
test_pg_counts_and_failures (void)
{
  const char *base_uri = g_getenv ("SLUICE_TEST_PG_URI");
  g_autofree char *tenant = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  SluiceStoreWindow *window;

  if (base_uri == NULL || *base_uri == '\0')
    {
      g_test_skip ("SLUICE_TEST_PG_URI is not set: no PostgreSQL server to test with (scripts/test starts one)");
      return;
    }

  /* The server's database is shared with other tests: a tenant of this
   * case's own. */
  tenant = g_strdup_printf ("store-window-%d-%" G_GINT64_FORMAT, (int) getpid (), g_get_real_time ());
  store = sluice_job_store_new_for_uri (base_uri, &error);
  g_assert_no_error (error);
  fill_store (store, tenant);

  window = open_window (base_uri, tenant);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  g_assert_null (sluice_store_window_get_error (window));
  assert_counts (window, "2", "1", "1", "3", "2");
  assert_failures (window, tenant);

  /* An enqueue through another store: NOTIFY, or the next read. */
  enqueue (store, tenant, "late-1", 3, T0 + 50 * SECOND);
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_PENDING), "3") == 0);

  close_window (window);
}

/* A PostgreSQL user who may read the jobs but not write them: the store
 * opens for writing without error, and the window asks whether it may
 * write (WRITABLE): it is read-only, its actions hidden, not failing. */
static void
test_pg_reader_sees_no_actions (void)
{
  g_autofree char *dir = NULL, *path = NULL, *schema = NULL, *uri = NULL;
  g_autofree char *role = NULL, *grant = NULL, *drop = NULL, *reader_uri = NULL;
  g_autoptr(GRegex) user = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) made = NULL;
  SluiceStoreWindow *window;

  if (!store_fixture_pg_available ())
    {
      g_test_skip ("SLUICE_TEST_PG_URI is not set: no PostgreSQL server to test with (scripts/test starts one)");
      return;
    }
  uri = store_fixture_new_place (FALSE, "window", &dir, &path, &schema);
  made = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  enqueue (made, "images", "only-1", 3, T0);
  role = g_strdup_printf ("sluice_window_reader_%d", (int) getpid ());
  grant = g_strdup_printf ("CREATE ROLE %s LOGIN; GRANT USAGE ON SCHEMA %s TO %s;"
                           " GRANT SELECT ON ALL TABLES IN SCHEMA %s TO %s", role, schema, role, schema, role);
  drop = g_strdup_printf ("DROP OWNED BY %s; DROP ROLE %s", role, role);
  store_fixture_pg_exec (grant);
  user = g_regex_new ("user=[^&]*", 0, 0, NULL);
  g_assert_nonnull (strstr (uri, "user="));
  {
    g_autofree char *replacement = g_strdup_printf ("user=%s", role);

    reader_uri = g_regex_replace_literal (user, uri, -1, 0, replacement, 0, NULL);
  }

  window = open_window (reader_uri, NULL);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window) && sluice_store_window_get_read_only (window));
  g_assert_null (sluice_store_window_get_error (window));

  close_window (window);
  g_clear_object (&made);
  store_fixture_pg_exec (drop);
  store_fixture_remove_place (dir, schema);
}

/* ---- Open Job Store… ----------------------------------------------------- */

static void
test_parse_uri (void)
{
  static const struct {
    const char *text;
    const char *uri;    /* NULL: refused */
  } cases[] = {
    { "sqlite:/var/lib/jobs.db", "sqlite:/var/lib/jobs.db" },
    { "  sqlite:///tmp/jobs.db ", "sqlite:///tmp/jobs.db" },
    { "SQLite:jobs.db", "SQLite:jobs.db" },
    { "postgresql://user:pw@db.example/jobs", "postgresql://user:pw@db.example/jobs" },
    { "postgres:///jobs?host=/tmp", "postgres:///jobs?host=/tmp" },
    { "/var/lib/jobs.db", "sqlite:/var/lib/jobs.db" },
    { "jobs.db", "sqlite:jobs.db" },
    { "", NULL },
    { "   ", NULL },
    { "sqlite:", NULL },
    { "mysql://root:pw@localhost/jobs", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *uri = sluice_store_dialog_parse_uri (cases[i].text, &error);

      g_assert_cmpstr (uri, ==, cases[i].uri);
      if (cases[i].uri == NULL)
        g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      else
        g_assert_no_error (error);
    }

  /* The refusal of a URI does not print its password. */
  {
    g_autoptr(GError) error = NULL;
    g_autofree char *uri = sluice_store_dialog_parse_uri ("mysql://root:hunter2@localhost/jobs", &error);

    g_assert_null (uri);
    g_assert_null (strstr (error->message, "hunter2"));
  }
}

static SluiceStoreWindow *
find_store_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (SLUICE_IS_STORE_WINDOW (window))
        return SLUICE_STORE_WINDOW (window);
    }
  return NULL;
}

static SluiceStoreDialog *
find_store_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (SLUICE_IS_STORE_DIALOG (window))
        return SLUICE_STORE_DIALOG (window);
    }
  return NULL;
}

static void
test_open_store_action (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "jobs.db", NULL);
  g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (uri, &error);
  SluiceWindow *main_window = window_fixture_new ();
  SluiceStoreDialog *dialog;
  SluiceStoreWindow *window;

  g_assert_no_error (error);
  enqueue (store, "images", "a", 3, T0);
  g_assert_null (find_store_window ());

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (main_window), "win.open-store", NULL));
  dialog = find_store_dialog ();
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (main_window));

  /* Something else than a store: said in the dialog, which stays. */
  sluice_store_dialog_set_text (dialog, "mysql://localhost/jobs");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "store.open", NULL));
  g_assert_nonnull (sluice_store_dialog_get_error (dialog));
  g_assert_null (find_store_window ());
  g_assert_true (find_store_dialog () == dialog);

  /* A file name: the SQLite store in it. */
  sluice_store_dialog_set_text (dialog, path);
  g_assert_null (sluice_store_dialog_get_error (dialog));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "store.open", NULL));
  g_assert_null (find_store_dialog ());
  window = find_store_window ();
  g_assert_nonnull (window);
  g_object_ref (window);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (window)) == GTK_WINDOW (main_window));
  g_assert_cmpstr (sluice_store_window_get_description (window), ==, uri);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  assert_counts (window, "1", "0", "0", "0", "0");

  /* Projector mode follows the playground's, both ways (F5 in either). */
  g_assert_false (sluice_store_window_get_projector (window));
  sluice_window_set_projector (main_window, TRUE);
  g_assert_true (sluice_store_window_get_projector (window));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "projector"));
  sluice_store_window_set_projector (window, FALSE);
  g_assert_false (sluice_window_get_projector (main_window));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "projector"));

  close_window (window);
  window_fixture_close (main_window);
  g_clear_object (&store);
  remove_dir (dir);
}

/* Closed while its store is opened on a thread and read: nothing keeps the
 * window alive, and the answers that come after it do nothing. */
static void
test_closed_while_reading (void)
{
  g_autofree char *dir = temp_dir ();
  g_autofree char *path = g_build_filename (dir, "jobs.db", NULL);
  g_autofree char *uri = g_strconcat ("sqlite:", path, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (uri, &error);
  SluiceStoreWindow *window;

  g_assert_no_error (error);
  window = open_window (uri, NULL);
  close_window (window);

  window = open_window (uri, NULL);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  sluice_store_window_set_tenant (window, "images");
  close_window (window);

  /* The answers in flight arrive now, for no window. */
  for (guint i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
  g_clear_object (&store);
  remove_dir (dir);
}

/* ---- sluice --store ------------------------------------------------------ */

/* Whether the PNG @path has a pixel of exactly @rgb. */
static gboolean
png_has_color (const char *path,
               guint32     rgb)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  int width, height;
  g_autofree guchar *pixels = NULL;

  g_assert_no_error (error);
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      /* Cairo's ARGB32, native endian: B, G, R, A on x86. */
      const guint32 *p = (const guint32 *) (pixels + i * 4);

      if ((*p & 0xffffff) == rgb)
        return TRUE;
    }
  return FALSE;
}

/* `sluice --store URI --screenshot FILE.png` saves the window once the
 * store answered: 0 with its status (the strip drawn in the light
 * palette's green of succeeded jobs), 1 when it could not be read (the
 * PNG shows why), 2 for a URI of no kind of store (its password not
 * printed). */
static void
test_command_line (void)
{
  g_autofree char *dir = NULL, *path = NULL, *uri = NULL, *png = NULL, *notes = NULL, *notes_uri = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  const guint32 light_ok = 0x009e73;

  if (g_getenv ("SLUICE_APP") == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }

  dir = temp_dir ();
  path = g_build_filename (dir, "jobs.db", NULL);
  uri = g_strconcat ("sqlite:", path, NULL);
  png = g_build_filename (dir, "store.png", NULL);
  store = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  fill_store (store, "images");

  {
    const char * const args[] = { "--store", uri, "--screenshot", png, NULL };

    g_assert_cmpint (window_fixture_run_app (args, &err), ==, 0);
    texture = gdk_texture_new_from_filename (png, &error);
    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (texture), >=, 900);
    g_assert_true (png_has_color (png, light_ok));
    g_clear_pointer (&err, g_free);
    g_unlink (png);
  }

  notes = g_build_filename (dir, "notes.txt", NULL);
  notes_uri = g_strconcat ("sqlite:", notes, NULL);
  g_file_set_contents (notes, "Notes, not a database: they are long enough for SQLite to read a header.\n", -1,
                       &error);
  g_assert_no_error (error);
  {
    const char * const args[] = { "--store", notes_uri, "--screenshot", png, NULL };

    g_assert_cmpint (window_fixture_run_app (args, &err), ==, 1);
    g_assert_nonnull (strstr (err, notes));
    g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
    g_clear_pointer (&err, g_free);
  }

  {
    const char * const args[] = { "--store", "mysql://root:hunter2@localhost/jobs", NULL };

    g_assert_cmpint (window_fixture_run_app (args, &err), ==, 2);
    g_assert_nonnull (strstr (err, "sqlite:FILE"));
    g_assert_null (strstr (err, "hunter2"));
    g_clear_pointer (&err, g_free);
  }

  {
    const char * const args[] = { "--store", uri, "--preset", "ok", NULL };

    g_assert_cmpint (window_fixture_run_app (args, &err), ==, 2);
    g_clear_pointer (&err, g_free);
  }

  g_clear_object (&store);
  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/store/counts-and-failures-newest-first", test_counts_and_failures_newest_first);
  g_test_add_func ("/window/store/fleet-pages-follow-the-window", test_fleet_pages_follow_the_window);
  g_test_add_data_func ("/window/store/pages-fit-1024-in-projector-mode/en", &sluice_test_languages[0],
                        test_pages_fit_1024_in_projector_mode);
  g_test_add_data_func ("/window/store/pages-fit-1024-in-projector-mode/de", &sluice_test_languages[1],
                        test_pages_fit_1024_in_projector_mode);
  g_test_add_data_func ("/window/store/pages-fit-1024-in-projector-mode/id", &sluice_test_languages[2],
                        test_pages_fit_1024_in_projector_mode);
  g_test_add_func ("/window/store/enqueue-elsewhere-shows-at-next-refresh",
                   test_enqueue_elsewhere_shows_at_next_refresh);
  g_test_add_func ("/window/store/not-a-store-names-the-file", test_not_a_store_names_the_file);
  g_test_add_func ("/window/store/missing-file-not-made-then-found", test_missing_file_not_made_then_found);
  g_test_add_func ("/window/store/no-kind-of-store-not-tried-again", test_no_kind_of_store_is_not_tried_again);
  g_test_add_func ("/window/store/password-never-shown", test_password_never_shown);
  g_test_add_func ("/window/store/silent-server-said-in-banner", test_silent_server_said_in_banner);
  g_test_add_func ("/window/store/postgresql-counts-and-failures", test_pg_counts_and_failures);
  g_test_add_func ("/window/store/postgresql-reader-sees-no-actions", test_pg_reader_sees_no_actions);
  g_test_add_func ("/window/store/parse-uri", test_parse_uri);
  g_test_add_func ("/window/store/open-store-action", test_open_store_action);
  g_test_add_func ("/window/store/closed-while-reading", test_closed_while_reading);
  g_test_add_func ("/window/store/command-line", test_command_line);

  return g_test_run ();
}
