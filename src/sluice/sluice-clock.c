/* sluice-clock.c: one timer heap under one GSource, on real, scaled or virtual time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-clock-source-private.h"

G_DEFINE_ENUM_TYPE (SluiceClockKind, sluice_clock_kind,
  G_DEFINE_ENUM_VALUE (SLUICE_CLOCK_REAL, "real"),
  G_DEFINE_ENUM_VALUE (SLUICE_CLOCK_SCALED, "scaled"),
  G_DEFINE_ENUM_VALUE (SLUICE_CLOCK_VIRTUAL, "virtual"),
  G_DEFINE_ENUM_VALUE (SLUICE_CLOCK_PACED, "paced"))

/**
 * SluiceClock:
 *
 * One timer heap under one #GSource, on real, scaled, virtual or paced
 * time (#SluiceClockKind).
 *
 * A #SluiceClock keeps all of its timers in one binary min-heap ordered by
 * (deadline, id) and drives them from a single #GSource attached to the
 * thread-default main context of the thread that created the clock. Times
 * are #gint64 microseconds and sluice_clock_now() is 0 when the clock is
 * made.
 *
 * A %SLUICE_CLOCK_REAL clock follows g_get_monotonic_time(). A
 * %SLUICE_CLOCK_SCALED clock follows it times #SluiceClock:speed and can be
 * paused and stepped. A %SLUICE_CLOCK_VIRTUAL clock only moves when its
 * source, at %G_PRIORITY_LOW, is dispatched: that happens when nothing else
 * in the main context is ready, and it then jumps to the earliest deadline.
 * A %SLUICE_CLOCK_PACED clock jumps the same way, but only once wall time
 * times its speed has reached that deadline: the same outcome as a virtual
 * clock, watched at a chosen speed.
 *
 * Within one dispatch, only timers that existed when the dispatch began are
 * fired; timers added by callbacks wait for a later dispatch even when
 * already due, so that other sources get a chance to run in between.
 *
 * A clock is not thread-safe: use it only from the thread owning its main
 * context.
 *
 * Since: 1.0
 */
G_DEFINE_FINAL_TYPE (SluiceClock, sluice_clock, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KIND,
  PROP_SPEED,
  PROP_PAUSED,
  PROP_PRIORITY,
  PROP_ADVANCE_PRIORITY,
  PROP_SLICE,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  STALLED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_clock_constructed (GObject *object)
{
  SluiceClock *self = SLUICE_CLOCK (object);
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();

  G_OBJECT_CLASS (sluice_clock_parent_class)->constructed (object);

  /* Virtual time must only move when no work of the pool can run. */
  if (_sluice_clock_jumps (self))
    {
      if (self->priority >= self->advance_priority)
        {
          g_critical ("a virtual or paced clock's priority (%d) must be above its advance-priority (%d)",
                      self->priority, self->advance_priority);
          self->priority = MIN (G_PRIORITY_DEFAULT, self->advance_priority - 1);
        }
      g_source_set_priority (self->source, self->advance_priority);
    }
  else
    g_source_set_priority (self->source, self->priority);

  g_source_attach (self->source, context);
  _sluice_clock_update_ready_time (self);
}

static void
sluice_clock_dispose (GObject *object)
{
  SluiceClock *self = SLUICE_CLOCK (object);

  self->disposed = TRUE;

  if (self->source != NULL)
    {
      _sluice_clock_source_forget (self->source);
      g_source_destroy (self->source);
      g_clear_pointer (&self->source, g_source_unref);
    }

  _sluice_timer_heap_clear (&self->heap);

  G_OBJECT_CLASS (sluice_clock_parent_class)->dispose (object);
}

static void
sluice_clock_finalize (GObject *object)
{
  SluiceClock *self = SLUICE_CLOCK (object);

  /* Timers added by destroy notifies during dispose. */
  _sluice_timer_heap_clear (&self->heap);

  _sluice_timer_heap_destroy (&self->heap);

  G_OBJECT_CLASS (sluice_clock_parent_class)->finalize (object);
}

static void
sluice_clock_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  SluiceClock *self = SLUICE_CLOCK (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->time.kind);
      break;

    case PROP_SPEED:
      g_value_set_double (value, self->time.speed);
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, self->time.paused);
      break;

    case PROP_PRIORITY:
      g_value_set_int (value, self->priority);
      break;

    case PROP_ADVANCE_PRIORITY:
      g_value_set_int (value, self->advance_priority);
      break;

    case PROP_SLICE:
      g_value_set_int64 (value, self->slice);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_clock_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  SluiceClock *self = SLUICE_CLOCK (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->time.kind = g_value_get_enum (value);
      break;

    case PROP_SPEED:
      sluice_clock_set_speed (self, g_value_get_double (value));
      break;

    case PROP_PAUSED:
      sluice_clock_set_paused (self, g_value_get_boolean (value));
      break;

    case PROP_PRIORITY:
      self->priority = g_value_get_int (value);
      break;

    case PROP_ADVANCE_PRIORITY:
      self->advance_priority = g_value_get_int (value);
      break;

    case PROP_SLICE:
      self->slice = g_value_get_int64 (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_clock_class_init (SluiceClockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = sluice_clock_constructed;
  object_class->dispose = sluice_clock_dispose;
  object_class->finalize = sluice_clock_finalize;
  object_class->get_property = sluice_clock_get_property;
  object_class->set_property = sluice_clock_set_property;

  /**
   * SluiceClock:kind:
   *
   * How the clock moves, set once when it is made (sluice_clock_new()).
   *
   * Since: 1.0
   */
  properties [PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       SLUICE_TYPE_CLOCK_KIND, SLUICE_CLOCK_REAL,
                       (G_PARAM_READWRITE |
                        G_PARAM_CONSTRUCT_ONLY |
                        G_PARAM_STATIC_STRINGS));

  /**
   * SluiceClock:speed:
   *
   * How many clock microseconds pass per real microsecond. Only
   * %SLUICE_CLOCK_SCALED clocks use it.
   *
   * Since: 1.0
   */
  properties [PROP_SPEED] =
    g_param_spec_double ("speed", NULL, NULL,
                         G_MINDOUBLE, G_MAXDOUBLE, 1.0,
                         (G_PARAM_READWRITE |
                          G_PARAM_EXPLICIT_NOTIFY |
                          G_PARAM_STATIC_STRINGS));

  /**
   * SluiceClock:paused:
   *
   * Whether the clock is stopped. Real clocks cannot be paused.
   *
   * Since: 1.0
   */
  properties [PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
                           G_PARAM_STATIC_STRINGS));

  /**
   * SluiceClock:priority:
   *
   * The main-loop priority of the work of every pool on this clock: its
   * timers on a real or scaled clock, and the pool's channels and
   * completions. On a virtual or paced clock it must be higher (a smaller
   * number) than #SluiceClock:advance-priority, the priority at which time
   * moves.
   *
   * Never set it below a busy source of the same main context (a window's
   * redraws, at %GDK_PRIORITY_REDRAW): a source that is always ready, such
   * as a frame clock whose frames take longer than its refresh interval,
   * would starve the pool for ever. Use sluice_clock_new_interactive().
   *
   * Since: 1.0
   */
  properties [PROP_PRIORITY] =
    g_param_spec_int ("priority", NULL, NULL,
                      G_MININT, G_MAXINT, G_PRIORITY_DEFAULT,
                      (G_PARAM_READWRITE |
                       G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_STATIC_STRINGS));

  /**
   * SluiceClock:advance-priority:
   *
   * The main-loop priority at which a virtual or paced clock moves time:
   * it jumps to its next timer only when nothing of higher priority is
   * ready, so that all the work of its pools (#SluiceClock:priority) that
   * an instant caused is done before time moves on. %G_PRIORITY_LOW by
   * default, below everything; a clock that shares its main context with
   * a window sets it above %GDK_PRIORITY_REDRAW, so that frames cannot
   * hold time still. Real and scaled clocks do not use it.
   *
   * Since: 1.0
   */
  properties [PROP_ADVANCE_PRIORITY] =
    g_param_spec_int ("advance-priority", NULL, NULL,
                      G_MININT, G_MAXINT, G_PRIORITY_LOW,
                      (G_PARAM_READWRITE |
                       G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_STATIC_STRINGS));

  /**
   * SluiceClock:slice:
   *
   * How long, in wall-clock microseconds, a virtual or paced clock may keep
   * its main context busy, moving time back to back, before it lets the
   * context's other sources run: it then waits %SLUICE_CLOCK_YIELD_US, and
   * its next turn lasts as long as it waited, and at least @slice, so that
   * a run and the other sources (a window's frames) each get at least half
   * of the main loop when both are busy. 0 (the default): it never waits.
   * The outcome of a run does not depend on it, only when it is reached.
   *
   * Since: 1.0
   */
  properties [PROP_SLICE] =
    g_param_spec_int64 ("slice", NULL, NULL,
                        0, G_MAXINT64, 0,
                        (G_PARAM_READWRITE |
                         G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceClock::stalled:
   * @self: the clock
   *
   * Emitted by a held virtual clock when its main context had nothing
   * else ready and no timer is pending, so time cannot move. Emitted once;
   * it can be emitted again after a timer is added or after
   * sluice_clock_hold() or sluice_clock_release().
   *
   * Since: 1.0
   */
  signals [STALLED] =
    g_signal_new ("stalled",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
sluice_clock_init (SluiceClock *self)
{
  _sluice_timebase_init (&self->time);
  _sluice_timer_heap_init (&self->heap);

  self->source = _sluice_clock_source_new (self);
  self->ready_time = -1;
  self->priority = G_PRIORITY_DEFAULT;
  self->advance_priority = G_PRIORITY_LOW;
}

void
_sluice_clock_emit_stalled (SluiceClock *self)
{
  g_signal_emit (self, signals[STALLED], 0);
}

/* ---- public API -------------------------------------------------------- */

/**
 * sluice_clock_new:
 * @kind: how the clock moves
 *
 * Creates a clock whose time is 0 now, driven by a source attached to the
 * thread-default main context.
 *
 * Returns: (transfer full): a new #SluiceClock
 *
 * Since: 1.0
 */
SluiceClock *
sluice_clock_new (SluiceClockKind kind)
{
  g_return_val_if_fail ((guint) kind <= SLUICE_CLOCK_PACED, NULL);

  return g_object_new (SLUICE_TYPE_CLOCK,
                       "kind", kind,
                       NULL);
}

/**
 * sluice_clock_new_with_priority:
 * @kind: how the clock moves
 * @priority: the main-loop priority of the work of pools on the clock
 *
 * Like sluice_clock_new(), with #SluiceClock:priority set.
 *
 * Returns: (transfer full): a new #SluiceClock
 *
 * Since: 1.0
 */
SluiceClock *
sluice_clock_new_with_priority (SluiceClockKind kind,
                                gint            priority)
{
  g_return_val_if_fail ((guint) kind <= SLUICE_CLOCK_PACED, NULL);

  return g_object_new (SLUICE_TYPE_CLOCK,
                       "kind", kind,
                       "priority", priority,
                       NULL);
}

/**
 * sluice_clock_new_interactive:
 * @kind: how the clock moves
 *
 * Creates a clock for pools that share the main context with a user
 * interface. Their work runs at %G_PRIORITY_DEFAULT, above a GTK window's
 * layout and redraws, and a virtual or paced clock moves time at
 * %G_PRIORITY_HIGH_IDLE, below that work and above the redraws, so that
 * frames, however slow, never hold a run still. In turn the clock lets the
 * window draw after %SLUICE_CLOCK_INTERACTIVE_SLICE_US of moving time back
 * to back (#SluiceClock:slice). The outcome is the one sluice_clock_new()
 * gives.
 *
 * Returns: (transfer full): a new #SluiceClock
 *
 * Since: 1.0
 */
SluiceClock *
sluice_clock_new_interactive (SluiceClockKind kind)
{
  g_return_val_if_fail ((guint) kind <= SLUICE_CLOCK_PACED, NULL);

  return g_object_new (SLUICE_TYPE_CLOCK,
                       "kind", kind,
                       "priority", G_PRIORITY_DEFAULT,
                       "advance-priority", G_PRIORITY_HIGH_IDLE,
                       "slice", (gint64) SLUICE_CLOCK_INTERACTIVE_SLICE_US,
                       NULL);
}

/**
 * sluice_clock_get_advance_priority:
 * @self: a #SluiceClock
 *
 * Returns: the main-loop priority at which a virtual or paced @self moves
 *   time (#SluiceClock:advance-priority)
 *
 * Since: 1.0
 */
gint
sluice_clock_get_advance_priority (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), G_PRIORITY_LOW);

  return self->advance_priority;
}

/**
 * sluice_clock_get_slice:
 * @self: a #SluiceClock
 *
 * Returns: how long @self may move time back to back before it lets other
 *   sources run, in wall-clock microseconds (#SluiceClock:slice), 0 for
 *   never
 *
 * Since: 1.0
 */
gint64
sluice_clock_get_slice (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  return self->slice;
}

/**
 * sluice_clock_get_priority:
 * @self: a #SluiceClock
 *
 * Returns: the main-loop priority of the work of pools on @self
 *
 * Since: 1.0
 */
gint
sluice_clock_get_priority (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), G_PRIORITY_DEFAULT);

  return self->priority;
}

/**
 * sluice_clock_get_max_lateness:
 * @self: a #SluiceClock
 *
 * Gets how late, at most, a timer of @self fired after its deadline: on a
 * real or scaled clock a busy main loop (slow frames, a handler that
 * blocks) delays timers, and with them the outcome. A virtual or paced
 * clock fires every timer at its instant: 0.
 *
 * Returns: the largest lateness so far, in the clock's microseconds
 *
 * Since: 1.0
 */
gint64
sluice_clock_get_max_lateness (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  return self->max_lateness;
}

/**
 * sluice_clock_get_shown_time:
 * @self: a #SluiceClock
 *
 * Gets the time a view should show for @self now. For a paced clock that
 * is its pace, as far as the next timer: the picture moves smoothly with
 * wall time while sluice_clock_now() stays at the instant of the last
 * timer until the next one fires. For every other kind it is
 * sluice_clock_now().
 *
 * Returns: the time to show, never before sluice_clock_now()
 *
 * Since: 1.0
 */
gint64
sluice_clock_get_shown_time (SluiceClock *self)
{
  gint64 now, shown;

  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  now = sluice_clock_now (self);
  if (self->time.kind != SLUICE_CLOCK_PACED)
    return now;

  shown = MIN (_sluice_timebase_pace (&self->time), _sluice_timer_heap_next_deadline (&self->heap));
  return MAX (now, shown);
}

/**
 * sluice_clock_get_kind:
 * @self: a #SluiceClock
 *
 * Gets how @self moves.
 *
 * Returns: the #SluiceClockKind given at construction
 *
 * Since: 1.0
 */
SluiceClockKind
sluice_clock_get_kind (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), SLUICE_CLOCK_REAL);

  return self->time.kind;
}

/**
 * sluice_clock_now:
 * @self: a #SluiceClock
 *
 * Gets the current time of @self, in microseconds since it was made (for
 * real clocks), or as moved by speed, pauses, steps and jumps.
 *
 * Returns: the current time in microseconds
 *
 * Since: 1.0
 */
gint64
sluice_clock_now (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  return _sluice_timebase_now (&self->time);
}

static guint64
add_timer (SluiceClock     *self,
           gint64           deadline,
           gboolean         first,
           SluiceTimerFunc  func,
           gpointer         user_data,
           GDestroyNotify   destroy)
{
  guint64 id = _sluice_timer_heap_add (&self->heap, deadline, first, func, user_data, destroy);

  self->stall_reported = FALSE;
  _sluice_clock_update_ready_time (self);

  return id;
}

/**
 * sluice_clock_add_timer:
 * @self: a #SluiceClock
 * @deadline: when to call @func, in the time of @self
 * @func: (scope notified) (closure user_data) (destroy destroy): the
 *   function to call
 * @user_data: data for @func
 * @destroy: (nullable): called on @user_data once the timer has fired or
 *   was removed, or when @self is disposed
 *
 * Schedules @func to be called once when sluice_clock_now() reaches
 * @deadline. A deadline in the past is due at once, at the next dispatch.
 * Timers due at the same time fire in the order they were added.
 *
 * Returns: the id of the timer, never 0
 *
 * Since: 1.0
 */
guint64
sluice_clock_add_timer (SluiceClock     *self,
                        gint64           deadline,
                        SluiceTimerFunc  func,
                        gpointer         user_data,
                        GDestroyNotify   destroy)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  return add_timer (self, deadline, FALSE, func, user_data, destroy);
}

/*
 * _sluice_clock_add_timer_first:
 *
 * Like sluice_clock_add_timer(), but the timer fires before every other
 * timer due at the same instant, whenever those were added: a deadline
 * that must win its ties (the shutdown deadline) uses it.
 */
guint64
_sluice_clock_add_timer_first (SluiceClock     *self,
                               gint64           deadline,
                               SluiceTimerFunc  func,
                               gpointer         user_data)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  return add_timer (self, deadline, TRUE, func, user_data, NULL);
}

/*
 * _sluice_clock_add_timer_node:
 * @node: a zero-initialised node inside the caller's struct, not pending
 *
 * Like sluice_clock_add_timer(), for the engine's own timers: @node
 * belongs to the caller, who removes it by pointer with
 * _sluice_clock_remove_timer_node() and must not free it while it is
 * pending. No allocation, no id, no lookup.
 */
void
_sluice_clock_add_timer_node (SluiceClock     *self,
                              SluiceTimer     *node,
                              gint64           deadline,
                              SluiceTimerFunc  func,
                              gpointer         user_data)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (func != NULL);

  _sluice_timer_heap_add_node (&self->heap, node, deadline, func, user_data);
  self->stall_reported = FALSE;
  _sluice_clock_update_ready_time (self);
}

/*
 * _sluice_clock_remove_timer_node:
 *
 * Cancels @node if it is pending. Returns: whether it was
 */
gboolean
_sluice_clock_remove_timer_node (SluiceClock *self,
                                 SluiceTimer *node)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  if (!_sluice_timer_heap_remove_node (&self->heap, node))
    return FALSE;

  _sluice_clock_update_ready_time (self);
  return TRUE;
}

/**
 * sluice_clock_add_timeout:
 * @self: a #SluiceClock
 * @delay: microseconds from now
 * @func: (scope notified) (closure user_data) (destroy destroy): the
 *   function to call
 * @user_data: data for @func
 * @destroy: (nullable): called on @user_data once the timer is done
 *
 * Like sluice_clock_add_timer() with a deadline of sluice_clock_now() plus
 * @delay.
 *
 * Returns: the id of the timer, never 0
 *
 * Since: 1.0
 */
guint64
sluice_clock_add_timeout (SluiceClock     *self,
                          gint64           delay,
                          SluiceTimerFunc  func,
                          gpointer         user_data,
                          GDestroyNotify   destroy)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  return sluice_clock_add_timer (self,
                                 _sluice_time_add (sluice_clock_now (self), delay),
                                 func, user_data, destroy);
}

/**
 * sluice_clock_remove_timer:
 * @self: a #SluiceClock
 * @timer_id: an id from sluice_clock_add_timer()
 *
 * Cancels a pending timer and calls its destroy notify. Does nothing if
 * the timer already fired (or is firing) or was removed.
 *
 * Returns: %TRUE if the timer was pending
 *
 * Since: 1.0
 */
gboolean
sluice_clock_remove_timer (SluiceClock *self,
                           guint64      timer_id)
{
  SluiceTimer *timer;

  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  timer = _sluice_timer_heap_take (&self->heap, timer_id);
  if (timer == NULL)
    return FALSE;

  _sluice_clock_update_ready_time (self);
  _sluice_timer_heap_release (&self->heap, timer);

  return TRUE;
}

/**
 * sluice_clock_get_n_pending:
 * @self: a #SluiceClock
 *
 * Counts the timers that have neither fired nor been removed.
 *
 * Returns: the number of pending timers
 *
 * Since: 1.0
 */
guint
sluice_clock_get_n_pending (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  return _sluice_timer_heap_get_n_pending (&self->heap);
}

/**
 * sluice_clock_get_next_deadline:
 * @self: a #SluiceClock
 *
 * Gets the earliest deadline of the pending timers.
 *
 * Returns: the earliest deadline, or %G_MAXINT64 if no timer is pending
 *
 * Since: 1.0
 */
gint64
sluice_clock_get_next_deadline (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), G_MAXINT64);

  return _sluice_timer_heap_next_deadline (&self->heap);
}

/**
 * sluice_clock_get_speed:
 * @self: a #SluiceClock
 *
 * Gets the speed factor of @self.
 *
 * Returns: the #SluiceClock:speed
 *
 * Since: 1.0
 */
double
sluice_clock_get_speed (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 1.0);

  return self->time.speed;
}

/**
 * sluice_clock_set_speed:
 * @self: a #SluiceClock
 * @speed: clock microseconds per real microsecond, finite and > 0
 *
 * Changes the speed of a scaled clock from now on; sluice_clock_now() does
 * not jump. Other kinds store the value but ignore it.
 *
 * Since: 1.0
 */
void
sluice_clock_set_speed (SluiceClock *self,
                        double       speed)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  /* Also rejects NaN and infinities. */
  g_return_if_fail (speed > 0.0 && speed <= G_MAXDOUBLE);

  if (self->time.speed == speed)
    return;

  _sluice_timebase_set_speed (&self->time, speed);

  _sluice_clock_update_ready_time (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SPEED]);
}

/**
 * sluice_clock_get_paused:
 * @self: a #SluiceClock
 *
 * Gets whether @self is paused.
 *
 * Returns: %TRUE if paused
 *
 * Since: 1.0
 */
gboolean
sluice_clock_get_paused (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  return self->time.paused;
}

/**
 * sluice_clock_set_paused:
 * @self: a scaled or virtual #SluiceClock
 * @paused: whether to stop the clock
 *
 * Stops or restarts a scaled clock, which keeps its time across the
 * pause, or stops a virtual clock from jumping to its next timer. Timers
 * still fire through sluice_clock_step(). Real clocks cannot be paused.
 *
 * Since: 1.0
 */
void
sluice_clock_set_paused (SluiceClock *self,
                         gboolean     paused)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (self->time.kind != SLUICE_CLOCK_REAL || !paused);

  paused = !!paused;
  if (self->time.paused == paused)
    return;

  _sluice_timebase_set_paused (&self->time, paused);

  _sluice_clock_update_ready_time (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_PAUSED]);
}

/**
 * sluice_clock_step:
 * @self: a #SluiceClock
 *
 * Moves a scaled or virtual clock forward to the earliest pending deadline
 * (never backwards) and fires the timers due then, as one dispatch would.
 * A scaled clock continues from there. Works on paused clocks too.
 *
 * A paced clock does not fire them here but makes its next jump due at
 * once, paused or not: the jump still waits, like every jump of virtual
 * time, until nothing else in the main context is ready, so a step never
 * overtakes work of the previous instant and the outcome stays the
 * virtual clock's.
 *
 * Returns: %TRUE if a timer was pending, %FALSE if none was or @self is a
 *   real clock
 *
 * Since: 1.0
 */
gboolean
sluice_clock_step (SluiceClock *self)
{
  g_autoptr(SluiceClock) keep = NULL;
  gint64 next;

  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  if (self->time.kind == SLUICE_CLOCK_REAL ||
      _sluice_timer_heap_get_n_pending (&self->heap) == 0)
    return FALSE;

  if (self->time.kind == SLUICE_CLOCK_PACED)
    {
      self->step_requested = TRUE;
      _sluice_clock_update_ready_time (self);
      return TRUE;
    }

  /* A callback may drop the last reference to the clock. */
  keep = g_object_ref (self);
  next = _sluice_timer_heap_next_deadline (&self->heap);
  _sluice_timebase_advance_to (&self->time, next);

  _sluice_clock_fire_due (self, sluice_clock_now (self));

  return TRUE;
}

/**
 * sluice_clock_hold:
 * @self: a #SluiceClock
 *
 * Says something waits on @self. A held virtual clock emits
 * #SluiceClock::stalled when its main context has nothing else ready and
 * no timer is pending. Pair with sluice_clock_release().
 *
 * Since: 1.0
 */
void
sluice_clock_hold (SluiceClock *self)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (self->hold_count < G_MAXUINT);

  self->hold_count++;
  self->stall_reported = FALSE;
  _sluice_clock_update_ready_time (self);
}

/**
 * sluice_clock_release:
 * @self: a #SluiceClock
 *
 * Undoes one sluice_clock_hold().
 *
 * Since: 1.0
 */
void
sluice_clock_release (SluiceClock *self)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (self->hold_count > 0);

  self->hold_count--;
  self->stall_reported = FALSE;
  _sluice_clock_update_ready_time (self);
}
