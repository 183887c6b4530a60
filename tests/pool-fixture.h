/* pool-fixture.h: a scripted handler, a scripted source and a run driven
 * to its end on the virtual clock, shared by the pool's tests
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

/* Seconds to clock µs, rounded like the pool rounds its item timeout. */
#define S(seconds) sluice_time_from_seconds (seconds)

/* The scripted handler {{{ */

typedef enum {
  DO_OK,          /* succeed after delay, honour cancellation */
  DO_FAIL,        /* first `fails` attempts fail with `error_type`, then ok */
  DO_FAIL_ALWAYS,
  DO_HANG,        /* never finish until cancelled */
  DO_LATE,        /* ignore cancellation, return a value after delay */
  DO_CANCEL_SELF, /* end cancelled by itself after delay */
  DO_STUBBORN,    /* ignore round 1, honour round 2; return after delay */
} Doing;

/* For DO_HANG, DO_LATE, DO_CANCEL_SELF and DO_STUBBORN, `fails` > 0 limits
 * the behaviour to the first `fails` attempts; later ones succeed after
 * `then_delay` (the same `delay` unless script_then() says otherwise). */
typedef struct {
  Doing       doing;
  gint64      delay;
  guint       fails;
  const char *error_type;
  gint64      then_delay;
} Behaviour;

/* What one handler call did, kept after the call is gone. */
typedef struct {
  gint64        item;
  guint         number;
  gint64        started;
  gint64        ended;        /* -1 while it runs */
  guint         rounds_seen;  /* the last cancel-requested round it saw */
  gboolean      cancel_seen;  /* its cancellable was cancelled */
  gboolean      returned_ok;
  const GError *error;        /* the very error it returned; identity only */
} CallRecord;

typedef struct {
  SluiceClock *clock;
  Behaviour    fallback;
  GHashTable  *by_item;     /* item index → Behaviour* */
  GHashTable  *attempts;    /* item index → calls */
  GHashTable  *running;     /* item index → calls running now */
  GArray      *calls;       /* CallRecord, in start order */
  GHashTable  *live;        /* item index → the call running now */
  guint        ctx_failures;
  guint        overlaps;    /* an attempt started while another of its item ran */
  guint        max_concurrent;
  guint        concurrent;
  guint        ok_returns;
} Script;

void        script_set      (Script     *script,
                             gint64      item,
                             Doing       doing,
                             double      delay,
                             guint       fails,
                             const char *error_type);
void        script_then     (Script     *script,
                             gint64      item,
                             double      then_delay);
void        script_finish_now (Script   *script,
                               gint64    item);
guint       script_attempts (Script     *script,
                             gint64      item);
CallRecord *script_call     (Script     *script,
                             gint64      item,
                             guint       number);

/* }}} */
/* The scripted source {{{ */

#define TEST_TYPE_SOURCE (test_source_get_type ())
G_DECLARE_FINAL_TYPE (TestSource, test_source, TEST, SOURCE, GObject)

/* Yields the int64 items 0 … n_items − 1 (forever if n_items < 0), then ends. */
struct _TestSource
{
  GObject       parent_instance;

  gint64        n_items;
  gint64        hang_at;        /* this read waits until cancelled; -1: none */
  gint64        fail_at;        /* this read fails with SourceError */
  gint64        cancel_self_at; /* this read ends cancelled by itself */
  gint64        slow_at;        /* this read ignores cancellation and yields after slow_delay */
  gint64        slow_delay;
  SluiceClock  *clock;          /* for slow_at */
  Script       *script;         /* to measure the lead from outside the pool */

  gint64        position;       /* items yielded */
  guint         reads;
  guint         pending;        /* reads started and not finished */
  guint         cancelled_reads;
  guint         max_lead;
  const GError *last_error;     /* identity of the error it returned */
};

TestSource *test_source_new (gint64 n_items);

/* }}} */
/* A run, driven to its end {{{ */

typedef struct {
  SluiceEventKind kind;
  gint64          time;
  gint64          item;
  guint           attempt;
  gint            worker;
  guint           round;
  SluiceOutcome   outcome;
  gboolean        retried;
  gint64          delay;          /* backoff µs, or -1 */
  const char     *reason;         /* why a retry was skipped (interned), or NULL */
  gint64          tokens;         /* retry budget in thousandths, or -1 */
  guint           queued;
  guint           in_flight;
  guint           lead;
} EventRecord;

typedef struct {
  SluiceClock  *clock;
  Script       *script;
  SluicePool   *pool;
  SluiceSource *source;
  SluiceRun    *run;

  GPtrArray    *results;        /* GVariant, in yield order */
  GArray       *result_times;   /* gint64 clock µs */
  gboolean      stalled;

  /* The final next: */
  gboolean      ended;
  GError       *end_error;
  gint64        end_time;
  guint         end_live;       /* live operations it saw */
  gboolean      end_finished;   /* whether the run had finished then */

  /* What the caller does after K results (-1: never): */
  gint          stop_after;
  gint          cancel_after;
  gint          pause_after;    /* stop asking for results */
  gint          close_after;
  GCancellable *cancel;         /* given to every next */
  gboolean      paused;

  /* Closes: */
  guint         n_closes;
  guint         n_closed;
  gboolean      closed;         /* a close completed */
  gint64        close_time;
  guint         close_live;
  gboolean      close_finished;
  gboolean      close_with_cancel; /* closes pass @cancel, not NULL */
  GError       *close_error;    /* what the last close reported */

  /* Metrics: */
  guint         metrics[3];     /* ok, retry, failure */
  GPtrArray    *metric_details; /* "event detail" */
  GArray       *metric_times;   /* gint64 clock µs of each detail */
  gboolean      broken_metrics;
  const char   *stop_on_metric; /* request a stop from this event's callback */
  gboolean      drop_pool_on_metric;
  const char   *close_on_metric; /* close the run from this event's callback */
  gboolean      drop_run_on_metric;

  GArray       *events;         /* EventRecord */
  gint          stop_on_event;  /* request a stop from the first event of this kind, -1: never */
  gint          close_on_event; /* close the run from it */
} Fixture;

typedef enum {
  ACT_STOP,
  ACT_CANCEL,      /* cancel the cancellable given to every next */
  ACT_RUN_CANCEL,  /* sluice_run_cancel() */
  ACT_CLOSE,
} Action;

void          fixture_setup     (Fixture       *f,
                                 gconstpointer  data);
void          fixture_setup_paced (Fixture     *f,
                                 gconstpointer  data);
void          fixture_teardown  (Fixture       *f,
                                 gconstpointer  data);
SluicePool   *make_pool_full    (Fixture       *f,
                                 gint           workers,
                                 gint           queue_size,
                                 double         item_timeout,
                                 gint           max_retries,
                                 const char    *retryable,
                                 gboolean       keep_going);
SluicePool   *make_pool_props   (Fixture       *f,
                                 gint           workers,
                                 gint           queue_size,
                                 double         item_timeout,
                                 gint           max_retries,
                                 const char    *retryable,
                                 const char    *first_property,
                                 ...) G_GNUC_NULL_TERMINATED;
SluicePool   *try_make_pool     (Fixture       *f,
                                 GError       **error,
                                 const char    *first_property,
                                 ...) G_GNUC_NULL_TERMINATED;
SluicePool   *make_pool         (Fixture       *f,
                                 gint           workers,
                                 gint           queue_size,
                                 double         item_timeout);
void          start_run         (Fixture       *f,
                                 SluiceSource  *source);
void          drive             (Fixture       *f,
                                 SluiceSource  *source);
void          spin_until        (Fixture       *f,
                                 gboolean      *flag);
void          ask_next          (Fixture       *f);
void          close_run         (Fixture       *f);
void          assert_closed     (GObject       *run,
                                 GAsyncResult  *result,
                                 gpointer       user_data);
void          at                (Fixture       *f,
                                 double         seconds,
                                 Action         action);
SluiceSource *range             (gint64         n);
gint64        result_at         (Fixture       *f,
                                 guint          i);
gint64        result_time       (Fixture       *f,
                                 guint          i);
void          assert_group      (Fixture       *f,
                                 guint          n_errors);
const GError *recorded_error    (Fixture       *f,
                                 guint          i);
char         *recorded_repr     (Fixture       *f,
                                 guint          i);
guint         count_events      (Fixture       *f,
                                 SluiceEventKind kind);
EventRecord  *nth_event         (Fixture       *f,
                                 SluiceEventKind kind,
                                 guint          n);
SluiceOutcome item_outcome      (Fixture       *f,
                                 gint64         item);
SluiceRunStats run_stats        (Fixture       *f);
void          assert_accounted  (Fixture       *f);

/* }}} */

G_END_DECLS
