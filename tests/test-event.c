/* test-event.c: what the engine's events carry, their copies, and the one
 * conversion from seconds to the clock's microseconds
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The views fold the event stream and recompute nothing the engine decided:
 * an attempt's deadline comes on its attempt-start, the attempt that failed
 * for good on the item-failed, the queue capacity, lead bound and item
 * timeout on the run-start. The events are kept as deep copies, and every
 * seconds → µs conversion rounds one way.
 */

#include <math.h>
#include <string.h>

#include "pool-fixture.h"

/* Every event of the run, each a sluice_event_copy(): the run's own
 * strings are gone by the time the test reads them. */
static void
keep_copy (const SluiceEvent *event,
           gpointer           user_data)
{
  g_ptr_array_add (user_data, sluice_event_copy (event));
}

static GPtrArray *
keep_events (Fixture *f)
{
  GPtrArray *events = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_event_free);

  sluice_pool_set_event_func (f->pool, keep_copy, g_ptr_array_ref (events),
                              (GDestroyNotify) g_ptr_array_unref);
  return events;
}

/* The @n-th event of @kind (for @item, unless -1). */
static const SluiceEvent *
find_event (GPtrArray       *events,
            SluiceEventKind  kind,
            gint64           item,
            guint            n)
{
  for (guint i = 0; i < events->len; i++)
    {
      const SluiceEvent *event = g_ptr_array_index (events, i);

      if (event->kind == kind && (item < 0 || event->item == item) && n-- == 0)
        return event;
    }

  g_error ("no %s event #%u for item %" G_GINT64_FORMAT, sluice_event_kind_to_string (kind), n, item);
  return NULL;
}

/* ---- attempt-start: the deadline ----------------------------------------- */

/* One worker, item timeout 0.5 s: items start at 0, 0.2 and 0.4 s; each
 * deadline is its start + 0.5 s, and the hanging item's first cancel
 * request comes at exactly the deadline its attempt-start gave. */
static void
test_attempt_start_carries_the_deadline (Fixture       *f,
                                         gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;
  const SluiceEvent *start;

  make_pool_full (f, 1, 3, 0.5, 0, NULL, TRUE);
  events = keep_events (f);
  script_set (f->script, 0, DO_OK, 0.2, 0, NULL);
  script_set (f->script, 1, DO_OK, 0.2, 0, NULL);
  script_set (f->script, 2, DO_HANG, 0, 0, NULL);

  drive (f, range (3));

  for (gint64 item = 0; item < 3; item++)
    {
      start = find_event (events, SLUICE_EVENT_ATTEMPT_START, item, 0);
      g_assert_cmpint (start->time, ==, S (0.2) * item);
      g_assert_cmpint (start->deadline, ==, start->time + S (0.5));
    }

  g_assert_cmpint (find_event (events, SLUICE_EVENT_CANCEL_REQUEST, 2, 0)->time, ==, start->deadline);
  g_assert_cmpint (find_event (events, SLUICE_EVENT_ATTEMPT_END, 2, 0)->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
}

/* Item timeout 1 s, item deadline 1.5 s after the pull, one worker: item 0
 * starts at 0, so its timeout comes first (1 s); item 1, pulled at 0,
 * starts at 0.8 s, so its item deadline does (1.5 s, not 1.8 s). Its
 * timer fires there: the cancel request is at 1.5 s. */
static void
test_attempt_start_carries_the_earlier_item_deadline (Fixture       *f,
                                                      gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;
  const SluiceEvent *start;

  make_pool_props (f, 1, 2, 1.0, 0, NULL, "item-deadline", 1.5, "keep-going", TRUE, NULL);
  events = keep_events (f);
  script_set (f->script, 0, DO_OK, 0.8, 0, NULL);
  script_set (f->script, 1, DO_HANG, 0, 0, NULL);

  drive (f, range (2));

  start = find_event (events, SLUICE_EVENT_ATTEMPT_START, 0, 0);
  g_assert_cmpint (start->deadline, ==, S (1.0));

  start = find_event (events, SLUICE_EVENT_ATTEMPT_START, 1, 0);
  g_assert_cmpint (start->time, ==, S (0.8));
  g_assert_cmpint (start->deadline, ==, S (1.5));
  g_assert_cmpint (find_event (events, SLUICE_EVENT_CANCEL_REQUEST, 1, 0)->time, ==, S (1.5));
}

/* Every attempt has a deadline (a pool always has an item timeout); no
 * other event has one, nor the run-start's fields. */
static void
test_only_attempt_starts_carry_a_deadline (Fixture       *f,
                                           gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;
  guint n_starts = 0;

  make_pool_full (f, 2, 1, 1.0, 1, "ValueError", TRUE);
  events = keep_events (f);
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 2, DO_HANG, 0, 0, NULL);

  drive (f, range (4));

  for (guint i = 0; i < events->len; i++)
    {
      const SluiceEvent *event = g_ptr_array_index (events, i);

      if (event->kind == SLUICE_EVENT_ATTEMPT_START)
        {
          g_assert_cmpint (event->deadline, ==, event->time + S (1.0));
          n_starts++;
        }
      else
        g_assert_cmpint (event->deadline, ==, -1);

      if (event->kind != SLUICE_EVENT_RUN_START)
        {
          g_assert_cmpuint (event->queue_capacity, ==, 0);
          g_assert_cmpuint (event->lead_bound, ==, 0);
          g_assert_cmpint (event->item_timeout, ==, -1);
        }
    }
  g_assert_cmpuint (n_starts, ==, 5);
}

/* ---- item-failed: the attempt -------------------------------------------- */

/* Item 0 fails on each of its 1 + 2 attempts; item 1 with an error that is
 * not retried, on its first; both fail for good with the attempt that
 * failed last. */
static void
test_item_failed_carries_the_last_attempt (Fixture       *f,
                                           gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;
  const SluiceEvent *failed;

  make_pool_full (f, 2, 1, 1.0, 2, "ValueError", TRUE);
  events = keep_events (f);
  script_set (f->script, 0, DO_FAIL_ALWAYS, 0.1, 0, "ValueError");
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "KeyError");

  drive (f, range (2));

  failed = find_event (events, SLUICE_EVENT_ITEM_FAILED, 0, 0);
  g_assert_cmpuint (failed->attempt, ==, 3);
  g_assert_cmpstr (failed->error_type, ==, "ValueError");
  g_assert_cmpstr (failed->error_message, ==, "attempt 3 failed");

  failed = find_event (events, SLUICE_EVENT_ITEM_FAILED, 1, 0);
  g_assert_cmpuint (failed->attempt, ==, 1);
  g_assert_cmpstr (failed->error_type, ==, "KeyError");
}

/* An item shed from the queue past its deadline had no attempt: 0. */
static void
test_item_failed_after_a_shed_has_no_attempt (Fixture       *f,
                                              gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;

  make_pool_props (f, 1, 1, 2.0, 0, NULL, "item-deadline", 0.5, "keep-going", TRUE, NULL);
  events = keep_events (f);
  script_set (f->script, 0, DO_OK, 1.0, 0, NULL);

  drive (f, range (2));

  find_event (events, SLUICE_EVENT_DEADLINE_EXCEEDED, 1, 0);
  g_assert_cmpuint (find_event (events, SLUICE_EVENT_ITEM_FAILED, 1, 0)->attempt, ==, 0);
}

/* ---- run-start: the bounds ----------------------------------------------- */

/* Three workers and a queue of four: capacity 4, bound 4 + 3 + 1 = 8, which
 * the run's lead reaches and never passes; the item timeout in µs. */
static void
test_run_start_carries_the_bounds (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;
  const SluiceEvent *start;
  guint max_lead = 0;

  make_pool (f, 3, 4, 0.25);
  events = keep_events (f);
  script_set (f->script, 0, DO_OK, 0.2, 0, NULL);
  f->script->fallback.delay = S (0.1);

  drive (f, range (30));

  start = g_ptr_array_index (events, 0);
  g_assert_cmpint (start->kind, ==, SLUICE_EVENT_RUN_START);
  g_assert_cmpuint (start->queue_capacity, ==, 4);
  g_assert_cmpuint (start->lead_bound, ==, 8);
  g_assert_cmpint (start->item_timeout, ==, S (0.25));
  g_assert_cmpint (start->deadline, ==, -1);

  for (guint i = 0; i < events->len; i++)
    max_lead = MAX (max_lead, ((SluiceEvent *) g_ptr_array_index (events, i))->lead);
  g_assert_cmpuint (max_lead, ==, start->lead_bound);
}

/* A service run has the same bound: no producer holds an item, but its
 * lead is judged by the stream's rule. */
static void
on_submitted (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  g_autoptr(SluiceJob) job = sluice_run_submit_finish (SLUICE_RUN (object), res, NULL);

  g_assert_nonnull (job);
}

static void
test_run_start_of_a_service_has_the_same_bound (Fixture       *f,
                                                gconstpointer  data)
{
  g_autoptr(GPtrArray) events = NULL;
  gboolean closed = FALSE;
  const SluiceEvent *start;

  make_pool (f, 2, 3, 1.0);
  events = keep_events (f);
  f->run = sluice_pool_open (f->pool, NULL);
  g_assert_nonnull (f->run);
  sluice_run_submit_async (f->run, g_variant_new_int64 (0), NULL, on_submitted, NULL);
  sluice_run_close_async (f->run, NULL, assert_closed, &closed);
  spin_until (f, &closed);

  start = find_event (events, SLUICE_EVENT_RUN_START, -1, 0);
  g_assert_cmpuint (start->queue_capacity, ==, 3);
  g_assert_cmpuint (start->lead_bound, ==, 3 + 2 + 1);
  g_assert_cmpint (start->item_timeout, ==, S (1.0));
}

/* ---- copies ------------------------------------------------------------- */

/* A copy owns its strings and holds its value: they outlive the original
 * (run under ASan with G_SLICE=always-malloc, a borrowed pointer is a
 * use-after-free). Every field comes along. */
static void
test_copy_owns_strings_and_value (void)
{
  char *type = g_strdup ("ValueError");
  char *message = g_strdup ("bad item");
  char reason[] = "deadline";
  GVariant *value = g_variant_ref_sink (g_variant_new_string ("result"));
  SluiceEvent original = {
    .kind = SLUICE_EVENT_ATTEMPT_START, .time = 7, .item = 3, .attempt = 2, .worker = 1,
    .error_type = type, .error_message = message, .value = value, .reason = reason,
    .delay = -1, .tokens = 4000, .lead = 5, .deadline = 1500007,
    .queue_capacity = 4, .lead_bound = 8, .item_timeout = 250000,
  };
  g_autoptr(SluiceEvent) copy = sluice_event_copy (&original);

  /* Its own strings, not the original's. */
  g_assert_true (copy->error_type != type);
  g_assert_true (copy->error_message != message);
  g_assert_true (copy->reason != reason);
  g_free (type);
  g_free (message);
  memset (reason, 'x', sizeof reason - 1);
  g_variant_unref (value);

  g_assert_cmpint (copy->kind, ==, SLUICE_EVENT_ATTEMPT_START);
  g_assert_cmpint (copy->time, ==, 7);
  g_assert_cmpint (copy->item, ==, 3);
  g_assert_cmpuint (copy->attempt, ==, 2);
  g_assert_cmpint (copy->worker, ==, 1);
  g_assert_cmpstr (copy->error_type, ==, "ValueError");
  g_assert_cmpstr (copy->error_message, ==, "bad item");
  g_assert_cmpstr (copy->reason, ==, "deadline");
  g_assert_cmpstr (g_variant_get_string (copy->value, NULL), ==, "result");
  g_assert_cmpint (copy->tokens, ==, 4000);
  g_assert_cmpuint (copy->lead, ==, 5);
  g_assert_cmpint (copy->deadline, ==, 1500007);
  g_assert_cmpuint (copy->queue_capacity, ==, 4);
  g_assert_cmpuint (copy->lead_bound, ==, 8);
  g_assert_cmpint (copy->item_timeout, ==, 250000);
}

/* In place, into an array's slot: the copy is the same deep copy, and
 * clearing frees what it owns and leaves no pointer behind. A copy of a
 * copy is independent of the first. */
static void
test_copy_into_and_clear (void)
{
  g_autofree char *message = g_strdup ("gone soon");
  SluiceEvent original = { .kind = SLUICE_EVENT_ITEM_FAILED, .item = 1, .attempt = 3,
                           .error_type = "TimeoutError", .error_message = message, .deadline = -1 };
  SluiceEvent slot, second;

  sluice_event_copy_into (&slot, &original);
  g_clear_pointer (&message, g_free);
  g_assert_true (slot.error_type != original.error_type);
  g_assert_cmpstr (slot.error_message, ==, "gone soon");
  g_assert_null (slot.value);
  g_assert_null (slot.reason);

  sluice_event_copy_into (&second, &slot);
  sluice_event_clear (&slot);
  g_assert_null (slot.error_type);
  g_assert_null (slot.error_message);
  g_assert_cmpstr (second.error_message, ==, "gone soon");
  g_assert_cmpuint (second.attempt, ==, 3);
  sluice_event_clear (&second);
}

/* The boxed type copies deeply too, so bindings and GValues can keep
 * events. */
static void
test_boxed_type_copies_deeply (void)
{
  g_autofree char *type = g_strdup ("KeyError");
  SluiceEvent original = { .kind = SLUICE_EVENT_SOURCE_ERROR, .item = -1, .error_type = type };
  g_auto(GValue) v = G_VALUE_INIT;
  const SluiceEvent *held;

  g_assert_true (G_TYPE_IS_BOXED (SLUICE_TYPE_EVENT));
  g_assert_cmpstr (g_type_name (SLUICE_TYPE_EVENT), ==, "SluiceEvent");

  g_value_init (&v, SLUICE_TYPE_EVENT);
  g_value_set_boxed (&v, &original);
  g_clear_pointer (&type, g_free);

  held = g_value_get_boxed (&v);
  g_assert_true (held != &original);
  g_assert_cmpint (held->kind, ==, SLUICE_EVENT_SOURCE_ERROR);
  g_assert_cmpstr (held->error_type, ==, "KeyError");
  sluice_event_free (NULL);
}

/* ---- enum types, the clock's kind, named errors -------------------------- */

/* Every public enum is a GType; where the engine names the values itself,
 * the GEnumValue nicks are those names. */
static void
test_public_enums_are_gtypes (void)
{
  const struct { GType type; const char *name; guint n_values; } enums[] = {
    { SLUICE_TYPE_EVENT_KIND, "SluiceEventKind", SLUICE_EVENT_N_KINDS },
    { SLUICE_TYPE_OUTCOME, "SluiceOutcome", SLUICE_OUTCOME_CANCELLED + 1 },
    { SLUICE_TYPE_CLOCK_KIND, "SluiceClockKind", SLUICE_CLOCK_PACED + 1 },
    { SLUICE_TYPE_ERROR, "SluiceError", SLUICE_ERROR_INVALID_EVENT + 1 },
    { SLUICE_TYPE_JOB_STATE, "SluiceJobState", SLUICE_JOB_CANCELLED + 1 },
    { SLUICE_TYPE_BACKOFF, "SluiceBackoff", SLUICE_BACKOFF_EXPONENTIAL + 1 },
    { SLUICE_TYPE_JITTER, "SluiceJitter", SLUICE_JITTER_NONE + 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (enums); i++)
    {
      g_autoptr(GEnumClass) klass = NULL;

      g_assert_true (G_TYPE_IS_ENUM (enums[i].type));
      g_assert_cmpstr (g_type_name (enums[i].type), ==, enums[i].name);
      klass = g_type_class_ref (enums[i].type);
      g_assert_cmpuint (klass->n_values, ==, enums[i].n_values);
      for (guint v = 0; v < enums[i].n_values; v++)
        g_assert_nonnull (g_enum_get_value (klass, (gint) v));
    }

  {
    g_autoptr(GEnumClass) klass = g_type_class_ref (SLUICE_TYPE_EVENT_KIND);

    for (guint k = 0; k < SLUICE_EVENT_N_KINDS; k++)
      {
        GEnumValue *value = g_enum_get_value (klass, (gint) k);
        SluiceEventKind back = SLUICE_EVENT_N_KINDS;

        g_assert_cmpstr (value->value_nick, ==, sluice_event_kind_to_string (k));
        g_assert_true (sluice_event_kind_from_string (value->value_nick, &back));
        g_assert_cmpint (back, ==, k);
      }
    g_assert_cmpstr (g_enum_get_value (klass, SLUICE_EVENT_ATTEMPT_START)->value_nick, ==,
                     "attempt-start");
  }
  {
    g_autoptr(GEnumClass) klass = g_type_class_ref (SLUICE_TYPE_OUTCOME);

    for (guint o = 0; o <= SLUICE_OUTCOME_CANCELLED; o++)
      {
        GEnumValue *value = g_enum_get_value (klass, (gint) o);
        SluiceOutcome back = SLUICE_OUTCOME_CANCELLED + 1;

        g_assert_cmpstr (value->value_nick, ==, sluice_outcome_to_string (o));
        g_assert_true (sluice_outcome_from_string (value->value_nick, &back));
        g_assert_cmpint (back, ==, o);
      }
  }
}

/* SluiceClock:kind is an enum property: what sluice_clock_new() was given. */
static void
test_clock_kind_is_an_enum_property (void)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (SLUICE_TYPE_CLOCK);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), "kind");

  g_assert_nonnull (pspec);
  g_assert_true (G_IS_PARAM_SPEC_ENUM (pspec));
  g_assert_true (G_PARAM_SPEC_VALUE_TYPE (pspec) == SLUICE_TYPE_CLOCK_KIND);
  g_assert_true (pspec->flags & G_PARAM_CONSTRUCT_ONLY);

  for (SluiceClockKind kind = SLUICE_CLOCK_REAL; kind <= SLUICE_CLOCK_PACED; kind++)
    {
      g_autoptr(SluiceClock) clock = sluice_clock_new (kind);
      SluiceClockKind got = SLUICE_CLOCK_PACED + 1;

      g_object_get (clock, "kind", &got, NULL);
      g_assert_cmpint (got, ==, kind);
      g_assert_cmpint (sluice_clock_get_kind (clock), ==, kind);
    }
}

/* The literal variant takes the message as it is, `%` and all, in the
 * same domain and code as the formatting one. */
static void
test_named_error_new_literal (void)
{
  g_autoptr(GError) literal = sluice_named_error_new_literal ("ValueError", "100% bad %s");
  g_autoptr(GError) formatted = sluice_named_error_new ("ValueError", "%d%% bad", 100);

  g_assert_error (literal, SLUICE_NAMED_ERROR, sluice_named_error_code ("ValueError"));
  g_assert_cmpstr (literal->message, ==, "100% bad %s");
  g_assert_cmpstr (sluice_error_type_name (literal), ==, "ValueError");
  g_assert_error (formatted, SLUICE_NAMED_ERROR, literal->code);
  g_assert_cmpstr (formatted->message, ==, "100% bad");
}

/* ---- seconds → µs ------------------------------------------------------- */

/* To the nearest µs, halfway away from zero (llround's rule), for every
 * time a person or a file gives; what has no µs value saturates or is 0. */
static void
test_time_from_seconds_rounds_to_nearest (void)
{
  g_assert_cmpint (sluice_time_from_seconds (0), ==, 0);
  g_assert_cmpint (sluice_time_from_seconds (1.5), ==, 1500000);
  g_assert_cmpint (sluice_time_from_seconds (0.3), ==, 300000);
  g_assert_cmpint (sluice_time_from_seconds (0.000001), ==, 1);
  /* Halfway: away from zero. Truncation would give 0 and 2. */
  g_assert_cmpint (sluice_time_from_seconds (0.0000005), ==, 1);
  g_assert_cmpint (sluice_time_from_seconds (0.0000025), ==, 3);
  g_assert_cmpint (sluice_time_from_seconds (-0.0000005), ==, -1);
  g_assert_cmpint (sluice_time_from_seconds (0.0000004), ==, 0);
  g_assert_cmpint (sluice_time_from_seconds (0.0000014999), ==, 1);
  /* 0.7 s is 699999.9999999999 µs in binary: truncation gives 699999. */
  g_assert_cmpint (sluice_time_from_seconds (0.7), ==, 700000);
  g_assert_cmpint (sluice_time_from_seconds (-2.25), ==, -2250000);
  g_assert_cmpint (sluice_time_from_seconds (86400. * 365), ==, G_GINT64_CONSTANT (31536000000000));

  g_assert_cmpint (sluice_time_from_seconds (NAN), ==, 0);
  g_assert_cmpint (sluice_time_from_seconds (INFINITY), ==, G_MAXINT64);
  g_assert_cmpint (sluice_time_from_seconds (-INFINITY), ==, G_MININT64);
  g_assert_cmpint (sluice_time_from_seconds (1e300), ==, G_MAXINT64);
  g_assert_cmpint (sluice_time_from_seconds (-1e300), ==, G_MININT64);
  g_assert_cmpint (sluice_time_from_seconds (9223372036854.775807), ==, G_MAXINT64);
}

/* The pool reads its options with it: an item timeout of 0.0000005 s is
 * 1 µs (valid), one of 0.0000004 s is 0 µs (no timeout: refused). */
static void
test_pool_rounds_its_timeout_the_same_way (Fixture       *f,
                                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluicePool) ok = try_make_pool (f, &error, "item-timeout", 0.0000005, NULL);
  g_autoptr(SluicePool) bad = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (ok);

  bad = try_make_pool (f, &error, "item-timeout", 0.0000004, NULL);
  g_assert_null (bad);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
}

/* ---- an event function and the run's references ------------------------ */

typedef struct {
  SluiceRun *run;
  guint      in_event;     /* the run's references inside attempt-start */
  guint      in_handler;   /* and inside the handler call that follows it */
  guint      starts;
  gboolean   ended;
} RefsSeen;

static void
on_event_seeing_refs (const SluiceEvent *event,
                      gpointer           user_data)
{
  RefsSeen *seen = user_data;

  if (seen->run == NULL || event->kind != SLUICE_EVENT_ATTEMPT_START)
    return;
  seen->in_event = MAX (seen->in_event, (guint) g_atomic_int_get (&G_OBJECT (seen->run)->ref_count));
  seen->starts++;
}

static void
handler_seeing_refs (SluiceAttempt *attempt,
                     GTask         *task,
                     gpointer       user_data)
{
  RefsSeen *seen = user_data;

  if (seen->run != NULL)
    seen->in_handler = MAX (seen->in_handler, (guint) g_atomic_int_get (&G_OBJECT (seen->run)->ref_count));
  g_task_return_pointer (task, g_variant_ref (sluice_attempt_get_item (attempt)),
                         (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

static void
on_next_seeing_refs (GObject      *object,
                     GAsyncResult *res,
                     gpointer      user_data)
{
  RefsSeen *seen = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) value = sluice_run_next_finish (SLUICE_RUN (object), res, &error);

  g_assert_no_error (error);
  if (value != NULL)
    sluice_run_next_async (SLUICE_RUN (object), NULL, on_next_seeing_refs, seen);
  else
    seen->ended = TRUE;
}

/* The rule (issue 29): while a run is driven, the driver's reference keeps
 * it through an event function, and an event costs the run no reference
 * of its own (a pair per event was 7 of sluice-run's 12 per item): inside
 * attempt-start the run has as many references as inside the handler call
 * that follows it, from the same worker. */
static void
test_event_func_takes_no_reference_while_driven (void)
{
  RefsSeen seen = { 0 };
  g_autoptr(SluiceClock) clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  g_autoptr(SluiceHandler) handler = sluice_func_handler_new (handler_seeing_refs, &seen, NULL);
  g_autoptr(SluiceSource) source = sluice_array_source_new_range (5);
  g_autoptr(SluicePool) pool = NULL;
  g_autoptr(SluiceRun) run = NULL;
  g_autoptr(GError) error = NULL;

  pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error, "handler", handler, "clock", clock,
                         "workers", 1, "queue-size", 1, NULL);
  g_assert_no_error (error);
  sluice_pool_set_event_func (pool, on_event_seeing_refs, &seen, NULL);
  run = sluice_pool_run (pool, source, &error);
  g_assert_no_error (error);
  seen.run = run;

  sluice_run_next_async (run, NULL, on_next_seeing_refs, &seen);
  while (!seen.ended)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (seen.starts, >=, 4);
  g_assert_cmpuint (seen.in_handler, >, 0);
  g_assert_cmpuint (seen.in_event, ==, seen.in_handler);
  g_assert_cmpuint (sluice_run_get_live_operations (run), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/event/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("attempt-start-carries-the-deadline", test_attempt_start_carries_the_deadline);
  ADD ("attempt-start-carries-the-earlier-item-deadline", test_attempt_start_carries_the_earlier_item_deadline);
  ADD ("only-attempt-starts-carry-a-deadline", test_only_attempt_starts_carry_a_deadline);
  ADD ("item-failed-carries-the-last-attempt", test_item_failed_carries_the_last_attempt);
  ADD ("item-failed-after-a-shed-has-no-attempt", test_item_failed_after_a_shed_has_no_attempt);
  ADD ("run-start-carries-the-bounds", test_run_start_carries_the_bounds);
  ADD ("run-start-of-a-service-has-the-same-bound", test_run_start_of_a_service_has_the_same_bound);
  g_test_add_func ("/event/func-takes-no-reference-while-driven", test_event_func_takes_no_reference_while_driven);
  g_test_add_func ("/event/copy-owns-strings-and-value", test_copy_owns_strings_and_value);
  g_test_add_func ("/event/copy-into-and-clear", test_copy_into_and_clear);
  g_test_add_func ("/event/boxed-type-copies-deeply", test_boxed_type_copies_deeply);
  g_test_add_func ("/event/public-enums-are-gtypes", test_public_enums_are_gtypes);
  g_test_add_func ("/event/clock-kind-is-an-enum-property", test_clock_kind_is_an_enum_property);
  g_test_add_func ("/event/named-error-new-literal", test_named_error_new_literal);
  g_test_add_func ("/time/from-seconds-rounds-to-nearest-half-away-from-zero",
                   test_time_from_seconds_rounds_to_nearest);
  g_test_add ("/time/pool-rounds-its-timeout-the-same-way", Fixture, NULL,
              fixture_setup, test_pool_rounds_its_timeout_the_same_way, fixture_teardown);

  return g_test_run ();
}
