/* sluice-run-controller.c: one run of the playground, from start to exports
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-remote-feed.h"
#include "sluice-render-export.h"
#include "sluice-run-controller.h"
#include "sluice-run-status.h"
#include "sluice-scenario-runner.h"

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
 * It is one object in one file; what is another object is in its own: an
 * attached pool's events come through a #SluiceRemoteFeed, and the
 * banner's lines are written by sluice-run-status.c. Neither calls back:
 * the feed says what happened in its signals, which the controller turns
 * into its own state and signals.
 */

#define RECORDER_CAPACITY 500000

/* The shortest span the chart and the lanes show. */
#define MIN_SPAN_US (G_USEC_PER_SEC / 2)

struct _SluiceRunController
{
  GObject               parent_instance;

  GtkWidget            *frame_widget; /* weak: its frame clock paces the updates */

  SluiceRunModel       *model;      /* the run shown: a new one for each run, never NULL */
  SluiceFaultHandler   *handler;    /* the running scenario's, or NULL */
  SluiceViewport       *viewport;
  double                speed;
  gboolean              paused;

  /* the run */
  SluiceScenarioRunner *runner;
  SluiceClock          *clock;
  GCancellable         *replay;     /* a recording run again for its report */
  guint                 tick_id;
  gint64                shown_now;  /* the latest "now" shown: it never goes back */
  gboolean              running;
  gboolean              instant;    /* simulated runs jump through time */
  SluiceRemoteFeed     *feed;       /* the attached pool's, or NULL */
  guint64               remote_lost; /* the events of the last attached pool that never came */
  char                 *countdown;  /* the banner's last countdown */
  guint                 configured_workers; /* shown without a run */
};

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

/* The run started, was asked to stop, or ended, and how. */
static void
emit_status (SluiceRunController *self,
             SluiceRunStatus      kind,
             const char          *text)
{
  g_signal_emit (self, signals[STATUS], 0, (guint) kind, text);
}

/* Shows @model: the views rebind to it (#SluiceRunController:model). */
static void
set_model (SluiceRunController *self,
           SluiceRunModel      *model)
{
  if (g_set_object (&self->model, model))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL]);
}

/* Whether a run goes on (a local one, or an attached one). */
static void
set_running (SluiceRunController *self,
             gboolean             running)
{
  sluice_run_model_set_live (self->model, running);
  if (self->running == running)
    return;

  self->running = running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* ---- each frame -------------------------------------------------------- */

/* The run's clock, never behind what was shown. */
static gint64
clock_now (SluiceRunController *self)
{
  gint64 now = self->clock ? sluice_clock_get_shown_time (self->clock) : 0;

  /* A paced clock's shown time runs ahead of its instant, up to its next
   * timer; a timer added later (work that came late, a job submitted by
   * hand) may be earlier than what was shown: time shown never goes back. */
  self->shown_now = MAX (self->shown_now, now);
  return self->shown_now;
}

/* The pool's own figures of now, while it runs and no playhead is set:
 * the local run's snapshot, or the attached pool's. */
static void
take_snapshot (SluiceRunController *self)
{
  SluiceRun *run = self->runner ? sluice_scenario_runner_get_run (self->runner) : NULL;
  g_autoptr(SluiceSnapshot) snapshot = run && self->running ? sluice_run_get_snapshot (run) : NULL;

  if (snapshot != NULL)
    sluice_run_model_set_snapshot (self->model, sluice_snapshot_get_busy_workers (snapshot),
                                   sluice_snapshot_get_workers (snapshot),
                                   sluice_snapshot_get_queue_depth (snapshot));
  else if (self->running && self->feed != NULL)
    sluice_remote_feed_take_snapshot (self->feed);
}

/* While a bounded shutdown runs, the banner counts its deadline down. */
static void
update_countdown (SluiceRunController *self)
{
  g_autofree char *text = NULL;

  if (!self->running)
    return;

  text = sluice_run_status_describe_countdown (self->model, clock_now (self));
  if (text == NULL || g_strcmp0 (text, self->countdown) == 0)
    return;
  g_free (self->countdown);
  self->countdown = g_steal_pointer (&text);
  emit_status (self, SLUICE_RUN_STATUS_INFO, self->countdown);
}

/* Has the run model read the events recorded since the last call, moves
 * the viewport with its now line and the banner's countdown. Once per
 * frame, and once more at the end of the run. */
static void
update_views (SluiceRunController *self)
{
  SluiceRunModel *model = self->model;
  gint64 start, now;

  if (!sluice_run_model_get_has_run (model))
    return;

  take_snapshot (self);
  sluice_run_model_update (model, self->running ? clock_now (self) : 0);
  start = sluice_run_model_get_end (model)->start_time;
  now = sluice_run_model_get_now (model);
  /* A viewport that fits follows the run; a zoomed one stays put. */
  sluice_viewport_set_bounds (self->viewport, start, MAX (now, start + MIN_SPAN_US));
  update_countdown (self);
}

/* Moves the run model to the viewport's playhead. A live run shows now:
 * a playhead set while it runs is taken back. */
static void
show_playhead (SluiceRunController *self)
{
  if (!sluice_run_model_get_has_run (self->model))
    return;

  if (self->running)
    {
      sluice_viewport_set_playhead (self->viewport, -1);
      return;
    }

  sluice_run_model_seek (self->model, sluice_viewport_get_playhead (self->viewport));
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       user_data)
{
  update_views (SLUICE_RUN_CONTROLLER (user_data));
  return G_SOURCE_CONTINUE;
}

/* Moves the models at every frame of the frame widget from now on. */
static void
add_tick (SluiceRunController *self)
{
  self->tick_id = gtk_widget_add_tick_callback (self->frame_widget, on_tick, self, NULL);
}

/* Stops the moves at every frame, if they were on. */
static void
remove_tick (SluiceRunController *self)
{
  if (self->tick_id != 0 && self->frame_widget != NULL)
    gtk_widget_remove_tick_callback (self->frame_widget, self->tick_id);
  self->tick_id = 0;
}

/* ---- an attached pool -------------------------------------------------- */

/* Unsubscribes from the attached pool, if one is; the recorder keeps what
 * came. */
static void
let_go_of_remote (SluiceRunController *self)
{
  if (self->feed == NULL)
    return;
  self->remote_lost = sluice_remote_feed_get_n_lost (self->feed);
  g_signal_handlers_disconnect_by_data (self->feed, self);
  sluice_remote_feed_stop (self->feed);
  g_clear_object (&self->feed);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REMOTE]);
}

/* The attached run is over here: the remote run ended, the program
 * exited, or the window detached. What came stays, to scrub, save and
 * export like a local run. */
static void
end_attached (SluiceRunController *self,
              SluiceRunStatus      kind,
              const char          *text)
{
  remove_tick (self);
  set_running (self, FALSE);
  update_views (self);
  emit_status (self, kind, text);
  g_signal_emit (self, signals[FINISHED], 0);
}

static void
on_feed_ended (SluiceRunController *self,
               guint                kind,
               const char          *text)
{
  end_attached (self, kind, text);
}

static void
on_feed_vanished (SluiceRunController *self,
                  const char          *text)
{
  /* After the run's end, the banner keeps saying how it ended. */
  if (!self->running)
    {
      update_views (self);
      let_go_of_remote (self);
      return;
    }

  let_go_of_remote (self);
  end_attached (self, SLUICE_RUN_STATUS_INFO, text);
}

/* ---- the end of a run -------------------------------------------------- */

/* Says how the run ended, as #SluiceRunController::status. */
static void
show_end (SluiceRunController *self,
          SluiceReport        *report,
          const GError        *error)
{
  SluiceRunStatus kind;
  g_autofree char *text = sluice_run_status_describe_end (self->model, self->runner, self->clock, report, error,
                                                          &kind);

  emit_status (self, kind, text);
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

  remove_tick (self);
  set_running (self, FALSE);
  update_views (self);
  set_run_report (self->model, report);
  show_end (self, report, error);
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

  remove_tick (self);
  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  let_go_of_remote (self);

  g_clear_object (&self->runner);
  g_clear_object (&self->clock);
  self->shown_now = 0;
  g_clear_pointer (&self->countdown, g_free);
  /* A recording's report still being made belongs to the run let go of. */
  g_cancellable_cancel (self->replay);
  g_clear_object (&self->replay);

  set_handler (self, NULL);
  sluice_viewport_set_playhead (self->viewport, -1);
  sluice_viewport_set_bounds (self->viewport, 0, MIN_SPAN_US);
  sluice_viewport_fit (self->viewport);
  idle = sluice_run_model_new_idle (self->configured_workers);
  if (self->running)
    {
      self->running = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
    }
  set_model (self, idle);
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
  set_model (self, model);
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
  set_model (self, model);
  update_views (self);
  {
    g_autofree char *text = sluice_run_status_describe_recorded (model);

    emit_status (self, SLUICE_RUN_STATUS_INFO, text);
  }
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
  set_running (self, TRUE);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
               sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL
                 ? _("Running on the virtual clock…")
                 : _("Running… Space pauses, → steps to the next timer, + and − change the speed."));

  add_tick (self);
  sluice_scenario_runner_run_async (self->runner, NULL, on_run_done, g_object_ref (self));
  /* The report lints every event as it happens: the model shows its
   * linter rather than lint the run a second time. */
  if (sluice_scenario_runner_get_report (self->runner) != NULL)
    sluice_run_model_share_linter (self->model,
                                   sluice_report_get_linter (sluice_scenario_runner_get_report (self->runner)));
  /* The handler exists once the run started: it tells each item's behaviour. */
  set_handler (self, sluice_scenario_runner_get_handler (self->runner));
  return TRUE;
}

/* ---- attaching --------------------------------------------------------- */

static void
on_feed_status (SluiceRunController *self,
                guint                kind,
                const char          *text)
{
  emit_status (self, kind, text);
}

/**
 * sluice_run_controller_attach:
 * @self: a #SluiceRunController
 * @pool: a pool another program exports
 * @error: return location for why it cannot be attached
 *
 * Clears the last run and shows @pool's, live, from its events (a
 * #SluiceRemoteFeed): the scenario is the pool's configuration
 * (sluice_remote_pool_dup_scenario_text()), #SluiceRunController:running
 * is %TRUE until the remote run ends, the program exits, or
 * sluice_run_controller_detach(). After the run-end event the pool stays
 * attached (#SluiceRunController:remote) for the results the program
 * still reads, until it exits or is detached; the views take them in.
 * There is no report: the program has its own (the model's report note
 * says so).
 *
 * Returns: whether it is attached (not while a run goes on, nor to a pool
 *   whose program has exited)
 */
gboolean
sluice_run_controller_attach (SluiceRunController  *self,
                              SluiceRemotePool     *pool,
                              GError              **error)
{
  g_autoptr(SluiceRemoteFeed) feed = NULL;
  g_autofree char *banner = NULL;

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (pool), FALSE);

  if (self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("A run is going on."));
      return FALSE;
    }
  if (sluice_remote_pool_get_vanished (pool))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("The program has exited."));
      return FALSE;
    }
  if (self->frame_widget == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CLOSED, _("The window is closing."));
      return FALSE;
    }
  feed = sluice_remote_feed_new (pool, error);
  if (feed == NULL)
    return FALSE;

  sluice_run_controller_reset (self);
  self->remote_lost = 0;
  sluice_viewport_set_playhead (self->viewport, -1);
  set_model (self, sluice_remote_feed_get_model (feed));

  self->feed = g_steal_pointer (&feed);
  g_signal_connect_swapped (self->feed, "status", G_CALLBACK (on_feed_status), self);
  g_signal_connect_swapped (self->feed, "ended", G_CALLBACK (on_feed_ended), self);
  g_signal_connect_swapped (self->feed, "updated", G_CALLBACK (update_views), self);
  g_signal_connect_swapped (self->feed, "vanished", G_CALLBACK (on_feed_vanished), self);
  sluice_remote_feed_start (self->feed);
  set_running (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REMOTE]);
  add_tick (self);

  banner = sluice_remote_feed_describe (self->feed);
  emit_status (self, SLUICE_RUN_STATUS_INFO, banner);
  return TRUE;
}

/**
 * sluice_run_controller_detach:
 * @self: a #SluiceRunController
 *
 * Stops following the attached pool; what came stays.
 */
void
sluice_run_controller_detach (SluiceRunController *self)
{
  g_return_if_fail (SLUICE_IS_RUN_CONTROLLER (self));

  if (self->feed == NULL)
    return;
  let_go_of_remote (self);
  if (self->running)
    end_attached (self, SLUICE_RUN_STATUS_INFO,
                  _("Detached: the program goes on without this window. What came stays: save it with "
                    "File → Save Run."));
}

/**
 * sluice_run_controller_get_remote:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none) (nullable): the pool attached, or %NULL
 */
SluiceRemotePool *
sluice_run_controller_get_remote (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return self->feed != NULL ? sluice_remote_feed_get_pool (self->feed) : NULL;
}

/**
 * sluice_run_controller_get_remote_lost:
 * @self: a #SluiceRunController
 *
 * Returns: how many events of the attached pool (or the last one) never
 *   reached the recorder: the program's ring had dropped them
 */
guint64
sluice_run_controller_get_remote_lost (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), 0);
  return self->feed != NULL ? sluice_remote_feed_get_n_lost (self->feed) : self->remote_lost;
}

/* ---- steering ----------------------------------------------------------- */

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

  if (self->feed != NULL)
    {
      sluice_remote_feed_request_stop (self->feed);
      return;
    }
  sluice_scenario_runner_request_stop (self->runner);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
               sluice_run_model_get_submit_mode (self->model)
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

  if (!self->running || !sluice_run_model_get_submit_mode (self->model))
    return;

  sluice_scenario_runner_close (self->runner);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
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

  if (!self->running || !sluice_run_model_get_submit_mode (self->model))
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

  return self->running && sluice_run_model_get_submit_mode (self->model) && sluice_scenario_runner_give_up (self->runner, job_index);
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
  return sluice_run_model_get_submit_mode (self->model);
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

  /* An attached pool is another program's to cancel. */
  if (!self->running || self->runner == NULL)
    return;

  sluice_scenario_runner_cancel (self->runner);
  emit_status (self, SLUICE_RUN_STATUS_INFO,
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

/* ---- the models -------------------------------------------------------- */

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
  return sluice_run_model_get_has_events (self->model);
}

/**
 * sluice_run_controller_get_model:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none): #SluiceRunController:model
 */
SluiceRunModel *
sluice_run_controller_get_model (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return self->model;
}

/**
 * sluice_run_controller_get_handler:
 * @self: a #SluiceRunController
 *
 * Returns: (transfer none) (nullable): #SluiceRunController:handler
 */
SluiceFaultHandler *
sluice_run_controller_get_handler (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return self->handler;
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

/**
 * sluice_run_controller_get_scenario_text:
 * @self: a #SluiceRunController
 *
 * Returns: (nullable): the scenario of the run on show as it ran (an
 *   attached pool's configuration, sluice_remote_pool_dup_scenario_text()),
 *   the one a recording of it keeps; %NULL without a run
 */
const char *
sluice_run_controller_get_scenario_text (SluiceRunController *self)
{
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), NULL);
  return sluice_run_model_get_scenario_text (self->model);
}

/* ---- files ------------------------------------------------------------- */

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

  SluiceRunModel *model = self->model;

  if (!sluice_run_model_get_has_run (model) || sluice_run_model_get_scenario_text (model) == NULL || self->running)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no finished run to save."));
      return FALSE;
    }
  return sluice_recording_save (sluice_run_model_get_scenario_text (model), sluice_run_model_get_report (model),
                                sluice_run_model_get_recorder (model), path, error);
}

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
  SluiceTimeline *timeline;

  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_has_events (self, error))
    return FALSE;

  timeline = sluice_run_model_get_timeline (self->model);
  sluice_timeline_update (timeline, sluice_run_model_get_recorder (self->model));
  return sluice_render_export (timeline, path, width, height, sluice_timeline_get_queue_capacity (timeline),
                               sluice_timeline_get_lead_bound (timeline), dark, error);
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
    return sluice_recorder_save_csv (sluice_run_model_get_recorder (self->model), path, error);
  if (g_str_has_suffix (lower, ".jsonl") || g_str_has_suffix (lower, ".ndjson") || g_str_has_suffix (lower, ".json"))
    return sluice_recorder_save_jsonl (sluice_run_model_get_recorder (self->model), path, error);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               _("Cannot export “%s”: the name must end in .csv or .jsonl"), path);
  return FALSE;
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_run_controller_dispose (GObject *object)
{
  SluiceRunController *self = SLUICE_RUN_CONTROLLER (object);

  if (self->runner != NULL && self->running)
    sluice_scenario_runner_cancel (self->runner);
  let_go_of_remote (self);
  remove_tick (self);
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
      g_value_set_object (value, self->feed != NULL ? sluice_remote_feed_get_pool (self->feed) : NULL);
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
  g_signal_connect_object (self->viewport, "notify::playhead", G_CALLBACK (show_playhead),
                           self, G_CONNECT_SWAPPED);
  return self;
}
