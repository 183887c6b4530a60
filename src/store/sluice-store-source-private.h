/* sluice-store-source-private.h: what the store's handler shares with its
 * source
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-store-source.h"

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
  gint64          epoch;            /* wall time at the clock's 0, for clocks that are not real */

  GHashTable     *claims;           /* "ID#ATTEMPT" → SluiceJobClaim*, yielded and unfinished */
  guint           max_claims;
  guint           n_claimed;

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

  guint64         release_timer;
  gboolean        releasing;

  gulong          jobs_available_id;
  guint           n_calls;          /* store calls in flight */
  gboolean        paused_clock;     /* we paused the virtual clock for them */
};


/* Around every store call of the source or of its handler: on a virtual
 * clock, time stands still while one is in flight (see the SECTION). */
void   _sluice_store_source_begin_call (SluiceStoreSource *self);
void   _sluice_store_source_end_call   (SluiceStoreSource *self);

gint64 _sluice_store_source_get_lease_us (SluiceStoreSource *self);
char  *_sluice_store_source_claim_key  (const char        *job_id,
                                        guint              attempt);

G_END_DECLS
