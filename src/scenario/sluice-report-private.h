/* sluice-report-private.h: what the report's collection (sluice-report.c),
 * its JSON (sluice-report-json.c) and its summary (sluice-report-summary.c)
 * share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-linter.h"
#include "sluice-report.h"

G_BEGIN_DECLS

/* How many results the summary shows. */
#define SLUICE_REPORT_SHOWN_RESULTS 12

/* An item's attempts are counted in one byte; this value says that the
 * count went on in the report's overflow table (retries past 254). */
#define SLUICE_REPORT_COUNT_OVERFLOW G_MAXUINT8

struct _SluiceReport
{
  GObject     parent_instance;

  gint        queue_size;
  gint        workers;
  gboolean    metrics_broken;
  gboolean    keep_details;     /* every result and attempt count, for the JSON */

  /* The results in yield order, kept compactly: a million of them are the
   * report's largest part. Integers (the results of a range) go to ints,
   * anything else to others; bit i of other_bits says where result i
   * went, and other_bits is NULL while every result is an integer. */
  guint       n_results;
  GArray     *ints;             /* gint64 */
  GPtrArray  *others;           /* GVariant* */
  GByteArray *other_bits;
  GPtrArray  *first_results;    /* GVariant*: the first ones, for the summary */

  /* Handler calls per item index, one byte each; 255 means "see
   * overflow", where the counts of 255 and more are. */
  guint8     *attempts;
  gsize       n_attempts;       /* item indexes that attempts has room for */
  GHashTable *overflow;         /* gint64* → guint, or NULL */
  guint       n_calls;

  GHashTable *backoffs;         /* gint64* → GArray of gint64 µs, in order */
  guint       metrics_ok;
  guint       metrics_retry;
  guint       metrics_failure;
  guint       metrics_raised;
  GPtrArray  *snapshots;        /* SluiceReportSnapshot*, in the order given */
  GPtrArray  *fatal_reprs;      /* char*: the fatal errors, as they came */
  GPtrArray  *overruns;         /* char*: "item N, attempt A" and how late */
  gint64      deadline_at;      /* when the shutdown deadline fired, or -1 */
  SluiceLinter *linter;         /* lints every event, for `lints` */

  gboolean    finished;
  char       *outcome;
  GPtrArray  *error_types;      /* char*, in record order */
  GPtrArray  *error_messages;
  GPtrArray  *error_reprs;
  SluiceRunStats stats;
  guint       live_operations;
  gint64      elapsed_us;
  gint64      started_at;
  gboolean    ctx_ok;

  gboolean    submit_mode;
  GPtrArray  *job_outcomes;     /* const char*: each job's, by index, in outcome_names */
  GHashTable *outcome_names;    /* char*: the set of the jobs' outcomes */
  guint       submit_refused;
  guint       jobs_cancelled;

  SluiceLesson *lesson;         /* the run's lesson, for `lesson`, or NULL */
  guint       buffered;         /* results handed back, not read yet */
  guint       max_buffered;
};

typedef struct {
  double          t;            /* seconds from the run's start, as asked */
  SluiceSnapshot *snapshot;
} SluiceReportSnapshot;

guint    _sluice_report_get_count      (SluiceReport  *self,
                                        gint64         item_index);
gboolean _sluice_report_result_is_int  (SluiceReport  *self,
                                        guint          index);
gint64   _sluice_report_unfinished     (SluiceReport  *self);
gint     _sluice_report_compare_strings (gconstpointer a,
                                         gconstpointer b);

G_END_DECLS
