/* sluice-handler-private.h: what the engine's own handlers share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-attempt.h"
#include "sluice-handler.h"

G_BEGIN_DECLS

GTask *_sluice_handler_task_new (SluiceHandler       *self,
                                 SluiceAttempt       *attempt,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data,
                                 gpointer             source_tag);

G_END_DECLS
