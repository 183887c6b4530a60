/* test-attempt-reuse.c: an attempt is cheap (issue 29), and reusing its
 * object cannot be seen
 *
 * The allocation count comes from malloc itself: this program defines
 * malloc, calloc and realloc (glibc's own behind them), and runs with
 * G_SLICE=always-malloc so that GObjects go through them too. Not under
 * ASan, which defines them itself.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <sluice.h>

#include "sluice-channel-private.h"

extern void *__libc_malloc (size_t size);
extern void *__libc_calloc (size_t n, size_t size);
extern void *__libc_realloc (void *p, size_t size);

static gsize n_allocs;

void *
malloc (size_t size)
{
  n_allocs++;
  return __libc_malloc (size);
}

void *
calloc (size_t n,
        size_t size)
{
  n_allocs++;
  return __libc_calloc (n, size);
}

void *
realloc (void  *p,
         size_t size)
{
  n_allocs++;
  return __libc_realloc (p, size);
}

/* A handler that returns its item once its task has been created: the
 * task is the handler's one object per attempt. */
static void
return_item (SluiceAttempt *attempt,
             GTask         *task,
             gpointer       user_data)
{
  g_task_return_pointer (task, g_variant_ref (sluice_attempt_get_item (attempt)),
                         (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  gboolean *ended = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = sluice_run_next_batch_finish (SLUICE_RUN (object), res, &error);

  g_assert_no_error (error);
  if (batch == NULL)
    *ended = TRUE;
  else
    sluice_run_next_batch_async (SLUICE_RUN (object), 0, NULL, on_next, user_data);
}

static void
on_next_one (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) value = sluice_run_next_finish (SLUICE_RUN (object), res, &error);

  if (value != NULL)
    sluice_run_next_async (SLUICE_RUN (object), NULL, on_next_one, user_data);
  else
    *(gboolean *) user_data = TRUE;
}

/* Reuse must not be seen: an attempt whose handler keeps a reference to
 * it keeps its own values after later attempts ran. */
static GPtrArray *kept;

static void
keep_and_return (SluiceAttempt *attempt,
                 GTask         *task,
                 gpointer       user_data)
{
  g_ptr_array_add (kept, g_object_ref (attempt));
  return_item (attempt, task, user_data);
}

/* A started run of the items 0 … @items - 1 through @handler, keep-going. */
static SluiceRun *
start_run (SluiceHandler *handler,
           SluiceClock   *clock,
           gint64         items,
           guint          workers,
           guint          queue_size,
           double         item_timeout)
{
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (items);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(GError) error = NULL;
  SluiceRun *run;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error, "handler", handler, "clock", clock,
                         "workers", workers, "queue-size", queue_size, "item-timeout", item_timeout,
                         "keep-going", TRUE, NULL);
  g_assert_no_error (error);
  run = sluice_pool_run (pool, source, &error);
  g_assert_no_error (error);
  return run;
}

/* Allocations of a run of @items items on @workers workers once it runs,
 * with @func (given the clock). */
static gsize
allocations_of_run_on (SluiceHandlerFunc func,
                       gint64            items,
                       guint             workers)
{
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (func, clock, NULL);
  g_autoptr(SluiceRun) run = start_run (handler, clock, items, workers, 8, 10.0);
  gboolean ended = FALSE;
  gsize before;

  before = n_allocs;
  sluice_run_next_batch_async (run, 0, NULL, on_next, &ended);
  while (!ended)
    g_main_context_iteration (NULL, TRUE);
  return n_allocs - before;
}

/* What one more item adds to a run's allocations on @workers workers: the
 * difference of two runs, so that setting up counts for nothing. */
static double
allocations_per_item_on (SluiceHandlerFunc func,
                         guint             workers)
{
  const gint64 n = 2000;
  gsize small, big;

  kept = g_ptr_array_new_full (4 * n, g_object_unref);
  small = allocations_of_run_on (func, n, workers);
  big = allocations_of_run_on (func, 2 * n, workers);
  g_clear_pointer (&kept, g_ptr_array_unref);
  return ((double) big - (double) small) / n;
}

static double
allocations_per_item (SluiceHandlerFunc func)
{
  return allocations_per_item_on (func, 4);
}

/* The rule: an attempt costs no object of its own on the hot path (the
 * handler's task is the one object per attempt): its SluiceAttempt and
 * its GCancellable are made once and used again. A handler that keeps
 * every attempt forces a new attempt, and a new cancellable, each time:
 * the difference is what each attempt would cost without reuse. */
static void
test_attempt_object_and_cancellable_are_reused (void)
{
  double reused = allocations_per_item (return_item);
  double fresh = allocations_per_item (keep_and_return);

  g_test_message ("allocations per item: %.2f, with every attempt kept by the handler %.2f", reused, fresh);
  /* The attempt and its cancellable: two objects per item saved. */
  g_assert_cmpfloat (fresh - reused, >=, 1.9);
}

/* Returns the item after a second on the clock (the handler's data): all
 * the workers' attempts end at one instant, and the next ones start
 * together. */
static void
on_second_passed (gpointer user_data)
{
  GTask *task = user_data;
  SluiceAttempt *attempt = g_task_get_task_data (task);

  g_task_return_pointer (task, g_variant_ref (sluice_attempt_get_item (attempt)),
                         (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static void
return_item_after_a_second (SluiceAttempt *attempt,
                            GTask         *task,
                            gpointer       user_data)
{
  g_task_set_task_data (task, g_object_ref (attempt), g_object_unref);
  sluice_clock_add_timeout (SLUICE_CLOCK (user_data), 1.0, on_second_passed, task, NULL);
}

/* The rule: with many workers too, an attempt costs no object of its own.
 * 200 attempts end at one instant and the next 200 start together, more
 * than the run's ring of finished attempts bridges: each worker reuses its
 * own last attempt. Measured against the same handler on 4 workers. */
static void
test_attempt_reused_with_many_workers (void)
{
  double few = allocations_per_item_on (return_item_after_a_second, 4);
  double many = allocations_per_item_on (return_item_after_a_second, 200);

  g_test_message ("allocations per item: %.2f on 4 workers, %.2f on 200", few, many);
  g_assert_cmpfloat (many - few, <, 0.5);
}

static void
test_attempt_held_by_handler_is_not_reused (void)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (keep_and_return, NULL, NULL);
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceRun) run = start_run (handler, clock, 200, 2, 4, 10.0);
  g_autoptr(GHashTable) indexes = g_hash_table_new (NULL, NULL);
  gboolean ended = FALSE;

  kept = g_ptr_array_new_with_free_func (g_object_unref);
  sluice_run_next_batch_async (run, 0, NULL, on_next, &ended);
  while (!ended)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (kept->len, ==, 200);
  for (guint i = 0; i < kept->len; i++)
    {
      SluiceAttempt *attempt = kept->pdata[i];

      g_assert_cmpint (sluice_attempt_get_item_index (attempt), ==,
                       g_variant_get_int64 (sluice_attempt_get_item (attempt)));
      g_hash_table_add (indexes, GINT_TO_POINTER (sluice_attempt_get_item_index (attempt)));
    }
  g_assert_cmpuint (g_hash_table_size (indexes), ==, 200);
  g_clear_pointer (&kept, g_ptr_array_unref);
}

/* A handler that hears the pool's cancellation through the attempt's
 * cancel function, and ends cancelled there. */
typedef struct {
  guint calls;
  guint refused;
  guint rounds_seen;
} Heard;

static void
on_cancel_func (SluiceAttempt *attempt,
                gpointer       user_data)
{
  GTask *task = user_data;
  Heard *heard = g_task_get_task_data (task);

  heard->calls++;
  heard->rounds_seen += sluice_attempt_get_cancel_rounds (attempt);
  g_assert_true (g_cancellable_is_cancelled (sluice_attempt_get_cancellable (attempt)));
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  g_object_unref (task);
}

static void
other_cancel_func (SluiceAttempt *attempt,
                   gpointer       user_data)
{
  g_assert_not_reached ();
}

static void
hang_until_cancel_func (SluiceAttempt *attempt,
                        GTask         *task,
                        gpointer       user_data)
{
  Heard *heard = user_data;

  g_task_set_task_data (task, heard, NULL);
  g_assert_true (sluice_attempt_set_cancel_func (attempt, on_cancel_func, task));
  /* One function per attempt: a second is refused and changes nothing. */
  if (!sluice_attempt_set_cancel_func (attempt, other_cancel_func, NULL))
    heard->refused++;
}

/* The rule: an attempt's cancel function is called once, at the pool's
 * first cancellation request, after the cancellable was cancelled; a
 * handler that ends there ends the attempt at its deadline (four hangs on
 * two workers, a timeout of 1 s: 2 s in all). */
static void
test_attempt_cancel_func_hears_first_request (void)
{
  Heard heard = { 0, 0, 0 };
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (hang_until_cancel_func, &heard, NULL);
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  gint64 start = sluice_clock_now (clock);
  g_autoptr(SluiceRun) run = start_run (handler, clock, 4, 2, 2, 1.0);
  gboolean ended = FALSE;

  sluice_run_next_async (run, NULL, on_next_one, &ended);
  while (!ended)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (heard.calls, ==, 4);
  g_assert_cmpuint (heard.rounds_seen, ==, 4);
  g_assert_cmpuint (heard.refused, ==, 4);
  g_assert_cmpint (sluice_clock_now (clock) - start, ==, 2 * G_USEC_PER_SEC);
  g_assert_cmpuint (sluice_run_get_errors (run)->len, ==, 4);
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
}

/* Puts @n items into @channel, then gets them back, in order. */
static void
put_and_get (SluiceChannel *channel,
             guint          n)
{
  for (guint i = 1; i <= n; i++)
    g_assert_true (sluice_channel_try_put (channel, GUINT_TO_POINTER (i), NULL));
  for (guint i = 1; i <= n; i++)
    g_assert_cmpuint (GPOINTER_TO_UINT (sluice_channel_try_get (channel, NULL)), ==, i);
}

/* The allocations of @use (@n) on a channel that @use (@warm_up) has
 * already been through. */
static gsize
channel_allocations (void  (*use) (SluiceChannel *channel,
                                   guint          n),
                     guint   warm_up,
                     guint   n)
{
  g_autoptr(SluiceChannel) channel = sluice_channel_new (0, NULL);
  gsize before;

  use (channel, warm_up);
  before = n_allocs;
  use (channel, n);
  return n_allocs - before;
}

/* The rule (issue 29): an item costs a channel no allocation once the
 * channel has held as many at once before; a GAsyncQueue made and freed a
 * list node for every item, twice per item of a run (input and results). */
static void
test_channel_item_allocates_nothing (void)
{
  g_assert_cmpuint (channel_allocations (put_and_get, 1000, 1000), ==, 0);
}

/* A handler that holds its attempt and task, deaf to cancellation. */
static SluiceAttempt *held_attempt;
static GTask *held_task;

static void
hold_deaf (SluiceAttempt *attempt,
           GTask         *task,
           gpointer       user_data)
{
  held_attempt = g_object_ref (attempt);
  held_task = task;
}

static void
on_closed (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_assert_true (sluice_run_close_finish (SLUICE_RUN (object), res, NULL));
  *(gboolean *) user_data = TRUE;
}

/* The rule (issue 29): an attempt keeps one timer on the clock, its
 * deadline and then its cancel rounds; a caller's cancel before the
 * deadline replaces the deadline with the round, rather than adding a
 * second timer (56 bytes and a heap slot per attempt in flight). */
static void
test_attempt_keeps_one_timer (void)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (hold_deaf, NULL, NULL);
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceRun) run = start_run (handler, clock, 1, 1, 1, 10.0);
  gboolean closed = FALSE;
  gboolean ended = FALSE;

  sluice_run_next_async (run, NULL, on_next_one, &ended);
  while (held_task == NULL && !ended)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (sluice_clock_now (clock), ==, 0);
  sluice_run_close_async (run, NULL, on_closed, &closed);
  while (held_attempt != NULL && sluice_attempt_get_cancel_rounds (held_attempt) == 0)
    g_main_context_iteration (NULL, TRUE);

  g_assert_nonnull (held_task);
  g_assert_cmpuint (sluice_attempt_get_cancel_rounds (held_attempt), ==, 1);
  g_assert_cmpint (sluice_clock_now (clock), <, sluice_attempt_get_deadline (held_attempt));
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 1);

  g_task_return_new_error (held_task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  g_clear_object (&held_task);
  while (!closed || !ended)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (sluice_clock_get_n_pending (clock), ==, 0);
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
  g_clear_object (&held_attempt);
}

static void
on_waited (gpointer      item,
           const GError *error,
           gpointer      user_data)
{
  g_assert_no_error (error);
  g_assert_nonnull (item);
  (*(guint *) user_data)++;
}

/* Gets from empty @channel, so that the get waits, @n times; each is
 * served by a put and completes on the main loop. */
static void
wait_and_serve (SluiceChannel *channel,
                guint          n)
{
  guint done = 0;

  for (guint i = 1; i <= n; i++)
    {
      _sluice_channel_get_with_func (channel, NULL, on_waited, &done);
      g_assert_true (sluice_channel_try_put (channel, GUINT_TO_POINTER (i), NULL));
      while (done < i)
        g_main_context_iteration (NULL, TRUE);
    }
}

/* The rule (issue 29): a get that waits costs the channel no allocation
 * once it has completed as many waits before; each waiter was made and
 * freed for the one wait. */
static void
test_channel_wait_allocates_nothing (void)
{
  g_assert_cmpuint (channel_allocations (wait_and_serve, 10, 100), ==, 0);
}

/* A handler in C that completes its attempts through the attempt itself
 * (sluice_attempt_return_result()), on a timer of the clock: its calls sit
 * in one slot per worker, so that it allocates nothing of its own. Items
 * that are odd fail. */
typedef struct {
  GObject             *handler;
  SluiceAttempt       *attempt;
  GAsyncReadyCallback  callback;
  gpointer             user_data;
} ReturningSlot;

#define RETURNING_WORKERS 4

struct _ReturningHandler
{
  GObject        parent_instance;
  SluiceClock   *clock;
  ReturningSlot  slots[RETURNING_WORKERS];
  guint          finished_with_attempt;
};

#define RETURNING_TYPE_HANDLER (returning_handler_get_type ())
G_DECLARE_FINAL_TYPE (ReturningHandler, returning_handler, RETURNING, HANDLER, GObject)

static void returning_handler_iface_init (SluiceHandlerInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (ReturningHandler, returning_handler, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_HANDLER, returning_handler_iface_init))

static void
on_returning_timer (gpointer user_data)
{
  ReturningSlot *slot = user_data;
  g_autoptr(SluiceAttempt) attempt = g_steal_pointer (&slot->attempt);
  gint64 n = g_variant_get_int64 (sluice_attempt_get_item (attempt));

  if (n % 2 == 1)
    sluice_attempt_return_error (attempt, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, "odd %" G_GINT64_FORMAT, n));
  else
    sluice_attempt_return_result (attempt, g_variant_new_int64 (n));
  slot->callback (slot->handler, G_ASYNC_RESULT (attempt), slot->user_data);
}

static void
returning_handler_handle_async (SluiceHandler       *handler,
                                SluiceAttempt       *attempt,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  ReturningHandler *self = RETURNING_HANDLER (handler);
  ReturningSlot *slot = &self->slots[sluice_attempt_get_worker (attempt)];

  g_assert_null (slot->attempt);
  slot->handler = G_OBJECT (self);
  slot->attempt = g_object_ref (attempt);
  slot->callback = callback;
  slot->user_data = user_data;
  sluice_clock_add_timer (self->clock, sluice_clock_now (self->clock), on_returning_timer, slot, NULL);
}

static GVariant *
returning_handler_handle_finish (SluiceHandler  *handler,
                                 GAsyncResult   *result,
                                 GError        **error)
{
  RETURNING_HANDLER (handler)->finished_with_attempt += SLUICE_IS_ATTEMPT (result);
  return sluice_attempt_propagate_result (SLUICE_ATTEMPT (result), error);
}

static void
returning_handler_iface_init (SluiceHandlerInterface *iface)
{
  iface->handle_async = returning_handler_handle_async;
  iface->handle_finish = returning_handler_handle_finish;
}

static void
returning_handler_class_init (ReturningHandlerClass *klass)
{
}

static void
returning_handler_init (ReturningHandler *self)
{
}

/* The same completion, on the same timer, through the function handler's
 * GTask. */
static void
on_task_timer (gpointer user_data)
{
  GTask *task = user_data;
  SluiceAttempt *attempt = g_task_get_task_data (task);
  gint64 n = g_variant_get_int64 (sluice_attempt_get_item (attempt));

  if (n % 2 == 1)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, "odd %" G_GINT64_FORMAT, n);
  else
    g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (n)),
                           (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static void
return_through_task (SluiceAttempt *attempt,
                     GTask         *task,
                     gpointer       user_data)
{
  SluiceClock *clock = user_data;

  sluice_clock_add_timer (clock, sluice_clock_now (clock), on_task_timer, task, NULL);
}

typedef struct {
  gint64   results;
  gboolean ended;
} Drain;

static void
on_next_counted (GObject      *object,
                 GAsyncResult *res,
                 gpointer      user_data)
{
  Drain *drain = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = sluice_run_next_batch_finish (SLUICE_RUN (object), res, &error);

  /* The end: keep-going's error group, whose errors the caller counts. */
  if (batch == NULL)
    {
      drain->ended = TRUE;
      return;
    }
  g_assert_no_error (error);
  for (guint i = 0; i < batch->len; i++)
    g_assert_cmpint (g_variant_get_int64 (batch->pdata[i]) % 2, ==, 0);
  drain->results += batch->len;
  sluice_run_next_batch_async (SLUICE_RUN (object), 0, NULL, on_next_counted, drain);
}

/* A run of @items items through @handler on 4 workers: its allocations
 * once it runs, and what it gave. */
static gsize
allocations_of_handler_run (SluiceHandler *handler,
                            SluiceClock   *clock,
                            gint64         items,
                            gint64        *results,
                            guint         *errors)
{
  g_autoptr(SluiceRun) run = start_run (handler, clock, items, RETURNING_WORKERS, 8, 10.0);
  Drain drain = { 0, FALSE };
  gsize before = n_allocs;

  sluice_run_next_batch_async (run, 0, NULL, on_next_counted, &drain);
  while (!drain.ended)
    g_main_context_iteration (NULL, TRUE);
  *results = drain.results;
  *errors = sluice_run_get_errors (run)->len;
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
  return n_allocs - before;
}

static double
returning_allocations_per_item (gboolean through_attempt)
{
  const gint64 n = 2000;
  gsize counts[2];

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
      g_autoptr(SluiceHandler) handler = NULL;
      gint64 items = n * (i + 1);
      gint64 results;
      guint errors;

      if (through_attempt)
        {
          ReturningHandler *own = g_object_new (RETURNING_TYPE_HANDLER, NULL);

          own->clock = clock;
          handler = SLUICE_HANDLER (own);
        }
      else
        handler = sluice_func_handler_new (return_through_task, clock, NULL);
      counts[i] = allocations_of_handler_run (handler, clock, items, &results, &errors);

      /* Every value and every error reached the run, once. */
      g_assert_cmpint (results, ==, items / 2);
      g_assert_cmpuint (errors, ==, items / 2);
      if (through_attempt)
        g_assert_cmpuint (RETURNING_HANDLER (handler)->finished_with_attempt, ==, items);
    }
  return ((double) counts[1] - (double) counts[0]) / n;
}

/* The rule (issue 29): a handler can complete its attempt without a
 * GTask, the attempt being the GAsyncResult its callback gets
 * (sluice_attempt_return_result(), _return_error(), _propagate_result());
 * the task was an object, its lock and its data made and freed for every
 * attempt. Values and errors come through as with a task. */
static void
test_attempt_completes_without_task (void)
{
  double through_task = returning_allocations_per_item (FALSE);
  double through_attempt = returning_allocations_per_item (TRUE);

  g_test_message ("allocations per item: %.2f through a GTask, %.2f through the attempt",
                  through_task, through_attempt);
  g_assert_cmpfloat (through_task - through_attempt, >=, 0.9);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/attempt/object-and-cancellable-are-reused", test_attempt_object_and_cancellable_are_reused);
  g_test_add_func ("/attempt/held-by-handler-is-not-reused", test_attempt_held_by_handler_is_not_reused);
  g_test_add_func ("/attempt/reused-with-many-workers", test_attempt_reused_with_many_workers);
  g_test_add_func ("/attempt/cancel-func-hears-first-request", test_attempt_cancel_func_hears_first_request);
  g_test_add_func ("/attempt/keeps-one-timer", test_attempt_keeps_one_timer);
  g_test_add_func ("/attempt/completes-without-task", test_attempt_completes_without_task);
  g_test_add_func ("/channel/item-allocates-nothing", test_channel_item_allocates_nothing);
  g_test_add_func ("/channel/wait-allocates-nothing", test_channel_wait_allocates_nothing);

  return g_test_run ();
}
