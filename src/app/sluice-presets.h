/* sluice-presets.h: where the preset scenarios are
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

const char  *sluice_presets_get_dir    (void);
GStrv        sluice_presets_list_names (void);
char        *sluice_presets_find       (const char *name);

const char  *_sluice_find_data_dir     (const char *env,
                                        const char *installed);
char        *_sluice_find_pool_file    (const char *dir,
                                        const char *name);
gint         sluice_presets_get_group  (const char *name);
void         sluice_presets_fill_menu  (GMenu      *menu,
                                        const char *action);

G_END_DECLS
