/* sluice-timeline-items-private.h: what the timeline model knows per item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

/* A part of SluiceTimeline (sluice-timeline.c), kept apart so that the
 * model's file stays about bars, marks and samples: the items a worker
 * holds now (the busy workers) and each item's value as pulled (the
 * tooltips). */
typedef struct _SluiceTimelineItems SluiceTimelineItems;

SluiceTimelineItems *_sluice_timeline_items_new       (void);
void                 _sluice_timeline_items_free      (SluiceTimelineItems *items);
void                 _sluice_timeline_items_clear     (SluiceTimelineItems *items);
void                 _sluice_timeline_items_add_event (SluiceTimelineItems *items,
                                                       const SluiceEvent   *event);
guint                _sluice_timeline_items_get_busy  (SluiceTimelineItems *items);
void                 _sluice_timeline_items_forget_held (SluiceTimelineItems *items);
const char          *_sluice_timeline_items_get_value (SluiceTimelineItems *items,
                                                       gint64               item);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceTimelineItems, _sluice_timeline_items_free)

G_END_DECLS
