/* fuzz-recording.c: a libFuzzer target for the recording reader
 *
 * Any input is either refused with a SLUICE_SCENARIO_ERROR naming the file
 * (a bad first line), or opens with what is valid: its events, written
 * again as a recording and read back, are the same events with no problem
 * but a missing run-end. A crash, a sanitizer report or any GLib warning
 * or critical aborts.
 *
 * Built with -Dfuzzing=true and clang (see tests/fuzz/meson.build); its
 * seed corpus is tests/fuzz/corpus-recording.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "sluice-recording.h"

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  fuzz_init ();
  return 0;
}

static char *
write_back (SluiceRecording *recording)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();

  if (!sluice_recording_write (sluice_recording_get_scenario_text (recording),
                               sluice_recording_get_report (recording),
                               sluice_recording_get_recorder (recording), stream, NULL, NULL))
    abort ();
  g_output_stream_write_all (stream, "", 1, NULL, NULL, NULL);
  g_output_stream_close (stream, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(SluiceRecording) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *text_again = NULL;
  const char * const *problems;

  recording = sluice_recording_new_from_data ((const char *) data, size, "fuzz.sluicerun", &error);
  if (recording == NULL)
    {
      if (error == NULL || error->domain != SLUICE_SCENARIO_ERROR ||
          !g_str_has_prefix (error->message, "fuzz.sluicerun"))
        abort ();
      return 0;
    }

  text = write_back (recording);
  again = sluice_recording_new_from_data (text, strlen (text), "fuzz.sluicerun", NULL);
  if (again == NULL)
    abort ();
  problems = sluice_recording_get_problems (again);
  if (problems[0] != NULL && (problems[1] != NULL || strstr (problems[0], "truncated") == NULL))
    {
      fprintf (stderr, "fuzz-recording: written back, the recording has a problem: %s\n", problems[0]);
      abort ();
    }
  text_again = write_back (again);
  if (strcmp (text, text_again) != 0)
    abort ();
  return 0;
}
