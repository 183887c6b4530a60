/* sluice-store-page-read.h: what the store window's Queues, Workers and
 * Throughput pages share: their one read in flight, their now, and the
 * words they show durations and states in (docs/store-admin.md, "The
 * store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice.h"
#include "sluice-store-admin.h"

G_BEGIN_DECLS

/*
 * SluiceStorePageApply:
 * @page: the page that asked
 * @reply: (nullable): the answer, or %NULL with @error set
 * @error: (nullable): why there is none
 *
 * What a page does with the answer of its read (on the main context).
 */
typedef void (*SluiceStorePageApply) (GObject                     *page,
                                      const SluiceStoreAdminReply *reply,
                                      const GError                *error);

/*
 * SluiceStorePageRead:
 * A page's reads of its store: at most one in flight; an answer for a
 * store that was replaced since (or a page disposed) is dropped. Kept in
 * the page's instance; zero-initialised.
 */
typedef struct {
  SluiceJobStore *store;
  guint           generation;
  gboolean        in_flight;
} SluiceStorePageRead;

void     sluice_store_page_read_set_store (SluiceStorePageRead   *read,
                                           SluiceJobStore        *store);
gboolean sluice_store_page_read_start     (SluiceStorePageRead   *read,
                                           GObject               *page,
                                           const SluiceStoreAdminQuery *query,
                                           SluiceStorePageApply   apply);
void     sluice_store_page_read_clear     (SluiceStorePageRead   *read);

/* The page's now, µs since the epoch: @origin plus @clock's time (a
 * virtual clock: tests and replays), or the wall clock without one. */
gint64      sluice_store_page_now           (SluiceClock          *clock,
                                             gint64                origin);
/* A duration as a person reads it: "42 s", "3 min", "2 h 5 min". */
char       *sluice_store_page_format_duration (gint64              us);
/* A state as the pages name it, translated ("retry wait"). */
const char *sluice_store_page_state_name    (SluiceStoredJobState  state);
/* Shows @controls, or hides them all when the page is read-only. */
void        sluice_store_page_show_controls (GPtrArray            *controls,
                                             gboolean              read_only);

G_END_DECLS
