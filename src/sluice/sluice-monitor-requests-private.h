/* sluice-monitor-requests-private.h: the GetEvents calls an export waits
 * to answer, bounded per peer and in all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How many GetEvents calls of one peer may wait for their reply (the one
 * being answered included), and of all peers together; past either the
 * call is refused with org.freedesktop.DBus.Error.LimitsExceeded. */
#define SLUICE_MONITOR_PEER_CALLS_MAX 4
#define SLUICE_MONITOR_CALLS_MAX      8

typedef struct _SluiceMonitorRequests SluiceMonitorRequests;

/* Starts the reply to @invocation (transfer full), events from @from on;
 * once it is written out, the export calls
 * _sluice_monitor_requests_answered(). */
typedef void (*SluiceMonitorAnswerFunc) (GDBusMethodInvocation *invocation,
                                         guint64                from,
                                         gpointer               user_data);

typedef struct
{
  guint   n_waiting;      /* calls not yet answered, the one in progress included */
  guint   n_peers;        /* peers that have some */
  gboolean answering;     /* a reply is on its way out */
  guint64 n_answered;
  guint64 n_refused;
} SluiceMonitorRequestsStats;

SluiceMonitorRequests *_sluice_monitor_requests_new        (GMainContext            *context,
                                                            SluiceMonitorAnswerFunc  answer,
                                                            gpointer                 user_data);
void                   _sluice_monitor_requests_free       (SluiceMonitorRequests   *self);
void                   _sluice_monitor_requests_add        (SluiceMonitorRequests   *self,
                                                            GDBusMethodInvocation   *invocation,
                                                            guint64                  from);
void                   _sluice_monitor_requests_answered   (SluiceMonitorRequests   *self,
                                                            gint64                   cost);
void                   _sluice_monitor_requests_refuse_all (SluiceMonitorRequests   *self,
                                                            const char              *object_path);
void                   _sluice_monitor_requests_get_stats  (SluiceMonitorRequests      *self,
                                                            SluiceMonitorRequestsStats *stats);

G_END_DECLS
