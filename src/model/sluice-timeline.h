/* sluice-timeline.h: the attempts and counts of a recorded run, ready to draw
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-recorder.h"

G_BEGIN_DECLS

/**
 * SLUICE_TIMELINE_MAX_ROUNDS:
 *
 * The most cancel-request rounds the pool makes for one attempt.
 */
#define SLUICE_TIMELINE_MAX_ROUNDS 3

/**
 * SluiceTimelineBar:
 * @item: the item index in pull order
 * @attempt: the attempt number, from 1
 * @worker: the worker that ran it
 * @start: when the handler was called, in clock microseconds
 * @end: when the attempt ended, or -1 while it runs
 * @deadline: when the attempt times out, as its attempt-start event gave
 *   it (#SluiceEvent.deadline), or -1 when the event did not say
 * @outcome: how it ended; %SLUICE_OUTCOME_NONE while it runs
 * @retried: this attempt's failure was retried
 * @final_failure: the item failed for good with this attempt
 * @retry_skipped: the retry policy refused this failure's retry (its
 *   #SluiceTimelineMark shows why)
 * @n_rounds: how many times the pool asked the attempt to stop
 * @round_times: when it asked, for the first @n_rounds rounds
 * @error_type: (nullable): the error's type name, owned by the model
 * @error_message: (nullable): the error's message, owned by the model
 * @value: (nullable): the item's value as pulled (GVariant text), owned
 *   by the model; %NULL when its pull was not seen
 * @late_result: the attempt timed out, and its handler then returned a
 *   value after all, which the pool threw away (the attempt-end event
 *   carries it)
 *
 * One attempt, as one bar in a worker's lane.
 */
typedef struct {
  gint64         item;
  guint          attempt;
  gint           worker;
  gint64         start, end;
  gint64         deadline;
  SluiceOutcome  outcome;
  gboolean       retried;
  gboolean       final_failure;
  gboolean       retry_skipped;
  guint          n_rounds;
  gint64         round_times[SLUICE_TIMELINE_MAX_ROUNDS];
  const char    *error_type;
  const char    *error_message;
  const char    *value;
  gboolean       late_result;
} SluiceTimelineBar;

/**
 * SluiceTimelineBarLook:
 * @SLUICE_TIMELINE_BAR_RUNNING: an attempt under way
 * @SLUICE_TIMELINE_BAR_OK: an attempt that succeeded
 * @SLUICE_TIMELINE_BAR_FAILED: an attempt that failed, not retried
 * @SLUICE_TIMELINE_BAR_RETRIED: an attempt that failed and was retried
 * @SLUICE_TIMELINE_BAR_TIMED_OUT: an attempt that timed out
 * @SLUICE_TIMELINE_BAR_CANCELLED: an attempt that was cancelled
 * @SLUICE_TIMELINE_BAR_DEADLINE: an attempt with its deadline drawn: under
 *   way, or ended at or after it
 * @SLUICE_TIMELINE_BAR_CANCEL_REQUEST: an attempt the pool asked to stop
 * @SLUICE_TIMELINE_N_BAR_LOOKS: how many there are
 *
 * How a bar looks in a lane: its fill (the first six) and its marks. A
 * bar has one fill and any of the marks.
 */
typedef enum {
  SLUICE_TIMELINE_BAR_RUNNING,
  SLUICE_TIMELINE_BAR_OK,
  SLUICE_TIMELINE_BAR_FAILED,
  SLUICE_TIMELINE_BAR_RETRIED,
  SLUICE_TIMELINE_BAR_TIMED_OUT,
  SLUICE_TIMELINE_BAR_CANCELLED,
  SLUICE_TIMELINE_BAR_DEADLINE,
  SLUICE_TIMELINE_BAR_CANCEL_REQUEST,
  SLUICE_TIMELINE_N_BAR_LOOKS
} SluiceTimelineBarLook;

/**
 * SluiceTimelineMarkKind:
 * @SLUICE_TIMELINE_MARK_BACKOFF: a retry waited (backed off) before its
 *   attempt, from @start to @end
 * @SLUICE_TIMELINE_MARK_RETRY_SKIPPED: the retry policy refused a retry
 *   at @start (see @reason); the item failed for good
 * @SLUICE_TIMELINE_MARK_SHED: a worker took the item past its deadline and
 *   failed it without a handler call, at @start
 *
 * What a #SluiceTimelineMark shows.
 */
typedef enum {
  SLUICE_TIMELINE_MARK_BACKOFF,
  SLUICE_TIMELINE_MARK_RETRY_SKIPPED,
  SLUICE_TIMELINE_MARK_SHED,
} SluiceTimelineMarkKind;

/**
 * SluiceTimelineMark:
 * @kind: what happened
 * @item: the item index in pull order
 * @attempt: the failed attempt's number (a backoff, a skipped retry), or 0
 * @worker: the worker's lane
 * @start: when it happened (a backoff: when the failed attempt ended), in
 *   clock microseconds
 * @end: when a backoff ends (the next attempt starts), or was cut short by
 *   a cancellation; @start for the other kinds
 * @delay: the backoff drawn, in microseconds (also for a retry skipped for
 *   the deadline), or -1
 * @cut_short: a backoff that a cancellation ended before its time
 * @outcome: how the failed attempt ended (a skipped retry), or
 *   %SLUICE_OUTCOME_NONE
 * @attempt_start: when the failed attempt started (a skipped retry), or -1
 * @reason: (nullable): why a retry was skipped, `deadline` or `budget`
 *   (an interned string)
 *
 * What the retry policy did on a worker's lane, between or beside bars.
 */
typedef struct {
  SluiceTimelineMarkKind kind;
  gint64                 item;
  guint                  attempt;
  gint                   worker;
  gint64                 start, end;
  gint64                 delay;
  gboolean               cut_short;
  SluiceOutcome          outcome;
  gint64                 attempt_start;
  const char            *reason;
} SluiceTimelineMark;

/**
 * SluiceTimelineMomentKind:
 * @SLUICE_TIMELINE_MOMENT_STOP_REQUEST: a stop was requested
 * @SLUICE_TIMELINE_MOMENT_DRAIN: the input closed; the workers drain the queue
 * @SLUICE_TIMELINE_MOMENT_CANCEL: the caller cancelled or closed the run
 * @SLUICE_TIMELINE_MOMENT_FATAL: a fatal error stopped the pool at once
 * @SLUICE_TIMELINE_MOMENT_SHUTDOWN_DEADLINE: the shutdown deadline fired
 *   before the drain ended
 * @SLUICE_TIMELINE_MOMENT_RUN_END: every operation of the run had finished
 * @SLUICE_TIMELINE_MOMENT_EVENTS_LOST: events of an attached program never
 *   came before this one (its ring dropped them); what the lanes show was
 *   resynchronised here
 *
 * A moment of the whole run, marked on the chart's time axis.
 */
typedef enum {
  SLUICE_TIMELINE_MOMENT_STOP_REQUEST,
  SLUICE_TIMELINE_MOMENT_DRAIN,
  SLUICE_TIMELINE_MOMENT_CANCEL,
  SLUICE_TIMELINE_MOMENT_FATAL,
  SLUICE_TIMELINE_MOMENT_SHUTDOWN_DEADLINE,
  SLUICE_TIMELINE_MOMENT_RUN_END,
  SLUICE_TIMELINE_MOMENT_EVENTS_LOST,
} SluiceTimelineMomentKind;

#define SLUICE_TIMELINE_N_MOMENT_KINDS (SLUICE_TIMELINE_MOMENT_EVENTS_LOST + 1)

/**
 * SluiceTimelineMoment:
 * @kind: what happened
 * @time: when, in clock microseconds
 *
 * One run-level event, as the model keeps it.
 */
typedef struct {
  SluiceTimelineMomentKind kind;
  gint64                   time;
} SluiceTimelineMoment;

/**
 * SluiceTimelineValues:
 * @time: the time asked about
 * @queued: items in the input queue
 * @in_flight: attempts running
 * @lead: items pulled and not yet handled successfully
 * @failed: of the lead, the items that failed for good
 * @busy: workers holding an item
 * @waiting: results the pool handed back that the caller has not read yet
 *   (see sluice_timeline_get_waiting())
 * @tokens: the retry budget's level in thousandths, or -1 without a budget
 *
 * The chart's counts in effect at one time (see
 * sluice_timeline_get_values_at()).
 */
typedef struct {
  gint64 time;
  guint  queued;
  guint  in_flight;
  guint  lead;
  guint  failed;
  guint  busy;
  guint  waiting;
  gint64 tokens;
} SluiceTimelineValues;

#define SLUICE_TYPE_TIMELINE (sluice_timeline_get_type ())
G_DECLARE_FINAL_TYPE (SluiceTimeline, sluice_timeline, SLUICE, TIMELINE, GObject)

SluiceTimeline          *sluice_timeline_new              (guint            n_workers);
void                     sluice_timeline_update           (SluiceTimeline  *self,
                                                           SluiceRecorder  *recorder);
void                     sluice_timeline_add_event        (SluiceTimeline  *self,
                                                           const SluiceEvent *event);
void                     sluice_timeline_clear            (SluiceTimeline  *self);
void                     sluice_timeline_add_gap          (SluiceTimeline  *self,
                                                           gint64           time);
gboolean                 sluice_timeline_has_moment_kind  (SluiceTimeline  *self,
                                                           SluiceTimelineMomentKind kind);
guint                    sluice_timeline_get_queue_capacity (SluiceTimeline *self);
guint                    sluice_timeline_get_lead_bound   (SluiceTimeline  *self);
gint64                   sluice_timeline_get_item_timeout (SluiceTimeline  *self);
guint                    sluice_timeline_get_n_workers    (SluiceTimeline  *self);
guint                    sluice_timeline_get_n_bars       (SluiceTimeline  *self);
const SluiceTimelineBar *sluice_timeline_get_bar          (SluiceTimeline  *self,
                                                           guint            i);
const SluiceTimelineBar *sluice_timeline_get_bars      (SluiceTimeline  *self,
                                                           guint           *n_bars);
gint64                   sluice_timeline_get_start_time   (SluiceTimeline  *self);
gint64                   sluice_timeline_get_end_time     (SluiceTimeline  *self);
guint                    sluice_timeline_get_n_samples    (SluiceTimeline  *self);
void                     sluice_timeline_get_sample       (SluiceTimeline  *self,
                                                           guint            i,
                                                           gint64          *time,
                                                           guint           *queued,
                                                           guint           *in_flight,
                                                           guint           *lead);
guint                    sluice_timeline_get_busy         (SluiceTimeline  *self,
                                                           guint            i);
guint                    sluice_timeline_find_sample      (SluiceTimeline  *self,
                                                           gint64           time);
guint                    sluice_timeline_get_failed       (SluiceTimeline  *self,
                                                           guint            i);
guint                    sluice_timeline_get_waiting      (SluiceTimeline  *self,
                                                           guint            i);
guint                    sluice_timeline_get_max_waiting  (SluiceTimeline  *self);
gboolean                 sluice_timeline_get_values_at    (SluiceTimeline  *self,
                                                           gint64           time,
                                                           SluiceTimelineValues *values);
guint                    sluice_timeline_get_n_moments    (SluiceTimeline  *self);
const SluiceTimelineMoment *sluice_timeline_get_moment    (SluiceTimeline  *self,
                                                           guint            i);
guint                    sluice_timeline_get_n_marks      (SluiceTimeline  *self);
const SluiceTimelineMark *sluice_timeline_get_mark        (SluiceTimeline  *self,
                                                           guint            i);
gboolean                 sluice_timeline_has_mark_kind    (SluiceTimeline  *self,
                                                           SluiceTimelineMarkKind kind);
guint                    sluice_timeline_get_bar_looks    (SluiceTimeline  *self);
gint64                   sluice_timeline_get_max_tokens   (SluiceTimeline  *self);
guint                    sluice_timeline_get_n_token_samples (SluiceTimeline *self);
void                     sluice_timeline_get_token_sample (SluiceTimeline  *self,
                                                           guint            i,
                                                           gint64          *time,
                                                           gint64          *tokens);
guint                    sluice_timeline_find_token_sample (SluiceTimeline *self,
                                                            gint64          time);

G_END_DECLS
