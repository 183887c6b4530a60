/* test-version.c: sluice-version.h against the project's version, built as
 * an outside program sees libsluice (the installed shared library and its
 * public headers only)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <stdlib.h>

#include <sluice.h>

#ifndef SLUICE_PROJECT_VERSION
# error "tests/meson.build passes -DSLUICE_PROJECT_VERSION"
#endif

static void
test_version_numbers (void)
{
  g_autofree char *joined = g_strdup_printf ("%d.%d.%d", SLUICE_MAJOR_VERSION,
                                             SLUICE_MINOR_VERSION, SLUICE_MICRO_VERSION);

  g_assert_cmpstr (SLUICE_VERSION_S, ==, SLUICE_PROJECT_VERSION);
  g_assert_cmpstr (joined, ==, SLUICE_PROJECT_VERSION);
}

static void
test_check_version (void)
{
  g_auto(GStrv) parts = g_strsplit (SLUICE_PROJECT_VERSION, ".", -1);
  int major, minor, micro;

  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  major = atoi (parts[0]);
  minor = atoi (parts[1]);
  micro = atoi (parts[2]);

  /* The version itself, and anything older. */
  g_assert_true (SLUICE_CHECK_VERSION (major, minor, micro));
  g_assert_true (SLUICE_CHECK_VERSION (0, 0, 0));
  g_assert_true (SLUICE_CHECK_VERSION (major, minor, 0));
  g_assert_true (SLUICE_CHECK_VERSION (major, 0, 0));
  if (micro > 0)
    g_assert_true (SLUICE_CHECK_VERSION (major, minor, micro - 1));
  if (minor > 0)
    g_assert_true (SLUICE_CHECK_VERSION (major, minor - 1, 99));
  if (major > 0)
    g_assert_true (SLUICE_CHECK_VERSION (major - 1, 99, 99));

  /* Anything newer. */
  g_assert_false (SLUICE_CHECK_VERSION (major, minor, micro + 1));
  g_assert_false (SLUICE_CHECK_VERSION (major, minor + 1, 0));
  g_assert_false (SLUICE_CHECK_VERSION (major + 1, 0, 0));

  /* Usable in the preprocessor. */
#if !SLUICE_CHECK_VERSION (0, 0, 0)
  g_assert_not_reached ();
#endif
}

/* The public API links from the shared library: a type and the error
 * domain resolve, with nothing private in the way. */
static void
test_public_symbols (void)
{
  g_assert_true (G_TYPE_IS_OBJECT (SLUICE_TYPE_POOL));
  g_assert_cmpuint (SLUICE_ERROR, !=, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/version/numbers", test_version_numbers);
  g_test_add_func ("/version/check-version", test_check_version);
  g_test_add_func ("/version/public-symbols", test_public_symbols);

  return g_test_run ();
}
