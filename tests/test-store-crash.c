/* test-store-crash.c: worker processes on one job store, one of them
 * killed with SIGKILL (docs/job-store.md, "What must be proven")
 *
 * Real `sluice-run worker` processes on a real SQLite file, and on the
 * PostgreSQL server of SLUICE_TEST_PG_URI when it is set (skipped without
 * it, unless CI=true or SLUICE_REQUIRE_PG=1). One case starts a PostgreSQL
 * server of its own, with its durability defaults, and kills the server
 * itself. The test waits for the lines
 * the workers print (ready, each job's outcome with --verbose) and for
 * their exits, never for a sleep; a watchdog fails a case that hangs.
 *
 * Afterwards it reads every job back and checks that each one is
 * succeeded or dead exactly once, that the counts add up to what was
 * enqueued, and that no job was completed by a fenced-out claim: the
 * result of a succeeded job names the claim that completed it (worker,
 * token, attempt), and that attempt must be the job's last claim, since any
 * later claim would have replaced the token the store fences with.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sluice-job-store.h"
#include "cli-fixture.h"
#include "store-fixture.h"
#include "test-helpers.h"

#define WATCHDOG_SECONDS 120

/* A short lease, so that the survivor reclaims the dead one's jobs soon. */
#define LEASE "1"
#define HEARTBEAT "0.3"

/* ---- one worker process ------------------------------------------------- */

/* What a worker's --verbose lines said of one job. */
typedef struct {
  guint started;            /* attempts started */
  guint succeeded;          /* attempts whose completion the store took */
  guint succeeded_attempt;  /* the attempt that succeeded, or 0 */
  guint not_succeeded;      /* attempts that ended otherwise */
} JobLog;

typedef struct {
  StoreProcess      proc;
  char             *name;
  gboolean          ready;
  gboolean          stopping;    /* it said so after the first signal */
  char             *failure;     /* its "sluice-run worker: …" line */
  guint             started;     /* "… started (ID)" lines */
  guint             succeeded;   /* "… succeeded" lines */
  guint             retries;     /* "… failed, retry in …" lines */
  guint             dead;        /* "… dead: …" lines */
  GHashTable       *jobs;        /* operation key → JobLog */
} Worker;

static void
worker_free (Worker *w)
{
  store_process_clear (&w->proc);
  g_clear_pointer (&w->jobs, g_hash_table_unref);
  g_free (w->failure);
  g_free (w->name);
  g_free (w);
}

/* "sluice-run: job KEY attempt N WHAT": into the job's log. */
static void
log_job_line (Worker     *w,
              const char *line)
{
  g_auto(GStrv) words = g_strsplit (line, " ", 6);
  JobLog *log;
  guint attempt;

  if (g_strv_length (words) < 6 || !g_str_equal (words[1], "job") || !g_str_equal (words[3], "attempt"))
    return;
  attempt = (guint) g_ascii_strtoull (words[4], NULL, 10);
  log = g_hash_table_lookup (w->jobs, words[2]);
  if (log == NULL)
    {
      log = g_new0 (JobLog, 1);
      g_hash_table_insert (w->jobs, g_strdup (words[2]), log);
    }
  if (g_str_has_prefix (words[5], "started ("))
    log->started++;
  else if (g_str_equal (words[5], "succeeded"))
    {
      log->succeeded++;
      log->succeeded_attempt = attempt;
    }
  else
    log->not_succeeded++;
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Worker, worker_free)

/* A worker's line: what it says of its jobs is counted. */
static void
on_worker_line (const char *line,
                gpointer    data)
{
  Worker *w = data;

  if (g_str_has_prefix (line, "sluice-run: job "))
    log_job_line (w, line);

  if (strstr (line, " ready") != NULL)
    {
      g_test_message ("%s: %s", w->name, line);
      w->ready = TRUE;
    }
  else if (g_str_has_prefix (line, "sluice-run: stopping"))
    {
      g_test_message ("%s: %s", w->name, line);
      w->stopping = TRUE;
    }
  else if (g_str_has_prefix (line, "sluice-run worker: "))
    {
      g_test_message ("%s: %s", w->name, line);
      g_free (w->failure);
      w->failure = g_strdup (line);
    }
  else if (g_str_has_suffix (line, " succeeded"))
    w->succeeded++;
  else if (strstr (line, " failed, retry in ") != NULL)
    w->retries++;
  else if (strstr (line, " started (") != NULL)
    w->started++;
  else if (strstr (line, " dead: ") != NULL)
    w->dead++;
  else
    g_test_message ("%s: %s", w->name, line);
}

/* `sluice-run worker` on @uri, with @args (to NULL), started by
 * @launcher (or a plain one). */
static Worker *
worker_startv (const char          *uri,
               const char          *tenant,
               const char          *name,
               GSubprocessLauncher *launcher,
               va_list              args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  Worker *w = g_new0 (Worker, 1);
  const char *arg;

  w->name = g_strdup (name);
  w->jobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_ptr_array_add (argv, (gpointer) sluice_run_path ());
  g_ptr_array_add (argv, "worker");
  g_ptr_array_add (argv, "--store");
  g_ptr_array_add (argv, (gpointer) uri);
  g_ptr_array_add (argv, "--tenant");
  g_ptr_array_add (argv, (gpointer) tenant);
  g_ptr_array_add (argv, "--worker-id");
  g_ptr_array_add (argv, (gpointer) name);
  g_ptr_array_add (argv, "--verbose");
  g_ptr_array_add (argv, "--json");
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  g_ptr_array_add (argv, NULL);

  store_process_start (&w->proc, launcher, (const char * const *) argv->pdata, on_worker_line, w);
  return w;
}

/* `sluice-run worker` on @uri, with the arguments that follow (to NULL). */
static Worker *
worker_start (const char *uri,
              const char *tenant,
              const char *name,
              ...)
{
  Worker *w;
  va_list args;

  va_start (args, name);
  w = worker_startv (uri, tenant, name, NULL, args);
  va_end (args);
  return w;
}

static void
wait_for_count (const guint *count,
                guint        at_least,
                const char  *what)
{
  SLUICE_TEST_SPIN_WITHIN (WATCHDOG_SECONDS, what, *count >= at_least);
}

static void
wait_for_sum (const guint *one,
              const guint *other,
              guint        at_least,
              const char  *what)
{
  SLUICE_TEST_SPIN_WITHIN (WATCHDOG_SECONDS, what, *one + *other >= at_least);
}

/* SIGKILL: no handler runs, nothing is written, the leases just stop. */
static void
worker_kill (Worker *w)
{
  g_subprocess_send_signal (w->proc.process, SIGKILL);
  store_fixture_wait_until (&w->proc.exited, WATCHDOG_SECONDS, "the killed worker's end");
  g_assert_true (g_subprocess_get_if_signaled (w->proc.process));
  g_assert_cmpint (g_subprocess_get_term_sig (w->proc.process), ==, SIGKILL);
}

/* The report's claims add up: each one the store gave the worker was
 * completed, failed (retried or dead), lost, left to its lease (abandoned
 * by a shutdown's cancel, its outcome not recorded, or never run and not
 * taken back) or released (never run, handed back). */
static void
assert_claims_add_up (JsonObject *report)
{
  const char *parts[] = { "completed", "retried", "dead", "lease_lost", "abandoned", "store_errors",
                          "released", "unfinished_claims" };
  gint64 sum = 0;

  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    sum += json_object_get_int_member_with_default (report, parts[i], 0);
  g_assert_cmpint (sum, ==, json_object_get_int_member (report, "claims"));
}

/* Waits for its exit with @status and gives its --json report, whose
 * claims add up. */
static JsonObject *
worker_report_with_status (Worker *w,
                           int     status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GOutputStream) sink = g_memory_output_stream_new_resizable ();
  g_autofree char *text = NULL;
  JsonObject *report;

  store_fixture_wait_until (&w->proc.exited, WATCHDOG_SECONDS, "the worker's end");
  store_fixture_wait_until (&w->proc.err_closed, WATCHDOG_SECONDS, "the worker's last lines");
  g_assert_true (g_subprocess_get_if_exited (w->proc.process));
  g_assert_cmpint (g_subprocess_get_exit_status (w->proc.process), ==, status);

  g_output_stream_splice (sink, g_subprocess_get_stdout_pipe (w->proc.process),
                          G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  text = g_strndup (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (sink)),
                    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (sink)));
  root = json_from_string (text, &error);
  g_assert_no_error (error);
  report = json_object_ref (json_node_get_object (root));
  assert_claims_add_up (report);
  return report;
}

static JsonObject *
worker_report (Worker *w)
{
  return worker_report_with_status (w, 0);
}

/* ---- the store ---------------------------------------------------------- */

typedef struct {
  StoreKind  kind;
  char      *dir;      /* SQLite: the file's folder */
  char      *uri;
  char      *tenant;
} Place;

static void
place_free (Place *p)
{
  store_fixture_remove_place (p->dir, NULL);
  g_free (p->dir);
  g_free (p->uri);
  g_free (p->tenant);
  g_free (p);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Place, place_free)

/* A fresh place: a new SQLite file, or a tenant of its own on the server. */
static Place *
place_new (StoreKind kind)
{
  static guint counter;
  Place *p = g_new0 (Place, 1);

  p->kind = kind;
  p->tenant = g_strdup_printf ("crash-%ld-%u", (long) getpid (), ++counter);
  if (kind == STORE_SQLITE)
    {
      g_autofree char *file = NULL;

      p->uri = store_fixture_new_place (TRUE, "crash", &p->dir, &file, NULL);
    }
  else
    p->uri = g_strdup (g_getenv ("SLUICE_TEST_PG_URI"));
  return p;
}

/* `sluice-run enqueue`: gives the created and existing counts. */
static void
enqueue (Place      *p,
         const char *prefix,
         guint       count,
         const char *behaviour,
         guint       expect_created)
{
  g_autofree char *count_text = g_strdup_printf ("%u", count);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *counts;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                              sluice_run_path (), "enqueue", "--store", p->uri, "--tenant", p->tenant,
                              "--count", count_text, "--behaviour", behaviour, "--key-prefix", prefix,
                              "--max-attempts", "3", "--json", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_subprocess_get_successful (process));

  root = json_from_string (out, &error);
  g_assert_no_error (error);
  counts = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (counts, "created"), ==, expect_created);
  g_assert_cmpint (json_object_get_int_member (counts, "existing"), ==, count - expect_created);
}

static SluiceStoreStatus *
status_of (Place *p)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (p->uri, &error);
  SluiceStoreStatus *status;

  g_assert_no_error (error);
  status = store_fixture_status (store, p->tenant, 0, &error);
  g_assert_no_error (error);
  return status;
}

/* What the checks found among the jobs. */
typedef struct {
  guint completed_by[2];   /* by the killed worker, by the survivor */
  guint reclaimed;         /* jobs that took more claims than their behaviour needs */
} Audit;

/* Every job of @prefix-0 … @prefix-(@count-1): ended once, as @behaviour
 * says it must, and, if succeeded, completed by its last claim. */
static void
audit_jobs (Place          *p,
            SluiceJobStore *store,
            const char     *prefix,
            guint           count,
            gboolean        must_succeed,
            guint           claims_needed,
            const char     *killed,
            const char     *survivor,
            Audit          *audit)
{
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *key = g_strdup_printf ("%s-%u", prefix, i);
      g_autoptr(SluiceStoredJob) job = store_fixture_peek (store, p->tenant, key);
      g_autoptr(JsonNode) root = NULL;
      JsonObject *result;
      const char *worker;

      g_assert_cmpuint (job->attempts, >=, claims_needed);
      g_assert_cmpuint (job->attempts, <=, job->max_attempts);
      if (job->attempts > claims_needed)
        audit->reclaimed++;
      g_assert_null (job->lease_token);

      if (!must_succeed)
        {
          g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_DEAD);
          g_assert_null (job->result);
          g_assert_nonnull (job->last_failure);
          continue;
        }

      g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
      root = json_from_string (job->result, NULL);
      g_assert_nonnull (root);
      result = json_node_get_object (root);
      /* Fencing: the completing claim is the last one the job had. */
      g_assert_cmpint (json_object_get_int_member (result, "attempt"), ==, job->attempts);
      g_assert_true (g_uuid_string_is_valid (json_object_get_string_member (result, "token")));
      g_assert_cmpint (json_object_get_int_member (result, "result"), ==, (gint64) i * i);
      worker = json_object_get_string_member (result, "worker");
      if (g_strcmp0 (worker, killed) == 0)
        audit->completed_by[0]++;
      else if (g_strcmp0 (worker, survivor) == 0)
        audit->completed_by[1]++;
      else
        g_error ("%s was completed by %s, no worker of this test", key, worker);
    }
}

/* ---- the cases ---------------------------------------------------------- */

#define N_OK 800
#define N_FLAKY 100
#define N_BAD 100

static void
kill_during_the_run (StoreKind kind)
{
  g_autoptr(Place) p = NULL;
  g_autoptr(Worker) a = NULL;
  g_autoptr(Worker) b = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(GError) error = NULL;
  Audit audit = { { 0 } };

  if (kind == STORE_PG && !store_fixture_pg_available ())
    return;
  p = place_new (kind);

  /* 1,000 jobs; enqueueing them again adds nothing. */
  enqueue (p, "ok", N_OK, "ok 0.005", N_OK);
  enqueue (p, "flaky", N_FLAKY, "fail 1 ConnectionError", N_FLAKY);
  enqueue (p, "bad", N_BAD, "fail-always ValueError", N_BAD);
  enqueue (p, "ok", N_OK, "ok 0.005", 0);

  a = worker_start (p->uri, p->tenant, "A", "--lease", LEASE, "--heartbeat", HEARTBEAT,
                    "--poll-interval", "0.05", "--backoff-base", "0.05", "--backoff-cap", "0.2", NULL);
  b = worker_start (p->uri, p->tenant, "B", "--lease", LEASE, "--heartbeat", HEARTBEAT,
                    "--poll-interval", "0.05", "--backoff-base", "0.05", "--backoff-cap", "0.2",
                    "--until-empty", NULL);
  store_fixture_wait_until (&a->ready, WATCHDOG_SECONDS, "worker A ready");
  store_fixture_wait_until (&b->ready, WATCHDOG_SECONDS, "worker B ready");

  /* In the middle of the run. */
  wait_for_count (&a->succeeded, 100, "100 jobs completed by A");
  worker_kill (a);
  g_test_message ("A killed after %u completions it printed", a->succeeded);

  /* B reclaims A's expired leases and ends when no job is left. */
  report = worker_report (b);

  status = status_of (p);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RUNNING], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RETRY_WAIT], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, N_OK + N_FLAKY);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_DEAD], ==, N_BAD);

  store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  audit_jobs (p, store, "ok", N_OK, TRUE, 1, "A", "B", &audit);
  audit_jobs (p, store, "flaky", N_FLAKY, TRUE, 2, "A", "B", &audit);
  audit_jobs (p, store, "bad", N_BAD, FALSE, 1, "A", "B", &audit);

  /* Every completion B's report counts is one job's, and A's are at least
   * those it printed before it died. A held claims when it died: they
   * were claimed again. */
  g_assert_cmpint (json_object_get_int_member (report, "completed"), ==, audit.completed_by[1]);
  g_assert_cmpuint (audit.completed_by[0], >=, a->succeeded);
  g_assert_cmpuint (audit.completed_by[0] + audit.completed_by[1], ==, N_OK + N_FLAKY);
  g_assert_cmpuint (audit.reclaimed, >=, 1);
  g_test_message ("completed by A %u, by B %u; %u jobs reclaimed from A", audit.completed_by[0],
                  audit.completed_by[1], audit.reclaimed);
}

static void
kill_during_a_backoff (StoreKind kind)
{
  g_autoptr(Place) p = NULL;
  g_autoptr(Worker) a = NULL;
  g_autoptr(Worker) b = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(SluiceStoreStatus) at_kill = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(GError) error = NULL;
  Audit audit = { { 0 } };

  if (kind == STORE_PG && !store_fixture_pg_available ())
    return;
  p = place_new (kind);

  enqueue (p, "ok", 200, "ok 0.005", 200);
  enqueue (p, "flaky", N_FLAKY, "fail 1 ConnectionError", N_FLAKY);

  /* A alone fails the flaky jobs, each with a 2 s backoff (longer than a
   * lease), and dies while they wait for their retries. */
  a = worker_start (p->uri, p->tenant, "A", "--lease", LEASE, "--heartbeat", HEARTBEAT,
                    "--poll-interval", "0.05", "--backoff-base", "2", "--backoff-cap", "2",
                    "--jitter", "none", NULL);
  store_fixture_wait_until (&a->ready, WATCHDOG_SECONDS, "worker A ready");
  wait_for_count (&a->retries, 20, "20 retries scheduled by A");
  worker_kill (a);

  at_kill = status_of (p);
  g_test_message ("at the kill: %" G_GUINT64_FORMAT " in retry_wait, %" G_GUINT64_FORMAT " running",
                  at_kill->counts[SLUICE_STORED_JOB_RETRY_WAIT], at_kill->counts[SLUICE_STORED_JOB_RUNNING]);
  g_assert_cmpuint (at_kill->counts[SLUICE_STORED_JOB_RETRY_WAIT], >=, 20);

  /* B, started after, takes the rest: the waiting retries when they are
   * due, and A's expired leases. */
  b = worker_start (p->uri, p->tenant, "B", "--lease", LEASE, "--heartbeat", HEARTBEAT,
                    "--poll-interval", "0.05", "--until-empty", NULL);
  report = worker_report (b);

  status = status_of (p);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, 200 + N_FLAKY);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED] + status->counts[SLUICE_STORED_JOB_DEAD], ==,
                    200 + N_FLAKY);

  store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  audit_jobs (p, store, "ok", 200, TRUE, 1, "A", "B", &audit);
  audit_jobs (p, store, "flaky", N_FLAKY, TRUE, 2, "A", "B", &audit);
  g_assert_cmpint (json_object_get_int_member (report, "completed"), ==, audit.completed_by[1]);
  g_assert_cmpuint (audit.completed_by[0] + audit.completed_by[1], ==, 200 + N_FLAKY);
}

static void
test_sqlite_kill_during_the_run (void)
{
  kill_during_the_run (STORE_SQLITE);
}

static void
test_sqlite_kill_during_a_backoff (void)
{
  kill_during_a_backoff (STORE_SQLITE);
}

static void
test_pg_kill_during_the_run (void)
{
  kill_during_the_run (STORE_PG);
}

static void
test_pg_kill_during_a_backoff (void)
{
  kill_during_a_backoff (STORE_PG);
}

/* ---- several workers killed at random moments, and restarted ------------- */

#define N_CHAOS 600
#define N_CHAOS_WORKERS 3
#define N_CHAOS_KILLS 6

/* Whether a killed worker started an attempt of @key and printed no end
 * of it: it died in the middle of that attempt. */
static gboolean
died_mid_attempt (GPtrArray  *killed,
                  const char *key)
{
  for (guint i = 0; i < killed->len; i++)
    {
      Worker *w = g_ptr_array_index (killed, i);
      JobLog *log = g_hash_table_lookup (w->jobs, key);

      if (log != NULL && log->started > log->succeeded + log->not_succeeded)
        return TRUE;
    }
  return FALSE;
}

/* Every job succeeded once, by its last claim; a job that ran more than
 * once (its starts, as every worker printed them) did so because a worker
 * died in the middle of one of its attempts. */
static void
audit_chaos (Place     *p,
             GPtrArray *killed,
             GPtrArray *survivors)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (p->uri, &error);
  guint duplicates = 0;

  g_assert_no_error (error);
  for (guint i = 0; i < N_CHAOS; i++)
    {
      g_autofree char *key = g_strdup_printf ("chaos-%u", i);
      g_autoptr(SluiceStoredJob) job = store_fixture_peek (store, p->tenant, key);
      g_autoptr(JsonNode) root = NULL;
      guint started = 0, succeeded = 0;
      GPtrArray *groups[] = { killed, survivors };

      g_assert_nonnull (job);
      g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
      g_assert_null (job->lease_token);
      root = json_from_string (job->result, NULL);
      g_assert_nonnull (root);
      g_assert_cmpint (json_object_get_int_member (json_node_get_object (root), "attempt"), ==, job->attempts);
      for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
        for (guint w = 0; w < groups[g]->len; w++)
          {
            JobLog *log = g_hash_table_lookup (((Worker *) g_ptr_array_index (groups[g], w))->jobs, key);

            if (log != NULL)
              {
                started += log->started;
                succeeded += log->succeeded;
              }
          }
      g_assert_cmpuint (succeeded, <=, 1);
      if (started > 1)
        {
          duplicates++;
          if (!died_mid_attempt (killed, key))
            g_error ("%s ran %u times, but no worker died in one of its attempts", key, started);
        }
    }
  g_test_message ("%u jobs ran again after a worker died in their attempt", duplicates);
}

/* Three workers; one at a time, at a random moment (after a random number
 * of completions), is killed with SIGKILL and started again under a new
 * name. Then a last one drains the tenant: nothing is lost, nothing stays
 * claimed, and the repeats are the killed attempts'. */
/* The completions the workers printed, the killed ones' too (a job whose
 * completion was not committed runs again: the sum can pass the jobs). */
static guint
completions (GPtrArray *live,
             GPtrArray *killed)
{
  guint sum = 0;

  for (guint i = 0; i < live->len; i++)
    sum += ((Worker *) g_ptr_array_index (live, i))->succeeded;
  for (guint i = 0; i < killed->len; i++)
    sum += ((Worker *) g_ptr_array_index (killed, i))->succeeded;
  return sum;
}

static void
workers_killed_and_restarted (StoreKind kind)
{
  g_autoptr(Place) p = NULL;
  g_autoptr(GPtrArray) live = g_ptr_array_new_with_free_func ((GDestroyNotify) worker_free);
  g_autoptr(GPtrArray) killed = g_ptr_array_new_with_free_func ((GDestroyNotify) worker_free);
  g_autoptr(GPtrArray) ended = g_ptr_array_new_with_free_func ((GDestroyNotify) worker_free);
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  Worker *last;
  guint n_started = 0;

  if (kind == STORE_PG && !store_fixture_pg_available ())
    return;
  p = place_new (kind);
  enqueue (p, "chaos", N_CHAOS, "ok 0.01", N_CHAOS);

  for (guint i = 0; i < N_CHAOS_WORKERS; i++)
    {
      g_autofree char *name = g_strdup_printf ("W%u", ++n_started);

      g_ptr_array_add (live, worker_start (p->uri, p->tenant, name, "--lease", LEASE, "--heartbeat",
                                           HEARTBEAT, "--poll-interval", "0.05", NULL));
    }
  for (guint k = 0; k < N_CHAOS_KILLS; k++)
    {
      guint victim = (guint) g_test_rand_int_range (0, N_CHAOS_WORKERS);
      Worker *w = g_ptr_array_index (live, victim);
      g_autofree char *name = g_strdup_printf ("W%u", ++n_started);

      guint target;

      store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");
      /* A random moment: somewhere among its next completions, or once
       * every job has been completed by someone (the others can drain the
       * tenant first, and then the victim has no more to complete). */
      target = w->succeeded + (guint) g_test_rand_int_range (1, 25);
      SLUICE_TEST_SPIN_WITHIN (WATCHDOG_SECONDS, "the victim's completions",
                               w->succeeded >= target || completions (live, killed) >= N_CHAOS);
      worker_kill (w);
      g_ptr_array_add (killed, g_ptr_array_steal_index (live, victim));
      g_ptr_array_insert (live, (int) victim,
                          worker_start (p->uri, p->tenant, name, "--lease", LEASE, "--heartbeat",
                                        HEARTBEAT, "--poll-interval", "0.05", NULL));
    }

  /* The last worker drains the tenant; the others are stopped then. */
  last = worker_start (p->uri, p->tenant, "last", "--lease", LEASE, "--heartbeat", HEARTBEAT,
                       "--poll-interval", "0.05", "--until-empty", NULL);
  report = worker_report (last);
  g_ptr_array_add (ended, last);
  for (guint i = 0; i < live->len; i++)
    {
      Worker *w = g_ptr_array_index (live, i);

      g_subprocess_send_signal (w->proc.process, SIGTERM);
      json_object_unref (worker_report (w));
    }

  status = status_of (p);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, N_CHAOS);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RUNNING], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 0);
  g_ptr_array_extend_and_steal (ended, g_steal_pointer (&live));
  live = g_ptr_array_new ();
  audit_chaos (p, killed, ended);
}

static void
test_sqlite_workers_killed_and_restarted (void)
{
  workers_killed_and_restarted (STORE_SQLITE);
}

static void
test_pg_workers_killed_and_restarted (void)
{
  workers_killed_and_restarted (STORE_PG);
}

/* ---- PostgreSQL itself killed --------------------------------------------- */

/* The shared test server runs with fsync and synchronous_commit off
 * (tests/pg-server.sh): a commit it acknowledged may still be in its
 * memory when it is killed, so it cannot prove anything about a crash of
 * the server. This case starts a server of its own with PostgreSQL's
 * durability defaults, kills it with SIGKILL while two workers run and the
 * test enqueues, starts it again, and checks what it acknowledged. */

#define N_DURABLE 300
/* The claims two workers may hold at once, each Q + N + 1 (4 + 4 + 1). */
#define DURABLE_MOST_HELD (2 * (4 + 4 + 1))

static const char *
pg_bindir (void)
{
  const char *dir = g_getenv ("SLUICE_PG_BINDIR");

  return dir != NULL && *dir != '\0' ? dir : "/usr/lib/postgresql/15/bin";
}

static gboolean
pg_binaries_available (void)
{
  g_autofree char *initdb = g_build_filename (pg_bindir (), "initdb", NULL);

  if (g_file_test (initdb, G_FILE_TEST_IS_EXECUTABLE))
    return TRUE;
  if (g_strcmp0 (g_getenv ("CI"), "true") == 0 || g_strcmp0 (g_getenv ("SLUICE_REQUIRE_PG"), "1") == 0)
    g_test_fail_printf ("no %s, and CI=true or SLUICE_REQUIRE_PG=1 needs the PostgreSQL crash tests", initdb);
  else
    {
      g_autofree char *why = g_strdup_printf ("no %s: scripts/setup-deps installs PostgreSQL 15", initdb);
      g_test_skip (why);
    }
  return FALSE;
}

/* tests/pg-server.sh COMMAND DIR (durable: PostgreSQL's defaults); gives
 * what it printed, the URI for start and recover. */
static char *
pg_server (const char *command,
           const char *dir)
{
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "pg-server.sh", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "SLUICE_PG_DURABLE", "1", TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, script, command, dir, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_successful (process))
    g_error ("pg-server.sh %s %s failed: %s", command, dir, err);
  return g_strdup (g_strstrip (out));
}

/* The test's own enqueues, one after the other until one fails (the
 * server is gone): the keys the store acknowledged. */
typedef struct {
  SluiceJobStore *store;
  const char     *tenant;
  GPtrArray      *acked;
  guint           next;
  gboolean        done;
} Enqueuer;

static void enqueue_next (Enqueuer *e);

static void
on_enqueued (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Enqueuer *e = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = sluice_job_store_enqueue_finish (e->store, result, NULL, &error);

  if (job == NULL)
    {
      g_test_message ("enqueue %u failed, after %u acknowledged: %s", e->next - 1, e->acked->len,
                      error->message);
      e->done = TRUE;
      return;
    }
  g_ptr_array_add (e->acked, g_strdup (job->operation_key));
  enqueue_next (e);
}

static void
enqueue_next (Enqueuer *e)
{
  g_autofree char *key = g_strdup_printf ("late-%u", e->next);
  g_autofree char *payload = g_strdup_printf ("{\"behaviour\": \"ok\", \"value\": %u}", e->next);

  e->next++;
  sluice_job_store_enqueue_async (e->store, e->tenant, key, payload, 3, g_get_real_time (), NULL,
                                  on_enqueued, e);
}

/* A job every --verbose line of both workers told of: started, completed
 * (the store acknowledged it), ended otherwise. */
static void
merge_logs (GHashTable *into,
            Worker     *w)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, w->jobs);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const JobLog *log = value;
      JobLog *all = g_hash_table_lookup (into, key);

      if (all == NULL)
        {
          all = g_new0 (JobLog, 1);
          g_hash_table_insert (into, g_strdup (key), all);
        }
      all->started += log->started;
      all->succeeded += log->succeeded;
      all->not_succeeded += log->not_succeeded;
      if (log->succeeded > 0)
        all->succeeded_attempt = log->succeeded_attempt;
    }
}

/* Completed once, by its last claim; and the completion a worker was told
 * the store took is the one the store has. */
static void
audit_durable_job (SluiceJobStore *store,
                   const char     *tenant,
                   const char     *key,
                   gint64          value,
                   Worker         *a,
                   Worker         *b)
{
  g_autoptr(SluiceStoredJob) job = store_fixture_peek (store, tenant, key);
  g_autoptr(JsonNode) root = NULL;
  const JobLog *logs[] = { g_hash_table_lookup (a->jobs, key), g_hash_table_lookup (b->jobs, key) };
  Worker *workers[] = { a, b };
  JsonObject *result;

  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_null (job->lease_token);
  root = json_from_string (job->result, NULL);
  g_assert_nonnull (root);
  result = json_node_get_object (root);
  g_assert_cmpint (json_object_get_int_member (result, "attempt"), ==, job->attempts);
  g_assert_cmpint (json_object_get_int_member (result, "result"), ==, value * value);

  for (guint i = 0; i < G_N_ELEMENTS (logs); i++)
    if (logs[i] != NULL && logs[i]->succeeded > 0)
      {
        g_assert_cmpuint (logs[i]->succeeded, ==, 1);
        g_assert_cmpstr (json_object_get_string_member (result, "worker"), ==, workers[i]->name);
        g_assert_cmpint (json_object_get_int_member (result, "attempt"), ==, logs[i]->succeeded_attempt);
      }
}

static void
server_killed_mid_run (const char *dir,
                       const char *uri)
{
  g_autoptr(Place) p = g_new0 (Place, 1);
  g_autoptr(Worker) a = NULL;
  g_autoptr(Worker) b = NULL;
  g_autoptr(JsonObject) report_a = NULL;
  g_autoptr(JsonObject) report_b = NULL;
  g_autoptr(SluiceJobStore) enqueuer_store = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(GPtrArray) acked = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) all = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *recovered = NULL;
  Enqueuer e = { NULL, NULL, acked, 0, FALSE };
  GHashTableIter iter;
  gpointer key, value;
  guint duplicates = 0;
  guint64 total;

  p->kind = STORE_PG;
  p->uri = g_strdup (uri);
  p->tenant = g_strdup_printf ("durable-%ld", (long) getpid ());
  enqueue (p, "ok", N_DURABLE, "ok 0.02", N_DURABLE);

  /* Long enough a back-off and store-error timeout for the server's
   * restart; a short lease, so that the claims held at the kill come back
   * soon after it. */
  a = worker_start (uri, p->tenant, "A", "--lease", "2", "--heartbeat", "0.5", "--poll-interval", "0.05",
                    "--until-empty", NULL);
  b = worker_start (uri, p->tenant, "B", "--lease", "2", "--heartbeat", "0.5", "--poll-interval", "0.05",
                    "--until-empty", NULL);
  store_fixture_wait_until (&a->ready, WATCHDOG_SECONDS, "worker A ready");
  store_fixture_wait_until (&b->ready, WATCHDOG_SECONDS, "worker B ready");

  enqueuer_store = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  e.store = enqueuer_store;
  e.tenant = p->tenant;
  enqueue_next (&e);

  /* In the middle of the run, with enqueues, claims, renewals and
   * completions in flight. */
  wait_for_sum (&a->succeeded, &b->succeeded, 60, "60 jobs completed");
  g_free (pg_server ("crash", dir));
  g_test_message ("PostgreSQL killed after A's %u and B's %u completions, %u enqueues acknowledged",
                  a->succeeded, b->succeeded, acked->len);
  store_fixture_wait_until (&e.done, WATCHDOG_SECONDS, "the enqueue that the kill failed");
  g_assert_cmpuint (acked->len, >=, 1);
  recovered = pg_server ("recover", dir);
  g_assert_cmpstr (recovered, ==, uri);

  /* The workers backed off while it was down, and finish the work. */
  report_a = worker_report (a);
  report_b = worker_report (b);

  store = sluice_job_store_new_for_uri (uri, &error);
  g_assert_no_error (error);
  status = store_fixture_status (store, p->tenant, 0, &error);
  g_assert_no_error (error);
  /* Nothing stuck claimed past its lease, nothing left to do. */
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RUNNING], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RETRY_WAIT], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_DEAD], ==, 0);
  /* Every acknowledged enqueue is there; the one the kill cut off may be
   * there too, committed but never answered. */
  total = status->counts[SLUICE_STORED_JOB_SUCCEEDED];
  g_assert_cmpuint (total, >=, N_DURABLE + acked->len);
  g_assert_cmpuint (total, <=, N_DURABLE + acked->len + 1);

  for (guint i = 0; i < N_DURABLE; i++)
    {
      g_autofree char *ok = g_strdup_printf ("ok-%u", i);
      audit_durable_job (store, p->tenant, ok, i, a, b);
    }
  for (guint i = 0; i < acked->len; i++)
    audit_durable_job (store, p->tenant, g_ptr_array_index (acked, i), i, a, b);

  /* A job ran more than once only if an attempt of it ended without its
   * completion (cut off by the kill: lease lost, not recorded), and no
   * more of them than the claims the workers could hold then. */
  merge_logs (all, a);
  merge_logs (all, b);
  g_hash_table_iter_init (&iter, all);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const JobLog *log = value;

      g_assert_cmpuint (log->succeeded, <=, 1);
      if (log->started > 1)
        {
          if (log->not_succeeded == 0)
            g_error ("%s ran %u times, and none of its attempts was cut off", (const char *) key, log->started);
          duplicates++;
        }
    }
  g_test_message ("completed by A %" G_GINT64_FORMAT ", by B %" G_GINT64_FORMAT "; %u jobs ran again",
                  json_object_get_int_member (report_a, "completed"),
                  json_object_get_int_member (report_b, "completed"), duplicates);
  g_assert_cmpuint (duplicates, <=, DURABLE_MOST_HELD);
}

/* Where the parent tells its child the server's folder and URI (a file,
 * not the environment: setenv() is not safe once threads run). */
static char *
durable_note (pid_t parent)
{
  g_autofree char *name = g_strdup_printf ("sluice-pg-durable-%ld.txt", (long) parent);

  return g_build_filename (g_get_tmp_dir (), name, NULL);
}

static void
test_pg_server_killed_keeps_what_it_acknowledged (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *note = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  /* The child does the work; the parent owns the server, so that it is
   * stopped even when a check of the child fails. */
  if (g_test_subprocess ())
    {
      g_auto(GStrv) lines = NULL;

      note = durable_note (getppid ());
      g_file_get_contents (note, &text, NULL, &error);
      g_assert_no_error (error);
      lines = g_strsplit (text, "\n", 3);
      g_assert_cmpuint (g_strv_length (lines), >=, 2);
      server_killed_mid_run (lines[0], lines[1]);
      return;
    }
  if (!pg_binaries_available ())
    return;

  dir = g_dir_make_tmp ("sluice-pg-durable-XXXXXX", &error);
  g_assert_no_error (error);
  uri = pg_server ("start", dir);
  note = durable_note (getpid ());
  text = g_strdup_printf ("%s\n%s\n", dir, uri);
  g_file_set_contents (note, text, -1, &error);
  g_assert_no_error (error);
  g_test_trap_subprocess (NULL, 150 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_unlink (note);
  g_free (pg_server ("stop", dir));
  g_test_trap_assert_passed ();
}

/* ---- SIGTERM ------------------------------------------------------------ */

static void
test_sigterm_drains_the_running_job (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  g_autoptr(Worker) w = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;

  enqueue (p, "long", 1, "ok 1", 1);
  w = worker_start (p->uri, p->tenant, "W", "--shutdown-timeout", "30", NULL);
  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");

  /* The job is claimed and running once its attempt-start line came. */
  wait_for_count (&w->started, 1, "the job's start");
  store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  job = store_fixture_peek (store, p->tenant, "long-0");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_clear_pointer (&job, sluice_stored_job_free);
  g_subprocess_send_signal (w->proc.process, SIGTERM);

  /* It finishes the job within the shutdown deadline and exits 0. */
  report = worker_report (w);
  g_assert_cmpint (json_object_get_int_member (report, "completed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (report, "abandoned"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (report, "signals"), ==, 1);
  job = store_fixture_peek (store, p->tenant, "long-0");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (job->attempts, ==, 1);
}

static void
test_shutdown_deadline_leaves_the_job_to_its_lease (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  g_autoptr(Worker) w = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;

  enqueue (p, "stuck", 1, "hang", 1);
  w = worker_start (p->uri, p->tenant, "W", "--shutdown-timeout", "0.2", "--lease", "60",
                    "--heartbeat", "20", NULL);
  wait_for_count (&w->started, 1, "the job's start");
  g_subprocess_send_signal (w->proc.process, SIGTERM);

  /* The drain ends at the deadline: the job is cancelled, and nothing is
   * written (finding 03): its lease is left to expire. */
  report = worker_report (w);
  g_assert_cmpint (json_object_get_int_member (report, "abandoned"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (report, "completed"), ==, 0);
  store = sluice_job_store_new_for_uri (p->uri, &error);
  g_assert_no_error (error);
  job = store_fixture_peek (store, p->tenant, "stuck-0");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpstr (job->lease_owner, ==, "W");
  g_assert_null (job->last_failure);
}

/* The store's jobs of @p, by their attempts: how many were never claimed
 * (or handed back), and the state of the others. */
static void
count_jobs (Place                *p,
            const char           *prefix,
            guint                 count,
            guint                *unclaimed,
            guint                *running)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) store = sluice_job_store_new_for_uri (p->uri, &error);

  g_assert_no_error (error);
  *unclaimed = *running = 0;
  for (guint i = 0; i < count; i++)
    {
      g_autofree char *key = g_strdup_printf ("%s-%u", prefix, i);
      g_autoptr(SluiceStoredJob) job = store_fixture_peek (store, p->tenant, key);

      if (job->state == SLUICE_STORED_JOB_PENDING)
        {
          /* Nothing ran it: its attempts are as before any claim. */
          g_assert_cmpuint (job->attempts, ==, 0);
          g_assert_null (job->lease_token);
          ++*unclaimed;
        }
      else if (job->state == SLUICE_STORED_JOB_RUNNING)
        ++*running;
    }
}

static void
test_sigterm_hands_back_the_claims_it_never_ran (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  g_autoptr(Worker) w = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  guint unclaimed, running;
  gint64 completed, released;

  /* Two running, four queued, and the producer's next claim (held for
   * room in the queue, or on its way) when the signal comes. */
  enqueue (p, "job", 20, "ok 0.3", 20);
  w = worker_start (p->uri, p->tenant, "W", "--workers", "2", "--queue-size", "4",
                    "--shutdown-timeout", "30", NULL);
  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");
  wait_for_count (&w->started, 2, "two jobs' start");
  g_subprocess_send_signal (w->proc.process, SIGTERM);

  /* The drain runs what was queued; the claim the stop kept from running
   * goes back to the store, not to its lease: nothing is left running. */
  report = worker_report (w);
  completed = json_object_get_int_member (report, "completed");
  released = json_object_get_int_member (report, "released");
  /* At least the producer's claim; at most what the worker may hold
   * unfinished (its lead bound, 4 + 2 + 1: claims are taken ahead). */
  g_assert_cmpint (released, >=, 1);
  g_assert_cmpint (released, <=, 7);
  g_assert_cmpint (json_object_get_int_member (report, "abandoned"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (report, "unfinished_claims"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (report, "claims"), ==, completed + released);
  g_assert_cmpint (completed, >=, 2);

  status = status_of (p);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RUNNING], ==, 0);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, completed);
  count_jobs (p, "job", 20, &unclaimed, &running);
  g_assert_cmpuint (unclaimed, ==, 20 - completed);
  g_assert_cmpuint (running, ==, 0);
}

static void
test_two_signals_hand_back_the_queued_claims (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  g_autoptr(Worker) w = NULL;
  g_autoptr(JsonObject) report = NULL;
  guint unclaimed, running;
  gint64 claims;

  enqueue (p, "job", 20, "ok 30", 20);
  w = worker_start (p->uri, p->tenant, "W", "--workers", "2", "--queue-size", "4", NULL);
  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");
  wait_for_count (&w->started, 2, "two jobs' start");
  g_subprocess_send_signal (w->proc.process, SIGINT);
  /* One signal at a time: two sent at once may arrive as one. */
  store_fixture_wait_until (&w->stopping, WATCHDOG_SECONDS, "the worker stopping");
  g_subprocess_send_signal (w->proc.process, SIGINT);

  /* The cancel: the running attempts are left to their leases (finding
   * 03), every claim that never ran is handed back. */
  report = worker_report (w);
  claims = json_object_get_int_member (report, "claims");
  g_assert_cmpint (json_object_get_int_member (report, "signals"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (report, "completed"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (report, "abandoned"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (report, "unfinished_claims"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (report, "released"), ==, claims - 2);
  g_assert_cmpint (claims, >=, 3);

  count_jobs (p, "job", 20, &unclaimed, &running);
  g_assert_cmpuint (running, ==, 2);
  g_assert_cmpuint (unclaimed, ==, 18);
}

/* In the worker, before it runs: files may grow to 32 KiB, no more (a
 * write past it fails with EFBIG instead of killing it). */
static void
limit_file_size (gpointer user_data)
{
  struct rlimit limit = { 32 * 1024, 32 * 1024 };

  signal (SIGXFSZ, SIG_IGN);
  if (setrlimit (RLIMIT_FSIZE, &limit) != 0)
    _exit (127);
}

static Worker *
worker_start_limited (const char *uri,
                      const char *tenant,
                      const char *name,
                      ...)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  Worker *w;
  va_list args;

  g_subprocess_launcher_set_child_setup (launcher, limit_file_size, NULL, NULL);
  va_start (args, name);
  w = worker_startv (uri, tenant, name, launcher, args);
  va_end (args);
  return w;
}

static void
test_until_empty_gives_up_on_a_full_store (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  g_autoptr(Worker) w = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *file = NULL;
  GStatBuf info;

  /* A file larger than the worker may write to: once its WAL reaches the
   * limit, every write fails, as on a full disk, and none succeeds again
   * (the WAL cannot be checkpointed into the file). */
  enqueue (p, "job", 40, "ok 0.01", 40);
  file = g_build_filename (p->dir, "jobs.db", NULL);
  g_assert_cmpint (g_stat (file, &info), ==, 0);
  g_assert_cmpint (info.st_size, >, 32 * 1024);

  w = worker_start_limited (p->uri, p->tenant, "F", "--until-empty", "--poll-interval", "0.05",
                            "--store-error-timeout", "0.5", NULL);
  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");

  /* It backs off and, the store failing for 0.5 s, gives up: exit 1,
   * saying why. */
  report = worker_report_with_status (w, 1);
  g_assert_nonnull (w->failure);
  g_assert_nonnull (strstr (w->failure, "kept failing for 0.5 s"));
  g_assert_nonnull (strstr (w->failure, "gives up"));
  g_assert_nonnull (strstr (w->failure, file));
  g_assert_cmpint (json_object_get_int_member (report, "store_retries"), >=, 2);
  g_assert_cmpint (json_object_get_int_member (report, "completed"), <, 40);
}

/* SLUICE_MONITOR=session: the worker's pool is on the bus like any pool,
 * titled with the worker and the store. */
static gboolean name_appeared;

static void
on_name_appeared (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  name_appeared = TRUE;
}

static void
test_worker_is_monitored_like_any_pool (void)
{
  g_autoptr(GTestDBus) bus = NULL;
  g_autoptr(GDBusConnection) connection = NULL;
  g_autoptr(Place) p = NULL;
  g_autoptr(Worker) w = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) title = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *daemon = g_find_program_in_path ("dbus-daemon");
  g_autofree char *name = NULL;
  g_autofree char *expected = NULL;
  guint watch;

  if (daemon == NULL)
    {
      g_test_skip ("no dbus-daemon");
      return;
    }
  bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  p = place_new (STORE_SQLITE);

  g_setenv ("SLUICE_MONITOR", "session", TRUE);
  w = worker_start (p->uri, p->tenant, "M", NULL);
  g_setenv ("SLUICE_MONITOR", "", TRUE);
  store_fixture_wait_until (&w->ready, WATCHDOG_SECONDS, "the worker ready");

  connection = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (bus),
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);
  name = g_strdup_printf ("io.github.sluicepool.Sluice.Pool.p%s", g_subprocess_get_identifier (w->proc.process));
  name_appeared = FALSE;
  watch = g_bus_watch_name_on_connection (connection, name, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                          on_name_appeared, NULL, NULL, NULL);
  store_fixture_wait_until (&name_appeared, WATCHDOG_SECONDS, "the worker's bus name");
  g_bus_unwatch_name (watch);

  reply = g_dbus_connection_call_sync (connection, name, "/io/github/sluicepool/Sluice/Pool/1",
                                       "org.freedesktop.DBus.Properties", "Get",
                                       g_variant_new ("(ss)", "io.github.sluicepool.Sluice.Pool1", "Title"),
                                       G_VARIANT_TYPE ("(v)"), G_DBUS_CALL_FLAGS_NONE, 10000, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(v)", &title);
  expected = g_strdup_printf ("worker M on %s", p->uri);
  g_assert_cmpstr (g_variant_get_string (title, NULL), ==, expected);

  g_subprocess_send_signal (w->proc.process, SIGTERM);
  report = worker_report (w);
  g_assert_cmpint (json_object_get_int_member (report, "signals"), ==, 1);
  g_clear_object (&connection);
  g_test_dbus_down (bus);
}

/* ---- the commands' arguments and output ---------------------------------- */

/* Runs sluice-run with the arguments that follow (to NULL); gives its exit
 * status, standard output and standard error. */
static int
run_command (char **out,
             char **err,
             ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *arg;
  va_list args;

  g_ptr_array_add (argv, (gpointer) sluice_run_path ());
  va_start (args, err);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  return sluice_test_run_to_end ((const char * const *) argv->pdata, out, err);
}

static void
test_status_counts_by_state (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *status, *counts, *failure;
  JsonArray *failures;

  enqueue (p, "ok", 3, "ok", 3);
  enqueue (p, "bad", 2, "fail-always ValueError", 2);
  g_assert_cmpint (run_command (&out, &err, "worker", "--store", p->uri, "--tenant", p->tenant,
                                "--until-empty", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "completed 3 · retried 0 · dead 2"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_command (&out, &err, "store-status", "--store", p->uri, "--tenant", p->tenant,
                                "--failures", "1", "--json", NULL), ==, 0);
  root = json_from_string (out, &error);
  g_assert_no_error (error);
  status = json_node_get_object (root);
  counts = json_object_get_object_member (status, "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "succeeded"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (counts, "dead"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (counts, "pending"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (status, "total"), ==, 5);
  failures = json_object_get_array_member (status, "failures");
  g_assert_cmpuint (json_array_get_length (failures), ==, 1);
  failure = json_array_get_object_element (failures, 0);
  g_assert_cmpstr (json_object_get_string_member (failure, "type"), ==, "ValueError");
  g_assert_cmpstr (json_object_get_string_member (failure, "state"), ==, "dead");
  g_assert_false (json_object_get_boolean_member (failure, "retryable"));
}

static void
test_password_is_never_printed (void)
{
  /* A server that is not there: every command fails, naming the store
   * without its password. */
  const char *uri = "postgresql://sluice:s3cr3t-word@/nowhere?host=/nonexistent-sluice-socket-dir";
  const char *commands[][3] = {
    { "store-status", NULL, NULL },
    { "enqueue", "--count", "1" },
    { "worker", "--until-empty", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (run_command (&out, &err, commands[i][0], "--store", uri, commands[i][1], commands[i][2],
                                    NULL), ==, 1);
      g_assert_null (strstr (out, "s3cr3t"));
      g_assert_null (strstr (err, "s3cr3t"));
      g_assert_cmpstr (err, !=, "");
    }
}

static void
test_bad_arguments_exit_2 (void)
{
  g_autoptr(Place) p = place_new (STORE_SQLITE);
  struct {
    const char *args[5];
    const char *message;
  } cases[] = {
    { { "worker", "--store", p->uri, "--lease", "1" }, "heartbeat" },
    { { "worker", "--store", p->uri, "--jitter", "some" }, "--jitter" },
    { { "worker", "--store", "mysql://db", NULL }, "not a job store" },
    { { "worker", NULL }, "--store" },
    { { "enqueue", "--store", p->uri, "--behaviour", "sometimes" }, "unknown behaviour" },
    { { "enqueue", "--store", p->uri, "--max-attempts", "0" }, "--max-attempts" },
    { { "store-status", "--store", p->uri, "extra", NULL }, "extra" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      const char * const *a = cases[i].args;

      g_assert_cmpint (run_command (&out, &err, a[0], a[1], a[2], a[3], a[4], NULL), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, cases[i].message));
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/store/crash/sqlite/kill-during-the-run", test_sqlite_kill_during_the_run);
  g_test_add_func ("/store/crash/sqlite/kill-during-a-backoff", test_sqlite_kill_during_a_backoff);
  g_test_add_func ("/store/crash/pg/kill-during-the-run", test_pg_kill_during_the_run);
  g_test_add_func ("/store/crash/pg/kill-during-a-backoff", test_pg_kill_during_a_backoff);
  g_test_add_func ("/store/crash/sqlite/workers-killed-and-restarted", test_sqlite_workers_killed_and_restarted);
  g_test_add_func ("/store/crash/pg/workers-killed-and-restarted", test_pg_workers_killed_and_restarted);
  g_test_add_func ("/store/crash/pg/server-killed-keeps-what-it-acknowledged",
                   test_pg_server_killed_keeps_what_it_acknowledged);
  g_test_add_func ("/store/worker/sigterm-drains-the-running-job", test_sigterm_drains_the_running_job);
  g_test_add_func ("/store/worker/shutdown-deadline-leaves-the-job-to-its-lease",
                   test_shutdown_deadline_leaves_the_job_to_its_lease);
  g_test_add_func ("/store/worker/sigterm-hands-back-the-claims-it-never-ran",
                   test_sigterm_hands_back_the_claims_it_never_ran);
  g_test_add_func ("/store/worker/two-signals-hand-back-the-queued-claims",
                   test_two_signals_hand_back_the_queued_claims);
  g_test_add_func ("/store/worker/until-empty-gives-up-on-a-full-store", test_until_empty_gives_up_on_a_full_store);
  g_test_add_func ("/store/worker/monitored-like-any-pool", test_worker_is_monitored_like_any_pool);
  g_test_add_func ("/store/cli/status-counts-by-state", test_status_counts_by_state);
  g_test_add_func ("/store/cli/password-is-never-printed", test_password_is_never_printed);
  g_test_add_func ("/store/cli/bad-arguments-exit-2", test_bad_arguments_exit_2);

  return g_test_run ();
}
