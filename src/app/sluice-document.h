/* sluice-document.h: what the playground window shows: a scenario, its
 * file, and the model of its current run
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>

#include "sluice-run-model.h"
#include "sluice-scenario.h"

G_BEGIN_DECLS

#define SLUICE_TYPE_DOCUMENT (sluice_document_get_type ())
G_DECLARE_FINAL_TYPE (SluiceDocument, sluice_document, SLUICE, DOCUMENT, GObject)

SluiceDocument *sluice_document_new          (void);

SluiceScenario *sluice_document_get_scenario (SluiceDocument       *self);
void            sluice_document_set_scenario (SluiceDocument       *self,
                                              SluiceScenario       *scenario);
GFile          *sluice_document_get_file     (SluiceDocument       *self);
const char     *sluice_document_get_path     (SluiceDocument       *self);
const char     *sluice_document_get_text     (SluiceDocument       *self);
const char     *sluice_document_get_title    (SluiceDocument       *self);
const char     *sluice_document_get_subtitle (SluiceDocument       *self);
gboolean        sluice_document_get_dirty    (SluiceDocument       *self);
void            sluice_document_set_dirty    (SluiceDocument       *self,
                                              gboolean              dirty);
SluiceRunModel *sluice_document_get_model    (SluiceDocument       *self);
void            sluice_document_set_model    (SluiceDocument       *self,
                                              SluiceRunModel       *model);

gboolean        sluice_document_load         (SluiceDocument       *self,
                                              GFile                *file,
                                              GCancellable         *cancellable,
                                              GError              **error);
void            sluice_document_load_async   (SluiceDocument       *self,
                                              GFile                *file,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean        sluice_document_load_finish  (SluiceDocument       *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void            sluice_document_replace      (SluiceDocument       *self,
                                              SluiceScenario       *scenario,
                                              const char           *text,
                                              const char           *subtitle);
void            sluice_document_save_async   (SluiceDocument       *self,
                                              GFile                *file,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean        sluice_document_save_finish  (SluiceDocument       *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
