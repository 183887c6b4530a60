/* sluice-run-exit.h: sluice-run's exit statuses, as its manual page says
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

enum {
  SLUICE_RUN_EXIT_OK = 0,
  SLUICE_RUN_EXIT_INTERNAL = 1,
  SLUICE_RUN_EXIT_USAGE = 2,
};

int sluice_run_exit_status_for (const GError *error);

G_END_DECLS
