/* sluice-recorder.h: keeps a run's event stream and writes it as JSON Lines or CSV
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sluice.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_RECORDER (sluice_recorder_get_type ())
G_DECLARE_FINAL_TYPE (SluiceRecorder, sluice_recorder, SLUICE, RECORDER, GObject)

SluiceRecorder    *sluice_recorder_new            (guint               capacity);
guint              sluice_recorder_get_capacity   (SluiceRecorder     *self);
void               sluice_recorder_add            (SluiceRecorder     *self,
                                                   const SluiceEvent  *event);
void               sluice_recorder_event_func     (const SluiceEvent  *event,
                                                   gpointer            user_data);
guint              sluice_recorder_get_n_events   (SluiceRecorder     *self);
guint64            sluice_recorder_get_n_dropped  (SluiceRecorder     *self);
const SluiceEvent *sluice_recorder_get_event      (SluiceRecorder     *self,
                                                   guint               index);
guint64            sluice_recorder_get_first_position (SluiceRecorder *self);
guint64            sluice_recorder_get_end_position (SluiceRecorder   *self);
const SluiceEvent *sluice_recorder_lookup         (SluiceRecorder     *self,
                                                   guint64             position);
const SluiceEvent *sluice_recorder_next           (SluiceRecorder     *self,
                                                   guint64            *cursor);
guint64            sluice_recorder_find_time      (SluiceRecorder     *self,
                                                   gint64              time);
void               sluice_recorder_clear          (SluiceRecorder     *self);
void               sluice_recorder_add_gap        (SluiceRecorder     *self,
                                                   guint64             n_lost);
guint64            sluice_recorder_get_n_lost     (SluiceRecorder     *self);
guint64            sluice_recorder_get_lost_before (SluiceRecorder    *self,
                                                   guint64             position);
JsonNode          *sluice_recorder_event_to_json  (const SluiceEvent  *event);
char              *sluice_recorder_event_to_line  (const SluiceEvent  *event);
gboolean           sluice_recorder_write_jsonl    (SluiceRecorder     *self,
                                                   GOutputStream      *stream,
                                                   GCancellable       *cancellable,
                                                   GError            **error);
gboolean           sluice_recorder_save_jsonl     (SluiceRecorder     *self,
                                                   const char         *path,
                                                   GError            **error);
gboolean           sluice_recorder_write_csv      (SluiceRecorder     *self,
                                                   GOutputStream      *stream,
                                                   GCancellable       *cancellable,
                                                   GError            **error);
gboolean           sluice_recorder_save_csv       (SluiceRecorder     *self,
                                                   const char         *path,
                                                   GError            **error);

G_END_DECLS
