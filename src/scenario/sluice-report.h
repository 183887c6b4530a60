/* sluice-report.h: what a scenario run did, as the JSON report of the spec
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sluice.h>

#include "sluice-linter.h"

#include "sluice-lesson.h"

G_BEGIN_DECLS

/**
 * SluiceReportWriteFunc:
 * @data: (array length=length): the next chunk of the text
 * @length: its length in bytes
 * @user_data: the data given with the function
 * @error: return location for an error
 *
 * Takes one chunk of a report written by sluice_report_write_json().
 *
 * Returns: %FALSE with @error set to stop the writing
 */
typedef gboolean (*SluiceReportWriteFunc) (const char  *data,
                                           gsize        length,
                                           gpointer     user_data,
                                           GError     **error);

#define SLUICE_TYPE_REPORT (sluice_report_get_type ())
G_DECLARE_FINAL_TYPE (SluiceReport, sluice_report, SLUICE, REPORT, GObject)

SluiceReport *sluice_report_new                (gint                queue_size,
                                                gint                workers,
                                                gboolean            metrics_broken);
void          sluice_report_set_keep_details   (SluiceReport       *self,
                                                gboolean            keep);
void          sluice_report_add_event          (SluiceReport       *self,
                                                const SluiceEvent  *event);
void          sluice_report_add_result         (SluiceReport       *self,
                                                GVariant           *result);
void          sluice_report_add_snapshot       (SluiceReport       *self,
                                                double              t,
                                                SluiceSnapshot     *snapshot);
gboolean      sluice_report_metrics_func       (const char         *event,
                                                const char         *detail,
                                                gpointer            user_data,
                                                GError            **error);
void          sluice_report_finish             (SluiceReport       *self,
                                                SluiceRun          *run,
                                                const GError       *end_error,
                                                gboolean            closed,
                                                gboolean            ctx_ok);
void          sluice_report_set_submit_mode    (SluiceReport       *self);
void          sluice_report_set_lesson         (SluiceReport       *self,
                                                SluiceLesson       *lesson);
gboolean      sluice_report_check_lesson       (SluiceReport       *self,
                                                char              **shown);
void          sluice_report_finish_jobs        (SluiceReport       *self,
                                                GPtrArray          *jobs,
                                                guint               submit_refused,
                                                gint64              submitter_ended_at,
                                                gboolean            cancelled);
gboolean      sluice_report_is_finished        (SluiceReport       *self);
const char   *sluice_report_get_outcome        (SluiceReport       *self);
guint         sluice_report_get_n_results      (SluiceReport       *self);
const SluiceRunStats *sluice_report_get_stats  (SluiceReport       *self);
SluiceLinter *sluice_report_get_linter         (SluiceReport       *self);
gint64        sluice_report_get_elapsed        (SluiceReport       *self);
guint         sluice_report_get_attempts       (SluiceReport       *self,
                                                gint64              item_index);
guint         sluice_report_get_metrics_calls  (SluiceReport       *self,
                                                const char         *event);
JsonNode     *sluice_report_to_json            (SluiceReport       *self);
char         *sluice_report_to_json_string     (SluiceReport       *self,
                                                gboolean            pretty);
gboolean      sluice_report_write_json         (SluiceReport       *self,
                                                gboolean            pretty,
                                                SluiceReportWriteFunc func,
                                                gpointer            user_data,
                                                GError            **error);
char         *sluice_report_format_summary     (SluiceReport       *self);

G_END_DECLS
