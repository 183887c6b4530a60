/* sluice-job-table.c: the jobs of a service run, folded from its events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gi18n.h>

#include "sluice-job-table.h"

/**
 * SluiceJobTable:
 *
 * One row per admitted job of a service run (#SluiceJobRow): its index,
 * item, state, attempts and its result or error. The rows are folded from
 * the run's events (a job's events carry its index as the item): pull
 * admits it, queue-put queues it, queue-get and attempt-start make it run,
 * item-ok, item-failed and item-cancelled end it. A job given up while it
 * was queued ends cancelled before any worker takes it, and says it was
 * skipped.
 *
 * The run model feeds it each event once and commits once per frame:
 * each commit has a serial, and each row says at which serial it last
 * changed, so that a view rebinds only the rows that changed since the
 * serial it showed.
 */

struct _SluiceJobTable
{
  GObject     parent_instance;

  GArray     *rows;       /* SluiceJobRow, in admission order */
  GHashTable *positions;  /* job index (gint64 *) → position + 1 */
  guint64     serial;     /* of the last commit */
};

G_DEFINE_FINAL_TYPE (SluiceJobTable, sluice_job_table, G_TYPE_OBJECT)

static void
clear_row (gpointer data)
{
  SluiceJobRow *row = data;

  g_free (row->item);
  g_free (row->outcome);
}

static void
sluice_job_table_finalize (GObject *object)
{
  SluiceJobTable *self = SLUICE_JOB_TABLE (object);

  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->positions, g_hash_table_unref);

  G_OBJECT_CLASS (sluice_job_table_parent_class)->finalize (object);
}

static void
sluice_job_table_class_init (SluiceJobTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sluice_job_table_finalize;
}

static void
sluice_job_table_init (SluiceJobTable *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (SluiceJobRow));
  g_array_set_clear_func (self->rows, clear_row);
  self->positions = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

/**
 * sluice_job_table_new:
 *
 * Returns: (transfer full): a table without jobs
 */
SluiceJobTable *
sluice_job_table_new (void)
{
  return g_object_new (SLUICE_TYPE_JOB_TABLE, NULL);
}

static SluiceJobRow *
find_row (SluiceJobTable *self,
          gint64          index)
{
  guint position = GPOINTER_TO_UINT (g_hash_table_lookup (self->positions, &index));

  return position > 0 ? &g_array_index (self->rows, SluiceJobRow, position - 1) : NULL;
}

static SluiceJobRow *
admit (SluiceJobTable    *self,
       const SluiceEvent *event)
{
  SluiceJobRow row = { event->item, NULL, SLUICE_JOB_QUEUED, 0, NULL, 0 };

  row.item = event->value ? g_variant_print (event->value, FALSE) : g_strdup ("");
  g_array_append_val (self->rows, row);
  g_hash_table_insert (self->positions, g_memdup2 (&event->item, sizeof event->item),
                       GUINT_TO_POINTER (self->rows->len));
  return &g_array_index (self->rows, SluiceJobRow, self->rows->len - 1);
}

static void
set_outcome (SluiceJobRow *row,
             char         *text)
{
  g_free (row->outcome);
  row->outcome = text;
}

static char *
error_text (const SluiceEvent *event)
{
  return g_strdup_printf ("%s: %s", event->error_type ? event->error_type : "Error",
                          event->error_message ? event->error_message : "");
}

static gboolean
is_finished (const SluiceJobRow *row)
{
  return row->state >= SLUICE_JOB_SUCCEEDED;
}

static void
end_cancelled (SluiceJobRow      *row,
               const SluiceEvent *event)
{
  row->state = SLUICE_JOB_CANCELLED;
  if (event->worker < 0 && row->attempts == 0)
    /* Translators: in the jobs table: a job that ended cancelled while it
     * was queued (given up, or the pool stopped): no worker ran it */
    set_outcome (row, g_strdup (_("cancelled while queued: skipped, it never ran")));
  else
    /* Translators: in the jobs table: a job whose attempt was cancelled */
    set_outcome (row, g_strdup (_("cancelled while running")));
}

/* Whether @event changed @row. */
static gboolean
fold_event (SluiceJobRow      *row,
            const SluiceEvent *event)
{
  switch (event->kind)
    {
    case SLUICE_EVENT_QUEUE_GET:
    case SLUICE_EVENT_BACKOFF:
      row->state = SLUICE_JOB_RUNNING;
      return TRUE;
    case SLUICE_EVENT_ATTEMPT_START:
      row->state = SLUICE_JOB_RUNNING;
      row->attempts = MAX (row->attempts, event->attempt);
      return TRUE;
    case SLUICE_EVENT_ATTEMPT_END:
    case SLUICE_EVENT_FATAL:
      if (event->error_type != NULL)
        set_outcome (row, error_text (event));
      return TRUE;
    case SLUICE_EVENT_ITEM_OK:
      row->state = SLUICE_JOB_SUCCEEDED;
      set_outcome (row, event->value ? g_variant_print (event->value, FALSE) : g_strdup ("()"));
      return TRUE;
    case SLUICE_EVENT_ITEM_FAILED:
      row->state = SLUICE_JOB_FAILED;
      if (event->error_type != NULL)
        set_outcome (row, error_text (event));
      return TRUE;
    case SLUICE_EVENT_DEADLINE_EXCEEDED:
      /* Translators: in the jobs table: a job dropped from the queue
       * because its deadline had passed */
      set_outcome (row, g_strdup (_("shed: its deadline passed in the queue")));
      return TRUE;
    case SLUICE_EVENT_ITEM_CANCELLED:
    case SLUICE_EVENT_ITEM_DROPPED:
      end_cancelled (row, event);
      return TRUE;
    default:
      return FALSE;
    }
}

/**
 * sluice_job_table_add_event:
 * @self: a #SluiceJobTable
 * @event: the run's next event
 *
 * Folds @event into the rows; the change has the next commit's serial.
 */
void
sluice_job_table_add_event (SluiceJobTable    *self,
                            const SluiceEvent *event)
{
  SluiceJobRow *row;
  gboolean admitted = FALSE;

  g_return_if_fail (SLUICE_IS_JOB_TABLE (self));

  if (event->item < 0)
    return;

  row = find_row (self, event->item);
  if (row == NULL)
    {
      if (event->kind != SLUICE_EVENT_PULL)
        return;
      row = admit (self, event);
      admitted = TRUE;
    }

  /* A job given up while queued is later taken and skipped at once. */
  if (is_finished (row) && event->kind != SLUICE_EVENT_ITEM_FAILED)
    return;

  if (fold_event (row, event) || admitted)
    row->changed = self->serial + 1;
}

/**
 * sluice_job_table_commit:
 * @self: a #SluiceJobTable
 *
 * Ends a frame's changes: the rows changed since the last commit carry
 * the new serial.
 *
 * Returns: the new serial
 */
guint64
sluice_job_table_commit (SluiceJobTable *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB_TABLE (self), 0);
  return ++self->serial;
}

/**
 * sluice_job_table_get_serial:
 * @self: a #SluiceJobTable
 *
 * Returns: the serial of the last commit
 */
guint64
sluice_job_table_get_serial (SluiceJobTable *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB_TABLE (self), 0);
  return self->serial;
}

/**
 * sluice_job_table_get_n_rows:
 * @self: a #SluiceJobTable
 *
 * Returns: the jobs admitted so far
 */
guint
sluice_job_table_get_n_rows (SluiceJobTable *self)
{
  g_return_val_if_fail (SLUICE_IS_JOB_TABLE (self), 0);
  return self->rows->len;
}

/**
 * sluice_job_table_get_row:
 * @self: a #SluiceJobTable
 * @position: a row, in admission order
 *
 * Returns: (transfer none): the row
 */
const SluiceJobRow *
sluice_job_table_get_row (SluiceJobTable *self,
                          guint           position)
{
  g_return_val_if_fail (SLUICE_IS_JOB_TABLE (self), NULL);
  g_return_val_if_fail (position < self->rows->len, NULL);
  return &g_array_index (self->rows, SluiceJobRow, position);
}

/**
 * sluice_job_table_find:
 * @self: a #SluiceJobTable
 * @job_index: a job's index
 *
 * Returns: the job's row, or -1 for a job the table does not have
 */
gint
sluice_job_table_find (SluiceJobTable *self,
                       gint64          job_index)
{
  g_return_val_if_fail (SLUICE_IS_JOB_TABLE (self), -1);
  return (gint) GPOINTER_TO_UINT (g_hash_table_lookup (self->positions, &job_index)) - 1;
}

/**
 * sluice_job_table_count_state:
 * @self: a #SluiceJobTable
 * @state: a job state
 *
 * Returns: how many jobs are in @state
 */
guint
sluice_job_table_count_state (SluiceJobTable *self,
                              SluiceJobState  state)
{
  guint n = 0;

  g_return_val_if_fail (SLUICE_IS_JOB_TABLE (self), 0);

  for (guint i = 0; i < self->rows->len; i++)
    n += g_array_index (self->rows, SluiceJobRow, i).state == state;
  return n;
}
