/* sluice-linter-private.h: what the linter's conditions and hysteresis
 * (sluice-linter.c) and its reading of the events (sluice-linter-events.c)
 * share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-linter.h"
#include "sluice-lint-private.h"

G_BEGIN_DECLS

/* A timed or counted record in a window. */
typedef struct {
  gint64      time;
  gint64      item;
  gint        worker;
  gint64      value;       /* by window: timed out, lateness, segment end */
  const char *error_type;  /* interned */
} Mark;

/* A queue of marks, oldest first. */
typedef struct {
  GArray *marks;
  guint   head;
} Marks;

/* A handler call going on. */
typedef struct _Running Running;
struct _Running {
  gint64 item;
  guint  attempt;
  gint   worker;
  gint64 start;
  gint64 deadline;
  gint64 last_round;       /* when it was last asked to stop, or -1 */
  Running *next_spare;     /* in RunningTable.spare */
};

/* The attempts running, by item (sluice-linter-running.c). */
typedef struct {
  Running **slots;
  guint     mask;          /* slots - 1, a power of two less one */
  guint     len;
  Running  *spare;         /* records for the next attempts */
} RunningTable;

typedef struct {
  gint64 item;
  gint64 due;
} Backoff;

/* The successes of the last window: only how many and when the oldest
 * leave it count, so the successes of one instant share one entry (a
 * run's many successes cost 12 bytes an instant, not a mark each). */
typedef struct {
  gint64 time;
  guint  count;
} Tally;

typedef struct {
  GArray *tallies;         /* Tally, oldest first */
  guint   head;
  guint   total;           /* the successes they hold */
} Tallies;

typedef struct {
  gboolean    cond;
  gint64      since;       /* when cond last changed */
  SluiceLint *open;        /* while on (lints holds it) */
} LintState;

struct _SluiceLinter
{
  GObject     parent_instance;

  gboolean    started;
  gboolean    ended;
  guint64     n_events;    /* handed in: sluice_linter_get_n_events() */
  gint64      start_time;
  gint64      now;         /* evaluated up to here */
  guint       capacity;
  guint       workers;
  gint64      item_timeout;

  LintState   states[SLUICE_LINT_N_KINDS];
  GPtrArray  *lints;       /* SluiceLint*, by on time */

  Marks       retries;     /* the last window's */
  Tallies     successes;   /* the last window's */
  Marks       late;        /* the last window's late timers: one mark per
                            * item involved, value the lateness */
  Marks       attempts;    /* the last SLUICE_LINT_RECENT that ended */
  guint       n_timed_out; /* of them */
  Marks       failures;    /* the last SLUICE_LINT_RECENT */
  Marks       segments;    /* times saturated: [time, value), value -1
                            * while it lasts */
  gint64      closed_busy; /* the closed segments' length, summed */
  gboolean    saturated;
  RunningTable running;
  GHashTable *backoffs;    /* item → Backoff */
  GHashTable *shed;        /* items shed past their deadline */
  GArray     *ignoring;    /* Running: attempts past three rounds */
  guint       dirty;       /* 1 << kind: the conditions whose windows
                            * changed since they were last evaluated */
  gint64      next;        /* next_change(), while !next_stale: nothing
                            * it reads changed since it was computed, and
                            * what it computes does not move with now
                            * (see next_change()) */
  gboolean    next_stale;
};

#define LINT_NEVER G_MAXINT64


#define LINT_DIRTY(kind) (1u << (kind))

/* “Most of the last window”: three quarters of it, in whole µs. */
#define SATURATED_BUSY_US ((SLUICE_LINT_WINDOW_US * SLUICE_LINT_SATURATED_SHARE + 99) / 100)

/* ---- marks ------------------------------------------------------------- */

static inline void
marks_init (Marks *marks)
{
  marks->marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  marks->head = 0;
}

static inline void
marks_clear (Marks *marks)
{
  g_clear_pointer (&marks->marks, g_array_unref);
}

static inline void
marks_reset (Marks *marks)
{
  g_array_set_size (marks->marks, 0);
  marks->head = 0;
}

static inline guint
marks_len (const Marks *marks)
{
  return marks->marks->len - marks->head;
}

static inline Mark *
marks_get (const Marks *marks,
           guint        index)
{
  return &g_array_index (marks->marks, Mark, marks->head + index);
}

static inline Mark *
marks_last (const Marks *marks)
{
  return marks_len (marks) > 0 ? marks_get (marks, marks_len (marks) - 1) : NULL;
}

static inline void
marks_push (Marks      *marks,
            const Mark *mark)
{
  g_array_append_vals (marks->marks, mark, 1);
}

/* The array is compacted once its dead front is the larger part. */
static inline void
marks_pop_front (Marks *marks)
{
  marks->head++;
  if (marks->head >= 64 && marks->head * 2 >= marks->marks->len)
    {
      g_array_remove_range (marks->marks, 0, marks->head);
      marks->head = 0;
    }
}

static inline void
marks_pop_back (Marks *marks)
{
  g_array_set_size (marks->marks, marks->marks->len - 1);
}

/* Counted windows keep their last SLUICE_LINT_RECENT marks. */
static inline void
marks_push_recent (Marks      *marks,
                   const Mark *mark)
{
  marks_push (marks, mark);
  if (marks_len (marks) > SLUICE_LINT_RECENT)
    marks_pop_front (marks);
}

/* Timed windows drop what left the last window, (now - window, now].
 * Returns: whether they dropped any */
static inline gboolean
marks_expire (Marks  *marks,
              gint64  now)
{
  gboolean dropped = FALSE;

  while (marks_len (marks) > 0 && marks_get (marks, 0)->time + SLUICE_LINT_WINDOW_US <= now)
    {
      marks_pop_front (marks);
      dropped = TRUE;
    }
  return dropped;
}

/* When the oldest mark leaves the window. */
static inline gint64
marks_next_expiry (const Marks *marks)
{
  return marks_len (marks) > 0 ? marks_get (marks, 0)->time + SLUICE_LINT_WINDOW_US : LINT_NEVER;
}

/* ---- tallies ----------------------------------------------------------- */

static inline void
tallies_init (Tallies *tallies)
{
  tallies->tallies = g_array_new (FALSE, FALSE, sizeof (Tally));
  tallies->head = 0;
  tallies->total = 0;
}

static inline void
tallies_clear (Tallies *tallies)
{
  g_clear_pointer (&tallies->tallies, g_array_unref);
}

static inline void
tallies_reset (Tallies *tallies)
{
  g_array_set_size (tallies->tallies, 0);
  tallies->head = 0;
  tallies->total = 0;
}

/* Returns: whether it was empty (its next expiry changed) */
static inline gboolean
tallies_push (Tallies *tallies,
              gint64   time)
{
  GArray *array = tallies->tallies;
  gboolean was_empty = tallies->total == 0;

  if (!was_empty && g_array_index (array, Tally, array->len - 1).time == time)
    g_array_index (array, Tally, array->len - 1).count++;
  else
    {
      Tally tally = { .time = time, .count = 1 };

      g_array_append_val (array, tally);
    }
  tallies->total++;
  return was_empty;
}

/* As marks_expire(): drops what left the last window, (now - window, now].
 * Returns: whether it dropped any */
static inline gboolean
tallies_expire (Tallies *tallies,
                gint64   now)
{
  GArray *array = tallies->tallies;
  gboolean dropped = FALSE;

  while (tallies->head < array->len &&
         g_array_index (array, Tally, tallies->head).time + SLUICE_LINT_WINDOW_US <= now)
    {
      tallies->total -= g_array_index (array, Tally, tallies->head).count;
      tallies->head++;
      dropped = TRUE;
    }
  if (tallies->head == array->len)
    {
      g_array_set_size (array, 0);
      tallies->head = 0;
    }
  else if (tallies->head >= 64 && tallies->head * 2 >= array->len)
    {
      g_array_remove_range (array, 0, tallies->head);
      tallies->head = 0;
    }
  return dropped;
}

static inline gint64
tallies_next_expiry (const Tallies *tallies)
{
  return tallies->total > 0 ? g_array_index (tallies->tallies, Tally, tallies->head).time + SLUICE_LINT_WINDOW_US
                            : LINT_NEVER;
}

/* sluice-linter-running.c */
void     _sluice_running_table_init       (RunningTable       *table);
void     _sluice_running_table_clear      (RunningTable       *table);
void     _sluice_running_table_remove_all (RunningTable       *table);
Running *_sluice_running_table_take       (RunningTable       *table);
void     _sluice_running_table_give       (RunningTable       *table,
                                           Running            *running);
Running *_sluice_running_table_lookup     (const RunningTable *table,
                                           gint64              item);
void     _sluice_running_table_insert     (RunningTable       *table,
                                           Running            *running);
Running *_sluice_running_table_steal      (RunningTable       *table,
                                           gint64              item);

/* sluice-linter-events.c */
void _sluice_linter_start (SluiceLinter      *self,
                           const SluiceEvent *event);
void _sluice_linter_apply (SluiceLinter      *self,
                           const SluiceEvent *event,
                           gint64             time);

G_END_DECLS
