/* sluice-run-compare.h: `sluice-run --compare B.pool A.pool`
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *sluice_run_compare_describe        (void);
gboolean    sluice_run_compare_check_arguments (const char * const  *files,
                                                const char          *events_path,
                                                const char          *record_path,
                                                GError             **error);
int         sluice_run_compare                 (const char          *b_path,
                                                const char          *a_path,
                                                const char * const  *overrides,
                                                gboolean             json);

G_END_DECLS
