/* sluice-run-controller-steering.c: steering a run: stop, close, submit,
 * give up, cancel, the speed, the pause and the step
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-run-controller-private.h"

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

  if (self->remote != NULL)
    {
      _sluice_run_controller_request_remote_stop (self);
      return;
    }
  sluice_scenario_runner_request_stop (self->runner);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
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
