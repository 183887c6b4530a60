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
 * A row of figures with a title under each: pulled, queued (the queue
 * depth), in flight, busy workers (of all workers), succeeded, retries, timeouts, failed, cancelled, dropped
 * (by a stop or a cancel), retries skipped and items shed (the
 * retry policy's; shown only when the run can have them), elapsed and
 * throughput. They flow onto a second row when the window is too narrow
 * for one (1024 pixels with every counter shown), never onto a third. They
 * show a #SluiceLiveStats (sluice_counters_set_stats()), formatting its
 * figures at each #SluiceLiveStats::changed; a label only changes when its
 * text does.
 */

static const char * const counter_titles[SLUICE_N_COUNTERS] = {
  [SLUICE_COUNTER_PULLED] = N_("Pulled"),
  [SLUICE_COUNTER_QUEUED] = N_("Queued"),
  [SLUICE_COUNTER_IN_FLIGHT] = N_("In flight"),
  /* Translators: a counter's title, under “3 of 4”: workers holding an
   * item. Keep it short. */
  [SLUICE_COUNTER_BUSY] = N_("Busy"),
  [SLUICE_COUNTER_SUCCEEDED] = N_("Succeeded"),
  [SLUICE_COUNTER_RETRIES] = N_("Retries"),
  [SLUICE_COUNTER_TIMEOUTS] = N_("Timeouts"),
  [SLUICE_COUNTER_FAILED] = N_("Failed"),
  /* Translators: a counter's title, under its number: items whose attempt
   * was cancelled, or that were given up while queued. Keep it short. */
  [SLUICE_COUNTER_CANCELLED] = N_("Cancelled"),
  /* Translators: a counter's title, under its number: items pulled but
   * never handled, because of a stop or a cancel. Keep it short. */
  [SLUICE_COUNTER_DROPPED] = N_("Dropped"),
  /* Translators: a counter's title, under its number: retries the retry
   * policy refused (deadline or budget). Keep it short. */
  [SLUICE_COUNTER_RETRIES_SKIPPED] = N_("Skipped"),
  /* Translators: a counter's title, under its number: items dropped from
   * the queue because their deadline had passed. Keep it short. */
  [SLUICE_COUNTER_SHED] = N_("Shed"),
  [SLUICE_COUNTER_ELAPSED] = N_("Elapsed"),
  [SLUICE_COUNTER_THROUGHPUT] = N_("Throughput"),
};

static const char * const counter_tooltips[SLUICE_N_COUNTERS] = {
  [SLUICE_COUNTER_PULLED] = N_("Items the pool pulled from the source."),
  [SLUICE_COUNTER_QUEUED] = N_("Items or jobs waiting in the queue for a worker."),
  [SLUICE_COUNTER_IN_FLIGHT] = N_("Attempts running now."),
  [SLUICE_COUNTER_BUSY] = N_("Workers holding an item now, of all workers: running an attempt, waiting for one to stop, or waiting before a retry. All busy and a full queue: the pool does not keep up."),
  [SLUICE_COUNTER_SUCCEEDED] = N_("Items that succeeded."),
  [SLUICE_COUNTER_RETRIES] = N_("Retries started after retryable failures."),
  [SLUICE_COUNTER_TIMEOUTS] = N_("Attempts that ran past the item timeout."),
  [SLUICE_COUNTER_FAILED] = N_("Items that failed for good."),
  [SLUICE_COUNTER_CANCELLED] = N_("Items cancelled: their attempt was cancelled while it ran, or they were given up while they waited in the queue."),
  [SLUICE_COUNTER_DROPPED] = N_("Items pulled from the source but never handled, because the run was stopped or cancelled first."),
  [SLUICE_COUNTER_RETRIES_SKIPPED] = N_("Retries the retry policy refused: the wait would end past the item’s deadline, or the retry budget was half empty. Those items failed for good."),
  [SLUICE_COUNTER_SHED] = N_("Items dropped from the queue without a handler call, because their deadline had passed while they waited. They failed for good."),
  [SLUICE_COUNTER_ELAPSED] = N_("Time since the run started, on the pool’s clock."),
  [SLUICE_COUNTER_THROUGHPUT] = N_("Items that succeeded per second of the pool’s clock."),
};

struct _SluiceCounters
{
  GtkWidget  parent_instance;

  GtkWidget *boxes[SLUICE_N_COUNTERS];
  GtkLabel  *labels[SLUICE_N_COUNTERS];
  char      *texts[SLUICE_N_COUNTERS];
  SluiceLiveStats *stats;
};

G_DEFINE_FINAL_TYPE (SluiceCounters, sluice_counters, GTK_TYPE_WIDGET)

static void
sluice_counters_dispose (GObject *object)
{
  SluiceCounters *self = SLUICE_COUNTERS (object);

  sluice_counters_set_stats (self, NULL);
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

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "counters");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
sluice_counters_init (SluiceCounters *self)
{
  GtkWidget *flow = gtk_flow_box_new ();

  /* Figures, not a list to pick from: no selection, no focus. Each as wide
   * as its own title ("Wiederholungen" does not widen "Wartend"), so that a
   * row holds more of them on a small screen. */
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (flow), FALSE);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (flow), GTK_SELECTION_NONE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (flow), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (flow), 4);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (flow), SLUICE_N_COUNTERS);
  /* At most two rows, however narrow the window: GTK sizes a window for
   * its height at its narrowest, where one counter per row would ask for
   * a window taller than a small screen. */
  gtk_flow_box_set_min_children_per_line (GTK_FLOW_BOX (flow), (SLUICE_N_COUNTERS + 1) / 2);
  gtk_widget_set_can_focus (flow, FALSE);
  gtk_widget_set_parent (flow, GTK_WIDGET (self));
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
      gtk_flow_box_append (GTK_FLOW_BOX (flow), box);

      self->boxes[c] = box;
      self->labels[c] = GTK_LABEL (value);
    }

  sluice_counters_set_shown (self, SLUICE_COUNTER_RETRIES_SKIPPED, FALSE);
  sluice_counters_set_shown (self, SLUICE_COUNTER_SHED, FALSE);
}

/**
 * sluice_counters_new:
 *
 * Returns: (transfer full): a row of counters, all "0"; those of the retry
 *   policy hidden
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

/**
 * sluice_counters_set_shown:
 * @self: a #SluiceCounters
 * @counter: which one
 * @shown: whether it takes a place in the row
 *
 * Shows or hides @counter: the retry policy's counters take room only in
 * runs that can have them, so the row stays readable on a small screen.
 */
void
sluice_counters_set_shown (SluiceCounters *self,
                           SluiceCounter   counter,
                           gboolean        shown)
{
  g_return_if_fail (SLUICE_IS_COUNTERS (self));
  g_return_if_fail (counter < SLUICE_N_COUNTERS);

  /* The flow box skips hidden children (its own, around each counter). */
  gtk_widget_set_visible (gtk_widget_get_parent (self->boxes[counter]), shown);
}

/**
 * sluice_counters_get_shown:
 * @self: a #SluiceCounters
 * @counter: which one
 *
 * Returns: whether @counter is shown
 */
gboolean
sluice_counters_get_shown (SluiceCounters *self,
                           SluiceCounter   counter)
{
  g_return_val_if_fail (SLUICE_IS_COUNTERS (self), FALSE);
  g_return_val_if_fail (counter < SLUICE_N_COUNTERS, FALSE);

  return gtk_widget_get_visible (gtk_widget_get_parent (self->boxes[counter]));
}

/* The figures as texts: "3", "1 of 4", "1.00 s", "2.5/s" or "–". */
static void
show_stats (SluiceCounters *self)
{
  SluiceLiveStats *st = self->stats;
  static const struct {
    SluiceCounter  counter;
    SluiceLiveStat stat;
  } plain[] = {
    { SLUICE_COUNTER_PULLED, SLUICE_LIVE_STAT_PULLED },
    { SLUICE_COUNTER_QUEUED, SLUICE_LIVE_STAT_QUEUED },
    { SLUICE_COUNTER_IN_FLIGHT, SLUICE_LIVE_STAT_IN_FLIGHT },
    { SLUICE_COUNTER_SUCCEEDED, SLUICE_LIVE_STAT_SUCCEEDED },
    { SLUICE_COUNTER_RETRIES, SLUICE_LIVE_STAT_RETRIES },
    { SLUICE_COUNTER_TIMEOUTS, SLUICE_LIVE_STAT_TIMEOUTS },
    { SLUICE_COUNTER_FAILED, SLUICE_LIVE_STAT_FAILED },
    { SLUICE_COUNTER_CANCELLED, SLUICE_LIVE_STAT_CANCELLED },
    { SLUICE_COUNTER_DROPPED, SLUICE_LIVE_STAT_DROPPED },
    { SLUICE_COUNTER_RETRIES_SKIPPED, SLUICE_LIVE_STAT_RETRIES_SKIPPED },
    { SLUICE_COUNTER_SHED, SLUICE_LIVE_STAT_SHED },
  };
  double throughput = sluice_live_stats_get_throughput (st);
  guint busy = sluice_live_stats_get (st, SLUICE_LIVE_STAT_BUSY);
  guint workers = sluice_live_stats_get (st, SLUICE_LIVE_STAT_WORKERS);

  for (guint i = 0; i < G_N_ELEMENTS (plain); i++)
    sluice_counters_set (self, plain[i].counter, g_strdup_printf ("%u", sluice_live_stats_get (st, plain[i].stat)));
  /* Translators: the busy-workers counter: workers holding an item, of
   * all workers, such as “3 of 4” */
  sluice_counters_set (self, SLUICE_COUNTER_BUSY, g_strdup_printf (_("%u of %u"), busy, workers));
  /* The retry policy's counters only where they can count something. */
  sluice_counters_set_shown (self, SLUICE_COUNTER_RETRIES_SKIPPED, sluice_live_stats_get_skipped_shown (st));
  sluice_counters_set_shown (self, SLUICE_COUNTER_SHED, sluice_live_stats_get_shed_shown (st));
  sluice_counters_set (self, SLUICE_COUNTER_ELAPSED,
                       g_strdup_printf (_("%.2f s"), (double) sluice_live_stats_get_elapsed (st) / G_USEC_PER_SEC));
  sluice_counters_set (self, SLUICE_COUNTER_THROUGHPUT,
                       throughput >= 0 ? g_strdup_printf (_("%.1f/s"), throughput) : g_strdup ("–"));
}

/**
 * sluice_counters_set_stats:
 * @self: a #SluiceCounters
 * @stats: (nullable): the figures to show, or %NULL
 *
 * Shows @stats now and at each of its #SluiceLiveStats::changed; with
 * %NULL the counters keep their last texts.
 */
void
sluice_counters_set_stats (SluiceCounters  *self,
                           SluiceLiveStats *stats)
{
  g_return_if_fail (SLUICE_IS_COUNTERS (self));
  g_return_if_fail (stats == NULL || SLUICE_IS_LIVE_STATS (stats));

  if (self->stats == stats)
    return;
  if (self->stats != NULL)
    g_signal_handlers_disconnect_by_data (self->stats, self);
  g_set_object (&self->stats, stats);
  if (stats == NULL)
    return;
  g_signal_connect_swapped (stats, "changed", G_CALLBACK (show_stats), self);
  show_stats (self);
}
