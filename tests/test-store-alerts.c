/* test-store-alerts.c: the store window's alerts decided from successive
 * reads (docs/store-admin.md, "The store window": Alerts), without GTK
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib.h>
#include <string.h>

#include "sluice-store-alerts.h"

static SluiceStoreTenant *
tenant (const char *name,
        guint64     dead)
{
  SluiceStoreTenant *t = g_new0 (SluiceStoreTenant, 1);

  t->name = g_strdup (name);
  t->concurrency = -1;
  t->counts[SLUICE_STORED_JOB_DEAD] = dead;
  t->counts[SLUICE_STORED_JOB_PENDING] = 7;  /* never an alert */
  return t;
}

/* Two tenants with @a and @b dead jobs. */
static GPtrArray *
tenants (guint64 a,
         guint64 b)
{
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_tenant_free);

  g_ptr_array_add (all, tenant ("mail", a));
  g_ptr_array_add (all, tenant ("billing", b));
  return all;
}

static guint
observe_tenants (SluiceStoreAlerts *alerts,
                 guint64            a,
                 guint64            b,
                 guint64           *rise,
                 gboolean          *notified)
{
  g_autoptr(GPtrArray) read = tenants (a, b);
  g_autoptr(GPtrArray) decided = sluice_store_alerts_observe_tenants (alerts, read);

  *rise = 0;
  if (decided->len > 0)
    {
      SluiceStoreAlert *alert = g_ptr_array_index (decided, 0);

      g_assert_cmpint (alert->kind, ==, SLUICE_STORE_ALERT_DEAD_JOBS_ROSE);
      g_assert_cmpstr (alert->id, ==, "store-dead-jobs");
      g_assert_nonnull (alert->title);
      g_assert_nonnull (alert->body);
      *rise = alert->rise;
      *notified = alert->notified;
    }
  return decided->len;
}

static void
test_dead_jobs_rise_is_an_alert_not_the_first_read (void)
{
  g_autoptr(SluiceStoreAlerts) alerts = sluice_store_alerts_new (NULL);
  guint64 rise;
  gboolean notified = FALSE;

  /* What is dead when the window opens is the baseline. */
  g_assert_cmpuint (observe_tenants (alerts, 2, 0, &rise, &notified), ==, 0);
  g_assert_cmpuint (observe_tenants (alerts, 2, 0, &rise, &notified), ==, 0);
  /* 3 more, across both tenants, in the background: sent. */
  g_assert_cmpuint (observe_tenants (alerts, 4, 1, &rise, &notified), ==, 1);
  g_assert_cmpuint (rise, ==, 3);
  g_assert_true (notified);
  /* In front: decided, not sent. */
  sluice_store_alerts_set_window_active (alerts, TRUE);
  g_assert_cmpuint (observe_tenants (alerts, 5, 1, &rise, &notified), ==, 1);
  g_assert_cmpuint (rise, ==, 1);
  g_assert_false (notified);
  /* A discard lowers the baseline: rising again from there is news. */
  sluice_store_alerts_set_window_active (alerts, FALSE);
  g_assert_cmpuint (observe_tenants (alerts, 0, 1, &rise, &notified), ==, 0);
  g_assert_cmpuint (observe_tenants (alerts, 2, 1, &rise, &notified), ==, 1);
  g_assert_cmpuint (rise, ==, 2);
  g_assert_true (notified);
  /* Another store: its first read is a baseline again. */
  sluice_store_alerts_reset (alerts);
  g_assert_cmpuint (observe_tenants (alerts, 50, 50, &rise, &notified), ==, 0);
}

static SluiceStoreWorker *
worker (const char *id,
        gboolean    lost)
{
  SluiceStoreWorker *w = g_new0 (SluiceStoreWorker, 1);

  w->id = g_strdup (id);
  w->host = g_strdup ("host-1");
  w->pid = 4242;
  w->lost = lost;
  return w;
}

/* The ids of the workers lost since the read before, comma-separated. */
static char *
observe_workers (SluiceStoreAlerts *alerts,
                 gboolean           w1_lost,
                 gboolean           w2_lost)
{
  g_autoptr(GPtrArray) read = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_worker_free);
  g_autoptr(GPtrArray) decided = NULL;
  GString *ids = g_string_new (NULL);

  g_ptr_array_add (read, worker ("w1", w1_lost));
  g_ptr_array_add (read, worker ("w2", w2_lost));
  decided = sluice_store_alerts_observe_workers (alerts, read);
  for (guint i = 0; i < decided->len; i++)
    {
      SluiceStoreAlert *alert = g_ptr_array_index (decided, i);
      g_autofree char *id = g_strdup_printf ("store-worker-lost-%s", alert->worker);

      g_assert_cmpint (alert->kind, ==, SLUICE_STORE_ALERT_WORKER_LOST);
      g_assert_cmpstr (alert->id, ==, id);
      g_assert_nonnull (strstr (alert->title, alert->worker));
      g_assert_true (alert->notified);
      g_string_append_printf (ids, "%s%s", ids->len > 0 ? "," : "", alert->worker);
    }
  return g_string_free (ids, FALSE);
}

static void
test_worker_lost_since_the_last_read_is_an_alert (void)
{
  g_autoptr(SluiceStoreAlerts) alerts = sluice_store_alerts_new (NULL);
  struct {
    gboolean    w1_lost;
    gboolean    w2_lost;
    const char *alerted;
  } reads[] = {
    { TRUE, FALSE, "" },      /* lost before the window opened: baseline */
    { TRUE, FALSE, "" },
    { TRUE, TRUE, "w2" },     /* w2 lost since */
    { TRUE, TRUE, "" },       /* still lost: said once */
    { TRUE, FALSE, "" },      /* w2 beats again */
    { TRUE, TRUE, "w2" },     /* and is lost again */
  };

  for (guint i = 0; i < G_N_ELEMENTS (reads); i++)
    {
      g_autofree char *alerted = observe_workers (alerts, reads[i].w1_lost, reads[i].w2_lost);

      g_assert_cmpstr (alerted, ==, reads[i].alerted);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store-alerts/dead-jobs-rise-is-an-alert-not-the-first-read",
                   test_dead_jobs_rise_is_an_alert_not_the_first_read);
  g_test_add_func ("/store-alerts/worker-lost-since-the-last-read-is-an-alert",
                   test_worker_lost_since_the_last_read_is_an_alert);
  return g_test_run ();
}
