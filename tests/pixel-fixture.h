/* pixel-fixture.h: reading back what a render test drew on an image
 * surface
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>

#include "sluice-palette.h"

G_BEGIN_DECLS

void     pixel_fixture_get        (cairo_surface_t   *surface,
                                   double             x,
                                   double             y,
                                   SluiceColor       *color);
gboolean pixel_fixture_color_near (const SluiceColor *a,
                                   const SluiceColor *b,
                                   double             tolerance);

G_END_DECLS
