/* sluice-run-controller-exports.c: what a run controller hands out: its
 * models, and the last run as a recording, an image or a list of events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-render-export.h"
#include "sluice-run-controller-private.h"

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
