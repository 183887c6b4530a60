/* sluice-store-jobs-model.c: a store's jobs as a paginated GListModel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-jobs-model.h"

#include "sluice-pg-store.h"

/**
 * SluiceStoreJobsModel:
 *
 * The jobs of a store that match a filter (tenant, states, key prefix,
 * search: a #SluiceStoreAdminQuery), newest first, as a #GListModel of
 * #SluiceStoreJobItem that holds only the pages read so far
 * (docs/store-admin.md): the first page is read when the model is made,
 * the next when its view asks (sluice_store_jobs_model_load_more(), such
 * as when the list is scrolled near its end), each one admin query after
 * the last job read (keyset pagination, so jobs enqueued meanwhile never
 * shift a page). sluice_store_jobs_model_reload() starts again from the
 * newest, as after a change or a NOTIFY.
 *
 * Live (docs/store-admin.md, "Live"): the model reads its jobs again
 * (sluice_store_jobs_model_refresh(): as many as it holds, replaced in one
 * change) when the store says jobs of its tenant may have come
 * (#SluiceJobStore::jobs-available: on PostgreSQL a NOTIFY of any
 * process's enqueue, retry, release or resume; on SQLite this process's
 * own), and every #SluiceStoreJobsModel:poll-interval seconds on the wall
 * clock: once a second on SQLite, whose other processes tell nothing;
 * every 10 s on PostgreSQL, for the changes that send no NOTIFY (a
 * completion, a failure for good, a discard: a NOTIFY per completed job
 * would cost every worker a round trip). A refresh asked while a read is
 * in flight comes after it, once.
 *
 * The store is never waited for: a read runs on the store's thread and
 * its page is added on the model's main context; a read made stale by a
 * reload is dropped when it answers.
 */

/* The default poll intervals, seconds (see above). */
#define SQLITE_POLL_INTERVAL 1.0
#define PG_POLL_INTERVAL 10.0
struct _SluiceStoreJobsModel
{
  GObject                parent_instance;

  SluiceJobStore        *store;
  SluiceStoreAdminQuery *filter;
  guint                  page_size;

  GPtrArray             *items;        /* SluiceStoreJobItem */
  char                  *after;        /* the last job read, for the next page */
  gboolean               has_more;
  gboolean               loading;
  guint                  generation;   /* a reload makes reads in flight stale */

  double                 poll_interval;
  guint                  poll_timer;
  gulong                 jobs_available_id;
  gboolean               refresh_due;  /* asked while a read was in flight */
};

enum {
  PROP_0,
  PROP_HAS_MORE,
  PROP_LOADING,
  PROP_N_ITEMS,
  PROP_POLL_INTERVAL,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceStoreJobsModel, sluice_store_jobs_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

/* ---- GListModel ------------------------------------------------------------ */

static GType
model_get_item_type (GListModel *model)
{
  return SLUICE_TYPE_STORE_JOB_ITEM;
}

static guint
model_get_n_items (GListModel *model)
{
  return SLUICE_STORE_JOBS_MODEL (model)->items->len;
}

static gpointer
model_get_item (GListModel *model,
                guint       position)
{
  SluiceStoreJobsModel *self = SLUICE_STORE_JOBS_MODEL (model);

  if (position >= self->items->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = model_get_item_type;
  iface->get_n_items = model_get_n_items;
  iface->get_item = model_get_item;
}

/* ---- reading pages ------------------------------------------------------------ */

typedef struct
{
  SluiceStoreJobsModel *self;  /* a reference until the answer */
  guint                 generation;
  gboolean              replace;   /* a refresh: its page replaces every item */
} Read;

static void replace_items (SluiceStoreJobsModel  *self,
                           SluiceStoreAdminReply *reply);
static void add_page      (SluiceStoreJobsModel  *self,
                           SluiceStoreAdminReply *reply);

static void
set_loading (SluiceStoreJobsModel *self,
             gboolean              loading)
{
  if (self->loading == loading)
    return;
  self->loading = loading;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
on_page (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autofree Read *read = user_data;
  g_autoptr(SluiceStoreJobsModel) self = read->self;
  g_autoptr(SluiceStoreAdminReply) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = sluice_store_admin_finish (SLUICE_JOB_STORE (object), result, &error);
  if (read->generation != self->generation)
    return;  /* a reload started again meanwhile */
  set_loading (self, FALSE);
  if (reply == NULL)
    {
      /* The next load_more() tries again. */
      g_debug ("a page of jobs could not be read: %s", error->message);
    }
  else if (read->replace)
    replace_items (self, reply);
  else
    add_page (self, reply);
  if (self->refresh_due)
    {
      self->refresh_due = FALSE;
      sluice_store_jobs_model_refresh (self);
    }
}

static void
set_next (SluiceStoreJobsModel  *self,
          SluiceStoreAdminReply *reply)
{
  g_free (self->after);
  self->after = g_strdup (reply->next);
  if (self->has_more != (reply->next != NULL))
    {
      self->has_more = reply->next != NULL;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HAS_MORE]);
    }
}

/* A refresh's page: the items as they are now, in one change (a view
 * keeps its place instead of going blank). */
static void
replace_items (SluiceStoreJobsModel  *self,
               SluiceStoreAdminReply *reply)
{
  guint removed = self->items->len;

  g_ptr_array_set_size (self->items, 0);
  for (guint i = 0; i < reply->jobs->len; i++)
    g_ptr_array_add (self->items, sluice_store_job_item_new (g_ptr_array_index (reply->jobs, i)));
  set_next (self, reply);
  if (removed > 0 || reply->jobs->len > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, reply->jobs->len);
  if (removed != reply->jobs->len)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
}

static void
add_page (SluiceStoreJobsModel  *self,
          SluiceStoreAdminReply *reply)
{
  guint position = self->items->len;

  for (guint i = 0; i < reply->jobs->len; i++)
    g_ptr_array_add (self->items, sluice_store_job_item_new (g_ptr_array_index (reply->jobs, i)));
  set_next (self, reply);
  if (reply->jobs->len > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), position, 0, reply->jobs->len);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
}

/**
 * sluice_store_jobs_model_load_more:
 * @self: a model
 *
 * Reads the next page, unless one is being read or there is none.
 */
/* Reads @limit jobs after @after (NULL: from the newest). */
static void
start_read (SluiceStoreJobsModel *self,
            const char           *after,
            guint                 limit,
            gboolean              replace)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_copy (self->filter);
  Read *read = g_new0 (Read, 1);

  query->op = SLUICE_STORE_ADMIN_LIST_JOBS;
  query->limit = limit;
  g_free (query->after);
  query->after = g_strdup (after);
  query->now = g_get_real_time ();
  read->self = g_object_ref (self);
  read->generation = self->generation;
  read->replace = replace;
  set_loading (self, TRUE);
  sluice_store_admin_async (self->store, query, NULL, on_page, read);
}

void
sluice_store_jobs_model_load_more (SluiceStoreJobsModel *self)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self));

  if (self->loading || !self->has_more)
    return;
  start_read (self, self->after, self->page_size, FALSE);
}

/**
 * sluice_store_jobs_model_refresh:
 * @self: a model
 *
 * Reads again as many of the newest jobs as the model holds (a page at
 * least), and replaces its items with them in one change: what a NOTIFY
 * or a poll does. Asked while a read is in flight, it comes after it.
 */
void
sluice_store_jobs_model_refresh (SluiceStoreJobsModel *self)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self));

  if (self->loading)
    {
      self->refresh_due = TRUE;
      return;
    }
  start_read (self, NULL, MAX (self->page_size, self->items->len), TRUE);
}

static void
on_jobs_available (SluiceJobStore *store,
                   const char     *tenant,
                   gpointer        user_data)
{
  SluiceStoreJobsModel *self = user_data;

  if (self->filter->tenant == NULL || g_strcmp0 (self->filter->tenant, tenant) == 0)
    sluice_store_jobs_model_refresh (self);
}

static gboolean
on_poll (gpointer user_data)
{
  sluice_store_jobs_model_refresh (user_data);
  return G_SOURCE_CONTINUE;
}

/**
 * sluice_store_jobs_model_set_poll_interval:
 * @self: a model
 * @seconds: the seconds between two refreshes on the wall clock; 0: none
 *   (only the store's notifications)
 */
void
sluice_store_jobs_model_set_poll_interval (SluiceStoreJobsModel *self,
                                           double                seconds)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self));
  g_return_if_fail (seconds >= 0);

  g_clear_handle_id (&self->poll_timer, g_source_remove);
  if (self->poll_interval != seconds)
    {
      self->poll_interval = seconds;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POLL_INTERVAL]);
    }
  /* A window's refresh is on the wall clock: the store's other processes
   * change it in real time. */
  if (seconds > 0)
    self->poll_timer = g_timeout_add ((guint) MAX (seconds * 1000, 1), on_poll, self);
}

/**
 * sluice_store_jobs_model_stop_live:
 * @self: a model
 *
 * No more refreshes by the store's notifications nor by polls: the model
 * changes only when asked (load_more, reload, refresh).
 */
void
sluice_store_jobs_model_stop_live (SluiceStoreJobsModel *self)
{
  g_return_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self));

  sluice_store_jobs_model_set_poll_interval (self, 0);
  g_clear_signal_handler (&self->jobs_available_id, self->store);
  self->refresh_due = FALSE;
}

double
sluice_store_jobs_model_get_poll_interval (SluiceStoreJobsModel *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self), 0);

  return self->poll_interval;
}

/**
 * sluice_store_jobs_model_reload:
 * @self: a model
 *
 * Forgets the pages read and reads the first one again.
 */
void
sluice_store_jobs_model_reload (SluiceStoreJobsModel *self)
{
  guint removed;

  g_return_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self));

  self->generation++;
  self->loading = FALSE;
  removed = self->items->len;
  g_ptr_array_set_size (self->items, 0);
  g_clear_pointer (&self->after, g_free);
  self->has_more = TRUE;
  if (removed > 0)
    {
      g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_ITEMS]);
    }
  sluice_store_jobs_model_load_more (self);
}

gboolean
sluice_store_jobs_model_get_has_more (SluiceStoreJobsModel *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self), FALSE);

  return self->has_more;
}

gboolean
sluice_store_jobs_model_get_loading (SluiceStoreJobsModel *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOBS_MODEL (self), FALSE);

  return self->loading;
}

/* ---- the GObject ---------------------------------------------------------------- */

static void
sluice_store_jobs_model_dispose (GObject *object)
{
  SluiceStoreJobsModel *self = SLUICE_STORE_JOBS_MODEL (object);

  g_clear_handle_id (&self->poll_timer, g_source_remove);
  if (self->store != NULL)
    g_clear_signal_handler (&self->jobs_available_id, self->store);
  G_OBJECT_CLASS (sluice_store_jobs_model_parent_class)->dispose (object);
}

static void
sluice_store_jobs_model_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  SluiceStoreJobsModel *self = SLUICE_STORE_JOBS_MODEL (object);

  switch (prop_id)
    {
    case PROP_POLL_INTERVAL:
      sluice_store_jobs_model_set_poll_interval (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_jobs_model_finalize (GObject *object)
{
  SluiceStoreJobsModel *self = SLUICE_STORE_JOBS_MODEL (object);

  g_clear_object (&self->store);
  g_clear_pointer (&self->filter, sluice_store_admin_query_free);
  g_clear_pointer (&self->items, g_ptr_array_unref);
  g_free (self->after);
  G_OBJECT_CLASS (sluice_store_jobs_model_parent_class)->finalize (object);
}

static void
sluice_store_jobs_model_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  SluiceStoreJobsModel *self = SLUICE_STORE_JOBS_MODEL (object);

  switch (prop_id)
    {
    case PROP_HAS_MORE:
      g_value_set_boolean (value, self->has_more);
      break;
    case PROP_LOADING:
      g_value_set_boolean (value, self->loading);
      break;
    case PROP_N_ITEMS:
      g_value_set_uint (value, self->items->len);
      break;
    case PROP_POLL_INTERVAL:
      g_value_set_double (value, self->poll_interval);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_jobs_model_class_init (SluiceStoreJobsModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_store_jobs_model_dispose;
  object_class->finalize = sluice_store_jobs_model_finalize;
  object_class->get_property = sluice_store_jobs_model_get_property;
  object_class->set_property = sluice_store_jobs_model_set_property;

  /** SluiceStoreJobsModel:has-more: there may be pages not read yet. */
  properties[PROP_HAS_MORE] = g_param_spec_boolean ("has-more", NULL, NULL, TRUE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                                                    G_PARAM_EXPLICIT_NOTIFY);
  /** SluiceStoreJobsModel:loading: a page is being read. */
  properties[PROP_LOADING] = g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                                                   G_PARAM_EXPLICIT_NOTIFY);
  /** SluiceStoreJobsModel:n-items: the jobs read so far. */
  properties[PROP_N_ITEMS] = g_param_spec_uint ("n-items", NULL, NULL, 0, G_MAXUINT, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                                                G_PARAM_EXPLICIT_NOTIFY);
  /** SluiceStoreJobsModel:poll-interval: seconds between two refreshes
   * on the wall clock, 0 for none (1 on SQLite, 10 on PostgreSQL unless
   * set). */
  properties[PROP_POLL_INTERVAL] = g_param_spec_double ("poll-interval", NULL, NULL, 0, G_MAXDOUBLE, 0,
                                                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                                        G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_store_jobs_model_init (SluiceStoreJobsModel *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
  self->has_more = TRUE;
}

/**
 * sluice_store_jobs_model_new:
 * @store: a store that answers admin queries
 * @filter: (nullable): the jobs' filter (its tenant, states, key prefix
 *   and search; copied)
 * @page_size: the jobs of one page, at least 1
 *
 * Makes the model and starts reading its first page.
 *
 * Returns: (transfer full): the model
 */
SluiceStoreJobsModel *
sluice_store_jobs_model_new (SluiceJobStore              *store,
                             const SluiceStoreAdminQuery *filter,
                             guint                        page_size)
{
  SluiceStoreJobsModel *self;

  g_return_val_if_fail (sluice_store_admin_supported (store), NULL);
  g_return_val_if_fail (page_size >= 1, NULL);

  self = g_object_new (SLUICE_TYPE_STORE_JOBS_MODEL, NULL);
  self->store = g_object_ref (store);
  self->filter = filter != NULL ? sluice_store_admin_query_copy (filter)
                                : sluice_store_admin_query_new (SLUICE_STORE_ADMIN_LIST_JOBS);
  self->page_size = page_size;
  self->jobs_available_id = g_signal_connect (store, "jobs-available", G_CALLBACK (on_jobs_available), self);
  sluice_store_jobs_model_set_poll_interval (self, SLUICE_IS_PG_STORE (store) ? PG_POLL_INTERVAL
                                                                              : SQLITE_POLL_INTERVAL);
  sluice_store_jobs_model_load_more (self);
  return self;
}
