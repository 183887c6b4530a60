/* sluice-event.h: one record of a run's structured event stream
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <glib-object.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceEventKind:
 * @SLUICE_EVENT_RUN_START: the driver started
 * @SLUICE_EVENT_PULL: the source yielded an item (@item, @value)
 * @SLUICE_EVENT_SOURCE_END: the source reported its end
 * @SLUICE_EVENT_SOURCE_ERROR: the source failed (@error_type, @error_message)
 * @SLUICE_EVENT_QUEUE_PUT: an item entered the input channel
 * @SLUICE_EVENT_QUEUE_GET: a worker took an item from the input channel
 * @SLUICE_EVENT_ATTEMPT_START: a handler call began (@item, @attempt, @worker)
 * @SLUICE_EVENT_ATTEMPT_END: a handler call ended (@outcome, error fields;
 *   @value when a timed-out handler returned a value late)
 * @SLUICE_EVENT_CANCEL_REQUEST: the pool asked an attempt to stop (@round)
 * @SLUICE_EVENT_IGNORING_CANCEL: an attempt ignored three rounds of
 *   cancellation; the pool now waits for it however long it takes
 * @SLUICE_EVENT_RETRY: a failed attempt is retried now: the next attempt
 *   starts right after (with a backoff, when the backoff has ended)
 * @SLUICE_EVENT_BACKOFF: a retry waits before it starts (@attempt is the
 *   failed attempt's number, @delay the wait in microseconds)
 * @SLUICE_EVENT_RETRY_SKIPPED: a retry the policy refused (@reason is
 *   `deadline`, with the @delay drawn for it, or `budget`); the item then
 *   fails for good with its last error
 * @SLUICE_EVENT_DEADLINE_EXCEEDED: a worker took an item past its deadline
 *   and shed it without a handler call; the item fails for good
 * @SLUICE_EVENT_ITEM_OK: an item succeeded (@value is the result)
 * @SLUICE_EVENT_ITEM_FAILED: an item failed for good
 * @SLUICE_EVENT_ITEM_DROPPED: a pulled item was never handled because of a
 *   stop or cancel
 * @SLUICE_EVENT_ITEM_CANCELLED: an item's attempt was cancelled in flight by
 *   the caller
 * @SLUICE_EVENT_FATAL: an attempt failed with a fatal error (@error_type,
 *   @error_message): the pool stops at once, without a drain
 * @SLUICE_EVENT_SHUTDOWN_DEADLINE: the shutdown deadline fired before the
 *   drain ended: what is queued is dropped, what runs is cancelled once
 * @SLUICE_EVENT_OVERRUN: an attempt ended after the shutdown deadline (it
 *   ignored the cancellation; @item, @attempt)
 * @SLUICE_EVENT_STOP_REQUEST: a stop was requested
 * @SLUICE_EVENT_DRAIN: the input is closed; the workers drain what is queued
 * @SLUICE_EVENT_CANCEL: the caller cancelled or closed the run
 * @SLUICE_EVENT_RESULT: the caller received a result (@value)
 * @SLUICE_EVENT_RUN_END: every operation of the run has finished; the run
 *   emits nothing after it, except a @SLUICE_EVENT_RESULT for each result
 *   a caller reads later from those the run buffered for it
 *
 * What a #SluiceEvent records.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_EVENT_RUN_START,
  SLUICE_EVENT_PULL,
  SLUICE_EVENT_SOURCE_END,
  SLUICE_EVENT_SOURCE_ERROR,
  SLUICE_EVENT_QUEUE_PUT,
  SLUICE_EVENT_QUEUE_GET,
  SLUICE_EVENT_ATTEMPT_START,
  SLUICE_EVENT_ATTEMPT_END,
  SLUICE_EVENT_CANCEL_REQUEST,
  SLUICE_EVENT_IGNORING_CANCEL,
  SLUICE_EVENT_RETRY,
  SLUICE_EVENT_BACKOFF,
  SLUICE_EVENT_RETRY_SKIPPED,
  SLUICE_EVENT_DEADLINE_EXCEEDED,
  SLUICE_EVENT_ITEM_OK,
  SLUICE_EVENT_ITEM_FAILED,
  SLUICE_EVENT_ITEM_DROPPED,
  SLUICE_EVENT_ITEM_CANCELLED,
  SLUICE_EVENT_FATAL,
  SLUICE_EVENT_SHUTDOWN_DEADLINE,
  SLUICE_EVENT_OVERRUN,
  SLUICE_EVENT_STOP_REQUEST,
  SLUICE_EVENT_DRAIN,
  SLUICE_EVENT_CANCEL,
  SLUICE_EVENT_RESULT,
  SLUICE_EVENT_RUN_END,
} SluiceEventKind;

/**
 * SLUICE_EVENT_N_KINDS:
 *
 * The number of #SluiceEventKind values.
 *
 * Since: 1.0
 */
#define SLUICE_EVENT_N_KINDS (SLUICE_EVENT_RUN_END + 1)

SLUICE_AVAILABLE_IN_1_0
GType sluice_event_kind_get_type (void) G_GNUC_CONST;
#define SLUICE_TYPE_EVENT_KIND (sluice_event_kind_get_type ())

/**
 * SluiceOutcome:
 * @SLUICE_OUTCOME_NONE: not an attempt event, or not finished
 * @SLUICE_OUTCOME_OK: the attempt returned a result in time
 * @SLUICE_OUTCOME_FAILED: the attempt returned an error
 * @SLUICE_OUTCOME_TIMED_OUT: the attempt ran past its deadline
 * @SLUICE_OUTCOME_CANCELLED: the caller cancelled the attempt
 *
 * How an attempt ended.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_OUTCOME_NONE,
  SLUICE_OUTCOME_OK,
  SLUICE_OUTCOME_FAILED,
  SLUICE_OUTCOME_TIMED_OUT,
  SLUICE_OUTCOME_CANCELLED,
} SluiceOutcome;

SLUICE_AVAILABLE_IN_1_0
GType sluice_outcome_get_type (void) G_GNUC_CONST;
#define SLUICE_TYPE_OUTCOME (sluice_outcome_get_type ())

/**
 * SluiceEvent:
 * @kind: what happened
 * @time: the pool's clock time, in microseconds (the events of one step
 *   of the pool's own work, such as an attempt's end, its item's outcome
 *   and its result joining a batch, share one reading of the clock)
 * @item: the item index in pull order, or -1
 * @attempt: the attempt number from 1, or 0
 * @worker: the worker index, or -1
 * @round: the cancel-request round (1–3), or 0
 * @outcome: for attempt ends
 * @retried: for attempt ends: the pool will retry this failure
 * @error_type: (nullable): the error's type name
 * @error_message: (nullable): the error's message
 * @value: (nullable): the item (pulls), the result (item ok, result), or
 *   the value a timed-out attempt's handler returned after its deadline,
 *   which the pool threw away (attempt end, outcome timed-out)
 * @delay: the backoff in microseconds (backoff, retry-skipped for the
 *   deadline), or -1
 * @reason: (nullable): why a retry was skipped: `deadline` or `budget`
 * @tokens: the retry budget left, in thousandths of a token, or -1 when
 *   the pool has no budget
 * @queued: items in the input channel
 * @in_flight: attempts running
 * @pulled: items pulled so far
 * @succeeded: items that succeeded so far
 * @failed: items that failed for good so far
 * @retries: retries so far
 * @lead: items pulled and not yet handled successfully
 * @deadline: for attempt starts: the clock time (µs) at which the attempt
 *   times out, the instant its timer is set for: the item timeout after
 *   its start, or the item's deadline (#SluicePool:item-deadline after
 *   it was pulled or submitted) when that comes first; -1 for every other event
 * @queue_capacity: for the run start: the input channel's capacity
 *   (#SluicePool:queue-size); 0 for every other event
 * @lead_bound: for the run start: the most items the producer pulls ahead
 *   of the ones handled, `queue-size + workers + 1` (the `+ 1` is the item
 *   it holds while it waits for room); 0 for every other event. In a
 *   service run (sluice_pool_open()) a submission counts as pulled from
 *   its call, so one caller submitting one job at a time, as the scenario
 *   runner's submitter does, is held to the same bound, the `+ 1` being
 *   its submission that waits for room. Items that failed for good stay in
 *   @lead, and so do a service run's refused submissions, so with
 *   #SluicePool:keep-going, or in a service run, failures and refusals can
 *   take the lead past its bound
 * @item_timeout: for the run start: #SluicePool:item-timeout in whole
 *   microseconds, the time each attempt may run and each cancel round
 *   waits; -1 for every other event
 *
 * One record of the event stream. The events a run gives its
 * #SluiceEventFunc borrow their strings and value for the duration of the
 * call: keep a copy, made with sluice_event_copy() or
 * sluice_event_copy_into(), which owns them. A recorder, a list model or
 * a binding keeps such copies: #SluiceEvent is a boxed type.
 *
 * Which fields an event fills depends on its kind; for item failures
 * @attempt is the number of the attempt that failed for good (0 when the
 * item was shed before its first attempt).
 *
 * Since: 1.0
 */
typedef struct {
  SluiceEventKind  kind;
  gint64           time;
  gint64           item;
  guint            attempt;
  gint             worker;
  guint            round;
  SluiceOutcome    outcome;
  gboolean         retried;
  const char      *error_type;
  const char      *error_message;
  GVariant        *value;
  gint64           delay;
  const char      *reason;
  gint64           tokens;
  guint            queued;
  guint            in_flight;
  guint            pulled;
  guint            succeeded;
  guint            failed;
  guint            retries;
  guint            lead;
  gint64           deadline;
  guint            queue_capacity;
  guint            lead_bound;
  gint64           item_timeout;
} SluiceEvent;

#define SLUICE_TYPE_EVENT (sluice_event_get_type ())

/**
 * SluiceEventFunc:
 * @event: the event, valid during the call
 * @user_data: the data given with the function
 *
 * Receives the event stream of a run, on the pool's main context.
 *
 * Since: 1.0
 */
typedef void (*SluiceEventFunc) (const SluiceEvent *event,
                                 gpointer           user_data);

SLUICE_AVAILABLE_IN_1_0
GType        sluice_event_get_type         (void) G_GNUC_CONST;
SLUICE_AVAILABLE_IN_1_0
SluiceEvent *sluice_event_copy             (const SluiceEvent *event);
SLUICE_AVAILABLE_IN_1_0
void         sluice_event_free             (SluiceEvent       *event);
SLUICE_AVAILABLE_IN_1_0
void         sluice_event_copy_into        (SluiceEvent       *dest,
                                            const SluiceEvent *src);
SLUICE_AVAILABLE_IN_1_0
void         sluice_event_clear            (SluiceEvent       *event);

SLUICE_AVAILABLE_IN_1_0
const char  *sluice_event_kind_to_string   (SluiceEventKind kind);
SLUICE_AVAILABLE_IN_1_0
const char  *sluice_outcome_to_string      (SluiceOutcome   outcome);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceEvent, sluice_event_free)
SLUICE_AVAILABLE_IN_1_0
gboolean    sluice_event_kind_from_string  (const char      *name,
                                            SluiceEventKind *kind);
SLUICE_AVAILABLE_IN_1_0
gboolean    sluice_outcome_from_string     (const char      *name,
                                            SluiceOutcome   *outcome);

SLUICE_AVAILABLE_IN_1_0
GVariant    *sluice_event_to_variant       (const SluiceEvent *event);
SLUICE_AVAILABLE_IN_1_0
SluiceEvent *sluice_event_new_from_variant (GVariant          *variant,
                                            GError           **error);

G_END_DECLS
