/* sluice-store-throughput-page.c: the store window's Throughput page (see
 * the header)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * No metrics service: each refresh reads the attempts that ended since
 * the last one it saw (SLUICE_STORE_ADMIN_COMPLETIONS) and counts them
 * into two bounded rings the page keeps: one bucket a second for done and
 * failed, one a minute for the waits (time in queue), each over the last
 * hour. A bucket whose second or minute is older is reused.
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sluice-store-page-read.h"
#include "sluice-store-throughput-page.h"

#define N_MINUTES (SLUICE_STORE_THROUGHPUT_SPAN_S / 60)
/* The waits one minute keeps for its percentiles: enough for p95. */
#define MAX_WAITS_PER_MINUTE 2000

typedef struct {
  gint64 second;
  guint  done;
  guint  failed;
} SecondBucket;

typedef struct {
  gint64  minute;
  GArray *waits;   /* gint64 µs, at most MAX_WAITS_PER_MINUTE */
} MinuteBucket;

struct _SluiceStoreThroughputPage
{
  SluiceStorePage      parent_instance;

  GtkWidget           *box;
  GtkWidget           *summary;
  GtkWidget           *rate_chart;
  GtkWidget           *wait_chart;
  SecondBucket         seconds[SLUICE_STORE_THROUGHPUT_SPAN_S];
  MinuteBucket         minutes[N_MINUTES];
  /* The end of the newest completion counted; the next read asks for
   * those after it. (An attempt that ended in the same µs but committed
   * after that read is missed: one in a chart of an hour.) */
  gint64               since;
};

G_DEFINE_FINAL_TYPE (SluiceStoreThroughputPage, sluice_store_throughput_page, SLUICE_TYPE_STORE_PAGE)

static gint64
page_now (SluiceStoreThroughputPage *self)
{
  return sluice_store_page_get_now (SLUICE_STORE_PAGE (self));
}

/* ---- the rings ---------------------------------------------------------------------- */

static SecondBucket *
second_bucket (SluiceStoreThroughputPage *self,
               gint64                     second)
{
  SecondBucket *b = &self->seconds[second % SLUICE_STORE_THROUGHPUT_SPAN_S];

  if (b->second != second)
    *b = (SecondBucket) { second, 0, 0 };
  return b;
}

static MinuteBucket *
minute_bucket (SluiceStoreThroughputPage *self,
               gint64                     minute)
{
  MinuteBucket *b = &self->minutes[minute % N_MINUTES];

  if (b->minute != minute)
    {
      b->minute = minute;
      g_array_set_size (b->waits, 0);
    }
  return b;
}

static void
count (SluiceStoreThroughputPage   *self,
       const SluiceStoreCompletion *c)
{
  gint64 second = c->ended_at / G_USEC_PER_SEC;
  SecondBucket *b = second_bucket (self, second);
  MinuteBucket *m = minute_bucket (self, second / 60);

  switch (c->outcome)
    {
    case SLUICE_STORE_ATTEMPT_SUCCEEDED:
      b->done++;
      break;
    case SLUICE_STORE_ATTEMPT_FAILED:
    case SLUICE_STORE_ATTEMPT_TIMED_OUT:
    case SLUICE_STORE_ATTEMPT_LEASE_LOST:
      b->failed++;
      break;
    default:  /* cancelled: an operator's doing, neither */
      break;
    }
  if (m->waits->len < MAX_WAITS_PER_MINUTE)
    g_array_append_val (m->waits, c->waited);
}

static gboolean
in_span (gint64 second,
         gint64 now_second)
{
  return second > now_second - SLUICE_STORE_THROUGHPUT_SPAN_S && second <= now_second;
}

/**
 * sluice_store_throughput_page_get_totals:
 * @self: a #SluiceStoreThroughputPage
 * @done: (out) (optional): attempts that succeeded in the last hour
 * @failed: (out) (optional): attempts that failed (timed out, lost their
 *   lease) in the last hour
 *
 * What the rate chart adds up to, as the page has counted it.
 */
void
sluice_store_throughput_page_get_totals (SluiceStoreThroughputPage *self,
                                         guint64                   *done,
                                         guint64                   *failed)
{
  gint64 now_second = page_now (self) / G_USEC_PER_SEC;
  guint64 d = 0;
  guint64 f = 0;

  for (guint i = 0; i < SLUICE_STORE_THROUGHPUT_SPAN_S; i++)
    if (in_span (self->seconds[i].second, now_second))
      {
        d += self->seconds[i].done;
        f += self->seconds[i].failed;
      }
  if (done != NULL)
    *done = d;
  if (failed != NULL)
    *failed = f;
}

static int
compare_waits (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The nearest-rank percentile of @waits (sorted here), or -1 for none. */
static gint64
percentile (GArray *waits,
            double  p)
{
  guint rank;

  if (waits->len == 0)
    return -1;
  g_array_sort (waits, compare_waits);
  rank = (guint) MAX (1.0, ceil (p / 100.0 * waits->len));
  return g_array_index (waits, gint64, MIN (rank, waits->len) - 1);
}

/* The waits of minutes @first_minute to @last_minute together. */
static GArray *
waits_between (SluiceStoreThroughputPage *self,
               gint64                     first_minute,
               gint64                     last_minute)
{
  GArray *all = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < N_MINUTES; i++)
    if (self->minutes[i].minute >= first_minute && self->minutes[i].minute <= last_minute)
      g_array_append_vals (all, self->minutes[i].waits->data, self->minutes[i].waits->len);
  return all;
}

/**
 * sluice_store_throughput_page_get_wait_percentile:
 * @self: a #SluiceStoreThroughputPage
 * @percentile: such as 50 or 95
 *
 * Returns: the time in queue, µs, that @percentile of the last hour's
 *   attempts waited at most; -1 when none ended
 */
gint64
sluice_store_throughput_page_get_wait_percentile (SluiceStoreThroughputPage *self,
                                                  double                     p)
{
  gint64 now_minute = page_now (self) / G_USEC_PER_SEC / 60;
  g_autoptr(GArray) all = waits_between (self, now_minute - N_MINUTES + 1, now_minute);

  return percentile (all, p);
}

/* ---- the charts --------------------------------------------------------------------- */

typedef struct {
  double   values[N_MINUTES];
  gboolean has[N_MINUTES];
} Series;

static void
rate_series (SluiceStoreThroughputPage *self,
             gint64                     now_second,
             Series                    *done,
             Series                    *failed)
{
  gint64 first_minute = now_second / 60 - N_MINUTES + 1;

  memset (done, 0, sizeof *done);
  memset (failed, 0, sizeof *failed);
  for (guint i = 0; i < N_MINUTES; i++)
    done->has[i] = failed->has[i] = TRUE;
  for (guint i = 0; i < SLUICE_STORE_THROUGHPUT_SPAN_S; i++)
    {
      const SecondBucket *b = &self->seconds[i];
      gint64 slot = b->second / 60 - first_minute;

      if (!in_span (b->second, now_second) || slot < 0 || slot >= N_MINUTES)
        continue;
      /* A minute's bar is its mean per second. */
      done->values[slot] += b->done / 60.0;
      failed->values[slot] += b->failed / 60.0;
    }
}

static void
wait_series (SluiceStoreThroughputPage *self,
             gint64                     now_minute,
             Series                    *p50,
             Series                    *p95)
{
  memset (p50, 0, sizeof *p50);
  memset (p95, 0, sizeof *p95);
  for (guint slot = 0; slot < N_MINUTES; slot++)
    {
      gint64 minute = now_minute - N_MINUTES + 1 + slot;
      g_autoptr(GArray) waits = waits_between (self, minute, minute);

      p50->has[slot] = p95->has[slot] = waits->len > 0;
      p50->values[slot] = percentile (waits, 50) / (double) G_USEC_PER_SEC;
      p95->values[slot] = percentile (waits, 95) / (double) G_USEC_PER_SEC;
    }
}

static void
draw_text (cairo_t    *cr,
           GtkWidget  *widget,
           const char *text,
           double      x,
           double      y)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);

  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw_series (cairo_t      *cr,
             const Series *s,
             double        top,
             double        x0,
             double        y0,
             double        w,
             double        h)
{
  gboolean drawing = FALSE;

  for (guint i = 0; i < N_MINUTES; i++)
    {
      double x = x0 + w * (i + 0.5) / N_MINUTES;
      double y = y0 + h - h * CLAMP (s->values[i] / top, 0, 1);

      if (!s->has[i])
        {
          drawing = FALSE;
          continue;
        }
      if (drawing)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      /* A minute alone (the first one read, or one between gaps) has no
       * line to its neighbours: a short mark shows it. */
      if (!drawing && (i + 1 == N_MINUTES || !s->has[i + 1]))
        {
          cairo_move_to (cr, x - 4, y);
          cairo_line_to (cr, x + 4, y);
        }
      drawing = TRUE;
    }
  cairo_stroke (cr);
}

/* Two series on one axis from 0 to their highest value; the second is
 * drawn dashed, so the two tell apart without colour. */
static void
draw_chart (GtkWidget    *widget,
            cairo_t      *cr,
            int           width,
            int           height,
            const Series *a,
            const Series *b,
            const char   *unit)
{
  double top = 0;
  double margin = 24;
  g_autofree char *top_text = NULL;
  GdkRGBA fg;

  for (guint i = 0; i < N_MINUTES; i++)
    top = MAX (top, MAX (a->has[i] ? a->values[i] : 0, b->has[i] ? b->values[i] : 0));
  top = top > 0 ? top * 1.1 : 1;
  /* GTK 4.8 has no gtk_widget_get_color () yet. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  gdk_cairo_set_source_rgba (cr, &fg);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0.5, margin);
  cairo_line_to (cr, 0.5, height - margin + 0.5);
  cairo_line_to (cr, width, height - margin + 0.5);
  cairo_stroke (cr);
  top_text = g_strdup_printf ("%.2f %s", top, unit);
  draw_text (cr, widget, top_text, 4, 0);
  /* Translators: the left end of a chart's time axis */
  draw_text (cr, widget, _("1 h ago"), 4, height - margin + 2);
  /* Translators: the right end of a chart's time axis */
  draw_text (cr, widget, _("now"), width - 40, height - margin + 2);
  cairo_set_line_width (cr, 2);
  cairo_set_source_rgba (cr, 0.2, 0.55, 0.3, 1);
  draw_series (cr, a, top, 0, margin, width, height - 2 * margin);
  cairo_set_source_rgba (cr, 0.8, 0.2, 0.2, 1);
  cairo_set_dash (cr, (double[]) { 6, 4 }, 2, 0);
  draw_series (cr, b, top, 0, margin, width, height - 2 * margin);
}

static void
draw_rates (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  SluiceStoreThroughputPage *self = user_data;
  Series done;
  Series failed;

  rate_series (self, page_now (self) / G_USEC_PER_SEC, &done, &failed);
  /* Translators: the unit of the jobs per second chart */
  draw_chart (GTK_WIDGET (area), cr, width, height, &done, &failed, _("jobs/s"));
}

static void
draw_waits (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  SluiceStoreThroughputPage *self = user_data;
  Series p50;
  Series p95;

  wait_series (self, page_now (self) / G_USEC_PER_SEC / 60, &p50, &p95);
  /* Translators: the unit of the time in queue chart: seconds */
  draw_chart (GTK_WIDGET (area), cr, width, height, &p50, &p95, _("s"));
}

/* ---- reads ------------------------------------------------------------------------- */

static char *
format_wait (gint64 us)
{
  return us < 0 ? g_strdup ("–") : g_strdup_printf (_("%.1f s"), us / (double) G_USEC_PER_SEC);
}

/* The charts in words: for the screen reader, and the summary's line. */
static void
describe (SluiceStoreThroughputPage *self)
{
  guint64 done;
  guint64 failed;
  g_autofree char *p50 = format_wait (sluice_store_throughput_page_get_wait_percentile (self, 50));
  g_autofree char *p95 = format_wait (sluice_store_throughput_page_get_wait_percentile (self, 95));
  g_autofree char *n_done = NULL;
  g_autofree char *n_failed = NULL;
  g_autofree char *rates = NULL;
  g_autofree char *waits = NULL;

  sluice_store_throughput_page_get_totals (self, &done, &failed);
  n_done = g_strdup_printf ("%" G_GUINT64_FORMAT, done);
  n_failed = g_strdup_printf ("%" G_GUINT64_FORMAT, failed);
  /* Translators: the jobs per second chart in words (green: done, red
   * dashed: failed) */
  rates = g_strdup_printf (_("Last hour: %s done, %s failed (%.3f and %.3f per second); done solid, failed dashed"),
                           n_done, n_failed, done / (double) SLUICE_STORE_THROUGHPUT_SPAN_S,
                           failed / (double) SLUICE_STORE_THROUGHPUT_SPAN_S);
  /* Translators: the time in queue chart in words */
  waits = g_strdup_printf (_("Time in queue over the last hour: p50 %s, p95 %s; p50 solid, p95 dashed"), p50, p95);
  gtk_label_set_text (GTK_LABEL (self->summary), rates);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->rate_chart), GTK_ACCESSIBLE_PROPERTY_LABEL, rates, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->wait_chart), GTK_ACCESSIBLE_PROPERTY_LABEL, waits, -1);
  gtk_widget_set_tooltip_text (self->wait_chart, waits);
  gtk_widget_queue_draw (self->rate_chart);
  gtk_widget_queue_draw (self->wait_chart);
}

static void
apply_completions (SluiceStorePage             *page,
                   const SluiceStoreAdminReply *reply,
                   const GError                *error)
{
  SluiceStoreThroughputPage *self = SLUICE_STORE_THROUGHPUT_PAGE (page);

  if (reply == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not read the store: %s"), error->message);

      gtk_label_set_text (GTK_LABEL (self->summary), text);
      return;
    }
  for (guint i = 0; i < reply->completions->len; i++)
    {
      const SluiceStoreCompletion *c = &g_array_index (reply->completions, SluiceStoreCompletion, i);

      count (self, c);
      self->since = MAX (self->since, c->ended_at);
    }
  describe (self);
  /* A full page: more ended than one read takes; the rest at once. */
  if (reply->completions->len == SLUICE_STORE_THROUGHPUT_READ_LIMIT)
    sluice_store_page_refresh (page);
}

/* A refresh reads the attempts that ended since the last one counted
 * (at most an hour back). */
static SluiceStoreAdminQuery *
make_completions_query (SluiceStorePage *page,
                        gint64           now)
{
  SluiceStoreThroughputPage *self = SLUICE_STORE_THROUGHPUT_PAGE (page);
  SluiceStoreAdminQuery *query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_COMPLETIONS);

  query->now = now;
  query->since = MAX (self->since, query->now - (gint64) SLUICE_STORE_THROUGHPUT_SPAN_S * G_USEC_PER_SEC);
  query->limit = SLUICE_STORE_THROUGHPUT_READ_LIMIT;
  return query;
}

/* ---- the object --------------------------------------------------------------------- */

static void
forget (SluiceStoreThroughputPage *self)
{
  for (guint i = 0; i < SLUICE_STORE_THROUGHPUT_SPAN_S; i++)
    self->seconds[i] = (SecondBucket) { -1, 0, 0 };
  for (guint i = 0; i < N_MINUTES; i++)
    {
      self->minutes[i].minute = -1;
      g_array_set_size (self->minutes[i].waits, 0);
    }
  self->since = 0;
}

/* Another store: the charts start again. */
static void
show_store (SluiceStorePage *page,
            SluiceJobStore  *store)
{
  SluiceStoreThroughputPage *self = SLUICE_STORE_THROUGHPUT_PAGE (page);

  forget (self);
  describe (self);
  if (store == NULL)
    gtk_label_set_text (GTK_LABEL (self->summary), _("No store is open."));
}

static void
show_projector (SluiceStorePage *page,
                gboolean         projector)
{
  SluiceStoreThroughputPage *self = SLUICE_STORE_THROUGHPUT_PAGE (page);

  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->rate_chart), projector ? 220 : 160);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->wait_chart), projector ? 220 : 160);
}

static void
sluice_store_throughput_page_dispose (GObject *object)
{
  SluiceStoreThroughputPage *self = SLUICE_STORE_THROUGHPUT_PAGE (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sluice_store_throughput_page_parent_class)->dispose (object);
}

static void
sluice_store_throughput_page_finalize (GObject *object)
{
  SluiceStoreThroughputPage *self = SLUICE_STORE_THROUGHPUT_PAGE (object);

  for (guint i = 0; i < N_MINUTES; i++)
    g_array_unref (self->minutes[i].waits);
  G_OBJECT_CLASS (sluice_store_throughput_page_parent_class)->finalize (object);
}

static void
sluice_store_throughput_page_class_init (SluiceStoreThroughputPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SluiceStorePageClass *page_class = SLUICE_STORE_PAGE_CLASS (klass);

  object_class->dispose = sluice_store_throughput_page_dispose;
  object_class->finalize = sluice_store_throughput_page_finalize;
  page_class->show_store = show_store;
  page_class->make_query = make_completions_query;
  page_class->apply = apply_completions;
  page_class->show_projector = show_projector;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static GtkWidget *
new_chart (SluiceStoreThroughputPage *self,
           const char                *title,
           GtkDrawingAreaDrawFunc     draw)
{
  GtkWidget *heading = gtk_label_new (title);
  GtkWidget *chart = gtk_drawing_area_new ();

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (self->box), heading);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (chart), 160);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (chart), draw, self, NULL);
  gtk_widget_set_vexpand (chart, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (chart), GTK_ACCESSIBLE_PROPERTY_LABEL, title, -1);
  gtk_box_append (GTK_BOX (self->box), chart);
  return chart;
}

static void
sluice_store_throughput_page_init (SluiceStoreThroughputPage *self)
{
  for (guint i = 0; i < N_MINUTES; i++)
    self->minutes[i].waits = g_array_new (FALSE, FALSE, sizeof (gint64));
  forget (self);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->summary = gtk_label_new (_("No store is open."));
  gtk_label_set_xalign (GTK_LABEL (self->summary), 0);
  gtk_label_set_wrap (GTK_LABEL (self->summary), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (self->summary), 60);
  gtk_box_append (GTK_BOX (self->box), self->summary);
  self->rate_chart = new_chart (self, _("Jobs done and failed per second"), draw_rates);
  self->wait_chart = new_chart (self, _("Time in queue, p50 and p95"), draw_waits);
}

GtkWidget *
sluice_store_throughput_page_new (void)
{
  return g_object_new (SLUICE_TYPE_STORE_THROUGHPUT_PAGE, NULL);
}
