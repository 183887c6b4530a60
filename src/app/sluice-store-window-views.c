/* sluice-store-window-views.c: what the job store window shows: the jobs
 * by state as big numbers over a strip of their shares, and the last
 * failures
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-palette.h"
#include "sluice-store-window-private.h"
#include "sluice-theme.h"
#include "sluice-store-page-read.h"

#define SHORT_ID_CHARS 8
#define STRIP_HEIGHT 14
#define STRIP_MIN_SEGMENT 3
#define SWATCH_SIZE 12

static const char * const state_titles[N_STATES] = {
  /* Translators: a count's title in the job store window: jobs waiting to
   * be claimed. Keep it short. */
  [SLUICE_STORED_JOB_PENDING] = N_("Pending"),
  /* Translators: a count's title: jobs a worker holds a lease on */
  [SLUICE_STORED_JOB_RUNNING] = N_("Running"),
  /* Translators: a count's title: failed jobs waiting for their retry.
   * Keep it short. */
  [SLUICE_STORED_JOB_RETRY_WAIT] = N_("Retry wait"),
  [SLUICE_STORED_JOB_SUCCEEDED] = N_("Succeeded"),
  /* Translators: a count's title: jobs that failed for good */
  [SLUICE_STORED_JOB_DEAD] = N_("Dead"),
  /* Translators: a count's title: jobs an operator cancelled */
  [SLUICE_STORED_JOB_CANCELLED] = N_("Cancelled"),
  /* Translators: a count's title: jobs enqueued to run later */
  [SLUICE_STORED_JOB_SCHEDULED] = N_("Scheduled"),
};

static const char * const state_tooltips[N_STATES] = {
  [SLUICE_STORED_JOB_PENDING] = N_("Jobs waiting to be claimed by a worker, now or at their available time (state pending)."),
  [SLUICE_STORED_JOB_RUNNING] = N_("Jobs a worker has claimed and holds a lease on (state running). A worker that crashed keeps them until its lease expires and they are released."),
  [SLUICE_STORED_JOB_RETRY_WAIT] = N_("Jobs that failed and wait for their retry at their available time (state retry_wait)."),
  [SLUICE_STORED_JOB_SUCCEEDED] = N_("Jobs completed with a result (state succeeded)."),
  [SLUICE_STORED_JOB_DEAD] = N_("Jobs that failed for good: not retryable, out of attempts, or their last lease expired (state dead)."),
  [SLUICE_STORED_JOB_CANCELLED] = N_("Jobs an operator cancelled (state cancelled)."),
  [SLUICE_STORED_JOB_SCHEDULED] = N_("Jobs enqueued to run later, not available to workers before their time (state scheduled)."),
};

static const char * const column_titles[SLUICE_STORE_N_COLUMNS] = {
  /* Translators: a column of the last failures: the job's id, shortened */
  [SLUICE_STORE_COLUMN_JOB] = N_("Job"),
  [SLUICE_STORE_COLUMN_TENANT] = N_("Tenant"),
  /* Translators: a column: the job's operation key */
  [SLUICE_STORE_COLUMN_OPERATION] = N_("Operation"),
  [SLUICE_STORE_COLUMN_STATE] = N_("State"),
  /* Translators: a column: attempts so far / the most it may have */
  [SLUICE_STORE_COLUMN_ATTEMPTS] = N_("Attempts"),
  /* Translators: a column: the failure's error type, such as TimeoutError */
  [SLUICE_STORE_COLUMN_TYPE] = N_("Failure"),
  /* Translators: a column: the failure's stable code, such as ATTEMPT_TIMEOUT */
  [SLUICE_STORE_COLUMN_CODE] = N_("Code"),
  [SLUICE_STORE_COLUMN_MESSAGE] = N_("Message"),
  /* Translators: a column: when the job last changed */
  [SLUICE_STORE_COLUMN_WHEN] = N_("When"),
};

/* ---- colours ------------------------------------------------------------- */

/* The lanes' colours where they mean the same (running, retried, ok,
 * failed); a job not started yet is grey, as text that matters less: the
 * queue's blue is the running bars' in the dark palette. */
static const SluiceColor *
state_color (const SluicePalette  *palette,
             SluiceStoredJobState  state)
{
  switch (state)
    {
    case SLUICE_STORED_JOB_PENDING:
      return &palette->muted;
    case SLUICE_STORED_JOB_RUNNING:
      return &palette->running;
    case SLUICE_STORED_JOB_RETRY_WAIT:
      return &palette->retried;
    case SLUICE_STORED_JOB_SUCCEEDED:
      return &palette->ok;
    case SLUICE_STORED_JOB_DEAD:
    default:
      return &palette->failed;
    }
}

static const SluicePalette *
palette_for (SluiceStoreWindow *self,
             GtkWidget         *widget)
{
  SluicePaletteFlags flags = sluice_widget_is_dark (widget) ? SLUICE_PALETTE_DARK : SLUICE_PALETTE_LIGHT;

  if (self->projector || sluice_widget_is_high_contrast (widget))
    flags |= SLUICE_PALETTE_HIGH_CONTRAST;
  return sluice_palette_get (flags);
}

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  SluiceStoreWindow *self = g_object_get_data (G_OBJECT (area), "window");
  SluiceStoredJobState state = GPOINTER_TO_UINT (user_data);

  sluice_palette_set_source (cr, state_color (palette_for (self, GTK_WIDGET (area)), state));
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

/* Each state as wide as its share; one with a job or more at least a few
 * pixels, taken from the widest, so that one dead job among a million
 * still shows. */
static void
segment_widths (const guint64 *counts,
                int            width,
                int           *widths)
{
  guint64 total = 0;
  int sum = 0, widest = 0;

  for (guint s = 0; s < N_STATES; s++)
    total += counts[s];
  for (guint s = 0; s < N_STATES; s++)
    {
      widths[s] = 0;
      if (total == 0 || counts[s] == 0)
        continue;
      widths[s] = MAX (STRIP_MIN_SEGMENT, (int) ((double) width * counts[s] / total + 0.5));
      sum += widths[s];
      if (widths[s] > widths[widest])
        widest = (int) s;
    }
  if (sum != 0)
    widths[widest] -= sum - width;
}

static void
draw_strip (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  SluiceStoreWindow *self = user_data;
  const SluicePalette *palette = palette_for (self, GTK_WIDGET (area));
  int widths[N_STATES];
  int x = 0;

  sluice_palette_set_source (cr, &palette->grid);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  if (self->status == NULL)
    return;

  segment_widths (self->status->counts, width, widths);
  for (guint s = 0; s < N_STATES; s++)
    {
      if (widths[s] <= 0)
        continue;
      sluice_palette_set_source (cr, state_color (palette, s));
      cairo_rectangle (cr, x, 0, widths[s], height);
      cairo_fill (cr);
      x += widths[s];
    }
}

static void
redraw_colours (SluiceStoreWindow *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->strip));
  for (guint s = 0; s < N_STATES; s++)
    gtk_widget_queue_draw (self->swatches[s]);
}

/* ---- the counts ---------------------------------------------------------- */

static GtkWidget *
create_count (SluiceStoreWindow    *self,
              SluiceStoredJobState  state)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *value = gtk_label_new ("–");
  GtkWidget *caption = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *title = gtk_label_new (_(state_titles[state]));

  gtk_widget_add_css_class (value, "counter-value");
  gtk_widget_add_css_class (title, "counter-title");
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  g_object_set_data (G_OBJECT (swatch), "window", self);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), SWATCH_SIZE);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), SWATCH_SIZE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, GUINT_TO_POINTER (state), NULL);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (caption, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (caption), swatch);
  gtk_box_append (GTK_BOX (caption), title);
  gtk_box_append (GTK_BOX (box), value);
  gtk_box_append (GTK_BOX (box), caption);
  gtk_widget_set_tooltip_text (box, _(state_tooltips[state]));
  gtk_accessible_update_relation (GTK_ACCESSIBLE (value), GTK_ACCESSIBLE_RELATION_LABELLED_BY, title, NULL, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (value),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _(state_tooltips[state]), -1);

  self->count_labels[state] = GTK_LABEL (value);
  self->swatches[state] = swatch;
  return box;
}

static void
create_counts (SluiceStoreWindow *self)
{
  for (guint s = 0; s < N_STATES; s++)
    gtk_box_append (self->counts_box, create_count (self, s));
}

/**
 * _sluice_store_window_show_counts:
 * @self: a #SluiceStoreWindow with a status
 *
 * Shows the status's counts, and draws the strip again.
 */
void
_sluice_store_window_show_counts (SluiceStoreWindow *self)
{
  for (guint s = 0; s < N_STATES; s++)
    {
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, self->status->counts[s]);

      if (g_strcmp0 (gtk_label_get_text (self->count_labels[s]), text) != 0)
        gtk_label_set_text (self->count_labels[s], text);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self->strip));
}

/* ---- the last failures --------------------------------------------------- */

/**
 * _sluice_store_window_get_failure:
 * @self: a #SluiceStoreWindow
 * @row: a row of the last failures
 *
 * Returns: (transfer none) (nullable): the job of @row in the last
 *   status, or %NULL
 */
const SluiceStoredJob *
_sluice_store_window_get_failure (SluiceStoreWindow *self,
            guint              row)
{
  if (self->status == NULL || self->status->failures == NULL || row >= self->status->failures->len)
    return NULL;
  return g_ptr_array_index (self->status->failures, row);
}

/* Today's as the time of day, older ones with their date: a failure of
 * last week is not one of a minute ago. */
static char *
format_when (gint64 usec)
{
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (usec / G_USEC_PER_SEC);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  int y1, m1, d1, y2, m2, d2;

  if (when == NULL)
    return g_strdup ("");
  g_date_time_get_ymd (when, &y1, &m1, &d1);
  g_date_time_get_ymd (now, &y2, &m2, &d2);
  return g_date_time_format (when, y1 == y2 && m1 == m2 && d1 == d2 ? "%H:%M:%S" : "%Y-%m-%d %H:%M:%S");
}

/**
 * _sluice_store_window_format_cell:
 * @job: a job of the last failures
 * @column: a column
 *
 * Returns: (transfer full): the cell's text as the table shows it
 */
char *
_sluice_store_window_format_cell (const SluiceStoredJob *job,
             SluiceStoreColumn      column)
{
  const SluiceJobFailure *failure = job->last_failure;

  switch (column)
    {
    case SLUICE_STORE_COLUMN_JOB:
      return g_strndup (job->id != NULL ? job->id : "", SHORT_ID_CHARS);
    case SLUICE_STORE_COLUMN_TENANT:
      return g_strdup (job->tenant != NULL ? job->tenant : "");
    case SLUICE_STORE_COLUMN_OPERATION:
      return g_strdup (job->operation_key != NULL ? job->operation_key : "");
    case SLUICE_STORE_COLUMN_STATE:
      if ((guint) job->state >= N_STATES)
        return g_strdup ("");
      return g_strdup (sluice_store_page_state_name (job->state));
    case SLUICE_STORE_COLUMN_ATTEMPTS:
      return g_strdup_printf ("%u/%u", job->attempts, job->max_attempts);
    case SLUICE_STORE_COLUMN_TYPE:
      return g_strdup (failure != NULL ? failure->type_name : "");
    case SLUICE_STORE_COLUMN_CODE:
      return g_strdup (failure != NULL ? failure->code : "");
    case SLUICE_STORE_COLUMN_MESSAGE:
      return g_strdup (failure != NULL ? failure->message : "");
    case SLUICE_STORE_COLUMN_WHEN:
      return format_when (job->updated_at);
    case SLUICE_STORE_N_COLUMNS:
    default:
      g_return_val_if_reached (NULL);
    }
}

static gboolean
is_numeric (SluiceStoreColumn column)
{
  return column == SLUICE_STORE_COLUMN_ATTEMPTS || column == SLUICE_STORE_COLUMN_WHEN;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  SluiceStoreColumn column = GPOINTER_TO_UINT (user_data);
  GtkWidget *label = sluice_cell_label_new (is_numeric (column));

  if (column == SLUICE_STORE_COLUMN_JOB || column == SLUICE_STORE_COLUMN_CODE)
    gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  SluiceStoreColumn column = GPOINTER_TO_UINT (user_data);
  SluiceStoreWindow *self = g_object_get_data (G_OBJECT (factory), "window");
  const SluiceStoredJob *job = _sluice_store_window_get_failure (self, gtk_list_item_get_position (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = job != NULL ? _sluice_store_window_format_cell (job, column) : g_strdup ("");
  const char *tooltip = NULL;

  gtk_label_set_text (GTK_LABEL (label), text);
  /* The whole id, and a message the column cuts short. */
  if (job != NULL && column == SLUICE_STORE_COLUMN_JOB)
    tooltip = job->id;
  else if (column == SLUICE_STORE_COLUMN_MESSAGE && *text != '\0')
    tooltip = text;
  gtk_widget_set_tooltip_text (label, tooltip);
}

static void
create_columns (SluiceStoreWindow *self)
{
  g_autoptr(GtkSingleSelection) selection = NULL;

  for (guint c = 0; c < SLUICE_STORE_N_COLUMNS; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "window", self);
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GUINT_TO_POINTER (c));
      column = gtk_column_view_column_new (_(column_titles[c]), factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_expand (column, c == SLUICE_STORE_COLUMN_MESSAGE);
      gtk_column_view_append_column (self->failures_view, column);
      self->columns[c] = column;
    }

  self->model = gtk_string_list_new (NULL);
  selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->model)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->failures_view, GTK_SELECTION_MODEL (selection));
}

/**
 * _sluice_store_window_show_columns:
 * @self: a #SluiceStoreWindow
 *
 * Shows the columns that say something now. One tenant's rows all have
 * it. On a projector, whose text is 1.6 times larger, the columns a room
 * reads (the operation, its state and attempts, the failure, its message
 * and when) share the width, without the job's id and the failure's
 * code.
 */
void
_sluice_store_window_show_columns (SluiceStoreWindow *self)
{
  gtk_column_view_column_set_visible (self->columns[SLUICE_STORE_COLUMN_TENANT],
                                      self->tenant == NULL && !self->projector);
  gtk_column_view_column_set_visible (self->columns[SLUICE_STORE_COLUMN_JOB], !self->projector);
  gtk_column_view_column_set_visible (self->columns[SLUICE_STORE_COLUMN_CODE], !self->projector);
}

static gboolean
same_failures (GPtrArray *a,
               GPtrArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    {
      const SluiceStoredJob *x = g_ptr_array_index (a, i), *y = g_ptr_array_index (b, i);

      /* Every change of a job moves its updated_at. */
      if (g_strcmp0 (x->id, y->id) != 0 || x->updated_at != y->updated_at)
        return FALSE;
    }
  return TRUE;
}

/**
 * _sluice_store_window_show_empty_text:
 * @self: a #SluiceStoreWindow
 *
 * Shows the list, or why it is empty: not read yet, or no failure.
 */
void
_sluice_store_window_show_empty_text (SluiceStoreWindow *self)
{
  gboolean empty = self->status == NULL || self->status->failures == NULL || self->status->failures->len == 0;

  if (self->status == NULL)
    gtk_label_set_text (self->empty_label, _("The store has not been read yet."));
  else
    gtk_label_set_text (self->empty_label, _("No job has failed: no failure is recorded."));
  gtk_stack_set_visible_child_name (self->failures_stack, empty ? "empty" : "list");
}

/* A window that was just opened has its focus in the tenant's entry, the
 * first thing that takes it: the first failures listed take it from
 * there, unless a tenant is being typed, so that the window does not look
 * as if it waited for one and the keys move through the rows. */
static void
listed_first (SluiceStoreWindow *self)
{
  GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

  if (self->listed || self->status->failures == NULL || self->status->failures->len == 0)
    return;
  self->listed = TRUE;
  if (focus == NULL ||
      (gtk_widget_is_ancestor (focus, GTK_WIDGET (self->tenant_entry)) &&
       *gtk_editable_get_text (GTK_EDITABLE (self->tenant_entry)) == '\0'))
    gtk_widget_grab_focus (GTK_WIDGET (self->failures_view));
}

/**
 * _sluice_store_window_show_failures:
 * @self: a #SluiceStoreWindow with a new status
 * @before: (nullable) (element-type SluiceStoredJob): the failures of the
 *   status before it
 *
 * Lists the new failures in one change, and only when they changed, so
 * that a selection and the scrolled position stay while nothing fails.
 */
void
_sluice_store_window_show_failures (SluiceStoreWindow *self,
               GPtrArray         *before)
{
  GPtrArray *failures = self->status->failures;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) ids = NULL;

  _sluice_store_window_show_empty_text (self);
  if (same_failures (before, failures))
    return;
  listed_first (self);

  for (guint i = 0; failures != NULL && i < failures->len; i++)
    g_strv_builder_add (builder, ((SluiceStoredJob *) g_ptr_array_index (failures, i))->id);
  ids = g_strv_builder_end (builder);
  gtk_string_list_splice (self->model, 0, g_list_model_get_n_items (G_LIST_MODEL (self->model)),
                          (const char * const *) ids);
}

/* ---- building ------------------------------------------------------------ */

/**
 * _sluice_store_window_create_views:
 * @self: a #SluiceStoreWindow, its template made
 *
 * Adds a count per state, the strip's drawing and the columns of the last
 * failures.
 */
void
_sluice_store_window_create_views (SluiceStoreWindow *self)
{
  create_counts (self);
  create_columns (self);
  gtk_drawing_area_set_draw_func (self->strip, draw_strip, self, NULL);
}

/**
 * _sluice_store_window_fit_projector:
 * @self: a #SluiceStoreWindow
 *
 * The strip and the swatches as much taller as the text in projector
 * mode, in the high-contrast palette; the columns a room reads.
 */
void
_sluice_store_window_fit_projector (SluiceStoreWindow *self)
{
  int swatch = self->projector ? SWATCH_SIZE * 8 / 5 : SWATCH_SIZE;

  gtk_drawing_area_set_content_height (self->strip, self->projector ? STRIP_HEIGHT * 8 / 5 : STRIP_HEIGHT);
  for (guint s = 0; s < N_STATES; s++)
    {
      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self->swatches[s]), swatch);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->swatches[s]), swatch);
    }
  _sluice_store_window_show_columns (self);
  redraw_colours (self);
}
