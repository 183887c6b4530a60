/* sluice-comparison.h: two configurations run on one workload, and their
 * difference (docs/teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sluice.h>

#include "sluice-recorder.h"
#include "sluice-report.h"
#include "sluice-scenario.h"
#include "sluice-scenario-runner.h"

G_BEGIN_DECLS

/**
 * SluiceComparisonSide:
 * @SLUICE_COMPARISON_A: the scenario whose workload both run
 * @SLUICE_COMPARISON_B: the variant, run on A's workload
 *
 * One of the two runs of a #SluiceComparison.
 */
typedef enum {
  SLUICE_COMPARISON_A,
  SLUICE_COMPARISON_B,
} SluiceComparisonSide;

/**
 * SluiceComparisonRowKind:
 * @SLUICE_COMPARISON_ELAPSED: the run's elapsed time on its clock
 * @SLUICE_COMPARISON_THROUGHPUT: items succeeded per second (B / A)
 * @SLUICE_COMPARISON_SUCCEEDED: items that succeeded
 * @SLUICE_COMPARISON_FAILED: items that failed for good
 * @SLUICE_COMPARISON_RETRIES: retries
 * @SLUICE_COMPARISON_TIMEOUTS: attempts that timed out
 * @SLUICE_COMPARISON_MAX_LEAD: the most items pulled and not yet handled
 * @SLUICE_COMPARISON_LINTS: the lints that turned on (how many; the
 *   difference also names the kinds only one side raised)
 * @SLUICE_COMPARISON_OUTCOME: how the run ended (same or differs)
 * @SLUICE_COMPARISON_N_ROWS: how many rows the table has
 *
 * The rows of the difference table, in their order.
 */
typedef enum {
  SLUICE_COMPARISON_ELAPSED,
  SLUICE_COMPARISON_THROUGHPUT,
  SLUICE_COMPARISON_SUCCEEDED,
  SLUICE_COMPARISON_FAILED,
  SLUICE_COMPARISON_RETRIES,
  SLUICE_COMPARISON_TIMEOUTS,
  SLUICE_COMPARISON_MAX_LEAD,
  SLUICE_COMPARISON_LINTS,
  SLUICE_COMPARISON_OUTCOME,
  SLUICE_COMPARISON_N_ROWS
} SluiceComparisonRowKind;

/**
 * SluiceComparisonRow:
 * @name: what the row shows: `elapsed`, `max lead`… as sluice-run prints
 *   it, or translated (see sluice_comparison_dup_rows())
 * @a: A's value, as text
 * @b: B's value
 * @difference: B − A (B / A for throughput; for the outcome `same` or
 *   `differs`), or `-` when there is none
 *
 * One row of the difference table.
 */
typedef struct {
  const char *name;
  char       *a;
  char       *b;
  char       *difference;
} SluiceComparisonRow;

void sluice_comparison_row_free (SluiceComparisonRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceComparisonRow, sluice_comparison_row_free)

#define SLUICE_TYPE_COMPARISON (sluice_comparison_get_type ())
G_DECLARE_FINAL_TYPE (SluiceComparison, sluice_comparison, SLUICE, COMPARISON, GObject)

SluiceComparison     *sluice_comparison_new            (SluiceScenario        *a,
                                                        const char            *a_file,
                                                        SluiceScenario        *b,
                                                        const char            *b_file,
                                                        GError               **error);
SluiceComparison     *sluice_comparison_new_from_files (const char            *a_path,
                                                        const char            *b_path,
                                                        const char * const    *overrides,
                                                        GError               **error);
void                  sluice_comparison_set_instant    (SluiceComparison      *self,
                                                        gboolean               instant);
void                  sluice_comparison_set_keep_details (SluiceComparison    *self,
                                                        gboolean               keep);
SluiceScenario       *sluice_comparison_get_scenario   (SluiceComparison      *self,
                                                        SluiceComparisonSide   side);
const char           *sluice_comparison_get_file       (SluiceComparison      *self,
                                                        SluiceComparisonSide   side);
const char           *sluice_comparison_get_title      (SluiceComparison      *self,
                                                        SluiceComparisonSide   side);
SluiceRecorder       *sluice_comparison_get_recorder   (SluiceComparison      *self,
                                                        SluiceComparisonSide   side);
SluiceReport         *sluice_comparison_get_report     (SluiceComparison      *self,
                                                        SluiceComparisonSide   side);
SluiceFaultHandler   *sluice_comparison_get_handler    (SluiceComparison      *self,
                                                        SluiceComparisonSide   side);
SluiceScenarioRunner *sluice_comparison_get_runner     (SluiceComparison      *self);
void                  sluice_comparison_stop           (SluiceComparison      *self);
void                  sluice_comparison_run_async      (SluiceComparison      *self,
                                                        GCancellable          *cancellable,
                                                        GAsyncReadyCallback    callback,
                                                        gpointer               user_data);
gboolean              sluice_comparison_run_finish     (SluiceComparison      *self,
                                                        GAsyncResult          *result,
                                                        GError               **error);
gboolean              sluice_comparison_get_complete   (SluiceComparison      *self);
GPtrArray            *sluice_comparison_dup_rows       (SluiceComparison      *self,
                                                        gboolean               translated);
JsonNode             *sluice_comparison_to_json        (SluiceComparison      *self);

G_END_DECLS
