/* sluice-store-admin-sql.h: what both stores' admin queries share
 * (docs/store-admin.md)
 *
 * The SQL dialects stay in each store's admin file; what does not depend
 * on them (the search's patterns, the states an operator sees, the page of
 * a list, an item's report, the tenants' rows, which query answers which
 * operation) is written once here.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#include "sluice-store-admin.h"

G_BEGIN_DECLS

/* One query of a store's connection @conn; @data is the store's own (the
 * tenants to wake, for SQLite). */
typedef gboolean (*SluiceStoreAdminStep) (gpointer                      conn,
                                          const SluiceStoreAdminQuery  *q,
                                          SluiceStoreAdminReply        *reply,
                                          gpointer                      data,
                                          GError                      **error);

/* A store's queries, one for each kind of operation. */
typedef struct
{
  SluiceStoreAdminStep list_jobs;
  SluiceStoreAdminStep show_job;
  SluiceStoreAdminStep verb_by_ids;
  SluiceStoreAdminStep verb_by_filter;
  SluiceStoreAdminStep tenant_control;
  SluiceStoreAdminStep list_tenants;
  SluiceStoreAdminStep list_workers;  /* also prunes: q->op says which */
  SluiceStoreAdminStep beat_worker;
  SluiceStoreAdminStep list_completions;
  SluiceStoreAdminStep writable;
} SluiceStoreAdminSteps;

gboolean            sluice_store_admin_answer        (const SluiceStoreAdminSteps  *steps,
                                                      gpointer                      conn,
                                                      const SluiceStoreAdminQuery  *q,
                                                      SluiceStoreAdminReply        *reply,
                                                      gpointer                      data,
                                                      GError                      **error);

char               *sluice_store_admin_like_pattern  (const char                   *text,
                                                      gboolean                      prefix_only);
gboolean            sluice_store_admin_split_field   (const char                   *search,
                                                      char                        **key,
                                                      char                        **value);
void                sluice_store_admin_append_states (GString                      *sql,
                                                      guint                         states);
void                sluice_store_admin_no_job_after  (const SluiceStoreAdminQuery  *q,
                                                      GError                      **error);
void                sluice_store_admin_trim_page     (const SluiceStoreAdminQuery  *q,
                                                      SluiceStoreAdminReply        *reply);
SluiceStoreAdminItem *sluice_store_admin_add_item    (const SluiceStoreAdminQuery  *q,
                                                      SluiceStoreAdminReply        *reply,
                                                      const char                   *id,
                                                      gboolean                      found,
                                                      SluiceStoredJobState          state);
gboolean            sluice_store_admin_item_applies  (const SluiceStoreAdminItem   *item);
SluiceStoreTenant  *sluice_store_admin_tenant_of     (GHashTable                   *by_name,
                                                      GPtrArray                    *list,
                                                      const char                   *name);
void                sluice_store_admin_sort_tenants  (GPtrArray                    *tenants);

/* One row of a store's result, read through the store's own accessors,
 * so that what a row means (which column is which field) is written once. */
typedef struct _SluiceStoreAdminRow SluiceStoreAdminRow;

struct _SluiceStoreAdminRow
{
  gboolean     (*is_null) (const SluiceStoreAdminRow *row, int column);
  gint64       (*int_at)  (const SluiceStoreAdminRow *row, int column);  /* NULL: 0 */
  gboolean     (*bool_at) (const SluiceStoreAdminRow *row, int column);
  const char  *(*text_at) (const SluiceStoreAdminRow *row, int column);  /* NULL: NULL */
  gconstpointer  result;  /* a PGresult, a sqlite3_stmt */
  int            index;   /* the row of a PGresult */
};

SluiceStoreWorker  *sluice_store_admin_worker_of     (const SluiceStoreAdminRow    *row);
SluiceStoreAttempt *sluice_store_admin_attempt_of    (const SluiceStoreAdminRow    *row);
SluiceStoreCompletion sluice_store_admin_completion_of (const SluiceStoreAdminRow  *row);
void                sluice_store_admin_add_count     (GHashTable                   *by_name,
                                                      GPtrArray                    *list,
                                                      const SluiceStoreAdminRow    *row);
void                sluice_store_admin_add_control   (GHashTable                   *by_name,
                                                      GPtrArray                    *list,
                                                      const SluiceStoreAdminRow    *row);

G_END_DECLS
