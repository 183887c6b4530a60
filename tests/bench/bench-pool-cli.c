/* bench-pool-cli.c: sluice-run as a whole process
 *
 *   cli-throughput  tests/bench/cli-throughput.pool (the engine's `ok 0`
 *                   scenario) against the asyncio reference, both timed as
 *                   whole processes on the same item count (target >= 6x)
 *   cli-scaling     per-item CPU at 100,000 workers / at 10 (target <=
 *                   1.5x): cli-scaling-virtual.pool (`ok 1.0`, virtual
 *                   clock) and cli-scaling-hang.pool (`hang`, timeouts,
 *                   real clock); the CPU of an empty run is taken off first
 *   cli-memory      peak RSS of the throughput scenario, 1M / 100k items
 *                   (target <= 1.2x)
 *
 * sluice-run prints its summary (not --json) to a file; figures come from
 * wait4(). A run that is refused (sluice-run exits 2, e.g. a workers limit)
 * is reported as not measurable with sluice-run's own message; one that
 * outlasts its time limit is killed, and its cost is a lower bound.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

/* Running sluice-run {{{ */

/* sluice-run POOL --set KEY=VALUE ... (SETS: NULL-terminated). */
static void
cli_run (const char         *pool,
         const char * const *sets,
         double              limit,
         Child              *child)
{
  g_autofree char *path = g_build_filename (bench_opt.pool_dir, pool, NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) bench_opt.sluice_run);
  g_ptr_array_add (argv, path);
  for (guint i = 0; sets[i] != NULL; i++)
    {
      g_ptr_array_add (argv, (char *) "--set");
      g_ptr_array_add (argv, (char *) sets[i]);
    }
  g_ptr_array_add (argv, NULL);
  child_run ((const char * const *) argv->pdata, NULL, limit, child);
}

static gboolean
cli_refused (const Child *child)
{
  return child->ran && !child->killed && WIFEXITED (child->status) && WEXITSTATUS (child->status) == 2;
}

/* The summary's "items  N pulled, ..." must account for every item. */
static void
cli_check (const Child *child,
           const char  *pool,
           gint64       items)
{
  const char *line = child->out != NULL ? strstr (child->out, "\nitems") : NULL;
  gint64 pulled = -1;

  if (!child_exited_ok (child))
    g_error ("sluice-run %s failed: %s", pool, child->err);
  if (line == NULL || sscanf (line, "\nitems %" G_GINT64_FORMAT " pulled", &pulled) != 1 || pulled != items)
    g_error ("sluice-run %s: %" G_GINT64_FORMAT " items pulled of %" G_GINT64_FORMAT "\n%s",
             pool, pulled, items, child->out);
}

static char *
set_int (const char *key,
         gint64      value)
{
  return g_strdup_printf ("%s=%" G_GINT64_FORMAT, key, value);
}

/* }}} */
/* Throughput against asyncio, whole processes {{{ */

static double
cli_throughput_best (gint64 items,
                     int    runs)
{
  g_autofree char *count = set_int ("source.count", items);
  const char *sets[] = { count, NULL };
  double best = G_MAXDOUBLE;

  for (int i = 0; i < runs; i++)
    {
      Child child;

      cli_run ("cli-throughput.pool", sets, 0.0, &child);
      cli_check (&child, "cli-throughput.pool", items);
      best = MIN (best, child.wall);
      child_clear (&child);
    }
  return best;
}

void
bench_cli_throughput (void)
{
  JsonObject *obj = section ("cli_throughput");
  double seconds, ratio;

  if (bench_asyncio_process_s == 0.0)
    bench_asyncio ();
  seconds = cli_throughput_best (bench_asyncio_items, 3);
  ratio = bench_asyncio_process_s / seconds;

  json_object_set_string_member (obj, "scenario", "cli-throughput.pool: ok 0, 64 workers, queue 256, real clock");
  json_object_set_int_member (obj, "items", bench_asyncio_items);
  json_object_set_double_member (obj, "process_seconds", seconds);
  json_object_set_double_member (obj, "us_per_item", seconds * 1e6 / bench_asyncio_items);
  json_object_set_double_member (obj, "asyncio_process_seconds", bench_asyncio_process_s);
  json_object_set_double_member (obj, "ratio", ratio);

  add_row ("sluice-run throughput, whole process (s)", "%.3f  (N=%" G_GINT64_FORMAT ", %.3f us/item)",
           seconds, bench_asyncio_items, seconds * 1e6 / bench_asyncio_items);
  add_row ("  asyncio process / sluice-run process", "%.2fx", ratio);
  target_measured ("cli-vs-asyncio", ratio, ratio >= 6.0, "%.2fx", ratio);
}

/* }}} */
/* Scaling with in-flight attempts {{{ */

typedef struct {
  const char *name;          /* JSON section */
  const char *target;
  const char *pool;
  const char *label;
  gboolean    hang;          /* sets the item timeout by the size */
} CliCase;

typedef struct {
  gint64  workers;
  gint64  items;
  double  timeout;           /* 0: the file's */
  double  limit;
} CliSize;

static CliSize
cli_size (const CliCase *c,
          gint64         workers)
{
  CliSize s = { workers, 0, 0.0, bench_opt.quick ? 40.0 : 120.0 };
  gint64 rounds = workers >= 10000 ? (bench_opt.quick ? 1 : 2) : 0;

  if (c->hang)
    {
      s.timeout = MAX (0.01, workers * 30e-6);
      s.items = rounds > 0 ? rounds * workers : (bench_opt.quick ? 1000 : 2000);
    }
  else
    s.items = MAX (bench_opt.quick ? 10000 : 30000, rounds * workers);
  return s;
}

static void
cli_run_size (const CliCase *c,
              const CliSize *s,
              Child         *child)
{
  g_autofree char *workers = set_int ("pool.workers", s->workers);
  g_autofree char *count = set_int ("source.count", s->items);
  g_autofree char *timeout = g_strdup_printf ("pool.item-timeout=%g", s->timeout);
  const char *sets[] = { workers, count, s->timeout > 0.0 ? timeout : NULL, NULL };

  cli_run (c->pool, sets, s->limit, child);
}

/* CPU of the same scenario with no items: what starting costs. */
static double
cli_base_cpu (const CliCase *c)
{
  CliSize s = cli_size (c, 10);
  double best = G_MAXDOUBLE;

  s.items = 0;
  for (int i = 0; i < 3; i++)
    {
      Child child;

      cli_run_size (c, &s, &child);
      cli_check (&child, c->pool, 0);
      best = MIN (best, child.cpu);
      child_clear (&child);
    }
  return best;
}

static JsonObject *
cli_size_json (const CliSize *s,
               const Child   *child,
               double         cpu_us)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "workers", s->workers);
  json_object_set_int_member (o, "items", s->items);
  json_object_set_double_member (o, "item_timeout", s->timeout);
  json_object_set_double_member (o, "process_seconds", child->wall);
  json_object_set_double_member (o, "cpu_seconds", child->cpu);
  json_object_set_int_member (o, "max_rss", child->max_rss);
  json_object_set_boolean_member (o, "killed_at_limit", child->killed);
  json_object_set_double_member (o, "cpu_us_per_item", cpu_us);
  return o;
}

/* Per-item CPU at S, or -1 when sluice-run refused the scenario (WHY). A
 * run killed at its limit gives a lower bound (*KILLED). */
static double
cli_measure (const CliCase *c,
             const CliSize *s,
             double         base_cpu,
             JsonArray     *array,
             gboolean      *killed,
             char         **why)
{
  Child child;
  double cpu_us;

  cli_run_size (c, s, &child);
  if (cli_refused (&child))
    {
      *why = child_first_error_line (&child);
      child_clear (&child);
      return -1.0;
    }
  *killed = child.killed;
  if (!child.killed)
    cli_check (&child, c->pool, s->items);
  cpu_us = MAX (0.0, child.cpu - base_cpu) * 1e6 / s->items;
  json_array_add_object_element (array, cli_size_json (s, &child, cpu_us));
  child_clear (&child);
  return cpu_us;
}

static void
cli_scaling_row (const CliSize *s,
                 double         cpu_us,
                 double         base,
                 gboolean       killed)
{
  g_autofree char *label = g_strdup_printf ("  %6" G_GINT64_FORMAT " workers: CPU/item us (x of 10)", s->workers);

  add_row (label, "%s%.3f (%.2fx)%s", killed ? ">" : "", cpu_us, cpu_us / base,
           killed ? ", killed at the time limit" : "");
}

/* sluice-run's message without "sluice-run: FILE: ". */
static const char *
cli_reason (const char *line)
{
  const char *pool = strstr (line, ".pool: ");

  return pool != NULL ? pool + strlen (".pool: ") : line;
}

/* 100,000 was refused: say why, and measure 10,000 for information. */
static void
cli_scaling_refused (const CliCase *c,
                     double         base_cpu,
                     double         base,
                     JsonArray     *array,
                     const char    *why)
{
  CliSize s = cli_size (c, 10000);
  g_autofree char *why10k = NULL;
  gboolean killed = FALSE;
  double cpu_us;

  add_row ("  100000 workers", "refused: %s", cli_reason (why));
  target_unmeasured (c->target, "sluice-run refuses 100,000 workers: %s", cli_reason (why));
  cpu_us = cli_measure (c, &s, base_cpu, array, &killed, &why10k);
  if (cpu_us >= 0.0)
    cli_scaling_row (&s, cpu_us, base, killed);
}

static void
bench_cli_scaling_one (const CliCase *c)
{
  JsonObject *obj = section (c->name);
  JsonArray *array = json_array_new ();
  double base_cpu = cli_base_cpu (c);
  CliSize small = cli_size (c, 10), big = cli_size (c, 100000);
  g_autofree char *why = NULL;
  gboolean killed = FALSE;
  double base, top;

  add_row (c->label, "%s", "");
  json_object_set_string_member (obj, "scenario", c->pool);
  json_object_set_double_member (obj, "empty_run_cpu_seconds", base_cpu);
  json_object_set_array_member (obj, "sizes", array);
  base = cli_measure (c, &small, base_cpu, array, &killed, &why);
  if (base < 0.0)
    g_error ("sluice-run %s refused 10 workers: %s", c->pool, why);
  cli_scaling_row (&small, base, base, FALSE);

  top = cli_measure (c, &big, base_cpu, array, &killed, &why);
  if (top < 0.0)
    {
      json_object_set_string_member (obj, "refused_100000", why);
      cli_scaling_refused (c, base_cpu, base, array, why);
      return;
    }
  cli_scaling_row (&big, top, base, killed);
  json_object_set_double_member (obj, "ratio_at_100000", top / base);
  target_measured (c->target, top / base, !killed && top / base <= 1.5, "%s%.2fx", killed ? "> " : "",
                   top / base);
}

void
bench_cli_scaling (void)
{
  static const CliCase cases[] = {
    { "cli_scaling_virtual", "scaling-cli-virtual", "cli-scaling-virtual.pool",
      "sluice-run scaling: ok 1.0, virtual clock", FALSE },
    { "cli_scaling_hang", "scaling-cli-hang", "cli-scaling-hang.pool",
      "sluice-run scaling: hang, timeout, real clock", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    bench_cli_scaling_one (&cases[i]);
}

/* }}} */
/* Peak memory against the item count {{{ */

static gint64
cli_peak_rss (gint64  items,
              double *seconds)
{
  g_autofree char *count = set_int ("source.count", items);
  const char *sets[] = { count, NULL };
  Child child;
  gint64 rss;

  cli_run ("cli-throughput.pool", sets, 0.0, &child);
  cli_check (&child, "cli-throughput.pool", items);
  rss = child.max_rss;
  *seconds = child.wall;
  child_clear (&child);
  return rss;
}

void
bench_cli_memory (void)
{
  JsonObject *obj = section ("cli_memory");
  gint64 small_n = bench_opt.quick ? 50000 : 100000;
  gint64 big_n = small_n * 10;
  double small_s, big_s;
  gint64 small_rss = cli_peak_rss (small_n, &small_s);
  gint64 big_rss = cli_peak_rss (big_n, &big_s);
  double growth = (double) big_rss / (double) small_rss;

  json_object_set_string_member (obj, "scenario", "cli-throughput.pool, summary output");
  json_object_set_int_member (obj, "small_items", small_n);
  json_object_set_int_member (obj, "small_max_rss", small_rss);
  json_object_set_double_member (obj, "small_seconds", small_s);
  json_object_set_int_member (obj, "big_items", big_n);
  json_object_set_int_member (obj, "big_max_rss", big_rss);
  json_object_set_double_member (obj, "big_seconds", big_s);
  json_object_set_double_member (obj, "growth", growth);

  add_row ("sluice-run peak RSS (KiB) @ items", "%" G_GINT64_FORMAT " @ %" G_GINT64_FORMAT,
           small_rss / 1024, small_n);
  add_row ("", "%" G_GINT64_FORMAT " @ %" G_GINT64_FORMAT "  (%.3f us/item)",
           big_rss / 1024, big_n, big_s * 1e6 / big_n);
  add_row ("  peak growth, 10x the items", "%.3fx", growth);
  target_measured ("cli-memory-growth", growth, growth <= 1.2, "%.2fx", growth);
}

/* }}} */
