/* test-property.c: random scenarios on the virtual clock, checked against
 * the invariants of the event stream and the report
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each run generates a scenario file (a stream or, one in four, a service
 * in submit mode; every pool option — the retry policy, fatal types and a
 * shutdown deadline too — every source fault,
 * handler behaviour and caller action the format has, except `block` and
 * `thread`, which need real time), runs it with the scenario runner on the
 * virtual clock, and checks every invariant below against the recorded
 * events and the report. The generator is seeded: the same seed gives the
 * same scenarios everywhere.
 *
 *   SLUICE_PROPERTY_RUNS  how many scenarios (default 20000: a few seconds)
 *   SLUICE_PROPERTY_SEED  the seed (default fixed, so that CI is reproducible)
 *
 * A failure prints the seed, the run number, the scenario file and its
 * event stream, then fails naming the invariant. The printed file runs
 * the same way with `sluice-run FILE --events FILE.jsonl`.
 */

#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

#define DEFAULT_RUNS 20000
#define DEFAULT_SEED 20240601u

/* Main-loop turns allowed after the runner returned, for what the run
 * left behind. A run needs far fewer; more means it never ends. */
#define MAX_TURNS_AFTER 100000

/* ---- generating scenarios ---------------------------------------------- */

static const char * const shutdown_timeouts[] = { "0.05", "0.3", "1", "5" };
static const char * const timeouts[] = { "0.05", "0.1", "0.25", "0.5", "1" };
static const char * const delays[] = { "0", "0.01", "0.05", "0.1", "0.25", "0.5", "1", "2.5" };
static const char * const intervals[] = { "0", "0", "0", "0.01", "0.1", "0.3" };
static const char * const cancel_times[] = { "0", "0.05", "0.2", "0.5", "1.5", "4" };
/* The pool's own types (TimeoutError, RuntimeError) and some of the handler's. */
static const char * const error_types[] = {
  "TimeoutError", "RuntimeError", "ValueError", "ConnectionError", "KeyError",
};
/* Handlers fail mostly with their own types, sometimes with the pool's. */
static const char * const fail_types[] = {
  "ValueError", "ValueError", "ConnectionError", "KeyError", "TimeoutError", "RuntimeError",
};
/* Small, so that values repeat: equal items are still separate work. */
static const char * const value_tokens[] = { "1", "2", "3", "1", "-4", "0", "x", "y", "\"7\"", "\"x\"" };

#define PICK(r, table) ((table)[g_rand_int_range ((r), 0, G_N_ELEMENTS (table))])

static gboolean
chance (GRand *r,
        guint  percent)
{
  return (guint) g_rand_int_range (r, 0, 100) < percent;
}

static void
append_delay (GString *s,
              GRand   *r)
{
  g_string_append_printf (s, " %s", PICK (r, delays));
}

/* One behaviour of the handler, in the format's own words. */
static void
append_behaviour (GString *s,
                  GRand   *r)
{
  guint roll = (guint) g_rand_int_range (r, 0, 100);

  if (roll < 45)
    {
      g_string_append (s, "ok");
      if (chance (r, 80))
        append_delay (s, r);
    }
  else if (roll < 57)
    {
      g_string_append_printf (s, "fail %d %s", g_rand_int_range (r, 1, 4), PICK (r, fail_types));
      if (chance (r, 70))
        append_delay (s, r);
    }
  else if (roll < 64)
    {
      g_string_append_printf (s, "fail-always %s", PICK (r, fail_types));
      if (chance (r, 70))
        append_delay (s, r);
    }
  else if (roll < 71)
    g_string_append (s, "hang");
  else if (roll < 79)
    {
      g_string_append (s, "late");
      append_delay (s, r);
    }
  else if (roll < 89)
    {
      g_string_append (s, "cancel-self");
      if (chance (r, 70))
        append_delay (s, r);
    }
  else
    {
      g_string_append (s, "stubborn");
      append_delay (s, r);
    }
}

static void
append_pool (GString  *s,
             GRand    *r,
             gboolean  submit)
{
  static const char * const metrics[] = { "off", "on", "broken" };
  gboolean first = TRUE;

  g_string_append_printf (s, "[pool]\nworkers=%d\nqueue-size=%d\nitem-timeout=%s\nmax-retries=%d\n",
                          g_rand_int_range (r, 1, 6), g_rand_int_range (r, 1, 6),
                          PICK (r, timeouts), g_rand_int_range (r, 0, 4));
  g_string_append (s, "retryable=");
  for (guint i = 0; i < G_N_ELEMENTS (error_types); i++)
    if (chance (r, 40))
      {
        g_string_append_printf (s, "%s%s", first ? "" : ";", error_types[i]);
        first = FALSE;
      }
  /* A service keeps going: a failure stays in its job. */
  g_string_append_printf (s, "\nmetrics=%s\nkeep-going=%s\n",
                          PICK (r, metrics), chance (r, 35) || submit ? "true" : "false");

  /* Fatal types (docs/submit-and-shutdown.md), sometimes retryable too. */
  if (chance (r, 25))
    g_string_append_printf (s, "fatal=%s\n", PICK (r, error_types));
  if (chance (r, 30))
    g_string_append_printf (s, "shutdown-timeout=%s\n", PICK (r, shutdown_timeouts));
}

/* Gives the number of items. */
static guint
append_source (GString  *s,
               GRand    *r,
               gboolean  submit)
{
  static const char * const faults[] = { "raise-after", "cancel-after", "hang-after" };
  guint n;

  g_string_append (s, "[source]\n");
  if (chance (r, 5))
    {
      n = (guint) g_rand_int_range (r, 13, 41);
      g_string_append_printf (s, "count=%u\n", n);
    }
  else if (chance (r, 50))
    {
      n = (guint) g_rand_int_range (r, 0, 13);
      g_string_append_printf (s, "count=%u\n", n);
    }
  else
    {
      n = (guint) g_rand_int_range (r, 1, 11);
      g_string_append (s, "values=");
      for (guint i = 0; i < n; i++)
        g_string_append_printf (s, "%s%s", i == 0 ? "" : ";", PICK (r, value_tokens));
      g_string_append_c (s, '\n');
    }

  g_string_append_printf (s, "interval=%s\n", PICK (r, intervals));

  /* N from 0 to count + 1: at the end of the source, and past it (never
   * fires). A service's source has no faults. */
  if (!submit && chance (r, 40))
    g_string_append_printf (s, "%s=%d\n", PICK (r, faults), g_rand_int_range (r, 0, (gint) n + 2));

  return n;
}

static void
append_handler (GString *s,
                GRand   *r,
                guint    n_items)
{
  g_string_append (s, "[handler]\ndefault=");
  append_behaviour (s, r);
  g_string_append_c (s, '\n');

  /* item.N overrides, each N at most once. */
  for (guint i = 0; i < n_items; i++)
    if (chance (r, 20))
      {
        g_string_append_printf (s, "item.%u=", i);
        append_behaviour (s, r);
        g_string_append_c (s, '\n');
      }

  if (chance (r, 30))
    {
      guint entries = (guint) g_rand_int_range (r, 1, 4);

      g_string_append (s, "mix=");
      for (guint i = 0; i < entries; i++)
        {
          g_string_append_printf (s, "%s%d%% ", i == 0 ? "" : ", ", g_rand_int_range (r, 1, 100));
          append_behaviour (s, r);
        }
      g_string_append_printf (s, "\nseed=%u\n", g_rand_int (r));
    }
}

/* The retry policy (docs/retry-policy.md), in about half the runs: backoff
 * with or without jitter, an item deadline, a budget, or several. */
static void
append_retry (GString *s,
              GRand   *r)
{
  static const char * const bases[] = { "0.01", "0.05", "0.1" };
  static const char * const caps[] = { "0.1", "0.3", "1" };
  static const char * const deadlines[] = { "0.05", "0.2", "0.5", "1", "3" };
  static const char * const budgets[] = { "1", "2", "5", "0.5" };
  static const char * const ratios[] = { "0.1", "0.5", "1" };

  if (chance (r, 50))
    return;

  g_string_append (s, "[retry]\n");
  if (chance (r, 60))
    {
      g_string_append (s, "backoff=exponential\n");
      if (chance (r, 60))
        g_string_append_printf (s, "base=%s\ncap=%s\n", PICK (r, bases), PICK (r, caps));
      if (chance (r, 40))
        g_string_append_printf (s, "jitter=%s\n", chance (r, 50) ? "none" : "full");
      if (chance (r, 50))
        g_string_append_printf (s, "seed=%u\n", g_rand_int (r));
    }
  if (chance (r, 40))
    g_string_append_printf (s, "deadline=%s\n", PICK (r, deadlines));
  if (chance (r, 35))
    {
      g_string_append_printf (s, "budget=%s\n", PICK (r, budgets));
      if (chance (r, 50))
        g_string_append_printf (s, "budget-ratio=%s\n", PICK (r, ratios));
    }
}

static void
append_run (GString  *s,
            GRand    *r,
            guint     n_items,
            gboolean  submit)
{
  guint roll = (guint) g_rand_int_range (r, 0, 100);

  g_string_append (s, submit ? "[run]\nmode=submit\n" : "[run]\n");
  if (roll < 40)
    g_string_append (s, "stop-after=-1\n");
  else if (roll < 55)
    g_string_append (s, "stop-after=0\n");
  else
    g_string_append_printf (s, "stop-after=%d\n", g_rand_int_range (r, 1, (gint) n_items + 2));

  if (!submit && chance (r, 20))
    g_string_append_printf (s, "close-after=%d\n", g_rand_int_range (r, 1, (gint) n_items + 2));
  if (chance (r, 20))
    g_string_append_printf (s, "cancel-after-seconds=%s\n", PICK (r, cancel_times));

  g_string_append (s, "clock=virtual\n");

  /* A service's callers give up on jobs and close it on their own. */
  if (submit && chance (r, 70))
    {
      g_string_append (s, "[submit]\n");
      if (chance (r, 40))
        g_string_append_printf (s, "give-up-after=%s\n", PICK (r, cancel_times));
      for (guint i = 0; i < n_items; i++)
        if (chance (r, 15))
          g_string_append_printf (s, "give-up.%u=%s\n", i, PICK (r, cancel_times));
      if (chance (r, 30))
        g_string_append_printf (s, "close-after-seconds=%s\n", PICK (r, cancel_times));
    }
}

/* Scenario @run of @seed: its own generator, so that one run does not
 * depend on the ones before it. */
static char *
generate_scenario (guint32 seed,
                   guint   run)
{
  guint32 key[2] = { seed, run };
  g_autoptr(GRand) r = g_rand_new_with_seed_array (key, G_N_ELEMENTS (key));
  GString *s = g_string_new (NULL);
  guint n_items;

  /* About one run in four is a service (submit mode). */
  gboolean submit = chance (r, 25);

  g_string_append_printf (s, "# test-property: seed %u, run %u\n", seed, run);
  append_pool (s, r, submit);
  n_items = append_source (s, r, submit);
  append_handler (s, r, n_items);
  append_retry (s, r);
  append_run (s, r, n_items, submit);

  return g_string_free (s, FALSE);
}

/* ---- running one scenario ---------------------------------------------- */

typedef struct {
  guint32         seed;
  guint           number;
  char           *text;
  SluiceScenario *scenario;
  SluiceRecorder *recorder;

  JsonNode       *report_node;   /* NULL if the runner gave no report */
  JsonObject     *report;
  GError         *error;         /* the runner's: a deadlock on the virtual clock */
  guint           n_events_at_error;
  gboolean        finished;
  guint           live_operations;
} PropertyRun;

static void
property_run_clear (PropertyRun *r)
{
  g_clear_pointer (&r->text, g_free);
  g_clear_object (&r->scenario);
  g_clear_object (&r->recorder);
  g_clear_pointer (&r->report_node, json_node_unref);
  r->report = NULL;
  g_clear_error (&r->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (PropertyRun, property_run_clear)

/* Turns @context until nothing is pending: a deadlocked run winds down
 * (the runner cancelled it), callbacks deferred past the end run. A run
 * that is still unfinished then never ends. */
static void
settle (GMainContext *context)
{
  for (guint i = 0; i < MAX_TURNS_AFTER && g_main_context_pending (context); i++)
    g_main_context_iteration (context, FALSE);
}

/* Runs @r's scenario on a context of its own, as sluice-run does. With
 * @stop_after_end, then asks the ended pool to stop once more: after the
 * end that must change nothing and emit nothing. */
static void
property_run_execute (PropertyRun *r,
                      gboolean     stop_after_end)
{
  GMainContext *context = g_main_context_new ();
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceReport) report = NULL;
  SluiceRun *run;

  g_main_context_push_thread_default (context);

  r->recorder = sluice_recorder_new (0);
  runner = sluice_scenario_runner_new (r->scenario);
  sluice_scenario_runner_set_recorder (runner, r->recorder);

  report = sluice_scenario_runner_run (runner, &r->error);
  r->n_events_at_error = sluice_recorder_get_n_events (r->recorder);
  if (report != NULL)
    {
      r->report_node = sluice_report_to_json (report);
      r->report = json_node_get_object (r->report_node);
    }

  run = sluice_scenario_runner_get_run (runner);
  settle (context);
  if (stop_after_end && run != NULL && sluice_run_is_finished (run))
    {
      sluice_pool_request_stop (sluice_scenario_runner_get_pool (runner));
      settle (context);
    }

  r->finished = run != NULL && sluice_run_is_finished (run);
  r->live_operations = run != NULL ? sluice_run_get_live_operations (run) : 0;

  g_clear_object (&runner);
  settle (context);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
}

/* ---- reading the stream ------------------------------------------------ */

static guint
n_events (const PropertyRun *r)
{
  return sluice_recorder_get_n_events (r->recorder);
}

static const SluiceEvent *
event_at (const PropertyRun *r,
          guint              i)
{
  return sluice_recorder_get_event (r->recorder, i);
}

static guint
count_kind (const PropertyRun *r,
            SluiceEventKind    kind)
{
  guint n = 0;

  for (guint i = 0; i < n_events (r); i++)
    if (event_at (r, i)->kind == kind)
      n++;
  return n;
}

#define ANY_ITEM G_MININT64

/* The position of the first event of @kind for @item (or ANY_ITEM), or
 * n_events() if there is none. */
static guint
find_item_event (const PropertyRun *r,
                 SluiceEventKind    kind,
                 gint64             item)
{
  guint i;

  for (i = 0; i < n_events (r); i++)
    if (event_at (r, i)->kind == kind && (item == ANY_ITEM || event_at (r, i)->item == item))
      break;
  return i;
}

static guint
first_of_kind (const PropertyRun *r,
               SluiceEventKind    kind)
{
  return find_item_event (r, kind, ANY_ITEM);
}

static gboolean
is_item_outcome (SluiceEventKind kind)
{
  return kind == SLUICE_EVENT_ITEM_OK || kind == SLUICE_EVENT_ITEM_FAILED ||
         kind == SLUICE_EVENT_ITEM_DROPPED || kind == SLUICE_EVENT_ITEM_CANCELLED;
}

static const char *
describe_outcome (const PropertyRun *r,
                  gint64             item)
{
  for (guint i = 0; i < n_events (r); i++)
    if (is_item_outcome (event_at (r, i)->kind) && event_at (r, i)->item == item)
      return sluice_event_kind_to_string (event_at (r, i)->kind);
  return "none";
}

/* The kinds of event that are about one item. */
static gboolean
names_an_item (SluiceEventKind kind)
{
  return is_item_outcome (kind) || kind == SLUICE_EVENT_PULL || kind == SLUICE_EVENT_QUEUE_PUT ||
         kind == SLUICE_EVENT_QUEUE_GET || kind == SLUICE_EVENT_ATTEMPT_START ||
         kind == SLUICE_EVENT_ATTEMPT_END || kind == SLUICE_EVENT_CANCEL_REQUEST ||
         kind == SLUICE_EVENT_RETRY;
}

static gboolean
is_fatal (const PropertyRun *r,
          const char        *type)
{
  const char * const *fatal = sluice_scenario_get_fatal (r->scenario);

  return type != NULL && fatal != NULL && g_strv_contains (fatal, type);
}

static gboolean
is_retryable (const PropertyRun *r,
              const char        *type)
{
  const char * const *retryable = sluice_scenario_get_retryable (r->scenario);

  return type != NULL && retryable != NULL && g_strv_contains (retryable, type);
}

/* Whether the caller cancelled or closed the run: then it reads no more
 * results, and a close after the last result still counts as a close (the
 * caller had not seen the end yet). */
static gboolean
caller_ended_early (const PropertyRun *r)
{
  gint64 close_after = sluice_scenario_get_close_after (r->scenario);

  return count_kind (r, SLUICE_EVENT_CANCEL) > 0 ||
         (close_after > 0 && count_kind (r, SLUICE_EVENT_RESULT) >= close_after);
}

static gboolean
is_service (const PropertyRun *r)
{
  return sluice_scenario_get_mode (r->scenario) == SLUICE_SCENARIO_MODE_SUBMIT;
}

static gint64
report_int (const PropertyRun *r,
            const char        *member)
{
  return json_object_get_int_member (r->report, member);
}

/* A count per item index (>= 0, as each_pulled_item_has_exactly_one_outcome()
 * checked): the array grows as items appear. */
static guint *
per_item (GArray *counts,
          gint64  item)
{
  g_assert_cmpint (item, >=, 0);
  if ((guint) item >= counts->len)
    g_array_set_size (counts, (guint) item + 1);
  return &g_array_index (counts, guint, item);
}

#define FAIL_AT(why, i, ...) \
  G_STMT_START { \
    g_string_append_printf ((why), "event %u: ", (i)); \
    g_string_append_printf ((why), __VA_ARGS__); \
    return FALSE; \
  } G_STMT_END

#define FAIL(why, ...) \
  G_STMT_START { \
    g_string_append_printf ((why), __VA_ARGS__); \
    return FALSE; \
  } G_STMT_END

/* ---- the invariants ----------------------------------------------------- */

/* The run ends: the runner returns a report, or reports a deadlock only
 * where one is allowed — a source that hangs (hang-after) while no stop,
 * close or cancel could wake it — and the run then still winds down. */
static gboolean
the_run_always_ends (const PropertyRun *r,
                     GString           *why)
{
  guint after = 0;

  if (!r->finished)
    FAIL (why, "the run did not finish (%s)", r->error ? r->error->message : "no error");

  if (r->error == NULL && r->report == NULL)
    FAIL (why, "the runner gave neither a report nor an error");
  if (r->error == NULL)
    return TRUE;

  if (!g_error_matches (r->error, SLUICE_ERROR, SLUICE_ERROR_DEADLOCK))
    FAIL (why, "the runner failed: %s", r->error->message);

  if (sluice_scenario_get_source_fault (r->scenario, &after) != SLUICE_SOURCE_FAULT_HANG)
    FAIL (why, "a deadlock without a hanging source: %s", r->error->message);

  for (guint i = 0; i < r->n_events_at_error; i++)
    {
      SluiceEventKind kind = event_at (r, i)->kind;

      if (kind == SLUICE_EVENT_STOP_REQUEST || kind == SLUICE_EVENT_CANCEL ||
          kind == SLUICE_EVENT_SOURCE_END || kind == SLUICE_EVENT_SOURCE_ERROR)
        FAIL_AT (why, i, "a deadlock after %s: the source no longer held the run: %s",
                 sluice_event_kind_to_string (kind), r->error->message);
    }

  return TRUE;
}

/* run-start comes first and once, run-end once; after run-end the run
 * emits nothing, and asking the ended pool to stop emits nothing. (A
 * caller slower than the runner could still read a buffered result after
 * the end; the runner asks for the next result at once, so it never does.) */
static gboolean
nothing_after_run_end (const PropertyRun *r,
                                            GString           *why)
{
  guint end = first_of_kind (r, SLUICE_EVENT_RUN_END);

  /* A service stopped before it opened never ran: no event at all. */
  if (is_service (r) && sluice_scenario_get_stop_after (r->scenario) == 0)
    {
      if (n_events (r) != 0)
        FAIL (why, "%u events from a service stopped before it opened", n_events (r));
      return TRUE;
    }

  if (n_events (r) == 0 || event_at (r, 0)->kind != SLUICE_EVENT_RUN_START)
    FAIL (why, "the stream does not begin with run-start");
  if (count_kind (r, SLUICE_EVENT_RUN_START) != 1)
    FAIL (why, "%u run-start events", count_kind (r, SLUICE_EVENT_RUN_START));
  if (count_kind (r, SLUICE_EVENT_RUN_END) != 1)
    FAIL (why, "%u run-end events", count_kind (r, SLUICE_EVENT_RUN_END));

  for (guint i = end + 1; i < n_events (r); i++)
    FAIL_AT (why, i, "%s after run-end", sluice_event_kind_to_string (event_at (r, i)->kind));

  return TRUE;
}

/* Once the run has ended, no operation of it is alive. */
static gboolean
no_live_operations_after_the_end (const PropertyRun *r,
                                  GString           *why)
{
  if (r->live_operations != 0)
    FAIL (why, "%u live operations after the end", r->live_operations);
  if (r->report != NULL && report_int (r, "live_operations") != 0)
    FAIL (why, "the report says %" G_GINT64_FORMAT " live operations", report_int (r, "live_operations"));

  return TRUE;
}

/* Items are numbered 0, 1, 2, … in pull order; every event about an item
 * names one pulled before it; each pulled item ends as exactly one of ok,
 * failed, dropped or cancelled; the report counts the same. (The later
 * invariants rely on the item numbers this one checks.) */
static gboolean
each_pulled_item_has_exactly_one_outcome (const PropertyRun *r,
                                          GString           *why)
{
  g_autoptr(GArray) outcomes = g_array_new (FALSE, TRUE, sizeof (guint));
  guint pulled = 0, unfinished = 0;

  for (guint i = 0; i < n_events (r); i++)
    {
      const SluiceEvent *e = event_at (r, i);

      if (e->kind == SLUICE_EVENT_PULL)
        {
          if (e->item != (gint64) pulled)
            FAIL_AT (why, i, "pull of item %" G_GINT64_FORMAT ", expected item %u", e->item, pulled);
          pulled++;
        }
      else if (e->item != -1 && (e->item < 0 || e->item >= (gint64) pulled))
        FAIL_AT (why, i, "%s of item %" G_GINT64_FORMAT ", which was not pulled",
                 sluice_event_kind_to_string (e->kind), e->item);
      else if (e->item == -1 && names_an_item (e->kind))
        FAIL_AT (why, i, "%s without an item", sluice_event_kind_to_string (e->kind));
      else if (is_item_outcome (e->kind))
        {
          if (++*per_item (outcomes, e->item) > 1)
            FAIL_AT (why, i, "a second outcome (%s) for item %" G_GINT64_FORMAT,
                     sluice_event_kind_to_string (e->kind), e->item);
          if (e->kind == SLUICE_EVENT_ITEM_DROPPED || e->kind == SLUICE_EVENT_ITEM_CANCELLED)
            unfinished++;
        }
    }

  for (guint item = 0; item < pulled; item++)
    if (item >= outcomes->len || g_array_index (outcomes, guint, item) == 0)
      FAIL (why, "item %u was pulled but has no outcome", item);

  /* A service's report counts its refused submissions as pulled and
   * unfinished too: they came from the source and never became jobs. */
  if (r->report != NULL && is_service (r))
    {
      pulled += report_int (r, "submit_refused");
      unfinished += report_int (r, "submit_refused");
    }

  if (r->report != NULL && report_int (r, "pulled") != pulled)
    FAIL (why, "the report says %" G_GINT64_FORMAT " pulled, the stream %u", report_int (r, "pulled"), pulled);
  if (r->report != NULL && report_int (r, "unfinished") != unfinished)
    FAIL (why, "the report says %" G_GINT64_FORMAT " unfinished, the stream %u dropped or cancelled",
          report_int (r, "unfinished"), unfinished);

  return TRUE;
}

/* An item gets at most max-retries + 1 attempts, numbered 1, 2, …; only
 * pulled items get any; the report's attempts agree. */
static gboolean
attempts_at_most_max_retries_plus_one (const PropertyRun *r,
                                       GString           *why)
{
  g_autoptr(GArray) attempts = g_array_new (FALSE, TRUE, sizeof (guint));
  guint limit = (guint) sluice_scenario_get_max_retries (r->scenario) + 1;
  guint pulled = 0, attempted = 0;
  JsonObject *reported;

  for (guint i = 0; i < n_events (r); i++)
    {
      const SluiceEvent *e = event_at (r, i);
      guint *n;

      pulled += e->kind == SLUICE_EVENT_PULL;
      if (e->kind != SLUICE_EVENT_ATTEMPT_START)
        continue;

      if (e->item < 0 || e->item >= (gint64) pulled)
        FAIL_AT (why, i, "an attempt at item %" G_GINT64_FORMAT ", which was not pulled", e->item);
      n = per_item (attempts, e->item);
      if (e->attempt != *n + 1)
        FAIL_AT (why, i, "attempt %u of item %" G_GINT64_FORMAT " after %u attempts", e->attempt, e->item, *n);
      if (++*n > limit)
        FAIL_AT (why, i, "attempt %u of item %" G_GINT64_FORMAT ", but max-retries + 1 = %u",
                 *n, e->item, limit);
    }

  if (r->report == NULL)
    return TRUE;

  reported = json_object_get_object_member (r->report, "attempts");
  for (guint item = 0; item < attempts->len; item++)
    {
      g_autofree char *key = g_strdup_printf ("%u", item);
      guint n = g_array_index (attempts, guint, item);
      gint64 in_report = json_object_has_member (reported, key) ? json_object_get_int_member (reported, key) : 0;

      if (in_report != n)
        FAIL (why, "item %u: %u attempts in the stream, %" G_GINT64_FORMAT " in the report", item, n, in_report);
      attempted += n > 0;
    }
  /* No zero entries, and none for items without attempts. */
  if (json_object_get_size (reported) != attempted)
    FAIL (why, "the report lists %u items with attempts, the stream %u",
          json_object_get_size (reported), attempted);

  return TRUE;
}

/* A retry follows only an attempt that failed (or timed out) with an error
 * type in `retryable`, with retries left; a later attempt starts only after
 * a retry; a cancelled attempt is never retried. */
static gboolean
retries_only_after_retryable_errors (const PropertyRun *r,
                                     GString           *why)
{
  g_autoptr(GArray) last_end = g_array_new (FALSE, TRUE, sizeof (guint));  /* position + 1 */
  g_autoptr(GArray) retried = g_array_new (FALSE, TRUE, sizeof (guint));
  guint max_retries = (guint) sluice_scenario_get_max_retries (r->scenario);

  for (guint i = 0; i < n_events (r); i++)
    {
      const SluiceEvent *e = event_at (r, i);
      const SluiceEvent *end;

      switch (e->kind)
        {
        case SLUICE_EVENT_ATTEMPT_END:
          *per_item (last_end, e->item) = i + 1;
          *per_item (retried, e->item) = FALSE;
          if (!e->retried)
            break;
          if (e->outcome != SLUICE_OUTCOME_FAILED && e->outcome != SLUICE_OUTCOME_TIMED_OUT)
            FAIL_AT (why, i, "an attempt that ended %s is marked for a retry", sluice_outcome_to_string (e->outcome));
          if (!is_retryable (r, e->error_type))
            FAIL_AT (why, i, "an attempt that failed with %s, not retryable, is marked for a retry",
                     e->error_type ? e->error_type : "(none)");
          if (e->attempt > max_retries)
            FAIL_AT (why, i, "attempt %u is marked for a retry, but max-retries = %u", e->attempt, max_retries);
          break;

        case SLUICE_EVENT_RETRY:
          if (*per_item (last_end, e->item) == 0)
            FAIL_AT (why, i, "a retry of item %" G_GINT64_FORMAT " before any attempt ended", e->item);
          end = event_at (r, *per_item (last_end, e->item) - 1);
          if (!end->retried || *per_item (retried, e->item))
            FAIL_AT (why, i, "a retry of item %" G_GINT64_FORMAT " that its last attempt-end did not announce", e->item);
          if (g_strcmp0 (e->error_type, end->error_type) != 0 || !is_retryable (r, e->error_type))
            FAIL_AT (why, i, "a retry for %s after an attempt that failed with %s",
                     e->error_type ? e->error_type : "(none)", end->error_type ? end->error_type : "(none)");
          *per_item (retried, e->item) = TRUE;
          break;

        case SLUICE_EVENT_ATTEMPT_START:
          if (e->attempt > 1 && !*per_item (retried, e->item))
            FAIL_AT (why, i, "attempt %u of item %" G_GINT64_FORMAT " without a retry", e->attempt, e->item);
          *per_item (retried, e->item) = FALSE;
          break;

        default:
          break;
        }
    }

  return TRUE;
}

/* An item fails for good only with the error of its last attempt, and only
 * once that error was not retryable, the retries ran out, the retry policy
 * skipped the retry (retry-skipped), the error was fatal (fatal: never
 * retried), or the caller had cancelled the run;
 * or, with no attempt at all, when it was shed past its deadline
 * (deadline-exceeded, then TimeoutError('deadline exceeded')). */
static gboolean
items_fail_for_good_only_without_retries_left (const PropertyRun *r,
                                               GString           *why)
{
  g_autoptr(GArray) last_end = g_array_new (FALSE, TRUE, sizeof (guint));  /* position + 1 */
  g_autoptr(GArray) skipped = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr(GArray) shed = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr(GArray) fatal = g_array_new (FALSE, TRUE, sizeof (guint));
  guint limit = (guint) sluice_scenario_get_max_retries (r->scenario) + 1;
  guint cancel = first_of_kind (r, SLUICE_EVENT_CANCEL);

  for (guint i = 0; i < n_events (r); i++)
    {
      const SluiceEvent *e = event_at (r, i);
      const SluiceEvent *end;
      guint at;

      if (e->kind == SLUICE_EVENT_ATTEMPT_END)
        *per_item (last_end, e->item) = i + 1;
      if (e->kind == SLUICE_EVENT_RETRY_SKIPPED)
        *per_item (skipped, e->item) = TRUE;
      if (e->kind == SLUICE_EVENT_DEADLINE_EXCEEDED)
        *per_item (shed, e->item) = TRUE;
      if (e->kind == SLUICE_EVENT_FATAL)
        *per_item (fatal, e->item) = TRUE;
      if (e->kind != SLUICE_EVENT_ITEM_FAILED)
        continue;

      if (*per_item (shed, e->item))
        {
          if (*per_item (last_end, e->item) != 0)
            FAIL_AT (why, i, "item %" G_GINT64_FORMAT " was shed after an attempt", e->item);
          if (g_strcmp0 (e->error_type, "TimeoutError") != 0 ||
              g_strcmp0 (e->error_message, "deadline exceeded") != 0)
            FAIL_AT (why, i, "shed item %" G_GINT64_FORMAT " failed with %s('%s')",
                     e->item, e->error_type, e->error_message);
          continue;
        }

      if ((at = *per_item (last_end, e->item)) == 0)
        FAIL_AT (why, i, "item %" G_GINT64_FORMAT " failed without an attempt", e->item);
      /* A fatal error fails its item at once, also one that came back from
       * an attempt the pool was stopping (that attempt ended cancelled). */
      if (*per_item (fatal, e->item))
        {
          if (!is_fatal (r, e->error_type))
            FAIL_AT (why, i, "item %" G_GINT64_FORMAT " failed with %s after a fatal event",
                     e->item, e->error_type);
          continue;
        }
      end = event_at (r, at - 1);
      if (g_strcmp0 (e->error_type, end->error_type) != 0 ||
          g_strcmp0 (e->error_message, end->error_message) != 0)
        FAIL_AT (why, i, "item %" G_GINT64_FORMAT " failed with %s('%s'), its last attempt with %s('%s')",
                 e->item, e->error_type, e->error_message, end->error_type, end->error_message);
      if (is_retryable (r, end->error_type) && end->attempt < limit && at - 1 < cancel &&
          !*per_item (skipped, e->item))
        FAIL_AT (why, i, "item %" G_GINT64_FORMAT " failed for good with %s after %u of %u attempts",
                 e->item, end->error_type, end->attempt, limit);
    }

  return TRUE;
}

/* Once the run halts — the caller cancels or closes it, an attempt fails
 * with a fatal error, or the shutdown deadline fires — nothing new starts:
 * no attempt, no retry, nothing queued, and nothing succeeds. */
static gboolean
nothing_starts_after_a_halt (const PropertyRun *r,
                             GString           *why)
{
  guint halt = MIN (first_of_kind (r, SLUICE_EVENT_CANCEL),
                    MIN (first_of_kind (r, SLUICE_EVENT_FATAL),
                         first_of_kind (r, SLUICE_EVENT_SHUTDOWN_DEADLINE)));

  for (guint i = halt + 1; i < n_events (r); i++)
    {
      SluiceEventKind kind = event_at (r, i)->kind;

      if (kind == SLUICE_EVENT_ATTEMPT_START || kind == SLUICE_EVENT_RETRY ||
          kind == SLUICE_EVENT_QUEUE_PUT || kind == SLUICE_EVENT_ITEM_OK)
        FAIL_AT (why, i, "%s after the run halted (%s at event %u)",
                 sluice_event_kind_to_string (kind),
                 sluice_event_kind_to_string (event_at (r, halt)->kind), halt);
    }

  return TRUE;
}

/* After a stop request nothing enters the input queue (no queue-put
 * event); an item pulled after it is dropped; with
 * stop-after=0 nothing is pulled at all. */
static gboolean
nothing_queued_after_a_stop (const PropertyRun *r,
                             GString           *why)
{
  guint stop = first_of_kind (r, SLUICE_EVENT_STOP_REQUEST);
  g_autoptr(GArray) dropped = g_array_new (FALSE, TRUE, sizeof (guint));
  g_autoptr(GArray) late_pulls = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (sluice_scenario_get_stop_after (r->scenario) == 0 && count_kind (r, SLUICE_EVENT_PULL) != 0)
    FAIL (why, "stop-after=0, but %u items were pulled", count_kind (r, SLUICE_EVENT_PULL));

  for (guint i = 0; i < n_events (r); i++)
    {
      const SluiceEvent *e = event_at (r, i);

      if (e->kind == SLUICE_EVENT_ITEM_DROPPED)
        *per_item (dropped, e->item) = TRUE;
      if (i <= stop)
        continue;
      if (e->kind == SLUICE_EVENT_QUEUE_PUT)
        FAIL_AT (why, i, "item %" G_GINT64_FORMAT " queued after the stop request (event %u); "
                 "pulled at event %u, its outcome %s", e->item, stop,
                 find_item_event (r, SLUICE_EVENT_PULL, e->item), describe_outcome (r, e->item));
      if (e->kind == SLUICE_EVENT_PULL)
        g_array_append_val (late_pulls, e->item);
    }

  for (guint i = 0; i < late_pulls->len; i++)
    {
      gint64 item = g_array_index (late_pulls, gint64, i);

      if (!*per_item (dropped, item))
        FAIL (why, "item %" G_GINT64_FORMAT " pulled after the stop request was not dropped", item);
    }

  return TRUE;
}

/* A service's report: max_lead against its admissions' leads
 * (@admitted_lead), the last submission's lead and lead_ok. */
static gboolean
service_max_lead_at_least_every_sample (const PropertyRun *r,
                                        GString           *why,
                                        guint              admitted_lead,
                                        guint              limit)
{
  gint64 max_lead = report_int (r, "max_lead");
  gint64 last = report_int (r, "pulled") - (gint64) count_kind (r, SLUICE_EVENT_ITEM_OK);

  if (max_lead < admitted_lead)
    FAIL (why, "the report's max_lead is %" G_GINT64_FORMAT ", below an admission's lead %u", max_lead,
          admitted_lead);
  if (max_lead < last)
    FAIL (why, "the report's max_lead is %" G_GINT64_FORMAT ", below the last submission's lead, at least %"
          G_GINT64_FORMAT, max_lead, last);
  if (json_object_get_boolean_member (r->report, "lead_ok") != (max_lead <= (gint64) limit))
    FAIL (why, "lead_ok is %s with max_lead %" G_GINT64_FORMAT " and limit %u",
          json_object_get_boolean_member (r->report, "lead_ok") ? "true" : "false", max_lead, limit);

  return TRUE;
}

/* The producer is never more than queue-size + workers + 1 items ahead:
 * at each pull, the items pulled and not yet finished (ok, failed for
 * good, dropped or cancelled) are at most that many. The report's max_lead
 * counts failed, dropped and cancelled items as unfinished, so lead_ok
 * holds whenever no item ended that way. A service samples its lead at
 * each submission, before the admission its pull event reports and also
 * for the refused ones, which have no event (docs/submit-and-shutdown.md): its
 * max_lead is at least every admission's lead and at least the last
 * submission's, which had every item pulled and at most the final
 * successes. */
static gboolean
lead_within_queue_size_plus_workers_plus_one (const PropertyRun *r,
                                              GString           *why)
{
  guint limit = (guint) (sluice_scenario_get_queue_size (r->scenario) + sluice_scenario_get_workers (r->scenario) + 1);
  guint ended_otherwise = 0, max_lead = 0;

  for (guint i = 0; i < n_events (r); i++)
    {
      const SluiceEvent *e = event_at (r, i);

      if (e->lead != e->pulled - e->succeeded)
        FAIL_AT (why, i, "lead %u, but %u pulled and %u succeeded", e->lead, e->pulled, e->succeeded);

      if (e->kind == SLUICE_EVENT_ITEM_FAILED || e->kind == SLUICE_EVENT_ITEM_DROPPED ||
          e->kind == SLUICE_EVENT_ITEM_CANCELLED)
        ended_otherwise++;
      if (e->kind != SLUICE_EVENT_PULL)
        continue;

      max_lead = MAX (max_lead, e->lead);
      if (e->lead - ended_otherwise > limit)
        FAIL_AT (why, i, "%u items pulled and not finished, but queue-size + workers + 1 = %u",
                 e->lead - ended_otherwise, limit);
    }

  if (r->report == NULL)
    return TRUE;

  if (is_service (r))
    return service_max_lead_at_least_every_sample (r, why, max_lead, limit);

  if (report_int (r, "max_lead") != max_lead)
    FAIL (why, "the report's max_lead is %" G_GINT64_FORMAT ", the pulls say %u", report_int (r, "max_lead"), max_lead);
  if (json_object_get_boolean_member (r->report, "lead_ok") != (max_lead <= limit))
    FAIL (why, "lead_ok is %s with max_lead %u and limit %u",
          json_object_get_boolean_member (r->report, "lead_ok") ? "true" : "false", max_lead, limit);
  if (ended_otherwise == 0 && max_lead > limit)
    FAIL (why, "max_lead %u > %u with every item finished ok", max_lead, limit);

  return TRUE;
}

/* With metrics on or broken the callback gets exactly one call per ok,
 * retry and failure event, and nothing else; a broken one fails each call
 * and the pool does the same; off, there are no calls. */
static gboolean
metrics_once_per_item_event (const PropertyRun *r,
                             GString           *why)
{
  SluiceMetricsMode mode = sluice_scenario_get_metrics (r->scenario);
  static const struct { const char *name; SluiceEventKind kind; } counted[] = {
    { "ok", SLUICE_EVENT_ITEM_OK },
    { "retry", SLUICE_EVENT_RETRY },
    { "failure", SLUICE_EVENT_ITEM_FAILED },
  };
  JsonObject *metrics;
  gint64 total = 0;

  if (r->report == NULL)
    return TRUE;

  metrics = json_object_get_object_member (r->report, "metrics");
  for (guint i = 0; i < G_N_ELEMENTS (counted); i++)
    {
      gint64 calls = json_object_get_int_member (metrics, counted[i].name);
      gint64 expected = mode == SLUICE_METRICS_OFF ? 0 : count_kind (r, counted[i].kind);

      if (calls != expected)
        FAIL (why, "%" G_GINT64_FORMAT " '%s' metrics calls, expected %" G_GINT64_FORMAT,
              calls, counted[i].name, expected);
      total += calls;
    }

  if (report_int (r, "metrics_raised") != (mode == SLUICE_METRICS_BROKEN ? total : 0))
    FAIL (why, "metrics_raised %" G_GINT64_FORMAT " with %" G_GINT64_FORMAT " calls",
          report_int (r, "metrics_raised"), total);

  return TRUE;
}

/* Every success is yielded to the caller unless the caller cancelled or
 * closed the run; the report has every yielded result. */
static gboolean
every_success_is_yielded_unless_cancelled (const PropertyRun *r,
                                           GString           *why)
{
  guint ok = count_kind (r, SLUICE_EVENT_ITEM_OK);
  guint yielded = count_kind (r, SLUICE_EVENT_RESULT);

  /* A service's results go to their jobs: the report lists every one. */
  if (is_service (r))
    {
      if (r->report != NULL &&
          json_array_get_length (json_object_get_array_member (r->report, "result_order")) != ok)
        FAIL (why, "the report has %u results, but %u jobs succeeded",
              json_array_get_length (json_object_get_array_member (r->report, "result_order")), ok);
      return TRUE;
    }

  if (yielded > ok)
    FAIL (why, "%u results yielded, %u items succeeded", yielded, ok);
  if (!caller_ended_early (r) && yielded != ok)
    FAIL (why, "%u results yielded, %u items succeeded, no cancel or close", yielded, ok);
  if (r->report != NULL &&
      json_array_get_length (json_object_get_array_member (r->report, "result_order")) != yielded)
    FAIL (why, "the report has %u results, the stream %u",
          json_array_get_length (json_object_get_array_member (r->report, "result_order")), yielded);

  return TRUE;
}

/* Nothing recorded is lost: the group holds one error per item failed for
 * good and per source error; a run nobody cancelled or closed ends with
 * the group if there is one and normally otherwise; a cancelled or closed
 * one as closed or CancelledError. */
static gboolean
recorded_errors_end_the_run_as_a_group (const PropertyRun *r,
                                        GString           *why)
{
  guint recorded = count_kind (r, SLUICE_EVENT_ITEM_FAILED) + count_kind (r, SLUICE_EVENT_SOURCE_ERROR);
  const char *outcome;

  if (r->report == NULL)
    return TRUE;

  outcome = json_object_get_string_member (r->report, "outcome");

  /* A service's group holds only the fatal errors; failed jobs keep theirs. */
  if (is_service (r))
    {
      guint fatal = count_kind (r, SLUICE_EVENT_FATAL);
      const char *want = count_kind (r, SLUICE_EVENT_CANCEL) > 0 ? "CancelledError"
                         : fatal > 0 ? "ExceptionGroup" : "ok";

      if (report_int (r, "group_size") != fatal)
        FAIL (why, "group_size %" G_GINT64_FORMAT ", but %u fatal errors", report_int (r, "group_size"), fatal);
      /* The caller's cancel may come after the run ended but while its
       * submitter still offered items: that cancels the caller too. */
      if (g_strcmp0 (outcome, want) != 0 &&
          !(g_strcmp0 (outcome, "CancelledError") == 0 && sluice_scenario_get_cancel_after (r->scenario) >= 0))
        FAIL (why, "a service ended %s, expected %s", outcome, want);
      return TRUE;
    }

  if (report_int (r, "group_size") != recorded)
    FAIL (why, "group_size %" G_GINT64_FORMAT ", but %u errors in the stream", report_int (r, "group_size"), recorded);

  if (caller_ended_early (r))
    {
      if (g_strcmp0 (outcome, "closed") != 0 && g_strcmp0 (outcome, "CancelledError") != 0)
        FAIL (why, "outcome %s after a cancel or close", outcome);
    }
  else if (g_strcmp0 (outcome, recorded > 0 ? "ExceptionGroup" : "ok") != 0)
    FAIL (why, "outcome %s with %u errors recorded and no cancel or close", outcome, recorded);

  return TRUE;
}

typedef gboolean (*InvariantFunc) (const PropertyRun *r,
                                   GString           *why);

#define INVARIANT(f) { #f, f }

static const struct {
  const char    *name;
  InvariantFunc  check;
} invariants[] = {
  INVARIANT (the_run_always_ends),
  INVARIANT (nothing_after_run_end),
  INVARIANT (no_live_operations_after_the_end),
  INVARIANT (each_pulled_item_has_exactly_one_outcome),
  INVARIANT (attempts_at_most_max_retries_plus_one),
  INVARIANT (retries_only_after_retryable_errors),
  INVARIANT (items_fail_for_good_only_without_retries_left),
  INVARIANT (nothing_queued_after_a_stop),
  INVARIANT (nothing_starts_after_a_halt),
  INVARIANT (lead_within_queue_size_plus_workers_plus_one),
  INVARIANT (metrics_once_per_item_event),
  INVARIANT (every_success_is_yielded_unless_cancelled),
  INVARIANT (recorded_errors_end_the_run_as_a_group),
};

/* ---- the property ------------------------------------------------------ */

static guint32
property_seed (void)
{
  const char *text = g_getenv ("SLUICE_PROPERTY_SEED");

  return text != NULL && *text != '\0' ? (guint32) g_ascii_strtoull (text, NULL, 0) : DEFAULT_SEED;
}

static guint
property_runs (void)
{
  const char *text = g_getenv ("SLUICE_PROPERTY_RUNS");

  return text != NULL && *text != '\0' ? (guint) g_ascii_strtoull (text, NULL, 0) : DEFAULT_RUNS;
}

static void
print_failure (const PropertyRun *r,
               const char        *invariant,
               const char        *why)
{
  g_autoptr(GString) events = g_string_new (NULL);

  for (guint i = 0; i < n_events (r); i++)
    {
      g_autofree char *line = sluice_recorder_event_to_line (event_at (r, i));
      g_string_append_printf (events, "%4u %s%s", i, line, g_str_has_suffix (line, "\n") ? "" : "\n");
    }

  g_test_message ("invariant %s violated: %s\n"
                  "seed %u, run %u (SLUICE_PROPERTY_SEED=%u SLUICE_PROPERTY_RUNS=%u)\n"
                  "---- scenario ----\n%s"
                  "---- events ----\n%s",
                  invariant, why, r->seed, r->number, r->seed, r->number + 1, r->text, events->str);
}

/* Loads @r->text, runs it and checks every invariant. Gives the name of
 * the first one violated (with @why, and the failure printed), or NULL. */
static const char *
property_run_check (PropertyRun *r,
                    gboolean     stop_after_end,
                    GString     *why)
{
  g_autoptr(GError) error = NULL;

  r->scenario = sluice_scenario_new_from_data (r->text, -1, "property.pool", NULL, &error);
  if (r->scenario == NULL)
    {
      g_string_append_printf (why, "the generated scenario does not load: %s", error->message);
      print_failure (r, "generated_scenarios_are_valid", why->str);
      return "generated_scenarios_are_valid";
    }

  property_run_execute (r, stop_after_end);

  if (sluice_recorder_get_n_dropped (r->recorder) != 0)
    {
      g_string_append (why, "the recorder dropped events");
      print_failure (r, "recorder_keeps_every_event", why->str);
      return "recorder_keeps_every_event";
    }

  for (guint i = 0; i < G_N_ELEMENTS (invariants); i++)
    if (!invariants[i].check (r, why))
      {
        print_failure (r, invariants[i].name, why->str);
        return invariants[i].name;
      }

  return NULL;
}

static void
assert_no_violation (const PropertyRun *r,
                     const char        *violated,
                     GString           *why)
{
  g_autofree char *message = NULL;

  if (violated == NULL)
    return;

  message = g_strdup_printf ("invariant %s violated (seed %u, run %u): %s",
                             violated, r->seed, r->number, why->str);
  g_assertion_message (G_LOG_DOMAIN, __FILE__, __LINE__, G_STRFUNC, message);
}

/* What the runs covered, so that a generator gone narrow shows. */
typedef struct {
  guint runs, deadlocks, events, pulled, stops, cancels, retries, failed, dropped, cancelled, ok;
  guint backoffs, skipped, shed, fatal, deadlines, overruns;
  GHashTable *outcomes;
} Tally;

static void
tally_add (Tally             *t,
           const PropertyRun *r)
{
  const char *outcome = r->report ? json_object_get_string_member (r->report, "outcome") : "deadlock";

  if (t->outcomes == NULL)
    t->outcomes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (t->outcomes, g_strdup (outcome),
                       GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (t->outcomes, outcome)) + 1));

  t->runs++;
  t->deadlocks += r->error != NULL;
  t->events += n_events (r);
  t->pulled += count_kind (r, SLUICE_EVENT_PULL);
  t->stops += count_kind (r, SLUICE_EVENT_STOP_REQUEST) > 0;
  t->cancels += count_kind (r, SLUICE_EVENT_CANCEL) > 0;
  t->retries += count_kind (r, SLUICE_EVENT_RETRY);
  t->ok += count_kind (r, SLUICE_EVENT_ITEM_OK);
  t->failed += count_kind (r, SLUICE_EVENT_ITEM_FAILED);
  t->dropped += count_kind (r, SLUICE_EVENT_ITEM_DROPPED);
  t->cancelled += count_kind (r, SLUICE_EVENT_ITEM_CANCELLED);
  t->backoffs += count_kind (r, SLUICE_EVENT_BACKOFF);
  t->skipped += count_kind (r, SLUICE_EVENT_RETRY_SKIPPED);
  t->shed += count_kind (r, SLUICE_EVENT_DEADLINE_EXCEEDED);
  t->fatal += count_kind (r, SLUICE_EVENT_FATAL);
  t->deadlines += count_kind (r, SLUICE_EVENT_SHUTDOWN_DEADLINE);
  t->overruns += count_kind (r, SLUICE_EVENT_OVERRUN);
}

static void
tally_print (Tally *t)
{
  g_autoptr(GString) outcomes = g_string_new (NULL);
  GHashTableIter iter;
  gpointer key, value;

  if (t->outcomes != NULL)
    {
      g_hash_table_iter_init (&iter, t->outcomes);
      while (g_hash_table_iter_next (&iter, &key, &value))
        g_string_append_printf (outcomes, " %s=%u", (const char *) key, GPOINTER_TO_UINT (value));
    }

  g_test_message ("%u runs, %u events; items: %u pulled, %u ok, %u failed, %u dropped, %u cancelled; "
                  "%u retries, %u backoffs, %u retries skipped, %u shed; "
                  "%u fatal errors, %u shutdown deadlines hit, %u overruns; "
                  "runs with a stop %u, with a cancel %u, deadlocks %u; "
                  "outcomes:%s",
                  t->runs, t->events, t->pulled, t->ok, t->failed, t->dropped, t->cancelled,
                  t->retries, t->backoffs, t->skipped, t->shed,
                  t->fatal, t->deadlines, t->overruns, t->stops, t->cancels, t->deadlocks, outcomes->str);
  g_clear_pointer (&t->outcomes, g_hash_table_unref);
}

static void
test_random_scenarios_keep_the_invariants (void)
{
  guint32 seed = property_seed ();
  guint runs = property_runs ();
  gint64 start = g_get_monotonic_time ();
  Tally tally = { 0 };

  g_test_message ("seed %u, %u runs", seed, runs);

  for (guint number = 0; number < runs; number++)
    {
      g_auto(PropertyRun) r = { .seed = seed, .number = number };
      g_autoptr(GString) why = g_string_new (NULL);

      r.text = generate_scenario (seed, number);
      assert_no_violation (&r, property_run_check (&r, TRUE, why), why);
      tally_add (&tally, &r);
    }

  tally_print (&tally);

  g_test_message ("%u runs in %.2f s", runs, (g_get_monotonic_time () - start) / 1e6);
}

/* Defect 12: three items finish at the same instant, and the run ends
 * before the caller has seen its K-th result: for K = 2 the result was
 * handed over but its callback runs after run-end, for K = 3 it waits in
 * the result channel. The runner's stop request after the K-th result then
 * comes after run-end. After run-end the run emits nothing: a stop
 * requested then, by the runner or by anyone, is a no-op for the events. */
static void
test_stop_after_run_end_emits_nothing (void)
{
  for (guint k = 1; k <= 3; k++)
    for (gboolean stop_after_end = FALSE; stop_after_end <= TRUE; stop_after_end++)
      {
        g_auto(PropertyRun) r = { .number = k };
        g_autoptr(GString) why = g_string_new (NULL);

        r.text = g_strdup_printf ("[pool]\nworkers=3\nqueue-size=3\nitem-timeout=1\n"
                                  "[source]\ncount=3\n[handler]\ndefault=ok 0.1\n"
                                  "[run]\nstop-after=%u\nclock=virtual\n", k);
        assert_no_violation (&r, property_run_check (&r, stop_after_end, why), why);
        g_assert_cmpuint (count_kind (&r, SLUICE_EVENT_STOP_REQUEST), <=, 1);
        g_assert_cmpuint (count_kind (&r, SLUICE_EVENT_RESULT), ==, 3);
      }
}

/* ---- each invariant catches what it is for ---------------------------- */

/* Item 1 fails both its attempts (max-retries=1) with a retryable
 * ValueError, then for good, which requests a stop; items 0, 2 and 3
 * succeed; the queue is never full. */
#define BASE_SCENARIO \
  "[pool]\nworkers=4\nqueue-size=2\nitem-timeout=1\nmax-retries=1\nretryable=ValueError\n" \
  "metrics=on\n[source]\ncount=4\n[handler]\ndefault=ok 0.1\nitem.1=fail-always ValueError 0.05\n" \
  "[run]\nclock=virtual\n"

/* The position of the first event of @kind (for @item, unless -2) from
 * @from on; fails the test if there is none. */
static guint
find_event (GArray          *events,
            guint            from,
            SluiceEventKind  kind,
            gint64           item)
{
  for (guint i = from; i < events->len; i++)
    {
      SluiceEvent *e = &g_array_index (events, SluiceEvent, i);

      if (e->kind == kind && (item == -2 || e->item == item))
        return i;
    }

  g_error ("the base scenario has no %s event", sluice_event_kind_to_string (kind));
}

static SluiceEvent *
event_in (GArray *events,
          guint   position)
{
  return &g_array_index (events, SluiceEvent, position);
}

/* Inserts a copy of the event at @from, as @kind, at @to. */
static SluiceEvent *
insert_copy (GArray          *events,
             guint            from,
             guint            to,
             SluiceEventKind  kind)
{
  SluiceEvent copy = *event_in (events, from);

  copy.kind = kind;
  g_array_insert_val (events, to, copy);
  return event_in (events, to);
}

static void
break_run_end (PropertyRun *r,
               GArray      *events)
{
  r->finished = FALSE;
}

static void
break_stop_after_run_end (PropertyRun *r,
                          GArray      *events)
{
  insert_copy (events, events->len - 1, events->len, SLUICE_EVENT_STOP_REQUEST);
}

static void
break_live_operations (PropertyRun *r,
                       GArray      *events)
{
  r->live_operations = 1;
}

static void
break_second_outcome (PropertyRun *r,
                      GArray      *events)
{
  guint ok = find_event (events, 0, SLUICE_EVENT_ITEM_OK, -2);

  insert_copy (events, ok, ok + 1, SLUICE_EVENT_ITEM_OK);
}

static void
break_extra_attempt (PropertyRun *r,
                     GArray      *events)
{
  guint failed = find_event (events, 0, SLUICE_EVENT_ITEM_FAILED, 1);
  guint start = find_event (events, find_event (events, 0, SLUICE_EVENT_RETRY, 1), SLUICE_EVENT_ATTEMPT_START, 1);

  insert_copy (events, start, failed, SLUICE_EVENT_ATTEMPT_START)->attempt = 3;
}

static void
break_retry_of_unretryable (PropertyRun *r,
                            GArray      *events)
{
  guint end = find_event (events, 0, SLUICE_EVENT_ATTEMPT_END, 1);

  event_in (events, end)->error_type = "KeyError";
}

static void
break_failure_with_retries_left (PropertyRun *r,
                                 GArray      *events)
{
  guint retry = find_event (events, 0, SLUICE_EVENT_RETRY, 1);

  event_in (events, find_event (events, retry, SLUICE_EVENT_ATTEMPT_END, 1))->attempt = 1;
}

static void
break_queue_put_after_stop (PropertyRun *r,
                            GArray      *events)
{
  guint stop = find_event (events, 0, SLUICE_EVENT_STOP_REQUEST, -2);

  insert_copy (events, find_event (events, 0, SLUICE_EVENT_QUEUE_PUT, 0), stop + 1, SLUICE_EVENT_QUEUE_PUT);
}

static void
break_attempt_after_cancel (PropertyRun *r,
                            GArray      *events)
{
  /* A cancel right after run-start: the base scenario's attempts follow. */
  insert_copy (events, 0, 1, SLUICE_EVENT_CANCEL);
}

static void
break_lead (PropertyRun *r,
            GArray      *events)
{
  SluiceEvent *pull = event_in (events, find_event (events, 0, SLUICE_EVENT_PULL, 3));

  /* queue-size + workers + 1 = 7 */
  pull->lead = 8;
  pull->pulled = pull->succeeded + 8;
}

static void
break_metrics (PropertyRun *r,
               GArray      *events)
{
  JsonObject *metrics = json_object_get_object_member (r->report, "metrics");

  json_object_set_int_member (metrics, "ok", json_object_get_int_member (metrics, "ok") + 1);
}

static void
break_missing_result (PropertyRun *r,
                      GArray      *events)
{
  g_array_remove_index (events, find_event (events, 0, SLUICE_EVENT_RESULT, -2));
}

static void
break_group_size (PropertyRun *r,
                  GArray      *events)
{
  json_object_set_int_member (r->report, "group_size", report_int (r, "group_size") + 1);
}

typedef void (*BreakFunc) (PropertyRun *r,
                           GArray      *events);

static const struct {
  InvariantFunc  check;
  BreakFunc      breaks;
} violations[] = {
  { the_run_always_ends, break_run_end },
  { nothing_after_run_end, break_stop_after_run_end },
  { no_live_operations_after_the_end, break_live_operations },
  { each_pulled_item_has_exactly_one_outcome, break_second_outcome },
  { attempts_at_most_max_retries_plus_one, break_extra_attempt },
  { retries_only_after_retryable_errors, break_retry_of_unretryable },
  { items_fail_for_good_only_without_retries_left, break_failure_with_retries_left },
  { nothing_queued_after_a_stop, break_queue_put_after_stop },
  { nothing_starts_after_a_halt, break_attempt_after_cancel },
  { lead_within_queue_size_plus_workers_plus_one, break_lead },
  { metrics_once_per_item_event, break_metrics },
  { every_success_is_yielded_unless_cancelled, break_missing_result },
  { recorded_errors_end_the_run_as_a_group, break_group_size },
};

/* Each invariant holds for the base scenario's run, and fails once the
 * run's stream or report is broken in the one way that invariant is for. */
static void
test_each_invariant_catches_its_violation (void)
{
  g_assert_cmpuint (G_N_ELEMENTS (violations), ==, G_N_ELEMENTS (invariants));

  for (guint i = 0; i < G_N_ELEMENTS (violations); i++)
    {
      g_auto(PropertyRun) r = { .number = i };
      g_autoptr(GString) why = g_string_new (NULL);
      g_autoptr(SluiceRecorder) broken = sluice_recorder_new (0);
      g_autoptr(GArray) events = g_array_new (FALSE, FALSE, sizeof (SluiceEvent));

      g_assert_true (violations[i].check == invariants[i].check);
      r.text = g_strdup (BASE_SCENARIO);
      assert_no_violation (&r, property_run_check (&r, TRUE, why), why);

      /* The copies borrow the strings and values of r.recorder's events,
       * and the broken recorder copies them again. */
      for (guint e = 0; e < n_events (&r); e++)
        g_array_append_val (events, *event_at (&r, e));
      violations[i].breaks (&r, events);
      for (guint e = 0; e < events->len; e++)
        sluice_recorder_add (broken, event_in (events, e));
      g_set_object (&r.recorder, broken);

      g_assert_false (violations[i].check (&r, why));
      g_test_message ("%s catches: %s", invariants[i].name, why->str);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/property/random-scenarios-keep-the-invariants",
                   test_random_scenarios_keep_the_invariants);
  g_test_add_func ("/property/each-invariant-catches-its-violation",
                   test_each_invariant_catches_its_violation);
  g_test_add_func ("/property/stop-after-run-end-emits-nothing",
                   test_stop_after_run_end_emits_nothing);

  return g_test_run ();
}
