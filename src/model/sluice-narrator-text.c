/* sluice-narrator-text.c: the narrator's sentences, one template per state
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>

#include "sluice-narrator-private.h"

/* Lines of sentences, joined at the end; the first gets the time. */
typedef GPtrArray Lines;

static void
add_line (Lines *lines,
          char  *line)
{
  g_ptr_array_add (lines, line);
}

/* Appends a sentence to the last line (a line holds what belongs
 * together), or starts the first one. */
static void
add_sentence (Lines *lines,
              char  *sentence)
{
  char *last;

  if (lines->len == 0)
    {
      add_line (lines, sentence);
      return;
    }
  last = g_ptr_array_index (lines, lines->len - 1);
  g_ptr_array_index (lines, lines->len - 1) = g_strconcat (last, " ", sentence, NULL);
  g_free (last);
  g_free (sentence);
}

/* ---- numbers and lists ----------------------------------------------------- */

/* Times and durations as the event log shows them: seconds with three
 * decimals, in printf's (LC_NUMERIC's) notation like the rest of the app. */
static char *
seconds (gint64 us)
{
  /* Translators: a time or duration in the narration; %.3f is seconds */
  return g_strdup_printf (C_("narration", "%.3f s"), us / (double) G_USEC_PER_SEC);
}

static char *
number (gint64 value)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT, value);
}

/* "3", "3–5" for a run of three or more consecutive numbers. */
static char *
range (gint64 first,
       gint64 last)
{
  g_autofree char *a = number (first);
  g_autofree char *b = number (last);

  if (first == last)
    return g_steal_pointer (&a);
  /* Translators: a range of numbers in a list, e.g. "workers 0–9" */
  return g_strdup_printf (C_("narration list", "%s–%s"), a, b);
}

/* "0", "0 and 1", "0, 2 and 5–7": worker or item numbers, in the given
 * order, runs of consecutive numbers shortened. */
static char *
list (const gint64 *values,
      guint         n)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *text = NULL;

  for (guint i = 0; i < n;)
    {
      guint j = i;

      while (j + 1 < n && values[j + 1] == values[j] + 1)
        j++;
      /* A pair stays two parts, so that "0, 1 and 3" reads as a list. */
      if (j == i + 1)
        j = i;
      g_ptr_array_add (parts, range (values[i], values[j]));
      i = j + 1;
    }

  text = g_strdup (g_ptr_array_index (parts, 0));
  for (guint i = 1; i < parts->len; i++)
    {
      char *joined = i + 1 < parts->len
        /* Translators: joins the items of a list but the last, e.g. "0, 2" */
        ? g_strdup_printf (C_("narration list", "%s, %s"), text, (char *) g_ptr_array_index (parts, i))
        /* Translators: joins the last item of a list, e.g. "0, 2 and 5" */
        : g_strdup_printf (C_("narration list", "%s and %s"), text, (char *) g_ptr_array_index (parts, i));

      g_free (text);
      text = joined;
    }
  return g_steal_pointer (&text);
}

static char *
list_array (GArray *values)
{
  return list ((const gint64 *) (gpointer) values->data, values->len);
}

/* ---- the run as a whole ---------------------------------------------------- */

static gint64
fact (const NarratorMoment *m,
      NarratorFact          f)
{
  return m->facts[f];
}

static char *
stop_sentence (const NarratorMoment *m)
{
  g_autofree char *at = seconds (fact (m, NARRATOR_FACT_STOP));
  g_autofree char *item = NULL;

  if (m->stop_failed_item < 0)
    /* Translators: %s is a time such as "0.250 s" */
    return g_strdup_printf (_("A stop was requested at %s."), at);

  item = number (m->stop_failed_item);
  /* Translators: %s is a time, then an item's number; keep-going is the
   * name of a setting of the pool */
  return g_strdup_printf (_("A stop was requested at %s, because item %s failed for good and keep-going is off."),
                          at, item);
}

static void
tell_end (const NarratorMoment *m,
          Lines                *lines)
{
  g_autofree char *at = seconds (fact (m, NARRATOR_FACT_RUN_END));
  guint unfinished = m->pulled > m->succeeded + m->failed ? m->pulled - m->succeeded - m->failed : 0;

  /* Translators: %s is the time; then how many items succeeded of how
   * many were pulled; the plural follows the second number */
  add_sentence (lines, g_strdup_printf (ngettext ("The run ended at %s: %u of %u item succeeded.",
                                                  "The run ended at %s: %u of %u items succeeded.", m->pulled),
                                        at, m->succeeded, m->pulled));
  if (m->failed > 0)
    add_sentence (lines, g_strdup_printf (ngettext ("%u item failed for good.", "%u items failed for good.", m->failed),
                                          m->failed));
  if (unfinished > 0)
    add_sentence (lines, g_strdup_printf (ngettext ("%u item was not finished: it was dropped or cancelled.",
                                                    "%u items were not finished: they were dropped or cancelled.",
                                                    unfinished), unfinished));

  if (fact (m, NARRATOR_FACT_FATAL) >= 0)
    {
      g_autofree char *fatal_at = seconds (fact (m, NARRATOR_FACT_FATAL));

      /* Translators: %s is an error's type name (e.g. DiskFullError), then a time */
      add_sentence (lines, g_strdup_printf (_("A fatal %s stopped the pool at %s."),
                                            m->fatal_error_type != NULL ? m->fatal_error_type : "error", fatal_at));
    }
  else if (fact (m, NARRATOR_FACT_CANCEL) >= 0)
    {
      g_autofree char *cancel_at = seconds (fact (m, NARRATOR_FACT_CANCEL));

      /* Translators: %s is a time */
      add_sentence (lines, g_strdup_printf (_("The run was cancelled at %s."), cancel_at));
    }
  else if (fact (m, NARRATOR_FACT_STOP) >= 0)
    add_sentence (lines, stop_sentence (m));

  if (fact (m, NARRATOR_FACT_SHUTDOWN) >= 0)
    {
      g_autofree char *shutdown_at = seconds (fact (m, NARRATOR_FACT_SHUTDOWN));

      /* Translators: %s is a time */
      add_sentence (lines, g_strdup_printf (_("The shutdown deadline fired at %s."), shutdown_at));
    }
}

static void
tell_shutdown (const NarratorMoment *m,
               Lines                *lines)
{
  g_autofree char *at = seconds (fact (m, NARRATOR_FACT_SHUTDOWN));

  /* Translators: %s is a time */
  add_sentence (lines, g_strdup_printf (_("The shutdown deadline fired at %s, before the drain ended."), at));
  if (m->shutdown_dropped > 0)
    add_sentence (lines, g_strdup_printf (ngettext ("%u queued item was dropped.", "%u queued items were dropped.",
                                                    m->shutdown_dropped), m->shutdown_dropped));
  if (m->shutdown_cancelled > 0)
    add_sentence (lines, g_strdup_printf (ngettext ("%u running attempt was asked to stop, once.",
                                                    "%u running attempts were asked to stop, once.",
                                                    m->shutdown_cancelled), m->shutdown_cancelled));
}

static guint
count_busy (const NarratorMoment *m)
{
  guint busy = 0;

  for (guint w = 0; w < m->n_workers; w++)
    busy += m->workers[w].state != NARRATOR_WORKER_IDLE;
  return busy;
}

/* What closed the input first: the source's end or error, or a stop. At
 * one instant the source's error comes first (the stop follows it). */
static NarratorFact
input_closed_by (const NarratorMoment *m)
{
  static const NarratorFact order[] = {
    NARRATOR_FACT_SOURCE_ERROR, NARRATOR_FACT_SOURCE_END, NARRATOR_FACT_STOP,
  };
  NarratorFact best = NARRATOR_N_FACTS;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (fact (m, order[i]) >= 0 && (best == NARRATOR_N_FACTS || fact (m, order[i]) < fact (m, best)))
      best = order[i];
  return best;
}

static void
tell_input_closed (const NarratorMoment *m,
                   NarratorFact          closed,
                   Lines                *lines)
{
  g_autofree char *at = seconds (fact (m, closed));
  guint left = m->queued + count_busy (m);
  gint64 stop = fact (m, NARRATOR_FACT_STOP);

  if (closed == NARRATOR_FACT_SOURCE_END)
    /* Translators: %s is a time */
    add_line (lines, g_strdup_printf (_("The source ended at %s."), at));
  else if (closed == NARRATOR_FACT_SOURCE_ERROR)
    /* Translators: %s is a time, then an error's type name (e.g. SourceError) */
    add_line (lines, g_strdup_printf (_("The source failed at %s with %s."), at,
                                      m->source_error_type != NULL ? m->source_error_type : "error"));
  else
    add_line (lines, stop_sentence (m));

  /* A stop after the source had ended is news of its own. */
  if (closed != NARRATOR_FACT_STOP && fact (m, NARRATOR_FACT_STOP) > fact (m, closed))
    add_sentence (lines, stop_sentence (m));

  if (fact (m, NARRATOR_FACT_SHUTDOWN) >= 0)
    {
      add_sentence (lines, g_strdup (_("The producer no longer pulls.")));
      tell_shutdown (m, lines);
      return;
    }
  if (left == 0)
    {
      add_sentence (lines, g_strdup (_("The producer no longer pulls, and nothing is left to finish.")));
      return;
    }
  /* Translators: the drain: what was pulled still runs to its end */
  add_sentence (lines, g_strdup_printf (ngettext ("The producer no longer pulls; the %u item queued or on a worker still finishes (drain).",
                                                  "The producer no longer pulls; the %u items queued or on a worker still finish (drain).",
                                                  left), left));
  /* The first stop request starts the shutdown clock; a source's end
   * does not. */
  if (m->shutdown_timeout > 0 && stop >= 0)
    {
      g_autofree char *deadline = seconds (stop + m->shutdown_timeout);

      /* Translators: %s is a time */
      add_sentence (lines, g_strdup_printf (_("If the drain has not ended by %s, the shutdown deadline drops the queue and cancels what runs."),
                                            deadline));
    }
}

/* The run-level state: a fatal error or a cancellation ends it at once;
 * otherwise the input closed and the pool drains. */
static void
tell_run (const NarratorMoment *m,
          Lines                *lines)
{
  NarratorFact closed;

  if (fact (m, NARRATOR_FACT_FATAL) >= 0)
    {
      g_autofree char *at = seconds (fact (m, NARRATOR_FACT_FATAL));

      /* Translators: %s is an error's type name, then a time */
      add_line (lines, g_strdup_printf (_("A fatal %s stopped the pool at %s, without a drain: the queued items were dropped and the running attempts asked to stop."),
                                        m->fatal_error_type != NULL ? m->fatal_error_type : "error", at));
      return;
    }
  if (fact (m, NARRATOR_FACT_CANCEL) >= 0)
    {
      g_autofree char *at = seconds (fact (m, NARRATOR_FACT_CANCEL));

      /* Translators: %s is a time */
      add_line (lines, g_strdup_printf (_("The run was cancelled at %s: the queued items were dropped and the running attempts asked to stop."),
                                        at));
      return;
    }
  closed = input_closed_by (m);
  if (closed != NARRATOR_N_FACTS)
    tell_input_closed (m, closed, lines);
}

static void
tell_just_now (const NarratorMoment *m,
               Lines                *lines)
{
  const NarratorJustNow *now = &m->just_now;
  gboolean first = TRUE;

  /* The events were read backwards: put them in their order. */
  for (guint k = 0; k < 3; k++)
    {
      GArray *items = k == 0 ? now->succeeded : k == 1 ? now->failed : now->dropped;
      g_autofree char *names = NULL;
      char *sentence;

      if (items->len == 0)
        continue;
      for (guint i = 0; i < items->len / 2; i++)
        {
          gint64 swap = g_array_index (items, gint64, i);

          g_array_index (items, gint64, i) = g_array_index (items, gint64, items->len - 1 - i);
          g_array_index (items, gint64, items->len - 1 - i) = swap;
        }
      names = list_array (items);
      if (k == 0)
        /* Translators: %s is an item's number or a list of them ("1 and 2") */
        sentence = g_strdup_printf (ngettext ("Item %s has just succeeded.", "Items %s have just succeeded.", items->len), names);
      else if (k == 1)
        sentence = g_strdup_printf (ngettext ("Item %s has just failed for good.", "Items %s have just failed for good.", items->len), names);
      else
        sentence = g_strdup_printf (ngettext ("Item %s was just dropped, unhandled.", "Items %s were just dropped, unhandled.", items->len), names);
      if (first)
        add_line (lines, sentence);
      else
        add_sentence (lines, sentence);
      first = FALSE;
    }
}

/* ---- the producer ---------------------------------------------------------- */

static void
tell_producer (const NarratorMoment *m,
               Lines                *lines)
{
  g_autofree char *held = NULL;

  if (m->held_item < 0)
    {
      /* Translators: the producer pulls items from the source into the queue */
      add_line (lines, g_strdup_printf (ngettext ("The producer waits on the source for its next item; %u item pulled so far.",
                                                  "The producer waits on the source for its next item; %u items pulled so far.",
                                                  m->pulled), m->pulled));
      return;
    }

  held = number (m->held_item);
  if (m->queue_capacity > 0)
    /* Translators: %s is an item's number, %u the queue's capacity */
    add_line (lines, g_strdup_printf (ngettext ("The producer holds item %s and waits for room in the queue, which is full at %u item.",
                                                "The producer holds item %s and waits for room in the queue, which is full at %u items.",
                                                m->queue_capacity), held, m->queue_capacity));
  else
    /* Translators: %s is an item's number, %u the items in the queue */
    add_line (lines, g_strdup_printf (ngettext ("The producer holds item %s and waits for room in the queue (%u item queued).",
                                                "The producer holds item %s and waits for room in the queue (%u items queued).",
                                                m->queued), held, m->queued));
  if (m->lead_bound > 0 && m->lead >= m->lead_bound)
    /* Translators: the lead: items pulled and not yet handled; its bound
     * is the queue's capacity + the workers + the item the producer holds */
    add_sentence (lines, g_strdup_printf (ngettext ("The lead is at its bound of %u item: the queue, the workers and the item the producer holds.",
                                                    "The lead is at its bound of %u items: the queue, the workers and the item the producer holds.",
                                                    m->lead_bound), m->lead_bound));
}

/* ---- the workers ----------------------------------------------------------- */

static char *
idle_reason (const NarratorMoment *m)
{
  NarratorFact closed = input_closed_by (m);
  g_autofree char *at = NULL;

  if (m->queued > 0)
    return NULL;

  /* Translators: the reasons why a worker is idle, after "Worker 1 is
   * idle:"; %s is a time */
  if (fact (m, NARRATOR_FACT_FATAL) >= 0)
    return g_strdup_printf (_("the queue is empty because a fatal error stopped the pool at %s."),
                            at = seconds (fact (m, NARRATOR_FACT_FATAL)));
  if (fact (m, NARRATOR_FACT_CANCEL) >= 0)
    return g_strdup_printf (_("the queue is empty because the run was cancelled at %s."),
                            at = seconds (fact (m, NARRATOR_FACT_CANCEL)));
  if (fact (m, NARRATOR_FACT_SHUTDOWN) >= 0)
    return g_strdup_printf (_("the queue is empty because the shutdown deadline fired at %s."),
                            at = seconds (fact (m, NARRATOR_FACT_SHUTDOWN)));
  if (closed == NARRATOR_FACT_STOP)
    return g_strdup_printf (_("the queue is empty because a stop was requested at %s."), at = seconds (fact (m, closed)));
  if (closed == NARRATOR_FACT_SOURCE_ERROR)
    return g_strdup_printf (_("the queue is empty because the source failed at %s."), at = seconds (fact (m, closed)));
  if (closed == NARRATOR_FACT_SOURCE_END)
    return g_strdup_printf (_("the queue is empty because the source ended at %s."), at = seconds (fact (m, closed)));
  if (m->held_item < 0)
    return g_strdup (_("the queue is empty because the source is slow."));
  return NULL;
}

static char *
tell_idle (const NarratorMoment *m,
           const char           *workers,
           guint                 n)
{
  g_autofree char *reason = idle_reason (m);

  if (reason == NULL)
    /* Translators: %s is a worker's number or a list of them ("1 and 2") */
    return g_strdup_printf (ngettext ("Worker %s is idle.", "Workers %s are idle.", n), workers);
  /* Translators: %s is a worker's number or a list of them, then one of
   * the reasons ("the queue is empty because…") */
  return g_strdup_printf (ngettext ("Worker %s is idle: %s", "Workers %s are idle: %s", n), workers, reason);
}

static char *
tell_running (const NarratorMoment *m,
              const NarratorWorker *w,
              const char           *workers,
              const char           *items,
              guint                 n)
{
  const SluiceTimelineBar *bar = w->bar;
  g_autofree char *since = seconds (bar->start);
  g_autofree char *deadline = NULL;

  if (bar->deadline < 0)
    /* Translators: worker number(s), an attempt's number, item number(s),
     * the time it started */
    return g_strdup_printf (ngettext ("Worker %s runs attempt %u of item %s, since %s.",
                                      "Workers %s run attempt %u of items %s, since %s.", n),
                            workers, bar->attempt, items, since);
  deadline = seconds (bar->deadline);
  /* Translators: worker number(s), an attempt's number, item number(s),
   * the time it started, the time of its deadline */
  return g_strdup_printf (ngettext ("Worker %s runs attempt %u of item %s, since %s; its deadline is at %s.",
                                    "Workers %s run attempt %u of items %s, since %s; their deadline is at %s.", n),
                          workers, bar->attempt, items, since, deadline);
}

/* An attempt past its deadline: the pool asks it to stop, waits up to the
 * item timeout, asks again, three times at most, then waits for good. */
static char *
tell_overdue (const NarratorMoment *m,
              const NarratorWorker *w,
              const char           *worker,
              const char           *item)
{
  const SluiceTimelineBar *bar = w->bar;
  gint64 timeout = m->item_timeout >= 0 ? m->item_timeout : bar->round_times[0] - bar->start;
  g_autofree char *started = seconds (bar->start);
  g_autofree char *deadline = seconds (bar->round_times[0]);
  g_autofree char *wait = seconds (timeout);
  g_autofree char *asked = seconds (bar->round_times[w->rounds - 1]);
  g_autofree char *first = NULL;
  char *second;

  /* Translators: a worker's number, an attempt's number, an item's
   * number, the deadline's time, the time the attempt started, the item
   * timeout */
  first = g_strdup_printf (_("Worker %s: attempt %u of item %s passed its deadline at %s (started %s, timeout %s)."),
                           worker, bar->attempt, item, deadline, started, wait);
  if (w->ignoring_since >= 0)
    {
      g_autofree char *since = seconds (w->ignoring_since);

      /* Translators: %s is a time */
      second = g_strdup_printf (_("It ignored three requests to stop; since %s the pool waits for it as long as it takes."),
                                since);
    }
  else if (w->rounds < SLUICE_TIMELINE_MAX_ROUNDS)
    /* Translators: a cancel request's round (1 or 2), its time, the wait */
    second = g_strdup_printf (_("The pool asked it to stop (round %u) at %s and waits up to %s before it asks again."),
                              w->rounds, asked, wait);
  else
    /* Translators: the time of the third request, the wait */
    second = g_strdup_printf (_("The pool asked it to stop for the third and last time at %s and waits up to %s; then it waits as long as it takes."),
                              asked, wait);

  return g_strconcat (first, " ", second, NULL);
}

static char *
tell_asked (const NarratorWorker *w,
            const char           *worker,
            const char           *item)
{
  g_autofree char *asked = seconds (w->bar->round_times[0]);

  if (w->asked == NARRATOR_ASKED_SHUTDOWN)
    /* Translators: a worker's number, an attempt's number, an item's number, a time */
    return g_strdup_printf (_("Worker %s still runs attempt %u of item %s: the shutdown deadline asked it to stop at %s, and the run ends when it returns."),
                            worker, w->bar->attempt, item, asked);
  /* Translators: a worker's number, an attempt's number, an item's number, a time */
  return g_strdup_printf (_("Worker %s still runs attempt %u of item %s: it was asked to stop at %s, and the run ends when it returns."),
                          worker, w->bar->attempt, item, asked);
}

static char *
tell_backoff (const NarratorWorker *w,
              const char           *workers,
              const char           *items,
              guint                 n)
{
  g_autofree char *until = seconds (w->backoff->end);

  /* Translators: worker number(s), the time the wait ends, the next
   * attempt's number, item number(s) */
  return g_strdup_printf (ngettext ("Worker %s backs off until %s, then starts attempt %u of item %s.",
                                    "Workers %s back off until %s, then start attempt %u of items %s.", n),
                          workers, until, w->backoff->attempt + 1, items);
}

/* Workers in the same state tell one sentence: idle ones, the ones that
 * run the same attempt number since the same time, the ones that back
 * off until the same time. An attempt being asked to stop is its own. */
static gboolean
same_state (const NarratorWorker *a,
            const NarratorWorker *b)
{
  if (a->state != b->state)
    return FALSE;
  switch (a->state)
    {
    case NARRATOR_WORKER_IDLE:
      return TRUE;
    case NARRATOR_WORKER_RUNNING:
      return a->rounds == 0 && b->rounds == 0 && a->bar->attempt == b->bar->attempt &&
             a->bar->start == b->bar->start && a->bar->deadline == b->bar->deadline;
    case NARRATOR_WORKER_BACKOFF:
      return a->backoff->attempt == b->backoff->attempt && a->backoff->end == b->backoff->end;
    default:
      return FALSE;
    }
}

static gint64
item_of (const NarratorWorker *w)
{
  return w->state == NARRATOR_WORKER_RUNNING ? w->bar->item : w->backoff->item;
}

static char *
tell_group (const NarratorMoment *m,
            const NarratorWorker *w,
            GArray               *workers,
            GArray               *items)
{
  g_autofree char *worker_names = list_array (workers);
  g_autofree char *item_names = NULL;

  if (w->state == NARRATOR_WORKER_IDLE)
    return tell_idle (m, worker_names, workers->len);

  /* Items in the workers' order: "workers 0 and 1 run items 4 and 7". */
  item_names = list_array (items);
  if (w->state == NARRATOR_WORKER_BACKOFF)
    return tell_backoff (w, worker_names, item_names, workers->len);
  if (w->rounds == 0)
    return tell_running (m, w, worker_names, item_names, workers->len);
  if (w->asked == NARRATOR_ASKED_DEADLINE)
    return tell_overdue (m, w, worker_names, item_names);
  return tell_asked (w, worker_names, item_names);
}

static void
tell_workers (const NarratorMoment *m,
              Lines                *lines)
{
  g_autofree gboolean *told = g_new0 (gboolean, MAX (m->n_workers, 1));

  for (guint w = 0; w < m->n_workers; w++)
    {
      g_autoptr(GArray) workers = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (gint64));

      if (told[w])
        continue;
      for (guint v = w; v < m->n_workers; v++)
        {
          gint64 index = v, item;

          if (told[v] || (v != w && !same_state (&m->workers[w], &m->workers[v])))
            continue;
          told[v] = TRUE;
          g_array_append_val (workers, index);
          if (m->workers[v].state != NARRATOR_WORKER_IDLE)
            {
              item = item_of (&m->workers[v]);
              g_array_append_val (items, item);
            }
        }
      add_line (lines, tell_group (m, &m->workers[w], workers, items));
    }
}

/* ---- all of it ------------------------------------------------------------- */

static char *
join (Lines  *lines,
      gint64  time)
{
  g_autofree char *at = seconds (time);
  g_autofree char *rest = NULL;
  char *first;

  g_ptr_array_add (lines, NULL);
  rest = g_strjoinv ("\n", (char **) lines->pdata + 1);
  /* Translators: the narration's first line: the time, a dash, the first
   * sentence */
  first = g_strdup_printf (C_("narration", "%s — %s"), at, (char *) g_ptr_array_index (lines, 0));
  if (lines->len > 2)
    {
      char *all = g_strconcat (first, "\n", rest, NULL);

      g_free (first);
      return all;
    }
  return first;
}

/* Builds the narration of @moment: one line per subject (the run, what
 * just happened, each group of workers, the producer). */
char *
_sluice_narrator_tell (const NarratorMoment *m)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *start = NULL;

  if (m->empty)
    add_line (lines, g_strdup (_("Nothing has been recorded yet.")));
  else if (m->time < m->start)
    /* Translators: %s is the time of the run's first event */
    add_line (lines, g_strdup_printf (_("The run has not started yet; it starts at %s."), start = seconds (m->start)));
  else if (fact (m, NARRATOR_FACT_RUN_END) >= 0)
    tell_end (m, lines);
  else
    {
      tell_just_now (m, lines);
      tell_run (m, lines);
      tell_workers (m, lines);
      if (input_closed_by (m) == NARRATOR_N_FACTS && fact (m, NARRATOR_FACT_FATAL) < 0 &&
          fact (m, NARRATOR_FACT_CANCEL) < 0)
        tell_producer (m, lines);
    }

  return join (lines, m->time);
}
