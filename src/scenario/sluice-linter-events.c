/* sluice-linter-events.c: what each event of the run says to the linter's
 * windows (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-linter-private.h"

/* Only the events' fields are read (docs/lints.md): the timers whose due
 * time they carry (an attempt's deadline, a cancel round, a backoff), the
 * outcomes and error types of attempts, and the live counts. */

/* The queue full and every worker busy, from the event's live counts. */
static void
see_counts (SluiceLinter      *self,
            const SluiceEvent *event,
            gint64             time)
{
  gboolean saturated = self->workers > 0 && event->queued >= self->capacity && event->in_flight >= self->workers;
  Mark *last;

  if (saturated == self->saturated)
    return;
  self->saturated = saturated;
  self->dirty |= LINT_DIRTY (SLUICE_LINT_SATURATED);
  if (saturated)
    {
      Mark segment = { .time = time, .item = -1, .worker = -1, .value = -1 };

      marks_push (&self->segments, &segment);
      return;
    }

  /* A state that lasted no time (the events of one instant) is dropped. */
  last = marks_last (&self->segments);
  if (last->time == time)
    marks_pop_back (&self->segments);
  else
    {
      last->value = time;
      self->closed_busy += time - last->time;
    }
}

/* An attempt that ended, into the last SLUICE_LINT_RECENT, counting those
 * that timed out as they come and go. */
static void
push_attempt (SluiceLinter *self,
              const Mark   *mark)
{
  if (marks_len (&self->attempts) == SLUICE_LINT_RECENT)
    {
      self->n_timed_out -= marks_get (&self->attempts, 0)->value != 0;
      marks_pop_front (&self->attempts);
    }
  marks_push (&self->attempts, mark);
  self->n_timed_out += mark->value != 0;
  /* An attempt that did not time out cannot make the condition true once
   * there are enough to judge (fewer of them time out, of as many or
   * more): while it is false, nothing to evaluate. The one that makes
   * enough can. */
  if (mark->value != 0 || self->states[SLUICE_LINT_TIMEOUT_BELOW_TYPICAL].cond ||
      marks_len (&self->attempts) <= SLUICE_LINT_MIN_RECENT)
    self->dirty |= LINT_DIRTY (SLUICE_LINT_TIMEOUT_BELOW_TYPICAL);
}

void
_sluice_linter_start (SluiceLinter      *self,
                      const SluiceEvent *event)
{
  self->started = TRUE;
  self->start_time = event->time;
  self->now = event->time;
  self->capacity = event->queue_capacity;
  /* The lead bound is queue-size + workers + 1 (see SluiceEvent). */
  self->workers = event->lead_bound > event->queue_capacity ? event->lead_bound - event->queue_capacity - 1 : 0;
  self->item_timeout = event->item_timeout;
  for (SluiceLintKind k = 0; k < SLUICE_LINT_N_KINDS; k++)
    self->states[k].since = event->time;
}

/* A timer of @item that was due at @due fired at @time: when it is late,
 * the attempts running since before it was due are named with it. */
static void
see_timer (SluiceLinter *self,
           gint64        item,
           gint          worker,
           gint64        due,
           gint64        time)
{
  Mark mark = { .time = time, .item = item, .worker = worker, .value = time - due };

  if (due < 0 || time - due <= SLUICE_LINT_LATE_US)
    return;

  marks_push (&self->late, &mark);
  self->dirty |= LINT_DIRTY (SLUICE_LINT_BLOCKED_LOOP);
  for (guint i = 0; i <= self->running.mask; i++)
    {
      const Running *running = self->running.slots[i];

      if (running == NULL || running->start > due || running->item == item)
        continue;
      mark.item = running->item;
      mark.worker = running->worker;
      marks_push (&self->late, &mark);
    }
}

static Running *
lookup_running (SluiceLinter      *self,
                const SluiceEvent *event)
{
  Running *running = _sluice_running_table_lookup (&self->running, event->item);

  return running != NULL && running->attempt == event->attempt ? running : NULL;
}

/* Takes @event's attempt out of running, for its end: NULL when it is not
 * there (another attempt of its item is, or none). */
static Running *
steal_running (SluiceLinter      *self,
               const SluiceEvent *event)
{
  Running *running = _sluice_running_table_steal (&self->running, event->item);

  if (running != NULL && running->attempt != event->attempt)
    {
      _sluice_running_table_insert (&self->running, running);
      return NULL;
    }
  return running;
}

static void
see_attempt_start (SluiceLinter      *self,
                   const SluiceEvent *event,
                   gint64             time)
{
  /* An attempt whose end was never seen gives its record to this one. */
  Running *running = _sluice_running_table_lookup (&self->running, event->item);
  gboolean known = running != NULL;

  if (!known)
    running = _sluice_running_table_take (&self->running);
  running->item = event->item;
  running->attempt = event->attempt;
  running->worker = event->worker;
  running->start = time;
  running->deadline = event->deadline;
  running->last_round = -1;
  if (!known)
    _sluice_running_table_insert (&self->running, running);
}

/* A round-1 request is due at the attempt's deadline, a later one (and
 * the ignoring-cancel after round 3) item-timeout after the one before. */
static void
see_cancel_request (SluiceLinter      *self,
                    const SluiceEvent *event,
                    gint64             time)
{
  Running *running = lookup_running (self, event);
  gint64 due;

  if (running == NULL)
    {
      /* A recording cut before the attempt started: it still ignores. */
      Running unknown = { .item = event->item, .attempt = event->attempt, .worker = event->worker };

      if (event->kind == SLUICE_EVENT_IGNORING_CANCEL)
        {
          g_array_append_val (self->ignoring, unknown);
          self->dirty |= LINT_DIRTY (SLUICE_LINT_IGNORING_CANCEL);
        }
      return;
    }
  if (event->kind == SLUICE_EVENT_CANCEL_REQUEST && event->round <= 1)
    due = running->deadline;
  else
    due = running->last_round >= 0 && self->item_timeout >= 0 ? running->last_round + self->item_timeout : -1;
  see_timer (self, event->item, event->worker, due, time);
  running->last_round = time;

  if (event->kind == SLUICE_EVENT_IGNORING_CANCEL)
    {
      g_array_append_val (self->ignoring, *running);
      self->dirty |= LINT_DIRTY (SLUICE_LINT_IGNORING_CANCEL);
    }
}

static void
stop_ignoring (SluiceLinter      *self,
               const SluiceEvent *event)
{
  for (guint i = 0; i < self->ignoring->len; i++)
    {
      const Running *running = &g_array_index (self->ignoring, Running, i);

      if (running->item == event->item && running->attempt == event->attempt)
        {
          g_array_remove_index (self->ignoring, i);
          self->dirty |= LINT_DIRTY (SLUICE_LINT_IGNORING_CANCEL);
          return;
        }
    }
}

static void
add_failure (SluiceLinter      *self,
             const SluiceEvent *event,
             gint64             time)
{
  Mark mark = {
    .time = time, .item = event->item, .worker = event->worker,
    .error_type = g_intern_string (event->error_type != NULL ? event->error_type : "Error"),
  };

  marks_push_recent (&self->failures, &mark);
  self->dirty |= LINT_DIRTY (SLUICE_LINT_DOMINANT_ERROR);
}

static void
see_attempt_end (SluiceLinter      *self,
                 const SluiceEvent *event,
                 gint64             time)
{
  Mark mark = { .time = time, .item = event->item, .worker = event->worker };
  Running *running = steal_running (self, event);

  /* An attempt that times out without a request to stop ended in the
   * same turn of the loop as its deadline's timer fired (see_timer()
   * names the other attempts running: this one is out of running
   * already). */
  if (running != NULL && event->outcome == SLUICE_OUTCOME_TIMED_OUT && running->last_round < 0)
    see_timer (self, event->item, event->worker, running->deadline, time);
  if (running != NULL)
    _sluice_running_table_give (&self->running, running);
  if (self->ignoring->len > 0)
    stop_ignoring (self, event);

  /* A caller's cancel says nothing of how long attempts take. */
  if (event->outcome == SLUICE_OUTCOME_CANCELLED || event->outcome == SLUICE_OUTCOME_NONE)
    return;
  mark.value = event->outcome == SLUICE_OUTCOME_TIMED_OUT;
  push_attempt (self, &mark);
  if (event->outcome == SLUICE_OUTCOME_OK)
    {
      /* A success cannot make a retry storm: while there is none, only
       * the window's next expiry may change. */
      tallies_expire (&self->successes, time);
      if (tallies_push (&self->successes, time))
        self->next_stale = TRUE;
      if (self->states[SLUICE_LINT_RETRY_STORM].cond)
        self->dirty |= LINT_DIRTY (SLUICE_LINT_RETRY_STORM);
    }
  else
    add_failure (self, event, time);
}

static void
see_backoff (SluiceLinter      *self,
             const SluiceEvent *event,
             gint64             time)
{
  Backoff *backoff = g_new (Backoff, 1);

  backoff->item = event->item;
  backoff->due = time + MAX (event->delay, 0);
  g_hash_table_replace (self->backoffs, &backoff->item, backoff);
}

static void
see_retry (SluiceLinter      *self,
           const SluiceEvent *event,
           gint64             time)
{
  Mark mark = { .time = time, .item = event->item, .worker = event->worker };
  const Backoff *backoff = g_hash_table_lookup (self->backoffs, &event->item);

  if (backoff != NULL)
    {
      see_timer (self, event->item, -1, backoff->due, time);
      g_hash_table_remove (self->backoffs, &event->item);
    }
  marks_push (&self->retries, &mark);
  self->dirty |= LINT_DIRTY (SLUICE_LINT_RETRY_STORM);
  if (self->states[SLUICE_LINT_RETRY_STORM].open != NULL)
    _sluice_lint_add_item (self->states[SLUICE_LINT_RETRY_STORM].open, event->item);
}

/* An item shed past its deadline fails with the error its item-failed
 * event gives. */
static void
see_item_failed (SluiceLinter      *self,
                 const SluiceEvent *event,
                 gint64             time)
{
  if (g_hash_table_remove (self->shed, &event->item))
    add_failure (self, event, time);
}

void
_sluice_linter_apply (SluiceLinter      *self,
                      const SluiceEvent *event,
                      gint64             time)
{
  switch (event->kind)
    {
    case SLUICE_EVENT_ATTEMPT_START:
      see_attempt_start (self, event, time);
      break;
    case SLUICE_EVENT_ATTEMPT_END:
      see_attempt_end (self, event, time);
      break;
    case SLUICE_EVENT_CANCEL_REQUEST:
    case SLUICE_EVENT_IGNORING_CANCEL:
      see_cancel_request (self, event, time);
      break;
    case SLUICE_EVENT_BACKOFF:
      see_backoff (self, event, time);
      break;
    case SLUICE_EVENT_RETRY:
      see_retry (self, event, time);
      break;
    case SLUICE_EVENT_DEADLINE_EXCEEDED:
      g_hash_table_add (self->shed, g_memdup2 (&event->item, sizeof event->item));
      break;
    case SLUICE_EVENT_ITEM_FAILED:
      see_item_failed (self, event, time);
      break;
    default:
      break;
    }
  see_counts (self, event, time);
}

