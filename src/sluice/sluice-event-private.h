/* sluice-event-private.h: events written as an aa{sv} in one go, for the
 * D-Bus export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-event.h"

G_BEGIN_DECLS

/* sluice_event_copy_into() and sluice_event_clear() without their checks,
 * for the copies made of every event (the D-Bus export's ring): most
 * events own no string and many no value. */
static inline void
_sluice_event_copy_into (SluiceEvent       *dest,
                         const SluiceEvent *src)
{
  *dest = *src;
  if (G_UNLIKELY (src->error_type != NULL))
    dest->error_type = g_strdup (src->error_type);
  if (G_UNLIKELY (src->error_message != NULL))
    dest->error_message = g_strdup (src->error_message);
  if (src->value != NULL)
    g_variant_ref (src->value);
  /* A few fixed words (`deadline`, `budget`): interned, never freed, so
   * they outlive the event that named them without a copy per event. */
  if (G_UNLIKELY (src->reason != NULL))
    dest->reason = g_intern_string (src->reason);
}

static inline void
_sluice_event_clear (SluiceEvent *event)
{
  if (G_UNLIKELY (event->error_type != NULL))
    g_clear_pointer ((char **) &event->error_type, g_free);
  if (G_UNLIKELY (event->error_message != NULL))
    g_clear_pointer ((char **) &event->error_message, g_free);
  if (event->value != NULL)
    g_clear_pointer (&event->value, g_variant_unref);
  event->reason = NULL;
}

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
