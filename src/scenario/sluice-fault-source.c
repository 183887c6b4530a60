/* sluice-fault-source.c: a source of scenario items, with optional faults
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-fault-source.h"

#include <math.h>

/**
 * SluiceFaultSource:
 *
 * A #SluiceSource that yields a fixed list of items, or the integers
 * 0..N-1 of a range (made one at a time as they are pulled, so that a
 * large range costs no memory up front), waiting an interval on its
 * #SluiceClock between two items, and that can fail, cancel itself or
 * hang after a number of items (see #SluiceSourceFault).
 *
 * A fault after N items replaces pull N+1 at once (no interval before it);
 * N equal to the number of items replaces the end; a larger N never fires.
 * The interval is waited only between two items, on the clock; while it
 * waits, a read honours its #GCancellable. Any other read completes on the
 * next main-loop iteration, or at once through sluice_source_try_next().
 */

struct _SluiceFaultSource
{
  GObject            parent_instance;

  SluiceClock       *clock;
  GPtrArray         *items;       /* GVariant*, or NULL for a range */
  guint              n_items;
  gint64             interval;    /* µs */
  SluiceSourceFault  fault;
  guint              fault_after;
  guint              position;    /* items yielded or being waited for */
  gboolean           pending;
};

/* One read in progress: the task data of its GTask. */
typedef struct {
  guint64  timer_id;
  GSource *cancel_source;
  guint    index;
  gboolean done;
} Read;

static void source_iface_init (SluiceSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceFaultSource, sluice_fault_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, source_iface_init))

static void
read_detach (Read        *read,
             SluiceClock *clock)
{
  if (read->timer_id != 0)
    sluice_clock_remove_timer (clock, read->timer_id);
  read->timer_id = 0;

  if (read->cancel_source != NULL)
    g_source_destroy (read->cancel_source);
  g_clear_pointer (&read->cancel_source, g_source_unref);
}

static void
read_free (Read *read)
{
  g_assert (read->timer_id == 0 && read->cancel_source == NULL);
  g_free (read);
}

/* Item @index, a new reference. */
static GVariant *
item_at (SluiceFaultSource *self,
         guint              index)
{
  return self->items != NULL ? g_variant_ref (g_ptr_array_index (self->items, index))
                             : g_variant_ref_sink (g_variant_new_int64 (index));
}

/* Ends a read once, with the item it waited for, or cancelled. */
static void
read_finish (GTask    *task,
             gboolean  cancelled)
{
  SluiceFaultSource *self = g_task_get_source_object (task);
  Read *read = g_task_get_task_data (task);

  if (read->done)
    return;
  read->done = TRUE;
  self->pending = FALSE;

  read_detach (read, self->clock);

  if (cancelled)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      return;
    }

  self->position = read->index + 1;
  g_task_return_pointer (task, item_at (self, read->index), (GDestroyNotify) g_variant_unref);
}

static void
on_interval_done (gpointer user_data)
{
  GTask *task = user_data;
  Read *read = g_task_get_task_data (task);

  read->timer_id = 0;
  read_finish (task, FALSE);
}

static gboolean
on_cancelled (GCancellable *cancellable,
              gpointer      user_data)
{
  read_finish (G_TASK (user_data), TRUE);
  return G_SOURCE_REMOVE;
}

static void
watch_cancellable (GTask        *task,
                   GCancellable *cancellable)
{
  Read *read = g_task_get_task_data (task);

  if (cancellable == NULL)
    return;

  read->cancel_source = g_cancellable_source_new (cancellable);
  g_source_set_static_name (read->cancel_source, "[sluice] fault source cancelled");
  g_source_set_callback (read->cancel_source, G_SOURCE_FUNC (on_cancelled),
                         g_object_ref (task), g_object_unref);
  g_source_attach (read->cancel_source, g_task_get_context (task));
}

/* A fault replaces this read: fail, end cancelled, or wait for ever. */
static void
start_fault (SluiceFaultSource *self,
             GTask             *task,
             GCancellable      *cancellable)
{
  switch (self->fault)
    {
    case SLUICE_SOURCE_FAULT_RAISE:
      self->pending = FALSE;
      g_task_return_error (task, sluice_named_error_new ("SourceError", "source failed after %u items",
                                                         self->fault_after));
      break;

    case SLUICE_SOURCE_FAULT_CANCEL:
      self->pending = FALSE;
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      break;

    case SLUICE_SOURCE_FAULT_HANG:
      watch_cancellable (task, cancellable);
      break;

    case SLUICE_SOURCE_FAULT_NONE:
    default:
      g_assert_not_reached ();
    }
}

static void
sluice_fault_source_next_async (SluiceSource        *source,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  SluiceFaultSource *self = SLUICE_FAULT_SOURCE (source);
  g_autoptr(GTask) task = NULL;
  Read *read;

  /* No cancellable on the task: a read that is done keeps its item. */
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, sluice_fault_source_next_async);

  if (self->pending)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               "a read of this source is already pending");
      return;
    }

  read = g_new0 (Read, 1);
  read->index = self->position;
  g_task_set_task_data (task, read, (GDestroyNotify) read_free);
  self->pending = TRUE;

  if (self->fault != SLUICE_SOURCE_FAULT_NONE && self->position == self->fault_after)
    {
      start_fault (self, task, cancellable);
      return;
    }

  if (self->position >= self->n_items)
    {
      /* The end: NULL without an error. */
      read->done = TRUE;
      self->pending = FALSE;
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  /* Only a read between two items waits for the interval; any other read
   * completes at once (from an idle, as GTask never completes during the
   * call), like an async generator that yields without awaiting. */
  if (self->position == 0 || self->interval == 0)
    {
      read_finish (task, FALSE);
      return;
    }

  read->timer_id = sluice_clock_add_timeout (self->clock, self->interval, on_interval_done,
                                             g_object_ref (task), g_object_unref);
  watch_cancellable (task, cancellable);
}

static GVariant *
sluice_fault_source_next_finish (SluiceSource  *source,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The reads that next_async() completes at once, answered without a
 * GTask and a main-loop turn: an item not behind an interval, the end, a
 * fault that fails or cancels. An interval and a hang must wait. */
static gboolean
sluice_fault_source_try_next (SluiceSource  *source,
                              GVariant     **item,
                              GError       **error)
{
  SluiceFaultSource *self = SLUICE_FAULT_SOURCE (source);
  guint index = self->position;
  gboolean fault_here = self->fault != SLUICE_SOURCE_FAULT_NONE && index == self->fault_after;

  if (self->pending)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING,
                           "a read of this source is already pending");
      return FALSE;
    }

  if (fault_here && self->fault == SLUICE_SOURCE_FAULT_RAISE)
    {
      g_propagate_error (error, sluice_named_error_new ("SourceError", "source failed after %u items",
                                                        self->fault_after));
      return FALSE;
    }

  if (fault_here && self->fault == SLUICE_SOURCE_FAULT_CANCEL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      return FALSE;
    }

  /* The end: no item, no error. */
  if (!fault_here && index >= self->n_items)
    return TRUE;

  if (!fault_here && (index == 0 || self->interval == 0))
    {
      self->position = index + 1;
      *item = item_at (self, index);
      return TRUE;
    }

  /* A hang, or an item behind its interval. */
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK, "the next item waits");
  return FALSE;
}

static void
source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = sluice_fault_source_next_async;
  iface->next_finish = sluice_fault_source_next_finish;
  iface->try_next = sluice_fault_source_try_next;
}

static void
sluice_fault_source_finalize (GObject *object)
{
  SluiceFaultSource *self = SLUICE_FAULT_SOURCE (object);

  g_clear_object (&self->clock);
  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_fault_source_parent_class)->finalize (object);
}

static void
sluice_fault_source_class_init (SluiceFaultSourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_fault_source_finalize;
}

static void
sluice_fault_source_init (SluiceFaultSource *self)
{
}

static SluiceFaultSource *
new_source (SluiceClock *clock,
            GPtrArray   *items,
            guint        n_items,
            double       interval)
{
  SluiceFaultSource *self = g_object_new (SLUICE_TYPE_FAULT_SOURCE, NULL);

  self->clock = g_object_ref (clock);
  self->items = items;
  self->n_items = n_items;
  self->interval = sluice_time_from_seconds (interval);

  return self;
}

/**
 * sluice_fault_source_new:
 * @clock: the clock of the interval
 * @items: (element-type GVariant): the items, in order (referenced)
 * @interval: seconds between two items, ≥ 0
 *
 * Creates a source that yields @items, one per read.
 *
 * Returns: (transfer full): a new #SluiceFaultSource
 */
SluiceFaultSource *
sluice_fault_source_new (SluiceClock *clock,
                         GPtrArray   *items,
                         double       interval)
{
  GPtrArray *copy;

  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);
  g_return_val_if_fail (items != NULL, NULL);
  g_return_val_if_fail (interval >= 0 && isfinite (interval), NULL);

  copy = g_ptr_array_new_full (items->len, (GDestroyNotify) g_variant_unref);
  for (guint i = 0; i < items->len; i++)
    g_ptr_array_add (copy, g_variant_ref_sink (g_ptr_array_index (items, i)));

  return new_source (clock, copy, copy->len, interval);
}

/**
 * sluice_fault_source_new_range:
 * @clock: the clock of the interval
 * @count: N, how many items
 * @interval: seconds between two items, ≥ 0
 *
 * Creates a source that yields the `int64` items 0..N-1, one per read,
 * each made when it is read.
 *
 * Returns: (transfer full): a new #SluiceFaultSource
 */
SluiceFaultSource *
sluice_fault_source_new_range (SluiceClock *clock,
                               guint        count,
                               double       interval)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (clock), NULL);
  g_return_val_if_fail (interval >= 0 && isfinite (interval), NULL);

  return new_source (clock, NULL, count, interval);
}

/**
 * sluice_fault_source_set_fault:
 * @self: a #SluiceFaultSource
 * @fault: what the source does after @after items
 * @after: N: how many items it yields first
 *
 * Makes the source misbehave after @after items.
 */
void
sluice_fault_source_set_fault (SluiceFaultSource *self,
                               SluiceSourceFault  fault,
                               guint              after)
{
  g_return_if_fail (SLUICE_IS_FAULT_SOURCE (self));

  self->fault = fault;
  self->fault_after = after;
}

/**
 * sluice_fault_source_get_position:
 * @self: a #SluiceFaultSource
 *
 * Returns: how many items the source yielded
 */
guint
sluice_fault_source_get_position (SluiceFaultSource *self)
{
  g_return_val_if_fail (SLUICE_IS_FAULT_SOURCE (self), 0);

  return self->position;
}

/**
 * sluice_fault_source_get_n_items:
 * @self: a #SluiceFaultSource
 *
 * Returns: how many items the source holds
 */
guint
sluice_fault_source_get_n_items (SluiceFaultSource *self)
{
  g_return_val_if_fail (SLUICE_IS_FAULT_SOURCE (self), 0);

  return self->n_items;
}
