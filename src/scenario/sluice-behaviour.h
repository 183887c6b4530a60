/* sluice-behaviour.h: what the fault-injecting handler does for one item
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * SluiceBehaviourKind:
 * @SLUICE_BEHAVIOUR_OK: `ok [D]`: succeed after D
 * @SLUICE_BEHAVIOUR_FAIL: `fail K TYPE [D]`: the first K attempts fail
 * @SLUICE_BEHAVIOUR_FAIL_ALWAYS: `fail-always TYPE [D]`: every attempt fails
 * @SLUICE_BEHAVIOUR_HANG: `hang`: never finishes until cancelled
 * @SLUICE_BEHAVIOUR_LATE: `late D`: ignores cancellation, returns after D
 * @SLUICE_BEHAVIOUR_CANCEL_SELF: `cancel-self [D]`: ends cancelled by itself
 * @SLUICE_BEHAVIOUR_STUBBORN: `stubborn D`: ignores the first cancellation
 *   request, honours the second
 * @SLUICE_BEHAVIOUR_BLOCK: `block D`: blocks the main loop for D seconds
 * @SLUICE_BEHAVIOUR_THREAD: `thread D`: sleeps D seconds in a worker thread
 *
 * The behaviours of a scenario's handler.
 */
typedef enum {
  SLUICE_BEHAVIOUR_OK,
  SLUICE_BEHAVIOUR_FAIL,
  SLUICE_BEHAVIOUR_FAIL_ALWAYS,
  SLUICE_BEHAVIOUR_HANG,
  SLUICE_BEHAVIOUR_LATE,
  SLUICE_BEHAVIOUR_CANCEL_SELF,
  SLUICE_BEHAVIOUR_STUBBORN,
  SLUICE_BEHAVIOUR_BLOCK,
  SLUICE_BEHAVIOUR_THREAD,
} SluiceBehaviourKind;

/**
 * SluiceBehaviour:
 * @kind: what the handler does
 * @delay: D, in seconds (0 when the behaviour has none)
 * @failures: K, for %SLUICE_BEHAVIOUR_FAIL
 * @error_type: (nullable): TYPE, for the failing behaviours
 *
 * One parsed behaviour, such as `fail 2 ValueError 0.1`.
 */
typedef struct {
  SluiceBehaviourKind  kind;
  double               delay;
  guint                failures;
  char                *error_type;
} SluiceBehaviour;

/**
 * SluiceMixEntry:
 * @weight: the relative weight (> 0)
 * @behaviour: the behaviour drawn with that weight
 *
 * One `weight% behaviour` entry of a random mix.
 */
typedef struct {
  double           weight;
  SluiceBehaviour *behaviour;
} SluiceMixEntry;

#define SLUICE_TYPE_BEHAVIOUR (sluice_behaviour_get_type ())

/**
 * SLUICE_BEHAVIOUR_EXPECTED:
 *
 * The accepted forms of a behaviour, for error messages.
 */
#define SLUICE_BEHAVIOUR_EXPECTED \
  "ok [D] | fail K TYPE [D] | fail-always TYPE [D] | hang | late D | " \
  "cancel-self [D] | stubborn D | block D | thread D"

GType            sluice_behaviour_get_type        (void) G_GNUC_CONST;
SluiceBehaviour *sluice_behaviour_new             (SluiceBehaviourKind     kind,
                                                   double                  delay);
SluiceBehaviour *sluice_behaviour_parse           (const char             *text,
                                                   GError                **error);
gboolean         sluice_behaviour_is_valid        (const char             *text);
SluiceBehaviour *sluice_behaviour_copy            (const SluiceBehaviour  *self);
void             sluice_behaviour_free            (SluiceBehaviour        *self);
char            *sluice_behaviour_to_string       (const SluiceBehaviour  *self);
gboolean         sluice_behaviour_needs_real_time (const SluiceBehaviour  *self);
const char      *sluice_behaviour_kind_to_string  (SluiceBehaviourKind     kind);

void             sluice_mix_entry_free            (SluiceMixEntry         *entry);
GPtrArray       *sluice_mix_parse                 (const char             *text,
                                                   GError                **error);
char            *sluice_mix_to_string             (GPtrArray              *entries);

gboolean         sluice_is_error_type_name        (const char             *text);
char            *sluice_format_double             (double                  value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceBehaviour, sluice_behaviour_free)

/* Shared by the scenario's readers; not for users of the library. */
gboolean _sluice_is_plain_decimal (const char *text,
                                   gssize      length);

G_END_DECLS
