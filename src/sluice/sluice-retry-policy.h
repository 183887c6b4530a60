/* sluice-retry-policy.h: backoff, jitter, one deadline per item, a retry
 * budget (seed 004)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <glib-object.h>
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SluiceBackoff:
 * @SLUICE_BACKOFF_NONE: a retry starts as soon as the failed attempt has
 *   finished (the capstone)
 * @SLUICE_BACKOFF_EXPONENTIAL: retry r waits up to
 *   min(#SluicePool:backoff-cap, #SluicePool:backoff-base · 2^(r−1))
 *
 * How long a retry waits after the failed attempt.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_BACKOFF_NONE,
  SLUICE_BACKOFF_EXPONENTIAL,
} SluiceBackoff;

/**
 * SluiceJitter:
 * @SLUICE_JITTER_FULL: the wait is drawn uniformly from [0, bound] ("full
 *   jitter"), so that items that failed together do not retry together
 * @SLUICE_JITTER_NONE: the wait is the bound itself
 *
 * How an exponential backoff's wait is drawn.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_JITTER_FULL,
  SLUICE_JITTER_NONE,
} SluiceJitter;

/**
 * SluiceRandomFunc:
 * @user_data: the data given with the function
 *
 * A source of uniformly distributed 32-bit numbers for the pool's jitter.
 * The default is MT19937 seeded with #SluicePool:seed
 * (g_rand_new_with_seed_array() with one word, then g_rand_int()); tests
 * may give their own with sluice_pool_set_random_func().
 *
 * Returns: the next number
 *
 * Since: 1.0
 */
typedef guint32 (*SluiceRandomFunc) (gpointer user_data);

SLUICE_AVAILABLE_IN_1_0
GType   sluice_backoff_get_type   (void) G_GNUC_CONST;
SLUICE_AVAILABLE_IN_1_0
GType   sluice_jitter_get_type    (void) G_GNUC_CONST;

#define SLUICE_TYPE_BACKOFF (sluice_backoff_get_type ())
#define SLUICE_TYPE_JITTER  (sluice_jitter_get_type ())

SLUICE_AVAILABLE_IN_1_0
gint64  sluice_backoff_bound_us   (double base,
                                   double cap,
                                   guint  retry);
SLUICE_AVAILABLE_IN_1_0
gint64  sluice_backoff_jitter_us  (gint64  bound_us,
                                   guint32 u);

G_END_DECLS
