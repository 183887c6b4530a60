/* sluice-fold-private.h: what tests may ask a SluiceFold beyond its API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-fold.h"

G_BEGIN_DECLS

guint64 _sluice_fold_get_n_reads (SluiceFold *self);

G_END_DECLS
