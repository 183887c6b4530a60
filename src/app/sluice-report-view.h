/* sluice-report-view.h: the finished run's report, key by key
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_REPORT_VIEW (sluice_report_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceReportView, sluice_report_view, SLUICE, REPORT_VIEW, GtkWidget)

GtkWidget    *sluice_report_view_new        (void);
void          sluice_report_view_set_report (SluiceReportView *self,
                                             JsonNode         *report);
JsonNode     *sluice_report_view_get_report (SluiceReportView *self);
void          sluice_report_view_set_note   (SluiceReportView *self,
                                             const char       *note);
guint         sluice_report_view_get_n_rows (SluiceReportView *self);
const char   *sluice_report_view_get_value  (SluiceReportView *self,
                                             const char       *key);
char         *sluice_report_view_format_value (JsonNode        *node);

G_END_DECLS
