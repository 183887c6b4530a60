/* sluice-error-list.h: the errors a run recorded, as the final error
 * group holds them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sluice-event-item.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_ERROR_LIST (sluice_error_list_get_type ())
G_DECLARE_FINAL_TYPE (SluiceErrorList, sluice_error_list, SLUICE, ERROR_LIST, GObject)

SluiceErrorList *sluice_error_list_new        (void);
void              sluice_error_list_add_event  (SluiceErrorList  *self,
                                                 const SluiceEvent *event,
                                                 guint64            position);
gboolean          sluice_error_list_flush      (SluiceErrorList  *self);
GListModel       *sluice_error_list_get_errors (SluiceErrorList  *self);
SluiceEventItem  *sluice_error_list_get_ending (SluiceErrorList  *self,
                                                 gint64             item);

G_END_DECLS
