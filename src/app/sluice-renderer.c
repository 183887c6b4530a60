/* sluice-renderer.c: which GSK renderer the app's windows draw with
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <epoxy/gl.h>
#include <string.h>

#include "sluice-renderer.h"

/*
 * GTK 4.8's GL renderer draws the whole window at every frame. On a GPU
 * that is nothing; on a software rasterizer (Mesa's llvmpipe, as under
 * Xvfb, in a virtual machine or over remote desktop) it costs 50–150 ms
 * a frame for a 1024×768 window on two cores, even when one small widget
 * changed (measured with a window of twenty buttons and one 100×20 area
 * drawn anew each frame), against under a millisecond for the cairo
 * renderer, which draws only what changed. A live run wants 30 frames a
 * second and the pool's turns in between: so unless the person chose a
 * renderer with GSK_RENDERER, the app draws with cairo where GL is done
 * in software, as browsers do.
 */

/**
 * sluice_renderer_gl_is_software:
 * @gl_renderer: (nullable): the GL_RENDERER string of an OpenGL context
 *
 * Returns: whether it names a rasterizer that runs on the CPU (llvmpipe,
 *   softpipe, swrast)
 */
gboolean
sluice_renderer_gl_is_software (const char *gl_renderer)
{
  static const char *const software[] = { "llvmpipe", "softpipe", "software rasterizer", "swrast" };
  g_autofree char *lower = NULL;

  if (gl_renderer == NULL)
    return FALSE;

  lower = g_ascii_strdown (gl_renderer, -1);
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (lower, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* The GL_RENDERER of @display's OpenGL, or NULL without OpenGL. */
static char *
dup_gl_renderer (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  char *name;

  if (!gdk_display_prepare_gl (display, NULL))
    return NULL;
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return NULL;

  gdk_gl_context_make_current (context);
  name = g_strdup ((const char *) glGetString (GL_RENDERER));
  gdk_gl_context_clear_current ();
  return name;
}

/**
 * sluice_renderer_choose:
 * @display: the display the windows will be on
 *
 * Has the windows made from now on draw with cairo when @display's OpenGL
 * is done in software and the person chose no renderer (GSK_RENDERER
 * unset): it sets GSK_RENDERER, which GTK reads when it makes the first
 * window's renderer, so call it before any window is shown.
 *
 * Returns: (nullable): "cairo" when it chose cairo, else %NULL (GTK's own
 *   choice, or the person's)
 */
const char *
sluice_renderer_choose (GdkDisplay *display)
{
  g_autofree char *gl_renderer = NULL;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), NULL);

  if (g_getenv ("GSK_RENDERER") != NULL)
    return NULL;

  gl_renderer = dup_gl_renderer (display);
  if (!sluice_renderer_gl_is_software (gl_renderer))
    return NULL;

  g_debug ("OpenGL is %s, done in software: the windows draw with cairo", gl_renderer);
  g_setenv ("GSK_RENDERER", "cairo", TRUE);
  return "cairo";
}
