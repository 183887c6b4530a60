/* config-engine.h: what every engine source file includes first
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>
#include <gio/gio.h>
