/* sluice-timeline-items.c: what the timeline model knows per item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-timeline-items-private.h"
#include "sluice-item-key-private.h"

struct _SluiceTimelineItems
{
  GHashTable   *held;          /* items (gint64 *) a worker holds now */
  GHashTable   *ended_queued;  /* items (gint64 *) that ended while queued */
  GHashTable   *values;        /* item (gint64 *) → its value's text, until it ends */
  GStringChunk *texts;         /* the values' texts: bars keep pointing at them */
};

/* The sets of items (sluice-item-key-private.h). */
#define ITEM_SET_NEW() ITEM_TABLE_NEW (NULL)

SluiceTimelineItems *
_sluice_timeline_items_new (void)
{
  SluiceTimelineItems *items = g_new0 (SluiceTimelineItems, 1);

  items->held = ITEM_SET_NEW ();
  items->ended_queued = ITEM_SET_NEW ();
  items->values = ITEM_SET_NEW ();
  items->texts = g_string_chunk_new (256);
  return items;
}

void
_sluice_timeline_items_free (SluiceTimelineItems *items)
{
  if (items == NULL)
    return;

  g_hash_table_unref (items->held);
  g_hash_table_unref (items->ended_queued);
  g_hash_table_unref (items->values);
  g_string_chunk_free (items->texts);
  g_free (items);
}

/* Forgets every item, for a new run; the texts the old bars pointed at go
 * with them. */
void
_sluice_timeline_items_clear (SluiceTimelineItems *items)
{
  g_hash_table_remove_all (items->held);
  g_hash_table_remove_all (items->ended_queued);
  g_hash_table_remove_all (items->values);
  g_string_chunk_clear (items->texts);
}

static void
add_item (GHashTable *set,
          gint64      item)
{
  g_hash_table_add (set, ITEM_KEY_NEW (item));
}

/* The busy workers: a worker holds an item from when it takes it (an
 * attempt, its stop rounds, a backoff) until the item ends. A job given
 * up while queued ends first (item-cancelled, worker -1) and is then
 * taken and skipped at once: it never makes a worker busy. */
static void
fold_busy (SluiceTimelineItems *items,
           const SluiceEvent   *event)
{
  gint64 item = event->item;

  switch (event->kind)
    {
    case SLUICE_EVENT_QUEUE_GET:
    case SLUICE_EVENT_ATTEMPT_START:
      if (event->kind == SLUICE_EVENT_QUEUE_GET && g_hash_table_remove (items->ended_queued, ITEM_KEY (item)))
        break;
      if (!g_hash_table_contains (items->held, ITEM_KEY (item)))
        add_item (items->held, item);
      break;
    case SLUICE_EVENT_ITEM_OK:
    case SLUICE_EVENT_ITEM_FAILED:
    case SLUICE_EVENT_ITEM_CANCELLED:
    case SLUICE_EVENT_ITEM_DROPPED:
      if (!g_hash_table_remove (items->held, ITEM_KEY (item)) && event->kind == SLUICE_EVENT_ITEM_CANCELLED &&
          event->worker < 0)
        add_item (items->ended_queued, item);
      break;
    default:
      break;
    }
}

/* @value's text as g_variant_print() writes it, kept in the chunk. An
 * integer, the common item, is printed without g_variant_print()'s
 * machinery (GString, a type switch, printf into it): the timeline folds
 * every pull of a fast run, tens of thousands a second. */
static const char *
insert_value_text (SluiceTimelineItems *items,
                   GVariant            *value)
{
  g_autofree char *text = NULL;

  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT64))
    {
      char number[sizeof "-9223372036854775808"];

      g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, g_variant_get_int64 (value));
      return g_string_chunk_insert (items->texts, number);
    }

  text = g_variant_print (value, FALSE);
  return g_string_chunk_insert_const (items->texts, text);
}

/* The pull carries the item's value; its attempts' bars take it when they
 * start. Only items not yet ended are kept, so a long run does not hold
 * every item it ever pulled. */
static void
fold_value (SluiceTimelineItems *items,
            const SluiceEvent   *event)
{
  gint64 item = event->item;

  switch (event->kind)
    {
    case SLUICE_EVENT_PULL:
      if (event->value != NULL)
        g_hash_table_replace (items->values, ITEM_KEY_NEW (item),
                              (gpointer) insert_value_text (items, event->value));
      break;
    case SLUICE_EVENT_ITEM_OK:
    case SLUICE_EVENT_ITEM_FAILED:
    case SLUICE_EVENT_ITEM_CANCELLED:
    case SLUICE_EVENT_ITEM_DROPPED:
      g_hash_table_remove (items->values, ITEM_KEY (item));
      break;
    default:
      break;
    }
}

void
_sluice_timeline_items_add_event (SluiceTimelineItems *items,
                                  const SluiceEvent   *event)
{
  if (event->item < 0)
    return;

  fold_busy (items, event);
  fold_value (items, event);
}

/* After events were lost: which items the workers hold is unknown until
 * their next events say it. */
void
_sluice_timeline_items_forget_held (SluiceTimelineItems *items)
{
  g_hash_table_remove_all (items->held);
  g_hash_table_remove_all (items->ended_queued);
}

/* The workers holding an item now. */
guint
_sluice_timeline_items_get_busy (SluiceTimelineItems *items)
{
  return g_hash_table_size (items->held);
}

/* The value @item was pulled with, as GVariant text, or NULL when its pull
 * was not seen (or it has ended). Valid until the items are cleared. */
const char *
_sluice_timeline_items_get_value (SluiceTimelineItems *items,
                                  gint64               item)
{
  return g_hash_table_lookup (items->values, ITEM_KEY (item));
}
