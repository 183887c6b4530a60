/* sluice-event-private.h: events written as an aa{sv} in one go, for the
 * D-Bus export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-event.h"

G_BEGIN_DECLS

typedef struct
{
  GByteArray *out;         /* the array's serialised form so far */
  GArray     *ends;        /* guint64: each event's end */
  GArray     *entry_ends;  /* guint64: scratch, the entries of one event */
} SluiceEventArray;

void      _sluice_event_array_init       (SluiceEventArray  *self);
void      _sluice_event_array_add        (SluiceEventArray  *self,
                                          const SluiceEvent *event);
guint     _sluice_event_array_get_length (SluiceEventArray  *self);
GVariant *_sluice_event_array_end        (SluiceEventArray  *self);

G_END_DECLS
