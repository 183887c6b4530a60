/* sluice-store-workers-page.c: the store window's Workers page (see the
 * header)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The rows are made again at each answer (a worker's row has nothing a
 * person edits). Each row's lane is drawn with cairo from the claims of
 * the last answer and the page's now: the leases count down between two
 * reads on a timer of the page's own, SLUICE_STORE_WORKERS_TICK_MS,
 * running only while the page is mapped and shows a claim.
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-store-page-read.h"
#include "sluice-store-workers-page.h"

struct _SluiceStoreWorkersPage
{
  SluiceStorePage      parent_instance;

  GtkWidget           *box;
  GtkWidget           *status;
  GtkWidget           *prune;
  GtkWidget           *rows_box;
  GPtrArray           *workers;   /* SluiceStoreWorker of the last answer */
  GPtrArray           *lanes;     /* their lanes' drawing areas */
  guint                tick_id;
};

G_DEFINE_FINAL_TYPE (SluiceStoreWorkersPage, sluice_store_workers_page, SLUICE_TYPE_STORE_PAGE)

enum {
  READ,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- the lane --------------------------------------------------------------------- */

static gint64
page_now (SluiceStoreWorkersPage *self)
{
  return sluice_store_page_get_now (SLUICE_STORE_PAGE (self));
}

/* One cell per claim; in it the lease left as a bar that shrinks, and
 * the key with the seconds left, so that the countdown reads in words
 * too. */
static void
draw_lane (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        user_data)
{
  SluiceStoreWorkersPage *self = g_object_get_data (G_OBJECT (area), "page");
  const SluiceStoreWorker *worker = user_data;
  gint64 now = page_now (self);
  guint n = worker->claims != NULL ? worker->claims->len : 0;
  double cell = n > 0 ? (double) width / n : width;
  GdkRGBA fg;

  /* GTK 4.8 has no gtk_widget_get_color () yet. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (area)), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  for (guint i = 0; i < n; i++)
    {
      const SluiceStoredJob *job = g_ptr_array_index (worker->claims, i);
      gint64 left = MAX (job->lease_expires_at - now, 0);
      double share = worker->lease > 0 ? CLAMP ((double) left / worker->lease, 0, 1) : 0;
      g_autofree char *seconds = sluice_store_page_format_duration (left);
      g_autofree char *text = g_strdup_printf ("%s · %s", job->operation_key, seconds);
      PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), text);

      cairo_set_source_rgba (cr, 0.2, 0.5, 0.9, 0.35);
      cairo_rectangle (cr, i * cell + 1, 1, (cell - 2) * share, height - 2);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
      cairo_set_line_width (cr, 1);
      cairo_rectangle (cr, i * cell + 1.5, 1.5, cell - 3, height - 3);
      cairo_stroke (cr);
      pango_layout_set_width (layout, (int) ((cell - 8) * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      cairo_move_to (cr, i * cell + 4, 3);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
}

static gboolean
on_tick (gpointer user_data)
{
  SluiceStoreWorkersPage *self = user_data;

  for (guint i = 0; i < self->lanes->len; i++)
    gtk_widget_queue_draw (g_ptr_array_index (self->lanes, i));
  return G_SOURCE_CONTINUE;
}

static gboolean
has_claims (SluiceStoreWorkersPage *self)
{
  for (guint i = 0; self->workers != NULL && i < self->workers->len; i++)
    {
      const SluiceStoreWorker *w = g_ptr_array_index (self->workers, i);

      if (w->claims != NULL && w->claims->len > 0)
        return TRUE;
    }
  return FALSE;
}

/* The timer runs while there is a countdown to show. */
static void
update_tick (SluiceStoreWorkersPage *self)
{
  gboolean wanted = gtk_widget_get_mapped (GTK_WIDGET (self)) && has_claims (self);

  if (wanted && self->tick_id == 0)
    self->tick_id = g_timeout_add (SLUICE_STORE_WORKERS_TICK_MS, on_tick, self);
  else if (!wanted)
    g_clear_handle_id (&self->tick_id, g_source_remove);
}

/* ---- a worker's row ----------------------------------------------------------------- */

static char *
describe_claims (const SluiceStoreWorker *worker,
                 gint64                   now)
{
  GString *text;

  if (worker->claims == NULL || worker->claims->len == 0)
    return g_strdup (_("Holds no claim."));
  text = g_string_new (NULL);
  g_string_printf (text, g_dngettext (GETTEXT_PACKAGE, "Holds %u claim:", "Holds %u claims:", worker->claims->len),
                   worker->claims->len);
  for (guint i = 0; i < worker->claims->len; i++)
    {
      const SluiceStoredJob *job = g_ptr_array_index (worker->claims, i);
      g_autofree char *left = sluice_store_page_format_duration (job->lease_expires_at - now);

      /* Translators: one claim of a worker: its operation key and the
       * time its lease has left */
      g_string_append_printf (text, _(" %s, lease %s left;"), job->operation_key, left);
    }
  return g_string_free (text, FALSE);
}

static GtkWidget *
new_label (const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static char *
describe_worker (const SluiceStoreWorker *w,
                 gint64                   now)
{
  g_autofree char *up = sluice_store_page_format_duration (now - w->started_at);
  g_autofree char *beat = sluice_store_page_format_duration (now - w->heartbeat_at);

  g_autofree char *done = g_strdup_printf ("%" G_GUINT64_FORMAT, w->done);
  g_autofree char *failed = g_strdup_printf ("%" G_GUINT64_FORMAT, w->failed);

  /* Translators: a worker's host, process id, uptime, last heartbeat, and
   * the jobs it completed and failed since it started */
  return g_strdup_printf (_("%s · pid %d · up %s · last heartbeat %s ago · %s done, %s failed"),
                          w->host, (int) w->pid, up, beat, done, failed);
}

static GtkWidget *
new_row (SluiceStoreWorkersPage  *self,
         const SluiceStoreWorker *w,
         gint64                   now)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *name = new_label (w->id, "heading");
  g_autofree char *details = describe_worker (w, now);
  g_autofree char *claims = describe_claims (w, now);
  GtkWidget *lane = gtk_drawing_area_new ();

  gtk_label_set_selectable (GTK_LABEL (name), TRUE);
  gtk_box_append (GTK_BOX (header), name);
  if (w->lost)
    {
      g_autofree char *lost = g_strdup_printf (_("Lost: no heartbeat for %d leases"), SLUICE_STORE_ADMIN_LOST_LEASES);
      GtkWidget *mark = new_label (lost, "error");

      gtk_box_append (GTK_BOX (header), mark);
      gtk_widget_add_css_class (row, "store-worker-lost");
    }
  gtk_box_append (GTK_BOX (row), header);
  gtk_box_append (GTK_BOX (row), new_label (details, "dim-label"));
  g_object_set_data (G_OBJECT (lane), "page", self);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (lane), sluice_store_page_get_projector (SLUICE_STORE_PAGE (self)) ? 40 : 28);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (lane), draw_lane, sluice_store_worker_copy (w),
                                  (GDestroyNotify) sluice_store_worker_free);
  gtk_accessible_update_property (GTK_ACCESSIBLE (lane), GTK_ACCESSIBLE_PROPERTY_LABEL, claims, -1);
  gtk_widget_set_tooltip_text (lane, claims);
  gtk_box_append (GTK_BOX (row), lane);
  g_ptr_array_add (self->lanes, lane);
  return row;
}

static void
clear_rows (SluiceStoreWorkersPage *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->rows_box)) != NULL)
    gtk_box_remove (GTK_BOX (self->rows_box), child);
  g_ptr_array_set_size (self->lanes, 0);
  g_clear_pointer (&self->workers, g_ptr_array_unref);
}

/* ---- reads and the prune ---------------------------------------------------------- */

static void
show_status (SluiceStoreWorkersPage *self,
             const char             *text)
{
  gtk_label_set_text (GTK_LABEL (self->status), text);
  gtk_widget_set_visible (self->status, text != NULL);
}

static void
apply_workers (SluiceStorePage             *page,
               const SluiceStoreAdminReply *reply,
               const GError                *error)
{
  SluiceStoreWorkersPage *self = SLUICE_STORE_WORKERS_PAGE (page);
  gint64 now = page_now (self);

  if (reply == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not read the store: %s"), error->message);

      show_status (self, text);
      return;
    }
  clear_rows (self);
  self->workers = g_ptr_array_ref (reply->workers);
  for (guint i = 0; i < reply->workers->len; i++)
    gtk_box_append (GTK_BOX (self->rows_box), new_row (self, g_ptr_array_index (reply->workers, i), now));
  show_status (self, reply->workers->len == 0 ? _("No worker has registered with this store.") : NULL);
  update_tick (self);
  g_signal_emit (self, signals[READ], 0, reply->workers);
}

/* A refresh reads the workers. */
static SluiceStoreAdminQuery *
make_workers_query (SluiceStorePage *page,
                    gint64           now)
{
  SluiceStoreAdminQuery *query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WORKERS);

  query->now = now;
  return query;
}

static void
on_pruned (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SluiceStoreWorkersPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SluiceStoreAdminReply) reply = sluice_store_admin_finish (SLUICE_JOB_STORE (source), result, &error);

  if ((SluiceJobStore *) source != sluice_store_page_get_store (SLUICE_STORE_PAGE (self)))
    return;
  if (reply == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Could not forget the lost workers: %s"), error->message);

      show_status (self, text);
      return;
    }
  sluice_store_page_refresh (SLUICE_STORE_PAGE (self));
}

static void
prune_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SluiceStoreWorkersPage *self = SLUICE_STORE_WORKERS_PAGE (widget);
  SluiceJobStore *store = sluice_store_page_get_store (SLUICE_STORE_PAGE (self));
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_PRUNE_WORKERS);

  if (store == NULL || sluice_store_page_get_read_only (SLUICE_STORE_PAGE (self)))
    return;
  query->now = page_now (self);
  sluice_store_admin_async (store, query, NULL, on_pruned, g_object_ref (self));
}

/* Another store: the rows of the one before go, and their timer. */
static void
show_store (SluiceStorePage *page,
            SluiceJobStore  *store)
{
  SluiceStoreWorkersPage *self = SLUICE_STORE_WORKERS_PAGE (page);

  clear_rows (self);
  update_tick (self);
  show_status (self, store != NULL ? _("Reading the store…") : _("No store is open."));
}

static void
show_projector (SluiceStorePage *page,
                gboolean         projector)
{
  SluiceStoreWorkersPage *self = SLUICE_STORE_WORKERS_PAGE (page);

  for (guint i = 0; i < self->lanes->len; i++)
    gtk_drawing_area_set_content_height (g_ptr_array_index (self->lanes, i), projector ? 40 : 28);
}

/* ---- the object --------------------------------------------------------------------- */

static void
sluice_store_workers_page_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sluice_store_workers_page_parent_class)->map (widget);
  update_tick (SLUICE_STORE_WORKERS_PAGE (widget));
}

static void
sluice_store_workers_page_unmap (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sluice_store_workers_page_parent_class)->unmap (widget);
  update_tick (SLUICE_STORE_WORKERS_PAGE (widget));
}

static void
sluice_store_workers_page_dispose (GObject *object)
{
  SluiceStoreWorkersPage *self = SLUICE_STORE_WORKERS_PAGE (object);

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->workers, g_ptr_array_unref);
  g_clear_pointer (&self->lanes, g_ptr_array_unref);
  G_OBJECT_CLASS (sluice_store_workers_page_parent_class)->dispose (object);
}

static void
sluice_store_workers_page_class_init (SluiceStoreWorkersPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  SluiceStorePageClass *page_class = SLUICE_STORE_PAGE_CLASS (klass);

  object_class->dispose = sluice_store_workers_page_dispose;
  widget_class->map = sluice_store_workers_page_map;
  widget_class->unmap = sluice_store_workers_page_unmap;
  page_class->show_store = show_store;
  page_class->make_query = make_workers_query;
  page_class->apply = apply_workers;
  page_class->show_projector = show_projector;

  /**
   * SluiceStoreWorkersPage::read:
   * @self: the page
   * @workers: (element-type SluiceStoreWorker): what a read of the store gave
   *
   * The page read the store's workers and shows them: the store window's
   * alerts compare each read with the one before.
   */
  signals[READ] = g_signal_new ("read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_PTR_ARRAY);

  gtk_widget_class_install_action (widget_class, "workers.prune", NULL, prune_activated);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sluice_store_workers_page_init (SluiceStoreWorkersPage *self)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *inner = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);

  self->lanes = g_ptr_array_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  gtk_widget_set_margin_start (inner, 12);
  gtk_widget_set_margin_end (inner, 12);
  gtk_widget_set_margin_top (inner, 12);
  gtk_widget_set_margin_bottom (inner, 12);
  self->status = new_label (_("No store is open."), "dim-label");
  self->prune = gtk_button_new_with_label (_("Forget Lost Workers"));
  gtk_widget_set_halign (self->prune, GTK_ALIGN_START);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->prune), "workers.prune");
  gtk_widget_set_tooltip_text (self->prune, _("Deletes the rows of the workers whose heartbeat is older than 3 leases."));
  sluice_store_page_add_control (SLUICE_STORE_PAGE (self), self->prune);
  self->rows_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  gtk_box_append (GTK_BOX (inner), self->status);
  gtk_box_append (GTK_BOX (inner), self->prune);
  gtk_box_append (GTK_BOX (inner), self->rows_box);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), inner);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), scrolled);
}

GtkWidget *
sluice_store_workers_page_new (void)
{
  return g_object_new (SLUICE_TYPE_STORE_WORKERS_PAGE, NULL);
}
