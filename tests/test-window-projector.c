/* test-window-projector.c: projector mode, for a room where the back row
 * must read the lanes (docs/teaching.md, Projector mode)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The window's `win.projector` action, the `projector` setting, the CSS
 * class and the views follow each other; text measured in pixels, in the
 * widgets and in the cairo-drawn lanes, is at least 1.5 times its normal
 * height and the drawn lines as much thicker; the window still fits
 * 1024×768; `sluice --projector` turns it on and the next start keeps it;
 * the compare window follows the window it came from.
 */

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <math.h>

#include "sluice-application.h"
#include "sluice-chart-view.h"
#include "sluice-compare-window.h"
#include "sluice-counters.h"
#include "sluice-palette.h"
#include "sluice-render-projector.h"
#include "sluice-render-timeline.h"
#include "sluice-timeline-view.h"
#include "window-fixture.h"
#include "test-helpers.h"

/* ---- the app's look -------------------------------------------------------- */

/* The first label under @widget that shows @text. */
static GtkWidget *
find_label (GtkWidget  *widget,
            const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The header's main menu button: the one with a menu model. */
static GtkWidget *
find_menu_button (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget) && gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget)) != NULL)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_menu_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* ---- pixels -------------------------------------------------------------- */

/* @widget as it draws itself, in a cairo image surface of its size. */
static cairo_surface_t *
render_widget (GtkWidget *widget)
{
  g_autoptr(GdkTexture) texture = window_fixture_draw_widget (widget);
  cairo_surface_t *surface;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, gdk_texture_get_width (texture),
                                        gdk_texture_get_height (texture));
  cairo_surface_flush (surface);
  gdk_texture_download (texture, cairo_image_surface_get_data (surface), cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  return surface;
}

/* How much ink covers a pixel: its opacity over a transparent background
 * (a label), or how far its grey is from @background towards @ink (a view
 * that paints its own background). */
static double
coverage_at (cairo_surface_t   *surface,
             int                x,
             int                y,
             const SluiceColor *background,
             const SluiceColor *ink)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel = *(const guint32 *) (gconstpointer) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  double gray, bg, fg;

  if (background == NULL)
    return (pixel >> 24) / 255.;

  gray = (0.299 * ((pixel >> 16) & 0xff) + 0.587 * ((pixel >> 8) & 0xff) + 0.114 * (pixel & 0xff)) / 255.;
  bg = 0.299 * background->red + 0.587 * background->green + 0.114 * background->blue;
  fg = 0.299 * ink->red + 0.587 * ink->green + 0.114 * ink->blue;
  return CLAMP ((gray - bg) / (fg - bg), 0., 1.);
}

/* The height of the ink in a rectangle, in pixels: per row, the coverage
 * of its most covered pixel, summed (an antialiased edge counts as the
 * part of the row it covers). */
static double
ink_height (cairo_surface_t   *surface,
            const SluiceColor *background,
            const SluiceColor *ink,
            double             x,
            double             y,
            double             w,
            double             h)
{
  int x0 = MAX ((int) floor (x), 0), y0 = MAX ((int) floor (y), 0);
  int x1 = MIN ((int) ceil (x + w), cairo_image_surface_get_width (surface));
  int y1 = MIN ((int) ceil (y + h), cairo_image_surface_get_height (surface));
  double sum = 0.;

  for (int py = y0; py < y1; py++)
    {
      double row = 0.;

      for (int px = x0; px < x1; px++)
        row = MAX (row, coverage_at (surface, px, py, background, ink));
      sum += row;
    }
  return sum;
}

/* The thickness of a horizontal line down column @x, from @y0 to @y1. */
static double
line_width_down (cairo_surface_t   *surface,
                 const SluiceColor *background,
                 const SluiceColor *ink,
                 double             x,
                 double             y0,
                 double             y1)
{
  double sum = 0.;

  for (int py = (int) floor (y0); py < (int) ceil (y1); py++)
    sum += coverage_at (surface, (int) x, py, background, ink);
  return sum;
}

/* ---- the switch ------------------------------------------------------------ */

static void
assert_projector (SluiceWindow *window,
                  GSettings    *settings,
                  gboolean      on)
{
  GtkWidget *chart = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW);
  GtkWidget *lanes = sluice_window_get_timeline_view (window);

  g_assert_cmpint (sluice_window_get_projector (window), ==, on);
  g_assert_cmpint (g_settings_get_boolean (settings, "projector"), ==, on);
  g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (window), "projector"), ==, on);
  g_assert_cmpint (sluice_time_view_get_projector (SLUICE_TIME_VIEW (chart)), ==, on);
  g_assert_cmpint (sluice_time_view_get_projector (SLUICE_TIME_VIEW (lanes)), ==, on);
  g_assert_cmpfloat (sluice_time_view_get_scale (SLUICE_TIME_VIEW (lanes)), ==,
                     on ? SLUICE_RENDER_PROJECTOR_SCALE : 1.);
  /* The high-contrast palette in projector mode (the tests run Adwaita,
   * which is not a high-contrast theme). */
  g_assert_cmpint ((sluice_time_view_get_palette (SLUICE_TIME_VIEW (lanes)) & SLUICE_PALETTE_HIGH_CONTRAST) != 0, ==,
                   on);
}

/* win.projector (the menu's item, F5) toggles the setting, the window's
 * CSS class and its views; the setting, changed elsewhere (another
 * window, `sluice --projector`), turns the window with it. */
static void
test_action_and_setting (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  SluiceWindow *window = window_fixture_open ("ok");

  g_settings_reset (settings, "projector");
  sluice_window_bind_settings (window, settings);
  assert_projector (window, settings, FALSE);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.projector", NULL));
  assert_projector (window, settings, TRUE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.projector", NULL));
  assert_projector (window, settings, FALSE);

  g_settings_set_boolean (settings, "projector", TRUE);
  assert_projector (window, settings, TRUE);
  g_settings_set_boolean (settings, "projector", FALSE);
  assert_projector (window, settings, FALSE);

  window_fixture_close (window);
  g_settings_reset (settings, "projector");
}

/* ---- the widgets' text -------------------------------------------------------- */

/* The font size GTK gives @widget's text, from the style sheet. */
static double
font_size (GtkWidget *widget)
{
  const PangoFontDescription *font = pango_context_get_font_description (gtk_widget_get_pango_context (widget));

  g_assert_nonnull (font);
  return pango_font_description_get_size (font) / (double) PANGO_SCALE;
}

typedef struct {
  const char *what;
  GtkWidget  *widget;
  double      normal;
} Sized;

/* Text of every kind the window has, in projector mode: its font at least
 * 1.5 times as large (labels, headings, the header's buttons, entries, the
 * counters, the tabs, the event log's column view, the main menu's
 * popover); and a heading and a counter rendered, their ink measured in
 * pixels, at least 1.5 times as tall. */
static void
test_widget_text_is_larger (void)
{
  GtkCssProvider *css = window_fixture_add_app_style ();
  SluiceWindow *window = window_fixture_open ("retries");
  GtkWidget *menu_button = find_menu_button (GTK_WIDGET (window));
  Sized sized[] = {
    { "heading", find_label (GTK_WIDGET (window), "Queue and lead"), 0. },
    { "lanes' heading", find_label (GTK_WIDGET (window), "Worker lanes"), 0. },
    { "header button", find_label (GTK_WIDGET (window), "Run"), 0. },
    { "tab", find_label (GTK_WIDGET (window), "Events"), 0. },
    { "counter value", NULL, 0. },
    { "counter title", find_label (GTK_WIDGET (window), "Pulled"), 0. },
    { "entry", window_fixture_find_widget (sluice_window_get_config_panel (window), GTK_TYPE_TEXT), 0. },
    { "column view", window_fixture_find_widget (sluice_window_get_event_log (window), GTK_TYPE_COLUMN_VIEW), 0. },
    { "main menu", NULL, 0. },
    { "main menu item", NULL, 0. },
  };
  GtkWidget *heading = sized[0].widget, *counter;
  double heading_ink[2], counter_ink[2];

  window_fixture_run_virtual (window);
  window_fixture_wait_for_end (window);
  counter = gtk_widget_get_first_child (gtk_widget_get_parent (sized[5].widget));
  sized[4].widget = counter;
  g_assert_nonnull (menu_button);
  sized[8].widget = GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu_button)));
  sized[9].widget = find_label (sized[8].widget, "Projector Mode");

  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  for (guint i = 0; i < G_N_ELEMENTS (sized); i++)
    {
      g_assert_nonnull (sized[i].widget);
      sized[i].normal = font_size (sized[i].widget);
    }
  {
    cairo_surface_t *h = render_widget (heading), *c = render_widget (counter);

    heading_ink[0] = ink_height (h, NULL, NULL, 0, 0, gtk_widget_get_width (heading), gtk_widget_get_height (heading));
    counter_ink[0] = ink_height (c, NULL, NULL, 0, 0, gtk_widget_get_width (counter), gtk_widget_get_height (counter));
    cairo_surface_destroy (h);
    cairo_surface_destroy (c);
  }

  sluice_window_set_projector (window, TRUE);
  /* A popover's style is brought up to date when it shows. */
  gtk_popover_popup (GTK_POPOVER (sized[8].widget));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  for (guint i = 0; i < G_N_ELEMENTS (sized); i++)
    g_test_message ("%s: %.2f → %.2f pt", sized[i].what, sized[i].normal, font_size (sized[i].widget));
  for (guint i = 0; i < G_N_ELEMENTS (sized); i++)
    {
      g_assert_cmpfloat (sized[i].normal, >, 4.);
      g_assert_cmpfloat (font_size (sized[i].widget), >=, 1.5 * sized[i].normal);
    }
  {
    cairo_surface_t *h = render_widget (heading), *c = render_widget (counter);

    heading_ink[1] = ink_height (h, NULL, NULL, 0, 0, gtk_widget_get_width (heading), gtk_widget_get_height (heading));
    counter_ink[1] = ink_height (c, NULL, NULL, 0, 0, gtk_widget_get_width (counter), gtk_widget_get_height (counter));
    cairo_surface_destroy (h);
    cairo_surface_destroy (c);
  }
  g_test_message ("ink: heading %.2f → %.2f px, counter %.2f → %.2f px", heading_ink[0], heading_ink[1],
                  counter_ink[0], counter_ink[1]);
  g_assert_cmpfloat (heading_ink[0], >, 6.);
  g_assert_cmpfloat (counter_ink[0], >, 6.);
  g_assert_cmpfloat (heading_ink[1], >=, 1.5 * heading_ink[0]);
  g_assert_cmpfloat (counter_ink[1], >=, 1.5 * counter_ink[0]);

  gtk_popover_popdown (GTK_POPOVER (sized[8].widget));
  window_fixture_close (window);
  window_fixture_remove_app_style (css);
}

/* ---- the drawn views ---------------------------------------------------------- */

typedef struct {
  double axis_ink;    /* the time axis' labels */
  double name_ink;    /* worker 0's name */
  double baseline;    /* the time axis' line */
} LanesMeasure;

/* The lanes as the window drew them, measured where the render layer
 * put their axis and names, in the palette the view drew them in. */
static LanesMeasure
measure_lanes (GtkWidget *lanes)
{
  SluiceTimeView *view = SLUICE_TIME_VIEW (lanes);
  const SluicePalette *palette = sluice_palette_get (sluice_time_view_get_palette (view));
  double s = sluice_time_view_get_scale (view);
  cairo_surface_t *surface = render_widget (lanes);
  cairo_rectangle_t plot;
  double width, height, axis_top, bottom, lane_height;
  LanesMeasure m;

  sluice_time_view_get_size (view, &width, &height);
  sluice_render_timeline_get_plot (sluice_time_view_get_model (view), width, height, &plot);
  bottom = plot.y + plot.height;
  lane_height = plot.height / sluice_timeline_get_n_workers (sluice_time_view_get_model (view));
  axis_top = bottom + 3.;
  m.axis_ink = ink_height (surface, &palette->background, &palette->muted, plot.x * s, axis_top * s,
                           plot.width * s, (height - axis_top) * s);
  m.name_ink = ink_height (surface, &palette->background, &palette->muted, 0., plot.y * s, (plot.x - 2.) * s,
                           lane_height * s);
  m.baseline = line_width_down (surface, &palette->background, &palette->muted, (plot.x + 7.) * s,
                                (bottom - 3.) * s, (bottom + 3.) * s);
  cairo_surface_destroy (surface);
  return m;
}

/* A run's lanes in the window, before and in projector mode: the axis'
 * labels and the lanes' names measure at least 1.5 times as tall, the
 * axis line is as much thicker, and the view is drawn in the
 * high-contrast palette (its background pure white). */
static void
test_drawn_text_and_lines_are_larger (void)
{
  GtkCssProvider *css = window_fixture_add_app_style ();
  SluiceWindow *window = window_fixture_open ("retries");
  GtkWidget *lanes = sluice_window_get_timeline_view (window);
  LanesMeasure normal, projector;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 1000);
  window_fixture_run_virtual (window);
  window_fixture_wait_for_end (window);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  normal = measure_lanes (lanes);

  sluice_window_set_projector (window, TRUE);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  projector = measure_lanes (lanes);
  {
    cairo_surface_t *surface = render_widget (lanes);
    const guint8 *data = cairo_image_surface_get_data (surface);

    /* The corner, outside the plot: the background. */
    g_assert_cmphex (*(const guint32 *) (gconstpointer) (data + 2 * cairo_image_surface_get_stride (surface) + 2 * 4),
                     ==, 0xffffffff);
    cairo_surface_destroy (surface);
  }

  g_test_message ("axis labels %.2f → %.2f px, lane names %.2f → %.2f px, axis line %.2f → %.2f px",
                  normal.axis_ink, projector.axis_ink, normal.name_ink, projector.name_ink, normal.baseline,
                  projector.baseline);
  g_assert_cmpfloat (normal.axis_ink, >, 5.);
  g_assert_cmpfloat (normal.name_ink, >, 5.);
  g_assert_cmpfloat (normal.baseline, >, 0.8);
  g_assert_cmpfloat (projector.axis_ink, >=, 1.5 * normal.axis_ink);
  g_assert_cmpfloat (projector.name_ink, >=, 1.5 * normal.name_ink);
  g_assert_cmpfloat (projector.baseline, >=, 1.5 * normal.baseline);

  window_fixture_close (window);
  window_fixture_remove_app_style (css);
}

/* ---- 1024×768 ------------------------------------------------------------------ */


static graphene_rect_t
bounds_in (GtkWidget    *widget,
           SluiceWindow *window)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &bounds));
  return bounds;
}


/* `sluice --projector --screenshot` of the preset with ten workers, in a
 * window of 1024×768 with the configuration shown: the window keeps that
 * size (nothing asked for more), every counter is whole inside it in at
 * most two rows, and the chart and the lanes get their width inside it
 * and at least their minimum height. */
static void
test_fits_1024x768 (gconstpointer data)
{
  const SluiceTestLanguage *language = data;
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  g_autofree char *name = g_strdup_printf ("projector-1024x768%s%s.png", *language->language ? "-" : "",
                                           language->language);
  g_autofree char *png = g_test_build_filename (G_TEST_BUILT, name, NULL);
  GtkCssProvider *css;
  GtkWidget *counters, *flow;
  SluiceWindow *window;
  int rows = 0;
  double last_y = -1.;

  if (!sluice_test_try_language (language->language))
    return;

  css = window_fixture_add_app_style ();
  window = window_fixture_new_projector (settings);
  g_assert_true (sluice_window_open_preset (window, "retry-storm", NULL));
  window_fixture_screenshot (window, png);

  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <=, 1024);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 768);
  g_assert_true (gtk_widget_get_visible (sluice_window_get_config_panel (window)));

  counters = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_COUNTERS);
  flow = window_fixture_find_widget (counters, GTK_TYPE_FLOW_BOX);
  for (GtkWidget *child = gtk_widget_get_first_child (flow); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      graphene_rect_t bounds;

      if (!gtk_widget_get_visible (child))
        continue;
      bounds = bounds_in (child, window);
      g_assert_cmpfloat (bounds.origin.x, >=, 0.);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
      if (bounds.origin.y > last_y)
        rows++;
      last_y = bounds.origin.y;
    }
  g_test_message ("%d rows of counters", rows);
  g_assert_cmpint (rows, <=, 2);

  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *view = i == 0 ? window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW)
                               : sluice_window_get_timeline_view (window);
      graphene_rect_t bounds = bounds_in (view, window);

      g_assert_cmpfloat (bounds.origin.x, >=, 0.);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (GTK_WIDGET (window)));
      g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (window)));
      window_fixture_assert_not_clipped (view);
    }

  window_fixture_close (window);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
  g_settings_reset (settings, "projector");
  window_fixture_remove_app_style (css);
  sluice_test_set_language ("");
}

/* ---- the compare window --------------------------------------------------------- */

/* Compare… opens a window that is in projector mode with the playground
 * window, and switching either switches both. */
static void
test_compare_window_follows (void)
{
  g_autofree char *b_path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "retry-storm-jitter.pool",
                                                   NULL);
  SluiceWindow *window = window_fixture_open ("retry-storm");
  g_autoptr(GError) error = NULL;
  SluiceCompareWindow *compare;

  sluice_window_set_projector (window, TRUE);
  compare = sluice_window_compare_with_file (window, b_path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (compare);
  g_object_ref (compare);

  for (int step = 0; step < 3; step++)
    {
      gboolean on = step != 1;

      if (step == 1)
        sluice_window_set_projector (window, FALSE);
      else if (step == 2)
        sluice_compare_window_set_projector (compare, TRUE);

      g_assert_cmpint (sluice_window_get_projector (window), ==, on);
      g_assert_cmpint (sluice_compare_window_get_projector (compare), ==, on);
      g_assert_cmpint (gtk_widget_has_css_class (GTK_WIDGET (compare), "projector"), ==, on);
      for (SluiceComparisonSide side = SLUICE_COMPARISON_A; side <= SLUICE_COMPARISON_B; side++)
        {
          g_assert_cmpint (sluice_time_view_get_projector (
                             SLUICE_TIME_VIEW (sluice_compare_window_get_chart_view (compare, side))), ==, on);
          g_assert_cmpint (sluice_time_view_get_projector (
                             SLUICE_TIME_VIEW (sluice_compare_window_get_timeline_view (compare, side))), ==, on);
        }
    }

  gtk_window_destroy (GTK_WINDOW (compare));
  g_assert_finalize_object (compare);
  window_fixture_close (window);
}

/* ---- sluice --projector ----------------------------------------------------------- */

/* Whether the PNG has a pixel of exactly @rgb: the high-contrast palette's
 * ok bars are a colour no other palette or theme draws. */
static gboolean
png_has_color (const char *path,
               guint32     rgb)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (path, &error);
  g_autofree guint32 *data = NULL;
  int width, height;

  g_assert_no_error (error);
  width = gdk_texture_get_width (texture);
  height = gdk_texture_get_height (texture);
  data = g_new (guint32, (gsize) width * height);
  gdk_texture_download (texture, (guchar *) data, width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    if ((data[i] & 0xffffff) == rgb)
      return TRUE;
  return FALSE;
}

/* Removes @path, and everything under it when it is a folder. */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      remove_tree (child);
    }
  g_assert_cmpint (g_remove (path), ==, 0);
}

/* `sluice --preset ok --screenshot FILE`, with @arg before it, its
 * settings kept in @config (a keyfile, as they are kept between runs). */
static void
run_app (const char *config,
         const char *png,
         const char *arg)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "GSETTINGS_BACKEND", "keyfile", TRUE);
  g_subprocess_launcher_setenv (launcher, "XDG_CONFIG_HOME", config, TRUE);
  if (arg != NULL)
    process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SLUICE_APP"), arg, "--preset", "ok",
                                           "--screenshot", png, NULL);
  else
    process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SLUICE_APP"), "--preset", "ok",
                                           "--screenshot", png, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (process, NULL, &error));
  g_assert_no_error (error);
}

/* `sluice --projector` turns projector mode on for its run, and keeps it
 * on: the next start without the option is in projector mode too; a
 * start with settings of its own is not. Seen in the screenshots: the
 * high-contrast palette's green. */
static void
test_command_line (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *kept = NULL, *fresh = NULL;
  g_autofree char *png_on = NULL, *png_kept = NULL, *png_off = NULL;
  g_autoptr(GError) error = NULL;
  const guint32 high_contrast_ok = 0x00e676;

  if (g_getenv ("SLUICE_APP") == NULL)
    {
      g_test_skip ("SLUICE_APP is not set");
      return;
    }
  g_assert_cmphex (high_contrast_ok, !=, 0x009e73);

  dir = g_dir_make_tmp ("sluice-projector-XXXXXX", &error);
  g_assert_no_error (error);
  kept = g_build_filename (dir, "kept", NULL);
  fresh = g_build_filename (dir, "fresh", NULL);
  png_on = g_build_filename (dir, "on.png", NULL);
  png_kept = g_build_filename (dir, "kept.png", NULL);
  png_off = g_build_filename (dir, "off.png", NULL);

  run_app (kept, png_on, "--projector");
  run_app (kept, png_kept, NULL);
  run_app (fresh, png_off, NULL);

  g_assert_true (png_has_color (png_on, high_contrast_ok));
  g_assert_true (png_has_color (png_kept, high_contrast_ok));
  g_assert_false (png_has_color (png_off, high_contrast_ok));

  remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/projector/action-and-setting", test_action_and_setting);
  g_test_add_func ("/window/projector/widget-text-is-larger", test_widget_text_is_larger);
  g_test_add_func ("/window/projector/drawn-text-and-lines-are-larger", test_drawn_text_and_lines_are_larger);
  g_test_add_data_func ("/window/projector/fits-1024x768/en", &sluice_test_languages[0], test_fits_1024x768);
  g_test_add_data_func ("/window/projector/fits-1024x768/de", &sluice_test_languages[1], test_fits_1024x768);
  g_test_add_func ("/window/projector/compare-window-follows", test_compare_window_follows);
  g_test_add_func ("/window/projector/command-line", test_command_line);

  return g_test_run ();
}
