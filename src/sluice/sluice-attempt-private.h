/* sluice-attempt-private.h: how the run drives an attempt
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-attempt.h"
#include "sluice-clock.h"
#include "sluice-event.h"
#include "sluice-handler.h"

G_BEGIN_DECLS

/*
 * SluiceAttemptNotify:
 * Tells the run about a cancel-request round (%SLUICE_EVENT_CANCEL_REQUEST),
 * an attempt that now is waited for however long it takes
 * (%SLUICE_EVENT_IGNORING_CANCEL), and the end (%SLUICE_EVENT_ATTEMPT_END).
 */
typedef void (*SluiceAttemptNotify) (SluiceAttempt   *attempt,
                                     SluiceEventKind  kind,
                                     gpointer         user_data);

SluiceAttempt *_sluice_attempt_new          (GVariant            *item,
                                             gint64               item_index,
                                             guint                number,
                                             guint                worker);
void           _sluice_attempt_start        (SluiceAttempt       *self,
                                             SluiceHandler       *handler,
                                             SluiceClock         *clock,
                                             gint64               timeout,
                                             gint64               item_deadline,
                                             SluiceAttemptNotify  notify,
                                             gpointer             user_data);
void           _sluice_attempt_cancel       (SluiceAttempt       *self);
gboolean       _sluice_attempt_is_finished  (SluiceAttempt       *self);
SluiceOutcome  _sluice_attempt_get_outcome  (SluiceAttempt       *self);
const GError  *_sluice_attempt_get_error    (SluiceAttempt       *self);
GError        *_sluice_attempt_steal_error  (SluiceAttempt       *self);
GVariant      *_sluice_attempt_steal_result (SluiceAttempt       *self);
guint          _sluice_attempt_get_n_timers (SluiceAttempt       *self);

G_END_DECLS
