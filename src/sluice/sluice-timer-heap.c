/* sluice-timer-heap.c: the clock's timers, in a binary min-heap on (deadline, id)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-timer-heap-private.h"

#include <string.h>

/* heap_index of a timer that is not in the heap */
#define NOT_IN_HEAP G_MAXUINT

/* Children of slot i are 4i+1 … 4i+4: half the levels of a binary heap,
 * and the four keys of a level share a cache line or two. */
#define ARITY 4

/* How many freed timers of its own the heap keeps for reuse. */
#define MAX_SPARE 256

/* A freed timer of the heap's own, kept in its free list (linked through
 * user_data) or freed. The timer must already be out of every container:
 * its notify may call back into the clock. */
void
_sluice_timer_heap_release (SluiceTimerHeap *heap,
                            SluiceTimer     *timer)
{
  if (timer->destroy != NULL)
    timer->destroy (timer->user_data);
  if (heap->slots == NULL || heap->n_spare >= MAX_SPARE)
    {
      g_free (timer);
      return;
    }
  timer->user_data = heap->spare;
  heap->spare = timer;
  heap->n_spare++;
}

static SluiceTimer *
timer_alloc (SluiceTimerHeap *heap)
{
  SluiceTimer *timer = heap->spare;

  if (timer == NULL)
    return g_new0 (SluiceTimer, 1);
  heap->spare = timer->user_data;
  heap->n_spare--;
  memset (timer, 0, sizeof *timer);
  return timer;
}

static inline gboolean
slot_before (const SluiceTimerSlot *a,
             const SluiceTimerSlot *b)
{
  if (a->deadline != b->deadline)
    return a->deadline < b->deadline;
  return a->order < b->order;
}

static inline void
heap_set (SluiceTimerHeap       *heap,
          guint                  index,
          const SluiceTimerSlot *slot)
{
  heap->slots[index] = *slot;
  slot->timer->heap_index = index;
}

static void
heap_sift_up (SluiceTimerHeap *heap,
              guint            index)
{
  SluiceTimerSlot slot = heap->slots[index];

  while (index > 0)
    {
      guint parent = (index - 1) / ARITY;

      if (!slot_before (&slot, &heap->slots[parent]))
        break;
      heap_set (heap, index, &heap->slots[parent]);
      index = parent;
    }
  heap_set (heap, index, &slot);
}

static void
heap_sift_down (SluiceTimerHeap *heap,
                guint            index)
{
  SluiceTimerSlot slot = heap->slots[index];
  guint len = heap->len;

  for (;;)
    {
      guint first = ARITY * index + 1;
      guint last = MIN (first + ARITY, len);
      guint best;

      if (first >= len)
        break;
      best = first;
      for (guint child = first + 1; child < last; child++)
        if (slot_before (&heap->slots[child], &heap->slots[best]))
          best = child;
      if (!slot_before (&heap->slots[best], &slot))
        break;
      heap_set (heap, index, &heap->slots[best]);
      index = best;
    }
  heap_set (heap, index, &slot);
}

static void
heap_remove (SluiceTimerHeap *heap,
             SluiceTimer     *timer)
{
  guint index = timer->heap_index;
  guint last = heap->len - 1;

  g_assert (index < heap->len && heap->slots[index].timer == timer);

  heap->len = last;
  if (index != last)
    {
      heap_set (heap, index, &heap->slots[last]);
      /* The moved timer may belong above or below its new slot. */
      if (index > 0 && slot_before (&heap->slots[index], &heap->slots[(index - 1) / ARITY]))
        heap_sift_up (heap, index);
      else
        heap_sift_down (heap, index);
    }

  timer->heap_index = NOT_IN_HEAP;
}

void
_sluice_timer_heap_init (SluiceTimerHeap *heap)
{
  heap->size = 16;
  heap->slots = g_new (SluiceTimerSlot, heap->size);
  heap->len = 0;
  heap->stashes = NULL;
  heap->timers = g_hash_table_new (g_int64_hash, g_int64_equal);
  heap->n_pending = 0;
  heap->next_id = 1;
  heap->spare = NULL;
  heap->n_spare = 0;
}

/* Frees the containers; the timers must be gone already. */
void
_sluice_timer_heap_destroy (SluiceTimerHeap *heap)
{
  g_clear_pointer (&heap->slots, g_free);
  heap->len = heap->size = 0;
  g_clear_pointer (&heap->timers, g_hash_table_unref);
  while (heap->spare != NULL)
    {
      SluiceTimer *timer = heap->spare;

      heap->spare = timer->user_data;
      g_free (timer);
    }
  heap->n_spare = 0;
}

/* Marks a pending timer done; one the heap owns goes to @doomed. */
static void
forget_timer (SluiceTimer *timer,
              GPtrArray   *doomed)
{
  timer->stash = NULL;
  timer->heap_index = NOT_IN_HEAP;
  timer->pending = FALSE;
  if (!timer->embedded)
    g_ptr_array_add (doomed, timer);
}

/* Moves the pending timers of @timers to @doomed, marking them done. */
static void
forget_timers (SluiceTimerHeap *heap,
               GPtrArray       *timers,
               GPtrArray       *doomed)
{
  for (guint i = 0; i < timers->len; i++)
    forget_timer (timers->pdata[i], doomed);
  g_ptr_array_set_size (timers, 0);
}

/* Frees every pending timer the heap owns, calling its destroy notify;
 * nodes are only marked done. */
void
_sluice_timer_heap_clear (SluiceTimerHeap *heap)
{
  g_autoptr(GPtrArray) doomed = NULL;

  if (heap->n_pending == 0)
    return;

  /* Empty every container first: notifies may call back into the clock. */
  doomed = g_ptr_array_new ();
  g_hash_table_remove_all (heap->timers);
  heap->n_pending = 0;
  for (guint i = 0; i < heap->len; i++)
    forget_timer (heap->slots[i].timer, doomed);
  heap->len = 0;
  for (GSList *l = heap->stashes; l != NULL; l = l->next)
    forget_timers (heap, l->data, doomed);
  for (guint i = 0; i < doomed->len; i++)
    _sluice_timer_heap_release (heap, doomed->pdata[i]);
}

guint
_sluice_timer_heap_get_n_pending (SluiceTimerHeap *heap)
{
  return heap->n_pending;
}

static void
heap_insert (SluiceTimerHeap *heap,
             SluiceTimer     *timer)
{
  SluiceTimerSlot *slot;

  if (heap->len == heap->size)
    {
      heap->size *= 2;
      heap->slots = g_renew (SluiceTimerSlot, heap->slots, heap->size);
    }
  slot = &heap->slots[heap->len];
  slot->deadline = timer->deadline;
  slot->order = ((guint64) !timer->first << 63) | timer->id;
  slot->timer = timer;
  timer->heap_index = heap->len++;
  heap_sift_up (heap, heap->len - 1);
}

static void
schedule (SluiceTimerHeap *heap,
          SluiceTimer     *timer,
          gint64           deadline,
          SluiceTimerFunc  func,
          gpointer         user_data)
{
  timer->id = heap->next_id++;
  timer->deadline = deadline;
  timer->func = func;
  timer->user_data = user_data;
  timer->heap_index = NOT_IN_HEAP;
  timer->stash = NULL;
  timer->pending = TRUE;
  heap->n_pending++;
  heap_insert (heap, timer);
}

/* Returns the id of the new timer, never 0. */
guint64
_sluice_timer_heap_add (SluiceTimerHeap *heap,
                        gint64           deadline,
                        gboolean         first,
                        SluiceTimerFunc  func,
                        gpointer         user_data,
                        GDestroyNotify   destroy)
{
  SluiceTimer *timer = timer_alloc (heap);

  timer->first = !!first;
  timer->destroy = destroy;
  schedule (heap, timer, deadline, func, user_data);
  g_hash_table_insert (heap->timers, &timer->id, timer);

  return timer->id;
}

/* Schedules @node, which must not be pending: its owner keeps it. */
void
_sluice_timer_heap_add_node (SluiceTimerHeap *heap,
                             SluiceTimer     *node,
                             gint64           deadline,
                             SluiceTimerFunc  func,
                             gpointer         user_data)
{
  g_assert (!node->pending);

  node->embedded = TRUE;
  node->first = FALSE;
  node->destroy = NULL;
  schedule (heap, node, deadline, func, user_data);
}

/* Takes a pending @timer out of the heap, or out of the stash it sits in. */
static void
unlink_timer (SluiceTimerHeap *heap,
              SluiceTimer     *timer)
{
  if (timer->stash != NULL)
    {
      g_ptr_array_remove_fast (timer->stash, timer);
      timer->stash = NULL;
    }
  else
    {
      heap_remove (heap, timer);
    }
}

/* The timer is out of every container: it is no longer pending. */
static void
settle (SluiceTimerHeap *heap,
        SluiceTimer     *timer)
{
  timer->pending = FALSE;
  heap->n_pending--;
  if (!timer->embedded)
    g_hash_table_remove (heap->timers, &timer->id);
}

/* Takes the pending timer @id out of the heap, or out of the stash it
 * sits in; the caller frees it. %NULL if @id is not pending. */
SluiceTimer *
_sluice_timer_heap_take (SluiceTimerHeap *heap,
                         guint64          id)
{
  SluiceTimer *timer = g_hash_table_lookup (heap->timers, &id);

  if (timer == NULL)
    return NULL;

  unlink_timer (heap, timer);
  settle (heap, timer);

  return timer;
}

/* Removes @node if it is pending; gives whether it was. */
gboolean
_sluice_timer_heap_remove_node (SluiceTimerHeap *heap,
                                SluiceTimer     *node)
{
  if (!node->pending)
    return FALSE;

  unlink_timer (heap, node);
  settle (heap, node);

  return TRUE;
}

/* The earliest deadline of the heap and of the stashes, which are still
 * pending; %G_MAXINT64 if both are empty. */
gint64
_sluice_timer_heap_next_deadline (SluiceTimerHeap *heap)
{
  SluiceTimer *top = _sluice_timer_heap_peek (heap);
  gint64 next = top != NULL ? top->deadline : G_MAXINT64;

  for (GSList *l = heap->stashes; l != NULL; l = l->next)
    {
      GPtrArray *stash = l->data;

      for (guint i = 0; i < stash->len; i++)
        next = MIN (next, ((SluiceTimer *) stash->pdata[i])->deadline);
    }

  return next;
}

/* Takes out the earliest timer due at @now whose id is at most @last_id,
 * or returns NULL when none is left. Due timers with a larger id were
 * added by a callback of the running fire loop: they must wait for a later
 * dispatch without hiding older due timers behind them, so they go into
 * *@stash (made on first use: most dispatches set nothing aside, and one
 * array per dispatch was a visible part of an item's cost) until
 * put_back(). */
static SluiceTimer *
pop_due (SluiceTimerHeap  *heap,
         gint64            now,
         guint64           last_id,
         GPtrArray       **stash)
{
  SluiceTimer *timer;

  while ((timer = _sluice_timer_heap_peek (heap)) != NULL &&
         timer->deadline <= now)
    {
      heap_remove (heap, timer);

      if (timer->id <= last_id)
        return timer;

      if (*stash == NULL)
        {
          *stash = g_ptr_array_new ();
          heap->stashes = g_slist_prepend (heap->stashes, *stash);
        }
      timer->stash = *stash;
      g_ptr_array_add (*stash, timer);
    }

  return NULL;
}

/* Ends a fire loop: the timers it set aside go back into the heap. */
static void
put_back (SluiceTimerHeap *heap,
          GPtrArray       *stash)
{
  if (stash == NULL)
    return;

  heap->stashes = g_slist_remove (heap->stashes, stash);
  for (guint i = 0; i < stash->len; i++)
    {
      SluiceTimer *timer = stash->pdata[i];

      timer->stash = NULL;
      heap_insert (heap, timer);
    }
  g_ptr_array_unref (stash);
}

/* Fires, in (deadline, id) order, every timer due at @now that existed
 * when the call began; stops early once *@stop is set, as disposing the
 * clock from a callback does. */
void
_sluice_timer_heap_fire_due (SluiceTimerHeap *heap,
                             gint64           now,
                             const gboolean  *stop)
{
  guint64 last_id = heap->next_id - 1;
  GPtrArray *stash = NULL;
  SluiceTimer *timer;

  while (!*stop && (timer = pop_due (heap, now, last_id, &stash)) != NULL)
    {
      gboolean embedded = timer->embedded;

      settle (heap, timer);
      /* A node's owner may free it in the callback, or schedule it again. */
      timer->func (timer->user_data);
      if (!embedded)
        _sluice_timer_heap_release (heap, timer);
    }

  put_back (heap, stash);
}
