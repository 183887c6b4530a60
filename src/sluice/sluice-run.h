/* sluice-run.h: one run of a pool, read like an async iterator
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <gio/gio.h>

#include "sluice-job.h"
#include "sluice-snapshot.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceRunStats:
 * @pulled: items pulled from the source; in a service run, the
 *   submissions: the jobs admitted, those waiting for room and those
 *   refused with %SLUICE_ERROR_CLOSED (not those withdrawn by their
 *   cancellable)
 * @succeeded: items that succeeded
 * @failed: items that failed for good
 * @dropped: items pulled but never handled (a stop or cancel came first)
 * @cancelled: items whose attempt the caller cancelled in flight
 * @retries: retries started
 * @attempts: handler calls
 * @timeouts: attempts that timed out
 * @queued: items in the input channel now
 * @in_flight: attempts running now
 * @lead: items pulled and not handled successfully now
 * @max_lead: the largest @lead seen each time the source yielded; in a
 *   service run, at each submission (refused ones stay in the lead)
 * @yielded: results handed to the caller
 * @shed: items failed for good by their deadline before a handler call
 * @skipped_deadline: retries skipped because their backoff would end at
 *   or after the item deadline
 * @skipped_budget: retries the retry budget refused
 * @deadline_hit: the shutdown deadline fired before the run ended
 * @dropped_queued: items in the input channel when the shutdown deadline
 *   fired
 * @cancelled_in_flight: workers holding an item (an attempt, its stop
 *   rounds or a backoff) when the shutdown deadline fired
 * @overrun: attempts that ended later than the shutdown deadline (they
 *   ignored its cancellation)
 * @fatal: attempts that failed with a fatal error
 *
 * Counters of a run, for reports and live views.
 *
 * Since: 1.0
 */
typedef struct {
  guint pulled;
  guint succeeded;
  guint failed;
  guint dropped;
  guint cancelled;
  guint retries;
  guint attempts;
  guint timeouts;
  guint queued;
  guint in_flight;
  guint lead;
  guint max_lead;
  guint yielded;
  guint shed;
  guint skipped_deadline;
  guint skipped_budget;
  guint deadline_hit;
  guint dropped_queued;
  guint cancelled_in_flight;
  guint overrun;
  guint fatal;
} SluiceRunStats;

#define SLUICE_TYPE_RUN (sluice_run_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceRun, sluice_run, SLUICE, RUN, GObject)

SLUICE_AVAILABLE_IN_1_0
void        sluice_run_next_async           (SluiceRun            *self,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
GVariant   *sluice_run_next_finish          (SluiceRun            *self,
                                             GAsyncResult         *result,
                                             GError              **error);
SLUICE_AVAILABLE_IN_1_0
void        sluice_run_next_batch_async     (SluiceRun            *self,
                                             guint                 max_results,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
GPtrArray  *sluice_run_next_batch_finish    (SluiceRun            *self,
                                             GAsyncResult         *result,
                                             GError              **error);
SLUICE_AVAILABLE_IN_1_0
void        sluice_run_close_async          (SluiceRun            *self,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
gboolean    sluice_run_close_finish         (SluiceRun            *self,
                                             GAsyncResult         *result,
                                             GError              **error);
SLUICE_AVAILABLE_IN_1_0
GPtrArray  *sluice_run_get_errors           (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
guint       sluice_run_get_live_operations  (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
void        sluice_run_submit_async         (SluiceRun            *self,
                                             GVariant             *item,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
SluiceJob  *sluice_run_submit_finish        (SluiceRun            *self,
                                             GAsyncResult         *result,
                                             GError              **error);
SLUICE_AVAILABLE_IN_1_0
gboolean    sluice_run_is_service           (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
void        sluice_run_cancel               (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
gboolean    sluice_run_is_finished          (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
void        sluice_run_get_stats            (SluiceRun            *self,
                                             SluiceRunStats       *stats);
SLUICE_AVAILABLE_IN_1_0
SluiceSnapshot *sluice_run_get_snapshot     (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
gint64      sluice_run_get_started_at       (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
gint64      sluice_run_get_finished_at      (SluiceRun            *self);
SLUICE_AVAILABLE_IN_1_0
char       *sluice_run_describe_waiting     (SluiceRun            *self);

G_END_DECLS
