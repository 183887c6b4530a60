/* bench-window.c: a 50,000-item run in the window at full speed (issue 24,
 * item 7, "Keep up")
 *
 *   window  window-50k.pool (50,000 items of `ok 0.001`, 64 workers, queue
 *        256, virtual clock) in the real app, as a person runs it: `sluice
 *        FILE --screenshot PNG` opens the window (1024x768, from the
 *        settings of a throw-away keyfile backend, on a 1024x768 Xvfb
 *        screen), and once it is shown activates win.run, the Run button's
 *        action, with the run controller in instant mode (the virtual clock
 *        at full speed: no --speed). `SLUICE_FRAME_STATS` tells how it was
 *        drawn (sluice-batch.c): the frames painted per second during the
 *        run (the window's GdkFrameClock::after-paint; target >= 30), the
 *        longest gap between two paints from the activation to the first
 *        paint after the end (target <= 100 ms), and the run's time, from
 *        the activation to running false, against the same file headless,
 *        `sluice-run FILE --clock virtual` as a whole process (start-up and
 *        report included; target <= 1.5x). One row each under
 *        GSK_RENDERER=cairo, under the default renderer (the app's
 *        choice: cairo where OpenGL is done in software, as with Xvfb's
 *        llvmpipe; sluice-renderer.c) and under GSK_RENDERER=gl (GL
 *        forced, llvmpipe on Xvfb), the last for the record.
 *
 *   window-models  what the window's models cost per event, headless: the
 *        same file run once on the virtual clock into a recorder, then
 *        its events handed to the models in frames of WINDOW_FRAME_EVENTS
 *        (about what a frame of the window reads at full speed): the
 *        timeline of the chart and the lanes, the fold of the moment
 *        shown (to the end, as during a run) and the linter. CPU time per
 *        event, best of three passes.
 *
 * Each figure is the median of three runs (one with --quick), the headless
 * and the window runs alternating. Skipped with a message when the app
 * was not built or xvfb-run is not installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sluice-fold.h"
#include "sluice-linter.h"
#include "sluice-scenario-runner.h"
#include "sluice-timeline.h"

#define WINDOW_POOL   "window-50k.pool"
#define WINDOW_ITEMS  50000
#define WINDOW_WIDTH  1024
#define WINDOW_HEIGHT 768
#define WINDOW_LIMIT  300.0
#define WINDOW_RUNS   3
#define WINDOW_FRAME_EVENTS 15000

typedef struct {
  const char *name;   /* in the rows and the targets' ids */
  const char *env;    /* env(1)'s argument that picks it */
} Renderer;

static const Renderer renderers[] = {
  { "cairo",   "GSK_RENDERER=cairo" },
  { "default", "-uGSK_RENDERER" },
  { "gl",      "GSK_RENDERER=gl" },
};

typedef struct {
  double frames, fps, run_seconds, catch_up_seconds;
  double gap_p50, gap_p95, gap_max;   /* seconds */
} WindowRun;

/* The window's size as a person left it: the app's own settings, in a
 * keyfile under DIR (XDG_CONFIG_HOME), nobody's real ones touched. */
static void
write_settings (const char *dir)
{
  g_autofree char *settings_dir = g_build_filename (dir, "glib-2.0", "settings", NULL);
  g_autofree char *path = g_build_filename (settings_dir, "keyfile", NULL);
  g_autofree char *text = g_strdup_printf ("[io/github/sluicepool/Sluice]\n"
                                           "window-width=%d\nwindow-height=%d\nwindow-maximized=false\n",
                                           WINDOW_WIDTH, WINDOW_HEIGHT);
  g_autoptr(GError) error = NULL;

  g_mkdir_with_parents (settings_dir, 0700);
  if (!g_file_set_contents (path, text, -1, &error))
    g_error ("%s: %s", path, error->message);
}

/* The statistics the app wrote (@obj) into @run. */
static void
read_stats (JsonObject *obj,
            WindowRun  *run)
{
  run->frames = stats_member (obj, "frames");
  run->fps = stats_member (obj, "fps");
  run->run_seconds = stats_member (obj, "run_seconds");
  run->catch_up_seconds = stats_member (obj, "catch_up_seconds");
  run->gap_p50 = stats_member (obj, "gap_p50_seconds");
  run->gap_p95 = stats_member (obj, "gap_p95_seconds");
  run->gap_max = stats_member (obj, "gap_max_seconds");
}

/* One run in the window under @renderer; FALSE with *WHY when the app
 * could not run. */
static gboolean
window_run (const char      *dir,
            const char      *pool,
            const Renderer  *renderer,
            WindowRun       *run,
            char           **why)
{
  g_autofree char *stats = g_build_filename (dir, "stats.json", NULL);
  g_autofree char *shot = g_build_filename (dir, "screenshot.png", NULL);
  g_autofree char *screen = g_strdup_printf ("-screen 0 %dx%dx24", WINDOW_WIDTH, WINDOW_HEIGHT);
  g_autofree char *env_stats = g_strconcat ("SLUICE_FRAME_STATS=", stats, NULL);
  g_autofree char *env_config = g_strconcat ("XDG_CONFIG_HOME=", dir, NULL);
  g_autofree char *env_schemas = g_strconcat ("GSETTINGS_SCHEMA_DIR=", bench_opt.schema_dir, NULL);
  g_autofree char *presets = g_build_filename (bench_opt.data_dir, "presets", NULL);
  g_autofree char *lessons = g_build_filename (bench_opt.data_dir, "lessons", NULL);
  g_autofree char *env_presets = g_strconcat ("SLUICE_PRESETS_DIR=", presets, NULL);
  g_autofree char *env_lessons = g_strconcat ("SLUICE_LESSONS_DIR=", lessons, NULL);
  const char *argv[] = { "xvfb-run", "-a", "-s", screen, "env", renderer->env, bench_opt.app, pool,
                         "--screenshot", shot, NULL };
  /* The presets and lessons as installed, for a window as a person has it. */
  const char *env[] = { env_stats, env_config, env_schemas, env_presets, env_lessons, "GSETTINGS_BACKEND=keyfile",
                        "NO_AT_BRIDGE=1", "GTK_A11Y=none", NULL };
  g_autoptr(JsonObject) obj = app_run_stats (argv, env, WINDOW_LIMIT, stats, "frame statistics", why);

  if (obj == NULL)
    return FALSE;
  read_stats (obj, run);
  return TRUE;
}

static void
remove_dir (const char *dir)
{
  const char *names[] = { "stats.json", "screenshot.png", "glib-2.0/settings/keyfile", "glib-2.0/settings",
                          "glib-2.0" };

  remove_in_dir (dir, names, G_N_ELEMENTS (names));
}

static char *
target_id (const char     *what,
           const Renderer *renderer)
{
  return g_strdup_printf ("window-%s-%s", what, renderer->name);
}

/* The renderers from @first on are not measured. */
static void
skip (const char *why,
      guint       first)
{
  g_printerr ("bench: window skipped: %s\n", why);
  add_row ("window: 50k ok 0.001 at full speed, 1024x768, Xvfb", "skipped: %s", why);
  for (guint r = first; r < G_N_ELEMENTS (renderers); r++)
    {
      const char *whats[] = { "fps", "gap", "vs-headless" };

      for (guint i = 0; i < G_N_ELEMENTS (whats); i++)
        {
          g_autofree char *id = target_id (whats[i], &renderers[r]);

          target_unmeasured (id, "%s", why);
        }
    }
}

static double
median (const double *values,
        guint         n)
{
  return n >= 3 ? median3 (values[0], values[1], values[2]) : values[0];
}

/* The medians of @n runs of @renderer, and the headless runs between them. */
static void
report_renderer (const Renderer  *renderer,
                 const WindowRun *runs,
                 const double    *headless,
                 guint            n)
{
  double fps[WINDOW_RUNS], frames[WINDOW_RUNS], run_s[WINDOW_RUNS], catch_up[WINDOW_RUNS];
  double p50[WINDOW_RUNS], p95[WINDOW_RUNS], max[WINDOW_RUNS];
  g_autofree char *id_fps = target_id ("fps", renderer);
  g_autofree char *id_gap = target_id ("gap", renderer);
  g_autofree char *id_ratio = target_id ("vs-headless", renderer);
  g_autofree char *label = g_strdup_printf ("  %s:", renderer->name);
  JsonObject *obj;
  double ratio;

  for (guint i = 0; i < n; i++)
    {
      fps[i] = runs[i].fps;
      frames[i] = runs[i].frames;
      run_s[i] = runs[i].run_seconds;
      catch_up[i] = runs[i].catch_up_seconds;
      p50[i] = runs[i].gap_p50 * 1e3;
      p95[i] = runs[i].gap_p95 * 1e3;
      max[i] = runs[i].gap_max * 1e3;
    }
  ratio = median (run_s, n) / median (headless, n);

  obj = json_object_new ();
  json_object_set_int_member (obj, "runs", n);
  json_object_set_double_member (obj, "frames", median (frames, n));
  json_object_set_double_member (obj, "fps", median (fps, n));
  json_object_set_double_member (obj, "gap_p50_ms", median (p50, n));
  json_object_set_double_member (obj, "gap_p95_ms", median (p95, n));
  json_object_set_double_member (obj, "gap_max_ms", median (max, n));
  json_object_set_double_member (obj, "run_seconds", median (run_s, n));
  json_object_set_double_member (obj, "headless_process_seconds", median (headless, n));
  json_object_set_double_member (obj, "run_vs_headless", ratio);
  json_object_set_double_member (obj, "catch_up_seconds", median (catch_up, n));
  json_object_set_object_member (section ("window"), renderer->name, obj);

  add_row (label, "%.1f frames/s (%.0f frames); gap p50 %.0f, p95 %.0f, max %.0f ms", median (fps, n),
           median (frames, n), median (p50, n), median (p95, n), median (max, n));
  add_row ("    run (s) / sluice-run --clock virtual process (s)", "%.3f / %.3f = %.2fx", median (run_s, n),
           median (headless, n), ratio);
  add_row ("    window caught up after the run's end (s)", "%.3f", median (catch_up, n));
  if (n == 3)
    add_row ("    longest gap of the three runs (ms)", "%.0f, %.0f, %.0f", max[0], max[1], max[2]);
  target_measured (id_fps, median (fps, n), median (fps, n) >= 30.0, "%.1f fps", median (fps, n));
  target_measured (id_gap, median (max, n), median (max, n) <= 100.0, "%.0f ms", median (max, n));
  target_measured (id_ratio, ratio, ratio <= 1.5, "%.2fx", ratio);
}

void
bench_window (void)
{
  g_autofree char *xvfb = g_find_program_in_path ("xvfb-run");
  g_autofree char *pool = g_build_filename (bench_opt.pool_dir, WINDOW_POOL, NULL);
  g_autofree char *dir = NULL;
  guint n = bench_opt.quick ? 1 : WINDOW_RUNS;

  if (bench_opt.app == NULL || *bench_opt.app == '\0' || !g_file_test (bench_opt.app, G_FILE_TEST_IS_EXECUTABLE))
    {
      skip ("the app is not built (GTK 4 not found)", 0);
      return;
    }
  if (xvfb == NULL)
    {
      skip ("xvfb-run is not installed", 0);
      return;
    }

  dir = g_dir_make_tmp ("sluice-bench-window-XXXXXX", NULL);
  if (dir == NULL)
    g_error ("cannot make a temporary directory");
  write_settings (dir);
  json_object_set_string_member (section ("window"), "scenario",
                                 WINDOW_POOL ": 50,000 items of ok 0.001, 64 workers, queue 256; the real app, "
                                 "win.run in instant mode (the virtual clock at full speed), 1024x768 under Xvfb");
  json_object_set_int_member (section ("window"), "items", WINDOW_ITEMS);
  add_row ("window: 50k ok 0.001 at full speed, 1024x768, Xvfb", "median of %u runs", n);

  for (guint r = 0; r < G_N_ELEMENTS (renderers); r++)
    {
      WindowRun runs[WINDOW_RUNS];
      double headless[WINDOW_RUNS];

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *why = NULL;

          headless[i] = headless_run (pool, WINDOW_LIMIT);
          if (!window_run (dir, pool, &renderers[r], &runs[i], &why))
            {
              skip (why, r);
              remove_dir (dir);
              return;
            }
        }
      report_renderer (&renderers[r], runs, headless, n);
    }
  remove_dir (dir);
}

/* The window's models per event, headless {{{ */

static SluiceRecorder *
record_window_run (const char *pool,
                   guint      *workers)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (pool, NULL, &error);
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  SluiceRecorder *recorder = sluice_recorder_new (0);

  if (scenario == NULL)
    g_error ("%s: %s", pool, error->message);
  *workers = (guint) sluice_scenario_get_workers (scenario);
  runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_recorder (runner, recorder);
  report = sluice_scenario_runner_run (runner, &error);
  if (report == NULL)
    g_error ("%s: %s", pool, error->message);
  return recorder;
}

typedef struct {
  double timeline, fold, linter;   /* CPU seconds */
} ModelCosts;

/* One pass: @all's events copied into a new recorder a frame at a time
 * (not timed), each frame handed to the models as the window does. */
static void
models_pass (SluiceRecorder *all,
             guint           workers,
             ModelCosts     *costs)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceTimeline) timeline = sluice_timeline_new (workers);
  g_autoptr(SluiceFold) fold = sluice_fold_new (recorder);
  g_autoptr(SluiceLinter) linter = sluice_linter_new ();
  guint n = sluice_recorder_get_n_events (all);
  guint64 cursor = 0;

  memset (costs, 0, sizeof *costs);
  for (guint first = 0; first < n; first += WINDOW_FRAME_EVENTS)
    {
      const SluiceEvent *event;
      double t0, t1, t2;

      for (guint i = first; i < MIN (n, first + WINDOW_FRAME_EVENTS); i++)
        sluice_recorder_add (recorder, sluice_recorder_get_event (all, i));

      t0 = cpu_now ();
      sluice_timeline_update (timeline, recorder);
      t1 = cpu_now ();
      sluice_fold_seek_end (fold);
      t2 = cpu_now ();
      while ((event = sluice_recorder_next (recorder, &cursor)) != NULL)
        sluice_linter_add_event (linter, event);
      costs->timeline += t1 - t0;
      costs->fold += t2 - t1;
      costs->linter += cpu_now () - t2;
    }
}

void
bench_window_models (void)
{
  g_autofree char *pool = g_build_filename (bench_opt.pool_dir, WINDOW_POOL, NULL);
  g_autoptr(SluiceRecorder) all = NULL;
  ModelCosts best = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE };
  JsonObject *obj;
  guint workers, n;

  all = record_window_run (pool, &workers);
  n = sluice_recorder_get_n_events (all);
  for (guint pass = 0; pass < 3; pass++)
    {
      ModelCosts costs;

      models_pass (all, workers, &costs);
      best.timeline = MIN (best.timeline, costs.timeline);
      best.fold = MIN (best.fold, costs.fold);
      best.linter = MIN (best.linter, costs.linter);
    }

  obj = section ("window_models");
  json_object_set_int_member (obj, "events", n);
  json_object_set_int_member (obj, "frame_events", WINDOW_FRAME_EVENTS);
  json_object_set_double_member (obj, "timeline_us_per_event", best.timeline / n * 1e6);
  json_object_set_double_member (obj, "fold_us_per_event", best.fold / n * 1e6);
  json_object_set_double_member (obj, "linter_us_per_event", best.linter / n * 1e6);
  add_row ("window's models, headless: CPU per event (us)", "timeline %.3f, fold %.3f, linter %.3f (%u events)",
           best.timeline / n * 1e6, best.fold / n * 1e6, best.linter / n * 1e6, n);
}

/* }}} */
