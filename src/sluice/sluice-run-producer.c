/* sluice-run-producer.c: the producer of a run, which pulls items from the
 * source and puts them into the input channel
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include <string.h>

#include "sluice-channel-private.h"
#include "sluice-error.h"
#include "sluice-job-private.h"
#include "sluice-pool-private.h"
#include "sluice-run-private.h"

/* Items {{{ */

/* Takes @value. */
SluicePulledItem *
_sluice_pulled_item_new (SluiceRun *self,
                         gint64     index,
                         GVariant  *value)
{
  SluicePulledItem *item = self->spare_items;

  if (item != NULL)
    {
      self->spare_items = item->next_spare;
      memset (item, 0, sizeof *item);
    }
  else
    item = g_new0 (SluicePulledItem, 1);

  item->run = self;
  item->index = index;
  item->value = value;
  return item;
}

static SluicePulledItem *
pulled_item_new (SluiceRun *self,
                 GVariant  *value)
{
  SluicePulledItem *item = _sluice_pulled_item_new (self, self->stats.pulled, value);

  /* Only a pool with an item deadline reads the clock here. */
  if (_sluice_pool_get_retry_policy (self->pool)->deadline_us > 0)
    item->deadline = _sluice_retry_policy_item_deadline (_sluice_pool_get_retry_policy (self->pool),
                                                         sluice_clock_now (self->clock));

  return item;
}

void
_sluice_pulled_item_free (SluicePulledItem *item)
{
  SluiceRun *self = item->run;

  g_variant_unref (item->value);
  g_clear_object (&item->job);
  item->next_spare = self->spare_items;
  self->spare_items = item;
}

void
_sluice_run_free_spare_items (SluiceRun *self)
{
  SluicePulledItem *item;

  while ((item = self->spare_items) != NULL)
    {
      self->spare_items = item->next_spare;
      g_free (item);
    }
}

/* An item pulled that will never be handled. */
static void
drop_item (SluicePulledItem *item)
{
  SluiceRun *self = item->run;

  self->stats.dropped++;
  _sluice_run_emit_item (self, SLUICE_EVENT_ITEM_DROPPED, item, -1, item->value);
  _sluice_pulled_item_free (item);
}

/* The input channel's item_free, and a worker's for an item it took after
 * a cancel: an item dropped from the queue is a cancelled outcome. The one
 * the producer holds at a stop is not (drop_item() alone). */
void
_sluice_pulled_item_drop (SluicePulledItem *item)
{
  /* A job given up while queued was counted when its caller gave up. */
  if (item->job != NULL && _sluice_job_is_given_up (item->job))
    {
      _sluice_pulled_item_free (item);
      return;
    }

  _sluice_run_count_outcome (item->run, "cancelled");
  if (item->job != NULL)
    _sluice_job_end_cancelled (item->job);
  drop_item (item);
}

/* }}} */
/* Producer {{{ */

/* No more items will come: from the source's end or a stop, or from a
 * service run's close (admission closes). */
void
_sluice_run_close_input (SluiceRun *self)
{
  self->producer_state = PRODUCER_DONE;
  _sluice_run_emit_simple (self, SLUICE_EVENT_DRAIN);

  /* End of input reaches the workers as a graceful shutdown: they drain
   * what is queued, then their get fails and they exit. */
  sluice_channel_shutdown (self->input, FALSE);
  _sluice_run_maybe_finish (self);
}

static void
on_put (gpointer      item,
        const GError *error,
        gpointer      user_data)
{
  SluiceRun *self = user_data;

  self->live_operations--;
  self->held = NULL;

  if (error != NULL)
    {
      /* A stop or a cancel woke the producer while it waited for room: the
       * item it held is never handled. */
      drop_item (item);
      _sluice_run_close_input (self);
      return;
    }

  /* Accepted, and reported by on_held_accepted(): a worker may already
   * have taken the item, even dropped it. */
  _sluice_producer_pull (self);
}

/* The channel took the held item: the queue-put is reported now, before
 * whatever a worker does with it. */
static void
on_held_accepted (gpointer user_data)
{
  SluiceRun *self = user_data;

  _sluice_run_emit_index (self, SLUICE_EVENT_QUEUE_PUT, self->held_index, -1, NULL);
}

/* Takes the item just read. Gives %TRUE when the producer may read the
 * next one at once: the item went into the channel without waiting. */
static gboolean
take_pulled_item (SluiceRun *self,
                  GVariant  *value)
{
  SluicePulledItem *item = pulled_item_new (self, value);
  gint64 index;
  guint lead;

  self->stats.pulled++;
  lead = self->stats.pulled - self->stats.succeeded;
  self->stats.max_lead = MAX (self->stats.max_lead, lead);
  /* The pull and the put into a channel with room: one instant. */
  _sluice_run_step_begin (self);
  _sluice_run_emit_item (self, SLUICE_EVENT_PULL, item, -1, value);

  if (self->stop_requested || self->halted)
    {
      _sluice_run_step_end (self);
      drop_item (item);
      _sluice_run_close_input (self);
      return FALSE;
    }

  /* Room in the input channel: no main-loop turn to wait for. */
  index = item->index;
  if (sluice_channel_try_put (self->input, item, NULL))
    {
      _sluice_run_emit_index (self, SLUICE_EVENT_QUEUE_PUT, index, -1, NULL);
      _sluice_run_step_end (self);
      return TRUE;
    }
  _sluice_run_step_end (self);

  self->producer_state = PRODUCER_PUTTING;
  self->live_operations++;
  self->held = item;
  self->held_index = item->index;
  _sluice_channel_put_with_func (self->input, item, self->producer_cancellable,
                                 on_held_accepted, self, on_put, self);
  return FALSE;
}

static void
on_source_failed (SluiceRun *self,
                  GError    *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GError) own G_GNUC_UNUSED = error;

      /* We cancelled the read ourselves, for a stop or a cancel. */
      if (g_cancellable_is_cancelled (self->producer_cancellable))
        return;

      error = g_error_new_literal (SLUICE_ERROR, SLUICE_ERROR_SOURCE_CANCELLED,
                                   "source cancelled itself");
    }

  _sluice_run_emit_error (self, SLUICE_EVENT_SOURCE_ERROR, -1, error);
  _sluice_run_record_error (self, error);
  sluice_pool_request_stop (self->pool);
}

/* The source's answer to a read: an item, the end (%NULL) or @error.
 * Gives %TRUE when the producer may read the next item at once. */
static gboolean
take_read (SluiceRun *self,
           GVariant  *value,
           GError    *error)
{
  if (error != NULL)
    {
      g_clear_pointer (&value, g_variant_unref);
      on_source_failed (self, error);
      _sluice_run_close_input (self);
      return FALSE;
    }

  if (value == NULL)
    {
      _sluice_run_emit_simple (self, SLUICE_EVENT_SOURCE_END);
      _sluice_run_close_input (self);
      return FALSE;
    }

  return take_pulled_item (self, value);
}

static void
on_pulled (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  SluiceRun *self = user_data;
  GError *error = NULL;
  GVariant *value;

  self->live_operations--;

  value = sluice_source_next_finish (SLUICE_SOURCE (object), res, &error);
  if (take_read (self, value, error))
    _sluice_producer_pull (self);
}

/* Reads at once while the source has items at hand and the channel has
 * room, as the seed's producer does with a generator that does not await:
 * the queue fills in one go. Gives %TRUE when the source has nothing ready
 * and must be read asynchronously. */
static gboolean
pull_at_hand (SluiceRun *self)
{
  for (;;)
    {
      GError *error = NULL;
      GVariant *value = NULL;

      if (self->stop_requested || self->halted)
        {
          _sluice_run_close_input (self);
          return FALSE;
        }

      if (!self->source_try_next (self->source, &value, &error))
        {
          if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            return take_read (self, NULL, error);
          g_clear_error (&error);
          return TRUE;
        }

      if (!take_read (self, value, NULL))
        return FALSE;
    }
}

void
_sluice_producer_pull (SluiceRun *self)
{
  if (self->source_has_try_next && !pull_at_hand (self))
    return;

  if (self->stop_requested || self->halted)
    {
      _sluice_run_close_input (self);
      return;
    }

  self->producer_state = PRODUCER_PULLING;
  self->live_operations++;
  sluice_source_next_async (self->source, self->producer_cancellable, on_pulled, self);
}

/* The pool forwards its request_stop() here. */
void
_sluice_run_request_stop (SluiceRun *self)
{
  self->stop_requested = TRUE;

  /* After run-end the run emits nothing: a caller that reads a result
   * buffered before the end may still ask for a stop, which changes
   * nothing then. */
  if (self->state == RUN_FINISHED)
    return;

  _sluice_run_emit_simple (self, SLUICE_EVENT_STOP_REQUEST);

  /* A service run's stop is its graceful close. */
  if (self->service)
    {
      _sluice_run_close_admission (self);
      return;
    }

  _sluice_run_start_shutdown_clock (self);

  /* Wakes the producer if it waits on the source or on a full channel. */
  if (self->state == RUN_ACTIVE)
    g_cancellable_cancel (self->producer_cancellable);
}

const char *
_sluice_producer_describe (SluiceProducerState state)
{
  switch (state)
    {
    case PRODUCER_PULLING:
      return "producer: waiting for the source to yield an item";
    case PRODUCER_PUTTING:
      return "producer: waiting for room in the input queue";
    case PRODUCER_IDLE:
      return "producer: not started";
    case PRODUCER_DONE:
    default:
      return "producer: finished";
    }
}

/* }}} */
