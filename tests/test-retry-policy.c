/* test-retry-policy.c: seed 004's retry policy, rule by rule, on the
 * virtual clock (docs/retry-policy.md): capped exponential backoff, full
 * jitter from the pool's seeded or an injected generator, one deadline per
 * item, the retry budget, cancellation and stops during a backoff, the
 * options' validation and their defaults.
 *
 * Expected times are reasoned from the spec: an item's story lists its
 * events with their clock µs, e.g. "backoff@100000 d=84443".
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <string.h>

/* tests/meson.build links pool-fixture.c only into the test-pool* tests. */
#include "pool-fixture.h"

/* Helpers {{{ */

#define EXP SLUICE_BACKOFF_EXPONENTIAL

/* An item's events that tell what the policy did, in order, e.g.
 * "attempt-end@100000 #1 failed retried t=2000; backoff@100000 d=0". */
static char *
item_story (Fixture *f,
            gint64   item)
{
  GString *story = g_string_new (NULL);

  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);

      if (r->item != item)
        continue;

      switch (r->kind)
        {
        case SLUICE_EVENT_ATTEMPT_START:
        case SLUICE_EVENT_ATTEMPT_END:
        case SLUICE_EVENT_CANCEL_REQUEST:
        case SLUICE_EVENT_RETRY:
        case SLUICE_EVENT_BACKOFF:
        case SLUICE_EVENT_RETRY_SKIPPED:
        case SLUICE_EVENT_DEADLINE_EXCEEDED:
        case SLUICE_EVENT_ITEM_OK:
        case SLUICE_EVENT_ITEM_FAILED:
        case SLUICE_EVENT_ITEM_DROPPED:
        case SLUICE_EVENT_ITEM_CANCELLED:
          break;
        default:
          continue;
        }

      if (story->len > 0)
        g_string_append (story, "; ");
      g_string_append_printf (story, "%s@%" G_GINT64_FORMAT,
                              sluice_event_kind_to_string (r->kind), r->time);

      if (r->kind == SLUICE_EVENT_ATTEMPT_START)
        g_string_append_printf (story, " #%u", r->attempt);
      else if (r->kind == SLUICE_EVENT_ATTEMPT_END)
        g_string_append_printf (story, " #%u %s%s", r->attempt,
                                sluice_outcome_to_string (r->outcome),
                                r->retried ? " retried" : "");
      else if (r->kind == SLUICE_EVENT_CANCEL_REQUEST)
        g_string_append_printf (story, " r%u", r->round);
      else if (r->kind == SLUICE_EVENT_RETRY_SKIPPED)
        g_string_append_printf (story, " %s", r->reason);

      if (r->kind == SLUICE_EVENT_BACKOFF || r->kind == SLUICE_EVENT_RETRY_SKIPPED)
        {
          if (r->delay >= 0)
            g_string_append_printf (story, " d=%" G_GINT64_FORMAT, r->delay);
        }
      else
        g_assert_cmpint (r->delay, ==, -1);

      if ((r->kind == SLUICE_EVENT_ATTEMPT_END || r->kind == SLUICE_EVENT_RETRY_SKIPPED) &&
          r->tokens >= 0)
        g_string_append_printf (story, " t=%" G_GINT64_FORMAT, r->tokens);
    }

  return g_string_free (story, FALSE);
}

/* The metrics, as "retry ValueError('attempt 1 failed')@600000; …". */
static char *
metrics_story (Fixture *f)
{
  GString *story = g_string_new (NULL);

  for (guint i = 0; i < f->metric_details->len; i++)
    g_string_append_printf (story, "%s%s@%" G_GINT64_FORMAT, i > 0 ? "; " : "",
                            (const char *) g_ptr_array_index (f->metric_details, i),
                            g_array_index (f->metric_times, gint64, i));
  return g_string_free (story, FALSE);
}

/* The run's recorded errors, as "TimeoutError('deadline exceeded'); …". */
static char *
errors_story (Fixture *f)
{
  GPtrArray *errors = sluice_run_get_errors (f->run);
  GString *story = g_string_new (NULL);

  for (guint i = 0; i < errors->len; i++)
    {
      g_autofree char *repr = sluice_error_repr (g_ptr_array_index (errors, i));
      g_string_append_printf (story, "%s%s", i > 0 ? "; " : "", repr);
    }
  return g_string_free (story, FALSE);
}

/* Compares a story (transfer full) with the expected text. */
#define assert_text(text, expected) \
  G_STMT_START { \
    g_autofree char *text_ = (text); \
    g_assert_cmpstr (text_, ==, (expected)); \
  } G_STMT_END

#define assert_story(f, item, expected) assert_text (item_story ((f), (item)), (expected))

/* The index in the event stream of the @n-th event of @kind for @item. */
static guint
event_index (Fixture         *f,
             SluiceEventKind  kind,
             gint64           item,
             guint            n)
{
  /* nth_event() fails the test past the last event of @kind. */
  for (guint k = 0;; k++)
    {
      EventRecord *r = nth_event (f, kind, k);
      if (r->item == item && n-- == 0)
        return r - (EventRecord *) (gpointer) f->events->data;
    }
}

/* The backoff delays of the run, in the order they started. */
static GArray *
backoff_delays (Fixture *f)
{
  GArray *delays = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < count_events (f, SLUICE_EVENT_BACKOFF); i++)
    g_array_append_val (delays, nth_event (f, SLUICE_EVENT_BACKOFF, i)->delay);
  return delays;
}

static void
assert_delays (GArray       *delays,
               const gint64 *expected,
               guint         n)
{
  for (guint i = 0; i < MIN (n, delays->len); i++)
    g_assert_cmpint (g_array_index (delays, gint64, i), ==, expected[i]);
  g_assert_cmpuint (delays->len, ==, n);
}

/* An injected generator: gives @values in order, and fails the test if
 * the pool asks for one more. */
typedef struct {
  guint   n;
  guint   calls;
  guint32 values[];
} Draws;

static guint32
next_draw (gpointer user_data)
{
  Draws *draws = user_data;

  g_assert_cmpuint (draws->calls, <, draws->n);
  return draws->values[draws->calls++];
}

/* (transfer none): owned by the pool. */
static Draws *
inject_draws (Fixture       *f,
              guint          n,
              const guint32 *values)
{
  Draws *draws = g_malloc0 (sizeof (Draws) + n * sizeof (guint32));

  draws->n = n;
  if (n > 0)
    memcpy (draws->values, values, n * sizeof (guint32));
  sluice_pool_set_random_func (f->pool, next_draw, draws, g_free);
  return draws;
}

/* The run failed with one error: the very GError (not a copy) that
 * attempt @number of item 0 returned. */
static void
assert_failed_with_error_of (Fixture *f,
                             guint    number)
{
  assert_group (f, 1);
  g_assert_true (recorded_error (f, 0) == script_call (f->script, 0, number)->error);
}

/* The capstone's immediate retry of @item's first attempt: the retry
 * event and the next attempt come right after the failed attempt's end,
 * in the same step, with nothing between. */
static void
assert_retried_in_one_step (Fixture *f,
                            gint64   item)
{
  guint end = event_index (f, SLUICE_EVENT_ATTEMPT_END, item, 0);

  g_assert_true (g_array_index (f->events, EventRecord, end).retried);
  g_assert_cmpuint (event_index (f, SLUICE_EVENT_RETRY, item, 0), ==, end + 1);
  g_assert_cmpuint (event_index (f, SLUICE_EVENT_ATTEMPT_START, item, 1), ==, end + 2);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_BACKOFF), ==, 0);
}

/* }}} */
/* Backoff {{{ */

static void
test_backoff_fails_twice_then_succeeds (Fixture       *f,
                                        gconstpointer  data)
{
  /* A dependency that fails twice then succeeds, retried with full
   * jitter from the pool's own generator (seed 0). */
  make_pool_props (f, 1, 1, 1.0, 2, "ValueError", "backoff", EXP, NULL);
  script_set (f->script, 0, DO_FAIL, 0.1, 2, "ValueError");

  drive (f, range (1));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 3);
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_at (f, 0), ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_BACKOFF), ==, 2);

  for (guint k = 1; k <= 2; k++)
    {
      EventRecord *backoff = nth_event (f, SLUICE_EVENT_BACKOFF, k - 1);
      CallRecord *failed = script_call (f->script, 0, k);
      gint64 bound = MIN (S (10.0), S (0.1) << (k - 1));

      /* Retry k waits d ∈ [0, min(cap, base · 2^(k−1))] after attempt k
       * ended, then attempt k + 1 starts. */
      g_assert_cmpuint (backoff->attempt, ==, k);
      g_assert_cmpint (backoff->time, ==, failed->ended);
      g_assert_cmpint (backoff->delay, >=, 0);
      g_assert_cmpint (backoff->delay, <=, bound);
      g_assert_cmpint (script_call (f->script, 0, k + 1)->started, ==, failed->ended + backoff->delay);
    }
  g_assert_cmpint (result_time (f, 0), ==, script_call (f->script, 0, 3)->ended);
  g_assert_cmpuint (run_stats (f).retries, ==, 2);
  assert_accounted (f);
}

static void
test_backoff_jitter_none_doubles_up_to_cap (Fixture       *f,
                                            gconstpointer  data)
{
  static const gint64 expected[] = { 100000, 200000, 300000, 300000, 300000 };
  g_autoptr(GArray) delays = NULL;
  Draws *draws;

  make_pool_props (f, 1, 1, 1.0, 5, "ValueError",
                   "backoff", EXP,
                   "backoff-base", 0.1,
                   "backoff-cap", 0.3,
                   "jitter", SLUICE_JITTER_NONE,
                   NULL);
  draws = inject_draws (f, 0, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");

  drive (f, range (1));

  /* base, 2·base, 4·base capped at 0.3 s…; the sixth attempt has no
   * retry left. Nothing is drawn. */
  delays = backoff_delays (f);
  assert_delays (delays, expected, G_N_ELEMENTS (expected));
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; backoff@100000 d=100000; "
                "retry@200000; attempt-start@200000 #2; attempt-end@300000 #2 failed retried; backoff@300000 d=200000; "
                "retry@500000; attempt-start@500000 #3; attempt-end@600000 #3 failed retried; backoff@600000 d=300000; "
                "retry@900000; attempt-start@900000 #4; attempt-end@1000000 #4 failed retried; backoff@1000000 d=300000; "
                "retry@1300000; attempt-start@1300000 #5; attempt-end@1400000 #5 failed retried; backoff@1400000 d=300000; "
                "retry@1700000; attempt-start@1700000 #6; attempt-end@1800000 #6 failed; item-failed@1800000");
  g_assert_cmpuint (draws->calls, ==, 0);
  g_assert_cmpint (f->end_time, ==, 1800000);
  assert_failed_with_error_of (f, 6);
  assert_accounted (f);
}

static void
test_backoff_bound_and_jitter_functions (Fixture       *f,
                                         gconstpointer  data)
{
  /* bound(r) = min(cap, base · 2^(r−1)) in whole µs; an overflow is cap. */
  g_assert_cmpint (sluice_backoff_bound_us (0.1, 0.3, 1), ==, 100000);
  g_assert_cmpint (sluice_backoff_bound_us (0.1, 0.3, 2), ==, 200000);
  g_assert_cmpint (sluice_backoff_bound_us (0.1, 0.3, 3), ==, 300000);
  g_assert_cmpint (sluice_backoff_bound_us (0.1, 10.0, 5), ==, 1600000);
  g_assert_cmpint (sluice_backoff_bound_us (0.1, 10.0, 2000), ==, 10000000);
  g_assert_cmpint (sluice_backoff_bound_us (0.1, 3600.0, G_MAXUINT), ==, 3600000000);
  g_assert_cmpint (sluice_backoff_bound_us (0.0000004, 1.0, 1), ==, 0);
  g_assert_cmpint (sluice_backoff_bound_us (0.0000005, 1.0, 1), ==, 1);

  /* d = ⌊u · (bound + 1) / 2³²⌋ covers [0, bound] exactly. */
  g_assert_cmpint (sluice_backoff_jitter_us (100000, 0), ==, 0);
  g_assert_cmpint (sluice_backoff_jitter_us (100000, G_MAXUINT32), ==, 100000);
  g_assert_cmpint (sluice_backoff_jitter_us (200000, 0x80000000u), ==, 100000);
  g_assert_cmpint (sluice_backoff_jitter_us (200000, 0x40000000u), ==, 50000);
  g_assert_cmpint (sluice_backoff_jitter_us (0, G_MAXUINT32), ==, 0);
  g_assert_cmpint (sluice_backoff_jitter_us (3600000000, G_MAXUINT32), ==, 3600000000);
}

static void
test_backoff_permanent_failure_never_waits (Fixture       *f,
                                            gconstpointer  data)
{
  Draws *draws;

  make_pool_props (f, 1, 1, 1.0, 3, "ValueError", "backoff", EXP, NULL);
  draws = inject_draws (f, 0, NULL);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "KeyError");

  drive (f, range (1));

  /* KeyError is not retryable: it fails at once, with no wait or draw. */
  assert_story (f, 0, "attempt-start@0 #1; attempt-end@100000 #1 failed; item-failed@100000");
  g_assert_cmpuint (draws->calls, ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_BACKOFF), ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_RETRY_SKIPPED), ==, 0);
  g_assert_cmpint (f->end_time, ==, 100000);
  assert_failed_with_error_of (f, 1);
  assert_accounted (f);
}

/* Item 0 fails once and item 1 succeeds at 0.1 s, item 0's timer first;
 * with @backoff exponential, the injected generator gives a 0 µs wait. */
static void
drive_fail_beside_ok (Fixture       *f,
                      SluiceBackoff  backoff)
{
  guint n_draws = backoff == EXP ? 1 : 0;
  Draws *draws;

  make_pool_props (f, 2, 1, 1.0, 1, "ValueError", "backoff", backoff, NULL);
  draws = inject_draws (f, n_draws, (const guint32[]) { 0 });
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");
  script_set (f->script, 1, DO_OK, 0.1, 0, NULL);

  drive (f, range (2));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpuint (draws->calls, ==, n_draws);
  assert_accounted (f);
}

static void
test_backoff_none_retries_in_one_step (Fixture       *f,
                                       gconstpointer  data)
{
  drive_fail_beside_ok (f, SLUICE_BACKOFF_NONE);

  /* No timer and nothing drawn: the retry comes before item 1's end, due
   * at the same µs. */
  assert_retried_in_one_step (f, 0);
  g_assert_cmpuint (event_index (f, SLUICE_EVENT_ATTEMPT_START, 0, 1), <,
                    event_index (f, SLUICE_EVENT_ATTEMPT_END, 1, 0));
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; retry@100000; "
                "attempt-start@100000 #2; attempt-end@200000 #2 ok; item-ok@200000");
}

static void
test_backoff_zero_delay_is_still_a_timer (Fixture       *f,
                                          gconstpointer  data)
{
  drive_fail_beside_ok (f, EXP);

  /* A drawn 0 µs still waits on a timer, which fires after what was
   * ready at that instant: item 1's end. */
  g_assert_cmpuint (event_index (f, SLUICE_EVENT_ATTEMPT_END, 1, 0), <,
                    event_index (f, SLUICE_EVENT_RETRY, 0, 0));
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; backoff@100000 d=0; retry@100000; "
                "attempt-start@100000 #2; attempt-end@200000 #2 ok; item-ok@200000");
}

static void
test_backoff_retry_metric_when_backoff_ends (Fixture       *f,
                                             gconstpointer  data)
{
  guint retry;

  make_pool_props (f, 1, 1, 1.0, 1, "ValueError",
                   "backoff", EXP,
                   "backoff-base", 0.5,
                   "jitter", SLUICE_JITTER_NONE,
                   NULL);
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");

  drive (f, range (1));

  /* attempt-end (retried) → backoff → … → retry → attempt-start: the
   * `retry` metric and event come when the 0.5 s wait ends. */
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; backoff@100000 d=500000; retry@600000; "
                "attempt-start@600000 #2; attempt-end@700000 #2 ok; item-ok@700000");
  retry = event_index (f, SLUICE_EVENT_RETRY, 0, 0);
  g_assert_cmpuint (event_index (f, SLUICE_EVENT_ATTEMPT_START, 0, 1), ==, retry + 1);
  g_assert_cmpuint (event_index (f, SLUICE_EVENT_BACKOFF, 0, 0), ==,
                    event_index (f, SLUICE_EVENT_ATTEMPT_END, 0, 0) + 1);
  assert_text (metrics_story (f), "retry ValueError('attempt 1 failed')@600000; ok 0@700000");
  assert_accounted (f);
}

/* }}} */
/* Jitter {{{ */

/* The delays of an item that always fails, retried five times with full
 * jitter, base 0.1 s and cap 10 s, on a fresh fixture; @seed < 0 leaves
 * the seed at its default. */
static GArray *
seeded_delays (gint64 seed)
{
  Fixture g = { 0 };
  GArray *delays;

  fixture_setup (&g, NULL);
  make_pool_props (&g, 1, 1, 1.0, 5, "ValueError",
                   "backoff", EXP,
                   seed >= 0 ? "seed" : NULL, (guint) seed,
                   NULL);
  script_set (g.script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  drive (&g, range (1));
  delays = backoff_delays (&g);
  fixture_teardown (&g, NULL);

  return delays;
}

static void
test_jitter_same_seed_same_delays (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(GArray) first = seeded_delays (7);
  g_autoptr(GArray) second = seeded_delays (7);

  g_assert_cmpuint (first->len, ==, 5);
  assert_delays (second, (const gint64 *) (gpointer) first->data, first->len);
}

static void
test_jitter_known_delays_for_known_seeds (Fixture       *f,
                                          gconstpointer  data)
{
  /* MT19937 after init_by_array ({seed}), one 32-bit output per draw,
   * mapped with d = (u · (bound_us + 1)) >> 32 onto the bounds 100000,
   * 200000, 400000, 800000, 1600000 µs. The outputs, from Python:
   *   python3 -c 'import random; r = random.Random(SEED); print([r.getrandbits(32) for _ in range(5)])'
   * seed 0:          3626764237, 1654615998, 3255389356, 3823568514, 1806341205
   * seed 42:         2746317213,  478163327,  107420369, 3184935163, 1181241943
   * seed 4294967295: 2728839433, 2661025012,  872737089,  924893097, 2608619700 */
  static const gint64 seed_0[] = { 84443, 77049, 303182, 712196, 672914 };
  static const gint64 seed_42[] = { 63943, 22266, 10004, 593241, 440047 };
  static const gint64 seed_max[] = { 63536, 123914, 81280, 172274, 971787 };

  static const struct {
    gint64        seed;   /* -1: the default */
    const gint64 *delays;
  } known[] = {
    { -1, seed_0 }, { 0, seed_0 }, { 42, seed_42 }, { G_MAXUINT32, seed_max },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      g_autoptr(GArray) delays = seeded_delays (known[i].seed);
      assert_delays (delays, known[i].delays, 5);
    }
}

static void
test_jitter_injected_generator_sets_delays (Fixture       *f,
                                            gconstpointer  data)
{
  Draws *draws;

  make_pool_props (f, 2, 1, 1.0, 2, "ValueError",
                   "backoff", EXP,
                   "keep-going", TRUE,
                   NULL);
  /* u = 0 → 0 µs; u = 2³² − 1 → the bound; u = 2³⁰ → a quarter of it. */
  draws = inject_draws (f, 3, (const guint32[]) { 0, G_MAXUINT32, 0x40000000u });
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.05, 0, "KeyError");
  script_set (f->script, 2, DO_FAIL, 0.15, 1, "ValueError");

  drive (f, range (3));

  /* One draw per retry, in the order retries are decided: item 0's first
   * at 0.1 s; at 0.2 s item 2's (its timer was scheduled at 0.05 s) before
   * item 0's second (scheduled at 0.1 s). None for item 1's KeyError, none
   * for item 0's third failure (no retry left). */
  g_assert_cmpuint (draws->calls, ==, 3);
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; backoff@100000 d=0; retry@100000; "
                "attempt-start@100000 #2; attempt-end@200000 #2 failed retried; backoff@200000 d=50000; "
                "retry@250000; attempt-start@250000 #3; attempt-end@350000 #3 failed; item-failed@350000");
  assert_story (f, 1, "attempt-start@0 #1; attempt-end@50000 #1 failed; item-failed@50000");
  assert_story (f, 2,
                "attempt-start@50000 #1; attempt-end@200000 #1 failed retried; backoff@200000 d=100000; "
                "retry@300000; attempt-start@300000 #2; attempt-end@450000 #2 ok; item-ok@450000");
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_BACKOFF, 1)->item, ==, 2);
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_BACKOFF, 2)->item, ==, 0);
  assert_group (f, 2);
  assert_accounted (f);
}

/* }}} */
/* Retry budget {{{ */

static void
test_budget_exhausted_stops_retries_across_items (Fixture       *f,
                                                  gconstpointer  data)
{
  Draws *draws;

  /* Budget 3: max 3000 thousandths; a retry needs more than 1500 left
   * after the failed attempt took its 1000. */
  make_pool_props (f, 1, 1, 1.0, 2, "ValueError",
                   "keep-going", TRUE,
                   "retry-budget", 3.0,
                   "backoff", EXP,
                   NULL);
  draws = inject_draws (f, 1, (const guint32[]) { 0 });
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 2, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 3, DO_OK, 0.1, 0, NULL);
  script_set (f->script, 4, DO_FAIL_ALWAYS, 0.1, 0, "KeyError");

  drive (f, range (5));

  /* Item 0's second failure leaves 1000 (it had 2000 before the take):
   * refused, like item 1's retry afterwards; item 2's failure takes no
   * token below 0; the success gives back 100 and the KeyError takes
   * none. Nothing is drawn for a refused retry. */
  g_assert_cmpint (nth_event (f, SLUICE_EVENT_RUN_START, 0)->tokens, ==, 3000);
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried t=2000; backoff@100000 d=0; "
                "retry@100000; attempt-start@100000 #2; attempt-end@200000 #2 failed t=1000; "
                "retry-skipped@200000 budget t=1000; item-failed@200000");
  assert_story (f, 1,
                "attempt-start@200000 #1; attempt-end@300000 #1 failed t=0; "
                "retry-skipped@300000 budget t=0; item-failed@300000");
  assert_story (f, 2,
                "attempt-start@300000 #1; attempt-end@400000 #1 failed t=0; "
                "retry-skipped@400000 budget t=0; item-failed@400000");
  assert_story (f, 3, "attempt-start@400000 #1; attempt-end@500000 #1 ok t=100; item-ok@500000");
  assert_story (f, 4, "attempt-start@500000 #1; attempt-end@600000 #1 failed t=100; item-failed@600000");
  g_assert_cmpuint (draws->calls, ==, 1);
  g_assert_cmpuint (run_stats (f).skipped_budget, ==, 3);
  g_assert_cmpuint (run_stats (f).skipped_deadline, ==, 0);
  g_assert_cmpuint (run_stats (f).retries, ==, 1);

  /* Each refused item fails with the very error of its last attempt. */
  assert_group (f, 4);
  g_assert_true (recorded_error (f, 0) == script_call (f->script, 0, 2)->error);
  g_assert_true (recorded_error (f, 1) == script_call (f->script, 1, 1)->error);
  g_assert_true (recorded_error (f, 2) == script_call (f->script, 2, 1)->error);
  assert_accounted (f);
}

static void
test_budget_successes_refill_by_ratio_up_to_max (Fixture       *f,
                                                 gconstpointer  data)
{
  make_pool_props (f, 1, 1, 1.0, 1, "ValueError",
                   "keep-going", TRUE,
                   "retry-budget", 3.0,
                   "retry-budget-ratio", 0.5,
                   NULL);
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 6, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 7, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  f->script->fallback.delay = S (0.1);

  drive (f, range (9));

  /* Each success gives back 500, never above 3000. Item 1's failure
   * leaves exactly half (1500): not more than half, refused. Item 6's
   * last attempt has no retry left and still takes its token (a used-up
   * retry is no budget refusal); item 7 then finds 0 left. */
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried t=2000; retry@100000; "
                "attempt-start@100000 #2; attempt-end@200000 #2 ok t=2500; item-ok@200000");
  assert_story (f, 1,
                "attempt-start@200000 #1; attempt-end@300000 #1 failed t=1500; "
                "retry-skipped@300000 budget t=1500; item-failed@300000");
  assert_story (f, 2, "attempt-start@300000 #1; attempt-end@400000 #1 ok t=2000; item-ok@400000");
  assert_story (f, 3, "attempt-start@400000 #1; attempt-end@500000 #1 ok t=2500; item-ok@500000");
  assert_story (f, 4, "attempt-start@500000 #1; attempt-end@600000 #1 ok t=3000; item-ok@600000");
  assert_story (f, 5, "attempt-start@600000 #1; attempt-end@700000 #1 ok t=3000; item-ok@700000");
  assert_story (f, 6,
                "attempt-start@700000 #1; attempt-end@800000 #1 failed retried t=2000; retry@800000; "
                "attempt-start@800000 #2; attempt-end@900000 #2 failed t=1000; item-failed@900000");
  assert_story (f, 7,
                "attempt-start@900000 #1; attempt-end@1000000 #1 failed t=0; "
                "retry-skipped@1000000 budget t=0; item-failed@1000000");
  assert_story (f, 8, "attempt-start@1000000 #1; attempt-end@1100000 #1 ok t=500; item-ok@1100000");
  g_assert_cmpuint (run_stats (f).skipped_budget, ==, 2);
  assert_group (f, 3);
  assert_accounted (f);
}

/* }}} */
/* One deadline per item {{{ */

/* One worker, two queued: item 0 hangs and is cut at its deadline, 1 s
 * after the pull; items 1 and 2 (queued) and 3 (held by the producer)
 * were pulled with it. */
static void
drive_shed_scenario (Fixture  *f,
                     gboolean  keep_going)
{
  make_pool_props (f, 1, 2, 10.0, 0, NULL,
                   "item-deadline", 1.0,
                   "keep-going", keep_going,
                   NULL);
  script_set (f->script, 0, DO_HANG, 0, 0, NULL);
  f->script->fallback.delay = S (0.1);

  drive (f, range (5));

  /* The item deadline comes before start + item-timeout: 'deadline
   * exceeded', stopped like a late attempt. */
  assert_story (f, 0,
                "attempt-start@0 #1; cancel-request@1000000 r1; attempt-end@1000000 #1 timed-out; "
                "item-failed@1000000");
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
}

static void
test_deadline_sheds_expired_queued_items (Fixture       *f,
                                          gconstpointer  data)
{
  drive_shed_scenario (f, TRUE);

  /* Taken at their deadline, items 1–3 fail at once without a handler
   * call; item 4, pulled at 1 s, has until 2 s. */
  for (gint64 i = 1; i <= 3; i++)
    {
      assert_story (f, i, "deadline-exceeded@1000000; item-failed@1000000");
      g_assert_cmpuint (script_attempts (f->script, i), ==, 0);
      g_assert_error (recorded_error (f, i), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
    }
  assert_story (f, 4, "attempt-start@1000000 #1; attempt-end@1100000 #1 ok; item-ok@1100000");
  g_assert_cmpuint (f->results->len, ==, 1);
  g_assert_cmpint (result_at (f, 0), ==, 16);
  g_assert_cmpuint (run_stats (f).shed, ==, 3);
  g_assert_cmpuint (run_stats (f).attempts, ==, 2);
  assert_text (metrics_story (f),
               "failure TimeoutError('deadline exceeded')@1000000; failure TimeoutError('deadline exceeded')@1000000; "
               "failure TimeoutError('deadline exceeded')@1000000; failure TimeoutError('deadline exceeded')@1000000; "
               "ok 4@1100000");
  assert_group (f, 4);
  assert_text (errors_story (f),
               "TimeoutError('deadline exceeded'); TimeoutError('deadline exceeded'); "
               "TimeoutError('deadline exceeded'); TimeoutError('deadline exceeded')");
  g_assert_cmpint (f->end_time, ==, S (1.1));
  assert_accounted (f);
}

static void
test_deadline_shed_is_a_failure_without_keep_going (Fixture       *f,
                                                    gconstpointer  data)
{
  SluiceRunStats s;

  drive_shed_scenario (f, FALSE);

  /* Item 0's failure stopped the pool: item 3 is dropped, the queued
   * items 1 and 2 are drained and shed, item 4 is never pulled. */
  assert_story (f, 1, "deadline-exceeded@1000000; item-failed@1000000");
  assert_story (f, 2, "deadline-exceeded@1000000; item-failed@1000000");
  assert_story (f, 3, "item-dropped@1000000");
  assert_group (f, 3);
  assert_text (errors_story (f),
               "TimeoutError('deadline exceeded'); TimeoutError('deadline exceeded'); "
               "TimeoutError('deadline exceeded')");
  s = run_stats (f);
  g_assert_cmpuint (s.pulled, ==, 4);
  g_assert_cmpuint (s.shed, ==, 2);
  g_assert_cmpuint (s.attempts, ==, 1);
  g_assert_cmpuint (f->metrics[2], ==, 3);
  g_assert_cmpint (f->end_time, ==, S (1.0));
  assert_accounted (f);
}

/* Item 0 hangs in every attempt, and TimeoutError is retryable. */
static void
drive_hang_with_deadline (Fixture *f,
                          double   item_timeout,
                          double   item_deadline)
{
  make_pool_props (f, 1, 1, item_timeout, 3, "TimeoutError", "item-deadline", item_deadline, NULL);
  script_set (f->script, 0, DO_HANG, 0, 0, NULL);

  drive (f, range (1));

  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), SLUICE_ERROR, SLUICE_ERROR_TIMEOUT);
  g_assert_cmpuint (run_stats (f).timeouts, ==, 2);
  g_assert_cmpuint (run_stats (f).skipped_deadline, ==, 1);
  assert_accounted (f);
}

static void
test_deadline_cuts_attempt_at_item_deadline (Fixture       *f,
                                             gconstpointer  data)
{
  drive_hang_with_deadline (f, 1.0, 1.5);

  /* Attempt 1: min(0 + 1, 1.5) is its own timeout. Attempt 2: min(1 + 1,
   * 1.5) is the item deadline, strictly earlier: 'deadline exceeded'.
   * The TimeoutError is retryable, but the deadline has passed. */
  assert_story (f, 0,
                "attempt-start@0 #1; cancel-request@1000000 r1; attempt-end@1000000 #1 timed-out retried; "
                "retry@1000000; attempt-start@1000000 #2; cancel-request@1500000 r1; "
                "attempt-end@1500000 #2 timed-out; retry-skipped@1500000 deadline; item-failed@1500000");
  assert_text (metrics_story (f),
               "retry TimeoutError('item timed out')@1000000; failure TimeoutError('deadline exceeded')@1500000");
}

static void
test_deadline_same_microsecond_is_item_timed_out (Fixture       *f,
                                                  gconstpointer  data)
{
  drive_hang_with_deadline (f, 0.5, 1.0);

  /* Attempt 2's start + item-timeout is the item deadline's very µs. */
  assert_story (f, 0,
                "attempt-start@0 #1; cancel-request@500000 r1; attempt-end@500000 #1 timed-out retried; "
                "retry@500000; attempt-start@500000 #2; cancel-request@1000000 r1; "
                "attempt-end@1000000 #2 timed-out; retry-skipped@1000000 deadline; item-failed@1000000");
  assert_text (metrics_story (f),
               "retry TimeoutError('item timed out')@500000; failure TimeoutError('item timed out')@1000000");
}

static void
test_deadline_handler_finishing_at_deadline_timed_out (Fixture       *f,
                                                       gconstpointer  data)
{
  make_pool_props (f, 1, 1, 2.0, 0, NULL, "item-deadline", 1.0, NULL);
  script_set (f->script, 0, DO_OK, 1.0, 0, NULL);

  drive (f, range (1));

  /* It returned its value at the item deadline: too late. */
  g_assert_true (script_call (f->script, 0, 1)->returned_ok);
  g_assert_cmpint (script_call (f->script, 0, 1)->ended, ==, S (1.0));
  g_assert_cmpuint (f->results->len, ==, 0);
  assert_story (f, 0,
                "attempt-start@0 #1; cancel-request@1000000 r1; attempt-end@1000000 #1 timed-out; "
                "item-failed@1000000");
  assert_group (f, 1);
  assert_text (errors_story (f), "TimeoutError('deadline exceeded')");
  assert_accounted (f);
}

static void
test_deadline_skips_retry_whose_backoff_ends_at_deadline (Fixture       *f,
                                                          gconstpointer  data)
{
  Draws *draws;

  make_pool_props (f, 1, 1, 10.0, 5, "ValueError",
                   "backoff", EXP,
                   "backoff-base", 0.2,
                   "item-deadline", 1.0,
                   NULL);
  draws = inject_draws (f, 3, (const guint32[]) { G_MAXUINT32, 0x80000000u, 0 });
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.3, 0, "ValueError");
  script_set (f->script, 1, DO_FAIL, 0.1, 1, "ValueError");
  script_then (f->script, 1, 0.05);

  drive (f, range (2));

  /* Item 0's second retry draws 200000 µs of its 400000: it would start
   * at 1 s, its deadline, so nothing waits and it fails at 0.8 s with its
   * last attempt's very error. The draw still counts: item 1 (drained)
   * gets the third number. */
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@300000 #1 failed retried; backoff@300000 d=200000; "
                "retry@500000; attempt-start@500000 #2; attempt-end@800000 #2 failed; "
                "retry-skipped@800000 deadline d=200000; item-failed@800000");
  assert_story (f, 1,
                "attempt-start@800000 #1; attempt-end@900000 #1 failed retried; backoff@900000 d=0; "
                "retry@900000; attempt-start@900000 #2; attempt-end@950000 #2 ok; item-ok@950000");
  g_assert_cmpuint (draws->calls, ==, 3);
  assert_failed_with_error_of (f, 2);
  g_assert_cmpuint (run_stats (f).skipped_deadline, ==, 1);
  g_assert_cmpuint (run_stats (f).retries, ==, 2);
  assert_accounted (f);
}

/* }}} */
/* Cancellation and stop during a backoff {{{ */

/* Item 0 fails at 0.1 s and waits 1 s before a retry that would succeed. */
static void
make_backoff_pool (Fixture *f)
{
  make_pool_props (f, 1, 1, 1.0, 3, "ValueError",
                   "backoff", EXP,
                   "backoff-base", 1.0,
                   "jitter", SLUICE_JITTER_NONE,
                   NULL);
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");
  f->cancel = g_cancellable_new ();
}

/* The item ends cancelled at @when: no later attempt, no retry metric. */
static void
assert_cancelled_in_backoff (Fixture *f,
                             gint64   when)
{
  g_autofree char *story = g_strdup_printf ("attempt-start@0 #1; attempt-end@100000 #1 failed retried; "
                                            "backoff@100000 d=1000000; item-cancelled@%" G_GINT64_FORMAT,
                                            when);

  assert_story (f, 0, story);
  g_assert_cmpuint (script_attempts (f->script, 0), ==, 1);
  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (f->end_time, ==, when);
  g_assert_true (f->end_finished);
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_RETRY), ==, 0);
  g_assert_cmpuint (f->metrics[1], ==, 0);
  g_assert_cmpuint (run_stats (f).retries, ==, 0);
  g_assert_cmpuint (run_stats (f).cancelled, ==, 1);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 0);
  assert_accounted (f);
}

static void
test_cancel_during_backoff (Fixture       *f,
                            gconstpointer  data)
{
  Action action = GPOINTER_TO_INT (data);

  make_backoff_pool (f);
  at (f, 0.5, action);

  drive (f, range (1));

  assert_cancelled_in_backoff (f, S (0.5));
  if (action == ACT_CLOSE)
    {
      g_assert_cmpuint (f->n_closed, ==, 1);
      g_assert_cmpint (f->close_time, ==, S (0.5));
      g_assert_cmpuint (f->close_live, ==, 0);
    }
}

static void
test_cancel_close_from_backoff_event (Fixture       *f,
                                      gconstpointer  data)
{
  make_backoff_pool (f);
  f->close_on_event = SLUICE_EVENT_BACKOFF;

  drive (f, range (1));

  assert_cancelled_in_backoff (f, S (0.1));
  g_assert_cmpuint (f->n_closed, ==, 1);
  g_assert_cmpint (f->close_time, ==, S (0.1));
}

static void
test_stop_during_backoff_still_retries (Fixture       *f,
                                        gconstpointer  data)
{
  make_backoff_pool (f);
  f->script->fallback.delay = S (0.1);
  at (f, 0.5, ACT_STOP);

  drive (f, range (3));

  /* The stop drops item 2 (held by the producer) and drains item 1, and
   * item 0's retry still runs when its backoff ends. */
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; backoff@100000 d=1000000; "
                "retry@1100000; attempt-start@1100000 #2; attempt-end@1200000 #2 ok; item-ok@1200000");
  assert_story (f, 1, "attempt-start@1200000 #1; attempt-end@1300000 #1 ok; item-ok@1300000");
  assert_story (f, 2, "item-dropped@500000");
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 2);
  g_assert_cmpint (result_time (f, 0), ==, S (1.2));
  g_assert_cmpint (f->end_time, ==, S (1.3));
  g_assert_cmpuint (f->metrics[1], ==, 1);
  assert_accounted (f);
}

/* }}} */
/* Construction {{{ */

static void
assert_refused (SluicePool *pool,
                GError     *error,
                const char *option,
                const char *value)
{
  g_autofree char *not_value = g_strconcat (", not ", value, NULL);

  g_assert_null (pool);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
  g_assert_true (g_str_has_prefix (error->message, option));
  g_assert_true (g_str_has_suffix (error->message, not_value));
  g_assert_cmpstr (sluice_error_type_name (error), ==, "ValueError");
}

/* Builds a pool with these properties (doubles as doubles) and checks
 * GInitable refuses it, naming @option and @value. */
#define assert_invalid(f, option, value, ...) \
  G_STMT_START { \
    g_autoptr(GError) error_ = NULL; \
    SluicePool *pool_ = try_make_pool ((f), &error_, __VA_ARGS__, NULL); \
    assert_refused (pool_, error_, (option), (value)); \
  } G_STMT_END

static void
test_init_refuses_bad_backoff_base (Fixture       *f,
                                    gconstpointer  data)
{
  assert_invalid (f, "backoff-base", "0", "backoff-base", 0.0);
  assert_invalid (f, "backoff-base", "-0.25", "backoff-base", -0.25);
  assert_invalid (f, "backoff-base", "nan", "backoff-base", NAN);
  assert_invalid (f, "backoff-base", "inf", "backoff-base", INFINITY);
  assert_invalid (f, "backoff-base", "-inf", "backoff-base", -INFINITY);
}

static void
test_init_refuses_bad_backoff_cap (Fixture       *f,
                                   gconstpointer  data)
{
  assert_invalid (f, "backoff-cap", "0.25", "backoff-base", 0.5, "backoff-cap", 0.25);
  assert_invalid (f, "backoff-cap", "3600.5", "backoff-cap", 3600.5);
  assert_invalid (f, "backoff-cap", "nan", "backoff-cap", NAN);
  assert_invalid (f, "backoff-cap", "inf", "backoff-cap", INFINITY);
  /* A base above the default cap: the cap (10) is what is wrong. */
  assert_invalid (f, "backoff-cap", "10", "backoff-base", 20.0);
}

static void
test_init_refuses_bad_item_deadline (Fixture       *f,
                                     gconstpointer  data)
{
  assert_invalid (f, "item-deadline", "-1", "item-deadline", -1.0);
  assert_invalid (f, "item-deadline", "nan", "item-deadline", NAN);
  assert_invalid (f, "item-deadline", "inf", "item-deadline", INFINITY);
}

static void
test_init_refuses_bad_retry_budget (Fixture       *f,
                                    gconstpointer  data)
{
  assert_invalid (f, "retry-budget", "-1", "retry-budget", -1.0);
  assert_invalid (f, "retry-budget", "1000001", "retry-budget", 1000001.0);
  assert_invalid (f, "retry-budget", "1000000.5", "retry-budget", 1000000.5);
  /* Four decimals: not whole thousandths. */
  assert_invalid (f, "retry-budget", "2.0625", "retry-budget", 2.0625);
  assert_invalid (f, "retry-budget", "nan", "retry-budget", NAN);
  assert_invalid (f, "retry-budget", "inf", "retry-budget", INFINITY);
}

static void
test_init_refuses_bad_retry_budget_ratio (Fixture       *f,
                                          gconstpointer  data)
{
  assert_invalid (f, "retry-budget-ratio", "0", "retry-budget-ratio", 0.0);
  assert_invalid (f, "retry-budget-ratio", "-0.5", "retry-budget-ratio", -0.5);
  assert_invalid (f, "retry-budget-ratio", "0.0625", "retry-budget-ratio", 0.0625);
  assert_invalid (f, "retry-budget-ratio", "nan", "retry-budget-ratio", NAN);
}

static void
test_init_accepts_boundary_values (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluicePool) pool = NULL;
  double base, cap, deadline, budget, ratio;
  guint seed;

  pool = try_make_pool (f, &error,
                        "backoff", EXP,
                        "backoff-base", 3600.0,
                        "backoff-cap", 3600.0,
                        "seed", G_MAXUINT32,
                        "item-deadline", 0.000001,
                        "retry-budget", 1000000.0,
                        "retry-budget-ratio", 0.001,
                        NULL);
  g_assert_no_error (error);
  g_object_get (pool,
                "backoff-base", &base, "backoff-cap", &cap, "seed", &seed,
                "item-deadline", &deadline, "retry-budget", &budget,
                "retry-budget-ratio", &ratio, NULL);
  g_assert_cmpfloat (base, ==, 3600.0);
  g_assert_cmpfloat (cap, ==, 3600.0);
  g_assert_cmpuint (seed, ==, G_MAXUINT32);
  g_assert_cmpfloat (deadline, ==, 0.000001);
  g_assert_cmpfloat (budget, ==, 1000000.0);
  g_assert_cmpfloat (ratio, ==, 0.001);
  g_clear_object (&pool);

  pool = try_make_pool (f, &error,
                        "backoff-base", 0.000001,
                        "retry-budget", 0.001,
                        "item-deadline", 0.0,
                        NULL);
  g_assert_no_error (error);
}

/* }}} */
/* Defaults {{{ */

static void
test_defaults_change_nothing (Fixture       *f,
                              gconstpointer  data)
{
  SluiceBackoff backoff;
  SluiceJitter jitter;
  double base, cap, deadline, budget, ratio;
  guint seed;
  SluiceRunStats s;
  Draws *draws;

  make_pool_full (f, 2, 1, 1.0, 1, "ValueError", FALSE);
  draws = inject_draws (f, 0, NULL);
  g_object_get (f->pool,
                "backoff", &backoff, "backoff-base", &base, "backoff-cap", &cap,
                "jitter", &jitter, "seed", &seed, "item-deadline", &deadline,
                "retry-budget", &budget, "retry-budget-ratio", &ratio, NULL);
  g_assert_cmpint (backoff, ==, SLUICE_BACKOFF_NONE);
  g_assert_cmpfloat (base, ==, 0.1);
  g_assert_cmpfloat (cap, ==, 10.0);
  g_assert_cmpint (jitter, ==, SLUICE_JITTER_FULL);
  g_assert_cmpuint (seed, ==, 0);
  g_assert_cmpfloat (deadline, ==, 0.0);
  g_assert_cmpfloat (budget, ==, 0.0);
  g_assert_cmpfloat (ratio, ==, 0.1);

  /* Item 1 runs 0.9 s: no item deadline cuts it. */
  script_set (f->script, 0, DO_FAIL, 0.1, 1, "ValueError");
  script_set (f->script, 1, DO_OK, 0.9, 0, NULL);

  drive (f, range (2));

  /* The capstone: the retry in the same step, nothing drawn, no budget,
   * no deadline, no new events. */
  g_assert_no_error (f->end_error);
  assert_retried_in_one_step (f, 0);
  assert_story (f, 0,
                "attempt-start@0 #1; attempt-end@100000 #1 failed retried; retry@100000; "
                "attempt-start@100000 #2; attempt-end@200000 #2 ok; item-ok@200000");
  assert_story (f, 1, "attempt-start@0 #1; attempt-end@900000 #1 ok; item-ok@900000");
  g_assert_cmpuint (draws->calls, ==, 0);
  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);

      g_assert_cmpint (r->delay, ==, -1);
      g_assert_null (r->reason);
      g_assert_cmpint (r->tokens, ==, -1);
    }
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_BACKOFF), ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_RETRY_SKIPPED), ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_DEADLINE_EXCEEDED), ==, 0);
  s = run_stats (f);
  g_assert_cmpuint (s.shed, ==, 0);
  g_assert_cmpuint (s.skipped_deadline, ==, 0);
  g_assert_cmpuint (s.skipped_budget, ==, 0);
  g_assert_cmpuint (s.retries, ==, 1);
  g_assert_cmpint (f->end_time, ==, S (0.9));
  assert_accounted (f);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/retry-policy/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
#define ADD_WITH(path, data, func) \
  g_test_add ("/retry-policy/" path, Fixture, GINT_TO_POINTER (data), fixture_setup, func, fixture_teardown)

  ADD ("backoff/fails-twice-then-succeeds", test_backoff_fails_twice_then_succeeds);
  ADD ("backoff/jitter-none-doubles-up-to-cap", test_backoff_jitter_none_doubles_up_to_cap);
  ADD ("backoff/bound-and-jitter-functions", test_backoff_bound_and_jitter_functions);
  ADD ("backoff/permanent-failure-never-waits", test_backoff_permanent_failure_never_waits);
  ADD ("backoff/none-retries-in-one-step", test_backoff_none_retries_in_one_step);
  ADD ("backoff/zero-delay-is-still-a-timer", test_backoff_zero_delay_is_still_a_timer);
  ADD ("backoff/retry-metric-when-backoff-ends", test_backoff_retry_metric_when_backoff_ends);

  ADD ("jitter/same-seed-same-delays", test_jitter_same_seed_same_delays);
  ADD ("jitter/known-delays-for-known-seeds", test_jitter_known_delays_for_known_seeds);
  ADD ("jitter/injected-generator-sets-delays", test_jitter_injected_generator_sets_delays);

  ADD ("budget/exhausted-stops-retries-across-items", test_budget_exhausted_stops_retries_across_items);
  ADD ("budget/successes-refill-by-ratio-up-to-max", test_budget_successes_refill_by_ratio_up_to_max);

  ADD ("deadline/sheds-expired-queued-items", test_deadline_sheds_expired_queued_items);
  ADD ("deadline/shed-is-a-failure-without-keep-going", test_deadline_shed_is_a_failure_without_keep_going);
  ADD ("deadline/cuts-attempt-at-item-deadline", test_deadline_cuts_attempt_at_item_deadline);
  ADD ("deadline/same-microsecond-is-item-timed-out", test_deadline_same_microsecond_is_item_timed_out);
  ADD ("deadline/handler-finishing-at-deadline-timed-out", test_deadline_handler_finishing_at_deadline_timed_out);
  ADD ("deadline/skips-retry-whose-backoff-ends-at-deadline", test_deadline_skips_retry_whose_backoff_ends_at_deadline);

  ADD_WITH ("cancel/caller-cancel-during-backoff", ACT_CANCEL, test_cancel_during_backoff);
  ADD_WITH ("cancel/close-during-backoff", ACT_CLOSE, test_cancel_during_backoff);
  ADD ("cancel/close-from-backoff-event", test_cancel_close_from_backoff_event);
  ADD ("stop/during-backoff-still-retries", test_stop_during_backoff_still_retries);

  ADD ("init/refuses-bad-backoff-base", test_init_refuses_bad_backoff_base);
  ADD ("init/refuses-bad-backoff-cap", test_init_refuses_bad_backoff_cap);
  ADD ("init/refuses-bad-item-deadline", test_init_refuses_bad_item_deadline);
  ADD ("init/refuses-bad-retry-budget", test_init_refuses_bad_retry_budget);
  ADD ("init/refuses-bad-retry-budget-ratio", test_init_refuses_bad_retry_budget_ratio);
  ADD ("init/accepts-boundary-values", test_init_accepts_boundary_values);

  ADD ("defaults/change-nothing", test_defaults_change_nothing);

  return g_test_run ();
}
