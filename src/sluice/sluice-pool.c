/* sluice-pool.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include <math.h>
#include <string.h>

#include "sluice-error.h"
#include "sluice-monitor-private.h"
#include "sluice-pool-private.h"
#include "sluice-retry-policy-private.h"
#include "sluice-time.h"
#include "sluice-run-private.h"

enum {
  PROP_0,
  PROP_HANDLER,
  PROP_CLOCK,
  PROP_WORKERS,
  PROP_QUEUE_SIZE,
  PROP_ITEM_TIMEOUT,
  PROP_MAX_RETRIES,
  PROP_KEEP_GOING,
  PROP_KEEP_ERRORS,
  PROP_RETRYABLE,
  PROP_FATAL,
  PROP_SHUTDOWN_TIMEOUT,
  PROP_BACKOFF,
  PROP_BACKOFF_BASE,
  PROP_BACKOFF_CAP,
  PROP_JITTER,
  PROP_SEED,
  PROP_ITEM_DEADLINE,
  PROP_RETRY_BUDGET,
  PROP_RETRY_BUDGET_RATIO,
  PROP_STOP_REQUESTED,
  PROP_TITLE,
  PROP_EVENT_CAPACITY,
  PROP_LABELS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void initable_iface_init (GInitableIface *iface);

/**
 * SluicePool:
 *
 * A pool of workers that runs a #SluiceHandler over the items of a
 * #SluiceSource, or over jobs submitted to it.
 *
 * A pool runs a #SluiceHandler on the items of a #SluiceSource, several at
 * a time, and hands back each result as soon as it is ready. It takes its
 * work in through a bounded channel read by exactly #SluicePool:workers
 * workers, gives every handler call (an attempt) a deadline, retries the
 * failures whose type is in #SluicePool:retryable, and on a stop drains
 * what it already took in. A pool runs once: see sluice_pool_run().
 *
 * Build one with g_initable_new(), which checks every option:
 * ```c
 * pool = g_initable_new (SLUICE_TYPE_POOL, NULL, &error,
 *                        "handler", handler,
 *                        "workers", 3,
 *                        "queue-size", 3,
 *                        "item-timeout", 1.0,
 *                        NULL);
 * ```
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE_WITH_CODE (SluicePool, sluice_pool, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, initable_iface_init))

/* The shortest text that reads back as @value: 0.05, not the
 * 0.050000000000000003 of g_ascii_dtostr(). */
void
_sluice_pool_format_double (char   buffer[G_ASCII_DTOSTR_BUF_SIZE],
                            double value)
{
  g_ascii_formatd (buffer, G_ASCII_DTOSTR_BUF_SIZE, "%.15g", value);
  if (!isfinite (value) || g_ascii_strtod (buffer, NULL) != value)
    g_ascii_dtostr (buffer, G_ASCII_DTOSTR_BUF_SIZE, value);
}

gboolean
_sluice_pool_invalid_config (GError     **error,
                             const char  *option,
                             const char  *expected,
                             const char  *value)
{
  g_set_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG,
               "%s must be %s, not %s", option, expected, value);
  return FALSE;
}

static gboolean
sluice_pool_initable_init (GInitable     *initable,
                           GCancellable  *cancellable,
                           GError       **error)
{
  SluicePool *self = SLUICE_POOL (initable);
  char value[G_ASCII_DTOSTR_BUF_SIZE];

  if (self->handler == NULL)
    return _sluice_pool_invalid_config (error, "handler", "set", "NULL");

  if (self->workers <= 0 || self->workers > SLUICE_POOL_MAX_WORKERS)
    {
      g_snprintf (value, sizeof value, "%d", self->workers);
      return _sluice_pool_invalid_config (error, "workers",
                             "a positive integer up to " G_STRINGIFY (SLUICE_POOL_MAX_WORKERS), value);
    }

  if (self->queue_size <= 0)
    {
      g_snprintf (value, sizeof value, "%d", self->queue_size);
      return _sluice_pool_invalid_config (error, "queue-size", "a positive integer", value);
    }

  /* Timeouts are kept in whole microseconds: one that rounds to zero is no
   * timeout at all. */
  if (!isfinite (self->item_timeout) || self->item_timeout <= 0 ||
      self->item_timeout > (double) G_MAXINT64 / G_USEC_PER_SEC ||
      _sluice_pool_get_timeout_us (self) <= 0)
    {
      _sluice_pool_format_double (value, self->item_timeout);
      return _sluice_pool_invalid_config (error, "item-timeout", "a finite number of seconds above 0", value);
    }

  if (self->max_retries < 0)
    {
      g_snprintf (value, sizeof value, "%d", self->max_retries);
      return _sluice_pool_invalid_config (error, "max-retries", "0 or more", value);
    }

  if (!isfinite (self->shutdown_timeout) || self->shutdown_timeout < 0 ||
      self->shutdown_timeout > (double) G_MAXINT64 / G_USEC_PER_SEC / 2 ||
      (self->shutdown_timeout > 0 && _sluice_pool_get_shutdown_timeout_us (self) == 0))
    {
      _sluice_pool_format_double (value, self->shutdown_timeout);
      return _sluice_pool_invalid_config (error, "shutdown-timeout",
                                          "0 (none) or a finite number of seconds above 0", value);
    }

  if (self->event_capacity == 0 || self->event_capacity > SLUICE_POOL_MAX_EVENT_CAPACITY)
    {
      g_snprintf (value, sizeof value, "%u", self->event_capacity);
      return _sluice_pool_invalid_config (error, "event-capacity",
                             "a positive integer up to " G_STRINGIFY (SLUICE_POOL_MAX_EVENT_CAPACITY), value);
    }

  if (!_sluice_retry_policy_prepare (&self->retry_policy, error))
    return FALSE;

  /* SLUICE_MONITOR=session: every valid pool exports itself. */
  _sluice_monitor_export_from_environment (self);
  return TRUE;
}

static void
initable_iface_init (GInitableIface *iface)
{
  iface->init = sluice_pool_initable_init;
}

static void
sluice_pool_constructed (GObject *object)
{
  SluicePool *self = SLUICE_POOL (object);

  G_OBJECT_CLASS (sluice_pool_parent_class)->constructed (object);

  if (self->clock == NULL)
    self->clock = sluice_clock_new (SLUICE_CLOCK_REAL);
}

static void
sluice_pool_finalize (GObject *object)
{
  SluicePool *self = SLUICE_POOL (object);

  sluice_pool_unexport (self);

  if (self->metrics_destroy != NULL)
    self->metrics_destroy (self->metrics_data);
  if (self->event_destroy != NULL)
    self->event_destroy (self->event_data);

  g_clear_object (&self->handler);
  g_clear_object (&self->clock);
  g_clear_pointer (&self->retryable, g_strfreev);
  g_clear_pointer (&self->fatal, g_strfreev);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->labels, g_strfreev);
  _sluice_retry_policy_clear (&self->retry_policy);

  G_OBJECT_CLASS (sluice_pool_parent_class)->finalize (object);
}

static void
sluice_pool_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SluicePool *self = SLUICE_POOL (object);

  switch (prop_id)
    {
    case PROP_HANDLER:
      g_value_set_object (value, self->handler);
      break;
    case PROP_CLOCK:
      g_value_set_object (value, self->clock);
      break;
    case PROP_WORKERS:
      g_value_set_int (value, self->workers);
      break;
    case PROP_QUEUE_SIZE:
      g_value_set_int (value, self->queue_size);
      break;
    case PROP_ITEM_TIMEOUT:
      g_value_set_double (value, self->item_timeout);
      break;
    case PROP_MAX_RETRIES:
      g_value_set_int (value, self->max_retries);
      break;
    case PROP_KEEP_GOING:
      g_value_set_boolean (value, self->keep_going);
      break;
    case PROP_KEEP_ERRORS:
      g_value_set_boolean (value, self->keep_errors);
      break;
    case PROP_RETRYABLE:
      g_value_set_boxed (value, self->retryable);
      break;
    case PROP_FATAL:
      g_value_set_boxed (value, self->fatal);
      break;
    case PROP_SHUTDOWN_TIMEOUT:
      g_value_set_double (value, self->shutdown_timeout);
      break;
    case PROP_BACKOFF:
      g_value_set_enum (value, self->retry_policy.backoff);
      break;
    case PROP_BACKOFF_BASE:
      g_value_set_double (value, self->retry_policy.base);
      break;
    case PROP_BACKOFF_CAP:
      g_value_set_double (value, self->retry_policy.cap);
      break;
    case PROP_JITTER:
      g_value_set_enum (value, self->retry_policy.jitter);
      break;
    case PROP_SEED:
      g_value_set_uint (value, self->retry_policy.seed);
      break;
    case PROP_ITEM_DEADLINE:
      g_value_set_double (value, self->retry_policy.item_deadline);
      break;
    case PROP_RETRY_BUDGET:
      g_value_set_double (value, self->retry_policy.budget);
      break;
    case PROP_RETRY_BUDGET_RATIO:
      g_value_set_double (value, self->retry_policy.budget_ratio);
      break;
    case PROP_STOP_REQUESTED:
      g_value_set_boolean (value, self->stop_requested);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_EVENT_CAPACITY:
      g_value_set_uint (value, self->event_capacity);
      break;
    case PROP_LABELS:
      g_value_set_boxed (value, self->labels);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_pool_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SluicePool *self = SLUICE_POOL (object);

  switch (prop_id)
    {
    case PROP_HANDLER:
      self->handler = g_value_dup_object (value);
      break;
    case PROP_CLOCK:
      self->clock = g_value_dup_object (value);
      break;
    case PROP_WORKERS:
      self->workers = g_value_get_int (value);
      break;
    case PROP_QUEUE_SIZE:
      self->queue_size = g_value_get_int (value);
      break;
    case PROP_ITEM_TIMEOUT:
      self->item_timeout = g_value_get_double (value);
      break;
    case PROP_MAX_RETRIES:
      self->max_retries = g_value_get_int (value);
      break;
    case PROP_KEEP_GOING:
      self->keep_going = g_value_get_boolean (value);
      break;
    case PROP_KEEP_ERRORS:
      self->keep_errors = g_value_get_boolean (value);
      break;
    case PROP_RETRYABLE:
      g_strfreev (self->retryable);
      self->retryable = g_value_dup_boxed (value);
      break;
    case PROP_FATAL:
      g_strfreev (self->fatal);
      self->fatal = g_value_dup_boxed (value);
      break;
    case PROP_SHUTDOWN_TIMEOUT:
      self->shutdown_timeout = g_value_get_double (value);
      break;
    case PROP_BACKOFF:
      self->retry_policy.backoff = g_value_get_enum (value);
      break;
    case PROP_BACKOFF_BASE:
      self->retry_policy.base = g_value_get_double (value);
      break;
    case PROP_BACKOFF_CAP:
      self->retry_policy.cap = g_value_get_double (value);
      break;
    case PROP_JITTER:
      self->retry_policy.jitter = g_value_get_enum (value);
      break;
    case PROP_SEED:
      self->retry_policy.seed = g_value_get_uint (value);
      break;
    case PROP_ITEM_DEADLINE:
      self->retry_policy.item_deadline = g_value_get_double (value);
      break;
    case PROP_RETRY_BUDGET:
      self->retry_policy.budget = g_value_get_double (value);
      break;
    case PROP_RETRY_BUDGET_RATIO:
      self->retry_policy.budget_ratio = g_value_get_double (value);
      break;
    case PROP_TITLE:
      sluice_pool_set_title (self, g_value_get_string (value));
      break;
    case PROP_EVENT_CAPACITY:
      self->event_capacity = g_value_get_uint (value);
      break;
    case PROP_LABELS:
      g_strfreev (self->labels);
      self->labels = g_value_dup_boxed (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_pool_class_init (SluicePoolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->constructed = sluice_pool_constructed;
  object_class->finalize = sluice_pool_finalize;
  object_class->get_property = sluice_pool_get_property;
  object_class->set_property = sluice_pool_set_property;

  /**
   * SluicePool:handler:
   *
   * What the pool calls for each attempt.
   *
   * Since: 1.0
   */
  properties[PROP_HANDLER] =
    g_param_spec_object ("handler", NULL, NULL, SLUICE_TYPE_HANDLER, flags);

  /**
   * SluicePool:clock:
   *
   * The clock of every timer of the pool. A real clock by default; tests
   * and deterministic runs use a virtual one.
   *
   * Since: 1.0
   */
  properties[PROP_CLOCK] =
    g_param_spec_object ("clock", NULL, NULL, SLUICE_TYPE_CLOCK, flags);

  /* The integer ranges are wide on purpose: a bad value must reach
   * GInitable and come back as an error, not be clamped by GObject. */

  /**
   * SluicePool:workers:
   *
   * How many workers take items from the input channel; from 1 to
   * %SLUICE_POOL_MAX_WORKERS.
   *
   * Since: 1.0
   */
  properties[PROP_WORKERS] =
    g_param_spec_int ("workers", NULL, NULL, G_MININT, G_MAXINT, 1, flags);

  /**
   * SluicePool:queue-size:
   *
   * How many items the input channel holds; must be positive.
   *
   * Since: 1.0
   */
  properties[PROP_QUEUE_SIZE] =
    g_param_spec_int ("queue-size", NULL, NULL, G_MININT, G_MAXINT, 1, flags);

  /**
   * SluicePool:item-timeout:
   *
   * Seconds an attempt may run, and the wait of each cancellation round;
   * must be finite and positive.
   *
   * Since: 1.0
   */
  /* Infinite bounds and lax validation let NaN and ±inf through too: with
   * finite bounds GObject would refuse them with a warning and keep the
   * default, building a pool the caller did not ask for. */
  properties[PROP_ITEM_TIMEOUT] =
    g_param_spec_double ("item-timeout", NULL, NULL, -INFINITY, INFINITY, 1.0,
                         flags | G_PARAM_LAX_VALIDATION);

  /**
   * SluicePool:max-retries:
   *
   * How many more attempts an item gets after a retryable failure.
   *
   * Since: 1.0
   */
  properties[PROP_MAX_RETRIES] =
    g_param_spec_int ("max-retries", NULL, NULL, G_MININT, G_MAXINT, 0, flags);

  /**
   * SluicePool:keep-going:
   *
   * If %TRUE, an item that fails for good is recorded but does not stop
   * the pool.
   *
   * Since: 1.0
   */
  properties[PROP_KEEP_GOING] =
    g_param_spec_boolean ("keep-going", NULL, NULL, FALSE, flags);

  /**
   * SluicePool:keep-errors:
   *
   * If %TRUE (the default), every item that fails for good keeps its error
   * for the run's final #SLUICE_ERROR_GROUP. A long-lived pool that goes on
   * after failures (#SluicePool:keep-going) and records them elsewhere — a
   * job store's worker — sets it to %FALSE: a failure is still counted and
   * still an event, but its error is let go of, so memory does not grow
   * with failures. A fatal error is always kept.
   *
   * Since: 1.0
   */
  properties[PROP_KEEP_ERRORS] =
    g_param_spec_boolean ("keep-errors", NULL, NULL, TRUE, flags);

  /**
   * SluicePool:retryable:
   *
   * The type names of the errors worth another attempt, such as
   * `TimeoutError` or `ConnectionError`; see sluice_error_type_name().
   *
   * Since: 1.0
   */
  properties[PROP_RETRYABLE] =
    g_param_spec_boxed ("retryable", NULL, NULL, G_TYPE_STRV, flags);

  /**
   * SluicePool:fatal:
   *
   * The type names of errors that mean the pool itself is broken (disk
   * full, revoked credentials). An attempt that fails with one is never
   * retried; its item fails, and the pool stops at once, without a drain:
   * the source is not read again, queued items are dropped, every other
   * attempt is cancelled and awaited, every backoff cancelled. The run then
   * ends with %SLUICE_ERROR_GROUP. `keep-going` does not prevent it.
   *
   * Since: 1.0
   */
  properties[PROP_FATAL] =
    g_param_spec_boxed ("fatal", NULL, NULL, G_TYPE_STRV, flags);

  /**
   * SluicePool:shutdown-timeout:
   *
   * Seconds a shutdown may take, from the first stop request of a running
   * run; 0 (the default) means no limit. When it passes, the shutdown
   * becomes immediate: queued items are dropped, every running attempt is
   * asked once to stop and then awaited however long it takes, every
   * backoff is cancelled, and those items end cancelled.
   *
   * Since: 1.0
   */
  properties[PROP_SHUTDOWN_TIMEOUT] =
    g_param_spec_double ("shutdown-timeout", NULL, NULL, -INFINITY, INFINITY, 0.0,
                         flags | G_PARAM_LAX_VALIDATION);

  /* The retry policy (seed 004): see the retry policy section. Seconds
   * and tokens take any double, for GInitable to refuse with a message. */

  /**
   * SluicePool:backoff:
   *
   * Whether a retry waits after the failed attempt: %SLUICE_BACKOFF_NONE
   * (the default: it starts at once) or %SLUICE_BACKOFF_EXPONENTIAL.
   *
   * Since: 1.0
   */
  properties[PROP_BACKOFF] =
    g_param_spec_enum ("backoff", NULL, NULL, SLUICE_TYPE_BACKOFF, SLUICE_BACKOFF_NONE, flags);

  /**
   * SluicePool:backoff-base:
   *
   * Seconds: the bound of the first retry's wait; each later retry doubles
   * it, up to #SluicePool:backoff-cap. Finite and above 0; 0.1 by default.
   *
   * Since: 1.0
   */
  properties[PROP_BACKOFF_BASE] =
    g_param_spec_double ("backoff-base", NULL, NULL, -INFINITY, INFINITY, 0.1,
                         flags | G_PARAM_LAX_VALIDATION);

  /**
   * SluicePool:backoff-cap:
   *
   * Seconds: the largest bound of a retry's wait; at least
   * #SluicePool:backoff-base and at most 3600; 10 by default.
   *
   * Since: 1.0
   */
  properties[PROP_BACKOFF_CAP] =
    g_param_spec_double ("backoff-cap", NULL, NULL, -INFINITY, INFINITY, 10.0,
                         flags | G_PARAM_LAX_VALIDATION);

  /**
   * SluicePool:jitter:
   *
   * How a wait is drawn below its bound: %SLUICE_JITTER_FULL (the default:
   * uniformly from 0 to the bound) or %SLUICE_JITTER_NONE (the bound).
   *
   * Since: 1.0
   */
  properties[PROP_JITTER] =
    g_param_spec_enum ("jitter", NULL, NULL, SLUICE_TYPE_JITTER, SLUICE_JITTER_FULL, flags);

  /**
   * SluicePool:seed:
   *
   * The seed of the pool's random generator (MT19937 seeded with one
   * word), which draws the jittered waits; 0 by default.
   *
   * Since: 1.0
   */
  properties[PROP_SEED] =
    g_param_spec_uint ("seed", NULL, NULL, 0, G_MAXUINT32, 0, flags);

  /**
   * SluicePool:item-deadline:
   *
   * Seconds from an item's pull that its queue wait, attempts and backoffs
   * share; 0 (the default) means no deadline. An item taken after its
   * deadline fails with `TimeoutError('deadline exceeded')` without a
   * handler call; an attempt still running at it is stopped; a retry whose
   * wait would end at or after it is skipped.
   *
   * Since: 1.0
   */
  properties[PROP_ITEM_DEADLINE] =
    g_param_spec_double ("item-deadline", NULL, NULL, -INFINITY, INFINITY, 0.0,
                         flags | G_PARAM_LAX_VALIDATION);

  /**
   * SluicePool:retry-budget:
   *
   * Tokens of the pool's retry budget (at most 1,000,000, at most three
   * decimals); 0 (the default) means no budget. Every attempt that fails
   * with a retryable error takes one token, every successful attempt gives
   * back #SluicePool:retry-budget-ratio, and a retry is allowed only while
   * more than half the budget is left.
   *
   * Since: 1.0
   */
  properties[PROP_RETRY_BUDGET] =
    g_param_spec_double ("retry-budget", NULL, NULL, -INFINITY, INFINITY, 0.0,
                         flags | G_PARAM_LAX_VALIDATION);

  /**
   * SluicePool:retry-budget-ratio:
   *
   * Tokens a successful attempt gives back to the retry budget (above 0,
   * at most three decimals); 0.1 by default.
   *
   * Since: 1.0
   */
  properties[PROP_RETRY_BUDGET_RATIO] =
    g_param_spec_double ("retry-budget-ratio", NULL, NULL, -INFINITY, INFINITY, 0.1,
                         flags | G_PARAM_LAX_VALIDATION);

  /**
   * SluicePool:stop-requested:
   *
   * Whether sluice_pool_request_stop() was called.
   *
   * Since: 1.0
   */
  properties[PROP_STOP_REQUESTED] =
    g_param_spec_boolean ("stop-requested", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SluicePool:title:
   *
   * What a monitor shows as the pool's name, such as `thumbnails`; %NULL
   * (the default) for the program's name, g_get_prgname(). See
   * sluice_pool_get_title().
   *
   * Since: 1.0
   */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * SluicePool:labels:
   *
   * What the pool is, for the programs that look for it on the bus, as
   * `key=value` strings: the `Labels` of its D-Bus export. `sluice-run
   * worker` sets `worker-id=W`, its claims' lease owner, so that a monitor
   * finds the worker that runs a job (sluice_pool_get_label()). Set at
   * construction; they never change.
   *
   * Since: 1.0
   */
  properties[PROP_LABELS] =
    g_param_spec_boxed ("labels", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /**
   * SluicePool:event-capacity:
   *
   * How many of the latest events the pool's D-Bus export keeps for its
   * monitors (see sluice_pool_export()), from 1 to
   * %SLUICE_POOL_MAX_EVENT_CAPACITY; 10000 by default. A monitor that falls
   * further behind is told how many it lost. The export's memory is
   * bounded by it, however slow its monitors are.
   *
   * Since: 1.0
   */
  properties[PROP_EVENT_CAPACITY] =
    g_param_spec_uint ("event-capacity", NULL, NULL, 0, G_MAXUINT, SLUICE_POOL_DEFAULT_EVENT_CAPACITY, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sluice_pool_init (SluicePool *self)
{
  self->workers = 1;
  self->queue_size = 1;
  self->item_timeout = 1.0;
  self->event_capacity = SLUICE_POOL_DEFAULT_EVENT_CAPACITY;
  _sluice_retry_policy_init (&self->retry_policy);
}

/**
 * sluice_pool_new:
 * @handler: what to call for each attempt
 * @workers: how many workers (positive)
 * @queue_size: capacity of the input channel (positive)
 * @item_timeout: seconds each attempt may run (finite, positive)
 * @error: return location for a %SLUICE_ERROR_INVALID_CONFIG error
 *
 * Makes a pool on a real clock with no retries. Use g_initable_new() for the
 * other options.
 *
 * Returns: (transfer full) (nullable): a new pool, or %NULL with @error set
 *
 * Since: 1.0
 */
SluicePool *
sluice_pool_new (SluiceHandler  *handler,
                 gint            workers,
                 gint            queue_size,
                 double          item_timeout,
                 GError        **error)
{
  g_return_val_if_fail (SLUICE_IS_HANDLER (handler), NULL);

  return g_initable_new (SLUICE_TYPE_POOL, NULL, error,
                         "handler", handler,
                         "workers", workers,
                         "queue-size", queue_size,
                         "item-timeout", item_timeout,
                         NULL);
}

/**
 * sluice_pool_set_random_func:
 * @self: a #SluicePool
 * @func: (nullable) (scope notified): gives the 32-bit numbers of the
 *   jitter, or %NULL for the pool's own generator
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Replaces the pool's random generator, for tests that want to choose the
 * jittered waits. Each jittered wait takes exactly one number, in the order
 * the retries are decided.
 *
 * Since: 1.0
 */
void
sluice_pool_set_random_func (SluicePool       *self,
                             SluiceRandomFunc  func,
                             gpointer          user_data,
                             GDestroyNotify    destroy)
{
  g_return_if_fail (SLUICE_IS_POOL (self));

  _sluice_retry_policy_set_random (&self->retry_policy, func, user_data, destroy);
}

/**
 * sluice_pool_set_metrics_func:
 * @self: a #SluicePool
 * @func: (nullable) (scope notified): receives `ok`, `retry` and `failure`
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the metrics callback: one call per item event and for nothing else.
 * A failing callback does not change what the pool does.
 *
 * Since: 1.0
 */
void
sluice_pool_set_metrics_func (SluicePool        *self,
                              SluiceMetricsFunc  func,
                              gpointer           user_data,
                              GDestroyNotify     destroy)
{
  g_return_if_fail (SLUICE_IS_POOL (self));

  if (self->metrics_destroy != NULL)
    self->metrics_destroy (self->metrics_data);

  self->metrics_func = func;
  self->metrics_data = user_data;
  self->metrics_destroy = destroy;
}

/**
 * sluice_pool_set_event_func:
 * @self: a #SluicePool
 * @func: (nullable) (scope notified): receives every #SluiceEvent
 * @user_data: data for @func
 * @destroy: (nullable): frees @user_data
 *
 * Sets the receiver of the structured event stream. Without one, the pool
 * does not build events at all.
 *
 * Since: 1.0
 */
void
sluice_pool_set_event_func (SluicePool      *self,
                            SluiceEventFunc  func,
                            gpointer         user_data,
                            GDestroyNotify   destroy)
{
  g_return_if_fail (SLUICE_IS_POOL (self));

  /* The event stream is the run's: the pool only keeps the function until
   * it makes its run. */
  if (self->run != NULL)
    {
      _sluice_run_set_event_func (self->run, func, user_data, destroy);
      return;
    }

  if (self->event_destroy != NULL)
    self->event_destroy (self->event_data);

  self->event_func = func;
  self->event_data = user_data;
  self->event_destroy = destroy;
}

/**
 * sluice_pool_request_stop:
 * @self: a #SluicePool
 *
 * Asks the pool to stop taking work: the source is no longer read (a read
 * or a put that waits is woken), what is queued or running is drained and
 * its results are still handed out. Called before the run starts, the run
 * ends at once without reading the source. Plain, idempotent, and safe
 * from any callback of the pool's main context.
 *
 * Since: 1.0
 */
void
sluice_pool_request_stop (SluicePool *self)
{
  g_return_if_fail (SLUICE_IS_POOL (self));

  if (self->stop_requested)
    return;

  self->stop_requested = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STOP_REQUESTED]);

  if (self->run != NULL)
    _sluice_run_request_stop (self->run);
}

/**
 * sluice_pool_set_title:
 * @self: a #SluicePool
 * @title: (nullable): the pool's title, or %NULL for the program's name
 *
 * Names the pool for monitors: the `Title` of its D-Bus export.
 *
 * Since: 1.0
 */
void
sluice_pool_set_title (SluicePool *self,
                       const char *title)
{
  g_return_if_fail (SLUICE_IS_POOL (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;

  g_free (self->title);
  self->title = g_strdup (title);
  if (self->monitor != NULL)
    _sluice_monitor_title_changed (self->monitor);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

/**
 * sluice_pool_get_label:
 * @self: a #SluicePool
 * @key: a label's key, such as `worker-id`
 *
 * Returns: (nullable): the value of the label @key in #SluicePool:labels,
 *   or %NULL when the pool has none
 *
 * Since: 1.0
 */
const char *
sluice_pool_get_label (SluicePool *self,
                       const char *key)
{
  gsize key_len;

  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  key_len = strlen (key);
  for (guint i = 0; self->labels != NULL && self->labels[i] != NULL; i++)
    if (strncmp (self->labels[i], key, key_len) == 0 && self->labels[i][key_len] == '=')
      return self->labels[i] + key_len + 1;
  return NULL;
}

/**
 * sluice_pool_get_title:
 * @self: a #SluicePool
 *
 * Gives the title monitors show: #SluicePool:title, or the program's name
 * (g_get_prgname()) when it is %NULL, or an empty string when neither is
 * set.
 *
 * Returns: (transfer none): the title
 *
 * Since: 1.0
 */
const char *
sluice_pool_get_title (SluicePool *self)
{
  const char *program;

  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);

  if (self->title != NULL)
    return self->title;
  program = g_get_prgname ();
  return program != NULL ? program : "";
}

/**
 * sluice_pool_get_stop_requested:
 * @self: a #SluicePool
 *
 * Returns: whether a stop was requested
 *
 * Since: 1.0
 */
gboolean
sluice_pool_get_stop_requested (SluicePool *self)
{
  g_return_val_if_fail (SLUICE_IS_POOL (self), FALSE);

  return self->stop_requested;
}

/**
 * sluice_pool_run:
 * @self: a #SluicePool
 * @source: where the items come from; the caller keeps owning it
 * @error: return location for a %SLUICE_ERROR_SINGLE_USE error
 *
 * Makes the pool's one run over @source. Nothing is read until the first
 * sluice_run_next_async(); from then on the pool works until the source
 * ends or a stop, and the run hands out results in the order they finish.
 * A second call fails: a pool is single-use.
 *
 * Returns: (transfer full) (nullable): the run, or %NULL with @error set
 *
 * Since: 1.0
 */
SluiceRun *
sluice_pool_run (SluicePool    *self,
                 SluiceSource  *source,
                 GError       **error)
{
  SluiceRun *run;

  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);
  g_return_val_if_fail (SLUICE_IS_SOURCE (source), NULL);

  if (self->ran)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_SINGLE_USE, "pool is single-use");
      return NULL;
    }

  run = _sluice_run_new (self, source);
  self->run = run;
  g_object_add_weak_pointer (G_OBJECT (run), (gpointer *) &self->run);
  self->ran = TRUE;

  return run;
}

/* Hands the event function set before the run over to the run. */
void
_sluice_pool_take_event_func (SluicePool      *self,
                              SluiceEventFunc *func,
                              gpointer        *user_data,
                              GDestroyNotify  *destroy)
{
  *func = g_steal_pointer (&self->event_func);
  *user_data = g_steal_pointer (&self->event_data);
  *destroy = g_steal_pointer (&self->event_destroy);
}

/**
 * sluice_pool_open:
 * @self: a #SluicePool
 * @error: return location for a %SLUICE_ERROR_SINGLE_USE error
 *
 * Makes the pool's one run as a service: no source, but jobs submitted one
 * at a time with sluice_run_submit_async(), each with its own result
 * (seed 001). The run starts at once. A job that fails fails only its job
 * (keep-going is implied); a fatal error stops the pool. It ends after
 * sluice_run_close_async() (or sluice_pool_request_stop()), which lets the
 * queued and running jobs finish; sluice_run_next_async() yields no results
 * and completes when it has ended. A stop requested before the open ends
 * the run at once. Like sluice_pool_run(), a pool runs once.
 *
 * Returns: (transfer full) (nullable): the run, or %NULL with @error set
 *
 * Since: 1.0
 */
SluiceRun *
sluice_pool_open (SluicePool  *self,
                  GError     **error)
{
  SluiceRun *run;

  g_return_val_if_fail (SLUICE_IS_POOL (self), NULL);

  if (self->ran)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_SINGLE_USE, "pool is single-use");
      return NULL;
    }

  run = _sluice_run_new_service (self);
  self->run = run;
  g_object_add_weak_pointer (G_OBJECT (run), (gpointer *) &self->run);
  self->ran = TRUE;
  _sluice_run_start_service (run);

  return run;
}

/* The D-Bus export's listener: beside the user's event function, never in
 * its place; handed to the run like it, and to a run already made. */
void
_sluice_pool_set_monitor_func (SluicePool      *self,
                               SluiceEventFunc  func,
                               gpointer         user_data)
{
  self->monitor_func = func;
  self->monitor_data = user_data;
  if (self->run != NULL)
    _sluice_run_set_monitor_func (self->run, func, user_data);
}

void
_sluice_pool_get_monitor_func (SluicePool      *self,
                               SluiceEventFunc *func,
                               gpointer        *user_data)
{
  *func = self->monitor_func;
  *user_data = self->monitor_data;
}

/* idle before the run starts, ended once it has ended (or was made and
 * dropped without ever starting: the pool runs once). */
const char *
_sluice_pool_get_state_nick (SluicePool *self)
{
  if (self->run != NULL)
    return _sluice_run_get_state_nick (self->run);
  return self->ran ? "ended" : "idle";
}

gboolean
_sluice_pool_has_metrics_func (SluicePool *self)
{
  return self->metrics_func != NULL;
}

void
_sluice_pool_emit_metrics (SluicePool *self,
                           const char *event,
                           const char *detail)
{
  g_autoptr(SluicePool) hold = NULL;
  GError *error = NULL;

  if (self->metrics_func == NULL)
    return;

  /* The callback may drop the last reference to the pool. */
  hold = g_object_ref (self);
  self->metrics_func (event, detail, self->metrics_data, &error);

  /* A broken backend is ignored: its error is consumed here. */
  g_clear_error (&error);
}

SluiceRetryPolicy *
_sluice_pool_get_retry_policy (SluicePool *self)
{
  return &self->retry_policy;
}

gint64
_sluice_pool_get_shutdown_timeout_us (SluicePool *self)
{
  return sluice_time_from_seconds (self->shutdown_timeout);
}

gint64
_sluice_pool_get_timeout_us (SluicePool *self)
{
  return sluice_time_from_seconds (self->item_timeout);
}
