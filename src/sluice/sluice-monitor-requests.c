/* sluice-monitor-requests.c: the GetEvents calls an export waits to
 * answer, bounded per peer and in all
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A GetEvents reply is the costliest thing the export makes: up to
 * SLUICE_MONITOR_REPLY_MAX events, copied on the pool's main loop, made
 * into an aa{sv} and marshalled in the export's thread, a megabyte or so
 * in GDBus's buffer until the bus reads it. Answered as they came, calls
 * that come faster than that (a monitor in a loop, several at once) pile
 * up as copies and as messages: hundreds of megabytes, and a main loop
 * that copies events instead of running the pool.
 *
 * So the calls wait here, as nothing but their invocation, and are
 * answered one at a time: the next only once the reply before it is
 * written out of the process, and once the export's thread has rested
 * SLUICE_MONITOR_REST_FACTOR times as long as that reply took it. The
 * peers take turns (a peer's calls in the order it made them), so that a
 * monitor's call waits for the reply being made and one of each other
 * caller at most, however many calls they make. A peer may have
 * SLUICE_MONITOR_PEER_CALLS_MAX calls waiting, all peers together
 * SLUICE_MONITOR_CALLS_MAX; a call past either is refused at once with
 * org.freedesktop.DBus.Error.LimitsExceeded (past the total, the newest
 * call of the peer with the most may be refused instead), and the caller
 * calls again later. What a flood of calls costs the pool is then one
 * reply in the making, one in the buffer, and a bounded share of a
 * processor.
 */

#include "config-engine.h"

#include "sluice-monitor-private.h"
#include "sluice-monitor-requests-private.h"

typedef struct
{
  GDBusMethodInvocation *invocation;
  guint64                from;
} Request;

/* A caller with calls here: those waiting, oldest first, and whether one
 * of its replies is on its way out. */
typedef struct
{
  char    *name;
  GQueue   waiting;
  gboolean answering;
} Peer;

struct _SluiceMonitorRequests
{
  GMainContext            *context;
  SluiceMonitorAnswerFunc  answer;
  gpointer                 user_data;

  GHashTable              *peers;      /* name → Peer, while it has calls here */
  GQueue                   turns;      /* Peer *: those with calls waiting, next first */
  Peer                    *answering;  /* whose reply is on its way out, or NULL */
  guint                    n_waiting;  /* of all peers, the one answered included */
  gint64                   next_at;    /* the thread rests until then (monotonic µs) */
  GSource                 *timer;
  gboolean                 closed;

  guint64                  n_answered;
  guint64                  n_refused;
};

static void serve (SluiceMonitorRequests *self);

static void
peer_free (gpointer data)
{
  Peer *peer = data;

  g_assert (g_queue_is_empty (&peer->waiting));
  g_free (peer->name);
  g_free (peer);
}

/* A peer on a bus is known by its unique name; the one peer of a
 * peer-to-peer connection has none. */
static Peer *
peer_of (SluiceMonitorRequests *self,
         GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  const char *name = sender != NULL ? sender : "";
  Peer *peer = g_hash_table_lookup (self->peers, name);

  if (peer == NULL)
    {
      peer = g_new0 (Peer, 1);
      peer->name = g_strdup (name);
      g_queue_init (&peer->waiting);
      g_hash_table_insert (self->peers, peer->name, peer);
    }
  return peer;
}

static guint
n_calls (Peer *peer)
{
  return g_queue_get_length (&peer->waiting) + (peer->answering ? 1 : 0);
}

/* A peer with nothing left here is forgotten: the table holds at most
 * SLUICE_MONITOR_CALLS_MAX of them. */
static void
forget_if_done (SluiceMonitorRequests *self,
                Peer                  *peer)
{
  if (n_calls (peer) == 0)
    g_hash_table_remove (self->peers, peer->name);
}

SluiceMonitorRequests *
_sluice_monitor_requests_new (GMainContext            *context,
                              SluiceMonitorAnswerFunc  answer,
                              gpointer                 user_data)
{
  SluiceMonitorRequests *self = g_new0 (SluiceMonitorRequests, 1);

  self->context = g_main_context_ref (context);
  self->answer = answer;
  self->user_data = user_data;
  self->peers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, peer_free);
  g_queue_init (&self->turns);
  return self;
}

static void
cancel_timer (SluiceMonitorRequests *self)
{
  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }
}

/* The calls still waiting get an error: the object is gone. What is being
 * answered still gets its reply. */
void
_sluice_monitor_requests_refuse_all (SluiceMonitorRequests *self,
                                     const char            *object_path)
{
  Peer *peer;

  self->closed = TRUE;
  cancel_timer (self);
  while ((peer = g_queue_pop_head (&self->turns)) != NULL)
    {
      Request *request;

      while ((request = g_queue_pop_head (&peer->waiting)) != NULL)
        {
          self->n_waiting--;
          g_dbus_method_invocation_return_error (request->invocation, G_DBUS_ERROR,
                                                 G_DBUS_ERROR_UNKNOWN_OBJECT,
                                                 "%s is no longer exported", object_path);
          g_free (request);
        }
      forget_if_done (self, peer);
    }
}

void
_sluice_monitor_requests_free (SluiceMonitorRequests *self)
{
  _sluice_monitor_requests_refuse_all (self, "the pool");
  if (self->answering != NULL)
    {
      self->answering->answering = FALSE;
      forget_if_done (self, self->answering);
    }
  g_clear_pointer (&self->peers, g_hash_table_unref);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_free (self);
}

static void
refuse (SluiceMonitorRequests *self,
        GDBusMethodInvocation *invocation)
{
  self->n_refused++;
  g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                                         "too many GetEvents calls wait for their reply (at most %d of "
                                         "a caller, %d in all): call again once a reply came",
                                         SLUICE_MONITOR_PEER_CALLS_MAX, SLUICE_MONITOR_CALLS_MAX);
}

/* All calls taken, a newcomer with fewer than another peer takes the
 * place of that peer's newest: however many calls the others keep making,
 * a monitor gets its turn unless SLUICE_MONITOR_CALLS_MAX peers call at
 * once. */
static gboolean
make_room (SluiceMonitorRequests *self,
           Peer                  *newcomer)
{
  Peer *greedy = NULL;
  Request *request;

  for (GList *l = self->turns.head; l != NULL; l = l->next)
    if (greedy == NULL || n_calls (l->data) > n_calls (greedy))
      greedy = l->data;
  if (greedy == NULL || n_calls (greedy) <= n_calls (newcomer) + 1)
    return FALSE;

  request = g_queue_pop_tail (&greedy->waiting);
  self->n_waiting--;
  refuse (self, request->invocation);
  g_free (request);
  if (g_queue_is_empty (&greedy->waiting))
    {
      g_queue_remove (&self->turns, greedy);
      forget_if_done (self, greedy);
    }
  return TRUE;
}

/* Takes @invocation over: answered in its turn, or refused now. */
void
_sluice_monitor_requests_add (SluiceMonitorRequests *self,
                              GDBusMethodInvocation *invocation,
                              guint64                from)
{
  Peer *peer = peer_of (self, invocation);
  Request *request;

  if (n_calls (peer) >= SLUICE_MONITOR_PEER_CALLS_MAX ||
      (self->n_waiting >= SLUICE_MONITOR_CALLS_MAX && !make_room (self, peer)))
    {
      refuse (self, invocation);
      forget_if_done (self, peer);
      return;
    }

  request = g_new0 (Request, 1);
  request->invocation = invocation;
  request->from = from;
  /* A peer that had none waiting takes the last turn. */
  if (g_queue_is_empty (&peer->waiting))
    g_queue_push_tail (&self->turns, peer);
  g_queue_push_tail (&peer->waiting, request);
  self->n_waiting++;
  serve (self);
}

static gboolean
on_rested (gpointer user_data)
{
  SluiceMonitorRequests *self = user_data;

  g_clear_pointer (&self->timer, g_source_unref);
  serve (self);
  return G_SOURCE_REMOVE;
}

static void
rest_until (SluiceMonitorRequests *self,
            gint64                 now)
{
  if (self->timer != NULL)
    return;
  self->timer = g_timeout_source_new ((guint) ((self->next_at - now + 999) / 1000));
  g_source_set_static_name (self->timer, "[sluice] monitor reply rest");
  g_source_set_callback (self->timer, on_rested, self, NULL);
  g_source_attach (self->timer, self->context);
}

/* The next peer's oldest call, if no reply is on its way and the thread
 * has rested; the peer goes to the back of the turns if it has more. */
static void
serve (SluiceMonitorRequests *self)
{
  Request *request;
  Peer *peer;
  gint64 now;

  if (self->closed || self->answering != NULL || g_queue_is_empty (&self->turns))
    return;

  now = g_get_monotonic_time ();
  if (now < self->next_at)
    {
      rest_until (self, now);
      return;
    }

  peer = g_queue_pop_head (&self->turns);
  request = g_queue_pop_head (&peer->waiting);
  if (!g_queue_is_empty (&peer->waiting))
    g_queue_push_tail (&self->turns, peer);
  peer->answering = TRUE;
  self->answering = peer;
  self->answer (request->invocation, request->from, self->user_data);
  g_free (request);
}

/* The reply in progress is written out (or cannot be); it took the
 * thread @cost µs. */
void
_sluice_monitor_requests_answered (SluiceMonitorRequests *self,
                                   gint64                 cost)
{
  Peer *peer = self->answering;

  g_return_if_fail (peer != NULL);

  peer->answering = FALSE;
  self->answering = NULL;
  self->n_waiting--;
  forget_if_done (self, peer);
  self->n_answered++;
  self->next_at = g_get_monotonic_time () + cost * SLUICE_MONITOR_REST_FACTOR;
  serve (self);
}

void
_sluice_monitor_requests_get_stats (SluiceMonitorRequests      *self,
                                    SluiceMonitorRequestsStats *stats)
{
  stats->n_waiting = self->n_waiting;
  stats->n_peers = g_hash_table_size (self->peers);
  stats->answering = self->answering != NULL;
  stats->n_answered = self->n_answered;
  stats->n_refused = self->n_refused;
}
