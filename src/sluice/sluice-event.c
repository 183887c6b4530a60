/* sluice-event.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-event.h"

/**
 * SECTION:sluice-event
 * @Title: SluiceEvent
 *
 * The records of a run's event stream. A run gives each one to its
 * #SluiceEventFunc with borrowed strings and value, for the duration of the
 * call; sluice_event_copy() and sluice_event_copy_into() make copies that
 * own theirs, for a recorder, a list model or a binding (#SluiceEvent is a
 * boxed type).
 */

G_DEFINE_BOXED_TYPE (SluiceEvent, sluice_event, sluice_event_copy, sluice_event_free)

G_DEFINE_ENUM_TYPE (SluiceEventKind, sluice_event_kind,
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_RUN_START, "run-start"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_PULL, "pull"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_SOURCE_END, "source-end"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_SOURCE_ERROR, "source-error"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_QUEUE_PUT, "queue-put"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_QUEUE_GET, "queue-get"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_ATTEMPT_START, "attempt-start"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_ATTEMPT_END, "attempt-end"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_CANCEL_REQUEST, "cancel-request"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_IGNORING_CANCEL, "ignoring-cancel"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_RETRY, "retry"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_BACKOFF, "backoff"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_RETRY_SKIPPED, "retry-skipped"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_DEADLINE_EXCEEDED, "deadline-exceeded"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_ITEM_OK, "item-ok"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_ITEM_FAILED, "item-failed"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_ITEM_DROPPED, "item-dropped"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_ITEM_CANCELLED, "item-cancelled"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_FATAL, "fatal"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_SHUTDOWN_DEADLINE, "shutdown-deadline"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_OVERRUN, "overrun"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_STOP_REQUEST, "stop-request"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_DRAIN, "drain"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_CANCEL, "cancel"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_RESULT, "result"),
  G_DEFINE_ENUM_VALUE (SLUICE_EVENT_RUN_END, "run-end"))

G_DEFINE_ENUM_TYPE (SluiceOutcome, sluice_outcome,
  G_DEFINE_ENUM_VALUE (SLUICE_OUTCOME_NONE, "none"),
  G_DEFINE_ENUM_VALUE (SLUICE_OUTCOME_OK, "ok"),
  G_DEFINE_ENUM_VALUE (SLUICE_OUTCOME_FAILED, "failed"),
  G_DEFINE_ENUM_VALUE (SLUICE_OUTCOME_TIMED_OUT, "timed-out"),
  G_DEFINE_ENUM_VALUE (SLUICE_OUTCOME_CANCELLED, "cancelled"))

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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
 */
const char *
sluice_outcome_to_string (SluiceOutcome outcome)
{
  g_return_val_if_fail (outcome <= SLUICE_OUTCOME_CANCELLED, NULL);

  return outcome_names[outcome];
}

/**
 * sluice_event_kind_from_string:
 * @name: a kind's name, such as `attempt-start`
 * @kind: (out): where to put the kind
 *
 * The inverse of sluice_event_kind_to_string(), for reading event logs.
 *
 * Returns: whether @name is a kind's name; @kind is left alone when not
 *
 * Since: 0.1
 */
gboolean
sluice_event_kind_from_string (const char      *name,
                               SluiceEventKind *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; name != NULL && i < SLUICE_EVENT_N_KINDS; i++)
    if (g_str_equal (name, kind_names[i]))
      {
        *kind = (SluiceEventKind) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * sluice_outcome_from_string:
 * @name: an outcome's name, such as `timed-out`
 * @outcome: (out): where to put the outcome
 *
 * The inverse of sluice_outcome_to_string().
 *
 * Returns: whether @name is an outcome's name; @outcome is left alone when
 *   not
 *
 * Since: 0.1
 */
gboolean
sluice_outcome_from_string (const char    *name,
                            SluiceOutcome *outcome)
{
  g_return_val_if_fail (outcome != NULL, FALSE);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (outcome_names); i++)
    if (g_str_equal (name, outcome_names[i]))
      {
        *outcome = (SluiceOutcome) i;
        return TRUE;
      }
  return FALSE;
}

/**
 * sluice_event_copy_into:
 * @dest: (out caller-allocates): where to copy; its previous content is
 *   overwritten, not cleared
 * @src: an event, borrowed or owned
 *
 * Copies @src into @dest, which then owns its strings and value: free
 * them with sluice_event_clear(). This is the deep copy of every
 * #SluiceEvent that is kept, in place (a recorder's array) or on the heap
 * (sluice_event_copy()).
 *
 * Since: 0.1
 */
void
sluice_event_copy_into (SluiceEvent       *dest,
                        const SluiceEvent *src)
{
  g_return_if_fail (dest != NULL);
  g_return_if_fail (src != NULL);

  *dest = *src;
  dest->error_type = g_strdup (src->error_type);
  dest->error_message = g_strdup (src->error_message);
  dest->value = src->value != NULL ? g_variant_ref (src->value) : NULL;
  /* A few fixed words (`deadline`, `budget`): interned, never freed, so
   * they outlive the event that named them without a copy per event. */
  dest->reason = g_intern_string (src->reason);
}

/**
 * sluice_event_clear:
 * @event: an event filled by sluice_event_copy_into()
 *
 * Frees what @event owns, its strings and value, and leaves them %NULL.
 * Never call it on an event a run gave: those are borrowed.
 *
 * Since: 0.1
 */
void
sluice_event_clear (SluiceEvent *event)
{
  g_return_if_fail (event != NULL);

  g_clear_pointer ((char **) &event->error_type, g_free);
  g_clear_pointer ((char **) &event->error_message, g_free);
  g_clear_pointer (&event->value, g_variant_unref);
  event->reason = NULL;
}

/**
 * sluice_event_copy:
 * @event: an event, borrowed or owned
 *
 * Copies @event onto the heap, with its own copies of the strings and a
 * reference to the value, so the copy outlives the callback that gave
 * @event.
 *
 * Returns: (transfer full): the copy; free it with sluice_event_free()
 *
 * Since: 0.1
 */
SluiceEvent *
sluice_event_copy (const SluiceEvent *event)
{
  SluiceEvent *copy;

  g_return_val_if_fail (event != NULL, NULL);

  copy = g_new (SluiceEvent, 1);
  sluice_event_copy_into (copy, event);
  return copy;
}

/**
 * sluice_event_free:
 * @event: (nullable): an event from sluice_event_copy()
 *
 * Frees a copy and everything it owns.
 *
 * Since: 0.1
 */
void
sluice_event_free (SluiceEvent *event)
{
  if (event == NULL)
    return;

  sluice_event_clear (event);
  g_free (event);
}
