/* sluice-item-key-private.h: an item index as the key of a hash table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Where a pointer holds a gint64 the item is the key itself: a copy of
 * each item allocated, hashed through a pointer and freed, for every item
 * of a long run, was a good part of what the models spend per event
 * (issue 24's window benchmark). ITEM_KEY() looks an item up,
 * ITEM_KEY_NEW() is the key to insert, ITEM_TABLE_NEW() a table of them
 * whose values are freed with @value_free. */
#if GLIB_SIZEOF_VOID_P >= 8
#define ITEM_KEY(item)      ((gpointer) (gintptr) (item))
#define ITEM_KEY_NEW(item)  ITEM_KEY (item)
#define ITEM_TABLE_NEW(value_free) g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (value_free))
#else
#define ITEM_KEY(item)      (&(item))
#define ITEM_KEY_NEW(item)  g_memdup2 (&(item), sizeof (gint64))
#define ITEM_TABLE_NEW(value_free) g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (value_free))
#endif

G_END_DECLS
