/* test-pool.c: the capstone's contract, rule by rule, on the virtual clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <sluice.h>

#define S(seconds) ((gint64) ((seconds) * G_USEC_PER_SEC))

/* A scripted handler {{{ */

typedef enum {
  DO_OK,          /* succeed after delay, honour cancellation */
  DO_FAIL,        /* first `fails` attempts fail with `error_type`, then ok */
  DO_FAIL_ALWAYS,
  DO_HANG,        /* never finish until cancelled */
  DO_LATE,        /* ignore cancellation, return after delay */
  DO_CANCEL_SELF, /* end cancelled by itself after delay */
  DO_STUBBORN,    /* ignore round 1, honour round 2; return after delay */
} Doing;

typedef struct {
  Doing       doing;
  gint64      delay;
  guint       fails;
  const char *error_type;
} Behaviour;

typedef struct {
  SluiceClock *clock;
  Behaviour    fallback;
  GHashTable  *by_item;     /* item index → Behaviour* */
  GHashTable  *attempts;    /* item index → calls */
  guint        ctx_failures;
  guint        max_concurrent;
  guint        concurrent;
} Script;

typedef struct {
  Script        *script;
  SluiceAttempt *attempt;
  GTask         *task;
  Behaviour      behaviour;
  guint64        timer;
  gulong         cancel_id;
  gulong         round_id;
  gboolean       done;
} Call;

static Script *
script_new (SluiceClock *clock)
{
  Script *script = g_new0 (Script, 1);

  script->clock = clock;
  script->fallback.doing = DO_OK;
  script->by_item = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  script->attempts = g_hash_table_new (NULL, NULL);
  return script;
}

static void
script_free (Script *script)
{
  g_hash_table_unref (script->by_item);
  g_hash_table_unref (script->attempts);
  g_free (script);
}

static void
script_set (Script     *script,
            gint64      item,
            Doing       doing,
            double      delay,
            guint       fails,
            const char *error_type)
{
  Behaviour *b = g_new0 (Behaviour, 1);

  b->doing = doing;
  b->delay = S (delay);
  b->fails = fails;
  b->error_type = error_type;
  g_hash_table_replace (script->by_item, GINT_TO_POINTER (item), b);
}

static guint
script_attempts (Script *script,
                 gint64  item)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (script->attempts, GINT_TO_POINTER (item)));
}

static GVariant *
square (GVariant *item)
{
  if (g_variant_is_of_type (item, G_VARIANT_TYPE_INT64))
    {
      gint64 n = g_variant_get_int64 (item);
      return g_variant_new_int64 (n * n);
    }
  return g_variant_ref (item);
}

static void
call_finish (Call     *call,
             GVariant *result,
             GError   *error)
{
  GTask *task = call->task;

  g_assert_false (call->done);
  call->done = TRUE;
  call->script->concurrent--;

  if (call->timer != 0)
    sluice_clock_remove_timer (call->script->clock, call->timer);
  call->timer = 0;
  if (call->cancel_id != 0)
    g_signal_handler_disconnect (sluice_attempt_get_cancellable (call->attempt), call->cancel_id);
  if (call->round_id != 0)
    g_signal_handler_disconnect (call->attempt, call->round_id);
  call->cancel_id = call->round_id = 0;

  /* ctx_ok: the attempt still holds the value this call stored. */
  if (sluice_attempt_get_local (call->attempt) != call)
    call->script->ctx_failures++;

  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_variant_ref_sink (result), (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static gboolean
call_fails (Call *call)
{
  guint number = sluice_attempt_get_number (call->attempt);

  return call->behaviour.doing == DO_FAIL_ALWAYS ||
         (call->behaviour.doing == DO_FAIL && number <= call->behaviour.fails);
}

static void
on_call_timer (gpointer data)
{
  Call *call = data;
  guint number = sluice_attempt_get_number (call->attempt);

  call->timer = 0;
  if (call->behaviour.doing == DO_CANCEL_SELF)
    call_finish (call, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
  else if (call_fails (call))
    call_finish (call, NULL, sluice_named_error_new (call->behaviour.error_type,
                                                     "attempt %u failed", number));
  else
    call_finish (call, square (sluice_attempt_get_item (call->attempt)), NULL);
}

static gboolean
on_cancel_idle (gpointer data)
{
  Call *call = data;

  if (!call->done)
    call_finish (call, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
  return G_SOURCE_REMOVE;
}

/* Runs inside g_cancellable_cancel(): finish from an idle so that the
 * handler can disconnect from the cancellable. */
static void
on_call_cancelled (GCancellable *cancellable,
                   Call         *call)
{
  if (call->behaviour.doing == DO_LATE || call->behaviour.doing == DO_STUBBORN)
    return;
  g_idle_add (on_cancel_idle, call);
}

static void
on_call_round (SluiceAttempt *attempt,
               guint          round,
               Call          *call)
{
  if (call->behaviour.doing == DO_STUBBORN && round >= 2)
    g_idle_add (on_cancel_idle, call);
}

static void
call_free (gpointer data)
{
  g_free (data);
}

static void
scripted_handle (SluiceAttempt *attempt,
                 GTask         *task,
                 gpointer       user_data)
{
  Script *script = user_data;
  gint64 index = sluice_attempt_get_item_index (attempt);
  Behaviour *b = g_hash_table_lookup (script->by_item, GINT_TO_POINTER (index));
  Call *call = g_new0 (Call, 1);

  call->script = script;
  call->attempt = attempt;
  call->task = task;
  call->behaviour = b != NULL ? *b : script->fallback;
  sluice_attempt_set_local (attempt, call, call_free);

  g_hash_table_replace (script->attempts, GINT_TO_POINTER (index),
                        GUINT_TO_POINTER (script_attempts (script, index) + 1));
  script->concurrent++;
  script->max_concurrent = MAX (script->max_concurrent, script->concurrent);

  call->cancel_id = g_signal_connect (sluice_attempt_get_cancellable (attempt), "cancelled",
                                      G_CALLBACK (on_call_cancelled), call);
  call->round_id = g_signal_connect (attempt, "cancel-requested", G_CALLBACK (on_call_round), call);

  if (call->behaviour.doing != DO_HANG)
    call->timer = sluice_clock_add_timeout (script->clock, call->behaviour.delay,
                                            on_call_timer, call, NULL);
}

/* }}} */
/* A run, driven to its end {{{ */

typedef struct {
  SluiceClock  *clock;
  Script       *script;
  SluicePool   *pool;
  SluiceSource *source;
  SluiceRun    *run;
  GPtrArray    *results;        /* GVariant, in yield order */
  GPtrArray    *result_times;   /* clock µs, as pointers */
  GError       *end_error;
  gboolean      ended;
  gboolean      stalled;
  gint          stop_after;     /* -1: never, K > 0: after K results */
  GCancellable *cancel;
  gint          cancel_after;   /* cancel after K results, -1: never */
  guint         metrics[3];
  GPtrArray    *metric_details;
  gboolean      broken_metrics;
  GArray       *events;         /* SluiceEventKind */
} Fixture;

static gboolean
count_metrics (const char  *event,
               const char  *detail,
               gpointer     user_data,
               GError     **error)
{
  Fixture *f = user_data;

  if (g_str_equal (event, "ok"))
    f->metrics[0]++;
  else if (g_str_equal (event, "retry"))
    f->metrics[1]++;
  else if (g_str_equal (event, "failure"))
    f->metrics[2]++;
  else
    g_assert_not_reached ();

  g_ptr_array_add (f->metric_details, g_strdup_printf ("%s %s", event, detail));

  if (f->broken_metrics)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "metrics backend is down");
      return FALSE;
    }
  return TRUE;
}

static void
record_event (const SluiceEvent *event,
              gpointer           user_data)
{
  Fixture *f = user_data;
  SluiceEventKind kind = event->kind;

  g_array_append_val (f->events, kind);
}

static void
on_stalled (SluiceClock *clock,
            Fixture     *f)
{
  f->stalled = TRUE;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_signal_connect (f->clock, "stalled", G_CALLBACK (on_stalled), f);
  f->script = script_new (f->clock);
  f->results = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  f->result_times = g_ptr_array_new ();
  f->metric_details = g_ptr_array_new_with_free_func (g_free);
  f->events = g_array_new (FALSE, FALSE, sizeof (SluiceEventKind));
  f->stop_after = -1;
  f->cancel_after = -1;
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->run != NULL)
    {
      /* Whatever the test did, the run ended with nothing left alive. */
      g_assert_true (sluice_run_is_finished (f->run));
      g_assert_cmpuint (sluice_run_get_live_operations (f->run), ==, 0);
      g_assert_finalize_object (f->run);
    }
  g_clear_object (&f->source);
  if (f->pool != NULL)
    g_assert_finalize_object (f->pool);
  g_assert_cmpuint (sluice_clock_get_n_pending (f->clock), ==, 0);
  g_assert_finalize_object (f->clock);
  g_assert_cmpuint (f->script->ctx_failures, ==, 0);
  script_free (f->script);
  g_clear_object (&f->cancel);
  g_clear_error (&f->end_error);
  g_ptr_array_unref (f->results);
  g_ptr_array_unref (f->result_times);
  g_ptr_array_unref (f->metric_details);
  g_array_unref (f->events);
}

static SluicePool *
make_pool_full (Fixture    *f,
                gint        workers,
                gint        queue_size,
                double      item_timeout,
                gint        max_retries,
                const char *retryable,
                gboolean    keep_going)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (scripted_handle, f->script, NULL);
  g_auto(GStrv) types = g_strsplit (retryable != NULL ? retryable : "", ",", -1);
  g_autoptr(GError) error = NULL;
  SluicePool *pool;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                         "handler", handler,
                         "clock", f->clock,
                         "workers", workers,
                         "queue-size", queue_size,
                         "item-timeout", item_timeout,
                         "max-retries", max_retries,
                         "retryable", retryable != NULL ? types : NULL,
                         "keep-going", keep_going,
                         NULL);
  g_assert_no_error (error);
  sluice_pool_set_metrics_func (pool, count_metrics, f, NULL);
  sluice_pool_set_event_func (pool, record_event, f, NULL);
  f->pool = pool;
  return pool;
}

static SluicePool *
make_pool (Fixture *f,
           gint     workers,
           gint     queue_size,
           double   item_timeout)
{
  return make_pool_full (f, workers, queue_size, item_timeout, 0, NULL, FALSE);
}

static void on_next (GObject *object, GAsyncResult *res, gpointer user_data);

static void
ask_next (Fixture *f)
{
  sluice_run_next_async (f->run, f->cancel, on_next, f);
}

static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Fixture *f = user_data;
  GVariant *result;

  result = sluice_run_next_finish (SLUICE_RUN (object), res, &f->end_error);
  if (result == NULL)
    {
      f->ended = TRUE;
      return;
    }

  g_ptr_array_add (f->results, result);
  g_ptr_array_add (f->result_times, GSIZE_TO_POINTER ((gsize) sluice_clock_now (f->clock)));

  if (f->stop_after > 0 && f->results->len == (guint) f->stop_after)
    sluice_pool_request_stop (f->pool);
  if (f->cancel_after > 0 && f->results->len == (guint) f->cancel_after)
    g_cancellable_cancel (f->cancel);

  ask_next (f);
}

static void
spin_until (Fixture  *f,
            gboolean *flag)
{
  guint i;

  for (i = 0; i < 1000000 && !*flag && !f->stalled; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (f->stalled);
  g_assert_true (*flag);
}

/* Runs the pool over @source to its end, like `async for` in the seed. */
static void
drive (Fixture      *f,
       SluiceSource *source)
{
  g_autoptr(GError) error = NULL;

  f->source = source;
  f->run = sluice_pool_run (f->pool, source, &error);
  g_assert_no_error (error);
  ask_next (f);
  spin_until (f, &f->ended);
}

static gint64
result_at (Fixture *f,
           guint    i)
{
  return g_variant_get_int64 (g_ptr_array_index (f->results, i));
}

G_GNUC_UNUSED static void
assert_group (Fixture    *f,
              guint       n_errors)
{
  g_assert_error (f->end_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, n_errors);
}

G_GNUC_UNUSED static const GError *
recorded_error (Fixture *f,
                guint    i)
{
  return g_ptr_array_index (sluice_run_get_errors (f->run), i);
}

static SluiceSource *
range (gint64 n)
{
  return sluice_array_source_new_range (n);
}

/* }}} */
/* The seed's example {{{ */

static void
test_seed_example (Fixture       *f,
                   gconstpointer  data)
{
  make_pool (f, 3, 3, 1.0);
  script_set (f->script, 0, DO_OK, 0.3, 0, NULL);
  script_set (f->script, 1, DO_OK, 0.2, 0, NULL);
  script_set (f->script, 2, DO_OK, 0.1, 0, NULL);

  drive (f, range (3));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 3);
  g_assert_cmpint (result_at (f, 0), ==, 4);
  g_assert_cmpint (result_at (f, 1), ==, 1);
  g_assert_cmpint (result_at (f, 2), ==, 0);
  /* The three calls overlap: 0.3 s in all, not 0.6 s. */
  g_assert_cmpint (sluice_run_get_finished_at (f->run) - sluice_run_get_started_at (f->run), ==, S (0.3));
  g_assert_cmpuint (f->script->max_concurrent, ==, 3);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/pool/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("seed-example", test_seed_example);

  return g_test_run ();
}
