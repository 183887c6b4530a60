/* sluice-compare-window.c: A and B on one workload, side by side on one
 * time axis, and their difference (docs/teaching.md, A/B)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-chart-view.h"
#include "sluice-compare-window.h"
#include "sluice-accessible.h"
#include "sluice-run-model.h"
#include "sluice-scrubber.h"
#include "sluice-theme.h"
#include "sluice-timeline-view.h"
#include "sluice-time-view.h"

/**
 * SluiceCompareWindow:
 *
 * Runs a #SluiceComparison (A, then B on A's workload, on the virtual
 * clock at once) and shows both runs on one time axis: A's chart and lanes
 * above, B's below, one #SluiceViewport shared by the four views, so that
 * zooming, panning and the playhead move both; one #SluiceScrubber over
 * the longer run; and the difference table of sluice_comparison_dup_rows(),
 * the one `sluice-run --compare` prints. The window only shows: the
 * comparison is the model. In projector mode (#SluiceCompareWindow:projector,
 * which follows the playground window's; F5 here too) its text, lines and
 * marks are larger, in the high-contrast palette.
 */

/* The viewport shows at least half a second, as the main window does. */
#define MIN_SPAN_US (G_USEC_PER_SEC / 2)

#define N_SIDES 2
#define N_COLUMNS (SLUICE_COMPARE_COLUMN_DIFFERENCE + 1)

struct _SluiceCompareWindow
{
  GtkWindow           parent_instance;

  /* template */
  GtkLabel           *a_heading, *b_heading;
  SluiceChartView    *a_chart, *b_chart;
  SluiceTimelineView *a_lanes, *b_lanes;
  SluiceScrubber     *scrubber;
  GtkGrid            *table;
  GtkLabel           *status_label;

  /* the template's views, by side */
  GtkLabel           *headings[N_SIDES];
  SluiceChartView    *charts[N_SIDES];
  SluiceTimelineView *lanes[N_SIDES];

  SluiceComparison   *comparison;
  GCancellable       *cancellable;
  SluiceViewport     *viewport;
  SluiceRunModel     *models[N_SIDES]; /* each run's, once it started */
  gboolean            running;
  GPtrArray          *rows;       /* of SluiceComparisonRow, once both ended */
  GtkLabel           *cells[SLUICE_COMPARISON_N_ROWS][N_COLUMNS];
  gboolean            projector;
};

G_DEFINE_FINAL_TYPE (SluiceCompareWindow, sluice_compare_window, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_PROJECTOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- the runs ----------------------------------------------------------- */

static void
set_status (SluiceCompareWindow *self,
            const char          *text)
{
  gtk_label_set_text (self->status_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL && *text != '\0');
}

/* One time axis: from the earlier start to the later end of the runs
 * shown. Each run's clock starts at 0, so the same x is the same moment
 * of each run. */
static void
update_bounds (SluiceCompareWindow *self)
{
  gint64 start = G_MAXINT64, end = 0;

  for (guint side = 0; side < N_SIDES; side++)
    if (self->models[side] != NULL)
      {
        start = MIN (start, sluice_run_model_get_end (self->models[side])->start_time);
        end = MAX (end, sluice_run_model_get_now (self->models[side]));
      }
  if (start == G_MAXINT64)
    start = 0;
  sluice_viewport_set_bounds (self->viewport, start, MAX (end, start + MIN_SPAN_US));
}

/* Draws what @side's run recorded, its "now" line at its own end. */
static void
show_side (SluiceCompareWindow  *self,
           SluiceComparisonSide  side)
{
  SluiceRunModel *model = self->models[side];

  if (model == NULL)
    return;

  sluice_run_model_update (model, 0);
  sluice_time_view_set_now (SLUICE_TIME_VIEW (self->charts[side]), sluice_run_model_get_now (model));
  sluice_time_view_set_now (SLUICE_TIME_VIEW (self->lanes[side]), sluice_run_model_get_now (model));
  gtk_widget_queue_draw (GTK_WIDGET (self->charts[side]));
  gtk_widget_queue_draw (GTK_WIDGET (self->lanes[side]));
  update_bounds (self);
}

/* A number below zero starts with a minus sign, as wide as the plus sign
 * of one above zero and plain from the back of a room, rather than with
 * the hyphen sluice-run prints; a lone "-" (no value) stays. */
static void
set_number (GtkLabel   *label,
            const char *text)
{
  g_autofree char *shown = NULL;

  if (text[0] == '-' && g_ascii_isdigit (text[1]))
    shown = g_strconcat ("−", text + 1, NULL);
  gtk_label_set_text (label, shown != NULL ? shown : text);
}

static void
fill_table (SluiceCompareWindow *self)
{
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  self->rows = sluice_comparison_dup_rows (self->comparison, TRUE);

  for (guint i = 0; i < self->rows->len && i < SLUICE_COMPARISON_N_ROWS; i++)
    {
      const SluiceComparisonRow *row = g_ptr_array_index (self->rows, i);

      gtk_label_set_text (self->cells[i][SLUICE_COMPARE_COLUMN_NAME], row->name);
      set_number (self->cells[i][SLUICE_COMPARE_COLUMN_A], row->a);
      set_number (self->cells[i][SLUICE_COMPARE_COLUMN_B], row->b);
      set_number (self->cells[i][SLUICE_COMPARE_COLUMN_DIFFERENCE], row->difference);
    }
}

/* The scrubber moves through the longer run: its span is the axis's. */
static void
set_scrubber_fold (SluiceCompareWindow *self)
{
  SluiceComparisonSide longer = SLUICE_COMPARISON_A;

  if (self->models[SLUICE_COMPARISON_B] != NULL &&
      sluice_run_model_get_now (self->models[SLUICE_COMPARISON_B]) >
        sluice_run_model_get_now (self->models[SLUICE_COMPARISON_A]))
    longer = SLUICE_COMPARISON_B;

  sluice_scrubber_set_fold (self->scrubber, sluice_run_model_get_fold (self->models[longer]));
}

/* Each run is a run model, as the main window's: the chart and the lanes
 * draw its timeline. */
static void
create_model (SluiceCompareWindow  *self,
              SluiceComparisonSide  side)
{
  SluiceScenario *scenario = sluice_comparison_get_scenario (self->comparison, side);
  SluiceRecorder *recorder = sluice_comparison_get_recorder (self->comparison, side);
  SluiceTimeline *timeline;

  g_clear_object (&self->models[side]);
  self->models[side] = sluice_run_model_new (scenario, recorder);
  timeline = sluice_run_model_get_timeline (self->models[side]);
  sluice_chart_view_set_model (self->charts[side], timeline);
  sluice_timeline_view_set_model (self->lanes[side], timeline, sluice_run_model_get_workers (self->models[side]));
}

static void
on_run_started (SluiceComparison *comparison,
                guint             side,
                gpointer          user_data)
{
  SluiceCompareWindow *self = user_data;

  create_model (self, side);
  /* The handler tells each item's behaviour in the lanes' tooltips. */
  sluice_timeline_view_set_handler (self->lanes[side], sluice_comparison_get_handler (comparison, side));
  if (side == SLUICE_COMPARISON_B)
    show_side (self, SLUICE_COMPARISON_A);
  set_status (self, side == SLUICE_COMPARISON_A ? _("Running A…") : _("Running B on A's workload…"));
}

static void
show_end (SluiceCompareWindow *self,
          const GError        *error)
{
  g_autofree char *text = NULL;

  self->running = FALSE;
  show_side (self, SLUICE_COMPARISON_A);
  show_side (self, SLUICE_COMPARISON_B);
  if (self->models[SLUICE_COMPARISON_A] != NULL)
    set_scrubber_fold (self);

  if (error != NULL)
    {
      /* Translators: %s says why a run of the comparison had no report */
      text = g_strdup_printf (_("The comparison could not finish: %s"), error->message);
      set_status (self, text);
      return;
    }
  if (sluice_comparison_get_complete (self->comparison))
    fill_table (self);
  set_status (self, _("Both ran on the same items, behaviours and random draws. Drag the slider, or use "
                      "Home, End, ← and →, to see both runs at the same moment."));
}

static void
on_comparison_done (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GWeakRef *weak = user_data;
  g_autoptr(SluiceCompareWindow) self = g_weak_ref_get (weak);
  g_autoptr(GError) error = NULL;
  gboolean ok = sluice_comparison_run_finish (SLUICE_COMPARISON (object), result, &error);

  g_weak_ref_clear (weak);
  g_free (weak);
  /* The window closed while it ran. */
  if (self == NULL || self->comparison != SLUICE_COMPARISON (object))
    return;

  show_end (self, ok ? NULL : error);
}

static void
start (SluiceCompareWindow *self)
{
  GWeakRef *weak = g_new0 (GWeakRef, 1);

  g_weak_ref_init (weak, self);
  self->running = TRUE;
  sluice_comparison_set_instant (self->comparison, TRUE);
  g_signal_connect_object (self->comparison, "run-started", G_CALLBACK (on_run_started), self, 0);
  sluice_comparison_run_async (self->comparison, self->cancellable, on_comparison_done, weak);
}

/* ---- building ----------------------------------------------------------- */

static void
set_headings (SluiceCompareWindow *self)
{
  /* Translators: the heading of A's chart and lanes; %s is its title */
  g_autofree char *a = g_strdup_printf (_("A: %s"), sluice_comparison_get_title (self->comparison,
                                                                                 SLUICE_COMPARISON_A));
  /* Translators: the heading of B's chart and lanes; %s is its title */
  g_autofree char *b = g_strdup_printf (_("B: %s (on A's workload)"),
                                        sluice_comparison_get_title (self->comparison, SLUICE_COMPARISON_B));

  gtk_label_set_text (self->headings[SLUICE_COMPARISON_A], a);
  gtk_label_set_text (self->headings[SLUICE_COMPARISON_B], b);
}

/* The header row and an empty row per #SluiceComparisonRowKind. */
static void
create_table (SluiceCompareWindow *self)
{
  /* Translators: the column headings of the difference table */
  const char *headings[N_COLUMNS] = { "", C_("comparison", "A"), C_("comparison", "B"), C_("comparison", "B − A") };

  for (guint column = 0; column < N_COLUMNS; column++)
    {
      GtkWidget *label = sluice_cell_label_new (column != SLUICE_COMPARE_COLUMN_NAME);

      gtk_label_set_text (GTK_LABEL (label), headings[column]);
      gtk_widget_add_css_class (label, "heading");
      if (column == SLUICE_COMPARE_COLUMN_DIFFERENCE)
        gtk_widget_add_css_class (label, "difference");
      gtk_grid_attach (self->table, label, (int) column, 0, 1, 1);
    }

  for (guint row = 0; row < SLUICE_COMPARISON_N_ROWS; row++)
    for (guint column = 0; column < N_COLUMNS; column++)
      {
        GtkWidget *label = sluice_cell_label_new (column != SLUICE_COMPARE_COLUMN_NAME);

        /* A name is short: shown whole, not ellipsized. */
        gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_NONE);
        gtk_label_set_selectable (GTK_LABEL (label), column != SLUICE_COMPARE_COLUMN_NAME);
        if (column == SLUICE_COMPARE_COLUMN_DIFFERENCE)
          gtk_widget_add_css_class (label, "difference");
        self->cells[row][column] = GTK_LABEL (label);
        gtk_grid_attach (self->table, label, (int) column, (int) row + 1, 1, 1);
      }
}

/* ---- keys --------------------------------------------------------------- */

static const struct {
  const char *trigger;
  const char *action;
} scrub_keys[] = {
  { "space", "scrub.play" },
  { "Right|KP_Right", "scrub.next-event" },
  { "Left|KP_Left", "scrub.previous-event" },
  { "<Shift>Right|<Shift>KP_Right", "scrub.forward" },
  { "<Shift>Left|<Shift>KP_Left", "scrub.back" },
  { "Home|KP_Home", "scrub.start" },
  { "End|KP_End", "scrub.end" },
};

/* The scrubber's keys work wherever the focus is: nothing here is typed
 * in. */
static gboolean
activate_scrub_key (GtkWidget *widget,
                    GVariant  *args,
                    gpointer   user_data)
{
  SluiceCompareWindow *self = SLUICE_COMPARE_WINDOW (widget);

  return gtk_widget_activate_action (GTK_WIDGET (self->scrubber), user_data, NULL);
}

static gboolean
close_window (GtkWidget *widget,
              GVariant  *args,
              gpointer   user_data)
{
  gtk_window_close (GTK_WINDOW (widget));
  return TRUE;
}

/* F5, as in the playground window, which follows (their properties are
 * bound both ways). */
static gboolean
toggle_projector (GtkWidget *widget,
                  GVariant  *args,
                  gpointer   user_data)
{
  SluiceCompareWindow *self = SLUICE_COMPARE_WINDOW (widget);

  sluice_compare_window_set_projector (self, !self->projector);
  return TRUE;
}

static void
add_keys (SluiceCompareWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (scrub_keys); i++)
    gtk_shortcut_controller_add_shortcut (shortcuts,
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (scrub_keys[i].trigger),
                                                            gtk_callback_action_new (activate_scrub_key,
                                                                                     (gpointer) scrub_keys[i].action,
                                                                                     NULL)));
  gtk_shortcut_controller_add_shortcut (shortcuts,
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("Escape|<Control>w"),
                                                          gtk_callback_action_new (close_window, NULL, NULL)));
  gtk_shortcut_controller_add_shortcut (shortcuts,
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("F5"),
                                                          gtk_callback_action_new (toggle_projector, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/* ---- public ------------------------------------------------------------- */

/**
 * sluice_compare_window_new:
 * @parent: the playground window it belongs to
 * @comparison: a #SluiceComparison that has not run
 *
 * Opens a window that runs @comparison on the virtual clock at once and
 * shows both runs and their difference.
 *
 * Returns: (transfer none): the window, shown
 */
SluiceCompareWindow *
sluice_compare_window_new (GtkWindow        *parent,
                           SluiceComparison *comparison)
{
  SluiceCompareWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SLUICE_IS_COMPARISON (comparison), NULL);

  self = g_object_new (SLUICE_TYPE_COMPARE_WINDOW,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       "application", parent != NULL ? gtk_window_get_application (parent) : NULL,
                       NULL);
  self->comparison = g_object_ref (comparison);
  set_headings (self);
  update_bounds (self);
  start (self);
  gtk_window_present (GTK_WINDOW (self));
  return self;
}

/**
 * sluice_compare_window_get_comparison:
 * @self: a #SluiceCompareWindow
 *
 * Returns: (transfer none): the comparison it runs and shows
 */
SluiceComparison *
sluice_compare_window_get_comparison (SluiceCompareWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  return self->comparison;
}

/**
 * sluice_compare_window_get_running:
 * @self: a #SluiceCompareWindow
 *
 * Returns: whether A or B still runs
 */
gboolean
sluice_compare_window_get_running (SluiceCompareWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), FALSE);
  return self->running;
}

/**
 * sluice_compare_window_get_status:
 * @self: a #SluiceCompareWindow
 *
 * Returns: the line under the table: what runs, or how it ended
 */
const char *
sluice_compare_window_get_status (SluiceCompareWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  return gtk_label_get_text (self->status_label);
}

/**
 * sluice_compare_window_get_cell:
 * @self: a #SluiceCompareWindow
 * @row: which row of the difference table
 * @column: which column
 *
 * Returns: the cell's text as sluice_comparison_dup_rows() gives it, the
 *   one `sluice-run --compare` prints (the table shows a minus sign, −,
 *   for a number's leading hyphen); empty until both runs ended
 */
const char *
sluice_compare_window_get_cell (SluiceCompareWindow     *self,
                                SluiceComparisonRowKind  row,
                                SluiceCompareColumn      column)
{
  const SluiceComparisonRow *cells;

  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  g_return_val_if_fail (row < SLUICE_COMPARISON_N_ROWS && column < N_COLUMNS, NULL);

  if (self->rows == NULL || row >= self->rows->len)
    return "";
  cells = g_ptr_array_index (self->rows, row);
  switch (column)
    {
    case SLUICE_COMPARE_COLUMN_NAME:
      return cells->name;
    case SLUICE_COMPARE_COLUMN_A:
      return cells->a;
    case SLUICE_COMPARE_COLUMN_B:
      return cells->b;
    case SLUICE_COMPARE_COLUMN_DIFFERENCE:
    default:
      return cells->difference;
    }
}

/**
 * sluice_compare_window_get_heading:
 * @self: a #SluiceCompareWindow
 * @side: which run
 *
 * Returns: the heading over the side's chart and lanes
 */
const char *
sluice_compare_window_get_heading (SluiceCompareWindow  *self,
                                   SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  g_return_val_if_fail (side < N_SIDES, NULL);
  return gtk_label_get_text (self->headings[side]);
}

/**
 * sluice_compare_window_get_viewport:
 * @self: a #SluiceCompareWindow
 *
 * Returns: (transfer none): the time axis and playhead the four views share
 */
SluiceViewport *
sluice_compare_window_get_viewport (SluiceCompareWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  return self->viewport;
}

/**
 * sluice_compare_window_get_scrubber:
 * @self: a #SluiceCompareWindow
 *
 * Returns: (transfer none): the #SluiceScrubber under the views
 */
GtkWidget *
sluice_compare_window_get_scrubber (SluiceCompareWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  return GTK_WIDGET (self->scrubber);
}

/**
 * sluice_compare_window_get_chart_view:
 * @self: a #SluiceCompareWindow
 * @side: which run
 *
 * Returns: (transfer none): the side's #SluiceChartView
 */
GtkWidget *
sluice_compare_window_get_chart_view (SluiceCompareWindow  *self,
                                      SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  g_return_val_if_fail (side < N_SIDES, NULL);
  return GTK_WIDGET (self->charts[side]);
}

/**
 * sluice_compare_window_get_timeline_view:
 * @self: a #SluiceCompareWindow
 * @side: which run
 *
 * Returns: (transfer none): the side's #SluiceTimelineView
 */
GtkWidget *
sluice_compare_window_get_timeline_view (SluiceCompareWindow  *self,
                                         SluiceComparisonSide  side)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), NULL);
  g_return_val_if_fail (side < N_SIDES, NULL);
  return GTK_WIDGET (self->lanes[side]);
}

/* ---- GObject ------------------------------------------------------------ */

static void
sluice_compare_window_dispose (GObject *object)
{
  SluiceCompareWindow *self = SLUICE_COMPARE_WINDOW (object);

  /* A run going on ends at once; its callback finds the window gone. */
  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_COMPARE_WINDOW);
  if (self->comparison != NULL)
    g_signal_handlers_disconnect_by_data (self->comparison, self);
  g_clear_object (&self->comparison);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_object (&self->viewport);
  for (guint side = 0; side < N_SIDES; side++)
    g_clear_object (&self->models[side]);

  G_OBJECT_CLASS (sluice_compare_window_parent_class)->dispose (object);
}

static void
sluice_compare_window_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  SluiceCompareWindow *self = SLUICE_COMPARE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECTOR:
      g_value_set_boolean (value, self->projector);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_compare_window_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  SluiceCompareWindow *self = SLUICE_COMPARE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_PROJECTOR:
      sluice_compare_window_set_projector (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_compare_window_class_init (SluiceCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_compare_window_dispose;
  object_class->get_property = sluice_compare_window_get_property;
  object_class->set_property = sluice_compare_window_set_property;

  /**
   * SluiceCompareWindow:projector:
   *
   * Whether the window is in projector mode, as #SluiceWindow:projector:
   * its text larger, its chart and lanes larger in the high-contrast
   * palette.
   */
  properties[PROP_PROJECTOR] =
    g_param_spec_boolean ("projector", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SLUICE_TYPE_CHART_VIEW);
  g_type_ensure (SLUICE_TYPE_TIMELINE_VIEW);
  g_type_ensure (SLUICE_TYPE_SCRUBBER);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/sluicepool/Sluice/sluice-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, a_heading);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, b_heading);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, a_chart);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, b_chart);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, a_lanes);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, b_lanes);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, scrubber);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, table);
  gtk_widget_class_bind_template_child (widget_class, SluiceCompareWindow, status_label);
}

static void
sluice_compare_window_init (SluiceCompareWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
  self->headings[SLUICE_COMPARISON_A] = self->a_heading;
  self->headings[SLUICE_COMPARISON_B] = self->b_heading;
  self->charts[SLUICE_COMPARISON_A] = self->a_chart;
  self->charts[SLUICE_COMPARISON_B] = self->b_chart;
  self->lanes[SLUICE_COMPARISON_A] = self->a_lanes;
  self->lanes[SLUICE_COMPARISON_B] = self->b_lanes;

  self->cancellable = g_cancellable_new ();
  self->viewport = sluice_viewport_new ();
  for (guint side = 0; side < N_SIDES; side++)
    {
      sluice_time_view_set_viewport (SLUICE_TIME_VIEW (self->charts[side]), self->viewport);
      sluice_time_view_set_viewport (SLUICE_TIME_VIEW (self->lanes[side]), self->viewport);
    }
  sluice_scrubber_set_viewport (self->scrubber, self->viewport);
  create_table (self);
  add_keys (self);
  set_status (self, NULL);
}

/**
 * sluice_compare_window_get_projector:
 * @self: a #SluiceCompareWindow
 *
 * Returns: whether the window is in projector mode
 */
gboolean
sluice_compare_window_get_projector (SluiceCompareWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_COMPARE_WINDOW (self), FALSE);
  return self->projector;
}

/**
 * sluice_compare_window_set_projector:
 * @self: a #SluiceCompareWindow
 * @projector: whether to show the runs for a projector
 *
 * Sets #SluiceCompareWindow:projector: the `projector` CSS class on the
 * window (its text %SLUICE_RENDER_PROJECTOR_SCALE times larger) and
 * #SluiceTimeView:projector on its four views.
 */
void
sluice_compare_window_set_projector (SluiceCompareWindow *self,
                                     gboolean             projector)
{
  g_return_if_fail (SLUICE_IS_COMPARE_WINDOW (self));

  if (!sluice_window_switch_projector (GTK_WIDGET (self), &self->projector, projector))
    return;
  /* The table, 1.6 times wider, would leave the runs a strip: it goes
   * under them, and they get the window's width. */
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_window_get_child (GTK_WINDOW (self))),
                                  projector ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL);
  for (guint side = 0; side < N_SIDES; side++)
    {
      sluice_time_view_set_projector (SLUICE_TIME_VIEW (self->charts[side]), projector);
      sluice_time_view_set_projector (SLUICE_TIME_VIEW (self->lanes[side]), projector);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECTOR]);
}
