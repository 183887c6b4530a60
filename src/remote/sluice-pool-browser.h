/* sluice-pool-browser.h: the pools other processes export on the session
 * bus, as a list that follows them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sluice-remote-pool.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_POOL_BROWSER (sluice_pool_browser_get_type ())
G_DECLARE_FINAL_TYPE (SluicePoolBrowser, sluice_pool_browser, SLUICE, POOL_BROWSER, GObject)

SluicePoolBrowser *sluice_pool_browser_new         (GDBusConnection   *connection);
GDBusConnection   *sluice_pool_browser_get_connection (SluicePoolBrowser *self);
void               sluice_pool_browser_refresh     (SluicePoolBrowser *self);
gboolean           sluice_pool_browser_get_loading (SluicePoolBrowser *self);
SluiceRemotePool  *sluice_pool_browser_find_label  (SluicePoolBrowser *self,
                                                    const char        *key,
                                                    const char        *value);

G_END_DECLS
