/* sluice-linter-running.c: the linter's table of the attempts running,
 * by item (docs/lints.md names them when a timer is late)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-linter-private.h"

/* Open addressing with linear probing and backward-shift deletion: an
 * attempt's start and end cost a probe or two, no allocation (records
 * are reused) and no tombstones, which made a GHashTable rehash itself
 * every few dozen attempts as item indices only grow. */

#define GOLDEN G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)

static inline guint
home (const RunningTable *table,
      gint64              item)
{
  return (guint) (((guint64) item * GOLDEN) >> 32) & table->mask;
}

void
_sluice_running_table_init (RunningTable *table)
{
  table->mask = 15;
  table->len = 0;
  table->slots = g_new0 (Running *, table->mask + 1);
  table->spare = NULL;
}

void
_sluice_running_table_clear (RunningTable *table)
{
  _sluice_running_table_remove_all (table);
  while (table->spare != NULL)
    {
      Running *next = table->spare->next_spare;

      g_free (table->spare);
      table->spare = next;
    }
  g_clear_pointer (&table->slots, g_free);
}

void
_sluice_running_table_remove_all (RunningTable *table)
{
  for (guint i = 0; i <= table->mask; i++)
    if (table->slots[i] != NULL)
      {
        _sluice_running_table_give (table, table->slots[i]);
        table->slots[i] = NULL;
      }
  table->len = 0;
}

Running *
_sluice_running_table_take (RunningTable *table)
{
  Running *running = table->spare;

  if (running == NULL)
    return g_new (Running, 1);
  table->spare = running->next_spare;
  return running;
}

void
_sluice_running_table_give (RunningTable *table,
                            Running      *running)
{
  running->next_spare = table->spare;
  table->spare = running;
}

Running *
_sluice_running_table_lookup (const RunningTable *table,
                              gint64              item)
{
  for (guint i = home (table, item); table->slots[i] != NULL; i = (i + 1) & table->mask)
    if (table->slots[i]->item == item)
      return table->slots[i];
  return NULL;
}

static void
put (RunningTable *table,
     Running      *running)
{
  guint i = home (table, running->item);

  while (table->slots[i] != NULL)
    i = (i + 1) & table->mask;
  table->slots[i] = running;
}

/* At most half full, so that probes stay short. */
static void
grow (RunningTable *table)
{
  Running **old = table->slots;
  guint old_size = table->mask + 1;

  table->mask = old_size * 2 - 1;
  table->slots = g_new0 (Running *, old_size * 2);
  for (guint i = 0; i < old_size; i++)
    if (old[i] != NULL)
      put (table, old[i]);
  g_free (old);
}

/* @running's item must not be in @table. */
void
_sluice_running_table_insert (RunningTable *table,
                              Running      *running)
{
  if ((table->len + 1) * 2 > table->mask + 1)
    grow (table);
  put (table, running);
  table->len++;
}

/* Returns: (transfer full) (nullable): @item's record, out of @table */
Running *
_sluice_running_table_steal (RunningTable *table,
                             gint64        item)
{
  Running *running;
  guint i = home (table, item);

  while (table->slots[i] != NULL && table->slots[i]->item != item)
    i = (i + 1) & table->mask;
  running = table->slots[i];
  if (running == NULL)
    return NULL;

  /* The records after it in its run move back into the hole when their
   * home is not between the hole and them (cyclically). */
  for (guint j = (i + 1) & table->mask; table->slots[j] != NULL; j = (j + 1) & table->mask)
    {
      guint k = home (table, table->slots[j]->item);

      if (((j - k) & table->mask) >= ((j - i) & table->mask))
        {
          table->slots[i] = table->slots[j];
          i = j;
        }
    }
  table->slots[i] = NULL;
  table->len--;
  return running;
}
