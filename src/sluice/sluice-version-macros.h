/* sluice-version-macros.h: symbol visibility of libsluice's public API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

/* libsluice is built with -fvisibility=hidden: only declarations marked
 * with SLUICE_AVAILABLE_IN_ALL (or a later SLUICE_AVAILABLE_IN_x_y) are
 * exported from the shared library. */
#ifndef _SLUICE_EXTERN
# if defined (__GNUC__) || defined (__clang__)
#  define _SLUICE_EXTERN __attribute__((visibility ("default"))) extern
# else
#  define _SLUICE_EXTERN extern
# endif
#endif

/**
 * SLUICE_AVAILABLE_IN_ALL:
 *
 * Marks a public declaration of libsluice as exported, whatever version
 * the program that includes it asks for.
 *
 * Since: 0.1
 */
#define SLUICE_AVAILABLE_IN_ALL _SLUICE_EXTERN
