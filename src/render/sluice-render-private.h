/* sluice-render-private.h: what the render layer's views share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <cairo.h>
#include <math.h>
#include <pango/pangocairo.h>

#include "sluice-palette.h"
#include "sluice-render-chart.h"
#include "sluice-render-frame.h"
#include "sluice-timeline.h"

G_BEGIN_DECLS

/* Where the data goes inside a view, in view coordinates. */
typedef struct {
  double x, y, width, height;
} SluiceRect;

/* The entries of the lanes' key (the legend above the lanes): the
 * SLUICE_LANES_N_BASIC_KEYS bars and marks of any run, then the retry
 * policy's marks (backoff, retry skipped, shed); each only when the run
 * has it (_sluice_lanes_get_key_kinds()). */
#define SLUICE_LANES_N_KEYS         11
#define SLUICE_LANES_N_BASIC_KEYS   8
#define SLUICE_LANES_BASIC_KEYS     ((1u << SLUICE_LANES_N_BASIC_KEYS) - 1)

/* The lanes view's geometry: shared by drawing, hit testing and tests. */
typedef struct {
  SluiceRect plot;          /* the lanes, without the gutter and the axis */
  double     lane_height;
  double     bar_inset;     /* space above and below a bar in its lane */
  /* The key above the lanes: one rectangle per entry (swatch and label),
   * in order of importance, wrapped to a second row when one is not wide
   * enough; width 0 for an entry the run does not have or there is no
   * room for. */
  SluiceRect key[SLUICE_LANES_N_KEYS];
  guint      key_rows;
  double     key_height;    /* the key's rows, with their padding */
  guint      key_kinds;     /* 1 << the key's entry, for each entry it explains */
  gboolean   key_short;     /* in short labels, to keep to two rows */
} SluiceLanesLayout;

/* The series of the chart, in the order of its legend; the legend has
 * three more entries: the retry budget's token level, when the run has a
 * budget, the results waiting for the caller, when they piled up, and the
 * lead's failed items, when there are any in view. */
#define SLUICE_CHART_N_SERIES       4
#define SLUICE_CHART_N_LEGEND       (SLUICE_CHART_N_SERIES + 3)

/* What a legend entry of the chart says, from most to least: its full
 * label ("pulled, unfinished (lead)"), a short one ("lead"), or, in the
 * readout only, nothing but the value by its swatch. */
typedef enum {
  SLUICE_CHART_LEGEND_FULL,
  SLUICE_CHART_LEGEND_SHORT,
  SLUICE_CHART_LEGEND_VALUES,
} SluiceChartLegendForm;

/* The chart view's geometry. */
typedef struct {
  SluiceRect plot;          /* the series area, without legend and axes */
  guint      y_max;         /* the count at the top of @plot */
  /* The legend above the plot, on one row (a projector's text leaves a
   * short chart no room for more): one rectangle per series, with full
   * labels from the plot's left edge when they fit, else short ones from
   * the view's, width 0 for an entry there is no room for at all. The
   * readout takes the legend's row (sluice-render-chart-readout.c). */
  SluiceRect legend[SLUICE_CHART_N_LEGEND];
  guint      legend_rows;
  double     legend_height;
  SluiceChartLegendForm legend_form;  /* full or short labels */
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
void         _sluice_lanes_get_model_layout (SluiceTimeline    *model,
                                             double             width,
                                             double             height,
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

/* The radius of the marks on a bar (clock, cross) and of the retry
 * policy's signs. */
static inline double
_sluice_lanes_mark_radius (const SluiceLanesLayout *lanes)
{
  return MAX (MIN ((lanes->lane_height - 2. * lanes->bar_inset) * 0.36, 6.5), 3.);
}

/* Where a skipped retry's or a shed item's sign goes, for drawing and hit
 * testing; @x is the mark's time on the lanes, @x_attempt where the failed
 * attempt started (or -G_MAXDOUBLE when not known). A skipped retry's "no
 * entry" sign takes the place of the failed attempt's cross, at the end
 * of its bar (left of its clock, when it timed out), or goes right after
 * a bar too narrow for marks; a shed item's triangle points down onto the
 * lane at its time, from the lane's top edge, clear of the bars' labels. */
static inline void
_sluice_lanes_place_point_mark (const SluiceLanesLayout  *lanes,
                                const SluiceTimelineMark *mark,
                                double                    x,
                                double                    x_attempt,
                                double                   *cx,
                                double                   *cy)
{
  double r = _sluice_lanes_mark_radius (lanes);
  double top = lanes->plot.y + mark->worker * lanes->lane_height;
  double w = round (x) - round (MAX (x_attempt, -1e9));
  /* What draw_marks() leaves room for: the clock, if it fits, then the
   * cross's place. */
  double clock = mark->outcome == SLUICE_OUTCOME_TIMED_OUT && w - 1. >= 2. * r + 6. ? 2. * r + 4. : 0.;

  if (mark->kind == SLUICE_TIMELINE_MARK_SHED)
    {
      *cx = x;
      *cy = top + MAX (lanes->bar_inset, r * 0.8 + 1.);
      return;
    }

  *cy = top + lanes->lane_height / 2.;
  if (w - 1. < clock + 2. * r + 6.)
    {
      *cx = x + r + 2.;
      return;
    }
  /* A bar ends a pixel before its end, and its marks 3 pixels before. */
  *cx = round (x) - 1. - 3. - r - clock;
}

void         _sluice_chart_get_layout     (double             width,
                                           double             height,
                                           guint              y_max,
                                           gboolean           budget,
                                           SluiceChartLayout *layout);
void         _sluice_chart_get_labels     (SluiceTimeline          *model,
                                           const SluiceRenderFrame *frame,
                                           const SluiceChartLimits *limits,
                                           SluiceRect              *capacity_rect,
                                           SluiceRect              *bound_rect,
                                           SluiceRect              *budget_rect);

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
void         _sluice_render_draw_time_axis_clear_of (cairo_t             *cr,
                                                     PangoLayout         *layout,
                                                     const SluicePalette *palette,
                                                     const SluiceRect    *plot,
                                                     gint64               t0,
                                                     gint64               t1,
                                                     const SluiceRect    *keep_clear,
                                                     guint                n_keep_clear);
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

/* A key's entries: a swatch and a label each. */
typedef struct {
  const char * const  *labels;        /* NULL for an entry not shown */
  guint                n_entries;
  double               swatch_space;  /* a swatch and the gap before its label */
  SluiceKeySwatchFunc  draw_swatch;   /* only drawing needs it */
  guint                max_rows;      /* 0: up to four rows */
  double               spacing;       /* between entries; 0: the keys' own */
} SluiceKey;

double       _sluice_render_layout_key    (const SluiceKey     *key,
                                           double               left,
                                           double               right,
                                           SluiceRect          *rects,
                                           guint               *n_rows);
void         _sluice_render_draw_key      (cairo_t             *cr,
                                           PangoLayout         *layout,
                                           const SluicePalette *palette,
                                           const SluiceKey     *key,
                                           const SluiceRect    *rects);
guint        _sluice_lanes_get_key_kinds  (SluiceTimeline          *model);
void         _sluice_lanes_layout_key     (SluiceLanesLayout       *layout,
                                           guint                    key_kinds,
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
void         _sluice_render_draw_backoff_mark  (cairo_t             *cr,
                                                const SluicePalette *palette,
                                                double               x0,
                                                double               x1,
                                                double               top,
                                                double               bottom,
                                                double               alpha);
void         _sluice_render_draw_skip_mark     (cairo_t             *cr,
                                                const SluicePalette *palette,
                                                double               cx,
                                                double               cy,
                                                double               r,
                                                double               alpha);
void         _sluice_render_draw_shed_mark     (cairo_t             *cr,
                                                const SluicePalette *palette,
                                                double               cx,
                                                double               cy,
                                                double               r,
                                                double               alpha);

G_END_DECLS
