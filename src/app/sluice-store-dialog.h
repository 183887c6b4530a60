/* sluice-store-dialog.h: Open Job Store…: the URI of a store to watch, typed
 * or a SQLite file chosen
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_DIALOG (sluice_store_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreDialog, sluice_store_dialog, SLUICE, STORE_DIALOG, GtkWindow)

SluiceStoreDialog *sluice_store_dialog_new        (GtkWindow          *parent);
const char        *sluice_store_dialog_get_text   (SluiceStoreDialog  *self);
void               sluice_store_dialog_set_text   (SluiceStoreDialog  *self,
                                                   const char         *text);
const char        *sluice_store_dialog_get_error  (SluiceStoreDialog  *self);
char              *sluice_store_dialog_parse_uri  (const char         *text,
                                                   GError            **error);

G_END_DECLS
