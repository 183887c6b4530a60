/* test-pool-submit.c: service runs (submit mode, seed 001) on the virtual
 * clock: a job per submission with its own result, bounded submission,
 * failure isolation, fatal errors, giving up on queued and running jobs,
 * the graceful close, snapshots
 *
 * Each of seed 001's "Verify" lines is a case here. The scripted handler
 * of the fixture succeeds with n² after its delay and honours a
 * cancellation at once unless told otherwise.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "pool-fixture.h"

static const char *disk_full[] = { "DiskFull", NULL };

typedef struct {
  Fixture   *f;
  GPtrArray *jobs;        /* SluiceJob*, in submission order */
  guint      refused;     /* submissions that failed with SLUICE_ERROR_CLOSED */
  guint      withdrawn;   /* submissions withdrawn by their cancellable */
  GArray    *admitted_at; /* gint64: when each submission completed */
  gboolean   ended;
  GError    *end_error;
  gint64     end_time;
} Service;

static Service *
service_open (Fixture *f)
{
  Service *s = g_new0 (Service, 1);
  g_autoptr(GError) error = NULL;

  s->f = f;
  s->jobs = g_ptr_array_new_with_free_func (g_object_unref);
  s->admitted_at = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->end_time = -1;
  f->run = sluice_pool_open (f->pool, &error);
  g_assert_no_error (error);
  g_assert_true (sluice_run_is_service (f->run));
  return s;
}

static void
service_free (Service *s)
{
  g_ptr_array_unref (s->jobs);
  g_array_unref (s->admitted_at);
  g_clear_error (&s->end_error);
  g_free (s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Service, service_free)

static void
on_submitted (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Service *s = user_data;
  g_autoptr(GError) error = NULL;
  SluiceJob *job = sluice_run_submit_finish (SLUICE_RUN (object), result, &error);
  gint64 now = sluice_clock_now (s->f->clock);

  if (job != NULL)
    {
      g_assert_cmpint (sluice_job_get_index (job), ==, s->jobs->len);
      g_ptr_array_add (s->jobs, job);
      g_array_append_val (s->admitted_at, now);
    }
  else if (g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED))
    {
      g_assert_cmpstr (error->message, ==, "pool is closed");
      s->refused++;
    }
  else
    {
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      s->withdrawn++;
    }
}

static void
submit (Service *s,
        gint64   n)
{
  sluice_run_submit_async (s->f->run, g_variant_new_int64 (n), NULL, on_submitted, s);
}

static void
on_end (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  Service *s = user_data;
  g_autoptr(GVariant) value = sluice_run_next_finish (SLUICE_RUN (object), result, &s->end_error);

  /* A service run's next yields no results: only its end. */
  g_assert_null (value);
  s->ended = TRUE;
  s->end_time = sluice_clock_now (s->f->clock);
}

static void
wait_for_end (Service *s)
{
  sluice_run_next_async (s->f->run, NULL, on_end, s);
  spin_until (s->f, &s->ended);
  g_assert_cmpuint (sluice_run_get_live_operations (s->f->run), ==, 0);
}

static void
close_now (gpointer user_data)
{
  Service *s = user_data;

  sluice_run_close_async (s->f->run, NULL, assert_closed, NULL);
}

static SluiceJob *
job_at (Service *s,
        guint    i)
{
  g_assert_cmpuint (i, <, s->jobs->len);
  return g_ptr_array_index (s->jobs, i);
}

static void
assert_job (Service        *s,
            guint           i,
            SluiceJobState  state)
{
  g_assert_cmpint (sluice_job_get_state (job_at (s, i)), ==, state);
}

static void
test_submit_workers_start_at_open (Fixture       *f,
                                   gconstpointer  data)
{
  g_autoptr(Service) s = NULL;
  g_autoptr(SluiceSnapshot) snapshot = NULL;

  make_pool (f, 4, 8, 1.0);
  s = service_open (f);

  /* Four workers, each waiting for a job. */
  snapshot = sluice_run_get_snapshot (f->run);
  g_assert_cmpuint (sluice_snapshot_get_workers (snapshot), ==, 4);
  g_assert_cmpuint (sluice_snapshot_get_busy_workers (snapshot), ==, 0);
  g_assert_cmpuint (sluice_run_get_live_operations (f->run), ==, 4);
  g_assert_false (sluice_run_is_finished (f->run));

  close_now (s);
  wait_for_end (s);
  g_assert_no_error (s->end_error);
}

static void
test_submit_failure_stays_in_its_job (Fixture       *f,
                                      gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  /* Seed 001: ten images, the one at index 3 cannot be decoded. */
  make_pool (f, 4, 100, 1.0);
  f->script->fallback.delay = S (0.01);
  script_set (f->script, 3, DO_FAIL_ALWAYS, 0.01, 0, "ValueError");
  s = service_open (f);
  for (gint64 i = 0; i < 10; i++)
    submit (s, i);
  close_now (s);
  wait_for_end (s);

  g_assert_no_error (s->end_error);
  g_assert_cmpuint (s->jobs->len, ==, 10);
  for (guint i = 0; i < 10; i++)
    {
      if (i == 3)
        continue;
      assert_job (s, i, SLUICE_JOB_SUCCEEDED);
      g_assert_cmpint (g_variant_get_int64 (sluice_job_get_result (job_at (s, i))), ==, (gint64) i * i);
    }
  assert_job (s, 3, SLUICE_JOB_FAILED);
  g_assert_true (sluice_job_get_error (job_at (s, 3)) == script_call (f->script, 3, 1)->error);
  g_assert_cmpstr (sluice_error_type_name (sluice_job_get_error (job_at (s, 3))), ==, "ValueError");
  /* Only fatal errors reach the run's group. */
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 0);
  g_assert_cmpuint (count_events (f, SLUICE_EVENT_STOP_REQUEST), ==, 0);
}

static void
on_waited (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GError **error = user_data;
  g_autoptr(GVariant) value = sluice_job_wait_finish (SLUICE_JOB (object), result, error);

  if (value != NULL)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "a result");
}

static void
test_submit_wait_gives_the_job_outcome (Fixture       *f,
                                        gconstpointer  data)
{
  g_autoptr(Service) s = NULL;
  g_autoptr(GError) failed = NULL;
  g_autoptr(GError) ok = NULL;

  make_pool (f, 2, 4, 1.0);
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.1, 0, "KeyError");
  s = service_open (f);
  submit (s, 0);
  submit (s, 1);
  close_now (s);
  wait_for_end (s);

  /* Waiting on finished jobs: a result (here turned into G_IO_ERROR_EXISTS
   * by on_waited), and a copy of the job's error. */
  sluice_job_wait_async (job_at (s, 0), NULL, on_waited, &ok);
  sluice_job_wait_async (job_at (s, 1), NULL, on_waited, &failed);
  while (ok == NULL || failed == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_error (ok, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_cmpstr (sluice_error_type_name (failed), ==, "KeyError");
  g_assert_cmpstr (failed->message, ==, "attempt 1 failed");
}

static void
submit_three (gpointer user_data)
{
  Service *s = user_data;

  for (gint64 i = 0; i < 3; i++)
    submit (s, i);
}

/* W=1, Q=1, each job 1.0 s: three jobs submitted at 0, so that job 0
 * runs, job 1 waits in the queue and job 2's submission waits for room;
 * the close comes at @close_at. */
static Service *
run_three_slow_jobs (Fixture *f,
                     double   close_at)
{
  Service *s;

  make_pool (f, 1, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  s = service_open (f);
  submit_three (s);
  sluice_clock_add_timer (f->clock, S (close_at), close_now, s, NULL);
  wait_for_end (s);
  return s;
}

static void
test_submit_waits_while_the_queue_is_full (Fixture       *f,
                                           gconstpointer  data)
{
  /* Job 2's submission waits until job 0 ends at 1.0. */
  g_autoptr(Service) s = run_three_slow_jobs (f, 3.5);

  g_assert_cmpuint (s->jobs->len, ==, 3);
  g_assert_cmpint (g_array_index (s->admitted_at, gint64, 0), ==, 0);
  g_assert_cmpint (g_array_index (s->admitted_at, gint64, 1), ==, 0);
  g_assert_cmpint (g_array_index (s->admitted_at, gint64, 2), ==, S (1.0));
  g_assert_cmpint (s->end_time, ==, S (3.5));
}

static void
test_submit_fatal_cancels_in_flight_and_queued (Fixture       *f,
                                                gconstpointer  data)
{
  g_autoptr(Service) s = NULL;
  const GError *error;

  /* Seed 001: two workers; job 0 sleeps 1 s, job 1 fails with disk full
   * at once, jobs 2–4 wait in the queue. */
  make_pool_props (f, 2, 8, 10.0, 0, NULL, "fatal", disk_full, NULL);
  script_set (f->script, 0, DO_OK, 1.0, 0, NULL);
  script_set (f->script, 1, DO_FAIL_ALWAYS, 0.0, 0, "DiskFull");
  f->script->fallback.delay = S (0.01);
  s = service_open (f);
  for (gint64 i = 0; i < 5; i++)
    submit (s, i);
  wait_for_end (s);

  g_assert_error (s->end_error, SLUICE_ERROR, SLUICE_ERROR_GROUP);
  g_assert_cmpuint (sluice_run_get_errors (f->run)->len, ==, 1);
  error = g_ptr_array_index (sluice_run_get_errors (f->run), 0);
  g_assert_cmpstr (sluice_error_type_name (error), ==, "DiskFull");
  assert_job (s, 1, SLUICE_JOB_FAILED);
  g_assert_true (sluice_job_get_error (job_at (s, 1)) == error);
  assert_job (s, 0, SLUICE_JOB_CANCELLED);
  for (guint i = 2; i < 5; i++)
    assert_job (s, i, SLUICE_JOB_CANCELLED);
  g_assert_cmpint (s->end_time, ==, 0);
  /* The queued jobs never ran. */
  g_assert_cmpuint (script_attempts (f->script, 2), ==, 0);
}

static void
give_up_on_job_1 (gpointer user_data)
{
  Service *s = user_data;

  sluice_job_cancel (job_at (s, 1));
}

static void
test_submit_abandoned_queued_job_never_runs (Fixture       *f,
                                             gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  /* Seed 001: one worker; 'abandoned' (job 1) waits behind 'first' and its
   * caller gives up at 0.01. */
  make_pool (f, 1, 8, 1.0);
  f->script->fallback.delay = S (0.05);
  s = service_open (f);
  submit_three (s);
  sluice_clock_add_timer (f->clock, S (0.01), give_up_on_job_1, s, NULL);
  close_now (s);
  wait_for_end (s);

  assert_job (s, 0, SLUICE_JOB_SUCCEEDED);
  assert_job (s, 1, SLUICE_JOB_CANCELLED);
  assert_job (s, 2, SLUICE_JOB_SUCCEEDED);
  g_assert_cmpuint (script_attempts (f->script, 1), ==, 0);
  /* The worker's time went to 'last': 0.05 after 'first'. */
  g_assert_cmpint (script_call (f->script, 2, 1)->started, ==, S (0.05));
  g_assert_cmpint (s->end_time, ==, S (0.1));
  assert_accounted (f);
}

static void
test_submit_give_up_on_a_running_job (Fixture       *f,
                                      gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  /* Job 1 fails with a retryable error; its caller gives up at 0.01 while
   * it runs: the attempt is stopped and the job ends cancelled, not
   * retried. */
  make_pool_props (f, 2, 8, 1.0, 3, "ValueError", NULL, NULL);
  script_set (f->script, 1, DO_LATE, 0.2, 0, NULL);
  s = service_open (f);
  submit_three (s);
  sluice_clock_add_timer (f->clock, S (0.01), give_up_on_job_1, s, NULL);
  close_now (s);
  wait_for_end (s);

  assert_job (s, 1, SLUICE_JOB_CANCELLED);
  g_assert_true (script_call (f->script, 1, 1)->cancel_seen);
  g_assert_cmpuint (script_attempts (f->script, 1), ==, 1);
  assert_job (s, 0, SLUICE_JOB_SUCCEEDED);
  assert_job (s, 2, SLUICE_JOB_SUCCEEDED);
}

static void
test_submit_after_close_is_refused (Fixture       *f,
                                    gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  make_pool (f, 1, 8, 1.0);
  s = service_open (f);
  submit (s, 0);
  close_now (s);
  submit (s, 1);
  wait_for_end (s);

  g_assert_cmpuint (s->jobs->len, ==, 1);
  g_assert_cmpuint (s->refused, ==, 1);
  assert_job (s, 0, SLUICE_JOB_SUCCEEDED);
}

static void
test_submit_blocked_submitter_woken_by_close (Fixture       *f,
                                              gconstpointer  data)
{
  /* The close at 0.5 refuses job 2's waiting submission; jobs 0 and 1
   * still finish (at 1.0 and 2.0). */
  g_autoptr(Service) s = run_three_slow_jobs (f, 0.5);

  g_assert_cmpuint (s->jobs->len, ==, 2);
  g_assert_cmpuint (s->refused, ==, 1);
  assert_job (s, 0, SLUICE_JOB_SUCCEEDED);
  assert_job (s, 1, SLUICE_JOB_SUCCEEDED);
  g_assert_cmpint (s->end_time, ==, S (2.0));
}

static void
test_submit_withdrawn_by_its_cancellable (Fixture       *f,
                                          gconstpointer  data)
{
  g_autoptr(Service) s = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();

  make_pool (f, 1, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  s = service_open (f);
  submit (s, 0);
  submit (s, 1);
  sluice_run_submit_async (f->run, g_variant_new_int64 (2), cancellable, on_submitted, s);
  g_cancellable_cancel (cancellable);
  sluice_clock_add_timer (f->clock, S (0.5), close_now, s, NULL);
  wait_for_end (s);

  g_assert_cmpuint (s->withdrawn, ==, 1);
  g_assert_cmpuint (s->refused, ==, 0);
  g_assert_cmpuint (s->jobs->len, ==, 2);
  g_assert_cmpuint (run_stats (f).pulled, ==, 2);
  /* The lead was sampled at its call, when 3 were pulled and none had
   * succeeded; taking it back does not unsay that. */
  g_assert_cmpuint (run_stats (f).max_lead, ==, 3);
}

/* Max lead as in stream mode (docs/submit-and-shutdown.md, docs/scenario-format.md):
 * a submission is the service run's pull, so the lead is sampled at each
 * call, with the submission that waits for room counted, like the item a
 * producer holds. W=1, Q=1, three 1-s jobs submitted at 0: at the third
 * call 3 are pulled and none succeeded, so max_lead is 3 (admitted at 1.0,
 * after job 0 succeeded, it would say 2). */
static void
test_submit_lead_counts_the_submission_waiting_for_room (Fixture       *f,
                                                         gconstpointer  data)
{
  g_autoptr(Service) s = run_three_slow_jobs (f, 3.5);

  g_assert_cmpuint (s->jobs->len, ==, 3);
  g_assert_cmpuint (run_stats (f).pulled, ==, 3);
  g_assert_cmpuint (run_stats (f).max_lead, ==, 3);
  g_assert_cmpuint (nth_event (f, SLUICE_EVENT_PULL, 2)->lead, ==, 3 - 1);
  g_assert_cmpuint (run_stats (f).lead, ==, 0);
}

static void
submit_job_3 (gpointer user_data)
{
  submit (user_data, 3);
}

/* Refused submissions stay in the lead (docs/submit-and-shutdown.md: max_lead
 * is computed as in stream mode, refused items staying in the lead): they
 * count as pulled and never succeed. W=1, Q=1, three 1-s jobs at 0, the
 * close at 0.5 refuses job 2's waiting submission, a submission at 0.6 is
 * refused at once, another after the end too. Lead at each call: 1, 2, 3,
 * 4 (nothing succeeded before 1.0), then 5 - 2 = 3: max_lead 4; the run's
 * end (2.0, jobs 0 and 1 succeeded) sees 4 - 2 = 2. */
static void
test_submit_refused_submissions_stay_in_the_lead (Fixture       *f,
                                                  gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  make_pool (f, 1, 1, 10.0);
  f->script->fallback.delay = S (1.0);
  s = service_open (f);
  submit_three (s);
  sluice_clock_add_timer (f->clock, S (0.5), close_now, s, NULL);
  sluice_clock_add_timer (f->clock, S (0.6), submit_job_3, s, NULL);
  wait_for_end (s);

  g_assert_cmpuint (s->jobs->len, ==, 2);
  g_assert_cmpuint (s->refused, ==, 2);
  g_assert_cmpuint (run_stats (f).pulled, ==, 2 + 2);
  g_assert_cmpuint (run_stats (f).max_lead, ==, 4);
  g_assert_cmpuint (nth_event (f, SLUICE_EVENT_RUN_END, 0)->lead, ==, 4 - 2);

  /* After the end (as with [run] stop-after=0): still a pull, refused,
   * in the lead. */
  submit (s, 4);
  for (guint i = 0; i < 1000 && s->refused < 3; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (s->refused, ==, 3);
  g_assert_cmpuint (run_stats (f).pulled, ==, 5);
  g_assert_cmpuint (run_stats (f).lead, ==, 5 - 2);
  g_assert_cmpuint (run_stats (f).max_lead, ==, 4);
}

static SluiceSnapshot *during;

static void
snapshot_now (gpointer user_data)
{
  Fixture *f = user_data;

  during = sluice_run_get_snapshot (f->run);
}

static void
test_submit_snapshots_during_and_after (Fixture       *f,
                                        gconstpointer  data)
{
  g_autoptr(Service) s = NULL;
  g_autoptr(SluiceSnapshot) after = NULL;

  /* Seed 001's observed pool: twelve jobs on three workers, every fourth
   * one bad; a snapshot at 0.005 and one after. */
  make_pool (f, 3, 100, 1.0);
  f->script->fallback.delay = S (0.01);
  for (gint64 i = 0; i < 12; i += 4)
    script_set (f->script, i, DO_FAIL_ALWAYS, 0.01, 0, "ValueError");
  s = service_open (f);
  for (gint64 i = 0; i < 12; i++)
    submit (s, i);
  sluice_clock_add_timer (f->clock, S (0.005), snapshot_now, f, NULL);
  close_now (s);
  wait_for_end (s);
  after = sluice_run_get_snapshot (f->run);

  g_assert_nonnull (during);
  g_assert_cmpuint (sluice_snapshot_get_queue_depth (during), ==, 9);
  g_assert_cmpuint (sluice_snapshot_get_busy_workers (during), ==, 3);
  g_assert_cmpuint (sluice_snapshot_get_queue_depth (after), ==, 0);
  g_assert_cmpuint (sluice_snapshot_get_busy_workers (after), ==, 0);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "ok"), ==, 9);
  g_assert_cmpuint (sluice_snapshot_get_outcome_count (after, "ValueError"), ==, 3);
  g_clear_pointer (&during, sluice_snapshot_unref);
}

static void
test_submit_stop_before_open_ends_at_once (Fixture       *f,
                                           gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  make_pool (f, 2, 2, 1.0);
  sluice_pool_request_stop (f->pool);
  s = service_open (f);
  g_assert_true (sluice_run_is_finished (f->run));
  submit (s, 0);
  wait_for_end (s);

  g_assert_cmpuint (s->refused, ==, 1);
  g_assert_no_error (s->end_error);
}

static void
test_submit_shutdown_deadline_bounds_the_close (Fixture       *f,
                                                gconstpointer  data)
{
  g_autoptr(Service) s = NULL;

  /* W=1, each job 1.0 s, five jobs; the close at 0.5 with a 1.0 s deadline
   * cuts the drain at 1.5: job 0 succeeded, job 1 cancelled in flight,
   * jobs 2–4 dropped from the queue and cancelled. */
  make_pool_props (f, 1, 8, 10.0, 0, NULL, "shutdown-timeout", 1.0, NULL);
  f->script->fallback.delay = S (1.0);
  s = service_open (f);
  for (gint64 i = 0; i < 5; i++)
    submit (s, i);
  sluice_clock_add_timer (f->clock, S (0.5), close_now, s, NULL);
  wait_for_end (s);

  g_assert_no_error (s->end_error);
  g_assert_cmpint (s->end_time, ==, S (1.5));
  assert_job (s, 0, SLUICE_JOB_SUCCEEDED);
  for (guint i = 1; i < 5; i++)
    assert_job (s, i, SLUICE_JOB_CANCELLED);
  g_assert_true (run_stats (f).deadline_hit);
  g_assert_cmpuint (run_stats (f).dropped_queued, ==, 3);
  g_assert_cmpuint (run_stats (f).cancelled_in_flight, ==, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/pool-submit/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("workers-start-at-open", test_submit_workers_start_at_open);
  ADD ("failure-stays-in-its-job", test_submit_failure_stays_in_its_job);
  ADD ("wait-gives-the-job-outcome", test_submit_wait_gives_the_job_outcome);
  ADD ("waits-while-the-queue-is-full", test_submit_waits_while_the_queue_is_full);
  ADD ("fatal-cancels-in-flight-and-queued", test_submit_fatal_cancels_in_flight_and_queued);
  ADD ("abandoned-queued-job-never-runs", test_submit_abandoned_queued_job_never_runs);
  ADD ("give-up-on-a-running-job", test_submit_give_up_on_a_running_job);
  ADD ("after-close-is-refused", test_submit_after_close_is_refused);
  ADD ("blocked-submitter-woken-by-close", test_submit_blocked_submitter_woken_by_close);
  ADD ("withdrawn-by-its-cancellable", test_submit_withdrawn_by_its_cancellable);
  ADD ("lead-counts-the-submission-waiting-for-room", test_submit_lead_counts_the_submission_waiting_for_room);
  ADD ("refused-submissions-stay-in-the-lead", test_submit_refused_submissions_stay_in_the_lead);
  ADD ("snapshots-during-and-after", test_submit_snapshots_during_and_after);
  ADD ("stop-before-open-ends-at-once", test_submit_stop_before_open_ends_at_once);
  ADD ("shutdown-deadline-bounds-the-close", test_submit_shutdown_deadline_bounds_the_close);

  return g_test_run ();
}
