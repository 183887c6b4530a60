/* test-window-store-pages.c: the store window's Queues, Workers and
 * Throughput pages on a real store (docs/store-admin.md, "The store
 * window"; issue 28)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each page sits alone in a window under Xvfb, on a SQLite file in a
 * temporary folder, and each page's case on the PostgreSQL server of
 * SLUICE_TEST_PG_URI too (skipped without one). Jobs and workers are made
 * through the store API with the tests' own times; the pages read their
 * now from a virtual SluiceClock whose 0 is T0. The waits turn the main
 * context until the page shows what they wait for (a store answers on its
 * thread), never sleep.
 */

#include <gtk/gtk.h>
#include <string.h>

#include "sluice-store-admin.h"
#include "sluice-store-queues-page.h"
#include "sluice-store-throughput-page.h"
#include "sluice-store-workers-page.h"
#include "store-fixture.h"
#include "test-helpers.h"
#include "window-fixture.h"

/* 2023-11-14 22:13:20 UTC: the jobs' times, in µs. */
#define T0 G_GINT64_CONSTANT (1700000000000000)
#define SECOND G_GINT64_CONSTANT (1000000)

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreTenant, sluice_store_tenant_free)

/* ---- the store ------------------------------------------------------------------- */

typedef struct {
  char           *dir;
  char           *path;
  char           *schema;
  SluiceJobStore *store;
} Place;

static void
place_free (Place *p)
{
  g_clear_object (&p->store);
  store_fixture_remove_place (p->dir, p->schema);
  g_free (p->dir);
  g_free (p->path);
  g_free (p->schema);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Place, place_free)

static Place *
place_new (gboolean sqlite)
{
  Place *p = g_new0 (Place, 1);
  g_autofree char *uri = store_fixture_new_place (sqlite, "pages", &p->dir, &p->path, &p->schema);
  g_autoptr(GError) error = NULL;

  p->store = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  return p;
}

typedef struct {
  GAsyncResult *result;
} Wait;

static void
on_ready (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

static SluiceStoreAdminReply *
admin (SluiceJobStore        *store,
       SluiceStoreAdminQuery *query)
{
  Wait wait = { NULL };
  g_autoptr(GError) error = NULL;
  SluiceStoreAdminReply *reply;

  sluice_store_admin_async (store, query, NULL, on_ready, &wait);
  SLUICE_TEST_SPIN_UNTIL (wait.result != NULL);
  reply = sluice_store_admin_finish (store, wait.result, &error);
  g_object_unref (wait.result);
  g_assert_no_error (error);
  return reply;
}

static void
enqueue (SluiceJobStore *store,
         const char     *tenant,
         const char     *key,
         gint64          now)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = store_fixture_enqueue (store, tenant, key, "{}", 1, now, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (job);
}

static SluiceJobClaim *
claim (SluiceJobStore *store,
       const char     *tenant,
       const char     *owner,
       gint64          lease,
       gint64          now)
{
  g_autoptr(GError) error = NULL;
  SluiceJobClaim *c = store_fixture_claim (store, tenant, owner, lease, now, &error);

  g_assert_no_error (error);
  g_assert_nonnull (c);
  return c;
}

static void
complete (SluiceJobStore *store,
          const char     *tenant,
          gint64          claimed,
          gint64          now)
{
  g_autoptr(SluiceJobClaim) c = claim (store, tenant, "test-worker", 60 * SECOND, claimed);
  g_autoptr(GError) error = NULL;

  g_assert_true (store_fixture_complete (store, c, NULL, now, &error));
  g_assert_no_error (error);
}

/* A worker's heartbeat, as `sluice-run worker` sends it
 * (SluiceStoreWorkerBeat: a WORKER_BEAT query). */
static void
beat (SluiceJobStore *store,
      const char     *id,
      gint64          lease,
      gint64          started_at,
      gint64          now)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKER_BEAT);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  SluiceStoreWorker w = { 0 };

  w.id = (char *) id;
  w.host = (char *) "host-a";
  w.pid = 4242;
  w.started_at = started_at;
  w.lease = lease;
  w.tenants = (char *) "mail";
  query->worker = sluice_store_worker_copy (&w);
  query->now = now;
  reply = admin (store, query);
}

static SluiceStoreTenant *
read_tenant (SluiceJobStore *store,
             const char     *name)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_TENANTS);
  g_autoptr(SluiceStoreAdminReply) reply = admin (store, query);

  for (guint i = 0; i < reply->tenants->len; i++)
    {
      SluiceStoreTenant *t = g_ptr_array_index (reply->tenants, i);

      if (g_str_equal (t->name, name))
        return g_ptr_array_steal_index (reply->tenants, i);
    }
  g_error ("no tenant %s in the store", name);
}

/* ---- the page's widgets ------------------------------------------------------------- */

/* The first label under @widget whose text holds @text, or NULL. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The row (a box of lines) of the tenant or worker named @name. */
static GtkWidget *
find_row (GtkWidget  *page,
          const char *name)
{
  GtkWidget *label = find_label (page, name);

  g_assert_nonnull (label);
  return gtk_widget_get_parent (gtk_widget_get_parent (label));
}

static GtkWidget *
find_button (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A window of 1024×768 with the page alone in it, the app's style on. */
static GtkWidget *
page_window (GtkWidget *page,
             gboolean   projector)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1024, 768);
  if (projector)
    gtk_widget_add_css_class (window, "projector");
  gtk_window_set_child (GTK_WINDOW (window), page);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* Every button a person can see is named as it reads (no raw mnemonic,
 * not the text twice), and every spin button has a name of its own. */
static void
assert_named_as_read (GtkWidget *widget)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_BUTTON (widget))
    {
      const char *shown = gtk_button_get_label (GTK_BUTTON (widget));

      g_assert_nonnull (shown);
      g_assert_null (strchr (shown, '_'));
      if (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
        {
          g_autofree char *diff = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                                       GTK_ACCESSIBLE_PROPERTY_LABEL, shown);

          g_assert_null (diff);
        }
    }
  if (GTK_IS_SPIN_BUTTON (widget))
    {
      /* Its + and − are GTK's own, named by GTK. */
      g_assert_true (gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    assert_named_as_read (child);
}

/* The page's natural width in a projector's window: what it asks of a
 * 1024-pixel screen. */
static int
natural_width (GtkWidget *page)
{
  int minimum;
  int natural;

  gtk_widget_measure (page, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  return natural;
}

static void
on_moved (gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* Moves @clock @delay on (a paused virtual clock: only steps move it). */
static void
advance (SluiceClock *clock,
         gint64       delay)
{
  guint fired = 0;
  gint64 before = sluice_clock_now (clock);

  sluice_clock_add_timeout (clock, delay, on_moved, &fired, NULL);
  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpuint (fired, ==, 1);
  g_assert_cmpint (sluice_clock_now (clock), ==, before + delay);
}

static SluiceClock *
new_clock (void)
{
  SluiceClock *clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);

  sluice_clock_set_paused (clock, TRUE);
  return clock;
}

/* ---- Queues ------------------------------------------------------------------------- */

static void
queues_page_shows_and_pauses_tenants (gboolean sqlite)
{
  g_autoptr(Place) p = NULL;
  g_autoptr(SluiceClock) clock = new_clock ();
  g_autoptr(SluiceJobClaim) running = NULL;
  g_autofree char *long_tenant = NULL;
  g_autoptr(SluiceStoreTenant) mail = NULL;
  g_autoptr(SluiceStoreTenant) billing = NULL;
  GtkCssProvider *css = window_fixture_add_app_style ();
  GtkWidget *page = sluice_store_queues_page_new ();
  GtkWidget *window = page_window (page, TRUE);
  GtkWidget *row;
  GtkWidget *toggle;
  GtkWidget *spin;

  if (!sqlite && !store_fixture_pg_available ())
    {
      gtk_window_destroy (GTK_WINDOW (window));
      window_fixture_remove_app_style (css);
      return;
    }
  p = place_new (sqlite);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *key = g_strdup_printf ("send-%u", i);

      enqueue (p->store, "mail", key, T0 + i);
    }
  enqueue (p->store, "billing", "invoice-1", T0 + 5);
  /* A tenant's name may be 255 bytes long: it must not widen the page. */
  long_tenant = g_strnfill (200, 'r');
  enqueue (p->store, long_tenant, "nightly", T0 + 6);
  running = claim (p->store, "mail", "w-1", 60 * SECOND, T0 + 10);

  sluice_store_page_set_clock (SLUICE_STORE_PAGE (page), clock, T0 + 20 * SECOND);
  sluice_store_page_set_projector (SLUICE_STORE_PAGE (page), TRUE);
  sluice_store_page_set_store (SLUICE_STORE_PAGE (page), p->store);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (find_label (page, "billing") != NULL);

  /* One row per tenant with its counts per state. */
  row = find_row (page, "mail");
  g_assert_nonnull (find_label (row, "2 pending · 1 running · 0 retry wait · 0 succeeded · 0 dead"));
  g_assert_nonnull (find_label (find_row (page, "billing"), "1 pending · 0 running"));
  g_assert_nonnull (find_label (row, "Active"));
  assert_named_as_read (page);
  /* Projector mode on a 1024×768 screen. */
  g_assert_cmpint (natural_width (page), <=, 1024);

  /* The rates come from successive reads: one job done in the minute. */
  g_assert_true (store_fixture_complete (p->store, running, NULL, T0 + 30 * SECOND, NULL));
  advance (clock, 60 * SECOND);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (find_label (page, "1 succeeded") != NULL);
  g_assert_nonnull (find_label (find_row (page, "mail"), "done 0.02/s · failed 0.00/s"));

  /* Pause, clicked: the tenant is paused in the store, not the other. */
  row = find_row (page, "mail");
  toggle = find_button (row);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (toggle)), ==, "Pause");
  g_signal_emit_by_name (toggle, "clicked");
  SLUICE_TEST_SPIN_UNTIL (find_label (find_row (page, "mail"), "Paused") != NULL);
  mail = read_tenant (p->store, "mail");
  billing = read_tenant (p->store, "billing");
  g_assert_true (mail->paused);
  g_assert_false (billing->paused);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (find_button (find_row (page, "mail")))), ==, "Resume");

  /* The limit's spin button sets the tenant's limit in the store. */
  spin = window_fixture_find_widget (find_row (page, "mail"), GTK_TYPE_SPIN_BUTTON);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), 4);
  SLUICE_TEST_SPIN_UNTIL (find_label (find_row (page, "mail"), "at most 4 running") != NULL);
  g_clear_pointer (&mail, sluice_store_tenant_free);
  mail = read_tenant (p->store, "mail");
  g_assert_cmpint (mail->concurrency, ==, 4);

  /* Resume, clicked. */
  g_signal_emit_by_name (find_button (find_row (page, "mail")), "clicked");
  SLUICE_TEST_SPIN_UNTIL (find_label (find_row (page, "mail"), "Active") != NULL);
  g_clear_pointer (&mail, sluice_store_tenant_free);
  mail = read_tenant (p->store, "mail");
  g_assert_false (mail->paused);

  /* Read-only: the rows stay, the actions are hidden. */
  sluice_store_page_set_read_only (SLUICE_STORE_PAGE (page), TRUE);
  g_assert_false (gtk_widget_get_visible (find_button (find_row (page, "mail"))));
  g_assert_false (gtk_widget_get_visible (window_fixture_find_widget (find_row (page, "mail"), GTK_TYPE_SPIN_BUTTON)));
  g_assert_nonnull (find_label (page, "billing"));

  gtk_window_destroy (GTK_WINDOW (window));
  window_fixture_remove_app_style (css);
}

static void
test_sqlite_queues_page_shows_and_pauses_tenants (void)
{
  queues_page_shows_and_pauses_tenants (TRUE);
}

static void
test_pg_queues_page_shows_and_pauses_tenants (void)
{
  queues_page_shows_and_pauses_tenants (FALSE);
}

/* A store replaced while a read is in flight: its answer is dropped. */
static void
test_queues_page_drops_the_answer_of_a_replaced_store (void)
{
  g_autoptr(Place) a = place_new (TRUE);
  g_autoptr(Place) b = place_new (TRUE);
  g_autoptr(SluiceStoreAdminQuery) query = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  GtkWidget *page = sluice_store_queues_page_new ();
  GtkWidget *window = page_window (page, FALSE);

  enqueue (a->store, "from-a", "k", T0);
  enqueue (b->store, "from-b", "k", T0);
  sluice_store_page_set_store (SLUICE_STORE_PAGE (page), a->store);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  sluice_store_page_set_store (SLUICE_STORE_PAGE (page), b->store);
  /* A read of a's after the page's: a store answers its calls in order,
   * so the page's answer from a has come by then, and was dropped. */
  query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_TENANTS);
  reply = admin (a->store, query);
  g_assert_cmpuint (reply->tenants->len, ==, 1);
  g_assert_null (find_label (page, "from-a"));
  /* b's own read is not refused as one in flight. */
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (find_label (page, "from-b") != NULL);
  g_assert_null (find_label (page, "from-a"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* How wide the lease's bar is drawn in @lane, in pixels: the run of
 * blue along a row below the text. */
static int
lease_bar_width (GtkWidget *lane)
{
  g_autoptr(GdkTexture) texture = NULL;
  int width;
  int height;
  g_autofree guchar *pixels = NULL;
  const guchar *row;
  int n = 0;

  /* As the last frame showed it: a lane not redrawn keeps its drawing. */
  window_fixture_wait_for_frames (lane, 1);
  texture = window_fixture_draw_widget (lane);
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, (gsize) width * 4);
  row = pixels + (gsize) (height - 3) * width * 4;
  for (int x = 0; x < width; x++)
    {
      /* Cairo's ARGB32, little-endian: B, G, R, A. */
      const guchar *px = row + x * 4;

      if (px[0] > px[2] + 40)
        n++;
    }
  return n;
}

/* ---- Workers ------------------------------------------------------------------------ */

static void
workers_page_marks_lost_workers_and_counts_leases_down (gboolean sqlite)
{
  g_autoptr(Place) p = NULL;
  g_autoptr(SluiceClock) clock = new_clock ();
  g_autoptr(SluiceJobClaim) held = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKERS);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  GtkCssProvider *css = window_fixture_add_app_style ();
  GtkWidget *page = sluice_store_workers_page_new ();
  GtkWidget *window = page_window (page, TRUE);
  GtkWidget *alive;
  GtkWidget *lost;
  GtkWidget *lane;
  GtkWidget *prune;
  int bar;

  if (!sqlite && !store_fixture_pg_available ())
    {
      gtk_window_destroy (GTK_WINDOW (window));
      window_fixture_remove_app_style (css);
      return;
    }
  p = place_new (sqlite);
  /* At T0 + 100 s: w-alive beat 10 s ago (lease 30 s), w-gone 100 s ago
   * (lease 10 s: lost after 30 s). */
  beat (p->store, "w-alive", 30 * SECOND, T0, T0 + 90 * SECOND);
  beat (p->store, "w-gone", 10 * SECOND, T0, T0);
  enqueue (p->store, "mail", "send-1", T0);
  held = claim (p->store, "mail", "w-alive", 30 * SECOND, T0 + 90 * SECOND);

  sluice_store_page_set_clock (SLUICE_STORE_PAGE (page), clock, T0 + 100 * SECOND);
  sluice_store_page_set_projector (SLUICE_STORE_PAGE (page), TRUE);
  sluice_store_page_set_store (SLUICE_STORE_PAGE (page), p->store);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (find_label (page, "w-gone") != NULL);

  alive = find_row (page, "w-alive");
  lost = find_row (page, "w-gone");
  /* Host, pid, uptime, last heartbeat; lost marked in words. */
  g_assert_nonnull (find_label (alive, "host-a · pid 4242 · up 1 min · last heartbeat 10 s ago"));
  g_assert_nonnull (find_label (lost, "Lost: no heartbeat for 3 leases"));
  g_assert_null (find_label (alive, "Lost"));

  /* The lane of w-alive's claim, its lease counting down. */
  lane = window_fixture_find_widget (alive, GTK_TYPE_DRAWING_AREA);
  gtk_test_accessible_assert_property (lane, GTK_ACCESSIBLE_PROPERTY_LABEL, "Holds 1 claim: send-1, lease 20 s left;");
  window_fixture_wait_for_frames (lane, 2);
  bar = lease_bar_width (lane);
  /* 20 s left of a 30 s lease: two thirds of the lane. */
  g_assert_cmpint (ABS (bar - (gtk_widget_get_width (lane) - 2) * 2 / 3), <=, 2);
  /* Between two reads the bar shrinks on the page's own timer: its
   * redraw is what the wait waits for (a few times a second of the wall
   * clock), the lease's time is the virtual clock's. */
  advance (clock, 10 * SECOND);
  SLUICE_TEST_SPIN_UNTIL (lease_bar_width (lane) < bar);
  g_assert_cmpint (ABS (lease_bar_width (lane) - (gtk_widget_get_width (lane) - 2) / 3), <=, 2);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (find_label (page, "last heartbeat 20 s ago") != NULL);
  lane = window_fixture_find_widget (find_row (page, "w-alive"), GTK_TYPE_DRAWING_AREA);
  gtk_test_accessible_assert_property (lane, GTK_ACCESSIBLE_PROPERTY_LABEL, "Holds 1 claim: send-1, lease 10 s left;");
  g_assert_cmpint (natural_width (page), <=, 1024);
  assert_named_as_read (page);

  /* Forget Lost Workers, clicked: w-gone's row is gone from the store. */
  prune = find_button (page);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (prune)), ==, "Forget Lost Workers");
  g_signal_emit_by_name (prune, "clicked");
  SLUICE_TEST_SPIN_UNTIL (find_label (page, "w-gone") == NULL);
  query->now = T0 + 110 * SECOND;
  reply = admin (p->store, query);
  g_assert_cmpuint (reply->workers->len, ==, 1);
  g_assert_cmpstr (((SluiceStoreWorker *) g_ptr_array_index (reply->workers, 0))->id, ==, "w-alive");

  /* Read-only hides it. */
  sluice_store_page_set_read_only (SLUICE_STORE_PAGE (page), TRUE);
  g_assert_false (gtk_widget_get_visible (prune));

  gtk_window_destroy (GTK_WINDOW (window));
  window_fixture_remove_app_style (css);
}

static void
test_sqlite_workers_page_marks_lost_workers_and_counts_leases_down (void)
{
  workers_page_marks_lost_workers_and_counts_leases_down (TRUE);
}

static void
test_pg_workers_page_marks_lost_workers_and_counts_leases_down (void)
{
  workers_page_marks_lost_workers_and_counts_leases_down (FALSE);
}

/* ---- Throughput --------------------------------------------------------------------- */

static void
assert_totals (GtkWidget *page,
               guint64    done,
               guint64    failed)
{
  guint64 d;
  guint64 f;

  sluice_store_throughput_page_get_totals (SLUICE_STORE_THROUGHPUT_PAGE (page), &d, &f);
  g_assert_cmpuint (d, ==, done);
  g_assert_cmpuint (f, ==, failed);
}

static gboolean
totals_are (GtkWidget *page,
            guint64    done)
{
  guint64 d;

  sluice_store_throughput_page_get_totals (SLUICE_STORE_THROUGHPUT_PAGE (page), &d, NULL);
  return d == done;
}

static void
throughput_page_series_grow_with_completions (gboolean sqlite)
{
  g_autoptr(Place) p = NULL;
  g_autoptr(SluiceClock) clock = new_clock ();
  g_autoptr(SluiceJobClaim) failing = NULL;
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("IOError", "down", NULL, FALSE);
  GtkCssProvider *css = window_fixture_add_app_style ();
  GtkWidget *page = sluice_store_throughput_page_new ();
  GtkWidget *window = page_window (page, TRUE);

  if (!sqlite && !store_fixture_pg_available ())
    {
      gtk_window_destroy (GTK_WINDOW (window));
      window_fixture_remove_app_style (css);
      return;
    }
  p = place_new (sqlite);
  /* Waits of 2, 4 and 10 s; two done, one failed. */
  enqueue (p->store, "mail", "a", T0);
  enqueue (p->store, "mail", "b", T0 + 1);
  enqueue (p->store, "mail", "c", T0 + 2);
  complete (p->store, "mail", T0 + 2 * SECOND, T0 + 3 * SECOND);
  complete (p->store, "mail", T0 + 4 * SECOND + 1, T0 + 5 * SECOND);
  failing = claim (p->store, "mail", "test-worker", 60 * SECOND, T0 + 10 * SECOND + 2);
  g_assert_true (store_fixture_fail (p->store, failing, failure, -1, T0 + 12 * SECOND, NULL));

  sluice_store_page_set_clock (SLUICE_STORE_PAGE (page), clock, T0 + 60 * SECOND);
  sluice_store_page_set_projector (SLUICE_STORE_PAGE (page), TRUE);
  sluice_store_page_set_store (SLUICE_STORE_PAGE (page), p->store);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (totals_are (page, 2));
  assert_totals (page, 2, 1);
  g_assert_cmpint (sluice_store_throughput_page_get_wait_percentile (SLUICE_STORE_THROUGHPUT_PAGE (page), 50), ==,
                   4 * SECOND);
  g_assert_cmpint (sluice_store_throughput_page_get_wait_percentile (SLUICE_STORE_THROUGHPUT_PAGE (page), 95), ==,
                   10 * SECOND);
  g_assert_nonnull (find_label (page, "Last hour: 2 done, 1 failed"));

  /* One more completion: the next read adds it, not the old ones again. */
  enqueue (p->store, "mail", "d", T0 + 70 * SECOND);
  complete (p->store, "mail", T0 + 71 * SECOND, T0 + 72 * SECOND);
  advance (clock, 15 * SECOND);
  sluice_store_page_refresh (SLUICE_STORE_PAGE (page));
  SLUICE_TEST_SPIN_UNTIL (totals_are (page, 3));
  assert_totals (page, 3, 1);
  g_assert_nonnull (find_label (page, "Last hour: 3 done, 1 failed"));
  g_assert_cmpint (natural_width (page), <=, 1024);

  /* An hour on, they have left the charts. */
  advance (clock, 3600 * SECOND);
  assert_totals (page, 0, 0);
  g_assert_cmpint (sluice_store_throughput_page_get_wait_percentile (SLUICE_STORE_THROUGHPUT_PAGE (page), 50), ==, -1);

  gtk_window_destroy (GTK_WINDOW (window));
  window_fixture_remove_app_style (css);
}

static void
test_sqlite_throughput_page_series_grow_with_completions (void)
{
  throughput_page_series_grow_with_completions (TRUE);
}

static void
test_pg_throughput_page_series_grow_with_completions (void)
{
  throughput_page_series_grow_with_completions (FALSE);
}

/* ---- the base of the three pages ---------------------------------------------------- */

/* Counts the notifications of a property. */
static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              int        *n)
{
  (*n)++;
}

/* Queues, Workers and Throughput are one SluiceStorePage each: the
 * read-only and projector properties are the base's, and a control given
 * to the base is hidden while the page is read-only, at once when added
 * to a read-only page, and no more once removed. */
static void
test_fleet_pages_share_one_base_that_hides_controls_when_read_only (void)
{
  GType types[] = {
    SLUICE_TYPE_STORE_QUEUES_PAGE, SLUICE_TYPE_STORE_WORKERS_PAGE, SLUICE_TYPE_STORE_THROUGHPUT_PAGE,
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      GtkWidget *page = g_object_ref_sink (g_object_new (types[i], NULL));
      SluiceStorePage *base = SLUICE_STORE_PAGE (page);
      GtkWidget *control = g_object_ref_sink (gtk_button_new_with_label ("act"));
      gboolean read_only = FALSE;
      gboolean projector = FALSE;
      int notified = 0;

      g_assert_true (g_type_is_a (types[i], SLUICE_TYPE_STORE_PAGE));
      g_assert_cmpuint (g_object_class_find_property (G_OBJECT_GET_CLASS (page), "read-only")->owner_type, ==,
                        SLUICE_TYPE_STORE_PAGE);
      g_assert_cmpuint (g_object_class_find_property (G_OBJECT_GET_CLASS (page), "projector")->owner_type, ==,
                        SLUICE_TYPE_STORE_PAGE);
      g_signal_connect (page, "notify::read-only", G_CALLBACK (count_notify), &notified);
      g_object_set (page, "read-only", TRUE, "projector", TRUE, NULL);
      g_object_set (page, "read-only", TRUE, NULL);
      g_object_get (page, "read-only", &read_only, "projector", &projector, NULL);
      g_assert_true (read_only);
      g_assert_true (projector);
      g_assert_cmpint (notified, ==, 1);

      sluice_store_page_add_control (base, control);
      g_assert_false (gtk_widget_get_visible (control));
      sluice_store_page_set_read_only (base, FALSE);
      g_assert_true (gtk_widget_get_visible (control));
      sluice_store_page_remove_control (base, control);
      sluice_store_page_set_read_only (base, TRUE);
      g_assert_true (gtk_widget_get_visible (control));
      g_assert_cmpint (notified, ==, 3);
      g_assert_null (sluice_store_page_get_store (base));

      g_object_unref (control);
      g_object_unref (page);
    }
}

int
main (int   argc,
      char *argv[])
{
  /* The accessible names are read through GTK's test backend. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/store-pages/sqlite/queues-page-shows-and-pauses-tenants",
                   test_sqlite_queues_page_shows_and_pauses_tenants);
  g_test_add_func ("/window/store-pages/pg/queues-page-shows-and-pauses-tenants",
                   test_pg_queues_page_shows_and_pauses_tenants);
  g_test_add_func ("/window/store-pages/queues-page-drops-the-answer-of-a-replaced-store",
                   test_queues_page_drops_the_answer_of_a_replaced_store);
  g_test_add_func ("/window/store-pages/sqlite/workers-page-marks-lost-workers-and-counts-leases-down",
                   test_sqlite_workers_page_marks_lost_workers_and_counts_leases_down);
  g_test_add_func ("/window/store-pages/pg/workers-page-marks-lost-workers-and-counts-leases-down",
                   test_pg_workers_page_marks_lost_workers_and_counts_leases_down);
  g_test_add_func ("/window/store-pages/sqlite/throughput-page-series-grow-with-completions",
                   test_sqlite_throughput_page_series_grow_with_completions);
  g_test_add_func ("/window/store-pages/pg/throughput-page-series-grow-with-completions",
                   test_pg_throughput_page_series_grow_with_completions);
  g_test_add_func ("/window/store-pages/fleet-pages-share-one-base-that-hides-controls-when-read-only",
                   test_fleet_pages_share_one_base_that_hides_controls_when_read_only);
  return g_test_run ();
}
