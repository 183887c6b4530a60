/* sluice-channel.h: a FIFO on GAsyncQueue with async put/get and a shutdown lifecycle
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

#define SLUICE_TYPE_CHANNEL (sluice_channel_get_type ())
SLUICE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (SluiceChannel, sluice_channel, SLUICE, CHANNEL, GObject)

SLUICE_AVAILABLE_IN_ALL
SluiceChannel *sluice_channel_new            (guint                capacity,
                                              GDestroyNotify       item_free);
SLUICE_AVAILABLE_IN_ALL
guint          sluice_channel_get_capacity   (SluiceChannel       *self);
SLUICE_AVAILABLE_IN_ALL
guint          sluice_channel_get_length     (SluiceChannel       *self);
SLUICE_AVAILABLE_IN_ALL
guint          sluice_channel_get_n_waiting  (SluiceChannel       *self);
SLUICE_AVAILABLE_IN_ALL
gboolean       sluice_channel_is_shutdown    (SluiceChannel       *self);
SLUICE_AVAILABLE_IN_ALL
void           sluice_channel_put_async      (SluiceChannel       *self,
                                              gpointer             item,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
SLUICE_AVAILABLE_IN_ALL
gboolean       sluice_channel_put_finish     (SluiceChannel       *self,
                                              GAsyncResult        *result,
                                              GError             **error);
SLUICE_AVAILABLE_IN_ALL
gboolean       sluice_channel_try_put        (SluiceChannel       *self,
                                              gpointer             item,
                                              GError             **error);
SLUICE_AVAILABLE_IN_ALL
gboolean       sluice_channel_push           (SluiceChannel       *self,
                                              gpointer             item);
SLUICE_AVAILABLE_IN_ALL
void           sluice_channel_get_async      (SluiceChannel       *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
SLUICE_AVAILABLE_IN_ALL
gpointer       sluice_channel_get_finish     (SluiceChannel       *self,
                                              GAsyncResult        *result,
                                              GError             **error);
SLUICE_AVAILABLE_IN_ALL
gpointer       sluice_channel_try_get        (SluiceChannel       *self,
                                              GError             **error);
SLUICE_AVAILABLE_IN_ALL
void           sluice_channel_shutdown       (SluiceChannel       *self,
                                              gboolean             immediate);
SLUICE_AVAILABLE_IN_ALL
void           sluice_channel_task_done      (SluiceChannel       *self);
SLUICE_AVAILABLE_IN_ALL
guint          sluice_channel_get_unfinished (SluiceChannel       *self);
SLUICE_AVAILABLE_IN_ALL
void           sluice_channel_join_async     (SluiceChannel       *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
SLUICE_AVAILABLE_IN_ALL
gboolean       sluice_channel_join_finish    (SluiceChannel       *self,
                                              GAsyncResult        *result,
                                              GError             **error);

G_END_DECLS
