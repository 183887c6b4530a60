/* sluice-array-source.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-array-source.h"

struct _SluiceArraySource
{
  GObject    parent_instance;
  GPtrArray *items;             /* NULL for a range */
  gint64     count;             /* the number of items */
  gint64     position;
};

/* The next item, or %NULL at the end. */
static GVariant *
take_next (SluiceArraySource *self)
{
  if (self->position >= self->count)
    return NULL;
  if (self->items == NULL)
    return g_variant_ref_sink (g_variant_new_int64 (self->position++));
  return g_variant_ref (g_ptr_array_index (self->items, self->position++));
}

static void source_iface_init (SluiceSourceInterface *iface);

/**
 * SluiceArraySource:
 *
 * A #SluiceSource that yields the items of an array of #GVariant.
 *
 * A #SluiceSource over a fixed list of items, or over a range of
 * integers made as they are read. sluice_source_next_async() completes on
 * a later main-loop iteration, like any real async source;
 * sluice_source_try_next() answers at once.
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceArraySource, sluice_array_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, source_iface_init))

static void
sluice_array_source_next_async (SluiceSource        *source,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  SluiceArraySource *self = SLUICE_ARRAY_SOURCE (source);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_array_source_next_async);

  if (g_task_return_error_if_cancelled (task))
    return;

  g_task_return_pointer (task, take_next (self), (GDestroyNotify) g_variant_unref);
}

static gboolean
sluice_array_source_try_next (SluiceSource  *source,
                              GVariant     **item,
                              GError       **error)
{
  *item = take_next (SLUICE_ARRAY_SOURCE (source));
  return TRUE;
}

static GVariant *
sluice_array_source_next_finish (SluiceSource  *source,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = sluice_array_source_next_async;
  iface->next_finish = sluice_array_source_next_finish;
  iface->try_next = sluice_array_source_try_next;
}

static void
sluice_array_source_finalize (GObject *object)
{
  SluiceArraySource *self = SLUICE_ARRAY_SOURCE (object);

  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_array_source_parent_class)->finalize (object);
}

static void
sluice_array_source_class_init (SluiceArraySourceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_array_source_finalize;
}

static void
sluice_array_source_init (SluiceArraySource *self)
{
}

/**
 * sluice_array_source_new:
 * @items: (array length=n_items): the items; floating ones are sunk
 * @n_items: how many
 *
 * Makes a source that yields @items in order, then ends.
 *
 * Returns: (transfer full): a new #SluiceSource
 *
 * Since: 1.0
 */
SluiceSource *
sluice_array_source_new (GVariant * const *items,
                         gsize             n_items)
{
  SluiceArraySource *self;
  gsize i;

  g_return_val_if_fail (items != NULL || n_items == 0, NULL);

  self = g_object_new (SLUICE_TYPE_ARRAY_SOURCE, NULL);
  self->items = g_ptr_array_new_full (n_items, (GDestroyNotify) g_variant_unref);
  for (i = 0; i < n_items; i++)
    g_ptr_array_add (self->items, g_variant_ref_sink (items[i]));
  self->count = n_items;

  return SLUICE_SOURCE (self);
}

/**
 * sluice_array_source_new_range:
 * @count: how many items
 *
 * Makes a source that yields the `int64` items 0 … @count − 1, each made
 * when it is read: a range of any length costs no memory up front.
 *
 * Returns: (transfer full): a new #SluiceSource
 *
 * Since: 1.0
 */
SluiceSource *
sluice_array_source_new_range (gint64 count)
{
  SluiceArraySource *self;

  g_return_val_if_fail (count >= 0, NULL);

  self = g_object_new (SLUICE_TYPE_ARRAY_SOURCE, NULL);
  self->count = count;

  return SLUICE_SOURCE (self);
}

/**
 * sluice_array_source_get_position:
 * @self: a #SluiceArraySource
 *
 * Returns: how many items were read so far
 *
 * Since: 1.0
 */
guint
sluice_array_source_get_position (SluiceArraySource *self)
{
  g_return_val_if_fail (SLUICE_IS_ARRAY_SOURCE (self), 0);

  return self->position;
}
