/* sluice-run-controller-views.c: what each frame of a run moves: the run
 * model reads the new events, the viewport follows its now line
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-run-controller-private.h"

/**
 * _sluice_run_controller_now:
 * @self: a #SluiceRunController
 *
 * Returns: the run's clock, never behind what was shown
 */
gint64
_sluice_run_controller_now (SluiceRunController *self)
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
  else if (self->running)
    _sluice_run_controller_take_remote_snapshot (self);
}

/**
 * _sluice_run_controller_update_views:
 * @self: a #SluiceRunController
 *
 * Has the run model read the events recorded since the last call, moves
 * the viewport with its now line and the banner's countdown. Once per
 * frame, and once more at the end of the run.
 */
void
_sluice_run_controller_update_views (SluiceRunController *self)
{
  SluiceRunModel *model = self->model;
  gint64 start, now;

  if (!sluice_run_model_get_has_run (model))
    return;

  take_snapshot (self);
  sluice_run_model_update (model, self->running ? _sluice_run_controller_now (self) : 0);
  start = sluice_run_model_get_end (model)->start_time;
  now = sluice_run_model_get_now (model);
  /* A viewport that fits follows the run; a zoomed one stays put. */
  sluice_viewport_set_bounds (self->viewport, start, MAX (now, start + SLUICE_RUN_CONTROLLER_MIN_SPAN_US));
  _sluice_run_controller_update_countdown (self);
}

/**
 * _sluice_run_controller_show_playhead:
 * @self: a #SluiceRunController
 *
 * Moves the run model to the viewport's playhead. A live run shows now:
 * a playhead set while it runs is taken back.
 */
void
_sluice_run_controller_show_playhead (SluiceRunController *self)
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
  _sluice_run_controller_update_views (SLUICE_RUN_CONTROLLER (user_data));
  return G_SOURCE_CONTINUE;
}

/**
 * _sluice_run_controller_add_tick:
 * @self: a #SluiceRunController
 *
 * Moves the models at every frame of the frame widget from now on.
 */
void
_sluice_run_controller_add_tick (SluiceRunController *self)
{
  self->tick_id = gtk_widget_add_tick_callback (self->frame_widget, on_tick, self, NULL);
}

/**
 * _sluice_run_controller_remove_tick:
 * @self: a #SluiceRunController
 *
 * Stops the moves at every frame, if they were on.
 */
void
_sluice_run_controller_remove_tick (SluiceRunController *self)
{
  if (self->tick_id != 0 && self->frame_widget != NULL)
    gtk_widget_remove_tick_callback (self->frame_widget, self->tick_id);
  self->tick_id = 0;
}
