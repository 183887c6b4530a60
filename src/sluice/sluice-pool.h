/* sluice-pool.h: the worker pool and its options
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include "sluice-clock.h"
#include "sluice-event.h"
#include "sluice-handler.h"
#include "sluice-retry-policy.h"
#include "sluice-run.h"
#include "sluice-source.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceMetricsFunc:
 * @event: `ok`, `retry` or `failure`
 * @detail: the repr of the item (`ok`) or of the error (`retry`, `failure`)
 * @user_data: the data given to sluice_pool_set_metrics_func()
 * @error: a broken metrics backend may set it; the pool frees it and goes on
 *
 * Receives one call per item event. It may re-enter the pool (for example,
 * request a stop).
 *
 * Returns: %FALSE if the backend failed (the pool ignores the failure)
 *
 * Since: 1.0
 */
typedef gboolean (*SluiceMetricsFunc) (const char  *event,
                                       const char  *detail,
                                       gpointer     user_data,
                                       GError     **error);

/**
 * SLUICE_POOL_MAX_WORKERS:
 *
 * The most workers a pool accepts. A run keeps a small record for every
 * worker from its start, so an unbounded count would be an unbounded
 * allocation; a million workers take about 50 MB.
 *
 * Since: 1.0
 */
#define SLUICE_POOL_MAX_WORKERS 1000000

/**
 * SLUICE_POOL_DEFAULT_EVENT_CAPACITY:
 *
 * How many events a pool's D-Bus export keeps by default: the default of
 * #SluicePool:event-capacity.
 *
 * Since: 1.0
 */
#define SLUICE_POOL_DEFAULT_EVENT_CAPACITY 10000

/**
 * SLUICE_POOL_MAX_EVENT_CAPACITY:
 *
 * The largest #SluicePool:event-capacity: a million events take about
 * 170 MB.
 *
 * Since: 1.0
 */
#define SLUICE_POOL_MAX_EVENT_CAPACITY 1000000

#define SLUICE_TYPE_POOL (sluice_pool_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluicePool, sluice_pool, SLUICE, POOL, GObject)

SLUICE_AVAILABLE_IN_1_0
SluicePool     *sluice_pool_new                (SluiceHandler      *handler,
                                                gint                workers,
                                                gint                queue_size,
                                                double              item_timeout,
                                                GError            **error);
SLUICE_AVAILABLE_IN_1_0
SluiceHandler  *sluice_pool_get_handler        (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
SluiceClock    *sluice_pool_get_clock          (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gint            sluice_pool_get_workers        (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gint            sluice_pool_get_queue_size     (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
double          sluice_pool_get_item_timeout   (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gint            sluice_pool_get_max_retries    (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gboolean        sluice_pool_get_keep_going     (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gboolean        sluice_pool_get_keep_errors    (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
const char * const *sluice_pool_get_retryable  (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gboolean        sluice_pool_is_retryable       (SluicePool         *self,
                                                const GError       *error);
SLUICE_AVAILABLE_IN_1_0
const char * const *sluice_pool_get_fatal     (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gboolean        sluice_pool_is_fatal           (SluicePool         *self,
                                                const GError       *error);
SLUICE_AVAILABLE_IN_1_0
double          sluice_pool_get_shutdown_timeout (SluicePool       *self);
SLUICE_AVAILABLE_IN_1_0
SluiceBackoff   sluice_pool_get_backoff        (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
double          sluice_pool_get_item_deadline  (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
double          sluice_pool_get_retry_budget   (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
void            sluice_pool_set_random_func    (SluicePool         *self,
                                                SluiceRandomFunc    func,
                                                gpointer            user_data,
                                                GDestroyNotify      destroy);
SLUICE_AVAILABLE_IN_1_0
void            sluice_pool_set_metrics_func   (SluicePool         *self,
                                                SluiceMetricsFunc   func,
                                                gpointer            user_data,
                                                GDestroyNotify      destroy);
SLUICE_AVAILABLE_IN_1_0
void            sluice_pool_set_event_func     (SluicePool         *self,
                                                SluiceEventFunc     func,
                                                gpointer            user_data,
                                                GDestroyNotify      destroy);
SLUICE_AVAILABLE_IN_1_0
void            sluice_pool_request_stop       (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
gboolean        sluice_pool_get_stop_requested (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
void            sluice_pool_set_title          (SluicePool         *self,
                                                const char         *title);
SLUICE_AVAILABLE_IN_1_0
const char     *sluice_pool_get_title          (SluicePool         *self);
SLUICE_AVAILABLE_IN_1_0
const char     *sluice_pool_get_label          (SluicePool         *self,
                                                const char         *key);
SLUICE_AVAILABLE_IN_1_0
SluiceRun      *sluice_pool_open               (SluicePool         *self,
                                                GError            **error);
SLUICE_AVAILABLE_IN_1_0
SluiceRun      *sluice_pool_run                (SluicePool         *self,
                                                SluiceSource       *source,
                                                GError            **error);

G_END_DECLS
