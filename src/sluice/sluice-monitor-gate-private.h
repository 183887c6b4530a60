/* sluice-monitor-gate-private.h: how many calls an export lets through to
 * the pool's main loop, per caller and in all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* How many calls to an exported pool one peer may make a second, and all
 * peers together, on average (a token bucket each, as deep as
 * SLUICE_MONITOR_*_BURST calls); past either, a call is refused with
 * org.freedesktop.DBus.Error.LimitsExceeded before it reaches the pool's
 * main loop. The gate remembers at most SLUICE_MONITOR_GATE_PEERS peers;
 * others are bounded by the total alone. */
#define SLUICE_MONITOR_PEER_CALLS_PER_S 50
#define SLUICE_MONITOR_PEER_BURST       50
#define SLUICE_MONITOR_CALLS_PER_S      1000
#define SLUICE_MONITOR_BURST            200
#define SLUICE_MONITOR_GATE_PEERS       64

typedef struct _SluiceMonitorGate SluiceMonitorGate;

SluiceMonitorGate *_sluice_monitor_gate_new         (GDBusConnection   *connection,
                                                     const char        *object_path);
void               _sluice_monitor_gate_close       (SluiceMonitorGate *gate);
guint64            _sluice_monitor_gate_get_n_refused (SluiceMonitorGate *gate);

G_END_DECLS
