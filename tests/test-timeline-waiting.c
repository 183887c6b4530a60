/* test-timeline-waiting.c: the results waiting for the caller, in the
 * timeline model and in the queue chart
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Only the input queue is bounded, so a slow caller lets results pile up
 * (the slow-caller lesson, docs/teaching.md). The model counts, per sample, the
 * item-ok events so far minus the result events so far, as the report's
 * max_buffered does; the chart draws that as its own line over a tint,
 * with a legend entry and a part of the readout, but only when more
 * results waited at once than the pool has workers, so that the charts of
 * runs whose caller keeps up look as they did. The runs are recorded on the
 * virtual clock; the slow-caller lesson's times are in its file: the
 * workers finish two items every 0.3 s up to 1.8 s, the caller reads at
 * 0.3 s and then every second, the last at 11.3 s.
 */

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "run-fixture.h"
#include "sluice-palette.h"
#include "sluice-render-chart.h"
#include "sluice-render-chart-private.h"
#include "sluice-scenario-runner.h"
#include "sluice-timeline.h"
#include "pixel-fixture.h"
#include "test-helpers.h"

#define S(seconds) sluice_time_from_seconds (seconds)

#define WIDTH  800.
#define HEIGHT 240.

/* ---- recorded runs --------------------------------------------------------- */

typedef struct {
  SluiceScenario *scenario;
  SluiceRecorder *recorder;
  SluiceTimeline *model;
  gint64          max_buffered;   /* the report's, or -1 when it has none */
} Run;

static void
run_clear (Run *run)
{
  g_clear_object (&run->scenario);
  g_clear_object (&run->recorder);
  g_clear_object (&run->model);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_clear)

/* Runs data/@folder/@name.pool on the virtual clock into a recorder, and
 * folds it into a model. */
static void
record (const char *folder,
        const char *name,
        Run        *run)
{
  g_autofree char *file = g_strconcat (name, ".pool", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", folder, file, NULL);
  const char *sets[] = { "run.clock=virtual", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(JsonNode) json = NULL;
  JsonObject *object;

  run->scenario = sluice_scenario_new_from_file (path, sets, &error);
  g_assert_no_error (error);
  run->recorder = sluice_recorder_new (0);
  runner = sluice_scenario_runner_new (run->scenario);
  sluice_scenario_runner_set_recorder (runner, run->recorder);
  report = sluice_scenario_runner_run (runner, &error);
  g_assert_no_error (error);

  json = sluice_report_to_json (report);
  object = json_node_get_object (json);
  run->max_buffered = json_object_has_member (object, "max_buffered")
                        ? json_object_get_int_member (object, "max_buffered") : -1;

  run->model = sluice_timeline_new (sluice_scenario_get_workers (run->scenario));
  sluice_timeline_update (run->model, run->recorder);
}

static guint
waiting_at (SluiceTimeline *model,
            double          seconds)
{
  SluiceTimelineValues v;

  g_assert_true (sluice_timeline_get_values_at (model, S (seconds), &v));
  return v.waiting;
}

static guint
count_events (SluiceRecorder  *recorder,
              SluiceEventKind  kind)
{
  guint n = 0;

  for (guint i = 0; i < sluice_recorder_get_n_events (recorder); i++)
    n += sluice_recorder_get_event (recorder, i)->kind == kind;
  return n;
}

/* ---- the model ------------------------------------------------------------- */

/* Every sample's waiting is the item-ok events minus the result events up
 * to and with its instant, counted here from the recorder itself. */
static void
assert_waiting_is_ok_minus_results (SluiceTimeline *model,
                                    SluiceRecorder *recorder)
{
  guint n = sluice_recorder_get_n_events (recorder);
  guint next = 0;
  gint ok = 0, results = 0;

  for (guint i = 0; i < sluice_timeline_get_n_samples (model); i++)
    {
      gint64 time, until = G_MAXINT64;

      sluice_timeline_get_sample (model, i, &time, NULL, NULL, NULL);
      if (i + 1 < sluice_timeline_get_n_samples (model))
        sluice_timeline_get_sample (model, i + 1, &until, NULL, NULL, NULL);
      for (; next < n && sluice_recorder_get_event (recorder, next)->time < until; next++)
        {
          const SluiceEvent *event = sluice_recorder_get_event (recorder, next);

          ok += event->kind == SLUICE_EVENT_ITEM_OK;
          results += event->kind == SLUICE_EVENT_RESULT;
        }
      g_assert_cmpint (sluice_timeline_get_waiting (model, i), ==, MAX (ok - results, 0));
    }
}

/* The slow caller: 1 after the first read at 0.3 s, 2 more every 0.3 s
 * and one fewer at 1.3 s, 10 when the pool ends at 1.8 s, then one fewer
 * with each read until the last at 11.3 s leaves none. The most at once is
 * the report's max_buffered. */
static void
test_slow_caller_results_pile_up (void)
{
  g_auto (Run) run = { NULL };

  record ("lessons", "slow-caller", &run);

  g_assert_cmpuint (count_events (run.recorder, SLUICE_EVENT_ITEM_OK), ==, 12);
  g_assert_cmpuint (count_events (run.recorder, SLUICE_EVENT_RESULT), ==, 12);
  assert_waiting_is_ok_minus_results (run.model, run.recorder);

  g_assert_cmpuint (waiting_at (run.model, 0.0), ==, 0);
  g_assert_cmpuint (waiting_at (run.model, 0.3), ==, 1);
  g_assert_cmpuint (waiting_at (run.model, 0.6), ==, 3);
  g_assert_cmpuint (waiting_at (run.model, 1.2), ==, 7);
  g_assert_cmpuint (waiting_at (run.model, 1.3), ==, 6);
  g_assert_cmpuint (waiting_at (run.model, 1.79), ==, 8);
  g_assert_cmpuint (waiting_at (run.model, 1.8), ==, 10);
  g_assert_cmpuint (waiting_at (run.model, 2.29), ==, 10);
  g_assert_cmpuint (waiting_at (run.model, 2.3), ==, 9);
  g_assert_cmpuint (waiting_at (run.model, 10.5), ==, 1);
  g_assert_cmpuint (waiting_at (run.model, 11.3), ==, 0);

  /* The pool's counts are all 0 from 1.8 s while the results wait. */
  {
    SluiceTimelineValues v;

    g_assert_true (sluice_timeline_get_values_at (run.model, S (5), &v));
    g_assert_cmpuint (v.queued + v.in_flight + v.lead + v.busy, ==, 0);
    g_assert_cmpuint (v.waiting, ==, 7);
  }

  g_assert_cmpint (sluice_timeline_get_end_time (run.model), ==, S (11.3));
  g_assert_cmpuint (sluice_timeline_get_waiting (run.model, sluice_timeline_get_n_samples (run.model) - 1), ==, 0);
  g_assert_cmpuint (sluice_timeline_get_max_waiting (run.model), ==, 10);
  g_assert_cmpint (run.max_buffered, ==, 10);
}

/* Fed one event at a time, the model's most waiting is that of the
 * samples so far, including the last while its instant may still change;
 * a cleared model has none. */
static void
test_max_waiting_is_kept_as_events_come (void)
{
  g_auto (Run) run = { NULL };
  g_autoptr(SluiceTimeline) model = NULL;
  guint top = 0;

  record ("lessons", "slow-caller", &run);
  model = sluice_timeline_new (2);
  for (guint i = 0; i < sluice_recorder_get_n_events (run.recorder); i++)
    {
      guint n;

      sluice_timeline_add_event (model, sluice_recorder_get_event (run.recorder, i));
      n = sluice_timeline_get_n_samples (model);
      top = 0;
      for (guint s = 0; s < n; s++)
        top = MAX (top, sluice_timeline_get_waiting (model, s));
      g_assert_cmpuint (sluice_timeline_get_max_waiting (model), ==, top);
    }
  g_assert_cmpuint (top, ==, 10);

  sluice_timeline_clear (model);
  g_assert_cmpuint (sluice_timeline_get_max_waiting (model), ==, 0);
}

/* A service run's jobs give their results to their submitters: its events
 * have item-ok but no result events, and nothing waits for a caller. */
static void
test_service_run_has_none (void)
{
  g_auto (Run) run = { NULL };
  gint64 end;

  record ("presets", "service-ten-images", &run);
  end = sluice_timeline_get_end_time (run.model);

  g_assert_cmpuint (count_events (run.recorder, SLUICE_EVENT_ITEM_OK), >, 0);
  g_assert_cmpuint (count_events (run.recorder, SLUICE_EVENT_RESULT), ==, 0);
  g_assert_cmpint (run.max_buffered, ==, -1);
  g_assert_cmpuint (sluice_timeline_get_max_waiting (run.model), ==, 0);
  g_assert_cmpuint (waiting_at (run.model, end / 1e6), ==, 0);
  for (guint i = 0; i < sluice_timeline_get_n_samples (run.model); i++)
    g_assert_cmpuint (sluice_timeline_get_waiting (run.model, i), ==, 0);
  g_assert_false (_sluice_chart_shows_waiting (run.model));
}

/* ---- the chart ------------------------------------------------------------- */

static cairo_surface_t *
draw (SluiceTimeline     *model,
      SluicePaletteFlags  flags,
      double              pointer_x)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) WIDTH, (int) HEIGHT);
  cairo_t *cr = cairo_create (surface);
  SluiceRenderFrame frame = { WIDTH, HEIGHT, 0, sluice_timeline_get_end_time (model), -1, flags };
  SluiceChartLimits limits = sluice_render_chart_get_limits (model);

  sluice_render_chart_with_pointer (cr, model, &frame, &limits, pointer_x);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* What a grayscale conversion keeps of a colour (Rec. 601 luma). */
static double
gray_of (const SluiceColor *color)
{
  return 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue;
}

/* The pixels of @color in a band of rows around @y, from @x0 to @x1. */
static guint
count_color (cairo_surface_t   *surface,
             double             x0,
             double             x1,
             double             y,
             double             half,
             const SluiceColor *color)
{
  guint n = 0;

  for (double py = floor (y - half); py <= y + half; py++)
    for (double px = ceil (x0); px < x1; px++)
      {
        SluiceColor c;

        pixel_fixture_get (surface, px, py, &c);
        n += pixel_fixture_color_near (&c, color, 0.08);
      }
  return n;
}

/* The slow caller's chart has the results waiting's legend entry and a
 * scale up to 10 of them and one more, above the lead bound of 6; the
 * line is at 10 from 1.8 s to 2.3 s in its colour, at 1 before 11.3 s,
 * and the readout says how many wait. */
static void
test_slow_caller_chart_shows_them (gconstpointer data)
{
  SluicePaletteFlags flags = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (flags);
  g_auto (Run) run = { NULL };
  g_autofree char *name = g_strdup_printf ("chart-waiting-%d.png", flags);
  g_autofree char *at_2 = NULL;
  g_autofree char *at_0_1 = NULL;
  SluiceChartLayout chart;
  cairo_surface_t *surface;
  gint64 end;
  double y10, y1;

  record ("lessons", "slow-caller", &run);
  end = sluice_timeline_get_end_time (run.model);
  g_assert_true (_sluice_chart_shows_waiting (run.model));

  _sluice_chart_get_model_layout (run.model, &(SluiceRenderFrame) { WIDTH, HEIGHT, 0, end, -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 3, 6 }, &chart);
  g_assert_cmpuint (sluice_timeline_get_lead_bound (run.model), ==, 6);
  g_assert_cmpuint (chart.y_max, ==, 11);
  g_assert_cmpfloat (chart.legend[SLUICE_CHART_SERIES_WAITING].width, >, 0.);
  g_assert_cmpfloat (chart.legend[SLUICE_CHART_SERIES_BUDGET].width, ==, 0.);
  for (guint s = 0; s < SLUICE_CHART_N_SERIES; s++)
    g_assert_cmpfloat (chart.legend[s].width, >, 0.);

  surface = draw (run.model, flags, -1.);
  sluice_test_save_png (surface, name);
#define CHART_X(seconds) _sluice_render_time_to_x (&chart.plot, 0, end, S (seconds))
  y10 = _sluice_chart_count_to_y (&chart, 10.);
  y1 = _sluice_chart_count_to_y (&chart, 1.);
  /* Long dashes: most of a span of half a second is the line's colour. */
  g_assert_cmpuint (count_color (surface, CHART_X (1.85), CHART_X (2.25), y10, 1., &palette->waiting), >,
                    (CHART_X (2.25) - CHART_X (1.85)) * 0.5);
  g_assert_cmpuint (count_color (surface, CHART_X (10.4), CHART_X (11.2), y1, 1., &palette->waiting), >,
                    (CHART_X (11.2) - CHART_X (10.4)) * 0.5);
  /* Not at 10 after the next read. */
  g_assert_cmpuint (count_color (surface, CHART_X (2.4), CHART_X (3.2), y10, 1., &palette->waiting), ==, 0);
#undef CHART_X
  /* Its legend swatch. */
  g_assert_cmpuint (count_color (surface, chart.legend[SLUICE_CHART_SERIES_WAITING].x,
                                 chart.legend[SLUICE_CHART_SERIES_WAITING].x + 22.,
                                 chart.legend[SLUICE_CHART_SERIES_WAITING].y +
                                   chart.legend[SLUICE_CHART_SERIES_WAITING].height / 2.,
                                 2., &palette->waiting), >, 10);
  cairo_surface_destroy (surface);

  at_2 = sluice_render_chart_get_readout (run.model, S (2));
  g_assert_cmpstr (at_2, ==, "2.000 s · queued 0 · in flight 0 · lead 0 · busy 0 · waiting 10");
  at_0_1 = sluice_render_chart_get_readout (run.model, S (0.1));
  g_assert_nonnull (strstr (at_0_1, " · waiting 0"));
}

static gboolean
rects_overlap (const SluiceRect *a,
               const SluiceRect *b)
{
  return a->width > 0. && b->width > 0. && a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

/* At the sizes the app gives the chart at 1024×768 (its sidebar open or
 * not, and in projector mode, laid out 1.6 times smaller), the slow
 * caller's legend shows every count and the results waiting, its entries
 * apart and inside the view, and the limits' labels clear of them. */
static void
test_slow_caller_legend_fits (void)
{
  static const double sizes[][2] = {
    { 624., 110. }, { 624., 86. }, { 930., 110. }, { 400., 110. }, { 1000. / 1.6, 200. / 1.6 },
  };
  g_auto (Run) run = { NULL };
  gint64 end;

  record ("lessons", "slow-caller", &run);
  end = sluice_timeline_get_end_time (run.model);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      SluiceRenderFrame frame = { sizes[i][0], sizes[i][1], 0, end, end, SLUICE_PALETTE_LIGHT };
      SluiceChartLimits limits = { 3, 6 };
      SluiceChartLayout chart;
      SluiceRect labels[3];

      _sluice_chart_get_model_layout (run.model, &frame, &limits, &chart);
      _sluice_chart_get_labels (run.model, &frame, &limits, &labels[0], &labels[1], &labels[2]);
      for (guint a = 0; a < SLUICE_CHART_N_LEGEND; a++)
        {
          if (a < SLUICE_CHART_N_SERIES || a == SLUICE_CHART_SERIES_WAITING)
            g_assert_cmpfloat (chart.legend[a].width, >, 0.);
          g_assert_cmpfloat (chart.legend[a].x + chart.legend[a].width, <=, sizes[i][0] + 0.001);
          for (guint b = a + 1; b < SLUICE_CHART_N_LEGEND; b++)
            if (rects_overlap (&chart.legend[a], &chart.legend[b]))
              g_error ("at %.0f×%.0f legend entries %u and %u overlap", sizes[i][0], sizes[i][1], a, b);
          for (guint l = 0; l < G_N_ELEMENTS (labels); l++)
            if (rects_overlap (&chart.legend[a], &labels[l]))
              g_error ("at %.0f×%.0f label %u covers legend entry %u", sizes[i][0], sizes[i][1], l, a);
        }
    }
}

/* In grayscale, in every palette, the pile shows: after the pool's end
 * every other line lies on the baseline, and the tint under the waiting
 * line stands off the background, while above the line is background. */
static void
test_pile_shows_in_grayscale (gconstpointer data)
{
  SluicePaletteFlags flags = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (flags);
  g_auto (Run) run = { NULL };
  SluiceChartLayout chart;
  cairo_surface_t *surface;
  double background = gray_of (&palette->background);
  gint64 end;

  record ("lessons", "slow-caller", &run);
  end = sluice_timeline_get_end_time (run.model);
  _sluice_chart_get_model_layout (run.model, &(SluiceRenderFrame) { WIDTH, HEIGHT, 0, end, -1, SLUICE_PALETTE_LIGHT },
                                  &(SluiceChartLimits) { 3, 6 }, &chart);
  surface = draw (run.model, flags, -1.);

  /* From 4.4 s to 5.2 s, 7 wait: the middle of the pile, and above it,
   * clear of the limit lines (3, 6) and the grid (every 2). */
  for (double t = 4.4; t < 5.2; t += 0.2)
    {
      double x = _sluice_render_time_to_x (&chart.plot, 0, end, S (t));
      SluiceColor under, over;

      pixel_fixture_get (surface, x, _sluice_chart_count_to_y (&chart, 4.5), &under);
      pixel_fixture_get (surface, x, _sluice_chart_count_to_y (&chart, 9.), &over);
      if (fabs (gray_of (&under) - background) < 0.03)
        g_error ("at %.1f s the pile is %.3f in grey, the background %.3f", t, gray_of (&under), background);
      g_assert_cmpfloat (fabs (gray_of (&over) - background), <, 0.01);
    }
  cairo_surface_destroy (surface);
}

/* The waiting line's colour keeps its promises in all four palettes: 3:1
 * on the background (4.5:1 in high contrast, as its other lines), and a
 * hue apart from every other series, in colour (its grey level may match
 * one; its long dashes and tint tell it apart there). */
static void
test_palettes_have_a_waiting_colour (void)
{
  for (SluicePaletteFlags flags = 0; flags <= (SLUICE_PALETTE_DARK | SLUICE_PALETTE_HIGH_CONTRAST); flags++)
    {
      const SluicePalette *palette = sluice_palette_get (flags);
      const SluiceColor *others[] = {
        &palette->queue, &palette->in_flight, &palette->lead, &palette->busy, &palette->budget,
        &palette->capacity, &palette->bound,
      };
      double needed = flags & SLUICE_PALETTE_HIGH_CONTRAST ? 4.5 : 3.;

      g_assert_cmpfloat (palette->waiting.alpha, ==, 1.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->waiting, &palette->background), >=, needed);
      for (guint i = 0; i < G_N_ELEMENTS (others); i++)
        if (pixel_fixture_color_near (&palette->waiting, others[i], 0.15))
          g_error ("palette %d: the waiting colour is too near series colour %u", flags, i);
    }
}

/* Presets and lessons whose caller keeps up draw their charts as before:
 * no waiting line, legend entry or readout part; among them ok, whose
 * legend has its four counts only. */
static void
test_callers_that_keep_up_show_none (void)
{
  const char * const folders[] = { "presets", "lessons" };

  for (guint f = 0; f < G_N_ELEMENTS (folders); f++)
    {
      g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", folders[f], NULL);
      g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
      const char *file;

      g_assert_nonnull (folder);
      while ((file = g_dir_read_name (folder)) != NULL)
        {
          g_autofree char *name = NULL;
          g_autofree char *path = NULL;
          g_autoptr(SluiceScenario) probe = NULL;
          g_auto (Run) run = { NULL };

          if (!g_str_has_suffix (file, ".pool") || g_str_equal (file, "slow-caller.pool"))
            continue;
          name = g_strndup (file, strlen (file) - strlen (".pool"));
          path = g_build_filename (dir, file, NULL);
          probe = sluice_scenario_new_from_file (path, NULL, NULL);
          /* A handler that blocks the loop or runs a thread cannot run on
           * the virtual clock. */
          if (probe == NULL || sluice_scenario_needs_real_time (probe))
            continue;

          record (folders[f], name, &run);
          g_test_message ("%s/%s: at most %u waiting, %u workers", folders[f], name,
                          sluice_timeline_get_max_waiting (run.model), sluice_timeline_get_n_workers (run.model));
          if (_sluice_chart_shows_waiting (run.model))
            g_error ("%s/%s: %u results waited at once, with %u workers", folders[f], name,
                     sluice_timeline_get_max_waiting (run.model), sluice_timeline_get_n_workers (run.model));
        }
    }

  {
    g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("ok", NULL);
    gint64 end = sluice_timeline_get_end_time (model);
    g_autofree char *readout = sluice_render_chart_get_readout (model, end / 2);
    SluiceChartLimits limits = sluice_render_chart_get_limits (model);
    SluiceChartLayout chart;

    _sluice_chart_get_model_layout (model, &(SluiceRenderFrame) { WIDTH, HEIGHT, 0, end, -1, SLUICE_PALETTE_LIGHT },
                                    &limits, &chart);
    g_assert_cmpfloat (chart.legend[SLUICE_CHART_SERIES_WAITING].width, ==, 0.);
    for (guint s = SLUICE_CHART_N_SERIES; s < SLUICE_CHART_N_LEGEND; s++)
      g_assert_cmpfloat (chart.legend[s].width, ==, 0.);
    g_assert_cmpuint (chart.y_max, ==, sluice_timeline_get_lead_bound (model) + 1);
    g_assert_null (strstr (readout, "waiting"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/timeline/waiting/slow-caller-results-pile-up-until-the-caller-reads-them",
                   test_slow_caller_results_pile_up);
  g_test_add_func ("/timeline/waiting/most-waiting-is-kept-as-events-come", test_max_waiting_is_kept_as_events_come);
  g_test_add_func ("/timeline/waiting/service-run-has-no-results-waiting", test_service_run_has_none);
  g_test_add_data_func ("/render/chart/waiting/slow-caller-chart-has-line-legend-scale-and-readout/light",
                        GINT_TO_POINTER (SLUICE_PALETTE_LIGHT), test_slow_caller_chart_shows_them);
  g_test_add_data_func ("/render/chart/waiting/slow-caller-chart-has-line-legend-scale-and-readout/dark",
                        GINT_TO_POINTER (SLUICE_PALETTE_DARK), test_slow_caller_chart_shows_them);
  g_test_add_data_func ("/render/chart/waiting/slow-caller-chart-has-line-legend-scale-and-readout/high-contrast",
                        GINT_TO_POINTER (SLUICE_PALETTE_HIGH_CONTRAST), test_slow_caller_chart_shows_them);
  g_test_add_data_func ("/render/chart/waiting/slow-caller-chart-has-line-legend-scale-and-readout/high-contrast-dark",
                        GINT_TO_POINTER (SLUICE_PALETTE_HIGH_CONTRAST | SLUICE_PALETTE_DARK),
                        test_slow_caller_chart_shows_them);
  g_test_add_func ("/render/chart/waiting/slow-caller-legend-fits-the-app-and-a-projector",
                   test_slow_caller_legend_fits);
  for (SluicePaletteFlags flags = 0; flags <= (SLUICE_PALETTE_DARK | SLUICE_PALETTE_HIGH_CONTRAST); flags++)
    {
      g_autofree char *path = g_strdup_printf ("/render/chart/waiting/pile-shows-in-grayscale/%s%s",
                                               flags & SLUICE_PALETTE_HIGH_CONTRAST ? "high-contrast-" : "",
                                               flags & SLUICE_PALETTE_DARK ? "dark" : "light");

      g_test_add_data_func (path, GINT_TO_POINTER (flags), test_pile_shows_in_grayscale);
    }
  g_test_add_func ("/render/palette/every-palette-has-a-waiting-colour", test_palettes_have_a_waiting_colour);
  g_test_add_func ("/render/chart/waiting/callers-that-keep-up-show-none", test_callers_that_keep_up_show_none);

  return g_test_run ();
}
