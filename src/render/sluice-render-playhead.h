/* sluice-render-playhead.h: the playhead, drawn over the chart or the lanes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "sluice-palette.h"

G_BEGIN_DECLS

void sluice_render_draw_playhead (cairo_t                 *cr,
                                  const cairo_rectangle_t *plot,
                                  gint64                   t0,
                                  gint64                   t1,
                                  gint64                   time,
                                  SluicePaletteFlags       palette);

G_END_DECLS
