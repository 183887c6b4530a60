/* sluice-monitor.h: a pool exported on D-Bus, for monitors in other processes
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <gio/gio.h>
#include "sluice-pool.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

/**
 * SLUICE_MONITOR_INTERFACE:
 *
 * The D-Bus interface of an exported pool.
 *
 * Since: 1.0
 */
#define SLUICE_MONITOR_INTERFACE "io.github.sluicepool.Sluice.Pool1"

/**
 * SLUICE_MONITOR_BUS_NAME_PREFIX:
 *
 * The prefix of the bus name a process that exports pools owns: the
 * prefix, then `p` and the process id, such as
 * `io.github.sluicepool.Sluice.Pool.p4242`.
 *
 * Since: 1.0
 */
#define SLUICE_MONITOR_BUS_NAME_PREFIX "io.github.sluicepool.Sluice.Pool."

/**
 * SLUICE_MONITOR_OBJECT_PATH_PREFIX:
 *
 * The prefix of an exported pool's object path: the prefix, then the
 * pool's number in its process, from 1, such as
 * `/io/github/sluicepool/Sluice/Pool/1`.
 *
 * Since: 1.0
 */
#define SLUICE_MONITOR_OBJECT_PATH_PREFIX "/io/github/sluicepool/Sluice/Pool/"

/**
 * SluiceExportFlags:
 * @SLUICE_EXPORT_READ_ONLY: monitors may watch the pool, not steer it
 *   (the default)
 * @SLUICE_EXPORT_ALLOW_CONTROL: monitors may also call `RequestStop`
 *
 * What the monitors of an exported pool may do.
 *
 * Since: 1.0
 */
typedef enum /*< flags >*/ {
  SLUICE_EXPORT_READ_ONLY = 0,
  SLUICE_EXPORT_ALLOW_CONTROL = 1 << 0,
} SluiceExportFlags;

SLUICE_AVAILABLE_IN_1_0
GType        sluice_export_flags_get_type  (void) G_GNUC_CONST;
#define SLUICE_TYPE_EXPORT_FLAGS (sluice_export_flags_get_type ())

SLUICE_AVAILABLE_IN_1_0
gboolean     sluice_pool_export            (SluicePool         *pool,
                                            GDBusConnection    *connection,
                                            SluiceExportFlags   flags,
                                            GError            **error);
SLUICE_AVAILABLE_IN_1_0
void         sluice_pool_unexport          (SluicePool         *pool);
SLUICE_AVAILABLE_IN_1_0
const char  *sluice_pool_get_object_path   (SluicePool         *pool);

G_END_DECLS
