/* sluice-index-keys-private.h: the item indexes of a table, in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

static inline gint
_sluice_compare_index_keys (gconstpointer a,
                            gconstpointer b)
{
  gint64 x = **(gint64 **) a, y = **(gint64 **) b;

  return x < y ? -1 : x > y;
}

/* The keys of @table (gint64*), borrowed, in ascending order. */
static inline GPtrArray *
_sluice_sorted_index_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);

  g_ptr_array_sort (keys, _sluice_compare_index_keys);
  return keys;
}

G_END_DECLS
