/* sluice-error-list.c: the errors a run recorded, as the final error
 * group holds them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-error-list.h"
#include "sluice-item-key-private.h"

/**
 * SluiceErrorList:
 *
 * The errors a run recorded — items that failed for good and source
 * errors, in the order the pool recorded them — as the caller receives
 * them in the final error group: a #GListModel of #SluiceEventItem, each
 * with the attempt that failed for good, and for an item the retry policy
 * ended, the policy's event (a retry it skipped, or the item shed past its
 * deadline). The run model feeds it each event once; new errors show at
 * sluice_error_list_flush(), in one change.
 */

struct _SluiceErrorList
{
  GObject     parent_instance;

  GListStore *errors;     /* SluiceEventItem */
  GPtrArray  *pending;    /* SluiceEventItem, not yet in errors */
  GHashTable *attempts;   /* item index → last attempt started */
  GHashTable *endings;    /* item index → its retry-skipped or
                           * deadline-exceeded event (SluiceEventItem) */
};

G_DEFINE_FINAL_TYPE (SluiceErrorList, sluice_error_list, G_TYPE_OBJECT)

static void
sluice_error_list_finalize (GObject *object)
{
  SluiceErrorList *self = SLUICE_ERROR_LIST (object);

  g_clear_object (&self->errors);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->attempts, g_hash_table_unref);
  g_clear_pointer (&self->endings, g_hash_table_unref);

  G_OBJECT_CLASS (sluice_error_list_parent_class)->finalize (object);
}

static void
sluice_error_list_class_init (SluiceErrorListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_error_list_finalize;
}

static void
sluice_error_list_init (SluiceErrorList *self)
{
  self->errors = g_list_store_new (SLUICE_TYPE_EVENT_ITEM);
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->attempts = ITEM_TABLE_NEW (NULL);
  self->endings = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
}

/**
 * sluice_error_list_new:
 *
 * Returns: (transfer full): a group without errors
 */
SluiceErrorList *
sluice_error_list_new (void)
{
  return g_object_new (SLUICE_TYPE_ERROR_LIST, NULL);
}

/**
 * sluice_error_list_add_event:
 * @self: a #SluiceErrorList
 * @event: the run's next event
 * @position: its number in the run, from 0
 *
 * Keeps the errors of @event: item failures (shed items and those whose
 * retry was skipped among them) and source errors, shown at the next
 * sluice_error_list_flush().
 */
void
sluice_error_list_add_event (SluiceErrorList  *self,
                              const SluiceEvent *event,
                              guint64            position)
{
  SluiceEvent copy;

  g_return_if_fail (SLUICE_IS_ERROR_LIST (self));

  if (event->kind == SLUICE_EVENT_ATTEMPT_START)
    {
      gint64 item = event->item;

      g_hash_table_replace (self->attempts, ITEM_KEY_NEW (item), GUINT_TO_POINTER (event->attempt));
      return;
    }

  /* The policy's event comes just before the item's failure. */
  if (event->kind == SLUICE_EVENT_RETRY_SKIPPED || event->kind == SLUICE_EVENT_DEADLINE_EXCEEDED)
    {
      g_hash_table_replace (self->endings, g_memdup2 (&event->item, sizeof event->item),
                            sluice_event_item_new (event, position));
      return;
    }

  if (event->kind != SLUICE_EVENT_ITEM_FAILED && event->kind != SLUICE_EVENT_SOURCE_ERROR)
    return;

  copy = *event;
  if (copy.attempt == 0 && copy.item >= 0)
    copy.attempt = GPOINTER_TO_UINT (g_hash_table_lookup (self->attempts, ITEM_KEY (copy.item)));

  g_ptr_array_add (self->pending, sluice_event_item_new (&copy, position));
}

/**
 * sluice_error_list_flush:
 * @self: a #SluiceErrorList
 *
 * Shows the errors added since the last flush, in one change.
 *
 * Returns: whether there were any
 */
gboolean
sluice_error_list_flush (SluiceErrorList *self)
{
  g_return_val_if_fail (SLUICE_IS_ERROR_LIST (self), FALSE);
  return sluice_event_items_flush (self->errors, self->pending);
}

/**
 * sluice_error_list_get_errors:
 * @self: a #SluiceErrorList
 *
 * Returns: (transfer none): the errors (#SluiceEventItem), in the order
 *   the pool recorded them
 */
GListModel *
sluice_error_list_get_errors (SluiceErrorList *self)
{
  g_return_val_if_fail (SLUICE_IS_ERROR_LIST (self), NULL);
  return G_LIST_MODEL (self->errors);
}

/**
 * sluice_error_list_get_ending:
 * @self: a #SluiceErrorList
 * @item: an item's index
 *
 * Returns: (transfer none) (nullable): the retry policy's event that ended
 *   @item (a skipped retry, or the item shed past its deadline), or %NULL
 */
SluiceEventItem *
sluice_error_list_get_ending (SluiceErrorList *self,
                               gint64            item)
{
  g_return_val_if_fail (SLUICE_IS_ERROR_LIST (self), NULL);
  return item >= 0 ? g_hash_table_lookup (self->endings, &item) : NULL;
}
