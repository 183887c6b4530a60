/* sluice-linter.h: lints computed live from a run's event stream, with
 * hysteresis (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-lint.h"

G_BEGIN_DECLS

/* The windows, in µs of the run's clock (docs/lints.md explains them). */

/**
 * SLUICE_LINT_WINDOW_US:
 *
 * “The last window” of the rates and fractions: retries against successes
 * and the time saturated are measured over the last second, and a late
 * timer keeps the blocked-loop condition true for as long.
 */
#define SLUICE_LINT_WINDOW_US (G_USEC_PER_SEC)

/**
 * SLUICE_LINT_SATURATED_SHARE:
 *
 * “Most of the last window”, for `saturated`: the pool saturated for 75
 * percent of it or more. A batch whose source is quicker than its workers
 * keeps the queue full for as long as the source lasts: that is
 * backpressure at work, and the lint waits until it has lasted.
 */
#define SLUICE_LINT_SATURATED_SHARE 75

/**
 * SLUICE_LINT_ON_AFTER_US:
 *
 * A lint turns on once its condition has held this long (0.2 s)…
 */
#define SLUICE_LINT_ON_AFTER_US (G_USEC_PER_SEC / 5)

/**
 * SLUICE_LINT_OFF_AFTER_US:
 *
 * …and off once it has been false this long (0.5 s), so that a condition
 * that comes and goes faster than that gives one interval, not a flicker.
 */
#define SLUICE_LINT_OFF_AFTER_US (G_USEC_PER_SEC / 2)

/**
 * SLUICE_LINT_LATE_US:
 *
 * A timer that fires later than this (50 ms) after it was due says that
 * the main loop was blocked.
 */
#define SLUICE_LINT_LATE_US (G_USEC_PER_SEC / 20)

/**
 * SLUICE_LINT_RECENT:
 *
 * The attempt and failure lints judge the last this many (10) attempts
 * that ended or failures, whenever they ended: timeouts are as far apart
 * as the timeout, longer than any window of time.
 */
#define SLUICE_LINT_RECENT 10

/**
 * SLUICE_LINT_MIN_RECENT:
 *
 * …once there are at least this many (3) of them.
 */
#define SLUICE_LINT_MIN_RECENT 3

/**
 * SLUICE_LINT_MIN_RETRIES:
 *
 * A retry storm needs at least this many retries (5) in the window, beside
 * outnumbering the successes.
 */
#define SLUICE_LINT_MIN_RETRIES 5

#define SLUICE_TYPE_LINTER (sluice_linter_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLinter, sluice_linter, SLUICE, LINTER, GObject)

SluiceLinter *sluice_linter_new            (void);
void          sluice_linter_add_event      (SluiceLinter      *self,
                                            const SluiceEvent *event);
void          sluice_linter_event_func     (const SluiceEvent *event,
                                            gpointer           user_data);
void          sluice_linter_reset          (SluiceLinter      *self);
gboolean      sluice_linter_get_ended      (SluiceLinter      *self);
gint64        sluice_linter_get_start_time (SluiceLinter      *self);
gint64        sluice_linter_get_time       (SluiceLinter      *self);
guint64       sluice_linter_get_n_events   (SluiceLinter      *self);
GPtrArray    *sluice_linter_get_lints      (SluiceLinter      *self);
GPtrArray    *sluice_linter_dup_lints_at   (SluiceLinter      *self,
                                            gint64             time);
guint         sluice_linter_count_at       (SluiceLinter      *self,
                                            gint64             time);
guint         sluice_linter_count_by       (SluiceLinter      *self,
                                            gint64             time);
char         *sluice_linter_dup_kinds      (SluiceLinter      *self);

G_END_DECLS
