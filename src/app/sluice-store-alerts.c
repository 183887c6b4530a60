/* sluice-store-alerts.c: the store window's alerts (see the header)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The first read of a store is the baseline: what is already dead or
 * lost when the window opens is on its pages, not news. From then on each
 * read is compared with the one before: dead jobs that rose (a discard
 * that lowered them lowers the baseline too), and workers lost since.
 * Without GTK: the window tells it whether it is active.
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-alerts.h"

struct _SluiceStoreAlerts
{
  GObject       parent_instance;

  GApplication *application;   /* weak: the application outlives its windows */
  gboolean      active;
  gboolean      seen_tenants;
  guint64       dead;
  gboolean      seen_workers;
  GHashTable   *lost;          /* worker ids lost at the last read */
};

G_DEFINE_FINAL_TYPE (SluiceStoreAlerts, sluice_store_alerts, G_TYPE_OBJECT)

void
sluice_store_alert_free (SluiceStoreAlert *alert)
{
  if (alert == NULL)
    return;
  g_free (alert->id);
  g_free (alert->title);
  g_free (alert->body);
  g_free (alert->worker);
  g_free (alert);
}

/* Sends @alert while the window is in the background: in front, the
 * person sees the pages change. */
static void
deliver (SluiceStoreAlerts *self,
         SluiceStoreAlert  *alert)
{
  g_autoptr(GNotification) notification = NULL;

  alert->notified = !self->active;
  if (!alert->notified || self->application == NULL || !g_application_get_is_registered (self->application))
    return;
  notification = g_notification_new (alert->title);
  g_notification_set_body (notification, alert->body);
  g_notification_set_priority (notification, G_NOTIFICATION_PRIORITY_HIGH);
  g_application_send_notification (self->application, alert->id, notification);
}

static char *
dead_body (guint64 rise,
           guint64 dead)
{
  g_autofree char *n_rise = g_strdup_printf ("%" G_GUINT64_FORMAT, rise);
  g_autofree char *n_dead = g_strdup_printf ("%" G_GUINT64_FORMAT, dead);

  /* Translators: a notification's text: how many more jobs are dead
   * (both numbers are given as text) */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s more job failed for good: %s dead in all.",
                                       "%s more jobs failed for good: %s dead in all.", (gulong) MIN (rise, G_MAXULONG)),
                          n_rise, n_dead);
}

/**
 * sluice_store_alerts_observe_tenants:
 * @self: a #SluiceStoreAlerts
 * @tenants: (element-type SluiceStoreTenant): a read of the tenants
 *
 * Compares @tenants with the read before.
 *
 * Returns: (transfer container) (element-type SluiceStoreAlert): the
 *   alerts it decided, each sent when the window is not active
 */
GPtrArray *
sluice_store_alerts_observe_tenants (SluiceStoreAlerts *self,
                                     GPtrArray         *tenants)
{
  GPtrArray *alerts = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_alert_free);
  guint64 dead = 0;

  g_return_val_if_fail (SLUICE_IS_STORE_ALERTS (self), alerts);

  for (guint i = 0; i < tenants->len; i++)
    dead += ((SluiceStoreTenant *) g_ptr_array_index (tenants, i))->counts[SLUICE_STORED_JOB_DEAD];
  if (self->seen_tenants && dead > self->dead)
    {
      SluiceStoreAlert *alert = g_new0 (SluiceStoreAlert, 1);

      alert->kind = SLUICE_STORE_ALERT_DEAD_JOBS_ROSE;
      alert->rise = dead - self->dead;
      alert->id = g_strdup ("store-dead-jobs");
      alert->title = g_strdup (_("Dead jobs rose"));
      alert->body = dead_body (alert->rise, dead);
      deliver (self, alert);
      g_ptr_array_add (alerts, alert);
    }
  self->seen_tenants = TRUE;
  self->dead = dead;
  return alerts;
}

/**
 * sluice_store_alerts_observe_workers:
 * @self: a #SluiceStoreAlerts
 * @workers: (element-type SluiceStoreWorker): a read of the workers
 *
 * Compares @workers with the read before: each worker lost since is an
 * alert of its own.
 *
 * Returns: (transfer container) (element-type SluiceStoreAlert): the
 *   alerts it decided, each sent when the window is not active
 */
GPtrArray *
sluice_store_alerts_observe_workers (SluiceStoreAlerts *self,
                                     GPtrArray         *workers)
{
  GPtrArray *alerts = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_store_alert_free);
  GHashTable *lost = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  g_return_val_if_fail (SLUICE_IS_STORE_ALERTS (self), alerts);

  for (guint i = 0; i < workers->len; i++)
    {
      const SluiceStoreWorker *w = g_ptr_array_index (workers, i);
      SluiceStoreAlert *alert;

      if (!w->lost)
        continue;
      g_hash_table_add (lost, g_strdup (w->id));
      if (!self->seen_workers || g_hash_table_contains (self->lost, w->id))
        continue;
      alert = g_new0 (SluiceStoreAlert, 1);
      alert->kind = SLUICE_STORE_ALERT_WORKER_LOST;
      alert->worker = g_strdup (w->id);
      alert->id = g_strdup_printf ("store-worker-lost-%s", w->id);
      /* Translators: a notification's title; %s is a worker's id */
      alert->title = g_strdup_printf (_("Worker %s lost"), w->id);
      alert->body = g_strdup_printf (_("No heartbeat from %s (%s, pid %d) for %d leases: "
                                       "its claims go back to the queue when their leases expire."),
                                     w->id, w->host, (int) w->pid, SLUICE_STORE_ADMIN_LOST_LEASES);
      deliver (self, alert);
      g_ptr_array_add (alerts, alert);
    }
  g_hash_table_unref (self->lost);
  self->lost = lost;
  self->seen_workers = TRUE;
  return alerts;
}

/**
 * sluice_store_alerts_set_window_active:
 * @self: a #SluiceStoreAlerts
 * @active: whether the store window is the active one
 *
 * Alerts decided while the window is active are not sent.
 */
void
sluice_store_alerts_set_window_active (SluiceStoreAlerts *self,
                                       gboolean           active)
{
  g_return_if_fail (SLUICE_IS_STORE_ALERTS (self));
  self->active = !!active;
}

/**
 * sluice_store_alerts_reset:
 * @self: a #SluiceStoreAlerts
 *
 * Another store: its next reads are the baseline again.
 */
void
sluice_store_alerts_reset (SluiceStoreAlerts *self)
{
  g_return_if_fail (SLUICE_IS_STORE_ALERTS (self));
  self->seen_tenants = FALSE;
  self->seen_workers = FALSE;
  self->dead = 0;
  g_hash_table_remove_all (self->lost);
}

static void
sluice_store_alerts_finalize (GObject *object)
{
  SluiceStoreAlerts *self = SLUICE_STORE_ALERTS (object);

  g_clear_weak_pointer (&self->application);
  g_hash_table_unref (self->lost);
  G_OBJECT_CLASS (sluice_store_alerts_parent_class)->finalize (object);
}

static void
sluice_store_alerts_class_init (SluiceStoreAlertsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_store_alerts_finalize;
}

static void
sluice_store_alerts_init (SluiceStoreAlerts *self)
{
  self->lost = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/**
 * sluice_store_alerts_new:
 * @application: (nullable): the application that sends the notifications
 *
 * Returns: (transfer full): alerts with no read yet
 */
SluiceStoreAlerts *
sluice_store_alerts_new (GApplication *application)
{
  SluiceStoreAlerts *self = g_object_new (SLUICE_TYPE_STORE_ALERTS, NULL);

  g_return_val_if_fail (application == NULL || G_IS_APPLICATION (application), self);
  g_set_weak_pointer (&self->application, application);
  return self;
}
