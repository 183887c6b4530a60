/* sluice-recorder.c: keeps a run's event stream and writes it as JSON Lines or CSV
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-recorder.h"

#include <string.h>

#include "sluice-file-part-private.h"
#include "sluice-json-writer-private.h"

/**
 * SluiceRecorder:
 *
 * Keeps copies of the #SluiceEvent records of a run (strings and values
 * included), optionally in a ring buffer of fixed capacity so a long run in
 * the app uses bounded memory, and writes them as JSON Lines: one object
 * per event with its kind, clock time, item, attempt, worker, cancel round,
 * outcome, error type and message, value and live counts.
 *
 * It is the one store of a run's events: views read it rather than keep
 * copies. Every event has a position, its sequence number since the
 * recorder was made or last cleared (0, 1, 2, …); a bounded recorder that
 * drops its oldest events does not renumber the others, so the oldest
 * still held is at sluice_recorder_get_first_position() (the number
 * dropped) and the newest just before sluice_recorder_get_end_position().
 * sluice_recorder_lookup() finds an event by position; a reader that
 * follows the run keeps its own cursor, a position, and reads on from it
 * with sluice_recorder_next().
 */

struct _SluiceRecorder
{
  GObject  parent_instance;

  /* The events, owning their strings and value, in blocks of BLOCK_EVENTS
   * that never move: one growing array moved (and faulted in) up to twice
   * the run's events again as it doubled, a tenth of a recording run's
   * time in the window (issue 24's benchmark). */
  GPtrArray *blocks;
  guint    n_events;
  guint    capacity;    /* 0: unbounded */
  guint    head;        /* ring buffer: position of the oldest event */
  guint64  n_dropped;
  GArray  *gaps;        /* RecorderGap, by position */
  guint64  n_lost;
};

/* Events that never reached the recorder (another program's ring dropped
 * them before they were read), just before the event at @position. */
typedef struct {
  guint64 position;
  guint64 n_lost;
} RecorderGap;

G_DEFINE_FINAL_TYPE (SluiceRecorder, sluice_recorder, G_TYPE_OBJECT)

/* 4096 events of about 150 bytes: a block is a mapping of its own, whose
 * pages are touched only as events come. */
#define BLOCK_EVENTS 4096

/* The slot of index @i of the storage (not of the ring). */
static SluiceEvent *
slot (SluiceRecorder *self,
      guint           i)
{
  return (SluiceEvent *) g_ptr_array_index (self->blocks, i / BLOCK_EVENTS) + i % BLOCK_EVENTS;
}

/* A new slot at the end of the storage, to be filled. */
static SluiceEvent *
append_slot (SluiceRecorder *self)
{
  guint i = self->n_events;

  if (i / BLOCK_EVENTS >= self->blocks->len)
    g_ptr_array_add (self->blocks, g_new (SluiceEvent, BLOCK_EVENTS));
  self->n_events++;
  return slot (self, i);
}

static void
clear_events (SluiceRecorder *self)
{
  for (guint i = 0; i < self->n_events; i++)
    sluice_event_clear (slot (self, i));
  self->n_events = 0;
  g_ptr_array_set_size (self->blocks, 0);
}

static void
sluice_recorder_finalize (GObject *object)
{
  SluiceRecorder *self = SLUICE_RECORDER (object);

  clear_events (self);
  g_clear_pointer (&self->blocks, g_ptr_array_unref);
  g_clear_pointer (&self->gaps, g_array_unref);

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
  self->blocks = g_ptr_array_new_with_free_func (g_free);
  self->gaps = g_array_new (FALSE, FALSE, sizeof (RecorderGap));
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

  if (self->capacity == 0 || self->n_events < self->capacity)
    {
      sluice_event_copy_into (append_slot (self), event);
      return;
    }

  sluice_event_clear (slot (self, self->head));
  sluice_event_copy_into (slot (self, self->head), event);
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
  return self->n_events;
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

/* The event @index places from the oldest held. */
static const SluiceEvent *
event_at_index (SluiceRecorder *self,
                guint           index)
{
  if (self->capacity > 0 && self->n_events == self->capacity)
    index = (self->head + index) % self->capacity;

  return slot (self, index);
}

/**
 * sluice_recorder_get_event:
 * @self: a #SluiceRecorder
 * @index: from 0 (the oldest event held) to the number of events held
 *   less one
 *
 * Reads the events held by index, as a list: to follow a run whose
 * recorder may drop events, use positions (sluice_recorder_lookup(),
 * sluice_recorder_next()), which do not move when it does.
 *
 * Returns: (transfer none): the event, valid until the next change
 */
const SluiceEvent *
sluice_recorder_get_event (SluiceRecorder *self,
                           guint           index)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), NULL);
  g_return_val_if_fail (index < self->n_events, NULL);

  return event_at_index (self, index);
}

/**
 * sluice_recorder_get_first_position:
 * @self: a #SluiceRecorder
 *
 * Returns: the position of the oldest event held (if any): how many were
 *   dropped, the same as sluice_recorder_get_n_dropped()
 */
guint64
sluice_recorder_get_first_position (SluiceRecorder *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);
  return self->n_dropped;
}

/**
 * sluice_recorder_get_end_position:
 * @self: a #SluiceRecorder
 *
 * Returns: the position after the newest event, the one the next event
 *   recorded will have: how many events were recorded since the recorder
 *   was made or cleared, those dropped included
 */
guint64
sluice_recorder_get_end_position (SluiceRecorder *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);
  return self->n_dropped + self->n_events;
}

/**
 * sluice_recorder_lookup:
 * @self: a #SluiceRecorder
 * @position: an event's position (see #SluiceRecorder)
 *
 * Returns: (transfer none) (nullable): the event at @position, valid until
 *   the next change, or %NULL if the recorder dropped it or has not
 *   recorded it yet
 */
const SluiceEvent *
sluice_recorder_lookup (SluiceRecorder *self,
                        guint64         position)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), NULL);

  if (position < self->n_dropped || position - self->n_dropped >= self->n_events)
    return NULL;

  return event_at_index (self, (guint) (position - self->n_dropped));
}

/**
 * sluice_recorder_next:
 * @self: a #SluiceRecorder
 * @cursor: (inout): a reader's position: the next event it has not read,
 *   0 to read from the first event
 *
 * Reads on from @cursor: returns the event there and moves @cursor past
 * it, so that `while ((event = sluice_recorder_next (recorder, &cursor)))`
 * reads every event recorded since the last such loop, once. Each reader
 * keeps its own cursor.
 *
 * If a bounded recorder dropped the events at @cursor before they were
 * read, it reads the oldest event held instead: the event returned is
 * always at @cursor less one afterwards, and a reader that needs to know
 * what it lost compares that with @cursor before the call (the events in
 * between are gone).
 *
 * When @cursor has caught up with sluice_recorder_get_end_position(),
 * it returns %NULL and leaves @cursor as it is, to read on from there once
 * the recorder gains events. A cursor past the end (the recorder was
 * cleared since: positions start at 0 again) also gets %NULL and stays:
 * compare it with sluice_recorder_get_end_position() to notice.
 *
 * Returns: (transfer none) (nullable): the event, valid until the next
 *   change, or %NULL when there is nothing new
 */
const SluiceEvent *
sluice_recorder_next (SluiceRecorder *self,
                      guint64        *cursor)
{
  guint64 position;

  g_return_val_if_fail (SLUICE_IS_RECORDER (self), NULL);
  g_return_val_if_fail (cursor != NULL, NULL);

  position = MAX (*cursor, self->n_dropped);
  if (position >= self->n_dropped + self->n_events)
    return NULL;

  *cursor = position + 1;
  return event_at_index (self, (guint) (position - self->n_dropped));
}

/**
 * sluice_recorder_find_time:
 * @self: a #SluiceRecorder
 * @time: a clock time, in µs
 *
 * Finds, by binary search of the events held (they are in clock order),
 * the position after the newest event at or before @time: the events
 * before that position happened at or before @time, those from it on
 * after.
 *
 * Returns: a position from sluice_recorder_get_first_position() (no event
 *   held is that old) to sluice_recorder_get_end_position()
 */
guint64
sluice_recorder_find_time (SluiceRecorder *self,
                           gint64          time)
{
  guint low = 0, high;

  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);

  high = self->n_events;
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (event_at_index (self, middle)->time <= time)
        low = middle + 1;
      else
        high = middle;
    }
  return self->n_dropped + low;
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

  clear_events (self);
  self->head = 0;
  self->n_dropped = 0;
  g_array_set_size (self->gaps, 0);
  self->n_lost = 0;
}

/**
 * sluice_recorder_add_gap:
 * @self: a #SluiceRecorder
 * @n_lost: how many events never came
 *
 * Notes that @n_lost events of the run never reached the recorder before
 * the next event it is given: an attached program's ring dropped them. A
 * view that folds the events learns of it at that place
 * (sluice_recorder_get_lost_before()) and resynchronises there.
 */
void
sluice_recorder_add_gap (SluiceRecorder *self,
                         guint64         n_lost)
{
  guint64 position;

  g_return_if_fail (SLUICE_IS_RECORDER (self));

  if (n_lost == 0)
    return;

  position = sluice_recorder_get_end_position (self);
  self->n_lost += n_lost;
  if (self->gaps->len > 0 && g_array_index (self->gaps, RecorderGap, self->gaps->len - 1).position == position)
    g_array_index (self->gaps, RecorderGap, self->gaps->len - 1).n_lost += n_lost;
  else
    g_array_append_val (self->gaps, ((RecorderGap) { position, n_lost }));
}

/**
 * sluice_recorder_get_n_lost:
 * @self: a #SluiceRecorder
 *
 * Returns: how many events never reached the recorder, in every gap
 */
guint64
sluice_recorder_get_n_lost (SluiceRecorder *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);

  return self->n_lost;
}

/**
 * sluice_recorder_get_lost_before:
 * @self: a #SluiceRecorder
 * @position: an event's position
 *
 * Returns: how many events never came just before the event at @position
 *   (sluice_recorder_add_gap()), 0 for none
 */
guint64
sluice_recorder_get_lost_before (SluiceRecorder *self,
                                 guint64         position)
{
  guint lo = 0, hi;

  g_return_val_if_fail (SLUICE_IS_RECORDER (self), 0);

  hi = self->gaps->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const RecorderGap *gap = &g_array_index (self->gaps, RecorderGap, mid);

      if (gap->position == position)
        return gap->n_lost;
      if (gap->position < position)
        lo = mid + 1;
      else
        hi = mid;
    }
  return 0;
}

/* Only backoffs and retries skipped for the deadline have a delay. */
static gboolean
has_delay (const SluiceEvent *event)
{
  return (event->kind == SLUICE_EVENT_BACKOFF || event->kind == SLUICE_EVENT_RETRY_SKIPPED) &&
         event->delay >= 0;
}

/* One event's object, through the writer: as text for JSON Lines (a few
 * hundred thousand events a run: json-glib's tree and generator per event
 * cost more than the run), or as a tree for sluice_recorder_event_to_json().
 * Fields that do not apply are left out; the counts are always there. */
static void
write_event (SluiceJsonWriter  *w,
             const SluiceEvent *event)
{
  _sluice_json_writer_begin_object (w);
  _sluice_json_writer_member (w, "kind");
  _sluice_json_writer_string (w, sluice_event_kind_to_string (event->kind));
  _sluice_json_writer_int_member (w, "time_us", event->time);
  _sluice_json_writer_member (w, "time");
  _sluice_json_writer_double (w, (double) event->time / G_USEC_PER_SEC);

  if (event->item >= 0)
    _sluice_json_writer_int_member (w, "item", event->item);
  if (event->attempt > 0)
    _sluice_json_writer_int_member (w, "attempt", event->attempt);
  if (event->worker >= 0)
    _sluice_json_writer_int_member (w, "worker", event->worker);
  if (event->round > 0)
    _sluice_json_writer_int_member (w, "round", event->round);
  if (event->outcome != SLUICE_OUTCOME_NONE)
    {
      _sluice_json_writer_member (w, "outcome");
      _sluice_json_writer_string (w, sluice_outcome_to_string (event->outcome));
      _sluice_json_writer_member (w, "retried");
      _sluice_json_writer_boolean (w, event->retried);
    }
  if (event->error_type != NULL)
    {
      _sluice_json_writer_member (w, "error_type");
      _sluice_json_writer_string (w, event->error_type);
    }
  if (event->error_message != NULL)
    {
      _sluice_json_writer_member (w, "error_message");
      _sluice_json_writer_string (w, event->error_message);
    }
  if (event->value != NULL)
    {
      _sluice_json_writer_member (w, "value");
      _sluice_json_writer_variant (w, event->value);
    }

  if (has_delay (event))
    _sluice_json_writer_int_member (w, "delay_us", event->delay);
  if (event->reason != NULL)
    {
      _sluice_json_writer_member (w, "reason");
      _sluice_json_writer_string (w, event->reason);
    }
  if (event->tokens >= 0)
    _sluice_json_writer_int_member (w, "tokens", event->tokens);
  if (event->kind == SLUICE_EVENT_ATTEMPT_START && event->deadline >= 0)
    {
      _sluice_json_writer_int_member (w, "deadline_us", event->deadline);
      _sluice_json_writer_member (w, "deadline");
      _sluice_json_writer_double (w, (double) event->deadline / G_USEC_PER_SEC);
    }
  if (event->kind == SLUICE_EVENT_RUN_START)
    {
      _sluice_json_writer_int_member (w, "queue_capacity", event->queue_capacity);
      _sluice_json_writer_int_member (w, "lead_bound", event->lead_bound);
      if (event->item_timeout >= 0)
        _sluice_json_writer_int_member (w, "item_timeout_us", event->item_timeout);
    }

  _sluice_json_writer_int_member (w, "queued", event->queued);
  _sluice_json_writer_int_member (w, "in_flight", event->in_flight);
  _sluice_json_writer_int_member (w, "pulled", event->pulled);
  _sluice_json_writer_int_member (w, "succeeded", event->succeeded);
  _sluice_json_writer_int_member (w, "failed", event->failed);
  _sluice_json_writer_int_member (w, "retries", event->retries);
  _sluice_json_writer_int_member (w, "lead", event->lead);
  _sluice_json_writer_end_object (w);
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
  SluiceJsonWriter w;

  g_return_val_if_fail (event != NULL, NULL);

  _sluice_json_writer_init_builder (&w, builder);
  write_event (&w, event);
  _sluice_json_writer_finish (&w, NULL);

  return json_builder_get_root (builder);
}

/**
 * sluice_recorder_event_to_line:
 * @event: an event
 *
 * Returns: (transfer full): the event as one line of JSON, with its `\n`:
 *   the text json-glib's generator writes for
 *   sluice_recorder_event_to_json(), byte for byte
 */
char *
sluice_recorder_event_to_line (const SluiceEvent *event)
{
  SluiceJsonWriter w;

  g_return_val_if_fail (event != NULL, NULL);

  _sluice_json_writer_init_text (&w, FALSE, NULL, NULL);
  write_event (&w, event);
  _sluice_json_writer_raw (&w, "\n");
  _sluice_json_writer_finish (&w, NULL);

  return g_string_free (w.buffer, FALSE);
}

/* ---- writing events to a stream or a file ----------------------------- */

typedef gboolean (*StreamWriteFunc) (SluiceRecorder  *self,
                                     GOutputStream   *stream,
                                     GCancellable    *cancellable,
                                     GError         **error);

/* Replaces @path with what @write writes, once it is whole: @path.part
 * until then (a failed or killed write leaves @path as it was). */
static gboolean
save_to_path (SluiceRecorder   *self,
              const char       *path,
              StreamWriteFunc   write,
              GError          **error)
{
  g_autoptr(SluiceFilePart) file = _sluice_file_part_new (path, error);

  if (file == NULL)
    return FALSE;

  return write (self, _sluice_file_part_get_stream (file), NULL, error) &&
         _sluice_file_part_commit (file, error);
}

/**
 * sluice_recorder_write_jsonl:
 * @self: a #SluiceRecorder
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes every event held, oldest first, one JSON object per line, in
 * chunks of some 64 KiB.
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recorder_write_jsonl (SluiceRecorder  *self,
                             GOutputStream   *stream,
                             GCancellable    *cancellable,
                             GError         **error)
{
  gpointer sink_data[2] = { stream, cancellable };
  SluiceJsonWriter w;

  g_return_val_if_fail (SLUICE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  _sluice_json_writer_init_text (&w, FALSE, _sluice_json_writer_stream_sink, sink_data);
  for (guint i = 0; i < self->n_events && w.error == NULL; i++)
    {
      write_event (&w, event_at_index (self, i));
      _sluice_json_writer_raw (&w, "\n");
    }

  return _sluice_json_writer_finish (&w, error);
}

/**
 * sluice_recorder_save_jsonl:
 * @self: a #SluiceRecorder
 * @path: the file to write (replaced once it is whole: written as
 *   `@path.part` and renamed)
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
  char buf[SLUICE_JSON_INT_BUF_SIZE];

  if (applies)
    g_string_append (row, _sluice_json_writer_format_int (value, buf));
}

/* Seconds with six decimals, as "%.6f" writes them: for whole
 * microseconds below 10^15 (31 years, far from where a double's error
 * would reach the sixth decimal) those are the digits of the integer. */
static void
csv_append_time (GString *row,
                 gint64   time_us)
{
  char buf[MAX (G_ASCII_DTOSTR_BUF_SIZE, SLUICE_JSON_INT_BUF_SIZE)];
  char micro[7];
  gint64 fraction;

  if (time_us < 0 || time_us >= G_GINT64_CONSTANT (1000000000000000))
    {
      g_string_append (row, g_ascii_formatd (buf, sizeof buf, "%.6f", (double) time_us / G_USEC_PER_SEC));
      return;
    }

  g_string_append (row, _sluice_json_writer_format_int (time_us / G_USEC_PER_SEC, buf));
  fraction = time_us % G_USEC_PER_SEC;
  for (int i = 5; i >= 0; i--, fraction /= 10)
    micro[i] = (char) ('0' + fraction % 10);
  micro[6] = '\0';
  g_string_append_c (row, '.');
  g_string_append_len (row, micro, 6);
}

/* One row of the CSV, with its CRLF, appended to @row. */
static void
append_csv_row (GString           *row,
                const SluiceEvent *event)
{
  const guint counts[] = { event->queued, event->in_flight, event->pulled, event->succeeded,
                           event->failed, event->retries, event->lead };

  csv_append_time (row, event->time);
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
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_string_append_c (row, ',');
      csv_append_int (row, TRUE, counts[i]);
    }
  g_string_append_c (row, ',');
  csv_append_int (row, has_delay (event), event->delay);
  g_string_append_c (row, ',');
  csv_append_text (row, event->reason);
  g_string_append_c (row, ',');
  csv_append_int (row, event->tokens >= 0, event->tokens);
  g_string_append (row, "\r\n");
}

#define CSV_FLUSH_AT (64 * 1024)

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
  gpointer sink_data[2] = { stream, cancellable };
  g_autoptr(GString) text = NULL;

  g_return_val_if_fail (SLUICE_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  text = g_string_sized_new (CSV_FLUSH_AT + 1024);
  g_string_append (text, csv_header);
  for (guint i = 0; i < self->n_events; i++)
    {
      append_csv_row (text, event_at_index (self, i));
      if (text->len < CSV_FLUSH_AT)
        continue;
      if (!_sluice_json_writer_stream_sink (text->str, text->len, sink_data, error))
        return FALSE;
      g_string_truncate (text, 0);
    }

  return _sluice_json_writer_stream_sink (text->str, text->len, sink_data, error);
}

/**
 * sluice_recorder_save_csv:
 * @self: a #SluiceRecorder
 * @path: the file to write (replaced once it is whole: written as
 *   `@path.part` and renamed)
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
