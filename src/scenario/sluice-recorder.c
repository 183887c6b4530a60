/* sluice-recorder.c: keeps a run's event stream and writes it as JSON Lines or CSV
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-recorder.h"

#include <string.h>

/**
 * SluiceRecorder:
 *
 * Keeps copies of the #SluiceEvent records of a run (strings and values
 * included), optionally in a ring buffer of fixed capacity so a long run in
 * the app uses bounded memory, and writes them as JSON Lines: one object
 * per event with its kind, clock time, item, attempt, worker, cancel round,
 * outcome, error type and message, value and live counts.
 */

struct _SluiceRecorder
{
  GObject  parent_instance;

  GArray  *events;      /* SluiceEvent, owning their strings and value */
  guint    capacity;    /* 0: unbounded */
  guint    head;        /* ring buffer: position of the oldest event */
  guint64  n_dropped;
};

G_DEFINE_FINAL_TYPE (SluiceRecorder, sluice_recorder, G_TYPE_OBJECT)

static void
event_clear (gpointer data)
{
  SluiceEvent *event = data;

  g_free ((char *) event->error_type);
  g_free ((char *) event->error_message);
  g_clear_pointer (&event->value, g_variant_unref);
}

static void
event_copy (SluiceEvent       *dest,
            const SluiceEvent *src)
{
  *dest = *src;
  dest->error_type = g_strdup (src->error_type);
  dest->error_message = g_strdup (src->error_message);
  dest->value = src->value ? g_variant_ref (src->value) : NULL;
  /* A few fixed words: interned, never freed. */
  dest->reason = g_intern_string (src->reason);
}

static void
sluice_recorder_finalize (GObject *object)
{
  SluiceRecorder *self = SLUICE_RECORDER (object);

  g_clear_pointer (&self->events, g_array_unref);

  G_OBJECT_CLASS (sluice_recorder_parent_class)->finalize (object);
}

static void
sluice_recorder_class_init (SluiceRecorderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_recorder_finalize;
}

static void
sluice_recorder_init (SluiceRecorder *self)
{
  self->events = g_array_new (FALSE, TRUE, sizeof (SluiceEvent));
  g_array_set_clear_func (self->events, event_clear);
}

/**
 * sluice_recorder_new:
 * @capacity: the most events kept (the oldest go first), or 0 for no limit
 *
 * Returns: (transfer full): a new, empty recorder
 */
SluiceRecorder *
sluice_recorder_new (guint capacity)
{
  SluiceRecorder *self = g_object_new (SLUICE_TYPE_RECORDER, NULL);

  self->capacity = capacity;

  return self;
}

/**
 * sluice_recorder_get_capacity:
 * @self: a #SluiceRecorder
 *
 * Returns: the most events kept, or 0 for no limit
 */
guint
sluice_recorder_get_capacity (SluiceRecorder *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);
  return self->capacity;
}

/**
 * sluice_recorder_add:
 * @self: a #SluiceRecorder
 * @event: an event; it is copied
 *
 * Appends a copy of @event, dropping the oldest event when full.
 */
void
sluice_recorder_add (SluiceRecorder    *self,
                     const SluiceEvent *event)
{
  g_return_if_fail (SLUICE_IS_RECORDER (self));
  g_return_if_fail (event != NULL);

  if (self->capacity == 0 || self->events->len < self->capacity)
    {
      SluiceEvent copy;

      event_copy (&copy, event);
      g_array_append_val (self->events, copy);
      return;
    }

  event_clear (&g_array_index (self->events, SluiceEvent, self->head));
  event_copy (&g_array_index (self->events, SluiceEvent, self->head), event);
  self->head = (self->head + 1) % self->capacity;
  self->n_dropped++;
}

/**
 * sluice_recorder_event_func:
 * @event: an event
 * @user_data: a #SluiceRecorder
 *
 * A #SluiceEventFunc that records every event: give it to
 * sluice_pool_set_event_func() with the recorder as data.
 */
void
sluice_recorder_event_func (const SluiceEvent *event,
                            gpointer           user_data)
{
  sluice_recorder_add (SLUICE_RECORDER (user_data), event);
}

/**
 * sluice_recorder_get_n_events:
 * @self: a #SluiceRecorder
 *
 * Returns: how many events the recorder holds
 */
guint
sluice_recorder_get_n_events (SluiceRecorder *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);
  return self->events->len;
}

/**
 * sluice_recorder_get_n_dropped:
 * @self: a #SluiceRecorder
 *
 * Returns: how many old events were dropped to respect the capacity
 */
guint64
sluice_recorder_get_n_dropped (SluiceRecorder *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);
  return self->n_dropped;
}

/**
 * sluice_recorder_get_event:
 * @self: a #SluiceRecorder
 * @position: from 0 (the oldest event held) to the number of events
 *
 * Returns: (transfer none): the event, valid until the next change
 */
const SluiceEvent *
sluice_recorder_get_event (SluiceRecorder *self,
                           guint           position)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), NULL);
  g_return_val_if_fail (position < self->events->len, NULL);

  if (self->capacity > 0 && self->events->len == self->capacity)
    position = (self->head + position) % self->capacity;

  return &g_array_index (self->events, SluiceEvent, position);
}

/**
 * sluice_recorder_clear:
 * @self: a #SluiceRecorder
 *
 * Forgets every event.
 */
void
sluice_recorder_clear (SluiceRecorder *self)
{
  g_return_if_fail (SLUICE_IS_RECORDER (self));

  g_array_set_size (self->events, 0);
  self->head = 0;
  self->n_dropped = 0;
}

static void
add_value (JsonBuilder *builder,
           GVariant    *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    json_builder_add_int_value (builder, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    json_builder_add_string_value (builder, g_variant_get_string (value, NULL));
  else
    {
      g_autofree char *text = g_variant_print (value, FALSE);
      json_builder_add_string_value (builder, text);
    }
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

/* Only backoffs and retries skipped for the deadline have a delay. */
static gboolean
has_delay (const SluiceEvent *event)
{
  return (event->kind == SLUICE_EVENT_BACKOFF || event->kind == SLUICE_EVENT_RETRY_SKIPPED) &&
         event->delay >= 0;
}

/**
 * sluice_recorder_event_to_json:
 * @event: an event
 *
 * Builds the JSON object of one event. Fields that do not apply (no item,
 * no attempt, no error) are left out; the counts are always there.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
sluice_recorder_event_to_json (const SluiceEvent *event)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (event != NULL, NULL);

  json_builder_begin_object (builder);
  add_string (builder, "kind", sluice_event_kind_to_string (event->kind));
  add_int (builder, "time_us", event->time);
  json_builder_set_member_name (builder, "time");
  json_builder_add_double_value (builder, (double) event->time / G_USEC_PER_SEC);

  if (event->item >= 0)
    add_int (builder, "item", event->item);
  if (event->attempt > 0)
    add_int (builder, "attempt", event->attempt);
  if (event->worker >= 0)
    add_int (builder, "worker", event->worker);
  if (event->round > 0)
    add_int (builder, "round", event->round);
  if (event->outcome != SLUICE_OUTCOME_NONE)
    {
      add_string (builder, "outcome", sluice_outcome_to_string (event->outcome));
      json_builder_set_member_name (builder, "retried");
      json_builder_add_boolean_value (builder, event->retried);
    }
  if (event->error_type != NULL)
    add_string (builder, "error_type", event->error_type);
  if (event->error_message != NULL)
    add_string (builder, "error_message", event->error_message);
  if (event->value != NULL)
    {
      json_builder_set_member_name (builder, "value");
      add_value (builder, event->value);
    }

  if (has_delay (event))
    add_int (builder, "delay_us", event->delay);
  if (event->reason != NULL)
    add_string (builder, "reason", event->reason);
  if (event->tokens >= 0)
    add_int (builder, "tokens", event->tokens);

  add_int (builder, "queued", event->queued);
  add_int (builder, "in_flight", event->in_flight);
  add_int (builder, "pulled", event->pulled);
  add_int (builder, "succeeded", event->succeeded);
  add_int (builder, "failed", event->failed);
  add_int (builder, "retries", event->retries);
  add_int (builder, "lead", event->lead);
  json_builder_end_object (builder);

  return json_builder_get_root (builder);
}

/**
 * sluice_recorder_event_to_line:
 * @event: an event
 *
 * Returns: (transfer full): the event as one line of JSON, with its `\n`
 */
char *
sluice_recorder_event_to_line (const SluiceEvent *event)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) node = sluice_recorder_event_to_json (event);
  g_autofree char *text = NULL;

  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);

  return g_strconcat (text, "\n", NULL);
}

/* ---- writing events to a stream or a file ----------------------------- */

typedef char *(*EventFormatFunc) (const SluiceEvent *event);

/* @header (if any), then one formatted text per event, oldest first. */
static gboolean
write_events (SluiceRecorder   *self,
              GOutputStream    *stream,
              const char       *header,
              EventFormatFunc   format,
              GCancellable     *cancellable,
              GError          **error)
{
  if (header != NULL &&
      !g_output_stream_write_all (stream, header, strlen (header), NULL, cancellable, error))
    return FALSE;

  for (guint i = 0; i < self->events->len; i++)
    {
      g_autofree char *text = format (sluice_recorder_get_event (self, i));

      if (!g_output_stream_write_all (stream, text, strlen (text), NULL, cancellable, error))
        return FALSE;
    }

  return TRUE;
}

typedef gboolean (*StreamWriteFunc) (SluiceRecorder  *self,
                                     GOutputStream   *stream,
                                     GCancellable    *cancellable,
                                     GError         **error);

/* Replaces @path with what @write writes. */
static gboolean
save_to_path (SluiceRecorder   *self,
              const char       *path,
              StreamWriteFunc   write,
              GError          **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (stream == NULL)
    return FALSE;

  return write (self, G_OUTPUT_STREAM (stream), NULL, error) &&
         g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

/**
 * sluice_recorder_write_jsonl:
 * @self: a #SluiceRecorder
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes every event held, oldest first, one JSON object per line.
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recorder_write_jsonl (SluiceRecorder  *self,
                             GOutputStream   *stream,
                             GCancellable    *cancellable,
                             GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  return write_events (self, stream, NULL, sluice_recorder_event_to_line, cancellable, error);
}

/**
 * sluice_recorder_save_jsonl:
 * @self: a #SluiceRecorder
 * @path: the file to write (replaced)
 * @error: return location for an error
 *
 * Writes every event held to @path as JSON Lines.
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recorder_save_jsonl (SluiceRecorder  *self,
                            const char      *path,
                            GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return save_to_path (self, path, sluice_recorder_write_jsonl, error);
}

/* ---- CSV --------------------------------------------------------------- */

static const char csv_header[] =
  "time,kind,item,attempt,worker,round,outcome,error_type,error_message,"
  "queued,in_flight,pulled,succeeded,failed,retries,lead,delay_us,reason,tokens\r\n";

/* RFC 4180: a field with a comma, a quote or a line break is quoted, its
 * quotes doubled. */
static void
csv_append_text (GString    *row,
                 const char *text)
{
  if (text == NULL)
    return;

  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (row, text);
      return;
    }

  g_string_append_c (row, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (row, '"');
      g_string_append_c (row, *p);
    }
  g_string_append_c (row, '"');
}

static void
csv_append_int (GString  *row,
                gboolean  applies,
                gint64    value)
{
  if (applies)
    g_string_append_printf (row, "%" G_GINT64_FORMAT, value);
}

static char *
event_to_csv_row (const SluiceEvent *event)
{
  GString *row = g_string_new (NULL);
  char time[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (row, g_ascii_formatd (time, sizeof time, "%.6f", (double) event->time / G_USEC_PER_SEC));
  g_string_append_c (row, ',');
  csv_append_text (row, sluice_event_kind_to_string (event->kind));
  g_string_append_c (row, ',');
  csv_append_int (row, event->item >= 0, event->item);
  g_string_append_c (row, ',');
  csv_append_int (row, event->attempt > 0, event->attempt);
  g_string_append_c (row, ',');
  csv_append_int (row, event->worker >= 0, event->worker);
  g_string_append_c (row, ',');
  csv_append_int (row, event->round > 0, event->round);
  g_string_append_c (row, ',');
  if (event->outcome != SLUICE_OUTCOME_NONE)
    csv_append_text (row, sluice_outcome_to_string (event->outcome));
  g_string_append_c (row, ',');
  csv_append_text (row, event->error_type);
  g_string_append_c (row, ',');
  csv_append_text (row, event->error_message);
  g_string_append_printf (row, ",%u,%u,%u,%u,%u,%u,%u,",
                          (guint) event->queued, (guint) event->in_flight, (guint) event->pulled,
                          (guint) event->succeeded, (guint) event->failed, (guint) event->retries,
                          (guint) event->lead);
  csv_append_int (row, has_delay (event), event->delay);
  g_string_append_c (row, ',');
  csv_append_text (row, event->reason);
  g_string_append_c (row, ',');
  csv_append_int (row, event->tokens >= 0, event->tokens);
  g_string_append (row, "\r\n");

  return g_string_free (row, FALSE);
}

/**
 * sluice_recorder_write_csv:
 * @self: a #SluiceRecorder
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes every event held, oldest first, as CSV (RFC 4180): a header, then
 * one row per event with the columns of the JSON Lines (time in seconds,
 * kind, item, attempt, worker, round, outcome, error type and message, and
 * the counts). Fields that do not apply are empty.
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recorder_write_csv (SluiceRecorder  *self,
                           GOutputStream   *stream,
                           GCancellable    *cancellable,
                           GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  return write_events (self, stream, csv_header, event_to_csv_row, cancellable, error);
}

/**
 * sluice_recorder_save_csv:
 * @self: a #SluiceRecorder
 * @path: the file to write (replaced)
 * @error: return location for an error
 *
 * Writes every event held to @path as CSV; see sluice_recorder_write_csv().
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recorder_save_csv (SluiceRecorder  *self,
                          const char      *path,
                          GError         **error)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return save_to_path (self, path, sluice_recorder_write_csv, error);
}
