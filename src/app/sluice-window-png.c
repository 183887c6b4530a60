/* sluice-window-png.c: a toplevel window saved as a PNG, as `--screenshot`
 * saves the playground (sluice-batch.c) and the job store window
 * (sluice-store-window-screenshot.c)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-png.h"

/**
 * sluice_window_save_png:
 * @window: a realized toplevel (a #GtkNative)
 * @path: where the PNG goes
 * @error: return location for an error
 *
 * The window's paintable draws its client-side frame too (the resize
 * border around the content): drawn at the paintable's own size, the
 * content keeps its pixels, and the picture is cut to the window's
 * size, so a pixel of the PNG is that point of the window.
 *
 * Returns: %TRUE once the PNG is written
 */
gboolean
sluice_window_save_png (GtkWidget   *window,
                        const char  *path,
                        GError     **error)
{
  int width = gtk_widget_get_width (window);
  int height = gtk_widget_get_height (window);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GBytes) png = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (GTK_NATIVE (window));
  graphene_rect_t frame;

  if (!gtk_widget_compute_bounds (window, window, &frame))
    frame = GRAPHENE_RECT_INIT (0, 0, width, height);
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), frame.size.width, frame.size.height);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("the window drew nothing"));
      return FALSE;
    }

  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (-frame.origin.x, -frame.origin.y, width, height));
  png = gdk_texture_save_to_png_bytes (texture);
  /* Written whole under another name and renamed: a killed run never
   * leaves half a picture under this name. */
  return g_file_set_contents (path, g_bytes_get_data (png, NULL), (gssize) g_bytes_get_size (png), error);
}
