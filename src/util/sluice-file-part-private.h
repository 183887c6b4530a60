/* sluice-file-part-private.h: a file written under FILE.part and renamed
 * to FILE when complete
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _SluiceFilePart SluiceFilePart;

SluiceFilePart *_sluice_file_part_new        (const char      *path,
                                              GError         **error);
GOutputStream  *_sluice_file_part_get_stream (SluiceFilePart  *self);
const char     *_sluice_file_part_get_path   (SluiceFilePart  *self);
gboolean        _sluice_file_part_commit     (SluiceFilePart  *self,
                                              GError         **error);
void            _sluice_file_part_free       (SluiceFilePart  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SluiceFilePart, _sluice_file_part_free)

G_END_DECLS
