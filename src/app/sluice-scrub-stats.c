/* sluice-scrub-stats.c: scrub a finished run frame by frame and write how it was drawn
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include "sluice-scrub-stats.h"

/*
 * For scripts/bench (`SLUICE_SCRUB_STATS=FILE` with `--screenshot`, issue
 * 13): after the run, the playhead is dragged across it as a hand on the
 * scrubber would, one move per frame, following the wall clock: from the
 * end back to the start in the first half of @seconds, then forwards to
 * the end again. Each frame's move goes through the viewport's playhead,
 * so every view folds and redraws as it does under the pointer. Written:
 * the time between consecutive paints (the frame time a person sees), the
 * work of each frame (from its tick to the end of its paint), both as
 * p50, p95 and max in ms, and the frames per second.
 */

typedef struct {
  SluiceViewport       *viewport;
  GdkFrameClock        *frame_clock;
  guint64               n_events;
  double                seconds;
  char                 *path;
  SluiceScrubStatsDone  done;
  gpointer              user_data;
  gint64                playhead_before;
  gint64                started;      /* monotonic µs of the first tick, 0 before */
  gint64                tick;         /* monotonic µs of this frame's tick, 0 once painted */
  gint64                last_paint;
  guint                 moves;
  GArray               *intervals;    /* double ms between paints */
  GArray               *works;        /* double ms from tick to the end of the paint */
} ScrubStats;

static void
on_after_paint (GdkFrameClock *frame_clock,
                ScrubStats    *self)
{
  gint64 now = g_get_monotonic_time ();
  double ms;

  if (self->started == 0)
    return;
  if (self->last_paint > 0)
    {
      ms = (double) (now - self->last_paint) / 1000.;
      g_array_append_val (self->intervals, ms);
    }
  if (self->tick > 0)
    {
      ms = (double) (now - self->tick) / 1000.;
      g_array_append_val (self->works, ms);
      self->tick = 0;
    }
  self->last_paint = now;
}

static int
compare_ms (gconstpointer a,
            gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Nearest rank, of a sorted array. */
static double
rank (GArray *sorted,
      double  p)
{
  guint r;

  if (sorted->len == 0)
    return 0.;
  r = (guint) MAX (1., p / 100. * sorted->len + 0.999999);
  return g_array_index (sorted, double, MIN (r, sorted->len) - 1);
}

static void
append_figures (GString    *json,
                const char *name,
                GArray     *values)
{
  char p50[G_ASCII_DTOSTR_BUF_SIZE], p95[G_ASCII_DTOSTR_BUF_SIZE], max[G_ASCII_DTOSTR_BUF_SIZE];

  g_array_sort (values, compare_ms);
  g_ascii_formatd (p50, sizeof p50, "%.3f", rank (values, 50.));
  g_ascii_formatd (p95, sizeof p95, "%.3f", rank (values, 95.));
  g_ascii_formatd (max, sizeof max, "%.3f", rank (values, 100.));
  g_string_append_printf (json, ", \"%s_p50_ms\": %s, \"%s_p95_ms\": %s, \"%s_max_ms\": %s",
                          name, p50, name, p95, name, max);
}

static void
write_stats (ScrubStats *self,
             gint64      now)
{
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  double span = (double) (self->last_paint - self->started) / G_USEC_PER_SEC;
  char fps[G_ASCII_DTOSTR_BUF_SIZE], seconds[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (fps, sizeof fps, "%.2f", span > 0 ? self->intervals->len / span : 0.);
  g_ascii_formatd (seconds, sizeof seconds, "%.3f", (double) (now - self->started) / G_USEC_PER_SEC);
  g_string_append_printf (json, "{\"events\": %" G_GUINT64_FORMAT ", \"moves\": %u, \"frames\": %u, "
                          "\"seconds\": %s, \"fps\": %s",
                          self->n_events, self->moves, self->intervals->len, seconds, fps);
  append_figures (json, "frame", self->intervals);
  append_figures (json, "work", self->works);
  g_string_append (json, "}\n");
  if (!g_file_set_contents (self->path, json->str, -1, &error))
    g_printerr ("sluice: %s\n", error->message);
}

static void
scrub_stats_free (gpointer data)
{
  ScrubStats *self = data;

  if (self->frame_clock != NULL)
    g_signal_handlers_disconnect_by_func (self->frame_clock, on_after_paint, self);
  g_clear_object (&self->frame_clock);
  g_clear_object (&self->viewport);
  g_free (self->path);
  g_array_unref (self->intervals);
  g_array_unref (self->works);
  g_free (self);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *frame_clock,
         gpointer       user_data)
{
  ScrubStats *self = user_data;
  gint64 now = g_get_monotonic_time ();
  gint64 start = sluice_viewport_get_start (self->viewport);
  gint64 end = sluice_viewport_get_end (self->viewport);
  double phase, fraction;

  if (self->started == 0)
    {
      self->started = now;
      self->frame_clock = g_object_ref (frame_clock);
      g_signal_connect (frame_clock, "after-paint", G_CALLBACK (on_after_paint), self);
    }

  phase = (double) (now - self->started) / (self->seconds * G_USEC_PER_SEC);
  if (phase >= 1.)
    {
      sluice_viewport_set_playhead (self->viewport, self->playhead_before);
      write_stats (self, now);
      self->done (self->user_data);
      return G_SOURCE_REMOVE;
    }

  /* From the end back to the start, then forwards again. */
  fraction = phase < 0.5 ? 1. - 2. * phase : 2. * phase - 1.;
  self->tick = now;
  self->moves++;
  sluice_viewport_set_playhead (self->viewport, start + (gint64) (fraction * (double) (end - start)));
  return G_SOURCE_CONTINUE;
}

/**
 * sluice_scrub_stats_run:
 * @widget: the window, mapped, whose frames draw the views
 * @viewport: the views' viewport, bounded by the finished run
 * @n_events: how many events the run recorded (written with the figures)
 * @seconds: how long the drag lasts, in wall seconds
 * @path: the JSON file to write the figures to
 * @done: called once the figures are written
 * @user_data: data for @done
 *
 * Drags the playhead across the run, one move per frame, and writes how
 * the frames were drawn (for scripts/bench).
 */
void
sluice_scrub_stats_run (GtkWidget            *widget,
                        SluiceViewport       *viewport,
                        guint64               n_events,
                        double                seconds,
                        const char           *path,
                        SluiceScrubStatsDone  done,
                        gpointer              user_data)
{
  ScrubStats *self;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (SLUICE_IS_VIEWPORT (viewport));
  g_return_if_fail (path != NULL && done != NULL);

  self = g_new0 (ScrubStats, 1);
  self->viewport = g_object_ref (viewport);
  self->n_events = n_events;
  self->seconds = MAX (seconds, 0.1);
  self->path = g_strdup (path);
  self->done = done;
  self->user_data = user_data;
  self->playhead_before = sluice_viewport_get_playhead (viewport);
  self->intervals = g_array_new (FALSE, FALSE, sizeof (double));
  self->works = g_array_new (FALSE, FALSE, sizeof (double));
  gtk_widget_add_tick_callback (widget, on_tick, self, scrub_stats_free);
}
