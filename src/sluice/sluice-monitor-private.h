/* sluice-monitor-private.h: a pool's D-Bus export, as the pool and the
 * tests see it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-monitor.h"
#include "sluice-pool-private.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_MONITOR (_sluice_monitor_get_type ())
G_DECLARE_FINAL_TYPE (SluiceMonitor, _sluice_monitor, SLUICE, MONITOR, GObject)

/* How many events one Events signal carries at most, how long a batch
 * waits at most (ms), and how many events one GetEvents reply gives. */
#define SLUICE_MONITOR_BATCH_MAX   256
#define SLUICE_MONITOR_BATCH_MS    50
#define SLUICE_MONITOR_REPLY_MAX   4096
/* After a batch, the export's thread rests this many times as long as the
 * batch took it: at most a quarter of a processor's time. */
#define SLUICE_MONITOR_REST_FACTOR 3
/* How long an unexport (and so a pool's finalize) waits at most for its
 * last events to be written out (µs). */
#define SLUICE_MONITOR_FAREWELL_WAIT_US (1 * G_USEC_PER_SEC)

/* What the tests read of an export. */
typedef struct
{
  guint64 first_seq;       /* the oldest event held */
  guint64 next_seq;        /* the next event's number */
  guint   n_held;          /* next_seq - first_seq, at most the capacity */
  guint   n_allocated;     /* ring slots allocated, at most the capacity */
  guint   n_subscribers;
  guint64 n_batches;       /* Events signals sent */
  guint64 n_skipped;       /* events overwritten before a signal carried them */
  guint64 n_held_back;     /* flushes that events waited for */
  guint64 batch_from;      /* the first event no signal carried yet */
  gboolean flushing;       /* an emission is not yet written out */
  gboolean urgent;         /* the run ended: what waits goes once that is written */
  gboolean timer_armed;    /* a batch waits for the timer */
  guint   n_calls_waiting; /* GetEvents calls not yet answered, the one in progress included */
  guint64 n_calls_answered;
  guint64 n_calls_refused; /* GetEvents calls refused with LimitsExceeded, too many waiting */
  guint64 n_calls_gated;   /* calls refused with LimitsExceeded, too many a second */
} SluiceMonitorStats;

/* The GResource holding the interface's XML (sluice-monitor-resources.c,
 * generated with --manual-register). */
GResource     *_sluice_monitor_get_resource  (void);
void           _sluice_monitor_register_resource   (void);
void           _sluice_monitor_unregister_resource (void);

SluiceMonitor *_sluice_monitor_new           (SluicePool          *pool,
                                              GDBusConnection     *connection,
                                              SluiceExportFlags    flags,
                                              GError             **error);
void           _sluice_monitor_unexport      (SluiceMonitor       *self);
const char    *_sluice_monitor_get_object_path (SluiceMonitor     *self);
void           _sluice_monitor_title_changed (SluiceMonitor       *self);
void           _sluice_monitor_get_stats     (SluiceMonitor       *self,
                                              SluiceMonitorStats  *stats);
GDBusInterfaceInfo *_sluice_monitor_get_interface_info (void);

void           _sluice_monitor_export_from_environment (SluicePool *pool);

G_END_DECLS
