/* bench.h: what the files of the benchmark share (issues 5 and 11)
 *
 *   bench-pool.c      main: options, the list of measurements, the children
 *   bench-util.c      time, memory, percentiles, child processes
 *   bench-report.c    the table of figures, the table of targets, the JSON
 *   bench-source.c    a lazy source of N integers
 *   bench-scenario.c  the `ok`/`hang` handlers and one run driven to its end
 *   bench-engine.c    dispatch, throughput, scaling and timer precision
 *   bench-memory.c    peak RSS of the engine, each in a child process
 *   bench-peers.c     the asyncio, uvloop and Go pools, as child processes
 *   bench-pool-cli.c  sluice-run as a whole process
 *   bench-app.c       the desktop app under Xvfb, against sluice-run; scrubbing
 *                     a 100k-event run in it (issue 13)
 *   bench-scrub.c     scrubbing a recorded run, headless (issue 13)
 *   bench-window.c    a 50k-item run in the window at full speed, per
 *                     renderer, against sluice-run (issue 24)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sluice.h>

#define S(seconds) sluice_time_from_seconds (seconds)

/* Options (bench-pool.c) {{{ */

typedef struct {
  const char *only;
  gint64      items;          /* throughput and mem-items; 0: the default */
  gint64      workers;        /* the inflight child's; 0: the default */
  gint64      asyncio_items;
  const char *json;
  const char *asyncio;        /* asyncio_pool.py */
  const char *python;         /* the interpreter of the asyncio reference */
  const char *uvloop_python;  /* the interpreter that has uvloop */
  const char *go;             /* the Go peer's binary; "" when not built */
  const char *sluice_run;
  const char *app;            /* the desktop app's binary; "" when not built */
  const char *schema_dir;     /* its compiled GSettings schema */
  const char *data_dir;       /* its presets and lessons (the source's data/) */
  const char *pool_dir;       /* where the bench's .pool files are */
  gboolean    quick;
} BenchOptions;

extern BenchOptions bench_opt;

/* }}} */
/* Time, memory, percentiles (bench-util.c) {{{ */

double wall_now (void);
double cpu_now (void);
gint64 proc_status_bytes (const char *field);
int    compare_doubles (const void *a, const void *b);
double percentile (const GArray *sorted, double p);
double median3 (double a, double b, double c);

/* }}} */
/* Child processes (bench-util.c) {{{ */

typedef struct {
  gboolean ran;       /* started (FALSE: not found or not executable) */
  gboolean killed;    /* still running at the time limit */
  int      status;    /* wait status */
  double   wall;      /* seconds, fork to exit */
  double   cpu;       /* user + system seconds */
  gint64   max_rss;   /* bytes */
  char    *out;       /* standard output */
  char    *err;       /* standard error */
} Child;

/* Runs ARGV (searched in PATH) with ENV (NULL-terminated "NAME=value"
 * pairs, or NULL) added to the environment, its output captured. A
 * LIMIT > 0 kills it after so many seconds. */
void        child_run (const char * const *argv, const char * const *env, double limit, Child *child);
void        child_clear (Child *child);
gboolean    child_exited_ok (const Child *child);
char       *child_first_error_line (const Child *child);
JsonObject *child_json (const Child *child, const char *what);
/* sluice-run POOL --clock virtual, a whole process within LIMIT seconds:
 * its wall seconds. */
double      headless_run (const char *pool, double limit);
/* Runs the app (ARGV, ENV as child_run's) within LIMIT seconds, and reads
 * the JSON object it wrote to STATS (removed first); NULL with *WHY when
 * the app failed or wrote no WHAT. */
JsonObject *app_run_stats (const char * const *argv, const char * const *env, double limit,
                           const char *stats, const char *what, char **why);
/* Member NAME of the app's statistics, a number (it must be there). */
double      stats_member (JsonObject *stats, const char *name);
/* Removes DIR's files and folders NAMES (the innermost first), then DIR. */
void        remove_in_dir (const char *dir, const char * const *names, gsize n_names);
JsonObject *run_child_json (const char * const *argv, const char * const *env);
JsonObject *run_self (const char *only, gint64 items);
int         bench_spawn_main (int argc, char **argv);   /* `--spawn LIMIT -- PATH ARG...` */

/* }}} */
/* Report (bench-report.c) {{{ */

void        report_init (void);
void        report_free (void);
G_GNUC_PRINTF (2, 3)
void        add_row (const char *name, const char *format, ...);
JsonObject *section (const char *name);
JsonObject *report_root (void);

/* Issue 11's targets, printed last in the order: ID is one of
 * those in bench-report.c; the text says VALUE with its unit. */
G_GNUC_PRINTF (4, 5)
void target_measured (const char *id, double value, gboolean met, const char *text_format, ...);
G_GNUC_PRINTF (2, 3)
void target_unmeasured (const char *id, const char *why_format, ...);

void print_table (void);
void print_targets (void);
void write_json (const char *path);
void print_object (JsonObject *obj);

/* }}} */
/* The source and the scenario (bench-source.c, bench-scenario.c) {{{ */

SluiceSource *bench_source_new (gint64 count);

typedef enum {
  DO_OK,    /* return the item after a delay on the pool's clock */
  DO_HANG,  /* never finish until cancelled */
} Doing;

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
  void           (*pool_func) (SluicePool *pool, gpointer data); /* called on the new pool */
  gpointer         pool_data;
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
  GArray  *deadlines;      /* gint64 per item index, when track_deadlines */
} Outcome;

Outcome run_scenario (const Scenario *sc);
Outcome throughput_run (gint64 items, gint queue_size);

/* }}} */
/* The measurements {{{ */

void bench_dispatch (void);          /* bench-engine.c */
void bench_throughput (void);
void bench_scaling_virtual (void);
void bench_scaling_hang (void);
void bench_precision (void);
void bench_memory (void);            /* bench-memory.c */
JsonObject *child_mem_inflight (gint64 in_flight);
JsonObject *child_mem_items (gint64 items, gint queue_size);
JsonObject *child_in_flight (gint64 workers, gint64 items);
void bench_asyncio (void);           /* bench-peers.c */
void bench_uvloop (void);
void bench_go (void);
void bench_cli_throughput (void);    /* bench-pool-cli.c */
void bench_cli_scaling (void);
void bench_cli_memory (void);
void bench_app (void);               /* bench-app.c */
void bench_app_scrub (void);
void bench_window (void);            /* bench-window.c */
void bench_window_models (void);
void bench_monitor (void);           /* bench-monitor.c */
void bench_scrub (void);             /* bench-scrub.c */
char  *bench_scrub_scenario (gint64 items);
gint64 bench_scrub_big_items (void);

/* Figures that later measurements divide by (0 until measured). */
extern double bench_dispatch_us;
extern double bench_engine_us_per_item;   /* best throughput run */
extern double bench_asyncio_process_s;    /* best whole asyncio process */
extern gint64 bench_asyncio_items;        /* its item count */

/* }}} */
