/* sluice-window-store.c: Open Job Store…: a durable job store watched live
 * in a #SluiceStoreWindow
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-dialog.h"
#include "sluice-window-private.h"

/* A store is watched in a window of its own, beside the playground, not in
 * it: its jobs are other processes' work, and the playground goes on with
 * its own scenario, run or attached pool meanwhile. Each store opened gets
 * its window; they follow this window's projector mode. */

/**
 * sluice_window_open_store:
 * @self: a #SluiceWindow
 * @uri: the store: `sqlite:FILE` or `postgresql://…`
 *
 * Opens a #SluiceStoreWindow on @uri, transient for @self, in projector
 * mode while @self is (F5 in either switches both).
 *
 * Returns: (transfer none): the store window, shown
 */
SluiceStoreWindow *
sluice_window_open_store (SluiceWindow *self,
                          const char   *uri)
{
  SluiceStoreWindow *store;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  store = sluice_store_window_new (GTK_WINDOW (self), NULL, uri);
  g_object_bind_property (self, "projector", store, "projector", G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  gtk_window_present (GTK_WINDOW (store));
  return store;
}

static void
on_uri_chosen (SluiceWindow *self,
               const char   *uri)
{
  sluice_window_open_store (self, uri);
}

/**
 * _sluice_window_choose_store:
 * @self: a #SluiceWindow
 *
 * Asks for a store's URI (win.open-store), then opens its window.
 */
void
_sluice_window_choose_store (SluiceWindow *self)
{
  SluiceStoreDialog *dialog = sluice_store_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (dialog, "uri-chosen", G_CALLBACK (on_uri_chosen), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}
