/* sluice-version-macros.h: what arrived in which version of libsluice, and
 * the symbol visibility of its public API
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined (SLUICE_INSIDE) && !defined (SLUICE_COMPILATION)
# error "Only <sluice.h> can be included directly."
#endif

#include <glib.h>

#include "sluice-version.h"

/* As libdex and GLib do it: each public declaration is marked with the
 * version that brought it, SLUICE_AVAILABLE_IN_x_y, and a program says
 * which versions it builds for with SLUICE_VERSION_MIN_REQUIRED and
 * SLUICE_VERSION_MAX_ALLOWED before it includes <sluice.h>: then a call
 * newer than its MAX_ALLOWED is a compiler warning, and so is a call
 * deprecated in or before its MIN_REQUIRED. libsluice itself is built
 * with -fvisibility=hidden: only the declarations marked so are exported
 * from the shared library.
 *
 * When a release adds API: define SLUICE_VERSION_x_y and the
 * SLUICE_AVAILABLE_IN_x_y / SLUICE_DEPRECATED_IN_x_y[_FOR] block below,
 * following 1_0's, and mark the new declarations with it and their doc
 * comments with `Since: x.y`. */

#ifndef _SLUICE_EXTERN
# if defined (__GNUC__) || defined (__clang__)
#  define _SLUICE_EXTERN __attribute__((visibility ("default"))) extern
# else
#  define _SLUICE_EXTERN extern
# endif
#endif

#ifdef SLUICE_DISABLE_DEPRECATION_WARNINGS
# define _SLUICE_DEPRECATED _SLUICE_EXTERN
# define _SLUICE_DEPRECATED_FOR(f) _SLUICE_EXTERN
# define _SLUICE_UNAVAILABLE(maj,min) _SLUICE_EXTERN
#else
# define _SLUICE_DEPRECATED G_DEPRECATED _SLUICE_EXTERN
# define _SLUICE_DEPRECATED_FOR(f) G_DEPRECATED_FOR (f) _SLUICE_EXTERN
# define _SLUICE_UNAVAILABLE(maj,min) G_UNAVAILABLE (maj, min) _SLUICE_EXTERN
#endif

/**
 * SLUICE_VERSION_1_0:
 *
 * A version to give %SLUICE_VERSION_MIN_REQUIRED or
 * %SLUICE_VERSION_MAX_ALLOWED: libsluice 1.0, the first stable API (the
 * 0.x releases are previews of it).
 *
 * Since: 1.0
 */
#define SLUICE_VERSION_1_0 (G_ENCODE_VERSION (1, 0))

/**
 * SLUICE_VERSION_CUR_STABLE:
 *
 * The version of the API of the headers included: their major and minor
 * version, and 1.0 for the 0.x previews of 1.0.
 *
 * Since: 1.0
 */
#if SLUICE_MAJOR_VERSION == 0
# define SLUICE_VERSION_CUR_STABLE (SLUICE_VERSION_1_0)
#else
# define SLUICE_VERSION_CUR_STABLE (G_ENCODE_VERSION (SLUICE_MAJOR_VERSION, SLUICE_MINOR_VERSION))
#endif

/**
 * SLUICE_VERSION_MIN_REQUIRED:
 *
 * Defined by a program, before it includes <sluice.h>, as one of the
 * SLUICE_VERSION_x_y macros: the oldest libsluice it supports. A function
 * deprecated in that version or before is a compiler warning. By default,
 * %SLUICE_VERSION_CUR_STABLE.
 *
 * Since: 1.0
 */
#ifndef SLUICE_VERSION_MIN_REQUIRED
# define SLUICE_VERSION_MIN_REQUIRED (SLUICE_VERSION_CUR_STABLE)
#endif

/**
 * SLUICE_VERSION_MAX_ALLOWED:
 *
 * Defined by a program, before it includes <sluice.h>, as one of the
 * SLUICE_VERSION_x_y macros: the newest libsluice API it may use. A
 * function added after that version is a compiler warning. By default,
 * %SLUICE_VERSION_CUR_STABLE.
 *
 * Since: 1.0
 */
#ifndef SLUICE_VERSION_MAX_ALLOWED
# define SLUICE_VERSION_MAX_ALLOWED (SLUICE_VERSION_CUR_STABLE)
#endif

#if SLUICE_VERSION_MAX_ALLOWED < SLUICE_VERSION_MIN_REQUIRED
# error "SLUICE_VERSION_MAX_ALLOWED must be >= SLUICE_VERSION_MIN_REQUIRED"
#endif
#if SLUICE_VERSION_MIN_REQUIRED < SLUICE_VERSION_1_0
# error "SLUICE_VERSION_MIN_REQUIRED must be >= SLUICE_VERSION_1_0"
#endif

/**
 * SLUICE_AVAILABLE_IN_ALL:
 *
 * Marks a public declaration as exported whatever the versions a program
 * asks for. Not used by libsluice's own declarations, which say the
 * version that brought them (%SLUICE_AVAILABLE_IN_1_0, …); kept for
 * programs that wrap libsluice with their own macros.
 *
 * Since: 1.0
 */
#define SLUICE_AVAILABLE_IN_ALL _SLUICE_EXTERN

/**
 * SLUICE_AVAILABLE_IN_1_0:
 *
 * Marks a public declaration that arrived in libsluice 1.0 (a compiler
 * warning in a program whose %SLUICE_VERSION_MAX_ALLOWED is older).
 *
 * Since: 1.0
 */
#if SLUICE_VERSION_MAX_ALLOWED < SLUICE_VERSION_1_0
# define SLUICE_AVAILABLE_IN_1_0 _SLUICE_UNAVAILABLE (1, 0)
#else
# define SLUICE_AVAILABLE_IN_1_0 _SLUICE_EXTERN
#endif

/**
 * SLUICE_DEPRECATED_IN_1_0:
 *
 * Marks a public declaration deprecated in libsluice 1.0 (a compiler
 * warning in a program whose %SLUICE_VERSION_MIN_REQUIRED is 1.0 or
 * newer).
 *
 * Since: 1.0
 */
/**
 * SLUICE_DEPRECATED_IN_1_0_FOR:
 * @f: the declaration to use instead
 *
 * As %SLUICE_DEPRECATED_IN_1_0, naming the replacement @f.
 *
 * Since: 1.0
 */
#if SLUICE_VERSION_MIN_REQUIRED >= SLUICE_VERSION_1_0
# define SLUICE_DEPRECATED_IN_1_0 _SLUICE_DEPRECATED
# define SLUICE_DEPRECATED_IN_1_0_FOR(f) _SLUICE_DEPRECATED_FOR (f)
#else
# define SLUICE_DEPRECATED_IN_1_0 _SLUICE_EXTERN
# define SLUICE_DEPRECATED_IN_1_0_FOR(f) _SLUICE_EXTERN
#endif
