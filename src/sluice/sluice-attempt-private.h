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

/* What an attempt tells the run that drives it. */
typedef enum {
  SLUICE_ATTEMPT_CANCEL_ROUND,    /* a cancel-request round began */
  SLUICE_ATTEMPT_IGNORING_CANCEL, /* three rounds are over: now it is waited for
                                   * however long it takes */
  SLUICE_ATTEMPT_ENDED,           /* it has its outcome */
} SluiceAttemptChange;

typedef void (*SluiceAttemptNotify) (SluiceAttempt       *attempt,
                                     SluiceAttemptChange  change,
                                     gpointer             user_data);

SluiceAttempt *_sluice_attempt_new          (GVariant            *item,
                                             gint64               item_index,
                                             guint                number,
                                             guint                worker);
gboolean       _sluice_attempt_recycle      (SluiceAttempt       *self,
                                             GVariant            *item,
                                             gint64               item_index,
                                             guint                number,
                                             guint                worker);
void           _sluice_attempt_set_deadline (SluiceAttempt       *self,
                                             SluiceClock         *clock,
                                             gint64               now,
                                             gint64               timeout,
                                             gint64               item_deadline);
void           _sluice_attempt_start        (SluiceAttempt       *self,
                                             SluiceHandler       *handler,
                                             SluiceAttemptNotify  notify,
                                             gpointer             user_data);
void           _sluice_attempt_cancel       (SluiceAttempt       *self);
void           _sluice_attempt_cancel_once  (SluiceAttempt       *self);
GError        *_sluice_attempt_steal_handler_error (SluiceAttempt *self);
gboolean       _sluice_attempt_is_finished  (SluiceAttempt       *self);
void           _sluice_attempt_describe     (SluiceAttempt       *self,
                                             SluiceEvent         *event);
SluiceOutcome  _sluice_attempt_get_outcome  (SluiceAttempt       *self);
const GError  *_sluice_attempt_get_error    (SluiceAttempt       *self);
GError        *_sluice_attempt_steal_error  (SluiceAttempt       *self);
GVariant      *_sluice_attempt_steal_result (SluiceAttempt       *self);
GVariant      *_sluice_attempt_get_late_result (SluiceAttempt    *self);
guint          _sluice_attempt_get_n_timers (SluiceAttempt       *self);

G_END_DECLS
