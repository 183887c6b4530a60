/* sluice-source.h: the async iterator the pool pulls items from
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <gio/gio.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_SOURCE (sluice_source_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_INTERFACE (SluiceSource, sluice_source, SLUICE, SOURCE, GObject)

/**
 * SluiceSourceInterface:
 * @next_async: start reading the next item
 * @next_finish: the next item (transfer full), or %NULL without an error at
 *   the end, or %NULL with an error
 * @try_next: optional: answer at once when the next item, the end or an
 *   error is already known (see sluice_source_try_next()); %NULL when every
 *   read must wait
 *
 * An async iterator of #GVariant items.
 *
 * Since: 1.0
 */
struct _SluiceSourceInterface
{
  GTypeInterface g_iface;

  void      (*next_async)  (SluiceSource         *self,
                            GCancellable         *cancellable,
                            GAsyncReadyCallback   callback,
                            gpointer              user_data);
  GVariant *(*next_finish) (SluiceSource         *self,
                            GAsyncResult         *result,
                            GError              **error);
  gboolean  (*try_next)    (SluiceSource         *self,
                            GVariant            **item,
                            GError              **error);
};

SLUICE_AVAILABLE_IN_1_0
void      sluice_source_next_async  (SluiceSource         *self,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
SLUICE_AVAILABLE_IN_1_0
GVariant *sluice_source_next_finish (SluiceSource         *self,
                                     GAsyncResult         *result,
                                     GError              **error);
SLUICE_AVAILABLE_IN_1_0
gboolean  sluice_source_try_next    (SluiceSource         *self,
                                     GVariant            **item,
                                     GError              **error);

G_END_DECLS
