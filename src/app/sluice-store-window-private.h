/* sluice-store-window-private.h: what the parts of the job store window
 * share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-jobs-page.h"
#include "sluice-store-window.h"
#include "sluice-store-alerts.h"
#include "sluice-store-queues-page.h"
#include "sluice-store-throughput-page.h"
#include "sluice-store-workers-page.h"

G_BEGIN_DECLS

/* The window is one object in three files: sluice-store-window.c (the
 * object, reading the store, its banner and the API),
 * sluice-store-window-views.c (the counts, the strip and the last
 * failures) and sluice-store-window-screenshot.c (`--screenshot`). Its
 * pages that are objects of their own (the Jobs page) are in their own
 * files. */

#define N_STATES SLUICE_STORED_JOB_N_STATES

struct _SluiceStoreWindow
{
  GtkWindow           parent_instance;

  /* template */
  GtkLabel           *title_label;
  GtkLabel           *subtitle_label;
  GtkEntry           *tenant_entry;
  GtkLabel           *banner_label;
  GtkLabel           *updated_label;
  GtkBox             *counts_box;
  GtkDrawingArea     *strip;
  GtkStack           *failures_stack;
  GtkColumnView      *failures_view;
  GtkLabel           *empty_label;
  GtkStack           *pages_stack;  /* "overview", "jobs", and the pages the lead adds */
  SluiceStoreJobsPage *jobs_page;
  GtkWidget          *queues_page;
  GtkWidget          *workers_page;
  GtkWidget          *throughput_page;
  SluiceStoreAlerts  *alerts;       /* dead jobs rose, a worker lost: notifications */
  guint               n_alerts;

  GtkLabel           *count_labels[N_STATES];
  GtkWidget          *swatches[N_STATES];
  GtkColumnViewColumn *columns[SLUICE_STORE_N_COLUMNS];  /* the view's */
  GtkStringList      *model;        /* one string (the job's id) per failure */

  char               *uri;
  char               *description;  /* the URI without its password */
  char               *tenant;       /* NULL: every tenant */
  SluiceJobStore     *store;        /* NULL until opened */
  GCancellable       *cancellable;
  guint               timeout_id;
  gboolean            opening;
  gboolean            asking;       /* a get_status in flight */
  gboolean            ask_again;    /* woken during it: one more after it */
  gboolean            hopeless;     /* a URI of no kind of store: not tried again */
  gint64              waiting_since; /* monotonic µs of the open or read in flight, or 0 */
  guint               generation;   /* of the tenant: an answer for another is dropped */
  SluiceStoreStatus  *status;       /* the last one read, or NULL */
  char               *error_text;   /* the banner's, or NULL */
  guint               n_updates;
  gboolean            projector;
  gboolean            listed;       /* the failures were listed once */
  gboolean            read_only;    /* asked (--read-only), or the store refused writing */
};

/* sluice-store-window-views.c */
void                   _sluice_store_window_create_views    (SluiceStoreWindow     *self);
void                   _sluice_store_window_fit_projector   (SluiceStoreWindow     *self);
void                   _sluice_store_window_show_counts     (SluiceStoreWindow     *self);
void                   _sluice_store_window_show_columns    (SluiceStoreWindow     *self);
void                   _sluice_store_window_show_empty_text (SluiceStoreWindow     *self);
void                   _sluice_store_window_show_failures   (SluiceStoreWindow     *self,
                                                             GPtrArray             *before);
const SluiceStoredJob *_sluice_store_window_get_failure     (SluiceStoreWindow     *self,
                                                             guint                  row);
char                  *_sluice_store_window_format_cell     (const SluiceStoredJob *job,
                                                             SluiceStoreColumn      column);

G_END_DECLS
