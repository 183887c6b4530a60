/* sluice-remote-pool.h: a pool another process exports on D-Bus, watched
 * from here
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-recorder.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_REMOTE_POOL (sluice_remote_pool_get_type ())
G_DECLARE_FINAL_TYPE (SluiceRemotePool, sluice_remote_pool, SLUICE, REMOTE_POOL, GObject)

void              sluice_remote_pool_new_async       (GDBusConnection     *connection,
                                                      const char          *bus_name,
                                                      const char          *object_path,
                                                      GCancellable        *cancellable,
                                                      GAsyncReadyCallback  callback,
                                                      gpointer             user_data);
SluiceRemotePool *sluice_remote_pool_new_finish      (GAsyncResult        *result,
                                                      GError             **error);

const char       *sluice_remote_pool_get_bus_name    (SluiceRemotePool    *self);
const char       *sluice_remote_pool_get_object_path (SluiceRemotePool    *self);
guint             sluice_remote_pool_get_pid         (SluiceRemotePool    *self);
char             *sluice_remote_pool_dup_title       (SluiceRemotePool    *self);
char             *sluice_remote_pool_dup_program     (SluiceRemotePool    *self);
char             *sluice_remote_pool_dup_label       (SluiceRemotePool    *self,
                                                      const char          *key);
char             *sluice_remote_pool_dup_state       (SluiceRemotePool    *self);
GVariant         *sluice_remote_pool_dup_config      (SluiceRemotePool    *self);
GVariant         *sluice_remote_pool_dup_snapshot    (SluiceRemotePool    *self);
gboolean          sluice_remote_pool_get_can_stop    (SluiceRemotePool    *self);
gboolean          sluice_remote_pool_get_vanished    (SluiceRemotePool    *self);
char             *sluice_remote_pool_describe        (SluiceRemotePool    *self);
char             *sluice_remote_pool_dup_scenario_text (SluiceRemotePool  *self);

void              sluice_remote_pool_attach          (SluiceRemotePool    *self,
                                                      SluiceRecorder      *recorder);
void              sluice_remote_pool_detach          (SluiceRemotePool    *self);
gboolean          sluice_remote_pool_get_attached    (SluiceRemotePool    *self);
gboolean          sluice_remote_pool_get_caught_up   (SluiceRemotePool    *self);
guint64           sluice_remote_pool_get_n_lost      (SluiceRemotePool    *self);

void              sluice_remote_pool_request_stop_async  (SluiceRemotePool    *self,
                                                          GCancellable        *cancellable,
                                                          GAsyncReadyCallback  callback,
                                                          gpointer             user_data);
gboolean          sluice_remote_pool_request_stop_finish (SluiceRemotePool    *self,
                                                          GAsyncResult        *result,
                                                          GError             **error);

G_END_DECLS
