/* sluice-render-projector.h: how much larger projector mode draws
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SLUICE_RENDER_PROJECTOR_SCALE:
 *
 * How much larger projector mode draws the chart and the lanes (and the
 * app its widgets' text, ui/style.css): a view of W × H pixels is laid out
 * by the render layer as one of W / scale × H / scale on a cairo context
 * scaled by it, as a HiDPI screen's scale does. Every text, line, mark
 * and the room between them grow together, so a layout whose labels stay
 * apart at one size stays so at the other.
 *
 * 1.6 rather than 1.5: fonts are hinted to whole pixels at each size, and
 * a text 1.5 times larger can measure a pixel short of it; at 1.6 every
 * text of the views measures at least 1.5 times its normal height.
 */
#define SLUICE_RENDER_PROJECTOR_SCALE 1.6

G_END_DECLS
