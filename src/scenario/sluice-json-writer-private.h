/* sluice-json-writer-private.h: JSON written as it is produced, byte for
 * byte as json-glib 1.6's generator writes the same tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Where the text goes, a chunk at a time; FALSE with @error set stops the
 * writing. */
typedef gboolean (*SluiceJsonSink) (const char  *data,
                                    gsize        length,
                                    gpointer     user_data,
                                    GError     **error);

#define SLUICE_JSON_WRITER_MAX_DEPTH 8

/* Room for any gint64 in decimal, its sign and a nul. */
#define SLUICE_JSON_INT_BUF_SIZE 24

typedef struct {
  /* Either a tree (builder) or text (buffer, flushed to sink). */
  JsonBuilder    *builder;
  GString        *buffer;
  SluiceJsonSink  sink;
  gpointer        sink_data;
  gboolean        pretty;
  GError         *error;       /* the sink's first error: nothing is written after it */

  guint           depth;
  struct {
    gboolean      object;
    guint         n_members;
  }               open[SLUICE_JSON_WRITER_MAX_DEPTH];
} SluiceJsonWriter;

void     _sluice_json_writer_init_text    (SluiceJsonWriter  *w,
                                           gboolean           pretty,
                                           SluiceJsonSink     sink,
                                           gpointer           sink_data);
gboolean _sluice_json_writer_stream_sink  (const char        *data,
                                           gsize              length,
                                           gpointer           sink_data,
                                           GError           **error);
void     _sluice_json_writer_init_builder (SluiceJsonWriter  *w,
                                           JsonBuilder       *builder);
gboolean _sluice_json_writer_finish       (SluiceJsonWriter  *w,
                                           GError           **error);

void     _sluice_json_writer_begin_object (SluiceJsonWriter  *w);
void     _sluice_json_writer_end_object   (SluiceJsonWriter  *w);
void     _sluice_json_writer_begin_array  (SluiceJsonWriter  *w);
void     _sluice_json_writer_end_array    (SluiceJsonWriter  *w);
void     _sluice_json_writer_member       (SluiceJsonWriter  *w,
                                           const char        *name);
const char *_sluice_json_writer_format_int (gint64         value,
                                            char          *buf);

void     _sluice_json_writer_int          (SluiceJsonWriter  *w,
                                           gint64             value);
void     _sluice_json_writer_double       (SluiceJsonWriter  *w,
                                           double             value);
void     _sluice_json_writer_boolean      (SluiceJsonWriter  *w,
                                           gboolean           value);
void     _sluice_json_writer_null         (SluiceJsonWriter  *w);
void     _sluice_json_writer_string       (SluiceJsonWriter  *w,
                                           const char        *value);
void     _sluice_json_writer_variant      (SluiceJsonWriter  *w,
                                           GVariant          *value);
void     _sluice_json_writer_raw          (SluiceJsonWriter  *w,
                                           const char        *text);

/* A member with an integer value: the most common pair. */
static inline void
_sluice_json_writer_int_member (SluiceJsonWriter *w,
                                const char       *name,
                                gint64            value)
{
  _sluice_json_writer_member (w, name);
  _sluice_json_writer_int (w, value);
}

G_END_DECLS
