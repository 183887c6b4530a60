/* test-narrator.c: "Explain this moment": the narration of recorded runs
 * at chosen times equals the expected text, in English and in German
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>
#include <glib/gi18n.h>

#include "run-fixture.h"
#include "sluice-narrator.h"
#include "sluice-timeline.h"

#define S(seconds) sluice_time_from_seconds (seconds)

typedef struct {
  SluiceRecorder *recorder;
  SluiceTimeline *timeline;
  SluiceNarrator *narrator;
} Run;

static void
run_free (Run *run)
{
  g_clear_object (&run->narrator);
  g_clear_object (&run->timeline);
  g_clear_object (&run->recorder);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Run, run_free)

/* Runs a preset on the virtual clock into a recorder, with its settings
 * overridden by @sets ("group.key=value", NULL-terminated, may be NULL). */
static Run *
run_preset (const char         *name,
            const char * const *sets)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  Run *run = g_new0 (Run, 1);

  run->recorder = run_fixture_record_preset (name, sets, &scenario);
  run->timeline = sluice_timeline_new (sluice_scenario_get_workers (scenario));
  sluice_timeline_update (run->timeline, run->recorder);
  run->narrator = sluice_narrator_new (run->recorder, run->timeline);
  if (sluice_scenario_get_shutdown_timeout (scenario) > 0)
    sluice_narrator_set_shutdown_timeout (run->narrator, S (sluice_scenario_get_shutdown_timeout (scenario)));
  return run;
}

typedef struct {
  double      time;
  const char *text;
} Moment;

static void
check_moments (Run          *run,
               const Moment *moments,
               guint         n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = sluice_narrator_narrate (run->narrator, S (moments[i].time));

      if (g_getenv ("NARRATOR_PRINT") != NULL)
        g_printerr ("---- %.3f\n%s\n", moments[i].time, text);
      else
        g_assert_cmpstr (text, ==, moments[i].text);
    }
}

#define CHECK(run, moments) check_moments (run, moments, G_N_ELEMENTS (moments))

/* ---- English ------------------------------------------------------------- *
 * The times are chosen where something can be told: before the start, at
 * an event's very time (its events count), between events, at and after
 * the end; 1, 2, 3 and 10 workers (grouping); deadlines, cancel rounds and
 * an attempt that ignores cancellation (late); stops, drains, the shutdown
 * deadline. */

static const Moment first_look_moments[] = {
  { -0.1,
        "-0.100 s — The run has not started yet; it starts at 0.000 s." },
  { 0,
        "0.000 s — The source ended at 0.000 s. The producer no longer pulls; the 3 items queued or on a worker still finish (drain).\n"
        "Workers 0–2 run attempt 1 of items 0–2, since 0.000 s; their deadline is at 1.000 s." },
  { 0.05,
        "0.050 s — The source ended at 0.000 s. The producer no longer pulls; the 3 items queued or on a worker still finish (drain).\n"
        "Workers 0–2 run attempt 1 of items 0–2, since 0.000 s; their deadline is at 1.000 s." },
  { 0.1,
        "0.100 s — Item 2 has just succeeded.\n"
        "The source ended at 0.000 s. The producer no longer pulls; the 2 items queued or on a worker still finish (drain).\n"
        "Workers 0 and 1 run attempt 1 of items 0 and 1, since 0.000 s; their deadline is at 1.000 s.\n"
        "Worker 2 is idle: the queue is empty because the source ended at 0.000 s." },
  { 0.25,
        "0.250 s — The source ended at 0.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0 runs attempt 1 of item 0, since 0.000 s; its deadline is at 1.000 s.\n"
        "Workers 1 and 2 are idle: the queue is empty because the source ended at 0.000 s." },
  { 0.3,
        "0.300 s — The run ended at 0.300 s: 3 of 3 items succeeded." },
  { 1,
        "1.000 s — The run ended at 0.300 s: 3 of 3 items succeeded." },
};

static const Moment first_look_one_worker_moments[] = {
  { 0.15,
        "0.150 s — The source ended at 0.000 s. The producer no longer pulls; the 3 items queued or on a worker still finish (drain).\n"
        "Worker 0 runs attempt 1 of item 0, since 0.000 s; its deadline is at 1.000 s." },
  { 0.35,
        "0.350 s — The source ended at 0.000 s. The producer no longer pulls; the 2 items queued or on a worker still finish (drain).\n"
        "Worker 0 runs attempt 1 of item 1, since 0.300 s; its deadline is at 1.300 s." },
};

static const Moment late_moments[] = {
  { 0.5,
        "0.500 s — Workers 0 and 1 run attempt 1 of items 0 and 1, since 0.000 s; their deadline is at 10.000 s.\n"
        "The producer holds item 3 and waits for room in the queue, which is full at 1 item. The lead is at its bound of 4 items: the queue, the workers and the item the producer holds." },
  { 5,
        "5.000 s — The source ended at 1.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0 runs attempt 1 of item 0, since 0.000 s; its deadline is at 10.000 s.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 1.000 s." },
  { 15,
        "15.000 s — The source ended at 1.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0: attempt 1 of item 0 passed its deadline at 10.000 s (started 0.000 s, timeout 10.000 s). The pool asked it to stop (round 1) at 10.000 s and waits up to 10.000 s before it asks again.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 1.000 s." },
  { 25,
        "25.000 s — The source ended at 1.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0: attempt 1 of item 0 passed its deadline at 10.000 s (started 0.000 s, timeout 10.000 s). The pool asked it to stop (round 2) at 20.000 s and waits up to 10.000 s before it asks again.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 1.000 s." },
  { 35,
        "35.000 s — The source ended at 1.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0: attempt 1 of item 0 passed its deadline at 10.000 s (started 0.000 s, timeout 10.000 s). The pool asked it to stop for the third and last time at 30.000 s and waits up to 10.000 s; then it waits as long as it takes.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 1.000 s." },
  { 42,
        "42.000 s — The source ended at 1.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0: attempt 1 of item 0 passed its deadline at 10.000 s (started 0.000 s, timeout 10.000 s). It ignored three requests to stop; since 40.000 s the pool waits for it as long as it takes.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 1.000 s." },
  { 45,
        "45.000 s — The run ended at 45.000 s: 3 of 4 items succeeded. 1 item failed for good. A stop was requested at 45.000 s, because item 0 failed for good and keep-going is off." },
};

static const Moment stubborn_moments[] = {
  { 3,
        "3.000 s — The source ended at 0.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0 runs attempt 1 of item 0, since 0.000 s; its deadline is at 5.000 s.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 0.000 s." },
  { 7,
        "7.000 s — The source ended at 0.000 s. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0: attempt 1 of item 0 passed its deadline at 5.000 s (started 0.000 s, timeout 5.000 s). The pool asked it to stop (round 1) at 5.000 s and waits up to 5.000 s before it asks again.\n"
        "Worker 1 is idle: the queue is empty because the source ended at 0.000 s." },
  { 10,
        "10.000 s — The run ended at 10.000 s: 2 of 3 items succeeded. 1 item failed for good. A stop was requested at 10.000 s, because item 0 failed for good and keep-going is off." },
};

static const Moment stop_after_moments[] = {
  { 0.05,
        "0.050 s — Workers 0 and 1 run attempt 1 of items 0 and 1, since 0.000 s; their deadline is at 1.000 s.\n"
        "The producer holds item 4 and waits for room in the queue, which is full at 2 items. The lead is at its bound of 5 items: the queue, the workers and the item the producer holds." },
  { 0.3,
        "0.300 s — Item 2 has just succeeded. Item 6 was just dropped, unhandled.\n"
        "A stop was requested at 0.300 s. The producer no longer pulls; the 3 items queued or on a worker still finish (drain).\n"
        "Worker 0 runs attempt 1 of item 4, since 0.300 s; its deadline is at 1.300 s.\n"
        "Worker 1 runs attempt 1 of item 3, since 0.200 s; its deadline is at 1.200 s." },
  { 0.45,
        "0.450 s — A stop was requested at 0.300 s. The producer no longer pulls; the 2 items queued or on a worker still finish (drain).\n"
        "Worker 0 runs attempt 1 of item 4, since 0.300 s; its deadline is at 1.300 s.\n"
        "Worker 1 runs attempt 1 of item 5, since 0.400 s; its deadline is at 1.400 s." },
  { 0.6,
        "0.600 s — The run ended at 0.600 s: 6 of 7 items succeeded. 1 item was not finished: it was dropped or cancelled. A stop was requested at 0.300 s." },
};

static const Moment retries_moments[] = {
  { 0.05,
        "0.050 s — Workers 0 and 2 run attempt 1 of items 0 and 2, since 0.000 s; their deadline is at 0.300 s.\n"
        "Worker 1 runs attempt 2 of item 1, since 0.050 s; its deadline is at 0.350 s.\n"
        "The producer holds item 5 and waits for room in the queue, which is full at 2 items. The lead is at its bound of 6 items: the queue, the workers and the item the producer holds." },
  { 0.12,
        "0.120 s — The source ended at 0.100 s. The producer no longer pulls; the 5 items queued or on a worker still finish (drain).\n"
        "Workers 0–2 run attempt 1 of items 3, 5 and 4, since 0.100 s; their deadline is at 0.400 s." },
  { 0.2,
        "0.200 s — Item 4 has just succeeded.\n"
        "The source ended at 0.100 s. A stop was requested at 0.150 s, because item 5 failed for good and keep-going is off. The producer no longer pulls; the 3 items queued or on a worker still finish (drain).\n"
        "Worker 0 runs attempt 1 of item 3, since 0.100 s; its deadline is at 0.400 s.\n"
        "Worker 1 runs attempt 1 of item 6, since 0.150 s; its deadline is at 0.450 s.\n"
        "Worker 2 runs attempt 1 of item 7, since 0.200 s; its deadline is at 0.500 s." },
  { 0.5,
        "0.500 s — The source ended at 0.100 s. A stop was requested at 0.150 s, because item 5 failed for good and keep-going is off. The producer no longer pulls; the 1 item queued or on a worker still finishes (drain).\n"
        "Worker 0 runs attempt 2 of item 3, since 0.400 s; its deadline is at 0.700 s.\n"
        "Workers 1 and 2 are idle: the queue is empty because the source ended at 0.100 s." },
  { 1,
        "1.000 s — The run ended at 1.000 s: 6 of 8 items succeeded. 2 items failed for good. A stop was requested at 0.150 s, because item 5 failed for good and keep-going is off." },
};

static const Moment shutdown_deadline_moments[] = {
  { 0.2,
        "0.200 s — Workers 0 and 1 run attempt 1 of items 0 and 1, since 0.000 s; their deadline is at 5.000 s.\n"
        "The producer holds item 5 and waits for room in the queue, which is full at 3 items. The lead is at its bound of 6 items: the queue, the workers and the item the producer holds." },
  { 0.5,
        "0.500 s — A stop was requested at 0.400 s. The producer no longer pulls; the 3 items queued or on a worker still finish (drain). If the drain has not ended by 0.700 s, the shutdown deadline drops the queue and cancels what runs.\n"
        "Workers 0 and 1 run attempt 1 of items 2 and 3, since 0.400 s; their deadline is at 5.400 s." },
  { 0.7,
        "0.700 s — The run ended at 0.700 s: 2 of 6 items succeeded. 4 items were not finished: they were dropped or cancelled. A stop was requested at 0.400 s. The shutdown deadline fired at 0.700 s." },
};

static const Moment source_hang_moments[] = {
  { 0.1,
        "0.100 s — Workers 0 and 1 run attempt 1 of items 0 and 1, since 0.000 s; their deadline is at 1.000 s.\n"
        "The producer waits on the source for its next item; 3 items pulled so far." },
  { 0.3,
        "0.300 s — Worker 0 runs attempt 1 of item 2, since 0.200 s; its deadline is at 1.200 s.\n"
        "Worker 1 is idle: the queue is empty because the source is slow.\n"
        "The producer waits on the source for its next item; 3 items pulled so far." },
  { 0.4,
        "0.400 s — The run ended at 0.400 s: 3 of 3 items succeeded. A stop was requested at 0.400 s." },
};

static const Moment retry_storm_moments[] = {
  { 0.01,
        "0.010 s — The source ended at 0.000 s. The producer no longer pulls; the 10 items queued or on a worker still finish (drain).\n"
        "Workers 0–9 run attempt 1 of items 0–9, since 0.000 s; their deadline is at 1.000 s." },
  { 0.1,
        "0.100 s — The source ended at 0.000 s. The producer no longer pulls; the 10 items queued or on a worker still finish (drain).\n"
        "Workers 0–9 back off until 0.150 s, then start attempt 2 of items 0–9." },
  { 0.2,
        "0.200 s — The source ended at 0.000 s. The producer no longer pulls; the 10 items queued or on a worker still finish (drain).\n"
        "Workers 0–9 back off until 0.400 s, then start attempt 3 of items 0–9." },
};

static const Moment shutdown_overrun_moments[] = {
  { 0.25,
        "0.250 s — The source ended at 0.000 s. A stop was requested at 0.200 s. The producer no longer pulls; the 2 items queued or on a worker still finish (drain). If the drain has not ended by 0.500 s, the shutdown deadline drops the queue and cancels what runs.\n"
        "Worker 0 runs attempt 1 of item 2, since 0.200 s; its deadline is at 5.200 s.\n"
        "Worker 1 runs attempt 1 of item 1, since 0.000 s; its deadline is at 5.000 s." },
  { 0.6,
        "0.600 s — The source ended at 0.000 s. A stop was requested at 0.200 s. The producer no longer pulls. The shutdown deadline fired at 0.500 s, before the drain ended. 2 running attempts were asked to stop, once.\n"
        "Worker 0 is idle: the queue is empty because the shutdown deadline fired at 0.500 s.\n"
        "Worker 1 still runs attempt 1 of item 1: the shutdown deadline asked it to stop at 0.500 s, and the run ends when it returns." },
  { 1.0,
        "1.000 s — The source ended at 0.000 s. A stop was requested at 0.200 s. The producer no longer pulls. The shutdown deadline fired at 0.500 s, before the drain ended. 2 running attempts were asked to stop, once.\n"
        "Worker 0 is idle: the queue is empty because the shutdown deadline fired at 0.500 s.\n"
        "Worker 1 still runs attempt 1 of item 1: the shutdown deadline asked it to stop at 0.500 s, and the run ends when it returns." },
  { 1.5,
        "1.500 s — The run ended at 1.500 s: 1 of 3 items succeeded. 2 items were not finished: they were dropped or cancelled. A stop was requested at 0.200 s. The shutdown deadline fired at 0.500 s." },
};

static void
test_first_look (void)
{
  g_autoptr(Run) run = run_preset ("first-look", NULL);

  CHECK (run, first_look_moments);
}

static void
test_first_look_one_worker (void)
{
  g_autoptr(Run) run = run_preset ("first-look", (const char * const[]) { "pool.workers=1", NULL });

  CHECK (run, first_look_one_worker_moments);
}

static void
test_late (void)
{
  g_autoptr(Run) run = run_preset ("late", NULL);

  CHECK (run, late_moments);
}

static void
test_stubborn (void)
{
  g_autoptr(Run) run = run_preset ("stubborn", NULL);

  CHECK (run, stubborn_moments);
}

static void
test_stop_after (void)
{
  g_autoptr(Run) run = run_preset ("stop-after", NULL);

  CHECK (run, stop_after_moments);
}

static void
test_retries (void)
{
  g_autoptr(Run) run = run_preset ("retries", NULL);

  CHECK (run, retries_moments);
}

static void
test_shutdown_deadline (void)
{
  g_autoptr(Run) run = run_preset ("shutdown-deadline", NULL);

  CHECK (run, shutdown_deadline_moments);
}

static void
test_source_hang (void)
{
  g_autoptr(Run) run = run_preset ("source-hang", NULL);

  CHECK (run, source_hang_moments);
}

static void
test_retry_storm (void)
{
  g_autoptr(Run) run = run_preset ("retry-storm", NULL);

  CHECK (run, retry_storm_moments);
}

static void
test_shutdown_overrun (void)
{
  g_autoptr(Run) run = run_preset ("shutdown-overrun", NULL);

  CHECK (run, shutdown_overrun_moments);
}

/* ---- one narration against many ------------------------------------------ */

/* sluice_narrate_moment(), which folds its own timeline and index for one
 * call, tells what a long-lived narrator tells after it has already
 * answered for other moments (out of time order). */
static void
test_incremental (void)
{
  g_autoptr(Run) run = run_preset ("late", NULL);
  g_autofree char *whole = sluice_narrate_moment (run->recorder, NULL, S (25));
  g_autofree char *later = sluice_narrator_narrate (run->narrator, S (42));
  g_autofree char *again = sluice_narrator_narrate (run->narrator, S (25));

  g_assert_cmpstr (later, ==, late_moments[5].text);

  g_assert_cmpstr (whole, ==, late_moments[3].text);
  g_assert_cmpstr (again, ==, whole);
}

/* ---- German -------------------------------------------------------------- *
 * The build tree's catalogue (build/po/de/LC_MESSAGES/sluice.mo) through
 * SLUICE_LOCALEDIR, which tests/meson.build sets, as an uninstalled app
 * finds it. Skipped while that catalogue has no narration yet. */

static const Moment late_moments_de[] = {
  { 0.5,
        "0.500 s — Worker 0 und 1 führen Versuch 1 der Elemente 0 und 1 aus, seit 0.000 s; ihre Frist endet bei 10.000 s.\n"
        "Der Erzeuger hält Element 3 und wartet auf Platz in der Warteschlange, die mit 1 Element voll ist. Der Vorlauf ist an seiner Grenze von 4 Elementen: die Warteschlange, die Worker und das Element, das der Erzeuger hält." },
  { 25,
        "25.000 s — Die Quelle endete bei 1.000 s. Der Erzeuger liest nicht mehr; das 1 wartende oder laufende Element wird noch fertig (Leeren).\n"
        "Worker 0: Versuch 1 von Element 0 hat seine Frist bei 10.000 s überschritten (gestartet 0.000 s, Zeitlimit 10.000 s). Der Pool hat ihn bei 20.000 s zum Abbruch aufgefordert (Runde 2) und wartet bis zu 10.000 s, bevor er erneut auffordert.\n"
        "Worker 1 ist untätig: Die Warteschlange ist leer, weil die Quelle bei 1.000 s endete." },
  { 45,
        "45.000 s — Der Lauf endete bei 45.000 s: 3 von 4 Elementen waren erfolgreich. 1 Element schlug endgültig fehl. Bei 45.000 s wurde ein Stopp angefordert, weil Element 0 endgültig fehlschlug und keep-going aus ist." },
};

static const Moment retry_storm_moments_de[] = {
  { 0.1,
        "0.100 s — Die Quelle endete bei 0.000 s. Der Erzeuger liest nicht mehr; die 10 wartenden oder laufenden Elemente werden noch fertig (Leeren).\n"
        "Worker 0–9 warten bis 0.150 s und starten dann Versuch 2 der Elemente 0–9." },
};

static const Moment stop_after_moments_de[] = {
  { 0.3,
        "0.300 s — Element 2 war soeben erfolgreich. Element 6 wurde soeben unbearbeitet verworfen.\n"
        "Bei 0.300 s wurde ein Stopp angefordert. Der Erzeuger liest nicht mehr; die 3 wartenden oder laufenden Elemente werden noch fertig (Leeren).\n"
        "Worker 0 führt Versuch 1 von Element 4 aus, seit 0.300 s; seine Frist endet bei 1.300 s.\n"
        "Worker 1 führt Versuch 1 von Element 3 aus, seit 0.200 s; seine Frist endet bei 1.200 s." },
};

static gboolean
speak_german (void)
{
  const char *localedir = g_getenv ("SLUICE_LOCALEDIR");

  if (localedir == NULL)
    {
      g_test_skip ("SLUICE_LOCALEDIR is not set");
      return FALSE;
    }
  g_setenv ("LANGUAGE", "de", TRUE);
  bindtextdomain ("sluice", localedir);
  bind_textdomain_codeset ("sluice", "UTF-8");
  textdomain ("sluice");
  if (g_strcmp0 (gettext ("The producer no longer pulls."), "The producer no longer pulls.") == 0)
    {
      g_unsetenv ("LANGUAGE");
      textdomain ("sluice");
      g_test_skip ("the German catalogue has no narration yet");
      return FALSE;
    }
  return TRUE;
}

static void
speak_english (void)
{
  g_unsetenv ("LANGUAGE");
  /* gettext caches translations; setting the domain again drops them. */
  textdomain ("sluice");
}

static void
test_german (void)
{
  g_autoptr(Run) late = run_preset ("late", NULL);
  g_autoptr(Run) storm = run_preset ("retry-storm", NULL);
  g_autoptr(Run) stop = run_preset ("stop-after", NULL);

  if (!speak_german ())
    return;
  CHECK (late, late_moments_de);
  CHECK (storm, retry_storm_moments_de);
  CHECK (stop, stop_after_moments_de);
  speak_english ();

  /* Back in English, the same narrator speaks English again. */
  check_moments (late, late_moments, 1);
}

int
main (int   argc,
      char *argv[])
{
  /* English unless a test asks for German; times print with a point. */
  setlocale (LC_ALL, "C.UTF-8");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/narrator/first-look", test_first_look);
  g_test_add_func ("/narrator/first-look-one-worker", test_first_look_one_worker);
  g_test_add_func ("/narrator/late", test_late);
  g_test_add_func ("/narrator/stubborn", test_stubborn);
  g_test_add_func ("/narrator/stop-after", test_stop_after);
  g_test_add_func ("/narrator/retries", test_retries);
  g_test_add_func ("/narrator/shutdown-deadline", test_shutdown_deadline);
  g_test_add_func ("/narrator/source-hang", test_source_hang);
  g_test_add_func ("/narrator/retry-storm", test_retry_storm);
  g_test_add_func ("/narrator/shutdown-overrun", test_shutdown_overrun);
  g_test_add_func ("/narrator/incremental", test_incremental);
  g_test_add_func ("/narrator/german", test_german);

  return g_test_run ();
}
