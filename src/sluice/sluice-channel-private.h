/* sluice-channel-private.h: the FIFO between a run's producer and its
 * workers, and between its workers and its results
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Not public API: a run's channels are an implementation detail of the
 * engine (the public surface is SluiceRun's results and SluiceJob), and
 * their items are bare pointers that no binding could use. Nothing here
 * is exported from libsluice-1.so. */

#define SLUICE_TYPE_CHANNEL (sluice_channel_get_type ())
G_DECLARE_FINAL_TYPE (SluiceChannel, sluice_channel, SLUICE, CHANNEL, GObject)

SluiceChannel *sluice_channel_new          (guint           capacity,
                                            GDestroyNotify  item_free);
guint          sluice_channel_get_capacity (SluiceChannel  *self);
guint          sluice_channel_get_length   (SluiceChannel  *self);
/* The same without the type check, for every event of a run. */
guint          _sluice_channel_get_length  (SluiceChannel  *self);
gboolean       sluice_channel_try_put      (SluiceChannel  *self,
                                            gpointer        item,
                                            GError        **error);
gpointer       sluice_channel_try_get      (SluiceChannel  *self,
                                            GError        **error);
void           sluice_channel_shutdown     (SluiceChannel  *self,
                                            gboolean        immediate);

/*
 * SluiceChannelGetFunc:
 * @item: (transfer full) (nullable): a get's item, or %NULL if @error is
 *   set; a put's own item given back if @error is set, or %NULL
 * @error: (nullable): why there is no item; owned by the channel
 * @user_data: the data given to _sluice_channel_get_with_func() or
 *   _sluice_channel_put_with_func()
 */
typedef void (*SluiceChannelGetFunc) (gpointer      item,
                                      const GError *error,
                                      gpointer      user_data);

void _sluice_channel_get_with_func (SluiceChannel        *self,
                                    GCancellable         *cancellable,
                                    SluiceChannelGetFunc  func,
                                    gpointer              user_data);

/*
 * SluiceChannelAcceptFunc:
 * @user_data: the data given to _sluice_channel_put_with_func()
 *
 * Tells that the channel has taken the item of a put, at that moment: the
 * put's own callback comes later, and a getter may take the item first.
 */
typedef void (*SluiceChannelAcceptFunc) (gpointer user_data);

void _sluice_channel_put_with_func (SluiceChannel           *self,
                                    gpointer                 item,
                                    GCancellable            *cancellable,
                                    SluiceChannelAcceptFunc  accepted,
                                    gpointer                 accepted_data,
                                    SluiceChannelGetFunc     done,
                                    gpointer                 user_data);

void _sluice_channel_set_priority (SluiceChannel *self,
                                  gint           priority);

G_END_DECLS
