/* test-window-lanes.c: what the window's lanes and counters say about a
 * run's attempts, under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Presets run on the virtual clock in a real window; the attempts'
 * tooltips and the counters are read back as a workshop would read them.
 */

#include <gtk/gtk.h>
#include <string.h>

#include "sluice-config-panel.h"
#include "sluice-timeline.h"
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

  return g_test_run ();
}
