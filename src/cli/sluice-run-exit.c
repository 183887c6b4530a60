/* sluice-run-exit.c: which exit status an error that ends sluice-run
 * gives (docs/sluice-run.1.in, EXIT STATUS)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-run-exit.h"

#include <sluice.h>

#include "sluice-scenario.h"

/* What the person asked for is wrong (a scenario that does not read, an
 * option, a configuration the pool refuses): 2, with a message to fix it
 * by; anything else went wrong inside: 1. */
int
sluice_run_exit_status_for (const GError *error)
{
  if (error->domain == SLUICE_SCENARIO_ERROR || error->domain == G_OPTION_ERROR ||
      g_error_matches (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG))
    return SLUICE_RUN_EXIT_USAGE;
  return SLUICE_RUN_EXIT_INTERNAL;
}
