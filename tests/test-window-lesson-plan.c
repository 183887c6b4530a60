/* test-window-lesson-plan.c: the teacher's side of the Lessons page
 * (docs/teaching.md, issue 26): the workshop plan read from data/lessons and
 * translated, its window, Reset Progress, and the presenter's keys for the
 * next and the previous lesson, under Xvfb
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <locale.h>
#include <string.h>

#include "sluice-application.h"
#include "sluice-lesson-panel.h"
#include "sluice-lesson-plan-window.h"
#include "sluice-lessons.h"
#include "window-fixture.h"
#include "test-helpers.h"

static SluiceLessonPlan *
load_plan (void)
{
  g_autoptr(GError) error = NULL;
  SluiceLessonPlan *plan = sluice_lesson_plan_load (&error);

  g_assert_no_error (error);
  g_assert_nonnull (plan);
  return plan;
}

/* Every lesson once, in the gallery's order, each with a goal and what to
 * ask the room; the blocks follow each other and fill 90 minutes. */
static void
test_plan_covers_every_lesson_in_order (void)
{
  g_autoptr(SluiceLessonPlan) plan = load_plan ();
  g_autoptr(GPtrArray) lessons = sluice_lessons_list ();
  guint next_lesson = 0, end = 0;

  g_assert_nonnull (sluice_lesson_plan_get_title (plan));
  g_assert_nonnull (sluice_lesson_plan_get_comment (plan));
  for (guint i = 0; i < sluice_lesson_plan_get_n_blocks (plan); i++)
    {
      const SluiceLessonPlanBlock *block = sluice_lesson_plan_get_block (plan, i);

      g_assert_cmpuint (block->from, ==, end);
      g_assert_cmpuint (block->to, >, block->from);
      end = block->to;
      g_assert_nonnull (block->goal);
      if (block->lesson == NULL)
        {
          g_assert_nonnull (block->title);
          continue;
        }
      g_assert_cmpuint (next_lesson, <, lessons->len);
      {
        g_autofree char *name = sluice_lessons_get_name (g_ptr_array_index (lessons, next_lesson));

        g_assert_cmpstr (block->lesson, ==, name);
      }
      g_assert_nonnull (block->ask);
      next_lesson++;
    }
  g_assert_cmpuint (next_lesson, ==, lessons->len);
  g_assert_cmpuint (end, ==, 90);
}

/* A malformed plan names its file, group and key. */
static void
test_plan_errors_name_the_key (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "sluice-test-plan.desktop", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceLessonPlan) plan = NULL;

  g_assert_true (g_file_set_contents (path, "[Workshop]\nName=W\n[intro]\nMinutes=5-3\nTitle=T\nGoal=G\n", -1, NULL));
  plan = sluice_lesson_plan_new_from_file (path, &error);
  g_assert_null (plan);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "[intro] Minutes: expected FROM-TO"));
  g_assert_true (g_str_has_prefix (error->message, path));
  g_remove (path);
}

/* In German, the plan is German (through po/), numbers included. */
static void
test_plan_is_translated (void)
{
  g_autoptr(SluiceLessonPlan) english = load_plan ();
  g_autoptr(SluiceLessonPlan) german = NULL;
  const SluiceLessonPlanBlock *block;

  sluice_test_set_language ("de");
  german = load_plan ();
  sluice_test_set_language ("");

  g_assert_cmpstr (sluice_lesson_plan_get_title (german), !=, sluice_lesson_plan_get_title (english));
  for (guint i = 0; i < sluice_lesson_plan_get_n_blocks (german); i++)
    {
      const SluiceLessonPlanBlock *de = sluice_lesson_plan_get_block (german, i);
      const SluiceLessonPlanBlock *en = sluice_lesson_plan_get_block (english, i);

      g_assert_cmpstr (de->goal, !=, en->goal);
      if (en->ask != NULL)
        g_assert_cmpstr (de->ask, !=, en->ask);
      if (en->notes != NULL)
        g_assert_cmpstr (de->notes, !=, en->notes);
    }
  block = sluice_lesson_plan_get_block (german, 1);
  g_assert_cmpstr (block->lesson, ==, "completion-order");
  g_assert_nonnull (strstr (block->ask, "0,3 s"));
}

/* win.show-lesson-plan opens the plan beside the window; a block's Open
 * opens its lesson there. */
static void
test_plan_window_opens_lessons (void)
{
  SluiceWindow *window = window_fixture_new ();
  g_autoptr(SluiceLessonPlan) plan = load_plan ();
  GtkWidget *plan_window = NULL;
  GtkWidget *open;
  GListModel *toplevels = gtk_window_get_toplevels ();

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lesson-plan", NULL));
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (SLUICE_IS_LESSON_PLAN_WINDOW (toplevel))
        plan_window = toplevel;
    }
  g_assert_nonnull (plan_window);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (plan_window)) == GTK_WINDOW (window));
  g_assert_cmpuint (sluice_lesson_plan_window_get_n_rows (SLUICE_LESSON_PLAN_WINDOW (plan_window)), ==,
                    sluice_lesson_plan_get_n_blocks (plan));

  open = sluice_lesson_plan_window_get_open_button (SLUICE_LESSON_PLAN_WINDOW (plan_window), "backpressure");
  g_assert_nonnull (open);
  g_signal_emit_by_name (open, "clicked");
  g_assert_cmpuint (sluice_lesson_get_order (sluice_lesson_panel_get_lesson (
                      SLUICE_LESSON_PANEL (sluice_window_get_lesson_panel (window)))), ==, 2);

  gtk_window_destroy (GTK_WINDOW (plan_window));
  window_fixture_close (window);
}

static guint
shown_order (SluiceWindow *window)
{
  SluiceLesson *lesson = sluice_lesson_panel_get_lesson (SLUICE_LESSON_PANEL (sluice_window_get_lesson_panel (window)));

  return lesson != NULL ? sluice_lesson_get_order (lesson) : 0;
}

/* Previous goes back along the order; before the first, the gallery. */
static void
test_previous_lesson_goes_back (void)
{
  SluiceWindow *window = window_fixture_new ();

  g_assert_true (sluice_window_open_lesson (window, "slow-caller"));
  g_assert_cmpuint (shown_order (window), ==, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-lesson", NULL));
  g_assert_cmpuint (shown_order (window), ==, 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.next-lesson", NULL));
  g_assert_cmpuint (shown_order (window), ==, 3);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-lesson", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-lesson", NULL));
  g_assert_cmpuint (shown_order (window), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.previous-lesson", NULL));
  g_assert_true (sluice_window_get_showing_lessons (window));
  window_fixture_close (window);
}

/* The presenter's keys: Alt+→ and Alt+← (and a clicker's Page Down and
 * Page Up with Alt) for the next and the previous lesson. */
static void
test_presenter_keys (void)
{
  g_autoptr(SluiceApplication) app = sluice_application_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) next = NULL;
  g_auto(GStrv) previous = NULL;

  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  next = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.next-lesson");
  previous = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.previous-lesson");
  g_assert_true (g_strv_contains ((const char * const *) next, "<Alt>Right"));
  g_assert_true (g_strv_contains ((const char * const *) next, "<Alt>Page_Down"));
  g_assert_true (g_strv_contains ((const char * const *) previous, "<Alt>Left"));
  g_assert_true (g_strv_contains ((const char * const *) previous, "<Alt>Page_Up"));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window-lesson-plan/covers-every-lesson-in-order", test_plan_covers_every_lesson_in_order);
  g_test_add_func ("/window-lesson-plan/errors-name-the-key", test_plan_errors_name_the_key);
  g_test_add_func ("/window-lesson-plan/is-translated", test_plan_is_translated);
  g_test_add_func ("/window-lesson-plan/window-opens-lessons", test_plan_window_opens_lessons);
  g_test_add_func ("/window-lesson-plan/previous-lesson-goes-back", test_previous_lesson_goes_back);
  g_test_add_func ("/window-lesson-plan/presenter-keys", test_presenter_keys);

  return g_test_run ();
}
