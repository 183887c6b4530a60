/* sluice-store-job-detail.c: one stored job, its attempts and "Open in
 * Playground"
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "sluice-accessible.h"
#include "sluice-behaviour.h"
#include "sluice-palette.h"
#include "sluice-store-export.h"
#include "sluice-store-job-detail.h"
#include "sluice-theme.h"

/**
 * SluiceStoreJobDetail:
 *
 * One job of a store as `sluice-run store show` reads it
 * (docs/store-admin.md, "The store window"): its state, its lease (the
 * owner and the time left, counted down once a second while it runs), its
 * payload as indented JSON, and its attempt history as a timeline: one bar
 * per attempt, as long as the attempt lasted next to the longest, in the
 * colour of its outcome, with the worker, the outcome and the error.
 *
 * "Open in Playground" makes the scenario `sluice-run store export`
 * makes (sluice_store_export_scenario(), the one function both use) and
 * emits #SluiceStoreJobDetail::open-in-playground with it; the window that
 * holds the playground opens and runs it.
 *
 * The job is read with one asynchronous admin query; an answer for a job
 * shown before, or after the widget was disposed, is dropped.
 */

#define BAR_HEIGHT 14
#define BAR_MIN_WIDTH 8
#define BAR_MAX_WIDTH 240

struct _SluiceStoreJobDetail
{
  GtkWidget              parent_instance;

  GtkWidget             *box;
  GtkLabel              *title_label;
  GtkLabel              *state_label;
  GtkLabel              *lease_label;
  GtkTextBuffer         *payload_buffer;
  GtkBox                *attempts_box;
  GtkWidget             *open_button;
  GtkWidget             *live_button;   /* a running job's: its worker's live lanes */
  GPtrArray             *bars;         /* GtkWidget, one per attempt */

  SluiceJobStore        *store;
  char                  *description;
  char                  *id;
  SluiceStoreAdminReply *reply;        /* the job and its history, or NULL */
  char                  *payload_text;
  char                  *lease_text;
  GCancellable          *cancellable;
  guint                  generation;
  gboolean               loading;
  guint                  lease_timeout;
};

enum {
  OPEN_IN_PLAYGROUND,
  WATCH_LIVE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SluiceStoreJobDetail, sluice_store_job_detail, GTK_TYPE_WIDGET)

static const SluiceStoredJob *
shown_job (SluiceStoreJobDetail *self)
{
  return self->reply != NULL && self->reply->jobs->len > 0 ? g_ptr_array_index (self->reply->jobs, 0) : NULL;
}

/* ---- the lease, live ------------------------------------------------------------ */

static void
show_lease (SluiceStoreJobDetail *self)
{
  const SluiceStoredJob *job = shown_job (self);
  gint64 left;

  g_free (self->lease_text);
  if (job == NULL || job->lease_owner == NULL || job->state != SLUICE_STORED_JOB_RUNNING)
    self->lease_text = g_strdup (_("No lease: no worker holds the job."));
  else
    {
      left = (job->lease_expires_at - g_get_real_time ()) / G_USEC_PER_SEC;
      if (left > 0)
        /* Translators: %s is a worker's id, %ld a number of seconds */
        self->lease_text = g_strdup_printf (_("Leased by %s, %ld s left"), job->lease_owner, (long) left);
      else
        /* Translators: %s is a worker's id */
        self->lease_text = g_strdup_printf (_("Leased by %s, expired: another worker may reclaim it"),
                                            job->lease_owner);
    }
  gtk_label_set_text (self->lease_label, self->lease_text);
  gtk_widget_set_visible (self->live_button,
                          job != NULL && job->lease_owner != NULL && job->state == SLUICE_STORED_JOB_RUNNING);
}

static gboolean
on_lease_tick (gpointer user_data)
{
  show_lease (user_data);
  return G_SOURCE_CONTINUE;
}

/* ---- the timeline ------------------------------------------------------------- */

static const char *
outcome_name (SluiceStoreAttemptOutcome outcome)
{
  switch (outcome)
    {
    case SLUICE_STORE_ATTEMPT_RUNNING:
      /* Translators: how an attempt of a stored job ended */
      return C_("attempt outcome", "running");
    case SLUICE_STORE_ATTEMPT_SUCCEEDED:
      return C_("attempt outcome", "succeeded");
    case SLUICE_STORE_ATTEMPT_FAILED:
      return C_("attempt outcome", "failed");
    case SLUICE_STORE_ATTEMPT_TIMED_OUT:
      return C_("attempt outcome", "timed out");
    case SLUICE_STORE_ATTEMPT_LEASE_LOST:
      return C_("attempt outcome", "lease lost");
    case SLUICE_STORE_ATTEMPT_CANCELLED:
    default:
      return C_("attempt outcome", "cancelled");
    }
}

static const SluiceColor *
outcome_color (const SluicePalette       *palette,
               SluiceStoreAttemptOutcome  outcome)
{
  switch (outcome)
    {
    case SLUICE_STORE_ATTEMPT_RUNNING:
      return &palette->running;
    case SLUICE_STORE_ATTEMPT_SUCCEEDED:
      return &palette->ok;
    case SLUICE_STORE_ATTEMPT_FAILED:
      return &palette->failed;
    case SLUICE_STORE_ATTEMPT_TIMED_OUT:
      return &palette->timed_out;
    case SLUICE_STORE_ATTEMPT_CANCELLED:
      return &palette->cancelled;
    case SLUICE_STORE_ATTEMPT_LEASE_LOST:
    default:
      return &palette->muted;
    }
}

static void
draw_bar (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        user_data)
{
  GtkWidget *widget = GTK_WIDGET (area);
  SluicePaletteFlags flags = sluice_widget_is_dark (widget) ? SLUICE_PALETTE_DARK : SLUICE_PALETTE_LIGHT;
  GtkRoot *root = gtk_widget_get_root (widget);

  if (sluice_widget_is_high_contrast (widget) ||
      (root != NULL && gtk_widget_has_css_class (GTK_WIDGET (root), "projector")))
    flags |= SLUICE_PALETTE_HIGH_CONTRAST;
  sluice_palette_set_source (cr, outcome_color (sluice_palette_get (flags), GPOINTER_TO_UINT (user_data)));
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

static char *
attempt_text (const SluiceStoreAttempt *a)
{
  double seconds = a->ended_at > a->started_at ? (double) (a->ended_at - a->started_at) / G_USEC_PER_SEC : 0;
  /* Translators: one attempt of a stored job: its number, the worker that
   * ran it, how it ended and how long it took in seconds */
  g_autofree char *head = g_strdup_printf (_("Attempt %u · %s · %s · %.1f s"), a->number,
                                           a->worker != NULL ? a->worker : "?", outcome_name (a->outcome), seconds);

  if (a->error == NULL)
    return g_steal_pointer (&head);
  return g_strdup_printf ("%s — %s: %s", head, a->error->type_name, a->error->message);
}

static GtkWidget *
attempt_row (const SluiceStoreAttempt *a,
             gint64                    longest,
             GtkWidget               **bar_out)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *bar = gtk_drawing_area_new ();
  g_autofree char *text = attempt_text (a);
  GtkWidget *label = gtk_label_new (text);
  gint64 length = a->ended_at > a->started_at ? a->ended_at - a->started_at : 0;
  int width = longest > 0 ? (int) (BAR_MAX_WIDTH * length / longest) : BAR_MIN_WIDTH;
  g_autofree char *css = g_strdup_printf ("attempt-%s", sluice_store_attempt_outcome_to_string (a->outcome));

  /* A fixed lane for the bars, so that the texts line up. */
  gtk_widget_set_size_request (bar, BAR_MAX_WIDTH, BAR_HEIGHT);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (bar), MAX (width, BAR_MIN_WIDTH));
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (bar), BAR_HEIGHT);
  gtk_widget_set_halign (bar, GTK_ALIGN_START);
  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (bar), draw_bar, GUINT_TO_POINTER (a->outcome), NULL);
  gtk_widget_add_css_class (bar, css);
  /* The bar's colour is not the only cue: its name says the outcome. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (bar), GTK_ACCESSIBLE_PROPERTY_LABEL, text, -1);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_box_append (GTK_BOX (row), bar);
  gtk_box_append (GTK_BOX (row), label);
  *bar_out = bar;
  return row;
}

static void
clear_attempts (SluiceStoreJobDetail *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->attempts_box))) != NULL)
    gtk_box_remove (self->attempts_box, child);
  g_ptr_array_set_size (self->bars, 0);
}

static void
show_attempts (SluiceStoreJobDetail *self)
{
  gint64 longest = 0;

  clear_attempts (self);
  for (guint i = 0; i < self->reply->attempts->len; i++)
    {
      const SluiceStoreAttempt *a = g_ptr_array_index (self->reply->attempts, i);

      if (a->ended_at > a->started_at)
        longest = MAX (longest, a->ended_at - a->started_at);
    }
  for (guint i = 0; i < self->reply->attempts->len; i++)
    {
      GtkWidget *bar = NULL;

      gtk_box_append (self->attempts_box, attempt_row (g_ptr_array_index (self->reply->attempts, i), longest, &bar));
      g_ptr_array_add (self->bars, bar);
    }
  if (self->reply->attempts->len == 0)
    gtk_box_append (self->attempts_box, gtk_label_new (_("No attempt yet.")));
}

/* ---- the job ------------------------------------------------------------------ */

static char *
pretty_json (const char *text)
{
  g_autoptr(JsonNode) node = text != NULL ? json_from_string (text, NULL) : NULL;

  if (node == NULL)
    return g_strdup (text != NULL ? text : "");
  return json_to_string (node, TRUE);
}

static void
show_job (SluiceStoreJobDetail *self)
{
  const SluiceStoredJob *job = shown_job (self);
  g_autofree char *title = NULL;
  g_autofree char *state = NULL;

  if (job == NULL)
    {
      /* Translators: %s is a job's id */
      title = g_strdup_printf (_("There is no job %s any more."), self->id);
      gtk_label_set_text (self->title_label, title);
      gtk_label_set_text (self->state_label, "");
      gtk_text_buffer_set_text (self->payload_buffer, "", -1);
      clear_attempts (self);
      gtk_widget_set_sensitive (self->open_button, FALSE);
      show_lease (self);
      return;
    }
  /* Translators: the job detail's heading: the operation key and the id */
  title = g_strdup_printf (_("Job %s (%s)"), job->operation_key, job->id);
  gtk_label_set_text (self->title_label, title);
  /* Translators: a job's state, its attempts so far and its most */
  state = g_strdup_printf (_("State: %s, attempt %u of %u"), sluice_stored_job_state_to_string (job->state),
                           job->attempts, job->max_attempts);
  gtk_label_set_text (self->state_label, state);
  g_free (self->payload_text);
  self->payload_text = pretty_json (job->payload);
  gtk_text_buffer_set_text (self->payload_buffer, self->payload_text, -1);
  show_attempts (self);
  gtk_widget_set_sensitive (self->open_button, TRUE);
  show_lease (self);
}

typedef struct {
  SluiceStoreJobDetail *self;  /* a reference until the answer */
  guint                 generation;
} Read;

static void
on_read (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autofree Read *read = user_data;
  g_autoptr(SluiceStoreJobDetail) self = read->self;
  g_autoptr(GError) error = NULL;
  SluiceStoreAdminReply *reply = sluice_store_admin_finish (SLUICE_JOB_STORE (object), result, &error);

  if (read->generation != self->generation || self->store == NULL)
    {
      g_clear_pointer (&reply, sluice_store_admin_reply_free);
      return;
    }
  self->loading = FALSE;
  if (reply == NULL)
    {
      /* Translators: %s says why the job could not be read */
      g_autofree char *text = g_strdup_printf (_("The job could not be read: %s"), error->message);

      gtk_label_set_text (self->title_label, text);
      return;
    }
  g_clear_pointer (&self->reply, sluice_store_admin_reply_free);
  self->reply = reply;
  show_job (self);
}

static void
open_in_playground (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SluiceStoreJobDetail *self = SLUICE_STORE_JOB_DETAIL (widget);
  g_autofree char *scenario = sluice_store_job_detail_dup_scenario (self);

  if (scenario != NULL)
    g_signal_emit (self, signals[OPEN_IN_PLAYGROUND], 0, scenario);
}

/* "Watch Live": the running job's attempt in its worker's pool, if that
 * worker exports it (SLUICE_MONITOR=session): the lease owner is the
 * worker's id (docs/store-admin.md). */
static void
watch_live (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SluiceStoreJobDetail *self = SLUICE_STORE_JOB_DETAIL (widget);
  const SluiceStoredJob *job = shown_job (self);

  if (job != NULL && job->lease_owner != NULL && job->state == SLUICE_STORED_JOB_RUNNING)
    g_signal_emit (self, signals[WATCH_LIVE], 0, job->lease_owner, job->id);
}

/* ---- building ------------------------------------------------------------------ */

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "section-heading");
  return label;
}

static GtkLabel *
text_label (GtkWidget *box)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_box_append (GTK_BOX (box), label);
  return GTK_LABEL (label);
}

static void
build (SluiceStoreJobDetail *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *payload = gtk_text_view_new ();
  GtkWidget *payload_scrolled = gtk_scrolled_window_new ();
  GtkWidget *attempts_scrolled = gtk_scrolled_window_new ();

  self->title_label = text_label (box);
  gtk_widget_add_css_class (GTK_WIDGET (self->title_label), "title-4");
  self->state_label = text_label (box);
  self->lease_label = text_label (box);
  gtk_widget_add_css_class (GTK_WIDGET (self->lease_label), "numeric");

  self->open_button = gtk_button_new_with_mnemonic (_("_Open in Playground"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->open_button), "job.open-in-playground");
  gtk_widget_set_tooltip_text (self->open_button,
                               _("Replay the job's attempts as a scenario on the virtual clock, in the playground"));
  gtk_widget_set_halign (self->open_button, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), self->open_button);

  self->live_button = gtk_button_new_with_mnemonic (_("_Watch Live"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->live_button), "job.watch-live");
  gtk_widget_set_tooltip_text (self->live_button,
                               _("Show the attempt in its worker's live lanes, in the playground (the worker exports "
                                 "its pool with SLUICE_MONITOR=session)"));
  gtk_widget_set_halign (self->live_button, GTK_ALIGN_START);
  gtk_widget_set_visible (self->live_button, FALSE);
  gtk_box_append (GTK_BOX (box), self->live_button);

  gtk_box_append (GTK_BOX (box), heading (_("Attempts")));
  self->attempts_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 4));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->attempts_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Attempts"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (attempts_scrolled), GTK_WIDGET (self->attempts_box));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (attempts_scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (attempts_scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (attempts_scrolled), 240);
  gtk_box_append (GTK_BOX (box), attempts_scrolled);

  gtk_box_append (GTK_BOX (box), heading (_("Payload")));
  gtk_text_view_set_editable (GTK_TEXT_VIEW (payload), FALSE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (payload), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (payload), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Payload"), -1);
  self->payload_buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (payload));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (payload_scrolled), payload);
  gtk_widget_set_vexpand (payload_scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), payload_scrolled);

  self->box = box;
  gtk_widget_set_parent (box, GTK_WIDGET (self));
}

/* ---- GObject ------------------------------------------------------------------ */

static void
sluice_store_job_detail_dispose (GObject *object)
{
  SluiceStoreJobDetail *self = SLUICE_STORE_JOB_DETAIL (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->lease_timeout, g_source_remove);
  g_clear_object (&self->store);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sluice_store_job_detail_parent_class)->dispose (object);
}

static void
sluice_store_job_detail_finalize (GObject *object)
{
  SluiceStoreJobDetail *self = SLUICE_STORE_JOB_DETAIL (object);

  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->reply, sluice_store_admin_reply_free);
  g_clear_pointer (&self->bars, g_ptr_array_unref);
  g_free (self->description);
  g_free (self->id);
  g_free (self->payload_text);
  g_free (self->lease_text);
  G_OBJECT_CLASS (sluice_store_job_detail_parent_class)->finalize (object);
}

static void
sluice_store_job_detail_class_init (SluiceStoreJobDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_store_job_detail_dispose;
  object_class->finalize = sluice_store_job_detail_finalize;

  /**
   * SluiceStoreJobDetail::open-in-playground:
   * @self: the detail
   * @scenario: the scenario's text (`sluice-run store export`'s)
   *
   * "Open in Playground": the job's attempts as a scenario to replay.
   */
  signals[OPEN_IN_PLAYGROUND] = g_signal_new ("open-in-playground", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_install_action (widget_class, "job.open-in-playground", NULL, open_in_playground);

  /**
   * SluiceStoreJobDetail::watch-live:
   * @self: the detail
   * @worker_id: the running job's lease owner
   * @job_id: the job's id
   *
   * "Watch Live": the running attempt in its worker's live lanes.
   */
  signals[WATCH_LIVE] = g_signal_new ("watch-live", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  gtk_widget_class_install_action (widget_class, "job.watch-live", NULL, watch_live);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
sluice_store_job_detail_init (SluiceStoreJobDetail *self)
{
  self->cancellable = g_cancellable_new ();
  self->bars = g_ptr_array_new ();
  build (self);
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
}

/* ---- public ------------------------------------------------------------------ */

SluiceStoreJobDetail *
sluice_store_job_detail_new (void)
{
  return g_object_new (SLUICE_TYPE_STORE_JOB_DETAIL, NULL);
}

/**
 * sluice_store_job_detail_show:
 * @self: a detail
 * @store: the store
 * @description: the store's URI without its password
 * @id: the job's id
 *
 * Reads the job @id with its history and shows it.
 */
void
sluice_store_job_detail_show (SluiceStoreJobDetail *self,
                              SluiceJobStore       *store,
                              const char           *description,
                              const char           *id)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_SHOW);
  Read *read;

  g_return_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self));
  g_return_if_fail (sluice_store_admin_supported (store));
  g_return_if_fail (id != NULL);

  g_set_object (&self->store, store);
  g_free (self->description);
  self->description = g_strdup (description);
  g_free (self->id);
  self->id = g_strdup (id);
  g_clear_pointer (&self->reply, sluice_store_admin_reply_free);
  self->generation++;
  self->loading = TRUE;
  gtk_label_set_text (self->title_label, _("Reading the job…"));
  gtk_widget_set_sensitive (self->open_button, FALSE);
  if (self->lease_timeout == 0)
    self->lease_timeout = g_timeout_add_seconds (1, on_lease_tick, self);

  query->ids = g_strdupv ((char *[]) { (char *) id, NULL });
  query->now = g_get_real_time ();
  read = g_new0 (Read, 1);
  read->self = g_object_ref (self);
  read->generation = self->generation;
  sluice_store_admin_async (store, query, self->cancellable, on_read, read);
}

gboolean
sluice_store_job_detail_get_loading (SluiceStoreJobDetail *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), FALSE);
  return self->loading;
}

const char *
sluice_store_job_detail_get_job_id (SluiceStoreJobDetail *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), NULL);
  return self->id;
}

/**
 * sluice_store_job_detail_get_payload_text:
 * @self: a detail
 *
 * Returns: (nullable): the payload as shown, indented JSON
 */
const char *
sluice_store_job_detail_get_payload_text (SluiceStoreJobDetail *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), NULL);
  return self->payload_text;
}

/**
 * sluice_store_job_detail_get_lease_text:
 * @self: a detail
 *
 * Returns: (nullable): the lease as shown now
 */
const char *
sluice_store_job_detail_get_lease_text (SluiceStoreJobDetail *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), NULL);
  return self->lease_text;
}

guint
sluice_store_job_detail_get_n_attempts (SluiceStoreJobDetail *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), 0);
  return self->bars->len;
}

/**
 * sluice_store_job_detail_get_attempt_bar:
 * @self: a detail
 * @index: an attempt shown, from 0 (the oldest)
 *
 * Returns: (transfer none) (nullable): its bar, with the CSS class
 *   `attempt-OUTCOME` and the attempt's text as its accessible label
 */
GtkWidget *
sluice_store_job_detail_get_attempt_bar (SluiceStoreJobDetail *self,
                                         guint                 index)
{
  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), NULL);
  return index < self->bars->len ? g_ptr_array_index (self->bars, index) : NULL;
}

/**
 * sluice_store_job_detail_dup_scenario:
 * @self: a detail
 *
 * Returns: (transfer full) (nullable): the scenario that replays the job
 *   shown (as `sluice-run store export ID --scenario` writes it), or %NULL
 *   while none is shown
 */
char *
sluice_store_job_detail_dup_scenario (SluiceStoreJobDetail *self)
{
  const SluiceStoredJob *job;

  g_return_val_if_fail (SLUICE_IS_STORE_JOB_DETAIL (self), NULL);

  job = shown_job (self);
  if (job == NULL)
    return NULL;
  return sluice_store_export_scenario (job, self->reply->attempts, self->description, sluice_behaviour_is_valid);
}
