/* sluice-event-log.c: the recorded events as a filtered table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-event-item.h"
#include "sluice-event-log.h"
#include "sluice-theme.h"

/**
 * SluiceEventLog:
 *
 * A #GtkColumnView over the events of a run, with a text filter and a kind
 * filter. The window appends events as it reads them from the recorder and
 * flushes once per frame; the view follows the newest row unless the user
 * scrolled up, and follows again once they scroll back to the bottom.
 */

typedef enum {
  COLUMN_POSITION,
  COLUMN_TIME,
  COLUMN_KIND,
  COLUMN_ITEM,
  COLUMN_ATTEMPT,
  COLUMN_WORKER,
  COLUMN_QUEUED,
  COLUMN_IN_FLIGHT,
  COLUMN_DETAIL,
  N_COLUMNS
} Column;

static const struct {
  const char *title;
  gboolean    numeric;
} columns[N_COLUMNS] = {
  [COLUMN_POSITION] = { N_("#"), TRUE },
  [COLUMN_TIME] = { N_("Time (s)"), TRUE },
  [COLUMN_KIND] = { N_("Event"), FALSE },
  [COLUMN_ITEM] = { N_("Item"), TRUE },
  [COLUMN_ATTEMPT] = { N_("Attempt"), TRUE },
  [COLUMN_WORKER] = { N_("Worker"), TRUE },
  [COLUMN_QUEUED] = { N_("Queued"), TRUE },
  [COLUMN_IN_FLIGHT] = { N_("In flight"), TRUE },
  [COLUMN_DETAIL] = { N_("Detail"), FALSE },
};

struct _SluiceEventLog
{
  GtkWidget           parent_instance;

  GtkSearchEntry     *search_entry;
  GtkDropDown        *kind_dropdown;
  GtkScrolledWindow  *scroller;
  GtkColumnView      *column_view;

  GListStore         *store;
  GtkFilterListModel *filtered;
  GtkCustomFilter    *filter;
  GPtrArray          *pending;   /* SluiceEventItem, not yet in the store */
  char               *needle;
  gint                kind;      /* -1: every kind */
  double              last_value;
  guint               follow_tick;
  guint               follow_frames;
  gboolean            following;
};

G_DEFINE_FINAL_TYPE (SluiceEventLog, sluice_event_log, GTK_TYPE_WIDGET)

/* ---- cells ------------------------------------------------------------- */

static char *
format_cell (SluiceEventItem *item,
             Column           column)
{
  const SluiceEvent *e = sluice_event_item_get_event (item);

  switch (column)
    {
    case COLUMN_POSITION:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, sluice_event_item_get_position (item) + 1);
    case COLUMN_TIME:
      return g_strdup_printf ("%.3f", (double) e->time / G_USEC_PER_SEC);
    case COLUMN_KIND:
      return g_strdup (sluice_event_kind_get_display_name (e->kind));
    case COLUMN_ITEM:
      return e->item >= 0 ? g_strdup_printf ("%" G_GINT64_FORMAT, e->item) : g_strdup ("");
    case COLUMN_ATTEMPT:
      return e->attempt > 0 ? g_strdup_printf ("%u", e->attempt) : g_strdup ("");
    case COLUMN_WORKER:
      return e->worker >= 0 ? g_strdup_printf ("%d", e->worker) : g_strdup ("");
    case COLUMN_QUEUED:
      return g_strdup_printf ("%u", e->queued);
    case COLUMN_IN_FLIGHT:
      return g_strdup_printf ("%u", e->in_flight);
    case COLUMN_DETAIL:
      return sluice_event_item_dup_detail (item);
    case N_COLUMNS:
    default:
      g_assert_not_reached ();
    }
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_UINT (user_data);

  gtk_list_item_set_child (list_item, sluice_cell_label_new (columns[column].numeric));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  SluiceEventItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = format_cell (item, GPOINTER_TO_UINT (user_data));
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), text);
  if (GPOINTER_TO_UINT (user_data) == COLUMN_DETAIL)
    gtk_widget_set_tooltip_text (label, *text ? text : NULL);
}

static void
add_columns (SluiceEventLog *self)
{
  for (guint c = 0; c < N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (c));

      column = gtk_column_view_column_new (_(columns[c].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == COLUMN_DETAIL);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
}

/* ---- filtering --------------------------------------------------------- */

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  SluiceEventLog *self = user_data;

  if (self->kind >= 0 && (gint) sluice_event_item_get_event (item)->kind != self->kind)
    return FALSE;

  return sluice_event_item_matches (item, self->needle);
}

static void
refilter (SluiceEventLog *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_search_changed (SluiceEventLog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->needle);
  self->needle = g_utf8_strdown (text, -1);
  refilter (self);
}

static void
on_kind_selected (SluiceEventLog *self)
{
  guint selected = gtk_drop_down_get_selected (self->kind_dropdown);

  /* Row 0 is "every kind". */
  self->kind = selected == 0 || selected == GTK_INVALID_LIST_POSITION ? -1 : (gint) selected - 1;
  refilter (self);
}

static void
fill_kinds (SluiceEventLog *self)
{
  g_autoptr(GtkStringList) kinds = gtk_string_list_new (NULL);

  gtk_string_list_append (kinds, _("All events"));
  for (guint k = 0; k < SLUICE_EVENT_N_KINDS; k++)
    gtk_string_list_append (kinds, sluice_event_kind_get_display_name (k));

  gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (kinds));
}

/* ---- following the tail ------------------------------------------------ */

static gboolean
at_bottom (GtkAdjustment *adj)
{
  return gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj) >=
         gtk_adjustment_get_upper (adj) - 2.0;
}

/* Only a move up is the user's: new rows grow the upper bound under a
 * value that stays put, which must not stop the following. */
static void
on_value_changed (GtkAdjustment  *adj,
                  SluiceEventLog *self)
{
  double value = gtk_adjustment_get_value (adj);

  if (at_bottom (adj))
    self->following = TRUE;
  else if (value < self->last_value - 0.5)
    self->following = FALSE;

  self->last_value = value;
}

static void
scroll_to_end (SluiceEventLog *self)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);

  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
}

/* The list learns its true height as it lays out rows: while following,
 * stay at the bottom as it grows. */
static void
on_upper_changed (GtkAdjustment  *adj,
                  GParamSpec     *pspec,
                  SluiceEventLog *self)
{
  if (self->following)
    scroll_to_end (self);
}

static GtkWidget *
find_list_view (GtkColumnView *column_view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;

  return NULL;
}

/* Scrolls once the new rows are laid out, a frame after they came. */
static gboolean
follow_tick (GtkWidget     *widget,
             GdkFrameClock *frame_clock,
             gpointer       user_data)
{
  SluiceEventLog *self = SLUICE_EVENT_LOG (widget);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
  GtkWidget *list_view = find_list_view (self->column_view);

  if (!self->following || n == 0 || list_view == NULL || self->follow_frames == 0)
    {
      self->follow_tick = 0;
      return G_SOURCE_REMOVE;
    }

  /* The list only knows the height of the rows it laid out: scroll again
   * for a few frames, until the estimate of the new rows is the truth. */
  gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", n - 1);
  scroll_to_end (self);
  self->follow_frames--;
  return G_SOURCE_CONTINUE;
}

static void
follow (SluiceEventLog *self)
{
  self->follow_frames = 3;
  if (self->following && self->follow_tick == 0)
    self->follow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), follow_tick, NULL, NULL);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_event_log_dispose (GObject *object)
{
  SluiceEventLog *self = SLUICE_EVENT_LOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_EVENT_LOG);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->filtered);
  g_clear_object (&self->store);
  g_clear_pointer (&self->pending, g_ptr_array_unref);

  G_OBJECT_CLASS (sluice_event_log_parent_class)->dispose (object);
}

static void
sluice_event_log_finalize (GObject *object)
{
  SluiceEventLog *self = SLUICE_EVENT_LOG (object);

  g_free (self->needle);

  G_OBJECT_CLASS (sluice_event_log_parent_class)->finalize (object);
}

static void
sluice_event_log_class_init (SluiceEventLogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_event_log_dispose;
  object_class->finalize = sluice_event_log_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-event-log.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceEventLog, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SluiceEventLog, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SluiceEventLog, scroller);
  gtk_widget_class_bind_template_child (widget_class, SluiceEventLog, column_view);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_selected);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sluice_event_log_init (SluiceEventLog *self)
{
  GtkAdjustment *vadj;
  g_autoptr(GtkNoSelection) selection = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->kind = -1;
  self->following = TRUE;
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->store = g_list_store_new (SLUICE_TYPE_EVENT_ITEM);
  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                              GTK_FILTER (self->filter));
  selection = gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->filtered)));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));

  add_columns (self);
  fill_kinds (self);

  vadj = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect_object (vadj, "value-changed", G_CALLBACK (on_value_changed), self, 0);
  g_signal_connect_object (vadj, "notify::upper", G_CALLBACK (on_upper_changed), self, 0);
  g_signal_connect_object (vadj, "notify::page-size", G_CALLBACK (on_upper_changed), self, 0);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_event_log_new:
 *
 * Returns: (transfer full): a new, empty event log
 */
GtkWidget *
sluice_event_log_new (void)
{
  return g_object_new (SLUICE_TYPE_EVENT_LOG, NULL);
}

/**
 * sluice_event_log_clear:
 * @self: a #SluiceEventLog
 *
 * Removes every event and follows the tail again.
 */
void
sluice_event_log_clear (SluiceEventLog *self)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));

  g_ptr_array_set_size (self->pending, 0);
  g_list_store_remove_all (self->store);
  self->following = TRUE;
  self->last_value = 0;
}

/**
 * sluice_event_log_append:
 * @self: a #SluiceEventLog
 * @event: an event; it is copied
 * @position: its number in the run, from 0
 *
 * Adds @event at the next sluice_event_log_flush().
 */
void
sluice_event_log_append (SluiceEventLog    *self,
                         const SluiceEvent *event,
                         guint64            position)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));

  g_ptr_array_add (self->pending, sluice_event_item_new (event, position));
}

/**
 * sluice_event_log_flush:
 * @self: a #SluiceEventLog
 *
 * Shows the events appended since the last flush, in one change.
 */
void
sluice_event_log_flush (SluiceEventLog *self)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));

  if (sluice_event_items_flush (self->store, self->pending))
    follow (self);
}

/**
 * sluice_event_log_get_n_events:
 * @self: a #SluiceEventLog
 *
 * Returns: how many events the log holds
 */
guint
sluice_event_log_get_n_events (SluiceEventLog *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_LOG (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

/**
 * sluice_event_log_get_n_rows:
 * @self: a #SluiceEventLog
 *
 * Returns: how many events pass the filters
 */
guint
sluice_event_log_get_n_rows (SluiceEventLog *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_LOG (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->filtered));
}

/**
 * sluice_event_log_set_filter:
 * @self: a #SluiceEventLog
 * @text: (nullable): text the rows must contain
 * @kind: a #SluiceEventKind, or -1 for every kind
 *
 * Sets both filters, as typing in the search entry and picking a kind do.
 */
void
sluice_event_log_set_filter (SluiceEventLog *self,
                             const char     *text,
                             gint            kind)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));
  g_return_if_fail (kind >= -1 && kind < SLUICE_EVENT_N_KINDS);

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  on_search_changed (self);
  gtk_drop_down_set_selected (self->kind_dropdown, (guint) (kind + 1));
}
