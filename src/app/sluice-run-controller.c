/* sluice-run-controller.c: one run of the playground, from start to exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-run-controller-private.h"

/**
 * SluiceRunController:
 *
 * Runs a scenario through #SluiceScenarioRunner on the default main
 * context, on a scaled clock (or a virtual one when the scenario asks for
 * it) that it speeds up, pauses and steps. The run's events go into a
 * #SluiceRecorder; a tick callback on the frame widget moves the models
 * once per frame (the #SluiceTimeline, the fold of the moment shown, the
 * results, the #SluiceLiveStats, the now line and the shared
 * #SluiceViewport), so the pool never waits on drawing.
 *
 * It owns the run and publishes its models as properties: #SluiceRunController:recorder
 * (the one store of the run's events), #SluiceRunController:timeline,
 * #SluiceRunController:handler, #SluiceRunController:stats,
 * #SluiceRunController:now, #SluiceRunController:position and the rest. It
 * knows no view: the window binds the views to these models, and each view
 * that reads the recorder keeps its own cursor and catches up at
 * #SluiceRunController::updated. The views hold references to the models,
 * never the other way around. What the window should say about the run
 * comes as #SluiceRunController::status.
 *
 * This file holds the object, its properties and what starts and resets
 * a run; sluice-run-controller-steering.c what steers it,
 * sluice-run-controller-views.c what each frame moves,
 * sluice-run-controller-status.c what the banner says and
 * sluice-run-controller-exports.c what it hands out (see
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
  PROP_RECORDER,
  PROP_TIMELINE,
  PROP_HANDLER,
  PROP_STATS,
  PROP_RESULTS,
  PROP_NOW,
  PROP_POSITION,
  PROP_REMOTE,
  N_PROPS
};

enum {
  STATUS,
  FINISHED,
  UPDATED,
  SEEKED,
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

/**
 * _sluice_run_controller_notify_remote:
 * @self: a #SluiceRunController
 *
 * Notifies #SluiceRunController:remote, once it changed.
 */
void
_sluice_run_controller_notify_remote (SluiceRunController *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REMOTE]);
}

static void set_report_note (SluiceRunController *self,
                             const char          *note);

/**
 * _sluice_run_controller_set_report_note:
 * @self: a #SluiceRunController
 * @note: (nullable): why there is no report
 *
 * Sets #SluiceRunController:report-note.
 */
void
_sluice_run_controller_set_report_note (SluiceRunController *self,
                                        const char          *note)
{
  set_report_note (self, note);
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

/**
 * _sluice_run_controller_set_running:
 * @self: a #SluiceRunController
 * @running: whether a run goes on (a local one, or an attached one)
 */
void
_sluice_run_controller_set_running (SluiceRunController *self,
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
            JsonNode            *report)
{
  if (self->report == report)
    return;
  g_clear_pointer (&self->report, json_node_unref);
  self->report = report != NULL ? json_node_ref (report) : NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
}

/**
 * _sluice_run_controller_emit_finished:
 * @self: a #SluiceRunController
 *
 * Emits #SluiceRunController::finished.
 */
void
_sluice_run_controller_emit_finished (SluiceRunController *self)
{
  g_signal_emit (self, signals[FINISHED], 0);
}

/* The report as the views and a recording take it: its JSON object. */
static void
set_run_report (SluiceRunController *self,
                SluiceReport        *report)
{
  g_autoptr(JsonNode) node = report != NULL ? sluice_report_to_json (report) : NULL;

  set_report (self, node);
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

/**
 * _sluice_run_controller_set_now:
 * @self: a #SluiceRunController
 * @now: where the now line is
 *
 * Sets #SluiceRunController:now.
 */
void
_sluice_run_controller_set_now (SluiceRunController *self,
                                gint64               now)
{
  if (self->now == now)
    return;
  self->now = now;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NOW]);
}

/**
 * _sluice_run_controller_set_position:
 * @self: a #SluiceRunController
 * @position: the events shown, or %G_MAXUINT64 for all
 *
 * Sets #SluiceRunController:position.
 */
void
_sluice_run_controller_set_position (SluiceRunController *self,
                                     guint64              position)
{
  if (self->position == position)
    return;
  self->position = position;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POSITION]);
}

/**
 * _sluice_run_controller_emit_updated:
 * @self: a #SluiceRunController
 * @new_events: whether events were recorded since the last one
 *
 * Emits #SluiceRunController::updated.
 */
void
_sluice_run_controller_emit_updated (SluiceRunController *self,
                                     gboolean             new_events)
{
  g_signal_emit (self, signals[UPDATED], 0, self->running, new_events);
}

/**
 * _sluice_run_controller_emit_seeked:
 * @self: a #SluiceRunController
 * @position: the events up to the playhead
 *
 * Emits #SluiceRunController::seeked.
 */
void
_sluice_run_controller_emit_seeked (SluiceRunController *self,
                                    guint64              position)
{
  g_signal_emit (self, signals[SEEKED], 0, position);
}

static void
set_recorder (SluiceRunController *self,
              SluiceRecorder      *recorder)
{
  if (g_set_object (&self->recorder, recorder))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDER]);
}

static void
set_timeline (SluiceRunController *self,
              SluiceTimeline      *timeline)
{
  if (g_set_object (&self->timeline, timeline))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
}

static void
set_handler (SluiceRunController *self,
             SluiceFaultHandler  *handler)
{
  if (g_set_object (&self->handler, handler))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HANDLER]);
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
  _sluice_run_controller_set_running (self, FALSE);
  _sluice_run_controller_update_views (self);
  set_run_report (self, report);
  _sluice_run_controller_show_end (self, report, error);
  g_signal_emit (self, signals[FINISHED], 0);
}

/* ---- starting and resetting -------------------------------------------- */

/**
 * sluice_run_controller_reset:
 * @self: a #SluiceRunController
 *
 * Cancels the run if one is going on and lets go of it and its models:
 * #SluiceRunController:recorder, #SluiceRunController:timeline and
 * #SluiceRunController:handler become %NULL, the stats and the results
 * empty.
 */
void
sluice_run_controller_reset (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  _sluice_run_controller_remove_tick (self);
  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  _sluice_run_controller_let_go_of_remote (self);

  g_clear_object (&self->runner);
  g_clear_object (&self->clock);

  self->n_seen = 0;
  g_clear_object (&self->fold);
  self->can_skip = FALSE;
  self->can_shed = FALSE;
  self->start_time = 0;
  self->shown_now = 0;
  memset (&self->last, 0, sizeof self->last);
  self->has_run = FALSE;
  self->submit_mode = FALSE;
  self->shutdown_timeout = 0;
  self->shutdown_from = -1;
  self->deadline_fired_at = -1;
  self->fatal_at = -1;
  self->run_end_at = -1;
  g_clear_pointer (&self->fatal_type, g_free);
  g_clear_pointer (&self->countdown, g_free);
  self->busy = 0;
  self->queue_depth = 0;
  self->has_snapshot = FALSE;

  /* Published once the run's state is gone: a view letting go of the
   * recorder may move the playhead back (see show_playhead). */
  set_handler (self, NULL);
  set_narrator (self, NULL);
  _sluice_run_controller_set_moment (self, -1);
  set_timeline (self, NULL);
  set_recorder (self, NULL);
  /* A recording's report still being made belongs to the run let go of. */
  g_cancellable_cancel (self->replay);
  g_clear_object (&self->replay);
  set_report (self, NULL);
  set_report_note (self, NULL);
  _sluice_run_controller_set_position (self, G_MAXUINT64);
  _sluice_run_controller_update_stats (self);
  sluice_result_list_clear (self->results);
  sluice_viewport_set_playhead (self->viewport, -1);
  sluice_viewport_set_bounds (self->viewport, 0, SLUICE_RUN_CONTROLLER_MIN_SPAN_US);
  sluice_viewport_fit (self->viewport);
  _sluice_run_controller_set_running (self, FALSE);
}

/**
 * sluice_run_controller_set_configured_workers:
 * @self: a #SluiceRunController
 * @workers: the workers of the scenario that a run would start
 *
 * Without a run, the busy counter shows the pool as configured: none of
 * @workers busy, rather than the workers of a run that was let go of.
 */
void
sluice_run_controller_set_configured_workers (SluiceRunController *self,
                                              guint                workers)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  self->configured_workers = workers;
  if (!self->has_run)
    _sluice_run_controller_update_stats (self);
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

/* The models of a run of @scenario whose events @recorder holds (or will
 * hold): the same for a live run and a recorded one. The recorder and the
 * timeline are published last, when the rest (the submit mode among them)
 * is set: a view taking them may move the playhead. */
void
_sluice_run_controller_create_models (SluiceRunController *self,
                                      SluiceScenario      *scenario,
                                      SluiceRecorder      *recorder)
{
  guint workers = (guint) sluice_scenario_get_workers (scenario);

  /* After a reset: both are NULL. */
  self->recorder = g_object_ref (recorder);
  self->timeline = sluice_timeline_new (workers);
  self->fold = sluice_fold_new (recorder);
  g_free (self->scenario_text);
  self->scenario_text = sluice_scenario_to_data (scenario, NULL);

  self->workers = workers;
  self->submit_mode = sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT;
  self->shutdown_timeout = sluice_time_from_seconds (sluice_scenario_get_shutdown_timeout (scenario));
  self->can_shed = sluice_scenario_get_item_deadline (scenario) > 0;
  self->can_skip = self->can_shed || sluice_scenario_get_retry_budget (scenario) > 0;
  self->has_run = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RECORDER]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMELINE]);
  {
    g_autoptr(SluiceNarrator) narrator = sluice_narrator_new (self->recorder, self->timeline);

    sluice_narrator_set_shutdown_timeout (narrator, self->shutdown_timeout);
    set_narrator (self, narrator);
  }
}

static void
create_run (SluiceRunController *self,
            SluiceScenario      *scenario)
{
  SluiceClockKind kind = choose_clock (self, scenario);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (RECORDER_CAPACITY);

  /* The pool's work and its time go before the window's frames, which
   * could otherwise hold the run still, and the clock gives the frames
   * their turn. */
  self->clock = sluice_clock_new_interactive (kind);
  sluice_clock_set_speed (self->clock, self->speed);
  sluice_clock_set_paused (self->clock, self->paused);

  _sluice_run_controller_create_models (self, scenario, recorder);
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
  set_run_report (self, report);
  set_report_note (self, error ? error->message : NULL);
}

/**
 * sluice_run_controller_show_recording:
 * @self: a #SluiceRunController
 * @recording: a recorded run
 *
 * Clears the last run and shows @recording's as if it had just ended here,
 * without an engine: the scrubber, the explanation and the exports work
 * on it. The report is the one the recording carries; a recording without
 * one (written by another program) gets it from its scenario run again on
 * the virtual clock, when that gives the very same events.
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
  _sluice_run_controller_create_models (self, sluice_recording_get_scenario (recording), sluice_recording_get_recorder (recording));
  g_free (self->scenario_text);
  self->scenario_text = g_strdup (sluice_recording_get_scenario_text (recording));
  update_finished_fold (self);
  _sluice_run_controller_update_views (self);
  _sluice_run_controller_show_recorded_end (self);
  g_signal_emit (self, signals[FINISHED], 0);

  if (sluice_recording_get_report (recording) != NULL)
    {
      set_report (self, sluice_recording_get_report (recording));
      return TRUE;
    }

  /* Else the report, from the scenario run again on the virtual clock. */
  set_report_note (self, _("The report of a recorded run comes from running its scenario again on the virtual "
                           "clock…"));
  self->replay = g_cancellable_new ();
  sluice_recording_replay_async (recording, self->replay, on_replayed, g_object_ref (self));
  return TRUE;
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
  _sluice_run_controller_set_running (self, TRUE);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
                                      sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL
                                        ? _("Running on the virtual clock…")
                                        : _("Running… Space pauses, → steps to the next timer, + and − change the speed."));

  _sluice_run_controller_add_tick (self);
  sluice_scenario_runner_run_async (self->runner, NULL, on_run_done, g_object_ref (self));
  /* The handler exists once the run started: it tells each item's behaviour. */
  set_handler (self, sluice_scenario_runner_get_handler (self->runner));
  return TRUE;
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_run_controller_dispose (GObject *object)
{
  SluiceRunController *self = SLUICE_RUN_CONTROLLER (object);

  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  _sluice_run_controller_let_go_of_remote (self);
  _sluice_run_controller_remove_tick (self);
  g_clear_weak_pointer (&self->frame_widget);
  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  g_clear_object (&self->fold);
  g_clear_object (&self->finished_fold);
  g_clear_object (&self->narrator);
  g_clear_pointer (&self->scenario_text, g_free);
  g_clear_object (&self->recorder);
  g_clear_object (&self->timeline);
  g_clear_object (&self->handler);
  g_clear_object (&self->stats);
  g_clear_pointer (&self->report, json_node_unref);
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
      g_value_set_boxed (value, self->report);
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
    case PROP_RECORDER:
      g_value_set_object (value, self->recorder);
      break;
    case PROP_TIMELINE:
      g_value_set_object (value, self->timeline);
      break;
    case PROP_HANDLER:
      g_value_set_object (value, self->handler);
      break;
    case PROP_STATS:
      g_value_set_object (value, self->stats);
      break;
    case PROP_RESULTS:
      g_value_set_object (value, self->results);
      break;
    case PROP_NOW:
      g_value_set_int64 (value, self->now);
      break;
    case PROP_POSITION:
      g_value_set_uint64 (value, self->position);
      break;
    case PROP_REMOTE:
      g_value_set_object (value, self->remote);
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
    g_param_spec_boxed ("report", NULL, NULL, JSON_TYPE_NODE,
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
  /**
   * SluiceRunController:recorder: (nullable)
   *
   * The one store of the run's events (live or recorded), or %NULL
   * without a run. The views that list events read it with their own
   * cursor, at each #SluiceRunController::updated.
   */
  properties[PROP_RECORDER] =
    g_param_spec_object ("recorder", NULL, NULL, SLUICE_TYPE_RECORDER,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:timeline: (nullable)
   *
   * The run folded into the queue chart's samples and the lanes' bars, or
   * %NULL without a run; it moves once per frame.
   */
  properties[PROP_TIMELINE] =
    g_param_spec_object ("timeline", NULL, NULL, SLUICE_TYPE_TIMELINE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:handler: (nullable)
   *
   * The running scenario's handler, which tells each item's behaviour
   * (for the lanes' tooltips), or %NULL.
   */
  properties[PROP_HANDLER] =
    g_param_spec_object ("handler", NULL, NULL, SLUICE_TYPE_FAULT_HANDLER,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:stats:
   *
   * What the counters show at the moment shown; the same object for the
   * controller's life, set (and #SluiceLiveStats::changed) once per frame.
   */
  properties[PROP_STATS] =
    g_param_spec_object ("stats", NULL, NULL, SLUICE_TYPE_LIVE_STATS,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:results:
   *
   * The results handed back by the moment shown, as lines of text
   * (#GtkStringObject, a #GListModel); the same object for the
   * controller's life.
   */
  properties[PROP_RESULTS] =
    g_param_spec_object ("results", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:now:
   *
   * Where the now line of the chart and the lanes is, in µs of the run's
   * clock: the clock during a run, the end after it.
   */
  properties[PROP_NOW] =
    g_param_spec_int64 ("now", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceRunController:position:
   *
   * How many of the run's events have happened at the playhead, or
   * %G_MAXUINT64 when the views show every event (no playhead): what the
   * error group shows up to.
   */
  properties[PROP_POSITION] =
    g_param_spec_uint64 ("position", NULL, NULL, 0, G_MAXUINT64, G_MAXUINT64,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceRunController:remote: (nullable)
   *
   * The pool of another program it is attached to
   * (sluice_run_controller_attach()), or %NULL. It stays attached a while
   * after the remote run ended, for the results the program reads after
   * its end, until the program exits or sluice_run_controller_detach().
   */
  properties[PROP_REMOTE] =
    g_param_spec_object ("remote", NULL, NULL, SLUICE_TYPE_REMOTE_POOL,
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

  /**
   * SluiceRunController::updated:
   * @self: the controller
   * @live: whether the run is going on
   * @new_events: whether the recorder holds events the last one did not
   *
   * The models moved: once per frame of a run, once more at its end, and
   * once when a recording is shown. Views that read
   * #SluiceRunController:recorder catch up now.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_BOOLEAN, G_TYPE_BOOLEAN);

  /**
   * SluiceRunController::seeked:
   * @self: the controller
   * @position: how many of the run's events have happened at the playhead
   *
   * After a run, the viewport's playhead moved and the models show that
   * moment: the event log selects the row of @position.
   */
  signals[SEEKED] = g_signal_new ("seeked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);
}

static void
sluice_run_controller_init (SluiceRunController *self)
{
  self->speed = 1.0;
  self->moment = -1;
  self->shutdown_from = -1;
  self->deadline_fired_at = -1;
  self->fatal_at = -1;
  self->run_end_at = -1;
  self->position = G_MAXUINT64;
  self->results = sluice_result_list_new ();
  self->stats = sluice_live_stats_new ();
  self->viewport = sluice_viewport_new ();
}

/**
 * sluice_run_controller_new:
 * @frame_widget: the widget whose frame clock paces the updates (the
 *   window); the controller keeps a weak pointer to it
 *
 * Returns: (transfer full): a controller with no run
 */
SluiceRunController *
sluice_run_controller_new (GtkWidget *frame_widget)
{
  SluiceRunController *self;

  g_return_val_if_fail (GTK_IS_WIDGET (frame_widget), NULL);

  self = g_object_new (SLUICE_TYPE_RUN_CONTROLLER, NULL);
  g_set_weak_pointer (&self->frame_widget, frame_widget);
  g_signal_connect_object (self->viewport, "notify::playhead", G_CALLBACK (_sluice_run_controller_show_playhead),
                           self, G_CONNECT_SWAPPED);
  sluice_run_controller_reset (self);
  return self;
}
