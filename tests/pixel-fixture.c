/* pixel-fixture.c: reading back what a render test drew on an image
 * surface
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>

#include "pixel-fixture.h"

/* The colour of the pixel that holds the point (@x, @y) of an ARGB32
 * image surface. Everything is drawn on an opaque background: there is no
 * premultiplication to undo. */
void
pixel_fixture_get (cairo_surface_t *surface,
                   double           x,
                   double           y,
                   SluiceColor     *color)
{
  const guint8 *data;
  guint32 pixel;
  int ix = (int) floor (x), iy = (int) floor (y);

  cairo_surface_flush (surface);
  g_assert_cmpint (ix, >=, 0);
  g_assert_cmpint (iy, >=, 0);
  g_assert_cmpint (ix, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (iy, <, cairo_image_surface_get_height (surface));

  data = cairo_image_surface_get_data (surface);
  pixel = *(const guint32 *) (gconstpointer) (data + iy * cairo_image_surface_get_stride (surface) + ix * 4);
  *color = (SluiceColor) {
    ((pixel >> 16) & 0xff) / 255., ((pixel >> 8) & 0xff) / 255., (pixel & 0xff) / 255., 1.
  };
}

/* Whether @a and @b differ by no more than @tolerance in each channel. */
gboolean
pixel_fixture_color_near (const SluiceColor *a,
                          const SluiceColor *b,
                          double             tolerance)
{
  return fabs (a->red - b->red) <= tolerance &&
         fabs (a->green - b->green) <= tolerance &&
         fabs (a->blue - b->blue) <= tolerance;
}
