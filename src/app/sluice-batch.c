/* sluice-batch.c: run the window's scenario, then export and take a screenshot
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-batch.h"
#include "sluice-fold.h"
#include "sluice-scrub-stats.h"
#include "sluice-theme.h"
#include "sluice-window-png.h"

/**
 * SluiceBatch:
 *
 * What `sluice --screenshot` and `--export-*` do with a window: once it is
 * shown, run its scenario (the run controller picks the clock: a paced or
 * virtual one for a simulated scenario, the scaled one for real time),
 * write the exports, then save the window as a PNG right after a paint a
 * few frames later, and call back.
 *
 * It knows the window as a widget only: it runs the scenario through the
 * window's action (`win.run`), follows the run controller it is given and
 * exports from it, and asks the window nothing back but through
 * #SluiceBatch::skip-run. The window owns it; it holds the window weakly.
 */

#define SCREENSHOT_FRAMES 5
#define EXPORT_WIDTH 1200
#define EXPORT_HEIGHT 800
#define SCRUB_SECONDS 3.0

struct _SluiceBatch
{
  GObject               parent_instance;

  GtkWidget            *window;     /* weak */
  SluiceRunController  *run;
  GtkWidget            *look;       /* weak: the exported image takes its dark or light look */
  gboolean              attached;   /* the window watched another program's pool when made */
  char                 *screenshot;
  char                 *export_image;
  char                 *export_events;
  SluiceBatchFunc       func;
  gpointer              user_data;
  guint                 frames;
  guint                 tick_id;
  gboolean              exports_ok;
  gboolean              done;

  /* How the run was drawn, for scripts/bench (SLUICE_FRAME_STATS=FILE):
   * frames painted while it ran, the gaps between them, and how soon
   * after its end the window showed the end. Monotonic µs, 0 until
   * known. */
  char                 *stats_file;
  GdkFrameClock        *frame_clock;  /* weak */
  guint                 run_frames;
  gint64                run_started;
  gint64                run_ended;    /* when running went false */
  gint64                last_paint;   /* the activation, then each paint */
  GArray               *gaps;         /* gint64 µs between two paints */

  /* SLUICE_SCRUB_STATS=FILE: after the run, the playhead dragged across
   * it for SCRUB_SECONDS before the screenshot (sluice-scrub-stats.c). */
  char                 *scrub_file;
};

G_DEFINE_FINAL_TYPE (SluiceBatch, sluice_batch, G_TYPE_OBJECT)

enum {
  SKIP_RUN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
report (SluiceBatch *self,
        gboolean     ok)
{
  if (self->done || self->window == NULL)
    return;

  self->done = TRUE;
  self->func (self, ok, self->user_data);
}

static void
on_after_paint (GdkFrameClock *frame_clock,
                SluiceBatch   *self)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  g_signal_handlers_disconnect_by_func (frame_clock, on_after_paint, self);
  if (self->window == NULL)
    return;

  ok = sluice_window_save_png (GTK_WIDGET (self->window), self->screenshot, &error);
  if (!ok)
    g_printerr ("sluice: %s\n", error->message);

  report (self, ok && self->exports_ok);
}

/* Waits a few frames after the run, then shoots right after a paint, when
 * the layout is done. */
static gboolean
on_screenshot_tick (GtkWidget     *widget,
                    GdkFrameClock *frame_clock,
                    gpointer       user_data)
{
  SluiceBatch *self = user_data;

  if (!gtk_widget_get_mapped (widget) || ++self->frames < SCREENSHOT_FRAMES)
    return G_SOURCE_CONTINUE;

  self->tick_id = 0;
  g_signal_connect_object (frame_clock, "after-paint", G_CALLBACK (on_after_paint), self, 0);
  gtk_widget_queue_draw (widget);
  return G_SOURCE_REMOVE;
}

static gboolean
export_file (SluiceBatch *self,
             const char  *path,
             gboolean     image)
{
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (path == NULL)
    return TRUE;

  ok = image ? sluice_run_controller_export_image (self->run, path, EXPORT_WIDTH, EXPORT_HEIGHT,
                                                   self->look != NULL && sluice_widget_is_dark (self->look), &error)
             : sluice_run_controller_export_events (self->run, path, &error);
  if (!ok)
    g_printerr ("sluice: %s\n", error->message);

  return ok;
}

/* ---- frame statistics ------------------------------------------------- */

static int
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The gap at @p (0..1) of the sorted gaps, in seconds. */
static double
gap_at (GArray *sorted,
        double  p)
{
  if (sorted->len == 0)
    return 0.0;
  return (double) g_array_index (sorted, gint64, (guint) (p * (sorted->len - 1) + 0.5)) / G_USEC_PER_SEC;
}

static char *
format_number (double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (text, sizeof text, "%.6f", value));
}

static void
write_stats (SluiceBatch *self,
             gint64       caught_up)
{
  double run_s = (double) (self->run_ended - self->run_started) / G_USEC_PER_SEC;
  g_autofree char *fps = format_number (run_s > 0 ? self->run_frames / run_s : 0.0);
  g_autofree char *run = format_number (run_s);
  g_autofree char *catch_up = format_number ((double) (caught_up - self->run_ended) / G_USEC_PER_SEC);
  g_autofree char *p50 = NULL, *p95 = NULL, *max = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_array_sort (self->gaps, compare_gaps);
  p50 = format_number (gap_at (self->gaps, 0.5));
  p95 = format_number (gap_at (self->gaps, 0.95));
  max = format_number (gap_at (self->gaps, 1.0));
  text = g_strdup_printf ("{\"frames\": %u, \"run_seconds\": %s, \"fps\": %s, \"catch_up_seconds\": %s, "
                          "\"gap_p50_seconds\": %s, \"gap_p95_seconds\": %s, \"gap_max_seconds\": %s}\n",
                          self->run_frames, run, fps, catch_up, p50, p95, max);
  if (!g_file_set_contents (self->stats_file, text, -1, &error))
    g_printerr ("sluice: %s\n", error->message);
}

/* Every paint from the activation of the run to the first paint after
 * its end: the gaps between them are how long the window stood still. */
static void
on_stats_paint (GdkFrameClock *frame_clock,
                SluiceBatch   *self)
{
  gint64 now = g_get_monotonic_time ();
  gint64 gap = now - self->last_paint;

  g_array_append_val (self->gaps, gap);
  self->last_paint = now;
  if (self->run_ended == 0)
    {
      self->run_frames++;
      return;
    }

  /* The first paint after the end shows it: the views fold every event
   * at the end of the run. */
  g_signal_handlers_disconnect_by_func (frame_clock, on_stats_paint, self);
  write_stats (self, now);
}

/* The run's end as the window knows it: running goes false (before the
 * report, the exports and ::finished). */
static void
on_stats_running (SluiceRunController *run,
                  GParamSpec          *pspec,
                  SluiceBatch         *self)
{
  if (self->run_ended == 0 && !sluice_run_controller_get_running (run))
    self->run_ended = g_get_monotonic_time ();
}

static void
start_stats (SluiceBatch   *self,
             GdkFrameClock *frame_clock)
{
  if (self->stats_file == NULL || frame_clock == NULL)
    return;

  self->run_started = self->last_paint = g_get_monotonic_time ();
  self->gaps = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_set_weak_pointer (&self->frame_clock, frame_clock);
  g_signal_connect (frame_clock, "after-paint", G_CALLBACK (on_stats_paint), self);
  g_signal_connect_object (self->run, "notify::running", G_CALLBACK (on_stats_running), self, 0);
}

/* ---- the run ----------------------------------------------------------- */

/* The screenshot a few frames later, or the callback now. */
static void
finish (gpointer user_data)
{
  SluiceBatch *self = user_data;

  if (self->window == NULL || self->done)
    return;

  if (self->screenshot == NULL)
    {
      report (self, self->exports_ok);
      return;
    }

  self->frames = 0;
  self->tick_id = gtk_widget_add_tick_callback (self->window, on_screenshot_tick, self, NULL);
}

/* After the run: the exports, the drag of SLUICE_SCRUB_STATS if asked
 * for, then finish(). */
static void
on_run_finished (SluiceBatch *self)
{
  g_autoptr(SluiceFold) fold = NULL;
  gboolean image_ok, events_ok;

  if (self->window == NULL || self->done)
    return;

  if (self->run_ended == 0)
    self->run_ended = g_get_monotonic_time ();
  image_ok = export_file (self, self->export_image, TRUE);
  events_ok = export_file (self, self->export_events, FALSE);
  self->exports_ok = image_ok && events_ok;

  if (self->scrub_file == NULL)
    {
      finish (self);
      return;
    }

  /* The batch outlives the drag: the window owns it. */
  fold = sluice_run_model_get_fold (sluice_run_controller_get_model (self->run));
  sluice_scrub_stats_run (self->window, sluice_run_controller_get_viewport (self->run),
                          fold != NULL ? sluice_fold_get_end_position (fold) : 0, SCRUB_SECONDS,
                          self->scrub_file, finish, self);
}

/* Whether the window shows something with nothing to run, as the
 * window says (#SluiceBatch::skip-run). */
static gboolean
skip_run (SluiceBatch *self)
{
  gboolean skip = FALSE;

  g_signal_emit (self, signals[SKIP_RUN], 0, &skip);
  return skip;
}

/* Starts once the window is shown: the first frames of a new window can
 * hold the main loop long enough to matter on a scaled clock. */
static gboolean
on_start_tick (GtkWidget     *widget,
               GdkFrameClock *frame_clock,
               gpointer       user_data)
{
  SluiceBatch *self = user_data;

  if (!gtk_widget_get_mapped (widget) || ++self->frames < SCREENSHOT_FRAMES)
    return G_SOURCE_CONTINUE;

  self->tick_id = 0;
  /* An attached pool runs in its own program: its end ends the batch. */
  if (self->attached && sluice_run_controller_get_running (self->run))
    return G_SOURCE_REMOVE;
  /* A recorded run (`sluice FILE.sluicerun`), or an attached one that
   * already ended, is shown, not run again; a lesson's question before
   * its answer and the Lessons page are shown as they are. */
  if (self->attached || sluice_run_controller_get_has_events (self->run) || skip_run (self))
    {
      on_run_finished (self);
      return G_SOURCE_REMOVE;
    }
  start_stats (self, frame_clock);
  gtk_widget_activate_action (widget, "win.run", NULL);
  if (!sluice_run_controller_get_running (self->run))
    report (self, FALSE);

  return G_SOURCE_REMOVE;
}

/**
 * sluice_batch_start:
 * @self: a #SluiceBatch
 *
 * Runs the scenario once the window is shown; see sluice_batch_new().
 */
void
sluice_batch_start (SluiceBatch *self)
{
  g_return_if_fail (SLUICE_IS_BATCH (self));
  g_return_if_fail (self->window != NULL);

  self->frames = 0;
  self->tick_id = gtk_widget_add_tick_callback (self->window, on_start_tick, self, NULL);
}

static void
sluice_batch_dispose (GObject *object)
{
  SluiceBatch *self = SLUICE_BATCH (object);

  if (self->tick_id != 0 && self->window != NULL)
    gtk_widget_remove_tick_callback (self->window, self->tick_id);
  self->tick_id = 0;
  if (self->frame_clock != NULL)
    g_signal_handlers_disconnect_by_func (self->frame_clock, on_stats_paint, self);
  g_clear_weak_pointer (&self->frame_clock);
  g_clear_weak_pointer (&self->window);
  g_clear_weak_pointer (&self->look);
  g_clear_object (&self->run);

  G_OBJECT_CLASS (sluice_batch_parent_class)->dispose (object);
}

static void
sluice_batch_finalize (GObject *object)
{
  SluiceBatch *self = SLUICE_BATCH (object);

  g_free (self->screenshot);
  g_free (self->export_image);
  g_free (self->export_events);
  g_free (self->stats_file);
  g_clear_pointer (&self->gaps, g_array_unref);
  g_free (self->scrub_file);

  G_OBJECT_CLASS (sluice_batch_parent_class)->finalize (object);
}

static void
sluice_batch_class_init (SluiceBatchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_batch_dispose;
  object_class->finalize = sluice_batch_finalize;

  /**
   * SluiceBatch::skip-run:
   * @self: the batch
   *
   * Asked once the window is shown, before the batch runs its scenario:
   * a handler that returns %TRUE has the batch take the window as it is,
   * without a run (a lesson's question before its answer, the Lessons
   * page).
   *
   * Returns: whether there is nothing to run
   */
  signals[SKIP_RUN] = g_signal_new ("skip-run", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    g_signal_accumulator_true_handled, NULL, NULL, G_TYPE_BOOLEAN, 0);
}

static void
sluice_batch_init (SluiceBatch *self)
{
}

/**
 * sluice_batch_new:
 * @window: the window, with its scenario loaded and its `win.run` action
 * @run: the window's run controller
 * @look: the widget whose dark or light look the exported image takes
 * @screenshot: (nullable): the PNG file of the window to write
 * @image: (nullable): the image of the chart and lanes to write (PNG, SVG
 *   or PDF by its extension)
 * @events: (nullable): the events to write (CSV or JSON Lines by its
 *   extension)
 * @func: called once, when every file is written or one failed
 * @user_data: data for @func
 *
 * Returns: (transfer full): a batch for sluice_batch_start()
 */
SluiceBatch *
sluice_batch_new (GtkWidget           *window,
                  SluiceRunController *run,
                  GtkWidget           *look,
                  const char          *screenshot,
                  const char          *image,
                  const char          *events,
                  SluiceBatchFunc      func,
                  gpointer             user_data)
{
  SluiceBatch *self;

  g_return_val_if_fail (GTK_IS_WIDGET (window), NULL);
  g_return_val_if_fail (SLUICE_IS_RUN_CONTROLLER (run), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (look), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  self = g_object_new (SLUICE_TYPE_BATCH, NULL);
  g_set_weak_pointer (&self->window, window);
  g_set_weak_pointer (&self->look, look);
  self->run = g_object_ref (run);
  /* A window attached to another program's pool shows that run. */
  self->attached = sluice_run_controller_get_running (run);
  self->screenshot = g_strdup (screenshot);
  self->export_image = g_strdup (image);
  self->export_events = g_strdup (events);
  self->stats_file = g_strdup (g_getenv ("SLUICE_FRAME_STATS"));
  self->scrub_file = g_strdup (g_getenv ("SLUICE_SCRUB_STATS"));
  self->func = func;
  self->user_data = user_data;

  g_signal_connect_object (run, "finished", G_CALLBACK (on_run_finished), self, G_CONNECT_SWAPPED);
  return self;
}
