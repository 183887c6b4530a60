/* sluice-scrubber.h: the playhead of a finished run: a slider, replay and keys
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-fold.h"
#include "sluice-viewport.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_SCRUBBER (sluice_scrubber_get_type ())
G_DECLARE_FINAL_TYPE (SluiceScrubber, sluice_scrubber, SLUICE, SCRUBBER, GtkWidget)

GtkWidget *sluice_scrubber_new          (void);
void       sluice_scrubber_set_viewport (SluiceScrubber *self,
                                         SluiceViewport *viewport);
void       sluice_scrubber_set_fold     (SluiceScrubber *self,
                                         SluiceFold     *fold);
gboolean   sluice_scrubber_get_playing  (SluiceScrubber *self);

G_END_DECLS
