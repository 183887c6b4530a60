/* sluice-store-source.h: a pool's source that claims jobs from a job store
 * (docs/job-store.md, the seed's Worker._poll)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-job-store.h"

G_BEGIN_DECLS

/**
 * SLUICE_STORE_ITEM_TYPE:
 *
 * The #GVariant type of the items a #SluiceStoreSource yields: the job's
 * id, its operation key, the attempt this claim is (from 1) and its
 * payload (JSON text).
 */
#define SLUICE_STORE_ITEM_TYPE ((const GVariantType *) "(ssus)")

#define SLUICE_TYPE_STORE_SOURCE (sluice_store_source_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreSource, sluice_store_source, SLUICE, STORE_SOURCE, GObject)

SluiceStoreSource    *sluice_store_source_new               (SluiceJobStore    *store,
                                                             SluiceClock       *clock,
                                                             const char        *tenant,
                                                             const char        *owner,
                                                             double             lease,
                                                             double             poll_interval,
                                                             GError           **error);
SluiceJobStore       *sluice_store_source_get_store         (SluiceStoreSource *self);
SluiceClock          *sluice_store_source_get_clock         (SluiceStoreSource *self);
const char           *sluice_store_source_get_tenant        (SluiceStoreSource *self);
const char           *sluice_store_source_get_owner         (SluiceStoreSource *self);
double                sluice_store_source_get_lease         (SluiceStoreSource *self);
double                sluice_store_source_get_poll_interval (SluiceStoreSource *self);
gboolean              sluice_store_source_get_until_empty   (SluiceStoreSource *self);
void                  sluice_store_source_set_until_empty   (SluiceStoreSource *self,
                                                             gboolean           until_empty);
void                  sluice_store_source_set_epoch         (SluiceStoreSource *self,
                                                             gint64             epoch);
gint64                sluice_store_source_now               (SluiceStoreSource *self);
const SluiceJobClaim *sluice_store_source_lookup_claim      (SluiceStoreSource *self,
                                                             GVariant          *item);
void                  sluice_store_source_forget_claim      (SluiceStoreSource *self,
                                                             const SluiceJobClaim *claim);
guint                 sluice_store_source_get_n_claims      (SluiceStoreSource *self);
guint                 sluice_store_source_get_max_claims    (SluiceStoreSource *self);
void                  sluice_store_source_set_claim_ahead   (SluiceStoreSource *self,
                                                             guint              claim_ahead);
guint                 sluice_store_source_get_n_claimed     (SluiceStoreSource *self);
guint                 sluice_store_source_get_n_released    (SluiceStoreSource *self);
guint                 sluice_store_source_get_n_release_failed (SluiceStoreSource *self);
double                sluice_store_source_get_store_error_timeout (SluiceStoreSource *self);
void                  sluice_store_source_item_dropped      (SluiceStoreSource *self,
                                                             GVariant          *item);
gboolean              sluice_store_source_register_worker   (SluiceStoreSource *self,
                                                             double             heartbeat,
                                                             GError           **error);
void                  sluice_store_source_close_async       (SluiceStoreSource *self,
                                                             GCancellable      *cancellable,
                                                             GAsyncReadyCallback callback,
                                                             gpointer           user_data);
gboolean              sluice_store_source_close_finish      (SluiceStoreSource *self,
                                                             GAsyncResult      *result,
                                                             GError           **error);

G_END_DECLS
