/* test-document.c: the playground's document (issue 24): its file, the
 * text Save edits, its title, the mark of unsaved changes, the run's
 * model; load and save in GIO's async style, with errors that name the
 * file. No display: the document knows no widget.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <glib/gstdio.h>
#include <string.h>

#include "sluice-document.h"
#include "test-helpers.h"

#define COMMENTED \
  "# Written by hand: keep this comment.\n" \
  "[scenario]\n" \
  "title=Two items\n" \
  "\n" \
  "[pool]\n" \
  "# one at a time\n" \
  "workers = 1\n" \
  "queue-size=1\n" \
  "item-timeout=1\n" \
  "\n" \
  "[source]\n" \
  "count=2\n" \
  "\n" \
  "[handler]\n" \
  "default=ok 0.25\n" \
  "\n" \
  "[run]\n" \
  "clock=virtual\n"

#define UNTITLED \
  "[pool]\n" \
  "workers=1\n" \
  "queue-size=1\n" \
  "item-timeout=1\n" \
  "[source]\n" \
  "count=1\n" \
  "[run]\n" \
  "clock=virtual\n"

typedef struct {
  char *dir;       /* a folder of the test's own */
  char *path;      /* COMMENTED in it */
} Fixture;

static char *
write_in (Fixture    *f,
          const char *name,
          const char *text)
{
  char *path = g_build_filename (f->dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("sluice-document-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = write_in (f, "two.pool", COMMENTED);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->path);
}

/* ---- waiting for an async call --------------------------------------- */

static void
on_result (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}

static gboolean
load (SluiceDocument  *document,
      const char      *path,
      GError         **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GAsyncResult) result = NULL;

  sluice_document_load_async (document, file, NULL, on_result, &result);
  /* The document changes on this thread, in a later turn of its loop. */
  g_assert_null (result);
  return sluice_document_load_finish (document, wait_for (&result), error);
}

static gboolean
save (SluiceDocument  *document,
      const char      *path,
      GError         **error)
{
  g_autoptr(GFile) file = path != NULL ? g_file_new_for_path (path) : NULL;
  g_autoptr(GAsyncResult) result = NULL;

  sluice_document_save_async (document, file, NULL, on_result, &result);
  return sluice_document_save_finish (document, wait_for (&result), error);
}

static void
count (guint *n)
{
  (*n)++;
}

/* The scenario as a person edited it in the panel. */
static SluiceScenario *
edited (const char *from,
        const char *to)
{
  g_autoptr(GString) text = g_string_new (COMMENTED);
  g_autoptr(GError) error = NULL;
  SluiceScenario *scenario;

  g_string_replace (text, from, to, 1);
  scenario = sluice_scenario_new_from_data (text->str, -1, "edited", NULL, &error);
  g_assert_no_error (error);
  return scenario;
}

/* ---- the tests --------------------------------------------------------- */

/* Loaded, the document has the file, its text as it is on disk (what
 * Save edits), the scenario's title, the file's name as subtitle, and no
 * unsaved changes; ::loaded says so once, and the title is notified. */
static void
test_load_takes_the_file_its_text_and_title (Fixture       *f,
                                             gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autoptr(GFile) file = g_file_new_for_path (f->path);
  g_autoptr(GError) error = NULL;
  guint loaded = 0, titles = 0;

  g_signal_connect_swapped (document, "loaded", G_CALLBACK (count), &loaded);
  g_signal_connect_swapped (document, "notify::title", G_CALLBACK (count), &titles);

  g_assert_true (load (document, f->path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_equal (sluice_document_get_file (document), file));
  g_assert_cmpstr (sluice_document_get_path (document), ==, f->path);
  g_assert_cmpstr (sluice_document_get_text (document), ==, COMMENTED);
  g_assert_cmpstr (sluice_document_get_title (document), ==, "Two items");
  g_assert_cmpstr (sluice_document_get_subtitle (document), ==, "two.pool");
  g_assert_cmpint (sluice_scenario_get_workers (sluice_document_get_scenario (document)), ==, 1);
  g_assert_false (sluice_document_get_dirty (document));
  g_assert_cmpuint (loaded, ==, 1);
  g_assert_cmpuint (titles, ==, 1);
}

/* An edit makes the document dirty; Save writes the edit over the file's
 * own text (its comments stay) and makes it clean; an edit made while it
 * writes stays unsaved; loading a file again makes it clean. */
static void
test_dirty_follows_edit_save_and_load (Fixture       *f,
                                       gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autoptr(SluiceScenario) two_workers = edited ("workers = 1", "workers = 2");
  g_autoptr(SluiceScenario) three_workers = edited ("workers = 1", "workers = 3");
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *written = NULL;
  guint dirties = 0;

  g_assert_true (load (document, f->path, &error));
  g_signal_connect_swapped (document, "notify::dirty", G_CALLBACK (count), &dirties);

  sluice_document_set_scenario (document, two_workers);
  sluice_document_set_dirty (document, TRUE);
  g_assert_true (sluice_document_get_dirty (document));
  g_assert_cmpuint (dirties, ==, 1);

  g_assert_true (save (document, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (sluice_document_get_dirty (document));
  g_assert_cmpuint (dirties, ==, 2);
  written = sluice_test_read_text (f->path);
  g_assert_nonnull (strstr (written, "# Written by hand: keep this comment.\n"));
  g_assert_nonnull (strstr (written, "# one at a time\nworkers = 2\n"));
  g_assert_cmpstr (sluice_document_get_text (document), ==, written);

  /* Edited while it writes: the edit is not in the file. */
  sluice_document_set_dirty (document, TRUE);
  sluice_document_save_async (document, NULL, NULL, on_result, &result);
  sluice_document_set_scenario (document, three_workers);
  g_assert_true (sluice_document_save_finish (document, wait_for (&result), &error));
  g_assert_true (sluice_document_get_dirty (document));

  g_assert_true (load (document, f->path, &error));
  g_assert_false (sluice_document_get_dirty (document));
  g_assert_cmpint (sluice_scenario_get_workers (sluice_document_get_scenario (document)), ==, 2);
}

/* The title is the scenario's, as last valid (NULL while a field is
 * invalid keeps it); else the file's name; else "Untitled scenario". */
static void
test_title_falls_back_to_the_file_name_then_untitled (Fixture       *f,
                                                      gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autoptr(SluiceScenario) renamed = edited ("title=Two items", "title=Renamed");
  g_autofree char *untitled = write_in (f, "no-title.pool", UNTITLED);
  g_autoptr(GError) error = NULL;
  guint titles = 0;

  g_assert_cmpstr (sluice_document_get_title (document), ==, "Untitled scenario");
  g_assert_cmpstr (sluice_document_get_subtitle (document), ==, "");

  g_assert_true (load (document, f->path, &error));
  g_signal_connect_swapped (document, "notify::title", G_CALLBACK (count), &titles);
  sluice_document_set_scenario (document, renamed);
  g_assert_cmpstr (sluice_document_get_title (document), ==, "Renamed");
  g_assert_cmpuint (titles, ==, 1);
  sluice_document_set_scenario (document, NULL);
  g_assert_cmpstr (sluice_document_get_title (document), ==, "Renamed");
  g_assert_cmpuint (titles, ==, 1);

  g_assert_true (load (document, untitled, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sluice_document_get_title (document), ==, "no-title.pool");
  g_assert_cmpuint (titles, ==, 2);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(char * const *) a, *(char * const *) b);
}

/* Save As writes the name it is given, once (not "copy.pool.pool"), and
 * the copy is the document's file from then on; the first file stays as
 * it was. */
static void
test_save_as_names_the_file_once (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autofree char *copy = g_build_filename (f->dir, "copy.pool", NULL);
  g_autoptr(GFile) copy_file = g_file_new_for_path (copy);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_true (load (document, f->path, &error));
  sluice_document_set_dirty (document, TRUE);
  g_assert_true (save (document, copy, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_equal (sluice_document_get_file (document), copy_file));
  g_assert_cmpstr (sluice_document_get_subtitle (document), ==, "copy.pool");
  g_assert_false (sluice_document_get_dirty (document));
  dir = g_dir_open (f->dir, 0, &error);
  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_assert_cmpuint (names->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (names, 0), ==, "copy.pool");
  g_assert_cmpstr (g_ptr_array_index (names, 1), ==, "two.pool");
  {
    g_autofree char *original = sluice_test_read_text (f->path);
    g_autofree char *written = sluice_test_read_text (copy);

    g_assert_cmpstr (original, ==, COMMENTED);
    g_assert_cmpstr (written, ==, COMMENTED);
  }
}

/* A file that does not load is named in the error, whether it is missing
 * or not a valid scenario, loaded async or not; the document stays as it
 * was. */
static void
test_load_error_names_the_file (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autofree char *missing = g_build_filename (f->dir, "missing.pool", NULL);
  g_autofree char *bad = write_in (f, "bad.pool", "[pool]\nworkers=0\n");
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  g_autoptr(GError) error = NULL;
  guint loaded = 0;

  g_assert_true (load (document, f->path, &error));
  g_signal_connect_swapped (document, "loaded", G_CALLBACK (count), &loaded);

  g_assert_false (load (document, missing, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);

  g_assert_false (load (document, bad, &error));
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_MISSING_KEY);
  g_assert_nonnull (strstr (error->message, bad));
  g_clear_error (&error);

  g_assert_false (sluice_document_load (document, bad_file, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, bad));

  g_assert_cmpuint (loaded, ==, 0);
  g_assert_cmpstr (sluice_document_get_path (document), ==, f->path);
  g_assert_cmpstr (sluice_document_get_title (document), ==, "Two items");
  g_assert_cmpstr (sluice_document_get_text (document), ==, COMMENTED);
}

/* A file that cannot be written is named in the error, and the changes
 * stay unsaved. */
static void
test_save_error_names_the_file (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autofree char *nowhere = g_build_filename (f->dir, "no-such-folder", "x.pool", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (load (document, f->path, &error));
  sluice_document_set_dirty (document, TRUE);
  g_assert_false (save (document, nowhere, &error));
  g_assert_error (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_IO);
  g_assert_nonnull (strstr (error->message, nowhere));
  g_assert_true (sluice_document_get_dirty (document));
  g_assert_cmpstr (sluice_document_get_path (document), ==, f->path);
}

/* A recording's scenario or an attached pool's is a new one: no file (Save
 * asks where), the text Save would edit, where it came from as subtitle,
 * clean, and ::loaded. */
static void
test_replace_is_untitled_and_clean (Fixture       *f,
                                    gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autoptr(SluiceScenario) scenario = edited ("title=Two items", "title=Recorded");
  g_autoptr(GError) error = NULL;
  guint loaded = 0;

  g_assert_true (load (document, f->path, &error));
  sluice_document_set_dirty (document, TRUE);
  g_signal_connect_swapped (document, "loaded", G_CALLBACK (count), &loaded);

  sluice_document_replace (document, scenario, COMMENTED, "run.sluicerun");
  g_assert_null (sluice_document_get_file (document));
  g_assert_null (sluice_document_get_path (document));
  g_assert_cmpstr (sluice_document_get_text (document), ==, COMMENTED);
  g_assert_cmpstr (sluice_document_get_subtitle (document), ==, "run.sluicerun");
  g_assert_cmpstr (sluice_document_get_title (document), ==, "Recorded");
  g_assert_false (sluice_document_get_dirty (document));
  g_assert_cmpuint (loaded, ==, 1);
}

/* Each run's model is the document's in turn, notified once per new
 * model. */
static void
test_model_is_notified_once_per_run (Fixture       *f,
                                     gconstpointer  data)
{
  g_autoptr(SluiceDocument) document = sluice_document_new ();
  g_autoptr(SluiceRunModel) first = sluice_run_model_new_idle (2);
  g_autoptr(SluiceRunModel) second = sluice_run_model_new_idle (3);
  guint models = 0;

  g_signal_connect_swapped (document, "notify::model", G_CALLBACK (count), &models);
  g_object_set (document, "model", first, NULL);
  g_assert_true (sluice_document_get_model (document) == first);
  sluice_document_set_model (document, first);
  g_assert_cmpuint (models, ==, 1);
  sluice_document_set_model (document, second);
  g_assert_true (sluice_document_get_model (document) == second);
  g_assert_cmpuint (models, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/document/load/takes-the-file-its-text-and-title", Fixture, NULL, fixture_set_up,
              test_load_takes_the_file_its_text_and_title, fixture_tear_down);
  g_test_add ("/document/dirty/follows-edit-save-and-load", Fixture, NULL, fixture_set_up,
              test_dirty_follows_edit_save_and_load, fixture_tear_down);
  g_test_add ("/document/title/falls-back-to-the-file-name-then-untitled", Fixture, NULL, fixture_set_up,
              test_title_falls_back_to_the_file_name_then_untitled, fixture_tear_down);
  g_test_add ("/document/save-as/names-the-file-once", Fixture, NULL, fixture_set_up,
              test_save_as_names_the_file_once, fixture_tear_down);
  g_test_add ("/document/load/error-names-the-file", Fixture, NULL, fixture_set_up,
              test_load_error_names_the_file, fixture_tear_down);
  g_test_add ("/document/save/error-names-the-file", Fixture, NULL, fixture_set_up,
              test_save_error_names_the_file, fixture_tear_down);
  g_test_add ("/document/replace/is-untitled-and-clean", Fixture, NULL, fixture_set_up,
              test_replace_is_untitled_and_clean, fixture_tear_down);
  g_test_add ("/document/model/is-notified-once-per-run", Fixture, NULL, fixture_set_up,
              test_model_is_notified_once_per_run, fixture_tear_down);

  return g_test_run ();
}
