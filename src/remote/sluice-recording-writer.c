/* sluice-recording-writer.c: writing a recorded run (.sluicerun): the
 * header line with the scenario and the report, then the events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-recording-private.h"

#include <string.h>

#include "sluice-file-part-private.h"
#include "sluice-json-writer-private.h"

/* The report as compact JSON, or NULL when there is none or it is longer
 * than a first line may carry. */
static char *
report_text (JsonNode *report)
{
  g_autofree char *text = NULL;

  if (report == NULL)
    return NULL;
  text = json_to_string (report, FALSE);
  if (strlen (text) > SLUICE_RECORDING_MAX_REPORT)
    return NULL;
  return g_steal_pointer (&text);
}

/**
 * sluice_recording_write:
 * @scenario_text: the text of the scenario as it ran (UTF-8)
 * @report: (nullable): the run's report (a JSON object, as
 *   sluice_report_to_json() builds it), or %NULL for a run without one
 * @recorder: the run's events
 * @stream: where to write
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Writes a recording: the header line
 * `{"sluicerun":1,"version":"…","scenario":"…","report":{…}}`, then every
 * event @recorder holds as sluice_recorder_write_jsonl() writes it. A
 * report longer than %SLUICE_RECORDING_MAX_REPORT is left out.
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recording_write (const char      *scenario_text,
                        JsonNode        *report,
                        SluiceRecorder  *recorder,
                        GOutputStream   *stream,
                        GCancellable    *cancellable,
                        GError         **error)
{
  gpointer sink_data[2] = { stream, cancellable };
  g_autofree char *report_json = NULL;
  SluiceJsonWriter w;

  g_return_val_if_fail (scenario_text != NULL && g_utf8_validate (scenario_text, -1, NULL), FALSE);
  g_return_val_if_fail (report == NULL || JSON_NODE_HOLDS_OBJECT (report), FALSE);
  g_return_val_if_fail (SLUICE_IS_RECORDER (recorder), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  _sluice_json_writer_init_text (&w, FALSE, _sluice_json_writer_stream_sink, sink_data);
  _sluice_json_writer_begin_object (&w);
  _sluice_json_writer_int_member (&w, "sluicerun", SLUICE_RECORDING_FORMAT);
  _sluice_json_writer_member (&w, "version");
  _sluice_json_writer_string (&w, SLUICE_PACKAGE_VERSION);
  _sluice_json_writer_member (&w, "scenario");
  _sluice_json_writer_string (&w, scenario_text);
  report_json = report_text (report);
  if (report_json != NULL)
    {
      _sluice_json_writer_member (&w, "report");
      _sluice_json_writer_raw (&w, report_json);
    }
  _sluice_json_writer_end_object (&w);
  _sluice_json_writer_raw (&w, "\n");

  return _sluice_json_writer_finish (&w, error) &&
         sluice_recorder_write_jsonl (recorder, stream, cancellable, error);
}

/**
 * sluice_recording_save:
 * @scenario_text: the text of the scenario as it ran
 * @report: (nullable): the run's report, or %NULL
 * @recorder: the run's events
 * @path: the file to write (replaced once it is whole: written as
 *   `@path.part` and renamed)
 * @error: return location for an error
 *
 * Writes a recording to @path; see sluice_recording_write().
 *
 * Returns: %TRUE on success
 */
gboolean
sluice_recording_save (const char      *scenario_text,
                       JsonNode        *report,
                       SluiceRecorder  *recorder,
                       const char      *path,
                       GError         **error)
{
  g_autoptr(SluiceFilePart) file = NULL;

  g_return_val_if_fail (path != NULL, FALSE);

  /* @path.part until it is whole: a failed or killed save leaves @path as
   * it was. */
  file = _sluice_file_part_new (path, error);
  if (file == NULL)
    return FALSE;

  return sluice_recording_write (scenario_text, report, recorder, _sluice_file_part_get_stream (file),
                                 NULL, error) &&
         _sluice_file_part_commit (file, error);
}
