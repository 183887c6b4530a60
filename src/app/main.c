/* main.c: starts the Sluice playground
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "sluice-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SluiceApplication) app = NULL;
  const char *localedir;
  int status;

  setlocale (LC_ALL, "");
  /* SLUICE_LOCALEDIR: the build tree's catalogues, for an uninstalled run
   * (scripts/run and the tests set it to build/po). */
  localedir = g_getenv ("SLUICE_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = sluice_application_new ();

  status = g_application_run (G_APPLICATION (app), argc, argv);

  return status != 0 ? status : sluice_application_get_exit_status (app);
}
