/* sluice-store-handler.h: the attempt of a stored job: heartbeat, lease,
 * outcome back to the store (docs/job-store.md, the seed's Worker._execute)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-store-source.h"

G_BEGIN_DECLS

/**
 * SLUICE_LEASE_LOST_ERROR:
 *
 * The type name of the error an attempt fails with when its claim's lease
 * was lost (a renew or its complete was refused): `LeaseLostError`, in the
 * %SLUICE_NAMED_ERROR domain.
 */
#define SLUICE_LEASE_LOST_ERROR "LeaseLostError"

/**
 * SluiceStoreOutcome:
 * @SLUICE_STORE_OUTCOME_SUCCEEDED: the job succeeded and the store took the
 *   completion
 * @SLUICE_STORE_OUTCOME_RETRY: the attempt failed and the store will offer
 *   the job again at its available_at (state retry_wait)
 * @SLUICE_STORE_OUTCOME_DEAD: the attempt failed for good: not retryable,
 *   or the job is out of attempts (state dead)
 * @SLUICE_STORE_OUTCOME_LEASE_LOST: the lease was lost while the attempt
 *   ran (the attempt was cancelled and awaited), or the store refused its
 *   complete or fail: another claim owns the job now
 * @SLUICE_STORE_OUTCOME_ABANDONED: a shutdown cancelled the attempt: nothing
 *   was written, the lease expires and the job is claimed again
 * @SLUICE_STORE_OUTCOME_STORE_ERROR: the store failed to take the outcome;
 *   the lease expires and the job is claimed again
 * @SLUICE_STORE_OUTCOME_CANCELLED: an operator cancelled the job while it
 *   ran (a renew said so): the attempt was cancelled and awaited, and the
 *   store recorded the job cancelled (docs/store-admin.md)
 *
 * What became of one claim of a stored job.
 */
typedef enum {
  SLUICE_STORE_OUTCOME_SUCCEEDED,
  SLUICE_STORE_OUTCOME_RETRY,
  SLUICE_STORE_OUTCOME_DEAD,
  SLUICE_STORE_OUTCOME_LEASE_LOST,
  SLUICE_STORE_OUTCOME_ABANDONED,
  SLUICE_STORE_OUTCOME_STORE_ERROR,
  SLUICE_STORE_OUTCOME_CANCELLED,
} SluiceStoreOutcome;

#define SLUICE_STORE_N_OUTCOMES 7

/**
 * SLUICE_CANCELLED_ERROR:
 *
 * The type name of the failure a worker writes for an attempt it
 * cancelled because an operator cancelled its job: `CancelledError`.
 */
#define SLUICE_CANCELLED_ERROR "CancelledError"

GType       sluice_store_outcome_get_type  (void) G_GNUC_CONST;
#define SLUICE_TYPE_STORE_OUTCOME (sluice_store_outcome_get_type ())
const char *sluice_store_outcome_to_string (SluiceStoreOutcome outcome);

#define SLUICE_TYPE_STORE_HANDLER (sluice_store_handler_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreHandler, sluice_store_handler, SLUICE, STORE_HANDLER, GObject)

SluiceStoreHandler *sluice_store_handler_new             (SluiceStoreSource  *source,
                                                          SluiceHandler      *inner,
                                                          double              heartbeat,
                                                          GError            **error);
SluiceStoreSource  *sluice_store_handler_get_source      (SluiceStoreHandler *self);
SluiceHandler      *sluice_store_handler_get_inner       (SluiceStoreHandler *self);
double              sluice_store_handler_get_heartbeat   (SluiceStoreHandler *self);
const char * const *sluice_store_handler_get_retryable   (SluiceStoreHandler *self);
gint64              sluice_store_handler_retry_delay     (SluiceStoreHandler *self,
                                                          guint               attempt);
void                sluice_store_handler_set_random_func (SluiceStoreHandler *self,
                                                          SluiceRandomFunc    func,
                                                          gpointer            user_data,
                                                          GDestroyNotify      destroy);

G_END_DECLS
