/* sluice-event-ring-private.h: the latest events of a run, numbered, for
 * the D-Bus export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-event-private.h"

G_BEGIN_DECLS

/* The event numbered seq is at slots[seq % capacity]; events from
 * first_seq to next_seq (not included) are held. Slots are allocated as
 * the first events come, up to the capacity. Every event of an exported
 * run is pushed, so pushing is inline: what the export costs a pool that
 * nobody watches. */
typedef struct
{
  SluiceEvent *slots;
  guint        capacity;
  guint        n_allocated;
  guint        next_slot;      /* next_seq % capacity, kept without a division */
  guint64      first_seq;
  guint64      next_seq;
} SluiceEventRing;

void         _sluice_event_ring_init  (SluiceEventRing       *self,
                                       guint                  capacity);
void         _sluice_event_ring_clear (SluiceEventRing       *self);
void         _sluice_event_ring_grow  (SluiceEventRing       *self);
SluiceEvent *_sluice_event_ring_copy  (const SluiceEventRing *self,
                                       guint64                from,
                                       guint64                to);

static inline const SluiceEvent *
_sluice_event_ring_at (const SluiceEventRing *self,
                       guint64                seq)
{
  return &self->slots[seq % self->capacity];
}

static inline void
_sluice_event_ring_push (SluiceEventRing   *self,
                         const SluiceEvent *event)
{
  if (self->next_seq - self->first_seq == self->capacity)
    {
      /* Full: the oldest is where the next goes. */
      _sluice_event_clear (&self->slots[self->next_slot]);
      self->first_seq++;
    }
  else if (G_UNLIKELY (self->next_seq == self->n_allocated))
    _sluice_event_ring_grow (self);

  _sluice_event_copy_into (&self->slots[self->next_slot], event);
  self->next_slot = self->next_slot + 1 == self->capacity ? 0 : self->next_slot + 1;
  self->next_seq++;
}

G_END_DECLS
