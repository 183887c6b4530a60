/* sluice-clock-source.c: the one GSource of a SluiceClock: when it is
 * ready and what a dispatch fires
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-clock-source-private.h"

typedef struct
{
  GSource      parent;
  /* Not a reference: the clock owns the source and forgets it in dispose. */
  SluiceClock *clock;
} SluiceClockSource;


gboolean
_sluice_clock_jumps (SluiceClock *self)
{
  return self->time.kind == SLUICE_CLOCK_VIRTUAL || self->time.kind == SLUICE_CLOCK_PACED;
}

static gint64
compute_ready_time (SluiceClock *self)
{
  SluiceTimer *top = _sluice_timer_heap_peek (&self->heap);

  if (_sluice_clock_jumps (self))
    {
      if (self->time.paused && !self->step_requested)
        return -1;
      if (top != NULL && self->time.kind == SLUICE_CLOCK_PACED && !self->step_requested)
        return MAX (_sluice_timebase_ready_time (&self->time, top->deadline), self->yield_until);
      if (top != NULL)
        return self->yield_until;
      /* Ready at the lowest priority only to notice that nothing else is. */
      if (self->hold_count > 0 && !self->stall_reported)
        return 0;
      return -1;
    }

  if (top == NULL)
    return -1;
  return _sluice_timebase_ready_time (&self->time, top->deadline);
}

void
_sluice_clock_update_ready_time (SluiceClock *self)
{
  /* A running fire loop updates once when it ends. */
  if (self->source == NULL || self->firing > 0)
    return;
  self->ready_time = compute_ready_time (self);
}

/* A turn lasts no longer than this many slices: a yield that lasted long
 * (a pause, a stopped process) gives the clock no long turn. */
#define MAX_TURNS 10

/* A jumping clock's turn on the main loop (#SluiceClock:slice) begins
 * when it moves time after having waited: for the pace, a pause, or its
 * own yield. A turn after a yield lasts as long as the yield did (the
 * other sources' frames with it), so that each side gets half the loop. */
static void
begin_turn (SluiceClock *self,
            gint64       wall)
{
  if (self->slice == 0 || self->busy_since != 0)
    return;

  self->turn = self->slice;
  if (self->yield_until != 0)
    self->turn = CLAMP (wall - self->yield_since, self->slice, MAX_TURNS * self->slice);
  self->yield_until = 0;
  self->busy_since = wall;
}

/* After moving time: waits if the turn is over, or forgets the turn when
 * the clock is about to wait anyway. */
static void
end_turn (SluiceClock *self)
{
  gint64 wall;

  if (self->slice == 0 || self->busy_since == 0)
    return;

  wall = g_get_monotonic_time ();
  if (self->ready_time < 0 || self->ready_time > wall)
    self->busy_since = 0;
  else if (wall - self->busy_since >= self->turn)
    {
      self->busy_since = 0;
      self->yield_since = wall;
      self->yield_until = wall + SLUICE_CLOCK_YIELD_US;
      _sluice_clock_update_ready_time (self);
    }
}

void
_sluice_clock_fire_due (SluiceClock *self,
          gint64       now)
{
  SluiceTimer *top = _sluice_timer_heap_peek (&self->heap);

  /* The earliest due timer is the latest of this dispatch. Virtual and
   * paced time fire every timer at its instant. */
  if (top != NULL && top->deadline <= now &&
      (self->time.kind == SLUICE_CLOCK_REAL || self->time.kind == SLUICE_CLOCK_SCALED))
    self->max_lateness = MAX (self->max_lateness, now - top->deadline);

  self->firing++;
  _sluice_timer_heap_fire_due (&self->heap, now, &self->disposed);
  self->firing--;
  _sluice_clock_update_ready_time (self);
}

static void
sluice_clock_dispatch (SluiceClock *self)
{
  SluiceTimer *top;

  switch (self->time.kind)
    {
    case SLUICE_CLOCK_REAL:
    case SLUICE_CLOCK_SCALED:
      _sluice_clock_fire_due (self, sluice_clock_now (self));
      break;

    case SLUICE_CLOCK_VIRTUAL:
    case SLUICE_CLOCK_PACED:
      if (self->time.paused && !self->step_requested)
        break;

      if (_sluice_timer_heap_get_n_pending (&self->heap) == 0)
        {
          /* We run at G_PRIORITY_LOW, so getting here means nothing else
           * in the main context was ready: whoever holds us is stuck. */
          if (self->hold_count > 0 && !self->stall_reported)
            {
              self->stall_reported = TRUE;
              _sluice_clock_update_ready_time (self);
              _sluice_clock_emit_stalled (self);
            }
          break;
        }

      top = _sluice_timer_heap_peek (&self->heap);
      /* Paced: the jump waits for the pace, and goes no further than the
       * next deadline however far the pace has run ahead. */
      if (top != NULL && self->time.kind == SLUICE_CLOCK_PACED && !self->step_requested &&
          _sluice_timebase_pace (&self->time) < top->deadline)
        break;
      if (top != NULL)
        {
          begin_turn (self, g_get_monotonic_time ());
          self->step_requested = FALSE;
          _sluice_timebase_advance_to (&self->time, top->deadline);
          _sluice_clock_fire_due (self, self->time.virtual_now);
          _sluice_clock_update_ready_time (self);
          end_turn (self);
        }
      break;

    default:
      g_assert_not_reached ();
    }

  _sluice_clock_update_ready_time (self);
}

static gboolean
sluice_clock_source_dispatch (GSource     *source,
                              GSourceFunc  callback,
                              gpointer     user_data)
{
  SluiceClockSource *clock_source = (SluiceClockSource *) source;
  g_autoptr(SluiceClock) self = NULL;

  (void) callback;
  (void) user_data;

  if (clock_source->clock == NULL)
    return G_SOURCE_REMOVE;

  /* A callback may drop the last reference to the clock. */
  self = g_object_ref (clock_source->clock);
  sluice_clock_dispatch (self);

  return G_SOURCE_CONTINUE;
}

/* The clock is only ever changed from the thread that iterates its
 * context, so whatever changed its ready time happened before this
 * iteration's prepare or check: no wake-up is needed. */
static gboolean
sluice_clock_source_prepare (GSource *source,
                             gint    *timeout)
{
  SluiceClock *self = ((SluiceClockSource *) source)->clock;
  gint64 now;

  *timeout = -1;
  if (self == NULL)
    return TRUE;
  if (self->ready_time < 0)
    return FALSE;
  if (self->ready_time == 0)
    return TRUE;

  now = g_source_get_time (source);
  if (self->ready_time <= now)
    return TRUE;

  /* Rounded up, as GLib does for ready times: never wake early and spin. */
  *timeout = (gint) MIN ((self->ready_time - now + 999) / 1000, G_MAXINT);
  return FALSE;
}

static gboolean
sluice_clock_source_check (GSource *source)
{
  SluiceClock *self = ((SluiceClockSource *) source)->clock;

  if (self == NULL)
    return TRUE;

  return self->ready_time >= 0 &&
         (self->ready_time == 0 || self->ready_time <= g_source_get_time (source));
}

static GSourceFuncs sluice_clock_source_funcs = {
  .prepare = sluice_clock_source_prepare,
  .check = sluice_clock_source_check,
  .dispatch = sluice_clock_source_dispatch,
};


GSource *
_sluice_clock_source_new (SluiceClock *self)
{
  GSource *source = g_source_new (&sluice_clock_source_funcs, sizeof (SluiceClockSource));

  ((SluiceClockSource *) source)->clock = self;
  g_source_set_static_name (source, "SluiceClock");
  return source;
}

/* The clock is going: the source dispatches nothing from now on. */
void
_sluice_clock_source_forget (GSource *source)
{
  ((SluiceClockSource *) source)->clock = NULL;
}
