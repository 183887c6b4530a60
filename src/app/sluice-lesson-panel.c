/* sluice-lesson-panel.c: a lesson's question before its run, the answer after
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-lesson-panel.h"
#include "sluice-text-label.h"

/**
 * SluiceLessonPanel:
 *
 * Predict, then reveal (docs/teaching.md): the lesson's question and choices
 * before the run, and "Run to find out" (`win.run`, which the window
 * enables once a choice is made). After the run the window calls
 * sluice_lesson_panel_reveal(): right or wrong, whether this very run
 * showed the answer (its report checked against `reveal`), what the
 * window points at, the explanation, and "Next Lesson".
 */

struct _SluiceLessonPanel
{
  GtkWidget     parent_instance;

  GtkWidget    *box;
  GtkLabel     *heading;
  GtkLabel     *description;
  GtkLabel     *question;
  GtkWidget    *hint;
  GtkBox       *choices;
  GtkWidget    *run_button;
  GtkWidget    *answer_box;
  GtkLabel     *verdict;
  GtkLabel     *evidence;
  GtkLabel     *pointer;
  GtkLabel     *explain;
  GtkWidget    *next_button;
  GtkWidget    *again_button;
  GtkWidget    *settings_button;

  SluiceLesson *lesson;
  char         *title;         /* the topic, until the reveal */
  guint         choice;        /* from 1; 0: none yet */
  gboolean      revealed;
};

enum {
  PROP_0,
  PROP_CHOICE,
  PROP_REVEALED,
  PROP_SHOW_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SluiceLessonPanel, sluice_lesson_panel, GTK_TYPE_WIDGET)

/* A paragraph of the panel, empty until a lesson fills it. */
static GtkLabel *
add_label (GtkBox     *box,
           const char *style)
{
  return sluice_text_label_append (box, NULL, style);
}

static void
on_choice_toggled (GtkCheckButton    *button,
                   SluiceLessonPanel *self)
{
  if (!gtk_check_button_get_active (button))
    return;

  self->choice = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "choice"));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHOICE]);
}

static void
fill_choices (SluiceLessonPanel *self)
{
  const char * const *choices = sluice_lesson_get_choices (self->lesson);
  GtkWidget *child, *first = NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->choices))) != NULL)
    gtk_box_remove (self->choices, child);

  for (guint i = 0; choices[i] != NULL; i++)
    {
      /* One choice of several: a radio button to a screen reader (GTK 4.8
       * calls a grouped check button a check box). */
      GtkWidget *button = g_object_new (GTK_TYPE_CHECK_BUTTON,
                                        "label", choices[i],
                                        "accessible-role", GTK_ACCESSIBLE_ROLE_RADIO,
                                        NULL);
      GtkWidget *label = gtk_widget_get_last_child (button);

      /* Long choices wrap instead of widening the sidebar. */
      if (GTK_IS_LABEL (label))
        {
          gtk_label_set_wrap (GTK_LABEL (label), TRUE);
          gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
        }
      g_object_set_data (G_OBJECT (button), "choice", GUINT_TO_POINTER (i + 1));
      if (first != NULL)
        gtk_check_button_set_group (GTK_CHECK_BUTTON (button), GTK_CHECK_BUTTON (first));
      else
        first = button;
      g_signal_connect (button, "toggled", G_CALLBACK (on_choice_toggled), self);
      gtk_box_append (self->choices, button);
    }
}

/* "Lesson N: TITLE": the topic while the class predicts, the lesson's
 * finding (`result`) once the run has shown it. */
static void
set_heading (SluiceLessonPanel *self,
             gboolean           revealed)
{
  const char *result = sluice_lesson_get_result (self->lesson);
  const char *title = revealed && result != NULL ? result : self->title;
  g_autofree char *heading = NULL;

  /* Translators: %u is the lesson's place in the gallery, %s its title. */
  heading = g_strdup_printf (_("Lesson %u: %s"), sluice_lesson_get_order (self->lesson), title != NULL ? title : "");
  gtk_label_set_text (self->heading, heading);
}

static void
set_revealed (SluiceLessonPanel *self,
              gboolean           revealed)
{
  self->revealed = revealed;
  set_heading (self, revealed);
  gtk_widget_set_visible (self->answer_box, revealed);
  /* The answer takes the setting's room: on a projector the explanation
   * must be seen without scrolling. */
  gtk_widget_set_visible (self->hint, !revealed);
  gtk_widget_set_visible (GTK_WIDGET (self->description),
                          !revealed && *gtk_label_get_text (self->description) != '\0');
  gtk_widget_set_visible (self->run_button, !revealed);
  gtk_widget_set_sensitive (GTK_WIDGET (self->choices), !revealed);
  /* Revealed, the answer and why come right under the title, the question
   * and the choice below them; asking, the answer's place is last. */
  gtk_box_reorder_child_after (GTK_BOX (self->box), self->answer_box,
                               revealed ? GTK_WIDGET (self->heading) : self->run_button);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REVEALED]);
}

/**
 * sluice_lesson_panel_set_lesson:
 * @self: a #SluiceLessonPanel
 * @lesson: (nullable): the lesson to ask, or %NULL for none
 * @title: (nullable): the lesson's title
 * @description: (nullable): the scenario's description: the setting
 * @next_title: (nullable): the title of the lesson that follows, or %NULL
 *   for the last one
 */
void
sluice_lesson_panel_set_lesson (SluiceLessonPanel *self,
                                SluiceLesson      *lesson,
                                const char        *title,
                                const char        *description,
                                const char        *next_title)
{
  g_autofree char *next = NULL;

  g_return_if_fail (SLUICE_IS_LESSON_PANEL (self));

  g_set_object (&self->lesson, lesson);
  self->choice = 0;
  if (lesson == NULL)
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHOICE]);
      return;
    }

  g_free (self->title);
  self->title = g_strdup (title);
  gtk_label_set_text (self->description, description != NULL ? description : "");
  gtk_label_set_text (self->question, sluice_lesson_get_question (lesson));
  gtk_label_set_text (self->explain, sluice_lesson_get_explain (lesson));
  fill_choices (self);

  /* Translators: %s is the next lesson's title. */
  next = next_title != NULL ? g_strdup_printf (_("_Next Lesson: %s"), next_title) : g_strdup (_("_All Lessons"));
  gtk_label_set_text_with_mnemonic (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (self->next_button))), next);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->next_button),
                                  next_title != NULL ? "win.next-lesson" : "win.show-lessons");

  set_revealed (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHOICE]);
}

/**
 * sluice_lesson_panel_get_lesson:
 * @self: a #SluiceLessonPanel
 *
 * Returns: (transfer none) (nullable): the lesson it asks
 */
SluiceLesson *
sluice_lesson_panel_get_lesson (SluiceLessonPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PANEL (self), NULL);
  return self->lesson;
}

/**
 * sluice_lesson_panel_get_choice:
 * @self: a #SluiceLessonPanel
 *
 * Returns: the chosen answer, from 1, or 0 before a choice
 */
guint
sluice_lesson_panel_get_choice (SluiceLessonPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PANEL (self), 0);
  return self->choice;
}

/**
 * sluice_lesson_panel_set_choice:
 * @self: a #SluiceLessonPanel
 * @choice: a choice, from 1
 *
 * Chooses as a click on the choice does.
 */
void
sluice_lesson_panel_set_choice (SluiceLessonPanel *self,
                                guint              choice)
{
  GtkWidget *button = gtk_widget_get_first_child (GTK_WIDGET (self->choices));

  g_return_if_fail (SLUICE_IS_LESSON_PANEL (self));

  for (guint i = 1; button != NULL && i < choice; i++)
    button = gtk_widget_get_next_sibling (button);
  g_return_if_fail (button != NULL);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (button), TRUE);
}

/**
 * sluice_lesson_panel_ask:
 * @self: a #SluiceLessonPanel
 *
 * Asks again: the answer hidden, the choice kept, "Run to find out".
 */
void
sluice_lesson_panel_ask (SluiceLessonPanel *self)
{
  g_return_if_fail (SLUICE_IS_LESSON_PANEL (self));

  if (self->revealed)
    set_revealed (self, FALSE);
}

/* What the run showed and what the lesson expects, in the lesson's
 * sentences; a lesson without `evidence` says only whether it came true. */
static char *
describe (SluiceLessonPanel *self,
          JsonNode          *report)
{
  char *text = sluice_lesson_describe (self->lesson, report);

  return text != NULL ? text : g_strdup ("");
}

/* Right or wrong, against the lesson's answer: only when this run had the
 * lesson's settings, or showed its answer anyway. */
static char *
judge (SluiceLessonPanel *self,
       gboolean           held,
       const char        *changes)
{
  guint answer = sluice_lesson_get_answer (self->lesson);
  const char *right = sluice_lesson_get_choices (self->lesson)[answer - 1];

  if (changes != NULL && !held)
    /* Translators: %s lists the changed settings, such as “Workers: 3 → 1”. */
    return g_strdup_printf (_("You changed the settings (%s): the lesson's answer is about its own settings, "
                              "so this run cannot say whether your prediction was right."), changes);
  if (self->choice == answer)
    /* Translators: %s is the right choice. */
    return g_strdup_printf (_("Right: %s"), right);
  /* Translators: %s is the right choice. */
  return g_strdup_printf (_("Not this time. The answer is: %s"), right);
}

/* What this run did, against what the lesson expects, and why they may
 * differ. */
static char *
give_evidence (SluiceLessonPanel *self,
               JsonNode          *report,
               gboolean           held,
               const char        *changes,
               gboolean           real_clock)
{
  g_autofree char *shown = describe (self, report);
  g_autofree char *expected = describe (self, NULL);

  if (held && changes != NULL)
    /* Translators: %s is what the run did, in the lesson's sentence. */
    return g_strdup_printf (_("With the changed settings this run still showed the lesson's answer. %s"), shown);
  if (held)
    /* Translators: %s is what the run did, in the lesson's sentence, such as “The results came in
     * the order 4, 1, 0.” */
    return g_strdup_printf (_("This run showed it. %s"), shown);
  if (changes != NULL)
    /* Translators: the first %s is what the run did, the second what the lesson's own settings
     * give, each in the lesson's sentence. */
    return g_strdup_printf (_("What this run did: %s With the lesson's settings: %s"), shown, expected);
  if (real_clock)
    /* Translators: the first %s is what the run did, the second what the lesson expects. */
    return g_strdup_printf (_("This run did not show it. %s The lesson expects: %s This lesson runs on the real "
                              "clock at normal speed: its timers fire only when the machine gets to them, so "
                              "other programs that keep it busy delay them and change the picture. Close them, "
                              "then Try Again."), shown, expected);
  /* Translators: the first %s is what the run did, the second what the lesson expects. */
  return g_strdup_printf (_("This run did not show it. %s The lesson expects: %s"), shown, expected);
}

/**
 * sluice_lesson_panel_reveal:
 * @self: a #SluiceLessonPanel with a lesson and a choice
 * @report: the report of the run that was made
 * @changes: (nullable): the settings in which this run differed from the
 *   lesson's, such as “Workers: 3 → 1”, or %NULL
 * @real_clock: whether the run was on the real clock
 * @pointed_at: (nullable): what the window highlights, as a sentence
 *
 * Shows the answer, judging this very run: right or wrong when it had the
 * lesson's settings (or showed its answer anyway), otherwise what changed;
 * what this run did in the lesson's sentences (honestly when it did not
 * show the answer); and the explanation.
 */
void
sluice_lesson_panel_reveal (SluiceLessonPanel *self,
                            JsonNode          *report,
                            const char        *changes,
                            gboolean           real_clock,
                            const char        *pointed_at)
{
  gboolean held;
  const char *kind;
  g_autofree char *verdict = NULL;
  g_autofree char *evidence = NULL;

  g_return_if_fail (SLUICE_IS_LESSON_PANEL (self));
  g_return_if_fail (self->lesson != NULL);
  g_return_if_fail (report != NULL);

  held = sluice_lesson_check_reveal (self->lesson, report, NULL);
  verdict = judge (self, held, changes);
  evidence = give_evidence (self, report, held, changes, real_clock);

  if (changes != NULL && !held)
    kind = "lesson-changed";
  else
    kind = self->choice == sluice_lesson_get_answer (self->lesson) ? "lesson-right" : "lesson-wrong";
  gtk_label_set_text (self->verdict, verdict);
  gtk_widget_remove_css_class (GTK_WIDGET (self->verdict), "lesson-right");
  gtk_widget_remove_css_class (GTK_WIDGET (self->verdict), "lesson-wrong");
  gtk_widget_remove_css_class (GTK_WIDGET (self->verdict), "lesson-changed");
  gtk_widget_add_css_class (GTK_WIDGET (self->verdict), kind);
  gtk_label_set_text (self->evidence, evidence);
  gtk_label_set_text (self->pointer, pointed_at != NULL ? pointed_at : "");
  gtk_widget_set_visible (GTK_WIDGET (self->pointer), pointed_at != NULL);
  set_revealed (self, TRUE);
}

/**
 * sluice_lesson_panel_get_heading:
 * @self: a #SluiceLessonPanel
 *
 * Returns: the line with the lesson's number and title
 */
const char *
sluice_lesson_panel_get_heading (SluiceLessonPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PANEL (self), NULL);
  return gtk_label_get_text (self->heading);
}

/**
 * sluice_lesson_panel_get_revealed:
 * @self: a #SluiceLessonPanel
 *
 * Returns: whether it shows the answer
 */
gboolean
sluice_lesson_panel_get_revealed (SluiceLessonPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PANEL (self), FALSE);
  return self->revealed;
}

/**
 * sluice_lesson_panel_get_verdict:
 * @self: a #SluiceLessonPanel
 *
 * Returns: the line that says right or wrong
 */
const char *
sluice_lesson_panel_get_verdict (SluiceLessonPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PANEL (self), NULL);
  return gtk_label_get_text (self->verdict);
}

/**
 * sluice_lesson_panel_get_evidence:
 * @self: a #SluiceLessonPanel
 *
 * Returns: the line that says whether this run showed the answer
 */
const char *
sluice_lesson_panel_get_evidence (SluiceLessonPanel *self)
{
  g_return_val_if_fail (SLUICE_IS_LESSON_PANEL (self), NULL);
  return gtk_label_get_text (self->evidence);
}

static void
sluice_lesson_panel_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceLessonPanel *self = SLUICE_LESSON_PANEL (object);

  switch (prop_id)
    {
    case PROP_CHOICE:
      g_value_set_uint (value, self->choice);
      break;
    case PROP_REVEALED:
      g_value_set_boolean (value, self->revealed);
      break;
    case PROP_SHOW_SETTINGS:
      g_value_set_boolean (value, gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->settings_button)));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_lesson_panel_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SluiceLessonPanel *self = SLUICE_LESSON_PANEL (object);

  switch (prop_id)
    {
    case PROP_SHOW_SETTINGS:
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->settings_button), g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
on_settings_toggled (SluiceLessonPanel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SETTINGS]);
}

static void
sluice_lesson_panel_dispose (GObject *object)
{
  SluiceLessonPanel *self = SLUICE_LESSON_PANEL (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->lesson);
  g_clear_pointer (&self->title, g_free);
  G_OBJECT_CLASS (sluice_lesson_panel_parent_class)->dispose (object);
}

static void
sluice_lesson_panel_class_init (SluiceLessonPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = sluice_lesson_panel_get_property;
  object_class->set_property = sluice_lesson_panel_set_property;
  object_class->dispose = sluice_lesson_panel_dispose;

  /**
   * SluiceLessonPanel:choice:
   *
   * The chosen answer, from 1, or 0 before a choice.
   */
  properties[PROP_CHOICE] =
    g_param_spec_uint ("choice", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceLessonPanel:revealed:
   *
   * Whether it shows the answer.
   */
  properties[PROP_REVEALED] =
    g_param_spec_boolean ("revealed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceLessonPanel:show-settings:
   *
   * Whether the learner asked to see the lesson's settings (the
   * configuration below the question).
   */
  properties[PROP_SHOW_SETTINGS] =
    g_param_spec_boolean ("show-settings", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "lessonpanel");
}

/* A button whose label wraps: "Next Lesson: TITLE" must not widen the
 * sidebar. */
static GtkWidget *
add_button (GtkBox     *box,
            const char *label,
            const char *action)
{
  GtkWidget *button = gtk_button_new ();
  GtkWidget *text = gtk_label_new_with_mnemonic (label);

  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_justify (GTK_LABEL (text), GTK_JUSTIFY_CENTER);
  gtk_button_set_child (GTK_BUTTON (button), text);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_RELATION_LABELLED_BY, text, NULL, -1);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_box_append (box, button);
  return button;
}

static void
sluice_lesson_panel_init (SluiceLessonPanel *self)
{
  GtkBox *box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 8));
  GtkBox *answer = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 8));
  GtkBox *buttons = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));

  GtkWidget *choose;

  self->box = GTK_WIDGET (box);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->heading = add_label (box, "heading");
  self->question = add_label (box, "lesson-question");
  choose = GTK_WIDGET (add_label (box, "dim-label"));
  gtk_label_set_text (GTK_LABEL (choose), _("What do you predict? Choose, then run."));
  self->hint = choose;
  self->choices = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_box_append (box, GTK_WIDGET (self->choices));

  self->run_button = add_button (box, _("Run to _Find Out"), "win.run");
  gtk_widget_add_css_class (self->run_button, "suggested-action");
  gtk_widget_set_halign (self->run_button, GTK_ALIGN_START);

  self->answer_box = GTK_WIDGET (answer);
  self->verdict = add_label (answer, "lesson-verdict");
  self->evidence = add_label (answer, NULL);
  self->pointer = add_label (answer, "dim-label");
  self->explain = add_label (answer, "lesson-explain");
  self->again_button = add_button (buttons, _("_Try Again"), "win.reset");
  gtk_label_set_wrap (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (self->again_button))), FALSE);
  self->next_button = add_button (buttons, _("_Next Lesson"), "win.next-lesson");
  gtk_widget_add_css_class (self->next_button, "suggested-action");
  gtk_widget_set_hexpand (self->next_button, TRUE);
  gtk_box_append (answer, GTK_WIDGET (buttons));
  gtk_box_append (box, self->answer_box);
  gtk_widget_set_visible (self->answer_box, FALSE);
  /* The lesson's setting comes after its question, its choices and the
   * run button: on a 1024×768 projector those must show without
   * scrolling, and the question says what the class needs to predict. */
  self->description = add_label (box, "scenario-description");

  /* The lesson's pool, changeable: a teacher's "what if". */
  self->settings_button = gtk_toggle_button_new_with_mnemonic (_("Show the _Settings"));
  gtk_widget_set_halign (self->settings_button, GTK_ALIGN_START);
  gtk_widget_add_css_class (self->settings_button, "flat");
  g_signal_connect_swapped (self->settings_button, "toggled", G_CALLBACK (on_settings_toggled), self);
  gtk_box_append (box, self->settings_button);
}

/**
 * sluice_lesson_panel_new:
 *
 * Returns: a new #SluiceLessonPanel
 */
GtkWidget *
sluice_lesson_panel_new (void)
{
  return g_object_new (SLUICE_TYPE_LESSON_PANEL, NULL);
}
