/* sluice-store-source-private.h: what the store's handler shares with its
 * source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-source.h"
#include "sluice-store-worker-beat.h"

G_BEGIN_DECLS

/* The source's fields, shared by sluice-store-source.c (the reads) and
 * sluice-store-source-api.c (its settings and claims). */
struct _SluiceStoreSource
{
  GObject         parent_instance;

  SluiceJobStore *store;
  SluiceClock    *clock;
  char           *tenant;
  char           *owner;
  double          lease;
  double          poll_interval;
  gint64          lease_us;
  gint64          poll_us;
  gboolean        until_empty;
  double          store_error_timeout;
  gint64          store_error_timeout_us;
  gint64          epoch;            /* wall time at the clock's 0, for clocks that are not real */

  GHashTable     *claims;           /* "ID#ATTEMPT" → SluiceJobClaim*, yielded and unfinished */
  GHashTable     *running;          /* the keys of those whose attempt started */
  guint           max_claims;
  guint           claim_ahead;      /* the most unfinished claims held; 1: one per read */
  GQueue          buffered;         /* keys of claims taken ahead, not yet yielded */
  gboolean        deferred;         /* the read waits for room for a batch of claims */
  guint           n_claimed;        /* every claim the store gave, yielded or not */
  guint           n_released;       /* handed back unrun */
  guint           n_release_failed; /* unrun, but the store refused or failed the release */

  /* The read in progress: a store call for it (calling), or a wait for
   * the next poll (poll_timer, with cancel_source watching the read's
   * cancellable). */
  GTask          *read;
  gboolean        calling;
  gboolean        wake;             /* jobs came while calling: claim again at once */
  guint64         poll_timer;
  GSource        *cancel_source;
  gboolean        started;
  gboolean        ended;
  gboolean        stopped;          /* a read was cancelled: the pool reads no more */

  /* Store errors of the reads in a row: the back-off, and with
   * until-empty the time since the first of them. */
  guint           n_errors;
  gint64          errors_since;
  gboolean        backing_off;

  guint64         release_timer;
  gboolean        releasing;

  gulong          jobs_available_id;
  guint           n_calls;          /* store calls in flight */
  gboolean        paused_clock;     /* we paused the virtual clock for them */
  guint           n_background;     /* calls in flight while the work goes on (pipelined completions) */

  SluiceStoreWorkerBeat *beat;      /* the worker's row in the store, from the first read */

  GTask          *close;            /* sluice_store_source_close_async(), until n_calls is 0 */
  gboolean        closed;           /* no more calls: the pool's run has ended */
};


/* Around every store call of the source or of its handler: on a virtual
 * clock, time stands still while one is in flight (see the SECTION). */
void   _sluice_store_source_begin_call (SluiceStoreSource *self);
void   _sluice_store_source_end_call   (SluiceStoreSource *self);
/* A call the worker does not wait for (a pipelined completion): a close
 * waits for it too, but the virtual clock goes on while it is in flight,
 * since the worker's next jobs run meanwhile. */
void   _sluice_store_source_begin_background_call (SluiceStoreSource *self);
void   _sluice_store_source_end_background_call   (SluiceStoreSource *self);

gint64 _sluice_store_source_get_lease_us (SluiceStoreSource *self);
char  *_sluice_store_source_claim_key  (const char        *job_id,
                                        guint              attempt);

/* The handler calls it when an attempt of @claim starts: from then on the
 * claim is the attempt's to end, never handed back unrun. */
void   _sluice_store_source_claim_started (SluiceStoreSource    *self,
                                           const SluiceJobClaim *claim);

/* sluice-store-source.c: a claim is finished or handed back; a read that
 * waits for room may claim now. */
void   _sluice_store_source_room_freed    (SluiceStoreSource *self);
/* sluice-store-source.c: hands @claim (taken) back to the store, unrun. */
void   _sluice_store_source_release_claim (SluiceStoreSource *self,
                                           SluiceJobClaim    *claim);
/* sluice-store-source.c: no more reads, timers nor releases of expired
 * leases; the claims still held are the caller's to hand back. */
void   _sluice_store_source_shut          (SluiceStoreSource *self);
/* sluice-store-source-release.c: a close waits for n_calls to reach 0;
 * every end of a call asks. */
void   _sluice_store_source_maybe_closed  (SluiceStoreSource *self);

/* sluice-store-source-worker.c: the worker's row (docs/store-admin.md,
 * "Workers"): registered at the first read unless the program did it
 * before; the handler counts each job done or failed; stopped when the
 * source is closed (after a last beat) or disposed. */
void   _sluice_store_source_start_worker  (SluiceStoreSource *self);
void   _sluice_store_source_count_job     (SluiceStoreSource *self,
                                           gboolean           done);
void   _sluice_store_source_stop_worker   (SluiceStoreSource *self,
                                           gboolean           last);

G_END_DECLS
