/* test-window-lanes.c: what the window's lanes and counters say about a
 * run's attempts, and where a click in the chart or the lanes puts the
 * playhead, under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Presets run on the virtual clock in a real window; the attempts'
 * tooltips and the counters are read back as a workshop would read them.
 */

#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sluice-chart-view.h"
#include "sluice-config-panel.h"
#include "sluice-render-chart.h"
#include "sluice-render-projector.h"
#include "sluice-render-timeline.h"
#include "sluice-timeline.h"
#include "sluice-time-view.h"
#include "sluice-timeline-view.h"
#include "sluice-window.h"
#include "window-fixture.h"

/* The tooltip of @item's first attempt. */
static char *
describe_item (SluiceWindow *window,
               gint64        item)
{
  SluiceTimelineView *view = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  SluiceTimeline *model = sluice_timeline_view_get_model (view);

  g_assert_nonnull (model);
  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    if (sluice_timeline_get_bar (model, i)->item == item && sluice_timeline_get_bar (model, i)->attempt == 1)
      return sluice_timeline_view_describe_bar (view, i);

  g_error ("no attempt of item %" G_GINT64_FORMAT, item);
  return NULL;
}

static void
assert_has_line (const char *text,
                 const char *line)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  if (!g_strv_contains ((const char * const *) lines, line))
    g_error ("no line “%s” in the tooltip:\n%s", line, text);
}

/* ---- the attempts' tooltips ---------------------------------------------- */

/* In `late`, item 0 ignores every cancel request and returns at 45 s; its
 * attempt had timed out at 10 s, so the pool threw its value away (the
 * attempt-end event carries it): the tooltip says so. An attempt that
 * returned in time does not. */
static void
test_tooltip_says_a_late_result_was_discarded (void)
{
  SluiceWindow *window = window_fixture_open ("late");
  g_autofree char *late = NULL;
  g_autofree char *in_time = NULL;

  window_fixture_run_virtual (window);
  late = describe_item (window, 0);
  in_time = describe_item (window, 1);
  g_test_message ("%s\n--\n%s", late, in_time);

  assert_has_line (late, "Outcome: timed out");
  assert_has_line (late, "Result discarded (late): it came after the attempt had timed out");
  g_assert_null (strstr (in_time, "discarded"));

  window_fixture_close (window);
}

/* An attempt's tooltip tells when it times out, when the pool asked it to
 * stop (every round), what the scenario's handler does with the item and
 * the item's value. */
static void
test_tooltip_tells_deadline_rounds_behaviour_and_value (void)
{
  SluiceWindow *window = window_fixture_open ("late");
  g_autofree char *late = NULL;
  g_autofree char *in_time = NULL;

  window_fixture_run_virtual (window);
  late = describe_item (window, 0);
  in_time = describe_item (window, 3);

  assert_has_line (late, "Value: 0");
  assert_has_line (late, "Behaviour: late 45");
  assert_has_line (late, "Deadline at 10.000 s");
  assert_has_line (late, "Asked to stop at 10.000 s, 20.000 s, 30.000 s");

  assert_has_line (in_time, "Value: 3");
  assert_has_line (in_time, "Behaviour: ok 1");
  g_assert_null (strstr (in_time, "Asked to stop"));

  window_fixture_close (window);
}

/* ---- the counters -------------------------------------------------------- */

/* `cancel-after-seconds` cancels the run at 0.5 s: two items' attempts are
 * cancelled in flight and three pulled items are never handled. The
 * counters count the engine's item-cancelled and item-dropped events, are
 * always shown, and a reset sets them back to 0. */
static void
test_counters_cancelled_and_dropped_are_counted (void)
{
  SluiceWindow *window = window_fixture_open ("cancel-after-seconds");

  g_assert_true (sluice_window_get_counter_shown (window, SLUICE_COUNTER_CANCELLED));
  g_assert_true (sluice_window_get_counter_shown (window, SLUICE_COUNTER_DROPPED));
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_CANCELLED), ==, "0");

  window_fixture_run_virtual (window);
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_CANCELLED), ==, "2");
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_DROPPED), ==, "3");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_CANCELLED), ==, "0");
  g_assert_cmpstr (sluice_window_get_counter (window, SLUICE_COUNTER_DROPPED), ==, "0");

  window_fixture_close (window);
}

/* ---- clicks in the chart and the lanes ----------------------------------- */

/* GTK 4.8 has no public way to feed a pointer event to a widget, so the
 * tests emit the gestures' signals as GTK would for a press, a release
 * and a drag. */

/* The one controller of @type on @view. */
static GtkEventController *
find_controller (GtkWidget *view,
                 GType      type)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (view);
  GtkEventController *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        {
          g_assert_null (found);
          found = controller;
        }
    }
  g_assert_nonnull (found);
  return found;  /* the view holds it */
}

static void
click (GtkWidget *view,
       double     x,
       double     y)
{
  GtkEventController *gesture = find_controller (view, GTK_TYPE_GESTURE_CLICK);

  g_signal_emit_by_name (gesture, "pressed", 1, x, y);
  g_signal_emit_by_name (gesture, "released", 1, x, y);
}

/* A finished run of @preset on the virtual clock: the playhead is not
 * set, the viewport shows the whole run. */
static SluiceWindow *
open_finished_run (const char *preset)
{
  SluiceWindow *window = window_fixture_open (preset);

  window_fixture_run_virtual (window);
  g_assert_cmpint (sluice_viewport_get_playhead (sluice_window_get_viewport (window)), ==, -1);
  g_assert_cmpint (gtk_widget_get_width (sluice_window_get_timeline_view (window)), >, 100);
  return window;
}

/* A click on the chart at x puts the playhead at the time drawn at x: a
 * quarter and three quarters of the way across the plot. */
static void
test_chart_click_moves_the_playhead_to_the_time_at_x (void)
{
  SluiceWindow *window = open_finished_run ("first-look");
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *chart = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW);
  SluiceTimeline *model = sluice_time_view_get_model (SLUICE_TIME_VIEW (chart));
  gint64 t0 = sluice_viewport_get_t0 (viewport);
  gint64 t1 = sluice_viewport_get_t1 (viewport);
  int width = gtk_widget_get_width (chart);
  int height = gtk_widget_get_height (chart);
  const double fractions[] = { 0.25, 0.75 };
  SluiceRenderFrame frame;
  SluiceChartLimits limits;
  cairo_rectangle_t plot;

  g_assert_nonnull (model);
  g_assert_cmpint (width, >, 100);
  frame = (SluiceRenderFrame) {
    width, height, t0, t1, sluice_time_view_get_now (SLUICE_TIME_VIEW (chart)), SLUICE_PALETTE_LIGHT,
  };
  limits = sluice_render_chart_get_limits (model);
  sluice_render_chart_get_plot (model, &frame, &limits, &plot);
  g_assert_cmpfloat (plot.width, >, 50.);

  for (guint i = 0; i < G_N_ELEMENTS (fractions); i++)
    {
      gint64 expected = t0 + (gint64) (fractions[i] * (double) (t1 - t0));
      gint64 one_pixel = (gint64) ((double) (t1 - t0) / plot.width) + 1;

      click (chart, plot.x + fractions[i] * plot.width, plot.y + plot.height / 2.);
      g_test_message ("clicked at %.0f%%: playhead %" G_GINT64_FORMAT ", expected %" G_GINT64_FORMAT,
                      fractions[i] * 100., sluice_viewport_get_playhead (viewport), expected);
      g_assert_cmpint (llabs (sluice_viewport_get_playhead (viewport) - expected), <=, one_pixel);
    }

  /* The span stays where it was. */
  g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, t0);
  g_assert_cmpint (sluice_viewport_get_t1 (viewport), ==, t1);

  window_fixture_close (window);
}

/* Where in the lanes @bar_index is drawn: across, the middle of its time
 * (its start plus a quarter of its length, inside it even when short);
 * down, a point of the plot that hits it. */
static gboolean
find_bar_point (SluiceTimelineView *lanes,
                guint               bar_index,
                double             *x,
                double             *y)
{
  SluiceTimeline *model = sluice_timeline_view_get_model (lanes);
  SluiceViewport *viewport = sluice_time_view_get_viewport (SLUICE_TIME_VIEW (lanes));
  const SluiceTimelineBar *bar = sluice_timeline_get_bar (model, bar_index);
  int width = gtk_widget_get_width (GTK_WIDGET (lanes));
  int height = gtk_widget_get_height (GTK_WIDGET (lanes));
  gint64 t0 = sluice_viewport_get_t0 (viewport);
  gint64 t1 = sluice_viewport_get_t1 (viewport);
  gint64 end = bar->end >= 0 ? bar->end : t1;
  SluiceRenderFrame frame = { width, height, t0, t1, -1, SLUICE_PALETTE_LIGHT };
  cairo_rectangle_t plot;
  guint index;

  sluice_render_timeline_get_plot (model, width, height, &plot);
  *x = plot.x + plot.width * ((double) (bar->start - t0) + (double) (end - bar->start) / 4.) / (double) (t1 - t0);
  for (*y = plot.y; *y < plot.y + plot.height; *y += 1.)
    if (sluice_render_timeline_hit (model, &frame, *x, *y, &index) && index == bar_index &&
        !sluice_render_timeline_hit_mark (model, &frame, *x, *y, &index))
      return TRUE;
  return FALSE;
}

/* A click on an attempt's bar in the lanes puts the playhead where the
 * attempt started (not at the time under the pointer) and selects its
 * item: the last attempt of retries to start (a retry, after its
 * backoff), and then the first. */
static void
test_lanes_click_on_a_bar_moves_the_playhead_to_its_start (void)
{
  SluiceWindow *window = open_finished_run ("retries");
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  SluiceTimelineView *lanes = SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window));
  SluiceTimeline *model = sluice_timeline_view_get_model (lanes);
  guint bars[2] = { 0, 0 };

  g_assert_cmpuint (sluice_timeline_get_n_bars (model), >=, 2);
  for (guint i = 1; i < sluice_timeline_get_n_bars (model); i++)
    {
      if (sluice_timeline_get_bar (model, i)->start > sluice_timeline_get_bar (model, bars[0])->start)
        bars[0] = i;
      if (sluice_timeline_get_bar (model, i)->start < sluice_timeline_get_bar (model, bars[1])->start)
        bars[1] = i;
    }
  g_assert_cmpuint (bars[0], !=, bars[1]);

  for (guint i = 0; i < G_N_ELEMENTS (bars); i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (model, bars[i]);
      double x, y;

      g_assert_true (find_bar_point (lanes, bars[i], &x, &y));
      /* The time under the pointer is later than the start: the click
       * must pick the bar, not the time. */
      g_assert_cmpint (sluice_viewport_x_to_time (viewport, gtk_widget_get_width (GTK_WIDGET (lanes)), x), >,
                       bar->start);
      click (GTK_WIDGET (lanes), x, y);
      g_test_message ("bar %u (item %" G_GINT64_FORMAT ") clicked at (%.0f, %.0f): playhead %" G_GINT64_FORMAT,
                      bars[i], bar->item, x, y, sluice_viewport_get_playhead (viewport));
      g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, bar->start);
      g_assert_cmpint (sluice_timeline_view_get_selected_item (lanes), ==, bar->item);
    }

  window_fixture_close (window);
}

/* A press that turns into a drag pans the span (zoomed in, there is room)
 * and leaves the playhead where it was, in the chart and in the lanes. GTK
 * ends the click gesture without a release once the pointer moves past
 * its threshold and the drag claims the press; the test sends the press
 * and the drag. */
static void
test_press_that_turns_into_a_drag_does_not_move_the_playhead (void)
{
  SluiceWindow *window = open_finished_run ("first-look");
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *views[] = {
    window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW),
    sluice_window_get_timeline_view (window),
  };

  for (guint i = 0; i < G_N_ELEMENTS (views); i++)
    {
      GtkEventController *press = find_controller (views[i], GTK_TYPE_GESTURE_CLICK);
      GtkEventController *drag = find_controller (views[i], GTK_TYPE_GESTURE_DRAG);
      double x = gtk_widget_get_width (views[i]) * 0.5;
      double y = gtk_widget_get_height (views[i]) * 0.5;
      gint64 t0;

      sluice_viewport_fit (viewport);
      sluice_viewport_zoom (viewport, (sluice_viewport_get_t0 (viewport) + sluice_viewport_get_t1 (viewport)) / 2,
                            0.25);
      t0 = sluice_viewport_get_t0 (viewport);

      g_signal_emit_by_name (press, "pressed", 1, x, y);
      g_signal_emit_by_name (drag, "drag-begin", x, y);
      g_signal_emit_by_name (drag, "drag-update", 2., 0.);
      g_signal_emit_by_name (drag, "drag-update", 40., 0.);
      g_signal_emit_by_name (drag, "drag-end", 40., 0.);

      g_test_message ("%s: t0 %" G_GINT64_FORMAT " → %" G_GINT64_FORMAT ", playhead %" G_GINT64_FORMAT,
                      G_OBJECT_TYPE_NAME (views[i]), t0, sluice_viewport_get_t0 (viewport),
                      sluice_viewport_get_playhead (viewport));
      g_assert_cmpint (sluice_viewport_get_t0 (viewport), <, t0);
      g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, -1);
    }

  window_fixture_close (window);
}

/* Projector mode draws the views larger: a drag pans by the pointer's
 * distance over the plot's width in the view's own pixels, so the time
 * under the pointer stays under it. The view tells the viewport its scale
 * when projector mode changes (sluice_viewport_set_view_scale()). */
static void
test_drag_in_projector_mode_pans_by_the_plot_width_in_pixels (void)
{
  SluiceWindow *window = open_finished_run ("first-look");
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  GtkWidget *view = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_CHART_VIEW);
  GtkEventController *drag = find_controller (view, GTK_TYPE_GESTURE_DRAG);

  for (guint projector = 0; projector < 2; projector++)
    {
      double scale = projector ? SLUICE_RENDER_PROJECTOR_SCALE : 1.;
      double plot_units, plot_pixels;
      gint64 t0, span, expected;

      sluice_time_view_set_projector (SLUICE_TIME_VIEW (view), projector);
      sluice_viewport_fit (viewport);
      sluice_viewport_zoom (viewport, (sluice_viewport_get_t0 (viewport) + sluice_viewport_get_t1 (viewport)) / 2,
                            0.25);
      t0 = sluice_viewport_get_t0 (viewport);
      span = sluice_viewport_get_t1 (viewport) - t0;
      sluice_render_get_time_axis (gtk_widget_get_width (view) / scale, NULL, &plot_units);
      plot_pixels = plot_units * scale;
      expected = t0 - (gint64) llround (40. / plot_pixels * (double) span);

      g_signal_emit_by_name (drag, "drag-begin", 100., 20.);
      g_signal_emit_by_name (drag, "drag-update", 40., 0.);
      g_signal_emit_by_name (drag, "drag-end", 40., 0.);

      g_test_message ("projector %u: t0 %" G_GINT64_FORMAT " → %" G_GINT64_FORMAT " (expected %" G_GINT64_FORMAT ")",
                      projector, t0, sluice_viewport_get_t0 (viewport), expected);
      g_assert_cmpint (sluice_viewport_get_t0 (viewport), ==, expected);
    }

  window_fixture_close (window);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/lanes/tooltip-says-a-late-result-was-discarded",
                   test_tooltip_says_a_late_result_was_discarded);
  g_test_add_func ("/window/lanes/tooltip-tells-deadline-rounds-behaviour-and-value",
                   test_tooltip_tells_deadline_rounds_behaviour_and_value);
  g_test_add_func ("/window/counters/cancelled-and-dropped-are-counted",
                   test_counters_cancelled_and_dropped_are_counted);
  g_test_add_func ("/window/chart/click-moves-the-playhead-to-the-time-at-x",
                   test_chart_click_moves_the_playhead_to_the_time_at_x);
  g_test_add_func ("/window/lanes/click-on-a-bar-moves-the-playhead-to-its-start",
                   test_lanes_click_on_a_bar_moves_the_playhead_to_its_start);
  g_test_add_func ("/window/playhead/press-that-turns-into-a-drag-does-not-move-it",
                   test_press_that_turns_into_a_drag_does_not_move_the_playhead);
  g_test_add_func ("/window/viewport/drag-in-projector-mode-pans-by-the-plot-width-in-pixels",
                   test_drag_in_projector_mode_pans_by_the_plot_width_in_pixels);

  return g_test_run ();
}
