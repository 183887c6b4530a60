/* sluice-lesson-gallery.c: the Lessons page: a card per lesson, in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-lesson-gallery.h"
#include "sluice-lessons.h"

/**
 * SluiceLessonGallery:
 *
 * The Lessons page (docs/teaching.md): a card per lesson in its order, with
 * its number, title, one-line question and whether it is done. A card
 * activates `win.open-lesson` with the lesson's name; the window keeps
 * what is done in GSettings and tells the gallery
 * (sluice_lesson_gallery_set_done()).
 */

struct _SluiceLessonGallery
{
  GtkWidget    parent_instance;

  GtkWidget   *scrolled;
  GtkFlowBox  *cards;
  GtkLabel    *summary;
  GHashTable  *card_by_name;   /* char* → GtkWidget* (the card's button) */
  GHashTable  *done_marks;     /* char* → GtkWidget* (its done mark) */
  GStrv        done;
  char        *first;
};

G_DEFINE_FINAL_TYPE (SluiceLessonGallery, sluice_lesson_gallery, GTK_TYPE_WIDGET)

static GtkWidget *
make_label (const char *text,
            const char *style,
            gboolean    wrap)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), wrap);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (style != NULL)
    gtk_widget_add_css_class (label, style);
  return label;
}

static GtkWidget *
make_card (SluiceLessonGallery *self,
           SluiceScenario      *scenario)
{
  SluiceLesson *lesson = sluice_scenario_get_lesson (scenario);
  g_autofree char *name = sluice_lessons_get_name (scenario);
  const char *title = sluice_scenario_get_title (scenario);
  GtkWidget *button = gtk_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *top = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *done = make_label (_("✓ Done"), "lesson-done", FALSE);
  GtkWidget *question = make_label (sluice_lesson_get_question (lesson), "lesson-card-question", TRUE);
  GtkWidget *heading;
  /* Translators: %u is the lesson's place in the gallery. */
  g_autofree char *number = g_strdup_printf (_("Lesson %u"), sluice_lesson_get_order (lesson));

  gtk_box_append (GTK_BOX (top), make_label (number, "dim-label", FALSE));
  gtk_widget_set_hexpand (done, TRUE);
  gtk_label_set_xalign (GTK_LABEL (done), 1);
  gtk_box_append (GTK_BOX (top), done);
  gtk_box_append (GTK_BOX (box), top);
  heading = make_label (title != NULL ? title : name, "heading", TRUE);
  /* A card's natural width: three or four of them side by side. */
  gtk_label_set_max_width_chars (GTK_LABEL (heading), 30);
  gtk_label_set_width_chars (GTK_LABEL (heading), 24);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_label_set_max_width_chars (GTK_LABEL (question), 30);
  gtk_label_set_lines (GTK_LABEL (question), 4);
  gtk_label_set_ellipsize (GTK_LABEL (question), PANGO_ELLIPSIZE_END);
  gtk_box_append (GTK_BOX (box), question);

  gtk_button_set_child (GTK_BUTTON (button), box);
  gtk_widget_add_css_class (button, "lesson-card");
  gtk_widget_set_valign (box, GTK_ALIGN_START);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-lesson");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", name);
  gtk_widget_set_tooltip_text (button, sluice_lesson_get_question (lesson));
  {
    /* Translators: a lesson's card for a screen reader: “Lesson 3: TITLE”. */
    g_autofree char *label = g_strdup_printf (_("%s: %s"), number, title != NULL ? title : name);

    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  }

  g_hash_table_insert (self->card_by_name, g_strdup (name), button);
  g_hash_table_insert (self->done_marks, g_strdup (name), done);
  return button;
}

static void
show_done (SluiceLessonGallery *self)
{
  GHashTableIter iter;
  gpointer name, mark;
  guint n_done = 0;
  g_autofree char *text = NULL;
  guint n = g_hash_table_size (self->done_marks);

  g_hash_table_iter_init (&iter, self->done_marks);
  while (g_hash_table_iter_next (&iter, &name, &mark))
    {
      gboolean done = self->done != NULL && g_strv_contains ((const char * const *) self->done, name);

      gtk_widget_set_visible (mark, done);
      n_done += done;
    }

  text = g_strdup_printf (/* Translators: the first %u is how many lessons are done, the second how many
                           * there are. */
                          ngettext ("%u of %u lesson done. Choose a lesson: it asks a question, you "
                                    "choose an answer, and the run shows whether it was right.",
                                    "%u of %u lessons done. Choose a lesson: it asks a question, you "
                                    "choose an answer, and the run shows whether it was right.", n),
                          n_done, n);
  gtk_label_set_text (self->summary, text);
}

/**
 * sluice_lesson_gallery_reload:
 * @self: a #SluiceLessonGallery
 *
 * Reads the lessons again and makes their cards.
 */
void
sluice_lesson_gallery_reload (SluiceLessonGallery *self)
{
  g_autoptr(GPtrArray) lessons = sluice_lessons_list ();
  GtkWidget *child;

  g_return_if_fail (SLUICE_IS_LESSON_GALLERY (self));

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards))) != NULL)
    gtk_flow_box_remove (self->cards, child);
  g_hash_table_remove_all (self->card_by_name);
  g_hash_table_remove_all (self->done_marks);
  g_clear_pointer (&self->first, g_free);

  for (guint i = 0; i < lessons->len; i++)
    gtk_flow_box_append (self->cards, make_card (self, g_ptr_array_index (lessons, i)));
  if (lessons->len > 0)
    self->first = sluice_lessons_get_name (g_ptr_array_index (lessons, 0));

  show_done (self);
}

/**
 * sluice_lesson_gallery_set_done:
 * @self: a #SluiceLessonGallery
 * @names: (array zero-terminated=1) (nullable): the lessons done
 */
void
sluice_lesson_gallery_set_done (SluiceLessonGallery *self,
                                const char * const  *names)
{
  g_return_if_fail (SLUICE_IS_LESSON_GALLERY (self));

  g_strfreev (self->done);
  self->done = g_strdupv ((char **) names);
  show_done (self);
}

/**
 * sluice_lesson_gallery_get_done:
 * @self: a #SluiceLessonGallery
 *
 * Returns: (transfer none) (array zero-terminated=1) (nullable): the
 *   lessons it shows as done
 */
const char * const *
sluice_lesson_gallery_get_done (SluiceLessonGallery *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_GALLERY (self), NULL);
  return (const char * const *) self->done;
}

/**
 * sluice_lesson_gallery_get_n_cards:
 * @self: a #SluiceLessonGallery
 *
 * Returns: how many lessons it shows
 */
guint
sluice_lesson_gallery_get_n_cards (SluiceLessonGallery *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_GALLERY (self), 0);
  return g_hash_table_size (self->card_by_name);
}

/**
 * sluice_lesson_gallery_get_card:
 * @self: a #SluiceLessonGallery
 * @name: a lesson's name
 *
 * Returns: (transfer none) (nullable): the lesson's card (a button)
 */
GtkWidget *
sluice_lesson_gallery_get_card (SluiceLessonGallery *self,
                                const char          *name)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_GALLERY (self), NULL);
  return g_hash_table_lookup (self->card_by_name, name);
}

/**
 * sluice_lesson_gallery_get_first:
 * @self: a #SluiceLessonGallery
 *
 * Returns: (nullable): the name of the first lesson
 */
const char *
sluice_lesson_gallery_get_first (SluiceLessonGallery *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_GALLERY (self), NULL);
  return self->first;
}

static void
sluice_lesson_gallery_dispose (GObject *object)
{
  SluiceLessonGallery *self = SLUICE_LESSON_GALLERY (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  G_OBJECT_CLASS (sluice_lesson_gallery_parent_class)->dispose (object);
}

static void
sluice_lesson_gallery_finalize (GObject *object)
{
  SluiceLessonGallery *self = SLUICE_LESSON_GALLERY (object);

  g_clear_pointer (&self->card_by_name, g_hash_table_unref);
  g_clear_pointer (&self->done_marks, g_hash_table_unref);
  g_clear_pointer (&self->done, g_strfreev);
  g_clear_pointer (&self->first, g_free);
  G_OBJECT_CLASS (sluice_lesson_gallery_parent_class)->finalize (object);
}

static void
sluice_lesson_gallery_class_init (SluiceLessonGalleryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_lesson_gallery_dispose;
  object_class->finalize = sluice_lesson_gallery_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "lessongallery");
}

static void
sluice_lesson_gallery_init (SluiceLessonGallery *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *back = gtk_button_new_with_mnemonic (_("_Back to the Playground"));
  GtkWidget *plan = gtk_button_new_with_mnemonic (_("Lesson _Plan"));
  GtkWidget *reset = gtk_button_new_with_mnemonic (_("_Reset Progress"));
  GtkWidget *teacher = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  self->card_by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->done_marks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  gtk_widget_set_margin_start (page, 24);
  gtk_widget_set_margin_end (page, 24);
  gtk_widget_set_margin_top (page, 18);
  gtk_widget_set_margin_bottom (page, 24);

  gtk_box_append (GTK_BOX (header), make_label (_("Lessons"), "title-1", FALSE));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (header), TRUE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (back), "win.show-lessons");
  gtk_widget_set_valign (back, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (header), back);
  gtk_box_append (GTK_BOX (page), header);

  /* The teacher's side: the plan of the workshop, and a fresh start for
   * the next class. A row of their own: beside the title they would widen
   * the window past 1024 pixels in German with projector mode. */
  gtk_actionable_set_action_name (GTK_ACTIONABLE (plan), "win.show-lesson-plan");
  gtk_widget_set_tooltip_text (plan, _("The workshop's plan: time per lesson, goals, what to ask the room, notes"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (reset), "win.reset-lesson-progress");
  gtk_widget_set_tooltip_text (reset, _("Mark every lesson as not done, for the next class"));
  gtk_box_append (GTK_BOX (teacher), plan);
  gtk_box_append (GTK_BOX (teacher), reset);
  gtk_box_append (GTK_BOX (page), teacher);

  self->summary = GTK_LABEL (make_label (NULL, NULL, TRUE));
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->summary));

  self->cards = GTK_FLOW_BOX (gtk_flow_box_new ());
  gtk_flow_box_set_selection_mode (self->cards, GTK_SELECTION_NONE);
  gtk_flow_box_set_homogeneous (self->cards, TRUE);
  gtk_flow_box_set_min_children_per_line (self->cards, 1);
  gtk_flow_box_set_max_children_per_line (self->cards, 4);
  gtk_flow_box_set_row_spacing (self->cards, 12);
  gtk_flow_box_set_column_spacing (self->cards, 12);
  gtk_widget_set_valign (GTK_WIDGET (self->cards), GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->cards));

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), page);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));

  sluice_lesson_gallery_reload (self);
}

/**
 * sluice_lesson_gallery_new:
 *
 * Returns: a new #SluiceLessonGallery
 */
GtkWidget *
sluice_lesson_gallery_new (void)
{
  return g_object_new (SLUICE_TYPE_LESSON_GALLERY, NULL);
}
