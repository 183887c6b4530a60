/* sluice-scenario-runner-submit.c: the runner's service submitter
 * ([run] mode=submit): one submitter submits the source's items as jobs,
 * the app adds jobs by hand, timers give up on jobs and close the run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-scenario-runner-private.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

static void
clear_job (gpointer job)
{
  if (job != NULL)
    g_object_unref (job);
}

void
_sluice_scenario_runner_init_service (SluiceScenarioRunner *self)
{
  self->jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) clear_job);
  self->give_up_timers = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->give_up_due = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->ended = g_byte_array_new ();
  self->hand_items = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) g_variant_unref,
                                            (GDestroyNotify) sluice_behaviour_free);
  self->source_items = g_hash_table_new_full (NULL, NULL, (GDestroyNotify) g_variant_unref, g_free);
  self->originals = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify) sluice_behaviour_free);
}

void
_sluice_scenario_runner_clear_service (SluiceScenarioRunner *self)
{
  g_clear_pointer (&self->jobs, g_ptr_array_unref);
  g_clear_pointer (&self->give_up_timers, g_hash_table_unref);
  g_clear_pointer (&self->give_up_due, g_hash_table_unref);
  g_clear_pointer (&self->ended, g_byte_array_unref);
  g_clear_pointer (&self->hand_items, g_hash_table_unref);
  g_clear_pointer (&self->source_items, g_hash_table_unref);
  g_clear_pointer (&self->originals, g_hash_table_unref);
  g_clear_error (&self->end_error);
}

void
_sluice_scenario_runner_remove_give_up_timers (SluiceScenarioRunner *self)
{
  GHashTableIter iter;
  gpointer timer;

  if (self->give_up_timers == NULL)
    return;

  g_hash_table_iter_init (&iter, self->give_up_timers);
  while (g_hash_table_iter_next (&iter, NULL, &timer))
    sluice_clock_remove_timer (self->clock, *(guint64 *) timer);
  g_hash_table_remove_all (self->give_up_timers);
}

/* The end of a service run comes when the run has ended (its next
 * completed), the submitter has ended and no submission is pending. */
static void
maybe_finish_service (SluiceScenarioRunner *self)
{
  if (self->run_ended && self->submitter_done && self->pending_submits == 0)
    _sluice_scenario_runner_finish (self, self->end_error, FALSE);
}

static void
on_service_end (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GVariant) value = NULL;

  value = sluice_run_next_finish (SLUICE_RUN (object), result, &self->end_error);
  g_warn_if_fail (value == NULL);
  self->run_ended = TRUE;
  maybe_finish_service (self);
}

static void
on_service_closed (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  /* The reference the close took. */
  g_autoptr(SluiceScenarioRunner) self G_GNUC_UNUSED = user_data;

  /* The end itself comes from the run's next. */
  sluice_run_close_finish (SLUICE_RUN (object), result, NULL);
}

/* The graceful close of a service run: admission closes, queued and
 * running jobs finish. */
void
_sluice_scenario_runner_close_service (SluiceScenarioRunner *self)
{
  if (self->closing || self->run == NULL)
    return;

  self->closing = TRUE;
  sluice_run_close_async (self->run, NULL, on_service_closed, g_object_ref (self));
}

static void
on_close_timer (gpointer user_data)
{
  SluiceScenarioRunner *self = user_data;

  self->close_timer = 0;
  _sluice_scenario_runner_close_service (self);
}

static gboolean
on_stop_after_idle (gpointer user_data)
{
  SluiceScenarioRunner *self = user_data;

  self->stop_idle = 0;
  _sluice_scenario_runner_close_service (self);
  return G_SOURCE_REMOVE;
}

/* A job ended (any state): `stop-after=K` closes after the K-th, from an
 * idle in the same instant, because the engine is still ending the job. */
static void
job_ended (SluiceScenarioRunner *self,
           gint64                index)
{
  gint64 stop_after = sluice_scenario_get_stop_after (self->scenario);
  guint8 bit = 1u << (index % 8);

  /* A bit per job rather than a hash table entry: job indexes are dense. */
  if ((guint64) index / 8 >= self->ended->len)
    {
      guint old = self->ended->len;

      g_byte_array_set_size (self->ended, MAX ((guint) (index / 8) + 1, old * 2));
      memset (self->ended->data + old, 0, self->ended->len - old);
    }
  if (self->ended->data[index / 8] & bit)
    return;

  self->ended->data[index / 8] |= bit;
  self->n_ended++;
  if (stop_after > 0 && self->n_ended == (guint) stop_after && self->stop_idle == 0)
    self->stop_idle = g_idle_add_full (G_PRIORITY_DEFAULT, on_stop_after_idle, self, NULL);
}

static void
on_give_up_timer (gpointer user_data)
{
  SluiceIndexTimer *timer = user_data;
  SluiceScenarioRunner *self = timer->self;
  gint64 index = timer->index;

  g_hash_table_remove (self->give_up_timers, &index);

  /* The timer was set at the job's admission: it has its job, answered
   * or not. */
  sluice_scenario_runner_give_up (self, index);
}

/* The behaviour of source item @index as the scenario gave it, also after
 * a hand submission shifted the job indices past it. */
static SluiceBehaviour *
copy_source_behaviour (SluiceScenarioRunner *self,
                       gint64                index)
{
  const SluiceBehaviour *behaviour = g_hash_table_lookup (self->originals, &index);

  if (behaviour == NULL)
    behaviour = sluice_fault_handler_get_behaviour (self->handler, index);
  return sluice_behaviour_copy (behaviour);
}

static void
set_job_behaviour (SluiceScenarioRunner  *self,
                   gint64                 index,
                   const SluiceBehaviour *behaviour)
{
  if (!g_hash_table_contains (self->originals, &index))
    g_hash_table_insert (self->originals, g_memdup2 (&index, sizeof index),
                         sluice_behaviour_copy (sluice_fault_handler_get_behaviour (self->handler, index)));
  sluice_fault_handler_set_item_behaviour (self->handler, index, behaviour);
}

/* A job was admitted (its pull event, before any worker can take it):
 * it gets its behaviour and its give-up timer, counted from now. */
static void
job_admitted (SluiceScenarioRunner *self,
              const SluiceEvent    *event)
{
  const SluiceBehaviour *hand = g_hash_table_lookup (self->hand_items, event->value);
  const gint64 *source_index = g_hash_table_lookup (self->source_items, event->value);
  double give_up;

  self->n_admitted = MAX (self->n_admitted, event->item + 1);
  if (self->submitting != NULL && event->value == self->submitting)
    self->admitted_at_call = TRUE;

  if (hand != NULL)
    set_job_behaviour (self, event->item, hand);
  else if (source_index != NULL && *source_index != event->item)
    {
      g_autoptr(SluiceBehaviour) behaviour = copy_source_behaviour (self, *source_index);

      set_job_behaviour (self, event->item, behaviour);
    }

  give_up = sluice_scenario_get_give_up (self->scenario, event->item);
  if (give_up >= 0)
    {
      guint64 timer = sluice_clock_add_timer (self->clock,
                                              event->time + sluice_time_from_seconds (give_up),
                                              on_give_up_timer,
                                              _sluice_scenario_runner_index_timer_new (self, event->item),
                                              g_free);

      g_hash_table_insert (self->give_up_timers, g_memdup2 (&event->item, sizeof event->item),
                           g_memdup2 (&timer, sizeof timer));
    }
}

/* What the runner follows in a service run's events. */
void
_sluice_scenario_runner_on_service_event (SluiceScenarioRunner *self,
                                          const SluiceEvent    *event)
{
  if (event->item < 0)
    return;

  switch (event->kind)
    {
    case SLUICE_EVENT_PULL:
      job_admitted (self, event);
      break;
    case SLUICE_EVENT_ITEM_OK:
      /* The successful jobs' results, in the order the jobs ended. */
      if (event->value != NULL)
        sluice_report_add_result (self->report, event->value);
      job_ended (self, event->item);
      break;
    case SLUICE_EVENT_ITEM_FAILED:
    case SLUICE_EVENT_ITEM_CANCELLED:
    case SLUICE_EVENT_ITEM_DROPPED:
      job_ended (self, event->item);
      break;
    default:
      break;
    }
}

typedef struct {
  SluiceScenarioRunner *self;       /* a reference */
  GVariant             *item;       /* a reference */
  gboolean              submitter;  /* the submitter's, or one by hand */
  gboolean              went_on;    /* the submitter took its next item already */
} Submission;

static void
submission_free (Submission *submission)
{
  g_object_unref (submission->self);
  g_variant_unref (submission->item);
  g_free (submission);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Submission, submission_free)

static void submitter_pull (SluiceScenarioRunner *self);

/* The submitter is done: the source ended (the default close comes now,
 * unless close-after-seconds closes), or it was cancelled. */
static void
submitter_end (SluiceScenarioRunner *self,
               gboolean              source_ended)
{
  self->submitter_done = TRUE;
  self->submitter_ended_at = sluice_clock_now (self->clock);

  if (source_ended && sluice_scenario_get_close_after_seconds (self->scenario) < 0)
    _sluice_scenario_runner_close_service (self);

  maybe_finish_service (self);
}

static void
keep_job (SluiceScenarioRunner *self,
          SluiceJob            *job)
{
  gint64 index = sluice_job_get_index (job);

  if ((gint64) self->jobs->len <= index)
    g_ptr_array_set_size (self->jobs, (guint) index + 1);
  g_ptr_array_index (self->jobs, index) = job;

  if (sluice_job_is_finished (job))
    job_ended (self, index);
  if (g_hash_table_remove (self->give_up_due, &index))
    sluice_job_cancel (job);
}

static void
on_submitted (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Submission) submission = user_data;
  SluiceScenarioRunner *self = submission->self;
  g_autoptr(GError) error = NULL;
  SluiceJob *job;

  job = sluice_run_submit_finish (SLUICE_RUN (object), result, &error);
  g_hash_table_remove (self->hand_items, submission->item);
  g_hash_table_remove (self->source_items, submission->item);
  self->pending_submits--;

  if (job != NULL)
    keep_job (self, job);
  else if (g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED))
    self->submit_refused++;

  if (!submission->submitter || submission->went_on)
    maybe_finish_service (self);
  else if (job == NULL && !g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED))
    submitter_end (self, FALSE);  /* withdrawn: the caller cancelled */
  else
    submitter_pull (self);
}

/* Submits @item. Gives %TRUE when the job was admitted during the call:
 * a submission with room in the queue has completed when the call
 * returns (only the answer waits for a main-loop turn, as GIO's callbacks
 * do), so the submitter may go on to its next item at once, as a stream's
 * producer does after a put with room. */
static gboolean
submit (SluiceScenarioRunner *self,
        GVariant             *item,
        gboolean              submitter)
{
  Submission *submission = g_new0 (Submission, 1);

  submission->self = g_object_ref (self);
  submission->item = g_variant_ref_sink (item);
  submission->submitter = submitter;
  self->pending_submits++;

  /* job_admitted() notes whether the call admits the job at once. The run
   * takes its own reference to the item. */
  self->submitting = submitter ? submission->item : NULL;
  self->admitted_at_call = FALSE;
  sluice_run_submit_async (self->run, submission->item, self->cancellable,
                           on_submitted, submission);
  self->submitting = NULL;

  /* The submission is alive until its answer: on_submitted() frees it. */
  submission->went_on = submitter && self->admitted_at_call;
  return submission->went_on;
}

/* The submitter's next item from the source. Gives %TRUE when it may take
 * the one after at once. */
static gboolean
submit_source_item (SluiceScenarioRunner *self,
                    GVariant             *item)
{
  gint64 index = self->n_source_items++;

  g_hash_table_insert (self->source_items, g_variant_ref (item), g_memdup2 (&index, sizeof index));
  return submit (self, item, TRUE);
}

/* Reads and submits the items the source has at hand (no interval before
 * them) at once, as the stream's producer does (sluice_source_try_next()),
 * for as long as they are admitted at once. Waiting for each read's idle
 * instead put the pulls after the workers' steps, in an order that
 * depended on the main loop's priorities: the app's paced clock and
 * sluice-run's virtual clock gave different event orders. Gives %TRUE when
 * the source has nothing ready and must be read asynchronously. */
static gboolean
submit_at_hand (SluiceScenarioRunner *self)
{
  for (;;)
    {
      g_autoptr(GVariant) item = NULL;
      g_autoptr(GError) error = NULL;

      if (g_cancellable_is_cancelled (self->cancellable))
        {
          submitter_end (self, FALSE);
          return FALSE;
        }

      if (!sluice_source_try_next (SLUICE_SOURCE (self->source), &item, &error))
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            return TRUE;
          submitter_end (self, FALSE);
          return FALSE;
        }

      if (item == NULL)
        {
          submitter_end (self, TRUE);
          return FALSE;
        }

      if (!submit_source_item (self, item))
        return FALSE;  /* on_submitted() goes on */
    }
}

static void
on_source_next (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(SluiceScenarioRunner) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) item = NULL;

  item = sluice_source_next_finish (SLUICE_SOURCE (object), result, &error);
  if (item == NULL)
    {
      submitter_end (self, error == NULL);
      return;
    }

  if (submit_source_item (self, item))
    submitter_pull (self);
}

/* The submitter takes the source's next item (the source's interval
 * spaces them) once the previous submission completed: at once for the
 * items at hand, else asynchronously. */
static void
submitter_pull (SluiceScenarioRunner *self)
{
  if (!submit_at_hand (self))
    return;

  sluice_source_next_async (SLUICE_SOURCE (self->source), self->cancellable, on_source_next,
                            g_object_ref (self));
}

void
_sluice_scenario_runner_start_service (SluiceScenarioRunner *self)
{
  double close_after = sluice_scenario_get_close_after_seconds (self->scenario);

  if (close_after >= 0)
    self->close_timer = sluice_clock_add_timeout (self->clock, sluice_time_from_seconds (close_after),
                                                  on_close_timer, self, NULL);

  /* Its next completes when the run has ended; its cancellable is the
   * caller's cancel. */
  sluice_run_next_async (self->run, self->cancellable, on_service_end, g_object_ref (self));
  submitter_pull (self);
}

/* ---- the app's hand controls ------------------------------------------- */

/**
 * sluice_scenario_runner_submit:
 * @self: a #SluiceScenarioRunner running a submit-mode scenario
 * @item: the job's item (a floating reference is sunk)
 * @behaviour: (nullable): what the handler does for this job, or %NULL for
 *   the scenario's default behaviour
 * @error: return location for an error
 *
 * Submits one more job by hand, besides the submitter's: it waits for room
 * in the queue like any submission, and its job gets the next index
 * when it is admitted (the source's later items keep their own `item.N`
 * behaviours). The run's end waits for it. A submission refused later (it
 * waited for room when the close came) counts in `submit_refused`.
 *
 * Returns: %TRUE if the submission was made; %FALSE with @error set
 *   (%SLUICE_ERROR_CLOSED, `pool is closed`) if @self is not running a
 *   service run, or the run is closing or has ended
 */
gboolean
sluice_scenario_runner_submit (SluiceScenarioRunner   *self,
                               GVariant               *item,
                               const SluiceBehaviour  *behaviour,
                               GError                **error)
{
  g_autoptr(GVariant) owned = NULL;

  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), FALSE);
  g_return_val_if_fail (item != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  owned = g_variant_ref_sink (item);

  if (!self->submit_mode || self->run == NULL || self->task == NULL)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                           /* Translators: the app's Submit when no service run is running. */
                           _("no service run is running: submitting needs a scenario with "
                             "[run] mode=submit that has started and not ended"));
      return FALSE;
    }

  if (self->closing || sluice_run_is_finished (self->run) || sluice_pool_get_stop_requested (self->pool) ||
      g_cancellable_is_cancelled (self->cancellable))
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED, "pool is closed");
      return FALSE;
    }

  g_hash_table_insert (self->hand_items, g_variant_ref (owned),
                       sluice_behaviour_copy (behaviour != NULL ? behaviour
                                              : sluice_scenario_get_default_behaviour (self->scenario)));
  submit (self, owned, FALSE);
  return TRUE;
}

/**
 * sluice_scenario_runner_give_up:
 * @self: a #SluiceScenarioRunner
 * @job_index: a job index, in submission order from 0
 *
 * Gives up on that job, as its caller: sluice_job_cancel(). A queued job
 * ends cancelled at once and never runs; a running one is stopped and ends
 * cancelled; a finished one is left as it is. A job admitted whose
 * submission has not answered yet (the answer takes a main-loop turn) is
 * given up on as soon as the answer brings it, in the same instant.
 *
 * Returns: whether there is such a job (always %FALSE in stream mode)
 */
gboolean
sluice_scenario_runner_give_up (SluiceScenarioRunner *self,
                                gint64                job_index)
{
  SluiceJob *job;

  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), FALSE);

  job = sluice_scenario_runner_get_job (self, job_index);
  if (job != NULL)
    {
      sluice_job_cancel (job);
      return TRUE;
    }

  if (job_index < 0 || job_index >= self->n_admitted)
    return FALSE;

  /* keep_job() cancels it. */
  g_hash_table_add (self->give_up_due, g_memdup2 (&job_index, sizeof job_index));
  return TRUE;
}

/**
 * sluice_scenario_runner_get_job:
 * @self: a #SluiceScenarioRunner
 * @job_index: a job index, in submission order from 0
 *
 * Returns: (transfer none) (nullable): that job of a submit-mode run, once
 *   its submission has returned; %NULL if there is none (always in stream
 *   mode)
 */
SluiceJob *
sluice_scenario_runner_get_job (SluiceScenarioRunner *self,
                                gint64                job_index)
{
  g_return_val_if_fail (SLUICE_IS_SCENARIO_RUNNER (self), NULL);

  if (job_index < 0 || job_index >= (gint64) self->jobs->len)
    return NULL;
  return g_ptr_array_index (self->jobs, job_index);
}
