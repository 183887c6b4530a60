/* sluice-channel-private.h: how a run's producer and workers wait on a
 * channel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-channel.h"

G_BEGIN_DECLS

/*
 * SluiceChannelGetFunc:
 * @item: (transfer full) (nullable): the item, or %NULL if @error is set
 * @error: (nullable): why there is no item; owned by the channel
 * @user_data: the data given to _sluice_channel_get_with_func()
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
 * @user_data: the data given to _sluice_channel_put_with_accept()
 *
 * Tells that the channel has taken the item of a put, at that moment: the
 * put's own callback comes later, and a getter may take the item first.
 */
typedef void (*SluiceChannelAcceptFunc) (gpointer user_data);

void _sluice_channel_put_with_accept (SluiceChannel           *self,
                                      gpointer                 item,
                                      GCancellable            *cancellable,
                                      SluiceChannelAcceptFunc  accepted,
                                      gpointer                 accepted_data,
                                      GAsyncReadyCallback      callback,
                                      gpointer                 user_data);

G_END_DECLS
