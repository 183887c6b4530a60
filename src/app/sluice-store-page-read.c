/* sluice-store-page-read.c: what the store window's pages share (see the
 * header)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-page-read.h"

static const char * const state_names[SLUICE_STORED_JOB_N_STATES] = {
  /* Translators: a stored job's state in the job store window (its
   * lists, filters and tables) */
  [SLUICE_STORED_JOB_PENDING] = NC_("stored job state", "pending"),
  [SLUICE_STORED_JOB_RUNNING] = NC_("stored job state", "running"),
  [SLUICE_STORED_JOB_RETRY_WAIT] = NC_("stored job state", "retry wait"),
  [SLUICE_STORED_JOB_SUCCEEDED] = NC_("stored job state", "succeeded"),
  [SLUICE_STORED_JOB_DEAD] = NC_("stored job state", "dead"),
  [SLUICE_STORED_JOB_CANCELLED] = NC_("stored job state", "cancelled"),
  [SLUICE_STORED_JOB_SCHEDULED] = NC_("stored job state", "scheduled"),
};

typedef struct {
  GObject              *page;
  SluiceStorePageRead  *read;
  SluiceJobStore       *store;
  guint                 generation;
  SluiceStorePageApply  apply;
} ReadCall;

/* Replaces the store: a read in flight for the old one is dropped when
 * it answers, and a new read may start at once. */
void
sluice_store_page_read_set_store (SluiceStorePageRead *read,
                                  SluiceJobStore      *store)
{
  if (read->store == store)
    return;
  g_set_object (&read->store, store);
  read->generation++;
  read->in_flight = FALSE;
}

void
sluice_store_page_read_clear (SluiceStorePageRead *read)
{
  sluice_store_page_read_set_store (read, NULL);
}

static void
on_read (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  ReadCall *call = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = sluice_store_admin_finish (call->store, result, &error);

  /* The page was held by the call: its instance (and the read in it)
   * is still there, even if it was disposed meanwhile. */
  if (call->read->generation == call->generation)
    {
      call->read->in_flight = FALSE;
      call->apply (call->page, reply, error);
    }
  g_object_unref (call->store);
  g_object_unref (call->page);
  g_free (call);
}

/*
 * sluice_store_page_read_start:
 * Starts @query on the page's store unless one is in flight (or there is
 * no store). Never blocks: @apply runs when the answer comes.
 *
 * Returns: whether a read started
 */
gboolean
sluice_store_page_read_start (SluiceStorePageRead         *read,
                              GObject                     *page,
                              const SluiceStoreAdminQuery *query,
                              SluiceStorePageApply         apply)
{
  ReadCall *call;

  if (read->store == NULL || read->in_flight || !sluice_store_admin_supported (read->store))
    return FALSE;
  call = g_new0 (ReadCall, 1);
  call->page = g_object_ref (page);
  call->read = read;
  call->store = g_object_ref (read->store);
  call->generation = read->generation;
  call->apply = apply;
  read->in_flight = TRUE;
  sluice_store_admin_async (read->store, query, NULL, on_read, call);
  return TRUE;
}

gint64
sluice_store_page_now (SluiceClock *clock,
                       gint64       origin)
{
  if (clock == NULL)
    return g_get_real_time ();
  return origin + sluice_clock_now (clock);
}

char *
sluice_store_page_format_duration (gint64 us)
{
  gint64 s = MAX (us, 0) / G_USEC_PER_SEC;

  if (s < 60)
    /* Translators: a duration in seconds */
    return g_strdup_printf (_("%d s"), (int) s);
  if (s < 3600)
    /* Translators: a duration in minutes */
    return g_strdup_printf (_("%d min"), (int) (s / 60));
  /* Translators: a duration in hours and minutes */
  return g_strdup_printf (_("%d h %d min"), (int) (s / 3600), (int) (s % 3600 / 60));
}

const char *
sluice_store_page_state_name (SluiceStoredJobState state)
{
  g_return_val_if_fail (state < SLUICE_STORED_JOB_N_STATES, "");
  return g_dpgettext2 (GETTEXT_PACKAGE, "stored job state", state_names[state]);
}

/* Read-only hides the actions, never leaves them failing
 * (docs/store-admin.md). */
void
sluice_store_page_show_controls (GPtrArray *controls,
                                 gboolean   read_only)
{
  for (guint i = 0; i < controls->len; i++)
    gtk_widget_set_visible (g_ptr_array_index (controls, i), !read_only);
}
