/* bench-scenario.c: the benchmark's handlers, and one run driven to its end
 *
 * Handlers: `ok DELAY` (the item back after DELAY on the pool's clock) and
 * `hang` (never finishes until cancelled, then ends on the next turn).
 * Every delay of a handler goes through the pool's SluiceClock. A run is
 * driven like `async for`: one next() after another until the end.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "bench.h"

/* Handlers: `ok DELAY` and `hang`, timed on the pool's clock {{{ */

typedef struct {
  SluiceClock *clock;
  Doing        doing;
  gint64       delay;
  guint        concurrent;
  guint        max_concurrent;
  GArray      *deadlines;   /* gint64 per item index, for precision */
} Script;

/* The handler, as a handler written in C completes its attempts: through
 * the attempt (sluice_attempt_return_result()), without a GTask, as the Go
 * peer has no object per call either (issue 29). */
struct _BenchHandler
{
  GObject  parent_instance;
  Script  *script;
};

#define BENCH_TYPE_HANDLER (bench_handler_get_type ())
G_DECLARE_FINAL_TYPE (BenchHandler, bench_handler, BENCH, HANDLER, GObject)

typedef struct {
  Script              *script;
  GObject             *handler;
  SluiceAttempt       *attempt;   /* the pool holds it until the callback */
  GAsyncReadyCallback  callback;
  gpointer             user_data;
} Call;

static void
call_return (Call     *call,
             GVariant *result,
             GError   *error)
{
  Call done = *call;

  call->script->concurrent--;
  sluice_attempt_set_cancel_func (call->attempt, NULL, NULL);
  if (error != NULL)
    sluice_attempt_return_error (call->attempt, error);
  else
    sluice_attempt_return_result (call->attempt, result);
  g_free (call);
  done.callback (done.handler, G_ASYNC_RESULT (done.attempt), done.user_data);
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

/* Inside the pool's cancellation request: finish on the next turn,
 * through the clock. The attempt's cancel function rather than a
 * connection to its cancellable, as a handler in C would (issue 29). */
static void
on_hang_cancelled (SluiceAttempt *attempt,
                   gpointer       user_data)
{
  Call *call = user_data;

  sluice_clock_add_timeout (call->script->clock, 0, on_hang_cancel_timer, call, NULL);
}

static void
bench_handler_handle_async (SluiceHandler       *handler,
                            SluiceAttempt       *attempt,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  Script *script = BENCH_HANDLER (handler)->script;
  Call *call = g_new0 (Call, 1);

  call->script = script;
  call->handler = G_OBJECT (handler);
  call->attempt = attempt;
  call->callback = callback;
  call->user_data = user_data;

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
    sluice_attempt_set_cancel_func (attempt, on_hang_cancelled, call);
}

static GVariant *
bench_handler_handle_finish (SluiceHandler  *handler,
                             GAsyncResult   *result,
                             GError        **error)
{
  return sluice_attempt_propagate_result (SLUICE_ATTEMPT (result), error);
}

static void
bench_handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = bench_handler_handle_async;
  iface->handle_finish = bench_handler_handle_finish;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (BenchHandler, bench_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, bench_handler_iface_init))

static void
bench_handler_class_init (BenchHandlerClass *klass)
{
}

static void
bench_handler_init (BenchHandler *self)
{
}

/* }}} */
/* Driving a run to its end, like `async for` {{{ */

typedef struct {
  SluiceRun *run;
  gint64     results;
  gboolean   ended;
  gboolean   stalled;
  GError    *error;
} Drive;

/* Results are read in batches, the way a caller that does not react to
 * each one reads them: one GTask per batch rather than per result. */
static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Drive *drive = user_data;
  g_autoptr(GPtrArray) batch = sluice_run_next_batch_finish (SLUICE_RUN (object), res, &drive->error);

  if (batch == NULL)
    {
      drive->ended = TRUE;
      return;
    }
  drive->results += batch->len;
  sluice_run_next_batch_async (drive->run, 0, NULL, on_next, drive);
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
  g_autoptr(BenchHandler) handler = g_object_new (BENCH_TYPE_HANDLER, NULL);
  g_autoptr(GError) error = NULL;
  SluicePool *pool;

  handler->script = script;

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
  if (sc->pool_func != NULL)
    sc->pool_func (pool, sc->pool_data);
  return pool;
}

/* Iterates until the end, measuring the span. */
static void
drive_to_end (Drive       *drive,
              SluiceClock *clock,
              Outcome     *out)
{
  double wall0, cpu0;
  gint64 clock0;

  out->hwm_before = proc_status_bytes ("VmHWM");
  clock0 = sluice_clock_now (clock);
  wall0 = wall_now ();
  cpu0 = cpu_now ();

  sluice_run_next_batch_async (drive->run, 0, NULL, on_next, drive);
  while (!drive->ended && !drive->stalled)
    {
      g_main_context_iteration (NULL, TRUE);
      out->turns++;
    }

  out->cpu = cpu_now () - cpu0;
  out->wall = wall_now () - wall0;
  out->clock_elapsed = sluice_clock_now (clock) - clock0;
  out->hwm_after = proc_status_bytes ("VmHWM");
}

static void
check_clean_end (const Drive    *drive,
                 const Scenario *sc)
{
  if (drive->stalled)
    g_error ("the virtual clock stalled: %s", sluice_run_describe_waiting (drive->run));
  if (drive->error != NULL && !sc->keep_going)
    g_error ("run ended with: %s", drive->error->message);
  if (sluice_run_get_live_operations (drive->run) != 0)
    g_error ("operations still alive after the run");
}

Outcome
run_scenario (const Scenario *sc)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (sc->clock_kind);
  g_autoptr(SluiceSource) source = bench_source_new (sc->items);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(GError) error = NULL;
  Script script = { 0 };
  Drive drive = { 0 };
  Outcome out = { 0 };

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

  drive_to_end (&drive, clock, &out);
  out.results = drive.results;
  out.max_concurrent = script.max_concurrent;
  out.deadlines = script.deadlines;
  check_clean_end (&drive, sc);

  g_clear_error (&drive.error);
  g_object_unref (drive.run);
  return out;
}

/* }}} */
/* The throughput scenario {{{ */

/* `ok 0`, 64 workers, real clock: the scenario of issues 5 and 11. */
Outcome
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

/* }}} */
