/* sluice-error-group-view.h: the run's final error group as a tree
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <sluice.h>

#include "sluice-error-list.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_ERROR_GROUP_VIEW (sluice_error_group_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceErrorGroupView, sluice_error_group_view, SLUICE, ERROR_GROUP_VIEW, GtkWidget)

GtkWidget *sluice_error_group_view_new          (void);
void       sluice_error_group_view_set_group    (SluiceErrorGroupView *self,
                                                 SluiceErrorList     *group);
void       sluice_error_group_view_update       (SluiceErrorGroupView *self);
void       sluice_error_group_view_show_position (SluiceErrorGroupView *self,
                                                  guint64               position);
void       sluice_error_group_view_set_outcome  (SluiceErrorGroupView *self,
                                                 const char           *outcome);
guint      sluice_error_group_view_get_n_errors (SluiceErrorGroupView *self);
guint      sluice_error_group_view_get_n_rows   (SluiceErrorGroupView *self);
char      *sluice_error_group_view_dup_note     (SluiceErrorGroupView *self,
                                                 guint                 index);

G_END_DECLS
