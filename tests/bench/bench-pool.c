/* bench-pool.c: how fast the pool is, against the targets of issue 11
 *
 * One run measures, in one process (whole-process and memory figures in
 * child processes, so that each peak RSS is its own):
 *
 *   dispatch, throughput, scaling-virtual, scaling-hang, precision
 *                  the engine in this process (bench-engine.c)
 *   memory         the engine's peak RSS (bench-memory.c)
 *   asyncio, uvloop, go
 *                  the same pool in Python asyncio, on uvloop, and in Go
 *                  (bench-peers.c)
 *   cli-throughput, cli-scaling, cli-memory
 *                  sluice-run as a whole process (bench-pool-cli.c)
 *   app            the desktop app under Xvfb (bench-app.c)
 *   scrub          scrubbing a 100k-event run against a 1k one, headless
 *                  (bench-scrub.c, issue 13)
 *   app-scrub      scrubbing a 100k-event run in the window under Xvfb
 *                  (bench-app.c, issue 13)
 *   window         a 50k-item run in the window at full speed, 1024x768,
 *                  under cairo and GL (bench-window.c, issue 24)
 *   window-models  the window's models per event of that run, headless
 *                  (bench-window.c)
 *
 * Prints a table of every figure, then the targets of issues 11 and 13
 * with their measured ratios, met or missed; writes every figure to a JSON file (by
 * default bench/results.json in the build directory). Every ratio is
 * taken within one run: absolute times on a shared machine are noise.
 * `--only NAME` runs one measurement (and what its ratio needs) and prints
 * its JSON; `--items N` changes the item count of throughput and mem-items
 * (for profiling: --only profile --items 20000 under callgrind).
 *
 * A benchmark, not a test: nothing here passes or fails on a time.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <string.h>

#ifndef BENCH_ASYNCIO_SCRIPT
# define BENCH_ASYNCIO_SCRIPT "asyncio_pool.py"
#endif
#ifndef BENCH_RESULTS
# define BENCH_RESULTS "bench/results.json"
#endif
#ifndef BENCH_SLUICE_RUN
# define BENCH_SLUICE_RUN "sluice-run"
#endif
#ifndef BENCH_POOL_DIR
# define BENCH_POOL_DIR "."
#endif
#ifndef BENCH_GO_PEER
# define BENCH_GO_PEER ""
#endif
#ifndef BENCH_SLUICE_APP
# define BENCH_SLUICE_APP ""
#endif
#ifndef BENCH_SCHEMA_DIR
# define BENCH_SCHEMA_DIR "."
#endif
#ifndef BENCH_DATA_DIR
# define BENCH_DATA_DIR "data"
#endif

BenchOptions bench_opt = {
  .asyncio_items = 50000,
  .json = BENCH_RESULTS,
  .asyncio = BENCH_ASYNCIO_SCRIPT,
  .python = "python3",
  .uvloop_python = "/usr/bin/python3",
  .go = BENCH_GO_PEER,
  .sluice_run = BENCH_SLUICE_RUN,
  .app = BENCH_SLUICE_APP,
  .schema_dir = BENCH_SCHEMA_DIR,
  .data_dir = BENCH_DATA_DIR,
  .pool_dir = BENCH_POOL_DIR,
};

typedef struct {
  const char *name;
  void      (*func) (void);
} Bench;

static const Bench benches[] = {
  { "dispatch",        bench_dispatch },
  { "throughput",      bench_throughput },
  { "asyncio",         bench_asyncio },
  { "uvloop",          bench_uvloop },
  { "go",              bench_go },
  { "scaling-virtual", bench_scaling_virtual },
  { "scaling-hang",    bench_scaling_hang },
  { "memory",          bench_memory },
  { "precision",       bench_precision },
  { "cli-throughput",  bench_cli_throughput },
  { "cli-scaling",     bench_cli_scaling },
  { "cli-memory",      bench_cli_memory },
  { "app",             bench_app },
  { "scrub",           bench_scrub },
  { "app-scrub",       bench_app_scrub },
  { "window",          bench_window },
  { "window-models",   bench_window_models },
  { "monitor",         bench_monitor },
};

static void
describe_machine (void)
{
  JsonObject *obj = section ("machine");
  g_autofree char *cpuinfo = NULL;
  g_autofree char *model = NULL;
  g_autofree char *glib = NULL;

  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL))
    {
      char *line = strstr (cpuinfo, "model name");
      char *colon = line != NULL ? strchr (line, ':') : NULL;

      if (colon != NULL)
        model = g_strstrip (g_strndup (colon + 1, strcspn (colon + 1, "\n")));
    }
  json_object_set_string_member (obj, "cpu", model != NULL ? model : "unknown");
  json_object_set_int_member (obj, "cpus", g_get_num_processors ());
  glib = g_strdup_printf ("%u.%u.%u", glib_major_version, glib_minor_version, glib_micro_version);
  json_object_set_string_member (obj, "glib", glib);
  json_object_set_boolean_member (obj, "quick", bench_opt.quick);
  g_print ("machine: %s, %u CPUs, GLib %s%s\n", model != NULL ? model : "unknown",
           g_get_num_processors (), glib, bench_opt.quick ? " (--quick: fewer items, smaller counts)" : "");
}

static gboolean
parse_options (int    *argc,
               char ***argv)
{
  GOptionEntry entries[] = {
    { "only", 0, 0, G_OPTION_ARG_STRING, &bench_opt.only,
      "Run one measurement: dispatch, throughput, asyncio, uvloop, go, scaling-virtual, scaling-hang, "
      "memory, precision, cli-throughput, cli-scaling, cli-memory, app, scrub, app-scrub, window, window-models, monitor; or a child: mem-inflight, mem-items, inflight (--workers, --items), "
      "profile (the throughput case alone)", "NAME" },
    { "items", 0, 0, G_OPTION_ARG_INT64, &bench_opt.items, "Items for throughput and the children", "N" },
    { "workers", 0, 0, G_OPTION_ARG_INT64, &bench_opt.workers, "Workers for the inflight child (default 10)", "N" },
    { "asyncio-items", 0, 0, G_OPTION_ARG_INT64, &bench_opt.asyncio_items,
      "Items for the Python runs and sluice-run against them (default 50000)", "N" },
    { "asyncio", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.asyncio, "Path of asyncio_pool.py", "FILE" },
    { "python", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.python,
      "Interpreter of the asyncio reference (default python3)", "PYTHON" },
    { "uvloop-python", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.uvloop_python,
      "Interpreter with uvloop (default /usr/bin/python3)", "PYTHON" },
    { "go", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.go, "The Go peer's binary (\"\": skip)", "FILE" },
    { "sluice-run", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.sluice_run, "Path of sluice-run", "FILE" },
    { "app", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.app, "The desktop app's binary (\"\": skip)", "FILE" },
    { "schema-dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.schema_dir,
      "Where the app's compiled GSettings schema is (BUILDDIR/data)", "DIR" },
    { "data-dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.data_dir,
      "Where the app's presets and lessons are (the source's data/)", "DIR" },
    { "pool-dir", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.pool_dir,
      "Where cli-*.pool are (tests/bench)", "DIR" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &bench_opt.json, "Where to write the results", "FILE" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &bench_opt.quick, "Fewer items everywhere (a smoke run)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- Sluice benchmarks (issues 5 and 11)");
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;
  g_printerr ("%s\n", error->message);
  return FALSE;
}

/* Children (and the profiling target) print one JSON object and nothing
 * else. Returns FALSE when this is not a child. */
static gboolean
run_as_child (void)
{
  g_autoptr(JsonObject) obj = NULL;

  if (g_strcmp0 (bench_opt.only, "mem-inflight") == 0)
    obj = child_mem_inflight (bench_opt.items > 0 ? bench_opt.items : 100000);
  else if (g_strcmp0 (bench_opt.only, "mem-items") == 0)
    obj = child_mem_items (bench_opt.items > 0 ? bench_opt.items : 100000, 16);
  else if (g_strcmp0 (bench_opt.only, "inflight") == 0)
    obj = child_in_flight (bench_opt.workers > 0 ? bench_opt.workers : 10,
                           bench_opt.items > 0 ? bench_opt.items : 20000);
  else if (g_strcmp0 (bench_opt.only, "profile") == 0)
    obj = child_mem_items (bench_opt.items > 0 ? bench_opt.items : 20000, 256);
  else
    return FALSE;
  print_object (obj);
  return TRUE;
}

static int
run_benches (void)
{
  double t0 = wall_now ();
  gboolean any = FALSE;

  report_init ();
  describe_machine ();
  for (guint i = 0; i < G_N_ELEMENTS (benches); i++)
    {
      if (bench_opt.only != NULL && !g_str_equal (bench_opt.only, benches[i].name))
        continue;
      g_printerr ("[%6.1fs] %s...\n", wall_now () - t0, benches[i].name);
      benches[i].func ();
      any = TRUE;
    }
  if (!any)
    {
      g_printerr ("no measurement named %s\n", bench_opt.only);
      report_free ();
      return 2;
    }

  json_object_set_double_member (report_root (), "total_seconds", wall_now () - t0);
  print_table ();
  print_targets ();
  if (bench_opt.quick)
    g_print ("(--quick: fewer items and smaller counts than the targets name; a smoke run)\n");
  g_print ("\ntotal %.1f s\n", wall_now () - t0);
  if (bench_opt.only == NULL)
    write_json (bench_opt.json);
  else
    print_object (report_root ());
  report_free ();
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc >= 5 && g_str_equal (argv[1], "--spawn"))
    return bench_spawn_main (argc, argv);
  if (!parse_options (&argc, &argv))
    return 2;
  if (run_as_child ())
    return 0;
  return run_benches ();
}
