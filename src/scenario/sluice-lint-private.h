/* sluice-lint-private.h: what a SluiceLinter changes in the lints it makes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-lint.h"

G_BEGIN_DECLS

/* The figures a lint's message gives, by kind (the worst while it was on):
 *   timeout-below-typical  count timed out of total recent attempts; span
 *                          the item-timeout
 *   retry-storm            count retries against total successes in the
 *                          last span
 *   ignoring-cancel        span the item-timeout (the wait of each round)
 *   blocked-loop           span how late the latest timer fired
 *   saturated              count workers, total the queue's capacity,
 *                          busy the time saturated of the last span
 *   dominant-error         count failures of error_type of total recent ones */
struct _SluiceLint
{
  gatomicrefcount ref_count;
  SluiceLintKind  kind;
  gint64          on;
  gint64          off;          /* -1 while on */
  GArray         *items;        /* gint64, ascending, each once */
  GArray         *workers;      /* gint, ascending, each once */
  guint           count;
  guint           total;
  gint64          span;         /* µs */
  gint64          busy;         /* µs */
  const char     *error_type;   /* interned, or NULL */
};

SluiceLint *_sluice_lint_new        (SluiceLintKind  kind,
                                     gint64          on);
void        _sluice_lint_add_item   (SluiceLint     *self,
                                     gint64          item);
void        _sluice_lint_add_worker (SluiceLint     *self,
                                     gint            worker);

G_END_DECLS
