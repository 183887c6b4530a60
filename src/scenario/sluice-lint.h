/* sluice-lint.h: one warning about a run, on for an interval of its clock
 * (docs/teaching.md, Lints)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * SluiceLintKind:
 * @SLUICE_LINT_TIMEOUT_BELOW_TYPICAL: `timeout-below-typical`: most of the
 *   recent attempts ended by timing out (the median attempt reaches
 *   item-timeout)
 * @SLUICE_LINT_RETRY_STORM: `retry-storm`: more retries than successes
 *   over the last window
 * @SLUICE_LINT_IGNORING_CANCEL: `ignoring-cancel`: an attempt ignored three
 *   rounds of cancellation and still runs
 * @SLUICE_LINT_BLOCKED_LOOP: `blocked-loop`: a timer fired more than 50 ms
 *   late: something blocks the main loop
 * @SLUICE_LINT_SATURATED: `saturated`: the queue full and every worker busy
 *   most of the last window
 * @SLUICE_LINT_DOMINANT_ERROR: `dominant-error`: one error type caused most
 *   of the recent failures
 * @SLUICE_LINT_N_KINDS: how many kinds there are
 *
 * What a #SluiceLint warns about. docs/lints.md says each one's condition
 * and windows.
 */
typedef enum {
  SLUICE_LINT_TIMEOUT_BELOW_TYPICAL,
  SLUICE_LINT_RETRY_STORM,
  SLUICE_LINT_IGNORING_CANCEL,
  SLUICE_LINT_BLOCKED_LOOP,
  SLUICE_LINT_SATURATED,
  SLUICE_LINT_DOMINANT_ERROR,
  SLUICE_LINT_N_KINDS
} SluiceLintKind;

/**
 * SluiceLint:
 *
 * One interval during which a lint was on, with what it names. A
 * reference-counted boxed type; the #SluiceLinter that made it still
 * changes it while it is on (its off time, the items and workers it
 * names, the figures its message gives).
 *
 * A lint is on from sluice_lint_get_on() to sluice_lint_get_off() (times
 * of the run's clock, in µs) and names the items and workers involved
 * while it was on. Its message and its advice (what to try) come in the
 * user's language for the app, or in their English source form for the
 * JSON report, which scripts read whatever the user's language.
 */
typedef struct _SluiceLint SluiceLint;

#define SLUICE_TYPE_LINT (sluice_lint_get_type ())

GType          sluice_lint_get_type          (void) G_GNUC_CONST;
SluiceLint    *sluice_lint_ref               (SluiceLint     *self);
void           sluice_lint_unref             (SluiceLint     *self);

const char    *sluice_lint_kind_to_string    (SluiceLintKind  kind);
gboolean       sluice_lint_kind_from_string  (const char     *name,
                                              SluiceLintKind *kind);
const char    *sluice_lint_kind_get_title    (SluiceLintKind  kind,
                                              gboolean        translated);

SluiceLintKind sluice_lint_get_kind          (const SluiceLint *self);
gint64         sluice_lint_get_on            (const SluiceLint *self);
gint64         sluice_lint_get_off           (const SluiceLint *self);
gboolean       sluice_lint_is_on_at          (const SluiceLint *self,
                                              gint64            time);
const gint64  *sluice_lint_get_items         (const SluiceLint *self,
                                              guint            *n_items);
const gint    *sluice_lint_get_workers       (const SluiceLint *self,
                                              guint            *n_workers);
char          *sluice_lint_dup_message       (const SluiceLint *self,
                                              gboolean          translated);
char          *sluice_lint_dup_advice        (const SluiceLint *self,
                                              gboolean          translated);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceLint, sluice_lint_unref)

G_END_DECLS
