/* test-render-chart.c: what the queue chart says beyond its lines: the
 * run's moments on the time axis, the lead's failed items, the readout
 * under the pointer, and labels that keep clear of each other
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <math.h>
#include <string.h>

#include "run-fixture.h"
#include "sluice-palette.h"
#include "sluice-render-chart.h"
#include "sluice-render-chart-private.h"
#include "sluice-render-playhead.h"
#include "sluice-render-export.h"
#include "sluice-render-timeline.h"
#include "sluice-timeline.h"
#include "pixel-fixture.h"
#include "test-helpers.h"

#define S(seconds) sluice_time_from_seconds (seconds)

/* ---- runs made by hand --------------------------------------------------- */

typedef struct {
  SluiceEventKind kind;
  double          time;
  guint           queued, in_flight, lead, failed;
} Step;

static void
add_steps (SluiceTimeline *model,
           const Step     *steps,
           guint           n_steps)
{
  for (guint i = 0; i < n_steps; i++)
    {
      SluiceEvent event = {
        .kind = steps[i].kind,
        .time = S (steps[i].time),
        .item = -1,
        .worker = -1,
        .queued = steps[i].queued,
        .in_flight = steps[i].in_flight,
        .lead = steps[i].lead,
        .failed = steps[i].failed,
        .delay = -1,
        .tokens = -1,
      };

      sluice_timeline_add_event (model, &event);
    }
}

/* A run of 4 s: a stop request at 2 s, its drain at once, the end at
 * 3.5 s. */
static const Step stopped_run[] = {
  { SLUICE_EVENT_RUN_START,    0.0, 0, 0, 0, 0 },
  { SLUICE_EVENT_QUEUE_PUT,    0.0, 1, 1, 2, 0 },
  { SLUICE_EVENT_QUEUE_GET,    1.0, 1, 2, 3, 0 },
  { SLUICE_EVENT_STOP_REQUEST, 2.0, 1, 2, 3, 0 },
  { SLUICE_EVENT_DRAIN,        2.0, 1, 2, 3, 0 },
  { SLUICE_EVENT_ITEM_OK,      3.0, 0, 1, 1, 0 },
  { SLUICE_EVENT_RUN_END,      3.5, 0, 0, 0, 0 },
};

/* The same counts, without the run-level events. */
static const Step unmarked_run[] = {
  { SLUICE_EVENT_RUN_START,    0.0, 0, 0, 0, 0 },
  { SLUICE_EVENT_QUEUE_PUT,    0.0, 1, 1, 2, 0 },
  { SLUICE_EVENT_QUEUE_GET,    1.0, 1, 2, 3, 0 },
  { SLUICE_EVENT_ITEM_OK,      3.0, 0, 1, 1, 0 },
  { SLUICE_EVENT_PULL,         3.5, 0, 0, 0, 0 },
};

/* Keep-going with a queue of 2 and 2 workers (bound 5): one item fails
 * for good at 1 s and stays in the lead, which then reaches 6 while the
 * pool keeps pulling; at 3 s a second one fails. */
static const Step failing_run[] = {
  { SLUICE_EVENT_RUN_START,   0.0, 0, 0, 0, 0 },
  { SLUICE_EVENT_QUEUE_PUT,   0.0, 2, 2, 5, 0 },
  { SLUICE_EVENT_ITEM_FAILED, 1.0, 2, 2, 5, 1 },
  { SLUICE_EVENT_PULL,        1.0, 2, 2, 6, 1 },
  { SLUICE_EVENT_ITEM_FAILED, 3.0, 1, 2, 6, 2 },
  { SLUICE_EVENT_ITEM_OK,     3.5, 0, 2, 5, 2 },
  { SLUICE_EVENT_RUN_END,     4.0, 0, 0, 2, 2 },
};

static SluiceTimeline *
timeline_of (const Step *steps,
             guint       n_steps)
{
  SluiceTimeline *model = sluice_timeline_new (2);

  add_steps (model, steps, n_steps);
  return model;
}

/* ---- pixels -------------------------------------------------------------- */

/* The pixels in a rectangle that are @color (within a tolerance). */
static guint
count_color (cairo_surface_t   *surface,
             const SluiceRect  *rect,
             const SluiceColor *color,
             double             tolerance)
{
  guint n = 0;

  for (double y = ceil (rect->y); y < rect->y + rect->height; y++)
    for (double x = ceil (rect->x); x < rect->x + rect->width; x++)
      {
        SluiceColor c;

        pixel_fixture_get (surface, x, y, &c);
        n += pixel_fixture_color_near (&c, color, tolerance);
      }
  return n;
}

/* The pixels in a rectangle that are not the background. */
static guint
count_ink (cairo_surface_t     *surface,
           const SluiceRect    *rect,
           const SluicePalette *palette)
{
  guint area = 0;

  for (double y = ceil (rect->y); y < rect->y + rect->height; y++)
    for (double x = ceil (rect->x); x < rect->x + rect->width; x++)
      area++;
  return area - count_color (surface, rect, &palette->background, 0.04);
}

/* The pixels in a rectangle where two pictures differ. */
static guint
count_changed (cairo_surface_t  *a,
               cairo_surface_t  *b,
               const SluiceRect *rect)
{
  guint n = 0;

  for (double y = ceil (rect->y); y < rect->y + rect->height; y++)
    for (double x = ceil (rect->x); x < rect->x + rect->width; x++)
      {
        SluiceColor ca, cb;

        pixel_fixture_get (a, x, y, &ca);
        pixel_fixture_get (b, x, y, &cb);
        n += !pixel_fixture_color_near (&ca, &cb, 0.1);
      }
  return n;
}

static cairo_surface_t *
draw_chart (SluiceTimeline *model,
            double          width,
            double          height,
            gint64          t1,
            guint           queue_capacity,
            guint           lead_bound,
            gboolean        dark,
            double          pointer_x)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);

  sluice_render_chart_with_pointer (cr, model, &(SluiceRenderFrame) { width, height, 0, t1, -1, dark },
                                    &(SluiceChartLimits) { queue_capacity, lead_bound }, pointer_x);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return surface;
}

static gboolean
rects_overlap (const SluiceRect *a,
               const SluiceRect *b)
{
  return a->width > 0. && b->width > 0. &&
         a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* ---- the run's moments on the time axis ---------------------------------- */

/* A stop request (with its drain at the same instant) and the end are
 * kept in the model as moments, and each has a triangle under the
 * baseline at its time and a label beside it in the axis' row; a chart
 * of the same counts without them has neither. */
static void
test_stop_request_is_marked (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = timeline_of (stopped_run, G_N_ELEMENTS (stopped_run));
  g_autoptr(SluiceTimeline) plain = timeline_of (unmarked_run, G_N_ELEMENTS (unmarked_run));
  g_autoptr(GArray) moments = NULL;
  double width = 640., height = 120.;
  cairo_surface_t *drawn, *unmarked;
  SluiceChartLayout chart;
  const SluiceChartMoment *stop, *end;
  double base;

  g_assert_cmpuint (sluice_timeline_get_n_moments (model), ==, 3);
  g_assert_cmpint (sluice_timeline_get_moment (model, 0)->kind, ==, SLUICE_TIMELINE_MOMENT_STOP_REQUEST);
  g_assert_cmpint (sluice_timeline_get_moment (model, 0)->time, ==, S (2));
  g_assert_cmpint (sluice_timeline_get_moment (model, 1)->kind, ==, SLUICE_TIMELINE_MOMENT_DRAIN);
  g_assert_cmpint (sluice_timeline_get_moment (model, 2)->kind, ==, SLUICE_TIMELINE_MOMENT_RUN_END);
  g_assert_cmpuint (sluice_timeline_get_n_moments (plain), ==, 0);

  _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 1, 4 }, &chart);
  moments = _sluice_chart_get_moments (model,
                                       &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                       &(SluiceChartLimits) { 1, 4 });
  /* The stop and its drain share a marker and a label. */
  g_assert_cmpuint (moments->len, ==, 2);
  stop = &g_array_index (moments, SluiceChartMoment, 0);
  end = &g_array_index (moments, SluiceChartMoment, 1);
  g_assert_cmpstr (stop->text, ==, "stop, drain");
  g_assert_cmpstr (end->text, ==, "end");
  g_assert_cmpfloat (fabs (stop->x - _sluice_render_time_to_x (&chart.plot, 0, S (4), S (2))), <, 0.01);

  drawn = draw_chart (model, width, height, S (4), 1, 4, dark, -1.);
  unmarked = draw_chart (plain, width, height, S (4), 1, 4, dark, -1.);
  sluice_test_save_png (drawn, dark ? "chart-moments-dark.png" : "chart-moments-light.png");

  base = round (chart.plot.y + chart.plot.height) + 1.;
  for (guint i = 0; i < moments->len; i++)
    {
      const SluiceChartMoment *m = &g_array_index (moments, SluiceChartMoment, i);
      SluiceRect tip = { round (m->x) - 1., base + 3., 3., 3. };
      SluiceColor c;

      /* The triangle, under the baseline, in the axis' row. */
      g_assert_cmpfloat (m->marker.y, >=, chart.plot.y + chart.plot.height);
      g_assert_cmpfloat (m->marker.y + m->marker.height, <=, height);
      g_assert_cmpuint (count_color (drawn, &tip, &palette->foreground, 0.1), >=, 6);
      g_assert_cmpuint (count_color (unmarked, &tip, &palette->foreground, 0.1), ==, 0);

      /* Its label: text, in the view, below the plot. */
      g_assert_cmpfloat (m->label.width, >, 0.);
      g_assert_cmpfloat (m->label.x, >=, 0.);
      g_assert_cmpfloat (m->label.x + m->label.width, <=, width);
      g_assert_cmpfloat (m->label.y, >=, chart.plot.y + chart.plot.height);
      g_assert_cmpfloat (m->label.y + m->label.height, <=, height + 0.01);
      g_assert_cmpuint (count_ink (drawn, &m->label, palette), >, 15);
      g_assert_cmpuint (count_ink (unmarked, &m->label, palette), <, count_ink (drawn, &m->label, palette));

      /* The dashed line up the plot at its time. */
      pixel_fixture_get (unmarked, round (m->x), chart.plot.y + 2., &c);
      g_assert_true (pixel_fixture_color_near (&c, &palette->background, 0.02) || pixel_fixture_color_near (&c, &palette->grid, 0.02));
    }
  g_assert_false (rects_overlap (&stop->label, &end->label));

  cairo_surface_destroy (drawn);
  cairo_surface_destroy (unmarked);
}

/* Moments close together each keep their marker; their labels never
 * overlap, the less important ones giving way (the end keeps its own). */
static void
test_close_moments_keep_their_markers (void)
{
  static const Step crowded[] = {
    { SLUICE_EVENT_RUN_START,         0.0,  0, 0, 0, 0 },
    { SLUICE_EVENT_QUEUE_PUT,         0.0,  1, 1, 2, 0 },
    { SLUICE_EVENT_STOP_REQUEST,      3.0,  1, 1, 2, 0 },
    { SLUICE_EVENT_DRAIN,             3.05, 1, 1, 2, 0 },
    { SLUICE_EVENT_SHUTDOWN_DEADLINE, 3.1,  1, 1, 2, 0 },
    { SLUICE_EVENT_CANCEL,            3.15, 1, 1, 2, 0 },
    { SLUICE_EVENT_RUN_END,           3.2,  0, 0, 0, 0 },
  };
  g_autoptr(SluiceTimeline) model = timeline_of (crowded, G_N_ELEMENTS (crowded));
  SluiceRenderFrame frame = { 400., 120., 0, S (4), -1, SLUICE_PALETTE_LIGHT };
  g_autoptr(GArray) moments = _sluice_chart_get_moments (model, &frame, &(SluiceChartLimits) { 1, 4 });
  gboolean end_labelled = FALSE;

  g_assert_cmpuint (moments->len, ==, 5);
  for (guint i = 0; i < moments->len; i++)
    {
      const SluiceChartMoment *a = &g_array_index (moments, SluiceChartMoment, i);

      g_assert_cmpfloat (a->marker.width, >, 0.);
      if (a->kind == SLUICE_TIMELINE_MOMENT_RUN_END)
        end_labelled = a->label.width > 0.;
      for (guint j = 0; j < moments->len; j++)
        {
          const SluiceChartMoment *b = &g_array_index (moments, SluiceChartMoment, j);

          if (i == j)
            continue;
          g_assert_false (rects_overlap (&a->label, &b->label));
          g_assert_false (rects_overlap (&a->label, &b->marker));
        }
    }
  g_assert_true (end_labelled);
}

/* The export draws the chart with its moments too. */
static void
test_export_has_moments (void)
{
  g_autoptr(SluiceTimeline) model = timeline_of (stopped_run, G_N_ELEMENTS (stopped_run));
  g_autoptr(SluiceTimeline) plain = timeline_of (unmarked_run, G_N_ELEMENTS (unmarked_run));
  const SluicePalette *palette = sluice_palette_get (FALSE);
  double width = 800., height = 400.;
  cairo_surface_t *surfaces[2];
  SluiceTimeline *models[2] = { model, plain };
  guint ink[2];

  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(GArray) moments = NULL;
      const SluiceChartMoment *stop;
      gint64 t0 = sluice_timeline_get_start_time (models[k]);
      gint64 t1 = sluice_timeline_get_end_time (models[k]);
      SluiceRenderFrame frame;
      double chart_height;
      cairo_t *cr;

      surfaces[k] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
      cr = cairo_create (surfaces[k]);
      sluice_render_run (cr, models[k], width, height, &(SluiceChartLimits) { 1, 4 }, FALSE);
      cairo_destroy (cr);

      /* Where the export puts the stop's marker: its chart spans the run
       * and a fortieth more, above the lanes, which take what they need. */
      chart_height = MAX (160., height - sluice_render_timeline_get_natural_height_for_width (model, width));
      frame = (SluiceRenderFrame) { width, chart_height, t0, t1 + (t1 - t0) / 40, -1, SLUICE_PALETTE_LIGHT };
      moments = _sluice_chart_get_moments (model, &frame, &(SluiceChartLimits) { 1, 4 });
      g_assert_cmpuint (moments->len, >=, 1);
      stop = &g_array_index (moments, SluiceChartMoment, 0);
      ink[k] = count_color (surfaces[k], &stop->marker, &palette->foreground, 0.1);
    }
  g_assert_cmpuint (ink[0], >, 6);
  g_assert_cmpuint (ink[1], ==, 0);
  cairo_surface_destroy (surfaces[0]);
  cairo_surface_destroy (surfaces[1]);
}

/* ---- the lead's failed items --------------------------------------------- */

/* The failed items stay in the lead: the model keeps their count from the
 * events, and the chart hatches that part of the lead, between the lead's
 * line and as many counts below it, with an entry in the legend that
 * says why the lead passes its bound. The same run with nothing
 * failed has no hatching there and no entry. */
static void
test_failed_items_are_drawn_apart (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = timeline_of (failing_run, G_N_ELEMENTS (failing_run));
  g_autoptr(SluiceTimeline) plain = sluice_timeline_new (2);
  /* Wide enough for the legend's entry on its one row. */
  double width = 900., height = 160.;
  SluiceChartLayout chart, plain_chart;
  SluiceChartLayout bound_chart;
  SluiceRect band;
  cairo_surface_t *drawn, *unfailed;
  Step unfailed_run[G_N_ELEMENTS (failing_run)];
  double x1, x3, y6, y5, area;

  memcpy (unfailed_run, failing_run, sizeof failing_run);
  for (guint i = 0; i < G_N_ELEMENTS (unfailed_run); i++)
    unfailed_run[i].failed = 0;
  add_steps (plain, unfailed_run, G_N_ELEMENTS (unfailed_run));

  g_assert_cmpuint (sluice_timeline_get_failed (model, sluice_timeline_find_sample (model, S (0.5))), ==, 0);
  g_assert_cmpuint (sluice_timeline_get_failed (model, sluice_timeline_find_sample (model, S (2))), ==, 1);
  g_assert_cmpuint (sluice_timeline_get_failed (model, sluice_timeline_find_sample (model, S (3.2))), ==, 2);
  g_assert_cmpint (_sluice_chart_find_failed (model, 0, S (4), 5), ==, SLUICE_CHART_FAILED_PAST_BOUND);
  g_assert_cmpint (_sluice_chart_find_failed (model, 0, S (0.5), 5), ==, SLUICE_CHART_FAILED_NONE);
  g_assert_cmpint (_sluice_chart_find_failed (plain, 0, S (4), 5), ==, SLUICE_CHART_FAILED_NONE);

  _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 2, 5 }, &chart);
  _sluice_chart_get_model_layout (plain, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 2, 5 }, &plain_chart);
  g_assert_cmpfloat (chart.legend[SLUICE_CHART_LEGEND_FAILED].width, >, 0.);
  g_assert_cmpfloat (plain_chart.legend[SLUICE_CHART_LEGEND_FAILED].width, ==, 0.);

  drawn = draw_chart (model, width, height, S (4), 2, 5, dark, -1.);
  sluice_test_save_png (drawn, dark ? "chart-failed-dark.png" : "chart-failed-light.png");
  cairo_surface_destroy (drawn);
  /* The pixels compared without the limits' labels, which differ; with
   * the legend of the failed run, so that the plots line up. */
  drawn = draw_chart (model, width, height, S (4), 0, 0, dark, -1.);
  _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 0, 0 }, &chart);
  _sluice_chart_get_model_layout (plain, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 0, 0 }, &plain_chart);
  g_assert_cmpfloat (chart.plot.y, ==, plain_chart.plot.y);
  unfailed = draw_chart (plain, width, height, S (4), 0, 0, dark, -1.);

  /* From 1 s to 3 s the lead is 6, one of them failed: the band lies
   * between 6 and 5, over the lower half of the lead's 6-pixel line
   * and under it, striped with the background. */
#define X(seconds) _sluice_render_time_to_x (&chart.plot, 0, S (4), S (seconds))
  x1 = X (1.2);
  x3 = X (2.8);
  y6 = _sluice_chart_count_to_y (&chart, 6.);
  y5 = _sluice_chart_count_to_y (&chart, 5.);
  g_assert_cmpfloat (y5 - y6, >=, 10.);
  band = (SluiceRect) { x1, y6 + 4., x3 - x1, y5 - y6 - 6. };
  area = band.width * band.height;
  g_assert_cmpuint (count_changed (drawn, unfailed, &band), >, area * 0.5);
  g_assert_cmpuint (count_ink (unfailed, &band, palette), <, area * 0.02);
  /* Striped: the background shows between the stripes. */
  g_assert_cmpuint (count_color (drawn, &band, &palette->background, 0.1), >, area * 0.05);
  g_assert_cmpuint (count_color (drawn, &band, &palette->background, 0.1), <, area * 0.5);
  /* Through the lead's line too: it is striped where one failed. */
  band = (SluiceRect) { x1, y6 + 0.5, x3 - x1, 2. };
  g_assert_cmpuint (count_changed (drawn, unfailed, &band), >, band.width * band.height * 0.1);
  /* Before the first failure, nothing of the lead at 5 changes. */
  band = (SluiceRect) { X (0.2), y5 - 3., X (0.8) - X (0.2), _sluice_chart_count_to_y (&chart, 4.) - y5 };
  g_assert_cmpuint (count_changed (drawn, unfailed, &band), ==, 0);
#undef X

  /* The legend's swatch is a piece of the band. */
  band = chart.legend[SLUICE_CHART_LEGEND_FAILED];
  band.width = 22.;
  g_assert_cmpuint (count_ink (drawn, &band, palette), >, 60);
  g_assert_cmpuint (count_ink (unfailed, &band, palette), ==, 0);

  /* With the bound drawn, the entry says why the lead is above it: a
   * longer line than the entry alone. */
  _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 2, 5 }, &bound_chart);
  g_assert_cmpfloat (bound_chart.legend[SLUICE_CHART_LEGEND_FAILED].width, >,
                     chart.legend[SLUICE_CHART_LEGEND_FAILED].width + 50.);
  g_assert_cmpstr (_sluice_chart_failed_label (SLUICE_CHART_FAILED_PAST_BOUND), ==,
                   "failed items stay in the lead: past its bound");

  cairo_surface_destroy (drawn);
  cairo_surface_destroy (unfailed);
}

/* The keep-going preset: its lead passes `q + w + 1` only by its failed
 * items, and the chart says so. */
static void
test_keep_going_preset (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("keep-going", &scenario);
  guint bound = sluice_scenario_get_queue_size (scenario) + sluice_scenario_get_workers (scenario) + 1;
  guint n = sluice_timeline_get_n_samples (model);
  gboolean passed = FALSE;

  for (guint i = 0; i < n; i++)
    {
      guint lead, failed = sluice_timeline_get_failed (model, i);

      sluice_timeline_get_sample (model, i, NULL, NULL, NULL, &lead);
      g_assert_cmpuint (failed, <=, lead);
      g_assert_cmpuint (lead - failed, <=, bound);
      passed |= lead > bound;
    }
  g_assert_true (passed);
  g_assert_cmpint (_sluice_chart_find_failed (model, 0, sluice_timeline_get_end_time (model), bound), ==,
                   SLUICE_CHART_FAILED_PAST_BOUND);
}

/* ---- the readout under the pointer --------------------------------------- */

/* The readout gives the sample in effect at a time (the last at or before
 * it), from the model alone; drawn with the pointer over the plot, the
 * chart has a guide line at the pointer and a box with that text; without
 * the pointer it has neither. */
static void
test_hover_readout (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = timeline_of (failing_run, G_N_ELEMENTS (failing_run));
  g_autofree char *at_2 = NULL;
  g_autofree char *at_0_5 = NULL;
  g_autofree char *before = NULL;
  double width = 640., height = 160.;
  SluiceTimelineValues v;
  SluiceChartLayout chart;
  SluiceRect box, no_box, guide;
  cairo_surface_t *hovered, *still;
  gint64 time;
  double x;

  g_assert_true (sluice_timeline_get_values_at (model, S (2), &v));
  g_assert_cmpuint (v.queued, ==, 2);
  g_assert_cmpuint (v.in_flight, ==, 2);
  g_assert_cmpuint (v.lead, ==, 6);
  g_assert_cmpuint (v.failed, ==, 1);
  g_assert_cmpint (v.tokens, ==, -1);
  /* Exactly at a sample's time, that sample. */
  g_assert_true (sluice_timeline_get_values_at (model, S (3), &v));
  g_assert_cmpuint (v.failed, ==, 2);
  g_assert_cmpuint (v.queued, ==, 1);
  g_assert_false (sluice_timeline_get_values_at (model, S (-1), &v));

  at_2 = sluice_render_chart_get_readout (model, S (2));
  g_assert_cmpstr (at_2, ==, "2.000 s · queued 2 · in flight 2 · lead 6, of which 1 failed · busy 0");
  at_0_5 = sluice_render_chart_get_readout (model, S (0.5));
  g_assert_cmpstr (at_0_5, ==, "0.500 s · queued 2 · in flight 2 · lead 5 · busy 0");
  before = sluice_render_chart_get_readout (model, S (-1));
  g_assert_null (before);

  /* The pointer's x gives the time under it, over the plot only. */
  _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 2, 5 }, &chart);
  x = round (_sluice_render_time_to_x (&chart.plot, 0, S (4), S (2)));
  g_assert_true (sluice_render_chart_pointer_to_time (width, 0, S (4), x, &time));
  g_assert_cmpint (llabs (time - S (2)), <, S (4) / chart.plot.width);
  g_assert_false (sluice_render_chart_pointer_to_time (width, 0, S (4), chart.plot.x - 5., &time));

  hovered = draw_chart (model, width, height, S (4), 2, 5, dark, x + 0.25);
  still = draw_chart (model, width, height, S (4), 2, 5, dark, -1.);
  sluice_test_save_png (hovered, dark ? "chart-readout-dark.png" : "chart-readout-light.png");

  box = _sluice_chart_get_readout_rect (model,
                                        &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                        &(SluiceChartLimits) { 2, 5 }, x + 0.25);
  no_box = _sluice_chart_get_readout_rect (model,
                                           &(SluiceRenderFrame) { width, height, 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                           &(SluiceChartLimits) { 2, 5 }, -1.);
  g_assert_cmpfloat (no_box.width, ==, 0.);
  g_assert_cmpfloat (box.width, >, 100.);
  /* On the legend's row, above the plot: it never covers a series. */
  g_assert_cmpfloat (box.x, >=, 0.);
  g_assert_cmpfloat (box.x + box.width, <=, chart.plot.x + chart.plot.width + 0.01);
  g_assert_cmpfloat (box.y + box.height, <=, chart.plot.y);
  g_assert_cmpuint (count_ink (hovered, &box, palette), >, 100);

  /* The guide line, where the lead's band is not. */
  guide = (SluiceRect) { x, _sluice_chart_count_to_y (&chart, 4.5), 1., 6. };
  g_assert_cmpuint (count_color (hovered, &guide, &palette->foreground, 0.05), ==, 6);
  g_assert_cmpuint (count_color (still, &guide, &palette->foreground, 0.05), ==, 0);

  cairo_surface_destroy (hovered);
  cairo_surface_destroy (still);

  /* At the app's size at 1024×768, the pointer near the right end: the
   * readout keeps the legend's one row, above the plot. */
  hovered = draw_chart (model, 624., 110., S (4), 2, 5, dark, 560.);
  sluice_test_save_png (hovered, dark ? "chart-readout-small-dark.png" : "chart-readout-small-light.png");
  _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { 624., 110., 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 2, 5 }, &chart);
  box = _sluice_chart_get_readout_rect (model,
                                        &(SluiceRenderFrame) { 624., 110., 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                        &(SluiceChartLimits) { 2, 5 }, 560.);
  g_assert_cmpfloat (box.width, >, 0.);
  g_assert_cmpfloat (box.height, <=, chart.legend_height);
  g_assert_cmpfloat (box.y + box.height, <=, chart.plot.y);
  cairo_surface_destroy (hovered);
}

/* With a retry budget, the readout gives its tokens too. */
static void
test_hover_readout_tokens (void)
{
  g_autoptr(SluiceTimeline) model = sluice_timeline_new (1);
  g_autofree char *text = NULL;
  SluiceEvent event = { .kind = SLUICE_EVENT_RUN_START, .item = -1, .worker = -1, .delay = -1, .tokens = 5000 };

  sluice_timeline_add_event (model, &event);
  event.kind = SLUICE_EVENT_RETRY;
  event.time = S (1);
  event.tokens = 3500;
  event.lead = 1;
  sluice_timeline_add_event (model, &event);

  text = sluice_render_chart_get_readout (model, S (1.5));
  g_assert_nonnull (strstr (text, "tokens 3.5"));
  g_free (text);
  text = sluice_render_chart_get_readout (model, S (0.5));
  g_assert_nonnull (strstr (text, "tokens 5"));
}

/* ---- labels that keep clear of each other -------------------------------- */

/* Every label of the chart (the limits', the budget's) is clear of the
 * others, of the legend's entries and of the moments' markers; or left
 * out when there is no room for it at all. Checked for every preset at
 * sizes the app gives the chart at 1024×768 (its sidebar open or not) and
 * in an export. */
static void
check_labels_clear (SluiceTimeline *model,
                    double          width,
                    double          height,
                    guint           capacity,
                    guint           bound,
                    const char     *what)
{
  gint64 end = sluice_timeline_get_end_time (model);
  SluiceRenderFrame frame = { width, height, 0, end, end, SLUICE_PALETTE_LIGHT };
  SluiceChartLimits limits = { capacity, bound };
  g_autoptr(GArray) moments = _sluice_chart_get_moments (model, &frame, &limits);
  SluiceChartLayout chart;
  SluiceRect rects[3];

  _sluice_chart_get_model_layout (model, &frame, &limits, &chart);
  _sluice_chart_get_labels (model, &frame, &limits, &rects[0], &rects[1], &rects[2]);
  for (guint i = 0; i < G_N_ELEMENTS (rects); i++)
    {
      for (guint j = i + 1; j < G_N_ELEMENTS (rects); j++)
        if (rects_overlap (&rects[i], &rects[j]))
          g_error ("%s: labels %u and %u overlap", what, i, j);
      for (guint s = 0; s < SLUICE_CHART_N_LEGEND; s++)
        if (rects_overlap (&rects[i], &chart.legend[s]))
          g_error ("%s: label %u covers legend entry %u", what, i, s);
      for (guint m = 0; m < moments->len; m++)
        if (rects_overlap (&rects[i], &g_array_index (moments, SluiceChartMoment, m).marker))
          g_error ("%s: label %u covers a moment's marker", what, i);
    }
}

static void
test_labels_do_not_overlap (void)
{
  static const char *presets[] = {
    "first-look", "mix", "retries", "keep-going", "stop-after", "late", "fail-always", "retry-budget",
    "shutdown-deadline", "ok",
  };
  static const double sizes[][2] = { { 624., 110. }, { 624., 86. }, { 930., 110. }, { 420., 100. }, { 1200., 160. } };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    {
      g_autofree char *file = g_strconcat (presets[p], ".pool", NULL);
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", file, NULL);
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(SluiceTimeline) model = NULL;
      guint capacity, bound;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      model = run_fixture_timeline_of (presets[p], &scenario);
      capacity = sluice_scenario_get_queue_size (scenario);
      bound = capacity + sluice_scenario_get_workers (scenario) + 1;
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          g_autofree char *what = g_strdup_printf ("%s at %.0f×%.0f", presets[p], sizes[s][0], sizes[s][1]);

          check_labels_clear (model, sizes[s][0], sizes[s][1], capacity, bound, what);
        }
    }
}

/* Two limit lines close together on a short chart, with series along
 * them: the labels go where the other is not, or one gives way, but never
 * one over the other or over the legend. */
static void
test_close_limit_labels (void)
{
  static const Step close_run[] = {
    { SLUICE_EVENT_RUN_START,  0.0, 0, 0, 0, 0 },
    { SLUICE_EVENT_QUEUE_PUT,  0.0, 4, 2, 7, 0 },
    { SLUICE_EVENT_ITEM_OK,    4.0, 4, 2, 7, 0 },
  };
  g_autoptr(SluiceTimeline) model = timeline_of (close_run, G_N_ELEMENTS (close_run));
  const double heights[] = { 70., 80., 86., 90., 100., 110. };
  const double widths[] = { 300., 420., 624. };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
      for (guint cap = 2; cap <= 5; cap++)
        {
          g_autofree char *what = g_strdup_printf ("capacity %u at %.0f×%.0f", cap, widths[w], heights[h]);

          check_labels_clear (model, widths[w], heights[h], cap, cap + 2, what);
        }
}

/* ---- the marked time (an event row clicked) ------------------------------ */

/* The column of the plot at @x has the selection's colour in at least
 * @share of its rows (the line is dashed), and the columns 6 px away none. */
static void
assert_marked_column (cairo_surface_t         *surface,
                      const cairo_rectangle_t *plot,
                      double                   x,
                      const SluiceColor       *color,
                      double                   share)
{
  SluiceRect column = { x - 1., plot->y, 2., plot->height };
  SluiceRect left = { x - 7., plot->y, 1., plot->height };
  guint rows = (guint) plot->height;

  g_assert_cmpuint (count_color (surface, &column, color, 0.1), >=, (guint) (rows * share));
  g_assert_cmpuint (count_color (surface, &left, color, 0.1), <, rows / 10);
}

static void
test_marked_time_is_drawn (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = timeline_of (stopped_run, G_N_ELEMENTS (stopped_run));
  gint64 t1 = sluice_timeline_get_end_time (model), mark = t1 / 2;
  cairo_rectangle_t chart_plot, lanes_plot;
  cairo_surface_t *surfaces[2];
  cairo_t *cr;
  double x;

  /* The chart, with the mark drawn over it as the chart view does. */
  surfaces[0] = draw_chart (model, 600, 240, t1, 2, 5, dark, -1.);
  sluice_render_chart_get_plot (model, &(SluiceRenderFrame) { 600, 240, 0, t1, -1, SLUICE_PALETTE_LIGHT },
                                &(SluiceChartLimits) { 2, 5 }, &chart_plot);
  cr = cairo_create (surfaces[0]);
  sluice_render_draw_playhead (cr, &chart_plot, 0, t1, mark, dark);
  cairo_destroy (cr);
  x = round (chart_plot.x + chart_plot.width * mark / t1);
  assert_marked_column (surfaces[0], &chart_plot, x, &palette->selection, 0.45);

  /* The lanes, the same way. */
  surfaces[1] = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 200);
  cr = cairo_create (surfaces[1]);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { 600, 200, 0, t1, -1, dark }, -1);
  sluice_render_timeline_get_plot (model, 600, 200, &lanes_plot);
  sluice_render_draw_playhead (cr, &lanes_plot, 0, t1, mark, dark);
  cairo_destroy (cr);
  x = round (lanes_plot.x + lanes_plot.width * mark / t1);
  assert_marked_column (surfaces[1], &lanes_plot, x, &palette->selection, 0.45);
  sluice_test_save_png (surfaces[1], dark ? "lanes-marked-dark.png" : "lanes-marked-light.png");

  /* Outside the span shown, or none: nothing is drawn. */
  {
    cairo_surface_t *plain = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 200);
    cairo_surface_t *outside = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 600, 200);
    SluiceRect whole = { 0, 0, 600, 200 };

    cr = cairo_create (plain);
    sluice_render_timeline (cr, model, &(SluiceRenderFrame) { 600, 200, 0, t1, -1, dark }, -1);
    cairo_destroy (cr);
    cr = cairo_create (outside);
    sluice_render_timeline (cr, model, &(SluiceRenderFrame) { 600, 200, 0, t1, -1, dark }, -1);
    sluice_render_draw_playhead (cr, &lanes_plot, 0, t1, t1 + 1, dark);
    sluice_render_draw_playhead (cr, &lanes_plot, 0, t1, -1, dark);
    cairo_destroy (cr);
    g_assert_cmpuint (count_changed (plain, outside, &whole), ==, 0);
    g_assert_cmpuint (count_changed (plain, surfaces[1], &whole), >, 0);
    cairo_surface_destroy (plain);
    cairo_surface_destroy (outside);
  }

  cairo_surface_destroy (surfaces[0]);
  cairo_surface_destroy (surfaces[1]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/render/chart/stop-request-is-marked-on-the-time-axis/light", GINT_TO_POINTER (FALSE),
                        test_stop_request_is_marked);
  g_test_add_data_func ("/render/chart/stop-request-is-marked-on-the-time-axis/dark", GINT_TO_POINTER (TRUE),
                        test_stop_request_is_marked);
  g_test_add_func ("/render/chart/close-moments-keep-their-markers-and-labels-do-not-overlap",
                   test_close_moments_keep_their_markers);
  g_test_add_func ("/render/chart/export-marks-the-moments", test_export_has_moments);
  g_test_add_data_func ("/render/chart/failed-items-are-drawn-apart-in-the-lead/light", GINT_TO_POINTER (FALSE),
                        test_failed_items_are_drawn_apart);
  g_test_add_data_func ("/render/chart/failed-items-are-drawn-apart-in-the-lead/dark", GINT_TO_POINTER (TRUE),
                        test_failed_items_are_drawn_apart);
  g_test_add_func ("/render/chart/keep-going-lead-passes-its-bound-by-failed-items-only", test_keep_going_preset);
  g_test_add_data_func ("/render/chart/hover-readout-gives-the-sample-values-at-a-time/light",
                        GINT_TO_POINTER (FALSE), test_hover_readout);
  g_test_add_data_func ("/render/chart/hover-readout-gives-the-sample-values-at-a-time/dark",
                        GINT_TO_POINTER (TRUE), test_hover_readout);
  g_test_add_func ("/render/chart/hover-readout-gives-the-budget-tokens", test_hover_readout_tokens);
  g_test_add_func ("/render/chart/capacity-and-lead-labels-do-not-overlap", test_labels_do_not_overlap);
  g_test_add_func ("/render/chart/close-limit-lines-labels-do-not-overlap", test_close_limit_labels);
  g_test_add_data_func ("/render/marked-time-is-a-dashed-line-over-chart-and-lanes/light", GINT_TO_POINTER (FALSE),
                        test_marked_time_is_drawn);
  g_test_add_data_func ("/render/marked-time-is-a-dashed-line-over-chart-and-lanes/dark", GINT_TO_POINTER (TRUE),
                        test_marked_time_is_drawn);

  return g_test_run ();
}
