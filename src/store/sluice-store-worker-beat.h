/* sluice-store-worker-beat.h: a worker's row in its store, kept alive by
 * a heartbeat (docs/store-admin.md, "Workers")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-admin.h"

G_BEGIN_DECLS

typedef struct _SluiceStoreWorkerBeat SluiceStoreWorkerBeat;

SluiceStoreWorkerBeat *sluice_store_worker_beat_new    (SluiceJobStore         *store,
                                                        const char             *worker_id,
                                                        const char             *tenants,
                                                        gint64                  lease_us,
                                                        guint                   interval_ms);
gboolean               sluice_store_worker_beat_register (SluiceStoreWorkerBeat *self,
                                                        GError                **error);
void                   sluice_store_worker_beat_start  (SluiceStoreWorkerBeat  *self);
SluiceStoreAdminQuery *sluice_store_worker_beat_query  (SluiceStoreWorkerBeat  *self);
void                   sluice_store_worker_beat_count  (SluiceStoreWorkerBeat  *self,
                                                        gboolean                done);
void                   sluice_store_worker_beat_free   (SluiceStoreWorkerBeat  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreWorkerBeat, sluice_store_worker_beat_free)

G_END_DECLS
