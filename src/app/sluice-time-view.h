/* sluice-time-view.h: a view of a run over time (the chart, the lanes)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "sluice-palette.h"
#include "sluice-render-frame.h"
#include "sluice-timeline.h"
#include "sluice-viewport.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_TIME_VIEW (sluice_time_view_get_type ())
G_DECLARE_DERIVABLE_TYPE (SluiceTimeView, sluice_time_view, SLUICE, TIME_VIEW, GtkWidget)

/**
 * SluiceTimeViewClass:
 * @parent_class: the parent class
 * @draw: draws the model onto @cr, a @width × @height view; called only
 *   with a model and a viewport. The playhead is drawn over it afterwards.
 * @get_plot: the rectangle of a @width × @height view that the time axis
 *   spans, where the playhead goes
 * @pick: the time a click at (@x, @y) puts the playhead at, into @time;
 *   %FALSE when the click picks none. Called only with a viewport.
 * @clicked: (nullable): what else a click at (@x, @y) does, after the
 *   playhead moved (a press that turns into a drag is no click)
 * @model_changed: (nullable): #SluiceTimeView:model is another one
 *
 * The virtual functions where the chart and the lanes differ. Sizes and
 * points are in the render layer's units: the widget's pixels over
 * sluice_time_view_get_scale() (see #SluiceTimeView:projector).
 */
struct _SluiceTimeViewClass
{
  GtkWidgetClass parent_class;

  void     (*draw)          (SluiceTimeView    *self,
                             cairo_t           *cr,
                             double             width,
                             double             height);
  void     (*get_plot)      (SluiceTimeView    *self,
                             double             width,
                             double             height,
                             cairo_rectangle_t *plot);
  gboolean (*pick)          (SluiceTimeView    *self,
                             double             x,
                             double             y,
                             gint64            *time);
  void     (*clicked)       (SluiceTimeView    *self,
                             double             x,
                             double             y);
  void     (*model_changed) (SluiceTimeView    *self);

  /*< private >*/
  gpointer padding[8];
};

SluiceTimeline *sluice_time_view_get_model    (SluiceTimeView *self);
void            sluice_time_view_set_model    (SluiceTimeView *self,
                                               SluiceTimeline *model);
gint64          sluice_time_view_get_now      (SluiceTimeView *self);
void            sluice_time_view_set_now      (SluiceTimeView *self,
                                               gint64          now);
SluiceViewport *sluice_time_view_get_viewport (SluiceTimeView *self);
void            sluice_time_view_set_viewport (SluiceTimeView *self,
                                               SluiceViewport *viewport);
gboolean        sluice_time_view_get_projector (SluiceTimeView *self);
void            sluice_time_view_set_projector (SluiceTimeView *self,
                                                gboolean        projector);
double          sluice_time_view_get_scale    (SluiceTimeView *self);
void            sluice_time_view_get_size     (SluiceTimeView *self,
                                               double         *width,
                                               double         *height);
SluicePaletteFlags sluice_time_view_get_palette (SluiceTimeView *self);
SluiceRenderFrame sluice_time_view_get_render_frame (SluiceTimeView *self,
                                                    double          width,
                                                    double          height);

G_END_DECLS
