/* sluice-render-bar-private.h: how an attempt's bar is filled, for its
 * outcome
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-render-private.h"

G_BEGIN_DECLS

/* The fills of the lanes' bars, shared with the lanes' key
 * (sluice-render-bar.c). Colour alone does not tell outcomes apart on a
 * grey projector or a grayscale print: a cancelled bar is dotted and a
 * running one is open (a pale inside, a bold border), where finished
 * ones are flat. */
typedef enum {
  SLUICE_BAR_FILL_FLAT,
  SLUICE_BAR_FILL_DOTTED,
  SLUICE_BAR_FILL_OPEN,
} SluiceBarFill;

/* A bar narrower than this is drawn this wide, from its start, so that an
 * attempt that took no time (on the virtual clock) is still seen. */
#define SLUICE_RENDER_BAR_MIN_WIDTH 3.

SluiceBarFill _sluice_render_bar_fill_for_outcome (SluiceOutcome        outcome,
                                                   gboolean             running);
void          _sluice_render_fill_bar             (cairo_t             *cr,
                                                   const SluiceColor   *color,
                                                   SluiceBarFill        fill,
                                                   const SluiceRect    *bar,
                                                   double               alpha);
const SluiceColor *_sluice_render_bar_label_color (const SluicePalette *palette,
                                                   SluiceBarFill        fill);

G_END_DECLS
