/* sluice-recording.h: a recorded run (.sluicerun): the scenario that ran
 * and its event stream, in one JSON Lines file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-recorder.h"
#include "sluice-report.h"
#include "sluice-scenario.h"

G_BEGIN_DECLS

/**
 * SLUICE_RECORDING_FORMAT:
 *
 * The format version a recording's first line gives as `"sluicerun"`, and
 * the only one sluice_recording_new_from_file() reads.
 */
#define SLUICE_RECORDING_FORMAT 1

/**
 * SLUICE_RECORDING_MAX_SIZE:
 *
 * The most bytes of a recording that are read: 256 MiB, some 1.5 million
 * events (a run the app's recorder, bounded to 500,000 events, can hold
 * three times over). What follows is not read, and the recording says so
 * among its problems.
 */
#define SLUICE_RECORDING_MAX_SIZE (256 * 1024 * 1024)

/**
 * SLUICE_RECORDING_MAX_LINE:
 *
 * The longest line of a recording: 8 MiB, room for the first line with a
 * scenario of %SLUICE_SCENARIO_MAX_SIZE bytes however its text is escaped.
 * A longer event line is skipped (a problem); a longer first line is an
 * error.
 */
#define SLUICE_RECORDING_MAX_LINE (8 * 1024 * 1024)

/**
 * SLUICE_RECORDING_MAX_REPORT:
 *
 * The longest report a recording's first line carries: 24 MiB of compact
 * JSON, the report of every run the app's recorder can hold. A longer one
 * is left out when writing (the recording then has no report).
 */
#define SLUICE_RECORDING_MAX_REPORT (24 * 1024 * 1024)

/**
 * SLUICE_RECORDING_MAX_HEADER:
 *
 * The longest first line of a recording: room for the scenario
 * (%SLUICE_RECORDING_MAX_LINE) and the report
 * (%SLUICE_RECORDING_MAX_REPORT). A longer first line is an error.
 */
#define SLUICE_RECORDING_MAX_HEADER (SLUICE_RECORDING_MAX_LINE + SLUICE_RECORDING_MAX_REPORT)

#define SLUICE_TYPE_RECORDING (sluice_recording_get_type ())
G_DECLARE_FINAL_TYPE (SluiceRecording, sluice_recording, SLUICE, RECORDING, GObject)

SluiceRecording    *sluice_recording_new_from_file     (const char      *path,
                                                        GError         **error);
SluiceRecording    *sluice_recording_new_from_data     (const char      *data,
                                                        gsize            length,
                                                        const char      *name,
                                                        GError         **error);

const char         *sluice_recording_get_name          (SluiceRecording *self);
const char         *sluice_recording_get_version       (SluiceRecording *self);
const char         *sluice_recording_get_scenario_text (SluiceRecording *self);
SluiceScenario     *sluice_recording_get_scenario      (SluiceRecording *self);
SluiceRecorder     *sluice_recording_get_recorder      (SluiceRecording *self);
JsonNode           *sluice_recording_get_report        (SluiceRecording *self);
const char * const *sluice_recording_get_problems      (SluiceRecording *self);

void                sluice_recording_replay_async      (SluiceRecording     *self,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
SluiceReport       *sluice_recording_replay_finish     (SluiceRecording     *self,
                                                        GAsyncResult        *result,
                                                        GError             **error);

gboolean            sluice_recording_write             (const char      *scenario_text,
                                                        JsonNode        *report,
                                                        SluiceRecorder  *recorder,
                                                        GOutputStream   *stream,
                                                        GCancellable    *cancellable,
                                                        GError         **error);
gboolean            sluice_recording_save              (const char      *scenario_text,
                                                        JsonNode        *report,
                                                        SluiceRecorder  *recorder,
                                                        const char      *path,
                                                        GError         **error);

G_END_DECLS
