/* sluice-event.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-event-private.h"

#include <stddef.h>

#include "sluice-error.h"

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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
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
 * Since: 1.0
 */
void
sluice_event_copy_into (SluiceEvent       *dest,
                        const SluiceEvent *src)
{
  g_return_if_fail (dest != NULL);
  g_return_if_fail (src != NULL);

  _sluice_event_copy_into (dest, src);
}

/**
 * sluice_event_clear:
 * @event: an event filled by sluice_event_copy_into()
 *
 * Frees what @event owns, its strings and value, and leaves them %NULL.
 * Never call it on an event a run gave: those are borrowed.
 *
 * Since: 1.0
 */
void
sluice_event_clear (SluiceEvent *event)
{
  g_return_if_fail (event != NULL);

  _sluice_event_clear (event);
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
 * Since: 1.0
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
 * Since: 1.0
 */
void
sluice_event_free (SluiceEvent *event)
{
  if (event == NULL)
    return;

  sluice_event_clear (event);
  g_free (event);
}

/* ---- an event as a{sv} -------------------------------------------------- */

/* Only backoffs and retries skipped for the deadline have a delay: the
 * rule of the JSON Lines writer (sluice-recorder.c), which the variant
 * follows key for key. */
static gboolean
has_delay (const SluiceEvent *event)
{
  return (event->kind == SLUICE_EVENT_BACKOFF || event->kind == SLUICE_EVENT_RETRY_SKIPPED) &&
         event->delay >= 0;
}

/* The dictionary is written straight in GVariant's serialised form (the
 * normal form, as GVariantBuilder would make it): building it entry by
 * entry from GVariant instances costs some 30 allocations and type lookups
 * per event, several microseconds, on the pool's main loop, for every
 * event an export sends.
 *
 * The format (GVariant specification, "Serialisation"): a value is aligned
 * to its type's alignment (b 1, i and u 4, x and d 8, a string 1, a
 * variant and a{sv} 8) from the start of its container. A {sv} entry is
 * the key with its nul byte, padding, the variant, and the key's end as a
 * framing offset; a variant is its value, a nul byte and the value's type
 * string; an array of variable-sized elements is the elements, each
 * aligned, then the end of each as a framing offset. A framing offset is
 * little-endian, of the smallest of 1, 2, 4 or 8 bytes that lets the
 * container's whole size be written. Values are in the host's order. */

static void
put (GByteArray *out,
     const void *data,
     gsize       size)
{
  if (size > 0)
    g_byte_array_append (out, data, size);
}

static void
pad (GByteArray *out,
     gsize       start,
     gsize       alignment)
{
  static const guint8 zeros[8] = { 0 };
  gsize n = (alignment - (out->len - start) % alignment) % alignment;

  put (out, zeros, n);
}

static guint
offset_size (gsize body,
             gsize n_offsets)
{
  if (body + n_offsets <= G_MAXUINT8)
    return 1;
  if (body + 2 * n_offsets <= G_MAXUINT16)
    return 2;
  if (body + 4 * n_offsets <= G_MAXUINT32)
    return 4;
  return 8;
}

static void
put_offset (GByteArray *out,
            guint64     value,
            guint       size)
{
  guint8 bytes[8];

  for (guint i = 0; i < size; i++)
    bytes[i] = (guint8) (value >> (8 * i));
  put (out, bytes, size);
}

/* The framing offsets of an array whose elements end at @ends (from the
 * array's start at @start). */
static void
put_array_offsets (GByteArray *out,
                   gsize       start,
                   GArray     *ends)
{
  guint size = offset_size (out->len - start, ends->len);

  for (guint i = 0; i < ends->len; i++)
    put_offset (out, g_array_index (ends, guint64, i), size);
}

typedef struct
{
  GByteArray *out;
  gsize       start;   /* of the a{sv}, 8-aligned in @out */
  GArray     *ends;    /* guint64: each entry's end, from @start */
} DictWriter;

static void
put_entry (DictWriter  *w,
           const char  *key,
           const void  *data,
           gsize        size,
           const char  *type)
{
  gsize entry;
  gsize key_end;
  guint64 end;

  pad (w->out, w->start, 8);
  entry = w->out->len;
  put (w->out, key, strlen (key) + 1);
  key_end = w->out->len - entry;
  pad (w->out, entry, 8);
  put (w->out, data, size);
  put (w->out, "", 1);
  put (w->out, type, strlen (type));
  put_offset (w->out, key_end, offset_size (w->out->len - entry, 1));

  end = w->out->len - w->start;
  g_array_append_val (w->ends, end);
}

static void
put_int64 (DictWriter *w,
           const char *key,
           gint64      value)
{
  put_entry (w, key, &value, sizeof value, "x");
}

static void
put_int32 (DictWriter *w,
           const char *key,
           gint32      value)
{
  put_entry (w, key, &value, sizeof value, "i");
}

static void
put_uint32 (DictWriter *w,
            const char *key,
            guint32     value)
{
  put_entry (w, key, &value, sizeof value, "u");
}

static void
put_double (DictWriter *w,
            const char *key,
            double      value)
{
  put_entry (w, key, &value, sizeof value, "d");
}

static void
put_boolean (DictWriter *w,
             const char *key,
             gboolean    value)
{
  guint8 byte = value ? 1 : 0;

  put_entry (w, key, &byte, 1, "b");
}

/* A string of the event (an error's message comes from a handler): made
 * valid UTF-8 if it is not, as a D-Bus string must be. */
static void
put_string (DictWriter *w,
            const char *key,
            const char *value)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (value, -1, NULL))
    value = valid = g_utf8_make_valid (value, -1);
  put_entry (w, key, value, strlen (value) + 1, "s");
}

static void
put_value (DictWriter *w,
           const char *key,
           GVariant   *value)
{
  put_entry (w, key, g_variant_get_data (value), g_variant_get_size (value), g_variant_get_type_string (value));
}

/* Appends @event's a{sv} to @out, at the next 8-aligned offset from
 * @container (the start of the array it is in, or of @out). */
static void
put_event (GByteArray        *out,
           gsize              container,
           GArray            *ends,
           const SluiceEvent *event)
{
  DictWriter w;

  pad (out, container, 8);
  w.out = out;
  w.start = out->len;
  w.ends = ends;
  g_array_set_size (ends, 0);

  put_string (&w, "kind", kind_names[event->kind]);
  put_int64 (&w, "time_us", event->time);
  put_double (&w, "time", (double) event->time / G_USEC_PER_SEC);

  if (event->item >= 0)
    put_int64 (&w, "item", event->item);
  if (event->attempt > 0)
    put_uint32 (&w, "attempt", event->attempt);
  if (event->worker >= 0)
    put_int32 (&w, "worker", event->worker);
  if (event->round > 0)
    put_uint32 (&w, "round", event->round);
  if (event->outcome != SLUICE_OUTCOME_NONE)
    {
      put_string (&w, "outcome", sluice_outcome_to_string (event->outcome));
      put_boolean (&w, "retried", event->retried);
    }
  if (event->error_type != NULL)
    put_string (&w, "error_type", event->error_type);
  if (event->error_message != NULL)
    put_string (&w, "error_message", event->error_message);
  if (event->value != NULL)
    put_value (&w, "value", event->value);

  if (has_delay (event))
    put_int64 (&w, "delay_us", event->delay);
  if (event->reason != NULL)
    put_string (&w, "reason", event->reason);
  if (event->tokens >= 0)
    put_int64 (&w, "tokens", event->tokens);
  if (event->kind == SLUICE_EVENT_ATTEMPT_START && event->deadline >= 0)
    {
      put_int64 (&w, "deadline_us", event->deadline);
      put_double (&w, "deadline", (double) event->deadline / G_USEC_PER_SEC);
    }
  if (event->kind == SLUICE_EVENT_RUN_START)
    {
      put_uint32 (&w, "queue_capacity", event->queue_capacity);
      put_uint32 (&w, "lead_bound", event->lead_bound);
      if (event->item_timeout >= 0)
        put_int64 (&w, "item_timeout_us", event->item_timeout);
    }

  put_uint32 (&w, "queued", event->queued);
  put_uint32 (&w, "in_flight", event->in_flight);
  put_uint32 (&w, "pulled", event->pulled);
  put_uint32 (&w, "succeeded", event->succeeded);
  put_uint32 (&w, "failed", event->failed);
  put_uint32 (&w, "retries", event->retries);
  put_uint32 (&w, "lead", event->lead);

  put_array_offsets (out, w.start, ends);
}

static GVariant *
new_from_byte_array (const GVariantType *type,
                     GByteArray         *out)
{
  gsize size = out->len;
  guint8 *data = g_byte_array_free (out, FALSE);

  /* Trusted: the writer makes the normal form. GByteArray's data comes
   * from g_malloc(), aligned for any type. */
  return g_variant_new_from_data (type, data, size, TRUE, g_free, data);
}

/**
 * sluice_event_to_variant:
 * @event: an event, borrowed or owned
 *
 * Gives @event as a dictionary (`a{sv}`) with the keys and values of its
 * line in an event log (`sluice-run --events`, JSON Lines), in the same
 * order: `kind` (s), `time_us` (x) and `time` (d, seconds); then only the
 * keys that apply, as the log writes them: `item` (x), `attempt` (u),
 * `worker` (i), `round` (u), `outcome` (s) with `retried` (b),
 * `error_type` (s), `error_message` (s), `value` (the item, result or late
 * value itself, of whatever type it has), `delay_us` (x), `reason` (s),
 * `tokens` (x), `deadline_us` (x) with `deadline` (d), and on the run
 * start `queue_capacity` (u), `lead_bound` (u) and `item_timeout_us` (x);
 * last the counts `queued`, `in_flight`, `pulled`, `succeeded`, `failed`,
 * `retries` and `lead` (u), always there.
 *
 * This is an event record of the D-Bus interface
 * `io.github.sluicepool.Sluice.Pool1`; sluice_event_new_from_variant()
 * reads it back.
 *
 * Returns: (transfer none): a floating reference to the dictionary
 *
 * Since: 1.0
 */
GVariant *
sluice_event_to_variant (const SluiceEvent *event)
{
  g_autoptr(GArray) ends = NULL;
  GByteArray *out;

  g_return_val_if_fail (event != NULL, NULL);
  g_return_val_if_fail (event->kind < SLUICE_EVENT_N_KINDS, NULL);

  out = g_byte_array_sized_new (512);
  ends = g_array_sized_new (FALSE, FALSE, sizeof (guint64), 32);
  put_event (out, 0, ends, event);
  return new_from_byte_array (G_VARIANT_TYPE_VARDICT, out);
}

/* An array of events (aa{sv}) made in one buffer, for the D-Bus export's
 * batches and replies. */
void
_sluice_event_array_init (SluiceEventArray *self)
{
  self->out = g_byte_array_sized_new (16384);
  self->ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->entry_ends = g_array_sized_new (FALSE, FALSE, sizeof (guint64), 32);
}

void
_sluice_event_array_add (SluiceEventArray  *self,
                         const SluiceEvent *event)
{
  guint64 end;

  g_return_if_fail (event->kind < SLUICE_EVENT_N_KINDS);

  put_event (self->out, 0, self->entry_ends, event);
  end = self->out->len;
  g_array_append_val (self->ends, end);
}

guint
_sluice_event_array_get_length (SluiceEventArray *self)
{
  return self->ends->len;
}

/* Returns: (transfer none): a floating reference to the aa{sv} */
GVariant *
_sluice_event_array_end (SluiceEventArray *self)
{
  GByteArray *out = g_steal_pointer (&self->out);

  put_array_offsets (out, 0, self->ends);
  g_clear_pointer (&self->ends, g_array_unref);
  g_clear_pointer (&self->entry_ends, g_array_unref);
  return new_from_byte_array (G_VARIANT_TYPE ("aa{sv}"), out);
}

/* The reader of the dictionary is its writer backwards, one row per key
 * (like the JSON Lines reader of the scenario layer): a key that is not
 * there keeps the value that makes the writer leave it out again. */
typedef enum {
  KEY_KIND,      /* s, an event kind's name */
  KEY_OUTCOME,   /* s, an outcome's name */
  KEY_INT64,     /* x */
  KEY_INT,       /* i */
  KEY_UINT,      /* u */
  KEY_BOOLEAN,   /* b */
  KEY_STRING,    /* s */
  KEY_VALUE,     /* any type: the value itself */
  KEY_DERIVED,   /* d, written from another key (time from time_us): checked, not stored */
} KeyType;

typedef struct {
  const char *name;
  KeyType     type;
  gsize       offset;
  gint64      min;
} Key;

#define AT(member) offsetof (SluiceEvent, member)

static const Key keys[] = {
  { "kind",            KEY_KIND,    AT (kind),           0 },
  { "time_us",         KEY_INT64,   AT (time),           G_MININT64 },
  { "time",            KEY_DERIVED, 0,                   0 },
  { "item",            KEY_INT64,   AT (item),           0 },
  { "attempt",         KEY_UINT,    AT (attempt),        1 },
  { "worker",          KEY_INT,     AT (worker),         0 },
  { "round",           KEY_UINT,    AT (round),          1 },
  { "outcome",         KEY_OUTCOME, AT (outcome),        0 },
  { "retried",         KEY_BOOLEAN, AT (retried),        0 },
  { "error_type",      KEY_STRING,  AT (error_type),     0 },
  { "error_message",   KEY_STRING,  AT (error_message),  0 },
  { "value",           KEY_VALUE,   AT (value),          0 },
  { "delay_us",        KEY_INT64,   AT (delay),          0 },
  { "reason",          KEY_STRING,  AT (reason),         0 },
  { "tokens",          KEY_INT64,   AT (tokens),         0 },
  { "deadline_us",     KEY_INT64,   AT (deadline),       0 },
  { "deadline",        KEY_DERIVED, 0,                   0 },
  { "queue_capacity",  KEY_UINT,    AT (queue_capacity), 0 },
  { "lead_bound",      KEY_UINT,    AT (lead_bound),     0 },
  { "item_timeout_us", KEY_INT64,   AT (item_timeout),   0 },
  { "queued",          KEY_UINT,    AT (queued),         0 },
  { "in_flight",       KEY_UINT,    AT (in_flight),      0 },
  { "pulled",          KEY_UINT,    AT (pulled),         0 },
  { "succeeded",       KEY_UINT,    AT (succeeded),      0 },
  { "failed",          KEY_UINT,    AT (failed),         0 },
  { "retries",         KEY_UINT,    AT (retries),        0 },
  { "lead",            KEY_UINT,    AT (lead),           0 },
};

#undef AT

static const GVariantType *
key_variant_type (const Key *key)
{
  switch (key->type)
    {
    case KEY_KIND:
    case KEY_OUTCOME:
    case KEY_STRING:
      return G_VARIANT_TYPE_STRING;
    case KEY_INT64:
      return G_VARIANT_TYPE_INT64;
    case KEY_INT:
      return G_VARIANT_TYPE_INT32;
    case KEY_UINT:
      return G_VARIANT_TYPE_UINT32;
    case KEY_BOOLEAN:
      return G_VARIANT_TYPE_BOOLEAN;
    case KEY_DERIVED:
      return G_VARIANT_TYPE_DOUBLE;
    case KEY_VALUE:
    default:
      return G_VARIANT_TYPE_ANY;
    }
}

static gboolean
invalid_event (GError     **error,
               const char  *format,
               ...) G_GNUC_PRINTF (2, 3);

static gboolean
invalid_event (GError     **error,
               const char  *format,
               ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_EVENT, message);
  return FALSE;
}

/* Stores one entry of the dictionary in @event, which owns what it holds. */
static gboolean
read_key (const Key    *key,
          GVariant     *value,
          SluiceEvent  *event,
          GError      **error)
{
  gpointer at = (char *) event + key->offset;
  const GVariantType *type = key_variant_type (key);
  const char *name;
  gint64 number;

  if (!g_variant_is_of_type (value, type))
    return invalid_event (error, "event key “%s”: expected a value of type %.*s, not %s",
                          key->name,
                          (int) g_variant_type_get_string_length (type), g_variant_type_peek_string (type),
                          g_variant_get_type_string (value));

  switch (key->type)
    {
    case KEY_KIND:
      name = g_variant_get_string (value, NULL);
      if (!sluice_event_kind_from_string (name, at))
        return invalid_event (error, "event key “kind”: unknown event kind “%s”", name);
      return TRUE;

    case KEY_OUTCOME:
      name = g_variant_get_string (value, NULL);
      if (!sluice_outcome_from_string (name, at))
        return invalid_event (error, "event key “outcome”: unknown outcome “%s”", name);
      return TRUE;

    case KEY_STRING:
      name = g_variant_get_string (value, NULL);
      if (key->offset == G_STRUCT_OFFSET (SluiceEvent, reason))
        *(const char **) at = g_intern_string (name);
      else
        {
          g_free (*(char **) at);
          *(char **) at = g_strdup (name);
        }
      return TRUE;

    case KEY_VALUE:
      g_clear_pointer ((GVariant **) at, g_variant_unref);
      *(GVariant **) at = g_variant_ref (value);
      return TRUE;

    case KEY_BOOLEAN:
      *(gboolean *) at = g_variant_get_boolean (value);
      return TRUE;

    case KEY_DERIVED:
      return TRUE;

    case KEY_INT64:
      number = g_variant_get_int64 (value);
      break;
    case KEY_INT:
      number = g_variant_get_int32 (value);
      break;
    case KEY_UINT:
      number = g_variant_get_uint32 (value);
      break;
    default:
      g_assert_not_reached ();
    }

  if (number < key->min)
    return invalid_event (error, "event key “%s”: expected at least %" G_GINT64_FORMAT ", not %" G_GINT64_FORMAT,
                          key->name, key->min, number);

  if (key->type == KEY_INT64)
    *(gint64 *) at = number;
  else if (key->type == KEY_INT)
    *(gint *) at = (gint) number;
  else
    *(guint *) at = (guint) number;
  return TRUE;
}

/**
 * sluice_event_new_from_variant:
 * @variant: a dictionary (`a{sv}`), as sluice_event_to_variant() gives
 * @error: return location for a %SLUICE_ERROR_INVALID_EVENT error
 *
 * Reads an event back from its dictionary, such as an event record that
 * another process's pool sent over D-Bus. `kind` and `time_us` must be
 * there; a key that is not there takes the value that means "does not
 * apply" (item -1, attempt 0, no error, …); keys it does not know are
 * ignored. A known key with a value of another type, or out of range (a
 * negative item, an attempt 0), is an error.
 *
 * Read back and given to sluice_event_to_variant() again, an event gives
 * the same dictionary.
 *
 * Returns: (transfer full) (nullable): the event, which owns its strings
 *   and value (free it with sluice_event_free()), or %NULL with @error set
 *
 * Since: 1.0
 */
SluiceEvent *
sluice_event_new_from_variant (GVariant  *variant,
                               GError   **error)
{
  g_autoptr(SluiceEvent) event = NULL;
  gboolean seen_kind = FALSE;
  gboolean seen_time = FALSE;
  GVariantIter iter;
  const char *name;
  GVariant *value;

  g_return_val_if_fail (variant != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_variant_is_of_type (variant, G_VARIANT_TYPE_VARDICT))
    {
      invalid_event (error, "an event is a dictionary of type a{sv}, not %s",
                     g_variant_get_type_string (variant));
      return NULL;
    }

  event = g_new0 (SluiceEvent, 1);
  event->item = -1;
  event->worker = -1;
  event->delay = -1;
  event->tokens = -1;
  event->deadline = -1;
  event->item_timeout = -1;

  g_variant_iter_init (&iter, variant);
  while (g_variant_iter_next (&iter, "{&sv}", &name, &value))
    {
      gboolean ok = TRUE;

      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        if (g_str_equal (name, keys[i].name))
          {
            ok = read_key (&keys[i], value, event, error);
            seen_kind |= keys[i].type == KEY_KIND;
            seen_time |= keys[i].offset == G_STRUCT_OFFSET (SluiceEvent, time) && keys[i].type == KEY_INT64;
            break;
          }
      g_variant_unref (value);
      if (!ok)
        return NULL;
    }

  if (!seen_kind || !seen_time)
    {
      invalid_event (error, "an event needs the key “%s”", seen_kind ? "time_us" : "kind");
      return NULL;
    }

  return g_steal_pointer (&event);
}
