/* sluice-event.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-event.h"

static const char * const kind_names[SLUICE_EVENT_N_KINDS] = {
  [SLUICE_EVENT_RUN_START] = "run-start",
  [SLUICE_EVENT_PULL] = "pull",
  [SLUICE_EVENT_SOURCE_END] = "source-end",
  [SLUICE_EVENT_SOURCE_ERROR] = "source-error",
  [SLUICE_EVENT_QUEUE_PUT] = "queue-put",
  [SLUICE_EVENT_QUEUE_GET] = "queue-get",
  [SLUICE_EVENT_ATTEMPT_START] = "attempt-start",
  [SLUICE_EVENT_ATTEMPT_END] = "attempt-end",
  [SLUICE_EVENT_CANCEL_REQUEST] = "cancel-request",
  [SLUICE_EVENT_IGNORING_CANCEL] = "ignoring-cancel",
  [SLUICE_EVENT_RETRY] = "retry",
  [SLUICE_EVENT_BACKOFF] = "backoff",
  [SLUICE_EVENT_RETRY_SKIPPED] = "retry-skipped",
  [SLUICE_EVENT_DEADLINE_EXCEEDED] = "deadline-exceeded",
  [SLUICE_EVENT_ITEM_OK] = "item-ok",
  [SLUICE_EVENT_ITEM_FAILED] = "item-failed",
  [SLUICE_EVENT_ITEM_DROPPED] = "item-dropped",
  [SLUICE_EVENT_ITEM_CANCELLED] = "item-cancelled",
  [SLUICE_EVENT_FATAL] = "fatal",
  [SLUICE_EVENT_SHUTDOWN_DEADLINE] = "shutdown-deadline",
  [SLUICE_EVENT_OVERRUN] = "overrun",
  [SLUICE_EVENT_STOP_REQUEST] = "stop-request",
  [SLUICE_EVENT_DRAIN] = "drain",
  [SLUICE_EVENT_CANCEL] = "cancel",
  [SLUICE_EVENT_RESULT] = "result",
  [SLUICE_EVENT_RUN_END] = "run-end",
};

static const char * const outcome_names[] = {
  [SLUICE_OUTCOME_NONE] = "none",
  [SLUICE_OUTCOME_OK] = "ok",
  [SLUICE_OUTCOME_FAILED] = "failed",
  [SLUICE_OUTCOME_TIMED_OUT] = "timed-out",
  [SLUICE_OUTCOME_CANCELLED] = "cancelled",
};

/**
 * sluice_event_kind_to_string:
 * @kind: an event kind
 *
 * Gives the stable name of @kind used in event logs, such as
 * `attempt-start`.
 *
 * Returns: (transfer none): the name
 */
const char *
sluice_event_kind_to_string (SluiceEventKind kind)
{
  g_return_val_if_fail (kind < SLUICE_EVENT_N_KINDS, NULL);

  return kind_names[kind];
}

/**
 * sluice_outcome_to_string:
 * @outcome: an attempt outcome
 *
 * Gives the stable name of @outcome, such as `timed-out`.
 *
 * Returns: (transfer none): the name
 */
const char *
sluice_outcome_to_string (SluiceOutcome outcome)
{
  g_return_val_if_fail (outcome <= SLUICE_OUTCOME_CANCELLED, NULL);

  return outcome_names[outcome];
}
