/* sluice-event-list.c: the recorder's events as a list model, rows made on demand
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <gtk/gtk.h>
#include <string.h>

#include "sluice-event-item.h"
#include "sluice-event-list.h"

/**
 * SluiceEventList:
 *
 * A #GListModel of #SluiceEventItem over the events a #SluiceRecorder
 * holds, oldest first, optionally filtered by kind and by text. The
 * recorder stays the one store of events: an item is made when a view
 * asks for it (the rows on screen), so a run of hundreds of thousands of
 * events costs the list nothing per event. sluice_event_list_update(),
 * once per frame, tells the views what the recorder gained (and, for a
 * bounded recorder, lost at its old end) since the last one, in one change
 * each.
 *
 * Filtered, it keeps the positions of the matching events; the text filter
 * searches sluice_event_dup_search_text(), kept once made.
 *
 * With a tail (sluice_event_list_set_tail()) it lists only the newest rows
 * of those: a view keeps a widget for every row it lists, up to a couple
 * of hundred (GtkListView's own limit), and binds each anew when a fast
 * run moves its tail, so a log that follows a live run lists no more rows
 * than it shows. A move that replaces every row listed (a fast run) keeps
 * the rows' items and makes them hold the new events
 * (sluice_event_item_set()) without a change of the list: GTK 4.8's list
 * views destroy the widgets of the rows removed and make new ones for the
 * rows added, nine labels a row, five times a second (7–30 ms a move on a
 * loaded machine, the longest frames of a fast run); a view updates its
 * cells when an item's #SluiceEventItem:position changes.
 */

struct _SluiceEventList
{
  GObject          parent_instance;

  SluiceRecorder  *recorder;
  guint64          first;      /* run position of the oldest event listed */
  guint64          end;        /* run position after the newest event listed */

  gboolean         filtering;
  char            *needle;     /* lower-case, or NULL */
  gint             kind;       /* -1: every kind */
  GArray          *rows;       /* guint64 run positions of the matching events, when filtering */
  GPtrArray       *texts;      /* search texts of the events from first on, made lazily */
  guint            tail;       /* list only the newest this many rows; 0: all */
  guint            limit;      /* list no row from this one on (G_MAXUINT: none): while a
                                * change is told in two steps, the first step's rows */
  GPtrArray       *handed;     /* with a tail: the item handed out for each row listed
                                * (NULL: not asked for), valid while its length is that
                                * of the rows listed */
};

/* The rows listed, as run positions: @n of them from @first_position on,
 * none at or after @end. */
typedef struct {
  guint   n;
  guint64 first_position;  /* G_MAXUINT64 when n is 0 */
  guint64 end;
} Shown;

static void sluice_event_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceEventList, sluice_event_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, sluice_event_list_model_init))

/* ---- the rows and the tail ---------------------------------------------- */

/* The events that pass the filters, the tail aside. */
static guint
n_rows (SluiceEventList *self)
{
  return self->filtering ? self->rows->len : (guint) (self->end - self->first);
}

/* The rows listed, [*start, *stop) of those that pass the filters. */
static void
listed_range (SluiceEventList *self,
              guint           *start,
              guint           *stop)
{
  guint n = n_rows (self);

  *start = self->tail > 0 && n > self->tail ? n - self->tail : 0;
  *stop = MAX (*start, MIN (n, self->limit));
}

static guint
n_listed (SluiceEventList *self)
{
  guint start, stop;

  listed_range (self, &start, &stop);
  return stop - start;
}

/* The run position of row @i of those that pass the filters. */
static guint64
row_position (SluiceEventList *self,
              guint            i)
{
  return self->filtering ? g_array_index (self->rows, guint64, i) : self->first + i;
}

/* How many rows pass the filters before run position @position. */
static guint
rows_before (SluiceEventList *self,
             guint64          position)
{
  guint low = 0, high;

  if (!self->filtering)
    return (guint) (CLAMP (position, self->first, self->end) - self->first);

  /* The matching positions are in order. */
  high = self->rows->len;
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (g_array_index (self->rows, guint64, middle) < position)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

static Shown
get_shown (SluiceEventList *self)
{
  Shown shown = { 0, G_MAXUINT64, self->end };
  guint start, stop;

  listed_range (self, &start, &stop);
  shown.n = stop - start;
  if (shown.n > 0)
    shown.first_position = row_position (self, start);
  return shown;
}

static void
unref_item (gpointer item)
{
  if (item != NULL)
    g_object_unref (item);
}

/* Tells the views of a change of the rows listed, and keeps the items
 * handed out at their rows. */
static void
items_changed (SluiceEventList *self,
               guint            position,
               guint            removed,
               guint            added)
{
  guint now = n_listed (self);
  guint old = now - added + removed;

  if (self->tail > 0 && self->handed->len == old && position + removed <= old)
    {
      g_ptr_array_remove_range (self->handed, position, removed);
      g_ptr_array_set_size (self->handed, now);
      memmove (&self->handed->pdata[position + added], &self->handed->pdata[position],
               (old - removed - position) * sizeof (gpointer));
      memset (&self->handed->pdata[position], 0, added * sizeof (gpointer));
    }
  else
    {
      g_ptr_array_set_size (self->handed, 0);
      if (self->tail > 0)
        g_ptr_array_set_size (self->handed, now);
    }
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

/* Every row listed replaced by as many new ones: the items handed out
 * hold the new rows' events instead, and the list does not change.
 * Returns whether it could (a tail, its items known). */
static gboolean
repoint_items (SluiceEventList *self,
               const Shown     *before,
               guint            offset,
               guint            stop)
{
  static const SluiceEvent gone = { .item = -1, .worker = -1, .delay = -1, .tokens = -1,
                                    .deadline = -1, .item_timeout = -1 };

  if (self->tail == 0 || before->n == 0 || before->n != stop - offset || self->handed->len != before->n)
    return FALSE;

  for (guint i = 0; i < self->handed->len; i++)
    {
      SluiceEventItem *item = g_ptr_array_index (self->handed, i);
      guint64 position = row_position (self, offset + i);
      const SluiceEvent *event;

      if (item == NULL)
        continue;
      event = sluice_recorder_lookup (self->recorder, position);
      sluice_event_item_set (item, event != NULL ? event : &gone, position);
    }
  return TRUE;
}

/* Tells the views how the rows listed went from @before to now: the rows
 * listed both times keep their items (and a view its widgets for them);
 * those gone went at the start, new ones came before and after them. In
 * two steps, the model lists at each what the step says. */
static void
emit_changes (SluiceEventList *self,
              const Shown     *before)
{
  guint offset, stop, low, high, kept, inserted, appended;

  listed_range (self, &offset, &stop);
  low = MAX (rows_before (self, before->first_position), offset);
  high = rows_before (self, before->end);
  kept = high > low ? high - low : 0;

  if (kept == 0)
    {
      if (repoint_items (self, before, offset, stop))
        return;
      if (before->n > 0 || stop > offset)
        items_changed (self, 0, before->n, stop - offset);
      return;
    }

  inserted = low - offset;
  appended = stop - high;
  if (before->n > kept || inserted > 0)
    {
      /* First the old rows only: the new ones come in the second step. */
      self->limit = high;
      items_changed (self, 0, before->n - kept, inserted);
      self->limit = G_MAXUINT;
    }
  if (appended > 0)
    items_changed (self, inserted + kept, 0, appended);
}

/* ---- GListModel -------------------------------------------------------- */

static GType
sluice_event_list_get_item_type (GListModel *model)
{
  return SLUICE_TYPE_EVENT_ITEM;
}

static guint
sluice_event_list_get_n_items (GListModel *model)
{
  return n_listed (SLUICE_EVENT_LIST (model));
}

static gpointer
sluice_event_list_get_item (GListModel *model,
                            guint       i)
{
  SluiceEventList *self = SLUICE_EVENT_LIST (model);
  static const SluiceEvent gone = { .item = -1, .worker = -1, .delay = -1, .tokens = -1,
                                    .deadline = -1, .item_timeout = -1 };
  const SluiceEvent *event;
  SluiceEventItem *item;
  guint64 position;
  guint start, stop;

  listed_range (self, &start, &stop);
  if (i >= stop - start)
    return NULL;

  if (self->tail > 0 && self->handed->len == stop - start && g_ptr_array_index (self->handed, i) != NULL)
    return g_object_ref (g_ptr_array_index (self->handed, i));

  position = row_position (self, start + i);
  event = sluice_recorder_lookup (self->recorder, position);

  /* Dropped by the ring buffer between two updates: a blank row until the
   * next update removes it. */
  item = sluice_event_item_new (event != NULL ? event : &gone, position);
  if (self->tail > 0 && self->handed->len == stop - start)
    g_ptr_array_index (self->handed, i) = g_object_ref (item);
  return item;
}

static void
sluice_event_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = sluice_event_list_get_item_type;
  iface->get_n_items = sluice_event_list_get_n_items;
  iface->get_item = sluice_event_list_get_item;
}

/* ---- filtering --------------------------------------------------------- */

static const char *
search_text (SluiceEventList   *self,
             guint64            position,
             const SluiceEvent *event)
{
  guint64 i = position - self->first;

  if (i >= self->texts->len)
    g_ptr_array_set_size (self->texts, (guint) i + 1);
  if (g_ptr_array_index (self->texts, i) == NULL)
    g_ptr_array_index (self->texts, i) = sluice_event_dup_search_text (event);

  return g_ptr_array_index (self->texts, i);
}

static gboolean
matches (SluiceEventList *self,
         guint64          position)
{
  const SluiceEvent *event = sluice_recorder_lookup (self->recorder, position);

  if (event == NULL)
    return FALSE;
  if (self->kind >= 0 && (gint) event->kind != self->kind)
    return FALSE;

  return self->needle == NULL || strstr (search_text (self, position, event), self->needle) != NULL;
}

/* Appends the matching events of [from, to) to the rows. */
static void
filter_range (SluiceEventList *self,
              guint64          from,
              guint64          to)
{
  for (guint64 p = from; p < to; p++)
    if (matches (self, p))
      g_array_append_val (self->rows, p);
}

/* ---- following the recorder -------------------------------------------- */

/* Forgets what the recorder no longer holds, from the old end: rows and
 * texts before @first. */
static void
drop_before (SluiceEventList *self,
             guint64          first)
{
  if (first <= self->first)
    return;

  if (self->filtering)
    g_array_remove_range (self->rows, 0, rows_before (self, first));

  g_ptr_array_remove_range (self->texts, 0, (guint) MIN (first - self->first, self->texts->len));

  self->first = first;
  self->end = MAX (self->end, first);
}

static void
remove_all (SluiceEventList *self)
{
  guint n = n_listed (self);

  g_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->texts, 0);
  self->first = 0;
  self->end = 0;
  if (n > 0)
    items_changed (self, 0, n, 0);
}

/**
 * sluice_event_list_update:
 * @self: a #SluiceEventList
 *
 * Lists the events recorded since the last update, and forgets those a
 * bounded recorder dropped (and, with a tail, the rows that no longer fit
 * it); at most two changes. Once per frame.
 *
 * Returns: whether rows were added
 */
gboolean
sluice_event_list_update (SluiceEventList *self)
{
  guint64 first, total;
  guint before;
  Shown shown;

  g_return_val_if_fail (SLUICE_IS_EVENT_LIST (self), FALSE);

  if (self->recorder == NULL)
    return FALSE;

  first = sluice_recorder_get_first_position (self->recorder);
  total = sluice_recorder_get_end_position (self->recorder);

  /* The recorder was cleared: start again. */
  if (total < self->end)
    remove_all (self);
  if (self->end == 0)
    self->first = self->end = first;
  if (total == self->end && first <= self->first)
    return FALSE;

  shown = get_shown (self);
  drop_before (self, first);
  before = n_rows (self);
  if (self->filtering)
    filter_range (self, self->end, total);
  self->end = MAX (self->end, total);

  emit_changes (self, &shown);
  return n_rows (self) > before;
}

/**
 * sluice_event_list_set_recorder:
 * @self: a #SluiceEventList
 * @recorder: (nullable): the recorder to list, or %NULL for none
 *
 * Lists the events of @recorder, as far as sluice_event_list_update() has
 * seen them: none yet.
 */
void
sluice_event_list_set_recorder (SluiceEventList *self,
                                SluiceRecorder  *recorder)
{
  g_return_if_fail (SLUICE_IS_EVENT_LIST (self));
  g_return_if_fail (recorder == NULL || SLUICE_IS_RECORDER (recorder));

  remove_all (self);
  g_set_object (&self->recorder, recorder);
}

/**
 * sluice_event_list_set_filter:
 * @self: a #SluiceEventList
 * @needle: (nullable): lower-case text the rows must contain, or %NULL
 * @kind: a #SluiceEventKind, or -1 for every kind
 *
 * Lists only the events that match both filters.
 */
void
sluice_event_list_set_filter (SluiceEventList *self,
                              const char      *needle,
                              gint             kind)
{
  guint before;

  g_return_if_fail (SLUICE_IS_EVENT_LIST (self));
  g_return_if_fail (kind >= -1 && kind < SLUICE_EVENT_N_KINDS);

  before = n_listed (self);

  g_free (self->needle);
  self->needle = needle != NULL && *needle != '\0' ? g_strdup (needle) : NULL;
  self->kind = kind;
  self->filtering = self->needle != NULL || self->kind >= 0;

  g_array_set_size (self->rows, 0);
  if (self->filtering && self->recorder != NULL)
    filter_range (self, self->first, self->end);

  if (before > 0 || n_listed (self) > 0)
    items_changed (self, 0, before, n_listed (self));
}

/**
 * sluice_event_list_set_tail:
 * @self: a #SluiceEventList
 * @rows: how many of the newest rows to list, or 0 for all
 *
 * Lists only the newest @rows of the events that pass the filters: a log
 * that follows a live run lists about the rows it shows, and binds no
 * more when the run moves its tail. The rows listed both before and after
 * keep their items.
 */
void
sluice_event_list_set_tail (SluiceEventList *self,
                            guint            rows)
{
  Shown shown;

  g_return_if_fail (SLUICE_IS_EVENT_LIST (self));

  if (self->tail == rows)
    return;

  shown = get_shown (self);
  self->tail = rows;
  emit_changes (self, &shown);
}

/**
 * sluice_event_list_get_tail:
 * @self: a #SluiceEventList
 *
 * Returns: how many of the newest rows are listed, or 0 for all
 */
guint
sluice_event_list_get_tail (SluiceEventList *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_LIST (self), 0);
  return self->tail;
}

/**
 * sluice_event_list_get_n_rows:
 * @self: a #SluiceEventList
 *
 * Returns: how many events pass the filters, listed or not (the tail)
 */
guint
sluice_event_list_get_n_rows (SluiceEventList *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_LIST (self), 0);
  return n_rows (self);
}

/**
 * sluice_event_list_find_row:
 * @self: a #SluiceEventList
 * @position: a run position
 *
 * Returns: the row, among all that pass the filters (the tail aside), of
 *   the newest event before @position, or %GTK_INVALID_LIST_POSITION if
 *   there is none
 */
guint
sluice_event_list_find_row (SluiceEventList *self,
                            guint64          position)
{
  guint before;

  g_return_val_if_fail (SLUICE_IS_EVENT_LIST (self), GTK_INVALID_LIST_POSITION);

  /* The rows before @position, less one. */
  before = rows_before (self, position);
  return before > 0 ? before - 1 : GTK_INVALID_LIST_POSITION;
}

/**
 * sluice_event_list_get_n_events:
 * @self: a #SluiceEventList
 *
 * Returns: how many events are listed before the filters
 */
guint
sluice_event_list_get_n_events (SluiceEventList *self)
{
  g_return_val_if_fail (SLUICE_IS_EVENT_LIST (self), 0);
  return (guint) (self->end - self->first);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_event_list_finalize (GObject *object)
{
  SluiceEventList *self = SLUICE_EVENT_LIST (object);

  g_clear_object (&self->recorder);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->texts, g_ptr_array_unref);
  g_clear_pointer (&self->handed, g_ptr_array_unref);
  g_free (self->needle);

  G_OBJECT_CLASS (sluice_event_list_parent_class)->finalize (object);
}

static void
sluice_event_list_class_init (SluiceEventListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_event_list_finalize;
}

static void
sluice_event_list_init (SluiceEventList *self)
{
  self->kind = -1;
  self->limit = G_MAXUINT;
  self->rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->texts = g_ptr_array_new_with_free_func (g_free);
  self->handed = g_ptr_array_new_with_free_func (unref_item);
}

/**
 * sluice_event_list_new:
 *
 * Returns: (transfer full): an empty list, without a recorder
 */
SluiceEventList *
sluice_event_list_new (void)
{
  return g_object_new (SLUICE_TYPE_EVENT_LIST, NULL);
}
