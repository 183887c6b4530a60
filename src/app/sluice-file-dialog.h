/* sluice-file-dialog.h: choose a file to open, save or export to
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * SluiceFileDialogKind:
 * @SLUICE_FILE_DIALOG_OPEN: open a `.pool` scenario or a `.sluicerun` recording
 * @SLUICE_FILE_DIALOG_SAVE: save the scenario as a `.pool` file
 * @SLUICE_FILE_DIALOG_EXPORT_IMAGE: export the chart and lanes (PNG, SVG)
 * @SLUICE_FILE_DIALOG_EXPORT_EVENTS: export the events (CSV, JSON Lines)
 * @SLUICE_FILE_DIALOG_SAVE_RUN: save the last run as a `.sluicerun` recording
 * @SLUICE_FILE_DIALOG_COMPARE: open a `.pool` scenario to compare with, B
 *
 * What the file is for.
 */
typedef enum {
  SLUICE_FILE_DIALOG_OPEN,
  SLUICE_FILE_DIALOG_SAVE,
  SLUICE_FILE_DIALOG_EXPORT_IMAGE,
  SLUICE_FILE_DIALOG_EXPORT_EVENTS,
  SLUICE_FILE_DIALOG_SAVE_RUN,
  SLUICE_FILE_DIALOG_COMPARE,
} SluiceFileDialogKind;

/**
 * SluiceFileDialogFunc:
 * @parent: the window the dialog was for
 * @kind: what the file is for
 * @path: (nullable): the local file chosen, with the extension of the
 *   chosen format; %NULL when the file is not local
 * @user_data: the data given to sluice_file_dialog_show()
 *
 * Called once the user chose a file; not called when they cancel.
 */
typedef void (*SluiceFileDialogFunc) (GtkWindow            *parent,
                                      SluiceFileDialogKind  kind,
                                      const char           *path,
                                      gpointer              user_data);

#define SLUICE_TYPE_FILE_DIALOG (sluice_file_dialog_get_type ())
G_DECLARE_FINAL_TYPE (SluiceFileDialog, sluice_file_dialog, SLUICE, FILE_DIALOG, GObject)

GFile *sluice_file_dialog_get_folder (SluiceFileDialogKind  kind,
                                      const char           *current_file);

char *sluice_file_dialog_complete_name (SluiceFileDialogKind  kind,
                                        const char           *path,
                                        const char           *filter_extension);
void sluice_file_dialog_show (GtkWindow            *parent,
                              SluiceFileDialogKind  kind,
                              const char           *current_file,
                              SluiceFileDialogFunc  func,
                              gpointer              user_data);

G_END_DECLS
