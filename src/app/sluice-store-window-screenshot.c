/* sluice-store-window-screenshot.c: `sluice --store URI --screenshot
 * FILE.png`: the job store window saved once the store answered
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-window-private.h"
#include "sluice-window-png.h"

#define SCREENSHOT_FRAMES 5

typedef struct {
  char   *path;
  guint   frames;
  gulong  updated_id;
} Screenshot;

static void
screenshot_free (Screenshot *shot)
{
  g_free (shot->path);
  g_free (shot);
}

static void
on_screenshot_paint (GdkFrameClock *frame_clock,
                     GTask         *task)
{
  SluiceStoreWindow *self = g_task_get_source_object (task);
  Screenshot *shot = g_task_get_task_data (task);
  GError *error = NULL;

  g_signal_handlers_disconnect_by_func (frame_clock, on_screenshot_paint, task);
  if (!sluice_window_save_png (GTK_WIDGET (self), shot->path, &error))
    g_task_return_error (task, error);
  else if (self->status == NULL && self->error_text != NULL)
    g_task_return_new_error (task, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND, "%s", self->error_text);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

/* A few frames after the answer, right after a paint: the layout is done. */
static gboolean
on_screenshot_tick (GtkWidget     *widget,
                    GdkFrameClock *frame_clock,
                    gpointer       user_data)
{
  GTask *task = user_data;
  Screenshot *shot = g_task_get_task_data (task);

  if (!gtk_widget_get_mapped (widget) || ++shot->frames < SCREENSHOT_FRAMES)
    return G_SOURCE_CONTINUE;

  g_signal_connect (frame_clock, "after-paint", G_CALLBACK (on_screenshot_paint), task);
  gtk_widget_queue_draw (widget);
  return G_SOURCE_REMOVE;
}

static void
start_screenshot (SluiceStoreWindow *self,
                  GTask             *task)
{
  Screenshot *shot = g_task_get_task_data (task);

  g_clear_signal_handler (&shot->updated_id, self);
  gtk_widget_add_tick_callback (GTK_WIDGET (self), on_screenshot_tick, task, NULL);
}

/**
 * sluice_store_window_screenshot_async:
 * @self: a #SluiceStoreWindow, shown
 * @path: the PNG file to write
 * @callback: called once it is written, or could not be
 * @user_data: data for @callback
 *
 * `sluice --store URI --screenshot FILE.png`: once the store's first
 * answer is shown (its status, or why it cannot be read), saves the
 * window as a PNG a few frames later.
 */
void
sluice_store_window_screenshot_async (SluiceStoreWindow   *self,
                                      const char          *path,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  GTask *task;
  Screenshot *shot;

  g_return_if_fail (SLUICE_IS_STORE_WINDOW (self));
  g_return_if_fail (path != NULL);

  /* The task's reference is the screenshot's own until it is written. */
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, sluice_store_window_screenshot_async);
  shot = g_new0 (Screenshot, 1);
  shot->path = g_strdup (path);
  g_task_set_task_data (task, shot, (GDestroyNotify) screenshot_free);
  if (self->n_updates > 0)
    start_screenshot (self, task);
  else
    shot->updated_id = g_signal_connect (self, "updated", G_CALLBACK (start_screenshot), task);
}

/**
 * sluice_store_window_screenshot_finish:
 * @self: a #SluiceStoreWindow
 * @result: the #GAsyncResult given to the callback
 * @error: return location for why: the PNG could not be written, or the
 *   store could not be read (the PNG then shows why)
 *
 * Returns: whether the PNG shows the store's status
 */
gboolean
sluice_store_window_screenshot_finish (SluiceStoreWindow  *self,
                                       GAsyncResult       *result,
                                       GError            **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
