/* store-fixture.c: the job store protocol's tests, for any SluiceJobStore
 *
 * The rules are docs/job-store.md's and the seed's (JobStore, Worker,
 * LeaseHeartbeat): idempotent enqueue by operation key per tenant, claims
 * in available_at order, leases, fencing by lease token, release of
 * expired leases. Every time is a `now` the test passes in: nothing waits
 * for the wall clock.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "store-fixture.h"
#include "test-helpers.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

/* An instant of the wall clock, in µs since the epoch, and a 30 s lease. */
#define T0 G_GINT64_CONSTANT (1700000000000000)
#define LEASE (G_GINT64_CONSTANT (30) * G_USEC_PER_SEC)

/* ---- driving the async calls ------------------------------------------ */

static void
on_ready (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GAsyncResult **slot = user_data;

  g_assert_null (*slot);
  *slot = g_object_ref (result);
}

/* Iterates the thread-default main context until @slot is set. A store
 * answers on the thread-default context of the call, so this returns as
 * soon as the callback ran. */
static GAsyncResult *
wait_for (GAsyncResult **slot)
{
  GMainContext *context = g_main_context_get_thread_default ();

  while (*slot == NULL)
    g_main_context_iteration (context, TRUE);
  return *slot;
}

SluiceStoredJob *
store_fixture_enqueue (SluiceJobStore  *store,
                       const char      *tenant,
                       const char      *operation_key,
                       const char      *payload,
                       guint            max_attempts,
                       gint64           now,
                       gboolean        *created,
                       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_enqueue_async (store, tenant, operation_key, payload, max_attempts, now,
                                  NULL, on_ready, &result);
  return sluice_job_store_enqueue_finish (store, wait_for (&result), created, error);
}

SluiceJobClaim *
store_fixture_claim (SluiceJobStore  *store,
                     const char      *tenant,
                     const char      *owner,
                     gint64           lease,
                     gint64           now,
                     GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_claim_next_async (store, tenant, owner, lease, now, NULL, on_ready, &result);
  return sluice_job_store_claim_next_finish (store, wait_for (&result), error);
}

gboolean
store_fixture_renew (SluiceJobStore        *store,
                     const SluiceJobClaim  *claim,
                     gint64                 lease,
                     gint64                 now,
                     GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_renew_async (store, claim, lease, now, NULL, on_ready, &result);
  return sluice_job_store_renew_finish (store, wait_for (&result), error);
}

gboolean
store_fixture_complete (SluiceJobStore        *store,
                        const SluiceJobClaim  *claim,
                        const char            *result_json,
                        gint64                 now,
                        GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_complete_async (store, claim, result_json, now, NULL, on_ready, &result);
  return sluice_job_store_complete_finish (store, wait_for (&result), error);
}

gboolean
store_fixture_fail (SluiceJobStore          *store,
                    const SluiceJobClaim    *claim,
                    const SluiceJobFailure  *failure,
                    gint64                   available_at,
                    gint64                   now,
                    GError                 **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_fail_async (store, claim, failure, available_at, now, NULL, on_ready, &result);
  return sluice_job_store_fail_finish (store, wait_for (&result), error);
}

gboolean
store_fixture_release_claim (SluiceJobStore        *store,
                             const SluiceJobClaim  *claim,
                             gint64                 now,
                             GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_release_async (store, claim, now, NULL, on_ready, &result);
  return sluice_job_store_release_finish (store, wait_for (&result), error);
}

gint64
store_fixture_release (SluiceJobStore  *store,
                       const char      *tenant,
                       gint64           now,
                       guint            limit,
                       GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_release_expired_async (store, tenant, now, limit, NULL, on_ready, &result);
  return sluice_job_store_release_expired_finish (store, wait_for (&result), error);
}

SluiceStoreStatus *
store_fixture_status (SluiceJobStore  *store,
                      const char      *tenant,
                      guint            n_failures,
                      GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_job_store_get_status_async (store, tenant, n_failures, NULL, on_ready, &result);
  return sluice_job_store_get_status_finish (store, wait_for (&result), error);
}

SluiceStoredJob *
store_fixture_enqueue_at (SluiceJobStore  *store,
                          const char      *tenant,
                          const char      *operation_key,
                          const char      *payload,
                          guint            max_attempts,
                          gint64           now,
                          gint64           available_at,
                          GError         **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_store_enqueue_at_async (store, tenant, operation_key, payload, max_attempts, now, available_at,
                                 NULL, on_ready, &result);
  return sluice_job_store_enqueue_finish (store, wait_for (&result), NULL, error);
}

SluiceStoreAdminReply *
store_fixture_admin (SluiceJobStore         *store,
                     SluiceStoreAdminQuery  *query,
                     GError                **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_store_admin_async (store, query, NULL, on_ready, &result);
  return sluice_store_admin_finish (store, wait_for (&result), error);
}

SluiceStoredJob *
store_fixture_peek (SluiceJobStore *store,
                    const char     *tenant,
                    const char     *operation_key)
{
  g_autoptr(GError) error = NULL;
  gboolean created = TRUE;
  SluiceStoredJob *job;

  job = store_fixture_enqueue (store, tenant, operation_key, "{}", 1, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_nonnull (job);
  g_assert_false (created);
  return job;
}

/* ---- helpers ------------------------------------------------------------ */

/* JSON texts with the same value: PostgreSQL's jsonb may space them
 * differently. */
static void
assert_json_equal (const char *got,
                   const char *expected)
{
  g_autoptr(JsonNode) a = NULL;
  g_autoptr(JsonNode) b = NULL;

  g_assert_nonnull (got);
  a = json_from_string (got, NULL);
  b = json_from_string (expected, NULL);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  if (!json_node_equal (a, b))
    g_error ("JSON %s, expected %s", got, expected);
}

static SluiceStoredJob *
enqueue_ok (SluiceJobStore *store,
            const char     *tenant,
            const char     *key,
            guint           max_attempts,
            gint64          now)
{
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;
  SluiceStoredJob *job;

  job = store_fixture_enqueue (store, tenant, key, "{\"key\": 1}", max_attempts, now, &created, &error);
  g_assert_no_error (error);
  g_assert_nonnull (job);
  g_assert_true (created);
  return job;
}

static SluiceJobClaim *
claim_ok (SluiceJobStore *store,
          const char     *tenant,
          const char     *owner,
          gint64          lease,
          gint64          now)
{
  g_autoptr(GError) error = NULL;
  SluiceJobClaim *claim;

  claim = store_fixture_claim (store, tenant, owner, lease, now, &error);
  g_assert_no_error (error);
  g_assert_nonnull (claim);
  return claim;
}

static void
assert_nothing_claimable (SluiceJobStore *store,
                          const char     *tenant,
                          gint64          now)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobClaim) claim = store_fixture_claim (store, tenant, "nobody", LEASE, now, &error);

  g_assert_no_error (error);
  g_assert_null (claim);
}

static void
assert_lease_lost (GError *error)
{
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_LEASE_LOST);
}

static void
assert_no_lease (const SluiceStoredJob *job)
{
  g_assert_null (job->lease_owner);
  g_assert_null (job->lease_token);
  g_assert_cmpint (job->lease_expires_at, ==, 0);
}

static void
assert_failure (const SluiceJobFailure *failure,
                const char             *type_name,
                const char             *message,
                const char             *code,
                gboolean                retryable)
{
  g_assert_nonnull (failure);
  g_assert_cmpstr (failure->type_name, ==, type_name);
  g_assert_cmpstr (failure->message, ==, message);
  g_assert_cmpstr (failure->code, ==, code);
  g_assert_cmpint (failure->retryable, ==, retryable);
}

static void
assert_counts (SluiceJobStore *store,
               const char     *tenant,
               guint64         pending,
               guint64         running,
               guint64         retry_wait,
               guint64         succeeded,
               guint64         dead)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreStatus) status = store_fixture_status (store, tenant, 0, &error);

  g_assert_no_error (error);
  g_assert_nonnull (status);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, pending);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RUNNING], ==, running);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RETRY_WAIT], ==, retry_wait);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, succeeded);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_DEAD], ==, dead);
}

/* ---- enqueue -------------------------------------------------------------- */

static void
test_enqueue_creates_pending_job (SluiceJobStore *store,
                                  const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  gboolean created = FALSE;

  job = store_fixture_enqueue (store, "tenant-a", "op-1", "{\"n\": 1, \"s\": \"x\"}", 3, T0 + 7,
                               &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_assert_true (g_uuid_string_is_valid (job->id));
  g_assert_cmpstr (job->tenant, ==, "tenant-a");
  g_assert_cmpstr (job->operation_key, ==, "op-1");
  assert_json_equal (job->payload, "{\"n\": 1, \"s\": \"x\"}");
  g_assert_cmpint (job->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpuint (job->attempts, ==, 0);
  g_assert_cmpuint (job->max_attempts, ==, 3);
  g_assert_cmpint (job->available_at, ==, T0 + 7);
  g_assert_cmpint (job->updated_at, ==, T0 + 7);
  assert_no_lease (job);
  g_assert_null (job->last_failure);
  g_assert_null (job->result);
  assert_counts (store, NULL, 1, 0, 0, 0, 0);
}

static void
test_enqueue_is_idempotent_by_operation_key_per_tenant (SluiceJobStore *store,
                                                        const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) first = NULL;
  g_autoptr(SluiceStoredJob) again = NULL;
  g_autoptr(SluiceStoredJob) other = NULL;
  g_autoptr(SluiceStoredJob) while_running = NULL;
  g_autoptr(SluiceJobClaim) claim = NULL;
  gboolean created = TRUE;

  first = store_fixture_enqueue (store, "tenant-a", "op-1", "{\"v\": 1}", 3, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);

  /* The same key again: the existing job, its payload and times unchanged. */
  again = store_fixture_enqueue (store, "tenant-a", "op-1", "{\"v\": 2}", 5, T0 + 100, &created, &error);
  g_assert_no_error (error);
  g_assert_false (created);
  g_assert_cmpstr (again->id, ==, first->id);
  assert_json_equal (again->payload, "{\"v\": 1}");
  g_assert_cmpuint (again->max_attempts, ==, 3);
  g_assert_cmpint (again->available_at, ==, T0);
  g_assert_cmpint (again->updated_at, ==, T0);

  /* The same key in another tenant is another job. */
  other = store_fixture_enqueue (store, "tenant-b", "op-1", "{\"v\": 3}", 3, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_assert_cmpstr (other->id, !=, first->id);
  assert_counts (store, NULL, 2, 0, 0, 0, 0);
  assert_counts (store, "tenant-a", 1, 0, 0, 0, 0);

  /* A running job is not made pending again by a repeated enqueue. */
  claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0 + 200);
  while_running = store_fixture_enqueue (store, "tenant-a", "op-1", "{}", 3, T0 + 300, &created, &error);
  g_assert_no_error (error);
  g_assert_false (created);
  g_assert_cmpint (while_running->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpstr (while_running->lease_token, ==, claim->token);
  assert_counts (store, "tenant-a", 0, 1, 0, 0, 0);
}

/* ---- claim ---------------------------------------------------------------- */

static void
assert_claims (SluiceJobStore *store,
               gint64          now,
               const char     *expected_key)
{
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, now);

  g_assert_cmpstr (claim->job->operation_key, ==, expected_key);
}

static void
test_claim_takes_oldest_available_at_first (SluiceJobStore *store,
                                            const char     *uri)
{
  /* available_at is the enqueue's now: made out of order on purpose. */
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED a = enqueue_ok (store, "tenant-a", "third", 3, T0 + 300);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED b = enqueue_ok (store, "tenant-a", "first", 3, T0 + 100);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED c = enqueue_ok (store, "tenant-a", "second", 3, T0 + 200);
  /* Equal available_at: in the order they were made. */
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED d = enqueue_ok (store, "tenant-a", "fourth", 3, T0 + 400);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED e = enqueue_ok (store, "tenant-a", "fifth", 3, T0 + 400);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED other = enqueue_ok (store, "tenant-b", "elsewhere", 3, T0);

  assert_claims (store, T0 + 1000, "first");
  assert_claims (store, T0 + 1000, "second");
  assert_claims (store, T0 + 1000, "third");
  assert_claims (store, T0 + 1000, "fourth");
  assert_claims (store, T0 + 1000, "fifth");
  assert_nothing_claimable (store, "tenant-a", T0 + 1000);
}

/* claim_async of up to @max_jobs jobs, waited for. */
static GPtrArray *
claim_several (SluiceJobStore *store,
               guint           max_jobs,
               gint64          now)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *claims;

  sluice_job_store_claim_async (store, "tenant-a", "worker-1", LEASE, now, max_jobs, NULL,
                                on_ready, &result);
  claims = sluice_job_store_claim_finish (store, wait_for (&result), &error);
  g_assert_no_error (error);
  g_assert_nonnull (claims);
  return claims;
}

static void
test_claim_takes_several_in_claim_order (SluiceJobStore *store,
                                         const char     *uri)
{
  const char *keys[] = { "third", "first", "second", "fourth", "fifth" };
  const gint64 at[] = { T0 + 300, T0 + 100, T0 + 200, T0 + 400, T0 + 400 };
  const char *expected[] = { "first", "second", "third" };
  g_autoptr(GPtrArray) three = NULL;
  g_autoptr(GPtrArray) rest = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GHashTable) tokens = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    sluice_stored_job_free (enqueue_ok (store, "tenant-a", keys[i], 3, at[i]));
  sluice_stored_job_free (enqueue_ok (store, "tenant-a", "later", 3, T0 + 5000));

  /* One round trip, three jobs, as three claim_next would take them. */
  three = claim_several (store, 3, T0 + 1000);
  g_assert_cmpuint (three->len, ==, 3);
  for (guint i = 0; i < three->len; i++)
    {
      const SluiceJobClaim *claim = g_ptr_array_index (three, i);
      g_autoptr(SluiceStoredJob) kept = store_fixture_peek (store, "tenant-a", claim->job->operation_key);

      g_assert_cmpstr (claim->job->operation_key, ==, expected[i]);
      g_assert_cmpint (claim->job->state, ==, SLUICE_STORED_JOB_RUNNING);
      g_assert_cmpuint (claim->job->attempts, ==, 1);
      g_assert_cmpstr (claim->owner, ==, "worker-1");
      g_assert_cmpint (claim->job->lease_expires_at, ==, T0 + 1000 + LEASE);
      /* Each its own lease token, the one the store keeps. */
      g_assert_cmpstr (kept->lease_token, ==, claim->token);
      g_assert_true (g_hash_table_add (tokens, claim->token));
    }

  /* Asked for more than there are: those available, in order. */
  rest = claim_several (store, 10, T0 + 1000);
  g_assert_cmpuint (rest->len, ==, 2);
  g_assert_cmpstr (((SluiceJobClaim *) g_ptr_array_index (rest, 0))->job->operation_key, ==, "fourth");
  g_assert_cmpstr (((SluiceJobClaim *) g_ptr_array_index (rest, 1))->job->operation_key, ==, "fifth");
  none = claim_several (store, 10, T0 + 1000);
  g_assert_cmpuint (none->len, ==, 0);
  assert_counts (store, "tenant-a", 1, 5, 0, 0, 0);
}

typedef struct
{
  guint   n_left;
  GError *errors[3];
} Completions;

typedef struct
{
  Completions *completions;
  guint        index;
} CompletionSlot;

static void
on_slot_completed (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  CompletionSlot *slot = user_data;

  sluice_job_store_complete_finish (SLUICE_JOB_STORE (object), result,
                                    &slot->completions->errors[slot->index]);
  slot->completions->n_left--;
}

/* Completions made together go to the store together (one batch, one
 * commit); the one whose token is stale is refused alone. */
static void
test_completions_together_are_fenced_each (SluiceJobStore *store,
                                           const char     *uri)
{
  g_autoptr(GPtrArray) claims = NULL;
  g_autoptr(SluiceJobClaim) stale = NULL;
  Completions c = { 3, { NULL, NULL, NULL } };
  CompletionSlot slots[3];
  const char *keys[] = { "a", "b", "c" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    sluice_stored_job_free (enqueue_ok (store, "tenant-a", keys[i], 3, T0 + i));
  claims = claim_several (store, 3, T0 + 10);
  g_assert_cmpuint (claims->len, ==, 3);
  stale = sluice_job_claim_copy (g_ptr_array_index (claims, 1));
  g_free (stale->token);
  stale->token = g_strdup ("00000000-0000-4000-8000-000000000000");

  for (guint i = 0; i < 3; i++)
    {
      slots[i].completions = &c;
      slots[i].index = i;
      sluice_job_store_complete_async (store, i == 1 ? stale : g_ptr_array_index (claims, i),
                                       "{\"done\": true}", T0 + 20, NULL, on_slot_completed, &slots[i]);
    }
  while (c.n_left > 0)
    g_main_context_iteration (g_main_context_get_thread_default (), TRUE);

  g_assert_no_error (c.errors[0]);
  assert_lease_lost (c.errors[1]);
  g_assert_no_error (c.errors[2]);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(SluiceStoredJob) job = store_fixture_peek (store, "tenant-a", keys[i]);

      g_assert_cmpint (job->state, ==, i == 1 ? SLUICE_STORED_JOB_RUNNING : SLUICE_STORED_JOB_SUCCEEDED);
      g_clear_error (&c.errors[i]);
    }
}

static void
test_claim_waits_for_available_at (SluiceJobStore *store,
                                   const char     *uri)
{
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED later = enqueue_ok (store, "tenant-a", "later", 3, T0 + 5000);

  assert_nothing_claimable (store, "tenant-a", T0 + 4999);
  assert_claims (store, T0 + 5000, "later");
}

static void
test_claim_counts_attempt_and_sets_lease (SluiceJobStore *store,
                                          const char     *uri)
{
  g_autoptr(SluiceStoredJob) job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0 + 10);
  g_autoptr(SluiceStoredJob) stored = store_fixture_peek (store, "tenant-a", "op-1");

  g_assert_cmpstr (claim->job->id, ==, job->id);
  g_assert_cmpstr (claim->owner, ==, "worker-1");
  g_assert_true (g_uuid_string_is_valid (claim->token));
  g_assert_cmpint (claim->job->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpuint (claim->job->attempts, ==, 1);
  g_assert_cmpstr (claim->job->lease_owner, ==, "worker-1");
  g_assert_cmpstr (claim->job->lease_token, ==, claim->token);
  g_assert_cmpint (claim->job->lease_expires_at, ==, T0 + 10 + LEASE);
  g_assert_cmpint (claim->job->updated_at, ==, T0 + 10);
  assert_json_equal (claim->job->payload, "{\"key\": 1}");

  g_assert_cmpint (stored->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpuint (stored->attempts, ==, 1);
  g_assert_cmpstr (stored->lease_owner, ==, "worker-1");
  g_assert_cmpstr (stored->lease_token, ==, claim->token);
  g_assert_cmpint (stored->lease_expires_at, ==, T0 + 10 + LEASE);

  /* Running, it is claimed by nobody else, even after its lease expired:
   * only release_expired puts it back. */
  assert_nothing_claimable (store, "tenant-a", T0 + 10 + 2 * LEASE);
}

/* ---- renew and fencing ---------------------------------------------------- */

static void
test_renew_extends_lease (SluiceJobStore *store,
                          const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_autoptr(SluiceStoredJob) stored = NULL;

  g_assert_true (store_fixture_renew (store, claim, LEASE, T0 + 10 * G_USEC_PER_SEC, &error));
  g_assert_no_error (error);
  stored = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (stored->lease_expires_at, ==, T0 + 10 * G_USEC_PER_SEC + LEASE);
  g_assert_cmpstr (stored->lease_token, ==, claim->token);
  g_assert_cmpint (stored->state, ==, SLUICE_STORED_JOB_RUNNING);

  /* The old expiry has passed, the renewed one not. */
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + LEASE, 100, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 10 * G_USEC_PER_SEC + LEASE, 100, &error), ==, 1);
  g_assert_no_error (error);
}

static void
test_stale_token_is_fenced_out (SluiceJobStore *store,
                                const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  g_autoptr(SluiceJobClaim) stale = claim_ok (store, "tenant-a", "worker-a", LEASE, T0);
  g_autoptr(SluiceJobClaim) current = NULL;
  g_autoptr(SluiceStoredJob) released = NULL;
  g_autoptr(SluiceStoredJob) after = NULL;
  g_autoptr(SluiceStoredJob) done = NULL;
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("ValueError", "stale", "STALE", TRUE);

  /* Worker A's lease expires; it is released and B claims the job. */
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + LEASE, 100, &error), ==, 1);
  g_assert_no_error (error);
  released = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (released->state, ==, SLUICE_STORED_JOB_PENDING);
  assert_no_lease (released);
  current = claim_ok (store, "tenant-a", "worker-b", LEASE, T0 + LEASE + 1);
  g_assert_cmpstr (current->token, !=, stale->token);
  g_assert_cmpuint (current->job->attempts, ==, 2);

  /* A's renew, complete and fail are refused... */
  g_assert_false (store_fixture_renew (store, stale, LEASE, T0 + LEASE + 2, &error));
  assert_lease_lost (error);
  g_clear_error (&error);
  g_assert_false (store_fixture_complete (store, stale, "{\"by\": \"a\"}", T0 + LEASE + 3, &error));
  assert_lease_lost (error);
  g_clear_error (&error);
  g_assert_false (store_fixture_fail (store, stale, failure, T0 + LEASE + 100, T0 + LEASE + 4, &error));
  assert_lease_lost (error);
  g_clear_error (&error);

  /* ...and change nothing of B's. */
  after = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (after->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpstr (after->lease_owner, ==, "worker-b");
  g_assert_cmpstr (after->lease_token, ==, current->token);
  g_assert_cmpint (after->lease_expires_at, ==, T0 + LEASE + 1 + LEASE);
  g_assert_cmpint (after->updated_at, ==, T0 + LEASE + 1);
  g_assert_cmpuint (after->attempts, ==, 2);
  g_assert_null (after->last_failure);
  g_assert_null (after->result);

  /* B's own claim still works. */
  g_assert_true (store_fixture_complete (store, current, "{\"by\": \"b\"}", T0 + LEASE + 5, &error));
  g_assert_no_error (error);
  done = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (done->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  assert_json_equal (done->result, "{\"by\": \"b\"}");
}

/* ---- complete and fail ---------------------------------------------------- */

static void
test_complete_keeps_result (SluiceJobStore *store,
                            const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_autoptr(SluiceStoredJob) done = NULL;

  g_assert_true (store_fixture_complete (store, claim, "{\"sum\": [1, 2]}", T0 + 50, &error));
  g_assert_no_error (error);
  done = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (done->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  assert_json_equal (done->result, "{\"sum\": [1, 2]}");
  assert_no_lease (done);
  g_assert_cmpint (done->updated_at, ==, T0 + 50);
  g_assert_cmpuint (done->attempts, ==, 1);
  assert_counts (store, NULL, 0, 0, 0, 1, 0);

  /* Ended: not claimable, and the claim is spent. */
  assert_nothing_claimable (store, "tenant-a", T0 + 100 * LEASE);
  g_assert_false (store_fixture_complete (store, claim, "{}", T0 + 60, &error));
  assert_lease_lost (error);
  g_clear_error (&error);
  g_assert_false (store_fixture_renew (store, claim, LEASE, T0 + 60, &error));
  assert_lease_lost (error);
  g_assert_cmpint (store_fixture_release (store, NULL, T0 + 100 * LEASE, 100, NULL), ==, 0);
}

static void
test_fail_with_available_at_schedules_retry (SluiceJobStore *store,
                                             const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("TimeoutError", "attempt timed out",
                                                                "ATTEMPT_TIMEOUT", TRUE);
  g_autoptr(SluiceStoredJob) waiting = NULL;
  g_autoptr(SluiceJobClaim) retry = NULL;

  g_assert_true (store_fixture_fail (store, claim, failure, T0 + 5000, T0 + 10, &error));
  g_assert_no_error (error);
  waiting = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (waiting->state, ==, SLUICE_STORED_JOB_RETRY_WAIT);
  g_assert_cmpint (waiting->available_at, ==, T0 + 5000);
  g_assert_cmpint (waiting->updated_at, ==, T0 + 10);
  assert_failure (waiting->last_failure, "TimeoutError", "attempt timed out", "ATTEMPT_TIMEOUT", TRUE);
  assert_no_lease (waiting);
  assert_counts (store, NULL, 0, 0, 1, 0, 0);

  /* The failed claim is spent; the job is claimable again at available_at. */
  g_assert_false (store_fixture_complete (store, claim, "{}", T0 + 20, &error));
  assert_lease_lost (error);
  assert_nothing_claimable (store, "tenant-a", T0 + 4999);
  retry = claim_ok (store, "tenant-a", "worker-2", LEASE, T0 + 5000);
  g_assert_cmpstr (retry->job->id, ==, job->id);
  g_assert_cmpuint (retry->job->attempts, ==, 2);
  assert_failure (retry->job->last_failure, "TimeoutError", "attempt timed out", "ATTEMPT_TIMEOUT", TRUE);
}

static void
test_fail_without_available_at_is_dead (SluiceJobStore *store,
                                        const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("PermanentJobError", "bad input",
                                                                "PERMANENT_JOB_ERROR", FALSE);
  g_autoptr(SluiceStoredJob) dead = NULL;

  g_assert_true (store_fixture_fail (store, claim, failure, -1, T0 + 10, &error));
  g_assert_no_error (error);
  dead = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (dead->state, ==, SLUICE_STORED_JOB_DEAD);
  assert_failure (dead->last_failure, "PermanentJobError", "bad input", "PERMANENT_JOB_ERROR", FALSE);
  assert_no_lease (dead);
  g_assert_null (dead->result);
  assert_counts (store, NULL, 0, 0, 0, 0, 1);
  assert_nothing_claimable (store, "tenant-a", T0 + 100 * LEASE);
}

/* ---- release (a claim that never ran) -------------------------------------- */

static void
test_release_puts_the_claim_back_uncounted (SluiceJobStore *store,
                                            const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED first = enqueue_ok (store, "tenant-a", "first", 3, T0);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED second = enqueue_ok (store, "tenant-a", "second", 3, T0 + 1);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0 + 10);
  g_autoptr(SluiceJobClaim) again = NULL;
  g_autoptr(SluiceStoredJob) back = NULL;

  g_assert_cmpstr (claim->job->operation_key, ==, "first");
  g_assert_true (store_fixture_release_claim (store, claim, T0 + 20, &error));
  g_assert_no_error (error);

  /* Pending at once, as before the claim: the attempt is not counted, the
   * job keeps its available_at (its place ahead of "second"). */
  back = store_fixture_peek (store, "tenant-a", "first");
  g_assert_cmpint (back->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpuint (back->attempts, ==, 0);
  g_assert_cmpint (back->available_at, ==, T0);
  g_assert_cmpint (back->updated_at, ==, T0 + 20);
  g_assert_null (back->last_failure);
  assert_no_lease (back);
  assert_counts (store, "tenant-a", 2, 0, 0, 0, 0);

  /* The next claim takes it, with a new token; the released one is spent. */
  again = claim_ok (store, "tenant-a", "worker-2", LEASE, T0 + 21);
  g_assert_cmpstr (again->job->operation_key, ==, "first");
  g_assert_cmpuint (again->job->attempts, ==, 1);
  g_assert_cmpstr (again->token, !=, claim->token);
  g_assert_false (store_fixture_complete (store, claim, "{}", T0 + 22, &error));
  assert_lease_lost (error);
  g_clear_error (&error);
  g_assert_false (store_fixture_release_claim (store, claim, T0 + 22, &error));
  assert_lease_lost (error);
  g_clear_error (&error);
  g_assert_true (store_fixture_complete (store, again, "{}", T0 + 23, &error));
  g_assert_no_error (error);
}

static void
test_release_keeps_earlier_attempts_and_failure (SluiceJobStore *store,
                                                 const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", "op-1", 2, T0);
  g_autoptr(SluiceJobClaim) first = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("ConnectionError", "refused",
                                                                "CONNECTION_ERROR", TRUE);
  g_autoptr(SluiceJobClaim) last = NULL;
  g_autoptr(SluiceJobClaim) still_last = NULL;
  g_autoptr(SluiceStoredJob) back = NULL;

  g_assert_true (store_fixture_fail (store, first, failure, T0 + 100, T0 + 10, &error));
  g_assert_no_error (error);
  last = claim_ok (store, "tenant-a", "worker-1", LEASE, T0 + 100);
  g_assert_cmpuint (last->job->attempts, ==, 2);

  /* Released, its last attempt is not used up: the job is not dead, it
   * keeps the failure of attempt 1 and is claimed as attempt 2 again. */
  g_assert_true (store_fixture_release_claim (store, last, T0 + 110, &error));
  g_assert_no_error (error);
  back = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (back->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpuint (back->attempts, ==, 1);
  g_assert_cmpint (back->available_at, ==, T0 + 100);
  assert_failure (back->last_failure, "ConnectionError", "refused", "CONNECTION_ERROR", TRUE);
  still_last = claim_ok (store, "tenant-a", "worker-2", LEASE, T0 + 111);
  g_assert_cmpuint (still_last->job->attempts, ==, 2);
}

static void
test_release_with_a_stale_token_changes_nothing (SluiceJobStore *store,
                                                 const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  /* Available only after op-1 is back: the claims take them in turn. */
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED other = enqueue_ok (store, "tenant-a", "op-2", 3, T0 + LEASE + 2);
  g_autoptr(SluiceJobClaim) stale = claim_ok (store, "tenant-a", "worker-a", LEASE, T0);
  g_autoptr(SluiceJobClaim) current = NULL;
  g_autoptr(SluiceJobClaim) done = NULL;
  g_autoptr(SluiceStoredJob) after = NULL;
  g_autoptr(SluiceStoredJob) finished = NULL;

  /* A's lease expired and B holds the job: A's release is refused. */
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + LEASE, 100, &error), ==, 1);
  current = claim_ok (store, "tenant-a", "worker-b", LEASE, T0 + LEASE + 1);
  g_assert_cmpstr (current->job->operation_key, ==, "op-1");
  g_assert_false (store_fixture_release_claim (store, stale, T0 + LEASE + 2, &error));
  assert_lease_lost (error);
  g_clear_error (&error);
  after = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (after->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpstr (after->lease_token, ==, current->token);
  g_assert_cmpuint (after->attempts, ==, 2);
  g_assert_cmpint (after->updated_at, ==, T0 + LEASE + 1);

  /* A claim that ended its job cannot put it back either. */
  done = claim_ok (store, "tenant-a", "worker-b", LEASE, T0 + LEASE + 3);
  g_assert_true (store_fixture_complete (store, done, "1", T0 + LEASE + 4, &error));
  g_assert_no_error (error);
  g_assert_false (store_fixture_release_claim (store, done, T0 + LEASE + 5, &error));
  assert_lease_lost (error);
  finished = store_fixture_peek (store, "tenant-a", "op-2");
  g_assert_cmpint (finished->state, ==, SLUICE_STORED_JOB_SUCCEEDED);
  g_assert_cmpuint (finished->attempts, ==, 1);
}

/* ---- release_expired ------------------------------------------------------ */

static void
test_release_expired_puts_back_expired_leases (SluiceJobStore *store,
                                               const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED j1 = enqueue_ok (store, "tenant-a", "attempts-left", 3, T0);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED j2 = enqueue_ok (store, "tenant-a", "last-attempt", 1, T0 + 1);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED j3 = enqueue_ok (store, "tenant-a", "long-lease", 3, T0 + 2);
  g_autoptr(SluiceStoredJob) G_GNUC_UNUSED j4 = enqueue_ok (store, "tenant-b", "other-tenant", 3, T0);
  g_autoptr(SluiceJobClaim) c1 = claim_ok (store, "tenant-a", "worker-1", LEASE, T0 + 10);
  g_autoptr(SluiceJobClaim) c2 = claim_ok (store, "tenant-a", "worker-1", LEASE, T0 + 10);
  g_autoptr(SluiceJobClaim) c3 = claim_ok (store, "tenant-a", "worker-1", 2 * LEASE, T0 + 10);
  g_autoptr(SluiceJobClaim) G_GNUC_UNUSED c4 = claim_ok (store, "tenant-b", "worker-1", LEASE, T0 + 10);
  g_autoptr(SluiceStoredJob) back = NULL;
  g_autoptr(SluiceStoredJob) dead = NULL;
  g_autoptr(SluiceStoredJob) running = NULL;
  g_autoptr(SluiceStoredJob) elsewhere = NULL;

  g_assert_cmpstr (c1->job->operation_key, ==, "attempts-left");
  g_assert_cmpstr (c2->job->operation_key, ==, "last-attempt");

  /* A lease ends at its expiry: not a µs before. */
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 10 + LEASE - 1, 100, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 10 + LEASE, 100, &error), ==, 2);
  g_assert_no_error (error);

  back = store_fixture_peek (store, "tenant-a", "attempts-left");
  g_assert_cmpint (back->state, ==, SLUICE_STORED_JOB_PENDING);
  g_assert_cmpint (back->available_at, ==, T0 + 10 + LEASE);
  g_assert_cmpuint (back->attempts, ==, 1);
  assert_no_lease (back);

  dead = store_fixture_peek (store, "tenant-a", "last-attempt");
  g_assert_cmpint (dead->state, ==, SLUICE_STORED_JOB_DEAD);
  assert_failure (dead->last_failure, "LeaseExpired", "the lease expired", "LEASE_EXPIRED", FALSE);
  assert_no_lease (dead);

  running = store_fixture_peek (store, "tenant-a", "long-lease");
  g_assert_cmpint (running->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpstr (running->lease_token, ==, c3->token);

  /* Another tenant's expired lease stays until released for it or for all. */
  elsewhere = store_fixture_peek (store, "tenant-b", "other-tenant");
  g_assert_cmpint (elsewhere->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpint (store_fixture_release (store, NULL, T0 + 10 + LEASE, 100, &error), ==, 1);
  g_assert_no_error (error);
  assert_counts (store, "tenant-b", 1, 0, 0, 0, 0);

  /* The released claim is fenced out; the job is claimed again. */
  g_assert_false (store_fixture_complete (store, c1, "{}", T0 + 10 + LEASE + 1, &error));
  assert_lease_lost (error);
  assert_claims (store, T0 + 10 + LEASE + 1, "attempts-left");
}

static void
test_release_expired_honours_limit (SluiceJobStore *store,
                                    const char     *uri)
{
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *key = g_strdup_printf ("op-%u", i);
      g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", key, 3, T0);
      g_autoptr(SluiceJobClaim) G_GNUC_UNUSED claim = claim_ok (store, "tenant-a", "worker-1", LEASE + i, T0);
    }
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 2 * LEASE, 0, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 2 * LEASE, 2, &error), ==, 2);
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 2 * LEASE, 2, &error), ==, 2);
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 2 * LEASE, 2, &error), ==, 1);
  g_assert_cmpint (store_fixture_release (store, "tenant-a", T0 + 2 * LEASE, 2, &error), ==, 0);
  g_assert_no_error (error);
  assert_counts (store, NULL, 5, 0, 0, 0, 0);
}

/* ---- get_status ----------------------------------------------------------- */

static void
test_status_counts_states_and_last_failures (SluiceJobStore *store,
                                             const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobFailure) retryable = sluice_job_failure_new ("ValueError", "try again", "E_RETRY", TRUE);
  g_autoptr(SluiceJobFailure) fatal = sluice_job_failure_new ("KeyError", "gone", "E_FATAL", FALSE);
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(SluiceStoreStatus) newest = NULL;
  g_autoptr(SluiceStoreStatus) all = NULL;
  const char *keys[] = { "succeeds", "retries", "dies", "runs", "waits-1", "waits-2" };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-a", keys[i], 3, T0 + i);
    }
  {
    g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (store, "tenant-b", "elsewhere", 3, T0);
  }
  {
    g_autoptr(SluiceJobClaim) succeeds = claim_ok (store, "tenant-a", "w", LEASE, T0 + 100);
    g_autoptr(SluiceJobClaim) retries = claim_ok (store, "tenant-a", "w", LEASE, T0 + 100);
    g_autoptr(SluiceJobClaim) dies = claim_ok (store, "tenant-a", "w", LEASE, T0 + 100);
    g_autoptr(SluiceJobClaim) G_GNUC_UNUSED runs = claim_ok (store, "tenant-a", "w", LEASE, T0 + 100);

    g_assert_cmpstr (dies->job->operation_key, ==, "dies");
    g_assert_true (store_fixture_complete (store, succeeds, "1", T0 + 200, &error));
    g_assert_true (store_fixture_fail (store, retries, retryable, T0 + 10000, T0 + 300, &error));
    g_assert_true (store_fixture_fail (store, dies, fatal, -1, T0 + 400, &error));
    g_assert_no_error (error);
  }

  status = store_fixture_status (store, "tenant-a", 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_PENDING], ==, 2);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RUNNING], ==, 1);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_RETRY_WAIT], ==, 1);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_SUCCEEDED], ==, 1);
  g_assert_cmpuint (status->counts[SLUICE_STORED_JOB_DEAD], ==, 1);
  /* The jobs with a last failure, the latest first. */
  g_assert_cmpuint (status->failures->len, ==, 2);
  {
    SluiceStoredJob *first = g_ptr_array_index (status->failures, 0);
    SluiceStoredJob *second = g_ptr_array_index (status->failures, 1);

    g_assert_cmpstr (first->operation_key, ==, "dies");
    assert_failure (first->last_failure, "KeyError", "gone", "E_FATAL", FALSE);
    g_assert_cmpstr (second->operation_key, ==, "retries");
    assert_failure (second->last_failure, "ValueError", "try again", "E_RETRY", TRUE);
  }

  newest = store_fixture_status (store, "tenant-a", 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (newest->failures->len, ==, 1);
  g_assert_cmpstr (((SluiceStoredJob *) g_ptr_array_index (newest->failures, 0))->operation_key, ==, "dies");

  all = store_fixture_status (store, NULL, 10, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (all->counts[SLUICE_STORED_JOB_PENDING], ==, 3);
  g_assert_cmpuint (all->failures->len, ==, 2);
  assert_counts (store, "tenant-b", 1, 0, 0, 0, 0);
  assert_counts (store, "no-such-tenant", 0, 0, 0, 0, 0);
}

/* ---- invalid arguments ---------------------------------------------------- */

static void
assert_enqueue_refused (SluiceJobStore *store,
                        const char     *tenant,
                        const char     *key,
                        const char     *payload,
                        guint           max_attempts)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  gboolean created = TRUE;

  job = store_fixture_enqueue (store, tenant, key, payload, max_attempts, T0, &created, &error);
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT);
  g_assert_null (job);
  g_assert_false (created);
}

static void
test_payload_or_result_not_json_is_invalid (SluiceJobStore *store,
                                            const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceJobClaim) claim = NULL;
  g_autoptr(SluiceStoredJob) still = NULL;

  assert_enqueue_refused (store, "tenant-a", "op-1", "not json{", 3);
  assert_enqueue_refused (store, "tenant-a", "op-1", "", 3);
  assert_enqueue_refused (store, "", "op-1", "{}", 3);
  assert_enqueue_refused (store, "tenant-a", "", "{}", 3);
  assert_enqueue_refused (store, "tenant-a", "op-1", "{}", 0);
  assert_counts (store, NULL, 0, 0, 0, 0, 0);

  job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_assert_false (store_fixture_complete (store, claim, "{\"unterminated\": ", T0 + 1, &error));
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  still = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (still->state, ==, SLUICE_STORED_JOB_RUNNING);
  g_assert_cmpstr (still->lease_token, ==, claim->token);

  /* A lease of 0 is refused too. */
  g_assert_null (store_fixture_claim (store, "tenant-a", "worker-1", 0, T0, &error));
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (store_fixture_renew (store, claim, 0, T0, &error));
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT);
}

/* ---- limits ------------------------------------------------------------------- */

static void
assert_invalid_naming (GError     *error,
                       const char *expected)
{
  g_assert_error (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_ARGUMENT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, expected));
}

/* One limit for every store, checked before the store sees the call:
 * SQLite took an 8,000-byte tenant, PostgreSQL failed it in its NOTIFY. A
 * tenant, operation key or owner has 1 to 255 bytes of UTF-8. */
static void
test_tenant_key_and_owner_have_one_limit (SluiceJobStore *store,
                                          const char     *uri)
{
  g_autofree char *longest = g_strnfill (SLUICE_JOB_STORE_MAX_NAME_BYTES, 't');
  g_autofree char *too_long = g_strnfill (SLUICE_JOB_STORE_MAX_NAME_BYTES + 1, 't');
  g_autofree char *huge = g_strnfill (8000, 't');
  const char *not_utf8 = "tenant-\xff\xfe";
  const char *bad_names[] = { too_long, huge, not_utf8 };
  const char *expected[] = { "255", "255", "UTF-8" };
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceJobClaim) claim = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      g_autoptr(SluiceStoredJob) refused = NULL;
      g_autoptr(SluiceJobClaim) none = NULL;
      g_autoptr(SluiceStoreStatus) status = NULL;
      gboolean created = TRUE;

      refused = store_fixture_enqueue (store, bad_names[i], "op-1", "{}", 3, T0, &created, &error);
      g_assert_null (refused);
      assert_invalid_naming (error, expected[i]);
      g_clear_error (&error);
      refused = store_fixture_enqueue (store, "tenant-a", bad_names[i], "{}", 3, T0, &created, &error);
      g_assert_null (refused);
      assert_invalid_naming (error, expected[i]);
      g_clear_error (&error);

      none = store_fixture_claim (store, bad_names[i], "worker-1", LEASE, T0, &error);
      assert_invalid_naming (error, expected[i]);
      g_clear_error (&error);
      none = store_fixture_claim (store, "tenant-a", bad_names[i], LEASE, T0, &error);
      assert_invalid_naming (error, expected[i]);
      g_clear_error (&error);
      g_assert_cmpint (store_fixture_release (store, bad_names[i], T0, 10, &error), ==, -1);
      assert_invalid_naming (error, expected[i]);
      g_clear_error (&error);
      status = store_fixture_status (store, bad_names[i], 0, &error);
      g_assert_null (status);
      assert_invalid_naming (error, expected[i]);
      g_clear_error (&error);
    }
  assert_counts (store, NULL, 0, 0, 0, 0, 0);

  /* At the limit, everything works. */
  job = enqueue_ok (store, longest, longest, 3, T0);
  claim = claim_ok (store, longest, longest, LEASE, T0);
  g_assert_cmpstr (claim->job->id, ==, job->id);
  g_assert_cmpstr (claim->job->tenant, ==, longest);
  g_assert_cmpstr (claim->job->operation_key, ==, longest);
  g_assert_cmpstr (claim->job->lease_owner, ==, longest);
  assert_counts (store, longest, 0, 1, 0, 0, 0);
}

/* A payload of 1 MiB; the first byte more is refused, naming the limit. A
 * payload or result nested more than 64 deep is refused too, before a
 * parser recurses into it (a megabyte of "[" overflowed json-glib's
 * stack). */
static void
test_payload_has_a_size_and_depth_limit (SluiceJobStore *store,
                                         const char     *uri)
{
  gsize limit = SLUICE_JOB_STORE_MAX_PAYLOAD_BYTES;
  g_autofree char *fill = g_strnfill (limit - 2, 'x');
  g_autofree char *at_limit = g_strconcat ("\"", fill, "\"", NULL);
  g_autofree char *over = g_strconcat ("\"", fill, "x\"", NULL);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GString) deepest_allowed = g_string_new (NULL);
  g_autoptr(GString) very_deep = g_string_new (NULL);
  g_autoptr(SluiceStoredJob) big = NULL;
  g_autoptr(SluiceStoredJob) nested = NULL;
  g_autoptr(SluiceStoredJob) refused = NULL;
  g_autoptr(SluiceJobClaim) claim = NULL;
  g_autoptr(GError) error = NULL;
  gboolean created = FALSE;

  g_assert_cmpuint (strlen (at_limit), ==, limit);
  g_assert_cmpuint (strlen (over), ==, limit + 1);
  big = store_fixture_enqueue (store, "tenant-a", "at-limit", at_limit, 3, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  g_assert_cmpuint (strlen (big->payload), ==, limit);

  refused = store_fixture_enqueue (store, "tenant-a", "over-limit", over, 3, T0, &created, &error);
  g_assert_null (refused);
  assert_invalid_naming (error, "1048576");
  g_clear_error (&error);

  for (guint i = 0; i < SLUICE_JOB_STORE_MAX_JSON_DEPTH; i++)
    g_string_append_c (deepest_allowed, '[');
  for (guint i = 0; i < SLUICE_JOB_STORE_MAX_JSON_DEPTH; i++)
    g_string_append_c (deepest_allowed, ']');
  g_string_printf (deep, "{\"a\": \"[[[\", \"b\": %s}", deepest_allowed->str);
  for (guint i = 0; i < 300000; i++)
    g_string_append_c (very_deep, '[');
  for (guint i = 0; i < 300000; i++)
    g_string_append_c (very_deep, ']');

  /* 65 levels: the object and 64 arrays; brackets in a string do not count. */
  refused = store_fixture_enqueue (store, "tenant-a", "deep", deep->str, 3, T0, &created, &error);
  g_assert_null (refused);
  assert_invalid_naming (error, "64");
  g_clear_error (&error);
  refused = store_fixture_enqueue (store, "tenant-a", "very-deep", very_deep->str, 3, T0, &created, &error);
  g_assert_null (refused);
  assert_invalid_naming (error, "64");
  g_clear_error (&error);
  nested = store_fixture_enqueue (store, "tenant-a", "nested", deepest_allowed->str, 3, T0, &created, &error);
  g_assert_no_error (error);
  g_assert_true (created);
  assert_counts (store, "tenant-a", 2, 0, 0, 0, 0);

  claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_assert_false (store_fixture_complete (store, claim, very_deep->str, T0 + 1, &error));
  assert_invalid_naming (error, "64");
  g_clear_error (&error);
  g_assert_true (store_fixture_complete (store, claim, deepest_allowed->str, T0 + 1, &error));
  g_assert_no_error (error);
}

/* A failure's texts come from any handler: bytes that are not UTF-8 are
 * kept as U+FFFD on every store (PostgreSQL refused them, so the failure
 * was never recorded). */
static void
test_failure_texts_are_made_valid_utf8 (SluiceJobStore *store,
                                        const char     *uri)
{
  g_autoptr(SluiceStoredJob) job = enqueue_ok (store, "tenant-a", "op-1", 1, T0);
  g_autoptr(SluiceJobClaim) claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("OSError\xc3", "cannot read /tmp/\xff\xfe.txt",
                                                                "OS_ERROR", FALSE);
  g_autoptr(SluiceStoredJob) dead = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (store_fixture_fail (store, claim, failure, -1, T0 + 1, &error));
  g_assert_no_error (error);
  dead = store_fixture_peek (store, "tenant-a", "op-1");
  g_assert_cmpint (dead->state, ==, SLUICE_STORED_JOB_DEAD);
  assert_failure (dead->last_failure, "OSError\xef\xbf\xbd", "cannot read /tmp/\xef\xbf\xbd\xef\xbf\xbd.txt",
                  "OS_ERROR", FALSE);
}

/* ---- "jobs-available" ------------------------------------------------------ */

typedef struct
{
  GPtrArray *tenants;
  gboolean   timed_out;
} Wakes;

static void
on_jobs_available (SluiceJobStore *store,
                   const char     *tenant,
                   Wakes          *wakes)
{
  g_ptr_array_add (wakes->tenants, g_strdup (tenant));
}

static gboolean
on_watchdog (gpointer user_data)
{
  Wakes *wakes = user_data;

  wakes->timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates until @n wake-ups came. PostgreSQL's come through the server,
 * so there is a watchdog: 30 s of the wall clock, only to fail rather
 * than hang if none comes. */
static void
wait_for_wakes (Wakes *wakes,
                guint  n)
{
  GMainContext *context = g_main_context_get_thread_default ();
  g_autoptr(GSource) watchdog = g_timeout_source_new_seconds (30);

  g_source_set_callback (watchdog, on_watchdog, wakes, NULL);
  g_source_attach (watchdog, context);
  while (wakes->tenants->len < n && !wakes->timed_out)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (watchdog);
  g_assert_false (wakes->timed_out);
}

static void
test_jobs_available_after_enqueue_and_retry (SluiceJobStore *store,
                                             const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tenants = g_ptr_array_new_with_free_func (g_free);
  Wakes wakes = { tenants, FALSE };
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceJobClaim) claim = NULL;
  g_autoptr(SluiceJobFailure) failure = sluice_job_failure_new ("ValueError", "again", "E", TRUE);
  gulong handler;

  handler = g_signal_connect (store, "jobs-available", G_CALLBACK (on_jobs_available), &wakes);
  job = enqueue_ok (store, "tenant-a", "op-1", 3, T0);
  wait_for_wakes (&wakes, 1);
  g_assert_cmpstr (g_ptr_array_index (tenants, 0), ==, "tenant-a");

  claim = claim_ok (store, "tenant-a", "worker-1", LEASE, T0);
  g_assert_true (store_fixture_fail (store, claim, failure, T0 + 100, T0 + 1, &error));
  g_assert_no_error (error);
  wait_for_wakes (&wakes, 2);
  g_assert_cmpstr (g_ptr_array_index (tenants, 1), ==, "tenant-a");
  g_signal_handler_disconnect (store, handler);
}

static void
test_jobs_available_after_release (SluiceJobStore *store,
                                   const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tenants = g_ptr_array_new_with_free_func (g_free);
  Wakes wakes = { tenants, FALSE };
  g_autoptr(SluiceStoredJob) job = NULL;
  g_autoptr(SluiceJobClaim) claim = NULL;
  gulong handler;

  /* The enqueue's wake-up first, so that the second is the release's. */
  handler = g_signal_connect (store, "jobs-available", G_CALLBACK (on_jobs_available), &wakes);
  job = enqueue_ok (store, "tenant-r", "op-1", 3, T0);
  wait_for_wakes (&wakes, 1);
  claim = claim_ok (store, "tenant-r", "worker-1", LEASE, T0);
  g_assert_true (store_fixture_release_claim (store, claim, T0 + 1, &error));
  g_assert_no_error (error);
  wait_for_wakes (&wakes, 2);
  g_assert_cmpstr (g_ptr_array_index (tenants, 1), ==, "tenant-r");
  g_signal_handler_disconnect (store, handler);
}

/* ---- two connections ------------------------------------------------------ */

#define N_CONTENDED_JOBS 200
#define CLAIMS_IN_FLIGHT 4

typedef struct
{
  SluiceJobStore *store;
  const char     *owner;
  GHashTable     *claimed;   /* job id → owner, shared */
  guint           in_flight;
  guint           n_claimed;
  gboolean        drained;
} Claimer;

static void
on_claimed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  Claimer *c = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobClaim) claim = sluice_job_store_claim_next_finish (c->store, result, &error);

  g_assert_no_error (error);
  c->in_flight--;
  if (claim == NULL)
    {
      c->drained = TRUE;
      return;
    }
  if (g_hash_table_contains (c->claimed, claim->job->id))
    g_error ("job %s claimed by %s and again by %s", claim->job->id,
             (const char *) g_hash_table_lookup (c->claimed, claim->job->id), c->owner);
  g_hash_table_insert (c->claimed, g_strdup (claim->job->id), (gpointer) c->owner);
  c->n_claimed++;
}

static void
claimer_start (Claimer *c)
{
  for (guint i = 0; i < CLAIMS_IN_FLIGHT; i++)
    {
      c->in_flight++;
      sluice_job_store_claim_next_async (c->store, "tenant-a", c->owner, LEASE, T0 + 1000,
                                         NULL, on_claimed, c);
    }
}

/* Rounds of CLAIMS_IN_FLIGHT claims on each connection at once, so that
 * every round the two race for the same rows, until both find none. */
static void
test_two_connections_claim_each_job_once (SluiceJobStore *store,
                                          const char     *uri)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceJobStore) second = sluice_job_store_new_for_uri (uri, &error);
  g_autoptr(GHashTable) claimed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Claimer a = { store, "worker-a", claimed, 0, 0, FALSE };
  Claimer b = { NULL, "worker-b", claimed, 0, 0, FALSE };
  GMainContext *context = g_main_context_get_thread_default ();

  g_assert_no_error (error);
  g_assert_nonnull (second);
  b.store = second;
  for (guint i = 0; i < N_CONTENDED_JOBS; i++)
    {
      g_autofree char *key = g_strdup_printf ("op-%u", i);
      g_autoptr(SluiceStoredJob) G_GNUC_UNUSED job = enqueue_ok (i % 2 ? store : second, "tenant-a", key, 3, T0 + i);
    }

  while (!a.drained || !b.drained)
    {
      claimer_start (&a);
      claimer_start (&b);
      while (a.in_flight > 0 || b.in_flight > 0)
        g_main_context_iteration (context, TRUE);
    }

  g_assert_cmpuint (g_hash_table_size (claimed), ==, N_CONTENDED_JOBS);
  /* Each round, each got a job for each of its claims. */
  g_assert_cmpuint (a.n_claimed, ==, N_CONTENDED_JOBS / 2);
  g_assert_cmpuint (b.n_claimed, ==, N_CONTENDED_JOBS / 2);
  assert_counts (store, NULL, 0, N_CONTENDED_JOBS, 0, 0, 0);
  assert_counts (second, NULL, 0, N_CONTENDED_JOBS, 0, 0, 0);
  while (g_main_context_iteration (context, FALSE))
    ;
  g_assert_finalize_object (g_steal_pointer (&second));
}

/* ---- registration --------------------------------------------------------- */

typedef void (*StoreCaseFunc) (SluiceJobStore *store,
                               const char     *uri);

typedef struct
{
  StoreFixtureFactory factory;
  StoreCaseFunc       func;
} StoreCase;

static void
run_case (gconstpointer data)
{
  const StoreCase *c = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = NULL;
  SluiceJobStore *store = c->factory (&uri, &error);

  g_assert_no_error (error);
  g_assert_nonnull (store);
  g_assert_nonnull (uri);
  c->func (store, uri);
  /* Nothing may keep the store alive once its calls have answered. */
  while (g_main_context_iteration (g_main_context_get_thread_default (), FALSE))
    ;
  g_assert_finalize_object (store);
}

static void
add_case (const char          *prefix,
          const char          *name,
          StoreFixtureFactory  factory,
          StoreCaseFunc        func)
{
  g_autofree char *path = g_strconcat (prefix, "/", name, NULL);
  StoreCase *c = g_new0 (StoreCase, 1);

  c->factory = factory;
  c->func = func;
  g_test_add_data_func_full (path, c, run_case, g_free);
}

void
store_fixture_add_tests (const char          *prefix,
                         StoreFixtureFactory  factory)
{
  static const struct {
    const char    *name;
    StoreCaseFunc  func;
  } cases[] = {
    { "enqueue/creates-pending-job", test_enqueue_creates_pending_job },
    { "enqueue/idempotent-by-operation-key-per-tenant", test_enqueue_is_idempotent_by_operation_key_per_tenant },
    { "enqueue/not-json-is-invalid", test_payload_or_result_not_json_is_invalid },
    { "limits/tenant-key-and-owner-have-one-limit", test_tenant_key_and_owner_have_one_limit },
    { "limits/payload-has-a-size-and-depth-limit", test_payload_has_a_size_and_depth_limit },
    { "fail/failure-texts-are-made-valid-utf8", test_failure_texts_are_made_valid_utf8 },
    { "claim/oldest-available-at-first", test_claim_takes_oldest_available_at_first },
    { "claim/waits-for-available-at", test_claim_waits_for_available_at },
    { "claim/several-at-once-in-claim-order", test_claim_takes_several_in_claim_order },
    { "complete/together-each-fenced-alone", test_completions_together_are_fenced_each },
    { "claim/counts-attempt-and-sets-lease", test_claim_counts_attempt_and_sets_lease },
    { "claim/two-connections-claim-each-job-once", test_two_connections_claim_each_job_once },
    { "renew/extends-lease", test_renew_extends_lease },
    { "fencing/stale-token-changes-nothing", test_stale_token_is_fenced_out },
    { "complete/succeeded-with-result", test_complete_keeps_result },
    { "fail/available-at-schedules-retry", test_fail_with_available_at_schedules_retry },
    { "fail/no-available-at-is-dead", test_fail_without_available_at_is_dead },
    { "release/puts-the-claim-back-uncounted", test_release_puts_the_claim_back_uncounted },
    { "release/keeps-earlier-attempts-and-failure", test_release_keeps_earlier_attempts_and_failure },
    { "release/stale-token-changes-nothing", test_release_with_a_stale_token_changes_nothing },
    { "release-expired/puts-back-expired-leases", test_release_expired_puts_back_expired_leases },
    { "release-expired/honours-limit", test_release_expired_honours_limit },
    { "status/counts-states-and-last-failures", test_status_counts_states_and_last_failures },
    { "signal/jobs-available-after-enqueue-and-retry", test_jobs_available_after_enqueue_and_retry },
    { "signal/jobs-available-after-release", test_jobs_available_after_release },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    add_case (prefix, cases[i].name, factory, cases[i].func);
}

char *
store_fixture_pg_value (PGconn     *conn,
                        const char *sql)
{
  PGresult *result = PQexec (conn, sql);
  char *value = NULL;

  if (PQresultStatus (result) != PGRES_TUPLES_OK)
    g_error ("%s: %s", sql, PQresultErrorMessage (result));
  if (PQntuples (result) > 0 && !PQgetisnull (result, 0, 0))
    value = g_strdup (PQgetvalue (result, 0, 0));
  PQclear (result);
  return value;
}

gboolean
store_fixture_pg_available (void)
{
  const char *uri = g_getenv ("SLUICE_TEST_PG_URI");

  if (uri != NULL && uri[0] != '\0')
    return TRUE;
  if (g_strcmp0 (g_getenv ("CI"), "true") == 0 || g_strcmp0 (g_getenv ("SLUICE_REQUIRE_PG"), "1") == 0)
    g_test_fail_printf ("SLUICE_TEST_PG_URI is not set, and CI=true or SLUICE_REQUIRE_PG=1 needs "
                        "the PostgreSQL tests: scripts/test starts the server (tests/pg-server.sh)");
  else
    g_test_skip ("SLUICE_TEST_PG_URI is not set: scripts/test starts a server (tests/pg-server.sh)");
  return FALSE;
}

void
store_fixture_pg_exec (const char *sql)
{
  PGconn *conn = PQconnectdb (g_getenv ("SLUICE_TEST_PG_URI"));
  PGresult *result;

  g_assert_cmpint (PQstatus (conn), ==, CONNECTION_OK);
  result = PQexec (conn, sql);
  if (PQresultStatus (result) != PGRES_COMMAND_OK && PQresultStatus (result) != PGRES_TUPLES_OK)
    g_error ("%s: %s", sql, PQresultErrorMessage (result));
  PQclear (result);
  PQfinish (conn);
}

char *
store_fixture_new_place (gboolean     sqlite,
                         const char  *prefix,
                         char       **dir,
                         char       **path,
                         char       **schema)
{
  g_autoptr(GError) error = NULL;

  if (sqlite)
    {
      g_autofree char *template = g_strdup_printf ("sluice-store-%s-XXXXXX", prefix);

      *dir = g_dir_make_tmp (template, &error);
      g_assert_no_error (error);
      *path = g_build_filename (*dir, "jobs.db", NULL);
      return g_strconcat ("sqlite:", *path, NULL);
    }
  return store_fixture_new_schema (prefix, NULL, schema);
}

char *
store_fixture_new_schema (const char  *prefix,
                          const char  *extra,
                          char       **schema)
{
  static guint counter;
  const char *base = g_getenv ("SLUICE_TEST_PG_URI");
  g_autofree char *create = NULL;

  *schema = g_strdup_printf ("sluice_%s_%d_%u", prefix, (int) getpid (), ++counter);
  create = g_strdup_printf ("CREATE SCHEMA %s", *schema);
  store_fixture_pg_exec (create);
  return g_strdup_printf ("%s%coptions=-csearch_path%%3D%s%s%s", base, strchr (base, '?') != NULL ? '&' : '?',
                          *schema, extra != NULL ? "&" : "", extra != NULL ? extra : "");
}

void
store_fixture_remove_place (const char *dir,
                            const char *schema)
{
  if (dir != NULL)
    {
      g_autoptr(GDir) folder = g_dir_open (dir, 0, NULL);
      const char *name;

      while (folder != NULL && (name = g_dir_read_name (folder)) != NULL)
        {
          g_autofree char *file = g_build_filename (dir, name, NULL);

          g_unlink (file);
        }
      g_rmdir (dir);
    }
  if (schema != NULL)
    {
      g_autofree char *drop = g_strdup_printf ("SET client_min_messages = warning; DROP SCHEMA %s CASCADE", schema);

      store_fixture_pg_exec (drop);
    }
}

/* ---- the store tests that run sluice-run -------------------------------- */

/* A fresh place with nothing in it (no store opened yet). */
StorePlace *
store_place_new (StoreKind   kind,
                 const char *prefix)
{
  StorePlace *p = g_new0 (StorePlace, 1);

  p->kind = kind;
  p->uri = store_fixture_new_place (kind == STORE_SQLITE, prefix, &p->dir, &p->path, &p->schema);
  return p;
}

void
store_place_free (StorePlace *p)
{
  g_clear_object (&p->store);
  store_fixture_remove_place (p->dir, p->schema);
  g_free (p->dir);
  g_free (p->path);
  g_free (p->schema);
  g_free (p->uri);
  g_free (p);
}

static void store_process_read_line (StoreProcess *proc);

static void
store_process_on_line (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  StoreProcess *proc = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                                     NULL, &error);

  /* Cancelled: the process is being cleared, @proc may be gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_assert_no_error (error);
  if (line == NULL)
    {
      proc->err_closed = TRUE;
      return;
    }
  proc->on_line (line, proc->data);
  store_process_read_line (proc);
}

static void
store_process_read_line (StoreProcess *proc)
{
  g_data_input_stream_read_line_async (proc->err, G_PRIORITY_DEFAULT, proc->cancellable,
                                       store_process_on_line, proc);
}

static void
store_process_on_exited (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  StoreProcess *proc = user_data;
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_assert_no_error (error);
  proc->exited = TRUE;
}

/* Starts @argv by @launcher (or a plain one) with its output piped into
 * @proc, which must stay where it is until store_process_clear(). */
void
store_process_start (StoreProcess         *proc,
                     GSubprocessLauncher  *launcher,
                     const char * const   *argv,
                     StoreProcessLineFunc  on_line,
                     gpointer              data)
{
  g_autoptr(GSubprocessLauncher) plain = NULL;
  g_autoptr(GError) error = NULL;

  proc->on_line = on_line;
  proc->data = data;
  proc->cancellable = g_cancellable_new ();
  if (launcher == NULL)
    launcher = plain = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  proc->process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  proc->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (proc->process));
  store_process_read_line (proc);
  g_subprocess_wait_async (proc->process, proc->cancellable, store_process_on_exited, proc);
}

/* Stops reading, and kills the process if it still runs. */
void
store_process_clear (StoreProcess *proc)
{
  g_cancellable_cancel (proc->cancellable);
  g_clear_object (&proc->cancellable);
  if (proc->process != NULL && !proc->exited)
    g_subprocess_force_exit (proc->process);
  g_clear_object (&proc->err);
  g_clear_object (&proc->process);
}

void
store_fixture_wait_until (const gboolean *flag,
                          guint           seconds,
                          const char     *what)
{
  SLUICE_TEST_SPIN_WITHIN (seconds, what, *flag);
}
