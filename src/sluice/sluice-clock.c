/* sluice-clock.c: one timer heap under one GSource, on real, scaled or virtual time
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-clock.h"

/**
 * SECTION:sluice-clock
 * @title: SluiceClock
 * @short_description: timers on real, scaled or virtual time
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
 *
 * Within one dispatch, only timers that existed when the dispatch began are
 * fired; timers added by callbacks wait for a later dispatch even when
 * already due, so that other sources get a chance to run in between.
 *
 * A clock is not thread-safe: use it only from the thread owning its main
 * context.
 */

/* heap_index of a timer that is not in the heap */
#define NOT_IN_HEAP G_MAXUINT

typedef struct
{
  guint64          id;
  gint64           deadline;
  SluiceTimerFunc  func;
  gpointer         user_data;
  GDestroyNotify   destroy;
  guint            heap_index;
  /* Non-NULL while a running fire loop has set the timer aside. */
  GPtrArray       *stash;
} SluiceTimer;

typedef struct
{
  GSource      parent;
  /* Not a reference: the clock owns the source and clears this in dispose. */
  SluiceClock *clock;
} SluiceClockSource;

struct _SluiceClock
{
  GObject          parent_instance;

  SluiceClockKind  kind;
  GSource         *source;
  gboolean         disposed;

  GPtrArray       *heap;        /* SluiceTimer*, min-heap on (deadline, id) */
  GHashTable      *timers;      /* &id → SluiceTimer*, every pending timer */
  GSList          *stashes;     /* GPtrArray* of the running fire loops */
  guint64          next_id;
  guint            firing;      /* depth of running fire loops */

  gint64           origin;          /* monotonic time at which now() was 0 */
  gint64           anchor_real;     /* scaled: monotonic time of the anchor */
  gint64           anchor_virtual;  /* scaled: now() at the anchor */
  gint64           virtual_now;     /* virtual: now() */
  double           speed;
  gboolean         paused;

  guint            hold_count;
  gboolean         stall_reported;
};

G_DEFINE_FINAL_TYPE (SluiceClock, sluice_clock, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KIND,
  PROP_SPEED,
  PROP_PAUSED,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  STALLED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* Saturating arithmetic: deadlines may be anywhere in the gint64 range. */
static gint64
sat_add (gint64 a,
         gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

static gint64
sat_sub (gint64 a,
         gint64 b)
{
  if (b == G_MININT64)
    return a >= 0 ? G_MAXINT64 : a - b;
  return sat_add (a, -b);
}

/* Clamping double → gint64 without libm. @round_up picks ceil, else floor. */
static gint64
double_to_int64 (double   v,
                 gboolean round_up)
{
  gint64 i;

  if (v != v)
    return 0;
  if (v >= 9223372036854775807.0)  /* 2^63 */
    return G_MAXINT64;
  if (v <= -9223372036854775807.0)
    return G_MININT64;

  i = (gint64) v;  /* truncates toward zero */
  if (round_up && (double) i < v)
    i++;
  else if (!round_up && (double) i > v)
    i--;
  return i;
}

/* ---- the heap ---------------------------------------------------------- */

static inline gboolean
timer_before (const SluiceTimer *a,
              const SluiceTimer *b)
{
  if (a->deadline != b->deadline)
    return a->deadline < b->deadline;
  return a->id < b->id;
}

static inline void
heap_set (SluiceClock *self,
          guint        index,
          SluiceTimer *timer)
{
  self->heap->pdata[index] = timer;
  timer->heap_index = index;
}

static void
heap_sift_up (SluiceClock *self,
              guint        index)
{
  SluiceTimer *timer = self->heap->pdata[index];

  while (index > 0)
    {
      guint parent = (index - 1) / 2;
      SluiceTimer *p = self->heap->pdata[parent];

      if (!timer_before (timer, p))
        break;
      heap_set (self, index, p);
      index = parent;
    }
  heap_set (self, index, timer);
}

static void
heap_sift_down (SluiceClock *self,
                guint        index)
{
  SluiceTimer *timer = self->heap->pdata[index];
  guint len = self->heap->len;

  for (;;)
    {
      guint child = 2 * index + 1;
      SluiceTimer *c;

      if (child >= len)
        break;
      if (child + 1 < len &&
          timer_before (self->heap->pdata[child + 1], self->heap->pdata[child]))
        child++;
      c = self->heap->pdata[child];
      if (!timer_before (c, timer))
        break;
      heap_set (self, index, c);
      index = child;
    }
  heap_set (self, index, timer);
}

static void
heap_insert (SluiceClock *self,
             SluiceTimer *timer)
{
  g_ptr_array_add (self->heap, timer);
  heap_sift_up (self, self->heap->len - 1);
}

static void
heap_remove (SluiceClock *self,
             SluiceTimer *timer)
{
  guint index = timer->heap_index;
  guint last = self->heap->len - 1;

  g_assert (index < self->heap->len && self->heap->pdata[index] == timer);

  if (index != last)
    {
      SluiceTimer *moved = self->heap->pdata[last];

      g_ptr_array_set_size (self->heap, last);
      heap_set (self, index, moved);
      /* The moved timer may belong above or below its new slot. */
      if (index > 0 && timer_before (moved, self->heap->pdata[(index - 1) / 2]))
        heap_sift_up (self, index);
      else
        heap_sift_down (self, index);
    }
  else
    {
      g_ptr_array_set_size (self->heap, last);
    }

  timer->heap_index = NOT_IN_HEAP;
}

/* Takes @timer out of the heap or out of the stash it sits in. */
static void
timer_detach (SluiceClock *self,
              SluiceTimer *timer)
{
  if (timer->stash != NULL)
    {
      g_ptr_array_remove_fast (timer->stash, timer);
      timer->stash = NULL;
    }
  else
    {
      heap_remove (self, timer);
    }
}

/* The timer must already be out of every container: the notify may call
 * back into the clock. */
static void
timer_free (SluiceTimer *timer)
{
  if (timer->destroy != NULL)
    timer->destroy (timer->user_data);
  g_free (timer);
}

/* ---- time -------------------------------------------------------------- */

static gint64
scaled_now_at (SluiceClock *self,
               gint64       real)
{
  double elapsed;

  if (self->paused)
    return self->anchor_virtual;

  /* Floor, so that now() never runs ahead of the ready time computed
   * below. */
  elapsed = (double) (real - self->anchor_real) * self->speed;
  return sat_add (self->anchor_virtual, double_to_int64 (elapsed, FALSE));
}

static void
scaled_reanchor (SluiceClock *self)
{
  gint64 real = g_get_monotonic_time ();

  self->anchor_virtual = scaled_now_at (self, real);
  self->anchor_real = real;
}

static gint64
next_deadline (SluiceClock *self)
{
  gint64 next = G_MAXINT64;

  if (self->heap->len > 0)
    next = ((SluiceTimer *) self->heap->pdata[0])->deadline;

  /* Timers set aside by a running dispatch are still pending. */
  for (GSList *l = self->stashes; l != NULL; l = l->next)
    {
      GPtrArray *stash = l->data;

      for (guint i = 0; i < stash->len; i++)
        next = MIN (next, ((SluiceTimer *) stash->pdata[i])->deadline);
    }

  return next;
}

static gint64
compute_ready_time (SluiceClock *self)
{
  gint64 deadline;

  switch (self->kind)
    {
    case SLUICE_CLOCK_REAL:
      if (self->heap->len == 0)
        return -1;
      deadline = ((SluiceTimer *) self->heap->pdata[0])->deadline;
      return MAX (sat_add (self->origin, deadline), 0);

    case SLUICE_CLOCK_SCALED:
      {
        gint64 ready;
        gint64 distance;

        if (self->paused || self->heap->len == 0)
          return -1;
        deadline = ((SluiceTimer *) self->heap->pdata[0])->deadline;
        distance = sat_sub (deadline, self->anchor_virtual);
        if (distance <= 0)
          return 0;
        ready = sat_add (self->anchor_real,
                         double_to_int64 ((double) distance / self->speed, TRUE));
        /* Rounding in the division may leave now() a microsecond short at
         * @ready, which would make the source spin until it catches up. */
        for (guint i = 0; i < 16 && ready < G_MAXINT64 &&
                          scaled_now_at (self, ready) < deadline; i++)
          ready++;
        return MAX (ready, 0);
      }

    case SLUICE_CLOCK_VIRTUAL:
      if (self->paused)
        return -1;
      if (self->heap->len > 0)
        return 0;
      /* Ready at the lowest priority only to notice that nothing else is. */
      if (self->hold_count > 0 && !self->stall_reported)
        return 0;
      return -1;

    default:
      g_assert_not_reached ();
    }
}

static void
update_ready_time (SluiceClock *self)
{
  /* A running fire loop updates once when it ends. */
  if (self->source == NULL || self->firing > 0)
    return;
  g_source_set_ready_time (self->source, compute_ready_time (self));
}

/* ---- firing ------------------------------------------------------------ */

/* Fires, in (deadline, id) order, every timer due at @now that existed
 * when the call began. */
static void
fire_due (SluiceClock *self,
          gint64       now)
{
  guint64 last_id = self->next_id - 1;
  /* Made on first use: most dispatches set nothing aside, and one array
   * per dispatch was a visible part of an item's cost. */
  GPtrArray *stash = NULL;

  self->firing++;

  while (!self->disposed && self->heap->len > 0)
    {
      SluiceTimer *timer = self->heap->pdata[0];

      if (timer->deadline > now)
        break;

      heap_remove (self, timer);

      if (timer->id > last_id)
        {
          /* Added by a callback of this loop: it must wait for a later
           * dispatch, without hiding older due timers behind it. */
          if (stash == NULL)
            {
              stash = g_ptr_array_new ();
              self->stashes = g_slist_prepend (self->stashes, stash);
            }
          timer->stash = stash;
          g_ptr_array_add (stash, timer);
          continue;
        }

      g_hash_table_remove (self->timers, &timer->id);
      timer->func (timer->user_data);
      timer_free (timer);
    }

  if (stash != NULL)
    {
      self->stashes = g_slist_remove (self->stashes, stash);
      for (guint i = 0; i < stash->len; i++)
        {
          SluiceTimer *timer = stash->pdata[i];

          timer->stash = NULL;
          heap_insert (self, timer);
        }
      g_ptr_array_unref (stash);
    }

  self->firing--;
  update_ready_time (self);
}

static void
sluice_clock_dispatch (SluiceClock *self)
{
  switch (self->kind)
    {
    case SLUICE_CLOCK_REAL:
    case SLUICE_CLOCK_SCALED:
      fire_due (self, sluice_clock_now (self));
      break;

    case SLUICE_CLOCK_VIRTUAL:
      if (self->paused)
        break;

      if (g_hash_table_size (self->timers) == 0)
        {
          /* We run at G_PRIORITY_LOW, so getting here means nothing else
           * in the main context was ready: whoever holds us is stuck. */
          if (self->hold_count > 0 && !self->stall_reported)
            {
              self->stall_reported = TRUE;
              update_ready_time (self);
              g_signal_emit (self, signals[STALLED], 0);
            }
          break;
        }

      if (self->heap->len > 0)
        {
          SluiceTimer *top = self->heap->pdata[0];

          self->virtual_now = MAX (self->virtual_now, top->deadline);
          fire_due (self, self->virtual_now);
        }
      break;

    default:
      g_assert_not_reached ();
    }

  update_ready_time (self);
}

static gboolean
sluice_clock_source_dispatch (GSource     *source,
                              GSourceFunc  callback,
                              gpointer     user_data)
{
  SluiceClockSource *clock_source = (SluiceClockSource *) source;
  g_autoptr(SluiceClock) self = NULL;

  (void) callback;
  (void) user_data;

  if (clock_source->clock == NULL)
    return G_SOURCE_REMOVE;

  /* A callback may drop the last reference to the clock. */
  self = g_object_ref (clock_source->clock);
  sluice_clock_dispatch (self);

  return G_SOURCE_CONTINUE;
}

static GSourceFuncs sluice_clock_source_funcs = {
  .dispatch = sluice_clock_source_dispatch,
};

/* ---- GObject ----------------------------------------------------------- */

/* Frees every pending timer, calling its destroy notify. */
static void
clear_timers (SluiceClock *self)
{
  g_autoptr(GPtrArray) doomed = NULL;
  GHashTableIter iter;
  gpointer value;

  if (g_hash_table_size (self->timers) == 0)
    return;

  /* Empty every container first: notifies may call back into the clock. */
  doomed = g_ptr_array_new_full (g_hash_table_size (self->timers),
                                 (GDestroyNotify) timer_free);
  g_hash_table_iter_init (&iter, self->timers);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      SluiceTimer *timer = value;

      timer->stash = NULL;
      timer->heap_index = NOT_IN_HEAP;
      g_ptr_array_add (doomed, timer);
    }
  g_hash_table_remove_all (self->timers);
  g_ptr_array_set_size (self->heap, 0);
  for (GSList *l = self->stashes; l != NULL; l = l->next)
    g_ptr_array_set_size (l->data, 0);
}

static void
sluice_clock_constructed (GObject *object)
{
  SluiceClock *self = SLUICE_CLOCK (object);
  g_autoptr(GMainContext) context = g_main_context_ref_thread_default ();

  G_OBJECT_CLASS (sluice_clock_parent_class)->constructed (object);

  /* Virtual time must only move when nothing else can run. */
  if (self->kind == SLUICE_CLOCK_VIRTUAL)
    g_source_set_priority (self->source, G_PRIORITY_LOW);
  else
    g_source_set_priority (self->source, G_PRIORITY_DEFAULT);

  g_source_attach (self->source, context);
  update_ready_time (self);
}

static void
sluice_clock_dispose (GObject *object)
{
  SluiceClock *self = SLUICE_CLOCK (object);

  self->disposed = TRUE;

  if (self->source != NULL)
    {
      ((SluiceClockSource *) self->source)->clock = NULL;
      g_source_destroy (self->source);
      g_clear_pointer (&self->source, g_source_unref);
    }

  clear_timers (self);

  G_OBJECT_CLASS (sluice_clock_parent_class)->dispose (object);
}

static void
sluice_clock_finalize (GObject *object)
{
  SluiceClock *self = SLUICE_CLOCK (object);

  /* Timers added by destroy notifies during dispose. */
  clear_timers (self);

  g_clear_pointer (&self->heap, g_ptr_array_unref);
  g_clear_pointer (&self->timers, g_hash_table_unref);

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
      g_value_set_uint (value, self->kind);
      break;

    case PROP_SPEED:
      g_value_set_double (value, self->speed);
      break;

    case PROP_PAUSED:
      g_value_set_boolean (value, self->paused);
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
      self->kind = g_value_get_uint (value);
      break;

    case PROP_SPEED:
      sluice_clock_set_speed (self, g_value_get_double (value));
      break;

    case PROP_PAUSED:
      sluice_clock_set_paused (self, g_value_get_boolean (value));
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
   * The #SluiceClockKind of the clock, as a #guint.
   */
  properties [PROP_KIND] =
    g_param_spec_uint ("kind", NULL, NULL,
                       SLUICE_CLOCK_REAL, SLUICE_CLOCK_VIRTUAL, SLUICE_CLOCK_REAL,
                       (G_PARAM_READWRITE |
                        G_PARAM_CONSTRUCT_ONLY |
                        G_PARAM_STATIC_STRINGS));

  /**
   * SluiceClock:speed:
   *
   * How many clock microseconds pass per real microsecond. Only
   * %SLUICE_CLOCK_SCALED clocks use it.
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
   */
  properties [PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE |
                           G_PARAM_EXPLICIT_NOTIFY |
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
  self->kind = SLUICE_CLOCK_REAL;
  self->heap = g_ptr_array_new ();
  self->timers = g_hash_table_new (g_int64_hash, g_int64_equal);
  self->next_id = 1;
  self->speed = 1.0;
  self->origin = g_get_monotonic_time ();
  self->anchor_real = self->origin;

  self->source = g_source_new (&sluice_clock_source_funcs, sizeof (SluiceClockSource));
  ((SluiceClockSource *) self->source)->clock = self;
  g_source_set_static_name (self->source, "SluiceClock");
  g_source_set_ready_time (self->source, -1);
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
 */
SluiceClock *
sluice_clock_new (SluiceClockKind kind)
{
  g_return_val_if_fail ((guint) kind <= SLUICE_CLOCK_VIRTUAL, NULL);

  return g_object_new (SLUICE_TYPE_CLOCK,
                       "kind", (guint) kind,
                       NULL);
}

/**
 * sluice_clock_get_kind:
 * @self: a #SluiceClock
 *
 * Gets how @self moves.
 *
 * Returns: the #SluiceClockKind given at construction
 */
SluiceClockKind
sluice_clock_get_kind (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), SLUICE_CLOCK_REAL);

  return self->kind;
}

/**
 * sluice_clock_now:
 * @self: a #SluiceClock
 *
 * Gets the current time of @self, in microseconds since it was made (for
 * real clocks), or as moved by speed, pauses, steps and jumps.
 *
 * Returns: the current time in microseconds
 */
gint64
sluice_clock_now (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  switch (self->kind)
    {
    case SLUICE_CLOCK_REAL:
      return g_get_monotonic_time () - self->origin;

    case SLUICE_CLOCK_SCALED:
      return scaled_now_at (self, g_get_monotonic_time ());

    case SLUICE_CLOCK_VIRTUAL:
      return self->virtual_now;

    default:
      g_assert_not_reached ();
    }
}

/**
 * sluice_clock_add_timer:
 * @self: a #SluiceClock
 * @deadline: when to call @func, in the time of @self
 * @func: the function to call
 * @user_data: data for @func
 * @destroy: (nullable): called on @user_data once the timer has fired or
 *   was removed, or when @self is disposed
 *
 * Schedules @func to be called once when sluice_clock_now() reaches
 * @deadline. A deadline in the past is due at once, at the next dispatch.
 * Timers due at the same time fire in the order they were added.
 *
 * Returns: the id of the timer, never 0
 */
guint64
sluice_clock_add_timer (SluiceClock     *self,
                        gint64           deadline,
                        SluiceTimerFunc  func,
                        gpointer         user_data,
                        GDestroyNotify   destroy)
{
  SluiceTimer *timer;

  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);
  g_return_val_if_fail (func != NULL, 0);

  timer = g_new0 (SluiceTimer, 1);
  timer->id = self->next_id++;
  timer->deadline = deadline;
  timer->func = func;
  timer->user_data = user_data;
  timer->destroy = destroy;
  timer->heap_index = NOT_IN_HEAP;

  g_hash_table_insert (self->timers, &timer->id, timer);
  heap_insert (self, timer);

  self->stall_reported = FALSE;
  update_ready_time (self);

  return timer->id;
}

/**
 * sluice_clock_add_timeout:
 * @self: a #SluiceClock
 * @delay: microseconds from now
 * @func: the function to call
 * @user_data: data for @func
 * @destroy: (nullable): called on @user_data once the timer is done
 *
 * Like sluice_clock_add_timer() with a deadline of sluice_clock_now() plus
 * @delay.
 *
 * Returns: the id of the timer, never 0
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
                                 sat_add (sluice_clock_now (self), delay),
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
 */
gboolean
sluice_clock_remove_timer (SluiceClock *self,
                           guint64      timer_id)
{
  SluiceTimer *timer;

  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  timer = g_hash_table_lookup (self->timers, &timer_id);
  if (timer == NULL)
    return FALSE;

  g_hash_table_remove (self->timers, &timer_id);
  timer_detach (self, timer);
  update_ready_time (self);
  timer_free (timer);

  return TRUE;
}

/**
 * sluice_clock_get_n_pending:
 * @self: a #SluiceClock
 *
 * Counts the timers that have neither fired nor been removed.
 *
 * Returns: the number of pending timers
 */
guint
sluice_clock_get_n_pending (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 0);

  return g_hash_table_size (self->timers);
}

/**
 * sluice_clock_get_next_deadline:
 * @self: a #SluiceClock
 *
 * Gets the earliest deadline of the pending timers.
 *
 * Returns: the earliest deadline, or %G_MAXINT64 if no timer is pending
 */
gint64
sluice_clock_get_next_deadline (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), G_MAXINT64);

  return next_deadline (self);
}

/**
 * sluice_clock_get_speed:
 * @self: a #SluiceClock
 *
 * Gets the speed factor of @self.
 *
 * Returns: the #SluiceClock:speed
 */
double
sluice_clock_get_speed (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), 1.0);

  return self->speed;
}

/**
 * sluice_clock_set_speed:
 * @self: a #SluiceClock
 * @speed: clock microseconds per real microsecond, finite and > 0
 *
 * Changes the speed of a scaled clock from now on; sluice_clock_now() does
 * not jump. Other kinds store the value but ignore it.
 */
void
sluice_clock_set_speed (SluiceClock *self,
                        double       speed)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  /* Also rejects NaN and infinities. */
  g_return_if_fail (speed > 0.0 && speed <= G_MAXDOUBLE);

  if (self->speed == speed)
    return;

  if (self->kind == SLUICE_CLOCK_SCALED)
    scaled_reanchor (self);
  self->speed = speed;

  update_ready_time (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_SPEED]);
}

/**
 * sluice_clock_get_paused:
 * @self: a #SluiceClock
 *
 * Gets whether @self is paused.
 *
 * Returns: %TRUE if paused
 */
gboolean
sluice_clock_get_paused (SluiceClock *self)
{
  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  return self->paused;
}

/**
 * sluice_clock_set_paused:
 * @self: a scaled or virtual #SluiceClock
 * @paused: whether to stop the clock
 *
 * Stops or restarts a scaled clock, which keeps its time across the
 * pause, or stops a virtual clock from jumping to its next timer. Timers
 * still fire through sluice_clock_step(). Real clocks cannot be paused.
 */
void
sluice_clock_set_paused (SluiceClock *self,
                         gboolean     paused)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (self->kind != SLUICE_CLOCK_REAL || !paused);

  paused = !!paused;
  if (self->paused == paused)
    return;

  if (self->kind == SLUICE_CLOCK_SCALED)
    scaled_reanchor (self);
  self->paused = paused;

  update_ready_time (self);
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
 * Returns: %TRUE if a timer was pending, %FALSE if none was or @self is a
 *   real clock
 */
gboolean
sluice_clock_step (SluiceClock *self)
{
  g_autoptr(SluiceClock) keep = NULL;
  gint64 next;

  g_return_val_if_fail (SLUICE_IS_CLOCK (self), FALSE);

  if (self->kind == SLUICE_CLOCK_REAL ||
      g_hash_table_size (self->timers) == 0)
    return FALSE;

  /* A callback may drop the last reference to the clock. */
  keep = g_object_ref (self);
  next = next_deadline (self);

  if (self->kind == SLUICE_CLOCK_VIRTUAL)
    {
      self->virtual_now = MAX (self->virtual_now, next);
    }
  else
    {
      scaled_reanchor (self);
      self->anchor_virtual = MAX (self->anchor_virtual, next);
    }

  fire_due (self, sluice_clock_now (self));

  return TRUE;
}

/**
 * sluice_clock_hold:
 * @self: a #SluiceClock
 *
 * Says something waits on @self. A held virtual clock emits
 * #SluiceClock::stalled when its main context has nothing else ready and
 * no timer is pending. Pair with sluice_clock_release().
 */
void
sluice_clock_hold (SluiceClock *self)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (self->hold_count < G_MAXUINT);

  self->hold_count++;
  self->stall_reported = FALSE;
  update_ready_time (self);
}

/**
 * sluice_clock_release:
 * @self: a #SluiceClock
 *
 * Undoes one sluice_clock_hold().
 */
void
sluice_clock_release (SluiceClock *self)
{
  g_return_if_fail (SLUICE_IS_CLOCK (self));
  g_return_if_fail (self->hold_count > 0);

  self->hold_count--;
  self->stall_reported = FALSE;
  update_ready_time (self);
}
