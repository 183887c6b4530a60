/* sluice-lint-view.h: the lints of the run at the moment shown, as a badge
 * and a list (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-linter.h"
#include "sluice-recorder.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_LINT_VIEW (sluice_lint_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceLintView, sluice_lint_view, SLUICE, LINT_VIEW, GtkWidget)

GtkWidget    *sluice_lint_view_new            (void);
void          sluice_lint_view_set_linter     (SluiceLintView *self,
                                               SluiceLinter   *linter);
void          sluice_lint_view_update         (SluiceLintView *self);
void          sluice_lint_view_set_moment     (SluiceLintView *self,
                                               gint64          moment);
gint64        sluice_lint_view_get_moment     (SluiceLintView *self);
gint64        sluice_lint_view_get_marked_time (SluiceLintView *self);
SluiceLinter *sluice_lint_view_get_linter     (SluiceLintView *self);
guint         sluice_lint_view_get_count      (SluiceLintView *self);
void          sluice_lint_view_set_muted      (SluiceLintView *self,
                                               guint           muted);
guint         sluice_lint_view_get_n_rows     (SluiceLintView *self);
char         *sluice_lint_view_dup_row_text   (SluiceLintView *self,
                                               guint           index);

G_END_DECLS
