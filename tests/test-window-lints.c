/* test-window-lints.c: the lints' badge and list in the window, after a
 * run of a preset on the virtual clock, at the playhead, after a reset and
 * in an opened recording (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "sluice-lint-view.h"
#include "window-fixture.h"

#define S(seconds) sluice_time_from_seconds (seconds)

static SluiceLintView *
find_lint_view (SluiceWindow *window)
{
  GtkWidget *view = window_fixture_find_widget (GTK_WIDGET (window), SLUICE_TYPE_LINT_VIEW);

  g_assert_nonnull (view);
  return SLUICE_LINT_VIEW (view);
}

static void
assert_row (SluiceLintView *view,
            guint           index,
            const char     *text)
{
  g_autofree char *shown = sluice_lint_view_dup_row_text (view, index);

  g_assert_cmpstr (shown, ==, text);
}

/* With SLUICE_TEST_POPOVER_PNG set, the open popover is saved there: a
 * look at the list, which --screenshot (the window alone) cannot give. */
static void
maybe_save_popover (SluiceLintView *view)
{
  const char *path = g_getenv ("SLUICE_TEST_POPOVER_PNG");
  GtkWidget *button = window_fixture_find_widget (GTK_WIDGET (view), GTK_TYPE_MENU_BUTTON);
  GtkPopover *popover;
  g_autoptr(GdkTexture) texture = NULL;
  guint timeout_id;

  if (path == NULL || *path == '\0')
    return;

  popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  timeout_id = window_fixture_add_timeout ();
  for (guint i = 0; i < 20 || !gtk_widget_get_mapped (GTK_WIDGET (popover)); i++)
    g_main_context_iteration (NULL, !gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_source_remove (timeout_id);

  texture = window_fixture_draw_widget (GTK_WIDGET (popover));
  g_assert_true (gdk_texture_save_to_png (texture, path));
  gtk_menu_button_popdown (GTK_MENU_BUTTON (button));
}

/* retry-storm: the 30 ConnectionErrors dominate from 0.25 s, the storm is
 * on from 0.35 s, both still on at the end: the badge says 2, the list
 * says what each saw and what to try; at the playhead it says what was on
 * then, and a click on a lint moves the playhead to when it came on. */
static void
test_badge_and_rows_after_a_run (void)
{
  SluiceWindow *window = window_fixture_open ("retry-storm");
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  SluiceLintView *view = find_lint_view (window);
  GtkListBox *list;

  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  window_fixture_run_virtual (window);
  maybe_save_popover (view);

  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 2);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 2);
  assert_row (view, 0,
              "One error type causes most failures\n"
              "since 0.250 s\n"
              "ConnectionError caused 10 of the last 10 failures. Items: 0, 1, 2, 3, 4, 5, 6, 7 and 2 more.\n"
              "Try: Look at ConnectionError first: fixing its cause, or not retrying it, removes most failures.");
  assert_row (view, 1,
              "Retry storm\n"
              "since 0.350 s\n"
              "30 retries in the last 1.000 s, more than the attempts that succeeded (0). "
              "Items: 0, 1, 2, 3, 4, 5, 6, 7 and 2 more.\n"
              "Try: Spread the retries with jitter, limit them with a retry budget, or retry fewer errors: "
              "each retry adds load to what is already failing.");

  /* The scrubber's moment: one lint on at 0.3 s, none yet at 0.1 s. */
  sluice_viewport_set_playhead (viewport, S (0.3));
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 1);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 1);
  sluice_viewport_set_playhead (viewport, S (0.1));
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 0);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));

  /* Back at the end, a click on the storm: the playhead goes to 0.35 s. */
  sluice_viewport_set_playhead (viewport, -1);
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 2);
  list = GTK_LIST_BOX (window_fixture_find_widget (GTK_WIDGET (view), GTK_TYPE_LIST_BOX));
  g_assert_nonnull (list);
  g_signal_emit_by_name (list, "row-activated", gtk_list_box_get_row_at_index (list, 1));
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, S (0.35));
  g_assert_cmpint (sluice_lint_view_get_marked_time (view), ==, S (0.35));
  /* At 0.35 s both are on: the storm from that very µs. */
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 2);

  window_fixture_close (window);
}

/* ok raises nothing: no badge. */
static void
test_no_badge_without_lints (void)
{
  SluiceWindow *window = window_fixture_open ("ok");
  SluiceLintView *view = find_lint_view (window);

  window_fixture_run_virtual (window);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 0);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 0);

  window_fixture_close (window);
}

/* late's item 0 ignores three rounds; Reset forgets it; the run saved and
 * opened again as a recording lints the same. */
static void
test_reset_and_recording (void)
{
  SluiceWindow *window = window_fixture_open ("late");
  SluiceLintView *view = find_lint_view (window);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sluice-window-lints.sluicerun", NULL);
  g_autoptr(GError) error = NULL;
  static const char *ignoring =
    "An attempt ignores cancellation\n"
    "since 40.000 s\n"
    "Item 0 ignored three requests to stop, 10.000 s apart; the pool waits for it however long it takes. "
    "Worker: 0.\n"
    "Try: Make the handler stop when its GCancellable is cancelled (or pass the cancellable on to what it "
    "calls), so that a deadline can end it.";

  window_fixture_run_virtual (window);
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 1);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 2);
  assert_row (view, 1, ignoring);
  g_assert_true (sluice_run_controller_save_recording (sluice_window_get_run_controller (window), path, &error));
  g_assert_no_error (error);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 0);

  g_assert_true (sluice_window_open_file (window, path, &error));
  g_assert_no_error (error);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 1);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 2);
  assert_row (view, 1, ignoring);

  window_fixture_close (window);
  g_unlink (path);
}

#define SECONDS(s) ((gint64) ((s) * G_USEC_PER_SEC))

/* No "⚠ 0": between 2.75 s and 40 s of ignores-cancellation no lint is on
 * (the saturation before went off), and the badge is hidden; where one is
 * on it shows the number. */
static void
test_badge_is_hidden_at_zero (void)
{
  SluiceWindow *window = window_fixture_new ();
  SluiceLintView *view = find_lint_view (window);
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  SluiceLinter *linter;
  GtkLabel *count;

  g_assert_true (sluice_window_open_lesson (window, "ignores-cancellation"));
  g_assert_true (sluice_window_choose (window, 1));
  window_fixture_run_virtual (window);
  /* The run's model's linter: each run has its own. */
  linter = sluice_lint_view_get_linter (view);

  sluice_viewport_set_playhead (viewport, SECONDS (10));
  g_assert_cmpuint (sluice_linter_count_by (linter, SECONDS (10)), >, 0);
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));

  sluice_viewport_set_playhead (viewport, SECONDS (1.5));
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 1);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (view)));
  count = GTK_LABEL (window_fixture_find_widget (GTK_WIDGET (view), GTK_TYPE_LABEL));
  g_assert_cmpstr (gtk_label_get_text (count), ==, "1");

  window_fixture_close (window);
}

/* A lint a lesson teaches is its subject: in the backpressure lesson the
 * pool is saturated on purpose, and "Saturated pool" is not flagged. */
static void
test_lesson_mutes_the_lints_it_teaches (void)
{
  SluiceWindow *window = window_fixture_new ();
  SluiceLintView *view = find_lint_view (window);
  GPtrArray *lints;
  gboolean saturated = FALSE;

  g_assert_true (sluice_window_open_lesson (window, "backpressure"));
  g_assert_true (sluice_window_choose (window, 1));
  window_fixture_run_virtual (window);

  /* The run's model's linter: each run has its own. */
  lints = sluice_linter_get_lints (sluice_lint_view_get_linter (view));
  for (guint i = 0; i < lints->len; i++)
    saturated |= sluice_lint_get_kind (g_ptr_array_index (lints, i)) == SLUICE_LINT_SATURATED;
  g_assert_true (saturated);
  g_assert_cmpuint (sluice_lint_view_get_count (view), ==, 0);
  g_assert_cmpuint (sluice_lint_view_get_n_rows (view), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (view)));
  window_fixture_close (window);
}

int
main (int    argc,
      char **argv)
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-lints/badge-and-rows-after-a-run", test_badge_and_rows_after_a_run);
  g_test_add_func ("/window-lints/no-badge-without-lints", test_no_badge_without_lints);
  g_test_add_func ("/window-lints/reset-and-recording", test_reset_and_recording);
  g_test_add_func ("/window-lints/badge-is-hidden-at-zero", test_badge_is_hidden_at_zero);
  g_test_add_func ("/window-lints/lesson-mutes-the-lints-it-teaches", test_lesson_mutes_the_lints_it_teaches);

  return g_test_run ();
}
