/* sluice-recording.c: a recorded run (.sluicerun): the scenario that ran
 * and its event stream, in one JSON Lines file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-recording-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sluice-event-reader-private.h"
#include "sluice-json-limits-private.h"

/**
 * SluiceRecording:
 *
 * A finished run to replay without an engine (docs/teaching.md, "Every run is a
 * recording"). The file is JSON Lines: the first line is
 * `{"sluicerun":1,"version":"…","scenario":"…","report":{…}}` (the format,
 * the version of Sluice that wrote it, the text of the scenario as it ran
 * and the run's report as `sluice-run --json` writes it), every further
 * line one event, the same object as a line of `sluice-run --events`.
 *
 * The report is ours, not the spec's: a recording without one (written by
 * another program, or of a run whose report was too long) is still read,
 * and its report comes from running the scenario again
 * (sluice_recording_replay_async()). It is what makes a recording of a
 * real-clock run (block, thread) whole: that run cannot be run again to
 * the same events.
 *
 * Reading never fails on what follows the first line: a line that is not
 * an event, an unknown event kind, a file cut short, is a problem (a
 * sentence naming the file and the line), and every valid event is kept.
 * Only a file that cannot be read or whose first line is not a valid
 * header is an error.
 */

struct _SluiceRecording
{
  GObject          parent_instance;

  char            *name;
  char            *version;
  char            *scenario_text;
  SluiceScenario  *scenario;
  SluiceRecorder  *recorder;
  JsonNode        *report;       /* nullable */
  GPtrArray       *problems;     /* char *, NULL-terminated */
  guint            n_unlisted;   /* problems past SLUICE_RECORDING_MAX_PROBLEMS */
};

G_DEFINE_FINAL_TYPE (SluiceRecording, sluice_recording, G_TYPE_OBJECT)

static void
sluice_recording_finalize (GObject *object)
{
  SluiceRecording *self = SLUICE_RECORDING (object);

  g_free (self->name);
  g_free (self->version);
  g_free (self->scenario_text);
  g_clear_object (&self->scenario);
  g_clear_object (&self->recorder);
  g_clear_pointer (&self->report, json_node_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_recording_parent_class)->finalize (object);
}

static void
sluice_recording_class_init (SluiceRecordingClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_recording_finalize;
}

static void
sluice_recording_init (SluiceRecording *self)
{
  self->problems = g_ptr_array_new_null_terminated (0, g_free, TRUE);
  /* Unbounded: the file's size bounds it. */
  self->recorder = sluice_recorder_new (0);
}

G_GNUC_PRINTF (2, 3) static void
add_problem (SluiceRecording *self,
             const char      *format,
             ...)
{
  va_list args;

  if (self->problems->len >= SLUICE_RECORDING_MAX_PROBLEMS)
    {
      self->n_unlisted++;
      return;
    }

  va_start (args, format);
  g_ptr_array_add (self->problems, g_strdup_vprintf (format, args));
  va_end (args);
}

/* ---- reading, a line at a time ----------------------------------------- */

typedef struct {
  SluiceRecording *self;
  JsonParser      *parser;
  GHashTable      *unknown_keys;  /* the names already reported, owned */
  GPtrArray       *line_unknown;  /* one line's, borrowed */
  GString         *pending;       /* the start of a line not yet ended */
  gboolean         skipping;      /* the rest of a line that is too long */
  guint            line;          /* lines ended so far */
  gboolean         header_read;
  gboolean         saw_run_end;
  GError          *error;         /* the first line's: nothing more is read */
} Reader;

static void
reader_init (Reader          *r,
             SluiceRecording *self)
{
  memset (r, 0, sizeof *r);
  r->self = self;
  r->parser = json_parser_new_immutable ();
  r->unknown_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  r->line_unknown = g_ptr_array_new ();
  r->pending = g_string_new (NULL);
}

static void
reader_clear (Reader *r)
{
  g_clear_object (&r->parser);
  g_clear_pointer (&r->unknown_keys, g_hash_table_unref);
  g_clear_pointer (&r->line_unknown, g_ptr_array_unref);
  if (r->pending != NULL)
    g_string_free (g_steal_pointer (&r->pending), TRUE);
  g_clear_error (&r->error);
}

/* Whether @text is one value that starts with `{` and whose matching `}`
 * ends it (spaces aside). json-glib 1.6 reads `{…}{…}` as one object and
 * leaks the second: such a line never reaches it. */
static gboolean
is_one_object (const char *text,
               gsize       length)
{
  gsize i = 0, depth = 0;
  gboolean in_string = FALSE;

  while (i < length && g_ascii_isspace (text[i]))
    i++;
  if (i == length || text[i] != '{')
    return FALSE;

  for (; i < length; i++)
    {
      char c = text[i];

      if (in_string)
        {
          if (c == '\\')
            i++;
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == '{' || c == '[')
        depth++;
      else if ((c == '}' || c == ']') && --depth == 0)
        break;
    }

  for (i++; i < length; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

/* A line's JSON object, or NULL when the line is not one; @why then says
 * why when it is more than "not an object" (a nesting too deep). The text
 * is checked first: json-glib would hand on bytes that are not UTF-8, a
 * nul would end the text early, and too deep a nesting would overflow its
 * recursion. Its length is bounded already (reader_feed()). */
static JsonObject *
parse_object (Reader      *r,
              const char  *text,
              gsize        length,
              GError     **why)
{
  JsonNode *root;

  if (memchr (text, '\0', length) != NULL || !g_utf8_validate_len (text, length, NULL) ||
      !is_one_object (text, length) ||
      !_sluice_json_check_limits (text, (gssize) length, G_MAXSIZE, why) ||
      !json_parser_load_from_data (r->parser, text, (gssize) length, NULL))
    return NULL;

  root = json_parser_get_root (r->parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
}

static void
set_not_a_recording (Reader     *r,
                     const char *why)
{
  g_set_error (&r->error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
               /* Translators: the first %s is the file, the second what is wrong with its
                * first line. Keep the JSON after “expected”: it is the file's syntax. */
               _("%s:1: not a Sluice recording: %s; expected a first line "
                 "{\"sluicerun\": 1, \"version\": \"…\", \"scenario\": \"…\"}"),
               r->self->name, why);
}

/* The report the first line may carry: an object, or a problem. */
static void
read_report (Reader     *r,
             JsonObject *header)
{
  JsonNode *report = json_object_get_member (header, "report");

  if (report == NULL)
    return;
  if (!JSON_NODE_HOLDS_OBJECT (report))
    {
      /* Translators: %s is the file; keep “"report"”: it is the file's syntax. */
      add_problem (r->self, _("%s:1: \"report\" is not a JSON object; the run's report is left out"),
                   r->self->name);
      return;
    }
  /* A new reference: the parser's next line does not free it. */
  r->self->report = json_node_copy (report);
}

/* The first line: the format, the version that wrote it, the scenario,
 * which must load, and perhaps the run's report. */
static void
read_header (Reader     *r,
             const char *text,
             gsize       length)
{
  SluiceRecording *self = r->self;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GError) why = NULL;
  JsonObject *header = parse_object (r, text, length, &why);
  JsonNode *format, *version, *scenario;

  if (header == NULL)
    {
      set_not_a_recording (r, why != NULL ? why->message : _("the line is not a JSON object"));
      return;
    }

  format = json_object_get_member (header, "sluicerun");
  version = json_object_get_member (header, "version");
  scenario = json_object_get_member (header, "scenario");
  if (format == NULL || !JSON_NODE_HOLDS_VALUE (format) || json_node_get_value_type (format) != G_TYPE_INT64)
    {
      set_not_a_recording (r, _("it has no “sluicerun” format number"));
      return;
    }
  if (json_node_get_int (format) != SLUICE_RECORDING_FORMAT)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (format));

      g_set_error (&r->error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                   /* Translators: the first %s is the file, the second the format number it
                    * gives; keep “"sluicerun": 1”: it is the file's syntax. */
                   _("%s:1: the recording is in format %s, which this version of Sluice does "
                     "not read; expected \"sluicerun\": 1"),
                   self->name, number);
      return;
    }
  if (version == NULL || json_node_get_value_type (version) != G_TYPE_STRING ||
      scenario == NULL || json_node_get_value_type (scenario) != G_TYPE_STRING)
    {
      set_not_a_recording (r, _("it has no “version” or no “scenario” string"));
      return;
    }

  self->version = g_strdup (json_node_get_string (version));
  self->scenario_text = g_strdup (json_node_get_string (scenario));
  self->scenario = sluice_scenario_new_from_data (self->scenario_text, -1, self->name, NULL, &local_error);
  if (self->scenario == NULL)
    g_set_error (&r->error, SLUICE_SCENARIO_ERROR, local_error->code,
                 /* Translators: %s is the file, then the scenario loader's message. */
                 _("%s:1: the recorded scenario is not valid: %s"), self->name, local_error->message);
  else
    read_report (r, header);
}

/* Unknown keys are ignored (a newer Sluice may write more), and each named
 * once. */
static void
note_unknown_keys (Reader *r)
{
  for (guint i = 0; i < r->line_unknown->len; i++)
    {
      const char *key = g_ptr_array_index (r->line_unknown, i);

      if (g_hash_table_contains (r->unknown_keys, key))
        continue;
      g_hash_table_add (r->unknown_keys, g_strdup (key));
      /* Translators: %s is the file, %u the line, then the key as written. */
      add_problem (r->self, _("%s:%u: unknown key “%s” in an event, ignored"), r->self->name, r->line, key);
    }
  g_ptr_array_set_size (r->line_unknown, 0);
}

static void
read_event (Reader     *r,
            const char *text,
            gsize       length)
{
  SluiceRecording *self = r->self;
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;
  SluiceEvent event;

  object = parse_object (r, text, length, &local_error);
  if (object == NULL && local_error != NULL)
    {
      /* Translators: %s is the file, %u the line, then the limit the line goes beyond. */
      add_problem (self, _("%s:%u: %s; the line is skipped"), self->name, r->line, local_error->message);
      return;
    }
  if (object == NULL)
    {
      /* Translators: %s is the file, %u the line. */
      add_problem (self, _("%s:%u: not a JSON object; expected one event a line"), self->name, r->line);
      return;
    }

  if (!_sluice_event_read (object, &event, r->line_unknown, &local_error))
    {
      g_ptr_array_set_size (r->line_unknown, 0);
      /* Translators: %s is the file, %u the line, then what is wrong with the event. */
      add_problem (self, _("%s:%u: %s; the line is skipped"), self->name, r->line, local_error->message);
      return;
    }

  note_unknown_keys (r);
  sluice_recorder_add (self->recorder, &event);
  g_clear_pointer (&event.value, g_variant_unref);
  if (event.kind == SLUICE_EVENT_RUN_END)
    r->saw_run_end = TRUE;
}

static gboolean
is_blank (const char *text,
          gsize       length)
{
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;
  return TRUE;
}

static void
read_line (Reader     *r,
           const char *text,
           gsize       length)
{
  r->line++;
  if (length > 0 && text[length - 1] == '\r')
    length--;

  if (!r->header_read)
    {
      r->header_read = TRUE;
      read_header (r, text, length);
    }
  else if (!is_blank (text, length))
    read_event (r, text, length);
}

/* The first line holds the scenario and the report: it may be longer. */
static gsize
line_limit (Reader *r)
{
  return r->header_read ? SLUICE_RECORDING_MAX_LINE : SLUICE_RECORDING_MAX_HEADER;
}

static void
line_too_long (Reader *r)
{
  g_autofree char *limit = g_format_size_full (line_limit (r), G_FORMAT_SIZE_IEC_UNITS);

  if (!r->header_read)
    {
      r->header_read = TRUE;
      g_set_error (&r->error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   /* Translators: %s is the file, then a size such as “8.0 MiB”. */
                   _("%s:1: the first line is longer than the limit of %s; expected a Sluice "
                     "recording"), r->self->name, limit);
      return;
    }

  /* Translators: %s is the file, %u the line, then a size such as “8.0 MiB”. */
  add_problem (r->self, _("%s:%u: the line is longer than the limit of %s; skipped"),
               r->self->name, r->line + 1, limit);
}

/* Splits @data into lines; a line may be cut across two calls. */
static void
reader_feed (Reader     *r,
             const char *data,
             gsize       length)
{
  while (length > 0 && r->error == NULL)
    {
      const char *newline = memchr (data, '\n', length);
      gsize piece = newline != NULL ? (gsize) (newline - data) : length;

      if (r->skipping)
        ;
      else if (r->pending->len + piece > line_limit (r))
        {
          line_too_long (r);
          r->skipping = TRUE;
          g_string_truncate (r->pending, 0);
        }
      else if (newline != NULL && r->pending->len == 0)
        read_line (r, data, piece);
      else
        {
          g_string_append_len (r->pending, data, (gssize) piece);
          if (newline != NULL)
            {
              read_line (r, r->pending->str, r->pending->len);
              g_string_truncate (r->pending, 0);
            }
        }

      if (newline != NULL)
        {
          if (r->skipping)
            r->line++;
          r->skipping = FALSE;
          piece++;
        }
      data += piece;
      length -= piece;
    }
}

/* The end of the text: its last line (perhaps without its newline), then
 * what was missing. */
static void
reader_end (Reader   *r,
            gboolean  too_large,
            gsize     max_size)
{
  SluiceRecording *self = r->self;

  if (r->error == NULL && r->pending->len > 0)
    read_line (r, r->pending->str, r->pending->len);
  if (r->skipping)
    r->line++;

  if (r->error == NULL && !r->header_read)
    g_set_error (&r->error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE,
                 /* Translators: %s is the file. Keep the JSON: it is the file's syntax. */
                 _("%s: the file is empty; expected a Sluice recording whose first line is "
                   "{\"sluicerun\": 1, \"version\": \"…\", \"scenario\": \"…\"}"), self->name);
  if (r->error != NULL)
    return;

  if (too_large)
    {
      g_autofree char *limit = g_format_size_full (max_size, G_FORMAT_SIZE_IEC_UNITS);

      /* Translators: %s is the file, then a size such as “256.0 MiB”. */
      add_problem (self, _("%s: the recording is larger than the limit of %s; what follows is not read"),
                   self->name, limit);
    }
  if (!r->saw_run_end)
    /* Translators: %s is the file, %u the number of its last line. */
    add_problem (self, _("%s: the recording ends after line %u without a run-end event (truncated?)"),
                 self->name, r->line);

  if (self->n_unlisted > 0)
    g_ptr_array_add (self->problems,
                     /* Translators: %u is a number of problems, more than one. */
                     g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more problem",
                                                   "… and %u more problems", self->n_unlisted),
                                      self->n_unlisted));
}

/* The recording, or NULL with @error set from the reader's. */
static SluiceRecording *
reader_finish (Reader           *r,
               SluiceRecording  *self,
               GError          **error)
{
  if (r->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&r->error));
      reader_clear (r);
      g_object_unref (self);
      return NULL;
    }

  reader_clear (r);
  return self;
}

static SluiceRecording *
recording_new (const char *name)
{
  SluiceRecording *self = g_object_new (SLUICE_TYPE_RECORDING, NULL);

  self->name = g_strdup (name != NULL ? name : "(recording)");
  return self;
}

/**
 * _sluice_recording_new_from_data_limited:
 * @data: (array length=length): the text of a recording
 * @length: its length
 * @name: (nullable): how messages name it
 * @max_size: the most bytes read
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * sluice_recording_new_from_data() with another size limit than
 * %SLUICE_RECORDING_MAX_SIZE.
 *
 * Returns: (transfer full) (nullable): the recording
 */
SluiceRecording *
_sluice_recording_new_from_data_limited (const char  *data,
                                         gsize        length,
                                         const char  *name,
                                         gsize        max_size,
                                         GError     **error)
{
  SluiceRecording *self = recording_new (name);
  Reader r;

  reader_init (&r, self);
  reader_feed (&r, data, MIN (length, max_size));
  reader_end (&r, length > max_size, max_size);
  return reader_finish (&r, self, error);
}

/**
 * sluice_recording_new_from_data:
 * @data: (array length=length): the text of a `.sluicerun` file
 * @length: its length in bytes
 * @name: (nullable): how messages name it (the file name)
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Reads a recording held in memory; see sluice_recording_new_from_file().
 *
 * Returns: (transfer full) (nullable): the recording, or %NULL when its
 *   first line is not a valid header
 */
SluiceRecording *
sluice_recording_new_from_data (const char  *data,
                                gsize        length,
                                const char  *name,
                                GError     **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return _sluice_recording_new_from_data_limited (data ? data : "", length, name,
                                                  SLUICE_RECORDING_MAX_SIZE, error);
}

static void
set_read_error (GError     **error,
                const char  *path,
                int          errsv)
{
  g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
               /* Translators: the first %s is the file, the second why it cannot be read. */
               _("%s: cannot read the recording: %s"), path, g_strerror (errsv));
}

/* Feeds the regular file open on @fd to @r, a chunk at a time, never
 * reading more than one byte past SLUICE_RECORDING_MAX_SIZE. */
static gboolean
read_fd (Reader      *r,
         int          fd,
         const char  *path,
         gboolean    *too_large,
         GError     **error)
{
  g_autofree char *chunk = g_malloc (64 * 1024);
  gsize total = 0;

  while (r->error == NULL)
    {
      gsize room = MIN ((gsize) 64 * 1024, (gsize) SLUICE_RECORDING_MAX_SIZE + 1 - total);
      gssize n = read (fd, chunk, room);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          set_read_error (error, path, errno);
          return FALSE;
        }
      if (n == 0)
        break;
      if (total + (gsize) n > SLUICE_RECORDING_MAX_SIZE)
        {
          reader_feed (r, chunk, SLUICE_RECORDING_MAX_SIZE - total);
          *too_large = TRUE;
          break;
        }
      reader_feed (r, chunk, (gsize) n);
      total += (gsize) n;
    }
  return TRUE;
}

/* Opened without blocking, so that a FIFO is refused (not regular) rather
 * than waited on, like a scenario file. */
static int
open_regular (const char  *path,
              GError     **error)
{
  struct stat st;
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      set_read_error (error, path, errno);
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      set_read_error (error, path, errno);
      close (fd);
      return -1;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO,
                   /* Translators: %s is the file. */
                   _("%s: cannot read the recording: not a regular file (a directory, a device "
                     "or a pipe); expected a .sluicerun file"), path);
      close (fd);
      return -1;
    }
  return fd;
}

/**
 * sluice_recording_new_from_file:
 * @path: a `.sluicerun` file
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Reads a recording: its header, the scenario it holds and every valid
 * event, in a #SluiceRecorder. At most %SLUICE_RECORDING_MAX_SIZE bytes
 * are read, lines of at most %SLUICE_RECORDING_MAX_LINE; a file that is
 * not regular (a FIFO, a directory) is refused without blocking.
 *
 * What is wrong after the first line does not fail: the line is skipped
 * and sluice_recording_get_problems() says what and where (a line that is
 * not JSON, an unknown event kind, a bad value, a recording without its
 * run-end event, as a file cut short is).
 *
 * Returns: (transfer full) (nullable): the recording, or %NULL when the
 *   file cannot be read, is empty, or its first line is not the header of
 *   a recording of format %SLUICE_RECORDING_FORMAT with a valid scenario
 */
SluiceRecording *
sluice_recording_new_from_file (const char  *path,
                                GError     **error)
{
  SluiceRecording *self;
  gboolean too_large = FALSE;
  gboolean ok;
  Reader r;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  fd = open_regular (path, error);
  if (fd < 0)
    return NULL;

  self = recording_new (path);
  reader_init (&r, self);
  ok = read_fd (&r, fd, path, &too_large, error);
  close (fd);
  if (!ok)
    {
      reader_clear (&r);
      g_object_unref (self);
      return NULL;
    }

  reader_end (&r, too_large, SLUICE_RECORDING_MAX_SIZE);
  return reader_finish (&r, self, error);
}

/* ---- what a recording holds --------------------------------------------- */

/**
 * sluice_recording_get_name:
 * @self: a #SluiceRecording
 *
 * Returns: how messages name the recording: its path
 */
const char *
sluice_recording_get_name (SluiceRecording *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  return self->name;
}

/**
 * sluice_recording_get_version:
 * @self: a #SluiceRecording
 *
 * Returns: the version of Sluice that wrote the recording
 */
const char *
sluice_recording_get_version (SluiceRecording *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  return self->version;
}

/**
 * sluice_recording_get_scenario_text:
 * @self: a #SluiceRecording
 *
 * Returns: the text of the scenario that ran, as the recording holds it
 */
const char *
sluice_recording_get_scenario_text (SluiceRecording *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  return self->scenario_text;
}

/**
 * sluice_recording_get_scenario:
 * @self: a #SluiceRecording
 *
 * Returns: (transfer none): the scenario that ran, loaded from its text
 */
SluiceScenario *
sluice_recording_get_scenario (SluiceRecording *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  return self->scenario;
}

/**
 * sluice_recording_get_recorder:
 * @self: a #SluiceRecording
 *
 * Returns: (transfer none): every valid event of the recording, in file
 *   order, in a recorder without a capacity
 */
SluiceRecorder *
sluice_recording_get_recorder (SluiceRecording *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  return self->recorder;
}

/**
 * sluice_recording_get_report:
 * @self: a #SluiceRecording
 *
 * The run's report as the recording carries it: the object `sluice-run
 * --json` prints, written when the run ended. A recording cut short still
 * has it (it is on the first line), so it may tell of more events than the
 * recording holds.
 *
 * Returns: (transfer none) (nullable): the report, or %NULL when the
 *   recording has none
 */
JsonNode *
sluice_recording_get_report (SluiceRecording *self)
{
  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  return self->report;
}

/**
 * sluice_recording_get_problems:
 * @self: a #SluiceRecording
 *
 * What was wrong in the recording and left out, one sentence each, such
 * as `run.sluicerun:12: not a JSON object; expected one event a line`: at
 * most %SLUICE_RECORDING_MAX_PROBLEMS, then one saying how many more.
 *
 * Returns: (transfer none) (array zero-terminated=1): the problems, empty
 *   for a recording read whole
 */
const char * const *
sluice_recording_get_problems (SluiceRecording *self)
{
  static const char * const none[] = { NULL };

  g_return_val_if_fail (SLUICE_IS_RECORDING (self), NULL);
  /* An empty array may have no storage yet. */
  return self->problems->pdata != NULL ? (const char * const *) self->problems->pdata : none;
}
