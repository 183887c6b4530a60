/* sluice-linter.c: lints computed live from a run's event stream, with
 * hysteresis (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-linter-private.h"

#include <string.h>

/**
 * SluiceLinter:
 *
 * Fed a run's events one at a time, in time order
 * (sluice_linter_add_event()), it keeps for each #SluiceLintKind the
 * intervals of the run's clock during which that lint was on. Each kind
 * has a condition, computed from what the events carry and nothing else
 * (docs/lints.md):
 *
 * - `timeout-below-typical`: more than half of the last
 *   %SLUICE_LINT_RECENT attempts that ended timed out. The spec's words,
 *   “item-timeout below the p50 of successful attempts”, cannot be seen:
 *   an attempt that would have taken longer than the timeout never
 *   succeeds, so every success is shorter than it. What can be seen is
 *   what the words mean: the median attempt reaches item-timeout, that
 *   is, most attempts end by timing out.
 * - `retry-storm`: in the last %SLUICE_LINT_WINDOW_US, more retries than
 *   attempts that succeeded, and at least %SLUICE_LINT_MIN_RETRIES.
 * - `ignoring-cancel`: an attempt had its %SLUICE_EVENT_IGNORING_CANCEL
 *   (it ignored three rounds) and has not ended.
 * - `blocked-loop`: a timer fired more than %SLUICE_LINT_LATE_US after it
 *   was due within the last window: a round-1 cancel request (or a
 *   timed-out end that had none) after its attempt's deadline, a later
 *   round (or the ignoring-cancel) more than item-timeout after the round
 *   before, a retry after its backoff's end.
 * - `saturated`: the queue full and every worker busy (the events' live
 *   counts against the run-start's capacity and lead bound) for
 *   %SLUICE_LINT_SATURATED_SHARE percent of the last window or more.
 * - `dominant-error`: one error type behind more than half of the last
 *   %SLUICE_LINT_RECENT failures (failed or timed-out attempts, items shed
 *   past their deadline).
 *
 * Hysteresis: a lint turns on once its condition has held for
 * %SLUICE_LINT_ON_AFTER_US, and off once it has been false for
 * %SLUICE_LINT_OFF_AFTER_US. `ignoring-cancel` and `blocked-loop` turn on
 * at once: their evidence took three rounds, or a loop held for over
 * 50 ms, already. The conditions are evaluated at every event and at
 * every time a window changes without one (an event leaving it, the time
 * saturated crossing its share, a hysteresis window ending), in µs, so
 * the intervals depend on the events alone, not on when they were read.
 * After the run-end event nothing changes: a lint still on then has no
 * off time.
 */

G_DEFINE_FINAL_TYPE (SluiceLinter, sluice_linter, G_TYPE_OBJECT)

/* Each lint's on window: none for those whose evidence took its time
 * already (three rounds of cancellation, a loop held over 50 ms). */
static const gint64 on_after[SLUICE_LINT_N_KINDS] = {
  [SLUICE_LINT_TIMEOUT_BELOW_TYPICAL] = SLUICE_LINT_ON_AFTER_US,
  [SLUICE_LINT_RETRY_STORM] = SLUICE_LINT_ON_AFTER_US,
  [SLUICE_LINT_IGNORING_CANCEL] = 0,
  [SLUICE_LINT_BLOCKED_LOOP] = 0,
  [SLUICE_LINT_SATURATED] = SLUICE_LINT_ON_AFTER_US,
  [SLUICE_LINT_DOMINANT_ERROR] = SLUICE_LINT_ON_AFTER_US,
};

/* ---- saturation -------------------------------------------------------- */

static void
expire_segments (SluiceLinter *self,
                 gint64        now)
{
  while (marks_len (&self->segments) > 0)
    {
      const Mark *segment = marks_get (&self->segments, 0);

      if (segment->value < 0 || segment->value + SLUICE_LINT_WINDOW_US > now)
        break;
      self->closed_busy -= segment->value - segment->time;
      marks_pop_front (&self->segments);
    }
}

/* How long the pool was saturated in the last window, (now - window, now].
 * Once the segments that ended before it are dropped, only the oldest
 * one can start before the window: the sum of the others is kept, so
 * that this costs the same whatever the number of segments. */
static gint64
busy_in_window (SluiceLinter *self,
                gint64        now)
{
  gint64 from = now - SLUICE_LINT_WINDOW_US, busy = self->closed_busy;
  const Mark *first, *last;

  expire_segments (self, now);
  if (marks_len (&self->segments) == 0)
    return 0;

  first = marks_get (&self->segments, 0);
  last = marks_last (&self->segments);
  if (last->value < 0)
    busy += now - last->time;
  if (first->time < from)
    busy -= MIN (from, first->value >= 0 ? first->value : now) - first->time;
  return busy;
}

static gboolean
saturated_condition (SluiceLinter *self,
                     gint64        now)
{
  return busy_in_window (self, now) >= SATURATED_BUSY_US;
}

/* The next time the saturated condition may change with no event: until
 * the next event the time saturated in the window grows or shrinks
 * linearly (the state now against the state one window ago, at the
 * window's trailing edge, which only the oldest segment can straddle), so
 * it changes direction when that segment's edge leaves the window, and
 * it crosses three quarters of the window at a time computed exactly, in
 * µs. */
static gint64
saturated_next_change (SluiceLinter *self)
{
  gint64 now = self->now, trail = now - SLUICE_LINT_WINDOW_US;
  gint64 edge = LINT_NEVER, busy = busy_in_window (self, now), slope;
  gboolean saturated_then = FALSE;

  if (marks_len (&self->segments) > 0)
    {
      const Mark *first = marks_get (&self->segments, 0);

      if (first->time > trail)
        edge = first->time + SLUICE_LINT_WINDOW_US;
      else if (first->value >= 0)
        edge = first->value + SLUICE_LINT_WINDOW_US;
      saturated_then = first->time <= trail && (first->value < 0 || first->value > trail);
    }

  slope = (gint64) self->saturated - (gint64) saturated_then;
  if (slope > 0 && busy < SATURATED_BUSY_US)
    return MIN (edge, now + SATURATED_BUSY_US - busy);
  if (slope < 0 && busy >= SATURATED_BUSY_US)
    return MIN (edge, now + busy - SATURATED_BUSY_US + 1);
  return edge;
}

/* ---- what each lint names ---------------------------------------------- */

/* The error type behind the most recent failures (the first to reach
 * that count on a tie), and how many. */
static const char *
dominant_type (SluiceLinter *self,
               guint        *count)
{
  const char *best = NULL;
  guint best_count = 0;

  for (guint i = 0; i < marks_len (&self->failures); i++)
    {
      const char *type = marks_get (&self->failures, i)->error_type;
      guint n = 0;

      for (guint j = 0; j < marks_len (&self->failures); j++)
        n += marks_get (&self->failures, j)->error_type == type;
      if (n > best_count)
        {
          best = type;
          best_count = n;
        }
    }
  *count = best_count;
  return best;
}

static void
name_marks (SluiceLint  *lint,
            const Marks *marks,
            const char  *error_type)
{
  for (guint i = 0; i < marks_len (marks); i++)
    {
      const Mark *mark = marks_get (marks, i);

      if (error_type != NULL && mark->error_type != error_type)
        continue;
      _sluice_lint_add_item (lint, mark->item);
      _sluice_lint_add_worker (lint, mark->worker);
    }
}

/* Adds what the windows hold now to @lint: the items and workers
 * involved, and its figures when they are worse than those it has. */
static void
involve (SluiceLinter *self,
         SluiceLint   *lint,
         gint64        now)
{
  switch (lint->kind)
    {
    case SLUICE_LINT_TIMEOUT_BELOW_TYPICAL:
      {
        guint timed_out = self->n_timed_out;

        for (guint i = 0; i < marks_len (&self->attempts); i++)
          if (marks_get (&self->attempts, i)->value != 0)
            {
              _sluice_lint_add_item (lint, marks_get (&self->attempts, i)->item);
              _sluice_lint_add_worker (lint, marks_get (&self->attempts, i)->worker);
            }
        if (timed_out > lint->count)
          {
            lint->count = timed_out;
            lint->total = marks_len (&self->attempts);
          }
        lint->span = self->item_timeout;
      }
      break;

    case SLUICE_LINT_RETRY_STORM:
      /* The retries of a long storm are many: those in the window when it
       * turns on, then each one as it comes (see_retry()). */
      if (lint->count == 0)
        name_marks (lint, &self->retries, NULL);
      if (marks_len (&self->retries) > lint->count)
        {
          lint->count = marks_len (&self->retries);
          lint->total = self->successes.total;
        }
      lint->span = SLUICE_LINT_WINDOW_US;
      break;

    case SLUICE_LINT_IGNORING_CANCEL:
      for (guint i = 0; i < self->ignoring->len; i++)
        {
          _sluice_lint_add_item (lint, g_array_index (self->ignoring, Running, i).item);
          _sluice_lint_add_worker (lint, g_array_index (self->ignoring, Running, i).worker);
        }
      lint->span = self->item_timeout;
      break;

    case SLUICE_LINT_BLOCKED_LOOP:
      name_marks (lint, &self->late, NULL);
      for (guint i = 0; i < marks_len (&self->late); i++)
        lint->span = MAX (lint->span, marks_get (&self->late, i)->value);
      break;

    case SLUICE_LINT_SATURATED:
      for (guint w = lint->workers->len; w < self->workers; w++)
        _sluice_lint_add_worker (lint, (gint) w);
      lint->count = self->workers;
      lint->total = self->capacity;
      lint->busy = MAX (lint->busy, busy_in_window (self, now));
      lint->span = SLUICE_LINT_WINDOW_US;
      break;

    case SLUICE_LINT_DOMINANT_ERROR:
      {
        guint count;
        const char *type = dominant_type (self, &count);

        /* It stays the lint of the type that turned it on. */
        if (lint->error_type == NULL)
          lint->error_type = type;
        if (type != lint->error_type)
          break;
        name_marks (lint, &self->failures, type);
        if (count > lint->count)
          {
            lint->count = count;
            lint->total = marks_len (&self->failures);
          }
      }
      break;

    case SLUICE_LINT_N_KINDS:
    default:
      g_assert_not_reached ();
    }
}

/* ---- the conditions and their hysteresis ------------------------------- */

static gboolean
condition (SluiceLinter   *self,
           SluiceLintKind  kind,
           gint64          now)
{
  guint n;

  switch (kind)
    {
    case SLUICE_LINT_TIMEOUT_BELOW_TYPICAL:
      n = marks_len (&self->attempts);
      return n >= SLUICE_LINT_MIN_RECENT && self->n_timed_out * 2 > n;
    case SLUICE_LINT_RETRY_STORM:
      /* The successes leave their window unseen while there are too few
       * retries for a storm (next_change()). */
      tallies_expire (&self->successes, now);
      n = marks_len (&self->retries);
      return n >= SLUICE_LINT_MIN_RETRIES && n > self->successes.total;
    case SLUICE_LINT_IGNORING_CANCEL:
      return self->ignoring->len > 0;
    case SLUICE_LINT_BLOCKED_LOOP:
      return marks_len (&self->late) > 0;
    case SLUICE_LINT_SATURATED:
      return saturated_condition (self, now);
    case SLUICE_LINT_DOMINANT_ERROR:
      {
        guint count;

        n = marks_len (&self->failures);
        return n >= SLUICE_LINT_MIN_RECENT && dominant_type (self, &count) != NULL && count * 2 > n;
      }
    case SLUICE_LINT_N_KINDS:
    default:
      g_assert_not_reached ();
    }
}

/* When the lint of @state turns on or off if nothing changes, or LINT_NEVER. */
static gint64
state_deadline (const LintState *state,
                SluiceLintKind   kind)
{
  if (state->cond && state->open == NULL)
    return state->since + on_after[kind];
  if (!state->cond && state->open != NULL)
    return state->since + SLUICE_LINT_OFF_AFTER_US;
  return LINT_NEVER;
}

/* Turns on or off the lints whose window ended by @now, at the time it
 * ended. */
static void
fire_due (SluiceLinter *self,
          gint64        now)
{
  for (SluiceLintKind k = 0; k < SLUICE_LINT_N_KINDS; k++)
    {
      LintState *state = &self->states[k];
      gint64 due = state_deadline (state, k);

      if (due > now)
        continue;
      if (state->open == NULL)
        {
          state->open = _sluice_lint_new (k, due);
          involve (self, state->open, now);
          g_ptr_array_add (self->lints, state->open);
        }
      else
        {
          state->open->off = due;
          state->open = NULL;
        }
    }
}

static void
evaluate (SluiceLinter *self,
          gint64        now)
{
  for (SluiceLintKind k = 0; k < SLUICE_LINT_N_KINDS; k++)
    {
      LintState *state = &self->states[k];
      gboolean cond;

      /* A condition changes only when its window does. */
      if ((self->dirty & LINT_DIRTY (k)) == 0)
        continue;
      cond = condition (self, k, now);

      if (cond != state->cond)
        {
          state->cond = cond;
          state->since = now;
        }
      if (cond && state->open != NULL)
        involve (self, state->open, now);
    }
  self->dirty = 0;
}

/* The timed windows at @now; the time saturated changes with time
 * itself, so it is looked at again at every change. */
static void
expire (SluiceLinter *self,
        gint64        now)
{
  if (marks_expire (&self->retries, now))
    self->dirty |= LINT_DIRTY (SLUICE_LINT_RETRY_STORM);
  if (tallies_expire (&self->successes, now))
    self->dirty |= LINT_DIRTY (SLUICE_LINT_RETRY_STORM);
  if (marks_expire (&self->late, now))
    self->dirty |= LINT_DIRTY (SLUICE_LINT_BLOCKED_LOOP);
  expire_segments (self, now);
  self->dirty |= LINT_DIRTY (SLUICE_LINT_SATURATED);
}

/* The next time something changes with no event. Until then it is the
 * same whenever it is asked: the windows' expiries and the lints'
 * deadlines are fixed times, and the time saturated crosses its share at
 * a fixed time too (see saturated_next_change()), so advance() keeps it
 * until an event or a change touches what it reads (next_stale). */
static gint64
next_change (SluiceLinter *self)
{
  gint64 next = saturated_next_change (self);

  next = MIN (next, marks_next_expiry (&self->retries));
  /* Successes leaving the window change nothing while the retries are
   * too few for a storm: they are dropped when they are counted (see
   * condition()), or as others come (see_attempt_end()). */
  if (marks_len (&self->retries) >= SLUICE_LINT_MIN_RETRIES)
    next = MIN (next, tallies_next_expiry (&self->successes));
  next = MIN (next, marks_next_expiry (&self->late));
  for (SluiceLintKind k = 0; k < SLUICE_LINT_N_KINDS; k++)
    next = MIN (next, state_deadline (&self->states[k], k));
  return next;
}

static gint64
cached_next_change (SluiceLinter *self)
{
  if (self->next_stale)
    {
      self->next = next_change (self);
      self->next_stale = FALSE;
    }
  return self->next;
}

/* Moves the evaluation to @time, through every change before it. */
static void
advance (SluiceLinter *self,
         gint64        time)
{
  gint64 next;

  while ((next = cached_next_change (self)) <= time)
    {
      /* Each change is after now: fire_due() leaves no deadline at or
       * before it, and the windows no mark that has left them. */
      if (G_UNLIKELY (next <= self->now))
        {
          g_critical ("%s: a change at %" G_GINT64_FORMAT " µs is not after %" G_GINT64_FORMAT " µs",
                      G_STRFUNC, next, self->now);
          break;
        }
      self->now = next;
      self->next_stale = TRUE;
      fire_due (self, next);
      expire (self, next);
      evaluate (self, next);
      fire_due (self, next);
    }
  self->now = MAX (self->now, time);
}

/**
 * sluice_linter_add_event:
 * @self: a #SluiceLinter
 * @event: the run's next event, in time order
 *
 * Moves the lints to @event's time and takes what it says. Events before
 * the run-start and after the run-end change nothing; an event whose time
 * is before the last one's counts as at the last one's.
 */
void
sluice_linter_add_event (SluiceLinter      *self,
                         const SluiceEvent *event)
{
  gint64 time;

  g_return_if_fail (SLUICE_IS_LINTER (self));
  g_return_if_fail (event != NULL);

  self->n_events++;
  if (self->ended)
    return;
  if (!self->started)
    {
      if (event->kind != SLUICE_EVENT_RUN_START)
        return;
      _sluice_linter_start (self, event);
    }

  time = MAX (event->time, self->now);
  advance (self, time);
  _sluice_linter_apply (self, event, time);
  /* Most events change no window (a pull, a result, a success while
   * there is no retry storm): no condition to evaluate then, and no
   * lint due, as advance() turned on or off every lint due by @time. */
  if (self->dirty != 0)
    {
      self->next_stale = TRUE;
      evaluate (self, time);
      fire_due (self, time);
    }
  if (event->kind == SLUICE_EVENT_RUN_END)
    self->ended = TRUE;
}

/**
 * sluice_linter_event_func:
 * @event: an event
 * @user_data: a #SluiceLinter
 *
 * A #SluiceEventFunc that lints every event.
 */
void
sluice_linter_event_func (const SluiceEvent *event,
                          gpointer           user_data)
{
  sluice_linter_add_event (SLUICE_LINTER (user_data), event);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_linter_finalize (GObject *object)
{
  SluiceLinter *self = SLUICE_LINTER (object);

  g_clear_pointer (&self->lints, g_ptr_array_unref);
  marks_clear (&self->retries);
  tallies_clear (&self->successes);
  marks_clear (&self->late);
  marks_clear (&self->attempts);
  marks_clear (&self->failures);
  marks_clear (&self->segments);
  _sluice_running_table_clear (&self->running);
  g_clear_pointer (&self->backoffs, g_hash_table_unref);
  g_clear_pointer (&self->shed, g_hash_table_unref);
  g_clear_pointer (&self->ignoring, g_array_unref);

  G_OBJECT_CLASS (sluice_linter_parent_class)->finalize (object);
}

static void
sluice_linter_class_init (SluiceLinterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_linter_finalize;
}

static void
sluice_linter_init (SluiceLinter *self)
{
  self->lints = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_lint_unref);
  marks_init (&self->retries);
  tallies_init (&self->successes);
  marks_init (&self->late);
  marks_init (&self->attempts);
  marks_init (&self->failures);
  marks_init (&self->segments);
  _sluice_running_table_init (&self->running);
  self->backoffs = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  self->shed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->ignoring = g_array_new (FALSE, FALSE, sizeof (Running));
  self->start_time = -1;
  self->next_stale = TRUE;
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_linter_new:
 *
 * Returns: (transfer full): a linter that has seen no event
 */
SluiceLinter *
sluice_linter_new (void)
{
  return g_object_new (SLUICE_TYPE_LINTER, NULL);
}

/**
 * sluice_linter_reset:
 * @self: a #SluiceLinter
 *
 * Forgets every event and lint, for another run.
 */
void
sluice_linter_reset (SluiceLinter *self)
{
  g_return_if_fail (SLUICE_IS_LINTER (self));

  self->started = FALSE;
  self->ended = FALSE;
  self->start_time = -1;
  self->now = 0;
  self->capacity = 0;
  self->workers = 0;
  self->item_timeout = -1;
  memset (self->states, 0, sizeof self->states);
  g_ptr_array_set_size (self->lints, 0);
  marks_reset (&self->retries);
  tallies_reset (&self->successes);
  marks_reset (&self->late);
  marks_reset (&self->attempts);
  self->n_timed_out = 0;
  marks_reset (&self->failures);
  marks_reset (&self->segments);
  self->closed_busy = 0;
  self->saturated = FALSE;
  _sluice_running_table_remove_all (&self->running);
  g_hash_table_remove_all (self->backoffs);
  g_hash_table_remove_all (self->shed);
  g_array_set_size (self->ignoring, 0);
  self->dirty = 0;
  self->next_stale = TRUE;
}

/**
 * sluice_linter_get_ended:
 * @self: a #SluiceLinter
 *
 * Returns: whether it has seen the run-end event: its lints are final
 */
gboolean
sluice_linter_get_ended (SluiceLinter *self)
{
  g_return_val_if_fail (SLUICE_IS_LINTER (self), FALSE);
  return self->ended;
}

/**
 * sluice_linter_get_start_time:
 * @self: a #SluiceLinter
 *
 * Returns: the run-start's time, in µs of the run's clock, or -1 before it
 */
gint64
sluice_linter_get_start_time (SluiceLinter *self)
{
  g_return_val_if_fail (SLUICE_IS_LINTER (self), -1);
  return self->start_time;
}

/**
 * sluice_linter_get_n_events:
 * @self: a #SluiceLinter
 *
 * Returns: how many events were handed to it (sluice_linter_add_event()),
 *   those it ignored included: a run's events are linted once, so this
 *   is the run's number of events, whoever reads them
 */
guint64
sluice_linter_get_n_events (SluiceLinter *self)
{
  g_return_val_if_fail (SLUICE_IS_LINTER (self), 0);
  return self->n_events;
}

/**
 * sluice_linter_get_time:
 * @self: a #SluiceLinter
 *
 * Returns: the time the lints are evaluated up to (the newest event's), or
 *   -1 before the run-start
 */
gint64
sluice_linter_get_time (SluiceLinter *self)
{
  g_return_val_if_fail (SLUICE_IS_LINTER (self), -1);
  return self->started ? self->now : -1;
}

/**
 * sluice_linter_get_lints:
 * @self: a #SluiceLinter
 *
 * Returns: (transfer none) (element-type SluiceLint): every lint that
 *   turned on so far, in the order they turned on; those still on have no
 *   off time
 */
GPtrArray *
sluice_linter_get_lints (SluiceLinter *self)
{
  g_return_val_if_fail (SLUICE_IS_LINTER (self), NULL);
  return self->lints;
}

/**
 * sluice_linter_dup_lints_at:
 * @self: a #SluiceLinter
 * @time: a time of the run's clock, in µs (a scrubber's playhead)
 *
 * Returns: (transfer full) (element-type SluiceLint): the lints on at
 *   @time, in the order they turned on
 */
GPtrArray *
sluice_linter_dup_lints_at (SluiceLinter *self,
                            gint64        time)
{
  GPtrArray *lints;

  g_return_val_if_fail (SLUICE_IS_LINTER (self), NULL);

  lints = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_lint_unref);
  for (guint i = 0; i < self->lints->len; i++)
    if (sluice_lint_is_on_at (g_ptr_array_index (self->lints, i), time))
      g_ptr_array_add (lints, sluice_lint_ref (g_ptr_array_index (self->lints, i)));
  return lints;
}

/**
 * sluice_linter_count_at:
 * @self: a #SluiceLinter
 * @time: a time of the run's clock, in µs
 *
 * Returns: how many lints are on at @time
 */
guint
sluice_linter_count_at (SluiceLinter *self,
                        gint64        time)
{
  guint n = 0;

  g_return_val_if_fail (SLUICE_IS_LINTER (self), 0);

  for (guint i = 0; i < self->lints->len; i++)
    n += sluice_lint_is_on_at (g_ptr_array_index (self->lints, i), time);
  return n;
}

/**
 * sluice_linter_count_by:
 * @self: a #SluiceLinter
 * @time: a time of the run's clock, in µs
 *
 * Returns: how many lints had turned on by @time, on or off since
 */
guint
sluice_linter_count_by (SluiceLinter *self,
                        gint64        time)
{
  guint n = 0;

  g_return_val_if_fail (SLUICE_IS_LINTER (self), 0);

  for (guint i = 0; i < self->lints->len; i++)
    n += sluice_lint_get_on (g_ptr_array_index (self->lints, i)) <= time;
  return n;
}

/**
 * sluice_linter_dup_kinds:
 * @self: a #SluiceLinter
 *
 * Returns: (transfer full): the kinds of lint that turned on, each once, in
 *   the order of #SluiceLintKind, separated by “, ” (`retry-storm,
 *   dominant-error`); "" when none did
 */
char *
sluice_linter_dup_kinds (SluiceLinter *self)
{
  g_autoptr(GString) kinds = g_string_new (NULL);

  g_return_val_if_fail (SLUICE_IS_LINTER (self), NULL);

  for (SluiceLintKind k = 0; k < SLUICE_LINT_N_KINDS; k++)
    for (guint i = 0; i < self->lints->len; i++)
      if (sluice_lint_get_kind (g_ptr_array_index (self->lints, i)) == k)
        {
          g_string_append_printf (kinds, "%s%s", kinds->len > 0 ? ", " : "", sluice_lint_kind_to_string (k));
          break;
        }
  return g_string_free (g_steal_pointer (&kinds), FALSE);
}
