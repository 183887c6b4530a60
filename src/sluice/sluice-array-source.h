/* sluice-array-source.h: a source over an array of items
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include "sluice-source.h"
#include "sluice-version-macros.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_ARRAY_SOURCE (sluice_array_source_get_type ())
SLUICE_AVAILABLE_IN_1_0
G_DECLARE_FINAL_TYPE (SluiceArraySource, sluice_array_source, SLUICE, ARRAY_SOURCE, GObject)

SLUICE_AVAILABLE_IN_1_0
SluiceSource *sluice_array_source_new       (GVariant * const *items,
                                             gsize             n_items);
SLUICE_AVAILABLE_IN_1_0
SluiceSource *sluice_array_source_new_range (gint64            count);
SLUICE_AVAILABLE_IN_1_0
guint         sluice_array_source_get_position (SluiceArraySource *self);

G_END_DECLS
