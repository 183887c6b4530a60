/* sluice-pg-store.c: the job store on PostgreSQL (docs/job-store.md)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SluicePgStore:
 *
 * A #SluiceJobStore in a PostgreSQL database, for workers on several
 * machines (libpq; PostgreSQL 15 is what the tests run). Claims take a row
 * with `FOR UPDATE SKIP LOCKED`, fencing is in the WHERE of every renew,
 * complete and fail, enqueue is idempotent by `INSERT … ON CONFLICT DO
 * NOTHING`. Enqueue, a fail that schedules a retry and a release send
 * `NOTIFY sluice_jobs, 'TENANT'`; the store LISTENs and emits "jobs-available" on
 * the main context it was made on, for a notification from any process,
 * itself included.
 *
 * The store makes its schema (tables `sluice_schema` and `sluice_jobs`) on
 * its first connection, in a transaction that holds an advisory lock, and
 * refuses a schema version newer than its own with
 * %SLUICE_STORE_ERROR_SCHEMA. It makes it only in a schema without tables
 * unless opened with %SLUICE_JOB_STORE_OPEN_INIT, and never when opened
 * read-only (SluiceJobStoreOpen). A URI's `options=-csearch_path=S` puts the
 * tables into schema S.
 *
 * Threads: all of libpq runs on the store's thread (#SluiceStoreBackend),
 * one batch of requests after the other on one connection, with libpq's
 * blocking calls. A claim takes up to the jobs asked for in one statement
 * (`FOR UPDATE SKIP LOCKED LIMIT k`), and the completions of a batch are
 * one statement over arrays: one round trip and one commit for all. A
 * thread rather than libpq's non-blocking calls on the caller's
 * main context because connecting is not asynchronous all the way in
 * libpq (a host name is resolved with a blocking getaddrinfo() inside
 * PQconnectPoll()), because the schema's transaction and the statements'
 * preparation are plain sequences this way, and because the SQLite store
 * works the same way. The connection doubles as the listener: while it is
 * idle its socket is watched on the thread's own main context.
 *
 * Nothing connects in sluice_pg_store_new(): the first request does, and
 * its error (the server unreachable, a newer schema) is that request's. A
 * connection that breaks is closed with the failing request's error and
 * the next request opens a new one (and LISTENs again: notifications in
 * between are lost, which costs idle workers a poll interval). A request
 * that was cancelled before it ran does not run; one that runs is not
 * interrupted, and reports what it did.
 *
 * release_expired with a %NULL or empty tenant releases the expired leases
 * of every tenant; a limit of 0 releases none, as the limit says.
 */

#include "sluice-pg-store.h"

#include "sluice-pg-connection-private.h"

struct _SluicePgStore
{
  SluiceStoreBackend  parent_instance;

  char               *description;
  /* One per lane: claims and reads on the first, completions and the
   * rest on the second (SluiceStoreBackend), each its lane's thread's. */
  SluicePgConnection *connections[SLUICE_STORE_BACKEND_MAX_LANES];
};

G_DEFINE_FINAL_TYPE (SluicePgStore, sluice_pg_store, SLUICE_TYPE_STORE_BACKEND)

/* On the store's thread: a NOTIFY. The store is alive while its thread
 * runs (its dispose stops the thread). */
static void
on_notification (const char *channel,
                 const char *payload,
                 gpointer    user_data)
{
  if (g_str_equal (channel, SLUICE_PG_CANCEL_CHANNEL))
    sluice_store_backend_announce_cancel (SLUICE_STORE_BACKEND (user_data), payload);
  else
    sluice_store_backend_announce (SLUICE_STORE_BACKEND (user_data), payload);
}

static void
sluice_pg_store_finalize (GObject *object)
{
  SluicePgStore *self = SLUICE_PG_STORE (object);

  /* The store's thread has ended (SluiceStoreBackend's dispose). */
  for (guint i = 0; i < G_N_ELEMENTS (self->connections); i++)
    g_clear_pointer (&self->connections[i], sluice_pg_connection_free);
  g_free (self->description);
  G_OBJECT_CLASS (sluice_pg_store_parent_class)->finalize (object);
}

static void
sluice_pg_store_class_init (SluicePgStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_pg_store_finalize;
  sluice_pg_jobs_class_init (SLUICE_STORE_BACKEND_CLASS (klass));
}

static void
sluice_pg_store_init (SluicePgStore *self)
{
}

SluicePgConnection *
sluice_pg_store_get_connection (SluicePgStore *self,
                                guint          lane)
{
  return self->connections[lane];
}

/**
 * sluice_pg_store_open:
 * @uri: a `postgresql://` (or `postgres://`) URI, as libpq reads it
 * @mode: what connecting may do to the database: read-write makes the job
 *   store in a schema without tables, init also in one with other tables;
 *   read-only never makes or migrates anything, and the session's
 *   transactions are read-only
 * @error: set to %SLUICE_STORE_ERROR_INVALID_URI when @uri is not one
 *
 * Makes a store on the database @uri names. Nothing connects yet (the
 * call never blocks): the first request connects, makes or checks the
 * schema and LISTENs, and fails with %SLUICE_STORE_ERROR_BACKEND when the
 * server cannot be reached, %SLUICE_STORE_ERROR_SCHEMA when its schema
 * is newer, or %SLUICE_STORE_ERROR_NOT_A_STORE when there is no job store
 * and @mode does not let it make one. Notifications ("jobs-available") are emitted on the
 * thread-default main context of this call, from the first request's
 * connection on. Messages name the store with
 * sluice_job_store_describe_uri(), never with its password.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_pg_store_open (const char          *uri,
                      SluiceJobStoreOpen   mode,
                      GError             **error)
{
  g_autoptr(SluicePgStore) self = NULL;

  g_return_val_if_fail (uri != NULL, NULL);
  g_return_val_if_fail (mode <= SLUICE_JOB_STORE_OPEN_INIT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!sluice_pg_check_uri (uri, error))
    return NULL;

  self = g_object_new (SLUICE_TYPE_PG_STORE, NULL);
  self->description = sluice_job_store_describe_uri (uri);
  /* Both LISTEN: whichever lane connects first hears the NOTIFYs from
   * then on (the other may not connect for a while); the emissions of
   * one tenant that are still on their way are one. */
  for (guint i = 0; i < G_N_ELEMENTS (self->connections); i++)
    self->connections[i] = sluice_pg_connection_new (uri, mode, on_notification, self);
  if (!sluice_store_backend_start (SLUICE_STORE_BACKEND (self), self->description,
                                   G_N_ELEMENTS (self->connections), error))
    return NULL;
  return SLUICE_JOB_STORE (g_steal_pointer (&self));
}

/**
 * sluice_pg_store_new:
 * @uri: a `postgresql://` (or `postgres://`) URI, as libpq reads it
 * @error: set to %SLUICE_STORE_ERROR_INVALID_URI when @uri is not one
 *
 * sluice_pg_store_open() for reading and writing
 * (%SLUICE_JOB_STORE_OPEN_READ_WRITE).
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_pg_store_new (const char  *uri,
                     GError     **error)
{
  return sluice_pg_store_open (uri, SLUICE_JOB_STORE_OPEN_READ_WRITE, error);
}

/**
 * sluice_pg_store_get_description:
 * @self: a store
 *
 * The store's URI without its password (sluice_job_store_describe_uri()).
 *
 * Returns: (transfer none): the description
 */
const char *
sluice_pg_store_get_description (SluicePgStore *self)
{
  g_return_val_if_fail (SLUICE_IS_PG_STORE (self), NULL);

  return self->description;
}
