/* sluice-sqlite-store.c: the job store in a SQLite file (its SQL:
 * sluice-sqlite-connection*.c; its thread: SluiceStoreBackend)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-sqlite-store.h"

#include <glib/gi18n-lib.h>

#include "sluice-sqlite-connection-private.h"

/**
 * SluiceSqliteStore:
 *
 * A #SluiceJobStore in one SQLite file, for one machine: several
 * processes (each with its own stores) may share the file.
 *
 * The connection is opened on the caller's thread (its errors are the
 * open's), then belongs to the store's thread (#SluiceStoreBackend: the
 * requests run there in batches, each batch one transaction).
 *
 * Settings and why (docs/job-store.md): WAL journal mode, so that readers
 * (store-status, the app) never wait for a writer and a writer does not
 * wait for readers; `synchronous=FULL` while a batch of enqueues commits,
 * so that an enqueue that was answered survives a power cut, and
 * `synchronous=NORMAL` for the rest (claims, completions, failures: WAL
 * keeps them through a crash of any process; a power cut may undo the last
 * of them, which only runs their jobs again, at least once as ever); `busy_timeout` of 5 s, so that writers of
 * several processes queue on the file's lock instead of failing; and
 * `BEGIN IMMEDIATE` for every write, so that a transaction takes the write
 * lock before it reads (a deferred transaction that reads, then writes,
 * fails at once with `SQLITE_BUSY` when another process wrote in
 * between, and its busy handler is not called).
 *
 * "jobs-available" is emitted, on the main context the store was made on,
 * after this process's enqueue that made a job, fail that scheduled a
 * retry, release of a claim, and release_expired that put jobs back to
 * pending: SQLite tells no other process.
 */

/* ---- the GObject ------------------------------------------------------- */

struct _SluiceSqliteStore
{
  SluiceStoreBackend      parent_instance;

  char                   *path;
  SluiceJobStoreOpen      mode;  /* set before init */
  SluiceSqliteConnection *conn;  /* the store's thread's, once started */
};

enum {
  PROP_0,
  PROP_PATH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void sluice_sqlite_store_initable_init (GInitableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceSqliteStore, sluice_sqlite_store, SLUICE_TYPE_STORE_BACKEND,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, sluice_sqlite_store_initable_init))

static gboolean
sluice_sqlite_store_init_backend (GInitable     *initable,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (initable);

  g_return_val_if_fail (self->path != NULL, FALSE);
  if (self->conn != NULL)
    return TRUE;
  self->conn = sluice_sqlite_connection_open (self->path, self->mode, error);
  if (self->conn == NULL)
    return FALSE;
  if (!sluice_store_backend_start (SLUICE_STORE_BACKEND (self), self->path, 1, error))
    {
      g_clear_pointer (&self->conn, sluice_sqlite_connection_free);
      return FALSE;
    }
  return TRUE;
}

static void
sluice_sqlite_store_initable_init (GInitableIface *iface)
{
  iface->init = sluice_sqlite_store_init_backend;
}

static void
sluice_sqlite_store_finalize (GObject *object)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  /* The store's thread has ended (SluiceStoreBackend's dispose). */
  g_clear_pointer (&self->conn, sluice_sqlite_connection_free);
  g_free (self->path);
  G_OBJECT_CLASS (sluice_sqlite_store_parent_class)->finalize (object);
}

static void
sluice_sqlite_store_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_sqlite_store_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SluiceSqliteStore *self = SLUICE_SQLITE_STORE (object);

  switch (prop_id)
    {
    case PROP_PATH:
      g_free (self->path);
      self->path = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_sqlite_store_class_init (SluiceSqliteStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sluice_sqlite_store_finalize;
  object_class->get_property = sluice_sqlite_store_get_property;
  object_class->set_property = sluice_sqlite_store_set_property;

  /**
   * SluiceSqliteStore:path:
   *
   * The SQLite file (sluice_sqlite_store_open() says when it is created).
   */
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  sluice_sqlite_jobs_class_init (SLUICE_STORE_BACKEND_CLASS (klass));
}

static void
sluice_sqlite_store_init (SluiceSqliteStore *self)
{
}

/**
 * sluice_sqlite_store_open:
 * @path: the SQLite file
 * @mode: what opening may do to the file: read-write makes the job store
 *   in a new file or one without tables, init also in one with other
 *   tables; read-only opens it with `SQLITE_OPEN_READONLY` and never
 *   creates, converts (to WAL) or migrates it
 * @error: set on failure: %SLUICE_STORE_ERROR_BACKEND naming the file
 *   (it cannot be opened, is not a database, cannot use WAL, is locked past
 *   the busy timeout), %SLUICE_STORE_ERROR_SCHEMA (a newer schema, or not a
 *   job store's), %SLUICE_STORE_ERROR_NOT_A_STORE (no job store, and @mode
 *   does not let it make one; read-only: no such file)
 *
 * Opens the store in @path on the caller's thread (this may wait up to the
 * busy timeout for another process's write), then hands the connection to
 * the store's thread.
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_sqlite_store_open (const char          *path,
                          SluiceJobStoreOpen   mode,
                          GError             **error)
{
  g_autoptr(SluiceSqliteStore) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (mode <= SLUICE_JOB_STORE_OPEN_INIT, NULL);

  self = g_object_new (SLUICE_TYPE_SQLITE_STORE, "path", path, NULL);
  /* Not a property: a store is opened in one mode for its life. */
  self->mode = mode;
  if (!g_initable_init (G_INITABLE (self), NULL, error))
    return NULL;
  return SLUICE_JOB_STORE (g_steal_pointer (&self));
}

/**
 * sluice_sqlite_store_new:
 * @path: the SQLite file; made with the schema if it does not exist
 * @error: set on failure, as sluice_sqlite_store_open() says
 *
 * Opens the store in @path for reading and writing
 * (%SLUICE_JOB_STORE_OPEN_READ_WRITE).
 *
 * Returns: (transfer full): the store, or %NULL with @error set
 */
SluiceJobStore *
sluice_sqlite_store_new (const char  *path,
                         GError     **error)
{
  return sluice_sqlite_store_open (path, SLUICE_JOB_STORE_OPEN_READ_WRITE, error);
}

/**
 * sluice_sqlite_store_get_path:
 * @self: a store
 *
 * Returns: its SQLite file
 */
const char *
sluice_sqlite_store_get_path (SluiceSqliteStore *self)
{
  g_return_val_if_fail (SLUICE_IS_SQLITE_STORE (self), NULL);

  return self->path;
}

/* The connection, for the store's thread (sluice-sqlite-connection-jobs.c). */
SluiceSqliteConnection *
sluice_sqlite_store_get_connection (SluiceSqliteStore *self)
{
  return self->conn;
}
