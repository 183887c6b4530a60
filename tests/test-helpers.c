/* test-helpers.c: what the suites share that is no fixture of one layer
 * (test-helpers.h)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include <glib/gstdio.h>
#include <libintl.h>
#include <locale.h>

#include "test-helpers.h"

gboolean
sluice_test_wake_up (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* The watchdog of SLUICE_TEST_SPIN_WITHIN(): fails the test with the
 * message it was given. */
gboolean
sluice_test_fail_watchdog (gpointer message)
{
  g_error ("%s", (const char *) message);
  return G_SOURCE_REMOVE;
}

/* A connection to @bus's message bus, as another process would open it. */
GDBusConnection *
sluice_test_bus_connection_new (GTestDBus *bus)
{
  g_autoptr(GError) error = NULL;
  GDBusConnection *connection;

  connection = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (bus),
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);
  return connection;
}

/* A child's next line; fails the test if the child closed the pipe. */
char *
sluice_test_read_line (GDataInputStream *lines)
{
  g_autoptr(GError) error = NULL;
  char *line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (line);
  return line;
}

/* A child's next line, which must be @n_words words separated by spaces,
 * the first @first (a readiness line "ready NAME PATH", a report "done N
 * M"): its words. */
GStrv
sluice_test_read_words (GDataInputStream *lines,
                        const char       *first,
                        guint             n_words)
{
  g_autofree char *line = sluice_test_read_line (lines);
  GStrv words = g_strsplit (line, " ", -1);

  g_assert_cmpuint (g_strv_length (words), ==, n_words);
  g_assert_cmpstr (words[0], ==, first);
  return words;
}

/* Reads @lines until one that contains @needle (the line a child prints
 * when it is ready), logging each as @who's; fails the test if the child
 * closes the pipe first. */
void
sluice_test_wait_for_line (GDataInputStream *lines,
                           const char       *needle,
                           const char       *who)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);

      g_assert_no_error (error);
      if (line == NULL)
        g_error ("%s closed its output before printing “%s”", who, needle);
      g_test_message ("%s: %s", who, line);
      if (strstr (line, needle) != NULL)
        return;
    }
}

/* Runs @argv to its end with standard output and error piped: its exit
 * status, what it wrote in @out and @err (freed by the caller). */
gint
sluice_test_run_to_end (const char * const  *argv,
                        char               **out,
                        char               **err)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  g_test_message ("%s: exit %d; out: %.2000s; err: %.2000s", argv[0], g_subprocess_get_exit_status (process),
                  out != NULL ? *out : "", err != NULL ? *err : "");
  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}

const SluiceTestLanguage sluice_test_languages[3] = {
  { "", "Pulled" },
  { "de", "Abgerufen" },
  { "id", "Ditarik" },
};

/* The app's messages in @language from the catalogues of the build tree
 * ($SLUICE_LOCALEDIR): the messages' category goes to C.UTF-8 for a
 * language, back to C for none (""). The tests' binaries bind the app's
 * text domain here. */
void
sluice_test_set_language (const char *language)
{
  setlocale (LC_MESSAGES, *language != '\0' ? "C.UTF-8" : "C");
  g_setenv ("LANGUAGE", language, TRUE);
  if (g_getenv ("SLUICE_LOCALEDIR") != NULL)
    bindtextdomain ("sluice", g_getenv ("SLUICE_LOCALEDIR"));
  bind_textdomain_codeset ("sluice", "UTF-8");
  /* Also forgets the translations looked up so far. */
  textdomain ("sluice");
}

/* Switches to @language, one of sluice_test_languages; FALSE, the test
 * skipped and the messages as written again, when the build tree has no
 * catalogue for it. */
gboolean
sluice_test_try_language (const char *language)
{
  const char *pulled = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (sluice_test_languages); i++)
    if (g_str_equal (sluice_test_languages[i].language, language))
      pulled = sluice_test_languages[i].pulled;
  g_assert_nonnull (pulled);
  if (*language != '\0' && g_getenv ("SLUICE_LOCALEDIR") == NULL)
    {
      g_test_skip ("SLUICE_LOCALEDIR is not set");
      return FALSE;
    }
  sluice_test_set_language (language);
  if (!g_str_equal (dgettext ("sluice", "Pulled"), pulled))
    {
      sluice_test_set_language ("");
      g_test_skip ("the build tree has no catalogue for this language");
      return FALSE;
    }
  return TRUE;
}

/* The whole of the file at @path, which must be readable. */
char *
sluice_test_read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* A path named @name in a new scratch folder of its own;
 * sluice_test_remove_temp() removes both. */
char *
sluice_test_temp_path (const char *name)
{
  g_autofree char *dir = g_dir_make_tmp ("sluice-test-XXXXXX", NULL);

  g_assert_nonnull (dir);
  return g_build_filename (dir, name, NULL);
}

void
sluice_test_remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

/* Saves @surface as @name in the build directory, for a person to look at
 * what a render test drew. */
void
sluice_test_save_png (cairo_surface_t *surface,
                      const char      *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);

  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
}
