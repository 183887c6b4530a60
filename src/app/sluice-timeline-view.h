/* sluice-timeline-view.h: one lane per worker, drawn by src/render
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-fault-handler.h"
#include "sluice-time-view.h"
#include "sluice-timeline.h"
#include "sluice-viewport.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_TIMELINE_VIEW (sluice_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceTimelineView, sluice_timeline_view, SLUICE, TIMELINE_VIEW, SluiceTimeView)

GtkWidget *sluice_timeline_view_new               (void);
void       sluice_timeline_view_set_model         (SluiceTimelineView *self,
                                                   SluiceTimeline     *model,
                                                   guint               n_lanes);
SluiceTimeline *sluice_timeline_view_get_model (SluiceTimelineView *self);
void       sluice_timeline_view_set_handler       (SluiceTimelineView *self,
                                                   SluiceFaultHandler *handler);
guint      sluice_timeline_view_get_n_lanes       (SluiceTimelineView *self);
gint64     sluice_timeline_view_get_selected_item (SluiceTimelineView *self);
void       sluice_timeline_view_set_selected_item (SluiceTimelineView *self,
                                                   gint64              item);
char      *sluice_timeline_view_describe_bar      (SluiceTimelineView *self,
                                                   guint               bar_index);
char      *sluice_timeline_view_describe_mark     (SluiceTimelineView *self,
                                                   guint               mark_index);

G_END_DECLS
