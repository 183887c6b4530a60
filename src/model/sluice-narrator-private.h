/* sluice-narrator-private.h: the state of a run at one moment, as the
 * narrator's index finds it and its sentences tell it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-narrator.h"

G_BEGIN_DECLS

/* The run-level events the narrator remembers by the time they first
 * happened. */
typedef enum {
  NARRATOR_FACT_SOURCE_END,
  NARRATOR_FACT_SOURCE_ERROR,
  NARRATOR_FACT_STOP,
  NARRATOR_FACT_DRAIN,
  NARRATOR_FACT_CANCEL,
  NARRATOR_FACT_FATAL,
  NARRATOR_FACT_SHUTDOWN,
  NARRATOR_FACT_RUN_END,
  NARRATOR_N_FACTS
} NarratorFact;

typedef enum {
  NARRATOR_WORKER_IDLE,
  NARRATOR_WORKER_RUNNING,
  NARRATOR_WORKER_BACKOFF,
} NarratorWorkerState;

/* Why the pool asked a running attempt to stop. */
typedef enum {
  NARRATOR_ASKED_DEADLINE,
  NARRATOR_ASKED_SHUTDOWN,
  NARRATOR_ASKED_CANCEL,
} NarratorAsked;

/* One worker at the moment: the attempt it runs (@bar) or the backoff it
 * waits through (@backoff), with the cancel rounds made by then. */
typedef struct {
  NarratorWorkerState       state;
  const SluiceTimelineBar  *bar;
  const SluiceTimelineMark *backoff;
  guint                     rounds;
  NarratorAsked             asked;
  gint64                    ignoring_since;  /* -1: not ignoring */
} NarratorWorker;

/* The events at exactly the moment's time that finished items. */
typedef struct {
  GArray *succeeded;  /* gint64 items */
  GArray *failed;
  GArray *dropped;
} NarratorJustNow;

/* Everything the sentences need, for the events up to and including the
 * moment's time. Facts after it read -1. */
typedef struct {
  gint64          time;
  gboolean        empty;           /* nothing recorded */
  gint64          start;           /* the first event's time */
  gint64          facts[NARRATOR_N_FACTS];
  const char     *source_error_type;
  const char     *fatal_error_type;
  gint64          stop_failed_item; /* the stop followed this item's failure, or -1 */
  guint           shutdown_dropped, shutdown_cancelled;

  /* the live counts of the latest event at or before the time */
  guint           queued, in_flight, pulled, succeeded, failed, lead;

  gint64          held_item;       /* the item the producer holds, or -1 */
  guint           queue_capacity;  /* 0: not known */
  guint           lead_bound;      /* 0: not known */
  gint64          item_timeout;    /* -1: not known */
  gint64          shutdown_timeout;

  guint           n_workers;
  NarratorWorker *workers;
  NarratorJustNow just_now;
} NarratorMoment;

char *_sluice_narrator_tell (const NarratorMoment *moment);

G_END_DECLS
