/* sluice-thread-handler.h: a handler that runs a blocking function in a thread pool it owns
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include "sluice-handler.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceThreadFunc:
 * @item: the item (immutable, safe to read in the thread)
 * @cancellable: the attempt's cancellable (thread-safe)
 * @user_data: the data given to sluice_thread_handler_new()
 * @error: return location for an error
 *
 * Runs one attempt in a worker thread. It may block.
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 *
 * Since: 1.0
 */
typedef GVariant *(*SluiceThreadFunc) (GVariant      *item,
                                       GCancellable  *cancellable,
                                       gpointer       user_data,
                                       GError       **error);

#define SLUICE_TYPE_THREAD_HANDLER (sluice_thread_handler_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceThreadHandler, sluice_thread_handler, SLUICE, THREAD_HANDLER, GObject)

SLUICE_AVAILABLE_IN_1_0
SluiceHandler *sluice_thread_handler_new (SluiceThreadFunc func,
                                          gpointer         user_data,
                                          GDestroyNotify   destroy,
                                          guint            max_threads);

G_END_DECLS
