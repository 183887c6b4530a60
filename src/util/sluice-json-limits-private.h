/* sluice-json-limits-private.h: the limits a JSON text from outside must
 * keep before a parser sees it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The deepest nesting of arrays and objects a JSON text from outside may
 * have. json-glib's parser (and json_gvariant_deserialize(), and every
 * recursive walk over a node) recurses once per level: some 200,000
 * levels overflow a thread's stack. Nothing Sluice writes nests deeper
 * than a dozen levels (a report is at most 8, a recording's header one
 * more, a payload's value what a person typed). */
#define SLUICE_JSON_MAX_DEPTH 64

gboolean _sluice_json_check_limits (const char  *text,
                                    gssize       length,
                                    gsize        max_size,
                                    GError     **error);

G_END_DECLS
