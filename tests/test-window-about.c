/* test-window-about.c: the About dialog's icon resolves when the app runs
 * uninstalled (no icon in any data directory) and installed (the hicolor
 * layout data/meson.build installs), under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "sluice-application.h"

#define APP_ID "io.github.sluicepool.Sluice"

/* Whether @theme finds @name itself, not a fallback. */
static gboolean
resolves (GtkIconTheme *theme,
          const char   *name)
{
  g_autoptr(GtkIconPaintable) icon = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *uri = NULL;

  if (!gtk_icon_theme_has_icon (theme, name))
    return FALSE;
  icon = gtk_icon_theme_lookup_icon (theme, name, NULL, 128, 1, GTK_TEXT_DIR_LTR, 0);
  file = gtk_icon_paintable_get_file (icon);
  uri = file != NULL ? g_file_get_uri (file) : NULL;
  return uri != NULL && strstr (uri, name) != NULL;
}

/* Uninstalled: the data directories hold no icon (main() points them at
 * an empty one); the application's own resources give it. */
static void
test_about_icon_resolves_uninstalled (void)
{
  g_autoptr(SluiceApplication) app = sluice_application_new ();
  g_autoptr(GError) error = NULL;
  GtkIconTheme *theme = gtk_icon_theme_get_for_display (gdk_display_get_default ());

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_assert_true (resolves (theme, APP_ID));
  g_assert_true (resolves (theme, APP_ID "-symbolic"));
}

/* Installed: the hicolor theme of the prefix's data directory, as
 * data/meson.build lays it out, gives the icon by the same name. */
static void
test_about_icon_resolves_installed (void)
{
  g_autoptr(GtkIconTheme) theme = gtk_icon_theme_new ();
  g_autofree char *icons = g_test_build_filename (G_TEST_DIST, "..", "data", "icons", NULL);
  const char *path[] = { icons, NULL };

  gtk_icon_theme_set_search_path (theme, path);
  gtk_icon_theme_set_theme_name (theme, "hicolor");
  g_assert_true (resolves (theme, APP_ID));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *empty = g_dir_make_tmp ("sluice-about-XXXXXX", NULL);
  int status;

  /* No installed icon anywhere: only the app itself can give it. */
  g_setenv ("XDG_DATA_DIRS", empty, TRUE);
  g_setenv ("XDG_DATA_HOME", empty, TRUE);
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-about/icon-resolves-uninstalled", test_about_icon_resolves_uninstalled);
  g_test_add_func ("/window-about/icon-resolves-installed", test_about_icon_resolves_installed);

  status = g_test_run ();
  g_rmdir (empty);
  return status;
}
