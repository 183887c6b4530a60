/* sluice-timebase-private.h: a clock's time: real, scaled or virtual
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-clock.h"

G_BEGIN_DECLS

/* What now() is for each #SluiceClockKind, and when (in monotonic time) it
 * reaches a deadline. Times are microseconds; now() is 0 at init. */
typedef struct
{
  SluiceClockKind kind;
  gint64          origin;          /* monotonic time at which now() was 0 */
  gint64          anchor_real;     /* scaled, paced: monotonic time of the anchor */
  gint64          anchor_virtual;  /* scaled: now() at the anchor; paced: the pace */
  gint64          virtual_now;     /* virtual, paced: now() */
  double          speed;
  gboolean        paused;
} SluiceTimebase;

G_GNUC_INTERNAL gint64 _sluice_time_add               (gint64          a,
                                                       gint64          b);

G_GNUC_INTERNAL void   _sluice_timebase_init          (SluiceTimebase *tb);
G_GNUC_INTERNAL gint64 _sluice_timebase_now           (SluiceTimebase *tb);
G_GNUC_INTERNAL gint64 _sluice_timebase_ready_time    (SluiceTimebase *tb,
                                                       gint64          deadline);
G_GNUC_INTERNAL void   _sluice_timebase_set_speed     (SluiceTimebase *tb,
                                                       double          speed);
G_GNUC_INTERNAL void   _sluice_timebase_set_paused    (SluiceTimebase *tb,
                                                       gboolean        paused);
G_GNUC_INTERNAL void   _sluice_timebase_advance_to    (SluiceTimebase *tb,
                                                       gint64          target);
G_GNUC_INTERNAL gint64 _sluice_timebase_pace          (SluiceTimebase *tb);

G_END_DECLS
