/* sluice-window.c: the playground window: configure, run, watch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-accessible.h"
#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-presets.h"
#include "sluice-theme.h"
#include "sluice-window-private.h"
#include "sluice-time-view.h"

/**
 * SluiceWindow:
 *
 * The configuration panel on the left; on the right the run: a banner,
 * the live counters, the queue chart, the worker lanes, and the event log,
 * results and error group in tabs; for a service run (submit mode) a jobs
 * table in a fourth tab. The one stop button of the header bar is Request
 * Stop in stream mode and Close (the service's graceful close) in submit
 * mode: both drain, and two buttons side by side squeezed the title.
 *
 * The window is a view of its #SluiceDocument (the scenario, its file,
 * the current run's #SluiceRunModel) with actions installed on its class,
 * as GNOME Text Editor's window is: an action loads, saves or edits the
 * document, or starts, steers or resets the run through a
 * #SluiceRunController; the controller publishes a new model for each
 * run, reset, lesson, recording and attach, the document holds it, and
 * the views follow the document (show_model(), show_title(),
 * on_document_loaded()), so none shows a run before it.
 *
 * The keys of a run (Ctrl+R, Space, →, + and −, Escape, Ctrl+.,
 * Ctrl+Backspace) work wherever the focus is; the window's size and
 * maximised state, whether the configuration is shown (the header's
 * toggle, F9), the clock's speed and projector mode (F5: larger text,
 * thicker lines, the high-contrast palette) are kept in the application's
 * settings.
 *
 * This file holds the object, its wiring of the document and the
 * controller to the views, the settings and the API; the other
 * sluice-window-*.c files call one way below it (sluice-window-private.h).
 */

G_DEFINE_FINAL_TYPE (SluiceWindow, sluice_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_PROJECTOR,
  PROP_SHOW_SIDEBAR,
  PROP_SHOW_LESSONS,
  PROP_HOLD_SCREEN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- the run ----------------------------------------------------------- */

static void
on_run_status (SluiceWindow *self,
               guint         kind,
               const char   *text)
{
  _sluice_window_set_banner (self, kind == SLUICE_RUN_STATUS_OK ? BANNER_OK :
                                   kind == SLUICE_RUN_STATUS_ERROR ? BANNER_ERROR : BANNER_INFO, text);
}

static gboolean
is_running (SluiceWindow *self)
{
  return sluice_run_controller_get_running (self->run);
}

static void
on_running_changed (SluiceWindow *self)
{
  _sluice_window_update_mode (self);
  /* A service run shows its jobs as they come. */
  if (is_running (self) && sluice_run_controller_get_submit_mode (self->run))
    gtk_notebook_set_current_page (self->notebook,
                                   gtk_notebook_page_num (self->notebook, GTK_WIDGET (self->jobs_view)));
  _sluice_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/* ---- settings ---------------------------------------------------------- */

/**
 * sluice_window_bind_settings:
 * @self: a #SluiceWindow
 * @settings: settings of the `io.github.sluicepool.Sluice` schema
 *
 * Keeps the window's size and maximised state, whether the configuration
 * sidebar is shown, the clock's speed and projector mode in @settings, and
 * takes them from there now; File → Open and Save remember the last
 * scenario there (sluice_window_open_last()). The application gives each
 * window its settings: a window without them remembers nothing.
 */
void
sluice_window_bind_settings (SluiceWindow *self,
                             GSettings    *settings)
{
  g_return_if_fail (SLUICE_IS_WINDOW (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  g_set_object (&self->settings, settings);
  g_settings_bind (settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "show-sidebar", self->sidebar, "visible", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "speed", self->clock_controls, "speed", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "projector", self, "projector", G_SETTINGS_BIND_DEFAULT);
  _sluice_window_bind_lesson_settings (self);
}

/* The hold screen ends when another page is shown (Ctrl+L): the actions'
 * states follow the page. */
static void
on_page_shown (SluiceWindow *self)
{
  if (!_sluice_window_get_screen_held (self))
    self->held_page = NULL;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOLD_SCREEN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_LESSONS]);
}

static void
on_sidebar_visible (SluiceWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_SIDEBAR]);
}

/* ---- the views of the run's model ------------------------------------ */

/* The error group's title says how the run ended: the report's "outcome",
 * if it is a string (a recording's report comes from a file). */
static void
on_model_report_changed (SluiceWindow *self)
{
  JsonNode *report = sluice_run_model_get_report (self->model);
  JsonNode *outcome = report != NULL && JSON_NODE_HOLDS_OBJECT (report)
                        ? json_object_get_member (json_node_get_object (report), "outcome") : NULL;

  if (outcome != NULL && JSON_NODE_HOLDS_VALUE (outcome) && json_node_get_value_type (outcome) == G_TYPE_STRING)
    sluice_error_group_view_set_outcome (self->error_group_view, json_node_get_string (outcome));
}

/* A local run's model shows its report's linter once the run started. */
static void
on_model_linter_changed (SluiceWindow *self)
{
  sluice_lint_view_set_linter (self->lint_view, sluice_run_model_get_linter (self->model));
}

static void
on_model_position_changed (SluiceWindow *self)
{
  sluice_error_group_view_show_position (self->error_group_view, sluice_run_model_get_position (self->model));
}

/* Once per frame of a run: the views catch up with the model. */
static void
on_model_updated (SluiceWindow *self,
                  gboolean      new_events)
{
  if (new_events)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self->chart_view));
      gtk_widget_queue_draw (GTK_WIDGET (self->timeline_view));
    }
  sluice_result_list_sync (self->result_list);
  sluice_event_log_update (self->event_log, sluice_run_model_get_live (self->model));
  sluice_error_group_view_update (self->error_group_view);
  sluice_lint_view_update (self->lint_view);
  sluice_jobs_view_update (self->jobs_view);
}

static void
on_model_seeked (SluiceWindow *self,
                 guint64       position)
{
  sluice_result_list_sync (self->result_list);
  sluice_event_log_show_position (self->event_log, position);
  sluice_lint_view_update (self->lint_view);
}

static void
bind_model_property (SluiceWindow *self,
                     const char   *property,
                     gpointer      view,
                     const char   *view_property)
{
  GBinding *binding = g_object_bind_property (self->model, property, view, view_property, G_BINDING_SYNC_CREATE);

  g_ptr_array_add (self->model_bindings, g_object_ref (binding));
}

static void
let_go_of_model (SluiceWindow *self)
{
  if (self->model == NULL)
    return;
  for (guint i = 0; i < self->model_bindings->len; i++)
    g_binding_unbind (g_ptr_array_index (self->model_bindings, i));
  g_ptr_array_set_size (self->model_bindings, 0);
  g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
}

/* A new run (a reset, the next lesson, a recording, an attach) is a new
 * model: every view lets go of the last one and shows this one, so none
 * shows a run before it. The views that list events still read the
 * model's recorder from its start. */
static void
show_model (SluiceWindow *self)
{
  SluiceRunModel *model = sluice_document_get_model (self->document);
  SluiceRecorder *recorder;

  let_go_of_model (self);
  self->model = g_object_ref (model);
  recorder = sluice_run_model_get_recorder (model);

  bind_model_property (self, "timeline", self->chart_view, "model");
  bind_model_property (self, "timeline", self->timeline_view, "model");
  bind_model_property (self, "now", self->chart_view, "now");
  bind_model_property (self, "now", self->timeline_view, "now");
  bind_model_property (self, "report", self->report_view, "report");
  bind_model_property (self, "report-note", self->report_view, "note");
  bind_model_property (self, "finished-fold", self->scrubber, "fold");
  bind_model_property (self, "narrator", self->explain_view, "narrator");
  bind_model_property (self, "moment", self->explain_view, "moment");
  bind_model_property (self, "moment", self->lint_view, "moment");
  sluice_counters_set_stats (self->counters, sluice_run_model_get_stats (model));
  sluice_lint_view_set_linter (self->lint_view, sluice_run_model_get_linter (model));
  sluice_result_list_set_model (self->result_list, model);

  /* A new run's results are seen from the top. */
  self->results_row = 0;
  sluice_event_log_set_recorder (self->event_log, recorder);
  sluice_error_group_view_set_group (self->error_group_view, sluice_run_model_get_errors (model));
  sluice_jobs_view_set_table (self->jobs_view, sluice_run_model_get_jobs (model));
  on_model_report_changed (self);

  g_signal_connect_swapped (model, "notify::report", G_CALLBACK (on_model_report_changed), self);
  g_signal_connect_swapped (model, "notify::position", G_CALLBACK (on_model_position_changed), self);
  g_signal_connect_swapped (model, "notify::linter", G_CALLBACK (on_model_linter_changed), self);
  g_signal_connect_swapped (model, "updated", G_CALLBACK (on_model_updated), self);
  g_signal_connect_swapped (model, "seeked", G_CALLBACK (on_model_seeked), self);
}

static void
on_run_handler_changed (SluiceWindow *self)
{
  sluice_timeline_view_set_handler (self->timeline_view, sluice_run_controller_get_handler (self->run));
}

/* ---- the document ----------------------------------------------------- */

/* "• " before the title while there are unsaved changes, as GNOME Text
 * Editor marks a changed document. */
#define MODIFIED_MARK "• "

/* The window's and the header's title: the document's, after "• " while
 * it has unsaved changes. */
static void
show_title (SluiceWindow *self)
{
  g_autofree char *shown = g_strconcat (sluice_document_get_dirty (self->document) ? MODIFIED_MARK : "",
                                        sluice_document_get_title (self->document), NULL);

  gtk_label_set_text (self->title_label, shown);
  gtk_window_set_title (GTK_WINDOW (self), shown);
}

/* A new scenario (a file, a preset, a recording's, an attached pool's):
 * the panel, the lesson and the banner show it, and the run before it
 * goes (a run going on stays). */
static void
on_document_loaded (SluiceWindow *self)
{
  SluiceScenario *scenario = sluice_document_get_scenario (self->document);
  gboolean running = is_running (self);

  if (!running)
    _sluice_window_reset_run (self);
  sluice_config_panel_set_scenario (self->config_panel, scenario);
  _sluice_window_show_lesson (self, scenario);
  if (!running)
    _sluice_window_show_ready (self);
}

/* The panel edits the document's scenario: valid, it is the document's
 * (and its title the window's); a person's change is unsaved. */
static void
on_panel_changed (SluiceWindow *self)
{
  if (self->document == NULL)
    return;   /* disposed: the panel goes after the document */
  sluice_document_set_scenario (self->document, sluice_config_panel_get_scenario (self->config_panel));
  _sluice_window_update_mode (self);
}

static void
on_panel_edited (SluiceWindow *self)
{
  if (self->document == NULL)
    return;
  sluice_document_set_dirty (self->document, TRUE);
}

static void
bind_document (SluiceWindow *self)
{
  self->document = sluice_document_new ();
  self->document_bindings = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->document_bindings,
                   g_object_ref (g_object_bind_property (self->document, "subtitle", self->subtitle_label, "label",
                                                         G_BINDING_SYNC_CREATE)));
  /* The hold screen shows the title without the unsaved mark. */
  g_ptr_array_add (self->document_bindings,
                   g_object_ref (g_object_bind_property (self->document, "title", self->hold_title, "label",
                                                         G_BINDING_SYNC_CREATE)));
  g_signal_connect_swapped (self->document, "notify::title", G_CALLBACK (show_title), self);
  g_signal_connect_swapped (self->document, "notify::dirty", G_CALLBACK (show_title), self);
  g_signal_connect_swapped (self->document, "loaded", G_CALLBACK (on_document_loaded), self);
  g_signal_connect_swapped (self->config_panel, "changed", G_CALLBACK (on_panel_changed), self);
  g_signal_connect_swapped (self->config_panel, "edited", G_CALLBACK (on_panel_edited), self);
  /* The panel's defaults, before any file. */
  sluice_document_set_scenario (self->document, sluice_config_panel_get_scenario (self->config_panel));
  show_title (self);
}

/* ---- the results ------------------------------------------------------ */

/* A GtkListView makes a row (up to two hundred) for each item that comes
 * while it has a model, shown or not: the results view has its model only
 * while its tab is shown, so that a fast run seen on another tab does not
 * make them (the first frame of a 50,000-item run took 20-30 ms longer,
 * and the next one waited as long). Its row at the top is scrolled to
 * again when it comes back. */
static void
on_results_mapped (SluiceWindow *self)
{
  gtk_list_view_set_model (self->results_view, self->results);
  if (self->results_row > 0 && self->results_row < g_list_model_get_n_items (G_LIST_MODEL (self->results)))
    gtk_widget_activate_action (GTK_WIDGET (self->results_view), "list.scroll-to-item", "u", self->results_row);
}

static void
on_results_unmapped (SluiceWindow *self)
{
  GtkAdjustment *vadj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->results_view));
  double upper = vadj != NULL ? gtk_adjustment_get_upper (vadj) : 0;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->results));

  self->results_row = upper > 0 ? (guint) (n * gtk_adjustment_get_value (vadj) / upper) : 0;
  gtk_list_view_set_model (self->results_view, NULL);
}

static void
bind_results (SluiceWindow *self)
{
  self->results = GTK_SELECTION_MODEL (gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->result_list))));
  g_signal_connect_object (self->results_view, "map", G_CALLBACK (on_results_mapped), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->results_view, "unmap", G_CALLBACK (on_results_unmapped), self, G_CONNECT_SWAPPED);
}

/* The views show the document's model, and rebind to each new one: the
 * run controller publishes a model for each run, the document holds it,
 * the views read it; the controller knows no view. */
static void
bind_run_views (SluiceWindow *self)
{
  SluiceViewport *viewport = sluice_run_controller_get_viewport (self->run);

  self->model_bindings = g_ptr_array_new_with_free_func (g_object_unref);
  self->result_list = sluice_result_list_new ();
  sluice_time_view_set_viewport (SLUICE_TIME_VIEW (self->chart_view), viewport);
  sluice_time_view_set_viewport (SLUICE_TIME_VIEW (self->timeline_view), viewport);
  g_ptr_array_add (self->document_bindings,
                   g_object_ref (g_object_bind_property (self->run, "model", self->document, "model",
                                                         G_BINDING_SYNC_CREATE)));
  g_signal_connect_swapped (self->document, "notify::model", G_CALLBACK (show_model), self);
  show_model (self);
  g_signal_connect_swapped (self->run, "notify::handler", G_CALLBACK (on_run_handler_changed), self);
}

static void
sluice_window_dispose (GObject *object)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  g_clear_object (&self->batch);
  g_clear_object (&self->settings);
  g_clear_weak_pointer (&self->attach_dialog);
  if (self->clock_controls != NULL)
    g_signal_handlers_disconnect_by_data (self->clock_controls, self);
  /* The document first: the controller's reset below publishes a model
   * no view is to show. */
  if (self->document != NULL)
    {
      for (guint i = 0; i < self->document_bindings->len; i++)
        g_binding_unbind (g_ptr_array_index (self->document_bindings, i));
      g_signal_handlers_disconnect_by_data (self->document, self);
    }
  g_clear_pointer (&self->document_bindings, g_ptr_array_unref);
  /* The views hold the run's models (nothing to let go of first); a run
   * still going on is cancelled and let go of, as the window that paces it
   * goes. */
  if (self->run != NULL)
    {
      sluice_clock_controls_set_run_controller (self->clock_controls, NULL);
      g_signal_handlers_disconnect_by_data (self->run, self);
      g_signal_handlers_disconnect_by_data (sluice_run_controller_get_viewport (self->run), self);
      sluice_run_controller_reset (self->run);
    }
  g_clear_object (&self->run);
  let_go_of_model (self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->model_bindings, g_ptr_array_unref);
  g_clear_object (&self->result_list);

  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_WINDOW);
  g_clear_object (&self->results);

  G_OBJECT_CLASS (sluice_window_parent_class)->dispose (object);
}

static void
sluice_window_finalize (GObject *object)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  g_free (self->pending_arg);
  g_free (self->banner_text);

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
    case PROP_PROJECTOR:
      g_value_set_boolean (value, sluice_window_get_projector (self));
      break;
    case PROP_SHOW_SIDEBAR:
      /* A property action reads it before the template is built. */
      g_value_set_boolean (value, self->sidebar != NULL && gtk_widget_get_visible (self->sidebar));
      break;
    case PROP_SHOW_LESSONS:
      g_value_set_boolean (value, _sluice_window_get_lessons_page_shown (self));
      break;
    case PROP_HOLD_SCREEN:
      g_value_set_boolean (value, _sluice_window_get_screen_held (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SluiceWindow *self = SLUICE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECTOR:
      sluice_window_set_projector (self, g_value_get_boolean (value));
      break;
    case PROP_SHOW_SIDEBAR:
      gtk_widget_set_visible (self->sidebar, g_value_get_boolean (value));
      break;
    case PROP_SHOW_LESSONS:
      _sluice_window_show_lessons_page (self, g_value_get_boolean (value));
      break;
    case PROP_HOLD_SCREEN:
      _sluice_window_hold_screen (self, g_value_get_boolean (value));
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
  object_class->set_property = sluice_window_set_property;

  /**
   * SluiceWindow:running:
   *
   * Whether a run is going on.
   */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceWindow:projector:
   *
   * Whether the window is in projector mode: see
   * sluice_window_set_projector().
   */
  properties[PROP_PROJECTOR] =
    g_param_spec_boolean ("projector", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceWindow:show-sidebar:
   *
   * Whether the sidebar (a lesson's question and the configuration) is
   * shown (`win.show-sidebar`, F9).
   */
  properties[PROP_SHOW_SIDEBAR] =
    g_param_spec_boolean ("show-sidebar", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceWindow:show-lessons:
   *
   * Whether the Lessons page is shown rather than the playground
   * (`win.show-lessons`, Ctrl+L).
   */
  properties[PROP_SHOW_LESSONS] =
    g_param_spec_boolean ("show-lessons", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * SluiceWindow:hold-screen:
   *
   * Whether the hold screen covers the window: its title only, for a
   * projector while the room talks (`win.hold-screen`, B).
   */
  properties[PROP_HOLD_SCREEN] =
    g_param_spec_boolean ("hold-screen", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  _sluice_window_class_install_actions (widget_class);

  g_type_ensure (SLUICE_TYPE_CLOCK_CONTROLS);
  g_type_ensure (SLUICE_TYPE_CONFIG_PANEL);
  g_type_ensure (SLUICE_TYPE_COUNTERS);
  g_type_ensure (SLUICE_TYPE_CHART_VIEW);
  g_type_ensure (SLUICE_TYPE_TIMELINE_VIEW);
  g_type_ensure (SLUICE_TYPE_EVENT_LOG);
  g_type_ensure (SLUICE_TYPE_ERROR_GROUP_VIEW);
  g_type_ensure (SLUICE_TYPE_JOBS_VIEW);
  g_type_ensure (SLUICE_TYPE_REPORT_VIEW);
  g_type_ensure (SLUICE_TYPE_SCRUBBER);
  g_type_ensure (SLUICE_TYPE_EXPLAIN_VIEW);
  g_type_ensure (SLUICE_TYPE_LINT_VIEW);
  g_type_ensure (SLUICE_TYPE_LESSON_GALLERY);
  g_type_ensure (SLUICE_TYPE_LESSON_PANEL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/sluicepool/Sluice/sluice-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, clock_controls);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, presets_menu);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, config_panel);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, lint_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, counters);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, chart_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, timeline_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, event_log);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, results_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, error_group_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, jobs_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, report_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, scrubber);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, explain_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, stop_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, reset_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, hold_resume_button);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, hold_title);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, lesson_gallery);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, lesson_scroller);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, wide_counters_slot);
  gtk_widget_class_bind_template_child (widget_class, SluiceWindow, lesson_panel);
  gtk_widget_class_bind_template_callback_full (widget_class, "update_actions",
                                                G_CALLBACK (_sluice_window_update_actions));
}

static void
sluice_window_init (SluiceWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
  /* Not a bound template child: the window's own child, which
   * gtk_widget_dispose_template() would unparent behind the window's back. */
  self->main_stack = GTK_STACK (gtk_window_get_child (GTK_WINDOW (self)));
  g_signal_connect_swapped (self->main_stack, "notify::visible-child", G_CALLBACK (on_page_shown), self);

  _sluice_window_connect_lesson_panel (self);
  g_signal_connect_swapped (self->sidebar, "notify::visible", G_CALLBACK (on_sidebar_visible), self);
  _sluice_window_add_run_keys (self);

  self->run = sluice_run_controller_new (GTK_WIDGET (self));
  bind_document (self);
  bind_run_views (self);
  _sluice_window_connect_lesson_run (self);
  g_signal_connect_swapped (self->run, "status", G_CALLBACK (on_run_status), self);
  g_signal_connect_swapped (self->run, "notify::running", G_CALLBACK (on_running_changed), self);
  g_signal_connect_swapped (self->run, "notify::remote", G_CALLBACK (_sluice_window_update_actions), self);
  /* After a run the scrubber moves the playhead, at the clock's speed. */
  sluice_scrubber_set_viewport (self->scrubber, sluice_run_controller_get_viewport (self->run));
  g_object_bind_property (self->clock_controls, "speed", self->scrubber, "speed", G_BINDING_SYNC_CREATE);
  /* A clicked event row moves the playhead to its time. */
  g_object_bind_property (self->event_log, "marked-time", sluice_run_controller_get_viewport (self->run), "playhead",
                          G_BINDING_SYNC_CREATE);
  /* The lints of the moment shown; a clicked one moves the playhead to
   * when it came on. */
  g_object_bind_property (self->lint_view, "marked-time", sluice_run_controller_get_viewport (self->run), "playhead",
                          G_BINDING_DEFAULT);
  g_signal_connect_swapped (sluice_run_controller_get_viewport (self->run), "notify::fit",
                            G_CALLBACK (_sluice_window_update_actions), self);

  sluice_clock_controls_set_run_controller (self->clock_controls, self->run);
  _sluice_window_connect_banner (self);
  bind_results (self);
  g_signal_connect (self, "close-request", G_CALLBACK (_sluice_window_on_close_request), NULL);
  g_signal_connect_swapped (self->jobs_view, "changed", G_CALLBACK (_sluice_window_update_actions), self);
  sluice_presets_fill_menu (self->presets_menu, "win.open-preset");
  _sluice_window_update_mode (self);
  _sluice_window_update_actions (self);
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

static void
on_batch_done (SluiceBatch *batch,
               gboolean     ok,
               gpointer     user_data)
{
  SluiceWindow *self = user_data;

  self->batch_func (self, ok, self->batch_data);
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
  self->batch_func = func;
  self->batch_data = user_data;
  self->batch = sluice_batch_new (GTK_WIDGET (self), self->run, GTK_WIDGET (self->chart_view), screenshot, image,
                                  events, on_batch_done, self);
  g_signal_connect_object (self->batch, "skip-run", G_CALLBACK (sluice_window_get_asking), self, G_CONNECT_SWAPPED);
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
 * sluice_window_get_explain_view:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceExplainView
 */
GtkWidget *
sluice_window_get_explain_view (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->explain_view);
}

/**
 * sluice_window_get_report_view:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the #SluiceReportView
 */
GtkWidget *
sluice_window_get_report_view (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return GTK_WIDGET (self->report_view);
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
 * sluice_window_get_n_results:
 * @self: a #SluiceWindow
 *
 * Returns: how many results the run handed back so far
 */
guint
sluice_window_get_n_results (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), 0);
  return sluice_run_model_get_n_results_shown (sluice_run_controller_get_model (self->run));
}

/**
 * sluice_window_get_results:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the results the run handed back by the moment
 *   shown, as lines of text (#GtkStringObject)
 */
GListModel *
sluice_window_get_results (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return G_LIST_MODEL (self->result_list);
}

/**
 * sluice_window_get_run_controller:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): what runs the scenario and publishes its models
 */
SluiceRunController *
sluice_window_get_run_controller (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return self->run;
}

/**
 * sluice_window_get_document:
 * @self: a #SluiceWindow
 *
 * Returns: (transfer none): the scenario shown, its file and the current
 *   run's model
 */
SluiceDocument *
sluice_window_get_document (SluiceWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_WINDOW (self), NULL);
  return self->document;
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

