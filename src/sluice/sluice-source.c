/* sluice-source.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include "sluice-source.h"

/**
 * SluiceSource:
 *
 * The interface of what yields the items of a run, one asynchronous read
 * at a time.
 *
 * The async iterator a pool pulls its items from, one read at a time.
 * The end of input is not an item: sluice_source_next_finish() returns
 * %NULL without an error. Every non-%NULL #GVariant, however empty, is work.
 * The caller owns the source; the pool never closes it.
 *
 * Since: 1.0
 */
G_DEFINE_INTERFACE (SluiceSource, sluice_source, G_TYPE_OBJECT)

static void
sluice_source_default_init (SluiceSourceInterface *iface)
{
}

/**
 * sluice_source_next_async:
 * @self: a #SluiceSource
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the next item, the end or an error is known
 * @user_data: data for @callback
 *
 * Starts reading the next item. Only one read may be pending at a time.
 *
 * Since: 1.0
 */
void
sluice_source_next_async (SluiceSource        *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_return_if_fail (SLUICE_IS_SOURCE (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  SLUICE_SOURCE_GET_IFACE (self)->next_async (self, cancellable, callback, user_data);
}

/**
 * sluice_source_next_finish:
 * @self: a #SluiceSource
 * @result: the #GAsyncResult given to the callback
 * @error: return location for an error
 *
 * Completes a read started with sluice_source_next_async().
 *
 * Returns: (transfer full) (nullable): the item, or %NULL at the end (with
 *   @error unset) or on error
 *
 * Since: 1.0
 */
GVariant *
sluice_source_next_finish (SluiceSource  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_SOURCE (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);

  return SLUICE_SOURCE_GET_IFACE (self)->next_finish (self, result, error);
}

/**
 * sluice_source_try_next:
 * @self: a #SluiceSource
 * @item: (out) (transfer full) (nullable): the next item, or %NULL at the end
 * @error: return location for an error
 *
 * Reads the next item without waiting, when the source already knows it:
 * the synchronous fast path of sluice_source_next_async(), for sources
 * whose items are at hand (an array, a range, a generator). It is what an
 * async generator that does not await does in the seed: the producer fills
 * the queue in one go instead of one item per main-loop iteration.
 *
 * Call it only while no sluice_source_next_async() is pending.
 *
 * Returns: %TRUE if the source answered: @item is the next item, or %NULL
 *   at the end of input. %FALSE with %G_IO_ERROR_WOULD_BLOCK when nothing
 *   is ready yet (or the source has no fast path): read with
 *   sluice_source_next_async() then. %FALSE with any other error when the
 *   read failed, as sluice_source_next_finish() would have.
 *
 * Since: 1.0
 */
gboolean
sluice_source_try_next (SluiceSource  *self,
                        GVariant     **item,
                        GError       **error)
{
  SluiceSourceInterface *iface;

  g_return_val_if_fail (SLUICE_IS_SOURCE (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *item = NULL;
  iface = SLUICE_SOURCE_GET_IFACE (self);
  if (iface->try_next == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK,
                           "the source has no synchronous read");
      return FALSE;
    }

  return iface->try_next (self, item, error);
}
