/* sluice-event-reader-private.h: one event back from the JSON object that
 * sluice_recorder_event_to_line() wrote for it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <sluice.h>

G_BEGIN_DECLS

gboolean _sluice_event_read (JsonObject   *object,
                             SluiceEvent  *event,
                             GPtrArray    *unknown_keys,
                             GError      **error);

G_END_DECLS
