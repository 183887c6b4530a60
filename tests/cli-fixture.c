/* cli-fixture.c: what the tests that run sluice-run as a program share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "cli-fixture.h"

#include <unistd.h>

/* $SLUICE_RUN, or NULL with the test marked skipped. */
const char *
sluice_run_path (void)
{
  const char *path = g_getenv ("SLUICE_RUN");

  if (path == NULL)
    g_test_skip ("SLUICE_RUN is not set");
  return path;
}

/* A new temporary .pool file holding @text; the caller unlinks it. */
char *
write_temp (const char *text)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp ("sluice-XXXXXX.pool", &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

/* Runs sluice-run with @args (NULL-terminated, without the program) to its
 * end: its exit status, standard output and standard error. */
gint
cli_run_to_end (const char * const  *args,
                char               **out,
                char               **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) sluice_run_path ());
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return sluice_test_run_to_end ((const char * const *) argv->pdata, out, err);
}

/* @text, a JSON object (sluice-run's report, a line of --events): the
 * object. */
JsonObject *
parse_report (const char *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (text, &error);

  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  return json_object_ref (json_node_get_object (node));
}
