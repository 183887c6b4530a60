/* sluice-event-log.h: the recorded events as a filtered table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <sluice.h>

#include "sluice-recorder.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_EVENT_LOG (sluice_event_log_get_type ())
G_DECLARE_FINAL_TYPE (SluiceEventLog, sluice_event_log, SLUICE, EVENT_LOG, GtkWidget)

GtkWidget *sluice_event_log_new          (void);
void       sluice_event_log_clear        (SluiceEventLog    *self);
void       sluice_event_log_set_recorder (SluiceEventLog    *self,
                                          SluiceRecorder    *recorder);
void       sluice_event_log_update       (SluiceEventLog    *self,
                                          gboolean           live);
guint      sluice_event_log_get_n_events (SluiceEventLog    *self);
guint      sluice_event_log_get_n_rows   (SluiceEventLog    *self);
void       sluice_event_log_select_row   (SluiceEventLog    *self,
                                          guint              row);
gint64     sluice_event_log_get_marked_time (SluiceEventLog *self);
void       sluice_event_log_show_position (SluiceEventLog    *self,
                                           guint64            position);
void       sluice_event_log_set_filter   (SluiceEventLog    *self,
                                          const char        *text,
                                          gint               kind);

G_END_DECLS
