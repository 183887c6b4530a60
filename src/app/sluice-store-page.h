/* sluice-store-page.h: the base of the store window's Queues, Workers and
 * Throughput pages: their store and its one read in flight, their now,
 * the read-only and projector properties, and the controls read-only
 * hides (docs/store-admin.md, "The store window")
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice.h"
#include "sluice-job-store.h"
#include "sluice-store-admin.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_STORE_PAGE (sluice_store_page_get_type ())
G_DECLARE_DERIVABLE_TYPE (SluiceStorePage, sluice_store_page, SLUICE, STORE_PAGE, GtkWidget)

/**
 * SluiceStorePageClass:
 * @parent_class: the parent class
 * @show_store: forgets what the page shows: @store replaced the store
 *   before (%NULL: none is open); the next refresh reads it
 * @make_query: the query a refresh starts, its now @now (µs since the
 *   epoch); %NULL: none
 * @apply: shows the answer of a read: @reply, or %NULL and @error
 * @show_projector: lays the page out for a projector or not
 *
 * What a page does of its own; the base does the rest.
 */
struct _SluiceStorePageClass
{
  GtkWidgetClass parent_class;

  void                    (*show_store)     (SluiceStorePage             *self,
                                             SluiceJobStore              *store);
  SluiceStoreAdminQuery * (*make_query)     (SluiceStorePage             *self,
                                             gint64                       now);
  void                    (*apply)          (SluiceStorePage             *self,
                                             const SluiceStoreAdminReply *reply,
                                             const GError                *error);
  void                    (*show_projector) (SluiceStorePage             *self,
                                             gboolean                     projector);

  /*< private >*/
  gpointer padding[8];
};

void            sluice_store_page_set_store      (SluiceStorePage *self,
                                                  SluiceJobStore  *store);
SluiceJobStore *sluice_store_page_get_store      (SluiceStorePage *self);
guint           sluice_store_page_get_generation (SluiceStorePage *self);
void            sluice_store_page_refresh        (SluiceStorePage *self);
void            sluice_store_page_set_clock      (SluiceStorePage *self,
                                                  SluiceClock     *clock,
                                                  gint64           origin);
gint64          sluice_store_page_get_now        (SluiceStorePage *self);
gboolean        sluice_store_page_get_read_only  (SluiceStorePage *self);
void            sluice_store_page_set_read_only  (SluiceStorePage *self,
                                                  gboolean         read_only);
gboolean        sluice_store_page_get_projector  (SluiceStorePage *self);
void            sluice_store_page_set_projector  (SluiceStorePage *self,
                                                  gboolean         projector);
void            sluice_store_page_add_control    (SluiceStorePage *self,
                                                  GtkWidget       *control);
void            sluice_store_page_remove_control (SluiceStorePage *self,
                                                  GtkWidget       *control);

G_END_DECLS
