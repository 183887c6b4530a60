/* sluice-explain-view.h: "Explain this moment": the run at the moment shown, in sentences
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-narrator.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_EXPLAIN_VIEW (sluice_explain_view_get_type ())
G_DECLARE_FINAL_TYPE (SluiceExplainView, sluice_explain_view, SLUICE, EXPLAIN_VIEW, GtkWidget)

GtkWidget  *sluice_explain_view_new          (void);
void        sluice_explain_view_set_narrator (SluiceExplainView *self,
                                              SluiceNarrator    *narrator);
void        sluice_explain_view_set_moment   (SluiceExplainView *self,
                                              gint64             moment);
const char *sluice_explain_view_get_text     (SluiceExplainView *self);

G_END_DECLS
