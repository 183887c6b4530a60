/* test-channel.c: tests of SluiceChannel, the engine's private FIFO
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-channel-private.h"
#include "sluice-error.h"

#define ITEM(n) GINT_TO_POINTER (n)

/* The outcome of one waiting operation. */
typedef struct
{
  gboolean  done;
  gboolean  ok;
  gboolean  accepted;  /* a put: its accept func was called */
  gpointer  item;      /* a get's item, or a failed put's own item */
  GError   *error;
  guint     order;     /* when it completed, from completion_counter */
} Result;

static guint completion_counter;

static void
result_clear (Result *r)
{
  g_clear_error (&r->error);
  memset (r, 0, sizeof *r);
}

static void
done_cb (gpointer      item,
         const GError *error,
         gpointer      user_data)
{
  Result *r = user_data;

  g_assert_false (r->done);
  r->item = item;
  r->error = error != NULL ? g_error_copy (error) : NULL;
  r->ok = error == NULL;
  r->order = completion_counter++;
  r->done = TRUE;
}

static void
accepted_cb (gpointer user_data)
{
  Result *r = user_data;

  /* Once, and before the put's own callback. */
  g_assert_false (r->accepted);
  g_assert_false (r->done);
  r->accepted = TRUE;
}

static void
put_async (SluiceChannel *ch,
           gpointer       item,
           GCancellable  *cancellable,
           Result        *r)
{
  _sluice_channel_put_with_func (ch, item, cancellable, accepted_cb, r, done_cb, r);
  /* Never called from inside the channel's call. */
  g_assert_false (r->done);
}

static void
get_async (SluiceChannel *ch,
           GCancellable  *cancellable,
           Result        *r)
{
  _sluice_channel_get_with_func (ch, cancellable, done_cb, r);
  g_assert_false (r->done);
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

/* A put's outcome: accepted, with nothing given back; or refused, with
 * its item given back and never accepted. */
static void
assert_put_ok (Result *r)
{
  g_assert_true (r->done);
  g_assert_no_error (r->error);
  g_assert_true (r->ok);
  g_assert_true (r->accepted);
  g_assert_null (r->item);
}

static void
assert_put_failed (Result   *r,
                   GQuark    domain,
                   gint      code,
                   gpointer  item)
{
  g_assert_true (r->done);
  g_assert_error (r->error, domain, code);
  g_assert_false (r->ok);
  g_assert_false (r->accepted);
  g_assert_true (r->item == item);
}

static void
put_and_wait (SluiceChannel *ch,
              gpointer       item)
{
  Result r = { 0 };

  put_async (ch, item, NULL, &r);
  wait_for (&r);
  assert_put_ok (&r);
}

static gpointer
get_and_wait (SluiceChannel *ch)
{
  Result r = { 0 };

  get_async (ch, NULL, &r);
  wait_for (&r);
  g_assert_no_error (r.error);
  g_assert_nonnull (r.item);
  return r.item;
}

static void
assert_get_closed (SluiceChannel *ch)
{
  Result r = { 0 };

  get_async (ch, NULL, &r);
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

  put_async (ch, item, NULL, &r);
  wait_for (&r);
  assert_put_failed (&r, SLUICE_ERROR, SLUICE_ERROR_CLOSED, item);
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

  for (gint i = 1; i <= 5; i++)
    {
      g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, i);
      g_assert_cmpuint (sluice_channel_get_length (ch), ==, (guint) (5 - i));
    }
}

static void
test_bounded_put_waits (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (2, NULL);
  Result put3 = { 0 }, get = { 0 };

  g_assert_cmpuint (sluice_channel_get_capacity (ch), ==, 2);

  put_and_wait (ch, ITEM (1));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  put_and_wait (ch, ITEM (2));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);

  put_async (ch, ITEM (3), NULL, &put3);
  spin ();
  g_assert_false (put3.done);
  g_assert_false (put3.accepted);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);

  /* The freed slot goes to the waiting put at once: it is accepted inside
   * the get, and its callback comes later. */
  get_async (ch, NULL, &get);
  g_assert_true (put3.accepted);
  g_assert_false (put3.done);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);
  wait_for (&get);
  g_assert_cmpint (GPOINTER_TO_INT (get.item), ==, 1);
  wait_for (&put3);
  assert_put_ok (&put3);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 2);

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
    get_async (ch, NULL, &gets[i]);
  spin ();
  for (guint i = 0; i < 3; i++)
    g_assert_false (gets[i].done);

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
}

static void
test_putters_fifo (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (1, NULL);
  Result puts[3] = { { 0 } };

  completion_counter = 0;

  put_and_wait (ch, ITEM (1));
  for (guint i = 0; i < 3; i++)
    put_async (ch, ITEM (i + 2), NULL, &puts[i]);
  spin ();
  for (guint i = 0; i < 3; i++)
    g_assert_false (puts[i].done);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);

  for (gint i = 1; i <= 4; i++)
    {
      g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, i);
      g_assert_cmpuint (sluice_channel_get_length (ch), <=, 1);
    }

  for (guint i = 0; i < 3; i++)
    {
      wait_for (&puts[i]);
      assert_put_ok (&puts[i]);
    }
  g_assert_cmpuint (puts[0].order, <, puts[1].order);
  g_assert_cmpuint (puts[1].order, <, puts[2].order);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
}

static void
test_cancel_get (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result get1 = { 0 }, get2 = { 0 }, get3 = { 0 };

  get_async (ch, cancellable, &get1);
  get_async (ch, NULL, &get2);
  spin ();

  /* The put comes before the cancel source had a chance to run. */
  g_cancellable_cancel (cancellable);
  put_and_wait (ch, ITEM (1));

  wait_for (&get1);
  g_assert_error (get1.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (get1.item);
  wait_for (&get2);
  g_assert_no_error (get2.error);
  g_assert_cmpint (GPOINTER_TO_INT (get2.item), ==, 1);

  /* A cancelled lone getter: the next put is stored, not lost. */
  g_cancellable_reset (cancellable);
  get_async (ch, cancellable, &get3);
  spin ();
  g_assert_false (get3.done);
  g_cancellable_cancel (cancellable);
  wait_for (&get3);
  g_assert_error (get3.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

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
    get_async (ch, shared, &gets[i]);
  get_async (ch, other, &lone);
  spin ();

  g_cancellable_cancel (shared);
  for (i = 0; i < G_N_ELEMENTS (gets); i++)
    {
      wait_for (&gets[i]);
      g_assert_error (gets[i].error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      result_clear (&gets[i]);
    }
  spin ();
  g_assert_false (lone.done);

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
  put_async (ch, ITEM (2), cancellable, &put2);
  put_async (ch, ITEM (3), NULL, &put3);
  spin ();

  g_cancellable_cancel (cancellable);
  wait_for (&put2);
  assert_put_failed (&put2, G_IO_ERROR, G_IO_ERROR_CANCELLED, ITEM (2));
  g_assert_false (put3.done);

  /* Item 2 never entered the channel; item 3 takes the freed slot. */
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 1);
  wait_for (&put3);
  assert_put_ok (&put3);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 3);
  g_assert_null (sluice_channel_try_get (ch, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);

  result_clear (&put2);
}

static void
test_cancel_already (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Result get = { 0 }, put = { 0 };

  put_and_wait (ch, ITEM (1));
  g_cancellable_cancel (cancellable);

  get_async (ch, cancellable, &get);
  put_async (ch, ITEM (2), cancellable, &put);
  wait_for (&get);
  wait_for (&put);
  g_assert_error (get.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_put_failed (&put, G_IO_ERROR, G_IO_ERROR_CANCELLED, ITEM (2));

  /* Neither took nor added anything. */
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);
  g_assert_cmpint (GPOINTER_TO_INT (get_and_wait (ch)), ==, 1);

  result_clear (&get);
  result_clear (&put);
}

static void
test_shutdown_empty (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);

  sluice_channel_shutdown (ch, FALSE);

  assert_get_closed (ch);
  assert_put_closed (ch, ITEM (1));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
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
  put_async (ch, blocked, NULL, &put);
  spin ();
  g_assert_false (put.done);

  sluice_channel_shutdown (ch, FALSE);
  wait_for (&put);
  assert_put_failed (&put, SLUICE_ERROR, SLUICE_ERROR_CLOSED, blocked);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 1);

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

  for (guint i = 1; i <= 4; i++)
    put_and_wait (ch, tracked_new (i, &n_freed));

  /* One item taken and being worked on; three still stored. */
  got = get_and_wait (ch);
  g_assert_cmpuint (got->id, ==, 1);

  sluice_channel_shutdown (ch, TRUE);
  g_assert_cmpuint (n_freed, ==, 3);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  assert_get_closed (ch);

  /* Doing it again drops nothing more. */
  sluice_channel_shutdown (ch, TRUE);
  g_assert_cmpuint (n_freed, ==, 3);

  tracked_free (got);
  g_clear_object (&ch);
  g_assert_cmpuint (n_freed, ==, 4);
}

static void
test_shutdown_graceful_then_immediate (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, tracked_free);
  guint n_freed = 0;

  for (guint i = 1; i <= 3; i++)
    put_and_wait (ch, tracked_new (i, &n_freed));

  /* Gracefully first: that drops nothing. */
  sluice_channel_shutdown (ch, FALSE);
  g_assert_cmpuint (n_freed, ==, 0);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 3);

  /* Then immediately: every stored item is dropped. */
  sluice_channel_shutdown (ch, TRUE);
  g_assert_cmpuint (n_freed, ==, 3);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  assert_get_closed (ch);

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
    }

  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
}

static void
test_shutdown_wakes_getter (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (0, NULL);
  Result get1 = { 0 }, get2 = { 0 };

  get_async (ch, NULL, &get1);
  get_async (ch, NULL, &get2);
  spin ();
  g_assert_false (get1.done);
  g_assert_false (get2.done);

  sluice_channel_shutdown (ch, FALSE);
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
test_try (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (1, NULL);
  g_autoptr(GError) error = NULL;
  Result get = { 0 }, put = { 0 };

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

  /* A try_put does not overtake a waiting put, even when a slot frees. */
  put_async (ch, ITEM (2), NULL, &put);
  g_assert_cmpint (GPOINTER_TO_INT (sluice_channel_try_get (ch, &error)), ==, 1);
  g_assert_no_error (error);
  g_assert_true (put.accepted);
  g_assert_false (sluice_channel_try_put (ch, ITEM (9), &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK);
  g_clear_error (&error);
  wait_for (&put);
  assert_put_ok (&put);
  g_assert_cmpint (GPOINTER_TO_INT (sluice_channel_try_get (ch, &error)), ==, 2);

  /* A waiting getter takes a try_put item directly. */
  get_async (ch, NULL, &get);
  spin ();
  g_assert_true (sluice_channel_try_put (ch, ITEM (3), &error));
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
  wait_for (&get);
  g_assert_cmpint (GPOINTER_TO_INT (get.item), ==, 3);

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
  g_assert_true (sluice_channel_try_put (ch, tracked_new (2, &n_freed), NULL));
  spin ();
  g_assert_cmpuint (n_freed, ==, 0);

  g_object_unref (ch);
  g_assert_cmpuint (n_freed, ==, 2);
}

/* A callback may start the next operation on the channel: a worker's get
 * func asks for the next item. */
typedef struct
{
  SluiceChannel *ch;
  gint           received[8];
  guint          n_received;
} Chain;

static void
chain_get_cb (gpointer      item,
              const GError *error,
              gpointer      user_data)
{
  Chain *chain = user_data;

  if (item == NULL)
    return;
  chain->received[chain->n_received++] = GPOINTER_TO_INT (item);
  if (chain->n_received < G_N_ELEMENTS (chain->received))
    _sluice_channel_get_with_func (chain->ch, NULL, chain_get_cb, chain);
}

static void
test_get_func_chains (void)
{
  g_autoptr(SluiceChannel) ch = sluice_channel_new (3, NULL);
  Chain chain = { ch, { 0 }, 0 };
  Result puts[8] = { { 0 } };

  _sluice_channel_get_with_func (ch, NULL, chain_get_cb, &chain);
  for (guint i = 0; i < G_N_ELEMENTS (puts); i++)
    put_async (ch, ITEM (i + 1), NULL, &puts[i]);
  for (guint i = 0; i < G_N_ELEMENTS (puts); i++)
    {
      wait_for (&puts[i]);
      assert_put_ok (&puts[i]);
    }
  spin ();

  g_assert_cmpuint (chain.n_received, ==, G_N_ELEMENTS (chain.received));
  for (guint i = 0; i < G_N_ELEMENTS (chain.received); i++)
    g_assert_cmpint (chain.received[i], ==, (gint) i + 1);
  g_assert_cmpuint (sluice_channel_get_length (ch), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/channel/fifo", test_fifo);
  g_test_add_func ("/channel/bounded/put-waits", test_bounded_put_waits);
  g_test_add_func ("/channel/getters/fifo", test_getters_fifo);
  g_test_add_func ("/channel/getters/func-chains", test_get_func_chains);
  g_test_add_func ("/channel/putters/fifo", test_putters_fifo);
  g_test_add_func ("/channel/cancel/get", test_cancel_get);
  g_test_add_func ("/channel/cancel/shared", test_cancel_shared);
  g_test_add_func ("/channel/cancel/put", test_cancel_put);
  g_test_add_func ("/channel/cancel/already", test_cancel_already);
  g_test_add_func ("/channel/shutdown/empty", test_shutdown_empty);
  g_test_add_func ("/channel/shutdown/items-waiting", test_shutdown_items_waiting);
  g_test_add_func ("/channel/shutdown/blocked-putter", test_shutdown_blocked_putter);
  g_test_add_func ("/channel/shutdown/immediate", test_shutdown_immediate);
  g_test_add_func ("/channel/shutdown/graceful-then-immediate", test_shutdown_graceful_then_immediate);
  g_test_add_func ("/channel/shutdown/put-after", test_shutdown_put_after);
  g_test_add_func ("/channel/shutdown/wakes-getter", test_shutdown_wakes_getter);
  g_test_add_func ("/channel/try", test_try);
  g_test_add_func ("/channel/finalize/frees-items", test_finalize_frees_items);

  return g_test_run ();
}
