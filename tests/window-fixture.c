/* window-fixture.c: opening, running and closing the playground window in
 * the window tests (under Xvfb)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>

#include "sluice-config-panel.h"
#include "window-fixture.h"

#define RUN_TIMEOUT_S 60

static gboolean
on_timeout (gpointer user_data)
{
  g_error ("the run did not end within %d s", RUN_TIMEOUT_S);
  return G_SOURCE_REMOVE;
}

/* A watchdog for a loop that waits on the window: remove it with
 * g_source_remove() once the wait is over. */
guint
window_fixture_add_timeout (void)
{
  return g_timeout_add_seconds (RUN_TIMEOUT_S, on_timeout, NULL);
}

/* A window shown, with a reference the test gives back to
 * window_fixture_close(). */
SluiceWindow *
window_fixture_new (void)
{
  SluiceWindow *window = g_object_ref (sluice_window_new (NULL));

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

SluiceWindow *
window_fixture_open (const char *preset)
{
  SluiceWindow *window = window_fixture_new ();

  g_assert_true (sluice_window_open_preset (window, preset, NULL));
  return window;
}

/* Destroys @window and checks that nothing kept it alive. */
void
window_fixture_close (SluiceWindow *window)
{
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_finalize_object (window);
}

/* Until the run ends, or the test fails. */
void
window_fixture_wait_for_end (SluiceWindow *window)
{
  guint timeout_id = window_fixture_add_timeout ();

  while (sluice_window_get_running (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

/* Runs the loaded scenario on the virtual clock through win.run, at once
 * rather than played on the paced clock (check-playback.sh plays). */
void
window_fixture_run_virtual (SluiceWindow *window)
{
  SluiceConfigPanel *panel = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));

  sluice_config_panel_set_field_text (panel, "run", "clock", "virtual");
  g_assert_nonnull (sluice_config_panel_get_scenario (panel));
  sluice_run_controller_set_instant (sluice_window_get_run_controller (window), TRUE);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  g_assert_true (sluice_window_get_running (window));
  window_fixture_wait_for_end (window);
}

/* The first widget of @type in @widget's tree (depth first), or NULL. */
GtkWidget *
window_fixture_find_widget (GtkWidget *widget,
                            GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = window_fixture_find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The first widget shown under @widget (depth first) whose action is
 * @action_name, as a person would press it (a header button), or NULL. */
GtkWidget *
window_fixture_find_actionable (GtkWidget  *widget,
                                const char *action_name)
{
  if (GTK_IS_ACTIONABLE (widget) && gtk_widget_is_visible (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), action_name) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = window_fixture_find_actionable (child, action_name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* As the app looks: its style sheet on the display, until removed with
 * window_fixture_remove_app_style(). */
GtkCssProvider *
window_fixture_add_app_style (void)
{
  GtkCssProvider *css = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (css, "/io/github/sluicepool/Sluice/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  return css;
}

void
window_fixture_remove_app_style (GtkCssProvider *css)
{
  gtk_style_context_remove_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css));
  g_object_unref (css);
}

static gboolean
count_frame (GtkWidget     *widget,
             GdkFrameClock *frame_clock,
             gpointer       user_data)
{
  guint *frames = user_data;

  (*frames)++;
  return G_SOURCE_CONTINUE;
}

/* A few frames drawn: the layout is done at the window's size. */
void
window_fixture_wait_for_frames (GtkWidget *widget,
                                guint      n)
{
  guint frames = 0;
  guint tick_id = gtk_widget_add_tick_callback (widget, count_frame, &frames, NULL);
  guint timeout_id = window_fixture_add_timeout ();

  while (frames < n)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
  gtk_widget_remove_tick_callback (widget, tick_id);
}

/* The parameter type of the window's class action @name, or NULL. */
static const GVariantType *
action_parameter_type (SluiceWindow *window,
                       const char   *name)
{
  GtkWidgetClass *klass = GTK_WIDGET_GET_CLASS (window);
  const char *action_name, *property;
  const GVariantType *type;
  GType owner;

  /* GTK 4.8 writes every one of them. */
  for (guint i = 0; gtk_widget_class_query_action (klass, i, &owner, &action_name, &type, &property); i++)
    if (g_str_equal (action_name, name))
      return type;
  g_error ("the window has no action %s", name);
  return NULL;
}

/**
 * window_fixture_action_enabled:
 * @window: a window
 * @name: one of its class's actions, such as "win.run"
 *
 * Whether @name is enabled, as a button for it would show: GTK 4.8 has no
 * getter for a class action's state, so a probe button (in a page of the
 * window's stack that is never shown) takes the action and its
 * sensitivity says.
 *
 * Returns: whether the action is enabled
 */
gboolean
window_fixture_action_enabled (SluiceWindow *window,
                               const char   *name)
{
  GtkStack *stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (window)));
  const GVariantType *type = action_parameter_type (window, name);
  GtkWidget *probe = gtk_button_new ();
  gboolean enabled;

  gtk_actionable_set_action_name (GTK_ACTIONABLE (probe), name);
  if (type != NULL && g_variant_type_equal (type, G_VARIANT_TYPE_STRING))
    gtk_actionable_set_action_target_value (GTK_ACTIONABLE (probe), g_variant_new_string (""));
  gtk_stack_add_child (stack, probe);
  enabled = gtk_widget_get_sensitive (probe);
  gtk_stack_remove (stack, probe);
  return enabled;
}

/**
 * window_fixture_new_projector:
 * @settings: the application's settings (a memory backend's)
 *
 * Returns: (transfer full): a window of 1024×768 in projector mode, its
 *   size and mode kept in @settings, not yet shown
 */
SluiceWindow *
window_fixture_new_projector (GSettings *settings)
{
  SluiceWindow *window;

  g_settings_set_int (settings, "window-width", 1024);
  g_settings_set_int (settings, "window-height", 768);
  g_settings_set_boolean (settings, "projector", TRUE);
  window = g_object_ref (sluice_window_new (NULL));
  sluice_window_bind_settings (window, settings);
  g_assert_true (sluice_window_get_projector (window));
  return window;
}

/* @widget as it draws itself (its CSS included), at its own size, with
 * the cairo renderer whatever GSK_RENDERER says: the same pixels under
 * every variant of a test. */
GdkTexture *
window_fixture_draw_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GskRenderer) renderer = gsk_cairo_renderer_new ();
  g_autoptr(GError) error = NULL;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  GdkTexture *texture;

  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  g_assert_true (gsk_renderer_realize (renderer, NULL, &error));
  g_assert_no_error (error);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gsk_renderer_unrealize (renderer);
  return texture;
}

static void
on_screenshot (SluiceWindow *window,
               gboolean      ok,
               gpointer      user_data)
{
  int *done = user_data;

  *done = ok ? 1 : 2;
}

/* What `sluice --screenshot PNG` does: runs the window's scenario to its
 * end, shown, and writes the window's picture to @png. */
void
window_fixture_screenshot (SluiceWindow *window,
                           const char   *png)
{
  int done = 0;
  guint timeout_id;

  sluice_window_run_and_export (window, png, NULL, NULL, on_screenshot, &done);
  gtk_window_present (GTK_WINDOW (window));
  timeout_id = window_fixture_add_timeout ();
  while (done == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
  g_assert_cmpint (done, ==, 1);
  g_test_message ("%s: %d × %d", png, gtk_widget_get_width (GTK_WIDGET (window)),
                  gtk_widget_get_height (GTK_WIDGET (window)));
}

/* @widget got at least its minimum height (with its CSS border and
 * padding): the window did not clip it. */
void
window_fixture_assert_not_clipped (GtkWidget *widget)
{
  graphene_rect_t box;
  int minimum;

  g_assert_true (gtk_widget_compute_bounds (widget, widget, &box));
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, (int) box.size.width, &minimum, NULL, NULL, NULL);
  g_test_message ("%s: %.0f × %.0f, at least %d high", G_OBJECT_TYPE_NAME (widget), box.size.width,
                  box.size.height, minimum);
  g_assert_cmpfloat (box.size.height, >=, minimum);
}

/* Runs $SLUICE_APP, the app as built, with @args (NULL-terminated), its
 * standard output dropped: its exit status, and its standard error in
 * @err. */
int
window_fixture_run_app (const char * const  *args,
                        char               **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("SLUICE_APP"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, err, &error);
  g_assert_no_error (error);
  g_test_message ("%s", *err);
  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}
