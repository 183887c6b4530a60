/* sluice-attach-dialog.h: "Attach to a Running Pool": the pools other
 * programs export on the session bus, to pick one
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-remote-pool.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_ATTACH_DIALOG (sluice_attach_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SluiceAttachDialog, sluice_attach_dialog, SLUICE, ATTACH_DIALOG, GtkWindow)

SluiceAttachDialog *sluice_attach_dialog_new           (GtkWindow          *parent);
GListModel         *sluice_attach_dialog_get_pools     (SluiceAttachDialog *self);
const char         *sluice_attach_dialog_get_page      (SluiceAttachDialog *self);
const char         *sluice_attach_dialog_get_message   (SluiceAttachDialog *self);
char               *sluice_attach_dialog_dup_row_text  (SluiceAttachDialog *self,
                                                        guint               position);
SluiceRemotePool   *sluice_attach_dialog_get_selected  (SluiceAttachDialog *self);
void                sluice_attach_dialog_select        (SluiceAttachDialog *self,
                                                        guint               position);

G_END_DECLS
