/* sluice-store-export.c: a scenario that replays a stored job's attempts
 * (docs/store-admin.md, "Open in Playground"): one function for `sluice-run
 * store export ID --scenario FILE.pool` and the store window's "Open in
 * Playground"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The scenario has one item, run on the virtual clock, that behaves as the
 * job's recorded attempts did:
 * - its behaviour: the payload's own `behaviour` when it has one (the jobs
 *   of `sluice-run enqueue` carry what the worker's handler did), else one
 *   made from the history: failures of one type then a success is `fail K
 *   TYPE D`, failures only `fail-always TYPE D`, timeouts `hang` (the
 *   item timeout then the attempts' length), successes `ok D`; D is the
 *   attempts' median length;
 * - its retry policy: as many retries as the job had attempts (max
 *   attempts − 1), the error types the worker retried (the history's
 *   failures recorded retryable), and the backoff the gaps between the
 *   attempts show (exponential from the first gap to the longest, no
 *   jitter; none when the retries came at once).
 * What a handler cannot do (a lost lease, an operator's cancel) becomes a
 * timeout, said in the description.
 */

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "sluice-store-export.h"

/* The shortest item timeout of an export, and how many times the longest
 * attempt it is otherwise. */
#define MIN_TIMEOUT_S 1.0
#define TIMEOUT_FACTOR 4.0

static double
seconds_of (gint64 us)
{
  return (double) us / G_USEC_PER_SEC;
}

static char *
format_seconds (double s)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  /* Whole µs, as the scenario's seconds take them. */
  g_ascii_formatd (buffer, sizeof buffer, "%.6f", MAX (s, 0.0));
  return g_strdup (buffer);
}

static gint
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The history's facts an export needs. */
typedef struct {
  guint    n;              /* attempts recorded */
  guint    n_failed;       /* failed (a handler's error) */
  guint    n_timed_out;    /* timed out, lost or cancelled: a timeout */
  gboolean succeeded;      /* the last one succeeded */
  char    *failure_type;   /* the last failed attempt's type */
  double   median;         /* s: the attempts' median length */
  double   longest;        /* s */
  double   timeout;        /* s: the longest timed-out attempt, or 0 */
  double   first_gap;      /* s: between the first two attempts */
  double   longest_gap;    /* s */
  GPtrArray *retried;      /* types recorded retryable */
} History;

static void
history_clear (History *h)
{
  g_free (h->failure_type);
  g_clear_pointer (&h->retried, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (History, history_clear)

static void
add_retried (History    *h,
             const char *type)
{
  for (guint i = 0; i < h->retried->len; i++)
    if (g_str_equal (g_ptr_array_index (h->retried, i), type))
      return;
  g_ptr_array_add (h->retried, g_strdup (type));
}

static void
read_history (const GPtrArray *attempts,
              History         *h)
{
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (double));

  h->retried = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < attempts->len; i++)
    {
      const SluiceStoreAttempt *a = g_ptr_array_index (attempts, i);
      double length = a->ended_at > a->started_at ? seconds_of (a->ended_at - a->started_at) : 0;

      h->n++;
      g_array_append_val (lengths, length);
      h->longest = MAX (h->longest, length);
      if (i > 0)
        {
          const SluiceStoreAttempt *before = g_ptr_array_index (attempts, i - 1);
          double gap = before->ended_at > 0 ? MAX (seconds_of (a->started_at - before->ended_at), 0) : 0;

          if (i == 1)
            h->first_gap = gap;
          h->longest_gap = MAX (h->longest_gap, gap);
        }
      h->succeeded = a->outcome == SLUICE_STORE_ATTEMPT_SUCCEEDED;
      if (a->outcome == SLUICE_STORE_ATTEMPT_FAILED && a->error != NULL)
        {
          h->n_failed++;
          g_free (h->failure_type);
          h->failure_type = g_strdup (a->error->type_name);
        }
      else if (a->outcome != SLUICE_STORE_ATTEMPT_SUCCEEDED && a->outcome != SLUICE_STORE_ATTEMPT_RUNNING)
        {
          h->n_timed_out++;
          h->timeout = MAX (h->timeout, length);
        }
      if (a->error != NULL && a->error->retryable)
        add_retried (h, a->outcome == SLUICE_STORE_ATTEMPT_FAILED ? a->error->type_name : "TimeoutError");
    }
  g_array_sort (lengths, compare_doubles);
  if (lengths->len > 0)
    h->median = g_array_index (lengths, double, lengths->len / 2);
}

/* The behaviour the attempts show (see the top of the file). */
static char *
behaviour_from (const History *h)
{
  g_autofree char *d = format_seconds (h->median);

  if (h->n_timed_out > 0 && h->n_failed == 0 && !h->succeeded)
    return g_strdup ("hang");
  if (h->n_failed > 0 && h->succeeded)
    return g_strdup_printf ("fail %u %s %s", h->n - 1, h->failure_type, d);
  if (h->n_failed > 0)
    return g_strdup_printf ("fail-always %s %s", h->failure_type, d);
  return g_strdup_printf ("ok %s", d);
}

/* The payload's own behaviour, when it has a valid one. */
static char *
payload_behaviour (const char                 *payload,
                   SluiceStoreBehaviourCheck   is_valid)
{
  g_autoptr(JsonNode) node = payload != NULL ? json_from_string (payload, NULL) : NULL;
  JsonObject *object;
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);
  if (!json_object_has_member (object, "behaviour") ||
      json_node_get_value_type (json_object_get_member (object, "behaviour")) != G_TYPE_STRING)
    return NULL;
  text = json_object_get_string_member (object, "behaviour");
  return is_valid (text) ? g_strdup (text) : NULL;
}

static void
set_seconds (GKeyFile   *file,
             const char *group,
             const char *key,
             double      seconds)
{
  g_autofree char *text = format_seconds (seconds);

  g_key_file_set_value (file, group, key, text);
}

/**
 * sluice_store_export_scenario:
 * @job: the job
 * @attempts: (element-type SluiceStoreAttempt): its history, oldest first
 * @described: the store, for the description
 * @is_valid: whether a payload's `behaviour` is one the scenario layer
 *   reads (sluice_behaviour_is_valid(): the store does not know the
 *   scenario layer, its callers know both)
 *
 * Returns: (transfer full): the scenario's text
 */
char *
sluice_store_export_scenario (const SluiceStoredJob     *job,
                              const GPtrArray           *attempts,
                              const char                *described,
                              SluiceStoreBehaviourCheck  is_valid)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_auto(History) h = { 0 };
  g_autofree char *behaviour = payload_behaviour (job->payload, is_valid);
  g_autofree char *title = NULL;
  g_autofree char *description = NULL;
  g_autoptr(GString) outcomes = g_string_new (NULL);
  g_autoptr(GString) retryable = g_string_new (NULL);
  double timeout;

  read_history (attempts, &h);
  if (behaviour == NULL)
    behaviour = behaviour_from (&h);
  for (guint i = 0; i < attempts->len; i++)
    {
      const SluiceStoreAttempt *a = g_ptr_array_index (attempts, i);

      g_string_append_printf (outcomes, "%s%s", i > 0 ? ", " : "", sluice_store_attempt_outcome_to_string (a->outcome));
    }
  for (guint i = 0; i < h.retried->len; i++)
    g_string_append_printf (retryable, "%s;", (const char *) g_ptr_array_index (h.retried, i));
  /* A timeout only where the history had one; else long enough for any
   * attempt it recorded. */
  timeout = h.timeout > 0 ? h.timeout : MAX (MIN_TIMEOUT_S, TIMEOUT_FACTOR * h.longest);

  /* Translators: a scenario's title: the job's operation key. */
  title = g_strdup_printf (_("Job %s, replayed"), job->operation_key);
  /* Translators: a scenario's description: the job's id, the store, its
   * state, the recorded outcomes (such as “failed, failed”), the behaviour. */
  description = g_strdup_printf (_("Job %s of %s (%s): its attempts were %s; replayed as “%s”. "
                                   "A lost lease or an operator's cancel replays as a timeout."),
                                 job->id, described, sluice_stored_job_state_to_string (job->state),
                                 outcomes->len > 0 ? outcomes->str : _("none"), behaviour);
  g_key_file_set_string (file, "scenario", "title", title);
  g_key_file_set_string (file, "scenario", "description", description);
  g_key_file_set_integer (file, "pool", "workers", 1);
  g_key_file_set_integer (file, "pool", "queue-size", 1);
  set_seconds (file, "pool", "item-timeout", timeout);
  g_key_file_set_integer (file, "pool", "max-retries", (gint) MAX (MAX (job->max_attempts, h.n), 1) - 1);
  if (retryable->len > 0)
    g_key_file_set_value (file, "pool", "retryable", retryable->str);
  g_key_file_set_integer (file, "source", "count", 1);
  g_key_file_set_value (file, "handler", "item.0", behaviour);
  if (h.first_gap > 0)
    {
      g_key_file_set_value (file, "retry", "backoff", "exponential");
      set_seconds (file, "retry", "base", MIN (h.first_gap, 3600));
      set_seconds (file, "retry", "cap", MIN (MAX (h.longest_gap, h.first_gap), 3600));
      g_key_file_set_value (file, "retry", "jitter", "none");
    }
  g_key_file_set_value (file, "run", "clock", "virtual");
  return g_key_file_to_data (file, NULL, NULL);
}
