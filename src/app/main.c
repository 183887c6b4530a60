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
  int status;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  app = sluice_application_new ();

  status = g_application_run (G_APPLICATION (app), argc, argv);

  return status != 0 ? status : sluice_application_get_exit_status (app);
}
