/* sluice-payload-handler.h: the fault-injecting handler, with the
 * behaviour a stored job's payload names
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

G_BEGIN_DECLS

/**
 * SLUICE_PAYLOAD_ERROR:
 *
 * The type name of the error of a payload that is not an object with a
 * valid behaviour: `PayloadError` (never retried: it would fail again).
 */
#define SLUICE_PAYLOAD_ERROR "PayloadError"

#define SLUICE_TYPE_PAYLOAD_HANDLER (sluice_payload_handler_get_type ())
G_DECLARE_FINAL_TYPE (SluicePayloadHandler, sluice_payload_handler, SLUICE, PAYLOAD_HANDLER, GObject)

SluicePayloadHandler *sluice_payload_handler_new (SluiceClock *clock);

G_END_DECLS
