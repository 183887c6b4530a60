/* sluice-recording-private.h: the recording reader with a smaller size
 * limit, for the tests of that limit (256 MiB is slow to write)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-recording.h"

G_BEGIN_DECLS

/* How many problems a recording lists; one more line says how many more
 * there were. */
#define SLUICE_RECORDING_MAX_PROBLEMS 100

SluiceRecording *_sluice_recording_new_from_data_limited (const char  *data,
                                                          gsize        length,
                                                          const char  *name,
                                                          gsize        max_size,
                                                          GError     **error);

G_END_DECLS
