/* sluice-timer-heap-private.h: the clock's timers, in a binary min-heap on
 * (deadline, first, id)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-clock.h"

G_BEGIN_DECLS

/* One timer of a #SluiceClock. A timer of the public API is allocated by
 * the heap and found by its id; the engine's own timers are nodes inside
 * the structs that use them (an attempt's deadline), zero-initialised,
 * added and removed by pointer: no allocation and no id lookup per item. */
typedef struct
{
  guint64          id;
  gint64           deadline;
  SluiceTimerFunc  func;
  gpointer         user_data;
  GDestroyNotify   destroy;
  guint            heap_index;
  guint            first : 1;    /* fires before the others due at its deadline */
  guint            embedded : 1; /* a node owned by its user, not the heap */
  guint            pending : 1;  /* neither fired nor removed */
  /* Non-NULL while a running fire loop has set the timer aside. */
  GPtrArray       *stash;
} SluiceTimer;

/* A slot of the heap: the timer's sort key kept beside its pointer, so
 * that a sift compares within the heap's own array and touches a timer
 * only to move it. With 100,000 timers pending, a sift that read every
 * timer it compared missed the cache at each level. */
typedef struct
{
  gint64       deadline;
  guint64      order;     /* (not first) << 63 | id: first timers come first */
  SluiceTimer *timer;
} SluiceTimerSlot;

/* The pending timers of a clock. Each sits either in the heap or in
 * exactly one stash: the timers a running fire loop has set aside. Fire
 * loops nest when a timer's callback steps the clock, so there may be
 * several stashes at once. */
typedef struct
{
  SluiceTimerSlot *slots;    /* a 4-ary min-heap on (deadline, order) */
  guint            len;
  guint            size;
  GSList          *stashes;  /* GPtrArray* of the running fire loops */
  GHashTable      *timers;   /* &id → SluiceTimer*, the pending timers the heap owns */
  guint            n_pending;
  guint64          next_id;
  SluiceTimer     *spare;    /* freed timers of the heap's own, for the next ones */
  guint            n_spare;
} SluiceTimerHeap;

G_GNUC_INTERNAL void         _sluice_timer_heap_release       (SluiceTimerHeap  *heap,
                                                               SluiceTimer      *timer);

G_GNUC_INTERNAL void         _sluice_timer_heap_init          (SluiceTimerHeap  *heap);
G_GNUC_INTERNAL void         _sluice_timer_heap_destroy       (SluiceTimerHeap  *heap);
G_GNUC_INTERNAL void         _sluice_timer_heap_clear         (SluiceTimerHeap  *heap);
G_GNUC_INTERNAL guint        _sluice_timer_heap_get_n_pending (SluiceTimerHeap  *heap);
G_GNUC_INTERNAL guint64      _sluice_timer_heap_add           (SluiceTimerHeap  *heap,
                                                               gint64            deadline,
                                                               gboolean          first,
                                                               SluiceTimerFunc   func,
                                                               gpointer          user_data,
                                                               GDestroyNotify    destroy);
G_GNUC_INTERNAL void         _sluice_timer_heap_add_node      (SluiceTimerHeap  *heap,
                                                               SluiceTimer      *node,
                                                               gint64            deadline,
                                                               SluiceTimerFunc   func,
                                                               gpointer          user_data);
G_GNUC_INTERNAL SluiceTimer *_sluice_timer_heap_take          (SluiceTimerHeap  *heap,
                                                               guint64           id);
G_GNUC_INTERNAL gboolean     _sluice_timer_heap_remove_node   (SluiceTimerHeap  *heap,
                                                               SluiceTimer      *node);
G_GNUC_INTERNAL gint64       _sluice_timer_heap_next_deadline (SluiceTimerHeap  *heap);
G_GNUC_INTERNAL void         _sluice_timer_heap_fire_due      (SluiceTimerHeap  *heap,
                                                               gint64            now,
                                                               const gboolean   *stop);

/* The earliest timer in the heap (not counting stashes), or NULL. */
static inline SluiceTimer *
_sluice_timer_heap_peek (const SluiceTimerHeap *heap)
{
  return heap->len > 0 ? heap->slots[0].timer : NULL;
}

G_END_DECLS
