/* sluice-window-attach-worker.c: from a store job to its live lane: the
 * window attaches to the pool of the worker that holds the job and selects
 * the job's item in the lanes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-pool-browser.h"
#include "sluice-store-source.h"
#include "sluice-window-private.h"

/* docs/store-admin.md, "From a row to the live lane": a running job's lease
 * owner is the worker id of the `sluice-run worker` that claimed it, and
 * that worker exports its pool (SLUICE_MONITOR=session) with the label
 * worker-id=W. The window lists the pools on the session bus, attaches to
 * the one with that label the way Attach… does (sluice_window_attach()),
 * then waits for the pool's events until one pulls the job (its item is
 * the claim, SLUICE_STORE_ITEM_TYPE: job id, operation key, attempt,
 * payload) and selects that item in the lanes. No such pool, or a pool
 * whose events never pulled the job, is said in the banner. */

#define WORKER_LABEL "worker-id"
#define DATA_KEY "sluice-attach-worker"

typedef struct {
  SluiceWindow      *window;    /* owns this (its object data) */
  char              *worker_id;
  char              *job_key;   /* the job's id or its operation key */
  SluicePoolBrowser *browser;
  SluiceRemotePool  *pool;      /* attached, until the job's item is found */
} AttachWorker;

static void
attach_worker_free (AttachWorker *a)
{
  if (a->browser != NULL)
    g_signal_handlers_disconnect_by_data (a->browser, a);
  if (a->pool != NULL)
    g_signal_handlers_disconnect_by_data (a->pool, a);
  g_clear_object (&a->browser);
  g_clear_object (&a->pool);
  g_free (a->worker_id);
  g_free (a->job_key);
  g_free (a);
}

/* Done (found, or said why not): frees @a. */
static void
finish (AttachWorker *a)
{
  g_object_set_data (G_OBJECT (a->window), DATA_KEY, NULL);
}

static gboolean
is_the_job (const SluiceEvent *event,
            const char        *job_key)
{
  const char *id, *operation_key;

  if (event->kind != SLUICE_EVENT_PULL || event->value == NULL ||
      !g_variant_is_of_type (event->value, SLUICE_STORE_ITEM_TYPE))
    return FALSE;
  g_variant_get (event->value, "(&s&su&s)", &id, &operation_key, NULL, NULL);
  return g_str_equal (id, job_key) || g_str_equal (operation_key, job_key);
}

/* The item of the latest pull of the job (its running attempt), or -1. */
static gint64
find_job_item (SluiceWindow *self,
               const char   *job_key)
{
  SluiceRecorder *recorder = sluice_run_model_get_recorder (sluice_run_controller_get_model (self->run));

  for (guint i = sluice_recorder_get_n_events (recorder); i > 0; i--)
    {
      const SluiceEvent *event = sluice_recorder_get_event (recorder, i - 1);

      if (is_the_job (event, job_key))
        return event->item;
    }
  return -1;
}

/* After each batch of the pool's events: the job's item selected once it
 * came; once every event the pool held came without it, the banner says so. */
static void
look_for_job (AttachWorker *a)
{
  /* Done, @a lets go of the pool, which may be emitting. */
  g_autoptr(SluiceRemotePool) keep G_GNUC_UNUSED = a->pool != NULL ? g_object_ref (a->pool) : NULL;
  gint64 item = find_job_item (a->window, a->job_key);
  g_autofree char *text = NULL;

  if (item >= 0)
    {
      sluice_timeline_view_set_selected_item (a->window->timeline_view, item);
      finish (a);
      return;
    }
  if (!sluice_remote_pool_get_caught_up (a->pool) && !sluice_remote_pool_get_vanished (a->pool))
    return;
  /* Translators: the banner when a worker's pool never ran the job: %s is
   * the worker's id, then the job's id or key */
  text = g_strdup_printf (_("Worker %s's pool holds no job %s: it finished, or another worker has it now."),
                          a->worker_id, a->job_key);
  _sluice_window_set_banner (a->window, BANNER_ERROR, text);
  finish (a);
}

static gboolean
attached_to (SluiceWindow     *self,
             SluiceRemotePool *pool)
{
  SluiceRemotePool *remote = sluice_run_controller_get_remote (self->run);

  return remote != NULL &&
         g_str_equal (sluice_remote_pool_get_bus_name (remote), sluice_remote_pool_get_bus_name (pool)) &&
         g_str_equal (sluice_remote_pool_get_object_path (remote), sluice_remote_pool_get_object_path (pool));
}

/* The worker's pool is found: attached (unless it is already), then the
 * job's item is looked for as its events come. */
static void
attach_pool (AttachWorker     *a,
             SluiceRemotePool *pool)
{
  g_autoptr(GError) error = NULL;

  /* Watching another worker's pool: this one takes its place, as the
   * store window's rows of several workers lead to each in turn. */
  if (sluice_run_controller_get_remote (a->window->run) != NULL && !attached_to (a->window, pool))
    sluice_run_controller_detach (a->window->run);
  if (!attached_to (a->window, pool) && !sluice_window_attach (a->window, pool, &error))
    {
      /* Translators: %s says why */
      g_autofree char *text = g_strdup_printf (_("Cannot attach: %s"), error->message);

      _sluice_window_set_banner (a->window, BANNER_ERROR, text);
      finish (a);
      return;
    }
  a->pool = g_object_ref (sluice_run_controller_get_remote (a->window->run));
  g_signal_connect_swapped (a->pool, "events-added", G_CALLBACK (look_for_job), a);
  g_signal_connect_swapped (a->pool, "notify::caught-up", G_CALLBACK (look_for_job), a);
  g_signal_connect_swapped (a->pool, "notify::vanished", G_CALLBACK (look_for_job), a);
  look_for_job (a);
}

/* The browser asked every exporting process: the pool labelled with the
 * worker id, or the banner says there is none. */
static void
on_browser_loading (AttachWorker *a)
{
  /* Done, @a lets go of the browser, which may be notifying. */
  g_autoptr(SluicePoolBrowser) keep G_GNUC_UNUSED = g_object_ref (a->browser);
  g_autoptr(SluiceRemotePool) pool = NULL;
  g_autofree char *text = NULL;

  if (sluice_pool_browser_get_loading (a->browser))
    return;
  g_signal_handlers_disconnect_by_data (a->browser, a);
  pool = sluice_pool_browser_find_label (a->browser, WORKER_LABEL, a->worker_id);
  if (pool != NULL)
    {
      attach_pool (a, pool);
      return;
    }
  /* Translators: the banner when no program on the session bus is the
   * worker that holds a job; %s is the worker's id (its lease owner) */
  text = g_strdup_printf (_("No pool of worker %s is on the session bus: start the worker with "
                            "SLUICE_MONITOR=session to see its lanes."), a->worker_id);
  _sluice_window_set_banner (a->window, BANNER_ERROR, text);
  finish (a);
}

static void
on_bus (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(SluiceWindow) window = user_data;
  AttachWorker *a = g_object_get_data (G_OBJECT (window), DATA_KEY);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = g_bus_get_finish (result, &error);
  g_autofree char *text = NULL;

  /* Another request, or none any more (the window let go of it). */
  if (a == NULL || a->browser != NULL)
    return;
  if (bus == NULL)
    {
      /* Translators: %s says why */
      text = g_strdup_printf (_("Cannot reach the session bus: %s"), error->message);
      _sluice_window_set_banner (window, BANNER_ERROR, text);
      finish (a);
      return;
    }
  a->browser = sluice_pool_browser_new (bus);
  g_signal_connect_swapped (a->browser, "notify::loading", G_CALLBACK (on_browser_loading), a);
  on_browser_loading (a);
}

/**
 * _sluice_window_attach_worker:
 * @self: a #SluiceWindow
 * @worker_id: a job's lease owner: the worker id of `sluice-run worker`
 * @job_key: the job's id or operation key
 *
 * What win.attach-worker does: attaches the window to the pool the worker
 * exports on the session bus and selects the job's item in the lanes, or
 * says in the banner why it cannot. A request replaces the one before.
 */
void
_sluice_window_attach_worker (SluiceWindow *self,
                              const char   *worker_id,
                              const char   *job_key)
{
  AttachWorker *a;

  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (worker_id != NULL && job_key != NULL);

  a = g_new0 (AttachWorker, 1);
  a->window = self;
  a->worker_id = g_strdup (worker_id);
  a->job_key = g_strdup (job_key);
  g_object_set_data_full (G_OBJECT (self), DATA_KEY, a, (GDestroyNotify) attach_worker_free);
  g_bus_get (G_BUS_TYPE_SESSION, NULL, on_bus, g_object_ref (self));
}
