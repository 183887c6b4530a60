/* sluice-snapshot.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include <string.h>

#include "sluice-snapshot-private.h"

struct _SluiceSnapshot
{
  gatomicrefcount  ref_count;

  gint64           time;
  guint            queue_depth;
  guint            queue_capacity;
  guint            busy_workers;
  guint            workers;
  guint            in_flight;

  GStrv            outcome_names;   /* sorted */
  guint           *outcome_counts;  /* in the order of outcome_names */

  guint            n_durations;
  gint64           duration_mean;
  gint64           duration_p50;
  gint64           duration_p95;
  gint64           duration_max;
};

/**
 * SluiceSnapshot:
 *
 * An immutable, reference-counted copy of what a run looks like at one
 * moment, taken with sluice_run_get_snapshot().
 *
 * What a run looks like at one moment, for a monitor that asks "does the
 * pool keep up?" (seed 001's observed pool): the queue depth against its
 * capacity, the busy workers against all of them, the attempts in flight,
 * the outcomes so far by type name, and the attempt durations so far.
 *
 * A snapshot is an immutable copy, taken with sluice_run_get_snapshot(),
 * and cheap enough to take every frame.
 *
 * Since: 1.0
 */
G_DEFINE_BOXED_TYPE (SluiceSnapshot, sluice_snapshot, sluice_snapshot_ref, sluice_snapshot_unref)

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static gint
compare_durations (gconstpointer a,
                   gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Leaves the k-th smallest of @v[0..n) at v[k], the smaller before it
 * and the larger after it (Hoare's selection, median of three): a
 * snapshot goes with every batch of a D-Bus export, and sorting the whole
 * window for two percentiles was most of its cost. A selection that does
 * not converge (sizes that shrink too slowly) sorts what is left. */
static void
select_nth (gint64 *v,
            guint   n,
            guint   k)
{
  guint lo = 0;
  guint hi = n - 1;
  guint budget = 64;

  while (hi > lo)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 pivot;
      guint i, j;

      if (budget-- == 0)
        {
          qsort (v + lo, hi - lo + 1, sizeof (gint64), compare_durations);
          return;
        }

      /* The median of v[lo], v[mid], v[hi] as the pivot. */
      if (v[mid] < v[lo])
        { gint64 t = v[mid]; v[mid] = v[lo]; v[lo] = t; }
      if (v[hi] < v[lo])
        { gint64 t = v[hi]; v[hi] = v[lo]; v[lo] = t; }
      if (v[hi] < v[mid])
        { gint64 t = v[hi]; v[hi] = v[mid]; v[mid] = t; }
      pivot = v[mid];

      i = lo;
      j = hi;
      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              gint64 t = v[i]; v[i] = v[j]; v[j] = t;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }

      /* v[lo..j] <= pivot <= v[i..hi], and what lies between is the pivot. */
      if (k <= j && j != G_MAXUINT)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return;
    }
}

/* Nearest rank: the smallest duration that @percent of them do not
 * exceed, of the @n in @v (reordered). */
static gint64
percentile (gint64 *v,
            guint   n,
            guint   percent)
{
  guint rank = (guint) (((guint64) percent * n + 99) / 100);
  guint k = MAX (rank, 1) - 1;

  select_nth (v, n, k);
  return v[k];
}

void
_sluice_durations_add (SluiceDurations *self,
                       gint64           duration)
{
  self->count++;
  self->sum += duration;
  self->max = MAX (self->max, duration);
  self->latest[self->next] = duration;
  self->next = (self->next + 1) % SLUICE_DURATION_WINDOW;
}

/*
 * _sluice_snapshot_new:
 * @outcomes: (element-type utf8 guint): outcome name → count, copied
 * @durations: the run's attempt durations, copied
 *
 * The caller fills the plain fields of @fields (the time, the queue, the
 * workers, in flight).
 */
SluiceSnapshot *
_sluice_snapshot_new (const SluiceSnapshotCounts *fields,
                      GHashTable                 *outcomes,
                      const SluiceDurations      *durations)
{
  SluiceSnapshot *self = g_new0 (SluiceSnapshot, 1);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  guint i;

  g_atomic_ref_count_init (&self->ref_count);
  self->time = fields->time;
  self->queue_depth = fields->queue_depth;
  self->queue_capacity = fields->queue_capacity;
  self->busy_workers = fields->busy_workers;
  self->workers = fields->workers;
  self->in_flight = fields->in_flight;

  g_hash_table_iter_init (&iter, outcomes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);

  self->outcome_names = g_new0 (char *, names->len + 1);
  self->outcome_counts = g_new0 (guint, MAX (names->len, 1));
  for (i = 0; i < names->len; i++)
    {
      self->outcome_names[i] = g_strdup (g_ptr_array_index (names, i));
      self->outcome_counts[i] = GPOINTER_TO_UINT (g_hash_table_lookup (outcomes, self->outcome_names[i]));
    }

  self->n_durations = (guint) MIN (durations->count, G_MAXUINT);
  if (durations->count > 0)
    {
      guint n = (guint) MIN (durations->count, SLUICE_DURATION_WINDOW);
      g_autofree gint64 *window = g_memdup2 (durations->latest, n * sizeof (gint64));

      self->duration_mean = durations->sum / (gint64) durations->count;
      self->duration_p50 = percentile (window, n, 50);
      self->duration_p95 = percentile (window, n, 95);
      self->duration_max = durations->max;
    }

  return self;
}

/**
 * sluice_snapshot_ref:
 * @self: a #SluiceSnapshot
 *
 * Returns: (transfer full): @self
 *
 * Since: 1.0
 */
SluiceSnapshot *
sluice_snapshot_ref (SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * sluice_snapshot_unref:
 * @self: (transfer full): a #SluiceSnapshot
 *
 * Since: 1.0
 */
void
sluice_snapshot_unref (SluiceSnapshot *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_strfreev (self->outcome_names);
  g_free (self->outcome_counts);
  g_free (self);
}

/**
 * sluice_snapshot_get_time:
 * @self: a #SluiceSnapshot
 *
 * Returns: when it was taken, on the pool's clock (µs)
 *
 * Since: 1.0
 */
gint64
sluice_snapshot_get_time (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->time;
}

/**
 * sluice_snapshot_get_queue_depth:
 * @self: a #SluiceSnapshot
 *
 * Returns: the items waiting in the input queue
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_queue_depth (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->queue_depth;
}

/**
 * sluice_snapshot_get_queue_capacity:
 * @self: a #SluiceSnapshot
 *
 * Returns: the most items the input queue holds
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_queue_capacity (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->queue_capacity;
}

/**
 * sluice_snapshot_get_busy_workers:
 * @self: a #SluiceSnapshot
 *
 * Returns: the workers holding an item: running an attempt, waiting for a
 *   stopped one, or backing off before a retry
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_busy_workers (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->busy_workers;
}

/**
 * sluice_snapshot_get_workers:
 * @self: a #SluiceSnapshot
 *
 * Returns: the pool's workers
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_workers (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->workers;
}

/**
 * sluice_snapshot_get_in_flight:
 * @self: a #SluiceSnapshot
 *
 * Returns: the attempts whose handler is still running
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_in_flight (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->in_flight;
}

/**
 * sluice_snapshot_get_outcome_names:
 * @self: a #SluiceSnapshot
 *
 * The outcomes so far, sorted: `ok` for successes, the error's type name
 * for failures, `cancelled` for items cancelled in flight or dropped from
 * the queue.
 *
 * Returns: (transfer none) (array zero-terminated=1): the names
 *
 * Since: 1.0
 */
const char * const *
sluice_snapshot_get_outcome_names (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (const char * const *) self->outcome_names;
}

/**
 * sluice_snapshot_get_outcome_count:
 * @self: a #SluiceSnapshot
 * @name: an outcome name, such as `ok`, `cancelled` or `ValueError`
 *
 * Returns: how many items ended so
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_outcome_count (const SluiceSnapshot *self,
                                   const char           *name)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (name != NULL, 0);

  for (guint i = 0; self->outcome_names[i] != NULL; i++)
    if (g_str_equal (self->outcome_names[i], name))
      return self->outcome_counts[i];

  return 0;
}

/**
 * sluice_snapshot_get_n_durations:
 * @self: a #SluiceSnapshot
 *
 * Returns: how many attempts have ended
 *
 * Since: 1.0
 */
guint
sluice_snapshot_get_n_durations (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_durations;
}

/**
 * sluice_snapshot_get_duration_mean:
 * @self: a #SluiceSnapshot
 *
 * Returns: the mean duration of the attempts that ended, in µs (0 if none)
 *
 * Since: 1.0
 */
gint64
sluice_snapshot_get_duration_mean (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->duration_mean;
}

/**
 * sluice_snapshot_get_duration_p50:
 * @self: a #SluiceSnapshot
 *
 * Returns: the median duration (nearest rank) of the latest 4096 attempts,
 *   in µs (0 if none)
 *
 * Since: 1.0
 */
gint64
sluice_snapshot_get_duration_p50 (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->duration_p50;
}

/**
 * sluice_snapshot_get_duration_p95:
 * @self: a #SluiceSnapshot
 *
 * Returns: the 95th percentile duration (nearest rank) of the latest 4096
 *   attempts, in µs (0 if none)
 *
 * Since: 1.0
 */
gint64
sluice_snapshot_get_duration_p95 (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->duration_p95;
}

/**
 * sluice_snapshot_get_duration_max:
 * @self: a #SluiceSnapshot
 *
 * Returns: the longest duration, in µs (0 if none)
 *
 * Since: 1.0
 */
gint64
sluice_snapshot_get_duration_max (const SluiceSnapshot *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->duration_max;
}
