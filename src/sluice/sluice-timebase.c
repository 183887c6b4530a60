/* sluice-timebase.c: a clock's time: real, scaled or virtual
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-timebase-private.h"

/* Saturating arithmetic: deadlines may be anywhere in the gint64 range. */
gint64
_sluice_time_add (gint64 a,
                  gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

static gint64
sat_sub (gint64 a,
         gint64 b)
{
  if (b == G_MININT64)
    return a >= 0 ? G_MAXINT64 : a - b;
  return _sluice_time_add (a, -b);
}

/* Clamping double → gint64 without libm. @round_up picks ceil, else floor. */
static gint64
double_to_int64 (double   v,
                 gboolean round_up)
{
  gint64 i;

  if (v != v)
    return 0;
  if (v >= 9223372036854775807.0)  /* 2^63 */
    return G_MAXINT64;
  if (v <= -9223372036854775807.0)
    return G_MININT64;

  i = (gint64) v;  /* truncates toward zero */
  if (round_up && (double) i < v)
    i++;
  else if (!round_up && (double) i > v)
    i--;
  return i;
}

static gint64
scaled_now_at (SluiceTimebase *tb,
               gint64          real)
{
  double elapsed;

  if (tb->paused)
    return tb->anchor_virtual;

  /* Floor, so that now() never runs ahead of the ready time computed
   * below. */
  elapsed = (double) (real - tb->anchor_real) * tb->speed;
  return _sluice_time_add (tb->anchor_virtual, double_to_int64 (elapsed, FALSE));
}

static void
scaled_reanchor (SluiceTimebase *tb)
{
  gint64 real = g_get_monotonic_time ();

  tb->anchor_virtual = scaled_now_at (tb, real);
  tb->anchor_real = real;
}

void
_sluice_timebase_init (SluiceTimebase *tb)
{
  tb->kind = SLUICE_CLOCK_REAL;
  tb->speed = 1.0;
  tb->origin = g_get_monotonic_time ();
  tb->anchor_real = tb->origin;
}

gint64
_sluice_timebase_now (SluiceTimebase *tb)
{
  switch (tb->kind)
    {
    case SLUICE_CLOCK_REAL:
      return g_get_monotonic_time () - tb->origin;

    case SLUICE_CLOCK_SCALED:
      return scaled_now_at (tb, g_get_monotonic_time ());

    case SLUICE_CLOCK_VIRTUAL:
    case SLUICE_CLOCK_PACED:
      return tb->virtual_now;

    default:
      g_assert_not_reached ();
    }
}

/* The monotonic time at which now() reaches @deadline on a real or scaled
 * timebase: 0 if it already has, -1 if a pause keeps it from ever doing
 * so. Virtual time has no such moment: it jumps. */
gint64
_sluice_timebase_ready_time (SluiceTimebase *tb,
                             gint64          deadline)
{
  gint64 ready;
  gint64 distance;

  if (tb->kind == SLUICE_CLOCK_REAL)
    return MAX (_sluice_time_add (tb->origin, deadline), 0);

  /* A paced timebase is due when its pace reaches the deadline. */
  g_assert (tb->kind == SLUICE_CLOCK_SCALED || tb->kind == SLUICE_CLOCK_PACED);

  if (tb->paused)
    return -1;
  distance = sat_sub (deadline, tb->anchor_virtual);
  if (distance <= 0)
    return 0;
  ready = _sluice_time_add (tb->anchor_real,
                            double_to_int64 ((double) distance / tb->speed, TRUE));
  /* Rounding in the division may leave now() a microsecond short at
   * @ready, which would make the source spin until it catches up. */
  for (guint i = 0; i < 16 && ready < G_MAXINT64 &&
                    scaled_now_at (tb, ready) < deadline; i++)
    ready++;
  return MAX (ready, 0);
}

/* now() does not jump: a scaled timebase moves on from where it is. */
void
_sluice_timebase_set_speed (SluiceTimebase *tb,
                            double          speed)
{
  if (tb->kind == SLUICE_CLOCK_SCALED || tb->kind == SLUICE_CLOCK_PACED)
    scaled_reanchor (tb);
  tb->speed = speed;
}

void
_sluice_timebase_set_paused (SluiceTimebase *tb,
                             gboolean        paused)
{
  if (tb->kind == SLUICE_CLOCK_SCALED || tb->kind == SLUICE_CLOCK_PACED)
    scaled_reanchor (tb);
  tb->paused = paused;
}

/* Moves a scaled or virtual timebase forward to @target, never back; a
 * scaled one continues from there. */
void
_sluice_timebase_advance_to (SluiceTimebase *tb,
                             gint64          target)
{
  if (tb->kind == SLUICE_CLOCK_VIRTUAL || tb->kind == SLUICE_CLOCK_PACED)
    tb->virtual_now = MAX (tb->virtual_now, target);

  /* A paced timebase's pace never lags behind a step it was given. */
  if (tb->kind == SLUICE_CLOCK_SCALED || tb->kind == SLUICE_CLOCK_PACED)
    {
      scaled_reanchor (tb);
      tb->anchor_virtual = MAX (tb->anchor_virtual, target);
    }
}

/* Where a paced timebase's pace is now: the virtual time it may reach. */
gint64
_sluice_timebase_pace (SluiceTimebase *tb)
{
  return scaled_now_at (tb, g_get_monotonic_time ());
}
