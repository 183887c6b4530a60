/* sluice-run-store-worker.c: `sluice-run worker`, a long-lived worker on a job
 * store (docs/job-store.md, the seed's Worker)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A pool whose source claims the tenant's jobs (SluiceStoreSource) and
 * whose handler (SluiceStoreHandler around SluicePayloadHandler) does what
 * each payload says, renews the lease while it runs and writes the outcome
 * back. The pool never retries: the store does. It runs until a signal
 * (the first drains within --shutdown-timeout, the second cancels), or
 * with --until-empty until the tenant has nothing left to do; then it
 * hands back the claims the stop kept from running (the source's close)
 * and prints what this worker did: every claim is completed, failed,
 * lost, left to its lease or released. SLUICE_MONITOR=session exports the pool
 * like any other, titled "worker W on STORE" and labelled worker-id=W (its
 * Labels, which the store window's win.attach-worker looks for).
 */

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sluice-payload-handler.h"
#include "sluice-run-store.h"
#include "sluice-store-handler.h"
#include "sluice-store-source.h"

typedef struct {
  /* options */
  char               *uri;
  char               *tenant;
  char               *worker_id;
  char               *jitter;
  char               *retryable;
  gint                workers;
  gint                queue_size;
  double              lease;
  double              heartbeat;
  double              poll_interval;
  double              item_timeout;
  double              shutdown_timeout;
  double              store_error_timeout;
  double              backoff_base;
  double              backoff_cap;
  gboolean            until_empty;
  gboolean            json;
  gboolean            verbose;
  gboolean            init;

  /* the run */
  char               *described;
  SluiceJobStore     *store;
  SluiceClock        *clock;
  SluiceStoreSource  *source;
  SluiceStoreHandler *handler;
  SluicePool         *pool;
  SluiceRun          *run;
  guint               n_signals;
  guint               sigint_id;
  guint               sigterm_id;
  gboolean            finished;
  gboolean            closed;
  GError             *error;
  char               *source_error;   /* the store failed the source: the worker's end */
  guint64             outcomes[SLUICE_STORE_N_OUTCOMES];
  guint64             store_retries;
  gint64              started_at;
} Worker;

static void
worker_clear (Worker *w)
{
  g_clear_handle_id (&w->sigint_id, g_source_remove);
  g_clear_handle_id (&w->sigterm_id, g_source_remove);
  /* The pool last but for the store: dropping it unexports it, which
   * flushes what its monitors were not sent yet. */
  g_clear_object (&w->run);
  g_clear_object (&w->pool);
  g_clear_object (&w->handler);
  g_clear_object (&w->source);
  g_clear_object (&w->clock);
  g_clear_object (&w->store);
  g_clear_error (&w->error);
  g_clear_pointer (&w->source_error, g_free);
  g_clear_pointer (&w->described, g_free);
  g_clear_pointer (&w->uri, g_free);
  g_clear_pointer (&w->tenant, g_free);
  g_clear_pointer (&w->worker_id, g_free);
  g_clear_pointer (&w->jitter, g_free);
  g_clear_pointer (&w->retryable, g_free);
}

/* ---- options ----------------------------------------------------------- */

static gboolean
parse_worker_options (Worker  *w,
                      int     *argc,
                      char  ***argv)
{
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_STRING, &w->uri, N_("The job store"), N_("sqlite:FILE|postgresql://…") },
    { "init", 0, 0, G_OPTION_ARG_NONE, &w->init,
      N_("Make the job store in a database that has other tables (a new or empty one gets it anyway)"), NULL },
    { "tenant", 0, 0, G_OPTION_ARG_STRING, &w->tenant, N_("The tenant (queue) to work for (default: default)"), N_("T") },
    { "worker-id", 0, 0, G_OPTION_ARG_STRING, &w->worker_id,
      N_("The worker's name, its claims' lease owner (default: HOST-PID)"), N_("W") },
    { "workers", 0, 0, G_OPTION_ARG_INT, &w->workers, N_("Jobs run at once (default: 4)"), N_("N") },
    { "queue-size", 0, 0, G_OPTION_ARG_INT, &w->queue_size,
      N_("Claimed jobs waiting for a worker: at most Q + N + 1 claims are held (default: 4)"), N_("Q") },
    { "lease", 0, 0, G_OPTION_ARG_DOUBLE, &w->lease, N_("A claim's lease, in seconds (default: 30)"), N_("S") },
    { "heartbeat", 0, 0, G_OPTION_ARG_DOUBLE, &w->heartbeat,
      N_("Seconds between two renewals of a running job's lease, less than half the lease (default: 10)"), N_("S") },
    { "poll-interval", 0, 0, G_OPTION_ARG_DOUBLE, &w->poll_interval,
      N_("Seconds between two claims when there is no job (default: 0.25)"), N_("S") },
    { "item-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &w->item_timeout,
      N_("The most seconds an attempt may take: then it fails with TimeoutError (default: 20)"), N_("S") },
    { "retryable", 0, 0, G_OPTION_ARG_STRING, &w->retryable,
      N_("The error types retried while a job has attempts left (default: ConnectionError,TimeoutError)"),
      N_("TYPES") },
    { "backoff-base", 0, 0, G_OPTION_ARG_DOUBLE, &w->backoff_base,
      N_("The first retry's wait is at most this many seconds, doubling for each attempt (default: 1)"), N_("S") },
    { "backoff-cap", 0, 0, G_OPTION_ARG_DOUBLE, &w->backoff_cap,
      N_("The longest wait before a retry, in seconds (default: 60)"), N_("S") },
    { "jitter", 0, 0, G_OPTION_ARG_STRING, &w->jitter,
      N_("Draw each wait below its bound (full), or wait the bound (none) (default: full)"), N_("full|none") },
    { "shutdown-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &w->shutdown_timeout,
      N_("After a signal, the most seconds the running jobs may take; 0 for no limit (default: 25)"), N_("S") },
    { "until-empty", 0, 0, G_OPTION_ARG_NONE, &w->until_empty,
      N_("End when the tenant has no job left pending, running or waiting for a retry"), NULL },
    { "store-error-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &w->store_error_timeout,
      N_("With --until-empty, give up (exit status 1) when the store keeps failing this many seconds "
         "(default: 60)"), N_("S") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &w->json, N_("Print the report as JSON"), NULL },
    { "verbose", 0, 0, G_OPTION_ARG_NONE, &w->verbose,
      N_("Print a line on standard error when a job starts and when it ends"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  w->workers = 4;
  w->queue_size = 4;
  w->lease = 30;
  w->heartbeat = 10;
  w->poll_interval = 0.25;
  w->item_timeout = 20;
  w->backoff_base = 1;
  w->backoff_cap = 60;
  w->shutdown_timeout = 25;
  w->store_error_timeout = 60;

  g_set_prgname ("sluice-run worker");
  g_option_context_set_summary (context,
                                _("Claims the tenant's jobs from a job store and runs them on a pool, each as "
                                  "its payload says, renewing their leases while they run. A signal stops "
                                  "it: the running jobs finish within the shutdown timeout; a second signal "
                                  "cancels them (their leases expire and another worker takes them)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);

  if (!g_option_context_parse (context, argc, argv, &error) || *argc > 1 ||
      (w->jitter != NULL && !g_str_equal (w->jitter, "full") && !g_str_equal (w->jitter, "none")))
    {
      if (error == NULL && *argc > 1)
        error = g_error_new (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("unexpected argument “%s”"), (*argv)[1]);
      else if (error == NULL)
        error = g_error_new (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                             _("--jitter “%s”: expected full or none"), w->jitter);
      g_printerr ("sluice-run worker: %s\n", error->message);
      g_printerr (_("Try “sluice-run %s --help” for more information.\n"), "worker");
      return FALSE;
    }

  if (w->tenant == NULL)
    w->tenant = g_strdup ("default");
  if (w->worker_id == NULL)
    w->worker_id = g_strdup_printf ("%s-%ld", g_get_host_name (), (long) getpid ());
  return TRUE;
}

/* "ConnectionError, TimeoutError" → its names; "" → none. */
static GStrv
split_types (const char *text)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) parts = g_strsplit (text != NULL ? text : "ConnectionError,TimeoutError", ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] != '\0')
        g_strv_builder_add (builder, parts[i]);
    }
  return g_strv_builder_end (builder);
}

/* ---- what the worker says ---------------------------------------------- */

static void
on_job_started (SluiceStoreHandler   *handler,
                const SluiceJobClaim *claim,
                gpointer              user_data)
{
  Worker *w = user_data;

  if (w->verbose)
    /* Translators: the job's operation key, its attempt, then its id. */
    g_printerr (_("sluice-run: job %s attempt %u started (%s)\n"), claim->job->operation_key,
                claim->job->attempts, claim->job->id);
}

static char *
describe_outcome (SluiceStoreOutcome  outcome,
                  const GError       *error,
                  gint64              available_at)
{
  g_autofree char *repr = error != NULL ? sluice_error_repr (error) : NULL;

  switch (outcome)
    {
    case SLUICE_STORE_OUTCOME_SUCCEEDED:
      return g_strdup (_("succeeded"));
    case SLUICE_STORE_OUTCOME_RETRY:
      /* Translators: %.3f is the seconds until the retry, %s the error. */
      return g_strdup_printf (_("failed, retry in %.3f s: %s"),
                              (double) MAX (available_at - g_get_real_time (), 0) / G_USEC_PER_SEC, repr);
    case SLUICE_STORE_OUTCOME_DEAD:
      /* Translators: %s is the error, such as ValueError('attempt 1 failed'). */
      return g_strdup_printf (_("dead: %s"), repr);
    case SLUICE_STORE_OUTCOME_LEASE_LOST:
      return g_strdup_printf (_("lease lost: %s"), repr);
    case SLUICE_STORE_OUTCOME_ABANDONED:
      return g_strdup (_("stopped by the shutdown, left to its lease"));
    case SLUICE_STORE_OUTCOME_CANCELLED:
      return g_strdup (_("cancelled by an operator"));
    case SLUICE_STORE_OUTCOME_STORE_ERROR:
    default:
      return g_strdup_printf (_("not recorded, left to its lease: %s"), repr);
    }
}

static void
on_job_finished (SluiceStoreHandler   *handler,
                 const SluiceJobClaim *claim,
                 SluiceStoreOutcome    outcome,
                 const GError         *error,
                 gint64                available_at,
                 gpointer              user_data)
{
  Worker *w = user_data;
  g_autofree char *what = NULL;

  w->outcomes[outcome]++;
  if (!w->verbose)
    return;
  what = describe_outcome (outcome, error, available_at);
  /* Translators: the job's operation key, its attempt, then what became of it. */
  g_printerr (_("sluice-run: job %s attempt %u %s\n"), claim->job->operation_key, claim->job->attempts, what);
}

static void
on_store_error (SluiceStoreSource *source,
                const GError      *error,
                gpointer           user_data)
{
  Worker *w = user_data;

  w->store_retries++;
  /* Translators: %s is what the store said; the worker tries again. */
  g_printerr (_("sluice-run: the store failed, trying again: %s\n"), error->message);
}

/* Job failures are the run's errors too: only this event tells that the
 * source, the store's side, failed. A claim the pool dropped unrun (a
 * stop, the shutdown deadline, a cancel) goes back to the store at once,
 * for another worker to claim. */
static void
on_event (const SluiceEvent *event,
          gpointer           user_data)
{
  Worker *w = user_data;

  if (event->kind == SLUICE_EVENT_SOURCE_ERROR && w->source_error == NULL)
    w->source_error = g_strdup (event->error_message);
  else if (event->kind == SLUICE_EVENT_ITEM_DROPPED && event->value != NULL)
    sluice_store_source_item_dropped (w->source, event->value);
}

/* ---- signals ----------------------------------------------------------- */

static gboolean
on_signal (gpointer user_data)
{
  Worker *w = user_data;

  w->n_signals++;
  if (w->run == NULL || w->finished)
    return G_SOURCE_CONTINUE;

  if (w->n_signals == 1)
    {
      g_printerr (_("sluice-run: stopping: the running jobs finish within the shutdown timeout "
                    "(signal again to cancel)\n"));
      sluice_pool_request_stop (w->pool);
    }
  else
    {
      g_printerr (_("sluice-run: cancelling: the running jobs are cancelled, their leases expire\n"));
      sluice_run_cancel (w->run);
    }
  return G_SOURCE_CONTINUE;
}

/* ---- the run ----------------------------------------------------------- */

static void read_results (Worker *w);

static void
on_results (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Worker *w = user_data;
  g_autoptr(GPtrArray) batch = NULL;
  g_autoptr(GError) error = NULL;

  /* The results are in the store: the pool's are only read, so that they
   * do not pile up. */
  batch = sluice_run_next_batch_finish (w->run, result, &error);
  if (batch != NULL)
    {
      read_results (w);
      return;
    }

  w->finished = TRUE;
  /* Failed jobs are the run's recorded errors; a cancel is a signal's. */
  if (error != NULL && !g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_GROUP) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    w->error = g_steal_pointer (&error);
}

static void
read_results (Worker *w)
{
  sluice_run_next_batch_async (w->run, 0, NULL, on_results, w);
}

static gboolean
build (Worker  *w,
       GError **error)
{
  g_autoptr(SluicePayloadHandler) payload = NULL;
  g_auto(GStrv) retryable = split_types (w->retryable);
  g_autofree char *title = NULL;
  g_autofree char *worker_label = NULL;

  w->clock = sluice_clock_new (SLUICE_CLOCK_REAL);
  w->source = g_initable_new (SLUICE_TYPE_STORE_SOURCE, NULL, error,
                              "store", w->store,
                              "clock", w->clock,
                              "tenant", w->tenant,
                              "owner", w->worker_id,
                              "lease", w->lease,
                              "poll-interval", w->poll_interval,
                              "store-error-timeout", w->store_error_timeout,
                              "until-empty", w->until_empty,
                              NULL);
  if (w->source == NULL)
    return FALSE;
  /* The worker's row, there before it says it is ready; it beats as
   * often as the heartbeat (the source keeps it, docs/store-admin.md). */
  if (!sluice_store_source_register_worker (w->source, w->heartbeat, error))
    return FALSE;

  payload = sluice_payload_handler_new (w->clock);
  w->handler = g_initable_new (SLUICE_TYPE_STORE_HANDLER, NULL, error,
                               "source", w->source,
                               "inner", payload,
                               "heartbeat", w->heartbeat,
                               "retryable", retryable,
                               "backoff-base", w->backoff_base,
                               "backoff-cap", w->backoff_cap,
                               "jitter", g_strcmp0 (w->jitter, "none") == 0 ? SLUICE_JITTER_NONE : SLUICE_JITTER_FULL,
                               /* Each worker its own draws: retries of a fleet spread out. */
                               "seed", g_random_int (),
                               /* The next job runs while the last one's completion commits
                                * (docs/job-store.md, "The completion path"). */
                               "pipelined-completions", TRUE,
                               NULL);
  if (w->handler == NULL)
    return FALSE;

  /* Translators: the pool's title in a monitor: the worker's name, then the store. */
  title = g_strdup_printf (_("worker %s on %s"), w->worker_id, w->described);
  /* Who it is as data for monitors, not in the translated title: the
   * store window finds a running job's lanes by its lease owner. */
  worker_label = g_strconcat ("worker-id=", w->worker_id, NULL);
  /* max-retries 0: the store retries, in any worker; keep-going: a failed
   * job is the store's business, not the end of the worker; keep-errors
   * off: the store keeps the failures, and a worker that runs for weeks
   * must not keep one error per failed attempt. */
  w->pool = g_initable_new (SLUICE_TYPE_POOL, NULL, error,
                            "handler", w->handler,
                            "clock", w->clock,
                            "workers", w->workers,
                            "queue-size", w->queue_size,
                            "item-timeout", w->item_timeout,
                            "max-retries", 0,
                            "keep-going", TRUE,
                            "keep-errors", FALSE,
                            "retryable", retryable,
                            "shutdown-timeout", w->shutdown_timeout,
                            "title", title,
                            "labels", (const char * const []) { worker_label, NULL },
                            NULL);
  if (w->pool == NULL)
    return FALSE;
  /* As many claims per round trip as the pool may hold unfinished (its
   * lead bound), the next claim out while the jobs run. */
  sluice_store_source_set_claim_ahead (w->source, (guint) (w->queue_size + w->workers + 1));

  g_signal_connect (w->handler, "job-started", G_CALLBACK (on_job_started), w);
  g_signal_connect (w->handler, "job-finished", G_CALLBACK (on_job_finished), w);
  g_signal_connect (w->source, "store-error", G_CALLBACK (on_store_error), w);
  sluice_pool_set_event_func (w->pool, on_event, w, NULL);

  w->run = sluice_pool_run (w->pool, SLUICE_SOURCE (w->source), error);
  return w->run != NULL;
}

static void
on_closed (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Worker *w = user_data;
  g_autoptr(GError) error = NULL;

  if (!sluice_store_source_close_finish (w->source, result, &error))
    g_warning ("%s", error->message);
  w->closed = TRUE;
}

/* The run has ended: the claims it never ran go back to the store, and
 * every store call comes back before the worker exits (bounded by the
 * store's own timeouts), so that no job waits out a lease for nobody. */
static void
close_source (Worker *w)
{
  sluice_store_source_close_async (w->source, NULL, on_closed, w);
  while (!w->closed)
    g_main_context_iteration (NULL, TRUE);
}

/* ---- the report -------------------------------------------------------- */

/* Claims neither handled nor handed back: left to their leases. */
static guint
unfinished_claims (Worker *w)
{
  return sluice_store_source_get_n_claims (w->source) + sluice_store_source_get_n_release_failed (w->source);
}

static gboolean
print_report (Worker *w)
{
  double elapsed = (double) (g_get_monotonic_time () - w->started_at) / G_USEC_PER_SEC;
  const guint64 *o = w->outcomes;
  guint n_claimed;

  if (w->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new_immutable ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "worker");
      json_builder_add_string_value (b, w->worker_id);
      json_builder_set_member_name (b, "store");
      json_builder_add_string_value (b, w->described);
      json_builder_set_member_name (b, "tenant");
      json_builder_add_string_value (b, w->tenant);
      json_builder_set_member_name (b, "claims");
      json_builder_add_int_value (b, sluice_store_source_get_n_claimed (w->source));
      json_builder_set_member_name (b, "max_claims");
      json_builder_add_int_value (b, sluice_store_source_get_max_claims (w->source));
      json_builder_set_member_name (b, "completed");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_SUCCEEDED]);
      json_builder_set_member_name (b, "retried");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_RETRY]);
      json_builder_set_member_name (b, "dead");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_DEAD]);
      json_builder_set_member_name (b, "lease_lost");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_LEASE_LOST]);
      json_builder_set_member_name (b, "abandoned");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_ABANDONED]);
      json_builder_set_member_name (b, "store_errors");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_STORE_ERROR]);
      json_builder_set_member_name (b, "cancelled");
      json_builder_add_int_value (b, (gint64) o[SLUICE_STORE_OUTCOME_CANCELLED]);
      /* Claimed, never run and handed back for another worker. */
      json_builder_set_member_name (b, "released");
      json_builder_add_int_value (b, sluice_store_source_get_n_released (w->source));
      /* Claimed, never run, and not taken back by the store: left to
       * their leases. */
      json_builder_set_member_name (b, "unfinished_claims");
      json_builder_add_int_value (b, unfinished_claims (w));
      json_builder_set_member_name (b, "store_retries");
      json_builder_add_int_value (b, (gint64) w->store_retries);
      json_builder_set_member_name (b, "signals");
      json_builder_add_int_value (b, w->n_signals);
      json_builder_set_member_name (b, "elapsed");
      json_builder_add_double_value (b, elapsed);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      return sluice_run_store_print_json (root);
    }

  /* Translators: the report's title: the worker's name, the store, the tenant. */
  printf (_("worker %s on %s (tenant %s)\n"), w->worker_id, w->described, w->tenant);
  /* Translators: what became of the claims of this worker; they add up
   * to the claims of the next line. */
  printf (_("completed %llu · retried %llu · dead %llu · lease lost %llu · released %llu · "
            "left to their lease %llu · not recorded %llu\n"),
          (unsigned long long) o[SLUICE_STORE_OUTCOME_SUCCEEDED], (unsigned long long) o[SLUICE_STORE_OUTCOME_RETRY],
          (unsigned long long) o[SLUICE_STORE_OUTCOME_DEAD], (unsigned long long) o[SLUICE_STORE_OUTCOME_LEASE_LOST],
          (unsigned long long) sluice_store_source_get_n_released (w->source),
          (unsigned long long) (o[SLUICE_STORE_OUTCOME_ABANDONED] + unfinished_claims (w)),
          (unsigned long long) o[SLUICE_STORE_OUTCOME_STORE_ERROR]);
  n_claimed = sluice_store_source_get_n_claimed (w->source);
  /* Translators: claims made, then seconds. */
  printf (ngettext ("%u claim in %.3f s\n", "%u claims in %.3f s\n", n_claimed), n_claimed, elapsed);
  return fflush (stdout) == 0 && !ferror (stdout);
}

/**
 * sluice_run_worker_main:
 * @argc: the argument count, the command first
 * @argv: the arguments
 *
 * Runs `sluice-run worker`.
 *
 * Returns: the exit status
 */
int
sluice_run_worker_main (int    argc,
                        char **argv)
{
  g_autoptr(GError) error = NULL;
  Worker w = { 0 };
  int status = SLUICE_RUN_EXIT_OK;

  if (!parse_worker_options (&w, &argc, &argv))
    {
      worker_clear (&w);
      return SLUICE_RUN_EXIT_USAGE;
    }

  /* From here on a signal never kills the worker: it stops or cancels. */
  w.sigint_id = g_unix_signal_add (SIGINT, on_signal, &w);
  w.sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &w);

  w.store = sluice_run_store_open (w.uri, w.init ? SLUICE_JOB_STORE_OPEN_INIT : SLUICE_JOB_STORE_OPEN_READ_WRITE,
                                   &status);
  if (w.store == NULL)
    {
      worker_clear (&w);
      return status;
    }
  w.described = sluice_job_store_describe_uri (w.uri);

  if (!build (&w, &error))
    {
      g_printerr ("sluice-run worker: %s\n", error->message);
      status = sluice_run_store_status_for (error);
      worker_clear (&w);
      return status;
    }

  w.started_at = g_get_monotonic_time ();
  read_results (&w);
  /* Translators: the worker's name, the store, the tenant: a program that
   * drives the worker waits for this line. */
  g_printerr (_("sluice-run: worker %s on %s (tenant %s) ready\n"), w.worker_id, w.described, w.tenant);

  while (!w.finished)
    g_main_context_iteration (NULL, TRUE);
  close_source (&w);

  if (w.error != NULL || w.source_error != NULL)
    {
      g_printerr ("sluice-run worker: %s\n", w.source_error != NULL ? w.source_error : w.error->message);
      status = SLUICE_RUN_EXIT_INTERNAL;
    }
  if (!print_report (&w) && status == SLUICE_RUN_EXIT_OK)
    {
      g_printerr ("sluice-run worker: %s\n", _("cannot write the report to standard output"));
      status = SLUICE_RUN_EXIT_INTERNAL;
    }

  worker_clear (&w);
  return status;
}
