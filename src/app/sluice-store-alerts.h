/* sluice-store-alerts.h: the store window's alerts: from its successive
 * reads, whether dead jobs rose or a worker was lost, and a desktop
 * notification for it while the window is in the background
 * (docs/store-admin.md, "The store window": Alerts)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sluice-store-admin.h"

G_BEGIN_DECLS

/**
 * SluiceStoreAlertKind:
 * @SLUICE_STORE_ALERT_DEAD_JOBS_ROSE: more jobs are dead than at the read
 *   before
 * @SLUICE_STORE_ALERT_WORKER_LOST: a worker that was alive (or not yet
 *   seen) is lost
 */
typedef enum {
  SLUICE_STORE_ALERT_DEAD_JOBS_ROSE,
  SLUICE_STORE_ALERT_WORKER_LOST,
} SluiceStoreAlertKind;

/**
 * SluiceStoreAlert:
 * @kind: what happened
 * @id: the notification's id (a later one of the same id replaces it)
 * @title: its title, translated
 * @body: its text, translated
 * @rise: (dead jobs) by how many they rose
 * @worker: (nullable): (worker lost) the worker's id
 * @notified: whether it went out as a desktop notification (the window
 *   was not active)
 */
typedef struct {
  SluiceStoreAlertKind  kind;
  char                 *id;
  char                 *title;
  char                 *body;
  guint64               rise;
  char                 *worker;
  gboolean              notified;
} SluiceStoreAlert;

void sluice_store_alert_free (SluiceStoreAlert *alert);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreAlert, sluice_store_alert_free)

#define SLUICE_TYPE_STORE_ALERTS (sluice_store_alerts_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreAlerts, sluice_store_alerts, SLUICE, STORE_ALERTS, GObject)

SluiceStoreAlerts *sluice_store_alerts_new              (GApplication      *application);
void               sluice_store_alerts_set_window_active (SluiceStoreAlerts *self,
                                                          gboolean           active);
GPtrArray         *sluice_store_alerts_observe_tenants  (SluiceStoreAlerts *self,
                                                         GPtrArray         *tenants);
GPtrArray         *sluice_store_alerts_observe_workers  (SluiceStoreAlerts *self,
                                                         GPtrArray         *workers);
void               sluice_store_alerts_reset            (SluiceStoreAlerts *self);

G_END_DECLS
