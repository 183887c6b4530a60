/* bench-app.c: the desktop app as a monitor that keeps up (issue 11)
 *
 *   app  the throughput scenario (cli-throughput.pool: `ok 0`, 64 workers,
 *        queue 256) with 50,000 items played in the window under Xvfb at
 *        speed 1, `SLUICE_FRAME_STATS` telling how it was drawn: the frames
 *        per second painted while it ran (target >= 30), the run's time
 *        against the same scenario headless, `sluice-run FILE --clock
 *        virtual` as a whole process (target <= 1.2x), and how soon after
 *        the run's end the window showed it (target <= 0.5 s)
 *
 *   app-scrub  scrubbing (issue 13): bench-scrub.c's generated scenario
 *        with about 100,000 events run at once in the window, then the
 *        playhead dragged from the end to the start and back over 3 s of
 *        wall time, one move per frame (`SLUICE_SCRUB_STATS`): the time
 *        between paints, p50, p95 and max (target p95 <= 33 ms), the
 *        frames per second, and each frame's own work (tick to paint)
 *
 * Each figure is the median of three runs (one with --quick). Skipped with
 * a message when the app was not built or xvfb-run is not installed.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <glib/gstdio.h>
#include <string.h>

#define APP_ITEMS  50000
#define APP_PRESET "app-throughput"
#define APP_LIMIT  120.0

typedef struct {
  double frames;
  double fps;
  double run_seconds;
  double catch_up_seconds;
} AppRun;

/* cli-throughput.pool with 50,000 items, as the preset APP_PRESET in DIR. */
static char *
write_preset (const char *dir)
{
  g_autofree char *source = g_build_filename (bench_opt.pool_dir, "cli-throughput.pool", NULL);
  g_autoptr(GKeyFile) keyfile = g_key_file_new ();
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (dir, APP_PRESET ".pool", NULL);

  if (!g_key_file_load_from_file (keyfile, source, G_KEY_FILE_KEEP_COMMENTS, &error))
    g_error ("%s: %s", source, error->message);
  g_key_file_set_int64 (keyfile, "source", "count", APP_ITEMS);
  if (!g_key_file_save_to_file (keyfile, path, &error))
    g_error ("%s: %s", path, error->message);
  return path;
}

/* One run in the window; FALSE with *WHY when the app could not run. */
static gboolean
app_run (const char  *dir,
         AppRun      *run,
         char       **why)
{
  g_autofree char *stats = g_build_filename (dir, "stats.json", NULL);
  g_autofree char *shot = g_build_filename (dir, "screenshot.png", NULL);
  g_autofree char *env_stats = g_strconcat ("SLUICE_FRAME_STATS=", stats, NULL);
  g_autofree char *env_presets = g_strconcat ("SLUICE_PRESETS_DIR=", dir, NULL);
  g_autofree char *env_schemas = g_strconcat ("GSETTINGS_SCHEMA_DIR=", bench_opt.schema_dir, NULL);
  const char *argv[] = { "xvfb-run", "-a", "-s", "-screen 0 1280x800x24", bench_opt.app,
                         "--preset", APP_PRESET, "--speed", "1", "--screenshot", shot, NULL };
  const char *env[] = { env_stats, env_presets, env_schemas, "GSETTINGS_BACKEND=memory", "GSK_RENDERER=cairo",
                        "NO_AT_BRIDGE=1", "GTK_A11Y=none", NULL };
  g_autoptr(JsonObject) obj = app_run_stats (argv, env, APP_LIMIT, stats, "frame statistics", why);

  if (obj == NULL)
    return FALSE;
  run->frames = stats_member (obj, "frames");
  run->fps = stats_member (obj, "fps");
  run->run_seconds = stats_member (obj, "run_seconds");
  run->catch_up_seconds = stats_member (obj, "catch_up_seconds");
  return TRUE;
}

/* The preset, the statistics and the screenshot, and DIR. */
static void
remove_dir (const char *dir)
{
  const char *names[] = { APP_PRESET ".pool", "stats.json", "screenshot.png" };

  remove_in_dir (dir, names, G_N_ELEMENTS (names));
}

static void
skip (const char *why)
{
  g_printerr ("bench: app skipped: %s\n", why);
  add_row ("app: 50k ok 0 in the window under Xvfb", "skipped: %s", why);
  target_unmeasured ("app-fps", "%s", why);
  target_unmeasured ("app-run-vs-headless", "%s", why);
  target_unmeasured ("app-catch-up", "%s", why);
}

static double
median (const double *values,
        guint         n)
{
  return n >= 3 ? median3 (values[0], values[1], values[2]) : values[0];
}

void
bench_app (void)
{
  JsonObject *obj;
  g_autofree char *xvfb = g_find_program_in_path ("xvfb-run");
  g_autofree char *dir = NULL;
  g_autofree char *preset = NULL;
  g_autofree char *why = NULL;
  guint n = bench_opt.quick ? 1 : 3;
  double fps[3], run_s[3], catch_up[3], frames[3], headless[3];
  double ratio;

  if (bench_opt.app == NULL || *bench_opt.app == '\0' || !g_file_test (bench_opt.app, G_FILE_TEST_IS_EXECUTABLE))
    {
      skip ("the app is not built (GTK 4 not found)");
      return;
    }
  if (xvfb == NULL)
    {
      skip ("xvfb-run is not installed");
      return;
    }

  dir = g_dir_make_tmp ("sluice-bench-app-XXXXXX", NULL);
  if (dir == NULL)
    g_error ("cannot make a temporary directory");
  preset = write_preset (dir);

  for (guint i = 0; i < n; i++)
    {
      AppRun run;

      headless[i] = headless_run (preset, APP_LIMIT);
      if (!app_run (dir, &run, &why))
        {
          skip (why);
          remove_dir (dir);
          return;
        }
      fps[i] = run.fps;
      run_s[i] = run.run_seconds;
      catch_up[i] = run.catch_up_seconds;
      frames[i] = run.frames;
    }

  ratio = median (run_s, n) / median (headless, n);
  obj = section ("app");
  json_object_set_string_member (obj, "scenario",
                                 "cli-throughput.pool with 50,000 items: ok 0, 64 workers, queue 256; "
                                 "the window at speed 1 under Xvfb (GSK_RENDERER=cairo)");
  json_object_set_int_member (obj, "items", APP_ITEMS);
  json_object_set_int_member (obj, "runs", n);
  json_object_set_double_member (obj, "frames", median (frames, n));
  json_object_set_double_member (obj, "fps", median (fps, n));
  json_object_set_double_member (obj, "run_seconds", median (run_s, n));
  json_object_set_double_member (obj, "headless_process_seconds", median (headless, n));
  json_object_set_double_member (obj, "run_vs_headless", ratio);
  json_object_set_double_member (obj, "catch_up_seconds", median (catch_up, n));

  add_row ("app: 50k ok 0 in the window under Xvfb", "%s", "");
  add_row ("  frames per second during the run", "%.1f  (%.0f frames)", median (fps, n), median (frames, n));
  add_row ("  run (s) / sluice-run --clock virtual process (s)", "%.3f / %.3f = %.2fx", median (run_s, n),
           median (headless, n), ratio);
  add_row ("  window caught up after the run's end (s)", "%.3f", median (catch_up, n));
  target_measured ("app-fps", median (fps, n), median (fps, n) >= 30.0, "%.1f fps", median (fps, n));
  target_measured ("app-run-vs-headless", ratio, ratio <= 1.2, "%.2fx", ratio);
  target_measured ("app-catch-up", median (catch_up, n), median (catch_up, n) <= 0.5, "%.3f s",
                   median (catch_up, n));
  remove_dir (dir);
}

/* Scrubbing {{{ */

#define SCRUB_PRESET "app-scrub"

typedef struct {
  double events, fps, frame_p50, frame_p95, frame_max, work_p50, work_p95;
} ScrubRun;

/* One run of the scrubbing preset in DIR; FALSE with *WHY when the app
 * could not run. */
static gboolean
app_scrub_run (const char  *dir,
               ScrubRun    *run,
               char       **why)
{
  g_autofree char *stats = g_build_filename (dir, "scrub.json", NULL);
  g_autofree char *shot = g_build_filename (dir, "screenshot.png", NULL);
  g_autofree char *env_stats = g_strconcat ("SLUICE_SCRUB_STATS=", stats, NULL);
  g_autofree char *env_presets = g_strconcat ("SLUICE_PRESETS_DIR=", dir, NULL);
  g_autofree char *env_schemas = g_strconcat ("GSETTINGS_SCHEMA_DIR=", bench_opt.schema_dir, NULL);
  const char *argv[] = { "xvfb-run", "-a", "-s", "-screen 0 1280x800x24", bench_opt.app,
                         "--preset", SCRUB_PRESET, "--screenshot", shot, NULL };
  const char *env[] = { env_stats, env_presets, env_schemas, "GSETTINGS_BACKEND=memory", "GSK_RENDERER=cairo",
                        "NO_AT_BRIDGE=1", "GTK_A11Y=none", NULL };
  g_autoptr(JsonObject) obj = app_run_stats (argv, env, APP_LIMIT, stats, "scrubbing statistics", why);

  if (obj == NULL)
    return FALSE;
  run->events = stats_member (obj, "events");
  run->fps = stats_member (obj, "fps");
  run->frame_p50 = stats_member (obj, "frame_p50_ms");
  run->frame_p95 = stats_member (obj, "frame_p95_ms");
  run->frame_max = stats_member (obj, "frame_max_ms");
  run->work_p50 = stats_member (obj, "work_p50_ms");
  run->work_p95 = stats_member (obj, "work_p95_ms");
  return TRUE;
}

static void
remove_scrub_dir (const char *dir)
{
  const char *names[] = { SCRUB_PRESET ".pool", "scrub.json", "screenshot.png" };

  remove_in_dir (dir, names, G_N_ELEMENTS (names));
}

static void
skip_scrub (const char *why)
{
  g_printerr ("bench: app-scrub skipped: %s\n", why);
  add_row ("app: scrubbing a 100k-event run under Xvfb", "skipped: %s", why);
  target_unmeasured ("app-scrub-p95", "%s", why);
}

void
bench_app_scrub (void)
{
  JsonObject *obj;
  g_autofree char *xvfb = g_find_program_in_path ("xvfb-run");
  g_autofree char *dir = NULL;
  g_autofree char *preset = NULL;
  g_autofree char *text = NULL;
  g_autofree char *why = NULL;
  g_autoptr(GError) error = NULL;
  guint n = bench_opt.quick ? 1 : 3;
  double events[3], fps[3], p50[3], p95[3], max[3], work50[3], work95[3];
  double v_p95;

  if (bench_opt.app == NULL || *bench_opt.app == '\0' || !g_file_test (bench_opt.app, G_FILE_TEST_IS_EXECUTABLE))
    {
      skip_scrub ("the app is not built (GTK 4 not found)");
      return;
    }
  if (xvfb == NULL)
    {
      skip_scrub ("xvfb-run is not installed");
      return;
    }

  dir = g_dir_make_tmp ("sluice-bench-scrub-XXXXXX", NULL);
  if (dir == NULL)
    g_error ("cannot make a temporary directory");
  preset = g_build_filename (dir, SCRUB_PRESET ".pool", NULL);
  text = bench_scrub_scenario (bench_scrub_big_items ());
  if (!g_file_set_contents (preset, text, -1, &error))
    g_error ("%s: %s", preset, error->message);

  for (guint i = 0; i < n; i++)
    {
      ScrubRun run;

      if (!app_scrub_run (dir, &run, &why))
        {
          skip_scrub (why);
          remove_scrub_dir (dir);
          return;
        }
      events[i] = run.events;
      fps[i] = run.fps;
      p50[i] = run.frame_p50;
      p95[i] = run.frame_p95;
      max[i] = run.frame_max;
      work50[i] = run.work_p50;
      work95[i] = run.work_p95;
    }

  v_p95 = median (p95, n);
  obj = section ("app_scrub");
  json_object_set_string_member (obj, "scenario",
                                 "bench-scrub.c's generated run, played at once in the window under Xvfb "
                                 "(GSK_RENDERER=cairo), then the playhead dragged end -> start -> end over 3 s");
  json_object_set_double_member (obj, "events", events[0]);
  json_object_set_int_member (obj, "runs", n);
  json_object_set_double_member (obj, "fps", median (fps, n));
  json_object_set_double_member (obj, "frame_p50_ms", median (p50, n));
  json_object_set_double_member (obj, "frame_p95_ms", v_p95);
  json_object_set_double_member (obj, "frame_max_ms", median (max, n));
  json_object_set_double_member (obj, "work_p50_ms", median (work50, n));
  json_object_set_double_member (obj, "work_p95_ms", median (work95, n));
  if (n == 3)
    {
      json_object_set_double_member (obj, "frame_p95_ms_min", MIN (p95[0], MIN (p95[1], p95[2])));
      json_object_set_double_member (obj, "frame_p95_ms_max", MAX (p95[0], MAX (p95[1], p95[2])));
    }

  add_row ("app: scrubbing a 100k-event run under Xvfb", "%.0f events, median of %u runs", events[0], n);
  add_row ("  frame time p50 / p95 / max (ms)", "%.1f / %.1f / %.1f", median (p50, n), v_p95, median (max, n));
  add_row ("  frames per second while scrubbing", "%.1f", median (fps, n));
  add_row ("  each frame's work, tick to paint, p50 / p95 (ms)", "%.1f / %.1f", median (work50, n),
           median (work95, n));
  if (n == 3)
    add_row ("  p95 frame time of the three runs (ms)", "%.1f, %.1f, %.1f", p95[0], p95[1], p95[2]);
  target_measured ("app-scrub-p95", v_p95, v_p95 <= 33.0, "%.1f ms", v_p95);
  remove_scrub_dir (dir);
}

/* }}} */
