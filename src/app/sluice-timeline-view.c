/* sluice-timeline-view.c: one lane per worker, drawn by src/render
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sluice-fault-handler.h"
#include "sluice-render-timeline.h"
#include "sluice-timeline-view.h"

/**
 * SluiceTimelineView:
 *
 * The worker lanes: each attempt is a bar from its start to its end, and
 * the retry policy's marks sit between and beside them (a backoff's
 * bracket, a skipped retry, a shed item). A tooltip tells the attempt or
 * mark under the pointer (item, its value and behaviour, attempt, start,
 * duration, deadline, cancel requests, outcome, a late result thrown
 * away, error; the wait and why); a click selects its item, whose attempts the
 * renderer highlights in every lane. #SluiceTimelineView:selected-item is
 * -1 when nothing is selected. The model, the "now" line, the viewport,
 * the playhead and clicks are #SluiceTimeView's.
 */

#define LANE_HEIGHT 26

struct _SluiceTimelineView
{
  SluiceTimeView  parent_instance;

  SluiceFaultHandler *handler;  /* the run's, for each item's behaviour, or NULL */
  SluiceTimeline *sizing;   /* empty, with the lanes of the last model */
  guint           n_lanes;
  int             content_height;  /* the least: 3 to 12 lanes, as many as n_lanes */
  gint64          selected_item;
};

G_DEFINE_FINAL_TYPE (SluiceTimelineView, sluice_timeline_view, SLUICE_TYPE_TIME_VIEW)

enum {
  PROP_0,
  PROP_SELECTED_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];


static void
sluice_timeline_view_draw (SluiceTimeView *view,
                           cairo_t        *cr,
                           double          width,
                           double          height)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (view);
  SluiceRenderFrame frame = sluice_time_view_get_render_frame (view, width, height);

  sluice_render_timeline (cr, sluice_time_view_get_model (view), &frame, self->selected_item);
}

static void
sluice_timeline_view_get_plot (SluiceTimeView    *view,
                               double             width,
                               double             height,
                               cairo_rectangle_t *plot)
{
  sluice_render_timeline_get_plot (sluice_time_view_get_model (view), width, height, plot);
}

typedef gboolean (*HitFunc) (SluiceTimeline          *model,
                             const SluiceRenderFrame *frame,
                             double                   x,
                             double                   y,
                             guint                   *index);

/* What is under a point (in the render layer's units): a mark (drawn on
 * top) or else a bar. */
static gboolean
hit (SluiceTimelineView *self,
     double              x,
     double              y,
     gboolean           *is_mark,
     guint              *index)
{
  static const HitFunc funcs[] = { sluice_render_timeline_hit_mark, sluice_render_timeline_hit };
  SluiceTimeline *model = sluice_time_view_get_model (SLUICE_TIME_VIEW (self));
  SluiceViewport *viewport = sluice_time_view_get_viewport (SLUICE_TIME_VIEW (self));
  SluiceRenderFrame frame;
  double width, height;

  if (model == NULL || viewport == NULL)
    return FALSE;

  sluice_time_view_get_size (SLUICE_TIME_VIEW (self), &width, &height);
  frame = sluice_time_view_get_render_frame (SLUICE_TIME_VIEW (self), width, height);
  for (guint i = 0; i < G_N_ELEMENTS (funcs); i++)
    if (funcs[i] (model, &frame, x, y, index))
      {
        *is_mark = i == 0;
        return TRUE;
      }

  return FALSE;
}

static const char *
outcome_label (const SluiceTimelineBar *bar)
{
  if (bar->end < 0)
    return _("running");

  switch (bar->outcome)
    {
    case SLUICE_OUTCOME_OK:
      return _("ok");
    case SLUICE_OUTCOME_FAILED:
      return bar->retried ? _("failed, retried") : _("failed for good");
    case SLUICE_OUTCOME_TIMED_OUT:
      return bar->retried ? _("timed out, retried") : _("timed out");
    case SLUICE_OUTCOME_CANCELLED:
      return _("cancelled");
    case SLUICE_OUTCOME_NONE:
    default:
      return _("unknown");
    }
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (widget);
  double scale = sluice_time_view_get_scale (SLUICE_TIME_VIEW (self));
  g_autofree char *text = NULL;
  gboolean is_mark;
  guint index;

  if (keyboard_mode || !hit (self, x / scale, y / scale, &is_mark, &index))
    return FALSE;

  text = is_mark ? sluice_timeline_view_describe_mark (self, index)
                 : sluice_timeline_view_describe_bar (self, index);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* The playhead goes to where the attempt (or the mark) under the click
 * starts. */
static gboolean
sluice_timeline_view_pick (SluiceTimeView *view,
                           double          x,
                           double          y,
                           gint64         *time)
{
  SluiceTimeline *model = sluice_time_view_get_model (view);
  gboolean is_mark;
  guint index;

  if (!hit (SLUICE_TIMELINE_VIEW (view), x, y, &is_mark, &index))
    return FALSE;

  *time = is_mark ? sluice_timeline_get_mark (model, index)->start : sluice_timeline_get_bar (model, index)->start;
  return TRUE;
}

/* A click selects the item of the attempt (or the mark) under it. */
static void
sluice_timeline_view_clicked (SluiceTimeView *view,
                              double          x,
                              double          y)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (view);
  SluiceTimeline *model = sluice_time_view_get_model (view);
  gboolean is_mark;
  guint index;
  gint64 item = -1;

  if (hit (self, x, y, &is_mark, &index))
    item = is_mark ? sluice_timeline_get_mark (model, index)->item : sluice_timeline_get_bar (model, index)->item;

  /* Clicking the selected item again clears the selection. */
  sluice_timeline_view_set_selected_item (self, item == self->selected_item ? -1 : item);
}

/* A lane per worker, and room for 3 to 12 of them. */
static void
set_n_lanes (SluiceTimelineView *self,
             guint               n_lanes)
{
  int content_height = (int) MIN (MAX (n_lanes, 3u), 12u) * LANE_HEIGHT + 24;

  self->n_lanes = n_lanes;
  if (self->content_height == content_height)
    return;

  self->content_height = content_height;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* Another run: its workers' lanes, sized as an empty run with as many;
 * nothing selected. */
static void
sluice_timeline_view_model_changed (SluiceTimeView *view)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (view);
  SluiceTimeline *model = sluice_time_view_get_model (view);

  if (model != NULL && sluice_timeline_get_n_workers (model) != sluice_timeline_get_n_workers (self->sizing))
    {
      g_object_unref (self->sizing);
      self->sizing = sluice_timeline_new (sluice_timeline_get_n_workers (model));
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  set_n_lanes (self, model != NULL ? sluice_timeline_get_n_workers (model) : 0);
  sluice_timeline_view_set_selected_item (self, -1);
}

static void
sluice_timeline_view_dispose (GObject *object)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (object);

  g_clear_object (&self->handler);
  g_clear_object (&self->sizing);

  G_OBJECT_CLASS (sluice_timeline_view_parent_class)->dispose (object);
}

static void
sluice_timeline_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ITEM:
      g_value_set_int64 (value, self->selected_item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_timeline_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SELECTED_ITEM:
      sluice_timeline_view_set_selected_item (self, g_value_get_int64 (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GtkSizeRequestMode
sluice_timeline_view_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

/* At least up to four lanes, each named and its bars labelled (more lanes
 * share that room), below the key as it wraps (no more rows than in a
 * narrow view, so that a narrow window does not ask for a taller one); at best every lane at its full height, which the
 * renderer draws no taller: the window gives the queue chart what the
 * lanes cannot use. The natural height is that of an empty run with the
 * last run's workers, so that the layout does not jump when a run starts
 * or is reset; a key that grows a row for the retry policy's marks costs
 * the lanes a few pixels. */
static void
sluice_timeline_view_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  SluiceTimelineView *self = SLUICE_TIMELINE_VIEW (widget);
  double scale = sluice_time_view_get_scale (SLUICE_TIME_VIEW (self));
  double width = for_size > 0 ? for_size / scale : -1.;

  GTK_WIDGET_CLASS (sluice_timeline_view_parent_class)->measure (widget, orientation, for_size, minimum, natural,
                                                                 minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_VERTICAL)
    {
      /* In projector mode 26 pixels a lane would be 16 of the render
       * layer's, less than its own least: the render layer's minimum
       * alone, scaled, which leaves the window within 768 pixels. */
      if (scale == 1.)
        *minimum = MAX (*minimum, self->content_height);
      *minimum = MAX (*minimum, (int) ceil (scale * sluice_render_timeline_get_minimum_height_for_width (self->sizing,
                                                                                                         width)));
      *natural = MAX (*natural, self->content_height);
      if (for_size > 0)
        *natural = MAX (*natural,
                        (int) ceil (scale * sluice_render_timeline_get_natural_height_for_width (self->sizing, width)));
    }
  *natural = MAX (*natural, *minimum);
}

static void
sluice_timeline_view_class_init (SluiceTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SluiceTimeViewClass *view_class = SLUICE_TIME_VIEW_CLASS (klass);

  object_class->dispose = sluice_timeline_view_dispose;
  object_class->get_property = sluice_timeline_view_get_property;
  object_class->set_property = sluice_timeline_view_set_property;
  widget_class->get_request_mode = sluice_timeline_view_get_request_mode;
  widget_class->measure = sluice_timeline_view_measure;
  view_class->draw = sluice_timeline_view_draw;
  view_class->get_plot = sluice_timeline_view_get_plot;
  view_class->pick = sluice_timeline_view_pick;
  view_class->clicked = sluice_timeline_view_clicked;
  view_class->model_changed = sluice_timeline_view_model_changed;

  /**
   * SluiceTimelineView:selected-item:
   *
   * The item whose attempts are highlighted, or -1.
   */
  properties[PROP_SELECTED_ITEM] =
    g_param_spec_int64 ("selected-item", NULL, NULL, -1, G_MAXINT64, -1,
                        G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timelineview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
sluice_timeline_view_init (SluiceTimelineView *self)
{
  self->selected_item = -1;
  self->sizing = sluice_timeline_new (3);
  set_n_lanes (self, 0);

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  /* Focus here leaves Space, → and +/− to the window's shortcuts. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Worker lanes"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  _("One row per worker; each attempt is a bar coloured by its outcome. "
                                    "Ctrl+scroll zooms, dragging pans, Ctrl+0 shows the whole run."),
                                  -1);
}

/**
 * sluice_timeline_view_new:
 *
 * Returns: (transfer full): a new timeline view
 */
GtkWidget *
sluice_timeline_view_new (void)
{
  return g_object_new (SLUICE_TYPE_TIMELINE_VIEW, NULL);
}

/**
 * sluice_timeline_view_set_model:
 * @self: a #SluiceTimelineView
 * @model: (nullable): the run's timeline
 * @n_lanes: its number of workers
 *
 * Draws @model from now on, and clears the selection. Setting
 * #SluiceTimeView:model does the same, with a lane per worker of @model.
 */
void
sluice_timeline_view_set_model (SluiceTimelineView *self,
                                SluiceTimeline     *model,
                                guint               n_lanes)
{
  g_return_if_fail (SLUICE_IS_TIMELINE_VIEW (self));

  sluice_time_view_set_model (SLUICE_TIME_VIEW (self), model);
  set_n_lanes (self, n_lanes);
  sluice_timeline_view_set_selected_item (self, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * sluice_timeline_view_get_model:
 * @self: a #SluiceTimelineView
 *
 * Returns: (transfer none) (nullable): the run's timeline it draws
 */
SluiceTimeline *
sluice_timeline_view_get_model (SluiceTimelineView *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (self), NULL);
  return sluice_time_view_get_model (SLUICE_TIME_VIEW (self));
}

/**
 * sluice_timeline_view_set_handler:
 * @self: a #SluiceTimelineView
 * @handler: (nullable): the run's handler, or %NULL when there is none
 *   (another program's run)
 *
 * Tells the view whom to ask for an item's behaviour, for the tooltips:
 * the handler decided it (the item's own, a draw from the mix, a job's).
 */
void
sluice_timeline_view_set_handler (SluiceTimelineView *self,
                                  SluiceFaultHandler *handler)
{
  g_return_if_fail (SLUICE_IS_TIMELINE_VIEW (self));
  g_return_if_fail (handler == NULL || SLUICE_IS_FAULT_HANDLER (handler));

  g_set_object (&self->handler, handler);
}

/**
 * sluice_timeline_view_get_n_lanes:
 * @self: a #SluiceTimelineView
 *
 * Returns: how many lanes it draws (one per worker)
 */
guint
sluice_timeline_view_get_n_lanes (SluiceTimelineView *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (self), 0);
  return sluice_time_view_get_model (SLUICE_TIME_VIEW (self)) != NULL ? self->n_lanes : 0;
}

/**
 * sluice_timeline_view_get_selected_item:
 * @self: a #SluiceTimelineView
 *
 * Returns: the selected item, or -1
 */
gint64
sluice_timeline_view_get_selected_item (SluiceTimelineView *self)
{
  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (self), -1);
  return self->selected_item;
}

/**
 * sluice_timeline_view_set_selected_item:
 * @self: a #SluiceTimelineView
 * @item: an item index, or -1
 *
 * Highlights every attempt of @item.
 */
void
sluice_timeline_view_set_selected_item (SluiceTimelineView *self,
                                        gint64              item)
{
  g_return_if_fail (SLUICE_IS_TIMELINE_VIEW (self));

  item = MAX (item, -1);
  if (self->selected_item == item)
    return;

  self->selected_item = item;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_ITEM]);
}

static void
append_line (GString    *text,
             const char *line)
{
  g_string_append_c (text, '\n');
  g_string_append (text, line);
}

/* What the scenario says the handler does with the item, in the scenario
 * file's own words ("late 45"), as the handler decided it. */
static void
append_item_lines (SluiceTimelineView      *self,
                   const SluiceTimelineBar *bar,
                   GString                 *text)
{
  const SluiceBehaviour *behaviour = self->handler != NULL && bar->item >= 0
                                       ? sluice_fault_handler_get_behaviour (self->handler, bar->item)
                                       : NULL;

  if (bar->value != NULL)
    {
      /* Translators: an attempt's tooltip: the item's value, as pulled */
      g_autofree char *line = g_strdup_printf (_("Value: %s"), bar->value);
      append_line (text, line);
    }
  if (behaviour != NULL)
    {
      g_autofree char *words = sluice_behaviour_to_string (behaviour);
      /* Translators: an attempt's tooltip: what the scenario's handler
       * does with the item, in the scenario file's syntax (“late 45”) */
      g_autofree char *line = g_strdup_printf (_("Behaviour: %s"), words);
      append_line (text, line);
    }
}

/* When the attempt would time out, and when the pool asked it to stop. */
static void
append_deadline_lines (const SluiceTimelineBar *bar,
                       GString                 *text)
{
  if (bar->deadline >= 0)
    {
      /* Translators: an attempt's tooltip: when it times out, in seconds
       * on the pool's clock */
      g_autofree char *line = g_strdup_printf (_("Deadline at %.3f s"), (double) bar->deadline / G_USEC_PER_SEC);
      append_line (text, line);
    }
  if (bar->n_rounds > 0)
    {
      g_autoptr(GString) times = g_string_new (NULL);
      g_autofree char *line = NULL;

      for (guint r = 0; r < bar->n_rounds; r++)
        /* Translators: one time in the list of an attempt's cancel
         * requests, in seconds */
        g_string_append_printf (times, r == 0 ? _("%.3f s") : _(", %.3f s"),
                                (double) bar->round_times[r] / G_USEC_PER_SEC);
      /* Translators: an attempt's tooltip: %s lists when the pool asked
       * the attempt to stop, such as “10.000 s, 20.000 s” */
      line = g_strdup_printf (_("Asked to stop at %s"), times->str);
      append_line (text, line);
    }
}

/**
 * sluice_timeline_view_describe_bar:
 * @self: a #SluiceTimelineView
 * @bar_index: a bar of the model
 *
 * Returns: (transfer full): the tooltip of the bar: item, its value and
 *   behaviour, attempt, start, duration, deadline, cancel requests,
 *   outcome, whether a late result was thrown away, and error
 */
char *
sluice_timeline_view_describe_bar (SluiceTimelineView *self,
                                   guint               bar_index)
{
  SluiceTimeline *model;
  const SluiceTimelineBar *bar;
  g_autofree char *item = NULL;
  GString *text;
  gint64 end;

  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (self), NULL);
  model = sluice_time_view_get_model (SLUICE_TIME_VIEW (self));
  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (bar_index < sluice_timeline_get_n_bars (model), NULL);

  bar = sluice_timeline_get_bar (model, bar_index);
  end = bar->end >= 0 ? bar->end : sluice_time_view_get_now (SLUICE_TIME_VIEW (self));
  text = g_string_new (NULL);

  item = g_strdup_printf ("%" G_GINT64_FORMAT, bar->item);
  g_string_append_printf (text, _("Item %s, attempt %u (worker %d)"), item, bar->attempt, bar->worker);
  append_item_lines (self, bar, text);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Started at %.3f s, ran %.3f s"),
                          (double) bar->start / G_USEC_PER_SEC,
                          (double) MAX (end - bar->start, 0) / G_USEC_PER_SEC);
  append_deadline_lines (bar, text);
  g_string_append_c (text, '\n');
  g_string_append_printf (text, _("Outcome: %s"), outcome_label (bar));
  if (bar->late_result)
    /* Translators: an attempt's tooltip: the handler returned a value
     * after the attempt had timed out, and the pool threw it away */
    append_line (text, _("Result discarded (late): it came after the attempt had timed out"));
  if (bar->error_type != NULL)
    {
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Error: %s: %s"), bar->error_type,
                              bar->error_message ? bar->error_message : "");
    }

  return g_string_free (text, FALSE);
}

/**
 * sluice_timeline_view_describe_mark:
 * @self: a #SluiceTimelineView
 * @mark_index: a mark of the model
 *
 * Returns: (transfer full): the tooltip of a retry-policy mark: a
 *   backoff's wait and the attempt it comes before, a skipped retry and
 *   why, or a shed item
 */
char *
sluice_timeline_view_describe_mark (SluiceTimelineView *self,
                                    guint               mark_index)
{
  SluiceTimeline *model;
  const SluiceTimelineMark *mark;
  g_autofree char *item = NULL;
  GString *text;

  g_return_val_if_fail (SLUICE_IS_TIMELINE_VIEW (self), NULL);
  model = sluice_time_view_get_model (SLUICE_TIME_VIEW (self));
  g_return_val_if_fail (model != NULL, NULL);
  g_return_val_if_fail (mark_index < sluice_timeline_get_n_marks (model), NULL);

  mark = sluice_timeline_get_mark (model, mark_index);
  text = g_string_new (NULL);
  /* The index is formatted first: xgettext cannot read a msgid with
   * G_GINT64_FORMAT in it. */
  item = g_strdup_printf ("%" G_GINT64_FORMAT, mark->item);

  switch (mark->kind)
    {
    case SLUICE_TIMELINE_MARK_BACKOFF:
      /* Translators: the tooltip of a backoff in the lanes: the wait in
       * seconds, the next attempt's number and the item's index */
      g_string_append_printf (text, _("Backoff %.3f s before attempt %u of item %s"),
                              (double) mark->delay / G_USEC_PER_SEC, mark->attempt + 1, item);
      g_string_append_c (text, '\n');
      /* Translators: the tooltip of a backoff: the worker and the wait's
       * start and end on the pool's clock, in seconds */
      g_string_append_printf (text, _("Worker %d waits from %.3f s to %.3f s"), mark->worker,
                              (double) mark->start / G_USEC_PER_SEC,
                              (double) (mark->start + MAX (mark->delay, 0)) / G_USEC_PER_SEC);
      if (mark->cut_short)
        {
          g_string_append_c (text, '\n');
          /* Translators: the tooltip of a backoff that a cancellation ended */
          g_string_append_printf (text, _("Cancelled at %.3f s: no attempt follows"),
                                  (double) mark->end / G_USEC_PER_SEC);
        }
      break;

    case SLUICE_TIMELINE_MARK_RETRY_SKIPPED:
      /* Translators: the tooltip of a skipped retry: the item's index, and
       * the number of the attempt whose error it failed with */
      g_string_append_printf (text, _("Retry of item %s skipped after attempt %u"), item, mark->attempt);
      g_string_append_c (text, '\n');
      if (g_strcmp0 (mark->reason, "budget") == 0)
        g_string_append (text, _("The retry budget was half empty or worse. The item failed for good with that attempt’s error."));
      else if (mark->delay < 0)
        g_string_append (text, _("No time was left before the item’s deadline. The item failed for good with that attempt’s error."));
      else
        /* Translators: %.3f is the wait drawn for the retry, in seconds */
        g_string_append_printf (text, _("Its %.3f s wait would have ended past the item’s deadline. "
                                        "The item failed for good with that attempt’s error."),
                                (double) MAX (mark->delay, 0) / G_USEC_PER_SEC);
      break;

    case SLUICE_TIMELINE_MARK_SHED:
    default:
      /* Translators: the tooltip of a shed item: its index and when */
      g_string_append_printf (text, _("Item %s shed at %.3f s"), item, (double) mark->start / G_USEC_PER_SEC);
      g_string_append_c (text, '\n');
      g_string_append_printf (text, _("Its deadline passed while it waited in the queue: worker %d dropped it "
                                      "without calling the handler, and it failed with "
                                      "TimeoutError('deadline exceeded')."), mark->worker);
      break;
    }

  return g_string_free (text, FALSE);
}
