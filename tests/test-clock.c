/* test-clock.c: tests of SluiceClock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-clock.h"

#include <string.h>

#define SEC ((gint64) G_USEC_PER_SEC)
#define MAX_ITERATIONS 100000

/* ---- helpers ----------------------------------------------------------- */

/* Guards against a loop that would block forever on a bug. */
static gboolean
watchdog_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

typedef struct
{
  gboolean timed_out;
  guint    watchdog_id;
} Watchdog;

static void
watchdog_start (Watchdog *w)
{
  w->timed_out = FALSE;
  w->watchdog_id = g_timeout_add_seconds (10, watchdog_cb, &w->timed_out);
}

static void
watchdog_stop (Watchdog *w)
{
  g_assert_false (w->timed_out);
  g_clear_handle_id (&w->watchdog_id, g_source_remove);
}

/* Iterates the default context, blocking, until *done or a guard trips. */
static void
run_until (gboolean *done)
{
  Watchdog w;
  guint i = 0;

  watchdog_start (&w);
  while (!*done && !w.timed_out && i++ < MAX_ITERATIONS)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (*done);
  watchdog_stop (&w);
}

/* Blocking iterations while @cond holds, at most @max_iterations; a
 * watchdog wakes the loop so a missing event fails instead of hanging. */
#define ITERATE_WHILE(cond, max_iterations)                           \
  G_STMT_START {                                                      \
    Watchdog _w;                                                      \
    watchdog_start (&_w);                                             \
    for (guint _i = 0; _i < (max_iterations) && (cond) &&             \
                       !_w.timed_out; _i++)                           \
      g_main_context_iteration (NULL, TRUE);                          \
    watchdog_stop (&_w);                                              \
  } G_STMT_END

/* Iterates without blocking, @n times at most while something is ready. */
static void
spin (guint n)
{
  for (guint i = 0; i < n; i++)
    g_main_context_iteration (NULL, FALSE);
}

/* A log of what fired, in order. */
typedef struct
{
  SluiceClock *clock;
  GArray      *fired;     /* gint: tags */
  GArray      *times;     /* gint64: now() when each fired */
} Log;

static void
log_init (Log         *log,
          SluiceClock *clock)
{
  log->clock = clock;
  log->fired = g_array_new (FALSE, FALSE, sizeof (gint));
  log->times = g_array_new (FALSE, FALSE, sizeof (gint64));
}

static void
log_clear (Log *log)
{
  g_clear_pointer (&log->fired, g_array_unref);
  g_clear_pointer (&log->times, g_array_unref);
}

static void
log_add (Log  *log,
         gint  tag)
{
  gint64 now = log->clock != NULL ? sluice_clock_now (log->clock) : -1;

  g_array_append_val (log->fired, tag);
  g_array_append_val (log->times, now);
}

typedef struct
{
  Log  *log;
  gint  tag;
} Entry;

static void
entry_fire (gpointer user_data)
{
  Entry *e = user_data;

  log_add (e->log, e->tag);
}

static guint64
add_logged (SluiceClock *clock,
            Log         *log,
            gint64       deadline,
            gint         tag)
{
  Entry *e = g_new0 (Entry, 1);

  e->log = log;
  e->tag = tag;
  return sluice_clock_add_timer (clock, deadline, entry_fire, e, g_free);
}

static void
set_flag (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
count_up (gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* ---- heap -------------------------------------------------------------- */

static void
test_heap_order (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);
  gint order[200];
  Log log;

  log_init (&log, clock);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    order[i] = i;
  for (guint i = G_N_ELEMENTS (order) - 1; i > 0; i--)
    {
      guint j = g_rand_int_range (rand, 0, i + 1);
      gint t = order[i];

      order[i] = order[j];
      order[j] = t;
    }

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    add_logged (clock, &log, (gint64) (order[i] + 1) * 1000, order[i]);

  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 200);
  g_assert_cmpint (sluice_clock_get_next_deadline (clock), ==, 1000);

  ITERATE_WHILE (log.fired->len < 200, MAX_ITERATIONS);

  g_assert_cmpuint (log.fired->len, ==, 200);
  for (guint i = 0; i < 200; i++)
    {
      g_assert_cmpint (g_array_index (log.fired, gint, i), ==, (gint) i);
      g_assert_cmpint (g_array_index (log.times, gint64, i), ==, (gint64) (i + 1) * 1000);
    }
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);
  g_assert_cmpint (sluice_clock_get_next_deadline (clock), ==, G_MAXINT64);

  log_clear (&log);
}

/* Random deadlines with many ties, half removed at random: the rest fire
 * in (deadline, id) order and the removed never do. */
static void
test_heap_remove_random (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  enum { N = 500 };
  guint64 ids[N];
  gint64 deadlines[N];
  gboolean removed[N] = { FALSE, };
  guint n_left = N;
  Log log;

  log_init (&log, clock);

  for (gint i = 0; i < N; i++)
    {
      deadlines[i] = g_rand_int_range (rand, 0, 50) * 10;
      ids[i] = add_logged (clock, &log, deadlines[i], i);
      g_assert_cmpuint (ids[i], ==, (guint64) i + 1);
    }

  for (gint k = 0; k < N / 2; k++)
    {
      gint i = g_rand_int_range (rand, 0, N);

      g_assert_cmpint (sluice_clock_remove_timer (clock, ids[i]), ==, !removed[i]);
      if (!removed[i])
        n_left--;
      removed[i] = TRUE;
      g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, n_left);
    }

  while (sluice_clock_step (clock))
    ;

  g_assert_cmpuint (log.fired->len, ==, n_left);
  for (guint k = 0; k < log.fired->len; k++)
    {
      gint i = g_array_index (log.fired, gint, k);

      g_assert_false (removed[i]);
      g_assert_cmpint (g_array_index (log.times, gint64, k), ==, deadlines[i]);
      if (k > 0)
        {
          gint p = g_array_index (log.fired, gint, k - 1);

          g_assert_true (deadlines[p] < deadlines[i] ||
                         (deadlines[p] == deadlines[i] && p < i));
        }
    }

  log_clear (&log);
}

static void
test_equal_deadlines (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  gboolean done = FALSE;
  Log log;

  log_init (&log, clock);

  for (gint i = 0; i < 20; i++)
    add_logged (clock, &log, 5 * SEC, i);
  sluice_clock_add_timer (clock, 5 * SEC, set_flag, &done, NULL);

  run_until (&done);

  g_assert_cmpuint (log.fired->len, ==, 20);
  for (gint i = 0; i < 20; i++)
    {
      g_assert_cmpint (g_array_index (log.fired, gint, i), ==, i);
      g_assert_cmpint (g_array_index (log.times, gint64, i), ==, 5 * SEC);
    }

  log_clear (&log);
}

/* ---- remove and destroy notifies -------------------------------------- */

typedef struct
{
  guint fired;
  guint destroyed;
  gboolean fired_before_destroy;
} Counts;

static void
counts_fire (gpointer user_data)
{
  Counts *c = user_data;

  g_assert_cmpuint (c->destroyed, ==, 0);
  c->fired++;
}

static void
counts_destroy (gpointer user_data)
{
  Counts *c = user_data;

  c->fired_before_destroy = c->fired > 0;
  c->destroyed++;
}

static void
test_remove_pending (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Counts c = { 0, };
  guint64 id;

  id = sluice_clock_add_timeout (clock, 10, counts_fire, &c, counts_destroy);
  g_assert_cmpuint (id, !=, 0);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 1);

  g_assert_true (sluice_clock_remove_timer (clock, id));
  g_assert_cmpuint (c.destroyed, ==, 1);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);

  g_assert_false (sluice_clock_remove_timer (clock, id));
  g_assert_false (sluice_clock_remove_timer (clock, 12345));
  g_assert_cmpuint (c.destroyed, ==, 1);

  g_assert_false (sluice_clock_step (clock));
  spin (10);
  g_assert_cmpuint (c.fired, ==, 0);
  g_assert_cmpuint (c.destroyed, ==, 1);
  g_assert_cmpint (sluice_clock_now (clock), ==, 0);
}

typedef struct
{
  SluiceClock *clock;
  guint64      victim;
  guint64      self_id;
  gboolean     removed_victim;
  gboolean     removed_self;
  gboolean     fired;
} Remover;

static void
remover_fire (gpointer user_data)
{
  Remover *r = user_data;

  r->fired = TRUE;
  r->removed_victim = sluice_clock_remove_timer (r->clock, r->victim);
  /* A timer that is firing is no longer pending. */
  r->removed_self = sluice_clock_remove_timer (r->clock, r->self_id);
}

static void
test_remove_from_callback (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Remover r = { 0, };
  Counts victim = { 0, };
  Counts after = { 0, };
  gboolean done = FALSE;

  r.clock = clock;
  r.self_id = sluice_clock_add_timer (clock, 100, remover_fire, &r, NULL);
  r.victim = sluice_clock_add_timer (clock, 100, counts_fire, &victim, counts_destroy);
  sluice_clock_add_timer (clock, 100, counts_fire, &after, counts_destroy);
  sluice_clock_add_timer (clock, 100, set_flag, &done, NULL);

  run_until (&done);

  g_assert_true (r.fired);
  g_assert_true (r.removed_victim);
  g_assert_false (r.removed_self);
  g_assert_cmpuint (victim.fired, ==, 0);
  g_assert_cmpuint (victim.destroyed, ==, 1);
  g_assert_cmpuint (after.fired, ==, 1);
  g_assert_cmpuint (after.destroyed, ==, 1);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);
}

static void
test_destroy_notify (void)
{
  SluiceClock *clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Counts fired = { 0, };
  Counts removed = { 0, };
  Counts pending = { 0, };
  guint64 id;

  sluice_clock_add_timer (clock, 10, counts_fire, &fired, counts_destroy);
  id = sluice_clock_add_timer (clock, 20, counts_fire, &removed, counts_destroy);
  sluice_clock_add_timer (clock, 30, counts_fire, &pending, counts_destroy);

  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpuint (fired.fired, ==, 1);
  g_assert_cmpuint (fired.destroyed, ==, 1);
  g_assert_true (fired.fired_before_destroy);

  g_assert_true (sluice_clock_remove_timer (clock, id));
  g_assert_cmpuint (removed.destroyed, ==, 1);

  g_assert_cmpuint (pending.destroyed, ==, 0);
  g_object_unref (clock);

  g_assert_cmpuint (fired.fired, ==, 1);
  g_assert_cmpuint (fired.destroyed, ==, 1);
  g_assert_cmpuint (removed.fired, ==, 0);
  g_assert_cmpuint (removed.destroyed, ==, 1);
  g_assert_cmpuint (pending.fired, ==, 0);
  g_assert_cmpuint (pending.destroyed, ==, 1);

  /* Dispose, not only finalize, lets go of pending timers. */
  clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  memset (&pending, 0, sizeof pending);
  sluice_clock_add_timer (clock, 30, counts_fire, &pending, counts_destroy);
  g_object_run_dispose (G_OBJECT (clock));
  g_assert_cmpuint (pending.destroyed, ==, 1);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);
  spin (10);
  g_object_unref (clock);
  g_assert_cmpuint (pending.fired, ==, 0);
  g_assert_cmpuint (pending.destroyed, ==, 1);
}

/* A callback that drops the last reference must not crash the dispatch. */
static void
unref_clock (gpointer user_data)
{
  SluiceClock **clock = user_data;

  g_clear_object (clock);
}

static void
test_unref_in_callback (void)
{
  SluiceClock *clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Counts later = { 0, };
  Counts same = { 0, };

  sluice_clock_add_timer (clock, 10, unref_clock, &clock, NULL);
  sluice_clock_add_timer (clock, 10, counts_fire, &same, counts_destroy);
  sluice_clock_add_timer (clock, 20, counts_fire, &later, counts_destroy);

  for (guint i = 0; i < 100 && clock != NULL; i++)
    g_main_context_iteration (NULL, FALSE);

  /* The dispatch keeps the clock alive to its end, so timers due at the
   * same instant still fire; the rest are dropped with the clock. */
  g_assert_null (clock);
  g_assert_cmpuint (same.fired, ==, 1);
  g_assert_cmpuint (same.destroyed, ==, 1);
  g_assert_cmpuint (later.fired, ==, 0);
  g_assert_cmpuint (later.destroyed, ==, 1);
}

/* ---- virtual ----------------------------------------------------------- */

static void
test_virtual_jump (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  gboolean done = FALSE;
  gint64 start;

  g_assert_cmpint (sluice_clock_get_kind (clock), ==, SLUICE_CLOCK_VIRTUAL);
  g_assert_cmpint (sluice_clock_now (clock), ==, 0);

  sluice_clock_add_timeout (clock, 3600 * SEC, set_flag, &done, NULL);
  start = g_get_monotonic_time ();
  run_until (&done);

  g_assert_cmpint (sluice_clock_now (clock), ==, 3600 * SEC);
  /* An hour of virtual time took (far) less than 5 s of real time. */
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * SEC);

  /* Time never moves backwards, and a past deadline is due at once. */
  done = FALSE;
  sluice_clock_add_timer (clock, 10, set_flag, &done, NULL);
  run_until (&done);
  g_assert_cmpint (sluice_clock_now (clock), ==, 3600 * SEC);
}

typedef struct
{
  SluiceClock *clock;
  gboolean    *timer_fired;
  guint        remaining;
  guint        ran;
} IdleChain;

static gboolean
idle_chain_cb (gpointer user_data)
{
  IdleChain *chain = user_data;

  g_assert_false (*chain->timer_fired);
  g_assert_cmpint (sluice_clock_now (chain->clock), ==, 0);
  chain->ran++;

  return --chain->remaining > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
test_virtual_waits_for_idle (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  gboolean done = FALSE;
  IdleChain chain = { clock, &done, 50, 0 };

  sluice_clock_add_timeout (clock, 1000, set_flag, &done, NULL);
  g_idle_add_full (G_PRIORITY_DEFAULT, idle_chain_cb, &chain, NULL);

  run_until (&done);

  g_assert_cmpuint (chain.ran, ==, 50);
  g_assert_cmpint (sluice_clock_now (clock), ==, 1000);
}

static void
test_virtual_paused (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  gboolean done = FALSE;

  sluice_clock_set_paused (clock, TRUE);
  sluice_clock_add_timeout (clock, 1000, set_flag, &done, NULL);
  spin (20);
  g_assert_false (done);
  g_assert_cmpint (sluice_clock_now (clock), ==, 0);

  sluice_clock_set_paused (clock, FALSE);
  run_until (&done);
  g_assert_cmpint (sluice_clock_now (clock), ==, 1000);
}

static void
test_virtual_step (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Log log;

  log_init (&log, clock);
  add_logged (clock, &log, 300, 3);
  add_logged (clock, &log, 100, 1);
  add_logged (clock, &log, 100, 2);

  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpint (sluice_clock_now (clock), ==, 100);
  g_assert_cmpuint (log.fired->len, ==, 2);

  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpint (sluice_clock_now (clock), ==, 300);
  g_assert_cmpuint (log.fired->len, ==, 3);

  g_assert_false (sluice_clock_step (clock));
  g_assert_cmpint (sluice_clock_now (clock), ==, 300);

  log_clear (&log);
}

/* ---- the snapshot rule ------------------------------------------------- */

typedef struct
{
  Log         *log;
  SluiceClock *clock;
  gint64       new_deadline;
} Spawner;

static gboolean
idle_log_cb (gpointer user_data)
{
  log_add (user_data, 100);
  return G_SOURCE_REMOVE;
}

/* Logs 1, adds a timer logging 2 and an idle logging 100. */
static void
spawner_fire (gpointer user_data)
{
  Spawner *s = user_data;

  log_add (s->log, 1);
  add_logged (s->clock, s->log, s->new_deadline, 2);
  g_idle_add (idle_log_cb, s->log);
}

static void
test_added_during_dispatch (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Spawner s;
  Log log;

  log_init (&log, clock);
  s.log = &log;
  s.clock = clock;
  s.new_deadline = 50;  /* the same instant as the spawner */

  sluice_clock_add_timer (clock, 50, spawner_fire, &s, NULL);

  ITERATE_WHILE (log.fired->len < 3, 1000);

  /* The new timer was due at once, yet the idle queued between ran first:
   * it fired in a later dispatch. */
  g_assert_cmpuint (log.fired->len, ==, 3);
  g_assert_cmpint (g_array_index (log.fired, gint, 0), ==, 1);
  g_assert_cmpint (g_array_index (log.fired, gint, 1), ==, 100);
  g_assert_cmpint (g_array_index (log.fired, gint, 2), ==, 2);
  g_assert_cmpint (sluice_clock_now (clock), ==, 50);

  log_clear (&log);
}

/* A timer added during a dispatch with a deadline in the past sorts first
 * in the heap; it must neither fire now nor hold back older due timers. */
static void
test_added_in_past_during_dispatch (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Spawner s;
  Log log;

  log_init (&log, clock);
  s.log = &log;
  s.clock = clock;
  s.new_deadline = 0;

  sluice_clock_add_timer (clock, 50, spawner_fire, &s, NULL);
  add_logged (clock, &log, 50, 3);

  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpuint (log.fired->len, ==, 2);
  g_assert_cmpint (g_array_index (log.fired, gint, 0), ==, 1);
  g_assert_cmpint (g_array_index (log.fired, gint, 1), ==, 3);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 1);
  g_assert_cmpint (sluice_clock_get_next_deadline (clock), ==, 0);

  ITERATE_WHILE (log.fired->len < 4, 1000);

  g_assert_cmpuint (log.fired->len, ==, 4);
  g_assert_cmpint (g_array_index (log.fired, gint, 2), ==, 100);
  g_assert_cmpint (g_array_index (log.fired, gint, 3), ==, 2);
  g_assert_cmpint (sluice_clock_now (clock), ==, 50);

  log_clear (&log);
}

/* ---- hold and stalled -------------------------------------------------- */

typedef struct
{
  guint *stalled;
  guint  stalled_when_fired;
  gboolean fired;
} StallProbe;

static void
stall_probe_fire (gpointer user_data)
{
  StallProbe *p = user_data;

  p->fired = TRUE;
  p->stalled_when_fired = *p->stalled;
}

static void
on_stalled (SluiceClock *clock,
            gpointer     user_data)
{
  (void) clock;
  (*(guint *) user_data)++;
}

static void
test_stalled_once (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  guint stalled = 0;

  g_signal_connect (clock, "stalled", G_CALLBACK (on_stalled), &stalled);
  sluice_clock_hold (clock);

  /* Blocking is safe: the held clock is ready until it reports. */
  ITERATE_WHILE (stalled == 0, 100);
  g_assert_cmpuint (stalled, ==, 1);

  /* Then it stops being ready: no busy loop, no second emission. */
  g_assert_false (g_main_context_pending (NULL));
  spin (20);
  g_assert_cmpuint (stalled, ==, 1);

  /* Another hold re-arms it. */
  sluice_clock_hold (clock);
  spin (20);
  g_assert_cmpuint (stalled, ==, 2);

  sluice_clock_release (clock);
  sluice_clock_release (clock);
  spin (20);
  g_assert_cmpuint (stalled, ==, 2);
}

static void
test_stalled_not_while_timer (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  guint stalled = 0;
  StallProbe probe = { &stalled, 0, FALSE };

  g_signal_connect (clock, "stalled", G_CALLBACK (on_stalled), &stalled);
  sluice_clock_hold (clock);
  sluice_clock_add_timeout (clock, 10 * SEC, stall_probe_fire, &probe, NULL);

  run_until (&probe.fired);
  g_assert_cmpuint (probe.stalled_when_fired, ==, 0);
  g_assert_cmpint (sluice_clock_now (clock), ==, 10 * SEC);

  /* With the timer gone and still held, the next idle moment stalls. */
  spin (20);
  g_assert_cmpuint (stalled, ==, 1);

  sluice_clock_release (clock);
}

static void
test_stalled_not_held (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  guint stalled = 0;

  g_signal_connect (clock, "stalled", G_CALLBACK (on_stalled), &stalled);
  spin (20);
  g_assert_cmpuint (stalled, ==, 0);

  sluice_clock_hold (clock);
  sluice_clock_release (clock);
  spin (20);
  g_assert_cmpuint (stalled, ==, 0);
  g_assert_false (g_main_context_pending (NULL));
}

/* Not stalled while something else is ready, even at the idle priority. */
static gboolean
idle_count_cb (gpointer user_data)
{
  guint *left = user_data;

  return --(*left) > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
test_stalled_waits_for_idle (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  guint stalled = 0;
  guint left = 30;

  g_signal_connect (clock, "stalled", G_CALLBACK (on_stalled), &stalled);
  sluice_clock_hold (clock);
  g_idle_add (idle_count_cb, &left);

  for (guint i = 0; i < 100 && stalled == 0; i++)
    {
      g_main_context_iteration (NULL, TRUE);
      g_assert_true (stalled == 0 || left == 0);
    }
  g_assert_cmpuint (left, ==, 0);
  g_assert_cmpuint (stalled, ==, 1);

  sluice_clock_release (clock);
}

typedef struct
{
  SluiceClock *clock;
  guint        stalled;
  guint        fired;
} Rearm;

static void
rearm_on_stalled (SluiceClock *clock,
                  gpointer     user_data)
{
  Rearm *r = user_data;

  r->stalled++;
  if (r->stalled < 3)
    sluice_clock_add_timeout (clock, SEC, count_up, &r->fired, NULL);
}

static void
test_stalled_rearm (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  Rearm r = { clock, 0, 0 };

  g_signal_connect (clock, "stalled", G_CALLBACK (rearm_on_stalled), &r);
  sluice_clock_hold (clock);

  ITERATE_WHILE (r.stalled < 3, 100);

  g_assert_cmpuint (r.stalled, ==, 3);
  g_assert_cmpuint (r.fired, ==, 2);
  g_assert_cmpint (sluice_clock_now (clock), ==, 2 * SEC);
  spin (20);
  g_assert_cmpuint (r.stalled, ==, 3);

  sluice_clock_release (clock);
}


/* ---- a clock beside a window ------------------------------------------ */

/* A window's frame clock whose frames take longer than its refresh
 * interval: always ready, at GDK_PRIORITY_REDRAW (G_PRIORITY_HIGH_IDLE +
 * 20; the engine does not include GDK). */
#define REDRAW_PRIORITY (G_PRIORITY_HIGH_IDLE + 20)

static gboolean
count_frame_cb (gpointer user_data)
{
  (*(guint *) user_data)++;
  return G_SOURCE_CONTINUE;
}

typedef struct
{
  SluiceClock *clock;
  guint        remaining;
  gboolean     done;
} TimerChain;

static void
timer_chain_cb (gpointer user_data)
{
  TimerChain *chain = user_data;

  if (--chain->remaining == 0)
    chain->done = TRUE;
  else
    sluice_clock_add_timeout (chain->clock, 1000, timer_chain_cb, chain, NULL);
}

/* The stall of issue 24: the pool's work and time moved below the redraw
 * priority, and frames always due held the run still for ever. */
static void
test_interactive_moves_time_while_frames_are_always_due (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new_interactive (SLUICE_CLOCK_VIRTUAL);
  TimerChain chain = { clock, 100, FALSE };
  guint frames = 0;
  guint frame_id = g_idle_add_full (REDRAW_PRIORITY, count_frame_cb, &frames, NULL);

  g_assert_cmpint (sluice_clock_get_priority (clock), <, sluice_clock_get_advance_priority (clock));
  g_assert_cmpint (sluice_clock_get_advance_priority (clock), <, REDRAW_PRIORITY);

  sluice_clock_add_timeout (clock, 1000, timer_chain_cb, &chain, NULL);
  run_until (&chain.done);
  g_source_remove (frame_id);

  g_assert_cmpint (sluice_clock_now (clock), ==, 100 * 1000);
}

/* What the pool schedules at its priority still runs before time moves:
 * the same outcome as on a clock of its own. */
static void
test_interactive_waits_for_the_pools_work (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new_interactive (SLUICE_CLOCK_VIRTUAL);
  gboolean done = FALSE;
  IdleChain chain = { clock, &done, 50, 0 };

  sluice_clock_add_timeout (clock, 1000, set_flag, &done, NULL);
  g_idle_add_full (sluice_clock_get_priority (clock), idle_chain_cb, &chain, NULL);

  run_until (&done);

  g_assert_cmpuint (chain.ran, ==, 50);
  g_assert_cmpint (sluice_clock_now (clock), ==, 1000);
}

/* A frame in the log, tagged 0. */
static gboolean
log_frame_source_cb (gpointer user_data)
{
  Log *log = user_data;
  gint tag = 0;

  g_array_append_val (log->fired, tag);
  return G_SOURCE_CONTINUE;
}

/* Its slice over, the clock lets the frames run before it moves again:
 * with a slice of 1 µs (a turn of at most 10 µs), two hundred timers one
 * after another leave room for frames in between, many times. (A quiet
 * machine fires a dozen timers in a turn of 10 µs: fifty timers gave
 * only four gaps once.) */
static void
test_slice_lets_frames_run (void)
{
  g_autoptr(SluiceClock) clock = g_object_new (SLUICE_TYPE_CLOCK,
                                               "kind", SLUICE_CLOCK_VIRTUAL,
                                               "advance-priority", G_PRIORITY_HIGH_IDLE,
                                               "slice", (gint64) 1,
                                               NULL);
  Log log;
  guint frame_id;
  guint gaps = 0;
  gboolean done = FALSE;

  log_init (&log, clock);
  for (gint i = 1; i <= 200; i++)
    add_logged (clock, &log, i * 1000, i);
  sluice_clock_add_timeout (clock, 201000, set_flag, &done, NULL);
  frame_id = g_idle_add_full (REDRAW_PRIORITY, log_frame_source_cb, &log, NULL);

  run_until (&done);
  g_source_remove (frame_id);

  /* Frames between two timers: the clock waited for them. */
  for (guint i = 1; i < log.fired->len; i++)
    if (g_array_index (log.fired, gint, i) != 0 && g_array_index (log.fired, gint, i - 1) == 0)
      gaps++;
  g_test_message ("%u gaps for frames among 200 timers", gaps);
  g_assert_cmpuint (gaps, >=, 5);
  g_assert_cmpint (sluice_clock_now (clock), ==, 201000);
  log_clear (&log);
}

/* Without a slice the clock never waits: timers at one instant after
 * another, no frame in between (the default, as before). */
static void
test_no_slice_never_yields (void)
{
  g_autoptr(SluiceClock) clock = g_object_new (SLUICE_TYPE_CLOCK,
                                               "kind", SLUICE_CLOCK_VIRTUAL,
                                               "advance-priority", G_PRIORITY_HIGH_IDLE,
                                               NULL);
  Log log;
  guint frame_id;
  gboolean done = FALSE;

  log_init (&log, clock);
  for (gint i = 1; i <= 50; i++)
    add_logged (clock, &log, i * 1000, i);
  sluice_clock_add_timeout (clock, 51000, set_flag, &done, NULL);
  frame_id = g_idle_add_full (REDRAW_PRIORITY, log_frame_source_cb, &log, NULL);

  run_until (&done);
  g_source_remove (frame_id);

  g_assert_cmpuint (log.fired->len, ==, 50);
  for (guint i = 0; i < 50; i++)
    g_assert_cmpint (g_array_index (log.fired, gint, i), ==, (gint) i + 1);
  log_clear (&log);
}

/* ---- scaled ------------------------------------------------------------ */

static void
test_scaled_paused (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);
  gboolean done = FALSE;
  gint64 frozen;

  sluice_clock_set_paused (clock, TRUE);
  g_assert_true (sluice_clock_get_paused (clock));
  frozen = sluice_clock_now (clock);
  g_assert_cmpint (frozen, >=, 0);

  sluice_clock_add_timer (clock, frozen + 1, set_flag, &done, NULL);

  /* A paused clock has to be watched over some real time to show it does
   * not move; 5 ms is plenty against microsecond resolution. */
  g_usleep (5000);
  spin (20);
  g_assert_cmpint (sluice_clock_now (clock), ==, frozen);
  g_assert_false (done);

  /* Time resumes from where it stopped. */
  sluice_clock_set_paused (clock, FALSE);
  g_assert_cmpint (sluice_clock_now (clock), >=, frozen);
  g_assert_cmpint (sluice_clock_now (clock), <, frozen + SEC);
}

static void
test_scaled_step (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);
  gint64 before;
  Log log;

  log_init (&log, clock);

  g_assert_false (sluice_clock_step (clock));

  sluice_clock_set_paused (clock, TRUE);
  add_logged (clock, &log, 20 * SEC, 2);
  add_logged (clock, &log, 10 * SEC, 1);

  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpint (sluice_clock_now (clock), ==, 10 * SEC);
  g_assert_cmpuint (log.fired->len, ==, 1);
  g_assert_cmpint (g_array_index (log.fired, gint, 0), ==, 1);
  g_assert_cmpint (g_array_index (log.times, gint64, 0), ==, 10 * SEC);

  /* Unpaused, time continues from the step. */
  sluice_clock_set_paused (clock, FALSE);
  before = sluice_clock_now (clock);
  g_assert_cmpint (before, >=, 10 * SEC);
  g_assert_cmpint (before, <, 11 * SEC);

  g_assert_true (sluice_clock_step (clock));
  g_assert_cmpint (sluice_clock_now (clock), >=, 20 * SEC);
  g_assert_cmpint (sluice_clock_now (clock), <, 21 * SEC);
  g_assert_cmpuint (log.fired->len, ==, 2);
  g_assert_cmpint (g_array_index (log.times, gint64, 1), >=, 20 * SEC);

  g_assert_false (sluice_clock_step (clock));

  log_clear (&log);
}

static void
on_notify (GObject    *object,
           GParamSpec *pspec,
           gpointer    user_data)
{
  (void) object;
  (void) pspec;
  (*(guint *) user_data)++;
}

static void
test_scaled_set_speed (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);
  guint notified = 0;
  gint64 before, after, start_real;

  g_signal_connect (clock, "notify::speed", G_CALLBACK (on_notify), &notified);
  g_assert_cmpfloat (sluice_clock_get_speed (clock), ==, 1.0);

  /* Continuity needs time to pass, so a few short real waits. */
  sluice_clock_set_speed (clock, 1000.0);
  g_usleep (2000);
  before = sluice_clock_now (clock);
  /* At 1000x, 2 ms of real time is at least 2 s of clock time. */
  g_assert_cmpint (before, >=, 2 * SEC);

  /* Without re-anchoring, now() would fall back to about 2 ms (the real
   * time since creation at the new speed). */
  sluice_clock_set_speed (clock, 0.001);
  after = sluice_clock_now (clock);
  g_assert_cmpint (after, >=, before);
  g_assert_cmpuint (notified, ==, 2);

  /* And from there it runs at the new speed. */
  start_real = g_get_monotonic_time ();
  before = sluice_clock_now (clock);
  g_usleep (2000);
  after = sluice_clock_now (clock);
  g_assert_cmpint (after, >=, before);
  g_assert_cmpint (after - before, <=,
                   (g_get_monotonic_time () - start_real) / 500 + 2);

  /* Same speed again: no notify. */
  sluice_clock_set_speed (clock, 0.001);
  g_assert_cmpuint (notified, ==, 2);
}

static void
test_bad_arguments (void)
{
  if (!g_test_undefined ())
    return;

  g_test_trap_subprocess ("/clock/bad-arguments/subprocess/zero-speed", 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*speed > 0.0*");

  g_test_trap_subprocess ("/clock/bad-arguments/subprocess/nan-speed", 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*speed > 0.0*");

  g_test_trap_subprocess ("/clock/bad-arguments/subprocess/pause-real", 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*SLUICE_CLOCK_REAL*");

  g_test_trap_subprocess ("/clock/bad-arguments/subprocess/release", 0, 0);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*hold_count > 0*");
}

static void
subprocess_zero_speed (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);

  sluice_clock_set_speed (clock, 0.0);
}

static void
subprocess_nan_speed (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);
  volatile double zero = 0.0;

  sluice_clock_set_speed (clock, zero / zero);
}

static void
subprocess_pause_real (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_REAL);

  sluice_clock_set_paused (clock, TRUE);
}

static void
subprocess_release (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);

  sluice_clock_release (clock);
}

/* Real time is needed to see a scaled timer fire through the main loop;
 * at 1000x a 2 s timer takes about 2 ms. */
static void
test_scaled_fires (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);
  gboolean done = FALSE;
  gint64 start = g_get_monotonic_time ();

  sluice_clock_set_speed (clock, 1000.0);
  sluice_clock_add_timeout (clock, 2 * SEC, set_flag, &done, NULL);
  run_until (&done);

  g_assert_cmpint (sluice_clock_now (clock), >=, 2 * SEC);
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 2 * SEC / 1000 - 1);
}

/* ---- real -------------------------------------------------------------- */

/* A real clock by definition needs wall time: a 20 ms timer. */
static void
test_real_timer (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_REAL);
  gboolean done = FALSE;
  guint64 id;
  gint64 deadline;

  g_assert_cmpint (sluice_clock_now (clock), >=, 0);
  g_assert_cmpint (sluice_clock_now (clock), <, SEC);

  id = sluice_clock_add_timeout (clock, 20 * 1000, set_flag, &done, NULL);
  g_assert_cmpuint (id, ==, 1);
  deadline = sluice_clock_get_next_deadline (clock);
  g_assert_false (sluice_clock_step (clock));
  g_assert_false (done);

  run_until (&done);
  g_assert_cmpint (sluice_clock_now (clock), >=, deadline);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);
}

/* ---- properties -------------------------------------------------------- */

static void
test_properties (void)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_SCALED);
  guint kind = 99;
  double speed = 0;
  gboolean paused = TRUE;
  guint notified = 0;

  g_object_get (clock, "kind", &kind, "speed", &speed, "paused", &paused, NULL);
  g_assert_cmpuint (kind, ==, SLUICE_CLOCK_SCALED);
  g_assert_cmpfloat (speed, ==, 1.0);
  g_assert_false (paused);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);
  g_assert_cmpint (sluice_clock_get_next_deadline (clock), ==, G_MAXINT64);

  g_signal_connect (clock, "notify::paused", G_CALLBACK (on_notify), &notified);
  g_object_set (clock, "paused", TRUE, "speed", 4.0, NULL);
  g_assert_true (sluice_clock_get_paused (clock));
  g_assert_cmpfloat (sluice_clock_get_speed (clock), ==, 4.0);
  g_assert_cmpuint (notified, ==, 1);
  sluice_clock_set_paused (clock, TRUE);
  g_assert_cmpuint (notified, ==, 1);

  g_assert_cmpint (sluice_clock_get_kind (clock), ==, SLUICE_CLOCK_SCALED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/clock/heap-order", test_heap_order);
  g_test_add_func ("/clock/heap-remove-random", test_heap_remove_random);
  g_test_add_func ("/clock/equal-deadlines", test_equal_deadlines);
  g_test_add_func ("/clock/remove-pending", test_remove_pending);
  g_test_add_func ("/clock/remove-from-callback", test_remove_from_callback);
  g_test_add_func ("/clock/destroy-notify", test_destroy_notify);
  g_test_add_func ("/clock/unref-in-callback", test_unref_in_callback);
  g_test_add_func ("/clock/virtual/jump", test_virtual_jump);
  g_test_add_func ("/clock/virtual/waits-for-idle", test_virtual_waits_for_idle);
  g_test_add_func ("/clock/virtual/paused", test_virtual_paused);
  g_test_add_func ("/clock/virtual/step", test_virtual_step);
  g_test_add_func ("/clock/snapshot/added-during-dispatch", test_added_during_dispatch);
  g_test_add_func ("/clock/snapshot/added-in-past", test_added_in_past_during_dispatch);
  g_test_add_func ("/clock/stalled/once", test_stalled_once);
  g_test_add_func ("/clock/stalled/not-while-timer", test_stalled_not_while_timer);
  g_test_add_func ("/clock/stalled/not-held", test_stalled_not_held);
  g_test_add_func ("/clock/stalled/waits-for-idle", test_stalled_waits_for_idle);
  g_test_add_func ("/clock/stalled/rearm", test_stalled_rearm);
  g_test_add_func ("/clock/interactive/moves-time-while-frames-are-always-due",
                   test_interactive_moves_time_while_frames_are_always_due);
  g_test_add_func ("/clock/interactive/waits-for-the-pools-work", test_interactive_waits_for_the_pools_work);
  g_test_add_func ("/clock/slice/lets-frames-run", test_slice_lets_frames_run);
  g_test_add_func ("/clock/slice/none-never-yields", test_no_slice_never_yields);
  g_test_add_func ("/clock/scaled/paused", test_scaled_paused);
  g_test_add_func ("/clock/scaled/step", test_scaled_step);
  g_test_add_func ("/clock/scaled/set-speed", test_scaled_set_speed);
  g_test_add_func ("/clock/scaled/fires", test_scaled_fires);
  g_test_add_func ("/clock/real/timer", test_real_timer);
  g_test_add_func ("/clock/properties", test_properties);
  g_test_add_func ("/clock/bad-arguments", test_bad_arguments);
  g_test_add_func ("/clock/bad-arguments/subprocess/zero-speed", subprocess_zero_speed);
  g_test_add_func ("/clock/bad-arguments/subprocess/nan-speed", subprocess_nan_speed);
  g_test_add_func ("/clock/bad-arguments/subprocess/pause-real", subprocess_pause_real);
  g_test_add_func ("/clock/bad-arguments/subprocess/release", subprocess_release);

  return g_test_run ();
}
