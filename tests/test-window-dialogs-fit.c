/* test-window-dialogs-fit.c: the Shortcuts window and every dialog fit a
 * 1024×768 projector (issue 26, item 1), in English and in German (the
 * Shortcuts window in Indonesian too)
 *
 * With the playground window in projector mode, each window it opens
 * (the Shortcuts window, the file choosers for Open, Save, Save Run and
 * Compare, the Compare window, the Attach and Store dialogs, About and
 * the lesson plan) is opened as its action opens it and measured: it is at
 * most 1024 × 768 pixels, and it shows projector mode's larger text (the
 * `projector` style class) where the app draws it.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>
#include <glib/gi18n.h>

#include "sluice-application.h"
#include "sluice-compare-window.h"
#include "sluice-help-overlay.h"
#include "window-fixture.h"
#include "test-helpers.h"

#define SCREEN_WIDTH  1024
#define SCREEN_HEIGHT 768

/* The toplevel windows other than @window and those in @before. */
static GtkWindow *
find_new_toplevel (GtkWindow  *window,
                   GListModel *before)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) w = g_list_model_get_item (toplevels, i);
      gboolean known = w == window;

      for (guint j = 0; j < g_list_model_get_n_items (before) && !known; j++)
        {
          g_autoptr(GtkWindow) old = g_list_model_get_item (before, j);

          known = old == w;
        }
      if (!known && gtk_widget_get_visible (GTK_WIDGET (w)))
        return w;
    }
  return NULL;
}

static GListModel *
copy_toplevels (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GListStore *copy = g_list_store_new (GTK_TYPE_WINDOW);

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (toplevels, i);

      g_list_store_append (copy, w);
    }
  return G_LIST_MODEL (copy);
}

/* With SLUICE_TEST_SHOTS set to a folder, a picture of @dialog there, to
 * look at. */
static void
save_shot (GtkWindow  *dialog,
           const char *what)
{
  const char *folder = g_getenv ("SLUICE_TEST_SHOTS");
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  if (folder == NULL || *folder == '\0')
    return;
  name = g_strdup_printf ("%s-%s", what, *g_getenv ("LANGUAGE") != '\0' ? g_getenv ("LANGUAGE") : "en");
  g_strdelimit (name, " ,.:", '-');
  path = g_strconcat (folder, G_DIR_SEPARATOR_S, name, ".png", NULL);
  paintable = gtk_widget_paintable_new (GTK_WIDGET (dialog));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gdk_paintable_get_intrinsic_width (paintable),
                          gdk_paintable_get_intrinsic_height (paintable));
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (dialog)), node, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* With SLUICE_TEST_SHOTS set, a picture of each page of the Shortcuts
 * window's section. */
static void
save_pages (GtkWindow *overlay)
{
  GtkWidget *section = window_fixture_find_widget (GTK_WIDGET (overlay), GTK_TYPE_SHORTCUTS_SECTION);
  GtkWidget *stack = window_fixture_find_widget (section, GTK_TYPE_STACK);
  guint i = 0;

  if (g_getenv ("SLUICE_TEST_SHOTS") == NULL)
    return;
  for (GtkWidget *page = gtk_widget_get_first_child (stack); page != NULL; page = gtk_widget_get_next_sibling (page))
    {
      g_autofree char *what = g_strdup_printf ("the Shortcuts window, page %u", ++i);

      gtk_stack_set_visible_child (GTK_STACK (stack), page);
      window_fixture_wait_for_frames (GTK_WIDGET (overlay), 3);
      save_shot (overlay, what);
    }
}

/* @dialog as shown, and as large as it asks to be: at most the screen. */
static void
assert_fits (GtkWindow  *dialog,
             const char *what)
{
  int min_w, nat_w, min_h, nat_h;

  window_fixture_wait_for_frames (GTK_WIDGET (dialog), 3);
  gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, &nat_w, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (dialog), GTK_ORIENTATION_VERTICAL, nat_w, &min_h, &nat_h, NULL, NULL);
  g_test_message ("%s: shown %d × %d, natural %d × %d, least %d × %d, projector class %s", what,
                  gtk_widget_get_width (GTK_WIDGET (dialog)), gtk_widget_get_height (GTK_WIDGET (dialog)),
                  nat_w, nat_h, min_w, min_h, gtk_widget_has_css_class (GTK_WIDGET (dialog), "projector") ? "yes" : "no");
  save_shot (dialog, what);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (dialog)), <=, SCREEN_WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (dialog)), <=, SCREEN_HEIGHT);
  g_assert_cmpint (min_w, <=, SCREEN_WIDTH);
  g_assert_cmpint (min_h, <=, SCREEN_HEIGHT);
}

/* Measures @dialog, then closes it. */
static void
check_dialog (GtkWindow  *dialog,
              const char *what,
              gboolean    projector_class)
{
  g_object_ref (dialog);
  assert_fits (dialog, what);
  if (projector_class)
    g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (dialog), "projector"));
  gtk_window_destroy (dialog);
  g_object_unref (dialog);
}

/* The Compare window, as Compare… opens it once a file is chosen. */
static void
check_compare (SluiceWindow *window)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "retries.pool", NULL);
  g_autoptr(GError) error = NULL;
  SluiceCompareWindow *compare = sluice_window_compare_with_file (window, path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (compare);
  check_dialog (GTK_WINDOW (compare), "the Compare window", TRUE);
}

/* Activates @action on @window and measures the window it opens. */
static void
check_action (SluiceWindow *window,
              const char   *action,
              gboolean      projector_class)
{
  g_autoptr(GListModel) before = copy_toplevels ();
  GtkWindow *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), action, NULL));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  dialog = find_new_toplevel (GTK_WINDOW (window), before);
  if (dialog == NULL)
    g_error ("%s opened no window", action);
  check_dialog (dialog, action, projector_class);
}

static SluiceWindow *
open_projector_window (GSettings *settings)
{
  SluiceWindow *window = window_fixture_new_projector (settings);

  gtk_window_present (GTK_WINDOW (window));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  return window;
}

/* The Shortcuts window, built as GtkApplication builds it for the app's
 * windows and fitted as the application fits it (app.shortcuts shows it),
 * in projector mode and out of it: two columns of short titles, whose
 * text grows with projector mode's. */
static void
test_shortcuts_window_fits (gconstpointer data)
{
  const SluiceTestLanguage *language = data;
  g_autoptr(GtkBuilder) builder = NULL;
  GtkCssProvider *css;
  GtkWindow *overlay;

  if (!sluice_test_try_language (language->language))
    return;
  /* GTK 4.8's own GtkShortcutsWindow warns "GtkLabel … reported min width
   * -4" while it measures (a GTK bug, not the app's): warnings are not
   * fatal in this test, and only until its end. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);

  css = window_fixture_add_app_style ();
  builder = gtk_builder_new_from_resource ("/io/github/sluicepool/Sluice/gtk/help-overlay.ui");
  overlay = g_object_ref (GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay")));
  sluice_help_overlay_set_projector (overlay, TRUE);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (overlay), "projector"));
  gtk_window_present (overlay);
  assert_fits (overlay, "the Shortcuts window");
  save_pages (overlay);

  /* Out of projector mode again: the normal text. */
  sluice_help_overlay_set_projector (overlay, FALSE);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (overlay), "projector"));
  assert_fits (overlay, "the Shortcuts window, normal text");

  gtk_window_destroy (overlay);
  g_object_unref (overlay);
  window_fixture_remove_app_style (css);
  sluice_test_set_language ("");
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
}

/* The dialogs the window opens: the app's own in projector mode's text. */
static void
test_dialogs_fit (gconstpointer data)
{
  const SluiceTestLanguage *language = data;
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  GtkCssProvider *css;
  SluiceWindow *window;

  if (!sluice_test_try_language (language->language))
    return;

  css = window_fixture_add_app_style ();
  window = open_projector_window (settings);
  g_assert_true (sluice_window_open_preset (window, "retries", NULL));

  check_action (window, "win.attach", TRUE);
  check_action (window, "win.open-store", TRUE);
  check_action (window, "win.show-lesson-plan", TRUE);
  /* GtkFileChooserNative: a portal's dialog where there is one, else
   * GTK's own (as under Xvfb), which takes projector mode's text. */
  check_action (window, "win.open", TRUE);
  check_action (window, "win.save-as", TRUE);
  check_action (window, "win.compare", TRUE);

  window_fixture_run_virtual (window);
  check_action (window, "win.save-run", TRUE);

  check_dialog (sluice_application_show_about (GTK_WINDOW (window)), "About", TRUE);
  check_compare (window);

  window_fixture_close (window);
  window_fixture_remove_app_style (css);
  sluice_test_set_language ("");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  /* Every window measured, even after one that does not fit. */
  g_test_set_nonfatal_assertions ();

  g_test_add_data_func ("/window/dialogs-fit/shortcuts/1024x768-projector/en", &sluice_test_languages[0],
                        test_shortcuts_window_fits);
  g_test_add_data_func ("/window/dialogs-fit/shortcuts/1024x768-projector/de", &sluice_test_languages[1],
                        test_shortcuts_window_fits);
  g_test_add_data_func ("/window/dialogs-fit/shortcuts/1024x768-projector/id", &sluice_test_languages[2],
                        test_shortcuts_window_fits);
  g_test_add_data_func ("/window/dialogs-fit/dialogs/1024x768-projector/en", &sluice_test_languages[0], test_dialogs_fit);
  g_test_add_data_func ("/window/dialogs-fit/dialogs/1024x768-projector/de", &sluice_test_languages[1], test_dialogs_fit);
  return g_test_run ();
}
