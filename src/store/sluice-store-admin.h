/* sluice-store-admin.h: what an operator asks of a job store and does to
 * it: jobs listed and searched, one job with its attempt history, retry,
 * cancel, discard, tenants paused and limited, workers and their
 * heartbeats (docs/store-admin.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-job-store.h"

G_BEGIN_DECLS

/**
 * SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT:
 *
 * The attempts a store keeps in a job's history: the last 25; the older
 * ones are counted (SluiceStoreAdminReply:attempts_dropped).
 */
#define SLUICE_STORE_ADMIN_MAX_ATTEMPTS_KEPT 25

/**
 * SLUICE_STORE_ADMIN_LOST_LEASES:
 *
 * A worker whose last heartbeat is older than this many of its leases is
 * lost.
 */
#define SLUICE_STORE_ADMIN_LOST_LEASES 3

/**
 * SluiceStoreAdminOp:
 * @SLUICE_STORE_ADMIN_LIST_JOBS: jobs matching the filter, newest first,
 *   a page of @limit after the job @after (keyset pagination)
 * @SLUICE_STORE_ADMIN_SHOW: the job @ids[0] with its attempt history
 * @SLUICE_STORE_ADMIN_RETRY: the jobs (by @ids, or by the filter) that are
 *   dead, waiting to retry or cancelled become pending now
 * @SLUICE_STORE_ADMIN_CANCEL: pending and waiting jobs become cancelled;
 *   running ones are marked for their worker to cancel
 * @SLUICE_STORE_ADMIN_DISCARD: deletes the jobs (not running ones)
 * @SLUICE_STORE_ADMIN_PAUSE: the tenant's jobs are not claimed
 * @SLUICE_STORE_ADMIN_RESUME: they are again
 * @SLUICE_STORE_ADMIN_LIMIT: at most @concurrency of the tenant's jobs run
 *   at once, across all workers (-1: no limit)
 * @SLUICE_STORE_ADMIN_TENANTS: the tenants: counts by state, paused, limit
 * @SLUICE_STORE_ADMIN_WORKERS: the workers, alive and lost, with the
 *   claims each holds
 * @SLUICE_STORE_ADMIN_PRUNE_WORKERS: deletes the lost workers' rows
 * @SLUICE_STORE_ADMIN_WORKER_BEAT: registers @worker or renews its
 *   heartbeat
 * @SLUICE_STORE_ADMIN_COMPLETIONS: the attempts that ended after @since,
 *   oldest first, at most @limit: when each ended, how, and how long its
 *   job waited before it started (the store window's throughput charts)
 * @SLUICE_STORE_ADMIN_WRITABLE: whether the store may be written through
 *   this connection (SluiceStoreAdminReply:writable): a window hides its
 *   actions when not (docs/store-admin.md, "read-only")
 *
 * The kinds of #SluiceStoreAdminQuery.
 */
typedef enum {
  SLUICE_STORE_ADMIN_LIST_JOBS,
  SLUICE_STORE_ADMIN_SHOW,
  SLUICE_STORE_ADMIN_RETRY,
  SLUICE_STORE_ADMIN_CANCEL,
  SLUICE_STORE_ADMIN_DISCARD,
  SLUICE_STORE_ADMIN_PAUSE,
  SLUICE_STORE_ADMIN_RESUME,
  SLUICE_STORE_ADMIN_LIMIT,
  SLUICE_STORE_ADMIN_TENANTS,
  SLUICE_STORE_ADMIN_WORKERS,
  SLUICE_STORE_ADMIN_PRUNE_WORKERS,
  SLUICE_STORE_ADMIN_WORKER_BEAT,
  SLUICE_STORE_ADMIN_COMPLETIONS,
  SLUICE_STORE_ADMIN_WRITABLE,
} SluiceStoreAdminOp;

/**
 * SluiceStoreAttemptOutcome:
 *
 * How an attempt in a job's history ended; RUNNING: it has not.
 */
typedef enum {
  SLUICE_STORE_ATTEMPT_RUNNING,
  SLUICE_STORE_ATTEMPT_SUCCEEDED,
  SLUICE_STORE_ATTEMPT_FAILED,
  SLUICE_STORE_ATTEMPT_TIMED_OUT,
  SLUICE_STORE_ATTEMPT_LEASE_LOST,
  SLUICE_STORE_ATTEMPT_CANCELLED,
} SluiceStoreAttemptOutcome;

/**
 * SluiceStoreAttempt:
 * @number: its number, from 1, counting the dropped ones
 * @worker: the worker that ran it (the lease owner)
 * @started_at: when it was claimed, µs since the epoch
 * @ended_at: when it ended, or 0 while it runs
 * @outcome: how it ended
 * @error: (nullable): the failure, for one that failed
 *
 * One attempt of a job, as its history keeps it.
 */
typedef struct {
  guint                      number;
  char                      *worker;
  gint64                     started_at;
  gint64                     ended_at;
  SluiceStoreAttemptOutcome  outcome;
  SluiceJobFailure          *error;
} SluiceStoreAttempt;

/**
 * SluiceStoreCompletion:
 * @ended_at: when the attempt ended, µs since the epoch
 * @outcome: how it ended
 * @waited: how long the job waited before the attempt started, µs: from
 *   when it was enqueued (a first attempt) or its previous attempt ended
 *   (a retry: the backoff included)
 *
 * One ended attempt, as %SLUICE_STORE_ADMIN_COMPLETIONS reads it.
 */
typedef struct {
  gint64                     ended_at;
  SluiceStoreAttemptOutcome  outcome;
  gint64                     waited;
} SluiceStoreCompletion;

/**
 * SluiceStoreWorker:
 * @id: the worker's id (the lease owner of its claims)
 * @host: the host it runs on
 * @pid: its process id
 * @started_at: when it started, µs since the epoch
 * @heartbeat_at: its last heartbeat
 * @lease: its lease, µs (lost after SLUICE_STORE_ADMIN_LOST_LEASES of them)
 * @tenants: the tenants it serves, comma-separated
 * @done: jobs it completed since it started
 * @failed: jobs it failed since it started
 * @lost: (read) its heartbeat is older than 3 leases at the query's now
 * @claims: (read) (element-type SluiceStoredJob): the jobs it holds now
 */
typedef struct {
  char      *id;
  char      *host;
  gint64     pid;
  gint64     started_at;
  gint64     heartbeat_at;
  gint64     lease;
  char      *tenants;
  guint64    done;
  guint64    failed;
  gboolean   lost;
  GPtrArray *claims;
} SluiceStoreWorker;

/**
 * SluiceStoreTenant:
 * @name: the tenant
 * @paused: its jobs are not claimed
 * @concurrency: the most of its jobs running at once, or -1
 * @counts: its jobs by #SluiceStoredJobState
 */
typedef struct {
  char    *name;
  gboolean paused;
  gint64   concurrency;
  guint64  counts[SLUICE_STORED_JOB_N_STATES];
} SluiceStoreTenant;

/**
 * SluiceStoreAdminChange:
 * @SLUICE_STORE_ADMIN_CHANGED: the verb changed the job
 * @SLUICE_STORE_ADMIN_NOT_FOUND: there is no such job
 * @SLUICE_STORE_ADMIN_NOT_APPLICABLE: the job's state is not one the verb
 *   applies to
 * @SLUICE_STORE_ADMIN_REQUESTED: (cancel) the job runs: its worker is
 *   told, and records the attempt cancelled
 */
typedef enum {
  SLUICE_STORE_ADMIN_CHANGED,
  SLUICE_STORE_ADMIN_NOT_FOUND,
  SLUICE_STORE_ADMIN_NOT_APPLICABLE,
  SLUICE_STORE_ADMIN_REQUESTED,
} SluiceStoreAdminChange;

/**
 * SluiceStoreAdminItem:
 * @id: a job's id as asked
 * @change: what the verb did to it
 * @state: its state before (when found)
 */
typedef struct {
  char                   *id;
  SluiceStoreAdminChange  change;
  SluiceStoredJobState    state;
} SluiceStoreAdminItem;

/**
 * SluiceStoreAdminQuery:
 * @op: what is asked
 * @tenant: (nullable): only this tenant's jobs (a tenant's name for the
 *   tenant verbs)
 * @states: the states of the filter, a bit (1 << state) each; 0: any
 * @key_prefix: (nullable): only jobs whose operation key starts so
 * @search: (nullable): text in the operation key or the payload; `K:V`
 *   also matches a payload whose member K is V
 * @limit: the most jobs of a page
 * @after: (nullable): the page after this job's id
 * @ids: (nullable) (array zero-terminated=1): the jobs of a verb by id;
 *   %NULL: the filter's jobs (@states required)
 * @older_than: (discard) only jobs that last changed before this time, µs
 *   since the epoch; 0: any
 * @reset_attempts: (retry) the attempts count from 0 again
 * @confirmed: the change may touch more than one job; without it a change
 *   that would is not made (SluiceStoreAdminReply:matched says how many)
 * @concurrency: (limit) the limit, or -1 for none
 * @worker: (nullable): (beat) the worker
 * @now: the time of the query, µs since the epoch
 * @since: (completions) only attempts that ended after this time, µs
 *   since the epoch
 */
typedef struct {
  SluiceStoreAdminOp  op;
  char               *tenant;
  guint               states;
  char               *key_prefix;
  char               *search;
  guint               limit;
  char               *after;
  char              **ids;
  gint64              older_than;
  gboolean            reset_attempts;
  gboolean            confirmed;
  gint64              concurrency;
  SluiceStoreWorker  *worker;
  gint64              now;
  gint64              since;
} SluiceStoreAdminQuery;

/**
 * SluiceStoreAdminReply:
 * @jobs: (element-type SluiceStoredJob): the page (list), or the job
 *   (show: one, or none when there is no such job)
 * @next: (nullable): (list) the id to pass as @after for the next page;
 *   %NULL on the last page
 * @attempts: (element-type SluiceStoreAttempt): (show) its history,
 *   oldest first
 * @attempts_dropped: (show) attempts older than the ones kept
 * @items: (element-type SluiceStoreAdminItem): (verbs by id) one per id
 * @matched: (verbs) the jobs the verb applies to
 * @changed: (verbs) the jobs it changed (0 when it needed confirmation)
 * @tenants: (element-type SluiceStoreTenant): (tenants)
 * @workers: (element-type SluiceStoreWorker): (workers; prune: the pruned)
 * @completions: (element-type SluiceStoreCompletion): (completions)
 * @writable: (writable) the store may be written: SQLite, the file was
 *   opened for writing (not read-only, nor fallen back to read-only) and
 *   the file and its folder are writable by this process; PostgreSQL, the
 *   session is not read-only, the server is no standby, and the user may
 *   insert, update and delete the jobs
 */
typedef struct {
  GPtrArray *jobs;
  char      *next;
  GPtrArray *attempts;
  guint      attempts_dropped;
  GPtrArray *items;
  guint64    matched;
  guint64    changed;
  GPtrArray *tenants;
  GPtrArray *workers;
  GArray    *completions;
  gboolean   writable;
} SluiceStoreAdminReply;

SluiceStoreAdminQuery *sluice_store_admin_query_new    (SluiceStoreAdminOp            op);
SluiceStoreAdminQuery *sluice_store_admin_query_copy   (const SluiceStoreAdminQuery  *query);
void                   sluice_store_admin_query_free   (SluiceStoreAdminQuery        *query);
SluiceStoreAdminReply *sluice_store_admin_reply_new    (void);
void                   sluice_store_admin_reply_free   (SluiceStoreAdminReply        *reply);
SluiceStoreWorker     *sluice_store_worker_copy        (const SluiceStoreWorker      *worker);
void                   sluice_store_worker_free        (SluiceStoreWorker            *worker);
void                   sluice_store_attempt_free       (SluiceStoreAttempt           *attempt);
void                   sluice_store_tenant_free        (SluiceStoreTenant            *tenant);
void                   sluice_store_admin_item_free    (SluiceStoreAdminItem         *item);
const char            *sluice_store_attempt_outcome_to_string (SluiceStoreAttemptOutcome outcome);
SluiceStoreAttemptOutcome sluice_store_attempt_outcome_from_string (const char        *name);
const char            *sluice_store_admin_change_to_string (SluiceStoreAdminChange    change);

void                   sluice_store_enqueue_at_async   (SluiceJobStore               *store,
                                                        const char                   *tenant,
                                                        const char                   *operation_key,
                                                        const char                   *payload,
                                                        guint                         max_attempts,
                                                        gint64                        now,
                                                        gint64                        available_at,
                                                        GCancellable                 *cancellable,
                                                        GAsyncReadyCallback           callback,
                                                        gpointer                      user_data);

/* Whether @store answers admin queries (the SQLite and PostgreSQL stores). */
gboolean               sluice_store_admin_supported    (SluiceJobStore               *store);
void                   sluice_store_admin_async        (SluiceJobStore               *store,
                                                        const SluiceStoreAdminQuery  *query,
                                                        GCancellable                 *cancellable,
                                                        GAsyncReadyCallback           callback,
                                                        gpointer                      user_data);
SluiceStoreAdminReply *sluice_store_admin_finish       (SluiceJobStore               *store,
                                                        GAsyncResult                 *result,
                                                        GError                      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreAdminQuery, sluice_store_admin_query_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreAdminReply, sluice_store_admin_reply_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceStoreWorker, sluice_store_worker_free)

G_END_DECLS
