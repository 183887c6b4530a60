/* pool-fixture.c: a scripted handler, a scripted source and a run driven
 * to its end on the virtual clock, shared by the pool's tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gobject/gvaluecollector.h>

#include "pool-fixture.h"

/* The scripted handler {{{ */

typedef struct {
  Script        *script;
  SluiceAttempt *attempt;
  GTask         *task;
  Doing          doing;     /* the behaviour for this attempt */
  gint64         delay;
  const char    *error_type;
  guint          record;    /* index in script->calls */
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
  script->running = g_hash_table_new (NULL, NULL);
  script->calls = g_array_new (FALSE, TRUE, sizeof (CallRecord));
  script->live = g_hash_table_new (NULL, NULL);
  return script;
}

static void
script_free (Script *script)
{
  g_hash_table_unref (script->by_item);
  g_hash_table_unref (script->attempts);
  g_hash_table_unref (script->running);
  g_array_unref (script->calls);
  g_hash_table_unref (script->live);
  g_free (script);
}

void
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
  b->then_delay = b->delay;
  g_hash_table_replace (script->by_item, GINT_TO_POINTER (item), b);
}

/* The delay of the attempts after the first `fails` ones of @item. */
void
script_then (Script *script,
             gint64  item,
             double  then_delay)
{
  Behaviour *b = g_hash_table_lookup (script->by_item, GINT_TO_POINTER (item));

  g_assert_nonnull (b);
  b->then_delay = S (then_delay);
}

static guint
count_for (GHashTable *table,
           gint64      item)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (table, GINT_TO_POINTER (item)));
}

static void
count_add (GHashTable *table,
           gint64      item,
           gint        delta)
{
  g_hash_table_replace (table, GINT_TO_POINTER (item),
                        GUINT_TO_POINTER (count_for (table, item) + delta));
}

guint
script_attempts (Script *script,
                 gint64  item)
{
  return count_for (script->attempts, item);
}

CallRecord *
script_call (Script *script,
             gint64  item,
             guint   number)
{
  for (guint i = 0; i < script->calls->len; i++)
    {
      CallRecord *r = &g_array_index (script->calls, CallRecord, i);
      if (r->item == item && r->number == number)
        return r;
    }
  g_assert_not_reached ();
}

static CallRecord *
call_record (Call *call)
{
  return &g_array_index (call->script->calls, CallRecord, call->record);
}

/* (transfer full): a floating square, or a new reference to a non-integer
 * item; call_finish() takes either with g_variant_take_ref(). */
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
  CallRecord *record = call_record (call);

  g_assert_false (call->done);
  call->done = TRUE;
  call->script->concurrent--;
  count_add (call->script->running, record->item, -1);
  g_hash_table_remove (call->script->live, GINT_TO_POINTER (record->item));
  record->ended = sluice_clock_now (call->script->clock);
  record->returned_ok = error == NULL;
  record->error = error;
  if (error == NULL)
    call->script->ok_returns++;

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
    g_task_return_pointer (task, g_variant_take_ref (result), (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static void
on_call_timer (gpointer data)
{
  Call *call = data;
  guint number = sluice_attempt_get_number (call->attempt);

  call->timer = 0;
  if (call->doing == DO_CANCEL_SELF)
    call_finish (call, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
  else if (call->doing == DO_FAIL || call->doing == DO_FAIL_ALWAYS)
    call_finish (call, NULL, sluice_named_error_new (call->error_type,
                                                     "attempt %u failed", number));
  else
    call_finish (call, square (sluice_attempt_get_item (call->attempt)), NULL);
}

/* Holds the attempt, not the call: the call may be gone (freed with the
 * attempt's local data) by the time the idle runs. */
static gboolean
on_cancel_idle (gpointer data)
{
  Call *call = sluice_attempt_get_local (SLUICE_ATTEMPT (data));

  if (call != NULL && !call->done)
    call_finish (call, NULL, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled"));
  return G_SOURCE_REMOVE;
}

static void
finish_cancelled_later (Call *call)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, on_cancel_idle,
                   g_object_ref (call->attempt), g_object_unref);
}

/* Runs inside g_cancellable_cancel(): finish from an idle so that the
 * handler can disconnect from the cancellable. */
static void
on_call_cancelled (GCancellable *cancellable,
                   Call         *call)
{
  call_record (call)->cancel_seen = TRUE;
  if (call->doing == DO_LATE || call->doing == DO_STUBBORN)
    return;
  finish_cancelled_later (call);
}

static void
on_call_round (SluiceAttempt *attempt,
               guint          round,
               Call          *call)
{
  call_record (call)->rounds_seen = round;
  if (call->doing == DO_STUBBORN && round >= 2)
    finish_cancelled_later (call);
}

/* Ends the running call of @item now, with its result: from a clock timer
 * scheduled before the attempt started, this runs before its deadline
 * timer at the same instant. */
void
script_finish_now (Script *script,
                   gint64  item)
{
  Call *call = g_hash_table_lookup (script->live, GINT_TO_POINTER (item));

  g_assert_nonnull (call);
  call_finish (call, square (sluice_attempt_get_item (call->attempt)), NULL);
}

static void
call_free (gpointer data)
{
  g_free (data);
}

static Doing
doing_for (const Behaviour *b,
           guint            number)
{
  switch (b->doing)
    {
    case DO_FAIL:
      return number <= b->fails ? DO_FAIL : DO_OK;
    case DO_HANG:
    case DO_LATE:
    case DO_CANCEL_SELF:
    case DO_STUBBORN:
      return b->fails == 0 || number <= b->fails ? b->doing : DO_OK;
    case DO_OK:
    case DO_FAIL_ALWAYS:
    default:
      return b->doing;
    }
}

static void
scripted_handle (SluiceAttempt *attempt,
                 GTask         *task,
                 gpointer       user_data)
{
  Script *script = user_data;
  gint64 index = sluice_attempt_get_item_index (attempt);
  const Behaviour *b = g_hash_table_lookup (script->by_item, GINT_TO_POINTER (index));
  Call *call = g_new0 (Call, 1);
  CallRecord record = { 0 };

  if (b == NULL)
    b = &script->fallback;

  /* A new attempt starts with nothing of an earlier one. */
  if (sluice_attempt_get_local (attempt) != NULL)
    script->ctx_failures++;

  call->script = script;
  call->attempt = attempt;
  call->task = task;
  call->doing = doing_for (b, sluice_attempt_get_number (attempt));
  call->delay = call->doing == b->doing ? b->delay : b->then_delay;
  call->error_type = b->error_type;
  sluice_attempt_set_local (attempt, call, call_free);

  record.item = index;
  record.number = sluice_attempt_get_number (attempt);
  record.started = sluice_clock_now (script->clock);
  record.ended = -1;
  call->record = script->calls->len;
  g_array_append_val (script->calls, record);

  count_add (script->attempts, index, 1);
  if (count_for (script->running, index) > 0)
    script->overlaps++;
  count_add (script->running, index, 1);
  g_hash_table_replace (script->live, GINT_TO_POINTER (index), call);
  script->concurrent++;
  script->max_concurrent = MAX (script->max_concurrent, script->concurrent);

  call->cancel_id = g_signal_connect (sluice_attempt_get_cancellable (attempt), "cancelled",
                                      G_CALLBACK (on_call_cancelled), call);
  call->round_id = g_signal_connect (attempt, "cancel-requested", G_CALLBACK (on_call_round), call);

  if (call->doing != DO_HANG)
    call->timer = sluice_clock_add_timeout (script->clock, call->delay,
                                            on_call_timer, call, NULL);
}

/* }}} */
/* The scripted source {{{ */

static void test_source_iface_init (SluiceSourceInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestSource, test_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, test_source_iface_init))

static gboolean
on_read_cancelled (GCancellable *cancellable,
                   gpointer      user_data)
{
  GTask *task = user_data;
  TestSource *self = g_task_get_source_object (task);

  self->cancelled_reads++;
  g_task_return_error_if_cancelled (task);
  return G_SOURCE_REMOVE;
}

static void
on_slow_read (gpointer data)
{
  GTask *task = data;
  TestSource *self = g_task_get_source_object (task);
  gint64 n = self->position++;

  g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (n)),
                         (GDestroyNotify) g_variant_unref);
}

static void
test_source_next_async (SluiceSource        *source,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  TestSource *self = TEST_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->reads++;
  self->pending++;

  if (self->position == self->hang_at && cancellable != NULL)
    {
      g_autoptr(GSource) wait = g_cancellable_source_new (cancellable);
      g_task_attach_source (task, wait, G_SOURCE_FUNC (on_read_cancelled));
    }
  else if (self->position == self->fail_at)
    {
      GError *error = sluice_named_error_new ("SourceError", "read %" G_GINT64_FORMAT " failed",
                                              self->position);
      self->last_error = error;
      g_task_return_error (task, error);
    }
  else if (self->position == self->slow_at)
    {
      /* The item comes even if the read was cancelled meanwhile. */
      g_task_set_check_cancellable (task, FALSE);
      sluice_clock_add_timeout (self->clock, self->slow_delay, on_slow_read,
                                g_steal_pointer (&task), g_object_unref);
    }
  else if (self->position == self->cancel_self_at)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "source gave up");
  else if (self->n_items >= 0 && self->position >= self->n_items)
    g_task_return_pointer (task, NULL, NULL);
  else
    {
      gint64 n = self->position++;

      if (self->script != NULL)
        self->max_lead = MAX (self->max_lead, (guint) (self->position - self->script->ok_returns));
      g_task_return_pointer (task, g_variant_ref_sink (g_variant_new_int64 (n)),
                             (GDestroyNotify) g_variant_unref);
    }
}

static GVariant *
test_source_next_finish (SluiceSource  *source,
                         GAsyncResult  *result,
                         GError       **error)
{
  TestSource *self = TEST_SOURCE (source);

  g_assert_true (g_task_is_valid (result, source));
  g_assert_cmpuint (self->pending, >, 0);
  self->pending--;
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
test_source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = test_source_next_async;
  iface->next_finish = test_source_next_finish;
}

static void
test_source_class_init (TestSourceClass *klass)
{
}

static void
test_source_init (TestSource *self)
{
  self->hang_at = -1;
  self->fail_at = -1;
  self->cancel_self_at = -1;
  self->slow_at = -1;
}

TestSource *
test_source_new (gint64 n_items)
{
  TestSource *self = g_object_new (TEST_TYPE_SOURCE, NULL);

  self->n_items = n_items;
  return self;
}

/* }}} */
/* A run, driven to its end {{{ */

static gboolean
count_metrics (const char  *event,
               const char  *detail,
               gpointer     user_data,
               GError     **error)
{
  Fixture *f = user_data;
  gint64 now = sluice_clock_now (f->clock);

  if (g_str_equal (event, "ok"))
    f->metrics[0]++;
  else if (g_str_equal (event, "retry"))
    f->metrics[1]++;
  else if (g_str_equal (event, "failure"))
    f->metrics[2]++;
  else
    g_assert_not_reached ();

  g_ptr_array_add (f->metric_details, g_strdup_printf ("%s %s", event, detail));
  g_array_append_val (f->metric_times, now);

  if (f->stop_on_metric != NULL && f->pool != NULL && g_str_equal (event, f->stop_on_metric))
    {
      sluice_pool_request_stop (f->pool);
      if (f->drop_pool_on_metric)
        g_clear_object (&f->pool);
    }

  if (f->close_on_metric != NULL && f->n_closes == 0 && g_str_equal (event, f->close_on_metric))
    close_run (f);
  if (f->drop_run_on_metric)
    g_clear_object (&f->run);

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
  EventRecord r = {
    .kind = event->kind,
    .time = event->time,
    .item = event->item,
    .attempt = event->attempt,
    .worker = event->worker,
    .round = event->round,
    .outcome = event->outcome,
    .retried = event->retried,
    .delay = event->delay,
    .reason = g_intern_string (event->reason),
    .tokens = event->tokens,
    .queued = event->queued,
    .in_flight = event->in_flight,
    .lead = event->lead,
  };

  g_array_append_val (f->events, r);

  if ((gint) event->kind == f->stop_on_event && f->pool != NULL)
    sluice_pool_request_stop (f->pool);
  if ((gint) event->kind == f->close_on_event && f->n_closes == 0)
    close_run (f);
}

static void
on_stalled (SluiceClock *clock,
            Fixture     *f)
{
  f->stalled = TRUE;
}

static void
setup_with_clock (Fixture     *f,
                  SluiceClock *clock)
{
  f->clock = clock;
  g_signal_connect (f->clock, "stalled", G_CALLBACK (on_stalled), f);
  f->script = script_new (f->clock);
  f->results = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  f->result_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->metric_details = g_ptr_array_new_with_free_func (g_free);
  f->metric_times = g_array_new (FALSE, FALSE, sizeof (gint64));
  f->events = g_array_new (FALSE, FALSE, sizeof (EventRecord));
  f->stop_after = -1;
  f->cancel_after = -1;
  f->pause_after = -1;
  f->close_after = -1;
  f->end_time = -1;
  f->close_time = -1;
  f->stop_on_event = -1;
  f->close_on_event = -1;
}

void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  setup_with_clock (f, sluice_clock_new (SLUICE_CLOCK_VIRTUAL));
}

/* @data: a pointer to the pace, virtual seconds per wall second */
void
fixture_setup_paced (Fixture       *f,
                     gconstpointer  data)
{
  SluiceClock *clock = sluice_clock_new (SLUICE_CLOCK_PACED);

  sluice_clock_set_speed (clock, *(const double *) data);
  setup_with_clock (f, clock);
}

void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->run != NULL)
    {
      /* Whatever the test did, the run ended with nothing left alive. */
      g_assert_true (sluice_run_is_finished (f->run));
      g_assert_cmpuint (sluice_run_get_live_operations (f->run), ==, 0);
    }
  /* Every timer of the test fired, and the pool left none behind. */
  g_assert_cmpuint (sluice_clock_get_n_pending (f->clock), ==, 0);
  g_assert_cmpuint (f->script->concurrent, ==, 0);
  g_assert_cmpuint (f->script->ctx_failures, ==, 0);
  g_assert_cmpuint (f->script->overlaps, ==, 0);

  /* Let the handler's idles run: they hold the attempts they finish. */
  while (g_main_context_iteration (NULL, FALSE))
    ;

  if (f->run != NULL)
    g_assert_finalize_object (f->run);
  if (f->source != NULL)
    g_assert_finalize_object (f->source);
  if (f->pool != NULL)
    g_assert_finalize_object (f->pool);
  g_assert_finalize_object (f->clock);
  script_free (f->script);
  g_clear_object (&f->cancel);
  g_clear_error (&f->end_error);
  g_clear_error (&f->close_error);
  g_ptr_array_unref (f->results);
  g_array_unref (f->result_times);
  g_ptr_array_unref (f->metric_details);
  g_array_unref (f->metric_times);
  g_array_unref (f->events);
}

/* A pool's construct properties, collected from varargs like
 * g_object_new() does, for g_object_new_with_properties(). */
typedef struct {
  GObjectClass *klass;
  GPtrArray    *names;
  GArray       *values;
} Props;

static void
props_add_valist (Props      *props,
                  const char *first_property,
                  va_list     args)
{
  for (const char *name = first_property; name != NULL; name = va_arg (args, const char *))
    {
      GParamSpec *pspec = g_object_class_find_property (props->klass, name);
      GValue value = G_VALUE_INIT;
      g_autofree char *error = NULL;

      g_assert_nonnull (pspec);
      G_VALUE_COLLECT_INIT (&value, pspec->value_type, args, 0, &error);
      g_assert_null (error);
      g_ptr_array_add (props->names, (gpointer) name);
      g_array_append_val (props->values, value);
    }
}

static void
props_add (Props      *props,
           const char *first_property,
           ...)
{
  va_list args;

  va_start (args, first_property);
  props_add_valist (props, first_property, args);
  va_end (args);
}

/* Starts with the scripted handler and the virtual clock. */
static void
props_init (Props   *props,
            Fixture *f)
{
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (scripted_handle, f->script, NULL);

  props->klass = g_type_class_ref (SLUICE_TYPE_POOL);
  props->names = g_ptr_array_new ();
  props->values = g_array_new (FALSE, TRUE, sizeof (GValue));
  g_array_set_clear_func (props->values, (GDestroyNotify) g_value_unset);
  props_add (props, "handler", handler, "clock", f->clock, NULL);
}

/* Builds the pool and frees @props: %NULL, with @error set, if
 * GInitable refuses the options. */
static SluicePool *
props_new_pool (Props   *props,
                GError **error)
{
  GObject *pool = g_object_new_with_properties (SLUICE_TYPE_POOL, props->names->len,
                                                (const char **) props->names->pdata,
                                                (const GValue *) props->values->data);

  g_ptr_array_unref (props->names);
  g_array_unref (props->values);
  g_type_class_unref (props->klass);

  if (!g_initable_init (G_INITABLE (pool), NULL, error))
    g_clear_object (&pool);
  return (SluicePool *) pool;
}

/* A pool with the capstone's options and then the given properties
 * (name, value, …, NULL; doubles as doubles), that must be valid. */
SluicePool *
make_pool_props (Fixture    *f,
                 gint        workers,
                 gint        queue_size,
                 double      item_timeout,
                 gint        max_retries,
                 const char *retryable,
                 const char *first_property,
                 ...)
{
  g_auto(GStrv) types = g_strsplit (retryable != NULL ? retryable : "", ",", -1);
  g_autoptr(GError) error = NULL;
  SluicePool *pool;
  Props props;
  va_list args;

  props_init (&props, f);
  props_add (&props,
             "workers", workers,
             "queue-size", queue_size,
             "item-timeout", item_timeout,
             "max-retries", max_retries,
             "retryable", retryable != NULL ? types : NULL,
             NULL);
  va_start (args, first_property);
  props_add_valist (&props, first_property, args);
  va_end (args);

  pool = props_new_pool (&props, &error);
  g_assert_no_error (error);
  sluice_pool_set_metrics_func (pool, count_metrics, f, NULL);
  sluice_pool_set_event_func (pool, record_event, f, NULL);
  f->pool = pool;
  return pool;
}

/* A pool with only the given properties (the handler and the clock
 * aside), or %NULL with @error set; not the fixture's pool. */
SluicePool *
try_make_pool (Fixture     *f,
               GError     **error,
               const char  *first_property,
               ...)
{
  Props props;
  va_list args;

  props_init (&props, f);
  va_start (args, first_property);
  props_add_valist (&props, first_property, args);
  va_end (args);
  return props_new_pool (&props, error);
}

SluicePool *
make_pool_full (Fixture    *f,
                gint        workers,
                gint        queue_size,
                double      item_timeout,
                gint        max_retries,
                const char *retryable,
                gboolean    keep_going)
{
  return make_pool_props (f, workers, queue_size, item_timeout, max_retries, retryable,
                          "keep-going", keep_going, NULL);
}

SluicePool *
make_pool (Fixture *f,
           gint     workers,
           gint     queue_size,
           double   item_timeout)
{
  return make_pool_full (f, workers, queue_size, item_timeout, 0, NULL, FALSE);
}

static void on_next (GObject *object, GAsyncResult *res, gpointer user_data);

void
ask_next (Fixture *f)
{
  f->paused = FALSE;
  sluice_run_next_async (f->run, f->cancel, on_next, f);
}

static void
on_closed (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  Fixture *f = user_data;
  gboolean closed;

  g_clear_error (&f->close_error);
  closed = sluice_run_close_finish (SLUICE_RUN (object), res, &f->close_error);
  g_assert_true (closed == (f->close_error == NULL));
  /* Only a close given the caller's cancellable can report its cancel. */
  if (!f->close_with_cancel)
    g_assert_no_error (f->close_error);
  f->n_closed++;
  f->closed = TRUE;
  f->close_time = sluice_clock_now (f->clock);
  f->close_live = sluice_run_get_live_operations (f->run);
  f->close_finished = sluice_run_is_finished (f->run);
}

void
close_run (Fixture *f)
{
  f->n_closes++;
  sluice_run_close_async (f->run, f->close_with_cancel ? f->cancel : NULL, on_closed, f);
}

static void
on_next (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  Fixture *f = user_data;
  GVariant *result;
  gint64 now = sluice_clock_now (f->clock);

  result = sluice_run_next_finish (SLUICE_RUN (object), res, &f->end_error);
  if (result == NULL)
    {
      g_assert_false (f->ended);
      f->ended = TRUE;
      f->end_time = now;
      f->end_live = sluice_run_get_live_operations (f->run);
      f->end_finished = sluice_run_is_finished (f->run);
      return;
    }

  g_ptr_array_add (f->results, result);
  g_array_append_val (f->result_times, now);

  if (f->stop_after > 0 && f->results->len == (guint) f->stop_after)
    sluice_pool_request_stop (f->pool);
  if (f->cancel_after > 0 && f->results->len == (guint) f->cancel_after)
    g_cancellable_cancel (f->cancel);
  if (f->close_after > 0 && f->results->len == (guint) f->close_after)
    {
      close_run (f);
      f->paused = TRUE;
      return;
    }
  if (f->pause_after > 0 && f->results->len == (guint) f->pause_after)
    {
      f->paused = TRUE;
      return;
    }

  ask_next (f);
}

/* Turns the main context until @flag is set. Nothing waits on real time,
 * so a turn that dispatches nothing means nothing ever will: fail instead
 * of blocking. */
void
spin_until (Fixture  *f,
            gboolean *flag)
{
  guint idle_turns = 0;

  for (guint i = 0; i < 1000000 && !*flag && !f->stalled && idle_turns < 3; i++)
    {
      if (g_main_context_iteration (NULL, FALSE))
        idle_turns = 0;
      else
        idle_turns++;
    }
  g_assert_false (f->stalled);
  g_assert_true (*flag);
}

void
start_run (Fixture      *f,
           SluiceSource *source)
{
  g_autoptr(GError) error = NULL;

  f->source = source;
  f->run = sluice_pool_run (f->pool, source, &error);
  g_assert_no_error (error);
  ask_next (f);
}

/* Runs the pool over @source to its end, like `async for` in the seed. */
void
drive (Fixture      *f,
       SluiceSource *source)
{
  start_run (f, source);
  spin_until (f, &f->ended);
}

typedef struct {
  Fixture *f;
  Action   action;
} Timed;

static void
on_action (gpointer data)
{
  Timed *t = data;

  switch (t->action)
    {
    case ACT_STOP:
      sluice_pool_request_stop (t->f->pool);
      break;
    case ACT_CANCEL:
      g_cancellable_cancel (t->f->cancel);
      break;
    case ACT_CLOSE:
      close_run (t->f);
      break;
    case ACT_RUN_CANCEL:
      sluice_run_cancel (t->f->run);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Does @action at @seconds on the clock. */
void
at (Fixture *f,
    double   seconds,
    Action   action)
{
  Timed *t = g_new0 (Timed, 1);

  t->f = f;
  t->action = action;
  sluice_clock_add_timer (f->clock, S (seconds), on_action, t, g_free);
}

SluiceSource *
range (gint64 n)
{
  return sluice_array_source_new_range (n);
}

gint64
result_at (Fixture *f,
           guint    i)
{
  g_assert_cmpuint (i, <, f->results->len);
  return g_variant_get_int64 (g_ptr_array_index (f->results, i));
}

gint64
result_time (Fixture *f,
             guint    i)
{
  g_assert_cmpuint (i, <, f->result_times->len);
  return g_array_index (f->result_times, gint64, i);
}

void
assert_group (Fixture *f,
              guint    n_errors)
{
  g_assert_error (f->end_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, n_errors);
}

const GError *
recorded_error (Fixture *f,
                guint    i)
{
  g_assert_cmpuint (i, <, sluice_run_get_errors (f->run)->len);
  return g_ptr_array_index (sluice_run_get_errors (f->run), i);
}

char *
recorded_repr (Fixture *f,
               guint    i)
{
  return sluice_error_repr (recorded_error (f, i));
}

guint
count_events (Fixture         *f,
              SluiceEventKind  kind)
{
  guint n = 0;

  for (guint i = 0; i < f->events->len; i++)
    if (g_array_index (f->events, EventRecord, i).kind == kind)
      n++;
  return n;
}

EventRecord *
nth_event (Fixture         *f,
           SluiceEventKind  kind,
           guint            n)
{
  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);
      if (r->kind == kind && n-- == 0)
        return r;
    }
  g_assert_not_reached ();
}

/* How the last attempt at @item ended. */
SluiceOutcome
item_outcome (Fixture *f,
              gint64   item)
{
  SluiceOutcome outcome = SLUICE_OUTCOME_NONE;

  for (guint i = 0; i < f->events->len; i++)
    {
      EventRecord *r = &g_array_index (f->events, EventRecord, i);
      if (r->kind == SLUICE_EVENT_ATTEMPT_END && r->item == item)
        outcome = r->outcome;
    }
  return outcome;
}

SluiceRunStats
run_stats (Fixture *f)
{
  SluiceRunStats stats;

  sluice_run_get_stats (f->run, &stats);
  return stats;
}

/* Every pulled item ended as exactly one of: result, failure, dropped, or
 * cancelled in flight; and the event stream says the same. */
void
assert_accounted (Fixture *f)
{
  SluiceRunStats s = run_stats (f);

  g_assert_cmpuint (s.pulled, ==, s.succeeded + s.failed + s.dropped + s.cancelled);
  g_assert_cmpuint (s.pulled, ==, count_events (f, SLUICE_EVENT_PULL));
  g_assert_cmpuint (s.succeeded, ==, count_events (f, SLUICE_EVENT_ITEM_OK));
  g_assert_cmpuint (s.failed, ==, count_events (f, SLUICE_EVENT_ITEM_FAILED));
  g_assert_cmpuint (s.dropped, ==, count_events (f, SLUICE_EVENT_ITEM_DROPPED));
  g_assert_cmpuint (s.cancelled, ==, count_events (f, SLUICE_EVENT_ITEM_CANCELLED));
  g_assert_cmpuint (s.in_flight, ==, 0);
  g_assert_cmpuint (s.queued, ==, 0);
  /* Metrics: one `ok` per success, one `failure` per failure, nothing for
   * dropped or cancelled items. */
  g_assert_cmpuint (f->metrics[0], ==, s.succeeded);
  g_assert_cmpuint (f->metrics[2], ==, s.failed);
  g_assert_cmpuint (f->metrics[1], ==, s.retries);
}

/* }}} */

/* A GAsyncReadyCallback for sluice_run_close_async() whose close must
 * succeed; @user_data, if not %NULL, is a gboolean set when it has. */
void
assert_closed (GObject      *run,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (sluice_run_close_finish (SLUICE_RUN (run), result, &error));
  g_assert_no_error (error);
  if (user_data != NULL)
    *(gboolean *) user_data = TRUE;
}
