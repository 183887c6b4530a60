/* sluice-time.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include <math.h>

#include "sluice-time.h"

/**
 * sluice_time_from_seconds:
 * @seconds: a duration or clock time in seconds
 *
 * Converts seconds, as options, scenario files and people give them, to
 * the microseconds of a #SluiceClock. Every such conversion in Sluice goes
 * through here, so that a time is rounded the same way wherever it is
 * read: to the nearest microsecond, halfway cases away from zero, as
 * llround() does (0.0000005 s is 1 µs, 0.0000004999 s is 0 µs, -0.0000005 s
 * is -1 µs).
 *
 * A time beyond the #gint64 range saturates to %G_MAXINT64 or %G_MININT64
 * (where llround() is undefined), and NaN gives 0. Callers that validate
 * their options, like #SluicePool, reject such values before they get
 * here; one that rounds to 0 is no time at all.
 *
 * Returns: @seconds in whole microseconds
 *
 * Since: 1.0
 */
gint64
sluice_time_from_seconds (double seconds)
{
  double us = seconds * G_USEC_PER_SEC;

  if (isnan (us))
    return 0;
  /* 2^63 is exactly representable; every double below it rounds into range. */
  if (us >= 9223372036854775808.0)
    return G_MAXINT64;
  if (us <= -9223372036854775808.0)
    return G_MININT64;

  return (gint64) llround (us);
}
