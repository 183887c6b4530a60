/* sluice-viewport.h: the time span the chart and the lanes share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SLUICE_TYPE_VIEWPORT (sluice_viewport_get_type ())
G_DECLARE_FINAL_TYPE (SluiceViewport, sluice_viewport, SLUICE, VIEWPORT, GObject)

SluiceViewport *sluice_viewport_new             (void);
void            sluice_viewport_set_bounds      (SluiceViewport *self,
                                                 gint64          start,
                                                 gint64          end);
gint64          sluice_viewport_get_start       (SluiceViewport *self);
gint64          sluice_viewport_get_end         (SluiceViewport *self);
gint64          sluice_viewport_get_t0          (SluiceViewport *self);
gint64          sluice_viewport_get_t1          (SluiceViewport *self);
gboolean        sluice_viewport_get_fit         (SluiceViewport *self);
void            sluice_viewport_set_playhead    (SluiceViewport *self,
                                                 gint64          playhead);
gint64          sluice_viewport_get_playhead    (SluiceViewport *self);
void            sluice_viewport_fit             (SluiceViewport *self);
void            sluice_viewport_zoom            (SluiceViewport *self,
                                                 gint64          center,
                                                 double          factor);
void            sluice_viewport_pan             (SluiceViewport *self,
                                                 gint64          delta);
void            sluice_viewport_set_range       (SluiceViewport *self,
                                                 gint64          t0,
                                                 gint64          t1);
gint64          sluice_viewport_x_to_time       (SluiceViewport *self,
                                                 double          view_width,
                                                 double          x);
void            sluice_viewport_zoom_at         (SluiceViewport *self,
                                                 double          view_width,
                                                 double          x,
                                                 double          factor);
void            sluice_viewport_attach_view     (SluiceViewport *self,
                                                 GtkWidget      *view,
                                                 double          scale);
void            sluice_viewport_set_view_scale  (SluiceViewport *self,
                                                 GtkWidget      *view,
                                                 double          scale);

G_END_DECLS
