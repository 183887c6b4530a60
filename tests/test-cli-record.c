/* test-cli-record.c: sluice-run --record and --compare as a program
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every case runs $SLUICE_RUN in a subprocess and waits for it to exit
 * (on the virtual clock: no case waits on real time). Beside test-cli.c,
 * which holds the signal cases and their line-by-line readers.
 */

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli-fixture.h"
#include "test-helpers.h"

#define MINIMAL "[pool]\nworkers=2\nqueue-size=2\nitem-timeout=1\n"
#define VIRTUAL "[run]\nclock=virtual\n"

/* ---- --record ----------------------------------------------------------- */

/* The header, then the very lines --events writes; the scenario is the
 * file's text. */
static void
test_record_writes_the_run (void)
{
  g_autofree char *pool = write_temp (MINIMAL "[source]\ncount=5\n" VIRTUAL);
  g_autofree char *record = sluice_test_temp_path ("run.sluicerun");
  g_autofree char *events = sluice_test_temp_path ("run.jsonl");
  g_autofree char *out = NULL, *err = NULL, *recorded = NULL, *events_text = NULL, *pool_text = NULL;
  g_autoptr(JsonObject) header = NULL;
  const char *args[] = { pool, "--record", record, "--events", events, NULL };
  char *newline;

  if (sluice_run_path () == NULL)
    return;

  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, 0);
  recorded = sluice_test_read_text (record);
  events_text = sluice_test_read_text (events);
  pool_text = sluice_test_read_text (pool);

  newline = strchr (recorded, '\n');
  g_assert_nonnull (newline);
  *newline = '\0';
  header = parse_report (recorded);
  g_assert_cmpint (json_object_get_int_member (header, "sluicerun"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (header, "version"), ==, SLUICE_PACKAGE_VERSION);
  g_assert_cmpstr (json_object_get_string_member (header, "scenario"), ==, pool_text);
  /* The same events, as many and byte for byte. */
  g_assert_cmpstr (newline + 1, ==, events_text);
  g_assert_cmpuint (strlen (events_text), >, 0);

  sluice_test_remove_temp (record);
  sluice_test_remove_temp (events);
  g_unlink (pool);
}

/* The header carries the run's report: the very object --json prints. */
static void
test_record_carries_the_report (void)
{
  g_autofree char *pool = write_temp (MINIMAL "[source]\ncount=5\n[handler]\ndefault=ok 0.1\nitem.2=fail 1 ConnectionError 0.1\n" VIRTUAL);
  g_autofree char *record = sluice_test_temp_path ("run.sluicerun");
  g_autofree char *out = NULL, *err = NULL, *recorded = NULL, *printed = NULL, *carried = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) report = NULL;
  const char *args[] = { pool, "--record", record, "--json", NULL };

  if (sluice_run_path () == NULL)
    return;

  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, 0);
  recorded = sluice_test_read_text (record);
  *strchr (recorded, '\n') = '\0';
  header = parse_report (recorded);
  g_assert_true (json_object_has_member (header, "report"));
  report = parse_report (out);
  {
    g_autoptr(JsonNode) a = json_node_init_object (json_node_alloc (), report);

    printed = json_to_string (a, TRUE);
  }
  carried = json_to_string (json_object_get_member (header, "report"), TRUE);
  g_assert_cmpstr (carried, ==, printed);
  g_assert_cmpint (json_object_get_int_member (report, "pulled"), ==, 5);

  sluice_test_remove_temp (record);
  g_unlink (pool);
}

/* --set changes what ran: the recording holds the scenario with it. */
static void
test_record_holds_the_overrides (void)
{
  g_autofree char *pool = write_temp ("# two workers\n" MINIMAL "[source]\ncount=3\n" VIRTUAL);
  g_autofree char *record = sluice_test_temp_path ("run.sluicerun");
  g_autofree char *out = NULL, *err = NULL, *recorded = NULL;
  g_autoptr(JsonObject) header = NULL;
  const char *args[] = { pool, "--record", record, "--set", "pool.workers=1", "--json", NULL };
  const char *scenario;

  if (sluice_run_path () == NULL)
    return;

  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, 0);
  recorded = sluice_test_read_text (record);
  *strchr (recorded, '\n') = '\0';
  header = parse_report (recorded);
  scenario = json_object_get_string_member (header, "scenario");
  g_assert_nonnull (strstr (scenario, "workers=1\n"));
  g_assert_null (strstr (scenario, "workers=2"));
  g_assert_true (g_str_has_prefix (scenario, "# two workers\n"));  /* the file's text, edited */

  sluice_test_remove_temp (record);
  g_unlink (pool);
}

static void
assert_refused (int         status,
                const char *message,
                const char * const *args)
{
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, status);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, message));
}

static void
test_record_unwritable_exits_before_the_run (void)
{
  /* A hanging source with no stop never ends: the error comes first. */
  g_autofree char *pool = write_temp (MINIMAL "[source]\ncount=4\nhang-after=1\n");
  const char *args[] = { pool, "--record", "/nonexistent-dir/run.sluicerun", NULL };
  const char *dash[] = { pool, "--record", "-", NULL };

  if (sluice_run_path () == NULL)
    return;

  assert_refused (2, "--record /nonexistent-dir/run.sluicerun: ", args);
  assert_refused (2, "--record -: a recording is written to a file", dash);
  g_unlink (pool);
}

/* ---- --compare ---------------------------------------------------------- */

typedef struct {
  char  *outcome;
  double elapsed;
  guint  succeeded, failed, retries, timeouts, max_lead;
} Numbers;

/* The numbers of a run's own summary. */
static void
parse_summary (const char *summary,
               Numbers    *n)
{
  g_auto(GStrv) lines = g_strsplit (summary, "\n", -1);
  guint pulled, calls, found = 0;
  char outcome[64];

  for (guint i = 0; lines[i] != NULL; i++)
    {
      found += sscanf (lines[i], "outcome %63s", outcome) == 1;
      found += sscanf (lines[i], "items %u pulled, %u ok, %u failed", &pulled, &n->succeeded, &n->failed) == 3;
      found += sscanf (lines[i], "attempts %u handler calls, %u retries, %u timeouts",
                       &calls, &n->retries, &n->timeouts) == 3;
      found += sscanf (lines[i], "max lead %u", &n->max_lead) == 1;
      found += sscanf (lines[i], "elapsed %lf s", &n->elapsed) == 1;
    }
  g_assert_cmpuint (found, ==, 5);
  n->outcome = g_strdup (outcome);
}

/* A row of the table: its label, then A, B and B − A. */
static char **
table_row (const char *table,
           const char *label)
{
  g_auto(GStrv) lines = g_strsplit (table, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], label) && lines[i][strlen (label)] == ' ')
      {
        g_autofree char *cells = g_strstrip (g_strdup (lines[i] + strlen (label)));
        return g_regex_split_simple ("\\s{2,}", cells, 0, 0);
      }
  g_error ("no row “%s” in:\n%s", label, table);
}

static void
assert_count_row (const char *table,
                  const char *label,
                  guint       a,
                  guint       b)
{
  g_auto(GStrv) row = table_row (table, label);
  g_autofree char *a_text = g_strdup_printf ("%u", a);
  g_autofree char *b_text = g_strdup_printf ("%u", b);
  g_autofree char *d_text = g_strdup_printf ("%+d", (int) b - (int) a);

  g_assert_cmpstr (row[0], ==, a_text);
  g_assert_cmpstr (row[1], ==, b_text);
  g_assert_cmpstr (row[2], ==, d_text);
}

static void
summary_of (const char *path,
            Numbers    *n)
{
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { path, "--clock", "virtual", NULL };

  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, 0);
  parse_summary (out, n);
}

/* retry-storm vs retry-storm-jitter: the same workload, so B on A's is B
 * itself; every number of the table is that of each run's own summary. */
static void
test_compare_table_matches_each_run (void)
{
  g_autofree char *a_path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets", "retry-storm.pool", NULL);
  g_autofree char *b_path = g_test_build_filename (G_TEST_DIST, "..", "data", "presets",
                                                   "retry-storm-jitter.pool", NULL);
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "--compare", b_path, a_path, "--clock", "virtual", NULL };
  Numbers a = { 0 }, b = { 0 };
  g_auto(GStrv) elapsed = NULL, throughput = NULL, outcome = NULL;
  g_autofree char *ea = NULL, *eb = NULL, *ed = NULL, *ta = NULL, *tb = NULL, *ratio = NULL;

  if (sluice_run_path () == NULL)
    return;

  summary_of (a_path, &a);
  summary_of (b_path, &b);
  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, 0);
  g_test_message ("%s", out);

  elapsed = table_row (out, "elapsed");
  ea = g_strdup_printf ("%.6f s", a.elapsed);
  eb = g_strdup_printf ("%.6f s", b.elapsed);
  ed = g_strdup_printf ("%+.6f s", b.elapsed - a.elapsed);
  g_assert_cmpstr (elapsed[0], ==, ea);
  g_assert_cmpstr (elapsed[1], ==, eb);
  g_assert_cmpstr (elapsed[2], ==, ed);
  /* Jitter spreads the retries out: the storm ends sooner. */
  g_assert_cmpfloat (b.elapsed, <, a.elapsed);

  throughput = table_row (out, "throughput");
  ta = g_strdup_printf ("%.3f/s", a.succeeded / a.elapsed);
  tb = g_strdup_printf ("%.3f/s", b.succeeded / b.elapsed);
  ratio = g_strdup_printf ("×%.3f", (b.succeeded / b.elapsed) / (a.succeeded / a.elapsed));
  g_assert_cmpstr (throughput[0], ==, ta);
  g_assert_cmpstr (throughput[1], ==, tb);
  g_assert_cmpstr (throughput[2], ==, ratio);

  assert_count_row (out, "succeeded", a.succeeded, b.succeeded);
  assert_count_row (out, "failed", a.failed, b.failed);
  assert_count_row (out, "retries", a.retries, b.retries);
  assert_count_row (out, "timeouts", a.timeouts, b.timeouts);
  assert_count_row (out, "max lead", a.max_lead, b.max_lead);
  g_assert_cmpuint (a.retries, ==, 30);

  outcome = table_row (out, "outcome");
  g_assert_cmpstr (outcome[0], ==, a.outcome);
  g_assert_cmpstr (outcome[1], ==, b.outcome);
  g_free (a.outcome);
  g_free (b.outcome);
}

/* B's own [source] and [handler] are replaced by A's: B handles A's three
 * items, each of A's behaviours, with B's one worker. */
static void
test_compare_runs_b_on_a_workload (void)
{
  g_autofree char *a_path = write_temp (MINIMAL "[source]\ncount=3\n[handler]\ndefault=ok 0.5\n"
                                        "item.1=fail-always ValueError 0.1\n" VIRTUAL);
  g_autofree char *b_path = write_temp ("[pool]\nworkers=1\nqueue-size=1\nitem-timeout=1\nkeep-going=true\n"
                                        "[source]\ncount=7\n" VIRTUAL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonObject) json = NULL;
  JsonObject *a, *b, *difference;
  const char *args[] = { "--compare", b_path, a_path, "--json", NULL };

  if (sluice_run_path () == NULL)
    return;

  g_assert_cmpint (cli_run_to_end (args, &out, &err), ==, 0);
  json = parse_report (out);
  a = json_object_get_object_member (json, "a");
  b = json_object_get_object_member (json, "b");
  difference = json_object_get_object_member (json, "difference");

  g_assert_cmpstr (json_object_get_string_member (a, "file"), ==, a_path);
  g_assert_cmpstr (json_object_get_string_member (b, "file"), ==, b_path);
  /* B handles A's three items, not its own seven, one at a time. */
  g_assert_cmpfloat (fabs (json_object_get_double_member (a, "elapsed") - 0.6), <, 1e-9);
  g_assert_cmpint (json_object_get_int_member (b, "succeeded"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (b, "failed"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (b, "report"), "pulled"), ==, 3);
  /* One worker: 0.5 + 0.1 + 0.5 s; A's two: item 2 after item 1, 0.1 + 0.5 s. */
  g_assert_cmpfloat (fabs (json_object_get_double_member (b, "elapsed") - 1.1), <, 1e-9);
  g_assert_cmpfloat (fabs (json_object_get_double_member (b, "throughput") - 2 / 1.1), <, 1e-9);
  g_assert_cmpint (json_object_get_int_member (difference, "succeeded"), ==,
                   json_object_get_int_member (b, "succeeded") - json_object_get_int_member (a, "succeeded"));
  g_assert_cmpfloat (fabs (json_object_get_double_member (difference, "elapsed") -
                           (json_object_get_double_member (b, "elapsed") -
                            json_object_get_double_member (a, "elapsed"))), <, 1e-9);
  g_assert_true (json_object_get_boolean_member (difference, "same_outcome") ==
                 g_str_equal (json_object_get_string_member (a, "outcome"),
                              json_object_get_string_member (b, "outcome")));

  g_unlink (a_path);
  g_unlink (b_path);
}

static void
test_compare_usage_errors_exit_2 (void)
{
  g_autofree char *pool = write_temp (MINIMAL VIRTUAL);
  g_autofree char *bad = write_temp (MINIMAL "workers=3\n");
  g_autofree char *needs_real = write_temp (MINIMAL "[handler]\ndefault=block 0.1\n[source]\ncount=1\n");
  const char *one[] = { "--compare", pool, NULL };
  const char *events[] = { "--compare", pool, pool, "--events", "x.jsonl", NULL };
  const char *bad_b[] = { "--compare", bad, pool, NULL };
  const char *missing[] = { "--compare", pool, "/nonexistent.pool", NULL };
  /* A's block behaviour needs the real clock; B runs on the virtual one. */
  const char *conflict[] = { "--compare", pool, needs_real, NULL };

  if (sluice_run_path () == NULL)
    return;

  assert_refused (2, "expected two scenario files", one);
  assert_refused (2, "--compare runs two scenarios", events);
  assert_refused (2, "the key is already set", bad_b);
  assert_refused (2, "/nonexistent.pool", missing);
  assert_refused (2, "(on the workload of", conflict);
  g_unlink (pool);
  g_unlink (bad);
  g_unlink (needs_real);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/record/writes-the-run", test_record_writes_the_run);
  g_test_add_func ("/cli/record/carries-the-report", test_record_carries_the_report);
  g_test_add_func ("/cli/record/holds-the-overrides", test_record_holds_the_overrides);
  g_test_add_func ("/cli/record/unwritable-exits-before-the-run", test_record_unwritable_exits_before_the_run);
  g_test_add_func ("/cli/compare/table-matches-each-run", test_compare_table_matches_each_run);
  g_test_add_func ("/cli/compare/runs-b-on-a-workload", test_compare_runs_b_on_a_workload);
  g_test_add_func ("/cli/compare/usage-errors-exit-2", test_compare_usage_errors_exit_2);

  return g_test_run ();
}
