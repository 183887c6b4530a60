/* sluice-event-item.c: one recorded event as a list item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-event-item.h"

/**
 * SluiceEventItem:
 *
 * A copy of one #SluiceEvent, for the list models of the event log and the
 * error group. @position is the event's number in the run, from 0. The
 * event log makes them on demand, for the rows it shows
 * (#SluiceEventList).
 */

struct _SluiceEventItem
{
  GObject      parent_instance;

  SluiceEvent  event;     /* owns its strings and value */
  guint64      position;
};

G_DEFINE_FINAL_TYPE (SluiceEventItem, sluice_event_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_POSITION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- names shown to users ---------------------------------------------- */

/* What the event log shows for each kind. The stable names of
 * sluice_event_kind_to_string() stay for exports, and the text filter
 * matches both. */
static const char * const kind_display_names[SLUICE_EVENT_N_KINDS] = {
  /* Translators: an event kind, shown in the event log and its kind filter.
   * Translate it as a short name; exports keep the English “run-start”. */
  [SLUICE_EVENT_RUN_START] = NC_("event kind", "run-start"),
  /* Translators: an event kind: the pool pulled an item from the source. */
  [SLUICE_EVENT_PULL] = NC_("event kind", "pull"),
  /* Translators: an event kind: the source has no more items. */
  [SLUICE_EVENT_SOURCE_END] = NC_("event kind", "source-end"),
  /* Translators: an event kind: the source raised an error. */
  [SLUICE_EVENT_SOURCE_ERROR] = NC_("event kind", "source-error"),
  /* Translators: an event kind: an item went into the queue. */
  [SLUICE_EVENT_QUEUE_PUT] = NC_("event kind", "queue-put"),
  /* Translators: an event kind: a worker took an item from the queue. */
  [SLUICE_EVENT_QUEUE_GET] = NC_("event kind", "queue-get"),
  /* Translators: an event kind: an attempt (a call of the handler) started. */
  [SLUICE_EVENT_ATTEMPT_START] = NC_("event kind", "attempt-start"),
  /* Translators: an event kind: an attempt ended. */
  [SLUICE_EVENT_ATTEMPT_END] = NC_("event kind", "attempt-end"),
  /* Translators: an event kind: the pool asked an attempt to stop. */
  [SLUICE_EVENT_CANCEL_REQUEST] = NC_("event kind", "cancel-request"),
  /* Translators: an event kind: an attempt ignores the request to stop. */
  [SLUICE_EVENT_IGNORING_CANCEL] = NC_("event kind", "ignoring-cancel"),
  /* Translators: an event kind: an item gets another attempt. */
  [SLUICE_EVENT_RETRY] = NC_("event kind", "retry"),
  /* Translators: an event kind: a retry waits (backs off) before it starts. */
  [SLUICE_EVENT_BACKOFF] = NC_("event kind", "backoff"),
  /* Translators: an event kind: the retry policy refused a retry (deadline or budget). */
  [SLUICE_EVENT_RETRY_SKIPPED] = NC_("event kind", "retry-skipped"),
  /* Translators: an event kind: an item's deadline passed while it waited in the queue; it is dropped. */
  [SLUICE_EVENT_DEADLINE_EXCEEDED] = NC_("event kind", "deadline-exceeded"),
  /* Translators: an event kind: an item succeeded. */
  [SLUICE_EVENT_ITEM_OK] = NC_("event kind", "item-ok"),
  /* Translators: an event kind: an item failed for good. */
  [SLUICE_EVENT_ITEM_FAILED] = NC_("event kind", "item-failed"),
  /* Translators: an event kind: an item was dropped unhandled. */
  [SLUICE_EVENT_ITEM_DROPPED] = NC_("event kind", "item-dropped"),
  /* Translators: an event kind: an item was cancelled. */
  [SLUICE_EVENT_ITEM_CANCELLED] = NC_("event kind", "item-cancelled"),
  /* Translators: an event kind: an attempt failed with a fatal error; the pool stops at once. */
  [SLUICE_EVENT_FATAL] = NC_("event kind", "fatal"),
  /* Translators: an event kind: the shutdown deadline fired; the rest is cancelled. */
  [SLUICE_EVENT_SHUTDOWN_DEADLINE] = NC_("event kind", "shutdown-deadline"),
  /* Translators: an event kind: an attempt ended after the shutdown deadline. */
  [SLUICE_EVENT_OVERRUN] = NC_("event kind", "overrun"),
  /* Translators: an event kind: a stop (drain) was requested. */
  [SLUICE_EVENT_STOP_REQUEST] = NC_("event kind", "stop-request"),
  /* Translators: an event kind: the pool drains what it has. */
  [SLUICE_EVENT_DRAIN] = NC_("event kind", "drain"),
  /* Translators: an event kind: the run was cancelled. */
  [SLUICE_EVENT_CANCEL] = NC_("event kind", "cancel"),
  /* Translators: an event kind: the run yielded a result. */
  [SLUICE_EVENT_RESULT] = NC_("event kind", "result"),
  /* Translators: an event kind: the run ended. */
  [SLUICE_EVENT_RUN_END] = NC_("event kind", "run-end"),
};

static const char * const outcome_display_names[] = {
  [SLUICE_OUTCOME_NONE] = NULL,
  /* Translators: the outcome of an attempt, in the event log's details. */
  [SLUICE_OUTCOME_OK] = NC_("outcome", "ok"),
  /* Translators: the outcome of an attempt, in the event log's details. */
  [SLUICE_OUTCOME_FAILED] = NC_("outcome", "failed"),
  /* Translators: the outcome of an attempt, in the event log's details. */
  [SLUICE_OUTCOME_TIMED_OUT] = NC_("outcome", "timed-out"),
  /* Translators: the outcome of an attempt, in the event log's details. */
  [SLUICE_OUTCOME_CANCELLED] = NC_("outcome", "cancelled"),
};

/**
 * sluice_event_items_flush:
 * @store: a #GListStore of #SluiceEventItem
 * @pending: (element-type SluiceEventItem): the items to add; emptied
 *
 * Appends @pending to @store in one change: the views over @store handle
 * one change a frame, not one an event, however fast the run.
 *
 * Returns: whether there was anything to add
 */
gboolean
sluice_event_items_flush (GListStore *store,
                          GPtrArray  *pending)
{
  g_return_val_if_fail (G_IS_LIST_STORE (store), FALSE);
  g_return_val_if_fail (pending != NULL, FALSE);

  if (pending->len == 0)
    return FALSE;

  g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0, pending->pdata, pending->len);
  g_ptr_array_set_size (pending, 0);
  return TRUE;
}

/**
 * sluice_event_kind_get_display_name:
 * @kind: an event kind
 *
 * Returns: (transfer none): the name of @kind shown to users, translated;
 *   sluice_event_kind_to_string() gives the stable name
 */
const char *
sluice_event_kind_get_display_name (SluiceEventKind kind)
{
  g_return_val_if_fail (kind < SLUICE_EVENT_N_KINDS, NULL);

  return g_dpgettext2 (GETTEXT_PACKAGE, "event kind", kind_display_names[kind]);
}

/**
 * sluice_outcome_get_display_name:
 * @outcome: an attempt outcome
 *
 * Returns: (transfer none): the outcome shown to users, translated, or ""
 *   for %SLUICE_OUTCOME_NONE
 */
const char *
sluice_outcome_get_display_name (SluiceOutcome outcome)
{
  g_return_val_if_fail ((guint) outcome < G_N_ELEMENTS (outcome_display_names), NULL);

  if (outcome_display_names[outcome] == NULL)
    return "";
  return g_dpgettext2 (GETTEXT_PACKAGE, "outcome", outcome_display_names[outcome]);
}

static void
sluice_event_item_finalize (GObject *object)
{
  SluiceEventItem *self = SLUICE_EVENT_ITEM (object);

  sluice_event_clear (&self->event);

  G_OBJECT_CLASS (sluice_event_item_parent_class)->finalize (object);
}

static void
sluice_event_item_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SluiceEventItem *self = SLUICE_EVENT_ITEM (object);

  switch (prop_id)
    {
    case PROP_POSITION:
      g_value_set_uint64 (value, self->position);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_event_item_class_init (SluiceEventItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_event_item_finalize;
  object_class->get_property = sluice_event_item_get_property;

  /**
   * SluiceEventItem:position:
   *
   * The event's number in the run; notified when the item is made to hold
   * another event (sluice_event_item_set()).
   */
  properties[PROP_POSITION] =
    g_param_spec_uint64 ("position", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_event_item_init (SluiceEventItem *self)
{
}

/**
 * sluice_event_item_new:
 * @event: the event; it is copied
 * @position: its number in the run
 *
 * Returns: (transfer full): a new item
 */
SluiceEventItem *
sluice_event_item_new (const SluiceEvent *event,
                       guint64            position)
{
  SluiceEventItem *self;

  g_return_val_if_fail (event != NULL, NULL);

  self = g_object_new (SLUICE_TYPE_EVENT_ITEM, NULL);
  sluice_event_copy_into (&self->event, event);
  self->position = position;

  return self;
}

/**
 * sluice_event_item_get_event:
 * @self: a #SluiceEventItem
 *
 * Returns: (transfer none): the event
 */
const SluiceEvent *
sluice_event_item_get_event (SluiceEventItem *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), NULL);
  return &self->event;
}

/**
 * sluice_event_item_get_position:
 * @self: a #SluiceEventItem
 *
 * Returns: the event's number in the run, from 0
 */
guint64
sluice_event_item_get_position (SluiceEventItem *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), 0);
  return self->position;
}

/**
 * sluice_event_item_set:
 * @self: a #SluiceEventItem
 * @event: another event; it is copied
 * @position: its number in the run
 *
 * Makes @self hold @event, and notifies #SluiceEventItem:position: a list
 * whose every row changes at once (the tail of a fast run's log) keeps
 * its items, and a view its row widgets, instead of replacing them.
 */
void
sluice_event_item_set (SluiceEventItem   *self,
                       const SluiceEvent *event,
                       guint64            position)
{
  g_return_if_fail (SLUICE_IS_EVENT_ITEM (self));
  g_return_if_fail (event != NULL);

  sluice_event_clear (&self->event);
  sluice_event_copy_into (&self->event, event);
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

/* Seconds from microseconds, as the event log shows times. */
static double
seconds (gint64 us)
{
  return (double) us / G_USEC_PER_SEC;
}

/* What the retry policy's events say, in a sentence for the event log. */
static void
append_policy_detail (GString           *text,
                      const SluiceEvent *e)
{
  switch (e->kind)
    {
    case SLUICE_EVENT_BACKOFF:
      /* Translators: in the event log's details: a retry waits before it
       * starts; %.3f is the wait in seconds, %u the next attempt's number */
      g_string_append_printf (text, _("waits %.3f s before attempt %u"), seconds (e->delay), e->attempt + 1);
      break;
    case SLUICE_EVENT_RETRY_SKIPPED:
      if (g_strcmp0 (e->reason, "deadline") == 0 && e->delay >= 0)
        /* Translators: in the event log's details: the retry policy did not
         * retry, because the wait (%.3f seconds) would end past the item's
         * deadline; “deadline” is the reason as exports write it */
        g_string_append_printf (text, _("retry skipped: deadline — the %.3f s wait would end past it"),
                                seconds (e->delay));
      else if (g_strcmp0 (e->reason, "deadline") == 0)
        /* Translators: in the event log's details: the retry policy did not
         * retry, because the item's deadline has come (no backoff) */
        g_string_append (text, _("retry skipped: deadline — no time is left before it"));
      else if (g_strcmp0 (e->reason, "budget") == 0)
        /* Translators: in the event log's details: the retry policy did not
         * retry, because half the retry budget or less is left; “budget”
         * is the reason as exports write it */
        g_string_append (text, _("retry skipped: budget — half or less of it is left"));
      else
        /* Translators: in the event log's details; %s is the reason, such
         * as deadline or budget */
        g_string_append_printf (text, _("retry skipped: %s"), e->reason ? e->reason : "");
      break;
    case SLUICE_EVENT_DEADLINE_EXCEEDED:
      /* Translators: in the event log's details: a worker took an item whose
       * deadline had passed while it waited in the queue, and dropped it */
      g_string_append (text, _("shed: its deadline passed in the queue"));
      break;
    default:
      break;
    }
}

/* What the events of a fatal stop and of the shutdown deadline say. */
static void
append_shutdown_detail (GString           *text,
                        const SluiceEvent *e)
{
  switch (e->kind)
    {
    case SLUICE_EVENT_FATAL:
      /* Translators: in the event log's details: an attempt failed with an
       * error listed as fatal; the error's type and message follow */
      g_string_append (text, _("fatal: the pool stops at once, without a drain"));
      break;
    case SLUICE_EVENT_SHUTDOWN_DEADLINE:
      /* Translators: in the event log's details: the shutdown timeout ran
       * out before the drain ended */
      g_string_append (text, _("the shutdown deadline fired: queued items are dropped, running ones cancelled once"));
      break;
    case SLUICE_EVENT_OVERRUN:
      /* Translators: in the event log's details: an attempt ignored its
       * cancellation and ended after the shutdown deadline */
      g_string_append (text, _("ended after the shutdown deadline: its handler ignores cancellation"));
      break;
    default:
      break;
    }
}

/**
 * sluice_event_dup_detail:
 * @e: an event
 *
 * Returns: (transfer full): what the event says besides its kind, item,
 *   attempt and worker: the outcome, the error, the value or the round;
 *   for the retry policy's events, the wait, why a retry was skipped or
 *   why an item was shed; for a fatal error, the shutdown deadline and an
 *   overrun, what they mean
 */
char *
sluice_event_dup_detail (const SluiceEvent *e)
{
  GString *text;

  g_return_val_if_fail (e != NULL, NULL);

  text = g_string_new (NULL);

  append_policy_detail (text, e);
  append_shutdown_detail (text, e);

  if (e->outcome != SLUICE_OUTCOME_NONE)
    g_string_append_printf (text, "%s%s", text->len ? ", " : "", sluice_outcome_get_display_name (e->outcome));
  if (e->retried)
    g_string_append_printf (text, "%s%s", text->len ? ", " : "", _("will retry"));
  if (e->round > 0)
    {
      g_string_append (text, text->len ? ", " : "");
      /* Translators: in the event log's details: the round of requests to
       * stop an attempt, counted from 1. */
      g_string_append_printf (text, _("round %u"), e->round);
    }
  if (e->error_type != NULL)
    g_string_append_printf (text, "%s%s: %s", text->len ? " — " : "", e->error_type,
                            e->error_message ? e->error_message : "");
  if (e->value != NULL)
    {
      g_autofree char *value = g_variant_print (e->value, FALSE);
      g_string_append_printf (text, "%s%s", text->len ? " — " : "", value);
    }

  return g_string_free (text, FALSE);
}

/**
 * sluice_event_item_dup_detail:
 * @self: a #SluiceEventItem
 *
 * Returns: (transfer full): sluice_event_dup_detail() of its event
 */
char *
sluice_event_item_dup_detail (SluiceEventItem *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_ITEM (self), NULL);
  return sluice_event_dup_detail (&self->event);
}

/**
 * sluice_event_dup_search_text:
 * @e: an event
 *
 * Returns: (transfer full): the lower-case text the event log's text
 *   filter searches: the kind (its stable and its shown name), item,
 *   attempt, worker and detail, and the outcome's stable name
 */
char *
sluice_event_dup_search_text (const SluiceEvent *e)
{
  g_autofree char *detail = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (e != NULL, NULL);

  detail = sluice_event_dup_detail (e);
  /* The stable kind and outcome names match as well as the shown ones. */
  text = g_strdup_printf ("%s %s item %" G_GINT64_FORMAT " attempt %u worker %d %s %s",
                          sluice_event_kind_to_string (e->kind),
                          sluice_event_kind_get_display_name (e->kind),
                          e->item, e->attempt, e->worker, detail,
                          e->outcome != SLUICE_OUTCOME_NONE ? sluice_outcome_to_string (e->outcome) : "");
  return g_utf8_strdown (text, -1);
}
