/* sluice-event-item.h: one recorded event as a list item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_EVENT_ITEM (sluice_event_item_get_type ())
G_DECLARE_FINAL_TYPE (SluiceEventItem, sluice_event_item, SLUICE, EVENT_ITEM, GObject)

SluiceEventItem   *sluice_event_item_new          (const SluiceEvent *event,
                                                   guint64            position);
const SluiceEvent *sluice_event_item_get_event    (SluiceEventItem   *self);
guint64            sluice_event_item_get_position (SluiceEventItem   *self);
void               sluice_event_item_set          (SluiceEventItem   *self,
                                                   const SluiceEvent *event,
                                                   guint64            position);
char              *sluice_event_item_dup_detail   (SluiceEventItem   *self);

gboolean           sluice_event_items_flush       (GListStore        *store,
                                                   GPtrArray         *pending);

const char        *sluice_event_kind_get_display_name (SluiceEventKind kind);
const char        *sluice_outcome_get_display_name    (SluiceOutcome   outcome);
char              *sluice_event_dup_detail            (const SluiceEvent *e);
char              *sluice_event_dup_search_text       (const SluiceEvent *e);

G_END_DECLS
