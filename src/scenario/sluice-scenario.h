/* sluice-scenario.h: one experiment, loaded from a .pool key file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <sluice.h>

#include "sluice-behaviour.h"
#include "sluice-fault-handler.h"
#include "sluice-fault-source.h"
#include "sluice-lesson.h"

G_BEGIN_DECLS

/**
 * SLUICE_SCENARIO_ERROR:
 *
 * The error domain of bad scenario files. Codes are in #SluiceScenarioError.
 */
#define SLUICE_SCENARIO_ERROR (sluice_scenario_error_quark ())

/**
 * SluiceScenarioError:
 * @SLUICE_SCENARIO_ERROR_PARSE: the file is not a key file (empty, binary,
 *   not UTF-8, a line that is neither a group, a key nor a comment)
 * @SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP: a group the format does not have
 * @SLUICE_SCENARIO_ERROR_UNKNOWN_KEY: a key the group does not have
 * @SLUICE_SCENARIO_ERROR_INVALID_VALUE: a malformed or out-of-range value
 * @SLUICE_SCENARIO_ERROR_MISSING_KEY: a required key is missing
 * @SLUICE_SCENARIO_ERROR_CONFLICT: keys that cannot go together
 * @SLUICE_SCENARIO_ERROR_BAD_OVERRIDE: a `--set` that is not
 *   `group.key=value`
 * @SLUICE_SCENARIO_ERROR_IO: the file could not be read or written, is not a
 *   regular file, or is larger than %SLUICE_SCENARIO_MAX_SIZE (also for
 *   data given in memory)
 *
 * Error codes in the %SLUICE_SCENARIO_ERROR domain. Every message names the
 * file, the group and key (and the line when known) and the expected form.
 */
typedef enum {
  SLUICE_SCENARIO_ERROR_PARSE,
  SLUICE_SCENARIO_ERROR_UNKNOWN_GROUP,
  SLUICE_SCENARIO_ERROR_UNKNOWN_KEY,
  SLUICE_SCENARIO_ERROR_INVALID_VALUE,
  SLUICE_SCENARIO_ERROR_MISSING_KEY,
  SLUICE_SCENARIO_ERROR_CONFLICT,
  SLUICE_SCENARIO_ERROR_BAD_OVERRIDE,
  SLUICE_SCENARIO_ERROR_IO,
} SluiceScenarioError;

/**
 * SLUICE_SCENARIO_MAX_SIZE:
 *
 * The largest scenario, in bytes, that sluice_scenario_new_from_file(),
 * sluice_scenario_new_from_data() and sluice_scenario_new_from_bytes()
 * accept: 1 MiB, far more than any hand-written `.pool` file needs. A
 * larger one is refused with %SLUICE_SCENARIO_ERROR_IO, and a file is
 * never read past this limit, even one that grows while it is read.
 */
#define SLUICE_SCENARIO_MAX_SIZE (1024 * 1024)

/**
 * SluiceMetricsMode:
 * @SLUICE_METRICS_OFF: no metrics callback
 * @SLUICE_METRICS_ON: a callback that counts its calls
 * @SLUICE_METRICS_BROKEN: a callback that counts its calls and fails every
 *   time, like a broken backend
 *
 * The `[pool] metrics` key.
 */
typedef enum {
  SLUICE_METRICS_OFF,
  SLUICE_METRICS_ON,
  SLUICE_METRICS_BROKEN,
} SluiceMetricsMode;

/**
 * SluiceScenarioMode:
 * @SLUICE_SCENARIO_MODE_STREAM: the pool pulls the source's items and
 *   streams their results (the capstone)
 * @SLUICE_SCENARIO_MODE_SUBMIT: a service run (sluice_pool_open()): one
 *   submitter submits the source's items as jobs, one after another
 *
 * The `[run] mode` key (docs/submit-and-shutdown.md).
 */
typedef enum {
  SLUICE_SCENARIO_MODE_STREAM,
  SLUICE_SCENARIO_MODE_SUBMIT,
} SluiceScenarioMode;

#define SLUICE_TYPE_SCENARIO (sluice_scenario_get_type ())
G_DECLARE_FINAL_TYPE (SluiceScenario, sluice_scenario, SLUICE, SCENARIO, GObject)

GQuark                 sluice_scenario_error_quark         (void);

SluiceScenario        *sluice_scenario_new                 (void);
SluiceScenario        *sluice_scenario_new_from_file       (const char          *path,
                                                            const char * const  *overrides,
                                                            GError             **error);
char                  *sluice_scenario_read_text           (const char          *path,
                                                            gsize               *length,
                                                            GError             **error);
SluiceScenario        *sluice_scenario_new_from_data       (const char          *data,
                                                            gssize               length,
                                                            const char          *name,
                                                            const char * const  *overrides,
                                                            GError             **error);
SluiceScenario        *sluice_scenario_new_from_bytes      (GBytes              *bytes,
                                                            const char          *name,
                                                            const char * const  *overrides,
                                                            GError             **error);
SluiceScenario        *sluice_scenario_new_from_keyfile    (GKeyFile            *keyfile,
                                                            const char          *name,
                                                            const char * const  *overrides,
                                                            GError             **error);

GKeyFile              *sluice_scenario_to_keyfile          (SluiceScenario      *self);
char                  *sluice_scenario_to_data             (SluiceScenario      *self,
                                                            gsize               *length);
gboolean               sluice_scenario_save_to_file        (SluiceScenario      *self,
                                                            const char          *path,
                                                            GError             **error);
char                  *sluice_scenario_update_data         (SluiceScenario      *self,
                                                            const char          *data);
char                  *sluice_scenario_save_over_data      (SluiceScenario      *self,
                                                            const char          *data,
                                                            const char          *path,
                                                            GError             **error);

const char            *sluice_scenario_get_name            (SluiceScenario      *self);
const char            *sluice_scenario_get_title           (SluiceScenario      *self);
const char            *sluice_scenario_get_description     (SluiceScenario      *self);
gint                   sluice_scenario_get_workers         (SluiceScenario      *self);
gint                   sluice_scenario_get_queue_size      (SluiceScenario      *self);
double                 sluice_scenario_get_item_timeout    (SluiceScenario      *self);
gint                   sluice_scenario_get_max_retries     (SluiceScenario      *self);
const char * const    *sluice_scenario_get_retryable       (SluiceScenario      *self);
SluiceMetricsMode      sluice_scenario_get_metrics         (SluiceScenario      *self);
gboolean               sluice_scenario_get_keep_going      (SluiceScenario      *self);
const char * const    *sluice_scenario_get_fatal           (SluiceScenario      *self);
double                 sluice_scenario_get_shutdown_timeout (SluiceScenario     *self);
gboolean               sluice_scenario_is_range            (SluiceScenario      *self);
guint                  sluice_scenario_get_n_items         (SluiceScenario      *self);
GVariant              *sluice_scenario_get_item            (SluiceScenario      *self,
                                                            guint                index);
double                 sluice_scenario_get_interval        (SluiceScenario      *self);
SluiceSourceFault      sluice_scenario_get_source_fault    (SluiceScenario      *self,
                                                            guint               *after);
const SluiceBehaviour *sluice_scenario_get_default_behaviour (SluiceScenario    *self);
const SluiceBehaviour *sluice_scenario_get_item_behaviour  (SluiceScenario      *self,
                                                            gint64               item_index);
GPtrArray             *sluice_scenario_get_mix             (SluiceScenario      *self);
guint32                sluice_scenario_get_seed            (SluiceScenario      *self);
gint64                 sluice_scenario_get_stop_after      (SluiceScenario      *self);
gint64                 sluice_scenario_get_close_after     (SluiceScenario      *self);
double                 sluice_scenario_get_cancel_after    (SluiceScenario      *self);
double                 sluice_scenario_get_caller_delay    (SluiceScenario      *self);
SluiceClockKind        sluice_scenario_get_clock_kind      (SluiceScenario      *self);
gboolean               sluice_scenario_needs_real_time     (SluiceScenario      *self);
SluiceBackoff          sluice_scenario_get_backoff         (SluiceScenario      *self);
double                 sluice_scenario_get_backoff_base    (SluiceScenario      *self);
double                 sluice_scenario_get_backoff_cap     (SluiceScenario      *self);
SluiceJitter           sluice_scenario_get_jitter          (SluiceScenario      *self);
guint32                sluice_scenario_get_retry_seed      (SluiceScenario      *self);
double                 sluice_scenario_get_item_deadline   (SluiceScenario      *self);
double                 sluice_scenario_get_retry_budget    (SluiceScenario      *self);
double                 sluice_scenario_get_retry_budget_ratio (SluiceScenario   *self);
gboolean               sluice_scenario_has_retry_key       (SluiceScenario      *self,
                                                            const char          *key);
const double          *sluice_scenario_get_snapshot_times  (SluiceScenario      *self,
                                                            guint               *n_times);
SluiceScenarioMode     sluice_scenario_get_mode            (SluiceScenario      *self);
double                 sluice_scenario_get_give_up         (SluiceScenario      *self,
                                                            gint64               job_index);
double                 sluice_scenario_get_give_up_after   (SluiceScenario      *self);
double                 sluice_scenario_get_close_after_seconds (SluiceScenario  *self);
SluiceLesson          *sluice_scenario_get_lesson          (SluiceScenario      *self);

SluiceClock           *sluice_scenario_create_clock        (SluiceScenario      *self);
SluiceFaultHandler    *sluice_scenario_create_handler      (SluiceScenario      *self,
                                                            SluiceClock         *clock);
SluiceFaultSource     *sluice_scenario_create_source       (SluiceScenario      *self,
                                                            SluiceClock         *clock);
SluicePool            *sluice_scenario_create_pool         (SluiceScenario      *self,
                                                            SluiceHandler       *handler,
                                                            SluiceClock         *clock,
                                                            GError             **error);

G_END_DECLS
