/* sluice-event-list.h: the recorder's events as a list model, rows made on demand
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sluice-recorder.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_EVENT_LIST (sluice_event_list_get_type ())
G_DECLARE_FINAL_TYPE (SluiceEventList, sluice_event_list, SLUICE, EVENT_LIST, GObject)

SluiceEventList *sluice_event_list_new          (void);
void             sluice_event_list_set_recorder (SluiceEventList *self,
                                                 SluiceRecorder  *recorder);
gboolean         sluice_event_list_update       (SluiceEventList *self);
void             sluice_event_list_set_filter   (SluiceEventList *self,
                                                 const char      *needle,
                                                 gint             kind);
void             sluice_event_list_set_tail     (SluiceEventList *self,
                                                 guint            rows);
guint            sluice_event_list_get_tail     (SluiceEventList *self);
guint            sluice_event_list_get_n_rows   (SluiceEventList *self);
guint            sluice_event_list_get_n_events (SluiceEventList *self);
guint            sluice_event_list_find_row     (SluiceEventList *self,
                                                 guint64          position);

G_END_DECLS
