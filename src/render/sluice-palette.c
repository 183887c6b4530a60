/* sluice-palette.c: the colours of the charts and lanes, light and dark,
 * normal and high contrast
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-palette.h"

#include <math.h>

/* 0xRRGGBB to a SluiceColor, opaque or with an alpha. */
#define RGB(hex) { ((hex) >> 16 & 0xff) / 255., ((hex) >> 8 & 0xff) / 255., ((hex) & 0xff) / 255., 1. }

/* Light: the Okabe–Ito hues as published. The backgrounds match the view
 * colours of GTK's default Adwaita theme, so the drawings sit in the window
 * without a visible box. */
static const SluicePalette light_palette = {
  .background   = RGB (0xffffff),
  .foreground   = RGB (0x1c1c1c),
  .muted        = RGB (0x5c5c5c),
  .grid         = RGB (0xe4e4e4),

  .ok           = RGB (0x009e73),  /* bluish green */
  .retried      = RGB (0xe69f00),  /* orange */
  .failed       = RGB (0xd55e00),  /* vermillion */
  .timed_out    = RGB (0xcc79a7),  /* reddish purple */
  .cancelled    = RGB (0x9a9a9a),
  .running      = RGB (0x56b4e9),  /* sky blue */

  .queue        = RGB (0x0072b2),  /* blue */
  .in_flight    = RGB (0x009e73),
  .lead         = RGB (0xd55e00),
  .busy         = RGB (0x56b4e9),  /* sky blue, as the lanes' running bars */
  /* The Okabe–Ito orange, the one hue no other series has, darkened to
   * ochre for 3:1 on white (the published one has 2:1). */
  .waiting      = RGB (0xa86400),

  .capacity     = RGB (0x5c5c5c),
  .bound        = RGB (0x1c1c1c),
  .now          = RGB (0x1c1c1c),
  .deadline     = RGB (0x8a1c4a),
  .cancel_round = RGB (0x1c1c1c),
  .selection    = RGB (0x1c1c1c),

  .backoff      = RGB (0x0072b2),  /* blue */
  .budget       = RGB (0xcc79a7),  /* reddish purple */
};

/* Dark: the same hues, lifted where the original is too dark to read on a
 * dark background (the blue and the vermillion). */
static const SluicePalette dark_palette = {
  .background   = RGB (0x1e1e1e),
  .foreground   = RGB (0xeeeeee),
  .muted        = RGB (0xa8a8a8),
  .grid         = RGB (0x383838),

  .ok           = RGB (0x1fb88c),
  .retried      = RGB (0xe69f00),
  .failed       = RGB (0xf0772a),
  .timed_out    = RGB (0xd88cb8),
  .cancelled    = RGB (0x8c8c8c),
  .running      = RGB (0x56b4e9),

  .queue        = RGB (0x56b4e9),
  .in_flight    = RGB (0x1fb88c),
  .lead         = RGB (0xf0772a),
  .busy         = RGB (0xf0e442),  /* yellow */
  .waiting      = RGB (0xf5b041),  /* orange, lifted off the bars' retried */

  .capacity     = RGB (0xa8a8a8),
  .bound        = RGB (0xeeeeee),
  .now          = RGB (0xeeeeee),
  .deadline     = RGB (0xf0e442),  /* yellow: apart from every bar colour */
  .cancel_round = RGB (0xeeeeee),
  .selection    = RGB (0xffffff),

  .backoff      = RGB (0x7cc6f2),  /* sky blue, lifted off the running bars' */
  .budget       = RGB (0xd88cb8),
};

/* High contrast, for a projector (a washed-out picture seen from the back
 * of a room) and high-contrast themes: text, axes and the lines that are
 * not data pure black or white; the bars in saturated colours that keep
 * their labels' dark text readable, whose grey levels lie at least 0.08
 * apart (ok, retried, failed, timed out and cancelled, which are flat
 * fills; a running bar is open), so that a grayscale picture still tells
 * them apart; the series darker (or, in dark, lighter) than the normal
 * palettes' for 4.5:1 on the background. */
static const SluicePalette high_contrast_light_palette = {
  .background   = RGB (0xffffff),
  .foreground   = RGB (0x000000),
  .muted        = RGB (0x333333),
  .grid         = RGB (0xb8b8b8),

  .ok           = RGB (0x00e676),  /* green */
  .retried      = RGB (0xffab00),  /* amber */
  .failed       = RGB (0xff4500),  /* vermillion */
  .timed_out    = RGB (0xd500f9),  /* purple */
  .cancelled    = RGB (0xd8d8d8),
  .running      = RGB (0x2979ff),  /* blue */

  .queue        = RGB (0x0039cb),  /* deep blue */
  .in_flight    = RGB (0x007a33),  /* deep green */
  .lead         = RGB (0xe65100),
  .busy         = RGB (0x2979ff),  /* as the lanes' running bars */
  .waiting      = RGB (0x7f4f00),  /* deep amber */

  .capacity     = RGB (0x333333),
  .bound        = RGB (0x000000),
  .now          = RGB (0x000000),
  .deadline     = RGB (0xb0005a),
  .cancel_round = RGB (0x000000),
  .selection    = RGB (0x000000),

  .backoff      = RGB (0x0039cb),
  .budget       = RGB (0xd500f9),
};

/* On black rather than the theme's dark grey: the most contrast a
 * projector can give. */
static const SluicePalette high_contrast_dark_palette = {
  .background   = RGB (0x000000),
  .foreground   = RGB (0xffffff),
  .muted        = RGB (0xd0d0d0),
  .grid         = RGB (0x404040),

  .ok           = RGB (0x00e676),
  .retried      = RGB (0xffab00),
  .failed       = RGB (0xff4500),
  .timed_out    = RGB (0xd500f9),
  .cancelled    = RGB (0xc8c8c8),
  .running      = RGB (0x40c4ff),  /* sky blue */

  .queue        = RGB (0x40c4ff),
  .in_flight    = RGB (0x00e676),
  .lead         = RGB (0xff6d00),
  .busy         = RGB (0xffea00),  /* yellow */
  .waiting      = RGB (0xffab40),  /* amber, between the lead's orange and the busy yellow */

  .capacity     = RGB (0xd0d0d0),
  .bound        = RGB (0xffffff),
  .now          = RGB (0xffffff),
  .deadline     = RGB (0xffea00),
  .cancel_round = RGB (0xffffff),
  .selection    = RGB (0xffffff),

  .backoff      = RGB (0x80d8ff),  /* lifted off the running bars' */
  .budget       = RGB (0xea80fc),
};

/**
 * sluice_palette_get:
 * @flags: whether the views are drawn for a dark theme, and in high
 *   contrast
 *
 * Returns: (transfer none): the palette, static
 */
const SluicePalette *
sluice_palette_get (SluicePaletteFlags flags)
{
  gboolean dark = (flags & SLUICE_PALETTE_DARK) != 0;

  if (flags & SLUICE_PALETTE_HIGH_CONTRAST)
    return dark ? &high_contrast_dark_palette : &high_contrast_light_palette;
  return dark ? &dark_palette : &light_palette;
}

/**
 * sluice_palette_set_source:
 * @cr: a cairo context
 * @color: a colour of a palette
 *
 * Makes @color the source of @cr.
 */
void
sluice_palette_set_source (cairo_t           *cr,
                           const SluiceColor *color)
{
  g_return_if_fail (cr != NULL);
  g_return_if_fail (color != NULL);

  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}

static double
linear_channel (double c)
{
  return c <= 0.04045 ? c / 12.92 : pow ((c + 0.055) / 1.055, 2.4);
}

/**
 * sluice_color_get_luminance:
 * @color: a colour; its alpha is ignored
 *
 * Returns: the relative luminance of @color as WCAG 2 defines it, from 0
 *   (black) to 1 (white)
 */
double
sluice_color_get_luminance (const SluiceColor *color)
{
  g_return_val_if_fail (color != NULL, 0.);

  return 0.2126 * linear_channel (color->red)
       + 0.7152 * linear_channel (color->green)
       + 0.0722 * linear_channel (color->blue);
}

/**
 * sluice_color_get_contrast:
 * @a: a colour
 * @b: another colour
 *
 * Returns: the WCAG 2 contrast ratio of @a and @b, from 1 to 21; text
 *   needs at least 4.5
 */
double
sluice_color_get_contrast (const SluiceColor *a,
                           const SluiceColor *b)
{
  double la = sluice_color_get_luminance (a);
  double lb = sluice_color_get_luminance (b);

  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}
