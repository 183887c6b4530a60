/* sluice-run-store.c: sluice-run's job store commands (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sluice-run worker --store URI …        a long-lived worker (sluice-run-store-worker.c)
 * sluice-run enqueue --store URI …       adds jobs, idempotent by operation key
 * sluice-run store-status --store URI …  counts by state and the last failures
 *
 * URI: sqlite:FILE or postgresql://…; a password in it is never printed
 * (sluice_job_store_describe_uri()). Exit status: 0 when the command did
 * its work, 2 for bad arguments (a URI that names no store included), 1
 * when the store failed (no job store there included).
 *
 * store-status only reads: it opens the store read-only, and never makes,
 * migrates or converts it. enqueue and worker make a job store in a new
 * file or an empty database, and in a database with other tables only
 * with --init.
 */

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>

#include "sluice-behaviour.h"
#include "sluice-run-store.h"
#include "sluice-store-admin.h"

/* Enqueues in flight at once: the store queues them on its connection. */
#define ENQUEUE_WINDOW 64

/* ---- shared ------------------------------------------------------------ */

/**
 * sluice_run_store_is_command:
 * @name: the first argument of sluice-run
 *
 * Returns: whether @name is one of the job store's commands
 */
gboolean
sluice_run_store_is_command (const char *name)
{
  return g_strcmp0 (name, "worker") == 0 || g_strcmp0 (name, "enqueue") == 0 ||
         g_strcmp0 (name, "store-status") == 0 || g_strcmp0 (name, "store") == 0;
}

/**
 * sluice_run_store_describe:
 *
 * Returns: the lines of `sluice-run --help` that name the commands
 */
const char *
sluice_run_store_describe (void)
{
  return _("Job store commands (each has its own --help):\n"
           "  sluice-run worker --store sqlite:FILE|postgresql://… [OPTION…]\n"
           "  sluice-run enqueue --store … [--init] [--count N] [--behaviour B] [--delay S|--at TIME] [OPTION…]\n"
           "  sluice-run store-status --store … [--tenant T] [--json]\n"
           "  sluice-run store status|jobs|show|retry|cancel|discard|pause|resume|limit|workers|export --store … "
           "(docs/store-admin.md)");
}

/**
 * sluice_run_store_status_for:
 * @error: why a command failed
 *
 * Returns: the exit status for @error: 2 for bad arguments, 1 otherwise
 */
int
sluice_run_store_status_for (const GError *error)
{
  if (error->domain == G_OPTION_ERROR ||
      g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI) ||
      g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT) ||
      g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG))
    return SLUICE_RUN_EXIT_USAGE;
  return SLUICE_RUN_EXIT_INTERNAL;
}

/**
 * sluice_run_store_open:
 * @uri: (nullable): the --store argument
 * @mode: read-only for a command that only reads; read-write, or init
 *   with --init, for one that writes
 * @status: (out): the exit status when the store cannot be opened
 *
 * Opens the store, or says on standard error why not.
 *
 * Returns: (transfer full) (nullable): the store
 */
SluiceJobStore *
sluice_run_store_open (const char         *uri,
                       SluiceJobStoreOpen  mode,
                       int                *status)
{
  g_autoptr(GError) error = NULL;
  SluiceJobStore *store;

  if (uri == NULL)
    {
      g_printerr ("sluice-run: %s\n", _("--store is required: sqlite:FILE or postgresql://…"));
      *status = SLUICE_RUN_EXIT_USAGE;
      return NULL;
    }

  store = sluice_job_store_open_for_uri (uri, mode, &error);
  if (store == NULL)
    {
      g_printerr ("sluice-run: %s\n", error->message);
      *status = sluice_run_store_status_for (error);
    }
  return store;
}

/**
 * sluice_run_store_print_json:
 * @node: a JSON document
 *
 * Prints @node on standard output, indented, with a newline.
 *
 * Returns: %FALSE if standard output could not take it
 */
gboolean
sluice_run_store_print_json (JsonNode *node)
{
  g_autofree char *text = json_to_string (node, TRUE);

  return fputs (text, stdout) != EOF && fputs ("\n", stdout) != EOF && fflush (stdout) != EOF;
}

/**
 * sluice_run_store_on_ready:
 * @object: the store
 * @result: the call's result
 * @slot: (type GAsyncResult**): where it goes (a reference)
 *
 * The callback of a store's call that sluice_run_store_wait() waits for.
 */
void
sluice_run_store_on_ready (GObject      *object,
                           GAsyncResult *result,
                           gpointer      slot)
{
  *(GAsyncResult **) slot = g_object_ref (result);
}

/**
 * sluice_run_store_wait:
 * @slot: what sluice_run_store_on_ready() was given
 *
 * Iterates the main context (the store answers there) until the call
 * ended.
 *
 * Returns: (transfer none): its result, owned by @slot
 */
GAsyncResult *
sluice_run_store_wait (GAsyncResult **slot)
{
  while (*slot == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *slot;
}

static gboolean
parse_options (const char    *command,
               const char    *summary,
               GOptionEntry  *entries,
               int           *argc,
               char        ***argv)
{
  g_autofree char *prgname = g_strdup_printf ("sluice-run %s", command);
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  g_set_prgname (prgname);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (g_option_context_parse (context, argc, argv, &error) && *argc <= 1)
    return TRUE;

  if (error == NULL)
    error = g_error_new (G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("unexpected argument “%s”"), (*argv)[1]);
  g_printerr ("sluice-run %s: %s\n", command, error->message);
  /* Translators: %s is the command, such as worker. */
  g_printerr (_("Try “sluice-run %s --help” for more information.\n"), command);
  return FALSE;
}

/* ---- enqueue ----------------------------------------------------------- */

typedef struct {
  SluiceJobStore *store;
  char           *tenant;
  char           *key_prefix;
  char           *behaviour;
  gint            count;
  gint            max_attempts;
  gint            next;
  guint           in_flight;
  guint           created;
  guint           existing;
  guint8         *stored;     /* [count]: whether job I was stored (created or existing) */
  char           *delay;      /* --delay S, as given */
  char           *at;         /* --at TIME, as given */
  gint64          delay_us;   /* from --delay: 0 with neither */
  GDateTime      *at_time;    /* from --at */
  gint64          at_us;      /* the same, µs since the epoch */
  GError         *error;      /* the first failure */
} Enqueue;

/* One enqueue in flight: which job it is. */
typedef struct {
  Enqueue *e;
  gint     index;
} Call;

static void enqueue_more (Enqueue *e);

static void
on_enqueued (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autofree Call *call = user_data;
  Enqueue *e = call->e;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;

  e->in_flight--;
  job = sluice_job_store_enqueue_finish (e->store, result, &created, &error);
  if (job == NULL && e->error == NULL)
    e->error = g_steal_pointer (&error);
  else if (job != NULL)
    {
      e->stored[call->index] = TRUE;
      if (created)
        e->created++;
      else
        e->existing++;
    }
  enqueue_more (e);
}

/* One job, available now or later (--delay, --at: scheduled). */
static void
enqueue_one (Enqueue    *e,
             const char *key,
             const char *text,
             Call       *call)
{
  gint64 now = g_get_real_time ();

  if (e->delay == NULL && e->at == NULL)
    sluice_job_store_enqueue_async (e->store, e->tenant, key, text, (guint) e->max_attempts,
                                    now, NULL, on_enqueued, call);
  else
    sluice_store_enqueue_at_async (e->store, e->tenant, key, text, (guint) e->max_attempts, now,
                                   e->at_time != NULL ? e->at_us : now + e->delay_us,
                                   NULL, on_enqueued, call);
}

/* After a failure no more are started: those in flight still finish, and
 * the report says which jobs were not stored. */
static void
enqueue_more (Enqueue *e)
{
  while (e->error == NULL && e->next < e->count && e->in_flight < ENQUEUE_WINDOW)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
      g_autoptr(JsonNode) payload = NULL;
      g_autofree char *key = g_strdup_printf ("%s-%d", e->key_prefix, e->next);
      g_autofree char *text = NULL;
      Call *call = g_new0 (Call, 1);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "behaviour");
      json_builder_add_string_value (builder, e->behaviour);
      json_builder_set_member_name (builder, "value");
      json_builder_add_int_value (builder, e->next);
      json_builder_end_object (builder);
      payload = json_builder_get_root (builder);
      text = json_to_string (payload, FALSE);

      call->e = e;
      call->index = e->next++;
      e->in_flight++;
      enqueue_one (e, key, text, call);
    }
}

static gboolean
check_names (Enqueue  *e,
             GError  **error)
{
  g_autoptr(GError) local_error = NULL;
  /* The longest key is the last one's. */
  g_autofree char *last_key = g_strdup_printf ("%s-%d", e->key_prefix, MAX (e->count - 1, 0));

  if (!sluice_job_store_check_tenant (e->tenant, &local_error))
    {
      /* Translators: %s is what is wrong with the tenant. */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--tenant: %s"), local_error->message);
      return FALSE;
    }
  if (!sluice_job_store_check_operation_key (last_key, &local_error))
    {
      /* Translators: the last job's operation key, then what is wrong with it. */
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--key-prefix: the key %s: %s"),
                   last_key, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* --delay S (seconds, 0 or more) and --at TIME (ISO 8601), not both. */
static gboolean
check_schedule (Enqueue  *e,
                GError  **error)
{
  if (e->delay != NULL && e->at != NULL)
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--delay and --at: give one of them, not both"));
      return FALSE;
    }
  if (e->delay != NULL)
    {
      char *end = NULL;
      double seconds = g_ascii_strtod (e->delay, &end);

      if (e->delay[0] == '\0' || *end != '\0' || !isfinite (seconds) || seconds < 0 ||
          seconds > (double) G_MAXINT64 / G_USEC_PER_SEC / 2)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       /* Translators: %s is the value given */
                       _("--delay: expected seconds, a number of 0 or more (such as 30 or 1.5), not “%s”"),
                       e->delay);
          return FALSE;
        }
      e->delay_us = (gint64) (seconds * G_USEC_PER_SEC);
    }
  if (e->at != NULL)
    {
      g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();

      e->at_time = g_date_time_new_from_iso8601 (e->at, utc);
      if (e->at_time == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       /* Translators: %s is the value given */
                       _("--at: expected a time in ISO 8601, such as 2026-12-24T18:00:00Z "
                         "(without a zone: UTC), not “%s”"), e->at);
          return FALSE;
        }
      /* (g_date_time_to_unix_usec() is GLib 2.80's) */
      e->at_us = g_date_time_to_unix (e->at_time) * G_USEC_PER_SEC + g_date_time_get_microsecond (e->at_time);
    }
  return TRUE;
}

static gboolean
check_enqueue (Enqueue  *e,
               GError  **error)
{
  g_autoptr(SluiceBehaviour) behaviour = NULL;
  g_autoptr(GError) local_error = NULL;

  if (e->count < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--count must be 0 or more, not %d"), e->count);
      return FALSE;
    }
  if (e->max_attempts < 1)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--max-attempts must be 1 or more, not %d"), e->max_attempts);
      return FALSE;
    }
  if (e->key_prefix[0] == '\0' || e->tenant[0] == '\0')
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           _("--key-prefix and --tenant must not be empty"));
      return FALSE;
    }
  if (!check_names (e, error) || !check_schedule (e, error))
    return FALSE;
  behaviour = sluice_behaviour_parse (e->behaviour, &local_error);
  if (behaviour == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   /* Translators: %s is what is wrong with the behaviour. */
                   _("--behaviour: %s"), local_error->message);
      return FALSE;
    }
  return TRUE;
}

static void
add_counts (JsonBuilder *builder,
            Enqueue     *e,
            const char  *described)
{
  json_builder_set_member_name (builder, "store");
  json_builder_add_string_value (builder, described);
  json_builder_set_member_name (builder, "tenant");
  json_builder_add_string_value (builder, e->tenant);
  json_builder_set_member_name (builder, "created");
  json_builder_add_int_value (builder, e->created);
  json_builder_set_member_name (builder, "existing");
  json_builder_add_int_value (builder, e->existing);
}

static int
print_enqueued (Enqueue    *e,
                const char *uri,
                gboolean    json)
{
  g_autofree char *described = sluice_job_store_describe_uri (uri);

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      add_counts (builder, e, described);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      return sluice_run_store_print_json (root) ? SLUICE_RUN_EXIT_OK : SLUICE_RUN_EXIT_INTERNAL;
    }

  /* Translators: created N, existing M, then the store and the tenant. */
  printf (_("created %u, existing %u (store %s, tenant %s)\n"), e->created, e->existing, described, e->tenant);
  return fflush (stdout) == 0 ? SLUICE_RUN_EXIT_OK : SLUICE_RUN_EXIT_INTERNAL;
}

/* The runs of jobs not stored, as pairs of indexes [first, last]. */
static GArray *
not_stored_runs (Enqueue *e)
{
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (gint));

  for (gint i = 0; i < e->count; i++)
    {
      gint last = i;

      if (e->stored[i])
        continue;
      while (last + 1 < e->count && !e->stored[last + 1])
        last++;
      g_array_append_val (runs, i);
      g_array_append_val (runs, last);
      i = last;
    }
  return runs;
}

/* "job-46 … job-99, job-120": the first few runs of @runs. */
static char *
describe_runs (Enqueue *e,
               GArray  *runs)
{
  GString *text = g_string_new (NULL);
  const guint shown = 5;

  for (guint r = 0; r < runs->len / 2; r++)
    {
      gint first = g_array_index (runs, gint, 2 * r);
      gint last = g_array_index (runs, gint, 2 * r + 1);

      if (r == shown)
        {
          g_string_append (text, ", …");
          break;
        }
      if (r > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s-%d", e->key_prefix, first);
      if (last > first)
        g_string_append_printf (text, " … %s-%d", e->key_prefix, last);
    }
  return g_string_free (text, FALSE);
}

static void
add_runs (JsonBuilder *builder,
          Enqueue     *e,
          GArray      *runs)
{
  json_builder_set_member_name (builder, "not_stored_keys");
  json_builder_begin_array (builder);
  for (guint r = 0; r < runs->len / 2; r++)
    {
      g_autofree char *first = g_strdup_printf ("%s-%d", e->key_prefix, g_array_index (runs, gint, 2 * r));
      g_autofree char *last = g_strdup_printf ("%s-%d", e->key_prefix, g_array_index (runs, gint, 2 * r + 1));

      json_builder_begin_array (builder);
      json_builder_add_string_value (builder, first);
      json_builder_add_string_value (builder, last);
      json_builder_end_array (builder);
    }
  json_builder_end_array (builder);
}

/* A failure part-way: which jobs are in the store and which are not, on
 * standard error (and with --json the same on standard output). The
 * exit status is the failure's. */
static int
print_partial (Enqueue    *e,
               const char *uri,
               gboolean    json)
{
  g_autofree char *described = sluice_job_store_describe_uri (uri);
  g_autoptr(GArray) runs = not_stored_runs (e);
  g_autofree char *listed = describe_runs (e, runs);
  guint stored = e->created + e->existing;
  int status = sluice_run_store_status_for (e->error);

  g_printerr ("sluice-run enqueue: %s\n", e->error->message);
  g_printerr ("sluice-run enqueue: ");
  /* Translators: stored S of N jobs (created C, existing E); then the keys of the jobs
   * that were not stored and how many. */
  g_printerr (_("stored %u of %d jobs (created %u, existing %u); not stored: %s (%u jobs); "
                "the same command again adds only what is missing\n"),
              stored, e->count, e->created, e->existing, listed, (guint) e->count - stored);
  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      add_counts (builder, e, described);
      json_builder_set_member_name (builder, "not_stored");
      json_builder_add_int_value (builder, e->count - (gint) stored);
      add_runs (builder, e, runs);
      json_builder_set_member_name (builder, "error");
      json_builder_add_string_value (builder, e->error->message);
      json_builder_end_object (builder);
      root = json_builder_get_root (builder);
      sluice_run_store_print_json (root);
    }
  return status;
}

static int
enqueue_main (int    argc,
              char **argv)
{
  g_autofree char *uri = NULL;
  gboolean json = FALSE;
  gboolean init = FALSE;
  Enqueue e = { .count = 1, .max_attempts = 3 };
  g_autoptr(GError) error = NULL;
  int status = SLUICE_RUN_EXIT_OK;
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_STRING, &uri, N_("The job store"), N_("sqlite:FILE|postgresql://…") },
    { "init", 0, 0, G_OPTION_ARG_NONE, &init,
      N_("Make the job store in a database that has other tables (a new or empty one gets it anyway)"), NULL },
    { "tenant", 0, 0, G_OPTION_ARG_STRING, &e.tenant, N_("The tenant (queue) of the jobs (default: default)"), N_("T") },
    { "count", 0, 0, G_OPTION_ARG_INT, &e.count, N_("How many jobs (default: 1)"), N_("N") },
    { "behaviour", 0, 0, G_OPTION_ARG_STRING, &e.behaviour,
      N_("What the worker's handler does for each job, as in a scenario (default: ok)"), N_("B") },
    { "key-prefix", 0, 0, G_OPTION_ARG_STRING, &e.key_prefix,
      N_("The jobs' operation keys are P-0 … P-(N-1): enqueueing one twice adds nothing (default: job)"), N_("P") },
    { "max-attempts", 0, 0, G_OPTION_ARG_INT, &e.max_attempts, N_("The most attempts of each job (default: 3)"), N_("K") },
    { "delay", 0, 0, G_OPTION_ARG_STRING, &e.delay,
      N_("The jobs are scheduled: claimed no sooner than S seconds from now"), N_("S") },
    { "at", 0, 0, G_OPTION_ARG_STRING, &e.at,
      N_("The jobs are scheduled: claimed no sooner than TIME (ISO 8601; without a zone, UTC)"), N_("TIME") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the counts as JSON"), NULL },
    { NULL }
  };

  if (!parse_options ("enqueue", _("Adds jobs to a job store, each with the payload "
                                   "{\"behaviour\": B, \"value\": I}, and prints how many were created and "
                                   "how many existed already."),
                      entries, &argc, &argv))
    status = SLUICE_RUN_EXIT_USAGE;

  if (e.tenant == NULL)
    e.tenant = g_strdup ("default");
  if (e.key_prefix == NULL)
    e.key_prefix = g_strdup ("job");
  if (e.behaviour == NULL)
    e.behaviour = g_strdup ("ok");

  if (status == SLUICE_RUN_EXIT_OK && !check_enqueue (&e, &error))
    {
      g_printerr ("sluice-run enqueue: %s\n", error->message);
      status = SLUICE_RUN_EXIT_USAGE;
    }
  if (status == SLUICE_RUN_EXIT_OK)
    e.store = sluice_run_store_open (uri, init ? SLUICE_JOB_STORE_OPEN_INIT : SLUICE_JOB_STORE_OPEN_READ_WRITE,
                                     &status);

  if (e.store != NULL)
    {
      e.stored = g_new0 (guint8, e.count);
      enqueue_more (&e);
      while (e.in_flight > 0)
        g_main_context_iteration (NULL, TRUE);

      if (e.error != NULL)
        status = print_partial (&e, uri, json);
      else
        status = print_enqueued (&e, uri, json);
    }

  g_clear_object (&e.store);
  g_free (e.stored);
  g_clear_error (&e.error);
  g_free (e.tenant);
  g_free (e.key_prefix);
  g_free (e.behaviour);
  g_free (e.delay);
  g_free (e.at);
  g_clear_pointer (&e.at_time, g_date_time_unref);
  return status;
}

/* ---- store-status ------------------------------------------------------ */

static void
add_failure (JsonBuilder           *builder,
             const SluiceStoredJob *job)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, job->id);
  json_builder_set_member_name (builder, "tenant");
  json_builder_add_string_value (builder, job->tenant);
  json_builder_set_member_name (builder, "operation_key");
  json_builder_add_string_value (builder, job->operation_key);
  json_builder_set_member_name (builder, "state");
  json_builder_add_string_value (builder, sluice_stored_job_state_to_string (job->state));
  json_builder_set_member_name (builder, "attempts");
  json_builder_add_int_value (builder, job->attempts);
  json_builder_set_member_name (builder, "max_attempts");
  json_builder_add_int_value (builder, job->max_attempts);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, job->last_failure->type_name);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, job->last_failure->message);
  json_builder_set_member_name (builder, "code");
  json_builder_add_string_value (builder, job->last_failure->code);
  json_builder_set_member_name (builder, "retryable");
  json_builder_add_boolean_value (builder, job->last_failure->retryable);
  json_builder_set_member_name (builder, "updated_at");
  json_builder_add_int_value (builder, job->updated_at);
  json_builder_end_object (builder);
}

static guint64
total_of (const SluiceStoreStatus *status)
{
  guint64 total = 0;

  for (guint i = 0; i < SLUICE_STORED_JOB_N_STATES; i++)
    total += status->counts[i];
  return total;
}

static gboolean
print_status_json (SluiceJobStore          *store,
                   const SluiceStoreStatus *status,
                   const char              *described,
                   const char              *tenant,
                   GError                 **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new_immutable ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "store");
  json_builder_add_string_value (builder, described);
  json_builder_set_member_name (builder, "tenant");
  if (tenant != NULL)
    json_builder_add_string_value (builder, tenant);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "counts");
  json_builder_begin_object (builder);
  for (guint i = 0; i < SLUICE_STORED_JOB_N_STATES; i++)
    {
      json_builder_set_member_name (builder, sluice_stored_job_state_to_string (i));
      json_builder_add_int_value (builder, (gint64) status->counts[i]);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, (gint64) total_of (status));
  json_builder_set_member_name (builder, "failures");
  json_builder_begin_array (builder);
  for (guint i = 0; status->failures != NULL && i < status->failures->len; i++)
    {
      const SluiceStoredJob *job = g_ptr_array_index (status->failures, i);

      if (job->last_failure != NULL)
        add_failure (builder, job);
    }
  json_builder_end_array (builder);
  if (!sluice_run_store_admin_add_status (store, tenant, builder, error))
    return FALSE;
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  return sluice_run_store_print_json (root);
}

static gboolean
print_status_text (SluiceJobStore          *store,
                   const SluiceStoreStatus *status,
                   const char              *described,
                   const char              *tenant,
                   GError                 **error)
{
  if (tenant != NULL)
    /* Translators: the store, then the tenant. */
    printf (_("%s, tenant %s\n"), described, tenant);
  else
    /* Translators: %s is the store. */
    printf (_("%s, every tenant\n"), described);

  for (guint i = 0; i < SLUICE_STORED_JOB_N_STATES; i++)
    printf ("%s %" G_GUINT64_FORMAT " · ", sluice_stored_job_state_to_string (i), status->counts[i]);
  /* Translators: the end of the line of counts by state: all jobs. */
  printf ("%s %" G_GUINT64_FORMAT "\n", _("total"), total_of (status));

  if (status->failures != NULL && status->failures->len > 0)
    printf ("%s\n", _("Last failures:"));
  for (guint i = 0; status->failures != NULL && i < status->failures->len; i++)
    {
      const SluiceStoredJob *job = g_ptr_array_index (status->failures, i);
      const SluiceJobFailure *f = job->last_failure;

      if (f == NULL)
        continue;
      /* Translators: key, job id, state, attempts, max attempts, then the last failure's
       * type, message and code, such as “job-3 (a1b2…), dead, attempt 1 of 3: ValueError:
       * attempt 1 failed [VALUE_ERROR]”. */
      printf (_("  %s (%s), %s, attempt %u of %u: %s: %s [%s]\n"), job->operation_key, job->id,
              sluice_stored_job_state_to_string (job->state), job->attempts, job->max_attempts,
              f->type_name, f->message, f->code);
    }
  if (!sluice_run_store_admin_add_status (store, tenant, NULL, error))
    return FALSE;
  return fflush (stdout) == 0;
}

static int
status_main (int    argc,
             char **argv)
{
  g_autofree char *uri = NULL;
  g_autofree char *tenant = NULL;
  g_autofree char *described = NULL;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(GError) error = NULL;
  gboolean json = FALSE;
  gint n_failures = 5;
  int exit_status = SLUICE_RUN_EXIT_OK;
  g_autoptr(GAsyncResult) result = NULL;
  GOptionEntry entries[] = {
    { "store", 0, 0, G_OPTION_ARG_STRING, &uri, N_("The job store"), N_("sqlite:FILE|postgresql://…") },
    { "tenant", 0, 0, G_OPTION_ARG_STRING, &tenant, N_("Count only this tenant's jobs (default: every tenant)"), N_("T") },
    { "failures", 0, 0, G_OPTION_ARG_INT, &n_failures, N_("How many of the last failures to show (default: 5)"), N_("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the status as JSON"), NULL },
    { NULL }
  };

  if (!parse_options ("store-status", _("Prints how many jobs a job store holds in each state, and the "
                                        "last failures."), entries, &argc, &argv))
    return SLUICE_RUN_EXIT_USAGE;
  if (n_failures < 0)
    {
      g_printerr ("sluice-run store-status: %s\n", _("--failures must be 0 or more"));
      return SLUICE_RUN_EXIT_USAGE;
    }
  if (tenant != NULL && *tenant != '\0' && !sluice_job_store_check_tenant (tenant, &error))
    {
      g_printerr ("sluice-run store-status: --tenant: %s\n", error->message);
      return SLUICE_RUN_EXIT_USAGE;
    }

  /* Reading never makes nor converts a store: a typo names no file. */
  store = sluice_run_store_open (uri, SLUICE_JOB_STORE_OPEN_READ_ONLY, &exit_status);
  if (store == NULL)
    return exit_status;

  sluice_job_store_get_status_async (store, tenant, (guint) n_failures, NULL, sluice_run_store_on_ready, &result);
  status = sluice_job_store_get_status_finish (store, sluice_run_store_wait (&result), &error);
  g_clear_object (&result);
  if (status == NULL)
    {
      g_printerr ("sluice-run store-status: %s\n", error->message);
      return sluice_run_store_status_for (error);
    }

  described = sluice_job_store_describe_uri (uri);
  g_clear_error (&error);
  if (!(json ? print_status_json (store, status, described, tenant, &error)
             : print_status_text (store, status, described, tenant, &error)))
    {
      if (error == NULL)
        return SLUICE_RUN_EXIT_INTERNAL;
      g_printerr ("sluice-run store-status: %s\n", error->message);
      return sluice_run_store_status_for (error);
    }
  return exit_status;
}

/**
 * sluice_run_store_main:
 * @argc: sluice-run's argument count
 * @argv: its arguments: the command is argv[1]
 *
 * Runs one of the job store's commands.
 *
 * Returns: the exit status
 */
int
sluice_run_store_main (int    argc,
                       char **argv)
{
  const char *command = argv[1];

  /* The command takes the place of the program's name for GOption. */
  argv++;
  argc--;

  if (g_str_equal (command, "worker"))
    return sluice_run_worker_main (argc, argv);
  if (g_str_equal (command, "enqueue"))
    return enqueue_main (argc, argv);
  if (g_str_equal (command, "store"))
    {
      if (argc < 2)
        {
          g_printerr ("sluice-run store: %s\n", _("expected a verb: status, jobs, show, retry, cancel, discard, "
                                                  "pause, resume, limit, workers or export"));
          return SLUICE_RUN_EXIT_USAGE;
        }
      /* `store status` is store-status; the verb takes the place of the program's name. */
      if (g_str_equal (argv[1], "status"))
        return status_main (argc - 1, argv + 1);
      return sluice_run_store_admin_main (argc - 1, argv + 1);
    }
  return status_main (argc, argv);
}
