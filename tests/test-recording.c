/* test-recording.c: .sluicerun recordings: written, read back event for
 * event, and read as far as they are valid when cut short or garbled
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sluice-recording-private.h"
#include "sluice-scenario-private.h"
#include "sluice-scenario-runner.h"

/* ---- a recorded run ----------------------------------------------------- */

typedef struct {
  SluiceScenario *scenario;
  char           *text;       /* the scenario as it ran */
  char           *events;     /* the run's --events text */
  guint           n_events;
  char           *recording;  /* the .sluicerun text */
  gsize           length;
  gsize           header_end; /* the first line's length, its newline included */
  char           *report;     /* the run's JSON report, or NULL */
} Run;

static void
run_free (Run *run)
{
  g_clear_object (&run->scenario);
  g_free (run->text);
  g_free (run->events);
  g_free (run->recording);
  g_free (run->report);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

static char *
events_text (SluiceRecorder *recorder)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (sluice_recorder_write_jsonl (recorder, stream, NULL, &error));
  g_assert_no_error (error);
  g_output_stream_write_all (stream, "", 1, NULL, NULL, &error);  /* the nul */
  g_output_stream_close (stream, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

/* Runs the scenario file @path on the virtual clock (unless a behaviour
 * needs real time) and records it. */
static Run *
record_file (const char *path)
{
  static const char * const virtual_clock[] = { "run.clock=virtual", NULL };
  g_autoptr(SluiceScenarioRunner) runner = NULL;
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(JsonNode) report_node = NULL;
  g_autoptr(SluiceScenario) plain = NULL;
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *file_text = NULL;
  Run *run = g_new0 (Run, 1);
  gsize length = 0;

  file_text = sluice_scenario_read_text (path, &length, &error);
  g_assert_no_error (error);
  plain = sluice_scenario_new_from_data (file_text, (gssize) length, path, NULL, &error);
  g_assert_no_error (error);
  run->scenario = sluice_scenario_needs_real_time (plain)
    ? g_object_ref (plain)
    : sluice_scenario_new_from_data (file_text, (gssize) length, path, virtual_clock, &error);
  g_assert_no_error (error);
  run->text = sluice_scenario_update_data (run->scenario, file_text);

  runner = sluice_scenario_runner_new (run->scenario);
  sluice_scenario_runner_set_recorder (runner, recorder);
  /* A run that ends in an error still recorded its events. */
  report = sluice_scenario_runner_run (runner, NULL);
  run->report = report ? sluice_report_to_json_string (report, TRUE) : NULL;
  report_node = report ? sluice_report_to_json (report) : NULL;

  run->events = events_text (recorder);
  run->n_events = sluice_recorder_get_n_events (recorder);
  g_assert_true (sluice_recording_write (run->text, report_node, recorder, stream, NULL, &error));
  g_assert_no_error (error);
  g_output_stream_write_all (stream, "", 1, NULL, NULL, &error);  /* a nul after the text */
  g_output_stream_close (stream, NULL, NULL);
  run->length = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)) - 1;
  run->recording = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  run->header_end = (gsize) ((char *) memchr (run->recording, '\n', run->length) - run->recording) + 1;
  return run;
}

static Run *
record_preset (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", name, NULL);

  return record_file (path);
}

static guint
count_problems (SluiceRecording *recording)
{
  const char * const *problems = sluice_recording_get_problems (recording);

  return g_strv_length ((char **) problems);
}

static gboolean
has_problem (SluiceRecording *recording,
             const char      *needle)
{
  const char * const *problems = sluice_recording_get_problems (recording);

  for (guint i = 0; problems[i] != NULL; i++)
    if (strstr (problems[i], needle) != NULL)
      return TRUE;
  return FALSE;
}

static gboolean
has_run_end (SluiceRecorder *recorder)
{
  for (guint i = 0; i < sluice_recorder_get_n_events (recorder); i++)
    if (sluice_recorder_get_event (recorder, i)->kind == SLUICE_EVENT_RUN_END)
      return TRUE;
  return FALSE;
}

static void
print_problems (SluiceRecording *recording)
{
  const char * const *problems = sluice_recording_get_problems (recording);

  for (guint i = 0; problems[i] != NULL; i++)
    g_test_message ("problem: %s", problems[i]);
}

/* ---- round trip --------------------------------------------------------- */

/* Recorded, read back and written again: the same scenario, the same
 * event lines byte for byte. */
static void
assert_round_trip (const char *path)
{
  g_autoptr(Run) run = record_file (path);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *again = NULL;
  const char *difference = NULL;

  recording = sluice_recording_new_from_data (run->recording, run->length, "run.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  /* A run that deadlocked on the virtual clock never reached run-end: its
   * recording says so. */
  if (has_run_end (sluice_recording_get_recorder (recording)))
    g_assert_cmpuint (count_problems (recording), ==, 0);
  else
    g_assert_cmpuint (count_problems (recording), ==, 1);

  g_assert_cmpstr (sluice_recording_get_version (recording), ==, SLUICE_PACKAGE_VERSION);
  g_assert_cmpstr (sluice_recording_get_scenario_text (recording), ==, run->text);
  if (!_sluice_scenario_equal (run->scenario, sluice_recording_get_scenario (recording), &difference))
    g_error ("%s: the recorded scenario differs in %s", path, difference);

  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, run->n_events);
  again = events_text (sluice_recording_get_recorder (recording));
  g_assert_cmpstr (again, ==, run->events);
  g_assert_cmpstr (run->recording + run->header_end, ==, run->events);

  /* The report, as the run gave it, key by key and byte for byte. */
  if (run->report == NULL)
    g_assert_null (sluice_recording_get_report (recording));
  else
    {
      g_autofree char *report = json_to_string (sluice_recording_get_report (recording), TRUE);

      g_assert_cmpstr (report, ==, run->report);
    }
}

static void
round_trip_dir (const char *dir_path)
{
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);

      if (!g_str_has_suffix (name, ".pool"))
        continue;
      g_test_message ("%s", path);
      assert_round_trip (path);
      n++;
    }
  g_assert_cmpuint (n, >, 10);
}

static void
test_round_trip_presets (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", NULL);

  round_trip_dir (dir);
}

static void
test_round_trip_scenarios (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "scenarios", NULL);

  round_trip_dir (dir);
}

/* --set on the run: the recording holds the scenario that ran. */
static void
test_header_holds_the_scenario_as_it_ran (void)
{
  g_autoptr(Run) run = record_preset ("late.pool");

  /* record_file() ran late.pool (clock=real) with run.clock=virtual. */
  g_assert_nonnull (strstr (run->text, "clock=virtual"));
  g_assert_true (g_str_has_prefix (run->recording, "{\"sluicerun\":1,\"version\":\"" SLUICE_PACKAGE_VERSION
                                   "\",\"scenario\":\"[scenario]\\n"));
}

/* ---- damaged recordings ------------------------------------------------- */


/* The complete lines of @text (length @length), with the last one when
 * only its newline is missing. */
static guint
count_lines (const char *text,
             gsize       length,
             gsize      *end)
{
  guint n = 0;

  *end = 0;
  for (gsize i = 0; i < length; i++)
    if (text[i] == '\n')
      {
        n++;
        *end = i + 1;
      }
  if (length > 0 && length < strlen (text) && text[length] == '\n')
    {
      n++;
      *end = length + 1;
    }
  return n;
}

/* Cut every 300 bytes: the events before the cut are kept, the rest is a
 * problem, and nothing crashes. Cut in the first line: an error. */
static void
test_truncated_recordings_open_partly (void)
{
  g_autoptr(Run) run = record_preset ("retries.pool");
  const char *events = run->recording + run->header_end;
  guint n_cuts = 0;

  g_assert_cmpuint (run->length, >, 3000);
  for (gsize cut = 1; cut < run->length; cut += (cut < run->header_end ? 97 : 300), n_cuts++)
    {
      g_autoptr(SluiceRecording) recording = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *again = NULL;
      gsize end = 0;
      guint expected;

      recording = sluice_recording_new_from_data (run->recording, cut, "cut.sluicerun", &error);
      if (cut + 1 < run->header_end)
        {
          g_assert_null (recording);
          g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE);
          g_assert_true (g_str_has_prefix (error->message, "cut.sluicerun:1: "));
          continue;
        }
      g_assert_no_error (error);

      expected = count_lines (events, cut - MIN (cut, run->header_end), &end);
      g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, expected);
      again = events_text (sluice_recording_get_recorder (recording));
      g_assert_cmpuint (strlen (again), ==, end);
      g_assert_cmpint (strncmp (again, events, end), ==, 0);
      /* Results a caller reads late follow run-end: a cut among them
       * loses them, without a missing run-end. */
      g_assert_true (has_problem (recording, "cut.sluicerun: the recording ends after line") ==
                     !has_run_end (sluice_recording_get_recorder (recording)));
    }
  g_assert_cmpuint (n_cuts, >, 10);
}

/* Garbage in the middle: each bad line named with its number, every
 * good event kept. */
static void
test_garbage_lines_are_named_and_skipped (void)
{
  static const struct { const char *line; const char *problem; } garbage[] = {
    { "not json at all", "not a JSON object" },
    { "[1, 2, 3]", "not a JSON object" },
    { "{\"kind\":\"bogus\",\"time_us\":0}", "unknown event kind “bogus”" },
    { "{\"kind\":\"pull\"}", "has no “time_us”" },
    { "{\"time_us\":1}", "has no “kind”" },
    { "{\"kind\":\"pull\",\"time_us\":\"soon\"}", "“time_us”: expected an integer" },
    { "{\"kind\":\"attempt-end\",\"time_us\":1,\"outcome\":\"maybe\"}", "“outcome”: expected ok" },
    { "{\"kind\":\"pull\",\"time_us\":1,\"attempt\":-3}", "“attempt”: expected an integer from 1" },
    { "{\"kind\":\"pull\",\"time_us\":1,\"worker\":4294967296}", "“worker”: expected an integer" },
    { "{\"kind\":\"item-ok\",\"time_us\":1,\"value\":[1]}", "“value”: expected an integer or a string" },
    { "{\"kind\":\"item-ok\",\"time_us\":1,\"value\":1.5}", "“value”: expected an integer or a string" },
    { "{\"kind\":\"fatal\",\"time_us\":1,\"error_type\":null}", "“error_type”: expected a string" },
    { "{\"kind\":\"pull\",\"time_us\":1,\"retried\":1}", "“retried”: expected true or false" },
    { "\xff\xfe{}", "not a JSON object" },
    { "{\"kind\":\"pull\",", "not a JSON object" },
    /* json-glib 1.6 takes the first and leaks the second (found by fuzzing). */
    { "{\"kind\":\"pull\",\"time_us\":1}{\"kind\":\"pull\",\"time_us\":2}", "not a JSON object" },
  };
  g_autoptr(Run) run = record_preset ("first-look.pool");
  g_autoptr(GString) text = g_string_new_len (run->recording, (gssize) run->header_end);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *again = NULL;
  g_auto(GStrv) lines = g_strsplit (run->events, "\n", -1);
  guint line = 1;

  /* An event line, a garbage line, …; a blank line is nothing. */
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_string_append_printf (text, "%s\n", lines[i]);
      line++;
      if (i < G_N_ELEMENTS (garbage))
        {
          g_autofree char *problem = g_strdup_printf ("bad.sluicerun:%u: ", ++line);

          g_string_append_printf (text, "%s\n", garbage[i].line);
          recording = sluice_recording_new_from_data (text->str, text->len, "bad.sluicerun", &error);
          g_assert_no_error (error);
          g_assert_true (has_problem (recording, problem));
          g_assert_true (has_problem (recording, garbage[i].problem));
          g_clear_object (&recording);
        }
    }
  g_assert_cmpuint (g_strv_length (lines), >, G_N_ELEMENTS (garbage) + 1);
  g_string_append (text, "\n  \n");
  /* A NUL in a line. */
  g_string_insert_len (text, (gssize) run->header_end, "{\"kind\":\0\"pull\"}\n", 17);

  recording = sluice_recording_new_from_data (text->str, text->len, "bad.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  g_assert_cmpuint (count_problems (recording), ==, G_N_ELEMENTS (garbage) + 1);
  g_assert_true (has_problem (recording, "bad.sluicerun:2: not a JSON object"));
  g_assert_false (has_problem (recording, "truncated"));
  again = events_text (sluice_recording_get_recorder (recording));
  g_assert_cmpstr (again, ==, run->events);
}

/* A key a newer writer may add is ignored, and named once. */
static void
test_unknown_keys_are_named_once (void)
{
  g_autoptr(Run) run = record_preset ("first-look.pool");
  g_autoptr(GString) text = g_string_new_len (run->recording, (gssize) run->header_end);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  g_string_append (text, "{\"kind\":\"run-start\",\"time_us\":0,\"colour\":\"red\"}\n");
  g_string_append (text, "{\"kind\":\"run-end\",\"time_us\":5,\"colour\":\"blue\"}\n");
  recording = sluice_recording_new_from_data (text->str, text->len, "new.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  g_assert_cmpuint (count_problems (recording), ==, 1);
  g_assert_true (has_problem (recording, "new.sluicerun:2: unknown key “colour”"));
  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, 2);
}

static void
assert_refused (const char *text,
                gssize      length,
                gint        code,
                const char *message)
{
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_data (text, length < 0 ? strlen (text) : (gsize) length,
                                              "head.sluicerun", &error);
  g_assert_null (recording);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, "head.sluicerun"));
  g_assert_nonnull (strstr (error->message, message));
}

#define SCENARIO "[pool]\\nworkers=1\\nqueue-size=1\\nitem-timeout=1\\n"

static void
test_bad_headers_are_errors (void)
{
  assert_refused ("", 0, SLUICE_SCENARIO_ERROR_PARSE, "head.sluicerun: the file is empty");
  assert_refused ("\n", 1, SLUICE_SCENARIO_ERROR_PARSE, ":1: not a Sluice recording: the line is not");
  assert_refused ("{\"kind\":\"run-start\",\"time_us\":0}\n", -1, SLUICE_SCENARIO_ERROR_PARSE,
                  ":1: not a Sluice recording: it has no “sluicerun”");
  assert_refused ("[pool]\nworkers=1\n", -1, SLUICE_SCENARIO_ERROR_PARSE, ":1: not a Sluice recording");
  assert_refused ("{\"sluicerun\":2,\"version\":\"9\",\"scenario\":\"" SCENARIO "\"}\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, ":1: the recording is in format 2");
  assert_refused ("{\"sluicerun\":\"1\",\"version\":\"9\",\"scenario\":\"" SCENARIO "\"}\n", -1,
                  SLUICE_SCENARIO_ERROR_PARSE, "“sluicerun”");
  assert_refused ("{\"sluicerun\":1,\"scenario\":\"" SCENARIO "\"}\n", -1,
                  SLUICE_SCENARIO_ERROR_PARSE, "no “version”");
  assert_refused ("{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"[pool]\\nworkers=0\\nqueue-size=1\\nitem-timeout=1\\n\"}\n", -1,
                  SLUICE_SCENARIO_ERROR_INVALID_VALUE, ":1: the recorded scenario is not valid: head.sluicerun:");
}

/* A valid header alone: a recording of nothing, said to be cut short. */
static void
test_header_alone_is_truncated (void)
{
  static const char text[] = "{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"" SCENARIO "\"}";
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_data (text, strlen (text), "head.sluicerun", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_problems (recording), ==, 1);
  g_assert_true (has_problem (recording, "head.sluicerun: the recording ends after line 1 without a "
                                         "run-end event (truncated?)"));
  g_assert_cmpint (sluice_scenario_get_workers (sluice_recording_get_scenario (recording)), ==, 1);
}

/* ---- the report --------------------------------------------------------- */

/* A recording written without a report (as the spec's header has none)
 * reads whole, and has none. */
static void
test_report_is_optional (void)
{
  static const char text[] = "{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"" SCENARIO "\"}\n"
                             "{\"kind\":\"run-end\",\"time_us\":0}\n";
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_data (text, strlen (text), "plain.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  g_assert_cmpuint (count_problems (recording), ==, 0);
  g_assert_null (sluice_recording_get_report (recording));
}

/* A "report" that is not an object is a problem, and the rest reads. */
static void
test_report_not_an_object_is_a_problem (void)
{
  static const char text[] = "{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"" SCENARIO "\",\"report\":[1]}\n"
                             "{\"kind\":\"run-end\",\"time_us\":0}\n";
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_data (text, strlen (text), "odd.sluicerun", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_problems (recording), ==, 1);
  g_assert_true (has_problem (recording, "odd.sluicerun:1: \"report\" is not a JSON object"));
  g_assert_null (sluice_recording_get_report (recording));
  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, 1);
}

/* A run on the real clock (block, thread) cannot be run again to the same
 * events: its recording carries its report, and a recording cut short
 * still has it. */
static void
test_real_clock_recording_keeps_its_report (void)
{
  g_autoptr(Run) run = record_preset ("block.pool");
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *report = NULL;

  g_assert_true (sluice_scenario_needs_real_time (run->scenario));
  g_assert_nonnull (run->report);
  /* The header and the first event only. */
  recording = sluice_recording_new_from_data (run->recording, run->header_end + 10, "cut.sluicerun", &error);
  g_assert_no_error (error);
  g_assert_nonnull (sluice_recording_get_report (recording));
  report = json_to_string (sluice_recording_get_report (recording), TRUE);
  g_assert_cmpstr (report, ==, run->report);
}

/* ---- limits ------------------------------------------------------------- */

/* `{"x":` @depth - 1 times, then `[0]`, then as many `}`: @depth levels. */
static char *
deep_object (guint depth)
{
  GString *text = g_string_new (NULL);

  for (guint i = 1; i < depth; i++)
    g_string_append (text, "{\"x\":");
  g_string_append (text, "[0]");
  for (guint i = 1; i < depth; i++)
    g_string_append_c (text, '}');
  return g_string_free (text, FALSE);
}

/* A first line nested 200,000 deep overflowed json-glib's recursion and
 * killed the program that opened it: it is refused, saying where, and so
 * is such a file. */
static void
test_too_deep_header_is_refused (void)
{
  g_autofree char *report = deep_object (200000);
  g_autofree char *text = g_strdup_printf ("{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"" SCENARIO "\","
                                           "\"report\":%s}\n{\"kind\":\"run-end\",\"time_us\":0}\n", report);
  g_autofree char *dir = g_dir_make_tmp ("sluice-recording-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "deep.sluicerun", NULL);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  assert_refused (text, -1, SLUICE_SCENARIO_ERROR_PARSE,
                  "head.sluicerun:1: not a Sluice recording: the JSON text nests arrays and objects deeper "
                  "than 64 levels (at byte ");

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  recording = sluice_recording_new_from_file (path, &error);
  g_assert_null (recording);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "deeper than 64 levels"));
  g_unlink (path);
  g_rmdir (dir);
}

/* An event line nested too deep is a problem like any bad line: skipped,
 * named, and the rest reads. */
static void
test_too_deep_event_is_skipped (void)
{
  g_autofree char *deep = deep_object (200000);
  g_autofree char *text = g_strdup_printf ("{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"" SCENARIO "\"}\n"
                                           "{\"kind\":\"run-start\",\"time_us\":0,\"value\":%s}\n"
                                           "{\"kind\":\"run-end\",\"time_us\":5}\n", deep);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_data (text, strlen (text), "deep.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  g_assert_cmpuint (count_problems (recording), ==, 1);
  g_assert_true (has_problem (recording, "deep.sluicerun:2: the JSON text nests arrays and objects deeper than "
                                         "64 levels (at byte "));
  g_assert_true (has_problem (recording, "; the line is skipped"));
  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, 1);
}

/* A header nested exactly 64 deep (the line's object, the report and 62
 * more) opens, with its report. */
static void
test_header_at_the_depth_limit_opens (void)
{
  g_autofree char *report = deep_object (63);
  g_autofree char *text = g_strdup_printf ("{\"sluicerun\":1,\"version\":\"0\",\"scenario\":\"" SCENARIO "\","
                                           "\"report\":%s}\n{\"kind\":\"run-end\",\"time_us\":0}\n", report);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_data (text, strlen (text), "deep.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  g_assert_cmpuint (count_problems (recording), ==, 0);
  g_assert_nonnull (sluice_recording_get_report (recording));
}

static void
test_size_limit_reads_what_fits (void)
{
  g_autoptr(Run) run = record_preset ("retries.pool");
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  gsize limit = run->header_end + 1000, end = 0;
  guint expected = count_lines (run->recording + run->header_end, 1000, &end);

  recording = _sluice_recording_new_from_data_limited (run->recording, run->length, "big.sluicerun", limit, &error);
  g_assert_no_error (error);
  g_assert_true (has_problem (recording, "big.sluicerun: the recording is larger than the limit of"));
  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, expected);
}

static void
test_long_line_is_skipped (void)
{
  g_autoptr(Run) run = record_preset ("first-look.pool");
  g_autoptr(GString) text = g_string_new_len (run->recording, (gssize) run->header_end);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *again = NULL;
  const char *second = strchr (run->events, '\n') + 1;

  /* The first event, a line of 8 MiB + 1, the rest. */
  g_string_append_len (text, run->events, second - run->events);
  for (gsize i = 0; i <= SLUICE_RECORDING_MAX_LINE; i += 8)
    g_string_append (text, "garbage ");
  g_string_append_printf (text, "\n%s", second);

  recording = sluice_recording_new_from_data (text->str, text->len, "long.sluicerun", &error);
  g_assert_no_error (error);
  print_problems (recording);
  g_assert_cmpuint (count_problems (recording), ==, 1);
  g_assert_true (has_problem (recording, "long.sluicerun:3: the line is longer than the limit of 8.0"));
  again = events_text (sluice_recording_get_recorder (recording));
  g_assert_cmpstr (again, ==, run->events);

  /* A first line longer than the scenario and the report may make it:
   * not a recording. */
  {
    g_autoptr(GString) header = g_string_new (NULL);

    for (gsize i = 0; i <= SLUICE_RECORDING_MAX_HEADER; i += 8)
      g_string_append (header, "garbage ");
    g_string_append (header, "\n");
    assert_refused (header->str, -1, SLUICE_SCENARIO_ERROR_IO, ":1: the first line is longer than the limit of 32.0");
  }
}

static void
test_too_many_problems_are_counted (void)
{
  g_autoptr(Run) run = record_preset ("first-look.pool");
  g_autoptr(GString) text = g_string_new_len (run->recording, (gssize) run->header_end);
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < SLUICE_RECORDING_MAX_PROBLEMS + 50; i++)
    g_string_append (text, "x\n");
  g_string_append (text, run->events);
  recording = sluice_recording_new_from_data (text->str, text->len, "many.sluicerun", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_problems (recording), ==, SLUICE_RECORDING_MAX_PROBLEMS + 1);
  g_assert_true (has_problem (recording, "… and 50 more problems"));
  g_assert_cmpuint (sluice_recorder_get_n_events (sluice_recording_get_recorder (recording)), ==, run->n_events);
}

/* ---- files -------------------------------------------------------------- */

static void
test_file_round_trip (void)
{
  g_autoptr(Run) run = record_preset ("mix.pool");
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("sluice-recording-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "mix.sluicerun", NULL);
  g_autofree char *saved = NULL;
  gsize length = 0;

  g_assert_true (g_file_set_contents (path, run->recording, (gssize) run->length, &error));
  recording = sluice_recording_new_from_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_recording_get_name (recording), ==, path);
  g_assert_cmpuint (count_problems (recording), ==, 0);

  /* Saved again: the same file. */
  g_assert_true (sluice_recording_save (sluice_recording_get_scenario_text (recording),
                                        sluice_recording_get_report (recording),
                                        sluice_recording_get_recorder (recording), path, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &saved, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (saved, length, run->recording, run->length);

  g_unlink (path);
  g_rmdir (dir);
}

static void
assert_file_refused (const char *path,
                     const char *message)
{
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(GError) error = NULL;

  recording = sluice_recording_new_from_file (path, &error);
  g_assert_null (recording);
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, message));
}

static void
test_unreadable_files_are_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sluice-recording-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "run.sluicerun", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.sluicerun", NULL);

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* Nobody writes to the FIFO: opening it to read would block for ever. */
  assert_file_refused (fifo, "not a regular file");
  assert_file_refused (dir, "not a regular file");
  assert_file_refused (missing, "cannot read the recording");
  g_unlink (fifo);
  g_rmdir (dir);
}

static void
on_replayed (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* The report of a recording, from its scenario run again on the virtual
 * clock (waiting on the default main context). */
static SluiceReport *
replay (SluiceRecording  *recording,
        GError          **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  sluice_recording_replay_async (recording, NULL, on_replayed, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return sluice_recording_replay_finish (recording, result, error);
}

/* Every preset recorded on the virtual clock gives back the very report
 * of its run; one whose handler takes real time says it cannot. */
static void
test_replay_gives_the_recorded_runs_report (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", NULL);
  g_autoptr(GDir) presets = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_reports = 0, n_refused = 0;

  g_assert_nonnull (presets);
  while ((name = g_dir_read_name (presets)) != NULL)
    {
      g_autoptr(Run) run = NULL;
      g_autoptr(SluiceRecording) recording = NULL;
      g_autoptr(SluiceReport) report = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_str_has_suffix (name, ".pool"))
        continue;
      run = record_preset (name);
      recording = sluice_recording_new_from_data (run->recording, run->length, name, &error);
      g_assert_no_error (error);
      report = replay (recording, &error);
      if (sluice_scenario_needs_real_time (run->scenario))
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
          g_assert_nonnull (strstr (error->message, name));
          n_refused++;
          continue;
        }
      g_assert_no_error (error);
      {
        g_autofree char *json = sluice_report_to_json_string (report, TRUE);

        g_assert_cmpstr (json, ==, run->report);
      }
      n_reports++;
    }
  g_assert_cmpuint (n_reports, >, 20);
  g_assert_cmpuint (n_refused, >=, 2);
}

/* A recording whose events are not what its scenario gives (one event
 * left out) gets no report, and the message says from which event on. */
static void
test_replay_refuses_other_events (void)
{
  g_autoptr(Run) run = record_preset ("first-look.pool");
  g_autoptr(SluiceRecording) recording = NULL;
  g_autoptr(SluiceReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new_len (run->recording, (gssize) run->length);

  /* Without its second event (the first pull). */
  {
    const char *second = strchr (text->str + run->header_end, '\n') + 1;
    const char *third = strchr (second, '\n') + 1;

    g_string_erase (text, second - text->str, third - second);
  }
  recording = sluice_recording_new_from_data (text->str, text->len, "changed.sluicerun", &error);
  g_assert_no_error (error);
  report = replay (recording, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "changed.sluicerun"));
  g_assert_nonnull (strstr (error->message, "event 2 on"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/recording/round-trip/presets", test_round_trip_presets);
  g_test_add_func ("/recording/round-trip/scenarios", test_round_trip_scenarios);
  g_test_add_func ("/recording/round-trip/header-holds-the-scenario-as-it-ran",
                   test_header_holds_the_scenario_as_it_ran);
  g_test_add_func ("/recording/round-trip/file", test_file_round_trip);
  g_test_add_func ("/recording/report/is-optional", test_report_is_optional);
  g_test_add_func ("/recording/report/not-an-object-is-a-problem", test_report_not_an_object_is_a_problem);
  g_test_add_func ("/recording/report/real-clock-recording-keeps-it", test_real_clock_recording_keeps_its_report);
  g_test_add_func ("/recording/replay/gives-the-recorded-runs-report", test_replay_gives_the_recorded_runs_report);
  g_test_add_func ("/recording/replay/refuses-other-events", test_replay_refuses_other_events);
  g_test_add_func ("/recording/damaged/truncated-open-partly", test_truncated_recordings_open_partly);
  g_test_add_func ("/recording/damaged/garbage-lines-named-and-skipped", test_garbage_lines_are_named_and_skipped);
  g_test_add_func ("/recording/damaged/unknown-keys-named-once", test_unknown_keys_are_named_once);
  g_test_add_func ("/recording/damaged/header-alone-is-truncated", test_header_alone_is_truncated);
  g_test_add_func ("/recording/errors/bad-headers", test_bad_headers_are_errors);
  g_test_add_func ("/recording/errors/unreadable-files", test_unreadable_files_are_errors);
  g_test_add_func ("/recording/limits/size", test_size_limit_reads_what_fits);
  g_test_add_func ("/recording/limits/long-line", test_long_line_is_skipped);
  g_test_add_func ("/recording/limits/problems", test_too_many_problems_are_counted);
  g_test_add_func ("/recording/limits/too-deep-header-is-refused", test_too_deep_header_is_refused);
  g_test_add_func ("/recording/limits/too-deep-event-is-skipped", test_too_deep_event_is_skipped);
  g_test_add_func ("/recording/limits/header-at-the-depth-limit-opens", test_header_at_the_depth_limit_opens);

  return g_test_run ();
}
