/* sluice-counters.c: the live counters of a run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-counters.h"

/**
 * SluiceCounters:
 *
 * A row of figures with a title under each: pulled, queued, in flight,
 * succeeded, retries, timeouts, failed, elapsed and throughput. The run
 * controller sets their texts once per frame; a label only changes when
 * its text does.
 */

static const char * const counter_titles[SLUICE_N_COUNTERS] = {
  [SLUICE_COUNTER_PULLED] = N_("Pulled"),
  [SLUICE_COUNTER_QUEUED] = N_("Queued"),
  [SLUICE_COUNTER_IN_FLIGHT] = N_("In flight"),
  [SLUICE_COUNTER_SUCCEEDED] = N_("Succeeded"),
  [SLUICE_COUNTER_RETRIES] = N_("Retries"),
  [SLUICE_COUNTER_TIMEOUTS] = N_("Timeouts"),
  [SLUICE_COUNTER_FAILED] = N_("Failed"),
  [SLUICE_COUNTER_ELAPSED] = N_("Elapsed"),
  [SLUICE_COUNTER_THROUGHPUT] = N_("Throughput"),
};

static const char * const counter_tooltips[SLUICE_N_COUNTERS] = {
  [SLUICE_COUNTER_PULLED] = N_("Items the pool pulled from the source."),
  [SLUICE_COUNTER_QUEUED] = N_("Items waiting in the queue for a worker."),
  [SLUICE_COUNTER_IN_FLIGHT] = N_("Attempts running now."),
  [SLUICE_COUNTER_SUCCEEDED] = N_("Items that succeeded."),
  [SLUICE_COUNTER_RETRIES] = N_("Retries started after retryable failures."),
  [SLUICE_COUNTER_TIMEOUTS] = N_("Attempts that ran past the item timeout."),
  [SLUICE_COUNTER_FAILED] = N_("Items that failed for good."),
  [SLUICE_COUNTER_ELAPSED] = N_("Time since the run started, on the pool’s clock."),
  [SLUICE_COUNTER_THROUGHPUT] = N_("Items that succeeded per second of the pool’s clock."),
};

struct _SluiceCounters
{
  GtkWidget  parent_instance;

  GtkLabel  *labels[SLUICE_N_COUNTERS];
  char      *texts[SLUICE_N_COUNTERS];
};

G_DEFINE_FINAL_TYPE (SluiceCounters, sluice_counters, GTK_TYPE_WIDGET)

static void
sluice_counters_dispose (GObject *object)
{
  SluiceCounters *self = SLUICE_COUNTERS (object);

  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (sluice_counters_parent_class)->dispose (object);
}

static void
sluice_counters_finalize (GObject *object)
{
  SluiceCounters *self = SLUICE_COUNTERS (object);

  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    g_free (self->texts[c]);

  G_OBJECT_CLASS (sluice_counters_parent_class)->finalize (object);
}

static void
sluice_counters_class_init (SluiceCountersClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_counters_dispose;
  object_class->finalize = sluice_counters_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "counters");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sluice_counters_init (SluiceCounters *self)
{
  GtkBoxLayout *layout = GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self)));

  gtk_box_layout_set_homogeneous (layout, TRUE);
  gtk_box_layout_set_spacing (layout, 6);
  gtk_widget_add_css_class (GTK_WIDGET (self), "counters");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Live counters"), -1);

  for (guint c = 0; c < SLUICE_N_COUNTERS; c++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      GtkWidget *value = gtk_label_new ("0");
      GtkWidget *title = gtk_label_new (_(counter_titles[c]));

      gtk_widget_add_css_class (value, "counter-value");
      gtk_widget_add_css_class (title, "counter-title");
      gtk_widget_set_tooltip_text (box, _(counter_tooltips[c]));
      gtk_accessible_update_relation (GTK_ACCESSIBLE (value),
                                      GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL, -1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (value),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _(counter_tooltips[c]), -1);
      gtk_box_append (GTK_BOX (box), value);
      gtk_box_append (GTK_BOX (box), title);
      gtk_widget_set_parent (box, GTK_WIDGET (self));

      self->labels[c] = GTK_LABEL (value);
    }
}

/**
 * sluice_counters_new:
 *
 * Returns: (transfer full): a row of counters, all "0"
 */
GtkWidget *
sluice_counters_new (void)
{
  return g_object_new (SLUICE_TYPE_COUNTERS, NULL);
}

/**
 * sluice_counters_set:
 * @self: a #SluiceCounters
 * @counter: which one
 * @text: (transfer full): what it shows
 *
 * Shows @text, touching the label only when it changed.
 */
void
sluice_counters_set (SluiceCounters *self,
                     SluiceCounter   counter,
                     char           *text)
{
  g_return_if_fail (SLUICE_IS_COUNTERS (self));
  g_return_if_fail (counter < SLUICE_N_COUNTERS);

  if (g_strcmp0 (self->texts[counter], text) != 0)
    gtk_label_set_text (self->labels[counter], text);

  g_free (self->texts[counter]);
  self->texts[counter] = text;
}

/**
 * sluice_counters_get:
 * @self: a #SluiceCounters
 * @counter: which one
 *
 * Returns: the text @counter shows
 */
const char *
sluice_counters_get (SluiceCounters *self,
                     SluiceCounter   counter)
{
  g_return_val_if_fail (SLUICE_IS_COUNTERS (self), NULL);
  g_return_val_if_fail (counter < SLUICE_N_COUNTERS, NULL);
  return gtk_label_get_text (self->labels[counter]);
}
