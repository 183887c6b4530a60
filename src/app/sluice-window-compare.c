/* sluice-window-compare.c: Compare…: the current configuration as A, a
 * scenario file as B run on A's workload, in a #SluiceCompareWindow
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-window-private.h"

/* B is a file, not the current configuration with a few fields changed in
 * a dialog: the table is then the one `sluice-run --compare B.pool A.pool`
 * prints for the same files, and the presets come in pairs to compare
 * (retry-storm and retry-storm-jitter). A is what the panel shows now,
 * saved or not. */

/**
 * sluice_window_compare_with_file:
 * @self: a #SluiceWindow
 * @path: the scenario file of B
 * @error: return location for why the comparison cannot start: the
 *   configuration has an error, @path cannot be read, or B cannot run on
 *   A's workload
 *
 * Opens a #SluiceCompareWindow that runs the current configuration (A)
 * and @path on A's workload (B), and shows their difference.
 *
 * Returns: (transfer none) (nullable): the compare window, or %NULL with
 *   @error set
 */
SluiceCompareWindow *
sluice_window_compare_with_file (SluiceWindow  *self,
                                 const char    *path,
                                 GError       **error)
{
  SluiceScenario *a;
  g_autoptr(SluiceScenario) b = NULL;
  g_autoptr(SluiceComparison) comparison = NULL;
  SluiceCompareWindow *compare;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  a = sluice_config_panel_get_scenario (self->config_panel);
  if (a == NULL)
    {
      g_set_error_literal (error, SLUICE_SCENARIO_ERROR, SLUICE_SCENARIO_ERROR_INVALID_VALUE,
                           _("The configuration has an error: fix the field marked in red, then compare."));
      return NULL;
    }

  b = sluice_scenario_new_from_file (path, NULL, error);
  if (b == NULL)
    return NULL;
  comparison = sluice_comparison_new (a, sluice_document_get_path (self->document), b, path, error);
  if (comparison == NULL)
    return NULL;

  compare = sluice_compare_window_new (GTK_WINDOW (self), comparison);
  /* F5 in either window switches projector mode in both. */
  g_object_bind_property (self, "projector", compare, "projector", G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  return compare;
}

static void
on_file_chosen (GtkWindow            *parent,
                SluiceFileDialogKind  kind,
                const char           *path,
                gpointer              user_data)
{
  SluiceWindow *self = SLUICE_WINDOW (parent);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (path == NULL)
    {
      _sluice_window_set_banner (self, BANNER_ERROR, _("Only local files can be compared."));
      return;
    }
  if (sluice_window_compare_with_file (self, path, &error) != NULL)
    return;

  /* Translators: %s says why Compare… could not start */
  text = g_strdup_printf (_("Cannot compare: %s"), error->message);
  _sluice_window_set_banner (self, BANNER_ERROR, text);
}

/**
 * _sluice_window_choose_comparison:
 * @self: a #SluiceWindow
 *
 * Asks for the scenario file of B, then compares.
 */
void
_sluice_window_choose_comparison (SluiceWindow *self)
{
  sluice_file_dialog_show (GTK_WINDOW (self), SLUICE_FILE_DIALOG_COMPARE, sluice_document_get_path (self->document),
                           on_file_chosen, NULL);
}
