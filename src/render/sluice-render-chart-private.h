/* sluice-render-chart-private.h: what the chart's layers share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-render-private.h"

G_BEGIN_DECLS

/* The chart is drawn in layers, one file each: the series and the legend
 * (sluice-render-chart.c), the lead's failed items
 * (sluice-render-chart-failed.c), the run's moments on the time axis
 * (sluice-render-chart-moments.c), the lines' labels
 * (sluice-render-chart-labels.c) and the readout under the pointer
 * (sluice-render-chart-readout.c). */

typedef enum {
  SLUICE_CHART_SERIES_QUEUE,
  SLUICE_CHART_SERIES_IN_FLIGHT,
  SLUICE_CHART_SERIES_LEAD,
  SLUICE_CHART_SERIES_BUSY,
  /* Not a count: the retry budget's tokens, scaled so that a full bucket
   * is at the top of the plot; only when the run has a budget. */
  SLUICE_CHART_SERIES_BUDGET = SLUICE_CHART_N_SERIES,
  /* The results the pool handed back that the caller has not read yet;
   * only when they piled up (see _sluice_chart_shows_waiting()). */
  SLUICE_CHART_SERIES_WAITING,
  /* Not a line of its own: the part of the lead that failed for good,
   * a hatched band under the lead's line; only when there is one. */
  SLUICE_CHART_LEGEND_FAILED,
} SluiceChartSeries;

G_STATIC_ASSERT (SLUICE_CHART_LEGEND_FAILED + 1 == SLUICE_CHART_N_LEGEND);

/* What the legend says of the failed items: nothing (none in view), what
 * the hatching is, or also why the lead passes its bound. */
typedef enum {
  SLUICE_CHART_FAILED_NONE,
  SLUICE_CHART_FAILED_SHOWN,
  SLUICE_CHART_FAILED_PAST_BOUND,
} SluiceChartFailed;

/* The legend's entries beyond the four series, each only when the run
 * has it (see SLUICE_CHART_N_LEGEND). */
typedef struct {
  gboolean          budget;   /* the retry budget's token level */
  gboolean          waiting;  /* the results waiting for the caller */
  SluiceChartFailed failed;   /* what the lead's failed items' entry says */
} SluiceChartExtras;

/* A run-level moment on the time axis: a marker, and a label unless one
 * more important is in its place. */
typedef struct {
  SluiceTimelineMomentKind kind;    /* the most important of those here */
  double                   x;       /* the marker's centre */
  SluiceRect               marker;  /* the triangle on the baseline */
  SluiceRect               label;   /* width 0: no room for the label */
  char                    *text;    /* its label: the kinds here, joined */
} SluiceChartMoment;

/* Where the legend in short labels and the readout start: over the count
 * axis's gutter, which has nothing at the legend's height. */
#define SLUICE_CHART_STRIP_LEFT 4.

/* Everything one drawing pass needs. */
typedef struct {
  cairo_t             *cr;
  PangoLayout         *layout;
  const SluicePalette *palette;
  SluiceTimeline      *model;
  SluiceChartLayout    chart;
  gint64               t0, t1;
  gint64               last;          /* the series end here */
  gint64               max_tokens;    /* the budget's size in thousandths, or -1 */
  gboolean             waiting;       /* the results waiting are drawn */
  guint                queue_capacity;
  guint                lead_bound;
  SluiceChartFailed    failed;
  GArray              *moments;       /* SluiceChartMoment, placed */
} SluiceChartPass;

/* sluice-render-chart.c */
void         _sluice_chart_get_layout_full  (double                   width,
                                             double                   height,
                                             guint                    y_max,
                                             const SluiceChartExtras *extras,
                                             SluiceChartLayout       *layout);
gboolean     _sluice_chart_shows_waiting    (SluiceTimeline    *model);
gboolean     _sluice_chart_series_shown     (const SluiceChartPass *pass,
                                             SluiceChartSeries  series);
void         _sluice_chart_init_pass        (SluiceChartPass         *pass,
                                             cairo_t                 *cr,
                                             PangoLayout             *layout,
                                             SluiceTimeline          *model,
                                             const SluiceRenderFrame *frame,
                                             const SluiceChartLimits *limits);
void         _sluice_chart_begin_offline_pass (SluiceChartPass         *pass,
                                               SluiceTimeline          *model,
                                               const SluiceRenderFrame *frame,
                                               const SluiceChartLimits *limits);
void         _sluice_chart_end_offline_pass (SluiceChartPass   *pass);
void         _sluice_chart_clear_pass       (SluiceChartPass   *pass);
double       _sluice_chart_count_to_y       (const SluiceChartLayout *chart,
                                             double             count);
double       _sluice_chart_tokens_to_count  (const SluiceChartPass *pass,
                                             gint64             tokens);
guint        _sluice_chart_n_samples        (const SluiceChartPass *pass,
                                             SluiceChartSeries  series);
guint        _sluice_chart_find_sample      (const SluiceChartPass *pass,
                                             SluiceChartSeries  series,
                                             gint64             time);
double       _sluice_chart_sample_value     (const SluiceChartPass *pass,
                                             guint              i,
                                             SluiceChartSeries  series,
                                             gint64            *time);
double       _sluice_chart_limit_y          (const SluiceChartPass *pass,
                                             guint              value);
const char  *_sluice_chart_series_label     (SluiceChartSeries  series);
void         _sluice_chart_get_legend_labels (const char              *labels[SLUICE_CHART_N_LEGEND],
                                              const SluiceChartExtras *extras,
                                              SluiceChartLegendForm    form);
double       _sluice_chart_swatch_space     (SluiceChartLegendForm form);
gboolean     _sluice_chart_layout_strip     (const char * const *labels,
                                             double              swatch_space,
                                             double              left,
                                             double              right,
                                             SluiceRect         *rects,
                                             double             *height);
void         _sluice_chart_draw_strip       (const SluiceChartPass *pass,
                                             const char * const    *labels,
                                             SluiceChartLegendForm  form,
                                             const SluiceRect      *rects);
double       _sluice_chart_series_reach     (SluiceChartSeries  series);

/* sluice-render-chart-failed.c */
SluiceChartFailed _sluice_chart_find_failed (SluiceTimeline    *model,
                                             gint64             t0,
                                             gint64             t1,
                                             guint              lead_bound);
const char  *_sluice_chart_failed_label     (SluiceChartFailed  failed);
void         _sluice_chart_draw_failed      (const SluiceChartPass *pass);
void         _sluice_chart_draw_failed_swatch (cairo_t         *cr,
                                               const SluicePalette *palette,
                                               double           x,
                                               double           y,
                                               double           length);
gboolean     _sluice_chart_failed_in_rect   (const SluiceChartPass *pass,
                                             const SluiceRect  *rect);

/* sluice-render-chart-moments.c */
GArray      *_sluice_chart_place_moments    (SluiceTimeline    *model,
                                             PangoLayout       *layout,
                                             const SluiceRect  *plot,
                                             double             width,
                                             gint64             t0,
                                             gint64             t1);
void         _sluice_chart_draw_time_axis   (const SluiceChartPass *pass);
void         _sluice_chart_draw_moment_lines (const SluiceChartPass *pass);
void         _sluice_chart_draw_moment_marks (const SluiceChartPass *pass);

/* sluice-render-chart-labels.c */
char        *_sluice_chart_format_tokens    (gint64             thousandths);
void         _sluice_chart_draw_labels      (const SluiceChartPass *pass);
gboolean     _sluice_chart_series_in_rect   (const SluiceChartPass *pass,
                                             SluiceChartSeries  series,
                                             const SluiceRect  *rect);

/* sluice-render-chart-readout.c */
gboolean     _sluice_chart_draw_readout_strip (const SluiceChartPass *pass,
                                               double             x);
void         _sluice_chart_draw_readout     (const SluiceChartPass *pass,
                                             double             x);

/* For tests: where the moments' markers and labels go (an array of
 * SluiceChartMoment; free with g_array_unref()), where the readout goes
 * for the pointer at @x (width 0 for none), and its form and entries. */
GArray      *_sluice_chart_get_moments      (SluiceTimeline          *model,
                                             const SluiceRenderFrame *frame,
                                             const SluiceChartLimits *limits);
void         _sluice_chart_get_model_layout (SluiceTimeline          *model,
                                             const SluiceRenderFrame *frame,
                                             const SluiceChartLimits *limits,
                                             SluiceChartLayout       *layout);
SluiceRect   _sluice_chart_get_readout_rect (SluiceTimeline          *model,
                                             const SluiceRenderFrame *frame,
                                             const SluiceChartLimits *limits,
                                             double                   x);
guint        _sluice_chart_get_series_in_rect (SluiceTimeline          *model,
                                               const SluiceRenderFrame *frame,
                                               const SluiceChartLimits *limits,
                                               const SluiceRect        *rect);
SluiceChartLegendForm _sluice_chart_get_readout_layout (SluiceTimeline          *model,
                                                        const SluiceRenderFrame *frame,
                                                        const SluiceChartLimits *limits,
                                                        double                   x,
                                                        SluiceRect               rects[SLUICE_CHART_N_LEGEND]);

G_END_DECLS
