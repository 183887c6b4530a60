/* sluice-timeline-series-private.h: the chart's part of the timeline model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-timeline.h"

G_BEGIN_DECLS

/* A part of SluiceTimeline (sluice-timeline.c), kept apart so that the
 * model's file stays about bars and marks: the chart's counts sampled at
 * every instant they changed, the retry budget's level and the run-level
 * moments (stop, drain, end…). Its public getters are in
 * sluice-timeline-series.c too. */
typedef struct _SluiceTimelineSeries SluiceTimelineSeries;

SluiceTimelineSeries *_sluice_timeline_series_new       (void);
void                  _sluice_timeline_series_free      (SluiceTimelineSeries *series);
void                  _sluice_timeline_series_clear     (SluiceTimelineSeries *series);
void                  _sluice_timeline_series_add_event (SluiceTimelineSeries *series,
                                                         const SluiceEvent    *event,
                                                         guint                 busy);
void                  _sluice_timeline_series_add_moment (SluiceTimelineSeries   *series,
                                                          SluiceTimelineMomentKind kind,
                                                          gint64                  time);

/* In sluice-timeline.c: the model's series, for the getters. */
SluiceTimelineSeries *_sluice_timeline_get_series       (SluiceTimeline       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceTimelineSeries, _sluice_timeline_series_free)

G_END_DECLS
