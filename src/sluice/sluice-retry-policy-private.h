/* sluice-retry-policy-private.h: a pool's retry policy and its state
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-retry-policy.h"

G_BEGIN_DECLS

/* What happens after an attempt failed with an error worth a retry. */
typedef enum {
  SLUICE_RETRY_GO,            /* retry (after the delay, if any) */
  SLUICE_RETRY_USED_UP,       /* no retries left */
  SLUICE_RETRY_SKIP_BUDGET,   /* the budget refuses it */
  SLUICE_RETRY_SKIP_DEADLINE, /* the backoff would end at or after the item deadline */
} SluiceRetryDecision;

/* The options (pool properties) and, once validated, the run-time state:
 * the token bucket and the random generator. A pool runs once, so both
 * live as long as the pool. */
typedef struct
{
  SluiceBackoff     backoff;
  double            base;
  double            cap;
  SluiceJitter      jitter;
  guint32           seed;
  double            item_deadline;
  double            budget;
  double            budget_ratio;

  gint64            deadline_us;  /* 0: no item deadline */
  gint64            tokens;       /* thousandths of a token */
  gint64            tokens_max;   /* 0: no budget */
  gint64            tokens_ratio;

  GRand            *rand;
  SluiceRandomFunc  random_func;
  gpointer          random_data;
  GDestroyNotify    random_destroy;
} SluiceRetryPolicy;

void                _sluice_retry_policy_init         (SluiceRetryPolicy  *self);
void                _sluice_retry_policy_clear        (SluiceRetryPolicy  *self);
gboolean            _sluice_retry_policy_prepare      (SluiceRetryPolicy  *self,
                                                       GError            **error);
void                _sluice_retry_policy_set_random   (SluiceRetryPolicy  *self,
                                                       SluiceRandomFunc    func,
                                                       gpointer            user_data,
                                                       GDestroyNotify      destroy);
gint64              _sluice_retry_policy_item_deadline (SluiceRetryPolicy *self,
                                                       gint64              pulled_at);
void                _sluice_retry_policy_attempt_ok   (SluiceRetryPolicy  *self);
void                _sluice_retry_policy_attempt_failed (SluiceRetryPolicy *self);
SluiceRetryDecision _sluice_retry_policy_decide       (SluiceRetryPolicy  *self,
                                                       guint               retry,
                                                       guint               max_retries,
                                                       gint64              now,
                                                       gint64              item_deadline,
                                                       gint64             *delay_us);

/* Thousandths of a token left, or -1 without a budget (read for every
 * event). */
static inline gint64
_sluice_retry_policy_get_tokens (SluiceRetryPolicy *self)
{
  return self->tokens_max > 0 ? self->tokens : -1;
}

G_END_DECLS
