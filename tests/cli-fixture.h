/* cli-fixture.h: what the tests that run sluice-run as a program share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

#include "test-helpers.h"

G_BEGIN_DECLS

const char *sluice_run_path (void);
char       *write_temp      (const char          *text);
JsonObject *parse_report    (const char          *text);
gint        cli_run_to_end  (const char * const  *args,
                             char               **out,
                             char               **err);

G_END_DECLS
