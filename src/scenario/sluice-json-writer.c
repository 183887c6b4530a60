/* sluice-json-writer.c: JSON written as it is produced, byte for byte as
 * json-glib 1.6's generator writes the same tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-json-writer-private.h"

#include <string.h>

/* A report of a million items has some 3 million values: a tree of them
 * took more memory and time than the run. The writer produces the text of
 * json_generator_to_data() for the tree that the same calls would build
 * with a JsonBuilder (indent 2, spaces), a chunk at a time, and can build
 * that tree instead for json_node consumers. What it copies from json-glib
 * 1.6.6 (json-generator.c) is marked; the reports' bytes depend on it. */

#define FLUSH_AT (64 * 1024)

void
_sluice_json_writer_init_text (SluiceJsonWriter *w,
                               gboolean          pretty,
                               SluiceJsonSink    sink,
                               gpointer          sink_data)
{
  memset (w, 0, sizeof *w);
  w->buffer = g_string_sized_new (sink != NULL ? FLUSH_AT + 256 : 4096);
  w->sink = sink;
  w->sink_data = sink_data;
  w->pretty = !!pretty;
}

void
_sluice_json_writer_init_builder (SluiceJsonWriter *w,
                                  JsonBuilder      *builder)
{
  memset (w, 0, sizeof *w);
  w->builder = builder;
}

static void
flush (SluiceJsonWriter *w)
{
  if (w->error == NULL && w->buffer->len > 0 &&
      !w->sink (w->buffer->str, w->buffer->len, w->sink_data, &w->error) && w->error == NULL)
    g_set_error_literal (&w->error, G_IO_ERROR, G_IO_ERROR_FAILED, "the JSON could not be written");
  g_string_truncate (w->buffer, 0);
}

static void
maybe_flush (SluiceJsonWriter *w)
{
  if (w->sink != NULL && w->buffer->len >= FLUSH_AT)
    flush (w);
}

/**
 * _sluice_json_writer_finish:
 * @w: a writer whose every container is closed
 * @error: return location for the sink's error
 *
 * Hands the rest of the text to the sink and frees what @w holds; with no
 * sink the text stays in @w->buffer, for the caller to take.
 *
 * Returns: whether every chunk was written
 */
gboolean
_sluice_json_writer_finish (SluiceJsonWriter  *w,
                            GError           **error)
{
  g_warn_if_fail (w->depth == 0);

  if (w->builder != NULL)
    return TRUE;

  if (w->sink != NULL)
    {
      flush (w);
      g_string_free (g_steal_pointer (&w->buffer), TRUE);
    }

  if (w->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&w->error));
      return FALSE;
    }
  return TRUE;
}

static void
indent (SluiceJsonWriter *w,
        guint             level)
{
  static const char spaces[2 * SLUICE_JSON_WRITER_MAX_DEPTH + 1] = "                ";

  if (w->pretty)
    g_string_append_len (w->buffer, spaces, 2 * MIN (level, SLUICE_JSON_WRITER_MAX_DEPTH));
}

/* json-glib 1.6.6's json_strescape(): `\\` and `"`, the named controls,
 * \u00XX for the others below 0x1f and for 0x7f (0x1f itself stays as it
 * is, and so does every byte of a multibyte character: `gchar` is signed). */
static void
append_escaped (GString    *out,
                const char *str)
{
  for (const gchar *p = str; *p != '\0'; p++)
    {
      if (*p == '\\' || *p == '"')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, *p);
        }
      else if ((*p > 0 && *p < 0x1f) || *p == 0x7f)
        {
          switch (*p)
            {
            case '\b':
              g_string_append (out, "\\b");
              break;
            case '\f':
              g_string_append (out, "\\f");
              break;
            case '\n':
              g_string_append (out, "\\n");
              break;
            case '\r':
              g_string_append (out, "\\r");
              break;
            case '\t':
              g_string_append (out, "\\t");
              break;
            default:
              g_string_append_printf (out, "\\u00%02x", (guint) *p);
              break;
            }
        }
      else
        g_string_append_c (out, *p);
    }
}

/* Where a value starts: json-glib writes `,` after every element but the
 * last, and a newline after each when pretty; written before the next
 * element instead, the bytes are the same. */
static void
start_value (SluiceJsonWriter *w,
             gboolean          member)
{
  if (w->depth > 0)
    {
      guint *n = &w->open[w->depth - 1].n_members;

      g_warn_if_fail (w->open[w->depth - 1].object == member);
      if (*n > 0)
        g_string_append_c (w->buffer, ',');
      if (w->pretty)
        g_string_append_c (w->buffer, '\n');
      (*n)++;
    }
  indent (w, w->depth);
}

void
_sluice_json_writer_member (SluiceJsonWriter *w,
                            const char       *name)
{
  if (w->builder != NULL)
    {
      json_builder_set_member_name (w->builder, name);
      return;
    }

  start_value (w, TRUE);
  g_string_append_c (w->buffer, '"');
  append_escaped (w->buffer, name);
  g_string_append (w->buffer, w->pretty ? "\" : " : "\":");
}

/* An array element starts here; a member's value after its name. */
static void
start_element (SluiceJsonWriter *w)
{
  if (w->depth > 0 && !w->open[w->depth - 1].object)
    start_value (w, FALSE);
}

/* Opens an object or an array. */
static void
open_container (SluiceJsonWriter *w,
                gboolean          object)
{
  if (w->builder != NULL)
    {
      if (object)
        json_builder_begin_object (w->builder);
      else
        json_builder_begin_array (w->builder);
      return;
    }

  g_return_if_fail (w->depth < SLUICE_JSON_WRITER_MAX_DEPTH);

  start_element (w);
  g_string_append_c (w->buffer, object ? '{' : '[');
  w->open[w->depth].object = object;
  w->open[w->depth].n_members = 0;
  w->depth++;
}

/* json-glib indents the closing brace even of an empty object (`{  }`
 * inside another), and the closing bracket only of a non-empty array. */
static void
close_container (SluiceJsonWriter *w,
                 gboolean          object)
{
  gboolean empty;

  if (w->builder != NULL)
    {
      if (object)
        json_builder_end_object (w->builder);
      else
        json_builder_end_array (w->builder);
      return;
    }

  g_return_if_fail (w->depth > 0 && w->open[w->depth - 1].object == object);
  w->depth--;
  empty = w->open[w->depth].n_members == 0;
  if (!empty && w->pretty)
    g_string_append_c (w->buffer, '\n');
  if (object || !empty)
    indent (w, w->depth);
  g_string_append_c (w->buffer, object ? '}' : ']');
  maybe_flush (w);
}

void
_sluice_json_writer_begin_object (SluiceJsonWriter *w)
{
  open_container (w, TRUE);
}

void
_sluice_json_writer_end_object (SluiceJsonWriter *w)
{
  close_container (w, TRUE);
}

void
_sluice_json_writer_begin_array (SluiceJsonWriter *w)
{
  open_container (w, FALSE);
}

void
_sluice_json_writer_end_array (SluiceJsonWriter *w)
{
  close_container (w, FALSE);
}

/**
 * _sluice_json_writer_format_int:
 * @value: a number
 * @buf: room for SLUICE_JSON_INT_BUF_SIZE bytes
 *
 * Writes @value in decimal as printf's `%lld` does, without its cost:
 * a report writes three numbers per item.
 *
 * Returns: the text in @buf, nul-terminated
 */
const char *
_sluice_json_writer_format_int (gint64  value,
                                char   *buf)
{
  char *p = buf + SLUICE_JSON_INT_BUF_SIZE - 1;
  /* In unsigned arithmetic, so that G_MININT64 negates. */
  guint64 magnitude = value < 0 ? -(guint64) value : (guint64) value;

  *p = '\0';
  do
    {
      *--p = (char) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  while (magnitude != 0);
  if (value < 0)
    *--p = '-';

  return p;
}

void
_sluice_json_writer_int (SluiceJsonWriter *w,
                         gint64            value)
{
  char buf[SLUICE_JSON_INT_BUF_SIZE];

  if (w->builder != NULL)
    {
      json_builder_add_int_value (w->builder, value);
      return;
    }

  start_element (w);
  g_string_append (w->buffer, _sluice_json_writer_format_int (value, buf));
  maybe_flush (w);
}

/* json-glib 1.6.6: g_ascii_dtostr() (%.17g), and `.0` when that has no
 * point — even after an exponent (1e+20.0), as 1.6 does. */
void
_sluice_json_writer_double (SluiceJsonWriter *w,
                            double            value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (w->builder != NULL)
    {
      json_builder_add_double_value (w->builder, value);
      return;
    }

  start_element (w);
  g_string_append (w->buffer, g_ascii_dtostr (buf, sizeof buf, value));
  if (strchr (buf, '.') == NULL)
    g_string_append (w->buffer, ".0");
  maybe_flush (w);
}

void
_sluice_json_writer_boolean (SluiceJsonWriter *w,
                             gboolean          value)
{
  if (w->builder != NULL)
    {
      json_builder_add_boolean_value (w->builder, value);
      return;
    }

  start_element (w);
  g_string_append (w->buffer, value ? "true" : "false");
  maybe_flush (w);
}

void
_sluice_json_writer_null (SluiceJsonWriter *w)
{
  if (w->builder != NULL)
    {
      json_builder_add_null_value (w->builder);
      return;
    }

  start_element (w);
  g_string_append (w->buffer, "null");
  maybe_flush (w);
}

/**
 * _sluice_json_writer_variant:
 * @w: a writer
 * @value: an item or a result
 *
 * Writes an int64 as a number, a string as it is, anything else as its
 * text (g_variant_print()).
 */
void
_sluice_json_writer_variant (SluiceJsonWriter *w,
                             GVariant         *value)
{
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    _sluice_json_writer_int (w, g_variant_get_int64 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    _sluice_json_writer_string (w, g_variant_get_string (value, NULL));
  else
    {
      g_autofree char *text = g_variant_print (value, FALSE);
      _sluice_json_writer_string (w, text);
    }
}

/**
 * _sluice_json_writer_raw:
 * @w: a text writer
 * @text: text to add as it is, such as the newline after a JSON Lines object
 */
void
_sluice_json_writer_raw (SluiceJsonWriter *w,
                         const char       *text)
{
  g_return_if_fail (w->builder == NULL);

  g_string_append (w->buffer, text);
  maybe_flush (w);
}

void
_sluice_json_writer_string (SluiceJsonWriter *w,
                            const char       *value)
{
  if (w->builder != NULL)
    {
      json_builder_add_string_value (w->builder, value);
      return;
    }

  start_element (w);
  g_string_append_c (w->buffer, '"');
  append_escaped (w->buffer, value);
  g_string_append_c (w->buffer, '"');
  maybe_flush (w);
}

/* A #SluiceJsonSink onto a stream: @sink_data is a `gpointer[2]` of the
 * #GOutputStream and a nullable #GCancellable. */
gboolean
_sluice_json_writer_stream_sink (const char  *data,
                                 gsize        length,
                                 gpointer     sink_data,
                                 GError     **error)
{
  GOutputStream *stream = G_OUTPUT_STREAM (((gpointer *) sink_data)[0]);
  GCancellable *cancellable = ((gpointer *) sink_data)[1];

  return g_output_stream_write_all (stream, data, length, NULL, cancellable, error);
}
