/* test-window-lessons.c: the Lessons page and a lesson's predict, run and
 * reveal in the window (docs/teaching.md), under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "lesson-fixture.h"
#include "sluice-chart-view.h"
#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "sluice-lesson-gallery.h"
#include "sluice-lesson-panel.h"
#include "sluice-lessons.h"
#include "sluice-timeline-view.h"
#include "window-fixture.h"
#include "test-helpers.h"

static SluiceLessonPanel *
panel_of (SluiceWindow *window)
{
  return SLUICE_LESSON_PANEL (sluice_window_get_lesson_panel (window));
}

static gboolean
run_enabled (SluiceWindow *window)
{
  return window_fixture_action_enabled (window, "win.run");
}

static SluiceWindow *
open_lesson (const char *name)
{
  SluiceWindow *window = window_fixture_new ();

  g_assert_true (sluice_window_open_lesson (window, name));
  g_assert_nonnull (sluice_lesson_panel_get_lesson (panel_of (window)));
  return window;
}

/* Runs the lesson at once (its own clock is virtual) and waits for the
 * reveal, which comes after the run controller's end. */
static void
run_and_reveal (SluiceWindow *window)
{
  guint timeout_id;

  sluice_run_controller_set_instant (sluice_window_get_run_controller (window), TRUE);
  g_assert_true (run_enabled (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.run", NULL));
  window_fixture_wait_for_end (window);

  timeout_id = window_fixture_add_timeout ();
  while (!sluice_lesson_panel_get_revealed (panel_of (window)))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

static void
test_window_lessons_gallery_shows_every_lesson_in_order (void)
{
  SluiceWindow *window = window_fixture_new ();
  SluiceLessonGallery *gallery = SLUICE_LESSON_GALLERY (sluice_window_get_lesson_gallery (window));
  g_autoptr(GPtrArray) lessons = sluice_lessons_list ();
  GVariant *target;
  GtkWidget *card;

  g_assert_false (sluice_window_get_showing_lessons (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lessons", NULL));
  g_assert_true (sluice_window_get_showing_lessons (window));

  g_assert_cmpuint (lessons->len, >=, 12);
  g_assert_cmpuint (sluice_lesson_gallery_get_n_cards (gallery), ==, lessons->len);
  g_assert_cmpstr (sluice_lesson_gallery_get_first (gallery), ==, "completion-order");
  for (guint i = 0; i < lessons->len; i++)
    {
      SluiceScenario *scenario = g_ptr_array_index (lessons, i);
      g_autofree char *name = sluice_lessons_get_name (scenario);

      g_assert_cmpuint (sluice_lesson_get_order (sluice_scenario_get_lesson (scenario)), ==, i + 1);
      g_assert_nonnull (sluice_lesson_gallery_get_card (gallery, name));
    }

  /* A card opens its lesson in the playground. */
  card = sluice_lesson_gallery_get_card (gallery, "backpressure");
  target = gtk_actionable_get_action_target_value (GTK_ACTIONABLE (card));
  g_assert_cmpstr (gtk_actionable_get_action_name (GTK_ACTIONABLE (card)), ==, "win.open-lesson");
  g_assert_cmpstr (g_variant_get_string (target, NULL), ==, "backpressure");
  g_assert_true (gtk_widget_activate_action_variant (card, "win.open-lesson", target));
  g_assert_false (sluice_window_get_showing_lessons (window));
  g_assert_cmpstr (sluice_lesson_get_reveal (sluice_lesson_panel_get_lesson (panel_of (window))), ==,
                   sluice_lesson_get_reveal (sluice_scenario_get_lesson (g_ptr_array_index (lessons, 1))));

  window_fixture_close (window);
}

/* "Run to find out" needs a choice. */
static void
test_window_lessons_run_needs_a_choice (void)
{
  SluiceWindow *window = open_lesson ("completion-order");

  g_assert_cmpuint (sluice_lesson_panel_get_choice (panel_of (window)), ==, 0);
  g_assert_false (run_enabled (window));
  g_assert_false (sluice_lesson_panel_get_revealed (panel_of (window)));
  g_assert_true (sluice_window_choose (window, 3));
  g_assert_cmpuint (sluice_lesson_panel_get_choice (panel_of (window)), ==, 3);
  g_assert_true (run_enabled (window));
  g_assert_false (sluice_window_choose (window, 4));

  /* The configuration keeps the lesson through an edit (no field shows
   * [lesson]): saved or run, it is still one. */
  sluice_config_panel_set_field_text (SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window)),
                                      "pool", "workers", "4");
  g_assert_nonnull (sluice_scenario_get_lesson (
    sluice_config_panel_get_scenario (SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window)))));

  /* A scenario that is no lesson runs without a question. */
  g_assert_true (sluice_window_open_preset (window, "ok", NULL));
  g_assert_null (sluice_lesson_panel_get_lesson (panel_of (window)));
  g_assert_true (run_enabled (window));

  window_fixture_close (window);
}

/* The reveal: wrong, the evidence of this run, the scrubber at the
 * moment, the item it names selected, the Explain tab, done. */
static void
test_window_lessons_reveal_says_wrong_and_moves_the_scrubber (void)
{
  SluiceWindow *window = open_lesson ("completion-order");
  SluiceLessonPanel *panel = panel_of (window);
  SluiceLesson *lesson = sluice_lesson_panel_get_lesson (panel);
  SluiceViewport *viewport = sluice_window_get_viewport (window);
  SluiceLessonGallery *gallery = SLUICE_LESSON_GALLERY (sluice_window_get_lesson_gallery (window));
  GtkWidget *explain = sluice_window_get_explain_view (window);
  GtkNotebook *notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (explain, GTK_TYPE_NOTEBOOK));

  g_assert_cmpuint (sluice_lesson_get_answer (lesson), ==, 2);
  g_assert_true (sluice_window_choose (window, 1));
  run_and_reveal (window);

  g_assert_cmpstr (sluice_lesson_panel_get_verdict (panel), ==, "Not this time. The answer is: 4, 1, 0");
  g_assert_cmpstr (sluice_lesson_panel_get_evidence (panel), ==,
                   "This run showed it. The results came in the order 4, 1, 0.");
  g_assert_cmpint (sluice_viewport_get_playhead (viewport), ==, sluice_lesson_get_moment (lesson));
  g_assert_cmpint (sluice_lesson_get_target (lesson), ==, SLUICE_LESSON_TARGET_ITEM);
  g_assert_cmpint (sluice_timeline_view_get_selected_item (SLUICE_TIMELINE_VIEW (sluice_window_get_timeline_view (window))),
                   ==, sluice_lesson_get_target_index (lesson));
  g_assert_true (gtk_notebook_get_nth_page (notebook, gtk_notebook_get_current_page (notebook)) == explain);
  g_assert_true (g_strv_contains (sluice_lesson_gallery_get_done (gallery), "completion-order"));

  /* Try Again: the question again, the choice kept. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_false (sluice_lesson_panel_get_revealed (panel));
  g_assert_cmpuint (sluice_lesson_panel_get_choice (panel), ==, 1);

  window_fixture_close (window);
}

static void
test_window_lessons_reveal_says_right (void)
{
  SluiceWindow *window = open_lesson ("completion-order");

  g_assert_true (sluice_window_choose (window, 2));
  run_and_reveal (window);
  g_assert_cmpstr (sluice_lesson_panel_get_verdict (panel_of (window)), ==, "Right: 4, 1, 0");

  window_fixture_close (window);
}

/* Neither the virtual clock (a screenshot's, a test's) nor a default the
 * lesson's file spells out (`jitter=full`, which the configuration leaves
 * out) is a changed setting. */
static void
test_window_lessons_defaults_and_clock_are_not_changes (void)
{
  SluiceWindow *window = open_lesson ("retry-storm-jitter");
  guint timeout_id;

  g_assert_true (sluice_window_choose (window, sluice_lesson_get_answer (sluice_lesson_panel_get_lesson (panel_of (window)))));
  window_fixture_run_virtual (window);
  timeout_id = window_fixture_add_timeout ();
  while (!sluice_lesson_panel_get_revealed (panel_of (window)))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);

  g_assert_true (g_str_has_prefix (sluice_lesson_panel_get_verdict (panel_of (window)), "Right"));
  g_assert_true (g_str_has_prefix (sluice_lesson_panel_get_evidence (panel_of (window)), "This run showed it."));

  window_fixture_close (window);
}

/* The verdict judges this run: with one worker instead of the lesson's
 * three, the lesson's answer is not this run's; the reveal says what
 * changed and what this run did, against what the lesson's settings give,
 * in sentences. */
static void
test_window_lessons_verdict_judges_this_run_after_a_change (void)
{
  SluiceWindow *window = open_lesson ("completion-order");
  SluiceConfigPanel *config = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));

  g_assert_true (sluice_window_choose (window, 2));
  run_and_reveal (window);
  g_assert_cmpstr (sluice_lesson_panel_get_verdict (panel_of (window)), ==, "Right: 4, 1, 0");

  /* The class changes a setting and runs again, the choice kept. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  sluice_config_panel_set_field_text (config, "pool", "workers", "1");
  run_and_reveal (window);

  g_assert_cmpstr (sluice_lesson_panel_get_verdict (panel_of (window)), ==,
                   "You changed the settings (Workers: 3 → 1): the lesson's answer is about its own settings, "
                   "so this run cannot say whether your prediction was right.");
  g_assert_cmpstr (sluice_lesson_panel_get_evidence (panel_of (window)), ==,
                   "What this run did: The results came in the order 0, 1, 4. With the lesson's settings: "
                   "The results came in the order 4, 1, 0.");

  window_fixture_close (window);
}

/* A change that keeps the answer true is judged as usual, and said. */
static void
test_window_lessons_verdict_after_a_change_that_keeps_the_answer (void)
{
  SluiceWindow *window = open_lesson ("completion-order");
  SluiceConfigPanel *config = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));

  sluice_config_panel_set_field_text (config, "pool", "workers", "4");
  g_assert_true (sluice_window_choose (window, 1));
  run_and_reveal (window);

  g_assert_cmpstr (sluice_lesson_panel_get_verdict (panel_of (window)), ==, "Not this time. The answer is: 4, 1, 0");
  g_assert_cmpstr (sluice_lesson_panel_get_evidence (panel_of (window)), ==,
                   "With the changed settings this run still showed the lesson's answer. The results came in "
                   "the order 4, 1, 0.");
  window_fixture_close (window);
}

/* The title names the topic until the reveal, then the finding. */
static void
test_window_lessons_title_names_the_result_only_after_the_reveal (void)
{
  SluiceWindow *window = open_lesson ("completion-order");
  const char *heading = sluice_lesson_panel_get_heading (panel_of (window));

  g_assert_cmpstr (heading, ==, "Lesson 1: Completion order: three squares on three workers");
  g_assert_true (sluice_window_choose (window, 2));
  run_and_reveal (window);
  g_assert_cmpstr (sluice_lesson_panel_get_heading (panel_of (window)), ==,
                   "Lesson 1: Results come in the order they finish");

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_cmpstr (sluice_lesson_panel_get_heading (panel_of (window)), ==,
                   "Lesson 1: Completion order: three squares on three workers");
  window_fixture_close (window);
}

/* A lesson on the real clock runs at 1×; the speed comes back after it. */
static void
test_window_lessons_real_clock_lessons_run_at_normal_speed (void)
{
  SluiceWindow *window = window_fixture_new ();
  SluiceClockControls *controls = SLUICE_CLOCK_CONTROLS (window_fixture_find_widget (GTK_WIDGET (window),
                                                                                     SLUICE_TYPE_CLOCK_CONTROLS));

  sluice_clock_controls_set_speed (controls, 10.0);
  g_assert_true (sluice_window_open_lesson (window, "blocking-call"));
  g_assert_cmpfloat (sluice_clock_controls_get_speed (controls), ==, 1.0);
  g_assert_true (sluice_window_open_lesson (window, "blocking-call-thread"));
  g_assert_cmpfloat (sluice_clock_controls_get_speed (controls), ==, 1.0);
  g_assert_true (sluice_window_open_lesson (window, "completion-order"));
  g_assert_cmpfloat (sluice_clock_controls_get_speed (controls), ==, 10.0);
  window_fixture_close (window);
}

/* Next Lesson opens the lesson `next` names; the last one's button goes
 * back to the gallery. */
static void
test_window_lessons_next_lesson_follows_the_chain (void)
{
  SluiceWindow *window = open_lesson ("completion-order");
  g_autoptr(GPtrArray) lessons = sluice_lessons_list ();
  g_autofree char *last = sluice_lessons_get_name (g_ptr_array_index (lessons, lessons->len - 1));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.next-lesson", NULL));
  g_assert_cmpuint (sluice_lesson_get_order (sluice_lesson_panel_get_lesson (panel_of (window))), ==, 2);
  g_assert_cmpuint (sluice_lesson_panel_get_choice (panel_of (window)), ==, 0);

  g_assert_true (sluice_window_open_lesson (window, last));
  g_assert_null (sluice_lesson_get_next (sluice_lesson_panel_get_lesson (panel_of (window))));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.next-lesson", NULL));
  g_assert_true (sluice_window_get_showing_lessons (window));

  window_fixture_close (window);
}

/* A moment that names the lead points at it: the chart's readout at the
 * moment, gone after a reset. */
static void
test_window_lessons_lead_moment_pins_the_readout (void)
{
  SluiceWindow *window = open_lesson ("backpressure");
  SluiceLesson *lesson = sluice_lesson_panel_get_lesson (panel_of (window));
  SluiceChartView *chart = SLUICE_CHART_VIEW (window_fixture_find_widget (GTK_WIDGET (window),
                                                                          SLUICE_TYPE_CHART_VIEW));

  g_assert_cmpint (sluice_lesson_get_target (lesson), ==, SLUICE_LESSON_TARGET_LEAD);
  g_assert_cmpint (sluice_chart_view_get_pinned_readout (chart), ==, -1);
  g_assert_true (sluice_window_choose (window, 1));
  run_and_reveal (window);
  g_assert_cmpint (sluice_chart_view_get_pinned_readout (chart), ==, sluice_lesson_get_moment (lesson));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_cmpint (sluice_chart_view_get_pinned_readout (chart), ==, -1);
  window_fixture_close (window);
}

/* A revealed lesson is done in the settings, and the gallery marks what
 * the settings say; Reset Progress forgets them all. */
static void
test_window_lessons_done_is_kept_in_the_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.sluicepool.Sluice");
  const char *before[] = { "backpressure", NULL };
  g_auto(GStrv) done = NULL;
  SluiceWindow *window;
  SluiceLessonGallery *gallery;

  g_settings_set_strv (settings, "lessons-done", before);
  window = g_object_ref (sluice_window_new (NULL));
  sluice_window_bind_settings (window, settings);
  gtk_window_present (GTK_WINDOW (window));
  gallery = SLUICE_LESSON_GALLERY (sluice_window_get_lesson_gallery (window));
  g_assert_true (g_strv_equal (sluice_lesson_gallery_get_done (gallery), before));

  g_assert_true (sluice_window_open_lesson (window, "completion-order"));
  g_assert_true (sluice_window_choose (window, 2));
  run_and_reveal (window);

  done = g_settings_get_strv (settings, "lessons-done");
  g_assert_true (g_strv_contains ((const char * const *) done, "backpressure"));
  g_assert_true (g_strv_contains ((const char * const *) done, "completion-order"));
  g_assert_cmpuint (g_strv_length (done), ==, 2);
  g_assert_true (g_strv_contains (sluice_lesson_gallery_get_done (gallery), "completion-order"));

  /* Reset Progress, for the next class: nothing done, in the settings and
   * in the gallery. */
  g_clear_pointer (&done, g_strfreev);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset-lesson-progress", NULL));
  done = g_settings_get_strv (settings, "lessons-done");
  g_assert_cmpuint (g_strv_length (done), ==, 0);
  g_assert_cmpuint (g_strv_length ((char **) sluice_lesson_gallery_get_done (gallery)), ==, 0);

  window_fixture_close (window);
  g_settings_reset (settings, "lessons-done");
}

/* The texts of a lesson in German. */
static void
test_window_lessons_in_german (void)
{
  SluiceWindow *window;

  sluice_test_set_language ("de");
  window = open_lesson ("completion-order");
  g_assert_true (sluice_window_choose (window, 1));
  run_and_reveal (window);

  g_assert_cmpstr (sluice_lesson_panel_get_verdict (panel_of (window)), ==,
                   "Diesmal nicht. Die Antwort ist: 4, 1, 0");
  window_fixture_close (window);
  sluice_test_set_language ("");
}

/* Every label of the lesson panel after the reveal, in German: German
 * numbers throughout, and no report key. */
static void
test_window_lessons_german_reveal_has_german_numbers (gconstpointer data)
{
  const char *name = data;
  SluiceWindow *window;
  GtkWidget *panel;

  sluice_test_set_language ("de");
  window = open_lesson (name);
  g_assert_true (sluice_window_choose (window, 1));
  run_and_reveal (window);

  panel = GTK_WIDGET (panel_of (window));
  for (GtkWidget *w = gtk_widget_get_first_child (panel); w != NULL; )
    {
      if (GTK_IS_LABEL (w) && gtk_widget_get_visible (w))
        {
          const char *text = gtk_label_get_text (GTK_LABEL (w));

          if (lesson_fixture_has_decimal_point (text) || strstr (text, "_") != NULL)
            g_error ("%s: “%s”", name, text);
        }
      /* Depth first through the panel. */
      if (gtk_widget_get_first_child (w) != NULL)
        w = gtk_widget_get_first_child (w);
      else
        {
          while (w != panel && gtk_widget_get_next_sibling (w) == NULL)
            w = gtk_widget_get_parent (w);
          w = w != panel ? gtk_widget_get_next_sibling (w) : NULL;
        }
    }
  g_assert_nonnull (strstr (sluice_lesson_panel_get_evidence (panel_of (window)), ","));
  window_fixture_close (window);
  sluice_test_set_language ("");
}

/* Whether the window's run keys take @keyval (unmodified) with the focus
 * where it is, as its capture-phase controller would, before the focus
 * widget sees the key (GTK 4.8 tests cannot synthesize key events). */
static gboolean
window_takes_key (SluiceWindow *window,
                  guint         keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      /* Those that see the key before the focus widget does; the bubble
       * phase's (GtkWindow's activate-focus) come after a field typed it. */
      if (!GTK_IS_SHORTCUT_CONTROLLER (controller) ||
          gtk_event_controller_get_propagation_phase (controller) != GTK_PHASE_CAPTURE)
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
          g_autofree char *text = gtk_shortcut_trigger_to_string (trigger);
          g_auto(GStrv) keys = g_strsplit (text, "|", -1);

          if (!g_strv_contains ((const char * const *) keys, gdk_keyval_name (keyval)))
            continue;
          if (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                            gtk_event_controller_get_widget (controller),
                                            gtk_shortcut_get_arguments (shortcut)))
            {
              g_autofree char *action = gtk_shortcut_action_to_string (gtk_shortcut_get_action (shortcut));

              g_test_message ("the window took %s: %s (%s)", gdk_keyval_name (keyval), action,
                              gtk_event_controller_get_name (controller));
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* Space typed in a lesson's settings stays in the field: it neither
 * starts the run nor plays it back, before or after the run. */
static void
test_window_lessons_space_in_a_text_field_stays_there (void)
{
  SluiceWindow *window = open_lesson ("completion-order");
  SluiceConfigPanel *config = SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
  GtkWidget *fields[] = {
    sluice_config_panel_get_field_widget (config, "pool", "retryable"),
    sluice_config_panel_get_field_widget (config, "pool", "workers"),
    sluice_config_panel_get_field_widget (config, "handler", "item.*"),
  };

  g_object_set (panel_of (window), "show-settings", TRUE, NULL);
  g_assert_true (sluice_window_choose (window, 2));
  for (guint round = 0; round < 2; round++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        {
          g_assert_nonnull (fields[i]);
          g_assert_true (gtk_widget_grab_focus (fields[i]));
          g_test_message ("focus on %s", G_OBJECT_TYPE_NAME (gtk_root_get_focus (GTK_ROOT (window))));
          g_assert_false (window_takes_key (window, GDK_KEY_space));
          g_assert_false (sluice_window_get_running (window));
        }
      if (round == 0)
        run_and_reveal (window);
    }
  window_fixture_close (window);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-lessons/gallery-shows-every-lesson-in-order",
                   test_window_lessons_gallery_shows_every_lesson_in_order);
  g_test_add_func ("/window-lessons/run-needs-a-choice", test_window_lessons_run_needs_a_choice);
  g_test_add_func ("/window-lessons/reveal-says-wrong-and-moves-the-scrubber",
                   test_window_lessons_reveal_says_wrong_and_moves_the_scrubber);
  g_test_add_func ("/window-lessons/reveal-says-right", test_window_lessons_reveal_says_right);
  g_test_add_func ("/window-lessons/defaults-and-clock-are-not-changes", test_window_lessons_defaults_and_clock_are_not_changes);
  g_test_add_func ("/window-lessons/verdict-judges-this-run-after-a-change",
                   test_window_lessons_verdict_judges_this_run_after_a_change);
  g_test_add_func ("/window-lessons/verdict-after-a-change-that-keeps-the-answer",
                   test_window_lessons_verdict_after_a_change_that_keeps_the_answer);
  g_test_add_func ("/window-lessons/title-names-the-result-only-after-the-reveal",
                   test_window_lessons_title_names_the_result_only_after_the_reveal);
  g_test_add_func ("/window-lessons/real-clock-lessons-run-at-normal-speed",
                   test_window_lessons_real_clock_lessons_run_at_normal_speed);
  g_test_add_func ("/window-lessons/next-lesson-follows-the-chain", test_window_lessons_next_lesson_follows_the_chain);
  g_test_add_func ("/window-lessons/lead-moment-pins-the-readout", test_window_lessons_lead_moment_pins_the_readout);
  g_test_add_func ("/window-lessons/done-is-kept-in-the-settings", test_window_lessons_done_is_kept_in_the_settings);
  g_test_add_func ("/window-lessons/in-german", test_window_lessons_in_german);
  g_test_add_func ("/window-lessons/space-in-a-text-field-stays-there",
                   test_window_lessons_space_in_a_text_field_stays_there);
  g_test_add_data_func ("/window-lessons/german-reveal-has-german-numbers/slow-caller", "slow-caller",
                        test_window_lessons_german_reveal_has_german_numbers);
  g_test_add_data_func ("/window-lessons/german-reveal-has-german-numbers/deadline-shed", "deadline-shed",
                        test_window_lessons_german_reveal_has_german_numbers);

  return g_test_run ();
}
