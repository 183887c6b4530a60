/* test-channel.c: tests of SluiceChannel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-channel.h"
#include "sluice-error.h"

#define ITEM(n) GINT_TO_POINTER (n)

/* The outcome of one async operation. */
typedef struct
{
  gboolean  done;
  gboolean  ok;
  gpointer  item;
  GError   *error;
  guint     order;   /* when it completed, from completion_counter */
} Result;

static guint completion_counter;

static void
result_clear (Result *r)
{
  g_clear_error (&r->error);
  memset (r, 0, sizeof *r);
}

static void
put_cb (GObject      *source,
        GAsyncResult *res,
        gpointer      user_data)
{
  Result *r = user_data;

  g_assert_false (r->done);
  r->ok = sluice_channel_put_finish (SLUICE_CHANNEL (source), res, &r->error);
  r->order = completion_counter++;
  r->done = TRUE;
}

static void
get_cb (GObject      *source,
        GAsyncResult *res,
        gpointer      user_data)
{
  Result *r = user_data;

  g_assert_false (r->done);
  r->item = sluice_channel_get_finish (SLUICE_CHANNEL (source), res, &r->error);
  r->ok = r->item != NULL;
  r->order = completion_counter++;
  r->done = TRUE;
}

static void
join_cb (GObject      *source,
         GAsyncResult *res,
         gpointer      user_data)
{
  Result *r = user_data;

  g_assert_false (r->done);
  r->ok = sluice_channel_join_finish (SLUICE_CHANNEL (source), res, &r->error);
  r->order = completion_counter++;
  r->done = TRUE;
}

/* Iterates until @r is done, within a bound. */
static void
wait_for (Result *r)
{
  for (guint i = 0; i < 1000 && !r->done; i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (r->done);
}

/* Runs everything that is ready, so that an operation still pending
 * afterwards really is waiting. */
static void
spin (void)
{
  for (guint i = 0; i < 1000 && g_main_context_pending (NULL); i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (g_main_context_pending (NULL));
}

static void
put_and_wait (SluiceChannel *ch,
              gpointer       item)
{
  Result r = { 0 };

  sluice_channel_put_async (ch, item, NULL, put_cb, &r);
  wait_for (&r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
}

static gpointer
get_and_wait (SluiceChannel *ch)
{
  Result r = { 0 };

  sluice_channel_get_async (ch, NULL, get_cb, &r);
  wait_for (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (r.item);
  return r.item;
}

static void
assert_get_closed (SluiceChannel *ch)
{
  Result r = { 0 };

  sluice_channel_get_async (ch, NULL, get_cb, &r);
  wait_for (&r);
  g_assert_error (r.error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_assert_null (r.item);
  result_clear (&r);
}

static void
assert_put_closed (SluiceChannel *ch,
                   gpointer       item)
{
  Result r = { 0 };

  sluice_channel_put_async (ch, item, NULL, put_cb, &r);
  wait_for (&r);
  g_assert_error (r.error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_assert_false (r.ok);
  result_clear (&r);
}

/* Items that count how often they are freed. */
typedef struct
{
  guint id;
  guint *n_freed;
} Tracked;

static Tracked *
tracked_new (guint  id,
             guint *n_freed)
{
  Tracked *t = g_new0 (Tracked, 1);

  t->id = id;
  t->n_freed = n_freed;
  return t;
}

static void
tracked_free (gpointer data)
{
  Tracked *t = data;

  (*t->n_freed)++;
  g_free (t);
}

static void
test_fifo (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);

  g_assert_cmpuint (sluice_channel_get_capacity (ch), ==, 0);

  for (gint i = 1; i <= 5; i++)
    {
      put_and_wait (ch, ITEM (i));
      g_assert_cmpuint (sluice_channel_get_length (ch), ==, (guint) i);
    }

  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 5);

  for (gint i = 1; i <= 5; i++)
    {
      g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, i);
      g_assert_cmpuint (sluice_channel_get_length (ch), ==, (guint) (5 - i));
    }

  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);
}

static void
test_bounded_put_waits (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (2, NULL);
  Result put3 = { 0 };

  g_assert_cmpuint (sluice_channel_get_capacity (ch), ==, 2);

  put_and_wait (ch, ITEM (1));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  put_and_wait (ch, ITEM (2));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);

  sluice_channel_put_async (ch, ITEM (3), NULL, put_cb, &put3);
  spin ();
  g_assert_false (put3.done);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 1);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 2);

  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 1);
  /* The freed slot went to the waiting put at once. */
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);
  wait_for (&put3);
  g_assert_no_error (put3.error);
  g_assert_true (put3.ok);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 3);

  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 2);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 3);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
}

static void
test_getters_fifo (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  Result gets[3] = { { 0 } };

  completion_counter = 0;

  for (guint i = 0; i < 3; i++)
    sluice_channel_get_async (ch, NULL, get_cb, &gets[i]);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 3);

  for (gint i = 1; i <= 3; i++)
    {
      put_and_wait (ch, ITEM (i));
      /* Handed over, never stored. */
      g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
    }

  for (guint i = 0; i < 3; i++)
    {
      wait_for (&gets[i]);
      g_assert_no_error (gets[i].error);
      g_assert_cmpint (GPOINTER_TO_INT (gets[i].item), ==, (gint) i + 1);
    }
  g_assert_cmpuint (gets[0].order, <, gets[1].order);
  g_assert_cmpuint (gets[1].order, <, gets[2].order);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 3);
}

static void
test_putters_fifo (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (1, NULL);
  Result puts[3] = { { 0 } };

  completion_counter = 0;

  put_and_wait (ch, ITEM (1));
  for (guint i = 0; i < 3; i++)
    sluice_channel_put_async (ch, ITEM (i + 2), NULL, put_cb, &puts[i]);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 3);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);

  for (gint i = 1; i <= 4; i++)
    {
      g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, i);
      g_assert_cmpuint (sluice_channel_get_length (ch), <=, 1);
    }

  for (guint i = 0; i < 3; i++)
    {
      wait_for (&puts[i]);
      g_assert_no_error (puts[i].error);
      g_assert_true (puts[i].ok);
    }
  g_assert_cmpuint (puts[0].order, <, puts[1].order);
  g_assert_cmpuint (puts[1].order, <, puts[2].order);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);
}

static void
test_cancel_get (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result get1 = { 0 }, get2 = { 0 }, get3 = { 0 };

  sluice_channel_get_async (ch, cancellable, get_cb, &get1);
  sluice_channel_get_async (ch, NULL, get_cb, &get2);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 2);

  /* The put comes before the cancel source had a chance to run. */
  g_cancellable_cancel (cancellable);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 1);
  put_and_wait (ch, ITEM (1));

  wait_for (&get1);
  g_assert_error (get1.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (get1.item);
  wait_for (&get2);
  g_assert_no_error (get2.error);
  g_assert_cmpint (GPOINTER_TO_INT (get2.item), ==, 1);

  /* A cancelled lone getter: the next put is stored, not lost. */
  g_cancellable_reset (cancellable);
  sluice_channel_get_async (ch, cancellable, get_cb, &get3);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 1);
  g_cancellable_cancel (cancellable);
  wait_for (&get3);
  g_assert_error (get3.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);

  put_and_wait (ch, ITEM (2));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 2);

  result_clear (&get1);
  result_clear (&get3);
}

/* Workers share one cancellable: cancelling it ends every waiter that uses
 * it, and only those. */
static void
test_cancel_shared (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  g_autoptr(GCancellable) shared = g_cancellable_new ();
  g_autoptr(GCancellable) other = g_cancellable_new ();
  Result gets[3] = { 0 }, lone = { 0 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (gets); i++)
    sluice_channel_get_async (ch, shared, get_cb, &gets[i]);
  sluice_channel_get_async (ch, other, get_cb, &lone);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 4);

  g_cancellable_cancel (shared);
  for (i = 0; i < G_N_ELEMENTS (gets); i++)
    {
      wait_for (&gets[i]);
      g_assert_error (gets[i].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      result_clear (&gets[i]);
    }
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 1);

  put_and_wait (ch, ITEM (7));
  wait_for (&lone);
  g_assert_no_error (lone.error);
  g_assert_cmpint (GPOINTER_TO_INT (lone.item), ==, 7);
}

static void
test_cancel_put (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (1, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  Result put2 = { 0 }, put3 = { 0 };

  put_and_wait (ch, ITEM (1));
  sluice_channel_put_async (ch, ITEM (2), cancellable, put_cb, &put2);
  sluice_channel_put_async (ch, ITEM (3), NULL, put_cb, &put3);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 2);

  g_cancellable_cancel (cancellable);
  wait_for (&put2);
  g_assert_error (put2.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_false (put2.ok);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 1);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 1);

  /* Item 2 never entered the channel; item 3 takes the freed slot. */
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 1);
  wait_for (&put3);
  g_assert_no_error (put3.error);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 3);
  g_assert_null (sluice_channel_try_get (ch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 2);

  result_clear (&put2);
}

static void
test_cancel_already (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result get = { 0 }, put = { 0 }, join = { 0 };

  put_and_wait (ch, ITEM (1));
  g_cancellable_cancel (cancellable);

  sluice_channel_get_async (ch, cancellable, get_cb, &get);
  sluice_channel_put_async (ch, ITEM (2), cancellable, put_cb, &put);
  sluice_channel_join_async (ch, cancellable, join_cb, &join);
  wait_for (&get);
  wait_for (&put);
  wait_for (&join);
  g_assert_error (get.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_error (put.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_error (join.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  /* Neither took nor added anything. */
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 1);

  result_clear (&get);
  result_clear (&put);
  result_clear (&join);
}

static void
test_shutdown_empty (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);

  g_assert_false (sluice_channel_is_shutdown (ch));
  sluice_channel_shutdown (ch, FALSE);
  g_assert_true (sluice_channel_is_shutdown (ch));

  assert_get_closed (ch);
  assert_put_closed (ch, ITEM (1));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 0);
}

static void
test_shutdown_items_waiting (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);

  for (gint i = 1; i <= 3; i++)
    put_and_wait (ch, ITEM (i));

  sluice_channel_shutdown (ch, FALSE);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 3);
  assert_put_closed (ch, ITEM (4));

  for (gint i = 1; i <= 3; i++)
    g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, i);

  assert_get_closed (ch);
  assert_get_closed (ch);
}

static void
test_shutdown_blocked_putter (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (1, tracked_free);
  guint n_freed = 0;
  Tracked *first = tracked_new (1, &n_freed);
  Tracked *blocked = tracked_new (2, &n_freed);
  Tracked *got;
  Result put = { 0 };

  put_and_wait (ch, first);
  sluice_channel_put_async (ch, blocked, NULL, put_cb, &put);
  spin ();
  g_assert_false (put.done);

  sluice_channel_shutdown (ch, FALSE);
  wait_for (&put);
  g_assert_error (put.error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_assert_false (put.ok);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 1);

  /* The channel did not free it: the caller still owns it. */
  g_assert_cmpuint (n_freed, ==, 0);
  g_assert_cmpuint (blocked->id, ==, 2);
  tracked_free (blocked);

  got = get_and_wait (ch);
  g_assert_true (got == first);
  tracked_free (got);
  assert_get_closed (ch);
  g_assert_cmpuint (n_freed, ==, 2);

  result_clear (&put);
}

static void
test_shutdown_immediate (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, tracked_free);
  guint n_freed = 0;
  Tracked *got;
  Result join = { 0 };

  for (guint i = 1; i <= 4; i++)
    put_and_wait (ch, tracked_new (i, &n_freed));

  /* One item taken and being worked on; three still stored. */
  got = get_and_wait (ch);
  g_assert_cmpuint (got->id, ==, 1);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 4);

  sluice_channel_join_async (ch, NULL, join_cb, &join);
  spin ();
  g_assert_false (join.done);

  sluice_channel_shutdown (ch, TRUE);
  g_assert_cmpuint (n_freed, ==, 3);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 1);
  spin ();
  g_assert_false (join.done);
  assert_get_closed (ch);

  /* Doing it again drops nothing more. */
  sluice_channel_shutdown (ch, TRUE);
  g_assert_cmpuint (n_freed, ==, 3);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 1);

  tracked_free (got);
  sluice_channel_task_done (ch);
  wait_for (&join);
  g_assert_no_error (join.error);
  g_assert_true (join.ok);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 0);

  g_clear_object (&ch);
  g_assert_cmpuint (n_freed, ==, 4);
}

static void
test_shutdown_immediate_join (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, tracked_free);
  guint n_freed = 0;
  Result join = { 0 };

  for (guint i = 1; i <= 3; i++)
    put_and_wait (ch, tracked_new (i, &n_freed));

  sluice_channel_join_async (ch, NULL, join_cb, &join);
  spin ();
  g_assert_false (join.done);

  /* Gracefully first: that drops nothing. */
  sluice_channel_shutdown (ch, FALSE);
  spin ();
  g_assert_false (join.done);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 3);

  /* Dropping every unfinished item lets the join complete. */
  sluice_channel_shutdown (ch, TRUE);
  g_assert_cmpuint (n_freed, ==, 3);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 0);
  wait_for (&join);
  g_assert_no_error (join.error);
  g_assert_true (join.ok);

  g_clear_object (&ch);
  g_assert_cmpuint (n_freed, ==, 3);
}

static void
test_shutdown_put_after (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (2, NULL);
  g_autoptr(GError) error = NULL;

  sluice_channel_shutdown (ch, FALSE);

  for (gint i = 0; i < 3; i++)
    {
      assert_put_closed (ch, ITEM (i + 1));
      g_assert_false (sluice_channel_try_put (ch, ITEM (i + 1), &error));
      g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
      g_clear_error (&error);
      g_assert_false (sluice_channel_push (ch, ITEM (i + 1)));
    }

  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 0);
}

static void
test_shutdown_wakes_getter (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  Result get1 = { 0 }, get2 = { 0 };

  sluice_channel_get_async (ch, NULL, get_cb, &get1);
  sluice_channel_get_async (ch, NULL, get_cb, &get2);
  spin ();
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 2);

  sluice_channel_shutdown (ch, FALSE);
  g_assert_cmpuint (sluice_channel_get_n_waiting (ch), ==, 0);
  wait_for (&get1);
  wait_for (&get2);
  g_assert_error (get1.error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_assert_error (get2.error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_assert_null (get1.item);
  g_assert_null (get2.item);

  result_clear (&get1);
  result_clear (&get2);
}

static void
test_join (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result join = { 0 }, cancelled = { 0 };

  /* Nothing unfinished: completes at once. */
  sluice_channel_join_async (ch, NULL, join_cb, &join);
  wait_for (&join);
  g_assert_true (join.ok);
  result_clear (&join);

  for (gint i = 1; i <= 3; i++)
    put_and_wait (ch, ITEM (i));
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 3);

  sluice_channel_join_async (ch, NULL, join_cb, &join);
  sluice_channel_join_async (ch, cancellable, join_cb, &cancelled);

  for (gint i = 1; i <= 3; i++)
    {
      g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, i);
      spin ();
      /* Taking an item is not finishing it. */
      g_assert_false (join.done);
    }

  g_cancellable_cancel (cancellable);
  wait_for (&cancelled);
  g_assert_error (cancelled.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  for (guint left = 3; left > 0; left--)
    {
      g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, left);
      g_assert_false (join.done);
      sluice_channel_task_done (ch);
      spin ();
    }

  g_assert_true (join.done);
  g_assert_no_error (join.error);
  g_assert_true (join.ok);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 0);

  result_clear (&cancelled);
}

static void
test_task_done_too_often (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);

      sluice_channel_task_done (ch);
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*CRITICAL*unfinished*");
}

#define N_PUSHED 1000

static gpointer
push_thread (gpointer data)
{
  SluiceChannel *ch = data;

  for (gint i = 1; i <= N_PUSHED; i++)
    g_assert_true (sluice_channel_push (ch, ITEM (i)));

  return NULL;
}

typedef struct
{
  SluiceChannel *ch;
  gint           received[N_PUSHED];
  guint          n_received;
  GError        *error;
} PushState;

static void
push_get_cb (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  PushState *state = user_data;
  gpointer item;

  item = sluice_channel_get_finish (SLUICE_CHANNEL (source), res, &state->error);
  if (item == NULL)
    return;

  state->received[state->n_received++] = GPOINTER_TO_INT (item);
  if (state->n_received < N_PUSHED)
    sluice_channel_get_async (state->ch, NULL, push_get_cb, state);
}

static gboolean
set_flag_cb (gpointer user_data)
{
  gboolean *flag = user_data;

  *flag = TRUE;
  return G_SOURCE_REMOVE;
}

static void
test_push_thread (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  PushState state = { 0 };
  gboolean timed_out = FALSE;
  GThread *thread;
  guint timeout_id;

  state.ch = ch;
  sluice_channel_get_async (ch, NULL, push_get_cb, &state);
  thread = g_thread_new ("pusher", push_thread, ch);

  /* This test waits on the real clock: the pusher is a real thread, so
   * the main loop blocks in poll() until it pushes. The timeout only
   * keeps a broken channel from hanging the test. */
  timeout_id = g_timeout_add_seconds (30, set_flag_cb, &timed_out);
  while (state.n_received < N_PUSHED && state.error == NULL && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);

  g_assert_false (timed_out);
  g_source_remove (timeout_id);
  g_assert_no_error (state.error);
  g_assert_cmpuint (state.n_received, ==, N_PUSHED);
  for (gint i = 0; i < N_PUSHED; i++)
    g_assert_cmpint (state.received[i], ==, i + 1);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, N_PUSHED);

  spin ();
}

static void
test_push_full_or_shutdown (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (2, NULL);
  g_autoptr(SluiceChannel) unbounded = sluice_channel_new (0, NULL);

  g_assert_true (sluice_channel_push (ch, ITEM (1)));
  g_assert_true (sluice_channel_push (ch, ITEM (2)));
  g_assert_false (sluice_channel_push (ch, ITEM (3)));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 2);

  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 1);
  g_assert_true (sluice_channel_push (ch, ITEM (3)));

  sluice_channel_shutdown (ch, FALSE);
  g_assert_false (sluice_channel_push (ch, ITEM (4)));
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 2);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 3);
  assert_get_closed (ch);

  g_assert_true (sluice_channel_push (unbounded, ITEM (1)));
  sluice_channel_shutdown (unbounded, TRUE);
  g_assert_false (sluice_channel_push (unbounded, ITEM (2)));
  g_assert_cmpuint (sluice_channel_get_length (unbounded), ==, 0);
  g_assert_cmpuint (sluice_channel_get_unfinished (unbounded), ==, 0);

  spin ();
}

static void
test_push_wakes_getter (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  Result get1 = { 0 }, get2 = { 0 };

  sluice_channel_get_async (ch, NULL, get_cb, &get1);
  sluice_channel_get_async (ch, NULL, get_cb, &get2);
  spin ();

  g_assert_true (sluice_channel_push (ch, ITEM (1)));
  g_assert_true (sluice_channel_push (ch, ITEM (2)));
  wait_for (&get1);
  wait_for (&get2);
  g_assert_cmpint (GPOINTER_TO_INT (get1.item), ==, 1);
  g_assert_cmpint (GPOINTER_TO_INT (get2.item), ==, 2);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
}

static void
test_try (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (1, NULL);
  g_autoptr(GError) error = NULL;
  Result get = { 0 };

  g_assert_null (sluice_channel_try_get (ch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
  g_clear_error (&error);

  g_assert_true (sluice_channel_try_put (ch, ITEM (1), &error));
  g_assert_no_error (error);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);

  g_assert_false (sluice_channel_try_put (ch, ITEM (2), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
  g_clear_error (&error);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);

  g_assert_cmpint (GPOINTER_TO_INT (sluice_channel_try_get (ch, &error)), ==, 1);
  g_assert_no_error (error);

  /* A waiting getter takes a try_put item directly. */
  sluice_channel_get_async (ch, NULL, get_cb, &get);
  spin ();
  g_assert_true (sluice_channel_try_put (ch, ITEM (3), &error));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  wait_for (&get);
  g_assert_cmpint (GPOINTER_TO_INT (get.item), ==, 3);
  g_assert_cmpuint (sluice_channel_get_unfinished (ch), ==, 2);

  g_assert_true (sluice_channel_try_put (ch, ITEM (4), &error));
  sluice_channel_shutdown (ch, FALSE);
  g_assert_false (sluice_channel_try_put (ch, ITEM (5), &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
  g_clear_error (&error);

  /* Drains first, then reports closed. */
  g_assert_cmpint (GPOINTER_TO_INT (sluice_channel_try_get (ch, &error)), ==, 4);
  g_assert_no_error (error);
  g_assert_null (sluice_channel_try_get (ch, &error));
  g_assert_error (error, SLUICE_ERROR, SLUICE_ERROR_CLOSED);
}

static void
test_finalize_frees_items (void)
{
  SluiceChannel *ch = sluice_channel_new (0, tracked_free);
  guint n_freed = 0;

  put_and_wait (ch, tracked_new (1, &n_freed));
  g_assert_true (sluice_channel_push (ch, tracked_new (2, &n_freed)));
  spin ();
  g_assert_cmpuint (n_freed, ==, 0);

  g_object_unref (ch);
  g_assert_cmpuint (n_freed, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/channel/fifo", test_fifo);
  g_test_add_func ("/channel/bounded/put-waits", test_bounded_put_waits);
  g_test_add_func ("/channel/getters/fifo", test_getters_fifo);
  g_test_add_func ("/channel/putters/fifo", test_putters_fifo);
  g_test_add_func ("/channel/cancel/get", test_cancel_get);
  g_test_add_func ("/channel/cancel/shared", test_cancel_shared);
  g_test_add_func ("/channel/cancel/put", test_cancel_put);
  g_test_add_func ("/channel/cancel/already", test_cancel_already);
  g_test_add_func ("/channel/shutdown/empty", test_shutdown_empty);
  g_test_add_func ("/channel/shutdown/items-waiting", test_shutdown_items_waiting);
  g_test_add_func ("/channel/shutdown/blocked-putter", test_shutdown_blocked_putter);
  g_test_add_func ("/channel/shutdown/immediate", test_shutdown_immediate);
  g_test_add_func ("/channel/shutdown/immediate-join", test_shutdown_immediate_join);
  g_test_add_func ("/channel/shutdown/put-after", test_shutdown_put_after);
  g_test_add_func ("/channel/shutdown/wakes-getter", test_shutdown_wakes_getter);
  g_test_add_func ("/channel/join", test_join);
  g_test_add_func ("/channel/join/task-done-too-often", test_task_done_too_often);
  g_test_add_func ("/channel/push/thread", test_push_thread);
  g_test_add_func ("/channel/push/full-or-shutdown", test_push_full_or_shutdown);
  g_test_add_func ("/channel/push/wakes-getter", test_push_wakes_getter);
  g_test_add_func ("/channel/try", test_try);
  g_test_add_func ("/channel/finalize/frees-items", test_finalize_frees_items);

  return g_test_run ();
}
