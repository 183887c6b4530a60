/* sluice-pool-private.h: what a run needs from its pool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-pool.h"
#include "sluice-retry-policy-private.h"

G_BEGIN_DECLS

/* The pool is one object in two units: sluice-pool.c (construction,
 * validation, the run) and sluice-pool-options.c (reading its options). */
struct _SluicePool
{
  GObject            parent_instance;

  SluiceHandler     *handler;
  SluiceClock       *clock;
  gint               workers;
  gint               queue_size;
  double             item_timeout;
  gint               max_retries;
  gboolean           keep_going;
  GStrv              retryable;
  GStrv              fatal;
  double             shutdown_timeout;
  SluiceRetryPolicy  retry_policy;

  SluiceMetricsFunc  metrics_func;
  gpointer           metrics_data;
  GDestroyNotify     metrics_destroy;

  SluiceEventFunc    event_func;
  gpointer           event_data;
  GDestroyNotify     event_destroy;

  SluiceRun         *run;          /* weak */
  gboolean           ran;
  gboolean           stop_requested;
};

void     _sluice_pool_format_double    (char               buffer[G_ASCII_DTOSTR_BUF_SIZE],
                                        double             value);
gboolean _sluice_pool_invalid_config   (GError           **error,
                                        const char        *option,
                                        const char        *expected,
                                        const char        *value);
SluiceRetryPolicy *_sluice_pool_get_retry_policy (SluicePool *self);

void     _sluice_pool_take_event_func  (SluicePool        *self,
                                        SluiceEventFunc   *func,
                                        gpointer          *user_data,
                                        GDestroyNotify    *destroy);
gboolean _sluice_pool_has_metrics_func (SluicePool        *self);
void     _sluice_pool_emit_metrics     (SluicePool        *self,
                                        const char        *event,
                                        const char        *detail);
gint64   _sluice_pool_get_timeout_us   (SluicePool        *self);
gint64   _sluice_pool_get_shutdown_timeout_us (SluicePool *self);

G_END_DECLS
