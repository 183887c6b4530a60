/* sluice-attempt.h: one call of the handler, with its own cancellable and local data
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_ATTEMPT (sluice_attempt_get_type ())
G_DECLARE_FINAL_TYPE (SluiceAttempt, sluice_attempt, SLUICE, ATTEMPT, GObject)

GVariant     *sluice_attempt_get_item          (SluiceAttempt  *self);
gint64        sluice_attempt_get_item_index    (SluiceAttempt  *self);
guint         sluice_attempt_get_number        (SluiceAttempt  *self);
guint         sluice_attempt_get_worker        (SluiceAttempt  *self);
gint64        sluice_attempt_get_started_at    (SluiceAttempt  *self);
gint64        sluice_attempt_get_deadline      (SluiceAttempt  *self);
GCancellable *sluice_attempt_get_cancellable   (SluiceAttempt  *self);
guint         sluice_attempt_get_cancel_rounds (SluiceAttempt  *self);
gint          sluice_attempt_get_priority      (SluiceAttempt  *self);
gpointer      sluice_attempt_get_local         (SluiceAttempt  *self);
void          sluice_attempt_set_local         (SluiceAttempt  *self,
                                                gpointer        data,
                                                GDestroyNotify  destroy);

G_END_DECLS
