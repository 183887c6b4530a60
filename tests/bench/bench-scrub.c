/* bench-scrub.c: scrubbing a recorded run, headless (issue 13)
 *
 *   scrub  a generated run (SCRUB_SCENARIO: 16 workers, a mix of quick
 *          successes, retried failures, failures for good and hangs cut by
 *          their timeout, keep-going, virtual clock) of about 100,000
 *          events and one of about 1,000, the same per playhead move:
 *          - SluiceFold: drags (moves of 1% of the run, end to start and
 *            back) and jumps (to random times), per move and per event
 *            moved over;
 *          - SluiceNarrator: a narration at a random time;
 *          - rendering the chart, the lanes and the playhead layer into a
 *            1000×500 image surface (the chart 1000×250 over the lanes
 *            1000×250) at a random playhead, the whole run in view (as
 *            after a run) and zoomed to 5% of it around the playhead.
 *          The targets: per event moved and per narration, the 100k run
 *          costs at most 2× the 1k run (the cost of a frame does not grow
 *          with the run); the render ratio is reported.
 *
 * Rounds alternate the two runs, each measurement a time budget; each
 * ratio is taken within a round, and the median of the rounds reported
 * with their spread (min-max).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <string.h>

#include "sluice-fold.h"
#include "sluice-narrator.h"
#include "sluice-render-chart.h"
#include "sluice-render-playhead.h"
#include "sluice-render-timeline.h"
#include "sluice-scenario-runner.h"

/* 7.3 events per item in this scenario. */
#define SCRUB_BIG_ITEMS   13700
#define SCRUB_SMALL_ITEMS 137
#define SCRUB_WIDTH       1000
#define SCRUB_HEIGHT      500
#define SCRUB_BUDGET      0.15   /* seconds per measurement and round */

/* Also what bench-app.c plays in the window (bench_scrub_scenario). */
static const char scrub_scenario[] =
  "[scenario]\n"
  "title=Benchmark: scrubbing\n"
  "description=A generated run for scrubbing: quick successes, retried failures, failures for good "
  "and hangs cut by their timeout, on the virtual clock.\n"
  "[pool]\n"
  "workers=16\n"
  "queue-size=16\n"
  "item-timeout=0.5\n"
  "max-retries=1\n"
  "retryable=ConnectionError\n"
  "keep-going=true\n"
  "[source]\n"
  "count=%" G_GINT64_FORMAT "\n"
  "[handler]\n"
  "mix=83%% ok 0.05, 12%% fail 1 ConnectionError 0.01, 3%% fail-always ValueError 0.02, 2%% hang\n"
  "seed=7\n"
  "[run]\n"
  "clock=virtual\n";

char *
bench_scrub_scenario (gint64 items)
{
  return g_strdup_printf (scrub_scenario, items);
}

gint64
bench_scrub_big_items (void)
{
  return SCRUB_BIG_ITEMS;
}

typedef struct {
  SluiceRecorder *recorder;
  SluiceTimeline *timeline;
  SluiceNarrator *narrator;
  guint64         n_events;
  gint64          start, end;
  gint64          source_end;   /* the source's end: items flow before, the pool drains after */
  double          record_s, index_s;
} ScrubRun;

static void
scrub_run_init (ScrubRun *run,
                gint64    items)
{
  g_autofree char *text = bench_scrub_scenario (items);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  double t0;

  scenario = sluice_scenario_new_from_data (text, -1, "bench-scrub", NULL, &error);
  if (scenario == NULL)
    g_error ("the scrubbing scenario: %s", error->message);
  runner = sluice_scenario_runner_new (scenario);
  run->recorder = sluice_recorder_new (0);
  sluice_scenario_runner_set_recorder (runner, run->recorder);
  t0 = wall_now ();
  report = sluice_scenario_runner_run (runner, &error);
  if (report == NULL)
    g_error ("the scrubbing run: %s", error->message);
  run->record_s = wall_now () - t0;

  /* What the app does once: the timeline and the narrator's index. */
  t0 = wall_now ();
  run->timeline = sluice_timeline_new ((guint) sluice_scenario_get_workers (scenario));
  sluice_timeline_update (run->timeline, run->recorder);
  run->narrator = sluice_narrator_new (run->recorder, run->timeline);
  first = sluice_narrator_narrate (run->narrator, 0);
  run->index_s = wall_now () - t0;

  run->n_events = sluice_recorder_get_n_events (run->recorder);
  run->start = sluice_recorder_get_event (run->recorder, 0)->time;
  run->end = MAX (sluice_recorder_get_event (run->recorder, (guint) run->n_events - 1)->time,
                  sluice_timeline_get_end_time (run->timeline));
  run->source_end = run->end;
  for (guint i = 0; i < run->n_events; i++)
    if (sluice_recorder_get_event (run->recorder, i)->kind == SLUICE_EVENT_SOURCE_END)
      {
        run->source_end = sluice_recorder_get_event (run->recorder, i)->time;
        break;
      }
}

static void
scrub_run_clear (ScrubRun *run)
{
  g_clear_object (&run->narrator);
  g_clear_object (&run->timeline);
  g_clear_object (&run->recorder);
}

static gint64
random_time (const ScrubRun *run,
             GRand          *rand)
{
  return run->start + (gint64) (g_rand_double (rand) * (double) (run->end - run->start));
}

/* One figure of one round: seconds per move, per event moved over, and
 * characters per narration. */
typedef struct {
  double per_move;
  double per_event;
  double chars;
} Figure;

/* Seeks @fold to @time: how many events it moved over. */
static guint64
seek_counting (SluiceFold *fold,
               gint64      time)
{
  guint64 before = sluice_fold_get_position (fold);
  guint64 after;

  sluice_fold_seek_time (fold, time);
  after = sluice_fold_get_position (fold);
  return before > after ? before - after : after - before;
}

/* Drags: the playhead from the end to the start in 1% steps and back,
 * as many sweeps as the budget holds. */
static Figure
measure_drag (const ScrubRun *run)
{
  g_autoptr(SluiceFold) fold = sluice_fold_new (run->recorder);
  guint64 moves = 0, moved = 0;
  double t0, elapsed;

  sluice_fold_seek_end (fold);
  t0 = wall_now ();
  do
    for (int i = 199; i >= 0; i--)
      {
        int step = i >= 100 ? i - 100 : 100 - i;   /* 99 ... 0, then 0 ... 100 */

        moved += seek_counting (fold, run->start + (run->end - run->start) * step / 100);
        moves++;
      }
  while ((elapsed = wall_now () - t0) < SCRUB_BUDGET);
  return (Figure) { elapsed / moves, elapsed / MAX (moved, 1) };
}

static Figure
measure_jump (const ScrubRun *run,
              GRand          *rand)
{
  g_autoptr(SluiceFold) fold = sluice_fold_new (run->recorder);
  guint64 moves = 0, moved = 0;
  double t0, elapsed;

  t0 = wall_now ();
  do
    for (int i = 0; i < 50; i++)
      {
        moved += seek_counting (fold, random_time (run, rand));
        moves++;
      }
  while ((elapsed = wall_now () - t0) < SCRUB_BUDGET);
  return (Figure) { elapsed / moves, elapsed / MAX (moved, 1) };
}

/* At random times (jumps), or along a drag in 1% steps (each frame of a
 * drag narrates near the last one); while the items flow, before the
 * source ends (@flowing), or over the whole run. A narration's cost is
 * mostly its sentences: the 1k run spends half its time draining, with
 * idle workers and less to say, so the ratio that tells whether the cost
 * grows with the run compares moments of the same kind. */
static Figure
measure_narrate (const ScrubRun *run,
                 GRand          *rand,
                 gboolean        drag,
                 gboolean        flowing)
{
  guint64 calls = 0, chars = 0;
  double t0, elapsed;
  gint64 end = flowing ? run->source_end : run->end;
  gint64 span = MAX (end - run->start, 1);
  gint64 t = run->start + (gint64) (g_rand_double (rand) * (double) span);

  t0 = wall_now ();
  do
    for (int i = 0; i < 20; i++, calls++)
      {
        char *text;

        if (drag)
          t = run->start + (t - run->start + span / 100) % span;
        else
          t = run->start + (gint64) (g_rand_double (rand) * (double) span);
        text = sluice_narrator_narrate (run->narrator, t);
        chars += strlen (text);
        g_free (text);
      }
  while ((elapsed = wall_now () - t0) < SCRUB_BUDGET);
  return (Figure) { elapsed / calls, 0., (double) chars / calls };
}

/* The chart over the lanes, each with the playhead, as the window draws
 * them at a move of the playhead. */
static void
render_frame (const ScrubRun  *run,
              cairo_surface_t *surface,
              gint64           t0,
              gint64           t1,
              gint64           playhead)
{
  cairo_t *cr = cairo_create (surface);
  SluiceTimeline *model = run->timeline;
  double w = SCRUB_WIDTH, h = SCRUB_HEIGHT / 2.;
  guint capacity = sluice_timeline_get_queue_capacity (model);
  guint bound = sluice_timeline_get_lead_bound (model);
  cairo_rectangle_t plot;

  cairo_set_source_rgb (cr, 1., 1., 1.);
  cairo_paint (cr);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { w, h, t0, t1, run->end, FALSE },
                       &(SluiceChartLimits) { capacity, bound });
  sluice_render_chart_get_plot (model, &(SluiceRenderFrame) { w, h, t0, t1, run->end, SLUICE_PALETTE_LIGHT },
                                &(SluiceChartLimits) { capacity, bound }, &plot);
  sluice_render_draw_playhead (cr, &plot, t0, t1, playhead, FALSE);
  cairo_translate (cr, 0., h);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { w, h, t0, t1, run->end, FALSE }, -1);
  sluice_render_timeline_get_plot (model, w, h, &plot);
  sluice_render_draw_playhead (cr, &plot, t0, t1, playhead, FALSE);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
}

static Figure
measure_render (const ScrubRun  *run,
                cairo_surface_t *surface,
                GRand           *rand,
                gboolean         zoomed)
{
  guint64 frames = 0;
  double t0, elapsed;
  gint64 span = run->end - run->start, window = span / 20;

  t0 = wall_now ();
  do
    {
      gint64 playhead = random_time (run, rand);
      gint64 from = run->start, to = run->end;

      if (zoomed)
        {
          from = CLAMP (playhead - window / 2, run->start, run->end - window);
          to = from + window;
        }
      render_frame (run, surface, from, to, playhead);
      frames++;
    }
  while ((elapsed = wall_now () - t0) < SCRUB_BUDGET || frames < 3);
  return (Figure) { elapsed / frames, 0. };
}

typedef enum {
  M_DRAG,
  M_JUMP,
  M_NARRATE,
  M_NARRATE_DRAG,
  M_NARRATE_ALL,
  M_RENDER_FIT,
  M_RENDER_ZOOM,
  N_MEASURES
} Measure;

static const char * const measure_ids[N_MEASURES] = {
  "fold_drag", "fold_jump", "narrate", "narrate_drag", "narrate_whole_run", "render_fit", "render_zoom",
};

static Figure
measure (Measure          m,
         const ScrubRun  *run,
         cairo_surface_t *surface,
         GRand           *rand)
{
  switch (m)
    {
    case M_DRAG:        return measure_drag (run);
    case M_JUMP:        return measure_jump (run, rand);
    case M_NARRATE:     return measure_narrate (run, rand, FALSE, TRUE);
    case M_NARRATE_DRAG: return measure_narrate (run, rand, TRUE, TRUE);
    case M_NARRATE_ALL: return measure_narrate (run, rand, FALSE, FALSE);
    case M_RENDER_FIT:  return measure_render (run, surface, rand, FALSE);
    case M_RENDER_ZOOM: return measure_render (run, surface, rand, TRUE);
    case N_MEASURES:
    default:            g_assert_not_reached ();
    }
}

/* Median, min and max of N values (sorted in place). */
typedef struct {
  double median, min, max;
} Spread;

static Spread
spread_of (double *values,
           guint   n)
{
  qsort (values, n, sizeof (double), compare_doubles);
  return (Spread) { n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2., values[0], values[n - 1] };
}

static void
set_spread (JsonObject   *obj,
            const char   *name,
            const Spread *s)
{
  g_autofree char *min = g_strconcat (name, "_min", NULL);
  g_autofree char *max = g_strconcat (name, "_max", NULL);

  json_object_set_double_member (obj, name, s->median);
  json_object_set_double_member (obj, min, s->min);
  json_object_set_double_member (obj, max, s->max);
}

void
bench_scrub (void)
{
  JsonObject *obj = section ("scrub");
  guint rounds = bench_opt.quick ? 3 : 7;
  ScrubRun big = { 0 }, small = { 0 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (13);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, SCRUB_WIDTH, SCRUB_HEIGHT);
  double per_move[2][N_MEASURES][7], per_event[2][N_MEASURES][7], ratio[N_MEASURES][7], event_ratio[N_MEASURES][7];
  double chars[2][N_MEASURES] = { { 0 } };
  Spread s_move[2][N_MEASURES], s_event[2][N_MEASURES], s_ratio[N_MEASURES], s_event_ratio[N_MEASURES];

  scrub_run_init (&big, SCRUB_BIG_ITEMS);
  scrub_run_init (&small, SCRUB_SMALL_ITEMS);

  for (guint r = 0; r < rounds; r++)
    for (Measure m = 0; m < N_MEASURES; m++)
      {
        /* Alternate which run goes first. */
        const ScrubRun *runs[2] = { &big, &small };
        Figure f[2];

        for (guint k = 0; k < 2; k++)
          {
            guint i = (k + r) % 2;

            f[i] = measure (m, runs[i], surface, rand);
          }
        for (guint i = 0; i < 2; i++)
          {
            per_move[i][m][r] = f[i].per_move;
            per_event[i][m][r] = f[i].per_event;
            chars[i][m] += f[i].chars / rounds;
          }
        ratio[m][r] = f[0].per_move / f[1].per_move;
        event_ratio[m][r] = f[1].per_event > 0 ? f[0].per_event / f[1].per_event : 0.;
      }

  for (Measure m = 0; m < N_MEASURES; m++)
    {
      for (guint i = 0; i < 2; i++)
        {
          s_move[i][m] = spread_of (per_move[i][m], rounds);
          s_event[i][m] = spread_of (per_event[i][m], rounds);
        }
      s_ratio[m] = spread_of (ratio[m], rounds);
      s_event_ratio[m] = spread_of (event_ratio[m], rounds);
    }

  json_object_set_string_member (obj, "scenario",
                                 "generated: 16 workers, 83% ok 0.05, 12% fail once, 3% fail for good, 2% hang "
                                 "(timeout 0.5 s), keep-going, virtual clock");
  json_object_set_int_member (obj, "events_big", (gint64) big.n_events);
  json_object_set_int_member (obj, "events_small", (gint64) small.n_events);
  json_object_set_int_member (obj, "rounds", rounds);
  json_object_set_double_member (obj, "record_seconds_big", big.record_s);
  json_object_set_double_member (obj, "index_seconds_big", big.index_s);
  for (Measure m = 0; m < N_MEASURES; m++)
    {
      g_autofree char *big_us = g_strconcat (measure_ids[m], "_us_big", NULL);
      g_autofree char *small_us = g_strconcat (measure_ids[m], "_us_small", NULL);
      g_autofree char *r = g_strconcat (measure_ids[m], "_ratio", NULL);
      Spread b = { s_move[0][m].median * 1e6, s_move[0][m].min * 1e6, s_move[0][m].max * 1e6 };
      Spread s = { s_move[1][m].median * 1e6, s_move[1][m].min * 1e6, s_move[1][m].max * 1e6 };

      set_spread (obj, big_us, &b);
      set_spread (obj, small_us, &s);
      set_spread (obj, r, &s_ratio[m]);
      if (m == M_NARRATE || m == M_NARRATE_DRAG || m == M_NARRATE_ALL)
        {
          g_autofree char *big_chars = g_strconcat (measure_ids[m], "_chars_big", NULL);
          g_autofree char *small_chars = g_strconcat (measure_ids[m], "_chars_small", NULL);

          json_object_set_double_member (obj, big_chars, chars[0][m]);
          json_object_set_double_member (obj, small_chars, chars[1][m]);
        }
      if (m == M_DRAG || m == M_JUMP)
        {
          g_autofree char *big_ns = g_strconcat (measure_ids[m], "_ns_per_event_big", NULL);
          g_autofree char *small_ns = g_strconcat (measure_ids[m], "_ns_per_event_small", NULL);
          g_autofree char *er = g_strconcat (measure_ids[m], "_per_event_ratio", NULL);
          Spread be = { s_event[0][m].median * 1e9, s_event[0][m].min * 1e9, s_event[0][m].max * 1e9 };
          Spread se = { s_event[1][m].median * 1e9, s_event[1][m].min * 1e9, s_event[1][m].max * 1e9 };

          set_spread (obj, big_ns, &be);
          set_spread (obj, small_ns, &se);
          set_spread (obj, er, &s_event_ratio[m]);
        }
    }

  add_row ("scrub: runs of 100k and 1k events, headless", "%" G_GUINT64_FORMAT " and %" G_GUINT64_FORMAT
           " events, %u rounds", big.n_events, small.n_events, rounds);
  add_row ("  record the 100k run (s) / timeline + narrator index (s)", "%.3f / %.3f", big.record_s, big.index_s);
  for (Measure m = M_DRAG; m <= M_JUMP; m++)
    {
      g_autofree char *name = g_strdup_printf ("  fold %s: us per move, 100k / 1k",
                                               m == M_DRAG ? "drag (1% steps)" : "jump (random t)");
      g_autofree char *ename = g_strdup_printf ("  fold %s: ns per event moved, 100k / 1k",
                                                m == M_DRAG ? "drag" : "jump");

      add_row (name, "%.2f / %.3f = %.0fx", s_move[0][m].median * 1e6, s_move[1][m].median * 1e6,
               s_ratio[m].median);
      add_row (ename, "%.2f / %.2f = %.2fx  (rounds %.2f-%.2f)", s_event[0][m].median * 1e9,
               s_event[1][m].median * 1e9, s_event_ratio[m].median, s_event_ratio[m].min, s_event_ratio[m].max);
    }
  for (Measure m = M_NARRATE; m <= M_NARRATE_ALL; m++)
    {
      static const char * const names[] = {
        "  narrate, random t while items flow: us/call (chars)",
        "  narrate, 1% drag while items flow: us/call (chars)",
        "  narrate, random t in the whole run: us/call (chars)",
      };

      double per_char = s_ratio[m].median * chars[1][m] / MAX (chars[0][m], 1.);

      add_row (names[m - M_NARRATE], "%.1f (%.0f) / %.1f (%.0f) = %.2fx  (rounds %.2f-%.2f), per char %.2fx",
               s_move[0][m].median * 1e6, chars[0][m], s_move[1][m].median * 1e6, chars[1][m],
               s_ratio[m].median, s_ratio[m].min, s_ratio[m].max, per_char);
    }
  add_row ("  render 1000x500, whole run in view: ms per frame", "%.2f / %.2f = %.2fx  (rounds %.2f-%.2f)",
           s_move[0][M_RENDER_FIT].median * 1e3, s_move[1][M_RENDER_FIT].median * 1e3,
           s_ratio[M_RENDER_FIT].median, s_ratio[M_RENDER_FIT].min, s_ratio[M_RENDER_FIT].max);
  add_row ("  render 1000x500, zoomed to 5% of the run: ms per frame", "%.2f / %.2f = %.2fx  (rounds %.2f-%.2f)",
           s_move[0][M_RENDER_ZOOM].median * 1e3, s_move[1][M_RENDER_ZOOM].median * 1e3,
           s_ratio[M_RENDER_ZOOM].median, s_ratio[M_RENDER_ZOOM].min, s_ratio[M_RENDER_ZOOM].max);

  target_measured ("scrub-fold-drag", s_event_ratio[M_DRAG].median, s_event_ratio[M_DRAG].median <= 2.,
                   "%.2fx", s_event_ratio[M_DRAG].median);
  target_measured ("scrub-fold-jump", s_event_ratio[M_JUMP].median, s_event_ratio[M_JUMP].median <= 2.,
                   "%.2fx", s_event_ratio[M_JUMP].median);
  target_measured ("scrub-narrate", s_ratio[M_NARRATE].median, s_ratio[M_NARRATE].median <= 2.,
                   "%.2fx", s_ratio[M_NARRATE].median);

  cairo_surface_destroy (surface);
  scrub_run_clear (&big);
  scrub_run_clear (&small);
}
