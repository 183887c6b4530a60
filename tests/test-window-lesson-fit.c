/* test-window-lesson-fit.c: every lesson fits a 1024×768 projector
 * (issue 26, item 1), in English and in German
 *
 * With projector mode on, in a window of 1024×768: the lesson's question,
 * every answer choice and the "Run to Find Out" button are on screen
 * without scrolling the sidebar; after the run, the verdict is; the
 * chart gets at least 200 pixels of height, with a plot of 120 and the
 * readout clear of it; and a screen reader finds the choices as radio
 * buttons and every button named by the text it shows.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>
#include <glib/gi18n.h>
#include <string.h>

#include "sluice-chart-view.h"
#include "sluice-config-panel.h"
#include "sluice-lesson-panel.h"
#include "sluice-lessons.h"
#include "sluice-render-chart.h"
#include "sluice-time-view.h"
#include "sluice-viewport.h"
#include "window-fixture.h"
#include "test-helpers.h"

/* The chart's least height on a projector: the back row reads its lines. */
#define MIN_CHART_HEIGHT 200
/* What of it the plot keeps: the legend and the readout share one row
 * above it, the time axis is below. */
#define MIN_PLOT_HEIGHT 120

/* Whether @widget is whole inside @viewport (a scrolled window as it is
 * scrolled now) and inside the window. */
static void
assert_on_screen (GtkWidget    *widget,
                  GtkWidget    *viewport,
                  SluiceWindow *window,
                  const char   *what)
{
  graphene_rect_t in_view, in_window;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, viewport, &in_view));
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (window), &in_window));
  g_test_message ("%s: y %.0f to %.0f of %d", what, in_view.origin.y, in_view.origin.y + in_view.size.height,
                  gtk_widget_get_height (viewport));
  g_assert_cmpfloat (in_view.origin.y, >=, -0.5);
  g_assert_cmpfloat (in_view.origin.y + in_view.size.height, <=, gtk_widget_get_height (viewport) + 0.5);
  g_assert_cmpfloat (in_window.origin.y + in_window.size.height, <=, gtk_widget_get_height (GTK_WIDGET (window)) + 0.5);
}

static GtkWidget *
find_labelled (GtkWidget  *widget,
               const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_labelled (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
assert_choices_on_screen (GtkWidget    *panel,
                          GtkWidget    *viewport,
                          SluiceWindow *window)
{
  guint n = 0;

  for (GtkWidget *w = window_fixture_find_widget (panel, GTK_TYPE_CHECK_BUTTON); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_CHECK_BUTTON (w) && gtk_widget_get_visible (w))
      {
        assert_on_screen (w, viewport, window, "a choice");
        n++;
      }
  g_assert_cmpuint (n, >=, 2);
}

/* The chart as drawn now: its plot at least MIN_PLOT_HEIGHT pixels high,
 * and the readout a lesson pins after its reveal (at its moment; for a
 * lesson that points at the lanes, the pointer's at the playhead) above
 * the plot, never over the series. */
static void
assert_chart_readable (GtkWidget *chart)
{
  SluiceTimeView *view = SLUICE_TIME_VIEW (chart);
  SluiceTimeline *model = sluice_time_view_get_model (view);
  double scale = sluice_time_view_get_scale (view);
  double width, height;
  SluiceRenderFrame frame;
  SluiceChartLimits limits;
  cairo_rectangle_t plot, readout;
  gint64 pinned = sluice_chart_view_get_pinned_readout (SLUICE_CHART_VIEW (chart));

  sluice_time_view_get_size (view, &width, &height);
  frame = sluice_time_view_get_render_frame (view, width, height);
  limits = sluice_render_chart_get_limits (model);
  sluice_render_chart_get_plot (model, &frame, &limits, &plot);
  g_test_message ("the chart's plot: %.0f of %d pixels high", plot.height * scale, gtk_widget_get_height (chart));
  g_assert_cmpfloat (plot.height * scale, >=, MIN_PLOT_HEIGHT);

  if (pinned < 0)
    pinned = sluice_viewport_get_playhead (sluice_time_view_get_viewport (view));
  g_assert_cmpint (pinned, >=, 0);
  sluice_render_chart_get_readout_rect (model, &frame, &limits,
                                        plot.x + (double) (pinned - frame.t0) / MAX (frame.t1 - frame.t0, 1) * plot.width,
                                        &readout);
  g_assert_cmpfloat (readout.width, >, 0.);
  g_assert_cmpfloat (readout.y + readout.height, <=, plot.y);
  g_assert_cmpfloat (readout.x + readout.width, <=, width);
}

/* What a screen reader finds, as the check drives it: a button
 * with a text is named by that text as shown, or by a name of its own
 * (a badge's "Lints" by its count) that has no raw mnemonic ("_Run") and
 * does not say the shown text twice ("Run Run"). Needs GTK_A11Y=test. */
static void
assert_accessible (GtkWidget *widget)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_BUTTON (widget) || GTK_IS_MENU_BUTTON (widget))
    {
      GtkWidget *label = window_fixture_find_widget (widget, GTK_TYPE_LABEL);
      const char *shown = label != NULL ? gtk_label_get_text (GTK_LABEL (label)) : NULL;

      if (shown != NULL && *shown != '\0' &&
          gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
        {
          g_autofree char *name = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                                       GTK_ACCESSIBLE_PROPERTY_LABEL, shown);
          const char *once = name != NULL ? strstr (name, shown) : NULL;

          if (name != NULL && (strchr (name, '_') != NULL || (once != NULL && strstr (once + 1, shown) != NULL)))
            g_error ("a button showing \"%s\" is named \"%s\"", shown, name);
        }
      if (shown != NULL)
        g_assert_null (strchr (shown, '_'));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    assert_accessible (child);
}

static void
assert_choices_are_radio_buttons (GtkWidget *panel)
{
  guint n = 0;

  for (GtkWidget *w = window_fixture_find_widget (panel, GTK_TYPE_CHECK_BUTTON); w != NULL;
       w = gtk_widget_get_next_sibling (w))
    if (GTK_IS_CHECK_BUTTON (w) && gtk_widget_get_visible (w))
      {
        gtk_test_accessible_assert_role (GTK_ACCESSIBLE (w), GTK_ACCESSIBLE_ROLE_RADIO);
        n++;
      }
  g_assert_cmpuint (n, >=, 2);
}

static void
check_lesson (SluiceWindow *window,
              const char   *name)
{
  GtkWidget *panel = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_LESSON_PANEL);
  GtkWidget *viewport = gtk_widget_get_ancestor (panel, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *chart = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW);
  SluiceScenario *scenario;
  SluiceLesson *lesson;

  g_test_message ("lesson %s, the sidebar %d wide", name, gtk_widget_get_width (viewport));
  g_assert_true (sluice_window_open_lesson (window, name));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  lesson = sluice_lesson_panel_get_lesson (SLUICE_LESSON_PANEL (panel));
  g_assert_nonnull (lesson);

  assert_on_screen (find_labelled (panel, sluice_lesson_get_question (lesson)), viewport, window, "the question");
  assert_choices_on_screen (panel, viewport, window);
  assert_on_screen (window_fixture_find_actionable (panel, "win.run"), viewport, window, "Run to Find Out");
  assert_choices_are_radio_buttons (panel);
  assert_accessible (GTK_WIDGET (window));
  g_test_message ("the chart: %d high, the lanes %d, the tabs %d, the window %d",
                  gtk_widget_get_height (chart), gtk_widget_get_height (sluice_window_get_timeline_view (window)),
                  gtk_widget_get_height (window_fixture_find_widget (GTK_WIDGET (window), GTK_TYPE_NOTEBOOK)),
                  gtk_widget_get_height (GTK_WIDGET (window)));
  g_assert_cmpint (gtk_widget_get_height (chart), >=, MIN_CHART_HEIGHT);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 768);

  g_assert_true (sluice_window_choose (window, 1));
  scenario = sluice_config_panel_get_scenario (SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window)));
  if (sluice_scenario_needs_real_time (scenario))
    {
      /* Blocking handlers spend real time: the run takes its seconds. */
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
      window_fixture_wait_for_end (window);
    }
  else
    window_fixture_run_virtual (window);
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  g_assert_true (sluice_lesson_panel_get_revealed (SLUICE_LESSON_PANEL (panel)));
  assert_on_screen (find_labelled (panel, sluice_lesson_panel_get_verdict (SLUICE_LESSON_PANEL (panel))), viewport,
                    window, "the verdict");
  g_assert_cmpint (gtk_widget_get_height (chart), >=, MIN_CHART_HEIGHT);
  assert_chart_readable (chart);
  assert_accessible (GTK_WIDGET (window));
}

static void
test_every_lesson_fits (gconstpointer data)
{
  const SluiceTestLanguage *language = data;
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  g_autoptr(GPtrArray) lessons = NULL;
  GtkCssProvider *css;
  SluiceWindow *window;

  if (!sluice_test_try_language (language->language))
    return;

  css = window_fixture_add_app_style ();
  window = window_fixture_new_projector (settings);
  gtk_window_present (GTK_WINDOW (window));
  window_fixture_wait_for_frames (GTK_WIDGET (window), 3);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (window)), <=, 768);

  lessons = sluice_lessons_list ();
  g_assert_cmpuint (lessons->len, >, 0);
  for (guint i = 0; i < lessons->len; i++)
    {
      SluiceScenario *scenario = g_ptr_array_index (lessons, i);
      g_autofree char *name = sluice_lessons_get_name (scenario);

      check_lesson (window, name);
    }

  window_fixture_close (window);
  window_fixture_remove_app_style (css);
  sluice_test_set_language ("");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/window/lesson-fit/1024x768-projector/en", &sluice_test_languages[0], test_every_lesson_fits);
  g_test_add_data_func ("/window/lesson-fit/1024x768-projector/de", &sluice_test_languages[1], test_every_lesson_fits);
  return g_test_run ();
}
