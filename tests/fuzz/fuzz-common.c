/* fuzz-common.c: what every libFuzzer target of tests/fuzz/ does first
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <locale.h>
#include <stdlib.h>

#include "fuzz-common.h"

/* Every message of GLib or of Sluice at warning level or above is a bug
 * here, as under G_DEBUG=fatal-warnings: print it and abort, so that
 * libFuzzer keeps the input (a fatal log alone would end in SIGTRAP,
 * which it does not catch). */
static GLogWriterOutput
fatal_writer (GLogLevelFlags   log_level,
              const GLogField *fields,
              gsize            n_fields,
              gpointer         user_data)
{
  GLogWriterOutput output = g_log_writer_standard_streams (log_level, fields, n_fields, user_data);

  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING | G_LOG_FLAG_FATAL))
    abort ();
  return output;
}

/* A known locale, and every warning fatal. */
void
fuzz_init (void)
{
  setlocale (LC_ALL, "C.UTF-8");
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  g_log_set_writer_func (fatal_writer, NULL, NULL);
}
