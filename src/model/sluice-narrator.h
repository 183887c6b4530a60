/* sluice-narrator.h: plain sentences that explain a recorded run at one moment
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-recorder.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_NARRATOR (sluice_narrator_get_type ())
G_DECLARE_FINAL_TYPE (SluiceNarrator, sluice_narrator, SLUICE, NARRATOR, GObject)

SluiceNarrator *sluice_narrator_new                  (SluiceRecorder *recorder,
                                                      SluiceTimeline *timeline);
void            sluice_narrator_set_limits           (SluiceNarrator *self,
                                                      guint           queue_capacity,
                                                      guint           lead_bound);
void            sluice_narrator_set_shutdown_timeout (SluiceNarrator *self,
                                                      gint64          timeout);
char           *sluice_narrator_narrate              (SluiceNarrator *self,
                                                      gint64          time);
char           *sluice_narrate_moment                (SluiceRecorder *recorder,
                                                      SluiceTimeline *timeline,
                                                      gint64          time);

G_END_DECLS
