/* sluice-store-throughput-page.h: the store window's Throughput page: jobs
 * done and failed per second and time-in-queue p50/p95 over the last hour,
 * as charts kept by the page itself from its reads (docs/store-admin.md,
 * "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice.h"
#include "sluice-store-page.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_THROUGHPUT_PAGE (sluice_store_throughput_page_get_type ())
G_DECLARE_FINAL_TYPE (SluiceStoreThroughputPage, sluice_store_throughput_page, SLUICE, STORE_THROUGHPUT_PAGE, SluiceStorePage)

/* The span of the charts: the last hour. */
#define SLUICE_STORE_THROUGHPUT_SPAN_S 3600
/* The most completions one read asks for; more are read by the next. */
#define SLUICE_STORE_THROUGHPUT_READ_LIMIT 5000

GtkWidget *sluice_store_throughput_page_new       (void);

void       sluice_store_throughput_page_get_totals (SluiceStoreThroughputPage *self,
                                                    guint64                   *done,
                                                    guint64                   *failed);
gint64     sluice_store_throughput_page_get_wait_percentile (SluiceStoreThroughputPage *self,
                                                             double                     percentile);

G_END_DECLS
