/* sluice-monitor-job-private.h: the D-Bus messages of the export, made in
 * a thread of their own
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-event-ring-private.h"

G_BEGIN_DECLS

/* What an unexport waits for: its last job handed to the connection by
 * the thread, and the connection's flush after it completed. Shared by
 * the unexport, the job and the flush (an atomic reference-counted box):
 * an unexport that stops waiting leaves it to the others. */
typedef struct _SluiceMonitorFarewell SluiceMonitorFarewell;

SluiceMonitorFarewell *_sluice_monitor_farewell_new     (GDBusConnection       *connection);
SluiceMonitorFarewell *_sluice_monitor_farewell_acquire (SluiceMonitorFarewell *farewell);
void                   _sluice_monitor_farewell_release (SluiceMonitorFarewell *farewell);
gboolean               _sluice_monitor_farewell_wait    (SluiceMonitorFarewell *farewell,
                                                         gint64                 limit_us);

/* One message, or two: an Events batch and a PropertiesChanged after it,
 * or a GetEvents reply. A job owns what it holds and shares nothing with
 * the pool (a #GVariant is safe in any thread). */
typedef struct _SluiceMonitorJob SluiceMonitorJob;

struct _SluiceMonitorJob
{
  GDBusConnection       *connection;
  char                  *object_path;
  SluiceEvent           *events;      /* copies, owning their strings and values */
  guint                  n_events;
  GVariant              *array;       /* the events as an aa{sv}: made by the thread, or given */
  guint64                from;        /* the seq of the first event */
  guint64                lost;        /* a reply's */
  GVariant              *properties;  /* a PropertiesChanged to send after the batch, or NULL */
  GDBusMethodInvocation *invocation;  /* a GetEvents reply's, or NULL for a batch */
  SluiceMonitorFarewell *farewell;    /* an unexport's last job: told once it is written out */

  /* Called on @context once the thread has handed the job's messages to
   * the connection, with the job, which is freed after it; or nothing. */
  GMainContext          *context;
  GSourceFunc            sent;
  GObject               *owner;       /* held until then */
  gint64                 cost;        /* µs the thread spent on it */
};

SluiceMonitorJob *_sluice_monitor_job_new  (GDBusConnection       *connection,
                                            const char            *object_path,
                                            const SluiceEventRing *ring,
                                            guint64                from,
                                            guint64                to);
void              _sluice_monitor_job_set_sent (SluiceMonitorJob *job,
                                                GMainContext     *context,
                                                GSourceFunc       sent,
                                                gpointer          owner);
void              _sluice_monitor_job_free (SluiceMonitorJob      *job);
void              _sluice_monitor_job_push (SluiceMonitorJob      *job);

G_END_DECLS
