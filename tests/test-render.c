/* test-render.c: the render layer, drawn to image surfaces without a display
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A known run (hand-made events, or a preset on the virtual clock) is drawn
 * and pixels are read back at coordinates computed from the views' layouts:
 * the bar colour where an attempt ran, the background where none did,
 * hatching on a retried attempt, the "now" line, the series and limits of
 * the chart.
 */

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <math.h>

#include "run-fixture.h"
#include "sluice-palette.h"
#include "sluice-render-chart.h"
#include "sluice-render-chart-private.h"
#include "sluice-render-export.h"
#include "sluice-render-private.h"
#include "sluice-render-timeline.h"
#include "sluice-timeline.h"
#include "pixel-fixture.h"
#include "test-helpers.h"

#define S(seconds) sluice_time_from_seconds (seconds)

/* ---- a known run --------------------------------------------------------- */

typedef struct {
  SluiceEventKind kind;
  double          time;
  gint64          item;
  guint           attempt;
  gint            worker;
  guint           round;
  SluiceOutcome   outcome;
  gboolean        retried;
  guint           queued, in_flight, lead;
  double          timeout;  /* attempt and run starts: seconds to the
                             * deadline, the item timeout; 0 for none */
} Step;

/* Two workers. Item 0 succeeds (0–2 s, worker 0). Item 1 fails at 1 s and
 * is retried, then succeeds (1–3 s, worker 1). Item 2 times out at its 1 s
 * deadline (2–3 s, worker 0) and fails for good. The run ends at 4 s. */
static const Step known_run[] = {
  { SLUICE_EVENT_RUN_START,      0, -1, 0, -1, 0, 0, 0,                       0, 0, 0, 1 },
  { SLUICE_EVENT_ATTEMPT_START,  0,  0, 1,  0, 0, 0, 0,                       0, 1, 1, 1 },
  { SLUICE_EVENT_ATTEMPT_START,  0,  1, 1,  1, 0, 0, 0,                       0, 2, 2, 1 },
  { SLUICE_EVENT_QUEUE_PUT,      0,  2, 0, -1, 0, 0, 0,                       1, 2, 3 },
  { SLUICE_EVENT_ATTEMPT_END,    1,  1, 1,  1, 0, SLUICE_OUTCOME_FAILED, TRUE, 1, 1, 3 },
  { SLUICE_EVENT_ATTEMPT_START,  1,  1, 2,  1, 0, 0, 0,                       1, 2, 3, 1 },
  { SLUICE_EVENT_ATTEMPT_END,    2,  0, 1,  0, 0, SLUICE_OUTCOME_OK, FALSE,   1, 1, 3 },
  { SLUICE_EVENT_ITEM_OK,        2,  0, 0,  0, 0, 0, 0,                       1, 1, 2 },
  { SLUICE_EVENT_ATTEMPT_START,  2,  2, 1,  0, 0, 0, 0,                       0, 2, 2, 1 },
  { SLUICE_EVENT_CANCEL_REQUEST, 3,  2, 1,  0, 1, 0, 0,                       0, 2, 2 },
  { SLUICE_EVENT_ATTEMPT_END,    3,  2, 1,  0, 1, SLUICE_OUTCOME_TIMED_OUT, FALSE, 0, 1, 2 },
  { SLUICE_EVENT_ITEM_FAILED,    3,  2, 0, -1, 0, 0, 0,                       0, 1, 2 },
  { SLUICE_EVENT_ATTEMPT_END,    3,  1, 2,  1, 0, SLUICE_OUTCOME_OK, FALSE,   0, 0, 2 },
  { SLUICE_EVENT_ITEM_OK,        3,  1, 0,  1, 0, 0, 0,                       0, 0, 1 },
  { SLUICE_EVENT_RUN_END,        4, -1, 0, -1, 0, 0, 0,                       0, 0, 1 },
};

#define KNOWN_QUEUE_SIZE 1
#define KNOWN_WORKERS    2
#define KNOWN_BOUND      (KNOWN_QUEUE_SIZE + KNOWN_WORKERS + 1)

/* The event of @step; an attempt that failed or timed out gets an error.
 * A run start with a timeout gives the known run's bounds. */
static SluiceEvent
step_event (const Step *step)
{
  SluiceEvent event = {
    .kind = step->kind,
    .time = S (step->time),
    .item = step->item,
    .attempt = step->attempt,
    .worker = step->worker,
    .round = step->round,
    .outcome = step->outcome,
    .retried = step->retried,
    .queued = step->queued,
    .in_flight = step->in_flight,
    .lead = step->lead,
    .delay = -1,
    .tokens = -1,
    .deadline = -1,
    .item_timeout = -1,
  };

  if (step->kind == SLUICE_EVENT_ATTEMPT_START && step->timeout > 0)
    event.deadline = S (step->time + step->timeout);
  if (step->kind == SLUICE_EVENT_RUN_START && step->timeout > 0)
    {
      event.queue_capacity = KNOWN_QUEUE_SIZE;
      event.lead_bound = KNOWN_BOUND;
      event.item_timeout = S (step->timeout);
    }

  if (step->outcome == SLUICE_OUTCOME_FAILED)
    {
      event.error_type = "ConnectionError";
      event.error_message = "attempt 1 failed";
    }
  else if (step->outcome == SLUICE_OUTCOME_TIMED_OUT)
    {
      event.error_type = "TimeoutError";
      event.error_message = "item timed out";
    }
  return event;
}

static void
add_step (SluiceRecorder *recorder,
          const Step     *step)
{
  SluiceEvent event = step_event (step);

  sluice_recorder_add (recorder, &event);
}

static SluiceRecorder *
record_known_run (void)
{
  SluiceRecorder *recorder = sluice_recorder_new (0);

  for (guint i = 0; i < G_N_ELEMENTS (known_run); i++)
    add_step (recorder, &known_run[i]);
  return recorder;
}

static SluiceTimeline *
known_timeline (void)
{
  g_autoptr(SluiceRecorder) recorder = record_known_run ();
  SluiceTimeline *model = sluice_timeline_new (KNOWN_WORKERS);

  sluice_timeline_update (model, recorder);
  return model;
}

/* ---- pixels -------------------------------------------------------------- */

static cairo_surface_t *
new_surface (double width,
             double height)
{
  return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
}

/* @color drawn with @alpha over @background. */
static SluiceColor
blend (const SluiceColor *color,
       const SluiceColor *background,
       double             alpha)
{
  return (SluiceColor) {
    color->red * alpha + background->red * (1. - alpha),
    color->green * alpha + background->green * (1. - alpha),
    color->blue * alpha + background->blue * (1. - alpha),
    1.,
  };
}

static void
assert_pixel (cairo_surface_t   *surface,
              double             x,
              double             y,
              const SluiceColor *expected,
              const char        *what)
{
  SluiceColor actual;

  pixel_fixture_get (surface, (int) floor (x), (int) floor (y), &actual);
  if (!pixel_fixture_color_near (&actual, expected, 3. / 255.))
    g_error ("%s at (%d, %d): expected #%02x%02x%02x, got #%02x%02x%02x", what,
             (int) floor (x), (int) floor (y),
             (int) round (expected->red * 255), (int) round (expected->green * 255),
             (int) round (expected->blue * 255), (int) round (actual.red * 255),
             (int) round (actual.green * 255), (int) round (actual.blue * 255));
}

/* ---- the model ----------------------------------------------------------- */

static void
test_timeline_model (void)
{
  g_autoptr(SluiceTimeline) model = known_timeline ();
  const SluiceTimelineBar *bar;
  gint64 time;
  guint queued, in_flight, lead;

  g_assert_cmpuint (sluice_timeline_get_n_workers (model), ==, 2);
  g_assert_cmpuint (sluice_timeline_get_n_bars (model), ==, 4);
  g_assert_cmpint (sluice_timeline_get_start_time (model), ==, 0);
  g_assert_cmpint (sluice_timeline_get_end_time (model), ==, S (4));

  bar = sluice_timeline_get_bar (model, 0);
  g_assert_cmpint (bar->item, ==, 0);
  g_assert_cmpint (bar->worker, ==, 0);
  g_assert_cmpint (bar->start, ==, 0);
  g_assert_cmpint (bar->end, ==, S (2));
  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_OK);
  g_assert_false (bar->retried);
  g_assert_false (bar->final_failure);

  bar = sluice_timeline_get_bar (model, 1);
  g_assert_cmpint (bar->item, ==, 1);
  g_assert_cmpuint (bar->attempt, ==, 1);
  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_FAILED);
  g_assert_true (bar->retried);
  g_assert_cmpstr (bar->error_type, ==, "ConnectionError");
  g_assert_cmpstr (bar->error_message, ==, "attempt 1 failed");

  bar = sluice_timeline_get_bar (model, 2);
  g_assert_cmpuint (bar->attempt, ==, 2);
  g_assert_cmpint (bar->start, ==, S (1));
  g_assert_cmpint (bar->end, ==, S (3));
  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_OK);
  g_assert_null (bar->error_type);

  bar = sluice_timeline_get_bar (model, 3);
  g_assert_cmpint (bar->item, ==, 2);
  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
  g_assert_true (bar->final_failure);
  g_assert_cmpuint (bar->n_rounds, ==, 1);
  g_assert_cmpint (bar->round_times[0], ==, S (3));
  g_assert_cmpint (bar->deadline, ==, S (3));

  /* Every attempt's deadline is the one its start event gave; the bounds
   * and the item timeout are the run start's. */
  g_assert_cmpint (sluice_timeline_get_bar (model, 0)->deadline, ==, S (1));
  g_assert_cmpint (sluice_timeline_get_bar (model, 2)->deadline, ==, S (2));
  g_assert_cmpint (sluice_timeline_get_item_timeout (model), ==, S (1));
  g_assert_cmpuint (sluice_timeline_get_queue_capacity (model), ==, KNOWN_QUEUE_SIZE);
  g_assert_cmpuint (sluice_timeline_get_lead_bound (model), ==, KNOWN_BOUND);

  /* One sample per instant at which the counts changed: the state after
   * all of that instant's events. */
  g_assert_cmpuint (sluice_timeline_get_n_samples (model), ==, 3);
  sluice_timeline_get_sample (model, 0, &time, &queued, &in_flight, &lead);
  g_assert_cmpint (time, ==, 0);
  g_assert_cmpuint (queued, ==, 1);
  g_assert_cmpuint (in_flight, ==, 2);
  g_assert_cmpuint (lead, ==, 3);
  sluice_timeline_get_sample (model, 1, &time, &queued, &in_flight, &lead);
  g_assert_cmpint (time, ==, S (2));
  g_assert_cmpuint (queued, ==, 0);
  g_assert_cmpuint (in_flight, ==, 2);
  g_assert_cmpuint (lead, ==, 2);
  sluice_timeline_get_sample (model, 2, &time, &queued, &in_flight, &lead);
  g_assert_cmpint (time, ==, S (3));
  g_assert_cmpuint (in_flight, ==, 0);
  g_assert_cmpuint (lead, ==, 1);

  g_assert_cmpuint (sluice_timeline_find_sample (model, S (2.5)), ==, 1);
  g_assert_cmpuint (sluice_timeline_find_sample (model, S (9)), ==, 2);

  sluice_timeline_clear (model);
  g_assert_cmpuint (sluice_timeline_get_n_bars (model), ==, 0);
  g_assert_cmpuint (sluice_timeline_get_n_samples (model), ==, 0);
  g_assert_cmpint (sluice_timeline_get_item_timeout (model), ==, -1);
  g_assert_cmpuint (sluice_timeline_get_lead_bound (model), ==, 0);
  g_assert_cmpuint (sluice_timeline_get_n_workers (model), ==, 2);
}

/* Updating after every event, from a ring buffer that holds only a few,
 * builds the same model as one update at the end. */
static void
test_timeline_incremental (void)
{
  g_autoptr(SluiceTimeline) once = known_timeline ();
  g_autoptr(SluiceTimeline) model = sluice_timeline_new (0);
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (4);

  for (guint i = 0; i < G_N_ELEMENTS (known_run); i++)
    {
      add_step (recorder, &known_run[i]);
      sluice_timeline_update (model, recorder);
      /* Nothing new: nothing changes. */
      sluice_timeline_update (model, recorder);
    }

  g_assert_cmpuint (sluice_recorder_get_n_dropped (recorder), >, 0);
  g_assert_cmpuint (sluice_timeline_get_n_workers (model), ==, 2);
  g_assert_cmpuint (sluice_timeline_get_n_bars (model), ==, sluice_timeline_get_n_bars (once));
  g_assert_cmpuint (sluice_timeline_get_n_samples (model), ==, sluice_timeline_get_n_samples (once));
  for (guint i = 0; i < sluice_timeline_get_n_bars (once); i++)
    {
      const SluiceTimelineBar *a = sluice_timeline_get_bar (once, i);
      const SluiceTimelineBar *b = sluice_timeline_get_bar (model, i);

      g_assert_cmpint (a->item, ==, b->item);
      g_assert_cmpint (a->start, ==, b->start);
      g_assert_cmpint (a->end, ==, b->end);
      g_assert_cmpint (a->outcome, ==, b->outcome);
      g_assert_cmpint (a->deadline, ==, b->deadline);
      g_assert_cmpint (a->final_failure, ==, b->final_failure);
    }

  /* A cleared recorder is a new run: the model starts again. */
  sluice_recorder_clear (recorder);
  add_step (recorder, &known_run[0]);
  add_step (recorder, &known_run[1]);
  sluice_timeline_update (model, recorder);
  g_assert_cmpuint (sluice_timeline_get_n_bars (model), ==, 1);
  g_assert_cmpint (sluice_timeline_get_bar (model, 0)->end, ==, -1);
  g_assert_cmpint (sluice_timeline_get_bar (model, 0)->outcome, ==, SLUICE_OUTCOME_NONE);
}

/* ---- the palette --------------------------------------------------------- */

/* Every palette, light and dark, normal and high contrast (projector
 * mode), keeps text, bars' labels and lines readable. */
static void
test_palette_contrast (void)
{
  for (SluicePaletteFlags flags = 0; flags <= (SLUICE_PALETTE_DARK | SLUICE_PALETTE_HIGH_CONTRAST); flags++)
    {
      const SluicePalette *palette = sluice_palette_get (flags);
      const SluiceColor black = { 0, 0, 0, 1 };
      const SluiceColor *bars[] = {
        &palette->ok, &palette->retried, &palette->failed,
        &palette->timed_out, &palette->cancelled, &palette->running,
      };

      /* Text on the background. */
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->foreground, &palette->background), >=, 7.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->muted, &palette->background), >=, 4.5);
      /* The item labels are dark text on the bars. */
      for (guint i = 0; i < G_N_ELEMENTS (bars); i++)
        g_assert_cmpfloat (sluice_color_get_contrast (bars[i], &black), >=, 4.5);
      /* Lines and marks (non-text) need 3:1 against the background. */
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->queue, &palette->background), >=, 3.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->in_flight, &palette->background), >=, 3.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->waiting, &palette->background), >=, 3.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->now, &palette->background), >=, 3.);
      g_assert_cmpfloat (sluice_color_get_contrast (&palette->deadline, &palette->background), >=, 3.);
    }

  g_assert_cmpfloat (fabs (sluice_color_get_contrast (&(SluiceColor) { 0, 0, 0, 1 },
                                                      &(SluiceColor) { 1, 1, 1, 1 }) - 21.), <, 0.01);
}

/* ---- the lanes ----------------------------------------------------------- */

typedef struct {
  SluiceLanesLayout lanes;
  double width, height;
  gint64 t0, t1;
  SluiceRenderFrame frame;  /* the above, for hit testing */
} LanesGeometry;

static void
lanes_geometry_set_frame (LanesGeometry *g)
{
  g->frame = (SluiceRenderFrame) { g->width, g->height, g->t0, g->t1, -1, SLUICE_PALETTE_LIGHT };
}

static void
lanes_geometry (SluiceTimeline *model,
                LanesGeometry  *g)
{
  g->width = 600.;
  g->height = sluice_render_timeline_get_natural_height (model);
  g->t0 = 0;
  g->t1 = S (4);
  lanes_geometry_set_frame (g);
  _sluice_lanes_get_model_layout (model, g->width, g->height, &g->lanes);
}

static double
lanes_x (const LanesGeometry *g,
         double               seconds)
{
  return _sluice_render_time_to_x (&g->lanes.plot, g->t0, g->t1, S (seconds));
}

/* Near the top of a bar: clear of its label, which is centred. */
static double
bar_top_y (const LanesGeometry *g,
           gint                 worker)
{
  return g->lanes.plot.y + worker * g->lanes.lane_height + g->lanes.bar_inset + 2.;
}

static double
lane_middle_y (const LanesGeometry *g,
               gint                 worker)
{
  return g->lanes.plot.y + (worker + 0.5) * g->lanes.lane_height;
}

static void
test_lanes_pixels (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = known_timeline ();
  cairo_surface_t *surface;
  cairo_t *cr;
  LanesGeometry g;
  guint hatch = 0, plain = 0;
  gboolean clock_face = FALSE;

  lanes_geometry (model, &g);
  g_assert_cmpfloat (g.lanes.lane_height, >=, 20.);

  surface = new_surface (g.width, g.height);
  cr = cairo_create (surface);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { g.width, g.height, g.t0, g.t1, S (3.5), dark }, -1);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);

  /* Where an attempt ran: its outcome's colour. */
  assert_pixel (surface, lanes_x (&g, 1.5), bar_top_y (&g, 0), &palette->ok, "ok bar, item 0");
  assert_pixel (surface, lanes_x (&g, 2.5), bar_top_y (&g, 1), &palette->ok, "ok bar, item 1 attempt 2");
  assert_pixel (surface, lanes_x (&g, 2.2), bar_top_y (&g, 0), &palette->timed_out, "timed-out bar, item 2");

  /* Where none ran: the background (lane 0 is not shaded). */
  assert_pixel (surface, lanes_x (&g, 3.25), lane_middle_y (&g, 0), &palette->background, "idle lane");
  /* The gutter too. */
  assert_pixel (surface, 2., g.height - 2., &palette->background, "corner");

  /* The "now" line, two pixels wide, left of its rounded x. */
  assert_pixel (surface, round (lanes_x (&g, 3.5)) - 1., lane_middle_y (&g, 0), &palette->now, "now line");

  /* Hatching on the retried attempt: the bar's colour and darker stripes
   * along a row. */
  for (double x = lanes_x (&g, 0.) + 2.; x < lanes_x (&g, 1.) - 3.; x++)
    {
      SluiceColor c;

      pixel_fixture_get (surface, (int) x, (int) bar_top_y (&g, 1), &c);
      if (pixel_fixture_color_near (&c, &palette->retried, 3. / 255.))
        plain++;
      else if (sluice_color_get_luminance (&c) < sluice_color_get_luminance (&palette->retried) * 0.8)
        hatch++;
    }
  g_assert_cmpuint (plain, >, 10);
  g_assert_cmpuint (hatch, >, 10);

  /* The timed-out attempt carries a clock face (a light disc) near its end. */
  for (double x = lanes_x (&g, 3.) - 20.; x < lanes_x (&g, 3.); x++)
    for (double y = lane_middle_y (&g, 0) - 5.; y < lane_middle_y (&g, 0) + 5.; y++)
      {
        SluiceColor c;

        pixel_fixture_get (surface, (int) x, (int) y, &c);
        clock_face |= c.red > 0.85 && c.green > 0.85 && c.blue > 0.85;
      }
  g_assert_true (clock_face);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* A selected item keeps its colours; the other attempts fade. */
static void
test_lanes_selection (void)
{
  const SluicePalette *palette = sluice_palette_get (FALSE);
  g_autoptr(SluiceTimeline) model = known_timeline ();
  SluiceColor faded;
  cairo_surface_t *surface;
  cairo_t *cr;
  LanesGeometry g;

  lanes_geometry (model, &g);
  surface = new_surface (g.width, g.height);
  cr = cairo_create (surface);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { g.width, g.height, g.t0, g.t1, -1, FALSE }, 1);

  faded = blend (&palette->ok, &palette->background, 0.35);
  assert_pixel (surface, lanes_x (&g, 1.5), bar_top_y (&g, 0), &faded, "item 0, not selected");
  assert_pixel (surface, lanes_x (&g, 2.5), bar_top_y (&g, 1), &palette->ok, "item 1, selected");
  /* The selection outline, just above the bar. */
  assert_pixel (surface, lanes_x (&g, 2.5), bar_top_y (&g, 1) - 3., &palette->selection, "selection outline");

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

static void
test_lanes_hit (void)
{
  g_autoptr(SluiceTimeline) model = known_timeline ();
  LanesGeometry g;
  guint index = G_MAXUINT;

  lanes_geometry (model, &g);

#define HIT(seconds, worker) \
  sluice_render_timeline_hit (model, &g.frame, \
                              lanes_x (&g, seconds), lane_middle_y (&g, worker), &index)

  g_assert_true (HIT (1.5, 0));
  g_assert_cmpuint (index, ==, 0);
  g_assert_true (HIT (0.9, 1));
  g_assert_cmpuint (index, ==, 1);
  g_assert_true (HIT (2.0, 1));
  g_assert_cmpuint (index, ==, 2);
  g_assert_true (HIT (2.5, 0));
  g_assert_cmpuint (index, ==, 3);
  /* A pixel past a bar's end still hits it: thin bars stay hoverable. */
  g_assert_true (sluice_render_timeline_hit (model, &g.frame, lanes_x (&g, 3.) + 1.5, lane_middle_y (&g, 0), &index));
  g_assert_cmpuint (index, ==, 3);

  /* Nothing ran there; outside the lanes. */
  g_assert_false (HIT (3.5, 0));
  g_assert_false (sluice_render_timeline_hit (model, &g.frame, 10., lane_middle_y (&g, 0), NULL));
  g_assert_false (sluice_render_timeline_hit (model, &g.frame, lanes_x (&g, 1.), 2., NULL));
  g_assert_false (sluice_render_timeline_hit (model, &g.frame, lanes_x (&g, 1.), g.height - 1., NULL));

#undef HIT
}

/* The key above the lanes: every entry it shows lies inside the view's
 * width and above the lanes, no two overlap, and the rows run in order. */
static guint
assert_key_inside (const SluiceLanesLayout *lanes,
                   double                   width)
{
  double right = width - SLUICE_RENDER_MARGIN;
  guint n_shown = 0;

  g_assert_cmpuint (lanes->key_rows, >=, 1);
  g_assert_cmpfloat (lanes->plot.y, >=, lanes->key_height);
  for (guint i = 0; i < SLUICE_LANES_N_KEYS; i++)
    {
      const SluiceRect *a = &lanes->key[i];

      if (a->width <= 0.)
        continue;
      n_shown++;
      g_assert_cmpfloat (a->x, >=, lanes->plot.x);
      g_assert_cmpfloat (a->x + a->width, <=, right + 0.001);
      g_assert_cmpfloat (a->y, >=, 0.);
      g_assert_cmpfloat (a->y + a->height, <=, lanes->key_height);

      for (guint j = i + 1; j < SLUICE_LANES_N_KEYS; j++)
        {
          const SluiceRect *b = &lanes->key[j];

          if (b->width <= 0.)
            continue;
          /* Later entries come later: further right on the same row, or
           * on a row below. */
          if (b->y == a->y)
            g_assert_cmpfloat (b->x, >=, a->x + a->width);
          else
            g_assert_cmpfloat (b->y, >=, a->y + a->height);
        }
    }
  return n_shown;
}

/* Renders the lanes at @width and checks the key as drawn: each plain
 * swatch has its colour where the layout put it, and nothing is drawn in
 * the margin right of the key. Saves the drawing as @png_name in the build
 * directory, to look at. */
static void
check_key_drawing (SluiceTimeline *model,
                   double          width,
                   const char     *png_name)
{
  const SluicePalette *palette = sluice_palette_get (FALSE);
  /* Cancelled (dotted) and running (open) swatches are not plain: their
   * patterns are checked in test-render-lanes.c. */
  const SluiceColor *plain[SLUICE_LANES_N_KEYS] = {
    [0] = &palette->ok,
  };
  double height = sluice_render_timeline_get_natural_height_for_width (model, width);
  SluiceLanesLayout lanes;
  cairo_surface_t *surface;
  cairo_t *cr;

  _sluice_lanes_get_model_layout (model, width, height, &lanes);
  /* The natural height makes room for every row of the key. */
  g_assert_cmpfloat (lanes.lane_height, ==, 40.);

  surface = new_surface (width, height);
  cr = cairo_create (surface);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, FALSE }, -1);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  sluice_test_save_png (surface, png_name);

  for (guint i = 0; i < SLUICE_LANES_N_KEYS; i++)
    if (plain[i] != NULL && lanes.key[i].width > 0.)
      assert_pixel (surface, lanes.key[i].x + 5., lanes.key[i].y + lanes.key[i].height / 2. - 1.,
                    plain[i], "key swatch");

  /* The margin right of the key stays empty (a pixel of slack for text
   * that the rounding to whole pixels moved). */
  for (double x = width - SLUICE_RENDER_MARGIN + 1.; x < width; x++)
    for (double y = 0.; y < lanes.key_height; y++)
      assert_pixel (surface, x, y, &palette->background, "right of the key");

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* A key that does not fit the width wraps to more rows instead of losing
 * entries or running past the right edge; the lanes move down for it. */
static void
test_lanes_key_wraps (void)
{
  g_autoptr(SluiceTimeline) model = known_timeline ();
  SluiceLanesLayout wide, narrow, tiny;

  _sluice_lanes_get_layout (1600., 300., KNOWN_WORKERS, &wide);
  g_assert_cmpuint (assert_key_inside (&wide, 1600.), ==, SLUICE_LANES_N_BASIC_KEYS);
  g_assert_cmpuint (wide.key_rows, ==, 1);
  g_assert_cmpfloat (wide.plot.y, ==, 24.);

  _sluice_lanes_get_layout (420., 300., KNOWN_WORKERS, &narrow);
  g_assert_cmpuint (assert_key_inside (&narrow, 420.), ==, SLUICE_LANES_N_BASIC_KEYS);
  g_assert_cmpuint (narrow.key_rows, >=, 2);
  g_assert_cmpfloat (narrow.plot.y, >, wide.plot.y);
  g_assert_cmpfloat (narrow.plot.y + KNOWN_WORKERS * narrow.lane_height + SLUICE_RENDER_AXIS_HEIGHT,
                     <=, 300. + 0.001);
  check_key_drawing (model, 420., "lanes-key-narrow.png");

  /* Too narrow for everything: what is shown still fits. */
  _sluice_lanes_get_layout (200., 300., KNOWN_WORKERS, &tiny);
  g_assert_cmpuint (assert_key_inside (&tiny, 200.), >=, 1);

  /* Hit testing uses the layout drawing does (the run's own key): a lane
   * moved down is still hit. */
  _sluice_lanes_get_model_layout (model, 420., 300., &narrow);
  g_assert_true (sluice_render_timeline_hit (model,
                                             &(SluiceRenderFrame) { 420., 300., 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                             _sluice_render_time_to_x (&narrow.plot, 0, S (4), S (1.5)),
                                             narrow.plot.y + narrow.lane_height / 2., NULL));
  g_assert_false (sluice_render_timeline_hit (model,
                                              &(SluiceRenderFrame) { 420., 300., 0, S (4), -1, SLUICE_PALETTE_LIGHT },
                                              _sluice_render_time_to_x (&narrow.plot, 0, S (4), S (1.5)),
                                              narrow.plot.y - 2., NULL));
}

/* The German key (the longest labels) at the lanes' width in the app's
 * window: every entry shown, on two rows, inside the width. Uses the build
 * tree's catalogue through SLUICE_LOCALEDIR, as an uninstalled app does. */
static void
test_lanes_key_german (void)
{
  g_autoptr(SluiceTimeline) model = known_timeline ();
  const char *localedir = g_getenv ("SLUICE_LOCALEDIR");
  SluiceLanesLayout lanes;

  if (localedir == NULL)
    {
      g_test_skip ("SLUICE_LOCALEDIR is not set");
      return;
    }
  if (setlocale (LC_ALL, "C.UTF-8") == NULL)
    {
      g_test_skip ("no C.UTF-8 locale");
      return;
    }
  g_setenv ("LANGUAGE", "de", TRUE);
  bindtextdomain ("sluice", localedir);
  bind_textdomain_codeset ("sluice", "UTF-8");
  textdomain ("sluice");
  g_assert_cmpstr (gettext ("cancel request"), ==, "Abbruchanforderung");
  g_assert_cmpstr (gettext ("item %s · attempt %u"), ==, "Element %s · Versuch %u");

  for (double width = 500.; width <= 900.; width += 100.)
    {
      _sluice_lanes_get_layout (width, 300., KNOWN_WORKERS, &lanes);
      g_assert_cmpuint (assert_key_inside (&lanes, width), ==, SLUICE_LANES_N_BASIC_KEYS);
    }
  _sluice_lanes_get_layout (800., 300., KNOWN_WORKERS, &lanes);
  g_assert_cmpuint (lanes.key_rows, ==, 2);
  check_key_drawing (model, 800., "lanes-key-de.png");

  g_unsetenv ("LANGUAGE");
  textdomain ("sluice");
  g_assert_cmpstr (gettext ("cancel request"), ==, "cancel request");
}

/* ---- the chart ----------------------------------------------------------- */

static void
test_chart_pixels (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = known_timeline ();
  double width = 600., height = 240.;
  SluiceChartLayout chart;
  cairo_surface_t *surface;
  cairo_t *cr;
  guint dashes = 0;
  SluiceColor lead_band;

#define CHART_X(seconds) _sluice_render_time_to_x (&chart.plot, 0, S (4), S (seconds))
#define CHART_Y(count) (chart.plot.y + chart.plot.height * (1. - (count) / (double) chart.y_max))

  /* The scale: the highest of the limits and the series, plus one. */
  _sluice_chart_get_layout (width, height, KNOWN_BOUND + 1, FALSE, &chart);

  surface = new_surface (width, height);
  cr = cairo_create (surface);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { width, height, 0, S (4), S (3.5), dark },
                       &(SluiceChartLimits) { KNOWN_QUEUE_SIZE, KNOWN_BOUND });
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);

  /* The queue is 1 from 0 to 2 s, a solid line over the capacity line. */
  assert_pixel (surface, CHART_X (1.3), floor (CHART_Y (1)), &palette->queue, "queue at 1");
  /* The lead is 3 until 2 s: a translucent band. */
  lead_band = blend (&palette->lead, &palette->background, dark ? 0.8 : 0.45);
  assert_pixel (surface, CHART_X (1.3), floor (CHART_Y (3)), &lead_band, "lead at 3");
  /* Nothing between the lines. */
  assert_pixel (surface, CHART_X (3.25), CHART_Y (3.5), &palette->background, "empty chart");

  /* The capacity line at 1, dashed, once the queue has left it. */
  for (double x = CHART_X (2.2); x < CHART_X (2.9); x++)
    {
      SluiceColor c;

      pixel_fixture_get (surface, (int) x, (int) round (CHART_Y (1)), &c);
      dashes += pixel_fixture_color_near (&c, &palette->capacity, 3. / 255.);
    }
  g_assert_cmpuint (dashes, >, 10);

  /* The "now" line. */
  assert_pixel (surface, round (CHART_X (3.5)) - 1., CHART_Y (3.5), &palette->now, "now line");

#undef CHART_X
#undef CHART_Y

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* ---- a real run ---------------------------------------------------------- */

static guint
count_attempts (SluiceTimeline *model,
                gint64          item)
{
  guint n = 0;

  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    n += sluice_timeline_get_bar (model, i)->item == item;
  return n;
}

static const SluiceTimelineBar *
find_attempt (SluiceTimeline *model,
              gint64          item,
              guint           attempt)
{
  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    {
      const SluiceTimelineBar *bar = sluice_timeline_get_bar (model, i);

      if (bar->item == item && bar->attempt == attempt)
        return bar;
    }
  g_assert_not_reached ();
}

/* retries.pool: item 1 retried once; item 3 times out three times; item 5
 * fails for good at once. */
static void
test_preset_retries (void)
{
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("retries", NULL);
  const SluiceTimelineBar *bar;

  g_assert_cmpuint (sluice_timeline_get_n_workers (model), ==, 3);
  g_assert_cmpint (sluice_timeline_get_item_timeout (model), ==, S (0.3));

  bar = find_attempt (model, 1, 1);
  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_FAILED);
  g_assert_true (bar->retried);
  g_assert_cmpint (find_attempt (model, 1, 2)->outcome, ==, SLUICE_OUTCOME_OK);

  g_assert_cmpuint (count_attempts (model, 3), ==, 3);
  for (guint a = 1; a <= 3; a++)
    {
      bar = find_attempt (model, 3, a);
      g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
      g_assert_cmpint (bar->retried, ==, a < 3);
      g_assert_cmpint (bar->final_failure, ==, a == 3);
      g_assert_cmpuint (bar->n_rounds, ==, 1);
      g_assert_cmpint (bar->deadline, ==, bar->start + S (0.3));
    }

  bar = find_attempt (model, 5, 1);
  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_FAILED);
  g_assert_false (bar->retried);
  g_assert_true (bar->final_failure);
  g_assert_cmpstr (bar->error_type, ==, "ValueError");

  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    g_assert_cmpint (sluice_timeline_get_bar (model, i)->end, >=, 0);
}

/* stubborn.pool: the handler ignores the first request at 5 s; the second,
 * at 10 s, stops it. */
static void
test_preset_stubborn (void)
{
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("stubborn", NULL);
  const SluiceTimelineBar *bar = find_attempt (model, 0, 1);

  g_assert_cmpint (bar->outcome, ==, SLUICE_OUTCOME_TIMED_OUT);
  g_assert_cmpuint (bar->n_rounds, ==, 2);
  g_assert_cmpint (bar->round_times[0], ==, S (5));
  g_assert_cmpint (bar->round_times[1], ==, S (10));
  g_assert_cmpint (bar->deadline, ==, S (5));
  g_assert_cmpint (bar->end, ==, S (10));
  g_assert_true (bar->final_failure);
}

static void
assert_png (const char *path,
            int         width,
            int         height)
{
  cairo_surface_t *png = cairo_image_surface_create_from_png (path);

  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (png), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (png), ==, height);
  cairo_surface_destroy (png);
}

static goffset
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_size;
}

static void
test_export (void)
{
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceTimeline) model = run_fixture_timeline_of ("retries", &scenario);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-render-XXXXXX", &error);
  g_autofree char *png = NULL, *svg = NULL, *pdf = NULL, *bad = NULL;
  guint capacity = sluice_scenario_get_queue_size (scenario);
  guint bound = capacity + sluice_scenario_get_workers (scenario) + 1;

  g_assert_no_error (error);
  png = g_build_filename (dir, "run.png", NULL);
  svg = g_build_filename (dir, "run.SVG", NULL);
  pdf = g_build_filename (dir, "run.pdf", NULL);
  bad = g_build_filename (dir, "run.bmp", NULL);

  g_assert_true (sluice_render_export (model, png, 800, 400, capacity, bound, FALSE, &error));
  g_assert_no_error (error);
  assert_png (png, 800, 400);

  g_assert_true (sluice_render_export (model, svg, 800, 400, capacity, bound, TRUE, &error));
  g_assert_no_error (error);
  g_assert_cmpint (file_size (svg), >, 1000);

  g_assert_true (sluice_render_export (model, pdf, 800, 400, capacity, bound, FALSE, &error));
  g_assert_no_error (error);
  g_assert_cmpint (file_size (pdf), >, 1000);

  g_assert_false (sluice_render_export (model, bad, 800, 400, capacity, bound, FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* A directory that is not there: an error, not a crash. */
  {
    g_autofree char *missing = g_build_filename (dir, "no", "such", "run.png", NULL);

    g_assert_false (sluice_render_export (model, missing, 100, 100, 0, 0, FALSE, &error));
    g_assert_nonnull (error);
    g_clear_error (&error);
  }

  g_assert_cmpint (g_remove (png), ==, 0);
  g_assert_cmpint (g_remove (svg), ==, 0);
  g_assert_cmpint (g_remove (pdf), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* An empty model draws axes and lanes, without data and without trouble. */
static void
test_empty (void)
{
  g_autoptr(SluiceTimeline) model = sluice_timeline_new (0);
  cairo_surface_t *surface = new_surface (200, 100);
  cairo_t *cr = cairo_create (surface);

  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { 200, 100, 0, 0, -1, FALSE }, -1);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { 200, 100, 0, 0, -1, TRUE }, &(SluiceChartLimits) { 0, 0 });
  /* Smaller than the margins. */
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { 10, 10, 0, S (1), 0, TRUE }, -1);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { 10, 10, 0, S (1), 0, FALSE }, &(SluiceChartLimits) { 2, 5 });
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  g_assert_false (sluice_render_timeline_hit (model,
                                              &(SluiceRenderFrame) { 200, 100, 0, S (1), -1, SLUICE_PALETTE_LIGHT },
                                              100, 50, NULL));

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* ---- many attempts ------------------------------------------------------- */

/* 20 000 attempts of 1 ms on 8 workers: sub-pixel bars merge, so drawing
 * the whole run stays well under a frame's worth of budget per view on any
 * machine that runs the tests; the bound here is loose on purpose. */
static void
test_many_attempts (void)
{
  const SluicePalette *palette = sluice_palette_get (FALSE);
  g_autoptr(SluiceTimeline) model = sluice_timeline_new (8);
  double width = 1000., height = 400.;
  SluiceLanesLayout lanes;
  cairo_surface_t *surface;
  cairo_t *cr;
  gint64 begin, elapsed, end;

  for (guint i = 0; i < 20000; i++)
    {
      gint worker = i % 8;
      gint64 start = S (0.001) * (i / 8);
      SluiceEvent event = {
        .kind = SLUICE_EVENT_ATTEMPT_START, .time = start, .item = i, .attempt = 1,
        .worker = worker, .in_flight = 8, .queued = i % 5, .lead = 8 + i % 5,
        .deadline = -1,
      };

      sluice_timeline_add_event (model, &event);
      event.kind = SLUICE_EVENT_ATTEMPT_END;
      event.time = start + S (0.001);
      event.outcome = i == 9000 ? SLUICE_OUTCOME_FAILED : SLUICE_OUTCOME_OK;
      event.in_flight = 7;
      sluice_timeline_add_event (model, &event);
    }
  g_assert_cmpuint (sluice_timeline_get_n_bars (model), ==, 20000);
  end = sluice_timeline_get_end_time (model);

  surface = new_surface (width, height);
  cr = cairo_create (surface);

  begin = g_get_monotonic_time ();
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { width, height, 0, end, end, FALSE }, -1);
  elapsed = g_get_monotonic_time () - begin;
  g_test_message ("lanes of 20000 attempts: %" G_GINT64_FORMAT " µs", elapsed);
  g_assert_cmpint (elapsed, <, S (1));

  /* The merged marks still show where work was done… */
  _sluice_lanes_get_model_layout (model, width, height, &lanes);
  assert_pixel (surface, _sluice_render_time_to_x (&lanes.plot, 0, end, end / 3),
                lanes.plot.y + lanes.bar_inset + 2., &palette->ok, "merged bars");
  /* …and a failure among them is not lost: item 9000 ran on worker 0. */
  assert_pixel (surface, floor (_sluice_render_time_to_x (&lanes.plot, 0, end, S (0.001) * (9000 / 8))),
                lanes.plot.y + lanes.bar_inset + 2., &palette->failed, "failure among merged bars");

  begin = g_get_monotonic_time ();
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { width, height, 0, end, end, FALSE },
                       &(SluiceChartLimits) { 4, 13 });
  elapsed = g_get_monotonic_time () - begin;
  g_test_message ("chart of 40000 events: %" G_GINT64_FORMAT " µs", elapsed);
  g_assert_cmpint (elapsed, <, S (1));

  /* Zoomed in: bars outside the window are skipped, the rest drawn whole. */
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { width, height, S (1), S (1.02), -1, TRUE }, 400);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The legend above the chart keeps one row, so the plot keeps its
 * height (issue 26: a projector's chart is short): at a narrow width its
 * entries take short labels and start over the gutter, all inside the
 * width, none overlapping; nothing is drawn right of the margin. */
static void
test_chart_legend_keeps_one_row (void)
{
  const SluicePalette *palette = sluice_palette_get (FALSE);
  g_autoptr(SluiceTimeline) model = known_timeline ();
  const SluiceColor *swatches[SLUICE_CHART_N_SERIES] = { &palette->queue, &palette->in_flight, NULL };
  double width = 300., height = 240.;
  SluiceChartLayout wide, narrow;
  cairo_surface_t *surface;
  cairo_t *cr;

  _sluice_chart_get_layout (1200., height, KNOWN_BOUND + 1, FALSE, &wide);
  g_assert_cmpuint (wide.legend_rows, ==, 1);
  g_assert_cmpint (wide.legend_form, ==, SLUICE_CHART_LEGEND_FULL);
  g_assert_cmpfloat (wide.plot.y, ==, 24.);
  g_assert_cmpfloat (wide.legend[0].x, ==, wide.plot.x);

  _sluice_chart_get_layout (width, height, KNOWN_BOUND + 1, FALSE, &narrow);
  g_assert_cmpuint (narrow.legend_rows, ==, 1);
  g_assert_cmpint (narrow.legend_form, ==, SLUICE_CHART_LEGEND_SHORT);
  g_assert_cmpfloat (narrow.plot.y, ==, wide.plot.y);
  g_assert_cmpfloat (narrow.plot.y + narrow.plot.height + SLUICE_RENDER_AXIS_HEIGHT, <=, height + 0.001);
  for (guint i = 0; i < SLUICE_CHART_N_SERIES; i++)
    {
      const SluiceRect *a = &narrow.legend[i];

      /* Every entry is shown, inside the width and above the plot. */
      g_assert_cmpfloat (a->width, >, 0.);
      g_assert_cmpfloat (a->x, >=, 0.);
      g_assert_cmpfloat (a->x + a->width, <=, width - SLUICE_RENDER_MARGIN + 0.001);
      g_assert_cmpfloat (a->y + a->height, <=, narrow.legend_height);
      for (guint j = i + 1; j < SLUICE_CHART_N_SERIES; j++)
        g_assert_cmpfloat (narrow.legend[j].x, >=, a->x + a->width);
    }

  surface = new_surface (width, height);
  cr = cairo_create (surface);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { width, height, 0, S (4), -1, FALSE },
                       &(SluiceChartLimits) { KNOWN_QUEUE_SIZE, KNOWN_BOUND });
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  sluice_test_save_png (surface, "chart-legend-narrow.png");

  /* The line samples where the layout put them (the lead's is translucent). */
  for (guint i = 0; i < SLUICE_CHART_N_SERIES; i++)
    if (swatches[i] != NULL)
      assert_pixel (surface, narrow.legend[i].x + 2.,
                    narrow.legend[i].y + narrow.legend[i].height / 2. - 1., swatches[i], "legend line");
  for (double x = width - SLUICE_RENDER_MARGIN + 1.; x < width; x++)
    for (double y = 0.; y < narrow.legend_height; y++)
      assert_pixel (surface, x, y, &palette->background, "right of the legend");

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The highest value a series reaches in the run. */
static guint
series_top (SluiceTimeline *model)
{
  guint top = 0;

  for (guint i = 0; i < sluice_timeline_get_n_samples (model); i++)
    {
      gint64 time;
      guint queued, in_flight, lead;

      sluice_timeline_get_sample (model, i, &time, &queued, &in_flight, &lead);
      top = MAX (top, MAX (queued, MAX (in_flight, lead)));
    }
  return top;
}

/* Whether @c is the background or text drawn on it (antialiased: a mix
 * of the two). */
static gboolean
is_text_or_background (const SluiceColor *c,
                       const SluicePalette *palette)
{
  const SluiceColor *bg = &palette->background, *fg = &palette->foreground;
  double d[3] = { fg->red - bg->red, fg->green - bg->green, fg->blue - bg->blue };
  double v[3] = { c->red - bg->red, c->green - bg->green, c->blue - bg->blue };
  double t = (v[0] * d[0] + v[1] * d[1] + v[2] * d[2]) / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);

  t = CLAMP (t, 0., 1.);
  return fabs (v[0] - t * d[0]) < 0.04 && fabs (v[1] - t * d[1]) < 0.04 && fabs (v[2] - t * d[2]) < 0.04;
}

/* One limit's label: next to its line, inside the view; in @plain (the
 * same chart without limits) nothing but background and grid lies where
 * it goes, so it hides no series; in @drawn the text is there. */
static void
check_limit_label (cairo_t                 *drawn,
                   cairo_t                 *plain,
                   const SluicePalette     *palette,
                   const SluiceChartLayout *chart,
                   const SluiceRect        *rect,
                   guint                    value,
                   double                   width,
                   const char              *what)
{
  double line_y = round (chart->plot.y + chart->plot.height * (1. - value / (double) chart->y_max)) + 0.5;
  guint text = 0;

  g_test_message ("%s label at %.0f,%.0f %.0f×%.0f, line at %.1f", what,
                  rect->x, rect->y, rect->width, rect->height, line_y);
  g_assert_cmpfloat (rect->width, >, 0.);
  /* 3 pixels off the line, or 5 to get clear of a series along it. */
  g_assert_true (fabs (rect->y + rect->height - (line_y - 3.)) < 0.01 || fabs (rect->y - (line_y + 3.)) < 0.01 ||
                 fabs (rect->y + rect->height - (line_y - 5.)) < 0.01 || fabs (rect->y - (line_y + 5.)) < 0.01);
  g_assert_cmpfloat (rect->x, >=, chart->plot.x);
  g_assert_cmpfloat (rect->x + rect->width, <=, width - SLUICE_RENDER_MARGIN);
  g_assert_cmpfloat (rect->y, >=, 0.);
  g_assert_cmpfloat (rect->y + rect->height, <=, chart->plot.y + chart->plot.height);

  for (double y = ceil (rect->y); y < rect->y + rect->height; y++)
    for (double x = ceil (rect->x); x < rect->x + rect->width; x++)
      {
        SluiceColor c;

        pixel_fixture_get (cairo_get_target (plain), (int) x, (int) y, &c);
        if (!pixel_fixture_color_near (&c, &palette->background, 3. / 255.) && !pixel_fixture_color_near (&c, &palette->grid, 3. / 255.))
          g_error ("%s label at (%d, %d): the chart draws #%02x%02x%02x there", what, (int) x, (int) y,
                   (int) round (c.red * 255), (int) round (c.green * 255), (int) round (c.blue * 255));

        pixel_fixture_get (cairo_get_target (drawn), (int) x, (int) y, &c);
        g_assert_true (is_text_or_background (&c, palette));
        text += !pixel_fixture_color_near (&c, &palette->background, 0.2);
      }
  g_assert_cmpuint (text, >, 20);
}

typedef struct {
  const char *preset;
  double      width, height;
} LabelCase;

/* The limits' labels go where no series is drawn. In mix.pool the lead
 * comes down onto the queue capacity at the right end of the run, where
 * the label used to sit and hide it; the queue and the attempts in flight
 * run along that line before. Each preset's chart is drawn with its limits
 * and without (the same scale, when the lead reaches its bound), and what
 * the chart without them draws where the labels go is checked. */
static void
test_chart_limit_labels (gconstpointer data)
{
  static const LabelCase cases[] = {
    { "mix", 880., 140. },    /* the app's window */
    { "mix", 600., 200. },
    { "mix", 300., 160. },    /* a wrapped legend */
    { "retries", 880., 140. },
    { "first-look", 880., 140. },
    { "keep-going", 880., 140. },
    { "stop-after", 880., 140. },
    { "late", 880., 140. },
  };
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const LabelCase *lc = &cases[i];
      g_autoptr(SluiceScenario) scenario = NULL;
      g_autoptr(SluiceTimeline) model = NULL;
      guint capacity, bound;
      gint64 end;
      SluiceRenderFrame frame;
      SluiceChartLayout chart;
      SluiceRect capacity_rect, bound_rect;
      cairo_t *drawn, *plain;

      model = run_fixture_timeline_of (lc->preset, &scenario);
      capacity = sluice_scenario_get_queue_size (scenario);
      bound = capacity + sluice_scenario_get_workers (scenario) + 1;
      end = sluice_timeline_get_end_time (model);
      g_test_message ("%s at %.0f×%.0f", lc->preset, lc->width, lc->height);
      /* Without its limits the chart keeps its scale only if a series
       * reaches the higher one. */
      if (series_top (model) < bound)
        {
          g_assert_false (g_str_equal (lc->preset, "mix"));
          g_test_message ("%s never reaches its lead bound: skipped", lc->preset);
          continue;
        }
      frame = (SluiceRenderFrame) { lc->width, lc->height, 0, end, end, dark };
      _sluice_chart_get_model_layout (model, &frame, &(SluiceChartLimits) { capacity, bound }, &chart);
      _sluice_chart_get_labels (model, &frame, &(SluiceChartLimits) { capacity, bound }, &capacity_rect, &bound_rect,
                                NULL);

      drawn = cairo_create (new_surface (lc->width, lc->height));
      sluice_render_chart (drawn, model, &frame, &(SluiceChartLimits) { capacity, bound });
      plain = cairo_create (new_surface (lc->width, lc->height));
      sluice_render_chart (plain, model, &frame, &(SluiceChartLimits) { 0, 0 });
      g_assert_cmpint (cairo_status (drawn), ==, CAIRO_STATUS_SUCCESS);

      check_limit_label (drawn, plain, palette, &chart, &capacity_rect, capacity, lc->width, "capacity");
      check_limit_label (drawn, plain, palette, &chart, &bound_rect, bound, lc->width, "bound");
      g_assert_false (capacity_rect.x < bound_rect.x + bound_rect.width &&
                      bound_rect.x < capacity_rect.x + capacity_rect.width &&
                      capacity_rect.y < bound_rect.y + bound_rect.height &&
                      bound_rect.y < capacity_rect.y + capacity_rect.height);

      if (g_str_equal (lc->preset, "mix") && lc->width == 880.)
        {
          g_autofree char *name = g_strdup_printf ("chart-mix-%s.png", dark ? "dark" : "light");

          sluice_test_save_png (cairo_get_target (drawn), name);
        }

      cairo_surface_destroy (cairo_get_target (drawn));
      cairo_destroy (drawn);
      cairo_surface_destroy (cairo_get_target (plain));
      cairo_destroy (plain);
    }
}

/* ---- the retry policy: backoffs, skipped retries, shed items, budget ---- */

typedef struct {
  Step        step;
  double      delay;       /* seconds, or -1 */
  const char *reason;
  gint64      tokens;      /* thousandths, with a budget of 5 */
} RetryStep;

#define F SLUICE_OUTCOME_FAILED

/* Two workers, a backoff of 0.5 s, a budget of 5 tokens. Item 0 fails at
 * 1 s (worker 0), waits 0.5 s and succeeds in its attempt 2 (1.5–2.5 s).
 * Item 1 fails at 1 s (worker 1); its retry would end past its deadline:
 * skipped. Item 2 waited in the queue past its deadline: worker 1 sheds it
 * at 2 s. The run ends at 3 s. */
static const RetryStep retry_run[] = {
  { { SLUICE_EVENT_RUN_START,         0,   -1, 0, -1, 0, 0, 0,                     0, 0, 0 }, -1, NULL, 5000 },
  { { SLUICE_EVENT_ATTEMPT_START,     0,    0, 1,  0, 0, 0, 0,                     0, 1, 1 }, -1, NULL, 5000 },
  { { SLUICE_EVENT_ATTEMPT_START,     0,    1, 1,  1, 0, 0, 0,                     0, 2, 2 }, -1, NULL, 5000 },
  { { SLUICE_EVENT_QUEUE_PUT,         0,    2, 0, -1, 0, 0, 0,                     1, 2, 3 }, -1, NULL, 5000 },
  { { SLUICE_EVENT_ATTEMPT_END,       1,    0, 1,  0, 0, F, TRUE,                  1, 1, 3 }, -1, NULL, 4000 },
  { { SLUICE_EVENT_BACKOFF,           1,    0, 1,  0, 0, 0, 0,                     1, 1, 3 }, 0.5, NULL, 4000 },
  { { SLUICE_EVENT_ATTEMPT_END,       1,    1, 1,  1, 0, F, FALSE,                 1, 0, 3 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_RETRY_SKIPPED,     1,    1, 1,  1, 0, 0, 0,                     1, 0, 3 }, 2.0, "deadline", 3000 },
  { { SLUICE_EVENT_ITEM_FAILED,       1,    1, 0, -1, 0, 0, 0,                     1, 0, 2 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_RETRY,             1.5,  0, 0, -1, 0, 0, 0,                     1, 0, 2 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_ATTEMPT_START,     1.5,  0, 2,  0, 0, 0, 0,                     1, 1, 2 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_QUEUE_GET,         2,    2, 0,  1, 0, 0, 0,                     0, 1, 2 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_DEADLINE_EXCEEDED, 2,    2, 0,  1, 0, 0, 0,                     0, 1, 2 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_ITEM_FAILED,       2,    2, 0, -1, 0, 0, 0,                     0, 1, 1 }, -1, NULL, 3000 },
  { { SLUICE_EVENT_ATTEMPT_END,       2.5,  0, 2,  0, 0, SLUICE_OUTCOME_OK, FALSE, 0, 0, 1 }, -1, NULL, 3100 },
  { { SLUICE_EVENT_ITEM_OK,           2.5,  0, 0,  0, 0, 0, 0,                     0, 0, 0 }, -1, NULL, 3100 },
  { { SLUICE_EVENT_RUN_END,           3,   -1, 0, -1, 0, 0, 0,                     0, 0, 0 }, -1, NULL, 3100 },
};

#undef F

#define RETRY_END_S 3.

/* The run above into a model: with its backoff event or without (a retry
 * at once, as with backoff=none, would leave the same gap empty), and
 * with its budget or without (every event's tokens -1). */
static SluiceTimeline *
retry_timeline (gboolean backoff,
                gboolean budget)
{
  g_autoptr(SluiceRecorder) recorder = sluice_recorder_new (0);
  SluiceTimeline *model = sluice_timeline_new (2);

  for (guint i = 0; i < G_N_ELEMENTS (retry_run); i++)
    {
      const RetryStep *step = &retry_run[i];
      SluiceEvent event = step_event (&step->step);

      if (step->step.kind == SLUICE_EVENT_BACKOFF && !backoff)
        continue;
      event.delay = step->delay >= 0 ? S (step->delay) : -1;
      event.reason = step->reason;
      event.tokens = budget ? step->tokens : -1;
      if (step->step.kind == SLUICE_EVENT_ITEM_FAILED)
        {
          event.error_type = step->step.item == 2 ? "TimeoutError" : "ConnectionError";
          event.error_message = step->step.item == 2 ? "deadline exceeded" : "attempt 1 failed";
        }
      sluice_recorder_add (recorder, &event);
    }

  sluice_timeline_update (model, recorder);
  return model;
}

static void
test_timeline_marks (void)
{
  g_autoptr(SluiceTimeline) model = retry_timeline (TRUE, TRUE);
  g_autoptr(SluiceTimeline) plain = retry_timeline (FALSE, FALSE);
  g_autoptr(SluiceTimeline) cancelled = sluice_timeline_new (1);
  const SluiceTimelineMark *mark;
  gint64 time, tokens;

  g_assert_cmpuint (sluice_timeline_get_n_marks (model), ==, 3);
  mark = sluice_timeline_get_mark (model, 0);
  g_assert_cmpint (mark->kind, ==, SLUICE_TIMELINE_MARK_BACKOFF);
  g_assert_cmpint (mark->item, ==, 0);
  g_assert_cmpuint (mark->attempt, ==, 1);
  g_assert_cmpint (mark->worker, ==, 0);
  g_assert_cmpint (mark->start, ==, S (1));
  g_assert_cmpint (mark->end, ==, S (1.5));
  g_assert_cmpint (mark->delay, ==, S (0.5));
  g_assert_false (mark->cut_short);

  mark = sluice_timeline_get_mark (model, 1);
  g_assert_cmpint (mark->kind, ==, SLUICE_TIMELINE_MARK_RETRY_SKIPPED);
  g_assert_cmpint (mark->item, ==, 1);
  g_assert_cmpint (mark->worker, ==, 1);
  g_assert_cmpint (mark->start, ==, S (1));
  g_assert_cmpint (mark->delay, ==, S (2));
  g_assert_cmpstr (mark->reason, ==, "deadline");

  mark = sluice_timeline_get_mark (model, 2);
  g_assert_cmpint (mark->kind, ==, SLUICE_TIMELINE_MARK_SHED);
  g_assert_cmpint (mark->item, ==, 2);
  g_assert_cmpint (mark->worker, ==, 1);
  g_assert_cmpint (mark->start, ==, S (2));
  g_assert_cmpint (mark->delay, ==, -1);
  g_assert_true (sluice_timeline_has_mark_kind (model, SLUICE_TIMELINE_MARK_SHED));

  /* The budget's level: one sample per change, the size the highest. */
  g_assert_cmpint (sluice_timeline_get_max_tokens (model), ==, 5000);
  g_assert_cmpuint (sluice_timeline_get_n_token_samples (model), ==, 3);
  sluice_timeline_get_token_sample (model, 1, &time, &tokens);
  g_assert_cmpint (time, ==, S (1));
  g_assert_cmpint (tokens, ==, 3000);
  sluice_timeline_get_token_sample (model, sluice_timeline_find_token_sample (model, S (2.7)), &time, &tokens);
  g_assert_cmpint (tokens, ==, 3100);

  /* Without a backoff event or a budget: no bracket, no level. */
  g_assert_cmpuint (sluice_timeline_get_n_marks (plain), ==, 2);
  g_assert_false (sluice_timeline_has_mark_kind (plain, SLUICE_TIMELINE_MARK_BACKOFF));
  g_assert_cmpint (sluice_timeline_get_max_tokens (plain), ==, -1);
  g_assert_cmpuint (sluice_timeline_get_n_token_samples (plain), ==, 0);
  /* Events that leave the field at 0 carry no budget either. */
  g_assert_cmpint (sluice_timeline_get_max_tokens (cancelled), ==, -1);
  sluice_timeline_add_event (cancelled, &(SluiceEvent) { .kind = SLUICE_EVENT_RUN_START, .tokens = 0 });
  g_assert_cmpint (sluice_timeline_get_max_tokens (cancelled), ==, -1);

  /* A cancellation during a backoff ends it there, with no attempt. */
  sluice_timeline_add_event (cancelled, &(SluiceEvent) {
    .kind = SLUICE_EVENT_BACKOFF, .time = S (1), .item = 4, .attempt = 2, .worker = 0, .delay = S (1), .tokens = -1 });
  sluice_timeline_add_event (cancelled, &(SluiceEvent) {
    .kind = SLUICE_EVENT_ITEM_CANCELLED, .time = S (1.25), .item = 4, .worker = 0, .tokens = -1 });
  mark = sluice_timeline_get_mark (cancelled, 0);
  g_assert_cmpint (mark->end, ==, S (1.25));
  g_assert_true (mark->cut_short);

  sluice_timeline_clear (model);
  g_assert_cmpuint (sluice_timeline_get_n_marks (model), ==, 0);
  g_assert_cmpint (sluice_timeline_get_max_tokens (model), ==, -1);
  g_assert_false (sluice_timeline_has_mark_kind (model, SLUICE_TIMELINE_MARK_BACKOFF));
}

/* How many pixels of @color (within a tolerance) in a rectangle. */
static guint
count_color (cairo_surface_t   *surface,
             double             x0,
             double             y0,
             double             x1,
             double             y1,
             const SluiceColor *color)
{
  guint n = 0;

  for (double y = floor (y0); y < y1; y++)
    for (double x = floor (x0); x < x1; x++)
      {
        SluiceColor c;

        pixel_fixture_get (surface, (int) x, (int) y, &c);
        n += pixel_fixture_color_near (&c, color, 3. / 255.);
      }
  return n;
}

static cairo_surface_t *
render_retry_lanes (SluiceTimeline    *model,
                    gboolean           dark,
                    LanesGeometry     *g)
{
  cairo_surface_t *surface;
  cairo_t *cr;

  g->width = 600.;
  g->height = sluice_render_timeline_get_natural_height_for_width (model, g->width);
  g->t0 = 0;
  g->t1 = S (RETRY_END_S);
  lanes_geometry_set_frame (g);
  _sluice_lanes_get_model_layout (model, g->width, g->height, &g->lanes);

  surface = new_surface (g->width, g->height);
  cr = cairo_create (surface);
  sluice_render_timeline (cr, model, &(SluiceRenderFrame) { g->width, g->height, g->t0, g->t1, -1, dark }, -1);
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  return surface;
}

/* The backoff's bracket, in the gap from item 0's failed attempt (ends at
 * 1 s) to its attempt 2 (starts at 1.5 s) on worker 0's lane: upright
 * ends and a dotted line between, in the backoff colour; the same gap is
 * empty without it. The skipped retry and the shed item have their signs;
 * the key explains the three; hit testing finds them. */
static void
test_lanes_backoff (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = retry_timeline (TRUE, FALSE);
  g_autoptr(SluiceTimeline) plain = retry_timeline (FALSE, FALSE);
  cairo_surface_t *surface, *without;
  LanesGeometry g, gp;
  double x0, x1, cy, r, cx, skip_x, skip_y;
  guint index = G_MAXUINT;

  surface = render_retry_lanes (model, dark, &g);
  sluice_test_save_png (surface, dark ? "lanes-backoff-dark.png" : "lanes-backoff-light.png");
  x0 = lanes_x (&g, 1.);
  x1 = lanes_x (&g, 1.5);
  cy = round (lane_middle_y (&g, 0));
  g_assert_cmpfloat (x1 - x0, >, 40.);

  /* The left end: an upright line just after the failed attempt. */
  assert_pixel (surface, round (x0), cy - 3., &palette->backoff, "backoff bracket, left end");
  assert_pixel (surface, round (x0), cy + 2., &palette->backoff, "backoff bracket, left end");
  /* The right end, just before attempt 2. */
  assert_pixel (surface, round (x1) - 2., cy - 3., &palette->backoff, "backoff bracket, right end");
  /* The dotted line between: on and off along the lane's middle. */
  g_assert_cmpuint (count_color (surface, x0 + 4., cy, x1 - 4., cy + 1., &palette->backoff), >, (x1 - x0) / 6.);
  g_assert_cmpuint (count_color (surface, x0 + 4., cy, x1 - 4., cy + 1., &palette->backoff), <, (x1 - x0) * 0.8);
  /* Nothing of it above or below the bracket's ends: it is thin. */
  assert_pixel (surface, (x0 + x1) / 2., g.lanes.plot.y + g.lanes.bar_inset, &palette->background, "above the bracket");

  /* The bars either side keep their colours. */
  g_assert_cmpuint (count_color (surface, lanes_x (&g, 0.2), bar_top_y (&g, 0), lanes_x (&g, 0.8),
                                 bar_top_y (&g, 0) + 1., &palette->retried), >, 10);
  assert_pixel (surface, lanes_x (&g, 2.), bar_top_y (&g, 0), &palette->ok, "attempt 2");

  /* A skipped retry's sign at the end of item 1's attempt (worker 1), in
   * place of its cross: a ring in the text colour, filled with the
   * background. */
  r = _sluice_lanes_mark_radius (&g.lanes);
  _sluice_lanes_place_point_mark (&g.lanes, sluice_timeline_get_mark (model, 1), x0, lanes_x (&g, 0.),
                                  &skip_x, &skip_y);
  g_assert_cmpfloat (skip_x + r, <, x0);
  g_assert_cmpfloat (skip_x - r, >, lanes_x (&g, 0.5));
  g_assert_cmpuint (count_color (surface, skip_x - r - 1., skip_y - r - 1., skip_x + r + 1., skip_y + r + 1.,
                                 &palette->foreground), >, 4);
  assert_pixel (surface, skip_x + r * 0.5, skip_y - r * 0.5, &palette->background, "inside the skip sign");
  /* The shed item's triangle at 2 s at the top of worker 1's lane, in the
   * failure colour. */
  _sluice_lanes_place_point_mark (&g.lanes, sluice_timeline_get_mark (model, 2), lanes_x (&g, 2.), -G_MAXDOUBLE,
                                  &cx, &cy);
  g_assert_cmpfloat (cy, <, lane_middle_y (&g, 1));
  assert_pixel (surface, cx, cy - r * 0.3, &palette->failed, "shed item");

  /* The key explains the three marks; without them it does not. */
  for (guint k = SLUICE_LANES_N_BASIC_KEYS; k < SLUICE_LANES_N_KEYS; k++)
    g_assert_cmpfloat (g.lanes.key[k].width, >, 0.);
  assert_pixel (surface, g.lanes.key[SLUICE_LANES_N_BASIC_KEYS].x, g.lanes.key[SLUICE_LANES_N_BASIC_KEYS].y +
                g.lanes.key[SLUICE_LANES_N_BASIC_KEYS].height / 2. - 2., &palette->backoff, "backoff key");

  /* Hit testing: the bracket, the signs, and the bars still. */
#define HIT_MARK(x, worker) \
  sluice_render_timeline_hit_mark (model, &g.frame, (x), lane_middle_y (&g, worker), &index)
  g_assert_true (HIT_MARK (lanes_x (&g, 1.25), 0));
  g_assert_cmpuint (index, ==, 0);
  g_assert_true (sluice_timeline_get_bar (model, 1)->retry_skipped);
  g_assert_cmpint (sluice_timeline_get_mark (model, 1)->outcome, ==, SLUICE_OUTCOME_FAILED);
  g_assert_cmpint (sluice_timeline_get_mark (model, 1)->attempt_start, ==, 0);
  g_assert_true (HIT_MARK (skip_x, 1));
  g_assert_cmpuint (index, ==, 1);
  g_assert_true (sluice_render_timeline_hit_mark (model, &g.frame, cx + 1., cy, &index));
  g_assert_cmpuint (index, ==, 2);
  /* Below the shed sign: the lane, no mark. */
  g_assert_false (sluice_render_timeline_hit_mark (model, &g.frame, cx, cy + 3. * r, NULL));
  g_assert_false (HIT_MARK (lanes_x (&g, 0.5), 0));
  g_assert_false (HIT_MARK (lanes_x (&g, 2.), 0));
  g_assert_false (HIT_MARK (lanes_x (&g, 1.25), 1));
#undef HIT_MARK
  g_assert_true (sluice_render_timeline_hit (model, &g.frame, lanes_x (&g, 2.), lane_middle_y (&g, 0), &index));

  /* Without the backoff: the gap is the background, and the key has no
   * backoff entry. */
  without = render_retry_lanes (plain, dark, &gp);
  g_assert_cmpfloat (gp.lanes.key[SLUICE_LANES_N_BASIC_KEYS].width, ==, 0.);
  g_assert_cmpuint (count_color (without, lanes_x (&gp, 1.) - 1., gp.lanes.plot.y,
                                 lanes_x (&gp, 1.5) + 1., gp.lanes.plot.y + gp.lanes.lane_height,
                                 &palette->backoff), ==, 0);
  assert_pixel (without, lanes_x (&gp, 1.25), round (lane_middle_y (&gp, 0)), &palette->background, "no backoff");
  g_assert_false (sluice_render_timeline_hit_mark (plain, &gp.frame, lanes_x (&gp, 1.25), lane_middle_y (&gp, 0),
                                                   NULL));

  cairo_surface_destroy (surface);
  cairo_surface_destroy (without);
}

/* The retry budget's level is a line in the chart only when the events
 * carry a budget: full (5 tokens) at the top of the plot, 3 from 1 s;
 * with an entry in the legend and a label that gives the level. */
static void
test_chart_budget (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = retry_timeline (TRUE, TRUE);
  g_autoptr(SluiceTimeline) plain = retry_timeline (TRUE, FALSE);
  double width = 600., height = 200.;
  gint64 t1 = S (RETRY_END_S);
  SluiceChartLayout chart, plain_chart;
  SluiceRect capacity, bound, budget;
  cairo_surface_t *surface, *without;
  cairo_t *cr;
  double y3;

  /* The scale: the lead bound of queue 1 and 2 workers, 4, plus one. */
  _sluice_chart_get_layout (width, height, 5, TRUE, &chart);
  _sluice_chart_get_layout (width, height, 5, FALSE, &plain_chart);
  g_assert_cmpfloat (chart.legend[SLUICE_CHART_N_SERIES].width, >, 0.);
  g_assert_cmpfloat (plain_chart.legend[SLUICE_CHART_N_SERIES].width, ==, 0.);

  surface = new_surface (width, height);
  cr = cairo_create (surface);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { width, height, 0, t1, -1, dark },
                       &(SluiceChartLimits) { 1, 4 });
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  sluice_test_save_png (surface, dark ? "chart-budget-dark.png" : "chart-budget-light.png");

  /* 3 of 5 tokens from 1 s to 2.5 s: 60 % of the plot's height. */
#define CHART_X(seconds) _sluice_render_time_to_x (&chart.plot, 0, t1, S (seconds))
  y3 = chart.plot.y + chart.plot.height * (1. - 0.6);
  g_assert_cmpuint (count_color (surface, CHART_X (1.1), y3 - 1.5, CHART_X (2.4), y3 + 1.5, &palette->budget), >, 30);
  /* Full before the first failure: along the top. */
  g_assert_cmpuint (count_color (surface, CHART_X (0.1), chart.plot.y - 1., CHART_X (0.9), chart.plot.y + 1.5,
                                 &palette->budget), >, 20);
  /* Its legend entry: a sample of the line. */
  assert_pixel (surface, chart.legend[SLUICE_CHART_N_SERIES].x + 2.,
                chart.legend[SLUICE_CHART_N_SERIES].y + chart.legend[SLUICE_CHART_N_SERIES].height / 2. - 1.,
                &palette->budget, "budget legend");
#undef CHART_X

  /* The level's label, apart from the limits' labels. */
  _sluice_chart_get_labels (model, &(SluiceRenderFrame) { width, height, 0, t1, -1, SLUICE_PALETTE_LIGHT },
                            &(SluiceChartLimits) { 1, 4 }, &capacity, &bound, &budget);
  g_assert_cmpfloat (budget.width, >, 0.);
  g_assert_cmpfloat (budget.x + budget.width, <=, width - SLUICE_RENDER_MARGIN);
  g_assert_false (budget.x < bound.x + bound.width && bound.x < budget.x + budget.width &&
                  budget.y < bound.y + bound.height && bound.y < budget.y + budget.height);
  g_assert_false (budget.x < capacity.x + capacity.width && capacity.x < budget.x + budget.width &&
                  budget.y < capacity.y + capacity.height && capacity.y < budget.y + budget.height);

  /* No budget: no line, no entry, no label. */
  without = new_surface (width, height);
  cr = cairo_create (without);
  sluice_render_chart (cr, plain, &(SluiceRenderFrame) { width, height, 0, t1, -1, dark },
                       &(SluiceChartLimits) { 1, 4 });
  cairo_destroy (cr);
  g_assert_cmpuint (count_color (without, 0., 0., width, height, &palette->budget), ==, 0);
  _sluice_chart_get_labels (plain, &(SluiceRenderFrame) { width, height, 0, t1, -1, SLUICE_PALETTE_LIGHT },
                            &(SluiceChartLimits) { 1, 4 }, NULL, NULL, &budget);
  g_assert_cmpfloat (budget.width, ==, 0.);

  cairo_surface_destroy (surface);
  cairo_surface_destroy (without);
}

/* Two workers of a service run. Job 0 runs 0–1 s, fails and waits in a
 * backoff until 2 s (no attempt in flight, its worker still busy), then
 * succeeds at 3 s. Job 1 runs 0–3 s. Job 2 is given up at 0.5 s while it
 * is queued; a worker takes it at 3 s and skips it: it never makes a
 * worker busy, and never gets a bar. */
static const Step busy_run[] = {
  { SLUICE_EVENT_RUN_START,      0,   -1, 0, -1, 0, 0, 0,                       0, 0, 0 },
  { SLUICE_EVENT_QUEUE_GET,      0,    0, 0,  0, 0, 0, 0,                       0, 0, 1 },
  { SLUICE_EVENT_ATTEMPT_START,  0,    0, 1,  0, 0, 0, 0,                       0, 1, 1 },
  { SLUICE_EVENT_QUEUE_GET,      0,    1, 0,  1, 0, 0, 0,                       0, 1, 2 },
  { SLUICE_EVENT_ATTEMPT_START,  0,    1, 1,  1, 0, 0, 0,                       0, 2, 2 },
  { SLUICE_EVENT_QUEUE_PUT,      0,    2, 0, -1, 0, 0, 0,                       1, 2, 3 },
  { SLUICE_EVENT_ITEM_CANCELLED, 0.5,  2, 0, -1, 0, 0, 0,                       1, 2, 3 },
  { SLUICE_EVENT_ATTEMPT_END,    1,    0, 1,  0, 0, SLUICE_OUTCOME_FAILED, TRUE, 1, 1, 3 },
  { SLUICE_EVENT_BACKOFF,        1,    0, 1,  0, 0, 0, 0,                       1, 1, 3 },
  { SLUICE_EVENT_ATTEMPT_START,  2,    0, 2,  0, 0, 0, 0,                       1, 2, 3 },
  { SLUICE_EVENT_ATTEMPT_END,    3,    0, 2,  0, 0, SLUICE_OUTCOME_OK, FALSE,   1, 1, 3 },
  { SLUICE_EVENT_ITEM_OK,        3,    0, 0,  0, 0, 0, 0,                       1, 1, 2 },
  { SLUICE_EVENT_QUEUE_GET,      3,    2, 0,  0, 0, 0, 0,                       0, 1, 2 },
  { SLUICE_EVENT_ATTEMPT_END,    3,    1, 1,  1, 0, SLUICE_OUTCOME_OK, FALSE,   0, 0, 2 },
  { SLUICE_EVENT_ITEM_OK,        3,    1, 0,  1, 0, 0, 0,                       0, 0, 1 },
  { SLUICE_EVENT_RUN_END,        4,   -1, 0, -1, 0, 0, 0,                       0, 0, 1 },
};

/* The busy workers: folded from the events, a dotted line of their own
 * colour with an entry in the legend; at 2 from 0 s to 3 s, apart from
 * the attempts in flight (1) while job 0 backs off, and never up for the
 * skipped job. */
static void
test_chart_busy (gconstpointer data)
{
  gboolean dark = GPOINTER_TO_INT (data);
  const SluicePalette *palette = sluice_palette_get (dark);
  g_autoptr(SluiceTimeline) model = sluice_timeline_new (2);
  double width = 600., height = 200.;
  gint64 t1 = S (4);
  SluiceChartLayout chart;
  const SluiceRect *key = NULL;
  cairo_surface_t *surface;
  cairo_t *cr;
  double y1, y2;
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (busy_run); i++)
    {
      SluiceEvent event = step_event (&busy_run[i]);

      sluice_timeline_add_event (model, &event);
    }

  /* The model: 2, then 1 in the backoff (no attempt in flight), 2, 0. */
  n = sluice_timeline_get_n_samples (model);
  g_assert_cmpuint (sluice_timeline_get_busy (model, sluice_timeline_find_sample (model, S (0.7))), ==, 2);
  g_assert_cmpuint (sluice_timeline_get_busy (model, sluice_timeline_find_sample (model, S (1.5))), ==, 2);
  g_assert_cmpuint (sluice_timeline_get_busy (model, n - 1), ==, 0);
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (sluice_timeline_get_busy (model, i), <=, 2);
  for (guint i = 0; i < sluice_timeline_get_n_bars (model); i++)
    g_assert_cmpint (sluice_timeline_get_bar (model, i)->item, !=, 2);

  /* The scale: the lead bound 4, plus one. */
  _sluice_chart_get_layout (width, height, 5, FALSE, &chart);
  surface = new_surface (width, height);
  cr = cairo_create (surface);
  sluice_render_chart (cr, model, &(SluiceRenderFrame) { width, height, 0, t1, -1, dark },
                       &(SluiceChartLimits) { 1, 4 });
  g_assert_cmpint (cairo_status (cr), ==, CAIRO_STATUS_SUCCESS);
  cairo_destroy (cr);
  sluice_test_save_png (surface, dark ? "chart-busy-dark.png" : "chart-busy-light.png");

#define CHART_X(seconds) _sluice_render_time_to_x (&chart.plot, 0, t1, S (seconds))
  y1 = round (chart.plot.y + chart.plot.height * (1. - 1. / 5.));
  y2 = round (chart.plot.y + chart.plot.height * (1. - 2. / 5.));
  /* Both workers busy from 0 s to 3 s, in the dashes' gaps of the
   * attempts in flight between 0 and 1 s and from 2 s. */
  g_assert_cmpuint (count_color (surface, CHART_X (0.1), y2 - 2.5, CHART_X (0.9), y2 + 2.5, &palette->busy), >, 10);
  g_assert_cmpuint (count_color (surface, CHART_X (2.1), y2 - 2.5, CHART_X (2.9), y2 + 2.5, &palette->busy), >, 10);
  /* In the backoff, one attempt in flight but both workers busy: the
   * dots at 2, the dashes at 1, apart. */
  g_assert_cmpuint (count_color (surface, CHART_X (1.1), y2 - 2.5, CHART_X (1.9), y2 + 2.5, &palette->busy), >, 20);
  g_assert_cmpuint (count_color (surface, CHART_X (1.1), y2 - 2.5, CHART_X (1.9), y2 + 2.5, &palette->in_flight), ==, 0);
  g_assert_cmpuint (count_color (surface, CHART_X (1.1), y1 - 2.5, CHART_X (1.9), y1 + 2.5, &palette->in_flight), >, 10);
  g_assert_cmpuint (count_color (surface, CHART_X (1.1), y1 - 2.5, CHART_X (1.9), y1 + 2.5, &palette->busy), ==, 0);
  /* None after 3 s. */
  g_assert_cmpuint (count_color (surface, CHART_X (3.2), chart.plot.y, CHART_X (3.9), chart.plot.y + chart.plot.height - 3.,
                                 &palette->busy), ==, 0);
#undef CHART_X

  /* Its legend entry, the last of the counts: a sample of the dots. */
  key = &chart.legend[SLUICE_CHART_N_SERIES - 1];
  g_assert_cmpfloat (key->width, >, 0.);
  g_assert_cmpuint (count_color (surface, key->x, key->y, key->x + 24., key->y + key->height, &palette->busy), >, 4);

  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/render/timeline/model", test_timeline_model);
  g_test_add_func ("/render/timeline/incremental", test_timeline_incremental);
  g_test_add_func ("/render/palette/contrast", test_palette_contrast);
  g_test_add_data_func ("/render/lanes/pixels/light", GINT_TO_POINTER (FALSE), test_lanes_pixels);
  g_test_add_data_func ("/render/lanes/pixels/dark", GINT_TO_POINTER (TRUE), test_lanes_pixels);
  g_test_add_func ("/render/lanes/selection", test_lanes_selection);
  g_test_add_func ("/render/lanes/hit", test_lanes_hit);
  g_test_add_func ("/render/lanes/key/wraps", test_lanes_key_wraps);
  g_test_add_func ("/render/lanes/key/german", test_lanes_key_german);
  g_test_add_data_func ("/render/chart/pixels/light", GINT_TO_POINTER (FALSE), test_chart_pixels);
  g_test_add_data_func ("/render/chart/pixels/dark", GINT_TO_POINTER (TRUE), test_chart_pixels);
  g_test_add_func ("/render/chart/legend/keeps-one-row", test_chart_legend_keeps_one_row);
  g_test_add_data_func ("/render/chart/limit-labels/light", GINT_TO_POINTER (FALSE), test_chart_limit_labels);
  g_test_add_data_func ("/render/chart/limit-labels/dark", GINT_TO_POINTER (TRUE), test_chart_limit_labels);
  g_test_add_func ("/render/preset/retries", test_preset_retries);
  g_test_add_func ("/render/preset/stubborn", test_preset_stubborn);
  g_test_add_func ("/render/export", test_export);
  g_test_add_func ("/render/empty", test_empty);
  g_test_add_func ("/render/many-attempts", test_many_attempts);
  g_test_add_func ("/render/timeline/marks", test_timeline_marks);
  g_test_add_data_func ("/render/lanes/backoff/light", GINT_TO_POINTER (FALSE), test_lanes_backoff);
  g_test_add_data_func ("/render/lanes/backoff/dark", GINT_TO_POINTER (TRUE), test_lanes_backoff);
  g_test_add_data_func ("/render/chart/busy/light", GINT_TO_POINTER (FALSE), test_chart_busy);
  g_test_add_data_func ("/render/chart/busy/dark", GINT_TO_POINTER (TRUE), test_chart_busy);
  g_test_add_data_func ("/render/chart/budget/light", GINT_TO_POINTER (FALSE), test_chart_budget);
  g_test_add_data_func ("/render/chart/budget/dark", GINT_TO_POINTER (TRUE), test_chart_budget);

  return g_test_run ();
}
