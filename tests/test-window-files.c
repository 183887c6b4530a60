/* test-window-files.c: files that keep their work (issue 12): the mark of
 * unsaved changes, the question before they are lost, Save over the file
 * with its comments, the editable title and description, where Open
 * starts; and field errors that show at once without moving the rows
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "sluice-config-panel.h"
#include "sluice-file-dialog.h"
#include "sluice-presets.h"
#include "sluice-scenario-header.h"
#include "sluice-window.h"
#include "window-fixture.h"
#include "test-helpers.h"

#define COMMENTED \
  "# Written by hand: keep this comment.\n" \
  "[scenario]\n" \
  "title=Two items\n" \
  "description=Two items, one worker.\n" \
  "\n" \
  "[pool]\n" \
  "# one at a time\n" \
  "workers = 1\n" \
  "queue-size=1\n" \
  "item-timeout=1\n" \
  "\n" \
  "# the items\n" \
  "[source]\n" \
  "count=2\n" \
  "\n" \
  "[handler]\n" \
  "default=ok 0.25\n" \
  "\n" \
  "[run]\n" \
  "clock=virtual\n"

static char *
write_pool (const char *name,
            const char *text)
{
  char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static SluiceWindow *
open_commented (char **path)
{
  SluiceWindow *window = window_fixture_new ();
  g_autoptr(GError) error = NULL;

  *path = write_pool ("sluice-files-commented.pool", COMMENTED);
  g_assert_true (sluice_window_open_file (window, *path, &error));
  g_assert_no_error (error);
  return window;
}

static SluiceConfigPanel *
panel_of (SluiceWindow *window)
{
  return SLUICE_CONFIG_PANEL (sluice_window_get_config_panel (window));
}

static void
answer (SluiceWindow *window,
        int           response)
{
  GtkWidget *question = sluice_window_get_question (window);

  g_assert_nonnull (question);
  g_assert_true (gtk_widget_get_visible (question));
  gtk_dialog_response (GTK_DIALOG (question), response);
  g_assert_null (sluice_window_get_question (window));
}

static void
set_true (gboolean *flag)
{
  *flag = TRUE;
}

/* Save writes without blocking the window (sluice_document_save_async()):
 * until the document has the text written. */
static void
wait_until_saved (SluiceWindow *window)
{
  SluiceDocument *document = sluice_window_get_document (window);
  guint timeout_id = window_fixture_add_timeout ();
  gboolean saved = FALSE;
  gulong handler = g_signal_connect_swapped (document, "notify::text", G_CALLBACK (set_true), &saved);

  while (!saved)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (document, handler);
  g_source_remove (timeout_id);
}

static void
save (SluiceWindow *window)
{
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.save", NULL));
  wait_until_saved (window);
}

/* Lets the frame clock lay the window out. */
static void
let_it_draw (void)
{
  gint64 end = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
}

/* An edit puts "• " before the title; saving takes it away. */
static void
test_an_edit_marks_the_title (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);

  g_assert_false (sluice_window_get_modified (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Two items");

  sluice_config_panel_set_field_text (panel_of (window), "pool", "workers", "2");
  g_assert_true (sluice_window_get_modified (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Two items");

  save (window);
  g_assert_false (sluice_window_get_modified (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Two items");

  g_unlink (path);
  window_fixture_close (window);
}

/* The window's title follows the document: its mark of unsaved changes,
 * a file it loads (however it is loaded), and the views show the
 * document's model, the run controller's for each run. */
static void
test_title_follows_the_document (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  SluiceDocument *document = sluice_window_get_document (window);
  SluiceRunController *run = sluice_window_get_run_controller (window);
  g_autoptr(GString) renamed = g_string_new (COMMENTED);
  g_autofree char *other = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceRunModel) before = NULL;

  g_assert_cmpstr (sluice_document_get_title (document), ==, "Two items");
  sluice_document_set_dirty (document, TRUE);
  g_assert_true (sluice_window_get_modified (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Two items");
  sluice_document_set_dirty (document, FALSE);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Two items");

  g_string_replace (renamed, "title=Two items", "title=Three workers", 1);
  g_string_replace (renamed, "workers = 1", "workers = 3", 1);
  other = write_pool ("sluice-files-renamed.pool", renamed->str);
  file = g_file_new_for_path (other);
  g_assert_true (sluice_document_load (document, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Three workers");
  g_assert_cmpstr (sluice_window_get_file (window), ==, other);
  g_assert_cmpint (sluice_scenario_get_workers (sluice_config_panel_get_scenario (panel_of (window))), ==, 3);

  g_assert_true (sluice_document_get_model (document) == sluice_run_controller_get_model (run));
  /* Held: a new model cannot take its address. */
  before = g_object_ref (sluice_document_get_model (document));
  window_fixture_run_virtual (window);
  g_assert_true (sluice_document_get_model (document) == sluice_run_controller_get_model (run));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset", NULL));
  g_assert_true (sluice_document_get_model (document) == sluice_run_controller_get_model (run));
  g_assert_true (sluice_document_get_model (document) != before);

  g_unlink (path);
  g_unlink (other);
  window_fixture_close (window);
}

/* Save writes over the user's own file: the comments, blank lines, the
 * spacing and the order stay, the edit is there. */
static void
test_save_keeps_the_files_comments (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  g_autofree char *text = NULL;
  g_autoptr(GString) expected = g_string_new (COMMENTED);

  sluice_config_panel_set_field_text (panel_of (window), "pool", "queue-size", "4");
  sluice_config_panel_set_field_text (panel_of (window), "pool", "keep-going", "true");
  save (window);
  g_assert_null (sluice_window_get_question (window));

  text = sluice_test_read_text (path);
  g_string_replace (expected, "queue-size=1\nitem-timeout=1\n", "queue-size=4\nitem-timeout=1\nkeep-going=true\n", 1);
  g_assert_cmpstr (text, ==, expected->str);

  g_unlink (path);
  window_fixture_close (window);
}

/* Whether @window is still one of the toplevels (gtk_window_destroy()
 * takes it out). */
static gboolean
is_open (SluiceWindow *window)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (toplevels, i);

      if (item == G_OBJECT (window))
        return TRUE;
    }

  return FALSE;
}

/* Closing a changed file asks; Cancel keeps the window and its changes,
 * Discard closes it. Without changes it closes at once. */
static void
test_closing_a_changed_file_asks_first (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  sluice_config_panel_set_field_text (panel_of (window), "pool", "workers", "3");

  gtk_window_close (GTK_WINDOW (window));
  g_assert_true (is_open (window));
  answer (window, GTK_RESPONSE_CANCEL);
  g_assert_true (is_open (window));
  g_assert_true (sluice_window_get_modified (window));

  gtk_window_close (GTK_WINDOW (window));
  answer (window, GTK_RESPONSE_REJECT);
  g_assert_false (is_open (window));
  /* Discarded: the file is as it was. */
  {
    g_autofree char *text = sluice_test_read_text (path);
    g_assert_cmpstr (text, ==, COMMENTED);
  }

  g_unlink (path);
  g_assert_finalize_object (window);
}

static void
test_closing_an_unchanged_file_does_not_ask (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_null (sluice_window_get_question (window));
  g_assert_false (is_open (window));

  g_unlink (path);
  g_assert_finalize_object (window);
}

/* Choosing a preset while the file has changes asks; Save writes the file
 * over itself, then opens the preset. */
static void
test_choosing_a_preset_while_changed_asks_first (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  g_autofree char *text = NULL;

  sluice_config_panel_set_field_text (panel_of (window), "pool", "workers", "5");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open-preset", "s", "retries"));
  g_assert_cmpstr (sluice_window_get_file (window), ==, path);

  answer (window, GTK_RESPONSE_ACCEPT);
  wait_until_saved (window);
  text = sluice_test_read_text (path);
  g_assert_nonnull (strstr (text, "# one at a time\nworkers = 5\n"));
  g_assert_true (g_str_has_suffix (sluice_window_get_file (window), "retries.pool"));
  g_assert_false (sluice_window_get_modified (window));

  g_unlink (path);
  window_fixture_close (window);
}

/* `sluice FILE.pool` into a window with changes asks too. */
static void
test_opening_another_file_while_changed_asks_first (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  g_autofree char *other = write_pool ("sluice-files-other.pool", COMMENTED);

  sluice_config_panel_set_field_text (panel_of (window), "pool", "workers", "5");
  sluice_window_open_file_asking (window, other);
  g_assert_cmpstr (sluice_window_get_file (window), ==, path);
  answer (window, GTK_RESPONSE_REJECT);
  g_assert_cmpstr (sluice_window_get_file (window), ==, other);
  g_assert_false (sluice_window_get_modified (window));

  g_unlink (path);
  g_unlink (other);
  window_fixture_close (window);
}

/* The title and description are edited in the sidebar, shown in the
 * window's title at once and saved as the scenario's keys. */
static void
test_title_and_description_are_editable (void)
{
  g_autofree char *path = NULL;
  SluiceWindow *window = open_commented (&path);
  SluiceScenarioHeader *header = SLUICE_SCENARIO_HEADER (sluice_config_panel_get_header (panel_of (window)));
  SluiceScenario *scenario;
  g_autofree char *text = NULL;

  sluice_scenario_header_set_editing (header, TRUE);
  sluice_scenario_header_set_title (header, "Two slow items");
  sluice_scenario_header_set_description (header, "Each item waits.");
  sluice_scenario_header_set_editing (header, FALSE);

  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "• Two slow items");
  scenario = sluice_config_panel_get_scenario (panel_of (window));
  g_assert_cmpstr (sluice_scenario_get_title (scenario), ==, "Two slow items");
  g_assert_cmpstr (sluice_scenario_get_description (scenario), ==, "Each item waits.");

  save (window);
  text = sluice_test_read_text (path);
  g_assert_true (g_str_has_prefix (text, "# Written by hand: keep this comment.\n[scenario]\n"
                                         "title=Two slow items\ndescription=Each item waits.\n\n[pool]\n"));

  g_unlink (path);
  window_fixture_close (window);
}

/* Once the settings or the texts are edited, the description says it
 * may no longer match; a scenario opened again does not. */
static void
test_an_edit_says_the_description_may_no_longer_match (void)
{
  SluiceWindow *window = window_fixture_new ();
  SluiceConfigPanel *panel = panel_of (window);
  SluiceScenarioHeader *header = SLUICE_SCENARIO_HEADER (sluice_config_panel_get_header (panel));

  g_assert_true (sluice_window_open_preset (window, "first-look", NULL));
  g_assert_false (sluice_scenario_header_get_note_shown (header));

  sluice_config_panel_set_field_text (panel, "pool", "workers", "2");
  g_assert_true (sluice_scenario_header_get_note_shown (header));
  g_assert_true (sluice_config_panel_get_edited (panel));

  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-preset", "s", "retries");
  answer (window, GTK_RESPONSE_REJECT);
  g_assert_false (sluice_scenario_header_get_note_shown (header));

  sluice_scenario_header_set_title (header, "Mine");
  g_assert_true (sluice_scenario_header_get_note_shown (header));

  window_fixture_close (window);
}

/* Open starts in the folder of the current file, else among the presets;
 * a preset is not saved among the presets. */
static void
test_open_starts_in_the_files_folder (void)
{
  g_autoptr(GFile) folder = sluice_file_dialog_get_folder (SLUICE_FILE_DIALOG_OPEN, "/tmp/lesson/a.pool");
  g_autoptr(GFile) lesson = g_file_new_for_path ("/tmp/lesson");
  g_autoptr(GFile) presets = g_file_new_for_path (sluice_presets_get_dir ());
  g_autofree char *preset = sluice_presets_find ("retries");
  g_autoptr(GFile) none = sluice_file_dialog_get_folder (SLUICE_FILE_DIALOG_OPEN, NULL);
  g_autoptr(GFile) open_preset = sluice_file_dialog_get_folder (SLUICE_FILE_DIALOG_OPEN, preset);
  g_autoptr(GFile) save_preset = sluice_file_dialog_get_folder (SLUICE_FILE_DIALOG_SAVE, preset);
  g_autoptr(GFile) save_own = sluice_file_dialog_get_folder (SLUICE_FILE_DIALOG_SAVE, "/tmp/lesson/a.pool");

  g_assert_true (g_file_equal (folder, lesson));
  g_assert_true (g_file_equal (none, presets));
  g_assert_true (g_file_equal (open_preset, presets));
  g_assert_false (g_file_equal (save_preset, presets));
  g_assert_true (g_file_equal (save_own, lesson));
}

static double
top_of (GtkWidget *widget,
        GtkWidget *ancestor)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, ancestor, &bounds));
  return bounds.origin.y;
}

/* A bad value shows at once (no wait for a timer): the field turns red and
 * the panel's error line names it; no row below it moves, neither for the
 * error nor for the note that the description may no longer match. */
static void
test_invalid_field_shows_at_once_without_moving_rows (void)
{
  SluiceWindow *window = window_fixture_new ();
  SluiceConfigPanel *panel = panel_of (window);
  GtkWidget *workers = sluice_config_panel_get_field_widget (panel, "pool", "workers");
  GtkWidget *below = sluice_config_panel_get_field_widget (panel, "pool", "item-timeout");
  GtkWidget *line = sluice_config_panel_get_error_line (panel);
  double before, line_height;

  g_assert_true (sluice_window_open_preset (window, "first-look", NULL));
  let_it_draw ();
  before = top_of (below, GTK_WIDGET (panel));
  line_height = gtk_widget_get_height (line);
  g_assert_cmpfloat (line_height, >, 0);

  sluice_config_panel_set_field_text (panel, "pool", "workers", "0");
  /* Before the main loop runs again. */
  g_assert_true (gtk_widget_has_css_class (workers, "error"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (line)), "out of range"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (workers), "out of range"));

  let_it_draw ();
  g_assert_cmpfloat (top_of (below, GTK_WIDGET (panel)), ==, before);
  g_assert_cmpfloat (gtk_widget_get_height (line), ==, line_height);

  sluice_config_panel_set_field_text (panel, "pool", "workers", "3");
  g_assert_false (gtk_widget_has_css_class (workers, "error"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (line)), ==, "");
  let_it_draw ();
  g_assert_cmpfloat (top_of (below, GTK_WIDGET (panel)), ==, before);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.open-preset", "s", "first-look");
  answer (window, GTK_RESPONSE_REJECT);
  window_fixture_close (window);
}


/* Save Run suggests "first-look.sluicerun": it is written under that name,
 * once (it became "first-look.sluicerun.sluicerun"); a name without the
 * extension takes it; exports keep theirs or take the filter's. */
static void
test_save_run_names_the_file_once (void)
{
  g_autofree char *suggested = sluice_file_dialog_complete_name (SLUICE_FILE_DIALOG_SAVE_RUN, "/tmp/first-look.sluicerun",
                                                                 "sluicerun");
  g_autofree char *bare = sluice_file_dialog_complete_name (SLUICE_FILE_DIALOG_SAVE_RUN, "/tmp/mine", "sluicerun");
  g_autofree char *no_filter = sluice_file_dialog_complete_name (SLUICE_FILE_DIALOG_SAVE_RUN, "/tmp/mine", NULL);
  g_autofree char *image = sluice_file_dialog_complete_name (SLUICE_FILE_DIALOG_EXPORT_IMAGE, "/tmp/chart.SVG", "png");
  g_autofree char *events = sluice_file_dialog_complete_name (SLUICE_FILE_DIALOG_EXPORT_EVENTS, "/tmp/events", NULL);

  g_assert_cmpstr (suggested, ==, "/tmp/first-look.sluicerun");
  g_assert_cmpstr (bare, ==, "/tmp/mine.sluicerun");
  g_assert_cmpstr (no_filter, ==, "/tmp/mine.sluicerun");
  g_assert_cmpstr (image, ==, "/tmp/chart.SVG");
  g_assert_cmpstr (events, ==, "/tmp/events.csv");
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/window/files/an-edit-marks-the-title", test_an_edit_marks_the_title);
  g_test_add_func ("/window/files/title-follows-the-document", test_title_follows_the_document);
  g_test_add_func ("/window/files/save-run-names-the-file-once", test_save_run_names_the_file_once);
  g_test_add_func ("/window/files/save-keeps-the-files-comments", test_save_keeps_the_files_comments);
  g_test_add_func ("/window/files/closing-a-changed-file-asks-first", test_closing_a_changed_file_asks_first);
  g_test_add_func ("/window/files/closing-an-unchanged-file-does-not-ask",
                   test_closing_an_unchanged_file_does_not_ask);
  g_test_add_func ("/window/files/choosing-a-preset-while-changed-asks-first",
                   test_choosing_a_preset_while_changed_asks_first);
  g_test_add_func ("/window/files/opening-another-file-while-changed-asks-first",
                   test_opening_another_file_while_changed_asks_first);
  g_test_add_func ("/window/files/title-and-description-are-editable", test_title_and_description_are_editable);
  g_test_add_func ("/window/files/an-edit-says-the-description-may-no-longer-match",
                   test_an_edit_says_the_description_may_no_longer_match);
  g_test_add_func ("/window/files/open-starts-in-the-files-folder", test_open_starts_in_the_files_folder);
  g_test_add_func ("/window/config/invalid-field-shows-at-once-without-moving-rows",
                   test_invalid_field_shows_at_once_without_moving_rows);

  return g_test_run ();
}
