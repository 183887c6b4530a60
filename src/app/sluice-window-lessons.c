/* sluice-window-lessons.c: the Lessons page, and a lesson's question and
 * reveal around its run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-lesson-changes.h"
#include "sluice-lesson-plan-window.h"
#include "sluice-lessons.h"
#include "sluice-window-private.h"

/*
 * docs/teaching.md: the gallery of lessons (win.show-lessons, Ctrl+L), a card
 * opens its lesson (win.open-lesson) in the playground with its question
 * above the configuration. "Run to find out" (win.run) needs a choice.
 * When the run's report comes, the reveal: right or wrong, `reveal`
 * checked against this very report, the scrubber at `moment`, what it
 * names highlighted, the Explain tab at that moment, the lesson marked
 * done in the settings (`lessons-done`), and Next Lesson.
 */

#define DONE_KEY "lessons-done"
/* The lesson's scenario as its file has it: what its answer is about. */
#define LESSON_SETTINGS "sluice-lesson-settings"
/* The speed before a real-clock lesson set 1×, restored after it. */
#define SPEED_BEFORE "sluice-speed-before-real-time"

static SluiceLesson *
current_lesson (SluiceWindow *self)
{
  return sluice_lesson_panel_get_lesson (self->lesson_panel);
}

/**
 * _sluice_window_show_lessons_page:
 * @self: a #SluiceWindow
 * @lessons: whether to show the Lessons page, rather than the playground
 *
 * Sets #SluiceWindow:show-lessons (`win.show-lessons`, Ctrl+L).
 */
void
_sluice_window_show_lessons_page (SluiceWindow *self,
                                  gboolean      lessons)
{
  GtkWidget *run_widgets[] = {
    GTK_WIDGET (self->run_button), GTK_WIDGET (self->stop_button), self->cancel_button, self->reset_button,
    GTK_WIDGET (self->clock_controls),
  };

  gtk_stack_set_visible_child_name (self->main_stack, lessons ? "lessons" : "playground");
  /* The run's buttons belong to the playground. */
  for (guint i = 0; i < G_N_ELEMENTS (run_widgets); i++)
    gtk_widget_set_visible (run_widgets[i], !lessons);
  if (lessons)
    gtk_widget_grab_focus (GTK_WIDGET (self->lesson_gallery));
  g_object_notify (G_OBJECT (self), "show-lessons");
}

/**
 * _sluice_window_get_lessons_page_shown:
 * @self: a #SluiceWindow
 *
 * Returns: whether the Lessons page is shown (#SluiceWindow:show-lessons)
 */
gboolean
_sluice_window_get_lessons_page_shown (SluiceWindow *self)
{
  return self->main_stack != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "lessons") == 0;
}

/**
 * sluice_window_open_lesson:
 * @self: a #SluiceWindow
 * @name: a lesson's name (its file name without `.pool`)
 *
 * Opens the lesson in the playground (asking first about unsaved
 * changes, as opening any file does).
 *
 * Returns: %FALSE if there is no such lesson
 */
gboolean
sluice_window_open_lesson (SluiceWindow *self,
                           const char   *name)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  path = sluice_lessons_find (name);
  if (path == NULL)
    return FALSE;

  _sluice_window_show_lessons_page (self, FALSE);
  sluice_window_open_file_asking (self, path);
  return TRUE;
}

static void
open_lesson_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  sluice_window_open_lesson (SLUICE_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

static void
next_lesson_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  SluiceLesson *lesson = current_lesson (self);

  if (lesson == NULL || sluice_lesson_get_next (lesson) == NULL ||
      !sluice_window_open_lesson (self, sluice_lesson_get_next (lesson)))
    _sluice_window_show_lessons_page (self, TRUE);
}

/* The lesson before the one shown (by order), for a presenter's
 * Alt+←; before the first, the gallery. */
static void
previous_lesson_activated (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  SluiceLesson *lesson = current_lesson (self);
  g_autoptr(GPtrArray) lessons = sluice_lessons_list ();
  g_autofree char *previous = NULL;

  for (guint i = 0; lesson != NULL && i < lessons->len; i++)
    {
      SluiceScenario *scenario = g_ptr_array_index (lessons, i);

      if (sluice_lesson_get_order (sluice_scenario_get_lesson (scenario)) + 1 == sluice_lesson_get_order (lesson))
        previous = sluice_lessons_get_name (scenario);
    }
  if (previous == NULL || !sluice_window_open_lesson (self, previous))
    _sluice_window_show_lessons_page (self, TRUE);
}

/* The plan of the workshop, for the teacher: a window of its own beside
 * the playground, or a message saying why there is none. */
static void
show_lesson_plan_activated (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceLessonPlan) plan = sluice_lesson_plan_load (&error);

  if (plan == NULL)
    {
      _sluice_window_set_banner (self, BANNER_ERROR, error->message);
      return;
    }
  gtk_window_present (GTK_WINDOW (sluice_lesson_plan_window_new (GTK_WINDOW (self), plan)));
}

/* A new class: no lesson is done. */
static void
reset_lesson_progress_activated (GtkWidget  *widget,
                                const char *action_name,
                                GVariant   *parameter)
{
  SluiceWindow *self = SLUICE_WINDOW (widget);
  const char * const none[] = { NULL };

  if (self->settings != NULL)
    g_settings_set_strv (self->settings, DONE_KEY, none);
  else
    sluice_lesson_gallery_set_done (self->lesson_gallery, none);
}

/* ---- the lesson in the playground -------------------------------------- */

static char *
title_of_lesson (const char *name)
{
  g_autofree char *path = name != NULL ? sluice_lessons_find (name) : NULL;
  g_autoptr(SluiceScenario) scenario = path != NULL ? sluice_scenario_new_from_file (path, NULL, NULL) : NULL;

  return scenario != NULL ? g_strdup (sluice_scenario_get_title (scenario)) : NULL;
}

/* A lesson shows its question the sidebar's height, and its settings
 * only when asked. */
static void
show_settings (SluiceWindow *self)
{
  gboolean shown = current_lesson (self) == NULL;

  if (!shown)
    g_object_get (self->lesson_panel, "show-settings", &shown, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->config_panel), shown);
}

/* The header's Run stays short (the header bar must fit 1024 pixels in
 * German); the lesson's own button says "Run to Find Out". */
static void
update_run_button (SluiceWindow *self)
{
  gboolean lesson = current_lesson (self) != NULL;

  gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button),
                               lesson ? _("Choose an answer, then run the lesson to find out whether it comes true "
                                          "(Ctrl+R)")
                                      : _("Run the scenario (Ctrl+R)"));
}

/* A lesson whose handler blocks or uses a thread spends the machine's own
 * time: at 10× its timers would race a 0.4 s block that stays 0.4 s. It
 * runs at 1×, and the speed the user had comes back after it. */
static void
set_real_time_speed (SluiceWindow *self,
                     gboolean      real_time)
{
  double *before = g_object_get_data (G_OBJECT (self), SPEED_BEFORE);

  if (real_time && before == NULL)
    {
      before = g_new (double, 1);
      *before = sluice_clock_controls_get_speed (self->clock_controls);
      g_object_set_data_full (G_OBJECT (self), SPEED_BEFORE, before, g_free);
      sluice_clock_controls_set_speed (self->clock_controls, 1.0);
    }
  else if (!real_time && before != NULL)
    {
      sluice_clock_controls_set_speed (self->clock_controls, *before);
      g_object_set_data (G_OBJECT (self), SPEED_BEFORE, NULL);
    }
}

/* The lints @lesson teaches, as sluice_lint_view_set_muted() takes them. */
static guint
muted_lints (SluiceLesson *lesson)
{
  guint muted = 0;

  for (guint kind = 0; lesson != NULL && kind < SLUICE_LINT_N_KINDS; kind++)
    if (sluice_lesson_mutes_lint (lesson, kind))
      muted |= 1u << kind;
  return muted;
}

/**
 * _sluice_window_show_lesson:
 * @self: a #SluiceWindow
 * @scenario: the scenario just opened
 *
 * Asks the scenario's lesson above the configuration, or hides the
 * question when it is not a lesson.
 */
void
_sluice_window_show_lesson (SluiceWindow   *self,
                            SluiceScenario *scenario)
{
  SluiceLesson *lesson = sluice_scenario_get_lesson (scenario);
  g_autofree char *next_title = lesson != NULL ? title_of_lesson (sluice_lesson_get_next (lesson)) : NULL;

  sluice_lesson_panel_set_lesson (self->lesson_panel, lesson, sluice_scenario_get_title (scenario),
                                  sluice_scenario_get_description (scenario), next_title);
  g_object_set_data_full (G_OBJECT (self), LESSON_SETTINGS, lesson != NULL ? g_object_ref (scenario) : NULL,
                          g_object_unref);
  set_real_time_speed (self, lesson != NULL && sluice_scenario_needs_real_time (scenario));
  sluice_lint_view_set_muted (self->lint_view, muted_lints (lesson));
  gtk_widget_set_visible (self->lesson_scroller, lesson != NULL);
  _sluice_window_fit_counters (self);
  show_settings (self);
  update_run_button (self);
  _sluice_window_update_actions (self);
}

/**
 * _sluice_window_ask_lesson_again:
 * @self: a #SluiceWindow
 *
 * After a reset: the question again, with the choice kept.
 */
void
_sluice_window_ask_lesson_again (SluiceWindow *self)
{
  sluice_chart_view_pin_readout (self->chart_view, -1);
  if (current_lesson (self) != NULL)
    sluice_lesson_panel_ask (self->lesson_panel);
}

/* ---- the reveal -------------------------------------------------------- */

/* The attempt on @worker's lane at @time, or the last one it started
 * before: what `moment=T worker N` points at. */
static gint64
item_on_worker (SluiceWindow *self,
                gint64        worker,
                gint64        time)
{
  SluiceTimeline *timeline = sluice_run_model_get_timeline (sluice_run_controller_get_model (self->run));
  gint64 item = -1;

  for (guint i = 0; timeline != NULL && i < sluice_timeline_get_n_bars (timeline); i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (timeline, i);

      if (bar->worker == worker && bar->start <= time)
        item = bar->item;
    }

  return item;
}

/* Highlights what the moment names, and says where to look. */
static char *
point_at (SluiceWindow *self,
          SluiceLesson *lesson,
          gint64        moment)
{
  g_autofree char *when = sluice_lesson_format_seconds (moment);
  gint64 index = sluice_lesson_get_target_index (lesson);
  gint64 item;

  switch (sluice_lesson_get_target (lesson))
    {
    case SLUICE_LESSON_TARGET_ITEM:
      sluice_timeline_view_set_selected_item (self->timeline_view, index);
      /* Translators: %s is a time such as “0.300 s”, %d an item's number. */
      return g_strdup_printf (_("At %s: look at item %d in the worker lanes (highlighted)."), when, (int) index);
    case SLUICE_LESSON_TARGET_WORKER:
      item = item_on_worker (self, index, moment);
      sluice_timeline_view_set_selected_item (self->timeline_view, item);
      /* Translators: %s is a time such as “0.300 s”, %d a worker's number. */
      return g_strdup_printf (_("At %s: look at worker %d's lane (its attempt is highlighted)."), when, (int) index);
    case SLUICE_LESSON_TARGET_LEAD:
      sluice_chart_view_pin_readout (self->chart_view, moment);
      /* Translators: %s is a time such as “0.300 s”. */
      return g_strdup_printf (_("At %s: look at the lead (pulled, unfinished) against its bound in the queue "
                                "chart, at the playhead."), when);
    case SLUICE_LESSON_TARGET_QUEUE:
      sluice_chart_view_pin_readout (self->chart_view, moment);
      /* Translators: %s is a time such as “0.300 s”. */
      return g_strdup_printf (_("At %s: look at the queue depth against its capacity in the queue chart, at "
                                "the playhead."), when);
    case SLUICE_LESSON_TARGET_NONE:
    default:
      /* Translators: %s is a time such as “0.300 s”. */
      return g_strdup_printf (_("At %s: look at the chart and the lanes at the playhead."), when);
    }
}

static void
mark_done (SluiceWindow *self)
{
  g_auto(GStrv) done = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) names = NULL;
  const char *path = sluice_document_get_path (self->document);
  g_autofree char *base = path != NULL ? g_path_get_basename (path) : NULL;

  if (base == NULL || !g_str_has_suffix (base, ".pool"))
    return;
  base[strlen (base) - strlen (".pool")] = '\0';

  /* Without settings (a test's window), the gallery keeps them. */
  if (self->settings != NULL)
    done = g_settings_get_strv (self->settings, DONE_KEY);
  else
    done = g_strdupv ((char **) sluice_lesson_gallery_get_done (self->lesson_gallery));
  if (done != NULL && g_strv_contains ((const char * const *) done, base))
    return;

  builder = g_strv_builder_new ();
  if (done != NULL)
    g_strv_builder_addv (builder, (const char **) done);
  g_strv_builder_add (builder, base);
  names = g_strv_builder_end (builder);

  if (self->settings != NULL)
    g_settings_set_strv (self->settings, DONE_KEY, (const char * const *) names);
  else
    sluice_lesson_gallery_set_done (self->lesson_gallery, (const char * const *) names);
}

/* The settings in which the run that was made differs from the lesson's
 * own, or NULL; and whether it ran on the real clock. */
static char *
changes_of_this_run (SluiceWindow *self,
                     gboolean     *real_clock)
{
  SluiceScenario *settings = g_object_get_data (G_OBJECT (self), LESSON_SETTINGS);
  const char *text = sluice_run_controller_get_scenario_text (self->run);
  g_autoptr(SluiceScenario) ran = NULL;

  if (text != NULL)
    ran = sluice_scenario_new_from_data (text, -1, NULL, NULL, NULL);
  if (ran == NULL)
    ran = g_object_ref (sluice_config_panel_get_scenario (self->config_panel));
  *real_clock = sluice_scenario_needs_real_time (ran);
  return settings != NULL ? sluice_lesson_changes_describe (settings, ran) : NULL;
}

static void
reveal (SluiceWindow *self,
        JsonNode     *report)
{
  SluiceLesson *lesson = current_lesson (self);
  g_autofree char *pointed_at = NULL;
  g_autofree char *changes = NULL;
  gboolean real_clock = FALSE;
  gint64 moment;

  if (lesson == NULL || sluice_run_controller_get_running (self->run) ||
      sluice_lesson_panel_get_choice (self->lesson_panel) == 0 ||
      sluice_lesson_panel_get_revealed (self->lesson_panel))
    return;

  changes = changes_of_this_run (self, &real_clock);
  moment = sluice_lesson_get_moment (lesson);
  if (moment < 0)
    moment = sluice_run_model_get_now (sluice_run_controller_get_model (self->run));
  sluice_viewport_set_playhead (sluice_run_controller_get_viewport (self->run), moment);
  pointed_at = point_at (self, lesson, moment);

  gtk_notebook_set_current_page (self->notebook,
                                 gtk_notebook_page_num (self->notebook, GTK_WIDGET (self->explain_view)));
  sluice_lesson_panel_reveal (self->lesson_panel, report, changes, real_clock, pointed_at);
  mark_done (self);
}

/* The run controller has said how the run ended (the counters and the
 * banner are the end's): now the playhead may move. */
static void
on_run_finished (SluiceWindow *self)
{
  JsonNode *report = sluice_run_model_get_report (sluice_run_controller_get_model (self->run));

  if (report != NULL && JSON_NODE_HOLDS_OBJECT (report))
    reveal (self, report);
}

/* ---- set-up ------------------------------------------------------------ */

static void
on_done_changed (SluiceWindow *self)
{
  g_auto(GStrv) done = g_settings_get_strv (self->settings, DONE_KEY);

  sluice_lesson_gallery_set_done (self->lesson_gallery, (const char * const *) done);
}

/**
 * _sluice_window_bind_lesson_settings:
 * @self: a #SluiceWindow with its settings
 *
 * The gallery shows the lessons done, as the settings keep them.
 */
void
_sluice_window_bind_lesson_settings (SluiceWindow *self)
{
  g_signal_connect_object (self->settings, "changed::" DONE_KEY, G_CALLBACK (on_done_changed), self,
                           G_CONNECT_SWAPPED);
  on_done_changed (self);
}

/**
 * _sluice_window_class_install_lesson_actions:
 * @widget_class: the window's class
 *
 * Installs `win.show-lessons` (a property action), `win.open-lesson`,
 * `win.next-lesson`, `win.previous-lesson`, `win.show-lesson-plan` and
 * `win.reset-lesson-progress`.
 */
void
_sluice_window_class_install_lesson_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_property_action (widget_class, "win.show-lessons", "show-lessons");
  gtk_widget_class_install_action (widget_class, "win.open-lesson", "s", open_lesson_activated);
  gtk_widget_class_install_action (widget_class, "win.next-lesson", NULL, next_lesson_activated);
  gtk_widget_class_install_action (widget_class, "win.previous-lesson", NULL, previous_lesson_activated);
  gtk_widget_class_install_action (widget_class, "win.show-lesson-plan", NULL, show_lesson_plan_activated);
  gtk_widget_class_install_action (widget_class, "win.reset-lesson-progress", NULL, reset_lesson_progress_activated);
}

/**
 * _sluice_window_connect_lesson_panel:
 * @self: a #SluiceWindow
 *
 * Follows the lesson panel: a choice enables Run, and its settings
 * button shows the configuration.
 */
void
_sluice_window_connect_lesson_panel (SluiceWindow *self)
{
  g_signal_connect_swapped (self->lesson_panel, "notify::choice", G_CALLBACK (_sluice_window_update_actions), self);
  g_signal_connect_swapped (self->lesson_panel, "notify::show-settings", G_CALLBACK (show_settings), self);
}

/**
 * _sluice_window_connect_lesson_run:
 * @self: a #SluiceWindow with its run controller
 *
 * The reveal of a lesson that was answered and run comes when the run has
 * finished: before a --screenshot's batch, which connects later, takes its
 * picture.
 */
void
_sluice_window_connect_lesson_run (SluiceWindow *self)
{
  g_signal_connect_swapped (self->run, "finished", G_CALLBACK (on_run_finished), self);
}

/**
 * sluice_window_get_lesson_panel:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the lesson's question and answer
 */
GtkWidget *
sluice_window_get_lesson_panel (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->lesson_panel);
}

/**
 * sluice_window_get_lesson_gallery:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the Lessons page
 */
GtkWidget *
sluice_window_get_lesson_gallery (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->lesson_gallery);
}

/**
 * sluice_window_get_showing_lessons:
 * @self: a #SluiceWindow
 *
 * Returns: whether the Lessons page is shown
 */
gboolean
sluice_window_get_showing_lessons (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  return self->main_stack != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->main_stack), "lessons") == 0;
}

/**
 * sluice_window_choose:
 * @self: a #SluiceWindow showing a lesson
 * @choice: an answer, from 1
 *
 * Chooses the answer as a click on it does.
 *
 * Returns: %FALSE if there is no lesson or no such choice
 */
gboolean
sluice_window_choose (SluiceWindow *self,
                      guint         choice)
{
  SluiceLesson *lesson;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  lesson = current_lesson (self);
  if (lesson == NULL || choice < 1 || choice > sluice_lesson_get_n_choices (lesson))
    return FALSE;

  sluice_lesson_panel_set_choice (self->lesson_panel, choice);
  return TRUE;
}

/**
 * sluice_window_get_asking:
 * @self: a #SluiceWindow
 *
 * Returns: whether a lesson waits for a choice before its run, or the
 *   Lessons page is shown: then there is nothing to run
 */
gboolean
sluice_window_get_asking (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  return sluice_window_get_showing_lessons (self) || !_sluice_window_lesson_allows_run (self);
}
