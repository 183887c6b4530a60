/* sluice-run-private.h: how a pool makes and steers its run, and what the
 * parts of a run share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-attempt.h"
#include "sluice-channel-private.h"
#include "sluice-event.h"
#include "sluice-job.h"
#include "sluice-pool.h"
#include "sluice-run.h"
#include "sluice-snapshot-private.h"

G_BEGIN_DECLS

SluiceRun *_sluice_run_new            (SluicePool   *pool,
                                       SluiceSource *source);
void       _sluice_run_request_stop   (SluiceRun    *self);
void       _sluice_run_set_event_func (SluiceRun       *self,
                                       SluiceEventFunc  func,
                                       gpointer         user_data,
                                       GDestroyNotify   destroy);
void       _sluice_run_set_monitor_func (SluiceRun     *self,
                                         SluiceEventFunc func,
                                         gpointer        user_data);
const char *_sluice_run_get_state_nick (SluiceRun      *self);

/* A run is one object in four units: sluice-run.c (the object, its driver
 * and its events), sluice-run-producer.c (the source side), sluice-run-worker.c
 * (attempts and item outcomes) and sluice-run-results.c (the caller's side).
 * They share the struct and the functions below. */

typedef enum {
  RUN_IDLE,
  RUN_ACTIVE,
  RUN_FINISHED,
} SluiceRunState;

typedef enum {
  PRODUCER_IDLE,
  PRODUCER_PULLING,
  PRODUCER_PUTTING,
  PRODUCER_DONE,
} SluiceProducerState;

typedef enum {
  WORKER_IDLE,
  WORKER_GETTING,
  WORKER_RUNNING,
  WORKER_BACKOFF,
  WORKER_DONE,
} SluiceWorkerState;

typedef struct _SluicePulledItem SluicePulledItem;

struct _SluicePulledItem
{
  SluiceRun        *run;
  gint64            index;
  GVariant         *value;
  gint64            deadline;    /* the item deadline, or 0 */
  SluiceJob        *job;         /* owned: in a service run, the item's job */
  SluicePulledItem *next_spare;  /* in the run's free list */
};

typedef struct
{
  SluiceRun         *run;
  SluicePulledItem  *item;
  SluiceAttempt     *attempt;
  /* The worker's last finished attempt, for its next one: with many
   * workers, attempts end and start in bursts that the run's ring of
   * SLUICE_RUN_SPARE_ATTEMPTS cannot bridge. */
  SluiceAttempt     *spare;
  guint64            backoff_timer;  /* a retry waits for it */
  GError            *backoff_error;  /* the error that caused that retry */
  guint              index;
  SluiceWorkerState  state;
  guint              attempt_number;
  guint              taking : 1;
  guint              take_again : 1;
} SluiceWorker;

/* How many finished attempts a run keeps for reuse: enough that the
 * oldest has been let go of by its handler's task when it is needed. */
#define SLUICE_RUN_SPARE_ATTEMPTS 32

struct _SluiceRun
{
  GObject              parent_instance;

  SluicePool          *pool;
  SluiceSource        *source;
  gint                 priority;             /* of its idles and channels: its clock's */
  gboolean             source_has_try_next;  /* reads at once when it can */
  /* The source's synchronous read, called without the public wrapper's
   * interface checks (two type lookups per item): the source was checked
   * when the run was made. NULL when it has none. */
  gboolean           (*source_try_next) (SluiceSource  *source,
                                         GVariant     **item,
                                         GError       **error);
  SluiceClock         *clock;
  GMainContext        *context;
  gint64               timeout;

  SluiceChannel       *input;
  SluiceChannel       *results;
  GCancellable        *producer_cancellable;
  GCancellable        *driver_cancellable;

  /* The item the producer's put holds: still ours if the put fails, the
   * channel's once it succeeds (and maybe freed before on_put runs). */
  SluicePulledItem    *held;
  gint64               held_index;
  /* Freed items kept for the next ones: at most queue-size + workers + 1
   * are alive at once, and a malloc per item showed in the profile. */
  SluicePulledItem    *spare_items;

  /* Finished attempts kept for the next ones, oldest first: a ring of
   * SLUICE_RUN_SPARE_ATTEMPTS (see _sluice_run_retire_attempt()). */
  SluiceAttempt       *spare_attempts[SLUICE_RUN_SPARE_ATTEMPTS];
  guint                spare_first;
  guint                n_spare_attempts;

  SluiceWorker        *workers;
  guint                n_workers;
  guint                workers_alive;
  SluiceProducerState  producer_state;

  SluiceRunState       state;
  guint                live_operations;
  GPtrArray           *errors;
  SluiceRunStats       stats;
  GHashTable          *outcomes;    /* interned name → count, for snapshots */
  guint                ok_pending;  /* successes not yet in outcomes: a
                                     * counter per success, the table's
                                     * string hash only per snapshot */
  SluiceDurations     *durations;   /* of the attempts that ended, in constant memory */
  gint64               started_at;
  gint64               finished_at;

  GTask               *pending_next;
  gboolean             pending_is_batch;  /* the caller reads batches */
  guint                batch_max;         /* their limit, or 0 */
  GTask               *filling_task;      /* a batch completed but not yet handed over, */
  GPtrArray           *filling_batch;     /* which takes results until then, or NULL when full */
  GCancellable        *next_cancellable;
  gulong               next_cancel_id;
  GQueue               close_tasks;
  GQueue               completions;       /* caller tasks to complete from an idle */
  GSource             *completion_source;

  /* The event stream's receiver, or none: then no event is built. */
  SluiceEventFunc      event_func;
  gpointer             event_data;
  GDestroyNotify       event_destroy;
  /* A second receiver, the pool's D-Bus export, or none; the pool owns its
   * data (see _sluice_pool_set_monitor_func()). */
  SluiceEventFunc      monitor_func;
  gpointer             monitor_data;

  gint64               shutdown_deadline;  /* 0 until the first stop request */
  guint64              shutdown_timer;

  guint                n_submitted;        /* jobs admitted: their next index */
  guint                submits_waiting;    /* submissions waiting for room */

  guint                service : 1;        /* sluice_pool_open(): jobs, no source */
  guint                stop_requested : 1;
  guint                cancelled : 1;       /* the caller cancelled or closed the run */
  guint                fatal_stopped : 1;   /* an attempt failed with a fatal error */
  guint                halted : 1;          /* any of those, or the shutdown deadline:
                                             * nothing new starts, nothing is retried */
  guint                end_reported : 1;

  /* The step the run is in, if any, and its instant once read (see
   * _sluice_run_step_begin()). */
  guint                in_step : 1;
  guint                step_time_valid : 1;
  gint64               step_time;

  /* Event functions running now while the driver's reference keeps the
   * run, and whether that reference goes once the last of them returns
   * (see _sluice_run_emit()). */
  guint                emitting;
  guint                release_pending : 1;
};

#define SLUICE_RUN_EVENT_INIT(k) { .kind = (k), .item = -1, .worker = -1, .delay = -1, .deadline = -1, .item_timeout = -1 }

/* Steps: a stretch of the run's own code that happens at one instant, such
 * as a worker taking an item and starting its attempt (up to the handler's
 * call), or an attempt's end and its item's outcome. Its events and its
 * bookkeeping read the clock once, at the first _sluice_run_now(), not
 * once each: reading the clock was most of what an event cost. No code
 * but the run's own may run inside a step, or it would stretch the
 * instant: a step ends before anything that may call out (a handler, a
 * job's notifications, the metrics function, a task's callback), and the
 * user's event function runs outside of it (_sluice_run_emit()). Ending a
 * step that is not begun, or beginning one inside another, is harmless:
 * the clock is then read once more. */
static inline void
_sluice_run_step_begin (SluiceRun *self)
{
  self->in_step = TRUE;
}

static inline void
_sluice_run_step_end (SluiceRun *self)
{
  self->in_step = FALSE;
  self->step_time_valid = FALSE;
}

/* The time now: the step's instant inside a step. */
static inline gint64
_sluice_run_now (SluiceRun *self)
{
  if (!self->in_step)
    return sluice_clock_now (self->clock);
  if (!self->step_time_valid)
    {
      self->step_time = sluice_clock_now (self->clock);
      self->step_time_valid = TRUE;
    }
  return self->step_time;
}

/* sluice-run.c */
gboolean    _sluice_run_wants_events    (SluiceRun              *self);
void        _sluice_run_emit            (SluiceRun              *self,
                                         SluiceEvent            *event);
void        _sluice_run_emit_simple     (SluiceRun              *self,
                                         SluiceEventKind         kind);
void        _sluice_run_emit_index      (SluiceRun              *self,
                                         SluiceEventKind         kind,
                                         gint64                  index,
                                         gint                    worker,
                                         GVariant               *value);
void        _sluice_run_emit_item       (SluiceRun              *self,
                                         SluiceEventKind         kind,
                                         const SluicePulledItem *item,
                                         gint                    worker,
                                         GVariant               *value);
void        _sluice_run_emit_error      (SluiceRun              *self,
                                         SluiceEventKind         kind,
                                         gint64                  item,
                                         const GError           *error);
void        _sluice_run_record_error    (SluiceRun              *self,
                                         GError                 *error);
void        _sluice_run_count_outcome   (SluiceRun              *self,
                                         const char             *name);
void        _sluice_run_add_duration    (SluiceRun              *self,
                                         gint64                  duration);
void        _sluice_run_start           (SluiceRun              *self);
void        _sluice_run_cancel          (SluiceRun              *self);
void        _sluice_run_fatal_stop      (SluiceRun              *self);
void        _sluice_run_start_shutdown_clock (SluiceRun         *self);
gboolean    _sluice_run_is_overrun      (SluiceRun              *self);
void        _sluice_run_maybe_finish    (SluiceRun              *self);

/* sluice-run-producer.c */
void        _sluice_run_close_input     (SluiceRun              *self);
SluicePulledItem *_sluice_pulled_item_new (SluiceRun          *self,
                                           gint64              index,
                                           GVariant           *value);
void        _sluice_pulled_item_free    (SluicePulledItem       *item);
void        _sluice_run_free_spare_items (SluiceRun             *self);
void        _sluice_pulled_item_drop    (SluicePulledItem       *item);
void        _sluice_producer_pull       (SluiceRun              *self);
const char *_sluice_producer_describe   (SluiceProducerState     state);

/* sluice-run-worker.c */
void        _sluice_worker_next         (SluiceWorker           *worker);
void        _sluice_worker_cancel       (SluiceWorker           *worker,
                                         gboolean                once);
void        _sluice_run_free_spare_attempts (SluiceRun          *self);

/* sluice-run-submit.c */
SluiceRun  *_sluice_run_new_service     (SluicePool             *pool);
void        _sluice_run_start_service   (SluiceRun              *self);
void        _sluice_run_close_admission (SluiceRun              *self);
void        _sluice_run_give_up_job     (SluiceRun              *self,
                                         SluiceJob              *job);

/* sluice-run-results.c */
GTask      *_sluice_run_caller_task_new (SluiceRun              *self,
                                         GCancellable           *cancellable,
                                         GAsyncReadyCallback     callback,
                                         gpointer                user_data,
                                         gpointer                source_tag);
void        _sluice_run_complete_now    (GTask                  *task);
void        _sluice_run_complete_later  (SluiceRun              *self,
                                         GTask                  *task);
void        _sluice_run_deliver_result  (SluiceRun              *self,
                                         GVariant               *result);
void        _sluice_run_report_end      (SluiceRun              *self);

G_END_DECLS
