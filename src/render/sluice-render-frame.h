/* sluice-render-frame.h: what one drawing of a view shows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

#include "sluice-palette.h"

G_BEGIN_DECLS

/**
 * SluiceRenderFrame:
 * @width: the view's width, in the render layer's units (a projector's
 *   scale is on the cairo context, not here)
 * @height: the view's height
 * @t0: the time at the left edge of the plot, in clock microseconds
 * @t1: the time at the right edge; a span shorter than a microsecond is
 *   drawn as one
 * @now: the clock's time: the series and running attempts are drawn up to
 *   it and the "now" line there; negative for neither (they end at the
 *   run's last event)
 * @palette: light or dark, normal or high contrast
 *
 * What one drawing of the chart or the lanes shows, whatever the run: the
 * view's size, the span of time across it, the clock and the colours.
 * The functions that only lay out a view ignore @palette, and the lanes'
 * hit testing also @now.
 *
 * Filled in by the caller, usually as a compound literal:
 * |[<!-- language="C" -->
 * sluice_render_timeline (cr, model,
 *                         &(SluiceRenderFrame) { width, height, t0, t1, now, palette },
 *                         selected_item);
 * ]|
 */
typedef struct {
  double             width;
  double             height;
  gint64             t0;
  gint64             t1;
  gint64             now;
  SluicePaletteFlags palette;
} SluiceRenderFrame;

G_END_DECLS
