/* sluice-lesson-plan-window.c: the workshop plan, for the teacher
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-accessible.h"
#include "sluice-lesson-plan-window.h"
#include "sluice-lessons.h"
#include "sluice-text-label.h"

/**
 * SluiceLessonPlanWindow:
 *
 * The plan of a workshop (#SluiceLessonPlan) beside the playground: per
 * block its minutes, its lesson, the goal, what to ask the room and the
 * teacher's notes, and a button that opens the lesson in the window it
 * belongs to (`win.open-lesson` there). Reset Progress empties the
 * gallery's marks of done lessons for the next class
 * (`win.reset-lesson-progress`). It follows the window's projector mode.
 */

struct _SluiceLessonPlanWindow
{
  GtkWindow         parent_instance;

  SluiceLessonPlan *plan;
  GtkBox           *rows;
  GHashTable       *open_buttons;  /* lesson name → its Open button */
};

G_DEFINE_FINAL_TYPE (SluiceLessonPlanWindow, sluice_lesson_plan_window, GTK_TYPE_WINDOW)

/* "Goal: …" with its word in bold, or nothing for no text. */
static void
add_field (GtkBox     *box,
           const char *name,
           const char *text)
{
  g_autofree char *markup = NULL;

  if (text == NULL)
    return;
  markup = g_markup_printf_escaped ("<b>%s</b> %s", name, text);
  gtk_label_set_markup (sluice_text_label_append (box, NULL, NULL), markup);
}

static void
on_open_clicked (GtkButton              *button,
                 SluiceLessonPlanWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));
  const char *lesson = g_object_get_data (G_OBJECT (button), "lesson");

  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.open-lesson", "s", lesson);
}

/* "Lesson N: TITLE" for a block with a lesson, its own title otherwise. */
static char *
block_heading (const SluiceLessonPlanBlock *block,
               GHashTable                  *lessons)
{
  SluiceScenario *scenario = block->lesson != NULL ? g_hash_table_lookup (lessons, block->lesson) : NULL;

  if (scenario == NULL)
    return g_strdup (block->title != NULL ? block->title : "");
  /* Translators: %u is the lesson's place in the gallery, %s its title. */
  return g_strdup_printf (_("Lesson %u: %s"), sluice_lesson_get_order (sluice_scenario_get_lesson (scenario)),
                          sluice_scenario_get_title (scenario));
}

static void
add_block (SluiceLessonPlanWindow      *self,
           const SluiceLessonPlanBlock *block,
           GHashTable                  *lessons)
{
  GtkBox *row = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  GtkBox *top = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12));
  g_autofree char *minutes = NULL;
  g_autofree char *heading = block_heading (block, lessons);
  GtkLabel *title;

  /* Translators: a block's place in the workshop, in minutes from its start. */
  minutes = g_strdup_printf (_("%u–%u min"), block->from, block->to);
  gtk_box_append (top, gtk_label_new (minutes));
  gtk_widget_add_css_class (gtk_widget_get_last_child (GTK_WIDGET (top)), "numeric");
  title = sluice_text_label_append (top, heading, "heading");
  gtk_widget_set_hexpand (GTK_WIDGET (title), TRUE);
  if (block->lesson != NULL)
    {
      GtkWidget *open = gtk_button_new_with_label (_("Open"));

      /* Its name for a screen reader: which lesson it opens. */
      gtk_accessible_update_property (GTK_ACCESSIBLE (open), GTK_ACCESSIBLE_PROPERTY_LABEL, heading, -1);
      g_object_set_data_full (G_OBJECT (open), "lesson", g_strdup (block->lesson), g_free);
      g_signal_connect (open, "clicked", G_CALLBACK (on_open_clicked), self);
      gtk_widget_set_valign (open, GTK_ALIGN_CENTER);
      gtk_box_append (top, open);
      g_hash_table_insert (self->open_buttons, g_strdup (block->lesson), open);
    }
  gtk_box_append (row, GTK_WIDGET (top));

  add_field (row, _("Goal:"), block->goal);
  add_field (row, _("Ask the room:"), block->ask);
  add_field (row, _("Notes:"), block->notes);

  gtk_box_append (self->rows, GTK_WIDGET (row));
}

static void
fill (SluiceLessonPlanWindow *self)
{
  g_autoptr(GPtrArray) list = sluice_lessons_list ();
  g_autoptr(GHashTable) lessons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < list->len; i++)
    g_hash_table_insert (lessons, sluice_lessons_get_name (g_ptr_array_index (list, i)), g_ptr_array_index (list, i));

  sluice_text_label_append (self->rows, sluice_lesson_plan_get_title (self->plan), "title-2");
  if (sluice_lesson_plan_get_comment (self->plan) != NULL)
    sluice_text_label_append (self->rows, sluice_lesson_plan_get_comment (self->plan), NULL);
  for (guint i = 0; i < sluice_lesson_plan_get_n_blocks (self->plan); i++)
    {
      gtk_box_append (self->rows, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
      add_block (self, sluice_lesson_plan_get_block (self->plan, i), lessons);
    }
}

static void
on_reset_clicked (SluiceLessonPlanWindow *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  if (parent != NULL)
    gtk_widget_activate_action (GTK_WIDGET (parent), "win.reset-lesson-progress", NULL);
}

static void
sluice_lesson_plan_window_dispose (GObject *object)
{
  SluiceLessonPlanWindow *self = SLUICE_LESSON_PLAN_WINDOW (object);

  g_clear_object (&self->plan);
  g_clear_pointer (&self->open_buttons, g_hash_table_unref);
  G_OBJECT_CLASS (sluice_lesson_plan_window_parent_class)->dispose (object);
}

static void
sluice_lesson_plan_window_class_init (SluiceLessonPlanWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sluice_lesson_plan_window_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sluice_lesson_plan_window_init (SluiceLessonPlanWindow *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *reset = gtk_button_new_with_mnemonic (_("_Reset Progress"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->open_buttons = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_window_set_title (GTK_WINDOW (self), _("Lesson Plan"));
  /* A 1024×768 projector, with room for the window's frame. */
  gtk_window_set_default_size (GTK_WINDOW (self), 720, 640);

  gtk_widget_set_tooltip_text (reset, _("Mark every lesson as not done, for the next class"));
  g_signal_connect_swapped (reset, "clicked", G_CALLBACK (on_reset_clicked), self);
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), reset);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);

  self->rows = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 10));
  gtk_widget_set_margin_start (GTK_WIDGET (self->rows), 18);
  gtk_widget_set_margin_end (GTK_WIDGET (self->rows), 18);
  gtk_widget_set_margin_top (GTK_WIDGET (self->rows), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->rows), 18);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->rows));
  gtk_window_set_child (GTK_WINDOW (self), scrolled);
}

/**
 * sluice_lesson_plan_window_new:
 * @parent: the window whose lessons it opens
 * @plan: the plan to show
 *
 * Returns: (transfer none): a new #SluiceLessonPlanWindow, transient for
 *   @parent and in its projector mode
 */
GtkWidget *
sluice_lesson_plan_window_new (GtkWindow        *parent,
                               SluiceLessonPlan *plan)
{
  SluiceLessonPlanWindow *self;

  g_return_val_if_fail (GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN (plan), NULL);

  self = g_object_new (SLUICE_TYPE_LESSON_PLAN_WINDOW, "transient-for", parent, "application",
                       gtk_window_get_application (parent), NULL);
  self->plan = g_object_ref (plan);
  if (gtk_widget_has_css_class (GTK_WIDGET (parent), "projector"))
    gtk_widget_add_css_class (GTK_WIDGET (self), "projector");
  fill (self);
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

/**
 * sluice_lesson_plan_window_get_plan:
 * @self: a #SluiceLessonPlanWindow
 *
 * Returns: (transfer none): the plan it shows
 */
SluiceLessonPlan *
sluice_lesson_plan_window_get_plan (SluiceLessonPlanWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN_WINDOW (self), NULL);
  return self->plan;
}

/**
 * sluice_lesson_plan_window_get_n_rows:
 * @self: a #SluiceLessonPlanWindow
 *
 * Returns: how many blocks it lists
 */
guint
sluice_lesson_plan_window_get_n_rows (SluiceLessonPlanWindow *self)
{
  guint n = 0;

  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN_WINDOW (self), 0);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->rows)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += GTK_IS_SEPARATOR (child);
  return n;
}

/**
 * sluice_lesson_plan_window_get_open_button:
 * @self: a #SluiceLessonPlanWindow
 * @lesson: a lesson's name
 *
 * Returns: (transfer none) (nullable): the button that opens it
 */
GtkWidget *
sluice_lesson_plan_window_get_open_button (SluiceLessonPlanWindow *self,
                                           const char             *lesson)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PLAN_WINDOW (self), NULL);
  return g_hash_table_lookup (self->open_buttons, lesson);
}
