/* test-pool-batch.c: the fast paths of issue 11 keep the contract: results
 * read in batches (sluice_run_next_batch_async()) and sources read at once
 * (sluice_source_try_next()), on the virtual clock
 *
 * The scripted handler of the fixture succeeds with n² after its delay.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "pool-fixture.h"

/* Reading in batches {{{ */

typedef struct {
  Fixture *f;
  guint    max_results;
  GArray  *sizes;       /* guint: the size of each batch, in order */
  guint    calls;       /* completed calls, batches and the end */
} Batches;

static void ask_batch (Batches *b);

static void
on_batch (GObject      *object,
          GAsyncResult *res,
          gpointer      user_data)
{
  Batches *b = user_data;
  Fixture *f = b->f;
  g_autoptr(GPtrArray) batch = NULL;
  gint64 now = sluice_clock_now (f->clock);

  b->calls++;
  batch = sluice_run_next_batch_finish (SLUICE_RUN (object), res, &f->end_error);
  if (batch == NULL)
    {
      g_assert_false (f->ended);
      f->ended = TRUE;
      f->end_time = now;
      f->end_live = sluice_run_get_live_operations (f->run);
      f->end_finished = sluice_run_is_finished (f->run);
      return;
    }

  g_assert_cmpuint (batch->len, >, 0);
  if (b->max_results > 0)
    g_assert_cmpuint (batch->len, <=, b->max_results);
  g_array_append_val (b->sizes, batch->len);
  for (guint i = 0; i < batch->len; i++)
    {
      g_ptr_array_add (f->results, g_variant_ref (batch->pdata[i]));
      g_array_append_val (f->result_times, now);
    }

  ask_batch (b);
}

static void
ask_batch (Batches *b)
{
  sluice_run_next_batch_async (b->f->run, b->max_results, b->f->cancel, on_batch, b);
}

static void
drive_batches (Batches      *b,
               SluiceSource *source)
{
  g_autoptr(GError) error = NULL;

  b->f->source = source;
  b->f->run = sluice_pool_run (b->f->pool, source, &error);
  g_assert_no_error (error);
  ask_batch (b);
  spin_until (b->f, &b->f->ended);
}

static Batches *
batches_new (Fixture *f,
             guint    max_results)
{
  Batches *b = g_new0 (Batches, 1);

  b->f = f;
  b->max_results = max_results;
  b->sizes = g_array_new (FALSE, FALSE, sizeof (guint));
  return b;
}

static void
batches_free (Batches *b)
{
  g_array_unref (b->sizes);
  g_free (b);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Batches, batches_free)

/* Items 0 … 11 on four workers: item n takes (n % 3 + 1) seconds, so that
 * results finish in an order other than the input's, several at once. */
static void
script_mixed_delays (Fixture *f)
{
  for (gint64 n = 0; n < 12; n++)
    script_set (f->script, n, DO_OK, (double) (n % 3 + 1), 0, NULL);
}

/* The results of the same scenario read one at a time, for comparison. */
static GPtrArray *
results_read_one_at_a_time (void)
{
  Fixture f = { 0 };
  GPtrArray *results;

  fixture_setup (&f, NULL);
  script_mixed_delays (&f);
  make_pool (&f, 4, 2, 10.0);
  drive (&f, range (12));
  results = g_ptr_array_ref (f.results);
  fixture_teardown (&f, NULL);
  return results;
}

static void
test_batch_results_in_finish_order (Fixture       *f,
                                    gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 0);
  g_autoptr(GPtrArray) expected = results_read_one_at_a_time ();

  script_mixed_delays (f);
  make_pool (f, 4, 2, 10.0);
  drive_batches (b, range (12));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 12);
  g_assert_cmpuint (expected->len, ==, 12);
  for (guint i = 0; i < 12; i++)
    g_assert_true (g_variant_equal (f->results->pdata[i], expected->pdata[i]));
  /* Results finishing at one instant came together: fewer calls than results. */
  g_assert_cmpuint (b->sizes->len, <, 12);
  g_assert_cmpuint (run_stats (f).yielded, ==, 12);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_RESULT), ==, 12);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

static void
test_batch_takes_every_result_of_an_instant (Fixture       *f,
                                             gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 0);

  /* Eight items, eight workers, all done at 1 s: one batch of eight. */
  f->script->fallback.delay = S (1.0);
  make_pool (f, 8, 8, 10.0);
  drive_batches (b, range (8));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (b->sizes->len, ==, 1);
  g_assert_cmpuint (g_array_index (b->sizes, guint, 0), ==, 8);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpint (result_time (f, i), ==, S (1.0));
  g_assert_cmpuint (f->end_live, ==, 0);
}

static void
test_batch_respects_its_limit (Fixture       *f,
                               gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 3);

  f->script->fallback.delay = S (1.0);
  make_pool (f, 8, 8, 10.0);
  drive_batches (b, range (8));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 8);
  /* 3 + 3 + 2: the limit holds, and nothing is lost past it. */
  g_assert_cmpuint (b->sizes->len, ==, 3);
  g_assert_cmpuint (g_array_index (b->sizes, guint, 0), ==, 3);
  g_assert_cmpuint (g_array_index (b->sizes, guint, 1), ==, 3);
  g_assert_cmpuint (g_array_index (b->sizes, guint, 2), ==, 2);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpint (result_at (f, i), ==, (gint64) i * i);
  assert_accounted (f);
}

static void
test_batch_end_reports_the_error_group (Fixture       *f,
                                        gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 0);

  script_set (f->script, 2, DO_FAIL_ALWAYS, 0.5, 0, "ValueError");
  make_pool_full (f, 2, 4, 10.0, 0, NULL, TRUE);
  drive_batches (b, range (6));

  assert_group (f, 1);
  g_assert_cmpuint (f->results->len, ==, 5);
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_true (f->end_finished);
  assert_accounted (f);
}

static void
test_batch_cancelled_while_pending_ends_cancelled (Fixture       *f,
                                                   gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 0);

  f->script->fallback.doing = DO_HANG;
  f->cancel = g_cancellable_new ();
  make_pool (f, 3, 2, 100.0);
  at (f, 1.0, ACT_CANCEL);
  drive_batches (b, range (10));

  g_assert_error (f->end_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->results->len, ==, 0);
  g_assert_cmpint (f->end_time, ==, S (1.0));
  g_assert_cmpuint (f->end_live, ==, 0);
  g_assert_true (f->end_finished);
  assert_accounted (f);
}

static void
on_second_call (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr(GPtrArray) batch = NULL;

  batch = sluice_run_next_batch_finish (SLUICE_RUN (object), res, error);
  g_assert_null (batch);
}

static void
test_batch_while_another_call_is_pending_fails (Fixture       *f,
                                                gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 0);
  g_autoptr(GError) second = NULL;

  f->script->fallback.delay = S (1.0);
  make_pool (f, 2, 2, 10.0);
  f->source = range (4);
  f->run = sluice_pool_run (f->pool, f->source, NULL);
  ask_batch (b);
  sluice_run_next_batch_async (f->run, 0, NULL, on_second_call, &second);
  spin_until (f, &f->ended);

  g_assert_error (second, SLUICE_ERROR, SLUICE_ERROR_PENDING);
  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 4);
}

/* A caller may mix both reads on one run. */
static void
test_batch_and_next_mix (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(Batches) b = batches_new (f, 0);

  f->script->fallback.delay = S (1.0);
  f->pause_after = 2;
  make_pool (f, 4, 4, 10.0);
  start_run (f, range (8));
  spin_until (f, &f->paused);
  g_assert_cmpuint (f->results->len, ==, 2);
  ask_batch (b);
  spin_until (f, &f->ended);

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 8);
  for (guint i = 0; i < 8; i++)
    g_assert_cmpint (result_at (f, i), ==, (gint64) i * i);
  assert_accounted (f);
}

/* }}} */
/* Sources read at once {{{ */

#define TEST_TYPE_SYNC_SOURCE (test_sync_source_get_type ())
G_DECLARE_FINAL_TYPE (TestSyncSource, test_sync_source, TEST, SYNC_SOURCE, GObject)

/* Yields 0 … n_items − 1 at once, except: try_next blocks at the items in
 * `blocking` (read asynchronously instead) and fails at `fail_at`. */
struct _TestSyncSource
{
  GObject  parent_instance;
  gint64   n_items;
  gint64   fail_at;
  gint64   block_every;   /* try_next would block at multiples of this; 0: never */
  gint64   position;
  guint    sync_reads;
  guint    async_reads;
  gboolean read_pending;
};

static void test_sync_source_iface_init (SluiceSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestSyncSource, test_sync_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, test_sync_source_iface_init))

static gboolean
sync_source_take (TestSyncSource  *self,
                  GVariant       **item,
                  GError         **error)
{
  if (self->position == self->fail_at)
    {
      self->position++;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE, "the source broke");
      return FALSE;
    }

  *item = self->position < self->n_items ? g_variant_ref_sink (g_variant_new_int64 (self->position++))
                                         : NULL;
  return TRUE;
}

static void
test_sync_source_next_async (SluiceSource        *source,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  TestSyncSource *self = TEST_SYNC_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  GVariant *item = NULL;
  GError *error = NULL;

  self->async_reads++;
  if (g_task_return_error_if_cancelled (task))
    return;
  if (sync_source_take (self, &item, &error))
    g_task_return_pointer (task, item, (GDestroyNotify) g_variant_unref);
  else
    g_task_return_error (task, error);
}

static GVariant *
test_sync_source_next_finish (SluiceSource  *source,
                              GAsyncResult  *result,
                              GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
test_sync_source_try_next (SluiceSource  *source,
                           GVariant     **item,
                           GError       **error)
{
  TestSyncSource *self = TEST_SYNC_SOURCE (source);

  if (self->block_every > 0 && self->position > 0 && self->position % self->block_every == 0 &&
      self->position < self->n_items && !self->read_pending)
    {
      /* Blocks once at this position: the async read takes it. */
      self->read_pending = TRUE;
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK, "not yet");
      return FALSE;
    }
  self->read_pending = FALSE;
  self->sync_reads++;
  return sync_source_take (self, item, error);
}

static void
test_sync_source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = test_sync_source_next_async;
  iface->next_finish = test_sync_source_next_finish;
  iface->try_next = test_sync_source_try_next;
}

static void
test_sync_source_class_init (TestSyncSourceClass *klass)
{
}

static void
test_sync_source_init (TestSyncSource *self)
{
  self->fail_at = -1;
}

static TestSyncSource *
sync_source_new (gint64 n_items)
{
  TestSyncSource *self = g_object_new (TEST_TYPE_SYNC_SOURCE, NULL);

  self->n_items = n_items;
  return self;
}

static void
test_try_next_fills_the_queue_within_the_lead_bound (Fixture       *f,
                                                     gconstpointer  data)
{
  TestSyncSource *source = sync_source_new (40);

  /* Everything waits at the start: the producer fills the queue in one
   * go and holds one more, never past queue-size + workers + 1. */
  f->script->fallback.delay = S (1.0);
  make_pool (f, 3, 5, 10.0);
  drive (f, SLUICE_SOURCE (source));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 40);
  g_assert_cmpuint (run_stats (f).max_lead, ==, 5 + 3 + 1);
  g_assert_cmpuint (source->async_reads, ==, 0);
  g_assert_cmpuint (source->sync_reads, ==, 41);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

static void
test_try_next_would_block_falls_back_to_next_async (Fixture       *f,
                                                    gconstpointer  data)
{
  TestSyncSource *source = sync_source_new (20);

  source->block_every = 4;
  make_pool (f, 2, 3, 10.0);
  drive (f, SLUICE_SOURCE (source));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 20);
  /* Items 4, 8, 12 and 16 came through the async read. */
  g_assert_cmpuint (source->async_reads, ==, 4);
  g_assert_cmpuint (run_stats (f).pulled, ==, 20);
  for (guint i = 0; i < 20; i++)
    g_assert_true (g_variant_get_int64 (f->results->pdata[i]) >= 0);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

static void
test_try_next_failure_is_a_source_error (Fixture       *f,
                                         gconstpointer  data)
{
  TestSyncSource *source = sync_source_new (20);

  source->fail_at = 6;
  make_pool (f, 2, 3, 10.0);
  drive (f, SLUICE_SOURCE (source));

  /* Like a failed async read: recorded, the input closes, every pulled
   * item is accounted for. */
  assert_group (f, 1);
  g_assert_error (recorded_error (f, 0), G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_SOURCE_ERROR), ==, 1);
  g_assert_cmpuint (run_stats (f).pulled, ==, 6);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

static void
test_try_next_end_ends_the_input (Fixture       *f,
                                  gconstpointer  data)
{
  TestSyncSource *source = sync_source_new (0);

  make_pool (f, 2, 3, 10.0);
  drive (f, SLUICE_SOURCE (source));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (f->results->len, ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_SOURCE_END), ==, 1);
  g_assert_cmpuint (source->async_reads, ==, 0);
  g_assert_cmpuint (f->end_live, ==, 0);
}

static void
test_try_next_stops_at_a_stop_request (Fixture       *f,
                                       gconstpointer  data)
{
  TestSyncSource *source = sync_source_new (1000);

  /* The stop comes from the first item's pull event, inside the fill. */
  f->stop_on_event = SLUICE_EVENT_PULL;
  make_pool (f, 2, 50, 10.0);
  drive (f, SLUICE_SOURCE (source));

  g_assert_no_error (f->end_error);
  g_assert_cmpuint (run_stats (f).pulled, ==, 1);
  g_assert_cmpuint (run_stats (f).dropped, ==, 1);
  g_assert_cmpuint (f->end_live, ==, 0);
  assert_accounted (f);
}

static void
test_try_next_without_fast_path_would_block (void)
{
  g_autoptr(TestSource) source = test_source_new (3);
  g_autoptr(GError) error = NULL;
  GVariant *item = NULL;

  g_assert_false (sluice_source_try_next (SLUICE_SOURCE (source), &item, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
  g_assert_null (item);
}

static void
test_range_is_made_as_it_is_read (void)
{
  /* A billion items cost nothing up front. */
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (1000000000);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) first = NULL;
  g_autoptr(GVariant) second = NULL;

  g_assert_true (sluice_source_try_next (source, &first, &error));
  g_assert_no_error (error);
  g_assert_true (sluice_source_try_next (source, &second, &error));
  g_assert_cmpint (g_variant_get_int64 (first), ==, 0);
  g_assert_cmpint (g_variant_get_int64 (second), ==, 1);
  g_assert_cmpuint (sluice_array_source_get_position (SLUICE_ARRAY_SOURCE (source)), ==, 2);
}

/* }}} */
/* The priority of the pool's work {{{ */

typedef struct {
  guint     attempts_started;
  gint      attempts_when_idle_ran;  /* -1 until it runs */
  gboolean  idle_added;
  gboolean  ended;
  gint      priority_of_idle;
} PriorityProbe;

static gboolean
probe_idle (gpointer user_data)
{
  PriorityProbe *p = user_data;

  p->attempts_when_idle_ran = (gint) p->attempts_started;
  return G_SOURCE_REMOVE;
}

static void
probe_event (const SluiceEvent *event,
             gpointer           user_data)
{
  PriorityProbe *p = user_data;

  if (event->kind == SLUICE_EVENT_ATTEMPT_START)
    p->attempts_started++;

  /* At the first pull, the workers' gets are about to be completed by the
   * pool's own source: the probe is ready at the same moment. */
  if (event->kind == SLUICE_EVENT_PULL && !p->idle_added)
    {
      g_autoptr(GSource) idle = g_idle_source_new ();

      p->idle_added = TRUE;
      g_source_set_priority (idle, p->priority_of_idle);
      g_source_set_callback (idle, probe_idle, p, NULL);
      g_source_attach (idle, NULL);
    }
}

static void
ok_at_once (SluiceAttempt *attempt,
            GTask         *task,
            gpointer       user_data)
{
  g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (0)), (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static void
on_probe_next (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  PriorityProbe *p = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = sluice_run_next_batch_finish (SLUICE_RUN (object), res, &error);

  g_assert_no_error (error);
  if (batch == NULL)
    p->ended = TRUE;
  else
    sluice_run_next_batch_async (SLUICE_RUN (object), 0, NULL, on_probe_next, p);
}

/* Where a source at @probe_priority lands among the pool's first steps,
 * on a virtual clock whose work runs at @pool_priority. */
static gint
attempts_before_probe (gint pool_priority,
                       gint probe_priority)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new_with_priority (SLUICE_CLOCK_VIRTUAL, pool_priority);
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (ok_at_once, NULL, NULL);
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (6);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(SluiceRun) run = NULL;
  g_autoptr(GError) error = NULL;
  PriorityProbe p = { 0, -1, FALSE, FALSE, probe_priority };

  g_assert_cmpint (sluice_clock_get_priority (clock), ==, pool_priority);
  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                         "handler", handler, "clock", clock,
                         "workers", 3, "queue-size", 2, "item-timeout", 1.0, NULL);
  g_assert_no_error (error);
  sluice_pool_set_event_func (pool, probe_event, &p, NULL);
  run = sluice_pool_run (pool, source, &error);
  g_assert_no_error (error);
  sluice_run_next_batch_async (run, 0, NULL, on_probe_next, &p);
  while (!p.ended || p.attempts_when_idle_ran < 0)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
  return p.attempts_when_idle_ran;
}

static void
test_pool_work_runs_at_its_clock_priority (void)
{
  /* Below GDK_PRIORITY_REDRAW (120), a frame-like source runs before the
   * pool's next step; at the default priority, the pool goes first. */
  g_assert_cmpint (attempts_before_probe (G_PRIORITY_DEFAULT_IDLE, G_PRIORITY_HIGH_IDLE + 20), ==, 0);
  g_assert_cmpint (attempts_before_probe (G_PRIORITY_DEFAULT, G_PRIORITY_HIGH_IDLE + 20), >, 0);
}

/* }}} */

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/batch/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("results-in-finish-order", test_batch_results_in_finish_order);
  ADD ("takes-every-result-of-an-instant", test_batch_takes_every_result_of_an_instant);
  ADD ("respects-its-limit", test_batch_respects_its_limit);
  ADD ("end-reports-the-error-group", test_batch_end_reports_the_error_group);
  ADD ("cancelled-while-pending-ends-cancelled", test_batch_cancelled_while_pending_ends_cancelled);
  ADD ("while-another-call-is-pending-fails", test_batch_while_another_call_is_pending_fails);
  ADD ("and-next-mix", test_batch_and_next_mix);
#undef ADD

#define ADD(path, func) g_test_add ("/try-next/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("fills-the-queue-within-the-lead-bound", test_try_next_fills_the_queue_within_the_lead_bound);
  ADD ("would-block-falls-back-to-next-async", test_try_next_would_block_falls_back_to_next_async);
  ADD ("failure-is-a-source-error", test_try_next_failure_is_a_source_error);
  ADD ("end-ends-the-input", test_try_next_end_ends_the_input);
  ADD ("stops-at-a-stop-request", test_try_next_stops_at_a_stop_request);
#undef ADD
  g_test_add_func ("/try-next/without-fast-path-would-block", test_try_next_without_fast_path_would_block);
  g_test_add_func ("/try-next/range-is-made-as-it-is-read", test_range_is_made_as_it_is_read);
  g_test_add_func ("/priority/pool-work-runs-at-its-clock-priority", test_pool_work_runs_at_its_clock_priority);

  return g_test_run ();
}
