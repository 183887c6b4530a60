/* sluice-remote-feed.c: a pool of another program, attached on D-Bus,
 * feeding a run model
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "config-app.h"

#include <glib/gi18n.h>

#include "sluice-remote-feed.h"
#include "sluice-run-status.h"

/**
 * SluiceRemoteFeed:
 *
 * What an attached pool sends, as a run here: a #SluiceRunModel of the
 * pool's configuration (sluice_remote_pool_dup_scenario_text()) whose
 * recorder takes the pool's events from sluice_remote_feed_start() until
 * sluice_remote_feed_stop(), and the pool's snapshot on demand. It says
 * what happens to the remote run in its signals, and calls nothing back:
 * the run controller that owns it listens.
 *
 * The feed is live from its start until the remote run's run-end event
 * came (#SluiceRemoteFeed::ended); it stays attached after, for the
 * results the program reads after its end (#SluiceRemoteFeed::updated),
 * until the program exits (#SluiceRemoteFeed::vanished) or it is stopped.
 */

/* The recorder of an attached run holds as many events as a local run's. */
#define REMOTE_RECORDER_CAPACITY 500000

struct _SluiceRemoteFeed
{
  GObject           parent_instance;

  SluiceRemotePool *pool;      /* NULL once stopped */
  SluiceRunModel   *model;
  guint64           lost;      /* the pool's, kept once stopped */
  gboolean          live;      /* started, and its run-end event not come yet */
};

G_DEFINE_FINAL_TYPE (SluiceRemoteFeed, sluice_remote_feed, G_TYPE_OBJECT)

enum {
  STATUS,
  ENDED,
  UPDATED,
  VANISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The newest run-end event among the @n_events just added, or NULL. */
static const SluiceEvent *
find_run_end (SluiceRemoteFeed *self,
              guint             n_events)
{
  SluiceRecorder *recorder = sluice_run_model_get_recorder (self->model);
  guint64 end = sluice_recorder_get_end_position (recorder);
  guint64 from = end > n_events ? end - n_events : 0;

  for (guint64 position = end; position-- > from; )
    {
      const SluiceEvent *event = sluice_recorder_lookup (recorder, position);

      if (event != NULL && event->kind == SLUICE_EVENT_RUN_END)
        return event;
    }
  return NULL;
}

static char *
describe_run_end (SluiceRemoteFeed  *self,
                  const SluiceEvent *end)
{
  g_autofree char *text = NULL;
  guint64 lost = sluice_remote_pool_get_n_lost (self->pool);
  g_autofree char *missing = NULL;

  /* Translators: the banner when an attached pool's run ended; %u are counts. */
  text = g_strdup_printf (_("The attached run ended: %u of %u pulled items succeeded and %u failed. "
                            "Save it with File → Save Run, or scrub through it."),
                          end->succeeded, end->pulled, end->failed);
  if (lost == 0)
    return g_steal_pointer (&text);

  /* Translators: appended to the banner of an ended attached run; %lu is a number of events */
  missing = g_strdup_printf (ngettext (" %lu event did not arrive: the program's ring "
                                       "dropped it while this window caught up.",
                                       " %lu events did not arrive: the program's ring "
                                       "dropped them while this window caught up.",
                                       (gulong) lost), (gulong) lost);
  return g_strconcat (text, missing, NULL);
}

/* The run-end event came: the run is over. The program may still read
 * results after it (their events follow the run's end), so the pool stays
 * attached for them until the program exits or the feed stops; the views
 * take them in as they come. */
static void
on_events_added (SluiceRemoteFeed *self,
                 guint             n_events)
{
  g_autoptr(SluiceRemoteFeed) keep = g_object_ref (self);
  const SluiceEvent *end;
  g_autofree char *text = NULL;

  if (!self->live)
    {
      g_signal_emit (self, signals[UPDATED], 0);
      return;
    }

  end = find_run_end (self, n_events);
  if (end == NULL)
    return;

  text = describe_run_end (self, end);
  self->live = FALSE;
  g_signal_emit (self, signals[ENDED], 0,
                 (guint) (end->failed > 0 ? SLUICE_RUN_STATUS_ERROR : SLUICE_RUN_STATUS_OK), text);
}

/* Events lost while the run goes on: said at once, not only at the end.
 * The timeline marks where (the recorder's gap) and resynchronises there,
 * and the counters take the pool's own snapshot while attached. */
static void
on_lost (SluiceRemoteFeed *self)
{
  guint64 lost = sluice_remote_pool_get_n_lost (self->pool);
  g_autofree char *text = NULL;

  if (!self->live || lost == 0)
    return;

  /* Translators: the banner while an attached pool's events are lost; %lu
   * is a number of events */
  text = g_strdup_printf (ngettext ("%lu event did not arrive: the program's ring dropped it before this window "
                                    "read it. The chart marks where; the counters follow the pool's own snapshot.",
                                    "%lu events did not arrive: the program's ring dropped them before this window "
                                    "read them. The chart marks where; the counters follow the pool's own snapshot.",
                                    (gulong) lost), (gulong) lost);
  g_signal_emit (self, signals[STATUS], 0, (guint) SLUICE_RUN_STATUS_INFO, text);
}

static void
on_vanished (SluiceRemoteFeed *self)
{
  g_autoptr(SluiceRemoteFeed) keep = g_object_ref (self);
  g_autofree char *program = NULL;
  g_autofree char *text = NULL;
  guint64 lost;

  if (!sluice_remote_pool_get_vanished (self->pool))
    return;

  program = sluice_remote_pool_dup_program (self->pool);
  lost = sluice_remote_pool_get_n_lost (self->pool);
  if (lost > 0)
    /* Translators: %s is a program's name, %lu a number of events */
    text = g_strdup_printf (ngettext ("%s exited before its run ended. What it sent stays "
                                      "(%lu event did not arrive: the program's ring had dropped it).",
                                      "%s exited before its run ended. What it sent stays "
                                      "(%lu events did not arrive: the program's ring had dropped them).",
                                      (gulong) lost), program != NULL ? program : "?", (gulong) lost);
  else
    /* Translators: %s is a program's name */
    text = g_strdup_printf (_("%s exited before its run ended. What it sent stays: save it with "
                              "File → Save Run."), program != NULL ? program : "?");
  self->live = FALSE;
  g_signal_emit (self, signals[VANISHED], 0, text);
}

/**
 * sluice_remote_feed_start:
 * @self: a #SluiceRemoteFeed
 *
 * Attaches the pool: its events go into the model's recorder from now on,
 * live.
 */
void
sluice_remote_feed_start (SluiceRemoteFeed *self)
{
  g_return_if_fail (SLUICE_IS_REMOTE_FEED (self));
  g_return_if_fail (self->pool != NULL && !self->live);

  self->live = TRUE;
  g_signal_connect_swapped (self->pool, "events-added", G_CALLBACK (on_events_added), self);
  g_signal_connect_swapped (self->pool, "notify::vanished", G_CALLBACK (on_vanished), self);
  g_signal_connect_swapped (self->pool, "notify::n-lost", G_CALLBACK (on_lost), self);
  sluice_remote_pool_attach (self->pool, sluice_run_model_get_recorder (self->model));
}

/**
 * sluice_remote_feed_stop:
 * @self: a #SluiceRemoteFeed
 *
 * Unsubscribes from the pool and lets go of it; the recorder keeps what
 * came, and sluice_remote_feed_get_n_lost() what never did.
 */
void
sluice_remote_feed_stop (SluiceRemoteFeed *self)
{
  g_return_if_fail (SLUICE_IS_REMOTE_FEED (self));

  if (self->pool == NULL)
    return;
  self->lost = sluice_remote_pool_get_n_lost (self->pool);
  self->live = FALSE;
  g_signal_handlers_disconnect_by_data (self->pool, self);
  sluice_remote_pool_detach (self->pool);
  g_clear_object (&self->pool);
}

/**
 * sluice_remote_feed_get_pool:
 * @self: a #SluiceRemoteFeed
 *
 * Returns: (transfer none) (nullable): the pool, or %NULL once stopped
 */
SluiceRemotePool *
sluice_remote_feed_get_pool (SluiceRemoteFeed *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_FEED (self), NULL);
  return self->pool;
}

/**
 * sluice_remote_feed_get_model:
 * @self: a #SluiceRemoteFeed
 *
 * Returns: (transfer none): the model of the remote run
 */
SluiceRunModel *
sluice_remote_feed_get_model (SluiceRemoteFeed *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_FEED (self), NULL);
  return self->model;
}

/**
 * sluice_remote_feed_get_n_lost:
 * @self: a #SluiceRemoteFeed
 *
 * Returns: how many of the pool's events never reached the recorder: the
 *   program's ring had dropped them
 */
guint64
sluice_remote_feed_get_n_lost (SluiceRemoteFeed *self)
{
  g_return_val_if_fail (SLUICE_IS_REMOTE_FEED (self), 0);
  return self->pool != NULL ? sluice_remote_pool_get_n_lost (self->pool) : self->lost;
}

/**
 * sluice_remote_feed_take_snapshot:
 * @self: a #SluiceRemoteFeed
 *
 * Gives the model the busy workers and the queue depth of the pool's
 * `Snapshot`.
 *
 * Returns: whether there is one
 */
gboolean
sluice_remote_feed_take_snapshot (SluiceRemoteFeed *self)
{
  g_autoptr(GVariant) snapshot = NULL;
  guint32 busy, workers, depth;

  g_return_val_if_fail (SLUICE_IS_REMOTE_FEED (self), FALSE);

  snapshot = self->pool != NULL ? sluice_remote_pool_dup_snapshot (self->pool) : NULL;
  if (snapshot == NULL ||
      !g_variant_lookup (snapshot, "busy_workers", "u", &busy) ||
      !g_variant_lookup (snapshot, "workers", "u", &workers) ||
      !g_variant_lookup (snapshot, "queue_depth", "u", &depth))
    return FALSE;
  sluice_run_model_set_snapshot (self->model, busy, workers, depth);
  return TRUE;
}

static void
on_stop_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(SluiceRemoteFeed) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (sluice_remote_pool_request_stop_finish (SLUICE_REMOTE_POOL (object), result, &error))
    return;
  /* Translators: %s says why, as the program or the bus put it. */
  text = g_strdup_printf (_("The program did not take the stop request: %s"),
                          g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED)
                            ? _("it was exported read-only (SLUICE_MONITOR=session,control allows it)")
                            : error->message);
  if (self->pool != NULL)
    g_signal_emit (self, signals[STATUS], 0, (guint) SLUICE_RUN_STATUS_ERROR, text);
}

/**
 * sluice_remote_feed_request_stop:
 * @self: a #SluiceRemoteFeed
 *
 * Asks the pool's program to stop it (`RequestStop`).
 */
void
sluice_remote_feed_request_stop (SluiceRemoteFeed *self)
{
  g_return_if_fail (SLUICE_IS_REMOTE_FEED (self));
  g_return_if_fail (self->pool != NULL);

  sluice_remote_pool_request_stop_async (self->pool, NULL, on_stop_done, g_object_ref (self));
  g_signal_emit (self, signals[STATUS], 0, (guint) SLUICE_RUN_STATUS_INFO,
                 _("Stop requested: the program's pool pulls nothing more and drains what it has…"));
}

/**
 * sluice_remote_feed_describe:
 * @self: a #SluiceRemoteFeed
 *
 * Returns: (transfer full): the banner's line for a pool just attached
 */
char *
sluice_remote_feed_describe (SluiceRemoteFeed *self)
{
  g_autofree char *program = NULL;

  g_return_val_if_fail (SLUICE_IS_REMOTE_FEED (self), NULL);
  g_return_val_if_fail (self->pool != NULL, NULL);

  program = sluice_remote_pool_dup_program (self->pool);
  /* Translators: %s is a program's name, %u its process id. */
  return g_strdup_printf (_("Attached to %s (process %u): its pool's events arrive live. Detach with "
                            "Ctrl+Shift+D."), program != NULL ? program : "?", sluice_remote_pool_get_pid (self->pool));
}

static void
sluice_remote_feed_dispose (GObject *object)
{
  SluiceRemoteFeed *self = SLUICE_REMOTE_FEED (object);

  sluice_remote_feed_stop (self);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (sluice_remote_feed_parent_class)->dispose (object);
}

static void
sluice_remote_feed_class_init (SluiceRemoteFeedClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sluice_remote_feed_dispose;

  /**
   * SluiceRemoteFeed::status:
   * @self: the feed
   * @kind: a #SluiceRunStatus
   * @text: one line for the person watching
   *
   * Events were lost while the run goes on, or a stop was requested or
   * refused.
   */
  signals[STATUS] = g_signal_new ("status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
  /**
   * SluiceRemoteFeed::ended:
   * @self: the feed
   * @kind: a #SluiceRunStatus
   * @text: how the remote run ended, for the banner
   *
   * The remote run's run-end event came: the feed is no longer live.
   */
  signals[ENDED] = g_signal_new ("ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_STRING);
  /**
   * SluiceRemoteFeed::updated:
   * @self: the feed
   *
   * Events came after the run's end (the results the program reads).
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * SluiceRemoteFeed::vanished:
   * @self: the feed
   * @text: the banner's line, for a run that had not ended
   *
   * The program exited: nothing more comes.
   */
  signals[VANISHED] = g_signal_new ("vanished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
sluice_remote_feed_init (SluiceRemoteFeed *self)
{
}

/**
 * sluice_remote_feed_new:
 * @pool: a pool another program exports
 * @error: return location for why its configuration is no scenario
 *
 * A model of @pool's run, with the pool's configuration as its scenario
 * and no report (the program keeps its own); nothing comes before
 * sluice_remote_feed_start().
 *
 * Returns: (transfer full) (nullable): the feed, or %NULL
 */
SluiceRemoteFeed *
sluice_remote_feed_new (SluiceRemotePool  *pool,
                        GError           **error)
{
  g_autofree char *text = NULL;
  g_autoptr(SluiceScenario) scenario = NULL;
  g_autoptr(SluiceRecorder) recorder = NULL;
  SluiceRemoteFeed *self;

  g_return_val_if_fail (SLUICE_IS_REMOTE_POOL (pool), NULL);

  text = sluice_remote_pool_dup_scenario_text (pool);
  scenario = sluice_scenario_new_from_data (text, -1, sluice_remote_pool_get_bus_name (pool), NULL, error);
  if (scenario == NULL)
    return NULL;

  self = g_object_new (SLUICE_TYPE_REMOTE_FEED, NULL);
  self->pool = g_object_ref (pool);
  recorder = sluice_recorder_new (REMOTE_RECORDER_CAPACITY);
  self->model = sluice_run_model_new (scenario, recorder);
  sluice_run_model_set_scenario_text (self->model, text);
  sluice_run_model_set_live (self->model, TRUE);
  sluice_run_model_set_report_note (self->model, _("An attached run has no report here: the program that ran it "
                                                    "keeps its own. The counters, the chart, the lanes and the "
                                                    "events are the program's."));
  return self;
}
