/* bench-peers.c: the same pool in other runtimes, as child processes
 *
 *   asyncio  tests/bench/asyncio_pool.py (seed 000's pool) on CPython's
 *            asyncio: engine / asyncio (target >= 10x); its whole-process
 *            time is kept for sluice-run's comparison (bench-pool-cli.c)
 *   uvloop   the same script with --uvloop, on /usr/bin/python3 (Debian's
 *            python3-uvloop): engine / uvloop (target >= 7x); skipped with
 *            a message when uvloop cannot be imported
 *   go       tests/bench/gopool (a goroutine and a context.WithTimeout per
 *            attempt), built by scripts/bench when golang-go is installed:
 *            engine per item / Go per item (target <= 1.5x), the two run
 *            alternately; skipped with a message when it was not built
 *
 * Each scenario is the engine's throughput one: `ok 0`, 64 workers,
 * queue 256, item timeout 10 s, real clock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <unistd.h>

double bench_asyncio_process_s;   /* best whole-process wall time */
gint64 bench_asyncio_items;

/* Python {{{ */

typedef struct {
  double      us_per_item;   /* best, as timed inside the script */
  double      process_s;     /* best whole process */
  JsonObject *last;          /* the script's last JSON object */
} PyRuns;

static PyRuns
run_python (const char *python,
            gboolean    uvloop,
            gint64      items,
            int         runs)
{
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, items);
  const char *argv[] = { python, bench_opt.asyncio, "--items", count, uvloop ? "--uvloop" : NULL, NULL };
  PyRuns r = { G_MAXDOUBLE, G_MAXDOUBLE, NULL };

  for (int i = 0; i < runs; i++)
    {
      Child child;

      child_run (argv, NULL, 0.0, &child);
      if (!child_exited_ok (&child))
        g_error ("%s %s failed: %s", python, bench_opt.asyncio, child.err);
      g_clear_pointer (&r.last, json_object_unref);
      r.last = child_json (&child, python);
      r.us_per_item = MIN (r.us_per_item, json_object_get_double_member (r.last, "us_per_item"));
      r.process_s = MIN (r.process_s, child.wall);
      child_clear (&child);
    }
  return r;
}

static void
python_json (JsonObject   *obj,
             const PyRuns *r,
             gint64        items,
             double        ratio)
{
  json_object_set_string_member (obj, "python", json_object_get_string_member (r->last, "python"));
  json_object_set_string_member (obj, "event_loop", json_object_get_string_member (r->last, "event_loop"));
  json_object_set_int_member (obj, "items", items);
  json_object_set_double_member (obj, "us_per_item", r->us_per_item);
  json_object_set_double_member (obj, "items_per_s", 1e6 / r->us_per_item);
  json_object_set_double_member (obj, "process_seconds", r->process_s);
  json_object_set_double_member (obj, "engine_us_per_item", bench_engine_us_per_item);
  json_object_set_double_member (obj, "ratio", ratio);
}

static gint64
python_items (void)
{
  return bench_opt.quick ? bench_opt.asyncio_items / 5 : bench_opt.asyncio_items;
}

void
bench_asyncio (void)
{
  JsonObject *obj = section ("asyncio");
  gint64 items = python_items ();
  PyRuns r;
  double ratio;

  if (bench_engine_us_per_item == 0.0)
    bench_throughput ();
  r = run_python (bench_opt.python, FALSE, items, bench_opt.quick ? 1 : 2);
  ratio = r.us_per_item / bench_engine_us_per_item;
  bench_asyncio_process_s = r.process_s;
  bench_asyncio_items = items;

  python_json (obj, &r, items, ratio);
  add_row ("asyncio reference, same scenario (us/item)", "%.3f  (N=%" G_GINT64_FORMAT ", Python %s)",
           r.us_per_item, items, json_object_get_string_member (r.last, "python"));
  add_row ("  whole process (s)", "%.3f", r.process_s);
  add_row ("  engine / asyncio", "%.2fx", ratio);
  target_measured ("engine-vs-asyncio", ratio, ratio >= 10.0, "%.2fx", ratio);
  json_object_unref (r.last);
}

static gboolean
has_uvloop (const char *python,
            char      **why)
{
  const char *argv[] = { python, "-c", "import uvloop", NULL };
  Child child;
  gboolean ok;

  child_run (argv, NULL, 0.0, &child);
  ok = child_exited_ok (&child);
  if (!ok)
    *why = g_strdup_printf ("skipped: %s cannot import uvloop (install python3-uvloop)", python);
  child_clear (&child);
  return ok;
}

void
bench_uvloop (void)
{
  JsonObject *obj = section ("uvloop");
  gint64 items = python_items ();
  g_autofree char *why = NULL;
  PyRuns r;
  double ratio;

  if (!has_uvloop (bench_opt.uvloop_python, &why))
    {
      g_printerr ("uvloop: %s\n", why);
      json_object_set_string_member (obj, "skipped", why);
      add_row ("asyncio on uvloop", "%s", why);
      target_unmeasured ("engine-vs-uvloop", "%s", why);
      return;
    }
  if (bench_engine_us_per_item == 0.0)
    bench_throughput ();
  r = run_python (bench_opt.uvloop_python, TRUE, items, bench_opt.quick ? 1 : 2);
  ratio = r.us_per_item / bench_engine_us_per_item;

  python_json (obj, &r, items, ratio);
  add_row ("asyncio on uvloop, same scenario (us/item)", "%.3f  (N=%" G_GINT64_FORMAT ", %s)",
           r.us_per_item, items, json_object_get_string_member (r.last, "event_loop"));
  add_row ("  engine / uvloop", "%.2fx", ratio);
  target_measured ("engine-vs-uvloop", ratio, ratio >= 7.0, "%.2fx", ratio);
  json_object_unref (r.last);
}

/* }}} */
/* Go {{{ */

static JsonObject *
run_go (gint64              items,
        const char * const *env)
{
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, items);
  const char *argv[] = {
    bench_opt.go, "-items", count, "-workers", "64", "-queue-size", "256", "-timeout", "10", NULL,
  };

  return run_child_json (argv, env);
}

static void
go_skipped (JsonObject *obj)
{
  const char *why = "skipped: golang-go not installed (scripts/bench builds the Go peer when `go` is there)";

  g_printerr ("go: %s\n", why);
  json_object_set_string_member (obj, "skipped", why);
  add_row ("Go peer", "%s", why);
  target_unmeasured ("engine-vs-go", "%s", why);
}

/* Engine and Go alternately, best of each: both see the same machine. */
static void
go_alternate (gint64      items,
              int         pairs,
              double     *engine_us,
              double     *go_us,
              JsonObject **go_last)
{
  *engine_us = *go_us = G_MAXDOUBLE;
  for (int i = 0; i < pairs; i++)
    {
      Outcome out = throughput_run (items, 256);

      *engine_us = MIN (*engine_us, out.wall * 1e6 / items);
      g_clear_pointer (go_last, json_object_unref);
      *go_last = run_go (items, NULL);
      *go_us = MIN (*go_us, json_object_get_double_member (*go_last, "us_per_item"));
    }
}

void
bench_go (void)
{
  static const char * const one_proc[] = { "GOMAXPROCS=1", NULL };
  JsonObject *obj = section ("go");
  gint64 items = bench_opt.quick ? 50000 : 200000;
  g_autoptr(JsonObject) last = NULL;
  g_autoptr(JsonObject) single = NULL;
  double engine_us, go_us, ratio;

  if (bench_opt.go == NULL || *bench_opt.go == '\0' || access (bench_opt.go, X_OK) != 0)
    {
      go_skipped (obj);
      return;
    }
  go_alternate (items, bench_opt.quick ? 2 : 3, &engine_us, &go_us, &last);
  single = run_go (items, one_proc);
  ratio = engine_us / go_us;

  json_object_set_string_member (obj, "go", json_object_get_string_member (last, "go"));
  json_object_set_int_member (obj, "gomaxprocs", json_object_get_int_member (last, "gomaxprocs"));
  json_object_set_int_member (obj, "items", items);
  json_object_set_double_member (obj, "us_per_item", go_us);
  json_object_set_double_member (obj, "cpu_us_per_item", json_object_get_double_member (last, "cpu_us_per_item"));
  json_object_set_double_member (obj, "us_per_item_gomaxprocs_1", json_object_get_double_member (single, "us_per_item"));
  json_object_set_double_member (obj, "engine_us_per_item", engine_us);
  json_object_set_double_member (obj, "ratio", ratio);

  add_row ("Go peer, same scenario (us/item)", "%.3f  (N=%" G_GINT64_FORMAT ", %s, GOMAXPROCS %" G_GINT64_FORMAT ")",
           go_us, items, json_object_get_string_member (last, "go"), json_object_get_int_member (last, "gomaxprocs"));
  add_row ("  Go CPU per item (us, all threads)", "%.3f", json_object_get_double_member (last, "cpu_us_per_item"));
  add_row ("  Go with GOMAXPROCS=1 (us/item)", "%.3f", json_object_get_double_member (single, "us_per_item"));
  add_row ("  engine, runs alternating with Go (us/item)", "%.3f", engine_us);
  add_row ("  engine / Go, per item", "%.2fx", ratio);
  target_measured ("engine-vs-go", ratio, ratio <= 1.5, "%.2fx", ratio);
}

/* }}} */
