/* sluice-run-model.h: one run, its events folded once for every view
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "sluice-error-list.h"
#include "sluice-fold.h"
#include "sluice-job-table.h"
#include "sluice-linter.h"
#include "sluice-live-stats.h"
#include "sluice-narrator.h"
#include "sluice-recorder.h"
#include "sluice-scenario.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

/**
 * SluiceRunEnd:
 * @start_time: the run's time origin (its start event, or the first event
 *   seen of a program attached late), in clock µs
 * @run_end_at: when every operation of the run had finished, or -1
 * @fatal_at: when a fatal error stopped the pool, or -1
 * @fatal_type: (nullable): that error's type name, owned by the model
 * @deadline_fired_at: when the shutdown deadline fired, or -1
 * @shutdown_from: when the shutdown clock started (the first stop request,
 *   or a service's close), or -1
 * @shutdown_timeout: the scenario's shutdown timeout in µs, 0 for none
 *
 * What the events said of how a run stops and ends: the banner reads it.
 */
typedef struct {
  gint64      start_time;
  gint64      run_end_at;
  gint64      fatal_at;
  const char *fatal_type;
  gint64      deadline_fired_at;
  gint64      shutdown_from;
  gint64      shutdown_timeout;
} SluiceRunEnd;

#define SLUICE_TYPE_RUN_MODEL (sluice_run_model_get_type ())
G_DECLARE_FINAL_TYPE (SluiceRunModel, sluice_run_model, SLUICE, RUN_MODEL, GObject)

SluiceRunModel     *sluice_run_model_new               (SluiceScenario   *scenario,
                                                        SluiceRecorder   *recorder);
SluiceRunModel     *sluice_run_model_new_idle          (guint             workers);
gboolean            sluice_run_model_get_has_run       (SluiceRunModel   *self);
SluiceRecorder     *sluice_run_model_get_recorder      (SluiceRunModel   *self);
SluiceTimeline     *sluice_run_model_get_timeline      (SluiceRunModel   *self);
SluiceNarrator     *sluice_run_model_get_narrator      (SluiceRunModel   *self);
SluiceLinter       *sluice_run_model_get_linter        (SluiceRunModel   *self);
SluiceErrorList   *sluice_run_model_get_errors        (SluiceRunModel   *self);
SluiceJobTable     *sluice_run_model_get_jobs          (SluiceRunModel   *self);
SluiceLiveStats    *sluice_run_model_get_stats         (SluiceRunModel   *self);
SluiceFold         *sluice_run_model_get_fold          (SluiceRunModel   *self);
SluiceFold         *sluice_run_model_get_finished_fold (SluiceRunModel *self);
const char         *sluice_run_model_get_scenario_text (SluiceRunModel   *self);
guint               sluice_run_model_get_workers       (SluiceRunModel   *self);
gboolean            sluice_run_model_get_submit_mode   (SluiceRunModel   *self);
gboolean            sluice_run_model_get_has_events    (SluiceRunModel   *self);
const SluiceEvent  *sluice_run_model_get_last          (SluiceRunModel   *self);
const SluiceRunEnd *sluice_run_model_get_end           (SluiceRunModel   *self);
gint64              sluice_run_model_get_now           (SluiceRunModel   *self);
gint64              sluice_run_model_get_moment        (SluiceRunModel   *self);
guint64             sluice_run_model_get_position      (SluiceRunModel   *self);
gboolean            sluice_run_model_get_live          (SluiceRunModel   *self);
guint               sluice_run_model_get_n_results     (SluiceRunModel   *self);
guint               sluice_run_model_get_n_results_shown (SluiceRunModel *self);
GVariant           *sluice_run_model_get_result        (SluiceRunModel   *self,
                                                        guint             i,
                                                        gint64           *time);
JsonNode           *sluice_run_model_get_report        (SluiceRunModel   *self);
const char         *sluice_run_model_get_report_note   (SluiceRunModel   *self);

void                sluice_run_model_update            (SluiceRunModel   *self,
                                                        gint64            now);
void                sluice_run_model_seek              (SluiceRunModel   *self,
                                                        gint64            playhead);
void                sluice_run_model_set_live          (SluiceRunModel   *self,
                                                        gboolean          live);
void                sluice_run_model_set_snapshot      (SluiceRunModel   *self,
                                                        guint             busy,
                                                        guint             workers,
                                                        guint             queue_depth);
void                sluice_run_model_share_linter      (SluiceRunModel   *self,
                                                        SluiceLinter     *linter);
void                sluice_run_model_set_report        (SluiceRunModel   *self,
                                                        JsonNode         *report);
void                sluice_run_model_set_scenario_text (SluiceRunModel *self,
                                                        const char       *text);
void                sluice_run_model_set_configured_workers (SluiceRunModel *self,
                                                             guint        workers);
void                sluice_run_model_set_report_note   (SluiceRunModel   *self,
                                                        const char       *note);

G_END_DECLS
