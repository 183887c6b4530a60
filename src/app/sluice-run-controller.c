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
 * context, on a paced, scaled or virtual clock that it speeds up, pauses
 * and steps. Each run, reset, opened recording and attach gets a new
 * #SluiceRunModel (#SluiceRunController:model): the run's events go into
 * its recorder, and a tick callback on the frame widget has the model read
 * them once per frame, so the pool never waits on drawing. The model
 * folds them once for every view; the controller moves the shared
 * #SluiceViewport, takes the pool's snapshots and says in
 * #SluiceRunController::status what happens to the run.
 *
 * It knows no view: the window binds the views to the model and rebinds
 * them when the model changes.
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
  PROP_MODEL,
  PROP_HANDLER,
  PROP_REMOTE,
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

/**
 * _sluice_run_controller_set_model:
 * @self: a #SluiceRunController
 * @model: the run to show from now on
 *
 * Shows @model: the views rebind to it (#SluiceRunController:model).
 */
void
_sluice_run_controller_set_model (SluiceRunController *self,
                                  SluiceRunModel      *model)
{
  if (g_set_object (&self->model, model))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/* ---- the end of a run -------------------------------------------------- */

/**
 * _sluice_run_controller_set_running:
 * @self: a #SluiceRunController
 * @running: whether a run goes on (a local one, or an attached one)
 */
void
_sluice_run_controller_set_running (SluiceRunController *self,
                                    gboolean             running)
{
  sluice_run_model_set_live (self->model, running);
  if (self->running == running)
    return;

  self->running = running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
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
set_run_report (SluiceRunModel *model,
                SluiceReport   *report)
{
  g_autoptr(JsonNode) node = report != NULL ? sluice_report_to_json (report) : NULL;

  sluice_run_model_set_report (model, node);
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
  set_run_report (self->model, report);
  _sluice_run_controller_show_end (self, report, error);
  g_signal_emit (self, signals[FINISHED], 0);
}

/* ---- starting and resetting -------------------------------------------- */

/**
 * sluice_run_controller_reset:
 * @self: a #SluiceRunController
 *
 * Cancels the run if one is going on and lets go of it: a new model
 * without a run shows the pool as configured, and
 * #SluiceRunController:handler becomes %NULL.
 */
void
sluice_run_controller_reset (SluiceRunController *self)
{
  g_autoptr(SluiceRunModel) idle = NULL;

  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  _sluice_run_controller_remove_tick (self);
  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  _sluice_run_controller_let_go_of_remote (self);

  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  self->shown_now = 0;
  g_clear_pointer (&self->countdown, g_free);
  /* A recording's report still being made belongs to the run let go of. */
  g_cancellable_cancel (self->replay);
  g_clear_object (&self->replay);

  set_handler (self, NULL);
  sluice_viewport_set_playhead (self->viewport, -1);
  sluice_viewport_set_bounds (self->viewport, 0, SLUICE_RUN_CONTROLLER_MIN_SPAN_US);
  sluice_viewport_fit (self->viewport);
  idle = sluice_run_model_new_idle (self->configured_workers);
  if (self->running)
    {
      self->running = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }
  _sluice_run_controller_set_model (self, idle);
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
  sluice_run_model_set_configured_workers (self->model, workers);
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

static void
create_run (SluiceRunController *self,
            SluiceScenario      *scenario)
{
  SluiceClockKind kind = choose_clock (self, scenario);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (RECORDER_CAPACITY);
  g_autoptr(SluiceRunModel) model = sluice_run_model_new (scenario, recorder);

  /* The pool's work and its time go before the window's frames, which
   * could otherwise hold the run still, and the clock gives the frames
   * their turn. */
  self->clock = sluice_clock_new_interactive (kind);
  sluice_clock_set_speed (self->clock, self->speed);
  sluice_clock_set_paused (self->clock, self->paused);

  self->runner = sluice_scenario_runner_new (scenario);
  sluice_scenario_runner_set_clock (self->runner, self->clock);
  sluice_scenario_runner_set_recorder (self->runner, recorder);
  sluice_run_model_set_live (model, TRUE);
  _sluice_run_controller_set_model (self, model);
}

static void
on_replayed (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceRunModel) model = user_data;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;

  report = sluice_recording_replay_finish (SLUICE_RECORDING (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_run_report (model, report);
  sluice_run_model_set_report_note (model, error ? error->message : NULL);
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
  g_autoptr(SluiceRunModel) model = NULL;

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_RECORDING (recording), FALSE);

  if (self->running)
    return FALSE;

  sluice_run_controller_reset (self);
  model = sluice_run_model_new (sluice_recording_get_scenario (recording), sluice_recording_get_recorder (recording));
  sluice_run_model_set_scenario_text (model, sluice_recording_get_scenario_text (recording));
  _sluice_run_controller_set_model (self, model);
  _sluice_run_controller_update_views (self);
  _sluice_run_controller_show_recorded_end (self);
  g_signal_emit (self, signals[FINISHED], 0);

  if (sluice_recording_get_report (recording) != NULL)
    {
      sluice_run_model_set_report (model, sluice_recording_get_report (recording));
      return TRUE;
    }

  /* Else the report, from the scenario run again on the virtual clock. */
  sluice_run_model_set_report_note (model, _("The report of a recorded run comes from running its scenario again "
                                             "on the virtual clock…"));
  self->replay = g_cancellable_new ();
  sluice_recording_replay_async (recording, self->replay, on_replayed, g_object_ref (model));
  return TRUE;
}

/**
 * sluice_run_controller_start:
 * @self: a #SluiceRunController
 * @scenario: what to run
 *
 * Clears the last run and starts @scenario in a new
 * #SluiceRunController:model; #SluiceRunController::finished tells when
 * it ended.
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
  g_clear_object (&self->model);
  g_clear_object (&self->handler);
  g_cancellable_cancel (self->replay);
  g_clear_object (&self->replay);
  g_clear_object (&self->viewport);
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
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_HANDLER:
      g_value_set_object (value, self->handler);
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
   * SluiceRunController:model:
   *
   * The run shown, never %NULL: a new #SluiceRunModel for each run, reset,
   * recording and attach, so that no view ever shows a run before it.
   * Views bind to it and rebind when it changes.
   */
  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, SLUICE_TYPE_RUN_MODEL,
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
   * The run ended and its model shows all of it.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
sluice_run_controller_init (SluiceRunController *self)
{
  self->speed = 1.0;
  self->viewport = sluice_viewport_new ();
  self->model = sluice_run_model_new_idle (0);
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
  return self;
}
