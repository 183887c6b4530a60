/* sluice-run-controller.c: one run of the playground, from start to exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-render-export.h"
#include "sluice-run-controller-private.h"

/**
 * SluiceRunController:
 *
 * Runs a scenario through #SluiceScenarioRunner on the default main
 * context, on a scaled clock (or a virtual one when the scenario asks for
 * it) that it speeds up, pauses and steps. The run's events go into a
 * #SluiceRecorder; a tick callback on the window reads the new ones once
 * per frame and updates the counters, the views and the shared
 * #SluiceViewport, so the pool never waits on drawing.
 *
 * It owns the run (runner, clock, recorder, timeline, results) and fills
 * views it does not own: the window that created it keeps them alive and
 * calls sluice_run_controller_reset() before letting them go. What the
 * window should say about the run comes as #SluiceRunController::status.
 *
 * This file holds the object and what starts, steers and resets a run;
 * sluice-run-controller-views.c what each frame shows, and
 * sluice-run-controller-status.c what the banner says (see
 * sluice-run-controller-private.h).
 */

#define RECORDER_CAPACITY 500000

G_DEFINE_FINAL_TYPE (SluiceRunController, sluice_run_controller, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_REPORT,
  PROP_FINISHED_FOLD,
  PROP_REPORT_NOTE,
  PROP_NARRATOR,
  PROP_MOMENT,
  N_PROPS
};

enum {
  STATUS,
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/**
 * _sluice_run_controller_emit_status:
 * @self: a #SluiceRunController
 * @kind: what kind of line
 * @text: the line for the banner
 *
 * Emits #SluiceRunController::status.
 */
void
_sluice_run_controller_emit_status (SluiceRunController *self,
                                    SluiceRunStatus      kind,
                                    const char          *text)
{
  g_signal_emit (self, signals[STATUS], 0, (guint) kind, text);
}

/* ---- the end of a run -------------------------------------------------- */

/* The fold the scrubber moves through: the run's, once it has finished. */
static void
update_finished_fold (SluiceRunController *self)
{
  SluiceFold *fold = self->running ? NULL : self->fold;

  if (g_set_object (&self->finished_fold, fold))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FINISHED_FOLD]);
}

static void
set_running (SluiceRunController *self,
             gboolean             running)
{
  if (self->running == running)
    return;

  self->running = running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  update_finished_fold (self);
}

static void
set_report (SluiceRunController *self,
            SluiceReport        *report)
{
  if (g_set_object (&self->report, report))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
}

static void
set_report_note (SluiceRunController *self,
                 const char          *note)
{
  if (g_strcmp0 (self->report_note, note) == 0)
    return;
  g_free (self->report_note);
  self->report_note = g_strdup (note);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT_NOTE]);
}

static void
set_narrator (SluiceRunController *self,
              SluiceNarrator      *narrator)
{
  if (g_set_object (&self->narrator, narrator))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NARRATOR]);
}

/**
 * _sluice_run_controller_set_moment:
 * @self: a #SluiceRunController
 * @moment: the clock time the views show, or -1 without a run
 *
 * Sets #SluiceRunController:moment.
 */
void
_sluice_run_controller_set_moment (SluiceRunController *self,
                                   gint64               moment)
{
  if (self->moment == moment)
    return;
  self->moment = moment;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MOMENT]);
}

static void
on_run_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceRunController) self = user_data;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = sluice_scenario_runner_run_finish (SLUICE_SCENARIO_RUNNER (object), result, &error);

  /* A run the controller let go of (reset, or the window closed). */
  if (self->runner != SLUICE_SCENARIO_RUNNER (object))
    return;

  _sluice_run_controller_remove_tick (self);
  set_running (self, FALSE);
  _sluice_run_controller_update_views (self);
  set_report (self, report);
  _sluice_run_controller_show_end (self, report, error);
  g_signal_emit (self, signals[FINISHED], 0);
}

/* ---- starting and resetting -------------------------------------------- */

/**
 * sluice_run_controller_reset:
 * @self: a #SluiceRunController
 *
 * Cancels the run if one is going on, lets go of it and clears the views.
 */
void
sluice_run_controller_reset (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  _sluice_run_controller_remove_tick (self);
  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);

  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);
  set_report (self, NULL);

  self->n_seen = 0;
  g_clear_object (&self->fold);
  self->can_skip = FALSE;
  self->can_shed = FALSE;
  self->start_time = 0;
  memset (&self->last, 0, sizeof self->last);
  self->has_run = FALSE;
  self->submit_mode = FALSE;
  self->shutdown_timeout = 0;
  self->shutdown_from = -1;
  self->deadline_fired_at = -1;
  self->fatal_at = -1;
  g_clear_pointer (&self->fatal_type, g_free);
  g_clear_pointer (&self->countdown, g_free);
  self->busy = 0;
  self->queue_depth = 0;
  self->has_snapshot = FALSE;

  if (self->chart_view != NULL)
    {
      sluice_chart_view_set_model (self->chart_view, NULL);
      sluice_timeline_view_set_model (self->timeline_view, NULL, 0);
      sluice_timeline_view_set_handler (self->timeline_view, NULL);
      sluice_event_log_clear (self->event_log);
      sluice_error_group_view_clear (self->error_group_view);
      sluice_jobs_view_clear (self->jobs_view);
      _sluice_run_controller_update_counters (self);
    }
  sluice_result_list_clear (self->results);
  sluice_viewport_set_bounds (self->viewport, 0, SLUICE_RUN_CONTROLLER_MIN_SPAN_US);
  sluice_viewport_fit (self->viewport);
  set_running (self, FALSE);
}

/* A simulated scenario plays on a paced clock: every timer fires at its
 * exact instant, so slow frames delay the picture, never the outcome, and
 * the run's report is the virtual clock's. Only block and thread spend
 * real time, on the scaled clock. An instant run (a screenshot without a
 * speed) jumps through time on the virtual clock. */
static SluiceClockKind
choose_clock (SluiceRunController *self,
              SluiceScenario      *scenario)
{
  if (sluice_scenario_needs_real_time (scenario))
    return SLUICE_CLOCK_SCALED;
  if (self->instant)
    return SLUICE_CLOCK_VIRTUAL;
  return SLUICE_CLOCK_PACED;
}

/* The models and views of a run of @scenario whose events @recorder holds
 * (or will hold): the same for a live run and a recorded one. */
static void
create_models (SluiceRunController *self,
               SluiceScenario      *scenario,
               SluiceRecorder      *recorder)
{
  guint workers = (guint) sluice_scenario_get_workers (scenario);

  self->recorder = g_object_ref (recorder);
  self->fold = sluice_fold_new (self->recorder);
  sluice_event_log_set_recorder (self->event_log, self->recorder);
  self->timeline = sluice_timeline_new (workers);
  g_free (self->scenario_text);
  self->scenario_text = sluice_scenario_to_data (scenario, NULL);

  self->workers = workers;
  self->submit_mode = sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT;
  self->shutdown_timeout = sluice_time_from_seconds (sluice_scenario_get_shutdown_timeout (scenario));
  self->can_shed = sluice_scenario_get_item_deadline (scenario) > 0;
  self->can_skip = self->can_shed || sluice_scenario_get_retry_budget (scenario) > 0;
  {
    g_autoptr(SluiceNarrator) narrator = sluice_narrator_new (self->recorder, self->timeline);

    sluice_narrator_set_shutdown_timeout (narrator, self->shutdown_timeout);
    set_narrator (self, narrator);
  }
  sluice_chart_view_set_model (self->chart_view, self->timeline);
  sluice_timeline_view_set_model (self->timeline_view, self->timeline, workers);
  self->has_run = TRUE;
}

static void
create_run (SluiceRunController *self,
            SluiceScenario      *scenario)
{
  SluiceClockKind kind = choose_clock (self, scenario);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (RECORDER_CAPACITY);

  /* Below GDK_PRIORITY_REDRAW: a busy pool shares the main loop with the
   * window, and its frames must get through while the pool runs. */
  self->clock = sluice_clock_new_with_priority (kind, G_PRIORITY_DEFAULT_IDLE);
  sluice_clock_set_speed (self->clock, self->speed);
  sluice_clock_set_paused (self->clock, self->paused);

  create_models (self, scenario, recorder);
  self->runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_clock (self->runner, self->clock);
  sluice_scenario_runner_set_recorder (self->runner, self->recorder);
}

static void
on_replayed (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceRunController) self = user_data;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = sluice_recording_replay_finish (SLUICE_RECORDING (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->replay);
  set_report (self, report);
  set_report_note (self, error ? error->message : NULL);
  if (report != NULL)
    sluice_error_group_view_set_outcome (self->error_group_view, sluice_report_get_outcome (report));
}

/**
 * sluice_run_controller_show_recording:
 * @self: a #SluiceRunController
 * @recording: a recorded run
 *
 * Clears the last run and shows @recording's as if it had just ended here,
 * without an engine: the scrubber, the explanation and the exports work
 * on it; the report needs the engine and stays empty.
 *
 * Returns: whether it is shown (not while a run goes on)
 */
gboolean
sluice_run_controller_show_recording (SluiceRunController *self,
                                      SluiceRecording     *recording)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_RECORDING (recording), FALSE);

  if (self->running)
    return FALSE;

  sluice_run_controller_reset (self);
  create_models (self, sluice_recording_get_scenario (recording), sluice_recording_get_recorder (recording));
  g_free (self->scenario_text);
  self->scenario_text = g_strdup (sluice_recording_get_scenario_text (recording));
  update_finished_fold (self);
  _sluice_run_controller_update_views (self);
  _sluice_run_controller_show_recorded_end (self);
  g_signal_emit (self, signals[FINISHED], 0);

  /* The report, from the scenario run again on the virtual clock. */
  set_report_note (self, _("The report of a recorded run comes from running its scenario again on the virtual "
                           "clock…"));
  self->replay = g_cancellable_new ();
  sluice_recording_replay_async (recording, self->replay, on_replayed, g_object_ref (self));
  return TRUE;
}

/**
 * sluice_run_controller_save_recording:
 * @self: a #SluiceRunController
 * @path: the `.sluicerun` file to write
 * @error: return location for an error
 *
 * Saves the last run (its scenario as it ran and every event) as a
 * recording, which the app and sluice_recording_new_from_file() open.
 *
 * Returns: whether it was written
 */
gboolean
sluice_run_controller_save_recording (SluiceRunController  *self,
                                      const char           *path,
                                      GError              **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->recorder == NULL || self->scenario_text == NULL || self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no finished run to save."));
      return FALSE;
    }
  return sluice_recording_save (self->scenario_text, self->recorder, path, error);
}

/**
 * sluice_run_controller_start:
 * @self: a #SluiceRunController
 * @scenario: what to run
 *
 * Clears the last run and starts @scenario; #SluiceRunController::finished
 * tells when it ended.
 *
 * Returns: whether a run started (not when one is going on)
 */
gboolean
sluice_run_controller_start (SluiceRunController *self,
                             SluiceScenario      *scenario)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_SCENARIO (scenario), FALSE);

  if (self->running || self->frame_widget == NULL)
    return FALSE;

  sluice_run_controller_reset (self);
  create_run (self, scenario);
  sluice_viewport_set_playhead (self->viewport, -1);
  set_running (self, TRUE);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
                                      sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL
                                        ? _("Running on the virtual clock…")
                                        : _("Running… Space pauses, → steps to the next timer, + and − change the speed."));

  _sluice_run_controller_add_tick (self);
  sluice_scenario_runner_run_async (self->runner, NULL, on_run_done, g_object_ref (self));
  /* The handler exists once the run started: it tells each item's behaviour. */
  sluice_timeline_view_set_handler (self->timeline_view, sluice_scenario_runner_get_handler (self->runner));
  return TRUE;
}

/**
 * sluice_run_controller_request_stop:
 * @self: a #SluiceRunController
 *
 * Asks the pool to pull nothing more and drain what it has.
 */
void
sluice_run_controller_request_stop (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (!self->running)
    return;

  sluice_scenario_runner_request_stop (self->runner);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
                                      self->submit_mode
                                        ? _("Closing: the service admits no more jobs and finishes those it has…")
                                        : _("Stop requested: the pool pulls nothing more and drains what it has…"));
}

/**
 * sluice_run_controller_close:
 * @self: a #SluiceRunController
 *
 * Closes a service run gracefully: no more jobs are admitted, the queued
 * and running ones finish.
 */
void
sluice_run_controller_close (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (!self->running || !self->submit_mode)
    return;

  sluice_scenario_runner_close (self->runner);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
                                      _("Closing: the service admits no more jobs and finishes those it has…"));
}

/**
 * sluice_run_controller_submit:
 * @self: a #SluiceRunController
 * @item: the job's item (a floating reference is sunk)
 * @behaviour: (nullable): what the handler does with it, or %NULL for the
 *   scenario's default
 * @error: return location for why it was refused
 *
 * Submits one more job to the running service; the jobs table shows it
 * once it is admitted.
 *
 * Returns: whether the submission was made
 */
gboolean
sluice_run_controller_submit (SluiceRunController    *self,
                              GVariant               *item,
                              const SluiceBehaviour  *behaviour,
                              GError                **error)
{
  g_autoptr(GVariant) owned = g_variant_ref_sink (item);

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);

  if (!self->running || !self->submit_mode)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED,
                           _("No service is running: run a scenario in submit mode first."));
      return FALSE;
    }

  return sluice_scenario_runner_submit (self->runner, owned, behaviour, error);
}

/**
 * sluice_run_controller_give_up:
 * @self: a #SluiceRunController
 * @job_index: a job index
 *
 * Gives up on that job, as its caller.
 *
 * Returns: whether the running service has such a job
 */
gboolean
sluice_run_controller_give_up (SluiceRunController *self,
                               gint64               job_index)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);

  return self->running && self->submit_mode && sluice_scenario_runner_give_up (self->runner, job_index);
}

/**
 * sluice_run_controller_get_submit_mode:
 * @self: a #SluiceRunController
 *
 * Returns: whether the current or last run is a service run
 */
gboolean
sluice_run_controller_get_submit_mode (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  return self->submit_mode;
}

/**
 * sluice_run_controller_cancel:
 * @self: a #SluiceRunController
 *
 * Cancels the run as its caller would.
 */
void
sluice_run_controller_cancel (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (!self->running)
    return;

  sluice_scenario_runner_cancel (self->runner);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
                                      _("Cancelling: every attempt is asked to stop and awaited…"));
}

/**
 * sluice_run_controller_set_speed:
 * @self: a #SluiceRunController
 * @speed: clock seconds per real second
 *
 * Sets the speed of the scaled clock, for this run and the next ones.
 */
void
sluice_run_controller_set_speed (SluiceRunController *self,
                                 double               speed)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  self->speed = speed;
  if (self->clock != NULL)
    sluice_clock_set_speed (self->clock, speed);
}

/**
 * sluice_run_controller_set_instant:
 * @self: a #SluiceRunController
 * @instant: whether simulated runs jump through time
 *
 * By default a simulated run plays on a paced clock at the speed; an
 * instant one jumps from timer to timer on the virtual clock, for a
 * screenshot. Both give the same outcome. Takes effect at the next run.
 */
void
sluice_run_controller_set_instant (SluiceRunController *self,
                                   gboolean             instant)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  self->instant = !!instant;
}

/**
 * sluice_run_controller_set_paused:
 * @self: a #SluiceRunController
 * @paused: whether the clock stands still
 *
 * Pauses or resumes the clock of the run.
 */
void
sluice_run_controller_set_paused (SluiceRunController *self,
                                  gboolean             paused)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  self->paused = paused;
  if (self->clock != NULL)
    sluice_clock_set_paused (self->clock, paused);
}

/**
 * sluice_run_controller_step:
 * @self: a #SluiceRunController
 *
 * Advances the clock to the next timer of the run.
 */
void
sluice_run_controller_step (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (self->clock != NULL && self->running)
    sluice_clock_step (self->clock);
}

/**
 * sluice_run_controller_get_running:
 * @self: a #SluiceRunController
 *
 * Returns: whether a run is going on
 */
gboolean
sluice_run_controller_get_running (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  return self->running;
}

/**
 * sluice_run_controller_get_has_events:
 * @self: a #SluiceRunController
 *
 * Returns: whether the last run recorded anything to export
 */
gboolean
sluice_run_controller_get_has_events (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  return self->recorder != NULL && sluice_recorder_get_n_events (self->recorder) > 0;
}

/**
 * sluice_run_controller_get_results:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none): the results as lines of text (#GtkStringObject),
 *   in the order they arrived
 */
GListModel *
sluice_run_controller_get_results (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return G_LIST_MODEL (self->results);
}

/**
 * sluice_run_controller_get_viewport:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none): the time span the chart and the lanes show
 */
SluiceViewport *
sluice_run_controller_get_viewport (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return self->viewport;
}

/* ---- exports ----------------------------------------------------------- */

static gboolean
check_has_events (SluiceRunController  *self,
                  GError              **error)
{
  if (sluice_run_controller_get_has_events (self))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                       _("There is nothing to export yet: run the scenario first."));
  return FALSE;
}

/**
 * sluice_run_controller_export_image:
 * @self: a #SluiceRunController
 * @path: the file to write; `.png`, `.svg` or `.pdf` picks the format
 * @width: the width of the image, in pixels or points
 * @height: the height of the image
 * @dark: whether to use the dark palette
 * @error: return location for an error
 *
 * Draws the queue chart above the worker lanes of the last run, whole,
 * with its queue capacity and lead bound.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_run_controller_export_image (SluiceRunController  *self,
                                    const char           *path,
                                    double                width,
                                    double                height,
                                    gboolean              dark,
                                    GError              **error)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_has_events (self, error))
    return FALSE;

  sluice_timeline_update (self->timeline, self->recorder);
  return sluice_render_export (self->timeline, path, width, height,
                               sluice_timeline_get_queue_capacity (self->timeline),
                               sluice_timeline_get_lead_bound (self->timeline), dark, error);
}

/**
 * sluice_run_controller_export_events:
 * @self: a #SluiceRunController
 * @path: the file to write; `.csv` writes CSV, `.jsonl`, `.ndjson` or
 *   `.json` JSON Lines
 * @error: return location for an error
 *
 * Writes the events the last run recorded.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_run_controller_export_events (SluiceRunController  *self,
                                     const char           *path,
                                     GError              **error)
{
  g_autofree char *lower = NULL;

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_has_events (self, error))
    return FALSE;

  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".csv"))
    return sluice_recorder_save_csv (self->recorder, path, error);
  if (g_str_has_suffix (lower, ".jsonl") || g_str_has_suffix (lower, ".ndjson") || g_str_has_suffix (lower, ".json"))
    return sluice_recorder_save_jsonl (self->recorder, path, error);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("Cannot export “%s”: the name must end in .csv or .jsonl"), path);
  return FALSE;
}

/* ---- GObject ----------------------------------------------------------- */

static void
forget_widgets (SluiceRunController *self)
{
  _sluice_run_controller_remove_tick (self);
  g_clear_weak_pointer (&self->frame_widget);
  self->counters = NULL;
  self->chart_view = NULL;
  self->timeline_view = NULL;
  self->event_log = NULL;
  self->error_group_view = NULL;
  self->jobs_view = NULL;
}

static void
sluice_run_controller_dispose (GObject *object)
{
  SluiceRunController *self = SLUICE_RUN_CONTROLLER (object);

  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  forget_widgets (self);
  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->fold);
  g_clear_object (&self->finished_fold);
  g_clear_object (&self->narrator);
  g_clear_pointer (&self->scenario_text, g_free);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);
  g_clear_object (&self->report);
  g_cancellable_cancel (self->replay);
  g_clear_object (&self->replay);
  g_clear_pointer (&self->report_note, g_free);
  g_clear_object (&self->results);
  g_clear_object (&self->viewport);
  g_clear_pointer (&self->fatal_type, g_free);
  g_clear_pointer (&self->countdown, g_free);

  G_OBJECT_CLASS (sluice_run_controller_parent_class)->dispose (object);
}

static void
sluice_run_controller_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SluiceRunController *self = SLUICE_RUN_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_REPORT:
      g_value_set_object (value, self->report);
      break;
    case PROP_FINISHED_FOLD:
      g_value_set_object (value, self->finished_fold);
      break;
    case PROP_REPORT_NOTE:
      g_value_set_string (value, self->report_note);
      break;
    case PROP_NARRATOR:
      g_value_set_object (value, self->narrator);
      break;
    case PROP_MOMENT:
      g_value_set_int64 (value, self->moment);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_run_controller_class_init (SluiceRunControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_run_controller_dispose;
  object_class->get_property = sluice_run_controller_get_property;

  /**
   * SluiceRunController:running:
   *
   * Whether a run is going on.
   */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceRunController:report: (nullable)
   *
   * The finished run's report, as `sluice-run --json` writes it, or %NULL
   * while a run goes on and after a reset.
   */
  properties[PROP_REPORT] =
    g_param_spec_object ("report", NULL, NULL, SLUICE_TYPE_REPORT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceRunController:finished-fold: (nullable)
   *
   * The finished run's events, for the scrubber to move through, or %NULL
   * while a run goes on and when there is none.
   */
  properties[PROP_FINISHED_FOLD] =
    g_param_spec_object ("finished-fold", NULL, NULL, SLUICE_TYPE_FOLD,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:report-note: (nullable)
   *
   * Why a shown run has no report (a recording that only its own run could
   * report on), or %NULL.
   */
  properties[PROP_REPORT_NOTE] =
    g_param_spec_string ("report-note", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:narrator: (nullable)
   *
   * Explains the run at a moment in sentences, or %NULL without a run.
   */
  properties[PROP_NARRATOR] =
    g_param_spec_object ("narrator", NULL, NULL, SLUICE_TYPE_NARRATOR,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:moment:
   *
   * The clock time, in µs, that the views show: now during a run, the
   * playhead (or the end) after it; -1 without a run.
   */
  properties[PROP_MOMENT] =
    g_param_spec_int64 ("moment", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceRunController::status:
   * @self: the controller
   * @kind: a #SluiceRunStatus
   * @text: one line for the person watching
   *
   * The run started, was asked to stop, or ended, and how.
   */
  signals[STATUS] = g_signal_new ("status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * SluiceRunController::finished:
   * @self: the controller
   *
   * The run ended and the views show all of it.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sluice_run_controller_init (SluiceRunController *self)
{
  self->speed = 1.0;
  self->moment = -1;
  self->shutdown_from = -1;
  self->deadline_fired_at = -1;
  self->fatal_at = -1;
  self->results = sluice_result_list_new ();
  self->viewport = sluice_viewport_new ();
}

/**
 * sluice_run_controller_new:
 * @frame_widget: the widget whose frame clock paces the updates (the window)
 * @counters: the live counters to update
 * @chart_view: the queue chart
 * @timeline_view: the worker lanes
 * @event_log: the event log
 * @error_group_view: the final error group
 * @jobs_view: the jobs of a service run
 *
 * The widgets belong to the caller, which must call
 * sluice_run_controller_reset() before it disposes of them.
 *
 * Returns: (transfer full): a controller with no run
 */
SluiceRunController *
sluice_run_controller_new (GtkWidget            *frame_widget,
                           SluiceCounters       *counters,
                           SluiceChartView      *chart_view,
                           SluiceTimelineView   *timeline_view,
                           SluiceEventLog       *event_log,
                           SluiceErrorGroupView *error_group_view,
                           SluiceJobsView       *jobs_view)
{
  SluiceRunController *self;

  g_return_val_if_fail (GTK_IS_WIDGET (frame_widget), NULL);
  g_return_val_if_fail (SLUICE_IS_COUNTERS (counters), NULL);
  g_return_val_if_fail (SLUICE_IS_CHART_VIEW (chart_view), NULL);
  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (timeline_view), NULL);
  g_return_val_if_fail (SLUICE_IS_EVENT_LOG (event_log), NULL);
  g_return_val_if_fail (SLUICE_IS_ERROR_GROUP_VIEW (error_group_view), NULL);
  g_return_val_if_fail (SLUICE_IS_JOBS_VIEW (jobs_view), NULL);

  self = g_object_new (SLUICE_TYPE_RUN_CONTROLLER, NULL);
  g_set_weak_pointer (&self->frame_widget, frame_widget);
  self->counters = counters;
  self->chart_view = chart_view;
  self->timeline_view = timeline_view;
  self->event_log = event_log;
  self->error_group_view = error_group_view;
  self->jobs_view = jobs_view;

  sluice_chart_view_set_viewport (chart_view, self->viewport);
  g_signal_connect_object (self->viewport, "notify::playhead", G_CALLBACK (_sluice_run_controller_show_playhead),
                           self, G_CONNECT_SWAPPED);
  sluice_timeline_view_set_viewport (timeline_view, self->viewport);
  sluice_run_controller_reset (self);
  return self;
}
