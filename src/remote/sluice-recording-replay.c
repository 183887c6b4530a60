/* sluice-recording-replay.c: a recorded run's report, from running its
 * scenario again on the virtual clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-recording.h"

#include <glib/gi18n-lib.h>

#include "sluice-scenario-runner.h"

/* A recording holds events, and a report needs more than the events say
 * (the outcome and its error group, live operations, snapshots, metrics
 * calls that raised). A run on the virtual clock is deterministic: run
 * again, it gives the same events, and then its report is the recorded
 * run's. The events are compared line by line, so a report is only
 * given for a run it truly belongs to. */

typedef struct {
  SluiceScenarioRunner *runner;
  SluiceRecorder       *recorder;
} Replay;

static void
replay_free (gpointer data)
{
  Replay *replay = data;

  g_clear_object (&replay->runner);
  g_clear_object (&replay->recorder);
  g_free (replay);
}

/* The index of the first event line that differs, or -1 if none does. */
static gint64
find_difference (SluiceRecorder *recorded,
                 SluiceRecorder *replayed)
{
  guint n = sluice_recorder_get_n_events (recorded);

  for (guint i = 0; i < MAX (n, sluice_recorder_get_n_events (replayed)); i++)
    {
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;

      if (i >= n || i >= sluice_recorder_get_n_events (replayed))
        return i;
      a = sluice_recorder_event_to_line (sluice_recorder_get_event (recorded, i));
      b = sluice_recorder_event_to_line (sluice_recorder_get_event (replayed, i));
      if (g_strcmp0 (a, b) != 0)
        return i;
    }
  return -1;
}

static void
on_replayed (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SluiceRecording *self = g_task_get_source_object (task);
  Replay *replay = g_task_get_task_data (task);
  g_autoptr(SluiceReport) report = NULL;
  GError *error = NULL;
  gint64 difference;

  report = sluice_scenario_runner_run_finish (replay->runner, result, &error);
  if (report == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  difference = find_difference (sluice_recording_get_recorder (self), replay->recorder);
  if (difference >= 0)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, difference + 1);

      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               /* Translators: the first %s is a .sluicerun file, the second an
                                * event's number, from 1 */
                               _("%s: run again on the virtual clock, the scenario gives other events "
                                 "(from event %s on): the run was on the real clock or the file is "
                                 "not complete, so its report needs the run itself"),
                               sluice_recording_get_name (self), number);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&report), g_object_unref);
}

/**
 * sluice_recording_replay_async:
 * @self: a #SluiceRecording
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the report, or why there is none
 * @user_data: data for @callback
 *
 * Runs the recorded scenario again on the virtual clock, on the thread's
 * default main context, for its report. It is the recorded run's report
 * only if the new run's events equal the recording's, line for line;
 * sluice_recording_replay_finish() says so or gives an error.
 */
void
sluice_recording_replay_async (SluiceRecording     *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SluiceClock) clock = NULL;
  SluiceScenario *scenario;
  Replay *replay;

  g_return_if_fail (SLUICE_IS_RECORDING (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, sluice_recording_replay_async);
  scenario = sluice_recording_get_scenario (self);
  if (sluice_scenario_needs_real_time (scenario))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               /* Translators: %s is a .sluicerun file */
                               _("%s: its handler blocks or uses a thread, which takes real time: only the "
                                 "run itself has its report"),
                               sluice_recording_get_name (self));
      return;
    }

  replay = g_new0 (Replay, 1);
  replay->runner = sluice_scenario_runner_new (scenario);
  replay->recorder = sluice_recorder_new (0);
  clock = sluice_clock_new (SLUICE_CLOCK_VIRTUAL);
  sluice_scenario_runner_set_clock (replay->runner, clock);
  sluice_scenario_runner_set_recorder (replay->runner, replay->recorder);
  g_task_set_task_data (task, replay, replay_free);
  sluice_scenario_runner_run_async (replay->runner, cancellable, on_replayed, g_object_ref (task));
}

/**
 * sluice_recording_replay_finish:
 * @self: a #SluiceRecording
 * @result: the result given to the callback
 * @error: return location for why there is no report
 *
 * Returns: (transfer full) (nullable): the recorded run's report, or %NULL
 */
SluiceReport *
sluice_recording_replay_finish (SluiceRecording  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
