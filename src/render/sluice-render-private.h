/* sluice-render-private.h: what the render layer's views share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "sluice-palette.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

/* Where the data goes inside a view, in view coordinates. */
typedef struct {
  double x, y, width, height;
} SluiceRect;

/* The entries of the lanes' key (the legend above the lanes). */
#define SLUICE_LANES_N_KEYS         8

/* The lanes view's geometry: shared by drawing, hit testing and tests. */
typedef struct {
  SluiceRect plot;          /* the lanes, without the gutter and the axis */
  double     lane_height;
  double     bar_inset;     /* space above and below a bar in its lane */
  /* The key above the lanes: one rectangle per entry (swatch and label),
   * in order of importance, wrapped to more rows when one is not wide
   * enough; width 0 for an entry there is no room for at all. */
  SluiceRect key[SLUICE_LANES_N_KEYS];
  guint      key_rows;
  double     key_height;    /* the key's rows, with their padding */
} SluiceLanesLayout;

/* The series of the chart, in the order of its legend. */
#define SLUICE_CHART_N_SERIES       3

/* The chart view's geometry. */
typedef struct {
  SluiceRect plot;          /* the series area, without legend and axes */
  guint      y_max;         /* the count at the top of @plot */
  /* The legend above the plot, laid out like the lanes' key: one
   * rectangle per series, wrapped to more rows when one is not wide
   * enough; width 0 for an entry there is no room for at all. */
  SluiceRect legend[SLUICE_CHART_N_SERIES];
  guint      legend_rows;
  double     legend_height;
} SluiceChartLayout;

/* A key (legend) along the top of a view: one row of SLUICE_RENDER_KEY_HEIGHT,
 * each further row adding SLUICE_RENDER_KEY_ROW_HEIGHT. */
#define SLUICE_RENDER_KEY_HEIGHT     24.
#define SLUICE_RENDER_KEY_ROW_HEIGHT 18.

#define SLUICE_RENDER_FONT          "Sans 9"
#define SLUICE_RENDER_GUTTER        72.   /* lane names, y labels */
#define SLUICE_RENDER_AXIS_HEIGHT   22.   /* time tick labels */
#define SLUICE_RENDER_MARGIN        10.

void         _sluice_lanes_get_layout     (double             width,
                                           double             height,
                                           guint              n_workers,
                                           SluiceLanesLayout *layout);

/* A running attempt is drawn up to "now" (or the latest event when the
 * view has no clock). */
static inline gint64
_sluice_lanes_bar_end (const SluiceTimelineBar *bar,
                       gint64                   now)
{
  if (bar->end >= 0)
    return bar->end;
  return MAX (bar->start, now);
}

void         _sluice_chart_get_layout     (double             width,
                                           double             height,
                                           guint              y_max,
                                           SluiceChartLayout *layout);
void         _sluice_chart_get_limit_labels (double          width,
                                             double          height,
                                             SluiceTimeline *model,
                                             gint64          t0,
                                             gint64          t1,
                                             gint64          now,
                                             guint           queue_capacity,
                                             guint           lead_bound,
                                             SluiceRect     *capacity_rect,
                                             SluiceRect     *bound_rect);

double       _sluice_render_time_to_x     (const SluiceRect  *plot,
                                           gint64             t0,
                                           gint64             t1,
                                           gint64             time);
gint64       _sluice_render_x_to_time     (const SluiceRect  *plot,
                                           gint64             t0,
                                           gint64             t1,
                                           double             x);

PangoLayout *_sluice_render_create_layout (cairo_t           *cr,
                                           gboolean           bold);
void         _sluice_render_get_text_size (PangoLayout       *layout,
                                           const char        *text,
                                           double            *width,
                                           double            *height);
void         _sluice_render_draw_text     (cairo_t           *cr,
                                           PangoLayout       *layout,
                                           const char        *text,
                                           double             x,
                                           double             y,
                                           double             align_x,
                                           double             align_y);
void         _sluice_render_draw_time_axis (cairo_t             *cr,
                                            PangoLayout         *layout,
                                            const SluicePalette *palette,
                                            const SluiceRect    *plot,
                                            gint64               t0,
                                            gint64               t1);
void         _sluice_render_begin_view    (cairo_t             *cr,
                                           const SluicePalette *palette,
                                           double               width,
                                           double               height);
void         _sluice_render_draw_now      (cairo_t             *cr,
                                           const SluicePalette *palette,
                                           const SluiceRect    *plot,
                                           gint64               t0,
                                           gint64               t1,
                                           gint64               now);
double       _sluice_render_nice_step     (double              range,
                                           double              n_ticks);

/* Keys (legends) along the top of a view: sluice-render-key.c. */

/* Draws the swatch of a key's entry @entry, from @x, centred on @y. */
typedef void (*SluiceKeySwatchFunc) (cairo_t             *cr,
                                     const SluicePalette *palette,
                                     guint                entry,
                                     double               x,
                                     double               y);

double       _sluice_render_layout_key    (const char * const *labels,
                                           guint               n_entries,
                                           double              swatch_space,
                                           double              left,
                                           double              right,
                                           SluiceRect         *rects,
                                           guint              *n_rows);
void         _sluice_render_draw_key      (cairo_t             *cr,
                                           PangoLayout         *layout,
                                           const SluicePalette *palette,
                                           const char * const  *labels,
                                           const SluiceRect    *rects,
                                           guint                n_entries,
                                           double               swatch_space,
                                           SluiceKeySwatchFunc  draw_swatch);
void         _sluice_lanes_layout_key     (SluiceLanesLayout       *layout,
                                           double                   left,
                                           double                   right);
void         _sluice_lanes_draw_key       (cairo_t                 *cr,
                                           PangoLayout             *layout,
                                           const SluicePalette     *palette,
                                           const SluiceLanesLayout *lanes);

/* The marks on the lanes' bars and in their key: sluice-render-marks.c. */
void         _sluice_render_set_source_dimmed  (cairo_t             *cr,
                                                const SluiceColor   *color,
                                                double               alpha);
void         _sluice_render_draw_hatching      (cairo_t             *cr,
                                                double               x,
                                                double               y,
                                                double               w,
                                                double               h);
void         _sluice_render_draw_clock_mark    (cairo_t             *cr,
                                                double               cx,
                                                double               cy,
                                                double               r);
void         _sluice_render_draw_cross_mark    (cairo_t             *cr,
                                                double               cx,
                                                double               cy,
                                                double               r);
void         _sluice_render_draw_cancel_mark   (cairo_t             *cr,
                                                const SluicePalette *palette,
                                                double               x,
                                                double               y,
                                                double               size,
                                                double               alpha);
void         _sluice_render_draw_deadline_mark (cairo_t             *cr,
                                                const SluicePalette *palette,
                                                double               x,
                                                double               top,
                                                double               bottom,
                                                double               alpha);

G_END_DECLS
