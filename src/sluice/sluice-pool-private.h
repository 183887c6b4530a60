/* sluice-pool-private.h: what a run needs from its pool
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-pool.h"
#include "sluice-retry-policy-private.h"

G_BEGIN_DECLS

typedef struct _SluiceMonitor SluiceMonitor;   /* sluice-monitor-private.h */

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
  gboolean           keep_errors;
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

  char              *title;          /* NULL: the program's name */
  char             **labels;         /* key=value, or NULL */
  guint              event_capacity; /* of an export's ring */

  /* The D-Bus export (sluice-monitor.c), or none, and the second listener
   * of the event stream it adds beside the user's event function. */
  SluiceMonitor     *monitor;
  SluiceEventFunc    monitor_func;
  gpointer           monitor_data;
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
void     _sluice_pool_set_monitor_func (SluicePool        *self,
                                        SluiceEventFunc    func,
                                        gpointer           user_data);
void     _sluice_pool_get_monitor_func (SluicePool        *self,
                                        SluiceEventFunc   *func,
                                        gpointer          *user_data);
const char *_sluice_pool_get_state_nick (SluicePool       *self);
gint64   _sluice_pool_get_timeout_us   (SluicePool        *self);
gint64   _sluice_pool_get_shutdown_timeout_us (SluicePool *self);

G_END_DECLS
