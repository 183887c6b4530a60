/* test-store-source.c: SluiceStoreSource and SluiceStoreHandler on a real
 * SQLite file, in one process, on the virtual clock (docs/job-store.md, the
 * seed's Worker, LeaseHeartbeat and findings 02 and 03)
 *
 * The pool's clock is virtual and mapped onto wall time at T0, so every
 * time the store records is exact: a store call takes no virtual time
 * (the source pauses the clock while one is in flight). The handler is
 * sluice-run worker's: the fault-injecting handler with the behaviour of
 * each job's payload. Nothing waits for the wall clock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include "flaky-store.h"
#include "sluice-json-limits-private.h"
#include "sluice-payload-handler.h"
#include "sluice-store-admin.h"
#include "sluice-store-handler-private.h"
#include "sluice-store-source.h"
#include "store-fixture.h"

#define T0 G_GINT64_CONSTANT (1700000000000000)
#define TENANT "tenant"
#define OWNER "worker-1"
#define S(seconds) sluice_time_from_seconds (seconds)
#define WATCHDOG_SECONDS 60

/* ---- the fixture -------------------------------------------------------- */

typedef struct {
  gint         workers;
  gint         queue_size;
  double       lease;
  double       heartbeat;
  gboolean     no_heartbeat;
  double       poll_interval;
  double       item_timeout;
  double       shutdown_timeout;
  double       backoff_base;
  SluiceJitter jitter;
  gboolean     until_empty;
  double       store_error_timeout;
  gboolean     pipelined;   /* SluiceStoreHandler:pipelined-completions */
} Options;

#define DEFAULT_OPTIONS { .workers = 2, .queue_size = 2, .lease = 30, .heartbeat = 10, \
                          .poll_interval = 0.1, .item_timeout = 60, .shutdown_timeout = 0, \
                          .backoff_base = 1, .jitter = SLUICE_JITTER_NONE, .until_empty = TRUE, \
                          .store_error_timeout = 60 }

/* One job-started or job-finished, on the pool's clock. */
typedef struct {
  char               *key;
  guint               attempt;
  gboolean            finished;
  SluiceStoreOutcome  outcome;
  char               *error_type;
  char               *error_message;
  gint64              at;
  gint64              available_at;
  guint               n_claims;     /* the source's unfinished claims then */
} Record;

typedef struct {
  char               *dir;
  char               *path;
  char               *uri;
  SluiceJobStore     *store;
  FlakyStore         *flaky;        /* the store, when a case makes it flaky */
  SluiceClock        *clock;
  SluiceStoreSource  *source;
  SluiceStoreHandler *handler;
  SluicePool         *pool;
  GArray             *records;
  guint               most_claims;
  guint               n_store_errors;
  guint               n_items_ok;   /* the pool's SLUICE_EVENT_ITEM_OK */
  GError             *run_error;
} Fixture;

static void
record_clear (Record *r)
{
  g_free (r->key);
  g_free (r->error_type);
  g_free (r->error_message);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("sluice-store-source-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "jobs.db", NULL);
  f->uri = g_strconcat ("sqlite:", f->path, NULL);
  f->store = sluice_job_store_new_for_uri (f->uri, &error);
  g_assert_no_error (error);
  f->clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  f->records = g_array_new (FALSE, TRUE, sizeof (Record));
  g_array_set_clear_func (f->records, (GDestroyNotify) record_clear);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  const char *suffixes[] = { "", "-wal", "-shm", "-journal" };

  g_clear_object (&f->pool);
  g_clear_object (&f->handler);
  g_clear_object (&f->source);
  g_clear_object (&f->clock);
  g_clear_object (&f->store);
  g_clear_object (&f->flaky);
  g_clear_error (&f->run_error);
  g_array_unref (f->records);
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (f->path, suffixes[i], NULL);
      g_unlink (file);
    }
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->uri);
  g_free (f->dir);
}

static gint64
now_in_store (Fixture *f)
{
  return T0 + sluice_clock_now (f->clock);
}

static void
on_job_started (SluiceStoreHandler   *handler,
                const SluiceJobClaim *claim,
                gpointer              user_data)
{
  Fixture *f = user_data;
  Record r = { 0 };

  r.key = g_strdup (claim->job->operation_key);
  r.attempt = claim->job->attempts;
  r.at = sluice_clock_now (f->clock);
  r.available_at = -1;
  r.n_claims = sluice_store_source_get_n_claims (f->source);
  f->most_claims = MAX (f->most_claims, r.n_claims);
  g_array_append_val (f->records, r);
}

static void
on_job_finished (SluiceStoreHandler   *handler,
                 const SluiceJobClaim *claim,
                 SluiceStoreOutcome    outcome,
                 const GError         *error,
                 gint64                available_at,
                 gpointer              user_data)
{
  Fixture *f = user_data;
  Record r = { 0 };

  r.key = g_strdup (claim->job->operation_key);
  r.attempt = claim->job->attempts;
  r.finished = TRUE;
  r.outcome = outcome;
  r.error_type = error != NULL ? g_strdup (sluice_error_type_name (error)) : NULL;
  r.error_message = error != NULL ? g_strdup (error->message) : NULL;
  r.at = sluice_clock_now (f->clock);
  r.available_at = available_at;
  /* Still counted: the source forgets the claim after this signal. */
  r.n_claims = sluice_store_source_get_n_claims (f->source);
  f->most_claims = MAX (f->most_claims, r.n_claims);
  g_array_append_val (f->records, r);
}

/* As sluice-run worker does: a claim the pool dropped unrun goes back. */
static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  Fixture *f = user_data;

  if (event->kind == SLUICE_EVENT_ITEM_DROPPED)
    sluice_store_source_item_dropped (f->source, event->value);
  else if (event->kind == SLUICE_EVENT_ITEM_OK)
    f->n_items_ok++;
}

static void
on_store_error (SluiceStoreSource *source,
                const GError      *error,
                gpointer           user_data)
{
  Fixture *f = user_data;

  f->n_store_errors++;
}

/* The case's store becomes a FlakyStore around the SQLite one. */
static void
use_flaky_store (Fixture *f)
{
  f->flaky = flaky_store_new (f->store, f->clock);
  g_object_unref (f->store);
  f->store = g_object_ref (SLUICE_JOB_STORE (f->flaky));
}

static void
fixture_build (Fixture       *f,
               const Options *o)
{
  g_autoptr(SluicePayloadHandler) payload = NULL;
  g_autoptr(GError) error = NULL;
  const char * const retryable[] = { "ConnectionError", "TimeoutError", NULL };

  f->source = g_initable_new (SLUICE_TYPE_STORE_SOURCE, NULL, &error,
                              "store", f->store,
                              "clock", f->clock,
                              "tenant", TENANT,
                              "owner", OWNER,
                              "lease", o->lease,
                              "poll-interval", o->poll_interval,
                              "store-error-timeout", o->store_error_timeout,
                              "until-empty", o->until_empty,
                              NULL);
  g_assert_no_error (error);
  sluice_store_source_set_epoch (f->source, T0);
  g_signal_connect (f->source, "store-error", G_CALLBACK (on_store_error), f);

  payload = sluice_payload_handler_new (f->clock);
  f->handler = g_initable_new (SLUICE_TYPE_STORE_HANDLER, NULL, &error,
                               "source", f->source,
                               "inner", payload,
                               "heartbeat", o->heartbeat,
                               "retryable", retryable,
                               "backoff-base", o->backoff_base,
                               "backoff-cap", 60.0,
                               "jitter", o->jitter,
                               "pipelined-completions", o->pipelined,
                               NULL);
  g_assert_no_error (error);
  if (o->no_heartbeat)
    _sluice_store_handler_set_heartbeat_enabled (f->handler, FALSE);
  g_signal_connect (f->handler, "job-started", G_CALLBACK (on_job_started), f);
  g_signal_connect (f->handler, "job-finished", G_CALLBACK (on_job_finished), f);

  f->pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
                            "handler", f->handler,
                            "clock", f->clock,
                            "workers", o->workers,
                            "queue-size", o->queue_size,
                            "item-timeout", o->item_timeout,
                            "max-retries", 0,
                            "keep-going", TRUE,
                            "shutdown-timeout", o->shutdown_timeout,
                            NULL);
  g_assert_no_error (error);
  sluice_pool_set_event_func (f->pool, on_event, f, NULL);
}

static void
enqueue (Fixture    *f,
         const char *key,
         const char *behaviour,
         gint64      value,
         guint       max_attempts)
{
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *payload = g_strdup_printf ("{\"behaviour\": \"%s\", \"value\": %" G_GINT64_FORMAT "}",
                                              behaviour, value);
  gboolean created = FALSE;

  job = store_fixture_enqueue (f->store, TENANT, key, payload, max_attempts, now_in_store (f), &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
}

static SluiceStoredJob *
peek (Fixture    *f,
      const char *key)
{
  return store_fixture_peek (f->store, TENANT, key);
}

static gboolean
on_watchdog (gpointer data)
{
  g_error ("the run did not end within %d s of wall time", WATCHDOG_SECONDS);
  return G_SOURCE_REMOVE;
}

typedef struct {
  Fixture   *f;
  SluiceRun *run;
  gboolean   done;
} Reading;

static void read_next (Reading *reading);

static void
on_batch (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Reading *reading = user_data;
  g_autoptr(GPtrArray) batch = NULL;

  batch = sluice_run_next_batch_finish (reading->run, result, &reading->f->run_error);
  if (batch != NULL)
    read_next (reading);
  else
    reading->done = TRUE;
}

static void
read_next (Reading *reading)
{
  sluice_run_next_batch_async (reading->run, 0, NULL, on_batch, reading);
}

static void
on_closed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  gboolean *closed = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (sluice_store_source_close_finish (SLUICE_STORE_SOURCE (object), result, &error));
  g_assert_no_error (error);
  *closed = TRUE;
}

static guint
count_finished (Fixture *f)
{
  guint n = 0;

  for (guint i = 0; i < f->records->len; i++)
    n += g_array_index (f->records, Record, i).finished;
  return n;
}

/* Runs the pool to its end, then closes the source as sluice-run worker
 * does. A run with failed jobs ends with their group of errors: that is
 * kept in run_error for the case to look at. */
static void
run_pool (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceRun) run = sluice_pool_run (f->pool, SLUICE_SOURCE (f->source), &error);
  Reading reading = { f, run, FALSE };
  gboolean closed = FALSE;
  guint watchdog;

  g_assert_no_error (error);
  watchdog = g_timeout_add_seconds (WATCHDOG_SECONDS, on_watchdog, NULL);
  read_next (&reading);
  while (!reading.done)
    g_main_context_iteration (NULL, TRUE);
  sluice_store_source_close_async (f->source, NULL, on_closed, &closed);
  while (!closed)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);

  /* The claims add up: each one's attempt ended with an outcome, or it
   * was handed back unrun (or its release failed); none is left over. */
  g_assert_cmpuint (sluice_store_source_get_n_claims (f->source), ==, 0);
  g_assert_cmpuint (sluice_store_source_get_n_claimed (f->source), ==,
                    count_finished (f) + sluice_store_source_get_n_released (f->source) +
                    sluice_store_source_get_n_release_failed (f->source));

  /* Nothing of the source or the handler is left on the clock (a timer
   * would move virtual time on while the case reads the store). */
  g_assert_cmpuint (sluice_clock_get_n_pending (f->clock), ==, 0);
}

/* Calls @func at @seconds on the pool's clock. */
static void
at (Fixture         *f,
    double           seconds,
    SluiceTimerFunc  func)
{
  sluice_clock_add_timer (f->clock, S (seconds), func, f, NULL);
}

static const Record *
find_record (Fixture    *f,
             const char *key,
             guint       attempt,
             gboolean    finished)
{
  for (guint i = 0; i < f->records->len; i++)
    {
      const Record *r = &g_array_index (f->records, Record, i);

      if (g_str_equal (r->key, key) && r->attempt == attempt && r->finished == finished)
        return r;
    }
  g_error ("no %s record of %s attempt %u", finished ? "finished" : "started", key, attempt);
  return NULL;
}

static guint
count_outcomes (Fixture            *f,
                SluiceStoreOutcome  outcome)
{
  guint n = 0;

  for (guint i = 0; i < f->records->len; i++)
    {
      const Record *r = &g_array_index (f->records, Record, i);
      n += r->finished && r->outcome == outcome;
    }
  return n;
}

/* ---- the lead bound ----------------------------------------------------- */

/* Forty quick jobs through a pool of 2 workers and a queue of 3, the
 * source taking @claim_ahead claims ahead: all succeed, and the claims
 * held never exceed the lead bound q + w + 1. */
static void
run_forty_within_the_lead_bound (Fixture *f,
                                 guint    claim_ahead)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  o.workers = 2;
  o.queue_size = 3;
  fixture_build (f, &o);
  sluice_store_source_set_claim_ahead (f->source, claim_ahead);
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *key = g_strdup_printf ("job-%u", i);
      enqueue (f, key, "ok 0.1", i, 3);
    }

  run_pool (f);
  g_assert_no_error (f->run_error);

  g_assert_cmpuint (sluice_store_source_get_max_claims (f->source), <=, 3 + 2 + 1);
  g_assert_cmpuint (f->most_claims, <=, 3 + 2 + 1);
  g_assert_cmpuint (sluice_store_source_get_n_claimed (f->source), ==, 40);
  g_assert_cmpuint (sluice_store_source_get_n_released (f->source), ==, 0);
  g_assert_cmpuint (sluice_store_source_get_n_claims (f->source), ==, 0);
  g_assert_cmpuint (count_outcomes (f, SLUICE_STORE_OUTCOME_SUCCEEDED), ==, 40);

  status = store_fixture_status (f->store, TENANT, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, 40);
}

static void
test_claims_never_exceed_the_lead_bound (Fixture       *f,
                                         gconstpointer  data)
{
  run_forty_within_the_lead_bound (f, 1);
  /* One claim per read: the pool's lead bound is the claims'. */
  g_assert_cmpuint (sluice_store_source_get_max_claims (f->source), ==, 3 + 2 + 1);
}

/* Claims taken ahead (sluice-run worker's setting: the lead bound): a
 * claim asks for several jobs, the reads take them from the source, and
 * the claims held still never exceed the bound. */
static void
test_claims_taken_ahead_stay_within_the_lead_bound (Fixture       *f,
                                                    gconstpointer  data)
{
  run_forty_within_the_lead_bound (f, 3 + 2 + 1);
}

/* ---- outcomes ------------------------------------------------------------ */

static void
test_success_completes_the_job (Fixture       *f,
                                gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(JsonNode) result = NULL;
  JsonObject *object;
  const Record *finished;

  fixture_build (f, &o);
  enqueue (f, "square", "ok 0.2", 3, 3);
  run_pool (f);
  g_assert_no_error (f->run_error);

  finished = find_record (f, "square", 1, TRUE);
  g_assert_cmpint (finished->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
  g_assert_cmpint (finished->at, ==, S (0.2));

  job = peek (f, "square");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (job->attempts, ==, 1);
  g_assert_cmpint (job->updated_at, ==, T0 + S (0.2));
  g_assert_null (job->last_failure);

  /* The result says what the handler returned and which claim completed it. */
  result = json_from_string (job->result, NULL);
  g_assert_nonnull (result);
  object = json_node_get_object (result);
  g_assert_cmpint (json_object_get_int_member (object, "result"), ==, 9);
  g_assert_cmpstr (json_object_get_string_member (object, "worker"), ==, OWNER);
  g_assert_cmpint (json_object_get_int_member (object, "attempt"), ==, 1);
  g_assert_true (g_uuid_string_is_valid (json_object_get_string_member (object, "token")));
}

static Fixture *retry_fixture;
static SluiceStoredJob *retry_seen;

static void
peek_retry_job (gpointer user_data)
{
  retry_seen = peek (retry_fixture, "flaky");
}

static void
test_retryable_failure_waits_for_its_backoff (Fixture       *f,
                                              gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  const Record *failed, *retried, *done;

  o.backoff_base = 1;
  fixture_build (f, &o);
  enqueue (f, "flaky", "fail 1 ConnectionError 0.05", 2, 3);
  retry_fixture = f;
  at (f, 0.5, peek_retry_job);
  run_pool (f);
  /* The pool saw one claim fail: its retry is the store's, a new claim. */
  g_assert_error (f->run_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);

  /* Attempt 1 failed at 0.05 s: retry 1 waits backoff-base · 2⁰ = 1 s. */
  failed = find_record (f, "flaky", 1, TRUE);
  g_assert_cmpint (failed->outcome, ==, SLUICE_STORE_OUTCOME_RETRY);
  g_assert_cmpstr (failed->error_type, ==, "ConnectionError");
  g_assert_cmpint (failed->at, ==, S (0.05));
  g_assert_cmpint (failed->available_at, ==, T0 + S (0.05) + S (1));

  /* Meanwhile the store keeps it in retry_wait until then. */
  g_assert_nonnull (retry_seen);
  g_assert_cmpint (retry_seen->state, ==, SLUICE_STORED_JOB_RETRY_WAIT);
  g_assert_cmpint (retry_seen->available_at, ==, T0 + S (1.05));
  g_assert_nonnull (retry_seen->last_failure);
  g_assert_cmpstr (retry_seen->last_failure->code, ==, "CONNECTION_ERROR");
  g_assert_true (retry_seen->last_failure->retryable);
  g_clear_pointer (&retry_seen, sluice_stored_job_free);

  /* Claimed again no sooner, by the next poll, and then it succeeds. */
  retried = find_record (f, "flaky", 2, FALSE);
  g_assert_cmpint (retried->at, >=, S (1.05));
  g_assert_cmpint (retried->at, <=, S (1.05) + S (o.poll_interval));
  done = find_record (f, "flaky", 2, TRUE);
  g_assert_cmpint (done->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);

  job = peek (f, "flaky");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (job->attempts, ==, 2);
}

static void
test_not_retryable_failure_is_dead (Fixture       *f,
                                    gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  const Record *failed;

  fixture_build (f, &o);
  enqueue (f, "bad", "fail-always ValueError 0.1", 1, 3);
  run_pool (f);
  g_assert_error (f->run_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);

  failed = find_record (f, "bad", 1, TRUE);
  g_assert_cmpint (failed->outcome, ==, SLUICE_STORE_OUTCOME_DEAD);
  g_assert_cmpint (failed->available_at, ==, -1);
  g_assert_cmpuint (count_outcomes (f, SLUICE_STORE_OUTCOME_RETRY), ==, 0);

  job = peek (f, "bad");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpuint (job->attempts, ==, 1);
  g_assert_cmpstr (job->last_failure->type_name, ==, "ValueError");
  g_assert_cmpstr (job->last_failure->code, ==, "VALUE_ERROR");
  g_assert_false (job->last_failure->retryable);
  g_assert_null (job->result);
}

/* A payload the worker's handler can use only in part, or not at all,
 * enqueued as it is (the store takes any JSON). */
static void
enqueue_payload (Fixture    *f,
                 const char *key,
                 const char *payload)
{
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;

  job = store_fixture_enqueue (f->store, TENANT, key, payload, 3, now_in_store (f), &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
}

/* Without "value" the job succeeds with null (the handler's rule), and
 * without a CRITICAL (fatal in a test) from freeing the value it has not;
 * a payload that is no object, or whose behaviour is no string or none
 * known, makes the job dead at its first attempt with PayloadError. */
static void
test_payload_without_value_or_unusable (Fixture       *f,
                                        gconstpointer  data)
{
  static const char *const unusable[][2] = {
    { "array", "[1, 2]" },
    { "number", "7" },
    { "behaviour-not-string", "{\"behaviour\": 5}" },
    { "behaviour-unknown", "{\"behaviour\": \"sometimes\", \"value\": 1}" },
  };
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) plain = NULL;
  g_autoptr(JsonNode) result = NULL;

  fixture_build (f, &o);
  enqueue_payload (f, "no-value", "{\"behaviour\": \"ok\"}");
  for (guint i = 0; i < G_N_ELEMENTS (unusable); i++)
    enqueue_payload (f, unusable[i][0], unusable[i][1]);
  run_pool (f);
  g_assert_error (f->run_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);

  plain = peek (f, "no-value");
  g_assert_cmpint (plain->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  result = json_from_string (plain->result, NULL);
  g_assert_nonnull (result);
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (json_node_get_object (result), "result")));

  for (guint i = 0; i < G_N_ELEMENTS (unusable); i++)
    {
      g_autoptr(SluiceStoredJob) job = peek (f, unusable[i][0]);

      g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
      g_assert_cmpuint (job->attempts, ==, 1);
      g_assert_cmpstr (job->last_failure->type_name, ==, "PayloadError");
      g_assert_false (job->last_failure->retryable);
      g_assert_nonnull (strstr (job->last_failure->message, job->id));
    }
  g_assert_cmpuint (count_outcomes (f, SLUICE_STORE_OUTCOME_RETRY), ==, 0);
}

/* {"value": …} with @depth arrays around 1: @depth + 1 levels. */
static char *
payload_nested (guint depth)
{
  GString *text = g_string_new ("{\"value\": ");

  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, '[');
  g_string_append_c (text, '1');
  for (guint i = 0; i < depth; i++)
    g_string_append_c (text, ']');
  g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

/* Sets the payload of @key as another program writing to the database
 * could, past the store's own checks. */
static void
write_payload_behind_the_store (Fixture    *f,
                                const char *key,
                                const char *payload)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_open_v2 (f->path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  sqlite3_busy_timeout (db, 10000);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "UPDATE sluice_jobs SET payload = ?1 WHERE operation_key = ?2",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (stmt, 1, payload, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 2, key, -1, SQLITE_STATIC);
  g_assert_cmpint (sqlite3_step (stmt), ==, SQLITE_DONE);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

/* A payload nested 200,000 deep overflowed json-glib's recursion and
 * killed the worker, and every worker that claimed the job after it: the
 * job goes dead with an error that says why, and the next job runs. */
static void
test_too_deep_payload_is_dead (Fixture       *f,
                               gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autofree char *deep = payload_nested (200000);
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceStoredJob) after = NULL;
  const Record *failed;

  o.workers = 1;
  fixture_build (f, &o);
  enqueue (f, "poison", "ok", 1, 3);
  enqueue (f, "after", "ok 0.1", 2, 3);
  write_payload_behind_the_store (f, "poison", deep);
  run_pool (f);
  g_assert_error (f->run_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);

  failed = find_record (f, "poison", 1, TRUE);
  g_test_message ("%s: %s", failed->error_type, failed->error_message);
  g_assert_cmpint (failed->outcome, ==, SLUICE_STORE_OUTCOME_DEAD);
  g_assert_cmpstr (failed->error_type, ==, SLUICE_PAYLOAD_ERROR);
  g_assert_nonnull (strstr (failed->error_message, "The payload of job "));
  g_assert_nonnull (strstr (failed->error_message, "the JSON text nests arrays and objects deeper than 64 "
                                                   "levels (at byte 74)"));

  job = peek (f, "poison");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpuint (job->attempts, ==, 1);
  g_assert_cmpstr (job->last_failure->type_name, ==, SLUICE_PAYLOAD_ERROR);
  g_assert_false (job->last_failure->retryable);

  after = peek (f, "after");
  g_assert_cmpint (after->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
}

/* The store refuses such a payload when it is enqueued, as any payload
 * that is not JSON it can read. */
static void
test_enqueue_refuses_a_too_deep_payload (Fixture       *f,
                                         gconstpointer  data)
{
  g_autofree char *deep = payload_nested (200000);
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;

  job = store_fixture_enqueue (f->store, TENANT, "poison", deep, 3, T0, &created, &error);
  g_assert_null (job);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "deeper than 64 levels (at byte 74)"));
  g_assert_false (created);
}

/* 64 levels, the limit: the payload's value comes back as the result. */
static void
test_payload_at_the_depth_limit_runs (Fixture       *f,
                                      gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autofree char *payload = payload_nested (SLUICE_JSON_MAX_DEPTH - 1);
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) value = NULL;
  g_autofree char *result_text = NULL, *value_text = NULL;
  gboolean created = FALSE;

  fixture_build (f, &o);
  job = store_fixture_enqueue (f->store, TENANT, "deep", payload, 3, now_in_store (f), &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_clear_pointer (&job, sluice_stored_job_free);
  run_pool (f);
  g_assert_no_error (f->run_error);

  job = peek (f, "deep");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  result = json_from_string (job->result, &error);
  g_assert_no_error (error);
  value = json_from_string (payload, &error);
  g_assert_no_error (error);
  result_text = json_to_string (json_object_get_member (json_node_get_object (result), "result"), FALSE);
  value_text = json_to_string (json_object_get_member (json_node_get_object (value), "value"), FALSE);
  g_assert_cmpstr (result_text, ==, value_text);
}

static void
test_out_of_attempts_is_dead (Fixture       *f,
                              gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;

  o.backoff_base = 0.2;
  fixture_build (f, &o);
  enqueue (f, "down", "fail-always ConnectionError 0.1", 1, 2);
  run_pool (f);
  g_assert_error (f->run_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);

  g_assert_cmpint (find_record (f, "down", 1, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_RETRY);
  g_assert_cmpint (find_record (f, "down", 2, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_DEAD);

  job = peek (f, "down");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpuint (job->attempts, ==, 2);
  g_assert_cmpstr (job->last_failure->type_name, ==, "ConnectionError");
  /* Recorded as it is: not to be retried any more. */
  g_assert_false (job->last_failure->retryable);
}

static void
test_attempt_timeout_is_a_retryable_timeout_error (Fixture       *f,
                                                   gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  const Record *first;

  o.item_timeout = 0.5;
  o.backoff_base = 0.1;
  fixture_build (f, &o);
  enqueue (f, "slow", "ok 2", 1, 2);
  run_pool (f);
  g_assert_error (f->run_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);

  /* The attempt's own deadline is a failure (retried), not a shutdown. */
  first = find_record (f, "slow", 1, TRUE);
  g_assert_cmpint (first->outcome, ==, SLUICE_STORE_OUTCOME_RETRY);
  g_assert_cmpstr (first->error_type, ==, "TimeoutError");
  g_assert_cmpint (first->at, ==, S (0.5));
  g_assert_cmpint (find_record (f, "slow", 2, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_DEAD);

  job = peek (f, "slow");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpstr (job->last_failure->type_name, ==, "TimeoutError");
  g_assert_cmpstr (job->last_failure->code, ==, "ATTEMPT_TIMEOUT");
}

/* ---- leases ------------------------------------------------------------- */

static void
test_heartbeats_keep_a_long_job (Fixture       *f,
                                 gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;

  /* Three leases long; the source releases expired leases every half
   * lease, so a lapse would be reclaimed as attempt 2. */
  o.lease = 1;
  o.heartbeat = 1.0 / 3;
  fixture_build (f, &o);
  enqueue (f, "long", "ok 3", 1, 3);
  run_pool (f);
  g_assert_no_error (f->run_error);

  g_assert_cmpint (find_record (f, "long", 1, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
  g_assert_cmpuint (count_outcomes (f, SLUICE_STORE_OUTCOME_LEASE_LOST), ==, 0);
  job = peek (f, "long");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (job->attempts, ==, 1);
  g_assert_cmpint (job->updated_at, ==, T0 + S (3));
}

static void
test_without_heartbeats_a_slow_job_loses_its_lease (Fixture       *f,
                                                    gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  const Record *first;

  /* One worker: a job claimed again waits in the queue while its older
   * claim still runs. */
  o.workers = 1;
  o.lease = 1;
  o.heartbeat = 0.3;
  o.no_heartbeat = TRUE;
  fixture_build (f, &o);
  enqueue (f, "slow", "ok 2", 1, 3);
  run_pool (f);

  /* The lease ran out at 1 s and was released and claimed again: the
   * first attempt's completion at 2 s is refused (fencing). */
  first = find_record (f, "slow", 1, TRUE);
  g_assert_cmpint (first->outcome, ==, SLUICE_STORE_OUTCOME_LEASE_LOST);
  g_assert_cmpstr (first->error_type, ==, SLUICE_LEASE_LOST_ERROR);
  g_assert_nonnull (strstr (first->error_message, "refused its completion"));
  g_assert_cmpint (first->at, ==, S (2));
  g_assert_cmpuint (count_outcomes (f, SLUICE_STORE_OUTCOME_SUCCEEDED), ==, 0);

  /* Each claim was its own attempt, though they overlapped: every one
   * started and ended with the store's verdict. */
  for (guint attempt = 1; attempt <= 3; attempt++)
    {
      g_assert_nonnull (find_record (f, "slow", attempt, FALSE));
      g_assert_cmpint (find_record (f, "slow", attempt, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_LEASE_LOST);
    }
  g_assert_cmpuint (f->records->len, ==, 6);

  /* Every attempt is slower than its lease: the job ends dead, by the
   * release of its last expired lease, and no completion ever landed. */
  job = peek (f, "slow");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
  g_assert_cmpuint (job->attempts, ==, 3);
  g_assert_cmpstr (job->last_failure->type_name, ==, "LeaseExpired");
  g_assert_null (job->result);
}

/* ---- pipelined completions (docs/job-store.md, "The completion path") -- */

/* The rule: with pipelined completions, a worker takes its next job while
 * the store commits the last one's completion. One worker, three quick
 * jobs, and the store holds every completion back until three are there:
 * a worker that waited for each commit would never send the second. Each
 * claim stays the source's until its completion is answered, and every
 * job ends succeeded, told to the caller once the store answered. */
static void
test_pipelined_completion_frees_the_worker_before_the_commit (Fixture       *f,
                                                              gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(GError) error = NULL;
  const char *keys[] = { "a", "b", "c" };
  gint64 last_start = -1;

  o.workers = 1;
  o.queue_size = 2;
  o.pipelined = TRUE;
  use_flaky_store (f);
  fixture_build (f, &o);
  sluice_store_source_set_claim_ahead (f->source, 2 + 1 + 1);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    enqueue (f, keys[i], "ok", i, 3);
  flaky_store_hold_completions (f->flaky, G_N_ELEMENTS (keys));

  run_pool (f);
  g_assert_no_error (f->run_error);

  g_assert_cmpuint (flaky_store_get_most_held (f->flaky), ==, G_N_ELEMENTS (keys));
  g_assert_cmpuint (f->n_items_ok, ==, G_N_ELEMENTS (keys));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    last_start = MAX (last_start, find_record (f, keys[i], 1, FALSE)->at);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const Record *finished = find_record (f, keys[i], 1, TRUE);
      g_autoptr(SluiceStoredJob) job = peek (f, keys[i]);

      g_assert_cmpint (finished->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
      /* Told once answered: after the last job started. */
      g_assert_cmpint (finished->at, >=, last_start);
      g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
      g_assert_cmpint (job->updated_at, ==, T0);
    }
  /* The claims of the completions in flight were still held when the
   * last job started, and never more than the lead bound. */
  g_assert_cmpuint (find_record (f, "c", 1, FALSE)->n_claims, ==, G_N_ELEMENTS (keys));
  g_assert_cmpuint (f->most_claims, <=, 2 + 1 + 1);
  status = store_fixture_status (f->store, TENANT, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, G_N_ELEMENTS (keys));
}

/* The rule: a completion the store refuses is still a LeaseLostError,
 * never a success, for the store and for the worker's caller, when the
 * completions are pipelined: it is told late (job-finished), after the
 * pool counted the attempt's result. */
static void
test_pipelined_refused_completion_is_told_late_as_lease_lost (Fixture       *f,
                                                              gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  const Record *first;

  o.workers = 1;
  o.lease = 1;
  o.heartbeat = 0.3;
  o.no_heartbeat = TRUE;
  o.pipelined = TRUE;
  fixture_build (f, &o);
  enqueue (f, "slow", "ok 2", 1, 3);
  run_pool (f);

  first = find_record (f, "slow", 1, TRUE);
  g_assert_cmpint (first->outcome, ==, SLUICE_STORE_OUTCOME_LEASE_LOST);
  g_assert_cmpstr (first->error_type, ==, SLUICE_LEASE_LOST_ERROR);
  g_assert_nonnull (strstr (first->error_message, "refused its completion"));
  g_assert_cmpuint (count_outcomes (f, SLUICE_STORE_OUTCOME_SUCCEEDED), ==, 0);
  /* The pool had each attempt's result before the store refused it. */
  g_assert_cmpuint (f->n_items_ok, ==, 3);

  job = peek (f, "slow");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
  g_assert_null (job->result);
}

/* The other worker of the lease-lost cases: a second connection to the
 * file, which puts the job back (as if its lease had expired) and claims
 * it, then completes it later. */
typedef struct {
  Fixture        *f;
  SluiceJobStore *store;
  SluiceJobClaim *claim;
} Rival;

static Rival rival;

static void
rival_takes_the_job (gpointer user_data)
{
  g_autoptr(GError) error = NULL;
  gint64 now = now_in_store (rival.f);

  /* Released as if 100 s had passed: available then, to the rival only. */
  g_assert_cmpint (store_fixture_release (rival.store, TENANT, now + S (100), 10, &error), ==, 1);
  g_assert_no_error (error);
  rival.claim = store_fixture_claim (rival.store, TENANT, "rival", S (30), now + S (100), &error);
  g_assert_no_error (error);
  g_assert_nonnull (rival.claim);
}

static void
rival_completes (gpointer user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (store_fixture_complete (rival.store, rival.claim, "{\"by\": \"rival\"}",
                                         now_in_store (rival.f), &error));
  g_assert_no_error (error);
}

static void
lease_lost_case (Fixture    *f,
                 const char *behaviour,
                 gint64      lost_at)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  const Record *first;

  o.lease = 1;
  o.heartbeat = 1.0 / 3;
  fixture_build (f, &o);
  enqueue (f, "contested", behaviour, 1, 3);

  rival.f = f;
  rival.store = sluice_job_store_new_for_uri (f->uri, &error);
  g_assert_no_error (error);
  at (f, 0.5, rival_takes_the_job);
  at (f, 2.5, rival_completes);
  run_pool (f);

  /* The renew at 2/3 s is refused: the attempt is cancelled, and ends,
   * with LeaseLostError, only once the handler has ended. */
  first = find_record (f, "contested", 1, TRUE);
  g_assert_cmpint (first->outcome, ==, SLUICE_STORE_OUTCOME_LEASE_LOST);
  g_assert_cmpstr (first->error_type, ==, SLUICE_LEASE_LOST_ERROR);
  g_assert_nonnull (strstr (first->error_message, "renew"));
  g_assert_cmpint (first->at, ==, lost_at);

  /* Nothing of it was written: the rival's completion is the job's. */
  job = peek (f, "contested");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (job->attempts, ==, 2);
  g_assert_cmpstr (job->result, ==, "{\"by\": \"rival\"}");
  g_assert_null (job->last_failure);

  g_clear_pointer (&rival.claim, sluice_job_claim_free);
  g_clear_object (&rival.store);
}

static void
test_lost_lease_cancels_the_attempt (Fixture       *f,
                                     gconstpointer  data)
{
  /* `hang` honours the cancel at once: the attempt ends at the renew. */
  lease_lost_case (f, "hang", 2 * S (1.0 / 3));
}

static void
test_lost_lease_awaits_the_cancelled_attempt (Fixture       *f,
                                              gconstpointer  data)
{
  /* `late 2` ignores the cancel: the attempt is awaited to its end at 2 s
   * (finding 02), and fails then. */
  lease_lost_case (f, "late 2", S (2));
}

/* ---- shutdown ----------------------------------------------------------- */

static void
request_stop (gpointer user_data)
{
  Fixture *f = user_data;

  sluice_pool_request_stop (f->pool);
}

static void
test_shutdown_cancel_writes_no_failure (Fixture       *f,
                                        gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceStoredJob) again = NULL;
  g_autoptr(GError) error = NULL;
  const Record *first;

  o.workers = 1;
  o.queue_size = 1;
  o.lease = 5;
  o.heartbeat = 1;
  o.shutdown_timeout = 0.5;
  o.until_empty = FALSE;
  fixture_build (f, &o);
  enqueue (f, "stuck", "hang", 1, 3);
  at (f, 1, request_stop);
  run_pool (f);

  /* The shutdown deadline (1.5 s) cancelled it: not a failure. */
  first = find_record (f, "stuck", 1, TRUE);
  g_assert_cmpint (first->outcome, ==, SLUICE_STORE_OUTCOME_ABANDONED);
  g_assert_cmpint (first->at, ==, S (1.5));

  /* Finding 03: nothing written; the lease (renewed at 1 s) expires at
   * 6 s, and then the job is back for any worker. */
  job = peek (f, "stuck");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_null (job->last_failure);
  g_assert_cmpint (job->lease_expires_at, ==, T0 + S (1) + S (5));
  g_assert_cmpint (store_fixture_release (f->store, TENANT, T0 + S (6), 10, &error), ==, 1);
  g_assert_no_error (error);
  again = peek (f, "stuck");
  g_assert_cmpint (again->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_null (again->last_failure);
}

/* ---- claims a stop kept from running ------------------------------------ */

static void enqueue_late (gpointer user_data);

/* The job as the store has it, read on a context of the test's own: on
 * the pool's, the virtual clock could jump to its next timer while the
 * store's thread answers (see enqueue_late()). */
static SluiceStoredJob *
peek_aside (Fixture    *f,
            const char *key)
{
  g_autoptr(GMainContext) own = g_main_context_new ();
  SluiceStoredJob *job;

  g_main_context_push_thread_default (own);
  job = peek (f, key);
  g_main_context_pop_thread_default (own);
  return job;
}

static Fixture *held_fixture;
static SluiceStoredJob *held_seen;

static void
peek_held_job (gpointer user_data)
{
  held_seen = peek_aside (held_fixture, "job-3");
}

static void
test_stop_hands_back_the_claims_it_never_ran (Fixture       *f,
                                              gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) running = NULL;
  const Record *first;

  /* One worker, a queue of 2: job-0 runs, job-1 and job-2 wait in the
   * queue, and the producer holds job-3, waiting for room. */
  o.workers = 1;
  o.queue_size = 2;
  o.lease = 5;
  o.heartbeat = 1;
  o.shutdown_timeout = 0.5;
  o.until_empty = FALSE;
  fixture_build (f, &o);
  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *key = g_strdup_printf ("job-%u", i);
      enqueue (f, key, "hang", i, 3);
    }
  held_fixture = f;
  at (f, 1, request_stop);
  at (f, 1.2, peek_held_job);
  run_pool (f);

  /* The held claim went back at the stop, not at the end of the drain:
   * another worker could claim it at once. */
  g_assert_nonnull (held_seen);
  g_assert_cmpint (held_seen->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpuint (held_seen->attempts, ==, 0);
  g_assert_null (held_seen->lease_token);
  g_clear_pointer (&held_seen, sluice_stored_job_free);

  /* At the deadline (1.5 s) the running attempt is cancelled and left to
   * its lease (finding 03); the queued claims never ran: handed back. */
  first = find_record (f, "job-0", 1, TRUE);
  g_assert_cmpint (first->outcome, ==, SLUICE_STORE_OUTCOME_ABANDONED);
  g_assert_cmpuint (f->records->len, ==, 2);
  g_assert_cmpuint (sluice_store_source_get_n_claimed (f->source), ==, 4);
  g_assert_cmpuint (sluice_store_source_get_n_released (f->source), ==, 3);
  g_assert_cmpuint (sluice_store_source_get_n_release_failed (f->source), ==, 0);

  running = peek (f, "job-0");
  g_assert_cmpint (running->state, ==, SLUICE_STORED_JOB_RUNNING);
  for (guint i = 1; i < 6; i++)
    {
      g_autofree char *key = g_strdup_printf ("job-%u", i);
      g_autoptr(SluiceStoredJob) job = peek (f, key);

      g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_PENDING);
      g_assert_cmpuint (job->attempts, ==, 0);
      g_assert_null (job->lease_owner);
    }
}

static void
stop_on_second_claim (const SluiceJobClaim *claim,
                      gpointer              user_data)
{
  Fixture *f = user_data;

  if (claim != NULL && sluice_store_source_get_n_claimed (f->source) == 1)
    sluice_pool_request_stop (f->pool);
}

static void
test_a_claim_back_for_a_cancelled_read_is_handed_back (Fixture       *f,
                                                       gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) done = NULL;
  g_autoptr(SluiceStoredJob) back = NULL;

  /* The stop comes while the second claim is on its way back: the read it
   * answers has been cancelled, so nothing will run it. */
  use_flaky_store (f);
  o.workers = 1;
  o.queue_size = 1;
  o.until_empty = FALSE;
  fixture_build (f, &o);
  enqueue (f, "first", "ok 0.5", 1, 3);
  enqueue (f, "second", "ok 0.5", 2, 3);
  flaky_store_set_claim_hook (f->flaky, stop_on_second_claim, f);
  run_pool (f);
  g_assert_no_error (f->run_error);

  g_assert_cmpuint (sluice_store_source_get_n_claimed (f->source), ==, 2);
  g_assert_cmpuint (sluice_store_source_get_n_released (f->source), ==, 1);
  g_assert_cmpint (find_record (f, "first", 1, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
  g_assert_cmpuint (f->records->len, ==, 2);

  done = peek (f, "first");
  g_assert_cmpint (done->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  back = peek (f, "second");
  g_assert_cmpint (back->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpuint (back->attempts, ==, 0);
  g_assert_null (back->lease_token);
}

/* ---- a failing store ------------------------------------------------------ */

static void
assert_times (GArray        *times,
              const double  *expected,
              guint          n)
{
  for (guint i = 0; i < MIN (times->len, n); i++)
    if (g_array_index (times, gint64, i) != S (expected[i]))
      g_error ("call %u at %" G_GINT64_FORMAT " µs, expected %g s", i, g_array_index (times, gint64, i),
               expected[i]);
  g_assert_cmpuint (times->len, ==, n);
}

static void
store_comes_back (gpointer user_data)
{
  Fixture *f = user_data;

  flaky_store_set_failing (f->flaky, FALSE);
}

static void
test_store_errors_back_off_up_to_a_cap (Fixture       *f,
                                        gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  /* The poll interval (0.1 s), doubled after each failure in a row, at
   * most 10 s; the jobs-available of the enqueue at 5 s does not cut the
   * wait short. */
  const double failed[] = { 0, 0.1, 0.3, 0.7, 1.5, 3.1, 6.3, 12.7 };
  const Record *started;
  GArray *answered;

  use_flaky_store (f);
  o.until_empty = FALSE;
  fixture_build (f, &o);
  flaky_store_set_failing (f->flaky, TRUE);
  at (f, 5, enqueue_late);
  at (f, 20, store_comes_back);
  at (f, 30, request_stop);
  run_pool (f);
  g_assert_no_error (f->run_error);

  assert_times (flaky_store_get_failed (f->flaky), failed, G_N_ELEMENTS (failed));
  g_assert_cmpuint (f->n_store_errors, ==, G_N_ELEMENTS (failed));

  /* The store answered at the next try, 10 s after the last failure; the
   * back-off ended with it: the claim after it (at once, for the next
   * item) found nothing, and the next poll is 0.1 s later again. */
  answered = flaky_store_get_answered (f->flaky);
  g_assert_cmpuint (answered->len, >=, 3);
  g_assert_cmpint (g_array_index (answered, gint64, 0), ==, S (22.7));
  g_assert_cmpint (g_array_index (answered, gint64, 1), ==, S (22.7));
  g_assert_cmpint (g_array_index (answered, gint64, 2), ==, S (22.8));
  started = find_record (f, "late", 1, FALSE);
  g_assert_cmpint (started->at, ==, S (22.7));
  g_assert_cmpint (find_record (f, "late", 1, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
}

static void
test_until_empty_gives_up_on_a_failing_store (Fixture       *f,
                                              gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  /* Backed off as always, but the last try comes at the timeout (5 s),
   * and fails: the source gives up. */
  const double failed[] = { 0, 0.1, 0.3, 0.7, 1.5, 3.1, 5 };
  g_autoptr(SluiceStoredJob) job = NULL;

  use_flaky_store (f);
  o.store_error_timeout = 5;
  fixture_build (f, &o);
  enqueue (f, "waiting", "ok 0.1", 1, 3);
  flaky_store_set_failing (f->flaky, TRUE);
  run_pool (f);

  assert_times (flaky_store_get_failed (f->flaky), failed, G_N_ELEMENTS (failed));
  g_assert_nonnull (f->run_error);
  g_test_message ("%s", f->run_error->message);
  g_assert_nonnull (strstr (f->run_error->message, "kept failing for 5 s"));
  g_assert_nonnull (strstr (f->run_error->message, "database or disk is full"));
  g_assert_cmpint (sluice_clock_now (f->clock), ==, S (5));

  /* Nothing was claimed: the job is the next worker's. */
  g_assert_cmpuint (sluice_store_source_get_n_claimed (f->source), ==, 0);
  job = peek (f, "waiting");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_PENDING);
}

/* ---- waking, restarting, validation ------------------------------------- */

static void
enqueue_late (gpointer user_data)
{
  Fixture *f = user_data;
  g_autoptr(GMainContext) own = g_main_context_new ();

  /* The enqueue's answer comes on a context of its own: iterating the
   * pool's while the store's thread answers would let its virtual clock,
   * with nothing else ready, jump to the next timer (the stop at 2 s)
   * before the job is there. The store's "jobs-available" still comes on
   * the pool's context, where the source takes it. */
  g_main_context_push_thread_default (own);
  enqueue (f, "late", "ok 0.1", 1, 3);
  g_main_context_pop_thread_default (own);
}

static void
test_jobs_available_wakes_a_waiting_read (Fixture       *f,
                                          gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;

  o.poll_interval = 10;
  o.until_empty = FALSE;
  fixture_build (f, &o);
  at (f, 1, enqueue_late);
  at (f, 2, request_stop);
  run_pool (f);

  /* Claimed when it came, not at the next poll (10 s). */
  g_assert_cmpint (find_record (f, "late", 1, FALSE)->at, ==, S (1));
  g_assert_cmpint (find_record (f, "late", 1, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
}

static void
test_start_releases_expired_leases (Fixture       *f,
                                    gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceJobClaim) ghost = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;

  /* A worker that died holding a claim whose lease ran out before we
   * started: the first release, before the first claim, gives it back. */
  enqueue (f, "orphan", "ok 0.1", 1, 3);
  ghost = store_fixture_claim (f->store, TENANT, "ghost", S (1), T0, &error);
  g_assert_no_error (error);
  g_assert_nonnull (ghost);

  /* We start 10 s later, by the wall clock. */
  fixture_build (f, &o);
  sluice_store_source_set_epoch (f->source, T0 + S (10));
  run_pool (f);
  g_assert_no_error (f->run_error);

  g_assert_cmpint (find_record (f, "orphan", 2, FALSE)->at, ==, 0);
  job = peek (f, "orphan");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (job->attempts, ==, 2);
}

static void
test_heartbeat_must_be_below_half_the_lease (Fixture       *f,
                                             gconstpointer  data)
{
  g_autoptr(SluiceStoreSource) source = NULL;
  g_autoptr(SluicePayloadHandler) payload = sluice_payload_handler_new (f->clock);
  g_autoptr(SluiceStoreHandler) refused = NULL;
  g_autoptr(SluiceStoreHandler) accepted = NULL;
  g_autoptr(GError) error = NULL;

  source = sluice_store_source_new (f->store, f->clock, TENANT, OWNER, 1, 0.1, &error);
  g_assert_no_error (error);

  /* The seed's WorkerPolicy.validate: heartbeat < lease / 2. */
  refused = sluice_store_handler_new (source, SLUICE_HANDLER (payload), 0.5, &error);
  g_assert_null (refused);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "heartbeat"));
  g_assert_nonnull (strstr (error->message, "lease"));
  g_clear_error (&error);

  accepted = sluice_store_handler_new (source, SLUICE_HANDLER (payload), 0.49, &error);
  g_assert_no_error (error);
  g_assert_nonnull (accepted);

  g_clear_object (&source);
  source = sluice_store_source_new (f->store, f->clock, TENANT, OWNER, 0, 0.1, &error);
  g_assert_null (source);
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "lease"));
}

/* ---- the worker's row ---------------------------------------------------- */

typedef struct {
  GAsyncResult *result;
} Wait;

static void
on_waited (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ((Wait *) user_data)->result = g_object_ref (result);
}

/* Any program that works off a store through the source is one of its
 * workers (docs/store-admin.md, "Workers"), not only `sluice-run worker`:
 * this process's pool registers a row at its first read, with its owner,
 * host, pid, tenant and lease, and its close writes the jobs done and
 * failed. */
static void
test_source_registers_its_worker_row (Fixture       *f,
                                      gconstpointer  data)
{
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKERS);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  SluiceStoreWorker *worker;
  Wait wait = { NULL };

  fixture_build (f, &o);
  enqueue (f, "good-0", "ok 0.1", 0, 3);
  enqueue (f, "good-1", "ok 0.1", 1, 3);
  enqueue (f, "bad", "fail-always ValueError 0.1", 2, 1);
  run_pool (f);

  /* Admin queries run in the order they were made: the close's last beat
   * first. */
  sluice_store_admin_async (f->store, query, NULL, on_waited, &wait);
  while (wait.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  reply = sluice_store_admin_finish (f->store, wait.result, &error);
  g_object_unref (wait.result);
  g_assert_no_error (error);
  g_assert_cmpuint (reply->workers->len, ==, 1);
  worker = g_ptr_array_index (reply->workers, 0);
  g_assert_cmpstr (worker->id, ==, OWNER);
  g_assert_cmpstr (worker->host, ==, g_get_host_name ());
  g_assert_cmpint (worker->pid, ==, getpid ());
  g_assert_cmpstr (worker->tenants, ==, TENANT);
  g_assert_cmpint (worker->lease, ==, S (o.lease));
  g_assert_cmpuint (worker->done, ==, 2);
  g_assert_cmpuint (worker->failed, ==, 1);
  g_assert_false (worker->lost);
}

/* ---- scheduled jobs -------------------------------------------------------- */

/* A job scheduled for later is work to do: a source that runs until the
 * tenant is empty waits for it and runs it at its time, not before. (The
 * store's times are mapped far ahead of the wall clock, so that the
 * store's counts, which take the wall clock's now, see it scheduled.) */
static void
test_until_empty_waits_for_a_scheduled_job (Fixture       *f,
                                            gconstpointer  data)
{
  const gint64 far = G_GINT64_CONSTANT (4102444800000000);  /* 2100-01-01 */
  Options o = DEFAULT_OPTIONS;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  const Record *started;
  Wait wait = { NULL };

  fixture_build (f, &o);
  sluice_store_source_set_epoch (f->source, far);
  sluice_store_enqueue_at_async (f->store, TENANT, "later", "{\"behaviour\": \"ok 0.1\", \"value\": 1}", 3,
                                 far, far + S (5), NULL, on_waited, &wait);
  while (wait.result == NULL)
    g_main_context_iteration (NULL, TRUE);
  job = sluice_job_store_enqueue_finish (f->store, wait.result, NULL, &error);
  g_object_unref (wait.result);
  g_assert_no_error (error);
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SCHEDULED);

  run_pool (f);
  g_assert_no_error (f->run_error);
  started = find_record (f, "later", 1, FALSE);
  g_assert_cmpint (started->at, >=, S (5));
  g_assert_cmpint (find_record (f, "later", 1, TRUE)->outcome, ==, SLUICE_STORE_OUTCOME_SUCCEEDED);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/store/source/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("claims-never-exceed-the-lead-bound", test_claims_never_exceed_the_lead_bound);
  ADD ("source-registers-its-worker-row", test_source_registers_its_worker_row);
  ADD ("until-empty-waits-for-a-scheduled-job", test_until_empty_waits_for_a_scheduled_job);
  ADD ("claims-taken-ahead-stay-within-the-lead-bound", test_claims_taken_ahead_stay_within_the_lead_bound);
  ADD ("success-completes-the-job", test_success_completes_the_job);
  ADD ("pipelined-completion-frees-the-worker-before-the-commit",
       test_pipelined_completion_frees_the_worker_before_the_commit);
  ADD ("pipelined-refused-completion-is-told-late-as-lease-lost",
       test_pipelined_refused_completion_is_told_late_as_lease_lost);
  ADD ("retryable-failure-waits-for-its-backoff", test_retryable_failure_waits_for_its_backoff);
  ADD ("not-retryable-failure-is-dead", test_not_retryable_failure_is_dead);
  ADD ("out-of-attempts-is-dead", test_out_of_attempts_is_dead);
  ADD ("payload-without-value-succeeds-unusable-one-is-dead", test_payload_without_value_or_unusable);
  ADD ("too-deep-payload-is-dead", test_too_deep_payload_is_dead);
  ADD ("enqueue-refuses-a-too-deep-payload", test_enqueue_refuses_a_too_deep_payload);
  ADD ("payload-at-the-depth-limit-runs", test_payload_at_the_depth_limit_runs);
  ADD ("attempt-timeout-is-a-retryable-timeout-error", test_attempt_timeout_is_a_retryable_timeout_error);
  ADD ("heartbeats-keep-a-long-job", test_heartbeats_keep_a_long_job);
  ADD ("without-heartbeats-a-slow-job-loses-its-lease", test_without_heartbeats_a_slow_job_loses_its_lease);
  ADD ("lost-lease-cancels-the-attempt", test_lost_lease_cancels_the_attempt);
  ADD ("lost-lease-awaits-the-cancelled-attempt", test_lost_lease_awaits_the_cancelled_attempt);
  ADD ("shutdown-cancel-writes-no-failure", test_shutdown_cancel_writes_no_failure);
  ADD ("stop-hands-back-the-claims-it-never-ran", test_stop_hands_back_the_claims_it_never_ran);
  ADD ("a-claim-back-for-a-cancelled-read-is-handed-back", test_a_claim_back_for_a_cancelled_read_is_handed_back);
  ADD ("store-errors-back-off-up-to-a-cap", test_store_errors_back_off_up_to_a_cap);
  ADD ("until-empty-gives-up-on-a-failing-store", test_until_empty_gives_up_on_a_failing_store);
  ADD ("jobs-available-wakes-a-waiting-read", test_jobs_available_wakes_a_waiting_read);
  ADD ("start-releases-expired-leases", test_start_releases_expired_leases);
  ADD ("heartbeat-must-be-below-half-the-lease", test_heartbeat_must_be_below_half_the_lease);

  return g_test_run ();
}
