/* bench-source.c: a lazy source of the integers 0..N-1 for the benchmark
 *
 * Items are made when pulled, so a million items cost no memory up front
 * (SluiceArraySource holds every item).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#define BENCH_TYPE_SOURCE (bench_source_get_type ())
G_DECLARE_FINAL_TYPE (BenchSource, bench_source, BENCH, SOURCE, GObject)

struct _BenchSource
{
  GObject parent_instance;
  gint64  next;
  gint64  count;
};

static void bench_source_iface_init (SluiceSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchSource, bench_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, bench_source_iface_init))

static void
bench_source_next_async (SluiceSource        *source,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  BenchSource *self = BENCH_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  if (g_task_return_error_if_cancelled (task))
    return;
  if (self->next < self->count)
    g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (self->next++)),
                           (GDestroyNotify) g_variant_unref);
  else
    g_task_return_pointer (task, NULL, NULL);
}

static GVariant *
bench_source_next_finish (SluiceSource  *source,
                          GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Items at hand: the producer fills the queue without a main-loop turn. */
static gboolean
bench_source_try_next (SluiceSource  *source,
                       GVariant     **item,
                       GError       **error)
{
  BenchSource *self = BENCH_SOURCE (source);

  *item = self->next < self->count ? g_variant_ref_sink (g_variant_new_int64 (self->next++)) : NULL;
  return TRUE;
}

static void
bench_source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = bench_source_next_async;
  iface->next_finish = bench_source_next_finish;
  iface->try_next = bench_source_try_next;
}

static void
bench_source_class_init (BenchSourceClass *klass)
{
}

static void
bench_source_init (BenchSource *self)
{
}

SluiceSource *
bench_source_new (gint64 count)
{
  BenchSource *self = g_object_new (BENCH_TYPE_SOURCE, NULL);

  self->count = count;
  return SLUICE_SOURCE (self);
}
