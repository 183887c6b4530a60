/* test-cli.c: sluice-run as a program: exit statuses, arguments, output
 * failures and signals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every case runs $SLUICE_RUN in a subprocess. A case that signals it waits
 * for a line sluice-run prints (its start, its stop), never for a sleep.
 */

#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-fixture.h"

#define MINIMAL "[pool]\nworkers=2\nqueue-size=2\nitem-timeout=1\n"
#define VIRTUAL "[run]\nclock=virtual\n"

/* ---- running sluice-run ------------------------------------------------ */

typedef struct {
  GSubprocessLauncher *launcher;
  GSubprocess         *process;
  GDataInputStream    *err_lines;  /* standard error, when read line by line */
  char                *scenario;   /* the temporary scenario file */
} Cli;

static void
cli_free (Cli *cli)
{
  g_clear_object (&cli->err_lines);
  g_clear_object (&cli->process);
  g_clear_object (&cli->launcher);
  if (cli->scenario != NULL)
    g_unlink (cli->scenario);
  g_free (cli->scenario);
  g_free (cli);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Cli, cli_free)

static Cli *
cli_new (GSubprocessFlags flags)
{
  Cli *cli = g_new0 (Cli, 1);

  cli->launcher = g_subprocess_launcher_new (flags);
  return cli;
}

/* Starts sluice-run on @text (written to a temporary file, or used as the
 * path when @text starts with '/') with the arguments that follow, up to
 * NULL. */
static void
cli_spawn (Cli        *cli,
           const char *text,
           ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *arg;
  va_list args;

  if (text[0] != '/')
    cli->scenario = write_temp (text);

  g_ptr_array_add (argv, (gpointer) sluice_run_path ());
  g_ptr_array_add (argv, cli->scenario != NULL ? cli->scenario : (gpointer) text);
  va_start (args, text);
  while ((arg = va_arg (args, const char *)) != NULL)
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  cli->process = g_subprocess_launcher_spawnv (cli->launcher,
                                               (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
}

/* Reads standard error until a line that contains @needle; fails if the
 * process closes it first. */
static void
cli_wait_for_line (Cli        *cli,
                   const char *needle)
{
  if (cli->err_lines == NULL)
    cli->err_lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (cli->process));
  sluice_test_wait_for_line (cli->err_lines, needle, "sluice-run");
}

static char *
read_all (GInputStream *stream)
{
  g_autoptr(GOutputStream) sink = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  GMemoryOutputStream *memory = G_MEMORY_OUTPUT_STREAM (sink);

  g_output_stream_splice (sink, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_strndup (g_memory_output_stream_get_data (memory),
                    g_memory_output_stream_get_data_size (memory));
}

/* Waits for the process and gives its exit status; @out and @err get what
 * is left on its pipes (those it was given). */
static gint
cli_finish (Cli   *cli,
            char **out,
            char **err)
{
  g_autoptr(GError) error = NULL;

  if (cli->err_lines != NULL)
    {
      /* Standard error is read line by line, and holds a few lines more
       * at most: read standard output to its end first. */
      g_autofree char *out_text = read_all (g_subprocess_get_stdout_pipe (cli->process));
      g_autofree char *err_text = read_all (G_INPUT_STREAM (cli->err_lines));

      if (out != NULL)
        *out = g_steal_pointer (&out_text);
      if (err != NULL)
        *err = g_steal_pointer (&err_text);
    }
  else
    {
      g_subprocess_communicate_utf8 (cli->process, NULL, NULL, out, err, &error);
      g_assert_no_error (error);
    }

  g_subprocess_wait (cli->process, NULL, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (cli->process))
    g_error ("sluice-run did not exit: killed by signal %d", g_subprocess_get_term_sig (cli->process));
  return g_subprocess_get_exit_status (cli->process);
}

#define PIPES (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE)

/* Runs @text with the arguments that follow (up to NULL) and asserts the
 * exit status, an empty standard output, and a standard error that holds
 * @message. */
#define assert_refused(status, message, text, ...) \
  G_STMT_START { \
    g_autoptr(Cli) cli_ = cli_new (PIPES); \
    g_autofree char *out_ = NULL, *err_ = NULL; \
    cli_spawn (cli_, text, __VA_ARGS__); \
    g_assert_cmpint (cli_finish (cli_, &out_, &err_), ==, status); \
    g_test_message ("%s", err_); \
    g_assert_cmpstr (out_, ==, ""); \
    g_assert_nonnull (strstr (err_, message)); \
  } G_STMT_END

/* ---- arguments --------------------------------------------------------- */

static void
test_set_with_bad_group_or_key_name_exits_2 (void)
{
  static const char *bad[] = {
    "--set=pool. =3", "--set=po[ol.workers=3", "--set=pool.wor]kers=3",
    "--set=pool.=3", "--set=.workers=3", "--set=pool.workers", "--set=pool.work ers=3",
    "--set=pool.workers=3\n[x]",
  };

  if (sluice_run_path () == NULL)
    return;

  /* G_DEBUG=fatal-criticals (from the test environment) turns the GLib
   * critical these once caused into a SIGTRAP. */
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    assert_refused (2, "expected group.key=value", MINIMAL VIRTUAL, bad[i], NULL);
}

static void
test_set_with_spaces_around_names_still_applies (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, MINIMAL "[source]\ncount=2\n" VIRTUAL, "--json", "--set= source . count = 5", NULL);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);
  report = parse_report (out);
  g_assert_cmpint (json_object_get_int_member (report, "pulled"), ==, 5);
}

/* ---- lessons ----------------------------------------------------------- */

#define LESSON \
  "[pool]\nworkers=3\nqueue-size=3\nitem-timeout=1\n" \
  "[source]\ncount=3\n" \
  "[handler]\nitem.0=ok 0.3\nitem.1=ok 0.2\nitem.2=ok 0.1\n" \
  "[lesson]\norder=1\nquestion=In what order do they print?\n" \
  "choices=0, 1, 4;4, 1, 0;It changes\nanswer=2\nreveal=result_order=[4,1,0]\n" \
  "moment=0.1 item 2\nexplain=The calls overlap.\n"

/* A lesson asks first, runs, then gives the answer, whether this run
 * showed it, and why. */
static void
test_lesson_asks_runs_and_reveals (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  const char *question, *summary, *answer;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, LESSON VIRTUAL, NULL);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);
  question = strstr (out, "In what order do they print?\n  1. 0, 1, 4\n  2. 4, 1, 0\n  3. It changes\n");
  summary = strstr (out, "results     3 yielded in this order: 4, 1, 0");
  answer = strstr (out, "Answer: 2. 4, 1, 0\nThis run showed it: result_order=[4,1,0]\nThe calls overlap.\n");
  g_assert_nonnull (strstr (out, "Lesson 1: "));
  g_assert_nonnull (question);
  g_assert_nonnull (summary);
  g_assert_nonnull (answer);
  g_assert_true (question < summary && summary < answer);
}

/* A reveal value nested 200,000 deep overflowed json-glib's recursion and
 * killed sluice-run: it is a scenario error, exit 2, before the run. */
static void
test_lesson_too_deep_reveal_exits_2 (void)
{
  g_autoptr(GString) text = g_string_new (LESSON VIRTUAL);
  g_autoptr(GString) reveal = g_string_new ("reveal=results=");

  if (sluice_run_path () == NULL)
    return;

  for (guint i = 0; i < 200000; i++)
    g_string_append_c (reveal, '[');
  g_string_append_c (reveal, '0');
  for (guint i = 0; i < 200000; i++)
    g_string_append_c (reveal, ']');
  g_assert_cmpuint (g_string_replace (text, "reveal=result_order=[4,1,0]", reveal->str, 1), ==, 1);

  assert_refused (2, "[lesson] reveal: the value of “results” is refused: the JSON text nests arrays and "
                     "objects deeper than 64 levels (at byte 65)", text->str, "--json", NULL);
}

/* With --json standard output is the report alone, ending with `lesson`;
 * the question and the reveal go to standard error. */
static void
test_lesson_json_ends_with_lesson (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonObject *lesson;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, LESSON VIRTUAL, "--json", "--set=handler.item.2=ok 0.5", NULL);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);
  report = parse_report (out);
  lesson = json_object_get_object_member (report, "lesson");
  g_assert_nonnull (lesson);
  g_assert_cmpint (json_object_get_int_member (lesson, "answer"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (lesson, "reveal"), ==, "result_order=[4,1,0]");
  /* Item 2 now takes the longest: this run did not show the answer. */
  g_assert_false (json_object_get_boolean_member (lesson, "held"));
  g_assert_nonnull (strstr (err, "In what order do they print?"));
  g_assert_nonnull (strstr (err, "This run did not show it: result_order=[1,0,4], where the lesson expects "
                                 "result_order=[4,1,0]\n"));
}

/* ---- input that cannot be read ----------------------------------------- */

static void
test_endless_file_is_refused (void)
{
  if (sluice_run_path () == NULL)
    return;

  /* Once read whole: gigabytes before any error. */
  assert_refused (2, "/dev/zero", "/dev/zero", "--json", NULL);
}

static void
test_fifo_is_refused_without_blocking (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sluice-cli-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "scenario.pool", NULL);

  if (sluice_run_path () == NULL)
    return;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* Nobody ever writes to the FIFO: opening it to read would block for
   * ever, and so would this test. */
  assert_refused (2, "scenario.pool", fifo, "--json", NULL);
  g_unlink (fifo);
  g_rmdir (dir);
}

/* A key written twice is refused before the run, naming both lines: the
 * second as the place, the first in the message. */
static void
test_repeated_key_names_both_lines (void)
{
  if (sluice_run_path () == NULL)
    return;

  assert_refused (2, ".pool:5: [pool] workers: the key is already set at line 2",
                  MINIMAL "workers=3\n", "--json", NULL);
  assert_refused (2, ".pool:6: [pool]: the group is already at line 1",
                  MINIMAL "[source]\n[pool]\nmax-retries=1\n", "--json", NULL);
}

/* ---- output that cannot be written ------------------------------------- */

static void
test_unwritable_events_path_exits_before_the_run (void)
{
  if (sluice_run_path () == NULL)
    return;

  /* A hanging source with no stop would never end: the error must come
   * before the run starts. */
  assert_refused (2, "/nonexistent-dir/events.jsonl",
                  MINIMAL "[source]\ncount=4\nhang-after=1\n",
                  "--json", "--events", "/nonexistent-dir/events.jsonl", NULL);
}

static void
test_report_to_full_disk_exits_1 (void)
{
  g_autoptr(Cli) cli = cli_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *err = NULL;

  if (sluice_run_path () == NULL)
    return;

  g_subprocess_launcher_set_stdout_file_path (cli->launcher, "/dev/full");
  cli_spawn (cli, MINIMAL VIRTUAL, "--json", NULL);
  g_assert_cmpint (cli_finish (cli, NULL, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "cannot write the report"));
}

static void
close_stdout (gpointer user_data)
{
  close (STDOUT_FILENO);
}

/* Runs a scenario with standard output closed and the arguments @option
 * and @value (or none): it exits 1, saying @message. */
static void
assert_closed_stdout_exits_1 (const char *option,
                              const char *value,
                              const char *message)
{
  g_autoptr(Cli) cli = cli_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *err = NULL;

  if (sluice_run_path () == NULL)
    return;

  g_subprocess_launcher_set_child_setup (cli->launcher, close_stdout, NULL, NULL);
  cli_spawn (cli, MINIMAL VIRTUAL, option, value, NULL);
  g_assert_cmpint (cli_finish (cli, NULL, &err), ==, 1);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, message));
}

static void
test_closed_stdout_exits_1 (void)
{
  assert_closed_stdout_exits_1 ("--json", NULL, "standard output");
}

/* ---- files written whole or not at all --------------------------------- */

/* A run that never ends by itself: the source hangs after one item. */
#define ENDLESS MINIMAL "[source]\ncount=4\nhang-after=1\n"

typedef struct {
  char *dir;
  char *events;
  char *record;
} OutputFiles;

static void
output_files_init (OutputFiles *files)
{
  g_autoptr(GError) error = NULL;

  files->dir = g_dir_make_tmp ("sluice-cli-XXXXXX", &error);
  g_assert_no_error (error);
  files->events = g_build_filename (files->dir, "run.jsonl", NULL);
  files->record = g_build_filename (files->dir, "run.sluicerun", NULL);
}

static void
output_files_clear (OutputFiles *files)
{
  g_autoptr(GDir) dir = g_dir_open (files->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (files->dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (files->dir);
  g_free (files->dir);
  g_free (files->events);
  g_free (files->record);
}

static void
assert_exists (const char *path,
               gboolean    exists)
{
  if (g_file_test (path, G_FILE_TEST_EXISTS) != exists)
    g_error ("%s %s", path, exists ? "does not exist" : "exists");
}

static char *
part_of (const char *path)
{
  return g_strconcat (path, ".part", NULL);
}

/* Starts an endless run with --events and --record into @files, waits
 * until it runs (both files are open then) and kills it with SIGKILL. */
static void
kill_a_writing_run (OutputFiles *files)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autoptr(GError) error = NULL;

  cli_spawn (cli, ENDLESS, "--json", "--events", files->events, "--record", files->record, NULL);
  cli_wait_for_line (cli, "sluice-run: running");

  g_subprocess_force_exit (cli->process);
  g_subprocess_wait (cli->process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (cli->process));
  g_assert_cmpint (g_subprocess_get_term_sig (cli->process), ==, SIGKILL);
}

/* What a killed run was writing stays under FILE.part (the next run
 * replaces it). */
static void
assert_parts_left (OutputFiles *files)
{
  g_autofree char *events_part = part_of (files->events);
  g_autofree char *record_part = part_of (files->record);

  assert_exists (events_part, TRUE);
  assert_exists (record_part, TRUE);
}

/* sluice-run killed while its --events and --record files are open
 * leaves nothing under their names: an empty or cut file there would
 * look like a run's whole output. */
static void
test_killed_run_leaves_no_file_under_the_name (void)
{
  OutputFiles files;

  if (sluice_run_path () == NULL)
    return;

  output_files_init (&files);
  kill_a_writing_run (&files);
  assert_exists (files.events, FALSE);
  assert_exists (files.record, FALSE);
  assert_parts_left (&files);
  output_files_clear (&files);
}

/* ... and a file already there from an earlier run stays as it was. */
static void
test_killed_run_keeps_the_previous_file (void)
{
  static const char previous[] = "the previous run's whole file\n";
  g_autofree char *events_text = NULL, *record_text = NULL;
  g_autoptr(GError) error = NULL;
  OutputFiles files;

  if (sluice_run_path () == NULL)
    return;

  output_files_init (&files);
  g_file_set_contents (files.events, previous, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (files.record, previous, -1, &error);
  g_assert_no_error (error);

  kill_a_writing_run (&files);
  g_file_get_contents (files.events, &events_text, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (files.record, &record_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (events_text, ==, previous);
  g_assert_cmpstr (record_text, ==, previous);
  assert_parts_left (&files);
  output_files_clear (&files);
}

/* A run stopped by SIGTERM still writes its report, its events and its
 * recording whole, under their names, and no FILE.part stays. */
static void
test_stopped_run_renames_its_files (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL, *events_text = NULL, *record_text = NULL;
  g_autofree char *events_part = NULL, *record_part = NULL;
  g_autoptr(GError) error = NULL;
  OutputFiles files;

  if (sluice_run_path () == NULL)
    return;

  output_files_init (&files);
  events_part = part_of (files.events);
  record_part = part_of (files.record);
  cli_spawn (cli, ENDLESS, "--json", "--events", files.events, "--record", files.record, NULL);
  cli_wait_for_line (cli, "sluice-run: running");
  g_subprocess_send_signal (cli->process, SIGTERM);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  assert_exists (events_part, FALSE);
  assert_exists (record_part, FALSE);
  g_file_get_contents (files.events, &events_text, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (files.record, &record_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (events_text, "{\"kind\":\"run-start\""));
  g_assert_nonnull (strstr (events_text, "\"kind\":\"run-end\""));
  g_assert_true (g_str_has_suffix (events_text, "}\n"));
  g_assert_true (g_str_has_prefix (record_text, "{\"sluicerun\":1,"));
  /* The recording is its header, then the very lines of --events. */
  g_assert_true (g_str_has_suffix (record_text, events_text));
  output_files_clear (&files);
}

/* ---- signals ----------------------------------------------------------- */

static void
test_first_signal_drains_the_run (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;
  gint64 pulled, results;

  if (sluice_run_path () == NULL)
    return;

  /* Real time: the source hangs after two items until the pool stops. */
  cli_spawn (cli, MINIMAL "[source]\ncount=4\nhang-after=2\n", "--json", NULL);
  cli_wait_for_line (cli, "sluice-run: running");
  g_subprocess_send_signal (cli->process, SIGTERM);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  report = parse_report (out);
  pulled = json_object_get_int_member (report, "pulled");
  results = json_array_get_length (json_object_get_array_member (report, "results"));
  g_assert_cmpstr (json_object_get_string_member (report, "outcome"), ==, "ok");
  /* The signal may come before the source hangs: an item pulled but not
   * yet queued then stays unfinished. Every other item drained (a
   * cancellation would have ended the run CancelledError). */
  g_assert_cmpint (pulled, <=, 2);
  g_assert_cmpint (results + json_object_get_int_member (report, "unfinished"), ==, pulled);
  g_assert_cmpint (json_object_get_int_member (report, "live_operations"), ==, 0);
}

static void
test_second_signal_cancels_the_run (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;

  if (sluice_run_path () == NULL)
    return;

  /* Hanging handlers never drain: only the second signal ends the run. */
  cli_spawn (cli, MINIMAL "[source]\ncount=4\n[handler]\ndefault=hang\n", "--json", NULL);
  cli_wait_for_line (cli, "sluice-run: running");
  g_subprocess_send_signal (cli->process, SIGINT);
  cli_wait_for_line (cli, "sluice-run: stopping");
  g_subprocess_send_signal (cli->process, SIGINT);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  report = parse_report (out);
  g_assert_cmpstr (json_object_get_string_member (report, "outcome"), ==, "CancelledError");
  g_assert_cmpint (json_object_get_int_member (report, "unfinished"), ==,
                   json_object_get_int_member (report, "pulled"));
  g_assert_cmpint (json_object_get_int_member (report, "live_operations"), ==, 0);
}

/* A service run that would wait for its close a long time: SIGTERM closes
 * it, the queued and running jobs finish within the deadline. */
#define SERVICE "[run]\nmode=submit\n[submit]\nclose-after-seconds=600\n"

static void
test_signal_drains_a_service (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonObject *jobs, *shutdown;
  guint admitted;
  gint64 refused;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, "[pool]\nworkers=1\nqueue-size=2\nitem-timeout=5\nshutdown-timeout=30\n"
             "[source]\ncount=3\n[handler]\ndefault=ok 0.1\n" SERVICE, "--json", NULL);
  cli_wait_for_line (cli, "sluice-run: running");
  g_subprocess_send_signal (cli->process, SIGTERM);
  cli_wait_for_line (cli, "closing the service");
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  report = parse_report (out);
  g_assert_cmpstr (json_object_get_string_member (report, "outcome"), ==, "ok");
  g_assert_cmpstr (json_object_get_string_member (report, "mode"), ==, "submit");
  /* The signal may come before the submitter has offered every item: those
   * are refused. Every job admitted drains to its result. */
  jobs = json_object_get_object_member (report, "jobs");
  admitted = json_object_get_size (jobs);
  refused = json_object_get_int_member (report, "submit_refused");
  g_assert_cmpuint (admitted, >=, 1);
  g_assert_cmpint (admitted + refused, ==, 3);
  for (guint i = 0; i < admitted; i++)
    {
      char key[4];

      g_snprintf (key, sizeof key, "%u", i);
      g_assert_cmpstr (json_object_get_string_member (jobs, key), ==, "ok");
    }
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (report, "results")), ==, admitted);
  g_assert_cmpint (json_object_get_int_member (report, "unfinished"), ==, refused);
  g_assert_cmpint (json_object_get_int_member (report, "live_operations"), ==, 0);
  shutdown = json_object_get_object_member (report, "shutdown");
  g_assert_false (json_object_get_boolean_member (shutdown, "deadline_hit"));
}

static void
test_second_signal_cancels_a_service (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonObject *jobs;

  if (sluice_run_path () == NULL)
    return;

  /* Hanging jobs never finish: the close waits until the second signal. */
  cli_spawn (cli, MINIMAL "[source]\ncount=3\n[handler]\ndefault=hang\n" SERVICE, "--json", NULL);
  cli_wait_for_line (cli, "sluice-run: running");
  g_subprocess_send_signal (cli->process, SIGINT);
  cli_wait_for_line (cli, "sluice-run: stopping");
  g_subprocess_send_signal (cli->process, SIGTERM);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  report = parse_report (out);
  g_assert_cmpstr (json_object_get_string_member (report, "outcome"), ==, "CancelledError");
  /* Items offered after the first signal closed the service are refused,
   * and the cancel may stop the submitter before it pulls the rest: every
   * item pulled is a job or a refusal, and every admitted job ends
   * cancelled. */
  jobs = json_object_get_object_member (report, "jobs");
  g_assert_cmpint (json_object_get_size (jobs) + json_object_get_int_member (report, "submit_refused"), ==,
                   json_object_get_int_member (report, "pulled"));
  g_assert_cmpint (json_object_get_int_member (report, "pulled"), <=, 3);
  g_assert_cmpstr (json_object_get_string_member (jobs, "0"), ==, "cancelled");
  g_assert_cmpint (json_object_get_int_member (report, "unfinished"), ==,
                   json_object_get_int_member (report, "pulled"));
  g_assert_cmpint (json_object_get_int_member (report, "live_operations"), ==, 0);
}

/* A handler that ignores cancellation outlives the deadline the signal
 * started: the deadline fires, the attempt is awaited and reported as an
 * overrun. */
static void
test_signal_deadline_reports_an_overrun (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonObject *shutdown;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, "[pool]\nworkers=1\nqueue-size=1\nitem-timeout=5\nshutdown-timeout=0.05\n"
             "[source]\ncount=1\n[handler]\ndefault=late 0.5\n" SERVICE, "--json", NULL);
  cli_wait_for_line (cli, "sluice-run: running");
  g_subprocess_send_signal (cli->process, SIGTERM);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  report = parse_report (out);
  shutdown = json_object_get_object_member (report, "shutdown");
  g_assert_true (json_object_get_boolean_member (shutdown, "deadline_hit"));
  g_assert_cmpint (json_object_get_int_member (shutdown, "cancelled_in_flight"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (shutdown, "overrun"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (report, "jobs"), "0"), ==,
                   "cancelled");
  g_assert_cmpint (json_object_get_int_member (report, "live_operations"), ==, 0);
}

/* Reads one byte of standard output: once it arrives, the run has ended
 * and sluice-run is writing its report. */
static void
wait_for_report_start (Cli *cli)
{
  g_autoptr(GError) error = NULL;
  char first = 0;
  gssize n;

  n = g_input_stream_read (g_subprocess_get_stdout_pipe (cli->process), &first, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (n, ==, 1);
  g_assert_cmpint (first, ==, '{');
}

static void
test_signal_while_writing_loses_nothing (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *events = NULL;
  g_autofree char *out = NULL, *err = NULL, *events_text = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tail = NULL;
  const char *last;
  guint n_lines;
  int fd;

  if (sluice_run_path () == NULL)
    return;

  fd = g_file_open_tmp ("sluice-cli-XXXXXX.jsonl", &events, &error);
  g_assert_no_error (error);
  close (fd);

  /* A report far larger than a pipe holds: sluice-run blocks writing it
   * until this test reads, so the signal surely comes mid-write. */
  text = g_strdup_printf (MINIMAL "[source]\ncount=%d\n" VIRTUAL, 20000);
  cli_spawn (cli, text, "--json", "--events", events, NULL);
  wait_for_report_start (cli);
  g_subprocess_send_signal (cli->process, SIGTERM);
  g_subprocess_send_signal (cli->process, SIGINT);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);

  /* The report is whole (its first byte was read above). */
  tail = g_strconcat ("{", out, NULL);
  report = parse_report (tail);
  g_assert_cmpint (json_object_get_int_member (report, "pulled"), ==, 20000);
  g_assert_cmpint (json_array_get_length (json_object_get_array_member (report, "results")), ==, 20000);

  /* So are the events, written after the report: the last is run-end.
   * (Counted by hand: g_strsplit() is quadratic under ASan's strstr.) */
  g_file_get_contents (events, &events_text, NULL, &error);
  g_assert_no_error (error);
  g_strchomp (events_text);
  n_lines = 1;
  for (const char *c = events_text; *c != '\0'; c++)
    n_lines += *c == '\n';
  last = strrchr (events_text, '\n');
  g_assert_nonnull (last);
  g_test_message ("last event: %s", last + 1);
  g_assert_cmpuint (n_lines, >, 20000);
  g_assert_nonnull (strstr (last + 1, "\"run-end\""));
  g_unlink (events);
}

/* ---- events on standard output ----------------------------------------- */

/* `--events -`: the events are standard output, exactly what --events
 * FILE writes; the summary goes to standard error. */
static void
test_events_dash_writes_to_stdout (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autoptr(Cli) to_file = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL, *file_out = NULL, *file_err = NULL;
  g_autofree char *events = NULL, *file_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  guint n;
  int fd;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, MINIMAL "[source]\ncount=3\n" VIRTUAL, "--events", "-", NULL);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);
  g_test_message ("%s", err);
  g_assert_nonnull (strstr (err, "max lead"));
  g_assert_null (strstr (out, "max lead"));

  lines = g_strsplit (out, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >, 3);
  g_assert_cmpstr (lines[n - 1], ==, "");  /* one event a line, each ended */
  for (guint i = 0; i + 1 < n; i++)
    {
      g_autoptr(JsonObject) event = parse_report (lines[i]);

      g_assert_true (json_object_has_member (event, "kind"));
      if (i == 0)
        g_assert_cmpstr (json_object_get_string_member (event, "kind"), ==, "run-start");
      if (i + 2 == n)
        g_assert_cmpstr (json_object_get_string_member (event, "kind"), ==, "run-end");
    }

  fd = g_file_open_tmp ("sluice-cli-XXXXXX.jsonl", &events, &error);
  g_assert_no_error (error);
  close (fd);
  cli_spawn (to_file, MINIMAL "[source]\ncount=3\n" VIRTUAL, "--events", events, NULL);
  g_assert_cmpint (cli_finish (to_file, &file_out, &file_err), ==, 0);
  g_file_get_contents (events, &file_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, file_text);
  /* The summary is the same (after its first line, the temporary file's
   * name), only on the other stream. */
  g_assert_nonnull (strchr (file_out, '\n'));
  g_assert_nonnull (strstr (err, strchr (file_out, '\n') + 1));
  g_unlink (events);
}

/* A give-up.N that names no job of the source (N >= count) is a scenario
 * error (docs/submit-and-shutdown.md): exit 2, nothing on standard output, a
 * message naming the file, the key and the expected form. Also from a
 * --set, named as the --set. */
static void
test_give_up_naming_no_job_exits_2 (void)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *where = NULL;

  if (sluice_run_path () == NULL)
    return;

  cli_spawn (cli, MINIMAL "[source]\ncount=3\n[run]\nmode=submit\nclock=virtual\n[submit]\ngive-up.3=0.5\n",
             "--json", NULL);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 2);
  g_test_message ("%s", err);
  g_assert_cmpstr (out, ==, "");
  where = g_strdup_printf ("%s:11: [submit] give-up.3", cli->scenario);
  g_assert_nonnull (strstr (err, where));
  g_assert_nonnull (strstr (err, "expected give-up.N with N from 0 to 2"));

  assert_refused (2, "--set submit.give-up.3",
                  MINIMAL "[source]\ncount=3\n[run]\nmode=submit\nclock=virtual\n", "--set=submit.give-up.3=1",
                  NULL);
}

static void
test_events_dash_with_json_exits_2 (void)
{
  if (sluice_run_path () == NULL)
    return;

  assert_refused (2, "--events - and --json", MINIMAL VIRTUAL, "--json", "--events", "-", NULL);
  assert_refused (2, "--events - and --json", MINIMAL VIRTUAL, "--events=-", "--json", NULL);
}

static void
test_events_dash_to_closed_stdout_exits_1 (void)
{
  assert_closed_stdout_exits_1 ("--events", "-", "--events -");
}

/* ---- determinism ------------------------------------------------------ */

static char *
run_for_events (const char *scenario,
                const char *events)
{
  g_autoptr(Cli) cli = cli_new (PIPES);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  cli_spawn (cli, scenario, "--json", "--events", events, NULL);
  g_assert_cmpint (cli_finish (cli, &out, &err), ==, 0);
  g_file_get_contents (events, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
test_virtual_runs_give_identical_events (void)
{
  g_autofree char *events = NULL;
  g_autofree char *first = NULL;
  g_autoptr(GError) error = NULL;
  int fd;

  if (sluice_run_path () == NULL)
    return;

  fd = g_file_open_tmp ("sluice-cli-XXXXXX.jsonl", &events, &error);
  g_assert_no_error (error);
  close (fd);

  /* Many results at one virtual instant: the caller's turn used to depend
   * on whether a microsecond of real time had passed (GTask's choice
   * between completing at once and from an idle), which moved the last
   * result before or after run-end in about one run in three. */
  first = run_for_events (MINIMAL "[source]\ncount=100\n" VIRTUAL, events);
  for (guint i = 0; i < 15; i++)
    {
      g_autofree char *again = run_for_events (MINIMAL "[source]\ncount=100\n" VIRTUAL, events);

      g_assert_cmpstr (again, ==, first);
    }
  g_unlink (events);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/set/bad-group-or-key-name-exits-2", test_set_with_bad_group_or_key_name_exits_2);
  g_test_add_func ("/cli/set/spaces-around-names-still-apply", test_set_with_spaces_around_names_still_applies);
  g_test_add_func ("/cli/input/endless-file-is-refused", test_endless_file_is_refused);
  g_test_add_func ("/cli/input/fifo-is-refused-without-blocking", test_fifo_is_refused_without_blocking);
  g_test_add_func ("/cli/input/repeated-key-names-both-lines", test_repeated_key_names_both_lines);
  g_test_add_func ("/cli/output/unwritable-events-path-exits-before-the-run",
                   test_unwritable_events_path_exits_before_the_run);
  g_test_add_func ("/cli/output/report-to-full-disk-exits-1", test_report_to_full_disk_exits_1);
  g_test_add_func ("/cli/output/closed-stdout-exits-1", test_closed_stdout_exits_1);
  g_test_add_func ("/cli/output/killed-run-leaves-no-file-under-the-name",
                   test_killed_run_leaves_no_file_under_the_name);
  g_test_add_func ("/cli/output/killed-run-keeps-the-previous-file", test_killed_run_keeps_the_previous_file);
  g_test_add_func ("/cli/output/stopped-run-renames-its-files", test_stopped_run_renames_its_files);
  g_test_add_func ("/cli/signals/first-drains-the-run", test_first_signal_drains_the_run);
  g_test_add_func ("/cli/signals/second-cancels-the-run", test_second_signal_cancels_the_run);
  g_test_add_func ("/cli/signals/service-drains", test_signal_drains_a_service);
  g_test_add_func ("/cli/signals/service-second-cancels", test_second_signal_cancels_a_service);
  g_test_add_func ("/cli/signals/service-deadline-overrun", test_signal_deadline_reports_an_overrun);
  g_test_add_func ("/cli/signals/while-writing-lose-nothing", test_signal_while_writing_loses_nothing);
  g_test_add_func ("/cli/events/virtual-runs-give-identical-events", test_virtual_runs_give_identical_events);
  g_test_add_func ("/cli/lesson/asks-runs-and-reveals", test_lesson_asks_runs_and_reveals);
  g_test_add_func ("/cli/lesson/json-ends-with-lesson", test_lesson_json_ends_with_lesson);
  g_test_add_func ("/cli/lesson/too-deep-reveal-exits-2", test_lesson_too_deep_reveal_exits_2);
  g_test_add_func ("/cli/events/dash-writes-to-stdout", test_events_dash_writes_to_stdout);
  g_test_add_func ("/cli/scenario/give-up-naming-no-job-exits-2", test_give_up_naming_no_job_exits_2);
  g_test_add_func ("/cli/events/dash-with-json-exits-2", test_events_dash_with_json_exits_2);
  g_test_add_func ("/cli/events/dash-to-closed-stdout-exits-1", test_events_dash_to_closed_stdout_exits_1);

  return g_test_run ();
}
