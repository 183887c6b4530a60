/* sluice-remote-feed.h: a pool of another program, attached on D-Bus,
 * feeding a run model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

#include "sluice-remote-pool.h"
#include "sluice-run-model.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_REMOTE_FEED (sluice_remote_feed_get_type ())
G_DECLARE_FINAL_TYPE (SluiceRemoteFeed, sluice_remote_feed, SLUICE, REMOTE_FEED, GObject)

SluiceRemoteFeed *sluice_remote_feed_new           (SluiceRemotePool  *pool,
                                                    GError           **error);
void              sluice_remote_feed_start         (SluiceRemoteFeed  *self);
void              sluice_remote_feed_stop          (SluiceRemoteFeed  *self);
SluiceRemotePool *sluice_remote_feed_get_pool      (SluiceRemoteFeed  *self);
SluiceRunModel   *sluice_remote_feed_get_model     (SluiceRemoteFeed  *self);
guint64           sluice_remote_feed_get_n_lost    (SluiceRemoteFeed  *self);
gboolean          sluice_remote_feed_take_snapshot (SluiceRemoteFeed  *self);
void              sluice_remote_feed_request_stop  (SluiceRemoteFeed  *self);
char             *sluice_remote_feed_describe      (SluiceRemoteFeed  *self);

G_END_DECLS
