/* sluice-scrub-stats.h: scrub a finished run frame by frame and write how it was drawn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-viewport.h"

G_BEGIN_DECLS

typedef void (*SluiceScrubStatsDone) (gpointer user_data);

void sluice_scrub_stats_run (GtkWidget            *widget,
                             SluiceViewport       *viewport,
                             guint64               n_events,
                             double                seconds,
                             const char           *path,
                             SluiceScrubStatsDone  done,
                             gpointer              user_data);

G_END_DECLS
