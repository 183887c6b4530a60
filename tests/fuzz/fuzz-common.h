/* fuzz-common.h: what every libFuzzer target of tests/fuzz/ does first
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

int  LLVMFuzzerInitialize (int    *argc,
                           char ***argv);
int  LLVMFuzzerTestOneInput (const guint8 *data,
                             size_t        size);

void fuzz_init (void);

G_END_DECLS
