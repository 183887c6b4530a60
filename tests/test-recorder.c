/* test-recorder.c: the recorder's positions and its cursor over a bounded ring
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-recorder.h"

/* Adds events whose item is @from, @from + 1, … so that a test can tell
 * which one it read. */
static void
add_items (SluiceRecorder *recorder,
           gint64          from,
           guint           n)
{
  for (guint i = 0; i < n; i++)
    {
      SluiceEvent event = { .kind = SLUICE_EVENT_ITEM_OK, .time = from + i, .item = from + i,
                            .worker = -1, .delay = -1, .tokens = -1, .deadline = -1,
                            .item_timeout = -1 };

      sluice_recorder_add (recorder, &event);
    }
}

/* Positions are sequence numbers: the ring dropping its oldest events does
 * not renumber those it holds. */
static void
test_positions_keep_counting_when_the_ring_drops (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);

  g_assert_cmpuint (sluice_recorder_get_first_position (recorder), ==, 0);
  g_assert_cmpuint (sluice_recorder_get_end_position (recorder), ==, 0);

  add_items (recorder, 0, 3);
  g_assert_cmpuint (sluice_recorder_get_first_position (recorder), ==, 0);
  g_assert_cmpuint (sluice_recorder_get_end_position (recorder), ==, 3);
  for (guint64 p = 0; p < 3; p++)
    g_assert_cmpint (sluice_recorder_lookup (recorder, p)->item, ==, (gint64) p);

  add_items (recorder, 3, 7);
  g_assert_cmpuint (sluice_recorder_get_n_events (recorder), ==, 4);
  g_assert_cmpuint (sluice_recorder_get_first_position (recorder), ==, 6);
  g_assert_cmpuint (sluice_recorder_get_first_position (recorder), ==,
                    sluice_recorder_get_n_dropped (recorder));
  g_assert_cmpuint (sluice_recorder_get_end_position (recorder), ==, 10);
  for (guint64 p = 6; p < 10; p++)
    g_assert_cmpint (sluice_recorder_lookup (recorder, p)->item, ==, (gint64) p);
}

/* A position the ring dropped, or one not recorded yet, has no event. */
static void
test_lookup_of_a_dropped_position_is_null (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);

  g_assert_null (sluice_recorder_lookup (recorder, 0));
  add_items (recorder, 0, 10);
  for (guint64 p = 0; p < 6; p++)
    g_assert_null (sluice_recorder_lookup (recorder, p));
  g_assert_nonnull (sluice_recorder_lookup (recorder, 6));
  g_assert_nonnull (sluice_recorder_lookup (recorder, 9));
  g_assert_null (sluice_recorder_lookup (recorder, 10));
  g_assert_null (sluice_recorder_lookup (recorder, G_MAXUINT64));
}

/* A cursor left behind by a full ring jumps to the oldest event held; the
 * cursor's move tells how many it lost. */
static void
test_next_jumps_over_dropped_events_and_tells_the_loss (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);
  const SluiceEvent *event;
  guint64 cursor = 0, before;

  add_items (recorder, 0, 2);
  event = sluice_recorder_next (recorder, &cursor);
  g_assert_cmpint (event->item, ==, 0);
  g_assert_cmpuint (cursor, ==, 1);

  /* Events 1 to 5 go while the cursor waits at 1. */
  add_items (recorder, 2, 8);
  before = cursor;
  event = sluice_recorder_next (recorder, &cursor);
  g_assert_nonnull (event);
  g_assert_cmpint (event->item, ==, 6);
  g_assert_true (event == sluice_recorder_lookup (recorder, cursor - 1));
  g_assert_cmpuint (cursor, ==, 7);
  g_assert_cmpuint (cursor - 1 - before, ==, 5);

  /* Then one step each, nothing lost. */
  for (gint64 item = 7; item < 10; item++)
    {
      before = cursor;
      event = sluice_recorder_next (recorder, &cursor);
      g_assert_cmpint (event->item, ==, item);
      g_assert_cmpuint (cursor, ==, before + 1);
    }
}

/* A cursor that has read everything gets NULL and stays put; it reads on
 * from there once the recorder gains events. */
static void
test_next_is_null_when_caught_up_and_resumes (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  guint64 cursor = 0;

  g_assert_null (sluice_recorder_next (recorder, &cursor));
  g_assert_cmpuint (cursor, ==, 0);

  add_items (recorder, 0, 3);
  for (gint64 item = 0; item < 3; item++)
    g_assert_cmpint (sluice_recorder_next (recorder, &cursor)->item, ==, item);
  g_assert_null (sluice_recorder_next (recorder, &cursor));
  g_assert_null (sluice_recorder_next (recorder, &cursor));
  g_assert_cmpuint (cursor, ==, 3);

  add_items (recorder, 3, 2);
  g_assert_cmpint (sluice_recorder_next (recorder, &cursor)->item, ==, 3);
  g_assert_cmpint (sluice_recorder_next (recorder, &cursor)->item, ==, 4);
  g_assert_null (sluice_recorder_next (recorder, &cursor));
  g_assert_cmpuint (cursor, ==, 5);
}

/* Cleared, a recorder numbers its events from 0 again; a cursor from
 * before the clear is past the end and reads nothing. */
static void
test_clear_starts_positions_at_zero_again (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);
  guint64 cursor = 0;

  add_items (recorder, 0, 10);
  while (sluice_recorder_next (recorder, &cursor) != NULL)
    ;
  g_assert_cmpuint (cursor, ==, 10);

  sluice_recorder_clear (recorder);
  g_assert_cmpuint (sluice_recorder_get_first_position (recorder), ==, 0);
  g_assert_cmpuint (sluice_recorder_get_end_position (recorder), ==, 0);
  g_assert_cmpuint (sluice_recorder_get_n_dropped (recorder), ==, 0);

  add_items (recorder, 100, 2);
  g_assert_cmpuint (sluice_recorder_get_first_position (recorder), ==, 0);
  g_assert_cmpuint (sluice_recorder_get_end_position (recorder), ==, 2);
  g_assert_cmpint (sluice_recorder_lookup (recorder, 0)->item, ==, 100);
  g_assert_cmpint (sluice_recorder_lookup (recorder, 1)->item, ==, 101);
  g_assert_null (sluice_recorder_lookup (recorder, 2));

  g_assert_null (sluice_recorder_next (recorder, &cursor));
  g_assert_cmpuint (cursor, ==, 10);
  cursor = 0;
  g_assert_cmpint (sluice_recorder_next (recorder, &cursor)->item, ==, 100);
}

/* Finding a time gives a position too: after the newest event at or
 * before it, counted from the run's first event. */
static void
test_find_time_gives_a_position (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);

  g_assert_cmpuint (sluice_recorder_find_time (recorder, 5), ==, 0);

  add_items (recorder, 0, 10);  /* times 6 to 9 held */
  g_assert_cmpuint (sluice_recorder_find_time (recorder, 0), ==, 6);
  g_assert_cmpuint (sluice_recorder_find_time (recorder, 6), ==, 7);
  g_assert_cmpuint (sluice_recorder_find_time (recorder, 8), ==, 9);
  g_assert_cmpuint (sluice_recorder_find_time (recorder, 9), ==, 10);
  g_assert_cmpuint (sluice_recorder_find_time (recorder, G_MAXINT64), ==, 10);
}

/* An event held stays where it is while more are recorded: the views read
 * a run's events by pointer while it grows (and the recorder no longer
 * moves every event it holds, twice over, as its storage doubles). Across
 * a ring's wrap too, positions map to the same events as before. */
static void
test_events_stay_put_while_the_recorder_grows (void)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceRecorder) ring = sluice_recorder_new (10000);
  const SluiceEvent *first, *middle;

  add_items (recorder, 0, 1);
  first = sluice_recorder_get_event (recorder, 0);
  add_items (recorder, 1, 4999);
  middle = sluice_recorder_get_event (recorder, 4999);
  add_items (recorder, 5000, 95000);

  g_assert_true (sluice_recorder_get_event (recorder, 0) == first);
  g_assert_true (sluice_recorder_get_event (recorder, 4999) == middle);
  g_assert_cmpint (first->item, ==, 0);
  g_assert_cmpint (middle->item, ==, 4999);
  for (guint i = 0; i < 100000; i += 997)
    g_assert_cmpint (sluice_recorder_get_event (recorder, i)->item, ==, (gint64) i);

  add_items (ring, 0, 25001);
  g_assert_cmpuint (sluice_recorder_get_n_events (ring), ==, 10000);
  g_assert_cmpuint (sluice_recorder_get_first_position (ring), ==, 15001);
  for (guint64 p = 15001; p < 25001; p++)
    g_assert_cmpint (sluice_recorder_lookup (ring, p)->item, ==, (gint64) p);
  g_assert_cmpint (sluice_recorder_get_event (ring, 0)->item, ==, 15001);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/recorder/positions-count-from-0-and-keep-counting-when-the-ring-drops",
                   test_positions_keep_counting_when_the_ring_drops);
  g_test_add_func ("/recorder/lookup-of-a-dropped-position-is-null",
                   test_lookup_of_a_dropped_position_is_null);
  g_test_add_func ("/recorder/next-on-a-full-ring-jumps-to-the-first-held-and-tells-the-loss",
                   test_next_jumps_over_dropped_events_and_tells_the_loss);
  g_test_add_func ("/recorder/next-is-null-when-caught-up-and-resumes-when-more-are-added",
                   test_next_is_null_when_caught_up_and_resumes);
  g_test_add_func ("/recorder/clear-starts-positions-at-0-again",
                   test_clear_starts_positions_at_zero_again);
  g_test_add_func ("/recorder/find-time-gives-a-position-counting-the-dropped",
                   test_find_time_gives_a_position);
  g_test_add_func ("/recorder/events-stay-put-while-the-recorder-grows",
                   test_events_stay_put_while_the_recorder_grows);

  return g_test_run ();
}
