/* sluice-window.c: the playground window: configure, run, watch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-batch.h"
#include "sluice-chart-view.h"
#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "sluice-counters.h"
#include "sluice-error-group-view.h"
#include "sluice-event-log.h"
#include "sluice-file-dialog.h"
#include "sluice-jobs-view.h"
#include "sluice-presets.h"
#include "sluice-run-controller.h"
#include "sluice-theme.h"
#include "sluice-timeline-view.h"
#include "sluice-viewport.h"
#include "sluice-window.h"

/**
 * SluiceWindow:
 *
 * The configuration panel on the left; on the right the run: a banner,
 * the live counters, the queue chart, the worker lanes, and the event log,
 * results and error group in tabs; for a service run (submit mode) a jobs
 * table in a fourth tab, and a Close button beside Request Stop.
 *
 * The window wires its template, actions, shortcuts and dialogs; the run
 * itself (runner, clock, recorder, per-frame updates, exports) belongs to
 * a #SluiceRunController, and the time span the chart and the lanes share
 * to its #SluiceViewport.
 */

#define KEY_ZOOM 1.5

struct _SluiceWindow
{
  GtkApplicationWindow  parent_instance;

  /* template */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  SluiceClockControls  *clock_controls;
  GtkMenuButton        *menu_button;
  GMenu                *presets_menu;
  SluiceConfigPanel    *config_panel;
  GtkLabel             *banner_label;
  SluiceCounters       *counters;
  SluiceChartView      *chart_view;
  SluiceTimelineView   *timeline_view;
  SluiceEventLog       *event_log;
  GtkListView          *results_view;
  SluiceErrorGroupView *error_group_view;
  SluiceJobsView       *jobs_view;
  GtkNotebook          *notebook;
  GtkWidget            *close_button;

  SluiceRunController  *run;
  char                 *file;       /* the scenario's file, or NULL */
  SluiceBatch          *batch;      /* --screenshot and --export-* */
};

G_DEFINE_FINAL_TYPE (SluiceWindow, sluice_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_actions (SluiceWindow *self);
static void update_mode    (SluiceWindow *self);

/* ---- the banner -------------------------------------------------------- */

typedef enum {
  BANNER_INFO,
  BANNER_OK,
  BANNER_ERROR,
} BannerKind;

static void
set_banner (SluiceWindow *self,
            BannerKind    kind,
            const char   *text)
{
  GtkWidget *banner = GTK_WIDGET (self->banner_label);

  gtk_label_set_text (self->banner_label, text);
  gtk_widget_remove_css_class (banner, "banner-ok");
  gtk_widget_remove_css_class (banner, "banner-error");
  if (kind == BANNER_OK)
    gtk_widget_add_css_class (banner, "banner-ok");
  else if (kind == BANNER_ERROR)
    gtk_widget_add_css_class (banner, "banner-error");
}

static void
on_run_status (SluiceWindow *self,
               guint         kind,
               const char   *text)
{
  set_banner (self, kind == SLUICE_RUN_STATUS_OK ? BANNER_OK :
                    kind == SLUICE_RUN_STATUS_ERROR ? BANNER_ERROR : BANNER_INFO, text);
}

static gboolean
is_running (SluiceWindow *self)
{
  return sluice_run_controller_get_running (self->run);
}

/* ---- exports ---------------------------------------------------------- */

/**
 * sluice_window_export_image:
 * @self: a #SluiceWindow
 * @path: the file to write; `.png`, `.svg` or `.pdf` picks the format
 * @width: the width of the image, in pixels or points
 * @height: the height of the image
 * @error: return location for an error
 *
 * Draws the queue chart above the worker lanes of the last run, with the
 * run's queue capacity and lead bound and the window's dark or light look.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_window_export_image (SluiceWindow  *self,
                            const char    *path,
                            double         width,
                            double         height,
                            GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  return sluice_run_controller_export_image (self->run, path, width, height,
                                             sluice_widget_is_dark (GTK_WIDGET (self->chart_view)), error);
}

/**
 * sluice_window_export_events:
 * @self: a #SluiceWindow
 * @path: the file to write; `.csv` writes CSV, `.jsonl`, `.ndjson` or
 *   `.json` JSON Lines
 * @error: return location for an error
 *
 * Writes the events the last run recorded.
 *
 * Returns: whether the file was written
 */
gboolean
sluice_window_export_events (SluiceWindow  *self,
                             const char    *path,
                             GError       **error)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  return sluice_run_controller_export_events (self->run, path, error);
}


/* ---- the run ----------------------------------------------------------- */

static void
on_running_changed (SluiceWindow *self)
{
  update_mode (self);
  /* A service run shows its jobs as they come. */
  if (is_running (self) && sluice_run_controller_get_submit_mode (self->run))
    gtk_notebook_set_current_page (self->notebook,
                                   gtk_notebook_page_num (self->notebook, GTK_WIDGET (self->jobs_view)));
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
reset_run (SluiceWindow *self)
{
  sluice_run_controller_reset (self->run);
  update_mode (self);
  update_actions (self);
}

static void
start_run (SluiceWindow *self)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);

  if (is_running (self))
    return;

  if (scenario == NULL)
    {
      set_banner (self, BANNER_ERROR, _("The configuration has an error: fix the field marked in red, then run again."));
      return;
    }

  sluice_run_controller_start (self->run, scenario);
}

/* ---- scenarios: files, presets, settings ------------------------------- */

static void
remember (SluiceWindow *self,
          const char   *path)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? sluice_application_get_settings (SLUICE_APPLICATION (app)) : NULL;

  if (settings != NULL)
    g_settings_set_string (settings, "last-scenario", path);
}

static void
show_scenario (SluiceWindow   *self,
               SluiceScenario *scenario,
               const char     *path)
{
  const char *title = sluice_scenario_get_title (scenario);
  g_autofree char *base = g_path_get_basename (path);

  if (!is_running (self))
    reset_run (self);

  sluice_config_panel_set_scenario (self->config_panel, scenario);
  gtk_label_set_text (self->title_label, title ? title : base);
  gtk_label_set_text (self->subtitle_label, base);
  gtk_window_set_title (GTK_WINDOW (self), title ? title : base);

  g_free (self->file);
  self->file = g_strdup (path);
  set_banner (self, BANNER_INFO, _("Ready: press Run (Ctrl+R) to start, or change the configuration on the left."));
}

/**
 * sluice_window_load_file:
 * @self: a #SluiceWindow
 * @path: a `.pool` file
 * @error: return location for a %SLUICE_SCENARIO_ERROR
 *
 * Loads the scenario of @path into the configuration panel and remembers it
 * as the last scenario.
 *
 * Returns: whether the file was a valid scenario
 */
gboolean
sluice_window_load_file (SluiceWindow  *self,
                         const char    *path,
                         GError       **error)
{
  g_autoptr(SluiceScenario) scenario = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  scenario = sluice_scenario_new_from_file (path, NULL, error);
  if (scenario == NULL)
    return FALSE;

  show_scenario (self, scenario, path);
  remember (self, path);
  return TRUE;
}

static void
load_or_complain (SluiceWindow *self,
                  const char   *path)
{
  g_autoptr(GError) error = NULL;

  if (!sluice_window_load_file (self, path, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Cannot open the scenario: %s"), error->message);
      set_banner (self, BANNER_ERROR, text);
    }
}

/**
 * sluice_window_open_preset:
 * @self: a #SluiceWindow
 * @name: a preset name such as `retries`
 * @error: (nullable): return location for why it did not open
 *
 * Opens a preset; one that is missing or does not load also shows its
 * error in the window's banner.
 *
 * Returns: whether the preset exists and loaded
 */
gboolean
sluice_window_open_preset (SluiceWindow  *self,
                           const char    *name,
                           GError       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);

  path = sluice_presets_find (name);
  if (path == NULL)
    g_set_error (&local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                 _("There is no preset named “%s”."), name);
  else if (sluice_window_load_file (self, path, &local_error))
    return TRUE;

  set_banner (self, BANNER_ERROR, local_error->message);
  g_propagate_error (error, g_steal_pointer (&local_error));
  return FALSE;
}

/**
 * sluice_window_open_last:
 * @self: a #SluiceWindow
 *
 * Opens the scenario of the last session, or the first-look preset.
 */
void
sluice_window_open_last (SluiceWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GSettings *settings = app ? sluice_application_get_settings (SLUICE_APPLICATION (app)) : NULL;
  g_autofree char *last = settings ? g_settings_get_string (settings, "last-scenario") : NULL;

  g_return_if_fail (SLUICE_IS_WINDOW (self));

  if (last != NULL && *last != '\0' && sluice_window_load_file (self, last, NULL))
    return;

  sluice_window_open_preset (self, "first-look", NULL);
}

static void
save_to (SluiceWindow *self,
         const char   *path)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;

  if (scenario == NULL || !sluice_scenario_save_to_file (scenario, path, &error))
    {
      set_banner (self, BANNER_ERROR, error ? error->message : _("The configuration has an error: fix the field marked in red, then save."));
      return;
    }

  text = g_strdup_printf (_("Saved as %s."), base);
  g_free (self->file);
  self->file = g_strdup (path);
  gtk_label_set_text (self->subtitle_label, base);
  remember (self, path);
  set_banner (self, BANNER_INFO, text);
}

static void
export_to (SluiceWindow *self,
           const char   *path,
           gboolean      image)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *text = NULL;
  int width = MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline_view)), 640);
  int height = gtk_widget_get_height (GTK_WIDGET (self->chart_view)) +
               gtk_widget_get_height (GTK_WIDGET (self->timeline_view));
  gboolean ok;

  if (image)
    ok = sluice_window_export_image (self, path, width, MAX (height, 480), &error);
  else
    ok = sluice_window_export_events (self, path, &error);

  if (!ok)
    {
      text = g_strdup_printf (_("Cannot export: %s"), error->message);
      set_banner (self, BANNER_ERROR, text);
      return;
    }

  text = g_strdup_printf (_("Exported %s."), base);
  set_banner (self, BANNER_INFO, text);
}

static void
on_file_chosen (GtkWindow            *parent,
                SluiceFileDialogKind  kind,
                const char           *path,
                gpointer              user_data)
{
  SluiceWindow *self = SLUICE_WINDOW (parent);

  if (path == NULL)
    set_banner (self, BANNER_ERROR, kind == SLUICE_FILE_DIALOG_OPEN || kind == SLUICE_FILE_DIALOG_SAVE
                                      ? _("Choose a local file.") : _("Cannot export: choose a local file."));
  else if (kind == SLUICE_FILE_DIALOG_OPEN)
    load_or_complain (self, path);
  else if (kind == SLUICE_FILE_DIALOG_SAVE)
    save_to (self, path);
  else
    export_to (self, path, kind == SLUICE_FILE_DIALOG_EXPORT_IMAGE);
}

/* ---- actions ----------------------------------------------------------- */

static void
run_activated (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  start_run (SLUICE_WINDOW (user_data));
}

static void
request_stop_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  sluice_run_controller_request_stop (SLUICE_WINDOW (user_data)->run);
}

static void
close_service_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  sluice_run_controller_close (SLUICE_WINDOW (user_data)->run);
}

static void
submit_job_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  SluiceWindow *self = user_data;
  g_autoptr(GVariant) item = NULL;
  g_autoptr(SluiceBehaviour) behaviour = NULL;
  g_autoptr(GError) error = NULL;

  if (!sluice_jobs_view_get_submission (self->jobs_view, &item, &behaviour))
    return;

  if (!sluice_run_controller_submit (self->run, g_variant_ref (item), behaviour, &error))
    {
      g_autofree char *text = g_strdup_printf (_("The job was refused: %s"), error->message);

      sluice_jobs_view_show_submit_error (self->jobs_view, text);
    }
}

static void
give_up_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  SluiceWindow *self = user_data;

  sluice_run_controller_give_up (self->run, sluice_jobs_view_get_selected_job (self->jobs_view));
}

static void
cancel_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  sluice_run_controller_cancel (SLUICE_WINDOW (user_data)->run);
}

static void
reset_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  SluiceWindow *self = user_data;

  reset_run (self);
  set_banner (self, BANNER_INFO, _("Ready: press Run (Ctrl+R) to start, or change the configuration on the left."));
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  SluiceWindow *self = user_data;

  sluice_file_dialog_show (GTK_WINDOW (self), SLUICE_FILE_DIALOG_OPEN, self->file, on_file_chosen, NULL);
}

static void
save_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  SluiceWindow *self = user_data;

  if (sluice_config_panel_get_scenario (self->config_panel) == NULL)
    {
      set_banner (self, BANNER_ERROR, _("The configuration has an error: fix the field marked in red, then save."));
      return;
    }

  sluice_file_dialog_show (GTK_WINDOW (self), SLUICE_FILE_DIALOG_SAVE, self->file, on_file_chosen, NULL);
}

static void
export_image_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  sluice_file_dialog_show (GTK_WINDOW (user_data), SLUICE_FILE_DIALOG_EXPORT_IMAGE,
                           SLUICE_WINDOW (user_data)->file, on_file_chosen, NULL);
}

static void
export_events_activated (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  sluice_file_dialog_show (GTK_WINDOW (user_data), SLUICE_FILE_DIALOG_EXPORT_EVENTS,
                           SLUICE_WINDOW (user_data)->file, on_file_chosen, NULL);
}

static void
open_preset_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  sluice_window_open_preset (SLUICE_WINDOW (user_data), g_variant_get_string (parameter, NULL), NULL);
}

/* From the keyboard or the buttons, around the middle of what is shown. */
static void
zoom_by (SluiceWindow *self,
         double        factor)
{
  SluiceViewport *viewport = sluice_run_controller_get_viewport (self->run);
  gint64 t0 = sluice_viewport_get_t0 (viewport);
  gint64 t1 = sluice_viewport_get_t1 (viewport);

  sluice_viewport_zoom (viewport, t0 + (t1 - t0) / 2, factor);
}

static void
zoom_in_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  zoom_by (SLUICE_WINDOW (user_data), 1. / KEY_ZOOM);
}

static void
zoom_out_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  zoom_by (SLUICE_WINDOW (user_data), KEY_ZOOM);
}

static void
zoom_fit_activated (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  sluice_viewport_fit (sluice_run_controller_get_viewport (SLUICE_WINDOW (user_data)->run));
}

static const GActionEntry win_actions[] = {
  { "run", run_activated },
  { "request-stop", request_stop_activated },
  { "close-service", close_service_activated },
  { "submit-job", submit_job_activated },
  { "give-up", give_up_activated },
  { "cancel", cancel_activated },
  { "reset", reset_activated },
  { "open", open_activated },
  { "save", save_activated },
  { "export-image", export_image_activated },
  { "export-events", export_events_activated },
  { "open-preset", open_preset_activated, "s" },
  { "zoom-in", zoom_in_activated },
  { "zoom-out", zoom_out_activated },
  { "zoom-fit", zoom_fit_activated },
};

static void
enable (SluiceWindow *self,
        const char   *name,
        gboolean      enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static void
update_actions (SluiceWindow *self)
{
  gboolean valid = sluice_config_panel_get_valid (self->config_panel);
  gboolean running = is_running (self);
  gboolean has_events = sluice_run_controller_get_has_events (self->run);
  gboolean fit = sluice_viewport_get_fit (sluice_run_controller_get_viewport (self->run));
  gboolean service = running && sluice_run_controller_get_submit_mode (self->run);
  gint64 selected = sluice_jobs_view_get_selected_job (self->jobs_view);

  enable (self, "run", !running && valid);
  enable (self, "request-stop", running);
  enable (self, "close-service", service);
  enable (self, "submit-job", service);
  enable (self, "give-up", service && selected >= 0 &&
                           sluice_jobs_view_get_state (self->jobs_view, selected) <= SLUICE_JOB_RUNNING);
  enable (self, "cancel", running);
  enable (self, "reset", !running);
  enable (self, "save", valid);
  enable (self, "export-image", !running && has_events);
  enable (self, "export-events", !running && has_events);
  enable (self, "zoom-in", running || has_events);
  enable (self, "zoom-out", !fit);
  enable (self, "zoom-fit", !fit);
}

/* The jobs tab and the Close button belong to service runs: they show
 * while the configuration is one, or the run on show is. */
static void
update_mode (SluiceWindow *self)
{
  SluiceScenario *scenario = sluice_config_panel_get_scenario (self->config_panel);
  gboolean submit = sluice_run_controller_get_submit_mode (self->run) ||
                    (scenario != NULL && sluice_scenario_get_mode (scenario) == SLUICE_SCENARIO_MODE_SUBMIT);

  gtk_widget_set_visible (GTK_WIDGET (self->jobs_view), submit);
  gtk_widget_set_visible (self->close_button, submit);
}

/* ---- GObject ----------------------------------------------------------- */

static void
sluice_window_dispose (GObject *object)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  g_clear_object (&self->batch);
  /* The controller fills views of the template: it lets go of them first. */
  if (self->run != NULL)
    {
      sluice_clock_controls_set_run_controller (self->clock_controls, NULL);
      g_signal_handlers_disconnect_by_data (self->run, self);
      g_signal_handlers_disconnect_by_data (sluice_run_controller_get_viewport (self->run), self);
      sluice_run_controller_reset (self->run);
    }
  g_clear_object (&self->run);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_WINDOW);

  G_OBJECT_CLASS (sluice_window_parent_class)->dispose (object);
}

static void
sluice_window_finalize (GObject *object)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  g_free (self->file);

  G_OBJECT_CLASS (sluice_window_parent_class)->finalize (object);
}

static void
sluice_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, is_running (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_window_class_init (SluiceWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_window_dispose;
  object_class->finalize = sluice_window_finalize;
  object_class->get_property = sluice_window_get_property;

  /**
   * SluiceWindow:running:
   *
   * Whether a run is going on.
   */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SLUICE_TYPE_CLOCK_CONTROLS);
  g_type_ensure (SLUICE_TYPE_CONFIG_PANEL);
  g_type_ensure (SLUICE_TYPE_COUNTERS);
  g_type_ensure (SLUICE_TYPE_CHART_VIEW);
  g_type_ensure (SLUICE_TYPE_TIMELINE_VIEW);
  g_type_ensure (SLUICE_TYPE_EVENT_LOG);
  g_type_ensure (SLUICE_TYPE_ERROR_GROUP_VIEW);
  g_type_ensure (SLUICE_TYPE_JOBS_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, clock_controls);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, presets_menu);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, config_panel);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, counters);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, chart_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, event_log);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, results_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, error_group_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, jobs_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, close_button);
  gtk_widget_class_bind_template_callback (widget_class, update_actions);
}

static void
sluice_window_init (SluiceWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions, G_N_ELEMENTS (win_actions), self);

  self->run = sluice_run_controller_new (GTK_WIDGET (self), self->counters, self->chart_view,
                                         self->timeline_view, self->event_log, self->error_group_view,
                                         self->jobs_view);
  g_signal_connect_swapped (self->run, "status", G_CALLBACK (on_run_status), self);
  g_signal_connect_swapped (self->run, "notify::running", G_CALLBACK (on_running_changed), self);
  g_signal_connect_swapped (sluice_run_controller_get_viewport (self->run), "notify::fit",
                            G_CALLBACK (update_actions), self);

  sluice_clock_controls_set_run_controller (self->clock_controls, self->run);
  {
    g_autoptr(GtkNoSelection) results = gtk_no_selection_new (g_object_ref (sluice_run_controller_get_results (self->run)));

    gtk_list_view_set_model (self->results_view, GTK_SELECTION_MODEL (results));
  }
  g_signal_connect_swapped (self->config_panel, "changed", G_CALLBACK (update_mode), self);
  g_signal_connect_swapped (self->jobs_view, "changed", G_CALLBACK (update_actions), self);
  sluice_presets_fill_menu (self->presets_menu, "win.open-preset");
  update_mode (self);
  update_actions (self);
}

/* ---- API --------------------------------------------------------------- */

/**
 * sluice_window_new:
 * @app: the application
 *
 * Returns: (transfer full): a new window showing the default scenario
 */
SluiceWindow *
sluice_window_new (SluiceApplication *app)
{
  return g_object_new (SLUICE_TYPE_WINDOW, "application", app, NULL);
}

/**
 * sluice_window_get_running:
 * @self: a #SluiceWindow
 *
 * Returns: whether a run is going on
 */
gboolean
sluice_window_get_running (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  return is_running (self);
}

/**
 * sluice_window_run_and_export:
 * @self: a #SluiceWindow
 * @screenshot: (nullable): the PNG file of the window to write
 * @image: (nullable): the image of the chart and lanes to write (PNG, SVG
 *   or PDF by its extension)
 * @events: (nullable): the events to write (CSV or JSON Lines by its
 *   extension)
 * @func: called when every file is written or one failed
 * @user_data: data for @func
 *
 * Once the window is shown, runs the scenario on the virtual clock (or on
 * the scaled clock when it needs real time), then writes the exports and
 * the screenshot of the window as it is drawn after the run.
 */
void
sluice_window_run_and_export (SluiceWindow         *self,
                              const char           *screenshot,
                              const char           *image,
                              const char           *events,
                              SluiceScreenshotFunc  func,
                              gpointer              user_data)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (func != NULL);

  g_clear_object (&self->batch);
  self->batch = sluice_batch_new (self, screenshot, image, events, func, user_data);
  sluice_batch_start (self->batch);
}

/**
 * sluice_window_get_config_panel:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceConfigPanel
 */
GtkWidget *
sluice_window_get_config_panel (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->config_panel);
}

/**
 * sluice_window_get_timeline_view:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceTimelineView
 */
GtkWidget *
sluice_window_get_timeline_view (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->timeline_view);
}

/**
 * sluice_window_get_event_log:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceEventLog
 */
GtkWidget *
sluice_window_get_event_log (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->event_log);
}

/**
 * sluice_window_get_error_group:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceErrorGroupView
 */
GtkWidget *
sluice_window_get_error_group (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->error_group_view);
}

/**
 * sluice_window_get_jobs_view:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceJobsView
 */
GtkWidget *
sluice_window_get_jobs_view (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->jobs_view);
}

/**
 * sluice_window_get_counter:
 * @self: a #SluiceWindow
 * @counter: a #SluiceCounter
 *
 * Returns: the text the counter shows
 */
const char *
sluice_window_get_counter (SluiceWindow  *self,
                           SluiceCounter  counter)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  g_return_val_if_fail (counter < SLUICE_N_COUNTERS, NULL);
  return sluice_counters_get (self->counters, counter);
}

/**
 * sluice_window_get_counter_shown:
 * @self: a #SluiceWindow
 * @counter: a #SluiceCounter
 *
 * Returns: whether the counter takes a place in the row (the retry
 *   policy's only in runs that can have them)
 */
gboolean
sluice_window_get_counter_shown (SluiceWindow  *self,
                                 SluiceCounter  counter)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (counter < SLUICE_N_COUNTERS, FALSE);
  return sluice_counters_get_shown (self->counters, counter);
}

/**
 * sluice_window_get_banner:
 * @self: a #SluiceWindow
 *
 * Returns: the one line that says what is going on or how the run ended
 */
const char *
sluice_window_get_banner (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->banner_label);
}

/**
 * sluice_window_get_n_results:
 * @self: a #SluiceWindow
 *
 * Returns: how many results the run handed back so far
 */
guint
sluice_window_get_n_results (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), 0);
  return g_list_model_get_n_items (sluice_run_controller_get_results (self->run));
}

/**
 * sluice_window_get_run_controller:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): what runs the scenario and fills the views
 */
SluiceRunController *
sluice_window_get_run_controller (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return self->run;
}

/**
 * sluice_window_get_viewport:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the time span the chart and the lanes share
 */
SluiceViewport *
sluice_window_get_viewport (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return sluice_run_controller_get_viewport (self->run);
}
