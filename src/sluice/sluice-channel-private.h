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
 * @item: (transfer full) (nullable): a get's item, or %NULL if @error is
 *   set; a put's own item given back if @error is set, or %NULL
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
