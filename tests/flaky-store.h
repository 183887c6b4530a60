/* flaky-store.h: a job store for the tests that passes every call on to a
 * real one, but can fail its claims as a full store would, and lets a test
 * act when a claim comes back
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-job-store.h"

G_BEGIN_DECLS

#define FLAKY_TYPE_STORE (flaky_store_get_type ())
G_DECLARE_FINAL_TYPE (FlakyStore, flaky_store, FLAKY, STORE, GObject)

/* Called with the claim (or NULL) a claim_next is about to answer. */
typedef void (*FlakyClaimHook) (const SluiceJobClaim *claim,
                                gpointer              user_data);

FlakyStore *flaky_store_new            (SluiceJobStore *inner,
                                        SluiceClock    *clock);
void        flaky_store_set_failing    (FlakyStore     *self,
                                        gboolean        failing);
void        flaky_store_set_claim_hook (FlakyStore     *self,
                                        FlakyClaimHook  hook,
                                        gpointer        user_data);
/* The clock times of the claims that failed, and of those that did not. */
GArray     *flaky_store_get_failed    (FlakyStore     *self);
GArray     *flaky_store_get_answered  (FlakyStore     *self);

/* Completions are held back, unanswered, until @n of them are, then all
 * go to the inner store (a worker that waited for each would never send
 * the second); the most held at once. */
void        flaky_store_hold_completions (FlakyStore   *self,
                                          guint         n);
guint       flaky_store_get_most_held    (FlakyStore   *self);

G_END_DECLS
