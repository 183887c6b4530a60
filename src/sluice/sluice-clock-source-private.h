/* sluice-clock-source-private.h: what the two units of a SluiceClock share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-clock-private.h"
#include "sluice-timebase-private.h"
#include "sluice-timer-heap-private.h"

G_BEGIN_DECLS

/* A clock is one object in two units: sluice-clock.c (the object and its
 * API) and sluice-clock-source.c (its GSource: readiness and dispatch). */
struct _SluiceClock
{
  GObject          parent_instance;

  SluiceTimebase   time;        /* its kind, speed, pause and now() */
  GSource         *source;
  gboolean         disposed;

  SluiceTimerHeap  heap;        /* the pending timers */
  guint            firing;      /* depth of running fire loops */

  guint            hold_count;
  gboolean         stall_reported;
  gint             priority;    /* of the work of pools on this clock */
  gint             advance_priority; /* virtual and paced: of moving time */

  /* Virtual and paced: the clock's turn on the main loop. It has been
   * ready back to back since busy_since (0: it has waited since) and may go
   * on for turn µs of wall time; then it waits until yield_until, so that
   * the context's other sources (a window's frames) run. */
  gint64           slice;
  gint64           turn;
  gint64           busy_since;
  gint64           yield_since;
  gint64           yield_until;
  gint64           max_lateness; /* real and scaled: the latest a timer fired */
  gboolean         step_requested; /* paced: jump once, paused or not, when
                                    * nothing else is ready */

  /* When the source is due, in monotonic time (0: at once; -1: never).
   * The source's prepare and check read it: setting a GSource's ready time
   * writes to the context's wake-up eventfd every time, a syscall per
   * timer added or removed. */
  gint64           ready_time;
};

G_GNUC_INTERNAL gboolean _sluice_clock_jumps              (SluiceClock *self);
G_GNUC_INTERNAL void     _sluice_clock_update_ready_time  (SluiceClock *self);
G_GNUC_INTERNAL void     _sluice_clock_fire_due           (SluiceClock *self,
                                                           gint64       now);
G_GNUC_INTERNAL void     _sluice_clock_emit_stalled       (SluiceClock *self);
G_GNUC_INTERNAL GSource *_sluice_clock_source_new         (SluiceClock *self);
G_GNUC_INTERNAL void     _sluice_clock_source_forget      (GSource     *source);

G_END_DECLS
