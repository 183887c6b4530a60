/* test-render-projector.c: the chart and the lanes drawn for a projector
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Projector mode (docs/teaching.md) draws the render layer's views on a cairo
 * context scaled by SLUICE_RENDER_PROJECTOR_SCALE, laid out for a view that
 * many times smaller, in the high-contrast palette. A preset's run is drawn
 * both ways and the pixels are measured: the text is at least 1.5 times as
 * tall, the lines at least 1.5 times as thick (nothing in the render layer
 * snaps to device pixels in a way that undoes the scale); the layouts at
 * the widths a 1024-pixel screen gives keep their keys apart; and the
 * high-contrast palettes keep their promises.
 */

#include <glib/gi18n.h>
#include <locale.h>
#include <math.h>

#include "run-fixture.h"
#include "sluice-palette.h"
#include "sluice-render-chart-private.h"
#include "sluice-render-chart.h"
#include "sluice-render-projector.h"
#include "sluice-render-timeline.h"
#include "test-helpers.h"

#define WIDTH 600.
#define CHART_HEIGHT 200.

/* ---- pixels -------------------------------------------------------------- */

static double
gray_at (cairo_surface_t *surface,
         int              x,
         int              y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel;

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));

  pixel = *(const guint32 *) (gconstpointer) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  /* Drawn on an opaque background: no premultiplication to undo. */
  return (0.299 * ((pixel >> 16) & 0xff) + 0.587 * ((pixel >> 8) & 0xff) + 0.114 * (pixel & 0xff)) / 255.;
}

static double
gray_of (const SluiceColor *color)
{
  return 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue;
}

/* How much of a pixel an ink of grey @ink covers on @background: 0 to 1. */
static double
coverage (double pixel,
          double background,
          double ink)
{
  return CLAMP ((pixel - background) / (ink - background), 0., 1.);
}

/* The height of the ink of @ink's colour in a rectangle of @surface, in
 * device pixels: per row, how much of it the darkest pixel covers, summed.
 * An antialiased edge counts as the part of the row it covers, so the
 * measure does not jump by a pixel where an edge falls. */
static double
ink_height (cairo_surface_t     *surface,
            const SluicePalette *palette,
            const SluiceColor   *ink,
            double               x,
            double               y,
            double               w,
            double               h)
{
  double background = gray_of (&palette->background), color = gray_of (ink);
  double sum = 0.;

  for (int py = (int) floor (y); py < (int) ceil (y + h); py++)
    {
      double row = 0.;

      for (int px = (int) floor (x); px < (int) ceil (x + w); px++)
        row = MAX (row, coverage (gray_at (surface, px, py), background, color));
      sum += row;
    }
  return sum;
}

/* The width of a vertical line of @ink's colour across row @y, from @x0
 * to @x1: the coverage of its pixels, summed. */
static double
line_width_across (cairo_surface_t     *surface,
                   const SluicePalette *palette,
                   const SluiceColor   *ink,
                   double               x0,
                   double               x1,
                   double               y)
{
  double background = gray_of (&palette->background), color = gray_of (ink);
  double sum = 0.;

  for (int px = (int) floor (x0); px < (int) ceil (x1); px++)
    sum += coverage (gray_at (surface, px, (int) y), background, color);
  return sum;
}

/* The same, for a horizontal line down column @x, from @y0 to @y1. */
static double
line_width_down (cairo_surface_t     *surface,
                 const SluicePalette *palette,
                 const SluiceColor   *ink,
                 double               x,
                 double               y0,
                 double               y1)
{
  double background = gray_of (&palette->background), color = gray_of (ink);
  double sum = 0.;

  for (int py = (int) floor (y0); py < (int) ceil (y1); py++)
    sum += coverage (gray_at (surface, (int) x, py), background, color);
  return sum;
}

/* ---- drawing at a scale ---------------------------------------------------- */

typedef struct {
  double           scale;
  cairo_surface_t *surface;
} Drawn;

static cairo_t *
begin_scaled (Drawn  *drawn,
              double  scale,
              double  width,
              double  height)
{
  cairo_t *cr;

  drawn->scale = scale;
  drawn->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (width * scale),
                                               (int) ceil (height * scale));
  cr = cairo_create (drawn->surface);
  cairo_scale (cr, scale, scale);
  return cr;
}

static void
end_scaled (Drawn   *drawn,
            cairo_t *cr)
{
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (drawn->surface);
}

static void
draw_lanes (Drawn          *drawn,
            SluiceTimeline *model,
            double          scale,
            double          height,
            gint64          now)
{
  cairo_t *cr = begin_scaled (drawn, scale, WIDTH, height);
  SluiceRenderFrame frame = { WIDTH, height, 0, sluice_timeline_get_end_time (model), now, SLUICE_PALETTE_LIGHT };

  sluice_render_timeline (cr, model, &frame, -1);
  end_scaled (drawn, cr);
}

static void
draw_chart (Drawn          *drawn,
            SluiceTimeline *model,
            double          scale)
{
  cairo_t *cr = begin_scaled (drawn, scale, WIDTH, CHART_HEIGHT);
  SluiceRenderFrame frame = { WIDTH, CHART_HEIGHT, 0, sluice_timeline_get_end_time (model), -1, SLUICE_PALETTE_LIGHT };
  SluiceChartLimits limits = sluice_render_chart_get_limits (model);

  sluice_render_chart (cr, model, &frame, &limits);
  end_scaled (drawn, cr);
}

/* The chart's geometry, @width wide, as draw_chart() lays it out. */
static void
get_chart_layout (SluiceTimeline    *model,
                  double             width,
                  SluiceChartLayout *chart)
{
  SluiceRenderFrame frame = { width, CHART_HEIGHT, 0, sluice_timeline_get_end_time (model), -1, SLUICE_PALETTE_LIGHT };
  SluiceChartLimits limits = sluice_render_chart_get_limits (model);

  _sluice_chart_get_model_layout (model, &frame, &limits, chart);
}

/* ---- text ----------------------------------------------------------------- */

/* The lanes' time axis labels, the lanes' names in the gutter and the
 * chart's count labels, drawn normally and for a projector: each text's ink
 * is at least 1.5 times as tall. The layout in the render layer's units is
 * the same at both scales, so the same labels are drawn at the same places,
 * scaled. */
static void
test_text_is_half_as_large_again (void)
{
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("retries", NULL);
  const SluicePalette *palette = sluice_palette_get (SLUICE_PALETTE_LIGHT);
  double height = sluice_render_timeline_get_natural_height_for_width (model, WIDTH);
  double s = SLUICE_RENDER_PROJECTOR_SCALE;
  SluiceLanesLayout lanes;
  SluiceChartLayout chart;
  Drawn normal, projector;
  double axis_top, axis[2], names[2], counts[2];

  g_assert_cmpfloat (s, >=, 1.5);
  _sluice_lanes_get_model_layout (model, WIDTH, height, &lanes);
  axis_top = lanes.plot.y + lanes.plot.height + 3.;

  draw_lanes (&normal, model, 1., height, -1);
  draw_lanes (&projector, model, s, height, -1);
  axis[0] = ink_height (normal.surface, palette, &palette->muted, lanes.plot.x, axis_top,
                        lanes.plot.width, height - axis_top);
  axis[1] = ink_height (projector.surface, palette, &palette->muted, lanes.plot.x * s, axis_top * s,
                        lanes.plot.width * s, (height - axis_top) * s);
  /* Worker 0's name, in the gutter beside its lane. */
  names[0] = ink_height (normal.surface, palette, &palette->muted, 0., lanes.plot.y, lanes.plot.x - 2.,
                         lanes.lane_height);
  names[1] = ink_height (projector.surface, palette, &palette->muted, 0., lanes.plot.y * s,
                         (lanes.plot.x - 2.) * s, lanes.lane_height * s);
  cairo_surface_destroy (normal.surface);
  cairo_surface_destroy (projector.surface);

  get_chart_layout (model, WIDTH, &chart);
  draw_chart (&normal, model, 1.);
  draw_chart (&projector, model, s);
  /* The count labels, right-aligned in the gutter left of the plot (the
   * moments' labels start further below the baseline). */
  counts[0] = ink_height (normal.surface, palette, &palette->muted, 0., chart.plot.y - 8., chart.plot.x - 2.,
                          chart.plot.height + 14.);
  counts[1] = ink_height (projector.surface, palette, &palette->muted, 0., (chart.plot.y - 8.) * s,
                          (chart.plot.x - 2.) * s, (chart.plot.height + 14.) * s);
  cairo_surface_destroy (normal.surface);
  cairo_surface_destroy (projector.surface);

  g_test_message ("ink heights: axis %.2f → %.2f, lane names %.2f → %.2f, counts %.2f → %.2f",
                  axis[0], axis[1], names[0], names[1], counts[0], counts[1]);
  g_assert_cmpfloat (axis[0], >, 5.);
  g_assert_cmpfloat (names[0], >, 5.);
  g_assert_cmpfloat (counts[0], >, 5.);
  g_assert_cmpfloat (axis[1], >=, 1.5 * axis[0]);
  g_assert_cmpfloat (names[1], >=, 1.5 * names[0]);
  g_assert_cmpfloat (counts[1], >=, 1.5 * counts[0]);
}

/* ---- lines ----------------------------------------------------------------- */

/* The "now" line and the time axis' baseline of the lanes: at least 1.5
 * times as thick for a projector. */
static void
test_lines_are_thicker (void)
{
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("retries", NULL);
  const SluicePalette *palette = sluice_palette_get (SLUICE_PALETTE_LIGHT);
  double height = sluice_render_timeline_get_natural_height_for_width (model, WIDTH);
  double s = SLUICE_RENDER_PROJECTOR_SCALE;
  gint64 end = sluice_timeline_get_end_time (model);
  gint64 now = end / 2;
  SluiceLanesLayout lanes;
  Drawn normal, projector;
  double now_x, base_y, probe_x, probe_y, now_w[2], base_w[2];

  _sluice_lanes_get_model_layout (model, WIDTH, height, &lanes);
  now_x = _sluice_render_time_to_x (&lanes.plot, 0, end, now);
  base_y = lanes.plot.y + lanes.plot.height;
  /* Between two grid lines, clear of the ticks. */
  probe_x = lanes.plot.x + 7.;
  /* Below worker 0's bars, in its lane (not shaded) and below the now
   * line's notch: only the now line crosses the row. */
  probe_y = lanes.plot.y + lanes.lane_height - lanes.bar_inset / 2.;

  draw_lanes (&normal, model, 1., height, now);
  draw_lanes (&projector, model, s, height, now);
  g_assert_cmpfloat (lanes.bar_inset, >=, 4.);
  now_w[0] = line_width_across (normal.surface, palette, &palette->now, now_x - 3., now_x + 3., probe_y);
  now_w[1] = line_width_across (projector.surface, palette, &palette->now, (now_x - 3.) * s, (now_x + 3.) * s,
                                probe_y * s);
  base_w[0] = line_width_down (normal.surface, palette, &palette->muted, probe_x, base_y - 3., base_y + 3.);
  base_w[1] = line_width_down (projector.surface, palette, &palette->muted, probe_x * s, (base_y - 3.) * s,
                               (base_y + 3.) * s);
  cairo_surface_destroy (normal.surface);
  cairo_surface_destroy (projector.surface);

  g_test_message ("now line %.2f → %.2f px, baseline %.2f → %.2f px", now_w[0], now_w[1], base_w[0], base_w[1]);
  g_assert_cmpfloat (now_w[0], >=, 1.5);
  g_assert_cmpfloat (base_w[0], >=, 0.8);
  g_assert_cmpfloat (now_w[1], >=, 1.5 * now_w[0]);
  g_assert_cmpfloat (base_w[1], >=, 1.5 * base_w[0]);
}

/* ---- the layout at a projector's widths ------------------------------------ */

static gboolean
rects_overlap (const SluiceRect *a,
               const SluiceRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height && b->y < a->y + a->height;
}

static void
assert_apart (const SluiceRect *rects,
              guint             n,
              double            width,
              const char       *what)
{
  for (guint i = 0; i < n; i++)
    {
      if (rects[i].width <= 0.)
        continue;
      g_assert_cmpfloat (rects[i].x, >=, 0.);
      g_assert_cmpfloat (rects[i].x + rects[i].width, <=, width);
      for (guint j = i + 1; j < n; j++)
        if (rects[j].width > 0. && rects_overlap (&rects[i], &rects[j]))
          g_error ("%s: entries %u and %u overlap", what, i, j);
    }
}

/* The window's chart and lanes at 1024 pixels, with the configuration shown
 * or hidden, in the render layer's units for a projector: the lanes' key and
 * the chart's legend keep their entries apart and inside the view, on more
 * rows if need be, and every entry the run's lanes have is in the key. */
static void
test_keys_fit_a_small_screen (void)
{
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("retry-storm", NULL);
  const double widths[] = { (1024. - 24.) / SLUICE_RENDER_PROJECTOR_SCALE,
                            (1024. - 360. - 24.) / SLUICE_RENDER_PROJECTOR_SCALE };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      SluiceLanesLayout lanes;
      SluiceChartLayout chart;
      double height = sluice_render_timeline_get_natural_height_for_width (model, widths[i]);

      _sluice_lanes_get_model_layout (model, widths[i], height, &lanes);
      assert_apart (lanes.key, SLUICE_LANES_N_KEYS, widths[i], "lanes' key");
      g_assert_cmpuint (lanes.key_kinds, !=, 0);
      for (guint k = 0; k < SLUICE_LANES_N_KEYS; k++)
        g_assert_cmpfloat (lanes.key[k].width > 0., ==, (lanes.key_kinds & (1u << k)) != 0);

      get_chart_layout (model, widths[i], &chart);
      assert_apart (chart.legend, SLUICE_CHART_N_LEGEND, widths[i], "chart's legend");
      for (guint k = 0; k < SLUICE_CHART_N_SERIES; k++)
        g_assert_cmpfloat (chart.legend[k].width, >, 0.);
    }
}

/* ---- the high-contrast palettes -------------------------------------------- */

/* Pure black or white text, strong lines, and bars that a grayscale
 * picture still tells apart: ok, retried, failed, timed out and cancelled
 * are flat fills (a running bar is open), their grey levels at least 0.08
 * apart. */
static void
test_high_contrast_palettes (void)
{
  for (int dark = 0; dark <= 1; dark++)
    {
      const SluicePalette *palette = sluice_palette_get (SLUICE_PALETTE_HIGH_CONTRAST |
                                                         (dark ? SLUICE_PALETTE_DARK : 0));
      const SluicePalette *normal = sluice_palette_get (dark ? SLUICE_PALETTE_DARK : SLUICE_PALETTE_LIGHT);
      const SluiceColor *flat[] = {
        &palette->ok, &palette->retried, &palette->failed, &palette->timed_out, &palette->cancelled,
      };
      const SluiceColor *lines[] = {
        &palette->queue, &palette->in_flight, &palette->now, &palette->deadline, &palette->bound,
        &palette->capacity, &palette->selection, &palette->backoff, &palette->waiting,
      };
      double pure = dark ? 1. : 0.;

      g_test_message ("%s", dark ? "dark" : "light");
      g_assert_true (palette != normal);
      g_assert_cmpfloat (palette->foreground.red, ==, pure);
      g_assert_cmpfloat (palette->foreground.green, ==, pure);
      g_assert_cmpfloat (palette->foreground.blue, ==, pure);
      g_assert_cmpfloat (palette->background.red, ==, 1. - pure);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->foreground, &palette->background), >=, 20.9);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->muted, &palette->background), >=, 7.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->muted, &palette->background), >,
                         sluice_color_get_contrast (&normal->muted, &normal->background));
      for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
        g_assert_cmpfloat (sluice_color_get_contrast (lines[i], &palette->background), >=, 4.5);
      for (guint i = 0; i < G_N_ELEMENTS (flat); i++)
        for (guint j = i + 1; j < G_N_ELEMENTS (flat); j++)
          {
            double apart = fabs (gray_of (flat[i]) - gray_of (flat[j]));

            if (apart < 0.08)
              g_error ("bars %u and %u are %.3f apart in grayscale", i, j, apart);
          }
      /* The running bars' border stands out on the background. */
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->running, &palette->background), >=, 3.);
    }
}

/* ---- the chart's plot and readout on a 1024×768 projector ----------------- */

/* The window's chart on a 1024×768 projector, as wide as the window gives
 * it with a lesson beside it and without; the window keeps it 200 pixels
 * high (test-window-lesson-fit.c). */
#define PROJECTOR_CHART_HEIGHT 200.
#define MIN_PROJECTOR_PLOT     120.  /* of its 200 pixels, in screen pixels */
#define MIN_PLOT               150.  /* the same chart without projector mode */

/* The legend and the readout of @model's chart at @width × @height in the
 * render layer's units, drawn at @scale: the legend on one row with every
 * series, the plot at least @min_plot screen pixels high, and the readout,
 * wherever the pointer is over the plot, on the legend's row, inside the
 * view and clear of the plot, with every series' value. */
static void
check_chart (SluiceTimeline *model,
             double          width,
             double          height,
             double          scale,
             double          min_plot)
{
  SluiceRenderFrame frame = { width, height, 0, sluice_timeline_get_end_time (model), -1, SLUICE_PALETTE_LIGHT };
  SluiceChartLimits limits = sluice_render_chart_get_limits (model);
  SluiceChartLayout chart;

  _sluice_chart_get_model_layout (model, &frame, &limits, &chart);
  g_test_message ("%.0f × %.0f at %.1f: legend %.0f high in form %d, plot %.0f pixels high", width, height, scale,
                  chart.legend_height, chart.legend_form, chart.plot.height * scale);
  g_assert_cmpuint (chart.legend_rows, ==, 1);
  assert_apart (chart.legend, SLUICE_CHART_N_LEGEND, width, "chart's legend");
  for (guint k = 0; k < SLUICE_CHART_N_SERIES; k++)
    g_assert_cmpfloat (chart.legend[k].width, >, 0.);
  g_assert_cmpfloat (chart.plot.height * scale, >=, min_plot);

  for (double f = 0.; f <= 1.; f += 0.125)
    {
      double x = chart.plot.x + f * chart.plot.width;
      SluiceRect box = _sluice_chart_get_readout_rect (model, &frame, &limits, x);
      SluiceRect entries[SLUICE_CHART_N_LEGEND];
      cairo_rectangle_t public_box;

      g_assert_cmpfloat (box.width, >, 0.);
      g_assert_false (rects_overlap (&box, &chart.plot));
      g_assert_cmpfloat (box.x, >=, 0.);
      g_assert_cmpfloat (box.x + box.width, <=, width - SLUICE_RENDER_MARGIN + 0.001);
      g_assert_cmpfloat (box.y + box.height, <=, chart.plot.y);
      _sluice_chart_get_readout_layout (model, &frame, &limits, x, entries);
      assert_apart (entries, SLUICE_CHART_N_LEGEND, width, "readout");
      for (guint k = 0; k < SLUICE_CHART_N_SERIES; k++)
        g_assert_cmpfloat (entries[k].width, >, 0.);

      sluice_render_chart_get_readout_rect (model, &frame, &limits, x, &public_box);
      g_assert_cmpfloat (public_box.y + public_box.height, <=, chart.plot.y);
    }
}

/* Issue 26: on a projector the chart is at least 200 pixels high "with
 * readouts that never cover the data". Its legend keeps one row (short
 * labels when the full ones do not fit), so most of the 200 pixels are
 * the plot's, and the readout takes the legend's row, so the series stay
 * in view wherever the pointer or a lesson's pinned time is; for each
 * run kind (a retry budget, failed items past the bound, the results
 * waiting piling up) and in English and German. */
static void
test_chart_plot_keeps_its_height_and_readout_stays_off_it (gconstpointer data)
{
  const char *presets[] = { "retries", "retry-storm", "keep-going", "retry-budget" };
  const double s = SLUICE_RENDER_PROJECTOR_SCALE;
  /* The chart's width in the window at 1024 pixels: without and with a
   * lesson's sidebar of 420 pixels beside it (its margins and the window's
   * are the rest). */
  const double widths[] = { 1024. - 24., 1024. - 420. - 44. };

  if (!sluice_test_try_language (((const SluiceTestLanguage *) data)->language))
    return;

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    {
      g_autoptr(SluiceTimeline) model = run_fixture_timeline_of (presets[p], NULL);

      g_test_message ("%s", presets[p]);
      for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
        {
          check_chart (model, widths[i] / s, PROJECTOR_CHART_HEIGHT / s, s, MIN_PROJECTOR_PLOT);
          check_chart (model, widths[i], PROJECTOR_CHART_HEIGHT, 1., MIN_PLOT);
        }
    }
  setlocale (LC_MESSAGES, "C");
  g_setenv ("LANGUAGE", "", TRUE);
  textdomain ("sluice");
}

/* ---- the lanes and the limits' labels on a 1024×768 projector -------------- */

/* The runs the projector tests draw: the presets with retries, failed
 * items past the bound and a retry budget, and two lessons' runs (the
 * backpressure lesson's lead at its bound, the jittered retry storm). */
static const char * const projector_runs[] = {
  "retries", "retry-storm", "keep-going", "retry-budget", "../lessons/backpressure", "../lessons/retry-storm-jitter",
};

/* The lanes' view in the window on a 1024×768 projector, beside a lesson:
 * as wide as the chart above it and about 220 pixels high
 * (the screenshots in docs/classroom). */
#define PROJECTOR_LANES_WIDTH  (1024. - 420. - 44.)
#define PROJECTOR_LANES_HEIGHT 220.
#define MIN_PROJECTOR_LANES    110.  /* the lanes themselves, in screen pixels (two rows of key leave 118) */

/* Issue 26: on a projector the lanes get the room, not their key. The key
 * explains only what the run's lanes show, on one row or two (it wrapped to
 * four and left the lanes ~60 of their 220 pixels, so that only every
 * fourth lane had its name), with each of those entries in view. */
static void
test_lanes_key_keeps_to_two_rows (gconstpointer data)
{
  const double s = SLUICE_RENDER_PROJECTOR_SCALE;
  const double width = PROJECTOR_LANES_WIDTH / s;

  if (!sluice_test_try_language (((const SluiceTestLanguage *) data)->language))
    return;

  for (guint p = 0; p < G_N_ELEMENTS (projector_runs); p++)
    {
      g_autoptr(SluiceTimeline) model = run_fixture_timeline_of (projector_runs[p], NULL);
      SluiceLanesLayout lanes;

      _sluice_lanes_get_model_layout (model, width, PROJECTOR_LANES_HEIGHT / s, &lanes);
      g_test_message ("%s: key of %u rows (entries 0x%x), lanes %.0f pixels high", projector_runs[p], lanes.key_rows,
                      lanes.key_kinds, lanes.plot.height * s);
      g_assert_cmpuint (lanes.key_rows, >=, 1);
      g_assert_cmpuint (lanes.key_rows, <=, 2);
      g_assert_cmpfloat (lanes.plot.height * s, >=, MIN_PROJECTOR_LANES);
      assert_apart (lanes.key, SLUICE_LANES_N_KEYS, width, "lanes' key");
      for (guint k = 0; k < SLUICE_LANES_N_KEYS; k++)
        if ((lanes.key_kinds & (1u << k)) != 0)
          g_assert_cmpfloat (lanes.key[k].width, >, 0.);
    }
  setlocale (LC_MESSAGES, "C");
  g_setenv ("LANGUAGE", "", TRUE);
  textdomain ("sluice");
}

/* Whether @label covers a series of @model's chart; its name for the
 * message. */
static void
assert_label_clear (SluiceTimeline          *model,
                    const SluiceRenderFrame *frame,
                    const SluiceChartLimits *limits,
                    const SluiceRect        *label,
                    const char              *what)
{
  guint series;

  if (label->width <= 0.)
    return;
  series = _sluice_chart_get_series_in_rect (model, frame, limits, label);
  if (series != 0)
    g_error ("%s at %.0f,%.0f %.0f × %.0f covers series 0x%x", what, label->x, label->y, label->width, label->height,
             series);
}

/* Issue 26: the chart's labels never cover the data. The queue capacity's
 * and the lead bound's labels go where no series is drawn, in short form
 * where the full one finds no such place ("Vorlaufgrenze 6" sat on the
 * lead line at 6, "Kapazität der Warteschlange 3" over the in-flight line
 * in the German backpressure lesson), or not at all. */
static void
test_limit_labels_stay_off_the_series (gconstpointer data)
{
  const double s = SLUICE_RENDER_PROJECTOR_SCALE;
  const double widths[] = { 1024. - 24., 1024. - 420. - 44. };
  guint n_shown = 0;

  if (!sluice_test_try_language (((const SluiceTestLanguage *) data)->language))
    return;

  for (guint p = 0; p < G_N_ELEMENTS (projector_runs); p++)
    {
      g_autoptr(SluiceTimeline) model = run_fixture_timeline_of (projector_runs[p], NULL);
      SluiceChartLimits limits = sluice_render_chart_get_limits (model);

      for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
        for (guint projector = 0; projector <= 1; projector++)
          {
            double scale = projector ? s : 1.;
            SluiceRenderFrame frame = {
              widths[i] / scale, PROJECTOR_CHART_HEIGHT / scale, 0, sluice_timeline_get_end_time (model), -1,
              SLUICE_PALETTE_LIGHT,
            };
            SluiceRect capacity, bound;

            _sluice_chart_get_labels (model, &frame, &limits, &capacity, &bound, NULL);
            g_test_message ("%s at %.0f × %.0f: capacity %.0f wide, bound %.0f wide", projector_runs[p],
                            frame.width, frame.height, capacity.width, bound.width);
            assert_label_clear (model, &frame, &limits, &capacity, "the capacity's label");
            assert_label_clear (model, &frame, &limits, &bound, "the bound's label");
            n_shown += (capacity.width > 0.) + (bound.width > 0.);
          }
    }
  /* Not by leaving them all out. */
  g_assert_cmpuint (n_shown, >, 0);
  setlocale (LC_MESSAGES, "C");
  g_setenv ("LANGUAGE", "", TRUE);
  textdomain ("sluice");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/projector/text-is-half-as-large-again", test_text_is_half_as_large_again);
  g_test_add_func ("/render/projector/lines-are-thicker", test_lines_are_thicker);
  g_test_add_func ("/render/projector/keys-fit-a-small-screen", test_keys_fit_a_small_screen);
  g_test_add_func ("/render/projector/high-contrast-palettes", test_high_contrast_palettes);
  g_test_add_data_func ("/render/projector/chart-plot-keeps-its-height-and-readout-stays-off-it/en", &sluice_test_languages[0],
                        test_chart_plot_keeps_its_height_and_readout_stays_off_it);
  g_test_add_data_func ("/render/projector/chart-plot-keeps-its-height-and-readout-stays-off-it/de", &sluice_test_languages[1],
                        test_chart_plot_keeps_its_height_and_readout_stays_off_it);
  g_test_add_data_func ("/render/projector/lanes-key-keeps-to-two-rows/en", &sluice_test_languages[0],
                        test_lanes_key_keeps_to_two_rows);
  g_test_add_data_func ("/render/projector/lanes-key-keeps-to-two-rows/de", &sluice_test_languages[1],
                        test_lanes_key_keeps_to_two_rows);
  g_test_add_data_func ("/render/projector/limit-labels-stay-off-the-series/en", &sluice_test_languages[0],
                        test_limit_labels_stay_off_the_series);
  g_test_add_data_func ("/render/projector/limit-labels-stay-off-the-series/de", &sluice_test_languages[1],
                        test_limit_labels_stay_off_the_series);

  return g_test_run ();
}
