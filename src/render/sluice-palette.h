/* sluice-palette.h: the colours of the charts and lanes, light and dark,
 * normal and high contrast
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/**
 * SluiceColor:
 * @red: from 0 to 1
 * @green: from 0 to 1
 * @blue: from 0 to 1
 * @alpha: from 0 (transparent) to 1 (opaque)
 *
 * A colour in the same form as `GdkRGBA`, without needing GTK.
 */
typedef struct {
  double red, green, blue, alpha;
} SluiceColor;

/**
 * SluicePalette:
 * @background: what the views are drawn on
 * @foreground: text and axes (contrast ≥ 7:1 with @background)
 * @muted: secondary text: tick labels, lane names (contrast ≥ 4.5:1)
 * @grid: grid lines and lane separators
 * @ok: an attempt that succeeded
 * @retried: an attempt that failed and will be retried
 * @failed: an attempt with which its item failed for good
 * @timed_out: an attempt that ran past its deadline
 * @cancelled: an attempt the caller cancelled
 * @running: an attempt still running
 * @queue: the queue depth series
 * @in_flight: the attempts-in-flight series
 * @lead: the pulled-but-unfinished series
 * @busy: the busy-workers series (workers holding an item)
 * @waiting: the results-waiting series (results handed back that the
 *   caller has not read yet)
 * @capacity: the queue capacity line
 * @bound: the `queue-size + workers + 1` lead bound line
 * @now: the "now" line
 * @deadline: an attempt's deadline mark
 * @cancel_round: the marks of the pool's cancel requests
 * @backoff: the bracket of a backoff, the wait before a retry
 * @budget: the retry budget's token level in the chart
 * @selection: the outline of the selected item's attempts
 *
 * Every colour the render layer uses. The data colours follow the
 * Okabe–Ito set, so they stay apart for the common forms of colour-vision
 * deficiency; the views add non-colour cues (hatching, marks, dashes) on
 * top, so no fact rests on colour alone.
 */
typedef struct {
  SluiceColor background, foreground, muted, grid;
  SluiceColor ok, retried, failed, timed_out, cancelled, running;
  SluiceColor queue, in_flight, lead, busy, waiting;
  SluiceColor capacity, bound, now, deadline, cancel_round, selection;
  SluiceColor backoff, budget;
} SluicePalette;

/**
 * SluicePaletteFlags:
 * @SLUICE_PALETTE_LIGHT: the light palette (no flag)
 * @SLUICE_PALETTE_DARK: for a dark theme
 * @SLUICE_PALETTE_HIGH_CONTRAST: black or white text and lines, and
 *   saturated colours that stay apart in grayscale: for projector mode and
 *   high-contrast themes
 *
 * Which palette the views are drawn in. %SLUICE_PALETTE_DARK is 1, so a
 * gboolean that says "dark" picks the light or the dark palette.
 */
typedef enum {
  SLUICE_PALETTE_LIGHT         = 0,
  SLUICE_PALETTE_DARK          = 1 << 0,
  SLUICE_PALETTE_HIGH_CONTRAST = 1 << 1,
} SluicePaletteFlags;

const SluicePalette *sluice_palette_get             (SluicePaletteFlags flags);
void                 sluice_palette_set_source      (cairo_t           *cr,
                                                     const SluiceColor *color);
double               sluice_color_get_luminance     (const SluiceColor *color);
double               sluice_color_get_contrast      (const SluiceColor *a,
                                                     const SluiceColor *b);

G_END_DECLS
