/* test-linter.c: lints from event streams, with hysteresis: exact on and
 * off times for streams that cross each threshold, one interval for
 * streams that hover around one, and the lints of presets' runs on the
 * virtual clock (docs/teaching.md, Lints; docs/lints.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <json-glib/json-glib.h>

#include "run-fixture.h"
#include "sluice-linter.h"
#include "sluice-scenario-runner.h"

#define S(seconds) sluice_time_from_seconds (seconds)

/* ---- constructed streams ----------------------------------------------- */

static SluiceEvent
event_at (SluiceEventKind kind,
          double          seconds)
{
  SluiceEvent event = {
    .kind = kind, .time = S (seconds), .item = -1, .worker = -1, .delay = -1, .tokens = -1, .deadline = -1,
    .item_timeout = -1,
  };

  return event;
}

/* A run-start of a pool with @capacity, @workers and @item_timeout. */
static void
run_start (SluiceLinter *linter,
           guint         capacity,
           guint         workers,
           double        item_timeout)
{
  SluiceEvent event = event_at (SLUICE_EVENT_RUN_START, 0);

  event.queue_capacity = capacity;
  event.lead_bound = capacity + workers + 1;
  event.item_timeout = S (item_timeout);
  sluice_linter_add_event (linter, &event);
}

static void
run_end (SluiceLinter *linter,
         double        seconds)
{
  SluiceEvent event = event_at (SLUICE_EVENT_RUN_END, seconds);

  sluice_linter_add_event (linter, &event);
  g_assert_true (sluice_linter_get_ended (linter));
}

static void
attempt_start (SluiceLinter *linter,
               double        seconds,
               gint64        item,
               gint          worker,
               double        deadline)
{
  SluiceEvent event = event_at (SLUICE_EVENT_ATTEMPT_START, seconds);

  event.item = item;
  event.attempt = 1;
  event.worker = worker;
  event.deadline = S (deadline);
  sluice_linter_add_event (linter, &event);
}

static void
attempt_end (SluiceLinter  *linter,
             double         seconds,
             gint64         item,
             gint           worker,
             SluiceOutcome  outcome,
             const char    *error_type)
{
  SluiceEvent event = event_at (SLUICE_EVENT_ATTEMPT_END, seconds);

  event.item = item;
  event.attempt = 1;
  event.worker = worker;
  event.outcome = outcome;
  event.error_type = error_type;
  sluice_linter_add_event (linter, &event);
}

static void
cancel_request (SluiceLinter    *linter,
                SluiceEventKind  kind,
                double           seconds,
                gint64           item,
                gint             worker,
                guint            round)
{
  SluiceEvent event = event_at (kind, seconds);

  event.item = item;
  event.attempt = 1;
  event.worker = worker;
  event.round = round;
  sluice_linter_add_event (linter, &event);
}

static void
retry (SluiceLinter *linter,
       double        seconds,
       gint64        item)
{
  SluiceEvent event = event_at (SLUICE_EVENT_RETRY, seconds);

  event.item = item;
  sluice_linter_add_event (linter, &event);
}

static void
backoff (SluiceLinter *linter,
         double        seconds,
         gint64        item,
         double        delay)
{
  SluiceEvent event = event_at (SLUICE_EVENT_BACKOFF, seconds);

  event.item = item;
  event.delay = S (delay);
  sluice_linter_add_event (linter, &event);
}

/* Any event, for the live counts it carries. */
static void
counts (SluiceLinter *linter,
        double        seconds,
        guint         queued,
        guint         in_flight)
{
  SluiceEvent event = event_at (SLUICE_EVENT_QUEUE_PUT, seconds);

  event.queued = queued;
  event.in_flight = in_flight;
  sluice_linter_add_event (linter, &event);
}

/* The lints of @kind, in the order they turned on. */
static GPtrArray *
lints_of (SluiceLinter   *linter,
          SluiceLintKind  kind)
{
  GPtrArray *lints = sluice_linter_get_lints (linter);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < lints->len; i++)
    if (sluice_lint_get_kind (g_ptr_array_index (lints, i)) == kind)
      g_ptr_array_add (found, g_ptr_array_index (lints, i));
  return found;
}

/* The one lint of @kind, on from @on to @off (µs; -1: still on). */
static SluiceLint *
assert_one_interval (SluiceLinter   *linter,
                     SluiceLintKind  kind,
                     gint64          on,
                     gint64          off)
{
  g_autoptr(GPtrArray) found = lints_of (linter, kind);
  SluiceLint *lint;

  g_assert_cmpuint (found->len, ==, 1);
  lint = g_ptr_array_index (found, 0);
  g_assert_cmpint (sluice_lint_get_on (lint), ==, on);
  g_assert_cmpint (sluice_lint_get_off (lint), ==, off);
  return lint;
}

static void
assert_none (SluiceLinter   *linter,
             SluiceLintKind  kind)
{
  g_autoptr(GPtrArray) found = lints_of (linter, kind);

  g_assert_cmpuint (found->len, ==, 0);
}

static void
assert_items (const SluiceLint *lint,
              const gint64     *expected,
              guint             n_expected)
{
  guint n;
  const gint64 *items = sluice_lint_get_items (lint, &n);

  g_assert_cmpmem (items, n * sizeof *items, expected, n_expected * sizeof *expected);
}

static void
assert_workers (const SluiceLint *lint,
                const gint       *expected,
                guint             n_expected)
{
  guint n;
  const gint *workers = sluice_lint_get_workers (lint, &n);

  g_assert_cmpmem (workers, n * sizeof *workers, expected, n_expected * sizeof *expected);
}

/* ---- retry storm ------------------------------------------------------- */

/* Six retries at 0.1 s and no success: the condition holds from 0.1 s,
 * the lint turns on 0.2 s later; the retries leave the 1 s window at
 * 1.1 s, and the lint turns off 0.5 s after that. */
static void
test_retry_storm_on_after_held_off_after_false (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint64 items[] = { 0, 1, 2, 3, 4, 5 };
  SluiceLint *lint;
  g_autofree char *message = NULL;

  run_start (linter, 10, 10, 1);
  for (gint64 i = 0; i < 6; i++)
    retry (linter, 0.1, i);
  run_end (linter, 3);

  lint = assert_one_interval (linter, SLUICE_LINT_RETRY_STORM, S (0.3), S (1.6));
  assert_items (lint, items, G_N_ELEMENTS (items));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "6 retries in the last 1.000 s, more than the attempts that succeeded (0). "
                                "Items: 0, 1, 2, 3, 4, 5.");
}

/* As many successes as retries, or fewer retries than
 * SLUICE_LINT_MIN_RETRIES: no storm. */
static void
test_retry_storm_needs_more_retries_than_successes (void)
{
  g_autoptr(SluiceLinter) even = sluice_linter_new ();
  g_autoptr(SluiceLinter) few = sluice_linter_new ();

  run_start (even, 10, 10, 1);
  for (gint64 i = 0; i < 6; i++)
    {
      retry (even, 0.1, i);
      attempt_end (even, 0.1, i + 10, 0, SLUICE_OUTCOME_OK, NULL);
    }
  run_end (even, 3);
  assert_none (even, SLUICE_LINT_RETRY_STORM);

  run_start (few, 10, 10, 1);
  for (gint64 i = 0; i < SLUICE_LINT_MIN_RETRIES - 1; i++)
    retry (few, 0.1, i);
  run_end (few, 3);
  assert_none (few, SLUICE_LINT_RETRY_STORM);
}

/* Successes count while they are in the last window: ten at 0 s outnumber
 * six retries at 0.5 s until they leave it at 1 s, when the storm's
 * condition starts to hold (on 0.2 s later); the retries leave at 1.5 s
 * (off 0.5 s later). The successes leave the window by themselves while
 * there are too few retries for a storm: five retries at 2.5 s, long
 * after the ten successes of 1.2 s left, make one at once (on at 2.7 s). */
static void
test_retry_storm_successes_leave_the_window (void)
{
  g_autoptr(SluiceLinter) outnumbered = sluice_linter_new ();
  g_autoptr(SluiceLinter) later = sluice_linter_new ();
  g_autoptr(GPtrArray) storms = NULL;
  g_autofree char *message = NULL;
  SluiceLint *lint;

  run_start (outnumbered, 10, 10, 1);
  for (gint64 i = 0; i < 10; i++)
    attempt_end (outnumbered, 0, i + 10, 0, SLUICE_OUTCOME_OK, NULL);
  for (gint64 i = 0; i < 6; i++)
    retry (outnumbered, 0.5, i);
  run_end (outnumbered, 3);
  lint = assert_one_interval (outnumbered, SLUICE_LINT_RETRY_STORM, S (1.2), S (2.0));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "6 retries in the last 1.000 s, more than the attempts that succeeded (0). "
                                "Items: 0, 1, 2, 3, 4, 5.");

  run_start (later, 10, 10, 1);
  retry (later, 0.1, 100);
  for (gint64 i = 0; i < 10; i++)
    attempt_end (later, 1.2, i + 10, 0, SLUICE_OUTCOME_OK, NULL);
  for (gint64 i = 0; i < SLUICE_LINT_MIN_RETRIES; i++)
    retry (later, 2.5, i);
  run_end (later, 5);
  storms = lints_of (later, SLUICE_LINT_RETRY_STORM);
  g_assert_cmpuint (storms->len, ==, 1);
  lint = g_ptr_array_index (storms, 0);
  g_assert_cmpint (sluice_lint_get_on (lint), ==, S (2.7));
  g_clear_pointer (&message, g_free);
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "5 retries in the last 1.000 s, more than the attempts that succeeded (0). "
                                "Items: 0, 1, 2, 3, 4.");
}

/* A storm that 5 successes end at 0.25 s held only 0.15 s: no lint. */
static void
test_hysteresis_short_condition_never_turns_on (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();

  run_start (linter, 10, 10, 1);
  for (gint64 i = 0; i < 6; i++)
    retry (linter, 0.1, i);
  for (gint64 i = 0; i < 6; i++)
    attempt_end (linter, 0.25, i, 0, SLUICE_OUTCOME_OK, NULL);
  run_end (linter, 3);

  assert_none (linter, SLUICE_LINT_RETRY_STORM);
  g_assert_cmpuint (sluice_linter_get_lints (linter)->len, ==, 0);
}

/* ---- timeout below the typical duration -------------------------------- */

/* Attempts that end T, T, O at 0 s (T timed out, O succeeded): two of
 * three, most, so the condition holds from 0 s. Then one ends every
 * 0.1 s from @first_flip, O, T, O, T…: each end flips it (2 of 4, 3 of 5,
 * 3 of 6… 5 of 10), seven times, faster than either window. */
static SluiceLinter *
lint_hovering_timeouts (double first_flip)
{
  SluiceLinter *linter = sluice_linter_new ();
  static const gboolean first[] = { TRUE, TRUE, FALSE };
  gint64 item = 0;

  run_start (linter, 10, 10, 1);
  for (guint i = 0; i < G_N_ELEMENTS (first); i++, item++)
    attempt_end (linter, 0, item, 0, first[i] ? SLUICE_OUTCOME_TIMED_OUT : SLUICE_OUTCOME_OK,
                 first[i] ? "TimeoutError" : NULL);
  for (guint i = 0; i < 7; i++, item++)
    {
      gboolean timed_out = i % 2 == 1;

      attempt_end (linter, first_flip + 0.1 * i, item, 0, timed_out ? SLUICE_OUTCOME_TIMED_OUT : SLUICE_OUTCOME_OK,
                   timed_out ? "TimeoutError" : NULL);
    }
  run_end (linter, 4);
  return linter;
}

/* Held 0.3 s first: on at 0.2 s; then the seven flips, false for 0.1 s
 * at a time, keep it on in one interval, off 0.5 s after the last flip
 * to false (0.9 s). */
static void
test_hysteresis_hovering_condition_gives_one_interval (void)
{
  g_autoptr(SluiceLinter) linter = lint_hovering_timeouts (0.3);

  assert_one_interval (linter, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL, S (0.2), S (0.9) + SLUICE_LINT_OFF_AFTER_US);
}

/* Held 0.15 s first, then true for 0.1 s at a time: never long enough to
 * turn on. */
static void
test_hysteresis_hovering_condition_never_held_no_lint (void)
{
  g_autoptr(SluiceLinter) linter = lint_hovering_timeouts (0.15);

  assert_none (linter, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL);
}

/* Alternating ends once a second, from ten attempts T O T O T O T O T T
 * (six of ten timed out): each one pushes out the oldest, alternately T
 * and O, so the condition flips at 1, 2, 3, 4 and 5 s; each state
 * outlasts both windows, and the lint follows it, on and off (so the
 * flips above are real ones, which the hysteresis absorbed). */
static void
test_hysteresis_slow_flips_give_an_interval_each (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gboolean first[] = { TRUE, FALSE, TRUE, FALSE, TRUE, FALSE, TRUE, FALSE, TRUE, TRUE };
  g_autoptr(GPtrArray) found = NULL;
  gint64 item = 0;

  run_start (linter, 10, 10, 1);
  for (guint i = 0; i < G_N_ELEMENTS (first); i++, item++)
    attempt_end (linter, 0, item, 0, first[i] ? SLUICE_OUTCOME_TIMED_OUT : SLUICE_OUTCOME_OK,
                 first[i] ? "TimeoutError" : NULL);
  /* False at 1, 3, 5 s; true again at 2, 4 s. */
  for (guint i = 0; i < 5; i++, item++)
    {
      gboolean timed_out = i % 2 == 1;

      attempt_end (linter, 1 + i, item, 0, timed_out ? SLUICE_OUTCOME_TIMED_OUT : SLUICE_OUTCOME_OK,
                   timed_out ? "TimeoutError" : NULL);
    }
  run_end (linter, 7);

  found = lints_of (linter, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL);
  g_assert_cmpuint (found->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (sluice_lint_get_on (g_ptr_array_index (found, i)), ==, S (2 * i) + SLUICE_LINT_ON_AFTER_US);
      g_assert_cmpint (sluice_lint_get_off (g_ptr_array_index (found, i)), ==,
                       S (2 * i + 1) + SLUICE_LINT_OFF_AFTER_US);
    }
}

/* Three of four attempts timed out: most. Two of four: half is not most;
 * and two attempts are too few to judge. */
static void
test_timeout_below_typical_needs_most_attempts (void)
{
  g_autoptr(SluiceLinter) most = sluice_linter_new ();
  g_autoptr(SluiceLinter) half = sluice_linter_new ();
  g_autoptr(SluiceLinter) few = sluice_linter_new ();
  static const gint64 items[] = { 1, 2, 3 };
  static const gint workers[] = { 0, 1 };
  SluiceLint *lint;
  g_autofree char *message = NULL;

  run_start (most, 2, 2, 0.5);
  attempt_end (most, 0.2, 0, 0, SLUICE_OUTCOME_OK, NULL);
  attempt_end (most, 0.5, 1, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  attempt_end (most, 0.7, 2, 0, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  attempt_end (most, 1.0, 3, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (most, 2);
  /* Three ended by 0.7 s, two of them timed out. */
  lint = assert_one_interval (most, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL, S (0.9), -1);
  assert_items (lint, items, G_N_ELEMENTS (items));
  assert_workers (lint, workers, G_N_ELEMENTS (workers));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "Most attempts time out: 3 of the last 4 attempts ended at item-timeout "
                                "(0.500 s). Items: 1, 2, 3. Workers: 0, 1.");

  run_start (half, 2, 2, 0.5);
  attempt_end (half, 0.2, 0, 0, SLUICE_OUTCOME_OK, NULL);
  attempt_end (half, 0.3, 1, 0, SLUICE_OUTCOME_OK, NULL);
  attempt_end (half, 0.5, 2, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  attempt_end (half, 0.7, 3, 0, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (half, 2);
  assert_none (half, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL);

  run_start (few, 2, 2, 0.5);
  attempt_end (few, 0.5, 0, 0, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  attempt_end (few, 0.5, 1, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (few, 2);
  assert_none (few, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL);
}

/* ok with its default items taking 2 s against item-timeout 1 s (items
 * 0, 4, 7 and 9 keep their own, shorter times): two of the three
 * attempts ended at 1 s timed out, item 4's success at 1.1 s makes it
 * half, item 3's timeout at 1.3 s most again, for good: on at 1.5 s. */
static void
test_timeout_below_typical_preset (void)
{
  const char *sets[] = { "handler.default=ok 2", NULL };
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset ("ok", sets, NULL);
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint64 items[] = { 1, 2, 3, 5, 6 };
  static const gint workers[] = { 0, 1, 2 };
  const SluiceEvent *event;
  guint64 cursor = 0;
  SluiceLint *lint;

  while ((event = sluice_recorder_next (recorder, &cursor)) != NULL)
    sluice_linter_add_event (linter, event);

  lint = assert_one_interval (linter, SLUICE_LINT_TIMEOUT_BELOW_TYPICAL, S (1.5), -1);
  assert_items (lint, items, G_N_ELEMENTS (items));
  assert_workers (lint, workers, G_N_ELEMENTS (workers));
}

/* ---- ignoring cancellation --------------------------------------------- */

/* Asked at 1, 2 and 3 s, ignoring from 4 s (no on window: three rounds
 * are evidence enough) until it ends at 4.3 s, plus the off window. */
static void
test_ignoring_cancel_on_at_once_until_the_attempt_ends (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint64 items[] = { 2 };
  static const gint workers[] = { 1 };
  SluiceLint *lint;
  g_autofree char *message = NULL;

  run_start (linter, 1, 2, 1);
  attempt_start (linter, 0, 2, 1, 1);
  cancel_request (linter, SLUICE_EVENT_CANCEL_REQUEST, 1, 2, 1, 1);
  cancel_request (linter, SLUICE_EVENT_CANCEL_REQUEST, 2, 2, 1, 2);
  cancel_request (linter, SLUICE_EVENT_CANCEL_REQUEST, 3, 2, 1, 3);
  g_assert_cmpuint (sluice_linter_get_lints (linter)->len, ==, 0);
  cancel_request (linter, SLUICE_EVENT_IGNORING_CANCEL, 4, 2, 1, 3);
  attempt_end (linter, 4.3, 2, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (linter, 6);

  lint = assert_one_interval (linter, SLUICE_LINT_IGNORING_CANCEL, S (4), S (4.3) + SLUICE_LINT_OFF_AFTER_US);
  assert_items (lint, items, G_N_ELEMENTS (items));
  assert_workers (lint, workers, G_N_ELEMENTS (workers));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "Item 2 ignored three requests to stop, 1.000 s apart; the pool waits for it "
                                "however long it takes. Worker: 1.");
  /* The timers fired on time: no blocked loop. */
  assert_none (linter, SLUICE_LINT_BLOCKED_LOOP);
}

/* A second attempt ignores cancellation 0.2 s after the first one ended:
 * within the off window, so one interval names both. */
static void
test_ignoring_cancel_back_to_back_gives_one_interval (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint64 items[] = { 0, 1 };

  run_start (linter, 1, 2, 1);
  cancel_request (linter, SLUICE_EVENT_IGNORING_CANCEL, 4, 0, 0, 3);
  attempt_end (linter, 4.3, 0, 0, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  cancel_request (linter, SLUICE_EVENT_IGNORING_CANCEL, 4.5, 1, 1, 3);
  attempt_end (linter, 4.6, 1, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (linter, 6);

  assert_items (assert_one_interval (linter, SLUICE_LINT_IGNORING_CANCEL, S (4), S (5.1)), items,
                G_N_ELEMENTS (items));
}

/* late: item 0 ignores the rounds at 10, 20 and 30 s, and runs on until
 * 45 s, when the run ends: the lint is still on. */
static void
test_ignoring_cancel_preset_late (void)
{
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset ("late", NULL, NULL);
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint64 items[] = { 0 };
  static const gint workers[] = { 0 };
  const SluiceEvent *event;
  guint64 cursor = 0;
  SluiceLint *lint;

  while ((event = sluice_recorder_next (recorder, &cursor)) != NULL)
    sluice_linter_add_event (linter, event);

  lint = assert_one_interval (linter, SLUICE_LINT_IGNORING_CANCEL, S (40), -1);
  assert_items (lint, items, 1);
  assert_workers (lint, workers, 1);
  g_assert_true (sluice_linter_get_ended (linter));
}

/* ---- blocked main loop ------------------------------------------------- */

/* A deadline due at 0.2 s fires its round-1 request at 0.26 s: 60 ms
 * late, on at once, named with the attempts that ran since before it was
 * due; off 1 s (the window) plus 0.5 s later. */
static void
test_blocked_loop_late_deadline (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint64 items[] = { 0, 1 };
  static const gint workers[] = { 0, 1 };
  SluiceLint *lint;
  g_autofree char *message = NULL;

  run_start (linter, 1, 3, 0.2);
  attempt_start (linter, 0, 0, 0, 0.2);
  attempt_start (linter, 0, 1, 1, 0.2);
  attempt_start (linter, 0.21, 2, 2, 0.41);
  cancel_request (linter, SLUICE_EVENT_CANCEL_REQUEST, 0.26, 0, 0, 1);
  run_end (linter, 3);

  lint = assert_one_interval (linter, SLUICE_LINT_BLOCKED_LOOP, S (0.26),
                              S (0.26) + SLUICE_LINT_WINDOW_US + SLUICE_LINT_OFF_AFTER_US);
  assert_items (lint, items, G_N_ELEMENTS (items));
  assert_workers (lint, workers, G_N_ELEMENTS (workers));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "A timer fired 0.060 s late: something held the main loop, such as a blocking "
                                "call in a handler. Items running then: 0, 1. Workers: 0, 1.");
}

/* Many attempts running, some ended: a late timer names those still
 * running since before it was due, whichever ended around them (200
 * attempts, the even ones ended before the odd item 1 times out late). */
static void
test_blocked_loop_names_the_running_among_many (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (gint64));
  SluiceLint *lint;

  run_start (linter, 1, 200, 0.2);
  for (gint64 i = 0; i < 200; i++)
    attempt_start (linter, 0, i, (gint) i, 0.2);
  for (gint64 i = 0; i < 200; i += 2)
    attempt_end (linter, 0.1, i, (gint) i, SLUICE_OUTCOME_OK, NULL);
  /* One more that started after the deadline was due is not named. */
  attempt_start (linter, 0.25, 1000, 0, 1.25);
  attempt_end (linter, 0.3, 1, 1, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (linter, 3);

  for (gint64 i = 1; i < 200; i += 2)
    g_array_append_val (expected, i);
  lint = assert_one_interval (linter, SLUICE_LINT_BLOCKED_LOOP, S (0.3),
                              S (0.3) + SLUICE_LINT_WINDOW_US + SLUICE_LINT_OFF_AFTER_US);
  assert_items (lint, (const gint64 *) (gpointer) expected->data, expected->len);
}

/* 50 ms late is within the threshold; a timed-out end without a request
 * and a retry after its backoff are timers too. */
static void
test_blocked_loop_threshold_and_other_timers (void)
{
  g_autoptr(SluiceLinter) on_time = sluice_linter_new ();
  g_autoptr(SluiceLinter) ended = sluice_linter_new ();
  g_autoptr(SluiceLinter) retried = sluice_linter_new ();

  run_start (on_time, 1, 1, 0.2);
  attempt_start (on_time, 0, 0, 0, 0.2);
  cancel_request (on_time, SLUICE_EVENT_CANCEL_REQUEST, 0.25, 0, 0, 1);
  cancel_request (on_time, SLUICE_EVENT_CANCEL_REQUEST, 0.5, 0, 0, 2);
  run_end (on_time, 3);
  assert_none (on_time, SLUICE_LINT_BLOCKED_LOOP);

  /* Timed out at 0.4 s, its deadline 0.2 s, with no request to stop:
   * the deadline's timer fired when the attempt ended. */
  run_start (ended, 1, 1, 0.2);
  attempt_start (ended, 0, 0, 0, 0.2);
  attempt_end (ended, 0.4, 0, 0, SLUICE_OUTCOME_TIMED_OUT, "TimeoutError");
  run_end (ended, 3);
  assert_one_interval (ended, SLUICE_LINT_BLOCKED_LOOP, S (0.4),
                       S (0.4) + SLUICE_LINT_WINDOW_US + SLUICE_LINT_OFF_AFTER_US);

  run_start (retried, 1, 1, 1);
  backoff (retried, 0.1, 0, 0.1);
  retry (retried, 0.3, 0);
  run_end (retried, 3);
  assert_one_interval (retried, SLUICE_LINT_BLOCKED_LOOP, S (0.3),
                       S (0.3) + SLUICE_LINT_WINDOW_US + SLUICE_LINT_OFF_AFTER_US);
}

/* On the virtual clock every timer fires at its exact instant: no preset
 * that runs there raises blocked-loop. */
static void
test_blocked_loop_never_on_the_virtual_clock (void)
{
  static const char * const presets[] = {
    "broken-metrics", "cancel-after-seconds", "cancel-self", "close-after", "deadline-shed", "disk-full",
    "duplicates", "fail-always", "fail", "first-look", "hang", "keep-going", "late", "mix", "ok", "retries",
    "retry-budget", "retry-storm-jitter", "retry-storm", "service-abandoned-job", "service-disk-full",
    "service-observed", "service-ten-images", "shutdown-deadline", "shutdown-overrun", "source-cancel",
    "source-hang", "source-interval", "source-raise", "stop-after", "stubborn",
  };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    {
      g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset (presets[p], NULL, NULL);
      g_autoptr(SluiceLinter) linter = sluice_linter_new ();
      g_autofree char *kinds = NULL;
      const SluiceEvent *event;
      guint64 cursor = 0;

      while ((event = sluice_recorder_next (recorder, &cursor)) != NULL)
        sluice_linter_add_event (linter, event);
      kinds = sluice_linter_dup_kinds (linter);
      g_test_message ("%s: %s", presets[p], kinds);
      assert_none (linter, SLUICE_LINT_BLOCKED_LOOP);
      g_assert_true (sluice_linter_get_ended (linter));
    }
}

/* ---- saturated --------------------------------------------------------- */

/* Saturated from 0 to 2 s: three quarters of the 1 s window at 0.75 s, on
 * at 0.95 s; after 2 s the time saturated in the window falls below
 * 0.75 s one µs after 2.25 s, off 0.5 s after that. */
static void
test_saturated_most_of_the_window (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  static const gint workers[] = { 0, 1 };
  SluiceLint *lint;
  g_autofree char *message = NULL;

  run_start (linter, 2, 2, 1);
  counts (linter, 0, 2, 2);
  counts (linter, 2, 1, 2);
  run_end (linter, 4);

  lint = assert_one_interval (linter, SLUICE_LINT_SATURATED, S (0.95), S (2.25) + 1 + SLUICE_LINT_OFF_AFTER_US);
  assert_workers (lint, workers, G_N_ELEMENTS (workers));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "The queue was full (2) and all 2 workers busy for 1.000 s of the last 1.000 s.");
}

/* Saturated 0.5 s of every 0.8 s (0.7 s of a 1 s window at most, less
 * than three quarters) for 5 s: no lint; a state that lasted no time
 * counts for nothing. */
static void
test_saturated_less_than_most_never_on (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();

  run_start (linter, 2, 2, 1);
  for (guint i = 0; i < 6; i++)
    {
      counts (linter, 0.8 * i, 2, 2);
      counts (linter, 0.8 * i + 0.5, 1, 2);
      counts (linter, 0.8 * i + 0.7, 2, 2);
      counts (linter, 0.8 * i + 0.7, 2, 1);
    }
  run_end (linter, 5);

  assert_none (linter, SLUICE_LINT_SATURATED);
}

/* ok keeps its queue full for its first 0.5 s, backpressure at work, and
 * raises nothing; with 100 items it stays saturated, and the lint says
 * so from 0.95 s to the end. */
static void
test_saturated_presets (void)
{
  const char *sets[] = { "source.count=100", NULL };
  g_autoptr(SluiceRecorder) ok = run_fixture_record_preset ("ok", NULL, NULL);
  g_autoptr(SluiceRecorder) many = run_fixture_record_preset ("ok", sets, NULL);
  g_autoptr(SluiceLinter) ok_linter = sluice_linter_new ();
  g_autoptr(SluiceLinter) many_linter = sluice_linter_new ();
  const SluiceEvent *event;
  guint64 cursor = 0;

  while ((event = sluice_recorder_next (ok, &cursor)) != NULL)
    sluice_linter_add_event (ok_linter, event);
  g_assert_cmpuint (sluice_linter_get_lints (ok_linter)->len, ==, 0);

  cursor = 0;
  while ((event = sluice_recorder_next (many, &cursor)) != NULL)
    sluice_linter_add_event (many_linter, event);
  assert_one_interval (many_linter, SLUICE_LINT_SATURATED, S (0.95), -1);
}

/* ---- one error type ---------------------------------------------------- */

/* ConnectionError, ValueError, ConnectionError: two of three are most,
 * on 0.2 s after the third failure; the fourth, a ConnectionError, makes
 * it three of four, the figure the message gives. Three ConnectionErrors,
 * one ValueError and two TimeoutErrors: half of six is not most. */
static void
test_dominant_error_most_recent_failures (void)
{
  g_autoptr(SluiceLinter) most = sluice_linter_new ();
  g_autoptr(SluiceLinter) half = sluice_linter_new ();
  static const gint64 items[] = { 0, 2, 3 };
  SluiceLint *lint;
  g_autofree char *message = NULL;
  g_autofree char *advice = NULL;

  run_start (most, 2, 2, 1);
  attempt_end (most, 0.1, 0, 0, SLUICE_OUTCOME_FAILED, "ConnectionError");
  attempt_end (most, 0.2, 1, 1, SLUICE_OUTCOME_FAILED, "ValueError");
  attempt_end (most, 0.3, 2, 0, SLUICE_OUTCOME_FAILED, "ConnectionError");
  attempt_end (most, 0.4, 3, 1, SLUICE_OUTCOME_FAILED, "ConnectionError");
  run_end (most, 2);
  lint = assert_one_interval (most, SLUICE_LINT_DOMINANT_ERROR, S (0.5), -1);
  assert_items (lint, items, G_N_ELEMENTS (items));
  message = sluice_lint_dup_message (lint, FALSE);
  g_assert_cmpstr (message, ==, "ConnectionError caused 3 of the last 4 failures. Items: 0, 2, 3.");
  advice = sluice_lint_dup_advice (lint, FALSE);
  g_assert_cmpstr (advice, ==, "Look at ConnectionError first: fixing its cause, or not retrying it, removes "
                               "most failures.");

  run_start (half, 2, 2, 1);
  attempt_end (half, 0.1, 0, 0, SLUICE_OUTCOME_FAILED, "ConnectionError");
  attempt_end (half, 0.1, 1, 0, SLUICE_OUTCOME_FAILED, "ConnectionError");
  attempt_end (half, 0.1, 2, 0, SLUICE_OUTCOME_FAILED, "ValueError");
  attempt_end (half, 0.1, 3, 0, SLUICE_OUTCOME_FAILED, "TimeoutError");
  attempt_end (half, 0.1, 4, 0, SLUICE_OUTCOME_FAILED, "TimeoutError");
  attempt_end (half, 0.1, 5, 0, SLUICE_OUTCOME_FAILED, "ConnectionError");
  run_end (half, 2);
  assert_none (half, SLUICE_LINT_DOMINANT_ERROR);
}

/* ---- presets, the report and the API ----------------------------------- */

/* retry-storm: the 30 ConnectionErrors dominate from the first wave's
 * failures (0.05 s, on at 0.25 s) and the first wave of retries (0.15 s)
 * is a storm from 0.35 s; both are on when the run ends at 0.9 s. */
static void
test_retry_storm_preset (void)
{
  g_autoptr(SluiceRecorder) recorder = run_fixture_record_preset ("retry-storm", NULL, NULL);
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  g_autoptr(GPtrArray) at = NULL;
  const SluiceEvent *event;
  guint64 cursor = 0;
  g_autofree char *kinds = NULL;

  while ((event = sluice_recorder_next (recorder, &cursor)) != NULL)
    sluice_linter_add_event (linter, event);

  assert_one_interval (linter, SLUICE_LINT_DOMINANT_ERROR, S (0.25), -1);
  assert_one_interval (linter, SLUICE_LINT_RETRY_STORM, S (0.35), -1);
  kinds = sluice_linter_dup_kinds (linter);
  g_assert_cmpstr (kinds, ==, "retry-storm, dominant-error");

  /* What the scrubber asks: what is on at a time. */
  g_assert_cmpuint (sluice_linter_count_at (linter, S (0.2)), ==, 0);
  g_assert_cmpuint (sluice_linter_count_at (linter, S (0.3)), ==, 1);
  g_assert_cmpuint (sluice_linter_count_at (linter, S (0.35) - 1), ==, 1);
  g_assert_cmpuint (sluice_linter_count_at (linter, S (0.35)), ==, 2);
  g_assert_cmpuint (sluice_linter_count_by (linter, S (0.3)), ==, 1);
  at = sluice_linter_dup_lints_at (linter, S (0.9));
  g_assert_cmpuint (at->len, ==, 2);
  g_assert_cmpint (sluice_lint_get_kind (g_ptr_array_index (at, 0)), ==, SLUICE_LINT_DOMINANT_ERROR);
  g_assert_cmpint (sluice_lint_get_kind (g_ptr_array_index (at, 1)), ==, SLUICE_LINT_RETRY_STORM);
}

/* ok raises no lint; hang, whose item honours its first request to stop,
 * does not ignore cancellation (its two workers are saturated while the
 * hung item holds one). */
static void
test_presets_ok_and_hang (void)
{
  g_autoptr(SluiceRecorder) ok = run_fixture_record_preset ("ok", NULL, NULL);
  g_autoptr(SluiceRecorder) hang = run_fixture_record_preset ("hang", NULL, NULL);
  g_autoptr(SluiceLinter) ok_linter = sluice_linter_new ();
  g_autoptr(SluiceLinter) hang_linter = sluice_linter_new ();
  g_autofree char *hang_kinds = NULL;
  const SluiceEvent *event;
  guint64 cursor = 0;

  while ((event = sluice_recorder_next (ok, &cursor)) != NULL)
    sluice_linter_add_event (ok_linter, event);
  g_assert_cmpuint (sluice_linter_get_lints (ok_linter)->len, ==, 0);

  cursor = 0;
  while ((event = sluice_recorder_next (hang, &cursor)) != NULL)
    sluice_linter_add_event (hang_linter, event);
  hang_kinds = sluice_linter_dup_kinds (hang_linter);
  g_assert_cmpstr (hang_kinds, ==, "saturated");
}

/* The report lints every event it is given, and writes `lints` in
 * English: kind, on and off in seconds from the run's start (null while
 * on), items, workers, message, advice. */
static void
test_report_json_lints (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "late.pool", NULL);
  const char *overrides[] = { "run.clock=virtual", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (path, overrides, &error);
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonArray *lints;
  JsonObject *lint;

  g_assert_no_error (error);
  runner = sluice_scenario_runner_new (scenario);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);

  root = sluice_report_to_json (report);
  lints = json_object_get_array_member (json_node_get_object (root), "lints");
  g_assert_cmpuint (json_array_get_length (lints), ==, 2);

  lint = json_array_get_object_element (lints, 0);
  g_assert_cmpstr (json_object_get_string_member (lint, "kind"), ==, "saturated");
  g_assert_cmpfloat (json_object_get_double_member (lint, "on"), ==, 0.95);
  g_assert_cmpfloat (json_object_get_double_member (lint, "off"), ==, 2.750001);

  lint = json_array_get_object_element (lints, 1);
  g_assert_cmpstr (json_object_get_string_member (lint, "kind"), ==, "ignoring-cancel");
  g_assert_cmpfloat (json_object_get_double_member (lint, "on"), ==, 40.0);
  g_assert_true (json_object_get_null_member (lint, "off"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (lint, "items")), ==, 1);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (lint, "items"), 0), ==, 0);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (lint, "workers"), 0), ==, 0);
  g_assert_cmpstr (json_object_get_string_member (lint, "message"), ==,
                   "Item 0 ignored three requests to stop, 10.000 s apart; the pool waits for it however long "
                   "it takes. Worker: 0.");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (lint, "advice"), "Make the handler stop"));
  /* The same lints as the report's linter holds. */
  g_assert_cmpuint (sluice_linter_get_lints (sluice_report_get_linter (report))->len, ==, 2);
}

/* Nothing before the run-start or after the run-end counts, and a reset
 * linter gives the same lints for the same events again. */
static void
test_run_bounds_and_reset (void)
{
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();

  for (gint64 i = 0; i < 6; i++)
    retry (linter, 0, i);
  g_assert_cmpint (sluice_linter_get_start_time (linter), ==, -1);
  g_assert_cmpint (sluice_linter_get_time (linter), ==, -1);

  for (guint pass = 0; pass < 2; pass++)
    {
      run_start (linter, 10, 10, 1);
      for (gint64 i = 0; i < 6; i++)
        retry (linter, 0.1, i);
      run_end (linter, 0.5);
      /* After the end: no off time, whatever follows. */
      for (gint64 i = 0; i < 20; i++)
        attempt_end (linter, 5, i, 0, SLUICE_OUTCOME_OK, NULL);
      assert_one_interval (linter, SLUICE_LINT_RETRY_STORM, S (0.3), -1);
      g_assert_cmpint (sluice_linter_get_time (linter), ==, S (0.5));
      sluice_linter_reset (linter);
      g_assert_cmpuint (sluice_linter_get_lints (linter)->len, ==, 0);
      g_assert_false (sluice_linter_get_ended (linter));
    }
}

static void
test_kind_names (void)
{
  for (SluiceLintKind k = 0; k < SLUICE_LINT_N_KINDS; k++)
    {
      SluiceLintKind back = SLUICE_LINT_N_KINDS;

      g_assert_true (sluice_lint_kind_from_string (sluice_lint_kind_to_string (k), &back));
      g_assert_cmpint (back, ==, k);
      g_assert_nonnull (sluice_lint_kind_get_title (k, FALSE));
    }
  g_assert_cmpstr (sluice_lint_kind_to_string (SLUICE_LINT_TIMEOUT_BELOW_TYPICAL), ==, "timeout-below-typical");
  g_assert_cmpstr (sluice_lint_kind_to_string (SLUICE_LINT_BLOCKED_LOOP), ==, "blocked-loop");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/linter/retry-storm/on-after-held-off-after-false", test_retry_storm_on_after_held_off_after_false);
  g_test_add_func ("/linter/retry-storm/needs-more-retries-than-successes",
                   test_retry_storm_needs_more_retries_than_successes);
  g_test_add_func ("/linter/retry-storm/preset", test_retry_storm_preset);
  g_test_add_func ("/linter/retry-storm/successes-leave-the-window", test_retry_storm_successes_leave_the_window);
  g_test_add_func ("/linter/hysteresis/short-condition-never-turns-on", test_hysteresis_short_condition_never_turns_on);
  g_test_add_func ("/linter/hysteresis/hovering-condition-gives-one-interval",
                   test_hysteresis_hovering_condition_gives_one_interval);
  g_test_add_func ("/linter/hysteresis/hovering-condition-never-held-no-lint",
                   test_hysteresis_hovering_condition_never_held_no_lint);
  g_test_add_func ("/linter/hysteresis/slow-flips-give-an-interval-each",
                   test_hysteresis_slow_flips_give_an_interval_each);
  g_test_add_func ("/linter/timeout-below-typical/needs-most-attempts", test_timeout_below_typical_needs_most_attempts);
  g_test_add_func ("/linter/timeout-below-typical/preset", test_timeout_below_typical_preset);
  g_test_add_func ("/linter/ignoring-cancel/on-at-once-until-the-attempt-ends",
                   test_ignoring_cancel_on_at_once_until_the_attempt_ends);
  g_test_add_func ("/linter/ignoring-cancel/back-to-back-gives-one-interval",
                   test_ignoring_cancel_back_to_back_gives_one_interval);
  g_test_add_func ("/linter/ignoring-cancel/preset-late", test_ignoring_cancel_preset_late);
  g_test_add_func ("/linter/blocked-loop/late-deadline", test_blocked_loop_late_deadline);
  g_test_add_func ("/linter/blocked-loop/names-the-running-among-many", test_blocked_loop_names_the_running_among_many);
  g_test_add_func ("/linter/blocked-loop/threshold-and-other-timers", test_blocked_loop_threshold_and_other_timers);
  g_test_add_func ("/linter/blocked-loop/never-on-the-virtual-clock", test_blocked_loop_never_on_the_virtual_clock);
  g_test_add_func ("/linter/saturated/most-of-the-window", test_saturated_most_of_the_window);
  g_test_add_func ("/linter/saturated/less-than-most-never-on", test_saturated_less_than_most_never_on);
  g_test_add_func ("/linter/saturated/presets", test_saturated_presets);
  g_test_add_func ("/linter/dominant-error/most-recent-failures", test_dominant_error_most_recent_failures);
  g_test_add_func ("/linter/presets/ok-and-hang", test_presets_ok_and_hang);
  g_test_add_func ("/linter/report/json-lints", test_report_json_lints);
  g_test_add_func ("/linter/run-bounds-and-reset", test_run_bounds_and_reset);
  g_test_add_func ("/linter/kind-names", test_kind_names);

  return g_test_run ();
}
