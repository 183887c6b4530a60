/* sluice-window-store.c: Open Job Store…: a durable job store watched live
 * in a #SluiceStoreWindow
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-dialog.h"
#include "sluice-window-private.h"

/* A store is watched in a window of its own, beside the playground, not in
 * it: its jobs are other processes' work, and the playground goes on with
 * its own scenario, run or attached pool meanwhile. Each store opened gets
 * its window; they follow this window's projector mode. A job's "Open in
 * Playground" comes back here as the scenario that replays it
 * (SluiceStoreWindow::open-in-playground): it replaces the scenario shown
 * (asking first about unsaved changes, as File → Open does) and runs on
 * the virtual clock, so that the person sees the job's attempts again. */

/* The scenario's text, asked about unsaved changes already. */
static void
open_text (SluiceWindow *self,
           const char   *text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceScenario) scenario = sluice_scenario_new_from_data (text, -1, _("the job's scenario"), NULL, &error);
  g_autofree char *message = NULL;

  if (scenario == NULL)
    {
      /* Translators: %s says why the exported scenario is not valid */
      message = g_strdup_printf (_("Cannot open the job's scenario: %s"), error->message);
      _sluice_window_set_banner (self, BANNER_ERROR, message);
      return;
    }
  /* Translators: the playground's subtitle for a job replayed from a store */
  sluice_document_replace (self->document, scenario, text, _("a job of the store"));
  gtk_widget_activate_action (GTK_WIDGET (self), "win.run", NULL);
}

/**
 * sluice_window_open_scenario_text:
 * @self: a #SluiceWindow
 * @text: a scenario's text (a stored job's, `sluice-run store export`'s)
 *
 * Shows the scenario @text, from no file, and runs it on its clock (the
 * virtual one for an exported job); unsaved changes are asked about first.
 * Presents @self.
 */
void
sluice_window_open_scenario_text (SluiceWindow *self,
                                  const char   *text)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  gtk_window_present (GTK_WINDOW (self));
  _sluice_window_ask_first (self, open_text, text);
}

static void
on_open_in_playground (SluiceWindow *self,
                       const char   *scenario)
{
  if (scenario != NULL)
    sluice_window_open_scenario_text (self, scenario);
  else
    gtk_window_present (GTK_WINDOW (self));
}

static void
on_watch_live (SluiceWindow *self,
               const char   *worker_id,
               const char   *job_id)
{
  gtk_window_present (GTK_WINDOW (self));
  gtk_widget_activate_action (GTK_WIDGET (self), "win.attach-worker", "(ss)", worker_id, job_id);
}

/**
 * sluice_window_open_store:
 * @self: a #SluiceWindow
 * @uri: the store: `sqlite:FILE` or `postgresql://…`
 *
 * Opens a #SluiceStoreWindow on @uri, transient for @self, in projector
 * mode while @self is (F5 in either switches both).
 *
 * Returns: (transfer none): the store window, shown
 */
SluiceStoreWindow *
sluice_window_open_store (SluiceWindow *self,
                          const char   *uri)
{
  SluiceStoreWindow *store;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  store = sluice_store_window_new (GTK_WINDOW (self), NULL, uri);
  g_object_bind_property (self, "projector", store, "projector", G_BINDING_SYNC_CREATE | G_BINDING_BIDIRECTIONAL);
  g_signal_connect_object (store, "open-in-playground", G_CALLBACK (on_open_in_playground), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (store, "watch-live", G_CALLBACK (on_watch_live), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (store));
  return store;
}

static void
on_uri_chosen (SluiceWindow *self,
               const char   *uri)
{
  sluice_window_open_store (self, uri);
}

/**
 * _sluice_window_choose_store:
 * @self: a #SluiceWindow
 *
 * Asks for a store's URI (win.open-store), then opens its window.
 */
void
_sluice_window_choose_store (SluiceWindow *self)
{
  SluiceStoreDialog *dialog = sluice_store_dialog_new (GTK_WINDOW (self));

  g_signal_connect_object (dialog, "uri-chosen", G_CALLBACK (on_uri_chosen), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}
