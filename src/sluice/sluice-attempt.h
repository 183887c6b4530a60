/* sluice-attempt.h: one call of the handler, with its own cancellable and local data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <gio/gio.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_ATTEMPT (sluice_attempt_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceAttempt, sluice_attempt, SLUICE, ATTEMPT, GObject)

/**
 * SluiceAttemptCancelFunc:
 * @attempt: the attempt whose cancellation the pool requested
 * @user_data: the data given to sluice_attempt_set_cancel_func()
 *
 * Called in the pool's thread right after the pool cancelled the
 * attempt's own cancellable.
 *
 * Since: 1.0
 */
typedef void (*SluiceAttemptCancelFunc) (SluiceAttempt *attempt,
                                         gpointer       user_data);

SLUICE_AVAILABLE_IN_1_0
GVariant     *sluice_attempt_get_item          (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
gint64        sluice_attempt_get_item_index    (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
guint         sluice_attempt_get_number        (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
guint         sluice_attempt_get_worker        (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
gint64        sluice_attempt_get_started_at    (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
gint64        sluice_attempt_get_deadline      (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
GCancellable *sluice_attempt_get_cancellable   (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
guint         sluice_attempt_get_cancel_rounds (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
gint          sluice_attempt_get_priority      (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
gpointer      sluice_attempt_get_local         (SluiceAttempt  *self);
SLUICE_AVAILABLE_IN_1_0
void          sluice_attempt_set_local         (SluiceAttempt  *self,
                                                gpointer        data,
                                                GDestroyNotify  destroy);
SLUICE_AVAILABLE_IN_1_0
gboolean      sluice_attempt_set_cancel_func   (SluiceAttempt           *self,
                                                SluiceAttemptCancelFunc  func,
                                                gpointer                 user_data);
SLUICE_AVAILABLE_IN_1_0
void          sluice_attempt_return_result     (SluiceAttempt  *self,
                                                GVariant       *result);
SLUICE_AVAILABLE_IN_1_0
void          sluice_attempt_return_error      (SluiceAttempt  *self,
                                                GError         *error);
SLUICE_AVAILABLE_IN_1_0
GVariant     *sluice_attempt_propagate_result  (SluiceAttempt  *self,
                                                GError        **error);

G_END_DECLS
