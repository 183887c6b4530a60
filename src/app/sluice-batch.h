/* sluice-batch.h: run the window's scenario, then export and take a screenshot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-window.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_BATCH (sluice_batch_get_type ())
G_DECLARE_FINAL_TYPE (SluiceBatch, sluice_batch, SLUICE, BATCH, GObject)

SluiceBatch *sluice_batch_new   (SluiceWindow         *window,
                                 const char           *screenshot,
                                 const char           *image,
                                 const char           *events,
                                 SluiceScreenshotFunc  func,
                                 gpointer              user_data);
void         sluice_batch_start (SluiceBatch          *self);

G_END_DECLS
