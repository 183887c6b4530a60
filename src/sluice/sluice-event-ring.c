/* sluice-event-ring.c: the latest events of a run, numbered, for the
 * D-Bus export
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-event-ring-private.h"

void
_sluice_event_ring_init (SluiceEventRing *self,
                         guint            capacity)
{
  g_return_if_fail (capacity > 0);

  memset (self, 0, sizeof *self);
  self->capacity = capacity;
}

/* Drops what it holds, at the export's end: nothing is pushed after. */
void
_sluice_event_ring_clear (SluiceEventRing *self)
{
  for (guint64 seq = self->first_seq; seq < self->next_seq; seq++)
    _sluice_event_clear ((SluiceEvent *) _sluice_event_ring_at (self, seq));
  g_clear_pointer (&self->slots, g_free);
  self->n_allocated = 0;
  self->first_seq = self->next_seq;
}

/* Not yet full, so nothing was dropped: next_seq < capacity, and the slots
 * in use are the first next_seq. Doubling keeps a short run's ring small. */
void
_sluice_event_ring_grow (SluiceEventRing *self)
{
  self->n_allocated = MIN (MAX (self->n_allocated * 2, 64), self->capacity);
  self->slots = g_renew (SluiceEvent, self->slots, self->n_allocated);
}

/* Copies of the events from @from to @to (not included), which the ring
 * holds: they own their strings and values, for another thread. */
SluiceEvent *
_sluice_event_ring_copy (const SluiceEventRing *self,
                         guint64                from,
                         guint64                to)
{
  SluiceEvent *events;

  if (from == to)
    return NULL;
  g_return_val_if_fail (from >= self->first_seq && from <= to && to <= self->next_seq, NULL);

  events = g_new (SluiceEvent, to - from);
  for (guint64 seq = from; seq < to; seq++)
    _sluice_event_copy_into (&events[seq - from], _sluice_event_ring_at (self, seq));
  return events;
}
