/* test-window-store-jobs.c: the store window's Jobs page and Job detail
 * (docs/store-admin.md, "The store window" and "Open in Playground")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The store is a real SQLite file (tests/store-fixture.c makes its place),
 * its jobs enqueued, claimed and failed through the store API with the
 * tests' own times. The page is driven as a person would: its buttons
 * activated (found by their labels), its keys' shortcuts, the question's
 * button. The page's reads and changes are asynchronous: the waits turn
 * the main context until the page is no longer busy (bounded by
 * SLUICE_TEST_SPIN_UNTIL's wall-clock guard), never sleep.
 */

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "sluice-run-controller.h"
#include "sluice-run-model.h"
#include "sluice-store-admin.h"
#include "sluice-store-job-detail.h"
#include "sluice-store-jobs-page.h"
#include "sluice-store-window.h"
#include "store-fixture.h"
#include "test-helpers.h"
#include "window-fixture.h"

/* 2023-11-14 22:13:20 UTC: the jobs' times, in µs. */
#define T0 G_GINT64_CONSTANT (1700000000000000)
#define SECOND G_GINT64_CONSTANT (1000000)
#define LEASE (3600 * SECOND)
/* More than the page's first page (100 jobs): some are not in view. */
#define N_MANY 105

/* ---- the store ------------------------------------------------------------ */

typedef struct {
  char           *dir;
  char           *uri;
  SluiceJobStore *store;
  char           *flaky_id;   /* dead after three failed attempts */
  char           *dead_id[2]; /* dead after one */
} Place;

static SluiceStoredJob *
enqueue (Place      *p,
         const char *tenant,
         const char *key,
         const char *payload,
         guint       max_attempts,
         gint64      now)
{
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;
  SluiceStoredJob *job = store_fixture_enqueue (p->store, tenant, key, payload, max_attempts, now, &created, &error);

  g_assert_no_error (error);
  g_assert_true (created);
  return job;
}

/* Claims the one claimable job of @tenant and fails it. */
static void
claim_and_fail (Place      *p,
                const char *tenant,
                const char *key,
                const char *message,
                gboolean    retry,
                gint64      now)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobClaim) c = store_fixture_claim (p->store, tenant, "worker-1", LEASE, now, &error);
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("ValueError", message, "BAD_INPUT", retry);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  g_assert_cmpstr (c->job->operation_key, ==, key);
  g_assert_true (store_fixture_fail (p->store, c, failure, retry ? now + SECOND : -1, now + SECOND / 2, &error));
  g_assert_no_error (error);
}

/* Tenant "web": ok-1 succeeded, flaky dead after three failed attempts,
 * dead-1 and dead-2 dead after one, then pending wait-42 ({"value": 42})
 * and wait-7 ({"value": 7}), newest. */
static void
fill (Place *p)
{
  g_autoptr(SluiceStoredJob) ok = enqueue (p, "web", "ok-1", "{\"value\": 1}", 3, T0);
  g_autoptr(SluiceJobClaim) c = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) flaky = NULL, dead1 = NULL, dead2 = NULL, w42 = NULL, w7 = NULL;

  c = store_fixture_claim (p->store, "web", "worker-1", LEASE, T0 + SECOND, &error);
  g_assert_no_error (error);
  g_assert_true (store_fixture_complete (p->store, c, "{}", T0 + 2 * SECOND, &error));
  g_assert_no_error (error);

  flaky = enqueue (p, "web", "flaky", "{\"value\": 3}", 3, T0 + 3 * SECOND);
  claim_and_fail (p, "web", "flaky", "attempt 1 failed", TRUE, T0 + 4 * SECOND);
  claim_and_fail (p, "web", "flaky", "attempt 2 failed", TRUE, T0 + 6 * SECOND);
  claim_and_fail (p, "web", "flaky", "attempt 3 failed", FALSE, T0 + 8 * SECOND);
  p->flaky_id = g_strdup (flaky->id);

  dead1 = enqueue (p, "web", "dead-1", "{\"value\": 5}", 1, T0 + 10 * SECOND);
  claim_and_fail (p, "web", "dead-1", "bad input", FALSE, T0 + 11 * SECOND);
  dead2 = enqueue (p, "web", "dead-2", "{\"value\": 6}", 1, T0 + 12 * SECOND);
  claim_and_fail (p, "web", "dead-2", "bad input", FALSE, T0 + 13 * SECOND);
  p->dead_id[0] = g_strdup (dead1->id);
  p->dead_id[1] = g_strdup (dead2->id);

  w42 = enqueue (p, "web", "wait-42", "{\"value\": 42}", 3, T0 + 14 * SECOND);
  w7 = enqueue (p, "web", "wait-7", "{\"value\": 7}", 3, T0 + 15 * SECOND);
}

static Place *
place_new (void)
{
  Place *p = g_new0 (Place, 1);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  p->uri = store_fixture_new_place (TRUE, "window-jobs", &p->dir, &path, NULL);
  p->store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  return p;
}

static void
place_free (Place *p)
{
  g_clear_object (&p->store);
  store_fixture_remove_place (p->dir, NULL);
  g_free (p->dir);
  g_free (p->uri);
  g_free (p->flaky_id);
  g_free (p->dead_id[0]);
  g_free (p->dead_id[1]);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Place, place_free)

static void
on_admin (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The state of the job @id in the store now, or -1 when there is none. */
static int
state_of (Place      *p,
          const char *id)
{
  g_autoptr(SluiceStoreAdminQuery) q = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_SHOW);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  GAsyncResult *result = NULL;

  q->ids = g_strdupv ((char *[]) { (char *) id, NULL });
  q->now = g_get_real_time ();
  sluice_store_admin_async (p->store, q, NULL, on_admin, &result);
  SLUICE_TEST_SPIN_UNTIL (result != NULL);
  reply = sluice_store_admin_finish (p->store, result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  return reply->jobs->len > 0 ? (int) ((SluiceStoredJob *) g_ptr_array_index (reply->jobs, 0))->state : -1;
}

static guint64
count_of (Place               *p,
          SluiceStoredJobState state)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreStatus) status = store_fixture_status (p->store, "web", 0, &error);

  g_assert_no_error (error);
  return status->counts[state];
}

/* ---- the window -------------------------------------------------------------- */

static SluiceStoreJobsPage *
jobs_page (SluiceStoreWindow *window)
{
  return SLUICE_STORE_JOBS_PAGE (sluice_store_window_get_jobs_page (window));
}

/* A window of its own on @p, on its Jobs page, once the first page of jobs
 * is read. */
static SluiceStoreWindow *
open_jobs (Place    *p,
           gboolean  read_only)
{
  SluiceStoreWindow *window = g_object_ref (sluice_store_window_new_full (NULL, NULL, p->uri, read_only));

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_window_present (GTK_WINDOW (window));
  gtk_stack_set_visible_child_name (sluice_store_window_get_pages (window), "jobs");
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_has_status (window));
  SLUICE_TEST_SPIN_UNTIL (!sluice_store_jobs_page_get_busy (jobs_page (window)) &&
                          g_list_model_get_n_items (G_LIST_MODEL (sluice_store_jobs_page_get_selection (jobs_page (window)))) > 0);
  return window;
}

static void
close_window (SluiceStoreWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

static guint
n_rows (SluiceStoreJobsPage *page)
{
  return g_list_model_get_n_items (G_LIST_MODEL (sluice_store_jobs_page_get_selection (page)));
}

static void
wait_idle (SluiceStoreJobsPage *page)
{
  /* One turn first: a change starts its read from an idle or a signal. */
  g_main_context_iteration (NULL, FALSE);
  SLUICE_TEST_SPIN_UNTIL (!sluice_store_jobs_page_get_busy (page));
}

static void
assert_cell (SluiceStoreJobsPage   *page,
             guint                  row,
             SluiceStoreJobsColumn  column,
             const char            *expected)
{
  g_autofree char *text = sluice_store_jobs_page_dup_cell (page, row, column);

  g_assert_cmpstr (text, ==, expected);
}

/* The row of the job whose key is @key, or G_MAXUINT. */
static guint
find_row (SluiceStoreJobsPage *page,
          const char          *key)
{
  for (guint i = 0; i < n_rows (page); i++)
    {
      g_autofree char *text = sluice_store_jobs_page_dup_cell (page, i, SLUICE_STORE_JOBS_COLUMN_KEY);

      if (g_strcmp0 (text, key) == 0)
        return i;
    }
  return G_MAXUINT;
}

/* The row of the job whose key is @key, or fails. */
static guint
row_of (SluiceStoreJobsPage *page,
        const char          *key)
{
  guint row = find_row (page, key);

  if (row == G_MAXUINT)
    g_error ("no row of %s", key);
  return row;
}

/* A button by its label as it reads (its mnemonic's underscore aside). */
static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  const char *own = GTK_IS_BUTTON (root) ? gtk_button_get_label (GTK_BUTTON (root))
                    : GTK_IS_CHECK_BUTTON (root) ? gtk_check_button_get_label (GTK_CHECK_BUTTON (root)) : NULL;

  if (own != NULL)
    {
      g_autoptr(GString) text = g_string_new (own);

      g_string_replace (text, "_", "", 0);
      if (g_str_equal (text->str, label))
        return root;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
click (GtkWidget  *root,
       const char *label)
{
  GtkWidget *button = find_button (root, label);

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  g_assert_true (gtk_widget_get_mapped (button));
  /* A button's keyboard activation shows it pressed for a moment and is
   * clicked after; a click is at once. */
  if (GTK_IS_BUTTON (button))
    g_signal_emit_by_name (button, "clicked");
  else
    g_assert_true (gtk_widget_activate (button));
}

/* The page's search field (not the one in the state drop-down's popover). */
static GtkWidget *
find_search_entry (GtkWidget *root)
{
  if (GTK_IS_SEARCH_ENTRY (root))
    return root;
  if (GTK_IS_DROP_DOWN (root))
    return NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_search_entry (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The question a change of more than one job asks, once it is shown. */
static GtkWindow *
find_question (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();  /* the windows', not ours */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (w) && gtk_window_get_transient_for (w) == parent && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static GtkWindow *
wait_for_question (SluiceStoreWindow *window)
{
  SLUICE_TEST_SPIN_UNTIL (find_question (GTK_WINDOW (window)) != NULL);
  return find_question (GTK_WINDOW (window));
}

static char *
question_text (GtkWindow *question)
{
  g_autofree char *text = NULL;

  g_object_get (question, "text", &text, NULL);
  return g_steal_pointer (&text);
}

/* The key @accel as the page's shortcuts take it (GTK has no public way to
 * make a key event: the shortcut the key triggers is activated). Returns
 * whether its action took it (an action that is off does not). */
static gboolean
press (GtkWidget  *widget,
       const char *accel)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_str_equal (trigger, accel))
            return gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                 gtk_shortcut_get_arguments (shortcut));
        }
    }
  g_error ("no shortcut %s", accel);
}

static void
select_rows (SluiceStoreJobsPage *page,
             const char          *key1,
             const char          *key2)
{
  GtkSelectionModel *selection = sluice_store_jobs_page_get_selection (page);

  /* The window's poll may be reading the list again after a change (other
   * counts): rows are selected once it is read, as a person would. A
   * selection then keeps the list as it is. */
  SLUICE_TEST_SPIN_UNTIL (!sluice_store_jobs_page_get_busy (page) && find_row (page, key1) != G_MAXUINT &&
                          (key2 == NULL || find_row (page, key2) != G_MAXUINT));
  g_assert_true (gtk_selection_model_select_item (selection, row_of (page, key1), TRUE));
  if (key2 != NULL)
    g_assert_true (gtk_selection_model_select_item (selection, row_of (page, key2), FALSE));
}

/* ---- the cases ---------------------------------------------------------------------- */

/* Jobs lists the store's jobs, newest first, in the columns that fit
 * 1024×768 (the others hidden there). */
static void
test_jobs_lists_newest_first_in_columns_that_fit (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;
  int minimum = 0;

  fill (p);
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  g_assert_cmpuint (n_rows (page), ==, 6);
  assert_cell (page, 0, SLUICE_STORE_JOBS_COLUMN_KEY, "wait-7");
  assert_cell (page, 0, SLUICE_STORE_JOBS_COLUMN_STATE, "pending");
  assert_cell (page, 0, SLUICE_STORE_JOBS_COLUMN_TENANT, "web");
  assert_cell (page, 5, SLUICE_STORE_JOBS_COLUMN_KEY, "ok-1");
  assert_cell (page, row_of (page, "flaky"), SLUICE_STORE_JOBS_COLUMN_ATTEMPTS, "3/3");
  assert_cell (page, row_of (page, "flaky"), SLUICE_STORE_JOBS_COLUMN_STATE, "dead");
  g_assert_null (sluice_store_jobs_page_dup_cell (page, 6, SLUICE_STORE_JOBS_COLUMN_KEY));

  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  for (guint c = 0; c < SLUICE_STORE_JOBS_N_ALWAYS; c++)
    g_assert_true (sluice_store_jobs_page_get_column_visible (page, c));
  for (guint c = SLUICE_STORE_JOBS_N_ALWAYS; c < SLUICE_STORE_JOBS_N_COLUMNS; c++)
    g_assert_false (sluice_store_jobs_page_get_column_visible (page, c));
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 1024);

  /* In projector mode (its text 1.6 times larger) too. */
  sluice_store_window_set_projector (window, TRUE);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 1024);
  for (guint c = 0; c < SLUICE_STORE_JOBS_N_ALWAYS; c++)
    g_assert_true (sluice_store_jobs_page_get_column_visible (page, c));
  sluice_store_window_set_projector (window, FALSE);

  /* Wide: the other columns too. */
  gtk_widget_set_size_request (GTK_WIDGET (window), 1400, -1);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_jobs_page_get_column_visible (page, SLUICE_STORE_JOBS_COLUMN_FAILURE));
  g_assert_true (sluice_store_jobs_page_get_column_visible (page, SLUICE_STORE_JOBS_COLUMN_ID));
  g_assert_true (sluice_store_jobs_page_get_column_visible (page, SLUICE_STORE_JOBS_COLUMN_LEASE));
  assert_cell (page, row_of (page, "dead-1"), SLUICE_STORE_JOBS_COLUMN_FAILURE, "ValueError: bad input");

  close_window (window);
}

/* The state filter and the search (a payload's `value:42`, a key) narrow
 * the list. */
static void
test_filter_by_state_and_search_narrow_the_list (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;
  GtkDropDown *states;
  GtkEditable *search;

  fill (p);
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  states = GTK_DROP_DOWN (window_fixture_find_widget (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN));
  search = GTK_EDITABLE (find_search_entry (GTK_WIDGET (page)));

  /* The first entry is every state, then the states in order. */
  gtk_drop_down_set_selected (states, 1 + SLUICE_STORED_JOB_DEAD);
  wait_idle (page);
  g_assert_cmpuint (n_rows (page), ==, 3);
  for (guint i = 0; i < 3; i++)
    assert_cell (page, i, SLUICE_STORE_JOBS_COLUMN_STATE, "dead");

  gtk_drop_down_set_selected (states, 0);
  gtk_editable_set_text (search, "value:42");
  SLUICE_TEST_SPIN_UNTIL (n_rows (page) == 1 && !sluice_store_jobs_page_get_busy (page));
  assert_cell (page, 0, SLUICE_STORE_JOBS_COLUMN_KEY, "wait-42");

  gtk_editable_set_text (search, "dead-");
  SLUICE_TEST_SPIN_UNTIL (n_rows (page) == 2 && !sluice_store_jobs_page_get_busy (page));
  assert_cell (page, 0, SLUICE_STORE_JOBS_COLUMN_KEY, "dead-2");
  assert_cell (page, 1, SLUICE_STORE_JOBS_COLUMN_KEY, "dead-1");

  close_window (window);
}

/* Jobs enqueued by another process show in the list at the window's next
 * read of the store; while rows are selected the list stays as it is. */
static void
test_list_follows_the_store_unless_rows_are_selected (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;
  guint updates;

  fill (p);
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  {
    g_autoptr(SluiceStoredJob) job = enqueue (p, "web", "new-1", "{}", 3, T0 + 20 * SECOND);
  }
  /* The window reads the store once a second of the wall clock (it
   * watches other processes): the wait is bounded by the spin's guard. */
  SLUICE_TEST_SPIN_UNTIL (n_rows (page) == 7 && !sluice_store_jobs_page_get_busy (page));
  assert_cell (page, 0, SLUICE_STORE_JOBS_COLUMN_KEY, "new-1");

  select_rows (page, "dead-1", NULL);
  {
    g_autoptr(SluiceStoredJob) job = enqueue (p, "web", "new-2", "{}", 3, T0 + 21 * SECOND);
  }
  updates = sluice_store_window_get_n_updates (window);
  SLUICE_TEST_SPIN_UNTIL (sluice_store_window_get_n_updates (window) > updates + 1);
  g_assert_cmpstr (sluice_store_window_get_count_text (window, SLUICE_STORED_JOB_PENDING), ==, "4");
  g_assert_cmpuint (n_rows (page), ==, 7);
  g_assert_true (gtk_selection_model_is_selected (sluice_store_jobs_page_get_selection (page), row_of (page, "dead-1")));

  close_window (window);
}

/* Two rows selected, Retry: asked first, nothing changed until the answer,
 * then both are pending. */
static void
test_retry_of_two_asks_then_retries_both (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;
  GtkWindow *question;
  g_autofree char *text = NULL;

  fill (p);
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  select_rows (page, "dead-1", "dead-2");
  click (GTK_WIDGET (page), "Retry");

  question = wait_for_question (window);
  text = question_text (question);
  g_assert_cmpstr (text, ==, "Retry 2 jobs?");
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpint (state_of (p, p->dead_id[1]), ==, SLUICE_STORED_JOB_DEAD);

  /* "Keep Them": nothing changes. */
  click (GTK_WIDGET (question), "Keep Them");
  wait_idle (page);
  g_assert_null (find_question (GTK_WINDOW (window)));
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpint (state_of (p, p->dead_id[1]), ==, SLUICE_STORED_JOB_DEAD);

  /* Asked again, and answered Retry. */
  click (GTK_WIDGET (page), "Retry");
  question = wait_for_question (window);
  click (GTK_WIDGET (question), "Retry");
  wait_idle (page);
  g_assert_null (find_question (GTK_WINDOW (window)));
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpint (state_of (p, p->dead_id[1]), ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpint (state_of (p, p->flaky_id), ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpstr (sluice_store_jobs_page_get_message (page), ==, "Retried 2 jobs");
  /* The list is read again: the rows say so. */
  assert_cell (page, row_of (page, "dead-1"), SLUICE_STORE_JOBS_COLUMN_STATE, "pending");

  close_window (window);
}

/* The Delete key discards the selected job (one: not asked). */
static void
test_delete_key_discards (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;

  fill (p);
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  select_rows (page, "dead-1", NULL);
  g_assert_true (press (GTK_WIDGET (page), "Delete"));
  wait_idle (page);
  g_assert_null (find_question (GTK_WINDOW (window)));
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, -1);
  g_assert_cmpint (state_of (p, p->dead_id[1]), ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpuint (n_rows (page), ==, 5);

  /* Ctrl+F goes to the search field. */
  g_assert_true (press (GTK_WIDGET (page), "<Control>f"));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), find_search_entry (GTK_WIDGET (page))));

  /* Ctrl+R retries, as the button does. */
  select_rows (page, "dead-2", NULL);
  g_assert_true (press (GTK_WIDGET (page), "<Control>r"));
  wait_idle (page);
  g_assert_cmpint (state_of (p, p->dead_id[1]), ==, SLUICE_STORED_JOB_PENDING);

  close_window (window);
}

/* Cancel: a pending job ends cancelled at once; a dead one is not one the
 * verb applies to, and the page says so. */
static void
test_cancel_of_a_pending_job (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;
  g_autoptr(SluiceStoredJob) pending = NULL;
  gboolean created = TRUE;
  g_autoptr(GError) error = NULL;

  fill (p);
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  select_rows (page, "wait-7", NULL);
  click (GTK_WIDGET (page), "Cancel Jobs");
  wait_idle (page);
  pending = store_fixture_enqueue (p->store, "web", "wait-7", "{}", 3, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_false (created);
  g_assert_cmpint (state_of (p, pending->id), ==, SLUICE_STORED_JOB_CANCELLED);
  g_assert_cmpstr (sluice_store_jobs_page_get_message (page), ==, "Cancelled 1 job");

  select_rows (page, "dead-1", NULL);
  click (GTK_WIDGET (page), "Cancel Jobs");
  wait_idle (page);
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpstr (sluice_store_jobs_page_get_message (page), ==, "No job here is in a state this applies to.");

  close_window (window);
}

/* "All matching this filter" retries every dead job, the ones not read
 * into the list too. */
static void
test_all_matching_retries_jobs_not_in_view (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;
  GtkWindow *question;
  g_autofree char *text = NULL;
  g_autofree char *expected = g_strdup_printf ("Retry %d jobs?", N_MANY);

  for (int i = 0; i < N_MANY; i++)
    {
      g_autofree char *key = g_strdup_printf ("dead-%03d", i);
      g_autoptr(SluiceStoredJob) job = enqueue (p, "web", key, "{}", 1, T0 + i * SECOND);

      claim_and_fail (p, "web", key, "bad input", FALSE, T0 + i * SECOND);
    }
  {
    g_autoptr(SluiceStoredJob) other = enqueue (p, "web", "waiting", "{}", 1, T0 + N_MANY * SECOND);
  }
  window = open_jobs (p, FALSE);
  page = jobs_page (window);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (window_fixture_find_widget (GTK_WIDGET (page), GTK_TYPE_DROP_DOWN)),
                              1 + SLUICE_STORED_JOB_DEAD);
  wait_idle (page);
  /* The first page only: the others are not in view. */
  g_assert_cmpuint (n_rows (page), <, N_MANY);

  click (GTK_WIDGET (page), "All matching the filter");
  click (GTK_WIDGET (page), "Retry");
  question = wait_for_question (window);
  text = question_text (question);
  g_assert_cmpstr (text, ==, expected);
  click (GTK_WIDGET (question), "Retry");
  wait_idle (page);

  g_assert_cmpuint (count_of (p, SLUICE_STORED_JOB_DEAD), ==, 0);
  g_assert_cmpuint (count_of (p, SLUICE_STORED_JOB_PENDING), ==, N_MANY + 1);
  g_assert_cmpuint (n_rows (page), ==, 0);

  close_window (window);
}

static SluiceStoreJobDetail *
show_detail (SluiceStoreJobsPage *page,
             const char          *key)
{
  SluiceStoreJobDetail *detail = sluice_store_jobs_page_get_detail (page);
  GtkColumnView *view = GTK_COLUMN_VIEW (window_fixture_find_widget (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW));

  /* What activating the row (a double click, Enter) emits. */
  g_signal_emit_by_name (view, "activate", row_of (page, key));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (detail)));
  SLUICE_TEST_SPIN_UNTIL (!sluice_store_job_detail_get_loading (detail));
  return detail;
}

/* The detail of a job with failures: one bar per attempt, coloured (its
 * class) by its outcome and named with its error; the payload indented. */
static void
test_detail_shows_attempt_bars_with_errors (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobDetail *detail;

  fill (p);
  window = open_jobs (p, FALSE);
  detail = show_detail (jobs_page (window), "flaky");

  g_assert_cmpstr (sluice_store_job_detail_get_job_id (detail), ==, p->flaky_id);
  g_assert_cmpuint (sluice_store_job_detail_get_n_attempts (detail), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      GtkWidget *bar = sluice_store_job_detail_get_attempt_bar (detail, i);
      g_autofree char *error = g_strdup_printf ("attempt %u failed", i + 1);
      GtkWidget *label = gtk_widget_get_next_sibling (bar);

      g_assert_true (gtk_widget_has_css_class (bar, "attempt-failed"));
      g_assert_true (gtk_widget_get_mapped (bar));
      g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), error));
      g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (label)), "worker-1"));
    }
  g_assert_null (sluice_store_job_detail_get_attempt_bar (detail, 3));
  g_assert_nonnull (strstr (sluice_store_job_detail_get_payload_text (detail), "\"value\" : 3"));
  g_assert_nonnull (strstr (sluice_store_job_detail_get_lease_text (detail), "No lease"));

  click (GTK_WIDGET (jobs_page (window)), "Back to Jobs");
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (detail)));

  close_window (window);
}

/* A running job's lease: its owner and the time left, counted down live. */
static void
test_detail_counts_the_lease_down (void)
{
  g_autoptr(Place) p = place_new ();
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceJobClaim) c = NULL;
  g_autoptr(GError) error = NULL;
  SluiceStoreWindow *window;
  SluiceStoreJobDetail *detail;
  g_autofree char *first = NULL;

  fill (p);
  /* The lease is the store's, in wall-clock µs: 10 minutes from now. */
  job = enqueue (p, "ops", "running", "{\"value\": 9}", 3, g_get_real_time ());
  c = store_fixture_claim (p->store, "ops", "worker-7", 600 * SECOND, g_get_real_time (), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (c->job->operation_key, ==, "running");
  window = open_jobs (p, FALSE);
  detail = show_detail (jobs_page (window), "running");
  first = g_strdup (sluice_store_job_detail_get_lease_text (detail));
  g_assert_nonnull (strstr (first, "worker-7"));
  g_assert_nonnull (strstr (first, " s left"));
  /* A wall-clock wait: the countdown follows the lease's real time, once a
   * second; it is bounded by the spin's guard. */
  SLUICE_TEST_SPIN_UNTIL (g_strcmp0 (sluice_store_job_detail_get_lease_text (detail), first) != 0);
  g_assert_nonnull (strstr (sluice_store_job_detail_get_lease_text (detail), "worker-7"));
  g_assert_cmpint (atoi (strrchr (sluice_store_job_detail_get_lease_text (detail), ',') + 1), <,
                   atoi (strrchr (first, ',') + 1));

  close_window (window);
}

/* Open in Playground: the playground runs a scenario whose item fails as
 * the job did, as many times, with its error type. */
static void
test_open_in_playground_replays_the_attempts (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceWindow *playground = window_fixture_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobDetail *detail;
  JsonObject *report;
  SluiceRunController *run = sluice_window_get_run_controller (playground);

  fill (p);
  window = g_object_ref (sluice_window_open_store (playground, p->uri));
  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  gtk_stack_set_visible_child_name (sluice_store_window_get_pages (window), "jobs");
  SLUICE_TEST_SPIN_UNTIL (n_rows (jobs_page (window)) > 0 && !sluice_store_jobs_page_get_busy (jobs_page (window)));
  detail = show_detail (jobs_page (window), "flaky");

  click (GTK_WIDGET (detail), "Open in Playground");
  SLUICE_TEST_SPIN_UNTIL (sluice_window_get_running (playground));
  window_fixture_wait_for_end (playground);
  report = json_node_get_object (sluice_run_model_get_report (sluice_run_controller_get_model (run)));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (report, "attempts"), "0"), ==, 3);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (report, "results")), ==, 0);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (report, "group_types"), 0), ==,
                   "ValueError");

  /* And back: the store window's "Back to Playground" presents it. */
  click (GTK_WIDGET (window), "Back to Playground");

  close_window (window);
  window_fixture_close (playground);
}

/* Read-only: the actions' buttons are hidden and the actions off; nothing
 * changes. */
static void
test_read_only_hides_the_actions (void)
{
  g_autoptr(Place) p = place_new ();
  SluiceStoreWindow *window;
  SluiceStoreJobsPage *page;

  fill (p);
  window = open_jobs (p, TRUE);
  page = jobs_page (window);
  g_assert_true (sluice_store_window_get_read_only (window));
  for (guint i = 0; i < 3; i++)
    {
      const char *labels[] = { "Retry", "Cancel Jobs", "Discard" };
      GtkWidget *button = find_button (GTK_WIDGET (page), labels[i]);

      g_assert_nonnull (button);
      g_assert_false (gtk_widget_get_mapped (button));
    }
  select_rows (page, "dead-1", NULL);
  g_assert_false (press (GTK_WIDGET (page), "Delete"));
  /* The action is off: nothing happens, not a failure. */
  gtk_widget_activate_action (GTK_WIDGET (page), "jobs.discard", NULL);
  g_assert_null (sluice_store_jobs_page_get_message (page));
  wait_idle (page);
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, SLUICE_STORED_JOB_DEAD);
  /* The detail's Open in Playground changes nothing: it stays. */
  show_detail (page, "flaky");
  g_assert_true (gtk_widget_get_mapped (find_button (GTK_WIDGET (page), "Open in Playground")));

  close_window (window);

  /* A writable window on the same store shows them. */
  window = open_jobs (p, FALSE);
  g_assert_false (sluice_store_window_get_read_only (window));
  g_assert_true (gtk_widget_get_mapped (find_button (GTK_WIDGET (jobs_page (window)), "Retry")));
  close_window (window);
}

/* `sluice --store URI --read-only` opens the window read-only; without
 * --store the option is refused, naming what it needs. */
static void
test_command_line_read_only (void)
{
  g_autoptr(Place) p = NULL;
  g_autofree char *png = NULL;
  g_autofree char *err = NULL;

  if (g_getenv ("SLUICE_APP") == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }
  p = place_new ();
  fill (p);
  png = g_build_filename (p->dir, "store.png", NULL);
  {
    const char * const args[] = { "--store", p->uri, "--read-only", "--screenshot", png, NULL };

    g_assert_cmpint (window_fixture_run_app (args, &err), ==, 0);
    g_assert_true (g_file_test (png, G_FILE_TEST_EXISTS));
    g_clear_pointer (&err, g_free);
  }
  {
    const char * const args[] = { "--read-only", NULL };

    g_assert_cmpint (window_fixture_run_app (args, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--store URI"));
  }
  g_assert_cmpint (state_of (p, p->dead_id[0]), ==, SLUICE_STORED_JOB_DEAD);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/store-jobs/lists-newest-first-in-columns-that-fit",
                   test_jobs_lists_newest_first_in_columns_that_fit);
  g_test_add_func ("/window/store-jobs/filter-by-state-and-search-narrow-the-list",
                   test_filter_by_state_and_search_narrow_the_list);
  g_test_add_func ("/window/store-jobs/list-follows-the-store-unless-rows-are-selected",
                   test_list_follows_the_store_unless_rows_are_selected);
  g_test_add_func ("/window/store-jobs/retry-of-two-asks-then-retries-both", test_retry_of_two_asks_then_retries_both);
  g_test_add_func ("/window/store-jobs/delete-key-discards", test_delete_key_discards);
  g_test_add_func ("/window/store-jobs/cancel-of-a-pending-job", test_cancel_of_a_pending_job);
  g_test_add_func ("/window/store-jobs/all-matching-retries-jobs-not-in-view", test_all_matching_retries_jobs_not_in_view);
  g_test_add_func ("/window/store-jobs/detail-shows-attempt-bars-with-errors", test_detail_shows_attempt_bars_with_errors);
  g_test_add_func ("/window/store-jobs/detail-counts-the-lease-down", test_detail_counts_the_lease_down);
  g_test_add_func ("/window/store-jobs/open-in-playground-replays-the-attempts",
                   test_open_in_playground_replays_the_attempts);
  g_test_add_func ("/window/store-jobs/read-only-hides-the-actions", test_read_only_hides_the_actions);
  g_test_add_func ("/window/store-jobs/command-line-read-only", test_command_line_read_only);
  return g_test_run ();
}
