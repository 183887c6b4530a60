/* sluice-batch.h: run the window's scenario, then export and take a screenshot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-run-controller.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_BATCH (sluice_batch_get_type ())
G_DECLARE_FINAL_TYPE (SluiceBatch, sluice_batch, SLUICE, BATCH, GObject)

/**
 * SluiceBatchFunc:
 * @batch: the batch
 * @ok: whether the PNG and the exports were saved
 * @user_data: the data given to sluice_batch_new()
 *
 * Called once the screenshot and the exports are saved or one failed.
 */
typedef void (*SluiceBatchFunc) (SluiceBatch *batch,
                                 gboolean     ok,
                                 gpointer     user_data);

SluiceBatch *sluice_batch_new   (GtkWidget           *window,
                                 SluiceRunController *run,
                                 GtkWidget           *look,
                                 const char          *screenshot,
                                 const char          *image,
                                 const char          *events,
                                 SluiceBatchFunc      func,
                                 gpointer             user_data);
void         sluice_batch_start (SluiceBatch         *self);

G_END_DECLS
