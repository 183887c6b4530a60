/* sluice-explain-view.c: "Explain this moment": the run at the moment shown, in sentences
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-explain-view.h"

/**
 * SluiceExplainView:
 *
 * Says in plain sentences what the run is doing at #SluiceExplainView:moment
 * (the playhead after a run, now during one): what each worker does and
 * why, what the producer waits on, deadlines and cancel rounds, a stop or
 * a drain. The sentences are the #SluiceNarrator's; the view only shows
 * them, selectable, to be read aloud or copied.
 */

struct _SluiceExplainView
{
  GtkWidget       parent_instance;

  GtkWidget      *scrolled;
  GtkLabel       *label;
  SluiceNarrator *narrator;
  gint64          moment;
  gboolean        stale;     /* the moment moved while the view was not shown */
};

G_DEFINE_FINAL_TYPE (SluiceExplainView, sluice_explain_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_NARRATOR,
  PROP_MOMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
update_text (SluiceExplainView *self)
{
  g_autofree char *text = NULL;

  self->stale = FALSE;
  if (self->narrator == NULL || self->moment < 0)
    {
      gtk_label_set_text (self->label, _("Run a scenario: this tab then says what the pool does at the moment "
                                         "shown — now while it runs, the playhead’s moment after."));
      gtk_widget_add_css_class (GTK_WIDGET (self->label), "dim-label");
      return;
    }

  text = sluice_narrator_narrate (self->narrator, self->moment);
  gtk_widget_remove_css_class (GTK_WIDGET (self->label), "dim-label");
  if (g_strcmp0 (gtk_label_get_text (self->label), text) != 0)
    gtk_label_set_text (self->label, text);
}

/**
 * sluice_explain_view_set_narrator:
 * @self: a #SluiceExplainView
 * @narrator: (nullable): the run's narrator, or %NULL for none
 *
 * Explains @narrator's run from now on.
 */
void
sluice_explain_view_set_narrator (SluiceExplainView *self,
                                  SluiceNarrator    *narrator)
{
  g_return_if_fail (SLUICE_IS_EXPLAIN_VIEW (self));
  g_return_if_fail (narrator == NULL || SLUICE_IS_NARRATOR (narrator));

  if (!g_set_object (&self->narrator, narrator))
    return;
  update_text (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NARRATOR]);
}

/**
 * sluice_explain_view_set_moment:
 * @self: a #SluiceExplainView
 * @moment: the clock time to explain, in µs, or -1 for none
 *
 * Explains the run at @moment.
 */
void
sluice_explain_view_set_moment (SluiceExplainView *self,
                                gint64             moment)
{
  g_return_if_fail (SLUICE_IS_EXPLAIN_VIEW (self));

  if (self->moment == moment)
    return;
  self->moment = moment;
  /* A scrubber moves the moment every frame: a tab not shown is told
   * when it is (or asked for its text), not relaid out each time. */
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    update_text (self);
  else
    self->stale = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MOMENT]);
}

/**
 * sluice_explain_view_get_text:
 * @self: a #SluiceExplainView
 *
 * Returns: the sentences shown
 */
const char *
sluice_explain_view_get_text (SluiceExplainView *self)
{
  g_return_val_if_fail (SLUICE_IS_EXPLAIN_VIEW (self), NULL);

  if (self->stale)
    update_text (self);
  return gtk_label_get_text (self->label);
}

static void
sluice_explain_view_map (GtkWidget *widget)
{
  SluiceExplainView *self = SLUICE_EXPLAIN_VIEW (widget);

  if (self->stale)
    update_text (self);
  GTK_WIDGET_CLASS (sluice_explain_view_parent_class)->map (widget);
}

static void
sluice_explain_view_dispose (GObject *object)
{
  SluiceExplainView *self = SLUICE_EXPLAIN_VIEW (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_object (&self->narrator);

  G_OBJECT_CLASS (sluice_explain_view_parent_class)->dispose (object);
}

static void
sluice_explain_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceExplainView *self = SLUICE_EXPLAIN_VIEW (object);

  switch (prop_id)
    {
    case PROP_NARRATOR:
      g_value_set_object (value, self->narrator);
      break;
    case PROP_MOMENT:
      g_value_set_int64 (value, self->moment);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_explain_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SluiceExplainView *self = SLUICE_EXPLAIN_VIEW (object);

  switch (prop_id)
    {
    case PROP_NARRATOR:
      sluice_explain_view_set_narrator (self, g_value_get_object (value));
      break;
    case PROP_MOMENT:
      sluice_explain_view_set_moment (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_explain_view_class_init (SluiceExplainViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_explain_view_dispose;
  object_class->get_property = sluice_explain_view_get_property;
  object_class->set_property = sluice_explain_view_set_property;
  widget_class->map = sluice_explain_view_map;

  /**
   * SluiceExplainView:narrator: (nullable)
   *
   * The run's narrator.
   */
  properties[PROP_NARRATOR] =
    g_param_spec_object ("narrator", NULL, NULL, SLUICE_TYPE_NARRATOR,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceExplainView:moment:
   *
   * The clock time explained, in µs, or -1.
   */
  properties[PROP_MOMENT] =
    g_param_spec_int64 ("moment", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "explainview");
}

static void
sluice_explain_view_init (SluiceExplainView *self)
{
  self->moment = -1;
  self->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->label, TRUE);
  gtk_label_set_wrap_mode (self->label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->label, 0);
  gtk_label_set_yalign (self->label, 0);
  gtk_label_set_selectable (self->label, TRUE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->label), 8);
  gtk_widget_set_margin_end (GTK_WIDGET (self->label), 8);
  gtk_widget_set_margin_top (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->label), 6);
  gtk_widget_add_css_class (GTK_WIDGET (self->label), "explanation");

  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), GTK_WIDGET (self->label));
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
  update_text (self);
}

/**
 * sluice_explain_view_new:
 *
 * Returns: (transfer full): a view with nothing to explain yet
 */
GtkWidget *
sluice_explain_view_new (void)
{
  return g_object_new (SLUICE_TYPE_EXPLAIN_VIEW, NULL);
}
