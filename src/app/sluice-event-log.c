/* sluice-event-log.c: the recorded events as a filtered table
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-event-item.h"
#include "sluice-event-list.h"
#include "sluice-event-log.h"
#include "sluice-accessible.h"
#include "sluice-theme.h"

/**
 * SluiceEventLog:
 *
 * A #GtkColumnView over the events of a run's recorder, with a text filter
 * and a kind filter. Its rows are made only for what is on screen
 * (#SluiceEventList): the window gives it the recorder and calls
 * sluice_event_log_update() once per frame; the view follows the newest
 * row unless the user scrolled up, and follows again once they scroll back
 * to the bottom. While it follows, it lists only the rows it shows and a
 * few more (the list's tail), and all of them once the user scrolls up,
 * selects a row or moves the playhead: a #GtkListView keeps and binds up
 * to two hundred rows around the one it shows, and a fast run moves the
 * tail by thousands of rows, so each move made it bind them all anew, and
 * listing all at the run's end made it make them (tens to hundreds of ms
 * each time, the window's frames waiting).
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

  SluiceEventList    *events;
  GtkSingleSelection *selection;
  gint64              marked_time;  /* the clicked row's event time, or -1 */
  gboolean            showing;      /* selecting a row for the playhead, not a click */
  char               *needle;
  gint                kind;      /* -1: every kind */
  double              last_value;
  double              last_below;   /* the upper bound less the value, at the last change */
  guint               update_tail_id;  /* the tail changes after a scroll or a resize */
  gint64              last_move;    /* monotonic µs of the last update that added rows */
  guint               follow_tick;
  guint               follow_frames;
  gboolean            following;
  guint               scrolled_row;    /* the playhead's row scrolled to last, or invalid */
  gint64              moved_at;        /* monotonic µs the playhead's row last moved */
  guint               pending_row;     /* the playhead's row to scroll to when it rests */
  gint64              pending_since;   /* monotonic µs of the first move deferred, or 0 */
  guint               pending_id;
};

G_DEFINE_FINAL_TYPE (SluiceEventLog, sluice_event_log, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MARKED_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* While the log follows a live run, its tail moves at most this often: a
 * fast run adds thousands of rows a frame, and every move makes the list
 * bind all the rows it keeps around the tail (some hundred) anew. Ten
 * moves a second read as well as sixty. */
#define FOLLOW_INTERVAL_US (G_USEC_PER_SEC / 5)

/* The same when a scrubber drags the playhead: each frame moves it by
 * many rows, and each such jump makes the list bind the rows it keeps
 * (two hundred, nine cells each: tens of ms) anew. A move within
 * SCROLL_NEAR_ROWS of the last row scrolled to (stepping, a slow drag)
 * or one after a pause of SCROLL_QUIET_US (a click) scrolls at once; in a
 * fast drag the row is selected at once, and scrolled to once the
 * playhead rests for SCROLL_QUIET_US, or after SCROLL_STALE_US at most. */
#define SCROLL_NEAR_ROWS 50

/* The tail listed while the log follows a live run: the rows that fit the
 * view and this many more, the height of a row estimated as this many
 * pixels until one is laid out, and never more than a GtkListView keeps. */
#define TAIL_MARGIN_ROWS 3
#define TAIL_ROW_HEIGHT  24
#define TAIL_MAX_ROWS    200
#define SCROLL_QUIET_US  (G_USEC_PER_SEC * 3 / 20)
#define SCROLL_STALE_US  G_USEC_PER_SEC

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
  GtkWidget *label = sluice_cell_label_new (columns[column].numeric);

  if (column == COLUMN_DETAIL)
    sluice_cell_label_show_text_as_tooltip (label);
  g_object_set_data (G_OBJECT (label), "sluice-column", GUINT_TO_POINTER (column));
  gtk_list_item_set_child (list_item, label);
}

static void
show_cell (SluiceEventItem *item,
           GtkWidget       *label)
{
  Column column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (label), "sluice-column"));
  g_autofree char *text = format_cell (item, column);

  gtk_label_set_text (GTK_LABEL (label), text);
}

/* The row's item holds another event: the tail of a fast run moved
 * (sluice_event_list_update() keeps the items of the rows). */
static void
on_item_moved (SluiceEventItem *item,
               GParamSpec      *pspec,
               GtkWidget       *label)
{
  show_cell (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  SluiceEventItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);

  show_cell (item, label);
  g_signal_connect_object (item, "notify::position", G_CALLBACK (on_item_moved), label, 0);
}

static void
unbind_cell (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  SluiceEventItem *item = gtk_list_item_get_item (list_item);

  if (item != NULL)
    g_signal_handlers_disconnect_by_func (item, on_item_moved, gtk_list_item_get_child (list_item));
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
      g_signal_connect (factory, "unbind", G_CALLBACK (unbind_cell), GUINT_TO_POINTER (c));

      column = gtk_column_view_column_new (_(columns[c].title), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == COLUMN_DETAIL);
      gtk_column_view_append_column (self->column_view, column);
      g_object_unref (column);
    }
}

/* ---- filtering --------------------------------------------------------- */

static void cancel_scroll (SluiceEventLog *self);

/* The rows move: a scroll to the playhead's row waiting is forgotten. */
static void
refilter (SluiceEventLog *self)
{
  cancel_scroll (self);
  sluice_event_list_set_filter (self->events, self->needle, self->kind);
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

static guint tail_rows (SluiceEventLog *self);

/* Every row once the user scrolled up; the tail fit to the view again
 * when it changed size. */
static gboolean
on_update_tail (gpointer user_data)
{
  SluiceEventLog *self = user_data;

  self->update_tail_id = 0;
  if (!self->following)
    sluice_event_list_set_tail (self->events, 0);
  else if (sluice_event_list_get_tail (self->events) > 0)
    sluice_event_list_set_tail (self->events, tail_rows (self));
  return G_SOURCE_REMOVE;
}

/* Not in the middle of the list's own handling of the scroll or of its
 * size, and before the next frame. */
static void
queue_update_tail (SluiceEventLog *self)
{
  if (sluice_event_list_get_tail (self->events) > 0 && self->update_tail_id == 0)
    self->update_tail_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, on_update_tail, self, NULL);
}

static void
on_adjustment_changed (GtkAdjustment  *adj,
                       SluiceEventLog *self)
{
  if (self->following && sluice_event_list_get_tail (self->events) != tail_rows (self))
    queue_update_tail (self);
}

/* Only a move up is the user's: new rows grow the upper bound under a
 * value that stays put, and rows gone at the top (the tail moving, or a
 * bounded recorder's oldest) take as much off the value as off the upper
 * bound; neither must stop the following. */
static void
on_value_changed (GtkAdjustment  *adj,
                  SluiceEventLog *self)
{
  double value = gtk_adjustment_get_value (adj);
  double below = gtk_adjustment_get_upper (adj) - value;

  if (at_bottom (adj))
    self->following = TRUE;
  else if (value < self->last_value - 0.5 && below > self->last_below + 0.5)
    {
      self->following = FALSE;
      /* The rows above the tail, for the scroll to go on into. */
      queue_update_tail (self);
    }

  self->last_value = value;
  self->last_below = below;
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

/* Scrolls to the newest row once the new rows are laid out, a frame after
 * they came. The list then holds that row at its bottom edge (its anchor)
 * while it learns the height of the rows above and while rows are added
 * below: the adjustment is left to the list, whose every move by another
 * hand would anchor the list at its top row instead, and make it bind a
 * row for every new one below the view. */
static gboolean
follow_tick (GtkWidget     *widget,
             GdkFrameClock *frame_clock,
             gpointer       user_data)
{
  SluiceEventLog *self = SLUICE_EVENT_LOG (widget);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->events));
  GtkWidget *list_view = find_list_view (self->column_view);

  if (!self->following || n == 0 || list_view == NULL || self->follow_frames == 0)
    {
      self->follow_tick = 0;
      return G_SOURCE_REMOVE;
    }

  /* The list only knows the height of the rows it laid out: scroll again
   * for a few frames, until the estimate of the new rows is the truth. */
  gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", n - 1);
  self->follow_frames--;
  return G_SOURCE_CONTINUE;
}

/* The rows that fit the view, and a few more, by the height of a row laid
 * out (or an estimate before any is). */
static guint
tail_rows (SluiceEventLog *self)
{
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (self->scroller);
  GtkWidget *list_view = find_list_view (self->column_view);
  GtkWidget *row = list_view != NULL ? gtk_widget_get_first_child (list_view) : NULL;
  int height = 0;
  double rows;

  for (; row != NULL && height <= 0; row = gtk_widget_get_next_sibling (row))
    height = gtk_widget_get_height (row);
  rows = ceil (gtk_adjustment_get_page_size (vadj) / (height > 0 ? height : TAIL_ROW_HEIGHT));
  return (guint) MIN (rows + TAIL_MARGIN_ROWS, TAIL_MAX_ROWS);
}

static void
follow (SluiceEventLog *self)
{
  self->follow_frames = 3;
  if (self->following && self->follow_tick == 0)
    self->follow_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), follow_tick, NULL, NULL);
}

/* ---- the playhead's row ------------------------------------------------ */

static void
scroll_to_row (SluiceEventLog *self,
               guint           row)
{
  GtkWidget *list_view = find_list_view (self->column_view);

  g_clear_handle_id (&self->pending_id, g_source_remove);
  self->pending_since = 0;
  self->scrolled_row = row;
  if (list_view != NULL && row < g_list_model_get_n_items (G_LIST_MODEL (self->events)))
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", row);
}

static gboolean
on_scroll_pending (gpointer user_data)
{
  SluiceEventLog *self = user_data;

  self->pending_id = 0;
  scroll_to_row (self, self->pending_row);
  return G_SOURCE_REMOVE;
}

static void
cancel_scroll (SluiceEventLog *self)
{
  g_clear_handle_id (&self->pending_id, g_source_remove);
  self->pending_since = 0;
  self->scrolled_row = GTK_INVALID_LIST_POSITION;
  self->moved_at = 0;
}

/* Scrolls to the playhead's @row now or when the playhead rests. */
static void
show_row (SluiceEventLog *self,
          guint           row)
{
  gint64 now = g_get_monotonic_time ();
  gint64 rested = now - self->moved_at;
  gboolean near = self->scrolled_row != GTK_INVALID_LIST_POSITION &&
                  ABS ((gint64) row - (gint64) self->scrolled_row) <= SCROLL_NEAR_ROWS;

  self->moved_at = now;
  if (near || rested >= SCROLL_QUIET_US ||
      (self->pending_since > 0 && now - self->pending_since >= SCROLL_STALE_US))
    {
      scroll_to_row (self, row);
      return;
    }

  if (self->pending_since == 0)
    self->pending_since = now;
  self->pending_row = row;
  g_clear_handle_id (&self->pending_id, g_source_remove);
  self->pending_id = g_timeout_add (SCROLL_QUIET_US / 1000, on_scroll_pending, self);
}

/* ---- the clicked row's time -------------------------------------------- */

static void
set_marked_time (SluiceEventLog *self,
                 gint64          time)
{
  if (self->marked_time == time)
    return;

  self->marked_time = time;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MARKED_TIME]);
}

/* A row clicked marks its event's time; a selection lost to a filter or
 * a new run's rows keeps the mark until another row is clicked. */
static void
on_selected_changed (SluiceEventLog *self)
{
  SluiceEventItem *item = gtk_single_selection_get_selected_item (self->selection);

  if (item != NULL && !self->showing)
    set_marked_time (self, sluice_event_item_get_event (item)->time);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_event_log_dispose (GObject *object)
{
  SluiceEventLog *self = SLUICE_EVENT_LOG (object);

  g_clear_handle_id (&self->pending_id, g_source_remove);
  g_clear_handle_id (&self->update_tail_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_EVENT_LOG);
  for (GtkWidget *child; (child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL;)
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->events);

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
sluice_event_log_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SluiceEventLog *self = SLUICE_EVENT_LOG (object);

  switch (prop_id)
    {
    case PROP_MARKED_TIME:
      g_value_set_int64 (value, self->marked_time);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_event_log_class_init (SluiceEventLogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_event_log_dispose;
  object_class->finalize = sluice_event_log_finalize;
  object_class->get_property = sluice_event_log_get_property;

  /**
   * SluiceEventLog:marked-time:
   *
   * The clock time, in µs, of the event whose row was clicked last, or -1:
   * the chart and the lanes mark it.
   */
  properties[PROP_MARKED_TIME] =
    g_param_spec_int64 ("marked-time", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

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

  gtk_widget_init_template (GTK_WIDGET (self));
  sluice_accessible_name_drop_down (self->kind_dropdown, _("Filter events by kind"));

  self->kind = -1;
  self->scrolled_row = GTK_INVALID_LIST_POSITION;
  self->following = TRUE;
  self->marked_time = -1;
  self->events = sluice_event_list_new ();
  /* A click selects a row, and marks its time; nothing is selected first. */
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->events)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_object (self->selection, "notify::selected-item", G_CALLBACK (on_selected_changed),
                           self, G_CONNECT_SWAPPED);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));

  add_columns (self);
  fill_kinds (self);

  vadj = gtk_scrolled_window_get_vadjustment (self->scroller);
  g_signal_connect_object (vadj, "value-changed", G_CALLBACK (on_value_changed), self, 0);
  g_signal_connect_object (vadj, "changed", G_CALLBACK (on_adjustment_changed), self, 0);
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
 * Lets go of the recorder, shows no events and follows the tail again.
 */
void
sluice_event_log_clear (SluiceEventLog *self)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));

  sluice_event_list_set_recorder (self->events, NULL);
  sluice_event_list_set_tail (self->events, 0);
  g_clear_handle_id (&self->update_tail_id, g_source_remove);
  cancel_scroll (self);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  set_marked_time (self, -1);
  self->following = TRUE;
  self->last_value = 0;
  self->last_below = 0;
  self->last_move = 0;
}

/**
 * sluice_event_log_set_recorder:
 * @self: a #SluiceEventLog
 * @recorder: (nullable): the recorder of the run to show
 *
 * Shows the events of @recorder from the next sluice_event_log_update()
 * on, and follows the tail again.
 */
void
sluice_event_log_set_recorder (SluiceEventLog *self,
                               SluiceRecorder *recorder)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));
  g_return_if_fail (recorder == NULL || SLUICE_IS_RECORDER (recorder));

  sluice_event_log_clear (self);
  sluice_event_list_set_recorder (self->events, recorder);
}

/**
 * sluice_event_log_update:
 * @self: a #SluiceEventLog
 * @live: whether the run goes on
 *
 * Shows the events recorded since the last update, in one change. Call it
 * once per frame while the run goes on, and once with @live %FALSE at its
 * end: while the log follows the tail of a live run, it moves at most five
 * times a second (a run that records fewer events shows each as it comes).
 * While it follows, during the run and after, it lists only the rows it
 * shows and a few more; once the user scrolls up, selects a row or moves
 * the playhead, it lists them all.
 */
void
sluice_event_log_update (SluiceEventLog *self,
                         gboolean        live)
{
  gint64 now = g_get_monotonic_time ();

  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));

  if (live && self->following && now - self->last_move < FOLLOW_INTERVAL_US)
    return;

  sluice_event_list_set_tail (self->events, self->following ? tail_rows (self) : 0);
  if (!sluice_event_list_update (self->events))
    return;

  self->last_move = now;
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
  return sluice_event_list_get_n_events (self->events);
}

/**
 * sluice_event_log_select_row:
 * @self: a #SluiceEventLog
 * @row: a row, from 0, among those that pass the filters
 *
 * Selects @row, as a click on it does, which marks its event's time.
 */
void
sluice_event_log_select_row (SluiceEventLog *self,
                             guint           row)
{
  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));
  g_return_if_fail (row < sluice_event_list_get_n_rows (self->events));

  /* A click lists every row again: the row is one of all of them. */
  sluice_event_list_set_tail (self->events, 0);
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), row, TRUE);
}

/**
 * sluice_event_log_show_position:
 * @self: a #SluiceEventLog
 * @position: how many of the run's events have happened at the moment shown
 *
 * Selects and scrolls to the row of the newest event before @position
 * that passes the filters (the playhead's), without marking its time:
 * the playhead is already there, between it and the next event.
 */
void
sluice_event_log_show_position (SluiceEventLog *self,
                                guint64         position)
{
  guint row;

  g_return_if_fail (SLUICE_IS_EVENT_LOG (self));

  sluice_event_list_set_tail (self->events, 0);
  row = sluice_event_list_find_row (self->events, position);
  self->showing = TRUE;
  gtk_single_selection_set_selected (self->selection, row);
  self->showing = FALSE;
  if (row != GTK_INVALID_LIST_POSITION)
    {
      self->following = FALSE;
      show_row (self, row);
    }
  else
    cancel_scroll (self);
}

/**
 * sluice_event_log_get_marked_time:
 * @self: a #SluiceEventLog
 *
 * Returns: the clock time of the event whose row was clicked last, in µs,
 *   or -1
 */
gint64
sluice_event_log_get_marked_time (SluiceEventLog *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_LOG (self), -1);
  return self->marked_time;
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
  return sluice_event_list_get_n_rows (self->events);
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
