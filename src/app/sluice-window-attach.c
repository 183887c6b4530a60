/* sluice-window-attach.c: Attach to a Running Pool…: the pool of another
 * program, watched live in the window's views
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-pool-browser.h"
#include "sluice-window-private.h"

/* Attached, the window is a monitor: the run controller fills the views
 * from the pool's events (sluice_run_controller_attach()), and the sidebar
 * shows the pool's configuration, read-only (insensitive: it describes
 * what another program runs, nothing here changes it). The configuration
 * comes in as a new scenario, as a recording's does: the one shown before
 * is asked about first when it has unsaved changes (win.attach), and Save
 * asks where. Run, Reset, Cancel, the pause and the step are off while the
 * pool is attached; Request Stop goes to the program, when it exported
 * the pool with control allowed. Once the remote run ended, the program
 * exited or the window detached, the window is the playground again, with
 * what came in the views, to scrub, save and export. */

/* The configuration of the pool as the scenario shown: a new one, from no
 * file, under the program's name. */
static void
show_remote_scenario (SluiceWindow     *self,
                      SluiceRemotePool *pool)
{
  const char *text = sluice_run_controller_get_scenario_text (self->run);
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *program = sluice_remote_pool_dup_program (pool);
  g_autofree char *title = sluice_remote_pool_dup_title (pool);
  g_autofree char *subtitle = NULL;

  scenario = text != NULL ? sluice_scenario_new_from_data (text, -1, sluice_remote_pool_get_bus_name (pool),
                                                           NULL, &error)
                          : NULL;
  /* The controller parsed the same text: it cannot fail here. */
  g_return_if_fail (scenario != NULL);

  /* The title is the pool's, its program's name unless it has its own. */
  if (title == NULL || *title == '\0' || g_strcmp0 (title, program) == 0)
    /* Translators: the window's subtitle while attached; %u is a process id */
    subtitle = g_strdup_printf (_("process %u"), sluice_remote_pool_get_pid (pool));
  else
    /* Translators: the window's subtitle while attached; %s is a program's
     * name, %u its process id */
    subtitle = g_strdup_printf (_("%s, process %u"), program != NULL ? program : "?",
                                sluice_remote_pool_get_pid (pool));
  /* The views follow the document's SluiceDocument::loaded. */
  sluice_document_replace (self->document, scenario, text, subtitle);
}

/**
 * sluice_window_attach:
 * @self: a #SluiceWindow
 * @pool: a pool another program exports (from a #SluicePoolBrowser)
 * @error: return location for why it cannot be attached
 *
 * What Attach in the attach dialog does: shows @pool live in the views,
 * and its configuration read-only in the sidebar, until its run ends, the
 * program exits or win.detach. The scenario shown before is replaced
 * without a question (win.attach asks first).
 *
 * Returns: whether it is attached (not while a run goes on)
 */
gboolean
sluice_window_attach (SluiceWindow      *self,
                      SluiceRemotePool  *pool,
                      GError           **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (pool), FALSE);

  if (!sluice_run_controller_attach (self->run, pool, error))
    return FALSE;
  show_remote_scenario (self, pool);
  _sluice_window_update_mode (self);
  _sluice_window_update_actions (self);
  return TRUE;
}

static void
on_pool_chosen (SluiceWindow     *self,
                SluiceRemotePool *pool)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (sluice_window_attach (self, pool, &error))
    return;
  /* Translators: %s says why */
  text = g_strdup_printf (_("Cannot attach: %s"), error->message);
  _sluice_window_set_banner (self, BANNER_ERROR, text);
}

/* Closed (Attach, Cancel, Escape): another win.attach opens a new one. */
static void
on_dialog_destroyed (SluiceWindow *self)
{
  g_clear_weak_pointer (&self->attach_dialog);
}

/**
 * _sluice_window_choose_pool:
 * @self: a #SluiceWindow
 *
 * Shows the attach dialog; Attach there attaches the pool chosen.
 */
void
_sluice_window_choose_pool (SluiceWindow *self)
{
  SluiceAttachDialog *dialog;

  if (self->attach_dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (self->attach_dialog));
      return;
    }

  dialog = sluice_attach_dialog_new (GTK_WINDOW (self));
  g_set_weak_pointer (&self->attach_dialog, GTK_WIDGET (dialog));
  g_signal_connect_object (dialog, "pool-chosen", G_CALLBACK (on_pool_chosen), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (dialog, "destroy", G_CALLBACK (on_dialog_destroyed), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * sluice_window_get_attach_dialog:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none) (nullable): the attach dialog while it is open
 */
SluiceAttachDialog *
sluice_window_get_attach_dialog (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return self->attach_dialog != NULL ? SLUICE_ATTACH_DIALOG (self->attach_dialog) : NULL;
}

/* ---- sluice --attach PID ------------------------------------------------- */

/* How long `--attach` waits for the program's pool to be on the bus. */
#define ATTACH_WAIT_SECONDS 10

typedef struct {
  GWeakRef           window;
  char              *target;     /* a PID, or a bus name */
  SluicePoolBrowser *browser;
  guint              timeout_id;
  gulong             items_id;
  GTask             *task;
} AttachTo;

static void
attach_to_free (AttachTo *a)
{
  g_weak_ref_clear (&a->window);
  g_free (a->target);
  if (a->browser != NULL)
    g_clear_signal_handler (&a->items_id, a->browser);
  g_clear_object (&a->browser);
  g_clear_handle_id (&a->timeout_id, g_source_remove);
  g_free (a);
}

static gboolean
pool_is_target (SluiceRemotePool *pool,
                const char       *target)
{
  guint64 pid = 0;

  if (g_strcmp0 (sluice_remote_pool_get_bus_name (pool), target) == 0)
    return TRUE;
  return g_ascii_string_to_unsigned (target, 10, 1, G_MAXUINT, &pid, NULL) &&
         sluice_remote_pool_get_pid (pool) == pid;
}

/* The task ends once: its data goes with it. */
static void
attach_to_end (GTask  *task,
               GError *error)
{
  AttachTo *a = g_task_get_task_data (task);

  if (a->browser != NULL)
    g_clear_signal_handler (&a->items_id, a->browser);
  g_clear_handle_id (&a->timeout_id, g_source_remove);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
on_pools_changed (GListModel *pools,
                  guint       position,
                  guint       removed,
                  guint       added,
                  gpointer    user_data)
{
  GTask *task = user_data;
  AttachTo *a = g_task_get_task_data (task);
  g_autoptr(SluiceWindow) window = g_weak_ref_get (&a->window);
  /* Ending the task lets go of the browser, which is emitting. */
  g_autoptr(GListModel) keep G_GNUC_UNUSED = g_object_ref (pools);

  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(SluiceRemotePool) pool = g_list_model_get_item (pools, i);
      GError *error = NULL;

      if (!pool_is_target (pool, a->target))
        continue;
      if (window == NULL || sluice_window_attach (window, pool, &error))
        attach_to_end (task, NULL);
      else
        attach_to_end (task, error);
      return;
    }
}

static gboolean
on_attach_timeout (gpointer user_data)
{
  GTask *task = user_data;
  AttachTo *a = g_task_get_task_data (task);

  a->timeout_id = 0;
  attach_to_end (task, g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                    /* Translators: %s is a process id or a D-Bus name, %d seconds */
                                    _("No program %s exports a pool on the session bus (waited %d s); start it "
                                      "with SLUICE_MONITOR=session"), a->target, ATTACH_WAIT_SECONDS));
  return G_SOURCE_REMOVE;
}

static void
on_attach_bus (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GTask *task = user_data;
  AttachTo *a = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr(GDBusConnection) bus = g_bus_get_finish (result, &error);

  if (bus == NULL)
    {
      attach_to_end (task, error);
      return;
    }
  a->browser = sluice_pool_browser_new (bus);
  a->items_id = g_signal_connect (a->browser, "items-changed", G_CALLBACK (on_pools_changed), task);
  a->timeout_id = g_timeout_add_seconds (ATTACH_WAIT_SECONDS, on_attach_timeout, task);
}

/**
 * sluice_window_attach_to_async:
 * @self: a #SluiceWindow
 * @target: a process id, or the bus name of a program that exports a pool
 * @callback: called once attached, or when it cannot be
 * @user_data: data for @callback
 *
 * `sluice --attach PID`: attaches to the first pool the program exports on
 * the session bus, waiting up to 10 s for it to appear there.
 */
void
sluice_window_attach_to_async (SluiceWindow        *self,
                               const char          *target,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task;
  AttachTo *a;

  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (target != NULL);

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, sluice_window_attach_to_async);
  a = g_new0 (AttachTo, 1);
  g_weak_ref_init (&a->window, self);
  a->target = g_strdup (target);
  g_task_set_task_data (task, a, (GDestroyNotify) attach_to_free);
  /* The task's reference is the attach's own until attach_to_end(). */
  g_bus_get (G_BUS_TYPE_SESSION, NULL, on_attach_bus, task);
}

/**
 * sluice_window_attach_to_finish:
 * @self: a #SluiceWindow
 * @result: the #GAsyncResult given to the callback
 * @error: return location for why it did not attach
 *
 * Returns: whether the window is attached
 */
gboolean
sluice_window_attach_to_finish (SluiceWindow  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
