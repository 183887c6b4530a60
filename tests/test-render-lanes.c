/* test-render-lanes.c: the worker lanes' bars, as a projector or a
 * grayscale print shows them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Hand-made runs are drawn to image surfaces and read back at coordinates
 * computed from the lanes' layout: an attempt that took no time still has
 * a bar a few pixels wide that a pointer finds, and the outcomes that have
 * no mark of their own (ok, cancelled, running) differ in luminance alone,
 * in the bars and in the key above them.
 */

#include <math.h>

#include "sluice-palette.h"
#include "sluice-render-private.h"
#include "sluice-render-timeline.h"
#include "sluice-timeline.h"
#include "pixel-fixture.h"
#include "test-helpers.h"

/* How far a drawn colour may be from the palette's (cairo's rounding). */
#define LANES_TOLERANCE (3. / 255.)

#define S(seconds) sluice_time_from_seconds (seconds)

#define WIDTH  640.
#define HEIGHT 200.

/* The key's entries for the outcomes without marks, in the key's order
 * (sluice-render-key.c). */
#define KEY_OK        0
#define KEY_CANCELLED 4
#define KEY_RUNNING   5

/* ---- hand-made runs ------------------------------------------------------ */

static void
add (SluiceTimeline  *model,
     SluiceEventKind  kind,
     double           time,
     gint64           item,
     gint             worker,
     SluiceOutcome    outcome)
{
  SluiceEvent event = {
    .kind = kind,
    .time = S (time),
    .item = item,
    .attempt = item >= 0 ? 1 : 0,
    .worker = worker,
    .outcome = outcome,
    .delay = -1,
    .tokens = -1,
    .deadline = -1,
  };

  sluice_timeline_add_event (model, &event);
}

/* An attempt of @item on @worker from @start to @end (no end: -1). */
static void
add_attempt (SluiceTimeline *model,
             gint64          item,
             gint            worker,
             double          start,
             double          end,
             SluiceOutcome   outcome)
{
  add (model, SLUICE_EVENT_ATTEMPT_START, start, item, worker, SLUICE_OUTCOME_NONE);
  if (end >= 0)
    add (model, SLUICE_EVENT_ATTEMPT_END, end, item, worker, outcome);
}

/* ---- pixels -------------------------------------------------------------- */

static cairo_surface_t *
render (SluiceTimeline     *model,
        gint64              now,
        gint64              selected_item,
        SluicePaletteFlags  palette)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) WIDTH, (int) HEIGHT);
  cairo_t *cr = cairo_create (surface);

  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { WIDTH, HEIGHT, 0, S (4), now, palette }, selected_item);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* What a grayscale conversion keeps of a pixel (Rec. 601 luma, as PIL's
 * "L" mode and most printers' drivers compute it). */
static double
gray (const SluiceColor *color)
{
  return 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue;
}

/* The luminance of a rectangle of pixels: its mean and standard deviation. */
typedef struct {
  double mean, deviation;
} Luma;

static Luma
measure (cairo_surface_t *surface,
         double           x,
         double           y,
         double           w,
         double           h)
{
  double sum = 0., sum2 = 0.;
  guint n = 0;

  for (int py = (int) ceil (y); py < (int) floor (y + h); py++)
    for (int px = (int) ceil (x); px < (int) floor (x + w); px++)
      {
        SluiceColor color;
        double l;

        pixel_fixture_get (surface, px, py, &color);
        l = gray (&color);

        sum += l;
        sum2 += l * l;
        n++;
      }

  g_assert_cmpuint (n, >, 0);
  return (Luma) { sum / n, sqrt (MAX (0., sum2 / n - (sum / n) * (sum / n))) };
}

static SluiceLanesLayout
layout_of (SluiceTimeline *model)
{
  SluiceLanesLayout lanes;

  _sluice_lanes_get_model_layout (model, WIDTH, HEIGHT, &lanes);
  return lanes;
}

static double
x_of (const SluiceLanesLayout *lanes,
      double                   seconds)
{
  return _sluice_render_time_to_x (&lanes->plot, 0, S (4), S (seconds));
}

static double
bar_top (const SluiceLanesLayout *lanes,
         gint                     worker)
{
  return lanes->plot.y + worker * lanes->lane_height + lanes->bar_inset;
}

static double
bar_height (const SluiceLanesLayout *lanes)
{
  return lanes->lane_height - 2. * lanes->bar_inset;
}

/* ---- an attempt that took no time ---------------------------------------- */

/* On the virtual clock an attempt can start and end at the same instant:
 * its bar is still a few pixels wide, from that instant on, with nothing
 * drawn before it, whether its item is selected or not, and a pointer on
 * it finds it. */
static void
test_zero_duration_attempt_is_visible (void)
{
  g_autoptr(SluiceTimeline) model = sluice_timeline_new (2);
  const SluicePalette *palette = sluice_palette_get (FALSE);
  SluiceRenderFrame frame = { WIDTH, HEIGHT, 0, S (4), -1, SLUICE_PALETTE_LIGHT };
  SluiceLanesLayout lanes;
  double x, y;

  add (model, SLUICE_EVENT_RUN_START, 0, -1, -1, SLUICE_OUTCOME_NONE);
  add_attempt (model, 0, 0, 1., 1., SLUICE_OUTCOME_OK);
  add (model, SLUICE_EVENT_RUN_END, 4, -1, -1, SLUICE_OUTCOME_NONE);

  lanes = layout_of (model);
  x = floor (x_of (&lanes, 1.));
  y = bar_top (&lanes, 0) + bar_height (&lanes) / 2.;

  for (gint64 selected = -1; selected <= 0; selected++)
    {
      cairo_surface_t *surface = render (model, -1, selected, FALSE);
      SluiceColor before;
      int first = -1, n_ok = 0;

      pixel_fixture_get (surface, (int) x - 3, (int) y, &before);

      g_test_message ("selected item %" G_GINT64_FORMAT, selected);
      /* The bar starts at its instant's pixel, or the next one (a full
       * bar, the selected item's, starts at the rounded x, inside its
       * outline), and is at least 3 pixels wide. */
      for (int px = (int) x; px <= (int) x + 1 && first < 0; px++)
        {
          SluiceColor pixel;

          pixel_fixture_get (surface, px, (int) y, &pixel);
          if (pixel_fixture_color_near (&pixel, &palette->ok, LANES_TOLERANCE))
            first = px;
        }
      g_assert_cmpint (first, >=, 0);
      for (int px = first; px < first + 10; px++)
        {
          SluiceColor pixel;

          pixel_fixture_get (surface, px, (int) y, &pixel);
          if (!pixel_fixture_color_near (&pixel, &palette->ok, LANES_TOLERANCE))
            break;
          n_ok++;
        }
      g_assert_cmpint (n_ok, >=, 3);
      /* From its instant on: nothing before it (but the selection's
       * outline). */
      g_assert_false (pixel_fixture_color_near (&before, &palette->ok, LANES_TOLERANCE));
      cairo_surface_destroy (surface);
    }

  for (int dx = 0; dx < 3; dx++)
    {
      guint index = G_MAXUINT;

      g_assert_true (sluice_render_timeline_hit (model, &frame, x + dx + 0.5, y, &index));
      g_assert_cmpuint (index, ==, 0);
    }
}

/* ---- outcomes in grayscale ------------------------------------------------ */

/* Three lanes: an ok attempt, a cancelled one and one still running at
 * "now", each 0.5–2.5 s: wide bars, measured right of their labels. */
static SluiceTimeline *
outcomes_run (void)
{
  SluiceTimeline *model = sluice_timeline_new (3);

  add (model, SLUICE_EVENT_RUN_START, 0, -1, -1, SLUICE_OUTCOME_NONE);
  add_attempt (model, 0, 0, 0.5, 2.5, SLUICE_OUTCOME_OK);
  add_attempt (model, 1, 1, 0.5, 2.5, SLUICE_OUTCOME_CANCELLED);
  add_attempt (model, 2, 2, 0.5, -1, SLUICE_OUTCOME_NONE);
  return model;
}

/* The inside of worker @worker's bar, right of its label and inside a
 * running bar's border. */
static Luma
measure_bar_inside (cairo_surface_t         *surface,
                    const SluiceLanesLayout *lanes,
                    gint                     worker)
{
  double x0 = x_of (lanes, 1.5), x1 = x_of (lanes, 2.4);

  return measure (surface, x0, bar_top (lanes, worker) + 3., x1 - x0, bar_height (lanes) - 6.);
}

/* A running bar's bold border: its top edge, right of the label. */
static Luma
measure_bar_border (cairo_surface_t         *surface,
                    const SluiceLanesLayout *lanes,
                    gint                     worker)
{
  double x0 = x_of (lanes, 1.5), x1 = x_of (lanes, 2.4);

  return measure (surface, x0, bar_top (lanes, worker), x1 - x0, 2.);
}

/* Two signatures a grayscale picture tells apart: a clearly different
 * mean, or a clearly different texture. */
static gboolean
distinct (Luma a,
          Luma b)
{
  return fabs (a.mean - b.mean) > 0.1 || fabs (a.deviation - b.deviation) > 0.08;
}

/* The palettes the tests draw in: light and dark, normal and high
 * contrast (projector mode), with their names for the PNGs. */
static const char * const palette_names[] = {
  [SLUICE_PALETTE_LIGHT] = "light",
  [SLUICE_PALETTE_DARK] = "dark",
  [SLUICE_PALETTE_HIGH_CONTRAST] = "high-contrast-light",
  [SLUICE_PALETTE_HIGH_CONTRAST | SLUICE_PALETTE_DARK] = "high-contrast-dark",
};

/* In grayscale the ok, cancelled and running colours are all mid-greys;
 * the patterns keep them apart: ok is flat, cancelled is dotted (a
 * texture), running is open (an inside near the background, a bold
 * border in its colour). In every palette. */
static void
test_cancelled_and_running_differ_in_grayscale (void)
{
  g_autoptr(SluiceTimeline) model = outcomes_run ();
  SluiceLanesLayout lanes = layout_of (model);

  for (SluicePaletteFlags palette = 0; palette < G_N_ELEMENTS (palette_names); palette++)
    {
      cairo_surface_t *surface = render (model, S (3), -1, palette);
      Luma ok = measure_bar_inside (surface, &lanes, 0);
      Luma cancelled = measure_bar_inside (surface, &lanes, 1);
      Luma running = measure_bar_inside (surface, &lanes, 2);
      Luma border = measure_bar_border (surface, &lanes, 2);
      g_autofree char *name = g_strdup_printf ("lanes-outcomes-%s.png", palette_names[palette]);

      sluice_test_save_png (surface, name);

      g_test_message ("%s: ok %.3f±%.3f, cancelled %.3f±%.3f, running %.3f±%.3f, its border %.3f",
                      palette_names[palette], ok.mean, ok.deviation, cancelled.mean, cancelled.deviation,
                      running.mean, running.deviation, border.mean);

      /* Ok is flat; cancelled is textured. */
      g_assert_cmpfloat (ok.deviation, <, 0.02);
      g_assert_cmpfloat (cancelled.deviation, >, 0.1);
      /* Running: an even inside, and a border that stands out from it. */
      g_assert_cmpfloat (running.deviation, <, 0.02);
      g_assert_cmpfloat (fabs (border.mean - running.mean), >, 0.2);

      g_assert_true (distinct (ok, cancelled));
      g_assert_true (distinct (ok, running));
      g_assert_true (distinct (cancelled, running));
      cairo_surface_destroy (surface);
    }
}

/* The key explains the bars with the same patterns: its cancelled swatch
 * is dotted, its running swatch open, its ok swatch flat. */
static void
test_key_shows_the_bars_patterns (void)
{
  g_autoptr(SluiceTimeline) model = outcomes_run ();
  SluiceLanesLayout lanes = layout_of (model);

  for (SluicePaletteFlags palette = 0; palette < G_N_ELEMENTS (palette_names); palette++)
    {
      cairo_surface_t *surface = render (model, S (3), -1, palette);
      Luma swatch[3], edge;
      const guint keys[3] = { KEY_OK, KEY_CANCELLED, KEY_RUNNING };

      /* A swatch is 18 × 12 pixels, from the entry's left, centred one
       * pixel above the middle of its row. */
      for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
        {
          const SluiceRect *rect = &lanes.key[keys[i]];
          double top = rect->y + rect->height / 2. - 1. - 6.;

          g_assert_cmpfloat (rect->width, >, 0.);
          swatch[i] = measure (surface, rect->x + 3., top + 3., 12., 6.);
          if (keys[i] == KEY_RUNNING)
            edge = measure (surface, rect->x + 3., top, 12., 2.);
        }

      g_assert_cmpfloat (swatch[0].deviation, <, 0.02);
      g_assert_cmpfloat (swatch[1].deviation, >, 0.1);
      g_assert_cmpfloat (swatch[2].deviation, <, 0.02);
      g_assert_cmpfloat (fabs (edge.mean - swatch[2].mean), >, 0.2);
      cairo_surface_destroy (surface);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/lanes/zero-duration-attempt-is-visible", test_zero_duration_attempt_is_visible);
  g_test_add_func ("/render/lanes/cancelled-and-running-differ-in-grayscale",
                   test_cancelled_and_running_differ_in_grayscale);
  g_test_add_func ("/render/lanes/key-shows-the-bars-patterns", test_key_shows_the_bars_patterns);

  return g_test_run ();
}
