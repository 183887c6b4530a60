/* sluice-window-private.h: what the parts of the playground window share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "sluice-attach-dialog.h"
#include "sluice-batch.h"
#include "sluice-chart-view.h"
#include "sluice-clock-controls.h"
#include "sluice-config-panel.h"
#include "sluice-counters.h"
#include "sluice-document.h"
#include "sluice-error-group-view.h"
#include "sluice-event-log.h"
#include "sluice-explain-view.h"
#include "sluice-file-dialog.h"
#include "sluice-jobs-view.h"
#include "sluice-lint-view.h"
#include "sluice-lesson-gallery.h"
#include "sluice-lesson-panel.h"
#include "sluice-report-view.h"
#include "sluice-run-controller.h"
#include "sluice-scrubber.h"
#include "sluice-timeline-view.h"
#include "sluice-viewport.h"
#include "sluice-result-list.h"
#include "sluice-window.h"

G_BEGIN_DECLS

/* The window is one object (the template, its views and its actions) over
 * a #SluiceDocument (the scenario, its file, the current run's model) and
 * a #SluiceRunController (the run). Its files call one way, from the top:
 *
 *   sluice-window.c          the object: template, properties, wiring of
 *                            the document and the controller to the views
 *    └ sluice-window-actions.c  the `win.` actions (action → document or
 *       │                       controller), and Reset
 *       ├ sluice-window-lessons.c  the Lessons page, a lesson's question
 *       │                          and reveal, and their actions
 *       ├ sluice-window-unsaved.c  "Save the changes?" before what would
 *       │                          lose them
 *       │  └ sluice-window-files.c  open, save (through the document),
 *       │                           export
 *       ├ sluice-window-attach.c, -compare.c, -store.c: one dialog each
 *    leaves, called from above and calling no other window file:
 *       sluice-window-state.c      what is enabled and shown for the run's
 *                                  and the document's state now
 *       sluice-window-banner.c     the banner's one line
 *       sluice-window-projector.c  projector mode
 *       sluice-window-keys.c       the run's keys
 *
 * tests/check-window-calls.py checks that no call goes back up. */

/* What waits for the answer to "Save the changes?" (with its argument:
 * a preset's name, a file's path), or what to do once saved. */
typedef void (*SluiceWindowGoOn) (SluiceWindow *self,
                                  const char   *arg);

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
  SluiceLintView       *lint_view;  /* the lints' badge, beside the banner */
  SluiceCounters       *counters;
  SluiceChartView      *chart_view;
  SluiceTimelineView   *timeline_view;
  SluiceEventLog       *event_log;
  GtkListView          *results_view;
  SluiceRunModel       *model;        /* the run the views show (the controller's) */
  GPtrArray            *model_bindings; /* GBinding: the views' properties bound to it */
  SluiceResultList     *result_list;  /* the model's results as lines */
  GtkSelectionModel    *results;      /* the results view's model, set while it is shown */
  guint                 results_row;  /* its row at the top when it was last hidden */
  SluiceErrorGroupView *error_group_view;
  SluiceJobsView       *jobs_view;
  SluiceReportView     *report_view;
  SluiceScrubber       *scrubber;
  SluiceExplainView    *explain_view;
  GtkNotebook          *notebook;
  GtkButton            *stop_button;
  GtkButton            *run_button;
  GtkWidget            *cancel_button;
  GtkWidget            *reset_button;
  GtkWidget            *hold_resume_button; /* the hold screen's way back */
  GtkLabel             *hold_title; /* the hold screen's title */
  GtkWidget            *sidebar;      /* the lesson's question and the configuration */
  GtkStack             *main_stack;   /* the playground, the Lessons page */
  SluiceLessonGallery  *lesson_gallery;
  GtkWidget            *lesson_scroller;
  GtkWidget            *wide_counters_slot; /* the counters in projector mode */
  SluiceLessonPanel    *lesson_panel;

  SluiceRunController  *run;
  SluiceDocument       *document;   /* the scenario, its file, the run's model */
  GPtrArray            *document_bindings; /* GBinding: the header's to it */
  gboolean              closing;    /* asked, or nothing to ask: close */
  GtkWidget            *question;   /* "Save the changes?" while it asks */
  SluiceWindowGoOn      pending;    /* what waits for its answer */
  char                 *pending_arg; /* the preset or file to open */
  SluiceWindowGoOn      after_save; /* what waits for Save As's file */
  SluiceBatch          *batch;      /* --screenshot and --export-* */
  SluiceScreenshotFunc  batch_func; /* called back when the batch is done */
  gpointer              batch_data;
  GSettings            *settings;   /* bound: size, sidebar, speed, projector */
  char                 *banner_text; /* the banner's line, without "Paused" */
  guint                 banner_kind; /* a BannerKind */
  GtkWidget            *attach_dialog; /* weak: while it is open */
  gboolean              projector;  /* sluice-window-projector.c */
  const char           *held_page;  /* the page the hold screen covers, or NULL */
  int                   tabs_height; /* the tabs' height request, as the template has it */
};

typedef enum {
  BANNER_INFO,
  BANNER_OK,
  BANNER_ERROR,
} BannerKind;

/* sluice-window-banner.c */
void     _sluice_window_set_banner        (SluiceWindow         *self,
                                           BannerKind            kind,
                                           const char           *text);
void     _sluice_window_show_ready        (SluiceWindow         *self);
void     _sluice_window_connect_banner    (SluiceWindow         *self);

/* sluice-window-state.c */
void     _sluice_window_update_actions    (SluiceWindow         *self);
void     _sluice_window_update_mode       (SluiceWindow         *self);
gboolean _sluice_window_get_attached      (SluiceWindow         *self);
gboolean _sluice_window_lesson_allows_run (SluiceWindow         *self);

/* sluice-window-actions.c */
void     _sluice_window_class_install_actions (GtkWidgetClass   *widget_class);
void     _sluice_window_reset_run         (SluiceWindow         *self);

/* sluice-window-keys.c */
void     _sluice_window_add_run_keys      (SluiceWindow         *self);

/* sluice-window-files.c */
void     _sluice_window_choose_file       (SluiceWindow         *self,
                                           SluiceFileDialogKind  kind);
void     _sluice_window_save              (SluiceWindow         *self,
                                           SluiceWindowGoOn      then);
void     _sluice_window_save_as           (SluiceWindow         *self);

/* sluice-window-attach.c */
void     _sluice_window_choose_pool       (SluiceWindow         *self);

/* sluice-window-projector.c */
void     _sluice_window_fit_counters      (SluiceWindow         *self);
void     _sluice_window_hold_screen       (SluiceWindow         *self,
                                           gboolean              hold);
gboolean _sluice_window_get_screen_held   (SluiceWindow         *self);

/* sluice-window-lessons.c */
void     _sluice_window_class_install_lesson_actions (GtkWidgetClass *widget_class);
void     _sluice_window_connect_lesson_panel (SluiceWindow      *self);
void     _sluice_window_show_lessons_page (SluiceWindow         *self,
                                           gboolean              lessons);
gboolean _sluice_window_get_lessons_page_shown (SluiceWindow    *self);
void     _sluice_window_bind_lesson_settings (SluiceWindow      *self);
void     _sluice_window_show_lesson       (SluiceWindow         *self,
                                           SluiceScenario       *scenario);
void     _sluice_window_ask_lesson_again  (SluiceWindow         *self);
void     _sluice_window_connect_lesson_run (SluiceWindow        *self);

/* sluice-window-compare.c */
void     _sluice_window_choose_comparison (SluiceWindow         *self);

/* sluice-window-store.c */
void     _sluice_window_choose_store      (SluiceWindow         *self);

/* sluice-window-unsaved.c */
void     _sluice_window_attach_worker     (SluiceWindow         *self,
                                           const char           *worker_id,
                                           const char           *job_key);
void     _sluice_window_ask_first         (SluiceWindow         *self,
                                           SluiceWindowGoOn      go_on,
                                           const char           *arg);
gboolean _sluice_window_on_close_request  (SluiceWindow         *self);

G_END_DECLS
