/* bench-pool.c: how fast the pool is, against the limits and against asyncio (issue 5)
 *
 * One run measures, in one process (memory figures in child processes of
 * this same program, so that each peak RSS is its own):
 *
 *   dispatch    the cost of one bare main-loop dispatch (an idle chain)
 *   throughput  `ok 0`, 64 workers, queue 256, real clock: items/s and
 *               per-item cost in dispatches (target ≤ 8)
 *   asyncio     the same scenario in tests/bench/asyncio_pool.py, as a
 *               subprocess: Sluice/asyncio throughput (target ≥ 20×)
 *   scaling     `ok 1.0` on the virtual clock and `ok 0.05` on the real
 *               clock with 10...10,000 workers: per-item CPU cost relative to
 *               10 workers (target ≤ 2× at 10,000)
 *   memory      peak RSS with 10,000 attempts in flight (bytes per
 *               attempt); with 100k and 1M items through a small queue
 *               (must not grow with the item count)
 *   precision   1,000 `hang` attempts, item timeout 0.1 s, real clock:
 *               lateness of the timeout, from the event stream
 *
 * Prints a table and writes every figure to a JSON file (by default
 * bench/results.json in the build directory). `--only NAME` runs one
 * measurement and prints its JSON object; `--items N` changes the item
 * count of throughput and mem-items (for profiling: --only throughput
 * --items 20000 under callgrind).
 *
 * Every delay of a handler goes through the pool's SluiceClock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <json-glib/json-glib.h>
#include <sluice.h>

#ifndef BENCH_ASYNCIO_SCRIPT
# define BENCH_ASYNCIO_SCRIPT "asyncio_pool.py"
#endif
#ifndef BENCH_RESULTS
# define BENCH_RESULTS "bench/results.json"
#endif

#define S(seconds) ((gint64) ((seconds) * G_USEC_PER_SEC))

/* Options {{{ */

static const char *opt_only;
static gint64 opt_items;
static gint64 opt_asyncio_items = 50000;
static const char *opt_json = BENCH_RESULTS;
static const char *opt_asyncio = BENCH_ASYNCIO_SCRIPT;
static gboolean opt_quick;

/* }}} */
/* Time and memory {{{ */

static double
wall_now (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* A "Vm...:  1234 kB" line of /proc/self/status, in bytes. */
static gint64
proc_status_bytes (const char *field)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gsize len = strlen (field);

  if (!g_file_get_contents ("/proc/self/status", &text, NULL, NULL))
    return -1;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strncmp (lines[i], field, len) == 0 && lines[i][len] == ':')
      return g_ascii_strtoll (lines[i] + len + 1, NULL, 10) * 1024;
  return -1;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentile of a sorted array. */
static double
percentile (const GArray *sorted,
            double        p)
{
  guint rank;

  if (sorted->len == 0)
    return 0.0;
  rank = (guint) MAX (1.0, (p / 100.0) * sorted->len + 0.999999);
  return g_array_index (sorted, double, MIN (rank, sorted->len) - 1);
}

/* }}} */
/* A lazy source: items are made when pulled, so a million items cost no
 * memory up front (SluiceArraySource holds every item). {{{ */

#define BENCH_TYPE_SOURCE (bench_source_get_type ())
G_DECLARE_FINAL_TYPE (BenchSource, bench_source, BENCH, SOURCE, GObject)

struct _BenchSource
{
  GObject parent_instance;
  gint64  next;
  gint64  count;
};

static void bench_source_iface_init (SluiceSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchSource, bench_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, bench_source_iface_init))

static void
bench_source_next_async (SluiceSource        *source,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  BenchSource *self = BENCH_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  if (g_task_return_error_if_cancelled (task))
    return;
  if (self->next < self->count)
    g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (self->next++)),
                           (GDestroyNotify) g_variant_unref);
  else
    g_task_return_pointer (task, NULL, NULL);
}

static GVariant *
bench_source_next_finish (SluiceSource  *source,
                          GAsyncResult  *result,
                          GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
bench_source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = bench_source_next_async;
  iface->next_finish = bench_source_next_finish;
}

static void
bench_source_class_init (BenchSourceClass *klass)
{
}

static void
bench_source_init (BenchSource *self)
{
}

static SluiceSource *
bench_source_new (gint64 count)
{
  BenchSource *self = g_object_new (BENCH_TYPE_SOURCE, NULL);

  self->count = count;
  return SLUICE_SOURCE (self);
}

/* }}} */
/* Handlers: `ok DELAY` and `hang`, timed on the pool's clock {{{ */

typedef enum {
  DO_OK,    /* return the item after a delay on the pool's clock */
  DO_HANG,  /* never finish until cancelled */
} Doing;

typedef struct {
  SluiceClock *clock;
  Doing        doing;
  gint64       delay;
  guint        concurrent;
  guint        max_concurrent;
  GArray      *deadlines;   /* gint64 per item index, for precision */
} Script;

typedef struct {
  Script        *script;
  GTask         *task;      /* owned */
  SluiceAttempt *attempt;   /* the task's data */
  gulong         cancel_id;
} Call;

static void
call_return (Call     *call,
             GVariant *result,
             GError   *error)
{
  call->script->concurrent--;
  if (call->cancel_id != 0)
    g_signal_handler_disconnect (sluice_attempt_get_cancellable (call->attempt), call->cancel_id);
  if (error != NULL)
    g_task_return_error (call->task, error);
  else
    g_task_return_pointer (call->task, result, (GDestroyNotify) g_variant_unref);
  g_object_unref (call->task);
  g_free (call);
}

static void
on_ok_timer (gpointer data)
{
  Call *call = data;

  call_return (call, g_variant_ref (sluice_attempt_get_item (call->attempt)), NULL);
}

static void
on_hang_cancel_timer (gpointer data)
{
  call_return (data, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
}

/* Inside g_cancellable_cancel(): finish on the next turn, through the clock. */
static void
on_hang_cancelled (GCancellable *cancellable,
                   Call         *call)
{
  sluice_clock_add_timeout (call->script->clock, 0, on_hang_cancel_timer, call, NULL);
}

static void
script_handle (SluiceAttempt *attempt,
               GTask         *task,
               gpointer       user_data)
{
  Script *script = user_data;
  Call *call = g_new0 (Call, 1);

  call->script = script;
  call->task = task;
  call->attempt = attempt;

  script->concurrent++;
  script->max_concurrent = MAX (script->max_concurrent, script->concurrent);

  if (script->deadlines != NULL)
    {
      gint64 index = sluice_attempt_get_item_index (attempt);

      if ((guint) index >= script->deadlines->len)
        g_array_set_size (script->deadlines, index + 1);
      g_array_index (script->deadlines, gint64, index) = sluice_attempt_get_deadline (attempt);
    }

  if (script->doing == DO_OK)
    sluice_clock_add_timeout (script->clock, script->delay, on_ok_timer, call, NULL);
  else
    call->cancel_id = g_signal_connect (sluice_attempt_get_cancellable (attempt), "cancelled",
                                        G_CALLBACK (on_hang_cancelled), call);
}

/* }}} */
/* Driving a run to its end, like `async for` {{{ */

typedef struct {
  SluiceClockKind  clock_kind;
  Doing            doing;
  double           delay;
  gint             workers;
  gint             queue_size;
  double           item_timeout;
  gint64           items;
  gboolean         keep_going;
  SluiceEventFunc  event_func;
  gpointer         event_data;
  gboolean         track_deadlines;
} Scenario;

typedef struct {
  double   wall;           /* seconds, run start to end */
  double   cpu;            /* process CPU seconds, same span */
  gint64   results;
  guint    max_concurrent;
  gint64   hwm_before;     /* VmHWM when the run starts, bytes */
  gint64   hwm_after;
  gint64   clock_elapsed;  /* us of the pool's clock */
  gint64   turns;          /* main-loop iterations */
  GArray  *deadlines;      /* transferred when track_deadlines */
} Outcome;

typedef struct {
  SluiceRun *run;
  gint64     results;
  gboolean   ended;
  gboolean   stalled;
  GError    *error;
} Drive;

static void on_next (GObject *object, GAsyncResult *res, gpointer user_data);

static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Drive *drive = user_data;
  GVariant *result = sluice_run_next_finish (SLUICE_RUN (object), res, &drive->error);

  if (result == NULL)
    {
      drive->ended = TRUE;
      return;
    }
  g_variant_unref (result);
  drive->results++;
  sluice_run_next_async (drive->run, NULL, on_next, drive);
}

static void
on_stalled (SluiceClock *clock,
            Drive       *drive)
{
  drive->stalled = TRUE;
}

static SluicePool *
make_pool (const Scenario *sc,
           SluiceClock    *clock,
           Script         *script)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (script_handle, script, NULL);
  g_autoptr(GError) error = NULL;
  SluicePool *pool;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                         "handler", handler,
                         "clock", clock,
                         "workers", sc->workers,
                         "queue-size", sc->queue_size,
                         "item-timeout", sc->item_timeout,
                         "keep-going", sc->keep_going,
                         NULL);
  if (pool == NULL)
    g_error ("pool: %s", error->message);
  if (sc->event_func != NULL)
    sluice_pool_set_event_func (pool, sc->event_func, sc->event_data, NULL);
  return pool;
}

static Outcome
run_scenario (const Scenario *sc)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (sc->clock_kind);
  g_autoptr(SluiceSource) source = bench_source_new (sc->items);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(GError) error = NULL;
  Script script = { 0 };
  Drive drive = { 0 };
  Outcome out = { 0 };
  double wall0, cpu0;
  gint64 clock0;

  script.clock = clock;
  script.doing = sc->doing;
  script.delay = S (sc->delay);
  if (sc->track_deadlines)
    script.deadlines = g_array_new (FALSE, TRUE, sizeof (gint64));

  pool = make_pool (sc, clock, &script);
  g_signal_connect (clock, "stalled", G_CALLBACK (on_stalled), &drive);
  drive.run = sluice_pool_run (pool, source, &error);
  if (drive.run == NULL)
    g_error ("run: %s", error->message);

  out.hwm_before = proc_status_bytes ("VmHWM");
  clock0 = sluice_clock_now (clock);
  wall0 = wall_now ();
  cpu0 = cpu_now ();

  sluice_run_next_async (drive.run, NULL, on_next, &drive);
  while (!drive.ended && !drive.stalled)
    {
      g_main_context_iteration (NULL, TRUE);
      out.turns++;
    }

  out.cpu = cpu_now () - cpu0;
  out.wall = wall_now () - wall0;
  out.clock_elapsed = sluice_clock_now (clock) - clock0;
  out.hwm_after = proc_status_bytes ("VmHWM");
  out.results = drive.results;
  out.max_concurrent = script.max_concurrent;
  out.deadlines = script.deadlines;

  if (drive.stalled)
    g_error ("the virtual clock stalled: %s", sluice_run_describe_waiting (drive.run));
  if (drive.error != NULL && !sc->keep_going)
    g_error ("run ended with: %s", drive.error->message);
  if (sluice_run_get_live_operations (drive.run) != 0)
    g_error ("operations still alive after the run");

  g_clear_error (&drive.error);
  g_object_unref (drive.run);
  return out;
}

/* }}} */
/* Report: a table and a JSON object {{{ */

typedef struct {
  char   *name;
  char   *value;
  char   *target;   /* NULL: no target */
  int     met;      /* -1: no target, 0: missed, 1: met */
} Row;

static GPtrArray *rows;
static JsonObject *root;

static void
row_free (Row *row)
{
  g_free (row->name);
  g_free (row->value);
  g_free (row->target);
  g_free (row);
}

G_GNUC_PRINTF (3, 4)
static void
add_row (const char *name,
         const char *target,
         const char *format,
         ...)
{
  Row *row = g_new0 (Row, 1);
  va_list args;

  va_start (args, format);
  row->value = g_strdup_vprintf (format, args);
  va_end (args);
  row->name = g_strdup (name);
  row->target = g_strdup (target);
  row->met = -1;
  g_ptr_array_add (rows, row);
}

static void
set_met (gboolean met)
{
  Row *row = g_ptr_array_index (rows, rows->len - 1);

  row->met = met ? 1 : 0;
}

static JsonObject *
section (const char *name)
{
  JsonObject *obj;

  if (!json_object_has_member (root, name))
    json_object_set_object_member (root, name, json_object_new ());
  obj = json_object_get_object_member (root, name);
  return obj;
}

static void
print_table (void)
{
  g_print ("\n%-52s %22s  %-10s %s\n", "measurement", "value", "target", "");
  g_print ("%-52s %22s  %-10s %s\n",
           "----------------------------------------------------",
           "----------------------", "----------", "------");
  for (guint i = 0; i < rows->len; i++)
    {
      Row *row = g_ptr_array_index (rows, i);

      g_print ("%-52s %22s  %-10s %s\n", row->name, row->value,
               row->target != NULL ? row->target : "",
               row->met < 0 ? "" : row->met ? "met" : "MISSED");
    }
}

/* }}} */
/* Child processes {{{ */

static JsonObject *
parse_object (const char *text,
              const char *what)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *node;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("%s printed no JSON: %s\n%s", what, error->message, text);
  node = json_parser_get_root (parser);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    g_error ("%s printed no JSON object", what);
  return json_object_ref (json_node_get_object (node));
}

static JsonObject *
run_child (const char * const *argv,
           gboolean            search_path)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  gint status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     search_path ? G_SPAWN_SEARCH_PATH : G_SPAWN_DEFAULT,
                     NULL, NULL, &out, &err, &status, &error))
    g_error ("cannot run %s: %s", argv[0], error->message);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("%s %s: %s\n%s", argv[0], argv[1], error->message, err);
  return parse_object (out, argv[0]);
}

static JsonObject *
run_self (const char *only,
          gint64      items)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *count = g_strdup_printf ("%" G_GINT64_FORMAT, items);
  const char *argv[] = { self, "--only", only, "--items", count, NULL };

  return run_child (argv, FALSE);
}

/* }}} */
/* 0. One bare main-loop dispatch {{{ */

typedef struct {
  gint64   left;
  gboolean done;
} Chain;

static gboolean
chain_step (gpointer data)
{
  Chain *chain = data;

  if (--chain->left > 0)
    g_idle_add (chain_step, chain);
  else
    chain->done = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
repeat_step (gpointer data)
{
  Chain *chain = data;

  if (--chain->left > 0)
    return G_SOURCE_CONTINUE;
  chain->done = TRUE;
  return G_SOURCE_REMOVE;
}

/* us per dispatch of an idle chain: each callback adds the next idle. */
static double
measure_dispatch (gboolean chain_sources,
                  gint64   n)
{
  Chain chain = { n, FALSE };
  double t0 = wall_now ();

  g_idle_add (chain_sources ? chain_step : repeat_step, &chain);
  while (!chain.done)
    g_main_context_iteration (NULL, TRUE);
  return (wall_now () - t0) * 1e6 / (double) n;
}

static double dispatch_us;

static void
bench_dispatch (void)
{
  JsonObject *obj = section ("dispatch");
  gint64 n = opt_quick ? 100000 : 300000;
  double chain = G_MAXDOUBLE, repeat = G_MAXDOUBLE;

  /* Best of three: the floor of the cost, robust to a noisy machine. */
  for (int i = 0; i < 3; i++)
    {
      chain = MIN (chain, measure_dispatch (TRUE, n));
      repeat = MIN (repeat, measure_dispatch (FALSE, n));
    }
  dispatch_us = chain;

  json_object_set_int_member (obj, "iterations", n);
  json_object_set_double_member (obj, "idle_chain_us", chain);
  json_object_set_double_member (obj, "idle_repeat_us", repeat);
  add_row ("main-loop dispatch, idle chain (us)", NULL, "%.3f", chain);
  add_row ("main-loop dispatch, one idle repeating (us)", NULL, "%.3f", repeat);
}

/* }}} */
/* 1. Throughput {{{ */

static double sluice_items_per_s;

static Outcome
throughput_run (gint64 items,
                gint   queue_size)
{
  Scenario sc = {
    .clock_kind = SLUICE_CLOCK_REAL, .doing = DO_OK, .delay = 0.0,
    .workers = 64, .queue_size = queue_size, .item_timeout = 10.0, .items = items,
  };
  Outcome out = run_scenario (&sc);

  if (out.results != items)
    g_error ("throughput: %" G_GINT64_FORMAT " results of %" G_GINT64_FORMAT, out.results, items);
  return out;
}

static void
bench_throughput (void)
{
  JsonObject *obj = section ("throughput");
  gint64 items = opt_items > 0 ? opt_items : opt_quick ? 50000 : 200000;
  Outcome best = { 0 };
  double us, per_dispatch;

  /* Best of two runs. */
  for (int i = 0; i < 2; i++)
    {
      Outcome out = throughput_run (items, 256);

      if (i == 0 || out.wall < best.wall)
        best = out;
    }

  sluice_items_per_s = items / best.wall;
  us = best.wall * 1e6 / items;
  per_dispatch = us / dispatch_us;

  json_object_set_string_member (obj, "scenario", "ok 0, 64 workers, queue 256, real clock");
  json_object_set_int_member (obj, "items", items);
  json_object_set_double_member (obj, "seconds", best.wall);
  json_object_set_double_member (obj, "cpu_seconds", best.cpu);
  json_object_set_double_member (obj, "items_per_s", sluice_items_per_s);
  json_object_set_double_member (obj, "us_per_item", us);
  json_object_set_double_member (obj, "dispatches_per_item", per_dispatch);
  json_object_set_double_member (obj, "main_loop_turns_per_item", (double) best.turns / items);
  json_object_set_double_member (obj, "target_dispatches_per_item", 8.0);
  json_object_set_boolean_member (obj, "met", per_dispatch <= 8.0);

  add_row ("throughput ok 0, 64 w, q 256 (items/s)", NULL, "%.0f", sluice_items_per_s);
  add_row ("  per item (us)", NULL, "%.3f", us);
  add_row ("  per item / one dispatch", "<= 8", "%.1f", per_dispatch);
  set_met (per_dispatch <= 8.0);
  add_row ("  main-loop turns per item", NULL, "%.2f", (double) best.turns / items);
}

/* }}} */
/* 2. Against asyncio {{{ */

static void
bench_asyncio (void)
{
  JsonObject *obj = section ("asyncio");
  g_autofree char *items = g_strdup_printf ("%" G_GINT64_FORMAT,
                                            opt_quick ? opt_asyncio_items / 5 : opt_asyncio_items);
  const char *argv[] = { "python3", opt_asyncio, "--items", items, NULL };
  g_autoptr(JsonObject) py = run_child (argv, TRUE);
  double py_rate = json_object_get_double_member (py, "items_per_s");
  double ratio = sluice_items_per_s / py_rate;

  json_object_set_string_member (obj, "python", json_object_get_string_member (py, "python"));
  json_object_set_int_member (obj, "items", json_object_get_int_member (py, "items"));
  json_object_set_double_member (obj, "seconds", json_object_get_double_member (py, "seconds"));
  json_object_set_double_member (obj, "items_per_s", py_rate);
  json_object_set_double_member (obj, "us_per_item", json_object_get_double_member (py, "us_per_item"));
  json_object_set_double_member (obj, "sluice_items_per_s", sluice_items_per_s);
  json_object_set_double_member (obj, "ratio", ratio);
  json_object_set_double_member (obj, "target_ratio", 20.0);
  json_object_set_boolean_member (obj, "met", ratio >= 20.0);

  add_row ("asyncio, same scenario (items/s)", NULL, "%.0f  (N=%s)", py_rate, items);
  add_row ("  Sluice / asyncio", ">= 20", "%.1fx", ratio);
  set_met (ratio >= 20.0);
}

/* }}} */
/* 3. Scaling with in-flight attempts {{{ */

static void
bench_scaling_one (const char      *name,
                   SluiceClockKind  kind,
                   double           delay,
                   gint64           min_items,
                   gint64           rounds)
{
  static const gint sizes[] = { 10, 100, 1000, 10000 };
  JsonObject *obj = section (name);
  JsonArray *array = json_array_new ();
  double base = 0.0;

  json_object_set_string_member (obj, "scenario",
                                 kind == SLUICE_CLOCK_VIRTUAL ? "ok 1.0, virtual clock, queue 256"
                                                              : "ok 0.05, real clock, queue 256");
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      /* 10,000 workers run few rounds (each round is 10,000 items): the
       * whole suite has to stay within a few minutes. */
      gint64 items = MAX (min_items, (sizes[i] >= 10000 ? MIN (rounds, 3) : rounds) * sizes[i]);
      Scenario sc = {
        .clock_kind = kind, .doing = DO_OK, .delay = delay, .workers = sizes[i],
        .queue_size = 256, .item_timeout = 10.0, .items = items,
      };
      Outcome out = run_scenario (&sc);
      JsonObject *o = json_object_new ();
      double cpu_us = out.cpu * 1e6 / items;
      double ratio;
      g_autofree char *label = NULL;

      if (out.results != items)
        g_error ("%s: %" G_GINT64_FORMAT " results of %" G_GINT64_FORMAT, name, out.results, items);
      if (i == 0)
        base = cpu_us;
      ratio = cpu_us / base;

      json_object_set_int_member (o, "workers", sizes[i]);
      json_object_set_int_member (o, "items", items);
      json_object_set_int_member (o, "max_in_flight", out.max_concurrent);
      json_object_set_double_member (o, "seconds", out.wall);
      json_object_set_double_member (o, "cpu_seconds", out.cpu);
      json_object_set_double_member (o, "clock_seconds", out.clock_elapsed / 1e6);
      json_object_set_double_member (o, "cpu_us_per_item", cpu_us);
      json_object_set_double_member (o, "relative_to_10", ratio);
      json_array_add_object_element (array, o);

      label = g_strdup_printf ("  %5d workers: CPU/item us (x of 10 w)", sizes[i]);
      add_row (label, sizes[i] == 10000 ? "<= 2x" : NULL, "%.3f (%.2fx)", cpu_us, ratio);
      if (sizes[i] == 10000)
        {
          set_met (ratio <= 2.0);
          json_object_set_double_member (obj, "ratio_at_10000", ratio);
          json_object_set_boolean_member (obj, "met", ratio <= 2.0);
        }
    }
  json_object_set_array_member (obj, "sizes", array);
}

static void
bench_scaling_virtual (void)
{
  add_row ("scaling: ok 1.0, virtual clock", NULL, "%s", "");
  bench_scaling_one ("scaling_virtual", SLUICE_CLOCK_VIRTUAL, 1.0,
                     opt_quick ? 10000 : 30000, 20);
}

static void
bench_scaling_real (void)
{
  add_row ("scaling: ok 0.05, real clock", NULL, "%s", "");
  bench_scaling_one ("scaling_real", SLUICE_CLOCK_REAL, 0.05, 0, opt_quick ? 5 : 20);
}

/* }}} */
/* 4. Memory (each in a child process of its own) {{{ */

/* Child: 10,000 attempts in flight at once (ok 1.0 on the virtual clock). */
static JsonObject *
child_mem_inflight (void)
{
  Scenario sc = {
    .clock_kind = SLUICE_CLOCK_VIRTUAL, .doing = DO_OK, .delay = 1.0, .workers = 10000,
    .queue_size = 256, .item_timeout = 10.0, .items = 10000,
  };
  Outcome out = run_scenario (&sc);
  JsonObject *obj = json_object_new ();

  json_object_set_int_member (obj, "in_flight", out.max_concurrent);
  json_object_set_int_member (obj, "hwm_before", out.hwm_before);
  json_object_set_int_member (obj, "hwm_after", out.hwm_after);
  json_object_set_double_member (obj, "bytes_per_attempt",
                                 (double) (out.hwm_after - out.hwm_before) / MAX (1u, out.max_concurrent));
  return obj;
}

/* Child: N items through a small queue, ok 0 on the real clock. */
static JsonObject *
child_mem_items (gint64 items,
                 gint   queue_size)
{
  Outcome out = throughput_run (items, queue_size);
  JsonObject *obj = json_object_new ();

  json_object_set_int_member (obj, "items", items);
  json_object_set_int_member (obj, "hwm_before", out.hwm_before);
  json_object_set_int_member (obj, "hwm_after", out.hwm_after);
  json_object_set_double_member (obj, "seconds", out.wall);
  json_object_set_double_member (obj, "turns_per_item", (double) out.turns / items);
  return obj;
}

static void
bench_memory (void)
{
  JsonObject *obj = section ("memory");
  g_autoptr(JsonObject) inflight = run_self ("mem-inflight", 0);
  gint64 small_n = opt_quick ? 20000 : 100000;
  gint64 big_n = opt_quick ? 200000 : 1000000;
  g_autoptr(JsonObject) small = run_self ("mem-items", small_n);
  g_autoptr(JsonObject) big = run_self ("mem-items", big_n);
  double per_attempt = json_object_get_double_member (inflight, "bytes_per_attempt");
  gint64 small_hwm = json_object_get_int_member (small, "hwm_after");
  gint64 big_hwm = json_object_get_int_member (big, "hwm_after");
  double growth = (double) big_hwm / (double) small_hwm;

  json_object_set_object_member (obj, "in_flight_10000", json_object_ref (inflight));
  json_object_set_object_member (obj, "items_small", json_object_ref (small));
  json_object_set_object_member (obj, "items_big", json_object_ref (big));
  json_object_set_double_member (obj, "peak_growth", growth);
  json_object_set_double_member (obj, "target_peak_growth", 1.10);
  json_object_set_boolean_member (obj, "met", growth <= 1.10);

  add_row ("memory: 10,000 in flight, peak RSS (KiB)", NULL, "%" G_GINT64_FORMAT,
           json_object_get_int_member (inflight, "hwm_after") / 1024);
  add_row ("  bytes per in-flight attempt", NULL, "%.0f", per_attempt);
  add_row ("memory: queue 16, peak RSS (KiB) @ items", NULL, "%" G_GINT64_FORMAT " @ %" G_GINT64_FORMAT,
           small_hwm / 1024, small_n);
  add_row ("", NULL, "%" G_GINT64_FORMAT " @ %" G_GINT64_FORMAT, big_hwm / 1024, big_n);
  add_row ("  peak growth, 10x the items", "<= 1.10x", "%.3fx", growth);
  set_met (growth <= 1.10);
}

/* }}} */
/* 5. Timer precision {{{ */

typedef struct {
  GArray *round1;    /* (event time, item index) of CANCEL_REQUEST round 1 */
  GArray *ended;     /* the same, of ATTEMPT_END with TIMED_OUT */
} Lateness;

typedef struct {
  gint64 time;
  gint64 item;
} Stamp;

static void
record_lateness (const SluiceEvent *event,
                 gpointer           user_data)
{
  Lateness *l = user_data;
  Stamp stamp = { event->time, event->item };

  if (event->kind == SLUICE_EVENT_CANCEL_REQUEST && event->round == 1)
    g_array_append_val (l->round1, stamp);
  else if (event->kind == SLUICE_EVENT_ATTEMPT_END && event->outcome == SLUICE_OUTCOME_TIMED_OUT)
    g_array_append_val (l->ended, stamp);
}

static GArray *
lateness_ms (GArray *stamps,
             GArray *deadlines)
{
  GArray *ms = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < stamps->len; i++)
    {
      Stamp *s = &g_array_index (stamps, Stamp, i);
      double late = (s->time - g_array_index (deadlines, gint64, s->item)) / 1000.0;

      g_array_append_val (ms, late);
    }
  g_array_sort (ms, compare_doubles);
  return ms;
}

static void
report_lateness (JsonObject *obj,
                 const char *key,
                 const char *label,
                 GArray     *ms)
{
  JsonObject *o = json_object_new ();

  json_object_set_int_member (o, "samples", ms->len);
  json_object_set_double_member (o, "p50_ms", percentile (ms, 50));
  json_object_set_double_member (o, "p99_ms", percentile (ms, 99));
  json_object_set_double_member (o, "max_ms", percentile (ms, 100));
  json_object_set_object_member (obj, key, o);
  add_row (label, NULL, "%.3f / %.3f / %.3f",
           percentile (ms, 50), percentile (ms, 99), percentile (ms, 100));
}

static void
bench_precision (void)
{
  JsonObject *obj = section ("precision");
  Lateness l = {
    g_array_new (FALSE, FALSE, sizeof (Stamp)),
    g_array_new (FALSE, FALSE, sizeof (Stamp)),
  };
  Scenario sc = {
    .clock_kind = SLUICE_CLOCK_REAL, .doing = DO_HANG, .workers = 1000, .queue_size = 256,
    .item_timeout = 0.1, .items = 1000, .keep_going = TRUE,
    .event_func = record_lateness, .event_data = &l, .track_deadlines = TRUE,
  };
  Outcome out = run_scenario (&sc);
  g_autoptr(GArray) round1 = lateness_ms (l.round1, out.deadlines);
  g_autoptr(GArray) ended = lateness_ms (l.ended, out.deadlines);

  if (l.round1->len != 1000 || l.ended->len != 1000)
    g_error ("precision: %u cancel requests, %u timeouts of 1000", l.round1->len, l.ended->len);

  json_object_set_string_member (obj, "scenario",
                                 "1000 hang attempts at once, item-timeout 0.1 s, real clock");
  json_object_set_int_member (obj, "max_in_flight", out.max_concurrent);
  report_lateness (obj, "cancel_request", "timeout lateness p50/p99/max (ms)", round1);
  report_lateness (obj, "attempt_end", "  attempt end (TIMED_OUT) p50/p99/max", ended);

  g_array_unref (l.round1);
  g_array_unref (l.ended);
  g_array_unref (out.deadlines);
}

/* }}} */

static void
write_json (void)
{
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (opt_json);

  json_node_set_object (node, root);
  json_generator_set_root (gen, node);
  json_generator_set_pretty (gen, TRUE);
  g_mkdir_with_parents (dir, 0755);
  if (!json_generator_to_file (gen, opt_json, &error))
    g_error ("cannot write %s: %s", opt_json, error->message);
  g_print ("\nwrote %s\n", opt_json);
}

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
  g_print ("machine: %s, %u CPUs, GLib %u.%u.%u\n", model != NULL ? model : "unknown",
           g_get_num_processors (), glib_major_version, glib_minor_version, glib_micro_version);
}

typedef struct {
  const char *name;
  void      (*func) (void);
} Bench;

static const Bench benches[] = {
  { "dispatch",        bench_dispatch },
  { "throughput",      bench_throughput },
  { "asyncio",         bench_asyncio },
  { "scaling-virtual", bench_scaling_virtual },
  { "scaling-real",    bench_scaling_real },
  { "memory",          bench_memory },
  { "precision",       bench_precision },
};

static void
print_object (JsonObject *obj)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, obj);
  text = json_to_string (node, FALSE);
  g_print ("%s\n", text);
}

int
main (int   argc,
      char *argv[])
{
  GOptionEntry entries[] = {
    { "only", 0, 0, G_OPTION_ARG_STRING, &opt_only,
      "Run one measurement: dispatch, throughput, asyncio, scaling-virtual, scaling-real, memory, "
      "precision; or a child: mem-inflight, mem-items, profile (the throughput case alone)", "NAME" },
    { "items", 0, 0, G_OPTION_ARG_INT64, &opt_items, "Items for throughput and mem-items", "N" },
    { "asyncio-items", 0, 0, G_OPTION_ARG_INT64, &opt_asyncio_items, "Items for the asyncio run (default 50000)", "N" },
    { "asyncio", 0, 0, G_OPTION_ARG_FILENAME, &opt_asyncio, "Path of asyncio_pool.py", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &opt_json, "Where to write the results", "FILE" },
    { "quick", 0, 0, G_OPTION_ARG_NONE, &opt_quick, "Fewer items everywhere (a smoke run)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("- Sluice benchmarks (issue 5)");
  g_autoptr(GError) error = NULL;
  double t0 = wall_now ();

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }

  /* Children (and the profiling target) print one JSON object and
   * nothing else. */
  if (g_strcmp0 (opt_only, "mem-inflight") == 0)
    {
      g_autoptr(JsonObject) obj = child_mem_inflight ();
      print_object (obj);
      return 0;
    }
  if (g_strcmp0 (opt_only, "mem-items") == 0)
    {
      g_autoptr(JsonObject) obj = child_mem_items (opt_items > 0 ? opt_items : 100000, 16);
      print_object (obj);
      return 0;
    }
  if (g_strcmp0 (opt_only, "profile") == 0)
    {
      /* The throughput case alone, for callgrind or perf. */
      g_autoptr(JsonObject) obj = child_mem_items (opt_items > 0 ? opt_items : 20000, 256);
      print_object (obj);
      return 0;
    }

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  root = json_object_new ();
  describe_machine ();

  for (guint i = 0; i < G_N_ELEMENTS (benches); i++)
    {
      if (opt_only != NULL && !g_str_equal (opt_only, benches[i].name))
        continue;
      /* Ratios need their reference measured in this run. */
      if (opt_only != NULL && dispatch_us == 0.0 && benches[i].func == bench_throughput)
        bench_dispatch ();
      if (opt_only != NULL && sluice_items_per_s == 0.0 && benches[i].func == bench_asyncio)
        bench_throughput ();
      g_printerr ("[%6.1fs] %s...\n", wall_now () - t0, benches[i].name);
      benches[i].func ();
    }

  json_object_set_double_member (root, "total_seconds", wall_now () - t0);
  print_table ();
  g_print ("\ntotal %.1f s\n", wall_now () - t0);
  if (opt_only == NULL)
    write_json ();
  else
    print_object (root);

  g_ptr_array_unref (rows);
  json_object_unref (root);
  return 0;
}
