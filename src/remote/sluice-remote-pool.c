/* sluice-remote-pool.c: a pool another process exports on D-Bus, watched
 * from here
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-remote-pool.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

/**
 * SluiceRemotePool:
 *
 * The monitor's side of sluice_pool_export(): a proxy for one pool's
 * `io.github.sluicepool.Sluice.Pool1` object in another process, with its
 * properties (title, program, state, configuration, snapshot) kept up to
 * date by the bus.
 *
 * Attached to a #SluiceRecorder, it fills the recorder with the pool's
 * events, the same records a local run's recorder holds: first what the
 * pool's ring still holds (`GetEvents` from 0), then each `Events` batch
 * as it comes. The events carry sequence numbers; a batch that starts past
 * the next one expected means the exporter dropped some for this monitor,
 * and the gap is asked for again with `GetEvents`, whose `lost` count says
 * what the ring no longer had (sluice_remote_pool_get_n_lost()). Every
 * event carries the run's counts, so the views recover at the next one.
 * A `GetEvents` the exporter refuses for now (LimitsExceeded: too many
 * calls wait for their reply there) is asked again a little later.
 *
 * When the program exits (its bus name loses its owner) the pool is
 * #SluiceRemotePool:vanished, and the recorder keeps what it got.
 */

/* GetEvents gives at most this many events a call (the interface's rule):
 * a reply with fewer holds every event up to the newest. */
#define GET_EVENTS_MAX 4096
/* A GetEvents refused because the exporter has too many calls to answer
 * (LimitsExceeded: other monitors, or a flood) is asked again after this
 * long, twice as long each time, at most RETRY_MAX_MS. */
#define RETRY_FIRST_MS 50
#define RETRY_MAX_MS   2000
#define SIGNAL_EVENTS "Events"

struct _SluiceRemotePool
{
  GObject          parent_instance;

  GDBusProxy      *proxy;
  guint            pid;
  gboolean         vanished;
  char            *title;          /* the last known, kept once it vanished */
  char            *program;

  SluiceRecorder  *recorder;       /* while attached */
  char            *subscription;   /* its key in subscriptions, while attached */
  gulong           signal_id;
  guint64          next_seq;       /* of the next event the recorder wants */
  guint64          n_lost;
  GCancellable    *fetch;          /* a GetEvents going on (or to be asked again), or NULL */
  guint            retry_id;       /* the wait before asking again */
  guint            retry_ms;       /* how long it is; 0 once a call was answered */
  GQueue           held;           /* Events batches that came during it, (taa{sv}) */
  gboolean         caught_up;
};

enum {
  PROP_0,
  PROP_STATE,
  PROP_VANISHED,
  PROP_CAUGHT_UP,
  PROP_N_LOST,
  N_PROPS
};

enum {
  CHANGED,
  EVENTS_ADDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SluiceRemotePool, sluice_remote_pool, G_TYPE_OBJECT)

static void
sluice_remote_pool_dispose (GObject *object)
{
  SluiceRemotePool *self = SLUICE_REMOTE_POOL (object);

  sluice_remote_pool_detach (self);
  if (self->proxy != NULL)
    g_signal_handlers_disconnect_by_data (self->proxy, self);
  g_clear_object (&self->proxy);

  G_OBJECT_CLASS (sluice_remote_pool_parent_class)->dispose (object);
}

static void
sluice_remote_pool_finalize (GObject *object)
{
  SluiceRemotePool *self = SLUICE_REMOTE_POOL (object);

  g_free (self->title);
  g_free (self->program);

  G_OBJECT_CLASS (sluice_remote_pool_parent_class)->finalize (object);
}

static void
sluice_remote_pool_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  SluiceRemotePool *self = SLUICE_REMOTE_POOL (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_take_string (value, sluice_remote_pool_dup_state (self));
      break;
    case PROP_VANISHED:
      g_value_set_boolean (value, self->vanished);
      break;
    case PROP_CAUGHT_UP:
      g_value_set_boolean (value, self->caught_up);
      break;
    case PROP_N_LOST:
      g_value_set_uint64 (value, self->n_lost);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_remote_pool_class_init (SluiceRemotePoolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_remote_pool_dispose;
  object_class->finalize = sluice_remote_pool_finalize;
  object_class->get_property = sluice_remote_pool_get_property;

  /**
   * SluiceRemotePool:state:
   *
   * The pool's `State`: `idle`, `running`, `draining` or `ended`; %NULL
   * once the program is gone.
   */
  properties[PROP_STATE] =
    g_param_spec_string ("state", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceRemotePool:vanished:
   *
   * Whether the program that exported the pool left the bus (it exited,
   * or withdrew the pool).
   */
  properties[PROP_VANISHED] =
    g_param_spec_boolean ("vanished", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceRemotePool:caught-up:
   *
   * Whether the attached recorder holds every event the pool's ring held
   * when it was attached (the first `GetEvents` calls are done).
   */
  properties[PROP_CAUGHT_UP] =
    g_param_spec_boolean ("caught-up", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceRemotePool:n-lost:
   *
   * How many of the pool's events never reached the attached recorder: its
   * ring dropped them before they were read. Notified as soon as a loss is
   * known; the recorder marks where (sluice_recorder_add_gap()).
   */
  properties[PROP_N_LOST] =
    g_param_spec_uint64 ("n-lost", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceRemotePool::changed:
   *
   * A property of the remote pool changed (its state or snapshot).
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * SluiceRemotePool::events-added:
   * @n_events: how many were added to the recorder
   *
   * Events came and are in the attached recorder: once per batch, not per
   * event.
   */
  signals[EVENTS_ADDED] = g_signal_new ("events-added", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sluice_remote_pool_init (SluiceRemotePool *self)
{
}

/* ---- the proxy ---------------------------------------------------------- */

/* p<PID> at the end of the bus name, or 0. */
static guint
pid_of_bus_name (const char *bus_name)
{
  const char *p;
  char *end = NULL;
  guint64 pid;

  if (!g_str_has_prefix (bus_name, SLUICE_MONITOR_BUS_NAME_PREFIX "p"))
    return 0;
  p = bus_name + strlen (SLUICE_MONITOR_BUS_NAME_PREFIX "p");
  pid = g_ascii_strtoull (p, &end, 10);
  return end != p && *end == '\0' && pid <= G_MAXUINT ? (guint) pid : 0;
}

static char *dup_string_property (SluiceRemotePool *self,
                                  const char       *name);

/* The names stay once the program is gone: a window that watched it says
 * which program exited. */
static void
keep_names (SluiceRemotePool *self)
{
  char *title = dup_string_property (self, "Title");
  char *program = dup_string_property (self, "Program");

  if (title != NULL)
    {
      g_free (self->title);
      self->title = title;
    }
  if (program != NULL)
    {
      g_free (self->program);
      self->program = program;
    }
}

static void
on_properties_changed (SluiceRemotePool *self)
{
  g_autoptr(SluiceRemotePool) kept G_GNUC_UNUSED = g_object_ref (self);

  keep_names (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void release_held  (SluiceRemotePool *self);
static void set_caught_up (SluiceRemotePool *self);

static void
on_name_owner (SluiceRemotePool *self)
{
  g_autofree char *owner = g_dbus_proxy_get_name_owner (self->proxy);
  /* A handler of :vanished may let go of the last reference (a list
   * drops the pool that left): it stays until the signals are out. */
  g_autoptr(SluiceRemotePool) kept = NULL;

  if (owner != NULL || self->vanished)
    return;
  kept = g_object_ref (self);
  /* The program's last batches came before its name left (the bus keeps
   * their order): those held for a GetEvents that gets no answer now go
   * in first. */
  if (self->fetch != NULL)
    {
      g_cancellable_cancel (self->fetch);
      g_clear_object (&self->fetch);
      release_held (self);
      set_caught_up (self);
    }
  self->vanished = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VANISHED]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_proxy_ready (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  GDBusProxy *proxy = g_dbus_proxy_new_finish (result, &error);
  SluiceRemotePool *self;
  g_autofree char *owner = NULL;

  if (proxy == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  owner = g_dbus_proxy_get_name_owner (proxy);
  if (owner == NULL)
    {
      g_task_return_new_error (task, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN,
                               /* Translators: %s is a D-Bus name. */
                               _("No program owns %s any more"), g_dbus_proxy_get_name (proxy));
      g_object_unref (proxy);
      return;
    }

  self = g_object_new (SLUICE_TYPE_REMOTE_POOL, NULL);
  self->proxy = proxy;
  self->pid = pid_of_bus_name (g_dbus_proxy_get_name (proxy));
  keep_names (self);
  g_signal_connect_swapped (proxy, "g-properties-changed", G_CALLBACK (on_properties_changed), self);
  g_signal_connect_swapped (proxy, "notify::g-name-owner", G_CALLBACK (on_name_owner), self);
  g_task_return_pointer (task, self, g_object_unref);
}

/**
 * sluice_remote_pool_new_async:
 * @connection: the bus the pool is exported on (the session bus)
 * @bus_name: the exporting process's name,
 *   `io.github.sluicepool.Sluice.Pool.p<PID>`
 * @object_path: the pool's object path
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the pool's properties are read
 * @user_data: data for @callback
 *
 * Reads the pool's properties and starts following their changes.
 */
void
sluice_remote_pool_new_async (GDBusConnection     *connection,
                              const char          *bus_name,
                              const char          *object_path,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (G_IS_DBUS_CONNECTION (connection));
  g_return_if_fail (g_dbus_is_name (bus_name));
  g_return_if_fail (g_variant_is_object_path (object_path));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_remote_pool_new_async);
  /* The owner is looked up once: a program that exits and a new one that
   * takes the same name (the same PID) are two pools. */
  g_dbus_proxy_new (connection, G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START, NULL, bus_name, object_path,
                    SLUICE_MONITOR_INTERFACE, cancellable, on_proxy_ready, task);
}

/**
 * sluice_remote_pool_new_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GDBusError
 *
 * Returns: (transfer full) (nullable): the pool, or %NULL when it cannot
 *   be reached
 */
SluiceRemotePool *
sluice_remote_pool_new_finish (GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- what it is --------------------------------------------------------- */

/**
 * sluice_remote_pool_get_bus_name:
 * @self: a #SluiceRemotePool
 *
 * Returns: the exporting process's bus name
 */
const char *
sluice_remote_pool_get_bus_name (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return g_dbus_proxy_get_name (self->proxy);
}

/**
 * sluice_remote_pool_get_object_path:
 * @self: a #SluiceRemotePool
 *
 * Returns: the pool's object path
 */
const char *
sluice_remote_pool_get_object_path (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return g_dbus_proxy_get_object_path (self->proxy);
}

/**
 * sluice_remote_pool_get_pid:
 * @self: a #SluiceRemotePool
 *
 * Returns: the exporting process's id, from its bus name, or 0
 */
guint
sluice_remote_pool_get_pid (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), 0);
  return self->pid;
}

/* The cached property @name of @type, or NULL. */
static GVariant *
dup_property (SluiceRemotePool   *self,
              const char         *name,
              const GVariantType *type)
{
  g_autoptr(GVariant) value = NULL;

  if (self->vanished)
    return NULL;
  value = g_dbus_proxy_get_cached_property (self->proxy, name);
  if (value == NULL || !g_variant_is_of_type (value, type))
    return NULL;
  return g_steal_pointer (&value);
}

static char *
dup_string_property (SluiceRemotePool *self,
                     const char       *name)
{
  g_autoptr(GVariant) value = dup_property (self, name, G_VARIANT_TYPE_STRING);

  return value != NULL ? g_variant_dup_string (value, NULL) : NULL;
}

/**
 * sluice_remote_pool_dup_title:
 * @self: a #SluiceRemotePool
 *
 * Returns: (transfer full) (nullable): the pool's `Title` (the last one
 *   known, once the program is gone)
 */
char *
sluice_remote_pool_dup_title (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return g_strdup (self->title);
}

/**
 * sluice_remote_pool_dup_program:
 * @self: a #SluiceRemotePool
 *
 * Returns: (transfer full) (nullable): the exporting program's name (also
 *   once it is gone)
 */
char *
sluice_remote_pool_dup_program (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return g_strdup (self->program);
}

/**
 * sluice_remote_pool_dup_label:
 * @self: a #SluiceRemotePool
 * @key: a label's key, such as `worker-id`
 *
 * Reads one of the pool's `Labels` (SluicePool:labels): `sluice-run
 * worker` exports its worker id under `worker-id`. A pool of an older
 * exporter has no `Labels`, and so no label.
 *
 * Returns: (transfer full) (nullable): its value, or %NULL when the pool
 *   has no such label (or is gone)
 */
char *
sluice_remote_pool_dup_label (SluiceRemotePool *self,
                              const char       *key)
{
  g_autoptr(GVariant) labels = NULL;
  char *value = NULL;

  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  labels = dup_property (self, "Labels", G_VARIANT_TYPE ("a{ss}"));
  if (labels != NULL && g_variant_lookup (labels, key, "s", &value))
    return value;
  return NULL;
}

/**
 * sluice_remote_pool_dup_state:
 * @self: a #SluiceRemotePool
 *
 * Returns: (transfer full) (nullable): the pool's `State` (`idle`,
 *   `running`, `draining`, `ended`), or %NULL once it vanished
 */
char *
sluice_remote_pool_dup_state (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return dup_string_property (self, "State");
}

/**
 * sluice_remote_pool_dup_config:
 * @self: a #SluiceRemotePool
 *
 * Returns: (transfer full) (nullable): the pool's `Config`, an `a{sv}`
 *   by option name (workers, queue-size, item-timeout, …)
 */
GVariant *
sluice_remote_pool_dup_config (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return dup_property (self, "Config", G_VARIANT_TYPE_VARDICT);
}

/**
 * sluice_remote_pool_dup_snapshot:
 * @self: a #SluiceRemotePool
 *
 * Returns: (transfer full) (nullable): the pool's `Snapshot`, an `a{sv}`
 *   (queue_depth, busy_workers, in_flight, outcomes, …)
 */
GVariant *
sluice_remote_pool_dup_snapshot (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);
  return dup_property (self, "Snapshot", G_VARIANT_TYPE_VARDICT);
}

/**
 * sluice_remote_pool_get_can_stop:
 * @self: a #SluiceRemotePool
 *
 * Returns: whether the pool was exported with control allowed, so that
 *   sluice_remote_pool_request_stop_async() may work (`Control`)
 */
gboolean
sluice_remote_pool_get_can_stop (SluiceRemotePool *self)
{
  g_autoptr(GVariant) value = NULL;

  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), FALSE);
  value = dup_property (self, "Control", G_VARIANT_TYPE_BOOLEAN);
  return value != NULL && g_variant_get_boolean (value);
}

/**
 * sluice_remote_pool_get_vanished:
 * @self: a #SluiceRemotePool
 *
 * Returns: whether the exporting program left the bus
 */
gboolean
sluice_remote_pool_get_vanished (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), FALSE);
  return self->vanished;
}

/* The states the interface names, in the reader's language; another one
 * as the program says it. */
static const char *
state_name (const char *state)
{
  if (state == NULL)
    return "?";
  if (g_str_equal (state, "idle"))
    return C_("pool state", "idle");
  if (g_str_equal (state, "running"))
    return C_("pool state", "running");
  if (g_str_equal (state, "draining"))
    return C_("pool state", "draining");
  if (g_str_equal (state, "ended"))
    return C_("pool state", "ended");
  return state;
}

static guint32
snapshot_uint (GVariant   *snapshot,
               const char *key)
{
  guint32 value = 0;

  if (snapshot != NULL)
    g_variant_lookup (snapshot, key, "u", &value);
  return value;
}

/**
 * sluice_remote_pool_describe:
 * @self: a #SluiceRemotePool
 *
 * Says in one line what the pool does now, for a list of pools: its
 * state, queue, busy workers and attempts in flight.
 *
 * Returns: (transfer full): the line
 */
char *
sluice_remote_pool_describe (SluiceRemotePool *self)
{
  g_autoptr(GVariant) snapshot = NULL;
  g_autofree char *state = NULL;

  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);

  if (self->vanished)
    /* Translators: a pool whose program left the bus */
    return g_strdup (C_("pool state", "exited"));
  state = sluice_remote_pool_dup_state (self);
  snapshot = sluice_remote_pool_dup_snapshot (self);
  /* Translators: a pool's state (idle, running, draining or ended, the
   * "pool state" messages), then its counts. */
  return g_strdup_printf (_("%s · %u queued · %u of %u workers busy · %u in flight"),
                          state_name (state),
                          snapshot_uint (snapshot, "queue_depth"),
                          snapshot_uint (snapshot, "busy_workers"),
                          snapshot_uint (snapshot, "workers"),
                          snapshot_uint (snapshot, "in_flight"));
}

/* ---- its configuration as a scenario ------------------------------------ */

static void
append_number (GString    *text,
               GVariant   *config,
               const char *key,
               const char *format)
{
  g_autoptr(GVariant) value = g_variant_lookup_value (config, key, NULL);
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (value == NULL)
    return;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
    g_string_append_printf (text, "%s=%d\n", key, g_variant_get_int32 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_UINT32))
    g_string_append_printf (text, "%s=%u\n", key, g_variant_get_uint32 (value));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_DOUBLE))
    g_string_append_printf (text, "%s=%s\n", format != NULL ? format : key,
                            /* Nine digits: 0.1, not 0.10000000000000001. */
                            g_ascii_formatd (buffer, sizeof buffer, "%.9g", g_variant_get_double (value)));
}

static void
append_key (GString    *text,
            GVariant   *config,
            const char *key,
            const char *name)
{
  g_autoptr(GVariant) value = g_variant_lookup_value (config, key, NULL);

  if (value == NULL)
    return;
  if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING))
    g_string_append_printf (text, "%s=%s\n", name, g_variant_get_string (value, NULL));
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_BOOLEAN))
    g_string_append_printf (text, "%s=%s\n", name, g_variant_get_boolean (value) ? "true" : "false");
  else if (g_variant_is_of_type (value, G_VARIANT_TYPE_STRING_ARRAY))
    {
      g_autofree const char **names = g_variant_get_strv (value, NULL);
      g_autofree char *joined = g_strjoinv (";", (char **) names);

      g_string_append_printf (text, "%s=%s\n", name, joined);
    }
  else
    append_number (text, config, key, name);
}

/* One line of text: no newline, so that a key cannot be smuggled in. */
static char *
one_line (const char *text)
{
  char *line = g_strdup (text != NULL ? text : "");

  g_strdelimit (line, "\r\n", ' ');
  return line;
}

/**
 * sluice_remote_pool_dup_scenario_text:
 * @self: a #SluiceRemotePool
 *
 * The pool's `Config` as the text of a scenario, so that the playground
 * can show it (read-only) and a recording of the attached run names what
 * ran: `[pool]` and `[retry]` from the configuration, the title, and a
 * description saying which program it is. The program's own source and
 * handler are not known here: the scenario has neither.
 *
 * Returns: (transfer full): the scenario text
 */
char *
sluice_remote_pool_dup_scenario_text (SluiceRemotePool *self)
{
  g_autoptr(GVariant) config = NULL;
  g_autofree char *title = NULL, *program = NULL, *description = NULL;
  const char *backoff = NULL;
  double budget = 0;
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), NULL);

  config = sluice_remote_pool_dup_config (self);
  if (config == NULL)
    config = g_variant_ref_sink (g_variant_new ("a{sv}", NULL));
  {
    g_autofree char *raw_title = sluice_remote_pool_dup_title (self);
    g_autofree char *raw_program = sluice_remote_pool_dup_program (self);

    title = one_line (raw_title);
    program = one_line (raw_program);
  }
  /* Translators: the description of a pool attached from another
   * program; %s is its name, %u its process id. */
  description = g_strdup_printf (_("The configuration of the pool of %s (process %u), attached on the "
                                   "session bus. Its items and its handler are the program's own: this "
                                   "scenario has neither."), program, self->pid);

  g_string_append_printf (text, "[scenario]\ntitle=%s\ndescription=%s\n\n[pool]\n",
                          *title != '\0' ? title : program, description);
  append_key (text, config, "workers", "workers");
  append_key (text, config, "queue-size", "queue-size");
  append_key (text, config, "item-timeout", "item-timeout");
  append_key (text, config, "max-retries", "max-retries");
  append_key (text, config, "retryable", "retryable");
  append_key (text, config, "keep-going", "keep-going");
  append_key (text, config, "fatal", "fatal");
  append_key (text, config, "shutdown-timeout", "shutdown-timeout");
  g_string_append (text, "\n[retry]\n");
  append_key (text, config, "backoff", "backoff");
  /* A scenario takes these with an exponential backoff only, and the
   * ratio with a budget only; the pool has them all, set or not. */
  if (g_variant_lookup (config, "backoff", "&s", &backoff) && g_str_equal (backoff, "exponential"))
    {
      append_key (text, config, "backoff-base", "base");
      append_key (text, config, "backoff-cap", "cap");
      append_key (text, config, "jitter", "jitter");
    }
  append_key (text, config, "seed", "seed");
  append_key (text, config, "item-deadline", "deadline");
  if (g_variant_lookup (config, "retry-budget", "d", &budget) && budget > 0)
    {
      append_key (text, config, "retry-budget", "budget");
      append_key (text, config, "retry-budget-ratio", "budget-ratio");
    }
  g_string_append (text, "\n[run]\nclock=real\n");
  return g_string_free (text, FALSE);
}

/* ---- the events --------------------------------------------------------- */

/* Adds the records of @events (an aa{sv}) numbered from @first_seq that
 * the recorder does not have yet. */
static void
add_events (SluiceRemotePool *self,
            guint64           first_seq,
            GVariant         *events)
{
  gsize n = g_variant_n_children (events);
  guint added = 0;

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) record = NULL;
      g_autoptr(SluiceEvent) event = NULL;
      g_autoptr(GError) error = NULL;

      if (first_seq + i < self->next_seq)
        continue;
      record = g_variant_get_child_value (events, i);
      event = sluice_event_new_from_variant (record, &error);
      /* A record this version cannot read still counts as seen. */
      if (event == NULL)
        g_debug ("event %" G_GUINT64_FORMAT " skipped: %s", first_seq + i, error->message);
      else
        {
          sluice_recorder_add (self->recorder, event);
          added++;
        }
      self->next_seq = first_seq + i + 1;
    }
  /* A handler may detach, and let go of the pool. */
  if (added > 0)
    {
      g_object_ref (self);
      g_signal_emit (self, signals[EVENTS_ADDED], 0, added);
      g_object_unref (self);
    }
}

static void fetch_from (SluiceRemotePool *self);
static void fetch_later (SluiceRemotePool *self);

/* At most this many batches wait for a GetEvents: a monitor behind by
 * more loses the oldest (the exporter's ring would have too). */
#define MAX_HELD_BATCHES 64

static void
hold_batch (SluiceRemotePool *self,
            GVariant         *parameters)
{
  g_queue_push_tail (&self->held, g_variant_ref (parameters));
  if (g_queue_get_length (&self->held) > MAX_HELD_BATCHES)
    g_variant_unref (g_queue_pop_head (&self->held));
}

/* Events the program's ring dropped before they were read: the recorder
 * marks the gap where the next event will go, and the views learn of it
 * there (notify::n-lost says so at once). */
static void
note_lost (SluiceRemotePool *self,
           guint64           n_lost)
{
  if (n_lost == 0)
    return;
  self->n_lost += n_lost;
  if (self->recorder != NULL)
    sluice_recorder_add_gap (self->recorder, n_lost);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_LOST]);
}

/* The batches held during a GetEvents, in order: what they have past the
 * events already recorded; a gap between them is lost. */
static void
release_held (SluiceRemotePool *self)
{
  GVariant *parameters;

  while (self->recorder != NULL && (parameters = g_queue_pop_head (&self->held)) != NULL)
    {
      g_autoptr(GVariant) events = NULL;
      guint64 first_seq = 0;

      g_variant_get (parameters, "(t@aa{sv})", &first_seq, &events);
      if (first_seq > self->next_seq)
        {
          note_lost (self, first_seq - self->next_seq);
          self->next_seq = first_seq;
        }
      add_events (self, first_seq, events);
      g_variant_unref (parameters);
    }
}

static void
drop_held (SluiceRemotePool *self)
{
  g_queue_clear_full (&self->held, (GDestroyNotify) g_variant_unref);
}

static void
set_caught_up (SluiceRemotePool *self)
{
  if (self->caught_up)
    return;
  self->caught_up = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAUGHT_UP]);
}

static void
on_events_fetched (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SluiceRemotePool) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) events = NULL;
  guint64 next_seq = 0, lost = 0;
  gsize n;

  reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->recorder == NULL)
    return;
  g_clear_object (&self->fetch);

  /* Not now: the events are still there, the batches still held. */
  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED))
    {
      fetch_later (self);
      return;
    }
  self->retry_ms = 0;

  if (reply == NULL)
    {
      /* The program left, or cannot say more: what came stays, and so do
       * the batches that came meanwhile. */
      g_debug ("GetEvents: %s", error->message);
      release_held (self);
      set_caught_up (self);
      return;
    }

  g_variant_get (reply, "(t@aa{sv}t)", &next_seq, &events, &lost);
  n = g_variant_n_children (events);
  note_lost (self, lost);
  /* The lost ones are gone: the first held one follows them. */
  add_events (self, next_seq - n, events);
  if (self->recorder == NULL)
    return;
  self->next_seq = MAX (self->next_seq, next_seq);
  /* A full page: the ring holds more. A shorter one went up to the
   * newest event, and the signals carry on from there (the Subscribe came
   * before this call, and the bus keeps their order): asking again until
   * a page is empty would poll a busy pool for ever, every batch it makes
   * during a round trip. */
  if (n >= GET_EVENTS_MAX)
    fetch_from (self);
  else
    {
      release_held (self);
      set_caught_up (self);
    }
}

/* Asks for the events from next_seq on; the Events batches that come
 * meanwhile are held, and added after it (those it did not cover). */
static void
fetch_from (SluiceRemotePool *self)
{
  self->fetch = g_cancellable_new ();
  g_dbus_proxy_call (self->proxy, "GetEvents", g_variant_new ("(t)", self->next_seq),
                     G_DBUS_CALL_FLAGS_NONE, -1, self->fetch, on_events_fetched, g_object_ref (self));
}

static gboolean
on_fetch_again (gpointer user_data)
{
  SluiceRemotePool *self = user_data;

  self->retry_id = 0;
  g_clear_object (&self->fetch);
  fetch_from (self);
  return G_SOURCE_REMOVE;
}

/* Asks for the same events again a little later; meanwhile a GetEvents
 * counts as going on, so the batches that come are held. */
static void
fetch_later (SluiceRemotePool *self)
{
  self->retry_ms = self->retry_ms == 0 ? RETRY_FIRST_MS : MIN (self->retry_ms * 2, RETRY_MAX_MS);
  self->fetch = g_cancellable_new ();
  g_debug ("GetEvents refused: too many calls wait; asking again in %u ms", self->retry_ms);
  self->retry_id = g_timeout_add (self->retry_ms, on_fetch_again, self);
}

static void
on_signal (GDBusProxy *proxy,
           const char *sender,
           const char *name,
           GVariant   *parameters,
           gpointer    user_data)
{
  SluiceRemotePool *self = user_data;
  g_autoptr(GVariant) events = NULL;
  guint64 first_seq = 0;

  if (g_strcmp0 (name, SIGNAL_EVENTS) != 0 || !g_variant_is_of_type (parameters, G_VARIANT_TYPE ("(taa{sv})")))
    return;
  if (self->fetch != NULL)
    {
      hold_batch (self, parameters);
      return;
    }

  g_variant_get (parameters, "(t@aa{sv})", &first_seq, &events);
  /* A batch past the next expected event: the exporter held some back
   * for this monitor. Ask for the gap; GetEvents says what was lost. */
  if (first_seq > self->next_seq)
    {
      fetch_from (self);
      return;
    }
  add_events (self, first_seq, events);
}

/* `Subscribe` is tracked per bus peer: two pools of this process watching
 * the same remote pool on one connection (two windows attached to it)
 * share one subscription, and only the last to detach withdraws it. By
 * connection, the owner's unique name (a program that took the name again
 * is another peer) and the object path; the main thread only. */
static GHashTable *subscriptions;

static char *
subscription_key (SluiceRemotePool *self)
{
  g_autofree char *owner = g_dbus_proxy_get_name_owner (self->proxy);

  return g_strdup_printf ("%p %s %s", (gpointer) g_dbus_proxy_get_connection (self->proxy),
                          owner != NULL ? owner : "-", g_dbus_proxy_get_object_path (self->proxy));
}

/* Whether this is the first subscriber of its key. */
static gboolean
take_subscription (SluiceRemotePool *self)
{
  guint n;

  if (subscriptions == NULL)
    subscriptions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->subscription = subscription_key (self);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (subscriptions, self->subscription));
  g_hash_table_insert (subscriptions, g_strdup (self->subscription), GUINT_TO_POINTER (n + 1));
  return n == 0;
}

/* Whether this was the last subscriber of its key. */
static gboolean
drop_subscription (SluiceRemotePool *self)
{
  g_autofree char *key = g_steal_pointer (&self->subscription);
  guint n;

  if (key == NULL || subscriptions == NULL)
    return FALSE;
  n = GPOINTER_TO_UINT (g_hash_table_lookup (subscriptions, key));
  if (n > 1)
    {
      g_hash_table_insert (subscriptions, g_strdup (key), GUINT_TO_POINTER (n - 1));
      return FALSE;
    }
  g_hash_table_remove (subscriptions, key);
  return n == 1;
}

static void
on_call_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (object), result, &error);

  if (reply == NULL)
    g_debug ("%s: %s", (const char *) user_data, error->message);
}

/**
 * sluice_remote_pool_attach:
 * @self: a #SluiceRemotePool
 * @recorder: where the events go
 *
 * Subscribes to the pool's events and puts them into @recorder: those its
 * ring still holds, then each batch as it comes (see #SluiceRemotePool).
 * #SluiceRemotePool::events-added says when some came.
 */
void
sluice_remote_pool_attach (SluiceRemotePool *self,
                           SluiceRecorder   *recorder)
{
  g_return_if_fail (SLUICE_IS_REMOTE_POOL (self));
  g_return_if_fail (SLUICE_IS_RECORDER (recorder));

  sluice_remote_pool_detach (self);
  self->recorder = g_object_ref (recorder);
  self->next_seq = 0;
  self->n_lost = 0;
  self->caught_up = FALSE;
  self->signal_id = g_signal_connect (self->proxy, "g-signal", G_CALLBACK (on_signal), self);
  /* Subscribed first: no batch falls between the ring and the signals. */
  if (take_subscription (self))
    g_dbus_proxy_call (self->proxy, "Subscribe", NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, on_call_done,
                       (gpointer) "Subscribe");
  fetch_from (self);
}

/**
 * sluice_remote_pool_detach:
 * @self: a #SluiceRemotePool
 *
 * Unsubscribes; the recorder keeps what came.
 */
void
sluice_remote_pool_detach (SluiceRemotePool *self)
{
  g_return_if_fail (SLUICE_IS_REMOTE_POOL (self));

  if (self->recorder == NULL)
    return;
  g_clear_signal_handler (&self->signal_id, self->proxy);
  g_clear_handle_id (&self->retry_id, g_source_remove);
  self->retry_ms = 0;
  g_cancellable_cancel (self->fetch);
  g_clear_object (&self->fetch);
  drop_held (self);
  if (drop_subscription (self) && !self->vanished)
    g_dbus_proxy_call (self->proxy, "Unsubscribe", NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, on_call_done,
                       (gpointer) "Unsubscribe");
  g_clear_object (&self->recorder);
}

/**
 * sluice_remote_pool_get_attached:
 * @self: a #SluiceRemotePool
 *
 * Returns: whether it fills a recorder
 */
gboolean
sluice_remote_pool_get_attached (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), FALSE);
  return self->recorder != NULL;
}

/**
 * sluice_remote_pool_get_caught_up:
 * @self: a #SluiceRemotePool
 *
 * Returns: whether the recorder holds what the pool's ring held when it
 *   was attached (see #SluiceRemotePool:caught-up)
 */
gboolean
sluice_remote_pool_get_caught_up (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), FALSE);
  return self->caught_up;
}

/**
 * sluice_remote_pool_get_n_lost:
 * @self: a #SluiceRemotePool
 *
 * Returns: how many of the pool's events the recorder never got (the
 *   exporter's ring had dropped them)
 */
guint64
sluice_remote_pool_get_n_lost (SluiceRemotePool *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (self), 0);
  return self->n_lost;
}

/* ---- steering ----------------------------------------------------------- */

static void
on_stop_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_proxy_call_finish (G_DBUS_PROXY (object), result, &error);

  if (reply == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_task_return_error (task, g_steal_pointer (&error));
    }
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * sluice_remote_pool_request_stop_async:
 * @self: a #SluiceRemotePool
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the pool answered
 * @user_data: data for @callback
 *
 * Asks the pool to take no more work and drain what it took
 * (`RequestStop`). A pool exported read-only refuses with
 * %G_DBUS_ERROR_ACCESS_DENIED.
 */
void
sluice_remote_pool_request_stop_async (SluiceRemotePool    *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (SLUICE_IS_REMOTE_POOL (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_remote_pool_request_stop_async);
  g_dbus_proxy_call (self->proxy, "RequestStop", NULL, G_DBUS_CALL_FLAGS_NONE, -1, cancellable,
                     on_stop_done, task);
}

/**
 * sluice_remote_pool_request_stop_finish:
 * @self: a #SluiceRemotePool
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GDBusError
 *
 * Returns: whether the pool took the request
 */
gboolean
sluice_remote_pool_request_stop_finish (SluiceRemotePool  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
