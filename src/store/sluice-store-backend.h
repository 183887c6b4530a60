/* sluice-store-backend.h: the one synchronous interface of a job store's
 * backend (SQLite, PostgreSQL), and the adaptor that runs it on a thread
 * of its own and offers #SluiceJobStore's asynchronous API (docs/job-store.md;
 * GIO's GInputStream pattern: sync virtuals, async wrappers written once)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-job-store.h"
#include "sluice-store-admin.h"

G_BEGIN_DECLS

/*
 * SluiceStoreOp:
 *
 * The store protocol, declared here once: each call of #SluiceJobStore is
 * one request of one of these kinds.
 */
typedef enum {
  SLUICE_STORE_OP_ENQUEUE,
  SLUICE_STORE_OP_CLAIM,
  SLUICE_STORE_OP_RENEW,
  SLUICE_STORE_OP_COMPLETE,
  SLUICE_STORE_OP_FAIL,
  SLUICE_STORE_OP_RELEASE,
  SLUICE_STORE_OP_RELEASE_EXPIRED,
  SLUICE_STORE_OP_STATUS,
  SLUICE_STORE_OP_ADMIN,
} SluiceStoreOp;

/*
 * SluiceStoreRequest:
 *
 * One call: its arguments (made on the caller's thread, read-only on the
 * store's) and its answer (written by the backend on the store's thread,
 * read by the caller's _finish). Which fields a kind uses:
 * - enqueue: tenant, operation_key, text (the payload), count (max
 *   attempts), now → value (SluiceStoredJob), created
 * - claim: tenant, owner, lease, now, count (the most jobs) → value (a
 *   GPtrArray of SluiceJobClaim, oldest available_at first; empty: none)
 * - renew: claim, lease, now
 * - complete: claim, text (the result, or NULL), now
 * - fail: claim, failure, available_at (-1: dead), now
 * - release: claim, now
 * - release_expired: tenant (NULL: every tenant), now, count (the limit)
 *   → number
 * - status: tenant (NULL: every tenant), count (the failures) → value
 *   (SluiceStoreStatus)
 * - admin: admin (the query, its own now) → value (SluiceStoreAdminReply)
 * A fenced call (renew) of a job an operator cancelled keeps the lease and
 * sets error to %SLUICE_STORE_ERROR_CANCEL_REQUESTED.
 * A fenced call (renew, complete, fail, release) whose token is not the
 * job's sets error to %SLUICE_STORE_ERROR_LEASE_LOST and changes nothing.
 * A backend adds to wake the tenants whose jobs it made claimable (SQLite;
 * PostgreSQL hears its own NOTIFY instead).
 */
typedef struct
{
  SluiceStoreOp     op;
  char             *tenant;
  char             *operation_key;
  char             *text;
  char             *owner;
  SluiceJobClaim   *claim;
  SluiceJobFailure *failure;
  guint             count;
  gint64            lease;
  gint64            now;
  gint64            available_at;
  SluiceStoreAdminQuery *admin;

  GError           *error;
  gpointer          value;
  GDestroyNotify    value_free;
  gint64            number;
  gboolean          created;
  gboolean          wake;
  guint             lane;  /* the thread (and the backend's connection) it runs on */
} SluiceStoreRequest;

/* The most threads a store runs its requests on, each with a connection. */
#define SLUICE_STORE_BACKEND_MAX_LANES 2

#define SLUICE_TYPE_STORE_BACKEND (sluice_store_backend_get_type ())
G_DECLARE_DERIVABLE_TYPE (SluiceStoreBackend, sluice_store_backend, SLUICE, STORE_BACKEND, GObject)

/*
 * SluiceStoreBackendClass:
 * @open: (nullable): makes the backend's connection of @lane ready
 *   (connects, checks the schema); called on that lane's thread before
 *   each batch of requests; its error becomes every request's of the batch
 * @enqueue: enqueues @n requests, in one transaction (one fsync)
 * @claim: claims up to request->count jobs in one round trip
 * @renew: extends the leases of @n claims
 * @finish: completes, fails (retry or dead) and releases @n claims, in
 *   any mix, committed together as far as the backend can
 * @release_expired: puts expired leases back
 * @get_status: counts by state and the last failures
 * @admin: answers an admin query (docs/store-admin.md), in one
 *   transaction
 *
 * The sync virtuals, called on the store's thread only, one batch at a
 * time, in the order the requests were made (a batch is a run of
 * consecutive requests of one group: enqueue, renew, or finish). Each
 * sets every request's answer or error.
 */
struct _SluiceStoreBackendClass
{
  GObjectClass parent_class;

  gboolean (*open)            (SluiceStoreBackend  *self,
                               guint                lane,
                               GError             **error);
  void     (*enqueue)         (SluiceStoreBackend  *self,
                               SluiceStoreRequest **requests,
                               guint                n);
  void     (*claim)           (SluiceStoreBackend  *self,
                               SluiceStoreRequest  *request);
  void     (*renew)           (SluiceStoreBackend  *self,
                               SluiceStoreRequest **requests,
                               guint                n);
  void     (*finish)          (SluiceStoreBackend  *self,
                               SluiceStoreRequest **requests,
                               guint                n);
  void     (*release_expired) (SluiceStoreBackend  *self,
                               SluiceStoreRequest  *request);
  void     (*get_status)      (SluiceStoreBackend  *self,
                               SluiceStoreRequest  *request);
  void     (*admin)           (SluiceStoreBackend  *self,
                               SluiceStoreRequest  *request);
};

/* Starts the store's threads, @n_lanes of them (1 or 2; with 2, claims
 * and the store's reads run on lane 0, the rest on lane 1, each lane on a
 * connection of its own); @description names the store in messages (never
 * with a password). Called once by a subclass when its backend can run. */
gboolean sluice_store_backend_start       (SluiceStoreBackend  *self,
                                           const char          *description,
                                           guint                n_lanes,
                                           GError             **error);
/* From the store's thread (a notification): "jobs-available" for
 * @tenant on the store's main context; a burst for one tenant is one
 * emission. */
void     sluice_store_backend_announce    (SluiceStoreBackend  *self,
                                           const char          *tenant);
/* From the store's thread: "cancel-requested" for @job_id on the store's
 * main context. */
void     sluice_store_backend_announce_cancel (SluiceStoreBackend *self,
                                           const char          *job_id);

/* The checks of sluice_job_store_enqueue_async()'s arguments (in
 * sluice-job-store.c), for the other ways in. */
gboolean sluice_job_store_check_enqueue  (const char          *tenant,
                                          const char          *operation_key,
                                          const char          *payload,
                                          guint                max_attempts,
                                          GError             **error);

/* For backends: every request of a batch fails with (a copy of) @error. */
void     sluice_store_requests_fail_all   (SluiceStoreRequest **requests,
                                           guint                n,
                                           const GError        *error);
void     sluice_store_request_lease_lost  (SluiceStoreRequest  *request);
void     sluice_store_request_cancel_requested (SluiceStoreRequest *request);
/* For backends: the 1 << state bits of @query's filter, with every state
 * the verb applies to when the query names none (a verb by ids). */
guint    sluice_store_admin_verb_states   (const SluiceStoreAdminQuery *query);

G_END_DECLS
