/* sluice-pool-browser.c: the pools other processes export on the session
 * bus, as a list that follows them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-pool-browser.h"

#include <string.h>

/**
 * SluicePoolBrowser:
 *
 * A #GListModel of #SluiceRemotePool: every pool exported on a bus
 * (sluice_pool_export(), `SLUICE_MONITOR=session`), found by the names
 * with the prefix %SLUICE_MONITOR_BUS_NAME_PREFIX and the object paths
 * under %SLUICE_MONITOR_OBJECT_PATH_PREFIX that each such process
 * introspects. A process that starts exporting is added when its name
 * appears (`NameOwnerChanged`); its pools leave the list when it leaves
 * the bus. A pool a running process exports later is found by
 * sluice_pool_browser_refresh().
 */

#define NAME_NAMESPACE "io.github.sluicepool.Sluice.Pool"
#define POOLS_PATH "/io/github/sluicepool/Sluice/Pool"

struct _SluicePoolBrowser
{
  GObject          parent_instance;

  GDBusConnection *connection;
  GPtrArray       *pools;         /* SluiceRemotePool, in the order found */
  GHashTable      *paths;         /* "name path" of the pools listed or coming */
  GCancellable    *cancellable;
  guint            subscription;
  guint            n_pending;
};

enum {
  PROP_0,
  PROP_LOADING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GType
list_get_item_type (GListModel *model)
{
  return SLUICE_TYPE_REMOTE_POOL;
}

static guint
list_get_n_items (GListModel *model)
{
  return SLUICE_POOL_BROWSER (model)->pools->len;
}

static gpointer
list_get_item (GListModel *model,
               guint       position)
{
  SluicePoolBrowser *self = SLUICE_POOL_BROWSER (model);

  return position < self->pools->len ? g_object_ref (g_ptr_array_index (self->pools, position)) : NULL;
}

static void
list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = list_get_item_type;
  iface->get_n_items = list_get_n_items;
  iface->get_item = list_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (SluicePoolBrowser, sluice_pool_browser, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_init))

static void
sluice_pool_browser_dispose (GObject *object)
{
  SluicePoolBrowser *self = SLUICE_POOL_BROWSER (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->subscription != 0)
    g_dbus_connection_signal_unsubscribe (self->connection, self->subscription);
  self->subscription = 0;
  if (self->pools != NULL)
    for (guint i = 0; i < self->pools->len; i++)
      g_signal_handlers_disconnect_by_data (g_ptr_array_index (self->pools, i), self);
  g_clear_pointer (&self->pools, g_ptr_array_unref);
  g_clear_pointer (&self->paths, g_hash_table_unref);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (sluice_pool_browser_parent_class)->dispose (object);
}

static void
sluice_pool_browser_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  switch (prop_id)
    {
    case PROP_LOADING:
      g_value_set_boolean (value, sluice_pool_browser_get_loading (SLUICE_POOL_BROWSER (object)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_pool_browser_class_init (SluicePoolBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_pool_browser_dispose;
  object_class->get_property = sluice_pool_browser_get_property;

  /**
   * SluicePoolBrowser:loading:
   *
   * Whether it is still asking the bus (a list of pools may grow).
   */
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_pool_browser_init (SluicePoolBrowser *self)
{
  self->pools = g_ptr_array_new_with_free_func (g_object_unref);
  self->paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
}

/* ---- asking the bus ----------------------------------------------------- */

static void
begin_call (SluicePoolBrowser *self)
{
  if (self->n_pending++ == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
end_call (SluicePoolBrowser *self)
{
  if (--self->n_pending == 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static char *
key_of (const char *name,
        const char *path)
{
  return g_strconcat (name, " ", path, NULL);
}

static void
on_pool_vanished (SluiceRemotePool  *pool,
                  GParamSpec        *pspec,
                  SluicePoolBrowser *self)
{
  guint position;
  g_autofree char *key = NULL;

  if (!sluice_remote_pool_get_vanished (pool) || !g_ptr_array_find (self->pools, pool, &position))
    return;
  key = key_of (sluice_remote_pool_get_bus_name (pool), sluice_remote_pool_get_object_path (pool));
  g_hash_table_remove (self->paths, key);
  g_signal_handlers_disconnect_by_data (pool, self);
  g_ptr_array_remove_index (self->pools, position);
  g_list_model_items_changed (G_LIST_MODEL (self), position, 1, 0);
}

typedef struct {
  SluicePoolBrowser *self;
  char              *key;
} PoolCall;

static void
on_pool_ready (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PoolCall *call = user_data;
  SluicePoolBrowser *self = call->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceRemotePool) pool = sluice_remote_pool_new_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* The browser is gone (it cancelled on dispose). */
      g_free (call->key);
      g_free (call);
      return;
    }

  /* A handler of items-changed may let go of the browser. */
  g_object_ref (self);
  if (pool == NULL || sluice_remote_pool_get_vanished (pool))
    {
      /* Gone already: its name lost its owner before the pool was ready. */
      g_debug ("%s: %s", call->key, error != NULL ? error->message : "vanished");
      g_hash_table_remove (self->paths, call->key);
    }
  else
    {
      g_signal_connect (pool, "notify::vanished", G_CALLBACK (on_pool_vanished), self);
      g_ptr_array_add (self->pools, g_object_ref (pool));
      g_list_model_items_changed (G_LIST_MODEL (self), self->pools->len - 1, 0, 1);
    }

  end_call (self);
  g_object_unref (self);
  g_free (call->key);
  g_free (call);
}

static void
add_pool (SluicePoolBrowser *self,
          const char        *name,
          const char        *path)
{
  PoolCall *call;
  char *key = key_of (name, path);

  if (!g_hash_table_add (self->paths, key))
    return;
  call = g_new0 (PoolCall, 1);
  call->self = self;
  call->key = g_strdup (key);
  begin_call (self);
  sluice_remote_pool_new_async (self->connection, name, path, self->cancellable, on_pool_ready, call);
}

typedef struct {
  SluicePoolBrowser *self;
  char              *name;
} NameCall;

/* The child nodes of POOLS_PATH that @name introspects: its pools. */
static void
on_introspected (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  NameCall *call = user_data;
  SluicePoolBrowser *self = call->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  gboolean cancelled = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  if (reply != NULL)
    {
      const char *xml = NULL;
      g_autoptr(GDBusNodeInfo) node = NULL;

      g_variant_get (reply, "(&s)", &xml);
      node = g_dbus_node_info_new_for_xml (xml, &error);
      for (guint i = 0; node != NULL && node->nodes != NULL && node->nodes[i] != NULL; i++)
        {
          g_autofree char *path = g_strconcat (POOLS_PATH "/", node->nodes[i]->path, NULL);

          if (g_variant_is_object_path (path))
            add_pool (self, call->name, path);
        }
    }
  if (error != NULL && !cancelled)
    g_debug ("%s: %s", call->name, error->message);

  if (!cancelled)
    end_call (self);
  g_free (call->name);
  g_free (call);
}

static void
add_name (SluicePoolBrowser *self,
          const char        *name)
{
  NameCall *call;

  if (!g_str_has_prefix (name, SLUICE_MONITOR_BUS_NAME_PREFIX))
    return;
  call = g_new0 (NameCall, 1);
  call->self = self;
  call->name = g_strdup (name);
  begin_call (self);
  g_dbus_connection_call (self->connection, name, POOLS_PATH, "org.freedesktop.DBus.Introspectable",
                          "Introspect", NULL, G_VARIANT_TYPE ("(s)"), G_DBUS_CALL_FLAGS_NO_AUTO_START,
                          -1, self->cancellable, on_introspected, call);
}

static void
on_names_listed (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  SluicePoolBrowser *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  g_autofree const char **names = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (reply != NULL)
    {
      g_variant_get (reply, "(^a&s)", &names);
      for (guint i = 0; names[i] != NULL; i++)
        add_name (self, names[i]);
    }
  else
    g_debug ("ListNames: %s", error->message);
  end_call (self);
}

static void
on_name_owner_changed (GDBusConnection *connection,
                       const char      *sender,
                       const char      *path,
                       const char      *interface,
                       const char      *signal,
                       GVariant        *parameters,
                       gpointer         user_data)
{
  SluicePoolBrowser *self = user_data;
  const char *name, *old_owner, *new_owner;

  if (!g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(sss)")))
    return;
  g_variant_get (parameters, "(&s&s&s)", &name, &old_owner, &new_owner);
  /* A name that loses its owner: its pools' proxies say they vanished. */
  if (*new_owner != '\0')
    add_name (self, name);
}

/**
 * sluice_pool_browser_new:
 * @connection: the bus to look on (the session bus)
 *
 * Lists the pools exported on @connection and follows the processes that
 * start and stop exporting.
 *
 * Returns: (transfer full): the list
 */
SluicePoolBrowser *
sluice_pool_browser_new (GDBusConnection *connection)
{
  SluicePoolBrowser *self;

  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), NULL);

  self = g_object_new (SLUICE_TYPE_POOL_BROWSER, NULL);
  self->connection = g_object_ref (connection);
  self->subscription =
    g_dbus_connection_signal_subscribe (connection, "org.freedesktop.DBus", "org.freedesktop.DBus",
                                        "NameOwnerChanged", "/org/freedesktop/DBus", NAME_NAMESPACE,
                                        G_DBUS_SIGNAL_FLAGS_MATCH_ARG0_NAMESPACE, on_name_owner_changed,
                                        self, NULL);
  sluice_pool_browser_refresh (self);
  return self;
}

/**
 * sluice_pool_browser_get_connection:
 * @self: a #SluicePoolBrowser
 *
 * Returns: (transfer none): the bus it looks on
 */
GDBusConnection *
sluice_pool_browser_get_connection (SluicePoolBrowser *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL_BROWSER (self), NULL);
  return self->connection;
}

/**
 * sluice_pool_browser_refresh:
 * @self: a #SluicePoolBrowser
 *
 * Asks the bus again for every exporting process and its pools; the ones
 * already listed stay.
 */
void
sluice_pool_browser_refresh (SluicePoolBrowser *self)
{
  g_return_if_fail (SLUICE_IS_POOL_BROWSER (self));

  begin_call (self);
  g_dbus_connection_call (self->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "ListNames", NULL, G_VARIANT_TYPE ("(as)"),
                          G_DBUS_CALL_FLAGS_NONE, -1, self->cancellable, on_names_listed, self);
}

/**
 * sluice_pool_browser_get_loading:
 * @self: a #SluicePoolBrowser
 *
 * Returns: whether it is still asking the bus
 */
gboolean
sluice_pool_browser_get_loading (SluicePoolBrowser *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL_BROWSER (self), FALSE);
  return self->n_pending > 0;
}

/**
 * sluice_pool_browser_find_label:
 * @self: a #SluicePoolBrowser
 * @key: a label's key, such as `worker-id`
 * @value: the value it must have
 *
 * Finds among the pools listed the one whose label @key is @value
 * (sluice_remote_pool_dup_label()): the pool of `sluice-run worker
 * --worker-id W` for the key `worker-id` and W. The list may still grow
 * while #SluicePoolBrowser:loading.
 *
 * Returns: (transfer full) (nullable): the first such pool, or %NULL
 */
SluiceRemotePool *
sluice_pool_browser_find_label (SluicePoolBrowser *self,
                                const char        *key,
                                const char        *value)
{
  g_return_val_if_fail (SLUICE_IS_POOL_BROWSER (self), NULL);
  g_return_val_if_fail (key != NULL && value != NULL, NULL);

  for (guint i = 0; i < self->pools->len; i++)
    {
      SluiceRemotePool *pool = g_ptr_array_index (self->pools, i);
      g_autofree char *label = sluice_remote_pool_dup_label (pool, key);

      if (g_strcmp0 (label, value) == 0)
        return g_object_ref (pool);
    }
  return NULL;
}
