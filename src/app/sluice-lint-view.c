/* sluice-lint-view.c: the lints of the run at the moment shown, as a badge
 * and a list (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-lint-view.h"

/**
 * SluiceLintView:
 *
 * A warning badge beside the banner: the number of lints on at the moment
 * shown (now during a run, the playhead after it), hidden until a lint
 * has come on by then. Its popover lists every lint that came on by that
 * moment, in the order they did: its title, since when (and until when,
 * once it went off), its message naming the items and workers involved,
 * and what to try. A click on a lint moves the playhead to when it came
 * on (#SluiceLintView:marked-time).
 *
 * The view shows the #SluiceLinter of the run model (which feeds it every
 * event once) and catches up at each sluice_lint_view_update() (once per
 * frame): what is on is the linter's say, with its hysteresis, never
 * worked out here.
 */

struct _SluiceLintView
{
  GtkWidget       parent_instance;

  GtkWidget      *button;
  GtkLabel       *count_label;
  GtkListBox     *list;

  SluiceLinter   *linter;       /* the run model's */
  gint64          moment;       /* the clock time shown, or -1: the newest */
  gint64          marked_time;  /* the clicked lint's on time, or -1 */
  guint           count;        /* on at the moment, but muted ones */
  guint           muted;        /* 1 << SluiceLintKind: what the lesson teaches */
  GPtrArray      *shown;        /* SluiceLint: the rows, in order */
  GPtrArray      *texts;        /* char*: what each row says */
  char           *rows_key;     /* what describe_rows() gave for them */
};

G_DEFINE_FINAL_TYPE (SluiceLintView, sluice_lint_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MOMENT,
  PROP_MARKED_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- the rows ---------------------------------------------------------- */

static char *
format_time (SluiceLintView *self,
             gint64          time)
{
  gint64 start = MAX (sluice_linter_get_start_time (self->linter), 0);

  /* Translators: a time or duration in a lint's message; %.3f is seconds */
  return g_strdup_printf (C_("lint", "%.3f s"), (time - start) / (double) G_USEC_PER_SEC);
}

/* "since 0.350 s", or "0.350 s to 1.600 s" once it went off by the
 * moment: an off time still ahead of the playhead is not told. */
static char *
format_interval (SluiceLintView   *self,
                 const SluiceLint *lint,
                 gint64            moment)
{
  g_autofree char *on = format_time (self, sluice_lint_get_on (lint));
  g_autofree char *off = NULL;

  if (sluice_lint_is_on_at (lint, moment))
    /* Translators: when a lint came on; %s is a time, such as “0.350 s” */
    return g_strdup_printf (C_("lint", "since %s"), on);

  off = format_time (self, sluice_lint_get_off (lint));
  /* Translators: when a lint was on; the %s are times, such as “0.350 s” */
  return g_strdup_printf (C_("lint", "%s to %s"), on, off);
}

static GtkWidget *
wrapped_label (const char *text,
               const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 52);
  gtk_label_set_width_chars (GTK_LABEL (label), 40);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* A row: title and interval, the message, what to try; dimmed once the
 * lint is off at the moment. Its text goes to @texts, for the tests. */
static GtkWidget *
create_row (SluiceLintView   *self,
            const SluiceLint *lint,
            gint64            moment)
{
  const char *title = sluice_lint_kind_get_title (sluice_lint_get_kind (lint), TRUE);
  g_autofree char *interval = format_interval (self, lint, moment);
  g_autofree char *message = sluice_lint_dup_message (lint, TRUE);
  g_autofree char *advice = sluice_lint_dup_advice (lint, TRUE);
  /* Translators: what to try, after a lint's message; %s is the advice */
  g_autofree char *try = g_strdup_printf (C_("lint", "Try: %s"), advice);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *title_label = gtk_label_new (title);
  GtkWidget *interval_label = gtk_label_new (interval);

  gtk_label_set_xalign (GTK_LABEL (title_label), 0);
  gtk_widget_set_hexpand (title_label, TRUE);
  gtk_widget_add_css_class (title_label, "heading");
  gtk_widget_add_css_class (interval_label, "numeric");
  gtk_widget_add_css_class (interval_label, "dim-label");
  gtk_box_append (GTK_BOX (heading), title_label);
  gtk_box_append (GTK_BOX (heading), interval_label);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), wrapped_label (message, NULL));
  gtk_box_append (GTK_BOX (box), wrapped_label (try, "lint-advice"));
  gtk_widget_add_css_class (box, "lint-row");
  if (!sluice_lint_is_on_at (lint, moment))
    gtk_widget_add_css_class (box, "lint-off");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  /* Translators: the tooltip of a lint in the list */
  gtk_widget_set_tooltip_text (row, _("Move the playhead to when it came on"));

  g_ptr_array_add (self->texts, g_strdup_printf ("%s\n%s\n%s\n%s", title, interval, message, try));
  return row;
}

/* The moment shown: the playhead, or the newest linted event. */
static gint64
shown_moment (SluiceLintView *self)
{
  return self->moment >= 0 ? self->moment : sluice_linter_get_time (self->linter);
}

/* A lint the lesson on show teaches is its subject, not a warning: the
 * saturation lesson must not flag "Saturated pool". */
static gboolean
is_muted (SluiceLintView   *self,
          const SluiceLint *lint)
{
  guint kind = sluice_lint_get_kind (lint);

  return kind < 32 && (self->muted & (1u << kind)) != 0;
}

/* The lints on at @moment, and those on by then, muted ones left out. */
static void
count_lints (SluiceLintView *self,
             gint64          moment,
             guint          *on,
             guint          *by)
{
  GPtrArray *lints = sluice_linter_get_lints (self->linter);

  *on = *by = 0;
  for (guint i = 0; i < lints->len; i++)
    {
      const SluiceLint *lint = g_ptr_array_index (lints, i);

      if (is_muted (self, lint))
        continue;
      *on += sluice_lint_is_on_at (lint, moment);
      *by += sluice_lint_get_on (lint) <= moment;
    }
}

/* What the rows would say at @moment: when it is what they say, nothing
 * is rebuilt (once per frame, while the popover may be open). */
static char *
describe_rows (SluiceLintView *self,
               gint64          moment)
{
  GPtrArray *lints = sluice_linter_get_lints (self->linter);
  g_autoptr(GString) key = g_string_new (NULL);

  for (guint i = 0; i < lints->len; i++)
    {
      const SluiceLint *lint = g_ptr_array_index (lints, i);
      g_autofree char *message = NULL;

      if (sluice_lint_get_on (lint) > moment || is_muted (self, lint))
        continue;
      message = sluice_lint_dup_message (lint, TRUE);
      g_string_append_printf (key, "%u %" G_GINT64_FORMAT " %d %s\n", sluice_lint_get_kind (lint),
                              sluice_lint_get_on (lint), sluice_lint_is_on_at (lint, moment), message);
    }
  return g_string_free (g_steal_pointer (&key), FALSE);
}

static void
rebuild_rows (SluiceLintView *self,
              gint64          moment)
{
  GPtrArray *lints = sluice_linter_get_lints (self->linter);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, child);
  g_ptr_array_set_size (self->shown, 0);
  g_ptr_array_set_size (self->texts, 0);

  for (guint i = 0; i < lints->len; i++)
    {
      SluiceLint *lint = g_ptr_array_index (lints, i);

      if (sluice_lint_get_on (lint) > moment || is_muted (self, lint))
        continue;
      gtk_list_box_append (self->list, create_row (self, lint, moment));
      g_ptr_array_add (self->shown, sluice_lint_ref (lint));
    }
}

static void
update_badge (SluiceLintView *self,
              gint64          moment)
{
  guint by;
  g_autofree char *count = NULL;
  g_autofree char *tooltip = NULL;

  count_lints (self, moment, &self->count, &by);
  /* A warning sign over "0" warns of nothing: the badge shows only while a
   * lint is on; the ones before are found by scrubbing to them. */
  gtk_widget_set_visible (GTK_WIDGET (self), self->count > 0);

  /* Once or twice a frame during a run: what did not change is not set
   * again (a tooltip set makes GTK redo its tooltip's state each time). */
  count = g_strdup_printf ("%u", self->count);
  if (g_strcmp0 (gtk_label_get_text (self->count_label), count) != 0)
    gtk_label_set_text (self->count_label, count);
  if (self->count > 0)
    {
      gtk_widget_add_css_class (self->button, "lint-active");
      tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u lint is on at this moment",
                                              "%u lints are on at this moment", self->count),
                                 self->count);
    }
  else
    {
      gtk_widget_remove_css_class (self->button, "lint-active");
      tooltip = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "No lint is on at this moment; %u was on before",
                                              "No lint is on at this moment; %u were on before", by),
                                 by);
    }
  if (g_strcmp0 (gtk_widget_get_tooltip_text (self->button), tooltip) != 0)
    gtk_widget_set_tooltip_text (self->button, tooltip);
}

static void
refresh (SluiceLintView *self)
{
  gint64 moment = shown_moment (self);
  g_autofree char *key = describe_rows (self, moment);

  update_badge (self, moment);
  if (g_strcmp0 (key, self->rows_key) == 0)
    return;
  rebuild_rows (self, moment);
  g_free (self->rows_key);
  self->rows_key = g_steal_pointer (&key);
}

/* A line between two lints. */
static void
add_separator (GtkListBoxRow *row,
               GtkListBoxRow *before,
               gpointer       user_data)
{
  if (before != NULL && gtk_list_box_row_get_header (row) == NULL)
    gtk_list_box_row_set_header (row, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
}

static void
on_row_activated (SluiceLintView *self,
                  GtkListBoxRow  *row)
{
  gint index = gtk_list_box_row_get_index (row);

  if (index < 0 || (guint) index >= self->shown->len)
    return;

  /* Told even when it is the same time again: the playhead may have moved
   * since the last click. */
  self->marked_time = sluice_lint_get_on (g_ptr_array_index (self->shown, index));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MARKED_TIME]);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->button));
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_lint_view_dispose (GObject *object)
{
  SluiceLintView *self = SLUICE_LINT_VIEW (object);

  g_clear_pointer (&self->button, gtk_widget_unparent);
  g_clear_object (&self->linter);
  g_clear_pointer (&self->shown, g_ptr_array_unref);
  g_clear_pointer (&self->texts, g_ptr_array_unref);
  g_clear_pointer (&self->rows_key, g_free);

  G_OBJECT_CLASS (sluice_lint_view_parent_class)->dispose (object);
}

static void
sluice_lint_view_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SluiceLintView *self = SLUICE_LINT_VIEW (object);

  switch (prop_id)
    {
    case PROP_MOMENT:
      g_value_set_int64 (value, self->moment);
      break;
    case PROP_MARKED_TIME:
      g_value_set_int64 (value, self->marked_time);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_lint_view_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  SluiceLintView *self = SLUICE_LINT_VIEW (object);

  switch (prop_id)
    {
    case PROP_MOMENT:
      sluice_lint_view_set_moment (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_lint_view_class_init (SluiceLintViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_lint_view_dispose;
  object_class->get_property = sluice_lint_view_get_property;
  object_class->set_property = sluice_lint_view_set_property;

  /**
   * SluiceLintView:moment:
   *
   * The clock time, in µs, whose lints it shows, or -1 for the newest
   * event's (bind it to #SluiceRunController:moment).
   */
  properties[PROP_MOMENT] =
    g_param_spec_int64 ("moment", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceLintView:marked-time:
   *
   * When the lint last clicked came on, in µs of the run's clock, or -1:
   * notified at every click (bind it to the viewport's playhead).
   */
  properties[PROP_MARKED_TIME] =
    g_param_spec_int64 ("marked-time", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sluice-lint-view");
}

static GtkWidget *
create_popover (SluiceLintView *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  /* Translators: the heading of the list of lints (warnings about the run) */
  GtkWidget *heading = gtk_label_new (_("Lints"));
  GtkWidget *note = wrapped_label (_("Warnings computed from the run's events, each on once its condition has "
                                     "held a while. Click one to see when it came on."),
                                   "dim-label");
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "title-3");
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_list_box_set_activate_on_single_click (self->list, TRUE);
  gtk_list_box_set_header_func (self->list, add_separator, NULL, NULL);
  g_signal_connect_swapped (self->list, "row-activated", G_CALLBACK (on_row_activated), self);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 420);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->list));

  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), note);
  gtk_box_append (GTK_BOX (box), scrolled);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  return popover;
}

static void
sluice_lint_view_init (SluiceLintView *self)
{
  GtkWidget *badge = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);

  self->moment = -1;
  self->marked_time = -1;
  self->linter = sluice_linter_new ();
  self->shown = g_ptr_array_new_with_free_func ((GDestroyNotify) sluice_lint_unref);
  self->texts = g_ptr_array_new_with_free_func (g_free);

  gtk_box_append (GTK_BOX (badge), gtk_image_new_from_icon_name ("dialog-warning-symbolic"));
  self->count_label = GTK_LABEL (gtk_label_new ("0"));
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "numeric");
  gtk_box_append (GTK_BOX (badge), GTK_WIDGET (self->count_label));

  self->button = gtk_menu_button_new ();
  gtk_menu_button_set_child (GTK_MENU_BUTTON (self->button), badge);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), create_popover (self));
  gtk_widget_add_css_class (self->button, "lint-badge");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Lints"), -1);
  gtk_widget_set_valign (self->button, GTK_ALIGN_CENTER);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));

  refresh (self);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_lint_view_new:
 *
 * Returns: (transfer full): a view of no run (hidden)
 */
GtkWidget *
sluice_lint_view_new (void)
{
  return g_object_new (SLUICE_TYPE_LINT_VIEW, NULL);
}

/**
 * sluice_lint_view_set_linter:
 * @self: a #SluiceLintView
 * @linter: the lints of the run shown (its model's)
 *
 * Shows @linter's lints: a reset, a new run, an opened recording or an
 * attached pool gives a new one.
 */
void
sluice_lint_view_set_linter (SluiceLintView *self,
                             SluiceLinter   *linter)
{
  g_return_if_fail (SLUICE_IS_LINT_VIEW (self));
  g_return_if_fail (SLUICE_IS_LINTER (linter));

  g_set_object (&self->linter, linter);
  refresh (self);
}

/**
 * sluice_lint_view_update:
 * @self: a #SluiceLintView
 *
 * Shows the lints of the moment, as the linter has read them by now
 * (rows are rebuilt only when what they say changed). Call it once per
 * frame.
 */
void
sluice_lint_view_update (SluiceLintView *self)
{
  g_return_if_fail (SLUICE_IS_LINT_VIEW (self));

  refresh (self);
}

/**
 * sluice_lint_view_set_moment:
 * @self: a #SluiceLintView
 * @moment: a clock time in µs, or -1 for the newest event's
 *
 * Shows the lints on at @moment (the scrubber's playhead, or now).
 */
void
sluice_lint_view_set_moment (SluiceLintView *self,
                             gint64          moment)
{
  g_return_if_fail (SLUICE_IS_LINT_VIEW (self));

  if (self->moment == moment)
    return;
  self->moment = moment;
  refresh (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MOMENT]);
}

/**
 * sluice_lint_view_get_moment:
 * @self: a #SluiceLintView
 *
 * Returns: the clock time shown, or -1 for the newest event's
 */
gint64
sluice_lint_view_get_moment (SluiceLintView *self)
{
  g_return_val_if_fail (SLUICE_IS_LINT_VIEW (self), -1);
  return self->moment;
}

/**
 * sluice_lint_view_get_marked_time:
 * @self: a #SluiceLintView
 *
 * Returns: when the lint last clicked came on, or -1
 */
gint64
sluice_lint_view_get_marked_time (SluiceLintView *self)
{
  g_return_val_if_fail (SLUICE_IS_LINT_VIEW (self), -1);
  return self->marked_time;
}

/**
 * sluice_lint_view_get_linter:
 * @self: a #SluiceLintView
 *
 * Returns: (transfer none): the linter it shows
 */
SluiceLinter *
sluice_lint_view_get_linter (SluiceLintView *self)
{
  g_return_val_if_fail (SLUICE_IS_LINT_VIEW (self), NULL);
  return self->linter;
}

/**
 * sluice_lint_view_set_muted:
 * @self: a #SluiceLintView
 * @muted: 1 << #SluiceLintKind for each kind not to flag, or 0
 *
 * Leaves out the lints a lesson teaches (`mute-lints`): in it they are
 * the subject, not a warning.
 */
void
sluice_lint_view_set_muted (SluiceLintView *self,
                            guint           muted)
{
  g_return_if_fail (SLUICE_IS_LINT_VIEW (self));

  if (self->muted == muted)
    return;
  self->muted = muted;
  g_clear_pointer (&self->rows_key, g_free);
  refresh (self);
}

/**
 * sluice_lint_view_get_count:
 * @self: a #SluiceLintView
 *
 * Returns: the number the badge shows: the lints on at the moment
 */
guint
sluice_lint_view_get_count (SluiceLintView *self)
{
  g_return_val_if_fail (SLUICE_IS_LINT_VIEW (self), 0);
  return self->count;
}

/**
 * sluice_lint_view_get_n_rows:
 * @self: a #SluiceLintView
 *
 * Returns: how many lints the list shows: those that came on by the moment
 */
guint
sluice_lint_view_get_n_rows (SluiceLintView *self)
{
  g_return_val_if_fail (SLUICE_IS_LINT_VIEW (self), 0);
  return self->shown->len;
}

/**
 * sluice_lint_view_dup_row_text:
 * @self: a #SluiceLintView
 * @index: a row, from 0
 *
 * Returns: (transfer full): what the row says, a line each: title,
 *   interval, message, what to try
 */
char *
sluice_lint_view_dup_row_text (SluiceLintView *self,
                               guint           index)
{
  g_return_val_if_fail (SLUICE_IS_LINT_VIEW (self), NULL);
  g_return_val_if_fail (index < self->texts->len, NULL);

  return g_strdup (g_ptr_array_index (self->texts, index));
}
