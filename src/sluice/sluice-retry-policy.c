/* sluice-retry-policy.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-engine.h"

#include <math.h>

#include "sluice-error.h"
#include "sluice-pool-private.h"
#include "sluice-retry-policy-private.h"
#include "sluice-time.h"

/* What each option does, and the rules they keep: docs/retry-policy.md. */

#define MAX_CAP_S     3600.0
#define MAX_BUDGET    1000000.0
#define MAX_RATIO     1e15
#define MILLI         1000

G_DEFINE_ENUM_TYPE (SluiceBackoff, sluice_backoff,
  G_DEFINE_ENUM_VALUE (SLUICE_BACKOFF_NONE, "none"),
  G_DEFINE_ENUM_VALUE (SLUICE_BACKOFF_EXPONENTIAL, "exponential"))

G_DEFINE_ENUM_TYPE (SluiceJitter, sluice_jitter,
  G_DEFINE_ENUM_VALUE (SLUICE_JITTER_FULL, "full"),
  G_DEFINE_ENUM_VALUE (SLUICE_JITTER_NONE, "none"))

/**
 * sluice_backoff_bound_us:
 * @base: the first retry's bound, in seconds
 * @cap: the largest bound, in seconds
 * @retry: the retry's number, from 1
 *
 * The most retry @retry waits: min(@cap, @base · 2^(@retry − 1)) seconds,
 * in whole microseconds. An overflow is @cap.
 *
 * Returns: the bound in microseconds
 *
 * Since: 1.0
 */
gint64
sluice_backoff_bound_us (double base,
                         double cap,
                         guint  retry)
{
  double bound;

  g_return_val_if_fail (retry >= 1, 0);

  bound = ldexp (base, (int) MIN (retry - 1, (guint) G_MAXINT));
  if (!isfinite (bound) || bound > cap)
    bound = cap;

  return sluice_time_from_seconds (bound);
}

/**
 * sluice_backoff_jitter_us:
 * @bound_us: the bound, in microseconds
 * @u: a uniformly distributed 32-bit number
 *
 * Full jitter: maps @u onto [0, @bound_us] as
 * ⌊@u · (@bound_us + 1) / 2³²⌋, in 64-bit integers.
 *
 * Returns: the wait in microseconds
 *
 * Since: 1.0
 */
gint64
sluice_backoff_jitter_us (gint64  bound_us,
                          guint32 u)
{
  /* (bound_us + 1) · u stays below 2⁶⁴. */
  g_return_val_if_fail (bound_us >= 0 && bound_us < G_MAXUINT32, 0);

  return (gint64) (((guint64) u * (guint64) (bound_us + 1)) >> 32);
}

void
_sluice_retry_policy_init (SluiceRetryPolicy *self)
{
  *self = (SluiceRetryPolicy) {
    .backoff = SLUICE_BACKOFF_NONE,
    .base = 0.1,
    .cap = 10.0,
    .jitter = SLUICE_JITTER_FULL,
    .budget_ratio = 0.1,
  };
}

void
_sluice_retry_policy_clear (SluiceRetryPolicy *self)
{
  g_clear_pointer (&self->rand, g_rand_free);
  if (self->random_destroy != NULL)
    self->random_destroy (self->random_data);
  self->random_func = NULL;
  self->random_data = NULL;
  self->random_destroy = NULL;
}

static gboolean
invalid_seconds (GError     **error,
                 const char  *option,
                 const char  *expected,
                 double       value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  _sluice_pool_format_double (text, value);
  return _sluice_pool_invalid_config (error, option, expected, text);
}

/* Whole thousandths: gRPC keeps its tokens that way, and so do we. */
static gboolean
has_three_decimals (double value)
{
  double milli = value * MILLI;

  return fabs (milli - nearbyint (milli)) < 1e-6;
}

/* Validates the options and sets up the state of the one run. */
gboolean
_sluice_retry_policy_prepare (SluiceRetryPolicy  *self,
                              GError            **error)
{
  if (!isfinite (self->base) || self->base <= 0)
    return invalid_seconds (error, "backoff-base", "a finite number of seconds above 0", self->base);

  if (!isfinite (self->cap) || self->cap > MAX_CAP_S)
    return invalid_seconds (error, "backoff-cap", "a finite number of seconds up to 3600", self->cap);

  if (self->cap < self->base)
    {
      char expected[64 + G_ASCII_DTOSTR_BUF_SIZE], base[G_ASCII_DTOSTR_BUF_SIZE];

      _sluice_pool_format_double (base, self->base);
      g_snprintf (expected, sizeof expected, "at least backoff-base (%s)", base);
      return invalid_seconds (error, "backoff-cap", expected, self->cap);
    }

  if (!isfinite (self->item_deadline) || self->item_deadline < 0 ||
      self->item_deadline > (double) G_MAXINT64 / G_USEC_PER_SEC / 2)
    return invalid_seconds (error, "item-deadline", "a finite number of seconds, 0 or more", self->item_deadline);

  if (!isfinite (self->budget) || self->budget < 0 || self->budget > MAX_BUDGET ||
      !has_three_decimals (self->budget))
    return invalid_seconds (error, "retry-budget",
                            "a number of tokens from 0 to 1000000 with at most 3 decimals", self->budget);

  /* Far above any budget, so that a ratio in thousandths cannot overflow. */
  if (!isfinite (self->budget_ratio) || self->budget_ratio <= 0 ||
      self->budget_ratio > MAX_RATIO || !has_three_decimals (self->budget_ratio))
    return invalid_seconds (error, "retry-budget-ratio",
                            "a number of tokens above 0 with at most 3 decimals", self->budget_ratio);

  self->deadline_us = sluice_time_from_seconds (self->item_deadline);
  /* Deadlines are whole microseconds: one that rounds to 0 is none at all. */
  if (self->item_deadline > 0 && self->deadline_us == 0)
    return invalid_seconds (error, "item-deadline", "0 (none) or at least 0.0000005 seconds",
                            self->item_deadline);
  self->tokens_max = (gint64) llround (self->budget * MILLI);
  self->tokens_ratio = (gint64) llround (self->budget_ratio * MILLI);
  self->tokens = self->tokens_max;

  if (self->rand == NULL)
    self->rand = g_rand_new_with_seed_array (&self->seed, 1);

  return TRUE;
}

void
_sluice_retry_policy_set_random (SluiceRetryPolicy *self,
                                 SluiceRandomFunc   func,
                                 gpointer           user_data,
                                 GDestroyNotify     destroy)
{
  if (self->random_destroy != NULL)
    self->random_destroy (self->random_data);

  self->random_func = func;
  self->random_data = user_data;
  self->random_destroy = destroy;
}

/* The item's one deadline, or 0 for none. */
gint64
_sluice_retry_policy_item_deadline (SluiceRetryPolicy *self,
                                    gint64             pulled_at)
{
  return self->deadline_us > 0 ? pulled_at + self->deadline_us : 0;
}

/* A successful attempt gives back a share of a token. */
void
_sluice_retry_policy_attempt_ok (SluiceRetryPolicy *self)
{
  if (self->tokens_max > 0)
    self->tokens = MIN (self->tokens + self->tokens_ratio, self->tokens_max);
}

/* An attempt that failed with a retryable error takes a token, also when
 * its item has no retries left. */
void
_sluice_retry_policy_attempt_failed (SluiceRetryPolicy *self)
{
  if (self->tokens_max > 0)
    self->tokens = MAX (self->tokens - MILLI, 0);
}

static guint32
next_random (SluiceRetryPolicy *self)
{
  if (self->random_func != NULL)
    return self->random_func (self->random_data);

  return g_rand_int (self->rand);
}

static gint64
draw_delay (SluiceRetryPolicy *self,
            guint              retry)
{
  gint64 bound_us = sluice_backoff_bound_us (self->base, self->cap, retry);

  if (self->jitter == SLUICE_JITTER_NONE)
    return bound_us;

  return sluice_backoff_jitter_us (bound_us, next_random (self));
}

/* Decides retry @retry (from 1) of an attempt that failed with a
 * retryable error and took its token. @delay_us is the wait drawn for it,
 * or -1 with no backoff (nothing is drawn, and no timer waits). */
SluiceRetryDecision
_sluice_retry_policy_decide (SluiceRetryPolicy *self,
                             guint              retry,
                             guint              max_retries,
                             gint64             now,
                             gint64             item_deadline,
                             gint64            *delay_us)
{
  gint64 delay = -1;

  *delay_us = -1;

  if (retry > max_retries)
    return SLUICE_RETRY_USED_UP;

  if (self->tokens_max > 0 && self->tokens <= self->tokens_max / 2)
    return SLUICE_RETRY_SKIP_BUDGET;

  if (self->backoff == SLUICE_BACKOFF_EXPONENTIAL)
    delay = draw_delay (self, retry);
  *delay_us = delay;

  if (item_deadline > 0 && now + MAX (delay, 0) >= item_deadline)
    return SLUICE_RETRY_SKIP_DEADLINE;

  return SLUICE_RETRY_GO;
}
