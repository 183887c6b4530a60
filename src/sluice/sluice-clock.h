/* sluice-clock.h: one timer heap under one GSource, on real, scaled or virtual time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <glib-object.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceClockKind:
 * @SLUICE_CLOCK_REAL: monotonic wall time
 * @SLUICE_CLOCK_SCALED: wall time times a speed factor, with pause and step
 * @SLUICE_CLOCK_VIRTUAL: simulated time that jumps to the next timer
 *   whenever the main context has nothing else ready
 * @SLUICE_CLOCK_PACED: virtual time watched at a speed: it jumps like
 *   %SLUICE_CLOCK_VIRTUAL, from timer to timer, each firing at its exact
 *   instant, but never ahead of wall time times #SluiceClock:speed; it can
 *   be paused and stepped. A slow main loop delays what is seen, never
 *   what happens: a run gives the same outcome as on a virtual clock.
 *
 * How a #SluiceClock moves.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_CLOCK_REAL,
  SLUICE_CLOCK_SCALED,
  SLUICE_CLOCK_VIRTUAL,
  SLUICE_CLOCK_PACED,
} SluiceClockKind;

SLUICE_AVAILABLE_IN_1_0
GType sluice_clock_kind_get_type (void) G_GNUC_CONST;
#define SLUICE_TYPE_CLOCK_KIND (sluice_clock_kind_get_type ())

/**
 * SluiceTimerFunc:
 * @user_data: the data given to sluice_clock_add_timer()
 *
 * Called once when a timer is due, on the clock's main context.
 *
 * Since: 1.0
 */
typedef void (*SluiceTimerFunc) (gpointer user_data);

/**
 * SLUICE_CLOCK_YIELD_US:
 *
 * How long, in wall-clock microseconds, a virtual or paced clock whose
 * #SluiceClock:slice is over waits before it moves time again.
 *
 * Since: 1.0
 */
#define SLUICE_CLOCK_YIELD_US 1000

/**
 * SLUICE_CLOCK_INTERACTIVE_SLICE_US:
 *
 * The #SluiceClock:slice of sluice_clock_new_interactive(): long enough
 * that waiting costs a run little, short enough for 30 frames a second
 * (the window benchmark, cairo: 10 ms gave 39 frames/s and a longest gap
 * of 86 ms for 8% longer runs; 20 ms, 30 frames/s and 107 ms).
 *
 * Since: 1.0
 */
#define SLUICE_CLOCK_INTERACTIVE_SLICE_US 10000

#define SLUICE_TYPE_CLOCK (sluice_clock_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceClock, sluice_clock, SLUICE, CLOCK, GObject)

SLUICE_AVAILABLE_IN_1_0
SluiceClock     *sluice_clock_new               (SluiceClockKind  kind);
SLUICE_AVAILABLE_IN_1_0
SluiceClock     *sluice_clock_new_with_priority (SluiceClockKind  kind,
                                                 gint             priority);
SLUICE_AVAILABLE_IN_1_0
SluiceClock     *sluice_clock_new_interactive   (SluiceClockKind  kind);
SLUICE_AVAILABLE_IN_1_0
SluiceClockKind  sluice_clock_get_kind          (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
gint             sluice_clock_get_priority      (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
gint             sluice_clock_get_advance_priority (SluiceClock  *self);
SLUICE_AVAILABLE_IN_1_0
gint64           sluice_clock_get_slice         (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
gint64           sluice_clock_now               (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
gint64           sluice_clock_get_shown_time    (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
gint64           sluice_clock_get_max_lateness  (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
guint64          sluice_clock_add_timer         (SluiceClock     *self,
                                                 gint64           deadline,
                                                 SluiceTimerFunc  func,
                                                 gpointer         user_data,
                                                 GDestroyNotify   destroy);
SLUICE_AVAILABLE_IN_1_0
guint64          sluice_clock_add_timeout       (SluiceClock     *self,
                                                 gint64           delay,
                                                 SluiceTimerFunc  func,
                                                 gpointer         user_data,
                                                 GDestroyNotify   destroy);
SLUICE_AVAILABLE_IN_1_0
gboolean         sluice_clock_remove_timer      (SluiceClock     *self,
                                                 guint64          timer_id);
SLUICE_AVAILABLE_IN_1_0
guint            sluice_clock_get_n_pending     (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
gint64           sluice_clock_get_next_deadline (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
double           sluice_clock_get_speed         (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
void             sluice_clock_set_speed         (SluiceClock     *self,
                                                 double           speed);
SLUICE_AVAILABLE_IN_1_0
gboolean         sluice_clock_get_paused        (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
void             sluice_clock_set_paused        (SluiceClock     *self,
                                                 gboolean         paused);
SLUICE_AVAILABLE_IN_1_0
gboolean         sluice_clock_step              (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
void             sluice_clock_hold              (SluiceClock     *self);
SLUICE_AVAILABLE_IN_1_0
void             sluice_clock_release           (SluiceClock     *self);

G_END_DECLS
