/* sluice-application.c: the playground's GtkApplication
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-application.h"
#include "sluice-help-overlay.h"
#include "sluice-renderer.h"
#include "sluice-run-controller.h"
#include "sluice-presets.h"
#include "sluice-store-dialog.h"
#include "sluice-store-window.h"
#include "sluice-window.h"

/**
 * SluiceApplication:
 *
 * Owns the settings, the application actions (quit, shortcuts, about) and
 * the accelerators, and opens a #SluiceWindow. `sluice FILE.pool` opens that
 * file (in the running instance's window, if there is one), as File → Open
 * does; `--preset NAME` opens a preset; `--screenshot FILE.png` runs it on
 * the virtual clock, saves the window as a PNG and quits; `--export-image FILE` and `--export-events
 * FILE` do the same with the chart and lanes (PNG or SVG) and the events
 * (CSV or JSON Lines), alone or together. `--attach PID` attaches the
 * window to the pool another program exports (with an export option: the
 * files are written when its run ends). `--store URI` opens a window of
 * its own on a job store instead of the playground (with `--screenshot`:
 * saved once the store answered). `--projector` turns projector
 * mode on, and the settings keep it on, as the menu's toggle does.
 */

struct _SluiceApplication
{
  GtkApplication  parent_instance;

  GSettings      *settings;
  char           *preset;
  gboolean        preset_given;   /* --preset NAME at start, not the default of an export */
  char           *screenshot;
  gboolean        show_lessons;   /* --lessons */
  char           *lesson;         /* --lesson NAME */
  gint            choice;         /* --choose N, or 0 */
  char           *export_image;
  char           *export_events;
  char           *attach;         /* --attach PID or NAME */
  char           *store;          /* --store URI */
  gboolean        read_only;      /* --read-only: the store window changes nothing */
  char           *page;           /* --page NAME: the store window's page shown first */
  double          speed;          /* --speed, or 0 for an instant run */
  gboolean        projector;      /* --projector */
  int             exit_status;
};

G_DEFINE_FINAL_TYPE (SluiceApplication, sluice_application, GTK_TYPE_APPLICATION)

/* The run's own keys (Ctrl+R, Space, →, +, −, Escape, Ctrl+., Ctrl+Backspace)
 * are the window's, wherever the focus is: see sluice-window-keys.c. */
static const struct {
  const char *action;
  const char *accels[4];
} accels[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.shortcuts", { "<Control>question", NULL } },
  { "win.submit-job", { "<Control>j", NULL } },
  { "win.close-service", { "<Control>l", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "win.save", { "<Control>s", NULL } },
  { "win.save-as", { "<Shift><Control>s", NULL } },
  { "win.compare", { "<Control>k", NULL } },
  { "win.attach", { "<Shift><Control>a", NULL } },
  { "win.detach", { "<Shift><Control>d", NULL } },
  { "win.show-lessons", { "<Shift><Control>l", NULL } },
  /* A presenter's keys: a clicker's Page Down/Up with Alt, or Alt+→/←
   * (plain →/← step and scrub the run). */
  { "win.next-lesson", { "<Alt>Right", "<Alt>Page_Down", NULL } },
  { "win.previous-lesson", { "<Alt>Left", "<Alt>Page_Up", NULL } },
  { "win.zoom-in", { "<Control>plus", "<Control>equal", "<Control>KP_Add", NULL } },
  { "win.zoom-out", { "<Control>minus", "<Control>KP_Subtract", NULL } },
  { "win.zoom-fit", { "<Control>0", "<Control>KP_0", NULL } },
  { "win.projector", { "F5", NULL } },
};

/* The schema is found where GLib looks (XDG_DATA_DIRS, and
 * GSETTINGS_SCHEMA_DIR, which an uninstalled run points at the build tree's
 * data/), else in the prefix it was installed into, which XDG_DATA_DIRS
 * may not name (--prefix=/opt/sluice). */
static GSettings *
create_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchemaSource) installed_source = NULL;
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);

  if (schema == NULL && g_file_test (SLUICE_INSTALLED_SCHEMA_DIR "/gschemas.compiled", G_FILE_TEST_EXISTS))
    {
      installed_source = g_settings_schema_source_new_from_directory (SLUICE_INSTALLED_SCHEMA_DIR, source,
                                                                      FALSE, NULL);
      if (installed_source != NULL)
        schema = g_settings_schema_source_lookup (installed_source, APPLICATION_ID, TRUE);
    }

  if (schema == NULL)
    {
      g_warning ("The settings schema %s is not installed; the last scenario will not be remembered",
                 APPLICATION_ID);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

/* Ctrl+Q closes every window, as their close buttons do: one with unsaved
 * changes asks first, and the application ends with its last window. */
static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  if (windows == NULL)
    g_application_quit (G_APPLICATION (user_data));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
}

static void
shortcuts_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  if (window != NULL)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static void
forget_about_dialog (GObject *parent)
{
  g_object_set_data (parent, "sluice-about-dialog", NULL);
}

/**
 * sluice_application_show_about:
 * @parent: (nullable): the window it is about, whose projector mode it
 *   takes
 *
 * Shows the About dialog (app.about).
 *
 * Returns: (transfer none): the dialog
 */
GtkWindow *
sluice_application_show_about (GtkWindow *parent)
{
  static const char *authors[] = { "The Sluice authors", NULL };
  GtkWidget *dialog = parent != NULL ? g_object_get_data (G_OBJECT (parent), "sluice-about-dialog") : NULL;

  /* One per window, as gtk_show_about_dialog() keeps it. */
  if (dialog != NULL)
    {
      gtk_window_present (GTK_WINDOW (dialog));
      return GTK_WINDOW (dialog);
    }

  dialog = g_object_new (GTK_TYPE_ABOUT_DIALOG,
                         "transient-for", parent,
                         "modal", parent != NULL,
                         "destroy-with-parent", TRUE,
                         "hide-on-close", parent != NULL,
                         "program-name", _("Sluice"),
                         "logo-icon-name", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Configure an async worker pool, run it and watch it work"),
                         "license-type", GTK_LICENSE_LGPL_2_1,
                         "authors", authors,
                         "translator-credits", _("translator-credits"),
                         NULL);

  /* GTK keeps the dialog until it is destroyed; the window forgets it then. */
  if (parent != NULL)
    {
      g_object_set_data (G_OBJECT (parent), "sluice-about-dialog", dialog);
      g_signal_connect_object (dialog, "destroy", G_CALLBACK (forget_about_dialog), parent, G_CONNECT_SWAPPED);
    }
  /* Projector mode's larger text, as its window has it. */
  if (parent != NULL && gtk_widget_has_css_class (GTK_WIDGET (parent), "projector"))
    gtk_widget_add_css_class (dialog, "projector");
  gtk_window_present (GTK_WINDOW (dialog));
  return GTK_WINDOW (dialog);
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  sluice_application_show_about (gtk_application_get_active_window (GTK_APPLICATION (user_data)));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "shortcuts", shortcuts_activated },
  { "about", about_activated },
};

static void
load_css (void)
{
  g_autoptr(GtkCssProvider) provider = gtk_css_provider_new ();

  gtk_css_provider_load_from_resource (provider, "/io/github/sluicepool/Sluice/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
sluice_application_startup (GApplication *app)
{
  SluiceApplication *self = SLUICE_APPLICATION (app);

  G_APPLICATION_CLASS (sluice_application_parent_class)->startup (app);
  /* Before any window: cairo where OpenGL is done in software. */
  if (gdk_display_get_default () != NULL)
    sluice_renderer_choose (gdk_display_get_default ());

  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accels[i].action, accels[i].accels);

  /* --projector may have made them already. */
  if (self->settings == NULL)
    self->settings = create_settings ();
  load_css ();
}

static void on_screenshot_done (SluiceWindow *window,
                                gboolean      ok,
                                gpointer      user_data);

static gboolean
is_exporting (SluiceApplication *self)
{
  return self->screenshot != NULL || self->export_image != NULL || self->export_events != NULL;
}

/* --attach: the exports wait for the attached run's end; a program that
 * cannot be attached to is an error (exit status 2 with an export). */
static void
on_attached (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  SluiceApplication *self = user_data;
  SluiceWindow *window = SLUICE_WINDOW (object);
  g_autoptr(GError) error = NULL;

  if (sluice_window_attach_to_finish (window, result, &error))
    {
      if (is_exporting (self))
        {
          /* A script (or a test) knows from this line that it may go on. */
          g_printerr (_("sluice: attached to process %s; the files are written when its run ends\n"),
                      self->attach);
          sluice_window_run_and_export (window, self->screenshot, self->export_image, self->export_events,
                                        on_screenshot_done, self);
        }
    }
  else
    {
      g_printerr ("sluice: --attach %s: %s\n", self->attach, error->message);
      if (is_exporting (self))
        {
          self->exit_status = 2;
          gtk_window_destroy (GTK_WINDOW (window));
          g_application_quit (G_APPLICATION (self));
        }
    }
  g_application_release (G_APPLICATION (self));
}

static void
on_screenshot_done (SluiceWindow *window,
                    gboolean      ok,
                    gpointer      user_data)
{
  SluiceApplication *self = user_data;

  self->exit_status = ok ? 0 : 1;
  gtk_window_destroy (GTK_WINDOW (window));
  g_application_quit (G_APPLICATION (self));
}

/* --lesson NAME [--choose N]: the lesson, answered when N is given (a
 * screenshot then shows its reveal, else its question). */
static gboolean
open_lesson (SluiceApplication  *self,
             SluiceWindow       *window,
             GError            **error)
{
  if (!sluice_window_open_lesson (window, self->lesson))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   /* Translators: %s is the name given to --lesson. */
                   _("no lesson named “%s”; expected a file name of the lessons folder without .pool"),
                   self->lesson);
      return FALSE;
    }

  if (self->choice > 0 && !sluice_window_choose (window, (guint) self->choice))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: %d is the number given to --choose. */
                   _("--choose %d: the lesson has no such choice; expected a number from 1 to its number of choices"),
                   self->choice);
      return FALSE;
    }

  return TRUE;
}

/* --store URI --screenshot FILE.png: the window once the store answered. */
static void
on_store_screenshot (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  SluiceApplication *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!sluice_store_window_screenshot_finish (SLUICE_STORE_WINDOW (object), result, &error))
    {
      g_printerr ("sluice: --store: %s\n", error->message);
      self->exit_status = 1;
    }
  gtk_window_destroy (GTK_WINDOW (object));
  g_application_quit (G_APPLICATION (self));
}

/* --store URI: a monitor of the store, without the playground; its own
 * instance (handle_local_options), ended when the window closes. It
 * follows the projector setting as the playground would. */
static void present_window (SluiceApplication *self,
                            const char        *path);

/* The store window's "Back to Playground" or "Open in Playground", with no
 * playground open (`sluice --store`): one is opened, and given the
 * scenario to run. */
static void
on_open_in_playground (SluiceStoreWindow *store_window,
                       const char        *scenario,
                       SluiceApplication *self)
{
  GtkWindow *window;

  present_window (self, NULL);
  window = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (SLUICE_IS_WINDOW (window) && scenario != NULL)
    sluice_window_open_scenario_text (SLUICE_WINDOW (window), scenario);
}

static void
present_store_window (SluiceApplication *self)
{
  SluiceStoreWindow *window = sluice_store_window_new_full (NULL, GTK_APPLICATION (self), self->store,
                                                            self->read_only);

  g_signal_connect_object (window, "open-in-playground", G_CALLBACK (on_open_in_playground), self, 0);

  if (self->settings != NULL)
    g_settings_bind (self->settings, "projector", window, "projector", G_SETTINGS_BIND_DEFAULT);
  else if (self->projector)
    sluice_store_window_set_projector (window, TRUE);
  if (self->page != NULL)
    gtk_stack_set_visible_child_name (sluice_store_window_get_pages (window), self->page);
  if (self->screenshot != NULL)
    sluice_store_window_screenshot_async (window, self->screenshot, on_store_screenshot, self);
  gtk_window_present (GTK_WINDOW (window));
}

/* Opens the window with the scenario of @path (a FILE.pool on the command
 * line), else of --lesson, --preset or the last session; a window already open
 * opens @path as File → Open does. */
static void
present_window (SluiceApplication *self,
                const char        *path)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window != NULL && path != NULL)
    sluice_window_open_file_asking (SLUICE_WINDOW (window), path);

  if (window == NULL)
    {
      SluiceWindow *sw = sluice_window_new (self);
      gboolean exporting = is_exporting (self);
      g_autoptr(GError) error = NULL;
      gboolean loaded = TRUE;

      /* The window keeps its size, its look and the last scenario in the
       * settings it is given: it does not reach back for them. */
      if (self->settings != NULL)
        sluice_window_bind_settings (sw, self->settings);

      /* A later `sluice FILE.pool` comes to this window, --preset or not. */
      self->preset_given = FALSE;
      /* Without settings to keep it, --projector is for this window. */
      if (self->projector && self->settings == NULL)
        sluice_window_set_projector (sw, TRUE);
      if (path != NULL)
        loaded = sluice_window_open_file (sw, path, &error);
      else if (self->lesson != NULL)
        loaded = open_lesson (self, sw, &error);
      else if (self->preset == NULL)
        sluice_window_open_last (sw);
      else
        loaded = sluice_window_open_preset (sw, self->preset, &error);

      if (!loaded && exporting)
        {
          /* An export of a preset that did not load would save an empty
           * run and pass for a success. */
          g_printerr ("sluice: %s\n", error->message);
          self->exit_status = 2;
          gtk_window_destroy (GTK_WINDOW (sw));
          return;
        }

      if (self->attach != NULL)
        {
          /* Held until attached: an export quits when the run has ended. */
          g_application_hold (G_APPLICATION (self));
          sluice_window_attach_to_async (sw, self->attach, on_attached, self);
        }
      else if (exporting)
        {
          SluiceRunController *run = sluice_window_get_run_controller (sw);

          /* Played at a speed, through the paced clock and the frames, as
           * a run in the window is; without one, at once. */
          if (self->speed > 0)
            sluice_run_controller_set_speed (run, self->speed);
          else
            sluice_run_controller_set_instant (run, TRUE);
          sluice_window_run_and_export (sw, self->screenshot, self->export_image, self->export_events,
                                        on_screenshot_done, self);
        }

      window = GTK_WINDOW (sw);
    }

  if (self->show_lessons)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-lessons", NULL);
  self->show_lessons = FALSE;
  gtk_window_present (window);
}

static void
sluice_application_activate (GApplication *app)
{
  SluiceApplication *self = SLUICE_APPLICATION (app);

  if (self->store != NULL)
    present_store_window (self);
  else
    present_window (self, NULL);
}

/* `sluice FILE.pool`: the desktop file's %f, or a file manager's. */
static void
sluice_application_open (GApplication  *app,
                         GFile        **files,
                         gint           n_files,
                         const char    *hint)
{
  SluiceApplication *self = SLUICE_APPLICATION (app);
  g_autofree char *path = g_file_get_path (files[0]);

  if (self->preset_given)
    {
      g_printerr (_("sluice: --preset and FILE.pool both name a scenario; expected one of them\n"));
      self->exit_status = 2;
      return;
    }
  if (self->store != NULL)
    {
      g_printerr (_("sluice: --store opens a window of its own: expected no FILE.pool with it\n"));
      self->exit_status = 2;
      return;
    }

  if (n_files > 1)
    g_printerr (g_dngettext (GETTEXT_PACKAGE,
                             "sluice: the window shows one scenario; %d more file is not opened\n",
                             "sluice: the window shows one scenario; %d more files are not opened\n",
                             n_files - 1),
                n_files - 1);

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (files[0]);

      /* Translators: %s is the address of the file, such as sftp://host/a.pool. */
      g_printerr (_("sluice: %s is not a local file; expected a .pool file on this computer\n"), uri);
      if (self->screenshot != NULL || self->export_image != NULL || self->export_events != NULL)
        {
          self->exit_status = 2;
          return;
        }
    }

  present_window (self, path);
}

/* --projector: on, as the menu's toggle turns it on, and so kept in the
 * settings. Written here, before this process knows whether it is the
 * primary instance: a window already open in another one follows the
 * setting too. */
static void
turn_on_projector (SluiceApplication *self)
{
  self->projector = TRUE;
  if (self->settings == NULL)
    self->settings = create_settings ();
  if (self->settings == NULL)
    return;
  g_settings_set_boolean (self->settings, "projector", TRUE);
  g_settings_sync ();
}

/* --store URI: a kind of store, alone (it opens no scenario, runs
 * nothing to export), in an instance of its own: a monitor of other
 * processes, however many are open. */
static gboolean
check_store_option (SluiceApplication *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *uri = sluice_store_dialog_parse_uri (self->store, &error);

  if (uri == NULL && *g_strstrip (self->store) == '\0')
    {
      g_printerr (_("sluice: --store: expected a store's URI: sqlite:FILE or postgresql://…\n"));
      return FALSE;
    }
  if (uri == NULL)
    {
      g_printerr ("sluice: --store: %s\n", error->message);
      return FALSE;
    }
  if (self->preset != NULL || self->attach != NULL || self->lesson != NULL || self->show_lessons ||
      self->export_image != NULL || self->export_events != NULL)
    {
      g_printerr (_("sluice: --store opens a window of its own: expected no --preset, --attach, --lesson(s) "
                    "or --export-… with it\n"));
      return FALSE;
    }
  g_free (self->store);
  self->store = g_steal_pointer (&uri);
  g_application_set_flags (G_APPLICATION (self), g_application_get_flags (G_APPLICATION (self)) |
                                                 G_APPLICATION_NON_UNIQUE);
  return TRUE;
}

static gint
sluice_application_handle_local_options (GApplication *app,
                                         GVariantDict *options)
{
  SluiceApplication *self = SLUICE_APPLICATION (app);
  g_autofree char *preset = NULL;

  g_variant_dict_lookup (options, "preset", "s", &self->preset);
  self->preset_given = self->preset != NULL;
  g_variant_dict_lookup (options, "screenshot", "^ay", &self->screenshot);
  g_variant_dict_lookup (options, "export-image", "^ay", &self->export_image);
  g_variant_dict_lookup (options, "export-events", "^ay", &self->export_events);
  g_variant_dict_lookup (options, "speed", "d", &self->speed);
  g_variant_dict_lookup (options, "attach", "s", &self->attach);
  g_variant_dict_lookup (options, "store", "s", &self->store);
  self->read_only = g_variant_dict_contains (options, "read-only");
  g_variant_dict_lookup (options, "page", "s", &self->page);
  g_variant_dict_lookup (options, "lesson", "s", &self->lesson);
  g_variant_dict_lookup (options, "choose", "i", &self->choice);
  self->show_lessons = g_variant_dict_contains (options, "lessons");

  if (self->choice < 0 || (self->choice > 0 && self->lesson == NULL))
    {
      g_printerr (_("--choose: expected a choice from 1, with --lesson NAME\n"));
      return 2;
    }

  if (self->speed < 0 || self->speed != self->speed || self->speed > 1e6)
    {
      g_printerr (_("--speed: expected a number of clock seconds per second above 0, at most 1000000\n"));
      return 2;
    }

  if (self->store != NULL && !check_store_option (self))
    return 2;
  if (self->read_only && self->store == NULL)
    {
      g_printerr (_("sluice: --read-only is for a store's window: expected --store URI with it\n"));
      return 2;
    }
  if (self->page != NULL && (self->store == NULL || !sluice_store_window_is_page_name (self->page)))
    {
      g_printerr (_("sluice: --page: expected overview, jobs, queues, workers or throughput, with --store URI\n"));
      return 2;
    }

  if (self->screenshot != NULL || self->export_image != NULL || self->export_events != NULL)
    {
      /* An attached window shows the other program's pool. */
      if (self->preset == NULL && self->attach == NULL && self->lesson == NULL && self->store == NULL)
        self->preset = g_strdup ("first-look");
      /* A screenshot is its own short-lived instance. */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }

  if (self->preset != NULL && (preset = sluice_presets_find (self->preset)) == NULL)
    {
      g_auto(GStrv) names = sluice_presets_list_names ();
      g_autofree char *list = g_strjoinv (", ", names);

      g_printerr (_("No preset named “%s”; expected one of: %s\n"), self->preset, list);
      return 2;
    }

  if (g_variant_dict_contains (options, "projector"))
    turn_on_projector (self);

  return -1;
}

static void
sluice_application_dispose (GObject *object)
{
  SluiceApplication *self = SLUICE_APPLICATION (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->preset, g_free);
  g_clear_pointer (&self->screenshot, g_free);
  g_clear_pointer (&self->lesson, g_free);
  g_clear_pointer (&self->export_image, g_free);
  g_clear_pointer (&self->export_events, g_free);
  g_clear_pointer (&self->attach, g_free);
  g_clear_pointer (&self->store, g_free);
  g_clear_pointer (&self->page, g_free);

  G_OBJECT_CLASS (sluice_application_parent_class)->dispose (object);
}

/* The Shortcuts window follows its window's projector mode
 * (sluice_help_overlay_set_projector()). */
static void
fit_help_overlay (GtkWindow *window)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  gboolean projector = FALSE;

  if (overlay == NULL)
    return;
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (window), "projector") != NULL)
    g_object_get (window, "projector", &projector, NULL);
  sluice_help_overlay_set_projector (GTK_WINDOW (overlay), projector);
}

static void
sluice_application_window_added (GtkApplication *application,
                                 GtkWindow      *window)
{
  /* GtkApplication gives the window its Shortcuts window here. */
  GTK_APPLICATION_CLASS (sluice_application_parent_class)->window_added (application, window);

  if (!GTK_IS_APPLICATION_WINDOW (window))
    return;
  fit_help_overlay (window);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (window), "projector") != NULL)
    g_signal_connect (window, "notify::projector", G_CALLBACK (fit_help_overlay), NULL);
}

static void
sluice_application_class_init (SluiceApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);

  object_class->dispose = sluice_application_dispose;
  app_class->startup = sluice_application_startup;
  app_class->activate = sluice_application_activate;
  app_class->open = sluice_application_open;
  app_class->handle_local_options = sluice_application_handle_local_options;
  gtk_app_class->window_added = sluice_application_window_added;
}

static void
sluice_application_init (SluiceApplication *self)
{
  static const GOptionEntry entries[] = {
    { "preset", 'p', 0, G_OPTION_ARG_STRING, NULL,
      N_("Open the preset NAME (a file name in the presets folder, without .pool)"), N_("NAME") },
    { "screenshot", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Run the preset on the virtual clock, save the window as FILE.png and quit"), N_("FILE.png") },
    { "export-image", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Run the preset on the virtual clock, save the chart and lanes as FILE (.png or .svg) and quit"),
      N_("FILE") },
    { "export-events", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      N_("Run the preset on the virtual clock, save its events as FILE (.csv or .jsonl) and quit"),
      N_("FILE") },
    { "attach", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Attach to the pool of the program with process id PID (or bus name) on the session bus, as Attach to "
         "a Running Pool does; with --screenshot or --export-…, they are written when its run ends"),
      N_("PID") },
    { "store", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Watch the job store URI (sqlite:FILE or postgresql://…) live in a window of its own, as Open Job "
         "Store… does; with --screenshot, save it once the store answered and quit"),
      N_("URI") },
    { "read-only", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("With --store: never change the store; its window hides retry, cancel and discard"), NULL },
    { "page", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("With --store: show the page NAME first (overview, jobs, queues, workers or throughput)"), N_("NAME") },
    { "speed", 0, 0, G_OPTION_ARG_DOUBLE, NULL,
      N_("With --screenshot or --export-…: play the run at S clock seconds per second, as the window does, instead of at once"),
      N_("S") },
    { "lessons", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Show the Lessons page (with --screenshot: save it, without a run)"), NULL },
    { "lesson", 0, 0, G_OPTION_ARG_STRING, NULL,
      N_("Open the lesson NAME (a file name in the lessons folder, without .pool)"), N_("NAME") },
    { "choose", 0, 0, G_OPTION_ARG_INT, NULL,
      N_("With --lesson: choose answer N (from 1); with --screenshot the lesson then runs and the window is "
         "saved after its reveal, else before its run"), N_("N") },
    { "projector", 0, 0, G_OPTION_ARG_NONE, NULL,
      N_("Turn projector mode on (and keep it on): larger text, thicker lines and marks, high contrast"), NULL },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (self), entries);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Configure an async worker pool, run it and watch it work."));
  g_application_set_option_context_parameter_string (G_APPLICATION (self), _("[FILE.pool]"));
}

/**
 * sluice_application_new:
 *
 * Returns: (transfer full): the application
 */
SluiceApplication *
sluice_application_new (void)
{
  return g_object_new (SLUICE_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "resource-base-path", "/io/github/sluicepool/Sluice",
                       "flags", G_APPLICATION_DEFAULT_FLAGS | G_APPLICATION_HANDLES_OPEN,
                       NULL);
}

/**
 * sluice_application_get_settings:
 * @self: a #SluiceApplication
 *
 * Returns: (transfer none) (nullable): the settings, or %NULL when the
 *   schema is not installed
 */
GSettings *
sluice_application_get_settings (SluiceApplication *self)
{
  g_return_val_if_fail (SLUICE_IS_APPLICATION (self), NULL);
  return self->settings;
}

/**
 * sluice_application_get_exit_status:
 * @self: a #SluiceApplication
 *
 * Returns: 2 if the preset of a `--screenshot` or `--export-…` run did
 *   not load, 1 if the run or its export failed, else 0
 */
int
sluice_application_get_exit_status (SluiceApplication *self)
{
  g_return_val_if_fail (SLUICE_IS_APPLICATION (self), 1);
  return self->exit_status;
}
