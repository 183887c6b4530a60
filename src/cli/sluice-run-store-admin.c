/* sluice-run-store-admin.c: `sluice-run store VERB`, operating a job store
 * (docs/store-admin.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sluice-run store status …                 counts, tenants, workers (store-status)
 * sluice-run store jobs [filters] …         lists jobs, newest first, a page at a time
 * sluice-run store show ID                  one job with its attempt history
 * sluice-run store retry|cancel|discard …   changes jobs, by id or by filter
 * sluice-run store pause|resume T, limit T N   tenant controls
 * sluice-run store workers [--prune]        the fleet and the claims it holds
 * sluice-run store export ID --scenario F   a scenario replaying its attempts
 *
 * Exit status: 0 when the verb did what was asked; 1 when a job named
 * does not exist or is in a state the verb does not apply to (each id is
 * reported), or the store failed; 2 for bad arguments, a change of more
 * than one job without --yes included (nothing is changed then). With
 * --json every verb prints one JSON object on standard output.
 *
 * Reading verbs open the store read-only; changing ones open it for
 * writing only once a read-only open found a job store there (an older
 * schema is migrated then), so that a typo in --store makes nothing.
 */

#include <glib/gi18n.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sluice-behaviour.h"
#include "sluice-run-store.h"
#include "sluice-store-admin.h"
#include "sluice-store-export.h"

/* The most jobs of one page of `store jobs`. */
#define MAX_PAGE 1000

typedef struct {
  const char *verb;
  char       *uri;
  gboolean    json;
  gboolean    yes;
  char       *tenant;
  char      **states;
  char       *key_prefix;
  char       *search;
  gint        limit;
  char       *after;
  char       *older_than;
  gboolean    reset_attempts;
  gboolean    prune;
  char       *scenario;
  char      **args;       /* the positional arguments */
  char       *described;
} Admin;

static void
admin_clear (Admin *a)
{
  g_free (a->uri);
  g_free (a->tenant);
  g_strfreev (a->states);
  g_free (a->key_prefix);
  g_free (a->search);
  g_free (a->after);
  g_free (a->older_than);
  g_free (a->scenario);
  g_strfreev (a->args);
  g_free (a->described);
}

static int
usage (Admin      *a,
       const char *message)
{
  g_printerr ("sluice-run store %s: %s\n", a->verb, message);
  /* Translators: %s is the verb, such as retry. */
  g_printerr (_("Try “sluice-run store %s --help” for more information.\n"), a->verb);
  return SLUICE_RUN_EXIT_USAGE;
}

/* Parses the verb's options; what is left are its positional arguments. */
static gboolean
parse (Admin         *a,
       const char    *parameters,
       const char    *summary,
       GOptionEntry  *entries,
       int            argc,
       char         **argv)
{
  g_autofree char *prgname = g_strdup_printf ("sluice-run store %s", a->verb);
  g_autoptr(GOptionContext) context = g_option_context_new (parameters);
  g_autoptr(GError) error = NULL;
  GOptionEntry common[] = {
    { "store", 0, 0, G_OPTION_ARG_STRING, &a->uri, N_("The job store"), N_("sqlite:FILE|postgresql://…") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &a->json, N_("Print one JSON object"), NULL },
    { NULL }
  };
  /* parse_strv() frees what it takes out of the copy (parse() would
   * leave it to us, and a g_strfreev() would stop at the new end). */
  g_auto(GStrv) args = g_strdupv (argv);

  g_set_prgname (prgname);
  g_option_context_set_summary (context, summary);
  g_option_context_add_main_entries (context, common, GETTEXT_PACKAGE);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      usage (a, error->message);
      return FALSE;
    }
  argc = (int) g_strv_length (args);
  a->args = g_new0 (char *, MAX (argc, 1));
  for (int i = 1; i < argc; i++)
    a->args[i - 1] = g_strdup (args[i]);
  if (a->uri == NULL)
    {
      usage (a, _("--store is required: sqlite:FILE or postgresql://…"));
      return FALSE;
    }
  a->described = sluice_job_store_describe_uri (a->uri);
  return TRUE;
}

/* ---- opening and waiting ----------------------------------------------- */

/* Whether there is a job store at a->uri (of this schema version, or one
 * a writer migrates): asked read-only, which makes nothing. */
static gboolean
probe_store (Admin  *a,
             int    *status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) probe = sluice_job_store_open_for_uri (a->uri, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  g_autoptr(SluiceStoreStatus) counts = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  if (probe != NULL)
    {
      /* PostgreSQL connects (and checks the schema) at the first request. */
      sluice_job_store_get_status_async (probe, NULL, 0, NULL, sluice_run_store_on_ready, &result);
      counts = sluice_job_store_get_status_finish (probe, sluice_run_store_wait (&result), &error);
    }
  /* An older schema: the writer's open migrates it. */
  if (error == NULL || g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_SCHEMA))
    return TRUE;
  g_printerr ("sluice-run store %s: %s\n", a->verb, error->message);
  *status = sluice_run_store_status_for (error);
  return FALSE;
}

/* A store to read, or one to change: opened for writing only when there
 * is a job store (probe_store(): a missing one is not made). */
static SluiceJobStore *
open_store (Admin    *a,
            gboolean  write,
            int      *status)
{
  SluiceJobStore *store;

  if (write && !probe_store (a, status))
    return NULL;
  store = sluice_run_store_open (a->uri, write ? SLUICE_JOB_STORE_OPEN_READ_WRITE
                                               : SLUICE_JOB_STORE_OPEN_READ_ONLY, status);
  if (store != NULL && !sluice_store_admin_supported (store))
    {
      g_printerr ("sluice-run store %s: %s\n", a->verb, _("this store does not answer admin queries"));
      *status = SLUICE_RUN_EXIT_INTERNAL;
      g_clear_object (&store);
    }
  return store;
}

/* Runs @query on @store and waits for its reply (iterating the main
 * context: the store answers there). */
static SluiceStoreAdminReply *
ask (SluiceJobStore         *store,
     SluiceStoreAdminQuery  *query,
     GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  if (query->now == 0)
    query->now = g_get_real_time ();
  sluice_store_admin_async (store, query, NULL, sluice_run_store_on_ready, &result);
  return sluice_store_admin_finish (store, sluice_run_store_wait (&result), error);
}

static int
store_failed (Admin        *a,
              const GError *error)
{
  g_printerr ("sluice-run store %s: %s\n", a->verb, error->message);
  return sluice_run_store_status_for (error);
}

/* Opens the store (for writing with @write) into *@store unless it is
 * open already, and asks it @query: its reply, or NULL with *@status set
 * and the failure printed. */
static SluiceStoreAdminReply *
open_and_ask (Admin                  *a,
              gboolean                write,
              SluiceJobStore        **store,
              SluiceStoreAdminQuery  *query,
              int                    *status)
{
  g_autoptr(GError) error = NULL;
  SluiceStoreAdminReply *reply;

  if (*store == NULL)
    *store = open_store (a, write, status);
  if (*store == NULL)
    return NULL;
  reply = ask (*store, query, &error);
  if (reply == NULL)
    *status = store_failed (a, error);
  return reply;
}

/* The exit status of a verb that printed text: @status, unless the text
 * could not be written. */
static int
finish_text (int status)
{
  return fflush (stdout) == 0 ? status : SLUICE_RUN_EXIT_INTERNAL;
}

/* Whether the verb was given no positional arguments, as it expects;
 * else its usage status in *@status. */
static gboolean
no_arguments (Admin *a,
              int   *status)
{
  if (a->args[0] == NULL)
    return TRUE;
  *status = usage (a, _("no positional arguments expected"));
  return FALSE;
}

/* Whether the verb was given one job id, as it expects. */
static gboolean
one_job_id (Admin *a,
            int   *status)
{
  if (a->args[0] != NULL && a->args[1] == NULL)
    return TRUE;
  *status = usage (a, _("expected one job id"));
  return FALSE;
}

/* ---- JSON -------------------------------------------------------------- */

static void
add_string (JsonBuilder *b,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

/* JSON text as a value (a payload, a result); text that does not parse
 * as a string. */
static void
add_json_text (JsonBuilder *b,
               const char  *name,
               const char  *text)
{
  g_autoptr(JsonNode) node = text != NULL ? json_from_string (text, NULL) : NULL;

  json_builder_set_member_name (b, name);
  if (node != NULL)
    json_builder_add_value (b, g_steal_pointer (&node));
  else if (text != NULL)
    json_builder_add_string_value (b, text);
  else
    json_builder_add_null_value (b);
}

static void
add_failure (JsonBuilder            *b,
             const char             *name,
             const SluiceJobFailure *f)
{
  json_builder_set_member_name (b, name);
  if (f == NULL)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  add_string (b, "type", f->type_name);
  add_string (b, "message", f->message);
  add_string (b, "code", f->code);
  json_builder_set_member_name (b, "retryable");
  json_builder_add_boolean_value (b, f->retryable);
  json_builder_end_object (b);
}

/* A job as `jobs` lists it (and `show` with its payload and result). */
static void
add_job (JsonBuilder           *b,
         const SluiceStoredJob *job,
         gboolean               full)
{
  json_builder_begin_object (b);
  add_string (b, "id", job->id);
  add_string (b, "tenant", job->tenant);
  add_string (b, "operation_key", job->operation_key);
  add_string (b, "state", sluice_stored_job_state_to_string (job->state));
  add_int (b, "attempts", job->attempts);
  add_int (b, "max_attempts", job->max_attempts);
  add_int (b, "created_at", job->created_at);
  add_int (b, "updated_at", job->updated_at);
  add_int (b, "available_at", job->available_at);
  add_string (b, "lease_owner", job->lease_owner);
  json_builder_set_member_name (b, "lease_expires_at");
  if (job->state == SLUICE_STORED_JOB_RUNNING)
    json_builder_add_int_value (b, job->lease_expires_at);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "cancel_requested");
  json_builder_add_boolean_value (b, job->cancel_requested);
  add_failure (b, "last_failure", job->last_failure);
  if (full)
    {
      add_json_text (b, "payload", job->payload);
      add_json_text (b, "result", job->result);
    }
  json_builder_end_object (b);
}

static int
print_json (JsonBuilder *b,
            int          status)
{
  g_autoptr(JsonNode) root = json_builder_get_root (b);

  if (!sluice_run_store_print_json (root))
    return SLUICE_RUN_EXIT_INTERNAL;
  return status;
}

static JsonBuilder *
begin_json (Admin *a)
{
  JsonBuilder *b = json_builder_new_immutable ();

  json_builder_begin_object (b);
  add_string (b, "store", a->described);
  add_string (b, "verb", a->verb);
  return b;
}

/* ---- text ---------------------------------------------------------------- */

/* "3m 12s ago"-like age of @then at @now, short. */
static char *
format_age (gint64 now,
            gint64 then)
{
  gint64 s = MAX (now - then, 0) / G_USEC_PER_SEC;

  if (s < 60)
    return g_strdup_printf ("%" G_GINT64_FORMAT "s", s);
  if (s < 3600)
    return g_strdup_printf ("%" G_GINT64_FORMAT "m%02" G_GINT64_FORMAT "s", s / 60, s % 60);
  if (s < 86400)
    return g_strdup_printf ("%" G_GINT64_FORMAT "h%02" G_GINT64_FORMAT "m", s / 3600, (s % 3600) / 60);
  return g_strdup_printf ("%" G_GINT64_FORMAT "d%02" G_GINT64_FORMAT "h", s / 86400, (s % 86400) / 3600);
}

static void
print_job_line (const SluiceStoredJob *job,
                gint64                 now)
{
  g_autofree char *age = format_age (now, job->created_at);

  /* id, state, tenant, key, attempts of max, age */
  printf ("%s  %-10s  %s  %s  %u/%u  %s%s\n", job->id, sluice_stored_job_state_to_string (job->state),
          job->tenant, job->operation_key, job->attempts, job->max_attempts, age,
          job->cancel_requested ? _("  (cancel asked)") : "");
}

/* ---- arguments ------------------------------------------------------------ */

/* The bits of --state …, each one of @allowed (bits). */
static gboolean
parse_states (Admin  *a,
              guint   allowed,
              guint  *states,
              int    *status)
{
  *states = 0;
  for (guint i = 0; a->states != NULL && a->states[i] != NULL; i++)
    {
      SluiceStoredJobState state;

      if (!sluice_stored_job_state_from_string (a->states[i], &state) || !(allowed & (1u << state)))
        {
          g_autoptr(GString) names = g_string_new (NULL);
          g_autofree char *message = NULL;

          for (guint s = 0; s < SLUICE_STORED_JOB_N_STATES; s++)
            if (allowed & (1u << s))
              g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "",
                                      sluice_stored_job_state_to_string (s));
          /* Translators: the state given, then the states allowed. */
          message = g_strdup_printf (_("--state %s: expected one of %s"), a->states[i], names->str);
          *status = usage (a, message);
          return FALSE;
        }
      *states |= 1u << state;
    }
  return TRUE;
}

static gboolean
check_tenant (Admin      *a,
              const char *tenant,
              int        *status)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;

  if (tenant == NULL || sluice_job_store_check_tenant (tenant, &error))
    return TRUE;
  message = g_strdup_printf ("--tenant: %s", error != NULL ? error->message : tenant);
  *status = usage (a, message);
  return FALSE;
}

/* A duration: seconds, or a number with s, m, h or d. */
static gboolean
parse_duration (const char *text,
                gint64     *us)
{
  char *end = NULL;
  double value;
  double unit = 1;

  if (text == NULL || *text == '\0')
    return FALSE;
  value = g_ascii_strtod (text, &end);
  if (end == text || value < 0)
    return FALSE;
  if (g_str_equal (end, "") || g_str_equal (end, "s"))
    unit = 1;
  else if (g_str_equal (end, "m"))
    unit = 60;
  else if (g_str_equal (end, "h"))
    unit = 3600;
  else if (g_str_equal (end, "d"))
    unit = 86400;
  else
    return FALSE;
  *us = (gint64) (value * unit * G_USEC_PER_SEC);
  return TRUE;
}

/* ---- jobs, show ------------------------------------------------------------------- */

#define ALL_STATES ((1u << SLUICE_STORED_JOB_N_STATES) - 1)

static int
jobs_main (Admin              *a,
           SluiceStoreAdminOp  op,
           int                 argc,
           char              **argv)
{
  GOptionEntry entries[] = {
    { "tenant", 0, 0, G_OPTION_ARG_STRING, &a->tenant, N_("Only this tenant's jobs"), N_("T") },
    { "state", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->states, N_("Only jobs in this state (again for more)"), N_("S") },
    { "key-prefix", 0, 0, G_OPTION_ARG_STRING, &a->key_prefix, N_("Only jobs whose operation key starts so"), N_("P") },
    { "search", 0, 0, G_OPTION_ARG_STRING, &a->search,
      N_("Text in the operation key or the payload; K:V also matches a payload member K of value V"), N_("TEXT") },
    { "limit", 0, 0, G_OPTION_ARG_INT, &a->limit, N_("The most jobs of the page (default: 50)"), N_("N") },
    { "after", 0, 0, G_OPTION_ARG_STRING, &a->after, N_("The page after this job (the last one's id)"), N_("ID") },
    { NULL }
  };
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_LIST_JOBS);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  int status = SLUICE_RUN_EXIT_OK;

  a->limit = 50;
  if (!parse (a, NULL, _("Lists jobs, newest first, a page at a time (--after the last one's id for the next)."),
              entries, argc, argv))
    return SLUICE_RUN_EXIT_USAGE;
  if (!no_arguments (a, &status))
    return status;
  if (a->limit < 1 || a->limit > MAX_PAGE)
    return usage (a, _("--limit must be between 1 and 1000"));
  if (!parse_states (a, ALL_STATES, &query->states, &status) || !check_tenant (a, a->tenant, &status))
    return status;

  query->tenant = g_strdup (a->tenant);
  query->key_prefix = g_strdup (a->key_prefix);
  query->search = a->search != NULL && *a->search != '\0' ? g_strdup (a->search) : NULL;
  query->limit = (guint) a->limit;
  query->after = g_strdup (a->after);
  reply = open_and_ask (a, FALSE, &store, query, &status);
  if (reply == NULL)
    return status;

  if (a->json)
    {
      g_autoptr(JsonBuilder) b = begin_json (a);

      json_builder_set_member_name (b, "jobs");
      json_builder_begin_array (b);
      for (guint i = 0; i < reply->jobs->len; i++)
        add_job (b, g_ptr_array_index (reply->jobs, i), FALSE);
      json_builder_end_array (b);
      add_string (b, "next", reply->next);
      json_builder_end_object (b);
      return print_json (b, SLUICE_RUN_EXIT_OK);
    }
  for (guint i = 0; i < reply->jobs->len; i++)
    print_job_line (g_ptr_array_index (reply->jobs, i), query->now);
  if (reply->jobs->len == 0)
    printf ("%s\n", _("no jobs"));
  if (reply->next != NULL)
    /* Translators: %s is the last job's id; the command for the next page. */
    printf (_("more: --after %s\n"), reply->next);
  return finish_text (SLUICE_RUN_EXIT_OK);
}

static void
add_attempt (JsonBuilder              *b,
             const SluiceStoreAttempt *attempt)
{
  json_builder_begin_object (b);
  add_int (b, "attempt", attempt->number);
  add_string (b, "worker", attempt->worker);
  add_int (b, "started_at", attempt->started_at);
  json_builder_set_member_name (b, "ended_at");
  if (attempt->ended_at != 0)
    json_builder_add_int_value (b, attempt->ended_at);
  else
    json_builder_add_null_value (b);
  add_string (b, "outcome", sluice_store_attempt_outcome_to_string (attempt->outcome));
  add_failure (b, "error", attempt->error);
  json_builder_end_object (b);
}

static void
print_show_text (const SluiceStoreAdminReply *reply,
                 gint64                       now)
{
  const SluiceStoredJob *job = g_ptr_array_index (reply->jobs, 0);

  printf ("%s %s\n", _("job"), job->id);
  printf ("  %s: %s\n", _("tenant"), job->tenant);
  printf ("  %s: %s\n", _("key"), job->operation_key);
  printf ("  %s: %s%s\n", _("state"), sluice_stored_job_state_to_string (job->state),
          job->cancel_requested ? _(" (cancel asked)") : "");
  printf ("  %s: %u/%u\n", _("attempts"), job->attempts, job->max_attempts);
  if (job->state == SLUICE_STORED_JOB_RUNNING)
    printf ("  %s: %s, %s %.1f s\n", _("lease"), job->lease_owner, _("expires in"),
            (double) (job->lease_expires_at - now) / G_USEC_PER_SEC);
  printf ("  %s: %s\n", _("payload"), job->payload);
  if (job->result != NULL)
    printf ("  %s: %s\n", _("result"), job->result);
  if (job->last_failure != NULL)
    printf ("  %s: %s: %s [%s]\n", _("last failure"), job->last_failure->type_name, job->last_failure->message,
            job->last_failure->code);
  if (reply->attempts_dropped > 0)
    /* Translators: %u attempts older than the history keeps. */
    printf (_("  history (%u older attempts not kept):\n"), reply->attempts_dropped);
  else if (reply->attempts->len > 0)
    printf ("  %s:\n", _("history"));
  for (guint i = 0; i < reply->attempts->len; i++)
    {
      const SluiceStoreAttempt *at = g_ptr_array_index (reply->attempts, i);

      printf ("    #%u %s %s", at->number, sluice_store_attempt_outcome_to_string (at->outcome),
              at->worker != NULL ? at->worker : "?");
      if (at->ended_at != 0)
        printf (" %.3f s", (double) (at->ended_at - at->started_at) / G_USEC_PER_SEC);
      if (at->error != NULL)
        printf (": %s: %s", at->error->type_name, at->error->message);
      printf ("\n");
    }
}

static int
show_main (Admin              *a,
           SluiceStoreAdminOp  op,
           int                 argc,
           char              **argv)
{
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_SHOW);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  int status = SLUICE_RUN_EXIT_OK;

  if (!parse (a, "ID", _("Shows one job: payload, state, attempts, lease, result and attempt history."),
              NULL, argc, argv))
    return SLUICE_RUN_EXIT_USAGE;
  if (!one_job_id (a, &status))
    return status;

  query->ids = g_strdupv ((char *[]) { a->args[0], NULL });
  reply = open_and_ask (a, FALSE, &store, query, &status);
  if (reply == NULL)
    return status;
  if (reply->jobs->len == 0)
    {
      /* Translators: %s is a job's id. */
      g_printerr ("sluice-run store show: %s\n", _("no such job"));
      status = SLUICE_RUN_EXIT_INTERNAL;
    }

  if (a->json)
    {
      g_autoptr(JsonBuilder) b = begin_json (a);

      add_string (b, "id", a->args[0]);
      json_builder_set_member_name (b, "job");
      if (reply->jobs->len == 0)
        json_builder_add_null_value (b);
      else
        add_job (b, g_ptr_array_index (reply->jobs, 0), TRUE);
      json_builder_set_member_name (b, "history");
      json_builder_begin_array (b);
      for (guint i = 0; i < reply->attempts->len; i++)
        add_attempt (b, g_ptr_array_index (reply->attempts, i));
      json_builder_end_array (b);
      add_int (b, "attempts_dropped", reply->attempts_dropped);
      json_builder_end_object (b);
      return print_json (b, status);
    }
  if (reply->jobs->len > 0)
    print_show_text (reply, query->now);
  return finish_text (status);
}

/* ---- retry, cancel, discard -------------------------------------------------------- */

static int
report_change (Admin                       *a,
               const SluiceStoreAdminReply *reply)
{
  int status = SLUICE_RUN_EXIT_OK;
  gboolean unconfirmed = reply->matched > 1 && !a->yes;

  for (guint i = 0; i < reply->items->len; i++)
    {
      const SluiceStoreAdminItem *item = g_ptr_array_index (reply->items, i);

      if (item->change == SLUICE_STORE_ADMIN_NOT_FOUND)
        {
          /* Translators: the verb, then a job's id. */
          g_printerr (_("sluice-run store %s: %s: no such job\n"), a->verb, item->id);
          status = SLUICE_RUN_EXIT_INTERNAL;
        }
      else if (item->change == SLUICE_STORE_ADMIN_NOT_APPLICABLE)
        {
          /* Translators: the verb, a job's id, its state. */
          g_printerr (_("sluice-run store %s: %s: not applicable to a job in state %s\n"), a->verb, item->id,
                      sluice_stored_job_state_to_string (item->state));
          status = SLUICE_RUN_EXIT_INTERNAL;
        }
    }
  if (unconfirmed)
    {
      /* Translators: the verb, then how many jobs it would change. */
      g_printerr (_("sluice-run store %s: this would change %llu jobs: nothing was changed; "
                    "add --yes to change them\n"), a->verb, (unsigned long long) reply->matched);
      status = SLUICE_RUN_EXIT_USAGE;
    }

  if (a->json)
    {
      g_autoptr(JsonBuilder) b = begin_json (a);

      add_int (b, "matched", (gint64) reply->matched);
      add_int (b, "changed", (gint64) reply->changed);
      json_builder_set_member_name (b, "needs_yes");
      json_builder_add_boolean_value (b, unconfirmed);
      json_builder_set_member_name (b, "jobs");
      json_builder_begin_array (b);
      for (guint i = 0; i < reply->items->len; i++)
        {
          const SluiceStoreAdminItem *item = g_ptr_array_index (reply->items, i);

          json_builder_begin_object (b);
          add_string (b, "id", item->id);
          add_string (b, "result", unconfirmed && item->change != SLUICE_STORE_ADMIN_NOT_FOUND &&
                                   item->change != SLUICE_STORE_ADMIN_NOT_APPLICABLE
                                     ? "unchanged" : sluice_store_admin_change_to_string (item->change));
          add_string (b, "state", item->change != SLUICE_STORE_ADMIN_NOT_FOUND
                                    ? sluice_stored_job_state_to_string (item->state) : NULL);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      return print_json (b, status);
    }
  /* Translators: the verb (retry, cancel, discard), then how many jobs it changed. */
  printf (_("%s: changed %llu jobs\n"), a->verb, (unsigned long long) reply->changed);
  for (guint i = 0; i < reply->items->len; i++)
    {
      const SluiceStoreAdminItem *item = g_ptr_array_index (reply->items, i);

      if (item->change == SLUICE_STORE_ADMIN_REQUESTED && !unconfirmed)
        /* Translators: a job's id: it runs, and its worker is told to cancel it. */
        printf (_("  %s runs: its worker cancels it at its next heartbeat\n"), item->id);
    }
  return finish_text (status);
}

static int
change_main (Admin              *a,
             SluiceStoreAdminOp  op,
             int                 argc,
             char              **argv)
{
  GOptionEntry entries[] = {
    { "state", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->states,
      N_("Every job in this state (again for more), instead of ids"), N_("S") },
    { "tenant", 0, 0, G_OPTION_ARG_STRING, &a->tenant, N_("With --state: only this tenant's jobs"), N_("T") },
    { "yes", 0, 0, G_OPTION_ARG_NONE, &a->yes, N_("Change more than one job"), NULL },
    { NULL }
  };
  GOptionEntry retry_entries[] = {
    { "reset-attempts", 0, 0, G_OPTION_ARG_NONE, &a->reset_attempts,
      N_("The attempts count from 0 again (else the job has one more)"), NULL },
    { NULL }
  };
  GOptionEntry discard_entries[] = {
    { "older-than", 0, 0, G_OPTION_ARG_STRING, &a->older_than,
      N_("With --state: only jobs that last changed longer ago than this (such as 90s, 30m, 12h, 7d)"),
      N_("DURATION") },
    { NULL }
  };
  GOptionEntry all[G_N_ELEMENTS (entries) + 1];
  static const char *const summaries[] = {
    [SLUICE_STORE_ADMIN_RETRY] = N_("Makes dead, waiting or cancelled jobs pending now."),
    [SLUICE_STORE_ADMIN_CANCEL] = N_("Cancels jobs: waiting ones at once; a running one's worker cancels its "
                                     "attempt at its next heartbeat."),
    [SLUICE_STORE_ADMIN_DISCARD] = N_("Deletes jobs that do not run, with their history."),
  };
  guint allowed;
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (op);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  int status = SLUICE_RUN_EXIT_OK;
  gint64 older = 0;

  memcpy (all, entries, sizeof entries);
  if (op == SLUICE_STORE_ADMIN_RETRY)
    all[G_N_ELEMENTS (entries) - 1] = retry_entries[0];
  else if (op == SLUICE_STORE_ADMIN_DISCARD)
    all[G_N_ELEMENTS (entries) - 1] = discard_entries[0];
  all[G_N_ELEMENTS (entries)] = (GOptionEntry) { NULL };
  if (!parse (a, _("[ID…]"), _(summaries[op]), all, argc, argv))
    return SLUICE_RUN_EXIT_USAGE;

  /* The states a verb takes by filter (the spec's table). */
  switch (op)
    {
    case SLUICE_STORE_ADMIN_RETRY:
      allowed = (1u << SLUICE_STORED_JOB_DEAD) | (1u << SLUICE_STORED_JOB_RETRY_WAIT);
      break;
    case SLUICE_STORE_ADMIN_CANCEL:
      allowed = (1u << SLUICE_STORED_JOB_PENDING) | (1u << SLUICE_STORED_JOB_RETRY_WAIT);
      break;
    default:
      allowed = (1u << SLUICE_STORED_JOB_DEAD) | (1u << SLUICE_STORED_JOB_CANCELLED) |
                (1u << SLUICE_STORED_JOB_SUCCEEDED);
      break;
    }
  if (!parse_states (a, allowed, &query->states, &status) || !check_tenant (a, a->tenant, &status))
    return status;
  if (a->args[0] != NULL && query->states != 0)
    return usage (a, _("give job ids or --state, not both"));
  if (a->args[0] == NULL && query->states == 0)
    return usage (a, _("give job ids, or --state to change every job in a state"));
  if (a->args[0] != NULL && (a->tenant != NULL || a->older_than != NULL))
    return usage (a, _("--tenant and --older-than go with --state, not with ids"));
  if (a->older_than != NULL && !parse_duration (a->older_than, &older))
    return usage (a, _("--older-than: expected a duration such as 90, 90s, 30m, 12h or 7d"));

  if (a->args[0] != NULL)
    query->ids = g_strdupv (a->args);
  query->tenant = g_strdup (a->tenant);
  query->reset_attempts = a->reset_attempts;
  query->confirmed = a->yes;
  query->now = g_get_real_time ();
  query->older_than = older > 0 ? query->now - older : 0;
  reply = open_and_ask (a, TRUE, &store, query, &status);
  if (reply == NULL)
    return status;
  return report_change (a, reply);
}

/* ---- pause, resume, limit ------------------------------------------------------------- */

static int
tenant_main (Admin              *a,
             SluiceStoreAdminOp  op,
             int                 argc,
             char              **argv)
{
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (op);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(SluiceStoreAdminQuery) read = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_TENANTS);
  const SluiceStoreTenant *tenant = NULL;
  int status = SLUICE_RUN_EXIT_OK;
  guint n_args = op == SLUICE_STORE_ADMIN_LIMIT ? 2 : 1;

  if (!parse (a, op == SLUICE_STORE_ADMIN_LIMIT ? "T N|none" : "T",
              op == SLUICE_STORE_ADMIN_PAUSE ? _("Pauses a tenant: its jobs are not claimed; running ones finish.")
              : op == SLUICE_STORE_ADMIN_RESUME ? _("Resumes a paused tenant.")
              : _("Limits how many of a tenant's jobs run at once, across all workers (none: no limit)."),
              NULL, argc, argv))
    return SLUICE_RUN_EXIT_USAGE;
  if (g_strv_length (a->args) != n_args)
    return usage (a, op == SLUICE_STORE_ADMIN_LIMIT ? _("expected a tenant and a limit") : _("expected a tenant"));
  if (!check_tenant (a, a->args[0], &status))
    return status;
  if (op == SLUICE_STORE_ADMIN_LIMIT && !g_str_equal (a->args[1], "none"))
    {
      char *end = NULL;
      gint64 n = g_ascii_strtoll (a->args[1], &end, 10);

      if (end == a->args[1] || *end != '\0' || n < 0 || n > G_MAXINT32)
        return usage (a, _("the limit must be a number of jobs (0 or more), or none"));
      query->concurrency = n;
    }

  query->tenant = g_strdup (a->args[0]);
  reply = open_and_ask (a, TRUE, &store, query, &status);
  if (reply == NULL)
    return status;
  /* The tenant as it is now, for the report. */
  g_clear_pointer (&reply, sluice_store_admin_reply_free);
  read->tenant = g_strdup (a->args[0]);
  reply = open_and_ask (a, TRUE, &store, read, &status);
  if (reply == NULL)
    return status;
  if (reply->tenants->len > 0)
    tenant = g_ptr_array_index (reply->tenants, 0);

  if (a->json)
    {
      g_autoptr(JsonBuilder) b = begin_json (a);

      add_string (b, "tenant", a->args[0]);
      json_builder_set_member_name (b, "paused");
      json_builder_add_boolean_value (b, tenant != NULL && tenant->paused);
      json_builder_set_member_name (b, "limit");
      if (tenant != NULL && tenant->concurrency >= 0)
        json_builder_add_int_value (b, tenant->concurrency);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
      return print_json (b, SLUICE_RUN_EXIT_OK);
    }
  if (tenant != NULL && tenant->concurrency >= 0)
    /* Translators: a tenant, paused or running, then its limit. */
    printf (_("tenant %s: %s, at most %lld running\n"), a->args[0],
            tenant->paused ? _("paused") : _("active"), (long long) tenant->concurrency);
  else
    /* Translators: a tenant, then paused or active. */
    printf (_("tenant %s: %s, no limit\n"), a->args[0], tenant != NULL && tenant->paused ? _("paused") : _("active"));
  return finish_text (SLUICE_RUN_EXIT_OK);
}

/* ---- workers ------------------------------------------------------------------------------ */

static void
add_worker (JsonBuilder             *b,
            const SluiceStoreWorker *w)
{
  g_auto(GStrv) tenants = g_strsplit (w->tenants != NULL ? w->tenants : "", ",", -1);

  json_builder_begin_object (b);
  add_string (b, "id", w->id);
  add_string (b, "host", w->host);
  add_int (b, "pid", w->pid);
  add_int (b, "started_at", w->started_at);
  add_int (b, "heartbeat_at", w->heartbeat_at);
  add_int (b, "lease", w->lease);
  json_builder_set_member_name (b, "lost");
  json_builder_add_boolean_value (b, w->lost);
  json_builder_set_member_name (b, "tenants");
  json_builder_begin_array (b);
  for (guint i = 0; tenants[i] != NULL; i++)
    if (*tenants[i] != '\0')
      json_builder_add_string_value (b, tenants[i]);
  json_builder_end_array (b);
  add_int (b, "done", (gint64) w->done);
  add_int (b, "failed", (gint64) w->failed);
  json_builder_set_member_name (b, "claims");
  json_builder_begin_array (b);
  for (guint i = 0; w->claims != NULL && i < w->claims->len; i++)
    {
      const SluiceStoredJob *job = g_ptr_array_index (w->claims, i);

      json_builder_begin_object (b);
      add_string (b, "id", job->id);
      add_string (b, "tenant", job->tenant);
      add_string (b, "operation_key", job->operation_key);
      add_int (b, "attempt", job->attempts);
      add_int (b, "lease_expires_at", job->lease_expires_at);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static int
workers_main (Admin              *a,
              SluiceStoreAdminOp  op,
              int                 argc,
              char              **argv)
{
  GOptionEntry entries[] = {
    { "prune", 0, 0, G_OPTION_ARG_NONE, &a->prune, N_("Delete the rows of lost workers"), NULL },
    { NULL }
  };
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  int status = SLUICE_RUN_EXIT_OK;

  if (!parse (a, NULL, _("Lists the workers, their heartbeats and the claims they hold; lost ones are "
                         "those whose heartbeat is older than 3 leases."), entries, argc, argv))
    return SLUICE_RUN_EXIT_USAGE;
  if (!no_arguments (a, &status))
    return status;
  query = sluice_store_admin_query_new (a->prune ? SLUICE_STORE_ADMIN_PRUNE_WORKERS : SLUICE_STORE_ADMIN_WORKERS);
  reply = open_and_ask (a, a->prune, &store, query, &status);
  if (reply == NULL)
    return status;

  if (a->json)
    {
      g_autoptr(JsonBuilder) b = begin_json (a);

      json_builder_set_member_name (b, a->prune ? "pruned" : "workers");
      json_builder_begin_array (b);
      for (guint i = 0; i < reply->workers->len; i++)
        add_worker (b, g_ptr_array_index (reply->workers, i));
      json_builder_end_array (b);
      json_builder_end_object (b);
      return print_json (b, SLUICE_RUN_EXIT_OK);
    }
  if (a->prune)
    /* Translators: how many lost workers' rows were deleted. */
    printf (_("pruned %u lost workers\n"), reply->workers->len);
  for (guint i = 0; i < reply->workers->len; i++)
    {
      const SluiceStoreWorker *w = g_ptr_array_index (reply->workers, i);
      g_autofree char *beat = format_age (query->now, w->heartbeat_at);
      g_autofree char *up = format_age (query->now, w->started_at);

      /* Translators: id, host, pid, uptime, last heartbeat's age, lost or alive,
       * tenants, done, failed, claims held. */
      printf (_("%s  %s pid %lld  up %s  beat %s ago  %s  tenants %s  done %llu  failed %llu  holds %u\n"),
              w->id, w->host, (long long) w->pid, up, beat, w->lost ? _("LOST") : _("alive"), w->tenants,
              (unsigned long long) w->done, (unsigned long long) w->failed,
              w->claims != NULL ? w->claims->len : 0);
      for (guint j = 0; w->claims != NULL && j < w->claims->len; j++)
        {
          const SluiceStoredJob *job = g_ptr_array_index (w->claims, j);

          /* Translators: a held claim: key, id, seconds until its lease expires. */
          printf (_("    %s (%s) lease %.1f s\n"), job->operation_key, job->id,
                  (double) (job->lease_expires_at - query->now) / G_USEC_PER_SEC);
        }
    }
  if (!a->prune && reply->workers->len == 0)
    printf ("%s\n", _("no workers"));
  return finish_text (SLUICE_RUN_EXIT_OK);
}

/* ---- export ------------------------------------------------------------------------------- */

static int
export_main (Admin              *a,
             SluiceStoreAdminOp  op,
             int                 argc,
             char              **argv)
{
  GOptionEntry entries[] = {
    { "scenario", 0, 0, G_OPTION_ARG_FILENAME, &a->scenario, N_("The scenario file to write"), N_("FILE.pool") },
    { NULL }
  };
  g_autoptr(SluiceJobStore) store = NULL;
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_SHOW);
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  int status = SLUICE_RUN_EXIT_OK;

  if (!parse (a, "ID", _("Writes a scenario whose one item replays the job's recorded attempts on the virtual "
                         "clock (its behaviour, retries and backoff), to open in the playground."),
              entries, argc, argv))
    return SLUICE_RUN_EXIT_USAGE;
  if (!one_job_id (a, &status))
    return status;
  if (a->scenario == NULL)
    return usage (a, _("--scenario FILE.pool is required"));

  query->ids = g_strdupv ((char *[]) { a->args[0], NULL });
  reply = open_and_ask (a, FALSE, &store, query, &status);
  if (reply == NULL)
    return status;
  if (reply->jobs->len == 0)
    {
      g_printerr (_("sluice-run store %s: %s: no such job\n"), a->verb, a->args[0]);
      return SLUICE_RUN_EXIT_INTERNAL;
    }
  text = sluice_store_export_scenario (g_ptr_array_index (reply->jobs, 0), reply->attempts, a->described,
                                       sluice_behaviour_is_valid);
  if (!g_file_set_contents (a->scenario, text, -1, &error))
    {
      g_printerr ("sluice-run store %s: %s\n", a->verb, error->message);
      return SLUICE_RUN_EXIT_INTERNAL;
    }
  if (a->json)
    {
      g_autoptr(JsonBuilder) b = begin_json (a);

      add_string (b, "id", a->args[0]);
      add_string (b, "scenario", a->scenario);
      add_int (b, "attempts", reply->attempts->len);
      json_builder_end_object (b);
      return print_json (b, SLUICE_RUN_EXIT_OK);
    }
  /* Translators: the scenario file, then how many attempts it replays. */
  printf (_("wrote %s: %u attempts to replay (sluice-run %s, or open it in the playground)\n"), a->scenario,
          reply->attempts->len, a->scenario);
  return finish_text (SLUICE_RUN_EXIT_OK);
}

/* ---- status: the tenants and workers it adds ------------------------------------------- */

/**
 * sluice_run_store_admin_add_status:
 * @store: the store `status` reads
 * @tenant: (nullable): its --tenant
 * @builder: (nullable): the JSON object being built, or %NULL for text
 * @error: set when the store failed
 *
 * What `store status` adds to the counts: the tenants (counts, paused,
 * limit), the paused ones, and the workers alive and lost.
 *
 * Returns: %FALSE with @error set when the store failed
 */
gboolean
sluice_run_store_admin_add_status (SluiceJobStore  *store,
                                   const char      *tenant,
                                   JsonBuilder     *builder,
                                   GError         **error)
{
  g_autoptr(SluiceStoreAdminQuery) tq = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_TENANTS);
  g_autoptr(SluiceStoreAdminQuery) wq = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKERS);
  g_autoptr(SluiceStoreAdminReply) tenants = NULL;
  g_autoptr(SluiceStoreAdminReply) workers = NULL;
  guint alive = 0, lost = 0;

  if (!sluice_store_admin_supported (store))
    return TRUE;
  tq->tenant = g_strdup (tenant);
  tenants = ask (store, tq, error);
  if (tenants == NULL)
    return FALSE;
  workers = ask (store, wq, error);
  if (workers == NULL)
    return FALSE;
  for (guint i = 0; i < workers->workers->len; i++)
    {
      const SluiceStoreWorker *w = g_ptr_array_index (workers->workers, i);

      if (w->lost)
        lost++;
      else
        alive++;
    }

  if (builder == NULL)
    {
      for (guint i = 0; i < tenants->tenants->len; i++)
        {
          const SluiceStoreTenant *t = g_ptr_array_index (tenants->tenants, i);

          printf ("%s %s%s", _("tenant"), t->name, t->paused ? _(" (paused)") : "");
          if (t->concurrency >= 0)
            /* Translators: the tenant's concurrency limit. */
            printf (_(", at most %lld running"), (long long) t->concurrency);
          printf (":");
          for (guint s = 0; s < SLUICE_STORED_JOB_N_STATES; s++)
            printf (" %s %" G_GUINT64_FORMAT, sluice_stored_job_state_to_string (s), t->counts[s]);
          printf ("\n");
        }
      /* Translators: workers alive, then lost. */
      printf (_("workers: %u alive, %u lost\n"), alive, lost);
      return TRUE;
    }

  json_builder_set_member_name (builder, "tenants");
  json_builder_begin_array (builder);
  for (guint i = 0; i < tenants->tenants->len; i++)
    {
      const SluiceStoreTenant *t = g_ptr_array_index (tenants->tenants, i);

      json_builder_begin_object (builder);
      add_string (builder, "tenant", t->name);
      json_builder_set_member_name (builder, "paused");
      json_builder_add_boolean_value (builder, t->paused);
      json_builder_set_member_name (builder, "limit");
      if (t->concurrency >= 0)
        json_builder_add_int_value (builder, t->concurrency);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "counts");
      json_builder_begin_object (builder);
      for (guint s = 0; s < SLUICE_STORED_JOB_N_STATES; s++)
        add_int (builder, sluice_stored_job_state_to_string (s), (gint64) t->counts[s]);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "paused");
  json_builder_begin_array (builder);
  for (guint i = 0; i < tenants->tenants->len; i++)
    {
      const SluiceStoreTenant *t = g_ptr_array_index (tenants->tenants, i);

      if (t->paused)
        json_builder_add_string_value (builder, t->name);
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "workers");
  json_builder_begin_object (builder);
  add_int (builder, "alive", alive);
  add_int (builder, "lost", lost);
  json_builder_end_object (builder);
  return TRUE;
}

/* ---- the verbs ---------------------------------------------------------------------------- */

/* The verbs of `sluice-run store` (status is sluice-run-store.c's), each
 * run by its function with its operation. */
static const struct {
  const char         *name;
  int               (*run) (Admin *a, SluiceStoreAdminOp op, int argc, char **argv);
  SluiceStoreAdminOp  op;
} verbs[] = {
  { "jobs", jobs_main, SLUICE_STORE_ADMIN_LIST_JOBS },
  { "show", show_main, SLUICE_STORE_ADMIN_SHOW },
  { "retry", change_main, SLUICE_STORE_ADMIN_RETRY },
  { "cancel", change_main, SLUICE_STORE_ADMIN_CANCEL },
  { "discard", change_main, SLUICE_STORE_ADMIN_DISCARD },
  { "pause", tenant_main, SLUICE_STORE_ADMIN_PAUSE },
  { "resume", tenant_main, SLUICE_STORE_ADMIN_RESUME },
  { "limit", tenant_main, SLUICE_STORE_ADMIN_LIMIT },
  { "workers", workers_main, SLUICE_STORE_ADMIN_WORKERS },
  { "export", export_main, SLUICE_STORE_ADMIN_SHOW },
};

/**
 * sluice_run_store_admin_main:
 * @argc: the arguments' count
 * @argv: `store`, then the verb and its arguments
 *
 * Runs `sluice-run store VERB …` (status is sluice-run-store.c's).
 *
 * Returns: the exit status
 */
int
sluice_run_store_admin_main (int    argc,
                             char **argv)
{
  Admin a = { 0 };
  int status = SLUICE_RUN_EXIT_USAGE;
  guint i;

  a.verb = argv[0];
  for (i = 0; i < G_N_ELEMENTS (verbs) && !g_str_equal (a.verb, verbs[i].name); i++)
    ;
  if (i < G_N_ELEMENTS (verbs))
    status = verbs[i].run (&a, verbs[i].op, argc, argv);
  else
    /* Translators: %s is what was given as the verb. */
    g_printerr (_("sluice-run store: unknown verb “%s”: expected status, jobs, show, retry, cancel, discard, "
                  "pause, resume, limit, workers or export\n"), a.verb);
  admin_clear (&a);
  return status;
}
