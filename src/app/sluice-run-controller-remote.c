/* sluice-run-controller-remote.c: a pool of another program, attached on
 * D-Bus
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-run-controller-private.h"

/* The recorder of an attached run holds as many events as a local run's. */
#define REMOTE_RECORDER_CAPACITY 500000

/* The attached run is over here: the remote run ended, the program
 * exited, or the window detached. What came stays, to scrub, save and
 * export like a local run. */
static void
end_attached (SluiceRunController *self,
              SluiceRunStatus      kind,
              const char          *text)
{
  _sluice_run_controller_remove_tick (self);
  _sluice_run_controller_set_running (self, FALSE);
  _sluice_run_controller_update_views (self);
  _sluice_run_controller_emit_status (self, kind, text);
  _sluice_run_controller_emit_finished (self);
}

/* The newest run-end event among the @n_events just added, or NULL. */
static const SluiceEvent *
find_run_end (SluiceRunController *self,
              guint                n_events)
{
  SluiceRecorder *recorder = sluice_run_model_get_recorder (self->model);
  guint64 end = sluice_recorder_get_end_position (recorder);
  guint64 from = end > n_events ? end - n_events : 0;

  for (guint64 position = end; position-- > from; )
    {
      const SluiceEvent *event = sluice_recorder_lookup (recorder, position);

      if (event != NULL && event->kind == SLUICE_EVENT_RUN_END)
        return event;
    }
  return NULL;
}

/* The run-end event came: the run is over. The program may still read
 * results after it (their events follow the run's end), so the pool stays
 * attached for them until the program exits or the window detaches; the
 * views take them in as they come. */
static void
on_events_added (SluiceRunController *self,
                 guint                n_events)
{
  const SluiceEvent *end;
  g_autofree char *text = NULL;
  guint64 lost;

  if (!self->running)
    {
      _sluice_run_controller_update_views (self);
      return;
    }

  end = find_run_end (self, n_events);
  if (end == NULL)
    return;

  /* Translators: the banner when an attached pool's run ended; %u are counts. */
  text = g_strdup_printf (_("The attached run ended: %u of %u pulled items succeeded and %u failed. "
                            "Save it with File → Save Run, or scrub through it."),
                          end->succeeded, end->pulled, end->failed);
  lost = sluice_remote_pool_get_n_lost (self->remote);
  if (lost > 0)
    {
      /* Translators: appended to the banner of an ended attached run; %lu is a number of events */
      g_autofree char *missing = g_strdup_printf (ngettext (" %lu event did not arrive: the program's ring "
                                                            "dropped it while this window caught up.",
                                                            " %lu events did not arrive: the program's ring "
                                                            "dropped them while this window caught up.",
                                                            (gulong) lost), (gulong) lost);
      char *both = g_strconcat (text, missing, NULL);

      g_free (text);
      text = both;
    }
  end_attached (self, end->failed > 0 ? SLUICE_RUN_STATUS_ERROR : SLUICE_RUN_STATUS_OK, text);
}

/* Events lost while the run goes on: said at once, not only at the end.
 * The timeline marks where (the recorder's gap) and resynchronises there,
 * and the counters take the pool's own snapshot while attached. */
static void
on_lost (SluiceRunController *self)
{
  guint64 lost = sluice_remote_pool_get_n_lost (self->remote);
  g_autofree char *text = NULL;

  if (!self->running || lost == 0)
    return;

  /* Translators: the banner while an attached pool's events are lost; %lu
   * is a number of events */
  text = g_strdup_printf (ngettext ("%lu event did not arrive: the program's ring dropped it before this window "
                                    "read it. The chart marks where; the counters follow the pool's own snapshot.",
                                    "%lu events did not arrive: the program's ring dropped them before this window "
                                    "read them. The chart marks where; the counters follow the pool's own snapshot.",
                                    (gulong) lost), (gulong) lost);
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO, text);
}

static void
on_vanished (SluiceRunController *self)
{
  g_autofree char *program = NULL;
  g_autofree char *text = NULL;
  guint64 lost;

  if (!sluice_remote_pool_get_vanished (self->remote))
    return;

  program = sluice_remote_pool_dup_program (self->remote);
  lost = sluice_remote_pool_get_n_lost (self->remote);
  /* After the run's end, the banner keeps saying how it ended. */
  if (!self->running)
    {
      _sluice_run_controller_update_views (self);
      _sluice_run_controller_let_go_of_remote (self);
      return;
    }

  _sluice_run_controller_let_go_of_remote (self);
  if (lost > 0)
    /* Translators: %s is a program's name, %lu a number of events */
    text = g_strdup_printf (ngettext ("%s exited before its run ended. What it sent stays "
                                      "(%lu event did not arrive: the program's ring had dropped it).",
                                      "%s exited before its run ended. What it sent stays "
                                      "(%lu events did not arrive: the program's ring had dropped them).",
                                      (gulong) lost), program != NULL ? program : "?", (gulong) lost);
  else
    /* Translators: %s is a program's name */
    text = g_strdup_printf (_("%s exited before its run ended. What it sent stays: save it with "
                              "File → Save Run."), program != NULL ? program : "?");
  end_attached (self, SLUICE_RUN_STATUS_INFO, text);
}

/**
 * sluice_run_controller_attach:
 * @self: a #SluiceRunController
 * @pool: a pool another program exports
 * @error: return location for why it cannot be attached
 *
 * Clears the last run and shows @pool's, live, from its events: the
 * scenario is the pool's configuration (sluice_remote_pool_dup_scenario_text()),
 * #SluiceRunController:running is %TRUE until the remote run ends, the
 * program exits, or sluice_run_controller_detach(). After the run-end
 * event the pool stays attached (#SluiceRunController:remote) for the
 * results the program still reads, until it exits or is detached; the
 * views take them in. There is no report: the program has its own
 * (#SluiceRunController:report-note says so).
 *
 * Returns: whether it is attached (not while a run goes on, nor to a pool
 *   whose program has exited)
 */
gboolean
sluice_run_controller_attach (SluiceRunController  *self,
                              SluiceRemotePool     *pool,
                              GError              **error)
{
  g_autofree char *text = NULL;
  g_autofree char *program = NULL;
  g_autofree char *banner = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) recorder = NULL;
  g_autoptr(SluiceRunModel) model = NULL;

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
  text = sluice_remote_pool_dup_scenario_text (pool);
  scenario = sluice_scenario_new_from_data (text, -1, sluice_remote_pool_get_bus_name (pool), NULL, error);
  if (scenario == NULL)
    return FALSE;

  sluice_run_controller_reset (self);
  self->remote_lost = 0;
  recorder = sluice_recorder_new (REMOTE_RECORDER_CAPACITY);
  model = sluice_run_model_new (scenario, recorder);
  sluice_run_model_set_scenario_text (model, text);
  sluice_run_model_set_live (model, TRUE);
  sluice_run_model_set_report_note (model, _("An attached run has no report here: the program that ran it "
                                              "keeps its own. The counters, the chart, the lanes and the "
                                              "events are the program's."));
  sluice_viewport_set_playhead (self->viewport, -1);
  _sluice_run_controller_set_model (self, model);

  self->remote = g_object_ref (pool);
  g_signal_connect_swapped (pool, "events-added", G_CALLBACK (on_events_added), self);
  g_signal_connect_swapped (pool, "notify::vanished", G_CALLBACK (on_vanished), self);
  g_signal_connect_swapped (pool, "notify::n-lost", G_CALLBACK (on_lost), self);
  sluice_remote_pool_attach (pool, recorder);
  _sluice_run_controller_set_running (self, TRUE);
  _sluice_run_controller_notify_remote (self);
  _sluice_run_controller_add_tick (self);

  program = sluice_remote_pool_dup_program (pool);
  /* Translators: %s is a program's name, %u its process id. */
  banner = g_strdup_printf (_("Attached to %s (process %u): its pool's events arrive live. Detach with "
                              "Ctrl+Shift+D."), program != NULL ? program : "?", sluice_remote_pool_get_pid (pool));
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO, banner);
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

  if (self->remote == NULL)
    return;
  _sluice_run_controller_let_go_of_remote (self);
  if (self->running)
    end_attached (self, SLUICE_RUN_STATUS_INFO,
                  _("Detached: the program goes on without this window. What came stays: save it with "
                    "File → Save Run."));
}

static void
on_remote_stop_done (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(SluiceRunController) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (sluice_remote_pool_request_stop_finish (SLUICE_REMOTE_POOL (object), result, &error))
    return;
  /* Translators: %s says why, as the program or the bus put it. */
  text = g_strdup_printf (_("The program did not take the stop request: %s"),
                          g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED)
                            ? _("it was exported read-only (SLUICE_MONITOR=session,control allows it)")
                            : error->message);
  if (self->remote != NULL)
    _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_ERROR, text);
}

/**
 * _sluice_run_controller_request_remote_stop:
 * @self: a #SluiceRunController with an attached pool
 *
 * Asks the attached pool's program to stop it (`RequestStop`).
 */
void
_sluice_run_controller_request_remote_stop (SluiceRunController *self)
{
  sluice_remote_pool_request_stop_async (self->remote, NULL, on_remote_stop_done, g_object_ref (self));
  _sluice_run_controller_emit_status (self, SLUICE_RUN_STATUS_INFO,
                                      _("Stop requested: the program's pool pulls nothing more and drains what it "
                                        "has…"));
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
  return self->remote;
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
  return self->remote != NULL ? sluice_remote_pool_get_n_lost (self->remote) : self->remote_lost;
}

/**
 * _sluice_run_controller_take_remote_snapshot:
 * @self: a #SluiceRunController
 *
 * The busy workers and the queue depth of the attached pool's `Snapshot`.
 *
 * Returns: whether there is one
 */
gboolean
_sluice_run_controller_take_remote_snapshot (SluiceRunController *self)
{
  g_autoptr(GVariant) snapshot = self->remote != NULL ? sluice_remote_pool_dup_snapshot (self->remote) : NULL;
  guint32 busy, workers, depth;

  if (snapshot == NULL ||
      !g_variant_lookup (snapshot, "busy_workers", "u", &busy) ||
      !g_variant_lookup (snapshot, "workers", "u", &workers) ||
      !g_variant_lookup (snapshot, "queue_depth", "u", &depth))
    return FALSE;
  sluice_run_model_set_snapshot (self->model, busy, workers, depth);
  return TRUE;
}

/**
 * _sluice_run_controller_let_go_of_remote:
 * @self: a #SluiceRunController
 *
 * Unsubscribes from the attached pool, if one is; the recorder keeps what
 * came.
 */
void
_sluice_run_controller_let_go_of_remote (SluiceRunController *self)
{
  if (self->remote == NULL)
    return;
  self->remote_lost = sluice_remote_pool_get_n_lost (self->remote);
  g_signal_handlers_disconnect_by_data (self->remote, self);
  sluice_remote_pool_detach (self->remote);
  g_clear_object (&self->remote);
  _sluice_run_controller_notify_remote (self);
}
