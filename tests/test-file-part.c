/* test-file-part.c: files Sluice writes for a person (sluice-run --events
 * and --record, the app's Save Run and exports) appear under their name
 * whole or not at all (issue 25)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sluice-file-part-private.h"

typedef struct {
  char *dir;
  char *path;
  char *part;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("sluice-file-part-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, "run.jsonl", NULL);
  f->part = g_strconcat (f->path, ".part", NULL);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_unlink (f->path);
  g_unlink (f->part);
  g_rmdir (f->part);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->path);
  g_free (f->part);
}

static void
write_text (SluiceFilePart *file,
            const char     *text)
{
  g_autoptr(GError) error = NULL;

  g_output_stream_write_all (_sluice_file_part_get_stream (file), text, strlen (text), NULL, NULL, &error);
  g_assert_no_error (error);
}

static void
assert_contents (const char *path,
                 const char *expected)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, expected);
}

/* Until it is committed, what is written is under FILE.part only; then
 * under FILE, and FILE.part is gone. */
static void
test_file_appears_when_committed (Fixture       *f,
                                  gconstpointer  data)
{
  g_autoptr(SluiceFilePart) file = NULL;
  g_autoptr(GError) error = NULL;

  file = _sluice_file_part_new (f->path, &error);
  g_assert_no_error (error);
  write_text (file, "first line\n");
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (f->part, G_FILE_TEST_EXISTS));

  g_assert_true (_sluice_file_part_commit (file, &error));
  g_assert_no_error (error);
  assert_contents (f->path, "first line\n");
  g_assert_false (g_file_test (f->part, G_FILE_TEST_EXISTS));
}

/* A write given up (an error, a cancelled save) leaves the file that was
 * there as it was, with its permissions kept by the one that replaces it. */
static void
test_abandoned_write_keeps_the_old_file (Fixture       *f,
                                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  g_file_set_contents (f->path, "old\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (f->path, 0600), ==, 0);
  {
    g_autoptr(SluiceFilePart) file = _sluice_file_part_new (f->path, &error);

    g_assert_no_error (error);
    write_text (file, "half of a new");
  }
  assert_contents (f->path, "old\n");
  g_assert_false (g_file_test (f->part, G_FILE_TEST_EXISTS));

  {
    g_autoptr(SluiceFilePart) file = _sluice_file_part_new (f->path, &error);

    g_assert_no_error (error);
    write_text (file, "new\n");
    g_assert_true (_sluice_file_part_commit (file, &error));
    g_assert_no_error (error);
  }
  assert_contents (f->path, "new\n");
  g_assert_cmpint (g_stat (f->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
}

/* A FILE.part a killed run left is replaced by the next write. */
static void
test_stale_part_is_replaced (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(SluiceFilePart) file = NULL;
  g_autoptr(GError) error = NULL;

  g_file_set_contents (f->part, "a killed run's half", -1, &error);
  g_assert_no_error (error);
  file = _sluice_file_part_new (f->path, &error);
  g_assert_no_error (error);
  write_text (file, "whole\n");
  g_assert_true (_sluice_file_part_commit (file, &error));
  g_assert_no_error (error);
  assert_contents (f->path, "whole\n");
}

/* What cannot be written is refused before anything is written: a folder,
 * a folder that is not there; a device is written as it is. */
static void
test_what_cannot_be_written_is_refused_at_once (Fixture       *f,
                                                gconstpointer  data)
{
  g_autofree char *missing = g_build_filename (f->dir, "no", "run.jsonl", NULL);
  g_autoptr(SluiceFilePart) device = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_null (_sluice_file_part_new (f->dir, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY);
  g_assert_nonnull (strstr (error->message, f->dir));
  g_clear_error (&error);

  g_assert_null (_sluice_file_part_new (missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "run.jsonl.part"));
  g_clear_error (&error);

  device = _sluice_file_part_new ("/dev/null", &error);
  g_assert_no_error (error);
  write_text (device, "nothing\n");
  g_assert_true (_sluice_file_part_commit (device, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test ("/dev/null.part", G_FILE_TEST_EXISTS));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/file-part/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("file-appears-when-committed", test_file_appears_when_committed);
  ADD ("abandoned-write-keeps-the-old-file", test_abandoned_write_keeps_the_old_file);
  ADD ("stale-part-is-replaced", test_stale_part_is_replaced);
  ADD ("what-cannot-be-written-is-refused-at-once", test_what_cannot_be_written_is_refused_at_once);

  return g_test_run ();
}
