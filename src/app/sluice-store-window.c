/* sluice-store-window.c: one job store, live: its jobs by state and its
 * last failures (docs/job-store.md, the app's Store view)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-accessible.h"
#include "config-app.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sluice-store-window-private.h"
#include "sluice-theme.h"

/**
 * SluiceStoreWindow:
 *
 * Watches one #SluiceJobStore (`sqlite:FILE` or a PostgreSQL URI) that
 * workers in other processes, or on other machines, claim jobs from: the
 * jobs by state as big numbers over a strip of the same colours, and the
 * jobs whose last failure is the newest, newest first. The title names
 * the store by sluice_job_store_describe_uri(), so a password is never
 * shown; an error (the file is not a store, the server is gone) is too.
 *
 * It is a monitor of other processes' work, so it reads the store again
 * once a second of the wall clock (a GLib timeout), and at once on the
 * store's "jobs-available" (PostgreSQL's NOTIFY from any process); at most
 * one read is in flight, and a wake-up during one asks for one more after
 * it. Every call is the store's asynchronous one, and the store is opened
 * on a thread (SQLite opens its file on the caller's thread and may wait
 * for another process's write), so the main loop never waits for it. A
 * store that cannot be opened or read shows why in a banner and is tried
 * again at the next second; one named by a URI of no kind of store is
 * not. A SQLite file that does not exist is not made: a viewer does not
 * create stores, a worker or `sluice-run enqueue` does.
 *
 * The store is opened on a thread of GLib's pool: it emits
 * "jobs-available" on the global default main context, where the app's
 * windows live.
 *
 * In projector mode (#SluiceStoreWindow:projector, which follows the
 * playground window's or the settings'; F5 here too) its text is 1.6
 * times larger and the strip is drawn in the high-contrast palette.
 *
 * The window is one object in three files: this one (reading the store,
 * the banner, the keys, the properties and the API),
 * sluice-store-window-views.c (the counts, the strip and the last
 * failures) and sluice-store-window-screenshot.c (`sluice --store URI
 * --screenshot FILE.png`). They share sluice-store-window-private.h.
 */

#define REFRESH_SECONDS 1
#define N_FAILURES 50
/* A store that takes longer than this to answer is said to in the banner
 * (a server that does not answer a connection, a file locked by a long
 * write): the counts shown are older than they look. */
#define SLOW_SECONDS 5

G_DEFINE_FINAL_TYPE (SluiceStoreWindow, sluice_store_window, GTK_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_TENANT,
  PROP_PROJECTOR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  UPDATED,
  OPEN_IN_PLAYGROUND,
  WATCH_LIVE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void ask (SluiceStoreWindow *self);

/* ---- what the window says ------------------------------------------------ */

static void
set_error (SluiceStoreWindow *self,
           const char        *text)
{
  g_free (self->error_text);
  self->error_text = g_strdup (text);
  gtk_label_set_text (self->banner_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->banner_label), text != NULL);
}

static void
show_read_time (SluiceStoreWindow *self,
                gboolean           now)
{
  g_autoptr(GDateTime) time = g_date_time_new_now_local ();
  g_autofree char *clock = g_date_time_format (time, "%H:%M:%S");
  g_autofree char *text = NULL;

  if (now)
    /* Translators: %s is the time of day the store was last read, as 14:03:22 */
    text = g_strdup_printf (_("Read at %s"), clock);
  else if (self->status == NULL)
    text = g_strdup (_("Not read yet"));
  else
    return;  /* keeps the time of the last good read */
  gtk_label_set_text (self->updated_label, text);
}

static void
emit_updated (SluiceStoreWindow *self)
{
  self->n_updates++;
  g_signal_emit (self, signals[UPDATED], 0);
}

/* The Queues, Workers and Throughput pages read the store at the
 * window's pace: once a second, and at once on NOTIFY (each at most one
 * read in flight). */
static void
refresh_fleet_pages (SluiceStoreWindow *self)
{
  sluice_store_page_refresh (SLUICE_STORE_PAGE (self->queues_page));
  sluice_store_page_refresh (SLUICE_STORE_PAGE (self->workers_page));
  sluice_store_page_refresh (SLUICE_STORE_PAGE (self->throughput_page));
}

static void
show_status (SluiceStoreWindow *self,
             SluiceStoreStatus *status)
{
  g_autoptr(SluiceStoreStatus) before = g_steal_pointer (&self->status);

  self->status = status;
  /* Other counts: jobs came, went or moved; the Jobs list follows. */
  if (before != NULL && memcmp (before->counts, status->counts, sizeof status->counts) != 0)
    sluice_store_jobs_page_refresh (self->jobs_page);
  refresh_fleet_pages (self);
  _sluice_store_window_show_counts (self);
  _sluice_store_window_show_failures (self, before != NULL ? before->failures : NULL);
  show_read_time (self, TRUE);
  set_error (self, NULL);
  emit_updated (self);
}

/* A store's message names it without its password already; should one
 * quote the URI as it was given, it is replaced by the description.
 * libpq's messages go on over indented lines, a new sentence (a capital)
 * after a line without a full stop: one line in the banner. */
static char *
scrub_message (SluiceStoreWindow *self,
               const char        *message)
{
  g_autoptr(GString) text = g_string_new (message);
  GString *line = g_string_new (NULL);

  if (strcmp (self->uri, self->description) != 0)
    g_string_replace (text, self->uri, self->description, 0);
  g_strchomp (text->str);
  for (const char *p = text->str; *p != '\0'; p++)
    {
      if (*p != '\n')
        {
          g_string_append_c (line, *p == '\t' ? ' ' : *p);
          continue;
        }
      while (p[1] == '\t' || p[1] == ' ')
        p++;
      if (line->len > 0 && g_ascii_isalnum (line->str[line->len - 1]) && g_ascii_isupper (p[1]))
        g_string_append_c (line, '.');
      g_string_append_c (line, ' ');
    }
  return g_string_free (line, FALSE);
}

static void
show_error (SluiceStoreWindow *self,
            const GError      *error)
{
  g_autofree char *message = scrub_message (self, error->message);
  g_autofree char *text = NULL;

  if (self->hopeless)
    text = g_steal_pointer (&message);
  else
    /* Translators: %s says why the job store cannot be read */
    text = g_strdup_printf (_("%s (trying again every second)"), message);
  set_error (self, text);
  show_read_time (self, FALSE);
  _sluice_store_window_show_empty_text (self);
  emit_updated (self);
}

/* ---- reading the store --------------------------------------------------- */

/* What an answer needs to find its window, if it is still open, and to
 * tell whether it is for the tenant shown now. */
typedef struct {
  GWeakRef window;
  guint    generation;
} Request;

static Request *
request_new (SluiceStoreWindow *self)
{
  Request *r = g_new0 (Request, 1);

  g_weak_ref_init (&r->window, self);
  r->generation = self->generation;
  return r;
}

/* Returns: (transfer full) (nullable): the window, if it is still open */
static SluiceStoreWindow *
request_end (Request *r)
{
  SluiceStoreWindow *self = g_weak_ref_get (&r->window);

  g_weak_ref_clear (&r->window);
  g_free (r);
  if (self != NULL && g_cancellable_is_cancelled (self->cancellable))
    g_clear_object (&self);
  return self;
}

static void
on_status (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Request *r = user_data;
  guint generation = r->generation;
  g_autoptr(SluiceStoreWindow) self = request_end (r);
  g_autoptr(GError) error = NULL;
  SluiceStoreStatus *status = sluice_job_store_get_status_finish (SLUICE_JOB_STORE (object), result, &error);

  if (self == NULL)
    {
      g_clear_pointer (&status, sluice_store_status_free);
      return;
    }

  self->asking = FALSE;
  self->waiting_since = 0;
  if (generation != self->generation)
    {
      /* Asked before the tenant changed. */
      g_clear_pointer (&status, sluice_store_status_free);
      ask (self);
      return;
    }

  if (status != NULL)
    show_status (self, status);
  else
    show_error (self, error);
  if (self->ask_again)
    ask (self);
}

static void
ask (SluiceStoreWindow *self)
{
  if (self->store == NULL)
    return;
  if (self->asking)
    {
      self->ask_again = TRUE;
      return;
    }

  self->asking = TRUE;
  self->ask_again = FALSE;
  self->waiting_since = g_get_monotonic_time ();
  sluice_job_store_get_status_async (self->store, self->tenant, N_FAILURES, self->cancellable,
                                     on_status, request_new (self));
}

static void
on_jobs_available (SluiceStoreWindow *self,
                   const char        *tenant)
{
  if (self->tenant == NULL || g_strcmp0 (tenant, self->tenant) == 0)
    ask (self);
}

/* The file of `sqlite:FILE` or `sqlite:///abs/path`, else NULL. */
static char *
sqlite_path (const char *uri)
{
  const char *path;

  if (g_ascii_strncasecmp (uri, "sqlite:", strlen ("sqlite:")) != 0)
    return NULL;
  path = uri + strlen ("sqlite:");
  if (g_str_has_prefix (path, "//"))
    path += 2;
  return g_strdup (path);
}

/* What the thread opening the store is given and gives back. */
typedef struct {
  char           *uri;
  gboolean        read_only;  /* asked: never opened for writing */
  SluiceJobStore *reader;     /* the answers, taken on the main thread */
  SluiceJobStore *writer;     /* NULL: read-only */
} Opening;

static void
opening_free (Opening *o)
{
  g_free (o->uri);
  /* Taken by on_opened() already: a store is let go of on the main thread. */
  g_warn_if_fail (o->reader == NULL && o->writer == NULL);
  g_free (o);
}

static void
open_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Opening *o = task_data;
  g_autofree char *path = sqlite_path (o->uri);
  GError *error = NULL;

  if (path != NULL && *path != '\0' && !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               /* Translators: %s is a file */
                               _("There is no job store %s yet: a worker or sluice-run enqueue makes it"), path);
      return;
    }

  /* Read-only first: a viewer never makes or converts a database that is
   * not a job store already. */
  o->reader = sluice_job_store_open_for_uri (o->uri, SLUICE_JOB_STORE_OPEN_READ_ONLY, &error);
  if (o->reader == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  /* Then for the actions, unless the person asked for read-only; a store
   * that refuses (a file or a database user that may not write) stays
   * read-only, its actions hidden. */
  if (!o->read_only)
    o->writer = sluice_job_store_open_for_uri (o->uri, SLUICE_JOB_STORE_OPEN_READ_WRITE, NULL);
  g_task_return_boolean (task, TRUE);
}

static void
set_read_only (SluiceStoreWindow *self,
               gboolean           read_only)
{
  self->read_only = read_only;
  sluice_store_jobs_page_set_read_only (self->jobs_page, read_only);
  sluice_store_page_set_read_only (SLUICE_STORE_PAGE (self->queues_page), read_only);
  sluice_store_page_set_read_only (SLUICE_STORE_PAGE (self->workers_page), read_only);
  sluice_store_page_set_read_only (SLUICE_STORE_PAGE (self->throughput_page), read_only);
}

/* The answer to WRITABLE: a store opened for writing by a user who may
 * not write its jobs (a PostgreSQL role with SELECT only) makes the
 * window read-only, its actions hidden rather than failing. */
static void
on_writable (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceStoreWindow) self = request_end (user_data);
  g_autoptr(SluiceStoreAdminReply) reply = sluice_store_admin_finish (SLUICE_JOB_STORE (object), result, NULL);

  if (self != NULL && reply != NULL && !reply->writable)
    set_read_only (self, TRUE);
}

static void
ask_writable (SluiceStoreWindow *self)
{
  g_autoptr(SluiceStoreAdminQuery) query = sluice_store_admin_query_new (SLUICE_STORE_ADMIN_WRITABLE);

  sluice_store_admin_async (self->store, query, self->cancellable, on_writable, request_new (self));
}

static void
on_opened (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SluiceStoreWindow) self = request_end (user_data);
  g_autoptr(GError) error = NULL;
  Opening *o = g_task_get_task_data (G_TASK (result));
  g_autoptr(SluiceJobStore) reader = g_steal_pointer (&o->reader);
  g_autoptr(SluiceJobStore) writer = g_steal_pointer (&o->writer);
  gboolean writable = writer != NULL;
  g_autoptr(SluiceJobStore) store = writer != NULL ? g_steal_pointer (&writer) : g_steal_pointer (&reader);

  /* The stores opened, for a window closed meanwhile too, are let go of
   * here, on the main thread, as a store must. */
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    g_clear_object (&store);
  if (self == NULL)
    return;

  self->opening = FALSE;
  self->waiting_since = 0;
  if (store == NULL)
    {
      self->hopeless = g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_INVALID_URI);
      show_error (self, error);
      return;
    }

  self->store = g_steal_pointer (&store);
  sluice_store_alerts_reset (self->alerts);
  set_read_only (self, self->read_only || !writable);
  g_signal_connect_object (self->store, "jobs-available", G_CALLBACK (on_jobs_available), self,
                           G_CONNECT_SWAPPED);
  if (sluice_store_admin_supported (self->store))
    {
      sluice_store_jobs_page_set_store (self->jobs_page, self->store, self->description);
      sluice_store_page_set_store (SLUICE_STORE_PAGE (self->queues_page), self->store);
      sluice_store_page_set_store (SLUICE_STORE_PAGE (self->workers_page), self->store);
      sluice_store_page_set_store (SLUICE_STORE_PAGE (self->throughput_page), self->store);
      if (!self->read_only)
        ask_writable (self);
    }
  ask (self);
}

static void
open_store (SluiceStoreWindow *self)
{
  g_autoptr(GTask) task = g_task_new (NULL, self->cancellable, on_opened, request_new (self));
  Opening *o = g_new0 (Opening, 1);

  self->opening = TRUE;
  self->waiting_since = g_get_monotonic_time ();
  o->uri = g_strdup (self->uri);
  o->read_only = self->read_only;
  g_task_set_source_tag (task, open_store);
  g_task_set_task_data (task, o, (GDestroyNotify) opening_free);
  g_task_run_in_thread (task, open_in_thread);
}

/* The open or read in flight has taken SLOW_SECONDS or more: said in the
 * banner until the store answers. */
static void
show_slow (SluiceStoreWindow *self)
{
  gint64 waited = self->waiting_since != 0 ? g_get_monotonic_time () - self->waiting_since : 0;
  int seconds = (int) (waited / G_USEC_PER_SEC);
  g_autofree char *text = NULL;

  if (seconds < SLOW_SECONDS)
    return;
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       /* Translators: %s names the job store, %d is a number of seconds */
                                       "The job store %s has not answered for %d second; still waiting",
                                       "The job store %s has not answered for %d seconds; still waiting",
                                       seconds),
                          self->description, seconds);
  set_error (self, text);
}

/* Once a second: the store read again, or opened again if it could not
 * be; never a second call while one is in flight. */
static gboolean
on_refresh (gpointer user_data)
{
  SluiceStoreWindow *self = user_data;

  show_slow (self);
  if (self->store != NULL && !self->asking)
    ask (self);
  else if (self->store == NULL && !self->opening && !self->hopeless)
    open_store (self);
  return G_SOURCE_CONTINUE;
}

static void
set_uri (SluiceStoreWindow *self,
         const char        *uri)
{
  g_autofree char *title = NULL;

  self->uri = g_strdup (uri);
  self->description = sluice_job_store_describe_uri (uri);
  /* Translators: the job store window's title in the window list; %s
   * names the store, without a password */
  title = g_strdup_printf (_("Job Store: %s"), self->description);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->subtitle_label, self->description);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subtitle_label), self->description);

  open_store (self);
  self->timeout_id = g_timeout_add_seconds (REFRESH_SECONDS, on_refresh, self);
}

/* ---- keys ---------------------------------------------------------------- */

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
  SluiceStoreWindow *self = SLUICE_STORE_WINDOW (widget);

  sluice_store_window_set_projector (self, !self->projector);
  return TRUE;
}

static void
add_keys (SluiceStoreWindow *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutController *shortcuts = GTK_SHORTCUT_CONTROLLER (controller);

  /* Not Escape, which a tenant being typed would lose. */
  gtk_shortcut_controller_add_shortcut (shortcuts,
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>w"),
                                                          gtk_callback_action_new (close_window, NULL, NULL)));
  gtk_shortcut_controller_add_shortcut (shortcuts,
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("F5"),
                                                          gtk_callback_action_new (toggle_projector, NULL, NULL)));
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

/* ---- the playground -------------------------------------------------------- */

/* "Back to Playground": the window it was opened from, or (a window of its
 * own, `sluice --store`) whoever listens to ::open-in-playground makes one. */
static void
playground_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (widget));

  if (parent != NULL)
    gtk_window_present (parent);
  else
    g_signal_emit (widget, signals[OPEN_IN_PLAYGROUND], 0, NULL);
}

static void
on_open_in_playground (SluiceStoreWindow *self,
                       const char        *scenario)
{
  g_signal_emit (self, signals[OPEN_IN_PLAYGROUND], 0, scenario);
}

static void
on_watch_live (SluiceStoreWindow *self,
               const char        *worker_id,
               const char        *job_id)
{
  g_signal_emit (self, signals[WATCH_LIVE], 0, worker_id, job_id);
}

/* The page changed jobs: the counts are read again at once. */
static void
on_jobs_changed (SluiceStoreWindow *self)
{
  ask (self);
}

static void
create_jobs_page (SluiceStoreWindow *self)
{
  self->jobs_page = sluice_store_jobs_page_new ();
  gtk_widget_set_margin_start (GTK_WIDGET (self->jobs_page), 12);
  gtk_widget_set_margin_end (GTK_WIDGET (self->jobs_page), 12);
  gtk_widget_set_margin_top (GTK_WIDGET (self->jobs_page), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->jobs_page), 12);
  g_signal_connect_object (self->jobs_page, "changed", G_CALLBACK (on_jobs_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (sluice_store_jobs_page_get_detail (self->jobs_page), "open-in-playground",
                           G_CALLBACK (on_open_in_playground), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (sluice_store_jobs_page_get_detail (self->jobs_page), "watch-live",
                           G_CALLBACK (on_watch_live), self, G_CONNECT_SWAPPED);
  /* Translators: the store window's page of the jobs list */
  gtk_stack_add_titled (self->pages_stack, GTK_WIDGET (self->jobs_page), "jobs", _("Jobs"));
}

/* The fleet's pages: each follows the window's projector mode. */
static GtkWidget *
add_page (SluiceStoreWindow *self,
          GtkWidget         *page,
          const char        *name,
          const char        *title)
{
  gtk_widget_set_margin_start (page, 12);
  gtk_widget_set_margin_end (page, 12);
  gtk_widget_set_margin_top (page, 6);
  gtk_widget_set_margin_bottom (page, 12);
  g_object_bind_property (self, "projector", page, "projector", G_BINDING_SYNC_CREATE);
  gtk_stack_add_titled (self->pages_stack, page, name, title);
  return page;
}

/* Each read of the tenants and of the workers goes to the alerts: they
 * notify, while the window is in the background, what rose or was lost
 * since the read before. */
static void
count_alerts (SluiceStoreWindow *self,
              GPtrArray         *alerts)
{
  self->n_alerts += alerts->len;
  g_ptr_array_unref (alerts);
}

static void
on_tenants_read (SluiceStoreWindow *self,
                 GPtrArray         *tenants)
{
  count_alerts (self, sluice_store_alerts_observe_tenants (self->alerts, tenants));
}

static void
on_workers_read (SluiceStoreWindow *self,
                 GPtrArray         *workers)
{
  count_alerts (self, sluice_store_alerts_observe_workers (self->alerts, workers));
}

static void
on_active_changed (SluiceStoreWindow *self)
{
  sluice_store_alerts_set_window_active (self->alerts, gtk_window_is_active (GTK_WINDOW (self)));
}

static void
create_fleet_pages (SluiceStoreWindow *self)
{
  /* Translators: the store window's page of the tenants (queues) */
  self->queues_page = add_page (self, sluice_store_queues_page_new (), "queues", _("Queues"));
  /* Translators: the store window's page of the workers */
  self->workers_page = add_page (self, sluice_store_workers_page_new (), "workers", _("Workers"));
  /* Translators: the store window's page of jobs done and failed per second */
  self->throughput_page = add_page (self, sluice_store_throughput_page_new (), "throughput", _("Throughput"));

  self->alerts = sluice_store_alerts_new (g_application_get_default ());
  g_signal_connect_object (self->queues_page, "read", G_CALLBACK (on_tenants_read), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->workers_page, "read", G_CALLBACK (on_workers_read), self, G_CONNECT_SWAPPED);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (on_active_changed), NULL);
}

static void
on_tenant_changed (GtkEditable       *entry,
                   SluiceStoreWindow *self)
{
  sluice_store_window_set_tenant (self, gtk_editable_get_text (entry));
}

/* ---- GObject ------------------------------------------------------------- */

static void
sluice_store_window_dispose (GObject *object)
{
  SluiceStoreWindow *self = SLUICE_STORE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  g_clear_object (&self->store);
  gtk_widget_dispose_template (GTK_WIDGET (self), SLUICE_TYPE_STORE_WINDOW);

  G_OBJECT_CLASS (sluice_store_window_parent_class)->dispose (object);
}

static void
sluice_store_window_finalize (GObject *object)
{
  SluiceStoreWindow *self = SLUICE_STORE_WINDOW (object);

  g_clear_object (&self->cancellable);
  g_clear_object (&self->model);
  g_clear_object (&self->alerts);
  g_clear_pointer (&self->status, sluice_store_status_free);
  g_free (self->uri);
  g_free (self->description);
  g_free (self->tenant);
  g_free (self->error_text);

  G_OBJECT_CLASS (sluice_store_window_parent_class)->finalize (object);
}

static void
sluice_store_window_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceStoreWindow *self = SLUICE_STORE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_TENANT:
      g_value_set_string (value, self->tenant);
      break;
    case PROP_PROJECTOR:
      g_value_set_boolean (value, self->projector);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_window_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SluiceStoreWindow *self = SLUICE_STORE_WINDOW (object);

  switch (prop_id)
    {
    case PROP_TENANT:
      sluice_store_window_set_tenant (self, g_value_get_string (value));
      break;
    case PROP_PROJECTOR:
      sluice_store_window_set_projector (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_window_class_init (SluiceStoreWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sluice_store_window_dispose;
  object_class->finalize = sluice_store_window_finalize;
  object_class->get_property = sluice_store_window_get_property;
  object_class->set_property = sluice_store_window_set_property;

  /**
   * SluiceStoreWindow:tenant: (nullable)
   *
   * The tenant whose jobs are shown, or %NULL for every tenant (the entry
   * in the header bar).
   */
  properties[PROP_TENANT] =
    g_param_spec_string ("tenant", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceStoreWindow:projector:
   *
   * Whether the window is in projector mode, as #SluiceWindow:projector:
   * its text larger, the strip in the high-contrast palette.
   */
  properties[PROP_PROJECTOR] =
    g_param_spec_boolean ("projector", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceStoreWindow::updated:
   * @self: the window
   *
   * An answer of the store came and is shown: a status, or an error in
   * the banner.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * SluiceStoreWindow::open-in-playground:
   * @self: the window
   * @scenario: (nullable): a scenario's text to open and run (a job's
   *   "Open in Playground"), or %NULL to show the playground only
   *
   * The person asked for the playground. For a window opened from the
   * playground, "Back to Playground" presents that window itself.
   */
  signals[OPEN_IN_PLAYGROUND] = g_signal_new ("open-in-playground", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  gtk_widget_class_install_action (widget_class, "store.playground", NULL, playground_action);

  /**
   * SluiceStoreWindow::watch-live:
   * @self: the window
   * @worker_id: a running job's lease owner
   * @job_id: the job's id
   *
   * A job's "Watch Live": the playground attaches to the worker's
   * exported pool and selects the job's attempt (`win.attach-worker`).
   */
  signals[WATCH_LIVE] = g_signal_new ("watch-live", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/sluicepool/Sluice/sluice-store-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, tenant_entry);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, banner_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, updated_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, counts_box);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, strip);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, failures_stack);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, failures_view);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, empty_label);
  gtk_widget_class_bind_template_child (widget_class, SluiceStoreWindow, pages_stack);
}

static void
sluice_store_window_init (SluiceStoreWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  _sluice_store_window_create_views (self);
  create_jobs_page (self);
  create_fleet_pages (self);
  sluice_accessible_name_buttons_by_label (GTK_WIDGET (self));
  g_signal_connect (self->tenant_entry, "changed", G_CALLBACK (on_tenant_changed), self);
  add_keys (self);
  show_read_time (self, FALSE);
  _sluice_store_window_show_empty_text (self);
}

/* ---- public -------------------------------------------------------------- */

/**
 * sluice_store_window_new:
 * @parent: (nullable): the playground window it was opened from; %NULL
 *   for a window of its own (`sluice --store URI`)
 * @application: (nullable): the application it belongs to; %NULL takes
 *   @parent's
 * @uri: the store: `sqlite:FILE` or `postgresql://…`
 *
 * As sluice_store_window_new_full(), with the actions when the store
 * takes them.
 *
 * Returns: (transfer none): the window, not shown yet
 */
SluiceStoreWindow *
sluice_store_window_new (GtkWindow      *parent,
                         GtkApplication *application,
                         const char     *uri)
{
  return sluice_store_window_new_full (parent, application, uri, FALSE);
}

/**
 * sluice_store_window_new_full:
 * @parent: (nullable): the playground window it was opened from; %NULL
 *   for a window of its own (`sluice --store URI`)
 * @application: (nullable): the application it belongs to; %NULL takes
 *   @parent's
 * @uri: the store: `sqlite:FILE` or `postgresql://…`
 * @read_only: never change the store (`--read-only`): its actions hidden
 *
 * Opens a window that watches the store @uri: it opens the store (on a
 * thread), then reads it once a second. The store is opened read-only,
 * then, unless @read_only, for writing too; one that refuses writing
 * makes the window read-only.
 *
 * Returns: (transfer none): the window, not shown yet
 */
SluiceStoreWindow *
sluice_store_window_new_full (GtkWindow      *parent,
                              GtkApplication *application,
                              const char     *uri,
                              gboolean        read_only)
{
  SluiceStoreWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  if (application == NULL && parent != NULL)
    application = gtk_window_get_application (parent);
  self = g_object_new (SLUICE_TYPE_STORE_WINDOW,
                       "transient-for", parent,
                       "destroy-with-parent", parent != NULL,
                       "application", application,
                       NULL);
  set_read_only (self, read_only);
  set_uri (self, uri);
  return self;
}

/**
 * sluice_store_window_get_read_only:
 * @self: a #SluiceStoreWindow
 *
 * Returns: whether the window never changes its store (asked, or the store
 *   refused writing): its actions are hidden
 */
gboolean
sluice_store_window_get_read_only (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), FALSE);
  return self->read_only;
}

/**
 * sluice_store_window_get_pages:
 * @self: a #SluiceStoreWindow
 *
 * Returns: (transfer none): the stack of the window's pages (Overview,
 *   Jobs, …), which its switcher shows
 */
GtkStack *
sluice_store_window_get_pages (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  return self->pages_stack;
}

/**
 * sluice_store_window_get_jobs_page:
 * @self: a #SluiceStoreWindow
 *
 * Returns: (transfer none): the Jobs page, a #SluiceStoreJobsPage
 */
GtkWidget *
sluice_store_window_get_jobs_page (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  return GTK_WIDGET (self->jobs_page);
}

/**
 * sluice_store_window_get_description:
 * @self: a #SluiceStoreWindow
 *
 * Returns: the store's URI as the window shows it, without a password
 */
const char *
sluice_store_window_get_description (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  return self->description;
}

/**
 * sluice_store_window_get_tenant:
 * @self: a #SluiceStoreWindow
 *
 * Returns: (nullable): the tenant shown, or %NULL for every tenant
 */
const char *
sluice_store_window_get_tenant (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  return self->tenant;
}

/**
 * sluice_store_window_set_tenant:
 * @self: a #SluiceStoreWindow
 * @tenant: (nullable): a tenant, or %NULL or "" for every tenant
 *
 * Shows the jobs of @tenant only, read at once; an answer for the tenant
 * shown before that is still on its way is dropped.
 */
void
sluice_store_window_set_tenant (SluiceStoreWindow *self,
                                const char        *tenant)
{
  g_return_if_fail (SLUICE_IS_STORE_WINDOW (self));

  if (tenant != NULL && *tenant == '\0')
    tenant = NULL;
  if (g_strcmp0 (self->tenant, tenant) == 0)
    return;

  g_free (self->tenant);
  self->tenant = g_strdup (tenant);
  self->generation++;
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->tenant_entry)), tenant != NULL ? tenant : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->tenant_entry), tenant != NULL ? tenant : "");
  _sluice_store_window_show_columns (self);
  sluice_store_jobs_page_set_tenant (self->jobs_page, tenant);
  ask (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TENANT]);
}

/**
 * sluice_store_window_get_n_updates:
 * @self: a #SluiceStoreWindow
 *
 * Returns: how many answers of the store (statuses or errors) the window
 *   has shown; #SluiceStoreWindow::updated tells of each
 */
guint
sluice_store_window_get_n_updates (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), 0);
  return self->n_updates;
}

/**
 * sluice_store_window_get_has_status:
 * @self: a #SluiceStoreWindow
 *
 * Returns: whether the store has been read once at least
 */
gboolean
sluice_store_window_get_has_status (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), FALSE);
  return self->status != NULL;
}

/**
 * sluice_store_window_get_count_text:
 * @self: a #SluiceStoreWindow
 * @state: a state
 *
 * Returns: the number the window shows for @state: "–" until the store
 *   has been read
 */
const char *
sluice_store_window_get_count_text (SluiceStoreWindow    *self,
                                    SluiceStoredJobState  state)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  g_return_val_if_fail ((guint) state < N_STATES, NULL);
  return gtk_label_get_text (self->count_labels[state]);
}

/**
 * sluice_store_window_get_error:
 * @self: a #SluiceStoreWindow
 *
 * Returns: (nullable): the banner's text: why the store cannot be opened
 *   or read, or %NULL after a good read
 */
const char *
sluice_store_window_get_error (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  return self->error_text;
}

/**
 * sluice_store_window_get_n_failures:
 * @self: a #SluiceStoreWindow
 *
 * Returns: how many rows the last failures list
 */
guint
sluice_store_window_get_n_failures (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->model));
}

/**
 * sluice_store_window_dup_cell:
 * @self: a #SluiceStoreWindow
 * @row: a row of the last failures, from 0 (the newest)
 * @column: a column
 *
 * Returns: (transfer full) (nullable): the cell's text as the table shows
 *   it, or %NULL for a row it does not have
 */
char *
sluice_store_window_dup_cell (SluiceStoreWindow *self,
                              guint              row,
                              SluiceStoreColumn  column)
{
  const SluiceStoredJob *job;

  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), NULL);
  g_return_val_if_fail (column < SLUICE_STORE_N_COLUMNS, NULL);

  job = _sluice_store_window_get_failure (self, row);
  return job != NULL && row < sluice_store_window_get_n_failures (self) ? _sluice_store_window_format_cell (job, column) : NULL;
}

/**
 * sluice_store_window_get_projector:
 * @self: a #SluiceStoreWindow
 *
 * Returns: whether the window is in projector mode
 */
gboolean
sluice_store_window_get_projector (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), FALSE);
  return self->projector;
}

/**
 * sluice_store_window_set_projector:
 * @self: a #SluiceStoreWindow
 * @projector: whether to show the store for a projector
 *
 * Sets #SluiceStoreWindow:projector: the `projector` CSS class on the
 * window (its text 1.6 times larger), the strip and the swatches as much
 * taller, in the high-contrast palette; the last failures without the
 * columns of the job's id, its tenant and the failure's code.
 */
void
sluice_store_window_set_projector (SluiceStoreWindow *self,
                                   gboolean           projector)
{
  g_return_if_fail (SLUICE_IS_STORE_WINDOW (self));

  if (!sluice_window_switch_projector (GTK_WIDGET (self), &self->projector, projector))
    return;
  _sluice_store_window_fit_projector (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROJECTOR]);
}

/**
 * sluice_store_window_get_n_alerts:
 * @self: a #SluiceStoreWindow
 *
 * Returns: how many alerts (dead jobs rose, a worker lost) the window's
 *   reads gave so far, notified or not (a window in front shows them on
 *   its pages instead)
 */
guint
sluice_store_window_get_n_alerts (SluiceStoreWindow *self)
{
  g_return_val_if_fail (SLUICE_IS_STORE_WINDOW (self), 0);
  return self->n_alerts;
}

/**
 * sluice_store_window_is_page_name:
 * @name: a name
 *
 * Returns: whether @name names one of the window's pages: `overview`,
 *   `jobs`, `queues`, `workers` or `throughput` (`sluice --store URI
 *   --page NAME`)
 */
gboolean
sluice_store_window_is_page_name (const char *name)
{
  static const char * const names[] = { "overview", "jobs", "queues", "workers", "throughput", NULL };

  return name != NULL && g_strv_contains (names, name);
}
