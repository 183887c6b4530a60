/* sluice-store-source.c: a pool's source that claims jobs from a job store
 * (docs/job-store.md, the seed's Worker._poll)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "sluice-store-source-private.h"

#include <glib/gi18n-lib.h>
#include <math.h>

/**
 * SluiceStoreSource:
 *
 * The source of a pool that works off a job store.
 *
 * A #SluiceSource for a pool that works off a #SluiceJobStore (the seed's
 * `Worker._poll`): each read claims one job of the tenant with a lease and
 * yields it as an item of type %SLUICE_STORE_ITEM_TYPE. One claim per read
 * is what bounds the claims: the pool reads at most `queue-size + workers
 * + 1` items ahead of the ones it has handled, so no more claims than that
 * are ever unfinished (claimed, and not yet completed, failed or given up).
 * The claims are kept in a table for #SluiceStoreHandler, which forgets
 * each one when its attempt has ended. A job may be claimed again while an
 * older claim of it is unfinished (its lease expired and was released), so
 * a claim is known by the job's id and the attempt it is.
 *
 * When a claim finds nothing, the read waits #SluiceStoreSource:poll-interval
 * on the pool's clock and claims again; the store's
 * #SluiceJobStore::jobs-available for the tenant ends the wait early. The
 * source never ends by itself: a worker lives until it is stopped. With
 * #SluiceStoreSource:until-empty (tests, benchmarks) the read that finds
 * nothing while no claim of this source is unfinished and the tenant has no
 * job pending, scheduled, running or waiting for a retry is the end: the
 * tenant's work is done, by this worker or by others.
 *
 * Expired leases (of a worker that crashed, or of this one before it was
 * restarted) are put back by release_expired: once before the first claim,
 * then every half lease, so that any live worker reclaims a dead one's jobs.
 * That first call failing ends the first read with its error: a store that
 * was never reached is a mistake to report, not a passing trouble.
 *
 * A claim that comes back for a read that was cancelled meanwhile (a stop)
 * is not yielded: nothing will run it, so it is handed back to the store
 * (release: pending again, the attempt not counted) for another worker to
 * claim at once. So are the claims the pool dropped unrun
 * (sluice_store_source_item_dropped()) and those still queued when its run
 * ended (sluice_store_source_close_async()); see
 * sluice-store-source-release.c.
 *
 * A store failure of the %SLUICE_STORE_ERROR_BACKEND kind (the server gone,
 * the file busy past its timeout, a full disk) does not end the source:
 * #SluiceStoreSource::store-error reports it and the read tries again,
 * after the poll interval, then twice as long after each failure in a row,
 * up to 10 s (a failing store is not asked four times a second for ever);
 * the first call that succeeds ends the back-off. With until-empty the
 * failures may go on for #SluiceStoreSource:store-error-timeout at most:
 * then the read fails with the last error, which stops the pool (a
 * worker that is to finish the tenant's work cannot finish it). Any other
 * error ends the read at once.
 *
 * Time: the store's times are the wall clock's, µs since the Unix epoch,
 * shared by every process. On a real clock the source reads
 * g_get_real_time(); on any other, the epoch plus the clock's time (see
 * sluice_store_source_set_epoch()), so that a virtual run maps onto wall
 * time. On a virtual clock a store call takes no time: while one is in
 * flight, the source's or its handler's, the clock is paused, so that time
 * does not jump to the next timer while the store's thread works, and a run
 * stays deterministic.
 */

/* At most this many expired leases are put back per release_expired. */
#define RELEASE_LIMIT 100

/* The longest wait between two reads after store errors. */
#define ERROR_BACKOFF_CAP_US (10 * G_USEC_PER_SEC)


static void source_iface_init   (SluiceSourceInterface *iface);
static void initable_iface_init (GInitableIface        *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SluiceStoreSource, sluice_store_source, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (SLUICE_TYPE_SOURCE, source_iface_init)
                               G_IMPLEMENT_INTERFACE (G_TYPE_INITABLE, initable_iface_init))

enum {
  PROP_0,
  PROP_STORE,
  PROP_CLOCK,
  PROP_TENANT,
  PROP_OWNER,
  PROP_LEASE,
  PROP_POLL_INTERVAL,
  PROP_UNTIL_EMPTY,
  PROP_STORE_ERROR_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  STORE_ERROR,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void claim_next       (SluiceStoreSource *self);
static void watch_cancel     (SluiceStoreSource *self,
                              GCancellable      *cancellable);
static void schedule_release (SluiceStoreSource *self);
static void stop_releasing   (SluiceStoreSource *self);

/* ---- store calls and the virtual clock ---------------------------------- */

void
_sluice_store_source_begin_call (SluiceStoreSource *self)
{
  if (self->n_calls++ > 0)
    return;
  /* A clock someone else paused stays theirs to restart. */
  if (sluice_clock_get_kind (self->clock) == SLUICE_CLOCK_VIRTUAL &&
      !sluice_clock_get_paused (self->clock))
    {
      sluice_clock_set_paused (self->clock, TRUE);
      self->paused_clock = TRUE;
    }
}

void
_sluice_store_source_end_call (SluiceStoreSource *self)
{
  g_return_if_fail (self->n_calls > 0);

  if (--self->n_calls > 0)
    return;
  if (self->paused_clock)
    {
      self->paused_clock = FALSE;
      sluice_clock_set_paused (self->clock, FALSE);
    }
  _sluice_store_source_maybe_closed (self);
}

void
_sluice_store_source_begin_background_call (SluiceStoreSource *self)
{
  self->n_background++;
}

void
_sluice_store_source_end_background_call (SluiceStoreSource *self)
{
  g_return_if_fail (self->n_background > 0);

  if (--self->n_background == 0)
    _sluice_store_source_maybe_closed (self);
}

gint64
_sluice_store_source_get_lease_us (SluiceStoreSource *self)
{
  return self->lease_us;
}

/* ---- the read ----------------------------------------------------------- */

static void
stop_waiting (SluiceStoreSource *self)
{
  if (self->poll_timer != 0)
    sluice_clock_remove_timer (self->clock, self->poll_timer);
  self->poll_timer = 0;
  if (self->cancel_source != NULL)
    g_source_destroy (self->cancel_source);
  g_clear_pointer (&self->cancel_source, g_source_unref);
}

/* Takes the read out first: its callback may start the next one. */
static GTask *
take_read (SluiceStoreSource *self)
{
  stop_waiting (self);
  self->deferred = FALSE;
  return g_steal_pointer (&self->read);
}

static void
return_item (SluiceStoreSource *self,
             GVariant          *item)
{
  g_autoptr(GTask) task = take_read (self);

  g_task_return_pointer (task, item, (GDestroyNotify) g_variant_unref);
}

static void
return_error (SluiceStoreSource *self,
              GError            *error)
{
  g_autoptr(GTask) task = take_read (self);

  g_task_return_error (task, error);
}

static void
return_end (SluiceStoreSource *self)
{
  g_autoptr(GTask) task = take_read (self);

  self->ended = TRUE;
  stop_releasing (self);
  g_task_return_pointer (task, NULL, NULL);
}

static void
stop_releasing (SluiceStoreSource *self)
{
  if (self->release_timer != 0)
    sluice_clock_remove_timer (self->clock, self->release_timer);
  self->release_timer = 0;
}

/* The read's caller gave up: a stop, or a cancel of the run. The pool
 * reads no more after that, so nothing is claimed, and expired leases are
 * left for the workers that still claim. */
static gboolean
read_cancelled (SluiceStoreSource *self)
{
  GCancellable *cancellable = g_task_get_cancellable (self->read);

  if (cancellable == NULL || !g_cancellable_is_cancelled (cancellable))
    return FALSE;
  self->stopped = TRUE;
  stop_releasing (self);
  return_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                           _("The read of the job store was cancelled")));
  return TRUE;
}

static gboolean
on_read_cancel_source (GCancellable *cancellable,
                       gpointer      user_data)
{
  SluiceStoreSource *self = user_data;

  if (self->read != NULL)
    read_cancelled (self);
  return G_SOURCE_REMOVE;
}

static void
on_poll (gpointer user_data)
{
  SluiceStoreSource *self = user_data;

  self->poll_timer = 0;
  stop_waiting (self);
  claim_next (self);
}

/* Waits @delay µs, or less if jobs come (but not while backing off). */
static void
wait_for (SluiceStoreSource *self,
          gint64             delay)
{
  GCancellable *cancellable = g_task_get_cancellable (self->read);

  if (self->wake && !self->backing_off)
    {
      self->wake = FALSE;
      claim_next (self);
      return;
    }
  self->wake = FALSE;

  self->poll_timer = sluice_clock_add_timeout (self->clock, MAX (delay, 1), on_poll, self, NULL);
  watch_cancel (self, cancellable);
}

/* A cancel of the read, while it waits, ends it. */
static void
watch_cancel (SluiceStoreSource *self,
              GCancellable      *cancellable)
{
  if (cancellable != NULL)
    {
      /* Dispatched from the main context: a cancel never finishes the
       * read from inside the canceller's own call. */
      self->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (self->cancel_source, G_SOURCE_FUNC (on_read_cancel_source), self, NULL);
      g_source_set_static_name (self->cancel_source, "[sluice] store source cancelled");
      g_source_attach (self->cancel_source, g_task_get_context (self->read));
    }
}

static void
wait_for_jobs (SluiceStoreSource *self)
{
  wait_for (self, self->poll_us);
}

/* A store call of the read answered: the store works. */
static void
store_answered (SluiceStoreSource *self)
{
  self->n_errors = 0;
  self->backing_off = FALSE;
}

/* The wait after @n failures in a row: the poll interval, doubled for
 * each failure after the first, at most ERROR_BACKOFF_CAP_US. */
static gint64
error_backoff (SluiceStoreSource *self,
               guint              n)
{
  gint64 cap = MAX (self->poll_us, ERROR_BACKOFF_CAP_US);
  gint64 delay = self->poll_us;

  for (guint i = 1; i < n && delay < cap; i++)
    delay *= 2;
  return MIN (delay, cap);
}

/* With until-empty, the store has failed for too long: the read fails
 * with what it said last. */
static void
give_up (SluiceStoreSource *self,
         GError            *error)
{
  char seconds[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (seconds, sizeof seconds, "%g", self->store_error_timeout);
  /* Translators: %s are seconds; then follows what the store said. */
  g_prefix_error (&error, _("The job store kept failing for %s s, so the worker gives up "
                            "instead of waiting for it (until-empty): "), seconds);
  stop_releasing (self);
  return_error (self, error);
}

/* A store call of the read failed (@error taken). A backend failure is
 * said and tried again, later after each failure in a row; any other is
 * the read's end. */
static void
read_failed (SluiceStoreSource *self,
             GError            *error)
{
  gint64 now = sluice_clock_now (self->clock);
  gint64 delay;

  if (!g_error_matches (error, SLUICE_STORE_ERROR, SLUICE_STORE_ERROR_BACKEND))
    {
      return_error (self, error);
      return;
    }
  g_signal_emit (self, signals[STORE_ERROR], 0, error);

  if (self->n_errors++ == 0)
    self->errors_since = now;
  if (self->until_empty && now - self->errors_since >= self->store_error_timeout_us)
    {
      give_up (self, error);
      return;
    }
  g_error_free (error);

  delay = error_backoff (self, self->n_errors);
  /* The last try comes when the time is up, not a back-off later. */
  if (self->until_empty)
    delay = MIN (delay, self->errors_since + self->store_error_timeout_us - now);
  self->backing_off = TRUE;
  wait_for (self, delay);
}

static void
on_status (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(SluiceStoreSource) self = user_data;
  g_autoptr(SluiceStoreStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  status = sluice_job_store_get_status_finish (self->store, result, &error);
  _sluice_store_source_end_call (self);
  self->calling = FALSE;

  if (self->read == NULL || read_cancelled (self))
    return;

  if (status == NULL)
    {
      read_failed (self, g_steal_pointer (&error));
      return;
    }
  store_answered (self);

  /* Jobs came while we asked: they may not be counted. A job scheduled
   * for later is work to do as a retry is. */
  if (!self->wake &&
      status->counts[SLUICE_STORED_JOB_PENDING] == 0 &&
      status->counts[SLUICE_STORED_JOB_SCHEDULED] == 0 &&
      status->counts[SLUICE_STORED_JOB_RUNNING] == 0 &&
      status->counts[SLUICE_STORED_JOB_RETRY_WAIT] == 0 &&
      g_hash_table_size (self->claims) == 0)
    return_end (self);
  else
    wait_for_jobs (self);
}

/* A claim found nothing: wait, or see whether the tenant's work is done. */
static void
found_nothing (SluiceStoreSource *self)
{
  if (!self->until_empty || g_hash_table_size (self->claims) > 0 || self->wake)
    {
      wait_for_jobs (self);
      return;
    }

  self->calling = TRUE;
  _sluice_store_source_begin_call (self);
  sluice_job_store_get_status_async (self->store, self->tenant, 0, NULL, on_status,
                                     g_object_ref (self));
}

/* A claim's key in the table: the job and its attempt, which each claim
 * counts, so two claims of one job never share it. */
char *
_sluice_store_source_claim_key (const char *job_id,
                                guint       attempt)
{
  return g_strdup_printf ("%s#%u", job_id, attempt);
}

static GVariant *
item_for_claim (const SluiceJobClaim *claim)
{
  const SluiceStoredJob *job = claim->job;

  return g_variant_ref_sink (g_variant_new ("(ssus)", job->id, job->operation_key,
                                            job->attempts, job->payload));
}

/* The next claim taken ahead that is still the source's (close may have
 * handed it back meanwhile), yielded to the read. */
static gboolean
yield_buffered (SluiceStoreSource *self)
{
  char *key;

  while ((key = g_queue_pop_head (&self->buffered)) != NULL)
    {
      g_autofree char *owned = key;
      const SluiceJobClaim *claim = g_hash_table_lookup (self->claims, owned);

      if (claim != NULL)
        {
          return_item (self, item_for_claim (claim));
          return TRUE;
        }
    }
  return FALSE;
}

/* Claims taken ahead that nobody will read: handed back. */
static void
release_buffered (SluiceStoreSource *self)
{
  char *key;

  while ((key = g_queue_pop_head (&self->buffered)) != NULL)
    {
      gpointer stolen_key = NULL;
      gpointer claim = NULL;

      if (g_hash_table_steal_extended (self->claims, key, &stolen_key, &claim))
        {
          g_free (stolen_key);
          _sluice_store_source_release_claim (self, claim);
        }
      g_free (key);
    }
}

/* How many jobs the next claim asks for: as many as the source may still
 * hold, at least one. */
static guint
claim_room (SluiceStoreSource *self)
{
  guint held = g_hash_table_size (self->claims);

  return self->claim_ahead > held ? self->claim_ahead - held : 1;
}

static void
keep_claims (SluiceStoreSource *self,
             GPtrArray         *claims)
{
  for (guint i = 0; i < claims->len; i++)
    {
      SluiceJobClaim *claim = g_ptr_array_index (claims, i);
      char *key = _sluice_store_source_claim_key (claim->job->id, claim->job->attempts);

      g_hash_table_replace (self->claims, g_strdup (key), sluice_job_claim_copy (claim));
      g_queue_push_tail (&self->buffered, key);
    }
  self->max_claims = MAX (self->max_claims, g_hash_table_size (self->claims));
}

static void
on_claimed (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(SluiceStoreSource) self = user_data;
  g_autoptr(GPtrArray) claims = NULL;
  g_autoptr(GError) error = NULL;

  claims = sluice_job_store_claim_finish (self->store, result, &error);
  self->calling = FALSE;
  if (claims != NULL)
    {
      self->n_claimed += claims->len;
      keep_claims (self, claims);
    }

  /* Claims nobody reads any more are handed back: nothing will run them.
   * Before the end of this call, so that a close waits for them too. A
   * claim taken ahead (no read yet) is kept for the next read. */
  if (self->stopped || self->closed || (self->read != NULL && read_cancelled (self)))
    {
      release_buffered (self);
      _sluice_store_source_end_call (self);
      return;
    }
  _sluice_store_source_end_call (self);
  if (self->read == NULL)
    return;

  if (error != NULL)
    {
      read_failed (self, g_steal_pointer (&error));
      return;
    }
  store_answered (self);

  if (!yield_buffered (self))
    {
      found_nothing (self);
      return;
    }
  self->wake = FALSE;
}

static void
claim_next (SluiceStoreSource *self)
{
  self->wake = FALSE;
  self->calling = TRUE;
  _sluice_store_source_begin_call (self);
  sluice_job_store_claim_async (self->store, self->tenant, self->owner, self->lease_us,
                                sluice_store_source_now (self), claim_room (self), NULL, on_claimed,
                                g_object_ref (self));
}

/* Whether the next claim should wait for more room: with claims taken
 * ahead, one claim asks for half the claims the source may hold, not for
 * the one a finished job just made room for, while that many are still
 * unfinished (the pool has work queued meanwhile). */
static gboolean
wants_more_room (SluiceStoreSource *self)
{
  guint held = g_hash_table_size (self->claims);
  guint batch = MAX (self->claim_ahead / 2, 1);

  return self->claim_ahead > 1 && held >= batch && self->claim_ahead - MIN (held, self->claim_ahead) < batch;
}

/* After a read took a claim from those taken ahead: when none is left,
 * the next claim goes out while the jobs run, so that the next read finds
 * its claims waiting. */
static void
claim_ahead (SluiceStoreSource *self)
{
  if (self->claim_ahead > 1 && g_queue_is_empty (&self->buffered) && !self->calling &&
      !self->releasing && !self->stopped && !self->closed && !self->ended && !wants_more_room (self))
    claim_next (self);
}

void
_sluice_store_source_room_freed (SluiceStoreSource *self)
{
  if (self->deferred && self->read != NULL && !wants_more_room (self))
    {
      self->deferred = FALSE;
      stop_waiting (self);
      claim_next (self);
    }
  else if (self->read == NULL)
    claim_ahead (self);
}

static void
on_jobs_available (SluiceJobStore *store,
                   const char     *tenant,
                   gpointer        user_data)
{
  SluiceStoreSource *self = user_data;

  if (g_strcmp0 (tenant, self->tenant) != 0 || self->read == NULL)
    return;

  /* A failing store is not asked again sooner for it. */
  if (self->poll_timer != 0 && !self->backing_off)
    {
      stop_waiting (self);
      claim_next (self);
    }
  else if (self->calling)
    self->wake = TRUE;
}

/* ---- releasing expired leases ------------------------------------------- */

static void
on_released (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(SluiceStoreSource) self = user_data;
  g_autoptr(GError) error = NULL;
  gint64 released;

  released = sluice_job_store_release_expired_finish (self->store, result, &error);
  _sluice_store_source_end_call (self);
  self->releasing = FALSE;

  /* A store that fails the very first call may never have been reached
   * (a wrong host, a file that cannot be opened): the read fails, and the
   * worker with it, rather than retrying for ever. */
  if (released < 0 && !self->started)
    {
      if (self->read != NULL && !read_cancelled (self))
        return_error (self, g_steal_pointer (&error));
      return;
    }

  /* Later, a failed release is tried again in half a lease; the claims go on. */
  if (released < 0)
    g_signal_emit (self, signals[STORE_ERROR], 0, error);

  if (self->ended || self->stopped)
    return;
  schedule_release (self);

  /* The first release comes before the first claim. */
  if (!self->started)
    {
      self->started = TRUE;
      if (self->read != NULL && !read_cancelled (self))
        claim_next (self);
      return;
    }

  if (released > 0 && self->poll_timer != 0)
    {
      stop_waiting (self);
      claim_next (self);
    }
}

static void
release_expired (SluiceStoreSource *self)
{
  self->releasing = TRUE;
  _sluice_store_source_begin_call (self);
  sluice_job_store_release_expired_async (self->store, self->tenant, sluice_store_source_now (self),
                                          RELEASE_LIMIT, NULL, on_released, g_object_ref (self));
}

static void
on_release_timer (gpointer user_data)
{
  SluiceStoreSource *self = user_data;

  self->release_timer = 0;
  if (!self->releasing)
    release_expired (self);
}

static void
schedule_release (SluiceStoreSource *self)
{
  if (self->release_timer == 0 && !self->closed)
    self->release_timer = sluice_clock_add_timeout (self->clock, MAX (self->lease_us / 2, 1),
                                                    on_release_timer, self, NULL);
}

void
_sluice_store_source_shut (SluiceStoreSource *self)
{
  self->closed = TRUE;
  stop_releasing (self);
  _sluice_store_source_stop_worker (self, TRUE);
  if (self->read != NULL)
    return_error (self, g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CLOSED,
                                             _("The store source was closed")));
}

/* ---- SluiceSource ------------------------------------------------------- */

static void
sluice_store_source_next_async (SluiceSource        *source,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  SluiceStoreSource *self = SLUICE_STORE_SOURCE (source);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, sluice_store_source_next_async);
  /* A claim is made whatever happens to the read: who reads it is decided
   * in on_claimed(). */
  g_task_set_check_cancellable (task, FALSE);

  if (self->read != NULL)
    {
      g_task_return_new_error (task, SLUICE_ERROR, SLUICE_ERROR_PENDING,
                               _("A read of the job store is already pending"));
      return;
    }

  if (self->ended)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (self->closed)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CLOSED, _("The store source was closed"));
      return;
    }

  self->read = g_steal_pointer (&task);

  if (!self->started)
    {
      /* A worker of the store from its first read (docs/store-admin.md). */
      _sluice_store_source_start_worker (self);
      if (!self->releasing)
        release_expired (self);
      return;
    }

  /* A claim taken ahead answers at once; a claim in flight answers this
   * read when it comes back. */
  if (yield_buffered (self))
    {
      claim_ahead (self);
      return;
    }
  if (self->calling)
    return;
  if (wants_more_room (self))
    {
      self->deferred = TRUE;
      watch_cancel (self, cancellable);
      return;
    }
  claim_next (self);
}

static GVariant *
sluice_store_source_next_finish (SluiceSource  *source,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, source), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
source_iface_init (SluiceSourceInterface *iface)
{
  iface->next_async = sluice_store_source_next_async;
  iface->next_finish = sluice_store_source_next_finish;
}

/* ---- GInitable ---------------------------------------------------------- */

static gboolean
invalid_seconds (GError     **error,
                 const char  *option,
                 double       value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (text, sizeof text, "%g", value);
  g_set_error (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG,
               /* Translators: %s is an option's name (such as lease), then its value. */
               _("%s must be a finite number of seconds above 0, not %s"), option, text);
  return FALSE;
}

static gboolean
seconds_ok (double seconds)
{
  return isfinite (seconds) && seconds > 0 && seconds < (double) G_MAXINT32 &&
         sluice_time_from_seconds (seconds) > 0;
}

static gboolean
sluice_store_source_initable_init (GInitable     *initable,
                                   GCancellable  *cancellable,
                                   GError       **error)
{
  SluiceStoreSource *self = SLUICE_STORE_SOURCE (initable);

  if (self->store == NULL || self->clock == NULL)
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG,
                           _("A store source needs a store and a clock"));
      return FALSE;
    }
  if (self->tenant == NULL || *self->tenant == '\0' || self->owner == NULL || *self->owner == '\0')
    {
      g_set_error_literal (error, SLUICE_ERROR, SLUICE_ERROR_INVALID_CONFIG,
                           _("The tenant and the worker's name must not be empty"));
      return FALSE;
    }
  if (!seconds_ok (self->lease))
    return invalid_seconds (error, "lease", self->lease);
  if (!seconds_ok (self->poll_interval))
    return invalid_seconds (error, "poll-interval", self->poll_interval);
  if (!seconds_ok (self->store_error_timeout))
    return invalid_seconds (error, "store-error-timeout", self->store_error_timeout);

  self->lease_us = sluice_time_from_seconds (self->lease);
  self->poll_us = sluice_time_from_seconds (self->poll_interval);
  self->store_error_timeout_us = sluice_time_from_seconds (self->store_error_timeout);
  self->epoch = g_get_real_time () - sluice_clock_now (self->clock);
  self->jobs_available_id = g_signal_connect (self->store, "jobs-available",
                                              G_CALLBACK (on_jobs_available), self);
  return TRUE;
}

static void
initable_iface_init (GInitableIface *iface)
{
  iface->init = sluice_store_source_initable_init;
}

/* ---- GObject ------------------------------------------------------------ */

static void
sluice_store_source_dispose (GObject *object)
{
  SluiceStoreSource *self = SLUICE_STORE_SOURCE (object);

  /* Every call in flight holds a reference: none is left, and a read
   * holds one too. */
  stop_waiting (self);
  stop_releasing (self);
  _sluice_store_source_stop_worker (self, FALSE);
  g_clear_signal_handler (&self->jobs_available_id, self->store);

  G_OBJECT_CLASS (sluice_store_source_parent_class)->dispose (object);
}

static void
sluice_store_source_finalize (GObject *object)
{
  SluiceStoreSource *self = SLUICE_STORE_SOURCE (object);

  g_clear_object (&self->store);
  g_clear_object (&self->clock);
  g_clear_pointer (&self->tenant, g_free);
  g_clear_pointer (&self->owner, g_free);
  g_clear_pointer (&self->claims, g_hash_table_unref);
  g_clear_pointer (&self->running, g_hash_table_unref);
  g_queue_clear_full (&self->buffered, g_free);

  G_OBJECT_CLASS (sluice_store_source_parent_class)->finalize (object);
}

static void
sluice_store_source_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SluiceStoreSource *self = SLUICE_STORE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_STORE:
      g_value_set_object (value, self->store);
      break;
    case PROP_CLOCK:
      g_value_set_object (value, self->clock);
      break;
    case PROP_TENANT:
      g_value_set_string (value, self->tenant);
      break;
    case PROP_OWNER:
      g_value_set_string (value, self->owner);
      break;
    case PROP_LEASE:
      g_value_set_double (value, self->lease);
      break;
    case PROP_POLL_INTERVAL:
      g_value_set_double (value, self->poll_interval);
      break;
    case PROP_UNTIL_EMPTY:
      g_value_set_boolean (value, self->until_empty);
      break;
    case PROP_STORE_ERROR_TIMEOUT:
      g_value_set_double (value, self->store_error_timeout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_source_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SluiceStoreSource *self = SLUICE_STORE_SOURCE (object);

  switch (prop_id)
    {
    case PROP_STORE:
      self->store = g_value_dup_object (value);
      break;
    case PROP_CLOCK:
      self->clock = g_value_dup_object (value);
      break;
    case PROP_TENANT:
      self->tenant = g_value_dup_string (value);
      break;
    case PROP_OWNER:
      self->owner = g_value_dup_string (value);
      break;
    case PROP_LEASE:
      self->lease = g_value_get_double (value);
      break;
    case PROP_POLL_INTERVAL:
      self->poll_interval = g_value_get_double (value);
      break;
    case PROP_UNTIL_EMPTY:
      sluice_store_source_set_until_empty (self, g_value_get_boolean (value));
      break;
    case PROP_STORE_ERROR_TIMEOUT:
      self->store_error_timeout = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sluice_store_source_class_init (SluiceStoreSourceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags construct = G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS;

  object_class->dispose = sluice_store_source_dispose;
  object_class->finalize = sluice_store_source_finalize;
  object_class->get_property = sluice_store_source_get_property;
  object_class->set_property = sluice_store_source_set_property;

  /**
   * SluiceStoreSource:store:
   *
   * The store the jobs are claimed from.
   */
  properties [PROP_STORE] =
    g_param_spec_object ("store", NULL, NULL, SLUICE_TYPE_JOB_STORE, construct);

  /**
   * SluiceStoreSource:clock:
   *
   * The pool's clock: the poll and release timers run on it, and on a
   * clock that is not real the store's times are the epoch plus its time.
   */
  properties [PROP_CLOCK] =
    g_param_spec_object ("clock", NULL, NULL, SLUICE_TYPE_CLOCK, construct);

  /**
   * SluiceStoreSource:tenant:
   *
   * The tenant (queue) whose jobs are claimed.
   */
  properties [PROP_TENANT] =
    g_param_spec_string ("tenant", NULL, NULL, NULL, construct);

  /**
   * SluiceStoreSource:owner:
   *
   * The worker's name, the claims' lease owner.
   */
  properties [PROP_OWNER] =
    g_param_spec_string ("owner", NULL, NULL, NULL, construct);

  /**
   * SluiceStoreSource:lease:
   *
   * How long a claim's lease lasts, in seconds, unless it is renewed.
   */
  properties [PROP_LEASE] =
    g_param_spec_double ("lease", NULL, NULL, -INFINITY, INFINITY, 30.0,
                         construct | G_PARAM_LAX_VALIDATION);

  /**
   * SluiceStoreSource:poll-interval:
   *
   * How long a read waits, in seconds, after a claim that found nothing,
   * unless the store says that jobs are available.
   */
  properties [PROP_POLL_INTERVAL] =
    g_param_spec_double ("poll-interval", NULL, NULL, -INFINITY, INFINITY, 0.25,
                         construct | G_PARAM_LAX_VALIDATION);

  /**
   * SluiceStoreSource:until-empty:
   *
   * Whether the source ends once the tenant has nothing left to do: a
   * claim found nothing, no claim of the source is unfinished, and no job
   * of the tenant is pending, running or waiting for a retry.
   */
  properties [PROP_UNTIL_EMPTY] =
    g_param_spec_boolean ("until-empty", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);

  /**
   * SluiceStoreSource:store-error-timeout:
   *
   * With #SluiceStoreSource:until-empty, how long, in seconds, the store's
   * errors may go on (the reads' calls failing in a row, backed off)
   * before the source gives up and its read fails with the last of them.
   * Without until-empty a worker lives until it is stopped, and keeps
   * trying.
   */
  properties [PROP_STORE_ERROR_TIMEOUT] =
    g_param_spec_double ("store-error-timeout", NULL, NULL, -INFINITY, INFINITY, 60.0,
                         construct | G_PARAM_LAX_VALIDATION);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SluiceStoreSource::store-error:
   * @self: the source
   * @error: what the store said
   *
   * A store call of the source failed in a way that may pass (a
   * %SLUICE_STORE_ERROR_BACKEND error, or any error of a periodic
   * release_expired): the source goes on, and tries again later.
   */
  signals [STORE_ERROR] =
    g_signal_new ("store-error", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
sluice_store_source_init (SluiceStoreSource *self)
{
  self->lease = 30.0;
  self->poll_interval = 0.25;
  self->store_error_timeout = 60.0;
  self->claim_ahead = 1;
  g_queue_init (&self->buffered);
  self->running = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->claims = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) sluice_job_claim_free);
}
