/* sluice-error.h: the error domain of libsluice and the type names users see
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
 * SLUICE_ERROR:
 *
 * The error domain of the pool's own errors. Codes are in #SluiceError.
 *
 * Since: 1.0
 */
#define SLUICE_ERROR (sluice_error_quark ())

/**
 * SluiceError:
 * @SLUICE_ERROR_FAILED: an unspecified failure
 * @SLUICE_ERROR_INVALID_CONFIG: an option of the pool is out of range
 * @SLUICE_ERROR_SINGLE_USE: the pool already ran once (`pool is single-use`)
 * @SLUICE_ERROR_TIMEOUT: an attempt ran past its deadline (`item timed out`)
 * @SLUICE_ERROR_HANDLER_CANCELLED: a handler ended cancelled when nobody
 *   asked it to (`handler cancelled itself`)
 * @SLUICE_ERROR_SOURCE_CANCELLED: a source read ended cancelled before any
 *   stop was requested (`source cancelled itself`)
 * @SLUICE_ERROR_GROUP: the run recorded errors; see sluice_run_get_errors()
 * @SLUICE_ERROR_CLOSED: the channel was shut down
 * @SLUICE_ERROR_PENDING: an operation of the same kind is already pending
 * @SLUICE_ERROR_DEADLOCK: a virtual clock found nothing ready and no timer
 *   pending while something still waits
 * @SLUICE_ERROR_NO_RESULT: a handler returned neither a result nor an error
 *   (`handler returned neither a result nor an error`); its type name is
 *   `RuntimeError`
 * @SLUICE_ERROR_INVALID_EVENT: a record is not an event: a key of the wrong
 *   type or out of range, or no kind (sluice_event_new_from_variant())
 *
 * Error codes in the %SLUICE_ERROR domain.
 *
 * Every error the pool records also has a type name, which users see in
 * reports, metrics and scenario files, after the seed's Python
 * exceptions: `TimeoutError` for a timeout, `RuntimeError` for a handler
 * or source that cancelled itself, and user-chosen names such as
 * `ValueError` for errors in the %SLUICE_NAMED_ERROR domain.
 *
 * Since: 1.0
 */
typedef enum {
  SLUICE_ERROR_FAILED,
  SLUICE_ERROR_INVALID_CONFIG,
  SLUICE_ERROR_SINGLE_USE,
  SLUICE_ERROR_TIMEOUT,
  SLUICE_ERROR_HANDLER_CANCELLED,
  SLUICE_ERROR_SOURCE_CANCELLED,
  SLUICE_ERROR_GROUP,
  SLUICE_ERROR_CLOSED,
  SLUICE_ERROR_PENDING,
  SLUICE_ERROR_DEADLOCK,
  SLUICE_ERROR_NO_RESULT,
  SLUICE_ERROR_INVALID_EVENT,
} SluiceError;

SLUICE_AVAILABLE_IN_1_0
GType sluice_error_get_type (void) G_GNUC_CONST;
#define SLUICE_TYPE_ERROR (sluice_error_get_type ())

/**
 * SLUICE_NAMED_ERROR:
 *
 * A domain for errors that are known by a type name only, such as the
 * `ValueError` or `ConnectionError` a fault-injecting handler raises. The
 * code of a name is given by sluice_named_error_code().
 *
 * Since: 1.0
 */
#define SLUICE_NAMED_ERROR (sluice_named_error_domain_quark ())

SLUICE_AVAILABLE_IN_1_0
GQuark       sluice_error_quark              (void);
SLUICE_AVAILABLE_IN_1_0
GQuark       sluice_named_error_domain_quark (void);
SLUICE_AVAILABLE_IN_1_0
gint         sluice_named_error_code         (const char   *type_name);
SLUICE_AVAILABLE_IN_1_0
GError      *sluice_named_error_new          (const char   *type_name,
                                              const char   *format,
                                              ...) G_GNUC_PRINTF (2, 3);
SLUICE_AVAILABLE_IN_1_0
GError      *sluice_named_error_new_literal  (const char   *type_name,
                                              const char   *message);
SLUICE_AVAILABLE_IN_1_0
void         sluice_error_register_type_name (GQuark        domain,
                                              gint          code,
                                              const char   *type_name);
SLUICE_AVAILABLE_IN_1_0
const char  *sluice_error_type_name          (const GError *error);
SLUICE_AVAILABLE_IN_1_0
char        *sluice_error_repr               (const GError *error);
SLUICE_AVAILABLE_IN_1_0
char        *sluice_repr_string              (const char   *text);

G_END_DECLS
