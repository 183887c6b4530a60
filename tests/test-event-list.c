/* test-event-list.c: the event log's and the results' list models, without a display
 *
 * SluiceEventList lists a recorder's events and makes an item only when
 * asked; SluiceResultList writes a result's line only when asked. Both
 * must list what the views listed when they kept a copy of everything.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gtk/gtk.h>

#include "sluice-event-item.h"
#include "sluice-event-list.h"
#include "sluice-result-list.h"

typedef struct {
  guint n_changes;
  guint position, removed, added;  /* the last change */
  guint n_items;                   /* as the changes told it */
} Changes;

/* Each change is told with the model listing what it says: a view asks
 * for the count and the items while it is told. */
static void
on_items_changed (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Changes    *changes)
{
  g_assert_cmpuint (position + removed, <=, changes->n_items);
  changes->n_items = changes->n_items - removed + added;
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, changes->n_items);
  if (changes->n_items > 0)
    {
      g_autoptr(GObject) last = g_list_model_get_item (model, changes->n_items - 1);

      g_assert_nonnull (last);
    }
  changes->n_changes++;
  changes->position = position;
  changes->removed = removed;
  changes->added = added;
}

static void
add_event (SluiceRecorder  *recorder,
           SluiceEventKind  kind,
           gint64           item,
           const char      *error_type)
{
  SluiceEvent event = {
    .kind = kind, .time = 1000 * item, .item = item, .attempt = item >= 0 ? 1 : 0, .worker = item >= 0 ? 0 : -1,
    .error_type = error_type, .delay = -1, .tokens = -1,
  };

  sluice_recorder_add (recorder, &event);
}

/* The run position and the kind of item @i. */
static void
assert_item (GListModel      *model,
             guint            i,
             guint64          position,
             SluiceEventKind  kind)
{
  g_autoptr(SluiceEventItem) item = g_list_model_get_item (model, i);

  g_assert_nonnull (item);
  g_assert_cmpuint (sluice_event_item_get_position (item), ==, position);
  g_assert_cmpint (sluice_event_item_get_event (item)->kind, ==, kind);
}

static void
test_event_list_follows (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceEventList) list = sluice_event_list_new ();
  GListModel *model = G_LIST_MODEL (list);
  Changes changes = { 0 };

  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), &changes);
  g_assert_true (g_list_model_get_item_type (model) == SLUICE_TYPE_EVENT_ITEM);

  sluice_event_list_set_recorder (list, recorder);
  add_event (recorder, SLUICE_EVENT_RUN_START, -1, NULL);
  for (gint64 i = 0; i < 3; i++)
    add_event (recorder, SLUICE_EVENT_ATTEMPT_START, i, NULL);

  /* Nothing shows before the update, then everything in one change. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_true (sluice_event_list_update (list));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  g_assert_cmpuint (sluice_event_list_get_n_events (list), ==, 4);
  g_assert_cmpuint (changes.n_changes, ==, 1);
  g_assert_cmpuint (changes.position, ==, 0);
  g_assert_cmpuint (changes.added, ==, 4);
  assert_item (model, 0, 0, SLUICE_EVENT_RUN_START);
  assert_item (model, 3, 3, SLUICE_EVENT_ATTEMPT_START);
  g_assert_null (g_list_model_get_item (model, 4));

  /* Nothing new: no change. */
  g_assert_false (sluice_event_list_update (list));
  g_assert_cmpuint (changes.n_changes, ==, 1);

  add_event (recorder, SLUICE_EVENT_RUN_END, -1, NULL);
  g_assert_true (sluice_event_list_update (list));
  g_assert_cmpuint (changes.n_changes, ==, 2);
  g_assert_cmpuint (changes.position, ==, 4);
  g_assert_cmpuint (changes.removed, ==, 0);
  g_assert_cmpuint (changes.added, ==, 1);

  /* Without a recorder, nothing. */
  sluice_event_list_set_recorder (list, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_cmpuint (changes.removed, ==, 5);
  g_assert_false (sluice_event_list_update (list));
}

static void
test_event_list_filters (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceEventList) list = sluice_event_list_new ();
  GListModel *model = G_LIST_MODEL (list);

  sluice_event_list_set_recorder (list, recorder);
  add_event (recorder, SLUICE_EVENT_RUN_START, -1, NULL);
  add_event (recorder, SLUICE_EVENT_ATTEMPT_START, 0, NULL);
  add_event (recorder, SLUICE_EVENT_ATTEMPT_END, 0, "TimeoutError");
  add_event (recorder, SLUICE_EVENT_ATTEMPT_START, 1, NULL);
  sluice_event_list_update (list);

  sluice_event_list_set_filter (list, NULL, SLUICE_EVENT_ATTEMPT_START);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  g_assert_cmpuint (sluice_event_list_get_n_events (list), ==, 4);
  assert_item (model, 1, 3, SLUICE_EVENT_ATTEMPT_START);

  /* New events are filtered as they come. */
  add_event (recorder, SLUICE_EVENT_ATTEMPT_START, 2, NULL);
  add_event (recorder, SLUICE_EVENT_ATTEMPT_END, 2, NULL);
  g_assert_true (sluice_event_list_update (list));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  assert_item (model, 2, 4, SLUICE_EVENT_ATTEMPT_START);
  /* Only events that do not match: no rows added. */
  add_event (recorder, SLUICE_EVENT_RUN_END, -1, NULL);
  g_assert_false (sluice_event_list_update (list));

  /* The text filter searches the detail and the stable names, lower-case. */
  sluice_event_list_set_filter (list, "timeouterror", -1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_item (model, 0, 2, SLUICE_EVENT_ATTEMPT_END);
  sluice_event_list_set_filter (list, "attempt-start", -1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  sluice_event_list_set_filter (list, "item 2", SLUICE_EVENT_ATTEMPT_END);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_item (model, 0, 5, SLUICE_EVENT_ATTEMPT_END);

  sluice_event_list_set_filter (list, "", -1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 7);
}

/* A bounded recorder drops its oldest events: the list forgets them too,
 * and keeps the run positions of the others. */
static void
test_event_list_ring_buffer (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);
  g_autoptr(SluiceEventList) list = sluice_event_list_new ();
  GListModel *model = G_LIST_MODEL (list);
  Changes changes = { 0 };

  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), &changes);
  sluice_event_list_set_recorder (list, recorder);
  for (gint64 i = 0; i < 3; i++)
    add_event (recorder, i % 2 ? SLUICE_EVENT_ATTEMPT_END : SLUICE_EVENT_ATTEMPT_START, i, NULL);
  sluice_event_list_update (list);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);

  for (gint64 i = 3; i < 6; i++)
    add_event (recorder, i % 2 ? SLUICE_EVENT_ATTEMPT_END : SLUICE_EVENT_ATTEMPT_START, i, NULL);
  g_assert_cmpuint (sluice_recorder_get_n_dropped (recorder), ==, 2);

  /* Between two updates an item the recorder dropped is a blank row. */
  {
    g_autoptr(SluiceEventItem) gone = g_list_model_get_item (model, 0);

    g_assert_cmpuint (sluice_event_item_get_position (gone), ==, 0);
    g_assert_cmpint (sluice_event_item_get_event (gone)->item, ==, -1);
  }

  changes.n_changes = 0;
  g_assert_true (sluice_event_list_update (list));
  g_assert_cmpuint (changes.n_changes, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 4);
  assert_item (model, 0, 2, SLUICE_EVENT_ATTEMPT_START);
  assert_item (model, 3, 5, SLUICE_EVENT_ATTEMPT_END);

  /* Filtered, the same. */
  sluice_event_list_set_filter (list, NULL, SLUICE_EVENT_ATTEMPT_END);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  for (gint64 i = 6; i < 9; i++)
    add_event (recorder, i % 2 ? SLUICE_EVENT_ATTEMPT_END : SLUICE_EVENT_ATTEMPT_START, i, NULL);
  sluice_event_list_update (list);
  g_assert_cmpuint (sluice_event_list_get_n_events (list), ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_item (model, 0, 5, SLUICE_EVENT_ATTEMPT_END);
  assert_item (model, 1, 7, SLUICE_EVENT_ATTEMPT_END);

  /* A cleared recorder starts the list again. */
  sluice_recorder_clear (recorder);
  add_event (recorder, SLUICE_EVENT_ATTEMPT_END, 0, NULL);
  sluice_event_list_update (list);
  g_assert_cmpuint (sluice_event_list_get_n_events (list), ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  assert_item (model, 0, 0, SLUICE_EVENT_ATTEMPT_END);
}

/* A log that follows a live run lists only the newest rows, which keep
 * their items while the tail moves (a view its widgets); the rows above
 * the tail come back when it goes, the rows of the tail keep their place. */
static void
count_notify (guint *count)
{
  (*count)++;
}

static void
test_event_list_tail_lists_only_the_newest_rows (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceEventList) list = sluice_event_list_new ();
  g_autoptr(SluiceEventItem) first = NULL;
  g_autoptr(SluiceEventItem) again = NULL;
  GListModel *model = G_LIST_MODEL (list);
  Changes changes = { 0 };
  guint notified = 0;

  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), &changes);
  sluice_event_list_set_recorder (list, recorder);
  for (gint64 i = 0; i < 10; i++)
    add_event (recorder, SLUICE_EVENT_ATTEMPT_START, i, NULL);
  sluice_event_list_update (list);

  /* The newest three of ten: one change, the seven above go. */
  sluice_event_list_set_tail (list, 3);
  g_assert_cmpuint (sluice_event_list_get_tail (list), ==, 3);
  g_assert_cmpuint (changes.n_changes, ==, 2);
  g_assert_cmpuint (changes.position, ==, 0);
  g_assert_cmpuint (changes.removed, ==, 7);
  g_assert_cmpuint (changes.added, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  g_assert_cmpuint (sluice_event_list_get_n_rows (list), ==, 10);
  g_assert_cmpuint (sluice_event_list_get_n_events (list), ==, 10);
  assert_item (model, 0, 7, SLUICE_EVENT_ATTEMPT_START);
  assert_item (model, 2, 9, SLUICE_EVENT_ATTEMPT_START);
  g_assert_null (g_list_model_get_item (model, 3));

  /* Two new events: the two oldest rows go at the top, the newest stays
   * as it was, the new ones come after it. */
  add_event (recorder, SLUICE_EVENT_ATTEMPT_END, 10, NULL);
  add_event (recorder, SLUICE_EVENT_ATTEMPT_END, 11, NULL);
  changes.n_changes = 0;
  g_assert_true (sluice_event_list_update (list));
  g_assert_cmpuint (changes.n_changes, ==, 2);
  g_assert_cmpuint (changes.position, ==, 1);
  g_assert_cmpuint (changes.removed, ==, 0);
  g_assert_cmpuint (changes.added, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  assert_item (model, 0, 9, SLUICE_EVENT_ATTEMPT_START);
  assert_item (model, 1, 10, SLUICE_EVENT_ATTEMPT_END);
  assert_item (model, 2, 11, SLUICE_EVENT_ATTEMPT_END);

  /* More new events than the tail holds: every row replaced at once. The
   * rows keep their items, which hold the newest events instead, so that a
   * view keeps its row widgets (GTK 4.8's make new ones for new items, nine
   * labels a row, five times a second in a fast run): no change of the
   * list, each item tells its new position. */
  first = g_list_model_get_item (model, 0);
  g_signal_connect_swapped (first, "notify::position", G_CALLBACK (count_notify), &notified);
  for (gint64 i = 12; i < 20; i++)
    add_event (recorder, SLUICE_EVENT_ATTEMPT_START, i, NULL);
  changes.n_changes = 0;
  g_assert_true (sluice_event_list_update (list));
  g_assert_cmpuint (changes.n_changes, ==, 0);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  again = g_list_model_get_item (model, 0);
  g_assert_true (again == first);
  assert_item (model, 0, 17, SLUICE_EVENT_ATTEMPT_START);
  assert_item (model, 1, 18, SLUICE_EVENT_ATTEMPT_START);
  assert_item (model, 2, 19, SLUICE_EVENT_ATTEMPT_START);

  /* Filtered, the tail is the newest rows that match. */
  sluice_event_list_set_filter (list, NULL, SLUICE_EVENT_ATTEMPT_END);
  g_assert_cmpuint (sluice_event_list_get_n_rows (list), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  assert_item (model, 0, 10, SLUICE_EVENT_ATTEMPT_END);
  sluice_event_list_set_filter (list, NULL, SLUICE_EVENT_ATTEMPT_START);
  g_assert_cmpuint (sluice_event_list_get_n_rows (list), ==, 18);
  assert_item (model, 0, 17, SLUICE_EVENT_ATTEMPT_START);
  /* Rows are found among all that match, the tail aside. */
  g_assert_cmpuint (sluice_event_list_find_row (list, 18), ==, 15);

  /* Without the tail, every row: those above come before the tail's. */
  changes.n_changes = 0;
  sluice_event_list_set_tail (list, 0);
  g_assert_cmpuint (changes.n_changes, ==, 1);
  g_assert_cmpuint (changes.position, ==, 0);
  g_assert_cmpuint (changes.removed, ==, 0);
  g_assert_cmpuint (changes.added, ==, 15);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 18);
  assert_item (model, 0, 0, SLUICE_EVENT_ATTEMPT_START);
  assert_item (model, 17, 19, SLUICE_EVENT_ATTEMPT_START);
}

static void
assert_line (GListModel *model,
             guint       i,
             const char *line)
{
  g_autoptr(GtkStringObject) object = g_list_model_get_item (model, i);

  g_assert_nonnull (object);
  g_assert_cmpstr (gtk_string_object_get_string (object), ==, line);
}

static SluiceRunModel *
model_of (SluiceRecorder *recorder)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "first-look.pool", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_file (path, NULL, &error);
  SluiceRunModel *model;

  g_assert_no_error (error);
  model = sluice_run_model_new (scenario, recorder);
  sluice_run_model_update (model, 0);
  return model;
}

/* The results list shows its run model's results as numbered lines, in
 * one change, and another model's at once. */
static void
test_result_list (void)
{
  g_autoptr(SluiceResultList) list = sluice_result_list_new ();
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (16);
  g_autoptr(SluiceRecorder) empty = sluice_recorder_new (16);
  g_autoptr(SluiceRunModel) run = NULL;
  g_autoptr(SluiceRunModel) next = NULL;
  g_autoptr(GVariant) number = g_variant_ref_sink (g_variant_new_int64 (25));
  g_autoptr(GVariant) text = g_variant_ref_sink (g_variant_new_string ("done"));
  SluiceEvent result = { .kind = SLUICE_EVENT_RESULT, .time = 1500000, .item = -1, .worker = -1 };
  GListModel *model = G_LIST_MODEL (list);
  Changes changes = { 0 };

  g_signal_connect (list, "items-changed", G_CALLBACK (on_items_changed), &changes);
  g_assert_true (g_list_model_get_item_type (model) == GTK_TYPE_STRING_OBJECT);

  result.value = number;
  sluice_recorder_add (recorder, &result);
  result.value = text;
  result.time = 2000000;
  sluice_recorder_add (recorder, &result);
  result.value = NULL;
  sluice_recorder_add (recorder, &result);
  run = model_of (recorder);

  /* Shown in one change, numbered in the order they came. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  sluice_result_list_set_model (list, run);
  g_assert_cmpuint (changes.n_changes, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  assert_line (model, 0, "1.  25  at 1.500 s");
  assert_line (model, 1, "2.  'done'  at 2.000 s");
  assert_line (model, 2, "3.  ()  at 2.000 s");
  g_assert_null (g_list_model_get_item (model, 3));
  sluice_result_list_sync (list);
  g_assert_cmpuint (changes.n_changes, ==, 1);

  /* Another run's model: the last one's results are gone. */
  next = model_of (empty);
  sluice_result_list_set_model (list, next);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 0);
  g_assert_cmpuint (changes.removed, ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/event-list/follows", test_event_list_follows);
  g_test_add_func ("/event-list/filters", test_event_list_filters);
  g_test_add_func ("/event-list/ring-buffer", test_event_list_ring_buffer);
  g_test_add_func ("/event-list/tail-lists-only-the-newest-rows", test_event_list_tail_lists_only_the_newest_rows);
  g_test_add_func ("/result-list/lines", test_result_list);

  return g_test_run ();
}
